"""What a tuned model's card records (its ``wsd_tune.json``, read once here for every reader), the recipe a
recipe's model records there (``recipe``), and the sense recipe a model ships with.

``wsd tune --recipe NAME`` stamps the model it builds with the recipe's name, version, shipped sense recipe and
sources (:meth:`wsd.tune.recipes.TuneRecipe.stamp`). The commands read the stamp twice: to refuse a model another
version of the recipe built (:func:`wsd.embed.built_models.built_model_folder`), and to take the sense recipe made
for a model when no recipe is stated (:func:`shipped_sense_recipe`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from wsd.errors import ModelError
from wsd.io.layout import TUNE_FILE
from wsd.schema import RECIPE_NAMES, TUNE_MODEL_PREFIX, TUNE_RECIPE_SENSES

__all__ = ["read_recipe_stamp", "read_tune_card", "shipped_sense_recipe"]


def read_tune_card(folder: Path) -> dict[str, Any]:
    """The facts a tuned model folder's ``wsd_tune.json`` records, as one JSON object.

    The one reader of the card: the recipe stamp (:func:`read_recipe_stamp`), the tuning facts of
    :func:`wsd.tune.card.read_tune_facts` and ``wsd tune``'s checks of a recipe's folder all read it here.

    Parameters
    ----------
    folder : Path
        A model folder with a ``wsd_tune.json``.

    Returns
    -------
    dict
        As the file has it (one written by an earlier wsd may lack keys added since).

    Raises
    ------
    ValueError
        For a card that is missing, cannot be read or parsed (truncated, damaged), or holds no JSON object,
        naming it.
    """
    card = folder / TUNE_FILE
    try:
        text = card.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # missing, a folder, no permission, not UTF-8
        raise ValueError(f"{card} cannot be read ({type(exc).__name__}: {exc})") from None
    try:
        facts = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{card} cannot be read as JSON ({type(exc).__name__}: {exc})") from None
    if not isinstance(facts, dict):
        raise ValueError(f"{card} is not a model card (it holds no JSON object)")
    return facts


def read_recipe_stamp(folder: Path) -> dict[str, Any]:
    """The ``recipe`` a model folder's ``wsd_tune.json`` records (empty: it records none).

    Parameters
    ----------
    folder : Path
        A model folder with a ``wsd_tune.json``.

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        For a card that cannot be read as a JSON object (:func:`read_tune_card`), naming it.
    """
    stamp = read_tune_card(folder).get("recipe")
    return stamp if isinstance(stamp, dict) else {}


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
    if text.startswith(TUNE_MODEL_PREFIX):
        return TUNE_RECIPE_SENSES.get(text[len(TUNE_MODEL_PREFIX) :])
    folder = Path(text).expanduser()
    if not (folder / TUNE_FILE).is_file():
        return None
    try:
        senses = read_recipe_stamp(folder).get("senses")
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
