"""Scanning a long document in bounded memory: its pieces joined into blocks cut where no context crosses.

A line longer than :data:`wsd.io.textfiles.LINE_PIECE_BYTES` reaches the scanner in pieces
(:attr:`wsd.corpus.documents.Document.more`). :func:`iter_blocks` keeps a buffer of the pieces not scanned yet
and cuts it where the two sides give exactly the passages and matches of the whole document:

- at a sentence boundary (``context="sentence"``) that no match spans: passages never cross one;
- else at the start of a word whose white space lies more than ``context_chars`` from every match: no window
  reaches across (inside a sentence that is longer than ``2 * context_chars``, whose matches get windows
  either way).

Matches are trusted only well before the end of the buffer (a form may go on in the next piece), so a cut
lies at least ``margin`` characters before it. A buffer with no such place (targets closer than the context
everywhere) is cut at white space once it holds :data:`HARD_CHARS` characters, with a warning: contexts
there may be shorter than in the whole line. Occurrence ids and offsets count from the start of the line,
as for a line read whole.
"""

from __future__ import annotations

import bisect
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from wsd.corpus.contexts import SENTENCE_END
from wsd.corpus.documents import Document
from wsd.corpus.matcher import Match
from wsd.io.textfiles import LINE_PIECE_BYTES

#: The most characters of one long line held at once before a cut is forced.
HARD_CHARS = 4 * LINE_PIECE_BYTES


@dataclass(frozen=True)
class Block:
    """A document, or a block of a long one, with the matches in it.

    Parameters
    ----------
    document : Document
        The document (for a block: its first piece, which carries the id and metadata).
    text : str
        The block's text.
    offset : int
        Character offset of ``text`` in the document.
    matches : list of Match
        The matches in ``text`` (offsets in ``text``).
    open_start, open_end : bool
        The block's first (last) sentence goes on before (after) it (:func:`wsd.corpus.contexts.passages`).
    """

    document: Document
    text: str
    offset: int
    matches: list[Match]
    open_start: bool = False
    open_end: bool = False


def iter_blocks(
    documents: Iterable[Document],
    matcher: Any,
    context: str,
    context_chars: int,
    margin: int,
    hard_chars: int | None = None,
) -> Iterator[Block]:
    """The documents with their matches; a long document's pieces joined into blocks cut where no context crosses.

    Parameters
    ----------
    documents : iterable of Document
        Whole documents, and the pieces of long ones (in order).
    matcher : object
        Has ``find(text) -> list[Match]``.
    context : {"sentence", "window"}
        The scan's context mode.
    context_chars : int
        Its characters of context either side.
    margin : int
        Characters at the end of a buffer where matches are not trusted yet (more than the longest form plus
        ``2 * context_chars``).
    hard_chars : int, optional
        Characters of a buffer at which a cut is forced (default :data:`HARD_CHARS`).

    Yields
    ------
    Block

    Examples
    --------
    >>> from wsd.corpus.matcher import FormMatcher
    >>> pieces = [Document("d:1", "A mouse. The ", more=True), Document("d:1", "cat. A mouse.", offset=13)]
    >>> [(b.offset, b.text) for b in iter_blocks(pieces, FormMatcher({"mouse": ["mouse"]}), "sentence", 5, 1)]
    [(0, 'A mouse. '), (9, 'The cat. A mouse.')]
    """
    hard_chars = hard_chars or HARD_CHARS
    buffer, base, open_start, head, warned = "", 0, False, None, False
    for document in documents:
        if not document.is_piece:
            yield Block(document, document.text, 0, matcher.find(document.text))
            continue
        if document.offset == 0:
            buffer, base, open_start, head, warned = "", 0, False, document, False
        buffer += document.text
        found = matcher.find(buffer)
        if not document.more:
            yield Block(head or document, buffer, base, found, open_start, False)
            buffer, head = "", None
            continue
        cut = find_cut(buffer, found, context, context_chars, margin)
        if cut is None:
            if len(buffer) < hard_chars:
                continue
            cut = _forced_cut(buffer, context, margin)
            if not warned:
                warnings.warn(
                    f"{document.where or document.doc_id}: a line of more than {hard_chars:,} characters whose "
                    f"targets lie closer together than the context ({context_chars} characters) everywhere; to "
                    f"bound memory it was cut at character {base + cut[0]:,} (maybe also later), where contexts "
                    "may be shorter than in the whole line",
                    stacklevel=3,
                )
                warned = True
        at, inside = cut
        yield Block(head or document, buffer[:at], base, [m for m in found if m.end <= at], open_start, inside)
        buffer, base, open_start = buffer[at:], base + at, inside


def find_cut(text: str, found: list[Match], context: str, context_chars: int, margin: int) -> tuple[int, bool] | None:
    """A place to cut a long document's buffer that changes no match and no passage, or None.

    Parameters
    ----------
    text : str
        The buffer.
    found : list of Match
        The matches in it, in order of position.
    context : {"sentence", "window"}
        The context mode.
    context_chars : int
        Characters of context either side.
    margin : int
        The cut lies at least this many characters before the end of ``text``.

    Returns
    -------
    (int, bool) or None
        The offset of the cut and whether it lies inside a sentence (``context="sentence"`` only).

    Examples
    --------
    >>> find_cut("One. Two. Three. Four.", [], "sentence", 100, 5)
    (10, False)
    """
    limit = len(text) - margin
    if limit <= 0:
        return None
    starts = [m.start for m in found]
    chars = context_chars
    # sentence boundaries are looked for near the end only: [first, limit), the buffer before counts as one
    # sentence (a cut further left is not needed, and the search costs as much as the scan)
    first = max(0, limit - 4 * chars - 2**16)
    while first > 0 and not text[first - 1].isalnum():  # no boundary straddles a place after a letter or digit
        first -= 1
    bounds: list[int] = []
    if context == "sentence":
        bounds = [first, *(p for m in SENTENCE_END.finditer(text, first) if first < (p := m.end()) < limit)]
        for at in reversed(bounds[1:]):
            if not _spanned(found, starts, at):
                return at, False
    reach = [-chars - 1]  # the furthest end of a match so far (matches of two targets may overlap)
    for match in found:
        reach.append(max(reach[-1], match.end))
    afters = [*starts, limit + chars]  # the start of the match after each gap (the last gap: the limit)
    # the gaps between consecutive matches, the last first: (end of the one before, start of the one after)
    for index in range(len(afters) - 1, -1, -1):
        before, after = reach[index], afters[index]
        low, high = before + chars, min(after - chars, limit)  # white space after low, the cut before high
        space = text.rfind(" ", low + 1, high - 1) if high - low > 2 else -1
        while space != -1:
            at = space + 1
            white = space
            while white > 0 and text[white - 1].isspace():
                white -= 1
            if white <= low:
                break
            if not text[at].isspace():
                if context == "window":
                    return at, False
                if at < first + 2 * chars + 1:
                    break  # too far left to know its sentence
                sentence = bounds[bisect.bisect_right(bounds, at) - 1]
                if sentence == at:
                    return at, False
                if sentence == first or at - sentence > 2 * chars:
                    # the sentence began before ``first``: more than 2 * chars before ``at`` (or in an open start)
                    return at, True
                break
            space = text.rfind(" ", low + 1, space)
    return None


def _spanned(found: list[Match], starts: list[int], at: int) -> bool:
    """Whether a match starts before ``at`` and ends after it."""
    index = bisect.bisect_left(starts, at)
    return any(m.end > at for m in found[max(0, index - 8) : index])


def _forced_cut(text: str, context: str, margin: int) -> tuple[int, bool]:
    """The last word start before ``len(text) - margin`` (or that place itself): a cut that may shorten contexts."""
    limit = max(1, len(text) - margin)
    at = text.rfind(" ", 0, limit) + 1 or limit
    inside = context == "sentence" and not any(m.end() == at for m in SENTENCE_END.finditer(text, max(0, at - 64), at))
    return at, inside
