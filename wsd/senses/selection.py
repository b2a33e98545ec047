"""Choosing the number of senses per word: the ``SelectK`` meta-estimator, candidate k values and the criteria.

``SelectK(estimator, selection=..., k_range=...)`` wraps any clusterer with an ``n_clusters`` parameter (it
fits one clone per candidate k and keeps the best-scoring one) or HDBSCAN (a grid over ``min_cluster_size``).

>>> from sklearn.datasets import make_blobs
>>> from wsd.senses.clusterers import WardClusterer
>>> X, _ = make_blobs(60, centers=3, n_features=4, random_state=0)
>>> SelectK(WardClusterer(), k_range=(2, 5)).fit(X).n_clusters_
3

**One sense is an answer.** ``one_sense_below=t`` lets the selection answer k = 1: when no candidate
scores at least ``t`` (the best silhouette, Calinski–Harabasz ratio or HDBSCAN relative validity is below it,
or undefined), every row becomes one sense. A word whose uses all mean the same thing has no split that
separates well, so its best silhouette stays low. ``bic`` needs no threshold: it scores one component
itself (``k_range`` starting at 1).

>>> one_blob = np.random.default_rng(0).normal(size=(60, 4))
>>> SelectK(WardClusterer(), one_sense_below=0.25).fit(one_blob).n_clusters_
1
>>> SelectK(WardClusterer(), one_sense_below=0.25).fit(X).n_clusters_
3
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin, clone
from sklearn.utils.validation import check_array

from wsd.errors import ConfigError
from wsd.schema import SELECTIONS
from wsd.senses.clusterers import GaussianMixtureClusterer, KMeansClusterer
from wsd.senses.dummy import DummyClusterer
from wsd.senses.labels import assign_noise
from wsd.senses.methods import Clustering
from wsd.senses.validation import HasMethods, NonNegativeReal, Options, Real, validate_params

#: min_cluster_size values tried when HDBSCAN's clustering is chosen by silhouette or Calinski–Harabasz.
HDBSCAN_SIZE_GRID: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50)


def check_k_range(k_range: object, selection: str) -> tuple[int, int]:
    """Validate ``k_range`` (inclusive ``(low, high)``) and return it as a tuple of ints.

    ``low`` may be 1 only for ``selection="bic"``: silhouette and Calinski–Harabasz are undefined
    for a single cluster.

    Parameters
    ----------
    k_range : object
        The value to check.
    selection : str
        The criterion that will score the candidates.

    Returns
    -------
    tuple of int
        ``(low, high)``.

    Examples
    --------
    >>> check_k_range([2, 5], "silhouette")
    (2, 5)
    """
    if (
        not isinstance(k_range, (tuple, list))
        or len(k_range) != 2
        or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in k_range)
    ):
        raise ConfigError(f"k_range must be a pair of ints (low, high), got {k_range!r}")
    low, high = int(k_range[0]), int(k_range[1])
    if low < 1 or high < low:
        raise ConfigError(f"k_range must satisfy 1 <= low <= high, got {k_range!r}")
    if low < 2 and selection != "bic":
        raise ConfigError(
            f"k_range starts at {low}, but selection={selection!r} cannot score one sense; "
            "start at 2 or use selection='bic'"
        )
    return low, high


def check_one_sense(one_sense_below: object, selection: str) -> None:
    """Refuse ``one_sense_below`` with ``bic`` (which scores one component itself, from ``k_range=(1, ...)``).

    Parameters
    ----------
    one_sense_below : float or None
        The threshold (validated as a number elsewhere).
    selection : str
        The criterion.

    Examples
    --------
    >>> check_one_sense(0.1, "silhouette")
    """
    if one_sense_below is not None and selection == "bic":
        raise ConfigError(
            "one_sense_below is a threshold for silhouette, calinski_harabasz or native; "
            "selection='bic' scores one sense itself: start k_range at 1"
        )


def candidate_ks(k_range: tuple[int, int], n: int, selection: str) -> list[int]:
    """The k values that can be scored on ``n`` occurrences: k ≤ n - 1 (and k ≥ 2 unless ``bic``).

    Parameters
    ----------
    k_range : tuple of int
        Inclusive ``(low, high)``.
    n : int
        Number of occurrences.
    selection : str
        The criterion.

    Returns
    -------
    list of int

    Examples
    --------
    >>> candidate_ks((2, 7), 4, "silhouette")
    [2, 3]
    """
    low, high = k_range
    if selection != "bic":
        low = max(low, 2)
    return list(range(low, min(high, n - 1) + 1))


def score(selection: str, X: np.ndarray, clustering: Clustering, metric: str = "euclidean") -> float:
    """Score one clustering of ``X``; NaN where the criterion is undefined (e.g. one cluster).

    ``silhouette`` (mean silhouette, with ``metric``; higher is better), ``calinski_harabasz``
    (variance ratio, higher is better), ``bic`` (Bayesian information criterion of the fitted
    Gaussian mixture, lower is better), ``native`` (HDBSCAN's relative validity, higher is better).

    Parameters
    ----------
    selection : str
        The criterion.
    X : ndarray of shape (n, m)
        The clustered vectors.
    clustering : Clustering
        Labels (and mixture or validity) of one clustering of ``X``.
    metric : str
        Distance of the silhouette.

    Returns
    -------
    float
    """
    from sklearn.metrics import calinski_harabasz_score, silhouette_score

    labels = clustering.labels
    n_labels = len(np.unique(labels))
    if selection == "bic":
        return float(clustering.mixture.bic(X)) if clustering.mixture is not None else float("nan")
    if selection == "native":
        return float(clustering.validity)
    if not 2 <= n_labels <= len(X) - 1:
        return float("nan")
    if selection == "silhouette":
        return float(silhouette_score(X, labels, metric=metric))
    if selection == "calinski_harabasz":
        return float(calinski_harabasz_score(X, labels))
    raise ConfigError(f"selection must be one of {', '.join(SELECTIONS)}, got {selection!r}")


def is_better(selection: str, new: float, best: float | None) -> bool:
    """Whether score ``new`` beats ``best`` (NaN never wins; equal scores keep the earlier, smaller k).

    Parameters
    ----------
    selection : str
        The criterion (``bic`` is lower-is-better, the others higher-is-better).
    new : float
        The challenger's score.
    best : float or None
        The score to beat (``None``: nothing yet).

    Returns
    -------
    bool
    """
    if math.isnan(new):
        return False
    if best is None or math.isnan(best):
        return True
    return new < best if selection == "bic" else new > best


def within_margin(selection: str, scores: dict[int, float], margin: float) -> int | None:
    """The smallest k whose score is within ``margin`` of the best score (``None`` when none is defined).

    Candidates that score within ``margin`` of the best are read as tied, and the tie goes to the fewest
    senses. With ``margin=0`` this is the plain best (equal scores keep the smaller k).

    Parameters
    ----------
    selection : str
        The criterion (``bic`` is lower-is-better, the others higher-is-better).
    scores : dict[int, float]
        Score of each candidate k (NaN: undefined, never chosen).
    margin : float
        The tie margin, in the criterion's units (≥ 0).

    Returns
    -------
    int or None

    Examples
    --------
    >>> within_margin("silhouette", {2: 0.060, 3: 0.058, 4: 0.041}, 0.0)
    2
    >>> within_margin("silhouette", {2: 0.058, 3: 0.060, 4: 0.041}, 0.005)  # 0.058 ties with 0.060
    2
    >>> within_margin("silhouette", {2: 0.050, 3: 0.060, 4: 0.041}, 0.005)
    3
    """
    defined = {k: v for k, v in scores.items() if not math.isnan(v)}
    if not defined:
        return None
    if selection == "bic":
        best = min(defined.values())
        return min(k for k, v in defined.items() if v <= best + margin)
    best = max(defined.values())
    return min(k for k, v in defined.items() if v >= best - margin)


def fit_k(estimator: Any, X: np.ndarray, k: int, run_trivial: bool = False) -> Any:
    """A clone of ``estimator`` fitted with ``n_clusters=k``; k ≤ 1 and k ≥ n are answered without running it.

    One cluster is every row in sense 0 and n clusters one row each (as fitted
    :class:`~wsd.senses.dummy.DummyClusterer` baselines), unless ``run_trivial`` (``bic`` needs the mixture
    even for one component).

    Parameters
    ----------
    estimator : estimator with an ``n_clusters`` parameter
        The template (not modified).
    X : ndarray of shape (n, m)
        Vectors to cluster.
    k : int
        Number of clusters.
    run_trivial : bool
        Run the estimator even when k ≤ 1 or k ≥ n.

    Returns
    -------
    estimator
        A fitted estimator with ``labels_``.
    """
    if not run_trivial and k <= 1:
        return DummyClusterer(strategy="one-sense").fit(X)
    if not run_trivial and k >= len(X):
        return DummyClusterer(strategy="one-per-instance").fit(X)
    return clone(estimator).set_params(n_clusters=k).fit(X)


class SelectK(ClusterMixin, BaseEstimator):
    """Choose the number of clusters of any clusterer by an internal criterion (a meta-estimator).

    With an estimator that takes ``n_clusters``, every candidate k in ``k_range`` (inclusive) that the
    criterion can score on n rows (2 ≤ k ≤ n − 1; ``bic``: 1 ≤ k ≤ n − 1) is fitted (a clone each) and
    scored; the best wins, ties keep the smaller k. With no candidate (n ≤ 2), ``min(k_range[0], n)``
    clusters are fitted. With HDBSCAN (an estimator that takes ``min_cluster_size`` instead), ``native``
    keeps HDBSCAN's own run; ``silhouette`` or ``calinski_harabasz`` run it over a grid of
    ``min_cluster_size`` values and keep the best-scoring run whose number of clusters (noise assigned to
    the nearest cluster) lies in ``k_range``, or the native run if none does.

    With ``tie_margin``, candidates scoring within that margin of the best are ties, and the tie goes to the
    smallest k (:func:`within_margin`): float rounding (bf16 against fp32, one runtime against another) moves a
    silhouette by about a ten-thousandth, and by hundredths where Ward's tree changes, so without a margin a
    near-tie is decided by that rounding (experiments/results/k_stability/k_stability.md).

    With ``one_sense_below``, the winner must also score at least that value; otherwise (or when no
    candidate could be scored) the answer is one sense: every row in sense 0 (``k_scores_[1]`` then records
    the threshold, the bar the other candidates did not clear). For HDBSCAN's ``native`` run the score is
    its relative validity; a native run that finds one cluster or none is one sense in any case.

    Parameters
    ----------
    estimator : clusterer or None
        The template (default :class:`~wsd.senses.clusterers.KMeansClusterer`).
    selection : str
        ``silhouette``, ``calinski_harabasz`` (higher is better), ``bic`` (a Gaussian mixture only; lower is
        better) or ``native`` (HDBSCAN only).
    k_range : (int, int)
        Inclusive range of candidate numbers of clusters (not used by ``native``).
    metric : str
        Distance of the silhouette: ``auto`` (the estimator's ``clustering_metric``, else Euclidean),
        ``euclidean`` or ``cosine``.
    one_sense_below : float or None
        Answer one sense when the best candidate scores below this (None: never; k ≥ ``k_range[0]``).
        Not with ``bic``, which compares k = 1 itself.
    tie_margin : float
        Scores within this of the best are ties, won by the smallest k (in the criterion's units; 0: the
        plain best).

    Attributes
    ----------
    best_estimator_ : estimator
        The winning fitted clusterer.
    labels_ : ndarray of int64 (n,)
        Its labels (-1: HDBSCAN noise).
    n_clusters_ : int
        Number of clusters it found (noise aside).
    k_scores_ : dict[int, float]
        Score of every candidate k (NaN where undefined).
    n_features_in_ : int
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "estimator": [HasMethods(("fit", "get_params", "set_params")), None],
        "selection": [Options(SELECTIONS)],
        "metric": [Options(("auto", "euclidean", "cosine"))],
        "one_sense_below": [Real(), None],
        "tie_margin": [NonNegativeReal()],
    }

    def __init__(
        self,
        estimator: Any = None,
        *,
        selection: str = "silhouette",
        k_range: Any = (2, 7),
        metric: str = "auto",
        one_sense_below: float | None = None,
        tie_margin: float = 0.0,
    ):
        self.estimator = estimator
        self.selection = selection
        self.k_range = k_range
        self.metric = metric
        self.one_sense_below = one_sense_below
        self.tie_margin = tie_margin

    def fit(self, X: Any, y: Any = None) -> SelectK:
        """Fit the candidates on ``X`` and keep the best.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Vectors to cluster with each candidate number of clusters.
        y : None
            Ignored.

        Returns
        -------
        self
            Fitted, with ``best_estimator_``, ``labels_`` and ``k_scores_``.
        """
        validate_params(self)
        check_one_sense(self.one_sense_below, self.selection)
        X = check_array(X, dtype=np.float64)
        self.n_features_in_ = int(X.shape[1])
        estimator = self.estimator if self.estimator is not None else KMeansClusterer()
        params = estimator.get_params(deep=False)
        self.k_scores_: dict[int, float] = {}
        if "n_clusters" in params:
            if self.selection == "native":
                raise ConfigError(
                    f"selection='native' is HDBSCAN's own choice (method='hdbscan'), not {type(estimator).__name__}"
                )
            if self.selection == "bic" and not isinstance(estimator, GaussianMixtureClusterer):
                raise ConfigError(
                    f"selection='bic' needs a mixture model (method='gmm'), not {type(estimator).__name__}"
                )
            best = self._select_k(estimator, X)
        elif "min_cluster_size" in params:
            if self.selection == "bic":
                raise ConfigError("selection='bic' needs a mixture model (method='gmm'), not HDBSCAN")
            best = self._select_density(estimator, X)
        else:
            raise ConfigError(f"{type(estimator).__name__} takes neither n_clusters nor min_cluster_size")
        self.best_estimator_ = best
        self.labels_ = np.asarray(best.labels_, dtype=np.int64)
        self.n_clusters_ = len(np.unique(self.labels_[self.labels_ >= 0]))
        return self

    def _metric(self, estimator: Any) -> str:
        return getattr(estimator, "clustering_metric", "euclidean") if self.metric == "auto" else self.metric

    def _select_k(self, estimator: Any, X: np.ndarray) -> Any:
        k_range = check_k_range(self.k_range, self.selection)
        candidates = candidate_ks(k_range, len(X), self.selection)
        if not candidates:
            return fit_k(estimator, X, min(k_range[0], len(X)))
        metric = self._metric(estimator)
        fitted: dict[int, Any] = {}
        for k in candidates:
            fitted[k] = fit_k(estimator, X, k, run_trivial=self.selection == "bic")
            self.k_scores_[k] = score(self.selection, X, Clustering.of(fitted[k]), metric)
        chosen = within_margin(self.selection, self.k_scores_, float(self.tie_margin))
        if chosen is None:  # no candidate could be scored: the first, as without a margin
            return self._one_sense_unless_clear(fitted[candidates[0]], None, X)
        return self._one_sense_unless_clear(fitted[chosen], self.k_scores_[chosen], X)

    def _one_sense_unless_clear(self, best: Any, best_score: float | None, X: np.ndarray) -> Any:
        """``best``, or one sense where ``one_sense_below`` is set and ``best_score`` does not reach it."""
        if self.one_sense_below is None:
            return best
        threshold = float(self.one_sense_below)
        if best_score is not None and not math.isnan(best_score) and best_score >= threshold:
            return best
        self.k_scores_ = {1: threshold, **self.k_scores_}
        return fit_k(None, X, 1)

    def _select_density(self, estimator: Any, X: np.ndarray) -> Any:
        native = clone(estimator).fit(X)
        if self.selection == "native":
            labels = native.labels_
            found = len(np.unique(labels[labels >= 0]))
            validity = float(getattr(native, "relative_validity_", math.nan))
            self.k_scores_[found] = validity
            if found <= 1:
                return native
            return self._one_sense_unless_clear(native, validity, X)
        low, high = check_k_range(self.k_range, self.selection)
        own_size = int(estimator.get_params()["min_cluster_size"])
        sizes = sorted({s for s in HDBSCAN_SIZE_GRID if s <= max(2, len(X) // 2)} | {own_size})
        best_of: dict[int, Any] = {}  # the best-scoring run of each number of clusters
        for size in sizes:
            run = clone(estimator).set_params(min_cluster_size=size).fit(X)
            assigned = Clustering(labels=assign_noise(X, run.labels_, "euclidean"))
            found = len(np.unique(assigned.labels))
            if not low <= found <= high:
                continue
            value = score(self.selection, X, assigned, "euclidean")
            if is_better(self.selection, value, self.k_scores_.get(found)):
                self.k_scores_[found], best_of[found] = value, run
        self.k_scores_ = dict(sorted(self.k_scores_.items()))
        chosen = within_margin(self.selection, self.k_scores_, float(self.tie_margin))
        if chosen is None:
            return native if self.one_sense_below is None else self._one_sense_unless_clear(None, None, X)
        return self._one_sense_unless_clear(best_of[chosen], self.k_scores_[chosen], X)
