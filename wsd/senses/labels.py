"""Label bookkeeping for induced senses: compacting, size ordering, noise assignment, merging small senses."""

from __future__ import annotations

import numpy as np

from wsd.senses.soft import centroid_distances

#: The label of an occurrence that belongs to no sense (HDBSCAN noise kept with ``noise="keep"``).
UNASSIGNED = -1


def compact_labels(labels: np.ndarray) -> np.ndarray:
    """Renumber the non-negative labels 0..k-1 in order of first occurrence; -1 stays -1.

    Parameters
    ----------
    labels : ndarray of int
        Labels, -1 for unassigned.

    Returns
    -------
    ndarray of int64

    Examples
    --------
    >>> compact_labels(np.array([5, 5, -1, 2, 5]))
    array([ 0,  0, -1,  1,  0])
    """
    labels = np.asarray(labels, dtype=np.int64)
    out = np.full(labels.shape, UNASSIGNED, dtype=np.int64)
    assigned = labels >= 0
    if assigned.any():
        values, first = np.unique(labels[assigned], return_index=True)
        rank = np.empty(len(values), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(values))
        out[assigned] = rank[np.searchsorted(values, labels[assigned])]
    return out


def size_order(labels: np.ndarray, n_senses: int) -> np.ndarray:
    """New id of each sense 0..n_senses-1 when numbered by decreasing size, ties by first occurrence.

    Senses with no occurrence come last. Returns ``new_id`` with ``new_id[old] = new``.

    Parameters
    ----------
    labels : ndarray of int
        Sense of each occurrence (-1 ignored).
    n_senses : int
        Number of senses.

    Returns
    -------
    ndarray of int64, shape (n_senses,)

    Examples
    --------
    >>> size_order(np.array([0, 1, 1, 2, 2]), 3)
    array([2, 0, 1])
    """
    labels = np.asarray(labels, dtype=np.int64)
    assigned = labels[labels >= 0]
    sizes = np.bincount(assigned, minlength=n_senses)[:n_senses]
    first = np.full(n_senses, len(labels), dtype=np.int64)
    positions = np.flatnonzero(labels >= 0)
    np.minimum.at(first, assigned, positions)
    order = np.lexsort((first, -sizes))
    new_id = np.empty(n_senses, dtype=np.int64)
    new_id[order] = np.arange(n_senses)
    return new_id


def size_renumbering(labels: np.ndarray, n_senses: int) -> tuple[np.ndarray, int] | None:
    """How to number senses by decreasing size and drop the empty ones, or None when nothing would change.

    Parameters
    ----------
    labels, n_senses
        The labels and their number of senses, as for :func:`size_order`.

    Returns
    -------
    (new_id, n_kept) or None
        ``new_id`` as :func:`size_order` gives it (the empty senses last) and ``n_kept``, the senses with an
        occurrence; None when the senses are already numbered by size and none is empty.

    Examples
    --------
    >>> size_renumbering(np.array([0, 0, 1]), 2) is None
    True
    >>> size_renumbering(np.array([1, 1, 0]), 3)
    (array([1, 0, 2]), 2)
    """
    new_id = size_order(labels, n_senses)
    n_kept = int((np.bincount(labels[labels >= 0], minlength=n_senses) > 0).sum())
    if n_kept == n_senses and np.array_equal(new_id, np.arange(n_senses)):
        return None
    return new_id, n_kept


def cluster_means(X: np.ndarray, labels: np.ndarray, n_senses: int) -> np.ndarray:
    """Mean vector of each sense 0..n_senses-1 (rows labelled -1 are ignored), shape (n_senses, dim).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Vectors.
    labels : ndarray of int
        Sense of each row (-1 ignored).
    n_senses : int
        Number of senses (senses without rows get a zero mean).

    Returns
    -------
    ndarray of shape (n_senses, m)
    """
    labels = np.asarray(labels, dtype=np.int64)
    assigned = labels >= 0
    indicator = np.zeros((n_senses, len(labels)))
    indicator[labels[assigned], np.flatnonzero(assigned)] = 1.0
    counts = indicator.sum(axis=1, keepdims=True)
    return (indicator @ X) / np.where(counts > 0, counts, 1.0)


def assign_noise(X: np.ndarray, labels: np.ndarray, distance: str) -> np.ndarray:
    """Give every -1 row the label of the nearest cluster mean; all-noise input becomes one sense (0).

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Vectors, one per label.
    labels : ndarray of int
        Labels, -1 for noise.
    distance : str
        ``euclidean`` or ``cosine``.

    Returns
    -------
    ndarray of int64
        Compact labels 0..k-1, no -1.

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [5.0], [4.0]])
    >>> assign_noise(X, np.array([0, 0, 1, -1]), "euclidean")
    array([0, 0, 1, 1])
    """
    labels = compact_labels(labels)
    noise = labels < 0
    if not noise.any():
        return labels
    n_senses = int(labels.max()) + 1 if (~noise).any() else 0
    if n_senses == 0:
        return np.zeros(len(labels), dtype=np.int64)
    centers = cluster_means(X, labels, n_senses)
    labels = labels.copy()
    labels[noise] = np.argmin(centroid_distances(X[noise], centers, distance), axis=1)
    return labels


def merge_small_senses(X: np.ndarray, labels: np.ndarray, min_size: int, distance: str) -> np.ndarray:
    """Map each sense smaller than ``min_size`` onto the nearest (by mean) sense of at least that size.

    Returns ``target`` with ``target[old_sense] = sense it is merged into`` (itself when it is large
    enough). When no sense is large enough, everything merges into the largest one (ties: first seen).

    Parameters
    ----------
    X, labels
        As for :func:`cluster_means`.
    min_size : int
        Smallest sense kept on its own.
    distance : str
        ``euclidean`` or ``cosine`` (between sense means).

    Returns
    -------
    ndarray of int64, shape (n_senses,)

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [0.2], [5.0], [9.0], [9.1], [9.2]])
    >>> merge_small_senses(X, np.array([0, 0, 0, 1, 2, 2, 2]), 2, "euclidean")
    array([0, 2, 2])
    """
    labels = np.asarray(labels, dtype=np.int64)
    n_senses = int(labels.max()) + 1 if (labels >= 0).any() else 0
    target = np.arange(n_senses)
    if n_senses <= 1:
        return target
    sizes = np.bincount(labels[labels >= 0], minlength=n_senses)
    large = sizes >= min_size
    if not large.any():
        large[np.argmin(size_order(labels, n_senses))] = True
    small = np.flatnonzero(~large)
    if len(small):
        centers = cluster_means(X, labels, n_senses)
        large_ids = np.flatnonzero(large)
        nearest = np.argmin(centroid_distances(centers[small], centers[large_ids], distance), axis=1)
        target[small] = large_ids[nearest]
    return target
