"""Usage-pair agreement: how the cosine of two uses' vectors follows the human judgment of the pair.

Word Usage Graphs (DWUG EN, NorDiaChange, RuSemShift) judge pairs of uses of a word from 1 (unrelated) to 4
(identical). The agreement is Spearman's ρ between the cosine of the two uses' vectors and the pair's median
judgment: per word over its judged pairs, and pooled over every pair. It needs no clustering, so it measures the
vector space itself (what usage-pair tuning trains for). The judgments are read by
:mod:`wsd.workflows.usage_pairs`; this module holds the figures and their line of text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Fewest judged pairs for a word's own ρ.
MIN_PAIRS = 3


def pair_cosines(X: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Cosine of rows ``first[i]`` and ``second[i]`` of ``X`` (0 where a row is all zeros).

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Vectors.
    first, second : ndarray of int, shape (m,)
        The rows of each pair.

    Returns
    -------
    ndarray of shape (m,)

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]])
    >>> pair_cosines(X, np.array([0, 0]), np.array([1, 2])).tolist()
    [0.0, 1.0]
    """
    X = np.asarray(X, dtype=np.float64)
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    unit = np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)
    return np.einsum("ij,ij->i", unit[first], unit[second])


def pair_spearman(similarity: np.ndarray, judgment: np.ndarray) -> float | None:
    """Spearman's ρ of pair similarities against judgments; None with under :data:`MIN_PAIRS` pairs or a side constant.

    Parameters
    ----------
    similarity, judgment : ndarray of shape (m,)
        One value per pair.

    Returns
    -------
    float or None

    Examples
    --------
    >>> pair_spearman(np.array([0.1, 0.5, 0.9]), np.array([1.0, 3.0, 4.0]))
    1.0
    >>> pair_spearman(np.array([0.1, 0.5, 0.9]), np.array([2.0, 2.0, 2.0])) is None
    True
    """
    from scipy.stats import spearmanr

    if len(similarity) < MIN_PAIRS or np.ptp(similarity) == 0 or np.ptp(judgment) == 0:
        return None
    return float(spearmanr(similarity, judgment).statistic)


def usage_pair_lines(entry: Mapping[str, Any] | None) -> list[str]:
    """The line under the ``wsd evaluate`` table that gives the usage-pair agreement (none without the entry).

    Parameters
    ----------
    entry : dict, optional
        ``metrics.json``'s ``usage_pairs``.

    Returns
    -------
    list of str

    Examples
    --------
    >>> usage_pair_lines({"file": "j", "words": 2, "pairs": 10, "spearman_words": 0.25, "spearman_pooled": 0.3,
    ...                   "without": {"c": "no judgments file"}})  # doctest: +NORMALIZE_WHITESPACE
    ['usage pairs: cosine against the median human judgment, Spearman ρ 0.250 (mean over 2 words; 0.300 pooled
      over 10 pairs; j); 1 word without it: c (no judgments file)']
    >>> usage_pair_lines({"file": "j", "words": 1, "pairs": 4, "spearman_words": 0.5, "spearman_pooled": 0.5,
    ...     "without": {}, "sense_cut": {"cut": 0.61, "accuracy": 0.75, "pairs": 4, "midpoint": 2.5}})[1][:60]
    'sense cut: cosine 0.610 tells pairs judged above 2.5 from th'
    >>> usage_pair_lines({"file": "j", "reason": "no judgments file in d"})
    ['usage pairs: not measured (no judgments file in d)']
    """
    if not entry:
        return []
    if "reason" in entry:
        return [f"usage pairs: not measured ({entry['reason']})"]
    if "accuracy" in entry:
        return [binary_pair_line(entry)]
    words = "-" if entry["spearman_words"] is None else f"{entry['spearman_words']:.3f}"
    pooled = "-" if entry["spearman_pooled"] is None else f"{entry['spearman_pooled']:.3f}"
    line = (
        f"usage pairs: cosine against the median human judgment, Spearman ρ {words} (mean over {entry['words']} "
        f"words; {pooled} pooled over {entry['pairs']:,} pairs; {entry['file']})"
    )
    if entry["without"]:
        shown = ", ".join(f"{w} ({why})" for w, why in list(entry["without"].items())[:5])
        more = f", and {len(entry['without']) - 5} more" if len(entry["without"]) > 5 else ""
        count = len(entry["without"])
        line += f"; {count} word{'s' if count != 1 else ''} without it: {shown}{more}"
    cut = entry.get("sense_cut") or {}
    if "cut" in cut:
        return [
            line,
            f"sense cut: cosine {cut['cut']:.3f} tells pairs judged above {cut['midpoint']:g} from those below "
            f"best (accuracy {cut['accuracy']:.3f} over {cut['pairs']:,} pairs, on the clusterer's vectors): "
            f"WUG-like senses with --method agglomerative --similarity-cut {cut['cut']:.3f}",
        ]
    return [line]


# ------------------------------------------------------------------------------ binary pairs (WiC, MCL-WiC, AM2iCo)
#: Folds of the lemma cross-validation that chooses the threshold where no dev file is given (fewer with fewer lemmas).
LEMMA_FOLDS = 5
#: Bootstrap resamples of the pairs behind each 95% interval.
BOOTSTRAP_RESAMPLES = 1000
#: The columns of the per-pair table of ``wsd evaluate --dataset wic`` (``OUT/pairs.csv``), in order: the pair's
#: position among the pairs scored (1, 2, ...; file order, self-pairs and repeats skipped), its lemma, each use's
#: target word as written, the gold label (1 same sense, 0 not), the cosine, the threshold applied to it, its lemma
#: fold (0: the dev threshold), the predicted label (cosine ≥ threshold), whether that is right (1/0: their mean
#: is the accuracy), and the two contexts.
PAIR_TABLE_COLUMNS = (
    "pair",
    "lemma",
    "word_1",
    "word_2",
    "label",
    "cosine",
    "threshold",
    "fold",
    "predicted",
    "correct",
    "context_1",
    "context_2",
)


def best_threshold(scores: np.ndarray, labels: np.ndarray) -> float:
    """The cosine threshold with the highest accuracy on these pairs (a pair is "same" when its score ≥ it).

    The candidates are the midpoints between neighbouring distinct scores and one value beyond each end (all
    "same", all "different"); a tie goes to the lowest threshold.

    Parameters
    ----------
    scores : ndarray of shape (m,)
        One score (cosine) per pair.
    labels : ndarray of shape (m,)
        1 for a "same sense" pair, 0 for "different senses".

    Returns
    -------
    float

    Examples
    --------
    >>> best_threshold(np.array([0.1, 0.4, 0.6, 0.9]), np.array([0, 0, 1, 1]))
    0.5
    >>> best_threshold(np.array([0.2, 0.8]), np.array([1, 1]))  # all "same": below the lowest score
    -0.8
    """
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels).astype(bool)
    values = np.unique(scores)
    candidates = np.concatenate([[values[0] - 1.0], (values[:-1] + values[1:]) / 2, [values[-1] + 1.0]])
    # pairs under each candidate are "different": right when 0; those at or over it are "same": right when 1
    order = np.sort(scores)
    below = np.searchsorted(order, candidates, side="left")
    negatives_below = np.concatenate([[0], np.cumsum(~labels[np.argsort(scores, kind="stable")])])[below]
    positives_above = labels.sum() - (below - negatives_below)
    correct = negatives_below + positives_above
    return float(candidates[int(np.argmax(correct))])


def roc_auc(scores: np.ndarray, labels: np.ndarray) -> float | None:
    """Area under the ROC curve of the scores against binary labels (None unless both labels occur).

    The probability that a "same" pair scores above a "different" one, ties counting half: the Mann–Whitney U
    statistic over ``p·n`` (Hanley & McNeil 1982, "The meaning and use of the area under a receiver operating
    characteristic (ROC) curve", *Radiology* 143). With ``r`` the average ranks of all the scores (tied scores share
    their mean rank, :func:`scipy.stats.rankdata`) and ``p``, ``n`` the numbers of positive and negative pairs::

        AUC = (sum of r over the positive pairs - p (p + 1) / 2) / (p n)

    which is :func:`sklearn.metrics.roc_auc_score` (equal to within rounding; the tests check it, ties included).

    Parameters
    ----------
    scores : ndarray of shape (m,)
        One score per pair (finite: NaN or infinity is an InputError).
    labels : ndarray of shape (m,)
        1 or 0 per pair (anything true counts as 1).

    Returns
    -------
    float or None

    Examples
    --------
    >>> roc_auc(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1]))
    0.75
    >>> roc_auc(np.array([0.1, 0.2]), np.array([1, 1])) is None
    True
    """
    from scipy.stats import rankdata

    scores = _finite_scores(scores)
    labels = np.asarray(labels).astype(bool)
    if labels.all() or not labels.any():
        return None
    positives = int(labels.sum())
    negatives = len(labels) - positives
    rank_sum = float(rankdata(scores)[labels].sum())
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


#: Most cells (resamples × pairs or distinct scores) that :func:`resampled_roc_auc` holds at once (8 MB an array).
_RESAMPLE_CELLS = 1_000_000


def resampled_roc_auc(scores: np.ndarray, labels: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """:func:`roc_auc` of many resamples of the pairs at once (NaN where a resample holds one label only).

    The same Mann–Whitney U, counted without sorting each resample: the pairs are grouped by distinct score once,
    and a resample's U is the sum, over its positive pairs, of its negative pairs scored lower plus half of those
    scored the same. The counts are whole (and halves), so each value equals :func:`roc_auc` of that resample
    exactly.

    Parameters
    ----------
    scores, labels : ndarray of shape (m,)
        Score and 1/0 label of each pair.
    rows : ndarray of int, shape (r, k)
        The pair positions of each resample (repeats allowed), one resample per row.

    Returns
    -------
    ndarray of shape (r,)

    Examples
    --------
    >>> scores, labels = np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1])
    >>> resampled_roc_auc(scores, labels, np.array([[0, 1, 2, 3], [2, 3, 0, 0], [0, 0, 1, 1]])).tolist()
    [0.75, 1.0, nan]
    """
    scores = _finite_scores(scores)
    labels = np.asarray(labels).astype(bool)
    rows = np.asarray(rows, dtype=np.int64)
    _, group = np.unique(scores, return_inverse=True)  # each pair's distinct score, lowest first
    n_groups = int(group.max(initial=-1)) + 1
    out = np.empty(len(rows), dtype=np.float64)
    chunk = max(1, _RESAMPLE_CELLS // max(n_groups, rows.shape[1], 1))  # resamples counted at a time
    for start in range(0, len(rows), chunk):
        block = rows[start : start + chunk]
        cells = (np.arange(len(block))[:, None] * n_groups + group[block]).ravel()
        size = len(block) * n_groups
        same = labels[block].ravel()
        positive = np.bincount(cells, weights=same, minlength=size).reshape(len(block), n_groups)
        negative = np.bincount(cells, weights=~same, minlength=size).reshape(len(block), n_groups)
        lower = np.cumsum(negative, axis=1) - negative  # negatives scored below each distinct score
        u = (positive * (lower + negative / 2)).sum(axis=1)
        pairs = positive.sum(axis=1) * negative.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + len(block)] = np.where(pairs > 0, u / pairs, np.nan)
    return out


def _finite_scores(scores: np.ndarray) -> np.ndarray:
    """The scores as float64, or an InputError naming how many are NaN or infinite."""
    from wsd.errors import InputError

    scores = np.asarray(scores, dtype=np.float64)
    bad = int((~np.isfinite(scores)).sum())
    if bad:
        raise InputError(f"{bad} of {len(scores)} pair scores are NaN or infinite: a ROC AUC needs finite scores")
    return scores


def lemma_cv_predictions(
    scores: np.ndarray, labels: np.ndarray, lemmas: np.ndarray, n_folds: int = LEMMA_FOLDS
) -> tuple[np.ndarray, list[float]]:
    """Predictions of each pair by a threshold chosen on the other lemmas' pairs (grouped k-fold over lemmas).

    The folds are :class:`sklearn.model_selection.GroupKFold`'s (deterministic: no shuffling), ``min(n_folds,
    lemmas)`` of them; no lemma has pairs on both sides of a split (:func:`pair_thresholds`).

    Parameters
    ----------
    scores, labels : ndarray of shape (m,)
        Score and 1/0 label of each pair.
    lemmas : ndarray of shape (m,)
        The lemma of each pair.
    n_folds : int
        Most folds.

    Returns
    -------
    (ndarray of bool, list of float)
        The prediction ("same") of each pair, and the threshold of each fold.

    Raises
    ------
    InputError
        With fewer than two lemmas (nothing to hold out).

    Examples
    --------
    >>> predicted, thresholds = lemma_cv_predictions(
    ...     np.array([0.1, 0.9, 0.2, 0.8]), np.array([0, 1, 0, 1]), np.array(["a", "a", "b", "b"]))
    >>> predicted.tolist(), thresholds
    ([False, True, False, True], [0.5, 0.5])
    """
    chosen = pair_thresholds(scores, labels, lemmas, n_folds=n_folds)
    return np.asarray(scores, dtype=np.float64) >= chosen.per_pair, chosen.thresholds


@dataclass(frozen=True)
class PairThresholds:
    """The cosine threshold each pair is judged by, and where it was chosen (:func:`pair_thresholds`).

    Parameters
    ----------
    per_pair : ndarray of shape (m,)
        The threshold applied to each pair (a pair is "same" when its score is at or above it).
    fold : ndarray of int, shape (m,)
        The lemma fold (1, 2, ...) each pair was held out in; 0 for every pair with a dev threshold.
    thresholds : list of float
        The dev threshold alone, or the threshold of each fold in fold order.
    source : {"dev", "lemma-cv"}
        Chosen on the dev pairs, or by lemma cross-validation.
    """

    per_pair: np.ndarray
    fold: np.ndarray
    thresholds: list[float]
    source: str


def pair_thresholds(
    scores: np.ndarray,
    labels: np.ndarray,
    lemmas: np.ndarray,
    dev_scores: np.ndarray | None = None,
    dev_labels: np.ndarray | None = None,
    n_folds: int = LEMMA_FOLDS,
) -> PairThresholds:
    """The threshold of each pair: the dev one (:func:`best_threshold` on the dev pairs), else its lemma fold's.

    Without dev pairs the pairs are split into ``min(n_folds, lemmas)`` folds by
    :class:`sklearn.model_selection.GroupKFold` over lemmas (deterministic: no shuffling; no lemma on both sides
    of a split), and each fold's pairs are judged by the best threshold on the other folds' pairs.

    Parameters
    ----------
    scores, labels : ndarray of shape (m,)
        Score and 1/0 label of each evaluated pair.
    lemmas : ndarray of shape (m,)
        The lemma of each pair.
    dev_scores, dev_labels : ndarray, optional
        Scores and labels of the pairs the threshold is chosen on.
    n_folds : int
        Most folds of the lemma cross-validation.

    Returns
    -------
    PairThresholds

    Raises
    ------
    InputError
        Without dev pairs and with fewer than two lemmas (nothing to hold out).

    Examples
    --------
    >>> chosen = pair_thresholds(np.array([0.1, 0.9, 0.2, 0.8]), np.array([0, 1, 0, 1]), np.array(list("aabb")))
    >>> chosen.per_pair.tolist(), chosen.fold.tolist(), chosen.source
    ([0.5, 0.5, 0.5, 0.5], [2, 2, 1, 1], 'lemma-cv')
    >>> pair_thresholds(np.array([0.4]), np.array([1]), np.array(["a"]), np.array([0.2, 0.6]),
    ...                 np.array([0, 1])).thresholds
    [0.4]
    """
    from sklearn.model_selection import GroupKFold

    from wsd.errors import InputError

    scores, labels, lemmas = np.asarray(scores, dtype=np.float64), np.asarray(labels), np.asarray(lemmas)
    if dev_scores is not None and dev_labels is not None:
        threshold = best_threshold(dev_scores, dev_labels)
        return PairThresholds(
            np.full(len(scores), threshold), np.zeros(len(scores), dtype=np.int64), [threshold], "dev"
        )
    n_lemmas = len(np.unique(lemmas))
    if n_lemmas < 2:
        raise InputError(f"{n_lemmas} lemma: a threshold by lemma cross-validation needs two or more (or a dev file)")
    per_pair = np.zeros(len(scores), dtype=np.float64)
    fold = np.zeros(len(scores), dtype=np.int64)
    thresholds = []
    splits = GroupKFold(n_splits=min(n_folds, n_lemmas)).split(scores, labels, lemmas)
    for number, (train, test) in enumerate(splits, 1):
        thresholds.append(best_threshold(scores[train], labels[train]))
        per_pair[test] = thresholds[-1]
        fold[test] = number
    return PairThresholds(per_pair, fold, thresholds, "lemma-cv")


def bootstrap_interval(
    statistic: Callable[[np.ndarray], float | None],
    n: int,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    random_state: int = 0,
) -> list[float] | None:
    """The 95% percentile bootstrap interval of a statistic of ``n`` pairs, resampling the pairs with replacement.

    Parameters
    ----------
    statistic : callable
        Takes an array of pair positions (with repeats) and returns the statistic (None or NaN: undefined there;
        such a resample is left out).
    n : int
        Number of pairs.
    n_resamples : int
        Resamples drawn.
    random_state : int
        Seed of the resampling (the same seed, the same interval).

    Returns
    -------
    [low, high] or None
        None when no resample defines the statistic.

    Examples
    --------
    >>> correct = np.array([1.0] * 8 + [0.0] * 2)
    >>> low, high = bootstrap_interval(lambda rows: correct[rows].mean(), len(correct))
    >>> 0.5 <= low <= 0.8 <= high <= 1.0
    True
    """
    values = [statistic(rows) for rows in bootstrap_rows(n, n_resamples, random_state)]
    return percentile_interval(np.array([np.nan if value is None else value for value in values], dtype=np.float64))


def bootstrap_rows(n: int, n_resamples: int = BOOTSTRAP_RESAMPLES, random_state: int = 0) -> np.ndarray:
    """The pair positions of each bootstrap resample: ``n`` draws with replacement, one resample per row.

    Parameters
    ----------
    n : int
        Number of pairs.
    n_resamples : int
        Resamples drawn.
    random_state : int
        Seed (the same seed, the same resamples: :func:`bootstrap_interval` draws these).

    Returns
    -------
    ndarray of int, shape (n_resamples, n)

    Examples
    --------
    >>> bootstrap_rows(3, 2, random_state=0).shape
    (2, 3)
    """
    return np.random.default_rng(random_state).integers(0, n, size=(n_resamples, n))


def percentile_interval(values: np.ndarray) -> list[float] | None:
    """The 95% percentile interval of resampled values, leaving out the NaN ones (undefined there).

    Parameters
    ----------
    values : ndarray of shape (r,)
        One statistic per resample.

    Returns
    -------
    [low, high] or None
        None when every value is NaN.

    Examples
    --------
    >>> percentile_interval(np.array([0.0, 1.0, np.nan]))
    [0.025, 0.975]
    """
    values = np.asarray(values, dtype=np.float64)
    values = values[~np.isnan(values)]
    if not len(values):
        return None
    low, high = np.percentile(values, [2.5, 97.5])
    return [float(low), float(high)]


def binary_pair_scores(
    scores: np.ndarray,
    labels: np.ndarray,
    lemmas: np.ndarray,
    dev_scores: np.ndarray | None = None,
    dev_labels: np.ndarray | None = None,
    n_resamples: int = BOOTSTRAP_RESAMPLES,
    random_state: int = 0,
) -> dict[str, Any]:
    """Accuracy of a cosine threshold and ROC AUC of binary usage pairs, each with a 95% bootstrap interval.

    The threshold is the one with the best accuracy on the dev pairs where they are given
    (:func:`best_threshold`), else chosen for each lemma fold on the other folds (:func:`pair_thresholds`).
    The intervals resample the pairs (the thresholds stay as chosen); both use the same resamples
    (:func:`bootstrap_rows`), each figure computed for all of them at once.

    Parameters
    ----------
    scores, labels, lemmas : ndarray of shape (m,)
        Score, 1/0 label and lemma of each evaluated pair.
    dev_scores, dev_labels : ndarray, optional
        Scores and labels of the pairs the threshold is chosen on.
    n_resamples : int
        Bootstrap resamples.
    random_state : int
        Seed of the resampling.

    Returns
    -------
    dict
        ``pairs``, ``lemmas``, ``same`` (pairs labelled 1), ``threshold_from`` (``"dev"`` or ``"lemma-cv"``),
        ``thresholds`` (one, or one per fold), ``accuracy``, ``accuracy_ci``, ``auc``, ``auc_ci`` (None where
        only one label occurs), ``resamples``.

    Examples
    --------
    >>> entry = binary_pair_scores(np.array([0.1, 0.9, 0.2, 0.8]), np.array([0, 1, 0, 1]), np.array(list("aabb")),
    ...                            n_resamples=50)
    >>> entry["accuracy"], entry["auc"], entry["threshold_from"]
    (1.0, 1.0, 'lemma-cv')
    """
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels).astype(bool)
    chosen = pair_thresholds(scores, labels, lemmas, dev_scores, dev_labels)
    correct = ((scores >= chosen.per_pair) == labels).astype(np.float64)
    rows = bootstrap_rows(len(scores), n_resamples, random_state)
    return {
        "pairs": len(scores),
        "lemmas": len(np.unique(np.asarray(lemmas))),
        "same": int(labels.sum()),
        "threshold_from": chosen.source,
        "thresholds": chosen.thresholds,
        "accuracy": float(correct.mean()),
        "accuracy_ci": percentile_interval(correct[rows].mean(axis=1)),
        "auc": roc_auc(scores, labels),
        "auc_ci": percentile_interval(resampled_roc_auc(scores, labels, rows)),
        "resamples": n_resamples,
    }


def _interval(value: float | None, interval: list[float] | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" + (f" [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else "")


def binary_pair_line(entry: Mapping[str, Any]) -> str:
    """The line of binary usage pairs (WiC, MCL-WiC, AM2iCo): accuracy and ROC AUC with their 95% intervals.

    Parameters
    ----------
    entry : mapping
        ``metrics.json``'s ``usage_pairs`` of ``wsd evaluate --dataset wic`` (:func:`binary_pair_scores`, ``file``,
        ``dev``).

    Returns
    -------
    str

    Examples
    --------
    >>> binary_pair_line({"file": "d.txt", "dev": None, "pairs": 4, "lemmas": 2, "threshold_from": "lemma-cv",
    ...                   "thresholds": [0.5, 0.5], "accuracy": 1.0, "accuracy_ci": [1.0, 1.0], "auc": 1.0,
    ...                   "auc_ci": None})  # doctest: +NORMALIZE_WHITESPACE
    'usage pairs: same sense or not by a cosine threshold, accuracy 1.000 [1.000, 1.000] (threshold by 2-fold
     lemma cross-validation); ROC AUC 1.000 (4 pairs of 2 lemmas; d.txt)'
    """
    if entry["threshold_from"] == "dev":
        how = f"threshold {entry['thresholds'][0]:.3f} chosen on {entry['dev']}"
    else:
        how = f"threshold by {len(entry['thresholds'])}-fold lemma cross-validation"
    return (
        f"usage pairs: same sense or not by a cosine threshold, accuracy "
        f"{_interval(entry['accuracy'], entry['accuracy_ci'])} ({how}); ROC AUC "
        f"{_interval(entry['auc'], entry['auc_ci'])} ({entry['pairs']:,} pairs of {entry['lemmas']:,} lemmas; "
        f"{entry['file']})"
    )
