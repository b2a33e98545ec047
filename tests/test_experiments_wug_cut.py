"""experiments/wug_cut: the judged cut, one word's settings, the intervals and the page (no dataset)."""

from __future__ import annotations

import numpy as np
import pytest

from experiments.wug_cut import CUT_GRID, SETTINGS, intervals, judged_cut, markdown, summary, word_settings


def _accuracy(similarity: np.ndarray, judgment: np.ndarray, cut: float) -> float:
    keep = judgment != 2.5
    return float(np.mean((similarity[keep] >= cut) == (judgment[keep] > 2.5)))


@pytest.mark.parametrize("seed", range(5))
def test_judged_cut_is_the_smallest_threshold_of_the_highest_accuracy(seed):
    rng = np.random.default_rng(seed)
    similarity = np.round(rng.uniform(0, 1, 80), 2)  # ties on purpose
    judgment = np.clip(np.round(similarity * 3 + 1 + rng.normal(scale=0.8, size=80) * 2) / 2, 1, 4)
    cut = judged_cut(similarity, judgment)
    values = np.unique(similarity[judgment != 2.5])
    candidates = np.concatenate([[-1.0], (values[:-1] + values[1:]) / 2, [1.0]])  # one per partition, cosines
    best = max(_accuracy(similarity, judgment, c) for c in candidates)
    assert _accuracy(similarity, judgment, cut) == pytest.approx(best)
    below = [c for c in candidates if c < cut - 1e-6]
    assert all(_accuracy(similarity, judgment, c) < best - 1e-12 for c in below)


def test_judged_cut_extremes_and_no_pairs():
    # every pair "same": the cut lies below all cosines; every pair "different": above them all
    assert judged_cut(np.array([0.3, 0.5]), np.array([3.0, 4.0])) < 0.3
    assert judged_cut(np.array([0.3, 0.5]), np.array([1.0, 2.0])) > 0.5
    with pytest.raises(ValueError, match="midpoint"):
        judged_cut(np.array([0.3, 0.5]), np.array([2.5, 2.5]))


def _word(per: int = 15, seed: int = 0):
    """Two senses far apart, the first in period 0 and the second in period 1: full change."""
    rng = np.random.default_rng(seed)
    centres = np.eye(2, 16) * 10
    X = np.vstack([c + rng.normal(scale=0.3, size=(per, 16)) for c in centres])
    periods = np.array([0] * per + [1] * per)
    return X, np.array(["w"] * 2 * per), periods, np.array(["a"] * per + ["b"] * per)


def test_word_settings_a_cut_between_the_senses_finds_them_and_a_cut_above_splits_everything():
    X, forms, periods, senses = _word()
    found = word_settings(X, forms, periods, senses, [0.5, 0.999])
    assert found["cuts"]["0.5"]["n_senses"] == 2
    assert found["cuts"]["0.5"]["ari"] == pytest.approx(1.0)
    assert found["cuts"]["0.5"]["jsd"] == pytest.approx(1.0)
    assert found["cuts"]["0.999"]["n_senses"] == len(X)
    assert found["default"]["n_senses"] == 2
    assert found["n_clustered"] == len(X)


def _cell(words: list[str], jsd_of: dict[str, float]) -> dict:
    per = {w: {"jsd": jsd_of[w], "ari": 0.5, "n_senses": 2.0, "n_clustered": 10.0} for w in words}
    return {
        "cuts": {"judged": {"dev": 0.6, "held_out": 0.65}, "chosen": {"dev": 0.7, "held_out": 0.75}},
        "words": {name: per for name in SETTINGS},
    }


def test_summary_intervals_and_page():
    words = [f"w{i}" for i in range(12)]
    gold = {w: float(i) for i, w in enumerate(words)}
    cell = _cell(words, {w: float(i) for i, w in enumerate(words)})
    cell["summary"] = {name: summary(cell["words"][name], gold) for name in SETTINGS}
    assert cell["summary"]["judged"]["rho_jsd"] == pytest.approx(1.0)
    assert cell["summary"]["judged"]["ari"] == pytest.approx(0.5)
    cell["intervals"] = intervals(cell, gold)
    assert cell["intervals"]["judged"]["rho_jsd_difference"] == [0.0, 0.0]
    results = {
        "command": "python -m experiments.wug_cut",
        "machine": "m",
        "date": "d",
        "words": 12,
        "pairs": 100,
        "one_sense_ari": 0.134,
        "models": {"untuned MiniLM": cell},
    }
    page = markdown(results)
    assert "| untuned MiniLM | judged cut | 0.600 / 0.650 | 1.000 [1.00, 1.00] | +0.000 [+0.000, +0.000] |" in page
    assert "ARI ≥ 18.4" in page
    assert min(CUT_GRID) == 0.2 and max(CUT_GRID) == 0.9
    no_gold = markdown(results | {"one_sense_ari": float("nan"), "dataset_label": "RuSemShift 1"})
    assert "ARI: none (RuSemShift 1 has no gold senses" in no_gold and "ARI ≥ nan" not in no_gold


def test_a_wug_set_without_gold_clusters_is_read_and_has_no_one_sense_ari(tmp_path):
    from helpers import GOLD_GRADED, make_change_wug

    from experiments.tune_space import judged_pairs, one_sense_ari
    from experiments.wug_cut import wug_set

    root = make_change_wug(tmp_path / "wug", clusters=False)
    bundle, gold = wug_set(root)
    assert gold == pytest.approx(GOLD_GRADED)
    assert np.isnan(one_sense_ari(bundle, sorted(gold)))
    judgments = root / "data" / "half" / "judgments.csv"
    judgments.write_text("identifier1\tidentifier2\tannotator\tjudgment\nhalf_1_0\thalf_1_1\tA\t4\n", encoding="utf-8")
    for word in ("stable", "swap"):
        (root / "data" / word / "judgments.csv").write_text(judgments.read_text().replace("half", word))
    pairs = judged_pairs(tmp_path, bundle, sorted(gold), root)
    assert [len(pairs[w][0]) for w in sorted(gold)] == [1, 1, 1] and pairs["half"][2].tolist() == [4.0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dataset", "nope"], "--dataset 'nope': choose from dwug_en"),
        (["--models", "x=/nonexistent"], "/nonexistent: no model for 'x'"),
        (["--models", "no-equals-sign"], "is not NAME=FOLDER"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(argv, message, capsys):
    from experiments.wug_cut import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
