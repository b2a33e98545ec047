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
go to ``experiments/results/lscd_rank_by/lscd_rank_by.md``.

The issue's other option, a significance test, is measured beside them (not offered by wsd): each word's two
periods' uses are shuffled between the periods (:data:`N_PERMUTATIONS` times, seeded), the measure recomputed, and
the words ordered by the permutation p-value (the point score breaking ties) or by the z-score of the point
score against the shuffled ones.

Only the cache entries of each dataset's default encoder are read (the bundled MiniLM for DWUG EN, the
multilingual encoder for the others, or ``--model`` by its folder name): a tuned model's vectors of the same uses,
or another encoder's, are never taken for them.
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, header_lines, log, results_dir
from experiments.lscd import DATASETS, gold_scores, load

MEASURES = ("apd", "prt")
#: The orders compared (their column -> the ``rank_by`` that sorts by it): the point score, the interval's lower
#: end, the shrunk score.
ORDERS = {"score": "score", "score_low": "lower", "score_shrunk": "shrunk"}
#: The significance-test orders measured beside them (column -> what it orders by); not ``rank_by`` choices.
TEST_ORDERS = {
    "permutation_p": "the permutation p-value (the score breaking ties)",
    "permutation_z": "the z-score against the shuffled scores",
}
#: Word-bootstrap resamples of the differences' intervals.
N_WORD_BOOTSTRAP = 1000


#: Shuffles of each word's period labels for the significance-test orders.
N_PERMUTATIONS = 200
#: The folder name of each kind of dataset's default encoder (``DATASETS``' multilingual flag -> name).
DEFAULT_ENCODERS = {False: "all-MiniLM-L6-v2", True: "multilingual-e5-small-q4"}


def encoder_named(name: str) -> Any:
    """A cache-entry filter: the entries whose encoder is the model ``name`` (a Hub name or a folder of that name).

    A model ``experiments.tune`` wrote (``out/experiments-tune/...``, relative or absolute) has another folder name,
    and so does every other encoder: their vectors of the same uses are never taken for this one's.

    Examples
    --------
    >>> accept = encoder_named("all-MiniLM-L6-v2")
    >>> accept({"model": "all-MiniLM-L6-v2"}), accept({"model": "/work/main/out/experiments-tune/dwug-sotu-distill"})
    (True, False)
    >>> encoder_named("multilingual-e5-small-q4")({"model": "/work/models/multilingual-e5-small-q4"})
    True
    """
    wanted = Path(name).name

    def accept(meta: dict[str, Any]) -> bool:
        model = str(meta.get("model") or "")
        return bool(model) and Path(model).name == wanted

    return accept


def default_encoder(dataset: str, model: str | None = None) -> Any:
    """The cache-entry filter of a dataset's default encoder (or of ``model`` where one is given)."""
    from experiments.lscd import DATASETS

    return encoder_named(model or DEFAULT_ENCODERS[DATASETS[dataset][1]])


def cached_vectors(occurrences: Any, cache_dir: Path, accept: Any) -> tuple[np.ndarray, dict[str, Any]] | None:
    """The cached vectors of exactly this occurrence table (same digest and row count), with their metadata.

    ``accept(meta)`` chooses the encoder (:func:`default_encoder`): entries of other encoders for the same uses
    are passed over.
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


def permutation_tests(
    occurrences: Any, vectors: np.ndarray, by: str, measure: str, seed: int, permutations: int = N_PERMUTATIONS
) -> Any:
    """Per target, a permutation test of the change score between its first and last slice of ``by``.

    The uses of the two slices are shuffled between them (the slice sizes kept) ``permutations`` times, seeded per
    target; ``p`` is ``(1 + #{shuffled >= observed}) / (permutations + 1)`` and ``z`` the observed score's distance
    from the shuffled scores' mean in their standard deviations.

    Returns
    -------
    pandas.DataFrame
        Indexed by target: ``score``, ``p``, ``z``.
    """
    import pandas as pd

    from wsd.change.measures import apd, prt
    from wsd.change.uncertainty import seed_for

    distance = {"apd": apd, "prt": prt}[measure]
    values = occurrences[by].to_numpy()
    ordered = sorted(pd.unique(values))
    first, last = ordered[0], ordered[-1]
    rows = {}
    for target, group in occurrences.reset_index(drop=True).groupby("target", sort=True):
        a = group.index[values[group.index] == first].to_numpy()
        b = group.index[values[group.index] == last].to_numpy()
        if len(a) == 0 or len(b) == 0:
            continue
        observed = distance(vectors[a], vectors[b])
        pooled, rng = np.concatenate([a, b]), seed_for(seed, str(target), "permutation")
        shuffled = np.empty(permutations)
        for i in range(permutations):
            order = rng.permutation(pooled)
            shuffled[i] = distance(vectors[order[: len(a)]], vectors[order[len(a) :]])
        spread = float(shuffled.std())
        rows[target] = {
            "score": observed,
            "p": (1 + int((shuffled >= observed).sum())) / (permutations + 1),
            "z": (observed - float(shuffled.mean())) / spread if spread > 0 else 0.0,
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def rho_pair(comparison: Any, gold: Any, tests: Any = None) -> dict[str, float]:
    """ρ of each order against the gold, each with a paired word-bootstrap interval of its difference to the score.

    The orders: the point score, the lower end, the shrunk score, and with ``tests`` (:func:`permutation_tests`)
    the permutation p-value (the score breaking ties) and the z-score.
    """
    from wsd.change.compare import RANK_KEYS
    from wsd.evaluate.metrics.change import spearman

    ranking = comparison.ranking.set_index("target")
    words = [w for w in ranking.index if w in gold.index]
    y = gold.loc[words].to_numpy(dtype=float)
    # each order is scored as the ranking it makes (its sort keys and tie-breakers), not as its first column alone
    orders = {column: _order_score(ranking.loc[words], RANK_KEYS[rank_by]) for column, rank_by in ORDERS.items()}
    if tests is not None:
        table = tests.loc[words].assign(minus_p=lambda t: -t["p"])
        orders["permutation_p"] = _order_score(table, ["minus_p", "score"])
        orders["permutation_z"] = _order_score(table, ["z", "score"])
    figures: dict[str, Any] = {}
    for column in orders:
        figures[column] = spearman(orders[column], y)
    rng = np.random.default_rng(0)
    draws: dict[str, list[float]] = {column: [] for column in orders if column != "score"}
    for _ in range(N_WORD_BOOTSTRAP):
        pick = rng.integers(0, len(words), size=len(words))
        base = spearman(orders["score"][pick], y[pick])
        for column in draws:
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
    found = cached_vectors(bundle.occurrences, cache_dir, default_encoder(name, model))
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
        X = np.asarray(vectors, dtype=np.float64)
        tests = permutation_tests(bundle.occurrences, X, PERIOD_COLUMN, measure, seed)
        result[measure] = rho_pair(comparison, gold, tests)
        log(f"{name} {measure}: rho score {result[measure]['score']:.3f}, score_low {result[measure]['score_low']:.3f}")
    return result


def verdict(results: dict[str, Any]) -> list[str]:
    """Per uncertainty-aware order: its worst difference to the point score, and how many intervals lie below 0."""
    lines = []
    names = {column: f"`--rank-by {rank_by}` (`{column}`)" for column, rank_by in list(ORDERS.items())[1:]}
    for column, rank_by in [*names.items(), *TEST_ORDERS.items()]:
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
            f"- {rank_by}: worst difference {worst[0]:+.3f} ({worst[2]} {worst[3]}); "
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
    lines += [
        "",
        "A significance test instead (measured here, not offered by wsd): each word's uses shuffled between its two "
        f"periods {N_PERMUTATIONS} times (seeded), the words ordered by {TEST_ORDERS['permutation_p']} or by "
        f"{TEST_ORDERS['permutation_z']}; each difference to `score` with a paired word-bootstrap 95% interval.",
        "",
        "| dataset | measure | ρ score | ρ permutation p | difference | ρ z-score | difference |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name, result in results.items():
        if result is None:
            continue
        for measure in MEASURES:
            figures = result[measure]
            if figures.get("permutation_p") is None:
                continue
            cells = [f"{figures['score']:.3f}"]
            for column in TEST_ORDERS:
                low, high = figures[f"{column}_difference"]
                cells += [
                    f"{figures[column]:.3f}",
                    f"{figures[column] - figures['score']:+.3f} [{low:+.2f}, {high:+.2f}]",
                ]
            lines.append(f"| {name} | {measure} | {' | '.join(cells)} |")
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
    parser.add_argument("--out", type=Path, default=results_dir("lscd_rank_by"))
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
