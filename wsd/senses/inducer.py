"""SenseInducer: a scikit-learn clusterer that induces one word's senses from its occurrence vectors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from wsd.errors import ConfigError, InputError
from wsd.senses.labels import (
    UNASSIGNED,
    assign_noise,
    cluster_means,
    compact_labels,
    merge_small_senses,
    size_order,
)
from wsd.senses.methods import (
    CLUSTERING_METHODS,
    METHOD_METRIC,
    METHODS,
    Clustering,
    cluster_hdbscan,
    cluster_k,
)
from wsd.senses.preprocess import EPSILON, Preprocessor, check_center_forms
from wsd.senses.selection import HDBSCAN_SIZE_GRID, SELECTIONS, candidate_ks, check_k_range, is_better, score
from wsd.senses.soft import (
    COVARIANCE_TYPES,
    DISTANCES,
    centroid_distances,
    distance_softmax,
    gaussian_posteriors,
    merge_columns,
)

NOISE_POLICIES: tuple[str, ...] = ("nearest", "keep")
#: How a fitted inducer turns vectors into memberships.
ASSIGNMENTS: tuple[str, ...] = ("centroid", "gaussian", "random")
_MAX_ROUNDS = 10


class SenseInducer(ClusterMixin, BaseEstimator):
    """Induce the senses of one word by clustering its occurrence vectors.

    Rows of ``X`` are occurrences of a single word (e.g. 384-dim contextual embeddings). ``fit``
    (1) preprocesses per word (optional centring, L2 normalisation, PCA/whitening; the learned
    transform is kept, so ``predict`` applies the same one to new occurrences), (2) clusters with
    ``method``, choosing the number of senses when ``k="auto"``, (3) handles HDBSCAN noise and merges
    senses smaller than ``min_cluster_size``, then (4) builds the *assignment rule* used by
    ``predict_proba`` and makes the training labels agree with it.

    **Soft memberships.** ``gmm`` uses its native posteriors p(component | x) (summed over
    components that were merged into one sense). Every other method uses the centroid rule
    ``proba = softmax(-d(x, c_j) / temperature)``, where ``c_j`` is the mean (in the transformed
    space) of the vectors the method put in sense j and ``d`` is ``distance``: ``"euclidean"``
    (L2) or ``"cosine"`` (1 − cosine similarity); ``"auto"`` means cosine for ``agglomerative``
    (which clusters by cosine) and Euclidean otherwise. ``temperature="auto"`` is the mean
    distance of the training vectors to the centroid of the sense the method put them in (so
    memberships do not depend on the scale of the vectors; where that is 0, e.g. ``one-per-instance``,
    the mean distance to all centroids, else 1.0). The ``random`` baseline gives one-hot memberships.
    ``gmm`` runs that need no mixture (k = 1 or k = n) use the centroid rule.

    **Hard labels agree with the memberships, by construction.** ``predict(X)`` is
    ``argmax(predict_proba(X))`` for every method, and ``labels_`` is the same argmax on the
    training vectors: after clustering, each training occurrence is assigned to the sense with the
    highest membership (the nearest centroid; for ``gmm`` the most probable sense); senses that then
    receive no occurrence are dropped. For k-means, Ward and GMM this changes nothing or almost
    nothing; for agglomerative, spectral and HDBSCAN a few boundary occurrences may move,
    ``n_reassigned_`` counts them. So ``predict(X_train)`` equals ``labels_`` (except HDBSCAN noise
    kept as -1 with ``noise="keep"``: ``predict`` always assigns a sense), also after save/load.
    The ``random`` baseline draws each occurrence's sense from a seeded hash of its vector bytes, so
    the same vector always gets the same random sense.

    **Label numbering** is deterministic: senses are numbered 0, 1, ... by decreasing size, ties by
    first occurrence; -1 marks unassigned HDBSCAN noise (``noise="keep"`` only).

    **Few occurrences.** A fixed ``k`` is capped at n; k = 1 gives one sense and k = n one sense per
    occurrence without running the method. ``k="auto"`` scores the candidates in ``k_range``
    (inclusive) that the criterion can score on n occurrences (2 ≤ k ≤ n − 1; ``bic``: 1 ≤ k ≤ n − 1);
    with no such candidate (n ≤ 2) it uses ``min(k_range[0], n)`` senses. One occurrence is one sense.

    Parameters
    ----------
    method : str
        ``kmeans``, ``agglomerative`` (cosine, average linkage), ``ward``, ``hdbscan``, ``gmm``,
        ``spectral`` (k-nearest-neighbour affinity), or the baselines ``one-sense`` (all occurrences
        one sense), ``one-per-instance`` (each occurrence its own sense; identical vectors share one)
        and ``random`` (an int ``k`` of random senses, seeded by ``random_state``).
    k : int or "auto"
        Number of senses, or ``"auto"`` to choose it per word by ``selection`` over ``k_range``.
        ``hdbscan`` needs ``"auto"`` and ``random`` an int; the other baselines ignore it.
    selection : str
        ``silhouette`` (metric: cosine for ``agglomerative``, Euclidean otherwise),
        ``calinski_harabasz``, ``bic`` (``gmm`` only) or ``native`` (``hdbscan`` only: HDBSCAN picks the
        number itself with ``hdbscan_min_cluster_size``). For ``hdbscan`` with silhouette or
        Calinski–Harabasz, HDBSCAN runs over a grid of ``min_cluster_size`` values and the best-scoring
        run whose number of clusters (noise assigned to the nearest cluster) lies in ``k_range`` wins;
        if none does, the native run is used.
    k_range : (int, int)
        Inclusive range of candidate k for ``k="auto"``.
    random_state : int, RandomState or None
        Seeds every random choice (k-means, GMM, spectral, the random baseline).
    center, normalize, pca, whiten
        Per-word preprocessing, see :class:`~wsd.senses.preprocess.Preprocessor`.
    center_forms : float
        Fraction in [0, 1] of each surface form's offset from the word's mean vector to remove before
        everything else (0: off). Needs the forms: ``fit(X, forms=...)``; ``predict(X, forms=...)`` moves new
        occurrences of known forms the same way. :class:`~wsd.senses.SenseModel` passes the ``form``
        column of the occurrence table.
    min_cluster_size : int or None
        Merge senses with fewer occurrences into the sense with the nearest mean among those at
        least this large (if none is, everything becomes one sense).
    noise : str
        HDBSCAN noise: ``nearest`` assigns it to the nearest cluster mean; ``keep`` labels it -1.
    temperature : float or "auto"
        Softmax temperature of the centroid rule (see above).
    distance : str
        ``auto``, ``euclidean`` or ``cosine``: the distance of the centroid rule.
    n_init : int
        Restarts of k-means and GMM.
    covariance_type : str
        GMM covariance: ``diag`` (default; ``full`` is rarely estimable in 384 dims from ~100 vectors),
        ``full``, ``tied`` or ``spherical``.
    n_neighbors : int
        Neighbours of the spectral affinity graph (capped at n − 1).
    hdbscan_min_cluster_size, hdbscan_min_samples : int, int or None
        HDBSCAN's own parameters for the native run.

    Attributes
    ----------
    labels_ : ndarray of int64 (n,)
        Sense of each training occurrence (-1: unassigned noise).
    n_senses_ : int
    cluster_centers_ : ndarray (n_senses_, m)
        Sense centres in the transformed space (the centroids of the centroid rule; for ``gmm`` and
        ``random`` the means of the training members).
    k_scores_ : dict[int, float]
        Score of every candidate k (NaN where undefined); empty when k was not chosen.
    n_clusters_ : int
        Number of clusters the method itself produced, before noise handling and merging.
    n_reassigned_ : int
        Training occurrences whose sense the assignment rule changed (see above).
    temperature_ : float
    distance_ : str
    assignment_ : str
        ``centroid``, ``gaussian`` or ``random``.
    preprocessor_ : Preprocessor
    n_features_in_ : int

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, _ = make_blobs(60, centers=3, n_features=8, random_state=0)
    >>> model = SenseInducer(method="kmeans", k="auto").fit(X)
    >>> model.n_senses_, model.predict_proba(X).shape
    (3, (60, 3))
    """

    def __init__(
        self,
        method: str = "kmeans",
        k: int | str = "auto",
        selection: str = "silhouette",
        k_range: tuple[int, int] = (2, 7),
        random_state: int | np.random.RandomState | None = 0,
        center: bool = False,
        normalize: bool = False,
        pca: int | None = None,
        whiten: bool = False,
        min_cluster_size: int | None = None,
        noise: str = "nearest",
        temperature: float | str = "auto",
        distance: str = "auto",
        n_init: int = 5,
        covariance_type: str = "diag",
        n_neighbors: int = 10,
        hdbscan_min_cluster_size: int = 5,
        hdbscan_min_samples: int | None = None,
        center_forms: float = 0.0,
    ):
        self.method = method
        self.k = k
        self.selection = selection
        self.k_range = k_range
        self.random_state = random_state
        self.center = center
        self.normalize = normalize
        self.pca = pca
        self.whiten = whiten
        self.min_cluster_size = min_cluster_size
        self.noise = noise
        self.temperature = temperature
        self.distance = distance
        self.n_init = n_init
        self.covariance_type = covariance_type
        self.n_neighbors = n_neighbors
        self.hdbscan_min_cluster_size = hdbscan_min_cluster_size
        self.hdbscan_min_samples = hdbscan_min_samples
        self.center_forms = center_forms

    # ------------------------------------------------------------------ validation

    def _check_params(self) -> None:
        def positive_int(name: str, value: object, minimum: int = 1, allow_none: bool = False) -> None:
            if value is None and allow_none:
                return
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
                raise ConfigError(f"{name} must be an int >= {minimum}, got {value!r}")

        if self.method not in METHODS:
            raise ConfigError(f"unknown sense induction method {self.method!r}; choose from {', '.join(METHODS)}")
        if self.selection not in SELECTIONS:
            raise ConfigError(f"unknown selection {self.selection!r}; choose from {', '.join(SELECTIONS)}")
        if self.k != "auto":
            positive_int("k", self.k)
        check_k_range(self.k_range, self.selection)
        auto = self.k == "auto" and self.method in CLUSTERING_METHODS
        if self.method == "hdbscan" and self.k != "auto":
            raise ConfigError("method='hdbscan' chooses the number of senses itself; use k='auto'")
        if self.method == "random" and self.k == "auto":
            raise ConfigError("method='random' needs an int k (the number of random senses)")
        if auto and self.selection == "bic" and self.method != "gmm":
            raise ConfigError(f"selection='bic' needs a mixture model (method='gmm'), not method={self.method!r}")
        if auto and self.selection == "native" and self.method != "hdbscan":
            raise ConfigError(f"selection='native' is HDBSCAN's own choice (method='hdbscan'), not {self.method!r}")
        positive_int("min_cluster_size", self.min_cluster_size, allow_none=True)
        if self.noise not in NOISE_POLICIES:
            raise ConfigError(f"noise must be one of {', '.join(NOISE_POLICIES)}, got {self.noise!r}")
        if self.temperature != "auto" and not (
            isinstance(self.temperature, (int, float, np.floating))
            and not isinstance(self.temperature, bool)
            and math.isfinite(self.temperature)
            and self.temperature > 0
        ):
            raise ConfigError(f"temperature must be a positive number or 'auto', got {self.temperature!r}")
        if self.distance != "auto" and self.distance not in DISTANCES:
            raise ConfigError(f"distance must be 'auto' or one of {', '.join(DISTANCES)}, got {self.distance!r}")
        positive_int("n_init", self.n_init)
        positive_int("n_neighbors", self.n_neighbors)
        positive_int("hdbscan_min_cluster_size", self.hdbscan_min_cluster_size, minimum=2)
        positive_int("hdbscan_min_samples", self.hdbscan_min_samples, allow_none=True)
        if self.covariance_type not in COVARIANCE_TYPES:
            raise ConfigError(
                f"covariance_type must be one of {', '.join(COVARIANCE_TYPES)}, got {self.covariance_type!r}"
            )
        for name in ("center", "normalize", "whiten"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ConfigError(f"{name} must be True or False, got {getattr(self, name)!r}")
        positive_int("pca", self.pca, allow_none=True)
        check_center_forms(self.center_forms)

    def _check_X(self, X: Any, fitting: bool) -> np.ndarray:
        """A dense, finite float64 matrix (scikit-learn's checks, raised as InputError)."""
        try:
            X = check_array(X, dtype=np.float64, ensure_min_samples=1 if fitting else 0)
        except ValueError as error:
            raise InputError(f"occurrence vectors: {error}") from None
        if not fitting and X.shape[1] != self.n_features_in_:
            raise InputError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                f"{self.n_features_in_} features as input (the vector dims the senses were induced from)"
            )
        return X

    # ------------------------------------------------------------------ fitting

    def fit(self, X: Any, y: Any = None, forms: Any = None) -> SenseInducer:
        """Induce senses from occurrence vectors ``X`` (n × dim); ``y`` is ignored.

        ``forms`` (n surface forms) is needed when ``center_forms`` is set.

        Returns
        -------
        self
        """
        self._check_params()
        X = self._check_X(X, fitting=True)
        self.n_features_in_ = int(X.shape[1])
        seed = int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))
        self.preprocessor_ = self._preprocessor().fit(X, forms)
        Xt = self.preprocessor_.transform(X, forms)
        self.distance_ = METHOD_METRIC[self.method] if self.distance == "auto" else self.distance
        self.k_scores_: dict[int, float] = {}
        if self.method == "random":
            self._fit_random(X, Xt, seed)
            return self
        clustering = self._cluster(Xt, seed)
        raw = np.asarray(clustering.labels, dtype=np.int64)
        self.n_clusters_ = len(np.unique(raw[raw >= 0]))
        noise = raw < 0
        keep_noise = self.noise == "keep" and bool(noise.any()) and bool((~noise).any())
        if clustering.mixture is not None:
            groups = raw  # mixture component indices; components that won no occurrence get merged/dropped
            n_groups = clustering.mixture.n_components
        else:
            groups = compact_labels(raw) if keep_noise else assign_noise(Xt, raw, self.distance_)
            n_groups = int(groups.max()) + 1
        merged = (
            merge_small_senses(Xt, groups, self.min_cluster_size, self.distance_)
            if self.min_cluster_size
            else np.arange(n_groups)
        )
        group_sense = compact_labels(merged)  # group id -> sense id before the final renumbering
        sense_labels = np.where(groups >= 0, group_sense[np.maximum(groups, 0)], UNASSIGNED)
        n_senses = int(group_sense.max()) + 1
        if clustering.mixture is not None:
            mixture = clustering.mixture
            self.assignment_ = "gaussian"
            self.mixture_weights_ = np.asarray(mixture.weights_, dtype=np.float64)
            self.mixture_means_ = np.asarray(mixture.means_, dtype=np.float64)
            self.mixture_precisions_cholesky_ = np.asarray(mixture.precisions_cholesky_, dtype=np.float64)
            self.component_senses_ = group_sense.astype(np.int64)
        else:
            self.assignment_ = "centroid"
            self.cluster_centers_ = cluster_means(Xt, sense_labels, n_senses)
        self.temperature_ = self._auto_temperature(Xt, sense_labels, n_senses)
        self._finalise(Xt, sense_labels, keep_noise_mask=noise if keep_noise else None)
        return self

    def _preprocessor(self) -> Preprocessor:
        return Preprocessor(self.center, self.normalize, self.pca, self.whiten, self.center_forms)

    def _cluster(self, Xt: np.ndarray, seed: int) -> Clustering:
        """Raw labels from the method (with k chosen when asked); records ``k_scores_``."""
        n = len(Xt)
        if self.method == "one-sense" or n == 1:
            return Clustering(labels=np.zeros(n, dtype=np.int64))
        if self.method == "one-per-instance":
            return Clustering(labels=np.arange(n, dtype=np.int64))
        if self.method == "hdbscan":
            return self._cluster_hdbscan(Xt)
        if self.k != "auto":
            return self._cluster_fixed(Xt, min(int(self.k), n), seed)
        k_range = check_k_range(self.k_range, self.selection)
        candidates = candidate_ks(k_range, n, self.selection)
        if not candidates:
            return self._cluster_fixed(Xt, min(k_range[0], n), seed)
        best_score: float | None = None
        best: Clustering | None = None
        for k in candidates:
            clustering = self._cluster_fixed(Xt, k, seed, force_method=self.selection == "bic")
            value = score(self.selection, Xt, clustering, METHOD_METRIC[self.method])
            self.k_scores_[k] = value
            if best is None or is_better(self.selection, value, best_score):
                best, best_score = clustering, value
        return best

    def _cluster_fixed(self, Xt: np.ndarray, k: int, seed: int, force_method: bool = False) -> Clustering:
        n = len(Xt)
        if not force_method and k <= 1:
            return Clustering(labels=np.zeros(n, dtype=np.int64))
        if not force_method and k >= n:
            return Clustering(labels=np.arange(n, dtype=np.int64))
        return cluster_k(
            self.method,
            Xt,
            k,
            seed,
            n_init=self.n_init,
            covariance_type=self.covariance_type,
            n_neighbors=self.n_neighbors,
        )

    def _cluster_hdbscan(self, Xt: np.ndarray) -> Clustering:
        native = cluster_hdbscan(Xt, self.hdbscan_min_cluster_size, self.hdbscan_min_samples)
        if self.selection == "native":
            found = len(np.unique(native.labels[native.labels >= 0]))
            self.k_scores_[found] = native.validity
            return native
        low, high = check_k_range(self.k_range, self.selection)
        sizes = sorted({s for s in HDBSCAN_SIZE_GRID if s <= max(2, len(Xt) // 2)} | {self.hdbscan_min_cluster_size})
        best: Clustering | None = None
        best_score: float | None = None
        for size in sizes:
            run = cluster_hdbscan(Xt, size, self.hdbscan_min_samples)
            assigned = Clustering(labels=assign_noise(Xt, run.labels, "euclidean"))
            found = len(np.unique(assigned.labels))
            if not low <= found <= high:
                continue
            value = score(self.selection, Xt, assigned, "euclidean")
            if is_better(self.selection, value, self.k_scores_.get(found)):
                self.k_scores_[found] = value
            if is_better(self.selection, value, best_score):
                best, best_score = run, value
        self.k_scores_ = dict(sorted(self.k_scores_.items()))
        return best if best is not None else native

    def _fit_random(self, X: np.ndarray, Xt: np.ndarray, seed: int) -> None:
        n = len(X)
        n_buckets = min(int(self.k), n)
        buckets = _hash_rows(X, seed) % np.uint64(n_buckets)
        buckets = buckets.astype(np.int64)
        new_id = size_order(buckets, n_buckets)
        sizes = np.bincount(buckets, minlength=n_buckets)
        n_senses = int((sizes > 0).sum())
        bucket_senses = new_id.copy()
        empty = sizes == 0
        bucket_senses[empty] = np.flatnonzero(empty) % n_senses
        self.assignment_ = "random"
        self.random_seed_ = seed
        self.bucket_senses_ = bucket_senses
        self.n_clusters_ = n_senses
        self.temperature_ = 1.0
        self.labels_ = bucket_senses[buckets]
        self.n_senses_ = n_senses
        self.cluster_centers_ = cluster_means(Xt, self.labels_, n_senses)
        self.n_reassigned_ = 0

    def _auto_temperature(self, Xt: np.ndarray, sense_labels: np.ndarray, n_senses: int) -> float:
        if self.temperature != "auto":
            return float(self.temperature)
        centers = cluster_means(Xt, sense_labels, n_senses)
        distances = centroid_distances(Xt, centers, self.distance_)
        assigned = sense_labels >= 0
        own = distances[np.flatnonzero(assigned), sense_labels[assigned]]
        for candidate in (own.mean() if len(own) else 0.0, distances.mean()):
            if candidate > EPSILON:
                return float(candidate)
        return 1.0

    def _finalise(self, Xt: np.ndarray, sense_labels: np.ndarray, keep_noise_mask: np.ndarray | None) -> None:
        """Label each training vector by the assignment rule, drop empty senses, number senses by size."""
        origin = sense_labels.copy()  # each occurrence's sense before this step, renumbered alongside
        for _ in range(_MAX_ROUNDS):
            labels = self._hard(self._proba_transformed(Xt), keep_noise_mask)
            n_senses = self._n_rule_senses()
            new_id = size_order(labels, n_senses)
            n_kept = int((np.bincount(labels[labels >= 0], minlength=n_senses) > 0).sum())
            if n_kept == n_senses and np.array_equal(new_id, np.arange(n_senses)):
                break
            self._renumber(new_id, n_kept)
            origin = np.where(origin >= 0, new_id[np.maximum(origin, 0)], UNASSIGNED)
            origin[origin >= n_kept] = UNASSIGNED
        self.labels_ = self._hard(self._proba_transformed(Xt), keep_noise_mask)
        self.n_senses_ = self._n_rule_senses()
        self.n_reassigned_ = int(((self.labels_ != origin) & (self.labels_ >= 0)).sum())
        if self.assignment_ != "centroid":
            self.cluster_centers_ = cluster_means(Xt, self.labels_, self.n_senses_)

    @staticmethod
    def _hard(proba: np.ndarray, keep_noise_mask: np.ndarray | None) -> np.ndarray:
        labels = np.argmax(proba, axis=1).astype(np.int64)
        if keep_noise_mask is not None:
            labels[keep_noise_mask] = UNASSIGNED
        return labels

    def _n_rule_senses(self) -> int:
        if self.assignment_ == "gaussian":
            return int(self.component_senses_.max()) + 1
        if self.assignment_ == "random":
            return int(self.bucket_senses_.max()) + 1
        return int(self.cluster_centers_.shape[0])

    def _renumber(self, new_id: np.ndarray, n_kept: int) -> None:
        """Apply ``new_id[old] = new`` to the assignment rule, dropping senses with ids ≥ ``n_kept``."""
        if self.assignment_ == "centroid":
            centers = np.empty((n_kept, self.cluster_centers_.shape[1]))
            kept = new_id < n_kept
            centers[new_id[kept]] = self.cluster_centers_[kept]
            self.cluster_centers_ = centers
        elif self.assignment_ == "gaussian":
            senses = new_id[self.component_senses_]
            kept = senses < n_kept
            weights = self.mixture_weights_[kept]
            self.mixture_weights_ = weights / weights.sum()
            self.mixture_means_ = self.mixture_means_[kept]
            if self.covariance_type != "tied":
                self.mixture_precisions_cholesky_ = self.mixture_precisions_cholesky_[kept]
            self.component_senses_ = senses[kept]

    # ------------------------------------------------------------------ prediction

    def _proba_transformed(self, Xt: np.ndarray, X: np.ndarray | None = None) -> np.ndarray:
        if self.assignment_ == "gaussian":
            posteriors = gaussian_posteriors(
                Xt,
                self.mixture_weights_,
                self.mixture_means_,
                self.mixture_precisions_cholesky_,
                self.covariance_type,
            )
            return merge_columns(posteriors, self.component_senses_, int(self.component_senses_.max()) + 1)
        if self.assignment_ == "random":
            buckets = (_hash_rows(X, self.random_seed_) % np.uint64(len(self.bucket_senses_))).astype(np.int64)
            proba = np.zeros((len(X), int(self.bucket_senses_.max()) + 1))
            proba[np.arange(len(X)), self.bucket_senses_[buckets]] = 1.0
            return proba
        return distance_softmax(centroid_distances(Xt, self.cluster_centers_, self.distance_), self.temperature_)

    def predict_proba(self, X: Any, forms: Any = None) -> np.ndarray:
        """Soft sense memberships of occurrences, shape (n, n_senses_); rows sum to 1.

        ``forms`` (their surface forms) matter only with ``center_forms``; unknown forms are not moved.

        ``gmm``: native posteriors; ``random``: one-hot; otherwise ``softmax(-d / temperature_)`` over
        the distances ``d`` (``distance_``) to ``cluster_centers_`` in the transformed space.
        """
        check_is_fitted(self, "labels_")
        X = self._check_X(X, fitting=False)
        if len(X) == 0:
            return np.zeros((0, self.n_senses_))
        return self._proba_transformed(self.preprocessor_.transform(X, forms), X)

    def predict(self, X: Any, forms: Any = None) -> np.ndarray:
        """Assign occurrences to the induced senses: ``argmax(predict_proba(X))`` (never -1).

        For the training vectors this reproduces ``labels_`` (noise kept as -1 aside).
        """
        return np.argmax(self.predict_proba(X, forms), axis=1).astype(np.int64)

    # ------------------------------------------------------------------ state without pickle

    def get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """The fitted state as JSON-ready scalars and plain NumPy arrays (everything ``predict`` needs)."""
        check_is_fitted(self, "labels_")
        scalars = {
            "assignment": self.assignment_,
            "distance": self.distance_,
            "temperature": self.temperature_,
            "n_features_in": self.n_features_in_,
            "n_senses": self.n_senses_,
            "n_clusters": self.n_clusters_,
            "n_reassigned": self.n_reassigned_,
            "k_scores": [[k, None if math.isnan(v) else v] for k, v in self.k_scores_.items()],
        }
        arrays = {f"preprocess_{name}": value for name, value in self.preprocessor_.get_arrays().items()}
        arrays |= {"labels": self.labels_, "cluster_centers": self.cluster_centers_}
        if self.assignment_ == "gaussian":
            arrays |= {
                "mixture_weights": self.mixture_weights_,
                "mixture_means": self.mixture_means_,
                "mixture_precisions_cholesky": self.mixture_precisions_cholesky_,
                "component_senses": self.component_senses_,
            }
        if self.assignment_ == "random":
            scalars["random_seed"] = self.random_seed_
            arrays["bucket_senses"] = self.bucket_senses_
        return scalars, arrays

    @classmethod
    def from_state(
        cls,
        params: dict[str, Any],
        scalars: dict[str, Any],
        arrays: dict[str, np.ndarray],
        where: str = "saved state",
    ) -> SenseInducer:
        """Rebuild a fitted inducer from :meth:`get_state` output, checking that the arrays fit together."""
        params = dict(params)
        if isinstance(params.get("k_range"), list):
            params["k_range"] = tuple(params["k_range"])
        model = cls(**params)
        model._check_params()
        try:
            model.assignment_ = str(scalars["assignment"])
            model.distance_ = str(scalars["distance"])
            model.temperature_ = float(scalars["temperature"])
            model.n_features_in_ = int(scalars["n_features_in"])
            model.n_senses_ = int(scalars["n_senses"])
            model.n_clusters_ = int(scalars["n_clusters"])
            model.n_reassigned_ = int(scalars["n_reassigned"])
            model.k_scores_ = {int(k): float("nan") if v is None else float(v) for k, v in scalars["k_scores"]}
            preprocess = {
                key[len("preprocess_") :]: value for key, value in arrays.items() if key.startswith("preprocess_")
            }
            model.preprocessor_ = model._preprocessor()
            model.preprocessor_.set_arrays(preprocess, where)
            model.labels_ = np.asarray(arrays["labels"], dtype=np.int64)
            model.cluster_centers_ = np.asarray(arrays["cluster_centers"], dtype=np.float64)
            if model.assignment_ == "gaussian":
                model.mixture_weights_ = np.asarray(arrays["mixture_weights"], dtype=np.float64)
                model.mixture_means_ = np.asarray(arrays["mixture_means"], dtype=np.float64)
                model.mixture_precisions_cholesky_ = np.asarray(arrays["mixture_precisions_cholesky"], dtype=np.float64)
                model.component_senses_ = np.asarray(arrays["component_senses"], dtype=np.int64)
            elif model.assignment_ == "random":
                model.random_seed_ = int(scalars["random_seed"])
                model.bucket_senses_ = np.asarray(arrays["bucket_senses"], dtype=np.int64)
            elif model.assignment_ != "centroid":
                raise InputError(f"{where}: unknown assignment {model.assignment_!r}")
        except KeyError as missing:
            raise InputError(f"{where}: missing {missing.args[0]!r}") from None
        model._check_state(where)
        return model

    def _check_state(self, where: str) -> None:
        dims = self.preprocessor_.output_dim_
        if self.preprocessor_.dim_ != self.n_features_in_:
            raise InputError(
                f"{where}: transform expects {self.preprocessor_.dim_} dims, state says {self.n_features_in_}"
            )
        if self.cluster_centers_.shape != (self.n_senses_, dims):
            raise InputError(
                f"{where}: cluster_centers has shape {self.cluster_centers_.shape}, expected ({self.n_senses_}, {dims})"
            )
        if self.labels_.ndim != 1 or (len(self.labels_) and self.labels_.max() >= self.n_senses_):
            raise InputError(f"{where}: labels do not fit {self.n_senses_} senses")
        if self.assignment_ == "gaussian":
            c = len(self.mixture_weights_)
            expected = {
                "full": (c, dims, dims),
                "tied": (dims, dims),
                "diag": (c, dims),
                "spherical": (c,),
            }[self.covariance_type]
            if (
                self.mixture_means_.shape != (c, dims)
                or self.mixture_precisions_cholesky_.shape != expected
                or self.component_senses_.shape != (c,)
                or int(self.component_senses_.max()) + 1 != self.n_senses_
            ):
                raise InputError(f"{where}: the Gaussian mixture arrays do not fit together")
        if self.assignment_ == "random" and int(self.bucket_senses_.max()) + 1 != self.n_senses_:
            raise InputError(f"{where}: bucket_senses do not fit {self.n_senses_} senses")


def _hash_rows(X: np.ndarray, seed: int) -> np.ndarray:
    """A seeded 64-bit hash of each row's float64 bytes (FNV-style mixing, splitmix64 finaliser)."""
    bits = np.ascontiguousarray(X, dtype=np.float64).view(np.uint64)
    h = np.full(len(bits), np.uint64(seed) ^ np.uint64(0x9E3779B97F4A7C15), dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    with np.errstate(over="ignore"):
        for column in bits.T:  # one vector operation per dimension, not per occurrence
            h = (h ^ column) * prime
        h ^= h >> np.uint64(30)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(27)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(31)
    return h
