"""Recipes: the textbook baseline and the default (embedding, senses, output), and how a configuration uses them."""

from __future__ import annotations

import dataclasses
import inspect
from typing import get_type_hints

import pytest

from wsd.config import EvaluationConfig, build_evaluation_config
from wsd.errors import ConfigError
from wsd.io.meta_types import shape_problem
from wsd.options import EmbeddingOptions
from wsd.schema import RECIPE_NAMES
from wsd.senses.inducer import SenseInducer, make_inducer
from wsd.senses.recipes import (
    DEFAULT,
    DEFAULT_EMBEDDING,
    DEFAULT_OUTPUT,
    EMBEDDINGS,
    OUTPUTS,
    RECIPES,
    TEXTBOOK,
    EmbeddingRecipe,
    OutputRecipe,
    SenseRecipe,
    embedding_recipe,
    output_recipe,
    recipe,
)


def test_textbook_is_the_unchanged_baseline() -> None:
    assert TEXTBOOK == {"method": "kmeans", "k": "auto", "selection": "silhouette", "k_range": (2, 7)}
    assert embedding_recipe("textbook") == {"layers": "sum-last-4", "pooling": "mean", "context_vector": None}
    assert output_recipe("textbook")["graded"] is False


def test_default_recipe_is_valid_and_differs_from_the_textbook() -> None:
    inducer = make_inducer(recipe("default"))
    assert inducer.method == DEFAULT["method"] == "ward"
    assert inducer.center_forms == 0.5 and inducer.normalize is True
    assert DEFAULT_EMBEDDING["context_vector"] and DEFAULT_OUTPUT["graded"] is True


@pytest.mark.parametrize("name", RECIPE_NAMES)
def test_every_part_of_a_recipe_has_its_declared_type(name: str) -> None:
    assert shape_problem(RECIPES[name], SenseRecipe, strict=True) is None
    assert shape_problem(EMBEDDINGS[name], EmbeddingRecipe, strict=True) is None
    assert shape_problem(OUTPUTS[name], OutputRecipe, strict=True) is None
    # each declared key is a keyword of what the part configures: the inducer, the encoder's options
    assert set(get_type_hints(SenseRecipe)) <= set(inspect.signature(SenseInducer).parameters)
    assert set(get_type_hints(EmbeddingRecipe)) <= {field.name for field in dataclasses.fields(EmbeddingOptions)}


def test_a_recipe_value_of_another_type_is_named() -> None:
    assert shape_problem(TEXTBOOK | {"method": "k-means"}, SenseRecipe) == (
        "method must be one of 'kmeans', 'agglomerative', 'ward', 'hdbscan', 'gmm', 'spectral', not 'k-means'"
    )
    assert shape_problem({"k_range": (2,)}, SenseRecipe) == "k_range must be a list of 2, not (2,)"
    assert (
        shape_problem(DEFAULT_OUTPUT | {"ceiling": 3}, OutputRecipe, strict=True) == "ceiling is no key of OutputRecipe"
    )


def test_copies_are_returned_and_unknown_names_fail() -> None:
    recipe("default")["method"] = "changed"
    embedding_recipe("default")["layers"] = "changed"
    assert DEFAULT["method"] == "ward" and DEFAULT_EMBEDDING["layers"] == "sum-last-4"
    for function in (recipe, embedding_recipe, output_recipe):
        with pytest.raises(ConfigError, match="unknown recipe"):
            function("fancy")


def test_configuration_defaults_come_from_the_default_recipe() -> None:
    config = EvaluationConfig()
    assert config.embedding == EmbeddingOptions(**DEFAULT_EMBEDDING)
    assert config.embedding.context_vector == DEFAULT_EMBEDDING["context_vector"]
    assert (config.graded, config.min_weight, config.top) == tuple(
        DEFAULT_OUTPUT[k] for k in ("graded", "min_weight", "top")
    )
    assert config.senses == recipe("default")
    assert EmbeddingOptions().context_vector is None  # as wsd.Encoder: the schema's unset (the recipe fills it)


def test_a_named_recipe_sets_embedding_senses_and_output_and_flags_override_it() -> None:
    textbook = build_evaluation_config(recipe="textbook")
    assert textbook.senses == TEXTBOOK
    assert textbook.embedding.context_vector is None and textbook.graded is False and textbook.top is None
    mixed = build_evaluation_config(
        {"embedding": {"context_vector": "5:last:1"}, "graded": False}, recipe="default", method="kmeans"
    )
    assert mixed.embedding.context_vector == "5:last:1" and mixed.graded is False
    assert mixed.senses["method"] == "kmeans" and mixed.senses["center_forms"] == 0.5
    assert build_evaluation_config(context_vector="none").embedding.context_vector == "none"
    with pytest.raises(ConfigError, match=r"unknown \[embedding\]"):
        build_evaluation_config({"embedding": {"contxt": "10"}})
