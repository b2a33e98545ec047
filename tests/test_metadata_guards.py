"""Metadata that used to go wrong quietly or hang: a catastrophic --slice-from-path regex, JSON numbers too big."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from wsd.corpus.metadata import MetaSpec
from wsd.corpus.scan import scan
from wsd.errors import ConfigError, InputError


@pytest.mark.parametrize("regex", [r"(a+)+$", r"(\w*/)*x", r"((ab)+c)*"])
def test_a_nested_repeat_is_refused_up_front(regex):
    with pytest.raises(ConfigError, match="repeats a part that itself repeats"):
        MetaSpec.build([], regex)


@pytest.mark.parametrize("regex", [r"(?P<year>\d{4})", r"^([^/]+)/", r"(a|b)+", r"(\d+)-(\d+)"])
def test_ordinary_path_regexes_are_kept(regex):
    assert MetaSpec.build([], regex).path_regex == regex


def test_a_catastrophic_regex_gives_one_line_and_exit_2_within_seconds(tmp_path):
    folder = tmp_path / ("a" * 40 + "!")
    folder.mkdir()
    (folder / "c.txt").write_text("a mouse\n", encoding="utf-8")
    argv = ["embed", "--corpus", str(tmp_path), "--targets", "mouse", "--out", str(tmp_path / "r"), "--no-progress"]
    done = subprocess.run(
        [sys.executable, "-m", "wsd.cli", *argv, "--slice-from-path", "(a+)+$"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "repeats a part that itself repeats" in done.stderr


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("1e400", r"line 2: --meta field 'year' is inf \(Infinity, NaN, or a number beyond"),
        ("Infinity", r"line 2: --meta field 'year' is inf"),
        ("-Infinity", r"line 2: --meta field 'year' is -inf"),
        ("NaN", r"line 2: --meta field 'year' is nan"),
        (str(2**70), rf"line 2: --meta field 'year' is {2**70}, an integer beyond 64 bits"),
    ],
)
def test_json_numbers_beyond_64_bits_are_named_precisely(tmp_path, raw, message):
    path = tmp_path / "c.jsonl"
    path.write_text(
        json.dumps({"text": "a mouse", "year": 1850}) + "\n" + '{"text": "the mouse", "year": ' + raw + "}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"c\.jsonl, " + message):
        scan(path, "mouse", meta=["year"])
