"""Is the prototype distance (PRT) inflated on small slices, and would an unbiased prototype cosine rank better?

Run from the repository root::

    python -m experiments.prt_bias [--datasets dwug_en,...] [--data-dir DIR] [--cache-dir DIR] [--draws 20]

PRT is ``1 - cos(mean(A), mean(B))``. The norm of a slice's mean vector is inflated by sampling noise
(``E|m|² = |μ|² + tr Σ / n``), so on few uses the cosine is too small and PRT too large: on the State of the
Union, *interest* ranked first by century on 15 vs 16 uses. The unbiased estimate of ``|μ|²`` is the mean of
``x_i · x_j`` over pairs ``i ≠ j`` of the slice; :func:`prt_unbiased` divides ``mean(A) · mean(B)`` (unbiased
for ``μ_A · μ_B``: the slices are independent) by the square root of the two unbiased squared norms.

For each WUG dataset whose default vectors are in the vector cache (the same entry ``experiments.lscd_rank_by``
reads; a dataset without one is skipped and named), each word's two periods are compared:

1. **All uses:** Spearman ρ of PRT and of the unbiased PRT against the graded gold, and their difference with a
   paired word-bootstrap 95% interval.
2. **One word on few uses:** for each word, both its periods are subsampled to ``n`` uses (``--draws`` seeded
   draws) while every other word keeps all of its uses; the word's rank among all words is compared with its rank
   on all uses. The mean rank change (negative: the word climbs) says how far small slices alone lift a word:
   by PRT, by the shrunk PRT ``wsd change`` ranks by (each word's bootstrap interval as ``wsd change`` computes
   it, then :func:`wsd.change.uncertainty.shrink_scores` over all words), and by the unbiased PRT.
3. **Every word on few uses:** every word's periods subsampled to ``n`` uses; mean ρ against the gold over
   the draws (here the two measures' noise, not their bias, decides).

Results: ``experiments/results/prt_bias/prt_bias.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, save_page

#: The slice sizes of the subsampling parts.
SIZES = (10, 15, 30)
N_WORD_BOOTSTRAP = 1000


def prt(a: np.ndarray, b: np.ndarray) -> float:
    """``1 - cos(mean(a), mean(b))``, as :func:`wsd.change.measures.prt`."""
    ma, mb = a.mean(axis=0), b.mean(axis=0)
    return float(1.0 - ma @ mb / (np.linalg.norm(ma) * np.linalg.norm(mb)))


def unbiased_sq_norm(x: np.ndarray) -> float:
    """The unbiased estimate of ``|μ|²`` from a sample: the mean of ``x_i · x_j`` over ``i ≠ j``."""
    n = len(x)
    total = x.sum(axis=0)
    return float((total @ total - np.einsum("ij,ij->", x, x)) / (n * (n - 1)))


def prt_unbiased(a: np.ndarray, b: np.ndarray) -> float:
    """PRT with each mean's squared norm replaced by its unbiased estimate (clipped to a cosine in [-1, 1])."""
    ma, mb = a.mean(axis=0), b.mean(axis=0)
    norms = max(unbiased_sq_norm(a), 1e-12) * max(unbiased_sq_norm(b), 1e-12)
    return float(1.0 - np.clip(ma @ mb / np.sqrt(norms), -1.0, 1.0))


def prt_at(n_ref: float):
    """PRT expected at ``n_ref`` uses in each slice: the unbiased squared norm of each mean plus the noise that
    ``n_ref`` uses would add (``(mean |x|² - U) / n_ref``), so every word is compared as if its slices were equal."""

    def measure(a: np.ndarray, b: np.ndarray) -> float:
        ma, mb = a.mean(axis=0), b.mean(axis=0)
        norms = []
        for x in (a, b):
            u = unbiased_sq_norm(x)
            norms.append(max(u + (float(np.einsum("ij,ij->", x, x)) / len(x) - u) / n_ref, 1e-12))
        return float(1.0 - np.clip(ma @ mb / np.sqrt(norms[0] * norms[1]), -1.0, 1.0))

    return measure


MEASURES = {"prt": prt, "prt_unbiased": prt_unbiased}


def _rho(x: np.ndarray, y: np.ndarray) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(x, y).statistic)


def _rank(values: np.ndarray, index: int) -> int:
    """The 1-based rank of ``values[index]`` when sorted in descending order (ties count in its favour)."""
    return int(np.sum(values > values[index]) + 1)


def prt_interval(a: np.ndarray, b: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    """PRT and its bootstrap interval as ``wsd change`` computes them (``vector_intervals``)."""
    from wsd.change.measures import summarise_slice
    from wsd.change.uncertainty import vector_intervals

    point = prt(a, b)
    found = vector_intervals(
        a, b, summarise_slice(a), summarise_slice(b), (len(a), len(b)), (None, point), random_state=rng
    )
    low, high = found.prt if found.prt is not None else (point, point)
    return point, low, high


def shrunk(points: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> np.ndarray:
    """The shrunk scores ``wsd change`` ranks by (:func:`wsd.change.uncertainty.shrink_scores`)."""
    from wsd.change.uncertainty import DEFAULT_CONFIDENCE, shrink_scores

    return shrink_scores(points, lows, highs, DEFAULT_CONFIDENCE)


def study(slices: dict[str, tuple[np.ndarray, np.ndarray]], gold: np.ndarray, draws: int, seed: int) -> dict[str, Any]:
    """The three parts of the module docstring for one dataset (``slices``: word → its two periods' vectors)."""
    words = list(slices)
    rng = np.random.default_rng(seed)
    n_ref = float(np.median([min(len(a), len(b)) for a, b in slices.values()]))
    measures = {**MEASURES, "prt_standardised": prt_at(n_ref)}
    full = {m: np.array([f(*slices[w]) for w in words]) for m, f in measures.items()}
    intervals = np.array([prt_interval(*slices[w], rng) for w in words])  # point, low, high of every word
    full_shrunk = shrunk(*intervals.T)
    result: dict[str, Any] = {"words": len(words), "all_uses": {m: _rho(full[m], gold) for m in measures}}
    picks = rng.integers(0, len(words), size=(N_WORD_BOOTSTRAP, len(words)))
    for other in ("prt_unbiased", "prt_standardised"):
        differences = [
            _rho(full[other][p], gold[p]) - _rho(full["prt"][p], gold[p]) for p in picks if np.ptp(gold[p]) > 0
        ]
        result["all_uses"][f"{other}_difference"] = [float(np.percentile(differences, q)) for q in (2.5, 97.5)]
    result["n_ref"] = n_ref
    sizes = [min(len(a), len(b)) for a, b in slices.values()]
    result["uses_per_period"] = {"median": float(np.median(sizes)), "min": int(min(sizes))}
    for n in SIZES:
        shift: dict[str, list[int]] = {m: [] for m in (*measures, "prt_shrunk")}
        for i, word in enumerate(words):
            a, b = slices[word]
            if min(len(a), len(b)) <= n:
                continue
            for _ in range(draws):
                small = (a[rng.choice(len(a), n, replace=False)], b[rng.choice(len(b), n, replace=False)])
                for m, f in measures.items():
                    values = full[m].copy()
                    values[i] = f(*small)
                    shift[m].append(_rank(values, i) - _rank(full[m], i))
                changed = intervals.copy()
                changed[i] = prt_interval(*small, rng)
                shift["prt_shrunk"].append(_rank(shrunk(*changed.T), i) - _rank(full_shrunk, i))
        equal: dict[str, list[float]] = {m: [] for m in measures}
        for _ in range(draws):
            small_all = {
                w: (
                    a[rng.choice(len(a), min(n, len(a)), replace=False)],
                    b[rng.choice(len(b), min(n, len(b)), replace=False)],
                )
                for w, (a, b) in slices.items()
            }
            for m, f in measures.items():
                equal[m].append(_rho(np.array([f(*small_all[w]) for w in words]), gold))
        result[f"n{n}"] = {
            m: {
                "mean_rank_change": float(np.mean(shift[m])) if shift[m] else None,
                "rho_all_small": float(np.mean(equal[m])) if m in equal else None,
            }
            for m in shift
        }
        result[f"n{n}"]["words_subsampled"] = len(shift["prt"]) // draws
    return result


def dataset_slices(name: str, data_dir: Path, cache_dir: Path) -> tuple[dict, np.ndarray, dict] | None:
    """Each gold word's two periods' cached default vectors, the gold, and the vectors' metadata (None: not cached)."""
    from experiments.lscd import gold_scores, load
    from experiments.lscd_rank_by import cached_vectors, default_encoder
    from wsd.evaluate.datasets.wug import period_of

    bundle = load(name, data_dir)
    found = cached_vectors(bundle.occurrences, cache_dir, default_encoder(name))
    if found is None:
        return None
    vectors, meta = found
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold, _ = gold_scores(bundle)
    table = bundle.occurrences
    periods, targets = period_of(table), table["target"].to_numpy()
    slices = {}
    for word in sorted(gold.index):
        rows = targets == word
        a, b = vectors[rows & (periods == 0)], vectors[rows & (periods == 1)]
        if len(a) >= 2 and len(b) >= 2:
            slices[str(word)] = (a.astype(np.float64), b.astype(np.float64))
    return slices, gold.loc[list(slices)].to_numpy(dtype=float), meta


#: The measures of the results page, as it names them.
NAMES = {
    "prt": "PRT",
    "prt_shrunk": "shrunk PRT (the default ranking)",
    "prt_unbiased": "unbiased PRT",
    "prt_standardised": "PRT at a common size",
}


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    lines = [
        "# The prototype distance on small slices: PRT, an unbiased PRT, and PRT at a common size",
        "",
        f"- Command: `{results['command']}`",
        f"- Date: {results['date']}; machine: {results['machine']}",
        "- Vectors: each dataset's cached default vectors (the encoder is named per dataset); "
        f"{results['draws']} seeded draws per word and size",
        "- PRT at a common size: each slice mean's squared norm taken as its unbiased estimate plus the noise of "
        "n_ref uses, n_ref the dataset's median period size (every word compared as if its periods had n_ref uses)",
        "",
        "## All uses: ρ against the graded gold",
        "",
        "Differences to PRT with a paired word-bootstrap 95% interval.",
        "",
        "| dataset | encoder | words | uses per period (median, min) | ρ PRT | ρ unbiased PRT (− PRT) | "
        "ρ PRT at a common size (− PRT) |",
        "|---|---|---:|---|---:|---|---|",
    ]
    for name, cell in results["datasets"].items():
        figures = cell["all_uses"]
        use = cell["uses_per_period"]
        parts = []
        for other in ("prt_unbiased", "prt_standardised"):
            low, high = figures[f"{other}_difference"]
            parts.append(f"{figures[other]:.3f} ({figures[other] - figures['prt']:+.3f} [{low:+.3f}, {high:+.3f}])")
        lines.append(
            f"| {name} | {cell['encoder']} | {cell['words']} | {use['median']:.0f}, {use['min']} | "
            f"{figures['prt']:.3f} | {' | '.join(parts)} |"
        )
    shifts = ("prt", "prt_shrunk", "prt_unbiased", "prt_standardised")
    lines += [
        "",
        "## One word on few uses: how far it moves in the ranking",
        "",
        "Both periods of one word subsampled to n uses, every other word on all its uses; mean change of the word's "
        "rank (negative: it climbs), over every word with more than n uses in each period.",
        "",
        "| dataset | n | words | " + " | ".join(f"rank change, {NAMES[m]}" for m in shifts) + " |",
        "|---|---:|---:|" + "---:|" * len(shifts),
    ]
    for name, cell in results["datasets"].items():
        for n in SIZES:
            row = cell[f"n{n}"]
            if not row["words_subsampled"]:  # no word has more than n uses in each period
                continue
            cells = " | ".join(f"{row[m]['mean_rank_change']:+.1f}" for m in shifts)
            lines.append(f"| {name} | {n} | {row['words_subsampled']} | {cells} |")
    small = ("prt", "prt_unbiased", "prt_standardised")
    lines += [
        "",
        "## Every word on few uses: ρ against the gold",
        "",
        "| dataset | n | " + " | ".join(f"ρ {NAMES[m]}" for m in small) + " |",
        "|---|---:|" + "---:|" * len(small),
    ]
    for name, cell in results["datasets"].items():
        for n in SIZES:
            row = cell[f"n{n}"]
            if n >= cell["uses_per_period"]["median"]:  # most words keep all their uses: nothing subsampled
                continue
            lines.append(f"| {name} | {n} | " + " | ".join(f"{row[m]['rho_all_small']:.3f}" for m in small) + " |")
    if results.get("skipped"):
        lines += ["", f"Skipped (no cached default vectors): {', '.join(results['skipped'])}."]
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    from experiments.lscd import DATASETS
    from wsd.embed.cache import default_cache_dir

    parser = argparse.ArgumentParser(prog="python -m experiments.prt_bias", description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--cache-dir", type=Path, default=None, help="the vector cache (default: wsd's)")
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=results_dir("prt_bias"))
    args = parser.parse_args(argv)
    from wsd import machine

    cache_dir = args.cache_dir or default_cache_dir()
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "draws": args.draws,
        "datasets": {},
        "skipped": [],
    }
    for name in args.datasets.split(","):
        found = dataset_slices(name, args.data_dir, cache_dir)
        if found is None:
            log(f"{name}: no cached default vectors, skipped")
            results["skipped"].append(name)
            continue
        slices, gold, meta = found
        cell = study(slices, gold, args.draws, args.seed)
        cell["encoder"] = str(meta.get("model", meta.get("encoder", {}).get("model", "?")))
        results["datasets"][name] = cell
        log(f"{name}: {json.dumps(cell['all_uses'])}")
    save_page(results, args.out / "prt_bias.json", args.out / "prt_bias.md", markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
