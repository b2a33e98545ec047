"""Scores of lexical semantic change against a gold standard: graded (Spearman ρ) and binary (accuracy, F1).

The standard evaluations of SemEval-2020 Task 1 and the WUG datasets:

====================  ===================================================================================
``graded_spearman``   Spearman's ρ between a system's change scores and the gold graded change
                      (``change_graded``; where a dataset has none, −``COMPARE``: lower mean relatedness
                      across periods = more change), over the words both have (subtask 2)
``binary_accuracy``   fraction of words whose binary decision equals ``change_binary`` (subtask 1)
``binary_f1``         F1 of the decision "changed" (positive class 1)
====================  ===================================================================================

ρ is undefined when either side is constant (a system that gives every word the same score, e.g. the
one-sense baseline's JSD of 0): :func:`spearman` then returns None, and the caller leaves the score out
rather than writing a NaN.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr

from wsd.errors import InputError

__all__ = ["binary_scores", "spearman"]

#: Change scores are compared to this many decimals (far below any real difference, far above rounding noise).
ROUND_DECIMALS = 10


def _paired(system: Sequence[float], gold: Sequence[float], what: str) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(system, dtype=np.float64)
    b = np.asarray(gold, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise InputError(f"{what}: {a.shape} system values for {b.shape} gold values; they must be paired")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InputError(f"{what}: a value is NaN or infinite")
    return a, b


def spearman(system: Sequence[float], gold: Sequence[float]) -> float | None:
    """Spearman's rank correlation of paired system and gold change scores (ties get average ranks).

    Parameters
    ----------
    system, gold : sequence of float
        One value per word, in the same order.

    Returns
    -------
    float or None
        ρ in [-1, 1]; None when fewer than two words or either side is constant (ρ undefined).

    Raises
    ------
    InputError
        When the lengths differ or a value is not finite.

    Examples
    --------
    >>> spearman([0.1, 0.5, 0.3], [1.0, 3.0, 2.0])
    1.0
    >>> spearman([0.0, 0.0, 0.0], [1.0, 3.0, 2.0]) is None
    True
    >>> spearman([1.0, 1.0 - 1e-16, 1.0 - 2e-16], [1.0, 3.0, 2.0]) is None  # equal but for rounding noise
    True
    """
    a, b = _paired(system, gold, "graded change")
    # rounded first: scores equal up to floating-point noise (JSD of disjoint distributions: 1 - 1e-16) tie,
    # rather than being ranked by their rounding errors
    a, b = np.round(a, ROUND_DECIMALS), np.round(b, ROUND_DECIMALS)
    if len(a) < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    return float(spearmanr(a, b).statistic)


def binary_scores(system: Sequence[int | bool], gold: Sequence[int | bool]) -> dict[str, float]:
    """Accuracy and F1 (of the class "changed") of binary change decisions.

    Parameters
    ----------
    system, gold : sequence of bool or {0, 1}
        One decision per word, in the same order.

    Returns
    -------
    dict
        ``binary_accuracy`` and ``binary_f1`` (0 when the system and the gold have no positive in common).

    Raises
    ------
    InputError
        When the lengths differ, there are no words, or a value is not 0/1.

    Examples
    --------
    >>> binary_scores([1, 0, 1, 0], [1, 0, 0, 0])
    {'binary_accuracy': 0.75, 'binary_f1': 0.6666666666666666}
    """
    a, b = _paired(system, gold, "binary change")
    if not len(a):
        raise InputError("binary change: no words to score")
    if not (np.isin(a, (0, 1)).all() and np.isin(b, (0, 1)).all()):
        raise InputError("binary change: decisions must be 0 or 1")
    tp = float(np.sum((a == 1) & (b == 1)))
    predicted, actual = float(a.sum()), float(b.sum())
    f1 = 2 * tp / (predicted + actual) if predicted + actual else 0.0
    return {"binary_accuracy": float(np.mean(a == b)), "binary_f1": f1}
