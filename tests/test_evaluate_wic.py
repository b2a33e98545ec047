"""``wsd evaluate --dataset wic``: usage similarity on binary use pairs (threshold accuracy and ROC AUC)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import WIC_PAIRS, write_wic
from sklearn.metrics import accuracy_score, roc_auc_score

from wsd.cli import main
from wsd.errors import InputError
from wsd.evaluate.metrics import usage_pairs
from wsd.evaluate.metrics.usage_pairs import (
    best_threshold,
    binary_pair_scores,
    bootstrap_interval,
    bootstrap_rows,
    lemma_cv_predictions,
    resampled_roc_auc,
    roc_auc,
    usage_pair_lines,
)
from wsd.io.layout import METRICS_FILE


#: lemma, PoS, token indices, two sentences, gold: the target's two uses mean the same (T) or not (F).
def _evaluate(tmp_path: Path, *args: str) -> int:
    return main(["evaluate", "--dataset", "wic", "--no-progress", "--cache-dir", str(tmp_path / "cache"), *args])


# ------------------------------------------------------------------------------------------ metrics
def test_roc_auc_is_sklearns_with_ties() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        scores = np.round(rng.random(40), 1)  # many ties
        labels = rng.integers(0, 2, 40)
        assert roc_auc(scores, labels) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
    assert roc_auc(np.array([0.3, 0.3, 0.3]), np.array([0, 1, 1])) == 0.5
    assert roc_auc(np.array([0.1, 0.2]), np.array([0, 0])) is None
    with pytest.raises(InputError, match="1 of 3 pair scores are NaN"):
        roc_auc(np.array([0.1, np.nan, 0.2]), np.array([0, 1, 1]))


def test_resampled_roc_auc_is_roc_auc_of_each_resample_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    scores = np.round(rng.random(30), 1)  # ties within and across the labels
    labels = rng.integers(0, 2, 30)
    rows = np.vstack([bootstrap_rows(30, 200, random_state=2), np.full((1, 30), np.flatnonzero(labels)[0])])
    values = resampled_roc_auc(scores, labels, rows)
    single = [roc_auc(scores[r], labels[r]) for r in rows]
    assert np.isnan(values[-1]) and single[-1] is None  # a resample of positives only: undefined
    assert values[:-1].tolist() == single[:-1]  # the same U counted two ways: equal to the last bit
    assert values[0] == pytest.approx(roc_auc_score(labels[rows[0]], scores[rows[0]]), abs=1e-12)
    monkeypatch.setattr(usage_pairs, "_RESAMPLE_CELLS", 100)  # a few resamples at a time: the same figures
    assert np.array_equal(resampled_roc_auc(scores, labels, rows), values, equal_nan=True)


def test_binary_pair_intervals_are_the_bootstrap_of_sklearns_figures() -> None:
    """The vectorised intervals are those of the per-resample definition (sklearn's AUC, resamples of one label
    left out), with the same seeded resamples."""
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 2, 24)
    scores = np.round(0.3 * labels + rng.random(24), 1)
    lemmas = np.array(list("abcdef") * 4)
    dev_scores, dev_labels = np.array([0.2, 0.5, 0.7, 0.9]), np.array([0, 0, 1, 1])
    entry = binary_pair_scores(scores, labels, lemmas, dev_scores, dev_labels, n_resamples=150, random_state=7)

    def sklearn_auc(rows: np.ndarray) -> float | None:
        return float(roc_auc_score(labels[rows], scores[rows])) if 0 < labels[rows].sum() < len(rows) else None

    assert entry["auc_ci"] == pytest.approx(bootstrap_interval(sklearn_auc, 24, 150, random_state=7), abs=1e-12)
    correct = ((scores >= entry["thresholds"][0]) == labels).astype(float)
    assert entry["accuracy_ci"] == bootstrap_interval(lambda rows: correct[rows].mean(), 24, 150, random_state=7)


def test_best_threshold_has_the_best_accuracy_of_any_cut() -> None:
    rng = np.random.default_rng(1)
    for _ in range(20):
        scores = np.round(rng.random(30), 2)
        labels = rng.integers(0, 2, 30)
        chosen = best_threshold(scores, labels)
        cuts = np.concatenate([[-np.inf], np.unique(scores), [np.inf]])
        best = max(accuracy_score(labels, scores >= cut) for cut in cuts)
        assert accuracy_score(labels, scores >= chosen) == pytest.approx(best)
    # by hand: 0.2 | 0.5 (F F) vs 0.6 0.9 (T T) → the midpoint 0.55
    assert best_threshold(np.array([0.9, 0.2, 0.6, 0.5]), np.array([1, 0, 1, 0])) == pytest.approx(0.55)


def test_lemma_cross_validation_never_chooses_on_the_lemma_it_scores() -> None:
    scores = np.array([0.1, 0.9, 0.2, 0.8, 0.6, 0.7])
    labels = np.array([0, 1, 0, 1, 0, 1])
    lemmas = np.array(["a", "a", "b", "b", "c", "c"])
    predicted, thresholds = lemma_cv_predictions(scores, labels, lemmas)
    assert len(thresholds) == 3  # one fold per lemma with three lemmas
    # lemma c's pairs (0.6 F, 0.7 T) are scored by the cut chosen on a and b (0.5): both "same"
    assert predicted.tolist() == [False, True, False, True, True, True]
    again, _ = lemma_cv_predictions(scores, labels, lemmas)
    assert (again == predicted).all()
    with pytest.raises(ValueError, match="two or more"):
        lemma_cv_predictions(scores, labels, np.array(["a"] * 6))


def test_bootstrap_interval_is_seeded_and_brackets_the_figure() -> None:
    correct = np.array([1.0] * 30 + [0.0] * 10)
    first = bootstrap_interval(lambda rows: float(correct[rows].mean()), 40, 200, random_state=3)
    assert first == bootstrap_interval(lambda rows: float(correct[rows].mean()), 40, 200, random_state=3)
    assert first is not None and first[0] < 0.75 < first[1]
    assert bootstrap_interval(lambda rows: None, 5, 10) is None


def test_binary_pair_scores_with_a_dev_threshold() -> None:
    scores = np.array([0.1, 0.9, 0.4, 0.6])
    labels = np.array([0, 1, 1, 0])
    entry = binary_pair_scores(scores, labels, np.array(list("aabb")), np.array([0.3, 0.7]), np.array([0, 1]), 100)
    assert entry["threshold_from"] == "dev" and entry["thresholds"] == [0.5]
    assert entry["accuracy"] == 0.5  # 0.4 (T) called different, 0.6 (F) called same
    assert entry["auc"] == pytest.approx(roc_auc_score(labels, scores))
    assert {"accuracy_ci", "auc_ci", "pairs", "lemmas", "same", "resamples"} <= set(entry)
    assert usage_pair_lines(entry | {"file": "x", "dev": "dev.txt"})[0].startswith("usage pairs: same sense or not")


# ------------------------------------------------------------------------------------------ the command
def test_evaluate_wic_end_to_end_by_lemma_cross_validation(tmp_path: Path, capsys) -> None:
    data = write_wic(tmp_path / "wic")
    assert _evaluate(tmp_path, "--data", str(data), "--out", str(tmp_path / "out")) == 0
    printed = capsys.readouterr().out
    assert "accuracy" in printed and "lemma cross-validation" in printed
    document = json.loads((tmp_path / "out" / METRICS_FILE).read_text(encoding="utf-8"))
    assert document["dataset"] == "wic" and set(document["overall"]) == {"accuracy", "auc"}
    assert document["n_instances"] == 8 and document["n_targets"] == 4
    entry = document["usage_pairs"]
    assert entry["threshold_from"] == "lemma-cv" and len(entry["thresholds"]) == 4
    assert entry["pairs"] == 8 and entry["same"] == 4 and entry["dev"] is None
    assert 0.0 <= entry["accuracy_ci"][0] <= entry["accuracy"] <= entry["accuracy_ci"][1] <= 1.0
    assert entry["auc"] == document["overall"]["auc"] and len(entry["auc_ci"]) == 2
    assert document["embedding"]["model"]


@pytest.mark.slow  # the fast lane runs the same command with --report and these checks in test_report_wic
def test_evaluate_wic_with_a_dev_file_warns_of_shared_lemmas(tmp_path: Path, capsys) -> None:
    data = write_wic(tmp_path / "wic")
    dev = write_wic(tmp_path / "wic", WIC_PAIRS[2:6], name="dev")  # run and play: also in --data
    out = tmp_path / "out"
    assert _evaluate(tmp_path, "--data", str(data), "--dev", str(dev), "--out", str(out)) == 0
    captured = capsys.readouterr()
    assert "2 of the 2 lemmas of --dev" in captured.err
    entry = json.loads((out / METRICS_FILE).read_text(encoding="utf-8"))["usage_pairs"]
    assert entry["threshold_from"] == "dev" and len(entry["thresholds"]) == 1 and entry["dev_overlap"] == 2
    assert "chosen on" in captured.out


@pytest.mark.parametrize(
    ("case", "message"),
    [("empty", "empty"), ("short gold", "gold labels for"), ("label", "is not T/F")],
)
def test_bad_pairs_files_are_one_line_and_exit_2(tmp_path: Path, capsys, case: str, message: str) -> None:
    if case == "empty":
        data = write_wic(tmp_path / "wic", [], gold=[])
    elif case == "short gold":
        data = write_wic(tmp_path / "wic", gold=["T"] * 7)
    else:
        data = write_wic(tmp_path / "wic", gold=["T"] * 7 + ["maybe"])
    assert _evaluate(tmp_path, "--data", str(data)) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_dev_needs_the_wic_dataset(tmp_path: Path, capsys) -> None:
    dev = write_wic(tmp_path / "wic")
    code = main(["evaluate", "--dataset", "generic", "--data", "data/demo/labelled.tsv", "--dev", str(dev)])
    assert code == 2
    assert "--dev is for --dataset wic" in capsys.readouterr().err


def test_one_lemma_without_dev_is_refused(tmp_path: Path, capsys) -> None:
    data = write_wic(tmp_path / "wic", WIC_PAIRS[:2])
    assert _evaluate(tmp_path, "--data", str(data)) == 2
    assert "two or more" in capsys.readouterr().err


def test_wic_dev_through_the_shared_datasets(datasets_dir: Path) -> None:
    from wsd.workflows.wic import load_pairs, pair_occurrences

    pairs = load_pairs(datasets_dir / "wic" / "dev" / "dev.data.txt")
    table, first, second = pair_occurrences(pairs)
    assert len(first) == len(pairs.pairs) == 638
    forms = table["form"].str.lower()
    assert (forms.iloc[first].str[:2].to_numpy() == forms.iloc[second].str[:2].to_numpy()).mean() > 0.5
