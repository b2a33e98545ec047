"""End to end at corpus scale: scan → embed → cluster → change on dated corpora and a synthetic million-use word.

Every stage runs in a fresh Python process of its own, so its time and its peak resident memory (``VmHWM``)
belong to that stage alone; the table gives both per stage and size, and how they grow from the smallest size
up (time per 1,000 occurrences, and peak RSS, each as a ratio to the smallest size's).

**Real corpora** (``../shared/corpora``, JSON lines with a ``year``): SOTU (English: the State of the Union
addresses, targets ``state,power,interest,bank,plant``, the bundled MiniLM) and RusLit (Russian literature,
targets ``дело,лицо,свет,мир,власть,язык,ключ,замок``, the multilingual encoder given by
``--multilingual-model``, by default ``/work/models/multilingual-e5-small-q4``; where that folder is absent
RusLit is skipped and the results say so). A corpus is replicated to reach each size: copy 0 is the corpus as
it is, copy ``r`` ≥ 1 has `` (r)`` inserted before the end of every sentence (before each ``.``, ``!``, ``?``
or ``…`` followed by white space, and at each line break and at the end of the text). That fixed perturbation
makes every sentence of a copy differ from the original's, so wsd's embedding, which runs identical windows
once, cannot skip a copy's work (the table reports how many distinct contexts the scan found). The number of
copies is the size divided by the occurrences of one copy, rounded up, so a size is a lower bound; the table
gives the occurrences each run had. Stages: ``scan`` (:func:`wsd.corpus.scan.scan` alone, with ``year`` kept),
``embed`` (``wsd.embed_corpus`` with the default recipe's vectors, ``--context-vector 20:last:0.5``; it scans
again as it embeds, so its time includes a scan), ``cluster`` (``wsd.cluster_run``, the default recipe:
every target's fit, memberships, sense cards, model, labels) and ``change`` (``wsd.change.change_run`` by
``year`` over fixed bins: counts, JSD, APD, PRT, binary, the tables written).

**Synthetic word** (``--synthetic-sizes``): the word of ``experiments.bench_cluster_scale`` (384-dim float16
store, four senses, two forms), with three context words per occurrence drawn from its sense's own words and
a ``year`` from 1800 to 1999, written as a run; stages ``cluster`` and ``change`` as above.

Embedding a million real occurrences takes about 18 minutes on a quiet 2-core machine, so the default sizes of
the real corpora stop at 100,000 (``--sizes``); the synthetic word goes to 1,000,000.

    python -m experiments.bench_e2e --corpora sotu      # SOTU 10k, 100k and the synthetic word to 1M
    python -m experiments.bench_e2e --corpora ruslit --sizes 10000,50000 --synthetic-sizes '' --name bench_e2e-ruslit

(about 10 minutes together on a quiet 2-core machine; without ``--corpora`` both corpora run at ``--sizes``).
"""

from __future__ import annotations

import argparse
import datetime as _datetime
import gzip
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.common import command_line, load_average, log, parse_sizes, peak_rss_mib, results_dir
from wsd import machine

HERE = Path(__file__).resolve().parent
CORPORA_DIR = HERE.parent.parent / "shared" / "corpora"
DEFAULT_MULTILINGUAL = Path("/work/models/multilingual-e5-small-q4")
NAME = "bench_e2e"
STAGES = ("scan", "embed", "cluster", "change")
CONTEXT_VECTOR = "20:last:0.5"
SYNTHETIC_BINS = "1800:1849,1850:1899,1900:1949,1950:1999"
SENSE_WORDS = (
    ("union", "federal", "government", "congress", "law", "citizens"),
    ("power", "authority", "rule", "office", "sovereign", "court"),
    ("condition", "affairs", "economy", "health", "crisis", "peace"),
    ("texas", "ohio", "border", "county", "capital", "governor"),
)
#: A sentence end (or a line break, or the end of the text): where a copy's mark goes.
_SENTENCE_END = re.compile(r"(?=[.!?…](?:\s|\Z))|(?<=[^\s.!?…])(?=\n)|(?<=[^\s.!?…])\Z")


@dataclass(frozen=True)
class Corpus:
    """A dated corpus of ``../shared/corpora`` and how the benchmark reads it.

    Parameters
    ----------
    name : str
        Its name on the command line.
    file : str
        The file under the corpora folder.
    targets : str
        The target words (``wsd embed --targets``).
    bins : str
        The year bins of the change stage.
    multilingual : bool
        Needs the multilingual encoder.
    """

    name: str
    file: str
    targets: str
    bins: str
    multilingual: bool


CORPORA = {
    "sotu": Corpus(
        "sotu", "sotu.jsonl.gz", "state,power,interest,bank,plant", "1790:1859,1860:1929,1930:1989,1990:2030", False
    ),
    "ruslit": Corpus(
        "ruslit", "ruslit.jsonl.gz", "дело,лицо,свет,мир,власть,язык,ключ,замок", "1800:1849,1850:1879,1880:1940", True
    ),
}


# ------------------------------------------------------------------------------------------ corpora
def perturb(text: str, copy: int) -> str:
    """Copy ``copy`` of a text: `` (copy)`` before every sentence end (copy 0: the text itself).

    Parameters
    ----------
    text : str
        A document.
    copy : int
        The copy's number.

    Returns
    -------
    str

    Examples
    --------
    >>> perturb("One state. Two states!\\nThree", 2)
    'One state (2). Two states (2)!\\nThree (2)'
    """
    if copy == 0:
        return text
    return _SENTENCE_END.sub(f" ({copy})", text)


def count_per_copy(records: list[dict], targets: str) -> int:
    """Whole-word, case-folded matches of the targets in the records (an estimate of one copy's occurrences).

    Parameters
    ----------
    records : list of dict
        The corpus documents.
    targets : str
        Comma-separated targets.

    Returns
    -------
    int
    """
    words = {t.strip().casefold() for t in targets.split(",")}
    pattern = re.compile(r"\w+")
    return sum(1 for r in records for w in pattern.findall(str(r.get("text", ""))) if w.casefold() in words)


def read_corpus(path: Path) -> list[dict]:
    """The documents of a ``.jsonl.gz`` corpus, keeping ``text`` and ``year``.

    Parameters
    ----------
    path : Path
        The corpus file.

    Returns
    -------
    list of dict
    """
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [{"text": r.get("text", ""), "year": r.get("year")} for r in map(json.loads, handle)]


def write_copies(records: list[dict], copies: int, out: Path) -> Path:
    """Write ``copies`` perturbed copies of the documents as one ``.jsonl`` corpus.

    Parameters
    ----------
    records : list of dict
        The documents.
    copies : int
        How many copies (copy 0 unchanged).
    out : Path
        The file to write.

    Returns
    -------
    Path
        ``out``.
    """
    with open(out, "w", encoding="utf-8") as handle:
        for copy in range(copies):
            for record in records:
                handle.write(json.dumps({"text": perturb(record["text"], copy), "year": record["year"]}) + "\n")
    return out


# ------------------------------------------------------------------------------------------ synthetic
def write_synthetic(folder: Path, n: int, seed: int = 0) -> Path:
    """The synthetic word of ``n`` occurrences as a run, with context words and a ``year`` column.

    Parameters
    ----------
    folder : Path
        Where the run goes.
    n : int
        Occurrences.
    seed : int
        Seeds the vectors, the words and the years.

    Returns
    -------
    Path
        The run folder.
    """
    from experiments.bench_cluster_scale import DIM, synthetic_word
    from wsd.io.run_store import write_run

    X, senses, forms = synthetic_word(n, separation=1.0, seed=seed)
    rng = np.random.RandomState(seed)
    words = np.array(SENSE_WORDS)
    picks = words[senses[:, None], rng.randint(0, words.shape[1], (n, 3))]
    tail = np.char.add(np.char.add(np.char.add(" of the ", picks[:, 0]), np.char.add(" ", picks[:, 1])), " ")
    text = np.char.add(np.char.add(np.char.add("the ", forms), tail), picks[:, 2])
    year = 1800 + rng.randint(0, 200, n)
    occurrences = pd.DataFrame(
        {
            "id": pd.Series(np.arange(n)).map("s{}:4".format),
            "target": "state",
            "form": forms,
            "text": text,
            "start": 4,
            "end": 4 + np.char.str_len(forms),
            "doc_id": pd.Series(np.arange(n)).map("s{}".format),
            "doc_start": 0,
            "year": year,
        }
    )
    meta = {"embedding": {"dim": DIM, "model": "synthetic"}, "metadata_columns": {"year": "int64"}}
    return write_run(folder / f"synthetic-{n}", occurrences, X, meta)


# ------------------------------------------------------------------------------------------ stages
def stage(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Run one stage here and report its time, this process's peak RSS and what it produced.

    Parameters
    ----------
    name : str
        ``scan``, ``embed``, ``cluster`` or ``change``.
    options : dict
        ``corpus``, ``targets``, ``model``, ``run``, ``senses``, ``bins``, ``out`` as the stage needs.

    Returns
    -------
    dict
    """
    import warnings

    warnings.simplefilter("ignore")  # the missing-year and one-sense warnings of the corpora are expected
    start = time.perf_counter()
    report: dict[str, Any] = {}
    if name == "scan":
        from wsd.corpus.scan import scan

        occurrences = scan(options["corpus"], options["targets"], meta=["year"])
        report["occurrences"] = len(occurrences)
        report["distinct_contexts"] = int(occurrences["text"].nunique())
    elif name == "embed":
        import wsd

        run = wsd.embed_corpus(
            options["corpus"],
            options["targets"],
            options["out"],
            meta=["year"],
            model=options.get("model"),
            context_vector=CONTEXT_VECTOR,
            progress=False,
        )
        report["occurrences"] = int(json.loads((Path(run) / "meta.json").read_text())["n_occurrences"])
    elif name == "cluster":
        from wsd.senses import SenseInducer
        from wsd.senses.recipes import recipe
        from wsd.senses.stage import cluster_run

        out = cluster_run(options["run"], out=options["out"], inducer=SenseInducer(**recipe("default")))
        report["senses"] = json.loads((Path(out) / "meta.json").read_text())["senses"]
    elif name == "change":
        from wsd.change.stage import change_run

        out = change_run(options["run"], options["senses"], options["out"], by="year", bins=options["bins"])
        ranking = pd.read_parquet(Path(out) / "ranking.parquet")
        report["ranking"] = ranking[["target", "score"]].round(4).to_dict(orient="records")
    else:
        raise ValueError(f"unknown stage {name!r}")
    report |= {"seconds": round(time.perf_counter() - start, 2), "peak_rss_mib": round(peak_rss_mib(), 1)}
    return report | {"load_average": load_average()}


def run_stage(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """:func:`stage` in a fresh Python process (``python -m experiments.bench_e2e --stage NAME --options JSON``).

    Parameters
    ----------
    name : str
        The stage.
    options : dict
        Its options (JSON-ready).

    Returns
    -------
    dict
        Its report, or ``{"error": ...}`` when it failed.
    """
    command = [sys.executable, "-m", "experiments.bench_e2e", "--stage", name, "--options", json.dumps(options)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return {"error": (result.stderr.strip().splitlines() or ["no output"])[-1][:300]}
    return json.loads(result.stdout.strip().splitlines()[-1])


def corpus_rows(corpus: Corpus, sizes: list[int], model: str | None, folder: Path) -> list[dict[str, Any]]:
    """Every stage of one corpus at every size (one copy count per size).

    Parameters
    ----------
    corpus : Corpus
        The corpus.
    sizes : list of int
        Wanted occurrences.
    model : str or None
        The encoder (None: the bundled one).
    folder : Path
        Scratch space.

    Returns
    -------
    list of dict
    """
    records = read_corpus(CORPORA_DIR / corpus.file)
    per_copy = count_per_copy(records, corpus.targets)
    rows = []
    for size in sizes:
        copies = max(1, math.ceil(size / per_copy))
        path = write_copies(records, copies, folder / f"{corpus.name}-x{copies}.jsonl")
        run, senses = folder / f"{corpus.name}-{size}-run", folder / f"{corpus.name}-{size}-senses"
        options = {"corpus": str(path), "targets": corpus.targets, "model": model, "bins": corpus.bins}
        plan = {
            "scan": options,
            "embed": options | {"out": str(run)},
            "cluster": {"run": str(run), "out": str(senses)},
            "change": {"run": str(run), "senses": str(senses), "out": str(folder / "change"), "bins": corpus.bins},
        }
        for name in STAGES:
            report = run_stage(name, plan[name])
            row = {"data": corpus.name, "size": size, "copies": copies, "stage": name} | report
            log(json.dumps(row, ensure_ascii=False))
            rows.append(row)
            if "error" in report:
                break
        for leftover in (run, senses, folder / "change", path):
            shutil.rmtree(leftover, ignore_errors=True) if leftover.is_dir() else leftover.unlink(missing_ok=True)
    return rows


def synthetic_rows(sizes: list[int], folder: Path) -> list[dict[str, Any]]:
    """The cluster and change stages on the synthetic word at every size.

    Parameters
    ----------
    sizes : list of int
        Occurrences.
    folder : Path
        Scratch space.

    Returns
    -------
    list of dict
    """
    rows = []
    for n in sizes:
        run = write_synthetic(folder, n)
        senses = folder / f"synthetic-{n}-senses"
        plan = {
            "cluster": {"run": str(run), "out": str(senses)},
            "change": {"run": str(run), "senses": str(senses), "out": str(folder / "change"), "bins": SYNTHETIC_BINS},
        }
        for name in ("cluster", "change"):
            report = run_stage(name, plan[name])
            row = {"data": "synthetic", "size": n, "copies": None, "stage": name, "occurrences": n} | report
            log(json.dumps(row))
            rows.append(row)
        for leftover in (run, senses, folder / "change"):
            shutil.rmtree(leftover, ignore_errors=True)
    return rows


# ------------------------------------------------------------------------------------------ report
def with_growth(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with its time per 1,000 occurrences and, per data and stage, both ratios to the smallest size.

    Parameters
    ----------
    rows : list of dict
        Stage reports (``occurrences`` filled in from the scan or embed of the same size).

    Returns
    -------
    list of dict
    """
    occurrences: dict[tuple[str, int], int] = {}
    for row in rows:
        if row.get("occurrences"):
            occurrences.setdefault((row["data"], row["size"]), int(row["occurrences"]))
    out = [dict(row) for row in rows]
    first: dict[tuple[str, str], dict[str, Any]] = {}
    for row in out:
        n = occurrences.get((row["data"], row["size"]))
        row["n"] = n
        if "error" in row or not n:
            continue
        row["ms_per_1k"] = round(1e6 * row["seconds"] / n, 1)
        base = first.setdefault((row["data"], row["stage"]), row)
        row["time_per_use_x"] = round(row["ms_per_1k"] / base["ms_per_1k"], 2) if base["ms_per_1k"] else None
        row["rss_x"] = round(row["peak_rss_mib"] / base["peak_rss_mib"], 2)
    return out


def render(rows: list[dict[str, Any]], args: argparse.Namespace, command: str, notes: list[str]) -> str:
    """The Markdown results file.

    Parameters
    ----------
    rows : list of dict
        :func:`with_growth` rows.
    args : argparse.Namespace
        The options.
    command : str
        The command line.
    notes : list of str
        Lines on what was skipped.

    Returns
    -------
    str
    """
    import wsd

    loads = [row["load_average"] for row in rows if row.get("load_average") is not None]
    busy = bool(loads) and max(loads) > (os.cpu_count() or 2)
    lines = [
        "# End to end at scale: scan → embed → cluster → change",
        "",
        f"- Command: `{command}`",
        f"- Date: {_datetime.datetime.now(_datetime.timezone.utc).isoformat(timespec='minutes')}; machine: "
        f"{machine.describe()}; wsd {wsd.__version__}, Python {platform.python_version()}",
        f"- Sizes run: real corpora {args.sizes or 'none'} (every stage), synthetic word "
        f"{args.synthetic_sizes or 'none'} (cluster and change); corpora {args.corpora or 'none'}",
        "- Each stage is a fresh process: seconds and its own peak RSS (VmHWM); `ms/1k` is milliseconds per "
        "1,000 occurrences; `time x` and `RSS x` are ratios to the smallest size of the same data and stage "
        "(linear time: `time x` ≈ 1; bounded memory: `RSS x` far below the growth in occurrences)",
        "- Real corpora: the corpus replicated with a fixed perturbation (the script's docstring), `embed` "
        "includes its own scan; the default recipe (`--context-vector 20:last:0.5`, Ward, k by silhouette); "
        "change by `year` over fixed bins",
        (
            "- **Caveat**: measured while other jobs shared the cores (1-minute load average in the table above "
            f"{os.cpu_count()}); the times are inflated by that load. Re-run on a quiet machine with the command above."
            if busy
            else "- Measured on a quiet machine (1-minute load average in the table, at most the number of cores)"
        ),
        *[f"- {note}" for note in notes],
        "",
        "| data | size | copies | occurrences | stage | seconds | ms/1k | time x | peak RSS MiB | RSS x | load avg |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        n = f"{row['n']:,}" if row.get("n") else ""
        if "error" in row:
            lines.append(f"| {row['data']} | {row['size']:,} | {row.get('copies') or ''} | {n} | {row['stage']} | "
                         f"failed: {row['error']} | | | | | |")  # fmt: skip
            continue
        lines.append(
            f"| {row['data']} | {row['size']:,} | {row.get('copies') or ''} | {n} | {row['stage']} | "
            f"{row['seconds']} | {row.get('ms_per_1k', '')} | {row.get('time_per_use_x', '')} | "
            f"{row['peak_rss_mib']:,.0f} | {row.get('rss_x', '')} | {row.get('load_average')} |"
        )
    scans = [row for row in rows if row["stage"] == "scan" and "distinct_contexts" in row]
    if scans:
        lines += ["", "Distinct contexts found by the scan (the perturbation keeps copies apart):", ""]
        lines += [f"- {r['data']} {r['size']:,}: {r['distinct_contexts']:,} of {r['occurrences']:,}" for r in scans]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Run the stages of every corpus and size and of the synthetic word; print and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default="sotu,ruslit", help="real corpora: sotu, ruslit (comma-separated)")
    parser.add_argument("--sizes", default="10000,100000", help="occurrences of the real corpora (at least)")
    parser.add_argument("--synthetic-sizes", default="10000,100000,1000000", help="occurrences of the synthetic word")
    parser.add_argument("--multilingual-model", type=Path, default=DEFAULT_MULTILINGUAL, help="encoder for RusLit")
    parser.add_argument("--name", default=NAME, help="stem of the results files")
    parser.add_argument("--results-dir", type=Path, default=results_dir("bench_e2e"))
    parser.add_argument("--stage", choices=STAGES, help=argparse.SUPPRESS)
    parser.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage is not None:
        print(json.dumps(stage(args.stage, json.loads(args.options)), ensure_ascii=False))
        return
    command = command_line()
    notes: list[str] = []
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="wsd-bench-e2e-") as tmp:
        folder = Path(tmp)
        for name in [c.strip() for c in args.corpora.split(",") if c.strip()]:
            corpus = CORPORA[name]
            if not (CORPORA_DIR / corpus.file).is_file():
                notes.append(f"{name}: skipped, {CORPORA_DIR / corpus.file} is absent")
                log(notes[-1])
                continue
            model = None
            if corpus.multilingual:
                if not (args.multilingual_model / "config.json").is_file():
                    notes.append(
                        f"{name}: skipped, the multilingual encoder {args.multilingual_model} is absent "
                        "(`bash ../shared/models/get-multilingual-e5.sh /work/models`, or --multilingual-model)"
                    )
                    log(notes[-1])
                    continue
                model = str(args.multilingual_model)
                notes.append(f"{name}: encoder {args.multilingual_model.name}")
            rows += corpus_rows(corpus, parse_sizes(args.sizes), model, folder)
        rows += synthetic_rows(parse_sizes(args.synthetic_sizes), folder)
    rows = with_growth(rows)
    markdown = render(rows, args, command, notes)
    print(markdown)
    args.results_dir.mkdir(parents=True, exist_ok=True)
    (args.results_dir / f"{args.name}.md").write_text(markdown, encoding="utf-8")
    document = {
        "benchmark": NAME,  # not "experiment"/"rows": wsd.report reads those files as scored experiments
        "command": command,
        "date": _datetime.datetime.now(_datetime.timezone.utc).isoformat(timespec="minutes"),
        "machine": machine.describe(),
        "sizes": parse_sizes(args.sizes),
        "synthetic_sizes": parse_sizes(args.synthetic_sizes),
        "notes": notes,
        "stages": rows,
    }
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    (args.results_dir / f"{args.name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
