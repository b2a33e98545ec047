"""Benchmarking on a labelled dataset: dataset → vectors → senses → official scores, over seeds, with baselines.

>>> from wsd.config import build_evaluation_config
>>> config = build_evaluation_config(dataset="semeval2013", data="../shared/datasets", seeds=5)  # doctest: +SKIP
>>> result = evaluate(config, out="runs/eval")                                                   # doctest: +SKIP
>>> result["overall"]["avg"]                                                                     # doctest: +SKIP

``out`` receives ``metrics.json`` (:mod:`wsd.workflows.results`), ``per_target.csv``, one system key file per seed
(``system.seed<N>.key``), ``run/`` (the occurrences with their gold ``sense`` and the vectors, readable with
:func:`wsd.load_run`) and ``senses/`` (the senses induced with seed 0: labels, descriptions, sense model), the
layout (:mod:`wsd.io.layout`) that ``wsd report`` reads.

``dataset="wug"`` (diachronic Word Usage Graphs) is scored on senses *and* change: :mod:`wsd.workflows.wug`;
``dataset="wic"`` (WiC, MCL-WiC, AM2iCo use pairs) on the vectors alone: :mod:`wsd.workflows.wic`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.config import EvaluationConfig
from wsd.embed.encoder import Encoder
from wsd.errors import InputError
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.keys import Key, key_from_labels, key_from_memberships, key_from_occurrences
from wsd.evaluate.scoring import baseline_keys, score_keys
from wsd.executors import MapFunction
from wsd.io.layout import RUN_DIR, SENSES_DIR
from wsd.io.outputs import check_disjoint, claim_folder, in_session
from wsd.io.run_store import write_run
from wsd.senses.inducer import SenseInducer
from wsd.senses.stage import fit_senses, write_senses
from wsd.workflows.results import baseline_scores, metrics_document, seed_line, write_metrics
from wsd.workflows.vectors import embed_labelled, evaluated_targets, tuned_overlap
from wsd.workflows.wic import evaluate_wic
from wsd.workflows.wug import evaluate_wug


def system_key(
    occurrences: pd.DataFrame,
    labels: np.ndarray,
    proba: np.ndarray,
    graded: bool,
    min_weight: float = 0.0,
    top: int | None = None,
) -> Key:
    """The system key of induced senses: hard labels, or graded memberships when ``graded``.

    Parameters
    ----------
    occurrences : DataFrame
        The scored occurrences (``target``, ``id``).
    labels : ndarray of int
        Hard sense of each occurrence.
    proba : ndarray
        Soft memberships of each occurrence.
    graded : bool
        Write the memberships instead of the labels.
    min_weight, top
        Memberships below ``min_weight`` are dropped; at most ``top`` senses per instance.

    Returns
    -------
    Key
    """
    if graded:
        return key_from_memberships(occurrences["target"], occurrences["id"], proba, min_weight=min_weight, top=top)
    return key_from_labels(occurrences["target"], occurrences["id"], labels)


def load_labelled(config: EvaluationConfig) -> tuple[Any, pd.DataFrame]:
    """The dataset bundle and its labelled occurrences (rows with a gold sense).

    Parameters
    ----------
    config : EvaluationConfig
        Names the dataset, its folder, its options and the targets to keep.

    Returns
    -------
    (bundle, DataFrame)
    """
    if config.data is None:
        raise InputError(f"--data is required for dataset {config.dataset!r} (the dataset folder or file)")
    bundle = load_dataset(config.dataset, config.data, **config.dataset_options)
    occurrences = evaluated_targets(bundle.occurrences, config, config.dataset)
    if "sense" not in occurrences.columns:
        raise InputError(f"{config.data}: the {config.dataset} data has no gold sense labels to evaluate against")
    labelled = occurrences[occurrences["sense"].astype(str).str.strip() != ""].reset_index(drop=True)
    if labelled.empty:
        raise InputError(f"{config.data}: no labelled occurrences")
    return bundle, labelled


#: Settings of an evaluation that do not change its results (ignored when an output folder is reused).
UNSCORED_SETTINGS = ("cache_dir",)


def _scored_settings(config: Any) -> Any:
    """An evaluation's configuration without the settings that do not change its results."""
    if not isinstance(config, dict):
        return config
    settings = {key: value for key, value in config.items() if key not in UNSCORED_SETTINGS}
    # the same file however it was named: data/demo/x.tsv, its absolute path (config.toml), a link's target
    if isinstance(settings.get("data"), str):
        settings["data"] = str(Path(settings["data"]).resolve())
    options = settings.get("dataset_options")
    for name in ("key", "dev"):
        if isinstance(options, dict) and isinstance(options.get(name), str):
            options = {**options, name: str(Path(options[name]).resolve())}
            settings["dataset_options"] = options
    return settings


@in_session
def evaluate(
    config: EvaluationConfig,
    out: str | os.PathLike[str] | None = None,
    encoder: Encoder | None = None,
    vectors: np.ndarray | None = None,
    map_function: MapFunction | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    overwrite: bool = False,
    offline: bool | None = None,
) -> dict[str, Any]:
    """Embed, induce senses and score one configuration over ``config.seeds`` seeds; return ``metrics.json``.

    Parameters
    ----------
    config : EvaluationConfig
        Dataset, encoder, sense parameters, output format, seeds.
    out : path, optional
        Output folder (see the module docstring); nothing is written without it.
    encoder : Encoder, optional
        An already loaded encoder (default: one made from ``config.embedding``).
    vectors : ndarray, optional
        Vectors row-aligned with the labelled occurrences; skips embedding (e.g. when an experiment has
        computed several layer settings in one pass).
    map_function : MapFunction, optional
        Runs the per-target fits (an :class:`wsd.executors.Executor`); default: here, one after another.
    progress : bool
        Show progress bars.
    log : callable, optional
        Receives one line per seed.
    overwrite : bool
        Replace the files of an evaluation of another configuration in ``out``, or write into a folder of
        other files (which are left alone); without it such an ``out`` is refused (:mod:`wsd.io.outputs`).
    offline : bool, optional
        Never touch the network when loading the encoder (None: ``config.embedding.offline``).

    Returns
    -------
    dict
        The ``metrics.json`` document (:func:`wsd.workflows.results.metrics_document`).
    """
    if out is not None:  # before any work: a refused destination costs nothing
        check_disjoint(out, {"--data": config.data, "--dev": config.dataset_options.get("dev")})
        claim_folder(
            out,
            "output",
            config=_scored_settings(config.to_dict()),
            settings=lambda meta: _scored_settings(meta.get("config")),
            overwrite=overwrite,
        )
    if config.dataset == "wic":
        return evaluate_wic(config, out, encoder, progress, offline)
    if config.dataset == "wug":
        return evaluate_wug(config, out, encoder, vectors, map_function, progress, log, offline)
    bundle, occurrences = load_labelled(config)
    gold = key_from_occurrences(occurrences, where=f"{config.dataset} gold")
    X, embedding_meta = embed_labelled(config, occurrences, encoder, vectors, progress, offline)
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
            log(seed_line(seed, per_seed[-1]))
    document = metrics_document(
        config.dataset,
        config.to_dict(),
        per_seed,
        baseline_scores(config.dataset, gold, baseline_keys(occurrences, config.seeds), bundle.subsets),
        n_instances=len(occurrences),
        n_targets=int(occurrences["target"].nunique()),
        embedding=embedding_meta,
        dataset_stats=bundle.stats,
        training_overlap=tuned_overlap(config, encoder, occurrences),
    )
    if out is not None:
        folder = Path(out)
        write_metrics(folder, document, keys)
        write_run(
            folder / RUN_DIR,
            occurrences,
            X,
            {"config": {"dataset": config.dataset, "data": config.data}, "embedding": embedding_meta},
        )
        if first_model is not None:
            claim_folder(folder / SENSES_DIR, "senses", overwrite=overwrite)
            write_senses(folder / SENSES_DIR, occurrences, X, first_model[0], first_model[1], {"seed": 0})
    return document
