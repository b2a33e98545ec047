"""Rendering a :class:`~wsd.report.content.Report` as one self-contained HTML page.

The page needs nothing else: figures are embedded as base64 ``data:`` URIs, the style sheet is inline, there
is no script, and a Content-Security-Policy forbids the browser any other request. Every piece of text is
escaped. Stable hooks for tools and tests: ``<section class="target" data-target=...>``, ``<figure
class="sense-map" data-target=...>`` and ``<section class="sense-card" data-target=... data-sense=...>``.
"""

from __future__ import annotations

import base64
import html
import struct
from pathlib import Path

from wsd.report.content import Example, Image, Report, Section, SenseCard, Table, TargetSection, plural
from wsd.senses.describe import SUBGROUPS_NOTE

#: Cards list their examples per slice open up to this many slices, folded (a click away) beyond.
OPEN_SLICE_EXAMPLES = 8

CONTENT_SECURITY_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

STYLE = """
:root { --ink: #1d232a; --muted: #5b6570; --line: #e3e6ea; --panel: #f7f8fa; --accent: #1f77b4; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff; line-height: 1.45;
       font: 15px/1.45 "DejaVu Sans", "Noto Sans", "Segoe UI", Helvetica, Arial, sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 26px; margin: 0 0 6px; }
h2 { font-size: 21px; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 15px; margin: 0 0 6px; }
ul.facts { list-style: none; padding: 0; margin: 4px 0 12px; color: var(--muted); }
p.facts { color: var(--muted); margin: 2px 0 12px; }
nav.toc { margin: 12px 0; padding: 8px 12px; background: var(--panel); border-radius: 6px; }
nav.toc a { margin-right: 12px; color: var(--accent); text-decoration: none; white-space: nowrap; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 14px; }
caption { text-align: left; color: var(--muted); padding: 4px 0; caption-side: top; }
caption ul.legend { margin: 4px 0 0; padding-left: 18px; font-size: 13px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.totals tr:last-child td { font-weight: 600; border-top: 2px solid var(--line); }
figure { margin: 10px 0 18px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
div.figures { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
div.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 14px; }
section.sense-card { border: 1px solid var(--line); border-left: 6px solid var(--accent); border-radius: 6px;
                     padding: 10px 14px; background: #fff; }
span.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 6px; }
span.size { color: var(--muted); font-weight: normal; font-size: 13px; margin-left: 6px; }
span.status { background: #fff3cd; color: #7a5200; font-size: 12px; margin-left: 8px; padding: 1px 6px;
              border-radius: 3px; }
p.keywords, p.gold { margin: 4px 0; font-size: 13px; }
span.kw { display: inline-block; background: var(--panel); border: 1px solid var(--line); border-radius: 10px;
          padding: 0 8px; margin: 1px 2px; }
span.label { color: var(--muted); margin-right: 4px; }
ol.examples { margin: 6px 0 0; padding-left: 20px; font-size: 13.5px; }
ol.examples li { margin: 3px 0; }
span.cite { color: var(--muted); font-size: 12px; margin-right: 4px; }
span.cite::before { content: "["; } span.cite::after { content: "]"; }
span.slice { display: inline-block; background: var(--panel); border: 1px solid var(--line); border-radius: 3px;
             font-size: 12px; padding: 0 4px; margin-right: 4px; font-variant-numeric: tabular-nums; }
details.slice-examples { margin-top: 6px; font-size: 13px; }
details.slice-examples summary { color: var(--muted); cursor: pointer; }
mark.target-word { background: #ffe58a; padding: 0 2px; border-radius: 2px; font-weight: 600; }
footer { margin-top: 36px; color: var(--muted); font-size: 13px; }
"""


def esc(text: object) -> str:
    """HTML-escape any value (quotes too, so it is safe in attributes).

    Parameters
    ----------
    text : object
        Any value (turned into ``str`` first).

    Returns
    -------
    str
        The escaped text.

    Examples
    --------
    >>> esc('<b title="x">&')
    '&lt;b title=&quot;x&quot;&gt;&amp;'
    """
    return html.escape(str(text), quote=True)


def data_uri(path: Path) -> str:
    """A PNG file as a ``data:image/png;base64,...`` URI.

    Parameters
    ----------
    path : Path
        The PNG file.

    Returns
    -------
    str
        The URI, the whole file base64-encoded.
    """
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def png_size(path: Path) -> tuple[int, int] | None:
    """Width and height of a PNG file from its header, or None if it is not a PNG.

    Parameters
    ----------
    path : Path
        Any file; only its first 24 bytes are read.

    Returns
    -------
    (width, height) or None
        In pixels, from the ``IHDR`` header.
    """
    header = Path(path).read_bytes()[:24]
    if len(header) < 24 or header[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    width, height = struct.unpack(">II", header[16:24])
    return int(width), int(height)


def render_image(image: Image) -> str:
    """A ``<figure>`` with the embedded PNG and its caption.

    Parameters
    ----------
    image : Image
        A PNG on disk with its caption and kind.

    Returns
    -------
    str
        HTML: ``<figure class=kind [data-target=...]>`` with the ``<img>`` (size from the PNG header) and an
        optional ``<figcaption>``.
    """
    target = f' data-target="{esc(image.target)}"' if image.target is not None else ""
    size = png_size(image.path)
    dimensions = f' width="{size[0]}" height="{size[1]}"' if size else ""
    caption = f"<figcaption>{esc(image.caption)}</figcaption>" if image.caption else ""
    return (
        f'<figure class="{esc(image.kind)}"{target}>'
        f'<img src="{data_uri(image.path)}" alt="{esc(image.alt)}"{dimensions}>{caption}</figure>'
    )


def render_table(table: Table) -> str:
    """An HTML table; numeric columns right-aligned.

    Parameters
    ----------
    table : Table
        Header, rows, caption and legend.

    Returns
    -------
    str
        HTML of the ``<table>`` with its caption (and legend, a list inside it), head and body.
    """
    numeric = table.right_aligned()

    def cell(tag: str, text: str, index: int) -> str:
        css = ' class="num"' if numeric[index] else ""
        return f"<{tag}{css}>{esc(text)}</{tag}>"

    css = f' class="{esc(table.css)}"' if table.css else ""
    parts = [f"<table{css}>"]
    if table.caption or table.legend:
        legend = "".join(f"<li>{esc(sentence)}</li>" for sentence in table.legend)
        parts.append(
            f"<caption>{esc(table.caption)}" + (f'<ul class="legend">{legend}</ul>' if legend else "") + "</caption>"
        )
    parts.append("<thead><tr>" + "".join(cell("th", h, i) for i, h in enumerate(table.header)) + "</tr></thead>")
    parts.append("<tbody>")
    for row in table.rows:
        parts.append("<tr>" + "".join(cell("td", c, i) for i, c in enumerate(row)) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def render_card(card: SenseCard) -> str:
    """A sense card: colour swatch, id and size, distinguishing words, gold make-up, examples.

    Parameters
    ----------
    card : SenseCard
        One induced sense: its words, gold make-up and examples.

    Returns
    -------
    str
        HTML: ``<section class="sense-card" data-target=... data-sense=...>``.
    """
    colour = esc(card.colour)
    parts = [
        f'<section class="sense-card" data-target="{esc(card.target)}" data-sense="{card.sense}" '
        f'style="border-left-color: {colour}">',
        f'<h3><span class="swatch" style="background: {colour}"></span>{esc(card.name)}'
        f'<span class="size">{plural(card.size, "occurrence")} · {100 * card.share:.0f}%</span>'
        + (f'<span class="status">{esc(card.status)}</span>' if card.status else "")
        + "</h3>",
    ]
    if card.subgroups:
        parts.append(f'<p class="subgroups">{esc(SUBGROUPS_NOTE)} (sub-group score {card.subgroup_score:.2f})</p>')
    if card.keywords:
        words = "".join(f'<span class="kw">{esc(w)}</span>' for w in card.keywords)
        parts.append(f'<p class="keywords"><span class="label">distinguishing words</span>{words}</p>')
    else:
        parts.append('<p class="keywords"><span class="label">no distinguishing words</span></p>')
    if card.names:  # named from an inventory (--inventory)
        parts.append(f'<p class="names"><span class="label">WordNet names</span>{esc(card.names)}</p>')
    if card.gold:
        makeup = " · ".join(f"{esc(name)} {count}" for name, count in card.gold)
        parts.append(f'<p class="gold"><span class="label">gold senses</span>{makeup}</p>')
    if card.examples:
        parts.append(f'<ol class="examples">{"".join(render_example(e) for e in card.examples)}</ol>')
    if card.slice_examples:
        shown = len({e.slice for e in card.slice_examples})
        opened = " open" if card.slices <= OPEN_SLICE_EXAMPLES else ""
        items = "".join(render_example(e) for e in card.slice_examples)
        parts.append(
            f'<details class="slice-examples"{opened}><summary>Examples per slice (in {shown} of '
            f'{plural(card.slices, "slice")})</summary><ol class="examples by-slice">{items}</ol></details>'
        )
    parts.append("</section>")
    return "".join(parts)


def render_example(example: Example) -> str:
    """One example as a list item: its slice and citation (metadata) first, the target marked; the id as tooltip.

    Parameters
    ----------
    example : Example
        One use: context, target span, metadata.

    Returns
    -------
    str
        HTML: ``<li title=id [data-slice=...]>``; an example without metadata shows its id only as the tooltip.

    Examples
    --------
    >>> render_example(Example("f:1@5", "the ", "bank", ".", source="year 1862"))
    '<li title="f:1@5"><span class="cite">year 1862</span> the <mark class="target-word">bank</mark>.</li>'
    """
    slice_ = f' data-slice="{esc(example.slice)}"' if example.slice else ""
    head = f'<span class="slice">{esc(example.slice)}</span>' if example.slice else ""
    head += f'<span class="cite">{esc(example.source)}</span> ' if example.source else (" " if head else "")
    return (
        f'<li title="{esc(example.id)}"{slice_}>{head}{esc(example.before)}'
        f'<mark class="target-word">{esc(example.word)}</mark>{esc(example.after)}</li>'
    )


def render_target(section: TargetSection) -> str:
    """One target's section: heading, facts, figures, notes, sense cards.

    Parameters
    ----------
    section : TargetSection
        The target's facts, figures, notes and sense cards.

    Returns
    -------
    str
        HTML: ``<section class="target" id=anchor data-target=...>``.
    """
    parts = [
        f'<section class="target" id="{esc(section.anchor)}" data-target="{esc(section.target)}">',
        f"<h2>{esc(section.target)}</h2>",
        f'<p class="facts">{" · ".join(esc(f) for f in section.facts)}</p>',
        '<div class="figures">' + "".join(render_image(i) for i in section.images) + "</div>",
        *[f'<p class="note">{esc(n)}</p>' for n in section.notes],
        '<div class="cards">' + "".join(render_card(c) for c in section.cards) + "</div>",
        "</section>",
    ]
    return "\n".join(parts)


def render_section(section: Section) -> str:
    """A general section: heading, paragraphs, tables, figures.

    Parameters
    ----------
    section : Section
        Paragraphs, tables and figures of one section.

    Returns
    -------
    str
        HTML: ``<section class="report-section" id=anchor>``.
    """
    parts = [f'<section class="report-section" id="{esc(section.anchor)}">', f"<h2>{esc(section.title)}</h2>"]
    parts += [f"<p>{esc(p)}</p>" for p in section.paragraphs]
    parts += [render_table(t) for t in section.tables]
    if section.images:
        parts.append('<div class="figures">' + "".join(render_image(i) for i in section.images) + "</div>")
    parts.append("</section>")
    return "\n".join(parts)


def render_html(report: Report) -> str:
    """The whole page as a string (UTF-8 text; no external resource of any kind).

    Parameters
    ----------
    report : Report
        Everything the page shows, built by :func:`~wsd.report.build.write_report`.

    Returns
    -------
    str
        The HTML document: header with facts, a table of contents (for more than one section), the
        summary table, the sections, one section per target, the notes.
    """
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CONTENT_SECURITY_POLICY)}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="wsd">',
        f"<title>{esc(report.title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<main>",
        "<header>",
        f"<h1>{esc(report.title)}</h1>",
    ]
    if report.facts:
        parts.append('<ul class="facts">' + "".join(f"<li>{esc(f)}</li>" for f in report.facts) + "</ul>")
    parts.append("</header>")
    links = [(s.anchor, s.title) for s in report.sections] + [(t.anchor, t.target) for t in report.targets]
    if len(links) > 1:
        parts.append(
            '<nav class="toc">' + "".join(f'<a href="#{esc(a)}">{esc(label)}</a>' for a, label in links) + "</nav>"
        )
    if report.summary is not None:
        parts.append('<section class="summary" id="summary"><h2>Summary</h2>')
        parts.append(render_table(report.summary))
        parts.append("</section>")
    parts += [render_section(s) for s in report.sections]
    parts += [render_target(t) for t in report.targets]
    if report.notes:
        parts.append("<footer>" + "".join(f"<p>{esc(n)}</p>" for n in report.notes) + "</footer>")
    parts += ["</main>", "</body>", "</html>", ""]
    return "\n".join(parts)
