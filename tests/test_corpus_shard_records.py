"""Byte-range shards read records with the same checks as whole files (no Python repr embedded as text)."""

from __future__ import annotations

import json
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from wsd.corpus.documents import iter_documents
from wsd.corpus.scan import build_scan_options
from wsd.corpus.shards import iter_shard_documents, plan_shards
from wsd.errors import InputError


def _all_shard_documents(corpus, shard_bytes: int):
    shards = plan_shards(corpus, shard_bytes)
    return shards, [doc for shard in shards for doc in iter_shard_documents(shard)]


def test_split_jsonl_refuses_a_text_that_is_an_object(tmp_path):
    corpus = tmp_path / "c.jsonl"
    lines = [json.dumps({"text": f"a mouse ran {i}"}) for i in range(40)]
    lines[30] = json.dumps({"text": {"en": "a mouse"}})
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shards = plan_shards(corpus, 200)
    assert len(shards) > 1  # the file really is read in byte ranges
    with pytest.raises(InputError, match=r"c\.jsonl, line 31: 'text' is an object"):
        [doc for shard in shards for doc in iter_shard_documents(shard)]


def test_split_jsonl_gives_the_documents_of_the_whole_file(tmp_path):
    corpus = tmp_path / "c.jsonl"
    records = [{"text": f"a mouse ran {i}", "id": i} if i % 3 else {"text": None} for i in range(40)]
    corpus.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        expected = list(iter_documents(corpus))
        shards, found = _all_shard_documents(corpus, 200)
    assert len(shards) > 1
    assert found == expected
    assert found[0].doc_id == "1"


def test_parquet_row_groups_refuse_a_binary_text_column(tmp_path):
    corpus = tmp_path / "c.parquet"
    pq.write_table(pa.table({"text": pa.array([b"a mouse"] * 10, type=pa.binary())}), corpus, row_group_size=2)
    with pytest.raises(InputError, match="not text"):
        _all_shard_documents(corpus, 1)


def test_parquet_row_groups_number_rows_as_the_whole_file(tmp_path):
    corpus = tmp_path / "c.parquet"
    texts = [f"a mouse {i}" if i != 4 else None for i in range(10)]
    pq.write_table(pa.table({"text": texts}), corpus, row_group_size=3)
    shards, found = _all_shard_documents(corpus, 1)
    assert len(shards) > 1
    assert found == list(iter_documents(corpus))
    assert [d.doc_id for d in found][:5] == ["c.parquet:1", "c.parquet:2", "c.parquet:3", "c.parquet:4", "c.parquet:6"]


def test_shard_plan_leaves_out_an_excluded_folder(tmp_path):
    (tmp_path / "a.txt").write_text("a mouse\n", encoding="utf-8")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("not corpus\n", encoding="utf-8")
    files = {piece.path for shard in plan_shards(tmp_path, exclude=[tmp_path / "out"]) for piece in shard.pieces}
    assert files == {str(tmp_path / "a.txt")}


def test_case_sensitive_scan_keeps_targets_that_differ_in_case():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        options = build_scan_options("mouse,MOUSE", None, case_sensitive=True)
    assert list(options.targets) == ["mouse", "MOUSE"]
    with pytest.warns(UserWarning, match="MOUSE"):
        merged = build_scan_options("mouse,MOUSE", None)
    assert list(merged.targets) == ["mouse"]
