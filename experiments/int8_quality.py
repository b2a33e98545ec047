"""What int8 costs in quality: OpenVINO int8 (NNCF) and PyTorch dynamic int8 against OpenVINO fp32, bundled MiniLM.

Run from the repository root::

    python -m experiments.int8_quality [--datasets semeval2013,semeval2010,dwug_en] \\
        [--configs openvino-int8,openvino-int8-ffn-float] [--seeds 1] [--targets T1,T2] [--data-dir DIR] [--add] \\
        [--markdown-only]

For each dataset the whole evaluation runs once per configuration through the repository's evaluate path
(:func:`wsd.evaluate_dataset`, default recipe, the same seeds), each into its own output folder: ``openvino fp32``
(the reference), ``openvino int8`` (the converted model quantised with NNCF on the bundled demo's sentences,
:mod:`wsd.embed.ov_int8`), ``openvino int8, FFN output in float`` (the same with the six matrix products after
the GELU left in float: ``--configs openvino-int8-ffn-float``) and ``torch int8`` (PyTorch's dynamic quantisation
of the linear layers, ``--runtime torch --precision int8``, which wsd dropped after this comparison: its rows
were measured before and stay in the JSON, and cannot be run again). Vectors come from the vector cache where it holds
them (``$WSD_CACHE_DIR``; its key names the precision, runtime and quantisation). It reports, against the
reference:

- the cosine per occurrence of the stored vectors (min, 5th percentile, median; the share below 0.99, the
  calibration's agreement floor);
- k: the share of targets whose number of induced senses is the reference's, and the mean number; ARI between
  the induced senses and the reference's (per target, seed 0's sense model, mean over targets);
- the official scores: SemEval-2013 AVG (FNMI, FBC-F), SemEval-2010 AVG (paired F, V-measure), and on DWUG EN the
  Spearman ρ of the default change score (``graded_spearman``; APD, PRT and JSD beside it);
- the gate of issue 42: int8 joins ``auto``'s candidates only where SemEval-2013 and SemEval-2010 AVG stay within
  :data:`AVG_TOLERANCE` points and DWUG EN ρ within :data:`RHO_TOLERANCE` of fp32.

Results: ``experiments/results/int8_quality/<name>.md`` / ``.json`` (``--add`` merges new datasets or
configurations into the JSON; ``--markdown-only`` rewrites the Markdown from it).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, header_lines, log, results_dir

#: Configuration name -> (runtime, precision, operations NNCF leaves in float).
CONFIGS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "openvino-fp32": ("openvino", "fp32", ()),
    "openvino-int8": ("openvino", "int8", ()),
    "openvino-int8-ffn-float": ("openvino", "int8", (r".*layer\.\d+\.output\.dense.*",)),
}
#: Configurations measured before wsd dropped them: their rows stay in the JSON, in this order after the others.
DROPPED = ("torch-int8",)
REFERENCE = "openvino-fp32"
#: Dataset name -> (``evaluate_dataset`` dataset, data folder under the datasets folder or None, its headline metric).
DATASETS: dict[str, tuple[str, str | None, str]] = {
    "semeval2013": ("semeval2013", None, "avg"),
    "semeval2010": ("semeval2010", None, "avg"),
    "dwug_en": ("wug", "lscd/dwug_en", "graded_spearman"),
}
#: The scores shown per dataset (fractions; AVG-like ones shown in percent).
SHOWN: dict[str, tuple[str, ...]] = {
    "semeval2013": ("fnmi", "fbc_f", "avg"),
    "semeval2010": ("paired_f", "v_measure", "avg"),
    "dwug_en": ("graded_spearman", "graded_spearman_apd", "graded_spearman_prt", "graded_spearman_jsd", "ari"),
}
#: The gate of issue 42: AVG within this many points (percent) of fp32 on SemEval-2013 and SemEval-2010 ...
AVG_TOLERANCE = 0.3
#: ... and DWUG EN ρ within this much.
RHO_TOLERANCE = 0.01
#: The calibration's agreement floor (``wsd.embed.calibration.MIN_COSINE``), as a share of occurrences below it.
COSINE_FLOOR = 0.99


def evaluate(
    dataset: str, config: str, data_dir: Path, seeds: int, folder: Path, targets: Sequence[str] | None = None
) -> dict[str, Any]:
    """One evaluation through :func:`wsd.evaluate_dataset`: its metrics, embedding meta, vectors and sense labels."""
    import pandas as pd

    import wsd
    from wsd.embed import ov_int8
    from wsd.io.layout import META_FILE, RUN_DIR, VECTORS_FILE

    kind, sub, _ = DATASETS[dataset]
    runtime, precision, floating = CONFIGS[config]
    out = folder / f"{dataset}-{config}"
    where = {"data": str(data_dir / sub)} if sub else {"data_dir": str(data_dir)}
    before = dict(ov_int8.QUANTISATION)
    ov_int8.QUANTISATION["float_nodes"] = list(floating)  # part of the quantisation's cache key
    try:
        clock = time.perf_counter()
        result = wsd.evaluate_dataset(
            kind,
            **where,
            out=str(out),
            runtime=runtime,
            precision=precision,
            seeds=seeds,
            targets=targets,
            progress=False,
        )
        seconds = time.perf_counter() - clock
    finally:
        ov_int8.QUANTISATION.clear()
        ov_int8.QUANTISATION.update(before)
    meta = json.loads((out / RUN_DIR / META_FILE).read_text(encoding="utf-8"))
    labels = pd.read_parquet(out / "senses" / "labels.parquet", columns=["id", "target", "sense"])
    ids = pd.read_parquet(out / RUN_DIR / "occurrences.parquet", columns=["id"])["id"].astype(str).to_numpy()
    return {
        "overall": result.metrics["overall"],
        "overall_std": result.metrics.get("overall_std", {}),
        "embedding": meta["embedding"],
        "seconds": round(seconds, 1),
        "vectors": np.asarray(np.load(out / RUN_DIR / VECTORS_FILE, mmap_mode="r"), dtype=np.float32),
        "ids": ids,
        "labels": labels.assign(id=labels["id"].astype(str)),
    }


def cosines(vectors: np.ndarray, reference: np.ndarray) -> dict[str, float]:
    """The cosine per occurrence between two vector matrices, summarised."""
    from wsd.embed.calibration import row_cosines

    values = row_cosines(vectors, reference)
    return {
        "rows": len(values),
        "min": float(values.min()),
        "p5": float(np.percentile(values, 5)),
        "median": float(np.median(values)),
        "below_floor": float((values < COSINE_FLOOR).mean()),
    }


def senses_agreement(labels: Any, reference: Any) -> dict[str, float]:
    """k and ARI of one configuration's induced senses against the reference's (per target, then the mean)."""
    from wsd.evaluate.metrics.clustering import adjusted_rand

    joined = labels.merge(reference, on=["id", "target"], suffixes=("", "_ref"))
    same_k, k, k_ref, aris = [], [], [], []
    for _, group in joined.groupby("target", sort=True):
        ours, theirs = group["sense"].astype(str).tolist(), group["sense_ref"].astype(str).tolist()
        k.append(len(set(ours)))
        k_ref.append(len(set(theirs)))
        same_k.append(k[-1] == k_ref[-1])
        aris.append(adjusted_rand(theirs, ours))
    return {
        "targets": len(k),
        "same_k": float(np.mean(same_k)),
        "mean_k": float(np.mean(k)),
        "mean_k_reference": float(np.mean(k_ref)),
        "ari_vs_reference": float(np.mean(aris)),
    }


def run(
    datasets: Sequence[str], configs: Sequence[str], data_dir: Path, seeds: int, targets: Sequence[str] | None = None
) -> dict[str, Any]:
    """Every configuration on every dataset, compared with the reference."""
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="wsd-int8-") as tmp:
        for dataset in datasets:
            runs = {}
            for config in [REFERENCE, *(c for c in configs if c != REFERENCE)]:
                log(f"{dataset}: {config}")
                runs[config] = evaluate(dataset, config, data_dir, seeds, Path(tmp), targets)
                log(f"{dataset}: {config} done in {runs[config]['seconds']:.0f} s")
            reference = runs[REFERENCE]
            found[dataset] = {}
            for config, result in runs.items():
                if not np.array_equal(result["ids"], reference["ids"]):
                    raise SystemExit(f"{dataset}: {config} embedded other occurrences than {REFERENCE}")
                found[dataset][config] = {
                    "overall": result["overall"],
                    "overall_std": result["overall_std"],
                    "embedding": result["embedding"],
                    "seconds": result["seconds"],
                    "cosine": cosines(result["vectors"], reference["vectors"]),
                    "senses": senses_agreement(result["labels"], reference["labels"][["id", "target", "sense"]]),
                }
    return found


def gate(datasets: dict[str, Any], config: str) -> dict[str, Any]:
    """Whether ``config`` passes issue 42's gate, with each check's difference (None where not measured)."""
    checks: dict[str, Any] = {}
    for dataset, metric, tolerance, scale in (
        ("semeval2013", "avg", AVG_TOLERANCE, 100.0),
        ("semeval2010", "avg", AVG_TOLERANCE, 100.0),
        ("dwug_en", "graded_spearman", RHO_TOLERANCE, 1.0),
    ):
        results = datasets.get(dataset, {})
        if config not in results or REFERENCE not in results:
            checks[dataset] = None
            continue
        difference = scale * (results[config]["overall"][metric] - results[REFERENCE]["overall"][metric])
        checks[dataset] = {"metric": metric, "difference": difference, "tolerance": tolerance,
                           "holds": abs(difference) <= tolerance}  # fmt: skip
    measured = [check for check in checks.values() if check is not None]
    complete = len(measured) == len(checks)
    return {"checks": checks, "complete": complete, "passes": complete and all(c["holds"] for c in measured)}


def _cell(value: float, percent: bool) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{100 * value:.2f}" if percent else f"{value:.3f}"


def markdown(report: dict[str, Any]) -> str:
    """The results file's text."""
    datasets = report["datasets"]
    order = [*CONFIGS, *DROPPED]
    configs = [REFERENCE, *sorted({c for d in datasets.values() for c in d if c != REFERENCE}, key=order.index)]
    lines = ["# What int8 costs in quality: OpenVINO int8 (NNCF) and PyTorch dynamic int8 against OpenVINO fp32", ""]
    lines += header_lines(report["command"], report["seeds"], report.get("encoder"), report.get("extra", ()),
                          seeds_note="mean over seeds; SemEval scores in percent, ρ and ARI as fractions")  # fmt: skip
    lines += ["", "## The gate (issue 42)", ""]
    lines += [
        f"int8 becomes a candidate of `auto` only where SemEval-2013 and SemEval-2010 AVG stay within "
        f"{AVG_TOLERANCE} points and DWUG EN ρ (the default change score) within {RHO_TOLERANCE} of fp32.",
        "",
        "| configuration | SemEval-2013 AVG − fp32 | SemEval-2010 AVG − fp32 | DWUG EN ρ − fp32 | gate |",
        "|---|---:|---:|---:|---|",
    ]
    for config in configs[1:]:
        verdict = report["gates"][config]
        cells = []
        for dataset in ("semeval2013", "semeval2010", "dwug_en"):
            check = verdict["checks"][dataset]
            digits = 2 if dataset != "dwug_en" else 3
            cells.append("not measured" if check is None else f"{check['difference']:+.{digits}f}")
        outcome = "passes" if verdict["passes"] else ("fails" if verdict["complete"] else "incomplete")
        lines.append(f"| {config} | {' | '.join(cells)} | {outcome} |")
    passing = [config for config in configs[1:] if report["gates"][config]["passes"]]
    lines += [
        "",
        f"Passing: {', '.join(passing)}."
        if passing
        else "Passing: none, so int8 is no candidate of `auto` "
        "(`wsd.embed.calibration.OPENVINO_INT8_EXCLUDED`); it is used where asked for by name.",
    ]
    for dataset, results in datasets.items():
        shown = SHOWN[dataset]
        lines += ["", f"## {dataset}", ""]
        header = ["configuration", *shown, "cosine min", "cosine 5%", "cosine median", "< 0.99", "same k",
                  "mean k", "ARI vs fp32"]  # fmt: skip
        lines += ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
        for config in configs:
            if config not in results:
                continue
            row = results[config]
            cos, senses = row["cosine"], row["senses"]
            scores = [_cell(row["overall"].get(m, math.nan), percent=dataset != "dwug_en" or m == "ari") for m in shown]
            lines.append(
                f"| {config} | {' | '.join(scores)} | {cos['min']:.4f} | {cos['p5']:.4f} | {cos['median']:.4f} | "
                f"{100 * cos['below_floor']:.1f}% | {100 * senses['same_k']:.0f}% | {senses['mean_k']:.2f} | "
                f"{senses['ari_vs_reference']:.3f} |"
            )
    lines += ["", "Columns: the scores (mean over seeds) as `wsd evaluate` gives them; *cosine*: per occurrence, "
              "the stored vectors (float16) against fp32's; *< 0.99*: the share of occurrences below the calibration's "
              "agreement floor; *same k*: the share of targets with fp32's number of induced senses (seed 0's sense "
              "model); *ARI vs fp32*: the induced senses against fp32's, per target, mean over targets. The JSON also "
              "holds each evaluation's wall time (`seconds`: on a shared machine, vectors read from the cache where "
              "it held them; not a timing figure)."]  # fmt: skip
    keys = {config: row["embedding"].get("quantisation") for results in datasets.values() for config, row in
            results.items() if row["embedding"].get("quantisation")}  # fmt: skip
    if keys:
        lines += ["", "Quantisations (the `quantisation` of each run's `meta.json`): "
                  + "; ".join(f"{config} `{key}`" for config, key in sorted(keys.items())) + "."]  # fmt: skip
    if report.get("notes"):
        lines += ["", *report["notes"]]
    return "\n".join(lines) + "\n"


def versions() -> str:
    """The versions of the runtimes and of NNCF (from the package metadata)."""
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for package in ("openvino", "nncf", "torch"):
        try:
            found.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            found.append(f"{package} not installed")
    return ", ".join(found)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run (or re-render) the comparison, write the results."""
    from wsd.embed import ov_int8

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated, of: " + ", ".join(DATASETS))
    parser.add_argument("--configs", default="openvino-int8", help="comma-separated, of: " + ", ".join(CONFIGS))
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("WSD_DATASETS", DEFAULT_DATA_DIR)))
    parser.add_argument(
        "--seeds", type=int, default=1, help="the default recipe (Ward) is deterministic: one is enough"
    )
    parser.add_argument("--targets", help="comma-separated targets (a subset; with one dataset)")
    parser.add_argument("--name", default="int8_quality", help="results file name (without suffix)")
    parser.add_argument("--add", action="store_true", help="merge into the JSON of an earlier run")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    folder = results_dir("int8_quality")
    path = folder / f"{args.name}.json"
    report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if (args.add or args.markdown_only) else {}
    if not args.markdown_only:
        datasets = [d.strip() for d in args.datasets.split(",") if d.strip()]
        configs = [c.strip() for c in args.configs.split(",") if c.strip()]
        unknown = sorted(set(datasets) - set(DATASETS)) + sorted(set(configs) - set(CONFIGS))
        if set(configs) & set(DROPPED):
            parser.error(f"{', '.join(sorted(set(configs) & set(DROPPED)))}: dropped from wsd, measured before")
        if unknown:
            parser.error(f"unknown dataset or configuration: {', '.join(unknown)}")
        targets = [t.strip() for t in args.targets.split(",")] if args.targets else None
        found = run(datasets, configs, args.data_dir, args.seeds, targets)
        commands = [*report.get("commands", []), command_line()]
        merged = report.get("datasets", {})
        for dataset, results in found.items():
            merged[dataset] = {**merged.get(dataset, {}), **results}
        report |= {"command": "; then ".join(commands), "commands": commands, "seeds": args.seeds, "datasets": merged}
        report["encoder"] = next(iter(found.values()))[REFERENCE]["embedding"] if found else report.get("encoder")
        report["extra"] = [
            f"- Datasets from {args.data_dir}; default recipe; reference `{REFERENCE}`",
            f"- {versions()}; int8 quantised on {ov_int8.CALIBRATION_WINDOWS} windows of the bundled demo",
        ]
    every = {c for results in report["datasets"].values() for c in results if c != REFERENCE}
    report["gates"] = {config: gate(report["datasets"], config) for config in sorted(every)}
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (folder / f"{args.name}.md").write_text(markdown(report), encoding="utf-8")
    log(f"wrote {folder / args.name}.md and .json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
