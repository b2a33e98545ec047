"""Trends of each sense's proportion over every slice: a rank correlation and a least-squares slope with an interval.

:func:`sense_trends` reads the ``counts`` table of :func:`wsd.change.compare_slices` (uses per target, slice and
sense) and gives one row per target and sense over the slices where the target has at least ``min_uses`` uses
(at least :data:`TREND_MIN_SLICES` of them):

- ``slices``: how many slices the trend spans; ``first_slice``, ``last_slice`` name its ends;
- ``proportion_first``, ``proportion_last``: the sense's proportion in the first and the last of them;
- ``tau``, ``p_value``: Kendall's rank correlation of the proportion with the slice order, and its two-sided
  p-value (exact for few slices without ties: five slices in order give 0.017, four only 0.083); a sense whose
  proportion never moves has ``tau`` 0 and ``p_value`` 1;
- ``slope``: the least-squares slope of the proportion against the slice's position in the order (the change of
  proportion per slice; a slice left out for too few uses leaves a gap), with its bootstrap interval
  ``slope_low``, ``slope_high`` (uses resampled within each slice, seeded:
  :func:`wsd.change.uncertainty.slope_intervals`);
- ``trend``: ``rising`` when ``p_value < alpha`` and the whole interval is above 0, ``falling`` when
  ``p_value < alpha`` and it is below 0, else ``no trend``.

>>> import pandas as pd
>>> counts = pd.DataFrame({"target": "w", "slice": [s for s in "abcde" for _ in (0, 1)], "sense": [0, 1] * 5,
...                        "count": [90, 10, 70, 30, 50, 50, 20, 80, 10, 90]})
>>> table = sense_trends(counts, list("abcde"), min_uses=10)
>>> table[["sense", "trend"]].values.tolist()
[[0, 'falling'], [1, 'rising']]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from wsd.change.uncertainty import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, seed_for, slope_intervals

__all__ = ["TREND_ALPHA", "TREND_COLUMNS", "TREND_MIN_SLICES", "sense_trends"]

#: The fewest slices (each with at least ``min_uses`` uses) a trend is fitted over.
TREND_MIN_SLICES = 3
#: The level of the rank correlation's test for ``rising`` / ``falling``.
TREND_ALPHA = 0.05
#: The columns of the trends table, in order.
TREND_COLUMNS = [
    "target",
    "sense",
    "slices",
    "first_slice",
    "last_slice",
    "proportion_first",
    "proportion_last",
    "tau",
    "p_value",
    "slope",
    "slope_low",
    "slope_high",
    "trend",
]


def _kendall(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    from scipy.stats import kendalltau

    if np.ptp(y) == 0:  # no movement: no correlation, and no evidence of one
        return 0.0, 1.0
    found = kendalltau(x, y)
    return float(found.statistic), float(found.pvalue)


def sense_trends(
    counts: pd.DataFrame,
    order: list[str],
    *,
    min_uses: int,
    min_slices: int = TREND_MIN_SLICES,
    alpha: float = TREND_ALPHA,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    random_state: int = 0,
) -> pd.DataFrame:
    """The trend of every sense's proportion over the slices, per target (see the module docstring).

    Parameters
    ----------
    counts : pandas.DataFrame
        ``target``, ``slice``, ``sense``, ``count``: every sense of a target in every slice where it has uses
        (zeros included), as :func:`wsd.change.compare_slices` gives it.
    order : list of str
        The slices, earliest first (a slice's position in it is its x).
    min_uses : int
        The fewest uses of the target a slice needs to take part.
    min_slices : int
        The fewest such slices for a trend; a target with fewer has no rows.
    alpha : float
        The level of the rank correlation's test.
    resamples : int
        Bootstrap resamples of the slope.
    confidence : float
        The slope interval's level.
    random_state : int
        The seed (each target's resamples depend on it and the target only).

    Returns
    -------
    pandas.DataFrame
        :data:`TREND_COLUMNS`, sorted by target and sense.
    """
    rows = []
    position = {label: i for i, label in enumerate(order)}
    for target, part in counts.groupby("target", sort=True):
        table = part.pivot_table(index="slice", columns="sense", values="count", aggfunc="sum", fill_value=0)
        table = table.loc[sorted(table.index, key=position.__getitem__)]
        table = table[table.sum(axis=1) >= min_uses]
        if len(table) < max(min_slices, 2):
            continue
        values = table.to_numpy(dtype=np.int64)
        x = np.array([position[label] for label in table.index], dtype=np.float64)
        proportions = values / values.sum(axis=1, keepdims=True)
        slope, low, high = slope_intervals(
            x,
            values,
            resamples=resamples,
            confidence=confidence,
            random_state=seed_for(random_state, "trend", str(target)),
        )
        for k, sense in enumerate(table.columns):
            tau, p_value = _kendall(x, proportions[:, k])
            trend = "no trend"
            if p_value < alpha and low[k] > 0:
                trend = "rising"
            elif p_value < alpha and high[k] < 0:
                trend = "falling"
            rows.append(
                (
                    str(target),
                    int(sense),
                    len(table),
                    str(table.index[0]),
                    str(table.index[-1]),
                    float(proportions[0, k]),
                    float(proportions[-1, k]),
                    tau,
                    p_value,
                    float(slope[k]),
                    float(low[k]),
                    float(high[k]),
                    trend,
                )
            )
    return pd.DataFrame(rows, columns=TREND_COLUMNS)
