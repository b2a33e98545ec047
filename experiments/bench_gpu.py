"""Embedding on a GPU: device placement and precision without flags, speed per precision, agreement with CPU fp32.

Runs ``wsd.embed_corpus`` with default settings (device auto → CUDA, precision auto, pinned host memory for the
transfers) and with each explicit ``--precision`` on a corpus made of the bundled demo sentences (each copy made
unique), then compares the vectors with a CPU fp32 computation of the same model. Writes a Markdown table.

    python -m experiments.bench_gpu --model PATH --lines 20000 --results experiments/results/bench_gpu/bench_gpu.md
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

import wsd
from wsd.corpus.targets import read_forms_file

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "data" / "demo"


def build_corpus(lines: int, folder: Path) -> Path:
    """``lines`` demo sentences, repeated with a distinct suffix per copy (no two lines identical)."""
    sentences = (DEMO / "corpus.txt").read_text(encoding="utf-8").splitlines()
    path = folder / "corpus.txt"
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(lines):
            copy, index = divmod(i, len(sentences))
            handle.write(sentences[index] + (f" ({copy})" if copy else "") + "\n")
    return path


def synchronize() -> None:
    """Wait for queued GPU work (no-op without a GPU)."""
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=None, help="model folder (default: the bundled MiniLM)")
    parser.add_argument("--lines", type=int, default=20000)
    parser.add_argument("--batch-sizes", default="64,256")
    parser.add_argument("--results", type=Path, default=HERE / "results" / "bench_gpu" / "bench_gpu.md")
    parser.add_argument("--dry-run-on-cpu", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not torch.cuda.is_available() and not args.dry_run_on_cpu:
        raise SystemExit("no CUDA GPU here; this benchmark is for GPU machines")
    forms = DEMO / "forms.tsv"
    targets = list(read_forms_file(forms))
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        corpus = build_corpus(args.lines, folder)
        default = wsd.Encoder(model=args.model)
        checks = {
            "device (default)": str(default.loaded.device),
            "precision (auto)": default.loaded.precision,
            "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU (dry run)",
            "torch": torch.__version__,
        }
        reference = None
        precisions = ("auto", "fp32", "bf16", "fp16") if torch.cuda.is_available() else ("auto", "fp32")
        for precision in precisions:
            for batch_size in [int(b) for b in args.batch_sizes.split(",")]:
                encoder = wsd.Encoder(model=args.model, precision=precision, batch_size=batch_size)
                warm = folder / "warm"
                wsd.embed_corpus(
                    DEMO / "corpus.txt", targets, warm, forms=forms, encoder=encoder, progress=False, overwrite=True
                )
                synchronize()
                started = time.perf_counter()
                run = wsd.embed_corpus(
                    corpus,
                    targets,
                    folder / f"run-{precision}-{batch_size}",
                    forms=forms,
                    encoder=encoder,
                    progress=False,
                )
                synchronize()
                seconds = time.perf_counter() - started
                occurrences, vectors = wsd.load_run(run)
                if reference is None:
                    cpu = wsd.Encoder(model=args.model, precision="fp32", device="cpu")
                    sample = occurrences.iloc[:2000]
                    reference = cpu.embed_occurrences(sample)
                got = np.asarray(vectors[: len(reference)], dtype=np.float32)
                cosine = (got * reference).sum(1) / np.linalg.norm(got, axis=1) / np.linalg.norm(reference, axis=1)
                meta = json.loads((run / "meta.json").read_text())
                rows.append(
                    (
                        precision,
                        encoder.loaded.precision,
                        batch_size,
                        len(occurrences),
                        seconds,
                        float(cosine.min()),
                        meta["timings"],
                    )
                )
    lines = [
        "# Embedding on a GPU",
        "",
        f"Command: `python -m experiments.bench_gpu --lines {args.lines}` ({checks['gpu']}, torch {checks['torch']}).",
        f"With no flags wsd chose device `{checks['device (default)']}` and precision `{checks['precision (auto)']}`.",
        "Cosine: against the same model in fp32 on the CPU, first 2000 occurrences.",
        "",
        "| --precision | computed as | batch | occurrences | seconds | occurrences/s | min cosine vs CPU fp32 |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for precision, resolved, batch, count, seconds, cosine, _ in rows:
        lines.append(
            f"| {precision} | {resolved} | {batch} | {count} | {seconds:.2f} | {count / seconds:.0f} | {cosine:.5f} |"
        )
    lines += ["", "Stage timings (s) of each run: " + "; ".join(f"{r[0]}/{r[2]}: {json.dumps(r[6])}" for r in rows), ""]
    text = "\n".join(lines)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
