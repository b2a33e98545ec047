"""The results document (``metrics.json``) of every command that scores senses, and its tables.

``wsd evaluate``, ``wsd run --gold`` (and ``wsd demo``) and ``wsd score`` all build their scores with
:func:`metrics_document`, so the document has the same top-level keys everywhere:

=================  ======================================================================================
``dataset``        the metric family (``semeval2013``, ``semeval2010``, ``russe2018``, ``generic``)
``config``         what was run (the command's resolved configuration)
``n_instances``    labelled occurrences scored; ``n_targets``: their target words
``overall``        mean over seeds of each score; ``overall_std``: their standard deviation
``per_target``     mean over seeds of each score of each target
``subsets``        mean over seeds of the scores of named subsets of the instances (may be empty)
``seeds``          the overall scores of each seed
``baselines``      the overall scores of the trivial baselines (:mod:`wsd.evaluate.scoring`)
``versions``       Python and library versions
=================  ======================================================================================

and, where they apply, ``embedding`` (the vectors' metadata), ``dataset_stats`` (what the dataset reader
counted), ``gold_change`` (WUG: the gold change column used, and the words without a gold value) and
``training_overlap`` (a model tuned by ``wsd tune``: the evaluated lemmas it was trained or validated on,
possibly none; :func:`wsd.tune.card.training_overlap`) and ``usage_pairs`` (WUG: how the cosines of judged use
pairs follow the human judgments, :mod:`wsd.workflows.usage_pairs`).

>>> document = metrics_document("generic", {}, [{"overall": {"ari": 0.5}, "per_target": {}}], {}, 10, 2)
>>> list(document)[:4]
['dataset', 'config', 'n_instances', 'n_targets']
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.evaluate.keys import Key, write_key
from wsd.evaluate.metrics.usage_pairs import usage_pair_lines
from wsd.evaluate.scoring import BASELINES, score_keys
from wsd.io.atomic import atomic_write
from wsd.io.layout import METRICS_FILE, PAIRS_FILE, PER_TARGET_FILE, system_key_name
from wsd.io.provenance import library_versions
from wsd.io.writers import write_json

REQUIRED_KEYS = (
    "dataset",
    "config",
    "n_instances",
    "n_targets",
    "overall",
    "overall_std",
    "per_target",
    "subsets",
    "seeds",
    "baselines",
    "versions",
)
OPTIONAL_KEYS = ("embedding", "dataset_stats", "gold_change", "training_overlap")


def metrics_document(
    dataset: str,
    config: Mapping[str, Any],
    per_seed: Sequence[Mapping[str, Any]],
    baselines: Mapping[str, Mapping[str, Any]],
    n_instances: int,
    n_targets: int,
    *,
    embedding: Mapping[str, Any] | None = None,
    dataset_stats: Mapping[str, Any] | None = None,
    gold_change: Mapping[str, Any] | None = None,
    training_overlap: Sequence[str] | None = None,
    usage_pairs: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``metrics.json`` document of a scored command (see the module docstring for its keys).

    Parameters
    ----------
    dataset : str
        The metric family.
    config : mapping
        The command's resolved configuration.
    per_seed : sequence of dict
        :func:`wsd.evaluate.scoring.score_keys` results, one per seed.
    baselines : mapping
        Overall scores of each trivial baseline (:func:`baseline_scores`).
    n_instances, n_targets : int
        Labelled occurrences scored and their target words.
    embedding : mapping, optional
        The vectors' metadata, when the command embedded them.
    dataset_stats : mapping, optional
        What the dataset reader counted, when a dataset was read.
    gold_change : mapping, optional
        The gold change scored against (WUG: :meth:`wsd.evaluate.change_gold.ChangeGold.to_dict`).
    training_overlap : sequence of str, optional
        The evaluated lemmas a wsd-tuned model was trained on (None: the model was not tuned by wsd).
    usage_pairs : mapping, optional
        WUG: how the vectors follow the usage-pair judgments (:func:`wsd.workflows.usage_pairs.usage_pair_agreement`).

    Returns
    -------
    dict
        The document, keys in a fixed order.
    """
    document: dict[str, Any] = {"dataset": dataset, "config": dict(config)}
    if embedding is not None:
        document["embedding"] = dict(embedding)
    document |= {"n_instances": int(n_instances), "n_targets": int(n_targets), **summarise(per_seed)}
    document["baselines"] = {name: dict(scores) for name, scores in baselines.items()}
    if dataset_stats is not None:
        document["dataset_stats"] = dict(dataset_stats)
    if gold_change is not None:
        document["gold_change"] = dict(gold_change)
    if training_overlap is not None:
        document["training_overlap"] = list(training_overlap)
    if usage_pairs is not None:
        document["usage_pairs"] = dict(usage_pairs)
    document["versions"] = library_versions()
    return document


def baseline_scores(
    dataset: str,
    gold: Key,
    keys: Mapping[str, Sequence[Key]],
    subsets: Mapping[str, frozenset[str]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Overall scores of each trivial baseline, the mean over its keys (one per seed for ``random``).

    Parameters
    ----------
    dataset : str
        The metric family.
    gold : Key
        The gold key.
    keys : mapping
        Baseline name → its keys (:func:`wsd.evaluate.scoring.baseline_keys`).
    subsets : mapping, optional
        Named subsets of instance ids (scored apart).

    Returns
    -------
    dict
        Baseline name → overall scores.
    """
    return {
        name: summarise([score_keys(dataset, gold, key, subsets) for key in seeded])["overall"]
        for name, seeded in keys.items()
    }


def summarise(per_seed: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Mean (and std) over seeds of ``overall``, ``per_target`` and ``subsets`` score dictionaries.

    Parameters
    ----------
    per_seed : sequence of dict
        :func:`wsd.evaluate.scoring.score_keys` results, one per seed.

    Returns
    -------
    dict
        ``overall``, ``overall_std``, ``per_target``, ``subsets``, ``seeds``.
    """
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


def seed_line(seed: int, scores: Mapping[str, Any]) -> str:
    """The line an evaluation logs for one seed: its overall scores.

    Parameters
    ----------
    seed : int
        The seed.
    scores : dict
        The seed's scores (:func:`wsd.evaluate.scoring.score_keys`), with ``overall``.

    Returns
    -------
    str

    Examples
    --------
    >>> seed_line(0, {"overall": {"ari": 0.5, "nmi": 0.25}})
    'seed 0: ari 0.5000, nmi 0.2500'
    """
    return f"seed {seed}: " + ", ".join(f"{m} {v:.4f}" for m, v in scores["overall"].items())


def write_metrics(
    out: str | Path,
    document: Mapping[str, Any],
    keys: Sequence[Key] = (),
    pair_table: pd.DataFrame | None = None,
) -> Path:
    """Write ``metrics.json``, ``per_target.csv``, the system key of every seed (and ``pairs.csv``) into ``out``.

    Parameters
    ----------
    out : path
        The output folder (created when missing).
    document : mapping
        A :func:`metrics_document`.
    keys : sequence of Key
        The system key of each seed (none: no key files).
    pair_table : DataFrame, optional
        One row per scored use pair (``wsd evaluate --dataset wic``: :func:`wsd.workflows.wic.pair_table`),
        written as ``pairs.csv``.

    Returns
    -------
    Path
        The ``metrics.json`` file.
    """
    folder = Path(out)
    # metrics.json last: a failure on the way leaves no scores that the other files do not back
    if pair_table is not None:
        atomic_write(folder / PAIRS_FILE, lambda tmp: pair_table.to_csv(tmp, index=False))
    for seed, key in enumerate(keys):
        atomic_write(folder / system_key_name(seed), functools.partial(write_key, key))
    frame = pd.DataFrame.from_dict(document["per_target"], orient="index")
    frame.index.name = "target"
    atomic_write(folder / PER_TARGET_FILE, frame.to_csv)
    write_json(folder / METRICS_FILE, dict(document))
    return folder / METRICS_FILE


def format_table(result: Mapping[str, Any]) -> str:
    """A plain-text table: metric, mean ± std over seeds (the score alone for one key), and the baselines beside it.

    Parameters
    ----------
    result : mapping
        A :func:`metrics_document`.

    Returns
    -------
    str
    """
    metrics = list(result["overall"])
    baselines = [b for b in BASELINES if b in result.get("baselines", {})]
    n_seeds = len(result.get("seeds", []))
    header = ["metric", f"system (mean ± std, {n_seeds} seeds)" if n_seeds > 1 else "system", *baselines]
    rows = []
    for metric in metrics:
        mean = result["overall"][metric]
        std = result.get("overall_std", {}).get(metric, 0.0)
        shown = f"{100 * mean:.2f} ± {100 * std:.2f}" if n_seeds > 1 else f"{100 * mean:.2f}"
        row = [metric, shown if _is_score(metric) else f"{mean:g}"]
        for name in baselines:
            value = result["baselines"][name].get(metric)
            if value is None:  # undefined for this baseline (e.g. Spearman of a constant score)
                row.append("-")
                continue
            row.append(f"{100 * value:.2f}" if _is_score(metric) else f"{value:g}")
        rows.append(row)
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(w) for cell, w in zip(r, widths, strict=True)) for r in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines + gold_change_lines(result.get("gold_change")) + usage_pair_lines(result.get("usage_pairs")))


def gold_change_lines(gold: Mapping[str, Any] | None) -> list[str]:
    """The lines under a table that name the gold change scored against and the words without a value.

    Parameters
    ----------
    gold : mapping, optional
        ``metrics.json``'s ``gold_change`` (None: no lines).

    Returns
    -------
    list of str

    Examples
    --------
    >>> gold_change_lines({"file": "s.csv", "graded": {"column": "change_graded", "words": 3, "without": {}},
    ...                    "binary": {"column": None, "words": 0, "without": {}, "reason": "no column"}})
    ['graded gold: change_graded of 3 words (s.csv)', 'binary gold: none (no column)']
    """
    if not gold:
        return []
    lines = []
    for kind in ("graded", "binary"):
        entry = gold.get(kind, {})
        if "reason" in entry:
            lines.append(f"{kind} gold: none ({entry['reason']})")
            continue
        without = entry.get("without", {})
        line = f"{kind} gold: {entry.get('column')} of {entry.get('words')} words ({gold.get('file')})"
        if without:
            shown = ", ".join(f"{t}: {r}" for t, r in list(without.items())[:3]) + (", ..." if len(without) > 3 else "")
            line += f"; {len(without)} without a value, left out: {shown}"
        lines.append(line)
    return lines


def _is_score(metric: str) -> bool:
    return not metric.startswith("n_")


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool)


def _mean_dicts(items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    keys = [k for k, v in items[0].items() if _numeric(v)]
    return {k: float(np.mean([float(item[k]) for item in items])) for k in keys}


def _std_dicts(items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    keys = [k for k, v in items[0].items() if _numeric(v)]
    return {k: float(np.std([float(item[k]) for item in items])) for k in keys}
