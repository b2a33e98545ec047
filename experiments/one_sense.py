"""Does "one sense" pay in the default recipe? And the default recipe on DWUG EN beside its baselines.

Run from the repository root::

    python -m experiments.one_sense [--work DIR] [--data-dir DIR] [--markdown-only]

1. **One sense below a threshold.** ``--one-sense-below T`` lets the choice of k answer one sense when no
   candidate k's silhouette reaches ``T``. ``wsd evaluate`` of SemEval-2013 and SemEval-2010 with the default
   recipe (one seed) for each ``T`` of :data:`THRESHOLDS` (none first), beside the default: the official AVG,
   SemEval-2013 by half (``dev``: the words at even alphabetical positions, which the default recipe was
   chosen on; ``test``: the others), and how many words got one sense. Nothing is chosen here: the thresholds
   were fixed before any figure, and the page reports every one.
2. **The default recipe on DWUG EN.** ``wsd evaluate --dataset wug`` of DWUG EN (46 words) with the default
   model and recipe, one seed, beside the trivial baselines ``wsd evaluate`` scores with it: ARI and NMI against
   the gold clusters, Spearman ρ of each change score against ``change_graded``, and binary accuracy and F1.
   Nothing was tuned on DWUG EN.

Every run's vectors come from wsd's vector cache after the first, so the thresholds cost a clustering each.
Results: ``experiments/results/one_sense/one_sense.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, run_wsd, save_page

#: The thresholds of ``--one-sense-below`` (silhouette units; None: the default, no threshold). Fixed before
#: any figure.
THRESHOLDS: tuple[float | None, ...] = (None, 0.02, 0.03, 0.04, 0.06, 0.08)
SETS = ("semeval2013", "semeval2010")
DWUG = "lscd/dwug_en"
#: The metrics of the DWUG EN table, in order (those missing from a run are left out).
WUG_ROWS = (
    "ari",
    "nmi",
    "graded_spearman",
    "graded_spearman_jsd",
    "graded_spearman_apd",
    "graded_spearman_prt",
    "binary_accuracy",
    "binary_f1",
)
BASELINES = ("one-sense", "one-per-instance", "random")


def evaluation(work: Path, name: str, args: list[str]) -> dict[str, Any]:
    """``wsd evaluate ARGS --out WORK/NAME`` (run when its metrics are missing) and its ``metrics.json``."""
    out = work / name
    if not (out / "metrics.json").is_file():
        log(f"{name}: {run_wsd(['evaluate', *args, '--out', str(out), '--overwrite']):.0f} s")
    return json.loads((out / "metrics.json").read_text(encoding="utf-8"))


def senses_per_word(key: Path) -> dict[str, int]:
    """How many distinct sense labels each target has in a system key (``target instance label[/weight] ...``)."""
    labels: dict[str, set[str]] = {}
    for line in key.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) >= 3:
            labels.setdefault(fields[0], set()).update(field.split("/")[0] for field in fields[2:])
    return {target: len(found) for target, found in labels.items()}


def threshold_name(threshold: float | None) -> str:
    """The run folder's suffix of a threshold."""
    return "default" if threshold is None else f"below{threshold:g}"


def run(work: Path, data_dir: Path) -> dict[str, Any]:
    """Every evaluation of the experiment (see the module docstring), as plain figures."""
    from experiments.ablate import semeval2013_halves

    sweep: dict[str, list[dict[str, Any]]] = {}
    for dataset in SETS:
        rows = []
        for threshold in THRESHOLDS:
            name = f"{dataset}-{threshold_name(threshold)}"
            flags = [] if threshold is None else ["--one-sense-below", str(threshold)]
            metrics = evaluation(work, name, ["--dataset", dataset, "--data-dir", str(data_dir), *flags])
            counts = senses_per_word(work / name / "system.seed0.key")
            row = {
                "threshold": threshold,
                "avg": metrics["overall"]["avg"],
                "words": len(counts),
                "one_sense_words": sum(1 for n in counts.values() if n == 1),
                "embedding": metrics["embedding"],
            }
            if dataset == "semeval2013":
                row["halves"] = {half: s["avg"] for half, s in semeval2013_halves(metrics["per_target"]).items()}
            rows.append(row)
        sweep[dataset] = rows
    metrics = evaluation(work, "dwug_en-default", ["--dataset", "wug", "--data", str(data_dir / DWUG)])
    return {
        "sweep": sweep,
        "dwug_en": {
            "overall": metrics["overall"],
            "baselines": metrics.get("baselines", {}),
            "n_instances": metrics.get("n_instances"),
            "n_targets": metrics.get("n_targets"),
            "embedding": metrics["embedding"],
        },
    }


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.2f}"


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    first = results["sweep"][SETS[0]][0]["embedding"]
    lines = [
        "# One sense in the default recipe, and the default recipe on DWUG EN",
        "",
        f"- Command: `{results['command']}`",
        f"- Date: {results['date']}; machine: {results['machine']}",
        f"- Encoder: {first['model']} ({first['runtime']}, {first['precision']}); default recipe; one seed "
        "(scores in percent)",
        "",
        "## One sense below a silhouette threshold",
        "",
        "`wsd evaluate --one-sense-below T`: a word gets one sense when no candidate k's silhouette reaches T. "
        "AVG is the official score; SemEval-2013 is also split by half (`dev`: the words the default recipe was "
        "chosen on; `test`: held out).",
        "",
        "| dataset | T | AVG | AVG − default | AVG dev half | AVG test half | words with one sense |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for dataset, rows in results["sweep"].items():
        default = rows[0]["avg"]
        for row in rows:
            halves = row.get("halves", {})
            threshold = "none (default)" if row["threshold"] is None else f"{row['threshold']:g}"
            lines.append(
                f"| {dataset} | {threshold} | {_pct(row['avg'])} | {100 * (row['avg'] - default):+.2f} | "
                f"{_pct(halves.get('dev'))} | "
                f"{_pct(halves.get('test'))} | {row['one_sense_words']} of {row['words']} |"
            )
    dwug = results["dwug_en"]
    lines += [
        "",
        "## The default recipe on DWUG EN, beside the baselines",
        "",
        f"`wsd evaluate --dataset wug --data ../shared/datasets/{DWUG}` ({dwug['n_targets']} words, "
        f"{dwug['n_instances']} uses): ARI and NMI against the gold clusters, Spearman ρ of the change scores "
        "against `change_graded` (`graded_spearman` is the default score, PRT), binary accuracy and F1 against "
        "`change_binary`. The baselines have no vectors: their change score is the JSD of their senses.",
        "",
        "| score | wsd | " + " | ".join(BASELINES) + " |",
        "|---|---:|" + "---:|" * len(BASELINES),
    ]
    for metric in WUG_ROWS:
        if metric not in dwug["overall"]:
            continue
        cells = [_pct(dwug["baselines"].get(b, {}).get(metric)) for b in BASELINES]
        lines.append(f"| {metric} | {_pct(dwug['overall'][metric])} | " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.one_sense", description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("out/experiments-one-sense"), help="the evaluations")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--out", type=Path, default=results_dir("one_sense"))
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    json_file, md_file = args.out / "one_sense.json", args.out / "one_sense.md"
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    from wsd import machine

    results = run(args.work, args.data_dir)
    results |= {"command": command_line(), "machine": machine.describe(), "date": time.strftime("%Y-%m-%d")}
    save_page(results, json_file, md_file, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
