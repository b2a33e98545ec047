"""Tests for the RUSSE 2018 reader: position repair on a tiny fixture, counts on the real data."""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import pytest

from wsd.corpus.forms import match_lemma
from wsd.errors import ConfigError
from wsd.evaluate.datasets import DatasetBundle, load_dataset
from wsd.evaluate.datasets.russe2018 import locate

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"
STATUSES = ("positions_given", "positions_repaired", "positions_located", "positions_unverified", "not_found")


def test_fixture_repairs_and_counts() -> None:
    with pytest.warns(UserWarning, match="repaired in 1"):
        bundle = load_dataset("russe2018", FIXTURES / "russe_mini.csv")
    table = bundle.occurrences.set_index("id")
    assert table.loc["russe_mini/train/1", "form"] == "сучья"
    assert (table.loc["russe_mini/train/2", "start"], table.loc["russe_mini/train/2", "end"]) == (12, 17)
    assert table.loc["russe_mini/train/3", "form"] == "сук"  # no positions: located
    assert table.loc["russe_mini/train/4", "text"] == '"Замок" стоит на горе'  # CSV quoting decoded
    assert table.loc["russe_mini/train/4", "form"] == "Замок"
    assert "russe_mini/train/5" not in table.index  # the word is not in the context
    assert table.loc["russe_mini/train/6", "form"] == "кур"  # unverified
    assert table.loc["russe_mini/train/7", "form"] == "Лавка"  # glued to the previous word
    assert table.loc["russe_mini/train/8", "start"] == 0  # several positions: the earliest
    assert table.loc["russe_mini/train/8", "sense"] == ""
    assert bundle.stats == {
        "rows": 9,
        "loaded": 8,
        "positions_given": 4,
        "positions_repaired": 1,
        "positions_located": 2,
        "positions_unverified": 1,
        "not_found": 1,
        "several_positions": 1,
        "invalid_positions": 1,
    }


def test_locate_statuses() -> None:
    assert locate("Он рубил сук", "сук", []) == ((9, 12), "located")
    assert locate("Он рубил сук", "сук", [(8, 11)]) == ((9, 12), "repaired")
    assert locate("Нет ничего", "сук", [(0, 3)]) == ((0, 3), "unverified")
    assert locate("Нет ничего", "сук", [(1, 3)]) == (None, "not_found")


def test_unknown_split() -> None:
    with pytest.raises(ConfigError, match="no split 'active-dict/dev'"):
        load_dataset("russe2018", FIXTURES, splits="active-dict/dev")
    with pytest.raises(ConfigError, match="no split 'active-rnc/test'"):
        load_dataset("russe2018", FIXTURES, splits=["main", "active-rnc/test"])


def _load(datasets_dir: Path, splits: object) -> DatasetBundle:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_dataset("russe2018", datasets_dir, splits=splits)


@pytest.fixture(scope="module")
def russe_main(datasets_dir: Path) -> DatasetBundle:
    return _load(datasets_dir, "main")


def test_main_counts(russe_main: DatasetBundle) -> None:
    stats = russe_main.stats
    assert stats["rows"] == 439 + 3491 + 2073
    assert sum(stats[name] for name in STATUSES) == stats["rows"]
    assert stats["loaded"] == stats["rows"] - stats["not_found"] == len(russe_main.occurrences)
    assert stats["positions_repaired"] > 0 and stats["positions_located"] > 0
    assert stats["not_found"] < 0.01 * stats["rows"]
    assert {k: len(v) for k, v in russe_main.subsets.items() if "/" in k} == {
        "wiki-wiki/train": 439,
        "bts-rnc/train": 3491,
        "active-dict/train": stats["loaded"] - 439 - 3491,
    }
    assert russe_main.occurrences["sense"].astype(bool).all()


def test_found_spans_are_forms_of_the_target(russe_main: DatasetBundle, datasets_dir: Path) -> None:
    table = russe_main.occurrences
    spans = [text[a:b] for text, a, b in zip(table["text"], table["start"], table["end"], strict=True)]
    assert spans == table["form"].tolist()
    matched = [match_lemma([form], target)[0] for form, target in zip(table["form"], table["target"], strict=True)]
    # all but the unverified positions are forms of the target by lemma or stem
    assert len(table) - sum(matched) <= russe_main.stats["positions_unverified"]


def test_repaired_rows(datasets_dir: Path) -> None:
    bundle = _load(datasets_dir, "bts-rnc")
    assert bundle.stats["positions_repaired"] == 24
    raw = datasets_dir / "russe2018-wsi" / "data" / "main" / "bts-rnc" / "train.csv"
    with raw.open(encoding="utf-8", newline="") as handle:
        given = {row["context_id"]: row["positions"] for row in csv.DictReader(handle, delimiter="\t")}
    table = bundle.occurrences
    moved = table[
        [
            f"{a}-{b}" not in given[i.rsplit("/", 1)[1]].split(",")
            for i, a, b in zip(table["id"], table["start"], table["end"], strict=True)
        ]
    ]
    assert len(moved) == bundle.stats["positions_repaired"]
    assert all(match_lemma([form], target)[0] for form, target in zip(moved["form"], moved["target"], strict=True))


def test_additional_end_inclusive(datasets_dir: Path) -> None:
    bundle = _load(datasets_dir, "additional")
    assert bundle.stats["rows"] == 956 + 1828 + 3671
    assert bundle.stats["positions_repaired"] == 0  # the inclusive ends line up once converted
    assert bundle.stats["positions_given"] >= bundle.stats["rows"] - 3


def test_test_split_is_unlabelled(datasets_dir: Path) -> None:
    bundle = _load(datasets_dir, "wiki-wiki/test")
    assert "sense" not in bundle.occurrences.columns
    assert not bundle.labelled and bundle.gold == ()
    mixed = _load(datasets_dir, ["wiki-wiki", "wiki-wiki/test"])
    assert set(mixed.occurrences["sense"] == "") == {True, False}
    assert len(mixed.select("wiki-wiki/test")) == bundle.stats["loaded"]


def test_warns_about_shared_words(datasets_dir: Path) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_dataset("russe2018", datasets_dir, splits=["active-rnc", "active-rutenten"])
    messages = [str(w.message) for w in caught]
    assert any("5499 rows" in m for m in messages)
    assert any("20 word(s) occur in several loaded sub-datasets" in m for m in messages)


def test_a_russe_file_that_is_missing_or_a_folder_is_one_clear_error(tmp_path: Path) -> None:
    from wsd.errors import InputError
    from wsd.evaluate.datasets.russe2018 import read_russe_csv

    with pytest.raises(InputError, match="RUSSE file not found"):
        read_russe_csv(tmp_path / "nope.csv", "bts-rnc")
    with pytest.raises(InputError, match=r"RUSSE file .* is a folder, not a file"):
        read_russe_csv(tmp_path, "bts-rnc")
