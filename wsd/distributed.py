"""Running the embedding and the per-word stages on a Dask cluster, when one machine is not enough.

``embed_corpus_distributed`` does what :func:`wsd.pipeline.embed_corpus` does, spread over the workers of a
Dask cluster (an existing one at ``scheduler``, or a local one of ``workers`` processes):

1. the corpus is cut into shards (:mod:`wsd.corpus.shards`: files, line-aligned byte ranges of large files);
2. each shard is one task: a worker scans it, embeds its occurrences with the encoder it loaded once (and
   keeps for all its shards), and writes ONE ``parts/occ-NNNNN.parquet`` and ONE ``parts/vec-NNNNN.npy``
   (atomically), then ``parts/shard-NNNNN.json`` with what it found, which marks the shard done;
3. the run is marked complete without consolidating: the parts form a sharded store that
   :func:`wsd.store.load_run` reads in shard order: the occurrences of a single-process run, in its order.

Re-running the same call resumes: finished shards are skipped. A failed task is retried (``retries``); a
worker lost mid-shard loses nothing and duplicates nothing, because a shard's files have fixed names and are
replaced whole when its task runs again elsewhere. The run directory and the corpus must be on storage that
every worker can read and write under the same path (a shared file system).

``map_over_targets`` runs a function over items (one per target word) on the same kind of cluster, for the
clustering and evaluation stages; results come back in input order.

>>> run = embed_corpus_distributed("corpus/", "mouse,bank", "runs/big", workers=4)      # doctest: +SKIP
>>> run = embed_corpus_distributed("corpus/", "mouse,bank", "runs/big",
...                                scheduler="tcp://head-node:8786")                    # doctest: +SKIP
>>> occurrences, X = wsd.load_run(run)                                                  # doctest: +SKIP
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import json
import os
import socket
import threading
import time
import uuid
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from wsd.corpus.documents import corpus_fingerprint
from wsd.corpus.matcher import make_matcher
from wsd.corpus.scan import (
    DEFAULT_CHUNK_SIZE,
    ScanOptions,
    ScanStats,
    build_scan_options,
    check_findings,
    document_rows,
    rows_frame,
)
from wsd.corpus.shards import (
    DEFAULT_SHARD_BYTES,
    Shard,
    count_newlines,
    iter_shard_documents,
    plan_shards,
)
from wsd.embed.encoder import DEFAULT_LAYERS, DEFAULT_POOLING
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import check_pooling
from wsd.errors import ConfigError
from wsd.pipeline import warn_missing
from wsd.store import PARTS_DIR, VECTOR_DTYPES, RunStore, read_meta, write_json

DEFAULT_RETRIES = 3
CONNECT_TIMEOUT = "30s"
PLAN_FILE = "shards.json"
MAX_SHARDS = 99_999  # part names are zero-padded to 5 digits, so that name order is corpus order
CACHE_SIZE = 2  # encoders (and matchers) a worker keeps; an older one is dropped for a new one


# ------------------------------------------------------------------------------------------------ clients
def _require_dask() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise ConfigError("distributed runs need Dask: pip install 'wsd[dist]' (dask[distributed])") from exc
    return distributed


@contextlib.contextmanager
def open_client(
    scheduler: str | Any | None = None, workers: int | None = None, threads_per_worker: int = 1
) -> Iterator[Any]:
    """A Dask client for the duration of a ``with`` block.

    ``scheduler`` is the address of a running scheduler (``tcp://host:8786``) or a ``distributed.Client``
    (used as it is, not closed). Otherwise a ``LocalCluster`` of ``workers`` processes (default: one per
    core) with ``threads_per_worker`` threads each is started and shut down at the end.

    >>> with open_client(workers=2) as client:   # doctest: +SKIP
    ...     client.submit(sum, [1, 2]).result()
    3
    """
    distributed = _require_dask()
    if scheduler is not None and workers is not None:
        raise ConfigError("give either a scheduler address (an existing cluster) or a number of local workers")
    if workers is not None and workers < 1:
        raise ConfigError(f"workers must be at least 1, not {workers}")
    if threads_per_worker < 1:
        raise ConfigError(f"threads_per_worker must be at least 1, not {threads_per_worker}")
    if scheduler is not None and not isinstance(scheduler, str):
        yield scheduler
        return
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise ConfigError(f"cannot connect to the Dask scheduler at {scheduler}: {exc}") from exc
        with client:
            yield client
        return
    count = workers if workers is not None else max(1, (os.cpu_count() or 1) // threads_per_worker)
    with local_worker_environment():
        cluster = distributed.LocalCluster(
            n_workers=count, threads_per_worker=threads_per_worker, processes=True, dashboard_address=None
        )
    with cluster, distributed.Client(cluster) as client:
        yield client


def local_worker_environment() -> contextlib.AbstractContextManager:
    """Dask settings under which to start worker processes for wsd (a context manager).

    Dask starts each worker process with ``MALLOC_TRIM_THRESHOLD_=65536``, which turns off glibc's adaptive
    mmap threshold: PyTorch's large CPU buffers are then mapped and unmapped at every forward pass, and
    embedding is about a third slower (measured in ``experiments/results/bench_distributed.md``). Workers
    started under this context go without it; Dask's ``OMP_NUM_THREADS=1`` (one math thread per worker
    thread) stays. For workers started by hand, see the README (``pre-spawn-environ`` in the Dask config).
    """
    import dask

    _require_dask()
    return dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})


def map_over_targets(
    func: Callable[[Any], Any],
    items: Iterable[Any],
    *,
    scheduler: str | Any | None = None,
    workers: int | None = None,
    threads_per_worker: int = 1,
    retries: int = DEFAULT_RETRIES,
    progress: bool = False,
) -> list[Any]:
    """``[func(item) for item in items]``, one task per item on a Dask cluster; results in input order.

    Without ``scheduler`` and ``workers`` it runs here, one item after another (no Dask needed), so a stage
    can always call it. ``func`` must be picklable (a module-level function, or a ``functools.partial`` of
    one); items travel with their tasks, so a lost worker loses nothing, but keep them small for very large
    runs (e.g. ``(run directory, target)`` and let ``func`` read its rows). Its signature fits
    ``map_function`` of :meth:`wsd.senses.model.SenseModel.fit`:
    ``functools.partial(map_over_targets, scheduler="tcp://host:8786")``.

    >>> map_over_targets(len, ["mouse", "bank"], workers=2)   # doctest: +SKIP
    [5, 4]
    """
    items = list(items)
    if scheduler is None and workers is None:
        return [func(item) for item in items]
    if not items:
        return []
    distributed = _require_dask()
    with open_client(scheduler, workers, threads_per_worker) as client:
        token = uuid.uuid4().hex[:8]
        name = getattr(func, "__name__", type(func).__name__)
        futures = [
            client.submit(func, item, key=f"wsd-map-{name}-{index:05d}-{token}", retries=retries, pure=False)
            for index, item in enumerate(items)
        ]
        try:
            if progress:
                with tqdm(total=len(futures), unit="target", desc="targets", dynamic_ncols=True) as bar:
                    for _ in distributed.as_completed(futures):
                        bar.update()
            return client.gather(futures)
        finally:
            client.cancel(futures)


def target_mapper(
    scheduler: str | Any | None = None,
    workers: int | None = None,
    threads_per_worker: int = 1,
    retries: int = DEFAULT_RETRIES,
    progress: bool = False,
) -> Callable[[Callable[[Any], Any], list[Any]], list[Any]]:
    """A ``map_function(func, items)`` that runs :func:`map_over_targets` with these cluster options.

    Pass it where a stage takes ``map_function`` (:func:`wsd.senses.run.cluster_run`, ``SenseModel.fit``,
    the evaluation runner). With ``workers``, each call starts its own local cluster and stops it after.

    >>> cluster_run("runs/big", map_function=target_mapper(scheduler="tcp://head-node:8786"))  # doctest: +SKIP
    """
    if scheduler is not None and workers is not None:
        raise ConfigError("give either a scheduler address (an existing cluster) or a number of local workers")
    return functools.partial(
        map_over_targets,
        scheduler=scheduler,
        workers=workers,
        threads_per_worker=threads_per_worker,
        retries=retries,
        progress=progress,
    )


# ------------------------------------------------------------------------------------------------ embedding
def embed_corpus_distributed(
    corpus: str | os.PathLike[str],
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    out: str | os.PathLike[str],
    *,
    scheduler: str | Any | None = None,
    workers: int | None = None,
    threads_per_worker: int = 1,
    shard_bytes: int = DEFAULT_SHARD_BYTES,
    retries: int = DEFAULT_RETRIES,
    forms: str | os.PathLike[str] | None = None,
    lemmatizer: str | None = None,
    case_sensitive: bool = False,
    context: str = "sentence",
    context_chars: int = 1000,
    text_field: str = "text",
    model: str | None = None,
    layers: str = DEFAULT_LAYERS,
    pooling: str = DEFAULT_POOLING,
    device: str | None = None,
    precision: str = "auto",
    batch_size: int | None = None,
    max_length: int | None = None,
    window_tokens: int | None = None,
    context_vector: str | None = None,
    vector_dtype: str = "float16",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    overwrite: bool = False,
    progress: bool = True,
) -> Path:
    """:func:`wsd.pipeline.embed_corpus` on a Dask cluster: one task per corpus shard, a sharded run store.

    The occurrences it stores are exactly those of a single-process run of the same inputs (same rows, same
    order, same ids); the vectors are the same up to float rounding: windows batched differently are padded
    differently, and Dask starts workers with ``OMP_NUM_THREADS=1``, with which MKL picks other kernels than
    in a multi-threaded process (fp32 differences of about 1e-5). With ``batch_size=1`` and the same thread
    settings they are bit-for-bit identical. Re-running the same call resumes at shard granularity; a
    different configuration (shard size included) in an existing ``out`` is refused unless ``overwrite=True``.

    Parameters
    ----------
    scheduler : str or distributed.Client, optional
        Address of a running Dask scheduler (``tcp://host:8786``). Without it, a local cluster is started.
    workers : int, optional
        Worker processes of the local cluster (default: one per core).
    threads_per_worker : int
        Threads of each local worker (each runs one shard at a time; the model is shared by them).
    shard_bytes : int
        Target size of a shard in bytes of corpus (see :mod:`wsd.corpus.shards`); also the unit of resumption.
    retries : int
        How many times a failed shard task is tried again before the run stops with its error.
    chunk_size : int
        Occurrences tokenised and encoded at a time inside a shard (bounds a worker's memory).

    The other parameters are those of :func:`wsd.pipeline.embed_corpus`; the model is loaded by each worker
    (offline, like everywhere in wsd), never sent to it.

    Examples
    --------
    >>> embed_corpus_distributed("corpus/", "mouse,bank", "runs/big", workers=2)   # doctest: +SKIP
    PosixPath('runs/big')
    """
    started = time.perf_counter()
    options = build_scan_options(
        targets,
        forms,
        lemmatizer=lemmatizer,
        case_sensitive=case_sensitive,
        context=context,
        context_chars=context_chars,
        text_field=text_field,
    )
    make_matcher(options.targets, options.lemmatizer, options.case_sensitive, options.languages)  # checks options
    parse_layers(layers)
    check_pooling(pooling)
    if vector_dtype not in VECTOR_DTYPES:
        raise ConfigError(f"vector dtype must be float16 or float32, not {vector_dtype!r}")
    for name, value, least in (
        ("batch_size", 1 if batch_size is None else batch_size, 1),
        ("chunk_size", chunk_size, 1),
        ("shard_bytes", shard_bytes, 1),
        ("retries", retries, 0),
    ):
        if value < least:
            raise ConfigError(f"{name} must be at least {least}, not {value}")
    encoder_options = {
        "model": _absolute_if_local(model),
        "layers": layers,
        "pooling": pooling,
        "device": device,
        "precision": precision,
        "batch_size": batch_size,
        "max_length": max_length,
        "window_tokens": window_tokens,
        "context_vector": context_vector,
    }
    fingerprint_of_corpus = corpus_fingerprint(corpus)
    with open_client(scheduler, workers, threads_per_worker) as client:
        identity = client.submit(_describe_encoder, encoder_options, pure=False, retries=retries).result()
        config = {
            "corpus": str(Path(corpus).resolve()),
            "corpus_fingerprint": fingerprint_of_corpus,
            "scan": options.to_dict(),
            "embed": identity["embed"],
            "sharding": {"shard_bytes": shard_bytes, "chunk_size": chunk_size},
        }
        store = RunStore.create(out, config, vector_dtype=vector_dtype, overwrite=overwrite)
        if store.complete:
            warn_missing(store.meta["scan"])
            return store.path
        clock = time.perf_counter()
        shards = _load_or_plan(store, corpus, shard_bytes, client)
        plan_s = time.perf_counter() - clock
        results = {s.index: _read_marker(store.path, s.index) for s in shards}
        done = {index: result for index, result in results.items() if result is not None}
        todo = [shard for shard in shards if shard.index not in done]
        task = {"run": str(store.path.resolve()), "fingerprint": store.meta["fingerprint"], "encoder": encoder_options}
        clock = time.perf_counter()
        done.update(_run_shards(client, task, todo, len(shards), retries, progress))
        shards_s = time.perf_counter() - clock
        worker_count = len(client.scheduler_info().get("workers", {}))
    _finish(store, corpus, options, shards, done, identity["embedding"])
    store.meta["distributed"] = {
        "shards": len(shards),
        "computed": len(todo),
        "workers": worker_count,
        "scheduler": scheduler if isinstance(scheduler, str) else None,
        "shard_bytes": shard_bytes,
    }
    store.meta["timings"] = {
        "plan_s": round(plan_s, 4),
        "shards_s": round(shards_s, 4),
        "worker_s": round(sum(done[s.index]["seconds"] for s in todo), 4),
        "total_s": round(time.perf_counter() - started, 4),
    }
    store.save_meta()
    return store.path


def _absolute_if_local(model: str | None) -> str | None:
    """A local model folder as an absolute path (workers may run in another directory); names unchanged."""
    if model is None:
        return None
    path = Path(str(model)).expanduser()
    return str(path.resolve()) if path.exists() else str(model)


def _load_or_plan(store: RunStore, corpus: str | os.PathLike[str], shard_bytes: int, client: Any) -> list[Shard]:
    """The run's shard plan: read back when resuming, else made now (newlines counted by the workers)."""
    plan_file = store.path / PARTS_DIR / PLAN_FILE
    if plan_file.exists():
        return [Shard.from_dict(item) for item in json.loads(plan_file.read_text(encoding="utf-8"))["shards"]]

    def count_on_cluster(ranges: list[tuple[str, int, int]]) -> list[int]:
        futures = [client.submit(count_newlines, *r, pure=False, retries=DEFAULT_RETRIES) for r in ranges]
        return client.gather(futures)

    shards = plan_shards(corpus, shard_bytes, count_lines=count_on_cluster)
    if len(shards) > MAX_SHARDS:
        raise ConfigError(
            f"the corpus makes {len(shards)} shards of {shard_bytes} bytes, more than {MAX_SHARDS}; "
            "choose a larger shard size"
        )
    write_json(plan_file, {"shard_bytes": shard_bytes, "shards": [shard.to_dict() for shard in shards]})
    store.meta["shards"] = {"count": len(shards), "shard_bytes": shard_bytes}
    store.save_meta()
    return shards


def _run_shards(
    client: Any, task: dict[str, Any], todo: list[Shard], total: int, retries: int, progress: bool
) -> dict[int, dict[str, Any]]:
    """Submit one task per shard; collect their results; on the first failure cancel the rest and raise it."""
    distributed = _require_dask()
    token = uuid.uuid4().hex[:8]
    futures = {
        client.submit(
            _embed_shard,
            {**task, "shard": shard.to_dict()},
            key=f"wsd-shard-{shard.index:05d}-{token}",
            retries=retries,
            pure=False,
        ): shard.index
        for shard in todo
    }
    results: dict[int, dict[str, Any]] = {}
    bar = tqdm(total=total, initial=total - len(todo), unit="shard", desc="shards", disable=not progress)
    try:
        for future in distributed.as_completed(futures):
            result = future.result()
            results[futures[future]] = result
            for category, message in result.get("warnings", []):
                warnings.warn(message, getattr(builtins, category, UserWarning), stacklevel=2)
            bar.update()
    finally:
        bar.close()
        client.cancel(list(futures))
    return results


def _finish(
    store: RunStore,
    corpus: str | os.PathLike[str],
    options: ScanOptions,
    shards: list[Shard],
    results: dict[int, dict[str, Any]],
    embedding: dict[str, Any],
) -> None:
    """Check what the scan found (as the single-process scan does) and mark the sharded store complete."""
    ordered = [results[shard.index] for shard in shards]
    stats = ScanStats(documents=sum(r["documents"] for r in ordered))
    for result in ordered:
        stats.occurrences.update(result["occurrences"])
    check_findings(corpus, options, stats)
    occurrences = {t: int(stats.occurrences[t]) for t in options.targets}
    sizes = [r["rows"] for r in ordered if r["rows"]]
    store.meta["scan"] = {
        "parts": len(sizes),
        "part_sizes": sizes,
        "documents": stats.documents,
        "occurrences": occurrences,
    }
    store.finish_sharded({"embedding": embedding})


def _marker_path(run: Path, index: int) -> Path:
    return run / PARTS_DIR / f"shard-{index:05d}.json"


def _read_marker(run: Path, index: int) -> dict[str, Any] | None:
    path = _marker_path(run, index)
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:  # cannot happen with atomic writes; treat it as not done
        return None


# ------------------------------------------------------------------------------------------------ on workers
_CACHE: dict[str, Any] = {}
_CACHE_LOCK = threading.Lock()
_LOADS: Counter = Counter()
_CAPTURE = threading.local()


def worker_cache_info() -> dict[str, int]:
    """How many encoders and matchers this process has loaded (each worker loads an encoder once).

    >>> client.run(worker_cache_info)   # doctest: +SKIP
    {'tcp://127.0.0.1:40001': {'encoder': 1, 'matcher': 1}, ...}
    """
    with _CACHE_LOCK:
        return dict(_LOADS)


def _cached(kind: str, config: Mapping[str, Any], build: Callable[[], Any]) -> Any:
    """The object of ``kind`` built from ``config``, built once per process and reused by every task."""
    key = kind + ":" + json.dumps(config, sort_keys=True, default=str)
    with _CACHE_LOCK:
        if key not in _CACHE:
            same_kind = [k for k in _CACHE if k.startswith(kind + ":")]
            for old in same_kind[: max(0, len(same_kind) - CACHE_SIZE + 1)]:
                del _CACHE[old]
            _CACHE[key] = build()
            _LOADS[kind] += 1
        return _CACHE[key]


def _worker_encoder(encoder_options: Mapping[str, Any]) -> Any:
    """The Encoder for ``encoder_options``, loaded once per worker process and shared by all its tasks."""
    from wsd.embed.encoder import Encoder

    return _cached("encoder", encoder_options, lambda: Encoder(**encoder_options))


def _describe_encoder(encoder_options: dict[str, Any]) -> dict[str, Any]:
    """Task: load (and keep) the encoder on a worker; its run identity and its vectors' metadata."""
    encoder = _worker_encoder(encoder_options)
    layers, pooling = encoder_options["layers"], encoder_options["pooling"]
    return {"embed": encoder.run_identity(layers, pooling), "embedding": encoder.metadata(layers, pooling)}


def _install_warning_capture() -> None:
    """Route warnings raised in a task's thread to that task's list (other threads are unaffected)."""
    with _CACHE_LOCK:
        if getattr(warnings.showwarning, "_wsd_capture", False):
            return
        original = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):
            records = getattr(_CAPTURE, "records", None)
            if records is None:
                return original(message, category, filename, lineno, file, line)
            records.append((category.__name__, str(message)))
            return None

        show._wsd_capture = True  # type: ignore[attr-defined]
        warnings.showwarning = show


def _embed_shard(task: dict[str, Any]) -> dict[str, Any]:
    """Task: scan one shard, embed its occurrences, write its parts and its done-marker; return its stats."""
    started = time.perf_counter()
    run = Path(task["run"])
    shard = Shard.from_dict(task["shard"])
    existing = _read_marker(run, shard.index)
    if existing is not None:  # done by an earlier attempt whose result was lost with its worker
        return existing
    meta = read_meta(run)
    if meta.get("fingerprint") != task["fingerprint"]:
        raise ConfigError(f"{run} now holds a different run (fingerprint {meta.get('fingerprint')}); stopping")
    config = meta["config"]
    encoder = _worker_encoder(task["encoder"])
    identity = encoder.run_identity(task["encoder"]["layers"], task["encoder"]["pooling"])
    if identity != config["embed"]:
        different = "; ".join(
            f"{key} {value!r} (the run has {config['embed'].get(key)!r})"
            for key, value in identity.items()
            if value != config["embed"].get(key)
        )
        raise ConfigError(
            f"worker {socket.gethostname()} would embed with {different}; give --precision and --device "
            "explicitly so that every worker computes alike"
        )
    scan = config["scan"]
    options = ScanOptions(
        targets={t: list(f) for t, f in scan["targets"].items()},
        lemmatizer=scan["lemmatizer"],
        case_sensitive=scan["case_sensitive"],
        context=scan["context"],
        context_chars=scan["context_chars"],
        languages=tuple(scan["languages"]),
        text_field=scan["text_field"],
    )
    matcher = _cached(
        "matcher",
        scan,
        lambda: make_matcher(options.targets, options.lemmatizer, options.case_sensitive, options.languages),
    )
    _install_warning_capture()
    _CAPTURE.records = []
    try:
        frame, documents, found = _scan_shard(shard, matcher, options)
    finally:
        captured, _CAPTURE.records = _CAPTURE.records, None
    store = RunStore(run, meta)
    if len(frame):
        vectors = _encode(encoder, frame, task["encoder"], config["sharding"]["chunk_size"], meta["vector_dtype"])
        store.write_occurrences_part(shard.index, frame)
        store.write_vectors_part(shard.index, vectors)
    result = {
        "shard": shard.index,
        "documents": documents,
        "occurrences": dict(found),
        "rows": len(frame),
        "warnings": captured,
        "seconds": round(time.perf_counter() - started, 4),
        "worker": socket.gethostname(),
    }
    write_json(_marker_path(run, shard.index), result)
    return result


def _encode(
    encoder: Any, frame: pd.DataFrame, encoder_options: Mapping[str, Any], chunk_size: int, dtype: str
) -> np.ndarray:
    """Vectors of the rows of ``frame``, ``chunk_size`` occurrences at a time, in the store's dtype."""
    config = [(parse_layers(encoder_options["layers"]), check_pooling(encoder_options["pooling"]))]
    blocks = []
    for begin in range(0, len(frame), chunk_size):
        part = frame.iloc[begin : begin + chunk_size]
        plan = encoder.plan(part["text"].tolist(), part[["start", "end"]].to_numpy())
        (vectors,) = encoder.encode_words(plan, config)
        blocks.append(vectors.astype(dtype, copy=False))
    return np.concatenate(blocks)


def _scan_shard(shard: Shard, matcher: Any, options: ScanOptions) -> tuple[pd.DataFrame, int, Counter]:
    """The occurrence rows of a shard's documents, built as :func:`wsd.corpus.scan.iter_occurrence_chunks`
    builds them (same ids, passages and order), with the number of documents and occurrences per target."""
    rows: list[tuple] = []
    documents = 0
    found: Counter = Counter()
    for document in iter_shard_documents(shard, text_field=options.text_field):
        documents += 1
        matches = matcher.find(document.text)
        if not matches:
            continue
        for row in document_rows(document.doc_id, document.text, matches, options):
            rows.append(row)
            found[row[1]] += 1
    frame = rows_frame(rows)
    return frame, documents, found
