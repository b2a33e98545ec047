"""Hard-clustering metrics (ARI, NMI, V-measure, paired F, B-Cubed, purity) and per-word aggregation of keys.

The label functions take two equally long label sequences (gold classes, system clusters) and work on
their contingency table, so they cost O(n + classes x clusters); each raises :class:`~wsd.errors.InputError`
when the sequences are not 1-D or differ in length (:func:`contingency`). ARI, NMI and V-measure agree with
scikit-learn (``adjusted_rand_score``, ``normalized_mutual_info_score`` with arithmetic normalisation,
``homogeneity_completeness_v_measure``), including its conventions for degenerate labellings.

Keys are turned into hard labels per target by :func:`key_labels`, following the SemEval-2007/2010
scorers: an instance's label is its highest-weighted sense; senses tied at the maximum form one
combined label (``a+b``); gold instances that the system does not label share one "unanswered"
cluster; system instances that the gold lacks are ignored. Per-word scores are then averaged over
words weighted by their number of gold instances (the SemEval-2010 and RUSSE-2018 convention).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from wsd.errors import InputError
from wsd.evaluate.keys import Key
from wsd.evaluate.metrics import semeval2013
from wsd.evaluate.metrics.means import N_INSTANCES, f_score, instance_weighted, total_instances

UNANSWERED = "<unanswered>"
TIE_JOINER = "+"


def contingency(gold: Sequence, system: Sequence) -> np.ndarray:
    """Contingency table ``n[c, k]`` of gold classes (rows) by system clusters (columns).

    Parameters
    ----------
    gold, system : sequence
        Gold class and system cluster of each item (any hashable, sortable labels), equally long.

    Returns
    -------
    numpy.ndarray of int64, shape (n_classes, n_clusters)
        Counts of items per (class, cluster); classes and clusters in sorted label order.

    Raises
    ------
    InputError
        When the label sequences are not 1-D or differ in length.

    Examples
    --------
    >>> contingency(["a", "a", "b"], [0, 1, 1]).tolist()
    [[1, 1], [0, 1]]
    """
    gold_arr, system_arr = np.asarray(gold), np.asarray(system)
    if gold_arr.shape != system_arr.shape or gold_arr.ndim != 1:
        raise InputError(f"label sequences must be 1-D and equally long, got {gold_arr.shape} and {system_arr.shape}")
    _, gold_idx = np.unique(gold_arr, return_inverse=True)
    _, system_idx = np.unique(system_arr, return_inverse=True)
    table = np.zeros((gold_idx.max(initial=-1) + 1, system_idx.max(initial=-1) + 1), dtype=np.int64)
    np.add.at(table, (gold_idx, system_idx), 1)
    return table


def _pairs(counts: np.ndarray) -> int:
    """Σ C(n, 2) as an exact Python int."""
    counts = counts.astype(np.int64)
    return int((counts * (counts - 1) // 2).sum())


def paired_f(gold: Sequence, system: Sequence) -> tuple[float, float, float]:
    """Paired precision, recall and F-score (SemEval-2010 Task 14).

    Precision is the share of instance pairs put in one system cluster that share a gold class;
    recall the share of same-class pairs put in one cluster. A labelling without such pairs
    (e.g. one cluster per instance) has precision (or recall) 0.

    Parameters
    ----------
    gold, system : sequence
        Gold class and system cluster of each item; every pair of items is compared.

    Returns
    -------
    (precision, recall, f) : tuple of float

    Examples
    --------
    >>> paired_f(["a", "a", "b", "b"], [0, 0, 0, 0])
    (0.3333333333333333, 1.0, 0.5)
    """
    table = contingency(gold, system)
    common = _pairs(table)
    system_pairs = _pairs(table.sum(axis=0))
    gold_pairs = _pairs(table.sum(axis=1))
    precision = common / system_pairs if system_pairs else 0.0
    recall = common / gold_pairs if gold_pairs else 0.0
    return precision, recall, f_score(precision, recall)


def _entropy(counts: np.ndarray) -> float:
    """Entropy (natural log) of a histogram, in scikit-learn's arithmetic order."""
    counts = counts[counts > 0].astype(np.float64)
    if counts.size <= 1:
        return 0.0
    total = counts.sum()
    return float(-np.sum((counts / total) * (np.log(counts) - math.log(total))))


def _mutual_information(table: np.ndarray) -> float:
    """Mutual information (natural log) of a contingency table, in scikit-learn's arithmetic order."""
    if table.shape[0] <= 1 or table.shape[1] <= 1:
        return 0.0
    rows, cols = np.nonzero(table)
    joint = table[rows, cols].astype(np.float64)
    total = joint.sum()
    row_sums, col_sums = table.sum(axis=1), table.sum(axis=0)
    outer = row_sums[rows].astype(np.int64) * col_sums[cols].astype(np.int64)
    log_outer = -np.log(outer) + math.log(row_sums.sum()) + math.log(col_sums.sum())
    share = joint / total
    terms = share * (np.log(joint) - math.log(total)) + share * log_outer
    terms = np.where(np.abs(terms) < np.finfo(np.float64).eps, 0.0, terms)
    return max(float(terms.sum()), 0.0)


def v_measure(gold: Sequence, system: Sequence, beta: float = 1.0) -> tuple[float, float, float]:
    """Homogeneity, completeness and V-measure (Rosenberg & Hirschberg 2007).

    As in scikit-learn, homogeneity is 1 when the gold has a single class and completeness is 1 when
    the system has a single cluster.

    Parameters
    ----------
    gold, system : sequence
        Gold class and system cluster of each item, equally long (:func:`contingency`).
    beta : float
        Weight of homogeneity against completeness in the harmonic mean (1: balanced).

    Returns
    -------
    (homogeneity, completeness, v_measure) : tuple of float
        Each is 1.0 for empty labellings (scikit-learn's convention).

    Examples
    --------
    >>> v_measure(["a", "a", "b", "b"], [0, 0, 1, 1])
    (1.0, 1.0, 1.0)
    """
    table = contingency(gold, system)
    if table.size == 0:
        return 1.0, 1.0, 1.0
    h_gold, h_system = _entropy(table.sum(axis=1)), _entropy(table.sum(axis=0))
    mi = _mutual_information(table)
    homogeneity = mi / h_gold if h_gold else 1.0
    completeness = mi / h_system if h_system else 1.0
    denominator = beta * homogeneity + completeness
    v = (1 + beta) * homogeneity * completeness / denominator if denominator > 0 else 0.0
    return homogeneity, completeness, v


def normalized_mutual_info(gold: Sequence, system: Sequence) -> float:
    """NMI with arithmetic-mean normalisation (scikit-learn's default).

    Parameters
    ----------
    gold, system : sequence
        Two labellings of the same items (the measure is symmetric in them).

    Returns
    -------
    float
        In [0, 1]; 1.0 when both labellings are a single cluster (or empty), 0.0 when they share no
        information.

    Examples
    --------
    >>> normalized_mutual_info(["a", "a", "b", "b"], [1, 1, 0, 0])
    1.0
    """
    table = contingency(gold, system)
    if table.shape[0] == table.shape[1] == 1 or table.size == 0:
        return 1.0
    mi = _mutual_information(table)
    if mi == 0:
        return 0.0
    normaliser = (_entropy(table.sum(axis=1)) + _entropy(table.sum(axis=0))) / 2
    return mi / max(normaliser, np.finfo(np.float64).eps)


def adjusted_rand(gold: Sequence, system: Sequence) -> float:
    """Adjusted Rand Index (Hubert & Arabie 1985), as scikit-learn computes it.

    Parameters
    ----------
    gold, system : sequence
        Two labellings of the same items (ARI is symmetric in them).

    Returns
    -------
    float
        1.0 for identical partitions (and in scikit-learn's degenerate cases), about 0 for chance,
        negative below chance.

    Examples
    --------
    >>> adjusted_rand(["a", "a", "b", "b"], [0, 0, 1, 1])
    1.0
    """
    table = contingency(gold, system)
    n = int(table.sum())
    sum_squares = int((table.astype(np.int64) ** 2).sum())
    row_sums, col_sums = table.sum(axis=1).astype(np.int64), table.sum(axis=0).astype(np.int64)
    together_both = sum_squares - n
    together_system = int((col_sums**2).sum()) - sum_squares
    together_gold = int((row_sums**2).sum()) - sum_squares
    apart_both = n * n - together_system - together_gold - sum_squares
    if together_system == 0 and together_gold == 0:
        return 1.0
    numerator = 2.0 * (together_both * apart_both - together_gold * together_system)
    denominator = (together_both + together_gold) * (together_gold + apart_both) + (together_both + together_system) * (
        together_system + apart_both
    )
    return numerator / denominator


def bcubed(gold: Sequence, system: Sequence) -> tuple[float, float, float]:
    """B-Cubed precision, recall and F (Bagga & Baldwin 1998; each item counts itself).

    Parameters
    ----------
    gold, system : sequence
        Gold class and system cluster of each item; each item's class-mates and cluster-mates are compared.

    Returns
    -------
    (precision, recall, f) : tuple of float
        All 0.0 for empty labellings.

    Examples
    --------
    >>> bcubed(["a", "a", "b", "b"], [0, 0, 0, 0])
    (0.5, 1.0, 0.6666666666666666)
    """
    table = contingency(gold, system).astype(np.float64)
    n = table.sum()
    if n == 0:
        return 0.0, 0.0, 0.0
    squares = table**2
    cluster_sizes, class_sizes = table.sum(axis=0), table.sum(axis=1)
    precision = float((squares.sum(axis=0)[cluster_sizes > 0] / cluster_sizes[cluster_sizes > 0]).sum() / n)
    recall = float((squares.sum(axis=1)[class_sizes > 0] / class_sizes[class_sizes > 0]).sum() / n)
    return precision, recall, f_score(precision, recall)


def purity(gold: Sequence, system: Sequence) -> float:
    """Purity: share of instances that belong to their cluster's majority class.

    Parameters
    ----------
    gold, system : sequence
        Gold class and system cluster of each item; only each cluster's largest class counts.

    Returns
    -------
    float
        In [0, 1]; 0.0 for empty labellings.

    Examples
    --------
    >>> purity(["a", "a", "b"], [0, 0, 0])
    0.6666666666666666
    """
    table = contingency(gold, system)
    n = table.sum()
    return float(table.max(axis=0).sum() / n) if n else 0.0


def hard_label(senses: dict[str, float]) -> str:
    """The hard label of a graded annotation: the highest-weighted sense, ties joined by ``+``.

    Parameters
    ----------
    senses : dict of str to float
        Sense -> weight of one instance.

    Returns
    -------
    str
        The label (tied senses sorted and joined by ``+``); ``"<unanswered>"`` for no senses.

    Examples
    --------
    >>> hard_label({"s1": 0.5, "s2": 1.0})
    's2'
    >>> hard_label({"s2": 1.0, "s1": 1.0})
    's1+s2'
    """
    if not senses:
        return UNANSWERED
    top = max(senses.values())
    return TIE_JOINER.join(sorted(sense for sense, weight in senses.items() if weight == top))


def key_labels(
    gold_instances: dict[str, dict[str, float]], system_instances: dict[str, dict[str, float]] | None
) -> tuple[list[str], list[str], list[str]]:
    """Hard gold and system labels of one target, aligned on the gold's instances.

    Parameters
    ----------
    gold_instances : dict
        Instance id -> sense -> weight, from the gold key of one target.
    system_instances : dict or None
        The same from the system key (None when the system did not answer the target); instances that
        the gold lacks are ignored.

    Returns
    -------
    (ids, gold_labels, system_labels) : tuple of lists
        Unlabelled gold instances get the system label ``"<unanswered>"`` (one shared cluster).

    Examples
    --------
    >>> key_labels({"i1": {"a": 1.0}, "i2": {"b": 1.0}}, {"i1": {"x": 1.0}, "i9": {"x": 1.0}})
    (['i1', 'i2'], ['a', 'b'], ['x', '<unanswered>'])
    """
    system_instances = system_instances or {}
    ids = list(gold_instances)
    gold_labels = [hard_label(gold_instances[i]) for i in ids]
    system_labels = [hard_label(system_instances.get(i, {})) for i in ids]
    return ids, gold_labels, system_labels


#: Each hard-label metric of one target, by name: a function of the gold and the system labels.
HARD_SCORERS: dict[str, Callable[[Sequence[str], Sequence[str]], float]] = {
    "ari": adjusted_rand,
    "nmi": normalized_mutual_info,
    "v_measure": lambda gold, system: v_measure(gold, system)[2],
    "paired_f": lambda gold, system: paired_f(gold, system)[2],
    "bcubed_f": lambda gold, system: bcubed(gold, system)[2],
    "purity": purity,
}
HARD_METRICS = tuple(HARD_SCORERS)
#: The metrics of the RUSSE-2018 WSI task.
RUSSE_METRICS = ("ari", "nmi")


def _hard_scores_per_target(gold: Key, system: Key, names: Sequence[str]) -> dict[str, dict[str, float]]:
    """The named hard-label metrics (:data:`HARD_SCORERS`) of every gold target, on its :func:`key_labels`."""
    per_target: dict[str, dict[str, float]] = {}
    for target, gold_instances in gold.items():
        _, gold_labels, system_labels = key_labels(gold_instances, system.get(target))
        per_target[target] = {name: HARD_SCORERS[name](gold_labels, system_labels) for name in names}
    return per_target


def score_generic(gold: Key, system: Key) -> dict:
    """Every applicable metric, per target and overall.

    Hard metrics (ARI, NMI, V-measure, paired F, B-Cubed F, purity) use :func:`key_labels` and are
    averaged over targets weighted by gold instances; ``fnmi`` and ``fbc_f`` are the official
    SemEval-2013 fuzzy metrics with their own aggregation (:mod:`wsd.evaluate.metrics.semeval2013`),
    except that targets whose FNMI is undefined (gold and system both a single sense: zero entropy, which
    the official scorer prints as NaN) are left out of the ``fnmi`` mean; it is NaN only if all are.

    Parameters
    ----------
    gold, system : Key
        target -> instance id -> sense -> weight.

    Returns
    -------
    dict
        ``{"overall": {"ari", "nmi", "v_measure", "paired_f", "bcubed_f", "purity", "fnmi", "fbc_f",
        "n_instances"}, "per_target": {target: {... same keys ...}}}``.

    Examples
    --------
    >>> gold = {"w.n": {"i1": {"a": 1.0}, "i2": {"a": 1.0}, "i3": {"b": 1.0}}}
    >>> score_generic(gold, {"w.n": {"i1": {"x": 1.0}, "i2": {"x": 1.0}, "i3": {"y": 1.0}}})["overall"]["ari"]
    1.0
    """
    fuzzy = semeval2013.score_semeval2013(gold, system)
    per_target = {
        target: scores
        | {
            "fnmi": fuzzy["per_target"][target]["fnmi"],
            "fbc_f": fuzzy["per_target"][target]["fbc_f"],
            N_INSTANCES: len(gold[target]),
        }
        for target, scores in _hard_scores_per_target(gold, system, HARD_METRICS).items()
    }
    overall = instance_weighted(list(per_target.values()), HARD_METRICS)
    defined = [scores["fnmi"] for scores in per_target.values() if not math.isnan(scores["fnmi"])]
    overall["fnmi"] = float(np.mean(defined)) if defined else math.nan
    overall["fbc_f"] = fuzzy["overall"]["fbc_f"]
    overall[N_INSTANCES] = total_instances(per_target.values())
    return {"overall": overall, "per_target": per_target}


def score_russe(gold: Key, system: Key) -> dict:
    """RUSSE-2018 WSI scores: ARI (and NMI) per word, averaged weighted by the word's contexts.

    Parameters
    ----------
    gold, system : Key
        target -> context id -> sense -> weight (hard labels; graded ones are reduced by :func:`hard_label`).

    Returns
    -------
    dict
        ``{"overall": {"ari", "nmi", "n_instances"}, "per_target": {target: {"ari", "nmi", "n_instances"}}}``.

    Examples
    --------
    >>> gold = {"замок": {"1": {"1": 1.0}, "2": {"1": 1.0}, "3": {"2": 1.0}}}
    >>> score_russe(gold, {"замок": {"1": {"a": 1.0}, "2": {"a": 1.0}, "3": {"b": 1.0}}})["overall"]
    {'ari': 1.0, 'nmi': 1.0, 'n_instances': 3}
    """
    per_target = {
        target: scores | {N_INSTANCES: len(gold[target])}
        for target, scores in _hard_scores_per_target(gold, system, RUSSE_METRICS).items()
    }
    overall = instance_weighted(list(per_target.values()), RUSSE_METRICS)
    overall[N_INSTANCES] = total_instances(per_target.values())
    return {"overall": overall, "per_target": per_target}
