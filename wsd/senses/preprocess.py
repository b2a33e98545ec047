"""Per-word preprocessing of occurrence vectors: form centring, centring, L2 normalisation, PCA and whitening."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wsd.errors import ConfigError, InputError

#: Norms (and variances) at or below this are treated as zero, so a zero vector stays zero.
EPSILON = 1e-12


def check_center_forms(value: object) -> float:
    """Validate a form-centring strength: a number in [0, 1] (``True`` is 1, ``False`` is 0).

    >>> check_center_forms(0.5), check_center_forms(True)
    (0.5, 1.0)
    """
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if not isinstance(value, (int, float, np.integer, np.floating)) or not 0.0 <= float(value) <= 1.0:
        raise ConfigError(f"center_forms must be a number between 0 and 1, got {value!r}")
    return float(value)


def normalise_forms(forms: Sequence[str] | np.ndarray, count: int) -> np.ndarray:
    """Surface forms as a lower-cased string array of length ``count`` (``Mouse`` and ``mouse`` are one form)."""
    array = np.char.lower(np.asarray(forms, dtype=str))
    if array.shape != (count,):
        raise InputError(f"got {array.size} forms for {count} vectors; give one surface form per vector")
    return array


class Preprocessor:
    """Learn and apply one word's vector transform: form-centre → centre → L2-normalise → PCA/whiten, each optional.

    The steps run in that order. **Form centring** removes (a fraction ``center_forms`` of) what the
    surface form alone contributes: the vectors of *mice* and of *mouse* differ in every context, so a
    clusterer would otherwise split a word by form before it splits it by sense. Each vector moves by
    ``-center_forms * (mean of its form - mean of the word)``; forms are compared lower-cased, and a form
    not seen in ``fit`` (or no forms at all) is not moved. ``fit`` stores everything ``transform`` needs
    (the form shifts, the word's mean vector, the PCA mean, components and scales), so new occurrences get
    exactly the same transform.
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
    center_forms : float
        Fraction in [0, 1] of each form's offset from the word mean to remove (0: off; 1: every form
        centred on the word mean). Needs the occurrences' surface forms in ``fit``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> Preprocessor(center=True, pca=1).fit(X).transform(X).shape
    (4, 1)
    >>> Preprocessor(center_forms=1.0).fit(X, forms=["a", "a", "b", "b"]).transform(X, ["a", "a", "b", "b"])[:, 0]
    array([3., 6., 3., 6.])
    """

    def __init__(
        self,
        center: bool = False,
        normalize: bool = False,
        pca: int | None = None,
        whiten: bool = False,
        center_forms: float = 0.0,
    ):
        self.center = center
        self.normalize = normalize
        self.pca = pca
        self.whiten = whiten
        self.center_forms = center_forms

    @property
    def uses_projection(self) -> bool:
        """Whether the transform ends with a PCA projection."""
        return self.pca is not None or bool(self.whiten)

    def fit(self, X: np.ndarray, forms: Sequence[str] | np.ndarray | None = None) -> Preprocessor:
        """Learn the transform from the rows of ``X`` (n occurrences × dim) and their surface ``forms``."""
        if self.pca is not None and (isinstance(self.pca, bool) or not isinstance(self.pca, (int, np.integer))):
            raise ConfigError(f"pca must be a positive int or None, got {self.pca!r}")
        if self.pca is not None and self.pca < 1:
            raise ConfigError(f"pca must be a positive int or None, got {self.pca!r}")
        strength = check_center_forms(self.center_forms)
        X = np.asarray(X, dtype=np.float64)
        n, dim = X.shape
        self.dim_ = dim
        if strength > 0.0:
            if forms is None:
                raise ConfigError("center_forms needs the surface form of every vector: fit(X, forms=...)")
            self.forms_, inverse = np.unique(normalise_forms(forms, n), return_inverse=True)
            members = np.zeros((len(self.forms_), n))
            members[inverse, np.arange(n)] = 1.0
            form_means = members @ X / members.sum(axis=1, keepdims=True)
            self.form_shifts_ = strength * (form_means - X.mean(axis=0))
            X = X - self.form_shifts_[inverse]
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

    @property
    def uses_forms(self) -> bool:
        """Whether the transform moves vectors by their surface form."""
        return check_center_forms(self.center_forms) > 0.0

    def _shift_forms(self, X: np.ndarray, forms: Sequence[str] | np.ndarray | None) -> np.ndarray:
        """Subtract the learned shift of each vector's form (unknown forms and ``forms=None``: none)."""
        if not self.uses_forms or forms is None or len(self.forms_) == 0:
            return X
        wanted = normalise_forms(forms, len(X))
        index = np.minimum(np.searchsorted(self.forms_, wanted), len(self.forms_) - 1)
        known = self.forms_[index] == wanted
        return X - np.where(known[:, None], self.form_shifts_[index], 0.0)

    def transform(self, X: np.ndarray, forms: Sequence[str] | np.ndarray | None = None) -> np.ndarray:
        """Apply the learned transform to occurrence vectors (any number of rows) with their ``forms``."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.dim_:
            raise InputError(f"vectors have shape {X.shape}, but the transform was fitted on {self.dim_}-dim vectors")
        Y = self._center_normalize(self._shift_forms(X, forms))
        if self.uses_projection:
            Y = ((Y - self.pca_mean_) @ self.components_.T) / self.scale_
        return Y

    def fit_transform(self, X: np.ndarray, forms: Sequence[str] | np.ndarray | None = None) -> np.ndarray:
        """``fit(X, forms)`` then ``transform(X, forms)`` (the same code path as for new vectors)."""
        return self.fit(X, forms).transform(X, forms)

    @property
    def output_dim_(self) -> int:
        """Number of columns ``transform`` returns."""
        return int(self.components_.shape[0]) if self.uses_projection else int(self.dim_)

    def get_arrays(self) -> dict[str, np.ndarray]:
        """The learned state as plain arrays (for saving without pickle)."""
        arrays = {"mean": self.mean_}
        if self.uses_forms:
            arrays |= {"forms": self.forms_, "form_shifts": self.form_shifts_}
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
        if self.uses_forms:
            try:
                forms = np.asarray(arrays["forms"])
                shifts = np.asarray(arrays["form_shifts"], dtype=np.float64)
            except KeyError as missing:
                raise InputError(f"{where}: missing {missing.args[0]!r} (the model centres forms)") from None
            if forms.dtype.kind != "U" or forms.ndim != 1 or shifts.shape != (len(forms), self.dim_):
                raise InputError(f"{where}: forms/form_shifts shapes {forms.shape}/{shifts.shape} do not fit")
            self.forms_, self.form_shifts_ = forms, shifts
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
