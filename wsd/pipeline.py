"""Running the stages end to end: corpus → occurrences → vectors on disk (resumable).

>>> run = embed_corpus("data/demo/corpus.txt", "mouse:mice,bank", "runs/demo")  # doctest: +SKIP
>>> occurrences, X = wsd.load_run(run)                                         # doctest: +SKIP
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from wsd.corpus.documents import corpus_fingerprint
from wsd.corpus.scan import DEFAULT_CHUNK_SIZE, ScanStats, build_scan_options, iter_occurrence_chunks
from wsd.embed.encoder import DEFAULT_LAYERS, DEFAULT_POOLING, Encoder
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import check_pooling
from wsd.errors import InputError
from wsd.evaluate.keys import key_from_occurrences
from wsd.store import RunStore, library_versions


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
    batch_size: int | None = None,
    max_length: int | None = None,
    window_tokens: int | None = None,
    context_vector: str | None = None,
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
    ``device``, ``precision``, ``batch_size``, ``max_length``, ``window_tokens``, ``context_vector``: off by
    default, so the stored vectors are :meth:`wsd.Encoder.embed_spans`'s); ``vector_dtype`` is the
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
            context_vector=context_vector,
        )
    embed_config = encoder.run_identity(layers, pooling)
    config = {
        "corpus": str(Path(corpus).resolve()),
        "corpus_fingerprint": corpus_fingerprint(corpus),
        "scan": options.to_dict(),
        "embed": embed_config,
        "chunk_size": chunk_size,
    }
    store = RunStore.create(out, config, vector_dtype=vector_dtype, overwrite=overwrite)
    if store.complete:
        warn_missing(store.meta["scan"])
        return store.path
    timings: dict[str, float] = {"scan_s": 0.0, "tokenize_s": 0.0, "encode_s": 0.0, "write_s": 0.0}
    started = time.perf_counter()
    if "scan" not in store.meta:
        stats = ScanStats()
        sizes: list[int] = []
        scanning = tqdm(unit="doc", desc="scanning", disable=not progress, dynamic_ncols=True)
        for index, chunk in enumerate(iter_occurrence_chunks(corpus, options, chunk_size, stats)):
            clock = time.perf_counter()
            store.write_occurrences_part(index, chunk)
            timings["write_s"] += time.perf_counter() - clock
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
        timings["scan_s"] = time.perf_counter() - started - timings["write_s"]
    else:
        warn_missing(store.meta["scan"])
    scan_meta = store.meta["scan"]
    _embed_parts(store, encoder, scan_meta["part_sizes"], progress, layers, pooling, timings)
    clock = time.perf_counter()
    store.consolidate(scan_meta["parts"], {"embedding": encoder.metadata(layers, pooling)})
    timings["write_s"] += time.perf_counter() - clock
    timings["total_s"] = time.perf_counter() - started
    store.meta["timings"] = {name: round(value, 4) for name, value in timings.items()}
    store.save_meta()
    return store.path


def _embed_parts(
    store: RunStore,
    encoder: Encoder,
    part_sizes: list[int],
    progress: bool,
    layers: str,
    pooling: str,
    timings: dict[str, float],
) -> None:
    """Embed every part that has no vectors yet; the next part is read and tokenised while one is encoded.

    ``timings`` accumulates seconds: ``tokenize_s`` (reading a part and planning its windows, in a helper
    thread, so it overlaps the forward pass), ``encode_s`` (forward passes and pooling), ``write_s``.
    """
    todo = [i for i in range(len(part_sizes)) if not store.has_part("vec", i)]
    total = sum(part_sizes)
    done = total - sum(part_sizes[i] for i in todo)
    config = [(parse_layers(layers), check_pooling(pooling))]
    bar = tqdm(total=total, initial=done, unit="occ", desc="embedding", disable=not progress, dynamic_ncols=True)

    def prepare(index: int) -> Any:
        clock = time.perf_counter()
        chunk = store.read_occurrences_part(index)
        plan = encoder.plan(chunk["text"].tolist(), chunk[["start", "end"]].to_numpy())
        timings["tokenize_s"] += time.perf_counter() - clock
        return plan

    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(prepare, todo[0]) if todo else None
        for position, index in enumerate(todo):
            plan = pending.result() if pending is not None else prepare(index)
            pending = pool.submit(prepare, todo[position + 1]) if position + 1 < len(todo) else None
            clock = time.perf_counter()
            (vectors,) = encoder.encode_words(plan, config)
            timings["encode_s"] += time.perf_counter() - clock
            clock = time.perf_counter()
            store.write_vectors_part(index, vectors)
            timings["write_s"] += time.perf_counter() - clock
            bar.update(len(vectors))
    bar.close()


def warn_missing(scan_meta: dict[str, Any]) -> None:
    """Warn about each target a finished run's scan never found (when a finished run is reused as it is)."""
    for target, count in scan_meta.get("occurrences", {}).items():
        if count == 0:
            warnings.warn(f"target {target!r} was not found in the corpus", stacklevel=3)


def attach_gold(occurrences: pd.DataFrame, labelled: pd.DataFrame) -> tuple[pd.Series, int]:
    """Gold senses for scanned occurrences from a labelled table (generic format); and how many matched.

    A labelled row matches the occurrence of the same target at the same place: the same passage and span,
    or a passage that lies inside the labelled text at the labelled offset (when the scanner cut a sentence
    out of a longer labelled text). Occurrences without a label get ``""``.
    """
    senses = pd.Series([""] * len(occurrences), index=occurrences.index, dtype=object)
    exact = {
        (row.target, row.text, int(row.start), int(row.end)): row.sense
        for row in labelled.itertuples(index=False)
        if str(row.sense).strip()
    }
    unmatched = dict(exact)
    by_target: dict[str, list[tuple[str, int, int, str]]] = {}
    for (target, text, start, end), sense in exact.items():
        by_target.setdefault(target, []).append((text, start, end, sense))
    for position, row in enumerate(occurrences.itertuples(index=False)):
        key = (row.target, row.text, int(row.start), int(row.end))
        if key in exact:
            senses.iloc[position] = exact[key]
            unmatched.pop(key, None)
            continue
        for text, start, end, sense in by_target.get(row.target, ()):
            offset = start - int(row.start)
            if offset >= 0 and end - start == row.end - row.start and text[offset : offset + len(row.text)] == row.text:
                senses.iloc[position] = sense
                unmatched.pop((row.target, text, start, end), None)
                break
    return senses, len(exact) - len(unmatched)


def run_pipeline(
    corpus: str | os.PathLike[str],
    targets: str | Iterable[str] | Mapping[str, Iterable[str]],
    out: str | os.PathLike[str],
    *,
    forms: str | os.PathLike[str] | None = None,
    gold: str | os.PathLike[str] | None = None,
    recipe: str = "default",
    senses: dict[str, Any] | None = None,
    seed: int = 0,
    report: bool = False,
    progress: bool = True,
    **embed_options: Any,
) -> dict[str, Any]:
    """The whole job on a corpus: scan → embed → cluster → (evaluate against ``gold``) → (report).

    Writes ``out/run`` (occurrences and vectors), ``out/senses`` (sense model, labels, sense cards) and, with
    ``gold`` (a labelled file in the generic format), ``out/metrics.json`` and ``out/gold.parquet`` (id,
    target, sense of every occurrence; ``""`` where unlabelled); with ``report``, ``out/report.html``.
    Returns a summary: occurrences and senses per target, and the scores.

    ``recipe`` (:mod:`wsd.senses.recipes`) supplies the sense parameters ``senses`` does not give and, unless
    ``context_vector`` is among ``embed_options`` (``"none"`` turns it off), the context vector; the other
    ``embed_options`` are those of :func:`embed_corpus`.
    """
    from wsd.evaluate.datasets.generic import read_generic
    from wsd.evaluate.keys import key_from_labels
    from wsd.evaluate.scoring import baseline_keys, score_keys
    from wsd.senses.recipes import embedding_recipe, make_inducer
    from wsd.senses.recipes import recipe as recipe_params
    from wsd.senses.run import cluster_run
    from wsd.store import load_run, write_json, write_parquet

    out = Path(out)
    inducer = make_inducer(recipe_params(recipe) | (senses or {}) | {"random_state": seed})
    if embed_options.get("context_vector") is None:
        embed_options["context_vector"] = embedding_recipe(recipe)["context_vector"]
    run = embed_corpus(corpus, targets, out / "run", forms=forms, progress=progress, **embed_options)
    senses_dir = cluster_run(run, out / "senses", inducer=inducer)
    occurrences, _ = load_run(run)
    labels = pd.read_parquet(senses_dir / "labels.parquet")
    summary: dict[str, Any] = {
        "occurrences": occurrences.groupby("target", sort=False).size().astype(int).to_dict(),
        "senses": labels.groupby("target", sort=False)["sense"].nunique().astype(int).to_dict(),
        "run": str(run),
        "senses_dir": str(senses_dir),
    }
    if gold is not None:
        labelled = read_generic(gold)
        gold_senses, matched = attach_gold(occurrences, labelled)
        if matched == 0:
            raise InputError(f"{gold}: none of its labelled occurrences matches an occurrence found in {corpus}")
        if matched < (labelled["sense"].astype(str).str.strip() != "").sum():
            warnings.warn(
                f"{gold}: only {matched} labelled occurrences match occurrences found in the corpus", stacklevel=2
            )
        mask = (gold_senses != "").to_numpy()
        scored = occurrences.loc[mask].assign(sense=gold_senses[mask].to_numpy())
        gold_key = key_from_occurrences(scored, where=str(gold))
        system = key_from_labels(scored["target"], scored["id"], labels["sense"].to_numpy()[mask])
        result = score_keys("generic", gold_key, system)
        baselines = {
            name: score_keys("generic", gold_key, keys[0])["overall"] for name, keys in baseline_keys(scored, 1).items()
        }
        metrics = {
            "dataset": "generic",
            "config": {"gold": str(gold), "corpus": str(corpus), "senses": inducer.get_params(deep=False)},
            "overall": result["overall"],
            "per_target": result["per_target"],
            "baselines": baselines,
            "n_instances": int(mask.sum()),
            "versions": library_versions(),
        }
        write_json(out / "metrics.json", metrics)
        gold_table = occurrences.assign(sense=gold_senses.to_numpy())
        write_parquet(out / "gold.parquet", gold_table[["id", "target", "sense"]])
        summary["metrics"] = metrics
    if report:
        from wsd.report import write_report

        summary["report"] = str(write_report(out))
    return summary
