"""Does `wsd tune` make an encoder that tells senses apart, on words and datasets it never saw? (issue 23)

Run from the repository root::

    python -m experiments.tune [--cells dwug_kfold,semeval_unseen] [--folds 4] [--steps 300] \\
        [--work DIR] [--data-dir DIR] [--seed 0] [--markdown-only]

Cells (each resumable: a model folder resumes from its checkpoint, a finished cell's figures are kept in
``WORK/<cell>.json`` and not recomputed):

``dwug_kfold``
    DWUG EN's 46 words are split into ``--folds`` lemma folds (a seeded shuffle). For each fold the bundled
    MiniLM is tuned with :func:`wsd.tune.tune_encoder` on the judged pairs of the other folds' words
    (``wug:`` source; the fold's lemmas excluded with ``exclude_lemmas``), then the fold's uses are embedded
    with the tuned model by the default embedding recipe, and each word gets its change scores (PRT, the
    default change score, and APD, between the two periods), the JSD of its induced senses (default sense
    recipe) and the ARI of those senses against the gold clusters. The figures of all folds are pooled and
    Spearman ρ against ``change_graded`` is computed once over all 46 words — every word scored by a model
    that never saw it. The untuned bundled model is scored the same way, side by side, with a word-bootstrap
    95% interval of the difference.
``dwug_kfold_wordnet``
    As ``dwug_kfold``, each fold's model tuned on the other folds' judged pairs plus the WordNet 3.0 example
    pairs (the fold's lemmas excluded from both): the issue's protocol, the other folds plus the other sources.
``dwug_wordnet_only``
    One model tuned on the WordNet 3.0 example pairs alone, every DWUG EN lemma excluded, scores all 46 words.
``dwug_wordnet_only_mpnet``
    ``dwug_wordnet_only`` with all-mpnet-base-v2 (``--mpnet-model``) as the base encoder, beside itself untuned.
``dwug_wordnet_distill`` / ``semeval_distill``
    ``dwug_wordnet_only`` / the SemEval cell with every training pair labelled by untuned all-mpnet-base-v2's
    cosine of its two uses (``--teacher``): the bundled MiniLM taught by the larger encoder.
``dwug_sotu_distill``
    The bundled MiniLM taught by untuned all-mpnet-base-v2 (``--teacher``) on unlabelled uses of running text
    (``uses:FILE``): the State of the Union corpus (``../shared/corpora/sotu.jsonl.gz``, American English
    1790–2026, nearer DWUG's contexts than WordNet's short examples), :data:`SOTU_LEMMAS` lemmas drawn among the
    WordNet nouns and verbs of at least :data:`SOTU_MIN_SENSES` senses found :data:`SOTU_MIN_USES` times or more
    (every DWUG EN lemma excluded), each lemma's uses paired completely; :data:`SOTU_STEPS` steps. It scores all
    46 words as ``dwug_wordnet_only`` does. ``dwug_sotu_distill_seed1``: the same with training seed 1.
    ``dwug_sotu_distill_tuned_teacher``: the same taught by the ``dwug_wordnet_only_mpnet`` model (MPNet tuned
    on WordNet, no DWUG lemma), built first when absent (``..._seed1``: training seed 1).
    ``dwug_wordnet_sotu_distill``: WordNet's human labels and the teacher's SOTU labels side by side
    (``--teacher-labels unlabelled``; ``..._seed1``: training seed 1). ``semeval_sotu_distill``: the SOTU
    distillation with every SemEval lemma excluded, scored on both SemEval tasks beside the WordNet rows.
``dwug_sense_keys``
    ``dwug_wordnet_only`` with the SemEval-2010 and SemEval-2013 keys added as sources (``semeval2010:``,
    ``semeval2013:``): human sense labels on running text beside WordNet's short examples, every DWUG EN lemma
    excluded from all three.
``wug_multilingual``
    The multilingual encoder (``--multilingual-model``, multilingual-e5-small from
    ``../shared/models/get-multilingual-e5.sh``) tuned on the other WUG sets and scored on the held-out ones:
    NorDiaChange 1 and 2 by a model tuned on DWUG EN and RuSemShift 1 and 2, RuSemShift 1 and 2 by a model tuned
    on DWUG EN and NorDiaChange 1 and 2 (the scored sets' lemmas excluded as well, so no lemma spelt alike leaks).
    Each word gets the same figures as in ``dwug_kfold``, beside the untuned multilingual encoder, with ρ over
    all words of each scored set. ``wug_multilingual_more``: the same plus WordNet's English example pairs (both
    groups) and RUSSE-2018's Russian contexts (the Russian group), the scored sets' lemmas excluded from all
    (``wug_multilingual_more_seed1``, ``_seed2``: training seeds 1 and 2).
``semeval_unseen``
    The bundled MiniLM tuned on the WordNet 3.0 examples (``wordnet:``) with every SemEval-2013 and
    SemEval-2010 lemma excluded, then ``wsd evaluate`` (the default recipe) on SemEval-2013 and SemEval-2010,
    beside the untuned model evaluated by the same command. ``training_overlap`` in the metrics is checked
    to be empty.
``semeval_unseen_mpnet``
    The same with all-mpnet-base-v2 (``--mpnet-model``, from ``../shared/models/get-mpnet.sh``) as the base,
    scored on SemEval-2013 beside itself untuned. ``semeval_unseen_mpnet_seed1``: the same with training seed 1
    (how far the seed alone moves MPNet's SemEval-2013 AVG against issue 23's 38).
``semeval_frozen``
    The ``semeval_unseen`` training with the embeddings and the lowest N layers frozen
    (``--freeze-layers N``, N in :data:`FROZEN_LAYERS`, 0 the cell's own run), each scored on SemEval-2010
    and SemEval-2013 beside the untuned model. N is chosen on SemEval-2010 (the best AVG) and quoted on
    SemEval-2013, a task whose figures played no part in the choice.
``dwug_seeds``
    ``dwug_wordnet_only`` trained with each seed of :data:`SEEDS`, every model scoring all 46 words.
``semeval_seeds``
    The ``semeval_unseen`` training with the seeds of :data:`SEEDS`, each scored on both SemEval tasks: the
    spread one training seed gives, against which the other cells' one-seed differences are read.
``semeval_sources``
    The ``semeval_unseen`` training on WordNet plus the SemEval-2010 keys (SemEval-2013's lemmas excluded from
    both), against WordNet alone, scored on SemEval-2013 (its SemEval-2010 row is of a task it trained on).
``dwug_wic`` / ``semeval_wic``
    Word-in-Context pairs (issue 40): the ``dwug_wordnet_only`` / ``semeval_unseen`` training, its steps and
    options unchanged, on the WordNet 3.0 example pairs plus WiC's training pairs and MCL-WiC's English training
    pairs (``wic:``, :data:`WIC_SOURCES`; no dev or test file is read), every DWUG EN lemma / every SemEval-2013
    and SemEval-2010 lemma excluded from all three, so only the sources differ. ``dwug_wic`` scores all 46 words
    as ``dwug_wordnet_only`` does; ``semeval_wic`` scores both SemEval tasks (neither seen) beside the WordNet-only
    model and the untuned one, as ``semeval_sources`` does, and a third row trained on the two Word-in-Context
    files alone. ``dwug_wic_only``: ``dwug_wic`` without WordNet (in 300 steps WordNet's 248,670 pairs would
    leave the 13,201 Word-in-Context pairs about a sixth of the uses). All fixed before any figure of any.
``dwug_halves_wic``
    Issue 40's DWUG protocol with the Word-in-Context files (run with ``--folds 2``: the issue's two halves): each
    half's words are scored by a MiniLM tuned on the other half's judged pairs plus WiC's and MCL-WiC en-en's
    training pairs (:data:`WIC_SOURCES`), the half's lemmas excluded from all three, for one uncapped epoch of
    them (``sense-minilm``'s length rule; its sources alone, never a DWUG judgment, gave ρ PRT 0.542). Added
    after that figure and before any figure of this cell; settings fixed here.
``dwug_soups`` / ``semeval_soups``
    Averages of the seed models of ``dwug_seeds`` / ``semeval_seeds``, no training
    (:func:`wsd.tune.averaging.average_encoders`): the uniform soup of the three seeds, and WiSE-FT's
    interpolation ``0.5·untuned + 0.5·seed 0`` (both fixed before any figure, :data:`SOUPS`), scored as their
    seed cells score, beside the seeds and the untuned model.
``semeval_context``
    The ``semeval_unseen`` training of the vector inference uses: the target vector with the default recipe's
    context vector beside it (``--context-vector 20:last:0.5``), against the target vector alone (the cell's own
    run), each scored on both SemEval tasks beside the untuned model; fixed before any figure.

Nothing here was chosen on the data it is scored on: the training settings (``--steps``, the learning rate
and CoSENT/contrastive losses of :class:`wsd.tune.TuneOptions`) are the defaults fixed before any figure,
from the probe in ../shared/TUNING-NOTES.md. Results: ``experiments/results/tune/tune.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from experiments.common import (
    BENCHMARKS,
    DEFAULT_DATA_DIR,
    command_line,
    log,
    results_dir,
    rewrite_page,
    run_wsd,
    save_page,
)

CELLS = (
    "dwug_kfold",
    "dwug_kfold_epoch",
    "dwug_kfold_wordnet",
    "dwug_wordnet_only",
    "dwug_wordnet_only_context",
    "dwug_wordnet_only_mpnet",
    "dwug_wordnet_distill",
    "dwug_wordnet_distill_long",
    "dwug_wordnet_distill_long_seed1",
    "dwug_sotu_distill",
    "dwug_sotu_distill_seed1",
    "dwug_sotu_distill_tuned_teacher",
    "dwug_sotu_distill_tuned_teacher_seed1",
    "dwug_wordnet_sotu_distill",
    "dwug_wordnet_sotu_distill_seed1",
    "dwug_sense_keys",
    "dwug_wic",
    "dwug_wic_only",
    "dwug_halves_wic",
    "semeval_unseen",
    "semeval_distill",
    "semeval_sotu_distill",
    "semeval_unseen_long",
    "semeval_unseen_mpnet",
    "semeval_unseen_mpnet_seed1",
    "semeval_ablations",
    "semeval_frozen",
    "semeval_context",
    "semeval_sources",
    "semeval_wic",
    "semeval_seeds",
    "dwug_seeds",
    "semeval_soups",
    "dwug_soups",
    "wug_multilingual",
    "wug_multilingual_more",
    "wug_multilingual_more_seed1",
    "wug_multilingual_more_seed2",
)
DWUG = "lscd/dwug_en"
WORDNET = "wordnet-3.0"
RUSSE = "russe2018-wsi"
SEMEVAL = {"semeval2013": "semeval2013-task13", "semeval2010": "semeval2010-task14"}
N_BOOTSTRAP = 1000
#: The change scores whose ρ is reported: PRT (the default change score) and APD of the default vectors, the same
#: of their target half alone (what training shapes; the context half is the sentence's), and the JSD of the
#: induced senses.
MEASURES = ("prt", "apd", "prt_target", "apd_target", "jsd")
MEASURE_NAMES = {
    "prt": "PRT",
    "apd": "APD",
    "prt_target": "PRT, target half",
    "apd_target": "APD, target half",
    "jsd": "JSD",
}
#: The multilingual cell: which WUG sets (names of :data:`experiments.lscd.DATASETS`) each model is scored on,
#: and which it is tuned on (the other WUG sets).
MULTILINGUAL: dict[str, dict[str, tuple[str, ...]]] = {
    "norwegian": {"score": ("nordiachange1", "nordiachange2"), "train": ("dwug_en", "rusemshift1", "rusemshift2")},
    "russian": {"score": ("rusemshift1", "rusemshift2"), "train": ("dwug_en", "nordiachange1", "nordiachange2")},
}
#: The ``wug_multilingual_more`` cell (fixed before any figure of it): the same WUG sets plus the sense-labelled
#: sources (``extra``): WordNet's English example pairs for both groups, RUSSE-2018's Russian contexts for the
#: Russian one; every lemma of the scored sets excluded from all of them.
MULTILINGUAL_MORE: dict[str, dict[str, tuple[str, ...]]] = {
    "norwegian": MULTILINGUAL["norwegian"] | {"extra": ("wordnet",)},
    "russian": MULTILINGUAL["russian"] | {"extra": ("wordnet", "russe2018")},
}
#: The training seed of a multilingual cell that does not train with ``--seed`` (the bootstrap keeps ``--seed``).
MULTILINGUAL_SEEDS = {"wug_multilingual_more_seed1": 1, "wug_multilingual_more_seed2": 2}
#: The multilingual cells: their plans, model folders' prefix, and the page's title and paragraph.
MULTILINGUAL_CELLS: dict[str, tuple[dict[str, dict[str, tuple[str, ...]]], str, str, str]] = {
    "wug_multilingual": (
        MULTILINGUAL,
        "multilingual",
        "the multilingual encoder tuned on the other WUG sets",
        "Each set is scored by a model tuned only on the other languages' WUG sets (its own lemmas excluded)",
    ),
    "wug_multilingual_more": (
        MULTILINGUAL_MORE,
        "multilingual-more",
        "the multilingual encoder tuned on the other WUG sets, WordNet and RUSSE-2018",
        "Each set is scored by a model tuned on the other languages' WUG sets plus WordNet's English example "
        "pairs, and for RuSemShift RUSSE-2018's Russian sense-labelled contexts (its own lemmas excluded from "
        "all; added after the `wug_multilingual` figures, fixed before any figure of it)",
    ),
    "wug_multilingual_more_seed1": (
        MULTILINGUAL_MORE,
        "multilingual-more-seed1",
        "the multilingual encoder tuned on the other WUG sets, WordNet and RUSSE-2018; training seed 1",
        "As the cell above with training seed 1 (added after its figures, to see whether its gains, RuSemShift 1's "
        "above all, hold for another seed; fixed before any figure of it)",
    ),
    "wug_multilingual_more_seed2": (
        MULTILINGUAL_MORE,
        "multilingual-more-seed2",
        "the multilingual encoder tuned on the other WUG sets, WordNet and RUSSE-2018; training seed 2",
        "As the cell above with training seed 2 (added after seeds 0 and 1, to say whether NorDiaChange 2's gain of "
        "about 0.05 and RuSemShift 1's of about 0.14 hold for a third seed; fixed before any figure of it)",
    ),
}
#: Issue 23's targets (for the verdict column of the results page).
TARGETS = {"rho_prt": 0.55, "rho_jsd": 0.45, "ari_over_one_sense": 0.05, "semeval2013": 0.34}


# ------------------------------------------------------------------------------------------ training
def tune(
    out: Path,
    train: Sequence[str],
    *,
    steps: int | None,
    seed: int,
    options: dict[str, Any] | None = None,
    **selection: Any,
) -> dict[str, Any]:
    """Tune the bundled MiniLM into ``out`` (resumed when a checkpoint is there) and return its facts.

    ``options`` change :class:`wsd.tune.TuneOptions` beyond the steps and seed (no validation split unless they
    ask for one). A finished model folder of the same configuration is not trained again (its ``wsd_tune.json``
    is read).
    """
    from wsd.tune import TuneOptions, tune_encoder

    facts_file = out / "wsd_tune.json"
    if facts_file.is_file():
        return json.loads(facts_file.read_text(encoding="utf-8"))
    # options may set another seed or length
    settings = {"validation_fraction": 0.0, "seed": seed, "max_steps": steps} | dict(options or {})
    chosen = TuneOptions(progress=sys.stderr.isatty(), **settings)
    started = time.perf_counter()
    result = tune_encoder(list(train), out, options=chosen, **selection)
    log(f"tuned {out.name}: {result.facts['training']['steps']} steps in {time.perf_counter() - started:.0f} s")
    return result.facts


def training_summary(facts: dict[str, Any]) -> dict[str, Any]:
    """What the results page says about one training run."""
    training = facts["training"]
    return {
        "steps": training["steps"],
        "seconds": training["seconds"],
        "final_loss": training["final_loss"],
        "precision": training["precision"],
        "machine": training["machine"],
        "pairs": facts["config"]["pairs"],
        "training_lemmas": len(facts["training_lemmas"]),
        "validation_lemmas": len(facts["validation_lemmas"]),
        "best_step": training["best_step"],
        "stopped_early": training["stopped_early"],
        "validation": [
            {"step": row["step"], "score": row.get("score")} for row in facts.get("validation", {}).get("history", [])
        ],
        "excluded_lemmas": len(facts["excluded_lemmas"]),
        "arithmetic": training.get("arithmetic"),
    }


# ------------------------------------------------------------------------------------------ DWUG EN
def lemma_folds(words: Sequence[str], folds: int, seed: int) -> list[list[str]]:
    """``folds`` disjoint groups of words (a seeded shuffle, sizes differing by at most one)."""
    order = np.random.default_rng(seed).permutation(sorted(words))
    return [sorted(str(w) for w in order[i::folds]) for i in range(folds)]


def word_figures(
    bundle: Any,
    words: Sequence[str],
    model: str | None,
    context_weight: float | None = None,
    inducer: dict[str, Any] | None = None,
) -> dict[str, dict[str, float]]:
    """Per word: PRT and APD of its default vectors between the periods, JSD and ARI of its induced senses.

    The uses of ``words`` are embedded with ``model`` (``None``: the bundled MiniLM) by the default recipe;
    ``context_weight`` reweights the context half of the vectors and ``inducer`` replaces parameters of the
    default sense recipe (both: another recipe for the same vectors).
    """
    from threadpoolctl import threadpool_limits

    from experiments.lscd import Setting, embed, vector_scores, word_result
    from wsd.evaluate.datasets.wug import period_of
    from wsd.senses.recipes import recipe

    occurrences = bundle.occurrences
    keep = occurrences["target"].isin(list(words)).to_numpy()
    part = dataclasses.replace(bundle, occurrences=occurrences.loc[keep].reset_index(drop=True))
    (vectors,), _ = embed(part, model)
    if context_weight is not None:
        from experiments.common import context_reweighted
        from wsd.embed.context import parse_context
        from wsd.senses.recipes import DEFAULT_EMBEDDING

        stored = parse_context(DEFAULT_EMBEDDING["context_vector"])
        assert stored is not None, "the default embedding has a context vector"
        vectors = context_reweighted(vectors, context_weight, stored.weight)
    table = part.occurrences
    periods = period_of(table)
    forms = table["form"].to_numpy()
    # a set without gold clusters (RuSemShift) has no sense column: every use unclustered, ARI not measured
    senses = (table["sense"].fillna("") if "sense" in table else pd.Series([""] * len(table))).astype(str).to_numpy()
    default = Setting("default", recipe("default") | (inducer or {}))
    one = Setting("one sense", {"method": "one-sense"})
    figures: dict[str, dict[str, float]] = {}
    with threadpool_limits(limits=1):
        for word in words:
            rows = np.flatnonzero(table["target"].to_numpy() == word)
            X = vectors[rows].astype(np.float64)
            induced = word_result(default, X, forms[rows], periods[rows], senses[rows], None)
            single = word_result(one, X, forms[rows], periods[rows], senses[rows], None)
            scores = vector_scores(X, forms[rows], periods[rows])
            figures[word] = {
                "prt": scores["prt_default"],
                "apd": scores["apd_default"],
                "prt_target": scores["prt_target"],
                "apd_target": scores["apd_target"],
                "jsd": induced.scores["jsd"],
                "ari": induced.ari,
                "ari_one_sense": single.ari,
                "n_clustered": induced.n_clustered,
                "n_senses": induced.n_senses,
            }
    return figures


def _rho(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman ρ (NaN when a side is constant)."""
    from scipy.stats import spearmanr

    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return math.nan
    return float(spearmanr(x, y).statistic)


def pooled(figures: dict[str, dict[str, float]], gold: dict[str, float]) -> dict[str, float]:
    """ρ of PRT, APD and JSD against the gold over all words, and the clustered-use-weighted ARIs."""
    words = sorted(gold)
    y = np.array([gold[w] for w in words])
    weights = np.array([figures[w]["n_clustered"] for w in words], dtype=float)
    summary = {f"rho_{m}": _rho(np.array([figures[w][m] for w in words]), y) for m in MEASURES}
    for name in ("ari", "ari_one_sense"):
        values = np.array([figures[w][name] if figures[w]["n_clustered"] else 0.0 for w in words])
        summary[name] = float((values * weights).sum() / weights.sum()) if weights.sum() else math.nan
    summary["mean_senses"] = float(np.mean([figures[w]["n_senses"] for w in words]))
    return summary


def bootstrap_difference(
    tuned: dict[str, dict[str, float]], base: dict[str, dict[str, float]], gold: dict[str, float], seed: int
) -> dict[str, list[float]]:
    """Word-bootstrap 95% intervals of each ρ (tuned, untuned) and of their difference."""
    words = np.array(sorted(gold))
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = {}
    for _ in range(N_BOOTSTRAP):
        sample = rng.choice(words, size=len(words), replace=True)
        y = np.array([gold[w] for w in sample])
        for measure in MEASURES:
            a = _rho(np.array([tuned[w][measure] for w in sample]), y)
            b = _rho(np.array([base[w][measure] for w in sample]), y)
            draws.setdefault(f"rho_{measure}", []).append(a)
            draws.setdefault(f"rho_{measure}_untuned", []).append(b)
            draws.setdefault(f"rho_{measure}_difference", []).append(a - b)
    return {key: [float(np.nanpercentile(v, 2.5)), float(np.nanpercentile(v, 97.5))] for key, v in draws.items()}


def _semeval_avg(frame: pd.DataFrame, dataset: str, rows: np.ndarray) -> np.ndarray:
    """SemEval AVG of resampled target sets (``rows``: one row of target positions per resample), as the scorers
    pool their targets: 2013 averages FNMI and B-cubed P and R over targets, 2010 weights paired F and V-measure
    by the targets' instances; AVG is the geometric mean of the two."""
    if dataset == "semeval2013":
        fnmi, precision, recall = (frame[name].to_numpy()[rows].mean(axis=1) for name in ("fnmi", "fbc_p", "fbc_r"))
        f_score = np.divide(2 * precision * recall, precision + recall, out=np.zeros_like(precision),
                            where=(precision + recall) > 0)  # fmt: skip
        return np.sqrt(fnmi * f_score)
    weights = frame["n_instances"].to_numpy()[rows]
    paired_f, v_measure = (
        (frame[name].to_numpy()[rows] * weights).sum(axis=1) / weights.sum(axis=1) for name in ("paired_f", "v_measure")
    )
    return np.sqrt(paired_f * v_measure)


def semeval_interval(work: Path, tuned: str, untuned: str, dataset: str, seed: int) -> list[float]:
    """The target-bootstrap 95% interval of SemEval AVG, tuned − untuned (×100; paired resamples of the targets).

    Reads the ``per_target.csv`` of the two ``wsd evaluate`` runs that ``measures`` left in ``work``.
    """
    return semeval_folders_interval(work / f"eval-{dataset}-{tuned}", work / f"eval-{dataset}-{untuned}", dataset, seed)


def semeval_folders_interval(tuned: Path, untuned: Path, dataset: str, seed: int) -> list[float]:
    """:func:`semeval_interval` of two ``wsd evaluate`` output folders wherever they lie."""
    frames = [pd.read_csv(folder / "per_target.csv").set_index("target") for folder in (tuned, untuned)]
    targets = frames[0].index.intersection(frames[1].index)
    one, two = (frame.loc[targets].reset_index() for frame in frames)
    rows = np.random.default_rng(seed).integers(0, len(targets), size=(N_BOOTSTRAP, len(targets)))
    difference = 100 * (_semeval_avg(one, dataset, rows) - _semeval_avg(two, dataset, rows))
    return [float(np.percentile(difference, 2.5)), float(np.percentile(difference, 97.5))]


#: The length of the longer distillation runs (five times the experiments' 300 steps; fixed before any figure).
DISTILL_LONG_STEPS = 1500

#: The SOTU distillation cell (fixed before any figure of it): how its lemmas are chosen and how long it trains
#: (600 steps: what one session's time allows beside its scoring).
SOTU_CORPUS = Path("corpora") / "sotu.jsonl.gz"
SOTU_LEMMAS = 500
SOTU_MIN_USES = 45
SOTU_MIN_SENSES = 3
SOTU_STEPS = 600
SOTU_FILE = "sotu-uses.tsv"

#: The Word-in-Context training files of the ``dwug_wic`` and ``semeval_wic`` cells, under ``--data-dir`` (fixed
#: before any figure of them): WiC's training set and MCL-WiC's English (en-en) training set, read by ``wic:``.
#: Their dev and test files are never read.
WIC_SOURCES = {
    "wic": Path("wic") / "train" / "train.data.txt",
    "mcl_wic_en": Path("mcl-wic") / "training" / "training.en-en.data",
}

#: The whole-epoch DWUG cell: every fold trained for one full epoch of its judged pairs (no step cap), 48 uses a
#: step (one epoch of three folds' pairs is about 490 steps of 48 uses, or 1,340 of 24). Fixed before any figure.
EPOCH_RUN = {"batch_uses": 48}


@dataclasses.dataclass(frozen=True)
class DwugVariant:
    """How one DWUG EN cell trains: its sources, its model folders, and whether it runs one model or K folds."""

    folder: str
    sources: tuple[str, ...]
    about: str
    options: dict[str, Any] | None = None
    capped: bool = True
    one_model: bool = False
    label: str = ""
    mpnet: bool = False
    mpnet_teacher: bool = False
    teacher_cell: str = ""


DWUG_VARIANTS = {
    "dwug_kfold": DwugVariant(
        "dwug-fold", ("wug",), "Each fold's words are scored by a MiniLM tuned on the other folds' judged pairs only"
    ),
    "dwug_kfold_epoch": DwugVariant(
        "dwug-epoch-fold",
        ("wug",),
        "Each fold's words are scored by a MiniLM tuned on the other folds' judged pairs only",
        options=EPOCH_RUN,
        capped=False,
    ),
    "dwug_kfold_wordnet": DwugVariant(
        "dwug-wordnet-fold",
        ("wug", "wordnet"),
        "Each fold's words are scored by a MiniLM tuned on the other folds' judged pairs plus the WordNet 3.0 "
        "example pairs, the fold's lemmas excluded from both (the issue's protocol: the other folds plus the "
        "other sources). This cell and the next were added after a pair-level look at DWUG EN judgments; their "
        "training settings are the SemEval cell's, fixed before",
    ),
    "dwug_wordnet_only": DwugVariant(
        "dwug-wordnet-only",
        ("wordnet",),
        "Every word is scored by one MiniLM tuned on the WordNet 3.0 example pairs alone, all DWUG EN lemmas "
        "excluded: no DWUG judgment and no DWUG lemma in its training (the SemEval cell's training, fixed before; "
        "the cell was added after a pair-level look at DWUG EN judgments)",
        one_model=True,
    ),
    "dwug_wordnet_only_context": DwugVariant(
        "dwug-wordnet-only-context",
        ("wordnet",),
        "Every word is scored by one MiniLM tuned on the WordNet 3.0 example pairs alone, all DWUG EN lemmas "
        "excluded, training the vector inference uses: the target with the default recipe's context vector "
        "(`--context-vector 20:last:0.5`; the cell above trains the target vector alone; fixed before any DWUG "
        "figure of it)",
        options={"context_vector": "20:last:0.5"},
        one_model=True,
        label="the target + context vector trained",
    ),
    "dwug_wordnet_only_mpnet": DwugVariant(
        "mpnet-dwug-wordnet-only",
        ("wordnet",),
        "Every word is scored by all-mpnet-base-v2 tuned on the WordNet 3.0 example pairs alone, all DWUG EN "
        "lemmas excluded (the `dwug_wordnet_only` training with the larger base encoder: 12 layers of 768 against "
        "MiniLM's 6 of 384; fixed before any DWUG figure of it)",
        one_model=True,
        label="all-mpnet-base-v2",
        mpnet=True,
    ),
    "dwug_wordnet_distill": DwugVariant(
        "dwug-wordnet-only-distill",
        ("wordnet",),
        "Every word is scored by one MiniLM tuned on the uses and pairs of the WordNet 3.0 examples, all DWUG EN "
        "lemmas excluded, each pair labelled not by WordNet but by untuned all-mpnet-base-v2's cosine of its two uses "
        "(`--teacher`, CoSENT; the `dwug_wordnet_only` training otherwise). The cell was added after the untuned "
        "MPNet's DWUG figures (the cell above) were seen; its settings are the defaults, fixed before any figure of it",
        one_model=True,
        label="distilled from all-mpnet-base-v2",
        mpnet_teacher=True,
    ),
    "dwug_wordnet_distill_long": DwugVariant(
        "dwug-wordnet-only-distill-long",
        ("wordnet",),
        "As the cell above, trained five times as long (the length fixed before any figure of it, the one longer "
        "run tried: a teacher's soft labels may take more steps to carry over than WordNet's binary ones)",
        options={"max_steps": DISTILL_LONG_STEPS},
        one_model=True,
        label="distilled from all-mpnet-base-v2",
        mpnet_teacher=True,
    ),
    "dwug_wordnet_distill_long_seed1": DwugVariant(
        "dwug-wordnet-only-distill-long-seed1",
        ("wordnet",),
        "As the cell above with training seed 1 (added after its figures, to see whether its ARI holds for another "
        "seed: the ARI of the WordNet-label models moved by 2.2 points across seeds)",
        options={"max_steps": DISTILL_LONG_STEPS, "seed": 1},
        one_model=True,
        label="distilled from all-mpnet-base-v2; training seed 1",
        mpnet_teacher=True,
    ),
    "dwug_sotu_distill": DwugVariant(
        "dwug-sotu-distill",
        ("sotu",),
        f"Every word is scored by one MiniLM taught by untuned all-mpnet-base-v2 (`--teacher`, CoSENT on its "
        f"cosines) on unlabelled uses of the State of the Union corpus (`uses:FILE`): {SOTU_LEMMAS} lemmas drawn "
        f"(seed 0) among the WordNet nouns and verbs of at least {SOTU_MIN_SENSES} senses that occur at least "
        f"{SOTU_MIN_USES} times in it, every DWUG EN lemma excluded, {SOTU_MIN_USES} uses of each paired "
        f"completely; {SOTU_STEPS} steps. Running text of American English 1790–2026 is nearer DWUG's contexts "
        "than WordNet's short examples; the cell was added after the WordNet distillation's figures, its "
        "settings fixed before any figure of it",
        options={"max_steps": SOTU_STEPS},
        one_model=True,
        label="distilled from all-mpnet-base-v2",
        mpnet_teacher=True,
    ),
    "dwug_sotu_distill_seed1": DwugVariant(
        "dwug-sotu-distill-seed1",
        ("sotu",),
        "As the cell above with training seed 1, which also draws each lemma's uses from the same file (fixed with "
        "the cell above, before any figure of either: one seed's ARI proved luck before)",
        options={"max_steps": SOTU_STEPS, "seed": 1},
        one_model=True,
        label="distilled from all-mpnet-base-v2; training seed 1",
        mpnet_teacher=True,
    ),
    "dwug_sotu_distill_tuned_teacher": DwugVariant(
        "dwug-sotu-distill-tuned-teacher",
        ("sotu",),
        "As `dwug_sotu_distill`, the teacher being all-mpnet-base-v2 tuned on WordNet (the `dwug_wordnet_only_mpnet` "
        "model, every DWUG EN lemma excluded from its training too, built first when absent), the best DWUG EN "
        "encoder we have. Added after the untuned teacher's SOTU figures, to see whether a better teacher makes a "
        "better student; settings fixed before any figure of it",
        options={"max_steps": SOTU_STEPS},
        one_model=True,
        label="distilled from all-mpnet-base-v2 tuned on WordNet",
        teacher_cell="dwug_wordnet_only_mpnet",
    ),
    "dwug_sotu_distill_tuned_teacher_seed1": DwugVariant(
        "dwug-sotu-distill-tuned-teacher-seed1",
        ("sotu",),
        "As the cell above with training seed 1 (added after its figures, to see whether its change ranking holds "
        "for another seed; fixed before any figure of it)",
        options={"max_steps": SOTU_STEPS, "seed": 1},
        one_model=True,
        label="distilled from all-mpnet-base-v2 tuned on WordNet; training seed 1",
        teacher_cell="dwug_wordnet_only_mpnet",
    ),
    "dwug_wordnet_sotu_distill": DwugVariant(
        "dwug-wordnet-sotu-distill",
        ("wordnet", "sotu"),
        "Every word is scored by one MiniLM trained on WordNet's human labels and untuned all-mpnet-base-v2's "
        "cosines side by side (`--teacher-labels unlabelled`: the teacher labels only the unlabelled State of the "
        "Union pairs of `dwug_sotu_distill`; WordNet's example pairs keep their binary labels, as in "
        f"`dwug_wordnet_only`), every DWUG EN lemma excluded; {SOTU_STEPS + SOTU_STEPS} steps, about half of "
        "them the teacher's (an epoch plans 3,922 batches of SOTU pairs and 3,754 of WordNet pairs), so as many "
        "taught steps as `dwug_sotu_distill`. Added to join the WordNet model's senses (ρ JSD 0.434) with the "
        "SOTU students' change ranking; settings fixed before any figure of it",
        options={"max_steps": SOTU_STEPS + SOTU_STEPS, "teacher_labels": "unlabelled"},
        one_model=True,
        label="WordNet labels and the SOTU uses distilled from all-mpnet-base-v2",
        mpnet_teacher=True,
    ),
    "dwug_wordnet_sotu_distill_seed1": DwugVariant(
        "dwug-wordnet-sotu-distill-seed1",
        ("wordnet", "sotu"),
        "As the cell above with training seed 1 (added after its figures, to see whether its change ranking and its "
        "fall in ARI hold for another seed; fixed before any figure of it)",
        options={"max_steps": SOTU_STEPS + SOTU_STEPS, "teacher_labels": "unlabelled", "seed": 1},
        one_model=True,
        label="WordNet labels and the SOTU uses distilled from all-mpnet-base-v2; training seed 1",
        mpnet_teacher=True,
    ),
    "dwug_sense_keys": DwugVariant(
        "dwug-sense-keys",
        ("wordnet", "semeval2010", "semeval2013"),
        "Every word is scored by one MiniLM tuned on the WordNet 3.0 example pairs and the pairs of the SemEval-2010 "
        "and SemEval-2013 keys (uses of one lemma in running text, same or different gold sense), every DWUG EN "
        "lemma excluded from all three (the `dwug_wordnet_only` training otherwise: 300 steps, contrastive). Added "
        "after the SOTU students showed that running text moves DWUG EN's ranking more than WordNet's short "
        "examples: the keys are human sense labels on running text; settings fixed before any figure of it",
        one_model=True,
        label="WordNet and the SemEval keys",
    ),
    "dwug_wic": DwugVariant(
        "dwug-wordnet-wic",
        ("wordnet", *WIC_SOURCES),
        "Every word is scored by one MiniLM tuned on the WordNet 3.0 example pairs, WiC's training pairs and "
        "MCL-WiC's English training pairs (`wic:`: two uses of one lemma in running sentences, same meaning or "
        "not), every DWUG EN lemma excluded from all three (the `dwug_wordnet_only` training otherwise: 300 steps, "
        "contrastive; only the sources differ, so read it against that cell and the seed spread of `dwug_seeds`). "
        "Added for issue 40 (XL-LEXEME, tuned on WiC, XL-WiC and MCL-WiC, is reported at APD ρ 0.886 on these "
        "words); settings fixed before any figure of it",
        one_model=True,
        label="WordNet and the Word-in-Context pairs",
    ),
    "dwug_wic_only": DwugVariant(
        "dwug-wic-only",
        tuple(WIC_SOURCES),
        "Every word is scored by one MiniLM tuned on WiC's training pairs and MCL-WiC's English training pairs "
        "alone (`wic:`), every DWUG EN lemma excluded (the `dwug_wic` training without WordNet, whose 248,670 pairs "
        "would leave the 13,201 Word-in-Context pairs about a sixth of the uses of 300 steps). Added for issue 40 "
        "beside `dwug_wic`, settings fixed before any figure of either",
        one_model=True,
        label="the Word-in-Context pairs alone",
    ),
    "dwug_halves_wic": DwugVariant(
        "dwug-halves-wic",
        ("wug", *WIC_SOURCES),
        "Each half's words are scored by a MiniLM tuned on the other half's judged pairs plus WiC's and MCL-WiC's "
        "English training pairs, the half's lemmas excluded from all three, one uncapped epoch (issue 40's "
        "protocol with the Word-in-Context files; added after `sense-minilm`'s DWUG figure, settings fixed before "
        "any figure of it)",
        capped=False,
        label="the other half's judgments and the Word-in-Context pairs",
    ),
}


#: How the results page names the DWUG cells' training sources.
SOURCE_NAMES = {
    "wug": "DWUG EN judgments",
    "wordnet": "WordNet",
    "sotu": "unlabelled State of the Union uses",
    "semeval2010": "SemEval-2010 keys",
    "semeval2013": "SemEval-2013 keys",
    "wic": "WiC train",
    "mcl_wic_en": "MCL-WiC en-en training",
}


def source_specs(data_dir: Path) -> dict[str, str]:
    """The ``KIND:PATH`` spec of each labelled source a cell names (the SOTU uses are drawn: :func:`sotu_spec`)."""
    specs = {"wug": f"wug:{data_dir / DWUG}", "wordnet": f"wordnet:{data_dir / WORDNET}"}
    specs |= {name: f"{name}:{data_dir / path}" for name, path in SEMEVAL.items()}
    return specs | {name: f"wic:{data_dir / path}" for name, path in WIC_SOURCES.items()}


def polysemous_lemmas(wordnet: Path, min_senses: int) -> list[str]:
    """WordNet 3.0 nouns and verbs of ``min_senses`` senses or more (one POS's count), single lower-case words."""
    import re

    found: set[str] = set()
    for pos in ("noun", "verb"):
        for line in (wordnet / f"index.{pos}").read_text(encoding="utf-8").splitlines():
            fields = line.split()
            if line.startswith(" ") or len(fields) < 3:  # the licence header lines start with a space
                continue
            if re.fullmatch(r"[a-z]{3,}", fields[0]) and int(fields[2]) >= min_senses:
                found.add(fields[0])
    return sorted(found)


def sotu_uses(work: Path, data_dir: Path, exclude: set[str], seed: int) -> Path:
    """The SOTU cell's file of unlabelled uses (generic format), written once into ``work``."""
    from wsd.corpus.scan import scan
    from wsd.evaluate.datasets.generic import write_generic
    from wsd.occurrences import REQUIRED_COLUMNS
    from wsd.tune.pairs import normalize_lemma

    path = work / SOTU_FILE
    if path.is_file():
        return path
    exclude = {normalize_lemma(lemma) for lemma in exclude}
    corpus = data_dir.parent / SOTU_CORPUS
    if not corpus.is_file():
        raise SystemExit(f"the State of the Union corpus {corpus} is absent")
    candidates = [lemma for lemma in polysemous_lemmas(data_dir / WORDNET, SOTU_MIN_SENSES) if lemma not in exclude]
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # likely proper names among thousands of targets
        found = scan(corpus, candidates, lemmatizer="simplemma")
    counts = found["target"].value_counts()
    eligible = sorted(t for t, n in counts.items() if n >= SOTU_MIN_USES and normalize_lemma(t) not in exclude)
    chosen = sorted(np.random.default_rng(seed).choice(eligible, min(SOTU_LEMMAS, len(eligible)), replace=False))
    table = found.loc[found["target"].isin(chosen), list(REQUIRED_COLUMNS)]
    log(
        f"SOTU uses: {len(candidates)} candidate lemmas, {len(eligible)} with {SOTU_MIN_USES}+ uses, {len(chosen)} "
        f"drawn, {len(table)} uses ({time.perf_counter() - started:.0f} s)"
    )
    partial = path.with_suffix(".partial.tsv")
    write_generic(table, partial)
    partial.replace(path)
    return path


def sotu_spec(work: Path, data_dir: Path, seed: int) -> str:
    """The ``uses:FILE`` source of the SOTU cells: :func:`sotu_uses`, every DWUG EN lemma excluded from its draw."""
    exclude = set() if (work / SOTU_FILE).is_file() else set(_dwug_gold(data_dir)[1])
    return f"uses:{sotu_uses(work, data_dir, exclude, seed)}"


def dwug_kfold(
    work: Path, data_dir: Path, folds: int, steps: int | None, seed: int, cell: str, mpnet: Path | None = None
) -> dict[str, Any]:
    """A DWUG EN cell (see the module docstring): tuned as :data:`DWUG_VARIANTS` says, each word scored unseen.

    A variant with ``mpnet`` set tunes and scores all-mpnet-base-v2 (the folder ``mpnet``) instead of the bundled
    MiniLM.
    """
    variant = DWUG_VARIANTS[cell]
    bundle, gold, gold_column = _dwug_gold(data_dir)
    groups = [sorted(gold)] if variant.one_model else lemma_folds(sorted(gold), folds, seed)
    spec = source_specs(data_dir)
    if "sotu" in variant.sources:
        spec["sotu"] = sotu_spec(work, data_dir, seed)
    sources = [spec[name] for name in variant.sources]
    model = None
    options = variant.options
    if (variant.mpnet or variant.mpnet_teacher) and (mpnet is None or not (mpnet / "config.json").is_file()):
        raise SystemExit(f"the MPNet encoder {mpnet} is absent (`bash ../shared/models/get-mpnet.sh DIR`)")
    if variant.mpnet:
        model, options = str(mpnet), (options or {}) | {"model": str(mpnet)}
    if variant.mpnet_teacher:
        options = (options or {}) | {"teacher": str(mpnet)}
    if variant.teacher_cell:  # a model of another cell teaches: built first (one model, never saw a DWUG lemma)
        teacher = work / DWUG_VARIANTS[variant.teacher_cell].folder
        if not (teacher / "config.json").is_file():
            dwug_kfold(work, data_dir, folds, steps, seed, variant.teacher_cell, mpnet)
        options = (options or {}) | {"teacher": str(teacher)}
    base = word_figures(bundle, sorted(gold), model)
    log(f"untuned: {json.dumps(pooled(base, gold))}")
    tuned: dict[str, dict[str, float]] = {}
    runs = []
    for number, held_out in enumerate(groups):
        fold_file = work / f"{cell}-fold{number}.json"
        folder = work / (variant.folder if variant.one_model else f"{variant.folder}{number}")
        if fold_file.is_file():
            done = json.loads(fold_file.read_text(encoding="utf-8"))
        else:
            facts = tune(
                folder,
                sources,
                steps=steps if variant.capped else None,
                seed=seed,
                options=options,
                exclude_lemmas=held_out,
            )
            done = {"words": held_out, "training": training_summary(facts)}
            done["figures"] = word_figures(bundle, held_out, str(folder))
            fold_file.write_text(json.dumps(done, indent=1), encoding="utf-8")
        log(f"fold {number}: {len(held_out)} words, {done['training']['steps']} steps")
        tuned |= done["figures"]
        runs.append({"fold": number, "words": held_out, "training": done["training"]})
    return {
        "gold": gold_column,
        "words": len(gold),
        "folds": runs,
        "tuned": pooled(tuned, gold),
        "untuned": pooled(base, gold),
        "intervals": bootstrap_difference(tuned, base, gold, seed),
        "per_word": {"tuned": tuned, "untuned": base},
    }


def _dwug_gold(data_dir: Path) -> tuple[Any, dict[str, float], str]:
    """DWUG EN's usages and its graded change (the gold column's name)."""
    from experiments.lscd import gold_scores
    from wsd.evaluate.datasets import wug

    bundle = wug.load(data_dir / DWUG)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold_series, gold_column = gold_scores(bundle)
    return bundle, {str(k): float(v) for k, v in gold_series.items()}, gold_column


def _dwug_seed_model(work: Path, data_dir: Path, bundle: Any, words: list[str], steps: int, n: int) -> dict[str, Any]:
    """The ``dwug_wordnet_only`` model of training seed ``n`` (trained unless built) and its figures (cached)."""
    seed_file = work / f"dwug_seeds-seed{n}.json"
    if seed_file.is_file():
        return json.loads(seed_file.read_text(encoding="utf-8"))
    folder = work / f"dwug-wordnet-only-seed{n}"
    facts = tune(folder, [f"wordnet:{data_dir / WORDNET}"], steps=steps, seed=n, exclude_lemmas=words)
    done = {"training": training_summary(facts), "figures": word_figures(bundle, words, str(folder))}
    seed_file.write_text(json.dumps(done, indent=1), encoding="utf-8")
    return done


def _dwug_run(done: dict[str, Any], base: dict[str, Any], gold: dict[str, float], seed: int) -> dict[str, Any]:
    """One model's row of a DWUG seeds or soups cell: its pooled figures and intervals against the untuned."""
    tuned = done["figures"]
    return {
        "training": done["training"],
        "tuned": pooled(tuned, gold),
        "intervals": bootstrap_difference(tuned, base, gold, seed),
    }


def _dwug_seed_runs(work: Path, data_dir: Path, steps: int, seed: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """DWUG EN's usages, the cell's common part (gold, untuned figures) and the rows of the seed models."""
    bundle, gold, gold_column = _dwug_gold(data_dir)
    words = sorted(gold)
    base = word_figures(bundle, words, None)
    runs: dict[str, Any] = {}
    for n in SEEDS:
        runs[str(n)] = _dwug_run(_dwug_seed_model(work, data_dir, bundle, words, steps, n), base, gold, seed)
        log(f"seed {n}: rho PRT {runs[str(n)]['tuned']['rho_prt']:.3f}")
    cell = {"gold": gold_column, "words": len(words), "untuned": pooled(base, gold), "base": base, "gold_values": gold}
    return bundle, cell, runs


def dwug_seeds(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """``dwug_wordnet_only`` trained with each seed of :data:`SEEDS`: how far the training seed moves DWUG EN's ρ."""
    _, cell, runs = _dwug_seed_runs(work, data_dir, steps, seed)
    return {key: cell[key] for key in ("gold", "words", "untuned")} | {"runs": runs}


#: The averages of the soups cells, fixed before any figure: a row's label, its model folder's suffix, the seeds
#: averaged (None: the untuned base model) and their weights (None: uniform). The uniform soup is Wortsman et
#: al.'s (2022) uniform model soup; 0.5 is WiSE-FT's middle mixing coefficient, not tuned here.
SOUPS: dict[str, tuple[str, tuple[int | None, ...], tuple[float, ...] | None]] = {
    "soup of seeds 0, 1, 2": ("soup", (0, 1, 2), None),
    "WiSE-FT: 0.5 untuned + 0.5 seed 0": ("wise05", (None, 0), (0.5, 0.5)),
}


def _average(folder: Path, models: list[str | None], weights: tuple[float, ...] | None) -> dict[str, Any]:
    """Average ``models`` into ``folder`` unless it is built; what the page says about it."""
    from wsd.tune.averaging import average_encoders

    if not (folder / "wsd_tune.json").is_file():
        started = time.perf_counter()
        average_encoders(models, folder, weights=weights)
        log(f"averaged {folder.name} in {time.perf_counter() - started:.0f} s")
    return {"seconds": None, "averaged": models, "weights": list(weights) if weights else None}


def dwug_soups(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """The averages of :data:`SOUPS` made from the ``dwug_seeds`` models, scored beside them (module docstring)."""
    bundle, cell, seed_runs = _dwug_seed_runs(work, data_dir, steps, seed)
    base, gold, words = cell["base"], cell["gold_values"], sorted(cell["gold_values"])
    runs = {f"seed {n}": run for n, run in seed_runs.items()}
    for label, (suffix, seeds, weights) in SOUPS.items():
        cache = work / f"dwug_soups-{suffix}.json"
        if cache.is_file():
            done = json.loads(cache.read_text(encoding="utf-8"))
        else:
            folder = work / f"dwug-wordnet-only-{suffix}"
            models = [None if n is None else str(work / f"dwug-wordnet-only-seed{n}") for n in seeds]
            done = {"training": _average(folder, models, weights), "figures": word_figures(bundle, words, str(folder))}
            cache.write_text(json.dumps(done, indent=1), encoding="utf-8")
        runs[label] = _dwug_run(done, base, gold, seed)
        log(f"{label}: rho PRT {runs[label]['tuned']['rho_prt']:.3f}")
    return {key: cell[key] for key in ("gold", "words", "untuned")} | {"runs": runs}


def _dwug_seeds_section(cell: dict[str, Any], steps: int, soups: bool = False) -> list[str]:
    """The page's section of the ``dwug_seeds`` cell (or, with ``soups``, of the ``dwug_soups`` cell)."""
    if soups:
        head = [
            f"## DWUG EN, never seen: averages of the WordNet-only seed models ({cell['words']} words; {steps} steps)",
            "",
            "The three `dwug_seeds` models (WordNet 3.0 example pairs alone, every DWUG EN lemma excluded) and, with "
            "no training, averages of their weights fixed before any figure: the uniform soup of the three seeds, "
            "and WiSE-FT's interpolation of the untuned model with seed 0 (`wsd tune --average`). Each model scores "
            f"all {cell['words']} words; ρ against `{cell['gold']}`, the untuned bundled MiniLM scored the same way in "
            "the same run, on this cell's machine. Intervals: word bootstrap, 95%, of the difference tuned − untuned.",
            "",
        ]
    else:
        head = [
            f"## DWUG EN, never seen: the WordNet-only model with three training seeds ({cell['words']} words; "
            f"{steps} steps)",
            "",
            "The `dwug_wordnet_only` training (WordNet 3.0 example pairs alone, every DWUG EN lemma excluded) with "
            f"the training seeds {', '.join(cell['runs'])}, each model scoring all {cell['words']} words; ρ against "
            f"`{cell['gold']}`, the untuned bundled MiniLM scored the same way in the same run, on this cell's "
            "machine. Intervals: word bootstrap, 95%, of the difference tuned − untuned.",
            "",
        ]
    lines = [
        *head,
        "| encoder | ρ PRT (default change score) | ρ PRT − untuned | ρ APD | ρ JSD of induced senses | ARI | "
        "ARI one sense | mean senses |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    row = cell["untuned"]
    lines.append(
        f"| untuned | {_f(row['rho_prt'])} | – | {_f(row['rho_apd'])} | {_f(row['rho_jsd'])} | "
        f"{_f(100 * row['ari'], 1)} | {_f(100 * row['ari_one_sense'], 1)} | {_f(row['mean_senses'], 2)} |"
    )
    for n, run in cell["runs"].items():
        row, (low, high) = run["tuned"], run["intervals"]["rho_prt_difference"]
        diff = row["rho_prt"] - cell["untuned"]["rho_prt"]
        label = f"seed {n}" if n.isdigit() else n
        lines.append(
            f"| {label} | {_f(row['rho_prt'])} | {diff:+.3f} [{low:+.3f}, {high:+.3f}] | {_f(row['rho_apd'])} | "
            f"{_f(row['rho_jsd'])} | {_f(100 * row['ari'], 1)} | {_f(100 * row['ari_one_sense'], 1)} | "
            f"{_f(row['mean_senses'], 2)} |"
        )
    prt = [run["tuned"]["rho_prt"] for key, run in cell["runs"].items() if key.removeprefix("seed ").isdigit()]
    averages = "".join(
        f"; {label} {cell['runs'][label]['tuned']['rho_prt']:.3f}" for label in SOUPS if label in cell["runs"]
    )
    lines += [
        "",
        f"ρ PRT over the seeds: {min(prt):.3f} to {max(prt):.3f} (mean {np.mean(prt):.3f}; untuned "
        f"{cell['untuned']['rho_prt']:.3f}; issue 23's target {TARGETS['rho_prt']}){averages}.",
        "",
    ]
    return lines


# ------------------------------------------------------------------------------------------ other languages
def wug_multilingual(
    work: Path, data_dir: Path, steps: int, seed: int, model: Path, cell: str = "wug_multilingual"
) -> dict[str, Any]:
    """A multilingual cell (module docstring; :data:`MULTILINGUAL_CELLS`): tuned on the other WUG sets (and the
    plan's ``extra`` sources), scored on the held-out ones."""
    from experiments.lscd import DATASETS, gold_scores
    from wsd.evaluate.datasets import wug

    if not (model / "config.json").is_file():
        raise SystemExit(
            f"the multilingual encoder {model} is absent (`bash ../shared/models/get-multilingual-e5.sh DIR`, "
            "then --multilingual-model DIR/multilingual-e5-small-q4)"
        )
    folder_of = {name: data_dir / "lscd" / DATASETS[name][0] for name in DATASETS}
    extra_of = {"wordnet": f"wordnet:{data_dir / WORDNET}", "russe2018": f"russe2018:{data_dir / RUSSE}"}
    plans, prefix, _, _ = MULTILINGUAL_CELLS[cell]
    groups: dict[str, Any] = {}
    for group, plan in plans.items():
        group_file = work / f"{cell}-{group}.json"
        if group_file.is_file():
            groups[group] = json.loads(group_file.read_text(encoding="utf-8"))
            continue
        tuned_dir = work / f"{prefix}-{group}"
        facts = tune(
            tuned_dir,
            [f"wug:{folder_of[name]}" for name in plan["train"]] + [extra_of[name] for name in plan.get("extra", ())],
            steps=steps,
            seed=MULTILINGUAL_SEEDS.get(cell, seed),
            options={"model": str(model)},
            exclude=[f"wug:{folder_of[name]}" for name in plan["score"]],
        )
        trained_on = [*plan["train"], *plan.get("extra", ())]
        done: dict[str, Any] = {"training": training_summary(facts), "trained_on": trained_on, "datasets": {}}
        for name in plan["score"]:
            bundle = wug.load(folder_of[name])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                gold_series, gold_column = gold_scores(bundle)
            gold = {str(k): float(v) for k, v in gold_series.items()}
            base = word_figures(bundle, sorted(gold), str(model))
            tuned = word_figures(bundle, sorted(gold), str(tuned_dir))
            done["datasets"][name] = {
                "gold": gold_column,
                "words": len(gold),
                "tuned": pooled(tuned, gold),
                "untuned": pooled(base, gold),
                "intervals": bootstrap_difference(tuned, base, gold, seed),
                "per_word": {"tuned": tuned, "untuned": base},
            }
            log(
                f"{name}: rho prt {done['datasets'][name]['untuned']['rho_prt']:.3f} -> "
                f"{done['datasets'][name]['tuned']['rho_prt']:.3f}"
            )
        group_file.write_text(json.dumps(done, indent=1, default=float), encoding="utf-8")
        groups[group] = done
    return {"model": model.name, "groups": groups}


# ------------------------------------------------------------------------------------------ SemEval
def evaluate(dataset: str, data_dir: Path, model: str | None, out: Path) -> dict[str, Any]:
    """``wsd evaluate`` of a dataset with the default recipe (one seed); its metrics.json."""
    metrics = out / "metrics.json"
    if not metrics.is_file():
        chosen = ["--model", model] if model is not None else []
        run_wsd(
            ["evaluate", "--dataset", dataset, "--data-dir", str(data_dir), "--out", str(out), "--overwrite", *chosen]
        )
    return json.loads(metrics.read_text(encoding="utf-8"))


#: The longer SemEval run: at most this many steps, validated every ``eval_steps`` on held-out WordNet lemmas
#: (10%), stopped after ``patience`` validations without improvement; the best validated weights are kept.
LONG_RUN = {"steps": 3000, "validation_fraction": 0.1, "eval_steps": 250, "patience": 2}


def semeval_unseen(
    work: Path,
    data_dir: Path,
    steps: int,
    seed: int,
    long: bool = False,
    base: Path | None = None,
    training_seed: int | None = None,
) -> dict[str, Any]:
    """The SemEval cell: tuned on WordNet without any SemEval lemma, scored on both SemEval tasks.

    With ``long`` the run is :data:`LONG_RUN`: its length chosen by early stopping on held-out WordNet lemmas
    (never on a SemEval figure). With ``base`` (all-mpnet-base-v2) that encoder is tuned the same way, from the
    same settings, and scored on SemEval-2013 (issue 23's MPNet target) beside itself untuned. A
    ``training_seed`` other than ``seed`` trains its own model (folders suffixed ``-seed<N>``).
    """
    exclude = [f"{name}:{data_dir / folder}" for name, folder in SEMEVAL.items()]
    if base is not None and not (base / "config.json").is_file():
        raise SystemExit(
            f"the MPNet encoder {base} is absent (`bash ../shared/models/get-mpnet.sh DIR`, --mpnet-model)"
        )
    prefix = "" if base is None else f"{base.name}-"
    suffix = "" if training_seed is None or training_seed == seed else f"-seed{training_seed}"
    folder = work / (prefix + ("wordnet-no-semeval-early-stopped" if long else "wordnet-no-semeval") + suffix)
    options = {k: v for k, v in LONG_RUN.items() if k != "steps"} if long else {}
    options = (options | {"model": str(base)}) if base is not None else options or None
    steps = LONG_RUN["steps"] if long else steps
    sources = [f"wordnet:{data_dir / WORDNET}"]
    chosen_seed = seed if training_seed is None else training_seed
    facts = tune(folder, sources, steps=steps, seed=chosen_seed, options=options, exclude=exclude)
    result: dict[str, Any] = {
        "training": training_summary(facts),
        "training_seed": chosen_seed,
        "datasets": {},
        "encoder": "MiniLM" if base is None else base.name,
    }
    for name in SEMEVAL if base is None else ("semeval2013",):
        untuned = evaluate(name, data_dir, None if base is None else str(base), work / f"eval-{name}-{prefix}untuned")
        tuned = evaluate(
            name,
            data_dir,
            str(folder),
            work / (f"eval-{name}-{folder.name}" if long else f"eval-{name}-{prefix}tuned{suffix}"),
        )
        result["datasets"][name] = {
            "untuned": untuned["overall"],
            "tuned": tuned["overall"],
            "training_overlap": tuned.get("training_overlap"),
        }
        log(f"{name}: avg {untuned['overall']['avg']:.4f} -> {tuned['overall']['avg']:.4f}")
    return result


#: The frozen layers (with the embeddings) of the ``semeval_frozen`` cell; 0 is the SemEval cell's own run.
FROZEN_LAYERS = (0, 2, 4)


class Variant(NamedTuple):
    """One row of a :func:`semeval_variants` cell (a plain 3-tuple of its first fields is read as one)."""

    #: The model folder's name.
    folder: str
    #: The options it changes (None: the defaults).
    options: dict[str, Any] | None
    #: SemEval datasets it also trains on (SemEval-2010 here: then only SemEval-2013's lemmas are excluded, and its
    #: SemEval-2010 scores are of a task it was trained on).
    extra: tuple[str, ...] = ()
    #: Its own sources: ``wordnet`` (the WordNet 3.0 example pairs), ``sotu`` (the SOTU cells' unlabelled uses), or
    #: the Word-in-Context files of :data:`WIC_SOURCES` (``wic``, ``mcl_wic_en``).
    sources: tuple[str, ...] = ("wordnet",)


def semeval_variants(work: Path, data_dir: Path, steps: int, seed: int, variants: dict[str, Variant]) -> dict[str, Any]:
    """The SemEval cell's training with other options, each scored on both SemEval tasks beside the untuned model.

    ``variants`` maps a row's key to a :class:`Variant` (``("wordnet-no-semeval", None, ())`` is the cell's own
    run). The row chosen is the one with the best SemEval-2010 AVG among the rows never trained on SemEval-2010.
    """
    untuned = {name: evaluate(name, data_dir, None, work / f"eval-{name}-untuned") for name in SEMEVAL}
    runs: dict[str, Any] = {}
    specs = source_specs(data_dir)
    for key, given in variants.items():
        folder_name, options, extra, own = Variant(*given)
        folder = work / folder_name
        sources = [sotu_spec(work, data_dir, seed) if name == "sotu" else specs[name] for name in own]
        sources += [specs[name] for name in extra]
        exclude = [f"{name}:{data_dir / path}" for name, path in SEMEVAL.items() if name not in extra]
        facts = tune(folder, sources, steps=steps, seed=seed, options=options, exclude=exclude)
        run: dict[str, Any] = {"training": training_summary(facts), "trained_on": [*own, *extra], "datasets": {}}
        for name in SEMEVAL:
            tuned = evaluate(name, data_dir, str(folder), work / f"eval-{name}-{folder.name}")
            run["datasets"][name] = {"tuned": tuned["overall"], "training_overlap": tuned.get("training_overlap")}
            log(f"{key}: {name} avg {untuned[name]['overall']['avg']:.4f} -> {tuned['overall']['avg']:.4f}")
        runs[key] = run
    unseen = [key for key, given in variants.items() if "semeval2010" not in Variant(*given).extra]
    chosen = max(unseen, key=lambda key: runs[key]["datasets"]["semeval2010"]["tuned"]["avg"])
    return {"untuned": {name: untuned[name]["overall"] for name in SEMEVAL}, "runs": runs, "chosen": chosen}


def semeval_frozen(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """The SemEval cell's training with the lowest layers frozen (see the module docstring)."""
    variants: dict[str, Variant] = {
        str(n): (
            f"wordnet-no-semeval-freeze{n}" if n else "wordnet-no-semeval",
            {"freeze_layers": n} if n else None,
            (),
        )
        for n in FROZEN_LAYERS
    }
    result = semeval_variants(work, data_dir, steps, seed, variants)
    return result | {"chosen": int(result["chosen"])}


#: The context vector of the ``semeval_context`` cell: the default recipe's, the vector inference uses.
CONTEXT_RUN = {"context_vector": "20:last:0.5"}


def semeval_context(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """The SemEval cell's training of the target + context vector (see the module docstring)."""
    variants: dict[str, Variant] = {
        "target vector": ("wordnet-no-semeval", None, ()),
        "target + context vector": ("wordnet-no-semeval-context", CONTEXT_RUN, ()),
    }
    return semeval_variants(work, data_dir, steps, seed, variants)


#: The training seeds of the ``semeval_seeds`` cell (0 is the cell's own run).
SEEDS = (0, 1, 2)


#: The row labels of the seed models in the seeds and soups cells.
SEED_ROWS = tuple(f"seed {n}" for n in SEEDS)


def semeval_seeds(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """The SemEval cell trained with other seeds: how far one training seed moves its scores (module docstring)."""
    variants: dict[str, Variant] = {
        f"seed {n}": ("wordnet-no-semeval" if n == seed else f"wordnet-no-semeval-seed{n}", {"seed": n}, ())
        for n in SEEDS
    }
    return semeval_variants(work, data_dir, steps, seed, variants)


def semeval_soups(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """The averages of :data:`SOUPS` made from the ``semeval_seeds`` models, scored beside them (module docstring)."""
    result = semeval_seeds(work, data_dir, steps, seed)
    runs = {key: run for key, run in result["runs"].items()}
    seed_folders = {n: work / ("wordnet-no-semeval" if n == seed else f"wordnet-no-semeval-seed{n}") for n in SEEDS}
    for label, (suffix, seeds, weights) in SOUPS.items():
        folder = work / f"wordnet-no-semeval-{suffix}"
        training = _average(folder, [None if n is None else str(seed_folders[n]) for n in seeds], weights)
        run: dict[str, Any] = {"training": training, "datasets": {}}
        for name in SEMEVAL:
            tuned = evaluate(name, data_dir, str(folder), work / f"eval-{name}-{folder.name}")
            run["datasets"][name] = {"tuned": tuned["overall"], "training_overlap": tuned.get("training_overlap")}
            log(f"{label}: {name} avg {result['untuned'][name]['avg']:.4f} -> {tuned['overall']['avg']:.4f}")
        runs[label] = run
    return result | {"runs": runs}


def semeval_distill(work: Path, data_dir: Path, steps: int, seed: int, mpnet: Path) -> dict[str, Any]:
    """The SemEval cell with every WordNet pair labelled by all-mpnet-base-v2's cosine (module docstring)."""
    if not (mpnet / "config.json").is_file():
        raise SystemExit(f"the MPNet encoder {mpnet} is absent (`bash ../shared/models/get-mpnet.sh DIR`)")
    variants: dict[str, Variant] = {
        "WordNet labels": ("wordnet-no-semeval", None, ()),
        "all-mpnet-base-v2's cosines": ("wordnet-no-semeval-distill", {"teacher": str(mpnet)}, ()),
        f"all-mpnet-base-v2's cosines, {DISTILL_LONG_STEPS} steps": (
            "wordnet-no-semeval-distill-long",
            {"teacher": str(mpnet), "max_steps": DISTILL_LONG_STEPS},
            (),
        ),
    }
    return semeval_variants(work, data_dir, steps, seed, variants)


def semeval_sotu_distill(work: Path, data_dir: Path, steps: int, seed: int, mpnet: Path) -> dict[str, Any]:
    """The SemEval cell's teacher on the SOTU cells' unlabelled uses instead of WordNet (module docstring)."""
    if not (mpnet / "config.json").is_file():
        raise SystemExit(f"the MPNet encoder {mpnet} is absent (`bash ../shared/models/get-mpnet.sh DIR`)")
    variants: dict[str, Variant] = {
        "WordNet labels": Variant("wordnet-no-semeval", None),
        "all-mpnet-base-v2's cosines, WordNet pairs": Variant("wordnet-no-semeval-distill", {"teacher": str(mpnet)}),
        f"all-mpnet-base-v2's cosines, SOTU pairs, {SOTU_STEPS} steps": Variant(
            "sotu-no-semeval-distill", {"teacher": str(mpnet), "max_steps": SOTU_STEPS}, sources=("sotu",)
        ),
    }
    return semeval_variants(work, data_dir, steps, seed, variants)


def semeval_sources(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """WordNet alone against WordNet plus the SemEval-2010 keys, scored on SemEval-2013 (see the module docstring)."""
    variants: dict[str, Variant] = {
        "WordNet": ("wordnet-no-semeval", None, ()),
        "WordNet + SemEval-2010 keys": ("wordnet-semeval2010-no-semeval2013", None, ("semeval2010",)),
    }
    return semeval_variants(work, data_dir, steps, seed, variants)


def semeval_wic(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """WordNet alone against WordNet plus the Word-in-Context pairs, scored on both SemEval tasks (module docstring)."""
    variants: dict[str, Variant] = {
        "WordNet": Variant("wordnet-no-semeval", None),
        "WordNet + WiC + MCL-WiC en-en": Variant("wordnet-wic-no-semeval", None, sources=("wordnet", *WIC_SOURCES)),
        "WiC + MCL-WiC en-en": Variant("wic-only-no-semeval", None, sources=tuple(WIC_SOURCES)),
    }
    return semeval_variants(work, data_dir, steps, seed, variants)


#: The ablations of the SemEval cell: one change at a time from its 300-step WordNet run, each scored on SemEval-2013
#: only (a model that never saw its lemmas). ``train`` replaces the sources, ``options`` change TuneOptions,
#: ``steps`` the length. WordNet's labels are binary, so the default loss there is contrastive.
ABLATIONS: dict[str, dict[str, Any]] = {
    "markers": {"options": {"markers": True}},
    "cosent": {"options": {"loss": "cosent"}},
    "steps150": {"steps": 150},
    "steps600": {"steps": 600},
    "semeval2010_only": {"train": ["semeval2010"]},
}


#: What each ablation changes, as the results page says it.
ABLATION_NAMES = {
    "markers": "WordNet, target markers around the word",
    "cosent": "WordNet, CoSENT instead of contrastive",
    "steps150": "WordNet, half the steps",
    "steps600": "WordNet, twice the steps",
    "semeval2010_only": "SemEval-2010 keys alone (SemEval-2013 lemmas excluded)",
}


def semeval_ablations(work: Path, data_dir: Path, steps: int, seed: int) -> dict[str, Any]:
    """Each ablation of :data:`ABLATIONS` tuned and scored on SemEval-2013, beside the cell's own run (no change)."""
    exclude = [f"{name}:{data_dir / folder}" for name, folder in SEMEVAL.items()]
    paths = {"wordnet": data_dir / WORDNET, "semeval2010": data_dir / SEMEVAL["semeval2010"]}
    untuned = evaluate("semeval2013", data_dir, None, work / "eval-semeval2013-untuned")
    base = evaluate("semeval2013", data_dir, str(work / "wordnet-no-semeval"), work / "eval-semeval2013-tuned")
    rows: dict[str, Any] = {}
    for name, change in ABLATIONS.items():
        sources = [f"{kind}:{paths[kind]}" for kind in change.get("train", ["wordnet"])]
        # a source that is itself a SemEval task is not excluded whole: only the evaluated task's lemmas are
        excluded = [spec for spec in exclude if spec.split(":", 1)[0] not in change.get("train", [])]
        folder = work / f"ablation-{name}"
        facts = tune(
            folder,
            sources,
            steps=change.get("steps", steps),
            seed=seed,
            options=change.get("options"),
            exclude=excluded,
        )
        scores = evaluate("semeval2013", data_dir, str(folder), work / f"eval-semeval2013-ablation-{name}")
        rows[name] = {
            "training": training_summary(facts),
            "semeval2013": scores["overall"],
            "training_overlap": scores.get("training_overlap"),
        }
        log(f"ablation {name}: semeval2013 avg {scores['overall']['avg']:.4f}")
    return {"untuned": untuned["overall"], "base": base["overall"], "ablations": rows}


# ------------------------------------------------------------------------------------------ page
def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def _rho_cell(row: dict[str, float], ci: dict[str, list[float]], measure: str, suffix: str) -> str:
    """One table cell: ρ of ``measure`` and its interval (``suffix`` ``_untuned`` for the untuned model's)."""
    low, high = ci[f"rho_{measure}{suffix}"]
    return f"{_f(row[f'rho_{measure}'])} [{_f(low, 2)}, {_f(high, 2)}]"


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    from wsd.options import TuneOptions

    lines = ["# `wsd tune`: sense-aware encoders on words and datasets they never saw (issue 23)", ""]
    commands = sorted({results[cell]["command"] for cell in CELLS if cell in results and "command" in results[cell]})
    commands = commands or [results["command"]]
    machines: dict[str, list[str]] = {}
    for cell in CELLS:
        if cell in results:
            machines.setdefault(results[cell].get("machine", results["machine"]), []).append(cell)
    shown = (
        f"- Machine: {next(iter(machines))}"
        if len(machines) == 1
        else "- Machines: " + "; ".join(f"{', '.join(cells)}: {machine}" for machine, cells in machines.items())
    )
    lines += [
        f"- Command: {'; '.join(f'`{command}`' for command in commands)}",
        shown if machines else f"- Machine: {results['machine']}",
        f"- Date: {results['date']}",
    ]
    lines += [
        "- Training settings are the defaults of `wsd tune` (CoSENT for graded labels, contrastive for binary, "
        f"lr 2e-5, 24 uses a step) with `--max-steps {results['steps']}` and `--seed {results['seed']}`, fixed "
        "before any figure; nothing below was chosen on the data it is scored on.",
        "",
    ]
    for key, variant in DWUG_VARIANTS.items():
        cell = results.get(key)
        if not cell:
            continue
        batch_uses = (variant.options or {}).get("batch_uses", TuneOptions().batch_uses)
        how = (
            f"one full epoch of its training pairs ({batch_uses} uses a step, no step cap)"
            if not variant.capped
            else f"{(variant.options or {}).get('max_steps', results['steps'])} steps"
        ) + (f"; {variant.label}" if variant.label else "")
        trained = "; ".join(SOURCE_NAMES[source] for source in variant.sources)
        title = (
            f"DWUG EN, never seen: one model tuned on {trained} ({cell['words']} words; {how})"
            if variant.one_model
            else f"DWUG EN, out of fold by lemma, tuned on {trained} ({len(cell['folds'])} folds, "
            f"{cell['words']} words; {how})"
        )
        lines += [
            f"## {title}",
            "",
            f"{variant.about}; ρ is computed "
            f"once over all {cell['words']} words against `{cell['gold']}`. The untuned row is "
            f"{'all-mpnet-base-v2' if variant.mpnet else 'the bundled MiniLM'} scored the same way in the same run. "
            "Intervals: word bootstrap, 95%.",
            "",
            "| encoder | ρ PRT (default change score) | ρ APD | ρ PRT, target half | ρ APD, target half | "
            "ρ JSD of induced senses | ARI | ARI one sense | mean senses |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        ci = cell["intervals"]
        for name in ("untuned", "tuned"):
            row = cell[name]
            suffix = "" if name == "tuned" else "_untuned"
            parts = [_rho_cell(row, ci, m, suffix) for m in MEASURES]
            lines.append(
                f"| {name} | {' | '.join(parts)} | {_f(100 * row['ari'], 1)} | {_f(100 * row['ari_one_sense'], 1)} | "
                f"{_f(row['mean_senses'], 2)} |"
            )
        lines += ["", "Difference tuned − untuned, word-bootstrap 95% interval:"]
        for m in MEASURES:
            low, high = ci[f"rho_{m}_difference"]
            diff = cell["tuned"][f"rho_{m}"] - cell["untuned"][f"rho_{m}"]
            lines.append(f"- ρ {MEASURE_NAMES[m]}: {diff:+.3f} [{low:+.3f}, {high:+.3f}]")
        tuned = cell["tuned"]
        lines += [
            "",
            "Against issue 23's targets: "
            f"ρ PRT {_f(tuned['rho_prt'])} (target ≥ {TARGETS['rho_prt']}), "
            f"ρ JSD {_f(tuned['rho_jsd'])} (target ≥ {TARGETS['rho_jsd']}), "
            f"ARI {_f(100 * tuned['ari'], 1)} against one sense {_f(100 * tuned['ari_one_sense'], 1)} "
            f"(target: +{100 * TARGETS['ari_over_one_sense']:.0f} points).",
            "",
            "| fold | words | steps | training pairs | seconds | final loss |",
            "|---:|---|---:|---:|---:|---:|",
        ]
        for run in cell["folds"]:
            t = run["training"]
            lines.append(
                f"| {run['fold']} | {', '.join(run['words'])} | {t['steps']} | {t['pairs']} | {t['seconds']:.0f} | "
                f"{_f(t['final_loss'], 2)} |"
            )
        lines.append("")
    for key, title in (
        ("semeval_unseen", f"{results['steps']} steps"),
        ("semeval_unseen_long", "early-stopped"),
        ("semeval_unseen_mpnet", f"all-mpnet-base-v2, {results['steps']} steps"),
        ("semeval_unseen_mpnet_seed1", f"all-mpnet-base-v2, {results['steps']} steps, training seed 1"),
    ):
        cell = results.get(key)
        if not cell:
            continue
        t = cell["training"]
        stop = (
            f" (validated every {LONG_RUN['eval_steps']} steps on {t.get('validation_lemmas', 0)} held-out WordNet "
            f"lemmas, ROC AUC; {'stopped early, ' if t.get('stopped_early') else ''}best step {t.get('best_step')} "
            "kept)"
            if t.get("validation_lemmas")
            else ""
        )
        lines += [
            f"## SemEval-2013 and SemEval-2010 with a model that never saw their lemmas ({title})",
            "",
            f"{cell.get('encoder', 'MiniLM')} tuned on WordNet 3.0 example pairs ({t['pairs']} pairs of "
            f"{t['training_lemmas']} lemmas; "
            f"{t['excluded_lemmas']} lemmas of SemEval-2013 and SemEval-2010 excluded), {t['steps']} steps in "
            f"{t['seconds']:.0f} s{stop}; `wsd evaluate` with the default recipe, one seed, beside the untuned model "
            "(percent).",
            "",
            "| dataset | metric | untuned | tuned | difference | training overlap |",
            "|---|---|---:|---:|---:|---|",
        ]
        for name, figures in cell["datasets"].items():
            overlap = figures.get("training_overlap")
            shown = "none" if overlap == [] else (", ".join(overlap) if overlap else "not recorded")
            for metric in BENCHMARKS[name].columns:
                before, after = 100 * figures["untuned"][metric], 100 * figures["tuned"][metric]
                lines.append(f"| {name} | {metric} | {before:.2f} | {after:.2f} | {after - before:+.2f} | {shown} |")
        lines.append("")
    cell = results.get("semeval_ablations")
    if cell:
        base = cell["base"]["avg"]
        lines += [
            "## Ablations of the SemEval cell (one change at a time, scored on SemEval-2013)",
            "",
            "The 300-step WordNet run of the cell above (SemEval lemmas excluded) with one change each; "
            "`wsd evaluate` of SemEval-2013 with the default recipe, one seed (percent). The cell's run and the "
            "untuned model are the first rows.",
            "",
            "| model | training | steps | pairs | fnmi | fbc_f | avg | avg − the cell's run | training overlap |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|",
            f"| untuned | – | – | – | {100 * cell['untuned']['fnmi']:.2f} | {100 * cell['untuned']['fbc_f']:.2f} | "
            f"{100 * cell['untuned']['avg']:.2f} | {100 * (cell['untuned']['avg'] - base):+.2f} | – |",
            f"| the cell's run | WordNet, contrastive, no markers | {results['steps']} | | "
            f"{100 * cell['base']['fnmi']:.2f} | {100 * cell['base']['fbc_f']:.2f} | {100 * base:.2f} | +0.00 | none |",
        ]
        for name, row in cell["ablations"].items():
            figures, t = row["semeval2013"], row["training"]
            overlap = row.get("training_overlap")
            shown = "none" if overlap == [] else (", ".join(overlap) if overlap else "not recorded")
            lines.append(
                f"| {name} | {ABLATION_NAMES.get(name, name)} | {t['steps']} | {t['pairs']} | "
                f"{100 * figures['fnmi']:.2f} | {100 * figures['fbc_f']:.2f} | {100 * figures['avg']:.2f} | "
                f"{100 * (figures['avg'] - base):+.2f} | {shown} |"
            )
        lines.append("")
    cell = results.get("semeval_frozen")
    if cell:
        lines += _frozen_section(cell, results["steps"])
    for key, (title, about, label) in VARIANT_SECTIONS.items():
        cell = results.get(key)
        if cell:
            lines += _variants_table(cell, title, about.format(steps=results["steps"]), label, mark_chosen=False)
            if key in ("semeval_seeds", "semeval_soups"):
                lines += _seed_spread(cell)
    cell = results.get("dwug_seeds")
    if cell:
        lines += _dwug_seeds_section(cell, results["steps"])
    cell = results.get("dwug_soups")
    if cell:
        lines += _dwug_seeds_section(cell, results["steps"], soups=True)
    for key, (_, _, title, about) in MULTILINGUAL_CELLS.items():
        lines += _multilingual_section(results.get(key), title, about)
    return "\n".join(lines)


def _multilingual_section(cell: dict[str, Any] | None, title: str, about: str) -> list[str]:
    """The page's section of a multilingual cell (nothing when it has not run)."""
    lines: list[str] = []
    if cell:
        lines += [
            f"## NorDiaChange and RuSemShift: {title} ({cell['model']})",
            "",
            f"{about}, "
            "beside the untuned multilingual encoder in the same run; ρ over all words of the set against its gold "
            "(NorDiaChange: `change_graded`; RuSemShift: −COMPARE). Intervals: word bootstrap, 95%. ARI is "
            "against the gold clusters where the set has them.",
            "",
            "| set | encoder | ρ PRT | ρ APD | ρ PRT, target half | ρ APD, target half | ρ JSD | ARI | ARI one sense |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        differences = []
        for group in cell["groups"].values():
            for name, figures in group["datasets"].items():
                ci = figures["intervals"]
                for which in ("untuned", "tuned"):
                    row, suffix = figures[which], ("" if which == "tuned" else "_untuned")
                    parts = [_rho_cell(row, ci, m, suffix) for m in MEASURES]
                    lines.append(
                        f"| {name} ({figures['words']} words) | {which} | {' | '.join(parts)} | "
                        f"{_f(100 * row['ari'], 1)} | {_f(100 * row['ari_one_sense'], 1)} |"
                    )
                low, high = ci["rho_prt_difference"]
                diff = figures["tuned"]["rho_prt"] - figures["untuned"]["rho_prt"]
                differences.append(f"- {name}: ρ PRT {diff:+.3f} [{low:+.3f}, {high:+.3f}]")
        lines += ["", "Difference tuned − untuned of the default change score, word-bootstrap 95% interval:"]
        lines += differences
        lines += [
            "",
            "| scored sets | tuned on | steps | training pairs | seconds | final loss |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for group in cell["groups"].values():
            t = group["training"]
            lines.append(
                f"| {', '.join(group['datasets'])} | {', '.join(group['trained_on'])} | {t['steps']} | {t['pairs']} | "
                f"{t['seconds']:.0f} | {_f(t['final_loss'], 2)} |"
            )
        lines.append("")
    return lines


#: The page's sections of the :func:`semeval_variants` cells compared without a choice: title, the paragraph
#: (``{steps}`` filled in) and what the rows are.
VARIANT_SECTIONS = {
    "semeval_context": (
        "## Training the vector inference uses: the target with its context vector",
        "MiniLM tuned as the SemEval cell ({steps} steps on WordNet 3.0 example pairs, every SemEval-2013 and "
        "SemEval-2010 lemma excluded), training the target vector alone (the cell's own run) or the vector inference "
        "uses, the target with the default recipe's context vector beside it "
        f"(`--context-vector {CONTEXT_RUN['context_vector']}`, fixed before any figure); `wsd evaluate` with the "
        "default recipe, one seed (percent). Every row was measured in one run, on this cell's machine; compare "
        "within the table.",
        "trained",
    ),
    "semeval_sources": (
        "## SemEval-2013 from more sense-labelled sources: WordNet plus the SemEval-2010 keys",
        "MiniLM tuned as the SemEval cell ({steps} steps), on WordNet 3.0 example pairs alone (every SemEval lemma "
        "excluded: the cell's own run) or on WordNet plus the SemEval-2010 keys (only SemEval-2013's lemmas "
        "excluded, from both); `wsd evaluate` with the default recipe, one seed (percent). SemEval-2013 is the task "
        "never seen; the second row's SemEval-2010 scores are of a task it was trained on (its overlap column). "
        "Every row was measured in one run, on this cell's machine; compare within the table.",
        "trained on",
    ),
    "semeval_wic": (
        "## SemEval-2013 and SemEval-2010 from Word-in-Context pairs: WordNet plus WiC and MCL-WiC en-en",
        "MiniLM tuned as the SemEval cell ({steps} steps, contrastive) on WordNet 3.0 example pairs alone (the "
        "cell's own run), on WordNet plus WiC's training pairs and MCL-WiC's English training pairs (`wic:`), or "
        "on the two Word-in-Context files alone, every SemEval-2013 and SemEval-2010 lemma excluded from every "
        "source, so both tasks are unseen by every row; "
        "`wsd evaluate` with the default recipe, one seed (percent). Added for issue 40 (its targets: SemEval-2013 "
        "AVG ≥ 34, SemEval-2010 not below the untuned row), settings fixed before any figure of it; read the "
        "difference against the seed spread of `semeval_seeds`. Every row was measured in one run, on this cell's "
        "machine; compare within the table.",
        "trained on",
    ),
    "semeval_distill": (
        "## Distilling a larger encoder: every pair labelled by all-mpnet-base-v2 (SemEval lemmas never seen)",
        "MiniLM tuned as the SemEval cell ({steps} steps on the uses and pairs of the WordNet 3.0 examples, every "
        "SemEval lemma excluded) with WordNet's labels (the cell's own run) or with each pair labelled by untuned "
        "all-mpnet-base-v2's cosine of its two uses (`--teacher`, CoSENT; added after the MPNet DWUG figures were "
        "seen, its settings the defaults; the one longer run, five times as long, fixed before any figure of it); "
        "`wsd evaluate` with the default recipe, one seed (percent). The teacher's own SemEval-2013 figures are the "
        "MPNet cell's above. Every row was measured on this cell's machine; compare within the table.",
        "pair labels",
    ),
    "semeval_sotu_distill": (
        "## Distilling on running text: the teacher's cosines on State of the Union uses (SemEval lemmas never seen)",
        "MiniLM tuned as the SemEval cell ({steps} steps on WordNet 3.0 example pairs with their labels, or with "
        "untuned all-mpnet-base-v2's cosines: the `semeval_distill` rows) or taught by the same teacher on the "
        f"unlabelled State of the Union uses of `dwug_sotu_distill` ({SOTU_STEPS} steps, its settings; every "
        "SemEval-2013 and SemEval-2010 lemma excluded from all three). Added after the SOTU students' DWUG EN "
        "figures, to see whether running text carries the teacher's senses to SemEval too; fixed before any "
        "SemEval figure of it. `wsd evaluate` with the default recipe, one seed (percent); every row was measured "
        "on this cell's machine; compare within the table.",
        "pair labels",
    ),
    "semeval_soups": (
        "## Averages of the seed models (SemEval lemmas never seen; no training)",
        "The three `semeval_seeds` models ({steps} steps on WordNet 3.0 example pairs, every SemEval lemma "
        "excluded) and, with no training, averages of their weights fixed before any figure: the uniform soup of "
        "the three seeds, and WiSE-FT's interpolation of the untuned model with seed 0 (`wsd tune --average`); "
        "`wsd evaluate` with the default recipe, one clustering seed (percent). Every row was measured on this "
        "cell's machine; compare within the table.",
        "model",
    ),
    "semeval_seeds": (
        "## How much the training seed moves the scores",
        "MiniLM tuned as the SemEval cell ({steps} steps on WordNet 3.0 example pairs, every SemEval lemma excluded) "
        "with three training seeds (the seed orders the batches and draws dropout); `wsd evaluate` with the default "
        "recipe, one clustering seed (percent). The spread of these rows is how much one training seed alone moves "
        "a score: read the one-seed differences of the other cells against it. Every row was measured in one run, "
        "on this cell's machine.",
        "training seed",
    ),
}


def _seed_spread(cell: dict[str, Any]) -> list[str]:
    """Each SemEval task's AVG over the training seeds of the ``semeval_seeds`` cell."""
    lines = []
    for name in SEMEVAL:
        values = [100 * run["datasets"][name]["tuned"]["avg"] for key, run in cell["runs"].items() if key in SEED_ROWS]
        before = 100 * cell["untuned"][name]["avg"]
        lines.append(
            f"- {name} AVG over the seeds: {min(values):.2f} to {max(values):.2f} (spread "
            f"{max(values) - min(values):.2f}; mean {np.mean(values):.2f}, untuned {before:.2f})"
            + "".join(
                f"; {label} {100 * cell['runs'][label]['datasets'][name]['tuned']['avg']:.2f}"
                for label in SOUPS
                if label in cell["runs"]
            )
        )
    lines.append("")
    return lines


def _frozen_section(cell: dict[str, Any], steps: int) -> list[str]:
    """The page's section of the ``semeval_frozen`` cell."""
    about = (
        f"MiniLM tuned as the SemEval cell ({steps} steps on WordNet 3.0 example pairs, every SemEval-2013 and "
        "SemEval-2010 lemma excluded) with the input embeddings and the lowest N of its 6 layers frozen "
        "(`--freeze-layers N`; 0 is the cell's own run, trained again in this run); `wsd evaluate` with the default "
        f"recipe, one seed (percent). N = {cell['chosen']} has the best SemEval-2010 AVG, the figure it is chosen "
        "on; its SemEval-2013 row played no part in the choice. Every row was measured in one run, on this cell's "
        "machine (named above: with native bf16 both training and the forward pass compute in bf16, so the untuned "
        "row differs from the fp32 cells'); compare within the table."
    )
    title = "## Frozen lower layers (SemEval lemmas never seen; chosen on SemEval-2010, quoted on SemEval-2013)"
    return _variants_table(cell, title, about, "frozen layers")


def _variants_table(cell: dict[str, Any], title: str, about: str, label: str, mark_chosen: bool = True) -> list[str]:
    """A section of a :func:`semeval_variants` cell: every row's scores on both SemEval tasks, the untuned first."""
    columns = [(name, metric) for name in SEMEVAL for metric in BENCHMARKS[name].columns]
    lines = [
        title,
        "",
        about,
        "",
        f"| {label} | seconds | "
        + " | ".join(f"{name} {metric}" for name, metric in columns)
        + " | training overlap |",
        "|---|---:|" + "---:|" * len(columns) + "---|",
        "| untuned | – | " + " | ".join(f"{100 * cell['untuned'][n][m]:.2f}" for n, m in columns) + " | – |",
    ]
    for key, run in cell["runs"].items():
        overlaps = [run["datasets"][name].get("training_overlap") for name in SEMEVAL]
        shown = (
            "none"
            if all(o == [] for o in overlaps)
            else "; ".join(
                f"{name}: {len(o)} lemmas" if o else f"{name}: {'none' if o == [] else 'not recorded'}"
                for name, o in zip(SEMEVAL, overlaps, strict=True)
            )
        )
        figures = " | ".join(f"{100 * run['datasets'][n]['tuned'][m]:.2f}" for n, m in columns)
        mark = " (chosen)" if mark_chosen and str(key) == str(cell["chosen"]) else ""
        seconds = run["training"]["seconds"]
        shown_seconds = "– (no training)" if "averaged" in run["training"] else f"{seconds:.0f}"
        lines.append(f"| {key}{mark} | {shown_seconds} | {figures} | {shown} |")
    lines.append("")
    return lines


#: The cells that take only the work folder, the data folder, the steps and the seed.
SIMPLE_CELLS = {
    "semeval_ablations": semeval_ablations,
    "semeval_frozen": semeval_frozen,
    "semeval_context": semeval_context,
    "semeval_sources": semeval_sources,
    "semeval_wic": semeval_wic,
    "semeval_seeds": semeval_seeds,
    "dwug_seeds": dwug_seeds,
    "semeval_soups": semeval_soups,
    "dwug_soups": dwug_soups,
}


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.tune", description=__doc__.splitlines()[0])
    parser.add_argument("--cells", default=",".join(CELLS), help="comma-separated: " + ", ".join(CELLS))
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300, help="training steps of every model")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", type=Path, default=Path("out/experiments-tune"), help="models and cell caches")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--out", type=Path, default=results_dir("tune"))
    parser.add_argument("--name", default="tune")
    parser.add_argument(
        "--multilingual-model",
        type=Path,
        default=Path("/work/models/multilingual-e5-small-q4"),
        help="the multilingual encoder of wug_multilingual",
    )
    parser.add_argument(
        "--mpnet-model",
        type=Path,
        default=Path("/work/models/all-mpnet-base-v2"),
        help="all-mpnet-base-v2 of semeval_unseen_mpnet (../shared/models/get-mpnet.sh)",
    )
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    json_file, md_file = args.out / f"{args.name}.json", args.out / f"{args.name}.md"
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    from wsd import machine

    args.work.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = json.loads(json_file.read_text(encoding="utf-8")) if json_file.is_file() else {}
    for cell in CELLS:  # cells measured before cells kept their own machine line ran on the page's machine
        if cell in results and "machine" not in results[cell]:
            results[cell]["machine"] = results["machine"]
    results |= {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "steps": args.steps,
        "seed": args.seed,
    }
    for cell in args.cells.split(","):
        if cell in DWUG_VARIANTS:
            results[cell] = dwug_kfold(
                args.work, args.data_dir, args.folds, args.steps, args.seed, cell, mpnet=args.mpnet_model
            )
        elif cell in SIMPLE_CELLS:
            results[cell] = SIMPLE_CELLS[cell](args.work, args.data_dir, args.steps, args.seed)
        elif cell in ("semeval_unseen", "semeval_unseen_long"):
            results[cell] = semeval_unseen(args.work, args.data_dir, args.steps, args.seed, cell.endswith("long"))
        elif cell == "semeval_distill":
            results[cell] = semeval_distill(args.work, args.data_dir, args.steps, args.seed, args.mpnet_model)
        elif cell == "semeval_sotu_distill":
            results[cell] = semeval_sotu_distill(args.work, args.data_dir, args.steps, args.seed, args.mpnet_model)
        elif cell == "semeval_unseen_mpnet":
            results[cell] = semeval_unseen(args.work, args.data_dir, args.steps, args.seed, base=args.mpnet_model)
        elif cell == "semeval_unseen_mpnet_seed1":  # the untuned MPNet is evaluated again on this cell's machine
            results[cell] = semeval_unseen(
                args.work, args.data_dir, args.steps, args.seed, base=args.mpnet_model, training_seed=1
            )
        elif cell in MULTILINGUAL_CELLS:
            results[cell] = wug_multilingual(
                args.work, args.data_dir, args.steps, args.seed, args.multilingual_model, cell
            )
        else:
            parser.error(f"unknown cell {cell!r}; choose from {', '.join(CELLS)}")
        results[cell] |= {"command": command_line(), "machine": machine.describe()}
        save_page(results, json_file, md_file, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
