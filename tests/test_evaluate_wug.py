"""``wsd evaluate --dataset wug``: senses and change scored on small hand-made WUG folders with known answers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import (
    CHANGE_SENSES,
    GOLD_BINARY,
    GOLD_GRADED,
    change_wug_config,
    change_wug_vectors,
    make_change_wug,
    write_lines,
)

from wsd.cli import main
from wsd.config import build_evaluation_config
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.metrics.change import binary_scores, spearman
from wsd.io.layout import CHANGE_CSV, METRICS_FILE
from wsd.workflows.benchmark import evaluate
from wsd.workflows.wug import change_metrics

LSCD = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "lscd"


def test_known_senses_and_change_give_perfect_scores(tmp_path: Path) -> None:
    root = make_change_wug(tmp_path / "wug")
    occurrences = load_dataset("wug", root).occurrences
    out = tmp_path / "out"
    result = evaluate(
        change_wug_config(root, change_measure="jsd"), out=out, vectors=change_wug_vectors(occurrences), progress=False
    )
    overall = result["overall"]
    assert overall["ari"] == pytest.approx(1.0) and overall["nmi"] == pytest.approx(1.0)
    assert overall["graded_spearman_jsd"] == pytest.approx(1.0)
    assert overall["graded_spearman"] == overall["graded_spearman_jsd"]  # the chosen change measure
    assert overall["binary_accuracy"] == 1.0 and overall["binary_f1"] == 1.0  # k=1, n=3 from the stats file
    assert result["dataset_stats"]["binary_n"] == 3
    assert {"graded_spearman_apd", "graded_spearman_prt"} <= set(overall)
    # baselines beside: one sense per word changes nothing (JSD 0 everywhere: ρ undefined, left out)
    one_sense = result["baselines"]["one-sense"]
    assert "graded_spearman_jsd" not in one_sense and one_sense["binary_f1"] == 0.0
    assert "graded_spearman_jsd" not in result["baselines"]["one-per-instance"]  # JSD 1 for every word
    assert set(result["baselines"]) == {"one-sense", "one-per-instance", "random"}
    table = pd.read_csv(out / CHANGE_CSV).set_index("target")
    assert table.loc["swap", "jsd"] == pytest.approx(1.0)
    assert table.loc["stable", "jsd"] == pytest.approx(0.0, abs=1e-12)
    assert table.loc["half", "jsd"] == pytest.approx(np.sqrt(1.5 - 0.75 * np.log2(3)), abs=1e-9)
    assert table.loc["swap", "change_graded"] == 1.0 and table.loc["half", "change_binary"] == 1
    assert not table.drop(columns="gold_missing").isna().any().any()
    assert table["gold_missing"].isna().all()  # every word has its gold (an empty reason)
    written = json.loads((out / METRICS_FILE).read_text(encoding="utf-8"))
    assert written["dataset"] == "wug" and written["config"]["change_measure"] == "jsd"
    assert "NaN" not in (out / METRICS_FILE).read_text(encoding="utf-8")


def test_the_default_change_score_is_the_configured_measure(tmp_path: Path) -> None:
    root = make_change_wug(tmp_path / "wug")
    X = change_wug_vectors(load_dataset("wug", root).occurrences)
    result = evaluate(change_wug_config(root), vectors=X, progress=False)
    from wsd.schema import DEFAULT_MEASURE

    assert result["overall"]["graded_spearman"] == result["overall"][f"graded_spearman_{DEFAULT_MEASURE}"]


def test_without_clusters_rho_is_against_minus_compare(tmp_path: Path) -> None:
    root = make_change_wug(
        tmp_path / "rusemshift" / "DWUG", clusters=False, graded=False, periods=("1700-1916", "1918-1990")
    )
    bundle = load_dataset("wug", root.parent)
    X = change_wug_vectors(bundle.occurrences)
    result = evaluate(change_wug_config(root.parent, change_measure="jsd"), vectors=X, progress=False)
    assert "ari" not in result["overall"]  # no gold clusters: no sense scores
    assert result["overall"]["graded_spearman"] == pytest.approx(1.0)  # COMPARE 4, 3, 2: less related = more change
    assert result["n_instances"] == 36


def test_change_metrics_and_spearman_definitions() -> None:
    assert spearman([3, 1, 2], [30, 10, 20]) == 1.0
    assert spearman([1, 2, 3], [3, 2, 1]) == -1.0
    assert spearman([1, 1], [1, 2]) is None
    assert spearman([1.0, 0.9999999999999998, 0.9999999999999999], [1, 2, 3]) is None  # noise is no ranking
    assert binary_scores([0, 0], [0, 0]) == {"binary_accuracy": 1.0, "binary_f1": 0.0}
    ranking = pd.DataFrame({"target": ["a", "b", "c"], "prt": [0.1, 0.3, 0.2], "binary": [False, True, True]})
    gold = pd.DataFrame({"target": ["a", "b", "c"], "change_graded": [0.0, 0.9, 0.5], "change_binary": [0, 1, 0]})
    scores = change_metrics(ranking, ["prt"], "prt", gold)
    assert scores["graded_spearman"] == 1.0 and scores["binary_accuracy"] == pytest.approx(2 / 3)


def test_cli_wug_writes_metrics_and_change_csv(tmp_path: Path, capsys) -> None:
    root = make_change_wug(tmp_path / "wug")
    out = tmp_path / "out"
    args = ["evaluate", "--dataset", "wug", "--data", str(root), "--out", str(out), "--measure", "apd"]
    code = main([*args, "--binary-n", "4", "--no-progress"])
    assert code == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert "graded_spearman" in printed and "one-sense" in printed
    document = json.loads((out / METRICS_FILE).read_text(encoding="utf-8"))
    overall = document["overall"]
    assert {"ari", "nmi", "graded_spearman", "graded_spearman_jsd", "binary_accuracy", "binary_f1"} <= set(overall)
    assert overall["graded_spearman"] == overall["graded_spearman_apd"]  # --measure apd
    assert document["config"]["change_measure"] == "apd" and document["dataset_stats"]["binary_n"] == 4
    assert len(pd.read_csv(out / CHANGE_CSV)) == 3


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda root: None, "WUG dataset folder not found"),
        (lambda root: (root / "data").mkdir(parents=True), "no word folders"),
    ],
)
def test_cli_wug_bad_input_is_one_line(tmp_path: Path, capsys, build, message: str) -> None:
    root = tmp_path / "wug"
    build(root)
    code = main(["evaluate", "--dataset", "wug", "--data", str(root), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_cli_wug_needs_data(capsys) -> None:
    assert main(["evaluate", "--dataset", "wug"]) == 2
    assert "--data is required for dataset 'wug'" in capsys.readouterr().err


def test_wug_without_any_gold_is_refused(tmp_path: Path, capsys) -> None:
    root = make_change_wug(tmp_path / "wug", clusters=False)
    (root / "stats" / "opt" / "stats_groupings.csv").unlink()
    assert main(["evaluate", "--dataset", "wug", "--data", str(root), "--no-progress"]) == 2
    assert "neither gold clusters nor gold change scores" in capsys.readouterr().err


@pytest.mark.datasets
def test_dwug_en_two_words(tmp_path: Path, encoder) -> None:
    folder = LSCD / "dwug_en"
    if not folder.is_dir():
        pytest.skip(f"DWUG EN not found at {folder}")
    config = build_evaluation_config(dataset="wug", data=str(folder), targets=["afternoon_nn", "plane_nn"])
    result = evaluate(config, out=tmp_path / "out", encoder=encoder, progress=False)
    overall = result["overall"]
    assert result["n_targets"] == 2 and 0.0 <= overall["nmi"] <= 1.0
    # plane_nn changed (graded 0.88), afternoon_nn did not (0.0): every vector measure ranks them so
    assert overall["graded_spearman_apd"] == pytest.approx(1.0) and overall["graded_spearman_prt"] == pytest.approx(1.0)
    table = pd.read_csv(tmp_path / "out" / CHANGE_CSV).set_index("target")
    assert table.loc["afternoon_nn", "change_graded"] == 0.0
    # the judged pairs of both words, read and scored (the default vectors follow them: ρ above 0)
    usage = result["usage_pairs"]
    assert usage["words"] == 2 and usage["pairs"] > 100 and usage["spearman_words"] > 0 and usage["without"] == {}


# ---------------------------------------------------------------------------------- honest gold (issue 26, finding 5)
STATS = Path("stats") / "opt" / "stats_groupings.csv"


def _stats(root: Path, rows: list[str], header: str = "lemma\tchange_binary\tk1\tn1\tchange_graded\tCOMPARE") -> None:
    write_lines(root / STATS, [header, *rows])


def _run_cli(root: Path, out: Path, capsys) -> tuple[int, str, str]:
    code = main(["evaluate", "--dataset", "wug", "--data", str(root), "--out", str(out), "--k", "2", "--no-progress"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("empty", ["", "nan"])
def test_an_empty_change_graded_is_not_replaced_by_compare(tmp_path: Path, empty: str) -> None:
    root = make_change_wug(tmp_path / "wug")
    _stats(root, [f"{w}\t{GOLD_BINARY[w]}\t1\t3\t{empty}\t{4 - 2 * g}" for w, g in GOLD_GRADED.items()])
    X = change_wug_vectors(load_dataset("wug", root).occurrences)
    out = tmp_path / "out"
    with pytest.warns(UserWarning, match="no graded_spearman: no word has a change_graded value"):
        result = evaluate(change_wug_config(root, change_measure="jsd"), out=out, vectors=X, progress=False)
    assert not any(name.startswith("graded_spearman") for name in result["overall"])  # was 100.00 against -COMPARE
    graded = result["gold_change"]["graded"]
    assert graded["column"] == "change_graded" and graded["words"] == 0 and "COMPARE is not used" in graded["reason"]
    assert set(graded["without"]) == set(CHANGE_SENSES)
    assert result["overall"]["binary_accuracy"] == 1.0 and result["gold_change"]["binary"]["words"] == 3
    table = pd.read_csv(out / CHANGE_CSV)
    assert len(table) == 3 and table["gold_missing"].str.contains("no change_graded value").all()  # was empty
    assert json.loads((out / METRICS_FILE).read_text(encoding="utf-8"))["gold_change"]["graded"]["words"] == 0


def test_a_word_without_gold_is_counted_and_named(tmp_path: Path, capsys) -> None:
    root = make_change_wug(tmp_path / "wug")
    _stats(root, ["stable\t0\t1\t3\t0.0\t4", "half\t1\t1\t3\t\t3"])  # half: no graded value; swap: no row
    code, printed, err = _run_cli(root, tmp_path / "out", capsys)
    assert code == 0, err
    gold = json.loads((tmp_path / "out" / METRICS_FILE).read_text(encoding="utf-8"))["gold_change"]
    assert gold["graded"]["words"] == 1 and gold["binary"]["words"] == 2
    assert gold["graded"]["without"] == {
        "half": "no change_graded value in stats_groupings.csv (line 3)",
        "swap": "no row in stats_groupings.csv",
    }
    assert gold["binary"]["without"] == {"swap": "no row in stats_groupings.csv"}
    assert "2 of 3 words have no graded gold" in err and "1 of 3 words have no binary gold" in err
    assert "graded gold: change_graded of 1 words" in printed and "2 without a value" in printed
    table = pd.read_csv(tmp_path / "out" / CHANGE_CSV).set_index("target")
    assert len(table) == 3 and table.loc["swap", "gold_missing"] == "no row in stats_groupings.csv"  # was dropped
    assert np.isnan(table.loc["half", "change_graded"]) and table.loc["half", "change_binary"] == 1


def test_the_compare_fallback_is_named(tmp_path: Path, capsys) -> None:
    root = make_change_wug(tmp_path / "wug", graded=False)
    code, printed, err = _run_cli(root, tmp_path / "out", capsys)
    assert code == 0, err
    document = json.loads((tmp_path / "out" / METRICS_FILE).read_text(encoding="utf-8"))
    assert document["gold_change"]["graded"]["column"] == "-COMPARE" and "graded_spearman" in document["overall"]
    assert "graded gold: -COMPARE of 3 words" in printed


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([], r"stats_groupings\.csv:1: a header and no rows"),
        (["stable\t0\tabc\t3\t0.0\t4"], r"stats_groupings\.csv:2: column k1: 'abc' is not a number"),
        (["stable\t0\t1\t3\tinf\t4"], r"stats_groupings\.csv:2: column change_graded: 'inf' is not a finite number"),
        (["stable\t0\t1\tinf\t0.0\t4"], r"stats_groupings\.csv:2: column n1: 'inf' is not a finite number"),
        (["stable\t0\t1.5\t3\t0.0\t4"], r"stats_groupings\.csv:2: column k1: '1.5' is not a whole number"),
    ],
)
def test_bad_stats_files_are_one_line_exit_2(tmp_path: Path, capsys, rows: list[str], message: str) -> None:
    import re

    root = make_change_wug(tmp_path / "wug")
    _stats(root, rows)
    code, _, err = _run_cli(root, tmp_path / "out", capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "unexpected error" not in err
    assert re.search(message, err), err
    assert not (tmp_path / "out" / "run").exists()  # refused before any embedding


def test_no_clusters_and_no_usable_change_gold_is_refused_before_work(tmp_path: Path, capsys) -> None:
    root = make_change_wug(tmp_path / "wug", clusters=False)
    _stats(root, ["stable\t\t1\t3\t\t4"], header="lemma\tchange_binary\tk1\tn1\tchange_graded\tCOMPARE")
    code, _, err = _run_cli(root, tmp_path / "out", capsys)
    assert code == 2 and "neither gold clusters nor gold change scores" in err and "change_graded" in err
    assert not (tmp_path / "out" / "run").exists()
