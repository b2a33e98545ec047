"""mkdocs hooks of the wsd docs: figures from ``experiments/results``, the configuration reference from the schema.

Two directives, each an HTML comment on a line of its own (invisible where Markdown is read on GitHub):

- ``<!-- results: FILE[#SECTION][ table N] -->`` includes ``experiments/results/FILE``: the section under the
  heading whose slug is ``SECTION`` (else the whole file below its title), or only its N-th table, followed by a
  line naming the file. So a page's figures are the results file's, never copies. ``FILE`` is the file's path
  in ``experiments/results``: ``EXPERIMENT/NAME.md`` (each experiment's results are in a folder named after its
  script) or a plain ``NAME.md``.
- ``<!-- results-index -->`` lists every results file with its title and the command that made it.
- ``<!-- wsd:options -->`` includes :func:`wsd.schema.reference_markdown` of :data:`wsd.options.OPTION_LIST`:
  every option, from its declaration.

The results files are published with the site (``results/FILE``, folders kept), and a page's links to
``../experiments/results/FILE`` point there. A directive naming a file, section or table that does not exist
stops the build.
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "experiments" / "results"
#: Where the results files are published in the site.
SITE_RESULTS = "results"
RESULTS_DIRECTIVE = re.compile(
    r"^<!--\s*results:\s*(?P<file>(?:[\w\-]+/)?[\w.\-]+\.md)(?:#(?P<section>[\w\-]+))?"
    r"(?:\s+table\s+(?P<table>\d+))?\s*-->[ \t]*$",
    re.M,
)
OPTIONS_DIRECTIVE = re.compile(r"^<!--\s*wsd:options\s*-->[ \t]*$", re.M)
INDEX_DIRECTIVE = re.compile(r"^<!--\s*results-index\s*-->[ \t]*$", re.M)
RESULTS_LINK = re.compile(r"\]\((?:\.\./)+experiments/results/")
RELATIVE_LINK = re.compile(r"\]\((?![a-z]+:|#|/)([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def slug(text: str) -> str:
    """The slug of a heading: lower case, runs of anything but letters and digits as one dash.

    Parameters
    ----------
    text : str
        The heading's text.

    Returns
    -------
    str

    Examples
    --------
    >>> slug("Sampled vs exact fit")
    'sampled-vs-exact-fit'
    """
    return re.sub(r"[\W_]+", "-", text.lower()).strip("-")


def results_files() -> list[Path]:
    """Every results page: ``experiments/results/*.md`` and ``experiments/results/*/*.md``, sorted by path.

    Returns
    -------
    list of Path
    """
    return sorted([*RESULTS.glob("*.md"), *RESULTS.glob("*/*.md")])


def results_excerpt(name: str, section: str | None = None, table: int | None = None) -> str:
    """Part of a results file: a section (by its heading's slug) or the whole body, or only its N-th table.

    Parameters
    ----------
    name : str
        The file's path in ``experiments/results``: ``EXPERIMENT/NAME.md`` or ``NAME.md``.
    section : str, optional
        The slug of a heading (:func:`slug`); None: the whole file below its title.
    table : int, optional
        1 for the first Markdown table of that part, 2 for the second, ...; None: all of it.

    Returns
    -------
    str
        Markdown, its relative links still relative to the file's folder.

    Raises
    ------
    ValueError
        The file, section or table does not exist.
    """
    path = RESULTS / name
    if ".." in Path(name).parts or not path.is_file():
        moved = [p.relative_to(RESULTS).as_posix() for p in RESULTS.glob(f"*/{Path(name).name}")]
        hint = f" (see {', '.join(moved)})" if moved and moved != [name] else ""
        raise ValueError(f"experiments/results/{name} does not exist{hint}")
    lines = path.read_text(encoding="utf-8").splitlines()
    headings = [(at, len(m[1]), m[2]) for at, line in enumerate(lines) if (m := HEADING.match(line))]
    if section is None:
        start = headings[0][0] + 1 if headings and headings[0][1] == 1 else 0
        part = lines[start:]
    else:
        found = [(at, level) for at, level, text in headings if slug(text) == section]
        if not found:
            known = ", ".join(slug(text) for _, _, text in headings)
            raise ValueError(f"experiments/results/{name} has no section #{section} (it has: {known})")
        at, level = found[0]
        end = next((later for later, lvl, _ in headings if later > at and lvl <= level), len(lines))
        part = lines[at + 1 : end]
    if table is not None:
        tables: list[list[str]] = []
        for previous, line in zip(["", *part], part, strict=False):
            if line.startswith("|"):
                if not previous.startswith("|"):
                    tables.append([])
                tables[-1].append(line)
        if not 1 <= table <= len(tables):
            where = f"#{section}" if section else ""
            raise ValueError(f"experiments/results/{name}{where} has {len(tables)} tables, not table {table}")
        part = tables[table - 1]
    return "\n".join(part).strip("\n")


def results_index(prefix: str = "") -> str:
    """A table of every results file: its title and the command that made it (its ``- Command:`` line).

    Parameters
    ----------
    prefix : str
        The way from the page's folder to the site's root.

    Returns
    -------
    str
        A Markdown table.
    """
    rows = ["| file | what | command |", "|---|---|---|"]
    for path in results_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        title = next((m[2] for line in lines if (m := HEADING.match(line))), path.stem)
        command = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("- Command:")), "")
        name = path.relative_to(RESULTS).as_posix()
        link = f"[{name}]({prefix}{SITE_RESULTS}/{name})"
        rows.append(f"| {link} | {title.replace('|', '&#124;')} | {command.replace('|', '&#124;')} |")
    return "\n".join(rows) + "\n"


def _prefix(page: Any) -> str:
    """The way from a page's folder up to the site's root (``""`` for ``docs/x.md``, ``"../"`` for ``api/x.md``)."""
    return "../" * page.file.src_uri.count("/")


def expand(markdown: str, prefix: str = "") -> str:
    """A page's Markdown with its directives replaced and its links to ``experiments/results`` pointed at the site.

    Parameters
    ----------
    markdown : str
        The page's text.
    prefix : str
        The way from the page's folder to the site's root.

    Returns
    -------
    str
    """

    def include(match: re.Match[str]) -> str:
        table = int(match["table"]) if match["table"] else None
        try:
            text = results_excerpt(match["file"], match["section"], table)
        except ValueError as exc:
            raise PluginError(f"{match.group(0)}: {exc}") from exc
        folder = posixpath.dirname(match["file"])
        text = RELATIVE_LINK.sub(lambda link: f"]({prefix}{posixpath.join(SITE_RESULTS, folder, link[1])})", text)
        source = f"{prefix}{SITE_RESULTS}/{match['file']}"
        return f"{text}\n\n<small>From [`experiments/results/{match['file']}`]({source}).</small>\n"

    def options(_: re.Match[str]) -> str:
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        from wsd.options import OPTION_LIST
        from wsd.schema import reference_markdown

        return reference_markdown(OPTION_LIST)

    markdown = RESULTS_DIRECTIVE.sub(include, markdown)
    markdown = INDEX_DIRECTIVE.sub(lambda _: results_index(prefix), markdown)
    markdown = OPTIONS_DIRECTIVE.sub(options, markdown)
    return RESULTS_LINK.sub(f"]({prefix}{SITE_RESULTS}/", markdown)


def on_files(files: Files, config: Any) -> Files:
    """Publish every ``experiments/results/[EXPERIMENT/]NAME.md`` as ``results/[EXPERIMENT/]NAME`` (mkdocs hook)."""
    for path in results_files():
        name = path.relative_to(RESULTS).as_posix()
        files.append(File.generated(config, f"{SITE_RESULTS}/{name}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Expand the directives of a page (mkdocs hook)."""
    return expand(markdown, _prefix(page))
