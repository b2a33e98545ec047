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

import torch

from wsd.errors import ConfigError

POOLINGS = ("mean", "first", "last", "first-last", "sum", "max")


def check_pooling(pooling: str) -> str:
    """Check and normalise a subword pooling name (``first_last`` is accepted for ``first-last``).

    Parameters
    ----------
    pooling : str
        A pooling name.

    Returns
    -------
    str
        One of :data:`POOLINGS`.

    Raises
    ------
    ConfigError
        For an unknown pooling.
    """
    name = str(pooling).strip().lower().replace("_", "-")
    if name not in POOLINGS:
        raise ConfigError(f"unknown subword pooling {pooling!r} (choose one of {', '.join(POOLINGS)})")
    return name


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


def pool_pieces(pieces: torch.Tensor, segment: torch.Tensor, count: int, pooling: str) -> torch.Tensor:
    """Pool piece vectors into one vector per word, all words of a batch at once.

    Parameters
    ----------
    pieces : Tensor of shape (P, dim)
        The vectors of every piece, the pieces of each word contiguous and in text order.
    segment : Tensor of shape (P,)
        The word (``0..count-1``) each piece belongs to.
    count : int
        Number of words.
    pooling : str
        The subword pooling (:data:`POOLINGS`).

    Returns
    -------
    Tensor of shape (count, dim) or (count, 2 × dim)
        The word vectors.

    Examples
    --------
    >>> pieces = torch.tensor([[1.0], [3.0], [10.0]])
    >>> pool_pieces(pieces, torch.tensor([0, 0, 1]), 2, "mean").tolist()
    [[2.0], [10.0]]
    """
    pooling = check_pooling(pooling)
    dim = pieces.shape[1]
    sizes = torch.bincount(segment, minlength=count)
    ends = torch.cumsum(sizes, 0)
    starts = ends - sizes
    if pooling == "first":
        return pieces[starts]
    if pooling == "last":
        return pieces[ends - 1]
    if pooling == "first-last":
        return torch.cat([pieces[starts], pieces[ends - 1]], dim=1)
    if pooling == "max":
        out = torch.full((count, dim), float("-inf"), dtype=pieces.dtype)
        return out.scatter_reduce(0, segment[:, None].expand(-1, dim), pieces, reduce="amax")
    total = torch.zeros((count, dim), dtype=pieces.dtype).index_add_(0, segment, pieces)
    if pooling == "sum":
        return total
    return total / sizes[:, None].to(pieces.dtype)
