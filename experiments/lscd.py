"""Lexical semantic change on the WUG datasets: induced senses and change measures against the gold.

Run from the repository root::

    python -m experiments.lscd [--datasets dwug_en,nordiachange1,...] [--model PATH] [--data-dir DIR]

For every dataset in ``../shared/datasets/lscd/`` (DWUG EN, NorDiaChange subsets 1 and 2, RuSemShift 1 and
2) the uses are embedded once with the default embedding recipe (cached, ``$WSD_CACHE_DIR``), each word's
senses are induced with every clustering setting below, and the script reports

- ``ari`` / ``nmi``: the induced senses against the gold clusters (uses in cluster -1 left out), per word,
  averaged weighted by the word's clustered uses (a word whose gold and induced senses are both one cluster
  scores 1, as :func:`wsd.evaluate.metrics.clustering.adjusted_rand` defines it);
- ``rho_jsd`` / ``rho_jsd_soft``: Spearman ρ of the Jensen–Shannon distance between the two periods' sense
  distributions (hard counts; sums of the soft memberships) against ``change_graded``, or against
  −``COMPARE`` where a dataset has no clusters;
- ``rho_apd`` / ``rho_prt`` for every vector variant: APD and PRT (:mod:`wsd.change.measures`) of the
  vectors as embedded (``default``), of the target half alone (``target``), of the context half alone
  (``context``), and of the vectors the inducer clusters (``clustered``: half of each form's offset removed,
  L2-normalised);
- ``binary_acc`` / ``binary_f1``: the WUG rule (:func:`wsd.change.measures.binary_change`, the dataset's
  k and n) on the induced sense counts against ``change_binary``.

Choices are made on the **development** half of DWUG EN (the words at even positions in sorted order);
the odd positions and every other dataset are held out. Results: ``experiments/results/lscd.md`` / ``.json``.
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

from experiments.common import DEFAULT_DATA_DIR, RESULTS_DIR, command_line, header_lines, log

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
VECTOR_VARIANTS: tuple[str, ...] = ("default", "target", "context", "clustered")

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
        Setting("baseline: one sense", {"method": "one-sense"}),
        Setting("baseline: random (k=3)", {"method": "random", "k": 3}),
    ]
    return rows


# ------------------------------------------------------------------------------------------ data
def load(name: str, data_dir: Path):
    """The WUG bundle of a dataset."""
    from wsd.evaluate.datasets import wug

    return wug.load(data_dir / "lscd" / DATASETS[name][0])


def embed(bundle, model: str | None) -> tuple[np.ndarray, dict[str, Any]]:
    """Default-recipe vectors of every use (cached) and the encoder's metadata."""
    from wsd.embed.cache import embed_cached
    from wsd.embed.encoder import Encoder
    from wsd.senses.recipes import DEFAULT_EMBEDDING

    encoder = Encoder(model=model, context_vector=DEFAULT_EMBEDDING["context_vector"])
    config = (DEFAULT_EMBEDDING["layers"], DEFAULT_EMBEDDING["pooling"])
    (vectors,) = embed_cached(encoder, bundle.occurrences, [config], progress=sys.stderr.isatty())
    return vectors, encoder.identity(*config).embedding_meta()


def gold_scores(bundle) -> tuple[pd.Series, str]:
    """The graded gold per word (``change_graded``, else −``COMPARE``) and its name."""
    gold = bundle.gold_change.set_index("target")
    if "change_graded" in gold and gold["change_graded"].notna().any():
        return gold["change_graded"].astype(float), "change_graded"
    return -gold["COMPARE"].astype(float), "-COMPARE"


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


def word_result(
    setting: Setting,
    vectors: np.ndarray,
    forms: np.ndarray,
    period: np.ndarray,
    gold_senses: np.ndarray,
    rule: tuple[int, int] | None,
    random_state: int = 0,
) -> WordResult:
    """Induce one word's senses with ``setting`` and measure change and agreement with the gold."""
    from wsd.change.measures import apd, binary_change, jsd_distance, prt
    from wsd.evaluate.metrics.clustering import adjusted_rand, normalized_mutual_info
    from wsd.senses.inducer import SenseInducer

    inducer = SenseInducer(**(setting.senses | {"random_state": random_state})).fit(vectors, forms=forms)
    labels = inducer.labels_
    proba = inducer.predict_proba(vectors, forms=forms)
    early, late = period == 0, period == 1
    n_senses = int(labels.max()) + 1
    hard = [np.bincount(labels[mask], minlength=n_senses) for mask in (early, late)]
    result = WordResult(n_senses=inducer.n_senses_)
    result.scores["jsd"] = jsd_distance(*hard) if early.any() and late.any() else math.nan
    result.scores["jsd_soft"] = (
        jsd_distance(proba[early].sum(axis=0), proba[late].sum(axis=0)) if early.any() and late.any() else math.nan
    )
    if setting.name == "default":
        half = vectors.shape[1] // 2
        variants = {
            "default": vectors,
            "target": vectors[:, :half],
            "context": vectors[:, half:],
            "clustered": inducer.preprocessor_.transform(vectors, forms),
        }
        for variant, X in variants.items():
            result.scores[f"apd_{variant}"] = apd(X[early], X[late])
            result.scores[f"prt_{variant}"] = prt(X[early], X[late])
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


def run_dataset(
    name: str, data_dir: Path, model: str | None, one_sense: Sequence[float], only: Sequence[str] = ()
) -> dict[str, Any]:
    """Every setting on one dataset: summaries over the dev half, the held-out half and all words."""
    from threadpoolctl import threadpool_limits

    from wsd.evaluate.datasets.wug import period_of

    bundle = load(name, data_dir)
    vectors, meta = embed(bundle, model)
    occurrences = bundle.occurrences
    gold, gold_name = gold_scores(bundle)
    change = bundle.gold_change.set_index("target")
    binary_gold = change["change_binary"].astype(int) if "change_binary" in change else None
    rule = BINARY_RULE.get(name)
    periods = period_of(occurrences)
    words = sorted(gold.index)
    groups = {word: np.flatnonzero(occurrences["target"].to_numpy() == word) for word in words}
    senses = occurrences["sense"].fillna("").astype(str).to_numpy() if "sense" in occurrences else None
    output: dict[str, Any] = {"gold": gold_name, "encoder": meta, "words": len(words), "settings": {}}
    parts = split_words(words) if name == DEV_DATASET else {}
    parts["all"] = words
    output["parts"] = {part: len(members) for part, members in parts.items()}
    for setting in settings(one_sense):
        if only and not any(part in setting.name for part in only):
            continue
        per_word: dict[str, WordResult] = {}
        with threadpool_limits(limits=1):
            for word, rows in groups.items():
                gold_senses = senses[rows] if senses is not None else np.full(len(rows), "")
                per_word[word] = word_result(
                    setting,
                    vectors[rows].astype(np.float64),
                    occurrences["form"].to_numpy()[rows],
                    periods[rows],
                    gold_senses,
                    rule if binary_gold is not None else None,
                )
        output["settings"][setting.name] = {
            "senses": {k: list(v) if isinstance(v, tuple) else v for k, v in setting.senses.items()},
            **{part: summarise(per_word, gold, binary_gold, members) for part, members in parts.items()},
        }
        log(f"{name}: {setting.name}: " + json.dumps(output["settings"][setting.name].get("dev", {}) or {}))
    return output


def main(argv: list[str] | None = None) -> int:
    """Run the experiment and write ``experiments/results/lscd.md`` and ``.json``."""
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
    parser.add_argument("--markdown-only", action="store_true", help="rewrite lscd.md from lscd.json")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="results folder")
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
        results["datasets"][name] = run_dataset(name, args.data_dir, model, thresholds, only)
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
    "Which data each choice was made on: every choice below was made on the **dev** half of DWUG EN (23 words); "
    "its held-out half (23 words), NorDiaChange subsets 1 and 2 and RuSemShift 1 and 2 were not looked at "
    "for any choice. On dev: the best vector measure is APD of the clustered vectors (form-centred 0.5, "
    "L2-normalised), the best one-sense threshold for ARI is 0.08, and the settings whose induced senses "
    "explain the change best (JSD) are agglomerative (cosine, average) with k=10 and HDBSCAN (native). The "
    "SemEval halves that chose the default recipe (experiments/results/quality.md) veto a one-sense threshold "
    "in the default recipe (see the README, Sense quality). Read the held-out tables before trusting a dev "
    "choice: the halves have 23 words each, and a ranking of measures on one half need not hold on the other.",
    "RuSemShift needs the multilingual encoder over 15,696 uses; where its tables are missing below, it was "
    "not embedded in time (`--datasets rusemshift1,rusemshift2 --add` adds them).",
]


def _table(rows: dict[str, dict[str, float]], columns: Sequence[str], first: str) -> list[str]:
    lines = [f"| {first} | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    lines += [f"| {name} | " + " | ".join(_cell(row.get(c)) for c in columns) + " |" for name, row in rows.items()]
    return lines


def markdown(results: dict[str, Any]) -> str:
    """The results file: per dataset and part, the settings' sense figures and the vector measures."""
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
        *CHOICES,
        "",
        *PUBLISHED,
        "",
    ]
    for name, data in results["datasets"].items():
        for part in ("dev", "held_out", "all"):
            rows = {s: v[part] for s, v in data["settings"].items() if part in v}
            if not rows:
                continue
            role = {"dev": "chosen on", "held_out": "held out", "all": "all words"}[part]
            if name != DEV_DATASET:
                role = "held out"
            count = data.get("parts", {}).get(part, data["words"])
            lines += [f"## {name} — {part} ({role}; gold: {data['gold']}, {count} words)", ""]
            columns = [c for c in SENSE_COLUMNS if any(c in row for row in rows.values())]
            lines += _table(rows, columns, "senses")
            default = rows.get("default", {})
            variants = {v: {m: default.get(f"rho_{m}_{v}") for m in ("apd", "prt")} for v in VECTOR_VARIANTS}
            if any(value is not None for row in variants.values() for value in row.values()):
                lines += ["", *_table(variants, ("apd", "prt"), "vectors (ρ)")]
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
