"""Metadata in runs: --slice-from-path, resume, a different --meta refused, a process pool, a sharded store."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import mice_line

import wsd
from wsd.errors import ConfigError, InputError
from wsd.executors import LocalProcessExecutor
from wsd.io.run_reader import load_run
from wsd.io.run_store import RunStore
from wsd.workflows.embedding import embed_corpus

pytestmark = pytest.mark.slow  # the slow lane: embeddings with metadata through process pools

TARGETS = "mouse:mice,bank"
EMBED = {"precision": "fp32", "batch_size": 1, "vector_dtype": "float32", "progress": False, "chunk_size": 4}
META = ["year", "source"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Folders named by decade; a JSON-lines, a CSV and a Parquet file; one record without a year."""
    root = tmp_path_factory.mktemp("corpus")
    (root / "1850s").mkdir()
    (root / "1990s").mkdir()
    records = []
    for i in range(12):
        record = {"text": mice_line(i), "source": "novel"}
        if i != 5:
            record["year"] = 1850 + i
        records.append(json.dumps(record))
    (root / "1850s" / "a.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    rows = "".join(f"A mouse near the bank in row {i}.,{1990 + i},news\n" for i in range(6))
    (root / "1990s" / "b.csv").write_text("text,year,source\n" + rows, encoding="utf-8")
    table = pd.DataFrame({"text": [f"Two mice at bank {i}." for i in range(8)], "year": 1995, "source": "web"})
    table.to_parquet(root / "1990s" / "c.parquet", row_group_size=3)
    return root


@pytest.fixture(scope="module")
def pool():
    with LocalProcessExecutor(workers=2) as executor:
        yield executor


def _embed_in_this_process(args: tuple[str, str]) -> str:
    corpus, out = args
    return str(embed_corpus(corpus, TARGETS, out, meta=META, slice_from_path=r"(?P<decade>\d{4})s/", **EMBED))


def test_slice_from_path_named_group_and_default_column(corpus):
    with pytest.warns(UserWarning, match=r"'year': 1 document"):
        occurrences = wsd.scan(corpus, TARGETS, meta=META, slice_from_path=r"(?P<decade>\d{4})s/")
    assert occurrences.columns.tolist()[-3:] == ["year", "source", "decade"]
    assert occurrences["decade"].dtype == np.int64
    assert sorted(occurrences["decade"].unique()) == [1850, 1990]
    assert str(occurrences["year"].dtype) == "Int64" and occurrences["year"].isna().sum() == 3  # 3 occurrences
    first_folder = wsd.scan(corpus, TARGETS, slice_from_path=r"^([^/]+)/")
    assert first_folder["slice"].tolist()[:1] == ["1850s"] and set(first_folder["slice"]) == {"1850s", "1990s"}


def test_slice_regex_errors(corpus):
    with pytest.raises(ConfigError, match="has no group"):
        wsd.scan(corpus, TARGETS, slice_from_path=r"\d{4}")
    with pytest.raises(ConfigError, match="not a valid regex"):
        wsd.scan(corpus, TARGETS, slice_from_path=r"(\d{4}")
    with pytest.raises(InputError, match=r"matches none of the 3 corpus file paths \('1850s/a\.jsonl'"):
        wsd.scan(corpus, TARGETS, slice_from_path=r"(\d{5})")
    with pytest.raises(InputError, match="'text' is a column of the occurrence table"):
        wsd.scan(corpus, TARGETS, slice_from_path=r"(?P<text>\d{4})")
    with pytest.raises(InputError, match="'year' is asked for twice"):
        wsd.scan(corpus, TARGETS, meta=["year"], slice_from_path=r"(?P<year>\d{4})")


def test_files_the_regex_misses_keep_a_missing_value_with_a_warning(tmp_path):
    (tmp_path / "1850").mkdir()
    (tmp_path / "1850" / "a.txt").write_text("a mouse\n", encoding="utf-8")
    (tmp_path / "undated.txt").write_text("another mouse\n", encoding="utf-8")
    with pytest.warns(UserWarning, match=r"'slice': 1 document.*the first at undated\.txt:1"):
        occurrences = wsd.scan(tmp_path, "mouse", slice_from_path=r"(\d{4})/")
    assert occurrences["slice"].tolist() == [1850, pd.NA]


@pytest.mark.filterwarnings("ignore:metadata 'year'")
def test_process_pool_and_sharded_store_equal_the_serial_run(corpus, pool, tmp_path):
    (reference,) = pool.map(_embed_in_this_process, [(str(corpus), str(tmp_path / "serial"))])
    with pytest.warns(UserWarning, match="'year': 1 document"):
        run = embed_corpus(
            corpus, TARGETS, tmp_path / "pool", executor=pool, shard_bytes=300, meta=META,
            slice_from_path=r"(?P<decade>\d{4})s/", **EMBED,
        )  # fmt: skip
    occurrences, vectors = load_run(run)
    expected, expected_vectors = load_run(reference)
    pd.testing.assert_frame_equal(occurrences, expected)
    np.testing.assert_array_equal(np.asarray(vectors), np.asarray(expected_vectors))
    assert json.loads((run / "meta.json").read_text())["execution"]["shards"] > 2
    assert occurrences.columns.tolist()[-3:] == ["year", "source", "decade"]
    assert str(occurrences["year"].dtype) == "Int64" and occurrences["decade"].dtype == np.int64
    scanned = wsd.scan(corpus, TARGETS, meta=META, slice_from_path=r"(?P<decade>\d{4})s/")
    pd.testing.assert_frame_equal(occurrences, scanned)
    # a store left sharded (as a cluster writes it) is typed when read
    sharded = embed_corpus(
        corpus, TARGETS, tmp_path / "sharded", consolidate=False, shard_bytes=300, meta=META,
        slice_from_path=r"(?P<decade>\d{4})s/", **EMBED,
    )  # fmt: skip
    assert not (sharded / "occurrences.parquet").exists()
    pd.testing.assert_frame_equal(load_run(sharded)[0], scanned)


@pytest.mark.filterwarnings("ignore:metadata 'year'")
def test_resume_keeps_metadata_and_another_meta_is_refused(corpus, tmp_path, encoder, monkeypatch):
    options = {"meta": META, "encoder": encoder, "progress": False, "chunk_size": 4}
    reference = embed_corpus(corpus, TARGETS, tmp_path / "ref", **options)
    written: list[tuple[int, int]] = []
    original = RunStore.write_vectors_part

    def write_then_crash(self, part, vectors):
        if len(written) == 2:
            raise KeyboardInterrupt("simulated interruption")
        written.append(part)
        original(self, part, vectors)

    monkeypatch.setattr(RunStore, "write_vectors_part", write_then_crash)
    with pytest.raises(KeyboardInterrupt):
        embed_corpus(corpus, TARGETS, tmp_path / "run", **options)
    monkeypatch.setattr(RunStore, "write_vectors_part", original)
    run = embed_corpus(corpus, TARGETS, tmp_path / "run", **options)
    pd.testing.assert_frame_equal(load_run(run)[0], load_run(reference)[0])
    assert load_run(run)[0]["source"].tolist()[-1] == "web"
    with pytest.raises(ConfigError, match=r"different configuration \(config\.scan\.meta"):
        embed_corpus(corpus, TARGETS, tmp_path / "run", **(options | {"meta": ["year"]}))
    with pytest.raises(ConfigError, match=r"different configuration \(config\.scan\.slice_from_path"):
        embed_corpus(corpus, TARGETS, tmp_path / "run", slice_from_path="(1)", **options)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
