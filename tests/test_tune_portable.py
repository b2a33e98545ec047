"""wsd.tune.portable: ``--portable`` trains the same weights whatever AVX-512, AMX or thread count the CPU has."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from tests.test_tune_train import FAST, toy_pairs
from wsd.errors import ConfigError, InputError
from wsd.tune import TuneOptions, tune_encoder
from wsd.tune.options import training_options
from wsd.tune.portable import PORTABLE_ENVIRONMENT, run_portably, started_portable
from wsd.tune.train import TrainingInterrupted

PORTABLE = dict(FAST, validation_fraction=0.0, portable=True)


def _weights(folder):
    from safetensors.numpy import load_file

    return load_file(folder / "model.safetensors")


def _same(a, b) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


# module-level jobs: a portable process runs them (spawn imports them by name)
def environment_job(names: list[str]) -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in names}


def raising_job(kind: str) -> None:
    if kind == "input":
        raise InputError("corpus.txt, line 3: no text")
    if kind == "interrupted":
        raise TrainingInterrupted("saved at step 2 of 3 (out/checkpoint); run the same command again to resume")
    raise ZeroDivisionError("a bug")


def test_a_portable_process_starts_with_the_portable_environment_and_this_one_keeps_its_own(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "7")
    monkeypatch.delenv("MKL_CBWR", raising=False)
    names = sorted(PORTABLE_ENVIRONMENT)
    assert run_portably(environment_job, names) == dict(PORTABLE_ENVIRONMENT)
    assert os.environ["OMP_NUM_THREADS"] == "7" and "MKL_CBWR" not in os.environ
    assert not started_portable() and started_portable(dict(PORTABLE_ENVIRONMENT))


def test_a_script_that_runs_a_portable_job_at_its_top_level_runs_once(tmp_path):
    """The portable process runs wsd's own entry point, not the caller's script: no guard is needed, nothing runs
    twice."""
    import subprocess
    import sys

    script = tmp_path / "script.py"
    script.write_text(
        "from wsd.tune.portable import run_portably, started_portable\n"
        "print('started', started_portable(), run_portably(started_portable))\n",
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["started False True"]


def test_what_the_portable_process_raises_is_raised_here_as_it_was():
    with pytest.raises(InputError, match=r"^corpus.txt, line 3: no text$"):
        run_portably(raising_job, "input")
    with pytest.raises(TrainingInterrupted, match="saved at step 2 of 3"):
        run_portably(raising_job, "interrupted")
    with pytest.raises(RuntimeError, match="ZeroDivisionError: a bug"):
        run_portably(raising_job, "bug")


def test_portable_training_refuses_bf16_a_gpu_and_a_step_callback(tmp_path):
    with pytest.raises(ConfigError, match="portable trains in fp32"):
        training_options(TuneOptions(portable=True, precision="bf16"))
    with pytest.raises(ConfigError, match="portable trains on the CPU"):
        training_options(TuneOptions(portable=True, device="cuda"))
    with pytest.raises(ConfigError, match="on_step cannot follow a portable run"):
        tune_encoder([toy_pairs()], tmp_path / "m", options=TuneOptions(**PORTABLE), on_step=lambda s, v: None)
    assert not (tmp_path / "m").exists()


@pytest.mark.slow  # four short trainings, each in its own process
def test_the_portable_weights_do_not_depend_on_the_instructions_or_the_threads_the_machine_offers(
    tmp_path, monkeypatch
):
    """What an AVX2-only CPU offers MKL and oneDNN is simulated here by holding them to AVX2; the caller's thread
    count differs too. The portable run ends in the same weights, bit for bit; its record says how it ran."""
    options = TuneOptions(**PORTABLE)
    first = tune_encoder([toy_pairs()], tmp_path / "a", options=options)
    monkeypatch.setenv("MKL_ENABLE_INSTRUCTIONS", "AVX2")
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "AVX2")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    held = tune_encoder([toy_pairs()], tmp_path / "b", options=options)
    assert _same(_weights(first.out), _weights(held.out))
    arithmetic = json.loads((first.out / "wsd_tune.json").read_text(encoding="utf-8"))["training"]["arithmetic"]
    assert arithmetic["threads"] == 2 and arithmetic["onednn"] is False and arithmetic["mkl_cbwr"] == "COMPATIBLE"
    assert arithmetic["portable"] == (arithmetic["capability"] == "AVX2")
    assert first.facts["training"]["precision_choice"]["decided_by"] == "portable"
    assert first.facts["config"]["options"]["portable"] is True and first.facts["training"]["device"] == "cpu"
    card = (first.out / "README.md").read_text(encoding="utf-8")
    assert "- arithmetic: portable (PyTorch AVX2 kernels, 2 threads, MKL COMPATIBLE, oneDNN off)" in card or (
        arithmetic["capability"] != "AVX2" and "- arithmetic: this machine's" in card
    )
    # the same run without the portable arithmetic: on a CPU with more than AVX2 its weights differ
    monkeypatch.delenv("MKL_ENABLE_INSTRUCTIONS")
    monkeypatch.delenv("ONEDNN_MAX_CPU_ISA")
    native = tune_encoder([toy_pairs()], tmp_path / "c", options=TuneOptions(**dict(PORTABLE, portable=False)))
    record = native.facts["training"]["arithmetic"]
    assert record["portable"] is False
    if record["capability"] != "AVX2":
        assert not _same(_weights(first.out), _weights(native.out))


@pytest.mark.parametrize(
    ("flags", "said"), [(["--precision", "bf16"], "trains in fp32"), (["--device", "cuda"], "on the CPU")]
)
def test_the_command_refuses_portable_with_bf16_or_a_gpu_in_one_line(flags, said, tmp_path, capsys):
    from wsd.cli import main

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("x\n", encoding="utf-8")
    out = tmp_path / "model"
    assert main(["tune", "--train", f"wic:{pairs}", "--portable", *flags, "--out", str(out), "--no-progress"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "portable" in lines[0] and said in lines[0]
    assert not out.exists()
