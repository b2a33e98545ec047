"""The run store: row alignment, metadata, resuming an interrupted run, refusing mixed configurations."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from helpers import mouse_bank_lines, write_lines

import wsd
from wsd.errors import ConfigError, InputError
from wsd.io.run_reader import load_run
from wsd.io.run_store import RunStore
from wsd.workflows.embedding import embed_corpus


@pytest.fixture()
def corpus(tmp_path):
    return write_lines(tmp_path / "corpus.txt", mouse_bank_lines(40))  # 160 occurrences


def test_run_is_row_aligned_and_described(corpus, tmp_path, encoder):
    run = embed_corpus(corpus, "mouse,bank", tmp_path / "run", encoder=encoder, chunk_size=25, progress=False)
    occurrences, vectors = load_run(run)
    assert len(occurrences) == 160 and vectors.shape == (160, 384)
    assert vectors.dtype == np.float16 and isinstance(vectors, np.memmap)
    assert (occurrences["target"].value_counts() == 80).all()
    meta = json.loads((run / "meta.json").read_text())
    assert meta["status"] == "complete"
    assert meta["embedding"]["layers"] == "sum-last-4" and meta["embedding"]["dim"] == 384
    assert meta["config"]["corpus_fingerprint"] and meta["versions"]["torch"]
    # row i of the vectors is occurrence i: recompute a few rows directly
    sample = occurrences.iloc[[0, 77, 159]]
    direct = encoder.embed_occurrences(sample)
    np.testing.assert_allclose(vectors[[0, 77, 159]].astype(np.float32), direct, rtol=2e-3, atol=2e-3)
    pd.testing.assert_frame_equal(pd.read_parquet(run / "occurrences.parquet"), occurrences)


@pytest.mark.slow  # three embeddings of the corpus; the fast lane keeps test_run_is_row_aligned_and_described
def test_interrupted_run_resumes_without_recomputing(corpus, tmp_path, encoder, monkeypatch):
    reference = embed_corpus(corpus, "mouse,bank", tmp_path / "ref", encoder=encoder, chunk_size=25, progress=False)
    written: list[int] = []
    original_write = RunStore.write_vectors_part

    def write_then_crash(self, index, vectors):
        if len(written) == 2:
            raise KeyboardInterrupt("simulated interruption")
        written.append(index)
        original_write(self, index, vectors)

    monkeypatch.setattr(RunStore, "write_vectors_part", write_then_crash)
    with pytest.raises(KeyboardInterrupt):
        embed_corpus(corpus, "mouse,bank", tmp_path / "run", encoder=encoder, chunk_size=25, progress=False)
    monkeypatch.setattr(RunStore, "write_vectors_part", original_write)
    assert sorted(p.name for p in (tmp_path / "run" / "parts").glob("vec-*.npy")) == [
        "vec-00000-00000.npy",
        "vec-00000-00001.npy",
    ]
    with pytest.raises(InputError, match="not complete"):
        load_run(tmp_path / "run")

    encoded: list[int] = []
    original_encode = type(encoder)._encode_targets

    def counting_encode(self, plan, configs, progress=False):
        encoded.append(len(plan.window_of))
        return original_encode(self, plan, configs, progress)

    monkeypatch.setattr(type(encoder), "_encode_targets", counting_encode)
    embed_corpus(corpus, "mouse,bank", tmp_path / "run", encoder=encoder, chunk_size=25, progress=False)
    sizes = json.loads((tmp_path / "ref" / "meta.json").read_text())["scan"]["part_sizes"]
    assert sum(sizes) == 160 and len(sizes) == 7
    assert encoded == sizes[2:], "only the parts without vectors are encoded again"
    occurrences, vectors = load_run(tmp_path / "run")
    ref_occurrences, ref_vectors = load_run(reference)
    pd.testing.assert_frame_equal(occurrences, ref_occurrences)
    np.testing.assert_array_equal(np.asarray(vectors), np.asarray(ref_vectors))

    encoded.clear()
    embed_corpus(corpus, "mouse,bank", tmp_path / "run", encoder=encoder, chunk_size=25, progress=False)
    assert encoded == [], "a finished run is reused as it is"


@pytest.mark.slow  # four embeddings of the corpus
def test_a_different_configuration_never_mixes_with_an_old_run(corpus, tmp_path, encoder):
    embed_corpus(corpus, "mouse", tmp_path / "run", encoder=encoder, progress=False)
    with pytest.raises(ConfigError, match="different configuration"):
        embed_corpus(corpus, "mouse", tmp_path / "run", encoder=encoder, pooling="first", progress=False)
    with pytest.raises(ConfigError, match="different configuration"):
        embed_corpus(corpus, "bank", tmp_path / "run", encoder=encoder, progress=False)
    run = embed_corpus(corpus, "bank", tmp_path / "run", encoder=encoder, overwrite=True, progress=False)
    occurrences, _ = load_run(run)
    assert set(occurrences["target"]) == {"bank"}
    corpus.write_text(corpus.read_text() + "one more mouse\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="different configuration"):
        embed_corpus(corpus, "bank", tmp_path / "run", encoder=encoder, progress=False)


def test_float32_storage_and_public_api(corpus, tmp_path, encoder):
    run = embed_corpus(corpus, ["mouse"], tmp_path / "run", encoder=encoder, vector_dtype="float32", progress=False)
    occurrences, vectors = wsd.load_run(run)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(vectors[:3], encoder.embed_occurrences(occurrences.iloc[:3]), rtol=1e-5, atol=1e-5)


def test_load_run_errors(tmp_path):
    with pytest.raises(InputError, match="not a wsd run directory"):
        load_run(tmp_path)
    (tmp_path / "meta.json").write_text("{broken", encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        load_run(tmp_path)
