"""One writer per output folder (issue 26, finding 4): a second writer is refused at once, naming the first.

A helper process takes the lock the way a wsd command does (:func:`wsd.io.outputs.session` + ``claim_folder``)
and holds it until told to stop, so the tests are fast; the issue's reproduction with two ``wsd embed``
processes is the slow test at the end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wsd.cli import main
from wsd.io import lock, manifest
from wsd.io.layout import LOCK_FILE
from wsd.io.lock import FolderBusy
from wsd.io.outputs import claim_folder, inspect, session

ROOT = Path(__file__).resolve().parents[1]
HOLDER = """
import sys
from wsd.io.outputs import claim_folder, session
with session():
    claim_folder(sys.argv[1], "run")
    print("held", flush=True)
    sys.stdin.readline()
"""


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def _hold(folder: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=_environment(),
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    return process


def _let_go(process: subprocess.Popen) -> None:
    assert process.stdin is not None
    process.stdin.write("\n")
    process.stdin.flush()
    assert process.wait(timeout=30) == 0


def test_a_second_writer_is_refused_at_once_naming_the_first(tmp_path: Path) -> None:
    out = tmp_path / "run"
    holder = _hold(out)
    try:
        started = time.monotonic()
        with pytest.raises(FolderBusy, match=rf"{out} is being written by another wsd process \(pid {holder.pid} "):
            claim_folder(out, "run")
        assert time.monotonic() - started < 5
        assert lock.holder(out) == f"pid {holder.pid} on host {os.uname().nodename}"
    finally:
        _let_go(holder)
    assert lock.holder(out) is None and not (out / LOCK_FILE).exists()
    assert claim_folder(out, "run") == "create"  # free again (and blank: nothing was written)


def test_the_cli_exits_2_with_one_line(tmp_path: Path, capsys) -> None:
    data = ROOT / "tests" / "fixtures" / "datasets" / "valid.tsv"
    out = tmp_path / "eval"
    holder = _hold(out / "run")
    try:
        argv = ["evaluate", "--dataset", "generic", "--data", str(data), "--out", str(out / "run"), "--no-progress"]
        assert main(argv) == 2
    finally:
        _let_go(holder)
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "being written by another wsd process" in error[0] and f"pid {holder.pid}" in error[0]


def test_a_stale_lock_is_named_and_taken_over(tmp_path: Path) -> None:
    out = tmp_path / "out"
    claim_folder(out, "report")
    (out / "report.md").write_text("wsd's")
    manifest.record(out / "report.md")
    (out / LOCK_FILE).write_text("pid=999999999 host=gone\n")  # what a killed writer leaves
    assert inspect(out).kind == "report"  # the lock file is not taken for a file of the user's
    with session(), pytest.warns(UserWarning, match=r"took over a stale lock \(pid 999999999 on host gone"):
        assert claim_folder(out, "report") == "reuse"
        assert f"pid={os.getpid()}" in (out / LOCK_FILE).read_text()
    assert not (out / LOCK_FILE).exists()


def test_locks_are_reentrant_within_a_process(tmp_path: Path) -> None:
    tmp_path.joinpath("f").mkdir()
    with lock.folder_lock(tmp_path / "f"), lock.folder_lock(tmp_path / "f"):
        assert lock.holds(tmp_path / "f")
    assert not lock.holds(tmp_path / "f") and not (tmp_path / "f" / LOCK_FILE).exists()


@pytest.mark.slow
def test_two_concurrent_embeds_one_refused_the_other_complete(tmp_path: Path) -> None:
    out = tmp_path / "runs" / "c"
    command = [
        sys.executable, "-m", "wsd.cli", "embed", "--corpus", str(ROOT / "data" / "demo" / "corpus.jsonl"),
        "--targets", "mouse:mice,cell:cells,bank", "--meta", "year", "--chunk-size", "16", "--out", str(out),
        "--no-progress",
    ]  # fmt: skip
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_environment())
    deadline = time.monotonic() + 60
    while not (out / LOCK_FILE).exists() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    second = subprocess.run(command, capture_output=True, text=True, env=_environment(), timeout=120)
    _, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert second.returncode == 2, second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{out} is being written by another wsd process (pid {first.pid}" in lines[0]
    meta = json.loads((out / "meta.json").read_text())
    assert meta["status"] == "complete" and meta["n_occurrences"] == 143
