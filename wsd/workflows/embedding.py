"""From a corpus to a run (``wsd embed``): the embedding driver, a shard of the corpus the unit of work.

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

Re-running the same call resumes: finished shards are skipped, and in an unfinished shard the chunks that
have vectors. On a cluster, a worker lost mid-shard loses nothing and duplicates nothing, because a part has
a fixed name and is replaced whole when its task runs again; the run directory and the corpus must then be
on storage that every worker reads and writes under the same path.

>>> run = embed_corpus("data/demo/corpus.txt", "mouse:mice,bank", "runs/demo")  # doctest: +SKIP
>>> run = embed_corpus("corpus/", "mouse,bank", "runs/big", scheduler="tcp://head-node:8786")  # doctest: +SKIP
>>> occurrences, X = wsd.load_run(run)                                         # doctest: +SKIP
"""

from __future__ import annotations

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

from wsd.corpus.documents import corpus_fingerprint, corpus_location
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
from wsd.corpus.shards import Shard, count_newlines, iter_shard_documents, plan_shards
from wsd.embed.coverage import unreadable_targets, warn_unreadable, warn_unreadable_targets
from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError, InputError
from wsd.executors import DEFAULT_RETRIES, Executor, cached, carry_warning_capture, make_executor
from wsd.io.layout import CHUNK_RECORD
from wsd.io.meta_types import ExecutionFacts, RunConfig, ScanFacts, VectorMeta
from wsd.io.outputs import check_disjoint, claim_folder, in_session
from wsd.io.run_reader import VECTOR_DTYPES
from wsd.io.run_store import RunStore
from wsd.options import (
    EmbeddingOptions,
    ExecutionOptions,
    ScanSettings,
    route_settings,
)
from wsd.schema import DEFAULT_CONTEXT_VECTOR, DEFAULT_SHARD_BYTES
from wsd.workflows.calibration import resolve_auto

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
        ``context_vector``, ``offline``). As ``wsd embed``, the context vector is the default recipe's
        (:data:`wsd.schema.DEFAULT_CONTEXT_VECTOR`, ``20:last:0.5``: 768-dim vectors with the bundled encoder),
        or the sense recipe a tuned ``model`` ships (``wsd:sense-minilm``: ``20:last:0.3``; not with ``encoder``),
        unless given; ``context_vector="none"`` stores the word's own vectors
        (:meth:`wsd.Encoder.embed_spans`'s). With ``encoder``, the encoder's own layers, pooling and context
        vector are used unless ``embedding`` or the ``layers``/``pooling`` keywords give the layers and pooling.
        With ``runtime`` and ``precision`` ``auto`` on a CPU, a run being resumed keeps the ones it recorded and a
        new one runs what the calibration chose (:func:`wsd.workflows.calibration.resolve_auto`).
    execution : ExecutionOptions, optional
        Where the work runs and how the run is stored (:class:`wsd.options.ExecutionOptions`: ``executor``,
        ``scheduler``, ``workers``, ``threads_per_worker``, ``retries``, ``shard_bytes``, ``chunk_size``,
        ``consolidate``, ``vector_dtype``): by default in this process, or on Dask when ``scheduler`` or
        ``workers`` is given; the parts are joined at the end unless the shards ran on a Dask cluster.
    encoder : Encoder, optional
        An already loaded encoder to use (in-process executors only).
    overwrite : bool
        Replace a run with a different configuration in ``out``, or write into a folder that is not a run
        (only wsd's own files are replaced; see :mod:`wsd.io.outputs`).
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
    if embedding.context_vector is None:  # not given: the recipe's, as `wsd embed` has it ("none": off)
        from wsd.io.recipe_stamp import shipped_sense_recipe
        from wsd.senses.recipes import embedding_recipe

        shipped = shipped_sense_recipe(embedding.model) if encoder is None else None
        context = embedding_recipe(shipped)["context_vector"] if shipped is not None else DEFAULT_CONTEXT_VECTOR
        embedding = embedding.replace(context_vector=context or "none")
    shard_bytes = execution.shard_bytes if execution.shard_bytes is not None else DEFAULT_SHARD_BYTES
    chunk_size = execution.chunk_size
    options = build_scan_options(targets, scan.forms, **scan.scan_kwargs())
    _matcher(options.to_dict())  # checks the options; kept for this process's shards
    _check_numbers(
        execution.vector_dtype, batch_size=embedding.batch_size, chunk_size=chunk_size, shard_bytes=shard_bytes
    )
    check_disjoint(out, named_inputs(corpus, targets, scan.forms))
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
    measured = None
    if encoder is None:  # auto on a CPU: the resumed run's own runtime and precision, else measured once, here
        embedding, measured = resolve_auto(embedding, out, overwrite=overwrite, measure=chosen.name != "dask")
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
        config: RunConfig = {
            "corpus": corpus_location(corpus),
            "corpus_fingerprint": corpus_fingerprint(corpus, exclude=[own_output]),
            "scan": options.to_dict(),
            "embed": identity["embed"],
            "sharding": {"shard_bytes": shard_bytes, "chunk_size": chunk_size},
        }
        store = RunStore.create(out, config, vector_dtype=execution.vector_dtype, overwrite=overwrite)
        if measured is not None and not store.complete and store.meta.get("calibration") != measured.record():
            store.meta["calibration"] = measured.record()  # how auto chose (not part of the configuration)
            store.save_meta()
        store.heal()  # a finished part that fails its checksum is dropped (with a warning) and done again
        if store.complete:
            warn_missing(store.meta["scan"])
            warn_proper(store.meta["scan"].get("proper", {}), store.meta["scan"]["occurrences"], scan.proper)
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
    ran: ExecutionFacts = {
        "executor": chosen.name,
        "workers": worker_count,
        "scheduler": scheduler_name,
        "computed": len(todo),
    }
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


def named_inputs(corpus: Any, targets: Any, forms: Any) -> dict[str, Any]:
    """The paths a corpus job reads, by option (a target list given as a file counts; words do not).

    Parameters
    ----------
    corpus, targets, forms : object
        As for :func:`embed_corpus`.

    Returns
    -------
    dict
        ``--corpus``, ``--forms`` and (a file of targets) ``--targets``: the path each names.
    """
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
    embedding: VectorMeta,
    execution: ExecutionFacts,
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


def warn_missing(scan_meta: ScanFacts) -> None:
    """Warn about each target a finished run's scan never found (when a finished run is reused as it is).

    Parameters
    ----------
    scan_meta : ScanFacts
        The ``scan`` entry of the run's metadata.
    """
    for target, count in scan_meta.get("occurrences", {}).items():
        if count == 0:
            warnings.warn(f"target {target!r} was not found in the corpus", stacklevel=3)
