"""Files wsd wrote and that the user changed since (issue 39): never replaced, never removed, and the killed write.

The rule lives in :func:`wsd.io.atomic.atomic_write`, the one writer: a file its folder's manifest lists but whose
bytes are no longer the ones recorded is the user's now; a rerun stops with one line that names it and says how to
go on, and so does ``--overwrite``. Through the real CLI: ``report.md`` and ``report.html`` of ``wsd report``,
``change/ranking.csv`` of ``wsd change``. Below the CLI: the size and modification time that spare hashing, an old
manifest without them, and an atomic write killed before or after its rename.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import MEASURED_YEARS, SMALL_FLAG, make_run

from wsd.cli import main
from wsd.io import manifest
from wsd.io.atomic import WriteFailed, atomic_write
from wsd.io.layout import (
    CHANGE_DIR,
    CHANGE_RANKING,
    MANIFEST_FILE,
    REPORT_HTML,
    REPORT_MARKDOWN,
    TUNE_CHECKPOINT_DIR,
    TUNE_CHECKPOINT_STATE,
    TUNE_FILE,
)
from wsd.io.outputs import OutputRefused, claim_folder, inspect, remove_wsd_files, session

EDIT = "\n<!-- my notes: keep this -->\n"


def _write(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _one_line(capsys: pytest.CaptureFixture[str], code: int) -> str:
    """The one error line of a refused command (warnings about its input may come before it)."""
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    lines = [line for line in err.splitlines() if not line.startswith("wsd: warning: ")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture(scope="module")
def clustered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A hand-made run with a ``year`` column, clustered by ``wsd cluster`` (its senses in RUN/senses); two
    targets, both measured by ``wsd change`` (each report below draws one map per target)."""
    run = make_run(tmp_path_factory.mktemp("edited") / "run", MEASURED_YEARS)
    assert main(["cluster", "--run", str(run), "--method", "kmeans", "--k", "2", "--no-progress"]) == 0
    return run


# ---------------------------------------------------------------------------------------------- the CLI
@pytest.mark.parametrize("name", [REPORT_MARKDOWN, REPORT_HTML])
def test_an_edited_report_is_never_replaced_by_a_rerun_or_by_overwrite(clustered, tmp_path, capsys, name) -> None:
    out = tmp_path / "report"
    argv = ["report", "--run", str(clustered), "--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    assert main(argv) == 0, capsys.readouterr().err  # unchanged: written again
    edited = (out / name).read_text(encoding="utf-8") + EDIT
    (out / name).write_text(edited, encoding="utf-8")
    for extra in ([], ["--overwrite"]):
        err = _one_line(capsys, main([*argv, *extra]))
        assert str(out / name) in err and "changed since" in err, err
        assert "move it away or rename it" in err, err
        assert (out / name).read_text(encoding="utf-8") == edited
    (out / name).rename(out / f"mine-{name}")  # what the message says to do
    assert main(argv) == 0, capsys.readouterr().err
    assert (out / f"mine-{name}").read_text(encoding="utf-8") == edited and (out / name).is_file()


def test_an_edited_change_ranking_is_never_replaced_by_a_rerun_or_by_overwrite(clustered, tmp_path, capsys) -> None:
    out = tmp_path / "change"
    argv = ["change", "--run", str(clustered), "--by", "year", "--min-uses", SMALL_FLAG, "--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    ranking = out / f"{CHANGE_RANKING}.csv"
    edited = ranking.read_text(encoding="utf-8") + "my,own,row\n"
    ranking.write_text(edited, encoding="utf-8")
    capsys.readouterr()
    for extra in ([], ["--overwrite"], ["--binary-n", "3", "--overwrite"]):
        err = _one_line(capsys, main([*argv, *extra]))
        assert str(ranking) in err and "changed since" in err, err
        assert ranking.read_text(encoding="utf-8") == edited
    # the change folder inside the run (wsd change without --out) is protected the same way
    inside = clustered / CHANGE_DIR / f"{CHANGE_RANKING}.csv"
    base = ["change", "--run", str(clustered), "--by", "year", "--min-uses", SMALL_FLAG]
    assert main(base) == 0, capsys.readouterr().err
    inside.write_text(inside.read_text(encoding="utf-8") + "x\n", encoding="utf-8")
    capsys.readouterr()
    err = _one_line(capsys, main(base))
    assert str(inside) in err and "changed since" in err
    inside.unlink()  # the module's run is shared: leave it clean (a missing file wsd wrote is written again)


# ---------------------------------------------------------------------------------------------- atomic_write
def test_atomic_write_refuses_a_file_it_wrote_that_was_changed_since(tmp_path: Path) -> None:
    manifest.start(tmp_path, "output")
    target = tmp_path / "notes.md"
    _write(target, "wsd's text")
    _write(target, "wsd's text, again")  # unchanged since wsd wrote it: replaced
    target.write_text("the user's text!!", encoding="utf-8")  # the same size, other bytes
    with pytest.raises(WriteFailed) as refused:
        _write(target, "wsd's third text")
    message = str(refused.value)
    assert len(message.splitlines()) == 1 and str(target) in message and "move it away or rename it" in message
    assert target.read_text(encoding="utf-8") == "the user's text!!"
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_size_and_mtime_spare_the_hash_and_an_old_manifest_falls_back_to_it(tmp_path: Path, monkeypatch) -> None:
    manifest.start(tmp_path, "output")
    target = tmp_path / "table.csv"
    _write(target, "a,b\n1,2\n")
    entry = manifest.listed(target)
    assert entry is not None and entry.mtime_ns == target.stat().st_mtime_ns and entry.size == 8
    hashed: list[Path] = []
    real = manifest.file_sha256
    monkeypatch.setattr(manifest, "file_sha256", lambda path: hashed.append(Path(path)) or real(path))
    assert manifest.status(target) == "match" and hashed == []  # size and mtime match: not read
    assert manifest.status(target, thorough=True) == "match" and hashed == [target]  # asked to: read
    # an entry of a wsd before mtimes were recorded: the bytes decide
    old = tmp_path / "old.csv"
    old.write_text("x,y\n", encoding="utf-8")
    line = {"path": "old.csv", "size": 4, "sha256": real(old)}
    with open(tmp_path / MANIFEST_FILE, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    assert manifest.status(old) == "match"
    stamp = old.stat().st_mtime_ns
    old.write_text("x,z\n", encoding="utf-8")
    os.utime(old, ns=(stamp, stamp))
    assert manifest.status(old) == "changed"
    with pytest.raises(WriteFailed, match="changed since"):
        _write(old, "wsd's\n")


def test_wsd_rewrites_its_own_bookkeeping_files(tmp_path: Path) -> None:
    """A file rewritten by wsd again and again (a checkpoint, a run's meta.json) is unchanged since each write."""
    manifest.start(tmp_path, "encoder")
    state = tmp_path / TUNE_CHECKPOINT_DIR / TUNE_CHECKPOINT_STATE
    for step in range(5):
        atomic_write(state, lambda tmp, step=step: tmp.write_bytes(bytes([step]) * (1000 + step)))
    assert manifest.status(state) == "match"


#: A child process that writes ``argv[2]`` into ``argv[1]`` with atomic_write and is SIGKILLed at ``argv[3]``:
#: ``rename`` (before the temporary file is renamed) or ``record`` (after the rename, before the manifest's line).
_KILLED_WRITE = """
import os, signal, sys
import wsd.io.atomic as atomic

def kill(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

if sys.argv[3] == "rename":
    atomic.os.replace = kill
else:
    atomic.record = kill
atomic.atomic_write(sys.argv[1], lambda tmp: tmp.write_bytes(sys.argv[2].encode()))
"""


def _killed_write(target: Path, data: str, at: str) -> None:
    """Write ``data`` into ``target`` in a process that is killed (SIGKILL: no handler runs) at ``at``."""
    done = subprocess.run([sys.executable, "-c", _KILLED_WRITE, str(target), data, at], check=False)
    assert done.returncode == -signal.SIGKILL


def test_a_write_killed_after_its_rename_is_still_wsds(tmp_path: Path) -> None:
    manifest.start(tmp_path, "encoder")
    state = tmp_path / TUNE_CHECKPOINT_DIR / TUNE_CHECKPOINT_STATE
    _killed_write(state, "the first checkpoint", "record")
    assert state.read_bytes() == b"the first checkpoint"
    assert manifest.listed(state) is not None and manifest.status(state) == "match"  # recognised by its bytes
    atomic_write(state, lambda tmp: tmp.write_bytes(b"the second checkpoint"))  # not "not a file wsd wrote"
    _killed_write(state, "the third one", "record")
    assert state.read_bytes() == b"the third one" and manifest.status(state) == "match"
    state.write_bytes(b"the third one, edited")  # bytes of neither entry: changed since
    assert manifest.status(state) == "changed"
    remove_wsd_files(tmp_path)  # a checkpoint is wsd's internal state: --overwrite clears it, changed or not
    assert not state.exists()


def test_a_write_killed_before_its_rename_leaves_only_bookkeeping(tmp_path: Path) -> None:
    manifest.start(tmp_path, "output")
    target = tmp_path / "metrics.json"
    _write(target, '{"old": 1}')
    _killed_write(target, '{"new": 2, "longer": true}', "rename")
    assert target.read_text(encoding="utf-8") == '{"old": 1}' and manifest.status(target) == "match"
    leftovers = [p for p in tmp_path.iterdir() if ".tmp-" in p.name]
    assert len(leftovers) == 1  # a kill leaves its temporary file: bookkeeping, never an entry of the folder
    assert inspect(tmp_path).entries == ["metrics.json"]
    _write(target, '{"newer": 3}')
    assert manifest.status(target) == "match"
    remove_wsd_files(tmp_path)
    assert not target.exists() and not leftovers[0].exists()


# ---------------------------------------------------------------------------------------------- --overwrite
def test_overwrite_clears_a_damaged_checkpoint_but_never_an_edited_model_card(tmp_path: Path) -> None:
    folder = tmp_path / "model"
    config = {"options": {"lr": 2e-5}}
    with session():
        assert claim_folder(folder, "encoder", config=config) == "create"
        marker = json.dumps({"format": "wsd-tune/1", "config": config})
        _write(folder / TUNE_CHECKPOINT_DIR / TUNE_FILE, marker)
        atomic_write(folder / TUNE_CHECKPOINT_DIR / TUNE_CHECKPOINT_STATE, lambda tmp: tmp.write_bytes(b"w" * 64))
    state = folder / TUNE_CHECKPOINT_DIR / TUNE_CHECKPOINT_STATE
    state.write_bytes(b"d" * 64)  # damaged (or tampered with)
    other = {"options": {"lr": 1e-4}}
    with pytest.raises(OutputRefused, match=r"options\.lr: 2e-05 → 0\.0001"):
        claim_folder(folder, "encoder", config=other)
    assert state.read_bytes() == b"d" * 64
    assert claim_folder(folder, "encoder", config=other, overwrite=True) == "create"
    assert not state.exists()
    # a finished model folder whose card the user edited: --overwrite stops and names the card
    _write(folder / TUNE_FILE, json.dumps({"config": other}))
    _write(folder / "README.md", "the card wsd wrote")
    (folder / "README.md").write_text("my own card, for the Hub", encoding="utf-8")
    with pytest.raises(OutputRefused, match=r"README\.md \(a file wsd wrote, changed since\)"):
        claim_folder(folder, "encoder", config=config, overwrite=True)
    assert (folder / "README.md").read_text(encoding="utf-8") == "my own card, for the Hub"
