"""Case-insensitive matching by Unicode case folding, with spans in the original text.

The rule: a form matches a piece of text, ignoring case, when both have the same :meth:`str.casefold`.
It holds in both directions (``straße`` matches ``STRASSE``, ``Straße`` and ``strasse``; ``İstanbul``
matches ``İstanbul`` and ``i̇stanbul``, but not ``Istanbul``, whose fold is ``istanbul``), which a regular
expression with ``re.IGNORECASE`` cannot give: it compares one character with one character, so a letter
whose fold is two letters (``ß`` → ``ss``, ``İ`` → ``i̇``, ``ﬁ`` → ``fi``) never matches its fold.

So the text is folded, the folded forms are searched in it with a case-sensitive pattern, and each match
is mapped back to the original text. When folding keeps the length (nearly every text) every offset
stays as it is; otherwise only the few characters whose fold is longer are looked at (a regular expression
finds them), never each character in Python. A match that would begin or end inside the fold of one
character (``s`` in the ``ss`` of ``ß``) is not a match.

>>> import re
>>> pattern = re.compile(r"(?<!\\w)strasse(?!\\w)")
>>> [text[a:b] for text in ["STRASSE", "Straße!"] for a, b in folded_spans(pattern, text)]
['STRASSE', 'Straße']
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache

#: Every character whose case fold is longer than one character lies in the Basic Multilingual Plane
#: (checked by the tests for all of Unicode).
_LAST_EXPANDING = 0xFFFF


@lru_cache(maxsize=1)
def expanding_characters() -> re.Pattern[str]:
    """A pattern matching one character whose :meth:`str.casefold` is longer than itself (``ß``, ``İ``, ``ﬁ``).

    Returns
    -------
    re.Pattern
        The compiled character class (built once, on first use).

    Examples
    --------
    >>> [m.group() for m in expanding_characters().finditer("Straße, İzmir, office")]
    ['ß', 'İ']
    """
    chars = [chr(code) for code in range(_LAST_EXPANDING + 1) if len(chr(code).casefold()) > 1]
    return re.compile("[" + "".join(re.escape(char) for char in chars) + "]")


class FoldedOffsets:
    """Maps offsets in ``text.casefold()`` back to ``text``, for a text whose fold is longer than itself.

    Parameters
    ----------
    text : str
        The original text.

    Examples
    --------
    >>> offsets = FoldedOffsets("Maß und Maße")      # folded: "mass und masse"
    >>> offsets.original(9), offsets.original(14), offsets.original(3)
    (8, 12, None)
    """

    def __init__(self, text: str) -> None:
        self._folded_starts: list[int] = []
        self._folded_ends: list[int] = []
        self._originals: list[int] = []
        self._shifts: list[int] = []
        shift = 0
        for hit in expanding_characters().finditer(text):
            start = hit.start() + shift
            length = len(hit.group().casefold())
            shift += length - 1
            self._folded_starts.append(start)
            self._folded_ends.append(start + length)
            self._originals.append(hit.start())
            self._shifts.append(shift)

    def original(self, folded: int) -> int | None:
        """The offset in the original text of offset ``folded`` of the folded text.

        Parameters
        ----------
        folded : int
            An offset in the folded text (``0 <= folded <= len(folded text)``).

        Returns
        -------
        int or None
            The original offset, or ``None`` when ``folded`` lies inside the fold of one character.
        """
        index = bisect_right(self._folded_starts, folded) - 1
        if index < 0:
            return folded
        if folded < self._folded_ends[index]:
            return self._originals[index] if folded == self._folded_starts[index] else None
        return folded - self._shifts[index]


def fold_text(text: str) -> tuple[str, FoldedOffsets | None]:
    """``text.casefold()``, and the map of its offsets back to ``text`` (``None`` when they are the same).

    Parameters
    ----------
    text : str
        The original text.

    Returns
    -------
    (str, FoldedOffsets or None)
        The folded text, and ``None`` when every character folds to one (offsets agree) or else the
        :class:`FoldedOffsets` that maps them back.

    Examples
    --------
    >>> fold_text("İstanbul")[0] == "i\u0307stanbul", fold_text("Mouse")
    (True, ('mouse', None))
    """
    folded = text.casefold()
    return folded, (None if len(folded) == len(text) else FoldedOffsets(text))


def folded_spans(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int]]:
    """Spans in ``text`` of the matches of ``pattern`` (written for folded text) in ``text.casefold()``.

    Parameters
    ----------
    pattern : re.Pattern
        A case-sensitive pattern of case-folded forms.
    text : str
        The original text.

    Yields
    ------
    (int, int)
        Start and end (exclusive) of each match in ``text``, left to right; matches that begin or end inside
        the fold of one character are skipped.
    """
    for start, end, _ in folded_matches(pattern, text):
        yield start, end


def folded_matches(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int, str]]:
    """As :func:`folded_spans`, with the matched folded text (the key of the form that matched).

    Parameters
    ----------
    pattern : re.Pattern
        A case-sensitive pattern of case-folded forms.
    text : str
        The original text.

    Yields
    ------
    (int, int, str)
        Start and end in ``text``, and the folded text that matched.
    """
    folded, offsets = fold_text(text)
    if offsets is None:  # every character folds to one: offsets agree
        for hit in pattern.finditer(folded):
            yield hit.start(), hit.end(), hit.group()
        return
    for hit in pattern.finditer(folded):
        start, end = offsets.original(hit.start()), offsets.original(hit.end())
        if start is not None and end is not None:
            yield start, end, hit.group()
