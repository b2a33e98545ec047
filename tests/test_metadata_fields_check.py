"""A misspelled --meta field is one error before any work, also on files scanned in byte ranges; uint64 columns."""

from __future__ import annotations

import json
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from wsd.cli import main
from wsd.corpus import metafields
from wsd.corpus.metadata import MetaSpec
from wsd.corpus.metafields import check_meta_fields
from wsd.corpus.scan import scan
from wsd.errors import InputError


def _jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _records(n, **extra):
    return [{"text": f"line {i}: a mouse here", "year": 1800 + i % 50, **extra} for i in range(n)]


def test_a_misspelled_field_on_a_file_larger_than_a_shard_exits_2_before_the_folder_is_made(tmp_path, capsys):
    # in-process (the exit code of the console script is main's: tests/test_cli_embed.py runs it as a process)
    corpus = _jsonl(tmp_path / "c.jsonl", _records(200))
    out = tmp_path / "run"
    argv = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--meta", "yeer", "--shard-bytes", "500"]
    code = main([*argv, "--out", str(out), "--no-progress"])
    stderr = capsys.readouterr().err
    assert code == 2, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "'yeer'" in lines[0] and "c.jsonl" in lines[0] and "year" in lines[0] and "Traceback" not in stderr
    assert not out.exists()


def test_the_message_names_field_file_and_fields_seen(tmp_path):
    corpus = _jsonl(tmp_path / "c.jsonl", _records(3))
    with pytest.raises(InputError, match=r"'yeer' is in none of the corpus files: c\.jsonl has the fields text, year"):
        check_meta_fields(corpus, MetaSpec.build(["year", "yeer"]))


def test_a_right_name_reads_one_record(tmp_path, monkeypatch):
    corpus = _jsonl(tmp_path / "c.jsonl", _records(50))
    parsed = []
    real = metafields.json.loads
    monkeypatch.setattr(metafields.json, "loads", lambda raw: parsed.append(raw) or real(raw))
    check_meta_fields(corpus, MetaSpec.build(["year"]))
    assert len(parsed) == 1


def test_a_field_that_appears_late_in_the_file_is_no_error(tmp_path, monkeypatch):
    records = _records(300)
    records[250]["source"] = "late"
    corpus = _jsonl(tmp_path / "c.jsonl", records)
    monkeypatch.setattr(metafields, "PROBE_RECORDS", 10)
    check_meta_fields(corpus, MetaSpec.build(["source"]))  # found by the byte search: records decide later
    with pytest.warns(UserWarning, match=r"'source': 299 document"):
        scan(corpus, "mouse", meta=["source"])


def test_a_field_in_one_file_of_several_is_no_error(tmp_path):
    _jsonl(tmp_path / "a.jsonl", _records(5))
    _jsonl(tmp_path / "b.jsonl", _records(5, source="x"))
    check_meta_fields(tmp_path, MetaSpec.build(["source"]))


def test_a_file_beyond_the_search_bound_falls_back_to_the_scan(tmp_path, monkeypatch):
    corpus = _jsonl(tmp_path / "c.jsonl", _records(400))
    monkeypatch.setattr(metafields, "PROBE_SEARCH_BYTES", 1000)
    monkeypatch.setattr(metafields, "_SEARCH_BLOCK", 500)
    check_meta_fields(corpus, MetaSpec.build(["yeer"]))  # cannot tell from 1000 bytes: no error here
    monkeypatch.setattr(metafields, "PROBE_SEARCH_BYTES", 2**30)
    with pytest.raises(InputError, match="'yeer' is in none"):
        check_meta_fields(corpus, MetaSpec.build(["yeer"]))


def test_the_search_over_all_files_is_bounded_and_stops_once_a_field_is_found(tmp_path, monkeypatch):
    for name in ("a", "b", "c"):
        _jsonl(tmp_path / f"{name}.jsonl", _records(100))
    monkeypatch.setattr(metafields, "_SEARCH_BLOCK", 1000)
    monkeypatch.setattr(metafields, "PROBE_TOTAL_BYTES", 12_000)  # about two of the three files
    check_meta_fields(tmp_path, MetaSpec.build(["yeer"]))  # c.jsonl was not searched: it cannot be ruled out
    monkeypatch.setattr(metafields, "PROBE_TOTAL_BYTES", 10**9)
    with pytest.raises(InputError, match=r"'yeer' is in none.*a\.jsonl has the fields text, year.*b\.jsonl"):
        check_meta_fields(tmp_path, MetaSpec.build(["yeer"]))
    opened = []
    real = metafields.open_binary
    monkeypatch.setattr(metafields, "open_binary", lambda path: opened.append(path.name) or real(path))
    check_meta_fields(tmp_path, MetaSpec.build(["year"]))
    assert opened == ["a.jsonl"]


def test_a_quoted_name_split_over_two_search_blocks_is_found(tmp_path, monkeypatch):
    records = _records(40)
    records[-1]["source"] = "x"
    corpus = _jsonl(tmp_path / "c.jsonl", records)
    monkeypatch.setattr(metafields, "PROBE_RECORDS", 1)
    raw = corpus.read_bytes()
    monkeypatch.setattr(metafields, "_SEARCH_BLOCK", raw.index(b'"source"') + 3)
    check_meta_fields(corpus, MetaSpec.build(["source"]))


def test_csv_and_parquet_columns_are_checked_from_header_and_schema(tmp_path):
    (tmp_path / "a.csv").write_text("text,year\na mouse,1850\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"no column 'yeer' in the header"):
        check_meta_fields(tmp_path / "a.csv", MetaSpec.build(["yeer"]))
    pq.write_table(pa.table({"text": ["a mouse"], "year": [1850]}), tmp_path / "b.parquet")
    with pytest.raises(InputError, match=r"no column 'yeer'"):
        check_meta_fields(tmp_path / "b.parquet", MetaSpec.build(["yeer"]))
    check_meta_fields(tmp_path, MetaSpec.build(["year"]))


def test_uint64_values_that_fit_become_int64(tmp_path):
    path = tmp_path / "c.parquet"
    pq.write_table(pa.table({"text": ["a mouse", "the mouse"], "n": pa.array([7, 2**63 - 1], pa.uint64())}), path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = scan(path, "mouse", meta=["n"])
    assert str(found["n"].dtype) == "int64"
    assert found["n"].tolist() == [7, 2**63 - 1]


def test_a_uint64_value_beyond_int64_is_one_clear_error(tmp_path):
    path = tmp_path / "c.parquet"
    values = pa.array([7, 8, 2**64 - 1], pa.uint64())
    pq.write_table(pa.table({"text": ["a mouse", "the mouse", "mice and a mouse"], "n": values}), path)
    with pytest.raises(InputError, match=r"c\.parquet, row 3: --meta column 'n' holds 18446744073709551615"):
        scan(path, "mouse", meta=["n"])
