"""Named tuning recipes: a tuned encoder rebuilt in one step, kept in wsd's model folder cache like a Hub model.

``wsd tune --recipe sense-minilm`` trains the encoder that the recipe names, from the bundled MiniLM and data a
user can obtain, into ``$WSD_MODELS_DIR/sense-minilm`` (default ``~/.cache/wsd/models``); ``--model
wsd:sense-minilm`` then loads it everywhere in wsd, and a recipe that was never built is one line saying how to
build it. A recipe fixes the training options it was measured with; a flag that contradicts it is refused.

``sense-minilm``
    The bundled MiniLM tuned for 300 steps on the WordNet 3.0 example pairs (contrastive loss, seed 0, fp32
    so that every machine builds the same model, no validation split): about 150 s on 2 CPU cores. Measured
    on words it never saw (``experiments/results/tune.md``): SemEval-2013 AVG and SemEval-2010 AVG above the
    bundled model (a model built with the SemEval lemmas left out), and every DWUG EN change score above it (a
    model built with the DWUG EN lemmas left out). WordNet is found in ``$WNHOME/dict``, ``$WNHOME``,
    ``/usr/share/wordnet`` (Debian's ``wordnet-base``) or ``~/nltk_data/corpora/wordnet``, unless ``--train
    wordnet:DIR`` names it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wsd.errors import ConfigError
from wsd.schema import TUNE_RECIPES

__all__ = ["RECIPES", "TuneRecipe", "find_wordnet", "recipe_settings", "resolve_recipe"]

#: The files a WordNet database folder must hold.
WORDNET_FILES = ("data.noun", "data.verb")


@dataclass(frozen=True)
class TuneRecipe:
    """A named way to build a tuned encoder.

    Parameters
    ----------
    name : str
        The recipe's name (``--recipe NAME``; the model is ``wsd:NAME``).
    summary : str
        What it trains, in a line.
    source_kind : str
        The kind of its one training source (its path is found, or given with ``--train KIND:PATH``).
    settings : mapping
        The :class:`~wsd.tune.TuneOptions` fields it fixes.
    """

    name: str
    summary: str
    source_kind: str
    settings: Mapping[str, Any] = field(default_factory=dict)


RECIPES: dict[str, TuneRecipe] = {
    "sense-minilm": TuneRecipe(
        "sense-minilm",
        "the bundled MiniLM tuned on WordNet 3.0 example pairs for 300 steps",
        "wordnet",
        {"max_steps": 300, "seed": 0, "validation_fraction": 0.0, "loss": "auto", "precision": "fp32", "model": None},
    ),
}
if tuple(RECIPES) != TUNE_RECIPES:  # pragma: no cover - a programming error, caught by the first import in tests
    raise RuntimeError("the schema's recipe names (wsd.schema.TUNE_RECIPES) and wsd.tune.recipes disagree")


def resolve_recipe(name: str) -> TuneRecipe:
    """The recipe of a name.

    Parameters
    ----------
    name : str
        A recipe name.

    Returns
    -------
    TuneRecipe

    Raises
    ------
    ConfigError
        For a name that is no recipe.
    """
    if name not in RECIPES:
        raise ConfigError(f"unknown tuning recipe {name!r}; choose from {', '.join(RECIPES)}")
    return RECIPES[name]


def _wordnet_candidates() -> list[Path]:
    home = os.environ.get("WNHOME")
    found = [Path(home) / "dict", Path(home)] if home else []
    return [*found, Path("/usr/share/wordnet"), Path.home() / "nltk_data" / "corpora" / "wordnet"]


def find_wordnet() -> Path:
    """The WordNet 3.0 database folder of this machine.

    Returns
    -------
    Path
        The first of ``$WNHOME/dict``, ``$WNHOME``, ``/usr/share/wordnet``, ``~/nltk_data/corpora/wordnet`` that
        holds ``data.noun`` and ``data.verb``.

    Raises
    ------
    ConfigError
        When none does (the message says where to get it).
    """
    candidates = _wordnet_candidates()
    for folder in candidates:
        if all((folder / name).is_file() for name in WORDNET_FILES):
            return folder
    raise ConfigError(
        "WordNet 3.0 was not found (looked in "
        + ", ".join(str(c) for c in candidates)
        + "): pass --train wordnet:DIR, set WNHOME, or install it (Debian: apt install wordnet-base; "
        "NLTK: nltk.download('wordnet'))"
    )


def recipe_settings(recipe: TuneRecipe, given: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[tune]`` settings of a recipe's run: the recipe's fixed options over the defaults.

    Parameters
    ----------
    recipe : TuneRecipe
        The recipe.
    given : mapping
        The ``[tune]`` settings of the command (flags and config file).
    defaults : mapping
        Each option's default.

    Returns
    -------
    dict
        ``given`` with the recipe's options set.

    Raises
    ------
    ConfigError
        When a setting differs from its default and from the recipe's value (the recipe would not be the one
        measured).
    """
    settings = dict(given)
    for key, value in recipe.settings.items():
        current = settings.get(key)
        if current != value and current != defaults.get(key):
            flag = "--" + key.replace("_", "-")
            raise ConfigError(
                f"--recipe {recipe.name} fixes {flag} to {value!r}; drop {flag} {current!r}, or drop --recipe and "
                "give every option yourself"
            )
        settings[key] = value
    return settings
