"""Every option is declared once (a field of wsd.options, or in wsd.schema): the command line and the configuration
are generated from it."""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wsd import schema
from wsd.cli import build_parser, main
from wsd.options import COMMANDS, OPTION_LIST, OPTIONS

CLI = Path(__file__).resolve().parents[1] / "wsd" / "cli"


def _command_parsers() -> dict[str, argparse.ArgumentParser]:
    """``command -> parser`` for every command, ``config show`` and ``config validate`` too."""
    commands = build_parser()._subparsers._group_actions[0].choices
    parsers = {name: parser for name, parser in commands.items() if name != "config"}
    actions = commands["config"]._subparsers._group_actions[0].choices
    return parsers | {f"config {name}": parser for name, parser in actions.items()}


def _declared_flags() -> set[str]:
    return {flag for option in OPTION_LIST for flag in option.option_strings if flag.startswith("-")}


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
    declared = {flag: option for option in schema.options_of(command, OPTION_LIST) for flag in option.option_strings}
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
    for command in COMMANDS:
        flags = [flag for option in schema.options_of(command, OPTION_LIST) for flag in option.option_strings]
        assert len(flags) == len(set(flags)), command


def test_every_setting_has_a_home_and_a_known_type() -> None:
    kinds = set(schema.Kind.__args__)
    for option in OPTION_LIST:
        assert option.kind in kinds and option.commands and option.help, option.name
        assert "(default" not in option.help, f"{option.name}: the default is filled in, not written"
        if option.choices is not None and option.default is not None:
            assert option.default in option.choices, option.name


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_of_every_command_shows_the_declared_defaults(command: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command.split(), "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for option in schema.options_of(command, OPTION_LIST):
        shown = option.help_text(command)
        assert " ".join(shown.split()) in text, f"wsd {command} --help lacks {option.name}"


def test_help_fills_in_the_default() -> None:
    assert OPTIONS["output.chunk_size"].help_text().endswith(f"(default: {schema.DEFAULT_CHUNK_SIZE})")
    assert OPTIONS["report.max_points"].help_text().endswith(f"(default: {schema.DEFAULT_MAX_POINTS})")
    assert "(default: RUN/senses)" in OPTIONS["output.out"].help_text("cluster")
    assert "(default:" not in OPTIONS["output.out"].help_text("embed")


def test_one_spelling_of_each_choice_list() -> None:
    from wsd.evaluate.datasets import available_datasets
    from wsd.senses.recipes import RECIPES

    assert set(RECIPES) == set(schema.RECIPE_NAMES)
    assert available_datasets() == schema.DATASETS


def _aliases(path: Path) -> list[str]:
    """Module-level ``NAME = schema.NAME`` or ``NAME = IMPORTED``: a second name for something named elsewhere."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        value = getattr(node, "value", None)
        if not isinstance(target, ast.Name) or value is None:
            continue
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "schema":
            found.append(f"{path.name}: {target.id} = schema.{value.attr}")
        elif isinstance(value, ast.Name) and value.id in imported and value.id != "Any":
            found.append(f"{path.name}: {target.id} = {value.id}")
    return found


def test_no_module_renames_what_the_schema_or_another_module_names() -> None:
    """A choice list, a default or a type has one name: a module imports it, never copies it under a name of its own
    (``MEASURES = schema.MEASURES``, ``Precision = TunePrecision``)."""
    package = Path(__file__).resolve().parents[1] / "wsd"
    found = [alias for path in sorted(package.rglob("*.py")) for alias in _aliases(path)]
    assert found == []


def test_the_alias_check_finds_an_alias(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from wsd import schema\nfrom wsd.schema import TunePrecision\nMEASURES = schema.MEASURES\n"
        "Precision = TunePrecision\nX = 2\nY = X\n"
    )
    assert _aliases(source) == ["m.py: MEASURES = schema.MEASURES", "m.py: Precision = TunePrecision"]


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
    from wsd.config import SCHEMA
    from wsd.options import SETTINGS

    assert tuple(option for option in OPTION_LIST if option.config) == SETTINGS
    assert all(SCHEMA[o.section][o.key] is o for o in SETTINGS)
    flag_only_sections = {o.section for o in OPTION_LIST if not o.config}
    assert not flag_only_sections & set(SCHEMA)


# ------------------------------------------------------------------------------------------- wsd tune
#: The options of ``wsd tune`` that are not TuneOptions fields: tune_encoder's other arguments and the shared flags.
TUNE_ARGUMENTS = {"tune.train", "tune.exclude", "tune.exclude_lemmas", "output.out", "cli.overwrite", "cli.config"}
TUNE_ARGUMENTS |= {"cli.set", "tune.recipe", "tune.average", "tune.average_weights", "evaluate.data_dir"}


def test_every_option_of_wsd_tune_is_a_field_of_tune_options_or_an_argument() -> None:
    """TuneOptions is declared as the other option objects are: each field one option of ``wsd tune`` (type,
    choices, default and help in the field), every other option an argument of tune_encoder or a shared flag."""
    import dataclasses

    from wsd.options import TuneOptions

    fields = schema.declared_options(TuneOptions, "tune")
    assert [option.key for option in fields] == [field.name for field in dataclasses.fields(TuneOptions)]
    assert all(OPTIONS[option.name] == option for option in fields)
    tune_options = {option.name for option in schema.options_of("tune", OPTION_LIST)}
    assert tune_options == {option.name for option in fields} | TUNE_ARGUMENTS
    assert OPTIONS["tune.loss"].choices == ("cosent", "contrastive", "auto")  # from the field's Literal
    assert OPTIONS["tune.pooling"].choices is None  # first_last is read as first-last, as encoders do


def test_tune_choices_and_minimums_reach_the_library() -> None:
    from wsd.errors import ConfigError
    from wsd.options import TuneOptions
    from wsd.tune.sources import SOURCE_KINDS

    assert all(f"{kind}:" in OPTIONS["tune.train"].help for kind in SOURCE_KINDS)
    for name in ("epochs", "max_steps", "window_tokens", "patience"):
        minimum = OPTIONS[f"tune.{name}"].minimum
        with pytest.raises(ConfigError, match=f"{name}: must be at least {minimum}"):
            TuneOptions(**{name: minimum - 1})
    with pytest.raises(ConfigError, match="not one of cosent, contrastive, auto"):
        TuneOptions(loss="triplet")


# ------------------------------------------------------------------------------------------- a new option
_NEW_OPTION_CHECK = """
import contextlib, io, sys
import numpy as np, pandas as pd
from wsd.change import compare_slices
from wsd.cli import build_parser, main
from wsd.config import parse_override, resolve_config
from wsd.errors import ConfigError
from wsd.options import OPTION_LIST, ChangeOptions
from wsd.schema import reference_markdown

args = build_parser().parse_args(["change", "--run", "r", "--by", "year", "--resamples", "50"])
assert args.resamples == 50
with contextlib.redirect_stderr(io.StringIO()), contextlib.suppress(SystemExit):
    build_parser().parse_args(["change", "--run", "r", "--by", "year", "--resamples", "5"])
    sys.exit("a value below the minimum was taken")
out = io.StringIO()
with contextlib.redirect_stdout(out):
    main(["config", "show", "--command", "change"])
assert "resamples = 200" in out.getvalue(), out.getvalue()
assert parse_override("change.resamples=30") == ("change.resamples", 30)
assert resolve_config("change", overrides=["change.resamples=30"])["change"]["resamples"] == 30
assert "| `resamples` | `--resamples` | int | `200` | change, run |" in reference_markdown(OPTION_LIST)
options = ChangeOptions.from_config(resolve_config("change", overrides=["change.by=year", "change.resamples=30"]))
occ = pd.DataFrame({"target": ["w"] * 4, "year": [1, 1, 2, 2]})
X = np.random.default_rng(0).normal(size=(4, 3))
result = compare_slices(occ, labels=np.array([0, 0, 1, 1]), X=X, **options.replace(min_uses=1).kwargs())
assert result.resamples == 30
print("ok")
"""


def _worked_example() -> str:
    """The field of the worked example of docs/contributing.md (its first ``python`` block under the heading)."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = page.split("## Adding an option: a worked example", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.slow  # a copy of the package and a fresh interpreter that imports pandas
def test_a_new_change_option_is_one_field(tmp_path: Path) -> None:
    """The measure of issue 43: a new option of ``wsd change`` is one field of ChangeOptions; the flag, the TOML key,
    ``wsd config show``, the docs reference and the way to compare_slices follow from it."""
    import shutil

    package = Path(__file__).resolve().parents[1] / "wsd"
    shutil.copytree(package, tmp_path / "wsd", ignore=shutil.ignore_patterns("__pycache__"))
    options = tmp_path / "wsd" / "options.py"
    source = options.read_text(encoding="utf-8")
    anchor = "    def kwargs(self) -> dict[str, Any]:\n"
    head, tail = source.split("class ChangeOptions(", 1)
    assert tail.count(anchor) >= 1 and "resamples" not in tail.split(anchor, 1)[0]
    options.write_text(head + "class ChangeOptions(" + tail.replace(anchor, _worked_example() + "\n" + anchor, 1))
    result = subprocess.run(
        [sys.executable, "-c", _NEW_OPTION_CHECK],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


def test_the_run_reader_accepts_exactly_the_declared_vector_dtypes() -> None:
    """``wsd.io`` sits below the schema and keeps its own copy of the storage types: the two must not drift."""
    from wsd import schema
    from wsd.io import run_reader

    assert run_reader.VECTOR_DTYPES == schema.VECTOR_DTYPES
