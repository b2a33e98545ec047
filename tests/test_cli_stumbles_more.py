"""The smaller stumbles of issue 25, each kept from coming back."""

from __future__ import annotations

from pathlib import Path

import pytest

from wsd.cli import main


@pytest.mark.parametrize("extra", [[], ["--command", "run"]])
def test_config_validate_error_names_the_command(tmp_path: Path, capsys, extra: list[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[scan]\nfoo = 1\n", encoding="utf-8")
    assert main(["config", "validate", str(bad), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wsd config: error: ") and "unknown key 'foo'" in err
    assert "None" not in err


def test_other_commands_keep_their_name_in_errors(tmp_path: Path, capsys) -> None:
    assert main(["predict", "--senses", str(tmp_path / "nope"), "--run", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err.startswith("wsd predict: error: ")


def test_default_chunk_size_keeps_resume_useful() -> None:
    """One default, declared in wsd.schema, used by the CLI, the configuration and the Python API alike.

    8192 occurrences per part made a whole State of the Union run (5 targets) a single part: an interrupted run kept
    nothing. 1024 is 32 forward batches on a CPU.
    """

    from wsd.config import resolve_config
    from wsd.options import ExecutionOptions
    from wsd.schema import DEFAULT_CHUNK_SIZE

    assert DEFAULT_CHUNK_SIZE <= 2048
    assert ExecutionOptions().chunk_size == DEFAULT_CHUNK_SIZE  # embed_corpus's default
    for command in ("embed", "run"):
        assert resolve_config(command)["output"]["chunk_size"] == DEFAULT_CHUNK_SIZE
