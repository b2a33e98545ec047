"""Named recipes: how word vectors are made, how senses are induced, how they are written as a key.

A recipe has three parts, each typed (:class:`EmbeddingRecipe`, :class:`SenseRecipe`, :class:`OutputRecipe`): the
*embedding* (options of :class:`wsd.Encoder`), the *senses* (parameters of :class:`~wsd.senses.SenseInducer`) and the
*output* (how ``wsd evaluate`` turns senses into a system key: hard labels, or graded memberships). ``recipe(name)``
returns a copy of the senses part as a plain dict of keywords, as before (``embedding_recipe``, ``output_recipe`` the
others).

``textbook`` is the baseline every result is compared with: the sum of the last four layers, mean of the
subword pieces, k-means per word with k chosen by silhouette over 2..7, on the raw vectors, hard labels.

``default`` is what ``wsd cluster``, ``wsd evaluate`` and ``wsd run`` use when nothing else is asked
(chosen on SemEval-2010 and half of the SemEval-2013 words; see ``experiments/results/ablate/quality.md``):

- embedding: the target vector (sum of the last four layers, mean of the pieces) beside a *context vector*,
  the mean of the last layer over the 20 subword tokens either side of the occurrence, each L2-normalised,
  the context weighted 0.5 (:mod:`wsd.embed.context`);
- senses: half of each surface form's offset from the word mean removed (``center_forms=0.5``: *mice* and
  *mouse* no longer split a word by form), L2 normalisation, Ward clustering with k chosen by silhouette
  over 2..7, sharp soft memberships (``temperature=0.04``); a word with fewer than :data:`MIN_SPLIT_USES` uses
  keeps one sense (``min_split_uses``: below it a split agrees with the gold senses no better than one sense,
  ``experiments/results/one_sense_floor/one_sense_floor.md``);
- output: graded keys, each occurrence's senses with relative membership > 0.2, at most 2. Scorers of
  single-sense golds (SemEval-2010, RUSSE) read an occurrence's highest-weighted sense, so on them this is
  the hard labelling.

``sense-minilm`` is the default recipe made for the encoder of the same name (``wsd tune --recipe sense-minilm``,
``--model wsd:sense-minilm``), which ships with it: ``wsd run``, ``wsd evaluate``, ``wsd embed`` (its context
vector) and the Python API take it when that model is given and no recipe is, and ``wsd cluster`` for a run that
model embedded with it. A tuned encoder spreads its cosines more than the model the default recipe was chosen
for, and two of the default's settings are in the encoder's units; so ``experiments/encoder_recipe.py`` chose them
again for the tuned model by the default's own rule (the best mean of SemEval-2010 AVG and SemEval-2013 AVG of
the words at even alphabetical positions, 72 settings; the odd half held out), and its training seeds 0 and 1
chose the same: the context weighted 0.3 instead of 0.5 and a softer temperature, 0.08
(``experiments/results/encoder_recipe/encoder_recipe.md``). Everything else is the default's.

``sense-mpnet`` is the same for the encoder of its name (``wsd tune --recipe sense-mpnet --model BASE``, the
Word-in-Context mix on all-mpnet-base-v2, averaged the same way): the rule of ``encoder_recipe.py --family mpnet``
chose, for that model's training seed 0 (the seed the recipe builds), the context weighted 0.3, the temperature
0.08 and graded keys of the senses above 0.1 (instead of 0.2), at most 2
(``experiments/results/encoder_recipe/encoder_recipe-mpnet.md``). Everything else is the default's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal, TypedDict

from wsd import schema
from wsd.errors import ConfigError

#: The fewest uses the default recipe splits into senses (``min_split_uses``). Chosen by
#: ``python -m experiments.one_sense_floor`` on the SemEval-2013 and SemEval-2010 words at even alphabetical
#: positions: the smallest number of uses from which a split's gain in ARI over one sense is above 0 (95% interval
#: over words) at every larger number measured (experiments/results/one_sense_floor/one_sense_floor.md).
MIN_SPLIT_USES = 8


class SenseRecipe(TypedDict, total=False):
    """The senses part of a recipe: keywords of :class:`~wsd.senses.SenseInducer` (the rest keep its defaults)."""

    method: schema.ClusteringMethod
    k: int | Literal["auto"]
    selection: schema.Selection
    k_range: tuple[int, int]
    normalize: bool
    center_forms: float
    temperature: float | Literal["auto"]
    min_split_uses: int


class EmbeddingRecipe(TypedDict):
    """The embedding part of a recipe: keywords of :class:`wsd.Encoder` (``context_vector`` None: off)."""

    layers: str
    pooling: schema.Pooling
    context_vector: str | None


class OutputRecipe(TypedDict):
    """The output part of a recipe: graded memberships or hard labels, and which senses an occurrence keeps."""

    graded: bool
    min_weight: float
    top: int | None


TEXTBOOK: SenseRecipe = {"method": "kmeans", "k": "auto", "selection": "silhouette", "k_range": (2, 7)}
DEFAULT: SenseRecipe = {
    "method": "ward",
    "k": "auto",
    "selection": "silhouette",
    "k_range": (2, 7),
    "normalize": True,
    "center_forms": 0.5,
    "temperature": 0.04,
    "min_split_uses": MIN_SPLIT_USES,
}

#: ``sense-minilm``'s softmax temperature (module docstring).
SENSE_MINILM_TEMPERATURE = 0.08
SENSE_MINILM: SenseRecipe = DEFAULT | {"temperature": SENSE_MINILM_TEMPERATURE}

#: ``sense-mpnet``'s senses: the default with ``sense-minilm``'s temperature (module docstring).
SENSE_MPNET: SenseRecipe = DEFAULT | {"temperature": SENSE_MINILM_TEMPERATURE}

TEXTBOOK_EMBEDDING: EmbeddingRecipe = {"layers": "sum-last-4", "pooling": "mean", "context_vector": None}
DEFAULT_EMBEDDING: EmbeddingRecipe = {
    "layers": schema.DEFAULT_LAYERS,
    "pooling": schema.DEFAULT_POOLING,
    "context_vector": schema.DEFAULT_CONTEXT_VECTOR,
}
#: ``sense-minilm``'s context vector: the default's window, weighted 0.3 (module docstring).
SENSE_MINILM_EMBEDDING: EmbeddingRecipe = DEFAULT_EMBEDDING | {"context_vector": "20:last:0.3"}
#: ``sense-mpnet``'s context vector: as ``sense-minilm``'s (module docstring).
SENSE_MPNET_EMBEDDING: EmbeddingRecipe = SENSE_MINILM_EMBEDDING

TEXTBOOK_OUTPUT: OutputRecipe = {"graded": False, "min_weight": 0.0, "top": None}
DEFAULT_OUTPUT: OutputRecipe = {"graded": True, "min_weight": 0.2, "top": 2}
#: ``sense-mpnet``'s keys: graded, the senses above 0.1, at most 2 (module docstring).
SENSE_MPNET_OUTPUT: OutputRecipe = DEFAULT_OUTPUT | {"min_weight": 0.1}

#: Each part of every recipe, by recipe name (the names of :data:`wsd.schema.RECIPE_NAMES`, ``--recipe``).
RECIPES: dict[str, SenseRecipe] = {
    "textbook": TEXTBOOK,
    "default": DEFAULT,
    "sense-minilm": SENSE_MINILM,
    "sense-mpnet": SENSE_MPNET,
}
EMBEDDINGS: dict[str, EmbeddingRecipe] = {
    "textbook": TEXTBOOK_EMBEDDING,
    "default": DEFAULT_EMBEDDING,
    "sense-minilm": SENSE_MINILM_EMBEDDING,
    "sense-mpnet": SENSE_MPNET_EMBEDDING,
}
OUTPUTS: dict[str, OutputRecipe] = {
    "textbook": TEXTBOOK_OUTPUT,
    "default": DEFAULT_OUTPUT,
    "sense-minilm": DEFAULT_OUTPUT,
    "sense-mpnet": SENSE_MPNET_OUTPUT,
}

if not set(schema.RECIPE_NAMES) == set(RECIPES) == set(EMBEDDINGS) == set(OUTPUTS):  # pragma: no cover
    raise RuntimeError("the recipe names of wsd.schema.Recipe and wsd.senses.recipes disagree")


def _part(parts: Mapping[str, Mapping[str, Any]], name: str) -> dict[str, Any]:
    """A copy of one part of the recipe ``name`` (``parts``: :data:`RECIPES`, :data:`EMBEDDINGS` or :data:`OUTPUTS`).

    A plain dict: callers merge it with other keywords (``recipe("default") | {"k": 3}``), which a TypedDict's
    ``|`` would type as ``dict[str, object]``.
    """
    if name not in parts:
        raise ConfigError(f"unknown recipe {name!r} (choose one of {', '.join(RECIPES)})")
    return dict(parts[name])


def recipe(name: str) -> dict[str, Any]:
    """A copy of the inducer parameters of a named recipe.

    Parameters
    ----------
    name : str
        ``textbook``, ``default``, ``sense-minilm`` or ``sense-mpnet`` (:data:`wsd.schema.RECIPE_NAMES`).

    Returns
    -------
    dict
        Keywords of :class:`~wsd.senses.SenseInducer` (``method``, ``k``, ``selection``, ...).

    Examples
    --------
    >>> recipe("textbook")["method"]
    'kmeans'
    """
    return _part(RECIPES, name)


def embedding_recipe(name: str) -> dict[str, Any]:
    """A copy of the embedding options of a named recipe.

    Parameters
    ----------
    name : str
        A recipe of :data:`EMBEDDINGS`.

    Returns
    -------
    dict
        Keywords of :class:`wsd.Encoder`: ``layers``, ``pooling`` and ``context_vector``.

    Examples
    --------
    >>> embedding_recipe("textbook")["context_vector"] is None
    True
    """
    return _part(EMBEDDINGS, name)


def output_recipe(name: str) -> dict[str, Any]:
    """A copy of the output settings of a named recipe: how ``wsd evaluate`` writes senses as a key.

    Parameters
    ----------
    name : str
        A recipe of :data:`OUTPUTS`.

    Returns
    -------
    dict
        ``graded`` (memberships or hard labels), ``min_weight`` and ``top`` (the senses kept per occurrence).

    Examples
    --------
    >>> output_recipe("default")["graded"]
    True
    """
    return _part(OUTPUTS, name)


def shipped_for_vectors(model: str | os.PathLike[str] | None, context_vector: str | None) -> str | None:
    """The sense recipe a model ships (:func:`wsd.io.recipe_stamp.shipped_sense_recipe`), where the vectors are that
    recipe's: the context vector not given (None) or given as the recipe's own. Vectors made otherwise keep the
    default recipe rather than a recipe chosen for other vectors.

    Parameters
    ----------
    model : str, path or None
        A ``--model`` argument.
    context_vector : str or None
        ``--context-vector`` as given (None: not given).

    Returns
    -------
    str or None
        A recipe name, or None (the default applies).

    Examples
    --------
    >>> shipped_for_vectors("wsd:sense-minilm", None), shipped_for_vectors("wsd:sense-minilm", "20:last:0.5")
    ('sense-minilm', None)
    """
    from wsd.io.recipe_stamp import shipped_sense_recipe

    shipped = shipped_sense_recipe(model)
    if shipped is None or context_vector is None:
        return shipped
    return shipped if context_vector == embedding_recipe(shipped)["context_vector"] else None
