"""Sense induction of very frequent words: fit on a deterministic sample, then label every row in chunks.

A word above :class:`~wsd.senses.SenseInducer`'s ``max_fit_samples`` occurrences is not clustered whole (Ward,
agglomerative, spectral, HDBSCAN and the silhouette need memory and time that grow like n²). Instead:

1. a sample of ``max_fit_samples`` rows, drawn without replacement by ``random_state`` and kept in row order,
   goes through the ordinary fit (preprocessing, clustering, k selection, small senses, the assignment rule)
   exactly as a small word would;
2. every row of the word is then labelled by the fitted assignment rule (nearest centre for every method but
   ``gmm``, the mixture's most probable sense for ``gmm``, the seeded hash for ``random``), reading and
   transforming :data:`CHUNK_ROWS` rows at a time, so memory stays bounded whatever n is (the input may be a
   memory-mapped float16 store);
3. senses are renumbered by their size over all rows (the same rule as for a small word); HDBSCAN noise kept
   with ``noise="keep"`` is, for a row outside the sample, the noise flag of its nearest sampled row.

The cost is that of one fit on the sample plus a linear pass (two, when the renumbering moves a sense) over
the rows.

>>> import numpy as np
>>> from sklearn.datasets import make_blobs
>>> from wsd.senses import SenseInducer
>>> X, _ = make_blobs(3000, centers=3, n_features=8, random_state=0)
>>> model = SenseInducer(method="ward", max_fit_samples=500).fit(X)
>>> model.n_fit_samples_, len(model.labels_), model.n_senses_
(500, 3000, 3)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from sklearn.utils import check_random_state

from wsd.errors import ConfigError, InputError
from wsd.senses.labels import UNASSIGNED, size_renumbering

#: A :class:`~wsd.senses.SenseInducer` (not imported: the inducer imports this module).
SenseInducer = Any
#: Rows read, converted to float64 and transformed at a time when a word is labelled or predicted in chunks
#: (8,192 rows of 384 dims are 24 MiB in float64; a few such temporaries live at once).
CHUNK_ROWS = 8_192
#: ``predict_proba`` and the sense cards' examples work on all rows at once up to this many rows, in chunks of
#: :data:`CHUNK_ROWS` above it.
CHUNKED_ABOVE = 65_536
#: The default of ``SenseInducer(max_fit_samples=...)``: words with more occurrences are fitted on a sample.
DEFAULT_MAX_FIT_SAMPLES = 5_000
_MAX_ROUNDS = 10


def row_count(X: Any) -> int:
    """The number of rows of a matrix-like ``X`` without copying it (a list: its length).

    Parameters
    ----------
    X : array-like
        Vectors (an ndarray, a memory map, a list of rows).

    Returns
    -------
    int
    """
    shape = getattr(X, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) else 0
    return len(X)


def uses_sample(X: Any, max_fit_samples: int | None) -> bool:
    """Whether a word with vectors ``X`` is fitted on a sample (more rows than ``max_fit_samples``).

    Parameters
    ----------
    X : array-like
        The word's vectors.
    max_fit_samples : int or None
        The threshold (None: never sample).

    Returns
    -------
    bool

    Examples
    --------
    >>> uses_sample(np.zeros((10, 2)), 5), uses_sample(np.zeros((10, 2)), None)
    (True, False)
    """
    return max_fit_samples is not None and row_count(X) > int(max_fit_samples)


def sample_rows(n: int, size: int, random_state: Any) -> np.ndarray:
    """``size`` distinct row numbers out of ``n``, drawn by ``random_state``, in ascending order.

    Parameters
    ----------
    n : int
        Number of rows.
    size : int
        Rows to draw (at most ``n``).
    random_state : int, RandomState or None
        Seeds the draw.

    Returns
    -------
    ndarray of int64

    Examples
    --------
    >>> sample_rows(10, 3, 0).tolist() == sample_rows(10, 3, 0).tolist()
    True
    """
    rng = check_random_state(random_state)
    return np.sort(rng.choice(n, size=min(size, n), replace=False)).astype(np.int64)


def chunk_bounds(n: int, chunk: int = CHUNK_ROWS) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive blocks of at most ``chunk`` rows covering ``range(n)``.

    Parameters
    ----------
    n : int
        Number of rows.
    chunk : int
        Rows per block.

    Returns
    -------
    iterator of (int, int)

    Examples
    --------
    >>> list(chunk_bounds(5, 2))
    [(0, 2), (2, 4), (4, 5)]
    """
    for start in range(0, n, chunk):
        yield start, min(start + chunk, n)


def _as_rows(X: Any) -> Any:
    """``X`` itself when it is a matrix (ndarray or memory map: no copy), else an array of it."""
    if not hasattr(X, "shape"):
        X = np.asarray(X)
    if len(X.shape) != 2:
        raise InputError(f"occurrence vectors: expected a 2-D matrix, got shape {tuple(X.shape)}")
    return X


def _as_forms(forms: Any, n: int) -> np.ndarray | None:
    if forms is None:
        return None
    forms = np.asarray(forms)
    if forms.shape != (n,):
        raise InputError(f"got {forms.size} forms for {n} vectors; give one surface form per vector")
    return forms


def transformed_chunks(
    inducer: SenseInducer, X: Any, forms: np.ndarray | None, chunk: int = CHUNK_ROWS
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """``(start, stop, rows, transformed rows)`` of a fitted inducer's input, one block at a time.

    Each block is checked like any input (finite, the training width) and converted to float64.

    Parameters
    ----------
    inducer : SenseInducer
        A fitted inducer.
    X : array-like of shape (n, dim)
        Vectors (e.g. a memory-mapped float16 store).
    forms : ndarray or None
        Their surface forms.
    chunk : int
        Rows per block.

    Returns
    -------
    iterator of (int, int, ndarray, ndarray)
    """
    for start, stop in chunk_bounds(row_count(X), chunk):
        rows = inducer._check_X(X[start:stop], fitting=False)
        yield start, stop, rows, inducer.preprocessor_.transform(rows, None if forms is None else forms[start:stop])


def predict_proba_chunked(inducer: SenseInducer, X: Any, forms: Any = None) -> np.ndarray:
    """A fitted inducer's ``predict_proba`` of many rows, computed :data:`CHUNK_ROWS` rows at a time.

    Parameters
    ----------
    inducer : SenseInducer
        A fitted inducer.
    X : array-like of shape (n, dim)
        Vectors.
    forms : sequence of str or None
        Their surface forms.

    Returns
    -------
    ndarray of shape (n, n_senses_)
    """
    X = _as_rows(X)
    n = row_count(X)
    proba = np.empty((n, inducer.n_senses_))
    for start, stop, rows, Xt in transformed_chunks(inducer, X, _as_forms(forms, n)):
        proba[start:stop] = inducer._proba_transformed(Xt, rows)
    return proba


def fit_on_sample(inducer: SenseInducer, X: Any, forms: Any = None) -> SenseInducer:
    """Fit ``inducer`` on a sample of ``max_fit_samples`` rows of ``X`` and label every row (module docstring).

    Parameters
    ----------
    inducer : SenseInducer
        The inducer to fit (its parameters already validated).
    X : array-like of shape (n, dim)
        One word's vectors, n > ``max_fit_samples``; read in blocks, never converted whole.
    forms : sequence of str or None
        Their surface forms.

    Returns
    -------
    SenseInducer
        ``inducer``, fitted: ``labels_`` for all n rows, ``n_fit_samples_`` the sample's size.
    """
    if inducer.method == "one-per-instance":
        raise ConfigError(
            f"method='one-per-instance' gives each of the {row_count(X)} occurrences its own sense, which does not "
            f"fit in memory above max_fit_samples={inducer.max_fit_samples}; use max_fit_samples=None on small words"
        )
    X = _as_rows(X)
    n = row_count(X)
    forms = _as_forms(forms, n)
    index = sample_rows(n, int(inducer.max_fit_samples), inducer.random_state)
    sample = inducer._check_X(X[index], fitting=True)
    sample_forms = None if forms is None else forms[index]
    inducer._fit_rows(sample, sample_forms)
    keep_mask = _noise_mask(inducer, X, forms, index, sample, sample_forms)
    for _ in range(_MAX_ROUNDS):
        labels = _rule_labels(inducer, X, forms, keep_mask)
        renumbering = size_renumbering(labels, inducer._n_rule_senses())
        if renumbering is None:
            break
        new_id, n_kept = renumbering
        if inducer.assignment_ == "random":  # every bucket's sense keeps its sampled rows: nothing is dropped
            inducer.bucket_senses_ = new_id[inducer.bucket_senses_]
        else:
            inducer._renumber(new_id, n_kept)
    inducer.labels_ = labels
    inducer.n_senses_ = inducer._n_rule_senses()
    inducer.n_fit_samples_ = len(index)
    if inducer.assignment_ != "centroid":
        inducer.cluster_centers_ = _chunked_means(inducer, X, forms, labels)
    return inducer


def _rule_labels(inducer: SenseInducer, X: Any, forms: np.ndarray | None, keep_mask: np.ndarray | None) -> np.ndarray:
    """Every row's sense by the fitted assignment rule (argmax of the memberships), block by block."""
    labels = np.empty(row_count(X), dtype=np.int64)
    for start, stop, rows, Xt in transformed_chunks(inducer, X, forms):
        labels[start:stop] = np.argmax(inducer._proba_transformed(Xt, rows), axis=1)
    if keep_mask is not None:
        labels[keep_mask] = UNASSIGNED
    return labels


def _noise_mask(
    inducer: SenseInducer,
    X: Any,
    forms: np.ndarray | None,
    index: np.ndarray,
    sample: np.ndarray,
    sample_forms: np.ndarray | None,
) -> np.ndarray | None:
    """Rows kept as noise (``noise="keep"``): the sampled noise, and each other row whose nearest sampled row is."""
    sample_noise = inducer.labels_ < 0
    if not sample_noise.any():
        return None
    from sklearn.metrics import pairwise_distances_argmin

    sample_t = inducer.preprocessor_.transform(sample, sample_forms)
    mask = np.empty(row_count(X), dtype=bool)
    for start, stop, _, Xt in transformed_chunks(inducer, X, forms):
        mask[start:stop] = sample_noise[pairwise_distances_argmin(Xt, sample_t)]
    mask[index] = sample_noise
    return mask


def _chunked_means(inducer: SenseInducer, X: Any, forms: np.ndarray | None, labels: np.ndarray) -> np.ndarray:
    """Mean transformed vector of each sense over all rows (rows labelled -1 left out)."""
    sums = np.zeros((inducer.n_senses_, inducer.preprocessor_.output_dim_))
    for start, stop, _, Xt in transformed_chunks(inducer, X, forms):
        block = labels[start:stop]
        indicator = np.zeros((inducer.n_senses_, stop - start))
        assigned = np.flatnonzero(block >= 0)
        indicator[block[assigned], assigned] = 1.0
        sums += indicator @ Xt
    counts = np.bincount(labels[labels >= 0], minlength=inducer.n_senses_)[:, None]
    return sums / np.where(counts > 0, counts, 1)
