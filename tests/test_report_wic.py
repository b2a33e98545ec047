"""The per-pair table and the report of ``wsd evaluate --dataset wic`` (issue 40, part 2: results in the report).

One evaluation of a tiny WiC file (the bundled encoder, loaded once) is copied into each test's folder (the copy
keeps sizes and modification times, so the folder's manifest still matches); the report is written by the real
CLI, and tampered tables are refused as every table a report draws is (``test_reliability_reports``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import WIC_PAIRS, write_wic

from wsd.cli import main
from wsd.config import build_evaluation_config
from wsd.errors import WsdError
from wsd.evaluate.metrics.usage_pairs import PAIR_TABLE_COLUMNS
from wsd.io import manifest
from wsd.io.layout import FIGURES_DIR, MANIFEST_FILE, METRICS_FILE, PAIRS_FILE, REPORT_HTML, REPORT_MARKDOWN
from wsd.report.pairs_page import pairs_facts, scores_table
from wsd.workflows.benchmark import evaluate

FIGURES = ("pairs-cosines.png", "pairs-roc.png")


def _ok(capsys, code: int) -> str:
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def _one_line_error(capsys, code: int) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory, encoder) -> Path:
    """``wsd evaluate --dataset wic`` of the 8 pairs of ``test_evaluate_wic`` (lemma cross-validation), no report."""
    root = tmp_path_factory.mktemp("wic-eval")
    data = write_wic(root / "wic")
    config = build_evaluation_config(dataset="wic", data=str(data))
    evaluate(config, out=root / "out", encoder=encoder, progress=False)
    return root / "out"


@pytest.fixture
def folder(evaluated: Path, tmp_path: Path) -> Path:
    """A fresh copy of the evaluated folder (sizes and times kept: its manifest still matches)."""
    return Path(shutil.copytree(evaluated, tmp_path / "out"))


def _metrics(folder: Path) -> dict:
    return json.loads((folder / METRICS_FILE).read_text(encoding="utf-8"))


def _report_names(folder: Path) -> set[str]:
    return {name for name in (REPORT_HTML, REPORT_MARKDOWN, FIGURES_DIR) if (folder / name).exists()}


# ------------------------------------------------------------------------------------------ pairs.csv
def test_pairs_csv_agrees_with_metrics_json(folder: Path) -> None:
    entry = _metrics(folder)["usage_pairs"]
    table = pd.read_csv(folder / PAIRS_FILE, keep_default_na=False)
    assert tuple(table.columns) == PAIR_TABLE_COLUMNS
    assert len(table) == entry["pairs"] == len(WIC_PAIRS)
    assert table["correct"].mean() == pytest.approx(entry["accuracy"], abs=1e-12)
    assert (table["predicted"] == (table["cosine"] >= table["threshold"]).astype(int)).all()
    assert (table["correct"] == (table["predicted"] == table["label"]).astype(int)).all()
    assert table["label"].tolist() == [1 if row[5] == "T" else 0 for row in WIC_PAIRS]
    # each fold's pairs carry that fold's threshold, which metrics.json lists; no lemma in two folds
    assert sorted(table.groupby("fold")["threshold"].first()) == sorted(entry["thresholds"])
    assert (table.groupby("lemma")["fold"].nunique() == 1).all()
    # the target words as written: "ran" in "She ran a company"
    assert table.loc[3, ["lemma", "word_1", "word_2"]].tolist() == ["run", "run", "ran"]
    assert table.loc[0, "context_1"] == WIC_PAIRS[0][3]
    assert manifest.status(folder / PAIRS_FILE, thorough=True) == "match"  # recorded like every output


@pytest.mark.slow  # the fast lane checks pairs.csv with --dev on the CLI's evaluation below (and the warning)
def test_pairs_csv_with_a_dev_threshold(tmp_path: Path, encoder) -> None:
    data = write_wic(tmp_path / "wic")
    dev = write_wic(tmp_path / "wic", WIC_PAIRS[2:6], name="dev")
    config = build_evaluation_config(dataset="wic", data=str(data), dataset_options={"dev": str(dev)})
    with pytest.warns(UserWarning, match="lemmas of --dev"):
        document = evaluate(config, out=tmp_path / "out", encoder=encoder, progress=False)
    table = pd.read_csv(tmp_path / "out" / PAIRS_FILE)
    assert (table["fold"] == 0).all() and (table["threshold"] == document["usage_pairs"]["thresholds"][0]).all()
    assert table["correct"].mean() == pytest.approx(document["overall"]["accuracy"], abs=1e-12)


def test_a_changed_pairs_csv_is_never_replaced_by_a_rerun(folder: Path, tmp_path: Path, capsys, encoder) -> None:
    path = folder / PAIRS_FILE
    path.write_text(path.read_text(encoding="utf-8") + "# my notes\n", encoding="utf-8")
    mine = path.read_bytes()
    data = write_wic(tmp_path / "wic")  # the same pairs, the same configuration: a rerun into the folder
    config = build_evaluation_config(dataset="wic", data=str(data))
    with pytest.raises(WsdError, match=f"{PAIRS_FILE}.*changed"):
        evaluate(config, out=folder, encoder=encoder, progress=False)
    assert path.read_bytes() == mine


# ------------------------------------------------------------------------------------------ the report
def test_evaluate_wic_report_holds_the_scores_and_both_figures(tmp_path: Path, capsys) -> None:
    data = write_wic(tmp_path / "wic")
    dev = write_wic(tmp_path / "wic", WIC_PAIRS[2:6], name="dev")
    out = tmp_path / "out"
    command = ["evaluate", "--dataset", "wic", "--no-progress", "--cache-dir", str(tmp_path / "cache")]
    code = main([*command, "--data", str(data), "--dev", str(dev), "--out", str(out), "--report"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    printed = captured.out
    assert f"report written to {out / REPORT_HTML}" in printed
    entry = _metrics(out)["usage_pairs"]
    # the evaluation with --dev itself (test_evaluate_wic's slow twin runs it without --report): the lemmas of --dev
    # also in --data are warned about, and the one threshold is chosen on the dev pairs, for every pair of pairs.csv
    assert "2 of the 2 lemmas of --dev" in captured.err and "chosen on" in printed
    assert entry["threshold_from"] == "dev" and len(entry["thresholds"]) == 1 and entry["dev_overlap"] == 2
    table = pd.read_csv(out / PAIRS_FILE)
    assert (table["fold"] == 0).all() and (table["threshold"] == entry["thresholds"][0]).all()
    assert table["correct"].mean() == pytest.approx(_metrics(out)["overall"]["accuracy"], abs=1e-12)
    html = (out / REPORT_HTML).read_text(encoding="utf-8")
    markdown = (out / REPORT_MARKDOWN).read_text(encoding="utf-8")
    for text in (html, markdown):
        assert f"{entry['accuracy']:.3f}" in text and f"{entry['auc']:.3f}" in text
        assert f"{entry['accuracy_ci'][0]:.3f}, {entry['accuracy_ci'][1]:.3f}" in text
        assert f"{entry['thresholds'][0]:.3f}" in text and "threshold (dev)" in text
        assert "ROC AUC" in text and "dev.data.txt" in text
    assert html.count("data:image/png;base64,") == 2  # both figures embedded: the page stands alone
    for name in FIGURES:
        assert f"{FIGURES_DIR}/{name}" in markdown
        assert manifest.status(out / FIGURES_DIR / name, thorough=True) == "match"
    for name in (REPORT_HTML, REPORT_MARKDOWN):
        assert manifest.status(out / name, thorough=True) == "match"


def test_wsd_report_of_a_wic_folder(folder: Path, capsys) -> None:
    out = _ok(capsys, main(["report", "--run", str(folder)]))
    assert str(folder / REPORT_HTML) in out
    markdown = (folder / REPORT_MARKDOWN).read_text(encoding="utf-8")
    entry = _metrics(folder)["usage_pairs"]
    assert "Lemma folds" in markdown and f"thresholds ({len(entry['thresholds'])} lemma folds)" in markdown
    assert "Lemmas with the most errors" in markdown or "0 pairs of 8 judged wrong" in markdown
    assert all((folder / FIGURES_DIR / name).is_file() for name in FIGURES)
    # written again: its own files are replaced, nothing else is touched
    before = (folder / PAIRS_FILE).read_bytes()
    _ok(capsys, main(["report", "--run", str(folder)]))
    assert (folder / PAIRS_FILE).read_bytes() == before


def test_senses_or_change_with_a_wic_folder_is_one_line(folder: Path, capsys) -> None:
    err = _one_line_error(capsys, main(["report", "--run", str(folder), "--senses", str(folder)]))
    assert "wic evaluation" in err
    assert not _report_names(folder)


def _flip_digit(path: Path) -> None:
    """Change one digit of the first cosine, keeping the size and the modification time (only a hash tells)."""
    stat = path.stat()
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    fields = lines[1].split(",")
    cosine = fields[5]
    fields[5] = cosine[:-1] + ("1" if cosine[-1] != "1" else "2")
    lines[1] = ",".join(fields)
    path.write_text("".join(lines), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size


@pytest.mark.parametrize("name", [PAIRS_FILE, METRICS_FILE])
@pytest.mark.parametrize("how", ["appended", "same size and time"])
def test_a_tampered_table_is_refused_naming_it(folder: Path, capsys, name: str, how: str) -> None:
    path = folder / name
    if how == "appended":
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    elif name == PAIRS_FILE:
        _flip_digit(path)
    else:
        stat = path.stat()
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace('"wic"', '"wiC"', 1), encoding="utf-8")
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    err = _one_line_error(capsys, main(["report", "--run", str(folder)]))
    assert str(path) in err and "changed since wsd wrote it" in err
    assert not _report_names(folder)  # no report of a table nobody can vouch for


def _corrupt(table: pd.DataFrame, how: str) -> pd.DataFrame:
    if how == "missing column":
        return table.drop(columns=["threshold"])
    if how == "not a number":
        return table.assign(cosine=["high", *table["cosine"].iloc[1:]])
    if how == "a pair dropped":
        return table.iloc[1:]
    flipped = table.copy()  # "correct disagrees": the accuracy no longer that of metrics.json
    flipped.loc[0, "correct"] = 1 - flipped.loc[0, "correct"]
    return flipped


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("missing column", "no column threshold"),
        ("not a number", "is not a number"),
        ("a pair dropped", "7 pairs, but"),
        ("correct disagrees", "gives accuracy"),
    ],
)
def test_a_malformed_pairs_table_without_a_manifest_is_one_line(folder: Path, capsys, how: str, message: str) -> None:
    (folder / MANIFEST_FILE).unlink()  # a folder nobody recorded: the report checks the tables themselves
    path = folder / PAIRS_FILE
    _corrupt(pd.read_csv(path, keep_default_na=False), how).to_csv(path, index=False)
    err = _one_line_error(capsys, main(["report", "--run", str(folder)]))
    assert str(path) in err and message in err


def test_page_parts_by_hand() -> None:
    entry = {
        "file": "d.txt",
        "dev": "dev.txt",
        "dev_overlap": 0,
        "threshold_from": "dev",
        "thresholds": [0.61],
        "pairs": 10,
        "lemmas": 3,
        "same": 4,
        "accuracy": 0.7,
        "accuracy_ci": [0.4, 0.9],
        "auc": 0.8,
        "auc_ci": [0.55, 0.95],
    }
    facts = pairs_facts({"usage_pairs": entry, "embedding": {"model": "m", "dim": 4}})
    assert facts[1] == "Threshold: chosen on the dev file dev.txt; no lemma in common"
    assert facts[2] == "Pairs: 10 of 3 lemmas; 4 same sense (40.0%)" and facts[3] == "Encoder: model m, dim 4"
    rows = scores_table(entry).rows
    assert rows[0] == ["accuracy", "0.700", "[0.400, 0.900]"] and rows[1] == ["ROC AUC", "0.800", "[0.550, 0.950]"]
    assert np.isclose(float(rows[2][1]), 0.61)
