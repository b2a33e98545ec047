"""Batches cut where padding costs most against batches of a fixed size: `wsd embed`, side by side (issue 42).

`wsd embed` runs a part's windows longest first. It used to cut them every ``batch_size`` windows; it now cuts
them by :func:`wsd.embed.batching.batch_sizes` (at most ``batch_size`` a batch, the fewest padded tokens plus a
fixed allowance a batch, :data:`wsd.embed.batching.BATCH_COST_TOKENS`: 256, from the per-call cost measured on the
tuning corpus; a first run with 64, chosen without a measurement, was slower on the tuning corpus, 1.08x, and
faster on the held-out one). Found on the held-out
DWUG EN sentences of ``bench_embed_sentences``, whose parts of 1,024 occurrences padded 13% more tokens than
the same windows sorted as one part: a part's few long windows padded whole batches.

Both cuttings run as a user's ``wsd embed`` (defaults otherwise: ``auto`` runtime and precision, the calibration
cache warm), each its own process, alternating (fixed, cut, cut, fixed, ...), ``--repeats`` times each, on:

- ``sotu`` (the tuning corpus of ``bench_embed_sentences``: the State of the Union sentences, a seeded sample);
- ``dwug`` (held out: the 9,107 DWUG EN uses).

Reported per corpus: the median wall time and forward seconds of each cutting, their ratio (fixed / cut, > 1:
the new cutting is faster), the forward calls and padded tokens of each (counted from the encoder's own
batches), and the least cosine between the two cuttings' stored vectors (the same occurrences).

    python -m experiments.bench_batch_cuts [--repeats 3]

Results: ``experiments/results/bench_batch_cuts/bench_batch_cuts-<machine kind>.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from experiments.bench_embed_sentences import (
    ROOT,
    SHARED,
    dwug_corpus,
    environment,
    load_average,
    min_cosine_to,
    software,
    sotu_corpus,
    this_machine,
)
from experiments.common import command_line, log, results_dir, save_page

CUTTINGS = ("fixed", "cut")
RESULTS = results_dir("bench_batch_cuts")


def fixed_sizes(count: int, batch_size: int) -> list[int]:
    """The old cutting: every ``batch_size`` windows, the remainder last.

    >>> fixed_sizes(70, 32)
    [32, 32, 6]
    """
    return [batch_size] * (count // batch_size) + ([count % batch_size] if count % batch_size else [])


def worker(cutting: str, corpus: Path, targets: Path, out: Path) -> None:
    """``wsd embed`` in this process with one cutting, then its padded tokens and calls on stdout (JSON)."""
    import wsd.embed.encoder as encoder_module
    from wsd.cli import main

    shapes: list[tuple[int, int]] = []
    original = encoder_module.Encoder._batch_inputs

    def counted(self: Any, plan: Any, batch: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        input_ids, mask = original(self, plan, batch, lengths)
        shapes.append(input_ids.shape)
        return input_ids, mask

    encoder_module.Encoder._batch_inputs = counted  # type: ignore[method-assign]
    if cutting == "fixed":
        encoder_module.Encoder._batch_cuts = lambda self, lengths: fixed_sizes(  # type: ignore[method-assign]
            len(lengths), self._batch_size
        )
    code = main(["embed", "--corpus", str(corpus), "--targets", str(targets), "--out", str(out), "--no-progress"])
    if code:
        raise SystemExit(code)
    print(json.dumps({"calls": len(shapes), "padded_tokens": int(sum(rows * cols for rows, cols in shapes))}))


def run_one(cutting: str, corpus: Path, targets: Path, out: Path, threads: int) -> dict[str, Any]:
    """One cutting's ``wsd embed`` in a fresh process: wall clock, stage timings, batches."""
    command = [sys.executable, "-m", "experiments.bench_batch_cuts", "--worker", cutting]
    command += ["--corpus", str(corpus), "--targets", str(targets), "--out", str(out)]
    load = load_average()
    clock = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=environment(threads), cwd=ROOT)
    wall = time.perf_counter() - clock
    if result.returncode != 0:
        raise RuntimeError(f"{cutting} on {corpus.name} failed:\n{result.stderr[-3000:]}")
    meta = json.loads((out / "meta.json").read_text())
    counts = json.loads(result.stdout.strip().splitlines()[-1])
    embedding = meta.get("embedding", {})
    return {
        "wall_s": wall,
        "forward_s": meta["timings"].get("forward_s"),
        "load_average": load,
        "runtime": f"{embedding.get('runtime')} {embedding.get('precision')}",
        **counts,
    }


def measure(name: str, corpus: Path, targets: Path, work: Path, repeats: int, threads: int) -> dict[str, Any]:
    """Both cuttings ``repeats`` times each, alternating, on one corpus; one untimed warm-up run first."""
    run_one("cut", corpus, targets, work / f"{name}-warm", threads)  # caches (OpenVINO, calibration, bytecode)
    runs: dict[str, list[dict[str, Any]]] = {cutting: [] for cutting in CUTTINGS}
    for repeat in range(repeats):
        order = CUTTINGS if repeat % 2 == 0 else CUTTINGS[::-1]
        for cutting in order:
            found = run_one(cutting, corpus, targets, work / f"{name}-{cutting}-{repeat}", threads)
            runs[cutting].append(found)
            log(
                f"{name} {cutting} #{repeat + 1}: {found['wall_s']:.1f} s, forward {found['forward_s']:.1f} s, "
                f"{found['calls']} calls, {found['padded_tokens']} padded tokens (load {found['load_average']:.1f})"
            )
    medians = {
        cutting: {key: statistics.median(run[key] for run in runs[cutting]) for key in ("wall_s", "forward_s")}
        for cutting in CUTTINGS
    }
    return {
        "runs": runs,
        "medians": medians,
        "wall_ratio": medians["fixed"]["wall_s"] / medians["cut"]["wall_s"],
        "forward_ratio": medians["fixed"]["forward_s"] / medians["cut"]["forward_s"],
        "min_cosine": min_cosine_to(work / f"{name}-cut-0", work / f"{name}-fixed-0"),
    }


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    machine = results["machine"]
    lines = [
        "# Batches cut where padding costs most vs every `batch_size` windows: `wsd embed` side by side (issue 42)",
        "",
        f"- Command: `{results['command']}`",
        f"- Measured: {results['date']} ({results['seconds']:.0f} s)",
        f"- Machine kind: `{machine['kind']}`: {machine['cpu']}; flags {', '.join(machine['flags'])}; "
        f"{machine['usable_cores']} usable cores",
        f"- Software: {', '.join(f'{k} {v}' for k, v in results['software'].items())}; {results['threads']} threads",
        "- Each run a fresh `wsd embed` process with the defaults, the calibration and OpenVINO caches warm; the two "
        "cuttings alternate. Ratio: fixed / cut (above 1: cutting where padding costs most is faster). `sotu` is the "
        "tuning corpus of `bench_embed_sentences`, `dwug` its held-out corpus; no setting was chosen on either.",
        "",
        "| corpus | runtime | cutting | runs | wall s (median) | forward s (median) | forward calls | padded tokens "
        "| × wall | × forward | min cosine |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, found in results["corpora"].items():
        for cutting in CUTTINGS:
            runs = found["runs"][cutting]
            median = found["medians"][cutting]
            ratios = (
                (f"{found['wall_ratio']:.3f}", f"{found['forward_ratio']:.3f}", f"{found['min_cosine']:.5f}")
                if cutting == "cut"
                else ("", "", "")
            )
            cells = [f"`{name}`", runs[0]["runtime"], cutting, str(len(runs)), f"{median['wall_s']:.2f}"]
            cells += [f"{median['forward_s']:.2f}", str(runs[0]["calls"]), str(runs[0]["padded_tokens"]), *ratios]
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Every run (1-minute load average at its start):", ""]
    lines += ["| corpus | cutting | wall s | forward s | load avg |", "|---|---|---:|---:|---:|"]
    for name, found in results["corpora"].items():
        for cutting in CUTTINGS:
            for run in found["runs"][cutting]:
                cells = [f"`{name}`", cutting, f"{run['wall_s']:.2f}", f"{run['forward_s']:.2f}"]
                lines.append("| " + " | ".join([*cells, f"{run['load_average']:.1f}"]) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (or, with ``--worker``, one ``wsd embed`` of it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tune-lines", type=int, default=10000, help="sentences of the tuning corpus (SOTU)")
    parser.add_argument("--held-out-lines", type=int, help="only the first N DWUG uses (default: all)")
    parser.add_argument("--datasets", type=Path, default=SHARED / "datasets")
    parser.add_argument("--corpora", type=Path, default=SHARED / "corpora")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--worker", choices=CUTTINGS, help=argparse.SUPPRESS)
    parser.add_argument("--corpus", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--targets", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.corpus, args.targets, args.out)
        return 0
    started = time.perf_counter()
    machine = this_machine()
    with tempfile.TemporaryDirectory(prefix="wsd-bench-cuts-") as scratch:
        work = Path(scratch)
        corpora = {
            "sotu": sotu_corpus(args.corpora, args.tune_lines, work),
            "dwug": dwug_corpus(args.datasets, work, args.held_out_lines),
        }
        found = {name: measure(name, *paths, work, args.repeats, args.threads) for name, paths in corpora.items()}
    results = {
        "command": command_line(),
        "date": datetime.date.today().isoformat(),
        "seconds": time.perf_counter() - started,
        "machine": machine,
        "software": software(),
        "threads": args.threads,
        "corpora": found,
    }
    stem = f"bench_batch_cuts-{machine['kind']}"
    save_page(results, args.results / f"{stem}.json", args.results / f"{stem}.md", markdown)
    log(f"written {args.results / stem}.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
