"""wsd.tune.precision: ``wsd tune --precision auto`` trains in the faster of fp32 and bf16 autocast, by measurement."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from tests.test_tune_train import FAST, toy_pairs
from wsd import machine
from wsd.tune import TuneOptions, tune_encoder
from wsd.tune import precision as precision_module
from wsd.tune.precision import PrecisionChoice, choose, fixed_choice, measured_choice, probe_seconds

CPU = torch.device("cpu")


class FakeClock:
    """A clock that the probe's steps move: each batch costs what ``costs`` says for its precision."""

    def __init__(self, costs: dict[str, float]) -> None:
        self.now, self.costs, self.calls = 0.0, costs, []

    def __call__(self) -> float:
        return self.now

    def step(self, batch: int, dtype: torch.dtype | None) -> None:
        name = "bf16" if dtype == torch.bfloat16 else "fp32"
        self.calls.append((name, batch))
        self.now += self.costs[name] * (3.0 if len([c for c in self.calls if c[0] == name]) <= 2 else 1.0)


def test_bf16_is_chosen_only_when_faster_by_more_than_the_margin():
    assert choose({"fp32": 1.0, "bf16": 1.0}) == "fp32"
    assert choose({"fp32": 1.04, "bf16": 1.0}) == "fp32"
    assert choose({"fp32": 1.06, "bf16": 1.0}) == "bf16"
    assert choose({"fp32": 1.0}) == "fp32"
    assert choose({"fp32": 2.0, "bf16": 1.0}, margin=1.5) == "fp32"


def test_the_probe_alternates_the_precisions_and_times_only_after_the_warm_up():
    clock = FakeClock({"fp32": 0.5, "bf16": 0.3})
    seconds = probe_seconds(clock.step, [0, 1], timer=clock, warmup_rounds=1, timed_rounds=2)
    # the first pass of each precision (two batches) costs three times as much: it is the untimed warm-up
    assert seconds == pytest.approx({"fp32": 1.0, "bf16": 0.6})
    names = [name for name, _ in clock.calls]
    assert names == ["fp32", "fp32", "bf16", "bf16", "bf16", "bf16", "fp32", "fp32", "fp32", "fp32", "bf16", "bf16"]
    choice = measured_choice(clock.step, [0, 1], timer=clock)
    assert choice.precision == "bf16" and choice.decided_by == "measured" and set(choice.seconds) == {"fp32", "bf16"}
    assert "bf16 (measured: fp32" in choice.describe()


def test_nothing_is_measured_where_nothing_is_to_be_chosen(monkeypatch):
    monkeypatch.delenv("WSD_CALIBRATION", raising=False)
    assert fixed_choice("fp32", CPU) == PrecisionChoice("fp32", "asked")
    assert fixed_choice("bf16", CPU) == PrecisionChoice("bf16", "asked")
    monkeypatch.setattr(machine, "native_bf16_flags", lambda: ())
    monkeypatch.setattr(machine, "fast_bf16", lambda: False)
    assert fixed_choice("auto", CPU) == PrecisionChoice("fp32", "no bf16 kernels")
    monkeypatch.setattr(machine, "fast_bf16", lambda: True)  # oneDNN's AVX-512 path: something to measure
    assert fixed_choice("auto", CPU) is None
    monkeypatch.setattr(machine, "native_bf16_flags", lambda: ("amx_bf16",))
    monkeypatch.setattr(machine, "fast_bf16", lambda: False)
    assert fixed_choice("auto", CPU) is None  # measured
    monkeypatch.setenv("WSD_CALIBRATION", "off")
    monkeypatch.setattr(machine, "fast_bf16", lambda: True)
    assert fixed_choice("auto", CPU) == PrecisionChoice("bf16", "flags")
    monkeypatch.setattr(machine, "fast_bf16", lambda: False)
    assert fixed_choice("auto", CPU) == PrecisionChoice("fp32", "flags")


def _weights(folder):
    from safetensors.numpy import load_file

    return load_file(folder / "model.safetensors")


@pytest.mark.parametrize("winner", ["fp32", "bf16"])
def test_auto_trains_the_weights_of_the_precision_it_chose_and_says_how_it_chose(winner, monkeypatch, tmp_path):
    """The probe runs real steps, yet the run's weights are bit for bit those of the winner named."""
    monkeypatch.delenv("WSD_CALIBRATION", raising=False)
    monkeypatch.setattr(machine, "native_bf16_flags", lambda: ("amx_bf16",))
    probed = []
    real_probe = precision_module.probe_seconds

    def probe(step, batches, **kwargs):
        probed.append(len(batches))
        real_probe(step, batches, **kwargs)  # the real passes: they must leave no trace in the training
        return {"fp32": 1.0, "bf16": 0.5} if winner == "bf16" else {"fp32": 1.0, "bf16": 2.0}

    monkeypatch.setattr(precision_module, "probe_seconds", probe)
    options = dict(FAST, validation_fraction=0.0)
    auto = tune_encoder([toy_pairs()], tmp_path / "auto", options=TuneOptions(precision="auto", **options))
    assert probed == [2]
    named = tune_encoder([toy_pairs()], tmp_path / "named", options=TuneOptions(precision=winner, **options))
    a, b = _weights(auto.out), _weights(named.out)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    training = json.loads((auto.out / "wsd_tune.json").read_text(encoding="utf-8"))["training"]
    assert training["precision"] == ("bf16 autocast" if winner == "bf16" else "fp32")
    assert training["precision_choice"]["decided_by"] == "measured"
    assert training["precision_choice"]["precision"] == winner
    assert named.facts["training"]["precision_choice"]["decided_by"] == "asked"
    assert f"precision {winner} (measured: fp32 1.000 s" in (auto.out / "README.md").read_text(encoding="utf-8")


def test_a_resumed_run_trains_on_in_the_precision_it_started_with(monkeypatch, tmp_path):
    monkeypatch.delenv("WSD_CALIBRATION", raising=False)
    monkeypatch.setattr(machine, "native_bf16_flags", lambda: ("amx_bf16",))
    answers = iter([{"fp32": 1.0, "bf16": 0.5}, {"fp32": 0.5, "bf16": 1.0}])
    monkeypatch.setattr(precision_module, "probe_seconds", lambda step, batches, **kwargs: next(answers))
    options = TuneOptions(precision="auto", **dict(FAST, validation_fraction=0.0))

    def interrupt(step, loss):
        if step == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune_encoder([toy_pairs()], tmp_path / "run", options=options, on_step=interrupt)
    resumed = tune_encoder([toy_pairs()], tmp_path / "run", options=options)
    choice = resumed.facts["training"]["precision_choice"]
    assert choice["precision"] == "bf16" and choice["decided_by"] == "measured"  # not re-measured (fp32 would win)
    assert next(answers) == {"fp32": 0.5, "bf16": 1.0}  # the second answer was never asked for
