"""``wsd change`` and ``wsd run --by``: change folders from runs with a metadata column, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from helpers import SMALL, SMALL_FLAG, make_run

from wsd.change.stage import change_run
from wsd.cli import main
from wsd.io.layout import (
    CHANGE_COUNTS,
    CHANGE_DIR,
    CHANGE_JSON,
    CHANGE_RANKING,
    CHANGE_SCORES,
    CHANGE_SENSES,
    CHANGE_UNMEASURED,
    CONFIG_FILE,
    SENSES_DIR,
)
from wsd.io.outputs import CHANGE_FORMAT


def _cluster(run: Path) -> None:
    assert main(["cluster", "--run", str(run), "--method", "kmeans", "--k", "2", "--no-progress"]) == 0


def _one_line_error(capsys, code: int) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_change_writes_the_tables_and_ranks_the_swap_first(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "run")
    _cluster(run)
    code = main(["change", "--run", str(run), "--by", "year", "--min-uses", SMALL_FLAG, "--measure", "jsd"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "solo (only in slice 1900)" in captured.err  # the warning, one line
    out = run / CHANGE_DIR
    assert "swap 1.000" in captured.out and str(out) in captured.out
    for stem in (CHANGE_RANKING, CHANGE_SCORES, CHANGE_COUNTS, CHANGE_SENSES):
        assert (out / f"{stem}.parquet").is_file() and (out / f"{stem}.csv").is_file()
    ranking = pd.read_parquet(out / f"{CHANGE_RANKING}.parquet")
    assert ranking["target"].tolist() == ["swap", "calm"]
    assert ranking.loc[0, "jsd"] == pytest.approx(1.0) and ranking.loc[1, "jsd"] == pytest.approx(0.0, abs=1e-12)
    unmeasured = pd.read_csv(out / CHANGE_UNMEASURED)
    assert unmeasured[["target", "reason"]].values.tolist() == [["solo", "only in slice 1900"]]
    document = json.loads((out / CHANGE_JSON).read_text(encoding="utf-8"))
    assert document["format"] == CHANGE_FORMAT and document["slices"] == ["1900", "2000"]
    assert document["measure"] == "jsd" and document["binary"] == {"k": 1, "n": 5}
    changes = {(c["target"], c["change"]) for c in document["senses"]}
    assert changes == {("swap", "appeared"), ("swap", "vanished")}
    assert all(c["keywords"] and c["examples"] for c in document["senses"])  # the sense cards
    assert "NaN" not in (out / CHANGE_JSON).read_text(encoding="utf-8")
    assert (out / CONFIG_FILE).is_file()


def test_rerun_reuses_and_other_settings_need_overwrite(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "run")
    _cluster(run)
    out = tmp_path / "change"
    base = ["change", "--run", str(run), "--by", "year", "--min-uses", SMALL_FLAG, "--out", str(out)]
    assert main(base) == 0
    assert main(base) == 0  # the same settings: written again
    capsys.readouterr()
    err = _one_line_error(capsys, main([*base, "--binary-n", "3"]))
    assert "different configuration" in err and "--overwrite" in err
    assert main([*base, "--binary-n", "3", "--overwrite"]) == 0
    assert json.loads((out / CHANGE_JSON).read_text(encoding="utf-8"))["binary"]["n"] == 3


def test_a_folder_of_other_files_is_not_written(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "run")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep", encoding="utf-8")
    err = _one_line_error(
        capsys, main(["change", "--run", str(run), "--by", "year", "--min-uses", SMALL_FLAG, "--out", str(mine)])
    )
    assert "folder of other files" in err
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_without_senses_only_vector_measures(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    unmeasured = pytest.warns(UserWarning, match=r"cannot be measured: solo \(only in slice 1900\)")
    with unmeasured, pytest.warns(UserWarning, match="no senses folder"):
        out = change_run(run, by="year", min_uses=SMALL)
    scores = pd.read_parquet(out / f"{CHANGE_SCORES}.parquet")
    assert {"apd", "prt"} <= set(scores) and "jsd" not in scores


def test_bins_and_between(tmp_path: Path) -> None:
    years = {"w": ([1800, 1801, 1900, 1901, 2000, 2001], [0, 0, 0, 1, 1, 1])}
    run = make_run(tmp_path / "run", years)
    with pytest.warns(UserWarning, match="no senses folder"):
        out = change_run(
            run, by="year", bins="1800:1850,1851:1950,1951:2001", between="1800:1850,1951:2001", min_uses=1
        )
    document = json.loads((out / CHANGE_JSON).read_text(encoding="utf-8"))
    assert document["slices"] == ["1800:1850", "1851:1950", "1951:2001"]
    assert [(s["slice_a"], s["slice_b"], s["pair"]) for s in document["scores"]] == [
        ("1800:1850", "1951:2001", "chosen")
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--by", "decade"], "no column 'decade' to slice by (its columns: id, target,"),
        (["--by", "year", "--bins", "1900:1950,1950:2000"], "overlap"),
        (["--by", "year", "--bins", "1700:1710,1750:1760"], "no occurrence has a 'year' value in any bin"),
        (["--by", "target", "--bins", "1:2"], "--by 'target' is a core column of the occurrence table"),
        (["--by", "year", "--between", "1900,1950"], "no slice '1950'"),
        (["--by", "year", "--binary-k", "5", "--binary-n", "5"], "0 <= k < n"),
        ([], "--by is required"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys, options: list[str], message: str) -> None:
    run = make_run(tmp_path / "run")
    err = _one_line_error(capsys, main(["change", "--run", str(run), *options]))
    assert message in err


def test_missing_run_and_senses_of_another_run(tmp_path: Path, capsys) -> None:
    err = _one_line_error(
        capsys, main(["change", "--run", str(tmp_path / "nothing"), "--by", "year", "--min-uses", SMALL_FLAG])
    )
    assert "nothing" in err
    err = _one_line_error(capsys, main(["change", "--by", "year", "--min-uses", SMALL_FLAG]))
    assert "--run is required" in err
    other = make_run(tmp_path / "other", {"x": ([1, 2], [0, 1])})
    _cluster(other)
    run = make_run(tmp_path / "run")
    capsys.readouterr()
    err = _one_line_error(
        capsys,
        main(
            ["change", "--run", str(run), "--senses", str(other / SENSES_DIR), "--by", "year", "--min-uses", SMALL_FLAG]
        ),
    )
    assert "induced on another run" in err
    err = _one_line_error(
        capsys,
        main(["change", "--run", str(run), "--senses", str(tmp_path / "no"), "--by", "year", "--min-uses", SMALL_FLAG]),
    )
    assert "folder not found" in err


def test_config_file_and_show(tmp_path: Path, capsys) -> None:
    assert main(["config", "show", "--command", "change"]) == 0
    shown = capsys.readouterr().out
    assert "[change]" in shown and 'measure = "prt"' in shown
    run = make_run(tmp_path / "run")
    config = tmp_path / "change.toml"
    config.write_text(f'[change]\nrun = "{run}"\nby = "year"\nmeasure = "apd"\nmin_uses = {SMALL}\n', encoding="utf-8")
    assert main(["change", "--config", str(config)]) == 0
    capsys.readouterr()
    assert json.loads((run / CHANGE_DIR / CHANGE_JSON).read_text(encoding="utf-8"))["measure"] == "apd"
    config.write_text('[change]\nmeasure = "cosine"\n', encoding="utf-8")
    err = _one_line_error(capsys, main(["change", "--config", str(config)]))
    assert "change.measure must be one of jsd, apd, prt" in err


def test_run_needs_by_for_bins(tmp_path: Path, capsys) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"text": "a bank", "year": 1}\n', encoding="utf-8")
    code = main(["run", "--corpus", str(corpus), "--targets", "bank", "--bins", "1:2", "--out", str(tmp_path / "o")])
    assert "--bins, --bin-width and --between compare slices: give --by" in _one_line_error(capsys, code)


def test_wsd_run_by_year_end_to_end(tmp_path: Path, capsys) -> None:
    lines = [
        ("The mouse ran under the barn floor.", 1850),
        ("A mouse nibbled the cheese in the pantry.", 1860),
        ("The cat caught a mouse near the stable.", 1870),
        ("Click the left mouse button to open the file.", 2000),
        ("My wireless mouse needs new batteries.", 2010),
        ("Move the mouse pointer over the icon.", 2015),
    ]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"text": t, "year": y}) + "\n" for t, y in lines), encoding="utf-8")
    out = tmp_path / "out"
    code = main(
        ["run", "--corpus", str(corpus), "--targets", "mouse", "--meta", "year", "--by", "year", "--bins",
         "1800:1900,1950:2020", "--method", "kmeans", "--k", "2", "--min-uses", "1", "--out", str(out),
         "--no-progress"]
    )  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "change across slices" in captured.out
    assert (
        "ranked by the score shrunk toward the mean by its uncertainty" in captured.out
        and "prt, 1800:1900 vs 1950:2020" in captured.out
    )
    counts = pd.read_parquet(out / CHANGE_DIR / f"{CHANGE_COUNTS}.parquet")
    assert set(counts["slice"]) == {"1800:1900", "1950:2020"}
    assert counts.groupby("slice")["count"].sum().to_dict() == {"1800:1900": 3, "1950:2020": 3}
    ranking = pd.read_parquet(out / CHANGE_DIR / f"{CHANGE_RANKING}.parquet")
    assert ranking["target"].tolist() == ["mouse"] and 0.0 <= ranking.loc[0, "score"] <= 2.0


# ------------------------------------------------------------------ checks before work (issue 26, build item 8)
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--by", "year", "--bins", "0"], "--bins '0': expected LOW:HIGH"),
        (["--by", "text"], "--by 'text' is a core column"),
        (["--by", "start", "--bins", "1:2"], "--by 'start' is a core column"),
        (["--by", "year", "--between", "1900"], "--between names two slices"),
    ],
)
def test_change_checks_slice_options_before_reading_the_run(
    tmp_path: Path, capsys, monkeypatch, options: list[str], message: str
) -> None:
    import wsd.change.stage

    run = make_run(tmp_path / "run")
    monkeypatch.setattr(wsd.change.stage, "load_run", lambda *a, **k: pytest.fail("the run was read"))
    err = _one_line_error(capsys, main(["change", "--run", str(run), *options]))
    assert message in err
    assert not (run / CHANGE_DIR).exists()


def test_senses_of_another_run_with_the_same_ids_are_refused(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "a", fingerprint="aaaa")
    other = make_run(tmp_path / "b", {"swap": ([1900] * 12, [0, 1] * 6), "calm": ([2000] * 12, [1] * 12)}, "bbbb")
    _cluster(other)  # ids swap:0..11, calm:0..11 exist in both runs
    capsys.readouterr()
    code = main(
        ["change", "--run", str(run), "--senses", str(other / SENSES_DIR), "--by", "year", "--min-uses", SMALL_FLAG]
    )
    err = _one_line_error(capsys, code)
    assert "induced on another run" in err and "fingerprints differ" in err
    _cluster(run)
    capsys.readouterr()
    assert (
        main(["change", "--run", str(run), "--by", "year", "--min-uses", SMALL_FLAG]) == 0
    )  # its own senses: accepted


def test_slices_where_no_target_can_be_measured_are_an_error(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "run", {"old": ([1900] * 4, [0, 1, 0, 1]), "new": ([2000] * 4, [0, 1, 0, 1])})
    _cluster(run)
    capsys.readouterr()
    err = _one_line_error(capsys, main(["change", "--run", str(run), "--by", "year", "--min-uses", SMALL_FLAG]))
    assert "no target's change between 1900 and 2000 can be measured" in err
    assert not (run / CHANGE_DIR / CHANGE_RANKING).with_suffix(".csv").exists()


def _tiny_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"text": "a bank here", "year": 1}\n{"text": "the bank there", "year": 2}\n', encoding="utf-8")
    return corpus


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--meta", "year", "--by", "year", "--bins", "0"], "--bins '0': expected LOW:HIGH"),
        (["--by", "year"], "--by 'year': the scan keeps no column 'year' (it keeps no metadata); add --meta year"),
        (["--meta", "source", "--by", "year"], "(it keeps source); add --meta year"),
        (["--meta", "year", "--by", "text"], "--by 'text' is a core column"),
        (["--meta", "year", "--by", "target"], "--by 'target' is a core column"),
        (["--meta", "year", "--by", "year", "--between", "1,1"], "names the same slice twice"),
        (["--k", "3", "--one-sense-below", "0.1"], "one_sense_below (--one-sense-below) applies when"),
    ],
)
def test_run_refuses_bad_options_before_embedding(
    tmp_path: Path, capsys, monkeypatch, options: list[str], message: str
) -> None:
    import wsd.workflows.pipeline

    monkeypatch.setattr(wsd.workflows.pipeline, "embed_corpus", lambda *a, **k: pytest.fail("embedding started"))
    out = tmp_path / "o"
    argv = ["run", "--corpus", str(_tiny_corpus(tmp_path)), "--targets", "bank", "--out", str(out), "--no-progress"]
    err = _one_line_error(capsys, main([*argv, *options]))
    assert message in err
    assert not out.exists()  # no folder made, nothing embedded


@pytest.mark.parametrize("command", ["cluster", "evaluate"])
def test_one_sense_below_with_a_fixed_k_is_refused(tmp_path: Path, capsys, command: str) -> None:
    source = ["--run", str(make_run(tmp_path / "run"))] if command == "cluster" else ["--dataset", "semeval2013"]
    code = main([command, *source, "--k", "3", "--one-sense-below", "0.2", "--out", str(tmp_path / "o")])
    assert "not with k=3" in _one_line_error(capsys, code)
    assert not (tmp_path / "o").exists()


def test_run_reads_the_gold_file_before_embedding(tmp_path: Path, capsys, monkeypatch) -> None:
    import wsd.workflows.pipeline

    monkeypatch.setattr(wsd.workflows.pipeline, "embed_corpus", lambda *a, **k: pytest.fail("embedding started"))
    out = tmp_path / "o"
    argv = ["run", "--corpus", str(_tiny_corpus(tmp_path)), "--targets", "bank", "--out", str(out), "--no-progress"]
    err = _one_line_error(capsys, main([*argv, "--gold", str(tmp_path / "missing.tsv")]))
    assert "missing.tsv" in err and not out.exists()
