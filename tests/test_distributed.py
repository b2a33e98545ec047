"""Distributed runs: shard planning, equality with a single-process run, lost workers, retries, resuming."""

from __future__ import annotations

import gzip
import json
import os
import signal
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd import executors as wsd_executors
from wsd.corpus.documents import iter_documents
from wsd.corpus.shards import count_newlines, iter_shard_documents, plan_shards
from wsd.errors import ConfigError, InputError
from wsd.executors import DaskExecutor, make_executor, open_client
from wsd.io.run_reader import load_run
from wsd.workflows.embedding import embed_corpus

pytestmark = pytest.mark.slow  # the slow lane: Dask clusters

distributed = pytest.importorskip("distributed")

TARGETS = "mouse:mice,bank:banks"
SHARD_BYTES = 800
# batch_size=1 gives every window its own forward pass, so vectors do not depend on which windows share a
# padded batch, and fp32 vectors of a distributed run are bit-for-bit those of the single-process run (see
# the reference fixture); with larger batches they differ by float rounding (~1e-5) only
EMBED = {"precision": "fp32", "batch_size": 1, "vector_dtype": "float32", "context_vector": "none", "progress": False}

WORDS = [
    "mouse",
    "mice",
    "bank",
    "banks",
    "river",
    "click",
    "cheese",
    "money",
    "the",
    "a",
    "ran",
    "near",
    "over",
    "under",
    "old",
    "new",
    "green",
    "small",
    "big",
    "red",
]


def _sentence(i: int) -> str:
    words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(4 + i % 9)]
    return f"Line {i}: " + " ".join(words) + ". The bank is closed."[: 5 + i % 16]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Several files of every kind; big.txt, notes.jsonl and rows.parquet are larger than a shard."""
    root = tmp_path_factory.mktemp("corpus")
    lines = [_sentence(i) for i in range(60)]
    lines[5] = ""  # empty lines are skipped but keep their line numbers
    lines[17] = "   "
    lines[30] = " ".join(_sentence(j) for j in range(30))  # one line longer than a shard
    raw = "\n".join(lines).encode() + b"\n"
    raw = raw.replace(_sentence(40).encode(), _sentence(40).encode() + b"\r")  # a CRLF line
    raw = raw.replace(_sentence(41).encode(), b"\xff\xfe mouse " + _sentence(41).encode())  # not UTF-8
    (root / "big.txt").write_bytes(raw)
    records = []
    for i in range(30):
        record = {"text": _sentence(200 + i)} if i % 3 else {"id": f"rec{i}", "text": _sentence(200 + i)}
        records.append(json.dumps(record))
        if i % 10 == 0:
            records.append("")
    (root / "notes.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    with gzip.open(root / "old.txt.gz", "wt", encoding="utf-8") as handle:
        handle.write("\n".join(_sentence(300 + i) for i in range(15)) + "\n")
    (root / "table.csv").write_text(
        'id,text\nc1,"a mouse\nover two lines, near the bank"\nc2,the banks of the river\n', encoding="utf-8"
    )
    table = pd.DataFrame({"text": [_sentence(400 + i) for i in range(32)]})
    table.to_parquet(root / "rows.parquet", row_group_size=4)
    (root / "sub").mkdir()
    (root / "sub" / "more.txt").write_text("one more mouse\n\nand a bank\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def reference(corpus, tmp_path_factory, client) -> Path:
    """The single-process run of the same inputs (fp32, batches of one window), made by ``embed_corpus``.

    It runs in a process started like the workers: Dask starts them with OMP_NUM_THREADS=1 and
    MKL_NUM_THREADS=1, and MKL then picks other kernels for short sequences than in a multi-threaded process,
    so fp32 results differ in the 6th digit between the two kinds of process, whichever runs the pipeline.
    """
    out = tmp_path_factory.mktemp("runs") / "reference"
    options = {**EMBED, "chunk_size": 50}
    return client.submit(embed_corpus, corpus, TARGETS, out, pure=False, **options).result()


@pytest.fixture(scope="module")
def client():
    """A local cluster of 2 worker processes with 1 thread each, shared by the tests of this file.

    The workers cannot import this test module, so its functions and classes are pickled by value.
    """
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with (
            wsd_executors.local_worker_environment(),
            distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as dask_client,
        ):
            yield dask_client
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def _same_as_reference(run: Path, reference: Path) -> None:
    occurrences, vectors = load_run(run)
    expected, expected_vectors = load_run(reference)
    pd.testing.assert_frame_equal(occurrences, expected)
    np.testing.assert_array_equal(vectors, np.asarray(expected_vectors))
    assert occurrences["id"].is_unique


# ------------------------------------------------------------------------------------------------ shards
@pytest.mark.parametrize("shard_bytes", [1, 40, SHARD_BYTES, 10**9])
def test_shards_read_the_documents_of_the_single_process_reader(corpus, shard_bytes):
    counted: list[tuple[str, int, int]] = []

    def count_lines(ranges):
        counted.extend(ranges)
        return [count_newlines(*r) for r in ranges]

    with pytest.warns(UserWarning, match="not UTF-8"):
        shards = plan_shards(corpus, shard_bytes, count_lines=count_lines)
        documents = [d for shard in shards for d in iter_shard_documents(shard)]
    with pytest.warns(UserWarning, match="not UTF-8"):
        expected = list(iter_documents(corpus))
    assert documents == expected
    assert [s.index for s in shards] == list(range(len(shards)))
    pieces = [p for s in shards for p in s.pieces]
    for piece in pieces:
        if piece.stop is not None and not piece.path.endswith(".parquet") and piece.start > 0:
            with open(piece.path, "rb") as handle:
                handle.seek(piece.start - 1)
                assert handle.read(1) == b"\n", "a byte range starts at a line start"
        if piece.path.endswith(".gz") or piece.path.endswith(".csv"):
            assert piece.stop is None, "gzip and CSV files are never split"
    if shard_bytes < 10**9:
        assert counted, "line numbers of later byte ranges come from count_lines"
        split = {Path(p.path).name for p in pieces if p.stop is not None}
        assert {"big.txt", "notes.jsonl", "rows.parquet"} <= split
    else:
        assert len(shards) == 1 and not counted


def test_shard_plan_errors(corpus):
    with pytest.raises(ConfigError, match="shard_bytes"):
        plan_shards(corpus, 0)


# ------------------------------------------------------------------------------------------------ cluster
def test_distributed_run_equals_single_process_run(corpus, reference, client, encoder, tmp_path):
    address = client.scheduler.address
    with pytest.warns(UserWarning, match="not UTF-8"):
        run = embed_corpus(corpus, TARGETS, tmp_path / "run", scheduler=address, shard_bytes=SHARD_BYTES, **EMBED)
    _same_as_reference(run, reference)
    meta = json.loads((run / "meta.json").read_text())
    assert meta["status"] == "complete" and not (run / "occurrences.parquet").exists(), "a sharded store"
    assert meta["execution"]["shards"] > 5 and meta["execution"]["computed"] == meta["execution"]["shards"]
    assert meta["scan"]["occurrences"] == json.loads((reference / "meta.json").read_text())["scan"]["occurrences"]
    assert meta["embedding"] == json.loads((reference / "meta.json").read_text())["embedding"]
    assert len(list((run / "parts").glob("vec-*.npy"))) == meta["scan"]["parts"]
    loads = client.run(wsd_executors.cache_info)
    assert all(info.get("encoder", 0) <= 1 for info in loads.values()), f"each worker loads the model once: {loads}"
    assert sum(info.get("encoder", 0) for info in loads.values()) >= 1

    # a finished run is reused as it is; another shard size or a single-process run never mixes with it
    again = embed_corpus(corpus, TARGETS, run, scheduler=address, shard_bytes=SHARD_BYTES, **EMBED)
    assert json.loads((again / "meta.json").read_text())["finished"] == meta["finished"]
    with pytest.raises(ConfigError, match="different configuration"):
        embed_corpus(corpus, TARGETS, run, scheduler=address, shard_bytes=2 * SHARD_BYTES, **EMBED)
    with pytest.raises(ConfigError, match="different configuration"):
        embed_corpus(corpus, TARGETS, run, encoder=encoder, progress=False)


class FaultPlugin(distributed.WorkerPlugin):
    """Injects faults into the workers' ``RunStore.write_vectors_part`` for one run directory.

    ``faults`` maps a shard index to ``kill`` (the worker process kills itself, once: after the shard's
    occurrence part was written, before its vectors), ``fail-once`` (an exception, once) or ``fail`` (an
    exception while the file ``<run>.fail`` exists). "Once" is remembered in marker files beside the run.
    """

    name = "wsd-faults"

    def __init__(self, run: Path, faults: dict[int, str]) -> None:
        self.run = Path(run)
        self.faults = faults

    def setup(self, worker) -> None:
        import wsd.io.run_store

        self.original = wsd.io.run_store.RunStore.write_vectors_part
        plugin = self

        def faulty(store, part, vectors):
            index = part[0]  # the shard of the part
            fault = plugin.faults.get(index) if Path(store.path) == plugin.run else None
            once = plugin.run.with_name(f"{plugin.run.name}.{fault}-{index}")
            if fault == "kill" and not once.exists():
                once.touch()
                os.kill(os.getpid(), signal.SIGKILL)
            if fault == "fail-once" and not once.exists():
                once.touch()
                raise RuntimeError(f"simulated failure of shard {index}")
            if fault == "fail" and plugin.run.with_name(f"{plugin.run.name}.fail").exists():
                raise RuntimeError(f"simulated failure of shard {index}")
            return plugin.original(store, part, vectors)

        wsd.io.run_store.RunStore.write_vectors_part = faulty

    def teardown(self, worker) -> None:
        import wsd.io.run_store

        wsd.io.run_store.RunStore.write_vectors_part = self.original


@pytest.fixture()
def faults(client):
    """Register a :class:`FaultPlugin` on the workers; it is removed after the test."""

    def register(run: Path, plan: dict[int, str]) -> None:
        client.register_plugin(FaultPlugin(run, plan), name=FaultPlugin.name)

    yield register
    client.unregister_worker_plugin(FaultPlugin.name)


def _parts_with_vectors(run: Path) -> list[int]:
    return sorted(int(p.stem.split("-")[1]) for p in (run / "parts").glob("vec-*.npy"))


def test_a_killed_worker_and_a_failed_task_lose_and_duplicate_nothing(corpus, reference, client, faults, tmp_path):
    run = tmp_path / "run"
    faults(run, {0: "kill", 1: "fail-once"})
    with pytest.warns(UserWarning, match="not UTF-8"):
        embed_corpus(
            corpus, TARGETS, run, scheduler=client.scheduler.address, shard_bytes=SHARD_BYTES, retries=2, **EMBED
        )
    assert (tmp_path / "run.kill-0").exists(), "a worker was killed while writing shard 0"
    assert (tmp_path / "run.fail-once-1").exists(), "shard 1 failed once and was retried"
    _same_as_reference(run, reference)
    occ_parts = sorted(int(p.stem.split("-")[1]) for p in (run / "parts").glob("occ-*.parquet"))
    assert occ_parts == _parts_with_vectors(run), "one occurrence part per vector part, none twice"
    assert 0 in occ_parts and 1 in occ_parts
    assert not list((run / "parts").glob(".*tmp*")), "no leftover temporary files"


def _wait_until_idle(client, timeout: float = 60.0) -> None:
    """Tasks of a stopped run may still be finishing on the workers: wait for them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = client.run(lambda dask_worker: dask_worker.state.executing_count)
        if not any(busy.values()):
            return
        time.sleep(0.2)
    raise AssertionError("workers still busy")


def test_resume_skips_finished_shards(corpus, reference, client, faults, tmp_path):
    run = tmp_path / "run"
    flag = tmp_path / "run.fail"
    flag.touch()
    faults(run, {3: "fail"})
    address = client.scheduler.address
    with pytest.raises(RuntimeError, match="simulated failure of shard 3"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # whether the shard with the bad UTF-8 line ran first does not matter
        embed_corpus(corpus, TARGETS, run, scheduler=address, shard_bytes=SHARD_BYTES, retries=0, **EMBED)
    _wait_until_idle(client)
    with pytest.raises(InputError, match="not complete"):
        load_run(run)
    finished = {int(p.stem.split("-")[1]) for p in (run / "parts").glob("shard-*.json")}
    assert 3 not in finished and finished, "some shards finished before shard 3 failed"
    written = {
        p.name: p.stat().st_mtime_ns for p in (run / "parts").glob("*-*.*") if int(p.stem.split("-")[1]) in finished
    }
    flag.unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        embed_corpus(corpus, TARGETS, run, scheduler=address, shard_bytes=SHARD_BYTES, **EMBED)
    meta = json.loads((run / "meta.json").read_text())
    assert meta["execution"]["computed"] == meta["execution"]["shards"] - len(finished)
    for name, mtime in written.items():
        assert (run / "parts" / name).stat().st_mtime_ns == mtime, f"{name} of a finished shard was rewritten"
    _same_as_reference(run, reference)


def test_a_corpus_without_the_targets_is_an_error_as_in_a_single_process_run(corpus, client, tmp_path):
    address = client.scheduler.address
    with pytest.raises(InputError, match="none of the targets"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        embed_corpus(corpus, "zebra", tmp_path / "run", scheduler=address, shard_bytes=4000, **EMBED)
    assert not (tmp_path / "run").exists()  # a failed run leaves no half-made folder to block the corrected one


# ------------------------------------------------------------------------------------------------ map
def _slow_echo(item: tuple[str, float]) -> tuple[str, int]:
    """Sleep, then report the item and the worker process that ran it."""
    time.sleep(item[1])
    return item[0], os.getpid()


def test_executor_map_returns_results_in_input_order(client):
    client.wait_for_workers(2, timeout=60)  # a worker killed by an earlier test may still be restarting
    items = [("mouse", 0.6), ("bank", 0.0), ("plant", 0.3), ("bat", 0.0), ("cell", 0.1), ("замок", 0.0)]
    results = DaskExecutor(scheduler=client.scheduler.address).map(_slow_echo, items)
    assert [word for word, _ in results] == [word for word, _ in items], "first finished is not first returned"
    assert len({pid for _, pid in results}) == 2, "both workers took part"
    assert os.getpid() not in {pid for _, pid in results}
    assert make_executor().map(len, ["mouse", "bank", "замок"]) == [5, 4, 5], "no cluster: runs here, in order"
    mapper = make_executor(scheduler=client.scheduler.address)
    assert mapper(_slow_echo, items[:2])[1][0] == "bank", "an executor is a map_function for the stages"
    assert DaskExecutor(scheduler=client).map(len, []) == []


def test_client_option_errors(monkeypatch):
    with pytest.raises(ConfigError, match="either a scheduler"), open_client(scheduler="tcp://x:1", workers=2):
        pass
    with pytest.raises(ConfigError, match="workers must be at least 1"), open_client(workers=0):
        pass
    monkeypatch.setattr(wsd_executors, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ConfigError, match="cannot connect to the Dask scheduler"), open_client("tcp://127.0.0.1:9"):
        pass


def test_the_embed_command_runs_on_a_scheduler(corpus, reference, client, tmp_path, capsys):
    from wsd.cli import main

    out = tmp_path / "run"
    argv = ["embed", "--corpus", str(corpus), "--targets", TARGETS, "--out", str(out), "--no-progress"]
    argv += ["--precision", "fp32", "--batch-size", "1", "--vector-dtype", "float32", "--context-vector", "none"]
    argv += ["--scheduler", client.scheduler.address, "--shard-bytes", str(SHARD_BYTES)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the corpus's undecodable bytes (checked above)
        assert main(argv) == 0
    assert "occurrences" in capsys.readouterr().out
    _same_as_reference(out, reference)
    assert json.loads((out / "meta.json").read_text())["execution"]["shards"] > 5


def test_a_distributed_run_keeps_metadata_from_the_paths(corpus, client, tmp_path):
    from wsd.corpus.scan import scan

    regex = r"\.(?P<ext>[a-z]+)"
    with pytest.warns(UserWarning, match="not UTF-8"):
        run = embed_corpus(
            corpus, TARGETS, tmp_path / "run", scheduler=client.scheduler.address, shard_bytes=SHARD_BYTES,
            slice_from_path=regex, **EMBED,
        )  # fmt: skip
    assert not (run / "occurrences.parquet").exists(), "a sharded store, typed when read"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = scan(corpus, TARGETS, slice_from_path=regex)
    occurrences, _ = load_run(run)
    pd.testing.assert_frame_equal(occurrences, expected)
    assert set(occurrences["ext"]) == {"txt", "jsonl", "csv", "parquet"}
    assert json.loads((run / "meta.json").read_text())["metadata_columns"] == {"ext": "str"}


def test_warnings_of_a_distributed_run_reach_the_user(client, tmp_path):
    """The script warning (issue 25) is raised here although the encoder is loaded on a worker, on every run (a
    worker warns of one place only once); the likely proper names the shards count are merged and warned once."""
    from wsd.embed.coverage import MULTILINGUAL_MODEL

    corpus = tmp_path / "mixed.txt"
    corpus.write_text("The United States signed.\nThe state agreed.\nСтарый замок стоит.\n", encoding="utf-8")
    for name in ("first", "second"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = embed_corpus(
                corpus, "state,замок", tmp_path / name, scheduler=client.scheduler.address, shard_bytes=30,
                lemmatizer="simplemma", **EMBED,
            )  # fmt: skip
        said = [str(w.message) for w in caught]
        unreadable = [m for m in said if "[UNK]" in m]
        assert len(unreadable) == 1 and "1 of 2 targets (замок)" in unreadable[0], said
        assert MULTILINGUAL_MODEL in unreadable[0]
        assert [m for m in said if "capitalised mid-sentence" in m] == [
            "state: 1 of 2 uses (50%) are capitalised mid-sentence (States 1): likely proper names; "
            "--no-proper drops them, --keep-proper keeps them without this warning"
        ]
    meta = json.loads((run / "meta.json").read_text())
    assert meta["execution"]["shards"] > 1 and meta["scan"]["proper"] == {"state": {"States": 1}}
