"""experiments/sense_mpnet_shipped: the shipped sense recipe is the one chosen for the recipe's seed, and the page's
reading (no dataset, no model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.sense_minilm_shipped import COLUMNS, check_shipped, shipped_settings
from experiments.sense_mpnet_shipped import main, markdown
from wsd.senses.recipes import OUTPUTS

CHOSEN = Path(__file__).parents[1] / "experiments/results/encoder_recipe/encoder_recipe-mpnet.json"


def test_sense_mpnet_ships_what_the_rule_chose_for_the_wise_average_of_seed_0() -> None:
    """The recipe builds training seed 0; its sense recipe is the one encoder_recipe's rule chose for that model."""
    chosen = json.loads(CHOSEN.read_text(encoding="utf-8"))["encoders"]["wise_seed0"]
    setting = chosen["rows"][chosen["chosen"]]["setting"]
    assert (setting["context_weight"], setting["temperature"]) == shipped_settings("sense-mpnet") == (0.3, 0.08)
    assert (setting["min_weight"], setting["top"]) == (
        OUTPUTS["sense-mpnet"]["min_weight"],
        OUTPUTS["sense-mpnet"]["top"],
    )


def test_a_run_that_did_not_take_sense_mpnets_keys_stops_the_experiment() -> None:
    check_shipped(
        {"temperature": 0.08, "context_vector": "20:last:0.3", "min_weight": 0.1}, "semeval2013", "sense-mpnet"
    )
    with pytest.raises(SystemExit, match="did not take the shipped recipe"):
        check_shipped(
            {"temperature": 0.08, "context_vector": "20:last:0.3", "min_weight": 0.2}, "semeval2013", "sense-mpnet"
        )


def _results(semeval2013: float) -> dict:
    untuned = {key: 0.36 for _, key in COLUMNS} | {"ari_one_sense": 0.134}
    tuned = {key: 0.37 for _, key in COLUMNS} | {"semeval2013_all": semeval2013, "ari_one_sense": 0.134}
    return {
        "command": "python -m experiments.sense_mpnet_shipped --model m",
        "machine": "2 cores, a CPU",
        "date": "2026-12-08",
        "model": "m",
        "build": {
            "machine": "2 cores, a CPU",
            "training_seconds": 7022.2,
            "trained_from": "out/t",
            "recipe": {"name": "sense-mpnet", "version": 1},
        },
        "shipped": {"context_weight": 0.3, "temperature": 0.08},
        "rows": {"untuned": untuned, "tuned": tuned},
        "intervals": {"semeval2013": [-1.0, 2.0]},
    }


def test_the_page_reads_the_target_on_both_sets_of_words_and_the_columns() -> None:
    page = markdown(_results(0.385))
    assert "| SemEval-2013 AVG, all | 36.00 | 38.50 | yes | [-1.00, +2.00] |" in page
    assert "SemEval-2013 AVG, all 38.500: met; SemEval-2013 AVG, held-out half 37.000: not met" in page
    assert f"Above the untuned MPNet in {len(COLUMNS)} of {len(COLUMNS)} columns." in page
    assert "all 37.997: not met" in markdown(_results(0.37997))  # not rounded up to the target
    page = markdown(_results(0.35))
    assert "SemEval-2013 AVG, all 35.000: not met" in page and "below or level in SemEval-2013 AVG, all." in page
    untuned_only = _results(0.35)
    del untuned_only["rows"]["tuned"]
    assert "The tuned row is not scored yet." in markdown(untuned_only)


def test_its_inputs_are_checked_before_anything_runs(tmp_path: Path, capsys, monkeypatch) -> None:
    import experiments.sense_mpnet_shipped as experiment

    monkeypatch.setattr(experiment, "RESULTS_JSON", tmp_path / "none.json")
    for argv, message in (
        (["--markdown-only"], "no results yet"),
        (["--model", str(tmp_path / "nowhere")], "--model: give the all-mpnet-base-v2 folder"),
        (["--model", str(tmp_path), "--data-dir", str(tmp_path / "nowhere")], "no wic/ in"),
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2 and message in capsys.readouterr().err


def test_the_page_says_how_many_dev_lemmas_the_tuned_model_trained_on() -> None:
    """Dev accuracies of a tuned model are partly in-sample: the page counts the dev lemmas seen in training."""
    from experiments.sense_minilm_shipped import overlap_line

    results = _results(0.38)
    results["rows"]["tuned"]["dev_overlap"] = {"WiC dev": [317, 599], "MCL-WiC dev en-en": [119, 493]}
    assert (
        "not held out from the training lemmas of sense-mpnet (other pairs of the same words): 317 of WiC dev's 599 "
        "and 119 of MCL-WiC dev en-en's 493 lemmas were in training" in markdown(results)
    )
    assert overlap_line(None, "untuned") == "" and overlap_line({}, "x") == ""
