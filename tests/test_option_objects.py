"""The typed option objects (wsd.options): schema defaults, frozen, the old keywords routed, one spelling of off."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import subprocess
from pathlib import Path

import pytest

from wsd import schema
from wsd.config import check_value, embedding_options, parse_override, resolve_config
from wsd.corpus.matcher import FormMatcher, make_matcher
from wsd.embed.context import parse_context
from wsd.options import (
    OPTION_LIST,
    OPTIONS,
    SETTINGS,
    ChangeOptions,
    EmbeddingOptions,
    EvaluationOptions,
    ExecutionOptions,
    ScanSettings,
    SenseOptions,
    TuneOptions,
    route_settings,
)
from wsd.workflows.embedding import embed_corpus
from wsd.workflows.pipeline import induce_corpus

ROOT = Path(__file__).resolve().parents[1]
#: option class -> the configuration section its fields are declared in (fields declared elsewhere: below)
CLASSES = {
    ScanSettings: "scan",
    EmbeddingOptions: "embedding",
    SenseOptions: "senses",
    EvaluationOptions: "evaluation",
    ChangeOptions: "change",
    ExecutionOptions: "execution",
    TuneOptions: "tune",
}
#: the classes whose fields a function takes as keywords too (route_settings sends each keyword to its class by name;
#: TuneOptions is the only options object of tune_encoder, and repeats the encoder's names on purpose)
ROUTED = [cls for cls in CLASSES if cls is not TuneOptions]
#: fields not in their class's section: where they are declared (None: not an option of the schema)
ELSEWHERE = {
    "chunk_size": "output.chunk_size",
    "vector_dtype": "output.vector_dtype",
    "executor": None,
    "retries": None,
    "consolidate": None,
    "progress": "cli.progress",
}
EMBED_GROUPS = {"scan": ScanSettings, "embedding": EmbeddingOptions, "execution": ExecutionOptions}


def _declared(cls: type, name: str) -> str | None:
    return ELSEWHERE[name] if name in ELSEWHERE else f"{CLASSES[cls]}.{name}"


@pytest.mark.parametrize("cls", list(CLASSES), ids=lambda cls: cls.__name__)
def test_every_field_default_is_the_schema_default(cls) -> None:
    instance = cls()
    for field in dataclasses.fields(cls):
        name = _declared(cls, field.name)
        if name is None:
            assert getattr(instance, field.name) is None, field.name
            continue
        option = OPTIONS[name]
        expected = option.default
        if option.off:
            expected = schema.off_to_none(expected)  # "none" in the schema is None in the Python API
        elif isinstance(expected, list):
            expected = tuple(expected)
        assert getattr(instance, field.name) == expected, name


@pytest.mark.parametrize("cls", list(CLASSES), ids=lambda cls: cls.__name__)
def test_every_setting_of_the_section_is_a_field(cls) -> None:
    section = CLASSES[cls]
    groups = (
        schema.SCAN_INPUTS,
        schema.SENSES_INPUTS,
        schema.EVALUATION_INPUTS,
        schema.CHANGE_INPUTS,
        schema.TUNE_INPUTS,
    )
    inputs = {option.name for group in groups for option in group}
    settings = {option.key for option in SETTINGS if option.section == section and option.name not in inputs}
    assert settings <= {field.name for field in dataclasses.fields(cls)}


@pytest.mark.parametrize("cls", list(CLASSES), ids=lambda cls: cls.__name__)
def test_option_objects_are_frozen(cls) -> None:
    instance = cls()
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(instance, name, None)
    hash(instance)  # frozen dataclasses with hashable fields are hashable


def test_replace_changes_a_copy_and_names_the_closest_field_of_a_typo() -> None:
    options = EmbeddingOptions()
    assert options.replace(layers="last").layers == "last" and options.layers == schema.DEFAULT_LAYERS
    with pytest.raises(TypeError, match="'window_tokens'"):
        options.replace(window_token=3)


def test_no_two_option_classes_share_a_field_name() -> None:
    names = [field.name for cls in ROUTED for field in dataclasses.fields(cls)]
    assert len(names) == len(set(names))


def _main_keywords() -> list[str]:
    """The keyword-only parameters of embed_corpus as it was on main before the option objects."""
    try:
        source = subprocess.run(
            ["git", "show", "0062f37:wsd/pipeline.py"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        pytest.skip("the history is not available")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "embed_corpus":
            return [arg.arg for arg in node.args.kwonlyargs]
    raise AssertionError("embed_corpus not found")


#: a value of the right type for each old keyword
VALUES = {
    "forms": "forms.tsv",
    "lemmatizer": "simplemma",
    "case_sensitive": True,
    "context": "window",
    "context_chars": 200,
    "text_field": "body",
    "meta": ("year",),
    "slice_from_path": "(\\d{4})",
    "model": "some/model",
    "layers": "last",
    "pooling": "first",
    "device": "cpu",
    "precision": "fp32",
    "runtime": "openvino",
    "batch_size": 3,
    "max_length": 64,
    "window_tokens": 8,
    "context_vector": "10:last:0.5",
    "offline": True,
    "vector_dtype": "float32",
    "chunk_size": 7,
    "shard_bytes": 4096,
    "executor": "processes",
    "scheduler": "tcp://h:8786",
    "workers": 2,
    "threads_per_worker": 2,
    "retries": 0,
    "consolidate": False,
}
#: the keywords that stayed parameters of embed_corpus
PARAMETERS = {"overwrite", "progress", "encoder", "corpus_exclude"}


def test_every_old_keyword_of_embed_corpus_lands_in_its_option_object() -> None:
    old = _main_keywords()
    assert len(old) >= 30
    parameters = inspect.signature(embed_corpus).parameters
    for keyword in old:
        if keyword in PARAMETERS:
            assert keyword in parameters
            continue
        objects, given = route_settings(
            "embed_corpus()", {keyword: VALUES[keyword]}, {name: (cls, None) for name, cls in EMBED_GROUPS.items()}
        )
        homes = [name for name, obj in objects.items() if obj != EMBED_GROUPS[name]()]
        assert len(homes) == 1 and given == {keyword}, keyword
        assert getattr(objects[homes[0]], keyword) == VALUES[keyword], keyword


def test_a_keyword_goes_on_top_of_a_given_object_and_none_counts_as_not_given() -> None:
    groups = {"embedding": (EmbeddingOptions, EmbeddingOptions(layers="last", pooling="first"))}
    objects, given = route_settings("f()", {"pooling": "max", "layers": None}, groups)
    assert objects["embedding"] == EmbeddingOptions(layers="last", pooling="max") and given == {"pooling"}


def test_an_unknown_keyword_of_embed_corpus_names_the_closest_field(tmp_path) -> None:
    with pytest.raises(
        TypeError,
        match=r"embed_corpus\(\) got an unexpected keyword argument 'window_token'.*"
        r"'window_tokens'",
    ):
        embed_corpus(tmp_path / "c.txt", "mouse", tmp_path / "run", window_token=5)
    with pytest.raises(TypeError, match="'chunk_size'"):
        embed_corpus(tmp_path / "c.txt", "mouse", tmp_path / "run", chunksize=5)
    with pytest.raises(TypeError, match="'seed'"):
        induce_corpus(tmp_path / "c.txt", "mouse", tmp_path / "out", sed=1)


def test_embed_corpus_has_about_ten_parameters() -> None:
    assert len(inspect.signature(embed_corpus).parameters) <= 12


def test_public_signatures_type_their_choices_with_the_schema_literals() -> None:
    from wsd.embed.encoder import Encoder

    hints = {field.name: field.type for field in dataclasses.fields(EmbeddingOptions)}
    assert hints["runtime"] == "Runtime" and hints["pooling"] == "Pooling" and hints["precision"] == "Precision"
    assert {field.name: field.type for field in dataclasses.fields(ScanSettings)}["context"] == "ContextKind"
    parameters = inspect.signature(Encoder).parameters
    assert parameters["runtime"].annotation == "Runtime | None" and parameters["pooling"].annotation == "Pooling"
    assert inspect.signature(embed_corpus).parameters["embedding"].annotation == "EmbeddingOptions | None"


@pytest.mark.parametrize("command", ["embed", "cluster", "run", "evaluate", "change", "tune"])
def test_from_config_round_trips_the_config_show_defaults(command) -> None:
    config = resolve_config(command)
    for cls, section in CLASSES.items():
        if section not in config:
            continue
        options = cls.from_config(config)
        for key, value in config[section].items():
            if not hasattr(options, key):
                continue
            got = getattr(options, key)
            if OPTIONS[f"{section}.{key}"].off:
                assert schema.is_off(got) == schema.is_off(value) and (schema.is_off(got) or got == value), key
            else:
                assert got == (tuple(value) if isinstance(value, list) else value), key
    if "output" in config:
        execution = ExecutionOptions.from_config(config)
        assert execution.chunk_size == config["output"].get("chunk_size", execution.chunk_size)


def test_from_config_keeps_what_the_commands_passed_before() -> None:
    config = resolve_config("run", flags={"scan.meta": ["year"], "embedding.offline": True})
    assert ScanSettings.from_config(config).scan_kwargs()["meta"] == ("year",)
    assert EmbeddingOptions.from_config(config).offline is True
    assert embedding_options(config).context_vector == schema.DEFAULT_CONTEXT_VECTOR
    textbook = resolve_config("run", flags={"senses.recipe": "textbook"})
    assert embedding_options(textbook).context_vector is None  # off, as the recipe has it
    off = resolve_config("run", flags={"embedding.context_vector": "none"})
    assert embedding_options(off).context_vector == "none"  # turns the recipe's off


@pytest.mark.parametrize("word", ["off", "no", "", "OFF", " None "])
def test_every_spelling_of_off_reads_as_none(word) -> None:
    assert schema.off_to_word(word) == "none" and schema.off_to_none(word) is None
    assert parse_context(word) is None and parse_context("none") is None
    assert isinstance(make_matcher({"mouse": ["mouse"]}, word), FormMatcher)
    assert ScanSettings(lemmatizer=word).lemmatizer is None
    assert EmbeddingOptions(context_vector=word).context_vector == "none"
    for name in ("scan.lemmatizer", "embedding.context_vector"):
        assert check_value(OPTIONS[name], word) == "none"
        assert parse_override(f'{name}="{word}"') == (name, "none")


def test_the_command_line_reads_older_spellings_of_off() -> None:
    import argparse

    parser = schema.add_options(argparse.ArgumentParser(), "embed", OPTION_LIST)
    args = parser.parse_args(["--lemmatizer", "off", "--context-vector", "no"])
    assert args.lemmatizer == "none" and args.context_vector == "none"
