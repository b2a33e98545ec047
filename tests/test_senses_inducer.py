"""SenseInducer: each method recovers planted senses, copes with tiny inputs, validates options, is deterministic."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

from wsd.errors import ConfigError, InputError
from wsd.schema import METHODS
from wsd.senses import SenseInducer
from wsd.senses.labels import size_renumbering

PLANTED_K = 4
CLUSTERING_CASES = {
    "kmeans": {"k": PLANTED_K},
    "agglomerative": {"k": PLANTED_K},
    "ward": {"k": PLANTED_K},
    "gmm": {"k": PLANTED_K},
    "spectral": {"k": PLANTED_K},
    "hdbscan": {"selection": "native"},
}
#: Every method with parameters that run it (baselines included).
ALL_CASES = CLUSTERING_CASES | {"one-sense": {}, "one-per-instance": {}, "random": {"k": PLANTED_K}}


@pytest.fixture(scope="module")
def blobs() -> tuple[np.ndarray, np.ndarray]:
    """Four well-separated senses, 20 occurrences each, 16 dims."""
    return make_blobs(n_samples=80, centers=PLANTED_K, n_features=16, cluster_std=1.0, random_state=0)


@pytest.fixture(scope="module")
def overlapping() -> np.ndarray:
    """Three overlapping groups: boundary occurrences make hard and soft assignments disagree if careless."""
    X, _ = make_blobs(n_samples=60, centers=3, n_features=5, cluster_std=3.0, random_state=3)
    return X


def test_cases_cover_every_method() -> None:
    assert set(ALL_CASES) == set(METHODS)


@pytest.mark.parametrize("method", sorted(CLUSTERING_CASES))
def test_each_method_recovers_well_separated_senses(method: str, blobs) -> None:
    X, truth = blobs
    model = SenseInducer(method=method, **CLUSTERING_CASES[method]).fit(X)
    assert model.n_senses_ == PLANTED_K
    assert adjusted_rand_score(truth, model.labels_) > 0.95
    assert adjusted_rand_score(truth, model.predict(X)) > 0.95


def test_baselines_do_what_they_say(blobs) -> None:
    X, truth = blobs
    assert SenseInducer(method="one-sense").fit(X).labels_.tolist() == [0] * len(X)
    per_instance = SenseInducer(method="one-per-instance").fit(X)
    assert sorted(per_instance.labels_.tolist()) == list(range(len(X)))
    random = SenseInducer(method="random", k=PLANTED_K).fit(X)
    assert random.n_senses_ == PLANTED_K
    assert abs(adjusted_rand_score(truth, random.labels_)) < 0.2
    other_seed = SenseInducer(method="random", k=PLANTED_K, random_state=1).fit(X)
    assert not np.array_equal(random.labels_, other_seed.labels_)


def test_random_baseline_gives_the_same_vector_the_same_sense(blobs) -> None:
    X, _ = blobs
    model = SenseInducer(method="random", k=3).fit(X.astype(np.float32))
    np.testing.assert_array_equal(model.predict(X.astype(np.float32)[::-1]), model.labels_[::-1])
    np.testing.assert_array_equal(model.predict(X.astype(np.float32).astype(np.float64)), model.labels_)


TINY_CASES = {
    method: [{"k": PLANTED_K}, {"k": "auto"}] for method in ("kmeans", "agglomerative", "ward", "gmm", "spectral")
} | {
    "hdbscan": [{"selection": "native"}, {"selection": "silhouette"}],
    "one-sense": [{}],
    "one-per-instance": [{}],
    "random": [{"k": PLANTED_K}],
}


@pytest.mark.parametrize("method", sorted(TINY_CASES))
@pytest.mark.parametrize("n", [1, 2, PLANTED_K - 1])
def test_tiny_inputs_do_not_crash(method: str, n: int, blobs) -> None:
    X = blobs[0][:n]
    for params in TINY_CASES[method]:
        model = SenseInducer(method=method, **params).fit(X)
        assert model.labels_.shape == (n,)
        assert 1 <= model.n_senses_ <= n
        assert model.predict_proba(X).shape == (n, model.n_senses_)
        np.testing.assert_array_equal(model.predict(X), model.labels_)
        if n == 1:
            assert model.labels_.tolist() == [0]


@pytest.mark.parametrize("method", ["kmeans", "agglomerative", "ward", "gmm", "spectral"])
def test_fixed_k_is_capped_at_the_number_of_occurrences(method: str, blobs) -> None:
    X = blobs[0]
    assert SenseInducer(method=method, k=PLANTED_K).fit(X[:2]).n_senses_ == 2
    assert SenseInducer(method=method, k=PLANTED_K).fit(X[:3]).n_senses_ == 3


def test_labels_are_numbered_by_decreasing_size_then_first_occurrence() -> None:
    X, _ = make_blobs(n_samples=[5, 30, 15], n_features=4, cluster_std=0.5, random_state=2)
    labels = SenseInducer(method="kmeans", k=3).fit(X).labels_
    assert np.bincount(labels).tolist() == [30, 15, 5]
    Y, _ = make_blobs(n_samples=[10, 10], n_features=4, cluster_std=0.5, random_state=2)
    for start in (0, 10):  # equal sizes: the sense of the first occurrence is sense 0
        rolled = np.roll(Y, -start, axis=0)
        assert SenseInducer(method="ward", k=2).fit(rolled).labels_[0] == 0


def test_size_renumbering_orders_by_size_and_counts_the_senses_kept() -> None:
    assert size_renumbering(np.array([0, 0, 1, -1]), 2) is None  # already by size, none empty
    new_id, n_kept = size_renumbering(np.array([1, 1, 0, -1]), 3)
    assert (new_id.tolist(), n_kept) == ([1, 0, 2], 2)  # the empty sense 2 last, not kept
    new_id, n_kept = size_renumbering(np.array([0, 1]), 3)  # ordered, but sense 2 is empty
    assert (new_id.tolist(), n_kept) == ([0, 1, 2], 2)


def test_small_senses_are_merged_into_the_nearest_large_one() -> None:
    X, truth = make_blobs(n_samples=[20, 20, 3], n_features=4, cluster_std=0.5, random_state=5)
    plain = SenseInducer(method="kmeans", k=3).fit(X)
    assert plain.n_senses_ == 3
    merged = SenseInducer(method="kmeans", k=3, min_cluster_size=5).fit(X)
    assert merged.n_senses_ == 2
    small = truth == 2
    centres = np.array([X[truth == j].mean(axis=0) for j in range(3)])
    nearest_large = int(np.argmin(np.linalg.norm(centres[:2] - centres[2], axis=1)))
    partner = merged.labels_[truth == nearest_large][0]
    assert (merged.labels_[small] == partner).all()


def test_small_gmm_components_are_merged_too() -> None:
    X, _ = make_blobs(n_samples=[25, 25, 3], n_features=3, cluster_std=0.4, random_state=5)
    model = SenseInducer(method="gmm", k=3, min_cluster_size=5).fit(X)
    assert model.n_senses_ == 2
    assert len(model.component_senses_) == 3
    np.testing.assert_array_equal(model.predict(X), model.labels_)


def test_hdbscan_noise_is_assigned_or_kept() -> None:
    X, _ = make_blobs(n_samples=60, centers=2, n_features=3, cluster_std=0.5, random_state=4)
    X = np.vstack([X, [[40.0, 40.0, 40.0]]])
    nearest = SenseInducer(method="hdbscan", selection="native").fit(X)
    assert (nearest.labels_ >= 0).all()
    kept = SenseInducer(method="hdbscan", selection="native", noise="keep").fit(X)
    assert kept.labels_[-1] == -1
    assert kept.n_senses_ == 2
    assert kept.predict(X[-1:])[0] in (0, 1)


def test_preprocessing_is_learned_once_and_reused(blobs) -> None:
    X, _ = blobs
    model = SenseInducer(method="kmeans", k=PLANTED_K, center=True, normalize=True, pca=5).fit(X)
    assert model.cluster_centers_.shape == (PLANTED_K, 5)
    shifted = X + 100.0  # a different word mean: the stored transform must not re-centre on it
    assert not np.array_equal(model.predict(shifted), model.predict(X))
    np.testing.assert_array_equal(model.predict(X), model.labels_)


@pytest.mark.parametrize("method", sorted(ALL_CASES))
def test_two_fits_are_byte_identical(method: str, overlapping) -> None:
    params = ALL_CASES[method] if method != "hdbscan" else {}
    first = SenseInducer(method=method, **params).fit(overlapping)
    second = SenseInducer(method=method, **params).fit(overlapping)
    assert first.labels_.tobytes() == second.labels_.tobytes()
    assert first.predict_proba(overlapping).tobytes() == second.predict_proba(overlapping).tobytes()


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"method": "dbscan"}, "unknown sense induction method 'dbscan'"),
        ({"selection": "gap"}, "unknown selection 'gap'"),
        ({"k_range": (5, 2)}, "k_range must satisfy"),
        ({"k_range": (1, 4)}, "cannot score one sense"),
        ({"k_range": "2-7"}, "k_range must be a pair of ints"),
        ({"k": 0}, "k must be an int >= 1"),
        ({"selection": "bic"}, "needs a mixture model"),
        ({"selection": "native"}, "HDBSCAN's own choice"),
        ({"method": "hdbscan", "k": 3}, "chooses the number of senses itself"),
        ({"method": "random"}, "needs an int k"),
        ({"noise": "drop"}, "noise must be one of"),
        ({"temperature": 0.0}, "temperature must be a positive number"),
        ({"distance": "manhattan"}, "distance must be"),
        ({"covariance_type": "banded"}, "covariance_type must be one of"),
        ({"pca": 0}, "pca must be an int >= 1"),
    ],
)
def test_bad_options_raise_a_clear_config_error_at_fit(params, message, blobs) -> None:
    model = SenseInducer(**params)  # __init__ only stores parameters
    with pytest.raises(ConfigError, match=message):
        model.fit(blobs[0])


def test_bad_vectors_raise_input_error(blobs) -> None:
    X, _ = blobs
    with pytest.raises(InputError, match="occurrence vectors"):
        SenseInducer().fit(X[0])
    with pytest.raises(InputError, match=r"NaN|infinity"):
        SenseInducer().fit(np.vstack([X, [np.nan] * X.shape[1]]))
    model = SenseInducer(k=2).fit(X)
    with pytest.raises(InputError, match="expecting 16 features"):
        model.predict(X[:, :8])


def test_bic_can_choose_one_sense() -> None:
    X = np.random.RandomState(0).normal(size=(60, 3))  # one Gaussian: one sense
    model = SenseInducer(method="gmm", selection="bic", k_range=(1, 5)).fit(X)
    assert sorted(model.k_scores_) == [1, 2, 3, 4, 5]
    assert model.n_senses_ == 1


def test_clone_and_params_round_trip() -> None:
    model = SenseInducer(method="gmm", k=3, pca=10, temperature=0.5, random_state=7)
    twin = clone(model)
    assert twin.get_params() == model.get_params()
    assert twin is not model
    twin.set_params(method="ward", k=5)
    assert (twin.method, twin.k, model.method) == ("ward", 5, "gmm")
    assert "method='ward'" in repr(twin)


def test_sklearn_common_checks_pass() -> None:
    from sklearn.utils.estimator_checks import check_estimator

    baseline_only = {"check_clustering": "a baseline does not recover clusters by design"}
    cases = [
        (SenseInducer(method="kmeans", k=3), {}),
        (SenseInducer(method="agglomerative", center=True), {}),
        (SenseInducer(method="hdbscan"), {}),
        (SenseInducer(method="random", k=3), baseline_only),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for estimator, expected in cases:
            results = check_estimator(estimator, expected_failed_checks=expected, on_fail=None)
            failed = [r["check_name"] for r in results if r["status"] == "failed"]
            assert failed == [], f"{estimator!r}: {failed}"
