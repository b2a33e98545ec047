"""One layout, found from anywhere (issue 25, item 4): ``wsd change`` and ``wsd report`` take the output folder of
``wsd run``, its ``run/``, a staged ``wsd embed`` run (with ``--senses``), a senses or a change folder, and find
the rest; an error names the folder the user meant."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from helpers import make_run, make_run_with_change

from wsd.cli import main
from wsd.errors import InputError
from wsd.io.layout import CHANGE_JSON, CHANGE_SCORES, FIGURES_DIR, REPORT_MARKDOWN, RUN_DIR, SENSES_DIR
from wsd.io.locate import find_layout, folder_kind


def _one_line_error(capsys: pytest.CaptureFixture[str], code: int) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    return err


def _cluster(run: Path, *extra: str) -> None:
    assert main(["cluster", "--run", str(run), "--method", "kmeans", "--k", "2", "--no-progress", *extra]) == 0


@pytest.mark.parametrize("given", ["", RUN_DIR])
def test_change_of_a_wsd_run_output_finds_its_senses(tmp_path: Path, capsys, given: str) -> None:
    """``wsd change --run OUT/run`` used to fall back to APD/PRT; ``--run OUT`` said "not a wsd run directory"."""
    out = make_run_with_change(tmp_path / "out")
    destination = tmp_path / "change"
    code = main(["change", "--run", str(out / given), "--by", "year", "--min-uses", "10", "--out", str(destination)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "no senses" not in err
    config = json.loads((destination / CHANGE_JSON).read_text(encoding="utf-8"))["config"]
    assert config["senses"] == str((out / SENSES_DIR).resolve()) and config["run"] == str((out / RUN_DIR).resolve())
    assert "jsd" in pd.read_parquet(destination / f"{CHANGE_SCORES}.parquet").columns


def test_find_layout_from_every_folder_of_both_layouts(tmp_path: Path) -> None:
    out = make_run_with_change(tmp_path / "out")
    for folder in (out, out / RUN_DIR, out / SENSES_DIR, out / "change"):
        layout = find_layout(folder)
        assert (layout.root, layout.run, layout.senses, layout.change) == (
            out,
            out / RUN_DIR,
            out / SENSES_DIR,
            out / "change",
        ), folder
    assert [folder_kind(out / name) for name in ("", RUN_DIR, SENSES_DIR, "change")] == [
        "output",
        "run",
        "senses",
        "change",
    ]
    run = make_run(tmp_path / "staged")
    _cluster(run, "--out", str(tmp_path / "elsewhere"))  # a senses folder away from its run records the run
    assert find_layout(run).senses is None
    assert find_layout(run, senses=tmp_path / "elsewhere").senses == tmp_path / "elsewhere"
    assert find_layout(tmp_path / "elsewhere").run == run.resolve()
    _cluster(run)
    assert find_layout(run).senses == run / SENSES_DIR and find_layout(run).root == run


def test_errors_name_the_folder_meant(tmp_path: Path, capsys) -> None:
    out = make_run_with_change(tmp_path / "out")
    code = main(["change", "--run", str(out), "--senses", str(out / RUN_DIR), "--by", "year"])
    err = _one_line_error(capsys, code)
    assert f"--senses {out / RUN_DIR} is the run of the `wsd run` output {out}" in err
    assert f"its senses are in {out / SENSES_DIR}" in err
    code = main(["change", "--run", str(tmp_path), "--by", "year"])  # the folder above the output
    err = _one_line_error(capsys, code)
    assert f"{out} is the output folder of `wsd run`: give --run {out}" in err
    run = make_run(tmp_path / "bare")
    with pytest.raises(InputError, match=rf"holds no senses .* run `wsd cluster --run {run}` first"):
        from wsd.report import load_run_data

        load_run_data(run)


def test_report_draws_a_change_folder_given_or_found(tmp_path: Path, capsys) -> None:
    """``wsd report --run OUT/change`` used to refuse it ("holds no run"), leaving an empty report_figures/."""
    out = make_run_with_change(tmp_path / "out")
    report = tmp_path / "report"
    code = main(["report", "--run", str(out / "change"), "--out", str(report)])
    assert code == 0, capsys.readouterr().err
    markdown = (report / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert "## Change across slices" in markdown and "new in 1910" in markdown
    # a change folder written elsewhere, drawn with --change instead of OUT/change (jsd) found beside the run
    moved = tmp_path / "by-decade"
    assert (
        main(["change", "--run", str(out), "--by", "year", "--min-uses", "10", "--out", str(moved), "--measure", "apd"])
        == 0
    )
    second = tmp_path / "second"
    code = main(["report", "--run", str(out / RUN_DIR), "--change", str(moved), "--out", str(second)])
    assert code == 0, capsys.readouterr().err
    assert "by apd" in (second / REPORT_MARKDOWN).read_text(encoding="utf-8")


def test_a_report_that_fails_leaves_no_figures_folder(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "bare")  # a run without senses
    report = tmp_path / "report"
    err = _one_line_error(capsys, main(["report", "--run", str(run), "--out", str(report)]))
    assert "holds no senses" in err and f"wsd cluster --run {run}" in err
    assert not (report / FIGURES_DIR).exists()


def test_a_command_given_the_output_folder_for_a_run_names_the_run(tmp_path: Path, capsys) -> None:
    """``wsd cluster --run OUT`` used to say "not a wsd run directory … create one with wsd embed"."""
    out = make_run_with_change(tmp_path / "out")
    err = _one_line_error(capsys, main(["cluster", "--run", str(out), "--out", str(tmp_path / "s")]))
    assert f"{out} is the output folder of `wsd run`; its run is {out / RUN_DIR}" in err


def test_a_staged_run_named_run_is_not_taken_for_the_run_of_an_output(tmp_path: Path) -> None:
    run = make_run(tmp_path / RUN_DIR)
    _cluster(run)
    layout = find_layout(run)
    assert (layout.root, layout.senses) == (run, run / SENSES_DIR)
    assert folder_kind(tmp_path) is None


def test_an_output_holding_only_its_run_is_found_as_an_output(tmp_path: Path) -> None:
    """A `wsd run` stopped before its senses leaves OUT/run alone: OUT is still its root, and senses are missing."""
    out = tmp_path / "out"
    make_run(out / RUN_DIR)
    layout = find_layout(out)
    assert (layout.root, layout.run, layout.senses) == (out, out / RUN_DIR, None)
