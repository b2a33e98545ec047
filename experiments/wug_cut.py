"""Senses cut where the judges' "same meaning" ends: DWUG EN's JSD from a similarity cut learned on the other half.

Run from the repository root, after ``experiments.sense_minilm_seeds`` and ``experiments.sense_mpnet`` have built
the models named below (minutes; the vectors are cached)::

    python -m experiments.wug_cut [--data-dir ../shared/datasets] [--mpnet-model /work/models/all-mpnet-base-v2] \\
        [--models NAME=FOLDER,...] [--name NAME] [--dataset dwug_en] [--base NAME=FOLDER]

**Why.** Issue 40 asks, on DWUG EN out of fold (two halves; the other half's judgments may be used), for ρ ≥ 0.45
between the JSD of the induced senses of the two periods and the graded gold change. The Word-in-Context models
rank change well by their vectors (ρ PRT 0.57 for MiniLM, 0.65 for MPNet) but their senses' JSD stays at
0.24–0.42 (``sense_minilm_seeds.md``, ``sense_mpnet.md``, ``tune_space-wic.md``). DWUG's gold senses are a
correlation clustering of the judgment graph: two uses belong together where their median judgment is above 2.5
on the 1–4 scale. The default recipe instead picks k by the silhouette, which knows nothing of where "same
meaning" ends. A model tuned on same/different-meaning pairs gives a cosine that can be read against that scale.
``experiments/lscd.py`` tried such WUG-like cuts on the untuned MiniLM only, at fixed cosines (0.6–0.74) chosen by
no judgment.

**The protocol, fixed before any figure of this script.**

- *Models.* The bundled MiniLM untuned (always first), then those of ``--models`` (default :data:`DEFAULT_MODELS`:
  the three Word-in-Context MiniLM seeds of ``sense_minilm_seeds`` and the two MPNet seeds of ``sense_mpnet``,
  none of which saw a DWUG EN judgment or lemma), and all-mpnet-base-v2 untuned when ``--mpnet-model`` is given.
- *Vectors.* The default recipe's (target vector with its context vector), as the clusterer sees them
  (:func:`experiments.lscd.clustered_vectors`: half of each form's offset removed, L2-normalised).
- *Halves.* :func:`experiments.lscd.split_words`: the 23 words at even positions in sorted order and the 23 at odd
  positions. Every figure of a word comes from a cut learned on the other half only.
- *Senses, per word*, three settings:

  1. **default**: the default recipe (Ward, k by the silhouette over 2–7), the figure the other pages report;
  2. **judged cut**: average-linkage clustering on cosine, merging while the mean similarity between two clusters
     is at least c (:func:`experiments.lscd.word_result` with ``threshold=c``, a greedy correlation clustering as
     the gold's). c for a half's words is the cosine threshold that best tells the other half's judged pairs
     apart: median judgment above 2.5 ("same") against below 2.5 (2.5 dropped), pooled over that half's words,
     highest accuracy (:func:`judged_cut`; the exact maximiser over the midpoints between the sorted cosines,
     the smallest on a tie). It reads judgments, never the change gold;
  3. **ρ-chosen cut**: the same clustering, c from :data:`CUT_GRID` chosen on the other half by ρ JSD against
     the graded gold change (the smallest on a tie): the search that reads the change gold of the other half.

- *Measures.* ρ JSD (Spearman, all 46 words, each word's JSD from its half's cut) against ``change_graded``; ARI
  against the gold senses, weighted by each word's clustered uses (one sense for every word gives 13.4); the mean
  number of senses. Word-bootstrap 95% intervals (:data:`N_BOOTSTRAP` resamples, seed 0, each word keeping its
  half's cut) of ρ JSD and of the difference from the same model's default recipe.
- *Read-out.* Issue 40's targets: ρ JSD ≥ 0.45 and ARI ≥ one sense + 5. A setting meets them only if it does for
  every tuned seed of a model. Nothing here changes the library's default; a setting that meets them is a
  candidate for it, to be tested on other data first.

**The recipe's own builds** (added after the figures of the default list, before any figure of these models):
``--name wug_cut-recipe --models "recipe fp32 build=out/experiments-sense-minilm-seeds/recipe-sense-minilm,recipe
portable build=out/experiments-sense-minilm-seeds/recipe-sense-minilm-portable"`` scores the two builds of
``wsd tune --recipe sense-minilm`` that ``sense_minilm_seeds --recipe-row`` made on the AMX Xeon (the machine's
own fp32 arithmetic, and the portable one every recipe now trains in) by the same protocol, unchanged: what a
user of ``wsd:sense-minilm`` got from version 1 of the recipe (the trained mix alone) with the judged cut.

**The other WUG sets** (declared before any figure of them): ``--dataset nordiachange1|nordiachange2|rusemshift1|
rusemshift2`` runs the same protocol, unchanged, on that set (its halves, judgments and graded gold; RuSemShift
has no gold clusters, so no ARI), with ``--base NAME=FOLDER`` as the untuned row instead of the English MiniLM: the
multilingual e5 base, and as ``--models`` the ``sense_multilingual`` models that left the set's language group out
(``norwegian-seedN`` for NorDiaChange, ``russian-seedN`` for RuSemShift). Issue 40's multilingual condition is read
from it: the recipe clearly above the untuned base, across seeds. Run as, e.g.::

    python -m experiments.wug_cut --dataset nordiachange1 --name wug_cut-nordiachange1 \
        --base "untuned e5=/work/models/multilingual-e5-small-q4" \
        --models "seed 2=out/experiments-sense-multilingual/norwegian-seed2"

Results: ``experiments/results/wug_cut/wug_cut.md`` / ``.json`` (``--name NAME``: ``NAME.md`` / ``.json``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments import tune_space
from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, save_page
from wsd.senses.cut import SCALE_MIDPOINT

RESULTS_JSON, RESULTS_MD = results_dir("wug_cut") / "wug_cut.json", results_dir("wug_cut") / "wug_cut.md"
#: The tuned models scored by default (built by ``sense_minilm_seeds`` and ``sense_mpnet``).
DEFAULT_MODELS = (
    "MiniLM WiC seed 0=out/experiments-sense-minilm-seeds/wic-seed0,"
    "MiniLM WiC seed 1=out/experiments-sense-minilm-seeds/wic-seed1,"
    "MiniLM WiC seed 2=out/experiments-sense-minilm-seeds/wic-seed2,"
    "MPNet WiC seed 0=out/experiments-sense-mpnet/wic-seed0,"
    "MPNet WiC seed 1=out/experiments-sense-mpnet/wic-seed1"
)
#: Cuts (mean cosine between two clusters) the ρ-chosen setting picks from.
CUT_GRID = tuple(round(0.2 + 0.05 * i, 2) for i in range(15))
#: Word-bootstrap resamples of the intervals (seeded; :func:`experiments.tune_space.bootstrap_against`'s).
N_BOOTSTRAP = tune_space.N_BOOTSTRAP
SETTINGS = ("default", "judged", "chosen")


#: How the page names each WUG set.
DATASET_LABELS = {
    "dwug_en": "DWUG EN",
    "nordiachange1": "NorDiaChange 1",
    "nordiachange2": "NorDiaChange 2",
    "rusemshift1": "RuSemShift 1",
    "rusemshift2": "RuSemShift 2",
}


def wug_set(folder: Path) -> tuple[Any, dict[str, float]]:
    """A WUG set's uses and its graded change per word (``experiments.lscd.gold_scores``)."""
    import warnings

    from experiments.lscd import gold_scores
    from wsd.evaluate.datasets import wug

    bundle = wug.load(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold_series, _ = gold_scores(bundle)
    return bundle, {str(k): float(v) for k, v in gold_series.items()}


def judged_cut(similarity: np.ndarray, judgment: np.ndarray) -> float:
    """The cosine threshold that best tells "same meaning" pairs from "different" ones (highest accuracy).

    Parameters
    ----------
    similarity : ndarray (m,)
        Cosine of each judged pair.
    judgment : ndarray (m,)
        Its median judgment on the 1–4 scale; pairs at :data:`SCALE_MIDPOINT` are left out.

    Returns
    -------
    float
        The midpoint between two consecutive distinct cosines (or just beyond the extremes) at which calling a
        pair "same" when its cosine is at least the threshold is right most often; the smallest such threshold.

    >>> judged_cut(np.array([0.1, 0.2, 0.8, 0.9]), np.array([1.0, 2.0, 3.0, 4.0]))
    0.5
    >>> judged_cut(np.array([0.1, 0.9, 0.5]), np.array([1.0, 4.0, 2.5]))
    0.5
    """
    from wsd.senses.cut import judged_cut as learned

    return learned(similarity, judgment, SCALE_MIDPOINT)[0]


def pooled_pairs(
    vectors: np.ndarray, table: Any, pairs: dict[str, tuple[np.ndarray, ...]], words: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """The cosines (on the clusterer's vectors, :func:`experiments.lscd.clustered_vectors`) and judgments of the
    judged pairs of ``words``, pooled.

    Parameters
    ----------
    vectors : ndarray (n, d)
        Every use's vector, row-aligned with ``table``.
    table : DataFrame
        The uses (``target``, ``form``).
    pairs : dict
        Each word's judged pairs (:func:`experiments.tune_space.judged_pairs`).
    words : sequence of str
        The words pooled.

    Returns
    -------
    (ndarray, ndarray)
    """
    from experiments.lscd import clustered_vectors
    from wsd.evaluate.metrics.usage_pairs import pair_cosines

    targets, forms = table["target"].to_numpy(), table["form"].to_numpy()
    cosines, judgments = [], []
    for word in words:
        rows = np.flatnonzero(targets == word)
        first, second, judgment = pairs[word]
        cosines.append(pair_cosines(clustered_vectors(vectors[rows].astype(np.float64), forms[rows]), first, second))
        judgments.append(judgment)
    return np.concatenate(cosines), np.concatenate(judgments)


def word_settings(
    X: np.ndarray, forms: np.ndarray, periods: np.ndarray, senses: np.ndarray, cuts: Sequence[float]
) -> dict[str, Any]:
    """One word's JSD, ARI and number of senses under the default recipe and at each cut.

    Parameters
    ----------
    X : ndarray (n, d)
        The word's vectors (default recipe).
    forms, periods, senses : ndarray (n,)
        Word form, period (0/1) and gold sense ("" where none) of each use.
    cuts : sequence of float
        The mean-similarity cuts clustered at.

    Returns
    -------
    dict
        ``default`` and ``cuts`` (cut → figures), each ``jsd``, ``ari``, ``n_senses``; and ``n_clustered``.
    """
    from experiments.lscd import Setting, word_result
    from wsd.senses.recipes import recipe

    default = word_result(Setting("default", recipe("default")), X, forms, periods, senses, None)

    def figures(result: Any) -> dict[str, float]:
        return {"jsd": result.scores["jsd"], "ari": result.ari, "n_senses": float(result.n_senses)}

    at_cut = {}
    for cut in sorted(set(cuts)):
        result = word_result(Setting("cut", recipe("default"), threshold=cut), X, forms, periods, senses, None)
        at_cut[f"{cut:.6g}"] = figures(result)
    return {"default": figures(default), "cuts": at_cut, "n_clustered": float(default.n_clustered)}


def score_model(
    bundle: Any, pairs: dict[str, tuple[np.ndarray, ...]], gold: dict[str, float], model: str | None
) -> dict[str, Any]:
    """Every word's figures for one model under the three settings (module docstring), with the cuts chosen.

    Parameters
    ----------
    bundle : DatasetBundle
        DWUG EN's uses.
    pairs : dict
        Each word's judged pairs (:func:`experiments.tune_space.judged_pairs`).
    gold : dict
        Graded gold change of each word.
    model : str or None
        The encoder (None: the bundled MiniLM).

    Returns
    -------
    dict
        ``cuts`` (the judged and ρ-chosen cut for each half), ``words`` (setting → word → ``jsd``, ``ari``,
        ``n_senses``, ``n_clustered``) and ``summary`` (setting → ``rho_jsd``, ``ari``, ``mean_senses``).
    """
    from threadpoolctl import threadpool_limits

    from experiments.lscd import embed, split_words
    from experiments.tune_space import _rho
    from wsd.evaluate.datasets.wug import period_of

    (vectors,), _ = embed(bundle, model)
    table = bundle.occurrences
    targets, forms, periods = table["target"].to_numpy(), table["form"].to_numpy(), period_of(table)
    # a set without gold clusters (RuSemShift) has no sense column: every use unclustered, ARI not measured
    senses = (table["sense"].fillna("") if "sense" in table else pd.Series([""] * len(table))).astype(str).to_numpy()
    words = sorted(gold)
    halves = split_words(words)
    rows = {word: np.flatnonzero(targets == word) for word in words}
    # the judged cut of each half, from the other half's pairs
    judged: dict[str, float] = {}
    for scored, other in (("dev", "held_out"), ("held_out", "dev")):
        judged[scored] = judged_cut(*pooled_pairs(vectors, table, pairs, halves[other]))
    figures: dict[str, dict[str, Any]] = {}
    with threadpool_limits(limits=1):
        for word in words:
            r = rows[word]
            cuts = [*CUT_GRID, *judged.values()]
            figures[word] = word_settings(vectors[r].astype(np.float64), forms[r], periods[r], senses[r], cuts)
    # the ρ-chosen cut of each half, from the other half's words and gold
    chosen: dict[str, float] = {}
    for scored, other in (("dev", "held_out"), ("held_out", "dev")):
        y = np.array([gold[w] for w in halves[other]])

        def rho_at(cut: float, names: list[str] = halves[other], y: np.ndarray = y) -> float:
            rho = _rho(np.array([figures[w]["cuts"][f"{cut:.6g}"]["jsd"] for w in names]), y)
            return -math.inf if math.isnan(rho) else rho

        chosen[scored] = max(CUT_GRID, key=lambda cut: (rho_at(cut), -cut))
    half_of = {w: half for half, names in halves.items() for w in names}
    per_setting: dict[str, dict[str, dict[str, float]]] = {name: {} for name in SETTINGS}
    for word in words:
        base = {"n_clustered": figures[word]["n_clustered"]}
        per_setting["default"][word] = base | figures[word]["default"]
        per_setting["judged"][word] = base | figures[word]["cuts"][f"{judged[half_of[word]]:.6g}"]
        per_setting["chosen"][word] = base | figures[word]["cuts"][f"{chosen[half_of[word]]:.6g}"]
    return {
        "cuts": {"judged": judged, "chosen": chosen},
        "words": per_setting,
        "summary": {name: summary(per_setting[name], gold) for name in SETTINGS},
    }


def summary(words: dict[str, dict[str, float]], gold: dict[str, float]) -> dict[str, float]:
    """ρ JSD over all words, the clustered-use-weighted ARI and the mean number of senses of one setting.

    Parameters
    ----------
    words : dict
        Word → ``jsd``, ``ari``, ``n_senses``, ``n_clustered``.
    gold : dict
        Graded gold change of each word.

    Returns
    -------
    dict
    """
    from experiments.tune_space import _rho, weighted_ari

    names = sorted(gold)
    return {
        "rho_jsd": _rho(np.array([words[w]["jsd"] for w in names]), np.array([gold[w] for w in names])),
        "ari": weighted_ari(words, names, "ari"),
        "mean_senses": float(np.mean([words[w]["n_senses"] for w in names])),
    }


def intervals(cell: dict[str, Any], gold: dict[str, float], seed: int = 0) -> dict[str, dict[str, list[float]]]:
    """Word-bootstrap 95% intervals of each setting's ρ JSD and ARI, and of their differences from the default.

    Parameters
    ----------
    cell : dict
        :func:`score_model`'s result.
    gold : dict
        Graded gold change of each word.
    seed : int
        Seeds the resampling.

    Returns
    -------
    dict
        Setting → ``rho_jsd``, ``rho_jsd_difference``, ``ari``, ``ari_difference``: each [2.5%, 97.5%].
    """
    from experiments.tune_space import bootstrap_against

    base = cell["words"]["default"]
    return {name: bootstrap_against(cell["words"][name], base, gold, seed) for name in SETTINGS}


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    one = 100 * results["one_sense_ari"]
    label = results.get("dataset_label", "DWUG EN")
    lines = [
        '# Senses cut where the judges\' "same meaning" ends (issue 40)',
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}; {results['date']}",
        f"- {results['words']} {label} words, {results['pairs']:,} judged pairs. No tuned model saw a {label} "
        "judgment or lemma in training; each half's cuts come from the other half (its judgments for the judged cut, "
        "its words' change gold for the ρ-chosen cut). The protocol is in `experiments/wug_cut.py`, fixed before any "
        "figure.",
        f"- ρ JSD: Spearman's ρ of the senses' JSD against `change_graded` over all words, with its word-bootstrap "
        f"95% interval and, for the cuts, the interval of the difference from the same model's default recipe "
        f"({N_BOOTSTRAP:,} resamples). "
        + (
            f"ARI ×100, weighted by each word's uses with a gold sense; one sense for every word gives {one:.1f}. "
            f"Issue 40's targets: ρ JSD ≥ 0.45, ARI ≥ {one + 5:.1f}."
            if math.isfinite(one)
            else f"ARI: none ({label} has no gold senses, so its cells read nan). Issue 40's target: ρ JSD ≥ 0.45."
        ),
        "",
        "| model | setting | cut (even / odd words) | ρ JSD [95%] | ρ JSD − default [95%] | ARI [− default, 95%] | "
        "mean senses |",
        "|---|---|---|---|---|---|---:|",
    ]
    labels = {"default": "default recipe", "judged": "judged cut", "chosen": "ρ-chosen cut"}
    for name, cell in results["models"].items():
        for setting in SETTINGS:
            s, ci = cell["summary"][setting], cell["intervals"][setting]
            cut = (
                "–"
                if setting == "default"
                else (f"{cell['cuts'][setting]['dev']:.3f} / {cell['cuts'][setting]['held_out']:.3f}")
            )
            difference = (
                "–"
                if setting == "default"
                else (
                    f"{s['rho_jsd'] - cell['summary']['default']['rho_jsd']:+.3f} "
                    f"[{ci['rho_jsd_difference'][0]:+.3f}, {ci['rho_jsd_difference'][1]:+.3f}]"
                )
            )
            ari = f"{100 * s['ari']:.1f}" + (
                ""
                if setting == "default"
                else f" [{100 * ci['ari_difference'][0]:+.1f}, {100 * ci['ari_difference'][1]:+.1f}]"
            )
            lines.append(
                f"| {name} | {labels[setting]} | {cut} | {s['rho_jsd']:.3f} [{ci['rho_jsd'][0]:.2f}, "
                f"{ci['rho_jsd'][1]:.2f}] | {difference} | {ari} | {s['mean_senses']:.2f} |"
            )
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.wug_cut", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--mpnet-model", type=Path, default=None, help="all-mpnet-base-v2 (adds its untuned row)")
    parser.add_argument("--models", default=DEFAULT_MODELS, help="NAME=FOLDER,...: the tuned models scored")
    parser.add_argument("--name", default="wug_cut", help="the results page's name")
    parser.add_argument("--dataset", default="dwug_en", help="the WUG set: dwug_en, nordiachange1|2, rusemshift1|2")
    parser.add_argument("--base", default=None, help="NAME=FOLDER: the untuned row (default: the bundled MiniLM)")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    json_file, md_file = RESULTS_JSON.with_name(f"{args.name}.json"), RESULTS_MD.with_name(f"{args.name}.md")
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    from experiments.lscd import DATASETS
    from experiments.tune_space import judged_pairs, one_sense_ari, parse_models
    from wsd import machine
    from wsd.errors import InputError

    try:  # bad input: one line and exit 2, not a traceback
        if args.dataset not in DATASETS:
            raise InputError(f"--dataset {args.dataset!r}: choose from {', '.join(DATASETS)}")
        tuned = [(name, folder) for name, folder, _ in parse_models(args.models)]
        base = (
            [(name, folder) for name, folder, _ in parse_models(args.base)] if args.base else [("untuned MiniLM", None)]
        )
        for name, folder in [*tuned, *base]:
            if folder is not None and not (Path(folder) / "config.json").is_file():
                raise InputError(f"{folder}: no model for {name!r}; build it with its experiment")
    except InputError as error:
        parser.error(str(error))
    models: list[tuple[str, str | None]] = [*base[:1], *tuned]
    if args.mpnet_model is not None:
        models.insert(len(models) - sum("MPNet" in n for n, _ in tuned), ("untuned MPNet", str(args.mpnet_model)))
    folder = args.data_dir / "lscd" / DATASETS[args.dataset][0]
    bundle, gold = wug_set(folder)
    words = sorted(gold)
    pairs = judged_pairs(args.data_dir, bundle, words, folder)
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "dataset": args.dataset,
        "dataset_label": DATASET_LABELS[args.dataset],
        "words": len(words),
        "pairs": sum(len(p[0]) for p in pairs.values()),
        "one_sense_ari": one_sense_ari(bundle, words),
        "models": {},
    }
    for name, model in models:
        log(f"{name}: embedding and clustering {len(words)} words")
        cell = score_model(bundle, pairs, gold, model)
        cell["intervals"] = intervals(cell, gold)
        results["models"][name] = cell
        log(f"{name}: cuts {json.dumps(cell['cuts'])}; {json.dumps(cell['summary'])}")
        save_page(results, json_file, md_file, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
