"""Slices made easy (issue 25, item 3): bin widths, dates as years, checks before embedding, change-only reruns."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.change.slices import assign_slices, check_slice_options, parse_by, width_bins, years_of
from wsd.cli import main
from wsd.errors import ConfigError, InputError
from wsd.io.layout import CHANGE_COUNTS, CHANGE_DIR, CHANGE_JSON, LABELS_FILE, META_FILE, RUN_DIR, SENSES_DIR
from wsd.options import OPTIONS


def _labels(values: list, width: int) -> list[str]:
    return [b.label for b in width_bins(np.array(values, dtype=float), width)]


# ------------------------------------------------------------------ bin width
def test_bin_width_aligns_to_multiples_of_the_width() -> None:
    assert _labels([1790, 1799, 1800, 1815], 10) == ["1790:1799", "1800:1809", "1810:1819"]
    assert _labels([1795], 10) == ["1790:1799"]  # aligned to 1790, not to the first value
    assert _labels([-45, -50, -41, 5], 10) == ["-50:-41", "0:9"]
    assert _labels([1776, 1801, 1999, 2026], 100) == ["1700:1799", "1800:1899", "1900:1999", "2000:2099"]
    assert _labels([3, 4], 1) == ["3:3", "4:4"]


def test_bin_width_slices_and_labels() -> None:
    table = pd.DataFrame({"year": [1799, 1800, 1809, 1810, 1799.5, None]})
    with pytest.warns(UserWarning, match="1 of 6 occurrences have no 'year' value"):
        slices = assign_slices(table, "year", bin_width=10)
    assert slices.order == ["1790:1799", "1800:1809", "1810:1819"]
    assert slices.labels.tolist() == ["1790:1799", "1800:1809", "1800:1809", "1810:1819", "1790:1799", None]
    assert OPTIONS["change.bin_width"].option_strings == ("--bin-width",)


def test_bins_with_bin_width_are_refused() -> None:
    with pytest.raises(ConfigError, match="--bins 1800:1850 and --bin-width 10 both given: choose one"):
        check_slice_options("year", "1800:1850", bin_width=10)
    with pytest.raises(ConfigError, match="both given"):
        assign_slices(pd.DataFrame({"year": [1, 2]}), "year", "1:1,2:2", bin_width=10)
    with pytest.raises(ConfigError, match="at least 1"):
        check_slice_options("year", bin_width=0)
    with pytest.raises(ConfigError, match="give --by COLUMN too"):
        check_slice_options(None, bin_width=10)


def test_cli_refuses_bins_with_bin_width_in_one_line(tmp_path: Path, capsys) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"text": "a bank", "year": 1}\n', encoding="utf-8")
    out = tmp_path / "o"
    argv = ["run", "--corpus", str(corpus), "--targets", "bank", "--meta", "year", "--by", "year", "--out", str(out)]
    code = main([*argv, "--bins", "1:2,3:4", "--bin-width", "10"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--bin-width 10 both given" in err
    assert not out.exists()


# ------------------------------------------------------------------ dates as years
def test_dates_are_read_as_years() -> None:
    assert parse_by("date:year") == ("date", "year") and parse_by("year") == ("year", None)
    with pytest.raises(ConfigError, match="date:week"):
        parse_by("date:week")
    dates = pd.DataFrame({"date": ["1999-05-01", "2001-12", "2003-01-02T10:00:00", "2004-02-03 00:00:00"]})
    assert assign_slices(dates, "date:year").order == ["1999", "2001", "2003", "2004"]
    assert assign_slices(dates, "date").order == ["1999", "2001", "2003", "2004"]  # ISO dates: years unasked
    assert assign_slices(dates, "date", bin_width=5).order == ["1995:1999", "2000:2004"]
    assert assign_slices(dates, "date:decade").order == ["1990:1999", "2000:2009"]
    years = pd.DataFrame({"year": ["1999-05-01", "1850-01-01"]})  # --by year where the column holds dates
    assert assign_slices(years, "year", "1800:1899,1900:1999").order == ["1800:1899", "1900:1999"]
    periods = pd.DataFrame({"grouping": ["1810-1860", "1960-2010"]})  # WUG periods are no dates
    assert assign_slices(periods, "grouping").order == ["1810-1860", "1960-2010"]
    assert years_of(pd.Series(["-45", "0044-03-15"]), "date").tolist() == ["-45", "44"]


def test_datetime_column_is_read_as_years() -> None:
    table = pd.DataFrame({"date": pd.to_datetime(["1999-05-01", "1999-12-31", "2011-01-01"])})
    slices = assign_slices(table, "date")
    assert slices.order == ["1999", "2011"] and slices.labels.tolist() == ["1999", "1999", "2011"]


def test_unparseable_date_is_one_line_exit_2(tmp_path: Path, capsys) -> None:
    with pytest.raises(InputError, match="column 'date' holds 'May 1999', which is not a date"):
        assign_slices(pd.DataFrame({"date": ["1999-05-01", "May 1999"]}), "date:year")
    corpus = tmp_path / "c.jsonl"
    rows = [("a bank here", "1999-05-01"), ("the bank there", "May 1999")]
    corpus.write_text("".join(json.dumps({"text": t, "date": d}) + "\n" for t, d in rows), encoding="utf-8")
    out = tmp_path / "o"
    argv = ["run", "--corpus", str(corpus), "--targets", "bank", "--meta", "date", "--by", "date:year"]
    code = main([*argv, "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "'date'" in err and "'May 1999'" in err
    assert not out.exists()  # found by the scan before embedding: no folder made


# ------------------------------------------------------------------ wsd run: checks, table, change-only rerun
def _corpus(tmp_path: Path, parquet: bool = False) -> Path:
    lines = [
        ("The mouse ran under the barn floor.", "1850-03-01"),
        ("A mouse nibbled the cheese in the pantry.", "1861-01-02"),
        ("The cat caught a mouse near the stable.", "1872-05-05"),
        ("Click the left mouse button to open the file.", "2001-01-01"),
        ("My wireless mouse needs new batteries.", "2010-06-01"),
        ("Move the mouse pointer over the icon.", "2015-01-01"),
    ]
    if parquet:
        path = tmp_path / "c.parquet"
        frame = pd.DataFrame({"text": [t for t, _ in lines], "date": pd.to_datetime([d for _, d in lines])})
        frame.to_parquet(path)
        return path
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps({"text": t, "date": d}) + "\n" for t, d in lines), encoding="utf-8")
    return path


def _run(corpus: Path, out: Path, *options: str) -> list[str]:
    return ["run", "--corpus", str(corpus), "--targets", "mouse", "--meta", "date", "--method", "kmeans", "--k",
            "2", "--min-uses", "1", "--out", str(out), "--no-progress", *options]  # fmt: skip


def test_run_refuses_empty_bins_before_embedding(tmp_path: Path, capsys, monkeypatch) -> None:
    import wsd.workflows.pipeline

    monkeypatch.setattr(wsd.workflows.pipeline, "embed_corpus", lambda *a, **k: pytest.fail("embedding started"))
    out = tmp_path / "o"
    code = main(_run(_corpus(tmp_path), out, "--by", "date:year", "--bins", "1700:1710,1900:1910"))
    err = capsys.readouterr().err
    assert code == 2 and "no occurrence has a 'date' value in any bin" in err, err
    assert not out.exists()  # neither run/ nor an empty senses/ left behind


def test_run_by_datetime_parquet_column_then_change_only_rerun(tmp_path: Path, capsys, monkeypatch) -> None:
    import wsd.senses.stage
    import wsd.workflows.pipeline

    out = tmp_path / "o"
    corpus = _corpus(tmp_path, parquet=True)
    assert main(_run(corpus, out, "--by", "date", "--bin-width", "100")) == 0
    printed = capsys.readouterr().out
    assert "ARI" not in printed  # no gold: no empty ARI column
    assert (
        "ranked by the score shrunk toward the mean by its uncertainty" in printed
        and "prt, 1800:1899 vs 2000:2099" in printed
    )
    assert "   1  mouse" in printed  # the ranking is printed
    stamps = {p: p.stat().st_mtime_ns for p in (out / RUN_DIR / META_FILE, out / SENSES_DIR / LABELS_FILE)}

    # only the change settings differ: no embedding, no clustering, the change folder replaced
    monkeypatch.setattr(wsd.workflows.pipeline, "embed_corpus", lambda *a, **k: pytest.fail("embedded again"))
    monkeypatch.setattr(wsd.senses.stage, "fit_senses", lambda *a, **k: pytest.fail("clustered again"))
    code = main(_run(corpus, out, "--by", "date", "--bin-width", "50"))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    document = json.loads((out / CHANGE_DIR / CHANGE_JSON).read_text(encoding="utf-8"))
    assert document["slices"] == ["1850:1899", "2000:2049"] and document["bin_width"] == 50
    counts = pd.read_parquet(out / CHANGE_DIR / f"{CHANGE_COUNTS}.parquet")
    assert set(counts["slice"]) == {"1850:1899", "2000:2049"}

    # another senses setting is no change-only rerun: the senses folder of k=2 is not replaced without --overwrite
    monkeypatch.undo()
    argv = _run(corpus, out, "--by", "date", "--bin-width", "50")
    argv[argv.index("--k") + 1] = "3"
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and "different configuration" in err, err


def test_run_summary_with_gold_keeps_the_ari_column() -> None:
    from wsd.workflows.run import format_summary

    summary = {"occurrences": {"mouse": 6}, "senses": {"mouse": 2}, "run": "o/run", "senses_dir": "o/senses"}
    assert "ARI" not in format_summary(summary)
    metrics = {"per_target": {"mouse": {"ari": 0.5}}, "overall": {}, "baselines": {}}
    shown = format_summary(summary | {"metrics": {**metrics, "overall": dict.fromkeys(
        ("ari", "nmi", "v_measure", "paired_f", "bcubed_f", "fnmi", "fbc_f"), 0.5)}})  # fmt: skip
    assert "ARI %" in shown and "50.0" in shown


def test_run_refuses_a_floor_no_target_reaches_before_embedding(tmp_path: Path, capsys, monkeypatch) -> None:
    """Three uses a century against the default floor (20): the error comes from the scan, not after clustering."""
    import wsd.workflows.pipeline

    monkeypatch.setattr(wsd.workflows.pipeline, "embed_corpus", lambda *a, **k: pytest.fail("embedding started"))
    out = tmp_path / "o"
    argv = _run(_corpus(tmp_path), out, "--by", "date:year", "--bin-width", "100")
    floor = argv.index("--min-uses")
    del argv[floor : floor + 2]  # the default floor
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and "no target's change between 1800:1899 and 2000:2099 can be measured" in err, err
    assert "slice 1800:1899 has 3 uses and slice 2000:2099 has 3 uses, fewer than --min-uses 20" in err
    assert "or lower --min-uses" in err and not out.exists()
    monkeypatch.undo()
    assert main(_run(_corpus(tmp_path), out, "--by", "date:year", "--bin-width", "100", "--min-uses", "3")) == 0
