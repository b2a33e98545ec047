"""The clustering methods of sense induction, one scikit-learn estimator each, and the registry that names them.

Each estimator clusters the rows of ``X`` (one word's transformed occurrence vectors) and sets ``labels_``;
the fixed-k ones take ``n_clusters`` (so :class:`~wsd.senses.selection.SelectK` can choose it), HDBSCAN picks
the number itself. ``gmm`` also keeps the fitted mixture (``mixture_``), HDBSCAN its validity score
(``relative_validity_``). The baselines are one estimator, :class:`~wsd.senses.dummy.DummyClusterer`.

>>> import numpy as np
>>> X = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
>>> CLUSTERERS["ward"](n_clusters=2).fit(X).labels_.tolist()
[0, 0, 1, 1]
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections import OrderedDict
from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils.validation import check_array

from wsd.senses.soft import COVARIANCE_TYPES
from wsd.senses.validation import Cosine, Integer, Options, RandomStateLike, validate_params


def distinct_rows(X: np.ndarray) -> int:
    """The number of distinct rows of ``X``: k-means cannot find more clusters than that.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Vectors.

    Returns
    -------
    int
        How many different rows ``X`` holds (0 for no rows).

    Examples
    --------
    >>> distinct_rows(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    2
    """
    return len(np.unique(np.ascontiguousarray(X), axis=0)) if len(X) else 0


class _Clusterer(ClusterMixin, BaseEstimator):
    """Shared ``fit``: validate the parameters and ``X``, then ``_fit_labels``."""

    #: The metric the method clusters with (silhouette scores and the default centroid distance use it).
    clustering_metric = "euclidean"
    _parameter_constraints: ClassVar[dict[str, list]] = {}

    def fit(self, X: Any, y: Any = None) -> _Clusterer:
        """Cluster the rows of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Vectors to cluster.
        y : None
            Ignored.

        Returns
        -------
        self
            Fitted, with ``labels_``.
        """
        validate_params(self)
        X = check_array(X, dtype=np.float64)
        self.n_features_in_ = int(X.shape[1])
        self.labels_ = np.asarray(self._fit_labels(X), dtype=np.int64)
        return self

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class KMeansClusterer(_Clusterer):
    """k-means (k-means++ initialisation, ``n_init`` restarts, scikit-learn's ``KMeans``).

    Parameters
    ----------
    n_clusters : int
        Number of clusters.
    n_init : int
        Restarts; the best inertia wins.
    random_state : int, RandomState or None
        Seeds the initialisation.
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "n_clusters": [Integer(1)],
        "n_init": [Integer(1)],
        "random_state": [RandomStateLike()],
    }

    def __init__(self, *, n_clusters: int = 3, n_init: int = 5, random_state: Any = None):
        self.n_clusters = n_clusters
        self.n_init = n_init
        self.random_state = random_state

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        from sklearn.cluster import KMeans

        # with fewer distinct rows than clusters, each distinct row is its own cluster (what k-means converges to,
        # asked for that many, without scikit-learn's ConvergenceWarning)
        k = min(self.n_clusters, distinct_rows(X))
        return KMeans(n_clusters=k, n_init=self.n_init, random_state=self.random_state).fit_predict(X)


class CosineAverageClusterer(_Clusterer):
    """Agglomerative clustering by cosine distance, average linkage (the ``agglomerative`` method).

    The distances are precomputed so that zero vectors (e.g. a centred occurrence equal to the mean) are
    allowed: they lie at cosine distance 1 from everything, as in the centroid rule.

    With ``similarity_cut`` the number of clusters is not given: clusters merge while the mean cosine similarity
    between them is at least the cut (average linkage cut at cosine distance ``1 - similarity_cut``): a greedy
    approximation of the correlation clustering by which WUG datasets cluster their judgment graphs
    (:mod:`wsd.senses.cut`).

    Parameters
    ----------
    n_clusters : int
        Number of clusters (ignored with ``similarity_cut``).
    similarity_cut : float or None
        Merge while the mean cosine between two clusters is at least this.
    """

    clustering_metric = "cosine"
    _parameter_constraints: ClassVar[dict[str, list]] = {
        "n_clusters": [Integer(1)],
        "similarity_cut": [Cosine(), None],
    }

    def __init__(self, *, n_clusters: int = 3, similarity_cut: float | None = None):
        self.n_clusters = n_clusters
        self.similarity_cut = similarity_cut

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        from sklearn.cluster import AgglomerativeClustering
        from sklearn.metrics.pairwise import cosine_distances

        if len(X) == 1:
            return np.zeros(1, dtype=np.int64)
        distances = cosine_distances(X)
        np.fill_diagonal(distances, 0.0)
        if self.similarity_cut is not None:
            # scikit-learn merges below the threshold; the cut itself merges (mean similarity >= cut)
            threshold = np.nextafter(1.0 - float(self.similarity_cut), np.inf)
            clusterer = AgglomerativeClustering(
                n_clusters=None, distance_threshold=threshold, metric="precomputed", linkage="average"
            )
        else:
            clusterer = AgglomerativeClustering(n_clusters=self.n_clusters, metric="precomputed", linkage="average")
        return clusterer.fit_predict(distances)


#: Ward trees a :class:`WardTreeCache` keeps by default: one per word being clustered at the same time (a Dask
#: worker runs a task per thread), each ``(n - 1, 2)`` integers.
WARD_TREE_CACHE_SIZE = 8


class WardTreeCache:
    """Ward merge trees of the last ``maxsize`` distinct matrices; safe to share between threads.

    A matrix is known by a digest of its shape and bytes; the least recently used tree is dropped for a new
    one. A tree is built outside the lock, so threads clustering different words do not wait for each other.

    Parameters
    ----------
    maxsize : int
        Most trees kept.

    Examples
    --------
    >>> cache = WardTreeCache(maxsize=2)
    >>> children, n_leaves = ward_tree_of(np.eye(3), cache=cache)
    >>> len(cache), n_leaves
    (1, 3)
    """

    def __init__(self, maxsize: int = WARD_TREE_CACHE_SIZE) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be at least 1, not {maxsize}")
        self.maxsize = maxsize
        self._trees: OrderedDict[bytes, tuple[np.ndarray, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._trees)

    def tree(self, X: np.ndarray) -> tuple[np.ndarray, int]:
        """The Ward tree of ``X``: the kept one, or a new one (then kept).

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Vectors.

        Returns
        -------
        (ndarray, int)
            ``children`` and ``n_leaves``.
        """
        import hashlib

        from sklearn.cluster import ward_tree

        X = np.ascontiguousarray(X, dtype=np.float64)
        key = hashlib.blake2b(str(X.shape).encode() + X.data.tobytes(), digest_size=16).digest()
        with self._lock:
            found = self._trees.get(key)
            if found is not None:
                self._trees.move_to_end(key)
                return found
        children, _, n_leaves, _ = ward_tree(X)
        built = (children, int(n_leaves))
        with self._lock:
            self._trees[key] = built
            self._trees.move_to_end(key)
            while len(self._trees) > self.maxsize:
                self._trees.popitem(last=False)
        return built


#: The trees :func:`ward_tree_of` keeps when it is given no cache of its own.
WARD_TREES = WardTreeCache()


def ward_tree_of(X: np.ndarray, cache: WardTreeCache | None = None) -> tuple[np.ndarray, int]:
    """The full Ward merge tree of ``X`` (``children``, ``n_leaves``), computed once per distinct matrix.

    The tree does not depend on the number of clusters, so choosing k over 2..7 builds it once instead of six
    times.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Vectors (float64).
    cache : WardTreeCache, optional
        Where trees are kept (default: :data:`WARD_TREES`, shared by the process, bounded and locked).

    Returns
    -------
    (ndarray, int)
        scikit-learn's ``children_`` and ``n_leaves_`` of ``AgglomerativeClustering(linkage="ward")``.
    """
    return (cache if cache is not None else WARD_TREES).tree(X)


class WardClusterer(_Clusterer):
    """Agglomerative clustering with Ward linkage (Euclidean).

    Parameters
    ----------
    n_clusters : int
        Number of clusters.
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {"n_clusters": [Integer(1)]}

    def __init__(self, *, n_clusters: int = 3):
        self.n_clusters = n_clusters

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        from sklearn.cluster import AgglomerativeClustering

        try:  # the cut AgglomerativeClustering makes of the same (full) tree: the same labels
            from sklearn.cluster._agglomerative import _hc_cut
        except ImportError:  # pragma: no cover - a scikit-learn that moved its private helper
            _hc_cut = None
        if _hc_cut is None or len(X) < 2 or not 1 <= self.n_clusters <= len(X):
            return AgglomerativeClustering(n_clusters=self.n_clusters, linkage="ward").fit_predict(X)
        children, n_leaves = ward_tree_of(X)
        return _hc_cut(self.n_clusters, children, n_leaves)


class GaussianMixtureClusterer(_Clusterer):
    """A Gaussian mixture; each row goes to its most probable component.

    Parameters
    ----------
    n_clusters : int
        Number of mixture components.
    covariance_type : str
        ``diag``, ``full``, ``tied`` or ``spherical``.
    n_init : int
        Restarts; the best likelihood wins.
    random_state : int, RandomState or None
        Seeds the initialisation.

    Attributes
    ----------
    mixture_ : sklearn.mixture.GaussianMixture
        The fitted mixture (its posteriors are the native soft memberships; its BIC scores k).
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "n_clusters": [Integer(1)],
        "covariance_type": [Options(COVARIANCE_TYPES)],
        "n_init": [Integer(1)],
        "random_state": [RandomStateLike()],
    }

    def __init__(
        self, *, n_clusters: int = 3, covariance_type: str = "diag", n_init: int = 5, random_state: Any = None
    ):
        self.n_clusters = n_clusters
        self.covariance_type = covariance_type
        self.n_init = n_init
        self.random_state = random_state

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        from sklearn.mixture import GaussianMixture

        self.mixture_ = GaussianMixture(
            n_components=self.n_clusters,
            covariance_type=self.covariance_type,
            n_init=self.n_init,
            random_state=self.random_state,
        ).fit(X)
        return self.mixture_.predict(X)


class SpectralClusterer(_Clusterer):
    """Spectral clustering of the symmetric k-nearest-neighbour graph (labels by ``cluster_qr``).

    Parameters
    ----------
    n_clusters : int
        Number of clusters.
    n_neighbors : int
        Neighbours of the affinity graph (capped at n - 1).
    random_state : int, RandomState or None
        Seeds the eigensolver.
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "n_clusters": [Integer(1)],
        "n_neighbors": [Integer(1)],
        "random_state": [RandomStateLike()],
    }

    def __init__(self, *, n_clusters: int = 3, n_neighbors: int = 10, random_state: Any = None):
        self.n_clusters = n_clusters
        self.n_neighbors = n_neighbors
        self.random_state = random_state

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        from sklearn.cluster import SpectralClustering
        from sklearn.utils import check_random_state
        from threadpoolctl import threadpool_limits

        # A fixed seed must give fixed labels: the eigensolver's start vector comes from a seed of its own
        # (never from a shared RandomState that earlier fits have advanced), the solver is named rather
        # than chosen by what is installed (pyamg), and the BLAS runs on one thread, whose sums do not
        # depend on how the work was split; a disconnected graph has a degenerate eigenspace, where the last
        # bits decide which basis comes back.
        seed = self.random_state
        if not (seed is None or isinstance(seed, (int, np.integer))):
            seed = int(check_random_state(seed).randint(np.iinfo(np.int32).max))
        spectral = SpectralClustering(
            n_clusters=self.n_clusters,
            affinity="nearest_neighbors",
            n_neighbors=max(1, min(self.n_neighbors, len(X) - 1)),
            assign_labels="cluster_qr",
            eigen_solver="arpack",
            random_state=seed,
        )
        with warnings.catch_warnings(), threadpool_limits(limits=1):
            # Well-separated senses give a disconnected neighbour graph; that is the good case here.
            warnings.filterwarnings("ignore", message="Graph is not fully connected")
            return spectral.fit_predict(np.ascontiguousarray(X, dtype=np.float64))


class HDBSCANClusterer(_Clusterer):
    """HDBSCAN (the ``hdbscan`` package, Euclidean); it chooses the number of clusters, -1 marks noise.

    ``min_cluster_size`` is capped at n (and at least 2); a single row comes back as noise.

    Parameters
    ----------
    min_cluster_size : int
        HDBSCAN's smallest cluster.
    min_samples : int or None
        HDBSCAN's density parameter (capped at n - 1; default: ``min_cluster_size``, or n - 1 if smaller).

    Attributes
    ----------
    relative_validity_ : float
        HDBSCAN's own ``relative_validity_`` (a fast DBCV approximation), NaN where it cannot be computed.
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "min_cluster_size": [Integer(2)],
        "min_samples": [Integer(1), None],
    }

    def __init__(self, *, min_cluster_size: int = 5, min_samples: int | None = None):
        self.min_cluster_size = min_cluster_size
        self.min_samples = min_samples

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        import hdbscan

        n = len(X)
        self.relative_validity_ = float("nan")
        if n < 2:
            return np.full(n, -1, dtype=np.int64)
        X = np.array(X, dtype=np.float64, order="C", copy=True)  # hdbscan needs a writable buffer
        size = max(2, min(int(self.min_cluster_size), n))
        samples = None if self.min_samples is None else max(1, min(int(self.min_samples), n - 1))
        if samples is None and size > n - 1:
            samples = n - 1  # hdbscan's default (min_samples = min_cluster_size) needs more points
        model = hdbscan.HDBSCAN(min_cluster_size=size, min_samples=samples, gen_min_span_tree=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            model.fit(X)
            labels = np.asarray(model.labels_, dtype=np.int64)
            if labels.max() >= 1:
                # degenerate trees (e.g. duplicate points) have no validity score
                with contextlib.suppress(ValueError, ZeroDivisionError, IndexError):
                    self.relative_validity_ = float(model.relative_validity_)
        return labels


#: The clustering methods by name (the baselines are :class:`~wsd.senses.dummy.DummyClusterer` strategies).
CLUSTERERS: dict[str, type[_Clusterer]] = {
    "kmeans": KMeansClusterer,
    "agglomerative": CosineAverageClusterer,
    "ward": WardClusterer,
    "hdbscan": HDBSCANClusterer,
    "gmm": GaussianMixtureClusterer,
    "spectral": SpectralClusterer,
}
