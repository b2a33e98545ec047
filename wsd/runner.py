"""The evaluation runner: dataset → vectors → senses → official scores, over seeds, with baselines.

>>> from wsd.config import build_evaluation_config
>>> config = build_evaluation_config(dataset="semeval2013", data="../shared/datasets", seeds=5)  # doctest: +SKIP
>>> result = evaluate(config, out="runs/eval")                                                   # doctest: +SKIP
>>> result["overall"]["avg"]                                                                     # doctest: +SKIP

``out`` receives ``metrics.json`` (dataset, config, overall, overall_std, per_target, baselines, subsets,
seeds, versions), ``per_target.csv``, one system key file per seed (``system.seed<N>.key``), ``run/`` (the
occurrences with their gold ``sense`` and the vectors, readable with :func:`wsd.load_run`) and ``senses/`` (the
senses induced with seed 0: labels, descriptions, sense model), the layout ``wsd report`` reads.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.config import EvaluationConfig
from wsd.embed.cache import embed_cached
from wsd.embed.encoder import Encoder
from wsd.errors import InputError
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.keys import Key, key_from_labels, key_from_memberships, key_from_occurrences, write_key
from wsd.evaluate.scoring import BASELINES, baseline_keys, score_keys
from wsd.executors import MapFunction
from wsd.senses.inducer import SenseInducer
from wsd.senses.run import fit_senses, write_senses
from wsd.store import library_versions, write_json, write_run

METRICS_FILE = "metrics.json"


def system_key(
    occurrences: pd.DataFrame,
    labels: np.ndarray,
    proba: np.ndarray,
    graded: bool,
    min_weight: float = 0.0,
    top: int | None = None,
) -> Key:
    """The system key of induced senses: hard labels, or graded memberships when ``graded``."""
    if graded:
        return key_from_memberships(occurrences["target"], occurrences["id"], proba, min_weight=min_weight, top=top)
    return key_from_labels(occurrences["target"], occurrences["id"], labels)


def load_labelled(config: EvaluationConfig) -> tuple[Any, pd.DataFrame]:
    """The dataset bundle and its labelled occurrences (rows with a gold sense)."""
    if config.data is None:
        raise InputError(f"--data is required for dataset {config.dataset!r} (the dataset folder or file)")
    bundle = load_dataset(config.dataset, config.data, **config.dataset_options)
    occurrences = bundle.occurrences
    if config.targets:
        unknown = sorted(set(config.targets) - set(occurrences["target"]))
        if unknown:
            raise InputError(f"{config.data}: no target(s) {', '.join(unknown)} in the {config.dataset} data")
        occurrences = occurrences[occurrences["target"].isin(config.targets)]
    if "sense" not in occurrences.columns:
        raise InputError(f"{config.data}: the {config.dataset} data has no gold sense labels to evaluate against")
    labelled = occurrences[occurrences["sense"].astype(str).str.strip() != ""].reset_index(drop=True)
    if labelled.empty:
        raise InputError(f"{config.data}: no labelled occurrences")
    return bundle, labelled


def evaluate(
    config: EvaluationConfig,
    out: str | os.PathLike[str] | None = None,
    encoder: Encoder | None = None,
    vectors: np.ndarray | None = None,
    map_function: MapFunction | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Embed, induce senses and score one configuration over ``config.seeds`` seeds; return ``metrics.json``.

    ``vectors`` (row-aligned with the labelled occurrences) skips embedding, e.g. when an experiment has
    computed several layer settings in one pass.
    """
    bundle, occurrences = load_labelled(config)
    gold = key_from_occurrences(occurrences, where=f"{config.dataset} gold")
    if vectors is None:
        if encoder is None:
            encoder = Encoder(**config.embedding.encoder_kwargs(), progress=progress)
        (vectors,) = embed_cached(
            encoder,
            occurrences,
            [(config.embedding.layers, config.embedding.pooling)],
            cache_dir=config.cache_dir,
            progress=progress,
        )
    embedding_meta = encoder.metadata(config.embedding.layers, config.embedding.pooling) if encoder else None
    X = np.asarray(vectors, dtype=np.float32)
    per_seed: list[dict[str, Any]] = []
    keys: list[Key] = []
    first_model: tuple[Any, np.ndarray] | None = None
    for seed in range(config.seeds):
        inducer = SenseInducer(**(config.senses | {"random_state": seed}))
        model, labels, proba = fit_senses(occurrences, X, inducer, embedding_meta, map_function)
        if first_model is None:
            first_model = (model, proba)
        key = system_key(occurrences, labels, proba, config.graded, config.min_weight, config.top)
        keys.append(key)
        per_seed.append(score_keys(config.dataset, gold, key, bundle.subsets))
        if log is not None:
            log(f"seed {seed}: " + ", ".join(f"{m} {v:.4f}" for m, v in per_seed[-1]["overall"].items()))
    baselines = {
        name: summarise([score_keys(config.dataset, gold, key, bundle.subsets) for key in seeded])["overall"]
        for name, seeded in baseline_keys(occurrences, config.seeds).items()
    }
    result = summarise(per_seed)
    result = {
        "dataset": config.dataset,
        "config": config.to_dict(),
        "embedding": embedding_meta,
        "n_instances": len(occurrences),
        "n_targets": int(occurrences["target"].nunique()),
        **result,
        "baselines": baselines,
        "dataset_stats": bundle.stats,
        "versions": library_versions(),
    }
    if out is not None:
        write_outputs(Path(out), result, keys)
        write_run(
            Path(out) / "run",
            occurrences,
            X,
            {"config": {"dataset": config.dataset, "data": config.data}, "embedding": embedding_meta},
        )
        if first_model is not None:
            write_senses(Path(out) / "senses", occurrences, X, first_model[0], first_model[1], {"seed": 0})
    return result


def summarise(per_seed: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean (and std) over seeds of ``overall``, ``per_target`` and ``subsets`` score dictionaries."""
    overall = _mean_dicts([s["overall"] for s in per_seed])
    overall_std = _std_dicts([s["overall"] for s in per_seed])
    targets = per_seed[0].get("per_target", {})
    per_target = {t: _mean_dicts([s["per_target"][t] for s in per_seed]) for t in targets}
    subsets = {name: _mean_dicts([s["subsets"][name] for s in per_seed]) for name in per_seed[0].get("subsets", {})}
    return {
        "overall": overall,
        "overall_std": overall_std,
        "per_target": per_target,
        "subsets": subsets,
        "seeds": [s["overall"] for s in per_seed],
    }


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool)


def _mean_dicts(items: list[dict[str, Any]]) -> dict[str, Any]:
    keys = [k for k, v in items[0].items() if _numeric(v)]
    return {k: float(np.mean([float(item[k]) for item in items])) for k in keys}


def _std_dicts(items: list[dict[str, Any]]) -> dict[str, Any]:
    keys = [k for k, v in items[0].items() if _numeric(v)]
    return {k: float(np.std([float(item[k]) for item in items])) for k in keys}


def write_outputs(out: Path, result: dict[str, Any], keys: list[Key]) -> None:
    """Write ``metrics.json``, ``per_target.csv`` and the system key of every seed."""
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / METRICS_FILE, result)
    frame = pd.DataFrame.from_dict(result["per_target"], orient="index")
    frame.index.name = "target"
    frame.to_csv(out / "per_target.csv")
    for seed, key in enumerate(keys):
        write_key(key, out / f"system.seed{seed}.key")


def format_table(result: dict[str, Any]) -> str:
    """A plain-text table: metric, mean ± std over seeds, and the trivial baselines beside it."""
    metrics = list(result["overall"])
    baselines = [b for b in BASELINES if b in result.get("baselines", {})]
    header = ["metric", f"system (mean ± std, {len(result.get('seeds', [])) or 1} seed(s))", *baselines]
    rows = []
    for metric in metrics:
        mean = result["overall"][metric]
        std = result.get("overall_std", {}).get(metric, 0.0)
        row = [metric, f"{100 * mean:.2f} ± {100 * std:.2f}" if _is_score(metric) else f"{mean:g}"]
        for name in baselines:
            value = result["baselines"][name].get(metric, math.nan)
            row.append(f"{100 * value:.2f}" if _is_score(metric) else f"{value:g}")
        rows.append(row)
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(w) for cell, w in zip(r, widths, strict=True)) for r in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _is_score(metric: str) -> bool:
    return not metric.startswith("n_")
