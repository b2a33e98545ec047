"""experiments/sense_minilm_shipped: the shipped settings are the ones chosen, and the page's reading (no dataset)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.sense_minilm_shipped import COLUMNS, check_shipped, main, markdown, shipped_settings
from wsd.senses.recipes import DEFAULT_OUTPUT, OUTPUTS

CHOSEN = Path(__file__).parents[1] / "experiments/results/encoder_recipe/encoder_recipe.json"


def test_the_shipped_sense_recipe_is_the_one_the_rule_chose_for_the_recipes_seed() -> None:
    """``sense-minilm`` ships what encoder_recipe's rule chose for the second choice's seed 0 (seed 1 chose the
    same), its output settings included."""
    chosen = json.loads(CHOSEN.read_text(encoding="utf-8"))["encoders"]
    for key in ("inventory_seed0", "inventory_seed1"):
        setting = chosen[key]["rows"][chosen[key]["chosen"]]["setting"]
        assert (setting["context_weight"], setting["temperature"]) == shipped_settings() == (0.3, 0.08)
        assert (setting["min_weight"], setting["top"]) == (DEFAULT_OUTPUT["min_weight"], DEFAULT_OUTPUT["top"])
    assert OUTPUTS["sense-minilm"] == DEFAULT_OUTPUT


def _results(tuned_jsd: float) -> dict:
    untuned = {key: 0.30 for _, key in COLUMNS} | {"ari_one_sense": 0.134}
    tuned = {key: 0.32 for _, key in COLUMNS} | {"rho_jsd": tuned_jsd, "ari_one_sense": 0.134}
    return {
        "command": "python -m experiments.sense_minilm_shipped",
        "build": {
            "machine": "2 cores, a CPU",
            "training_seconds": 1100.0,
            "recipe": {"name": "sense-minilm", "version": 2},
        },
        "shipped": {"context_weight": 0.3, "temperature": 0.08},
        "rows": {"untuned": untuned, "tuned": tuned},
        "intervals": {"semeval2013": [-1.0, 2.0], "rho_prt": [0.01, 0.2], "rho_jsd": [-0.3, -0.01]},
    }


def test_the_page_reads_the_condition_column_by_column() -> None:
    page = markdown(_results(tuned_jsd=0.32))
    assert "| SemEval-2013 AVG, all | 30.00 | 32.00 | yes | [-1.00, +2.00] |" in page
    assert "| DWUG EN ρ PRT | 0.300 | 0.320 | yes | [+0.010, +0.200] (excludes 0) |" in page
    assert f"It is: above in all {len(COLUMNS)} columns." in page
    page = markdown(_results(tuned_jsd=0.29))
    assert "| DWUG EN ρ JSD | 0.300 | 0.290 | **no** | [-0.300, -0.010] (excludes 0) |" in page
    assert "It is not: below or level in DWUG EN ρ JSD." in page


def test_markdown_only_needs_its_results_and_a_data_folder_is_checked(tmp_path: Path, capsys, monkeypatch) -> None:
    import experiments.sense_minilm_shipped as experiment

    monkeypatch.setattr(experiment, "RESULTS_JSON", tmp_path / "none.json")
    with pytest.raises(SystemExit) as exited:
        main(["--markdown-only"])
    assert exited.value.code == 2 and "no results yet" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["--data-dir", str(tmp_path / "nowhere")])
    assert exited.value.code == 2 and "no wic/ in" in capsys.readouterr().err


def test_a_tuned_run_that_did_not_take_the_shipped_recipe_stops_the_experiment() -> None:
    check_shipped({"temperature": 0.08, "context_vector": "20:last:0.3", "min_weight": 0.2}, "semeval2013")
    with pytest.raises(SystemExit, match="did not take the shipped recipe"):
        check_shipped({"temperature": 0.04, "context_vector": "20:last:0.5", "min_weight": 0.2}, "semeval2013")
    with pytest.raises(SystemExit, match="did not take the shipped recipe"):
        check_shipped({"temperature": 0.08, "context_vector": "20:last:0.5", "min_weight": 0.2}, "semeval2010")
