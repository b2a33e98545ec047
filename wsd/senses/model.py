"""SenseModel: the induced senses of many target words, fitted per word, saved as JSON + .npy (no pickle)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, clone

from wsd.errors import ConfigError, InputError, ModelError, WsdError
from wsd.executors import MapFunction
from wsd.io.layout import SENSE_MODEL_FILE
from wsd.io.rows import MappedRows, row_source, rows_of, select_rows
from wsd.io.run_reader import read_meta
from wsd.occurrences import validate_occurrences
from wsd.senses.inducer import SenseInducer
from wsd.senses.mismatch import embedding_mismatch
from wsd.senses.persistence import (
    FORMAT_NAME,
    FORMAT_VERSION,
    inducer_from_state,
    inducer_params,
    inducer_state,
    json_ready,
    read_sense_model,
    write_sense_model,
)
from wsd.senses.sampling import CHUNK_ROWS, CHUNKED_ABOVE, chunk_bounds, uses_sample
from wsd.senses.validation import NotFittedModelError

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "MapFunction", "SenseModel", "fit_target"]
#: Fields that say how vectors were computed, not which vector space they live in (a bf16 and an fp32
#: computation of the same model, layers and pooling are interchangeable), and run bookkeeping.
UNCHECKED_META_FIELDS: frozenset[str] = frozenset(
    {"created", "created_at", "n_occurrences", "n_vectors", "run_dir", "precision", "max_length", "window_tokens"}
)
UNKNOWN_POLICIES: tuple[str, ...] = ("error", "skip")


def _target_rows(occurrences: pd.DataFrame) -> dict[str, np.ndarray]:
    """Row positions of each target, targets in order of first appearance, rows ascending."""
    codes, targets = pd.factorize(occurrences["target"].astype(str), sort=False)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(targets) + 1))
    return {str(t): order[bounds[i] : bounds[i + 1]] for i, t in enumerate(targets)}


def _forms(occurrences: pd.DataFrame) -> np.ndarray | None:
    """The surface forms of the rows (lower-cased by the inducer), or ``None`` without a ``form`` column."""
    return occurrences["form"].astype(str).to_numpy() if "form" in occurrences.columns else None


def forms_seen(forms: np.ndarray | None, rows: Mapping[str, np.ndarray]) -> dict[str, list[str]]:
    """The distinct surface forms of each target's rows, sorted (none without a ``form`` column).

    Parameters
    ----------
    forms : ndarray of str or None
        The form of every row (:func:`_forms`).
    rows : mapping of str to ndarray
        Each target's row positions.

    Returns
    -------
    dict of str to list of str

    Examples
    --------
    >>> forms_seen(np.array(["mouse", "mice", "mouse", "bank"]), {"mouse": np.array([0, 1, 2]), "bank": np.array([3])})
    {'mouse': ['mice', 'mouse'], 'bank': ['bank']}
    """
    if forms is None:
        return {target: [] for target in rows}
    return {target: np.unique(forms[index].astype(str)).tolist() for target, index in rows.items()}


def _target_rows_of(X: np.ndarray, index: np.ndarray) -> np.ndarray | MappedRows:
    """One target's rows to predict: a reference read block by block for a large target of a memory map."""
    return select_rows(X, index) if len(index) > CHUNKED_ABOVE else X[index]


def fit_target(task: tuple[Any, ...]) -> SenseInducer:
    """Fit a clone of the template inducer on one target's vectors; errors name the target.

    This is the unit of work ``SenseModel.fit`` maps.

    Parameters
    ----------
    task : tuple
        ``(target, template, vectors)`` or ``(target, template, vectors, forms)``; ``vectors`` may be a
        :class:`~wsd.io.rows.MappedRows` reference, read here.

    Returns
    -------
    SenseInducer
        The fitted clone.
    """
    target, template, vectors, *rest = task
    forms = rest[0] if rest else None
    # a word fitted on a sample reads its rows block by block from the reference; a smaller one reads them whole
    sampled = isinstance(vectors, MappedRows) and uses_sample(vectors, template.max_fit_samples)
    try:
        return clone(template).fit(vectors if sampled else rows_of(vectors), forms=forms)
    except WsdError as error:
        raise type(error)(f"target {target!r}: {error}") from None


def finite_rows(X: np.ndarray) -> np.ndarray:
    """Whether each row of ``X`` holds only finite values, checked a block of rows at a time.

    Parameters
    ----------
    X : ndarray of shape (n, dim)
        Vectors (a memory map or a :class:`~wsd.io.rows.MappedRows` is read block by block).

    Returns
    -------
    ndarray of bool, shape (n,)
    """
    finite = np.ones(len(X), dtype=bool)
    source = row_source(X)  # a memory-mapped run is read through short-lived maps: its pages do not stay resident
    if len(X) and X.shape[1]:
        for start, stop in chunk_bounds(len(X), CHUNK_ROWS):
            finite[start:stop] = np.isfinite(source[start:stop]).all(axis=1)
    return finite


class EmbeddingIdentity(Protocol):
    """What describes vectors besides a mapping: an encoder's identity (:meth:`wsd.Encoder.identity`)."""

    def embedding_meta(self) -> Mapping[str, Any]:
        """The identity as the metadata mapping a sense model stores.

        Returns
        -------
        dict
            Model, layers, pooling and the other fields a sense model compares.
        """
        ...


#: The identity of vectors as a sense model takes it: the metadata mapping, the encoder identity itself, or the run
#: folder they were read from (``wsd.embed_corpus`` or ``wsd embed`` output: the identity its ``meta.json`` records).
EmbeddingMeta = Mapping[str, Any] | EmbeddingIdentity | str | os.PathLike[str]


def embedding_identity(meta: EmbeddingMeta | None, what: str = "embedding_meta") -> dict[str, Any]:
    """The embedding identity as a sense model stores it: a JSON-ready mapping (empty for None).

    Parameters
    ----------
    meta : mapping, encoder identity, run folder or None
        The identity, an encoder's :meth:`~wsd.Encoder.identity`, or a run folder whose ``meta.json`` records it.
    what : str
        What ``meta`` is, for the error message.

    Returns
    -------
    dict
        Sorted by key, lists for tuples (as JSON gives them back).

    Raises
    ------
    InputError
        For a folder that is no run, or a run whose ``meta.json`` records no identity.

    Examples
    --------
    >>> embedding_identity({"model": "m", "layers": (-1,)})
    {'layers': [-1], 'model': 'm'}
    """
    if isinstance(meta, (str, os.PathLike)):
        recorded = read_meta(meta).get("embedding")
        if not isinstance(recorded, Mapping):
            raise InputError(f"{meta}: the run's meta.json records no embedding identity ('embedding')")
        meta = recorded
    return json_ready(meta, what)


class SenseModel(BaseEstimator):
    """The induced senses of many words: one fitted :class:`SenseInducer` per target (a scikit-learn estimator).

    ``fit`` clones ``inducer`` (the template estimator) once per target and fits it on that
    target's rows of ``X``. ``predict``/``predict_proba`` route new occurrences to their target's
    inducer. ``save`` writes a folder of ``sense_model.json`` (parameters, embedding meta, per-target
    scalars) and plain ``.npy`` arrays (preprocessing means/PCA components, centroids, mixture
    parameters, labels) under ``senses/<n>/`` — no pickle anywhere; ``load`` reads them back with
    ``allow_pickle=False`` and checks every shape (:mod:`wsd.senses.persistence`). ``SenseModel`` is a
    ``BaseEstimator``: ``get_params``/``set_params``/``clone`` work, and using it before ``fit`` or ``load``
    raises :class:`~wsd.senses.validation.NotFittedModelError` (both wsd's ``ModelError`` and
    scikit-learn's ``NotFittedError``).

    **Embedding identity.** ``embedding_meta`` (e.g. ``{"model": ..., "layers": ..., "pooling": ...,
    "dim": 384}``) is stored with the model. ``predict`` checks the vectors' width against the fitted
    dim (:class:`~wsd.errors.InputError`) and, when given the new vectors' ``embedding_meta``,
    compares every field present on either side (except the run bookkeeping fields in
    ``UNCHECKED_META_FIELDS``); a difference is a :class:`~wsd.errors.ModelError` naming the field.

    **Surface forms.** Each inducer also receives its rows' ``form`` column (for
    ``center_forms``), in ``fit`` and in ``predict``. The model records the forms each target was fitted on
    (``forms_``, saved with it): :func:`wsd.load` finds the target in new text by them (*mice* for *mouse*)
    when the run the senses came from is gone or was never named.

    **Unknown targets** (not seen in ``fit``): ``unknown="error"`` (default) raises InputError
    listing them; ``unknown="skip"`` warns and labels their rows -1 with all-zero memberships.

    Parameters
    ----------
    inducer : SenseInducer or None
        Template estimator (default ``SenseInducer()``); its parameters apply to every target.
    embedding_meta : mapping, encoder identity, run folder or None
        Identity of the vectors the model is fitted on (JSON-serialisable): a mapping, an encoder's
        :meth:`~wsd.Encoder.identity`, or the run they come from (``wsd.embed_corpus``'s folder, whose
        ``meta.json`` records it). :func:`wsd.load` loads the encoder it names.

    Attributes
    ----------
    targets_ : list[str]
        Targets in order of first appearance in the fitted table.
    inducers_ : dict[str, SenseInducer]
        The fitted inducer of each target.
    rows_ : dict[str, ndarray]
        Each target's row positions in the fitted table.
    forms_ : dict[str, list[str]]
        The distinct surface forms of each target in the fitted table, sorted (empty without a ``form`` column).
    labels_ : ndarray of int64
        Sense of each training row (per-target sense ids 0..n-1; -1 unassigned).
    dim_ : int
        Width of the vectors.
    embedding_meta_ : dict
        The embedding identity, JSON-normalised.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> occ = pd.DataFrame({"id": ["a", "b", "c"], "target": ["bank"] * 3, "form": ["bank"] * 3,
    ...                     "text": ["the bank"] * 3, "start": [4] * 3, "end": [8] * 3,
    ...                     "doc_id": ["d"] * 3, "doc_start": [0] * 3})
    >>> X = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0]])
    >>> SenseModel(SenseInducer(k=2)).fit(occ, X).labels_
    array([0, 0, 1])
    """

    def __init__(self, inducer: SenseInducer | None = None, *, embedding_meta: EmbeddingMeta | None = None):
        self.inducer = inducer
        self.embedding_meta = embedding_meta

    # ------------------------------------------------------------------ fitting

    def fit(
        self,
        occurrences: pd.DataFrame,
        X: np.ndarray,
        embedding_meta: EmbeddingMeta | None = None,
        map_function: MapFunction | None = None,
    ) -> SenseModel:
        """Fit one inducer per target on its rows of ``X`` (row-aligned with ``occurrences``).

        Parameters
        ----------
        occurrences : DataFrame
            The occurrence table (``target`` and, for form centring, ``form`` columns).
        X : ndarray of shape (n_occurrences, dim)
            Their vectors, row-aligned.
        embedding_meta : mapping, encoder identity, run folder or None
            Overrides the one given to the constructor.
        map_function : callable or None
            ``map_function(func, items)`` (like the builtin ``map``; e.g. a Dask client's or a process
            pool's) runs the per-target fits; each item is a picklable ``(target, template, vectors, forms)``
            tuple and ``func`` a module-level function, so the fits can run elsewhere. Default: one after
            another in this process. When ``X`` is a memory-mapped run (:func:`wsd.io.run_reader.load_run`), each item
            carries a reference to its target's rows (:class:`~wsd.io.rows.MappedRows`), read by the task: one
            target's vectors in memory at a time, and small items to send to worker processes.

        Returns
        -------
        SenseModel
            This model, fitted.
        """
        occurrences = validate_occurrences(occurrences, "occurrences to induce senses from")
        mapped = X
        X = self._check_vectors(X, len(occurrences), dim=None)
        meta = embedding_identity(embedding_meta if embedding_meta is not None else self.embedding_meta)
        if "dim" in meta and meta["dim"] != X.shape[1]:
            raise InputError(f"embedding_meta says dim={meta['dim']!r}, but the vectors have {X.shape[1]} columns")
        template = self.inducer if self.inducer is not None else SenseInducer()
        rows = _target_rows(occurrences)
        forms = _forms(occurrences)
        tasks = [
            (target, template, select_rows(mapped, index), None if forms is None else forms[index])
            for target, index in rows.items()
        ]
        fitted = list((map_function or map)(fit_target, tasks))
        if len(fitted) != len(tasks):
            raise ConfigError(f"map_function returned {len(fitted)} results for {len(tasks)} targets")
        self.inducers_: dict[str, SenseInducer] = dict(zip(rows, fitted, strict=True))
        self.rows_: dict[str, np.ndarray] = rows
        self.forms_: dict[str, list[str]] = forms_seen(forms, rows)
        labels = np.full(len(occurrences), -1, dtype=np.int64)
        for target, index in rows.items():
            labels[index] = self.inducers_[target].labels_
        self.targets_ = list(rows)
        self.labels_ = labels
        self.dim_ = int(X.shape[1])
        self.embedding_meta_ = meta
        return self

    def fit_predict(
        self,
        occurrences: pd.DataFrame,
        X: np.ndarray,
        embedding_meta: EmbeddingMeta | None = None,
        map_function: MapFunction | None = None,
    ) -> np.ndarray:
        """``fit`` and return ``labels_``.

        Parameters
        ----------
        occurrences, X, embedding_meta, map_function
            As for :meth:`fit`.

        Returns
        -------
        ndarray of int64, shape (n_occurrences,)
        """
        return self.fit(occurrences, X, embedding_meta, map_function).labels_

    # ------------------------------------------------------------------ prediction

    def _check_fitted(self) -> None:
        if not hasattr(self, "inducers_"):
            raise NotFittedModelError("this SenseModel is not fitted yet; call fit() or SenseModel.load()")

    @staticmethod
    def _check_vectors(X: Any, n_rows: int, dim: int | None) -> np.ndarray:
        X = np.asarray(X)
        if X.ndim != 2:
            raise InputError(f"vectors must be a 2-D matrix (occurrences × dims), got shape {X.shape}")
        if X.shape[0] != n_rows:
            raise InputError(f"{X.shape[0]} vectors for {n_rows} occurrences; they must be row-aligned")
        if dim is not None and X.shape[1] != dim:
            raise InputError(
                f"embedding mismatch: field 'dim' is {dim} in the sense model but {X.shape[1]} for these vectors"
            )
        if X.dtype.kind not in "biuf":
            raise InputError(f"vectors must be numbers, got dtype {X.dtype}")
        return X

    def check_embedding(self, embedding_meta: EmbeddingMeta | None) -> None:
        """Raise :class:`~wsd.errors.ModelError` naming every field where ``embedding_meta`` differs, and the fix.

        Every field present in either meta is compared, except ``UNCHECKED_META_FIELDS``; the message names the
        ``wsd embed`` options that give matching vectors (:func:`wsd.senses.mismatch.embedding_mismatch`).

        Parameters
        ----------
        embedding_meta : mapping, encoder identity, run folder or None
            The new vectors' identity (``None``: nothing to compare).

        Returns
        -------
        None
        """
        self._check_fitted()
        if embedding_meta is None:
            return
        new = embedding_identity(embedding_meta)
        mine = self.embedding_meta_
        difference = embedding_mismatch(mine, new, UNCHECKED_META_FIELDS)  # every field, and the option to fix it
        if difference is not None:
            raise ModelError(f"embedding mismatch: {difference}")

    def _route(
        self, occurrences: pd.DataFrame, X: Any, embedding_meta: EmbeddingMeta | None, unknown: str
    ) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
        self._check_fitted()
        if unknown not in UNKNOWN_POLICIES:
            raise ConfigError(f"unknown must be one of {', '.join(UNKNOWN_POLICIES)}, got {unknown!r}")
        if "target" not in occurrences.columns:
            raise InputError("occurrences to predict: missing column target")
        mapped = X
        self.check_embedding(embedding_meta)  # before the dim: a differing option names what to embed with
        X = self._check_vectors(X, len(occurrences), self.dim_)
        finite = finite_rows(mapped)
        if not finite.all():
            first = int(np.argmin(finite))
            raise InputError(
                f"{int((~finite).sum())} of {len(X)} vectors hold NaN or infinite values (first: row {first}, "
                f"target {occurrences['target'].iloc[first]!r}); their senses would be NaN"
            )
        rows = _target_rows(occurrences)
        missing = [t for t in rows if t not in self.inducers_]
        unknown_rows = np.zeros(len(occurrences), dtype=bool)
        if missing:
            shown = ", ".join(repr(t) for t in missing[:5]) + (" ..." if len(missing) > 5 else "")
            if unknown == "error":
                raise InputError(f"{len(missing)} target(s) unknown to the sense model: {shown}")
            for target in missing:
                unknown_rows[rows.pop(target)] = True
            warnings.warn(
                f"{int(unknown_rows.sum())} occurrence(s) of {len(missing)} target(s) "
                f"unknown to the sense model "
                f"({shown}) were left unassigned (-1)",
                stacklevel=3,
            )
        return mapped if isinstance(mapped, np.memmap) else X, rows, unknown_rows

    def predict(
        self,
        occurrences: pd.DataFrame,
        X: Any,
        embedding_meta: EmbeddingMeta | None = None,
        unknown: str = "error",
    ) -> np.ndarray:
        """Sense of each occurrence (per-target ids, -1 for skipped unknown targets), row-aligned.

        For the training table this reproduces ``labels_`` (HDBSCAN noise kept as -1 aside).

        Parameters
        ----------
        occurrences : DataFrame
            Occurrences with a ``target`` column (and ``form`` for form centring).
        X : array-like of shape (n_occurrences, dim)
            Their vectors, row-aligned.
        embedding_meta : mapping, encoder identity or None
            Their embedding identity, checked against the model's.
        unknown : str
            ``error`` or ``skip`` (warn, label -1) for targets the model has not seen.

        Returns
        -------
        ndarray of int64, shape (n_occurrences,)
        """
        X, rows, _ = self._route(occurrences, X, embedding_meta, unknown)
        forms = _forms(occurrences)
        labels = np.full(len(occurrences), -1, dtype=np.int64)
        for target, index in rows.items():
            labels[index] = self.inducers_[target].predict(
                _target_rows_of(X, index), None if forms is None else forms[index]
            )
        return labels

    @property
    def max_senses_(self) -> int:
        """The largest number of senses of any target (the width of ``predict_proba``).

        Returns
        -------
        int
        """
        self._check_fitted()
        return max((inducer.n_senses_ for inducer in self.inducers_.values()), default=0)

    def predict_proba(
        self,
        occurrences: pd.DataFrame,
        X: Any,
        embedding_meta: EmbeddingMeta | None = None,
        unknown: str = "error",
    ) -> np.ndarray:
        """Soft memberships, shape (n, ``max_senses_``): column j is sense j of the row's own target.

        Columns beyond a target's number of senses are 0, so each row sums to 1 (0 for skipped
        unknown targets) and its argmax is ``predict``'s label.

        Parameters
        ----------
        occurrences, X, embedding_meta, unknown
            As for :meth:`predict`.

        Returns
        -------
        ndarray of shape (n_occurrences, max_senses_)
        """
        X, rows, _ = self._route(occurrences, X, embedding_meta, unknown)
        forms = _forms(occurrences)
        proba = np.zeros((len(occurrences), self.max_senses_))
        for target, index in rows.items():
            vectors = _target_rows_of(X, index)
            target_proba = self.inducers_[target].predict_proba(vectors, None if forms is None else forms[index])
            proba[index, : target_proba.shape[1]] = target_proba
        return proba

    def summary(self) -> pd.DataFrame:
        """One row per target: n_occurrences, n_senses, n_clusters, n_reassigned, k_scores_.

        Returns
        -------
        DataFrame
        """
        self._check_fitted()
        return pd.DataFrame(
            {
                "target": self.targets_,
                "n_occurrences": [len(self.inducers_[t].labels_) for t in self.targets_],
                "n_senses": [self.inducers_[t].n_senses_ for t in self.targets_],
                "n_clusters": [self.inducers_[t].n_clusters_ for t in self.targets_],
                "n_reassigned": [self.inducers_[t].n_reassigned_ for t in self.targets_],
                "k_scores": [dict(self.inducers_[t].k_scores_) for t in self.targets_],
            }
        )

    # ------------------------------------------------------------------ persistence

    def save(self, directory: str | Path) -> Path:
        """Write the model to ``directory`` (created if needed) as JSON + ``.npy`` files.

        Parameters
        ----------
        directory : str or Path
            The folder to write.

        Returns
        -------
        Path
            ``directory``.
        """
        self._check_fitted()
        template = self.inducer if self.inducer is not None else SenseInducer()
        return write_sense_model(
            directory,
            inducer_params=template.get_params(deep=False),
            dim=self.dim_,
            n_rows=len(self.labels_),
            embedding_meta=self.embedding_meta_,
            targets=((t, *inducer_state(self.inducers_[t]), self.rows_[t]) for t in self.targets_),
            forms=self.forms_,
        )

    @classmethod
    def load(cls, directory: str | Path) -> SenseModel:
        """Read a model written by :meth:`save`, validating the format and every array's shape.

        Parameters
        ----------
        directory : str or Path
            The folder :meth:`save` wrote (:func:`~wsd.senses.persistence.read_sense_model` reads it).

        Returns
        -------
        SenseModel
            A fitted model.
        """
        document, saved = read_sense_model(directory)
        where = f"{Path(directory) / SENSE_MODEL_FILE}"
        try:
            params = inducer_params(document["inducer_params"])
            model = cls(SenseInducer(**params), embedding_meta=document["embedding_meta"])
            model.dim_ = int(document["dim"])
            model.embedding_meta_ = dict(document["embedding_meta"])
            labels = np.full(int(document["n_rows"]), -1, dtype=np.int64)
        except KeyError as missing:
            raise InputError(f"{where}: missing field {missing.args[0]!r}") from None
        except TypeError as error:
            raise InputError(f"{where}: malformed sense model: {error}") from None
        inducers, rows_of, forms = {}, {}, {}
        for entry in saved:
            inducer = inducer_from_state(SenseInducer(**params), entry.state, entry.arrays, entry.where)
            if inducer.n_features_in_ != model.dim_:
                raise InputError(f"{entry.where}: fitted on {inducer.n_features_in_} dims, the model says {model.dim_}")
            rows = entry.rows
            if rows.shape != inducer.labels_.shape or (len(rows) and rows.max() >= len(labels)):
                raise InputError(f"{entry.where}: rows do not match its {len(inducer.labels_)} labels")
            inducers[entry.target], rows_of[entry.target] = inducer, rows
            forms[entry.target] = list(entry.forms or [])
            labels[rows] = inducer.labels_
        model.labels_, model.rows_, model.targets_, model.inducers_ = labels, rows_of, list(inducers), inducers
        model.forms_ = forms
        return model
