"""The WUG reader on every folder layout of ../shared/datasets/lscd and on small hand-made folders."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from helpers import WUG_USES_HEADER, write_lines, write_wug, wug_use

from wsd.errors import InputError
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.datasets.wug import dataset_folder, period_of, period_order

LSCD = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "lscd"


def make_period_wug(root: Path, suffix: str = ".csv", stats_dir: str = "stats/opt", clusters: bool = True) -> Path:
    """Two words, two periods; contexts with bare quotes (quoting must be off)."""
    uses = {
        "mouse": [
            wug_use("mouse", "1", "m1", 'the "mouse" ran', "5:10"),
            wug_use("mouse", "1", "m2", "a mouse in the barn", "2:7"),
            wug_use("mouse", "2", "m3", "click the mouse button", "10:15", date="1990"),
            wug_use("mouse", "2", "m4", 'a "wireless mouse', "12:17", date="1995"),
        ],
        "bank": [
            wug_use("bank", "1", "b1", "the bank of the river", "4:8"),
            wug_use("bank", "2", "b2", "the bank lent money", "4:8", date="2001"),
        ],
    }
    gold = {"mouse": ["m1\t0", "m2\t0", "m3\t1", "m4\t-1"], "bank": ["b1\t0", "b2\t1"]}
    stats = [
        "lemma\tgrouping\tchange_binary\tchange_graded\tk1\tn1\tCOMPARE",
        "bank\t1_2\t1\t1.0\t1\t5\t1.5",
        "mouse\t1_2\t0\t0.5\t1\t5\t2.5",
    ]
    clustered = gold if clusters else None
    return write_wug(root, uses, clusters=clustered, stats=stats, suffix=suffix, stats_dir=stats_dir)


@pytest.mark.parametrize(("suffix", "stats_dir"), [(".csv", "stats/opt"), (".tsv", "stats/opt"), (".csv", "stats")])
def test_reads_a_small_wug_folder(tmp_path: Path, suffix: str, stats_dir: str) -> None:
    bundle = load_dataset("wug", make_period_wug(tmp_path, suffix, stats_dir))
    table = bundle.occurrences.set_index("id")
    assert table.loc["m1", "form"] == "mouse" and table.loc["m1", "text"] == 'the "mouse" ran'
    assert table.loc["m4", "form"] == "mouse" and table.loc["m4", "sense"] == ""  # noise: left out
    assert table.loc["m3", ["sense", "grouping", "date", "target"]].tolist() == ["1", 2, 1990, "mouse"]
    # grouping and date are metadata columns, typed as a corpus scan with --meta grouping,date types them
    assert table["grouping"].dtype == "int64" and table["date"].dtype == "int64"
    assert bundle.stats == {"words": 2, "uses": 6, "clustered": 5, "noise": 1, "unclustered": 0}
    assert list(bundle.subsets) == ["1", "2"] and bundle.subsets["2"] == {"m3", "m4", "b2"}
    gold = bundle.gold_change.set_index("target")
    assert gold.loc["bank", "change_graded"] == 1.0 and gold.loc["mouse", "change_binary"] == 0
    assert gold.loc["mouse", ["k", "n"]].tolist() == [1, 5] and gold.loc["bank", "COMPARE"] == 1.5


def test_a_folder_holding_one_dataset_and_no_clusters(tmp_path: Path) -> None:
    make_period_wug(tmp_path / "rusemshift_1" / "DWUG", clusters=False)
    bundle = load_dataset("wug", tmp_path / "rusemshift_1")
    assert "sense" not in bundle.occurrences and bundle.stats["clustered"] == 0
    assert dataset_folder(tmp_path / "rusemshift_1") == tmp_path / "rusemshift_1" / "DWUG"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda root: (root / "data/bank/uses.csv").write_text(WUG_USES_HEADER + "\nbank\tNN\t1\t1\tb1\n"),
            r"uses\.csv:2: 5 tab",
        ),
        (
            lambda root: (root / "data/bank/uses.csv").write_text(
                WUG_USES_HEADER + "\n" + wug_use("bank", "1", "x", "ab", "1:9")
            ),
            r"uses\.csv:2: target span 1:9 lies outside",
        ),
        (
            lambda root: (root / "data/bank/uses.csv").write_text(
                WUG_USES_HEADER + "\n" + wug_use("bank", " ", "x", "a bank", "2:6")
            ),
            "empty grouping",
        ),
        (lambda root: (root / "data/bank/uses.csv").write_text("lemma\tcontext\nbank\tx\n"), "missing column"),
        (lambda root: (root / "clusters/opt/bank.csv").write_text("identifier\tcluster\nb1\tzero\n"), "not a number"),
        (lambda root: (root / "clusters/opt/bank.csv").unlink(), "gold clusters for 1 of 2 words"),
        (lambda root: (root / "data/bank/uses.csv").write_bytes(b"\xff\xfe"), "UTF-8"),
    ],
)
def test_malformed_folders_are_clear_errors(tmp_path: Path, edit, message: str) -> None:
    root = make_period_wug(tmp_path)
    edit(root)
    with pytest.raises(InputError, match=message):
        load_dataset("wug", root)


def test_three_periods_and_missing_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_dataset("wug", tmp_path / "absent")
    with pytest.raises(InputError, match="not a WUG dataset folder"):
        load_dataset("wug", tmp_path)
    root = make_period_wug(tmp_path / "three")
    write_lines(root / "data/bank/uses.csv", [WUG_USES_HEADER, wug_use("bank", "3", "b9", "the bank", "4:8")])
    (root / "clusters/opt/bank.csv").write_text("identifier\tcluster\nb9\t0\n", encoding="utf-8")
    with pytest.raises(InputError, match="3 periods"):
        load_dataset("wug", root)


def test_period_order_and_index() -> None:
    assert period_order(["1970-2015", "1929-1965", "1929-1965"]) == ["1929-1965", "1970-2015"]
    assert period_order(["10", "9"]) == ["9", "10"]
    frame = pd.DataFrame({"grouping": ["2", "1", "2"]})
    assert period_of(frame).tolist() == [1, 0, 1]
    with pytest.raises(InputError, match="grouping"):
        period_of(pd.DataFrame({"x": [1]}))


REAL = {
    "dwug_en": (46, 9107, ["1", "2"], True),
    "nordiachange/subset1": (40, 875, ["1929-1965", "1970-2015"], True),
    "nordiachange/subset2": (40, 874, ["1980-1990", "2012-2019"], True),
    "rusemshift/rusemshift_1": (71, 8430, ["1", "2"], False),
    "rusemshift/rusemshift_2": (69, 7266, ["1", "2"], False),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_every_layout_in_the_shared_lscd_data(name: str) -> None:
    if not (LSCD / name).is_dir():
        pytest.skip(f"{LSCD / name} is not on this machine")
    words, uses, periods, clustered = REAL[name]
    bundle = load_dataset("wug", LSCD / name)
    table = bundle.occurrences
    assert (bundle.stats["words"], bundle.stats["uses"], list(bundle.subsets)) == (words, uses, periods)
    assert ("sense" in table) == clustered
    assert bundle.gold_change is not None and len(bundle.gold_change) == words
    assert set(bundle.gold_change["target"]) == set(table["target"])
    # the form lies at the span and is a form of the word (first letters agree, case aside)
    forms = [text[s:e] for text, s, e in zip(table["text"], table["start"], table["end"], strict=True)]
    assert forms == table["form"].tolist()
    assert table["grouping"].notna().all()
    # the metadata dtype rule: integral labels and dates are int64, ranges such as 1929-1965 stay text
    assert str(table["grouping"].dtype) == ("str" if name.startswith("nordiachange") else "int64")
    assert str(table["date"].dtype) == ("str" if name.startswith("rusemshift") else "int64")
    if clustered:
        assert {"change_graded", "change_binary"} <= set(bundle.gold_change.columns)
        assert bundle.stats["clustered"] + bundle.stats["noise"] == uses
    else:
        assert "COMPARE" in bundle.gold_change


def test_stats_columns_are_kept_when_empty_and_name_their_lines(tmp_path: Path) -> None:
    root = make_period_wug(tmp_path)
    write_lines(
        root / "stats/opt/stats_groupings.csv", ["lemma\tchange_graded\tCOMPARE", "bank\t\t1.5", "mouse\tNaN\t2"]
    )
    gold = load_dataset("wug", root).gold_change
    assert "change_graded" in gold and gold["change_graded"].isna().all()  # the column the file has, empty
    assert gold.attrs["source"]["lines"] == {"bank": 2, "mouse": 3}
    assert gold.attrs["source"]["file"].endswith("stats_groupings.csv")


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["lemma\tchange_graded"], r"stats_groupings\.csv:1: a header and no rows"),
        (["lemma\tchange_graded", "bank\t-inf"], r"stats_groupings\.csv:2: column change_graded: '-inf' is not a fin"),
        (["lemma\tk1\tn1", "bank\t1\tx"], r"stats_groupings\.csv:2: column n1: 'x' is not a number"),
        (
            ["lemma\tchange_graded", "bank\t1", "bank\t0"],
            r"stats_groupings\.csv:3: word 'bank' twice \(first at line 2",
        ),
    ],
)
def test_bad_stats_values_name_file_line_and_column(tmp_path: Path, lines: list[str], message: str) -> None:
    root = make_period_wug(tmp_path)
    write_lines(root / "stats/opt/stats_groupings.csv", lines)
    with pytest.raises(InputError, match=message):
        load_dataset("wug", root)
