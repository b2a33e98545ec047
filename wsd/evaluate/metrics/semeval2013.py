"""SemEval-2013 Task 13 metrics: Fuzzy NMI and Fuzzy B-Cubed, exactly as the official Java scorers compute them.

Definitions (Jurgens & Klapaftis 2013), as implemented by the official ``fuzzy-nmi.jar`` and
``fuzzy-bcubed.jar`` (Jurgens' cluster-comparison tools); every step below was checked against the
scores those jars printed (``scorer-reference/expected.tsv``: 5,900 rows, agreement < 1e-14).

Per target word, with the gold key G and the system key T restricted to that word:

**Fuzzy B-Cubed.** The fuzzy agreement of two instances under a labelling is the sum, over the senses
*both* carry (a listed sense counts even with weight 0), of ``1 - |w_i - w_j|``. For each gold
instance *i*, precision averages ``min(A_G, A_T) / A_G`` over the other gold instances that share a
gold sense with *i* (a pair with ``A_G = 0`` adds 0 but still counts); recall does the same for each
system instance over the other system instances sharing a system sense, with ``A_T`` in the
denominator. An instance without such partners scores 0 (so even the gold scored against itself gets
FBC < 1: 0.9917 on the 2013 gold). Both sums are divided by the number of *gold* instances, so gold
instances the system leaves out count against it. The official label "precision" is the gold-side
average (it is 1.0 for one cluster per word).

**Fuzzy NMI** (fuzzy version of Lancichinetti et al. 2009). Over the union of gold and system
instances, each sense is a vector of membership weights (0 where absent). Each vector is
discretised into 10 equal bins of [0, 1] (a value ``v`` falls in the first bin ``b`` with
``v <= (b+1)/10``, so 0 and 0.1 share bin 0), and entropies are those of the bin histograms (log 2).
``H(g|t) = H(g, t) - H(t)``. For each gold sense, ``H(g|T)`` is the smallest ``H(g|t)`` over the system
senses *t* that are not "complementary" to it (Lancichinetti's condition on presence, ``h(P11) + h(P00)
< h(P10) + h(P01)`` with ``h(p) = -p ln p``, skips *t*), or ``H(g)`` when all are skipped; likewise
``H(t|G)``. ``H(G) = Σ H(g)``, ``H(T) = Σ H(t)``, ``MI = (H(G) - Σ H(g|T) + H(T) - Σ H(t|G)) / 2`` and
``FNMI = MI / max(H(G), H(T))`` (NaN when both are 0, as in the official scorer).

**Aggregation.** Targets are those of the gold key; a target the system never labels scores 0.
"all" FNMI is the unweighted mean over targets; "all" FBC precision and recall are unweighted means
over targets and "all" F is their harmonic mean (not the mean of per-target F). The paper-level
summary is ``AVG = sqrt(FNMI * FBC-F)``.

**System instances that the gold lacks** (for a target in the gold) are *not* dropped by the
official scorers: they enlarge the FNMI instance set, and in FB-Cubed they are recall items with
recall 0 and they dilute other items' recall. The scores of all official 2013 systems (which label
142 instances that have no gold) were computed that way. ``restrict_to_gold=True`` drops them first
(the behaviour of later releases of the B-Cubed scorer), which is what one wants when scoring a full
system key against a gold subset such as ``all.singlesense.key``; it breaks parity with the
published figures.
"""

from __future__ import annotations

import math

import numpy as np

from wsd.evaluate.keys import Key
from wsd.evaluate.metrics.means import f_score, geometric_mean

N_BINS = 10
BIN_UPPER_EDGES = np.arange(1, N_BINS + 1, dtype=np.float64) / N_BINS
SCORE_NAMES: tuple[str, ...] = ("fnmi", "fbc_p", "fbc_r", "fbc_f", "avg")


def _membership_matrix(instances: dict[str, dict[str, float]], ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Weights and presence (sense listed, even with weight 0) as (len(ids), n_senses) matrices."""
    sense_index: dict[str, int] = {}
    rows, cols, values = [], [], []
    for row, instance in enumerate(ids):
        for sense, weight in instances.get(instance, {}).items():
            rows.append(row)
            cols.append(sense_index.setdefault(sense, len(sense_index)))
            values.append(weight)
    weights = np.zeros((len(ids), len(sense_index)), dtype=np.float64)
    present = np.zeros(weights.shape, dtype=bool)
    weights[rows, cols] = values
    present[rows, cols] = True
    return weights, present


def _fuzzy_agreement(weights: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Pairwise Σ_{senses both list} (1 - |w_i - w_j|), an (n, n) matrix."""
    both = present[:, None, :] & present[None, :, :]
    closeness = 1.0 - np.abs(weights[:, None, :] - weights[None, :, :])
    return np.where(both, closeness, 0.0).sum(axis=2)


def _shared_sense(present: np.ndarray) -> np.ndarray:
    """Pairs of distinct instances that list at least one common sense."""
    as_float = present.astype(np.float64)
    shared = (as_float @ as_float.T) > 0
    np.fill_diagonal(shared, False)
    return shared


def _bcubed_item_scores(partners: np.ndarray, own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Per item: mean over its partners of min(own, other) / own (0 where own is 0 or no partner)."""
    ratio = np.divide(np.minimum(own, other), own, out=np.zeros_like(own), where=partners & (own > 0))
    counts = partners.sum(axis=1)
    return np.divide(ratio.sum(axis=1), counts, out=np.zeros(len(counts)), where=counts > 0)


def fuzzy_bcubed(gold: dict[str, dict[str, float]], system: dict[str, dict[str, float]]) -> tuple[float, float]:
    """Fuzzy B-Cubed precision and recall of one target (official SemEval-2013 definition).

    Parameters
    ----------
    gold, system : dict
        Instance id -> sense -> weight for the target's instances.

    Returns
    -------
    (precision, recall) : tuple of float
        Both divided by the number of gold instances (see the module docstring).

    Examples
    --------
    >>> gold = {"i1": {"a": 1.0}, "i2": {"a": 1.0}, "i3": {"b": 1.0}, "i4": {"b": 1.0}}
    >>> fuzzy_bcubed(gold, {"i1": {"x": 1.0}, "i2": {"x": 1.0}, "i3": {"x": 1.0}, "i4": {"x": 1.0}})
    (1.0, 0.3333333333333333)
    """
    if not gold:
        return 0.0, 0.0
    ids = list(gold) + [instance for instance in system if instance not in gold]
    gold_w, gold_p = _membership_matrix(gold, ids)
    sys_w, sys_p = _membership_matrix(system, ids)
    gold_agree = _fuzzy_agreement(gold_w, gold_p)
    sys_agree = _fuzzy_agreement(sys_w, sys_p)
    n_gold = len(gold)
    precision_items = _bcubed_item_scores(_shared_sense(gold_p), gold_agree, sys_agree)[:n_gold]
    recall_items = _bcubed_item_scores(_shared_sense(sys_p), sys_agree, gold_agree)
    return float(precision_items.sum() / n_gold), float(recall_items.sum() / n_gold)


def _bin_histograms(weights: np.ndarray) -> np.ndarray:
    """One-hot bin membership, shape (n_instances, n_senses * N_BINS)."""
    bins = np.minimum(np.searchsorted(BIN_UPPER_EDGES, weights, side="left"), N_BINS - 1)
    one_hot = bins[:, :, None] == np.arange(N_BINS)
    return one_hot.reshape(len(weights), -1).astype(np.float64)


def _entropy_bits(counts: np.ndarray, total: int) -> np.ndarray:
    """Entropy (log 2) of histograms along the last axis."""
    prob = counts / total
    terms = np.where(counts > 0, prob * np.log2(np.where(counts > 0, prob, 1.0)), 0.0)
    return -terms.sum(axis=-1)


def _xlogx(counts: np.ndarray, total: int) -> np.ndarray:
    """-p ln p of p = counts / total (0 where counts is 0)."""
    prob = counts / total
    return np.where(counts > 0, -prob * np.log(np.where(counts > 0, prob, 1.0)), 0.0)


def _complementary(gold_w: np.ndarray, sys_w: np.ndarray) -> np.ndarray:
    """(n_gold_senses, n_sys_senses): pairs that Lancichinetti's condition excludes from H(X|Y)."""
    total = len(gold_w)
    in_gold = (gold_w > 0).astype(np.float64)
    in_sys = (sys_w > 0).astype(np.float64)
    both = in_gold.T @ in_sys
    gold_only = in_gold.sum(axis=0)[:, None] - both
    sys_only = in_sys.sum(axis=0)[None, :] - both
    neither = total - both - gold_only - sys_only
    agree = _xlogx(both, total) + _xlogx(neither, total)
    disagree = _xlogx(gold_only, total) + _xlogx(sys_only, total)
    return agree < disagree


def fuzzy_nmi(gold: dict[str, dict[str, float]], system: dict[str, dict[str, float]]) -> float:
    """Fuzzy normalised mutual information of one target (official SemEval-2013 definition).

    Parameters
    ----------
    gold, system : dict
        As for :func:`fuzzy_bcubed`; system instances the gold lacks count here too.

    Returns
    -------
    float
        FNMI; NaN when gold and system both have zero entropy (as the official scorer prints).

    Examples
    --------
    >>> gold = {"i1": {"a": 1.0}, "i2": {"a": 1.0}, "i3": {"b": 1.0}, "i4": {"b": 1.0}}
    >>> fuzzy_nmi(gold, {"i1": {"x": 1.0}, "i2": {"x": 1.0}, "i3": {"y": 1.0}, "i4": {"y": 1.0}})
    1.0
    """
    ids = list(gold) + [instance for instance in system if instance not in gold]
    total = len(ids)
    gold_w, _ = _membership_matrix(gold, ids)
    sys_w, _ = _membership_matrix(system, ids)
    n_gold, n_sys = gold_w.shape[1], sys_w.shape[1]
    gold_bins, sys_bins = _bin_histograms(gold_w), _bin_histograms(sys_w)
    h_gold = _entropy_bits(gold_bins.sum(axis=0).reshape(n_gold, N_BINS), total)
    h_sys = _entropy_bits(sys_bins.sum(axis=0).reshape(n_sys, N_BINS), total)
    joint = (gold_bins.T @ sys_bins).reshape(n_gold, N_BINS, n_sys, N_BINS)
    h_joint = _entropy_bits(joint.transpose(0, 2, 1, 3).reshape(n_gold, n_sys, N_BINS * N_BINS), total)
    skipped = _complementary(gold_w, sys_w)
    gold_given_sys = np.where(skipped, np.inf, h_joint - h_sys[None, :])
    sys_given_gold = np.where(skipped, np.inf, h_joint - h_gold[:, None])
    h_g_given_t = gold_given_sys.min(axis=1, initial=np.inf)
    h_t_given_g = sys_given_gold.min(axis=0, initial=np.inf)
    h_g_given_t = np.where(np.isinf(h_g_given_t), h_gold, h_g_given_t)
    h_t_given_g = np.where(np.isinf(h_t_given_g), h_sys, h_t_given_g)
    h_g, h_t = float(h_gold.sum()), float(h_sys.sum())
    mutual = 0.5 * (h_g - float(h_g_given_t.sum()) + h_t - float(h_t_given_g.sum()))
    scale = max(h_g, h_t)
    return mutual / scale if scale > 0 else math.nan


def _scores(fnmi: float, precision: float, recall: float) -> dict[str, float]:
    fbc_f = f_score(precision, recall)
    return {
        "fnmi": fnmi,
        "fbc_p": precision,
        "fbc_r": recall,
        "fbc_f": fbc_f,
        "avg": geometric_mean(fnmi, fbc_f),
    }


def score_semeval2013(gold: Key, system: Key, restrict_to_gold: bool = False) -> dict:
    """Score a system key against a gold key with the official SemEval-2013 Task 13 metrics.

    Parameters
    ----------
    gold, system : Key
        target -> instance id -> sense -> weight (as :func:`wsd.evaluate.keys.read_key` returns).
    restrict_to_gold : bool
        Drop system instances that the gold lacks before scoring. ``False`` (default) reproduces
        the official scorers and the published figures (module docstring).

    Returns
    -------
    dict
        ``{"overall": {"fnmi", "fbc_p", "fbc_r", "fbc_f", "avg"}, "per_target": {target: {...}}}``,
        fractions (multiply by 100 for the published tables). Targets are the gold's, in gold order.

    Examples
    --------
    >>> gold = {"w.n": {"i1": {"a": 1.0}, "i2": {"a": 1.0}, "i3": {"b": 1.0}, "i4": {"b": 1.0}}}
    >>> system = {"w.n": {"i1": {"x": 1.0}, "i2": {"x": 1.0}, "i3": {"y": 1.0}, "i4": {"y": 1.0}}}
    >>> score_semeval2013(gold, system)["overall"]
    {'fnmi': 1.0, 'fbc_p': 1.0, 'fbc_r': 1.0, 'fbc_f': 1.0, 'avg': 1.0}
    """
    per_target: dict[str, dict[str, float]] = {}
    for target, gold_instances in gold.items():
        system_instances = system.get(target)
        if system_instances is None:
            per_target[target] = _scores(0.0, 0.0, 0.0)
            continue
        if restrict_to_gold:
            system_instances = {i: s for i, s in system_instances.items() if i in gold_instances}
        precision, recall = fuzzy_bcubed(gold_instances, system_instances)
        per_target[target] = _scores(fuzzy_nmi(gold_instances, system_instances), precision, recall)
    if per_target:
        values = {name: [scores[name] for scores in per_target.values()] for name in SCORE_NAMES}
        overall = _scores(
            float(np.mean(values["fnmi"])), float(np.mean(values["fbc_p"])), float(np.mean(values["fbc_r"]))
        )
    else:
        overall = _scores(math.nan, 0.0, 0.0)
    return {"overall": overall, "per_target": per_target}
