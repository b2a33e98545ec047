"""Lexical semantic change on the WUG datasets: induced senses and change measures against the gold.

Run from the repository root::

    python -m experiments.lscd [--datasets dwug_en,nordiachange1,...] [--model PATH] [--data-dir DIR] \\
        [--multilingual-model DIR] [--one-sense 0.03,0.05] [--variants-on dwug_en] [--add] [--markdown-only]

For every dataset in ``../shared/datasets/lscd/`` (DWUG EN, NorDiaChange subsets 1 and 2, RuSemShift 1 and
2) the uses are embedded once with the default embedding recipe (cached, ``$WSD_CACHE_DIR``), each word's
senses are induced with every clustering setting below, and the script reports

- ``ari`` / ``nmi``: the induced senses against the gold clusters (uses in cluster -1 left out), per word,
  averaged weighted by the word's clustered uses (a word whose gold and induced senses are both one cluster
  scores 1, as :func:`wsd.evaluate.metrics.clustering.adjusted_rand` defines it);
- ``rho_jsd`` / ``rho_jsd_soft``: Spearman ρ of the Jensen–Shannon distance between the two periods' sense
  distributions (hard counts; sums of the soft memberships) against ``change_graded``, or against
  −``COMPARE`` where a dataset has no clusters;
- ``rho_apd`` / ``rho_prt`` / ``rho_apd+prt`` for every vector variant (:func:`vector_scores`): APD and PRT
  (:mod:`wsd.change.measures`) of the vectors as embedded (``default``), of the target half alone
  (``target``), of the context half alone (``context``), of the vectors the inducer clusters (``clustered``:
  half of each form's offset removed, L2-normalised), of those centred or z-scored per word (``centred``,
  ``standardised``: APD only), and the mean of a word's APD and PRT ranks (``apd+prt``); on DWUG EN also for
  other target layers (``@last``, ``@3``, ``@1,-1``, ``@mean-all``) and with the target's form replaced by
  its lemma (``@lemma``, Laicher et al. 2021) — ``--variants-on``;
- ``binary_acc`` / ``binary_f1``: the WUG rule (:func:`wsd.change.measures.binary_change`, the dataset's
  k and n) on the induced sense counts against ``change_binary``.

DWUG EN is split into two halves (the words at even / odd positions in sorted order). Choices are made by
the **selection protocol** (:func:`protocol`): for each family of candidates (vector change scores, the
JSD of induced senses, their ARI) the best on one half is scored on the other (both ways), the same over
``N_SPLITS`` random halves, and the best on all words gets a word-bootstrap 95% interval beside the
default's. NorDiaChange and RuSemShift are never used to choose. Results: ``experiments/results/lscd/lscd.md`` /
``.json`` (``--markdown-only`` rewrites the Markdown, protocol included, from the JSON).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.common import DEFAULT_DATA_DIR, command_line, header_lines, log, results_dir

#: Dataset name -> folder under ``lscd/`` and the number of the multilingual encoder needed.
DATASETS: dict[str, tuple[str, bool]] = {
    "dwug_en": ("dwug_en", False),
    "nordiachange1": ("nordiachange/subset1", True),
    "nordiachange2": ("nordiachange/subset2", True),
    "rusemshift1": ("rusemshift/rusemshift_1", True),
    "rusemshift2": ("rusemshift/rusemshift_2", True),
}
#: The WUG binary rule of each dataset (k, n), from the datasets README.
BINARY_RULE: dict[str, tuple[int, int]] = {"dwug_en": (1, 5), "nordiachange1": (1, 3), "nordiachange2": (1, 3)}
DEV_DATASET = "dwug_en"
VECTOR_VARIANTS: tuple[str, ...] = ("default", "target", "context", "clustered", "centred", "standardised")
#: Similarity cuts of the WUG-like clustering (on the clustered vectors: form-centred 0.5, L2-normalised).
WUG_CUTS: tuple[float, ...] = (0.6, 0.66, 0.7, 0.74)
#: Cuts relative to each word's own similarities: the mean pairwise cosine distance minus this many standard
#: deviations (so the cut follows the encoder's scale of similarities instead of a fixed number).
WUG_RELATIVE_CUTS: tuple[float, ...] = (0.0, 0.5, 1.0)
#: The target-layer choices embedded for DWUG EN (the context vector is the default's for each): the default
#: sum of the last four, the last layer, the middle layer of MiniLM's six, the first and the last (Laicher et
#: al. 2021), the mean of all; ``lemma`` is the default with the target's form replaced by its lemma.
LAYER_CHOICES: tuple[str, ...] = ("sum-last-4", "last", "3", "1,-1", "mean-all")
LEMMA = "lemma"
#: Random 23/23 splits of the repeated selection and bootstrap resamples of the confidence intervals.
N_SPLITS = 200
N_BOOTSTRAP = 1000
PROTOCOL_SEED = 0

PUBLISHED = [
    "Published graded-change results (SemEval-2020 Task 1 English, whose targets are DWUG EN's, with an older "
    "annotation; as quoted in the datasets README, not reproduced here): best shared-task system ρ ≈ 0.42; "
    "BERT-based APD/PRT in later work ≈ 0.5–0.6; XL-LEXEME (Cassotti et al. 2023) ≈ 0.75. Clustering-based "
    "change (JSD of induced sense distributions, Giulianelli et al. 2020) is typically well below APD with "
    "off-the-shelf encoders.",
]


@dataclass(frozen=True)
class Setting:
    """One way of inducing senses: a name and the :class:`~wsd.senses.SenseInducer` parameters."""

    name: str
    senses: dict[str, Any]
    note: str = ""
    #: WUG-like senses: average-linkage clustering on cosine, stopped where the mean similarity between two
    #: clusters falls below this (a greedy correlation clustering of the similarity graph cut at ``threshold``).
    threshold: float | None = None
    #: The same, cut at the word's mean pairwise distance minus ``relative_cut`` standard deviations.
    relative_cut: float | None = None
    #: Cluster only the uses with a gold cluster (uses in cluster -1 dropped before clustering): NOT a system
    #: (it reads the gold); it reproduces how the issue-15 figures were measured.
    drop_noise: bool = False


def settings(one_sense: Sequence[float]) -> list[Setting]:
    """The clustering settings compared: the default, its one-sense thresholds, other methods, baselines."""
    from wsd.senses.recipes import recipe

    default = recipe("default")
    rows = [Setting("default", default)]
    rows += [Setting(f"default, one sense below {t:g}", default | {"one_sense_below": t}) for t in one_sense]
    rows += [
        Setting("default, k-means", default | {"method": "kmeans"}),
        Setting("default, agglomerative (cosine, average)", default | {"method": "agglomerative"}),
        Setting("default − form centring", default | {"center_forms": 0.0}),
        Setting("default, temperature auto (softer memberships)", default | {"temperature": "auto"}),
        Setting("default, k=5", default | {"k": 5}),
        Setting("default, k=10", default | {"k": 10}),
        Setting("agglomerative (cosine, average), k=10", default | {"method": "agglomerative", "k": 10}),
        Setting("hdbscan (native)", default | {"method": "hdbscan", "selection": "native"}),
        Setting("gmm, bic over 1..7", default | {"method": "gmm", "selection": "bic", "k_range": (1, 7)}),
        *[Setting(f"WUG-like: average linkage cut at similarity {t:g}", default, threshold=t) for t in WUG_CUTS],
        *[
            Setting(f"WUG-like: average linkage cut at mean distance − {c:g} sd", default, relative_cut=c)
            for c in WUG_RELATIVE_CUTS
        ],
        Setting(
            "default, uses in cluster −1 dropped first (not a system: as the issue's figures)", default, drop_noise=True
        ),
        Setting("baseline: one sense", {"method": "one-sense"}),
        Setting("baseline: random (k=3)", {"method": "random", "k": 3}),
    ]
    return rows


# ------------------------------------------------------------------------------------------ data
def load(name: str, data_dir: Path):
    """The WUG bundle of a dataset."""
    from wsd.evaluate.datasets import wug

    return wug.load(data_dir / "lscd" / DATASETS[name][0])


def lemmatise_targets(occurrences: pd.DataFrame) -> pd.DataFrame:
    """The occurrences with each target's surface form replaced by its lemma in the text (Laicher et al. 2021).

    The lemma is the target's name without a WUG part-of-speech suffix (``plane_nn`` -> ``plane``); the span
    is moved to the lemma, so the encoder sees *plane* where the text had *planes*.
    """
    table = occurrences.copy()
    lemmas = table["target"].astype(str).str.replace(r"_(nn|vb|jj|rb)$", "", regex=True).to_numpy()
    texts, starts, ends = table["text"].tolist(), table["start"].to_numpy(), table["end"].to_numpy()
    new_texts = [t[:a] + lemma + t[b:] for t, a, b, lemma in zip(texts, starts, ends, lemmas, strict=True)]
    table["text"] = new_texts
    table["end"] = starts + np.array([len(lemma) for lemma in lemmas], dtype=np.int64)
    table["form"] = lemmas
    return table


def embed(
    bundle, model: str | None, layers: Sequence[str] | None = None, lemmatise: bool = False
) -> tuple[list[np.ndarray], dict[str, Any]]:
    """Vectors of every use (cached) for each target-layer choice, and the encoder's metadata.

    ``layers`` default to the default recipe's (``sum-last-4``); the context vector is the default recipe's
    for every choice. With ``lemmatise`` the target's form is replaced by its lemma first.
    """
    from wsd.embed.cache import embed_cached
    from wsd.embed.encoder import Encoder
    from wsd.senses.recipes import DEFAULT_EMBEDDING

    encoder = Encoder(model=model, context_vector=DEFAULT_EMBEDDING["context_vector"])
    layers = list(layers) if layers else [DEFAULT_EMBEDDING["layers"]]
    configs = [(spec, DEFAULT_EMBEDDING["pooling"]) for spec in layers]
    occurrences = lemmatise_targets(bundle.occurrences) if lemmatise else bundle.occurrences
    vectors = embed_cached(encoder, occurrences, configs, progress=sys.stderr.isatty())
    return vectors, encoder.identity(*configs[0]).embedding_meta()


def gold_scores(bundle) -> tuple[pd.Series, str]:
    """The graded gold per word and its column (:func:`wsd.evaluate.change_gold.change_gold` chooses it).

    Words without a value are named in a warning; no graded gold at all is an error.
    """
    import warnings

    from wsd.errors import InputError
    from wsd.evaluate.change_gold import change_gold

    gold = change_gold(bundle.gold_change, bundle.occurrences["target"])
    if gold.graded_column is None or gold.graded.empty:
        raise InputError(f"no graded gold change: {gold.reasons.get('graded')}")
    if gold.without["graded"]:
        missing = ", ".join(f"{t} ({r})" for t, r in gold.without["graded"].items())
        warnings.warn(f"{len(gold.without['graded'])} words without graded gold, left out: {missing}", stacklevel=2)
    return gold.graded.astype(float), gold.graded_column


def split_words(words: Sequence[str]) -> dict[str, list[str]]:
    """``dev`` (even positions in sorted order) and ``held_out`` (odd positions)."""
    ordered = sorted(words)
    return {"dev": ordered[0::2], "held_out": ordered[1::2]}


# ------------------------------------------------------------------------------------------ per word
@dataclass
class WordResult:
    """What one setting gives for one word: its change scores and its clustering scores."""

    scores: dict[str, float] = field(default_factory=dict)
    ari: float = math.nan
    nmi: float = math.nan
    n_clustered: int = 0
    binary: int | None = None
    n_senses: int = 0


def vector_scores(vectors: np.ndarray, forms: np.ndarray, period: np.ndarray, prefix: str = "") -> dict[str, float]:
    """APD and PRT of one word's vector variants between its two periods.

    ``default``: the vectors as embedded; ``target`` / ``context``: one half of the target + context vector;
    ``clustered``: what the default recipe clusters (half of each form's offset removed, L2-normalised);
    ``centred``: the clustered vectors minus the word's mean over both periods; ``standardised``: the clustered
    vectors z-scored per dimension over the word's uses of both periods.
    Keys are ``apd_<variant><prefix>`` / ``prt_<variant><prefix>``.
    """
    from wsd.change.measures import apd, prt
    from wsd.senses.preprocess import Preprocessor
    from wsd.senses.recipes import recipe

    default = recipe("default")
    clustered = (
        Preprocessor(center_forms=default["center_forms"], normalize=default["normalize"])
        .fit(vectors, forms=forms)
        .transform(vectors, forms)
    )
    spread = clustered.std(axis=0)
    spread[spread < 1e-9] = 1.0
    half = vectors.shape[1] // 2
    variants = {
        "default": vectors,
        "target": vectors[:, :half],
        "context": vectors[:, half:],
        "clustered": clustered,
        "centred": clustered - clustered.mean(axis=0),
        "standardised": (clustered - clustered.mean(axis=0)) / spread,
    }
    early, late = period == 0, period == 1
    scores: dict[str, float] = {}
    for variant, X in variants.items():
        scores[f"apd_{variant}{prefix}"] = apd(X[early], X[late])
        scores[f"prt_{variant}{prefix}"] = prt(X[early], X[late])
    return scores


def clustered_vectors(vectors: np.ndarray, forms: np.ndarray) -> np.ndarray:
    """The vectors the default recipe's clusterer sees: each form's offset half removed, L2-normalised."""
    from wsd.senses.preprocess import Preprocessor
    from wsd.senses.recipes import recipe

    default = recipe("default")
    fitted = Preprocessor(center_forms=default["center_forms"], normalize=default["normalize"]).fit(
        vectors, forms=forms
    )
    return np.asarray(fitted.transform(vectors, forms))


def _threshold_labels(
    vectors: np.ndarray, forms: np.ndarray, threshold: float | None, relative_cut: float | None = None
) -> np.ndarray:
    """Average-linkage clusters (cosine) of the default recipe's clustered vectors, cut at a mean similarity.

    With ``relative_cut`` the cut is the word's mean pairwise distance minus that many standard deviations.
    """
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import pdist

    Y = clustered_vectors(vectors, forms)
    if len(Y) < 2:
        return np.zeros(len(Y), dtype=np.int64)
    distances = pdist(Y, "cosine")
    tree = linkage(distances, "average")
    cut = 1.0 - threshold if threshold is not None else distances.mean() - (relative_cut or 0.0) * distances.std()
    return (fcluster(tree, t=cut, criterion="distance") - 1).astype(np.int64)


def word_result(
    setting: Setting,
    vectors: np.ndarray,
    forms: np.ndarray,
    period: np.ndarray,
    gold_senses: np.ndarray,
    rule: tuple[int, int] | None,
    random_state: int = 0,
    with_vectors: bool = False,
) -> WordResult:
    """Induce one word's senses with ``setting`` and measure change and agreement with the gold."""
    from wsd.change.measures import binary_change, jsd_distance
    from wsd.evaluate.metrics.clustering import adjusted_rand, normalized_mutual_info
    from wsd.senses.inducer import SenseInducer

    if setting.drop_noise:
        keep = gold_senses != ""
        vectors, forms, period, gold_senses = vectors[keep], forms[keep], period[keep], gold_senses[keep]
    early, late = period == 0, period == 1
    if setting.threshold is not None or setting.relative_cut is not None:
        labels = _threshold_labels(vectors, forms, setting.threshold, setting.relative_cut)
        proba = np.eye(int(labels.max()) + 1)[labels]
        n_found = int(labels.max()) + 1
    else:
        inducer = SenseInducer(**(setting.senses | {"random_state": random_state})).fit(vectors, forms=forms)
        labels = inducer.labels_
        proba = inducer.predict_proba(vectors, forms=forms)
        n_found = inducer.n_senses_
    n_senses = int(labels.max()) + 1
    hard = [np.bincount(labels[mask], minlength=n_senses) for mask in (early, late)]
    result = WordResult(n_senses=n_found)
    result.scores["jsd"] = jsd_distance(*hard) if early.any() and late.any() else math.nan
    result.scores["jsd_soft"] = (
        jsd_distance(proba[early].sum(axis=0), proba[late].sum(axis=0)) if early.any() and late.any() else math.nan
    )
    if with_vectors or setting.drop_noise:
        result.scores |= vector_scores(vectors, forms, period)
    if rule is not None:
        result.binary = int(binary_change(*hard, k=rule[0], n=rule[1]).changed)
    known = gold_senses != ""
    if known.any():
        result.ari = adjusted_rand(list(gold_senses[known]), list(labels[known].astype(str)))
        result.nmi = normalized_mutual_info(list(gold_senses[known]), list(labels[known].astype(str)))
        result.n_clustered = int(known.sum())
    return result


def spearman(system: dict[str, float], gold: pd.Series, words: Sequence[str]) -> float:
    """Spearman ρ over ``words`` (NaN when a side is constant or a score is missing)."""
    from scipy.stats import spearmanr

    x = np.array([system.get(w, math.nan) for w in words], dtype=float)
    y = gold.loc[list(words)].to_numpy(dtype=float)
    if np.isnan(x).any() or np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan
    return float(spearmanr(x, y).statistic)


def summarise(
    per_word: dict[str, WordResult], gold: pd.Series, binary_gold: pd.Series | None, words: Sequence[str]
) -> dict[str, float]:
    """Dataset-level figures of one setting over ``words``."""
    results = [per_word[w] for w in words]
    summary: dict[str, float] = {}
    weights = np.array([r.n_clustered for r in results], dtype=float)
    if weights.sum() > 0:
        for name in ("ari", "nmi"):
            values = np.array([getattr(r, name) if r.n_clustered else 0.0 for r in results])
            summary[name] = float((values * weights).sum() / weights.sum())
    for measure in results[0].scores:
        summary[f"rho_{measure}"] = spearman({w: per_word[w].scores[measure] for w in words}, gold, words)
    if binary_gold is not None and results[0].binary is not None:
        predicted = np.array([r.binary for r in results])
        truth = binary_gold.loc[list(words)].to_numpy(dtype=int)
        summary["binary_acc"] = float((predicted == truth).mean())
        tp = int(((predicted == 1) & (truth == 1)).sum())
        denominator = int(predicted.sum() + truth.sum())
        summary["binary_f1"] = 2 * tp / denominator if denominator else math.nan
    summary["mean_senses"] = float(np.mean([r.n_senses for r in results]))
    summary["one_sense_words"] = float(np.mean([r.n_senses == 1 for r in results]))
    return summary


def add_ensembles(per_word: dict[str, dict[str, float]]) -> None:
    """Add ``apd+prt_<variant>``: the mean of a word's APD rank and PRT rank among the dataset's words.

    Ranks use no gold, so the ensemble can be formed on any set of targets (a change ranking needs no labels).
    """
    from scipy.stats import rankdata

    words = sorted(per_word)
    names = sorted({k for w in words for k in per_word[w] if k.startswith("apd_")})
    for name in names:
        other = "prt_" + name.removeprefix("apd_")
        if not all(other in per_word[w] and name in per_word[w] for w in words):
            continue
        a = rankdata([per_word[w][name] for w in words])
        b = rankdata([per_word[w][other] for w in words])
        for word, value in zip(words, (a + b) / 2.0, strict=True):
            per_word[word]["apd+prt_" + name.removeprefix("apd_")] = float(value)


def run_dataset(
    name: str,
    data_dir: Path,
    model: str | None,
    one_sense: Sequence[float],
    only: Sequence[str] = (),
    layer_choices: Sequence[str] = (),
    lemmatise: bool = False,
) -> dict[str, Any]:
    """Every setting on one dataset: summaries over the dev half, the held-out half and all words.

    Per-word values (every change score, ARI, sense counts) are kept in the output too (``per_word``,
    ``vector_per_word``), so the selection protocol (:func:`protocol`) can be recomputed from the JSON.
    """
    from threadpoolctl import threadpool_limits

    from wsd.evaluate.datasets.wug import period_of

    bundle = load(name, data_dir)
    extra_layers = [spec for spec in layer_choices if spec != LAYER_CHOICES[0]]
    vectors_by_choice: dict[str, np.ndarray] = {}
    embedded, meta = embed(bundle, model, [LAYER_CHOICES[0], *extra_layers])
    vectors = embedded[0]
    vectors_by_choice |= {f"@{spec}": X for spec, X in zip(extra_layers, embedded[1:], strict=True)}
    if lemmatise:
        (vectors_by_choice[f"@{LEMMA}"],), _ = embed(bundle, model, [LAYER_CHOICES[0]], lemmatise=True)
    occurrences = bundle.occurrences
    gold, gold_name = gold_scores(bundle)
    change = bundle.gold_change.set_index("target")
    binary_gold = change["change_binary"].astype(int) if "change_binary" in change else None
    rule = BINARY_RULE.get(name)
    periods = period_of(occurrences)
    words = sorted(gold.index)
    groups = {word: np.flatnonzero(occurrences["target"].to_numpy() == word) for word in words}
    senses = occurrences["sense"].fillna("").astype(str).to_numpy() if "sense" in occurrences else None
    has_clusters = senses is not None and bool((senses != "").any())
    forms = occurrences["form"].to_numpy()
    output: dict[str, Any] = {"gold": gold_name, "encoder": meta, "words": len(words), "settings": {}}
    output["gold_values"] = {word: float(gold.loc[word]) for word in words}
    parts = split_words(words) if name == DEV_DATASET else {}
    parts["all"] = words
    output["parts"] = {part: len(members) for part, members in parts.items()}
    output["split"] = {part: members for part, members in parts.items() if part != "all"}
    output["per_word"] = {}
    vector_per_word: dict[str, dict[str, float]] = {}
    for setting in settings(one_sense):
        if only and not any(part in setting.name for part in only):
            continue
        if setting.drop_noise and not has_clusters:
            continue
        per_word: dict[str, WordResult] = {}
        with threadpool_limits(limits=1):
            for word, rows in groups.items():
                gold_senses = senses[rows] if senses is not None else np.full(len(rows), "")
                per_word[word] = word_result(
                    setting,
                    vectors[rows].astype(np.float64),
                    forms[rows],
                    periods[rows],
                    gold_senses,
                    rule if binary_gold is not None else None,
                    with_vectors=setting.name == "default",
                )
                if setting.name == "default":
                    vector_per_word[word] = {
                        k: v for k, v in per_word[word].scores.items() if k[:4] in ("apd_", "prt_")
                    }
                    for suffix, X in vectors_by_choice.items():
                        vector_per_word[word] |= vector_scores(
                            X[rows].astype(np.float64), forms[rows], periods[rows], prefix=suffix
                        )
        if setting.name == "default" and vector_per_word:
            add_ensembles(vector_per_word)
            for word, result in per_word.items():
                result.scores |= vector_per_word[word]
        output["settings"][setting.name] = {
            "senses": {k: list(v) if isinstance(v, tuple) else v for k, v in setting.senses.items()}
            | ({"threshold": setting.threshold} if setting.threshold is not None else {})
            | ({"relative_cut": setting.relative_cut} if setting.relative_cut is not None else {})
            | ({"drop_noise": True} if setting.drop_noise else {}),
            **{part: summarise(per_word, gold, binary_gold, members) for part, members in parts.items()},
        }
        output["per_word"][setting.name] = {
            word: {
                **{k: v for k, v in r.scores.items() if k in ("jsd", "jsd_soft")},
                "ari": r.ari,
                "n_clustered": r.n_clustered,
                "n_senses": r.n_senses,
            }
            for word, r in per_word.items()
        }
        log(f"{name}: {setting.name}: " + json.dumps(output["settings"][setting.name].get("dev", {}) or {}))
    output["vector_per_word"] = vector_per_word
    return output


# ------------------------------------------------------------------------------------------ protocol
def _rho_rows(matrix: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """Spearman ρ of every row of ``matrix`` (candidates × words) with ``gold`` (NaN where a row is constant)."""
    from scipy.stats import rankdata

    ranks = rankdata(matrix, axis=1)
    target = rankdata(gold)
    ranks = ranks - ranks.mean(axis=1, keepdims=True)
    target = target - target.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (ranks @ target) / (np.linalg.norm(ranks, axis=1) * np.linalg.norm(target))
    return np.where(np.isfinite(rho), rho, np.nan)


def _weighted_rows(matrix: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weighted mean of every row (ARI per word weighted by its clustered uses)."""
    return (matrix * weights).sum(axis=1) / weights.sum()


def families(data: dict[str, Any]) -> dict[str, tuple[list[str], np.ndarray, str]]:
    """The candidate sets of the selection protocol: name -> (candidates, candidates × words matrix, figure).

    ``vector change score, small grid``: :data:`SMALL_VECTOR_GRID`; ``vector change score, all``: every APD /
    PRT / APD+PRT of every vector variant and embedding (:func:`_vector_candidate`); ``JSD of induced
    senses``: every clustering setting's hard and soft JSD; ``ARI of induced senses``: every clustering
    setting. Baselines and the gold-reading setting (uses in cluster −1 dropped) are not candidates.
    """
    words = sorted(data["gold_values"])
    out: dict[str, tuple[list[str], np.ndarray, str]] = {}
    vectors = data.get("vector_per_word") or {}
    if vectors:
        names = [n for n in sorted(vectors[words[0]]) if _vector_candidate(n)]
        small = [n for n in names if n in SMALL_VECTOR_GRID]
        for family, chosen in (("vector change score, small grid", small), ("vector change score, all", names)):
            if chosen:
                out[family] = (chosen, np.array([[vectors[w][n] for w in words] for n in chosen]), "rho")
    systems = {s: v for s, v in data.get("per_word", {}).items() if not s.startswith("baseline") and "dropped" not in s}
    jsd = [
        (s, m)
        for s in systems
        for m in ("jsd", "jsd_soft")
        if m == "jsd" or any(systems[s][w]["jsd_soft"] != systems[s][w]["jsd"] for w in words)
    ]  # a hard clustering's soft JSD is its JSD: one candidate, not two
    if jsd:
        matrix = np.array([[systems[s][w][m] for w in words] for s, m in jsd], dtype=float)
        out["JSD of induced senses"] = ([f"{s} ({m})" for s, m in jsd], matrix, "rho")
    if systems and any(systems[s][words[0]]["n_clustered"] for s in systems):
        matrix = np.array([[systems[s][w]["ari"] for w in words] for s in systems], dtype=float)
        out["ARI of induced senses"] = (list(systems), np.nan_to_num(matrix), "ari")
    return out


#: The small grid of vector change scores, fixed before any figure was seen: APD, PRT and their rank ensemble
#: of the default embedding's vectors as embedded, of their context half and of the clustered vectors.
SMALL_VECTOR_GRID = tuple(f"{m}_{v}" for m in ("apd", "prt", "apd+prt") for v in ("default", "context", "clustered"))


def _vector_candidate(name: str) -> bool:
    """Whether a vector score is a candidate: not a duplicate, not degenerate.

    The context half does not depend on the target-layer choice (it is the last layer's), so ``context@<layers>``
    repeats ``context``; the PRT of centred or standardised vectors is degenerate (centring the word's uses makes
    the two period means point in opposite directions), and so is its ensemble.
    """
    measure, _, variant = name.partition("_")
    base, _, embedding = variant.partition("@")
    if base == "context" and embedding not in ("", LEMMA):
        return False
    return not (base in ("centred", "standardised") and measure in ("prt", "apd+prt"))


def _figure(matrix: np.ndarray, kind: str, gold: np.ndarray, weights: np.ndarray, idx: np.ndarray) -> np.ndarray:
    if kind == "rho":
        return _rho_rows(matrix[:, idx], gold[idx])
    return _weighted_rows(matrix[:, idx], weights[idx])


#: The current defaults each family is compared with.
CURRENT_DEFAULT = {
    "vector change score, small grid": "prt_default",
    "vector change score, all": "prt_default",
    "JSD of induced senses": "default (jsd)",
    "ARI of induced senses": "default",
}


def protocol(data: dict[str, Any]) -> dict[str, Any]:
    """Selection without overfitting, on one dataset with a dev/held-out split (DWUG EN).

    For each family of candidates: (1) two-fold: the best on dev scored on held-out, and the reverse;
    (2) ``N_SPLITS`` random halves: the in-sample winner's in-sample and out-of-sample figure (mean, 5th and
    95th percentile) beside the current default's out-of-sample figure on the same halves; (3) the winner
    on all words, with a word-bootstrap 95% interval (``N_BOOTSTRAP`` resamples) for it and for the default.
    """
    words = sorted(data["gold_values"])
    gold = np.array([data["gold_values"][w] for w in words])
    reference = data.get("per_word", {}).get("default", {})
    weights = np.array([reference.get(w, {}).get("n_clustered", 0) for w in words], dtype=float)
    index = {w: i for i, w in enumerate(words)}
    halves = {part: np.array([index[w] for w in members]) for part, members in data.get("split", {}).items()}
    rng = np.random.default_rng(PROTOCOL_SEED)
    n = len(words)
    splits = [rng.permutation(n) for _ in range(N_SPLITS)]  # the same halves and resamples for every family
    boot = rng.integers(0, n, size=(N_BOOTSTRAP, n))
    result: dict[str, Any] = {}
    for family, (names, matrix, kind) in families(data).items():
        entry: dict[str, Any] = {"candidates": len(names), "figure": kind}

        def score(idx: np.ndarray, matrix: np.ndarray = matrix, kind: str = kind) -> np.ndarray:
            return _figure(matrix, kind, gold, weights, idx)

        base = names.index(CURRENT_DEFAULT[family]) if CURRENT_DEFAULT[family] in names else None
        if {"dev", "held_out"} <= set(halves):
            for a, b in (("dev", "held_out"), ("held_out", "dev")):
                on_a, on_b = score(halves[a]), score(halves[b])
                best = int(np.nanargmax(on_a))
                entry[f"chosen_on_{a}"] = {"name": names[best], a: float(on_a[best]), b: float(on_b[best])}
        ins, outs, base_outs = [], [], []
        for order in splits:
            a, b = order[: n // 2], order[n // 2 :]
            on_a, on_b = score(a), score(b)
            best = int(np.nanargmax(on_a))
            ins.append(on_a[best])
            outs.append(on_b[best])
            if base is not None:
                base_outs.append(on_b[base])
        outs_arr = np.array(outs)
        entry["splits"] = {
            "in_sample": float(np.nanmean(ins)),
            "out_of_sample": float(np.nanmean(outs_arr)),
            "out_p5": float(np.nanpercentile(outs_arr, 5)),
            "out_p95": float(np.nanpercentile(outs_arr, 95)),
        }
        if base is not None:
            base_arr = np.array(base_outs)
            entry["splits"]["default_out_of_sample"] = float(np.nanmean(base_arr))
            entry["splits"]["winner_beats_default"] = float(np.mean(outs_arr > base_arr))
        everything = np.arange(n)
        on_all = score(everything)
        best = int(np.nanargmax(on_all))
        entry["all_words"] = {"name": names[best], "value": float(on_all[best])}
        resampled = {
            row: np.array([_figure(matrix[row : row + 1], kind, gold, weights, idx)[0] for idx in boot])
            for row in {best, base} - {None}
        }
        if base is not None:
            difference = resampled[best] - resampled[base]
            entry["all_words"]["difference_ci"] = [
                float(np.nanpercentile(difference, 2.5)),
                float(np.nanpercentile(difference, 97.5)),
            ]
        for label, row in (("winner", best), ("default", base)):
            if row is None:
                continue
            values = resampled[row]
            entry["all_words"][f"{label}_ci"] = [
                float(np.nanpercentile(values, 2.5)),
                float(np.nanpercentile(values, 97.5)),
            ]
        if base is not None:
            entry["all_words"]["default"] = float(on_all[base])
        top = np.argsort(-np.nan_to_num(on_all, nan=-9.0), kind="stable")[:5]
        entry["top_all_words"] = {names[i]: float(on_all[i]) for i in top}
        result[family] = entry
    return result


def external(results: dict[str, Any], names: dict[str, list[str]]) -> dict[str, dict[str, dict[str, float]]]:
    """The figures of named candidates (per family) on every dataset, all words: family -> name -> dataset."""
    table: dict[str, dict[str, dict[str, float]]] = {}
    for dataset, data in results["datasets"].items():
        if "gold_values" not in data:
            continue
        words = sorted(data["gold_values"])
        gold = np.array([data["gold_values"][w] for w in words])
        reference = data.get("per_word", {}).get("default", {})
        weights = np.array([reference.get(w, {}).get("n_clustered", 0) for w in words], dtype=float)
        for family, (candidates, matrix, kind) in families(data).items():
            for name in names.get(family, []):
                if name in candidates and (kind == "rho" or weights.sum() > 0):
                    row = candidates.index(name)
                    value = _figure(matrix[row : row + 1], kind, gold, weights, np.arange(len(words)))[0]
                    table.setdefault(family, {}).setdefault(name, {})[dataset] = float(value)
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the experiment and write ``experiments/results/lscd/lscd.md`` and ``.json``."""
    parser = argparse.ArgumentParser(prog="python -m experiments.lscd", description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated: " + ", ".join(DATASETS))
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--model", default=None, help="English encoder (default: the bundled MiniLM)")
    parser.add_argument("--multilingual-model", default=None, help="encoder folder for Norwegian and Russian")
    parser.add_argument("--one-sense", default="0.05,0.1,0.15", help="one_sense_below thresholds compared")
    parser.add_argument("--only", default="", help="run only the settings whose name contains one of these (a,b)")
    parser.add_argument(
        "--add", action="store_true", help="keep the other datasets of an existing lscd.json (add or replace these)"
    )
    parser.add_argument(
        "--variants-on",
        default=DEV_DATASET,
        help="datasets (a,b or none) also embedded with every target-layer choice and lemmatised targets",
    )
    parser.add_argument(
        "--lemma-on",
        default="",
        help="datasets (a,b) also embedded with lemmatised targets only (the external check of that choice)",
    )
    parser.add_argument("--markdown-only", action="store_true", help="rewrite lscd.md from lscd.json")
    parser.add_argument("--out", type=Path, default=results_dir("lscd"), help="results folder")
    args = parser.parse_args(argv)
    thresholds = [float(t) for t in args.one_sense.split(",") if t.strip()]
    if args.markdown_only:
        saved = json.loads((args.out / "lscd.json").read_text(encoding="utf-8"))
        (args.out / "lscd.md").write_text(markdown(saved) + "\n", encoding="utf-8")
        return 0
    results: dict[str, Any] = {"command": command_line(), "datasets": {}}
    existing = args.out / "lscd.json"
    if args.add and existing.is_file():
        previous = json.loads(existing.read_text(encoding="utf-8"))
        results["datasets"] = previous["datasets"]
        results["command"] = f"{previous['command']}; then {results['command']}"
    for name in [n.strip() for n in args.datasets.split(",") if n.strip()]:
        if name not in DATASETS:
            raise SystemExit(f"unknown dataset {name!r} (choose from {', '.join(DATASETS)})")
        multilingual = DATASETS[name][1]
        if multilingual and not args.multilingual_model:
            log(f"{name}: skipped (needs --multilingual-model)")
            continue
        model = args.multilingual_model if multilingual else args.model
        only = [part for part in args.only.split(",") if part]
        variants = name in [v.strip() for v in args.variants_on.split(",")]
        lemma = variants or name in [v.strip() for v in args.lemma_on.split(",")]
        results["datasets"][name] = run_dataset(
            name, args.data_dir, model, thresholds, only, LAYER_CHOICES if variants else (), lemmatise=lemma
        )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "lscd.json").write_text(json.dumps(results, indent=1, default=_plain) + "\n", encoding="utf-8")
    (args.out / "lscd.md").write_text(markdown(results) + "\n", encoding="utf-8")
    return 0


def _plain(value: Any) -> Any:
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return str(value)


def _cell(value: float | None) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


#: Columns of the senses table, then the vector-measure table (rows: the default setting's vector variants).
SENSE_COLUMNS = ("ari", "nmi", "rho_jsd", "rho_jsd_soft", "binary_acc", "binary_f1", "mean_senses", "one_sense_words")
CHOICES = [
    "**Which data each choice was made on.** Only DWUG EN chooses anything. Its 46 words are split into two "
    "halves of 23 (even / odd positions in sorted order: *dev* and *held_out*); the selection protocol below "
    "chooses on one half and scores on the other, in both directions and over 200 random halves, so every DWUG "
    "EN figure of a *choice* is out of sample. NorDiaChange 1 and 2 and RuSemShift 1 and 2 (multilingual "
    "encoder) never choose anything. Caveat, stated plainly: while the grids were being put together (this "
    "session), the external figures of the vector variants and of a first version of the WUG-like cuts were "
    "seen; nothing below was chosen on them, but for those candidates the external columns are not blind.",
    "**What was tried** (every candidate is in the tables, losers included; counts in the protocol table): "
    "vector change scores — APD, PRT and their rank ensemble (APD+PRT) of the embedded vectors, their target "
    "and context halves, the clustered vectors, and APD of per-word centred and z-scored (standardised) "
    "clustered vectors; target layers sum-last-4 (default), last, 3 (the middle of MiniLM's six), 1+last "
    "(Laicher et al. 2021) and the mean of all; the target's form replaced by its lemma (`@lemma`, Laicher et "
    "al. 2021); 72 candidates, and a small grid of 9 (APD / PRT / APD+PRT × embedded / context / clustered) "
    "fixed before any figure. Senses for JSD and ARI — the default recipe and its one-sense thresholds, other "
    "methods, k = 5 and 10, soft memberships, HDBSCAN, GMM with BIC, and WUG-like clusterings that mirror how "
    "the gold was made: average linkage on cosine stopped where the mean similarity between two clusters "
    "drops below a cut (a greedy correlation clustering of the similarity graph, as the annotators' graph is "
    "cut at 2.5 on the 1–4 scale), with absolute cuts 0.6–0.74 and cuts relative to each word's own "
    "similarities (mean distance − 0/0.5/1 sd).",
    "**Result: the issue-15 quality goals are not met with the bundled model, out of sample.** (1) Graded ρ "
    "≥ 0.55: the default change score (PRT) has ρ 0.369 on all 46 words (95% bootstrap interval 0.04–0.64); "
    "no candidate chosen on one half reaches 0.55 on the other — the best out-of-sample figures are 0.43 "
    "(PRT of the clustered vectors, chosen on held_out, on dev) and 0.44 (APD of standardised last-layer "
    "vectors, chosen on held_out, on dev), while the dev choices fall to 0.25–0.32 on held_out. Choosing "
    "among 9 candidates on 23 words is worth 0.33 on the other 23 on average (below the fixed default's "
    "0.37; better than it in 46% of random halves); among 72, 0.29 (30%). The best on all words, PRT of the "
    "context half (0.456), is not reliably better than the default (paired interval of the difference "
    "−0.05 to +0.27) and does not hold on the external data (better on 2 of 4). So the default change score "
    "stays `prt`. (2) ARI clearly above the one-sense baseline: only with a one-sense threshold (0.08 chosen "
    "on dev: held_out 0.270 against 0.181; 0.05 chosen on held_out: dev 0.151 against 0.088) — but it lowers "
    "the JSD ranking and the binary F1, SemEval-2013 vetoes it in the default recipe (README, Sense quality), "
    "and on NorDiaChange the one-sense baseline is far ahead (0.368 / 0.542). (3) JSD of induced senses ≥ "
    "0.45: no. Chosen on one half, the best reaches 0.29 (dev choice on held_out) and 0.43 (held_out "
    "choice, k = 10 soft, on dev); 0.23 on average over random halves; externally at most 0.29. The only "
    "pre-declared idea that improved both halves is the lemma in place of the target's form (PRT 0.351 → "
    "0.442 on dev, 0.365 → 0.426 on held_out, 0.369 → 0.427 on all words), but it does not hold externally "
    "(NorDiaChange 1 0.424 → 0.483, RuSemShift 1 0.155 → 0.196; NorDiaChange 2 0.371 → 0.245, RuSemShift 2 "
    "0.301 → 0.287), so it is not adopted.",
    "**Why the earlier figures differ** (issue 15 and ../shared/datasets/README.md: ARI 13.9, ρ JSD 0.25, "
    "APD 0.34, PRT 0.40, against 15.5 / 0.17 / 0.34 / 0.37 here): they were measured after dropping the 272 "
    "uses in gold cluster −1 *before* clustering and comparing (8,835 of 9,107 uses). The setting 'default, "
    "uses in cluster −1 dropped first' reproduces them exactly on all words (ARI 0.139, ρ JSD 0.250, APD "
    "0.340, PRT 0.396). wsd clusters every use (a system cannot know which uses the annotators set aside) "
    "and leaves cluster −1 out only when scoring ARI/NMI; periods, layers, windows, deduplication and seeds "
    "are not the cause (the same cached vectors; Ward is deterministic). The JSD ranking is fragile: 272 "
    "uses (3%) move it by 0.08.",
]


def _table(rows: dict[str, dict[str, float]], columns: Sequence[str], first: str) -> list[str]:
    lines = [f"| {first} | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    lines += [f"| {name} | " + " | ".join(_cell(row.get(c)) for c in columns) + " |" for name, row in rows.items()]
    return lines


def _vector_rows(row: dict[str, float]) -> dict[str, dict[str, float | None]]:
    """Rows of the vector table: every variant of every embedding (``clustered@last``), columns the measures."""
    suffixes = ["", *sorted({k.split("@", 1)[1] for k in row if "@" in k and k.startswith("rho_")})]
    rows: dict[str, dict[str, float | None]] = {}
    for suffix in suffixes:
        for variant in VECTOR_VARIANTS:
            key = variant + (f"@{suffix}" if suffix else "")
            values = {
                m: row.get(f"rho_{m}_{key}") if _vector_candidate(f"{m}_{key}") else None for m in VECTOR_MEASURES
            }
            if any(v is not None for v in values.values()):
                rows[key] = values
    return rows


VECTOR_MEASURES = ("apd", "prt", "apd+prt")


def _range(values: Sequence[float]) -> str:
    return f"[{values[0]:.3f}, {values[1]:.3f}]"


def protocol_lines(name: str, data: dict[str, Any]) -> list[str]:
    """The selection protocol's tables for one dataset with a split."""
    found = protocol(data)
    lines = [
        f"## Selection protocol on {name} ({data['words']} words)",
        "",
        "Each family's candidates are a fixed grid (count in the table). *Two-fold*: the candidate best on one "
        "half, scored on the other (both directions). *Repeated halves*: "
        f"{N_SPLITS} random 50/50 splits of all words (seed {PROTOCOL_SEED}); the in-sample winner's mean figure "
        "on its own half and on the other half (5th–95th percentile), beside the current default's figure on the "
        "same other halves and how often the winner beat it there. *All words*: the best candidate on every "
        f"word, with a word-bootstrap 95% interval ({N_BOOTSTRAP} resamples), beside the default's. The "
        "out-of-sample columns are what a choice made on half the words is worth; the in-sample ones are what "
        "it seems to be worth.",
        "",
        "| family | candidates | chosen on dev → dev / held-out | chosen on held-out → held-out / dev | "
        "halves: in-sample | halves: out-of-sample [5%, 95%] | default out-of-sample | winner beats default |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for family, entry in found.items():
        dev, held = entry.get("chosen_on_dev"), entry.get("chosen_on_held_out")
        cell_dev = f"{dev['name']}: {dev['dev']:.3f} / {dev['held_out']:.3f}" if dev else "–"
        cell_held = f"{held['name']}: {held['held_out']:.3f} / {held['dev']:.3f}" if held else "–"
        sp = entry["splits"]
        lines.append(
            f"| {family} ({entry['figure']}) | {entry['candidates']} | {cell_dev} | {cell_held} | "
            f"{sp['in_sample']:.3f} | {sp['out_of_sample']:.3f} [{sp['out_p5']:.3f}, {sp['out_p95']:.3f}] | "
            f"{_cell(sp.get('default_out_of_sample'))} | "
            + (f"{100 * sp['winner_beats_default']:.0f}% |" if "winner_beats_default" in sp else "– |")
        )
    lines += [
        "",
        "| family | best on all words | its 95% interval | default on all words | default's 95% interval | "
        "best − default, 95% interval (paired) | next best on all words |",
        "|---|---|---|---|---|---|---|",
    ]
    for family, entry in found.items():
        a = entry["all_words"]
        others = ", ".join(f"{k} {v:.3f}" for k, v in list(entry["top_all_words"].items())[1:4])
        lines.append(
            f"| {family} | {a['name']}: {a['value']:.3f} | {_range(a['winner_ci'])} | "
            f"{_cell(a.get('default'))} | {_range(a['default_ci']) if 'default_ci' in a else '–'} | "
            f"{_range(a['difference_ci']) if 'difference_ci' in a else '–'} | {others} |"
        )
    return [*lines, ""]


def external_lines(results: dict[str, Any]) -> list[str]:
    """Named candidates on every dataset (all words): the defaults and the DWUG EN all-words winners."""
    names: dict[str, list[str]] = {f: [d] for f, d in CURRENT_DEFAULT.items()}
    for family, checks in EXTERNAL_CHECKS.items():
        names[family] += list(checks)
    dev = results["datasets"].get(DEV_DATASET)
    if dev is not None and "gold_values" in dev:
        for family, entry in protocol(dev).items():
            if entry["all_words"]["name"] not in names.setdefault(family, []):
                names[family].append(entry["all_words"]["name"])
    table = external(results, names)
    datasets = [d for d, v in results["datasets"].items() if "gold_values" in v]
    lines = [
        "## The candidates on every dataset (all words)",
        "",
        "The current defaults, fixed alternatives and the two-fold choices above (`EXTERNAL_CHECKS` in "
        "experiments/lscd.py), and each family's winner on all DWUG EN words. Only DWUG EN chose anything; "
        "NorDiaChange and RuSemShift (multilingual encoder: the default embedding and, where `--lemma-on` "
        "names them, lemmatised targets `@lemma`; the other `@` layer variants are DWUG EN's only) are external.",
        "",
        "| family | candidate | " + " | ".join(datasets) + " |",
        "|---|---|" + "---|" * len(datasets),
    ]
    for family, rows in table.items():
        for name, values in rows.items():
            lines.append(f"| {family} | {name} | " + " | ".join(_cell(values.get(d)) for d in datasets) + " |")
    one_sense = {d: results["datasets"][d]["settings"].get("baseline: one sense", {}).get("all", {}) for d in datasets}
    if any("ari" in row for row in one_sense.values()):
        cells = " | ".join(_cell(one_sense[d].get("ari")) for d in datasets)
        lines.append(f"| ARI of induced senses | baseline: one sense | {cells} |")
    return [*lines, ""]


#: Candidates shown on every dataset whatever the protocol picks: fixed alternatives and the two-fold choices.
EXTERNAL_CHECKS = {
    "vector change score, small grid": ("apd_default", "apd+prt_default", "prt_context", "prt_clustered"),
    "vector change score, all": ("prt_default@lemma", "apd_default@lemma", "prt_context@lemma"),
    "JSD of induced senses": ("default, k=10 (jsd_soft)", "agglomerative (cosine, average), k=10 (jsd)"),
    "ARI of induced senses": ("default, one sense below 0.08", "hdbscan (native)"),
}


def markdown(results: dict[str, Any]) -> str:
    """The results file: the protocol, the candidates everywhere, then per dataset and part every table."""
    first = next(iter(results["datasets"].values()), {})
    lines = ["# Lexical semantic change on the WUG datasets", ""]
    lines += header_lines(results["command"], 1, first.get("encoder"))
    lines += [
        "- Norwegian and Russian: multilingual-e5-small (4-bit), `bash ../shared/models/get-multilingual-e5.sh "
        "/work/models` (its folder is `--multilingual-model`); English: the bundled all-MiniLM-L6-v2.",
        "",
        "ρ = Spearman against the graded gold (`change_graded`; RuSemShift: −COMPARE); ari/nmi: per word against "
        "the gold clusters, weighted by clustered uses; binary: the WUG rule on the induced sense counts. "
        "All figures are fractions.",
        "",
        *[line for paragraph in CHOICES for line in (paragraph, "")],
        *PUBLISHED,
        "",
    ]
    dev = results["datasets"].get(DEV_DATASET)
    if dev is not None and "split" in dev:
        lines += protocol_lines(DEV_DATASET, dev)
    lines += external_lines(results)
    for name, data in results["datasets"].items():
        for part in ("dev", "held_out", "all"):
            rows = {s: v[part] for s, v in data["settings"].items() if part in v}
            if not rows:
                continue
            role = {"dev": "first half", "held_out": "second half", "all": "all words"}[part]
            if name != DEV_DATASET:
                role = "external"
            count = data.get("parts", {}).get(part, data["words"])
            lines += [f"## {name} — {part} ({role}; gold: {data['gold']}, {count} words)", ""]
            columns = [c for c in SENSE_COLUMNS if any(c in row for row in rows.values())]
            lines += _table(rows, columns, "senses")
            variants = _vector_rows(rows.get("default", {}))
            if variants:
                lines += ["", *_table(variants, VECTOR_MEASURES, "vectors (ρ)")]
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
