"""Per-word preprocessing of occurrence vectors: centring, L2 normalisation, PCA and whitening."""

from __future__ import annotations

import numpy as np

from wsd.errors import ConfigError, InputError

#: Norms (and variances) at or below this are treated as zero, so a zero vector stays zero.
EPSILON = 1e-12


class Preprocessor:
    """Learn and apply one word's vector transform: centre → L2-normalise → PCA/whiten, each optional.

    The steps run in that order. ``fit`` stores everything ``transform`` needs (the word's mean
    vector, the PCA mean, components and scales), so new occurrences get exactly the same transform.
    PCA is an SVD of the centred data with a deterministic sign convention (the largest-magnitude
    loading of each component is positive); the number of components is capped at
    ``min(pca, dim, max(n - 1, 1))``. Whitening divides each component by its standard deviation
    (components with zero variance are left unscaled); ``whiten=True`` without ``pca`` keeps all
    components the data supports.

    Parameters
    ----------
    center : bool
        Subtract the word's mean vector.
    normalize : bool
        Scale each (centred) vector to unit L2 norm; zero vectors stay zero.
    pca : int or None
        Project onto this many principal components.
    whiten : bool
        Scale the principal components to unit variance (implies PCA).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> Preprocessor(center=True, pca=1).fit(X).transform(X).shape
    (4, 1)
    """

    def __init__(self, center: bool = False, normalize: bool = False, pca: int | None = None, whiten: bool = False):
        self.center = center
        self.normalize = normalize
        self.pca = pca
        self.whiten = whiten

    @property
    def uses_projection(self) -> bool:
        """Whether the transform ends with a PCA projection."""
        return self.pca is not None or bool(self.whiten)

    def fit(self, X: np.ndarray) -> Preprocessor:
        """Learn the transform from the rows of ``X`` (n occurrences × dim)."""
        if self.pca is not None and (isinstance(self.pca, bool) or not isinstance(self.pca, (int, np.integer))):
            raise ConfigError(f"pca must be a positive int or None, got {self.pca!r}")
        if self.pca is not None and self.pca < 1:
            raise ConfigError(f"pca must be a positive int or None, got {self.pca!r}")
        X = np.asarray(X, dtype=np.float64)
        n, dim = X.shape
        self.dim_ = dim
        self.mean_ = X.mean(axis=0) if self.center else np.zeros(dim)
        Y = self._center_normalize(X)
        if self.uses_projection:
            self.pca_mean_ = Y.mean(axis=0)
            _, singular, vt = np.linalg.svd(Y - self.pca_mean_, full_matrices=False)
            n_components = min(self.pca if self.pca is not None else dim, dim, max(n - 1, 1), vt.shape[0])
            components = vt[:n_components]
            signs = np.sign(components[np.arange(n_components), np.argmax(np.abs(components), axis=1)])
            signs[signs == 0] = 1.0
            self.components_ = components * signs[:, None]
            variance = singular[:n_components] ** 2 / max(n - 1, 1)
            self.explained_variance_ = variance
            scale = np.sqrt(variance)
            self.scale_ = np.where(variance > EPSILON, scale, 1.0) if self.whiten else np.ones(n_components)
        return self

    def _center_normalize(self, X: np.ndarray) -> np.ndarray:
        Y = X - self.mean_ if self.center else X
        if self.normalize:
            norms = np.linalg.norm(Y, axis=1, keepdims=True)
            Y = Y / np.where(norms > EPSILON, norms, 1.0)
        return Y

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Apply the learned transform to occurrence vectors (any number of rows)."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.dim_:
            raise InputError(f"vectors have shape {X.shape}, but the transform was fitted on {self.dim_}-dim vectors")
        Y = self._center_normalize(X)
        if self.uses_projection:
            Y = ((Y - self.pca_mean_) @ self.components_.T) / self.scale_
        return Y

    def fit_transform(self, X: np.ndarray) -> np.ndarray:
        """``fit(X)`` then ``transform(X)`` (the same code path as for new vectors)."""
        return self.fit(X).transform(X)

    @property
    def output_dim_(self) -> int:
        """Number of columns ``transform`` returns."""
        return int(self.components_.shape[0]) if self.uses_projection else int(self.dim_)

    def get_arrays(self) -> dict[str, np.ndarray]:
        """The learned state as plain arrays (for saving without pickle)."""
        arrays = {"mean": self.mean_}
        if self.uses_projection:
            arrays |= {"pca_mean": self.pca_mean_, "components": self.components_, "scale": self.scale_}
        return arrays

    def set_arrays(self, arrays: dict[str, np.ndarray], where: str = "saved transform") -> Preprocessor:
        """Restore the state written by :meth:`get_arrays`, checking the shapes."""
        mean = np.asarray(arrays["mean"], dtype=np.float64)
        if mean.ndim != 1:
            raise InputError(f"{where}: mean must be a vector, got shape {mean.shape}")
        self.dim_ = int(mean.shape[0])
        self.mean_ = mean
        if self.uses_projection:
            components = np.asarray(arrays["components"], dtype=np.float64)
            pca_mean = np.asarray(arrays["pca_mean"], dtype=np.float64)
            scale = np.asarray(arrays["scale"], dtype=np.float64)
            if components.ndim != 2 or components.shape[1] != self.dim_:
                raise InputError(f"{where}: components have shape {components.shape}, expected (m, {self.dim_})")
            if pca_mean.shape != (self.dim_,) or scale.shape != (components.shape[0],):
                raise InputError(f"{where}: pca_mean/scale shapes {pca_mean.shape}/{scale.shape} do not fit")
            self.components_, self.pca_mean_, self.scale_ = components, pca_mean, scale
        return self
