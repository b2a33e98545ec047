"""The docs site: it builds strictly, its figures come from experiments/results, its reference from the schema."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from wsd.options import OPTION_LIST
from wsd.schema import reference_markdown

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")


def _hooks():
    spec = importlib.util.spec_from_file_location("wsd_docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _hooks()


def test_the_reference_lists_every_option_of_the_schema() -> None:
    page = hooks.expand((DOCS / "configuration.md").read_text(encoding="utf-8"))
    assert "<!-- wsd:options -->" not in page
    for option in OPTION_LIST:
        flags = ", ".join(f"`{flag}`" for flag in option.option_strings)
        if option.config:
            assert f"| `{option.key}` | {flags or '(file only)'}" in page, option.name
        else:
            assert f"\n| {flags}" in page, option.name
        assert re.split(r"[<>|_*]", option.help)[0][:30] in page, option.name
    sections = {option.section for option in OPTION_LIST if option.config}
    assert all(f"### `[{section}]`" in page for section in sections)


def test_the_reference_follows_the_declarations() -> None:
    option = OPTION_LIST[0]
    changed = type(option)(**{**option.__dict__, "default": "somewhere/else", "unset": None})
    assert '`"somewhere/else"`' in reference_markdown((changed,))
    assert '`"somewhere/else"`' not in reference_markdown(OPTION_LIST)


def test_a_results_directive_includes_the_section_or_table_of_the_file() -> None:
    summary = hooks.results_excerpt("ablate/quality.md", "summary")
    assert summary.startswith("| dataset | metric | textbook | new default | change |")
    expanded = hooks.expand("x\n\n<!-- results: ablate/quality.md#other-encoders table 1 -->\n", prefix="")
    assert "| encoder | dataset | metric |" in expanded and "](results/ablate/quality-semeval2013-all-mpnet" in expanded
    assert "From [`experiments/results/ablate/quality.md`](results/ablate/quality.md)" in expanded
    table = hooks.results_excerpt("bench_embed/bench_embed.md", table=1)
    lines = table.splitlines()
    assert lines[0].startswith("| contender |") and all(line.startswith("|") for line in lines)


@pytest.mark.parametrize(
    ("directive", "message"),
    [
        ("<!-- results: no-such-file.md -->", "does not exist"),
        ("<!-- results: ablate/quality.md#no-such-section -->", "has no section #no-such-section"),
        ("<!-- results: lscd_rank_by/lscd_rank_by.md table 9 -->", "not table 9"),
    ],
)
def test_a_directive_that_names_nothing_stops_the_build(directive: str, message: str) -> None:
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match=message):
        hooks.expand(directive + "\n")


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda page: str(page.relative_to(DOCS)))
def test_every_directive_of_every_page_resolves(page: Path) -> None:
    expanded = hooks.expand(page.read_text(encoding="utf-8"))
    assert not re.search(r"^<!--\s*(results:|results-index|wsd:options)", expanded, flags=re.M)
    assert "../experiments/results/" not in expanded  # pointed at the published copies


def test_the_readme_results_table_is_the_results_files() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if re.match(r"^\| (semeval|russe)", line)]
    assert len(rows) >= 5
    summary = hooks.results_excerpt("ablate/quality.md", "summary").splitlines()
    assert rows == [line for line in summary if re.match(r"^\| (semeval|russe)", line)]


def test_the_docs_pages_name_no_figure_table_by_hand_that_a_results_file_holds() -> None:
    """The tables the README once copied by hand are included now: their header rows appear in no page."""
    copied_headers = ["| contender | occurrences/s | wsd is × faster |", "| encoder | benchmark | metric |"]
    for page in DOCS.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert not any(header in text for header in copied_headers), page


#: Decimal figures a page may write without a results file: published figures that a test reproduces.
PUBLISHED_FIGURES = {
    # SemEval-2010's MFS paired F-score and one-cluster-per-instance V-measure (all / nouns / verbs), as published:
    # tests/test_metrics_semeval2010.py reproduces them from the official keys.
    "evaluation.md": {"63.4", "57.0", "72.8", "31.7", "35.8", "25.6"},
}
DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")


def _prose(text: str) -> str:
    """A page without its code blocks, inline code, HTML comments and version numbers (not figures)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"Python [≥>=]*\s*\d+\.\d+", "", text)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def test_every_decimal_figure_on_a_page_is_in_a_results_file() -> None:
    """A figure typed by hand on a page must be one that a results file holds (so it was measured and kept)."""
    results = "\n".join(
        p.read_text(encoding="utf-8") for p in (REPO / "experiments" / "results").rglob("*") if p.is_file()
    )
    known = set(DECIMAL.findall(results))
    pages = [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]
    stray = {
        page.name: sorted(figure for figure in set(DECIMAL.findall(_prose(page.read_text(encoding="utf-8")))) - known)
        for page in pages
    }
    stray = {
        name: [f for f in figures if f not in PUBLISHED_FIGURES.get(name, set())] for name, figures in stray.items()
    }
    assert {name: figures for name, figures in stray.items() if figures} == {}


def test_the_figure_check_finds_a_figure_typed_by_hand() -> None:
    text = "AVG rose from 31.62 to 39.71 (`--one-sense-below 0.04`) on Python ≥ 3.10."
    text += "\n<!-- results: x.md -->\n```\n1.5\n```"
    assert DECIMAL.findall(_prose(text)) == ["31.62", "39.71"]


@pytest.mark.slow
def test_mkdocs_build_strict_succeeds(tmp_path: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(REPO))
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    configuration = (tmp_path / "site" / "configuration" / "index.html").read_text(encoding="utf-8")
    assert "window_tokens" in configuration and "<table>" in configuration
    assert (tmp_path / "site" / "results" / "ablate" / "quality" / "index.html").is_file()
    assert "SenseInducer" in (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")


RESULTS_PAGE = DOCS / "results.md"
EXPERIMENTS = REPO / "experiments"
#: A section of docs/results.md: ``### `experiments/NAME.py` `` up to the next heading.
EXPERIMENT_HEADING = re.compile(r"^### `experiments/(\w+)\.py`[ \t]*$", re.M)
ANY_HEADING = re.compile(r"^#{1,3} ", re.M)
RESULTS_PAGE_LINK = re.compile(r"\]\(\.\./experiments/results/([^)\s#]+)\)")
COMMAND_LINE = re.compile(r"^- \*\*Command:\*\* `([^`]+)`", re.M)


def _experiment_sections(text: str) -> list[tuple[str, str]]:
    """``(script name, section text)`` for each ``### `experiments/NAME.py` `` heading of the index, in order."""
    sections = []
    for match in EXPERIMENT_HEADING.finditer(text):
        end = ANY_HEADING.search(text, match.end())
        sections.append((match[1], text[match.end() : end.start() if end else len(text)]))
    return sections


def _one_line(text: str) -> str:
    """A command as one line: continuation backslashes and runs of white space become one space."""
    return " ".join(text.replace("\\\n", " ").split())


def _figures_not_on_its_pages(section: str) -> set[str]:
    """The decimal figures of a section's prose that none of the results pages it links holds."""
    pages = [EXPERIMENTS / "results" / path for path in RESULTS_PAGE_LINK.findall(section)]
    known = set(DECIMAL.findall("\n".join(p.read_text(encoding="utf-8") for p in pages if p.is_file())))
    return set(DECIMAL.findall(_prose(section))) - known


def test_the_results_index_lists_every_experiment_script_once() -> None:
    """docs/results.md names each ``experiments/*.py`` once, and no script that does not exist."""
    listed = [name for name, _ in _experiment_sections(RESULTS_PAGE.read_text(encoding="utf-8"))]
    scripts = {path.stem for path in EXPERIMENTS.glob("*.py") if path.stem != "__init__"}
    assert sorted({name for name in listed if listed.count(name) > 1}) == [], "listed twice"
    assert sorted(scripts - set(listed)) == [], "scripts missing from docs/results.md"
    assert sorted(set(listed) - scripts) == [], "docs/results.md lists scripts that do not exist"


def test_each_experiment_of_the_index_has_its_question_its_docstring_command_and_its_results() -> None:
    for name, section in _experiment_sections(RESULTS_PAGE.read_text(encoding="utf-8")):
        if "**Question:**" not in section:  # a helper: shared code, no results of its own
            assert "**Command:**" not in section, name
            continue
        assert "**Results:**" in section and "**Headline:**" in section, name
        commands = COMMAND_LINE.findall(section)
        assert len(commands) == 1, name
        docstring = ast.get_docstring(ast.parse((EXPERIMENTS / f"{name}.py").read_text(encoding="utf-8"))) or ""
        assert _one_line(commands[0]) in _one_line(docstring), f"{name}: the command is not its docstring's"
        for path in RESULTS_PAGE_LINK.findall(section):
            assert (EXPERIMENTS / "results" / path).is_file(), f"{name}: {path} does not exist"


def test_every_figure_of_the_index_is_on_its_experiments_results_page() -> None:
    """A headline figure of docs/results.md is read from the results pages its own section links, not elsewhere."""
    stray = {
        name: sorted(figures)
        for name, section in _experiment_sections(RESULTS_PAGE.read_text(encoding="utf-8"))
        if (figures := _figures_not_on_its_pages(section))
    }
    assert stray == {}


def test_the_index_figure_check_finds_a_figure_from_another_experiment() -> None:
    quality = "[ablate/quality.md](../experiments/results/ablate/quality.md)"
    assert _figures_not_on_its_pages(f"- {quality}\n- **Headline:** AVG 23.8 → 32.0") == set()
    assert _figures_not_on_its_pages(f"- {quality}\n- **Headline:** AVG 31.62 (`--x 0.5`)") == {"31.62"}
    assert _figures_not_on_its_pages("- **Headline:** AVG 23.8, no page linked") == {"23.8"}


def test_a_results_file_is_named_by_its_folder() -> None:
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match=r"results/quality.md does not exist \(see ablate/quality.md\)"):
        hooks.expand("<!-- results: quality.md -->\n")
    with pytest.raises(ValueError, match="does not exist"):
        hooks.results_excerpt("../../README.md")
