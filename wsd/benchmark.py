"""Benchmarking on a labelled dataset: dataset → vectors → senses → official scores, over seeds, with baselines.

>>> from wsd.config import build_evaluation_config
>>> config = build_evaluation_config(dataset="semeval2013", data="../shared/datasets", seeds=5)  # doctest: +SKIP
>>> result = evaluate(config, out="runs/eval")                                                   # doctest: +SKIP
>>> result["overall"]["avg"]                                                                     # doctest: +SKIP

``out`` receives ``metrics.json`` (:mod:`wsd.results`), ``per_target.csv``, one system key file per seed
(``system.seed<N>.key``), ``run/`` (the occurrences with their gold ``sense`` and the vectors, readable with
:func:`wsd.load_run`) and ``senses/`` (the senses induced with seed 0: labels, descriptions, sense model), the
layout (:mod:`wsd.layout`) that ``wsd report`` reads.

``dataset="wug"`` (diachronic Word Usage Graphs, :mod:`wsd.evaluate.datasets.wug`) is scored on senses *and*
change: every use is embedded and clustered (noise uses too), ``ari``/``nmi`` are computed on the uses with a
gold cluster (cluster −1 left out; only where the dataset has clusters), and each word's change between its
two periods (:func:`wsd.change.compare_slices` on the ``grouping`` column) is scored against the gold:
``graded_spearman`` (the default change score, :data:`wsd.change.DEFAULT_MEASURE`, against ``change_graded``,
or against −``COMPARE`` where the stats file has no ``change_graded`` column), ``graded_spearman_jsd|_apd|_prt``
for every measure, and ``binary_accuracy``/``binary_f1`` against ``change_binary`` where given (the rule's k/n
from the stats file, else the configuration). The gold used is named in ``metrics.json`` (``gold_change``:
the file, the column of each gold, the words scored, and every word without a gold value with its reason; a
score that cannot be computed has its reason there) and a warning says when words are left out.
``out`` also receives ``change.csv`` (every word's scores beside its gold, ``gold_missing`` saying why a gold
value is absent) and ``change/`` (the change folder of seed 0's senses, :mod:`wsd.change.stage`, which
``wsd report`` shows).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.change import compare_slices
from wsd.change.stage import sense_cards, write_change
from wsd.config import EvaluationConfig
from wsd.embed.cache import embed_cached
from wsd.embed.encoder import Encoder
from wsd.errors import InputError
from wsd.evaluate.change_gold import NO_STATS, ChangeGold, change_gold
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.datasets.wug import PERIOD_COLUMN
from wsd.evaluate.keys import Key, key_from_labels, key_from_memberships, key_from_occurrences
from wsd.evaluate.metrics.change import binary_scores, spearman
from wsd.evaluate.scoring import baseline_keys, score_keys
from wsd.executors import MapFunction
from wsd.layout import CHANGE_CSV, CHANGE_DIR, RUN_DIR, SENSES_DIR
from wsd.outputs import check_disjoint, claim_folder, in_session
from wsd.results import baseline_scores, metrics_document, summarise, write_metrics
from wsd.senses.inducer import SenseInducer
from wsd.senses.stage import fit_senses, senses_per_target, write_senses
from wsd.store import atomic_write, write_run


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
    if isinstance(options, dict) and isinstance(options.get("key"), str):
        settings["dataset_options"] = {**options, "key": str(Path(options["key"]).resolve())}
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
        other files (which are left alone); without it such an ``out`` is refused (:mod:`wsd.outputs`).
    offline : bool, optional
        Never touch the network when loading the encoder (None: ``config.embedding.offline``).

    Returns
    -------
    dict
        The ``metrics.json`` document (:func:`wsd.results.metrics_document`).
    """
    if out is not None:  # before any work: a refused destination costs nothing
        check_disjoint(out, {"--data": config.data})
        claim_folder(
            out,
            "output",
            config=_scored_settings(config.to_dict()),
            settings=lambda meta: _scored_settings(meta.get("config")),
            overwrite=overwrite,
        )
    if config.dataset == "wug":
        return _evaluate_wug(config, out, encoder, vectors, map_function, progress, log, offline)
    bundle, occurrences = load_labelled(config)
    gold = key_from_occurrences(occurrences, where=f"{config.dataset} gold")
    X, embedding_meta = _embed(config, occurrences, encoder, vectors, progress, offline)
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
    document = metrics_document(
        config.dataset,
        config.to_dict(),
        per_seed,
        baseline_scores(config.dataset, gold, baseline_keys(occurrences, config.seeds), bundle.subsets),
        n_instances=len(occurrences),
        n_targets=int(occurrences["target"].nunique()),
        embedding=embedding_meta,
        dataset_stats=bundle.stats,
        training_overlap=_overlap(config, encoder, occurrences),
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


def _embed(
    config: EvaluationConfig,
    occurrences: pd.DataFrame,
    encoder: Encoder | None,
    vectors: np.ndarray | None,
    progress: bool,
    offline: bool | None,
) -> tuple[np.ndarray, dict[str, Any] | None]:
    if vectors is None:
        if encoder is None:
            options = config.embedding if offline is None else config.embedding.replace(offline=offline)
            encoder = Encoder.from_options(options, progress=progress)
        (vectors,) = embed_cached(
            encoder,
            occurrences,
            [(config.embedding.layers, config.embedding.pooling)],
            cache_dir=config.cache_dir,
            progress=progress,
        )
    meta = encoder.identity(config.embedding.layers, config.embedding.pooling).embedding_meta() if encoder else None
    return np.asarray(vectors, dtype=np.float32), meta


def _overlap(config: EvaluationConfig, encoder: Encoder | None, occurrences: pd.DataFrame) -> list[str] | None:
    """The leakage guard: the evaluated targets a wsd-tuned model was trained on (None: not tuned by wsd)."""
    from wsd.tune.card import training_overlap

    model = encoder.loaded.name if encoder is not None else config.embedding.model
    return training_overlap(model, occurrences["target"].astype(str).unique())


def load_wug(config: EvaluationConfig) -> tuple[Any, pd.DataFrame]:
    """The WUG dataset bundle and all its uses (of ``config.targets`` when given), clustered or not.

    Parameters
    ----------
    config : EvaluationConfig
        Names the dataset folder and the targets to keep.

    Returns
    -------
    (bundle, DataFrame)
    """
    if config.data is None:
        raise InputError("--data is required for dataset 'wug' (the WUG dataset folder, e.g. .../lscd/dwug_en)")
    bundle = load_dataset("wug", config.data, **config.dataset_options)
    occurrences = bundle.occurrences
    if config.targets:
        unknown = sorted(set(config.targets) - set(occurrences["target"]))
        if unknown:
            raise InputError(f"{config.data}: no target(s) {', '.join(unknown)} in the WUG data")
        occurrences = occurrences[occurrences["target"].isin(config.targets)].reset_index(drop=True)
    return bundle, occurrences


def binary_rule(config: EvaluationConfig, gold_change: pd.DataFrame | None) -> tuple[int, int]:
    """The binary rule's ``(k, n)``: the configuration's where set, else the stats file's, else DWUG EN's (1, 5).

    Parameters
    ----------
    config : EvaluationConfig
        ``binary_k`` / ``binary_n`` (None: not set).
    gold_change : DataFrame, optional
        The gold change table (its ``k`` and ``n`` columns, where one value each).

    Returns
    -------
    (int, int)
    """
    from wsd.change import DEFAULT_BINARY_K, DEFAULT_BINARY_N

    found = {}
    for name in ("k", "n"):
        given = gold_change[name].dropna() if gold_change is not None and name in gold_change else None
        if given is not None and given.nunique() == 1:
            found[name] = int(given.iloc[0])
    k = config.binary_k if config.binary_k is not None else found.get("k", DEFAULT_BINARY_K)
    n = config.binary_n if config.binary_n is not None else found.get("n", DEFAULT_BINARY_N)
    return k, n


def change_metrics(
    ranking: pd.DataFrame, measures: list[str], measure: str, gold_change: pd.DataFrame | ChangeGold | None
) -> dict[str, float]:
    """Graded and binary change scores of a ranking table against the gold (scores left out where undefined).

    Only the words with a gold value are scored; which words lack one, and why, is in
    :func:`wsd.evaluate.change_gold.change_gold` (``metrics.json``'s ``gold_change``).

    Parameters
    ----------
    ranking : DataFrame
        :attr:`wsd.change.SliceComparison.ranking` (``target``, the measures, ``binary``).
    measures : list of str
        The measures in the table.
    measure : str
        The default change score (``graded_spearman``).
    gold_change : DataFrame or ChangeGold, optional
        The gold change table, or the gold already chosen from it.

    Returns
    -------
    dict
        ``graded_spearman``, ``graded_spearman_<measure>`` for each measure, ``binary_accuracy``,
        ``binary_f1``, as far as the gold and the system define them.

    Examples
    --------
    >>> ranking = pd.DataFrame({"target": ["a", "b"], "jsd": [0.1, 0.9], "binary": [False, True]})
    >>> gold = pd.DataFrame({"target": ["a", "b"], "change_graded": [0.0, 0.5], "change_binary": [0, 1]})
    >>> round(change_metrics(ranking, ["jsd"], "jsd", gold)["graded_spearman"], 6)
    1.0
    """
    scores: dict[str, float] = {}
    table = ranking.set_index("target")
    gold = gold_change if isinstance(gold_change, ChangeGold) else change_gold(gold_change, table.index)
    common = [t for t in table.index if t in gold.graded.index]
    for name in measures if common else []:
        rho = spearman(table.loc[common, name].to_numpy(), gold.graded.loc[common].to_numpy())
        if rho is not None:
            scores[f"graded_spearman_{name}"] = rho
    if f"graded_spearman_{measure}" in scores:
        scores["graded_spearman"] = scores[f"graded_spearman_{measure}"]
    common = [t for t in table.index if t in gold.binary.index]
    if common and "binary" in table:
        system = table.loc[common, "binary"].astype(int).to_numpy()
        scores |= binary_scores(system, gold.binary.loc[common].astype(int).to_numpy())
    return scores


def _change_of(
    occurrences: pd.DataFrame,
    labels: np.ndarray,
    X: np.ndarray | None,
    config: EvaluationConfig,
    rule: tuple[int, int],
) -> Any:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # every WUG word has both periods; a baseline key needs no warning
        return compare_slices(
            occurrences,
            labels=labels,
            X=X,
            by=PERIOD_COLUMN,
            measure=config.change_measure if X is not None else "jsd",
            binary_k=rule[0],
            binary_n=rule[1],
            min_uses=1,  # the gold scores every word with both periods; none is left out for its counts
        )


def _wug_seed(
    occurrences: pd.DataFrame,
    clustered: np.ndarray,
    gold: Key | None,
    labels: np.ndarray,
    X: np.ndarray | None,
    config: EvaluationConfig,
    bundle: Any,
    rule: tuple[int, int],
    gold_change: ChangeGold,
) -> tuple[dict[str, Any], Any]:
    """Scores of one labelling: ARI/NMI on the clustered uses, change against the gold."""
    per_target: dict[str, dict[str, float]] = {}
    overall: dict[str, float] = {}
    subsets: dict[str, Any] = {}
    if gold is not None:
        part = occurrences[clustered]
        key = key_from_labels(part["target"], part["id"], labels[clustered])
        scored = score_keys("wug", gold, key, bundle.subsets)
        overall |= {name: scored["overall"][name] for name in ("ari", "nmi")}
        per_target = {t: dict(v) for t, v in scored["per_target"].items()}
        subsets = scored["subsets"]
    comparison = _change_of(occurrences, labels, X, config, rule)
    overall |= change_metrics(comparison.ranking, comparison.measures, comparison.measure, gold_change)
    for row in comparison.ranking.itertuples():
        per_target.setdefault(row.target, {}).update({name: float(getattr(row, name)) for name in comparison.measures})
    overall["n_instances"] = int(clustered.sum()) if gold is not None else len(occurrences)
    return {"overall": overall, "per_target": per_target, "subsets": subsets}, comparison


def change_table(comparison: Any, gold_change: pd.DataFrame | None, n_senses: dict[str, int]) -> pd.DataFrame:
    """Per target: the periods compared, uses, senses, every change score and the decision, beside the gold.

    Every target compared has a row, with or without a gold value: ``gold_missing`` says why a gold value is
    absent (empty where both the graded and the binary gold are given).

    Parameters
    ----------
    comparison : SliceComparison
        The comparison of the two periods.
    gold_change : DataFrame, optional
        The gold change table.
    n_senses : dict
        Induced senses per target.

    Returns
    -------
    DataFrame
        ``target``, ``slice_a``, ``slice_b``, ``uses_a``, ``uses_b``, ``senses``, the measures, ``score``,
        ``binary``, the gold columns (``change_graded``, ``change_binary``, ``COMPARE``) where the stats file
        has them, and ``gold_missing``; sorted by ``score``, highest first.
    """
    ranking = comparison.ranking
    table = ranking[["target", "slice_a", "slice_b", "uses_a", "uses_b"]].copy()
    table["senses"] = table["target"].map(n_senses).fillna(0).astype(np.int64)
    for column in [*comparison.measures, "score", "binary"]:
        if column in ranking:
            table[column] = ranking[column].to_numpy()
    if gold_change is not None:
        gold_columns = [c for c in ("change_graded", "change_binary", "COMPARE") if c in gold_change]
        table = table.merge(gold_change[["target", *gold_columns]], on="target", how="left")
    table["gold_missing"] = table["target"].map(change_gold(gold_change, table["target"]).notes()).fillna("")
    return table


def _warn_without_gold(gold: ChangeGold, n_targets: int) -> None:
    """One warning per kind of gold that leaves words (or the whole score) out."""
    import warnings

    for kind, scores in (("graded", "graded_spearman"), ("binary", "binary_accuracy/binary_f1")):
        if kind in gold.reasons:
            warnings.warn(f"no {scores}: {gold.reasons[kind]}", stacklevel=3)
        elif gold.without[kind]:
            missing = gold.without[kind]
            more = ", ..." if len(missing) > 3 else ""
            shown = ", ".join(f"{t} ({r})" for t, r in list(missing.items())[:3]) + more
            warnings.warn(
                f"{len(missing)} of {n_targets} words have no {kind} gold and are left out of {scores}: {shown}",
                stacklevel=3,
            )


def _evaluate_wug(
    config: EvaluationConfig,
    out: str | os.PathLike[str] | None,
    encoder: Encoder | None,
    vectors: np.ndarray | None,
    map_function: MapFunction | None,
    progress: bool,
    log: Callable[[str], None] | None,
    offline: bool | None,
) -> dict[str, Any]:
    """:func:`evaluate` for WUG data: senses scored on the clustered uses, change against the gold change."""
    bundle, occurrences = load_wug(config)
    has_clusters = "sense" in occurrences and bool(occurrences["sense"].astype(str).str.strip().ne("").any())
    clustered = (
        occurrences["sense"].astype(str).str.strip().ne("").to_numpy()
        if has_clusters
        else np.zeros(len(occurrences), dtype=bool)
    )
    gold = key_from_occurrences(occurrences[clustered], where="WUG gold clusters") if has_clusters else None
    gold_change = change_gold(bundle.gold_change, occurrences["target"])
    if not has_clusters and gold_change.graded.empty and gold_change.binary.empty:
        why = gold_change.reasons.get("graded", NO_STATS)
        raise InputError(f"{config.data}: neither gold clusters nor gold change scores ({why}): nothing to evaluate")
    _warn_without_gold(gold_change, int(occurrences["target"].nunique()))
    X, embedding_meta = _embed(config, occurrences, encoder, vectors, progress, offline)
    rule = binary_rule(config, bundle.gold_change)
    per_seed: list[dict[str, Any]] = []
    first: tuple[Any, np.ndarray, Any] | None = None
    for seed in range(config.seeds):
        inducer = SenseInducer(**(config.senses | {"random_state": seed}))
        model, labels, proba = fit_senses(occurrences, X, inducer, embedding_meta, map_function)
        scores, comparison = _wug_seed(occurrences, clustered, gold, labels, X, config, bundle, rule, gold_change)
        per_seed.append(scores)
        if first is None:
            first = (model, proba, comparison)
        if log is not None:
            log(f"seed {seed}: " + ", ".join(f"{m} {v:.4f}" for m, v in scores["overall"].items()))
    baselines: dict[str, dict[str, Any]] = {}
    for name, keys in baseline_label_sets(occurrences, config.seeds).items():
        seeded = [
            _wug_seed(occurrences, clustered, gold, lab, None, config, bundle, rule, gold_change)[0] for lab in keys
        ]
        baselines[name] = summarise(seeded)["overall"]
    document = metrics_document(
        "wug",
        config.to_dict(),
        per_seed,
        baselines,
        n_instances=int(clustered.sum()) if has_clusters else len(occurrences),
        n_targets=int(occurrences["target"].nunique()),
        embedding=embedding_meta,
        dataset_stats=bundle.stats | {"binary_k": rule[0], "binary_n": rule[1]},
        gold_change=gold_change.to_dict(),
        training_overlap=_overlap(config, encoder, occurrences),
    )
    if out is not None and first is not None:
        folder = Path(out)
        model, proba, comparison = first
        table = change_table(comparison, bundle.gold_change, senses_per_target(model))
        atomic_write(folder / CHANGE_CSV, lambda tmp: table.to_csv(tmp, index=False))
        write_metrics(folder, document)
        write_run(
            folder / RUN_DIR,
            occurrences,
            X,
            {"config": {"dataset": config.dataset, "data": config.data}, "embedding": embedding_meta},
        )
        write_senses(folder / SENSES_DIR, occurrences, X, model, proba, {"seed": 0})
        settings = {"dataset": "wug", "data": config.data, "by": PERIOD_COLUMN, "seed": 0}
        write_change(folder / CHANGE_DIR, comparison, sense_cards(folder / SENSES_DIR), settings)
    return document


def baseline_label_sets(occurrences: pd.DataFrame, seeds: int = 1) -> dict[str, list[np.ndarray]]:
    """The trivial baselines as sense labels of every row (as :func:`wsd.evaluate.scoring.baseline_keys`).

    Parameters
    ----------
    occurrences : DataFrame
        The occurrences.
    seeds : int
        Number of ``random`` labellings (seeds 0, 1, ...).

    Returns
    -------
    dict
        ``one-sense`` (all 0), ``one-per-instance`` (0, 1, 2, ...) and ``random`` (one of 3 senses, seeded).
    """
    from wsd.evaluate.scoring import RANDOM_BASELINE_SENSES

    n = len(occurrences)
    return {
        "one-sense": [np.zeros(n, dtype=np.int64)],
        "one-per-instance": [np.arange(n, dtype=np.int64)],
        "random": [np.random.default_rng(seed).integers(0, RANDOM_BASELINE_SENSES, n) for seed in range(seeds)],
    }
