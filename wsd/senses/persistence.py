"""Saving and loading fitted senses as JSON + plain ``.npy`` files (never pickle), with every shape checked.

A sense model folder holds ``sense_model.json`` (format name and version, dims, the embedding identity, the
inducer's parameters and each target's scalars) and one folder ``senses/<n>/`` per target of ``.npy`` arrays
(preprocessing state with the prefix ``preprocess_``, ``labels``, ``cluster_centers``, mixture parameters or
hash buckets, and ``rows``). The layout and field names are those of format version 1; models saved before
the estimators were split up load unchanged. What was added later is written only where it is used (a
parameter set to something else than its default, the sample size of a sampled fit), so a model that does not
use it is saved exactly as before. Each target's entry lists the surface forms it was fitted on (``forms``, added
later: how :func:`wsd.load` finds the word in new text when the run it came from is gone; a model saved before
loads with none).

>>> # model.save("runs/x/senses/model"); SenseModel.load("runs/x/senses/model")   (see SenseModel)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.utils.validation import check_is_fitted

from wsd.errors import ConfigError, InputError
from wsd.io.atomic import atomic_write
from wsd.io.layout import SENSE_MODEL_FILE
from wsd.io.writers import write_array
from wsd.senses.sampling import DEFAULT_MAX_FIT_SAMPLES

if TYPE_CHECKING:  # annotations only: this module imports no estimator, the estimators import it
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.preprocess import Preprocessor

FORMAT_NAME = "wsd-sense-model"
FORMAT_VERSION = 1
#: Prefix of the preprocessing arrays among a target's arrays.
PREPROCESS_PREFIX = "preprocess_"
#: Inducer parameters added after format version 1, with their defaults: written only when set otherwise, so
#: the files of a model that does not use them are those format version 1 wrote (a missing one loads as default).
LATER_DEFAULTS: dict[str, Any] = {
    "max_fit_samples": DEFAULT_MAX_FIT_SAMPLES,
    "min_split_uses": 0,
    "similarity_cut": None,
}
#: Names an array of a saved model may have (a file name inside the target's folder, nothing else).
ARRAY_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def json_ready(meta: Mapping[str, Any] | Any | None, what: str) -> dict[str, Any]:
    """A JSON round trip of ``meta`` (tuples become lists), so fresh and loaded metas compare equal.

    An encoder's identity (:meth:`wsd.Encoder.identity`, anything with an ``embedding_meta()`` method) is taken
    as it comes: its ``embedding_meta()`` is the mapping.

    Parameters
    ----------
    meta : mapping, encoder identity or None
        JSON-serialisable values, or an object whose ``embedding_meta()`` gives them.
    what : str
        What ``meta`` is, for the error message.

    Returns
    -------
    dict
    """
    as_meta = getattr(meta, "embedding_meta", None)
    if callable(as_meta):
        meta = as_meta()
    try:
        return json.loads(json.dumps(dict(meta or {}), sort_keys=True))
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{what} must be JSON-serialisable: {error}") from None


# ---------------------------------------------------------------------------------------------- preprocessing


def preprocessor_arrays(preprocessor: Preprocessor) -> dict[str, np.ndarray]:
    """The learned state of a fitted :class:`~wsd.senses.preprocess.Preprocessor` as plain arrays.

    Parameters
    ----------
    preprocessor : Preprocessor
        A fitted transform.

    Returns
    -------
    dict of str to ndarray
        ``mean``; ``forms``/``form_shifts`` with form centring; ``pca_mean``/``components``/``scale`` with PCA.
    """
    arrays = {"mean": preprocessor.mean_}
    if preprocessor.uses_forms:
        arrays |= {"forms": preprocessor.forms_, "form_shifts": preprocessor.form_shifts_}
    if preprocessor.uses_projection:
        arrays |= {
            "pca_mean": preprocessor.pca_mean_,
            "components": preprocessor.components_,
            "scale": preprocessor.scale_,
        }
    return arrays


def restore_preprocessor(
    preprocessor: Preprocessor, arrays: Mapping[str, np.ndarray], where: str = "saved transform"
) -> Preprocessor:
    """Give an unfitted transform the state written by :func:`preprocessor_arrays`, checking the shapes.

    Parameters
    ----------
    preprocessor : Preprocessor
        A transform with the saved parameters (modified in place).
    arrays : mapping of str to ndarray
        The saved state.
    where : str
        Where the state comes from, for error messages.

    Returns
    -------
    Preprocessor
        ``preprocessor``, now fitted.
    """
    try:
        mean = np.asarray(arrays["mean"], dtype=np.float64)
    except KeyError:
        raise InputError(f"{where}: missing 'mean'") from None
    if mean.ndim != 1:
        raise InputError(f"{where}: mean must be a vector, got shape {mean.shape}")
    preprocessor.dim_ = preprocessor.n_features_in_ = int(mean.shape[0])
    preprocessor.mean_ = mean
    dim = preprocessor.dim_
    if preprocessor.uses_forms:
        try:
            forms = np.asarray(arrays["forms"])
            shifts = np.asarray(arrays["form_shifts"], dtype=np.float64)
        except KeyError as missing:
            raise InputError(f"{where}: missing {missing.args[0]!r} (the model centres forms)") from None
        if forms.dtype.kind != "U" or forms.ndim != 1 or shifts.shape != (len(forms), dim):
            raise InputError(f"{where}: forms/form_shifts shapes {forms.shape}/{shifts.shape} do not fit")
        preprocessor.forms_, preprocessor.form_shifts_ = forms, shifts
    if preprocessor.uses_projection:
        try:
            components = np.asarray(arrays["components"], dtype=np.float64)
            pca_mean = np.asarray(arrays["pca_mean"], dtype=np.float64)
            scale = np.asarray(arrays["scale"], dtype=np.float64)
        except KeyError as missing:
            raise InputError(f"{where}: missing {missing.args[0]!r} (the model projects with PCA)") from None
        if components.ndim != 2 or components.shape[1] != dim:
            raise InputError(f"{where}: components have shape {components.shape}, expected (m, {dim})")
        if pca_mean.shape != (dim,) or scale.shape != (components.shape[0],):
            raise InputError(f"{where}: pca_mean/scale shapes {pca_mean.shape}/{scale.shape} do not fit")
        preprocessor.components_, preprocessor.pca_mean_, preprocessor.scale_ = components, pca_mean, scale
    return preprocessor


# ---------------------------------------------------------------------------------------------- one word


def inducer_state(inducer: SenseInducer) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The fitted state of a :class:`~wsd.senses.SenseInducer`: JSON-ready scalars and plain arrays.

    Everything ``predict`` needs (and ``labels_``, ``k_scores_`` and the counts that ``summary`` shows).

    Parameters
    ----------
    inducer : SenseInducer
        A fitted inducer.

    Returns
    -------
    scalars : dict
        JSON-ready values.
    arrays : dict of str to ndarray
        Arrays, the preprocessing ones prefixed ``preprocess_``.
    """
    check_is_fitted(inducer, "labels_")
    scalars = {
        "assignment": inducer.assignment_,
        "distance": inducer.distance_,
        "temperature": inducer.temperature_,
        "n_features_in": inducer.n_features_in_,
        "n_senses": inducer.n_senses_,
        "n_clusters": inducer.n_clusters_,
        "n_reassigned": inducer.n_reassigned_,
        "k_scores": [[k, None if math.isnan(v) else v] for k, v in inducer.k_scores_.items()],
    }
    if inducer.n_fit_samples_ != len(inducer.labels_):  # a sampled fit (written only then: see LATER_DEFAULTS)
        scalars["n_fit_samples"] = inducer.n_fit_samples_
    if getattr(inducer, "one_sense_reason_", ""):  # why k = 1 was chosen (written only then)
        scalars["one_sense_reason"] = inducer.one_sense_reason_
    arrays = {f"{PREPROCESS_PREFIX}{name}": value for name, value in preprocessor_arrays(inducer.preprocessor_).items()}
    arrays |= {"labels": inducer.labels_, "cluster_centers": inducer.cluster_centers_}
    if inducer.assignment_ == "gaussian":
        arrays |= {
            "mixture_weights": inducer.mixture_weights_,
            "mixture_means": inducer.mixture_means_,
            "mixture_precisions_cholesky": inducer.mixture_precisions_cholesky_,
            "component_senses": inducer.component_senses_,
        }
    if inducer.assignment_ == "random":
        scalars["random_seed"] = inducer.random_seed_
        arrays["bucket_senses"] = inducer.bucket_senses_
    return scalars, arrays


def inducer_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Saved inducer parameters as keyword arguments (``k_range`` back to a tuple).

    Parameters
    ----------
    params : mapping
        The ``inducer_params`` of a saved model.

    Returns
    -------
    dict
    """
    params = dict(params)
    if isinstance(params.get("k_range"), list):
        params["k_range"] = tuple(params["k_range"])
    return params


def inducer_from_state(
    inducer: SenseInducer,
    scalars: Mapping[str, Any],
    arrays: Mapping[str, np.ndarray],
    where: str = "saved state",
) -> SenseInducer:
    """Give an unfitted inducer the state written by :func:`inducer_state`, checking that the arrays fit together.

    Parameters
    ----------
    inducer : SenseInducer
        An inducer with the saved parameters (modified in place).
    scalars : mapping
        Its saved scalars.
    arrays : mapping of str to ndarray
        Its saved arrays.
    where : str
        As for :func:`restore_preprocessor`.

    Returns
    -------
    SenseInducer
        ``inducer``, now fitted.
    """
    inducer._validate_params()
    try:
        inducer.assignment_ = str(scalars["assignment"])
        inducer.distance_ = str(scalars["distance"])
        inducer.temperature_ = float(scalars["temperature"])
        inducer.n_features_in_ = int(scalars["n_features_in"])
        inducer.n_senses_ = int(scalars["n_senses"])
        inducer.n_clusters_ = int(scalars["n_clusters"])
        inducer.n_reassigned_ = int(scalars["n_reassigned"])
        inducer.k_scores_ = {int(k): float("nan") if v is None else float(v) for k, v in scalars["k_scores"]}
        preprocess = {
            key[len(PREPROCESS_PREFIX) :]: value for key, value in arrays.items() if key.startswith(PREPROCESS_PREFIX)
        }
        inducer.preprocessor_ = restore_preprocessor(inducer.make_preprocessor(), preprocess, where)
        inducer.labels_ = np.asarray(arrays["labels"], dtype=np.int64)
        # models saved before sampled fits existed were fitted on all their rows
        inducer.n_fit_samples_ = int(scalars.get("n_fit_samples", len(inducer.labels_)))
        inducer.one_sense_reason_ = str(scalars.get("one_sense_reason", ""))
        inducer.cluster_centers_ = np.asarray(arrays["cluster_centers"], dtype=np.float64)
        if inducer.assignment_ == "gaussian":
            inducer.mixture_weights_ = np.asarray(arrays["mixture_weights"], dtype=np.float64)
            inducer.mixture_means_ = np.asarray(arrays["mixture_means"], dtype=np.float64)
            inducer.mixture_precisions_cholesky_ = np.asarray(arrays["mixture_precisions_cholesky"], dtype=np.float64)
            inducer.component_senses_ = np.asarray(arrays["component_senses"], dtype=np.int64)
        elif inducer.assignment_ == "random":
            inducer.random_seed_ = int(scalars["random_seed"])
            inducer.bucket_senses_ = np.asarray(arrays["bucket_senses"], dtype=np.int64)
        elif inducer.assignment_ != "centroid":
            raise InputError(f"{where}: unknown assignment {inducer.assignment_!r}")
    except KeyError as missing:
        raise InputError(f"{where}: missing {missing.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        raise InputError(f"{where}: malformed saved state: {error}") from None
    _check_inducer_state(inducer, where)
    return inducer


def _check_inducer_state(inducer: SenseInducer, where: str) -> None:
    dims = inducer.preprocessor_.output_dim_
    if inducer.preprocessor_.dim_ != inducer.n_features_in_:
        raise InputError(
            f"{where}: transform expects {inducer.preprocessor_.dim_} dims, state says {inducer.n_features_in_}"
        )
    if inducer.cluster_centers_.shape != (inducer.n_senses_, dims):
        raise InputError(
            f"{where}: cluster_centers has shape {inducer.cluster_centers_.shape}, "
            f"expected ({inducer.n_senses_}, {dims})"
        )
    if inducer.labels_.ndim != 1 or (len(inducer.labels_) and inducer.labels_.max() >= inducer.n_senses_):
        raise InputError(f"{where}: labels do not fit {inducer.n_senses_} senses")
    if inducer.assignment_ == "gaussian":
        c = len(inducer.mixture_weights_)
        expected = {
            "full": (c, dims, dims),
            "tied": (dims, dims),
            "diag": (c, dims),
            "spherical": (c,),
        }[inducer.covariance_type]
        if (
            inducer.mixture_means_.shape != (c, dims)
            or inducer.mixture_precisions_cholesky_.shape != expected
            or inducer.component_senses_.shape != (c,)
            or int(inducer.component_senses_.max()) + 1 != inducer.n_senses_
        ):
            raise InputError(f"{where}: the Gaussian mixture arrays do not fit together")
    if inducer.assignment_ == "random" and int(inducer.bucket_senses_.max()) + 1 != inducer.n_senses_:
        raise InputError(f"{where}: bucket_senses do not fit {inducer.n_senses_} senses")


# ---------------------------------------------------------------------------------------------- many words


@dataclass
class SavedTarget:
    """One target's saved state, as read from disk.

    Parameters
    ----------
    target : str
        The target word.
    where : str
        Its folder and name, for error messages.
    state : dict
        Its scalars (see :func:`inducer_state`).
    arrays : dict of str to ndarray
        Its arrays (without ``rows``).
    rows : ndarray of int64
        Its row positions in the fitted table.
    forms : list of str, optional
        The surface forms it was fitted on (None: a model saved before they were recorded).
    """

    target: str
    where: str
    state: dict[str, Any]
    arrays: dict[str, np.ndarray]
    rows: np.ndarray
    forms: list[str] | None = None


def write_sense_model(
    directory: str | Path,
    *,
    inducer_params: Mapping[str, Any],
    dim: int,
    n_rows: int,
    embedding_meta: Mapping[str, Any],
    targets: Iterable[tuple[str, dict[str, Any], dict[str, np.ndarray], np.ndarray]],
    forms: Mapping[str, Sequence[str]] | None = None,
) -> Path:
    """Write a sense model folder: ``sense_model.json`` and one folder of ``.npy`` arrays per target.

    Parameters
    ----------
    directory : str or Path
        The folder to write (created if needed).
    inducer_params : mapping
        The template inducer's parameters (``random_state`` an int or None).
    dim : int
        Width of the vectors.
    n_rows : int
        Number of rows of the fitted table.
    embedding_meta : mapping
        The embedding identity.
    targets : iterable of (target, scalars, arrays, rows)
        Each target's :func:`inducer_state` and row positions, in order.
    forms : mapping of str to sequence of str, optional
        The surface forms each target was fitted on, written as ``forms`` in its entry (what
        :func:`wsd.load` finds the target by in new text when the run it came from is gone).

    Returns
    -------
    Path
        ``directory``.
    """
    directory = Path(directory)
    random_state = inducer_params.get("random_state")
    if not (random_state is None or isinstance(random_state, (int, np.integer))):
        raise ConfigError("random_state must be an int or None to save a SenseModel")
    params = json_ready(
        {k: v for k, v in inducer_params.items() if k not in LATER_DEFAULTS or v != LATER_DEFAULTS[k]},
        "inducer parameters",
    )
    entries = []
    for number, (target, scalars, arrays, rows) in enumerate(targets):
        arrays = arrays | {"rows": rows}
        folder = Path("senses") / f"{number:05d}"
        (directory / folder).mkdir(parents=True, exist_ok=True)
        for name, array in arrays.items():
            write_array(directory / folder / f"{name}.npy", np.asarray(array))
        entry = {"target": target, "folder": folder.as_posix(), "state": scalars, "arrays": sorted(arrays)}
        if forms is not None and target in forms:
            entry["forms"] = [str(form) for form in forms[target]]
        entries.append(entry)
    document = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "dim": dim,
        "n_rows": n_rows,
        "embedding_meta": embedding_meta,
        "inducer_params": params,
        "targets": entries,
    }
    write_document(directory / SENSE_MODEL_FILE, document)
    return directory


def write_document(path: Path, document: Mapping[str, Any]) -> None:
    """Write a saved model's JSON document atomically (indented by one space; NaN and infinities refused).

    Parameters
    ----------
    path : Path
        The file to write (``sense_model.json``, ``few_shot_model.json``).
    document : mapping
        JSON values only.
    """
    text = json.dumps(document, indent=1, allow_nan=False)
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def read_document(path: Path, format_name: str, format_version: int, what: str, remedy: str = "") -> dict[str, Any]:
    """Read a saved model's JSON document, checked to be an object of the expected format and version.

    Parameters
    ----------
    path : Path
        The document (:func:`write_document`).
    format_name : str
        Its ``format`` field, e.g. ``wsd-sense-model``.
    format_version : int
        Its ``format_version`` field.
    what : str
        What it holds, for the message when it cannot be read (``the sense model``).
    remedy : str
        What to do about a damaged file, added to the messages of an unreadable or non-object document.

    Returns
    -------
    dict
        The document.

    Raises
    ------
    InputError
        When the file cannot be read or parsed, holds no JSON object, or is of another format or version.
    """
    advice = f"; {remedy}" if remedy else ""
    try:
        document = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: cannot read {what} ({error}){advice}") from None
    if not isinstance(document, dict):
        raise InputError(f"{path}: expected a JSON object, found a {type(document).__name__}{advice}")
    if document.get("format") != format_name or document.get("format_version") != format_version:
        raise InputError(
            f"{path}: expected format {format_name!r} version {format_version}, "
            f"found {document.get('format')!r} version {document.get('format_version')!r}"
        )
    return document


def read_sense_model(directory: str | Path) -> tuple[dict[str, Any], list[SavedTarget]]:
    """Read a sense model folder: the checked document and each target's arrays (``allow_pickle=False``).

    Parameters
    ----------
    directory : str or Path
        The saved model's folder.

    Returns
    -------
    document : dict
        ``sense_model.json`` (format and version checked).
    targets : list of SavedTarget
        Each target's saved state, in order.
    """
    directory = Path(directory)
    path = directory / SENSE_MODEL_FILE
    if not path.is_file():
        raise InputError(f"{directory}: no {SENSE_MODEL_FILE}; not a saved sense model")
    document = read_document(path, FORMAT_NAME, FORMAT_VERSION, "the sense model")
    _check_document(document, path)
    root = directory.resolve()
    targets = []
    for entry in document["targets"]:
        target = str(entry["target"])
        folder = _inside(directory, entry["folder"], root, f"{path}: target {target!r}: folder")
        where = f"{folder} (target {target!r})"
        arrays = {}
        for name in entry["arrays"]:
            file = _inside(folder, f"{name}.npy", root, f"{where}: array")
            try:
                arrays[name] = np.load(file, allow_pickle=False)
            except (OSError, ValueError, EOFError) as error:
                raise InputError(f"{where}: cannot read {name}.npy: {error}") from None
            _check_array(arrays[name], f"{where}: {name}.npy")
        if "rows" not in arrays:
            raise InputError(f"{where}: missing 'rows'")
        rows = arrays.pop("rows")
        if rows.ndim != 1 or rows.dtype.kind not in "iu" or (len(rows) and rows.min() < 0):
            raise InputError(f"{where}: rows must be a vector of row numbers ≥ 0, found {rows.dtype} {rows.shape}")
        saved = SavedTarget(target, where, entry["state"], arrays, rows.astype(np.int64), entry.get("forms"))
        targets.append(saved)
    total = sum(len(saved.rows) for saved in targets)
    if document["n_rows"] > total or any(len(t.rows) and int(t.rows.max()) >= document["n_rows"] for t in targets):
        raise InputError(f"{path}: n_rows is {document['n_rows']}, but the targets hold {total} rows")
    return document, targets


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_document(document: dict[str, Any], path: Path) -> None:
    """Check the types of ``sense_model.json``'s fields (before any of them is used)."""
    expected = {"dim": int, "n_rows": int, "embedding_meta": dict, "inducer_params": dict, "targets": list}
    for key, kind in expected.items():
        if key not in document:
            raise InputError(f"{path}: missing field {key!r}")
        value = document[key]
        if (kind is int and not _whole(value)) or (kind is not int and not isinstance(value, kind)):
            raise InputError(f"{path}: field {key!r} must be a {kind.__name__}, not {value!r:.60}")
    if document["dim"] < 1 or document["n_rows"] < 0:
        raise InputError(f"{path}: dim must be ≥ 1 and n_rows ≥ 0, found {document['dim']} and {document['n_rows']}")
    for number, entry in enumerate(document["targets"]):
        if not isinstance(entry, dict) or not {"target", "folder", "state", "arrays"} <= set(entry):
            raise InputError(f"{path}: targets[{number}] must be an object with target, folder, state and arrays")
        if not isinstance(entry["folder"], str) or not isinstance(entry["state"], dict):
            raise InputError(f"{path}: targets[{number}]: folder must be a string and state an object")
        names = entry["arrays"]
        if not isinstance(names, list) or not all(isinstance(n, str) and ARRAY_NAME.fullmatch(n) for n in names):
            raise InputError(f"{path}: targets[{number}]: arrays must be a list of plain names, found {names!r:.80}")
        forms = entry.get("forms", [])
        if not isinstance(forms, list) or not all(isinstance(form, str) for form in forms):
            raise InputError(f"{path}: targets[{number}]: forms must be a list of strings, found {forms!r:.80}")


def _inside(base: Path, relative: str, root: Path, what: str) -> Path:
    """``base / relative``, refused unless it stays inside the model folder ``root`` (after symlinks)."""
    if Path(relative).is_absolute() or "\\" in relative:
        raise InputError(f"{what} {relative!r} must be a path relative to the model folder")
    candidate = base / relative
    if not candidate.resolve().is_relative_to(root):
        raise InputError(f"{what} {relative!r} points outside the model folder {root}")
    return candidate


def _check_array(array: np.ndarray, where: str) -> None:
    """A saved array must be numeric (or text, for form names) and finite."""
    if array.dtype.kind not in "biufU":
        raise InputError(f"{where}: unexpected dtype {array.dtype}")
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        raise InputError(f"{where}: holds NaN or infinite values; the sense model is damaged")
