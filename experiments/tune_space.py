"""Does a tuned encoder separate DWUG EN's senses, or only rank its change? Figures without clustering (issue 23)

Run from the repository root, after ``python -m experiments.tune`` has built the models named below::

    python -m experiments.tune_space [--data-dir ../shared/datasets] [--mpnet-model DIR] \\
        [--models NAME=FOLDER,...] [--name NAME]

The tuned MiniLMs of ``experiments.tune`` that rank DWUG EN's change best get *worse* senses there (tune.md:
ρ PRT 0.539 with ARI 9.6, below one sense's 13.4). Is the tuned space worse at telling DWUG EN's senses apart,
or does the clustering fail in it? For the bundled MiniLM untuned and each tuned model (every one trained with all
DWUG EN lemmas excluded), the uses of DWUG EN are embedded by the default recipe and, per word:

- **pair ρ**: Spearman's ρ between the cosine of two uses and their median human judgment (1–4; 0, "cannot
  decide", dropped), over the word's judged pairs: what XL-LEXEME-style tuning trains for;
- **sense AUC**: the chance that two uses of one gold sense are more similar (cosine) than two uses of different
  gold senses (uses with a gold sense; a word with one gold sense has no such figure);
- **ARI** of the default recipe's senses (k by the silhouette, 2–7), as tune.md reports it;
- **ARI at the gold k**: the default clusterer given the number of gold senses that hold at least
  :data:`MAJOR_SHARE` of the word's uses (one sense when only one does). It reads the gold, so it is NOT a system:
  it separates the choice of k from the space.

Figures are means over the 46 words (the ARIs weighted by each word's uses with a gold sense, as in tune.md). The
measures and the share were fixed before any figure; nothing here selects a model.

A second table asks whether the *choice* of k, not the space, is the lever for the senses: the default recipe with
``--one-sense-below T`` (a word gets one sense when no k reaches silhouette T), T chosen from :data:`THRESHOLDS`
(fixed before any figure; 0 is the default recipe) by two-fold cross-validation over words — T that gives the best
ARI on the even-numbered words (sorted) scores the odd-numbered ones, and the other way round — so that every
word's ARI and JSD come from a T chosen without it. ρ JSD is Spearman's ρ of the senses' JSD against the graded
gold change over all words.

**The Word-in-Context models** (issue 40; added after ``sense_minilm_seeds.md``'s DWUG EN figures and before
any figure of these measures for them): ``--models NAME=FOLDER,...`` measures the named models instead of the
list above, the untuned MiniLM always first (the base of the intervals), by the same protocol, thresholds and
folds, unchanged. Run as::

    python -m experiments.tune_space --name tune_space-wic --models \
        "seed 0=out/experiments-sense-minilm-seeds/wic-seed0,seed 1=out/experiments-sense-minilm-seeds/wic-seed1,\
seed 2=out/experiments-sense-minilm-seeds/wic-seed2,soup=out/experiments-sense-minilm-seeds/wic-soup-0-1-2"

Its questions: do pairs judged "same meaning or not" teach the DWUG-like usage similarity (pair ρ, sense AUC)
that WordNet's examples and a teacher's cosines did not; and with the cross-validated one-sense threshold, do
these models, which never saw a DWUG judgment, reach issue 40's ARI ≥ one sense + 5 and ρ JSD ≥ 0.45 out of fold?

Results: ``experiments/results/tune_space/tune_space.md`` / ``.json`` (``--name NAME``: ``NAME.md`` / ``.json``).
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

from experiments.common import command_line, log, results_dir, rewrite_page, save_page
from wsd.evaluate.metrics.usage_pairs import pair_cosines, pair_spearman, roc_auc

#: A gold sense counts toward the gold k when it holds at least this share of the word's uses with a gold sense.
MAJOR_SHARE = 0.05
#: The models compared: (the row's name, its folder under ``--work`` (None: the bundled MiniLM), the
#: ``experiments.tune`` cell that builds it).
MINILM_MODELS: tuple[tuple[str, str | None, str | None], ...] = (
    ("untuned MiniLM", None, None),
    ("dwug_wordnet_only (seed 0)", "dwug-wordnet-only-seed0", "dwug_seeds"),
    ("dwug_wordnet_only (seed 1)", "dwug-wordnet-only-seed1", "dwug_seeds"),
    ("dwug_wordnet_only (seed 2)", "dwug-wordnet-only-seed2", "dwug_seeds"),
    ("dwug_sotu_distill", "dwug-sotu-distill", "dwug_sotu_distill"),
    ("dwug_sotu_distill_seed1", "dwug-sotu-distill-seed1", "dwug_sotu_distill_seed1"),
    ("dwug_sotu_distill_tuned_teacher", "dwug-sotu-distill-tuned-teacher", "dwug_sotu_distill_tuned_teacher"),
    ("dwug_wordnet_sotu_distill", "dwug-wordnet-sotu-distill", "dwug_wordnet_sotu_distill"),
    ("dwug_wordnet_sotu_distill_seed1", "dwug-wordnet-sotu-distill-seed1", "dwug_wordnet_sotu_distill_seed1"),
    ("dwug_sense_keys", "dwug-sense-keys", "dwug_sense_keys"),
)
MPNET_TUNED = ("dwug_wordnet_only_mpnet", "mpnet-dwug-wordnet-only", "dwug_wordnet_only_mpnet")
#: Word-bootstrap resamples of the intervals (seeded).
N_BOOTSTRAP = 2000
#: One-sense thresholds the cross-validation chooses from (0: the default recipe, no threshold).
THRESHOLDS = (0.0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12)


def pair_rho(similarity: np.ndarray, judgment: np.ndarray) -> float:
    """Spearman's ρ between pair similarities and human judgments (:func:`pair_spearman`, NaN where undefined).

    Parameters
    ----------
    similarity, judgment : ndarray (m,)

    Returns
    -------
    float
    """
    rho = pair_spearman(similarity, judgment)
    return math.nan if rho is None else rho


def sense_auc(X: np.ndarray, senses: np.ndarray) -> float:
    """The chance that a same-sense pair is more similar (cosine) than a different-sense pair (ties count half).

    Parameters
    ----------
    X : ndarray (n, d)
        Vectors of uses that all have a gold sense.
    senses : ndarray of str (n,)
        Their gold senses.

    Returns
    -------
    float
        ROC AUC of the cosine for "same sense" (:func:`roc_auc`); NaN without both kinds of pair.
    """
    first, second = np.triu_indices(len(X), 1)
    same = senses[first] == senses[second]
    auc = roc_auc(pair_cosines(X, first, second), same)
    return math.nan if auc is None else auc


def gold_k(senses: np.ndarray, share: float = MAJOR_SHARE) -> int:
    """Number of gold senses holding at least ``share`` of the uses (at least 1).

    Parameters
    ----------
    senses : ndarray of str
        Gold senses of the uses that have one.
    share : float
        The least share of a sense that counts.

    Returns
    -------
    int
    """
    if len(senses) == 0:
        return 1
    _, counts = np.unique(senses, return_counts=True)
    return max(1, int((counts >= share * len(senses)).sum()))


def word_space(
    X: np.ndarray,
    forms: np.ndarray,
    periods: np.ndarray,
    senses: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> dict[str, float]:
    """One word's figures (see the module docstring): pair ρ, sense AUC, ARI, ARI at the gold k.

    Parameters
    ----------
    X : ndarray (n, d)
        The word's vectors (default recipe).
    forms, periods : ndarray (n,)
        Word forms and period (0/1) of each use.
    senses : ndarray of str (n,)
        Gold sense of each use ("" where none).
    pairs : (ndarray, ndarray, ndarray)
        Judged pairs: first rows, second rows, median judgments.

    Returns
    -------
    dict
        ``pair_rho``, ``sense_auc``, ``ari``, ``ari_gold_k``, ``gold_k``, ``n_senses`` and ``n_clustered``.
    """
    from experiments.lscd import Setting, word_result
    from wsd.senses.recipes import recipe

    first, second, judgment = pairs
    known = senses != ""
    k = gold_k(senses[known])
    default = Setting("default", recipe("default"))
    at_gold = Setting("gold k", recipe("default") | {"k": k}) if k > 1 else Setting("one", {"method": "one-sense"})
    induced = word_result(default, X, forms, periods, senses, None)
    oracle = word_result(at_gold, X, forms, periods, senses, None)
    figures = {
        "pair_rho": pair_rho(pair_cosines(X, first, second), judgment),
        "sense_auc": sense_auc(X[known], senses[known]),
        "ari": induced.ari,
        "ari_gold_k": oracle.ari,
        "gold_k": float(k),
        "n_senses": float(induced.n_senses),
        "n_clustered": float(induced.n_clustered),
    }
    for threshold in THRESHOLDS:
        params = recipe("default") | ({"one_sense_below": threshold} if threshold else {})
        result = induced if not threshold else word_result(Setting("t", params), X, forms, periods, senses, None)
        figures[f"ari@{threshold:g}"] = result.ari
        figures[f"jsd@{threshold:g}"] = result.scores["jsd"]
        figures[f"senses@{threshold:g}"] = float(result.n_senses)
    return figures


def summarise(words: dict[str, dict[str, float]]) -> dict[str, float]:
    """Means over words: ρ and AUC plain (words without a figure left out), the ARIs weighted by clustered uses.

    Parameters
    ----------
    words : dict
        :func:`word_space` of each word.

    Returns
    -------
    dict
    """
    rows = pd.DataFrame.from_dict(words, orient="index")
    weights = rows["n_clustered"].to_numpy(dtype=float)
    summary = {name: float(np.nanmean(rows[name])) for name in ("pair_rho", "sense_auc")}
    for name in ("ari", "ari_gold_k"):
        values = np.nan_to_num(rows[name].to_numpy(dtype=float))
        summary[name] = float((values * weights).sum() / weights.sum()) if weights.sum() else math.nan
    summary["mean_senses"] = float(rows["n_senses"].mean())
    summary["mean_gold_k"] = float(rows["gold_k"].mean())
    summary["words_with_auc"] = int(rows["sense_auc"].notna().sum())
    return summary


def weighted_ari(words: dict[str, dict[str, float]], names: Sequence[str], key: str) -> float:
    """ARI of figure ``key`` over ``names``, weighted by each word's uses with a gold sense (NaN ARI counts 0).

    Parameters
    ----------
    words : dict
        :func:`word_space` of each word.
    names : sequence of str
        The words pooled.
    key : str
        The ARI figure (``ari``, ``ari@0.08``, ...).

    Returns
    -------
    float
    """
    weights = np.array([words[w]["n_clustered"] for w in names], dtype=float)
    values = np.nan_to_num(np.array([words[w][key] for w in names], dtype=float))
    return float((values * weights).sum() / weights.sum()) if weights.sum() else math.nan


def cross_validated_threshold(words: dict[str, dict[str, float]], gold: dict[str, float]) -> dict[str, Any]:
    """Two-fold cross-validation over words of the one-sense threshold (see the module docstring).

    Parameters
    ----------
    words : dict
        :func:`word_space` of each word (with the ``ari@T`` / ``jsd@T`` / ``senses@T`` figures).
    gold : dict
        Graded gold change of each word.

    Returns
    -------
    dict
        ``chosen`` (the T chosen on each half, named by the half it scores), ``ari`` (pooled over all words, each
        at the T chosen without it), ``rho_jsd`` (likewise), ``one_sense_words`` (their share).
    """
    from experiments.lscd import split_words

    halves = split_words(sorted(words))
    chosen: dict[str, float] = {}
    key_of: dict[str, float] = {}
    for scored, other in (("dev", "held_out"), ("held_out", "dev")):
        best = max(THRESHOLDS, key=lambda t: (weighted_ari(words, halves[other], f"ari@{t:g}"), -t))
        chosen[scored] = best
        key_of |= dict.fromkeys(halves[scored], best)
    names = sorted(words)
    per_word = {
        w: {
            "ari": words[w][f"ari@{key_of[w]:g}"],
            "jsd": words[w][f"jsd@{key_of[w]:g}"],
            "n_clustered": words[w]["n_clustered"],
        }
        for w in names
    }
    jsd = np.array([per_word[w]["jsd"] for w in names])
    return {
        "chosen": chosen,
        "ari": weighted_ari(per_word, names, "ari"),
        "rho_jsd": _rho(jsd, np.array([gold[w] for w in names])),
        "one_sense_words": float(np.mean([words[w][f"senses@{key_of[w]:g}"] == 1 for w in names])),
        "words": per_word,
    }


def bootstrap_against(
    model: dict[str, dict[str, float]], base: dict[str, dict[str, float]], gold: dict[str, float], seed: int
) -> dict[str, list[float]]:
    """Word-bootstrap 95% intervals of a model's ρ JSD and ARI, and of their differences from ``base``.

    Each word keeps the threshold chosen for it (the choice is not repeated inside the bootstrap).

    Parameters
    ----------
    model, base : dict
        Per word ``ari``, ``jsd`` and ``n_clustered`` (:func:`cross_validated_threshold`'s ``words``).
    gold : dict
        Graded gold change of each word.
    seed : int
        Seeds the resampling.

    Returns
    -------
    dict
        ``rho_jsd``, ``rho_jsd_difference``, ``ari``, ``ari_difference``: each [2.5%, 97.5%].
    """
    words = np.array(sorted(gold))
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = {key: [] for key in ("rho_jsd", "rho_jsd_difference", "ari", "ari_difference")}
    for _ in range(N_BOOTSTRAP):
        sample = list(rng.choice(words, size=len(words), replace=True))
        y = np.array([gold[w] for w in sample])
        a = _rho(np.array([model[w]["jsd"] for w in sample]), y)
        b = _rho(np.array([base[w]["jsd"] for w in sample]), y)
        ari_a, ari_b = weighted_ari(model, sample, "ari"), weighted_ari(base, sample, "ari")
        draws["rho_jsd"].append(a)
        draws["rho_jsd_difference"].append(a - b)
        draws["ari"].append(ari_a)
        draws["ari_difference"].append(ari_a - ari_b)
    return {key: [float(np.nanpercentile(v, 2.5)), float(np.nanpercentile(v, 97.5))] for key, v in draws.items()}


def _rho(x: np.ndarray, y: np.ndarray) -> float:
    from scipy.stats import spearmanr

    ok = ~(np.isnan(x) | np.isnan(y))
    if ok.sum() < 3 or np.ptp(x[ok]) == 0:
        return math.nan
    return float(spearmanr(x[ok], y[ok]).statistic)


def judged_pairs(
    data_dir: Path, bundle: Any, words: Sequence[str], folder: Path | None = None
) -> dict[str, tuple[np.ndarray, ...]]:
    """Each word's judged pairs (median, 0 dropped), read once as ``wsd evaluate`` reads them.

    Parameters
    ----------
    data_dir : Path
        The datasets folder (DWUG EN is ``DWUG`` inside it).
    bundle : DatasetBundle
        The WUG set's uses (DWUG EN's unless ``folder`` says otherwise).
    words : sequence of str
        The words scored.
    folder : Path, optional
        The WUG set's folder (default: DWUG EN's).

    Returns
    -------
    dict
        Word → (first rows, second rows, median judgments), rows counted within the word's uses.
    """
    from experiments.tune import DWUG
    from wsd.errors import InputError
    from wsd.evaluate.datasets.wug import dataset_folder
    from wsd.workflows.usage_pairs import word_pairs

    root = dataset_folder(folder if folder is not None else data_dir / DWUG)
    targets = bundle.occurrences["target"].to_numpy()
    found: dict[str, tuple[np.ndarray, ...]] = {}
    for word in words:
        pairs = word_pairs(root / "data" / word, bundle.occurrences["id"][targets == word])
        if pairs is None:
            raise InputError(f"{root / 'data' / word}: no judgments file")
        found[word] = (pairs["first"].to_numpy(), pairs["second"].to_numpy(), pairs["label"].to_numpy())
    return found


def model_space(
    bundle: Any, pairs: dict[str, tuple[np.ndarray, ...]], gold: dict[str, float], model: str | None
) -> dict[str, Any]:
    """Every word's figures for one model, their summary and the cross-validated one-sense threshold."""
    from threadpoolctl import threadpool_limits

    from experiments.lscd import embed
    from wsd.evaluate.datasets.wug import period_of

    (vectors,), _ = embed(bundle, model)
    table = bundle.occurrences
    targets = table["target"].to_numpy()
    periods, forms = period_of(table), table["form"].to_numpy()
    senses = table["sense"].fillna("").astype(str).to_numpy()
    figures: dict[str, dict[str, float]] = {}
    with threadpool_limits(limits=1):
        for word in sorted(gold):
            rows = np.flatnonzero(targets == word)
            X = vectors[rows].astype(np.float64)
            figures[word] = word_space(X, forms[rows], periods[rows], senses[rows], pairs[word])
    summary = summarise(figures) | {"rho_jsd": _rho(*_jsd_and_gold(figures, gold))}
    return {"summary": summary, "threshold": cross_validated_threshold(figures, gold), "words": figures}


def _jsd_and_gold(figures: dict[str, dict[str, float]], gold: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    names = sorted(gold)
    return np.array([figures[w]["jsd@0"] for w in names]), np.array([gold[w] for w in names])


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    lines = [
        "# Does a tuned encoder separate DWUG EN's senses? (issue 23)",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}",
        f"- Date: {results['date']}",
        f"- {results['words']} DWUG EN words, {results['pairs']:,} judged pairs; every tuned model was trained with "
        "all DWUG EN lemmas excluded (the cells of tune.md). Pair ρ and sense AUC are means over words; the ARIs are "
        "weighted by each word's uses with a gold sense. The ARI at the gold k reads the gold (the number of gold "
        f"senses holding at least {MAJOR_SHARE:.0%} of a word's uses): not a system, a diagnosis. Measures fixed "
        "before any figure; nothing here selects a model.",
        "",
        "| model | pair ρ | sense AUC | ARI % | ARI % at the gold k | mean k | mean gold k |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, cell in results["models"].items():
        s = cell["summary"]
        lines.append(
            f"| {name} | {s['pair_rho']:.3f} | {s['sense_auc']:.3f} | {100 * s['ari']:.1f} | "
            f"{100 * s['ari_gold_k']:.1f} | {s['mean_senses']:.2f} | {s['mean_gold_k']:.2f} |"
        )
    lines += [
        "",
        f"Sense AUC is defined for {_auc_words(results)} words (the others have one gold sense).",
        "",
        "The choice of k: the default recipe with `--one-sense-below T`, T from "
        f"{{{', '.join(f'{t:g}' for t in THRESHOLDS)}}} (0: none) chosen by two-fold cross-validation over words "
        "(the T best on one half scores the other), pooled over all words; ρ JSD against the graded gold change. "
        f"One sense for every word gives ARI {100 * results['one_sense_ari']:.1f}.",
        "",
        f"In brackets: word-bootstrap 95% intervals ({N_BOOTSTRAP:,} resamples, each word at its chosen T) of the "
        f"difference from {next(iter(results['models']))} with its own cross-validated T.",
        "",
        "| model | ARI % (default) | ρ JSD (default) | ARI % (T cross-validated) | ρ JSD (T cross-validated) | "
        "T chosen (for even / odd words) | words given one sense |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for name, cell in results["models"].items():
        s, t = cell["summary"], cell["threshold"]
        ari_ci, jsd_ci = t["intervals"]["ari_difference"], t["intervals"]["rho_jsd_difference"]
        lines.append(
            f"| {name} | {100 * s['ari']:.1f} | {s['rho_jsd']:.3f} | {100 * t['ari']:.1f} "
            f"[{100 * ari_ci[0]:+.1f}, {100 * ari_ci[1]:+.1f}] | "
            f"{t['rho_jsd']:.3f} [{jsd_ci[0]:+.3f}, {jsd_ci[1]:+.3f}] | "
            f"{t['chosen']['dev']:g} / {t['chosen']['held_out']:g} | {t['one_sense_words']:.0%} |"
        )
    lines.append("")
    return "\n".join(lines)


def one_sense_ari(bundle: Any, words: Sequence[str]) -> float:
    """ARI of one sense for every word, weighted as the other ARIs (it does not depend on the model).

    Parameters
    ----------
    bundle : DatasetBundle
        DWUG EN.
    words : sequence of str
        The words pooled.

    Returns
    -------
    float
    """
    from wsd.evaluate.metrics.clustering import adjusted_rand

    table = bundle.occurrences
    if "sense" not in table:  # a set without gold clusters (RuSemShift): no ARI
        return math.nan
    senses = table["sense"].fillna("").astype(str).to_numpy()
    figures = {}
    for word in words:
        known = senses[(table["target"] == word).to_numpy()]
        known = known[known != ""]
        ari = adjusted_rand(list(known), ["0"] * len(known)) if len(known) else 0.0
        figures[word] = {"ari": ari, "n_clustered": float(len(known))}
    return weighted_ari(figures, list(words), "ari")


def _auc_words(results: dict[str, Any]) -> int:
    return max(cell["summary"]["words_with_auc"] for cell in results["models"].values())


def parse_models(text: str) -> list[tuple[str, str, str]]:
    """``--models``: ``NAME=FOLDER`` items, comma-separated, as (name, folder, what builds it).

    >>> parse_models("seed 0=out/a, soup=out/b")
    [('seed 0', 'out/a', 'its experiment'), ('soup', 'out/b', 'its experiment')]
    """
    from wsd.errors import InputError

    models = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, folder = item.partition("=")
        if not sep or not name.strip() or not folder.strip():
            raise InputError(f"--models: {item!r} is not NAME=FOLDER")
        models.append((name.strip(), folder.strip(), "its experiment"))
    if not models:
        raise InputError("--models: no NAME=FOLDER given")
    return models


def models_to_compare(
    work: Path, mpnet: Path | None, given: list[tuple[str, str, str]] | None = None
) -> list[tuple[str, str | None]]:
    """(row name, model) of each model compared; a missing tuned folder is an error naming the cell that builds it.

    Parameters
    ----------
    work : Path
        ``experiments.tune``'s work folder.
    mpnet : Path or None
        all-mpnet-base-v2 (adds it and its tuned cell), or None.
    given : list of (name, folder, builder), optional
        ``--models``: these tuned models instead of :data:`MINILM_MODELS`' (the untuned MiniLM stays first); a
        folder is taken as given, not under ``work``.

    Returns
    -------
    list of (str, str or None)
    """
    from wsd.errors import InputError

    chosen = list(MINILM_MODELS) if given is None else [MINILM_MODELS[0], *given]
    chosen += [("untuned MPNet", str(mpnet), None), MPNET_TUNED] if mpnet else []
    models: list[tuple[str, str | None]] = []
    for name, folder, cell in chosen:
        if folder is None or cell is None:
            models.append((name, folder))
            continue
        path = Path(folder) if (name, folder, cell) in (given or []) else work / folder
        if not (path / "config.json").is_file():
            builder = f"python -m experiments.tune --cells {cell}" if cell != "its experiment" else cell
            raise InputError(f"{path}: no tuned model; build it with {builder}")
        models.append((name, str(path)))
    return models


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.tune_space", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--work", type=Path, default=Path("out/experiments-tune"), help="experiments.tune's models")
    parser.add_argument("--mpnet-model", type=Path, default=None, help="all-mpnet-base-v2 (adds the MPNet rows)")
    parser.add_argument("--models", default=None, help="NAME=FOLDER,...: these models instead of the default list")
    parser.add_argument("--out", type=Path, default=results_dir("tune_space"))
    parser.add_argument("--name", default="tune_space")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    json_file, md_file = args.out / f"{args.name}.json", args.out / f"{args.name}.md"
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    from experiments.tune import _dwug_gold
    from wsd import machine

    models = models_to_compare(args.work, args.mpnet_model, parse_models(args.models) if args.models else None)
    bundle, gold, _ = _dwug_gold(args.data_dir)
    words = sorted(gold)
    pairs = judged_pairs(args.data_dir, bundle, words)
    cells = {}
    for name, model in models:
        log(f"{name}: embedding and scoring {len(words)} words")
        cells[name] = model_space(bundle, pairs, gold, model)
        log(f"{name}: {json.dumps(cells[name]['summary'])}")
    base = cells[models[0][0]]["threshold"]["words"]
    for cell in cells.values():
        cell["threshold"]["intervals"] = bootstrap_against(cell["threshold"]["words"], base, gold, seed=0)
    results = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "words": len(words),
        "pairs": sum(len(p[0]) for p in pairs.values()),
        "one_sense_ari": one_sense_ari(bundle, words),
        "models": cells,
    }
    save_page(results, json_file, md_file, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
