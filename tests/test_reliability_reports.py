"""``wsd report`` under attack (issue 39): which change folder a report draws and where it goes, tampered tables,
and change or senses folders of another run.

Each case drives the real CLI on a small hand-made run (``make_run`` of ``helpers``, its two measured targets:
``swap`` changes sense between 1900 and 2000, ``calm`` does not), clustered by ``wsd cluster`` and compared by
``wsd change``. No case is about a target ``wsd change`` cannot measure, so the runs leave out ``solo``: each
report draws two targets' figures instead of three (the figures are most of a report's time).
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest
from helpers import MEASURED_YEARS, SMALL_FLAG, make_run

from wsd.cli import main
from wsd.io.layout import (
    CHANGE_COUNTS,
    CHANGE_DIR,
    CHANGE_JSON,
    CHANGE_RANKING,
    CHANGE_SENSES,
    CHANGE_TIMELINE,
    CHANGE_TRENDS,
    FIGURES_DIR,
    LABELS_FILE,
    REPORT_HTML,
    REPORT_MARKDOWN,
    SENSES_DIR,
    SENSES_FILE,
)

#: The slices of the run's own change folder (``wsd change --by year``) and of the second one (``--bins``).
OWN_SLICES = "Slices of year: 1900, 2000"
OTHER_BINS = "1800:1950,1951:2100"
OTHER_SLICES = "Slices of year: 1800:1950, 1951:2100"
#: Three slices, so that the timeline and the trends tables are written (and read by the report).
THREE_YEARS = {
    "swap": ([1900] * 12 + [1950] * 12 + [2000] * 12, [0] * 12 + [1] * 24),
    "calm": ([1900] * 12 + [1950] * 12 + [2000] * 12, [0, 1] * 18),
}


def _ok(capsys, code: int) -> str:
    """What a command that exited 0 printed (``capsys`` None: in a module's fixture, nothing is read)."""
    if capsys is None:
        assert code == 0
        return ""
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def _one_line_error(capsys, code: int) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


def _staged(root: Path, capsys, fingerprint: str = "run-a", years: dict | None = None) -> Path:
    """A ``wsd embed``-like run at ``root/run`` with its senses (``wsd cluster``) and change (``wsd change``)."""
    run = make_run(root / "run", years or MEASURED_YEARS, fingerprint=fingerprint)
    _ok(capsys, main(["cluster", "--run", str(run), "--method", "kmeans", "--k", "2", "--no-progress"]))
    _ok(capsys, main(["change", "--run", str(run), "--by", "year", "--min-uses", SMALL_FLAG]))
    return run


def _second_change(run: Path, other: Path, capsys) -> Path:
    """``wsd change`` of the same run and senses, other bins, written to ``other``."""
    command = ["change", "--run", str(run), "--by", "year", "--bins", OTHER_BINS, "--min-uses", SMALL_FLAG]
    _ok(capsys, main([*command, "--out", str(other)]))
    return other


def _report_names(folder: Path) -> set[str]:
    return {name for name in (REPORT_HTML, REPORT_MARKDOWN, FIGURES_DIR) if (folder / name).exists()}


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ------------------------------------------------------------------------- case 1: whose report, and where
def _reported_after_a_second_change(root: Path, capsys) -> tuple[Path, Path]:
    """A staged run, a second ``wsd change`` into ``root/other``, then ``wsd report --run RUN``: the report draws
    the run's own change folder and goes into the run, never into the other folder. Returns (run, other)."""
    run = _staged(root, capsys)
    other = _second_change(run, root / "other", capsys)
    _ok(capsys, main(["report", "--run", str(run)]))
    assert OWN_SLICES in (run / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert not _report_names(other)
    return run, other


@pytest.mark.slow  # the fast lane checks the same as the first step of the next two tests
def test_report_of_a_run_draws_its_own_change_folder_after_a_second_change(tmp_path: Path, capsys) -> None:
    _reported_after_a_second_change(tmp_path, capsys)


def test_report_of_a_change_folder_elsewhere_goes_into_it(tmp_path: Path, capsys) -> None:
    run, other = _reported_after_a_second_change(tmp_path, capsys)
    own_report = _snapshot(run)
    out = _ok(capsys, main(["report", "--run", str(other)]))
    assert str(other / REPORT_HTML) in out
    assert OTHER_SLICES in (other / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert _report_names(other) == {REPORT_HTML, REPORT_MARKDOWN, FIGURES_DIR}
    assert _snapshot(run) == own_report  # the run's own report is not replaced by the other slices
    # the change folder stays usable: the same wsd change again reuses it, report and all
    _second_change(run, other, capsys)


def test_report_with_change_elsewhere_goes_into_that_folder(tmp_path: Path, capsys) -> None:
    run, other = _reported_after_a_second_change(tmp_path, capsys)
    own_report = _snapshot(run)
    _ok(capsys, main(["report", "--run", str(run), "--change", str(other)]))
    assert OTHER_SLICES in (other / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert _snapshot(run) == own_report
    elsewhere = tmp_path / "report-bins"  # --out still decides (docs/change.md)
    _ok(capsys, main(["report", "--run", str(run), "--change", str(other), "--out", str(elsewhere)]))
    assert OTHER_SLICES in (elsewhere / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert _snapshot(run) == own_report


def test_report_of_the_runs_own_change_folder_goes_into_the_run(tmp_path: Path, capsys) -> None:
    run = _staged(tmp_path, capsys)
    _second_change(run, tmp_path / "other", capsys)
    _ok(capsys, main(["report", "--run", str(run / CHANGE_DIR)]))  # documented: OUT also for OUT/change
    assert OWN_SLICES in (run / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert not _report_names(run / CHANGE_DIR)


# ------------------------------------------------------------------------- case 2: tampered tables
def _tamper_parquet(path: Path) -> None:
    """Rewrite a table as a valid Parquet file with other numbers (a forgery, not a damaged file)."""
    table = pd.read_parquet(path)
    numeric = [c for c in table.columns if pd.api.types.is_numeric_dtype(table[c])]
    if len(table) and numeric:
        table[numeric[0]] = table[numeric[0]].iloc[::-1].to_numpy()
    table.attrs["forged"] = True
    table.to_parquet(path)


@pytest.fixture(scope="module")
def three_years(tmp_path_factory) -> Path:
    """A staged run of three slices, shared by the tampering cases below: each forges one file and puts it back."""
    return _staged(tmp_path_factory.mktemp("three-years"), None, years=THREE_YEARS)


@pytest.mark.parametrize(
    ("relative", "remedy"),
    [
        (f"{CHANGE_DIR}/{CHANGE_RANKING}.parquet", "wsd change"),
        (f"{CHANGE_DIR}/{CHANGE_COUNTS}.parquet", "wsd change"),
        (f"{CHANGE_DIR}/{CHANGE_SENSES}.parquet", "wsd change"),
        (f"{CHANGE_DIR}/{CHANGE_TIMELINE}.parquet", "wsd change"),
        (f"{CHANGE_DIR}/{CHANGE_TRENDS}.parquet", "wsd change"),
        (f"{CHANGE_DIR}/{CHANGE_JSON}", "wsd change"),
        (f"{SENSES_DIR}/{LABELS_FILE}", "wsd cluster"),
        (f"{SENSES_DIR}/{SENSES_FILE}", "wsd cluster"),
    ],
)
def test_a_tampered_table_is_refused_naming_it(three_years: Path, capsys, relative: str, remedy: str) -> None:
    run = three_years
    path = run / relative
    before, times = _snapshot(run), path.stat()
    try:
        if path.suffix == ".parquet":
            _tamper_parquet(path)
        else:
            path.write_text(path.read_text(encoding="utf-8").replace('"measure": "prt"', '"measure": "jsd"'), "utf-8")
        forged = path.read_bytes()
        err = _one_line_error(capsys, main(["report", "--run", str(run)]))
        assert str(path) in err and "changed since" in err and "move it away and run" in err and remedy in err
        assert path.read_bytes() == forged  # the user's file is left as it is
        assert not _report_names(run)
    finally:  # the file as it was (bytes and time), for the next case
        path.write_bytes(before[relative])
        os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert _snapshot(run) == before  # the refused report wrote nothing anywhere in the run


def test_a_tampered_change_folder_given_with_change_is_refused(tmp_path: Path, capsys) -> None:
    run = _staged(tmp_path, capsys)
    other = _second_change(run, tmp_path / "other", capsys)
    _tamper_parquet(other / f"{CHANGE_RANKING}.parquet")
    err = _one_line_error(capsys, main(["report", "--run", str(run), "--change", str(other)]))
    assert str(other / f"{CHANGE_RANKING}.parquet") in err and "run `wsd change` again" in err
    assert not _report_names(other) and not _report_names(run)
    (other / f"{CHANGE_RANKING}.parquet").rename(tmp_path / "forged.parquet")  # what the message says to do
    _second_change(run, other, capsys)
    _ok(capsys, main(["report", "--run", str(run), "--change", str(other)]))
    assert OTHER_SLICES in (other / REPORT_MARKDOWN).read_text(encoding="utf-8")


# ------------------------------------------------------------------------- case 3: another run's folders
def test_change_folder_of_another_run_is_refused(tmp_path: Path, capsys) -> None:
    run = _staged(tmp_path / "a", capsys, fingerprint="run-a")
    other_run = _staged(tmp_path / "b", capsys, fingerprint="run-b")  # the same targets and occurrence ids
    err = _one_line_error(capsys, main(["report", "--run", str(run), "--change", str(other_run / CHANGE_DIR)]))
    assert "another run" in err and "fingerprints differ" in err
    assert str(other_run / CHANGE_DIR) in err and str(run) in err
    assert not _report_names(run) and not _report_names(other_run / CHANGE_DIR)
    _ok(capsys, main(["report", "--run", str(run), "--change", str(run / CHANGE_DIR)]))  # its own: accepted


def test_senses_of_another_run_are_refused(tmp_path: Path, capsys) -> None:
    run = _staged(tmp_path / "a", capsys, fingerprint="run-a")
    other_run = _staged(tmp_path / "b", capsys, fingerprint="run-b")
    err = _one_line_error(capsys, main(["report", "--run", str(run), "--senses", str(other_run / SENSES_DIR)]))
    assert "another run" in err and str(other_run / SENSES_DIR) in err and str(run) in err
    assert not _report_names(run)
