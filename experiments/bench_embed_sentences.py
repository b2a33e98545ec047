"""Embedding single sentences, whole process: every runtime and precision of `auto` vs the defaults, the naive loop
and the bare forward pass, on one machine kind.

Two corpora of one sentence per line (issue 16, item 2):

- **tuning** (``sotu``): sentences split from the State of the Union addresses (``../shared/corpora``) that hold
  one of 20 ambiguous words (CoarseWSD-20 words and a few frequent ones), a seeded sample of ``--tune-lines``;
  the runtime's choices (batch size, threads vs processes) were made on it;
- **held out** (``dwug``): the 9,107 DWUG EN uses (``../shared/datasets/lscd/dwug_en``, single sentences of
  CCOHA), never used for a choice: the targets are measured on it.

On each corpus, side by side in one run (issue 42, part 3), each contender its own process, one after the other,
on the same threads:

- every **candidate** of ``auto``'s calibration (:func:`wsd.embed.calibration.candidates` on this machine: a
  candidate added there joins without editing this script), and ``--runtime openvino --precision int8`` (NNCF
  post-training quantisation, an explicit option) where the candidates lack it, each as ``wsd embed --runtime R
  --precision P``: the wall clock of the whole CLI process (start-up, model load, scan, tokenise, forward, pool,
  write), run twice, the first run (reported as *first use*) warming the caches (OpenVINO conversion, bytecode,
  files) and the second timed warm; a candidate that cannot run here is reported with its one-line error;
- the **defaults** (no ``--runtime`` or ``--precision``: ``auto``), first use and warm: the held-out corpus runs
  first, so its first use starts from an empty calibration cache and measures; which candidate ``auto`` chose, and
  the times its calibration measured, are recorded;
- the **naive loop** (held-out corpus): the tutorial loop of ``experiments/bench_embed.py`` (batch 1, whole
  sentence, fp32, hidden states);
- the **floor**: the bare forward pass of the fastest candidate over wsd's own batches (model loaded, nothing
  else), the limit of any process; its FLOPs are counted from the model's configuration and the padded batch
  shapes (matmuls 2 × the non-embedding weights per token, attention 4 · layers · hidden · length per token) and
  set against the matmul peak of its precision (torch, 2048², measured in the same run; none for int8);
- levers tried on the floor (not with ``--no-levers``): batch sizes (tuning corpus), ``torch.compile``, two
  one-thread processes vs one two-thread process.

The **fastest candidate** is the fastest warm process among the candidates whose stored vectors agree with
PyTorch fp32's (cosine ≥ :data:`wsd.embed.calibration.MIN_COSINE` for every occurrence). Reported: each
contender's time against the naive loop (× naive loop, naive time / contender time) and against the fastest
candidate (contender time / fastest time: the issue's "defaults within 10%" is a ratio ≤ 1.10), and the share of
each process spent outside the forward pass (1 − the forward seconds ``wsd embed`` recorded / wall seconds).
``--repeats N`` runs the naive loop and the defaults N times side by side on the held-out corpus (each
``wsd embed`` into a new folder), and the × naive target is read from the median ratio of the N pairs: the naive
loop's speed moved by a quarter between days.

The machine is recorded in the results file (CPU model, vendor, :data:`RELEVANT_FLAGS`, cores), and each machine
kind has its own file, ``bench_embed_sentences-<kind>.md`` and ``.json`` (:func:`machine_kind` derives the key
from the CPU's vendor, family and flags, e.g. ``amd-epyc-avx2``, ``intel-xeon-avx512bf16``), so that runs on
different kinds do not overwrite each other; ``index.md`` in the same folder lists the kinds measured, rebuilt
from the ``.json`` files after every run. The calibration cache and the OpenVINO cache are scratch folders of the
run (``$WSD_CALIBRATION`` is unset for the contenders: they run as a user's ``wsd embed`` does). The 1-minute
load average is printed with each figure (other jobs on the machine inflate every time).

    python -m experiments.bench_embed_sentences

``--quick`` is a smoke run of a few minutes (300 sentences of each corpus, no levers), written to a new
temporary folder unless ``--results`` names one; ``--held-out-lines N`` and ``--tune-lines N`` set the sizes.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
RESULTS = HERE / "results" / "bench_embed_sentences"
#: The stem of every results file: ``<STEM>-<machine kind>.md`` and ``.json``.
STEM = "bench_embed_sentences"
#: The page of the results folder that lists the machine kinds measured (rebuilt by :func:`write_index`).
INDEX = "index.md"

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
#: The name of the candidate every other is compared with, :data:`wsd.embed.calibration.REFERENCE` (not imported
#: here: the ``imports`` worker measures a fresh import of the CLI in a process that imports this module).
REFERENCE_NAME = "torch fp32"
#: Sentences of each corpus in a ``--quick`` run.
QUICK_LINES = 300

#: The issue's done-when: the defaults within 10% of the fastest candidate (a time ratio ≤ this).
DEFAULTS_WITHIN = 1.10
#: The issue's × naive loop targets (held-out corpus, the median of the pairs), by machine kind ...
NAIVE_TARGETS = {"amd-epyc-avx512bf16": 6.0, "intel-xeon-avx512bf16": 4.0}
#: ... and, for a kind not named there, by its tier (:func:`machine_kind`): an AVX2-only CPU.
NAIVE_TARGETS_BY_TIER = {"avx2": 5.0}
#: The forward share of the whole process that issue 16 asked of the warm runs.
FORWARD_SHARE_TARGET = 0.90


# ------------------------------------------------------------------------------------------ the machine kind
#: The CPU flags (as ``/proc/cpuinfo`` spells them) a results file records: those that decide which runtime and
#: precision is fast (AVX2 and AVX-512 for fp32, BF16/FP16/AMX for bf16, VNNI/AMX-INT8 for int8).
RELEVANT_FLAGS = (
    "avx2",
    "avx512f",
    "avx512_vnni",
    "avx_vnni",
    "avx512_bf16",
    "avx512_fp16",
    "amx_bf16",
    "amx_int8",
)
#: The tiers of :func:`machine_kind`, the most capable first: a CPU is in the first whose flags it has (any one).
TIERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("amx", ("amx_bf16", "amx_int8")),
    ("avx512bf16", ("avx512_bf16",)),
    ("avx512vnni", ("avx512_vnni",)),
    ("avx512", ("avx512f",)),
    ("avxvnni", ("avx_vnni",)),
    ("avx2", ("avx2",)),
)
#: The tier of a CPU with none of the flags of :data:`TIERS` (or whose platform lists no flags).
BASELINE_TIER = "baseline"
#: ``vendor_id`` of ``/proc/cpuinfo`` -> the vendor part of the key.
VENDORS = {"AuthenticAMD": "amd", "GenuineIntel": "intel"}
#: Words of a CPU model name that name its family (the middle part of the key, where the model names one).
FAMILIES = ("epyc", "ryzen", "threadripper", "opteron", "xeon", "core", "atom", "pentium", "celeron")


def machine_kind(vendor: str | None, model: str, flags: Collection[str], architecture: str = "x86_64") -> str:
    """The short key of a machine kind: ``<vendor>[-<family>]-<tier>``, lower case.

    ``vendor`` is ``amd`` or ``intel`` (from ``/proc/cpuinfo``'s ``vendor_id``, :data:`VENDORS`), else the
    architecture (``aarch64``); ``family`` is the first word of the CPU model name that is one of
    :data:`FAMILIES` (left out where none is); ``tier`` is the first of :data:`TIERS` whose flags the CPU has,
    else ``baseline``. Two machines of one key compute each precision with the same instructions, so their
    figures are comparable; the cores are not part of the key (the results file records them).

    Parameters
    ----------
    vendor : str or None
        ``vendor_id`` of ``/proc/cpuinfo`` (None where the platform does not say).
    model : str
        The CPU model name (:func:`wsd.machine.cpu_model`).
    flags : collection of str
        The CPU flags (:func:`wsd.machine.cpu_flags`).
    architecture : str
        :func:`platform.machine` (the vendor part where ``vendor`` is not known).

    Returns
    -------
    str

    Examples
    --------
    >>> machine_kind("AuthenticAMD", "AMD EPYC", {"avx", "avx2"})
    'amd-epyc-avx2'
    >>> machine_kind("GenuineIntel", "Intel(R) Xeon(R) Platinum 8488C", {"avx2", "avx512f", "avx512_bf16"})
    'intel-xeon-avx512bf16'
    >>> machine_kind(None, "unknown CPU", set(), "aarch64")
    'aarch64-baseline'
    """
    maker = VENDORS.get(vendor or "") or "-".join(re.findall(r"[a-z0-9]+", architecture.lower())) or "cpu"
    family = next((word for word in re.findall(r"[a-z]+", model.lower()) if word in FAMILIES), None)
    tier = next((name for name, needs in TIERS if any(flag in flags for flag in needs)), BASELINE_TIER)
    return "-".join(part for part in (maker, family, tier) if part)


def tier_of(kind: str) -> str:
    """The tier part of a :func:`machine_kind` key.

    Examples
    --------
    >>> tier_of("amd-epyc-avx2")
    'avx2'
    """
    return kind.rsplit("-", 1)[-1]


def naive_target(kind: str) -> float | None:
    """The issue's × naive loop target for a machine kind (None where it sets none).

    Examples
    --------
    >>> naive_target("amd-epyc-avx512bf16"), naive_target("intel-core-avx2"), naive_target("aarch64-baseline")
    (6.0, 5.0, None)
    """
    return NAIVE_TARGETS.get(kind, NAIVE_TARGETS_BY_TIER.get(tier_of(kind)))


def results_name(kind: str) -> str:
    """The results file stem of a machine kind: ``bench_embed_sentences-<kind>`` (``.md`` and ``.json``).

    Examples
    --------
    >>> results_name("amd-epyc-avx2")
    'bench_embed_sentences-amd-epyc-avx2'
    """
    return f"{STEM}-{kind}"


def cpu_vendor() -> str | None:
    """``vendor_id`` of ``/proc/cpuinfo`` (None where there is none)."""
    from wsd import machine

    try:
        text = machine.CPUINFO.read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "vendor_id":
            return value.strip()
    return None


def this_machine() -> dict[str, Any]:
    """What a results file records of the machine: its kind, CPU model, vendor, relevant flags and cores."""
    from wsd import machine

    flags = machine.cpu_flags()
    vendor, model = cpu_vendor(), machine.cpu_model()
    return {
        "kind": machine_kind(vendor, model, flags, platform.machine()),
        "cpu": model,
        "vendor": vendor,
        "architecture": platform.machine(),
        "flags": [flag for flag in RELEVANT_FLAGS if flag in flags],
        "usable_cores": machine.usable_cores(),
        "logical_cpus": machine.logical_cpus(),
        "describe": machine.describe(),
    }


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

    sentences: list[str] = []
    forms: dict[str, set[str]] = {}
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
    """The bare forward pass over wsd's own batches (the run's occurrences), in one runtime and precision."""
    import wsd
    from wsd.io.run_reader import load_run

    encoder = wsd.Encoder(runtime=args.runtime, precision=args.precision or "auto", batch_size=args.batch_size)
    occurrences, _ = load_run(args.run)
    inputs = encoder.model_inputs(occurrences["text"].tolist(), occurrences[["start", "end"]].to_numpy())
    batches: list[tuple[np.ndarray, np.ndarray]] = [(i.numpy(), m.numpy()) for i, m in inputs][args.part :: args.parts]
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
        "runtime": encoder.loaded.runtime,
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


# ------------------------------------------------------------------------------------------ contenders
def contenders() -> list[dict[str, str]]:
    """The runtimes and precisions measured: ``auto``'s candidates on this machine, then OpenVINO int8 if absent.

    Returns
    -------
    list of dict
        ``name`` (``"openvino fp32"``), ``runtime`` and ``precision``, in the order of
        :func:`wsd.embed.calibration.candidates` (the preferred first).
    """
    from wsd.embed.calibration import candidates

    found = [(c.runtime, c.precision) for c in candidates()]
    if ("openvino", "int8") not in found:  # --precision int8 (NNCF), an option outside auto's candidates
        found.append(("openvino", "int8"))
    return [
        {"name": f"{runtime} {precision}", "runtime": runtime, "precision": precision} for runtime, precision in found
    ]


def load_average() -> float:
    return os.getloadavg()[0]


#: Where the contenders' bytecode is cached (set by main): a user's Python caches compiled modules, so the
#: benchmark does too, whatever PYTHONDONTWRITEBYTECODE says, in a scratch folder (not in the checkout).
PYCACHE: list[Path] = []


def environment(threads: int, caches: Path | None = None) -> dict[str, str]:
    """The environment of a contender: ``threads`` threads; with ``caches``, the run's scratch OpenVINO and
    calibration caches, and the calibration on (as a user's ``wsd embed`` runs)."""
    env = dict(os.environ, TOKENIZERS_PARALLELISM="true", OMP_NUM_THREADS=str(threads))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if PYCACHE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE[0])
    if caches is not None:
        env["WSD_OPENVINO_CACHE"] = str(caches / "openvino")
        env["WSD_CALIBRATION_CACHE"] = str(caches / "calibration")
        env.pop("WSD_CALIBRATION", None)
    return env


def run_worker(name: str, threads: int, caches: Path | None = None, **options: Any) -> dict:
    """One worker of this script in a fresh process; its JSON report."""
    command = [sys.executable, "-m", "experiments.bench_embed_sentences", "--worker", name, "--threads", str(threads)]
    for key, value in options.items():
        if value is True:
            command.append(f"--{key.replace('_', '-')}")
        elif value not in (None, False):
            command += [f"--{key.replace('_', '-')}", str(value)]
    result = subprocess.run(command, capture_output=True, text=True, env=environment(threads, caches), cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"worker {name} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


class ContenderFailed(RuntimeError):
    """A ``wsd embed`` process of a contender ended with an error (its last line of standard error)."""


def run_cli(
    corpus: Path,
    targets: Path,
    out: Path,
    threads: int,
    caches: Path,
    runtime: str | None = None,
    precision: str | None = None,
) -> dict:
    """``wsd embed`` as a user runs it: the wall clock of the whole process, its stage timings, what it ran.

    ``runtime=None`` and ``precision=None`` pass neither flag: the defaults, as a user who sets nothing gets
    them (``auto``, calibrated).
    """
    command = [sys.executable, "-m", "wsd.cli", "embed", "--corpus", str(corpus), "--targets", str(targets)]
    command += ["--out", str(out), "--no-progress", "--overwrite"]
    command += ["--runtime", runtime] if runtime else []
    command += ["--precision", precision] if precision else []
    load = load_average()
    clock = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=environment(threads, caches), cwd=ROOT)
    wall = time.perf_counter() - clock
    if result.returncode != 0:
        lines = result.stderr.strip().splitlines() or [f"exit code {result.returncode}"]
        raise ContenderFailed(f"exit code {result.returncode}: {lines[-1]}")
    meta = json.loads((out / "meta.json").read_text())
    embedding = meta.get("embedding", {})
    return {
        "wall_s": wall,
        "load_average": load,
        "occurrences": meta["n_occurrences"],
        "timings": meta["timings"],
        "runtime": embedding.get("runtime"),
        "precision": embedding.get("precision"),
        "calibration": meta.get("calibration"),
    }


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
    if str(ROOT) not in sys.path:
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


def min_cosine_to(run: Path, reference: Path) -> float | None:
    """The least cosine, over the occurrences, between two runs' stored vectors (None where their occurrences
    differ: they cannot be compared row by row)."""
    from wsd.embed.calibration import row_cosines
    from wsd.io.run_reader import load_run

    (ours, a), (theirs, b) = load_run(run), load_run(reference)
    keys = ["doc_id", "start", "end"]
    if len(ours) != len(theirs) or not ours[keys].reset_index(drop=True).equals(theirs[keys].reset_index(drop=True)):
        return None
    return float(row_cosines(np.asarray(a), np.asarray(b)).min()) if len(ours) else None


def calibration_times(cli: Mapping[str, Any]) -> list[dict]:
    """The candidates' times that ``auto``'s calibration measured, from the cache entry a run names."""
    entry = Path((cli.get("calibration") or {}).get("cache", ""))
    try:
        return list(json.loads(entry.read_text(encoding="utf-8")).get("candidates", []))
    except (OSError, ValueError):
        return []


def measure_contender(
    corpus: Path,
    targets: Path,
    out: Path,
    threads: int,
    caches: Path,
    name: str,
    runtime: str | None = None,
    precision: str | None = None,
) -> dict:
    """A contender's two ``wsd embed`` processes: the first (warms the caches), then the warm one, which counts;
    the one-line error where it cannot run here."""
    found: dict[str, Any] = {"runtime": runtime, "precision": precision, "run": str(out)}
    try:
        found["first_use"] = run_cli(
            corpus, targets, out.with_name(out.name + "-first"), threads, caches, runtime, precision
        )
        found["warm"] = run_cli(corpus, targets, out, threads, caches, runtime, precision)
    except ContenderFailed as error:
        found["error"] = str(error)
        log(f"{name}: did not run ({error})")
        return found
    log(f"{name}: {found['warm']['wall_s']:.1f} s warm, {found['first_use']['wall_s']:.1f} s first use")
    return found


def measure_corpus(
    name: str, role: str, corpus: Path, targets: Path, folder: Path, caches: Path, args: argparse.Namespace
) -> dict:
    """Every contender of one corpus (the naive loop, the floor and the pairs on the held-out corpus only)."""
    from wsd.embed.calibration import MIN_COSINE, REFERENCE

    entry: dict[str, Any] = {"role": role, "lines": len(corpus.read_text(encoding="utf-8").splitlines())}
    entry["candidates"] = {
        c["name"]: measure_contender(
            corpus,
            targets,
            folder / f"{name}-{c['runtime']}-{c['precision']}",
            args.threads,
            caches,
            f"{name}: {c['name']}",
            c["runtime"],
            c["precision"],
        )
        for c in contenders()
    }
    entry["defaults"] = measure_contender(
        corpus, targets, folder / f"{name}-defaults", args.threads, caches, f"{name}: defaults"
    )
    if "error" in entry["defaults"]:
        raise RuntimeError(f"wsd embed with the defaults failed on {name}: {entry['defaults']['error']}")
    if role == "held out":  # measured first: the calibration ran in the defaults' first use here
        entry["defaults"]["calibration"] = calibration_times(entry["defaults"]["first_use"])
    reference = entry["candidates"][REFERENCE.name]
    if "error" in reference:
        raise RuntimeError(f"wsd embed --runtime torch --precision fp32 failed on {name}: {reference['error']}")
    entry["occurrences"] = reference["warm"]["occurrences"]
    for found in [*entry["candidates"].values(), entry["defaults"]]:
        if "warm" in found:
            found["min_cosine"] = min_cosine_to(Path(found["run"]), Path(reference["run"]))
    fastest = fastest_candidate(entry["candidates"], MIN_COSINE)
    log(f"{name}: fastest candidate {fastest}, the defaults ran {choice_of(entry['defaults'])}")
    if role != "held out":
        return entry
    naive_vectors = folder / f"{name}-naive.npy"
    entry["naive"] = run_naive(Path(reference["run"]), corpus, naive_vectors, args.threads)
    log(f"{name}: naive loop {entry['naive']['seconds']:.1f} s")
    entry["agreement"] = {
        label: agreement(Path(found["run"]), corpus, naive_vectors)
        for label, found in ((REFERENCE.name, reference), ("defaults", entry["defaults"]))
    }
    if fastest is not None:
        best = entry["candidates"][fastest]
        try:
            entry["floor"] = run_worker(
                "floor",
                args.threads,
                caches,
                run=reference["run"],
                runtime=best["runtime"],
                precision=best["precision"],
            ) | {"load_average": load_average(), "candidate": fastest}
            log(f"{name}: floor ({fastest}) {entry['floor']['seconds']:.1f} s")
        except RuntimeError as error:  # unattended: the rest of the run goes on, the report says why
            entry["floor_error"] = f"{fastest}: {str(error).strip().splitlines()[-1]}"
            log(f"{name}: floor did not run ({entry['floor_error']})")
    entry["repeats"] = repeat_pairs(entry, folder, name, corpus, targets, args.threads, caches, args.repeats)
    return entry


def repeat_pairs(
    entry: dict, folder: Path, name: str, corpus: Path, targets: Path, threads: int, caches: Path, repeats: int
) -> list[dict]:
    """``repeats`` side-by-side pairs (the main run's first, then ``wsd embed`` with the defaults and the naive
    loop again, one after the other): the speed of each, so that the ratio is read from more than one pair."""
    defaults = entry["defaults"]["warm"]
    first = {"naive_s": entry["naive"]["seconds"], "defaults_s": defaults["wall_s"]}
    first["load_average"] = [entry["naive"]["load_average"], defaults["load_average"]]
    pairs = [first]
    reference = Path(entry["candidates"][REFERENCE_NAME]["run"])
    for number in range(1, repeats):
        # a new folder: the same configuration in the same folder would resume the finished run, not embed again
        again = run_cli(corpus, targets, folder / f"{name}-defaults-{number}", threads, caches)
        naive = run_naive(reference, corpus, folder / f"{name}-naive-{number}.npy", threads)
        pairs.append(
            {
                "naive_s": naive["seconds"],
                "defaults_s": again["wall_s"],
                "load_average": [naive["load_average"], again["load_average"]],
            }
        )
        log(f"{name}: pair {number + 1} of {repeats}: {naive['seconds'] / again['wall_s']:.2f}x")
    for pair in pairs:
        pair["ratio"] = pair["naive_s"] / pair["defaults_s"]
    return pairs


FLOOR_COMMAND = [sys.executable, "-m", "experiments.bench_embed_sentences", "--worker", "floor", "--threads", "1"]


def levers(tuning_run: Path, held_run: Path, caches: Path, threads: int) -> dict:
    """Floor-level levers: batch sizes (tuning corpus), torch.compile, two 1-thread processes (held-out corpus)."""
    out: dict = {"batch_sizes": {}, "parallel": {}}
    for size in (16, 32, 64):
        out["batch_sizes"][size] = run_worker(
            "floor", threads, caches, run=tuning_run, runtime="openvino", batch_size=size
        ) | {"load_average": load_average()}
    log("levers: batch sizes done")
    for runtime in ("openvino", "torch"):
        started = time.perf_counter()
        processes = [
            subprocess.Popen(
                [*FLOOR_COMMAND, "--run", str(held_run), "--runtime", runtime, "--part", str(part), "--parts", "2"],
                stdout=subprocess.PIPE,
                text=True,
                env=environment(1, caches),
                cwd=ROOT,
            )
            for part in range(2)
        ]
        reports = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in processes]
        out["parallel"][runtime] = {
            "seconds": max(r["seconds"] for r in reports),
            "parts": [r["seconds"] for r in reports],
            "precision": reports[0]["precision"],
            "wall_s": time.perf_counter() - started,
            "load_average": load_average(),
        }
    log("levers: processes done")
    for runtime in ("openvino", "torch"):  # the same as one 2-thread process, for the comparison
        out["parallel"][runtime]["one_process_s"] = run_worker("floor", threads, caches, run=held_run, runtime=runtime)[
            "seconds"
        ]
    try:
        out["compile"] = run_worker("floor", threads, caches, run=held_run, runtime="torch", compile=True)
    except RuntimeError as error:  # torch.compile needs a C compiler; report why it did not run
        out["compile"] = {"error": str(error).strip().splitlines()[-1]}
    return out


def log(message: str) -> None:
    """One line on standard error: the time, the message, the 1-minute load average."""
    print(f"[{time.strftime('%H:%M:%S')}] {message} (load average {load_average():.1f})", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------ arithmetic
def warm_seconds(found: Mapping[str, Any]) -> float | None:
    """A contender's warm wall seconds (None where it did not run)."""
    return found["warm"]["wall_s"] if "warm" in found else None


def fastest_candidate(candidates: Mapping[str, Mapping[str, Any]], min_cosine: float) -> str | None:
    """The candidate whose warm process was the fastest among those that ran and whose vectors agree.

    Parameters
    ----------
    candidates : mapping
        Name -> what :func:`measure_contender` found (``warm`` and ``min_cosine`` where it ran).
    min_cosine : float
        The least cosine to PyTorch fp32's vectors, over every occurrence, of an agreeing candidate.

    Returns
    -------
    str or None
        The name; None where no candidate ran and agreed.

    Examples
    --------
    >>> ran = {"a": {"warm": {"wall_s": 3.0}, "min_cosine": 1.0}, "b": {"warm": {"wall_s": 2.0}, "min_cosine": 0.9},
    ...        "c": {"error": "exit code 2: int8 needs VNNI"}}
    >>> fastest_candidate(ran, 0.99)
    'a'
    """
    agreeing = {
        name: seconds
        for name, found in candidates.items()
        if (seconds := warm_seconds(found)) is not None and (found.get("min_cosine") or 0.0) >= min_cosine
    }
    return min(agreeing, key=lambda name: agreeing[name]) if agreeing else None


def outside_forward(cli: Mapping[str, Any]) -> float:
    """The share of a ``wsd embed`` process's wall time spent outside the forward pass (the model calls).

    Examples
    --------
    >>> outside_forward({"wall_s": 40.0, "timings": {"forward_s": 30.0}})
    0.25
    """
    return 1.0 - cli["timings"].get("forward_s", 0.0) / cli["wall_s"]


def choice_of(defaults: Mapping[str, Any]) -> str | None:
    """``"<runtime> <precision>"`` the defaults' warm process ran (``auto``'s choice), None where it did not run.

    Examples
    --------
    >>> choice_of({"warm": {"runtime": "openvino", "precision": "fp32"}})
    'openvino fp32'
    """
    warm = defaults.get("warm")
    return f"{warm['runtime']} {warm['precision']}" if warm else None


def summarise(entry: Mapping[str, Any], min_cosine: float) -> dict[str, Any]:
    """The ratios of one corpus: the defaults against the fastest candidate, the naive loop and the floor.

    Parameters
    ----------
    entry : mapping
        A corpus of the report: ``candidates``, ``defaults`` and, on the held-out corpus, ``naive``, ``floor``,
        ``repeats``.
    min_cosine : float
        As :func:`fastest_candidate` takes it.

    Returns
    -------
    dict
        ``fastest`` (its name or None), ``fastest_s``, ``defaults_s``, ``choice`` (what the defaults ran),
        ``defaults_vs_fastest`` (defaults time / fastest time: ≤ :data:`DEFAULTS_WITHIN` is the issue's "within
        10%"), ``outside_forward_defaults`` and ``outside_forward_fastest`` (:func:`outside_forward`), and where
        measured ``naive_s``, ``defaults_x_naive`` (naive time / defaults time: the median of the pairs where
        there are several), ``fastest_x_naive``, ``floor_s``, ``floor_x_naive``, ``defaults_over_floor`` and
        ``fastest_over_floor`` (wall time / bare forward pass), ``pairs``.

    Examples
    --------
    >>> entry = {"candidates": {"torch fp32": {"warm": {"wall_s": 50.0, "timings": {"forward_s": 40.0}},
    ...                                        "min_cosine": 1.0}},
    ...          "defaults": {"warm": {"wall_s": 55.0, "timings": {"forward_s": 44.0}, "runtime": "torch",
    ...                                "precision": "fp32"}},
    ...          "naive": {"seconds": 200.0}, "floor": {"seconds": 40.0},
    ...          "repeats": [{"ratio": 3.6}, {"ratio": 4.0}, {"ratio": 3.8}]}
    >>> found = summarise(entry, 0.99)
    >>> found["defaults_vs_fastest"], found["defaults_x_naive"], found["fastest_x_naive"], found["fastest_over_floor"]
    (1.1, 3.8, 4.0, 1.25)
    """
    fastest = fastest_candidate(entry["candidates"], min_cosine)
    defaults = entry["defaults"]["warm"]
    found: dict[str, Any] = {
        "fastest": fastest,
        "choice": choice_of(entry["defaults"]),
        "defaults_s": defaults["wall_s"],
        "outside_forward_defaults": outside_forward(defaults),
    }
    best = entry["candidates"][fastest]["warm"] if fastest is not None else None
    if best is not None:
        found |= {
            "fastest_s": best["wall_s"],
            "defaults_vs_fastest": defaults["wall_s"] / best["wall_s"],
            "outside_forward_fastest": outside_forward(best),
        }
    naive = entry.get("naive")
    if naive:
        ratios = [pair["ratio"] for pair in entry.get("repeats") or []]
        found |= {
            "naive_s": naive["seconds"],
            "defaults_x_naive": float(np.median(ratios)) if len(ratios) > 1 else naive["seconds"] / defaults["wall_s"],
            "pairs": max(1, len(ratios)),
        }
        if best is not None:
            found["fastest_x_naive"] = naive["seconds"] / best["wall_s"]
    floor = entry.get("floor")
    if floor:
        found["floor_s"] = floor["seconds"]
        found["defaults_over_floor"] = defaults["wall_s"] / floor["seconds"]
        if best is not None:
            found["fastest_over_floor"] = best["wall_s"] / floor["seconds"]
        if naive:
            found["floor_x_naive"] = naive["seconds"] / floor["seconds"]
    return found


def breakdown(cli: Mapping[str, Any]) -> dict[str, float]:
    """Where the wall time of a ``wsd embed`` process went (seconds; tokenising overlaps the forward pass).

    The rows add up to the wall time, less the tokenising (in a helper thread): ``other`` is what the stages do
    not name (planning, the calibration or its cache, the summary).

    Examples
    --------
    >>> cli = {"wall_s": 10.0, "timings": {"total_s": 9.0, "load_s": 1.0, "scan_s": 0.5, "tokenize_s": 0.5,
    ...        "encode_s": 6.5, "forward_s": 6.0, "write_s": 0.5}}
    >>> parts = breakdown(cli)
    >>> parts["start-up (interpreter, imports, CLI)"], parts["pool and gather"], parts["other"]
    (1.0, 0.5, 0.5)
    """
    t = cli["timings"]
    forward, compile_s = t.get("forward_s", 0.0), t.get("compile_s", 0.0)
    parts = {
        "start-up (interpreter, imports, CLI)": cli["wall_s"] - t["total_s"],
        "model load": t.get("load_s", 0.0),
        "convert + compile": compile_s,
        "scan": t.get("scan_s", 0.0),
        "tokenise (helper thread)": t.get("tokenize_s", 0.0),
        "forward": forward,
        "pool and gather": t.get("encode_s", 0.0) - forward - compile_s,
        "write": t.get("write_s", 0.0),
    }
    named = sum(
        v for k, v in parts.items() if k not in ("start-up (interpreter, imports, CLI)", "tokenise (helper thread)")
    )
    parts["other"] = t["total_s"] - named
    return parts


def model_flops(padded_tokens: int, token_squares: int) -> float:
    """FLOPs of the bundled model's forward pass over batches with these padded shapes."""
    from wsd.embed.models import bundled_model_path

    config = json.loads((bundled_model_path() / "config.json").read_text())
    hidden, inner, layers = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
    weights = layers * (4 * hidden * hidden + 2 * hidden * inner)  # Q, K, V, O and the two FFN matrices
    return 2.0 * weights * padded_tokens + 4.0 * layers * hidden * token_squares


# ------------------------------------------------------------------------------------------ results
def software() -> dict[str, str]:
    """The machine line and the versions of torch and OpenVINO, recorded with the report when it is measured."""
    from wsd import machine

    versions = {name: machine.library_version(name) or "absent" for name in ("torch", "openvino")}
    return {"machine": machine.describe()} | versions


def _gflops(value: float | None) -> str:
    return "not measured (emulated on this CPU)" if value is None else f"{value:.0f} GFLOP/s"


def _peak(matmul: Mapping[str, Any], precision: str) -> float | None:
    """The measured matmul peak of a precision (None for one without a measured peak, such as int8)."""
    return matmul.get(f"{precision}_gflops") if precision in ("bf16", "fp32") else None


def _x(value: float | None, digits: int = 2, suffix: str = "") -> str:
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _flags(runtime: str | None, precision: str | None) -> str:
    """A contender's flags as the user types them (the defaults: none)."""
    if runtime is None and precision is None:
        return "`wsd embed` with the defaults"
    return f"`wsd embed --runtime {runtime} --precision {precision}`"


def corpus_lines(corpus: str, entry: Mapping[str, Any], matmul: Mapping[str, Any], min_cosine: float) -> list[str]:
    """The section of one corpus: contenders side by side, where the time went, the floor, agreement, pairs."""
    summary = summarise(entry, min_cosine)
    fastest, naive = summary["fastest"], entry.get("naive")
    fastest_s = summary.get("fastest_s")
    lines = [
        f"## `{corpus}` ({entry['role']} corpus): {entry['lines']} sentences, {entry['occurrences']} occurrences",
        "",
        "Each `wsd embed` is a whole process with warm caches (the second of two runs; *first use* is the first). "
        "× naive loop: the naive loop's time / the contender's; × fastest: the contender's time / the fastest "
        "candidate's; outside forward: the share of the wall time outside the forward pass; min cosine: stored "
        "vectors against `--runtime torch --precision fp32`'s, over every occurrence.",
        "",
        "| contender | wall s | × naive loop | × fastest | outside forward | first use s | min cosine | load avg |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def row(label: str, seconds: float, outside: str, first: str, cosine: str, load: float) -> str:
        speed = _x(naive["seconds"] / seconds) if naive else "–"
        versus = _x(seconds / fastest_s) if fastest_s else "–"
        return f"| {label} | {seconds:.1f} | {speed} | {versus} | {outside} | {first} | {cosine} | {load:.1f} |"

    if naive:
        lines.append(
            row("naive loop (batch 1, whole sentence, fp32, hidden states; model load excluded)", naive["seconds"],
                "–", "–", "–", naive["load_average"])
        )  # fmt: skip
    for name, found in [*entry["candidates"].items(), ("defaults", entry["defaults"])]:
        label = _flags(found["runtime"], found["precision"])
        if name == "defaults":
            label += f" (`auto` chose {summary['choice']})"
        else:
            notes = [
                note
                for note, holds in (("fastest", name == fastest), ("auto's choice", name == summary["choice"]))
                if holds
            ]
            label += f" (**{', '.join(notes)}**)" if notes else ""
        if "error" in found:
            lines.append(f"| {label} | did not run: {found['error']} | | | | | | |")
            continue
        warm = found["warm"]
        lines.append(
            row(label, warm["wall_s"], _pct(outside_forward(warm)), f"{found['first_use']['wall_s']:.1f}",
                _x(found.get("min_cosine"), 5), warm["load_average"])
        )  # fmt: skip
    floor = entry.get("floor")
    if "floor_error" in entry:
        lines.append(
            f"| floor: bare forward pass of the fastest candidate | did not run: {entry['floor_error']} |||||||"
        )
    if floor:
        lines.append(
            row(f"floor: bare forward pass of the fastest candidate ({floor['candidate']})", floor["seconds"], "0%",
                "–", "–", floor["load_average"])
        )  # fmt: skip
    ran = {name: found["warm"] for name, found in entry["candidates"].items() if "warm" in found}
    ran["defaults"] = entry["defaults"]["warm"]
    parts = {name: breakdown(cli) for name, cli in ran.items()}
    stages = list(next(iter(parts.values())))
    lines += ["", "Where the wall time of each warm `wsd embed` process went (seconds):", ""]
    lines += ["| stage | " + " | ".join(parts) + " |", "|---|" + "---:|" * len(parts)]
    lines += [f"| {stage} | " + " | ".join(f"{parts[n][stage]:.2f}" for n in parts) + " |" for stage in stages]
    lines += ["| **wall** | " + " | ".join(f"**{cli['wall_s']:.2f}**" for cli in ran.values()) + " |", ""]
    times = entry["defaults"].get("calibration") or []
    if times:
        from wsd.embed.calibration import Measurement

        when = (entry["defaults"]["first_use"].get("calibration") or {}).get("measured_at", "–")
        measured = ", ".join(Measurement.from_dict(t).describe() for t in times)
        lines += [
            f"`auto`'s calibration (measured {when}, on the bundled demo's windows, in the first use of the "
            f"defaults): {measured}; it chose {summary['choice']}.",
            "",
        ]
    if floor:
        flops = model_flops(floor["padded_tokens"], floor["token_squares"])
        rate = flops / floor["seconds"] / 1e9
        peak = _peak(matmul, floor["precision"])
        of_peak = (
            f"{100 * rate / peak:.0f}% of the {floor['precision']} peak"
            if peak
            else "no measured peak of its precision"
        )
        inside = ran.get(floor["candidate"], {}).get("timings", {}).get("forward_s")
        lines += [
            f"The floor ({floor['candidate']}, {floor['tokens']} tokens, {floor['padded_tokens']} padded, "
            f"{floor['batches']} batches): {flops / 1e12:.2f} TFLOP (2 × non-embedding weights per padded token + "
            f"attention 4·layers·hidden·length) in {floor['seconds']:.1f} s, {rate:.0f} GFLOP/s, {of_peak}"
            + (f"; inside `wsd embed` the same forward pass took {inside:.1f} s" if inside else "")
            + ".",
            "",
        ]
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
        ratios = sorted(p["ratio"] for p in pairs)
        lines += [
            f"The naive loop and `wsd embed` with the defaults, {len(pairs)} side-by-side pairs (the first is the "
            "table's):",
            "",
            "| pair | naive loop s | defaults s | × naive loop | load avg |",
            "|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {n} | {p['naive_s']:.1f} | {p['defaults_s']:.1f} | {p['ratio']:.2f} | "
            f"{' / '.join(f'{x:.1f}' for x in p['load_average'])} |"
            for n, p in enumerate(pairs, 1)
        ]
        lines += ["", f"Median {np.median(ratios):.2f}× (from {ratios[0]:.2f}× to {ratios[-1]:.2f}×).", ""]
    return lines


def target_lines(corpus: str, summary: Mapping[str, Any], kind: str, agree: Mapping[str, Any] | None) -> list[str]:
    """The issue's figures of the held-out corpus, each against its target where it has one."""

    def met(holds: bool | None) -> str:
        return "–" if holds is None else ("yes" if holds else "**no**")

    versus = summary.get("defaults_vs_fastest")
    target = naive_target(kind)
    speed = summary.get("defaults_x_naive")
    over = f" (the median of {summary['pairs']} pairs)" if summary.get("pairs", 1) > 1 else ""
    rows = [
        (
            f"the defaults within {100 * (DEFAULTS_WITHIN - 1):.0f}% of the fastest candidate (time ratio ≤ "
            f"{DEFAULTS_WITHIN:.2f})",
            f"{_x(versus, 3)} (the defaults ran {summary['choice']}, {summary['defaults_s']:.1f} s; fastest "
            f"{summary['fastest']}, {_x(summary.get('fastest_s'), 1)} s)",
            met(None if versus is None else versus <= DEFAULTS_WITHIN),
        ),
        (
            f"the defaults ≥ {target:.0f}× the naive loop (this kind's target)" if target else
            "the defaults × the naive loop (no target for this kind)",
            f"{_x(speed)}×{over}" + (f"; the fastest candidate {_x(summary.get('fastest_x_naive'))}×" if speed else ""),
            met(None if target is None or speed is None else speed >= target),
        ),
        (
            "share of the process outside the forward pass",
            f"defaults {_pct(summary['outside_forward_defaults'])}, fastest candidate "
            f"{_pct(summary.get('outside_forward_fastest'))}",
            met(None),
        ),
        (
            f"forward share of the defaults' wall time ≥ {100 * FORWARD_SHARE_TARGET:.0f}% (issue 16)",
            _pct(1 - summary["outside_forward_defaults"]),
            met(1 - summary["outside_forward_defaults"] >= FORWARD_SHARE_TARGET),
        ),
        (
            "the bare forward pass of the fastest candidate (the limit)",
            f"{_x(summary.get('floor_s'), 1)} s, {_x(summary.get('floor_x_naive'))}× the naive loop; the defaults "
            f"take {_x(summary.get('defaults_over_floor'))}× its time, the fastest candidate "
            f"{_x(summary.get('fastest_over_floor'))}×",
            met(None),
        ),
    ]  # fmt: skip
    if agree:
        rows.append(
            ("the defaults' vectors: cosine ≥ 0.999 to the naive fp32 loop", f"min {agree['min']:.5f}",
             met(agree["min"] >= 0.999))
        )  # fmt: skip
    lines = [f"## Held-out corpus `{corpus}`: the issue's figures (warm `wsd embed` processes)", ""]
    lines += ["| figure | measured | met |", "|---|---|---|"]
    return [*lines, *(f"| {a} | {b} | {c} |" for a, b, c in rows), ""]


def lever_lines(lev: Mapping[str, Any]) -> list[str]:
    """The levers' table (floor: the bare forward pass, one thing changed at a time)."""
    if "error" in lev:
        return ["## Levers", "", f"Did not run: {lev['error']}", ""]
    lines = ["## Levers (floor: bare forward pass, one changed at a time)", ""]
    lines += ["| lever | corpus | seconds | note | load avg |", "|---|---|---:|---|---:|"]
    for size, floor in lev["batch_sizes"].items():
        lines.append(
            f"| OpenVINO {floor['precision']}, batches of {size} | sotu (tuning) | {floor['seconds']:.1f} | "
            f"{floor['batches']} batches | {floor['load_average']:.1f} |"
        )
    for runtime, par in lev["parallel"].items():
        lines.append(
            f"| {runtime} {par['precision']}: two 1-thread processes, half the batches each (slower part) | dwug | "
            f"{par['seconds']:.1f} | one 2-thread process: {par['one_process_s']:.1f} s; parts "
            f"{', '.join(f'{s:.1f}' for s in par['parts'])} | {par['load_average']:.1f} |"
        )
    comp = lev.get("compile", {})
    if "error" in comp:
        lines.append(f"| torch.compile (dynamic shapes) | dwug | – | did not run: {comp['error']} | |")
    elif comp:
        lines.append(
            f"| torch.compile (dynamic shapes), {comp['precision']} | dwug | {comp['seconds']:.1f} | compiling took "
            f"{comp['compile_s']:.1f} s more | |"
        )
    return [*lines, ""]


def write(report: dict, name: str, folder: Path = RESULTS) -> str:
    """Write ``<name>.md`` and ``.json`` into ``folder`` from a report, and rebuild the folder's index.

    Returns
    -------
    str
        The Markdown written.
    """
    from wsd.embed.calibration import MIN_COSINE

    recorded = report.setdefault("software", software())
    kind_facts = report.setdefault("machine", this_machine())
    matmul = report["matmul"]
    flags = ", ".join(kind_facts["flags"]) or "none of " + ", ".join(RELEVANT_FLAGS)
    lines = [
        "# Embedding single sentences: every candidate of `auto`, the defaults, the naive loop and the forward "
        f"floor, on `{kind_facts['kind']}`",
        "",
        f"- Command: `{report['command']}`",
        f"- Measured: {report['date']} ({report['seconds']:.0f} s"
        f"{', a --quick smoke run' if report.get('quick') else ''})",
        f"- Machine kind: `{kind_facts['kind']}`: {kind_facts['cpu']} ({kind_facts['vendor'] or 'vendor not listed'}, "
        f"{kind_facts['architecture']}); flags {flags}; {kind_facts['usable_cores']} usable cores of "
        f"{kind_facts['logical_cpus']} logical CPUs",
        f"- Software: torch {recorded['torch']}, OpenVINO {recorded['openvino']}; {report['threads']} threads; the "
        "bundled all-MiniLM-L6-v2",
        f"- Matmul peak (torch, 2048², the better of a measurement at the start and one at the end): bf16 "
        f"{_gflops(matmul['bf16_gflops'])}, fp32 {_gflops(matmul['fp32_gflops'])} (load average "
        f"{matmul['load_average']:.1f}); imports of the CLI and pipeline in a fresh process: "
        f"{report['imports']['seconds']:.2f} s (torch imported: {report['imports']['torch']})",
        "",
        "Each figure gives the 1-minute load average when it started: above the number of threads, other jobs "
        "were running and the times are inflated.",
        "",
    ]
    held = next((c for c, e in report["corpora"].items() if e.get("role") == "held out" and "candidates" in e), None)
    if held is not None:
        entry = report["corpora"][held]
        report["summary"] = summarise(entry, MIN_COSINE) | {"corpus": held}
        lines += target_lines(
            held, report["summary"], kind_facts["kind"], (entry.get("agreement") or {}).get("defaults")
        )
    for corpus, entry in report["corpora"].items():
        if "error" in entry:
            lines += [f"## `{corpus}` ({entry['role']} corpus)", "", f"Did not run: {entry['error']}", ""]
        else:
            lines += corpus_lines(corpus, entry, matmul, MIN_COSINE)
    if report.get("levers"):
        lines += lever_lines(report["levers"])
    text = "\n".join(lines)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(text, encoding="utf-8")
    (folder / f"{name}.json").write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    write_index(folder)
    return text


def write_index(folder: Path = RESULTS) -> Path:
    """Rebuild ``index.md`` of a results folder: the machine kinds measured (one file each), then earlier files.

    Parameters
    ----------
    folder : path
        The results folder.

    Returns
    -------
    path
        The index written.
    """
    lines = [
        "# Embedding single sentences: the machine kinds measured",
        "",
        "One results file per machine kind, `bench_embed_sentences-<kind>.md` (and `.json`), written by "
        "`python -m experiments.bench_embed_sentences` on that kind; this page is rebuilt from the `.json` files "
        "after every run. The kind is `<vendor>[-<family>]-<tier>`: the vendor from the CPU's `vendor_id` (`amd`, "
        "`intel`; else the architecture), the family from its model name (`epyc`, `xeon`, `core`, ...; left out "
        "where it names none), and the tier from its flags, the first of "
        + ", ".join(f"`{name}` ({' or '.join(needs)})" for name, needs in TIERS)
        + f", else `{BASELINE_TIER}`. Held-out corpus, warm processes; × fastest is the defaults' time / the "
        "fastest candidate's (the target is at most "
        f"{DEFAULTS_WITHIN:.2f}); × naive loop is the defaults' speed over the naive loop's (the median of the "
        "pairs where there are several).",
        "",
        "| kind | results | CPU | flags | cores | measured | `auto` chose | fastest candidate | × fastest | "
        "× naive loop |",
        "|---|---|---|---|---:|---|---|---|---:|---:|",
    ]
    earlier = []
    for path in sorted(folder.glob(f"{STEM}*.json")):
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        facts = report.get("machine") if isinstance(report, dict) else None
        if not isinstance(facts, dict) or "kind" not in facts:
            earlier.append(path.with_suffix(".md"))
            continue
        summary = report.get("summary") or {}
        quick = " (quick)" if report.get("quick") else ""
        lines.append(
            f"| `{facts['kind']}` | [{path.stem}.md]({path.stem}.md){quick} | {facts['cpu']} | "
            f"{', '.join(facts['flags']) or '–'} | {facts['usable_cores']} | {report.get('date', '–')} | "
            f"{summary.get('choice') or '–'} | {summary.get('fastest') or '–'} | "
            f"{_x(summary.get('defaults_vs_fastest'), 3)} | {_x(summary.get('defaults_x_naive'))} |"
        )
    if not lines[-1].startswith("| `"):  # no kind measured yet: no table
        lines[-2:] = ["No machine kind measured yet."]
    earlier = [path for path in earlier if path.is_file()]
    if earlier:
        lines += [
            "",
            "Earlier files (one per run, before one file per machine kind; their machine as each records it):",
            "",
        ]
        for path in earlier:
            said = next((ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("Machine:")), "")
            machine_line = "; ".join(part.strip() for part in said.removeprefix("Machine:").split(";")[:2])
            lines.append(f"- [{path.name}]({path.name}){': ' + machine_line if machine_line else ''}")
    index = folder / INDEX
    index.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index


# ------------------------------------------------------------------------------------------ main
def positive(text: str) -> int:
    """An integer of at least 1 (an argparse type: anything else is one line and exit code 2)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options of the benchmark (and of its workers: hidden)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=Path(os.environ.get("WSD_DATASETS", SHARED / "datasets")))
    parser.add_argument("--corpora", type=Path, default=SHARED / "corpora")
    parser.add_argument("--tune-lines", type=positive, help="sentences of the tuning corpus (SOTU; default 10000)")
    parser.add_argument("--held-out-lines", type=positive, help="use only the first N DWUG uses (default: all)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"a smoke run: {QUICK_LINES} sentences of each corpus (unless given), no levers, written to a new "
        "temporary folder unless --results is given",
    )
    parser.add_argument("--threads", type=positive, default=2)
    parser.add_argument("--no-levers", action="store_true", help="skip the levers (batch sizes, compile, processes)")
    parser.add_argument(
        "--name", help="results file name without suffix (default: bench_embed_sentences-<machine kind>)"
    )
    parser.add_argument("--results", type=Path, help=f"the folder written (default: {RESULTS.relative_to(ROOT)})")
    parser.add_argument(
        "--repeats",
        type=positive,
        default=1,
        help="side-by-side pairs of the naive loop and `wsd embed` with the defaults on the held-out corpus "
        "(the first is the main run's; the target is read from their median ratio)",
    )
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    for hidden in ("run", "runtime", "precision"):
        parser.add_argument(f"--{hidden}", help=argparse.SUPPRESS)
    parser.add_argument("--batch-size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--part", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--parts", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--compile", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.held_out_lines = args.held_out_lines or QUICK_LINES
        args.tune_lines = args.tune_lines or QUICK_LINES
        args.no_levers = True
    args.tune_lines = args.tune_lines or 10000
    if args.results is None:
        args.results = Path(tempfile.mkdtemp(prefix=f"{STEM}-quick-")) if args.quick else RESULTS
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark (or one of its workers) and write the results file of this machine kind."""
    args = parse_args(argv)
    if args.worker:
        if args.worker != "imports":
            import torch

            torch.set_num_threads(args.threads)
        print(json.dumps(WORKERS[args.worker](args)))
        return

    command = "python -m experiments.bench_embed_sentences " + " ".join(sys.argv[1:] if argv is None else argv)
    report: dict = {"command": command.strip(), "threads": args.threads, "quick": args.quick, "corpora": {}}
    report["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    report["software"], report["machine"] = software(), this_machine()
    name = args.name or results_name(report["machine"]["kind"])
    log(f"machine kind {report['machine']['kind']}: results in {args.results / name}.md")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        caches = folder / "caches"
        PYCACHE[:] = [folder / "pycache"]
        report["matmul"] = run_worker("matmul", args.threads) | {"load_average": load_average()}
        report["imports"] = run_worker("imports", args.threads)
        corpora = {
            "dwug": ("held out", lambda: dwug_corpus(args.datasets, folder, args.held_out_lines)),
            "sotu": ("tuning", lambda: sotu_corpus(args.corpora, args.tune_lines, folder)),
        }
        for corpus_name, (role, make) in corpora.items():
            try:
                corpus, targets = make()
                report["corpora"][corpus_name] = measure_corpus(
                    corpus_name, role, corpus, targets, folder, caches, args
                )
            except (RuntimeError, OSError, KeyError) as error:  # unattended: the other corpus still runs
                if role == "held out":
                    raise
                report["corpora"][corpus_name] = {"role": role, "error": str(error).strip().splitlines()[-1]}
            log(f"{corpus_name}: done ({time.perf_counter() - started:.0f} s)")
        if not args.no_levers and all("candidates" in e for e in report["corpora"].values()):
            try:
                report["levers"] = levers(
                    Path(report["corpora"]["sotu"]["candidates"][REFERENCE_NAME]["run"]),
                    Path(report["corpora"]["dwug"]["candidates"][REFERENCE_NAME]["run"]),
                    caches,
                    args.threads,
                )
            except (RuntimeError, OSError, ValueError) as error:
                report["levers"] = {"error": str(error).strip().splitlines()[-1]}
        # the peak is a maximum: measured again at the end, the better of the two counts (other jobs lower it)
        again = run_worker("matmul", args.threads) | {"load_average": load_average()}
        report["matmul_runs"] = [report["matmul"], again]
        report["matmul"] = max(report["matmul_runs"], key=lambda m: m["bf16_gflops"] or m["fp32_gflops"])
    report["seconds"] = time.perf_counter() - started
    print(write(report, name, args.results))
    log(f"written {args.results / name}.md and .json, and {args.results / INDEX}")


if __name__ == "__main__":
    main()
