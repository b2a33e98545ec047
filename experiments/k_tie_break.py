"""Does choosing k among silhouette near-ties by bootstrap agreement make k stable across runtimes? (issue 24)

Run from the repository root, after ``python -m experiments.k_stability --configs A,B`` has made its runs::

    python -m experiments.k_tie_break [--work out/experiments-k-stability-bf16] [--configs openvino-bf16,torch-bf16]

The default recipe picks the k (2..7) with the best silhouette. Where two candidates score within a few
thousandths, the rounding of the forward pass decides k (``k_stability.md``). A tie margin that gives such ties to
the fewest senses steadies k but pushes most words to k = 2 (same page). This experiment tries the other cure the
issue names: **among the candidates within a margin of the best silhouette, take the k whose clustering is most
reproducible**, measured as the mean ARI between the clustering of all uses and the clusterings of
:data:`BOOTSTRAPS` random subsamples of :data:`FRACTION` of them (each clustered again by the default recipe with
that k; ties go to the smaller k). Margin 0 is the plain silhouette rule (no tie-break). The rule, the margins,
the number of subsamples and their size were fixed before any figure.

For each set (SemEval-2013, SemEval-2010, five State of the Union targets) and margin it reports on how many
words k differs between the two runs (the same words embedded by two runtimes), the mean k and the share of
words given k = 2. It reads the vectors of the ``k_stability`` runs (``WORK/<set>-<config>/run``) and clusters
again; nothing is embedded.

Results: ``experiments/results/k_tie_break/k_tie_break.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import command_line, log, results_dir, rewrite_page

#: Subsamples per candidate k, and the share of the uses each keeps (fixed before any figure).
BOOTSTRAPS = 20
FRACTION = 0.8
#: Margins (silhouette units) within which candidates are tied and the tie-break decides.
MARGINS = (0.0, 0.005, 0.01, 0.02)
SETS = ("semeval2013", "semeval2010", "sotu")


def agreement(X: np.ndarray, forms: np.ndarray, k: int, seed: int) -> float:
    """Mean ARI between the default recipe's clustering of ``X`` into ``k`` senses and that of random subsamples."""
    from sklearn.metrics import adjusted_rand_score

    from wsd.senses.inducer import SenseInducer
    from wsd.senses.recipes import recipe

    params = recipe("default") | {"k": k}
    full = SenseInducer(**params).fit(X, forms=forms).labels_
    rng = np.random.default_rng(seed)
    scores = []
    for _ in range(BOOTSTRAPS):
        rows = np.sort(rng.choice(len(X), int(FRACTION * len(X)), replace=False))
        part = SenseInducer(**params).fit(X[rows], forms=forms[rows]).labels_
        scores.append(adjusted_rand_score(full[rows], part))
    return float(np.mean(scores))


def chosen_k(X: np.ndarray, forms: np.ndarray) -> dict[str, Any]:
    """The silhouette of every candidate, the agreement of the tied ones, and k under each margin."""
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.recipes import recipe

    silhouettes = SenseInducer(**recipe("default")).fit(X, forms=forms).k_scores_
    scores = {int(k): float(v) for k, v in silhouettes.items() if np.isfinite(v)}
    best = max(scores.values())
    agreements: dict[int, float] = {}
    ks: dict[str, int] = {}
    for margin in MARGINS:
        tied = sorted(k for k, v in scores.items() if v >= best - margin)
        if len(tied) == 1:
            ks[f"{margin:g}"] = tied[0]
            continue
        for k in tied:
            if k not in agreements:
                agreements[k] = agreement(X, forms, k, seed=k)
        top = max(agreements[k] for k in tied)
        ks[f"{margin:g}"] = min(k for k in tied if agreements[k] >= top)
    return {"silhouette": scores, "agreement": agreements, "k": ks}


def run_set(work: Path, dataset: str, config: str) -> dict[str, Any]:
    """Every target of one run folder: :func:`chosen_k` (cached in ``WORK/k_tie_break-<set>-<config>.json``)."""
    import pandas as pd

    cache = work / f"k_tie_break-{dataset}-{config}.json"
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    folder = work / f"{dataset}-{config}" / "run"
    if not (folder / "vectors.npy").is_file():
        raise SystemExit(f"{folder} has no vectors: run python -m experiments.k_stability --configs ... first")
    occurrences = pd.read_parquet(folder / "occurrences.parquet")
    vectors = np.load(folder / "vectors.npy").astype(np.float64)
    forms = occurrences["form"].to_numpy()
    started = time.perf_counter()
    words = {
        str(target): chosen_k(vectors[rows], forms[rows])
        for target, rows in sorted(occurrences.groupby("target").indices.items())
    }
    log(f"{dataset} {config}: {len(words)} words in {time.perf_counter() - started:.0f} s")
    cache.write_text(json.dumps(words, indent=1), encoding="utf-8")
    return words


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Per margin: the words whose k differs between the two runs, and the first run's mean k and k = 2 share."""
    targets = sorted(a)
    rows = {}
    for margin in (f"{m:g}" for m in MARGINS):
        ks = np.array([a[t]["k"][margin] for t in targets])
        rows[margin] = {
            "differ": [
                {"target": t, "k": [a[t]["k"][margin], b[t]["k"][margin]]}
                for t in targets
                if a[t]["k"][margin] != b[t]["k"][margin]
            ],
            "mean_k": float(ks.mean()),
            "share_k2": float((ks == 2).mean()),
        }
    return {"words": len(targets), "margins": rows}


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    a, b = results["configs"]
    lines = [
        "# Breaking silhouette near-ties by bootstrap agreement (issue 24)",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}",
        f"- Date: {results['date']}",
        f"- Runs compared: {a} against {b} (the `k_stability` runs in `{results['work']}`); {BOOTSTRAPS} "
        f"subsamples of {FRACTION:.0%} of the uses per tied candidate; the rule and its settings fixed before any "
        "figure. Margin 0 is the plain silhouette rule.",
        "",
        f"Words whose k differs between {a} and {b}, for each margin within which candidates are tied and the "
        "most reproducible one wins:",
        "",
        "| set | words | " + " | ".join(f"margin {m:g}" for m in MARGINS) + " |",
        "|---|---:|" + "---:|" * len(MARGINS),
    ]
    for name, cell in results["sets"].items():
        counts = [str(len(cell["margins"][f"{m:g}"]["differ"])) for m in MARGINS]
        lines.append(f"| {name} | {cell['words']} | " + " | ".join(counts) + " |")
    lines += [
        "",
        f"What each margin does to the number of senses ({a}): mean k, and the share of words given k = 2",
        "",
        "| set | " + " | ".join(f"margin {m:g}" for m in MARGINS) + " |",
        "|---|" + "---:|" * len(MARGINS),
    ]
    for name, cell in results["sets"].items():
        shown = [
            f"{cell['margins'][f'{m:g}']['mean_k']:.2f} ({cell['margins'][f'{m:g}']['share_k2']:.0%})" for m in MARGINS
        ]
        lines.append(f"| {name} | " + " | ".join(shown) + " |")
    lines += ["", "The words whose k differs, with k in each run:", ""]
    for name, cell in results["sets"].items():
        for margin in (f"{m:g}" for m in MARGINS):
            differ = cell["margins"][margin]["differ"]
            if differ:
                shown = ", ".join(f"{d['target']} ({d['k'][0]} vs {d['k'][1]})" for d in differ)
                lines.append(f"- {name}, margin {margin}: {shown}")
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.k_tie_break", description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("out/experiments-k-stability-bf16"), help="the runs")
    parser.add_argument("--configs", default="openvino-bf16,torch-bf16", help="the two runs compared")
    parser.add_argument("--out", type=Path, default=results_dir("k_tie_break"))
    parser.add_argument("--name", default="k_tie_break")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    json_file, md_file = args.out / f"{args.name}.json", args.out / f"{args.name}.md"
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    configs = args.configs.split(",")
    if len(configs) != 2:
        parser.error(f"--configs: two runs, not {args.configs!r}")
    from wsd import machine

    sets = {}
    for dataset in SETS:
        runs = [run_set(args.work, dataset, config) for config in configs]
        sets[dataset] = compare(*runs)
    results = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "configs": configs,
        "work": str(args.work),
        "sets": sets,
    }
    json_file.write_text(json.dumps(results, indent=1), encoding="utf-8")
    md_file.write_text(markdown(results), encoding="utf-8")
    log(f"wrote {md_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
