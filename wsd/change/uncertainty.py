"""Bootstrap intervals of the change measures: resampling the uses within each slice, seeded.

Each slice's uses are resampled with replacement (as many as it has), independently in the two slices, and
the measure is recomputed on every resample, all resamples at once:

==========  ===========================================================================================
measure     what a resample changes
==========  ===========================================================================================
``jsd``     the two slices' sense counts (a multinomial draw of the slice's uses over its senses: exactly a
            resample of the uses' sense labels)
``apd``     the mean of the unit vectors of each slice (a resample of its rows)
``prt``     each slice's prototype (the mean of a resample of its rows)
==========  ===========================================================================================

The interval is the percentile interval of the resampled scores at ``confidence``, shifted by the bootstrap's
estimate of the measure's bias (the mean of the resampled scores minus the point score: a distance between two
noisy samples is biased upward, most for few uses), clipped to the measure's range, and widened where needed
to hold the point score. A slice of more than ``cap`` uses is resampled through a fixed random subsample of
``cap`` of its rows, whose resampled means are scaled back to the whole slice's spread (the deviation from
the subsample's mean times ``sqrt(cap / n)``, the *m out of n* bootstrap): the vectors read stay bounded at
any corpus size. :attr:`Intervals.subsampled` says when that happened.

>>> low, high = jsd_interval([20, 0], [10, 10], resamples=200, random_state=0)
>>> bool(low < 0.61 < high)
True
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from wsd.change.measures import SliceSummary, jsd_distance
from wsd.errors import ConfigError

__all__ = [
    "DEFAULT_CONFIDENCE",
    "DEFAULT_RESAMPLES",
    "DEFAULT_VECTOR_CAP",
    "Intervals",
    "check_bootstrap",
    "jsd_interval",
    "resample_counts",
    "seed_for",
    "shifted_percentile",
    "shrink_scores",
    "shrinkage_falls_back",
    "slope_intervals",
    "vector_intervals",
]

#: Bootstrap resamples per score (``change.resamples``).
DEFAULT_RESAMPLES = 200
#: The interval's confidence level (``change.confidence``).
DEFAULT_CONFIDENCE = 0.95
#: The most rows of one slice whose vectors are resampled (a bigger slice is subsampled to this many).
DEFAULT_VECTOR_CAP = 2000
#: The range of each measure (intervals are clipped to it).
_RANGE = {"jsd": (0.0, 1.0), "apd": (0.0, 2.0), "prt": (0.0, 2.0), "slope": (-np.inf, np.inf)}


def check_bootstrap(resamples: int, confidence: float) -> None:
    """Refuse a number of resamples below 10 or a confidence level outside (0, 1).

    Parameters
    ----------
    resamples : int
        Resamples per score.
    confidence : float
        The interval's level.

    Raises
    ------
    ConfigError
        When either is out of range.

    Examples
    --------
    >>> check_bootstrap(200, 0.95)
    """
    if isinstance(resamples, bool) or not isinstance(resamples, int | np.integer) or resamples < 10:
        raise ConfigError(f"resamples must be an integer of at least 10, got {resamples!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, float | int) or not 0 < confidence < 1:
        raise ConfigError(f"confidence must be a number between 0 and 1 (e.g. 0.95), got {confidence!r}")


def seed_for(random_state: int, *keys: str) -> np.random.Generator:
    """A generator for one score, from ``random_state`` and stable keys (target, slices).

    The same target and pair get the same resamples whichever other targets are compared.

    Parameters
    ----------
    random_state : int
        The seed.
    *keys : str
        What the score is of.

    Returns
    -------
    numpy.random.Generator

    Examples
    --------
    >>> int(seed_for(0, "bank", "1800", "1900").integers(10)) == int(seed_for(0, "bank", "1800", "1900").integers(10))
    True
    """
    words = [zlib.crc32(key.encode("utf-8")) for key in keys]
    return np.random.default_rng(np.random.SeedSequence([int(random_state), *words]))


def shifted_percentile(point: float, draws: np.ndarray, confidence: float, measure: str) -> tuple[float, float]:
    """The percentile interval of ``draws`` shifted by their bias, clipped to the range and holding ``point``.

    Parameters
    ----------
    point : float
        The score of the uses as observed.
    draws : ndarray of float
        The scores of the resamples (non-finite ones are left out).
    confidence : float
        The level, e.g. 0.95 for the 2.5th and 97.5th percentiles.
    measure : {"jsd", "apd", "prt", "slope"}
        Which range to clip to (a slope is not clipped).

    Returns
    -------
    (float, float)
        ``low <= point <= high``.

    Examples
    --------
    >>> [round(end, 6) for end in shifted_percentile(0.5, np.array([0.6, 0.7, 0.8]), 0.5, "jsd")]
    [0.45, 0.55]
    """
    finite = draws[np.isfinite(draws)]
    if finite.size == 0:
        return point, point
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(finite, [tail, 1.0 - tail])
    bias = float(finite.mean()) - point
    lowest, highest = _RANGE[measure]
    low = min(max(float(low) - bias, lowest), point)
    high = max(min(float(high) - bias, highest), point)
    return low, high


def shrink_scores(scores: np.ndarray, low: np.ndarray, high: np.ndarray, confidence: float) -> np.ndarray:
    """Each score shrunk toward the mean of all by its uncertainty: the empirical-Bayes posterior mean.

    Every score is taken as the true change plus noise of standard error ``se`` (read from its interval:
    ``(high - low) / (2 z)`` at the interval's level). The true changes of the targets are taken as normal, with the
    scores' mean and the variance that is left of the scores' variance once the mean squared error is taken off
    (``tau²``). Each score then moves toward the mean by ``se² / (tau² + se²)``: a precise score hardly moves, a
    score from a dozen uses moves most of the way, so it cannot rank first on noise alone. Where the scores spread
    no more than their noise explains (``tau² <= 0``), or there are fewer than three of them (``tau²`` cannot be
    estimated), every score is the mean: the data do not tell the targets apart, and a ranking by this score
    falls back to its tie-breaker (the interval's lower end, :data:`wsd.change.compare.RANK_KEYS`).

    Parameters
    ----------
    scores, low, high : ndarray of shape (n,)
        The point scores and their interval ends (one pair of slices, all targets).
    confidence : float
        The intervals' level (0.95).

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> scores = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.9])
    >>> low, high = scores - 0.01, scores + 0.01
    >>> low[-1], high[-1] = 0.0, 2.0  # 0.9 from a handful of uses: its interval spans the range
    >>> [round(float(x), 2) for x in shrink_scores(scores, low, high, 0.95)]  # it falls below the precise 0.5
    [0.1, 0.2, 0.3, 0.4, 0.5, 0.44]
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.size == 0:
        return scores.copy()
    tau2, se2 = _spread_and_noise(scores, low, high, confidence)
    if tau2 <= 0.0:
        return np.full_like(scores, scores.mean())
    return scores.mean() + (scores - scores.mean()) * (tau2 / (tau2 + se2))


def _spread_and_noise(scores: np.ndarray, low: object, high: object, confidence: float) -> tuple[float, np.ndarray]:
    """``tau²`` (0 below three scores) and each score's ``se²``, as :func:`shrink_scores` reads them."""
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + confidence / 2.0))
    se2 = ((np.asarray(high, dtype=np.float64) - np.asarray(low, dtype=np.float64)) / (2.0 * z)) ** 2
    tau2 = float(np.var(scores) - se2.mean()) if scores.size >= 3 else 0.0
    return tau2, se2


def shrinkage_falls_back(scores: object, low: object, high: object, confidence: float) -> bool:
    """Whether :func:`shrink_scores` gives every score the mean (so a ranking by it is its tie-breaker's).

    True for two or more scores that are fewer than three, or that spread no more than their noise explains; a
    lone score is its own mean, which is no fallback.

    Parameters
    ----------
    scores, low, high : array-like of shape (n,)
        The point scores and their interval ends.
    confidence : float
        The intervals' level.

    Returns
    -------
    bool

    Examples
    --------
    >>> shrinkage_falls_back([0.1, 0.3], [0.0, 0.2], [0.2, 0.4], 0.95)  # two targets: no spread to estimate
    True
    >>> shrinkage_falls_back([0.1, 0.5, 0.9], [0.09, 0.49, 0.89], [0.11, 0.51, 0.91], 0.95)
    False
    """
    values = np.asarray(scores, dtype=np.float64)
    if values.size < 2:
        return False
    return _spread_and_noise(values, low, high, confidence)[0] <= 0.0


def _jsd_rows(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Jensen–Shannon distances (base 2) of row-aligned count matrices, one per row."""
    p = p / p.sum(axis=1, keepdims=True)
    q = q / q.sum(axis=1, keepdims=True)
    m = (p + q) / 2.0
    with np.errstate(divide="ignore", invalid="ignore"):
        kl_p = np.where(p > 0, p * np.log2(p / m), 0.0).sum(axis=1)
        kl_q = np.where(q > 0, q * np.log2(q / m), 0.0).sum(axis=1)
    return np.sqrt(np.clip(0.5 * (kl_p + kl_q), 0.0, 1.0))


def jsd_interval(
    counts_a: object,
    counts_b: object,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    random_state: int | np.random.Generator = 0,
) -> tuple[float, float]:
    """Bootstrap interval of the JSD of two slices' sense counts (their uses resampled within each slice).

    Parameters
    ----------
    counts_a, counts_b : array-like of int
        Uses of each sense in slice A and slice B.
    resamples : int
        Bootstrap resamples of each slice.
    confidence : float
        The interval's level, in (0, 1).
    random_state : int or Generator
        The seed (a Generator is drawn from as it is).

    Returns
    -------
    (float, float)
        The interval (:func:`shifted_percentile`).

    Examples
    --------
    >>> jsd_interval([5, 5], [5, 5], random_state=0)[0]
    0.0
    """
    a = np.asarray(counts_a, dtype=np.int64)
    b = np.asarray(counts_b, dtype=np.int64)
    point = jsd_distance(a, b)
    rng = np.random.default_rng(random_state)  # a Generator is returned as it is
    draws_a = resample_counts(a, resamples, rng)
    draws_b = resample_counts(b, resamples, rng)
    return shifted_percentile(point, _jsd_rows(draws_a, draws_b), confidence, "jsd")


def resample_counts(counts: object, resamples: int, random_state: int | np.random.Generator = 0) -> np.ndarray:
    """Resample a slice's uses with replacement, as many as it has, and count them per sense, ``resamples`` times.

    A multinomial draw of the slice's size over its observed sense proportions is exactly a resample of its
    uses' sense labels. Every interval over sense counts (JSD, trend slopes) resamples through here.

    Parameters
    ----------
    counts : array-like of int
        Uses of each sense in the slice (at least one use in all).
    resamples : int
        Resamples.
    random_state : int or Generator
        The seed.

    Returns
    -------
    ndarray of shape (resamples, n_senses)
        The resampled counts; each row sums to the slice's uses.

    Examples
    --------
    >>> resample_counts([3, 0, 1], 5, random_state=0).sum(axis=1).tolist()
    [4, 4, 4, 4, 4]
    """
    values = np.asarray(counts, dtype=np.int64)
    rng = np.random.default_rng(random_state)  # a Generator is returned as it is
    return rng.multinomial(int(values.sum()), values / values.sum(), size=resamples)


def slope_intervals(
    positions: object,
    counts: object,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    random_state: int | np.random.Generator = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Least-squares slopes of each sense's proportion against slice position, with bootstrap intervals.

    Each slice's uses are resampled within the slice (:func:`resample_counts`), the proportions recomputed and
    the slopes refitted, all resamples at once; the interval is :func:`shifted_percentile` of the slopes.

    Parameters
    ----------
    positions : array-like of float, shape (n_slices,)
        Each slice's place in the slice order (0, 1, 2, ...; gaps where a slice is left out), at least two
        different values.
    counts : array-like of int, shape (n_slices, n_senses)
        Uses of each sense in each slice (every slice with at least one use).
    resamples, confidence, random_state
        As for :func:`jsd_interval`.

    Returns
    -------
    (ndarray, ndarray, ndarray)
        Per sense: the slope (change of proportion per slice step), the interval's low and high ends.

    Examples
    --------
    >>> slope, low, high = slope_intervals([0, 1, 2], [[90, 10], [50, 50], [10, 90]], random_state=0)
    >>> [round(float(s), 2) for s in slope], bool(low[1] > 0)
    ([-0.4, 0.4], True)
    """
    x = np.asarray(positions, dtype=np.float64)
    table = np.asarray(counts, dtype=np.int64)
    rng = np.random.default_rng(random_state)  # a Generator is returned as it is
    centred = (x - x.mean()) / np.sum((x - x.mean()) ** 2)  # slope = centred @ proportions
    point = centred @ (table / table.sum(axis=1, keepdims=True))
    draws = np.stack([resample_counts(row, resamples, rng) for row in table], axis=1)  # (resamples, slices, senses)
    slopes = np.einsum("s,rsk->rk", centred, draws / draws.sum(axis=2, keepdims=True))
    ends = [shifted_percentile(float(p), slopes[:, k], confidence, "slope") for k, p in enumerate(point)]
    return point, np.array([low for low, _ in ends]), np.array([high for _, high in ends])


@dataclass(frozen=True)
class Intervals:
    """The bootstrap intervals of APD and PRT for one pair of slices.

    Parameters
    ----------
    apd, prt : (float, float) or None
        The intervals (None: the measure is undefined for these vectors).
    subsampled : bool
        A slice had more than ``cap`` uses and was resampled through a subsample.
    """

    apd: tuple[float, float] | None
    prt: tuple[float, float] | None
    subsampled: bool


def _resampled_means(
    rows: np.ndarray, summary: SliceSummary, n: int, resamples: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray | None]:
    """The means and unit means of ``resamples`` resamples of a slice (``rows``: all of it, or a subsample)."""
    m = rows.shape[0]
    picks = rng.integers(0, m, size=(resamples, m))
    weights = np.bincount((np.arange(resamples)[:, None] * m + picks).ravel(), minlength=resamples * m)
    weights = weights.reshape(resamples, m) / m
    norms = np.linalg.norm(rows, axis=1)
    means = weights @ rows
    units = None
    if summary.unit_mean is not None:
        units = weights @ (rows / norms[:, None])
    if m < n:  # m out of n: the subsample's resampled deviations, scaled to the whole slice's
        scale = np.sqrt(m / n)
        means = summary.mean + scale * (means - rows.mean(axis=0))
        if units is not None:
            units = summary.unit_mean + scale * (units - (rows / norms[:, None]).mean(axis=0))
    return means, units


def _cosine_distance_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norms > 0, 1.0 - np.sum(x * y, axis=1) / norms, np.nan)


def vector_intervals(
    rows_a: np.ndarray,
    rows_b: np.ndarray,
    summary_a: SliceSummary,
    summary_b: SliceSummary,
    sizes: tuple[int, int],
    points: tuple[float | None, float | None],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    random_state: int | np.random.Generator = 0,
) -> Intervals:
    """Bootstrap intervals of APD and PRT between two slices, their rows resampled within each slice.

    Parameters
    ----------
    rows_a, rows_b : ndarray of shape (m, d)
        Each slice's vectors: all of them, or a random subsample of them (at most :data:`DEFAULT_VECTOR_CAP`).
    summary_a, summary_b : SliceSummary
        The whole slices' means (:func:`wsd.change.measures.summarise_slice`).
    sizes : (int, int)
        The whole slices' numbers of uses.
    points : (float or None, float or None)
        The point APD and PRT (None: undefined, no interval).
    resamples, confidence, random_state
        As for :func:`jsd_interval`.

    Returns
    -------
    Intervals

    Examples
    --------
    >>> from wsd.change.measures import summarise_slice
    >>> a, b = np.eye(2)[[0, 0, 1]], np.eye(2)[[1, 1, 0]]
    >>> found = vector_intervals(a, b, summarise_slice(a), summarise_slice(b), (3, 3), (0.5556, 0.2))
    >>> found.apd[0] <= 0.5556 <= found.apd[1]
    True
    """
    rng = np.random.default_rng(random_state)  # a Generator is returned as it is
    a = np.asarray(rows_a, dtype=np.float64)
    b = np.asarray(rows_b, dtype=np.float64)
    means_a, units_a = _resampled_means(a, summary_a, sizes[0], resamples, rng)
    means_b, units_b = _resampled_means(b, summary_b, sizes[1], resamples, rng)
    apd_point, prt_point = points
    apd_interval = prt_interval = None
    if apd_point is not None and units_a is not None and units_b is not None:
        draws = 1.0 - np.sum(units_a * units_b, axis=1)
        apd_interval = shifted_percentile(apd_point, draws, confidence, "apd")
    if prt_point is not None:
        prt_interval = shifted_percentile(prt_point, _cosine_distance_rows(means_a, means_b), confidence, "prt")
    subsampled = a.shape[0] < sizes[0] or b.shape[0] < sizes[1]
    return Intervals(apd_interval, prt_interval, subsampled)
