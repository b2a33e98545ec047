"""`wsd embed` on the command line: documented options, one-line errors with exit code 2, a working run."""

from __future__ import annotations

import subprocess
import sys

import pytest

from wsd.cli import build_parser, main
from wsd.io.run_reader import load_run


@pytest.fixture()
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("The mouse ran.\nTwo mice and a bank.\nНадо шагать.\n", encoding="utf-8")
    return path


def run_cli(args, capsys):
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_help_documents_every_option():
    embed = build_parser()._subparsers._group_actions[0].choices["embed"]
    text = embed.format_help()
    for action in embed._actions:
        if action.option_strings and action.dest != "help":
            assert action.help, f"{action.option_strings} has no help text"
            assert action.option_strings[-1] in text


def test_embed_writes_a_run(corpus, tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, _ = run_cli(
        ["embed", "--corpus", corpus, "--targets", "mouse:mice,bank,шагать", "--out", out, "--no-progress"],
        capsys,
    )
    assert code == 0
    assert "4 occurrences" in stdout
    occurrences, vectors = load_run(out)
    assert occurrences["form"].tolist() == ["mouse", "mice", "bank", "шагать"]
    assert vectors.shape == (4, 768)  # the word's vector beside the default recipe's context vector, as wsd run


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--corpus", "{tmp}/missing.txt", "--targets", "mouse"], "corpus not found"),
        (["--corpus", "{empty}", "--targets", "mouse"], "is empty"),
        (["--corpus", "{corpus}", "--targets", "zebra,gnu"], "none of the targets"),
        (
            ["--corpus", "{corpus}", "--targets", "mouse", "--model", "{tmp}/no-model"],
            "model folder not found",
        ),
        (
            ["--corpus", "{corpus}", "--targets", "mouse", "--model", "nobody/nothing-xyz"],
            "cannot load model",
        ),
        (
            ["--corpus", "{corpus}", "--targets", "mouse", "--layers", "top"],
            "--layers 'top' is not understood",
        ),
        (["--corpus", "{corpus}", "--targets", "mouse", "--layers", "9"], "layer 9 does not exist"),
        (["--corpus", "{corpus}", "--targets", "mouse", "--pooling", "median"], "unknown subword pooling"),
        (["--corpus", "{corpus}", "--targets", "mouse", "--batch-size", "0"], "--batch-size"),
        (["--corpus", "{corpus}", "--targets", "mouse", "--precision", "fp8"], "--precision"),
        (["--corpus", "{corpus}", "--targets", ","], "no target words"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, message, corpus, tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n", encoding="utf-8")
    filled = [a.format(tmp=tmp_path, corpus=corpus, empty=empty) for a in args]
    with pytest.raises(SystemExit) if "--batch-size" in message or "--precision" in message else _no_raise():
        code, _, err = run_cli(["embed", *filled, "--out", tmp_path / "out", "--no-progress"], capsys)
        assert code == 2
    if "--batch-size" in message or "--precision" in message:
        err = capsys.readouterr().err
    lines = [line for line in err.strip().splitlines() if not line.startswith("wsd: warning")]
    assert len(lines) == 1, err
    assert lines[0].startswith("wsd embed: error:")
    assert message in lines[0]


def test_target_not_found_is_a_warning_per_target(corpus, tmp_path, capsys):
    code, _, err = run_cli(
        ["embed", "--corpus", corpus, "--targets", "mouse,zebra", "--out", tmp_path / "o", "--no-progress"],
        capsys,
    )
    assert code == 0
    assert "wsd: warning: target 'zebra' was not found" in err


def test_console_script_exit_code(corpus, tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "wsd.cli",
            "embed",
            "--corpus",
            str(tmp_path / "nothing"),
            "--targets",
            "a",
            "--out",
            str(tmp_path / "o"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"wsd embed: error: corpus not found: {tmp_path / 'nothing'}"]


class _no_raise:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_main_restores_the_warning_display(corpus, tmp_path, capsys):
    import warnings

    before = warnings.showwarning
    code, _, err = run_cli(
        ["embed", "--corpus", corpus, "--targets", "mouse,zebra", "--out", tmp_path / "run", "--no-progress"], capsys
    )
    assert code == 0 and "wsd: warning: target 'zebra' was not found" in err, "one-line warnings while it runs"
    assert warnings.showwarning is before, "main puts back the warning display it replaced"
    missing = ["embed", "--corpus", tmp_path / "missing.txt", "--targets", "mouse", "--out", tmp_path / "other"]
    code, _, _ = run_cli(missing, capsys)
    assert code == 2 and warnings.showwarning is before, "also when the command fails"
