"""Soft sense memberships: distances to sense centroids, their softmax, and Gaussian-mixture posteriors."""

from __future__ import annotations

import numpy as np

from wsd.errors import ConfigError

DISTANCES: tuple[str, ...] = ("euclidean", "cosine")
COVARIANCE_TYPES: tuple[str, ...] = ("full", "tied", "diag", "spherical")
_EPSILON = 1e-12


def centroid_distances(X: np.ndarray, centroids: np.ndarray, distance: str = "euclidean") -> np.ndarray:
    """Distances from each row of ``X`` to each centroid, shape (n, k).

    ``euclidean`` is the L2 distance; ``cosine`` is ``1 - cos(x, c)`` (a zero vector is at
    distance 1 from everything).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Vectors.
    centroids : ndarray of shape (k, m)
        Centroids.
    distance : str
        ``euclidean`` or ``cosine``.

    Returns
    -------
    ndarray of shape (n, k)

    Examples
    --------
    >>> centroid_distances(np.array([[0.0, 0.0]]), np.array([[3.0, 4.0]]))
    array([[5.]])
    """
    X = np.asarray(X, dtype=np.float64)
    C = np.asarray(centroids, dtype=np.float64)
    if distance == "euclidean":
        squared = (X * X).sum(axis=1)[:, None] - 2.0 * (X @ C.T) + (C * C).sum(axis=1)[None, :]
        return np.sqrt(np.maximum(squared, 0.0))
    if distance == "cosine":
        x_norm = np.linalg.norm(X, axis=1)
        c_norm = np.linalg.norm(C, axis=1)
        Xn = X / np.where(x_norm > _EPSILON, x_norm, 1.0)[:, None]
        Cn = C / np.where(c_norm > _EPSILON, c_norm, 1.0)[:, None]
        return np.clip(1.0 - Xn @ Cn.T, 0.0, 2.0)
    raise ConfigError(f"distance must be one of {', '.join(DISTANCES)}, got {distance!r}")


def softmax_rows(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax, computed stably; every row sums to 1 and its argmax is the argmax of ``logits``.

    Parameters
    ----------
    logits : ndarray of shape (n, k)
        Scores.

    Returns
    -------
    ndarray of shape (n, k)

    Examples
    --------
    >>> softmax_rows(np.array([[0.0, 0.0]]))
    array([[0.5, 0.5]])
    """
    logits = np.asarray(logits, dtype=np.float64)
    shifted = logits - logits.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)


def distance_softmax(distances: np.ndarray, temperature: float) -> np.ndarray:
    """Memberships ``softmax(-d / temperature)`` over the columns of a distance matrix.

    A smaller temperature gives sharper memberships; the nearest centroid always gets the largest.

    Parameters
    ----------
    distances : ndarray of shape (n, k)
        Distances to the centroids.
    temperature : float
        Positive temperature.

    Returns
    -------
    ndarray of shape (n, k)

    Examples
    --------
    >>> distance_softmax(np.array([[0.0, np.log(3.0)]]), 1.0).round(2)
    array([[0.75, 0.25]])
    """
    if not temperature > 0:
        raise ConfigError(f"temperature must be positive, got {temperature!r}")
    return softmax_rows(-np.asarray(distances, dtype=np.float64) / temperature)


def gaussian_log_densities(
    X: np.ndarray, means: np.ndarray, precisions_cholesky: np.ndarray, covariance_type: str
) -> np.ndarray:
    """Log density of each row under each Gaussian component, shape (n, c).

    Uses scikit-learn's parametrisation (``precisions_cholesky_`` of ``GaussianMixture``):
    ``full`` (c, m, m), ``tied`` (m, m), ``diag`` (c, m), ``spherical`` (c,).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Vectors.
    means : ndarray of shape (c, m)
        Component means.
    precisions_cholesky : ndarray
        Cholesky factors of the precisions (shape by ``covariance_type``).
    covariance_type : str
        ``full``, ``tied``, ``diag`` or ``spherical``.

    Returns
    -------
    ndarray of shape (n, c)
    """
    X = np.asarray(X, dtype=np.float64)
    n, m = X.shape
    c = means.shape[0]
    if covariance_type == "full":
        log_det = np.log(np.diagonal(precisions_cholesky, axis1=1, axis2=2)).sum(axis=1)
        squared = np.empty((n, c))
        for j in range(c):  # one matrix product per component
            y = X @ precisions_cholesky[j] - means[j] @ precisions_cholesky[j]
            squared[:, j] = (y * y).sum(axis=1)
    elif covariance_type == "tied":
        log_det = np.full(c, np.log(np.diag(precisions_cholesky)).sum())
        y = X @ precisions_cholesky
        mu = means @ precisions_cholesky
        squared = (y * y).sum(axis=1)[:, None] - 2.0 * (y @ mu.T) + (mu * mu).sum(axis=1)[None, :]
    elif covariance_type == "diag":
        log_det = np.log(precisions_cholesky).sum(axis=1)
        precisions = precisions_cholesky**2
        squared = (
            (means**2 * precisions).sum(axis=1)[None, :] - 2.0 * (X @ (means * precisions).T) + (X**2) @ precisions.T
        )
    elif covariance_type == "spherical":
        log_det = m * np.log(precisions_cholesky)
        precisions = precisions_cholesky**2
        squared = (
            (means**2).sum(axis=1)[None, :] * precisions[None, :]
            - 2.0 * (X @ means.T) * precisions[None, :]
            + (X**2).sum(axis=1)[:, None] * precisions[None, :]
        )
    else:
        raise ConfigError(f"covariance_type must be one of {', '.join(COVARIANCE_TYPES)}, got {covariance_type!r}")
    return -0.5 * (m * np.log(2.0 * np.pi) + squared) + log_det[None, :]


def gaussian_posteriors(
    X: np.ndarray,
    weights: np.ndarray,
    means: np.ndarray,
    precisions_cholesky: np.ndarray,
    covariance_type: str,
) -> np.ndarray:
    """Component posteriors ``p(component | x)`` of a Gaussian mixture, shape (n, c); rows sum to 1.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Vectors.
    weights : ndarray of shape (c,)
        Mixture weights.
    means, precisions_cholesky, covariance_type
        As for :func:`gaussian_log_densities`.

    Returns
    -------
    ndarray of shape (n, c)
    """
    log_joint = gaussian_log_densities(X, means, precisions_cholesky, covariance_type) + np.log(weights)[None, :]
    return softmax_rows(log_joint)


def merge_columns(proba: np.ndarray, column_groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Sum the columns of ``proba`` that belong to the same group: (n, c) → (n, n_groups).

    Parameters
    ----------
    proba : ndarray of shape (n, c)
        Memberships per column.
    column_groups : ndarray of int, shape (c,)
        The group of each column.
    n_groups : int
        Number of groups.

    Returns
    -------
    ndarray of shape (n, n_groups)

    Examples
    --------
    >>> merge_columns(np.array([[0.2, 0.3, 0.5]]), np.array([0, 1, 0]), 2)
    array([[0.7, 0.3]])
    """
    indicator = np.zeros((len(column_groups), n_groups))
    indicator[np.arange(len(column_groups)), column_groups] = 1.0
    return proba @ indicator
