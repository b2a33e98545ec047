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
    """

    path: Path
    alt: str
    kind: str
    caption: str = ""
    target: str | None = None


@dataclass
class Table:
    """A table of text cells; ``numeric[i]`` right-aligns column i."""

    header: list[str]
    rows: list[list[str]]
    numeric: list[bool] = field(default_factory=list)
    caption: str = ""
    css: str = ""


@dataclass
class Example:
    """One context of a sense card: the text before the target, the target as written, the text after."""

    id: str
    before: str
    word: str
    after: str


@dataclass
class SenseCard:
    """An induced sense: its size, distinguishing words, examples and (with gold labels) its gold make-up."""

    target: str
    sense: int
    size: int
    share: float
    colour: str
    keywords: list[str]
    examples: list[Example]
    gold: list[tuple[str, int]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The sense id used in labels (``mouse.0``)."""
        return f"{self.target}.{self.sense}"


@dataclass
class TargetSection:
    """Everything about one target word: facts line, sense map, confusion heatmap, sense cards."""

    target: str
    anchor: str
    facts: list[str]
    images: list[Image]
    cards: list[SenseCard]
    notes: list[str] = field(default_factory=list)


@dataclass
class Section:
    """A general section (evaluation, experiments): paragraphs, tables and figures in that order."""

    title: str
    anchor: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    images: list[Image] = field(default_factory=list)


@dataclass
class Report:
    """A whole report: title, facts about the run, the summary table, sections, then one section per target."""

    title: str
    facts: list[str]
    summary: Table | None
    sections: list[Section] = field(default_factory=list)
    targets: list[TargetSection] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def fmt_score(value: Any, digits: int = 3) -> str:
    """A score for a table: fixed decimals, ``–`` when missing or NaN.

    >>> fmt_score(0.12345), fmt_score(float("nan")), fmt_score(None)
    ('0.123', '–', '–')
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return f"{value:.{digits}f}"
    return "–"


def example_parts(text: str, start: int, end: int, context_chars: int = EXAMPLE_CONTEXT_CHARS) -> tuple[str, str, str]:
    """Split a context at the target span, keeping about ``context_chars`` characters either side.

    Whitespace runs become single spaces; cut ends get an ellipsis.

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

    >>> plural(1, "gold sense"), plural(3, "occurrence")
    ('1 gold sense', '3 occurrences')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def slug(text: str, limit: int = 40) -> str:
    """An ASCII file-name fragment (letters, digits, ``-``), possibly empty for other scripts.

    >>> slug("add.v"), slug("замок")
    ('add-v', '')
    """
    kept = "".join(c if (c.isascii() and c.isalnum()) else "-" for c in text)
    return "-".join(part for part in kept.split("-") if part)[:limit]
