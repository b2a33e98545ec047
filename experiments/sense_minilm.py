"""Choosing ``sense-minilm``'s training mix (issue 40, part 3) and scoring it on every English measure (part 4).

Run from the repository root (about two hours on 2 cores; resumes from ``--work``)::

    python -m experiments.sense_minilm [--data-dir DIR] [--work out/experiments-sense-minilm] [--score chosen|all]

**The protocol, fixed before any figure.**

- *Benchmark lemmas* are every lemma of SemEval-2013 Task 13, SemEval-2010 Task 14 and DWUG EN. No mix trains
  on any of them, so the chosen model is scored on all three as a model that never saw them.
- *Choice lemmas* are 10% of the remaining lemmas of WiC train and MCL-WiC en-en training, drawn with seed 0.
  Their pairs (XL-WiC layout, ``choice.tsv`` in ``--work``) are the only data the mix is chosen on; no mix trains
  on them. The two lists are written to ``experiments/results/sense_minilm/sense_minilm_excluded_lemmas.txt``: the
  recipe leaves the same lemmas out, so the model it builds is the model scored here.
- *The mixes* (:data:`MIXES`): training sources and steps, the bundled MiniLM, every other option the default.
- *The choice*: the highest ROC AUC of the cosine on the choice pairs (threshold-free; accuracy beside it).
- *The measures* (of the chosen mix, or of every mix with ``--score all``, beside the untuned MiniLM, one run):
  SemEval-2013 and SemEval-2010 (``wsd evaluate``, default recipe), DWUG EN over all 46 words (ρ of PRT, APD,
  JSD against graded change; ARI against the one-sense baseline), and the English dev sets WiC and MCL-WiC en-en
  (accuracy of a lemma-cross-validated cosine threshold, and ROC AUC). None of these chose anything.

Results: ``experiments/results/sense_minilm/sense_minilm.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, save_page


class Mix(NamedTuple):
    """One candidate training mix: its sources (names of :data:`SOURCES`) and its length in steps."""

    sources: tuple[str, ...]
    steps: int
    label: str


#: The training sources, under ``--data-dir``.
SOURCES = {
    "wordnet": "wordnet:wordnet-3.0",
    "wic": "wic:wic/train/train.data.txt",
    "mcl_wic_en": "wic:mcl-wic/training/training.en-en.data",
}
#: The candidates, fixed before any figure: the shipped recipe (WordNet, 300 steps), WordNet with the two
#: Word-in-Context training files (the best DWUG PRT and SemEval mix of experiments/results/tune/tune.md), the
#: Word-in-Context files alone for about one epoch of their pairs (the best DWUG APD), and the full mix as long.
MIXES: dict[str, Mix] = {
    "wordnet": Mix(("wordnet",), 300, "WordNet, 300 steps (the recipe before this experiment)"),
    "wordnet_wic": Mix(("wordnet", "wic", "mcl_wic_en"), 300, "WordNet + WiC + MCL-WiC en-en, 300 steps"),
    "wic": Mix(("wic", "mcl_wic_en"), 1000, "WiC + MCL-WiC en-en, one epoch (at most 1,000 steps)"),
    "wordnet_wic_long": Mix(("wordnet", "wic", "mcl_wic_en"), 1000, "WordNet + WiC + MCL-WiC en-en, 1,000 steps"),
}
BENCHMARKS = {
    "semeval2013": "semeval2013:semeval2013-task13",
    "semeval2010": "semeval2010:semeval2010-task14",
    "dwug_en": "wug:lscd/dwug_en",
}
CHOICE_SHARE = 0.1
DEV_SETS = {"WiC dev": "wic/dev/dev.data.txt", "MCL-WiC dev en-en": "mcl-wic/dev/multilingual/dev.en-en.data"}
#: The results page and figures, and the lemma list the recipe ships (``wsd/tune/recipe_data``).
RESULTS_JSON, RESULTS_MD = (
    results_dir("sense_minilm") / "sense_minilm.json",
    results_dir("sense_minilm") / "sense_minilm.md",
)
EXCLUDED_FILE = results_dir("sense_minilm") / "sense_minilm_excluded_lemmas.txt"


def _spec(data_dir: Path, spec: str) -> str:
    kind, _, path = spec.partition(":")
    return f"{kind}:{data_dir / path}"


def lemma_lists(data_dir: Path, seed: int) -> tuple[list[str], list[str]]:
    """The benchmark lemmas and the choice lemmas (see the module docstring)."""
    from wsd.tune.sources import source_lemmas

    benchmark: set[str] = set()
    for spec in BENCHMARKS.values():
        benchmark |= source_lemmas(_spec(data_dir, spec))
    pairs_lemmas: set[str] = set()
    for name in ("wic", "mcl_wic_en"):
        pairs_lemmas |= source_lemmas(_spec(data_dir, SOURCES[name]))
    candidates = sorted(pairs_lemmas - benchmark)
    drawn = np.random.default_rng(seed).choice(candidates, round(CHOICE_SHARE * len(candidates)), replace=False)
    return sorted(benchmark), sorted(str(lemma) for lemma in drawn)


def write_choice_pairs(data_dir: Path, choice: list[str], path: Path) -> int:
    """The choice lemmas' pairs of both Word-in-Context training files, in the XL-WiC layout; how many."""
    from wsd.tune.sources import read_source

    if path.is_file():
        return sum(1 for _ in path.open(encoding="utf-8"))
    chosen = set(choice)
    lines = []
    for name in ("wic", "mcl_wic_en"):
        pairset = read_source(_spec(data_dir, SOURCES[name]), max_pairs_per_lemma=None)
        uses = pairset.uses.set_index("use_id")
        for row in pairset.pairs.itertuples(index=False):
            if row.lemma not in chosen:
                continue
            one, two = uses.loc[row.use_id_1], uses.loc[row.use_id_2]
            fields = [row.lemma, "X", one.start, one.end, two.start, two.end, one.text, two.text, int(row.label)]
            lines.append("\t".join(str(field).replace("\t", " ") for field in fields))
    partial = path.with_suffix(".partial")
    partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial.replace(path)
    return len(lines)


def pair_scores(path: Path, model: str | None) -> dict[str, Any]:
    """Accuracy (lemma-cross-validated threshold) and ROC AUC of the cosine on a WiC-format file."""
    from wsd.config import build_evaluation_config
    from wsd.workflows.benchmark import evaluate

    config = build_evaluation_config(dataset="wic", data=str(path), model=model)
    entry = evaluate(config, progress=False)["usage_pairs"]
    keep = ("accuracy", "accuracy_ci", "auc", "auc_ci", "thresholds", "pairs", "lemmas")
    return {key: entry[key] for key in keep if key in entry}


def measures(work: Path, data_dir: Path, model: str | None, name: str, seed: int) -> dict[str, Any]:
    """Every English measure of one model (cached in ``work/measures-NAME.json``)."""
    from experiments import tune as cells

    cache = work / f"measures-{name}.json"
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    started = time.perf_counter()
    result: dict[str, Any] = {"semeval": {}, "dev": {}}
    for dataset in ("semeval2013", "semeval2010"):
        metrics = cells.evaluate(dataset, data_dir, model, work / f"eval-{dataset}-{name}")
        result["semeval"][dataset] = dict(metrics["overall"])
        result["semeval"][dataset]["training_overlap"] = metrics.get("training_overlap")
        log(f"{name}: {dataset} AVG {metrics['overall']['avg']:.4f}")
    bundle, gold, gold_column = cells._dwug_gold(data_dir)
    figures = cells.word_figures(bundle, sorted(gold), model)
    result["dwug"] = {"gold": gold_column, "pooled": cells.pooled(figures, gold), "per_word": figures}
    log(f"{name}: DWUG {json.dumps(result['dwug']['pooled'])}")
    for label, relative in DEV_SETS.items():
        result["dev"][label] = pair_scores(data_dir / relative, model)
        log(f"{name}: {label} {json.dumps(result['dev'][label])}")
    result["seconds"] = round(time.perf_counter() - started)
    cache.write_text(json.dumps(result, indent=1, default=float), encoding="utf-8")
    return result


def dwug_intervals(results: dict[str, Any], data_dir: Path, seed: int) -> None:
    """Each scored mix's word-bootstrap 95% intervals of DWUG EN's ρ, tuned minus untuned (``dwug_intervals``)."""
    from experiments import tune as cells

    gold = cells._dwug_gold(data_dir)[1]
    base = results["untuned"]["dwug"]["per_word"]
    for row in results["mixes"].values():
        if "measures" in row:
            row["dwug_intervals"] = cells.bootstrap_difference(row["measures"]["dwug"]["per_word"], base, gold, seed)


def semeval_intervals(results: dict[str, Any], work: Path, seed: int) -> None:
    """Each scored mix's target-bootstrap 95% interval of SemEval AVG, tuned minus untuned (``semeval_intervals``)."""
    from experiments.tune import semeval_interval

    for key, row in results["mixes"].items():
        if "measures" in row and (work / f"eval-semeval2013-{key}").is_dir():
            row["semeval_intervals"] = {
                dataset: semeval_interval(work, key, "untuned", dataset, seed)
                for dataset in ("semeval2013", "semeval2010")
            }


def run(work: Path, data_dir: Path, seed: int, score: str) -> dict[str, Any]:
    """The whole experiment (see the module docstring)."""
    from experiments.tune import training_summary, tune
    from wsd import machine

    work.mkdir(parents=True, exist_ok=True)
    benchmark, choice = lemma_lists(data_dir, seed)
    EXCLUDED_FILE.write_text("\n".join(sorted({*benchmark, *choice})) + "\n", encoding="utf-8")
    choice_file = work / "choice.tsv"
    n_choice = write_choice_pairs(data_dir, choice, choice_file)
    log(f"{len(benchmark)} benchmark lemmas, {len(choice)} choice lemmas ({n_choice} pairs)")
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "seed": seed,
        "benchmark_lemmas": len(benchmark),
        "choice_lemmas": len(choice),
        "choice_pairs": n_choice,
        "mixes": {},
    }
    # rows of an earlier run (the committed results file): a mix scored there is not trained again for its choice
    # figure (training is deterministic, so the chosen mix is retrained only where its measures are missing)
    earlier = json.loads(RESULTS_JSON.read_text(encoding="utf-8")) if RESULTS_JSON.is_file() else {}
    results["untuned_choice"] = earlier.get("untuned_choice") or pair_scores(choice_file, None)
    excluded = sorted({*benchmark, *choice})
    for key, mix in MIXES.items():
        folder = work / f"mix-{key}"
        row = earlier.get("mixes", {}).get(key)
        if row and row.get("label") == mix.label and "choice" in row and not (folder / "wsd_tune.json").is_file():
            results["mixes"][key] = row
            log(f"{key}: choice figures from the earlier run")
            continue
        sources = [_spec(data_dir, SOURCES[name]) for name in mix.sources]
        facts = tune(folder, sources, steps=mix.steps, seed=seed, exclude_lemmas=excluded)
        row = {"label": mix.label, "training": training_summary(facts), "choice": pair_scores(choice_file, str(folder))}
        results["mixes"][key] = row
        log(f"{key}: choice AUC {row['choice']['auc']:.4f}, accuracy {row['choice']['accuracy']:.4f}")
        save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    chosen = max(results["mixes"], key=lambda key: results["mixes"][key]["choice"]["auc"])
    results["chosen"] = chosen
    results["untuned"] = earlier.get("untuned") or measures(work, data_dir, None, "untuned", seed)
    save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    for key in [chosen, *(k for k in MIXES if k != chosen)] if score == "all" else [chosen]:
        if "measures" in results["mixes"][key]:
            continue
        folder = work / f"mix-{key}"
        mix = MIXES[key]
        sources = [_spec(data_dir, SOURCES[name]) for name in mix.sources]
        tune(folder, sources, steps=mix.steps, seed=seed, exclude_lemmas=excluded)  # built already, or rebuilt
        results["mixes"][key]["measures"] = measures(work, data_dir, str(folder), key, seed)
        dwug_intervals(results, data_dir, seed)
        save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    semeval_intervals(results, work, seed)
    save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    return results


def _ci(entry: dict[str, Any], key: str) -> str:
    interval = entry.get(f"{key}_ci")
    text = f"{entry[key]:.3f}"
    return text + (f" [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else "")


def _measure_cells(found: dict[str, Any]) -> list[str]:
    pooled = found["dwug"]["pooled"]
    return [
        f"{100 * found['semeval']['semeval2013']['avg']:.2f}",
        f"{100 * found['semeval']['semeval2010']['avg']:.2f}",
        f"{pooled['rho_prt']:.3f}",
        f"{pooled['rho_apd']:.3f}",
        f"{pooled['rho_jsd']:.3f}",
        f"{100 * pooled['ari']:.1f} / {100 * pooled['ari_one_sense']:.1f}",
        *(f"{found['dev'][label]['accuracy']:.3f} / {found['dev'][label]['auc']:.3f}" for label in DEV_SETS),
    ]


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    lines = [
        "# Choosing sense-minilm's training mix (issue 40)",
        "",
        f"Command: `{results['command']}`  ",
        f"Machine: {results['machine']}; {results['date']}; seed {results['seed']}.",
        "",
        f"No mix trains on the {results['benchmark_lemmas']} lemmas of SemEval-2013, SemEval-2010 and DWUG EN, nor "
        f"on the {results['choice_lemmas']} choice lemmas (10% of the other WiC / MCL-WiC en-en training lemmas, "
        f"seed {results['seed']}), whose {results['choice_pairs']:,} pairs alone choose the mix (highest ROC AUC). "
        "The protocol is in `experiments/sense_minilm.py`'s docstring, fixed before any figure. The training "
        "seconds were taken with other jobs on the machine (from 1 to 10 times slower than alone): not a speed "
        "figure.",
        "",
        "## The choice (pairs of held-out lemmas of the training files)",
        "",
        "| mix | steps | training s | choice accuracy | choice ROC AUC |",
        "|---|---:|---:|---|---|",
    ]
    untuned = results.get("untuned_choice")
    if untuned:
        lines.append(f"| untuned MiniLM | 0 | – | {_ci(untuned, 'accuracy')} | {_ci(untuned, 'auc')} |")
    for key, row in results["mixes"].items():
        mark = " **(chosen)**" if results.get("chosen") == key else ""
        lines.append(
            f"| {row['label']}{mark} | {row['training']['steps']} | {row['training']['seconds']:.0f} | "
            f"{_ci(row['choice'], 'accuracy')} | {_ci(row['choice'], 'auc')} |"
        )
    scored = [(key, row) for key, row in results["mixes"].items() if "measures" in row]
    if "untuned" in results:
        lines += [
            "",
            "## Every English measure (none of them chose anything)",
            "",
            "SemEval AVG is the geometric mean of F-B-Cubed and FNMI (×100, default recipe); DWUG EN is all 46 words "
            "(ρ against graded change; ARI tuned / one-sense baseline, ×100); the dev sets give accuracy of a "
            "lemma-cross-validated cosine threshold / ROC AUC.",
            "",
            "| model | SemEval-2013 AVG | SemEval-2010 AVG | DWUG ρ PRT | ρ APD | ρ JSD | ARI / one sense | "
            + " | ".join(DEV_SETS)
            + " |",
            "|---|" + "---|" * (6 + len(DEV_SETS)),
            "| untuned MiniLM | " + " | ".join(_measure_cells(results["untuned"])) + " |",
        ]
        for _key, row in scored:
            lines.append(f"| {row['label']} | " + " | ".join(_measure_cells(row["measures"])) + " |")
        lines += ["", "DWUG EN, tuned − untuned ρ with its word-bootstrap 95% interval (1,000 resamples):", ""]
        for _key, row in scored:
            found = row.get("dwug_intervals")
            if not found:
                continue
            tuned, untuned = row["measures"]["dwug"]["pooled"], results["untuned"]["dwug"]["pooled"]
            parts = []
            for measure, label in (("prt", "PRT"), ("apd", "APD"), ("jsd", "JSD")):
                low, high = found[f"rho_{measure}_difference"]
                parts.append(
                    f"{label} {tuned[f'rho_{measure}'] - untuned[f'rho_{measure}']:+.3f} [{low:+.3f}, {high:+.3f}]"
                )
            lines.append(f"- {row['label']}: " + "; ".join(parts))
        found_any = [(row["label"], row["semeval_intervals"]) for _, row in scored if "semeval_intervals" in row]
        if found_any:
            lines += [
                "",
                "SemEval AVG, tuned − untuned, target-bootstrap 95% interval (1,000 paired resamples, ×100):",
                "",
            ]
            for label, found in found_any:
                lines.append(
                    f"- {label}: SemEval-2013 [{found['semeval2013'][0]:+.2f}, {found['semeval2013'][1]:+.2f}]; "
                    f"SemEval-2010 [{found['semeval2010'][0]:+.2f}, {found['semeval2010'][1]:+.2f}]"
                )
        lines += ["", "Dev sets with intervals (95% bootstrap over pairs):", ""]
        for name, found in [("untuned MiniLM", results["untuned"]), *((r["label"], r["measures"]) for _, r in scored)]:
            dev = "; ".join(
                f"{label} accuracy {_ci(found['dev'][label], 'accuracy')}, AUC {_ci(found['dev'][label], 'auc')}"
                for label in DEV_SETS
            )
            lines.append(f"- {name}: {dev}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.sense_minilm", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--work", type=Path, default=Path("out/experiments-sense-minilm"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--score", choices=("chosen", "all"), default="chosen", help="which mixes get every measure")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    if args.markdown_only:
        return rewrite_page(parser, RESULTS_JSON, RESULTS_MD, markdown)
    run(args.work, args.data_dir, args.seed, args.score)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
