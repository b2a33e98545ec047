"""What ``--inventory wordnet:DIR`` adds to ``wsd cluster`` (issue 41: under 10% on 100k occurrences).

Run from the repository root::

    python -m experiments.bench_inventory [--sizes 100000] [--repeats 2] [--wordnet DIR] [--name bench_inventory]

A synthetic run of N occurrences over :data:`TARGETS` (ten English words WordNet lists, N/10 each; random
vectors around three centres per word, of the bundled encoder's width, its identity recorded as the run's
encoder) is clustered by ``wsd cluster`` with the default recipe, without and with ``--inventory``, each
``--repeats`` times in a fresh process, alternating. With the inventory, the command also reads WordNet's index,
embeds the targets' synset examples and glosses with the run's encoder (loaded once) and names every occurrence;
that work grows with the targets, not with N. Results: ``experiments/results/<name>.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from experiments.common import DEFAULT_DATA_DIR, RESULTS_DIR, command_line, log, parse_sizes, run_wsd, save_page

TARGETS = ("bank", "power", "state", "cell", "mouse", "interest", "plant", "spring", "bar", "match")


def make_run(folder: Path, n: int, seed: int = 0) -> Path:
    """A run of ``n`` synthetic occurrences of :data:`TARGETS` with the bundled encoder's identity."""
    from wsd.embed.encoder import Encoder
    from wsd.io.store import write_run

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000", help="occurrences, comma-separated")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--wordnet", type=Path, default=DEFAULT_DATA_DIR / "wordnet-3.0")
    parser.add_argument("--name", default="bench_inventory")
    args = parser.parse_args()
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
    results = {"command": command_line(), "machine": describe(), "targets": list(TARGETS), "rows": rows}
    save_page(results, RESULTS_DIR / f"{args.name}.json", RESULTS_DIR / f"{args.name}.md", markdown)


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
