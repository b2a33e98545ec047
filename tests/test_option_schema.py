"""Every option is declared once, in wsd.schema: the command line and the configuration are generated from it."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

import pytest

from wsd import schema
from wsd.cli import build_parser, main

CLI = Path(__file__).resolve().parents[1] / "wsd" / "cli"


def _command_parsers() -> dict[str, argparse.ArgumentParser]:
    """``command -> parser`` for every command, ``config show`` and ``config validate`` too."""
    commands = build_parser()._subparsers._group_actions[0].choices
    parsers = {name: parser for name, parser in commands.items() if name != "config"}
    actions = commands["config"]._subparsers._group_actions[0].choices
    return parsers | {f"config {name}": parser for name, parser in actions.items()}


def _declared_flags() -> set[str]:
    return {flag for option in schema.OPTION_LIST for flag in option.option_strings if flag.startswith("-")}


def _written_by_hand(source: str) -> list[str]:
    """The ``add_argument`` calls of a declared flag that give it a default, choices, help or type."""
    declared = _declared_flags()
    written = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument":
            flags = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
            keywords = {keyword.arg for keyword in node.keywords} & {"default", "choices", "help", "type"}
            if set(flags) & declared and keywords:
                written.append(f"{flags} line {node.lineno}: {sorted(keywords)}")
    return written


def test_cli_writes_no_default_choices_or_help_of_a_declared_flag() -> None:
    sources = sorted(CLI.glob("*.py"))
    assert len(sources) > 10  # one module per command
    assert [line for path in sources for line in _written_by_hand(path.read_text(encoding="utf-8"))] == []


def test_the_check_finds_a_flag_written_by_hand() -> None:
    source = 'group.add_argument("--window-tokens", type=int, default=None, help="either side (default: 8)")\n'
    assert _written_by_hand(source) == ["['--window-tokens'] line 1: ['default', 'help', 'type']"]


@pytest.mark.parametrize("command", sorted(_command_parsers()))
def test_every_flag_of_every_command_is_declared(command: str) -> None:
    parser = _command_parsers()[command]
    declared = {flag: option for option in schema.options_of(command) for flag in option.option_strings}
    for action in parser._actions:
        if action.dest == "help":
            continue
        for flag in action.option_strings or [action.dest]:
            if flag.startswith("--no-") and flag[5:] and f"--{flag[5:]}" in declared:
                continue  # the negative form of a negatable boolean
            assert flag in declared, f"wsd {command}: {flag} is not declared in wsd.schema"
            option = declared[flag]
            assert action.dest == option.attribute
            assert action.help == option.help_text(command).replace("%", "%%")
            if option.choices is not None:
                assert tuple(action.choices) == tuple(option.choices)


def test_no_command_has_a_flag_twice() -> None:
    for command in schema.COMMANDS:
        flags = [flag for option in schema.options_of(command) for flag in option.option_strings]
        assert len(flags) == len(set(flags)), command


def test_every_setting_has_a_home_and_a_known_type() -> None:
    kinds = set(schema.Kind.__args__)
    for option in schema.OPTION_LIST:
        assert option.kind in kinds and option.commands and option.help, option.name
        assert "(default" not in option.help, f"{option.name}: the default is filled in, not written"
        if option.choices is not None and option.default is not None:
            assert option.default in option.choices, option.name


@pytest.mark.parametrize("command", sorted(schema.COMMANDS))
def test_help_of_every_command_shows_the_declared_defaults(command: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command.split(), "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for option in schema.options_of(command):
        shown = option.help_text(command)
        assert " ".join(shown.split()) in text, f"wsd {command} --help lacks {option.name}"


def test_help_fills_in_the_default() -> None:
    assert schema.OPTIONS["output.chunk_size"].help_text().endswith(f"(default: {schema.DEFAULT_CHUNK_SIZE})")
    assert schema.OPTIONS["report.max_points"].help_text().endswith(f"(default: {schema.DEFAULT_MAX_POINTS})")
    assert "(default: RUN/senses)" in schema.OPTIONS["output.out"].help_text("cluster")
    assert "(default:" not in schema.OPTIONS["output.out"].help_text("embed")


def test_one_spelling_of_each_choice_list() -> None:
    from wsd.change import MEASURES, RANK_BY
    from wsd.embed.models import PRECISIONS
    from wsd.embed.ov_runtime import RUNTIMES
    from wsd.evaluate.datasets import available_datasets
    from wsd.senses.methods import METHODS, SELECTIONS
    from wsd.senses.recipes import RECIPES

    assert (MEASURES, RANK_BY, PRECISIONS, RUNTIMES) == (
        schema.MEASURES,
        schema.RANK_BY,
        schema.PRECISIONS,
        schema.RUNTIMES,
    )
    assert METHODS is schema.METHODS and SELECTIONS is schema.SELECTIONS
    assert set(RECIPES) == set(schema.RECIPE_NAMES)
    assert available_datasets() == schema.DATASETS


@pytest.mark.parametrize("module", ["wsd.schema", "wsd.cli"])
def test_the_schema_and_the_command_line_import_nothing_heavy(module: str) -> None:
    if module == "wsd.cli":  # the parser (wsd --help) needs only the schema; the commands import the rest
        code = "import sys, wsd.cli; print([m for m in ('pandas', 'torch', 'sklearn') if m in sys.modules])"
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert result.stdout.strip() == "[]"
        return
    code = (
        "import sys, wsd.schema; "
        "heavy = [m for m in ('pandas', 'torch', 'sklearn', 'numpy', 'wsd.change', 'wsd.config') if m in sys.modules]; "
        "print(heavy)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_config_settings_are_the_schema_settings() -> None:
    from wsd.config import SCHEMA, SETTINGS

    assert tuple(option for option in schema.OPTION_LIST if option.config) == SETTINGS
    assert all(SCHEMA[o.section][o.key] is o for o in SETTINGS)
    flag_only_sections = {o.section for o in schema.OPTION_LIST if not o.config}
    assert not flag_only_sections & set(SCHEMA)


# ------------------------------------------------------------------------------------------- wsd tune
#: The options of ``wsd tune`` that are not TuneOptions fields: tune_encoder's other arguments and the shared flags.
TUNE_ARGUMENTS = {"tune.train", "tune.exclude", "tune.exclude_lemmas", "output.out", "cli.overwrite", "cli.config"}
TUNE_ARGUMENTS |= {"cli.set", "tune.recipe", "tune.average", "tune.average_weights", "evaluate.data_dir"}
_KIND_OF_TYPE = {int: "int", float: "float", bool: "bool", str: "str", tuple: "str_list"}


def _tune_fields() -> list:
    import dataclasses

    from wsd.tune.options import TuneOptions

    return list(dataclasses.fields(TuneOptions))


def test_every_tune_option_is_declared_once_in_the_schema() -> None:
    """TuneOptions takes default, choices and help from the schema: each field has exactly one option of wsd tune."""
    import typing

    from wsd.tune.options import TuneOptions

    hints = typing.get_type_hints(TuneOptions)
    tune_options = {option.name: option for option in schema.options_of("tune")}
    by_key: dict[str, list[str]] = {}
    for option in tune_options.values():
        by_key.setdefault(option.key, []).append(option.name)
    for item in _tune_fields():
        option = schema.OPTIONS[item.metadata["option"]]
        assert by_key.get(item.name) == [option.name], f"{item.name}: not exactly one option of wsd tune"
        default = tuple(option.default) if option.kind == "str_list" else option.default
        assert item.default == default and type(item.default) is type(default), item.name
        assert item.metadata["help"] == option.help, item.name
        hint = hints[item.name]
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if typing.get_origin(hint) is typing.Literal:
            assert tuple(typing.get_args(hint)) == option.choices and option.kind == "str", item.name
            continue
        assert option.choices is None, item.name
        base = args[0] if len(args) == 1 and typing.get_origin(hint) is not tuple else hint
        assert _KIND_OF_TYPE[typing.get_origin(base) or base] == option.kind, item.name
    fields = {item.metadata["option"] for item in _tune_fields()}
    assert set(tune_options) == fields | TUNE_ARGUMENTS, "an option of wsd tune is neither a field nor an argument"


def test_tune_options_write_no_default_of_their_own() -> None:
    """Every field is ``field(default=_default(NAME), metadata=_about(NAME))``: a default or help written there is
    drift (NAME is the field's name, or a dotted option of another section of the schema ending in it)."""
    import inspect

    from wsd.tune import options

    tree = ast.parse(inspect.getsource(options.TuneOptions))
    fields = [node for node in tree.body[0].body if isinstance(node, ast.AnnAssign)]
    assert len(fields) == len(_tune_fields())
    for node in fields:
        call = node.value
        assert isinstance(call, ast.Call) and getattr(call.func, "id", None) == "field", node.target.id
        assert not call.args and [keyword.arg for keyword in call.keywords] == ["default", "metadata"], node.target.id
        for keyword, helper in zip(call.keywords, ("_default", "_about"), strict=True):
            declared = keyword.value
            assert isinstance(declared, ast.Call) and getattr(declared.func, "id", None) == helper, node.target.id
            name = declared.args[0].value
            assert name == node.target.id or name.endswith("." + node.target.id), node.target.id
    assert "Literal[" not in inspect.getsource(options).split("class TuneOptions")[0], "choices belong to the schema"


def test_tune_choices_and_minimums_reach_the_library() -> None:
    from wsd.errors import ConfigError
    from wsd.tune.options import TuneOptions
    from wsd.tune.sources import SOURCE_KINDS

    assert all(f"{kind}:" in schema.OPTIONS["tune.train"].help for kind in SOURCE_KINDS)
    for name in ("epochs", "max_steps", "window_tokens", "patience"):
        minimum = schema.OPTIONS[f"tune.{name}"].minimum
        with pytest.raises(ConfigError, match=f"{name}: must be at least {minimum}"):
            TuneOptions(**{name: minimum - 1})
    with pytest.raises(ConfigError, match="not one of cosent, contrastive, auto"):
        TuneOptions(loss="triplet")
