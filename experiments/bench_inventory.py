"""What ``--inventory wordnet:DIR`` adds to ``wsd cluster`` (issue 41: under 10% on 100k occurrences).

Run from the repository root::

    python -m experiments.bench_inventory [--sizes 100000] [--repeats 2] [--wordnet DIR] [--name bench_inventory]
        [--out DIR]

A quick check that it runs end to end (seconds of work, not a result): ``--sizes 500 --repeats 1 --out /tmp/x``.

A synthetic run of N occurrences over :data:`TARGETS` (ten English words WordNet lists, N/10 each; random
vectors around three centres per word, of the bundled encoder's width, its identity recorded as the run's
encoder) is clustered by ``wsd cluster`` with the default recipe, without and with ``--inventory``, each
``--repeats`` times in a fresh process, alternating. With the inventory, the command also reads WordNet's index,
embeds the targets' synset examples and glosses with the run's encoder (loaded once) and names every occurrence;
that work grows with the targets, not with N. Each size's times, side by side, and the share the inventory adds
are printed as they are measured. Results: ``experiments/results/bench_inventory/<name>.md`` / ``.json``
(``--out`` another folder).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.common import DEFAULT_DATA_DIR, command_line, log, parse_sizes, results_dir, run_wsd, save_page

TARGETS = ("bank", "power", "state", "cell", "mouse", "interest", "plant", "spring", "bar", "match")


def make_run(folder: Path, n: int, seed: int = 0) -> Path:
    """A run of ``n`` synthetic occurrences of :data:`TARGETS` with the bundled encoder's identity."""
    from wsd.embed.encoder import Encoder
    from wsd.io.run_store import write_run

    encoder = Encoder()
    dim = encoder.dim
    rng = np.random.default_rng(seed)
    targets = np.resize(np.array(TARGETS), n)
    centres = rng.normal(size=(len(TARGETS), 3, dim)).astype(np.float32)
    which = rng.integers(0, 3, size=n)
    index = pd.Series(range(len(TARGETS)), index=TARGETS)[targets].to_numpy()
    X = centres[index, which] + rng.normal(scale=0.8, size=(n, dim)).astype(np.float32)
    text = [f"a sentence about the {t} number {i}" for i, t in enumerate(targets)]
    start = np.array([len("a sentence about the ")] * n)
    occurrences = pd.DataFrame(
        {
            "id": [f"o{i}" for i in range(n)],
            "target": targets,
            "form": targets,
            "text": text,
            "start": start,
            "end": start + np.char.str_len(targets.astype(str)),
            "doc_id": [f"d{i}" for i in range(n)],
            "doc_start": 0,
        }
    )
    meta = {"config": {}, "embedding": encoder.identity().embedding_meta()}
    return write_run(folder / "run", occurrences, X, meta)


def ratio_line(row: dict[str, Any]) -> str:
    """One size's times side by side and what the inventory adds (the fastest of each kind's repeats).

    Examples
    --------
    >>> ratio_line({"occurrences": 1000, "runs": {"plain": [10.0, 9.0], "inventory": [9.9, 11.0]}})
    '1,000 occurrences: wsd cluster 9.0 s, with --inventory 9.9 s: +10.0% (ratio 1.100)'
    """
    plain, named = min(row["runs"]["plain"]), min(row["runs"]["inventory"])
    return (
        f"{row['occurrences']:,} occurrences: wsd cluster {plain:.1f} s, with --inventory {named:.1f} s: "
        f"{100 * (named / plain - 1):+.1f}% (ratio {named / plain:.3f})"
    )


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000", help="occurrences, comma-separated")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--wordnet", type=Path, default=DEFAULT_DATA_DIR / "wordnet-3.0")
    parser.add_argument("--name", default="bench_inventory")
    parser.add_argument("--out", type=Path, default=results_dir("bench_inventory"), help="folder of the results page")
    args = parser.parse_args(argv)
    if not (args.wordnet / "index.noun").is_file():
        raise SystemExit(f"WordNet 3.0 not found in {args.wordnet} (--wordnet DIR)")
    from wsd.machine import describe

    rows = []
    for n in parse_sizes(args.sizes):
        with tempfile.TemporaryDirectory() as tmp:
            run = make_run(Path(tmp), n)
            times: dict[str, list[float]] = {"plain": [], "inventory": []}
            for repeat in range(args.repeats):
                for kind in ("plain", "inventory") if repeat % 2 == 0 else ("inventory", "plain"):
                    extra = ["--inventory", f"wordnet:{args.wordnet}"] if kind == "inventory" else []
                    out = Path(tmp) / f"senses-{kind}-{repeat}"
                    seconds = run_wsd(["cluster", "--run", str(run), "--out", str(out), *extra], quiet=True)
                    times[kind].append(seconds)
                    log(f"{n} occurrences, {kind}: {seconds:.1f} s")
            plain, named = min(times["plain"]), min(times["inventory"])
            rows.append({"occurrences": n, "plain_s": plain, "inventory_s": named, "added": named / plain - 1,
                         "runs": times})  # fmt: skip
            print(ratio_line(rows[-1]), flush=True)
    results = {"command": command_line(), "machine": describe(), "targets": list(TARGETS), "rows": rows}
    args.out.mkdir(parents=True, exist_ok=True)
    save_page(results, args.out / f"{args.name}.json", args.out / f"{args.name}.md", markdown)


def markdown(results: dict) -> str:
    """The results page."""
    lines = [
        "# What `--inventory wordnet:DIR` adds to `wsd cluster` (issue 41)",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}",
        f"- A synthetic run over {len(results['targets'])} targets ({', '.join(results['targets'])}); wall time of "
        "the whole `wsd cluster` process, default recipe, alternating order; the fastest of the repeats (timeit's "
        "rule: on a shared machine the slower runs measure the neighbours), every run listed.",
        "",
        "| occurrences | wsd cluster (s) | with --inventory (s) | added | every run: plain / inventory (s) |",
        "|---:|---:|---:|---:|---|",
    ]
    for row in results["rows"]:
        plain, named = min(row["runs"]["plain"]), min(row["runs"]["inventory"])
        every = " / ".join(", ".join(f"{t:.1f}" for t in row["runs"][k]) for k in ("plain", "inventory"))
        lines.append(
            f"| {row['occurrences']:,} | {plain:.1f} | {named:.1f} | {100 * (named / plain - 1):+.1f}% | {every} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
