"""Choosing ``sense-minilm`` again, with a sense-inventory measure among the choice data (issue 40, part 4).

Run from the repository root (hours on 2 cores; resumes from ``--work``)::

    python -m experiments.sense_minilm_inventory [--seeds 0,1,2] [--stage choice|measures] \\
        [--data-dir DIR] [--work out/experiments-sense-minilm-inventory] [--mixes out/experiments-sense-minilm]

**Why a second choice.** ``experiments/sense_minilm.py`` chose its mix on Word-in-Context pairs alone; the mix it
chose (WiC + MCL-WiC en-en, one epoch) gains on DWUG EN and the dev sets and loses on SemEval-2013 and 2010, whose
senses are WordNet's. A choice that sees only WiC-style pairs cannot see that loss. This protocol adds a choice
measure drawn from a sense inventory, on lemmas no candidate trained on, and adds candidates that keep part of the
untuned model (weight averages, which cost no training).

**The protocol, fixed before any figure of this script** (the test figures of the four mixes of
``sense_minilm.md`` were seen before it was written: the candidates below are not blind to them, which is why the
choice is made by a rule on choice data only, and why the chosen model is measured across seeds).

- *Lemmas.* The benchmark lemmas (SemEval-2013, SemEval-2010, DWUG EN) and the 412 choice lemmas of
  ``sense_minilm.py`` (its seed 0): every candidate left all of them out of training (the lists are the ones
  ``wsd/tune/recipe_data/sense-minilm-excluded.txt`` ships; the script checks they agree).
- *Choice measures* (both ROC AUC of the cosine of the two target vectors, threshold-free):
  (a) the 1,192 WiC / MCL-WiC en-en pairs of the choice lemmas (``sense_minilm.py``'s ``choice.tsv``);
  (b) *WordNet pairs* of the choice lemmas: every pair of WordNet 3.0 example sentences of one choice lemma and
  part of speech, "same" when both exemplify one synset, "different" when two (no glosses; the reader of
  :mod:`wsd.tune.wordnet`). This is the sense-inventory measure: WordNet's fine-grained senses are the ones
  SemEval-2013 and 2010 are scored against. A sentence of a choice lemma may also be a training use of another
  word in it (the sentence, not the target, can have been seen).
- *Candidates* (:data:`CANDIDATES`): the four mixes of ``sense_minilm.py`` (the models it trained, reused, or
  trained again the same deterministic way); WiSE-FT interpolations of the untuned MiniLM with the WiC mix
  (tuned weight 0.25, 0.5, 0.75) and with the long full mix (0.5); the uniform soup of the WordNet mix and the
  WiC mix. No coefficient was tuned: 0.25/0.5/0.75 are a fixed grid.
- *The rule.* A candidate qualifies when both of its choice AUCs are at least the untuned model's. The chosen one
  is the qualifier with the highest mean of its two choice AUCs; if none qualifies, the untuned model stays.
- *Seeds.* The chosen candidate is built again with training seeds 1 and 2 (its trained ingredients retrained
  with that seed, then averaged with the same weights) and each seed gets every measure.
- *The measures* (``sense_minilm.py``'s, none of which chose anything): SemEval-2013 and SemEval-2010 AVG
  (``wsd evaluate``, default recipe), DWUG EN over all 46 words (ρ of PRT, APD, JSD; ARI), WiC dev and MCL-WiC
  dev en-en (accuracy of a lemma-cross-validated threshold, ROC AUC), beside the untuned MiniLM in the same run.
- *Part 4's condition* is read from the mean over the seeds: the chosen model beats the untuned one on every
  column. The page says per column whether it does, and gives the seed range.

Results: ``experiments/results/sense_minilm_inventory/sense_minilm_inventory.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, save_page
from experiments.sense_minilm import DEV_SETS, MIXES, SOURCES, _spec, lemma_lists, measures, pair_scores
from experiments.sense_minilm import write_choice_pairs as write_wic_choice_pairs
from experiments.tune import semeval_interval

RESULTS_JSON = results_dir("sense_minilm_inventory") / "sense_minilm_inventory.json"
RESULTS_MD = results_dir("sense_minilm_inventory") / "sense_minilm_inventory.md"
SHIPPED_LEMMAS = Path(__file__).resolve().parent.parent / "wsd" / "tune" / "recipe_data" / "sense-minilm-excluded.txt"


class Candidate(NamedTuple):
    """A candidate model: the mixes it averages (``None`` is the untuned MiniLM) and their weights."""

    label: str
    ingredients: tuple[str | None, ...]
    weights: tuple[float, ...]


#: The candidates, fixed before any figure (module docstring). A single ingredient is the trained mix itself.
CANDIDATES: dict[str, Candidate] = {
    **{key: Candidate(mix.label, (key,), (1.0,)) for key, mix in MIXES.items()},
    "wise_wic_025": Candidate("WiSE-FT: 0.75 untuned + 0.25 WiC mix", (None, "wic"), (0.75, 0.25)),
    "wise_wic_050": Candidate("WiSE-FT: 0.5 untuned + 0.5 WiC mix", (None, "wic"), (0.5, 0.5)),
    "wise_wic_075": Candidate("WiSE-FT: 0.25 untuned + 0.75 WiC mix", (None, "wic"), (0.25, 0.75)),
    "wise_long_050": Candidate(
        "WiSE-FT: 0.5 untuned + 0.5 full mix (1,000 steps)", (None, "wordnet_wic_long"), (0.5, 0.5)
    ),
    "soup_wordnet_wic": Candidate("soup: 0.5 WordNet mix + 0.5 WiC mix", ("wordnet", "wic"), (0.5, 0.5)),
}
CHOICE_MEASURES = {"wic_pairs": "WiC-style pairs", "wordnet_pairs": "WordNet pairs"}


def write_wordnet_choice_pairs(data_dir: Path, choice: list[str], path: Path) -> dict[str, int]:
    """Every WordNet example-sentence pair of the choice lemmas, in the XL-WiC layout; its counts."""
    from wsd.tune import wordnet

    if path.is_file():
        labels = [line.rsplit("\t", 1)[1].strip() for line in path.open(encoding="utf-8")]
        return {"pairs": len(labels), "same": labels.count("1"), "lemmas": -1}
    chosen = set(choice)
    pairset = wordnet.load(data_dir / "wordnet-3.0", glosses=False, max_pairs_per_lemma=None)
    uses = pairset.uses.set_index("use_id")
    lines, lemmas = [], set()
    for row in pairset.pairs.itertuples(index=False):
        if row.lemma not in chosen:
            continue
        one, two = uses.loc[row.use_id_1], uses.loc[row.use_id_2]
        fields = [row.lemma, "X", one.start, one.end, two.start, two.end, one.text, two.text, int(row.label)]
        lines.append("\t".join(str(field).replace("\t", " ") for field in fields))
        lemmas.add(row.lemma)
    partial = path.with_suffix(".partial")
    partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial.replace(path)
    return {"pairs": len(lines), "same": sum(line.endswith("\t1") for line in lines), "lemmas": len(lemmas)}


def mix_folder(work: Path, mixes: Path, key: str, seed: int) -> Path:
    """The trained mix ``key`` of one seed: seed 0 from ``sense_minilm.py``'s work folder, others trained here."""
    return mixes / f"mix-{key}" if seed == 0 else work / f"mix-{key}-seed{seed}"


def build(work: Path, mixes: Path, data_dir: Path, key: str, seed: int, excluded: list[str]) -> tuple[Path, Any]:
    """The model folder of a candidate and seed (trained or averaged unless built); what was done."""
    from experiments.tune import _average, training_summary, tune

    candidate = CANDIDATES[key]
    trained: dict[str, Path] = {}
    facts: dict[str, Any] = {}
    for mix_key in {name for name in candidate.ingredients if name is not None}:
        folder = mix_folder(work, mixes, mix_key, seed)
        sources = [_spec(data_dir, SOURCES[name]) for name in MIXES[mix_key].sources]
        found = tune(folder, sources, steps=MIXES[mix_key].steps, seed=seed, exclude_lemmas=excluded)
        trained[mix_key] = folder
        facts[mix_key] = training_summary(found)
    if len(candidate.ingredients) == 1:
        return trained[candidate.ingredients[0]], facts  # type: ignore[index]
    folder = work / f"{key}-seed{seed}"
    models = [None if name is None else str(trained[name]) for name in candidate.ingredients]
    facts["averaged"] = _average(folder, models, candidate.weights)
    return folder, facts


def choose(choice_rows: dict[str, dict[str, Any]], untuned: dict[str, Any]) -> str | None:
    """The rule of the module docstring: the qualifier with the highest mean choice AUC, or None."""
    qualifiers = {
        key: float(np.mean([row[name]["auc"] for name in CHOICE_MEASURES]))
        for key, row in choice_rows.items()
        if all(row[name]["auc"] >= untuned[name]["auc"] for name in CHOICE_MEASURES)
    }
    return max(qualifiers, key=lambda key: qualifiers[key]) if qualifiers else None


def run(work: Path, mixes: Path, data_dir: Path, seeds: list[int], stage: str) -> dict[str, Any]:
    """The whole experiment (module docstring); every model and measure cached under ``work``."""
    from wsd import machine

    work.mkdir(parents=True, exist_ok=True)
    benchmark, choice = lemma_lists(data_dir, 0)
    excluded = sorted({*benchmark, *choice})
    shipped = SHIPPED_LEMMAS.read_text(encoding="utf-8").split()
    if sorted(shipped) != excluded:
        raise SystemExit(f"the lemma lists differ from {SHIPPED_LEMMAS}: the protocol's premise does not hold")
    wic_file, wordnet_file = work / "choice-wic.tsv", work / "choice-wordnet.tsv"
    counts = {"wic_pairs": write_wic_choice_pairs(data_dir, choice, wic_file)}
    wordnet_counts = write_wordnet_choice_pairs(data_dir, choice, wordnet_file)
    counts["wordnet_pairs"] = wordnet_counts["pairs"]
    log(f"choice pairs: {counts}; WordNet {wordnet_counts}")
    earlier = json.loads(RESULTS_JSON.read_text(encoding="utf-8")) if RESULTS_JSON.is_file() else {}
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "seeds": seeds,
        "excluded_lemmas": len(excluded),
        "choice_lemmas": len(choice),
        "choice_pairs": counts,
        "wordnet_same": wordnet_counts["same"],
        "candidates": {},
    }
    # the measures already made stay on the page while the choice is read again (and a run cut short keeps them)
    results |= {key: earlier[key] for key in ("candidates", "chosen", "untuned", "measures") if key in earlier}
    files = {"wic_pairs": wic_file, "wordnet_pairs": wordnet_file}
    results["untuned_choice"] = earlier.get("untuned_choice") or {
        name: pair_scores(path, None) for name, path in files.items()
    }
    for key, candidate in CANDIDATES.items():
        row = earlier.get("candidates", {}).get(key)
        if not (row and row.get("label") == candidate.label and "choice" in row):
            folder, built = build(work, mixes, data_dir, key, 0, excluded)
            row = {"label": candidate.label, "built": built, "choice": {}}
            for name, path in files.items():
                row["choice"][name] = pair_scores(path, str(folder))
            log(f"{key}: " + ", ".join(f"{name} AUC {row['choice'][name]['auc']:.4f}" for name in files))
        results["candidates"][key] = row
        save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    chosen = choose({key: row["choice"] for key, row in results["candidates"].items()}, results["untuned_choice"])
    results["chosen"] = chosen
    save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    if stage == "choice" or chosen is None:
        return results
    results["untuned"] = results.get("untuned") or measures(work, data_dir, None, "untuned", 0)
    results["measures"] = dict(results.get("measures", {}))
    for seed in seeds:
        if str(seed) in results["measures"]:
            continue
        folder, built = build(work, mixes, data_dir, chosen, seed, excluded)
        found = measures(work, data_dir, str(folder), f"{chosen}-seed{seed}", seed)
        results["measures"][str(seed)] = {"built": built, **found}
        save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    for seed, found in results["measures"].items():
        if "semeval_intervals" not in found:
            found["semeval_intervals"] = {
                dataset: semeval_interval(work, f"{chosen}-seed{seed}", "untuned", dataset, int(seed))
                for dataset in ("semeval2013", "semeval2010")
            }
    save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    return results


def columns(found: dict[str, Any]) -> dict[str, float]:
    """The measures of one model as the page's columns (higher is better in each)."""
    pooled = found["dwug"]["pooled"]
    values = {
        "SemEval-2013 AVG": 100 * found["semeval"]["semeval2013"]["avg"],
        "SemEval-2010 AVG": 100 * found["semeval"]["semeval2010"]["avg"],
        "DWUG ρ PRT": pooled["rho_prt"],
        "DWUG ρ APD": pooled["rho_apd"],
        "DWUG ρ JSD": pooled["rho_jsd"],
        "DWUG ARI": 100 * pooled["ari"],
    }
    for label in DEV_SETS:
        values[f"{label} accuracy"] = found["dev"][label]["accuracy"]
        values[f"{label} AUC"] = found["dev"][label]["auc"]
    return values


def _auc(entry: dict[str, Any]) -> str:
    low, high = entry.get("auc_ci", (None, None))
    return f"{entry['auc']:.3f}" + (f" [{low:.3f}, {high:.3f}]" if low is not None else "")


def markdown(results: dict[str, Any]) -> str:
    """The results page: the choice table, then the chosen model's measures per seed beside the untuned model."""
    counts = results["choice_pairs"]
    lines = [
        "# Choosing sense-minilm with a sense-inventory measure (issue 40)",
        "",
        f"Command: `{results['command']}`  ",
        f"Machine: {results['machine']}; {results['date']}; seeds {', '.join(map(str, results['seeds']))}.",
        "",
        f"Every candidate left out the {results['excluded_lemmas']} lemmas of `sense-minilm-excluded.txt` "
        f"(SemEval-2013, SemEval-2010, DWUG EN and {results['choice_lemmas']} choice lemmas). The choice measures "
        f"are the ROC AUC of the cosine on {counts['wic_pairs']:,} WiC / MCL-WiC en-en pairs and on "
        f"{counts['wordnet_pairs']:,} WordNet example-sentence pairs ({results['wordnet_same']:,} same-synset) of the "
        "choice lemmas; a candidate qualifies when both are at least the untuned model's, and the qualifier with the "
        "highest mean is chosen. The protocol is in `experiments/sense_minilm_inventory.py`'s docstring, fixed "
        "before any figure of it.",
        "",
        "## The choice",
        "",
        "| candidate | WiC-style pairs AUC [95%] | WordNet pairs AUC [95%] | mean |",
        "|---|---|---|---:|",
    ]
    untuned = results["untuned_choice"]
    lines.append(
        f"| untuned MiniLM | {_auc(untuned['wic_pairs'])} | {_auc(untuned['wordnet_pairs'])} | "
        f"{np.mean([untuned[n]['auc'] for n in CHOICE_MEASURES]):.3f} |"
    )
    for key, row in results["candidates"].items():
        mark = " **(chosen)**" if results.get("chosen") == key else ""
        choice = row["choice"]
        lines.append(
            f"| {row['label']}{mark} | {_auc(choice['wic_pairs'])} | {_auc(choice['wordnet_pairs'])} | "
            f"{np.mean([choice[n]['auc'] for n in CHOICE_MEASURES]):.3f} |"
        )
    if results.get("chosen") is None and "chosen" in results:
        lines += ["", "No candidate qualified: the untuned MiniLM stays."]
    measured = results.get("measures") or {}
    if measured and "untuned" in results:
        base = columns(results["untuned"])
        per_seed = {seed: columns(found) for seed, found in measured.items()}
        lines += [
            "",
            f"## Every English measure of the chosen model ({results['candidates'][results['chosen']]['label']})",
            "",
            "None of these chose anything. SemEval AVG ×100 (default recipe); DWUG EN all 46 words, ρ against graded "
            "change, ARI ×100; dev sets: accuracy of a lemma-cross-validated cosine threshold and ROC AUC.",
            "",
            "| measure | untuned | " + " | ".join(f"seed {seed}" for seed in per_seed) + " | mean | beats untuned |",
            "|---|---:|" + "---:|" * len(per_seed) + "---:|---|",
        ]
        for column, value in base.items():
            seeds = [row[column] for row in per_seed.values()]
            digits = 2 if "AVG" in column else (1 if "ARI" in column else 3)
            mean = float(np.mean(seeds))
            lines.append(
                f"| {column} | {value:.{digits}f} | "
                + " | ".join(f"{s:.{digits}f}" for s in seeds)
                + f" | {mean:.{digits}f} | {'yes' if mean > value else '**no**'} |"
            )
        intervals = [
            f"seed {seed}: "
            + ", ".join(
                f"{label} {found['semeval_intervals'][dataset][0]:+.2f} to "
                f"{found['semeval_intervals'][dataset][1]:+.2f}"
                for dataset, label in (("semeval2013", "SemEval-2013"), ("semeval2010", "SemEval-2010"))
            )
            for seed, found in measured.items()
            if "semeval_intervals" in found
        ]
        if intervals:
            lines += [
                "",
                "SemEval AVG, tuned − untuned, target-bootstrap 95% interval (1,000 paired resamples of the targets, "
                "×100): " + "; ".join(intervals) + ".",
            ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.sense_minilm_inventory", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--work", type=Path, default=Path("out/experiments-sense-minilm-inventory"))
    parser.add_argument(
        "--mixes", type=Path, default=Path("out/experiments-sense-minilm"), help="sense_minilm.py's work folder"
    )
    parser.add_argument("--seeds", default="0,1,2", help="comma-separated training seeds of the chosen model")
    parser.add_argument("--stage", choices=("choice", "measures"), default="measures", help="stop after the choice")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    if args.markdown_only:
        return rewrite_page(parser, RESULTS_JSON, RESULTS_MD, markdown)
    seeds = [int(seed) for seed in args.seeds.split(",") if seed.strip()]
    run(args.work, args.mixes, args.data_dir, seeds, args.stage)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
