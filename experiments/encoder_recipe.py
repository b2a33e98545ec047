"""Does a tuned MiniLM lose on SemEval only because the sense recipe was chosen for the untuned one? (issue 40)

Run from the repository root (minutes on 2 cores; reads vectors that other experiments stored)::

    python -m experiments.encoder_recipe [--family minilm|mpnet] [--mpnet-model DIR] [--data-dir DIR] [--work out] \\
        [--seed 0] [--markdown-only]

**Why.** The default sense recipe (:data:`wsd.senses.recipes.DEFAULT`, context weight 0.5, softmax temperature
0.04, graded output above 0.2 relative weight, at most 2 senses) was chosen for the untuned MiniLM on SemEval-2010
and the even half of the SemEval-2013 words (``experiments/results/ablate/quality.md``). Two of those settings are
in the encoder's units: the temperature is a cosine distance, and the context weight balances two vectors of the
same model. A tuned encoder spreads its cosines differently (the WiC-tuned models give a second sense to 19% of
the SemEval-2013 uses where the untuned one gives it to 31%), so scoring it with the untuned model's recipe asks
whether the *pair* (untuned recipe, tuned encoder) wins, not whether the encoder does.

**The protocol, fixed before any figure of this script** (the tuned encoders' SemEval figures under the default
recipe were seen before it was written; no figure under any other recipe was):

- *Encoders* (:data:`ENCODERS`): the untuned MiniLM; ``sense-minilm`` (the WiC + MCL-WiC en-en mix of
  ``sense_minilm.py``, seed 0); the model the second choice chose (``sense_minilm_inventory.py``: WiSE-FT 0.75,
  seeds 0 and 1; seed 2 added when it was built, after the others' figures, the rule and grid unchanged); for
  the record, the three other mixes of ``sense_minilm.py`` (WordNet; WordNet + WiC + MCL-WiC en-en, 300 and 1,000
  steps). None trained on a SemEval lemma. Their vectors are the ones the measuring
  experiments stored (``eval-DATASET-NAME/run``: target vector beside the context vector, as ``wsd evaluate``
  embeds them with the default embedding, stored in float16). The default row of each encoder is scored again
  from them, so it can differ from the published figure where rounding tips a near-tie of k.
- *The grid* (:data:`GRID`, the default's own dimensions and ranges in quality.md's protocol, coarser): context
  weight 0.3, 0.5, 0.7 (the context half of the stored vectors rescaled); temperature 0.02, 0.04, 0.08 or
  ``auto`` (the mean distance of a word's uses to their own sense's centroid: free of the encoder's scale);
  graded output threshold 0.1, 0.2, 0.3; at most 2 or 3 senses. Everything else stays the default (Ward,
  silhouette over 2..7, form centring 0.5, fewest uses to split 8).
- *The rule* (the default's own): for each encoder, the setting with the best mean of SemEval-2010 AVG and the
  AVG of the SemEval-2013 words at even alphabetical positions (``dev``); ties go to the earlier setting in the
  grid's order, the default first.
- *Held out*: the SemEval-2013 words at odd positions (``test``). The read-out is each tuned encoder with its own
  chosen recipe against the untuned encoder with its own chosen recipe on ``test`` (paired target-bootstrap 95%
  interval of the difference); the whole of SemEval-2013 (as issue 40's target of 34 and the default's 31.62 are
  stated, half of it choice data) and SemEval-2010 (all choice data) are shown beside it, marked.

- *DWUG EN read-out* (added after the SemEval figures of every seed, before any DWUG figure under a re-chosen
  recipe): the untuned MiniLM and the second choice's three seeds (:data:`DWUG_ENCODERS`), each with its own chosen
  context weight and temperature (the graded output plays no part there), score all 46 DWUG EN words, none of
  them in any training: ρ of PRT (the default change score), APD and the JSD of induced senses against the graded
  change, and ARI; word-bootstrap 95% intervals of tuned − untuned. The recipes were chosen on SemEval only, so
  DWUG is held out for them.

- *MPNet* (``--family mpnet --mpnet-model DIR``, declared 2026-12-07 before any figure of it; the three encoders'
  SemEval and DWUG figures under the default recipe were seen, none under another recipe). Issue 40 asks
  SemEval-2013 AVG ≥ 38 of MPNet tuned the same way; the Word-in-Context MPNet seeds of ``sense_mpnet.py`` score
  36.92 and 37.03 under the untuned MiniLM's recipe. The same question, grid, rule, halves and read-outs, with the
  encoders of :data:`MPNET_ENCODERS`: untuned all-mpnet-base-v2 and its Word-in-Context seeds 0 and 1
  (``out/experiments-sense-mpnet``: their stored vectors, and for DWUG EN the tuned folders and ``--mpnet-model``
  for the untuned one). The read-out is the held-out ``test`` half, tuned − untuned, each with its own recipe;
  ``all`` (half of it choice data) is shown as the issue states its target, marked so. Results in
  ``encoder_recipe-mpnet.md`` / ``.json``; the MiniLM page is not touched. Added after the figures of those
  three, the grid and the rule unchanged: ``sense_mpnet.py``'s WordNet mix, seed 0 (``--wordnet-seeds 0``).
  Added after the figures of those four (declared 2026-12-07 before any figure of them), the grid and the rule
  unchanged: ``sense_mpnet.py``'s WiSE-FT averages (0.25 untuned + 0.75 Word-in-Context seed 0, and seed 1;
  ``--wise-seeds 0,1``), read as the Word-in-Context seeds are (held-out ``test`` half, tuned − untuned, each
  with its own recipe). Seed 2 of both (``sense_mpnet.py``'s ``--seeds 0,1,2 --wise-seeds 0,1,2``, declared
  2026-12-07 after the figures of seeds 0 and 1, before any of seed 2) joins the same way.

Results: ``experiments/results/encoder_recipe/encoder_recipe.md`` / ``.json`` (MiniLM),
``encoder_recipe-mpnet.md`` / ``.json`` (MPNet).

The MPNet run::

    python -m experiments.encoder_recipe --family mpnet --mpnet-model /work/models/all-mpnet-base-v2
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from experiments.common import (
    BENCHMARKS,
    DEFAULT_DATA_DIR,
    align_rows,
    command_line,
    context_reweighted,
    evaluate_vectors,
    labelled_occurrences,
    log,
    results_dir,
    save_page,
    semeval2013_split,
)

RESULTS_JSON = results_dir("encoder_recipe") / "encoder_recipe.json"
DATASETS = ("semeval2013", "semeval2010")
#: Target-bootstrap resamples of the held-out difference.
N_BOOTSTRAP = 2000


class Encoder(NamedTuple):
    """One encoder of the comparison: where its stored vectors lie and what it is."""

    folder: str
    name: str
    label: str
    primary: bool
    #: The tuned model's folder under ``folder`` (empty: ``name``); its DWUG EN uses are embedded with it.
    model: str = ""


#: The encoders (fixed before any figure): ``out/<folder>/eval-<dataset>-<name>/run`` holds each one's vectors.
ENCODERS: dict[str, Encoder] = {
    "untuned": Encoder("experiments-sense-minilm-inventory", "untuned", "untuned MiniLM", True),
    "sense_minilm": Encoder("experiments-sense-minilm", "wic", "sense-minilm (WiC + MCL-WiC en-en, seed 0)", True),
    "inventory_seed0": Encoder(
        "experiments-sense-minilm-inventory", "wise_wic_075-seed0", "second choice (WiSE-FT 0.75), seed 0", True
    ),
    "inventory_seed1": Encoder(
        "experiments-sense-minilm-inventory", "wise_wic_075-seed1", "second choice (WiSE-FT 0.75), seed 1", True
    ),
    # added after the figures of seeds 0 and 1 (the rule and the grid unchanged): the third training seed
    "inventory_seed2": Encoder(
        "experiments-sense-minilm-inventory", "wise_wic_075-seed2", "second choice (WiSE-FT 0.75), seed 2", True
    ),
    "wordnet": Encoder("experiments-sense-minilm", "wordnet", "WordNet, 300 steps", False),
    "wordnet_wic": Encoder(
        "experiments-sense-minilm", "wordnet_wic", "WordNet + WiC + MCL-WiC en-en, 300 steps", False
    ),
    "wordnet_wic_long": Encoder(
        "experiments-sense-minilm", "wordnet_wic_long", "WordNet + WiC + MCL-WiC en-en, 1,000 steps", False
    ),
}


#: The encoders of the DWUG EN read-out (fixed before any of its figures).
DWUG_ENCODERS = ("untuned", "inventory_seed0", "inventory_seed1", "inventory_seed2")

#: The MPNet encoders (declared before any figure under another recipe): ``sense_mpnet.py``'s stored vectors.
MPNET_ENCODERS: dict[str, Encoder] = {
    "untuned": Encoder("experiments-sense-mpnet", "untuned", "untuned MPNet", True),
    "wic_seed0": Encoder("experiments-sense-mpnet", "seed0", "MPNet, Word-in-Context seed 0", True, "wic-seed0"),
    "wic_seed1": Encoder("experiments-sense-mpnet", "seed1", "MPNet, Word-in-Context seed 1", True, "wic-seed1"),
    # added after the figures of the three above (the rule and the grid unchanged): sense_mpnet's WordNet mix
    "wordnet_seed0": Encoder(
        "experiments-sense-mpnet", "wordnet-seed0", "MPNet, WordNet seed 0", True, "wordnet-seed0"
    ),
    # added after the figures of the four above (the rule and the grid unchanged): sense_mpnet's WiSE-FT averages
    "wise_seed0": Encoder("experiments-sense-mpnet", "wise-seed0", "MPNet, WiSE-FT 0.75 seed 0", True, "wise-seed0"),
    "wise_seed1": Encoder("experiments-sense-mpnet", "wise-seed1", "MPNet, WiSE-FT 0.75 seed 1", True, "wise-seed1"),
    # added after the figures of seeds 0 and 1 (the rule and the grid unchanged): seed 2 of both
    "wic_seed2": Encoder("experiments-sense-mpnet", "seed2", "MPNet, Word-in-Context seed 2", True, "wic-seed2"),
    "wise_seed2": Encoder("experiments-sense-mpnet", "wise-seed2", "MPNet, WiSE-FT 0.75 seed 2", True, "wise-seed2"),
}


class Family(NamedTuple):
    """One comparison: its encoders, those of its DWUG EN read-out, where its results go and its page's title."""

    encoders: dict[str, Encoder]
    dwug: tuple[str, ...]
    results_json: Path
    title: str


FAMILIES: dict[str, Family] = {
    "minilm": Family(
        ENCODERS, DWUG_ENCODERS, RESULTS_JSON, "A tuned MiniLM with a sense recipe chosen for it (issue 40)"
    ),
    "mpnet": Family(
        MPNET_ENCODERS,
        tuple(MPNET_ENCODERS),
        RESULTS_JSON.with_name("encoder_recipe-mpnet.json"),
        "A tuned MPNet with a sense recipe chosen for it (issue 40)",
    ),
}


class Setting(NamedTuple):
    """One recipe of the grid: the context weight and the graded-output settings."""

    context_weight: float
    temperature: float | str
    min_weight: float
    top: int

    def label(self) -> str:
        """The setting as the tables print it."""
        return f"ctx {self.context_weight:g}, T {self.temperature}, > {self.min_weight:g}, ≤ {self.top}"


DEFAULT_SETTING = Setting(0.5, 0.04, 0.2, 2)
#: The grid, the default first (the rule breaks ties by this order).
TEMPERATURES: tuple[float | str, ...] = (0.02, 0.04, 0.08, "auto")
GRID: list[Setting] = [DEFAULT_SETTING] + [
    s
    for s in (
        Setting(weight, temperature, threshold, top)
        for weight, temperature, threshold, top in itertools.product(
            (0.3, 0.5, 0.7), TEMPERATURES, (0.1, 0.2, 0.3), (2, 3)
        )
    )
    if s != DEFAULT_SETTING
]


def stored_vectors(work: Path, encoder: Encoder, dataset: str, data_dir: Path) -> tuple[np.ndarray, float]:
    """The vectors ``wsd evaluate`` stored for one encoder and dataset, row-aligned with the benchmark's labelled
    occurrences (float32), and the context weight they were stored with."""
    from wsd.embed.context import parse_context

    run = work / encoder.folder / f"eval-{dataset}-{encoder.name}" / "run"
    if not (run / "vectors.npy").is_file():
        raise SystemExit(
            f"{run}: no stored vectors; run the experiment that measures this encoder first "
            f"(experiments/{encoder.folder.removeprefix('experiments-').replace('-', '_')}.py: its docstring gives "
            "the command)"
        )
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    context = parse_context(meta["embedding"].get("context_vector"))
    if context is None:
        raise SystemExit(f"{run}: its vectors have no context vector, so the context weight cannot be varied")
    occurrences = pd.read_parquet(run / "occurrences.parquet")
    vectors = np.load(run / "vectors.npy", allow_pickle=False).astype(np.float32)
    rows = align_rows(occurrences, labelled_occurrences(BENCHMARKS[dataset], data_dir))
    return vectors[rows], context.weight


def score(dataset: str, data_dir: Path, vectors: np.ndarray, setting: Setting) -> dict[str, Any]:
    """The benchmark's scores of one setting: overall and per target (fractions)."""
    from wsd.senses.recipes import DEFAULT, DEFAULT_OUTPUT

    senses = dict(DEFAULT) | {"temperature": setting.temperature}
    output = dict(DEFAULT_OUTPUT) | {"min_weight": setting.min_weight, "top": setting.top}
    found = evaluate_vectors(BENCHMARKS[dataset], data_dir, vectors, senses, 1, 1, output)
    return {"overall": found["overall"], "per_target": found["per_target"]}


def halves(per_target: dict[str, dict[str, float]]) -> dict[str, list[str]]:
    """SemEval-2013's two halves of its words: ``dev`` (even alphabetical positions) and ``test`` (odd)."""
    return semeval2013_split(list(per_target))


def semeval2013_avg(per_target: dict[str, dict[str, float]], words: list[str]) -> float:
    """SemEval-2013 AVG of some words, pooled as the official scorer pools them (fraction)."""
    from experiments.tune import _semeval_avg

    frame = pd.DataFrame([per_target[w] for w in words])
    return float(_semeval_avg(frame, "semeval2013", np.arange(len(words))[None, :])[0])


def bootstrap_difference(
    tuned: dict[str, dict[str, float]], base: dict[str, dict[str, float]], words: list[str], seed: int
) -> list[float]:
    """Paired target-bootstrap 95% interval of SemEval-2013 AVG over ``words``, tuned − untuned (×100)."""
    from experiments.tune import _semeval_avg

    frames = [pd.DataFrame([found[w] for w in words]) for found in (tuned, base)]
    rows = np.random.default_rng(seed).integers(0, len(words), size=(N_BOOTSTRAP, len(words)))
    difference = 100 * (_semeval_avg(frames[0], "semeval2013", rows) - _semeval_avg(frames[1], "semeval2013", rows))
    return [float(np.percentile(difference, 2.5)), float(np.percentile(difference, 97.5))]


def measure_encoder(work: Path, data_dir: Path, key: str, encoder: Encoder) -> dict[str, Any]:
    """Every setting of the grid on one encoder; its chosen setting (the rule above)."""
    stored = {dataset: stored_vectors(work, encoder, dataset, data_dir) for dataset in DATASETS}
    rows: list[dict[str, Any]] = []
    by_weight: dict[float, dict[str, Any]] = {}
    for setting in GRID:
        vectors_2013, weight_2013 = stored["semeval2013"]
        vectors = context_reweighted(vectors_2013, setting.context_weight, weight_2013)
        found = score("semeval2013", data_dir, vectors, setting)
        if setting.context_weight not in by_weight:
            # SemEval-2010's scorer reads each use's highest-weighted sense: only the context weight moves it.
            vectors_2010, weight_2010 = stored["semeval2010"]
            by_weight[setting.context_weight] = score(
                "semeval2010", data_dir, context_reweighted(vectors_2010, setting.context_weight, weight_2010), setting
            )
        split = halves(found["per_target"])
        row = {
            "setting": setting._asdict(),
            "semeval2013": {
                "all": found["overall"]["avg"],
                **{half: semeval2013_avg(found["per_target"], words) for half, words in split.items()},
            },
            "semeval2010": by_weight[setting.context_weight]["overall"]["avg"],
            "per_target_2013": found["per_target"],
        }
        row["choice"] = (row["semeval2010"] + row["semeval2013"]["dev"]) / 2
        rows.append(row)
        log(f"{key}: {setting.label()}: choice {100 * row['choice']:.2f}, test {100 * row['semeval2013']['test']:.2f}")
    chosen = max(range(len(rows)), key=lambda i: (rows[i]["choice"], -i))
    for index, row in enumerate(rows):
        if index not in (0, chosen):  # only the two rows the page compares keep their per-word scores
            del row["per_target_2013"]
    return {"label": encoder.label, "primary": encoder.primary, "rows": rows, "chosen": chosen}


def tuned_model(work: Path, family: Family, key: str) -> str:
    """The model folder of one tuned encoder of a family (its DWUG EN uses are embedded with it)."""
    encoder = family.encoders[key]
    return str(work / encoder.folder / (encoder.model or encoder.name))


def dwug_readout(
    work: Path,
    data_dir: Path,
    results: dict[str, Any],
    seed: int,
    family: Family = FAMILIES["minilm"],
    base_model: str | None = None,
) -> dict[str, Any]:
    """DWUG EN over all 46 words, each encoder of the family's read-out with its own chosen recipe.

    ``base_model`` is the untuned encoder's folder (``None``: the bundled MiniLM).
    """
    from experiments.tune import _dwug_gold, pooled, word_figures
    from experiments.tune import bootstrap_difference as word_bootstrap

    bundle, gold, column = _dwug_gold(data_dir)
    words = sorted(gold)
    found: dict[str, Any] = {}
    base: dict[str, dict[str, float]] = {}
    for key in family.dwug:
        measured = results["encoders"][key]
        setting = Setting(**measured["rows"][measured["chosen"]]["setting"])
        model = base_model if key == "untuned" else tuned_model(work, family, key)
        figures = word_figures(bundle, words, model, setting.context_weight, {"temperature": setting.temperature})
        entry: dict[str, Any] = {"setting": setting._asdict(), "pooled": pooled(figures, gold)}
        if key == "untuned":
            base = figures
        else:
            entry["intervals"] = word_bootstrap(figures, base, gold, seed)
        found[key] = entry
        log(f"DWUG {key}: {json.dumps(entry['pooled'])}")
    return {"gold": column, "words": len(words), "encoders": found}


def run(
    work: Path, data_dir: Path, seed: int, family: Family = FAMILIES["minilm"], base_model: str | None = None
) -> dict[str, Any]:
    """The whole experiment (see the module docstring); each encoder cached in ``results`` as it finishes."""
    from wsd.machine import describe

    results: dict[str, Any] = {
        "command": command_line(),
        "machine": describe(),
        "date": time.strftime("%Y-%m-%d"),
        "grid": [s._asdict() for s in GRID],
        "encoders": {},
    }
    earlier = json.loads(family.results_json.read_text(encoding="utf-8")) if family.results_json.is_file() else {}
    for key, encoder in family.encoders.items():
        kept = earlier.get("encoders", {}).get(key)
        same_grid = earlier.get("grid") == results["grid"]
        if kept and same_grid and kept["label"] == encoder.label:
            results["encoders"][key] = kept  # measured before on the same grid: kept, not measured again
            continue
        results["encoders"][key] = measure_encoder(work, data_dir, key, encoder)
    results["base_model"] = base_model  # the untuned row's encoder: a cached read-out of another one is not reused
    same = (
        earlier.get("grid") == results["grid"]
        and earlier.get("base_model", base_model) == base_model
        and all(
            earlier.get("encoders", {}).get(key, {}).get("chosen") == results["encoders"][key]["chosen"]
            for key in family.dwug
        )
    )
    if same and "dwug" in earlier:
        results["dwug"] = earlier["dwug"]
    else:
        results["dwug"] = dwug_readout(work, data_dir, results, seed, family, base_model)
    base = results["encoders"]["untuned"]
    words = halves(base["rows"][0]["per_target_2013"])
    for key, found in results["encoders"].items():
        if key == "untuned":
            continue
        pairs = {"default": (0, 0), "chosen": (found["chosen"], base["chosen"])}
        found["test_interval"] = {
            recipe: bootstrap_difference(
                found["rows"][index]["per_target_2013"],
                base["rows"][base_index]["per_target_2013"],
                words["test"],
                seed,
            )
            for recipe, (index, base_index) in pairs.items()
        }
    return results


def markdown(results: dict[str, Any]) -> str:
    """The results page: per encoder, the default recipe and its own chosen recipe, then the held-out comparison."""

    def pct(value: float) -> str:
        return f"{100 * value:.2f}"

    base = results["encoders"]["untuned"]
    split = {half: len(words) for half, words in halves(base["rows"][0]["per_target_2013"]).items()}
    lines = [
        f"# {results.get('title', FAMILIES['minilm'].title)}",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}; {results['date']}",
        f"- Grid: {len(results['grid'])} settings (context weight × temperature × graded threshold × at most k "
        "senses); the rule: best mean of SemEval-2010 AVG and SemEval-2013 `dev` AVG (the default recipe's protocol).",
        f"- `test` (the {split['test']} SemEval-2013 words at odd alphabetical positions) chose nothing; `dev` (the "
        f"other {split['dev']}), SemEval-2010 and so half of `all` did.",
        "- Every row is scored again from the float16 vectors `wsd evaluate` stored, so a default row can differ from "
        "that run's published figure where rounding tips a near-tie of k.",
        "",
        "| encoder | recipe | setting | choice | 2013 dev | 2013 test | 2013 all | 2010 |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for found in results["encoders"].values():
        for recipe, index in (("default", 0), ("its own", found["chosen"])):
            row = found["rows"][index]
            setting = Setting(**row["setting"])
            lines.append(
                f"| {found['label']}{'' if found['primary'] else ' *(record)*'} | {recipe} | {setting.label()} | "
                f"{pct(row['choice'])} | {pct(row['semeval2013']['dev'])} | **{pct(row['semeval2013']['test'])}** | "
                f"{pct(row['semeval2013']['all'])} | {pct(row['semeval2010'])} |"
            )
    lines += [
        "",
        "Held out: SemEval-2013 `test` AVG, tuned − untuned, each with the default recipe and each with its own chosen "
        "recipe (paired target-bootstrap 95% interval, ×100):",
        "",
        "| encoder | default recipe | own recipes |",
        "|---|---|---|",
    ]
    for key, found in results["encoders"].items():
        if key == "untuned":
            continue
        cells = []
        for recipe, index, base_index in (("default", 0, 0), ("chosen", found["chosen"], base["chosen"])):
            delta = found["rows"][index]["semeval2013"]["test"] - base["rows"][base_index]["semeval2013"]["test"]
            low, high = found["test_interval"][recipe]
            cells.append(f"{100 * delta:+.2f} [{low:+.2f}, {high:+.2f}]")
        lines.append(f"| {found['label']} | {cells[0]} | {cells[1]} |")
    lines += seed_means(results)
    if "dwug" in results:
        lines += dwug_markdown(results)
    return "\n".join(lines) + "\n"


def seed_means(results: dict[str, Any]) -> list[str]:
    """Per encoder with several seeds (labels ``… seed N``), the mean over its seeds with their own recipes.

    >>> rows = [{"semeval2013": {"test": t, "all": t + 0.01}} for t in (0.3749, 0.3893)]
    >>> found = {f"s{n}": {"label": f"MPNet, X seed {n}", "chosen": 0, "rows": [rows[n]]} for n in (0, 1)}
    >>> seed_means({"encoders": found | {"u": {"label": "untuned", "chosen": 0, "rows": [rows[0]]}}})[-1]
    '| MPNet, X | 0, 1 | 38.21 | 39.21 |'
    """
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for found in results["encoders"].values():
        prefix, _, seed = found["label"].rpartition(" seed ")
        prefix = prefix.rstrip(", ")
        if prefix and seed.isdigit():
            groups.setdefault(prefix, []).append((seed, found["rows"][found["chosen"]]["semeval2013"]))
    groups = {prefix: members for prefix, members in groups.items() if len(members) > 1}
    if not groups:
        return []
    lines = [
        "",
        "Over seeds: the mean SemEval-2013 AVG of each encoder's seeds, each seed with its own chosen recipe (×100):",
        "",
        "| encoder | seeds | 2013 test (mean) | 2013 all (mean) |",
        "|---|---|---:|---:|",
    ]
    for prefix, members in groups.items():
        test = 100 * float(np.mean([scores["test"] for _, scores in members]))
        whole = 100 * float(np.mean([scores["all"] for _, scores in members]))
        lines.append(f"| {prefix} | {', '.join(seed for seed, _ in members)} | {test:.2f} | {whole:.2f} |")
    return lines


def dwug_markdown(results: dict[str, Any]) -> list[str]:
    """The DWUG EN read-out: each encoder with its own recipe, ρ against the graded change and ARI."""
    dwug = results["dwug"]
    lines = [
        "",
        f"DWUG EN, all {dwug['words']} words (none in any training), each encoder with its own chosen recipe (held "
        f"out for the recipes, chosen on SemEval); ρ is Spearman's against `{dwug['gold']}`; [a, b]: word-bootstrap "
        "95% interval of tuned − untuned:",
        "",
        "| encoder | setting | ρ PRT | ρ APD | ρ JSD | ARI (one sense) |",
        "|---|---|---|---|---|---|",
    ]
    for key, entry in dwug["encoders"].items():
        figures, ci = entry["pooled"], entry.get("intervals", {})
        cells = []
        for measure in ("prt", "apd", "jsd"):
            value = f"{figures[f'rho_{measure}']:.3f}"
            if f"rho_{measure}_difference" in ci:
                low, high = ci[f"rho_{measure}_difference"]
                value += f" [{low:+.3f}, {high:+.3f}]"
            cells.append(value)
        ari = f"{100 * figures['ari']:.1f} ({100 * figures['ari_one_sense']:.1f})"
        label = results["encoders"][key]["label"]
        lines.append(f"| {label} | {Setting(**entry['setting']).label()} | {' | '.join(cells)} | {ari} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--work", type=Path, default=Path("out"), help="the folder holding the experiments' work")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the page from the stored JSON")
    parser.add_argument("--family", choices=sorted(FAMILIES), default="minilm", help="which encoders to compare")
    parser.add_argument("--mpnet-model", type=Path, help="the untuned MPNet folder (--family mpnet)")
    args = parser.parse_args(argv)
    family = FAMILIES[args.family]
    if args.family == "mpnet" and not args.markdown_only and args.mpnet_model is None:
        parser.error("--family mpnet needs --mpnet-model DIR (the untuned MPNet's DWUG EN vectors are embedded)")
    if args.family != "mpnet" and args.mpnet_model is not None:
        parser.error("--mpnet-model belongs to --family mpnet (the MiniLM family's untuned row is the bundled model)")
    if args.markdown_only:
        results = json.loads(family.results_json.read_text(encoding="utf-8"))
    else:
        base_model = None if args.mpnet_model is None else str(args.mpnet_model)
        results = run(args.work, args.data_dir, args.seed, family, base_model)
    results.setdefault("title", family.title)
    save_page(results, family.results_json, family.results_json.with_suffix(".md"), markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
