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

Canonically equal text is equal text: ``café`` written with the letter ``é`` (NFC, composed) and written as
``e`` followed by the combining accent U+0301 (NFD, decomposed, as macOS file names and some converters write
it) are one word. So the scanner compares both in NFC (:func:`match_key` for the forms, :func:`normal_text` for
the text, with a map of its offsets back to the text as written), and a combining mark is part of the word it
follows (:func:`word_characters`): ``cafe`` never matches the decomposed ``café``, whose ``e`` carries a mark.

>>> import re
>>> pattern = re.compile(r"(?<!\\w)strasse(?!\\w)")
>>> [text[a:b] for text in ["STRASSE", "Straße!"] for a, b in folded_spans(pattern, text)]
['STRASSE', 'Straße']
"""

from __future__ import annotations

import re
import sys
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

#: Every character whose case fold is longer than one character lies in the Basic Multilingual Plane
#: (checked by the tests for all of Unicode).
_LAST_EXPANDING = 0xFFFF
#: The Hangul vowel and final consonant jamo: letters (not marks) that NFC joins to the syllable before them.
_HANGUL_JOINERS = [chr(code) for code in (*range(0x1161, 0x1176), *range(0x11A8, 0x11C3))]
#: Characters beyond the Basic Multilingual Plane. A class of characters that holds one of them is checked range by
#: range by ``re``, a class of BMP characters at once (a bitmap), so the two are kept apart (:func:`_one_of`).
_ASTRAL_RANGE = "\U00010000-\U0010ffff"
_ASTRAL = re.compile(f"[{_ASTRAL_RANGE}]")


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


def _ranges(chars: list[str]) -> str:
    """The characters as the inside of a regular-expression class, consecutive ones as ranges (``a-z``)."""
    parts: list[str] = []
    codes = sorted(map(ord, chars))
    if not codes:
        return ""
    start = previous = codes[0]
    for code in [*codes[1:], -1]:
        if code != previous + 1:
            parts.append(re.escape(chr(start)) + ("" if previous == start else "-" + re.escape(chr(previous))))
            start = code
        previous = code
    return "".join(parts)


def _one_of(chars: list[str], extra: str = "", astral: bool = True) -> str:
    """A regular expression for one of ``chars`` (or of the class items ``extra``, such as ``\\w``), fast in ``re``.

    The characters of the BMP go in one class, the others in a second one tried for characters beyond the BMP
    only (or left out without ``astral``).
    """
    bmp = f"[{extra}{_ranges([c for c in chars if ord(c) <= 0xFFFF])}]"
    beyond = _ranges([c for c in chars if ord(c) > 0xFFFF])
    if not astral or not beyond:
        return bmp
    return f"(?:{bmp}|(?=[{_ASTRAL_RANGE}])[{beyond}])"


@lru_cache(maxsize=1)
def _marks() -> list[str]:
    """Every combining mark (Unicode categories Mn, Mc, Me), built once."""
    category = unicodedata.category
    return [char for char in map(chr, range(sys.maxunicode + 1)) if category(char)[0] == "M"]


@lru_cache(maxsize=1)
def combining_marks() -> str:
    """Every combining mark (Unicode categories Mn, Mc, Me) as the inside of a regular-expression class.

    Python's ``\\w`` holds no mark, but a mark belongs to the letter before it (``e`` + U+0301 is ``é``; the
    vowel signs of Devanagari are marks), so a word boundary never falls before one.

    Returns
    -------
    str
        Ranges such as ``\\u0300-\\u036f...`` (built once, on first use).

    Examples
    --------
    >>> re.fullmatch(f"[{combining_marks()}]+", "\\u0301\\u093e") is not None
    True
    """
    return _ranges(_marks())


@lru_cache(maxsize=1)
def word_character() -> str:
    """A regular expression for one character of a word: ``\\w`` or a combining mark (:func:`combining_marks`).

    Returns
    -------
    str
        The expression, as fast in ``re`` as a class of the BMP (the marks beyond it are tried for
        characters beyond it only).

    Examples
    --------
    >>> [bool(re.match(word_character(), c)) for c in "e\\u0301 -"]
    [True, True, False, False]
    """
    return _one_of(_marks(), extra="\\w")


@lru_cache(maxsize=1)
def word_characters() -> re.Pattern[str]:
    """:func:`word_character`, compiled.

    Returns
    -------
    re.Pattern
        The compiled expression.

    Examples
    --------
    >>> [bool(word_characters().match(c)) for c in "e\\u0301 -"]
    [True, True, False, False]
    """
    return re.compile(word_character())


@dataclass(frozen=True)
class _Composing:
    """What :func:`normal_text` looks for (:func:`_composing`)."""

    joiners: frozenset[str]
    bmp: re.Pattern[str]
    any: re.Pattern[str]


@lru_cache(maxsize=1)
def _composing() -> _Composing:
    """The stretches of text that NFC may change, each cut where NFC never joins across.

    A stretch starts with a character that NFC replaces even alone (``Å`` the Ångström sign, the Devanagari
    ``क़``) or with a joiner, and goes on over the joiners after it; joiners are combining marks and the Hangul
    vowel and final jamo. A stretch that starts with a joiner also holds the character before it (which NFC may
    join it to). Every other character is left alone by NFC and never joined with what stands before it, so NFC
    of a text is NFC of each stretch, the rest as it is. ``bmp`` is the pattern for text without characters
    beyond the BMP (a bitmap in ``re``, many times faster), ``any`` for every text.
    """
    is_normalized = unicodedata.is_normalized
    alone = [char for char in map(chr, range(sys.maxunicode + 1)) if not is_normalized("NFC", char)]
    joiners = [*_marks(), *_HANGUL_JOINERS]
    starts = sorted({*alone, *joiners})
    return _Composing(
        frozenset(joiners),
        re.compile(f"{_one_of(starts, astral=False)}{_one_of(joiners, astral=False)}*"),
        re.compile(f"{_one_of(starts)}{_one_of(joiners)}*"),
    )


class OffsetMap:
    """Maps offsets in a rewritten text back to the text it was made from.

    The rewritten text is the original with some stretches replaced (a character by its case fold, a
    decomposed letter by its composed form); an offset inside a replacement has no original offset.

    Parameters
    ----------
    starts, ends : list of int
        Where each replacement starts and ends in the rewritten text, in order.
    originals : list of int
        Where each replaced stretch starts in the original.
    shifts : list of int
        The rewritten text's length minus the original's, up to the end of each replacement.

    Examples
    --------
    >>> offsets = OffsetMap([3], [4], [3], [-1])   # "cafe\\u0301!" -> "caf\\xe9!"
    >>> offsets.original(3), offsets.original(4), offsets.original(5)
    (3, 5, 6)
    """

    def __init__(self, starts: list[int], ends: list[int], originals: list[int], shifts: list[int]) -> None:
        self._starts = starts
        self._ends = ends
        self._originals = originals
        self._shifts = shifts

    def original(self, offset: int) -> int | None:
        """The offset in the original text of ``offset`` of the rewritten text.

        Parameters
        ----------
        offset : int
            An offset in the rewritten text (``0 <= offset <= len(rewritten text)``).

        Returns
        -------
        int or None
            The original offset, or ``None`` when ``offset`` lies inside a replacement.
        """
        index = bisect_right(self._starts, offset) - 1
        if index < 0:
            return offset
        if offset < self._ends[index]:
            return self._originals[index] if offset == self._starts[index] else None
        return offset - self._shifts[index]


class FoldedOffsets(OffsetMap):
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
        starts: list[int] = []
        ends: list[int] = []
        originals: list[int] = []
        shifts: list[int] = []
        shift = 0
        for hit in expanding_characters().finditer(text):
            start = hit.start() + shift
            length = len(hit.group().casefold())
            shift += length - 1
            starts.append(start)
            ends.append(start + length)
            originals.append(hit.start())
            shifts.append(shift)
        super().__init__(starts, ends, originals, shifts)


@dataclass(frozen=True)
class ChainedOffsets:
    """Maps offsets back through two rewrites: ``outer`` made the text that ``inner`` maps back to the original.

    Parameters
    ----------
    outer, inner : OffsetMap
        The last rewrite's map, and the first's.

    Examples
    --------
    >>> text = "STRAẞE cafe\\u0301"
    >>> composed, inner = normal_text(text)
    >>> folded, outer = fold_text(composed)
    >>> offsets = ChainedOffsets(outer, inner)
    >>> start = folded.index("café"); text[offsets.original(start) : offsets.original(start + 4)] == "cafe\\u0301"
    True
    """

    outer: OffsetMap
    inner: OffsetMap

    def original(self, offset: int) -> int | None:
        """The offset in the original text, or ``None`` when it lies inside a replacement of either rewrite.

        Parameters
        ----------
        offset : int
            An offset in the text of the second rewrite.

        Returns
        -------
        int or None
            The original offset.
        """
        middle = self.outer.original(offset)
        return None if middle is None else self.inner.original(middle)


def match_key(form: str, case_sensitive: bool = False) -> str:
    """What a form is compared by: its NFC, case-folded unless ``case_sensitive``.

    Parameters
    ----------
    form : str
        A target word or form.
    case_sensitive : bool
        Keep the case.

    Returns
    -------
    str
        The key: equal for canonically equal forms (``café`` composed or decomposed), and ignoring case for
        forms with the same case fold.

    Examples
    --------
    >>> match_key("Cafe\\u0301") == match_key("CAF\\xc9") == "caf\\xe9"
    True
    """
    composed = unicodedata.normalize("NFC", form)
    return composed if case_sensitive else composed.casefold()


def normal_text(text: str) -> tuple[str, OffsetMap | None]:
    """``text`` in NFC, and the map of its offsets back to ``text`` (``None`` when ``text`` is NFC already).

    Only the stretches that NFC changes are looked at (a regular expression finds them), never each character
    in Python; nearly every text is NFC and costs one check.

    Parameters
    ----------
    text : str
        The original text.

    Returns
    -------
    (str, OffsetMap or None)
        ``unicodedata.normalize("NFC", text)``, and ``None`` or the :class:`OffsetMap` back to ``text``.

    Examples
    --------
    >>> composed, offsets = normal_text("un cafe\\u0301 noir")
    >>> composed == "un caf\\xe9 noir", offsets.original(6), offsets.original(7)  # before and after the é
    (True, 6, 8)
    """
    if unicodedata.is_normalized("NFC", text):
        return text, None
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    originals: list[int] = []
    shifts: list[int] = []
    last = shift = 0
    tables = _composing()
    pattern = tables.any if _ASTRAL.search(text) else tables.bmp
    for hit in pattern.finditer(text):
        start, end = hit.span()
        if start and text[start] in tables.joiners:
            start -= 1  # the character the joiners may join (never part of the stretch before: see _composing)
        cluster = text[start:end]
        composed = unicodedata.normalize("NFC", cluster)
        if composed == cluster:
            continue
        pieces.append(text[last:start])
        pieces.append(composed)
        starts.append(start + shift)
        ends.append(start + shift + len(composed))
        shift += len(composed) - len(cluster)
        originals.append(start)
        shifts.append(shift)
        last = end
    if not starts:
        return text, None
    pieces.append(text[last:])
    return "".join(pieces), OffsetMap(starts, ends, originals, shifts)


def matchable_text(text: str, case_sensitive: bool = False) -> tuple[str, OffsetMap | ChainedOffsets | None]:
    """The text that forms keyed by :func:`match_key` are searched in, and the map of its offsets back to ``text``.

    Parameters
    ----------
    text : str
        The original text.
    case_sensitive : bool
        Keep the case (NFC only).

    Returns
    -------
    (str, map or None)
        NFC of ``text``, case-folded unless ``case_sensitive``; ``None`` when its offsets are those of ``text``.

    Examples
    --------
    >>> matchable_text("Mouse")
    ('mouse', None)
    """
    composed, inner = normal_text(text)
    if case_sensitive:
        return composed, inner
    folded, outer = fold_text(composed)
    if outer is None:
        return folded, inner
    return folded, outer if inner is None else ChainedOffsets(outer, inner)


def fold_text(text: str) -> tuple[str, FoldedOffsets | None]:
    """``text.casefold()``, and the map of its offsets back to ``text`` (``None`` when they are the same).

    Parameters
    ----------
    text : str
        The text to fold (NFC already when :func:`matchable_text` calls it).

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
    pattern, text
        As for :func:`folded_spans`.

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
