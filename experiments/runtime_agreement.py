"""Do the two runtimes of the forward pass give the same scores? ``wsd evaluate`` with ``--runtime torch`` and
``--runtime openvino`` side by side, default recipe, fresh vector caches.

For each dataset it runs the whole evaluation twice in this process (``wsd.cli.main``, exactly as a user types
it), each into its own output folder with an empty vector cache, and writes the overall metrics of both, their
differences, and how close the stored vectors are (cosine per occurrence, and the share of stored values that
differ at all). The precision is the one ``--precision`` resolves to on this machine (``auto``: bf16 where the
CPU has native bf16, else fp32), named in the results with the machine line.

    python -m experiments.runtime_agreement --name runtime-fp32     # on a CPU without native bf16

It writes ``experiments/results/runtime_agreement/<name>.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, header_lines, log, results_dir
from wsd.io.layout import META_FILE, METRICS_FILE, RUN_DIR, VECTORS_FILE

RUNTIMES = ("torch", "openvino")


def evaluate(dataset: str, data_dir: Path, runtime: str, seeds: int, precision: str, folder: Path) -> dict[str, Any]:
    """Run ``wsd evaluate`` for one runtime into ``folder``; its overall metrics, embedding meta and vectors."""
    from wsd.cli import main

    out, cache = folder / f"{dataset}-{runtime}", folder / f"cache-{dataset}-{runtime}"
    arguments = ["evaluate", "--dataset", dataset, "--data-dir", str(data_dir), "--seeds", str(seeds)]
    arguments += ["--runtime", runtime, "--precision", precision, "--cache-dir", str(cache), "--out", str(out)]
    code = main([*arguments, "--no-progress"])
    if code != 0:
        raise SystemExit(f"wsd {' '.join(arguments)} exited with {code}")
    metrics = json.loads((out / METRICS_FILE).read_text(encoding="utf-8"))
    meta = json.loads((out / RUN_DIR / META_FILE).read_text(encoding="utf-8"))
    vectors = np.load(out / RUN_DIR / VECTORS_FILE, mmap_mode="r")
    return {"overall": metrics["overall"], "embedding": meta["embedding"], "vectors": vectors}


def agreement(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """Cosine per row (min, mean) and the share of stored values that differ between two vector matrices."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise SystemExit(f"the two runs stored different shapes: {x.shape} and {y.shape}")
    norms = np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1)
    cosine = (x * y).sum(axis=1) / np.where(norms > 0, norms, 1.0)
    return {
        "rows": int(x.shape[0]),
        "cosine_min": float(cosine.min()),
        "cosine_mean": float(cosine.mean()),
        "values_differing": float((np.asarray(a) != np.asarray(b)).mean()),
    }


def markdown(report: dict[str, Any]) -> str:
    """The results file's text."""
    lines = ["# The forward pass's two runtimes, side by side: `wsd evaluate` scores and stored vectors", ""]
    lines += header_lines(report["command"], report["seeds"], None, report["extra"])
    for dataset, result in report["datasets"].items():
        torch_scores, ov_scores = result["torch"]["overall"], result["openvino"]["overall"]
        lines += ["", f"## {dataset}", ""]
        lines += ["| metric | torch | openvino | openvino − torch |", "|---|---:|---:|---:|"]
        for metric in torch_scores:
            a, b = torch_scores[metric], ov_scores[metric]
            scale = 1 if metric.startswith("n_") else 100  # counts as they are, scores in percent
            lines.append(f"| {metric} | {scale * a:.2f} | {scale * b:.2f} | {scale * (b - a):+.2e} |")
        close = result["vectors"]
        lines += [
            "",
            f"Precision: torch {result['torch']['precision']}, openvino {result['openvino']['precision']}. "
            f"Stored vectors ({close['rows']} rows, float16): cosine min {close['cosine_min']:.7f}, mean "
            f"{close['cosine_mean']:.7f}; {100 * close['values_differing']:.2f}% of the stored values differ.",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Parse the options, run both runtimes on each dataset, write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="semeval2013,semeval2010", help="comma-separated")
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("WSD_DATASETS", DEFAULT_DATA_DIR)))
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--precision", default="auto", help="as wsd evaluate --precision (auto, fp32, bf16)")
    parser.add_argument("--name", default="runtime-agreement", help="results file name (without suffix)")
    args = parser.parse_args()
    report: dict[str, Any] = {"command": command_line(), "seeds": args.seeds, "datasets": {}}
    with tempfile.TemporaryDirectory(prefix="wsd-runtimes-") as tmp:
        for dataset in [d.strip() for d in args.datasets.split(",") if d.strip()]:
            runs = {}
            for runtime in RUNTIMES:
                log(f"{dataset}: wsd evaluate --runtime {runtime}")
                runs[runtime] = evaluate(dataset, args.data_dir, runtime, args.seeds, args.precision, Path(tmp))
            report["datasets"][dataset] = {
                runtime: {"overall": run["overall"], "precision": run["embedding"].get("precision")}
                for runtime, run in runs.items()
            } | {"vectors": agreement(runs["torch"]["vectors"], runs["openvino"]["vectors"])}
    report["extra"] = [f"- Datasets from {args.data_dir}; `--precision {args.precision}`; default recipe"]
    folder = results_dir("runtime_agreement")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{args.name}.md").write_text(markdown(report), encoding="utf-8")
    (folder / f"{args.name}.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    log(f"wrote {folder / args.name}.md and .json")


if __name__ == "__main__":
    main()
