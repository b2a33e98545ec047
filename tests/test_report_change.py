"""Reports of change folders: sense proportions per slice, the ranked change table with gold, new/lost cards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import make_run_with_change
from PIL import Image as PILImage

from wsd.io.layout import CHANGE_CSV, FIGURES_DIR, REPORT_HTML, REPORT_MARKDOWN
from wsd.report import load_run_data, write_report
from wsd.report.plots import sense_proportions


def test_report_shows_proportions_ranking_and_new_lost_cards(tmp_path: Path) -> None:
    out = make_run_with_change(tmp_path / "out")
    (out / CHANGE_CSV).write_text("target,change_graded,change_binary\nswap,0.9,1\ncalm,0.1,0\n", encoding="utf-8")
    data = load_run_data(out)
    assert data.change is not None and data.change.slices == ["1900", "1910"]
    assert data.change.ranking["change_graded"].tolist() == [0.9, 0.1]  # gold joined to the ranking
    html = write_report(out)
    markdown = (out / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert "## Change across slices" in markdown
    assert "| 1 | swap | 1.000 |" in markdown and r"gold change\_graded" in markdown
    assert "| 1 | swap | 1.000 | 1.000–1.000 |" in markdown  # the interval beside the score (disjoint: exact)
    assert "ordered by the score shrunk toward the mean by its uncertainty" in markdown
    assert "(a slice needs at least 10 uses)" in markdown
    assert "new in 1910" in markdown and "lost after 1900" in markdown
    assert "change (jsd) 1.000, rank 1 of 2" in markdown
    page = html.read_text(encoding="utf-8")
    assert 'class="status">new in 1910' in page
    figures = sorted(p.name for p in (out / FIGURES_DIR).glob("slices-*.png"))
    assert figures == ["slices-001-swap.png", "slices-002-calm.png"]
    assert html.name == REPORT_HTML


def test_many_slices_are_drawn_as_areas(tmp_path: Path) -> None:
    out = make_run_with_change(tmp_path / "out", n_slices=12)
    write_report(out)
    image = PILImage.open(out / FIGURES_DIR / "slices-001-swap.png")
    assert image.size[0] > 600  # wider for 12 slices
    assert "stacked areas" in (out / REPORT_MARKDOWN).read_text(encoding="utf-8")


def test_sense_proportions_plot(tmp_path: Path) -> None:
    path = tmp_path / "p.png"
    missing = sense_proportions(
        np.array([[1.0, 0.0], [0.5, 0.5]]), ["a", "b"], ["s0", "s1"], ["#000", "#f00"], "w", path
    )
    assert missing == set() and path.stat().st_size > 1000


def test_unmeasured_targets_are_named(tmp_path: Path) -> None:
    out = make_run_with_change(tmp_path / "out")
    change = load_run_data(out).change
    assert change is not None
    from wsd.report.build import change_facts, change_section

    assert change_facts(change, "absent") == ["change not measured between 1900 and 1910"]
    section = change_section(change)
    assert section.tables[0].rows[0][1] == "swap"
    assert any("appeared" in row for row in section.tables[1].rows)


def test_damaged_change_folder_is_named(tmp_path: Path) -> None:
    out = make_run_with_change(tmp_path / "out")
    (out / "change" / "ranking.parquet").write_bytes(b"not parquet")
    from wsd.errors import InputError

    with pytest.raises(InputError, match=r"ranking\.parquet: changed since wsd wrote it .* run `wsd change` again"):
        load_run_data(out)


def _change_data(counts: list[tuple[str, int, int]], slices: list[str]):
    from wsd.report.data import ChangeData

    frame = pd.DataFrame(
        [{"target": "power", "slice": s, "sense": sense, "count": c, "uses": 30} for s, sense, c in counts]
    )
    return ChangeData(Path("."), {"slices": slices}, pd.DataFrame(), frame, pd.DataFrame())


def test_new_in_only_when_no_earlier_slice_has_a_use() -> None:
    """Issue 41: power's energy sense, absent in the 1790s and present in the 2020s, is in use from the 1820s."""
    from wsd.report.build import sense_change_label

    slices = ["1790", "1800", "1820", "2020"]
    change = _change_data([("1790", 1, 0), ("1800", 1, 0), ("1820", 1, 3), ("2020", 1, 9)], slices)
    label = sense_change_label(change, "power", 1, "appeared", "1790", "2020")
    assert label == "appeared between 1790 and 2020 (in use from 1820)"
    only_last = _change_data([("1790", 1, 0), ("1800", 1, 0), ("1820", 1, 0), ("2020", 1, 9)], slices)
    assert sense_change_label(only_last, "power", 1, "appeared", "1790", "2020") == "new in 2020"
    lost = _change_data([("1790", 0, 9), ("1800", 0, 4), ("1820", 0, 0), ("2020", 0, 0)], slices)
    assert sense_change_label(lost, "power", 0, "vanished", "1790", "2020") == (
        "vanished between 1790 and 2020 (last used in 1800)"
    )
    assert sense_change_label(lost, "power", 0, "vanished", "1800", "2020") == "lost after 1800"


def test_the_ranking_says_what_each_measure_means_and_which_slices_it_compares(tmp_path: Path) -> None:
    out = make_run_with_change(tmp_path / "out", n_slices=3)
    change = load_run_data(out).change
    assert change is not None
    from wsd.report.build import change_section

    section = change_section(change)
    ranking = section.tables[0]
    assert ranking.caption == "Targets by change from 1900 to 1920"
    assert ranking.header[-2:] == ["uses 1900", "uses 1920"]
    assert ranking.header[3:5] == ["95% interval", "shrunk (fallback)"]  # two targets: the fallback, named
    assert ranking.legend[0].startswith("jsd: how much the shares of the senses changed")
    assert ranking.legend[1].startswith("prt: how far the average use moved") and ranking.header[5] == "prt"
    assert any(line.startswith("shrunk (fallback): with 2 ranked targets") for line in ranking.legend)
    assert any("compares the first and the last slice only, 1900 and 1920" in p for p in section.paragraphs)
    whole_period = [t.caption for t in section.tables[1:]] + section.paragraphs
    assert any(text.startswith("Which words changed over the whole period") for text in whole_period)
    write_report(out)
    markdown = (out / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert "- jsd: how much the shares of the senses changed" in markdown
    page = (out / "report.html").read_text(encoding="utf-8")
    assert '<ul class="legend"><li>jsd: how much the shares' in page
