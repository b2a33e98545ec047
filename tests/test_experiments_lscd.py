"""experiments.lscd: the dev/held-out split, one word's change figures and the results file, on hand-made data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from experiments.lscd import Setting, markdown, split_words, summarise, word_result


def test_split_is_alternate_sorted_words() -> None:
    assert split_words(["c", "a", "d", "b"]) == {"dev": ["a", "c"], "held_out": ["b", "d"]}


def _word(swap: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two well-separated senses; with ``swap`` period 1 uses only the first and period 2 only the second."""
    rng = np.random.default_rng(0)
    a = rng.normal(0, 0.05, size=(20, 4)) + np.array([1.0, 0, 0, 0])
    b = rng.normal(0, 0.05, size=(20, 4)) + np.array([0, 1.0, 0, 0])
    X = np.vstack([a, b])
    period = np.r_[np.zeros(20), np.ones(20)] if swap else np.tile([0, 1], 20)
    gold = np.array(["s1"] * 20 + ["s2"] * 20)
    return X, period.astype(np.int64), gold


def test_a_word_whose_senses_swap_changes_fully_and_a_stable_one_not() -> None:
    setting = Setting("ward", {"method": "ward", "k": 2})
    X, period, gold = _word(swap=True)
    forms = np.array(["w"] * len(X))
    swapped = word_result(setting, X, forms, period, gold, (1, 5))
    assert math.isclose(swapped.scores["jsd"], 1.0) and swapped.ari == 1.0 and swapped.binary == 1
    X, period, gold = _word(swap=False)
    stable = word_result(setting, X, forms, period, gold, (1, 5))
    assert stable.scores["jsd"] == 0.0 and stable.binary == 0
    summary = summarise(
        {"a": swapped, "b": stable}, pd.Series({"a": 0.9, "b": 0.1}), pd.Series({"a": 1, "b": 0}), ["a", "b"]
    )
    assert math.isclose(summary["rho_jsd"], 1.0) and math.isclose(summary["ari"], 1.0)
    assert summary["binary_acc"] == 1.0


def test_results_file_names_the_parts_and_marks_held_out_data() -> None:
    row = {"ari": 0.5, "rho_jsd": 0.25, "rho_apd_default": 0.4}
    results = {
        "command": "python -m experiments.lscd",
        "datasets": {
            "dwug_en": {"gold": "change_graded", "words": 2, "settings": {"default": {"dev": row, "all": row}}},
            "nordiachange1": {"gold": "change_graded", "words": 2, "settings": {"default": {"all": row}}},
        },
    }
    text = markdown(results)
    assert "## dwug_en — dev (chosen on" in text and "## nordiachange1 — all (held out" in text
    assert "| default | 0.500 | 0.250 |" in text and "| default | 0.400 | – |" in text
