"""Choosing the number of senses: every criterion finds the planted k; scores are recorded per candidate."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from wsd.errors import ConfigError
from wsd.senses import SenseInducer
from wsd.senses.clusterers import WardClusterer
from wsd.senses.methods import Clustering
from wsd.senses.selection import SelectK, candidate_ks, check_k_range, is_better, score

PLANTED_K = 3


@pytest.fixture(scope="module")
def planted() -> np.ndarray:
    """Three well-separated senses, 30 occurrences each, 10 dims."""
    X, _ = make_blobs(n_samples=90, centers=PLANTED_K, n_features=10, cluster_std=1.0, random_state=11)
    return X


@pytest.fixture(scope="module")
def planted_five() -> np.ndarray:
    X, _ = make_blobs(n_samples=150, centers=5, n_features=10, cluster_std=0.8, random_state=5)
    return X


@pytest.mark.parametrize("method", ["kmeans", "agglomerative", "ward", "spectral", "gmm"])
@pytest.mark.parametrize("selection", ["silhouette", "calinski_harabasz"])
def test_internal_criteria_find_the_planted_k(method: str, selection: str, planted) -> None:
    model = SenseInducer(method=method, selection=selection).fit(planted)
    assert model.n_senses_ == PLANTED_K
    assert sorted(model.k_scores_) == list(range(2, 8))
    best = max(model.k_scores_, key=model.k_scores_.get)
    assert best == PLANTED_K


def test_bic_with_gmm_finds_the_planted_k(planted, planted_five) -> None:
    for X, k in ((planted, PLANTED_K), (planted_five, 5)):
        model = SenseInducer(method="gmm", selection="bic").fit(X)
        assert model.n_senses_ == k
        assert min(model.k_scores_, key=model.k_scores_.get) == k


def test_native_hdbscan_finds_the_planted_k(planted, planted_five) -> None:
    for X, k in ((planted, PLANTED_K), (planted_five, 5)):
        model = SenseInducer(method="hdbscan", selection="native").fit(X)
        assert model.n_senses_ == k
        assert list(model.k_scores_) == [k]
        assert 0 < model.k_scores_[k] <= 1


@pytest.mark.parametrize("selection", ["silhouette", "calinski_harabasz"])
def test_hdbscan_sweep_is_scored_by_the_criterion(selection: str, planted_five) -> None:
    model = SenseInducer(method="hdbscan", selection=selection).fit(planted_five)
    assert model.n_senses_ == 5
    assert all(2 <= k <= 7 for k in model.k_scores_)


def test_silhouette_finds_a_larger_k_too(planted_five) -> None:
    assert SenseInducer(method="kmeans").fit(planted_five).n_senses_ == 5


def test_k_range_bounds_the_choice(planted_five) -> None:
    model = SenseInducer(method="kmeans", k_range=(2, 3)).fit(planted_five)
    assert sorted(model.k_scores_) == [2, 3]
    assert model.n_senses_ in (2, 3)


def test_too_few_occurrences_to_score_fall_back_to_the_lower_bound(planted) -> None:
    model = SenseInducer(method="kmeans", k_range=(2, 7)).fit(planted[:2])
    assert model.k_scores_ == {}
    assert model.n_senses_ == 2
    three = SenseInducer(method="kmeans", k_range=(2, 7)).fit(planted[:3])
    assert sorted(three.k_scores_) == [2]


def test_fixed_k_records_no_scores(planted) -> None:
    assert SenseInducer(method="kmeans", k=2).fit(planted).k_scores_ == {}


def test_candidates_respect_the_number_of_occurrences() -> None:
    assert candidate_ks((2, 7), 100, "silhouette") == [2, 3, 4, 5, 6, 7]
    assert candidate_ks((2, 7), 5, "calinski_harabasz") == [2, 3, 4]
    assert candidate_ks((1, 3), 10, "bic") == [1, 2, 3]
    assert candidate_ks((2, 7), 2, "silhouette") == []


def test_k_range_validation() -> None:
    assert check_k_range((1, 4), "bic") == (1, 4)
    for bad in [(3, 2), (0, 3), (2,), ("2", 5), (2.0, 5), (True, 3)]:
        with pytest.raises(ConfigError, match="k_range"):
            check_k_range(bad, "silhouette")


def test_scores_are_nan_where_undefined_and_nan_never_wins(planted) -> None:
    one_cluster = Clustering(labels=np.zeros(len(planted), dtype=np.int64))
    assert math.isnan(score("silhouette", planted, one_cluster))
    assert math.isnan(score("bic", planted, one_cluster))
    assert not is_better("silhouette", float("nan"), 0.1)
    assert is_better("silhouette", 0.2, float("nan"))
    assert is_better("bic", 10.0, 20.0) and not is_better("silhouette", 10.0, 20.0)
    assert not is_better("silhouette", 0.5, 0.5)  # ties keep the earlier (smaller) k


# ------------------------------------------------------------------ one sense is an answer
ONE_SENSE_BELOW = 0.25  # silhouette (and HDBSCAN validity) a split must reach to count as two senses


@pytest.fixture(scope="module")
def one_blob() -> np.ndarray:
    """One sense: a single Gaussian blob around the origin, 80 occurrences, 10 dims."""
    X, _ = make_blobs(n_samples=80, centers=[[0.0] * 10], n_features=10, random_state=3)
    return X


@pytest.fixture(scope="module")
def two_blobs() -> np.ndarray:
    X, _ = make_blobs(n_samples=80, centers=2, n_features=10, cluster_std=1.0, random_state=3)
    return X


ONE_SENSE_METHODS = [
    ("kmeans", "silhouette"),
    ("agglomerative", "silhouette"),
    ("ward", "silhouette"),
    ("spectral", "silhouette"),
    ("gmm", "silhouette"),
    ("hdbscan", "silhouette"),
    ("hdbscan", "native"),
]


@pytest.mark.parametrize(("method", "selection"), ONE_SENSE_METHODS)
def test_one_blob_is_one_sense_and_two_blobs_are_two(method: str, selection: str, one_blob, two_blobs) -> None:
    params = {"method": method, "selection": selection, "one_sense_below": ONE_SENSE_BELOW}
    one = SenseInducer(**params).fit(one_blob)
    assert one.n_senses_ == 1 and set(one.labels_) == {0}
    if method != "hdbscan":  # HDBSCAN's native run finds no cluster at all there: one sense without a score
        assert one.k_scores_[1] == ONE_SENSE_BELOW
    two = SenseInducer(**params).fit(two_blobs)
    assert two.n_senses_ == 2
    assert 1 not in two.k_scores_


def test_without_the_threshold_a_blob_is_split(one_blob) -> None:
    """The rule is off by default: silhouette can only compare k ≥ 2 (the labels of existing recipes stay)."""
    model = SenseInducer(method="ward").fit(one_blob)
    assert model.n_senses_ >= 2 and sorted(model.k_scores_) == list(range(2, 8))


def test_bic_compares_one_component_itself(one_blob, two_blobs) -> None:
    assert SenseInducer(method="gmm", selection="bic", k_range=(1, 7)).fit(one_blob).n_senses_ == 1
    assert SenseInducer(method="gmm", selection="bic", k_range=(1, 7)).fit(two_blobs).n_senses_ == 2


def test_calinski_harabasz_threshold_is_on_its_own_scale(one_blob, two_blobs) -> None:
    params = {"method": "kmeans", "selection": "calinski_harabasz", "one_sense_below": 40.0}
    assert SenseInducer(**params).fit(one_blob).n_senses_ == 1
    assert SenseInducer(**params).fit(two_blobs).n_senses_ == 2


def test_select_k_answers_one_sense_for_any_clusterer(one_blob, two_blobs) -> None:
    from wsd.senses.clusterers import WardClusterer
    from wsd.senses.selection import SelectK

    selector = SelectK(WardClusterer(), one_sense_below=ONE_SENSE_BELOW).fit(one_blob)
    assert selector.n_clusters_ == 1 and next(iter(selector.k_scores_)) == 1
    assert SelectK(WardClusterer(), one_sense_below=ONE_SENSE_BELOW).fit(two_blobs).n_clusters_ == 2


@pytest.mark.parametrize("bad", ["0.1", True, float("nan"), float("inf"), [0.1]])
def test_one_sense_below_must_be_a_finite_number(bad, one_blob) -> None:
    from wsd.senses.clusterers import WardClusterer
    from wsd.senses.selection import SelectK

    with pytest.raises(ConfigError, match="one_sense_below"):
        SenseInducer(method="ward", one_sense_below=bad).fit(one_blob)
    with pytest.raises(ConfigError, match="one_sense_below"):
        SelectK(WardClusterer(), one_sense_below=bad).fit(one_blob)


def test_one_sense_below_is_refused_with_bic(one_blob) -> None:
    with pytest.raises(ConfigError, match="start k_range at 1"):
        SenseInducer(method="gmm", selection="bic", one_sense_below=0.1).fit(one_blob)


def test_a_tie_margin_gives_near_ties_to_the_fewest_senses() -> None:
    """Issue 24, item 6: candidates within the margin of the best silhouette tie, and the smallest k wins."""
    from wsd.senses.selection import within_margin

    scores = {2: 0.0401, 3: 0.0318, 4: 0.0406, 7: 0.0428}  # SOTU's *bank* in PyTorch bf16 (k_stability.md)
    assert within_margin("silhouette", scores, 0.0) == 7
    assert within_margin("silhouette", scores, 0.005) == 2
    assert within_margin("bic", {1: 10.0, 2: 9.0, 3: 9.5}, 0.0) == 2
    assert within_margin("bic", {1: 10.0, 2: 9.0, 3: 9.5}, 1.0) == 1
    assert within_margin("silhouette", {2: float("nan")}, 0.01) is None
    X, _ = make_blobs(90, centers=4, n_features=3, cluster_std=2.5, random_state=3)
    plain = SelectK(WardClusterer(), k_range=(2, 6)).fit(X)
    tied = SelectK(WardClusterer(), k_range=(2, 6), tie_margin=1.0).fit(X)
    assert tied.k_scores_ == plain.k_scores_  # every candidate is still scored
    assert tied.n_clusters_ == 2  # a margin wider than every gap: the fewest senses
    assert SelectK(WardClusterer(), k_range=(2, 6), tie_margin=0.0).fit(X).n_clusters_ == plain.n_clusters_


@pytest.mark.parametrize("margin", [-0.01, float("nan"), True, "0.1"])
def test_a_bad_tie_margin_is_one_config_error(margin) -> None:
    X, _ = make_blobs(30, centers=2, n_features=3, random_state=0)
    with pytest.raises(ConfigError, match="tie_margin must be a number ≥ 0"):
        SelectK(WardClusterer(), tie_margin=margin).fit(X)
