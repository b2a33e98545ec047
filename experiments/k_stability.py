"""Does float rounding decide the number of senses, and does a tie margin stop it? (issue 24, item 6)

Run from the repository root::

    python -m experiments.k_stability [--work DIR] [--data-dir DIR] [--corpus FILE] [--markdown-only]

The default recipe chooses each word's number of senses k by the best silhouette over k = 2..7. Silhouettes
of word vectors are small (a few hundredths), so two candidates often score within a few thousandths, and then
the rounding of the forward pass can decide k: on State of the Union, *bank* once got 4 senses with PyTorch bf16
and 2 with OpenVINO. This experiment measures it and the cure.

1. **The runs.** Each set is embedded and clustered by the default recipe (``wsd evaluate`` for SemEval-2010 and
   SemEval-2013, ``wsd run`` for five SOTU targets) with three forward passes: OpenVINO fp32 (the new default
   on a CPU without native bf16), PyTorch fp32 (the old default there) and PyTorch bf16 (the old default on a
   CPU with native bf16; emulated where the CPU lacks it, same rounding). Each run keeps every candidate's
   silhouette (``k_scores``), so any rule that picks k from them is replayed exactly without clustering again.
2. **The rounding.** For each pair of runs: how much one candidate's silhouette moves (median, 99th
   percentile, largest), and on how many words k differs.
3. **The margin.** :func:`wsd.senses.selection.within_margin` reads scores within a margin of the best as
   ties, won by the fewest senses. **The margin is chosen on SemEval-2010 alone**, by a rule fixed before any
   figure: the smallest of :data:`MARGINS` at least twice the 99th percentile of the silhouette change between
   PyTorch bf16 and OpenVINO fp32 there. SemEval-2013 and SOTU are held out: the words whose k differs
   between runtimes are counted there, with no margin and with the chosen one.
4. **What it costs.** ``wsd evaluate`` of SemEval-2013 and SemEval-2010 with the chosen margin, beside no
   margin (OpenVINO fp32, one seed), the official metrics.

Results: ``experiments/results/k_stability/k_stability.md`` / ``.json``.

On a CPU with native bf16, ``--configs openvino-bf16,torch-bf16 --name k_stability-bf16`` compares the two
runtimes as users there get them (the default OpenVINO bf16 against PyTorch bf16), with no margin and with the
margin chosen above (steps 1 and 2 only).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import BENCHMARKS, DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, run_wsd

#: The forward passes compared: name → (runtime, precision).
CONFIGS: dict[str, tuple[str, str]] = {
    "openvino-fp32": ("openvino", "fp32"),
    "torch-fp32": ("torch", "fp32"),
    "torch-bf16": ("torch", "bf16"),
    "openvino-bf16": ("openvino", "bf16"),
}
#: The forward passes of the default study (the margin is chosen on them); ``--configs`` names others, e.g. the
#: two runtimes in bf16 on a CPU with native bf16 (``--configs openvino-bf16,torch-bf16``).
DEFAULT_CONFIGS = ("openvino-fp32", "torch-fp32", "torch-bf16")
#: The sets: the one the margin is chosen on first, then the held-out ones.
SETS = ("semeval2010", "semeval2013", "sotu")
TUNING_SET = "semeval2010"
SOTU_TARGETS = "bank,power,state,interest,plant"
#: Candidate tie margins (silhouette units), fixed before any figure.
MARGINS = (0.0, 0.001, 0.002, 0.005, 0.01, 0.02)
#: The pair whose rounding difference chooses the margin: the old PyTorch bf16 default against OpenVINO.
ROUNDING_PAIR = ("torch-bf16", "openvino-fp32")
DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "sotu.jsonl.gz"


def ensure_run(work: Path, dataset: str, config: str, data_dir: Path, corpus: Path, margin: float = 0.0) -> Path:
    """The folder of one set clustered with one forward pass (made when missing); ``margin`` as ``--k-tie-margin``."""
    runtime, precision = CONFIGS[config]
    suffix = "" if margin == 0 else f"-margin{margin:g}"
    out = work / f"{dataset}-{config}{suffix}"
    chosen = ["--runtime", runtime, "--precision", precision, "--k-tie-margin", str(margin), "--out", str(out)]
    if dataset == "sotu":
        if not (out / "senses" / "senses.parquet").is_file():
            run_wsd(["run", "--corpus", str(corpus), "--meta", "year", "--targets", SOTU_TARGETS, *chosen])
    elif not (out / "metrics.json").is_file():
        run_wsd(["evaluate", "--dataset", dataset, "--data-dir", str(data_dir), "--overwrite", *chosen])
    return out


def k_scores(folder: Path) -> dict[str, dict[int, float]]:
    """Every target's candidate silhouettes, from a run's saved sense model."""
    from wsd.senses.model import SenseModel

    summary = SenseModel.load(folder / "senses" / "model").summary()
    return {
        str(t): {int(k): float(v) for k, v in s.items()} for t, s in zip(summary.target, summary.k_scores, strict=True)
    }


def chosen_k(scores: dict[str, dict[int, float]], margin: float) -> dict[str, int | None]:
    """Each target's k under a tie margin (the rule of :func:`wsd.senses.selection.within_margin`)."""
    from wsd.senses.selection import within_margin

    return {target: within_margin("silhouette", s, margin) for target, s in scores.items()}


def compare(a: dict[str, dict[int, float]], b: dict[str, dict[int, float]]) -> dict[str, Any]:
    """How two runs' silhouettes differ, and on which targets k differs under each margin."""
    targets = sorted(set(a) & set(b))
    moves = [
        abs(a[t][k] - b[t][k])
        for t in targets
        for k in set(a[t]) & set(b[t])
        if np.isfinite(a[t][k]) and np.isfinite(b[t][k])
    ]
    moved = np.asarray(moves) if moves else np.zeros(1)
    differ = {}
    for margin in MARGINS:
        ka, kb = chosen_k({t: a[t] for t in targets}, margin), chosen_k({t: b[t] for t in targets}, margin)
        differ[f"{margin:g}"] = [{"target": t, "k": [ka[t], kb[t]]} for t in targets if ka[t] != kb[t]]
    return {
        "targets": len(targets),
        "silhouette_change": {
            "median": float(np.median(moved)),
            "p99": float(np.quantile(moved, 0.99)),
            "max": float(moved.max()),
        },
        "k_differs": differ,
    }


def choose_margin(tuning: dict[str, Any]) -> float:
    """The rule fixed before any figure: the smallest margin at least twice the tuning set's 99th percentile."""
    bar = 2 * tuning["silhouette_change"]["p99"]
    return next((m for m in MARGINS if m >= bar), MARGINS[-1])


def gaps(scores: dict[str, dict[int, float]]) -> dict[str, float]:
    """How close the best two candidates are: share of targets whose top two silhouettes lie within 0.002, 0.005."""
    top = []
    for s in scores.values():
        values = sorted((v for v in s.values() if np.isfinite(v)), reverse=True)
        if len(values) >= 2:
            top.append(values[0] - values[1])
    gap = np.asarray(top)
    return {"targets": len(gap), **{f"within_{x:g}": float(np.mean(gap <= x)) for x in (0.002, 0.005, 0.01)}}


def run(
    work: Path, data_dir: Path, corpus: Path, configs: tuple[str, ...] = DEFAULT_CONFIGS, margin: float | None = None
) -> dict[str, Any]:
    """Every run, the comparisons, the chosen margin and its cost.

    The first of ``configs`` is the reference (its k, gaps and margin cost are reported). With the default
    configurations the margin is chosen (:func:`choose_margin`); with others ``margin`` is the one shown beside
    no margin, and its cost is not measured again.
    """
    reference = configs[0]
    results: dict[str, Any] = {"sets": {}, "configs": list(configs), "reference": reference}
    for dataset in SETS:
        scores = {config: k_scores(ensure_run(work, dataset, config, data_dir, corpus)) for config in configs}
        results["sets"][dataset] = {
            "pairs": {f"{a} vs {b}": compare(scores[a], scores[b]) for a, b in itertools.combinations(configs, 2)},
            "k": {config: chosen_k(s, 0.0) for config, s in scores.items()},
            "gaps": gaps(scores[reference]),
            "mean_k": {
                f"{m:g}": float(np.mean([k for k in chosen_k(scores[reference], m).values() if k is not None]))
                for m in MARGINS
            },
            "k_two": {
                f"{m:g}": float(np.mean([k == 2 for k in chosen_k(scores[reference], m).values()])) for m in MARGINS
            },
        }
        log(f"{dataset}: {len(scores[reference])} targets")
    if not set(ROUNDING_PAIR) <= set(configs):
        results["rounding_pair"] = next(iter(results["sets"][TUNING_SET]["pairs"]))
        results["margin"], results["cost"] = margin if margin is not None else MARGINS[-1], {}
        return results
    pair = f"{ROUNDING_PAIR[0]} vs {ROUNDING_PAIR[1]}"
    if pair not in results["sets"][TUNING_SET]["pairs"]:
        pair = f"{ROUNDING_PAIR[1]} vs {ROUNDING_PAIR[0]}"
    results["rounding_pair"] = pair
    margin = choose_margin(results["sets"][TUNING_SET]["pairs"][pair])
    results["margin"] = margin
    cost: dict[str, Any] = {}
    for dataset in ("semeval2013", "semeval2010"):
        plain = json.loads((work / f"{dataset}-openvino-fp32" / "metrics.json").read_text(encoding="utf-8"))
        tied = ensure_run(work, dataset, "openvino-fp32", data_dir, corpus, margin)
        with_margin = json.loads((tied / "metrics.json").read_text(encoding="utf-8"))
        cost[dataset] = {
            "no_margin": plain["overall"],
            "margin": with_margin["overall"],
            "mean_k": [
                float(np.mean([v for v in chosen_k(k_scores(folder), rule).values() if v is not None]))
                for folder, rule in ((work / f"{dataset}-openvino-fp32", 0.0), (tied, margin))
            ],
        }
    results["cost"] = cost
    return results


def _changes(row: dict[str, Any], margin: str) -> str:
    listed = row["k_differs"][margin]
    words = ", ".join(f"{d['target']} ({d['k'][0]} vs {d['k'][1]})" for d in listed)
    return f"{len(listed)}" + (f": {words}" if words else "")


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    margin = results["margin"]
    shown = f"{margin:g}"
    configs = results.get("configs", list(DEFAULT_CONFIGS))
    reference = _name(results.get("reference", "openvino-fp32"))
    chosen_here = bool(results["cost"])
    lines = [
        "# The number of senses against float rounding (issue 24, item 6)",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}",
        f"- Date: {results['date']}",
    ]
    if chosen_here:
        lines += [
            "- The default recipe (Ward, silhouette over k = 2..7) on each set with three forward passes. PyTorch "
            "bf16 is the old default on a CPU with native bf16 (emulated here where the CPU lacks it: the same "
            "rounding); OpenVINO fp32 is the new default on a CPU without it.",
            f"- The margin is chosen on {TUNING_SET} only (the smallest of {', '.join(f'{m:g}' for m in MARGINS)} "
            "at least twice the 99th percentile of the silhouette change between PyTorch bf16 and OpenVINO there); "
            "the other sets are held out.",
            "",
        ]
    else:
        lines += [
            "- The default recipe (Ward, silhouette over k = 2..7) on each set with the forward passes "
            f"{', '.join(_name(c) for c in configs)}; {reference} is the default on this machine. The margin "
            f"shown, {shown}, is the one chosen on {TUNING_SET} in k_stability.md (not chosen again here).",
            "",
        ]
    lines += [
        "## How far rounding moves a silhouette, and on how many words k differs",
        "",
        f"| set | runs compared | words | silhouette change: median | 99th pct | largest | k differs, no margin | "
        f"k differs, margin {shown} |",
        "|---|---|---:|---:|---:|---:|---|---|",
    ]
    for dataset, figures in results["sets"].items():
        role = "" if not chosen_here else " (margin chosen here)" if dataset == TUNING_SET else " (held out)"
        for pair, row in figures["pairs"].items():
            change = row["silhouette_change"]
            lines.append(
                f"| {dataset}{role} | {pair} | {row['targets']} | {change['median']:.5f} | {change['p99']:.5f} | "
                f"{change['max']:.5f} | {_changes(row, '0')} | {_changes(row, shown)} |"
            )
    lines += [
        "",
    ]
    if chosen_here:
        p99 = results["sets"][TUNING_SET]["pairs"][results["rounding_pair"]]["silhouette_change"]["p99"]
        lines += [f"Chosen margin: **{shown}** (twice the 99th percentile on {TUNING_SET}: {2 * p99:.5f}).", ""]
    first, second = results["rounding_pair"].split(" vs ")
    lines += [
        f"Words whose k differs between {_name(first)} and {_name(second)}, for every margin tried:",
        "",
        "| set | " + " | ".join(f"margin {m:g}" for m in MARGINS) + " |",
        "|---|" + "---:|" * len(MARGINS),
    ]
    for dataset, figures in results["sets"].items():
        row = figures["pairs"][results["rounding_pair"]]
        lines.append(f"| {dataset} | " + " | ".join(str(len(row["k_differs"][f"{m:g}"])) for m in MARGINS) + " |")
    lines += [
        "",
        f"What each margin does to the number of senses ({reference}): mean k, and the share of words given k = 2",
        "",
        "| set | " + " | ".join(f"margin {m:g}" for m in MARGINS) + " |",
        "|---|" + "---:|" * len(MARGINS),
    ]
    for dataset, figures in results["sets"].items():
        cells = [f"{figures['mean_k'][f'{m:g}']:.2f} ({100 * figures['k_two'][f'{m:g}']:.0f}%)" for m in MARGINS]
        lines.append(f"| {dataset} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"How close the best two candidates are ({reference}): share of words whose top two silhouettes lie within",
        "",
        "| set | words | 0.002 | 0.005 | 0.01 |",
        "|---|---:|---:|---:|---:|",
    ]
    for dataset, figures in results["sets"].items():
        g = figures["gaps"]
        lines.append(
            f"| {dataset} | {g['targets']} | {100 * g['within_0.002']:.0f}% | {100 * g['within_0.005']:.0f}% | "
            f"{100 * g['within_0.01']:.0f}% |"
        )
    if not chosen_here:
        lines.append("")
        return "\n".join(lines)
    lines += [
        "",
        "## What the margin costs",
        "",
        f"`wsd evaluate` with the default recipe, OpenVINO fp32, one seed (Ward is deterministic), no margin against "
        f"margin {shown}; scores in percent.",
        "",
        "| dataset | metric | no margin | margin | difference |",
        "|---|---|---:|---:|---:|",
    ]
    for dataset, figures in results["cost"].items():
        for metric in BENCHMARKS[dataset].columns:
            before, after = 100 * figures["no_margin"][metric], 100 * figures["margin"][metric]
            lines.append(f"| {dataset} | {metric} | {before:.2f} | {after:.2f} | {after - before:+.2f} |")
        lines.append(
            f"| {dataset} | mean k | {figures['mean_k'][0]:.2f} | {figures['mean_k'][1]:.2f} | "
            f"{figures['mean_k'][1] - figures['mean_k'][0]:+.2f} |"
        )
    lines.append("")
    return "\n".join(lines)


def _name(config: str) -> str:
    """A forward pass as the page names it: ``openvino-fp32`` → ``OpenVINO fp32``."""
    runtime, precision = CONFIGS[config]
    return f"{'OpenVINO' if runtime == 'openvino' else 'PyTorch'} {precision}"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.k_stability", description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("out/experiments-k-stability"), help="the runs")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the State of the Union corpus")
    parser.add_argument("--out", type=Path, default=results_dir("k_stability"))
    parser.add_argument(
        "--configs",
        default=",".join(DEFAULT_CONFIGS),
        help=f"forward passes compared, the first the reference: {', '.join(CONFIGS)}",
    )
    parser.add_argument("--margin", type=float, default=None, help="with other --configs: the margin shown")
    parser.add_argument("--name", default="k_stability", help="results file name (without suffix)")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    configs = tuple(args.configs.split(","))
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown or len(configs) < 2:
        parser.error(f"--configs: at least two of {', '.join(CONFIGS)}, not {args.configs!r}")
    json_file, md_file = args.out / f"{args.name}.json", args.out / f"{args.name}.md"
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    from wsd import machine

    args.work.mkdir(parents=True, exist_ok=True)
    results = run(args.work, args.data_dir, args.corpus, configs, args.margin)
    results |= {"command": command_line(), "machine": machine.describe(), "date": time.strftime("%Y-%m-%d")}
    json_file.write_text(json.dumps(results, indent=1, default=float), encoding="utf-8")
    md_file.write_text(markdown(results), encoding="utf-8")
    log(f"wrote {md_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
