"""Where the models that ``wsd tune --recipe NAME`` builds live, and what ``--model wsd:NAME`` loads.

A recipe's model is built once into ``$WSD_MODELS_DIR/NAME`` (default ``~/.cache/wsd/models/NAME``), the way a
Hub model is downloaded once into the Hugging Face cache; ``wsd:NAME`` then names it wherever a model is taken.
Hub repository ids have no colon, so the prefix never hides one.

>>> built_model_folder("wsd:sense-minilm")                  # doctest: +SKIP
PosixPath('/home/me/.cache/wsd/models/sense-minilm')
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from wsd.errors import ModelError
from wsd.io.layout import TUNE_FILE
from wsd.schema import RECIPE_NAMES, TUNE_RECIPES

__all__ = [
    "MODEL_PREFIX",
    "built_model_folder",
    "models_dir",
    "recipe_folder",
    "shipped_for_vectors",
    "shipped_sense_recipe",
]

#: The prefix of a model argument that names a recipe's model (``wsd:sense-minilm``).
MODEL_PREFIX = "wsd:"


def models_dir() -> Path:
    """The folder of the recipes' models: ``$WSD_MODELS_DIR``, else ``~/.cache/wsd/models``.

    Returns
    -------
    Path
    """
    return Path(os.environ.get("WSD_MODELS_DIR", Path.home() / ".cache" / "wsd" / "models")).expanduser()


def recipe_folder(name: str) -> Path:
    """Where the model of a recipe is built.

    Parameters
    ----------
    name : str
        A recipe name (:data:`wsd.schema.TUNE_RECIPES`).

    Returns
    -------
    Path
    """
    return models_dir() / name


def built_model_folder(model: str) -> Path:
    """The folder of a ``wsd:NAME`` model argument, which must have been built.

    Parameters
    ----------
    model : str
        ``wsd:`` and a recipe name.

    Returns
    -------
    Path
        The built model folder.

    Raises
    ------
    ModelError
        For an unknown recipe, one not built yet, or one an older version of its recipe built or whose card cannot
        be read (each message gives the command that builds it).
    """
    name = model[len(MODEL_PREFIX) :]
    if name not in TUNE_RECIPES:
        raise ModelError(f"unknown model {model!r}: wsd:NAME names a tuning recipe, one of {', '.join(TUNE_RECIPES)}")
    folder = recipe_folder(name)
    if not (folder / TUNE_FILE).is_file():
        raise ModelError(
            f"model {model} is not built yet (no model in {folder}): build it once with `wsd tune --recipe {name}`"
        )
    from wsd.tune.recipes import resolve_recipe

    expected = resolve_recipe(name).version
    try:
        built = _recipe_stamp(folder).get("version", 1)
    except ValueError as exc:
        raise ModelError(f"model {model}: {exc}; build it again with `wsd tune --recipe {name} --overwrite`") from None
    if isinstance(built, int) and built > expected:
        raise ModelError(
            f"model {model} in {folder} was built by version {built} of the recipe, a later wsd's; this wsd builds "
            f"version {expected}: update wsd, or build this version with `wsd tune --recipe {name} --overwrite`"
        )
    if built != expected:
        raise ModelError(
            f"model {model} in {folder} was built by version {built} of the recipe, which now builds another model "
            f"(version {expected}): build it again with `wsd tune --recipe {name}` (where the earlier model is the "
            "new one's trained part, in seconds; else with --overwrite)"
        )
    return folder


def _recipe_stamp(folder: Path) -> dict[str, Any]:
    """The ``recipe`` a model folder's ``wsd_tune.json`` records (empty: it records none).

    Raises ValueError for a card that cannot be read as a JSON object (truncated, damaged), naming it.
    """
    card = folder / TUNE_FILE
    try:
        facts = json.loads(card.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{card} cannot be read ({type(exc).__name__})") from None
    if not isinstance(facts, dict):
        raise ValueError(f"{card} is not a model card (a JSON object)")
    stamp = facts.get("recipe")
    return stamp if isinstance(stamp, dict) else {}


def shipped_for_vectors(model: str | os.PathLike[str] | None, context_vector: str | None) -> str | None:
    """The sense recipe a model ships (:func:`shipped_sense_recipe`), where the vectors are that recipe's: the
    context vector not given (None) or given as the recipe's own. Vectors made otherwise keep the default recipe,
    whose settings the user's vectors were not chosen against either, rather than a recipe chosen for others.

    Parameters
    ----------
    model : str, path or None
        A ``--model`` argument.
    context_vector : str or None
        ``--context-vector`` as given (None: not given).

    Returns
    -------
    str or None
    """
    from wsd.senses.recipes import embedding_recipe

    shipped = shipped_sense_recipe(model)
    if shipped is None or context_vector is None:
        return shipped
    return shipped if context_vector == embedding_recipe(shipped)["context_vector"] else None


def shipped_sense_recipe(model: str | os.PathLike[str] | None) -> str | None:
    """The sense recipe that ships with a model: ``wsd:NAME``'s, or the one a recipe's model folder records.

    Parameters
    ----------
    model : str, path or None
        A ``--model`` argument (None: the bundled model, which ships none).

    Returns
    -------
    str or None
        A name of :data:`wsd.schema.RECIPE_NAMES`, or None (the default recipe applies).

    Raises
    ------
    ModelError
        For a model folder whose card names a sense recipe this wsd does not know.

    Examples
    --------
    >>> shipped_sense_recipe("wsd:sense-minilm")
    'sense-minilm'
    >>> shipped_sense_recipe(None) is None
    True
    """
    text = os.fspath(model) if model is not None else ""
    if not text:
        return None
    if text.startswith(MODEL_PREFIX):
        from wsd.tune.recipes import RECIPES

        recipe = RECIPES.get(text[len(MODEL_PREFIX) :])
        return recipe.senses if recipe is not None else None
    folder = Path(text).expanduser()
    if not (folder / TUNE_FILE).is_file():
        return None
    try:
        senses = _recipe_stamp(folder).get("senses")
    except ValueError:
        return None  # a damaged card is named by the loading of the model, where it matters
    if senses is None:
        return None
    if senses not in RECIPE_NAMES:
        raise ModelError(
            f"{folder / TUNE_FILE}: it names the sense recipe {senses!r}, which this wsd does not know "
            f"({', '.join(RECIPE_NAMES)}); give --recipe, or update wsd"
        )
    return str(senses)
