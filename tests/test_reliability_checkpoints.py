"""The checkpoint of ``wsd tune`` under attack (issue 39): never opened unless wsd wrote it, never lost.

Through the real CLI on a hand-made WUG folder (``make_judged_wug`` of ``tests/helpers.py``), three steps of four
uses with the five lowest layers frozen (a small checkpoint): a crafted pickle put in place of ``state.pt`` runs
nothing, whether the manifest's entry is stale or forged to match it; another configuration on the same ``--out`` is
refused and keeps the checkpoint; a run killed between the checkpoint's rename and its manifest line resumes; a
Ctrl-C saves the steps done and says so; a damaged checkpoint is refused, and ``--overwrite`` clears it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import make_judged_wug

import wsd.tune.train as training
from wsd.cli import main
from wsd.io import manifest
from wsd.io.layout import MANIFEST_FILE, TUNE_CHECKPOINT_DIR, TUNE_CHECKPOINT_STATE

pytestmark = pytest.mark.slow

FAST = ["--max-steps", "3", "--batch-uses", "4", "--freeze-layers", "5", "--validation-fraction", "0"]
FAST += ["--device", "cpu", "--precision", "fp32", "--no-progress"]


def _argv(wug: Path, out: Path, *extra: str) -> list[str]:
    return ["tune", "--train", f"wug:{wug}", "--out", str(out), *FAST, *extra]


def _every_step(wug: Path, out: Path, *extra: str) -> list[str]:
    """The command of the ``interrupted`` fixture (a checkpoint every step), with ``extra`` flags."""
    return _argv(wug, out, "--checkpoint-steps", "1", *extra)


def _interrupt_at(patch: pytest.MonkeyPatch, call: int, *, after_forward: bool = False) -> None:
    """Ctrl-C while the ``call``-th batch is encoded (1-based): before its forward pass, or after it (its dropout
    drew from the RNG then)."""
    real, calls = training._batch_loss, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == call and not after_forward:
            raise KeyboardInterrupt
        loss = real(*args, **kwargs)
        if len(calls) == call:
            raise KeyboardInterrupt
        return loss

    patch.setattr(training, "_batch_loss", interrupted)


def _state(out: Path) -> Path:
    return out / TUNE_CHECKPOINT_DIR / TUNE_CHECKPOINT_STATE


@pytest.fixture(scope="module")
def wug(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_judged_wug(tmp_path_factory.mktemp("wug") / "wug")


@pytest.fixture(scope="module")
def interrupted(wug: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run with a checkpoint at step 1 (written every step), interrupted while it computed step 2."""
    out = tmp_path_factory.mktemp("interrupted") / "model"
    with pytest.MonkeyPatch.context() as patch:
        _interrupt_at(patch, 2)
        assert main(_every_step(wug, out)) == 130
    assert _state(out).is_file() and manifest.status(_state(out), thorough=True) == "match"
    return out


def _copy(folder: Path, to: Path) -> Path:
    shutil.copytree(folder, to)  # copy2: modification times kept, as the manifest recorded them
    return to


def _one_line(capsys: pytest.CaptureFixture[str], code: int) -> str:
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


class _Payload:
    """What an attacker pickles: unpickling it calls ``os.mkdir(marker)``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


# ---------------------------------------------------------------------------------------------- case 1
def test_a_crafted_pickle_in_place_of_the_checkpoint_runs_nothing(interrupted, wug, tmp_path, capsys) -> None:
    import torch

    out = _copy(interrupted, tmp_path / "model")
    marker = tmp_path / "pwned"
    torch.save({"format": training.CHECKPOINT_FORMAT, "payload": _Payload(marker)}, _state(out))
    # the manifest's entry left as wsd wrote it: the checksum differs, the file is never opened
    err = _one_line(capsys, main(_every_step(wug, out)))
    assert not marker.exists()
    assert str(_state(out)) in err and "changed since" in err and "--overwrite" in err
    # the entry forged to match the pickle: its checksum passes, and it is still loaded as tensors only
    forged = {"path": f"{TUNE_CHECKPOINT_DIR}/{TUNE_CHECKPOINT_STATE}", "size": _state(out).stat().st_size}
    forged["sha256"] = manifest.file_sha256(_state(out))
    with open(out / MANIFEST_FILE, "a", encoding="utf-8") as handle:
        handle.write("\n" + json.dumps(forged) + "\n")
    assert manifest.status(_state(out), thorough=True) == "match"
    err = _one_line(capsys, main(_every_step(wug, out)))
    assert not marker.exists()
    assert str(_state(out)) in err and "not a wsd tune checkpoint" in err


# ---------------------------------------------------------------------------------------------- case 2
def test_another_configuration_never_discards_an_unfinished_checkpoint(interrupted, wug, tmp_path, capsys) -> None:
    out = _copy(interrupted, tmp_path / "model")
    before = manifest.file_sha256(_state(out))
    err = _one_line(capsys, main(_every_step(wug, out, "--lr", "1e-4")))
    assert "options.lr: 2e-05 → 0.0001" in err and "--overwrite" in err
    not_a_model = tmp_path / "not-a-model"
    not_a_model.mkdir()
    (not_a_model / "notes.txt").write_text("no model here", encoding="utf-8")
    assert main(_every_step(wug, out, "--model", str(not_a_model))) == 2
    capsys.readouterr()
    assert manifest.file_sha256(_state(out)) == before
    # the same command resumes from it and says so
    assert main(_every_step(wug, out)) == 0
    err = capsys.readouterr().err
    assert "resuming from step 1 of 3" in err
    assert '"steps": 3' in (out / "wsd_tune.json").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------- case 3
class _Killed(BaseException):
    """A kill at a chosen point (not an Exception: nothing of wsd's catches it)."""


def test_a_run_killed_while_recording_its_first_checkpoint_resumes(wug, tmp_path, capsys, monkeypatch) -> None:
    import wsd.io.atomic as atomic

    out = tmp_path / "model"
    every_other = ["--checkpoint-steps", "2", "--max-steps", "4", "--epochs", "2"]
    real = atomic.record

    def killed(path, *args, **kwargs):
        if Path(path).name == TUNE_CHECKPOINT_STATE:
            raise _Killed  # after the rename, before the manifest's final line
        return real(path, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(atomic, "record", killed)
        with pytest.raises(_Killed):
            main(_argv(wug, out, *every_other))
    assert _state(out).is_file()
    capsys.readouterr()
    assert main(_argv(wug, out, *every_other)) == 0, capsys.readouterr().err  # saves again at step 4
    assert "resuming from step 2 of 4" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------- case 5
def test_ctrl_c_saves_the_steps_done_and_says_so(wug, tmp_path, capsys) -> None:
    import torch
    from safetensors.numpy import load_file

    out = tmp_path / "model"
    with pytest.MonkeyPatch.context() as patch:
        _interrupt_at(patch, 1)  # during the first step: nothing to save
        assert main(_argv(wug, out)) == 130
    err = capsys.readouterr().err.strip()
    assert err.endswith("interrupted; no step was finished; nothing to resume"), err
    assert not _state(out).exists()

    def half_then_ctrl_c(document, tmp):  # a second Ctrl-C while the first one's checkpoint is written
        Path(tmp).write_bytes(b"half a checkpoint")
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        _interrupt_at(patch, 3)
        patch.setattr(torch, "save", half_then_ctrl_c)
        assert main(_argv(wug, out)) == 130
    err = capsys.readouterr().err.strip()
    assert err.endswith("interrupted; 2 steps were done and none is saved; nothing to resume"), err
    assert not _state(out).exists() and not [p for p in _state(out).parent.iterdir() if ".tmp-" in p.name]
    with pytest.MonkeyPatch.context() as patch:
        _interrupt_at(patch, 3, after_forward=True)  # long before the first checkpoint (every 500 steps)
        assert main(_argv(wug, out)) == 130
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "interrupted; saved at step 2 of 3" in err, err
    assert "run the same command again to resume" in err
    assert manifest.status(_state(out), thorough=True) == "match"
    assert main(_argv(wug, out)) == 0
    assert "resuming from step 2 of 3" in capsys.readouterr().err
    # the checkpoint taken in the middle of step 3 holds the state between steps 2 and 3, its RNG included
    assert main(_argv(wug, tmp_path / "uninterrupted")) == 0
    resumed, clean = load_file(out / "model.safetensors"), load_file(tmp_path / "uninterrupted" / "model.safetensors")
    assert resumed.keys() == clean.keys() and all((resumed[k] == clean[k]).all() for k in clean)


# ---------------------------------------------------------------------------------------------- case 6
def test_a_damaged_checkpoint_is_refused_and_overwrite_clears_it(interrupted, wug, tmp_path, capsys) -> None:
    out = _copy(interrupted, tmp_path / "model")
    state = _state(out)
    data = bytearray(state.read_bytes())
    data[len(data) // 2] ^= 0xFF
    state.write_bytes(bytes(data))
    err = _one_line(capsys, main(_every_step(wug, out)))
    assert str(state) in err and "changed since" in err and "--overwrite" in err
    assert main(_every_step(wug, out, "--overwrite")) == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "resuming" not in err and "removed the checkpoint" in err
    assert '"steps": 3' in (out / "wsd_tune.json").read_text(encoding="utf-8")
