"""Metadata through the scan: --meta fields and columns, --slice-from-path, kept in runs, typed, checked."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import wsd
from wsd.corpus.metadata import MetaSpec
from wsd.errors import ConfigError, InputError
from wsd.io.run_reader import load_run
from wsd.occurrences import metadata_column, metadata_dtype, value_kind
from wsd.workflows.embedding import embed_corpus

RECORDS = [
    {"text": "The mouse ran past the bank of the river.", "year": 1850, "source": "novel"},
    {"text": "Nothing to see here.", "year": 1851, "source": "news"},
    {"text": "Click the mouse button twice.", "year": 1990, "source": "manual"},
    {"text": "The bank raised its rates; a mouse watched.", "year": 1995, "source": "news"},
]


def _write(tmp_path, kind):
    frame = pd.DataFrame(RECORDS)
    path = tmp_path / f"corpus.{kind}"
    if kind == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    elif kind == "csv":
        frame.to_csv(path, index=False)
    elif kind == "tsv":
        frame.to_csv(path, index=False, sep="\t")
    else:
        frame.to_parquet(path, index=False)
    return path


@pytest.mark.parametrize("kind", ["jsonl", "csv", "tsv", "parquet"])
def test_scan_keeps_requested_fields_typed(tmp_path, kind):
    occurrences = wsd.scan(_write(tmp_path, kind), "mouse,bank", meta=["year", "source"])
    assert occurrences.columns.tolist()[-2:] == ["year", "source"]
    assert occurrences["year"].dtype == np.int64
    by_target = occurrences.groupby("target")["year"].apply(sorted).to_dict()
    assert by_target == {"bank": [1850, 1995], "mouse": [1850, 1990, 1995]}
    assert occurrences.loc[occurrences["year"] == 1990, "source"].tolist() == ["manual"]


@pytest.mark.parametrize("kind", ["jsonl", "csv", "parquet"])
def test_embedded_run_keeps_metadata(tmp_path, encoder, kind):
    corpus = _write(tmp_path, kind)
    run = embed_corpus(corpus, "mouse,bank", tmp_path / "run", meta="year,source", encoder=encoder, progress=False)
    occurrences, vectors = load_run(run)
    assert len(occurrences) == len(vectors) == 5
    assert occurrences["year"].dtype == np.int64
    assert occurrences["year"].tolist() == [1850, 1850, 1990, 1995, 1995]
    assert occurrences["source"].tolist() == ["novel", "novel", "manual", "news", "news"]
    meta = json.loads((run / "meta.json").read_text())
    assert meta["metadata_columns"] == {"year": "int64", "source": "str"}
    assert meta["config"]["scan"]["meta"] == ["year", "source"]
    scanned = wsd.scan(corpus, "mouse,bank", meta=["year", "source"])
    pd.testing.assert_frame_equal(occurrences, scanned)


def test_run_without_metadata_keeps_its_config(tmp_path, encoder):
    corpus = _write(tmp_path, "jsonl")
    run = embed_corpus(corpus, "mouse", tmp_path / "run", encoder=encoder, progress=False)
    meta = json.loads((run / "meta.json").read_text())
    assert "meta" not in meta["config"]["scan"] and "metadata_columns" not in meta
    occurrences, _ = load_run(run)
    assert "year" not in occurrences.columns


def test_missing_values_warn_with_count_and_place_and_keep_null(tmp_path):
    path = tmp_path / "c.jsonl"
    records = [{"text": "a mouse", "year": 1850}, {"text": "no target"}, {"text": "the mouse"}, {"text": "mouse"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    with pytest.warns(UserWarning, match=r"'year': 2 document\(s\).*the first at c\.jsonl:3"):
        occurrences = wsd.scan(path, "mouse", meta=["year"])
    assert str(occurrences["year"].dtype) == "Int64"
    assert occurrences["year"].isna().tolist() == [False, True, True]


def test_mixed_text_and_numbers_become_text_with_a_warning(tmp_path):
    path = tmp_path / "c.jsonl"
    records = [{"text": "a mouse", "year": 1850}, {"text": "the mouse", "year": "c. 1900"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    with pytest.warns(UserWarning, match=r"'year' mixes int, str values \(text first at c\.jsonl:2\)"):
        occurrences = wsd.scan(path, "mouse", meta=["year"])
    assert occurrences["year"].tolist() == ["1850", "c. 1900"]


def test_dtype_rules():
    assert [value_kind(v) for v in ("1850", "007", "-3", "2.5", True, "", None)] == [
        "int",
        "str",
        "int",
        "float",
        "bool",
        None,
        None,
    ]
    assert metadata_dtype({"int", "float"}) == "float64"
    assert metadata_dtype({"bool"}, missing=True) == "boolean"
    assert metadata_dtype(set()) == "str"
    assert metadata_column([1.5, "2", None]).tolist()[:2] == [1.5, 2.0]
    assert metadata_column(["true", "false"], "bool").tolist() == [True, False]


# ---------------------------------------------------------------------------------------------- bad input
def test_absent_table_column_is_an_error_naming_file_and_column(tmp_path):
    path = _write(tmp_path, "csv")
    with pytest.raises(InputError, match=r"corpus\.csv, line 1: no column 'decade' in the header"):
        wsd.scan(path, "mouse", meta=["decade"])
    with pytest.raises(InputError, match=r"corpus\.parquet: no column 'decade'"):
        wsd.scan(_write(tmp_path, "parquet"), "mouse", meta=["decade"])


def test_field_in_no_record_of_a_jsonl_file_is_an_error(tmp_path):
    expected = r"--meta field 'decade' is in none of the corpus files: corpus\.jsonl has the fields text, year"
    with pytest.raises(InputError, match=expected):  # checked before the scan starts
        wsd.scan(_write(tmp_path, "jsonl"), "mouse", meta=["decade"])


def test_object_value_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"text": "a mouse", "year": 1}\n{"text": "a mouse", "year": {"y": 2}}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"c\.jsonl, line 2: --meta field 'year' is an object"):
        wsd.scan(path, "mouse", meta=["year"])


@pytest.mark.parametrize("name", ["id", "text", "target", "sense", "doc_start"])
def test_reserved_names_are_refused(tmp_path, name):
    with pytest.raises(InputError, match=rf"'{name}' is (a column of the occurrence table|the field that holds)"):
        wsd.scan(_write(tmp_path, "jsonl"), "mouse", meta=[name])


def test_meta_on_plain_text_is_an_error(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("a mouse\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"c\.txt: a plain-text file has no fields"):
        wsd.scan(path, "mouse", meta=["year"])


def test_meta_of_wrong_type_is_a_config_error():
    with pytest.raises(ConfigError, match="must be a list of field names"):
        MetaSpec.build(3)  # type: ignore[arg-type]
