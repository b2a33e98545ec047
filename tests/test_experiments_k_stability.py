"""experiments/k_stability: the page of the default study and of a comparison of other forward passes."""

from __future__ import annotations

import pytest

from experiments.k_stability import MARGINS, compare, main, markdown


def _scores(shift: float) -> dict[str, dict[int, float]]:
    """Two words' candidate silhouettes; ``shift`` moves bank's k = 4 by rounding."""
    return {"bank": {2: 0.040, 3: 0.031, 4: 0.039 + shift}, "power": {2: 0.08, 3: 0.02, 4: 0.01}}


def _results(configs: list[str], cost: dict) -> dict:
    pair = compare(_scores(0.0), _scores(0.002))
    per_margin = {f"{m:g}": 2.5 for m in MARGINS}
    figures = {
        "pairs": {f"{configs[0]} vs {configs[1]}": pair},
        "gaps": {"targets": 2, "within_0.002": 0.5, "within_0.005": 0.5, "within_0.01": 0.5},
        "mean_k": per_margin,
        "k_two": {key: 0.5 for key in per_margin},
    }
    return {
        "command": "python -m experiments.k_stability",
        "machine": "test machine",
        "date": "2026-12-04",
        "configs": configs,
        "reference": configs[0],
        "sets": {"semeval2010": figures},
        "rounding_pair": f"{configs[0]} vs {configs[1]}",
        "margin": 0.02,
        "cost": cost,
    }


def test_rounding_that_moves_a_near_tie_changes_k_and_a_margin_absorbs_it():
    pair = compare(_scores(0.0), _scores(0.002))
    assert pair["k_differs"]["0"] == [{"target": "bank", "k": [2, 4]}]
    assert pair["k_differs"]["0.02"] == []
    assert pair["silhouette_change"]["max"] == pytest.approx(0.002)


def test_a_comparison_of_other_forward_passes_names_them_and_measures_no_cost():
    page = markdown(_results(["openvino-bf16", "torch-bf16"], {}))
    assert "forward passes OpenVINO bf16, PyTorch bf16; OpenVINO bf16 is the default on this machine" in page
    assert "Words whose k differs between OpenVINO bf16 and PyTorch bf16" in page
    assert "| semeval2010 | openvino-bf16 vs torch-bf16 | 2 |" in page
    assert "1: bank (2 vs 4) | 0 |" in page
    assert "Chosen margin" not in page and "What the margin costs" not in page


def test_an_unknown_forward_pass_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--configs", "openvino-int4,torch-bf16"])
    assert "--configs: at least two of" in capsys.readouterr().err
