"""Rendering a :class:`~wsd.report.content.Report` as Markdown, with the figures linked as relative PNG paths.

Each ``render_*`` function renders one content object of :mod:`wsd.report.content`, as its namesake in
:mod:`wsd.report.html_page` does for the HTML page.
"""

from __future__ import annotations

import os
from pathlib import Path

from wsd.report.content import Example, Image, Report, Section, SenseCard, Table, TargetSection, plural
from wsd.senses.describe import SUBGROUPS_NOTE

_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|#"})


def md(text: object) -> str:
    """Markdown-escape inline text (emphasis, links, HTML, table pipes) and fold it onto one line.

    Parameters
    ----------
    text : object
        Cell or inline text; ``str(text)`` is escaped.

    Returns
    -------
    str
        The text with white-space runs folded to single spaces and Markdown's special characters escaped.

    Examples
    --------
    >>> md("a_b | <c>")
    'a\\\\_b \\\\| \\\\<c\\\\>'
    """
    return " ".join(str(text).split()).translate(_SPECIAL)


def render_table(table: Table) -> list[str]:
    """A pipe table; numeric columns right-aligned.

    Parameters
    ----------
    table : Table
        Caption, legend, header and rows.

    Returns
    -------
    list of str
        Lines: the caption in italics (if any), the legend as a list (if any), the header, the alignment row,
        the rows, a blank line.
    """
    numeric = table.right_aligned()
    lines = [f"*{md(table.caption)}*", ""] if table.caption else []
    if table.legend:
        lines += [*(f"- {md(sentence)}" for sentence in table.legend), ""]
    lines.append("| " + " | ".join(md(h) for h in table.header) + " |")
    lines.append("|" + "|".join("---:" if n else "---" for n in numeric) + "|")
    lines += ["| " + " | ".join(md(c) for c in row) + " |" for row in table.rows]
    lines.append("")
    return lines


def render_image(image: Image, base: Path) -> list[str]:
    """An image line (path relative to the report folder) and its caption.

    Parameters
    ----------
    image : Image
        The figure.
    base : Path
        The folder of ``report.md``; the link is relative to it.

    Returns
    -------
    list of str
        Lines: the image, the caption in italics (if any), with blank lines between.
    """
    relative = Path(os.path.relpath(image.path, base)).as_posix()
    lines = [f"![{md(image.alt)}]({relative})", ""]
    if image.caption:
        lines += [f"*{md(image.caption)}*", ""]
    return lines


def render_card(card: SenseCard) -> list[str]:
    """A sense card as a heading, its words, gold make-up and numbered examples (target in bold).

    Parameters
    ----------
    card : SenseCard
        One sense: words, gold make-up, examples.

    Returns
    -------
    list of str
        Lines of Markdown.
    """
    status = f" — **{md(card.status)}**" if card.status else ""
    lines = [f"#### {md(card.name)} — {plural(card.size, 'occurrence')} ({100 * card.share:.0f}%){status}", ""]
    words = ", ".join(md(w) for w in card.keywords) or "none"
    lines.append(f"Distinguishing words: {words}")
    if card.subgroups:
        lines += ["", f"**{md(SUBGROUPS_NOTE)}** (sub-group score {card.subgroup_score:.2f})"]
    if card.names:  # named from an inventory (--inventory)
        lines += ["", f"WordNet names: {md(card.names)}"]
    if card.gold:
        lines += ["", "Gold senses: " + ", ".join(f"{md(name)} {count}" for name, count in card.gold)]
    lines.append("")
    lines += [f"{i}. {render_example(e)}" for i, e in enumerate(card.examples, start=1)]
    lines.append("")
    if card.slice_examples:
        shown = len({e.slice for e in card.slice_examples})
        lines += [f"Examples per slice (in {shown} of {plural(card.slices, 'slice')}):", ""]
        lines += [f"- {render_example(e)}" for e in card.slice_examples]
        lines.append("")
    return lines


def render_example(example: Example) -> str:
    """One example: its slice and citation (metadata, in brackets) first, then the context with the target in bold.

    Parameters
    ----------
    example : Example
        One use, with its citation.

    Returns
    -------
    str
        One line of Markdown.

    Examples
    --------
    >>> render_example(Example("f:1@5", "the ", "bank", " closed", source="year 1862", slice="1860:1869"))
    '**1860:1869** \\\\[year 1862\\\\] the **bank** closed'
    """
    head = f"**{md(example.slice)}** " if example.slice else ""
    head += f"{md(f'[{example.source}]')} " if example.source else ""
    before = md(example.before) + (" " if example.before[-1:].isspace() else "")
    after = (" " if example.after[:1].isspace() else "") + md(example.after)
    return f"{head}{before}**{md(example.word)}**{after}"


def render_target(section: TargetSection, base: Path) -> list[str]:
    """One target: heading, facts, figures, notes, cards.

    Parameters
    ----------
    section : TargetSection
        One target's facts, figures, notes and cards.
    base : Path
        The folder of ``report.md`` (figure links are relative to it).

    Returns
    -------
    list of str
        Lines of Markdown.
    """
    lines = [f"## {md(section.target)}", "", " · ".join(md(f) for f in section.facts), ""]
    for image in section.images:
        lines += render_image(image, base)
    for note in section.notes:
        lines += [md(note), ""]
    lines += ["### Sense cards", ""]
    for card in section.cards:
        lines += render_card(card)
    return lines


def render_section(section: Section, base: Path) -> list[str]:
    """A general section: heading, paragraphs, tables, figures.

    Parameters
    ----------
    section : Section
        Paragraphs, tables and figures.
    base : Path
        As for :func:`render_target`.

    Returns
    -------
    list of str
        Lines of Markdown.
    """
    lines = [f"## {md(section.title)}", ""]
    for paragraph in section.paragraphs:
        lines += [md(paragraph), ""]
    for table in section.tables:
        lines += render_table(table)
    for image in section.images:
        lines += render_image(image, base)
    return lines


def render_markdown(report: Report, base: str | os.PathLike[str]) -> str:
    """The whole report as Markdown; figure links are relative to ``base`` (the folder of ``report.md``).

    Parameters
    ----------
    report : Report
        What the document shows.
    base : str or os.PathLike
        The folder that ``report.md`` is written to.

    Returns
    -------
    str
        The Markdown document, ending with one newline.
    """
    base = Path(base)
    lines = [f"# {md(report.title)}", ""]
    lines += [f"- {md(fact)}" for fact in report.facts]
    if report.facts:
        lines.append("")
    if report.summary is not None:
        lines += ["## Summary", "", *render_table(report.summary)]
    for section in report.sections:
        lines += render_section(section, base)
    for target in report.targets:
        lines += render_target(target, base)
    lines += [md(note) for note in report.notes]
    return "\n".join(lines).rstrip() + "\n"
