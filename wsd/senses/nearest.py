"""Few-shot disambiguation: label occurrences by their nearest sense-labelled examples (k-NN or sense centroids).

:class:`NearestSenseClassifier` is a scikit-learn classifier of one word's vectors. Every rule compares by cosine
similarity and gives each sense a *score* in cosine units:

- ``rule="knn"`` (local-mean k-NN, Mitani & Hamamoto 2006): a sense's score is the mean similarity of its
  ``n_neighbors`` most similar examples (all of them when it has fewer). With ``n_neighbors=1`` it is the plain
  nearest neighbour (1-NN): the sense of the most similar example.
- ``rule="centroid"``: a sense's score is the similarity to the mean of its unit-length examples.

The sense with the highest score wins by at least ``margin`` (in cosine units) or the occurrence gets the most
frequent sense of the examples (``margin=0``: never). :class:`FewShotSenses` holds one classifier per target word
of an occurrence table. The default rule and its parameters were measured on SemEval-2010
(``experiments/results/few_shot/few_shot.md``).

>>> import numpy as np
>>> X = np.array([[1.0, 0.1], [0.9, 0.0], [0.0, 1.0], [0.1, 0.8]])
>>> NearestSenseClassifier(n_neighbors=1, margin=0.0).fit(X, ["a", "a", "b", "b"]).predict([[1.0, 0.2]]).tolist()
['a']
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, check_X_y

from wsd.errors import InputError
from wsd.schema import (
    DEFAULT_FEW_SHOT_MARGIN,
    DEFAULT_FEW_SHOT_NEIGHBORS,
    DEFAULT_FEW_SHOT_RULE,
    FEW_SHOT_RULES,
    FewShotRule,
)
from wsd.senses.validation import (
    Integer,
    NonNegativeReal,
    NotFittedModelError,
    Options,
    PositiveReal,
    validate_params,
)

#: Query rows compared with the examples at a time (bounds the similarity matrix of one block).
BLOCK_ROWS = 4096
#: The softmax temperature of :meth:`NearestSenseClassifier.predict_proba` (cosine units), as sharp as the
#: soft memberships of the induced senses.
DEFAULT_TEMPERATURE = 0.04


def _unit_rows(X: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (a zero row stays zero)."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(norms > 0, norms, 1.0)


class NearestSenseClassifier(ClassifierMixin, BaseEstimator):
    """Label vectors by their nearest labelled examples: local-mean k-NN or sense centroids, with a margin.

    Parameters
    ----------
    rule : {"knn", "centroid"}
        ``knn``: a sense scores the mean cosine similarity of its ``n_neighbors`` most similar examples;
        ``centroid``: the cosine similarity to the mean of its unit-length examples.
    n_neighbors : int
        Examples per sense that ``knn`` averages (1: the nearest neighbour); ignored by ``centroid``.
    margin : float
        The least lead, in cosine units, of the best sense's score over the second's; a smaller lead gives the most
        frequent sense of the examples (0: the best sense always).
    temperature : float
        How sharp :meth:`predict_proba` is (a softmax of the scores divided by it); :meth:`predict` does not use it.

    Attributes
    ----------
    classes_ : ndarray
        The senses, sorted.
    class_counts_ : ndarray of int64
        Examples of each sense.
    most_frequent_ : object
        The sense with the most examples (the first in ``classes_`` among ties): the answer below the margin.
    examples_ : ndarray of shape (n_examples, n_features)
        The unit-length examples (``knn`` compares with them; a saved model keeps them whatever the rule).
    example_classes_ : ndarray of int64
        Index into ``classes_`` of each example.
    centroids_ : ndarray of shape (n_classes, n_features)
        Unit-length sense centroids (``centroid``).
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.8, 0.2], [0.0, 1.0]])
    >>> model = NearestSenseClassifier(rule="centroid", margin=0.0).fit(X, [0, 0, 1])
    >>> model.predict([[0.1, 0.9]]).tolist(), model.scores([[1.0, 0.0]]).round(2).tolist()
    ([1], [[0.99, 0.0]])
    """

    _parameter_constraints: ClassVar[dict[str, list]] = {
        "rule": [Options(FEW_SHOT_RULES)],
        "n_neighbors": [Integer(1)],
        "margin": [NonNegativeReal()],
        "temperature": [PositiveReal()],
    }

    def __init__(
        self,
        *,
        rule: FewShotRule = DEFAULT_FEW_SHOT_RULE,
        n_neighbors: int = DEFAULT_FEW_SHOT_NEIGHBORS,
        margin: float = DEFAULT_FEW_SHOT_MARGIN,
        temperature: float = DEFAULT_TEMPERATURE,
    ) -> None:
        self.rule = rule
        self.n_neighbors = n_neighbors
        self.margin = margin
        self.temperature = temperature

    def fit(self, X: Any, y: Any) -> NearestSenseClassifier:
        """Store the examples (``knn``) or the sense centroids (``centroid``).

        Parameters
        ----------
        X : array-like of shape (n_examples, n_features)
            The examples' vectors.
        y : array-like of shape (n_examples,)
            Their senses (any sortable labels).

        Returns
        -------
        self
        """
        validate_params(self)
        X, y = check_X_y(X, y, dtype=np.float64)
        check_classification_targets(y)
        classes, codes = np.unique(y, return_inverse=True)
        return self.restore(classes, _unit_rows(X), codes.reshape(-1))

    def restore(self, classes: Any, examples: np.ndarray, example_classes: Any) -> NearestSenseClassifier:
        """Fit from examples already of unit length and the index of each one's sense: what :meth:`fit` keeps.

        A saved few-shot model holds these (:mod:`wsd.senses.nearest_persistence`); restoring them gives the
        state :meth:`fit` gave, to the last bit, under this classifier's parameters (``rule``, ...).

        Parameters
        ----------
        classes : array-like of shape (n_classes,)
            The senses, sorted.
        examples : ndarray of shape (n_examples, n_features)
            The unit-length examples (:attr:`examples_`).
        example_classes : array-like of int, shape (n_examples,)
            Index into ``classes`` of each example; every sense has one at least.

        Returns
        -------
        self

        Examples
        --------
        >>> fitted = NearestSenseClassifier(rule="centroid").fit([[1.0, 0.0], [0.0, 2.0]], ["a", "b"])
        >>> again = NearestSenseClassifier(rule="centroid").restore(fitted.classes_, fitted.examples_, [0, 1])
        >>> bool((again.centroids_ == fitted.centroids_).all())
        True
        """
        validate_params(self)
        self.classes_ = np.asarray(classes)
        codes = np.asarray(example_classes, dtype=np.int64)
        self.class_counts_ = np.bincount(codes, minlength=len(self.classes_)).astype(np.int64)
        self.most_frequent_ = self.classes_[int(np.argmax(self.class_counts_))]
        self.n_features_in_ = int(examples.shape[1])
        self.examples_ = examples
        self.example_classes_ = codes
        if self.rule == "centroid":
            sums = np.zeros((len(self.classes_), examples.shape[1]))
            np.add.at(sums, codes, examples)
            self.centroids_ = _unit_rows(sums)
        return self

    def _check_X(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "classes_")
        X = check_array(X, dtype=np.float64, ensure_min_samples=0)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but NearestSenseClassifier is expecting {self.n_features_in_} "
                "features as input"
            )
        return X

    def scores(self, X: Any) -> np.ndarray:
        """Each sense's score for each row, in cosine units (see ``rule``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Vectors of the examples' width.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        X = _unit_rows(self._check_X(X))
        if self.rule == "centroid":
            return X @ self.centroids_.T
        out = np.empty((len(X), len(self.classes_)))
        columns = [np.flatnonzero(self.example_classes_ == index) for index in range(len(self.classes_))]
        for start in range(0, len(X), BLOCK_ROWS):
            similarity = X[start : start + BLOCK_ROWS] @ self.examples_.T
            for index, members in enumerate(columns):  # one pass per sense: a handful per word
                own = similarity[:, members]
                k = min(int(self.n_neighbors), own.shape[1])
                top = np.partition(own, own.shape[1] - k, axis=1)[:, own.shape[1] - k :]
                out[start : start + BLOCK_ROWS, index] = top.mean(axis=1)
        return out

    def margins(self, X: Any) -> np.ndarray:
        """The lead of the best sense's score over the second's (``inf`` for a word with one sense).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Vectors to score.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return _lead(self.scores(X))

    def predict(self, X: Any) -> np.ndarray:
        """The best sense of each row, or the most frequent sense where it leads by less than ``margin``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Vectors to label.

        Returns
        -------
        ndarray of shape (n_samples,)
            Senses from ``classes_``.
        """
        scores = self.scores(X)
        return self._decide(scores)

    def _decide(self, scores: np.ndarray) -> np.ndarray:
        labels = self.classes_[np.argmax(scores, axis=1)] if len(scores) else self.classes_[:0]
        if self.margin > 0 and len(scores):
            labels = np.where(_lead(scores) < self.margin, self.most_frequent_, labels)
        return labels

    def predict_proba(self, X: Any) -> np.ndarray:
        """A softmax of the scores divided by ``temperature``: each sense's probability for each row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Vectors to give each sense's probability.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Rows sum to 1; columns in the order of ``classes_``.
        """
        return self._proba(self.scores(X))

    def _proba(self, scores: np.ndarray) -> np.ndarray:
        scaled = scores / float(self.temperature)
        scaled -= scaled.max(axis=1, keepdims=True) if len(scaled) else 0.0
        weights = np.exp(scaled)
        return weights / weights.sum(axis=1, keepdims=True)

    def __sklearn_tags__(self) -> Any:
        """Tags for scikit-learn's checks: cosine similarity compares directions only."""
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


def _lead(scores: np.ndarray) -> np.ndarray:
    """Best minus second-best score per row (``inf`` with one column)."""
    if scores.shape[1] < 2:
        return np.full(len(scores), np.inf)
    top2 = np.partition(scores, scores.shape[1] - 2, axis=1)[:, -2:]
    return top2[:, 1] - top2[:, 0]


#: The columns of :meth:`FewShotSenses.label`, in order.
LABEL_COLUMNS = ("sense", "probability", "margin", "fallback", "most_frequent")


class FewShotSenses(BaseEstimator):
    """One :class:`NearestSenseClassifier` per target word, fitted on sense-labelled occurrences.

    Parameters
    ----------
    classifier : NearestSenseClassifier, optional
        The classifier cloned for every target (default: ``NearestSenseClassifier()``, the measured default).

    Attributes
    ----------
    classifiers_ : dict
        ``target -> fitted NearestSenseClassifier``.
    targets_ : list of str
        The targets with examples, sorted.

    Examples
    --------
    >>> occurrences = pd.DataFrame({"target": ["bank"] * 3})
    >>> X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    >>> model = FewShotSenses().fit(occurrences, X, ["money", "money", "river"])
    >>> model.predict(pd.DataFrame({"target": ["bank"]}), np.array([[0.1, 1.0]])).tolist()
    ['river']
    """

    def __init__(self, classifier: NearestSenseClassifier | None = None) -> None:
        self.classifier = classifier

    def fit(self, occurrences: pd.DataFrame, X: Any, senses: Any) -> FewShotSenses:
        """Fit one classifier per target on its examples.

        Parameters
        ----------
        occurrences : DataFrame
            The examples (a ``target`` column), row-aligned with ``X``.
        X : array-like of shape (n_examples, n_features)
            Their vectors.
        senses : array-like of shape (n_examples,)
            Their senses.

        Returns
        -------
        self
        """
        X = np.asarray(X)
        senses = np.asarray(senses, dtype=object)
        if len(occurrences) != len(X) or len(senses) != len(X):
            raise InputError(f"{len(occurrences)} examples, {len(X)} vectors and {len(senses)} senses: give one each")
        if not len(X):
            raise InputError("no examples to learn senses from")
        base = self.classifier if self.classifier is not None else NearestSenseClassifier()
        self.classifiers_: dict[str, NearestSenseClassifier] = {}
        for target, rows in _target_rows(occurrences).items():
            self.classifiers_[target] = clone(base).fit(X[rows], senses[rows])
        self.targets_ = sorted(self.classifiers_)
        return self

    def check_targets(self, targets: Any, where: str = "the data") -> None:
        """Raise :class:`~wsd.errors.InputError` naming the targets that have no examples.

        Parameters
        ----------
        targets : iterable of str
            The targets to label.
        where : str
            Where they come from, for the message.

        Returns
        -------
        None
        """
        if not hasattr(self, "classifiers_"):
            raise NotFittedModelError("this FewShotSenses is not fitted yet: call fit with labelled examples first")
        check_covered(targets, self.targets_, where)

    def label(self, occurrences: pd.DataFrame, X: Any) -> pd.DataFrame:
        """Each occurrence's sense with its probability, its margin and whether the most frequent sense was taken.

        Parameters
        ----------
        occurrences : DataFrame
            The occurrences (a ``target`` column), row-aligned with ``X``.
        X : array-like of shape (n_samples, n_features)
            Their vectors.

        Returns
        -------
        DataFrame
            Columns :data:`LABEL_COLUMNS`, the index of ``occurrences``: ``sense``, ``probability`` (of that sense),
            ``margin`` (the lead of the best sense's score over the second's, in cosine units), ``fallback``
            (below the margin: the most frequent sense was given) and ``most_frequent`` (the target's most
            frequent sense among the examples: the baseline).

        Raises
        ------
        InputError
            For a target without examples (:meth:`check_targets`).
        """
        self.check_targets(occurrences["target"].astype(str).unique())
        X = np.asarray(X)
        n = len(occurrences)
        sense = np.empty(n, dtype=object)
        probability = np.zeros(n)
        margin = np.zeros(n)
        fallback = np.zeros(n, dtype=bool)
        most_frequent = np.empty(n, dtype=object)
        for target, rows in _target_rows(occurrences).items():
            classifier = self.classifiers_[target]
            scores = classifier.scores(X[rows])
            labels = classifier._decide(scores)
            proba = classifier._proba(scores)
            column = np.searchsorted(classifier.classes_, labels)
            best = classifier.classes_[np.argmax(scores, axis=1)]
            sense[rows] = labels
            probability[rows] = proba[np.arange(len(rows)), column]
            margin[rows] = _lead(scores)
            fallback[rows] = labels != best
            most_frequent[rows] = classifier.most_frequent_
        return pd.DataFrame(
            {
                "sense": sense,
                "probability": probability,
                "margin": margin,
                "fallback": fallback,
                "most_frequent": most_frequent,
            },
            index=occurrences.index,
        )

    def predict(self, occurrences: pd.DataFrame, X: Any) -> np.ndarray:
        """The sense of each occurrence (:meth:`label`'s ``sense``).

        Parameters
        ----------
        occurrences, X
            As for :meth:`label`.

        Returns
        -------
        ndarray of object, shape (n_samples,)
        """
        return self.label(occurrences, X)["sense"].to_numpy()

    def n_examples(self) -> int:
        """The examples the model was fitted on, all targets together.

        Returns
        -------
        int
        """
        self.check_targets([])
        return int(sum(len(classifier.example_classes_) for classifier in self.classifiers_.values()))

    def senses_of(self, target: str) -> list[Any]:
        """The senses the examples give ``target``, in the order of its probabilities.

        Parameters
        ----------
        target : str

        Returns
        -------
        list
        """
        self.check_targets([target], "target")
        return self.classifiers_[target].classes_.tolist()


def check_covered(targets: Any, covered: Any, where: str = "the data") -> None:
    """Raise :class:`~wsd.errors.InputError` naming every target that is not among the ``covered`` ones.

    Parameters
    ----------
    targets : iterable of str
        The targets to label.
    covered : iterable of str
        The targets that have examples.
    where : str
        Where ``targets`` come from, for the message.

    Returns
    -------
    None

    Examples
    --------
    >>> check_covered(["bank", "bat", "cell"], ["bank"], "data.tsv")
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: data.tsv: no examples for targets 'bat', 'cell' (the examples cover bank)
    """
    known = sorted({str(t) for t in covered})
    missing = sorted({str(t) for t in targets} - set(known))
    if missing:
        shown = ", ".join(repr(t) for t in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        plural = "s" if len(missing) > 1 else ""
        cover = ", ".join(known[:8]) + (f" and {len(known) - 8} more" if len(known) > 8 else "")
        raise InputError(f"{where}: no examples for target{plural} {shown} (the examples cover {cover or 'none'})")


def _target_rows(occurrences: pd.DataFrame) -> Mapping[str, np.ndarray]:
    """``target -> row numbers``, in order of first appearance."""
    if "target" not in occurrences.columns:
        raise InputError("occurrences: missing column target")
    codes, names = pd.factorize(occurrences["target"].astype(str), sort=False)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
    return {str(name): order[bounds[i] : bounds[i + 1]] for i, name in enumerate(names)}


def primary_senses(labels: Any) -> np.ndarray:
    """The highest-weight sense of each gold label string (``"a/0.7 b/0.3"`` → ``"a"``; ties: the first listed).

    Parameters
    ----------
    labels : iterable of str
        Labels of the generic format (``label`` or ``label/weight ...``); empty: none.

    Returns
    -------
    ndarray of object
        The sense, or ``""`` where a label is empty.

    Examples
    --------
    >>> primary_senses(["a/0.3 b/0.7", "c", ""]).tolist()
    ['b', 'c', '']
    """
    out = []
    for text in labels:
        best, weight = "", -1.0
        for item in str(text or "").split():
            name, slash, value = item.rpartition("/")
            if not slash:
                name, value = item, "1"
            try:
                number = float(value)
            except ValueError:
                name, number = item, 1.0
            if number > weight:
                best, weight = name, number
        out.append(best)
    return np.asarray(out, dtype=object)


def warn_unlabelled(n_unlabelled: int, n_rows: int, where: str) -> None:
    """Warn that ``n_unlabelled`` of ``n_rows`` examples have no sense and are left out.

    Parameters
    ----------
    n_unlabelled, n_rows : int
    where : str
        The examples' file, for the message.

    Returns
    -------
    None
    """
    if n_unlabelled:
        warnings.warn(f"{where}: {n_unlabelled} of {n_rows} examples have no sense and are left out", stacklevel=2)
