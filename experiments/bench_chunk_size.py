"""What the default ``--chunk-size`` costs: `wsd embed` on one corpus with several chunk sizes, side by side.

The chunk size is the number of occurrences per stored part, the unit of resumption (issue 25 lowered the
default from 8192 to 1024 so that an interrupted run of State-of-the-Union size keeps work). This script
measures what that costs and what it buys, in one run:

- each chunk size runs ``wsd embed`` as a user runs it (a fresh CLI process, a fresh output folder and an empty
  vector cache of its own, so nothing is reused), ``--repeats`` times, the order of the sizes alternating
  between repeats (forward, then backward) so that a drift of the machine's load hits every size alike;
- for each run: the wall clock and the CPU seconds of the process (user + system; other jobs on the machine
  inflate the wall clock far more than the CPU time), its peak resident memory, the parts it wrote, and when
  each part was finished (its checksum record appearing in ``parts/``, polled every ``--poll`` seconds);
- from those times, what an interruption at half the wall time keeps: the parts finished by then and the share
  of the occurrences they hold (a later run of the same command reuses them).

It writes ``experiments/results/bench_chunk_size/<name>.md`` and ``.json`` (``--name``, by default
``bench_chunk_size``) with the command, the machine (:func:`wsd.machine.describe`), the date and the 1-minute load
average of each run.

    python -m experiments.bench_chunk_size --targets bank,plant --chunk-sizes 256,1024,8192 --repeats 3
"""

from __future__ import annotations

import argparse
import datetime as _datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results" / "bench_chunk_size"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "sotu.jsonl.gz"
#: The chunk size the others are compared with (the default before issue 25).
BASELINE = 8192
#: The point of the run at which an interruption is imagined, as a share of its wall time.
INTERRUPTION = 0.5


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line of the benchmark.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    argparse.Namespace
        ``corpus``, ``targets``, ``chunk_sizes`` (a list of int), ``repeats``, ``poll``, ``name``,
        ``results_dir`` and ``embed_args`` (more arguments for every ``wsd embed``).

    Examples
    --------
    >>> parse_args(["--chunk-sizes", "1024,8192"]).chunk_sizes
    [1024, 8192]
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus of every run (default: SOTU)")
    parser.add_argument("--targets", default="bank,plant", help="targets of every run (default: bank,plant)")
    parser.add_argument("--chunk-sizes", type=_sizes, default=[256, 1024, BASELINE], help="comma-separated sizes")
    parser.add_argument("--repeats", type=_positive, default=3, help="runs of each size (default: 3)")
    parser.add_argument("--poll", type=float, default=0.05, help="seconds between looks at parts/ (default: 0.05)")
    parser.add_argument("--name", default="bench_chunk_size", help="results file stem (default: bench_chunk_size)")
    parser.add_argument("--results-dir", type=Path, default=RESULTS, help="where the results files go")
    parser.add_argument(
        "--embed-args", default="", help="more arguments for every wsd embed, as one string (e.g. '--batch-size 16')"
    )
    return parser.parse_args(argv)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: must be at least 1")
    return value


def _sizes(text: str) -> list[int]:
    from experiments.common import parse_sizes

    sizes = parse_sizes(text)
    if not sizes:
        raise argparse.ArgumentTypeError("no chunk size given")
    return sizes


def run_order(chunk_sizes: Sequence[int], repeat: int) -> list[int]:
    """The order of the sizes in repeat ``repeat``: as given on even repeats, reversed on odd ones.

    Parameters
    ----------
    chunk_sizes : sequence of int
        The sizes measured.
    repeat : int
        The repeat's number, from 0.

    Returns
    -------
    list of int

    Examples
    --------
    >>> run_order([256, 1024, 8192], 1)
    [8192, 1024, 256]
    """
    return list(chunk_sizes) if repeat % 2 == 0 else list(reversed(chunk_sizes))


def embed_once(
    corpus: Path, targets: str, chunk_size: int, folder: Path, embed_args: Sequence[str] = (), poll: float = 0.05
) -> dict[str, Any]:
    """One ``wsd embed`` process with ``--chunk-size chunk_size``, timed, its parts watched as they finish.

    The run writes into ``folder/run`` with the vector cache in ``folder/cache`` (``$WSD_CACHE_DIR``), both new.

    Parameters
    ----------
    corpus : Path
        The corpus.
    targets : str
        The ``--targets`` value.
    chunk_size : int
        The ``--chunk-size`` value.
    folder : Path
        An empty scratch folder of this run.
    embed_args : sequence of str
        More arguments for ``wsd embed``.
    poll : float
        Seconds between looks at ``parts/``.

    Returns
    -------
    dict
        ``chunk_size``, ``wall_s``, ``cpu_s``, ``max_rss_mib``, ``load_average`` (at the start), ``occurrences``,
        ``parts``, ``part_sizes``, ``finished`` (``[seconds since start, rows]`` per part, in the order seen)
        and ``timings`` (the run's stage timings from its ``meta.json``).

    Raises
    ------
    RuntimeError
        When ``wsd embed`` fails (with the end of its error output).
    """
    out = folder / "run"
    parts = out / "parts"
    environment = dict(os.environ, WSD_CACHE_DIR=str(folder / "cache"))
    environment["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    command = [sys.executable, "-m", "wsd.cli", "embed", "--corpus", str(corpus), "--targets", targets]
    command += ["--chunk-size", str(chunk_size), "--out", str(out), "--no-progress", *embed_args]
    load = os.getloadavg()[0]
    seen: dict[str, list[float]] = {}
    started = time.perf_counter()
    with open(folder / "stderr.txt", "w+", encoding="utf-8") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, cwd=ROOT, env=environment)
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            elapsed = time.perf_counter() - started
            for record in parts.glob("sum-*.json") if parts.is_dir() else ():
                if record.name not in seen:
                    rows = _rows(record)
                    if rows is not None:
                        seen[record.name] = [round(elapsed, 3), rows]
            if pid:
                break
            time.sleep(poll)
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        if process.returncode != 0:
            errors.seek(0)
            raise RuntimeError(f"wsd embed --chunk-size {chunk_size} failed: {errors.read()[-2000:]}")
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    sizes = list(meta["scan"]["part_sizes"])
    return {
        "chunk_size": chunk_size,
        "wall_s": round(elapsed, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "max_rss_mib": round(usage.ru_maxrss / 1024, 1),
        "load_average": round(load, 2),
        "occurrences": sum(sizes),
        "parts": len(sizes),
        "part_sizes": sizes,
        "finished": [seen[name] for name in sorted(seen)],
        "timings": meta.get("timings", {}),
    }


def _rows(record: Path) -> int | None:
    """The row count of a chunk's checksum record, None while it cannot be read (it is renamed into place)."""
    try:
        return int(json.loads(record.read_text(encoding="utf-8"))["rows"])
    except (OSError, ValueError, KeyError):
        return None


def kept_at(run: dict[str, Any], share: float = INTERRUPTION) -> dict[str, Any]:
    """What an interruption at ``share`` of a run's wall time keeps: the parts finished by then, their rows.

    Parameters
    ----------
    run : dict
        One result of :func:`embed_once`.
    share : float
        The point of the interruption, as a share of the wall time.

    Returns
    -------
    dict
        ``parts`` (finished by then), ``rows`` and ``fraction`` (of all occurrences).

    Examples
    --------
    >>> kept_at({"wall_s": 10.0, "occurrences": 300, "finished": [[4.0, 100], [6.0, 100], [9.0, 100]]})
    {'parts': 1, 'rows': 100, 'fraction': 0.3333333333333333}
    """
    moment = share * run["wall_s"]
    done = [rows for seconds, rows in run["finished"] if seconds <= moment]
    total = run["occurrences"]
    return {"parts": len(done), "rows": sum(done), "fraction": sum(done) / total if total else 0.0}


def summarise(runs: Sequence[dict[str, Any]], baseline: int = BASELINE) -> list[dict[str, Any]]:
    """One row per chunk size: medians over its runs, and the ratio of its medians to ``baseline``'s.

    Parameters
    ----------
    runs : sequence of dict
        Results of :func:`embed_once`.
    baseline : int
        The chunk size the others are compared with (ratios are None when it was not run).

    Returns
    -------
    list of dict
        ``chunk_size``, ``runs``, ``wall_s`` (median), ``wall_min_s``, ``wall_max_s``, ``cpu_s`` (median),
        ``wall_ratio``, ``cpu_ratio``, ``max_rss_mib`` (median), ``parts``, ``occurrences``, ``kept_parts`` and
        ``kept_fraction`` (median over runs of :func:`kept_at`), ``load_average`` (median), in size order.

    Examples
    --------
    >>> run = {"chunk_size": 8192, "wall_s": 2.0, "cpu_s": 1.0, "max_rss_mib": 9.0, "load_average": 0.5,
    ...        "occurrences": 10, "parts": 1, "finished": [[1.5, 10]]}
    >>> summarise([run])[0]["wall_ratio"]
    1.0
    """
    by_size: dict[int, list[dict[str, Any]]] = {}
    for run in runs:
        by_size.setdefault(run["chunk_size"], []).append(run)
    medians = {size: _median(group, "wall_s") for size, group in by_size.items()}
    cpu = {size: _median(group, "cpu_s") for size, group in by_size.items()}
    rows = []
    for size in sorted(by_size):
        group = by_size[size]
        kept = [kept_at(run) for run in group]
        rows.append(
            {
                "chunk_size": size,
                "runs": len(group),
                "wall_s": medians[size],
                "wall_min_s": min(run["wall_s"] for run in group),
                "wall_max_s": max(run["wall_s"] for run in group),
                "cpu_s": cpu[size],
                "wall_ratio": medians[size] / medians[baseline] if baseline in medians else None,
                "cpu_ratio": cpu[size] / cpu[baseline] if baseline in cpu else None,
                "max_rss_mib": _median(group, "max_rss_mib"),
                "parts": statistics.median(run["parts"] for run in group),
                "occurrences": group[0]["occurrences"],
                "kept_parts": statistics.median(k["parts"] for k in kept),
                "kept_fraction": statistics.median(k["fraction"] for k in kept),
                "load_average": _median(group, "load_average"),
            }
        )
    return rows


def _median(runs: Sequence[dict[str, Any]], key: str) -> float:
    return float(statistics.median(run[key] for run in runs))


def _ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def markdown(report: dict[str, Any]) -> str:
    """The results page of a report: provenance, the table by chunk size, every run.

    Parameters
    ----------
    report : dict
        ``command``, ``date``, ``machine``, ``corpus``, ``targets``, ``repeats``, ``seconds`` and ``runs``.

    Returns
    -------
    str
        Markdown.

    Examples
    --------
    >>> run = {"chunk_size": 8192, "wall_s": 2.0, "cpu_s": 1.0, "max_rss_mib": 9.0, "load_average": 0.5,
    ...        "occurrences": 10, "parts": 1, "finished": [[1.5, 10]], "repeat": 0}
    >>> page = markdown({"command": "python -m experiments.bench_chunk_size", "date": "2026-12-03",
    ...                  "machine": "2 cores", "corpus": "c.txt", "targets": "bank", "repeats": 1,
    ...                  "seconds": 3.0, "runs": [run]})
    >>> "| 8192 | 1 | 2.0 (2.0–2.0) | 1.00 | 1.0 | 1.00 | 9 | 1 | 0 (0%) | 0.5 |" in page
    True
    """
    baseline = BASELINE
    lines = [
        "# What `--chunk-size` costs: `wsd embed`, one corpus, chunk sizes side by side",
        "",
        f"- Command: `{report['command']}` ({report['seconds']:.0f} s in all)",
        f"- Date: {report['date']}; machine: {report['machine']}",
        f"- Corpus: `{report['corpus']}`, targets `{report['targets']}`; every run a fresh `wsd embed` process with "
        "a new output folder and an empty vector cache; the sizes ran in alternating order "
        f"(forward, then backward), {report['repeats']} time(s) each.",
        "- Wall and CPU seconds are of the whole process (start-up, model load, scan, forward, writes); CPU = user + "
        "system, which other jobs on the machine inflate far less than the wall clock. The load average is the "
        "1-minute one at each run's start: above ~2 on 2 cores, other jobs were running.",
        f"- Kept at {INTERRUPTION:.0%}: the parts whose checksum record existed at {INTERRUPTION:.0%} of the run's "
        "wall time (an interruption then keeps them; re-running the command reuses them), and their share of the "
        "occurrences.",
        "",
        f"| chunk size | runs | wall s, median (min–max) | wall × {baseline} | CPU s | CPU × {baseline} | "
        f"peak RSS MiB | parts | kept at {INTERRUPTION:.0%}: parts (occurrences) | load avg |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in summarise(report["runs"], baseline):
        lines.append(
            f"| {row['chunk_size']} | {row['runs']} | {row['wall_s']:.1f} ({row['wall_min_s']:.1f}–"
            f"{row['wall_max_s']:.1f}) | {_ratio(row['wall_ratio'])} | {row['cpu_s']:.1f} | "
            f"{_ratio(row['cpu_ratio'])} | {row['max_rss_mib']:.0f} | {row['parts']:g} | "
            f"{row['kept_parts']:g} ({row['kept_fraction']:.0%}) | {row['load_average']:.1f} |"
        )
    occurrences = report["runs"][0]["occurrences"] if report["runs"] else 0
    lines += [
        "",
        f"{occurrences} occurrences in every run.",
        "",
        "## Every run, in the order they ran",
        "",
        "| # | repeat | chunk size | wall s | CPU s | forward s | write s | parts | parts finished at (s) | load avg |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for number, run in enumerate(report["runs"], 1):
        timings = run.get("timings", {})
        moments = ", ".join(f"{seconds:.1f}" for seconds, _ in run["finished"])
        lines.append(
            f"| {number} | {run.get('repeat', 0) + 1} | {run['chunk_size']} | {run['wall_s']:.1f} | "
            f"{run['cpu_s']:.1f} | {timings.get('forward_s', 0.0):.1f} | {timings.get('write_s', 0.0):.2f} | "
            f"{run['parts']} | {moments} | {run['load_average']:.1f} |"
        )
    return "\n".join(lines) + "\n"


def write(report: dict[str, Any], results_dir: Path, name: str) -> tuple[Path, Path]:
    """Write ``<name>.md`` and ``<name>.json`` of ``report`` into ``results_dir``.

    Parameters
    ----------
    report : dict
        As :func:`markdown` takes it.
    results_dir : Path
        The folder (made if missing).
    name : str
        The file stem.

    Returns
    -------
    (Path, Path)
        The Markdown and JSON paths.
    """
    results_dir.mkdir(parents=True, exist_ok=True)
    document = report | {"summary": summarise(report["runs"])}
    md_path, json_path = results_dir / f"{name}.md", results_dir / f"{name}.json"
    md_path.write_text(markdown(report), encoding="utf-8")
    json_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return md_path, json_path


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the benchmark and write its results files.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    dict
        The report written.
    """
    import shlex

    from experiments.common import command_line
    from wsd.machine import describe

    args = parse_args(argv)
    report: dict[str, Any] = {
        "command": command_line() if argv is None else "python -m experiments.bench_chunk_size " + shlex.join(argv),
        "date": _datetime.date.today().isoformat(),
        "machine": describe(),
        "corpus": str(args.corpus),
        "targets": args.targets,
        "chunk_sizes": args.chunk_sizes,
        "repeats": args.repeats,
        "runs": [],
    }
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-chunk-size-") as scratch:
        for repeat in range(args.repeats):
            for size in run_order(args.chunk_sizes, repeat):
                folder = Path(scratch) / f"{repeat}-{size}"
                folder.mkdir()
                run = embed_once(args.corpus, args.targets, size, folder, shlex.split(args.embed_args), args.poll)
                report["runs"].append(run | {"repeat": repeat})
                print(
                    f"[{time.strftime('%H:%M:%S')}] repeat {repeat + 1}, chunk size {size}: {run['wall_s']:.1f} s "
                    f"wall, {run['cpu_s']:.1f} s CPU, {run['parts']} parts (load average {run['load_average']:.1f})",
                    file=sys.stderr,
                    flush=True,
                )
    report["seconds"] = time.perf_counter() - started
    md_path, _ = write(report, args.results_dir, args.name)
    print(md_path.read_text(encoding="utf-8"))
    return report


if __name__ == "__main__":
    main()
