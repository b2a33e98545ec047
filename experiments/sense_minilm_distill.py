"""``sense-minilm``'s mix taught by the Word-in-Context-tuned MPNet: does a better teacher lift MiniLM's
SemEval-2013 to issue 40's 34?

Run from the repository root (about an hour on 2 cores with AMX; resumes from ``--work``)::

    python -m experiments.sense_minilm_distill [--teacher out/experiments-sense-mpnet/wise-seed0] [--data-dir DIR] \\
        [--work out/experiments-sense-minilm-distill] [--seed 0] [--markdown-only]

**Why.** Issue 40 asks for SemEval-2013 AVG ≥ 34 from a tuned MiniLM that saw no SemEval-2013 lemma. Every MiniLM
so far stays near 32 to 33 (``sense_minilm_shipped.md``: 31.84 on all 50 words, 33.38 on the held-out half),
while MPNet tuned on the same Word-in-Context mix and averaged with its untuned weights (WiSE-FT) reaches 37.78
with the default recipe (``sense_mpnet.md``, seed 0). Distillation (``wsd tune --teacher``: the teacher's cosine of
each training pair replaces its label, CoSENT asks the student to order the pairs as the teacher does) was tried
only with the *untuned* MPNet (36.23) as teacher: 32.36 and 32.59 against 31.71 untuned (``tune.md``, WordNet
pairs). Whether the tuned teacher, 1.5 points better on SemEval-2013 and far better on every usage measure,
carries more into MiniLM was not measured.

**The protocol, fixed before any figure of this script.**

- *Teacher*: ``--teacher``, by default ``sense_mpnet.py``'s WiSE-FT average of seed 0 (0.25 untuned MPNet + 0.75
  its Word-in-Context seed 0): the seed a recipe would build, chosen by its number, not by a score. It never saw a
  SemEval-2013, SemEval-2010 or DWUG EN lemma (the sense-minilm lemma list).
- *Student*: the bundled MiniLM trained on ``sense-minilm``'s mix (``sense_minilm.py``'s ``wic``: WiC and
  MCL-WiC en-en training files, one epoch, at most 1,000 steps, the recipe's lemma list left out), every pair
  labelled by the teacher (``--teacher-labels all``), seed ``--seed``, every other option as
  ``sense_minilm_seeds.py`` trains (precision ``auto``), so it differs from that script's seed 0 only by the
  teacher.
- *Rows*, all scored in one run of this script, in the machine's default runtime:
  the bundled MiniLM (untuned); ``sense_minilm_seeds.py``'s ``wic`` seed 0 (the same mix and options without a
  teacher; trained first where absent); the taught student; and the taught student's WiSE-FT average (0.25
  untuned + 0.75 student, ``sense-minilm``'s construction; no training). (Amended after the figures of seed 0,
  for the seeds not run: with ``--seed N`` the untaught row is that script's seed N, so the two rows still differ
  only by the teacher; a ``--work`` whose taught model has another teacher or seed stops the script.)
- *Measures*, each with the default sense recipe (``sense_minilm_shipped.py``'s functions with the untuned
  recipe): SemEval-2013 AVG over all 50 words and over its held-out half; SemEval-2010 AVG; DWUG EN over all 46
  words (ρ PRT, APD, JSD; ARI against one sense); WiC dev and MCL-WiC en-en dev accuracy. Intervals of each row −
  untuned: paired target bootstrap of SemEval AVG, word bootstrap of DWUG ρ, 1,000 resamples, seed 0.
- *Reading*: issue 40's 34 is met by this lever if the taught student or its average reaches SemEval-2013 AVG
  ≥ 34.00 over all 50 words (one training seed, read as one seed's: a recipe change would need seeds 1 and 2
  first). What the teacher adds is read as taught − untaught, SemEval-2013 all, with the spread of
  ``tune.md``'s training seeds (0.75 points) beside it. SemEval-2010 "not worse than untuned" is read as in
  ``sense_minilm_shipped.py``.

Results: ``experiments/results/sense_minilm_distill/sense_minilm_distill.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, save_page
from experiments.sense_minilm_shipped import overlap_line

RESULTS_JSON = results_dir("sense_minilm_distill") / "sense_minilm_distill.json"
RESULTS_MD = results_dir("sense_minilm_distill") / "sense_minilm_distill.md"
DEFAULT_TEACHER = Path("out/experiments-sense-mpnet/wise-seed0")
UNTAUGHT_WORK = Path("out/experiments-sense-minilm-seeds")
#: The spread of SemEval-2013 AVG over ``tune.md``'s training seeds (points), read beside what the teacher adds.
SEED_SPREAD = 0.75
#: WiSE-FT weights of ``sense-minilm`` (untuned, tuned).
WISE = (0.25, 0.75)
#: Rows: (key, label).
ROWS = (
    ("untuned", "bundled MiniLM, untuned"),
    ("untaught", "WiC mix, no teacher (sense_minilm_seeds seed 0)"),
    ("taught", "WiC mix, every pair labelled by the teacher"),
    ("taught_wise", "WiSE-FT: 0.25 untuned + 0.75 taught"),
)
#: The page's columns (label, key), as ``sense_minilm_shipped.py`` names them.
COLUMNS = (
    ("SemEval-2013 all", "semeval2013_all"),
    ("SemEval-2013 held-out half", "semeval2013_test"),
    ("SemEval-2010", "semeval2010"),
    ("DWUG ρ PRT", "rho_prt"),
    ("DWUG ρ APD", "rho_apd"),
    ("DWUG ρ JSD", "rho_jsd"),
    ("DWUG ARI", "ari"),
    ("WiC dev", "wic_dev"),
    ("MCL-WiC en-en dev", "mcl_dev"),
)


def models(work: Path, data_dir: Path, teacher: Path, seed: int) -> dict[str, dict[str, Any]]:
    """Train (or find) every row's model; each row's model (None: bundled) and what its card says of it."""
    from experiments.sense_minilm import lemma_lists
    from experiments.sense_minilm_seeds import train_seed
    from experiments.tune import _average, training_summary, tune

    if not (teacher / "wsd_tune.json").is_file():
        raise SystemExit(f"--teacher {teacher}: no tuned model there (run experiments.sense_mpnet --wise-seeds 0)")
    from experiments.sense_minilm import MIXES, SOURCES, _spec

    benchmark, choice = lemma_lists(data_dir, 0)
    excluded = sorted({*benchmark, *choice})
    untaught, untaught_training = train_seed(UNTAUGHT_WORK, data_dir, seed, excluded)
    mix = MIXES["wic"]
    sources = [_spec(data_dir, SOURCES[name]) for name in mix.sources]
    taught = work / f"wic-taught-seed{seed}"
    options = {"teacher": str(teacher), "teacher_labels": "all"}
    facts = tune(taught, sources, steps=mix.steps, seed=seed, options=options, exclude_lemmas=excluded)
    given = facts["config"]["options"]
    if (given.get("teacher"), given.get("seed")) != (str(teacher), seed):
        raise SystemExit(
            f"{taught} holds a model taught by {given.get('teacher')} with seed {given.get('seed')}, not by {teacher} "
            f"with seed {seed}: give another --work"
        )
    wise = work / f"wic-taught-seed{seed}-wise"
    averaged = _average(wise, [None, str(taught)], WISE)
    return {
        "untuned": {"model": None, "training": None},
        "untaught": {"model": str(untaught), "training": untaught_training},
        "taught": {"model": str(taught), "training": training_summary(facts) | {"teacher": str(teacher)}},
        "taught_wise": {"model": str(wise), "training": averaged},
    }


def intervals(work: Path, data_dir: Path, name: str, seed: int) -> dict[str, list[float]]:
    """One row − untuned: SemEval AVG (paired target bootstrap, ×100) and each DWUG ρ (word bootstrap)."""
    from experiments import tune as cells
    from experiments.encoder_recipe import bootstrap_difference, halves

    found = {
        dataset: cells.semeval_interval(work, name, "untuned", dataset, seed)
        for dataset in ("semeval2013", "semeval2010")
    }
    per_target = [
        json.loads((work / f"eval-semeval2013-{n}" / "metrics.json").read_text(encoding="utf-8"))["per_target"]
        for n in (name, "untuned")
    ]
    found["semeval2013_test"] = bootstrap_difference(per_target[0], per_target[1], halves(per_target[0])["test"], seed)
    gold = cells._dwug_gold(data_dir)[1]
    one, two = (json.loads((work / f"dwug-{n}.json").read_text(encoding="utf-8")) for n in (name, "untuned"))
    differences = cells.bootstrap_difference(one["per_word"], two["per_word"], gold, seed)
    for measure in ("prt", "apd", "jsd"):
        found[f"rho_{measure}"] = differences[f"rho_{measure}_difference"]
    return found


def run(work: Path, data_dir: Path, teacher: Path, seed: int) -> dict[str, Any]:
    """The whole experiment (see the module docstring)."""
    from experiments.sense_minilm_shipped import row
    from wsd import machine

    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "seed": seed,
        "teacher": str(teacher),
        "rows": {},
        "intervals": {},
    }
    for key, found in models(work, data_dir, teacher, seed).items():
        figures = row(work, data_dir, found["model"], key, shipped=False)
        results["rows"][key] = {"training": found["training"], "figures": figures}
        if key != "untuned":
            results["intervals"][key] = intervals(work, data_dir, key, 0)
        semeval = (
            f"SemEval-2013 {100 * figures['semeval2013_all']:.2f}, SemEval-2010 {100 * figures['semeval2010']:.2f}"
        )
        log(f"{key}: {semeval}")
        save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    results["seconds"] = round(time.perf_counter() - started)
    save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    return results


def _cell(key: str, value: float, interval: list[float] | None) -> str:
    text = f"{value:.3f}" if key.startswith("rho_") else f"{100 * value:.2f}"
    if interval is None:
        return text
    low, high = interval
    spread = f"[{low:+.3f}, {high:+.3f}]" if key.startswith("rho_") else f"[{low:+.2f}, {high:+.2f}]"
    return f"{text} {spread}"


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    rows = results["rows"]
    lines = [
        "# `sense-minilm`'s mix taught by the Word-in-Context-tuned MPNet (issue 40: SemEval-2013 34)",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}; {results['date']}; training seed {results['seed']}",
        f"- Teacher: `{results['teacher']}`; every pair of the student's mix labelled by its cosine (CoSENT). "
        "The protocol is in `experiments/sense_minilm_distill.py`, fixed before any figure.",
        "- Every row with the default sense recipe, in the machine's default runtime. SemEval AVG, dev accuracy and "
        "ARI ×100; [a, b]: 95% paired bootstrap interval of the row − untuned (SemEval over targets, DWUG over words).",
        "",
        "| model | steps | precision | seconds | " + " | ".join(label for label, _ in COLUMNS) + " |",
        "|---|---:|---|---:|" + "---|" * len(COLUMNS),
    ]
    for key, label in ROWS:
        if key not in rows:
            continue
        training = rows[key]["training"] or {}
        steps = training.get("steps", "–" if key == "untuned" else "averaged")
        seconds = training.get("seconds")
        precision = training.get("precision", "–")
        cells = [label, str(steps), str(precision), f"{seconds:,.0f}" if seconds else "–"]
        interval = results["intervals"].get(key, {})
        figures = rows[key]["figures"]
        source = {"semeval2013_all": "semeval2013"}
        cells += [_cell(k, figures[k], interval.get(source.get(k, k))) for _, k in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    if "untuned" in rows:
        lines += ["", f"ARI of one sense on DWUG EN (×100): {100 * rows['untuned']['figures']['ari_one_sense']:.2f}"]
    overlaps = [rows[key]["figures"].get("dev_overlap") for key, _ in ROWS[1:] if key in rows]
    if overlaps and all(overlap == overlaps[0] for overlap in overlaps):  # the same training lemmas in every row
        lines += ["", overlap_line(overlaps[0], "the tuned rows")]
    else:
        for (_, label), overlap in zip(ROWS[1:], overlaps, strict=False):
            if overlap:
                lines += ["", overlap_line(overlap, f"the row '{label}'")]
    taught = [rows[key]["figures"]["semeval2013_all"] for key in ("taught", "taught_wise") if key in rows]
    if len(taught) == 2:
        best = max(taught)
        verdict = "met" if best >= 0.34 else "not met"
        lines += [
            "",
            f"**The reading** (fixed before any figure): issue 40's 34 on all of SemEval-2013 is **{verdict}** by this "
            f"lever (best of the taught rows {100 * best:.2f}; one training seed).",
        ]
    if "taught" in rows and "untaught" in rows:
        added = 100 * (rows["taught"]["figures"]["semeval2013_all"] - rows["untaught"]["figures"]["semeval2013_all"])
        lines += [
            "",
            f"What the teacher adds, taught − untaught, SemEval-2013 all: {added:+.2f} points (the spread of "
            f"`tune.md`'s training seeds, of another mix, WordNet's 300 steps: {SEED_SPREAD:.2f} points).",
        ]
    if "untuned" in rows and all(key in rows for key in ("taught", "taught_wise")):
        base = rows["untuned"]["figures"]["semeval2010"]
        worse = [label for key, label in ROWS[2:] if rows[key]["figures"]["semeval2010"] < base]
        lines += [
            "",
            f"SemEval-2010 not worse than untuned ({100 * base:.2f}): "
            + (f"**no**, below it: {'; '.join(worse)}." if worse else "yes, for both taught rows."),
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the experiment, or rewrite its page from the JSON."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.sense_minilm_distill", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--teacher", type=Path, default=DEFAULT_TEACHER)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--work", type=Path, default=Path("out/experiments-sense-minilm-distill"))
    parser.add_argument("--seed", type=int, default=0, help="the student's training seed")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    if args.markdown_only:
        return rewrite_page(parser, RESULTS_JSON, RESULTS_MD, markdown)
    run(args.work, args.data_dir, args.teacher, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
