"""Tests for the generic TSV/JSONL occurrence format and the dataset registry (no shared datasets needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets import DatasetBundle, available_datasets, load_dataset
from wsd.evaluate.datasets.generic import check_sense, detect_format, read_generic, write_generic
from wsd.occurrences import validate_occurrences

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"


def test_read_valid_tsv_with_quotes_tabs_and_blank_lines() -> None:
    table = read_generic(FIXTURES / "valid.tsv")
    assert table["id"].tolist() == ["b1", "b2", "m1"]
    assert table["form"].tolist() == ["bank", "bank", "mice"]
    assert table.loc[1, "text"] == 'The "bank" raised\tits rates.'
    assert table["sense"].tolist() == ["river", "money/0.8 building/0.2", ""]
    assert table["doc_id"].tolist() == ["d1", "d1", "m1"]  # empty doc_id defaults to the id
    assert (table["doc_start"] == 0).all()
    validate_occurrences(table)


def test_read_valid_jsonl_optional_fields() -> None:
    table = read_generic(FIXTURES / "valid.jsonl")
    assert table["form"].tolist() == ["bank", "mice", "за́мок"]
    assert table["sense"].tolist() == ["river", "", ""]
    assert table.loc[1, "doc_id"] == "d2"
    assert table.loc[1, "doc_start"] == 10
    assert "note" not in table.columns


@pytest.mark.parametrize("name", ["out.tsv", "out.jsonl", "out.tsv.gz", "out.data"])
def test_round_trip(tmp_path: Path, name: str) -> None:
    table = pd.DataFrame(
        {
            "id": ["a", "b", "c"],
            "target": ["x", "x", "y"],
            "form": ["ab", '"q', "é"],
            "text": ["ab\rcd\te", 'x "q" \n\r\n y', "  é  "],
            "start": [0, 2, 2],
            "end": [2, 4, 3],
            "doc_id": ["a", "doc", "c"],
            "doc_start": [0, 5, 0],
            "sense": ["s1/0.5 s2/0.5", "", "s1"],
        }
    )
    path = write_generic(table, tmp_path / name)
    back = read_generic(path)
    pd.testing.assert_frame_equal(back, validate_occurrences(table))


def test_writer_omits_default_columns_and_unlabelled(tmp_path: Path) -> None:
    table = read_generic(FIXTURES / "valid.tsv").drop(columns="sense")
    table["doc_id"] = table["id"]
    path = write_generic(table, tmp_path / "plain.tsv")
    assert path.read_text(encoding="utf-8").splitlines()[0] == "id\ttarget\ttext\tstart\tend"
    assert "sense" not in read_generic(path).columns


def test_writer_rejects_bad_tables_and_formats(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing column"):
        write_generic(pd.DataFrame({"id": ["a"]}), tmp_path / "x.tsv")
    table = read_generic(FIXTURES / "valid.tsv")
    with pytest.raises(ConfigError, match="format"):
        write_generic(table, tmp_path / "x.tsv", format="csv")


def test_detect_format() -> None:
    assert detect_format("a.TSV") == "tsv"
    assert detect_format("a.ndjson.gz") == "jsonl"
    assert detect_format(FIXTURES / "valid.jsonl", "tsv") == "tsv"
    with pytest.raises(ConfigError):
        detect_format("a.tsv", "xml")


def test_format_sniffed_from_content(tmp_path: Path) -> None:
    path = tmp_path / "data.dat"
    path.write_text((FIXTURES / "valid.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    assert len(read_generic(path)) == 3


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bad_header.tsv", r"bad_header\.tsv:1: header lacks start"),
        ("bad_offset.tsv", r"bad_offset\.tsv:3: start is not an integer: 'four'"),
        ("span_outside.tsv", r"span_outside\.tsv:4: span 4-80 lies outside the text \(8 characters\)"),
        ("duplicate_id.tsv", r"duplicate_id\.tsv:3: id 'b1' already used on line 2"),
        ("short_record.tsv", r"short_record\.tsv:2: 4 fields, the header has 5"),
        ("bad_weight.tsv", r"bad_weight\.tsv:2: 'river/high' has a weight that is not a non-negative number"),
        ("bad_json.jsonl", r"bad_json\.jsonl:2: not valid JSON"),
        ("duplicate_id.jsonl", r"duplicate_id\.jsonl:3: id 'b1' already used on line 1"),
        ("missing_field.jsonl", r"missing_field\.jsonl:1: missing field\(s\) end"),
        ("form_mismatch.jsonl", r"form_mismatch\.jsonl:1: form 'banks' is not text\[4:8\]"),
        ("float_offset.jsonl", r"float_offset\.jsonl:1: start is not an integer: 4\.5"),
    ],
)
def test_errors_name_file_and_line(name: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        read_generic(FIXTURES / name)


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        read_generic(tmp_path / "nope.tsv")
    with pytest.raises(InputError, match=r"generic data file .* is a folder, not a file"):
        read_generic(tmp_path)
    empty = tmp_path / "empty.tsv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="empty file"):
        read_generic(empty)


def test_check_sense() -> None:
    assert check_sense(" a/1  b ") == "a/1 b"
    with pytest.raises(InputError, match="weight"):
        check_sense("a/-1")
    with pytest.raises(InputError, match="weight"):
        check_sense("/0.5")


def test_registry_generic_bundle() -> None:
    bundle = load_dataset("generic", FIXTURES / "valid.tsv")
    assert isinstance(bundle, DatasetBundle)
    assert bundle.name == "valid.tsv"
    assert bundle.stats == {"records": 3, "labelled": 2, "targets": 2}
    assert bundle.gold == (FIXTURES / "valid.tsv",)
    assert bundle.labelled


def test_registry_errors() -> None:
    assert available_datasets() == ("semeval2013", "semeval2010", "russe2018", "generic", "wug")
    with pytest.raises(ConfigError, match="unknown dataset 'semeval2015'"):
        load_dataset("semeval2015", FIXTURES)
    with pytest.raises(ConfigError, match=re.escape("has no option 'splits'")):
        load_dataset("semeval2013", FIXTURES, splits="main")
    with pytest.raises(InputError, match="not a semeval2010-task14 folder"):
        load_dataset("semeval2010", FIXTURES / "semeval2013-task13")


def test_bundle_select() -> None:
    bundle = load_dataset("semeval2010", FIXTURES)
    assert bundle.select("nouns")["id"].tolist() == ["air.n.1"]
    with pytest.raises(ConfigError, match="no subset 'adverbs'"):
        bundle.select("adverbs")
