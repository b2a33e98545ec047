"""The report's content as plain data (tables, figures, sense cards), rendered alike to HTML and Markdown.

The builder (:mod:`wsd.report.build`) fills a :class:`Report`; :mod:`wsd.report.html_page` and
:mod:`wsd.report.markdown_page` turn it into text. Strings here are raw text: each renderer escapes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EXAMPLE_CONTEXT_CHARS = 110
"""Characters of context kept on each side of the target in a sense card example."""


@dataclass
class Image:
    """A PNG figure of the report.

    ``kind`` is a CSS class (``sense-map``, ``confusion``, ``scores``, ``experiment``); ``target`` the
    target word it shows, if any.

    Parameters
    ----------
    path : Path
        The PNG file.
    alt : str
        Alternative text.
    kind : str
        CSS class of the figure.
    caption : str
        Caption under the figure (may be empty).
    target : str or None
        The target word the figure shows.
    """

    path: Path
    alt: str
    kind: str
    caption: str = ""
    target: str | None = None


@dataclass
class Table:
    """A table of text cells; ``numeric[i]`` right-aligns column i.

    Parameters
    ----------
    header : list of str
        Column titles.
    rows : list of list of str
        The cells, row by row (as long as ``header``).
    numeric : list of bool
        Per column, whether it is right-aligned (missing entries: left-aligned).
    caption : str
        Caption above the table (may be empty).
    css : str
        CSS classes of the HTML table.
    legend : list of str
        Sentences under the caption, above the header: what the columns mean, and notes on reading them.
    """

    header: list[str]
    rows: list[list[str]]
    numeric: list[bool] = field(default_factory=list)
    caption: str = ""
    css: str = ""
    legend: list[str] = field(default_factory=list)

    def right_aligned(self) -> list[bool]:
        """Whether each column of the header is right-aligned (``numeric``, padded with ``False``).

        Returns
        -------
        list of bool
            As long as ``header``.

        Examples
        --------
        >>> Table(["name", "score"], [], [False, True]).right_aligned(), Table(["a", "b"], []).right_aligned()
        ([False, True], [False, False])
        """
        return self.numeric + [False] * (len(self.header) - len(self.numeric))


@dataclass
class Example:
    """One context of a sense card: the text before the target, the target as written, the text after.

    Parameters
    ----------
    id : str
        The occurrence id (``file:line@offset`` for corpora): shown where the occurrence has no metadata.
    before, word, after : str
        The context split at the target (see :func:`example_parts`).
    source : str
        Its metadata as a citation (``year 1862 · president Lincoln``, :func:`wsd.occurrences.citations`);
        empty when the run kept none.
    slice : str
        The slice it was chosen for (examples per slice); empty for the sense's own examples.
    """

    id: str
    before: str
    word: str
    after: str
    source: str = ""
    slice: str = ""

    @property
    def cite(self) -> str:
        """What the example is cited by: its metadata, else its occurrence id."""
        return self.source or self.id


@dataclass
class SenseCard:
    """An induced sense: its size, distinguishing words, examples and (with gold labels) its gold make-up.

    Parameters
    ----------
    target : str
        The target word.
    sense : int
        The sense's label.
    size : int
        Its number of occurrences.
    share : float
        Its share of the target's occurrences.
    colour : str
        Its colour in the figures (``#rrggbb``).
    keywords : list of str
        Words that set it apart from the target's other senses.
    examples : list of Example
        Example contexts.
    gold : list of (str, int)
        Gold senses among its occurrences and their counts, most frequent first (empty without gold).
    status : str
        How the sense changed between slices (``new in 1985:2020``, ``lost after 1850:1984``); empty if not.
    slice_examples : list of Example
        Its most typical uses in each slice (with a change folder), in slice order, each with its ``slice``.
    slices : int
        How many slices the run was cut into (0 without a change folder).
    names : str
        Its names from a sense inventory (``--inventory``): ``mixture: 55% ≈ bank.n.02 (…), 40% ≈ bank.n.01 (…)``;
        empty when the senses were not named.
    subgroups : bool
        Whether its uses form sub-groups (:func:`wsd.senses.subgroups.subgroup_test`): perhaps more than one meaning.
    subgroup_score : float
        The test's score (NaN when untested).
    """

    target: str
    sense: int
    size: int
    share: float
    colour: str
    keywords: list[str]
    examples: list[Example]
    gold: list[tuple[str, int]] = field(default_factory=list)
    status: str = ""
    slice_examples: list[Example] = field(default_factory=list)
    slices: int = 0
    names: str = ""
    subgroups: bool = False
    subgroup_score: float = float("nan")

    @property
    def name(self) -> str:
        """The sense id used in labels (``mouse.0``)."""
        return f"{self.target}.{self.sense}"


@dataclass
class TargetSection:
    """Everything about one target word: facts line, sense map, confusion heatmap, sense cards.

    Parameters
    ----------
    target : str
        The target word.
    anchor : str
        HTML id of the section.
    facts : list of str
        One-line facts (occurrences, senses, scores).
    images : list of Image
        Its figures.
    cards : list of SenseCard
        One per induced sense.
    notes : list of str
        Remarks shown under the figures (e.g. a figure that could not be drawn).
    """

    target: str
    anchor: str
    facts: list[str]
    images: list[Image]
    cards: list[SenseCard]
    notes: list[str] = field(default_factory=list)


@dataclass
class Section:
    """A general section (evaluation, experiments): paragraphs, tables and figures in that order.

    Parameters
    ----------
    title : str
        The section heading.
    anchor : str
        HTML id of the section.
    paragraphs : list of str
        Text paragraphs.
    tables : list of Table
        Tables.
    images : list of Image
        Figures.
    """

    title: str
    anchor: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)


@dataclass
class Report:
    """A whole report: title, facts about the run, the summary table, sections, then one section per target.

    Parameters
    ----------
    title : str
        The report's title.
    facts : list of str
        One-line facts about the run (:func:`wsd.report.build.run_facts`).
    summary : Table or None
        The per-target summary table (None for an experiments report).
    sections : list of Section
        General sections (evaluation, experiments).
    targets : list of TargetSection
        One per target word.
    notes : list of str
        Remarks at the end of the report.
    """

    title: str
    facts: list[str]
    summary: Table | None
    sections: list[Section] = field(default_factory=list)
    targets: list[TargetSection] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def fmt_score(value: Any, digits: int = 3) -> str:
    """A score for a table: fixed decimals, ``–`` when missing or NaN.

    Parameters
    ----------
    value : Any
        The score (a number; anything else, booleans and non-finite numbers show as ``–``).
    digits : int
        Decimals shown.

    Returns
    -------
    str
        The formatted score.

    Examples
    --------
    >>> fmt_score(0.12345), fmt_score(float("nan")), fmt_score(None)
    ('0.123', '–', '–')
    """
    return f"{value:.{digits}f}" if is_number(value) else "–"


def is_number(value: Any) -> bool:
    """True for a finite int/float (not bool, not NaN).

    Parameters
    ----------
    value : Any
        Anything.

    Returns
    -------
    bool
        Whether ``value`` is a finite number.

    Examples
    --------
    >>> is_number(0.5), is_number(float("nan")), is_number(None)
    (True, False, False)
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def example_parts(text: str, start: int, end: int, context_chars: int = EXAMPLE_CONTEXT_CHARS) -> tuple[str, str, str]:
    """Split a context at the target span, keeping about ``context_chars`` characters either side.

    Whitespace runs become single spaces; cut ends get an ellipsis.

    Parameters
    ----------
    text : str
        The context.
    start, end : int
        The target's span in ``text`` (end exclusive).
    context_chars : int
        Characters kept on each side, at most (plus the ellipsis).

    Returns
    -------
    before, word, after : str
        The text before the target, the target as written, the text after.

    Examples
    --------
    >>> example_parts("a  long text with the bank in it", 22, 26, context_chars=9)
    ('…with the ', 'bank', ' in it')
    """
    before, word, after = text[:start], text[start:end], text[end:]
    before = " ".join(before.split()) + (" " if before[-1:].isspace() else "")
    after = (" " if after[:1].isspace() else "") + " ".join(after.split())
    if len(before) > context_chars:
        before = "…" + before[-context_chars:].lstrip()
    if len(after) > context_chars:
        after = after[:context_chars].rstrip() + "…"
    return before, word, after


def example_from_marked(text: str, mark: tuple[str, str] = ("[[", "]]")) -> tuple[str, int, int]:
    """Text and target span from a marked example (``"the [[bank]] closed"``); the whole text if unmarked.

    Parameters
    ----------
    text : str
        The example, the target between the two marks.
    mark : (str, str)
        The opening and closing marks.

    Returns
    -------
    text : str
        The example without the marks.
    start, end : int
        The target's span in it; ``(0, 0)`` (and the text unchanged) when it is not marked.

    Examples
    --------
    >>> example_from_marked("the [[bank]] closed")
    ('the bank closed', 4, 8)
    """
    open_at = text.find(mark[0])
    close_at = text.find(mark[1], open_at + len(mark[0])) if open_at >= 0 else -1
    if open_at < 0 or close_at < 0:
        return text, 0, 0
    word = text[open_at + len(mark[0]) : close_at]
    plain = text[:open_at] + word + text[close_at + len(mark[1]) :]
    return plain, open_at, open_at + len(word)


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an ``s`` unless the count is one.

    Parameters
    ----------
    count : int
        How many.
    word : str
        What, in the singular.

    Returns
    -------
    str
        ``"<count> <word>[s]"``.

    Examples
    --------
    >>> plural(1, "gold sense"), plural(3, "occurrence")
    ('1 gold sense', '3 occurrences')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def slug(text: str, limit: int = 40) -> str:
    """An ASCII file-name fragment (letters, digits, ``-``), possibly empty for other scripts.

    Parameters
    ----------
    text : str
        Any text (a target word).
    limit : int
        Maximum length of the result.

    Returns
    -------
    str
        ASCII letters and digits of ``text``, other runs of characters replaced by one ``-``, no ``-`` at
        either end.

    Examples
    --------
    >>> slug("add.v"), slug("замок")
    ('add-v', '')
    """
    kept = "".join(c if (c.isascii() and c.isalnum()) else "-" for c in text)
    return "-".join(part for part in kept.split("-") if part)[:limit]
