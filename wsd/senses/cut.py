"""The similarity cut of WUG-like senses, learned from usage pairs judged "same meaning" or not.

DWUG-style gold senses are a correlation clustering of the judgment graph: two uses belong together where their
median judgment lies above the middle of the 1–4 scale. :class:`~wsd.senses.SenseInducer` with
``method="agglomerative"`` and ``similarity_cut=c`` clusters the same way from an encoder's cosines (average
linkage, merging while the mean similarity between two clusters is at least ``c``); these functions find the ``c``
at which the encoder's cosine best agrees with human "same" / "different" calls. ``wsd evaluate --dataset wug``
reports it (``metrics.json`` → ``usage_pairs`` → ``sense_cut``), on the vectors the clusterer sees.

Measured in ``experiments/results/wug_cut/wug_cut.md``: for encoders tuned on Word-in-Context pairs, the cut learned
on half of DWUG EN's words gives senses whose JSD ranks the other half's change far better than the silhouette's
choice of k; for untuned encoders it does not.
"""

from __future__ import annotations

import numpy as np

#: The middle of the DWUG judgment scale (1 unrelated – 4 identical): above it a pair is "same meaning".
SCALE_MIDPOINT = 2.5


def best_cut(similarity: np.ndarray, same: np.ndarray) -> tuple[float, float]:
    """The similarity threshold that tells "same" pairs from "different" ones most accurately.

    A pair is called "same" when its similarity is at least the threshold. Every distinct split of the sorted
    similarities is tried (the exact maximiser); the threshold returned is the midpoint between the two
    similarities the best split falls between (0.01 beyond the extremes), the smallest on a tie.

    Parameters
    ----------
    similarity : ndarray of shape (m,)
        Similarity (e.g. cosine) of each pair.
    same : ndarray of bool, shape (m,)
        Whether the pair was judged "same meaning".

    Returns
    -------
    (float, float)
        The threshold and its accuracy over the pairs.

    Raises
    ------
    ValueError
        When there is no pair, the lengths differ or a similarity is not finite.

    Examples
    --------
    >>> best_cut(np.array([0.1, 0.2, 0.8, 0.9]), np.array([False, False, True, True]))
    (0.5, 1.0)
    """
    s = np.asarray(similarity, dtype=np.float64)
    y = np.asarray(same, dtype=bool)
    if s.ndim != 1 or s.shape != y.shape:
        raise ValueError(f"similarity and same must be 1-d of one length, not {s.shape} and {y.shape}")
    if len(s) == 0:
        raise ValueError("no pair to learn a cut from")
    if not np.isfinite(s).all():
        raise ValueError("a similarity is not finite")
    order = np.argsort(s, kind="stable")
    s, y = s[order], y[order]
    values, starts = np.unique(s, return_index=True)
    # a threshold just at values[i] calls "same" every pair from starts[i] on, "different" every pair before it
    different_before = np.concatenate([[0], np.cumsum(~y)])[starts]
    same_from = int(y.sum()) - np.concatenate([[0], np.cumsum(y)])[starts]
    correct = np.append(different_before + same_from, int((~y).sum()))
    best = int(np.argmax(correct))
    edges = np.concatenate([[values[0] - 0.01], (values[:-1] + values[1:]) / 2, [values[-1] + 0.01]])
    return float(edges[best]), float(correct[best] / len(s))


def judged_cut(similarity: np.ndarray, judgment: np.ndarray, midpoint: float = SCALE_MIDPOINT) -> tuple[float, float]:
    """:func:`best_cut` for graded judgments: above ``midpoint`` "same", below "different", at it left out.

    Parameters
    ----------
    similarity : ndarray of shape (m,)
        Similarity of each judged pair.
    judgment : ndarray of shape (m,)
        Its (median) judgment, e.g. on DWUG's 1–4 scale.
    midpoint : float
        The judgment that is neither.

    Returns
    -------
    (float, float)
        The threshold and its accuracy over the pairs off the midpoint.

    Raises
    ------
    ValueError
        When no pair is off the midpoint, or as :func:`best_cut`.

    Examples
    --------
    >>> judged_cut(np.array([0.1, 0.9, 0.5]), np.array([1.0, 4.0, 2.5]))
    (0.5, 1.0)
    """
    s = np.asarray(similarity, dtype=np.float64)
    j = np.asarray(judgment, dtype=np.float64)
    if s.shape != j.shape:
        raise ValueError(f"similarity and judgment must have one shape, not {s.shape} and {j.shape}")
    keep = j != midpoint
    if not keep.any():
        raise ValueError(f"no judged pair off the scale's midpoint {midpoint:g}")
    return best_cut(s[keep], j[keep] > midpoint)
