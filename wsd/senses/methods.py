"""The clustering algorithms behind sense induction, each run once on one word's (transformed) vectors."""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass

import numpy as np

CLUSTERING_METHODS: tuple[str, ...] = ("kmeans", "agglomerative", "ward", "hdbscan", "gmm", "spectral")
BASELINE_METHODS: tuple[str, ...] = ("one-sense", "one-per-instance", "random")
METHODS: tuple[str, ...] = CLUSTERING_METHODS + BASELINE_METHODS

#: The metric each method clusters with (used for silhouette scores and the default centroid distance).
METHOD_METRIC: dict[str, str] = {method: "euclidean" for method in METHODS} | {"agglomerative": "cosine"}


@dataclass
class Clustering:
    """One clustering of a word's occurrences: raw labels (-1 = noise); for ``gmm`` the fitted mixture."""

    labels: np.ndarray
    mixture: object | None = None
    validity: float = float("nan")


def cluster_k(
    method: str,
    X: np.ndarray,
    k: int,
    seed: int,
    *,
    n_init: int = 5,
    covariance_type: str = "diag",
    n_neighbors: int = 10,
) -> Clustering:
    """Cluster the rows of ``X`` into ``k`` groups with ``method`` (not ``hdbscan``: it picks k itself).

    Callers handle the degenerate cases (k = 1 or k = n) before calling.

    Parameters
    ----------
    method : str
        ``kmeans`` (k-means++, ``n_init`` restarts), ``agglomerative`` (cosine, average linkage;
        zero vectors are at distance 1 from everything),
        ``ward`` (Euclidean, Ward linkage), ``gmm`` (Gaussian mixture, ``covariance_type``) or
        ``spectral`` (symmetric k-nearest-neighbour affinity, ``n_neighbors`` capped at n - 1).
    X : ndarray (n, m)
    k : int
        2 ≤ k < n.
    seed : int
        Seed for every random choice.
    """
    from sklearn.cluster import AgglomerativeClustering, KMeans, SpectralClustering
    from sklearn.metrics.pairwise import cosine_distances
    from sklearn.mixture import GaussianMixture

    if method == "kmeans":
        labels = KMeans(n_clusters=k, n_init=n_init, random_state=seed).fit_predict(X)
    elif method == "agglomerative":
        # Precomputed so that zero vectors (e.g. a centred occurrence equal to the mean) are allowed:
        # they lie at cosine distance 1 from everything, as in the centroid rule.
        distances = cosine_distances(X)
        np.fill_diagonal(distances, 0.0)
        clusterer = AgglomerativeClustering(n_clusters=k, metric="precomputed", linkage="average")
        labels = clusterer.fit_predict(distances)
    elif method == "ward":
        labels = AgglomerativeClustering(n_clusters=k, linkage="ward").fit_predict(X)
    elif method == "gmm":
        mixture = GaussianMixture(
            n_components=k, covariance_type=covariance_type, n_init=n_init, random_state=seed
        ).fit(X)
        return Clustering(labels=mixture.predict(X).astype(np.int64), mixture=mixture)
    elif method == "spectral":
        spectral = SpectralClustering(
            n_clusters=k,
            affinity="nearest_neighbors",
            n_neighbors=max(1, min(n_neighbors, len(X) - 1)),
            assign_labels="cluster_qr",
            random_state=seed,
        )
        with warnings.catch_warnings():
            # Well-separated senses give a disconnected neighbour graph; that is the good case here.
            warnings.filterwarnings("ignore", message="Graph is not fully connected")
            labels = spectral.fit_predict(X)
    else:
        raise ValueError(f"cluster_k cannot run method {method!r}")
    return Clustering(labels=np.asarray(labels, dtype=np.int64))


def cluster_hdbscan(X: np.ndarray, min_cluster_size: int, min_samples: int | None) -> Clustering:
    """Run HDBSCAN (the ``hdbscan`` package, Euclidean); labels -1 are noise.

    ``min_cluster_size`` is capped at n (and at least 2); ``validity`` is HDBSCAN's own
    ``relative_validity_`` (a fast DBCV approximation), NaN where it cannot be computed.
    A single occurrence comes back as noise.
    """
    import hdbscan

    n = len(X)
    if n < 2:
        return Clustering(labels=np.full(n, -1, dtype=np.int64))
    X = np.array(X, dtype=np.float64, order="C", copy=True)  # hdbscan needs a writable buffer
    size = max(2, min(int(min_cluster_size), n))
    samples = None if min_samples is None else max(1, min(int(min_samples), n - 1))
    if samples is None and size > n - 1:
        samples = n - 1  # hdbscan's default (min_samples = min_cluster_size) needs more points
    model = hdbscan.HDBSCAN(min_cluster_size=size, min_samples=samples, gen_min_span_tree=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        model.fit(X)
        labels = np.asarray(model.labels_, dtype=np.int64)
        validity = float("nan")
        if labels.max() >= 1:
            # degenerate trees (e.g. duplicate points) have no validity score
            with contextlib.suppress(ValueError, ZeroDivisionError, IndexError):
                validity = float(model.relative_validity_)
    return Clustering(labels=labels, validity=validity)
