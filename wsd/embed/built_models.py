"""Where the models that ``wsd tune --recipe NAME`` builds live, and what ``--model wsd:NAME`` loads.

A recipe's model is built once into ``$WSD_MODELS_DIR/NAME`` (default ``~/.cache/wsd/models/NAME``), the way a
Hub model is downloaded once into the Hugging Face cache; ``wsd:NAME`` then names it wherever a model is taken.
Hub repository ids have no colon, so the prefix never hides one.

>>> built_model_folder("wsd:sense-minilm")                  # doctest: +SKIP
PosixPath('/home/me/.cache/wsd/models/sense-minilm')
"""

from __future__ import annotations

import os
from pathlib import Path

from wsd.errors import ModelError
from wsd.io.layout import TUNE_FILE
from wsd.io.recipe_stamp import read_recipe_stamp
from wsd.schema import TUNE_MODEL_PREFIX, TUNE_RECIPE_VERSIONS, TUNE_RECIPES, TUNE_RECIPES_ON_BASE

__all__ = ["built_model_folder", "models_dir", "recipe_folder"]


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
    name = model[len(TUNE_MODEL_PREFIX) :]
    if name not in TUNE_RECIPES:
        raise ModelError(f"unknown model {model!r}: wsd:NAME names a tuning recipe, one of {', '.join(TUNE_RECIPES)}")
    folder = recipe_folder(name)
    build = f"wsd tune --recipe {name}" + (" --model BASE" if name in TUNE_RECIPES_ON_BASE else "")
    if not (folder / TUNE_FILE).is_file():
        raise ModelError(f"model {model} is not built yet (no model in {folder}): build it once with `{build}`")
    expected = TUNE_RECIPE_VERSIONS[name]
    try:
        built = read_recipe_stamp(folder).get("version", 1)
    except ValueError as exc:
        raise ModelError(f"model {model}: {exc}; build it again with `{build} --overwrite`") from None
    if isinstance(built, int) and built > expected:
        raise ModelError(
            f"model {model} in {folder} was built by version {built} of the recipe, a later wsd's; this wsd builds "
            f"version {expected}: update wsd, or build this version with `{build} --overwrite`"
        )
    if built != expected:
        raise ModelError(
            f"model {model} in {folder} was built by version {built} of the recipe, which now builds another model "
            f"(version {expected}): build it again with `{build}` (where the earlier model is the "
            "new one's trained part, in seconds; else with --overwrite)"
        )
    return folder
