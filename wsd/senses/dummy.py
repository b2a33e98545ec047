"""The sense-induction baselines as one estimator, ``DummyClusterer(strategy=...)``, and the row hash behind ``random``.

Like scikit-learn's ``DummyClassifier``, the baselines are one estimator with a ``strategy``: ``one-sense``
(every occurrence one sense), ``one-per-instance`` (each occurrence its own sense) and ``random``
(``n_clusters`` random senses, seeded).

>>> import numpy as np
>>> X = np.arange(8.0).reshape(4, 2)
>>> DummyClusterer(strategy="one-sense").fit(X).labels_.tolist()
[0, 0, 0, 0]
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted

from wsd.errors import InputError
from wsd.senses.clusterers import _Clusterer
from wsd.senses.labels import size_order
from wsd.senses.validation import Integer, Options, RandomStateLike

#: The baseline strategies, in the order ``BASELINE_METHODS`` lists them.
STRATEGIES: tuple[str, ...] = ("one-sense", "one-per-instance", "random")


def hash_rows(X: np.ndarray, seed: int) -> np.ndarray:
    """A seeded 64-bit hash of each row's float64 bytes (FNV-style mixing, splitmix64 finaliser).

    Why a hand-written hash: the ``random`` baseline must give the *same vector* the same random sense
    wherever it meets it — in ``fit``, in ``predict`` on new occurrences in any order, after save/load and
    in another process. A random draw per row would depend on row order; Python's ``hash`` is salted per
    process; a cryptographic hash per row would be a Python loop per occurrence. This one is a vector
    operation per dimension, depends only on the row's bytes (as float64, so a float32 vector and its
    float64 copy agree) and the seed, and is frozen: saved ``random`` models rely on it bit for bit.

    Parameters
    ----------
    X : array-like of shape (n, m)
        Rows to hash (converted to float64).
    seed : int
        Seed mixed into every hash (0 <= seed < 2**64).

    Returns
    -------
    ndarray of uint64, shape (n,)

    Examples
    --------
    >>> rows = np.array([[1.0, 2.0], [1.0, 2.0], [2.0, 1.0]])
    >>> h = hash_rows(rows, 0)
    >>> bool(h[0] == h[1]), bool(h[0] == h[2])
    (True, False)
    """
    bits = np.ascontiguousarray(X, dtype=np.float64).view(np.uint64)
    h = np.full(len(bits), np.uint64(seed) ^ np.uint64(0x9E3779B97F4A7C15), dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    with np.errstate(over="ignore"):
        for column in bits.T:  # one vector operation per dimension, not per occurrence
            h = (h ^ column) * prime
        h ^= h >> np.uint64(30)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(27)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(31)
    return h


def hash_seed(random_state: Any) -> int:
    """The seed of :func:`hash_rows` for a ``random_state``: an int is used as it is, else one is drawn.

    Parameters
    ----------
    random_state : int, RandomState or None
        The estimator's ``random_state``.

    Returns
    -------
    int
    """
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


class DummyClusterer(_Clusterer):
    """Baseline sense induction that ignores the structure of the vectors.

    ``one-sense``: every occurrence is sense 0. ``one-per-instance``: occurrence i is sense i (``predict``
    gives a new vector the sense of the nearest training vector). ``random``: each vector's sense is a
    seeded hash of its float64 bytes modulo ``min(n_clusters, n)``, so the same vector always gets the same
    sense (see :func:`hash_rows`); senses are numbered by decreasing size, and hash buckets that received
    no training vector are mapped onto the existing senses (round robin), so ``predict`` never invents one.
    ``fit`` looks only at the number of vectors and, for ``random``, at their bytes.

    Parameters
    ----------
    strategy : str
        ``one-sense``, ``one-per-instance`` or ``random``.
    n_clusters : int
        Number of random senses (``random`` only).
    random_state : int, RandomState or None
        Seeds the ``random`` hash (an int is the hash seed itself).

    Attributes
    ----------
    labels_ : ndarray of int64 (n,)
        The sense of each training vector.
    n_clusters_ : int
        Number of senses found.
    random_seed_ : int
        The hash seed (``random``).
    bucket_senses_ : ndarray of int64
        The sense of each hash bucket (``random``).
    cluster_centers_ : ndarray
        The training vectors (``one-per-instance``; ``predict`` uses them).
    n_features_in_ : int

    Examples
    --------
    >>> X = np.arange(12.0).reshape(6, 2)
    >>> model = DummyClusterer(strategy="random", n_clusters=2, random_state=0).fit(X)
    >>> bool((model.predict(X) == model.labels_).all())
    True
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "strategy": [Options(STRATEGIES)],
        "n_clusters": [Integer(1)],
        "random_state": [RandomStateLike()],
    }

    def __init__(self, *, strategy: str = "one-sense", n_clusters: int = 2, random_state: Any = None):
        self.strategy = strategy
        self.n_clusters = n_clusters
        self.random_state = random_state

    def _fit_labels(self, X: np.ndarray) -> np.ndarray:
        """The baseline sense of each training vector (:meth:`fit`); sets the strategy's fitted attributes."""
        n = len(X)
        if self.strategy == "one-sense":
            labels = np.zeros(n, dtype=np.int64)
        elif self.strategy == "one-per-instance":
            labels = np.arange(n, dtype=np.int64)
            self.cluster_centers_ = X.copy()
        else:
            n_buckets = min(int(self.n_clusters), n)
            self.random_seed_ = hash_seed(self.random_state)
            buckets = (hash_rows(X, self.random_seed_) % np.uint64(n_buckets)).astype(np.int64)
            new_id = size_order(buckets, n_buckets)
            sizes = np.bincount(buckets, minlength=n_buckets)
            n_senses = int((sizes > 0).sum())
            bucket_senses = new_id.copy()
            empty = sizes == 0
            bucket_senses[empty] = np.flatnonzero(empty) % n_senses
            self.bucket_senses_ = bucket_senses
            labels = bucket_senses[buckets]
        self.n_clusters_ = int(labels.max()) + 1 if n else 0
        return labels

    def predict(self, X: Any) -> np.ndarray:
        """The baseline sense of new vectors.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Vectors of the training width.

        Returns
        -------
        ndarray of int64, shape (n_samples,)
        """
        check_is_fitted(self, "labels_")
        try:
            X = check_array(X, dtype=np.float64, ensure_min_samples=0)
        except ValueError as error:
            raise InputError(f"occurrence vectors: {error}") from None
        if X.shape[1] != self.n_features_in_:
            raise InputError(
                f"X has {X.shape[1]} features, but DummyClusterer is expecting {self.n_features_in_} features as input"
            )
        if self.strategy == "one-sense":
            return np.zeros(len(X), dtype=np.int64)
        if self.strategy == "one-per-instance":
            from wsd.senses.soft import centroid_distances

            return np.argmin(centroid_distances(X, self.cluster_centers_), axis=1).astype(np.int64)
        return random_senses(X, self.random_seed_, self.bucket_senses_)


def random_senses(X: np.ndarray, seed: int, bucket_senses: np.ndarray) -> np.ndarray:
    """The ``random`` baseline's sense of each row: its hash bucket's sense.

    Parameters
    ----------
    X : ndarray of shape (n, m)
        Raw vectors (before any preprocessing).
    seed : int
        The hash seed.
    bucket_senses : ndarray of int64
        The sense of each bucket (its length is the number of buckets).

    Returns
    -------
    ndarray of int64, shape (n,)
    """
    buckets = (hash_rows(X, seed) % np.uint64(len(bucket_senses))).astype(np.int64)
    return bucket_senses[buckets]
