"""Choosing the number of senses per word: candidate k values and the criteria that score them."""

from __future__ import annotations

import math

import numpy as np

from wsd.errors import ConfigError
from wsd.senses.methods import Clustering

SELECTIONS: tuple[str, ...] = ("silhouette", "calinski_harabasz", "bic", "native")

#: min_cluster_size values tried when HDBSCAN's clustering is chosen by silhouette or Calinski–Harabasz.
HDBSCAN_SIZE_GRID: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50)


def check_k_range(k_range: object, selection: str) -> tuple[int, int]:
    """Validate ``k_range`` (inclusive ``(low, high)``) and return it as a tuple of ints.

    ``low`` may be 1 only for ``selection="bic"``: silhouette and Calinski–Harabasz are undefined
    for a single cluster.

    >>> check_k_range([2, 5], "silhouette")
    (2, 5)
    """
    ok = (
        isinstance(k_range, (tuple, list))
        and len(k_range) == 2
        and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in k_range)
    )
    if not ok:
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


def candidate_ks(k_range: tuple[int, int], n: int, selection: str) -> list[int]:
    """The k values that can be scored on ``n`` occurrences: k ≤ n - 1 (and k ≥ 2 unless ``bic``).

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
    """Whether score ``new`` beats ``best`` (NaN never wins; equal scores keep the earlier, smaller k)."""
    if math.isnan(new):
        return False
    if best is None or math.isnan(best):
        return True
    return new < best if selection == "bic" else new > best
