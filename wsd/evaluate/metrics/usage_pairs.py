"""Usage-pair agreement: how the cosine of two uses' vectors follows the human judgment of the pair.

Word Usage Graphs (DWUG EN, NorDiaChange, RuSemShift) judge pairs of uses of a word from 1 (unrelated) to 4
(identical). The agreement is Spearman's ρ between the cosine of the two uses' vectors and the pair's median
judgment: per word over its judged pairs, and pooled over every pair. It needs no clustering, so it measures the
vector space itself (what usage-pair tuning trains for). The judgments are read by
:mod:`wsd.workflows.usage_pairs`; this module holds the figures and their line of text.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    >>> usage_pair_lines({"file": "j", "reason": "no judgments file in d"})
    ['usage pairs: not measured (no judgments file in d)']
    """
    if not entry:
        return []
    if "reason" in entry:
        return [f"usage pairs: not measured ({entry['reason']})"]
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
    return [line]
