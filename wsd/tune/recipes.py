"""Named tuning recipes: a tuned encoder rebuilt in one step, kept in wsd's model folder cache like a Hub model.

``wsd tune --recipe NAME`` trains the encoder that the recipe names, from data a user can obtain, into
``$WSD_MODELS_DIR/NAME`` (default ``~/.cache/wsd/models``); ``--model wsd:NAME`` then loads it everywhere in wsd,
and a recipe that was never built is one line saying how to build it. A recipe fixes the training options it was
measured with (seed 0, fp32, deterministic algorithms: a recipe built twice on one machine is the same model,
bit for bit); a flag that contradicts it is refused.

A recipe's sources are files of the public datasets, found under one data folder laid out as
``../shared/datasets`` is: ``--data-dir DIR``, else ``$WSD_DATA_DIR``. ``--train KIND:PATH`` replaces the
recipe's sources of that kind.

``sense-minilm`` (version 2)
    The bundled MiniLM tuned for one epoch (732 steps of 24 uses) on WiC's training pairs and MCL-WiC's English
    training pairs, then averaged with the untuned MiniLM: 0.25 untuned + 0.75 tuned (WiSE-FT). The training mix
    is the one ``experiments/sense_minilm.py`` chose among four (with and without WordNet's example pairs, 300
    steps or one epoch) on held-out pairs of its training files (``experiments/results/sense_minilm/sense_minilm.md``);
    the average is the candidate that ``experiments/sense_minilm_inventory.py`` chose by its rule, with a sense
    inventory among the choice data (``experiments/results/sense_minilm_inventory/sense_minilm_inventory.md``).
    Version 1 was the tuned mix alone; a model it built is refused by ``--model wsd:sense-minilm`` until rebuilt,
    and ``wsd tune --recipe sense-minilm`` rebuilds it in seconds (it is this version's trained part: moved beside
    the folder, then averaged).
    The trained mix is kept beside the model (``NAME.trained``), so an interrupted build resumes. About 18
    minutes on one CPU core. Its lemma list (``recipe_data/sense-minilm-excluded.txt``) leaves out every lemma of
    SemEval-2013, SemEval-2010 and DWUG EN and the experiments' choice lemmas, so the model built is the model
    scored there, on words it never saw. It ships with the sense recipe of its name
    (:mod:`wsd.senses.recipes`), chosen for it on SemEval, which ``wsd run``, ``wsd evaluate``, ``wsd embed`` (its
    context vector) and the Python API take when it is the model and no recipe is given, and ``wsd cluster`` for a
    run it embedded.
``sense-mpnet`` (version 1)
    ``sense-minilm``'s recipe on a base you name, ``--model BASE``: all-mpnet-base-v2 (the Hub name
    ``sentence-transformers/all-mpnet-base-v2``, or the folder ``../shared/models/get-mpnet.sh`` converts). The
    same training (one epoch, 732 steps, the same sources and lemma list, seed 0, the portable fp32 arithmetic),
    then the same average, 0.25 untuned + 0.75 tuned. ``experiments/sense_mpnet.py`` measured this construction
    over three training seeds (its WiSE-FT rows) and ``experiments/encoder_recipe.py --family mpnet`` chose a sense
    recipe for each; the model ships the sense recipe of its name, the one chosen for seed 0. About two hours of
    training on 2 CPU cores.
``sense-multilingual``
    A multilingual base (``--model BASE``, e.g. the multilingual-e5-small folder of ``../shared/models``) tuned on
    MCL-WiC in every language (training, dev and the gold-labelled test files), AM2iCo (de-en, ru-en), the
    Norwegian and Russian WUG sets (NorDiaChange 1 and 2, RuSemShift 1 and 2) and WiC (train and dev). Each use
    keeps at most 128 subword tokens either side of its target (``window_tokens``): the WUG usages run to
    paragraphs (NorDiaChange 1: 1% above 1,300 characters, the longest 2,877), and a step of 24 such uses padded to
    512 tokens took the first run of this recipe to 18 GiB resident on a 24 GiB machine, where it was killed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from wsd.errors import ConfigError
from wsd.options import TuneOptions
from wsd.schema import (
    DATA_DIR_VARIABLE,
    RECIPE_NAMES,
    TUNE_RECIPE_SENSES,
    TUNE_RECIPE_VERSIONS,
    TUNE_RECIPES,
    TUNE_RECIPES_ON_BASE,
    data_location,
)

__all__ = [
    "RECIPES",
    "RecipeSource",
    "TuneRecipe",
    "recipe_excluded_lemmas",
    "recipe_options",
    "recipe_sources",
    "resolve_recipe",
]


@dataclass(frozen=True)
class RecipeSource:
    """One training source of a recipe: its kind and where it lies under the data folder.

    Parameters
    ----------
    kind : str
        The source kind (``wordnet``, ``wic``, ``wug``; as ``--train KIND:PATH``).
    path : str
        Its file or folder, relative to the data folder (``wic/train/train.data.txt``).
    """

    kind: str
    path: str


@dataclass(frozen=True)
class TuneRecipe:
    """A named way to build a tuned encoder.

    Parameters
    ----------
    name : str
        The recipe's name (``--recipe NAME``; the model is ``wsd:NAME``).
    summary : str
        What it trains, in a line.
    sources : tuple of RecipeSource
        Its training sources.
    settings : mapping
        The :class:`~wsd.options.TuneOptions` fields it fixes, by name (checked against the fields' types and
        ranges when the recipe is made).
    excluded_lemmas : str or None
        The file of ``wsd/tune/recipe_data`` listing the lemmas it never trains on (one per line).
    needs_model : bool
        Whether the base encoder is the user's (``--model BASE``) rather than the bundled one.
    wise_weight : float or None
        After training, the model is ``(1 − w)·base + w·trained`` (WiSE-FT, :mod:`wsd.tune.averaging`); None:
        the trained model itself.
    senses : str or None
        The sense recipe (:data:`wsd.schema.RECIPE_NAMES`) made for this model, which ``wsd run`` and
        ``wsd evaluate`` take when it is the model and no ``--recipe`` is given; None: the default.
    version : int
        Raised whenever the recipe builds another model; a model an older version built is refused.
    base_type : str or None
        For a recipe on the user's base, the ``model_type`` (Hugging Face configuration) it was measured on:
        another base is trained, with a warning that the measured figures and the shipped sense recipe are not
        its own. None: any base.
    base_example : str or None
        For a recipe on the user's base, the base it is made for, as the message that asks for ``--model BASE``
        names it.
    """

    name: str
    summary: str
    sources: tuple[RecipeSource, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)
    excluded_lemmas: str | None = None
    needs_model: bool = False
    wise_weight: float | None = None
    senses: str | None = None
    version: int = 1
    base_type: str | None = None
    base_example: str | None = None

    def __post_init__(self) -> None:
        TuneOptions(**self.settings)  # each a field, of its type and range: a wrong recipe fails on import
        if self.wise_weight is not None and not 0.0 < self.wise_weight < 1.0:
            raise ValueError(f"recipe {self.name}: wise_weight must lie strictly between 0 and 1")
        if self.senses is not None and self.senses not in RECIPE_NAMES:
            raise ValueError(f"recipe {self.name}: senses {self.senses!r} is no sense recipe")

    def stamp(self) -> dict[str, Any]:
        """What a model this recipe built records of it (``recipe`` in its ``wsd_tune.json``, with ``sources``).

        Returns
        -------
        dict
            ``name``, ``version``, ``senses`` and ``wise_weight``.
        """
        return {"name": self.name, "version": self.version, "senses": self.senses, "wise_weight": self.wise_weight}

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of its sources, each once, in order."""
        return tuple(dict.fromkeys(source.kind for source in self.sources))


#: ``sense-multilingual``'s context window in training (subword tokens either side of the target; module docstring).
MULTILINGUAL_WINDOW_TOKENS = 128

#: The options every recipe fixes: one seed, fp32 (bf16 rounds differently on each CPU), the portable arithmetic (the
#: same weights on every x86-64 CPU with AVX2: :mod:`wsd.tune.portable`), no validation split.
_FIXED = {"seed": 0, "validation_fraction": 0.0, "loss": "auto", "precision": "fp32", "portable": True}

RECIPES: dict[str, TuneRecipe] = {
    "sense-minilm": TuneRecipe(
        "sense-minilm",
        "the bundled MiniLM tuned for one epoch (732 steps) on the WiC and MCL-WiC en-en training pairs, "
        "then averaged 0.25 untuned + 0.75 tuned (WiSE-FT)",
        (
            RecipeSource("wic", "wic/train/train.data.txt"),
            RecipeSource("wic", "mcl-wic/training/training.en-en.data"),
        ),
        _FIXED | {"epochs": 1, "max_steps": 1000, "model": None},
        excluded_lemmas="sense-minilm-excluded.txt",
        wise_weight=0.75,
        senses="sense-minilm",
        version=2,
    ),
    "sense-mpnet": TuneRecipe(
        "sense-mpnet",
        "--model BASE (all-mpnet-base-v2) tuned as sense-minilm: one epoch (732 steps) on the WiC and MCL-WiC "
        "en-en training pairs, then averaged 0.25 untuned + 0.75 tuned (WiSE-FT)",
        (
            RecipeSource("wic", "wic/train/train.data.txt"),
            RecipeSource("wic", "mcl-wic/training/training.en-en.data"),
        ),
        _FIXED | {"epochs": 1, "max_steps": 1000},
        excluded_lemmas="sense-minilm-excluded.txt",
        needs_model=True,
        wise_weight=0.75,
        senses="sense-mpnet",
        base_type="mpnet",
        base_example="sentence-transformers/all-mpnet-base-v2, or the folder ../shared/models/get-mpnet.sh converts",
    ),
    "sense-multilingual": TuneRecipe(
        "sense-multilingual",
        "a multilingual --model BASE tuned for 1,000 steps on MCL-WiC, AM2iCo, NorDiaChange, RuSemShift and WiC",
        (
            RecipeSource("wic", "mcl-wic"),
            RecipeSource("wic", "am2ico"),
            RecipeSource("wug", "lscd/nordiachange/subset1"),
            RecipeSource("wug", "lscd/nordiachange/subset2"),
            RecipeSource("wug", "lscd/rusemshift/rusemshift_1"),
            RecipeSource("wug", "lscd/rusemshift/rusemshift_2"),
            RecipeSource("wic", "wic"),
        ),
        _FIXED | {"max_steps": 1000, "window_tokens": MULTILINGUAL_WINDOW_TOKENS},
        needs_model=True,
        base_example="the multilingual-e5-small folder that ../shared/models converts",
    ),
}
if tuple(RECIPES) != TUNE_RECIPES:  # pragma: no cover - a programming error, caught by the first import in tests
    raise RuntimeError("the schema's recipe names (wsd.schema.TUNE_RECIPES) and wsd.tune.recipes disagree")
if (
    {name: r.version for name, r in RECIPES.items()} != TUNE_RECIPE_VERSIONS
    or {name: r.senses for name, r in RECIPES.items()} != TUNE_RECIPE_SENSES
    or {name for name, r in RECIPES.items() if r.needs_model} != TUNE_RECIPES_ON_BASE
):  # pragma: no cover - a programming error, caught by the first import in tests
    raise RuntimeError(
        "the schema's recipe versions, shipped sense recipes or recipes on the user's base (TUNE_RECIPES_ON_BASE) "
        "and wsd.tune.recipes disagree"
    )


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


def data_folder(given: str | os.PathLike[str] | None) -> Path | None:
    """The recipes' data folder: ``given`` (``--data-dir``), else ``$WSD_DATA_DIR``, else None.

    Parameters
    ----------
    given : path or None
        ``--data-dir``.

    Returns
    -------
    Path or None
    """
    chosen = data_location(data_dir=given)
    return Path(chosen).expanduser() if chosen else None


def recipe_sources(recipe: TuneRecipe, data_dir: str | os.PathLike[str] | None, given: Sequence[str]) -> list[str]:
    """The ``KIND:PATH`` training sources of a recipe's run.

    Parameters
    ----------
    recipe : TuneRecipe
        The recipe.
    data_dir : path or None
        ``--data-dir`` (None: ``$WSD_DATA_DIR``, see :func:`data_folder`).
    given : sequence of str
        ``--train`` sources: each replaces the recipe's sources of its kind.

    Returns
    -------
    list of str
        The recipe's sources in its order (a given kind in the place of its first source).

    Raises
    ------
    ConfigError
        For a given kind the recipe does not train on, or a source found nowhere (the message names the data
        folder looked in and how to give one).
    """
    by_kind: dict[str, list[str]] = {}
    for spec in given:
        by_kind.setdefault(spec.split(":", 1)[0], []).append(spec)
    unknown = [spec for kind, specs in by_kind.items() if kind not in recipe.kinds for spec in specs]
    if unknown:
        raise ConfigError(
            f"--recipe {recipe.name} trains on {', '.join(k + ':' for k in recipe.kinds)} sources only, not "
            + ", ".join(unknown)
        )
    folder = data_folder(data_dir)
    sources: list[str] = []
    missing: list[str] = []
    for source in recipe.sources:
        if source.kind in by_kind:
            sources += by_kind.pop(source.kind)
            continue
        if any(spec.startswith(f"{source.kind}:") for spec in given):
            continue  # this kind was given, and placed at its first source
        path = folder / source.path if folder is not None else None
        if path is not None and path.exists():
            sources.append(f"{source.kind}:{path}")
        else:
            missing.append(source.path)
    if missing:
        where = (
            f"the data folder {folder}"
            if folder is not None
            else f"no data folder (give --data-dir DIR or set {DATA_DIR_VARIABLE})"
        )
        raise ConfigError(
            f"--recipe {recipe.name} needs {', '.join(missing)} under its data folder, laid out as "
            f"../shared/datasets; looked in {where}"
        )
    return sources


def recipe_excluded_lemmas(recipe: TuneRecipe) -> list[str]:
    """The lemmas a recipe never trains on (its ``recipe_data`` list; none for a recipe without one).

    Parameters
    ----------
    recipe : TuneRecipe
        The recipe.

    Returns
    -------
    list of str
    """
    if recipe.excluded_lemmas is None:
        return []
    text = (
        resources.files("wsd.tune").joinpath("recipe_data").joinpath(recipe.excluded_lemmas).read_text(encoding="utf-8")
    )
    return [line.strip() for line in text.splitlines() if line.strip()]


def recipe_options(recipe: TuneRecipe, given: TuneOptions) -> TuneOptions:
    """The options of a recipe's run: the recipe's fixed options over those given.

    Parameters
    ----------
    recipe : TuneRecipe
        The recipe.
    given : TuneOptions
        The options of the command (flags and config file).

    Returns
    -------
    TuneOptions
        ``given`` with the recipe's options set.

    Raises
    ------
    ConfigError
        When an option differs from its default and from the recipe's value (the recipe would not be the one
        measured), or a recipe on the user's base is given no ``--model``.

    Examples
    --------
    >>> recipe_options(resolve_recipe("sense-minilm"), TuneOptions(progress=False)).max_steps
    1000
    """
    defaults = TuneOptions()
    for key, value in recipe.settings.items():
        current = getattr(given, key)
        if current != value and current != getattr(defaults, key):
            flag = "--" + key.replace("_", "-")
            raise ConfigError(
                f"--recipe {recipe.name} fixes {flag} to {value!r}; drop {flag} {current!r}, or drop --recipe and "
                "give every option yourself"
            )
    if recipe.needs_model and not given.model:
        raise ConfigError(
            f"--recipe {recipe.name} tunes the encoder you name: give --model BASE (a model folder or Hub name, "
            f"e.g. {recipe.base_example or 'the folder that ../shared/models converts'})"
        )
    return given.replace(**recipe.settings)
