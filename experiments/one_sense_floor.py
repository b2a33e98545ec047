"""How many uses does a split need? The one-sense floor of the default recipe (issue 41, item 3).

Run from the repository root::

    python -m experiments.one_sense_floor [--data-dir DIR] [--draws 5] [--markdown-only]

A word with a handful of uses (on the State of the Union: *virus* 5, *web* 7, *cell* 12) was still split into
two or three senses. ``min_split_uses`` (``--min-split-uses N``) keeps a word with fewer than N uses in one
sense. This script measures N with the default model's cached vectors of SemEval-2013, SemEval-2010 and DWUG EN
(each embedded once; every threshold only re-clusters them):

1. **The curve.** For each size n of :data:`SIZES` and each word with more than n gold-labelled uses,
   ``--draws`` seeded draws of n of its uses are clustered with the default recipe (no floor) and the split is
   scored against the gold senses by the adjusted Rand index (SemEval-2013: each use's highest-weighted gold
   sense; DWUG EN: the uses with a gold cluster), beside one sense scored the same way: ARI 0, or 1 where the
   draw's gold is itself one sense (a random split scores 0 in expectation). The *gain* of a draw is the split's
   ARI minus one sense's: a split pays where the mean gain is above 0. Per n: the mean gain over words (each
   word's mean over its draws) with a 95% bootstrap interval over words, the share of words whose split beats
   one sense, and the split's own ARI. (AVG is not the yardstick here: its FNMI and V-measure give one sense 0
   however right it is.)
2. **The choice, fixed before any figure.** On the *choice words* (the words at even alphabetical positions of
   SemEval-2013 and of SemEval-2010, pooled; the SemEval-2013 half is the one the default recipe was chosen on),
   the floor is the smallest n of :data:`SIZES` from which the gain's interval lies above 0 at that n and at
   every larger one: below it a split cannot be told from one sense. The other words (the odd positions) and DWUG
   EN, on which nothing was chosen, are reported beside them.
3. **What the floor costs on whole data.** The default recipe with and without the chosen floor on all uses:
   SemEval-2013 and SemEval-2010 AVG (official scorers, one seed) with a 95% word-bootstrap interval and the
   paired interval of the difference, and DWUG EN Spearman ρ of JSD against the graded gold (PRT and APD do
   not depend on the senses), with the words the floor makes one sense named.

Results: ``experiments/results/one_sense_floor/one_sense_floor.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import (
    BENCHMARKS,
    DEFAULT_DATA_DIR,
    command_line,
    evaluate_vectors,
    labelled_occurrences,
    log,
    results_dir,
    save_page,
)

#: Uses per draw, fixed before any figure.
SIZES: tuple[int, ...] = (3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50)
DATASETS = ("semeval2013", "semeval2010", "dwug_en")
#: The datasets whose even-position words choose the floor.
CHOICE_SETS = ("semeval2013", "semeval2010")
N_BOOTSTRAP = 1000
CONFIDENCE = 0.95


# ------------------------------------------------------------------------------------------ data
def primary_sense(label: str) -> str:
    """The highest-weighted sense of a gold label (``a/4 b/3`` -> ``a``; no weight counts as 1).

    >>> primary_sense("add%2:32:01::/4 add%2:30:00::/5"), primary_sense("access.n.3")
    ('add%2:30:00::', 'access.n.3')
    """
    best, weight = "", -math.inf
    for part in str(label).split():
        name, _, value = part.partition("/")
        w = float(value) if value else 1.0
        if w > weight:
            best, weight = name, w
    return best


def words_of(
    table: Any, vectors: np.ndarray, senses: np.ndarray
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each target's vectors (float64), forms and gold senses (``""``: no gold)."""
    targets = table["target"].astype(str).to_numpy()
    forms = table["form"].astype(str).to_numpy()
    out = {}
    for word in sorted(set(targets)):
        rows = np.flatnonzero(targets == word)
        out[word] = (vectors[rows].astype(np.float64), forms[rows], senses[rows])
    return out


def semeval(name: str, data_dir: Path) -> tuple[Any, np.ndarray, dict[str, Any]]:
    """A SemEval benchmark's labelled occurrences, their default vectors (from the cache) and the encoder's meta."""
    import sys

    from wsd.embed.cache import embed_cached
    from wsd.embed.encoder import Encoder
    from wsd.senses.recipes import DEFAULT_EMBEDDING

    table = labelled_occurrences(BENCHMARKS[name], data_dir)
    encoder = Encoder(context_vector=DEFAULT_EMBEDDING["context_vector"])
    config = (DEFAULT_EMBEDDING["layers"], DEFAULT_EMBEDDING["pooling"])
    (vectors,) = embed_cached(encoder, table, [config], progress=sys.stderr.isatty())
    return table, vectors, encoder.identity(*config).embedding_meta()


def even_words(words: Sequence[str]) -> list[str]:
    """The words at even positions in alphabetical order (the choice half)."""
    return sorted(words)[0::2]


# ------------------------------------------------------------------------------------------ the curve
def default_params(floor: int = 0) -> dict[str, Any]:
    """The default recipe's inducer parameters with the floor ``floor`` (0: none)."""
    from wsd.senses.recipes import recipe

    return recipe("default") | {"min_split_uses": floor}


def split_ari(X: np.ndarray, forms: np.ndarray, gold: np.ndarray, seed: int) -> tuple[float, float, int, float]:
    """ARI of the default recipe's split (no floor) against ``gold``, ARI of one sense, k, the best silhouette."""
    from wsd.evaluate.metrics.clustering import adjusted_rand
    from wsd.senses.inducer import SenseInducer

    inducer = SenseInducer(**default_params(), random_state=seed).fit(X, forms=forms)
    scores = [v for v in inducer.k_scores_.values() if not math.isnan(v)]
    ari = adjusted_rand(list(gold), list(inducer.labels_.astype(str)))
    one = adjusted_rand(list(gold), ["0"] * len(gold))
    return float(ari), float(one), int(inducer.n_senses_), float(max(scores)) if scores else math.nan


def curve(words: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]], sizes: Sequence[int], draws: int) -> dict:
    """Per size: each word's mean ARI, k and best silhouette over ``draws`` draws (words with more uses only);
    ``"all"``: each word's ARI on all its gold-labelled uses."""
    out: dict[str, Any] = {}
    for n in [*sizes, "all"]:
        per_word = {}
        for word, (X, forms, senses) in words.items():
            known = np.flatnonzero(senses != "")
            if n == "all":
                ari, one, k, silhouette = split_ari(X[known], forms[known], senses[known], 0)
                per_word[word] = {
                    "ari": ari,
                    "one_sense": one,
                    "gain": ari - one,
                    "k": k,
                    "silhouette": silhouette,
                    "uses": len(known),
                }
                continue
            if len(known) <= int(n):
                continue
            rng = np.random.default_rng([int(n), draw_seed(word)])
            found = []
            for draw in range(draws):
                rows = rng.choice(known, int(n), replace=False)
                found.append(split_ari(X[rows], forms[rows], senses[rows], draw))
            aris, ones, ks, silhouettes = zip(*found, strict=True)
            per_word[word] = {
                "ari": float(np.mean(aris)),
                "one_sense": float(np.mean(ones)),
                "gain": float(np.mean(aris) - np.mean(ones)),
                "k": float(np.mean(ks)),
                "silhouette": float(np.nanmean(silhouettes)),
            }
        out[str(n)] = per_word
    return out


def draw_seed(word: str) -> int:
    """A seed from a word's name (stable across runs and Python processes)."""
    import zlib

    return zlib.crc32(word.encode("utf-8"))


def summary(per_word: dict[str, dict[str, float]], words: Sequence[str], seed: int = 0) -> dict[str, Any] | None:
    """Mean gain over ``words`` (those measured) with its 95% bootstrap interval over words, the share of words
    whose split beats one sense, the split's mean ARI and k."""
    values = np.array([per_word[w]["gain"] for w in words if w in per_word])
    if not len(values):
        return None
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), size=(N_BOOTSTRAP, len(values)))].mean(axis=1)
    tail = 100 * (1 - CONFIDENCE) / 2
    return {
        "words": len(values),
        "gain": float(values.mean()),
        "ari": float(np.mean([per_word[w]["ari"] for w in words if w in per_word])),
        "low": float(np.percentile(means, tail)),
        "high": float(np.percentile(means, 100 - tail)),
        "beats_one_sense": float((values > 0).mean()),
        "k": float(np.mean([per_word[w]["k"] for w in words if w in per_word])),
    }


def choose_floor(rows: dict[str, dict[str, Any] | None], sizes: Sequence[int]) -> int:
    """The smallest size from which every summary's interval lies above 0 (the largest size + 1 if none does)."""
    floor = max(sizes) + 1
    for n in sorted(sizes, reverse=True):
        found = rows.get(str(n))
        if found is None or found["low"] <= 0:
            break
        floor = n
    return floor


# ------------------------------------------------------------------------------------------ whole data
def aggregate(dataset: str, per_target: dict[str, dict[str, float]], weights: dict[str, int], words: Sequence[str]):
    """The official AVG over ``words`` from per-word scores (2013: FNMI mean, FBC from the mean P and R; 2010:
    paired F and V-measure averaged with the words' instance counts as weights)."""
    if dataset == "semeval2013":
        fnmi = float(np.mean([per_target[w]["fnmi"] for w in words]))
        p = float(np.mean([per_target[w]["fbc_p"] for w in words]))
        r = float(np.mean([per_target[w]["fbc_r"] for w in words]))
        fbc = 2 * p * r / (p + r) if p + r > 0 else 0.0
        return math.sqrt(max(fnmi, 0.0) * fbc)
    w = np.array([weights[x] for x in words], dtype=float)
    paired = float(np.average([per_target[x]["paired_f"] for x in words], weights=w))
    v = float(np.average([per_target[x]["v_measure"] for x in words], weights=w))
    return math.sqrt(max(paired, 0.0) * max(v, 0.0))


def whole_semeval(dataset: str, data_dir: Path, table: Any, vectors: np.ndarray, floor: int) -> dict[str, Any]:
    """AVG of the default recipe without and with the floor, intervals over words, the words made one sense."""
    benchmark = BENCHMARKS[dataset]
    found = {}
    for name, params in (("default", default_params()), ("floor", default_params(floor))):
        document = evaluate_vectors(benchmark, data_dir, vectors, params, seeds=1)
        found[name] = document
    weights = table.groupby("target").size().astype(int).to_dict()
    words = sorted(found["default"]["per_target"])
    a, b = found["default"]["per_target"], found["floor"]["per_target"]
    point = {name: aggregate(dataset, doc["per_target"], weights, words) for name, doc in found.items()}
    for name, doc in found.items():  # the word-level aggregation reproduces the official figure
        assert abs(point[name] - doc["overall"]["avg"]) < 1e-6, (dataset, name, point[name], doc["overall"]["avg"])
    rng = np.random.default_rng(0)
    boot_default, boot_difference = [], []
    for _ in range(N_BOOTSTRAP):
        pick = [words[i] for i in rng.integers(0, len(words), len(words))]
        base = aggregate(dataset, a, weights, pick)
        boot_default.append(base)
        boot_difference.append(aggregate(dataset, b, weights, pick) - base)
    tail = 100 * (1 - CONFIDENCE) / 2
    small = {w: n for w, n in weights.items() if n < floor}
    return {
        "avg_default": point["default"],
        "avg_floor": point["floor"],
        "default_interval": [float(np.percentile(boot_default, q)) for q in (tail, 100 - tail)],
        "difference_interval": [float(np.percentile(boot_difference, q)) for q in (tail, 100 - tail)],
        "one_sense_words": dict(sorted(small.items())),
        "embedding": found["default"].get("embedding", {}),
    }


def whole_dwug(data_dir: Path, floor: int) -> tuple[dict[str, Any], dict, dict[str, Any]]:
    """DWUG EN: ρ of JSD against the graded gold without and with the floor (paired word bootstrap), the words
    (each word's vectors, forms and gold clusters) for the curve, and the encoder's meta."""
    from threadpoolctl import threadpool_limits

    from experiments.lscd import Setting, embed, gold_scores, load, word_result
    from wsd.evaluate.datasets.wug import period_of

    bundle = load("dwug_en", data_dir)
    (vectors,), meta = embed(bundle, None)
    table = bundle.occurrences
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold, _ = gold_scores(bundle)
    senses = table["sense"].fillna("").astype(str).to_numpy()
    words = words_of(table, vectors, senses)
    periods = period_of(table)
    targets = table["target"].astype(str).to_numpy()
    scored = sorted(w for w in gold.index if w in words)
    jsd: dict[str, list[float]] = {}
    with threadpool_limits(limits=1):
        for name, params in (("default", default_params()), ("floor", default_params(floor))):
            values = []
            for word in scored:
                X, forms, gold_senses = words[word]
                result = word_result(Setting(name, params), X, forms, periods[targets == word], gold_senses, None)
                values.append(result.scores["jsd"])
            jsd[name] = values
    from scipy.stats import spearmanr

    g = gold.loc[scored].to_numpy(dtype=float)
    rho = {name: float(spearmanr(v, g).statistic) for name, v in jsd.items()}
    rng = np.random.default_rng(0)
    boot, diff = [], []
    a, b = np.array(jsd["default"]), np.array(jsd["floor"])
    for _ in range(N_BOOTSTRAP):
        pick = rng.integers(0, len(scored), len(scored))
        if np.ptp(g[pick]) == 0:
            continue
        base = float(spearmanr(a[pick], g[pick]).statistic)
        boot.append(base)
        diff.append(float(spearmanr(b[pick], g[pick]).statistic) - base)
    tail = 100 * (1 - CONFIDENCE) / 2
    uses = {w: len(words[w][0]) for w in scored}
    result = {
        "rho_jsd_default": rho["default"],
        "rho_jsd_floor": rho["floor"],
        "default_interval": [float(np.nanpercentile(boot, q)) for q in (tail, 100 - tail)],
        "difference_interval": [float(np.nanpercentile(diff, q)) for q in (tail, 100 - tail)],
        "one_sense_words": {w: n for w, n in uses.items() if n < floor},
        "fewest_uses": min(uses.values()),
        "words": len(scored),
    }
    return result, words, meta


# ------------------------------------------------------------------------------------------ run
def run(data_dir: Path, draws: int, sizes: Sequence[int]) -> dict[str, Any]:
    """Every part of the module docstring, as plain figures."""
    from threadpoolctl import threadpool_limits

    started = time.perf_counter()
    loaded = {name: semeval(name, data_dir) for name in CHOICE_SETS}
    words = {
        name: words_of(table, vectors, table["sense"].map(primary_sense).to_numpy())
        for name, (table, vectors, _) in loaded.items()
    }
    _, dwug_words, dwug_meta = whole_dwug(data_dir, 0)  # the words only (the floor's cost comes later)
    words["dwug_en"] = dwug_words
    curves = {}
    with threadpool_limits(limits=1):
        for name in DATASETS:
            curves[name] = curve(words[name], sizes, draws)
            log(f"{name}: curve done, {time.perf_counter() - started:.0f} s")
    choice = {name: even_words(words[name]) for name in CHOICE_SETS}
    held_out = {name: sorted(set(words[name]) - set(choice[name])) for name in CHOICE_SETS}

    def pooled(part: dict[str, list[str]], n: str) -> dict[str, Any] | None:
        merged = {f"{name}/{w}": curves[name][n][w] for name in part for w in part[name] if w in curves[name][n]}
        return summary(merged, sorted(merged))

    labels = [*(str(n) for n in sizes), "all"]
    table = {
        "choice words (SemEval even positions)": {n: pooled(choice, n) for n in labels},
        "held-out words (SemEval odd positions)": {n: pooled(held_out, n) for n in labels},
        **{
            f"{name}, all words": {n: summary(curves[name][n], sorted(curves[name][n])) for n in labels}
            for name in DATASETS
        },
    }
    floor = choose_floor(table["choice words (SemEval even positions)"], sizes)
    held_floor = choose_floor(table["held-out words (SemEval odd positions)"], sizes)
    dwug_floor = choose_floor(table["dwug_en, all words"], sizes)
    log(f"floor {floor} (held-out words would give {held_floor}, DWUG EN {dwug_floor})")
    with threadpool_limits(limits=1):
        whole = {name: whole_semeval(name, data_dir, *loaded[name][:2], floor) for name in CHOICE_SETS}
        whole["dwug_en"], _, _ = whole_dwug(data_dir, floor)
    return {
        "sizes": list(sizes),
        "draws": draws,
        "floor": floor,
        "floor_if_chosen_on": {"held-out words": held_floor, "dwug_en": dwug_floor},
        "summary": table,
        "per_word": curves,
        "whole": whole,
        "embedding": {name: loaded[name][2] for name in CHOICE_SETS} | {"dwug_en": dwug_meta},
        "seconds": time.perf_counter() - started,
    }


# ------------------------------------------------------------------------------------------ page
def _interval(row: dict[str, Any] | None) -> str:
    if row is None:
        return "–"
    return f"{100 * row['gain']:+.1f} [{100 * row['low']:+.1f}, {100 * row['high']:+.1f}]"


def curve_lines(results: dict[str, Any]) -> list[str]:
    """The curve: mean gain (ARI points) with its interval per size, one column per group of words."""
    groups = list(results["summary"])
    lines = [
        "| uses | " + " | ".join(groups) + " |",
        "|---:|" + "---:|" * len(groups),
    ]
    for n in [*(str(s) for s in results["sizes"]), "all"]:
        cells = [_interval(results["summary"][g].get(n)) for g in groups]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def share_lines(results: dict[str, Any]) -> list[str]:
    """Per size: the share of words whose split beats one sense, the split's mean ARI and number of senses."""
    groups = [g for g in results["summary"] if g.endswith("all words")]
    lines = ["| uses | " + " | ".join(groups) + " |", "|---:|" + "---:|" * len(groups)]
    for n in [*(str(s) for s in results["sizes"]), "all"]:
        cells = []
        for g in groups:
            row = results["summary"][g].get(n)
            cells.append(
                "–"
                if row is None
                else f"{100 * row['beats_one_sense']:.0f}% of {row['words']}; ARI {100 * row['ari']:.1f}; "
                f"k {row['k']:.1f}"
            )
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def whole_lines(results: dict[str, Any]) -> list[str]:
    """The floor on whole data: the default's score and interval, with the floor, the paired difference."""
    floor = results["floor"]
    lines = [
        f"| dataset | score | default | 95% interval (words) | with the floor ({floor}) | difference [95%] | "
        "words made one sense |",
        "|---|---|---:|---|---:|---|---|",
    ]
    for name, row in results["whole"].items():
        if name == "dwug_en":
            score, a, b = "ρ JSD", row["rho_jsd_default"], row["rho_jsd_floor"]
        else:
            score, a, b = "AVG", row["avg_default"], row["avg_floor"]
        low, high = row["default_interval"]
        d_low, d_high = row["difference_interval"]
        small = ", ".join(f"{w} ({n})" for w, n in row["one_sense_words"].items()) or "none"
        lines.append(
            f"| {name} | {score} | {100 * a:.2f} | {100 * low:.2f}–{100 * high:.2f} | {100 * b:.2f} | "
            f"{100 * (b - a):+.2f} [{100 * d_low:+.2f}, {100 * d_high:+.2f}] | {small} |"
        )
    return lines


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    from wsd.machine import describe

    embedding = results["embedding"]["semeval2013"]
    floor = results["floor"]
    largest = max(results["sizes"])
    other = {
        name: str(n) if n <= largest else f"none up to {largest} (no size measured passes)"
        for name, n in results["floor_if_chosen_on"].items()
    }
    whole = results["whole"]
    lines = [
        "# The one-sense floor: how many uses a split needs",
        "",
        f"- Command: `{results['command']}`",
        f"- Date: {results['date']}; machine: {results.get('machine', describe())}; {results['seconds'] / 60:.0f} min",
        f"- Encoder: {embedding.get('model')} ({embedding.get('runtime')}, {embedding.get('precision')}); the default "
        f"recipe without a floor; {results['draws']} seeded draws of n uses per word and size",
        "",
        "## Does a split of n uses agree with the gold senses better than one sense?",
        "",
        "The gain of a split over one sense, in ARI points (percent): the split's ARI minus one sense's (0, or 100 "
        "where the draw's gold is itself one sense; a random split scores 0 in expectation), over the words with "
        "more than n gold-labelled uses, each word's mean over its draws, with a 95% bootstrap interval over words. "
        "*all*: every word on all its uses. SemEval-2013 is scored by each use's highest-weighted gold sense; "
        "DWUG EN on the uses with a gold cluster.",
        "",
        *curve_lines(results),
        "",
        "The share of words whose split beats one sense (mean gain above 0) of the words measured, the split's "
        "own mean ARI and the mean number of senses it chose:",
        "",
        *share_lines(results),
        "",
        "## The floor",
        "",
        f"Chosen on the choice words by the rule fixed before any figure (the smallest n from which the gain's "
        f"interval lies above 0 at that size and every larger one): **{floor} uses**. The same rule would give "
        f"{other['held-out words']} on the held-out SemEval words and {other['dwug_en']} on DWUG EN, on which nothing "
        "was chosen.",
        "",
        "## What the floor costs on whole data",
        "",
        "The default recipe on all uses, without and with the floor (AVG in percent, official scorers, one seed; "
        "DWUG EN: Spearman ρ × 100 of the JSD of the induced senses against the graded gold; PRT and APD do not "
        "depend on the senses). Intervals: 95% bootstrap over words; the difference is paired (the same words "
        "drawn for both).",
        "",
        *whole_lines(results),
        "",
    ]
    changed = [name for name, row in whole.items() if row["one_sense_words"]]
    inside = all(
        row["difference_interval"][0] <= 0 <= row["difference_interval"][1] or (row["difference_interval"][0] >= 0)
        for row in whole.values()
    )
    lines.append(
        f"DWUG EN's fewest uses per word: {whole['dwug_en']['fewest_uses']}. "
        f"The floor changes the words named above ({', '.join(changed) or 'none'}); "
        + (
            "every difference's interval holds 0 or lies above it, so the floor costs nothing measurable."
            if inside
            else "a difference's interval lies below 0: the floor costs."
        )
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the experiment (or rewrite its page from the JSON) and write its results files."""
    import datetime

    from wsd.machine import describe

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--draws", type=int, default=5, help="seeded draws per word and size")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the page from the JSON")
    parser.add_argument("--name", default="one_sense_floor", help="results file name")
    args = parser.parse_args(argv)
    folder = results_dir("one_sense_floor")
    json_file, md_file = folder / f"{args.name}.json", folder / f"{args.name}.md"
    if args.markdown_only:
        results = json.loads(json_file.read_text(encoding="utf-8"))
    else:
        results = run(args.data_dir, args.draws, SIZES)
        results |= {
            "command": command_line(),
            "date": datetime.date.today().isoformat(),
            "machine": describe(),
        }
    save_page(results, json_file, md_file, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
