"""Cutting the context passage around each occurrence out of its document.

``sentence`` (default): the sentence that holds the occurrence (a rule-based split after ``.``, ``!``, ``?``,
``…`` followed by white space, and at line breaks). Occurrences in the same sentence share the same passage, so
the encoder runs them in one forward pass.

``window``: ``context_chars`` characters either side of the occurrence (nearby occurrences in a document share
one passage that covers them all). Use it for text without sentence punctuation.

Either way a passage is never longer than about ``2 * context_chars`` plus the covered occurrences: a sentence
longer than that is cut to a window centred on the occurrence, at white space.
"""

from __future__ import annotations

import bisect
import numbers
import re
from dataclasses import dataclass

from wsd.corpus.matcher import Match
from wsd.errors import ConfigError

SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'»”’)\]]*\s+|\n\s*")
CONTEXT_MODES = ("sentence", "window")
DEFAULT_CONTEXT_CHARS = 1000


@dataclass(frozen=True)
class Passage:
    """A slice ``[start, end)`` of a document that is the context of one or more matches.

    Parameters
    ----------
    start, end : int
        Character offsets of the passage in its document (end exclusive).
    matches : tuple of Match
        The matches that the passage is the context of, in document order.
    """

    start: int
    end: int
    matches: tuple[Match, ...]


def _snap_left(text: str, position: int, limit: int) -> int:
    """Move ``position`` right to the next white space (so no word is cut), not beyond ``limit``."""
    if position <= 0:
        return 0
    space = text.find(" ", position, limit)
    return space + 1 if space != -1 else position


def _snap_right(text: str, position: int, limit: int) -> int:
    """Move ``position`` left to the previous white space, not before ``limit``."""
    if position >= len(text):
        return len(text)
    space = text.rfind(" ", limit, position)
    return space if space != -1 else position


def _window(text: str, first: Match, last: Match, lo: int, hi: int, chars: int) -> tuple[int, int]:
    """A span of ``chars`` characters either side of ``first..last`` inside ``[lo, hi)``, cut at spaces."""
    start = max(lo, first.start - chars)
    end = min(hi, last.end + chars)
    return _snap_left(text, start, first.start) if start > lo else lo, (
        _snap_right(text, end, last.end) if end < hi else hi
    )


def sentence_bounds(text: str) -> list[int]:
    """Start offsets of the sentences of ``text`` (always begins with 0).

    Parameters
    ----------
    text : str
        A document.

    Returns
    -------
    list of int
        The character offset where each sentence starts, in order; a sentence ends after ``.``, ``!``,
        ``?`` or ``…`` (and closing quotes or brackets) followed by white space, and at a line break.

    Examples
    --------
    >>> sentence_bounds("One. Two! Three")
    [0, 5, 10]
    """
    return [0, *(m.end() for m in SENTENCE_END.finditer(text) if m.end() < len(text))]


def passages(
    text: str,
    matches: list[Match],
    mode: str = "sentence",
    context_chars: int = DEFAULT_CONTEXT_CHARS,
    *,
    open_start: bool = False,
    open_end: bool = False,
) -> list[Passage]:
    """Group the matches of one document into context passages.

    Parameters
    ----------
    text : str
        The document.
    matches : list of Match
        The target matches found in ``text``.
    mode : {"sentence", "window"}
        ``sentence``: the sentence of each match (cut to a window when longer than ``2 * context_chars``);
        ``window``: ``context_chars`` characters either side, nearby matches sharing one window.
    context_chars : int
        Characters of context either side of a match, at most (a positive number).
    open_start, open_end : bool
        ``text`` is a block of a longer document whose first (last) sentence goes on before (after) the block,
        cut where no window reaches (:mod:`wsd.corpus.scan`): that sentence is longer than ``2 * context_chars``
        in the document, so its matches get windows, as in the whole document.

    Returns
    -------
    list of Passage
        The passages, each with the matches it covers; empty when there are no matches.

    Raises
    ------
    ConfigError
        For an unknown ``mode`` or a ``context_chars`` below 1.

    Examples
    --------
    >>> from wsd.corpus.matcher import FormMatcher
    >>> doc = "A mouse ran. The bank was closed. Another mouse."
    >>> found = FormMatcher({"mouse": ["mouse"], "bank": ["bank"]}).find(doc)
    >>> [doc[p.start:p.end] for p in passages(doc, found)]
    ['A mouse ran.', 'The bank was closed.', 'Another mouse.']
    """
    if mode not in CONTEXT_MODES:
        raise ConfigError(f"unknown context mode {mode!r} (choose {' or '.join(CONTEXT_MODES)})")
    if isinstance(context_chars, bool) or not isinstance(context_chars, numbers.Integral) or context_chars < 1:
        raise ConfigError(f"context_chars must be a positive number of characters, not {context_chars!r}")
    if not matches:
        return []
    if mode == "window":
        return _window_passages(text, matches, 0, len(text), context_chars)
    bounds = sentence_bounds(text)
    by_sentence: dict[int, list[Match]] = {}
    for match in matches:
        by_sentence.setdefault(bisect.bisect_right(bounds, match.start) - 1, []).append(match)
    result: list[Passage] = []
    for index, group in by_sentence.items():
        lo = bounds[index]
        hi = bounds[index + 1] if index + 1 < len(bounds) else len(text)
        hi = lo + len(text[lo:hi].rstrip())
        cut = (open_start and index == 0) or (open_end and index == len(bounds) - 1)
        if hi - lo <= 2 * context_chars and not cut:
            result.append(Passage(lo, hi, tuple(group)))
        else:
            result.extend(_window_passages(text, group, lo, hi, context_chars))
    return result


def _window_passages(text: str, matches: list[Match], lo: int, hi: int, chars: int) -> list[Passage]:
    """Windows of ``chars`` characters either side; matches closer than ``chars`` share one window."""
    result: list[Passage] = []
    group: list[Match] = []
    for match in sorted(matches, key=lambda m: (m.start, m.target)):
        if group and match.end - group[0].start > chars:
            start, end = _window(text, group[0], group[-1], lo, hi, chars)
            result.append(Passage(start, end, tuple(group)))
            group = []
        group.append(match)
    start, end = _window(text, group[0], group[-1], lo, hi, chars)
    result.append(Passage(start, end, tuple(group)))
    return result
