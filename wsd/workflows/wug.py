"""Scoring on diachronic Word Usage Graphs (``wsd evaluate --dataset wug``): senses and change against the gold.

``dataset="wug"`` (diachronic Word Usage Graphs, :mod:`wsd.evaluate.datasets.wug`) is scored on senses *and*
change: every use is embedded and clustered (noise uses too), ``ari``/``nmi`` are computed on the uses with a
gold cluster (cluster −1 left out; only where the dataset has clusters), and each word's change between its
two periods (:func:`wsd.change.compare_slices` on the ``grouping`` column) is scored against the gold:
``graded_spearman`` (the default change score, :data:`wsd.schema.DEFAULT_MEASURE`, against ``change_graded``,
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
from wsd.embed.encoder import Encoder
from wsd.errors import InputError
from wsd.evaluate.change_gold import NO_STATS, ChangeGold, change_gold
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.datasets.wug import PERIOD_COLUMN
from wsd.evaluate.keys import Key, key_from_labels, key_from_occurrences
from wsd.evaluate.metrics.change import binary_scores, spearman
from wsd.evaluate.scoring import score_keys
from wsd.executors import MapFunction
from wsd.io.atomic import atomic_write
from wsd.io.layout import CHANGE_CSV, CHANGE_DIR, RUN_DIR, SENSES_DIR
from wsd.io.run_store import write_run
from wsd.senses.inducer import SenseInducer
from wsd.senses.stage import fit_senses, senses_per_target, write_senses
from wsd.workflows.results import metrics_document, seed_line, summarise, write_metrics
from wsd.workflows.usage_pairs import usage_pair_agreement
from wsd.workflows.vectors import embed_labelled, evaluated_targets, tuned_overlap


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
    return bundle, evaluated_targets(bundle.occurrences, config, "WUG")


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
    from wsd.schema import DEFAULT_BINARY_K, DEFAULT_BINARY_N

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
    notes = change_gold(gold_change, table["target"]).notes()  # empty where every word has its gold
    table["gold_missing"] = [notes.get(target, "") for target in table["target"]]  # one row per word: text, never NaN
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


def evaluate_wug(
    config: EvaluationConfig,
    out: str | os.PathLike[str] | None,
    encoder: Encoder | None,
    vectors: np.ndarray | None,
    map_function: MapFunction | None,
    progress: bool,
    log: Callable[[str], None] | None,
    offline: bool | None,
) -> dict[str, Any]:
    """:func:`wsd.workflows.benchmark.evaluate` for WUG data: senses on the clustered uses, change against the gold.

    Called by :func:`wsd.workflows.benchmark.evaluate` once the output folder is claimed.

    Parameters
    ----------
    config : EvaluationConfig
        Dataset folder, encoder, sense parameters, seeds, the change measure and binary rule.
    out : path, optional
        Output folder (see the module docstring); nothing is written without it.
    encoder, vectors, map_function, progress, log, offline
        As :func:`wsd.workflows.benchmark.evaluate`, which passes them on (``vectors`` row-aligned with the uses).

    Returns
    -------
    dict
        The ``metrics.json`` document.
    """
    bundle, occurrences = load_wug(config)
    data = config.data
    assert data is not None  # load_wug refused a missing --data
    clustered = (  # the uses with a gold cluster
        occurrences["sense"].astype(str).str.strip().ne("").to_numpy()
        if "sense" in occurrences
        else np.zeros(len(occurrences), dtype=bool)
    )
    has_clusters = bool(clustered.any())
    gold = key_from_occurrences(occurrences[clustered], where="WUG gold clusters") if has_clusters else None
    gold_change = change_gold(bundle.gold_change, occurrences["target"])
    if not has_clusters and gold_change.graded.empty and gold_change.binary.empty:
        why = gold_change.reasons.get("graded", NO_STATS)
        raise InputError(f"{config.data}: neither gold clusters nor gold change scores ({why}): nothing to evaluate")
    _warn_without_gold(gold_change, int(occurrences["target"].nunique()))
    X, embedding_meta = embed_labelled(config, occurrences, encoder, vectors, progress, offline)
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
            log(seed_line(seed, scores))
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
        training_overlap=tuned_overlap(config, encoder, occurrences),
        usage_pairs=usage_pair_agreement(data, occurrences, X, senses=config.senses),
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
