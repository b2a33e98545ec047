"""Running the stages end to end: corpus → occurrences → vectors on disk (resumable).

>>> run = embed_corpus("data/demo/corpus.txt", "mouse:mice,bank", "runs/demo")  # doctest: +SKIP
>>> occurrences, X = wsd.load_run(run)                                         # doctest: +SKIP
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from wsd.corpus.documents import corpus_fingerprint
from wsd.corpus.scan import DEFAULT_CHUNK_SIZE, ScanStats, build_scan_options, iter_occurrence_chunks
from wsd.embed.encoder import DEFAULT_BATCH_SIZE, DEFAULT_LAYERS, DEFAULT_POOLING, Encoder
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import check_pooling
from wsd.store import RunStore


def embed_corpus(
    corpus: str | os.PathLike[str],
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    out: str | os.PathLike[str],
    *,
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
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_length: int | None = None,
    window_tokens: int | None = None,
    vector_dtype: str = "float16",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    overwrite: bool = False,
    progress: bool = True,
    encoder: Encoder | None = None,
) -> Path:
    """Scan ``corpus`` for ``targets``, embed every occurrence, and store both in the run directory ``out``.

    Re-running the same call on the same corpus resumes: finished parts are kept, only missing work is done.
    A different configuration in an existing ``out`` is refused (``overwrite=True`` replaces it). Returns the
    run directory, readable with :func:`wsd.load_run`.

    Parameters are those of :func:`wsd.scan` (``forms``, ``lemmatizer``, ``case_sensitive``, ``context``,
    ``context_chars``, ``text_field``) and of :class:`wsd.Encoder` (``model``, ``layers``, ``pooling``,
    ``device``, ``precision``, ``batch_size``, ``max_length``, ``window_tokens``); ``vector_dtype`` is the
    storage type (``float16`` or ``float32``); ``chunk_size`` the number of occurrences per stored part
    (the unit of resumption); ``encoder`` an already loaded encoder to reuse.
    """
    options = build_scan_options(
        targets,
        forms,
        lemmatizer=lemmatizer,
        case_sensitive=case_sensitive,
        context=context,
        context_chars=context_chars,
        text_field=text_field,
    )
    if encoder is None:
        encoder = Encoder(
            model=model,
            layers=layers,
            pooling=pooling,
            device=device,
            precision=precision,
            batch_size=batch_size,
            max_length=max_length,
            window_tokens=window_tokens,
        )
    spec = parse_layers(layers)
    spec.resolve(encoder.loaded.num_layers)
    embed_config = {
        "model": encoder.loaded.name,
        "model_fingerprint": encoder.loaded.fingerprint,
        "layers": spec.name,
        "pooling": check_pooling(pooling),
        "precision": encoder.loaded.precision,
        "batch_size": encoder.batch_size,
        "max_length": encoder.loaded.max_length,
        "window_tokens": encoder.window_tokens,
    }
    config = {
        "corpus": str(Path(corpus).resolve()),
        "corpus_fingerprint": corpus_fingerprint(corpus),
        "scan": options.to_dict(),
        "embed": embed_config,
        "chunk_size": chunk_size,
    }
    store = RunStore.create(out, config, vector_dtype=vector_dtype, overwrite=overwrite)
    if store.complete:
        _warn_missing(store.meta["scan"])
        return store.path
    if "scan" not in store.meta:
        stats = ScanStats()
        sizes: list[int] = []
        scanning = tqdm(unit="doc", desc="scanning", disable=not progress, dynamic_ncols=True)
        for index, chunk in enumerate(iter_occurrence_chunks(corpus, options, chunk_size, stats)):
            store.write_occurrences_part(index, chunk)
            sizes.append(len(chunk))
            scanning.update(stats.documents - scanning.n)
        scanning.update(stats.documents - scanning.n)
        scanning.close()
        store.meta["scan"] = {
            "parts": len(sizes),
            "part_sizes": sizes,
            "documents": stats.documents,
            "occurrences": {t: int(stats.occurrences[t]) for t in options.targets},
        }
        store.save_meta()
    else:
        _warn_missing(store.meta["scan"])
    scan_meta = store.meta["scan"]
    _embed_parts(store, encoder, scan_meta["part_sizes"], progress, layers, pooling)
    store.consolidate(scan_meta["parts"], {"embedding": encoder.metadata(layers, pooling)})
    return store.path


def _embed_parts(
    store: RunStore, encoder: Encoder, part_sizes: list[int], progress: bool, layers: str, pooling: str
) -> None:
    """Embed every part that has no vectors yet; the next part is read and tokenised while one is encoded."""
    todo = [i for i in range(len(part_sizes)) if not store.has_part("vec", i)]
    total = sum(part_sizes)
    done = total - sum(part_sizes[i] for i in todo)
    config = [(parse_layers(layers), check_pooling(pooling))]
    bar = tqdm(total=total, initial=done, unit="occ", desc="embedding", disable=not progress, dynamic_ncols=True)

    def prepare(index: int) -> Any:
        chunk = store.read_occurrences_part(index)
        spans = chunk[["start", "end"]].to_numpy()
        return encoder.plan(chunk["text"].tolist(), spans)

    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(prepare, todo[0]) if todo else None
        for position, index in enumerate(todo):
            plan = pending.result() if pending is not None else prepare(index)
            pending = pool.submit(prepare, todo[position + 1]) if position + 1 < len(todo) else None
            (vectors,) = encoder.encode_plan(plan, config)
            store.write_vectors_part(index, vectors)
            bar.update(len(vectors))
    bar.close()


def _warn_missing(scan_meta: dict[str, Any]) -> None:
    for target, count in scan_meta.get("occurrences", {}).items():
        if count == 0:
            warnings.warn(f"target {target!r} was not found in the corpus", stacklevel=3)
