"""Change measures between two slices of a word's occurrences: JSD, APD, PRT and the binary WUG rule.

Each measure compares the uses of one word in two slices of a corpus (two periods, two sources):

==========  ========================================================================================
measure     definition
==========  ========================================================================================
``jsd``     Jensen–Shannon *distance* (base 2: the square root of the divergence, in [0, 1]) between
            the two slices' sense distributions — exactly how the WUG datasets define
            ``change_graded`` (``scipy.spatial.distance.jensenshannon(p, q, base=2)``)
``apd``     average pairwise cosine distance between every use of slice A and every use of slice B
``prt``     cosine distance between the two slices' mean vectors ("prototypes")
``binary``  the WUG rule: the word changed when some sense has at most ``k`` uses in one slice and at
            least ``n`` in the other (DWUG EN: k=1, n=5; NorDiaChange: k=1, n=3)
==========  ========================================================================================

The WUG rule is an evaluation rule (the gold's ``change_binary``): it looks at counts, not at how many uses a
slice has. Which senses *appeared* or *vanished* is decided by :func:`sense_shifts`, which asks for evidence:
at least :data:`PRESENT_MIN` uses where the sense is present, at most :data:`ABSENT_MAX` where it is absent,
and a one-sided Fisher exact test at :data:`SHIFT_ALPHA` that its proportion is lower where it is absent (a
sense seen once in a slice of 14 has not vanished from the next; one at 40 of 100 uses, then 0 of 100, has).

APD over all ``len(a) × len(b)`` pairs is computed exactly in ``O((len(a) + len(b)) · d)``: the mean of
the pairwise cosine similarities equals the dot product of the two slices' means of unit vectors, so no
pair sampling is needed at any corpus size.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wsd.errors import InputError
from wsd.io.rows import MappedRows

__all__ = [
    "ABSENT_MAX",
    "PRESENT_MIN",
    "SHIFT_ALPHA",
    "BinaryChange",
    "SenseShift",
    "SliceSummary",
    "apd",
    "binary_change",
    "jsd_distance",
    "prt",
    "sense_shifts",
    "summarise_slice",
]

#: The fewest uses of a sense in the slice where it is present, for it to count as appeared or vanished.
PRESENT_MIN = 5
#: The most uses of a sense in the slice where it counts as absent.
ABSENT_MAX = 1
#: The level of the one-sided Fisher exact test of :func:`sense_shifts` (per sense and pair, uncorrected).
SHIFT_ALPHA = 0.05


def _distribution(counts: object, name: str) -> np.ndarray:
    values = np.asarray(counts, dtype=np.float64)
    if values.ndim != 1:
        raise InputError(f"{name}: a sense distribution must be one-dimensional, got shape {values.shape}")
    if values.size and (not np.all(np.isfinite(values)) or np.any(values < 0)):
        raise InputError(f"{name}: sense counts must be finite and non-negative, got {values.tolist()}")
    total = values.sum()
    if total <= 0:
        raise InputError(f"{name}: the sense distribution is empty (no uses in this slice)")
    return values / total


def jsd_distance(p: object, q: object) -> float:
    """Jensen–Shannon distance (base 2) between two sense distributions.

    Parameters
    ----------
    p, q : array-like of float
        Counts or probabilities of the same senses in the same order, in two slices. Each is normalised
        to sum to 1.

    Returns
    -------
    float
        ``sqrt(JS(p, q))`` with base-2 logarithms: 0 for equal distributions, 1 for disjoint ones.

    Raises
    ------
    InputError
        When the two have different lengths, a value is negative or not finite, or a slice has no uses.

    Examples
    --------
    >>> round(jsd_distance([10, 0], [7, 4]), 6)
    0.459574
    >>> jsd_distance([3, 0], [0, 5])
    1.0
    """
    a = _distribution(p, "slice A")
    b = _distribution(q, "slice B")
    if a.shape != b.shape:
        raise InputError(f"the two sense distributions have {a.size} and {b.size} senses; they must be the same senses")
    middle = (a + b) / 2.0
    divergence = 0.5 * (_kl(a, middle) + _kl(b, middle))
    return float(np.sqrt(min(max(divergence, 0.0), 1.0)))


def _kl(p: np.ndarray, m: np.ndarray) -> float:
    used = p > 0
    return float(np.sum(p[used] * np.log2(p[used] / m[used])))


#: Rows converted to float64 at a time, so a slice of a million uses never needs a float64 copy of itself.
_CHUNK_ROWS = 8192


@dataclass(frozen=True)
class SliceSummary:
    """What APD and PRT need of one slice's vectors: their mean and the mean of their unit vectors.

    Parameters
    ----------
    name : str
        The slice, for error messages (``slice A``).
    mean : ndarray of shape (d,)
        The mean vector.
    unit_mean : ndarray of shape (d,) or None
        The mean of the unit vectors; None when a vector is zero or not finite (no cosine distance then).
    """

    name: str
    mean: np.ndarray
    unit_mean: np.ndarray | None


def summarise_slice(vectors: object, name: str = "slice") -> SliceSummary:
    """One pass over a slice's vectors, in float64 chunks of the stored dtype: their mean and unit mean.

    Parameters
    ----------
    vectors : array-like of shape (n, d)
        The slice's vectors (an ndarray, a memory map, or a :class:`wsd.io.rows.MappedRows` read block by block).
    name : str
        The slice, for error messages.

    Returns
    -------
    SliceSummary

    Raises
    ------
    InputError
        When the slice is empty or not a 2-D array.

    Examples
    --------
    >>> summarise_slice([[3.0, 4.0], [1.0, 0.0]]).unit_mean.tolist()
    [0.8, 0.4]
    """
    rows = vectors if isinstance(vectors, np.ndarray | MappedRows) else np.asarray(vectors, dtype=np.float64)
    shape = tuple(rows.shape)
    if len(shape) != 2 or shape[0] == 0:
        raise InputError(f"{name}: need a non-empty 2-D array of vectors, got shape {shape}")
    total = np.zeros(shape[1], dtype=np.float64)
    unit_total = np.zeros(shape[1], dtype=np.float64)
    defined = True
    for start in range(0, shape[0], _CHUNK_ROWS):
        block = np.asarray(rows[start : start + _CHUNK_ROWS], dtype=np.float64)
        total += block.sum(axis=0)
        if defined:
            norms = np.linalg.norm(block, axis=1)
            defined = bool(np.all(np.isfinite(norms)) and not np.any(norms == 0))
            if defined:
                unit_total += (block / norms[:, None]).sum(axis=0)
    return SliceSummary(name, total / shape[0], unit_total / shape[0] if defined else None)


def _summary(vectors: object, name: str) -> SliceSummary:
    if isinstance(vectors, SliceSummary):
        return vectors
    return summarise_slice(vectors, name)


def _unit(vector: np.ndarray, name: str) -> np.ndarray:
    norm = np.linalg.norm(vector)
    if not np.isfinite(norm) or norm == 0:
        raise InputError(f"{name}: a vector is zero or not finite; cosine distance is undefined for it")
    return vector / norm


def _check_same_width(a: np.ndarray, b: np.ndarray) -> None:
    if a.shape[-1] != b.shape[-1]:
        raise InputError(f"the two slices' vectors have {a.shape[-1]} and {b.shape[-1]} dimensions")


def apd(a: object, b: object) -> float:
    """Average pairwise cosine distance between the uses of two slices.

    Parameters
    ----------
    a, b : array-like of shape (n_a, d) and (n_b, d), or SliceSummary
        The vectors of the uses in slice A and in slice B (or their :func:`summarise_slice`).

    Returns
    -------
    float
        ``mean over i, j of (1 - cos(a_i, b_j))``, over all ``n_a × n_b`` pairs (exact, in linear time).

    Raises
    ------
    InputError
        When a slice is empty, the widths differ, or a vector is zero or not finite.

    Examples
    --------
    >>> apd([[1.0, 0.0]], [[0.0, 1.0], [1.0, 0.0]])
    0.5
    """
    first, second = _summary(a, "slice A"), _summary(b, "slice B")
    for summary in (first, second):
        if summary.unit_mean is None:
            raise InputError(f"{summary.name}: a vector is zero or not finite; cosine distance is undefined for it")
    _check_same_width(first.mean, second.mean)
    assert first.unit_mean is not None and second.unit_mean is not None  # checked above
    return float(1.0 - first.unit_mean @ second.unit_mean)


def prt(a: object, b: object) -> float:
    """Cosine distance between the mean vectors of two slices (the prototype distance).

    Parameters
    ----------
    a, b
        The two slices' vectors or summaries, as for :func:`apd`.

    Returns
    -------
    float
        ``1 - cos(mean(a), mean(b))``.

    Raises
    ------
    InputError
        When a slice is empty, the widths differ, a vector is not finite, or a mean vector is zero.

    Examples
    --------
    >>> prt([[1.0, 0.0], [1.0, 0.0]], [[0.0, 2.0]])
    1.0
    """
    first, second = _summary(a, "slice A"), _summary(b, "slice B")
    _check_same_width(first.mean, second.mean)
    return float(1.0 - _unit(first.mean, "slice means") @ _unit(second.mean, "slice means"))


@dataclass(frozen=True)
class BinaryChange:
    """The binary change decision of the WUG rule and the senses behind it.

    Parameters
    ----------
    changed : bool
        Some sense was gained or lost.
    gained : list of int
        Positions of the senses with at most ``k`` uses in slice A and at least ``n`` in slice B.
    lost : list of int
        Positions of the senses with at least ``n`` uses in slice A and at most ``k`` in slice B.
    """

    changed: bool
    gained: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)


def _paired_counts(counts_a: object, counts_b: object, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Two slices' sense counts as arrays of ``dtype``, checked to be one-dimensional, alike and non-negative."""
    a: np.ndarray = np.asarray(counts_a, dtype=dtype)
    b: np.ndarray = np.asarray(counts_b, dtype=dtype)
    if a.ndim != 1 or a.shape != b.shape:
        raise InputError(f"the two slices' sense counts must have the same senses, got shapes {a.shape} and {b.shape}")
    if np.any(a < 0) or np.any(b < 0):
        raise InputError("sense counts must be non-negative")
    return a, b


def binary_change(counts_a: object, counts_b: object, *, k: int = 1, n: int = 5) -> BinaryChange:
    """The WUG binary change rule: a sense with at most ``k`` uses in one slice and at least ``n`` in the other.

    Parameters
    ----------
    counts_a, counts_b : array-like of int
        Uses of each sense in slice A (earlier) and slice B (later), same senses in the same order.
    k : int
        The most uses a sense may have in a slice and still count as absent there.
    n : int
        The fewest uses a sense must have in a slice to count as established there; ``n > k``.

    Returns
    -------
    BinaryChange

    Raises
    ------
    InputError
        When the counts differ in length or are negative, or ``k``/``n`` are not ``0 <= k < n``.

    Examples
    --------
    >>> binary_change([9, 0], [8, 6], k=1, n=5)
    BinaryChange(changed=True, gained=[1], lost=[])
    """
    if isinstance(k, bool) or isinstance(n, bool) or not (isinstance(k, int) and isinstance(n, int)) or not 0 <= k < n:
        raise InputError(f"the binary change rule needs integers 0 <= k < n, got k={k!r}, n={n!r}")
    a, b = _paired_counts(counts_a, counts_b, np.float64)
    gained = [int(i) for i in np.flatnonzero((a <= k) & (b >= n))]
    lost = [int(i) for i in np.flatnonzero((a >= n) & (b <= k))]
    return BinaryChange(changed=bool(gained or lost), gained=gained, lost=lost)


@dataclass(frozen=True)
class SenseShift:
    """A sense that appeared or vanished between two slices, with the evidence.

    Parameters
    ----------
    position : int
        The sense's position in the counts.
    change : {"appeared", "vanished"}
        Absent in slice A and present in B, or the reverse.
    p_value : float
        The one-sided Fisher exact test's p-value that its proportion is lower where it is absent.
    """

    position: int
    change: str
    p_value: float


def sense_shifts(
    counts_a: object,
    counts_b: object,
    *,
    present_min: int = PRESENT_MIN,
    absent_max: int = ABSENT_MAX,
    alpha: float = SHIFT_ALPHA,
) -> list[SenseShift]:
    """The senses that appeared or vanished between two slices, judged with their slices' counts.

    A sense *vanished* when it has at least ``present_min`` uses in slice A, at most ``absent_max`` in slice B,
    and a one-sided Fisher exact test on ``[[in A, rest of A], [in B, rest of B]]`` says its proportion in B is
    lower than in A at level ``alpha``; *appeared* is the reverse. A handful of uses in a small slice is not
    evidence: ``1`` of ``14`` uses, then none, is no vanishing; ``40`` of ``100``, then ``0`` of ``100``, is.

    Parameters
    ----------
    counts_a, counts_b : array-like of int
        Uses of each sense in slice A (earlier) and slice B (later), same senses in the same order.
    present_min : int
        The fewest uses where the sense is present.
    absent_max : int
        The most uses where it is absent; ``absent_max < present_min``.
    alpha : float
        The test's level, in (0, 1).

    Returns
    -------
    list of SenseShift
        In the order of the senses.

    Raises
    ------
    InputError
        When the counts differ in length or are negative, or the thresholds are out of range.

    Examples
    --------
    >>> sense_shifts([40, 60], [0, 100])[0].change
    'vanished'
    >>> sense_shifts([1, 13], [0, 14])
    []
    """
    from scipy.stats import fisher_exact

    if not 0 <= absent_max < present_min or not 0 < alpha < 1:
        raise InputError(
            f"sense shifts need 0 <= absent_max < present_min and 0 < alpha < 1, got {absent_max}, {present_min}, "
            f"{alpha}"
        )
    a, b = _paired_counts(counts_a, counts_b, np.int64)
    total_a, total_b = int(a.sum()), int(b.sum())
    found = []
    for i, (in_a, in_b) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        if in_a >= present_min and in_b <= absent_max:
            change, side = "vanished", "greater"  # A's odds of the sense above B's
        elif in_b >= present_min and in_a <= absent_max:
            change, side = "appeared", "less"
        else:
            continue
        p_value = float(fisher_exact([[in_a, total_a - in_a], [in_b, total_b - in_b]], alternative=side)[1])
        if p_value < alpha:
            found.append(SenseShift(i, change, p_value))
    return found
