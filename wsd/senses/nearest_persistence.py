"""Saving and loading a few-shot model (:class:`~wsd.senses.nearest.FewShotSenses`) as JSON + ``.npy``, never pickle.

A few-shot model folder holds ``few_shot_model.json`` (format name and version, the classifier's parameters, the
width of the vectors, the embedding identity and each target's senses) and one folder ``<n>/`` per target
of ``.npy`` arrays: its unit-length examples (``examples``) and the index of each one's sense
(``example_classes``), from which every rule's state follows (:meth:`NearestSenseClassifier.restore`), so a saved
model may also be read under another rule, number of neighbours or margin. The document records the size and
SHA-256 of every array and carries a seal (the fingerprint of the rest of it), so a truncated, edited or swapped
file is refused with one error naming it, before anything is predicted; a loaded model predicts exactly what the
saved one did.

>>> # save_few_shot(model, "out/model", embedding_meta); model, meta = load_few_shot("out/model")
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import clone

from wsd.errors import InputError
from wsd.io.checksums import file_problem, file_record, seal_intact, sealed
from wsd.io.layout import FEW_SHOT_MODEL_FILE
from wsd.io.writers import write_array
from wsd.senses.nearest import FewShotSenses, NearestSenseClassifier
from wsd.senses.persistence import _check_array, _inside, json_ready, read_document, write_document
from wsd.senses.validation import validate_params

FORMAT_NAME = "wsd-few-shot-model"
FORMAT_VERSION = 1
#: The classifier's parameters the document records (those of :class:`NearestSenseClassifier`).
CLASSIFIER_PARAMETERS = ("rule", "n_neighbors", "margin", "temperature")
#: What to do when a saved few-shot model is damaged (the end of each error).
REMEDY = "the few-shot model is damaged: save it again (SenseTagger.save, or wsd predict --examples FILE --out DIR)"
#: The arrays of each target's folder.
ARRAYS = ("examples", "example_classes")


def save_few_shot(
    model: FewShotSenses, directory: str | os.PathLike[str], embedding_meta: Mapping[str, Any] | None = None
) -> Path:
    """Write a fitted few-shot model to ``directory`` (created if needed).

    Parameters
    ----------
    model : FewShotSenses
        A fitted model; its senses must be JSON values (the text labels of a file are).
    directory : str or Path
        The folder to write.
    embedding_meta : mapping, optional
        The identity of the vectors the examples were embedded with (:meth:`wsd.Encoder.identity`), so that a
        loaded model knows its encoder.

    Returns
    -------
    Path
        ``directory``.

    Examples
    --------
    >>> import pandas as pd, tempfile
    >>> model = FewShotSenses().fit(pd.DataFrame({"target": ["bank"] * 2}), np.eye(2), ["money", "river"])
    >>> folder = save_few_shot(model, tempfile.mkdtemp())
    >>> load_few_shot(folder)[0].senses_of("bank")
    ['money', 'river']
    """
    model.check_targets([])  # fitted
    directory = Path(directory)
    classifiers = [model.classifiers_[target] for target in model.targets_]
    first = classifiers[0]
    entries = []
    for number, (target, classifier) in enumerate(zip(model.targets_, classifiers, strict=True)):
        folder = Path(f"{number:05d}")  # OUT/model/00000/x.npy: within reach of OUT's manifest
        (directory / folder).mkdir(parents=True, exist_ok=True)
        files = {}
        state = {"examples": classifier.examples_, "example_classes": classifier.example_classes_}
        for name, array in state.items():
            path = directory / folder / f"{name}.npy"
            files[name] = file_record(path, write_array(path, np.asarray(array)))
        senses = json_ready({"senses": classifier.classes_.tolist()}, f"the senses of {target!r}")["senses"]
        entries.append({"target": target, "folder": folder.as_posix(), "senses": senses, "files": files})
    document = sealed(
        {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "classifier": json_ready({name: getattr(first, name) for name in CLASSIFIER_PARAMETERS}, "parameters"),
            "dim": int(first.n_features_in_),
            "embedding_meta": json_ready(embedding_meta, "embedding_meta"),
            "targets": entries,
        }
    )
    write_document(directory / FEW_SHOT_MODEL_FILE, document)
    return directory


def is_few_shot_folder(directory: str | os.PathLike[str]) -> bool:
    """Whether ``directory`` holds a saved few-shot model (its ``few_shot_model.json``).

    Parameters
    ----------
    directory : str or Path

    Returns
    -------
    bool
    """
    return (Path(directory) / FEW_SHOT_MODEL_FILE).is_file()


def _document(path: Path) -> dict[str, Any]:
    """``few_shot_model.json``, its format, seal and field types checked."""
    document = read_document(path, FORMAT_NAME, FORMAT_VERSION, "the few-shot model", REMEDY)
    if not seal_intact(document):
        raise InputError(f"{path}: edited since it was written (its seal does not match); {REMEDY}")
    kinds = {"classifier": dict, "dim": int, "embedding_meta": dict, "targets": list}
    for key, kind in kinds.items():
        if not isinstance(document.get(key), kind) or isinstance(document.get(key), bool):
            raise InputError(f"{path}: field {key!r} must be a {kind.__name__}; {REMEDY}")
    for number, entry in enumerate(document["targets"]):
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("target"), str)
            and isinstance(entry.get("folder"), str)
            and isinstance(entry.get("senses"), list)
            and entry["senses"]
            and all(isinstance(s, (str, int, float)) and not isinstance(s, bool) for s in entry["senses"])
            and isinstance(entry.get("files"), dict)
        ):
            raise InputError(
                f"{path}: targets[{number}] must have a target, a folder, senses (text or numbers) and files; {REMEDY}"
            )
    if not document["targets"]:
        raise InputError(f"{path}: holds no target; {REMEDY}")
    return document


def _check_state(examples: np.ndarray, classes: np.ndarray, n_senses: int, dim: int, where: str) -> None:
    """Refuse saved arrays that do not fit together: the width, one sense index per example, every sense used."""
    if examples.ndim != 2 or examples.shape[1] != dim or classes.shape != (len(examples),):
        raise InputError(
            f"{where}: examples {examples.shape} and example_classes {classes.shape} do not fit {dim} dims; {REMEDY}"
        )
    if examples.dtype.kind != "f" or classes.dtype.kind not in "iu":
        raise InputError(f"{where}: examples must be floats and example_classes integers; {REMEDY}")
    if len(classes) and (classes.min() < 0 or classes.max() >= n_senses):
        raise InputError(f"{where}: example_classes must index the {n_senses} senses; {REMEDY}")
    if (np.bincount(classes, minlength=n_senses) == 0).any():
        raise InputError(f"{where}: a sense has no example; {REMEDY}")


def load_few_shot(
    directory: str | os.PathLike[str], classifier: NearestSenseClassifier | None = None
) -> tuple[FewShotSenses, dict[str, Any]]:
    """Read a few-shot model written by :func:`save_few_shot`, checking every file against its record.

    Parameters
    ----------
    directory : str or Path
        The saved model's folder.
    classifier : NearestSenseClassifier, optional
        The rule and parameters to label by (default: those the model was saved with); the saved examples are
        the same whatever the rule.

    Returns
    -------
    model : FewShotSenses
        The fitted model (it predicts what the saved one did).
    embedding_meta : dict
        The identity of the vectors it was fitted on (empty when none was recorded).

    Raises
    ------
    InputError
        When the folder holds no few-shot model, or a file of it is missing, truncated, edited or malformed (one
        line naming it).
    """
    directory = Path(directory)
    path = directory / FEW_SHOT_MODEL_FILE
    if not path.is_file():
        raise InputError(f"{directory}: no {FEW_SHOT_MODEL_FILE}; not a saved few-shot model")
    document = _document(path)
    parameters = document["classifier"]
    try:
        saved = NearestSenseClassifier(**{name: parameters[name] for name in CLASSIFIER_PARAMETERS})
        validate_params(saved)
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"{path}: field 'classifier' is malformed ({error}); {REMEDY}") from None
    base = classifier if classifier is not None else saved
    dim, root = int(document["dim"]), directory.resolve()
    classifiers = {}
    for entry in document["targets"]:
        target, senses = entry["target"], entry["senses"]
        folder = _inside(directory, entry["folder"], root, f"{path}: target {target!r}: folder")
        where = f"{folder} (target {target!r})"
        arrays = {}
        for name in ARRAYS:
            file = _inside(folder, f"{name}.npy", root, f"{where}: array")
            problem = file_problem(file, entry["files"].get(name))
            if problem is not None:
                raise InputError(f"{file}: {problem}; {REMEDY}")
            try:
                arrays[name] = np.load(file, allow_pickle=False)
            except (OSError, ValueError, EOFError) as error:
                raise InputError(f"{file}: cannot read it ({error}); {REMEDY}") from None
            _check_array(arrays[name], f"{where}: {name}.npy")
        if len(set(senses)) != len(senses):
            raise InputError(f"{where}: the senses repeat; {REMEDY}")
        _check_state(arrays["examples"], arrays["example_classes"], len(senses), dim, where)
        classes = np.asarray(senses, dtype=object)
        classifiers[target] = clone(base).restore(classes, arrays["examples"], arrays["example_classes"])
    model = FewShotSenses(clone(base))
    model.classifiers_ = classifiers
    model.targets_ = sorted(classifiers)
    return model, dict(document["embedding_meta"])
