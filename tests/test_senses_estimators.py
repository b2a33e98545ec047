"""The parts of sense induction as scikit-learn estimators: common checks, composition, constraints, NotFittedError."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.exceptions import NotFittedError
from sklearn.metrics import adjusted_rand_score
from sklearn.pipeline import make_pipeline

from wsd.errors import ConfigError, ModelError
from wsd.schema import BASELINE_METHODS, CLUSTERING_METHODS
from wsd.senses import Preprocessor, SenseInducer, SenseModel
from wsd.senses.clusterers import CLUSTERERS, GaussianMixtureClusterer, HDBSCANClusterer, KMeansClusterer
from wsd.senses.dummy import STRATEGIES, DummyClusterer, hash_rows
from wsd.senses.selection import SelectK


def _check(estimator, expected: dict[str, str] | None = None) -> None:
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(estimator, expected_failed_checks=expected or {}, on_fail=None)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert failed == [], f"{estimator!r}: {failed}"


@pytest.fixture(scope="module")
def blobs() -> tuple[np.ndarray, np.ndarray]:
    return make_blobs(n_samples=90, centers=3, n_features=6, cluster_std=1.0, random_state=4)


def test_the_registry_and_the_baselines_cover_every_method() -> None:
    assert set(CLUSTERERS) == set(CLUSTERING_METHODS)
    assert STRATEGIES == BASELINE_METHODS


@pytest.mark.parametrize(
    "estimator",
    [
        Preprocessor(),
        Preprocessor(center=True, normalize=True, pca=3, whiten=True),
        # about 20 s of CPU (k chosen over every k for each check); KMeansClusterer() stays in the fast lane
        pytest.param(SelectK(KMeansClusterer(random_state=0)), marks=pytest.mark.slow),
        SelectK(HDBSCANClusterer(), selection="native"),
        *[CLUSTERERS[name]() for name in sorted(CLUSTERERS)],
    ],
    ids=lambda estimator: repr(estimator).replace(" ", ""),
)
def test_sklearn_common_checks_pass(estimator) -> None:
    _check(estimator)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_dummy_clusterer_passes_the_common_checks(strategy: str) -> None:
    _check(
        DummyClusterer(strategy=strategy, n_clusters=3, random_state=0),
        {"check_clustering": "a baseline does not recover clusters by design"},
    )


def test_preprocessor_composes_with_a_clusterer_in_a_pipeline(blobs) -> None:
    X, truth = blobs
    pipeline = make_pipeline(Preprocessor(center=True, normalize=True), KMeansClusterer(n_clusters=3, random_state=0))
    assert adjusted_rand_score(truth, pipeline.fit(X).named_steps["kmeansclusterer"].labels_) > 0.95


def test_select_k_wraps_any_clusterer_and_records_its_scores(blobs) -> None:
    X, truth = blobs
    for name in ("kmeans", "ward", "agglomerative", "spectral", "gmm"):
        selector = SelectK(CLUSTERERS[name](), k_range=(2, 5)).fit(X)
        assert selector.n_clusters_ == 3, name
        assert sorted(selector.k_scores_) == [2, 3, 4, 5]
        assert adjusted_rand_score(truth, selector.labels_) > 0.95
    bic = SelectK(GaussianMixtureClusterer(random_state=0), selection="bic", k_range=(1, 4)).fit(X)
    assert bic.n_clusters_ == 3 and sorted(bic.k_scores_) == [1, 2, 3, 4]
    grid = SelectK(HDBSCANClusterer(), selection="silhouette", k_range=(2, 5)).fit(X)
    assert grid.n_clusters_ == 3


def test_select_k_refuses_criteria_its_estimator_cannot_serve(blobs) -> None:
    X, _ = blobs
    with pytest.raises(ConfigError, match="needs a mixture model"):
        SelectK(KMeansClusterer(), selection="bic").fit(X)
    with pytest.raises(ConfigError, match="HDBSCAN's own choice"):
        SelectK(KMeansClusterer(), selection="native").fit(X)
    with pytest.raises(ConfigError, match="k_range must satisfy"):
        SelectK(KMeansClusterer(), k_range=(4, 2)).fit(X)


def test_dummy_random_gives_the_same_vector_the_same_sense(blobs) -> None:
    X, _ = blobs
    dummy = DummyClusterer(strategy="random", n_clusters=4, random_state=3).fit(X)
    assert dummy.random_seed_ == 3  # an int seeds the hash itself
    np.testing.assert_array_equal(dummy.predict(X[::-1]), dummy.labels_[::-1])
    assert np.bincount(dummy.labels_).tolist() == sorted(np.bincount(dummy.labels_).tolist(), reverse=True)
    # the frozen hash: saved random models depend on these exact values
    assert hash_rows(np.array([[0.0, 1.0], [0.5, -2.0]]), 0).tolist() == [15856674591065239693, 15302962823820094639]
    assert hash_rows(np.array([[0.0, 1.0]]), 12345).tolist() == [5168173360682217074]
    assert hash_rows(np.array([[1.0, 2.0]]), 7)[0] == hash_rows(np.array([[1.0, 2.0]], dtype=np.float32), 7)[0]


def test_inducer_parameters_are_keyword_only() -> None:
    for cls in (SenseInducer, Preprocessor, DummyClusterer, SelectK, *CLUSTERERS.values()):
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        positional = [p.name for p in params if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        assert positional in ([], ["estimator"]), cls.__name__
    with pytest.raises(TypeError):
        SenseInducer("kmeans")


def test_k_range_is_validated_only_where_k_is_chosen(blobs) -> None:
    X, _ = blobs
    assert SenseInducer(method="kmeans", k=3, k_range="unused").fit(X).n_senses_ == 3
    assert SenseInducer(method="one-sense", k_range=(9, 1)).fit(X).n_senses_ == 1
    assert SenseInducer(method="hdbscan", selection="native", k_range=None).fit(X).n_senses_ == 3
    with pytest.raises(ConfigError, match="k_range must be a pair of ints"):
        SenseInducer(method="hdbscan", k_range=None).fit(X)


def test_every_constraint_violation_is_a_config_error_naming_the_parameter(blobs) -> None:
    X, _ = blobs
    bad = {
        "n_init": 0,
        "n_neighbors": 1.5,
        "hdbscan_min_cluster_size": 1,
        "hdbscan_min_samples": 0,
        "min_cluster_size": True,
        "random_state": "seed",
        "center": 1,
        "whiten": "yes",
    }
    for name, value in bad.items():
        with pytest.raises(ConfigError, match=f"^{name} must be"):
            SenseInducer(**{name: value}).fit(X)
    with pytest.raises(ConfigError, match=r"^strategy must be one of"):
        DummyClusterer(strategy="all").fit(X)
    assert issubclass(ConfigError, ValueError)


def test_the_inducer_exposes_its_parts() -> None:
    inducer = SenseInducer(method="gmm", k=4, covariance_type="full", n_init=2, center=True, pca=3)
    clusterer = inducer.make_clusterer(random_state=5)
    assert isinstance(clusterer, GaussianMixtureClusterer)
    assert clusterer.get_params() == {"n_clusters": 4, "covariance_type": "full", "n_init": 2, "random_state": 5}
    assert inducer.make_preprocessor().get_params() == Preprocessor(center=True, pca=3).get_params()
    baseline = SenseInducer(method="random", k=3).make_clusterer(random_state=1)
    assert (baseline.strategy, baseline.n_clusters) == ("random", 3)


def test_sense_model_is_a_clonable_estimator_that_says_when_it_is_not_fitted() -> None:
    model = SenseModel(SenseInducer(method="ward", k=2), embedding_meta={"dim": 2})
    twin = clone(model)
    assert twin is not model and twin.inducer is not model.inducer
    assert twin.get_params()["inducer__method"] == "ward"
    twin.set_params(inducer__k=3)
    assert (twin.inducer.k, model.inducer.k) == (3, 2)
    occurrences = pd.DataFrame({"target": ["bank"] * 3})
    for call in (lambda: twin.predict(occurrences, np.zeros((3, 2))), lambda: twin.summary()):
        with pytest.raises(NotFittedError, match="not fitted"):
            call()
        with pytest.raises(ModelError):
            call()
