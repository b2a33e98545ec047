"""Per-word preprocessing of occurrence vectors: form centring, centring, L2 normalisation, PCA and whitening."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted

from wsd.errors import ConfigError, InputError
from wsd.senses.validation import Boolean, Fraction, Integer, validate_params

#: Norms (and variances) at or below this are treated as zero, so a zero vector stays zero.
EPSILON = 1e-12


def check_center_forms(value: object) -> float:
    """Validate a form-centring strength: a number in [0, 1] (``True`` is 1, ``False`` is 0).

    Parameters
    ----------
    value : object
        The strength to check.

    Returns
    -------
    float
        The strength as a float.

    Examples
    --------
    >>> check_center_forms(0.5), check_center_forms(True)
    (0.5, 1.0)
    """
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if not isinstance(value, (int, float, np.integer, np.floating)) or not 0.0 <= float(value) <= 1.0:
        raise ConfigError(f"center_forms must be a number between 0 and 1, got {value!r}")
    return float(value)


def normalise_forms(forms: Sequence[str] | np.ndarray, count: int) -> np.ndarray:
    """Surface forms as a lower-cased string array of length ``count`` (``Mouse`` and ``mouse`` are one form).

    Parameters
    ----------
    forms : sequence of str
        One surface form per vector.
    count : int
        The number of vectors.

    Returns
    -------
    ndarray of str, shape (count,)
    """
    array = np.char.lower(np.asarray(forms, dtype=str))
    if array.shape != (count,):
        raise InputError(f"got {array.size} forms for {count} vectors; give one surface form per vector")
    return array


class Preprocessor(TransformerMixin, BaseEstimator):
    """Learn and apply one word's vector transform: form-centre → centre → L2-normalise → PCA/whiten, each optional.

    A scikit-learn transformer (``fit``/``transform``, learned state ending in ``_``, clonable). The steps
    run in that order. **Form centring** removes (a fraction ``center_forms`` of) what the surface form
    alone contributes: the vectors of *mice* and of *mouse* differ in every context, so a clusterer would
    otherwise split a word by form before it splits it by sense. Each vector moves by
    ``-center_forms * (mean of its form - mean of the word)``; forms are compared lower-cased, and a form
    not seen in ``fit`` (or no forms at all) is not moved. ``fit`` stores everything ``transform`` needs
    (the form shifts, the word's mean vector, the PCA mean, components and scales), so new occurrences get
    exactly the same transform.
    PCA is an SVD of the centred data with a deterministic sign convention (the largest-magnitude
    loading of each component is positive); the number of components is capped at
    ``min(pca, dim, max(n - 1, 1))``. Whitening divides each component by its standard deviation
    (components with zero variance are left unscaled); ``whiten=True`` without ``pca`` keeps all
    components the data supports. Saving and loading the learned state: :mod:`wsd.senses.persistence`.

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

    Attributes
    ----------
    n_features_in_ : int
        Width of the vectors seen in ``fit`` (``dim_`` is the same number).
    mean_ : ndarray (dim,)
        The word's mean vector after form centring (zeros without ``center``).
    forms_, form_shifts_ : ndarray
        The known (lower-cased, sorted) forms and each one's shift (only with ``center_forms``).
    pca_mean_, components_, scale_, explained_variance_ : ndarray
        The projection (only with ``pca`` or ``whiten``).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.arange(12.0).reshape(4, 3)
    >>> Preprocessor(center=True, pca=1).fit(X).transform(X).shape
    (4, 1)
    >>> Preprocessor(center_forms=1.0).fit(X, forms=["a", "a", "b", "b"]).transform(X, ["a", "a", "b", "b"])[:, 0]
    array([3., 6., 3., 6.])
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "center": [Boolean()],
        "normalize": [Boolean()],
        "pca": [Integer(1), None],
        "whiten": [Boolean()],
        "center_forms": [Fraction()],
    }

    def __init__(
        self,
        *,
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
        """Whether the transform ends with a PCA projection.

        Returns
        -------
        bool
        """
        return self.pca is not None or bool(self.whiten)

    @property
    def uses_forms(self) -> bool:
        """Whether the transform moves vectors by their surface form.

        Returns
        -------
        bool
        """
        return check_center_forms(self.center_forms) > 0.0

    def fit(self, X: Any, y: Any = None, *, forms: Sequence[str] | np.ndarray | None = None) -> Preprocessor:
        """Learn the transform from the rows of ``X`` and their surface ``forms``.

        Parameters
        ----------
        X : array-like of shape (n_occurrences, dim)
            One word's occurrence vectors.
        y : None
            Ignored (scikit-learn's signature).
        forms : sequence of str or None
            The surface form of each row; needed when ``center_forms`` is set.

        Returns
        -------
        Preprocessor
            This transformer, fitted.
        """
        validate_params(self)
        strength = check_center_forms(self.center_forms)
        X = _check_vectors(X)
        n, dim = X.shape
        self.dim_ = dim
        self.n_features_in_ = dim
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

    def _shift_forms(self, X: np.ndarray, forms: Sequence[str] | np.ndarray | None) -> np.ndarray:
        """Subtract the learned shift of each vector's form (unknown forms and ``forms=None``: none)."""
        if not self.uses_forms or forms is None or len(self.forms_) == 0:
            return X
        wanted = normalise_forms(forms, len(X))
        index = np.minimum(np.searchsorted(self.forms_, wanted), len(self.forms_) - 1)
        known = self.forms_[index] == wanted
        return X - np.where(known[:, None], self.form_shifts_[index], 0.0)

    def transform(self, X: Any, forms: Sequence[str] | np.ndarray | None = None) -> np.ndarray:
        """Apply the learned transform to occurrence vectors (any number of rows) with their ``forms``.

        Parameters
        ----------
        X : array-like of shape (n_occurrences, dim)
            Vectors of the same width as in ``fit``.
        forms : sequence of str or None
            Their surface forms, used only with ``center_forms`` (a form unseen in ``fit`` is not moved).

        Returns
        -------
        ndarray of shape (n_occurrences, output_dim_)
        """
        check_is_fitted(self, "mean_")
        X = _check_vectors(X, min_samples=0)
        if X.shape[1] != self.dim_:
            raise InputError(
                f"X has {X.shape[1]} features, but Preprocessor is expecting {self.dim_} features as input "
                f"(the transform was fitted on {self.dim_}-dim vectors)"
            )
        Y = self._center_normalize(self._shift_forms(X, forms))
        if self.uses_projection:
            Y = ((Y - self.pca_mean_) @ self.components_.T) / self.scale_
        return Y

    def fit_transform(self, X: Any, y: Any = None, *, forms: Sequence[str] | np.ndarray | None = None) -> np.ndarray:
        """``fit(X, forms=forms)`` then ``transform(X, forms)`` (the same code path as for new vectors).

        Parameters
        ----------
        X, y, forms
            As for :meth:`fit`.

        Returns
        -------
        ndarray of shape (n_occurrences, output_dim_)
        """
        return self.fit(X, forms=forms).transform(X, forms)

    @property
    def output_dim_(self) -> int:
        """Number of columns ``transform`` returns.

        Returns
        -------
        int
        """
        return int(self.components_.shape[0]) if self.uses_projection else int(self.dim_)


def _check_vectors(X: Any, min_samples: int = 1) -> np.ndarray:
    """A dense, finite, 2-D float64 matrix (scikit-learn's checks, raised as InputError)."""
    try:
        return check_array(X, dtype=np.float64, ensure_min_samples=min_samples)
    except ValueError as error:
        raise InputError(f"occurrence vectors: {error}") from None
