"""Does ranking by the lower end of the bootstrap interval rank words no worse than the point score? (issue 25)

Run from the repository root::

    python -m experiments.lscd_rank_by [--datasets dwug_en,...] [--data-dir DIR] [--cache-dir DIR] \\
        [--resamples 200] [--seed 0] [--embed] [--model NAME]

For each WUG dataset the uses' vectors are taken from the vector cache (:mod:`wsd.embed.cache`, ``$WSD_CACHE_DIR``):
the entry of the same occurrence table (its digest) and row count; without ``--embed`` a dataset with no such
entry is skipped and named (never embedded), with ``--embed`` it is embedded with the default recipe (minutes
of CPU per dataset). Each word's two periods are compared by :func:`wsd.change.compare_slices` (``min_uses=1``:
every word the gold scores), and the script reports Spearman ρ against the graded gold of the point score
(``score``: APD and PRT) and of the lower end of its bootstrap interval (``score_low``, the ranking's order
under ``rank_by="lower"``), with the figures written to ``experiments/results/lscd_rank_by.md``.
"""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, RESULTS_DIR, command_line, header_lines, log
from experiments.lscd import DATASETS, gold_scores, load

MEASURES = ("apd", "prt")


def cached_vectors(occurrences: Any, cache_dir: Path) -> tuple[np.ndarray, dict[str, Any]] | None:
    """The cached vectors of exactly this occurrence table (same digest and row count), with their metadata."""
    from wsd.embed.cache import occurrences_digest, read_entry

    digest = occurrences_digest(occurrences)
    for meta_file in sorted(cache_dir.glob("*.json")):
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        if meta.get("occurrences") == digest and meta.get("rows") == len(occurrences):
            vectors = read_entry(meta_file.with_suffix(".npy"), len(occurrences))
            if vectors is not None:
                return vectors, meta
    return None


def rho_pair(comparison: Any, gold: Any) -> dict[str, float]:
    """ρ of the point score and of its interval's lower end against the gold, over the words with a gold value."""
    from wsd.evaluate.metrics.change import spearman

    ranking = comparison.ranking.set_index("target")
    words = [w for w in ranking.index if w in gold.index]
    figures = {}
    for column in ("score", "score_low"):
        figures[column] = spearman(ranking.loc[words, column].to_numpy(), gold.loc[words].to_numpy())
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


def markdown(results: dict[str, Any], command: str) -> str:
    """The results page."""
    lines = [
        "# Ranking by the lower end of the bootstrap interval (issue 25)",
        "",
        *header_lines(
            command, 1, None, ["- Figures are fractions (ρ), not percent; the encoder of each dataset is named."]
        ),
    ]
    lines.append("")
    lines.append(
        "Spearman ρ against the graded gold of the point change score (`score`) and of the lower end of its 95% "
        "bootstrap interval (`score_low`, the order of `wsd change --rank-by lower`, the default). Every word the "
        "gold scores is compared (`min_uses=1`)."
    )
    lines += [
        "",
        "| dataset | encoder | words | measure | ρ score | ρ score_low | difference |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    for name, result in results.items():
        if result is None:
            lines.append(f"| {name} | – | – | – | not run (no cached vectors; `--embed`) | – | – |")
            continue
        model = Path(str(result["encoder"].get("model"))).name
        for measure in MEASURES:
            figures = result[measure]
            lines.append(
                f"| {name} | {model} | {figures['words']} | {measure} | {figures['score']:.3f} | "
                f"{figures['score_low']:.3f} | {figures['score_low'] - figures['score']:+.3f} |"
            )
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
