"""Training precision by measurement: ``wsd tune --precision auto`` times fp32 and bf16 autocast on its own batches.

Whether bf16 autocast trains faster than fp32 on a CPU is not told by its flags. On the Intel Xeon with
AVX512-BF16 but no AMX of issue 42, bf16 inference ran 1.4 times slower than fp32; on an Intel Xeon with AMX a
MiniLM training step is about as fast in either, and an MPNet-base step about 1.3 times as fast in bf16
(``experiments/results/bench_tune_precision/``). So where PyTorch has bf16 kernels on the CPU, ``auto`` runs
the run's first batches in both precisions, alternately, before the first step, and keeps bf16 only when it is
faster by more than :data:`PREFERENCE_MARGIN` (fp32 is exact; a tie goes to it). What it measured goes into the
model's ``wsd_tune.json`` and is kept with a checkpoint, so a resumed run trains on in the precision it started
with.

The probe changes nothing the training sees: the gradients it computes are dropped, no weight is updated, and the
random state is restored afterwards, so a run's weights are those it would have had with that precision named.

Where nothing is to be chosen, nothing is measured: an explicit ``fp32`` or ``bf16``; a CPU where PyTorch has no
bf16 matrix kernels (neither bf16 instructions nor oneDNN's AVX-512 path: bf16 would be emulated, many times
slower, so fp32); a CUDA GPU (bf16 where it supports it, as before); and
``$WSD_CALIBRATION=off``, which turns ``wsd embed``'s calibration off too (then the CPU's flags decide, as before
measurement: bf16 where they say it is native).

>>> choose({"fp32": 1.0, "bf16": 0.97})
'fp32'
>>> choose({"fp32": 1.0, "bf16": 0.8})
'bf16'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

#: bf16 autocast is chosen only when a probe step in it is faster than in fp32 by more than this share.
PREFERENCE_MARGIN = 0.05
#: Batches of the run's first epoch that the probe times (the first ones: what the run starts with).
PROBE_BATCHES = 2
#: Untimed passes over them first in each precision (a first call's kernels and allocations).
WARMUP_ROUNDS = 1
#: Timed passes over them in each precision, alternating; each precision's fastest pass counts.
TIMED_ROUNDS = 2
#: The precisions a measurement compares, as :attr:`wsd.options.TuneOptions.precision` names them.
CANDIDATES = ("fp32", "bf16")


def choose(seconds: Mapping[str, float], margin: float = PREFERENCE_MARGIN) -> str:
    """The precision to train in, from the seconds a probe pass took in each.

    Parameters
    ----------
    seconds : mapping of str to float
        ``fp32`` and, where it was measured, ``bf16``.
    margin : float
        bf16 must be faster by more than this share of its own time.

    Returns
    -------
    str
        ``"bf16"`` or ``"fp32"``.
    """
    if "bf16" in seconds and seconds["fp32"] > (1.0 + margin) * seconds["bf16"]:
        return "bf16"
    return "fp32"


@dataclass(frozen=True)
class PrecisionChoice:
    """The precision a run trains in, and how it was decided.

    Parameters
    ----------
    precision : {"fp32", "bf16"}
        What the run trains in (bf16: bf16 autocast).
    decided_by : str
        ``"asked"`` (named), ``"measured"`` (the probe), ``"flags"`` (oneDNN's answer: measurement turned off),
        ``"no bf16 kernels"`` or ``"cuda"``; a resumed run keeps the record of the run it resumes.
    seconds : dict of str to float
        Seconds of one timed probe pass per precision (empty unless measured).
    """

    precision: str
    decided_by: str
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def dtype(self) -> torch.dtype | None:
        """The autocast dtype (None for fp32)."""
        return torch.bfloat16 if self.precision == "bf16" else None

    def describe(self) -> str:
        """One line for the progress output and the model card.

        Returns
        -------
        str

        Examples
        --------
        >>> PrecisionChoice("fp32", "measured", {"fp32": 0.5, "bf16": 0.61}).describe()
        'fp32 (measured: fp32 0.500 s, bf16 0.610 s a probe pass)'
        """
        if not self.seconds:
            return f"{self.precision} ({self.decided_by})"
        timed = ", ".join(f"{name} {value:.3f} s" for name, value in self.seconds.items())
        return f"{self.precision} ({self.decided_by}: {timed} a probe pass)"

    def to_dict(self) -> dict[str, Any]:
        """What ``wsd_tune.json`` and a checkpoint record.

        Returns
        -------
        dict
            ``precision``, ``decided_by`` and ``seconds``.
        """
        return {"precision": self.precision, "decided_by": self.decided_by, "seconds": dict(self.seconds)}


def fixed_choice(precision: str, device: torch.device) -> PrecisionChoice | None:
    """The choice where nothing is to be measured, or None where ``auto`` measures.

    Parameters
    ----------
    precision : {"auto", "fp32", "bf16"}
        The option.
    device : torch.device
        Where training runs.

    Returns
    -------
    PrecisionChoice or None

    Examples
    --------
    >>> fixed_choice("fp32", torch.device("cpu")).describe()
    'fp32 (asked)'
    """
    from wsd import machine
    from wsd.embed.calibration import enabled

    if precision in CANDIDATES:
        return PrecisionChoice(precision, "asked")
    if device.type == "cuda":
        return PrecisionChoice("bf16" if torch.cuda.is_bf16_supported() else "fp32", "cuda")
    if not (machine.native_bf16_flags() or machine.fast_bf16()):
        return PrecisionChoice("fp32", "no bf16 kernels")
    if not enabled():
        return PrecisionChoice("bf16" if machine.fast_bf16() else "fp32", "flags")
    return None


def probe_seconds(
    step: Callable[[Any, torch.dtype | None], None],
    batches: Sequence[Any],
    *,
    timer: Callable[[], float] = time.perf_counter,
    warmup_rounds: int = WARMUP_ROUNDS,
    timed_rounds: int = TIMED_ROUNDS,
) -> dict[str, float]:
    """Seconds of the fastest timed pass over ``batches`` in each precision, the precisions alternating.

    Parameters
    ----------
    step : callable
        Runs one batch's forward and backward pass under an autocast dtype (None: fp32).
    batches : sequence
        What ``step`` takes, the same in every pass.
    timer : callable
        The clock (a test gives a fake one).
    warmup_rounds, timed_rounds : int
        Untimed and timed passes in each precision.

    Returns
    -------
    dict of str to float
        ``{"fp32": s, "bf16": s}``.
    """
    dtypes = {"fp32": None, "bf16": torch.bfloat16}
    best = {name: float("inf") for name in dtypes}
    for number in range(warmup_rounds + timed_rounds):
        order = list(dtypes) if number % 2 == 0 else list(reversed(dtypes))
        for name in order:
            started = timer()
            for batch in batches:
                step(batch, dtypes[name])
            if number >= warmup_rounds:
                best[name] = min(best[name], timer() - started)
    return best


def measured_choice(
    step: Callable[[Any, torch.dtype | None], None],
    batches: Sequence[Any],
    *,
    timer: Callable[[], float] = time.perf_counter,
) -> PrecisionChoice:
    """Probe ``batches`` in both precisions (:func:`probe_seconds`) and choose (:func:`choose`).

    Parameters
    ----------
    step : callable
        As :func:`probe_seconds` takes it.
    batches : sequence
        The run's first batches.
    timer : callable
        The clock.

    Returns
    -------
    PrecisionChoice
    """
    seconds = probe_seconds(step, batches, timer=timer)
    return PrecisionChoice(choose(seconds), "measured", {name: round(value, 4) for name, value in seconds.items()})
