"""The change measures against their definitions, scipy, and the gold change scores of the WUG datasets."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import cdist, jensenshannon

from wsd.change.measures import apd, binary_change, jsd_distance, prt, sense_shifts
from wsd.errors import InputError

LSCD = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "lscd"


def test_jsd_of_known_distributions() -> None:
    assert jsd_distance([1, 0], [1, 0]) == 0.0
    assert jsd_distance([5, 0], [0, 2]) == 1.0
    # p = (1, 0), q = (7/11, 4/11): JS = 0.5 (log2(11/9) + 7/11 log2(7/9) + 4/11 log2(2)) by hand
    by_hand = np.sqrt(0.5 * (np.log2(11 / 9) + 7 / 11 * np.log2(7 / 9) + 4 / 11))
    assert jsd_distance([10, 0], [7, 4]) == pytest.approx(by_hand, abs=1e-15)


def test_jsd_equals_scipy_on_random_distributions() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        size = int(rng.integers(1, 9))
        p = rng.integers(0, 20, size).astype(float)
        q = rng.integers(0, 20, size).astype(float)
        p[0] += 1
        q[-1] += 1
        assert jsd_distance(p, q) == pytest.approx(jensenshannon(p, q, base=2), abs=1e-12)


def test_jsd_is_symmetric_and_ignores_scale() -> None:
    assert jsd_distance([1, 2, 3], [3, 2, 1]) == pytest.approx(jsd_distance([3, 2, 1], [1, 2, 3]), abs=1e-15)
    assert jsd_distance([1, 2, 3], [3, 2, 1]) == pytest.approx(jsd_distance([10, 20, 30], [0.3, 0.2, 0.1]))


@pytest.mark.parametrize(
    ("p", "q", "message"),
    [([0, 0], [1, 1], "empty"), ([1, 2], [1, 2, 3], "same senses"), ([-1, 2], [1, 1], "non-negative")],
)
def test_jsd_refuses_bad_distributions(p: list, q: list, message: str) -> None:
    with pytest.raises(InputError, match=message):
        jsd_distance(p, q)


def test_apd_equals_the_mean_over_all_pairs() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(size=(37, 12))
    b = rng.normal(size=(23, 12)) + 0.5
    assert apd(a, b) == pytest.approx(cdist(a, b, metric="cosine").mean(), abs=1e-12)


def test_prt_is_the_cosine_distance_of_the_means() -> None:
    rng = np.random.default_rng(2)
    a = rng.normal(size=(10, 5))
    b = rng.normal(size=(7, 5))
    expected = cdist(a.mean(axis=0)[None], b.mean(axis=0)[None], metric="cosine")[0, 0]
    assert prt(a, b) == pytest.approx(expected, abs=1e-12)
    assert prt(a, a) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("measure", [apd, prt])
def test_vector_measures_refuse_bad_input(measure) -> None:
    with pytest.raises(InputError, match="non-empty"):
        measure(np.zeros((0, 3)), np.ones((2, 3)))
    with pytest.raises(InputError, match="dimensions"):
        measure(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(InputError, match="zero"):
        measure(np.zeros((2, 3)), np.ones((2, 3)))


def test_binary_rule_finds_gained_and_lost_senses() -> None:
    swap = binary_change([6, 0], [0, 6], k=1, n=5)
    assert (swap.changed, swap.gained, swap.lost) == (True, [1], [0])
    stable = binary_change([30, 1], [28, 4], k=1, n=5)
    assert (stable.changed, stable.gained, stable.lost) == (False, [], [])
    with pytest.raises(InputError, match="0 <= k < n"):
        binary_change([1], [1], k=3, n=3)


@pytest.mark.parametrize("rule", [binary_change, sense_shifts])
@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ([1, 2], [1, 2, 3], "same senses, got shapes"),
        ([[1, 2]], [[1, 2]], "same senses"),
        ([-1, 2], [1, 1], "non-negative"),
    ],
)
def test_count_rules_check_the_two_slices_counts_alike(rule: object, a: list, b: list, message: str) -> None:
    with pytest.raises(InputError, match=message):
        rule(a, b)  # type: ignore[operator]


def _gold_stats(folder: Path) -> pd.DataFrame:
    files = sorted(folder.glob("stats/opt/stats_groupings.*"))
    if not files:
        pytest.skip(f"no gold change statistics under {folder} (../shared/datasets/lscd is not on this machine)")
    return pd.read_csv(files[0], sep="\t", quoting=3)


@pytest.mark.parametrize("dataset", ["dwug_en", "nordiachange/subset1", "nordiachange/subset2"])
def test_measures_reproduce_the_gold_change_scores(dataset: str) -> None:
    stats = _gold_stats(LSCD / dataset)
    for row in stats.itertuples():
        first = ast.literal_eval(row.cluster_freq_dist1)
        second = ast.literal_eval(row.cluster_freq_dist2)
        assert jsd_distance(first, second) == pytest.approx(row.change_graded, abs=1e-9), row.lemma
        decision = binary_change(first, second, k=int(row.k1), n=int(row.n1))
        assert int(decision.changed) == int(row.change_binary), row.lemma
        assert int(bool(decision.gained)) == int(row.change_binary_gain), row.lemma
        assert int(bool(decision.lost)) == int(row.change_binary_loss), row.lemma


def test_vector_measures_add_up_in_chunks_without_a_float64_copy(monkeypatch) -> None:
    import wsd.change.measures as measures

    rng = np.random.default_rng(3)
    a = rng.normal(size=(1000, 8)).astype(np.float16)
    b = rng.normal(loc=0.3, size=(700, 8)).astype(np.float16)
    whole_apd, whole_prt = apd(a.astype(np.float64), b.astype(np.float64)), prt(a.astype(np.float64), b)
    monkeypatch.setattr(measures, "_CHUNK_ROWS", 64)
    assert apd(a, b) == pytest.approx(whole_apd, abs=1e-12)
    assert prt(a, b) == pytest.approx(whole_prt, abs=1e-12)
    bad = a.copy()
    bad[900] = 0
    with pytest.raises(InputError, match="zero"):
        apd(bad, b)  # a zero vector in a later chunk is still found
