"""From a corpus to a run, and the whole job: the embedding driver, and scan → embed → cluster → score.

:func:`embed_corpus` is the one way a corpus becomes a run (occurrences + vectors on disk, resumable):

1. the corpus is cut into shards (:mod:`wsd.corpus.shards`: files, line-aligned byte ranges of large files),
   the units of work; the plan is recorded in the run, so a resumed run finds the same units;
2. :func:`embed_shard` runs one unit: it scans the shard, embeds its occurrences chunk by chunk (the next
   chunk is scanned and tokenised while the current one runs through the model), writes each chunk's
   ``occ-SSSSS-CCCCC.parquet`` and ``vec-SSSSS-CCCCC.npy`` (atomically; a chunk with vectors is done), then
   the shard's done-marker with what it found;
3. the units run on an executor (:mod:`wsd.executors`): here one after another (the default), on a local
   pool of processes, or on a Dask cluster; the run is the same whichever runs it;
4. the findings are checked once (an empty corpus or no target found is an error, a missing target a
   warning) and the run is marked complete, its parts joined into one file each unless they stay sharded.

:func:`induce_corpus` is the whole job of ``wsd run``: a run, its senses, and their scores against gold labels.

Re-running the same call resumes: finished shards are skipped, and in an unfinished shard the chunks that
have vectors. On a cluster, a worker lost mid-shard loses nothing and duplicates nothing, because a part has
a fixed name and is replaced whole when its task runs again; the run directory and the corpus must then be
on storage that every worker reads and writes under the same path.

>>> run = embed_corpus("data/demo/corpus.txt", "mouse:mice,bank", "runs/demo")  # doctest: +SKIP
>>> run = embed_corpus("corpus/", "mouse,bank", "runs/big", scheduler="tcp://head-node:8786")  # doctest: +SKIP
>>> occurrences, X = wsd.load_run(run)                                         # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import functools
import os
import socket
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from wsd.corpus.documents import corpus_fingerprint
from wsd.corpus.matcher import make_matcher
from wsd.corpus.metafields import check_meta_fields
from wsd.corpus.proper import warn_proper
from wsd.corpus.scan import (
    ScanOptions,
    ScanStats,
    build_scan_options,
    check_findings,
    iter_document_chunks,
    metadata_dtypes,
)
from wsd.corpus.shards import DEFAULT_SHARD_BYTES, Shard, count_newlines, iter_shard_documents, plan_shards
from wsd.embed.coverage import unreadable_targets, warn_unreadable, warn_unreadable_targets
from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError, InputError
from wsd.evaluate.gold_match import attach_gold, explain_unmatched
from wsd.evaluate.keys import key_from_occurrences
from wsd.executors import DEFAULT_RETRIES, Executor, cached, carry_warning_capture, make_executor
from wsd.layout import CHANGE_DIR, CHUNK_RECORD, GOLD_FILE, LABELS_FILE, METRICS_FILE, RUN_DIR, SENSES_DIR
from wsd.options import (
    ChangeOptions,
    EmbeddingOptions,
    ExecutionOptions,
    ScanSettings,
    SenseOptions,
    route_settings,
)
from wsd.outputs import check_disjoint, claim_folder, in_session
from wsd.schema import is_off
from wsd.store import VECTOR_DTYPES, RunStore

MAX_SHARDS = 99_999  # part names are zero-padded to 5 digits, so that name order is corpus order
MAX_CHUNKS = 99_999
STAGE_TIMINGS = ("scan_s", "tokenize_s", "encode_s", "forward_s", "compile_s", "write_s")


@in_session
def embed_corpus(
    corpus: str | os.PathLike[str],
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    out: str | os.PathLike[str],
    *,
    scan: ScanSettings | None = None,
    embedding: EmbeddingOptions | None = None,
    execution: ExecutionOptions | None = None,
    encoder: Encoder | None = None,
    overwrite: bool = False,
    progress: bool = True,
    corpus_exclude: str | os.PathLike[str] | None = None,
    **settings: Any,
) -> Path:
    """Scan ``corpus`` for ``targets``, embed every occurrence, and store both in the run directory ``out``.

    Re-running the same call on the same corpus resumes: finished parts are kept, only missing work is done.
    A different configuration in an existing ``out`` is refused (``overwrite=True`` replaces it). Which
    executor runs the shards does not change the run: the occurrences are the same rows in the same order
    with the same ids, and the vectors the same up to float rounding (windows batched differently are padded
    differently, and Dask workers run with one math thread; with ``batch_size=1`` and the same thread
    settings they are bit-for-bit identical).

    Parameters
    ----------
    corpus : path
        A corpus file or folder (see :func:`wsd.scan`).
    targets : str, list or mapping
        The target words and their forms (see :func:`wsd.scan`).
    out : path
        The run directory to write (or resume).
    scan : ScanSettings, optional
        What the scan finds (:class:`wsd.options.ScanSettings`: ``forms``, ``lemmatizer``, ``case_sensitive``,
        ``context``, ``context_chars``, ``text_field``, ``meta``, ``slice_from_path``, ``proper``).
    embedding : EmbeddingOptions, optional
        How occurrences become vectors (:class:`wsd.options.EmbeddingOptions`: ``model``, ``layers``,
        ``pooling``, ``precision``, ``runtime``, ``device``, ``batch_size``, ``max_length``, ``window_tokens``,
        ``context_vector``, ``offline``). The context vector is off unless given, so the stored vectors are
        :meth:`wsd.Encoder.embed_spans`'s. With ``encoder``, the encoder's own layers and pooling are used
        unless ``embedding`` or the ``layers``/``pooling`` keywords give them.
    execution : ExecutionOptions, optional
        Where the work runs and how the run is stored (:class:`wsd.options.ExecutionOptions`: ``executor``,
        ``scheduler``, ``workers``, ``threads_per_worker``, ``retries``, ``shard_bytes``, ``chunk_size``,
        ``consolidate``, ``vector_dtype``): by default in this process, or on Dask when ``scheduler`` or
        ``workers`` is given; the parts are joined at the end unless the shards ran on a Dask cluster.
    encoder : Encoder, optional
        An already loaded encoder to use (in-process executors only).
    overwrite : bool
        Replace a run with a different configuration in ``out``, or write into a folder that is not a run
        (only wsd's own files are replaced; see :mod:`wsd.outputs`).
    progress : bool
        Show a progress bar.
    corpus_exclude : path, optional
        A folder inside the corpus folder whose files are not corpus (default: ``out``, so a run written
        inside the corpus folder does not change the corpus it is made of, and the same command resumes).
    **settings
        Any field of the three option objects by its name (``layers="last"``, ``workers=2``,
        ``meta="year"``): each goes to the object that has the field, on top of the object when it is given
        too. A keyword set to None counts as not given. An unknown name is a ``TypeError`` that names the
        closest field.

    Returns
    -------
    Path
        The run directory, readable with :func:`wsd.load_run`.

    Examples
    --------
    >>> embed_corpus("corpus/", "mouse,bank", "runs/big", workers=2)   # doctest: +SKIP
    PosixPath('runs/big')
    >>> embed_corpus("corpus/", "mouse", "runs/x", embedding=EmbeddingOptions(layers="last"))  # doctest: +SKIP
    PosixPath('runs/x')
    """
    started = time.perf_counter()
    embedding_given = embedding is not None
    groups = {
        "scan": (ScanSettings, scan),
        "embedding": (EmbeddingOptions, embedding),
        "execution": (ExecutionOptions, execution),
    }
    objects, given = route_settings("embed_corpus()", settings, groups)
    scan, embedding, execution = objects["scan"], objects["embedding"], objects["execution"]
    shard_bytes = execution.shard_bytes if execution.shard_bytes is not None else DEFAULT_SHARD_BYTES
    chunk_size = execution.chunk_size
    options = build_scan_options(targets, scan.forms, **scan.scan_kwargs())
    _matcher(options.to_dict())  # checks the options; kept for this process's shards
    _check_numbers(
        execution.vector_dtype, batch_size=embedding.batch_size, chunk_size=chunk_size, shard_bytes=shard_bytes
    )
    check_disjoint(out, _inputs(corpus, targets, scan.forms))
    own_output = Path(corpus_exclude if corpus_exclude is not None else out)
    check_meta_fields(corpus, options.meta_spec, options.text_field, [own_output])  # a misspelled --meta, up front
    claim_folder(out, "run", overwrite=overwrite)  # refuse a foreign destination before loading the encoder
    chosen = make_executor(
        execution.executor,
        scheduler=execution.scheduler,
        workers=execution.workers,
        threads_per_worker=execution.threads_per_worker,
        retries=execution.retries if execution.retries is not None else DEFAULT_RETRIES,
    )
    if encoder is not None and not chosen.in_process:
        raise ConfigError(f"an already loaded encoder runs in this process only, not on the {chosen.name} executor")
    encoder_options = embedding.encoder_kwargs() | {
        "model": _absolute_if_local(embedding.model),
        "offline": True if embedding.offline else None,
    }
    # with a loaded encoder, its own layers and pooling unless they are asked for
    chosen_layers = embedding.layers if embedding_given or "layers" in given else None
    chosen_pooling = embedding.pooling if embedding_given or "pooling" in given else None
    with chosen:
        clock = time.perf_counter()
        if chosen.in_process:
            if encoder is None:
                encoder = Encoder(**encoder_options)  # as the workers load it (worker_encoder)
            encoder = encoder.with_options(
                layers=chosen_layers or encoder.layers.name, pooling=chosen_pooling or encoder.pooling
            )
            identity = describe_encoder(encoder)
            warn_unreadable_targets(encoder.loaded.backend, encoder.loaded.name, options.targets)
        else:
            (identity,) = chosen.map(_describe_worker_encoder, [encoder_options | {"targets": list(options.targets)}])
            warn_unreadable(identity.pop("unreadable"), options.targets, identity["embedding"].get("model", ""))
        load_s = time.perf_counter() - clock
        config = {
            "corpus": str(Path(corpus).resolve()),
            "corpus_fingerprint": corpus_fingerprint(corpus, exclude=[own_output]),
            "scan": options.to_dict(),
            "embed": identity["embed"],
            "sharding": {"shard_bytes": shard_bytes, "chunk_size": chunk_size},
        }
        store = RunStore.create(out, config, vector_dtype=execution.vector_dtype, overwrite=overwrite)
        store.heal()  # a finished part that fails its checksum is dropped (with a warning) and done again
        if store.complete:
            warn_missing(store.meta["scan"])
            warn_proper(
                store.meta["scan"].get("proper", {}), store.meta["scan"]["occurrences"], scan.proper, scan.lemmatizer
            )
            return store.path
        clock = time.perf_counter()
        shards = _load_or_plan(store, corpus, shard_bytes, chosen, own_output)
        options.meta_spec.check_paths(list(dict.fromkeys(p.label for s in shards for p in s.pieces)))
        plan_s = time.perf_counter() - clock
        done = {shard.index: store.read_marker(shard.index) for shard in shards}
        todo = [shard for shard in shards if done[shard.index] is None]
        tasks = [
            {"run": str(store.path.resolve()), "fingerprint": store.meta["fingerprint"], "shard": shard.to_dict()}
            for shard in todo
        ]
        clock = time.perf_counter()
        if chosen.in_process:
            bar = tqdm(unit="occ", desc="embedding", disable=not progress, dynamic_ncols=True)
            total = sum(shard.size for shard in todo)
            reading = tqdm(total=total, unit="B", unit_scale=True, desc="reading", disable=not progress, leave=False)
            unit: Callable[[dict[str, Any]], dict[str, Any]] = functools.partial(
                embed_shard, encoder=encoder, bar=bar, reading=reading
            )
            with closing(bar), closing(reading):
                results = list(chosen.imap(unit, tasks))
        else:
            unit = functools.partial(embed_shard, encoder_options=encoder_options)
            results = list(chosen.imap(unit, tasks, progress="shard" if progress else None, total=len(shards)))
        units_s = time.perf_counter() - clock
        for position, result in results:
            done[todo[position].index] = result
        worker_count = chosen.workers
    finished = {index: marker for index, marker in done.items() if marker is not None}  # every shard's, by now
    scheduler_name = execution.scheduler if isinstance(execution.scheduler, str) else None
    ran = {"executor": chosen.name, "workers": worker_count, "scheduler": scheduler_name, "computed": len(todo)}
    finish_s = _finish(
        store,
        corpus,
        options,
        [finished[shard.index] for shard in shards],
        identity["embedding"],
        ran | {"shards": len(shards), "shard_bytes": shard_bytes},
        execution.consolidate if execution.consolidate is not None else chosen.name != "dask",
    )
    timings: dict[str, float] = {
        name: sum(finished[s.index]["timings"].get(name, 0.0) for s in todo) for name in STAGE_TIMINGS
    }
    timings["write_s"] += finish_s
    timings |= {"load_s": load_s, "plan_s": plan_s, "units_s": units_s, "total_s": time.perf_counter() - started}
    store.meta["timings"] = {name: round(value, 4) for name, value in timings.items()}
    store.save_meta()
    return store.path


def embed_shard(
    task: dict[str, Any],
    *,
    encoder: Encoder | None = None,
    encoder_options: Mapping[str, Any] | None = None,
    bar: Any = None,
    reading: Any = None,
) -> dict[str, Any]:
    """The unit of work: scan one shard, embed its occurrences, write its parts and its done-marker.

    The next chunk of occurrences is scanned and tokenised in a helper thread while the current one runs
    through the model. Chunks that already have vectors (an interrupted earlier attempt) are scanned again
    but not embedded; a shard that is already done returns its marker.

    Parameters
    ----------
    task : dict
        ``run`` (the run directory), ``fingerprint`` (of the run the task belongs to), ``shard``
        (:meth:`wsd.corpus.shards.Shard.to_dict`).
    encoder : Encoder, optional
        The encoder to use (in-process); else one is loaded from ``encoder_options``, once per process.
    encoder_options : mapping, optional
        Keyword arguments of :class:`wsd.Encoder` (when ``encoder`` is not given).
    bar : tqdm, optional
        A progress bar counting embedded occurrences.
    reading : tqdm, optional
        A progress bar counting the bytes of corpus read (it moves inside a long line).

    Returns
    -------
    dict
        What the shard found: ``shard``, ``documents``, ``occurrences`` (per target), ``part_sizes``,
        ``rows``, ``timings``, ``seconds``, ``worker`` (as written to its done-marker).
    """
    started = time.perf_counter()
    store = RunStore.open(task["run"])
    shard = Shard.from_dict(task["shard"])
    existing = store.read_marker(shard.index)
    if existing is not None:  # done by an earlier attempt whose result was lost with its worker
        return existing
    if store.meta.get("fingerprint") != task["fingerprint"]:
        raise ConfigError(f"{store.path} now holds a different run (fingerprint {store.meta.get('fingerprint')})")
    config = store.meta["config"]
    if encoder is None:
        if encoder_options is None:
            raise ConfigError("embed_shard needs an encoder or encoder options")
        encoder = worker_encoder(encoder_options)
        _check_identity(describe_encoder(encoder)["embed"], config["embed"])
    options = ScanOptions.from_dict(config["scan"])
    matcher = _matcher(config["scan"])
    chunk_size = config["sharding"]["chunk_size"]
    stats = ScanStats()
    timings = dict.fromkeys(STAGE_TIMINGS, 0.0)
    sizes: list[int] = []
    pending: deque[tuple[int, pd.DataFrame]] = deque()

    def chunks_to_embed() -> Iterator[pd.DataFrame]:
        on_bytes = reading.update if reading is not None else None
        documents = iter_shard_documents(shard, options.text_field, options.meta_spec, on_bytes)
        chunks = iter_document_chunks(documents, matcher, options, chunk_size, stats)
        while True:
            clock = time.perf_counter()
            frame = next(chunks, None)
            timings["scan_s"] += time.perf_counter() - clock
            if frame is None:
                return
            number = len(sizes)
            if number > MAX_CHUNKS:
                raise ConfigError(f"shard {shard.index} holds more than {MAX_CHUNKS} chunks; use a larger chunk_size")
            sizes.append(len(frame))
            if store.chunk_done((shard.index, number)):
                if bar is not None:
                    bar.update(len(frame))
                continue
            pending.append((number, frame))
            yield frame

    with closing(encoder.embed_stream(carry_warning_capture(chunks_to_embed()), timings=timings)) as stream:
        for vectors in stream:
            number, frame = pending.popleft()
            clock = time.perf_counter()
            store.write_occurrences_part((shard.index, number), frame)
            store.write_vectors_part((shard.index, number), vectors)
            timings["write_s"] += time.perf_counter() - clock
            if bar is not None:
                bar.update(len(frame))
    records = [store.read_chunk_record((shard.index, number)) for number in range(len(sizes))]
    if any(record is None for record in records):
        lost = records.index(None)
        missing = store.part_path(CHUNK_RECORD, (shard.index, lost))
        raise InputError(f"{missing}: the chunk's checksum record is missing; run the same command again")
    result = {
        "shard": shard.index,
        "documents": stats.documents,
        "occurrences": dict(stats.occurrences),
        "part_sizes": sizes,
        "rows": sum(sizes),
        "timings": {name: round(value, 4) for name, value in timings.items()},
        "seconds": round(time.perf_counter() - started, 4),
        "worker": socket.gethostname(),
        "chunks": records,
    }
    if options.meta_spec:
        result["meta"] = stats.meta.to_dict()
    if stats.proper:
        result["proper"] = stats.proper_table()
    store.write_marker(shard.index, result)
    return result


def describe_encoder(encoder: Encoder) -> dict[str, Any]:
    """What a run records of its encoder: ``embed`` (its identity) and ``embedding`` (its vectors' metadata).

    The one place the driver asks an encoder who it is.

    Parameters
    ----------
    encoder : Encoder
        A loaded encoder.

    Returns
    -------
    dict
        ``{"embed": ..., "embedding": ...}``.
    """
    identity = encoder.identity()
    return {"embed": identity.run_config(), "embedding": identity.embedding_meta()}


def _inputs(corpus: Any, targets: Any, forms: Any) -> dict[str, Any]:
    """The paths a corpus job reads, by option (a target list given as a file counts; words do not)."""
    found = {"--corpus": corpus, "--forms": forms}
    if isinstance(targets, (str, os.PathLike)) and os.path.isfile(targets):
        found["--targets"] = targets
    return found


def _matcher(scan: Mapping[str, Any]) -> Any:
    """The target matcher of a run's scan options, built once per process (lemmatizer forms are costly)."""
    options = ScanOptions.from_dict(dict(scan))
    return cached(
        "matcher",
        scan,
        lambda: make_matcher(options.targets, options.lemmatizer, options.case_sensitive, options.languages),
    )


def worker_encoder(encoder_options: Mapping[str, Any]) -> Encoder:
    """The encoder of ``encoder_options``, loaded once per process and kept for its later shards.

    Run it on every worker before timing runs, so that they start warm.

    Parameters
    ----------
    encoder_options : mapping
        Keyword arguments of :class:`wsd.Encoder`, as :func:`embed_corpus` passes them (every option named).

    Returns
    -------
    Encoder
    """
    return cached("encoder", encoder_options, lambda: Encoder(**encoder_options))


def _describe_worker_encoder(task: Mapping[str, Any]) -> dict[str, Any]:
    """Task: load (and keep) the encoder on a worker; describe it, with the ``targets`` its vocabulary cannot read.

    They come back as data, not as a warning: a worker process warns of one place only once, and a cluster's
    workers outlive the runs.
    """
    encoder_options = {key: value for key, value in task.items() if key != "targets"}
    encoder = worker_encoder(encoder_options)
    found = unreadable_targets(encoder.loaded.backend, task["targets"])
    return describe_encoder(encoder) | {"unreadable": found}


def _check_identity(identity: Mapping[str, Any], expected: Mapping[str, Any]) -> None:
    """A worker's encoder must compute the vectors the run records (same precision, device kind...)."""
    if dict(identity) == dict(expected):
        return
    different = "; ".join(
        f"{key} {value!r} (the run has {expected.get(key)!r})"
        for key, value in identity.items()
        if value != expected.get(key)
    )
    raise ConfigError(
        f"worker {socket.gethostname()} would embed with {different}; give --precision and --device "
        "explicitly so that every worker computes alike"
    )


def _check_numbers(vector_dtype: str, **numbers: int | None) -> None:
    if vector_dtype not in VECTOR_DTYPES:
        raise ConfigError(f"vector dtype must be float16 or float32, not {vector_dtype!r}")
    for name, value in numbers.items():
        if value is not None and value < 1:
            raise ConfigError(f"{name} must be at least 1, not {value}")


def _absolute_if_local(model: str | None) -> str | None:
    """A local model folder as an absolute path (workers may run in another directory); names unchanged."""
    if model is None:
        return None
    path = Path(str(model)).expanduser()
    return str(path.resolve()) if path.exists() else str(model)


def _load_or_plan(
    store: RunStore, corpus: str | os.PathLike[str], shard_bytes: int, executor: Executor, exclude: Path
) -> list[Shard]:
    """The run's shards: read back when resuming, else planned now (newlines counted by the executor)."""
    recorded = store.read_plan()
    if recorded is not None:
        return [Shard.from_dict(item) for item in recorded]

    def count_lines(ranges: list[tuple[str, int, int]]) -> list[int]:
        return executor.map(_count_range, ranges)

    shards = plan_shards(corpus, shard_bytes, count_lines=count_lines, exclude=[exclude])
    if len(shards) > MAX_SHARDS:
        raise ConfigError(
            f"the corpus makes {len(shards)} shards of {shard_bytes} bytes, more than {MAX_SHARDS}; "
            "choose a larger shard size"
        )
    store.write_plan([shard.to_dict() for shard in shards], shard_bytes)
    return shards


def _count_range(byte_range: tuple[str, int, int]) -> int:
    return count_newlines(*byte_range)


def _finish(
    store: RunStore,
    corpus: str | os.PathLike[str],
    options: ScanOptions,
    results: list[dict[str, Any]],
    embedding: dict[str, Any],
    execution: dict[str, Any],
    consolidate: bool,
) -> float:
    """Check what the scan found (errors and warnings) and mark the run complete; return the seconds taken."""
    clock = time.perf_counter()
    stats = ScanStats(documents=sum(r["documents"] for r in results))
    for result in results:
        stats.occurrences.update(result["occurrences"])
        stats.meta.merge(result.get("meta", {}))
        for target, forms in result.get("proper", {}).items():
            stats.proper[target].update(forms)
    check_findings(corpus, options, stats)
    if options.meta_spec:
        store.meta["metadata_columns"] = metadata_dtypes(options, stats)
    sizes = [size for result in results for size in result["part_sizes"]]
    store.meta["scan"] = {
        "parts": len(sizes),
        "part_sizes": sizes,
        "documents": stats.documents,
        "occurrences": {t: int(stats.occurrences[t]) for t in options.targets},
        **({"proper": stats.proper_table()} if stats.proper else {}),
    }
    store.meta["execution"] = execution
    store.finish({"embedding": embedding}, consolidate=consolidate)
    return time.perf_counter() - clock


def warn_missing(scan_meta: dict[str, Any]) -> None:
    """Warn about each target a finished run's scan never found (when a finished run is reused as it is).

    Parameters
    ----------
    scan_meta : dict
        The ``scan`` entry of the run's metadata.
    """
    for target, count in scan_meta.get("occurrences", {}).items():
        if count == 0:
            warnings.warn(f"target {target!r} was not found in the corpus", stacklevel=3)


#: The options of :func:`embed_corpus` that decide how the work is spread, not what it gives (left out of the
#: request a later ``wsd run`` is compared with).
_EXECUTION_OPTIONS = frozenset(
    {"executor", "scheduler", "workers", "threads_per_worker", "retries", "consolidate", "device", "batch_size"}
)


def embed_request(
    scan: ScanSettings, embedding: EmbeddingOptions, execution: ExecutionOptions, recipe_context: str | None
) -> dict[str, Any]:
    """The options of :func:`embed_corpus` that :func:`stage_request` compares, as ``wsd run`` has recorded them.

    The scan settings, the embedding options but ``device`` and ``batch_size``, ``vector_dtype`` and
    ``chunk_size``; ``offline`` as True or None; a context vector that is off as None where the recipe has
    none either, else ``"none"`` (the keys and values of the records written before the option objects, so
    that their output folders still resume).

    Parameters
    ----------
    scan : ScanSettings
        The scan settings (``forms`` is compared as a file, apart).
    embedding : EmbeddingOptions
        The embedding options, the recipe's context vector already filled in.
    execution : ExecutionOptions
        The storage settings are used.
    recipe_context : str, optional
        The recipe's context vector.

    Returns
    -------
    dict
    """
    options = scan.scan_kwargs() | embedding.encoder_kwargs()
    options["meta"] = scan.meta if isinstance(scan.meta, str) else list(scan.meta)
    options["offline"] = True if embedding.offline else None
    if is_off(options["context_vector"]):
        options["context_vector"] = None if recipe_context is None else "none"
    options |= {"vector_dtype": execution.vector_dtype, "chunk_size": execution.chunk_size}
    return options


def _file_stamp(path: Any) -> Any:
    """A file named by a path as its absolute name, size and modification time (anything else as it is)."""
    if isinstance(path, str | os.PathLike) and Path(path).is_file():
        stat = Path(path).stat()
        return [str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns]
    return path


def stage_request(
    corpus: str | os.PathLike[str],
    targets: Any,
    out: Path,
    forms: Any,
    inducer: Any,
    embed_options: Mapping[str, Any],
) -> dict[str, Any] | None:
    """What ``run/`` and ``senses/`` of an output folder are made from, as JSON (None when it cannot be said).

    Parameters
    ----------
    corpus : path
        The corpus (its files' names, sizes and times are part of it).
    targets, forms : object
        The targets and the forms file (a file by its name, size and time).
    out : Path
        The output folder (left out of a corpus folder that holds it).
    inducer : SenseInducer
        The sense inducer (its parameters).
    embed_options : mapping
        The options of :func:`embed_corpus` (those that spread the work are left out).

    Returns
    -------
    dict or None
        None with an already loaded ``encoder`` (its settings cannot be compared).
    """
    import json

    if embed_options.get("encoder") is not None:
        return None
    request = {
        "corpus": str(Path(corpus).resolve()),
        "corpus_fingerprint": corpus_fingerprint(corpus, exclude=[out]),
        "targets": _file_stamp(targets),
        "forms": _file_stamp(forms),
        "inducer": inducer.get_params(deep=False),
        "embed": {key: value for key, value in embed_options.items() if key not in _EXECUTION_OPTIONS},
    }
    return json.loads(json.dumps(request, default=str))


def finished_stages(out: Path, request: Mapping[str, Any] | None) -> bool:
    """Whether ``out`` holds a finished ``run/`` and ``senses/`` made from ``request`` (only the change differs).

    Parameters
    ----------
    out : Path
        The output folder of ``wsd run``.
    request : mapping or None
        :func:`stage_request` of this run.

    Returns
    -------
    bool
    """
    import json

    from wsd.layout import META_FILE
    from wsd.store import STATUS_COMPLETE, read_meta

    senses_meta = out / SENSES_DIR / META_FILE
    if request is None or not senses_meta.is_file():
        return False
    try:
        run_meta = read_meta(out / RUN_DIR)
        made = json.loads(senses_meta.read_text(encoding="utf-8"))
    except (InputError, ValueError, OSError):
        return False
    return (
        isinstance(made, dict)
        and run_meta.get("status") == STATUS_COMPLETE
        and made.get("request") == request
        and made.get("run_fingerprint") == run_meta.get("fingerprint")
    )


def check_slices_before_embedding(
    corpus: str | os.PathLike[str],
    targets: Any,
    forms: Any,
    out: Path,
    change: ChangeOptions,
    scan: ScanSettings,
) -> None:
    """Scan the corpus (without embedding) and check that the slices of ``change`` hold uses of the targets.

    Only the slice column is kept, so the check costs one reading of the corpus, not its memory. A bin without
    uses is a warning naming it; no bin with uses, or fewer than two slices, an error
    (:func:`wsd.change.slices.assign_slices`). The scan's own warnings are left to the embedding's scan.

    Parameters
    ----------
    corpus : path
        The corpus.
    targets, forms : object
        As for :func:`embed_corpus`.
    out : Path
        The output folder (left out of a corpus folder that holds it).
    change : ChangeOptions
        ``by``, ``bins``, ``bin_width``.
    scan : ScanSettings
        The scan settings (its ``forms`` is ``forms``).

    Raises
    ------
    InputError
        As :func:`wsd.change.slices.assign_slices` (and as the scan, for a corpus without the targets).
    """
    from wsd.change.slices import assign_slices, parse_by
    from wsd.corpus.documents import iter_documents

    column = parse_by(str(change.by))[0]
    options = build_scan_options(targets, forms, **scan.scan_kwargs())
    matcher = make_matcher(options.targets, options.lemmatizer, options.case_sensitive, options.languages)
    values: list[pd.Series] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the embedding's scan says them once
        documents = iter_documents(corpus, text_field=options.text_field, exclude=[out], meta=options.meta_spec)
        for chunk in iter_document_chunks(documents, matcher, options):
            values.append(chunk[column])
    if not values:
        return  # no occurrence at all: the embedding's scan says so, with its reasons
    table = pd.DataFrame({column: pd.concat(values, ignore_index=True)})
    assign_slices(table, str(change.by), change.bins, change.bin_width)


@in_session
def induce_corpus(
    corpus: str | os.PathLike[str],
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    out: str | os.PathLike[str],
    *,
    gold: str | os.PathLike[str] | None = None,
    scan: ScanSettings | None = None,
    embedding: EmbeddingOptions | None = None,
    senses: SenseOptions | Mapping[str, Any] | None = None,
    change: ChangeOptions | Mapping[str, Any] | None = None,
    execution: ExecutionOptions | None = None,
    encoder: Encoder | None = None,
    report: bool = False,
    progress: bool = True,
    overwrite: bool = False,
    **settings: Any,
) -> dict[str, Any]:
    """The whole job on a corpus: scan → embed → cluster → (evaluate against ``gold``) → (change) → (report).

    Writes the output folder ``out`` (:mod:`wsd.layout`): ``run/`` (occurrences and vectors), ``senses/``
    (sense model, labels, sense cards) and, with ``gold``, ``metrics.json`` (:mod:`wsd.results`) and
    ``gold.parquet`` (id, target, sense of every occurrence; ``""`` where unlabelled); with ``report``,
    ``report.html``.

    Parameters
    ----------
    corpus : path
        A corpus file or folder.
    targets : str, list or mapping
        The target words and their forms.
    out : path
        The output folder.
    gold : path, optional
        Labelled occurrences in the generic format, to score the induced senses against.
    scan : ScanSettings, optional
        What the scan finds (:class:`wsd.options.ScanSettings`, with ``forms``).
    embedding : EmbeddingOptions, optional
        How occurrences become vectors (:class:`wsd.options.EmbeddingOptions`). Its ``context_vector`` None
        means the recipe's (``"none"`` turns it off).
    senses : SenseOptions or dict, optional
        The recipe, the seed and the sense-inducer parameters (:class:`wsd.options.SenseOptions`; unset ones
        come from the recipe); a dict is taken as sense-inducer parameters (the recipe and seed are then the
        ``recipe`` and ``seed`` keywords).
    change : ChangeOptions or dict, optional
        Compare the senses between slices (:class:`wsd.options.ChangeOptions`, or its fields as a dict:
        ``by``, ``bins``, ``between``, ``measure``, ``binary_k``, ``binary_n``, ...); written to ``OUT/change``.
    execution : ExecutionOptions, optional
        Where the embedding runs and how the run is stored (:class:`wsd.options.ExecutionOptions`).
    encoder : Encoder, optional
        An already loaded encoder (then the output folder is never taken as finished by an earlier call).
    report : bool
        Also write ``report.html``.
    progress : bool
        Show progress bars.
    overwrite : bool
        Replace wsd's files of another configuration in ``out``, or write into a folder of other files
        (which are left alone); without it such a destination is refused (:mod:`wsd.outputs`).
    **settings
        Any field of the option objects by its name (``forms=...``, ``recipe="textbook"``, ``seed=1``,
        ``layers="last"``, ``by="year"``, ``workers=2``), applied on top of an object given too; None counts as
        not given. An unknown name is a ``TypeError`` that names the closest field.

    Returns
    -------
    dict
        ``occurrences`` and ``senses`` per target, ``run`` and ``senses_dir`` (paths), ``metrics`` (with
        ``gold``), ``change_dir`` and ``change_ranking`` (the printed ranking, with ``change``), ``report`` (with
        ``report``).

    Examples
    --------
    >>> induce_corpus("corpus.txt", "mouse,bank", "out", senses=SenseOptions(method="kmeans"))  # doctest: +SKIP
    """
    from wsd.evaluate.datasets.generic import read_generic
    from wsd.evaluate.keys import key_from_labels
    from wsd.evaluate.scoring import baseline_keys, score_keys
    from wsd.results import baseline_scores, metrics_document
    from wsd.senses.recipes import embedding_recipe, make_inducer
    from wsd.senses.recipes import recipe as recipe_params
    from wsd.senses.stage import cluster_run
    from wsd.store import load_run, read_meta, write_json, write_parquet
    from wsd.tune.card import training_overlap

    out = Path(out)
    inducer_dict = dict(senses) if isinstance(senses, Mapping) else None
    change_given = bool(change) if isinstance(change, Mapping) else change is not None
    groups = {
        "scan": (ScanSettings, scan),
        "embedding": (EmbeddingOptions, embedding),
        "senses": (SenseOptions, None if isinstance(senses, Mapping) else senses),
        "change": (ChangeOptions, ChangeOptions(**change) if isinstance(change, Mapping) else change),
        "execution": (ExecutionOptions, execution),
    }
    objects, given = route_settings("induce_corpus()", settings, groups)
    scan_settings, embedding_options = objects["scan"], objects["embedding"]
    sense_options, change_options, execution_options = objects["senses"], objects["change"], objects["execution"]
    slicing = change_given or bool(given & {f.name for f in dataclasses.fields(ChangeOptions)})
    forms = scan_settings.forms
    recipe = sense_options.recipe
    # every check that needs no corpus comes before the output folder and the encoder: a refused option costs nothing
    params = inducer_dict if inducer_dict is not None else sense_options.params(given_only=True)
    inducer = make_inducer(recipe_params(recipe) | params | {"random_state": sense_options.seed})
    if slicing:
        from wsd.change.slices import check_slice_options
        from wsd.corpus.metadata import MetaSpec

        spec = MetaSpec.build(scan_settings.meta, scan_settings.slice_from_path, scan_settings.text_field or "text")
        check_slice_options(
            change_options.by, change_options.bins, change_options.between, spec.columns, change_options.bin_width
        )
    labelled = read_generic(gold) if gold is not None else None  # a missing or malformed gold file: before embedding
    check_disjoint(out, {**_inputs(corpus, targets, forms), "--gold": gold})
    recipe_context = embedding_recipe(recipe)["context_vector"]
    if embedding_options.context_vector is None:  # not given: the recipe's ("none" turns it off)
        embedding_options = embedding_options.replace(context_vector=recipe_context)
    if not isinstance(targets, str | Mapping):
        targets = list(targets)  # read once: compared, scanned and embedded
    request = None
    if encoder is None:  # a loaded encoder's settings cannot be compared
        request = stage_request(
            corpus,
            targets,
            out,
            forms,
            inducer,
            embed_request(scan_settings, embedding_options, execution_options, recipe_context),
        )
    unchanged = finished_stages(out, request)  # only the change settings differ: run/ and senses/ are kept
    if slicing and not unchanged:  # the slices hold uses: one scan without embedding, before any folder is made
        check_slices_before_embedding(corpus, targets, forms, out, change_options, scan_settings)
    claim_folder(out, "output", overwrite=overwrite)
    if unchanged:
        run, senses_dir = out / RUN_DIR, out / SENSES_DIR
    else:
        run = embed_corpus(
            corpus,
            targets,
            out / RUN_DIR,
            scan=scan_settings,
            embedding=embedding_options,
            execution=execution_options,
            encoder=encoder,
            progress=progress,
            overwrite=overwrite,
            corpus_exclude=out,
        )
        senses_dir = cluster_run(run, out / SENSES_DIR, inducer=inducer, overwrite=overwrite, request=request)
    occurrences, _ = load_run(run)
    labels = pd.read_parquet(senses_dir / LABELS_FILE)
    summary: dict[str, Any] = {
        "occurrences": occurrences.groupby("target", sort=False).size().astype(int).to_dict(),
        "senses": labels.groupby("target", sort=False)["sense"].nunique().astype(int).to_dict(),
        "run": str(run),
        "senses_dir": str(senses_dir),
    }
    if gold is not None and labelled is not None:
        gold_senses, matched = attach_gold(occurrences, labelled)
        if matched == 0:
            raise InputError(
                f"{gold}: none of its labelled occurrences matches an occurrence found in {corpus} "
                f"({explain_unmatched(occurrences, labelled)})"
            )
        n_labelled = int((labelled["sense"].astype(str).str.strip() != "").sum())
        if matched < n_labelled:
            warnings.warn(
                f"{gold}: only {matched} of {n_labelled} labelled occurrences match occurrences found in the corpus: "
                f"{explain_unmatched(occurrences, labelled)}",
                stacklevel=2,
            )
        mask = (gold_senses != "").to_numpy()
        scored = occurrences.loc[mask].assign(sense=gold_senses[mask].to_numpy())
        gold_key = key_from_occurrences(scored, where=str(gold))
        system = key_from_labels(scored["target"], scored["id"], labels["sense"].to_numpy()[mask])
        metrics = metrics_document(
            "generic",
            {"gold": str(gold), "corpus": str(corpus), "senses": inducer.get_params(deep=False)},
            [score_keys("generic", gold_key, system)],
            baseline_scores("generic", gold_key, baseline_keys(scored, 1)),
            n_instances=int(mask.sum()),
            n_targets=int(scored["target"].nunique()),
            embedding=read_meta(run).get("embedding"),
            training_overlap=training_overlap(embedding_options.model, scored["target"].astype(str).unique()),
        )
        write_json(out / METRICS_FILE, metrics)
        gold_table = occurrences.assign(sense=gold_senses.to_numpy())
        write_parquet(out / GOLD_FILE, gold_table[["id", "target", "sense"]])
        summary["metrics"] = metrics
    if slicing:
        from wsd.change.stage import change_run, format_ranking

        # OUT/change is this output's own: other change settings replace it (only wsd's files; no --overwrite needed)
        kwargs = change_options.kwargs()
        summary["change_dir"] = str(change_run(run, senses_dir, out / CHANGE_DIR, overwrite=True, **kwargs))
        summary["change_ranking"] = format_ranking(summary["change_dir"])
    if report:
        from wsd.report import write_report

        summary["report"] = str(write_report(out))
    return summary
