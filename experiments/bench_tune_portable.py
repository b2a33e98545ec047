"""What ``wsd tune --portable`` costs: training in the portable arithmetic against the machine's own, side by side.

Run from the repository root (minutes on 2 cores; nothing else running)::

    python -m experiments.bench_tune_portable [--steps 60] [--repeats 3] [--data-dir DIR] [--name NAME]

Every recipe trains in the portable arithmetic (:mod:`wsd.tune.portable`: PyTorch's AVX2 kernels, MKL's
``COMPATIBLE`` branch, oneDNN off, two threads) so that it builds the same model on every x86-64 CPU with AVX2.
This measures the price: the ``sense-minilm`` recipe's sources and options (fp32, seed 0), ``--steps`` steps,
trained by a whole ``wsd tune`` process with ``--portable`` and without it, alternating (portable, native,
native, portable, ...), ``--repeats`` times each. Reported: each arm's training seconds a step (from its
``wsd_tune.json``, the training loop alone) and wall seconds of the process, their medians, and the ratio
portable / native of the medians (> 1: portable is slower). The machine and its thread count are named; the native
arm uses every core the process may use.

Results: ``experiments/results/bench_tune_portable/NAME.md`` / ``.json`` (``NAME``: ``bench_tune_portable-<machine
kind>``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, save_page

SOURCES = ("wic/train/train.data.txt", "mcl-wic/training/training.en-en.data")


def run_one(portable: bool, data_dir: Path, steps: int, out: Path) -> dict[str, Any]:
    """One ``wsd tune`` process: its wall seconds and its training seconds a step."""
    from wsd.tune.recipes import recipe_excluded_lemmas, resolve_recipe

    out.parent.mkdir(parents=True, exist_ok=True)
    lemmas = out.parent / "excluded.txt"
    lemmas.write_text("\n".join(recipe_excluded_lemmas(resolve_recipe("sense-minilm"))) + "\n", encoding="utf-8")
    command = [sys.executable, "-c", "import sys; from wsd.cli import main; sys.exit(main())", "tune"]
    for source in SOURCES:
        command += ["--train", f"wic:{data_dir / source}"]
    command += ["--exclude-lemmas", f"@{lemmas}", "--precision", "fp32", "--seed", "0", "--validation-fraction", "0"]
    command += ["--max-steps", str(steps), "--no-progress", "--out", str(out)]
    command += ["--portable"] if portable else []
    clock = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - clock
    if result.returncode != 0:
        raise RuntimeError(f"wsd tune failed:\n{result.stderr[-3000:]}")
    training = json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))["training"]
    return {
        "wall_s": wall,
        "seconds_per_step": training["seconds"] / training["steps"],
        "steps": training["steps"],
        "arithmetic": training.get("arithmetic"),
    }


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    arms = results["arms"]
    lines = [
        "# What `wsd tune --portable` costs (the `sense-minilm` recipe's sources, fp32)",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}; {results['date']}",
        f"- {results['steps']} steps a run, {results['repeats']} alternating runs of each arm; training seconds a "
        "step from `wsd_tune.json` (the loop alone), wall seconds of the whole process.",
        "",
        "| arm | arithmetic | seconds a step (median) | wall s (median) | runs (s a step) |",
        "|---|---|---:|---:|---|",
    ]
    for name in ("native", "portable"):
        arm = arms[name]
        record = arm["runs"][0]["arithmetic"] or {}
        onednn = "on" if record.get("onednn") else "off"
        how = f"{record.get('capability')}, {record.get('threads')} threads, oneDNN {onednn}"
        runs = ", ".join(f"{run['seconds_per_step']:.3f}" for run in arm["runs"])
        lines.append(f"| {name} | {how} | {arm['median_seconds_per_step']:.3f} | {arm['median_wall_s']:.1f} | {runs} |")
    lines += ["", f"Portable / native, seconds a step: **{results['ratio']:.2f}**."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.bench_tune_portable", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--out", type=Path, default=results_dir("bench_tune_portable"))
    parser.add_argument("--name", default=None)
    args = parser.parse_args(argv)
    from experiments.bench_embed_sentences import this_machine
    from wsd import machine

    name = args.name or f"bench_tune_portable-{this_machine()['kind']}"
    arms: dict[str, Any] = {"native": {"runs": []}, "portable": {"runs": []}}
    order = [
        arm
        for pair in range(args.repeats)
        for arm in (("portable", "native") if pair % 2 == 0 else ("native", "portable"))
    ]
    with tempfile.TemporaryDirectory() as scratch:
        for number, arm in enumerate(order):
            run = run_one(arm == "portable", args.data_dir, args.steps, Path(scratch) / f"{number}" / "model")
            arms[arm]["runs"].append(run)
            log(f"{arm}: {run['seconds_per_step']:.3f} s a step, {run['wall_s']:.1f} s wall")
    for arm in arms.values():
        arm["median_seconds_per_step"] = statistics.median(run["seconds_per_step"] for run in arm["runs"])
        arm["median_wall_s"] = statistics.median(run["wall_s"] for run in arm["runs"])
    results = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "steps": args.steps,
        "repeats": args.repeats,
        "arms": arms,
        "ratio": arms["portable"]["median_seconds_per_step"] / arms["native"]["median_seconds_per_step"],
    }
    save_page(results, args.out / f"{name}.json", args.out / f"{name}.md", markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
