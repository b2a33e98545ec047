"""Executors: the same job run serially or on a local process pool gives the same results and the same run."""

from __future__ import annotations

import functools
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import mice_line, write_lines
from sklearn.exceptions import ConvergenceWarning

from wsd.errors import ConfigError
from wsd.executors import (
    DaskExecutor,
    Executor,
    LocalProcessExecutor,
    SerialExecutor,
    make_executor,
    require_dask,
)
from wsd.io.run_reader import load_run
from wsd.workflows.embedding import embed_corpus

pytestmark = pytest.mark.slow  # the slow lane: process pools

TARGETS = "mouse:mice,bank"
# one window per forward pass and fp32: vectors do not depend on which windows share a batch
EMBED = {"precision": "fp32", "batch_size": 1, "vector_dtype": "float32", "progress": False, "chunk_size": 7}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    lines = [mice_line(i) for i in range(24)]
    lines[4] = "No target here."
    write_lines(root / "a.txt", lines)
    write_lines(root / "b.txt", ["Two mice.", "A river bank."])
    return root


@pytest.fixture(scope="module")
def pool():
    """A pool of two worker processes, shared by the tests of this file."""
    with LocalProcessExecutor(workers=2) as executor:
        yield executor


def test_serial_and_process_pool_map_alike(pool):
    items = ["mouse", "bank", "замок", "", "bat"]
    assert SerialExecutor().map(len, items) == pool.map(len, items) == [5, 4, 5, 0, 3]
    assert sorted(pool.imap(len, items)) == list(enumerate([5, 4, 5, 0, 3])), "every item once, with its position"
    assert pool([].__class__, []) == [], "an executor is a map function"
    with pytest.raises(ValueError, match="invalid literal"):
        pool.map(int, ["1", "x", "3"])
    with pytest.warns(UserWarning, match="careful"):
        pool.map(warnings.warn, ["careful"])  # a warning in a worker process is raised here
    with pytest.warns(ConvergenceWarning, match="did not converge"):  # with its class, not as a UserWarning
        pool.map(functools.partial(warnings.warn, category=ConvergenceWarning), ["did not converge"])


def test_make_executor_choices(monkeypatch):
    assert isinstance(make_executor(), SerialExecutor) and make_executor().in_process
    assert isinstance(make_executor("processes", workers=3), LocalProcessExecutor)
    assert make_executor("processes", workers=3).workers == 3
    assert isinstance(make_executor(workers=2), DaskExecutor), "--workers alone means a local Dask cluster"
    serial = SerialExecutor()
    assert make_executor(serial) is serial
    with pytest.raises(ConfigError, match="unknown executor"):
        make_executor("threads")
    with pytest.raises(ConfigError, match="either an executor"):
        make_executor(serial, workers=2)
    with pytest.raises(ConfigError, match="workers must be at least 1"):
        make_executor("processes", workers=0)
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ConfigError, match="needs Dask"):
        require_dask()


def test_executor_context_is_reentrant():
    class Counting(SerialExecutor):
        starts = 0

        def _start(self) -> None:
            Counting.starts += 1

    executor = Counting()
    with executor:
        executor.map(len, ["a"])
        executor.map(len, ["b"])
    assert Counting.starts == 1, "maps inside `with` share one start"
    assert isinstance(executor, Executor)


def _embed_in_this_process(args: tuple[str, str]) -> str:
    """embed_corpus serially, run inside a pool worker (the same thread settings as the pool's runs)."""
    corpus, out = args
    return str(embed_corpus(corpus, TARGETS, out, **EMBED))


def test_embed_corpus_on_a_process_pool_equals_the_serial_run(corpus, pool, tmp_path):
    (reference,) = pool.map(_embed_in_this_process, [(str(corpus), str(tmp_path / "serial"))])
    run = embed_corpus(corpus, TARGETS, tmp_path / "pool", executor=pool, shard_bytes=200, **EMBED)
    occurrences, vectors = load_run(run)
    expected, expected_vectors = load_run(reference)
    pd.testing.assert_frame_equal(occurrences, expected)
    np.testing.assert_array_equal(np.asarray(vectors), np.asarray(expected_vectors))
    meta = json.loads((run / "meta.json").read_text())
    serial_meta = json.loads((Path(reference) / "meta.json").read_text())
    assert meta["execution"]["executor"] == "processes" and meta["execution"]["shards"] > 3
    assert serial_meta["execution"] == {
        "executor": "serial",
        "workers": 1,
        "scheduler": None,
        "computed": 1,
        "shards": 1,
        "shard_bytes": 64 * 2**20,
    }
    assert meta["scan"]["occurrences"] == serial_meta["scan"]["occurrences"]
    assert meta["embedding"] == serial_meta["embedding"]
    assert (run / "occurrences.parquet").is_file() and not (run / "parts").exists(), "consolidated on one machine"
    with pytest.raises(ConfigError, match="in this process only"):
        embed_corpus(corpus, TARGETS, tmp_path / "x", executor=pool, encoder=object(), **EMBED)
