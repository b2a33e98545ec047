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
    similarities the best split falls between (above the lower one however close they are; 0.01 beyond the
    extremes, within a cosine's [-1, 1]), the smallest on a tie.

    Parameters
    ----------
    similarity : ndarray of shape (m,)
        Cosine of each pair.
    same : ndarray of bool or of 0/1, shape (m,)
        Whether the pair was judged "same meaning".

    Returns
    -------
    (float, float)
        The threshold and its accuracy over the pairs (at that threshold).

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
    given = np.asarray(same)
    if s.ndim != 1 or s.shape != given.shape:
        raise ValueError(f"similarity and same must be 1-d of one length, not {s.shape} and {given.shape}")
    if given.dtype != bool and not np.isin(given, (0, 1)).all():
        raise ValueError("same must be True/False (or 1/0) for each pair")
    y = given.astype(bool)
    if len(s) == 0:
        raise ValueError("no pair to learn a cut from")
    if not np.isfinite(s).all():
        raise ValueError("a similarity is not finite")
    order = np.argsort(s, kind="stable")
    s, y = s[order], y[order]
    values = np.unique(s)
    # candidates: one threshold per distinct split of the sorted similarities, each above the lower neighbour,
    # the ends 0.01 beyond the extremes, all within a cosine's [-1, 1] (clipping can merge two candidates)
    middle = np.maximum((values[:-1] + values[1:]) / 2, np.nextafter(values[:-1], np.inf))
    edges = np.clip(np.concatenate([[values[0] - 0.01], middle, [values[-1] + 0.01]]), -1.0, 1.0)
    called_same_from = np.searchsorted(s, edges, side="left")  # pairs from this position on have s >= edge
    different_before = np.concatenate([[0], np.cumsum(~y)])[called_same_from]
    same_from = int(y.sum()) - np.concatenate([[0], np.cumsum(y)])[called_same_from]
    correct = different_before + same_from
    best = int(np.argmax(correct))  # the first, so the smallest threshold on a tie
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
    if not np.isfinite(j).all():
        raise ValueError("a judgment is not finite")
    keep = j != midpoint
    if not keep.any():
        raise ValueError(f"no judged pair off the scale's midpoint {midpoint:g}")
    return best_cut(s[keep], j[keep] > midpoint)
