"""Subword pooling: one word vector from the vectors of the pieces a tokenizer split the word into.

All occurrences of a batch are pooled at once: ``pieces`` holds every piece's vector and ``segment`` says which
occurrence it belongs to (pieces of an occurrence are contiguous and in text order), so no Python loop runs per
token.

=========== ===========================================================
pooling     word vector
=========== ===========================================================
mean        mean of the pieces (default)
first       the first piece
last        the last piece
first-last  concatenation of the first and the last piece (2 × dim)
sum         sum of the pieces
max         element-wise maximum over the pieces
=========== ===========================================================
"""

from __future__ import annotations

from typing import cast

import numpy as np

from wsd.errors import ConfigError
from wsd.schema import POOLINGS, Pooling


def check_pooling(pooling: str) -> Pooling:
    """Check and normalise a subword pooling name (``first_last`` is accepted for ``first-last``).

    Parameters
    ----------
    pooling : str
        A pooling name.

    Returns
    -------
    {"mean", "first", "last", "first-last", "sum", "max"}
        One of :data:`wsd.schema.POOLINGS`.

    Raises
    ------
    ConfigError
        For an unknown pooling.
    """
    name = str(pooling).strip().lower().replace("_", "-")
    if name not in POOLINGS:
        raise ConfigError(f"unknown subword pooling {pooling!r} (choose one of {', '.join(POOLINGS)})")
    return cast(Pooling, name)


def pooled_dim(pooling: str, dim: int) -> int:
    """Dimension of a pooled word vector.

    Parameters
    ----------
    pooling : str
        The subword pooling.
    dim : int
        Size of a token vector.

    Returns
    -------
    int
        ``2 × dim`` for ``first-last``, else ``dim``.
    """
    return 2 * dim if check_pooling(pooling) == "first-last" else dim


def pool_pieces(pieces: np.ndarray, segment: np.ndarray, count: int, pooling: str) -> np.ndarray:
    """Pool piece vectors into one vector per word, all words of a batch at once.

    Parameters
    ----------
    pieces : ndarray of shape (P, dim)
        The vectors of every piece, the pieces of each word contiguous and in text order (every word has at
        least one piece).
    segment : ndarray of shape (P,)
        The word (``0..count-1``) each piece belongs to, non-decreasing.
    count : int
        Number of words.
    pooling : str
        The subword pooling (:data:`wsd.schema.POOLINGS`).

    Returns
    -------
    ndarray of shape (count, dim) or (count, 2 × dim)
        The word vectors, in the dtype of ``pieces``.

    Examples
    --------
    >>> pieces = np.array([[1.0], [3.0], [10.0]], dtype=np.float32)
    >>> pool_pieces(pieces, np.array([0, 0, 1]), 2, "mean").tolist()
    [[2.0], [10.0]]
    """
    pooling = check_pooling(pooling)
    pieces = np.asarray(pieces)
    segment = np.asarray(segment)
    if count == 0:
        return np.empty((0, pooled_dim(pooling, pieces.shape[1])), dtype=pieces.dtype)
    sizes = np.bincount(segment, minlength=count)
    ends = np.cumsum(sizes)
    starts = ends - sizes
    if pooling == "first":
        return pieces[starts]
    if pooling == "last":
        return pieces[ends - 1]
    if pooling == "first-last":
        return np.concatenate([pieces[starts], pieces[ends - 1]], axis=1)
    if pooling == "max":
        return np.maximum.reduceat(pieces, starts, axis=0)
    total = np.add.reduceat(pieces, starts, axis=0)
    if pooling == "sum":
        return total
    return total / sizes[:, None].astype(pieces.dtype)
