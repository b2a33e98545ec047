"""Every operating-system error is one line naming the path, exit 2, for every command (issue 26, finding 7)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from wsd.cli import main, os_error_line

DEMO_CORPUS = Path(__file__).resolve().parents[1] / "data" / "demo" / "corpus.jsonl"
#: One path component longer than the 255 bytes a file system allows (ENAMETOOLONG).
LONG = "x" * 300


def _commands(long: str) -> dict[str, list[str]]:
    corpus = str(DEMO_CORPUS)
    return {
        "embed-corpus": ["embed", "--corpus", f"{long}.jsonl", "--targets", "mouse", "--out", "o"],
        "embed-out": ["embed", "--corpus", corpus, "--targets", "mouse", "--out", f"o/{long}"],
        "cluster": ["cluster", "--run", long, "--out", "o"],
        "change": ["change", "--run", long, "--by", "year"],
        "report": ["report", "--run", long],
        "evaluate": ["evaluate", "--dataset", "wug", "--data", long],
        "run": ["run", "--corpus", corpus, "--targets", "mouse", "--out", long],
        "predict": ["predict", "--senses", long, "--run", "r", "--out", "o"],
        "config": ["config", "validate", f"{long}.toml"],
    }


@pytest.mark.parametrize("case", list(_commands(LONG)))
def test_a_name_too_long_is_one_line_for_every_command(case: str, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    argv = _commands(LONG)[case]
    code = main([*argv, "--no-progress"] if argv[0] in ("embed", "run", "evaluate") else argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "unexpected error" not in err
    assert LONG in err  # the path is named
    if case != "embed-out":
        assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", ["embed", "run", "report"])
def test_out_below_a_dangling_link_is_one_line(command: str, tmp_path: Path, capsys) -> None:
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    out = str(tmp_path / "link" / "o")
    argv = {
        "embed": ["embed", "--corpus", str(DEMO_CORPUS), "--targets", "mouse", "--out", out, "--no-progress"],
        "run": ["run", "--corpus", str(DEMO_CORPUS), "--targets", "mouse", "--out", out, "--no-progress"],
        "report": ["report", "--run", str(Path(__file__).parent / "fixtures" / "report"), "--out", out],
    }[command]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "unexpected error" not in err
    assert str(tmp_path / "link") in err or "link" in err
    assert not (tmp_path / "nowhere").exists()


def test_debug_keeps_the_traceback(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OSError) as raised:
        main(["cluster", "--run", LONG, "--out", "o", "--debug"])
    assert raised.value.errno == errno.ENAMETOOLONG


def test_os_error_line_names_both_paths_and_any_errno() -> None:
    assert os_error_line(OSError(errno.EXDEV, "Invalid cross-device link", "a", None, "b")) == (
        "Invalid cross-device link: a -> b"
    )
    assert os_error_line(OSError("a library's own words")) == "a library's own words"
    assert os_error_line(OSError()) == "OSError"
