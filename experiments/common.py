"""Shared code of the experiment scripts: benchmarks, cached vectors, scoring over seeds, result files.

Every experiment evaluates a list of *settings* (a representation and a sense-induction recipe) on one
benchmark, over seeds, and writes ``experiments/results/<script>/<name>.md`` (:func:`results_dir`: one folder
per script; a Markdown table, mean ± std in percent, beside the trivial baselines and the published results) and
``<name>.json`` (the same numbers as fractions, in the structure ``experiments/report`` plots)::

    {"experiment": "layers", "dataset": "semeval2013", "metric": "avg", "command": "...",
     "rows": [{"setting": "layer 3", "layers": "3", "pooling": "mean", "method": "kmeans",
               "selection": "silhouette", "overall": {...}, "overall_std": {...}}, ...],
     "baselines": {"one-sense": {...}, "one-per-instance": {...}, "random": {...}},
     "published": {"PolyLM-large": {"fnmi": 0.237, "fbc_f": 0.667, "avg": 0.397}, ...}}

Vectors come from :func:`wsd.embed.cache.embed_cached` (``$WSD_CACHE_DIR``), so a representation is
computed once per machine and every setting that shares it reuses it.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _datetime
import json
import math
import platform
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
RESULTS_DIR = HERE / "results"
DEFAULT_DATA_DIR = HERE.parent.parent / "shared" / "datasets"


def results_dir(experiment: str) -> Path:
    """The folder of one experiment's results files: ``experiments/results/<experiment>/`` (not created here).

    ``experiment`` is the script's module name, so a reader finds the results of ``experiments/lscd.py`` in
    ``experiments/results/lscd/``.

    >>> results_dir("lscd").relative_to(HERE).as_posix()
    'results/lscd'
    """
    return RESULTS_DIR / experiment


#: Sub-datasets of RUSSE 2018 whose train sets carry gold senses.
RUSSE_TRAIN_SETS = ("wiki-wiki", "bts-rnc", "active-dict")


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: how to load it, its main metric, the metrics shown, the published results.

    ``family`` names the occurrence table that is embedded (the three RUSSE train sets are embedded
    together once and sliced by id).
    """

    name: str
    dataset: str
    options: dict[str, Any] = field(default_factory=dict)
    metric: str = "avg"
    columns: tuple[str, ...] = ("avg",)
    published: dict[str, dict[str, float]] = field(default_factory=dict)
    family: str = ""


PUBLISHED_2013: dict[str, dict[str, float]] = {
    "PolyLM-large": {"fnmi": 0.237, "fbc_f": 0.667, "avg": 0.397},
    "BERT-large substitutes (Amrami & Goldberg 2019)": {"fnmi": 0.214, "fbc_f": 0.640, "avg": 0.370},
    "substitutes + Louvain (Eyal et al. 2022)": {"fnmi": 0.194, "fbc_f": 0.620, "avg": 0.347},
    "ELMo substitutes (2018)": {"fnmi": 0.113, "fbc_f": 0.575, "avg": 0.254},
    "AutoSense": {"fnmi": 0.080, "fbc_f": 0.617, "avg": 0.222},
    "AI-KU (best 2013 participant)": {"fnmi": 0.065, "fbc_f": 0.390, "avg": 0.159},
}
PUBLISHED_2010: dict[str, dict[str, float]] = {
    "PolyLM-large": {"paired_f": 0.675, "v_measure": 0.436, "avg": 0.543},
    "substitutes + Louvain (Eyal et al. 2022)": {"paired_f": 0.710, "v_measure": 0.408, "avg": 0.538},
    "BERT-large substitutes (Amrami & Goldberg 2019)": {"paired_f": 0.713, "v_measure": 0.404, "avg": 0.536},
}
#: The AdaGram baseline of the RUSSE 2018 organisers on the train sets (ARI).
PUBLISHED_RUSSE: dict[str, float] = {"wiki-wiki": 0.392, "bts-rnc": 0.224, "active-dict": 0.160}

BENCHMARKS: dict[str, Benchmark] = {
    "semeval2013": Benchmark(
        "semeval2013", "semeval2013", metric="avg", columns=("fnmi", "fbc_f", "avg"), published=PUBLISHED_2013
    ),
    "semeval2010": Benchmark(
        "semeval2010",
        "semeval2010",
        metric="avg",
        columns=("paired_f", "v_measure", "avg", "supervised_recall"),
        published=PUBLISHED_2010,
    ),
    **{
        f"russe-{name}": Benchmark(
            f"russe-{name}",
            "russe2018",
            options={"splits": f"{name}/train"},
            metric="ari",
            columns=("ari", "nmi"),
            published={"AdaGram (organisers' baseline)": {"ari": PUBLISHED_RUSSE[name]}},
            family="russe2018-train",
        )
        for name in RUSSE_TRAIN_SETS
    },
}
#: Names accepted by ``--dataset`` that stand for several benchmarks.
GROUPS: dict[str, tuple[str, ...]] = {
    "russe": tuple(f"russe-{name}" for name in RUSSE_TRAIN_SETS),
    "all": ("semeval2013", "semeval2010", *(f"russe-{name}" for name in RUSSE_TRAIN_SETS)),
}


def resolve_benchmarks(names: str) -> list[Benchmark]:
    """Benchmarks named in a comma-separated list (``semeval2013,russe``; groups ``russe`` and ``all``).

    >>> [b.name for b in resolve_benchmarks("semeval2010,russe")][:2]
    ['semeval2010', 'russe-wiki-wiki']
    """
    chosen: list[str] = []
    for item in (part.strip() for part in names.split(",") if part.strip()):
        expanded = GROUPS.get(item, (item,))
        for name in expanded:
            if name not in BENCHMARKS:
                known = ", ".join([*BENCHMARKS, *GROUPS])
                raise SystemExit(f"unknown dataset {name!r} (choose from {known})")
            if name not in chosen:
                chosen.append(name)
    return [BENCHMARKS[name] for name in chosen]


# ------------------------------------------------------------------------------------------ data
def evaluation_config(
    benchmark: Benchmark, data_dir: Path, seeds: int, senses: dict[str, Any], output: dict[str, Any] | None = None
):
    """The :class:`wsd.config.EvaluationConfig` that scores ``senses`` (inducer parameters) on a benchmark.

    ``senses`` are used exactly as given (no recipe fills in what they leave out); ``output`` holds the key
    settings (``graded``, ``min_weight``, ``top``), unset ones come from the default recipe.
    """
    from wsd.config import build_evaluation_config

    config = build_evaluation_config(
        dict(output or {}),
        dataset=benchmark.dataset,
        data=str(data_dir),
        dataset_options=dict(benchmark.options),
        seeds=seeds,
    )
    config.senses = {k: tuple(v) if k == "k_range" else v for k, v in senses.items()}
    return config


def labelled_occurrences(benchmark: Benchmark, data_dir: Path) -> pd.DataFrame:
    """The labelled occurrence table of a benchmark (as :func:`wsd.workflows.benchmark.evaluate` sees it)."""
    from wsd.workflows.benchmark import load_labelled

    _, occurrences = load_labelled(evaluation_config(benchmark, data_dir, 1, {}))
    return occurrences


def family_occurrences(benchmark: Benchmark, data_dir: Path) -> pd.DataFrame:
    """The table that is embedded for a benchmark: its own, or its family's (all RUSSE train sets)."""
    if benchmark.family == "russe2018-train":
        from wsd.config import build_evaluation_config
        from wsd.workflows.benchmark import load_labelled

        config = build_evaluation_config(
            dataset="russe2018",
            data=str(data_dir),
            dataset_options={"splits": [f"{name}/train" for name in RUSSE_TRAIN_SETS]},
        )
        return load_labelled(config)[1]
    return labelled_occurrences(benchmark, data_dir)


def semeval2013_split(targets: Sequence[str]) -> dict[str, list[str]]:
    """The halves of a benchmark's words the default recipe's protocol uses: ``dev`` at even alphabetical positions
    (0, 2, ...), ``test`` at the others.

    >>> semeval2013_split(["c", "a", "b"])
    {'dev': ['a', 'c'], 'test': ['b']}
    """
    ordered = sorted(targets)
    return {"dev": ordered[0::2], "test": ordered[1::2]}


def context_reweighted(vectors: np.ndarray, weight: float, stored_weight: float) -> np.ndarray:
    """Default-recipe vectors (target beside ``stored_weight`` · unit context, equal halves) with the context half
    weighted ``weight`` instead; the target half is left bit for bit, and ``vectors`` is not changed.

    >>> context_reweighted(np.array([[1.0, 0.0, 0.5, 0.0]]), 0.3, 0.5).tolist()
    [[1.0, 0.0, 0.3, 0.0]]
    """
    half = vectors.shape[1] // 2
    out = vectors.copy()
    out[:, half:] *= weight / stored_weight
    return out


def align_rows(family: pd.DataFrame, occurrences: pd.DataFrame) -> np.ndarray:
    """Row numbers in ``family`` of each row of ``occurrences`` (matched by id)."""
    position = pd.Series(np.arange(len(family)), index=family["id"].to_numpy())
    return position.loc[occurrences["id"].to_numpy()].to_numpy()


# ------------------------------------------------------------------------------------------ scoring
def evaluate_vectors(
    benchmark: Benchmark,
    data_dir: Path,
    vectors: np.ndarray,
    senses: dict[str, Any],
    seeds: int,
    threads: int = 1,
    output: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Induce senses from ``vectors`` (row-aligned with the benchmark's labelled occurrences) and score them.

    Returns :func:`wsd.workflows.benchmark.evaluate`'s result (``overall``, ``overall_std``, ``baselines``, ...).
    Clustering runs with ``threads`` BLAS/OpenMP threads: on small per-word matrices more threads only add
    overhead (eight times slower on a busy two-core machine).
    """
    from threadpoolctl import threadpool_limits

    from wsd.workflows.benchmark import evaluate

    config = evaluation_config(benchmark, data_dir, seeds, senses, output)
    with threadpool_limits(limits=threads):
        return evaluate(config, vectors=vectors, progress=False)


# ------------------------------------------------------------------------------------------ results
@dataclass
class Row:
    """One line of a results table: a setting, how it was made, and its scores (fractions)."""

    setting: str
    layers: str
    pooling: str
    method: str
    selection: str
    overall: dict[str, float]
    overall_std: dict[str, float]
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The row as the JSON structure of the results files."""
        return {
            "setting": self.setting,
            "layers": self.layers,
            "pooling": self.pooling,
            "method": self.method,
            "selection": self.selection,
            "overall": _plain(self.overall),
            "overall_std": _plain(self.overall_std),
            **self.extra,
        }


def selection_name(senses: dict[str, Any]) -> str:
    """How the number of senses was chosen: ``silhouette``..., or ``k=3`` for a fixed number."""
    if senses.get("method") in ("one-sense", "one-per-instance"):
        return "-"
    k = senses.get("k", "auto")
    return str(senses.get("selection", "silhouette")) if k == "auto" else f"k={k}"


def command_line() -> str:
    """The command that is running, as a user would type it in the repository root.

    ``python -m experiments.ablate ...`` for a module run with ``-m`` (how the experiments run), else
    ``python <script> ...`` with the script's path relative to the repository root.
    """
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name:
        program = ["-m", spec.name]
    else:
        script = Path(sys.argv[0])
        with contextlib.suppress(ValueError):
            script = script.resolve().relative_to(HERE.parent)
        program = [str(script)]
    return " ".join(["python", *(shlex.quote(a) for a in [*program, *sys.argv[1:]])])


def _plain(scores: dict[str, Any]) -> dict[str, float]:
    return {k: float(v) for k, v in scores.items() if isinstance(v, (int, float, np.floating, np.integer))}


def _percent(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{100 * value:.1f}"


def markdown_table(
    rows: Sequence[Row],
    baselines: dict[str, dict[str, float]],
    published: dict[str, dict[str, float]],
    columns: Sequence[str],
    metric: str,
    seeds: int,
) -> str:
    """The Markdown table of a results file: settings (mean ± std), baselines, published results.

    The best setting on the main ``metric`` is in bold.
    """
    best = max(range(len(rows)), key=lambda i: rows[i].overall.get(metric, -math.inf)) if rows else -1
    head = ["setting", "layers", "pooling", "method", "k", *columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for index, row in enumerate(rows):
        cells = []
        for column in columns:
            mean = row.overall.get(column)
            std = row.overall_std.get(column, 0.0)
            cell = "–" if mean is None else f"{_percent(mean)} ± {_percent(std)}" if seeds > 1 else _percent(mean)
            cells.append(f"**{cell}**" if index == best and column == metric else cell)
        lines.append(
            "| " + " | ".join([row.setting, row.layers, row.pooling, row.method, row.selection, *cells]) + " |"
        )
    for name, scores in baselines.items():
        cells = [_percent(scores.get(column)) for column in columns]
        lines.append("| " + " | ".join([f"*baseline: {name}*", "", "", "", "", *cells]) + " |")
    for name, scores in published.items():
        cells = [_percent(scores.get(column)) for column in columns]
        lines.append("| " + " | ".join([f"*published: {name}*", "", "", "", "", *cells]) + " |")
    return "\n".join(lines)


def header_lines(
    command: str,
    seeds: int,
    encoder_meta: dict[str, Any] | None,
    extra: Sequence[str] = (),
    *,
    seeds_note: str = "mean ± std over seeds; scores in percent",
) -> list[str]:
    """Provenance lines for a results file: command, date, machine, versions, encoder, seeds (``seeds_note``: what
    the seeds line says of them and of the scores' unit, for a page that is not a mean of percentages)."""
    import wsd
    from wsd.machine import describe

    lines = [
        f"- Command: `{command}`",
        f"- Date: {_datetime.date.today().isoformat()}; machine: {describe()}; wsd {wsd.__version__}, "
        f"Python {platform.python_version()}",
        f"- Seeds: {seeds} ({seeds_note})",
    ]
    if encoder_meta:
        lines.append(
            f"- Encoder: {encoder_meta.get('model')} ({encoder_meta.get('precision')}; "
            f"fingerprint {encoder_meta.get('model_fingerprint')})"
        )
    return lines + list(extra)


def write_results(
    name: str,
    experiment: str,
    benchmark: Benchmark,
    rows: Sequence[Row],
    baselines: dict[str, dict[str, float]],
    command: str,
    markdown: str,
    results_dir: Path = RESULTS_DIR,
    extra: dict[str, Any] | None = None,
) -> tuple[Path, Path]:
    """Write ``<name>.md`` (``markdown``) and ``<name>.json`` (the fixed structure) into ``results_dir``."""
    results_dir.mkdir(parents=True, exist_ok=True)
    document = {
        "experiment": experiment,
        "dataset": benchmark.name,
        "metric": benchmark.metric,
        "command": command,
        "rows": [row.to_json() for row in rows],
        "baselines": {k: _plain(v) for k, v in baselines.items()},
        "published": benchmark.published,
        **(extra or {}),
    }
    json_path = results_dir / f"{name}.json"
    json_path.write_text(json.dumps(document, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    md_path = results_dir / f"{name}.md"
    md_path.write_text(markdown.rstrip() + "\n", encoding="utf-8")
    return md_path, json_path


#: The wsd commands that draw a progress bar (and so take ``--no-progress``).
PROGRESS_COMMANDS = frozenset({"embed", "cluster", "run", "evaluate", "tune", "demo"})


def run_wsd(args: Sequence[str], *, quiet: bool = False) -> float:
    """Run ``python -m wsd.cli ARGS`` from the repository root, without a progress bar; its wall time in seconds.

    ``quiet`` discards what it prints on stdout (its warnings still reach stderr). A failure raises
    ``subprocess.CalledProcessError``.
    """
    import os
    import subprocess
    import time

    command = [sys.executable, "-m", "wsd.cli", *args, *(["--no-progress"] if args[0] in PROGRESS_COMMANDS else [])]
    started = time.perf_counter()
    stdout = subprocess.DEVNULL if quiet else None
    subprocess.run(command, check=True, env=os.environ | {"PYTHONPATH": str(Path.cwd())}, stdout=stdout)
    return time.perf_counter() - started


def save_page(
    results: dict[str, Any], json_file: Path, md_file: Path, markdown: Callable[[dict[str, Any]], str]
) -> None:
    """Write an experiment's figures (``json_file``) and its results page (``md_file``, ``markdown(results)``)."""
    json_file.parent.mkdir(parents=True, exist_ok=True)
    md_file.parent.mkdir(parents=True, exist_ok=True)
    json_file.write_text(json.dumps(results, indent=1, default=float), encoding="utf-8")
    md_file.write_text(markdown(results), encoding="utf-8")
    log(f"wrote {md_file}")


def rewrite_page(
    parser: argparse.ArgumentParser, json_file: Path, md_file: Path, markdown: Callable[[dict[str, Any]], str]
) -> int:
    """``--markdown-only``: an experiment's results page written again from its figures (``json_file``), nothing
    computed. A missing, unreadable or damaged file is one line and exit 2 (``parser.error``), not a traceback.

    Returns
    -------
    int
        0, the exit code of a page written.
    """
    try:
        results = json.loads(json_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        parser.error(f"--markdown-only: no results yet ({json_file})")
    except (OSError, ValueError) as exc:
        parser.error(f"--markdown-only: {json_file} cannot be read ({type(exc).__name__}: {exc})")
    if not isinstance(results, dict):
        parser.error(f"--markdown-only: {json_file} holds no results (a JSON object)")
    md_file.parent.mkdir(parents=True, exist_ok=True)
    md_file.write_text(markdown(results), encoding="utf-8")
    log(f"wrote {md_file}")
    return 0


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far, in MiB.

    Linux: ``VmHWM`` of ``/proc/self/status``, the high-water mark of this program's own memory. Not
    ``ru_maxrss``, which survives ``exec``: a worker started by a parent holding 2 GiB reports at least the
    parent's resident size at the fork, whatever the worker itself uses. Elsewhere ``ru_maxrss``.
    """
    import resource

    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # macOS reports bytes, Linux KiB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale


def load_average() -> float | None:
    """The 1-minute load average (other processes' load shows there), None where the platform has none."""
    import os

    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def parse_sizes(text: str) -> list[int]:
    """``10000,100000`` -> ``[10000, 100000]``; empty text: none. Usable as an argparse ``type``.

    Parameters
    ----------
    text : str
        Comma-separated whole numbers, each at least 1.

    Returns
    -------
    list of int

    Raises
    ------
    argparse.ArgumentTypeError
        For a part that is not a whole number, or one below 1.

    Examples
    --------
    >>> parse_sizes("256, 1024,")
    [256, 1024]
    >>> parse_sizes("")
    []
    """
    sizes = []
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        try:
            size = int(part)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{text}: comma-separated whole numbers expected") from error
        if size < 1:
            raise argparse.ArgumentTypeError(f"{text}: {part} must be at least 1")
        sizes.append(size)
    return sizes


def log(message: str) -> None:
    """Progress on stderr, flushed (experiments run for minutes in the background)."""
    print(message, file=sys.stderr, flush=True)


Callback = Callable[[str], None]
