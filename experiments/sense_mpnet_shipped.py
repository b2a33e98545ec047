"""The ``sense-mpnet`` recipe as it ships: the model ``wsd tune --recipe sense-mpnet`` builds, with its own sense
recipe, against the untuned all-mpnet-base-v2 with the default, on every English measure (issue 40).

Run from the repository root (about an hour on 2 cores to score, and two hours more where the trained part must
be trained; resumes from ``--work``)::

    python -m experiments.sense_mpnet_shipped --model /work/models/all-mpnet-base-v2 \\
        [--trained out/recipe-build/sense-mpnet.trained] [--data-dir DIR] \\
        [--work out/experiments-sense-mpnet-shipped] [--seed 0] [--markdown-only]

(``--model``: the folder ``../shared/models/get-mpnet.sh`` prints.)

**Why.** ``experiments/sense_mpnet.py`` measured the construction (all-mpnet-base-v2 tuned on ``sense-minilm``'s
Word-in-Context mix, then 0.25 untuned + 0.75 tuned) over three training seeds, in the machine's bf16 autocast,
and ``encoder_recipe.py --family mpnet`` chose a sense recipe for each seed: the seeds' mean reached issue 40's
SemEval-2013 38 (38.74 on the held-out half), seed 0 alone did not (37.49). The recipe ``sense-mpnet`` builds that
construction for seed 0 in the recipes' portable fp32 arithmetic and ships seed 0's sense recipe; a user gets
that model, not the seeds' mean, and it was never scored.

**The protocol, fixed before any figure of this script.**

- *Build*: ``wsd tune --recipe sense-mpnet --model MODEL --data-dir DIR`` with ``WSD_MODELS_DIR`` set to
  ``WORK/models``. ``--trained FOLDER``: where ``WORK/models/sense-mpnet.trained`` is absent, a copy of FOLDER is put
  there first (a training run made with the options the recipe fixes); the recipe's own check then takes it as
  its trained part only if its options, sources and base are the recipe's, and trains otherwise.
- *Tuned*: ``--model wsd:sense-mpnet`` and no ``--recipe`` (the script checks that the runs recorded the shipped
  recipe: temperature 0.08, context weight 0.3, keys above 0.1). *Untuned*: MODEL with the default recipe.
- *Measures*: ``sense_minilm_shipped.py``'s, unchanged: SemEval-2013 AVG over all 50 words and over the held-out
  half (the 25 words at odd alphabetical positions, which chose nothing of either recipe); SemEval-2010 AVG
  (choice data of both sense recipes); DWUG EN over all 46 words, none in any training (ρ PRT, the default change
  score, ρ APD, ρ JSD of the induced senses against graded change; ARI against one sense), the tuned model's
  vectors re-weighted and clustered by its shipped recipe; WiC dev and MCL-WiC en-en dev accuracy, each model's
  vectors with its recipe's context vector. Intervals: paired target bootstrap of SemEval AVG and word bootstrap of
  each DWUG ρ, tuned − untuned, 1,000 resamples, seed ``--seed``.
- *The reading*: issue 40's "MPNet tuned the same way ≥ 38" is read for the shipped model on all 50 words and on
  the held-out half (one training seed, the recipe's: the seeds' spread is ``encoder_recipe-mpnet.md``'s); the page
  also says in which columns the shipped model is above the untuned MPNet (no default changes here).

Results: ``experiments/results/sense_mpnet_shipped/sense_mpnet_shipped.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, run_wsd, save_page
from experiments.sense_minilm_shipped import (
    COLUMNS,
    comparison_table,
    intervals,
    overlap_line,
    row,
    shipped_settings,
)

RESULTS_JSON = results_dir("sense_mpnet_shipped") / "sense_mpnet_shipped.json"
RESULTS_MD = results_dir("sense_mpnet_shipped") / "sense_mpnet_shipped.md"
RECIPE = "sense-mpnet"
TUNED = f"wsd:{RECIPE}"
#: Issue 40's target for MPNet tuned this way (SemEval-2013 AVG, percent).
TARGET = 38.0


def build(work: Path, data_dir: Path, model: Path, trained: Path | None) -> dict[str, Any]:
    """``wsd tune --recipe sense-mpnet`` into ``WORK/models`` (its trained part copied from ``trained`` first where
    absent); what its cards say of the build."""
    models = work / "models"
    part = models / f"{RECIPE}.trained"
    if trained is not None and not part.exists():
        if not (trained / "wsd_tune.json").is_file():
            raise SystemExit(f"--trained {trained}: no tuned model there")
        models.mkdir(parents=True, exist_ok=True)
        shutil.copytree(trained, part)
        log(f"copied {trained} to {part}")
    run_wsd(["tune", "--recipe", RECIPE, "--model", str(model), "--data-dir", str(data_dir)])
    facts = json.loads((models / RECIPE / "wsd_tune.json").read_text(encoding="utf-8"))
    part_facts = json.loads((part / "wsd_tune.json").read_text(encoding="utf-8"))
    return {
        "training_seconds": part_facts["training"]["seconds"],
        "machine": part_facts["training"]["machine"],
        "arithmetic": part_facts["training"].get("arithmetic"),
        "trained_from": str(trained) if trained is not None else None,
        "recipe": facts["recipe"],
        "average": [{k: entry[k] for k in ("model", "weight")} for entry in facts["average"]],
    }


def run(work: Path, data_dir: Path, model: Path, trained: Path | None, seed: int) -> dict[str, Any]:
    """The whole experiment (see the module docstring)."""
    from wsd import machine

    work = work.resolve()
    data_dir = data_dir.resolve()
    work.mkdir(parents=True, exist_ok=True)
    os.environ["WSD_MODELS_DIR"] = str(work / "models")
    started = time.perf_counter()
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "seed": seed,
        "model": str(model),
        "build": build(work, data_dir, model, trained),
    }
    weight, temperature = shipped_settings(RECIPE)
    results["shipped"] = {"context_weight": weight, "temperature": temperature}
    results["rows"] = {"untuned": row(work, data_dir, str(model), "untuned", shipped=False, tune_recipe=RECIPE)}
    save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    results["rows"]["tuned"] = row(work, data_dir, TUNED, "tuned", shipped=True, tune_recipe=RECIPE)
    results["intervals"] = intervals(work, data_dir, seed)
    results["seconds"] = round(time.perf_counter() - started)
    save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    return results


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    from wsd.senses.recipes import embedding_recipe, output_recipe, recipe

    build, rows = results["build"], results["rows"]
    default_weight = embedding_recipe("default")["context_vector"].rsplit(":", 1)[1]
    untuned_recipe = (
        f"{default_weight}, {recipe('default')['temperature']:g}, above {output_recipe('default')['min_weight']:g}"
    )
    lines = [
        "# The `sense-mpnet` recipe as it ships: the built model with its own sense recipe (issue 40)",
        "",
        f"- Command: `{results['command']}`",
        f"- Scored on: {results['machine']}; {results['date']}",
        f"- Build: `wsd tune --recipe sense-mpnet --model {results['model']}` (recipe {json.dumps(build['recipe'])}); "
        f"its trained part {build['training_seconds']:,.0f} s on {build['machine']}"
        + (f", copied from `{build['trained_from']}`" if build.get("trained_from") else ""),
        f"- Tuned: `--model {TUNED}` without `--recipe`, so its shipped sense recipe (context weight "
        f"{results['shipped']['context_weight']:g}, temperature {results['shipped']['temperature']:g}, keys above "
        f"{output_recipe(RECIPE)['min_weight']:g}); untuned: all-mpnet-base-v2 with the default recipe "
        f"({untuned_recipe}).",
        "- SemEval AVG, dev accuracy and ARI ×100. The held-out half of SemEval-2013 (the 25 words at odd "
        "alphabetical positions) chose nothing; SemEval-2010 and the other half chose both sense recipes.",
        "- Intervals: tuned − untuned, paired 95% bootstrap (SemEval: over targets, ×100; DWUG EN: over words).",
        "",
    ]
    if "tuned" not in rows:
        return "\n".join([*lines, "The tuned row is not scored yet.", ""])
    tuned, untuned = rows["tuned"], rows["untuned"]
    table, above = comparison_table(results, "untuned MPNet", "sense-mpnet")
    lines += table
    reached = [
        f"{label} {100 * tuned[key]:.3f}: {'met' if 100 * tuned[key] >= TARGET else 'not met'}"
        for label, key in COLUMNS[:2]
    ]
    below = [label for (label, _), wins in zip(COLUMNS, above, strict=True) if not wins]
    lines += [
        "",
        f"ARI of one sense on DWUG EN (×100): {100 * untuned['ari_one_sense']:.2f}",
        "",
        overlap_line(tuned.get("dev_overlap"), "sense-mpnet"),
        "",
        f"**The reading** (fixed before any figure): issue 40's {TARGET:g} for MPNet tuned this way, the recipe's "
        f"one seed: {'; '.join(reached)}. Above the untuned MPNet in "
        f"{sum(above)} of {len(COLUMNS)} columns" + (f"; below or level in {', '.join(below)}." if below else "."),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.sense_mpnet_shipped", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--model", type=Path, help="the all-mpnet-base-v2 folder (required unless --markdown-only)")
    parser.add_argument("--trained", type=Path, help="a trained part to copy in (the recipe checks it)")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--work", type=Path, default=Path("out/experiments-sense-mpnet-shipped"))
    parser.add_argument("--seed", type=int, default=0, help="the bootstrap's seed")
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    if args.markdown_only:
        return rewrite_page(parser, RESULTS_JSON, RESULTS_MD, markdown)
    if args.model is None or not args.model.is_dir():
        parser.error(f"--model: give the all-mpnet-base-v2 folder (not {args.model})")
    if not (args.data_dir / "wic").is_dir():
        parser.error(f"--data-dir: no wic/ in {args.data_dir}")
    run(args.work, args.data_dir, args.model, args.trained, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
