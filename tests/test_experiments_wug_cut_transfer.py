"""experiments/wug_cut_transfer: the SemEval interval, the flags and the page (no dataset)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from experiments.wug_cut_transfer import cut_flags, markdown, semeval_interval, slug


def _per_target(folder: Path, fnmi: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True)
    n = 20
    pd.DataFrame(
        {
            "target": [f"w{i}.n" for i in range(n)],
            "fnmi": fnmi + rng.normal(scale=0.01, size=n),
            "fbc_p": 0.7,
            "fbc_r": 0.6,
        }
    ).to_csv(folder / "per_target.csv", index=False)


def test_the_semeval_interval_is_paired_and_in_points(tmp_path: Path) -> None:
    _per_target(tmp_path / "a", 0.30, 0)
    _per_target(tmp_path / "b", 0.20, 1)
    low, high = semeval_interval(tmp_path / "a", tmp_path / "b", "semeval2013")
    f = 2 * 0.7 * 0.6 / 1.3
    expected = 100 * (np.sqrt(0.30 * f) - np.sqrt(0.20 * f))
    assert low < expected < high and high - low < 2.0
    assert semeval_interval(tmp_path / "a", tmp_path / "a", "semeval2013") == [0.0, 0.0]


def test_flags_and_folder_names() -> None:
    assert cut_flags(0.6000000000000001)[-1] == "0.6000000000000001"  # written exactly
    assert slug("MPNet WiC seed 1") == "mpnet-wic-seed-1"


def test_the_page_has_both_parts() -> None:
    row = {
        "halves_cut": {"dev": 0.61, "held_out": 0.66},
        "wug_cut": {"rho_jsd": 0.69, "ari": 0.377},
        "dwug": {"rho_jsd": 0.7, "ari": 0.38},
        "semeval_cut": {"cut": 0.64, "accuracy": 0.7},
        "semeval": {
            "semeval2013": {"default": 36.9, "cut": 30.0, "interval": [-8.0, -5.0]},
            "semeval2010": {"default": 55.1, "cut": 50.0, "interval": [-6.0, -4.0]},
        },
    }
    results = {"command": "c", "machine": "m", "date": "d", "one_sense_ari": 0.134, "models": {"MPNet WiC seed 0": row}}
    page = markdown(results)
    assert "| MPNet WiC seed 0 | 0.610 / 0.660 | 0.700 | 0.690 | 38.0 | 37.7 |" in page
    assert "| MPNet WiC seed 0 | 0.640 (0.700) | 36.90 | 30.00 [-8.00, -5.00] | 55.10 | 50.00 [-6.00, -4.00] |" in page
    with pytest.raises(KeyError):
        markdown(results | {"models": {"x": {"dwug": {}, "halves_cut": {}}}})
