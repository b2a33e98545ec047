"""Context windows: which subword tokens the model sees for each occurrence, and where its pieces are.

Each distinct text is tokenised once (the fast tokenizer, in one batch call, with character offsets). An
occurrence's pieces are the tokens whose character offsets overlap its span, so pieces that carry a leading
space marker (``▁word``) are found too. The window the model sees is

- the whole text, when it fits in the model's length (all occurrences in that text then share ONE window and
  one forward pass);
- otherwise a window of the model's length centred on the occurrence, so a target deep inside a long text is
  never truncated away. Later occurrences share that window when they lie well inside it (at least a quarter
  of the window, or all the text there is, on each side);
- with ``window_tokens=N``: at most N tokens either side of the occurrence.

Identical windows (the same token ids, from any text) are run once.

Memory stays bounded however many occurrences share a window: a batch's hidden states are gathered once per
distinct token (:func:`wsd.embed.forward.distinct_pieces`) and its occurrences are pooled in groups of at
most about :data:`PIECES_PER_POOL` pieces (:func:`piece_groups`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wsd.errors import ConfigError, InputError

#: Pieces pooled at once, at most (plus one occurrence's): the tokens of a CPU batch, 32 windows of 512 tokens.
PIECES_PER_POOL = 16_384


@dataclass
class WindowPlan:
    """Unique windows to encode and, for every occurrence, its window and piece positions in it.

    Occurrence ``i`` has pieces ``windows[window_of[i]][piece_start[i]:piece_end[i]]``.

    Parameters
    ----------
    windows : list of ndarray
        The content token ids of each unique window (special tokens not included).
    window_of : ndarray of shape (n,)
        The window of each occurrence.
    piece_start : ndarray of shape (n,)
        The first piece of each occurrence, as a position in its window.
    piece_end : ndarray of shape (n,)
        One past the last piece of each occurrence.
    """

    windows: list[np.ndarray]
    window_of: np.ndarray
    piece_start: np.ndarray
    piece_end: np.ndarray

    @property
    def num_pieces(self) -> np.ndarray:
        """Number of subword pieces of each occurrence.

        Returns
        -------
        ndarray of shape (n,)
            ``piece_end - piece_start``.
        """
        return self.piece_end - self.piece_start


def plan_windows(
    backend,
    texts: Sequence[str],
    spans: Sequence[tuple[int, int]] | np.ndarray,
    budget: int,
    window_tokens: int | None = None,
) -> WindowPlan:
    """Tokenise ``texts`` and choose a window for each ``spans[i]`` (character offsets in ``texts[i]``).

    Parameters
    ----------
    backend : tokenizers.Tokenizer
        A fast tokenizer's backend, without padding or truncation.
    texts : sequence of str
        One text per occurrence (repeats are tokenised once).
    spans : sequence of (int, int) or ndarray of shape (n, 2)
        Character offsets ``(start, end)`` of each occurrence in its text.
    budget : int
        The most content tokens a window may hold (the model's length minus its special tokens).
    window_tokens : int, optional
        At most this many tokens either side of an occurrence (default: as many as fit).

    Returns
    -------
    WindowPlan
        The unique windows and every occurrence's window and pieces.

    Raises
    ------
    ConfigError
        For a different number of texts and spans, or a negative ``window_tokens``.
    InputError
        For a span that covers no subword token of its text.
    """
    if len(texts) != len(spans):
        raise ConfigError(f"got {len(texts)} texts but {len(spans)} spans; give one span per text")
    if window_tokens is not None and window_tokens < 0:
        raise ConfigError(f"window_tokens must be ≥ 0, not {window_tokens}")
    count = len(texts)
    span_array = np.asarray(spans, dtype=np.int64).reshape(count, 2)
    unique: dict[str, int] = {}
    text_index = np.fromiter((unique.setdefault(t, len(unique)) for t in texts), dtype=np.int64, count=count)
    encodings = backend.encode_batch(list(unique), add_special_tokens=False) if unique else []

    window_keys: dict[bytes, int] = {}
    windows: list[np.ndarray] = []
    window_of = np.empty(count, dtype=np.int64)
    piece_start = np.empty(count, dtype=np.int64)
    piece_end = np.empty(count, dtype=np.int64)

    order = np.argsort(text_index, kind="stable")
    boundaries = np.flatnonzero(np.diff(text_index[order])) + 1
    for members in np.split(order, boundaries) if count else []:
        encoding = encodings[text_index[members[0]]]
        ids = np.asarray(encoding.ids, dtype=np.int64)
        offsets = np.asarray(encoding.offsets, dtype=np.int64).reshape(-1, 2)
        first, last = _pieces(offsets, span_array[members], texts[members[0]], members)
        bounds = _choose_windows(first, last, len(ids), budget, window_tokens)
        for (lo, hi), index in zip(bounds, members, strict=True):
            key = ids[lo:hi].tobytes()
            window = window_keys.get(key)
            if window is None:
                window = window_keys[key] = len(windows)
                windows.append(ids[lo:hi])
            window_of[index] = window
        starts = np.array([b[0] for b in bounds], dtype=np.int64)
        ends = np.array([b[1] for b in bounds], dtype=np.int64)
        piece_start[members] = np.maximum(first, starts) - starts
        piece_end[members] = np.minimum(last, ends) - starts
    return WindowPlan(windows, window_of, piece_start, piece_end)


def _pieces(offsets: np.ndarray, spans: np.ndarray, text: str, members: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First and one-past-last token index of each span: the tokens whose offsets overlap it."""
    starts, ends = offsets[:, 0], offsets[:, 1]
    first = np.searchsorted(ends, spans[:, 0], side="right")
    last = np.searchsorted(starts, spans[:, 1], side="left")
    bad = np.flatnonzero((last <= first) | (spans[:, 0] < 0) | (spans[:, 1] > len(text)) | (spans[:, 1] <= spans[:, 0]))
    if bad.size:
        k = bad[0]
        start, end = (int(v) for v in spans[k])
        raise InputError(
            f"span {start}-{end} of text #{int(members[k])} ({text[max(start, 0) : end]!r}) "
            f"covers no subword token of the text (a text of {len(text)} characters)"
        )
    return first, last


def _choose_windows(
    first: np.ndarray, last: np.ndarray, length: int, budget: int, window_tokens: int | None
) -> list[tuple[int, int]]:
    """A token range ``(lo, hi)`` for each occurrence (see the module docstring)."""
    if window_tokens is not None:
        lo = np.maximum(first - window_tokens, 0)
        hi = np.minimum(last + window_tokens, length)
        too_long = hi - lo > budget
        if not too_long.any():
            return list(zip(lo.tolist(), hi.tolist(), strict=True))
    elif length <= budget:
        return [(0, length)] * len(first)
    margin = budget // 4
    result: list[tuple[int, int] | None] = [None] * len(first)
    current: tuple[int, int] | None = None
    for k in np.argsort(first, kind="stable"):
        f, la = int(first[k]), int(last[k])
        if window_tokens is not None:
            lo_k, hi_k = max(f - window_tokens, 0), min(la + window_tokens, length)
            if hi_k - lo_k <= budget:
                result[k] = (lo_k, hi_k)
                continue
        if current is not None and _inside(f, la, current, margin, length):
            result[k] = current
            continue
        centre = (f + la) // 2
        lo = min(max(centre - budget // 2, 0), max(length - budget, 0))
        current = (lo, min(lo + budget, length))
        result[k] = current
    return [r for r in result if r is not None]


def _inside(first: int, last: int, window: tuple[int, int], margin: int, length: int) -> bool:
    """True when pieces ``first..last`` sit in ``window`` with ``margin`` tokens (or the text's edge) each side."""
    lo, hi = window
    return first - lo >= min(margin, first) and hi - last >= min(margin, length - last)


def piece_groups(counts: np.ndarray, budget: int | None = None) -> np.ndarray:
    """Cut consecutive occurrences into groups of about ``budget`` pieces, to pool a batch group by group.

    An occurrence joins the group in which its first piece falls, so a group holds fewer than ``budget``
    pieces plus the last occurrence's; an occurrence is never split. A batch's pooled vectors do not depend
    on the grouping (each occurrence is pooled from its own pieces alone), only its memory does.

    Parameters
    ----------
    counts : ndarray of shape (n,)
        The pieces of each occurrence, in order.
    budget : int, optional
        Pieces a group holds, about (at least 1; default :data:`PIECES_PER_POOL`).

    Returns
    -------
    ndarray of shape (groups + 1,)
        The boundaries: group ``g`` is occurrences ``bounds[g]:bounds[g + 1]`` (``[0, n]`` for one group).

    Examples
    --------
    >>> piece_groups(np.array([3, 3, 3, 3]), budget=6).tolist()
    [0, 2, 4]
    >>> piece_groups(np.array([2, 50, 1]), budget=10).tolist()
    [0, 2, 3]
    """
    counts = np.asarray(counts, dtype=np.int64)
    starts = np.cumsum(counts) - counts
    group = starts // max(int(PIECES_PER_POOL if budget is None else budget), 1)
    cuts = np.flatnonzero(np.diff(group)) + 1
    return np.concatenate([[0], cuts, [len(counts)]]).astype(np.int64)
