"""Memory of one long line: peak RSS of ``wsd embed`` on a line with 1k, 10k and 100k uses of one target.

A line with no sentence break and thousands of occurrences used to grow memory with occurrences × window
(issue 39: a 30 KB line with 5,000 uses took 3.2 GB). The promise is memory bounded per document: windows are
built and embedded in bounded batches whatever the line looks like (docs/reliability.md). This benchmark
writes, for each size N, a corpus of ONE line (no sentence punctuation) holding N uses of ``mouse`` with
0 to 3 seeded filler words between them (about 13 characters a use), and runs ``wsd embed`` on it with the
defaults (bundled MiniLM, the default recipe's context vector ``20:last:0.5``, ``--runtime auto``) as a
subprocess of its own; the peak RSS is that process's (``ru_maxrss`` of the child from ``os.wait4``: this
parent imports nothing heavy, so what Linux carries over ``exec`` from it is a few MiB).

Reference rows show what the bound is measured against: the smallest N as short sentences, one per line, and
256 long sentences (every batch full of long windows: the forward pass's own memory at its largest), both
ordinary corpora. On the short sentences' run the senses are fitted (``wsd cluster``) and ``wsd predict --text``
tags one text as long as the limit of ``--text`` (:data:`wsd.workflows.tagger.MAX_TEXT_CHARS`) dense with uses.

    python -m experiments.bench_line_memory                      # 1k, 10k, 100k uses (a few minutes on 2 cores)
    python -m experiments.bench_line_memory --sizes 1000,5000 --name bench_line_memory-small

``--wsd-args`` passes more options to every ``wsd embed`` (e.g. ``'--max-length 128'`` for a faster run).
"""

from __future__ import annotations

import argparse
import datetime as _datetime
import json
import os
import platform
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from wsd import machine

HERE = Path(__file__).resolve().parent
RESULTS_DIR = HERE / "results" / "bench_line_memory"
NAME = "bench_line_memory"
TARGET = "mouse"
FILLER = ("the", "old", "river", "ran", "near", "a", "small", "green", "field", "and", "over", "hill", "while")
DEFAULT_SIZES = "1000,10000,100000"
#: Characters of a sentence of the ``long sentences`` reference: under ``2 * --context-chars`` (one passage), about
#: 400 subword tokens (the model takes 510).
LONG_SENTENCE_CHARS = 1_900
#: Uses (lines) of the ``long sentences`` reference: 8 full batches of 32 windows.
LONG_SENTENCES = 256


def uses(n: int, seed: int = 0) -> list[str]:
    """``n`` pieces of text, each ending in one use of the target after 0 to 3 seeded filler words.

    Parameters
    ----------
    n : int
        Uses of the target.
    seed : int
        Seeds the filler words.

    Returns
    -------
    list of str

    Examples
    --------
    >>> uses(2)
    ['while small the mouse', 'field green mouse']
    """
    rng = random.Random(seed)
    pieces = []
    for _ in range(n):
        words = [rng.choice(FILLER) for _ in range(rng.randint(0, 3))]
        pieces.append(" ".join([*words, TARGET]))
    return pieces


def write_corpus(path: Path, n: int, layout: str) -> int:
    """Write ``n`` uses as one line (``layout="line"``), one short sentence per line (``"sentences"``) or one long
    sentence per line (``"long sentences"``: about :data:`LONG_SENTENCE_CHARS` characters, the use in the middle,
    so every window is as long as the model takes and every batch is full).

    Parameters
    ----------
    path : Path
        The ``.txt`` file to write.
    n : int
        Uses of the target.
    layout : {"line", "sentences", "long sentences"}
        One line without sentence punctuation, or each use in a sentence of its own line.

    Returns
    -------
    int
        The longest line's length in characters.
    """
    pieces = uses(n)
    if layout == "line":
        lines = [" ".join(pieces)]
    elif layout == "sentences":
        lines = [f"The {piece} ran away." for piece in pieces]
    else:
        rng = random.Random(1)
        half = LONG_SENTENCE_CHARS // 2
        lines = []
        for piece in pieces:
            left = " ".join(rng.choice(FILLER) for _ in range(half // 4))[:half].rsplit(" ", 1)[0]
            right = " ".join(rng.choice(FILLER) for _ in range(half // 4))[:half].rsplit(" ", 1)[0]
            lines.append(f"{left} {piece} {right}.")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return max(len(line) for line in lines)


def run_wsd(arguments: list[str]) -> dict[str, Any]:
    """Run ``python -m wsd.cli ARGUMENTS`` in a process of its own; its seconds and peak RSS.

    Parameters
    ----------
    arguments : list of str
        The command and its options.

    Returns
    -------
    dict
        ``seconds`` and ``peak_rss_mib``, with ``error`` (its last line on stderr) when it failed.
    """
    command = [sys.executable, "-m", "wsd.cli", *arguments]
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        message = errors.read()
    report: dict[str, Any] = {"seconds": round(seconds, 2), "peak_rss_mib": round(usage.ru_maxrss / 1024, 1)}
    if process.returncode != 0:
        report["error"] = (message.strip().splitlines() or ["no output"])[-1][:300]
    return report


def run_embed(corpus: Path, out: Path, extra: list[str]) -> dict[str, Any]:
    """Run ``wsd embed`` on ``corpus`` in a process of its own; its seconds and peak RSS.

    Parameters
    ----------
    corpus : Path
        The corpus file.
    out : Path
        The run folder.
    extra : list of str
        More ``wsd embed`` options.

    Returns
    -------
    dict
        ``seconds``, ``peak_rss_mib``, ``occurrences`` and ``parts`` (from the run's metadata), or ``error``.
    """
    options = ["--corpus", str(corpus), "--targets", TARGET, "--out", str(out), "--no-progress", *extra]
    report = run_wsd(["embed", *options])
    if "error" in report:
        return report
    meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    return report | {"occurrences": meta.get("n_occurrences"), "parts": meta.get("scan", {}).get("parts")}


def run_predict_text(run: Path, senses: Path, chars: int) -> dict[str, Any]:
    """``wsd predict --text`` on one text of about ``chars`` characters dense with uses (after ``wsd cluster``).

    Parameters
    ----------
    run : Path
        A run of the reference corpus (its senses are fitted here).
    senses : Path
        Where ``wsd cluster`` writes them.
    chars : int
        The text's length, at most (the limit of ``--text``).

    Returns
    -------
    dict
        As :func:`run_wsd` for the ``predict`` process, with ``uses`` and ``line_chars`` of the text.
    """
    fitted = run_wsd(["cluster", "--run", str(run), "--out", str(senses), "--no-progress"])
    if "error" in fitted:
        return {"uses": 0, "line_chars": 0} | fitted
    text = ""
    for piece in uses(chars):
        if len(text) + len(piece) + 1 > chars:
            break
        text = f"{text} {piece}" if text else piece
    report = run_wsd(["predict", "--senses", str(senses), "--text", text, "--target", TARGET])
    count = text.split().count(TARGET)
    return {"uses": count, "line_chars": len(text), "occurrences": count, "parts": ""} | report


def render(rows: list[dict[str, Any]], command: str, extra: list[str], date: str, machine_text: str) -> str:
    """The Markdown results page.

    Parameters
    ----------
    rows : list of dict
        One per run.
    command : str
        The command line.
    extra : list of str
        The ``wsd embed`` options added.
    date : str
        When it ran (UTC, ISO format).
    machine_text : str
        The machine it ran on (:func:`wsd.machine.describe`).

    Returns
    -------
    str
    """
    import wsd

    loads = [row["load_average"] for row in rows if row.get("load_average") is not None]
    busy = bool(loads) and max(loads) > (os.cpu_count() or 2)
    lines = [
        "# Memory of one long line (`wsd embed`)",
        "",
        f"- Command: `{command}`",
        f"- Date: {date}; machine: {machine_text}; wsd {wsd.__version__}, Python {platform.python_version()}",
        f"- Each row is one `wsd embed --corpus FILE --targets {TARGET} --no-progress"
        f"{' ' + ' '.join(extra) if extra else ''}` process (defaults otherwise: bundled MiniLM, context vector "
        "20:last:0.5, `--runtime auto`); peak RSS is that process's `ru_maxrss`",
        "- `line`: ONE line without sentence punctuation holding all the uses (0 to 3 filler words between "
        "two); `sentences`: one short sentence per line, an ordinary corpus, for reference; `long sentences`: "
        f"one sentence of about {LONG_SENTENCE_CHARS:,} characters per line with one use in its middle, an ordinary "
        "corpus whose every batch is 32 windows of about 400 tokens (the forward pass's own memory at its largest)",
        (
            "- **Caveat**: other jobs shared the cores (1-minute load average in the table above "
            f"{os.cpu_count()}); the times are inflated by that load, the memory figures are not"
            if busy
            else "- 1-minute load average in the table (at most the number of cores)"
        ),
        f"- `predict --text`: `wsd predict --text TEXT --target {TARGET}` on one text of at most the `--text` limit "
        "(the same uses), with senses fitted (`wsd cluster`) on the `sentences` run",
        "- What bounds the peak: the forward pass of one batch (32 windows of at most 512 tokens: its activations "
        "are the largest term), each batch's tokens gathered once and pooled in groups of at most "
        "16,384 pieces, and a scan chunk of about 2 × `--chunk-size` rows (a line with more uses is cut between "
        "its passages). A line with fewer windows than a batch holds runs smaller batches; once each part of the "
        "scan fills its batches, the peak no longer grows with the uses",
        "",
        "| layout | uses | longest line (chars) | occurrences | parts | seconds | peak RSS MiB | load avg |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['layout']} | {row['uses']:,} | {row['line_chars']:,} | failed: {row['error']} "
                         "| | | | |")  # fmt: skip
            continue
        lines.append(
            f"| {row['layout']} | {row['uses']:,} | {row['line_chars']:,} | {row['occurrences']:,} | "
            f"{row['parts']} | {row['seconds']} | {row['peak_rss_mib']:,.0f} | {row['load_average']} |"
        )
    return "\n".join(lines) + "\n"


def command_line() -> str:
    """The command that is running, as typed in the repository root."""
    return " ".join(["python", "-m", f"experiments.{NAME}", *(shlex.quote(a) for a in sys.argv[1:])])


def main() -> None:
    """Embed one line at every size (and the reference corpus); print and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="uses of the target on the line (comma-separated)")
    parser.add_argument("--no-reference", action="store_true", help="skip the rows of the reference corpora")
    parser.add_argument(
        "--text-chars",
        type=int,
        default=None,
        help="characters of the wsd predict --text row (default: the limit of --text; 0: no such row)",
    )
    parser.add_argument("--wsd-args", default="", help="more wsd embed options, as one string")
    parser.add_argument("--name", default=NAME, help="stem of the results files")
    parser.add_argument("--results-dir", type=Path, default=RESULTS_DIR)
    parser.add_argument("--render", action="store_true", help="rewrite the Markdown page from the JSON file only")
    args = parser.parse_args()
    json_file, md_file = args.results_dir / f"{args.name}.json", args.results_dir / f"{args.name}.md"
    if args.render:
        saved = json.loads(json_file.read_text(encoding="utf-8"))
        page = render(saved["runs"], saved["command"], saved["wsd_args"], saved["date"], saved["machine"])
        md_file.write_text(page, encoding="utf-8")
        return
    sizes = [int(part) for part in args.sizes.split(",") if part.strip()]
    extra = shlex.split(args.wsd_args)
    command = command_line()
    plan = [("line", n) for n in sizes]
    if not args.no_reference and sizes:
        plan[:0] = [("sentences", min(sizes)), ("long sentences", LONG_SENTENCES)]
    rows = []
    if args.text_chars is None:
        from wsd.workflows.tagger import MAX_TEXT_CHARS

        args.text_chars = MAX_TEXT_CHARS
    with tempfile.TemporaryDirectory(prefix="wsd-bench-line-") as tmp:
        folder = Path(tmp)
        for layout, n in plan:
            corpus = folder / f"{layout.replace(' ', '-')}-{n}.txt"
            line_chars = write_corpus(corpus, n, layout)
            run = folder / f"run-{layout.replace(' ', '-')}-{n}"
            report = run_embed(corpus, run, extra)
            row = {"layout": layout, "uses": n, "line_chars": line_chars} | report
            row["load_average"] = round(os.getloadavg()[0], 2)
            print(json.dumps(row), file=sys.stderr, flush=True)
            rows.append(row)
            if layout == "sentences" and args.text_chars and "error" not in report:
                text_row = run_predict_text(run, folder / "senses", args.text_chars)
                text_row = {"layout": "predict --text"} | text_row | {"load_average": round(os.getloadavg()[0], 2)}
                print(json.dumps(text_row), file=sys.stderr, flush=True)
                rows.append(text_row)
            shutil.rmtree(run, ignore_errors=True)
            corpus.unlink()
    date = _datetime.datetime.now(_datetime.timezone.utc).isoformat(timespec="minutes")
    markdown = render(rows, command, extra, date, machine.describe())
    print(markdown)
    args.results_dir.mkdir(parents=True, exist_ok=True)
    md_file.write_text(markdown, encoding="utf-8")
    document = {
        "benchmark": NAME,  # not "experiment"/"rows": wsd.report reads those files as scored experiments
        "command": command,
        "date": date,
        "machine": machine.describe(),
        "wsd_args": extra,
        "runs": rows,
    }
    json_file.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
