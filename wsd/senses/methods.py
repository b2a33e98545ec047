"""The names of the sense-induction methods and the record one clustering leaves (labels, mixture, validity).

The estimators behind the names: :data:`wsd.senses.clusterers.CLUSTERERS` (clustering methods) and
:class:`wsd.senses.dummy.DummyClusterer` (the baselines, one ``strategy`` each).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from wsd.schema import METHODS

if TYPE_CHECKING:
    from sklearn.mixture import GaussianMixture

#: The metric each method clusters with (used for silhouette scores and the default centroid distance).
METHOD_METRIC: dict[str, str] = {method: "euclidean" for method in METHODS} | {"agglomerative": "cosine"}


@dataclass
class Clustering:
    """One clustering of a word's occurrences: raw labels (-1 = noise); for ``gmm`` the fitted mixture.

    Parameters
    ----------
    labels : ndarray of int64 (n,)
        Cluster of each row (-1: noise).
    mixture : sklearn.mixture.GaussianMixture or None
        The fitted mixture (``gmm`` only).
    validity : float
        HDBSCAN's relative validity (NaN otherwise).
    """

    labels: np.ndarray
    mixture: GaussianMixture | None = None
    validity: float = float("nan")

    @classmethod
    def of(cls, estimator: Any) -> Clustering:
        """The record of a fitted clusterer (its ``labels_``, ``mixture_`` and ``relative_validity_``).

        Parameters
        ----------
        estimator : fitted clusterer
            Any estimator with ``labels_``.

        Returns
        -------
        Clustering
        """
        return cls(
            labels=np.asarray(estimator.labels_, dtype=np.int64),
            mixture=getattr(estimator, "mixture_", None),
            validity=float(getattr(estimator, "relative_validity_", float("nan"))),
        )
