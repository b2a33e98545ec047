"""SemEval-2010 Task 14 metrics: paired F-score, V-measure and supervised recall, per word, nouns, verbs and all.

Unsupervised evaluation (Manandhar et al. 2010). Per target word, the system's clusters are compared
with the gold senses on the gold's instances (hard labels from :func:`~wsd.evaluate.metrics.clustering.key_labels`:
a graded answer counts as its highest-weighted cluster, gold instances without an answer share one
"unanswered" cluster, system instances that the gold lacks are ignored):

* **paired F-score** — precision and recall over instance pairs put together by the system / by the gold;
* **V-measure** — harmonic mean of homogeneity and completeness (Rosenberg & Hirschberg 2007).

Scores are averaged over words weighted by their number of gold instances ("all"), and over the nouns
(targets ending ``.n``) and verbs (``.v``) separately. ``avg`` is the geometric mean
``sqrt(paired_f * v_measure)`` used in later papers' tables (PolyLM: 67.5 / 43.6 → 54.3). With the
task's key these reproduce the published baselines: one cluster per word has paired F 63.4 / 57.0 /
72.8 (all / nouns / verbs), one cluster per instance V-measure 31.7 / 35.8 / 25.6.

Supervised evaluation (the mapping of Agirre & Soroa 2007, used by the 2010 task with an 80/20 split).
Per word, the gold instances are split at random into a mapping part (80%) and a test part (20%).
On the mapping part a cluster-to-sense matrix is estimated::

    M[c, s] = P(s | c) = Σ_{i in mapping} P(c | i) · P(s | i)  /  Σ_{i in mapping} P(c | i)

where ``P(c | i)`` is the instance's system weights divided by their sum (1 for a hard answer) and
``P(s | i)`` the gold weights divided by their sum (1 for a single gold sense). Each test instance is
labelled with the sense maximising ``Σ_c P(c | i) · M[c, s]`` (ties: the first sense in sorted order;
no sense when every score is 0, e.g. a cluster never seen in the mapping part or no answer). The
supervised recall is the share of test instances whose predicted sense is one of their gold senses
(unlabelled instances count as wrong). The official split files are lost, so we draw ``n_splits``
seeded random splits (default 5) and average: per word over the splits, and for all/nouns/verbs the
pooled recall of each split, averaged over splits. Words with fewer than 2 gold instances cannot be
split and are left out of the supervised recall.
"""

from __future__ import annotations

import math

import numpy as np

from wsd.errors import ConfigError
from wsd.evaluate.keys import Key
from wsd.evaluate.metrics.clustering import key_labels, paired_f, v_measure
from wsd.evaluate.metrics.means import N_INSTANCES, geometric_mean, instance_weighted, total_instances

NOUN_SUFFIX = ".n"
VERB_SUFFIX = ".v"
GROUPS: dict[str, str | None] = {"overall": None, "nouns": NOUN_SUFFIX, "verbs": VERB_SUFFIX}
AVERAGED = ("paired_f", "paired_p", "paired_r", "v_measure", "homogeneity", "completeness")


def _normalised_rows(instances: dict[str, dict[str, float]], ids: list[str], labels: list[str]) -> np.ndarray:
    """(len(ids), len(labels)) matrix of each instance's weights divided by their sum (zeros if none)."""
    index = {label: k for k, label in enumerate(labels)}
    matrix = np.zeros((len(ids), len(labels)), dtype=np.float64)
    for row, instance in enumerate(ids):
        for label, weight in instances.get(instance, {}).items():
            matrix[row, index[label]] += weight
    sums = matrix.sum(axis=1, keepdims=True)
    return np.divide(matrix, sums, out=np.zeros_like(matrix), where=sums > 0)


def map_clusters_to_senses(
    gold_instances: dict[str, dict[str, float]],
    system_instances: dict[str, dict[str, float]],
    mapping_ids: list[str],
    test_ids: list[str],
) -> dict[str, str | None]:
    """Label ``test_ids`` with gold senses through the cluster→sense matrix estimated on ``mapping_ids``.

    See the module docstring for the definition.

    Parameters
    ----------
    gold_instances : dict
        Instance id -> sense -> weight, the gold key of one target (every id of ``mapping_ids`` in it).
    system_instances : dict
        Instance id -> cluster -> weight, the system key of the same target (missing ids have no cluster).
    mapping_ids : list of str
        The instances the cluster→sense matrix is estimated on.
    test_ids : list of str
        The instances to label.

    Returns
    -------
    dict of str to str or None
        Test id -> predicted sense (``None`` when no sense scores above 0, or when the mapping part has no
        sense or there is no cluster).

    Examples
    --------
    >>> gold = {"i1": {"a": 1.0}, "i2": {"b": 1.0}, "i3": {"a": 1.0}, "i4": {"b": 1.0}}
    >>> system = {"i1": {"x": 1.0}, "i2": {"y": 1.0}, "i3": {"x": 1.0}, "i4": {"z": 1.0}}
    >>> map_clusters_to_senses(gold, system, ["i1", "i2"], ["i3", "i4"])
    {'i3': 'a', 'i4': None}
    """
    senses = sorted({s for i in mapping_ids for s in gold_instances[i]})
    clusters = sorted({c for i in (*mapping_ids, *test_ids) for c in system_instances.get(i, {})})
    if not senses or not clusters:
        return dict.fromkeys(test_ids)
    cluster_given_mapping = _normalised_rows(system_instances, mapping_ids, clusters)
    sense_given_mapping = _normalised_rows(gold_instances, mapping_ids, senses)
    joint = cluster_given_mapping.T @ sense_given_mapping  # (clusters, senses)
    totals = joint.sum(axis=1, keepdims=True)
    mapping = np.divide(joint, totals, out=np.zeros_like(joint), where=totals > 0)
    scores = _normalised_rows(system_instances, test_ids, clusters) @ mapping
    best = scores.argmax(axis=1)
    return {
        instance: (senses[best[row]] if scores[row, best[row]] > 0 else None) for row, instance in enumerate(test_ids)
    }


def _split(ids: list[str], test_fraction: float, rng: np.random.Generator) -> tuple[list[str], list[str]]:
    n = len(ids)
    n_test = min(max(round(n * test_fraction), 1), n - 1)
    order = rng.permutation(n)
    return [ids[k] for k in order[n_test:]], [ids[k] for k in order[:n_test]]


def supervised_recall(
    gold: Key,
    system: Key,
    test_fraction: float = 0.2,
    n_splits: int = 5,
    random_state: int | None = 0,
) -> dict:
    """Supervised recall with the Agirre & Soroa (2007) cluster→sense mapping (module docstring).

    Parameters
    ----------
    gold, system : Key
        Gold senses and system clusters.
    test_fraction : float
        Share of each word's instances held out for testing (0.2 = the 80/20 split of 2010).
    n_splits : int
        Number of random splits to average.
    random_state : int or None
        Seed of the splits (words are split in sorted order, so results do not depend on key order).

    Returns
    -------
    dict
        ``{"overall": float, "nouns": float, "verbs": float, "per_target": {target: float},
        "splits": [float, ...]}`` (``splits``: the pooled recall of each split).

    Raises
    ------
    ConfigError
        For a ``test_fraction`` outside (0, 1) or ``n_splits`` below 1.

    Examples
    --------
    >>> gold = {"w.n": {f"i{k}": {"a" if k % 2 else "b": 1.0} for k in range(10)}}
    >>> supervised_recall(gold, gold)["overall"]
    1.0
    """
    if not 0 < test_fraction < 1:
        raise ConfigError(f"supervised_recall: test_fraction must be in (0, 1), not {test_fraction}")
    if n_splits < 1:
        raise ConfigError(f"supervised_recall: n_splits must be >= 1, not {n_splits}")
    rng = np.random.default_rng(random_state)
    targets = sorted(t for t, instances in gold.items() if len(instances) >= 2)
    per_target_runs: dict[str, list[float]] = {t: [] for t in targets}
    pooled: dict[str, list[float]] = {group: [] for group in GROUPS}
    split_totals = []
    for _ in range(n_splits):
        correct = dict.fromkeys(GROUPS, 0)
        tested = dict.fromkeys(GROUPS, 0)
        for target in targets:
            gold_instances = gold[target]
            mapping_ids, test_ids = _split(list(gold_instances), test_fraction, rng)
            predicted = map_clusters_to_senses(gold_instances, system.get(target, {}), mapping_ids, test_ids)
            hits = sum(1 for i in test_ids if predicted[i] is not None and predicted[i] in gold_instances[i])
            per_target_runs[target].append(hits / len(test_ids))
            for group, suffix in GROUPS.items():
                if suffix is None or target.endswith(suffix):
                    correct[group] += hits
                    tested[group] += len(test_ids)
        for group in GROUPS:
            pooled[group].append(correct[group] / tested[group] if tested[group] else math.nan)
        split_totals.append(pooled["overall"][-1])
    result: dict = {group: float(np.mean(values)) for group, values in pooled.items()}
    result["per_target"] = {t: float(np.mean(runs)) for t, runs in per_target_runs.items()}
    result["splits"] = split_totals
    return result


def _target_scores(gold_instances: dict[str, dict[str, float]], system_instances: dict | None) -> dict:
    _, gold_labels, system_labels = key_labels(gold_instances, system_instances)
    precision, recall, f = paired_f(gold_labels, system_labels)
    homogeneity, completeness, v = v_measure(gold_labels, system_labels)
    return {
        "paired_f": f,
        "paired_p": precision,
        "paired_r": recall,
        "v_measure": v,
        "homogeneity": homogeneity,
        "completeness": completeness,
        "avg": geometric_mean(f, v),
        N_INSTANCES: len(gold_labels),
        "n_clusters": len(set(system_labels)),
    }


def _group_scores(per_target: dict[str, dict], suffix: str | None) -> dict:
    members = [s for t, s in per_target.items() if suffix is None or t.endswith(suffix)]
    group = instance_weighted(members, AVERAGED)
    group["avg"] = geometric_mean(group["paired_f"], group["v_measure"])
    group[N_INSTANCES] = total_instances(members)
    group["n_clusters"] = float(np.mean([s["n_clusters"] for s in members])) if members else math.nan
    return group


def score_semeval2010(
    gold: Key,
    system: Key,
    supervised: bool = True,
    test_fraction: float = 0.2,
    n_splits: int = 5,
    random_state: int | None = 0,
) -> dict:
    """Score a system key with the SemEval-2010 Task 14 measures (module docstring).

    Parameters
    ----------
    gold, system : Key
        target -> instance id -> sense/cluster -> weight.
    supervised : bool
        Also compute the supervised recall (80/20 mapping, :func:`supervised_recall`).
    test_fraction, n_splits, random_state
        Passed to :func:`supervised_recall`.

    Returns
    -------
    dict
        ``{"overall": {...}, "nouns": {...}, "verbs": {...}, "per_target": {target: {...}}}``; each
        inner dict has ``paired_f``, ``paired_p``, ``paired_r``, ``v_measure``, ``homogeneity``,
        ``completeness``, ``avg`` (= sqrt(paired_f * v_measure)), ``n_instances``, ``n_clusters``
        (mean per word for groups) and, if ``supervised``, ``supervised_recall``. Fractions in [0, 1].

    Examples
    --------
    >>> gold = {"w.v": {"i1": {"a": 1.0}, "i2": {"a": 1.0}, "i3": {"b": 1.0}}}
    >>> r = score_semeval2010(gold, {"w.v": {i: {"c": 1.0} for i in ("i1", "i2", "i3")}}, supervised=False)
    >>> round(r["verbs"]["paired_f"], 3), r["verbs"]["v_measure"]
    (0.5, 0.0)
    """
    per_target = {target: _target_scores(instances, system.get(target)) for target, instances in gold.items()}
    result: dict = {group: _group_scores(per_target, suffix) for group, suffix in GROUPS.items()}
    if supervised:
        recall = supervised_recall(gold, system, test_fraction, n_splits, random_state)
        for group in GROUPS:
            result[group]["supervised_recall"] = recall[group]
        for target, scores in per_target.items():
            scores["supervised_recall"] = recall["per_target"].get(target, math.nan)
    result["per_target"] = per_target
    return result
