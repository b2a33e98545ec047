"""experiments.lscd: the dev/held-out split, one word's change figures and the results file, on hand-made data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from experiments.lscd import (
    Setting,
    add_ensembles,
    lemmatise_targets,
    markdown,
    protocol,
    split_words,
    summarise,
    word_result,
)


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
    assert "## dwug_en — dev (first half" in text and "## nordiachange1 — all (external" in text
    assert "| default | 0.500 | 0.250 |" in text and "| default | 0.400 | – |" in text


def test_lemmatised_targets_carry_the_lemma_at_a_moved_span() -> None:
    occ = pd.DataFrame(
        {"target": ["plane_nn", "tip_vb"], "text": ["two planes here", "he tipped it"], "start": [4, 3], "end": [10, 9]}
    )
    occ["form"] = ["planes", "tipped"]
    out = lemmatise_targets(occ)
    assert out["text"].tolist() == ["two plane here", "he tip it"]
    assert [t[a:b] for t, a, b in zip(out["text"], out["start"], out["end"], strict=True)] == ["plane", "tip"]
    assert occ["text"].iloc[0] == "two planes here"  # the input is not changed


def test_apd_prt_ensemble_is_the_mean_rank() -> None:
    per_word = {
        "a": {"apd_default": 0.1, "prt_default": 0.3},
        "b": {"apd_default": 0.2, "prt_default": 0.1},
        "c": {"apd_default": 0.3, "prt_default": 0.2},
    }
    add_ensembles(per_word)
    assert [per_word[w]["apd+prt_default"] for w in "abc"] == [2.0, 1.5, 2.5]


def _protocol_data(n: int = 20) -> dict:
    """A dataset of ``n`` words where ``perfect`` is the gold, ``prt_default`` half noise and ``noise`` random."""
    rng = np.random.default_rng(1)
    words = [f"w{i:02d}" for i in range(n)]
    gold = rng.random(n)
    noisy = gold + rng.normal(0, 0.3, n)
    vectors = {
        w: {"perfect": float(g), "prt_default": float(x), "noise": float(r)}
        for w, g, x, r in zip(words, gold, noisy, rng.random(n), strict=True)
    }
    per_word = {
        "default": {
            w: {"jsd": float(x), "jsd_soft": float(x), "ari": 0.2, "n_clustered": 10}
            for w, x in zip(words, noisy, strict=True)
        }
    }
    return {
        "words": n,
        "gold_values": dict(zip(words, map(float, gold), strict=True)),
        "split": split_words(words),
        "vector_per_word": vectors,
        "per_word": per_word,
    }


def test_protocol_picks_the_gold_in_both_directions_and_beats_the_default() -> None:
    found = protocol(_protocol_data())
    vectors = found["vector change score, all"]
    assert vectors["candidates"] == 3
    assert vectors["chosen_on_dev"]["name"] == vectors["chosen_on_held_out"]["name"] == "perfect"
    assert math.isclose(vectors["chosen_on_dev"]["held_out"], 1.0)
    splits = vectors["splits"]
    assert math.isclose(splits["out_of_sample"], 1.0) and splits["winner_beats_default"] == 1.0
    assert splits["default_out_of_sample"] < 1.0
    low, high = vectors["all_words"]["default_ci"]
    assert low <= vectors["all_words"]["default"] <= high < 1.0
    assert found["ARI of induced senses"]["all_words"]["value"] == 0.2


def test_wug_like_cut_splits_two_senses_and_keeps_one() -> None:
    X, period, gold = _word(swap=True)
    forms = np.array(["w"] * len(X))
    two = word_result(Setting("cut", {}, threshold=0.5), X, forms, period, gold, (1, 5))
    assert two.n_senses == 2 and two.ari == 1.0 and math.isclose(two.scores["jsd"], 1.0)
    one = word_result(Setting("cut", {}, threshold=-0.5), X, forms, period, gold, (1, 5))
    assert one.n_senses == 1 and one.scores["jsd"] == 0.0
    relative = word_result(Setting("cut", {}, relative_cut=0.0), X, forms, period, gold, (1, 5))
    assert relative.n_senses >= 2


def test_dropping_noise_uses_reads_the_gold_before_clustering() -> None:
    X, period, gold = _word(swap=True)
    gold = gold.copy()
    gold[:5] = ""  # five uses in gold cluster -1
    forms = np.array(["w"] * len(X))
    dropped = word_result(Setting("drop", {"method": "ward", "k": 2}, drop_noise=True), X, forms, period, gold, None)
    kept = word_result(Setting("keep", {"method": "ward", "k": 2}), X, forms, period, gold, None)
    assert dropped.n_clustered == kept.n_clustered == 35
    assert "prt_default" in dropped.scores and "prt_default" not in kept.scores
