"""Training steps of `wsd tune` in fp32 and in bf16 autocast, side by side, and what ``--precision auto`` chooses.

Run from the repository root (minutes on 2 cores; nothing else running)::

    python -m experiments.bench_tune_precision [--model PATH] [--source recipe|dwug] [--warmup 2] [--steps 6] \\
        [--rounds 3] [--data-dir DIR] [--name NAME]

**Why.** ``wsd tune --precision auto`` used to pick bf16 autocast wherever the CPU's flags say bf16 is native. On
an Intel Xeon with AMX one run of the ``sense-minilm`` mix took 440 s for 733 steps in bf16 autocast and another
324 s for 732 in fp32 (not side by side). Flags are not a measurement; this script is, and it checks the
measurement ``auto`` now makes (:mod:`wsd.tune.precision`).

**What is timed.** The same model (the bundled MiniLM, or ``--model``) is copied twice from the same weights and
each copy trains on the same planned batches of ``wsd tune`` (:class:`wsd.tune.batches.PairIndex`, seed 0, 24
uses a step; the loss, AdamW, gradient clipping and length groups of :func:`wsd.tune.train.train`), one copy in
fp32, one in bf16 autocast. Each first runs ``--warmup`` untimed steps; then ``--rounds`` rounds of ``--steps``
timed steps each, the two precisions alternating within a round and their order swapped from round to round, so
that both see the same machine. Reported: seconds a step per precision (all timed steps), the fp32/bf16 ratio
of each round and their median, and the choice ``auto`` makes with its own probe
(:func:`wsd.tune.precision.measured_choice` on the run's first two batches), run on the same machine in the same
process before the timed loops. ``--source recipe``: the ``sense-minilm`` recipe's Word-in-Context files (the
data the probe's margin was not chosen on: it was fixed before any figure, at 5%); ``--source dwug``: DWUG EN's
judged pairs (``experiments/bench_tune.py``'s data).

Results: ``experiments/results/bench_tune_precision/NAME.md`` / ``.json`` (``NAME`` defaults to
``bench_tune_precision-<source>-<model>``).
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, save_page

#: The training sources of each ``--source``, under ``--data-dir``.
SOURCES = {
    "recipe": ("wic:wic/train/train.data.txt", "wic:mcl-wic/training/training.en-en.data"),
    "dwug": ("wug:lscd/dwug_en",),
}


def load_span(model: str | None) -> Any:
    """A :class:`wsd.tune.forward.SpanEncoder` of ``model`` as ``wsd tune`` makes it (PyTorch, fp32 weights)."""
    from wsd.embed.encoder import Encoder
    from wsd.options import TuneOptions
    from wsd.tune.forward import SpanEncoder

    options = TuneOptions(model=model)
    encoder = Encoder.from_options(options.encoder_options(options.model).replace(runtime="torch"))
    return SpanEncoder(encoder, markers=options.markers)


def planned_batches(data_dir: Path, source: str, count: int) -> tuple[Any, list[Any]]:
    """The training uses and the first ``count`` batches ``wsd tune`` plans for ``source`` (seed 0)."""
    from wsd.options import TuneOptions
    from wsd.tune.batches import PairIndex
    from wsd.tune.sources import read_sources

    pairset = read_sources([f"{spec.split(':', 1)[0]}:{data_dir / spec.split(':', 1)[1]}" for spec in SOURCES[source]])
    options = TuneOptions()
    plan = PairIndex(pairset).epoch(0, 0, options.batch_uses)
    return pairset.uses, list(plan[:count])


def timed_loops(span: Any, uses: Any, batches: list[Any], warmup: int, steps: int, rounds: int) -> dict[str, Any]:
    """Train one copy of the model in each precision on ``batches`` (module docstring); seconds of each step."""
    import torch

    from wsd.options import TuneOptions
    from wsd.tune.train import MAX_GRAD_NORM, _batch_loss

    options = TuneOptions()
    copies: dict[str, Any] = {}
    for name, dtype in (("fp32", None), ("bf16", torch.bfloat16)):
        twin = copy.copy(span)
        twin.model = copy.deepcopy(span.model)
        twin.encoder = copy.copy(span.encoder)
        twin.autocast = dtype
        twin.model.train()
        optimizer = torch.optim.AdamW(twin.model.parameters(), lr=options.lr, weight_decay=0.01)
        copies[name] = (twin, optimizer)
    cursor = {name: 0 for name in copies}
    seconds: dict[str, list[float]] = {name: [] for name in copies}

    def run(name: str, count: int, timed: bool) -> None:
        twin, optimizer = copies[name]
        for _ in range(count):
            batch = batches[cursor[name] % len(batches)]
            cursor[name] += 1
            started = time.perf_counter()
            loss = _batch_loss(twin, uses, batch, options)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(twin.model.parameters(), MAX_GRAD_NORM)
            optimizer.step()
            if timed:
                seconds[name].append(time.perf_counter() - started)

    for name in copies:
        run(name, warmup, timed=False)
    ratios = []
    for number in range(rounds):
        order = ["fp32", "bf16"] if number % 2 == 0 else ["bf16", "fp32"]
        before = {name: len(seconds[name]) for name in copies}
        for name in order:
            run(name, steps, timed=True)
        fp32, bf16 = (sum(seconds[name][before[name] :]) for name in ("fp32", "bf16"))
        ratios.append(fp32 / bf16)
        log(f"round {number + 1}: fp32 {fp32:.2f} s, bf16 {bf16:.2f} s for {steps} steps (fp32/bf16 {ratios[-1]:.3f})")
    return {
        "seconds_per_step": {name: float(np.mean(values)) for name, values in seconds.items()},
        "round_ratios": ratios,
        "median_ratio": float(np.median(ratios)),
        "faster": "bf16" if float(np.median(ratios)) > 1.0 else "fp32",
    }


def auto_choice(span: Any, uses: Any, batches: list[Any]) -> dict[str, Any]:
    """What ``--precision auto`` chooses on the run's first batches: training's own decision
    (:func:`wsd.tune.train._precision`, the probe included), timed here and now on a copy of the model."""
    from wsd.options import TuneOptions
    from wsd.tune.train import TrainState, _precision

    twin = copy.copy(span)
    twin.model = copy.deepcopy(span.model)
    started = time.perf_counter()
    choice = _precision(twin, uses, [batches], TrainState(), TuneOptions(precision="auto"), None)
    return {**choice.to_dict(), "probe_seconds": time.perf_counter() - started}


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    timed, auto = results["timed"], results["auto"]
    per_step = timed["seconds_per_step"]
    faster = min(per_step.values())
    chosen = per_step[auto["precision"]]
    lines = [
        f"# `wsd tune` steps in fp32 and bf16 autocast: {results['source']} on `{results['model']}`",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}; {results['date']}",
        f"- {results['warmup']} untimed steps each, then {results['rounds']} rounds of {results['steps']} timed "
        "steps per precision, alternating (`experiments/bench_tune_precision.py`).",
        "",
        "| precision | seconds a step | fp32 / bf16 per round |",
        "|---|---:|---|",
        f"| fp32 | {per_step['fp32']:.3f} | |",
        f"| bf16 autocast | {per_step['bf16']:.3f} | "
        + ", ".join(f"{ratio:.3f}" for ratio in timed["round_ratios"])
        + f" (median {timed['median_ratio']:.3f}) |",
        "",
        f"Faster here: **{timed['faster']}**. `--precision auto` chose **{auto['precision']}** "
        f"({auto['decided_by']}: fp32 {auto['seconds']['fp32']:.3f} s, bf16 {auto['seconds']['bf16']:.3f} s a probe "
        f"pass; the probe took {auto['probe_seconds']:.1f} s): its steps are {chosen / faster:.3f}× the faster "
        "precision's.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.bench_tune_precision", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--model", default=None, help="the base model (default: the bundled MiniLM)")
    parser.add_argument("--source", choices=sorted(SOURCES), default="recipe")
    parser.add_argument("--warmup", type=int, default=2, help="untimed steps of each precision first")
    parser.add_argument("--steps", type=int, default=6, help="timed steps of each precision a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--out", type=Path, default=results_dir("bench_tune_precision"))
    parser.add_argument("--name", default=None)
    args = parser.parse_args(argv)
    from wsd import machine

    model_name = Path(args.model).name if args.model else "bundled MiniLM"
    name = args.name or f"bench_tune_precision-{args.source}-{Path(args.model).name if args.model else 'minilm'}"
    span = load_span(args.model)
    uses, batches = planned_batches(args.data_dir, args.source, args.warmup + args.steps * args.rounds)
    log(f"{len(batches)} batches of {args.source}")
    auto = auto_choice(span, uses, batches)
    log(f"auto: {json.dumps(auto)}")
    timed = timed_loops(span, uses, batches, args.warmup, args.steps, args.rounds)
    results = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "model": model_name,
        "source": args.source,
        "warmup": args.warmup,
        "steps": args.steps,
        "rounds": args.rounds,
        "auto": auto,
        "timed": timed,
    }
    save_page(results, args.out / f"{name}.json", args.out / f"{name}.md", markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
