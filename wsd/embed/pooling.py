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
    """Return ``pooling`` normalised (``first_last`` is accepted for ``first-last``), or raise ConfigError."""
    name = str(pooling).strip().lower().replace("_", "-")
    if name not in POOLINGS:
        raise ConfigError(f"unknown subword pooling {pooling!r} (choose one of {', '.join(POOLINGS)})")
    return name


def pooled_dim(pooling: str, dim: int) -> int:
    """Dimension of a pooled word vector for token vectors of size ``dim``."""
    return 2 * dim if check_pooling(pooling) == "first-last" else dim


def pool_pieces(pieces: torch.Tensor, segment: torch.Tensor, count: int, pooling: str) -> torch.Tensor:
    """Pool piece vectors ``(P, dim)`` into ``count`` word vectors, pieces grouped by ``segment`` ``(P,)``.

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
