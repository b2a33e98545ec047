"""The means the scorers combine scores with: F (harmonic), the geometric mean, the instance-weighted mean.

One definition each, shared by the SemEval-2010, SemEval-2013, RUSSE and generic scorers, so that the
conventions of the official scorers (F is 0 when precision and recall are both 0; a geometric mean of a
NaN or negative score is NaN; words are weighted by their gold instances) live in one place.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

#: The key of a per-target score dict holding the target's number of gold instances (its weight).
N_INSTANCES = "n_instances"


def f_score(precision: float, recall: float) -> float:
    """The harmonic mean of precision and recall (0.0 when both are 0).

    Parameters
    ----------
    precision, recall : float
        Each in [0, 1].

    Returns
    -------
    float
        ``2 * precision * recall / (precision + recall)``, or 0.0 when the sum is not positive.

    Examples
    --------
    >>> f_score(0.5, 1.0)
    0.6666666666666666
    >>> f_score(0.0, 0.0)
    0.0
    """
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def geometric_mean(a: float, b: float) -> float:
    """``sqrt(a * b)``; NaN when either is NaN or negative.

    Parameters
    ----------
    a, b : float
        The two scores (SemEval's ``avg`` is that of F and V-measure, or of FNMI and Fuzzy B-Cubed F).

    Returns
    -------
    float
        Their geometric mean.

    Examples
    --------
    >>> geometric_mean(0.25, 1.0)
    0.5
    """
    return math.sqrt(a * b) if a >= 0 and b >= 0 else math.nan


def weighted_mean(values: Sequence[float], weights: Sequence[float]) -> float:
    """Mean of ``values`` weighted by ``weights`` (NaN when the weights sum to 0).

    Parameters
    ----------
    values : sequence of float
        The values (per-target scores).
    weights : sequence of float
        Their weights (numbers of gold instances), as long as ``values``.

    Returns
    -------
    float
        The weighted mean, or NaN when the weights do not sum to a positive number.

    Examples
    --------
    >>> weighted_mean([1.0, 0.0], [3, 1])
    0.75
    """
    weights_arr = np.asarray(weights, dtype=np.float64)
    total = weights_arr.sum()
    if total <= 0:
        return math.nan
    return float((np.asarray(values, dtype=np.float64) * weights_arr).sum() / total)


def instance_weighted(per_target: Sequence[Mapping[str, float]], names: Iterable[str]) -> dict[str, float]:
    """Each named score averaged over targets, weighted by the targets' gold instances (``n_instances``).

    Parameters
    ----------
    per_target : sequence of mapping
        One score dict per target, each with ``n_instances`` and the named scores.
    names : iterable of str
        The scores to average, in the order of the result.

    Returns
    -------
    dict of str to float
        ``{name: weighted mean}`` (NaN for no targets).

    Examples
    --------
    >>> instance_weighted([{"ari": 1.0, "n_instances": 3}, {"ari": 0.0, "n_instances": 1}], ["ari"])
    {'ari': 0.75}
    """
    weights = [scores[N_INSTANCES] for scores in per_target]
    return {name: weighted_mean([scores[name] for scores in per_target], weights) for name in names}


def total_instances(per_target: Iterable[Mapping[str, float]]) -> int:
    """The gold instances of all targets together.

    Parameters
    ----------
    per_target : iterable of mapping
        One score dict per target, each with ``n_instances``.

    Returns
    -------
    int

    Examples
    --------
    >>> total_instances([{"n_instances": 3}, {"n_instances": 1}])
    4
    """
    return int(sum(scores[N_INSTANCES] for scores in per_target))
