"""Saving and loading fitted senses as JSON + plain ``.npy`` files (never pickle), with every shape checked.

A sense model folder holds ``sense_model.json`` (format name and version, dims, the embedding identity, the
inducer's parameters and each target's scalars) and one folder ``senses/<n>/`` per target of ``.npy`` arrays
(preprocessing state with the prefix ``preprocess_``, ``labels``, ``cluster_centers``, mixture parameters or
hash buckets, and ``rows``). The layout and field names are those of format version 1; models saved before
the estimators were split up load unchanged.

>>> # model.save("runs/x/senses/model"); SenseModel.load("runs/x/senses/model")   (see SenseModel)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from wsd.errors import ConfigError, InputError

if TYPE_CHECKING:
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.model import SenseModel
    from wsd.senses.preprocess import Preprocessor

MODEL_FILE = "sense_model.json"
FORMAT_NAME = "wsd-sense-model"
FORMAT_VERSION = 1
#: Prefix of the preprocessing arrays among a target's arrays.
PREPROCESS_PREFIX = "preprocess_"


def json_ready(meta: Mapping[str, Any] | None, what: str) -> dict[str, Any]:
    """A JSON round trip of ``meta`` (tuples become lists), so fresh and loaded metas compare equal.

    Parameters
    ----------
    meta : mapping or None
        JSON-serialisable values.
    what : str
        What ``meta`` is, for the error message.

    Returns
    -------
    dict
    """
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
    from sklearn.utils.validation import check_is_fitted

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
    params: Mapping[str, Any],
    scalars: Mapping[str, Any],
    arrays: Mapping[str, np.ndarray],
    where: str = "saved state",
) -> SenseInducer:
    """Rebuild a fitted inducer from :func:`inducer_state` output, checking that the arrays fit together.

    Parameters
    ----------
    params : mapping
        The inducer's parameters.
    scalars : mapping
        Its saved scalars.
    arrays : mapping of str to ndarray
        Its saved arrays.
    where : str
        Where the state comes from, for error messages.

    Returns
    -------
    SenseInducer
        A fitted inducer.
    """
    from wsd.senses.inducer import SenseInducer

    try:
        model = SenseInducer(**inducer_params(params))
    except TypeError as error:
        raise InputError(f"{where}: unknown inducer parameter: {error}") from None
    model._validate_params()
    try:
        model.assignment_ = str(scalars["assignment"])
        model.distance_ = str(scalars["distance"])
        model.temperature_ = float(scalars["temperature"])
        model.n_features_in_ = int(scalars["n_features_in"])
        model.n_senses_ = int(scalars["n_senses"])
        model.n_clusters_ = int(scalars["n_clusters"])
        model.n_reassigned_ = int(scalars["n_reassigned"])
        model.k_scores_ = {int(k): float("nan") if v is None else float(v) for k, v in scalars["k_scores"]}
        preprocess = {
            key[len(PREPROCESS_PREFIX) :]: value for key, value in arrays.items() if key.startswith(PREPROCESS_PREFIX)
        }
        model.preprocessor_ = restore_preprocessor(model.make_preprocessor(), preprocess, where)
        model.labels_ = np.asarray(arrays["labels"], dtype=np.int64)
        model.cluster_centers_ = np.asarray(arrays["cluster_centers"], dtype=np.float64)
        if model.assignment_ == "gaussian":
            model.mixture_weights_ = np.asarray(arrays["mixture_weights"], dtype=np.float64)
            model.mixture_means_ = np.asarray(arrays["mixture_means"], dtype=np.float64)
            model.mixture_precisions_cholesky_ = np.asarray(arrays["mixture_precisions_cholesky"], dtype=np.float64)
            model.component_senses_ = np.asarray(arrays["component_senses"], dtype=np.int64)
        elif model.assignment_ == "random":
            model.random_seed_ = int(scalars["random_seed"])
            model.bucket_senses_ = np.asarray(arrays["bucket_senses"], dtype=np.int64)
        elif model.assignment_ != "centroid":
            raise InputError(f"{where}: unknown assignment {model.assignment_!r}")
    except KeyError as missing:
        raise InputError(f"{where}: missing {missing.args[0]!r}") from None
    _check_inducer_state(model, where)
    return model


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


def save_sense_model(model: SenseModel, directory: str | Path) -> Path:
    """Write a fitted :class:`~wsd.senses.SenseModel` to ``directory`` (created if needed).

    Parameters
    ----------
    model : SenseModel
        A fitted model.
    directory : str or Path
        The folder to write.

    Returns
    -------
    Path
        ``directory``.
    """
    from wsd.senses.inducer import SenseInducer

    model._check_fitted()
    directory = Path(directory)
    template = model.inducer if model.inducer is not None else SenseInducer()
    params = template.get_params(deep=False)
    if not (params["random_state"] is None or isinstance(params["random_state"], (int, np.integer))):
        raise ConfigError("random_state must be an int or None to save a SenseModel")
    params = json_ready(params, "inducer parameters")
    entries = []
    for number, target in enumerate(model.targets_):
        scalars, arrays = inducer_state(model.inducers_[target])
        arrays = arrays | {"rows": model.rows_[target]}
        folder = Path("senses") / f"{number:05d}"
        (directory / folder).mkdir(parents=True, exist_ok=True)
        for name, array in arrays.items():
            np.save(directory / folder / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)
        entries.append({"target": target, "folder": folder.as_posix(), "state": scalars, "arrays": sorted(arrays)})
    document = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "dim": model.dim_,
        "n_rows": len(model.labels_),
        "embedding_meta": model.embedding_meta_,
        "inducer_params": params,
        "targets": entries,
    }
    (directory / MODEL_FILE).write_text(json.dumps(document, indent=1, allow_nan=False), encoding="utf-8")
    return directory


def load_sense_model(directory: str | Path) -> SenseModel:
    """Read a model written by :func:`save_sense_model`, validating the format and every array's shape.

    Parameters
    ----------
    directory : str or Path
        The saved model's folder.

    Returns
    -------
    SenseModel
        A fitted model.
    """
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.model import SenseModel

    directory = Path(directory)
    path = directory / MODEL_FILE
    if not path.is_file():
        raise InputError(f"{directory}: no {MODEL_FILE}; not a saved sense model")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: cannot read the sense model: {error}") from None
    if document.get("format") != FORMAT_NAME or document.get("format_version") != FORMAT_VERSION:
        raise InputError(
            f"{path}: expected format {FORMAT_NAME!r} version {FORMAT_VERSION}, "
            f"found {document.get('format')!r} version {document.get('format_version')!r}"
        )
    try:
        params = document["inducer_params"]
        model = SenseModel(SenseInducer(**inducer_params(params)), embedding_meta=document["embedding_meta"])
        model.dim_ = int(document["dim"])
        model.embedding_meta_ = dict(document["embedding_meta"])
        labels = np.full(int(document["n_rows"]), -1, dtype=np.int64)
        inducers, rows_of = {}, {}
        for entry in document["targets"]:
            target, folder = str(entry["target"]), directory / entry["folder"]
            where = f"{folder} (target {target!r})"
            arrays = {}
            for name in entry["arrays"]:
                try:
                    arrays[name] = np.load(folder / f"{name}.npy", allow_pickle=False)
                except (OSError, ValueError) as error:
                    raise InputError(f"{where}: cannot read {name}.npy: {error}") from None
            rows = np.asarray(arrays.pop("rows"), dtype=np.int64)
            inducer = inducer_from_state(params, entry["state"], arrays, where)
            if inducer.n_features_in_ != model.dim_:
                raise InputError(f"{where}: fitted on {inducer.n_features_in_} dims, the model says {model.dim_}")
            if rows.shape != inducer.labels_.shape or (len(rows) and rows.max() >= len(labels)):
                raise InputError(f"{where}: rows do not match its {len(inducer.labels_)} labels")
            inducers[target], rows_of[target] = inducer, rows
            labels[rows] = inducer.labels_
    except KeyError as missing:
        raise InputError(f"{path}: missing field {missing.args[0]!r}") from None
    except TypeError as error:
        raise InputError(f"{path}: malformed sense model: {error}") from None
    model.labels_ = labels
    model.rows_ = rows_of
    model.targets_ = list(inducers)
    model.inducers_ = inducers
    return model
