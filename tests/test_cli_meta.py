"""``--meta`` and ``--slice-from-path`` from the command line: kept in the run, bad input one line and exit 2."""

from __future__ import annotations

import json

import pytest

from wsd.cli import main
from wsd.io.run_reader import load_run


@pytest.fixture()
def corpus(tmp_path):
    path = tmp_path / "c.jsonl"
    records = [{"text": "The mouse ran past the bank.", "year": 1850}, {"text": "A mouse click.", "year": 1990}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _fails(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_embed_keeps_meta_and_records_it(corpus, tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(out), "--no-progress"]
    assert main([*argv, "--meta", "year"]) == 0
    occurrences, _ = load_run(out)
    assert occurrences["year"].tolist() == [1850, 1990]
    assert 'meta = ["year"]' in (out / "config.toml").read_text()
    # the recorded config runs the same job again, and another --meta is refused naming the setting
    assert main(["embed", "--config", str(out / "config.toml"), "--no-progress"]) == 0
    _fails(capsys, [*argv, "--meta", "year", "--slice-from-path", "(c)"], "config.scan.slice_from_path")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--meta", "decade"], "'decade' is in none of the corpus files: c.jsonl has the fields text, year"),
        (["--meta", "id"], "--meta: 'id' is a column of the occurrence table itself"),
        (["--meta", "year,year"], "'year' is asked for twice"),
        (["--slice-from-path", r"\d"], "has no group"),
        (["--slice-from-path", "(1850"], "is not a valid regex"),
        (["--slice-from-path", r"(\d{4})/"], "matches none of the 1 corpus file paths ('c.jsonl')"),
        (["--set", "scan.meta=3"], "scan.meta must be a list of strings, not the number 3"),
    ],
)
def test_bad_metadata_options_are_one_line_and_exit_2(corpus, tmp_path, capsys, extra, message):
    argv = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(tmp_path / "r"), "--no-progress"]
    _fails(capsys, [*argv, *extra], message)


def test_scan_meta_of_the_wrong_type_in_a_config_file(corpus, tmp_path, capsys):
    config = tmp_path / "wsd.toml"
    config.write_text(f'[scan]\ncorpus = "{corpus}"\ntargets = "mouse"\nmeta = 3\n', encoding="utf-8")
    _fails(capsys, ["embed", "--config", str(config), "--out", str(tmp_path / "r")], "scan.meta must be a list")
