"""Soft memberships: rows sum to 1, argmax is the hard label for every method, native GMM posteriors are exact."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_blobs
from sklearn.mixture import GaussianMixture

from wsd.senses import SenseInducer
from wsd.senses.soft import centroid_distances, distance_softmax, gaussian_posteriors, merge_columns

METHOD_CASES = {
    "kmeans": {"k": 3},
    "agglomerative": {"k": 3},
    "ward": {"k": 3},
    "gmm": {"k": 3},
    "spectral": {"k": 3},
    "hdbscan": {},
    "hdbscan-native": {"method": "hdbscan", "selection": "native"},
    "one-sense": {},
    "one-per-instance": {},
    "random": {"k": 3},
    "kmeans-auto-pca": {"method": "kmeans", "center": True, "normalize": True, "pca": 3},
    "agglomerative-euclidean": {"method": "agglomerative", "k": 4, "distance": "euclidean"},
    "gmm-full-whiten": {"method": "gmm", "k": 3, "covariance_type": "full", "whiten": True},
}


@pytest.fixture(scope="module")
def overlapping() -> np.ndarray:
    """Overlapping groups, so a careless centroid rule would disagree with the method's labels."""
    X, _ = make_blobs(n_samples=90, centers=3, n_features=6, cluster_std=3.0, random_state=8)
    return X


@pytest.mark.parametrize("case", sorted(METHOD_CASES))
def test_memberships_sum_to_one_and_agree_with_hard_labels(case: str, overlapping) -> None:
    params = dict(METHOD_CASES[case])
    params.setdefault("method", case)
    model = SenseInducer(**params).fit(overlapping)
    proba = model.predict_proba(overlapping)
    assert proba.shape == (len(overlapping), model.n_senses_)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert (proba >= 0).all()
    np.testing.assert_array_equal(np.argmax(proba, axis=1), model.labels_)
    np.testing.assert_array_equal(model.predict(overlapping), model.labels_)
    assert len(np.unique(model.labels_)) == model.n_senses_
    new = overlapping[:7] + 0.25
    np.testing.assert_array_equal(np.argmax(model.predict_proba(new), axis=1), model.predict(new))


def test_kept_noise_is_unassigned_but_still_gets_memberships() -> None:
    X, _ = make_blobs(n_samples=60, centers=2, n_features=3, cluster_std=0.5, random_state=4)
    X = np.vstack([X, [[40.0, 40.0, 40.0]]])
    model = SenseInducer(method="hdbscan", selection="native", noise="keep").fit(X)
    noise = model.labels_ < 0
    assert noise[-1]
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(np.argmax(proba, axis=1)[~noise], model.labels_[~noise])


def test_agglomerative_boundary_points_follow_the_centroid_rule() -> None:
    X, _ = make_blobs(n_samples=120, centers=4, n_features=4, cluster_std=4.0, random_state=1)
    model = SenseInducer(method="agglomerative", k=4).fit(X)
    assert model.n_reassigned_ >= 0
    distances = centroid_distances(model.preprocessor_.transform(X), model.cluster_centers_, model.distance_)
    np.testing.assert_array_equal(np.argmin(distances, axis=1), model.labels_)


def test_auto_temperature_is_the_mean_distance_to_the_own_centroid() -> None:
    X, _ = make_blobs(n_samples=50, centers=2, n_features=3, cluster_std=0.5, random_state=0)
    model = SenseInducer(method="kmeans", k=2).fit(X)
    own = np.linalg.norm(X - model.cluster_centers_[model.labels_], axis=1)
    assert model.temperature_ == pytest.approx(own.mean(), rel=1e-9)
    sharper = SenseInducer(method="kmeans", k=2, temperature=model.temperature_ / 10).fit(X)
    assert sharper.predict_proba(X).max(axis=1).mean() > model.predict_proba(X).max(axis=1).mean()
    np.testing.assert_array_equal(sharper.labels_, model.labels_)


def test_distance_softmax_formula() -> None:
    distances = np.array([[1.0, 2.0, 4.0]])
    expected = np.exp(-distances / 0.5) / np.exp(-distances / 0.5).sum()
    np.testing.assert_allclose(distance_softmax(distances, 0.5), expected)
    np.testing.assert_allclose(
        centroid_distances(np.array([[1.0, 0.0], [0.0, 0.0]]), np.array([[0.0, 2.0]]), "cosine"), [[1.0], [1.0]]
    )


@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
def test_gaussian_posteriors_match_scikit_learn(covariance_type: str) -> None:
    X, _ = make_blobs(n_samples=80, centers=3, n_features=4, random_state=2)
    mixture = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    ours = gaussian_posteriors(X, mixture.weights_, mixture.means_, mixture.precisions_cholesky_, covariance_type)
    np.testing.assert_allclose(ours, mixture.predict_proba(X), atol=1e-10)


def test_merged_mixture_components_sum_their_memberships() -> None:
    proba = np.array([[0.1, 0.2, 0.7], [0.5, 0.4, 0.1]])
    np.testing.assert_allclose(merge_columns(proba, np.array([1, 0, 1]), 2), [[0.2, 0.8], [0.4, 0.6]])
