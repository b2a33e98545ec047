"""Do the uncertainty-aware rankings (the interval's lower end, the shrunk score) rank words no worse? (issue 25)

Run from the repository root::

    python -m experiments.lscd_rank_by [--datasets dwug_en,...] [--data-dir DIR] [--cache-dir DIR] \\
        [--resamples 200] [--seed 0] [--embed] [--model NAME]

For each WUG dataset the uses' vectors are taken from the vector cache (:mod:`wsd.embed.cache`, ``$WSD_CACHE_DIR``):
the entry of the same occurrence table (its digest) and row count; without ``--embed`` a dataset with no such
entry is skipped and named (never embedded), with ``--embed`` it is embedded with the default recipe (minutes
of CPU per dataset). Each word's two periods are compared by :func:`wsd.change.compare_slices` (``min_uses=1``:
every word the gold scores), and the script reports Spearman ρ against the graded gold of the point score
(``score``: APD and PRT), of the lower end of its bootstrap interval (``score_low``, the ranking's order
under ``rank_by="lower"``) and of the score shrunk toward the mean by its uncertainty (``score_shrunk``,
``rank_by="shrunk"``), each difference to the point score with a paired word-bootstrap 95% interval; the figures
go to ``experiments/results/lscd_rank_by.md``.
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, RESULTS_DIR, command_line, header_lines, log
from experiments.lscd import DATASETS, gold_scores, load

MEASURES = ("apd", "prt")
#: The orders compared (their column -> the ``rank_by`` that sorts by it): the point score, the interval's lower
#: end, the shrunk score.
ORDERS = {"score": "score", "score_low": "lower", "score_shrunk": "shrunk"}
#: Word-bootstrap resamples of the differences' intervals.
N_WORD_BOOTSTRAP = 1000


def untuned(meta: dict[str, Any]) -> bool:
    """Whether a cache entry's encoder is an untuned one (not a model folder ``experiments.tune`` wrote in ``out/``)."""
    return not str(meta.get("model", "")).startswith("out/")


def cached_vectors(
    occurrences: Any, cache_dir: Path, accept: Any = untuned
) -> tuple[np.ndarray, dict[str, Any]] | None:
    """The cached vectors of exactly this occurrence table (same digest and row count), with their metadata.

    ``accept(meta)`` chooses among entries of other encoders (default: :func:`untuned`, so a tuned model's
    vectors of the same uses are never taken for the untuned encoder's).
    """
    from wsd.embed.cache import occurrences_digest, read_entry

    digest = occurrences_digest(occurrences)
    for meta_file in sorted(cache_dir.glob("*.json")):
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        if meta.get("occurrences") == digest and meta.get("rows") == len(occurrences) and accept(meta):
            vectors = read_entry(meta_file.with_suffix(".npy"), len(occurrences))
            if vectors is not None:
                return vectors, meta
    return None


def _order_score(table: Any, keys: Sequence[str]) -> np.ndarray:
    """A number per row that orders the rows as sorting by ``keys`` (descending) does: the negated rank."""
    order = np.lexsort([table[key].to_numpy(dtype=float) for key in reversed(keys)])[::-1]
    ranks = np.empty(len(order), dtype=float)
    ranks[order] = np.arange(len(order), dtype=float)
    return -ranks


def rho_pair(comparison: Any, gold: Any) -> dict[str, float]:
    """ρ of each order (point score, lower end, shrunk score) against the gold, with paired word-bootstrap intervals."""
    from wsd.change.compare import RANK_KEYS
    from wsd.evaluate.metrics.change import spearman

    ranking = comparison.ranking.set_index("target")
    words = [w for w in ranking.index if w in gold.index]
    y = gold.loc[words].to_numpy(dtype=float)
    # each order is scored as the ranking it makes (its sort keys and tie-breakers), not as its first column alone
    orders = {column: _order_score(ranking.loc[words], RANK_KEYS[rank_by]) for column, rank_by in ORDERS.items()}
    figures: dict[str, Any] = {}
    for column in ORDERS:
        figures[column] = spearman(orders[column], y)
    rng = np.random.default_rng(0)
    draws: dict[str, list[float]] = {column: [] for column in list(ORDERS)[1:]}
    for _ in range(N_WORD_BOOTSTRAP):
        pick = rng.integers(0, len(words), size=len(words))
        base = spearman(orders["score"][pick], y[pick])
        for column in list(ORDERS)[1:]:
            other = spearman(orders[column][pick], y[pick])
            if base is not None and other is not None:
                draws[column].append(other - base)
    for column, values in draws.items():
        figures[f"{column}_difference"] = [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]
    figures["words"] = len(words)
    return figures


def run(name: str, data_dir: Path, cache_dir: Path, resamples: int, seed: int, embed: bool, model: str | None):
    """The figures of one dataset, or None (with a line on stderr) when its vectors are not cached."""
    from wsd.change import compare_slices
    from wsd.evaluate.datasets.wug import PERIOD_COLUMN

    bundle = load(name, data_dir)
    found = cached_vectors(bundle.occurrences, cache_dir)
    if found is None and not embed:
        log(f"{name}: no cached vectors of its {len(bundle.occurrences)} uses in {cache_dir}; skipped (--embed)")
        return None
    if found is None:
        from experiments.lscd import embed as embed_uses

        vectors_list, meta = embed_uses(bundle, model)
        vectors = vectors_list[0]
    else:
        vectors, meta = found
    gold, gold_column = gold_scores(bundle)
    result: dict[str, Any] = {
        "gold": gold_column,
        "encoder": {k: meta.get(k) for k in ("model", "precision", "model_fingerprint")},
    }
    for measure in MEASURES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            comparison = compare_slices(
                bundle.occurrences,
                X=np.asarray(vectors, dtype=np.float32),
                by=PERIOD_COLUMN,
                measure=measure,
                min_uses=1,
                resamples=resamples,
                random_state=seed,
            )
        result[measure] = rho_pair(comparison, gold)
        log(f"{name} {measure}: rho score {result[measure]['score']:.3f}, score_low {result[measure]['score_low']:.3f}")
    return result


def verdict(results: dict[str, Any]) -> list[str]:
    """Per uncertainty-aware order: its worst difference to the point score, and how many intervals lie below 0."""
    lines = []
    for column, rank_by in list(ORDERS.items())[1:]:
        rows = [
            (result[m][column] - result[m]["score"], result[m][f"{column}_difference"][1], name, m)
            for name, result in results.items()
            if result is not None
            for m in MEASURES
            if result[m].get(column) is not None and f"{column}_difference" in result[m]
        ]
        if not rows:
            continue
        worst = min(rows)
        below = [f"{name} {m}" for _, high, name, m in rows if high < 0]
        lines.append(
            f"- `--rank-by {rank_by}` (`{column}`): worst difference {worst[0]:+.3f} ({worst[2]} {worst[3]}); "
            f"intervals wholly below 0: {len(below)} of {len(rows)}" + (f" ({', '.join(below)})" if below else "")
        )
    return lines


def markdown(results: dict[str, Any], command: str) -> str:
    """The results page."""
    lines = [
        "# Uncertainty-aware change rankings against the point score (issue 25)",
        "",
        *header_lines(
            command, 1, None, ["- Figures are fractions (ρ), not percent; the encoder of each dataset is named."]
        ),
    ]
    lines.append("")
    lines.append(
        "Spearman ρ against the graded gold of the point change score (`score`), of the lower end of its 95% "
        "bootstrap interval (`score_low`, the order of `wsd change --rank-by lower`) and of the score shrunk toward "
        "the mean by its uncertainty (`score_shrunk`, `--rank-by shrunk`); each difference to `score` with a paired "
        "word-bootstrap 95% interval. Every word the gold scores is compared (`min_uses=1`)."
    )
    lines += [
        "",
        "| dataset | encoder | words | measure | ρ score | ρ score_low | difference | ρ score_shrunk | difference |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for name, result in results.items():
        if result is None:
            lines.append(f"| {name} | – | – | – | not run (no cached vectors; `--embed`) | – | – | – | – |")
            continue
        model = Path(str(result["encoder"].get("model"))).name
        for measure in MEASURES:
            figures = result[measure]
            cells = [f"{figures['score']:.3f}"]
            for column in list(ORDERS)[1:]:
                if figures.get(column) is None:
                    cells += ["–", "–"]
                    continue
                low, high = figures.get(f"{column}_difference", [float("nan")] * 2)
                cells += [
                    f"{figures[column]:.3f}",
                    f"{figures[column] - figures['score']:+.3f} [{low:+.2f}, {high:+.2f}]",
                ]
            lines.append(f"| {name} | {model} | {figures['words']} | {measure} | {' | '.join(cells)} |")
    lines += ["", *verdict(results)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.lscd_rank_by", description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="dwug_en", help="comma-separated: " + ", ".join(DATASETS))
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--cache-dir", type=Path, default=None, help="vector cache (default: $WSD_CACHE_DIR)")
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--embed", action="store_true", help="embed a dataset whose vectors are not cached")
    parser.add_argument("--model", default=None, help="encoder when embedding (default: the bundled MiniLM)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR)
    args = parser.parse_args(argv)
    from wsd.embed.cache import default_cache_dir

    cache_dir = args.cache_dir or default_cache_dir()
    names = [n.strip() for n in args.datasets.split(",") if n.strip()]
    results = {
        name: run(name, args.data_dir, cache_dir, args.resamples, args.seed, args.embed, args.model) for name in names
    }
    command = command_line()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "lscd_rank_by.json").write_text(json.dumps({"command": command, "results": results}, indent=2))
    (args.out / "lscd_rank_by.md").write_text(markdown(results, command), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
