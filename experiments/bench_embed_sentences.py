"""Embedding single-sentence corpora, whole process: `wsd embed` (PyTorch, OpenVINO) vs the naive loop and the floor.

Two corpora of one sentence per line (issue 16, item 2):

- **tuning** (``sotu``): sentences split from the State of the Union addresses (``../shared/corpora``) that hold
  one of 20 ambiguous words (CoarseWSD-20 words and a few frequent ones), a seeded sample of ``--tune-lines``;
  the runtime's choices (batch size, threads vs processes) were made on it;
- **held out** (``dwug``): the 9,107 DWUG EN uses (``../shared/datasets/lscd/dwug_en``, single sentences of
  CCOHA), never used for a choice: the targets are measured on it.

Each contender is its own process, one after the other, on the same threads:

- ``naive``: the tutorial loop of ``experiments/bench_embed.py`` (batch 1, whole sentence, fp32, hidden states);
- ``wsd embed`` as a user runs it (wall clock of the whole CLI process: start-up, model load, scan, tokenise,
  forward, pool, write) with ``--runtime torch``, ``--runtime openvino``, cold (an empty conversion cache:
  conversion and compilation counted) and warm (the cache of the cold run), and with the defaults (no
  ``--runtime``: ``auto``, OpenVINO on a CPU since issue 24), warm;
- ``floor``: the bare forward pass over wsd's own batches in each runtime (model loaded, nothing else), whose
  FLOPs are counted from the model's configuration and the padded batch shapes (matmuls 2 × the non-embedding
  weights per token, attention 4 · layers · hidden · length per token) and set against the matmul peak of the
  precision they ran in (bf16 where the CPU has native bf16, else fp32), measured in the same run (a torch matmul
  of 2048², 2 threads);
- levers tried on the floor: batch sizes (tuning corpus), ``torch.compile``, two one-thread processes vs one
  two-thread process.

``--repeats N`` runs the naive loop and ``wsd embed`` with the defaults N times side by side on the held-out corpus
(each ``wsd embed`` into a new folder), and the 6× target is read from the median ratio of the N pairs: the naive
loop's speed moved by a quarter between days. It writes
``experiments/results/bench_embed_sentences/bench_embed_sentences.md`` and ``.json``; the 1-minute load average is
printed with each figure (other jobs on the machine inflate every time).

    python -m experiments.bench_embed_sentences
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
RESULTS = HERE / "results" / "bench_embed_sentences"

#: Targets of the tuning corpus: CoarseWSD-20 words found in the addresses, and frequent ambiguous words.
SOTU_TARGETS = {
    "bank": ["banks"],
    "spring": ["springs"],
    "square": ["squares"],
    "yard": ["yards"],
    "seal": ["seals"],
    "pound": ["pounds"],
    "arm": ["arms"],
    "club": ["clubs"],
    "chair": ["chairs"],
    "deck": ["decks"],
    "plant": ["plants"],
    "power": ["powers"],
    "interest": ["interests"],
    "party": ["parties"],
    "court": ["courts"],
    "bill": ["bills"],
    "duty": ["duties"],
    "rate": ["rates"],
    "right": ["rights"],
    "order": ["orders"],
}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


# ------------------------------------------------------------------------------------------ corpora
def sotu_corpus(corpora: Path, lines: int, folder: Path, seed: int = 0) -> tuple[Path, Path]:
    """A seeded sample of ``lines`` SOTU sentences (8-60 words) that hold a target word; with its targets file."""
    words = {form: target for target, forms in SOTU_TARGETS.items() for form in [target, *forms]}
    pattern = re.compile(r"\b(" + "|".join(sorted(words, key=len, reverse=True)) + r")\b", re.IGNORECASE)
    sentences = []
    with gzip.open(corpora / "sotu.jsonl.gz", "rt", encoding="utf-8") as handle:
        for record in handle:
            text = json.loads(record)["text"]
            for sentence in SENTENCE_END.split(re.sub(r"\s+", " ", text)):
                if 8 <= len(sentence.split()) <= 60 and pattern.search(sentence):
                    sentences.append(sentence.strip())
    rng = np.random.default_rng(seed)
    chosen = [sentences[i] for i in sorted(rng.choice(len(sentences), size=min(lines, len(sentences)), replace=False))]
    return _write_corpus(folder / "sotu.txt", chosen, {t: set(f) for t, f in SOTU_TARGETS.items()}, folder / "sotu")


def dwug_corpus(datasets: Path, folder: Path, lines: int | None = None) -> tuple[Path, Path]:
    """The DWUG EN uses, one context per line, and the targets with the forms the uses have."""
    import csv

    import pandas as pd

    sentences, forms = [], {}
    for uses in sorted((datasets / "lscd" / "dwug_en" / "data").glob("*/uses.csv")):
        table = pd.read_csv(uses, sep="\t", quoting=csv.QUOTE_NONE, dtype=str, keep_default_na=False)
        for lemma, context, span in zip(table["lemma"], table["context"], table["indexes_target_token"], strict=True):
            start, end = (int(x) for x in span.split(":"))
            target = lemma.rsplit("_", 1)[0]
            forms.setdefault(target, {target}).add(context[start:end].lower())
            sentences.append(re.sub(r"\s+", " ", context).strip())
    return _write_corpus(folder / "dwug.txt", sentences[:lines], forms, folder / "dwug")


def _write_corpus(path: Path, sentences: list[str], forms: dict, stem: Path) -> tuple[Path, Path]:
    path.write_text("\n".join(sentences) + "\n", encoding="utf-8")
    targets = stem.with_name(stem.name + "-targets.txt")
    targets.write_text("\n".join(":".join([t, *sorted(f - {t})]) for t, f in sorted(forms.items())) + "\n")
    return path, targets


# ------------------------------------------------------------------------------------------ workers
def worker_floor(args: argparse.Namespace) -> dict:
    """The bare forward pass over wsd's own batches (the run's occurrences), in one runtime."""
    import wsd
    from wsd.io.run_reader import load_run

    encoder = wsd.Encoder(runtime=args.runtime, batch_size=args.batch_size)
    occurrences, _ = load_run(args.run)
    batches = encoder.model_inputs(occurrences["text"].tolist(), occurrences[["start", "end"]].to_numpy())
    batches = [(ids.numpy(), mask.numpy()) for ids, mask in batches][args.part :: args.parts]
    forward = encoder.loaded.forward
    needed = list(encoder.layers.resolve(encoder.loaded.num_layers))
    zero = np.zeros(1, dtype=np.int64)
    model = None
    compile_s = 0.0
    if args.compile:
        import torch

        model = torch.compile(encoder.loaded.model, dynamic=True)
        clock = time.perf_counter()
        with torch.inference_mode():
            for ids, mask in batches[:3]:  # compile for a few shapes
                model(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask), output_hidden_states=True)
        compile_s = time.perf_counter() - clock
    with forward.session():
        forward.pieces(*batches[-1], needed, zero, zero)  # warm-up: compiles the OpenVINO model
    clock = time.perf_counter()
    with forward.session():
        for ids, mask in batches:
            if model is not None:
                import torch

                model(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask), output_hidden_states=True)
            else:
                forward.pieces(ids, mask, needed, zero, zero)
    seconds = time.perf_counter() - clock
    tokens = sum(int(ids.size) for ids, _ in batches)
    squares = sum(int(ids.shape[0]) * int(ids.shape[1]) ** 2 for ids, _ in batches)
    real = sum(int(mask.sum()) for _, mask in batches)
    return {
        "seconds": seconds,
        "compile_s": compile_s,
        "padded_tokens": tokens,
        "tokens": real,
        "token_squares": squares,
        "batches": len(batches),
        "precision": encoder.loaded.precision,
    }


def worker_matmul(args: argparse.Namespace) -> dict:
    """Matmul throughput of torch in bf16 and fp32 (2048 × 2048 × 2048), the best of a few runs.

    bf16 is measured only where oneDNN computes it fast (:func:`wsd.machine.fast_bf16`): elsewhere it is
    emulated, takes minutes, and no forward pass of wsd runs in it (``None``).
    """
    import torch

    from wsd import machine

    size = 2048
    result: dict[str, float | None] = {"bf16_gflops": None}
    kinds = (("bf16", torch.bfloat16), ("fp32", torch.float32)) if machine.fast_bf16() else (("fp32", torch.float32),)
    for name, dtype in kinds:
        a, b = torch.randn(size, size, dtype=dtype), torch.randn(size, size, dtype=dtype)
        a @ b  # warm-up
        best = float("inf")
        for _ in range(5):
            clock = time.perf_counter()
            for _ in range(4):
                a @ b
            best = min(best, (time.perf_counter() - clock) / 4)
        result[f"{name}_gflops"] = 2 * size**3 / best / 1e9
    return result


def worker_imports(args: argparse.Namespace) -> dict:
    """What the embed path imports before the model loads (a fresh process: wsd's CLI and pipeline)."""
    clock = time.perf_counter()
    import wsd.cli
    import wsd.workflows.embedding  # noqa: F401

    return {"seconds": time.perf_counter() - clock, "torch": "torch" in sys.modules}


WORKERS = {"floor": worker_floor, "matmul": worker_matmul, "imports": worker_imports}


# ------------------------------------------------------------------------------------------ running
def load_average() -> float:
    return os.getloadavg()[0]


#: Where the contenders' bytecode is cached (set by main): a user's Python caches compiled modules, so the
#: benchmark does too, whatever PYTHONDONTWRITEBYTECODE says, in a scratch folder (not in the checkout).
PYCACHE: list[Path] = []


def environment(threads: int, cache: Path | None = None) -> dict[str, str]:
    env = dict(os.environ, TOKENIZERS_PARALLELISM="true", OMP_NUM_THREADS=str(threads))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if PYCACHE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE[0])
    if cache is not None:
        env["WSD_OPENVINO_CACHE"] = str(cache)
    return env


def run_worker(name: str, threads: int, cache: Path | None = None, **options) -> dict:
    """One worker of this script in a fresh process; its JSON report."""
    command = [sys.executable, "-m", "experiments.bench_embed_sentences", "--worker", name, "--threads", str(threads)]
    for key, value in options.items():
        if value is True:
            command.append(f"--{key.replace('_', '-')}")
        elif value not in (None, False):
            command += [f"--{key.replace('_', '-')}", str(value)]
    result = subprocess.run(command, capture_output=True, text=True, env=environment(threads, cache), cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"worker {name} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def run_cli(corpus: Path, targets: Path, out: Path, runtime: str | None, threads: int, cache: Path) -> dict:
    """``wsd embed`` as a user runs it: the wall clock of the whole process, and its own stage timings.

    ``runtime=None`` passes no ``--runtime``: the defaults, as a user who sets nothing gets them.
    """
    command = [sys.executable, "-m", "wsd.cli", "embed", "--corpus", str(corpus), "--targets", str(targets)]
    command += ["--out", str(out), "--no-progress", "--overwrite"]
    command += ["--runtime", runtime] if runtime else []
    load = load_average()
    clock = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=environment(threads, cache), cwd=ROOT)
    wall = time.perf_counter() - clock
    if result.returncode != 0:
        raise RuntimeError(f"wsd embed --runtime {runtime} failed:\n{result.stderr[-3000:]}")
    meta = json.loads((out / "meta.json").read_text())
    return {"wall_s": wall, "load_average": load, "occurrences": meta["n_occurrences"], "timings": meta["timings"]}


def run_naive(run: Path, corpus: Path, vectors: Path, threads: int) -> dict:
    """The tutorial loop of experiments/bench_embed.py over the run's occurrences (whole sentence each)."""
    command = [sys.executable, str(HERE / "bench_embed.py"), "--worker", "naive", "--threads", str(threads)]
    command += ["--run", str(run), "--corpus", str(corpus), "--vectors", str(vectors)]
    load = load_average()
    result = subprocess.run(command, capture_output=True, text=True, env=environment(threads), cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"naive loop failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1]) | {"load_average": load}


def agreement(run: Path, corpus: Path, naive: Path) -> dict:
    """Cosine between a run's stored vectors and the naive loop's (fp32), where wsd's window was the line."""
    sys.path.insert(0, str(ROOT))
    from experiments.bench_embed import occurrence_lines
    from wsd.io.run_reader import load_run

    _, vectors = load_run(run)
    _, _, whole = occurrence_lines(run, corpus)
    b = np.load(naive)[whole]
    # a run with the default recipe's context vector stores [target, weighted context]: compare the target part
    a = np.asarray(vectors, dtype=np.float32)[whole][:, : b.shape[1]]
    cosine = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    return {"compared": int(whole.sum()), "min": float(cosine.min()), "mean": float(cosine.mean())}


def model_flops(padded_tokens: int, token_squares: int) -> float:
    """FLOPs of the bundled model's forward pass over batches with these padded shapes."""
    from wsd.embed.models import bundled_model_path

    config = json.loads((bundled_model_path() / "config.json").read_text())
    hidden, inner, layers = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
    weights = layers * (4 * hidden * hidden + 2 * hidden * inner)  # Q, K, V, O and the two FFN matrices
    return 2.0 * weights * padded_tokens + 4.0 * layers * hidden * token_squares


# ------------------------------------------------------------------------------------------ main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=Path(os.environ.get("WSD_DATASETS", SHARED / "datasets")))
    parser.add_argument("--corpora", type=Path, default=SHARED / "corpora")
    parser.add_argument("--tune-lines", type=int, default=10000, help="sentences of the tuning corpus (SOTU)")
    parser.add_argument("--held-out-lines", type=int, help="use only the first N DWUG uses (a quick check)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-levers", action="store_true", help="skip the levers (batch sizes, compile, processes)")
    parser.add_argument("--name", default="bench_embed_sentences", help="results file name (without suffix)")
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="side-by-side pairs of the naive loop and `wsd embed` with the defaults on the held-out corpus "
        "(the first is the main run's; the target is read from their median ratio)",
    )
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    for hidden in ("run", "runtime"):
        parser.add_argument(f"--{hidden}", help=argparse.SUPPRESS)
    parser.add_argument("--batch-size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--part", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--parts", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--compile", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        if args.worker != "imports":
            import torch

            torch.set_num_threads(args.threads)
        print(json.dumps(WORKERS[args.worker](args)))
        return

    command = "python -m experiments.bench_embed_sentences " + " ".join(sys.argv[1:])
    report: dict = {"command": command.strip(), "threads": args.threads, "corpora": {}, "levers": {}}
    report["software"] = software()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        cache = folder / "openvino-cache"
        PYCACHE[:] = [folder / "pycache"]
        corpora = {
            "dwug": ("held out", *dwug_corpus(args.datasets, folder, args.held_out_lines)),
            "sotu": ("tuning", *sotu_corpus(args.corpora, args.tune_lines, folder)),
        }
        report["matmul"] = run_worker("matmul", args.threads) | {"load_average": load_average()}
        report["imports"] = run_worker("imports", args.threads)
        for name, (role, corpus, targets) in corpora.items():
            entry: dict = {"role": role, "lines": len(corpus.read_text(encoding="utf-8").splitlines()), "cli": {}}
            held_out = role == "held out"
            if held_out:  # the cold run: an empty conversion cache
                entry["cli"]["openvino (cold: converts)"] = run_cli(
                    corpus, targets, folder / f"{name}-ov-cold", "openvino", args.threads, cache
                )
            entry["cli"]["openvino"] = run_cli(corpus, targets, folder / f"{name}-ov", "openvino", args.threads, cache)
            entry["cli"]["defaults"] = run_cli(corpus, targets, folder / f"{name}-defaults", None, args.threads, cache)
            entry["cli"]["torch"] = run_cli(corpus, targets, folder / f"{name}-torch", "torch", args.threads, cache)
            log(f"{name}: wsd embed done ({time.perf_counter() - started:.0f} s)")
            if held_out:
                naive_vectors = folder / f"{name}-naive.npy"
                entry["naive"] = run_naive(folder / f"{name}-torch", corpus, naive_vectors, args.threads)
                entry["agreement"] = {
                    runtime: agreement(folder / f"{name}-{suffix}", corpus, naive_vectors)
                    for runtime, suffix in (("torch", "torch"), ("openvino", "ov"))
                }
                entry["floor"] = {
                    runtime: run_worker("floor", args.threads, cache, run=folder / f"{name}-torch", runtime=runtime)
                    | {"load_average": load_average()}
                    for runtime in ("openvino", "torch")
                }
                log(f"{name}: naive loop and floors done ({time.perf_counter() - started:.0f} s)")
                entry["repeats"] = repeat_pairs(entry, folder, name, corpus, targets, args.threads, cache, args.repeats)
            report["corpora"][name] = entry
        if not args.no_levers:
            report["levers"] = levers(folder, cache, args.threads)
        # the peak is a maximum: measured again at the end, the better of the two counts (other jobs lower it)
        again = run_worker("matmul", args.threads) | {"load_average": load_average()}
        report["matmul_runs"] = [report["matmul"], again]
        report["matmul"] = max(report["matmul_runs"], key=lambda m: m["bf16_gflops"] or m["fp32_gflops"])
    report["seconds"] = time.perf_counter() - started
    write(report, args.name)


def repeat_pairs(
    entry: dict, folder: Path, name: str, corpus: Path, targets: Path, threads: int, cache: Path, repeats: int
) -> list[dict]:
    """``repeats`` side-by-side pairs (the main run's first, then ``wsd embed`` with the defaults and the naive
    loop again, one after the other): the speed of each, so that the ratio is read from more than one pair."""
    first = {"naive_s": entry["naive"]["seconds"], "defaults_s": entry["cli"]["defaults"]["wall_s"]}
    first["load_average"] = [entry["naive"]["load_average"], entry["cli"]["defaults"]["load_average"]]
    pairs = [first]
    for number in range(1, repeats):
        # a new folder: the same configuration in the same folder would resume the finished run, not embed again
        defaults = run_cli(corpus, targets, folder / f"{name}-defaults-{number}", None, threads, cache)
        naive = run_naive(folder / f"{name}-torch", corpus, folder / f"{name}-naive-{number}.npy", threads)
        pairs.append(
            {
                "naive_s": naive["seconds"],
                "defaults_s": defaults["wall_s"],
                "load_average": [naive["load_average"], defaults["load_average"]],
            }
        )
        log(f"{name}: pair {number + 1} of {repeats}: {naive['seconds'] / defaults['wall_s']:.2f}x")
    for pair in pairs:
        pair["ratio"] = pair["naive_s"] / pair["defaults_s"]
    return pairs


FLOOR_COMMAND = [sys.executable, "-m", "experiments.bench_embed_sentences", "--worker", "floor", "--threads", "1"]


def levers(folder: Path, cache: Path, threads: int) -> dict:
    """Floor-level levers: batch sizes (tuning corpus), torch.compile, two 1-thread processes (held-out corpus)."""
    out: dict = {"batch_sizes": {}, "parallel": {}}
    for size in (16, 32, 64):
        out["batch_sizes"][size] = run_worker(
            "floor", threads, cache, run=folder / "sotu-torch", runtime="openvino", batch_size=size
        ) | {"load_average": load_average()}
    log("levers: batch sizes done")
    run = folder / "dwug-torch"
    for runtime in ("openvino", "torch"):
        started = time.perf_counter()
        processes = [
            subprocess.Popen(
                [*FLOOR_COMMAND, "--run", str(run), "--runtime", runtime, "--part", str(part), "--parts", "2"],
                stdout=subprocess.PIPE,
                text=True,
                env=environment(1, cache),
                cwd=ROOT,
            )
            for part in range(2)
        ]
        reports = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in processes]
        out["parallel"][runtime] = {
            "seconds": max(r["seconds"] for r in reports),
            "parts": [r["seconds"] for r in reports],
            "wall_s": time.perf_counter() - started,
            "load_average": load_average(),
        }
    log("levers: processes done")
    try:
        out["compile"] = run_worker("floor", threads, cache, run=run, runtime="torch", compile=True)
    except RuntimeError as error:  # torch.compile needs a C compiler; report why it did not run
        out["compile"] = {"error": str(error).strip().splitlines()[-1]}
    return out


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message} (load average {load_average():.1f})", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------ results
def breakdown(cli: dict) -> dict:
    """Where the wall time of a ``wsd embed`` process went (seconds; tokenising overlaps the forward pass)."""
    t = cli["timings"]
    forward = t.get("forward_s", 0.0)
    return {
        "start-up (interpreter, imports, CLI)": cli["wall_s"] - t["total_s"],
        "model load": t.get("load_s", 0.0),
        "convert + compile": t.get("compile_s", 0.0),
        "scan": t["scan_s"],
        "tokenise (helper thread)": t["tokenize_s"],
        "forward": forward,
        "pool and gather": t["encode_s"] - forward - t.get("compile_s", 0.0),
        "write": t["write_s"],
    }


def software() -> dict[str, str]:
    """The machine line and the versions of torch and OpenVINO, recorded with the report when it is measured."""
    import torch

    from wsd import machine

    try:
        import openvino

        ov_version = openvino.__version__
    except ImportError:  # pragma: no cover - the script needs it
        ov_version = "absent"
    return {"machine": machine.describe(), "torch": torch.__version__, "openvino": ov_version}


def _gflops(value: float | None) -> str:
    return "not measured (emulated on this CPU)" if value is None else f"{value:.0f} GFLOP/s"


def write(report: dict, name: str) -> None:
    """Write ``<name>.md`` and ``.json`` from a report (the machine and versions it recorded when measured)."""
    recorded = report.setdefault("software", software())
    # the peak to compare with is the one of the precision the forward passes ran in (fp32 on a CPU without
    # native bf16, where --precision auto computes in fp32)
    floors = [f for e in report["corpora"].values() for f in e.get("floor", {}).values()]
    if floors:
        precision = "fp32" if all(f["precision"] == "fp32" for f in floors) else "bf16"
    else:  # no floor ran: the precision wsd's auto takes here, as the matmul worker measured it
        precision = "bf16" if report["matmul"]["bf16_gflops"] else "fp32"
    peak = report["matmul"][f"{precision}_gflops"]
    lines = [
        "# Embedding single-sentence corpora: `wsd embed` whole process vs the naive loop and the forward floor",
        "",
        f"Command: `{report['command']}` ({report['seconds']:.0f} s)",
        "",
        f"Machine: {recorded['machine']}; torch {recorded['torch']}, OpenVINO {recorded['openvino']}, "
        f"{report['threads']} "
        f"threads, bundled all-MiniLM-L6-v2. Measured matmul peak (torch, 2048², same run, the better of a "
        f"measurement at the start and one at the end): bf16 {_gflops(report['matmul']['bf16_gflops'])}, fp32 "
        f"{_gflops(report['matmul']['fp32_gflops'])} (load average {report['matmul']['load_average']:.1f}); the "
        f"forward passes ran in {precision}, so **{peak:.0f} GFLOP/s** is the peak they are set against. Imports "
        f"of the CLI and pipeline in a fresh process: {report['imports']['seconds']:.2f} s (torch imported: "
        f"{report['imports']['torch']}).",
        "",
        "Each figure gives the 1-minute load average when it started: above ~2 on these 2 cores, other jobs were "
        "running and the times are inflated.",
        "",
    ]
    results: dict = {}
    for corpus, entry in report["corpora"].items():
        naive = entry.get("naive")
        lines += [
            f"## `{corpus}` ({entry['role']} corpus): {entry['lines']} sentences, "
            f"{next(iter(entry['cli'].values()))['occurrences']} occurrences",
            "",
            "| contender | wall s | × naive loop | forward share of wall | load avg |",
            "|---|---:|---:|---:|---:|",
        ]
        if naive:
            lines.append(
                f"| naive loop (batch 1, whole sentence, fp32, hidden states; model load excluded) | "
                f"{naive['seconds']:.1f} | 1.00 | – | {naive['load_average']:.1f} |"
            )
        for runtime, cli in entry["cli"].items():
            share = cli["timings"].get("forward_s", 0.0) / cli["wall_s"]
            speed = f"{naive['seconds'] / cli['wall_s']:.2f}" if naive else "–"
            flag, _, note = runtime.partition(" ")
            shown = "`wsd embed` with the defaults" if flag == "defaults" else f"`wsd embed --runtime {flag}` {note}"
            lines.append(
                f"| {shown} (whole process) | {cli['wall_s']:.1f} | {speed} | "
                f"{100 * share:.0f}% | {cli['load_average']:.1f} |"
            )
        for runtime, floor in entry.get("floor", {}).items():
            speed = f"{naive['seconds'] / floor['seconds']:.2f}" if naive else "–"
            lines.append(
                f"| floor: bare forward pass, {runtime} {floor['precision']} | {floor['seconds']:.1f} | {speed} | "
                f"100% | {floor['load_average']:.1f} |"
            )
        lines += ["", "Where the wall time of each `wsd embed` process went (seconds):", ""]
        parts = {runtime: breakdown(cli) for runtime, cli in entry["cli"].items()}
        names = list(next(iter(parts.values())))
        lines += ["| stage | " + " | ".join(parts) + " |", "|---|" + "---:|" * len(parts)]
        for stage in names:
            lines.append(f"| {stage} | " + " | ".join(f"{parts[r][stage]:.2f}" for r in parts) + " |")
        lines.append("| **wall** | " + " | ".join(f"**{c['wall_s']:.2f}**" for c in entry["cli"].values()) + " |")
        lines.append("")
        if "floor" in entry:
            lines += [
                "Forward pass FLOPs (padded batches; 2 × non-embedding weights per token + attention "
                f"4·layers·hidden·length per token) against the measured {precision} matmul peak:",
                "",
                f"| runtime | tokens (padded) | TFLOP | seconds | GFLOP/s | of the {precision} peak |",
                "|---|---:|---:|---:|---:|---:|",
            ]
            for runtime, floor in entry["floor"].items():
                flops = model_flops(floor["padded_tokens"], floor["token_squares"])
                rate = flops / floor["seconds"] / 1e9
                floor["gflops"] = rate
                lines.append(
                    f"| {runtime} {floor['precision']} (floor) | {floor['tokens']} ({floor['padded_tokens']}) | "
                    f"{flops / 1e12:.2f} | {floor['seconds']:.1f} | {rate:.0f} | {100 * rate / peak:.0f}% |"
                )
                for cli_name, cli in entry["cli"].items():
                    if cli_name == runtime:
                        in_cli = flops / cli["timings"]["forward_s"] / 1e9
                        lines.append(
                            f"| {runtime} inside `wsd embed` | | | {cli['timings']['forward_s']:.1f} | {in_cli:.0f} | "
                            f"{100 * in_cli / peak:.0f}% |"
                        )
            lines.append("")
        if "agreement" in entry:
            lines += [
                "Vectors against the naive loop's fp32 vectors (cosine, stored float16 vectors, same window): "
                + "; ".join(
                    f"{r}: min {a['min']:.5f}, mean {a['mean']:.5f} over {a['compared']}"
                    for r, a in entry["agreement"].items()
                ),
                "",
            ]
        pairs = entry.get("repeats") or []
        if len(pairs) > 1:
            lines += [
                f"The naive loop and `wsd embed` with the defaults, {len(pairs)} side-by-side pairs (the first is the "
                "table's):",
                "",
                "| pair | naive loop s | defaults s | × naive loop |",
                "|---:|---:|---:|---:|",
            ]
            lines += [
                f"| {n} | {p['naive_s']:.1f} | {p['defaults_s']:.1f} | {p['ratio']:.2f} |"
                for n, p in enumerate(pairs, 1)
            ]
            ratios = sorted(p["ratio"] for p in pairs)
            median = float(np.median(ratios))
            lines += ["", f"Median {median:.2f}× (from {ratios[0]:.2f}× to {ratios[-1]:.2f}×).", ""]
        if naive:
            best = entry["cli"].get("defaults", entry["cli"]["openvino"])
            results[corpus] = {
                "speedup": naive["seconds"] / best["wall_s"],
                "forward_share": best["timings"]["forward_s"] / best["wall_s"],
                "pairs": len(pairs),
            }
            if len(pairs) > 1:
                results[corpus]["speedup"] = median
    held = next((c for c, e in report["corpora"].items() if e["role"] == "held out"), None)
    if held in results:
        r = results[held]
        agree = report["corpora"][held]["agreement"]["openvino"]["min"]
        over_pairs = f" (the median of {r['pairs']} pairs)" if r["pairs"] > 1 else ""
        lines += [
            f"## Targets (held-out corpus `{held}`, `wsd embed` "
            f"{'with the defaults' if 'defaults' in report['corpora'][held]['cli'] else '--runtime openvino'}, "
            "warm cache)",
            "",
            "| target | measured | met |",
            "|---|---|---|",
            f"| whole process ≥ 6× the naive loop | {r['speedup']:.2f}×{over_pairs} | "
            f"{'yes' if r['speedup'] >= 6 else '**no**'} |",
            f"| forward share of wall time ≥ 90% | {100 * r['forward_share']:.0f}% | "
            f"{'yes' if r['forward_share'] >= 0.9 else '**no**'} |",
            f"| vectors: cosine ≥ 0.999 to the naive fp32 loop | min {agree:.5f} | "
            f"{'yes' if agree >= 0.999 else '**no**'} |",
            "",
        ]
    lev = report.get("levers") or {}
    if lev:
        lines += ["## Levers (floor: bare forward pass, one changed at a time)", ""]
        lines += ["| lever | corpus | seconds | note | load avg |", "|---|---|---:|---|---:|"]
        for size, floor in lev["batch_sizes"].items():
            lines.append(
                f"| OpenVINO, batches of {size} | sotu (tuning) | {floor['seconds']:.1f} | "
                f"{floor['batches']} batches | {floor['load_average']:.1f} |"
            )
        dwug_floor = report["corpora"].get("dwug", {}).get("floor", {})
        for runtime, par in lev["parallel"].items():
            one = dwug_floor.get(runtime, {}).get("seconds")
            note = f"one 2-thread process: {one:.1f} s" if one else ""
            lines.append(
                f"| {runtime}: two 1-thread processes, half the batches each (slower part) | dwug | "
                f"{par['seconds']:.1f} | {note}; parts {', '.join(f'{s:.1f}' for s in par['parts'])} | "
                f"{par['load_average']:.1f} |"
            )
        comp = lev.get("compile", {})
        if "error" in comp:
            lines.append(f"| torch.compile (dynamic shapes), bf16 | dwug | – | did not run: {comp['error']} | |")
        elif comp:
            lines.append(
                f"| torch.compile (dynamic shapes), bf16 | dwug | {comp['seconds']:.1f} | compiling took "
                f"{comp['compile_s']:.1f} s more | |"
            )
        lines.append("")
    text = "\n".join(lines)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.md").write_text(text, encoding="utf-8")
    (RESULTS / f"{name}.json").write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
