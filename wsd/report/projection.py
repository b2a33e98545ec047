"""Projecting occurrence vectors to 2-D for sense maps: PCA (default), t-SNE, or UMAP (optional package).

>>> points, axes = project(np.eye(4), "pca")
>>> points.shape, axes[0]
((4, 2), 'PC 1 (33% of variance)')
"""

from __future__ import annotations

from typing import cast

import numpy as np

from wsd.errors import ConfigError
from wsd.schema import DEFAULT_PROJECTION, PROJECTIONS, Projection

MIN_POINTS_NONLINEAR = 5
"""Fewer points than this are projected with PCA whatever was asked (t-SNE/UMAP need neighbours)."""
SINGLE_THREAD_BELOW = 1000
"""Maps of fewer points are computed on one thread: threads cannot speed them up, and OpenMP threads that wait
for busy cores can make a t-SNE of 20 points take half a minute on a loaded machine."""


def check_projection(name: str) -> Projection:
    """Validate a projection name (and that UMAP is installed when asked for); return it lowercased.

    Parameters
    ----------
    name : str
        ``pca``, ``tsne`` or ``umap`` (any case).

    Returns
    -------
    {"pca", "tsne", "umap"}
        The name in lower case.

    Raises
    ------
    ConfigError
        For an unknown name, or ``umap`` without the ``umap-learn`` package.

    Examples
    --------
    >>> check_projection("PCA")
    'pca'
    """
    method = str(name).lower()
    if method not in PROJECTIONS:
        raise ConfigError(f"projection must be one of {', '.join(PROJECTIONS)}, got {name!r}")
    if method == "umap":
        try:
            import umap  # noqa: F401
        except ImportError as exc:
            raise ConfigError(
                "projection 'umap' needs the umap-learn package (pip install umap-learn); use pca or tsne"
            ) from exc
    return cast(Projection, method)


def project(
    X: np.ndarray, method: Projection = DEFAULT_PROJECTION, random_state: int = 0
) -> tuple[np.ndarray, tuple[str, str]]:
    """2-D coordinates of the rows of ``X`` and the names of the two axes.

    Parameters
    ----------
    X : ndarray (n, dim)
        Vectors (any float dtype; computed in float64).
    method : {"pca", "tsne", "umap"}
        PCA (scikit-learn; axis names carry the explained variance), t-SNE (scikit-learn; perplexity
        ``min(30, (n - 1) / 3)``, PCA initialisation) or UMAP (``umap-learn``, when installed).
    random_state : int
        Seed of t-SNE/UMAP (PCA is deterministic).

    Returns
    -------
    points : ndarray (n, 2)
        The 2-D coordinates (zeros for an empty ``X`` or one without variance; PCA below 5 points).
    axes : (str, str)
        The axis names (``PC 1 (42% of variance)``, ``t-SNE 1``, ``UMAP 1``).

    Raises
    ------
    ConfigError
        As :func:`check_projection`.

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(20, 8))
    >>> project(X, "tsne")[0].shape
    (20, 2)
    """
    method = check_projection(method)
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    if n == 0:
        return np.zeros((0, 2)), ("1", "2")
    if n < SINGLE_THREAD_BELOW:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1):
            return _project(X, method, random_state)
    return _project(X, method, random_state)


def _project(X: np.ndarray, method: str, random_state: int) -> tuple[np.ndarray, tuple[str, str]]:
    n = X.shape[0]
    if method == "pca" or n < MIN_POINTS_NONLINEAR:
        return _pca(X)
    if method == "tsne":
        from sklearn.manifold import TSNE

        perplexity = float(min(30.0, max(1.0, (n - 1) / 3)))
        model = TSNE(n_components=2, perplexity=perplexity, init="pca", random_state=random_state)
        return model.fit_transform(X), ("t-SNE 1", "t-SNE 2")
    import umap

    model = umap.UMAP(n_components=2, n_neighbors=min(15, n - 1), random_state=random_state)
    return np.asarray(model.fit_transform(X), dtype=np.float64), ("UMAP 1", "UMAP 2")


def _pca(X: np.ndarray) -> tuple[np.ndarray, tuple[str, str]]:
    """PCA to 2-D, padded with zeros when the data has fewer than two dimensions of variance."""
    from sklearn.decomposition import PCA

    n, dim = X.shape
    components = min(2, n, dim)
    if components == 0 or not np.any(X.std(axis=0) > 0):
        return np.zeros((n, 2)), ("PC 1", "PC 2")
    model = PCA(n_components=components, svd_solver="full")
    points = model.fit_transform(X)
    ratios = list(model.explained_variance_ratio_) + [0.0] * (2 - components)
    if components < 2:
        points = np.hstack([points, np.zeros((n, 2 - components))])
    names = tuple(f"PC {i + 1} ({100 * ratio:.0f}% of variance)" for i, ratio in enumerate(ratios))
    return points, (names[0], names[1])
