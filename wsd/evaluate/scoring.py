"""Scoring a system key against a dataset's gold with that dataset's official metrics, and the trivial baselines.

=============  ==========================================================  =====================================
dataset        metrics (fractions in [0, 1])                                aggregation over words
=============  ==========================================================  =====================================
semeval2013    fnmi, fbc_p, fbc_r, fbc_f, avg = sqrt(fnmi·fbc_f)             official scorer (unweighted)
semeval2010    paired_f, v_measure, avg = sqrt(paired_f·v_measure),          weighted by instances
               supervised_recall (80/20, 5 seeded splits), ...
russe2018      ari, nmi                                                     weighted by contexts
generic        ari, nmi, v_measure, paired_f, bcubed_f, purity, fnmi, fbc_f  weighted by instances (fuzzy: as 2013)
wug            ari, nmi (uses with a gold cluster; change: wsd.workflows.benchmark)     weighted by clustered uses
=============  ==========================================================  =====================================

The baselines are the reference points of every table: ``one-sense`` (all occurrences of a word in one
sense; SemEval's MFS / one-cluster-per-word), ``one-per-instance`` (each occurrence its own sense) and
``random`` (each occurrence one of 3 senses at random, seeded).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.evaluate.keys import Key, key_from_labels
from wsd.evaluate.metrics import score_generic, score_russe, score_semeval2010, score_semeval2013

BASELINES = ("one-sense", "one-per-instance", "random")
RANDOM_BASELINE_SENSES = 3
SCORERS = {
    "semeval2013": score_semeval2013,
    "semeval2010": score_semeval2010,
    "russe2018": score_russe,
    "generic": score_generic,
    "wug": score_russe,  # ARI and NMI per word, weighted by its clustered uses
}


def scorer_for(dataset: str):
    """The scoring function of a dataset name (``generic`` for anything else that is labelled).

    Parameters
    ----------
    dataset : str
        One of ``SCORERS``: ``semeval2013``, ``semeval2010``, ``russe2018``, ``generic`` or ``wug``.

    Returns
    -------
    callable
        ``scorer(gold, system) -> {"overall": {...}, "per_target": {...}, ...}``.

    Raises
    ------
    ConfigError
        For an unknown dataset name.
    """
    if dataset not in SCORERS:
        raise ConfigError(f"unknown dataset {dataset!r} (choose one of {', '.join(SCORERS)})")
    return SCORERS[dataset]


def restrict_key(key: Key, ids: frozenset[str] | set[str]) -> Key:
    """The part of ``key`` whose instance ids are in ``ids`` (targets left empty are dropped).

    Parameters
    ----------
    key : Key
        target -> instance id -> sense -> weight.
    ids : set of str
        The instance ids to keep.

    Returns
    -------
    Key
        A new key with the kept instances (the sense dicts are shared, not copied).
    """
    restricted: Key = {}
    for target, instances in key.items():
        kept = {i: s for i, s in instances.items() if i in ids}
        if kept:
            restricted[target] = kept
    return restricted


def score_keys(dataset: str, gold: Key, system: Key, subsets: Mapping[str, frozenset[str]] | None = None) -> dict:
    """``{"overall", "per_target", "subsets": {name: overall}}`` for a system key against the gold.

    Parameters
    ----------
    dataset : str
        The dataset name that chooses the metrics (:func:`scorer_for`).
    gold, system : Key
        target -> instance id -> sense -> weight.
    subsets : mapping of str to set of str, optional
        Named subsets of instance ids (``nouns``, ``verbs``, ...) scored apart; a subset that covers
        every gold instance, or none, is left out.

    Returns
    -------
    dict
        ``overall`` and ``per_target`` as the dataset's scorer gives them, and ``subsets``: name ->
        overall scores of that subset.

    Raises
    ------
    ConfigError
        For an unknown dataset name.
    InputError
        For a gold key without instances (a system key that answers none of them gives a warning).

    Examples
    --------
    >>> gold = {"w.n": {"1": {"a": 1.0}, "2": {"b": 1.0}}}
    >>> score_keys("generic", gold, {"w.n": {"1": {"x": 1.0}, "2": {"y": 1.0}}})["overall"]["ari"]
    1.0
    """
    scorer = scorer_for(dataset)
    gold_ids = {instance for instances in gold.values() for instance in instances}
    if not gold_ids:
        raise InputError("the gold key has no instance: nothing to score against")
    if not any(instance in gold_ids for instances in system.values() for instance in instances):
        warnings.warn(
            f"the system key answers none of the {len(gold_ids)} gold instances (it is empty, or its targets and "
            "instance ids are not those of the gold key); every score is that of a system that answers nothing",
            stacklevel=2,
        )
    result = scorer(gold, system)
    scores = {"overall": result["overall"], "per_target": result["per_target"], "subsets": {}}
    for name, ids in (subsets or {}).items():
        part = restrict_key(gold, ids)
        if part and len(ids) < sum(len(v) for v in gold.values()):
            scores["subsets"][name] = scorer(part, restrict_key(system, ids))["overall"]
    return scores


def baseline_keys(occurrences: pd.DataFrame, seeds: int = 1) -> dict[str, list[Key]]:
    """The trivial baselines' keys for an occurrence table (one key, or one per seed for ``random``).

    Parameters
    ----------
    occurrences : pandas.DataFrame
        A table with ``target`` and ``id`` columns.
    seeds : int
        Number of ``random`` keys (seeds 0, 1, ...).

    Returns
    -------
    dict of str to list of Key
        ``one-sense`` and ``one-per-instance`` (one key each) and ``random`` (``seeds`` keys, each
        occurrence one of 3 senses).
    """
    targets, ids = occurrences["target"], occurrences["id"]
    one_sense = key_from_labels(targets, ids, np.zeros(len(occurrences), dtype=np.int64))
    per_instance = key_from_labels(targets, ids, np.arange(len(occurrences)))
    random_keys = []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        random_keys.append(key_from_labels(targets, ids, rng.integers(0, RANDOM_BASELINE_SENSES, len(occurrences))))
    return {"one-sense": [one_sense], "one-per-instance": [per_instance], "random": random_keys}


def baseline_keys_from_gold(gold: Key, seeds: int = 1) -> dict[str, list[Key]]:
    """The trivial baselines' keys for the instances of a gold key (used when scoring key files).

    Parameters
    ----------
    gold : Key
        The gold key whose targets and instance ids the baselines label.
    seeds : int
        Number of ``random`` keys.

    Returns
    -------
    dict of str to list of Key
        As :func:`baseline_keys`.
    """
    targets = [t for t, instances in gold.items() for _ in instances]
    ids = [i for instances in gold.values() for i in instances]
    return baseline_keys(pd.DataFrame({"target": targets, "id": ids}), seeds)
