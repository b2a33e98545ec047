"""Per-word clustering at corpus scale: the default recipe on one word of 10k to 1M occurrences, time and memory.

For each size a synthetic word is written as a real run (``wsd.io.run_store.write_run``: ``occurrences.parquet`` +
a float16 ``vectors.npy``, 384 dims, as ``wsd embed`` writes it) and then, in a fresh Python process each
(so that peak RSS belongs to that size alone), the default recipe's sense inducer (form centring, L2
normalisation, Ward, k by silhouette over 2..7) is fitted on the memory-mapped vectors and the soft
memberships of every occurrence are computed. Above ``max_fit_samples`` (default 5,000) the fit runs on a
seeded sample and the other occurrences are assigned by the fitted rule (:mod:`wsd.senses.sampling`). Where
the exact fit still fits (``--exact-sizes``, by default 10k and 20k) it runs too (``max_fit_samples=None``), and
the adjusted Rand index between the sampled and the exact labels is printed.

**The synthetic word** imitates the geometry of contextual embeddings (all of it seeded): a large shared mean
direction (norm 3 against noise of total variance 1, so occurrences are at cosine ≈ 0.9 from one another, as
for one word in a transformer's space); anisotropic noise with a power-law spectrum (variance of the i-th
principal direction ∝ 1/i, in a random rotation); four senses of unequal frequency (45/30/15/10 %) whose
centres lie in the eight highest-variance directions, ``--separation`` apart from the word mean; and two
surface forms (70/30 %) with an offset of their own, which the default recipe's form centring halves. With the
default separation 1.0 the four senses are found (the exact fit's best silhouette is about 0.26, its ARI against
the true senses 0.997 at 10k occurrences); at 0.7 they overlap more (silhouette about 0.15, ARI against the truth
about 0.88 at 12k, with k = 2 and k = 3 nearly tied), closer to what real contextual vectors of a word show
(``experiments/results/bench_cluster_scale/bench_cluster_scale-overlap.md``).

    python -m experiments.bench_cluster_scale                                  # 10k, 100k, 1M; exact 10k, 20k
    python -m experiments.bench_cluster_scale --sizes 10000,100000 --exact-sizes 10000
"""

from __future__ import annotations

import argparse
import datetime as _datetime
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from experiments.common import command_line, load_average, log, parse_sizes, peak_rss_mib, results_dir
from wsd import machine

DIM = 384
SENSE_WEIGHTS = (0.45, 0.30, 0.15, 0.10)
FORMS = ("state", "states")
FORM_SHARE = 0.3
_BLOCK = 100_000
NAME = "bench_cluster_scale"
TARGET_SECONDS = {100_000: 60.0, 1_000_000: 600.0}
TARGET_RSS_MIB = 4096.0


def synthetic_word(
    n: int, separation: float, seed: int = 0, dim: int = DIM
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` occurrence vectors of one synthetic word (module docstring), their true senses and their forms.

    The rows are drawn in blocks of 100,000 with a seed of their own each, so a smaller word is the start of a
    larger one.

    Parameters
    ----------
    n : int
        Occurrences.
    separation : float
        Distance of each sense centre from the word mean.
    seed : int
        Seeds the geometry and the rows.
    dim : int
        Vector width.

    Returns
    -------
    (ndarray of float16 (n, dim), ndarray of int (n,), ndarray of str (n,))
    """
    rng = np.random.RandomState(seed)
    rotation, _ = np.linalg.qr(rng.randn(dim, dim))
    spectrum = 1.0 / np.arange(1, dim + 1)
    scale = np.sqrt(spectrum / spectrum.sum())
    mean = rng.randn(dim)
    mean *= 3.0 / np.linalg.norm(mean)
    offsets = rng.randn(len(SENSE_WEIGHTS), 8)
    centres = (offsets * separation / np.linalg.norm(offsets, axis=1, keepdims=True)) @ rotation[:, :8].T
    form_offset = rng.randn(8)
    form_offset = (form_offset * 0.5 / np.linalg.norm(form_offset)) @ rotation[:, 8:16].T
    X = np.empty((n, dim), dtype=np.float16)
    senses = np.empty(n, dtype=np.int64)
    second_form = np.empty(n, dtype=bool)
    for block, start in enumerate(range(0, n, _BLOCK)):
        stop = min(start + _BLOCK, n)
        rows = np.random.RandomState([seed, block + 1])
        y = rows.choice(len(SENSE_WEIGHTS), size=stop - start, p=SENSE_WEIGHTS)
        form = rows.rand(stop - start) < FORM_SHARE
        noise = (rows.randn(stop - start, dim) * scale) @ rotation.T
        X[start:stop] = mean + centres[y] + form[:, None] * form_offset + noise
        senses[start:stop], second_form[start:stop] = y, form
    return X, senses, np.where(second_form, FORMS[1], FORMS[0])


def write_word(folder: Path, n: int, separation: float, seed: int) -> Path:
    """Write the synthetic word of ``n`` occurrences as a run (float16 store) and its true senses beside it.

    Parameters
    ----------
    folder : Path
        Where the run folders go.
    n : int
        Occurrences.
    separation, seed
        As for :func:`synthetic_word`.

    Returns
    -------
    Path
        The run folder.
    """
    from wsd.io.run_store import write_run

    X, senses, forms = synthetic_word(n, separation, seed)
    text = np.char.add(np.char.add("the ", forms), " of the union")
    occurrences = pd.DataFrame(
        {
            "id": [f"d{i}:4" for i in range(n)],
            "target": "state",
            "form": forms,
            "text": text,
            "start": 4,
            "end": 4 + np.char.str_len(forms),
            "doc_id": [f"d{i}" for i in range(n)],
            "doc_start": 0,
        }
    )
    run = write_run(folder / f"word-{n}", occurrences, X, {"embedding": {"dim": DIM, "model": "synthetic"}})
    np.save(run.parent / f"truth-{n}.npy", senses)
    return run


# ------------------------------------------------------------------------------------------ worker
def worker(run: Path, exact: bool, labels_out: Path) -> dict:
    """Fit the default recipe on the word of ``run`` (memory-mapped) and compute every membership; report.

    Parameters
    ----------
    run : Path
        A run of one word.
    exact : bool
        Fit on all occurrences (``max_fit_samples=None``).
    labels_out : Path
        Where the labels go (``.npy``).

    Returns
    -------
    dict
    """
    from wsd.io.run_reader import load_run
    from wsd.senses import SenseInducer
    from wsd.senses.recipes import recipe

    start = time.perf_counter()
    occurrences, X = load_run(run)
    forms = occurrences["form"].to_numpy()
    loaded = time.perf_counter()
    params = recipe("default") | ({"max_fit_samples": None} if exact else {})
    inducer = SenseInducer(**params).fit(X, forms=forms)
    fitted = time.perf_counter()
    proba = inducer.predict_proba(X, forms)
    done = time.perf_counter()
    np.save(labels_out, inducer.labels_)
    return {
        "n": int(X.shape[0]),
        "exact": exact,
        "load_s": round(loaded - start, 2),
        "fit_s": round(fitted - loaded, 2),
        "proba_s": round(done - fitted, 2),
        "total_s": round(done - start, 2),
        "peak_rss_mib": round(peak_rss_mib(), 1),
        "n_senses": int(inducer.n_senses_),
        "n_fit_samples": int(inducer.n_fit_samples_),
        "k_scores": {str(k): round(v, 5) for k, v in inducer.k_scores_.items()},
        "proba_rows_sum_to_1": bool(np.allclose(proba.sum(axis=1), 1.0)),
        "load_average": load_average(),
    }


def method_params(spec: str) -> dict:
    """The default recipe with another method (``METHOD`` or ``METHOD:SELECTION``; ``default``: unchanged).

    ``random`` gets ``k=4`` (it needs a fixed k).

    Parameters
    ----------
    spec : str
        E.g. ``kmeans``, ``gmm:bic``, ``hdbscan:native``.

    Returns
    -------
    dict
        ``SenseInducer`` parameters.
    """
    from wsd.senses.recipes import recipe

    params = recipe("default")
    if spec == "default":
        return params
    method, _, selection = spec.partition(":")
    params["method"] = method
    if selection:
        params["selection"] = selection
    if method == "random":
        params["k"] = 4
    return params


def stage_worker(run: Path, method: str = "default") -> dict:
    """The whole senses stage (``wsd.cluster_run``: fit, memberships, sense cards, model and tables written).

    Parameters
    ----------
    run : Path
        A run of one word.
    method : str
        The default recipe, or another method in it (:func:`method_params`).

    Returns
    -------
    dict
    """
    from wsd.senses import SenseInducer
    from wsd.senses.stage import cluster_run

    start = time.perf_counter()
    out = cluster_run(run, out=run.parent / f"{run.name}-senses", inducer=SenseInducer(**method_params(method)))
    done = time.perf_counter()
    labels = pd.read_parquet(out / "labels.parquet", columns=["sense"])
    shutil.rmtree(out)
    return {
        "n": len(labels),
        "method": method,
        "stage_s": round(done - start, 2),
        "peak_rss_mib": round(peak_rss_mib(), 1),
        "n_senses": int(labels["sense"].max()) + 1,
        "load_average": load_average(),
    }


def run_stage_worker(run: Path, method: str = "default") -> dict:
    """:func:`stage_worker` in a fresh Python process.

    Parameters
    ----------
    run : Path
        A run of one word.
    method : str
        As for :func:`stage_worker`.

    Returns
    -------
    dict
    """
    command = [sys.executable, "-m", "experiments.bench_cluster_scale", "--stage-worker", str(run), "--method", method]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"stage on {run} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def run_worker(run: Path, exact: bool, labels_out: Path) -> dict:
    """:func:`worker` in a fresh Python process (``python -m experiments.bench_cluster_scale --worker``).

    Parameters
    ----------
    run : Path
        A run of one word.
    exact : bool
        Fit on all occurrences.
    labels_out : Path
        Where the labels go.

    Returns
    -------
    dict
    """
    command = [
        sys.executable,
        "-m",
        "experiments.bench_cluster_scale",
        "--worker",
        str(run),
        "--labels",
        str(labels_out),
    ]
    result = subprocess.run(command + (["--exact"] if exact else []), capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"worker on {run} failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------------ report
def _load_note(rows: list[dict]) -> str:
    """One line on how busy the machine was: times above a 1-minute load average of 2 (the cores) are inflated."""
    loads = [row.get("load_average") for row in rows if row.get("load_average") is not None]
    if loads and max(loads) > 2.0:
        return (
            "- **Caveat**: measured while other jobs shared the 2 cores (1-minute load average in the table); "
            "the times are inflated by that load. Re-run on a quiet machine with the command above."
        )
    return "- Measured on a quiet machine (1-minute load average in the table, at most the number of cores)"


def render(rows: list[dict], agreement: dict, stages: list[dict], args: argparse.Namespace, command: str) -> str:
    """The Markdown results file.

    Parameters
    ----------
    rows : list of dict
        Worker reports.
    agreement : dict
        Size -> ARI of sampled vs exact labels (and each against the true senses).
    stages : list of dict
        Reports of the whole senses stage.
    args : argparse.Namespace
        The options.
    command : str
        The command line.

    Returns
    -------
    str
    """
    import wsd

    lines = [
        "# Per-word clustering at scale (default recipe, one word)",
        "",
        f"- Command: `{command}`",
        f"- Date: {_datetime.date.today().isoformat()}; machine: {machine.describe()}; wsd {wsd.__version__}, "
        f"Python {platform.python_version()}",
        f"- Synthetic word: {DIM}-dim float16 store written by `wsd.io.run_store.write_run`, 4 senses (45/30/15/10 %), "
        f"2 forms, separation {args.separation}, seed {args.seed} (geometry: the script's docstring)",
        "- Each row is a fresh process: load the run (memory-mapped), fit `SenseInducer(**recipe('default'))`, "
        "compute every occurrence's memberships; peak RSS of that process",
        _load_note(rows + stages),
        "",
        "| occurrences | fit | fitted on | load s | fit s | memberships s | total s | peak RSS MiB | senses | "
        "load avg |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['n']:,} | {'exact' if row['exact'] else 'sampled'} | {row['n_fit_samples']:,} | "
            f"{row['load_s']} | {row['fit_s']} | {row['proba_s']} | {row['total_s']} | {row['peak_rss_mib']:,.0f} | "
            f"{row['n_senses']} | {row['load_average']} |"
        )
    lines += [
        "",
        "## Sampled vs exact fit",
        "",
        "| occurrences | ARI sampled vs exact | ARI exact vs truth | ARI sampled vs truth | senses exact / sampled |",
        "|---:|---:|---:|---:|---|",
    ]
    for n, entry in agreement.items():
        lines.append(
            f"| {int(n):,} | {entry['sampled_vs_exact']:.3f} | {entry['exact_vs_truth']:.3f} | "
            f"{entry['sampled_vs_truth']:.3f} | {entry['senses_exact']} / {entry['senses_sampled']} |"
        )
    if stages:
        lines += [
            "",
            "## The whole senses stage (`wsd.cluster_run`: fit, memberships, sense cards, model, labels.parquet)",
            "",
            "| occurrences | method | total s | peak RSS MiB | senses | load avg |",
            "|---:|---|---:|---:|---:|---:|",
        ]
        for stage in stages:
            if "error" in stage:
                lines.append(f"| {stage['n']:,} | {stage['method']} | failed: {stage['error']} | | | |")
                continue
            lines.append(
                f"| {stage['n']:,} | {stage.get('method', 'default')} | {stage['stage_s']} | "
                f"{stage['peak_rss_mib']:,.0f} | {stage['n_senses']} | {stage['load_average']} |"
            )
    lines += ["", "## Targets (issue 16)", ""]
    for row in rows:
        target = TARGET_SECONDS.get(row["n"])
        if target is None or row["exact"]:
            continue
        ok = row["total_s"] <= target and row["peak_rss_mib"] <= TARGET_RSS_MIB
        lines.append(
            f"- {row['n']:,} occurrences: {row['total_s']} s (target ≤ {target:.0f} s), "
            f"{row['peak_rss_mib']:,.0f} MiB (target ≤ {TARGET_RSS_MIB:,.0f}): {'met' if ok else 'NOT met'}"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    """Build the words, run every size in its own process, print and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="occurrences of the sampled fits")
    parser.add_argument("--exact-sizes", default="10000,20000", help="sizes also fitted exactly (and compared)")
    parser.add_argument("--separation", type=float, default=1.0, help="distance of the sense centres from the mean")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stage-sizes", default="", help="sizes also run through the whole senses stage")
    parser.add_argument(
        "--methods",
        default="default",
        help="the stage's methods, comma-separated: default (the recipe) or METHOD[:SELECTION] in it, e.g. "
        "kmeans,agglomerative,spectral,gmm:bic,hdbscan:native,one-sense,random",
    )
    parser.add_argument("--name", default=NAME, help="stem of the results files")
    parser.add_argument("--results-dir", type=Path, default=results_dir("bench_cluster_scale"))
    parser.add_argument("--stage-worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--method", default="default", help=argparse.SUPPRESS)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--labels", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--exact", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage_worker is not None:
        print(json.dumps(stage_worker(args.stage_worker, args.method)))
        return
    if args.worker is not None:
        print(json.dumps(worker(args.worker, args.exact, args.labels)))
        return
    from sklearn.metrics import adjusted_rand_score

    command = command_line()
    sizes, exact_sizes = parse_sizes(args.sizes), parse_sizes(args.exact_sizes)
    stage_sizes = parse_sizes(args.stage_sizes)
    rows: list[dict] = []
    stages: list[dict] = []
    agreement: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="wsd-bench-scale-") as tmp:
        folder = Path(tmp)
        for n in sorted(set(sizes) | set(exact_sizes) | set(stage_sizes)):
            run = write_word(folder, n, args.separation, args.seed)
            truth = np.load(folder / f"truth-{n}.npy")
            labels = {}
            for method in [m.strip() for m in args.methods.split(",") if m.strip()] if n in stage_sizes else []:
                try:
                    stages.append(run_stage_worker(run, method))
                except RuntimeError as error:  # one method failing is a result, not the end of the benchmark
                    stages.append({"n": n, "method": method, "error": str(error).splitlines()[-1][:300]})
                log(json.dumps(stages[-1]))
            for exact in ([False] if n in sizes or n in exact_sizes else []) + ([True] if n in exact_sizes else []):
                report = run_worker(run, exact, folder / f"labels-{n}-{exact}.npy")
                log(json.dumps(report))
                rows.append(report)
                labels[exact] = (np.load(folder / f"labels-{n}-{exact}.npy"), report["n_senses"])
            if True in labels:
                agreement[str(n)] = {
                    "sampled_vs_exact": float(adjusted_rand_score(labels[True][0], labels[False][0])),
                    "exact_vs_truth": float(adjusted_rand_score(truth, labels[True][0])),
                    "sampled_vs_truth": float(adjusted_rand_score(truth, labels[False][0])),
                    "senses_exact": labels[True][1],
                    "senses_sampled": labels[False][1],
                }
                log(f"{n}: {agreement[str(n)]}")
            shutil.rmtree(run)  # the stores of all sizes together would not need to fit on the disk at once
    markdown = render(rows, agreement, stages, args, command)
    print(markdown)
    args.results_dir.mkdir(parents=True, exist_ok=True)
    (args.results_dir / f"{args.name}.md").write_text(markdown, encoding="utf-8")
    document = {
        "benchmark": NAME,  # not "experiment"/"rows": wsd.report reads those files as scored experiments
        "command": command,
        "machine": machine.describe(),
        "separation": args.separation,
        "seed": args.seed,
        "fits": rows,
        "agreement": agreement,
        "stages": stages,
    }
    (args.results_dir / f"{args.name}.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
