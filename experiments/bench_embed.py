"""Embedding throughput, side by side: wsd vs the naive loop vs the HF pipeline vs the bare forward pass.

One run, one machine, one model (the bundled MiniLM), the same threads and the same occurrences: a corpus
made of the SemEval-2013 Task 13 contexts (one per line; scaled to N lines by repetition, each copy made
unique so that no contender can skip work by de-duplicating) and its 50 target lemmas with their forms.
Each contender runs in its own subprocess (model loading excluded from the timings, peak RSS recorded):

1. ``wsd``: ``wsd.embed_corpus`` with default settings: read, match, tokenise, encode, pool, write the store;
2. ``naive``: the tutorial loop: per occurrence, tokenise the whole line, one forward pass with
   ``output_hidden_states=True`` (batch size 1, fp32), sum of the last four layers, mean of the target's pieces;
3. ``pipeline``: ``transformers.pipeline("feature-extraction")`` over the lines, then the target's pieces
   averaged (last layer: what the pipeline returns);
4. ``floor``: the bare forward pass over wsd's own pre-tokenised, length-sorted windows, wsd's batch size, in
   wsd's default precision, with no other work: what this model costs on this machine.

It checks that wsd's vectors match the naive loop's where both saw the same window (cosine ≥ 0.999), measures
peak RSS of wsd at two corpus sizes, and writes ``experiments/results/bench_embed/bench_embed.md``.

    python -m experiments.bench_embed --data-dir ../shared/datasets
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from wsd import machine

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "datasets"


# ------------------------------------------------------------------------------------------ corpus
def build_corpus(data_dir: Path, lines: int, folder: Path) -> tuple[Path, Path]:
    """Write ``lines`` SemEval-2013 contexts (repeated, each copy unique) and a targets file; return both."""
    from wsd.evaluate.datasets import load_dataset

    occurrences = load_dataset("semeval2013", data_dir).occurrences
    contexts = occurrences.drop_duplicates("text")["text"].str.replace(r"\s+", " ", regex=True).tolist()
    forms: dict[str, set[str]] = {}
    for target, form in zip(occurrences["target"], occurrences["form"], strict=True):
        lemma = target.rsplit(".", 1)[0]
        forms.setdefault(lemma, {lemma}).add(form.lower())
    corpus = folder / f"corpus-{lines}.txt"
    with open(corpus, "w", encoding="utf-8") as handle:
        for i in range(lines):
            copy, index = divmod(i, len(contexts))
            suffix = f" ({copy})" if copy else ""
            handle.write(contexts[index] + suffix + "\n")
    targets = folder / "targets.txt"
    targets.write_text("\n".join(":".join([t, *sorted(f - {t})]) for t, f in sorted(forms.items())) + "\n")
    return corpus, targets


# ------------------------------------------------------------------------------------------ workers
def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def occurrence_lines(run: Path, corpus: Path) -> tuple[list[str], np.ndarray, np.ndarray]:
    """For each occurrence of a wsd run: its whole line, its span in the line, and whether wsd saw the line."""
    from wsd.io.run_reader import load_run

    occurrences, _ = load_run(run)
    lines = corpus.read_text(encoding="utf-8").split("\n")
    numbers = occurrences["doc_id"].str.rsplit(":", n=1).str[1].astype(int).to_numpy() - 1
    texts = [lines[n] for n in numbers]
    starts = occurrences["doc_start"].to_numpy() + occurrences["start"].to_numpy()
    ends = occurrences["doc_start"].to_numpy() + occurrences["end"].to_numpy()
    same_length = occurrences["text"].str.len().to_numpy() == np.array([len(t) for t in texts])
    whole = (occurrences["doc_start"].to_numpy() == 0) & same_length
    return texts, np.stack([starts, ends], axis=1), whole


def worker_wsd(args: argparse.Namespace) -> dict:
    import wsd
    import wsd.workflows.embedding  # imports are start-up, not throughput: excluded like the model load

    encoder = wsd.Encoder(precision=args.precision)
    started = time.perf_counter()
    run = wsd.embed_corpus(args.corpus, args.targets, args.out, encoder=encoder, progress=False, overwrite=True)
    seconds = time.perf_counter() - started
    meta = json.loads((Path(run) / "meta.json").read_text())
    return {
        "seconds": seconds,
        "occurrences": meta["n_occurrences"],
        "timings": meta["timings"],
        "precision": encoder.loaded.precision,
    }


def worker_naive(args: argparse.Namespace) -> dict:
    import torch
    from transformers import AutoModel, AutoTokenizer

    from wsd.embed.models import bundled_model_path

    texts, spans, _ = occurrence_lines(Path(args.run), Path(args.corpus))
    tokenizer = AutoTokenizer.from_pretrained(bundled_model_path())
    model = AutoModel.from_pretrained(bundled_model_path()).eval()
    vectors = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
    started = time.perf_counter()
    for i, (text, (start, end)) in enumerate(zip(texts, spans, strict=True)):
        batch = tokenizer(text, return_offsets_mapping=True, return_tensors="pt", truncation=True)
        offsets = batch.pop("offset_mapping")[0]
        with torch.no_grad():
            states = model(**batch, output_hidden_states=True).hidden_states
        summed = torch.stack(states[-4:]).sum(0)[0]
        pieces = [k for k, (a, b) in enumerate(offsets.tolist()) if b > a and a < end and b > start]
        vectors[i] = summed[pieces].mean(0).numpy()
    seconds = time.perf_counter() - started
    np.save(args.vectors, vectors)
    return {"seconds": seconds, "occurrences": len(texts)}


def worker_pipeline(args: argparse.Namespace) -> dict:
    from transformers import AutoModel, AutoTokenizer, pipeline

    from wsd.embed.models import bundled_model_path

    texts, spans, _ = occurrence_lines(Path(args.run), Path(args.corpus))
    tokenizer = AutoTokenizer.from_pretrained(bundled_model_path())
    model = AutoModel.from_pretrained(bundled_model_path()).eval()
    extractor = pipeline("feature-extraction", model=model, tokenizer=tokenizer, device="cpu")
    unique = sorted(set(texts))
    started = time.perf_counter()
    features = dict(zip(unique, extractor(unique, truncation=True), strict=True))
    vectors = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
    for i, (text, (start, end)) in enumerate(zip(texts, spans, strict=True)):
        offsets = tokenizer(text, return_offsets_mapping=True, truncation=True)["offset_mapping"]
        pieces = [k for k, (a, b) in enumerate(offsets) if b > a and a < end and b > start]
        vectors[i] = np.asarray(features[text][0])[pieces].mean(0)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "occurrences": len(texts)}


def worker_floor(args: argparse.Namespace) -> dict:
    import torch

    import wsd
    from wsd.io.run_reader import load_run

    encoder = wsd.Encoder(precision=args.precision)
    occurrences, _ = load_run(args.run)
    # wsd's own batches: unique windows with special tokens, longest first, wsd's batch size
    batches = encoder.model_inputs(occurrences["text"].tolist(), occurrences[["start", "end"]].to_numpy())
    loaded = encoder.loaded
    windows = sum(len(ids) for ids, _ in batches)
    started = time.perf_counter()
    with torch.inference_mode():
        for ids, mask in batches:
            loaded.model(input_ids=ids, attention_mask=mask, output_hidden_states=True)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "occurrences": len(occurrences), "windows": windows}


def worker_score(args: argparse.Namespace) -> dict:
    """SemEval-2013 scores of the default recipe (one seed) with vectors computed in ``args.precision``."""
    from wsd.config import build_evaluation_config
    from wsd.workflows.benchmark import evaluate

    config = build_evaluation_config(
        dataset="semeval2013", data=str(args.data_dir), precision=args.precision, cache_dir=args.cache
    )
    started = time.perf_counter()
    result = evaluate(config, progress=False)
    return {"seconds": time.perf_counter() - started, "overall": result["overall"], "precision": args.precision}


def worker_levers(args: argparse.Namespace) -> dict:
    """wsd's embedding step (plan + encode, the occurrences of the run) with one lever changed at a time."""
    import pandas as pd

    import wsd
    from wsd.embed.windows import WindowPlan
    from wsd.io.run_reader import load_run

    occurrences, _ = load_run(args.run)
    texts, spans = occurrences["text"].tolist(), occurrences[["start", "end"]].to_numpy()
    config = [("sum-last-4", "mean")]
    windows: list[int] = []

    def counted(plan: WindowPlan) -> WindowPlan:  # the plan as wsd chose it; its windows counted
        windows.append(len(plan.windows))
        return plan

    def unshared(plan: WindowPlan) -> WindowPlan:  # every occurrence its own copy of its window
        return counted(WindowPlan([plan.windows[w] for w in plan.window_of], np.arange(len(plan.window_of)),
                                  plan.piece_start, plan.piece_end))  # fmt: skip

    def unsorted_batches(encoder) -> None:  # batches of windows in corpus order
        # one window per line here (every line fits the model), so a batch of windows in corpus order is
        # the occurrences of batch_size consecutive distinct lines, embedded by one call
        block = pd.factorize(pd.Series(texts))[0] // encoder.batch_size
        for members in np.split(np.arange(len(texts)), np.flatnonzero(np.diff(block)) + 1):
            encoder.embed_configs([texts[i] for i in members], spans[members], config, rewrite_plan=counted)

    variants = {
        "wsd defaults (shared windows, length-sorted batches of 32)": ({}, None),
        "batches of 16": ({"batch_size": 16}, None),
        "batches of 64": ({"batch_size": 64}, None),
        "batches of 256": ({"batch_size": 256}, None),
        "batches in corpus order (no length sorting)": ({}, "unsorted"),
        "one window per occurrence (no sharing, no de-duplication)": ({}, "unshared"),
    }
    encoders = {label: wsd.Encoder(precision=args.precision, **options) for label, (options, _) in variants.items()}
    for encoder in encoders.values():  # warm-up: the model, and the kernels of a few shapes
        encoder.embed_configs(texts[:256], spans[:256], config)
    report: dict[str, dict] = {label: {"runs": []} for label in variants}
    for _ in range(max(1, args.repeats)):  # variants alternate; the fastest run of each counts
        for label, (_, change) in variants.items():
            encoder = encoders[label]
            windows.clear()
            started = time.perf_counter()
            if change == "unsorted":
                unsorted_batches(encoder)
            elif change == "unshared":
                encoder.embed_configs(texts, spans, config, rewrite_plan=unshared)
            else:
                encoder.embed_configs(texts, spans, config, rewrite_plan=counted)
            report[label]["runs"].append(time.perf_counter() - started)
            report[label]["windows"] = sum(windows)
    for entry in report.values():
        entry["seconds"] = min(entry["runs"])
    return {"variants": report, "occurrences": len(occurrences)}


WORKERS = {
    "levers": worker_levers,
    "wsd": worker_wsd,
    "naive": worker_naive,
    "pipeline": worker_pipeline,
    "floor": worker_floor,
    "score": worker_score,
}


def run_worker(name: str, threads: int, **options: str) -> dict:
    """Run one contender in a fresh Python process and return its JSON report."""
    command = [sys.executable, __file__, "--worker", name, "--threads", str(threads)]
    for key, value in options.items():
        command += [f"--{key.replace('_', '-')}", str(value)]
    env = dict(os.environ, TOKENIZERS_PARALLELISM="true")
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"worker {name} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------------ main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("WSD_DATASETS", DEFAULT_DATA)))
    parser.add_argument("--lines", type=int, default=4664, help="corpus lines for the side-by-side run")
    parser.add_argument("--memory-lines", default="10000,100000", help="two corpus sizes for the RSS check ('' skips)")
    parser.add_argument("--threads", type=int, default=min(2, machine.usable_cores()))
    parser.add_argument("--repeats", type=int, default=3, help="runs of wsd and of the floor (the fastest counts)")
    parser.add_argument("--results", type=Path, default=HERE / "results" / "bench_embed" / "bench_embed.md")
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    parser.add_argument(
        "--precisions",
        default="fp32,bf16,int8",
        help="precisions compared for speed (same corpus) and SemEval-2013 score ('' skips)",
    )
    parser.add_argument("--no-scores", action="store_true", help="compare the precisions' speed only")
    parser.add_argument("--no-levers", action="store_true", help="skip the table of levers (one changed at a time)")
    for hidden in ("corpus", "targets", "out", "run", "vectors", "cache"):
        parser.add_argument(f"--{hidden}", help=argparse.SUPPRESS)
    parser.add_argument("--precision", default="auto", help="wsd's precision (auto = its default)")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    if args.worker:
        report = WORKERS[args.worker](args)
        report["peak_rss_mb"] = peak_rss_mb()
        print(json.dumps(report))
        return

    command = "python -m experiments.bench_embed " + " ".join(sys.argv[1:])
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        corpus, targets = build_corpus(args.data_dir, args.lines, folder)
        run = folder / "run-wsd"
        common = {"corpus": corpus, "run": run, "precision": args.precision}
        # wsd and the floor are compared most closely (1.3×): each runs --repeats times, alternating, and the
        # fastest run counts (a process's speed on a shared VM varies by 10-20% from one start to the next)
        runs: dict[str, list[dict]] = {"wsd": [], "floor": []}
        for repeat in range(max(1, args.repeats)):
            out = run if repeat == 0 else folder / f"run-wsd-{repeat}"
            wsd_run = run_worker("wsd", args.threads, corpus=corpus, targets=targets, out=out, precision=args.precision)
            runs["wsd"].append(wsd_run)
            runs["floor"].append(run_worker("floor", args.threads, **common))
        results = {name: min(reports, key=lambda r: r["seconds"]) for name, reports in runs.items()}
        for name, reports in runs.items():
            results[name]["runs"] = [r["seconds"] for r in reports]
        results["naive"] = run_worker("naive", args.threads, vectors=folder / "naive.npy", **common)
        results["pipeline"] = run_worker("pipeline", args.threads, **common)
        agreement = compare_with_naive(run, corpus, folder / "naive.npy")
        levers = run_worker("levers", args.threads, repeats=args.repeats, **common) if not args.no_levers else None
        memory = []
        for size in [int(s) for s in args.memory_lines.split(",") if s.strip()]:
            big, _ = build_corpus(args.data_dir, size, folder)
            report = run_worker(
                "wsd", args.threads, corpus=big, targets=targets, out=folder / f"run-{size}", precision=args.precision
            )
            memory.append((size, report))
        precisions = {}
        for precision in [p.strip() for p in args.precisions.split(",") if p.strip()]:
            out = folder / f"run-{precision}"
            speed = run_worker("wsd", args.threads, corpus=corpus, targets=targets, out=out, precision=precision)
            if not args.no_scores:
                speed["score"] = run_worker(
                    "score", args.threads, data_dir=args.data_dir, precision=precision, cache=folder / "cache"
                )
            precisions[precision] = speed
    text = render(results, agreement, memory, args, command) + "\n" + render_precisions(precisions)
    text += "\n" + render_levers(levers) if levers else ""
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(text, encoding="utf-8")
    print(text)


def compare_with_naive(run: Path, corpus: Path, naive_path: Path) -> dict:
    """Cosine between wsd's stored vectors and the naive loop's, where wsd's window was the whole line."""
    from wsd.io.run_reader import load_run

    _, wsd_vectors = load_run(run)
    _, _, whole = occurrence_lines(run, corpus)
    a = np.asarray(wsd_vectors, dtype=np.float32)[whole]
    b = np.load(naive_path)[whole]
    cosine = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    return {"compared": int(whole.sum()), "min": float(cosine.min()), "mean": float(cosine.mean())}


def render(results: dict, agreement: dict, memory: list, args: argparse.Namespace, command: str) -> str:
    import torch
    import transformers

    rate = {name: r["occurrences"] / r["seconds"] for name, r in results.items()}
    wsd = results["wsd"]
    lines = [
        "# Embedding throughput: wsd vs the naive loop, the HF pipeline and the bare forward pass",
        "",
        f"Command: `{command}`",
        "",
        f"Machine: {machine.describe()}, torch {torch.__version__} with {args.threads} threads, "
        f"transformers {transformers.__version__}, bundled all-MiniLM-L6-v2; wsd precision "
        f"`{wsd['precision']}` (its default on this machine); {wsd['occurrences']} occurrences of the 50 "
        f"SemEval-2013 target lemmas in {args.lines} lines (the SemEval-2013 contexts).",
        "",
        "| contender | seconds | occurrences/s | wsd is × faster | peak RSS (MiB) |",
        "|---|---:|---:|---:|---:|",
    ]
    labels = {
        "wsd": "wsd (defaults: read, match, tokenise, encode, pool, write)",
        "naive": "naive loop (batch 1, whole context, fp32, hidden states)",
        "pipeline": "HF pipeline('feature-extraction') + subword mean",
        "floor": f"floor: bare forward pass on wsd's windows ({wsd['precision']}, wsd's batches)",
    }
    for name in ("wsd", "naive", "pipeline", "floor"):
        r = results[name]
        seconds = f"{r['seconds']:.2f}"
        if len(r.get("runs", [])) > 1:
            seconds += f" (best of {', '.join(f'{t:.2f}' for t in r['runs'])})"
        lines.append(
            f"| {labels[name]} | {seconds} | {rate[name]:.0f} | {rate['wsd'] / rate[name]:.2f} | "
            f"{r['peak_rss_mb']:.0f} |"
        )
    timings = wsd["timings"]
    lines += [
        "",
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---|---|",
        f"| wsd ≥ 5× the naive loop | {rate['wsd'] / rate['naive']:.2f}× | {yes(rate['wsd'] / rate['naive'] >= 5)} |",
        f"| wsd ≥ 3× the pipeline | {rate['wsd'] / rate['pipeline']:.2f}× | "
        f"{yes(rate['wsd'] / rate['pipeline'] >= 3)} |",
        f"| wsd total ≤ 1.3× the floor | {wsd['seconds'] / results['floor']['seconds']:.2f}× | "
        f"{yes(wsd['seconds'] / results['floor']['seconds'] <= 1.3)} |",
        f"| store writes < 10% of total | {100 * timings['write_s'] / timings['total_s']:.1f}% | "
        f"{yes(timings['write_s'] / timings['total_s'] < 0.1)} |",
        f"| vectors match the naive loop (cosine ≥ 0.999) | min {agreement['min']:.5f}, mean "
        f"{agreement['mean']:.5f} over {agreement['compared']} occurrences with the same window | "
        f"{yes(agreement['min'] >= 0.999)} |",
    ]
    if len(memory) == 2:
        (small, a), (large, b) = memory
        growth = b["peak_rss_mb"] / a["peak_rss_mb"] - 1
        lines.append(
            f"| peak RSS grows < 20% from {a['occurrences']} to {b['occurrences']} occurrences "
            f"({small} → {large} lines) | {a['peak_rss_mb']:.0f} → {b['peak_rss_mb']:.0f} MiB "
            f"({100 * growth:+.1f}%) | {yes(growth < 0.2)} |"
        )
    lines += [
        "",
        "wsd's own stage timings in this run (seconds; tokenising runs in a helper thread, overlapping the "
        f"forward passes): {json.dumps(timings)}",
        "",
    ]
    if memory:
        lines.append(
            "Scaling runs (wsd defaults): "
            + "; ".join(
                f"{r['occurrences']} occurrences in {r['seconds']:.1f} s ({r['occurrences'] / r['seconds']:.0f}/s), "
                f"peak RSS {r['peak_rss_mb']:.0f} MiB"
                for _, r in memory
            )
            + "."
        )
        lines.append("")
    return "\n".join(lines)


def render_precisions(precisions: dict) -> str:
    """The precision table: wsd's throughput on the same corpus, and the SemEval-2013 score of the default."""
    if not precisions:
        return ""
    base = precisions.get("fp32") or next(iter(precisions.values()))
    base_rate = base["occurrences"] / base["seconds"]
    lines = [
        "## Precision: speed and SemEval-2013 score",
        "",
        "wsd with `--precision P` on the corpus above (each in its own process), and the SemEval-2013 scores of "
        "the default recipe (one seed) on vectors computed in that precision (`wsd evaluate --dataset "
        "semeval2013 --precision P`).",
        "",
        "| precision | seconds | occurrences/s | speed-up vs fp32 | FNMI | FBC | AVG |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in precisions.items():
        rate = r["occurrences"] / r["seconds"]
        score = r.get("score", {}).get("overall", {})
        cells = [f"{100 * score[m]:.2f}" if m in score else "–" for m in ("fnmi", "fbc_f", "avg")]
        timing = f"| {name} | {r['seconds']:.2f} | {rate:.0f} | {rate / base_rate:.2f}× | "
        lines.append(timing + " | ".join(cells) + " |")
    return "\n".join([*lines, ""])


def render_levers(levers: dict) -> str:
    """The levers table: wsd's plan + encode step with one lever changed at a time."""
    variants = levers["variants"]
    base = next(iter(variants.values()))["seconds"]
    lines = [
        "## Levers, one changed at a time",
        "",
        f"wsd's plan + encode step (tokenise, choose windows, forward passes, pooling) over the same "
        f"{levers['occurrences']} occurrences in one process, warm model, wsd's default precision; everything "
        "else as wsd's defaults. The variants run in turn, --repeats times; the fastest run of each counts.",
        "",
        "| variant | windows encoded | seconds (runs) | time vs defaults |",
        "|---|---:|---:|---:|",
    ]
    for label, r in variants.items():
        runs = ", ".join(f"{t:.2f}" for t in r["runs"])
        lines.append(f"| {label} | {r['windows']} | {r['seconds']:.2f} ({runs}) | {r['seconds'] / base:.2f}× |")
    return "\n".join([*lines, ""])


def yes(flag: bool) -> str:
    return "yes" if flag else "**no**"


if __name__ == "__main__":
    main()
