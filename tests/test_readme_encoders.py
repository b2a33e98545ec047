"""docs/embedding.md's "Choosing an encoder" table: Hub names that parse, figures that match the results files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the slow lane: reads every encoder figure of docs/embedding.md against its results file

REPO_ROOT = Path(__file__).resolve().parents[1]
PAGE = REPO_ROOT / "docs" / "embedding.md"

#: The benchmark labels the table uses, and their names in the results files.
DATASETS = {
    "SemEval-2013": "semeval2013",
    "SemEval-2010": "semeval2010",
    "RUSSE wiki-wiki": "russe-wiki-wiki",
    "RUSSE bts-rnc": "russe-bts-rnc",
    "RUSSE active-dict": "russe-active-dict",
}
FIGURE = re.compile(r"\[(?P<label>[^\]]+?) (?P<metric>AVG|ARI) (?P<value>[−-]?\d+\.\d)\]\((?P<file>[^)]+)\)")


def _section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## Choosing an encoder")
    end = text.index("\n#", start + 1)
    return text[start:end]


def _rows() -> list[list[str]]:
    lines = [line for line in _section().splitlines() if line.startswith("| ") and not line.startswith("| language")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def _default_score(results: Path, dataset: str, metric: str) -> float:
    """The "new default" mean for one dataset in a quality results file's Summary table."""
    for line in results.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] == dataset and cells[1] == metric.lower():
            return float(cells[3].split("±")[0])
    raise AssertionError(f"{results.name} has no summary row for {dataset} {metric}")


def test_the_table_covers_english_russian_german_and_multilingual() -> None:
    rows = _rows()
    assert {row[0] for row in rows} == {"English", "Russian", "German", "multilingual"}
    assert all(len(row) == 4 for row in rows), rows
    assert any("recommended for Russian" in row[1] for row in rows if row[0] == "Russian")


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row[1].split("`")[1])
def test_each_encoder_is_a_valid_hub_name_with_its_size(row: list[str]) -> None:
    from wsd.embed.hub import is_repo_id

    name = row[1].split("`")[1]
    assert "/" in name and is_repo_id(name), name
    assert re.fullmatch(r"\d+M / \d+ / \d+", row[2]), row[2]
    measured = row[3]
    assert measured == "—" or FIGURE.search(measured), measured


def test_every_figure_quoted_matches_its_results_file() -> None:
    figures = list(FIGURE.finditer(_section()))
    assert len(figures) >= 6
    for figure in figures:
        results = (PAGE.parent / figure["file"]).resolve()
        assert results.is_file(), figure["file"]
        dataset = DATASETS[figure["label"]]
        value = float(figure["value"].replace("−", "-"))
        assert _default_score(results, dataset, figure["metric"]) == value, figure.group(0)


def test_the_bundled_models_russe_figures_match_the_results() -> None:
    match = re.search(r"RUSSE ARI is at chance \(\[(.+?)\]\((.+?)\)\)", _section())
    assert match, "the bundled model's RUSSE comparison is missing"
    quoted = [float(value.replace("−", "-")) for value in match[1].split(" / ")]
    results = PAGE.parent / match[2]
    datasets = ["russe-wiki-wiki", "russe-bts-rnc", "russe-active-dict"]
    assert quoted == [_default_score(results, dataset, "ari") for dataset in datasets]


def test_the_bundled_model_is_the_first_english_row() -> None:
    from wsd.embed.models import BUNDLED_MODEL

    first = _rows()[0]
    assert first[0] == "English" and BUNDLED_MODEL in first[1] and "bundled" in first[1]
