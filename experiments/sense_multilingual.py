"""The ``sense-multilingual`` recipe scored on the WUG sets it left out (issue 40, part 3's multilingual target).

Run from the repository root (hours on 2 cores; resumes from ``--work``)::

    python -m experiments.sense_multilingual --model /work/models/multilingual-e5-small-q4 [--seeds 0,1,2] \\
        [--data-dir DIR] [--work out/experiments-sense-multilingual]

**The protocol, fixed before any figure.** The recipe (:data:`wsd.tune.recipes.RECIPES` ``sense-multilingual``:
its sources, steps and options, unchanged) is trained once per held-out group and seed:

- *Norwegian out*: without NorDiaChange 1 and 2, and every NorDiaChange lemma excluded from the other sources;
  scored on NorDiaChange 1 and 2.
- *Russian out*: without RuSemShift 1 and 2, and every RuSemShift lemma excluded from the other sources; scored
  on RuSemShift 1 and 2.

Each set is scored as ``experiments/lscd.py`` scores it (the default recipe's PRT, APD and the JSD of induced
senses against the graded change, Spearman ρ over the set's words), beside the untuned base model in the same
run, with a word-bootstrap 95% interval of the difference (1,000 resamples). Across seeds: the mean ρ and the
range. Nothing here chose the recipe's settings.

**Seed 2** (declared before any figure of it, after seeds 0 and 1 were measured): trained with the recipe as it
is now, unchanged, which since seeds 0 and 1 fixes the portable arithmetic (:mod:`wsd.tune.portable`: fp32 with
AVX2 kernels); seeds 0 and 1 trained in fp32 in an AMD EPYC's own arithmetic, before recipes were portable. Their
work folders are gone, so a run for other seeds carries the runs of the committed results over (seeds of the
committed JSON not asked now, same base model), and each run's training line names its machine and arithmetic.
Run as ``python -m experiments.sense_multilingual --seeds 2 --model /work/models/multilingual-e5-small-q4``.

Results: ``experiments/results/sense_multilingual/sense_multilingual.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import functools
import json
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir, rewrite_page, save_page

#: Held-out group → the recipe's WUG sources it leaves out (paths under the data folder) and the sets it scores
#: (names of :data:`experiments.lscd.DATASETS`).
GROUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "norwegian": (("lscd/nordiachange/subset1", "lscd/nordiachange/subset2"), ("nordiachange1", "nordiachange2")),
    "russian": (("lscd/rusemshift/rusemshift_1", "lscd/rusemshift/rusemshift_2"), ("rusemshift1", "rusemshift2")),
}
RESULTS_JSON, RESULTS_MD = (
    results_dir("sense_multilingual") / "sense_multilingual.json",
    results_dir("sense_multilingual") / "sense_multilingual.md",
)


def group_sources(data_dir: Path, left_out: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The recipe's sources without the group's WUG sets, and the ``--exclude`` specs of those sets."""
    from wsd.tune.recipes import recipe_sources, resolve_recipe

    recipe = resolve_recipe("sense-multilingual")
    sources = recipe_sources(recipe, data_dir, [])
    dropped = {f"wug:{data_dir / path}" for path in left_out}
    return [spec for spec in sources if spec not in dropped], sorted(dropped)


def train(work: Path, data_dir: Path, model: Path, group: str, seed: int) -> tuple[Path, dict[str, Any]]:
    """The recipe's model of one held-out group and seed (trained unless built)."""
    from experiments.tune import tune
    from wsd.tune.recipes import resolve_recipe

    sources, exclude = group_sources(data_dir, GROUPS[group][0])
    settings = dict(resolve_recipe("sense-multilingual").settings)
    steps = settings.pop("max_steps")
    settings |= {"model": str(model), "seed": seed}
    folder = work / f"{group}-seed{seed}"
    facts = tune(folder, sources, steps=steps, seed=seed, options=settings, exclude=exclude)
    return folder, facts


def score_set(data_dir: Path, name: str, base: Path, tuned: Path, seed: int) -> dict[str, Any]:
    """One WUG set's ρ of the tuned and the untuned model, and the word-bootstrap interval of the difference."""
    from experiments.lscd import DATASETS, gold_scores
    from experiments.tune import bootstrap_difference, pooled, word_figures
    from wsd.evaluate.datasets import wug

    bundle = wug.load(data_dir / "lscd" / DATASETS[name][0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gold_series, gold_column = gold_scores(bundle)
    gold = {str(k): float(v) for k, v in gold_series.items()}
    untuned = word_figures(bundle, sorted(gold), str(base))
    figures = word_figures(bundle, sorted(gold), str(tuned))
    return {
        "gold": gold_column,
        "words": len(gold),
        "tuned": pooled(figures, gold),
        "untuned": pooled(untuned, gold),
        "intervals": bootstrap_difference(figures, untuned, gold, seed),
    }


def run(work: Path, data_dir: Path, model: Path, seeds: list[int]) -> dict[str, Any]:
    """The whole experiment (module docstring); each (group, seed) cached in ``work``."""
    from wsd import machine

    if not (model / "config.json").is_file():
        raise SystemExit(f"the base encoder {model} is absent (`bash ../shared/models/get-multilingual-e5.sh DIR`)")
    work.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "model": model.name,
        "seeds": seeds,
        "runs": {},
    }
    carry_over(results)
    for seed in seeds:
        for group, (_, scored) in GROUPS.items():
            trained = functools.partial(train, work, data_dir, model, group, seed)
            done = cell(work / f"{group}-seed{seed}.json", trained, data_dir, model, scored, seed, group)
            results["runs"][f"{group}-seed{seed}"] = {"group": group, "seed": seed, **done}
            save_page(results, RESULTS_JSON, RESULTS_MD, markdown)
    return results


def cell(
    cache: Path,
    trained: Callable[[], tuple[Path, dict[str, Any]]],
    data_dir: Path,
    model: Path,
    scored: tuple[str, ...],
    seed: int,
    label: str,
) -> dict[str, Any]:
    """One held-out variant's training summary and scored sets: read from ``cache``, else trained and scored."""
    from experiments.tune import training_summary

    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    folder, facts = trained()
    done: dict[str, Any] = {"training": training_summary(facts), "sets": {}}
    for name in scored:
        row = done["sets"][name] = score_set(data_dir, name, model, folder, seed)
        log(f"{label} seed {seed} {name}: rho PRT {row['untuned']['rho_prt']:.3f} -> {row['tuned']['rho_prt']:.3f}")
    cache.write_text(json.dumps(done, indent=1, default=float), encoding="utf-8")
    return done


def carry_over(results: dict[str, Any], committed: Path = RESULTS_JSON) -> None:
    """Add the committed runs of the seeds not asked now (same base model) to ``results`` (module docstring).

    ``command`` becomes the earlier command and this one, ``seeds`` their union.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> old = {"command": "a", "model": "m", "seeds": [0], "runs": {"x-seed0": {"seed": 0}, "x-seed2": {"seed": 2}}}
    >>> _ = (folder / "r.json").write_text(json.dumps(old), encoding="utf-8")
    >>> new = {"command": "b", "model": "m", "seeds": [2], "runs": {}}
    >>> carry_over(new, folder / "r.json")
    >>> new["command"], new["seeds"], list(new["runs"])
    ('a; b', [0, 2], ['x-seed0'])
    >>> again = {"command": "a", "model": "m", "seeds": [2], "runs": {}}  # the same command again: not repeated
    >>> carry_over(again, folder / "r.json")
    >>> again["command"]
    'a'
    """
    if not committed.is_file():
        return
    earlier = json.loads(committed.read_text(encoding="utf-8"))
    if earlier.get("model") != results["model"]:
        return
    kept = {key: run for key, run in earlier["runs"].items() if run["seed"] not in results["seeds"]}
    if not kept:
        return
    results["runs"].update(kept)
    commands = earlier["command"].split("; ")
    results["command"] = "; ".join([*commands, *([results["command"]] if results["command"] not in commands else [])])
    results["seeds"] = sorted({*(run["seed"] for run in kept.values()), *results["seeds"]})


#: What the page of the language-out protocol says about it (below its command line).
LANGUAGE_OUT = (
    "Each set is scored by the recipe trained without it (its group's WUG sets left out, their lemmas excluded "
    "from every other source), beside the untuned base in the same run; ρ is Spearman's against the graded "
    "change over the set's words; [a, b] is the word-bootstrap 95% interval of tuned − untuned. The protocol is "
    "in `experiments/sense_multilingual.py`'s docstring, fixed before any figure."
)


def markdown(
    results: dict[str, Any],
    groups: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = GROUPS,
    title: str = "sense-multilingual on the WUG sets it left out (issue 40)",
    protocol: str = LANGUAGE_OUT,
) -> str:
    """The results page: per set and measure, untuned, each seed's tuned ρ with its interval, the mean.

    ``groups`` are the protocol's held-out groups (each one's finished seeds are named), ``title`` the page's
    heading and ``protocol`` the paragraph that says how each set was scored.
    """
    finished = {
        group: sorted(run["seed"] for run in results["runs"].values() if run["group"] == group) for group in groups
    }
    done = "; ".join(f"{group} seeds {', '.join(map(str, seeds)) or 'none'}" for group, seeds in finished.items())
    lines = [
        f"# {title}",
        "",
        f"Command: `{results['command']}`  ",
        f"Machine of the last run: {results['machine']}; {results['date']}; base `{results['model']}`; finished: "
        f"{done} (seeds {', '.join(map(str, results['seeds']))} asked; each run's training machine below).",
        "",
        protocol,
        "",
        "| set | measure | untuned ρ | tuned ρ per seed (difference [95% interval]) | mean tuned ρ |",
        "|---|---|---:|---|---:|",
    ]
    by_set: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for run in results["runs"].values():
        for name, row in run["sets"].items():
            by_set.setdefault(name, []).append((run["seed"], row))
    for name, rows in by_set.items():
        for measure, label in (("prt", "PRT"), ("apd", "APD"), ("jsd", "JSD")):
            key = f"rho_{measure}"
            cells = []
            for seed, row in rows:
                low, high = row["intervals"][f"{key}_difference"]
                difference = row["tuned"][key] - row["untuned"][key]
                cells.append(f"seed {seed}: {row['tuned'][key]:.3f} ({difference:+.3f} [{low:+.3f}, {high:+.3f}])")
            mean = float(np.mean([row["tuned"][key] for _, row in rows]))
            lines.append(
                f"| {name} ({rows[0][1]['words']} words) | {label} | {rows[0][1]['untuned'][key]:.3f} | "
                f"{'; '.join(cells)} | {mean:.3f} |"
            )
    lines += ["", "Training:", ""]
    for key, run in results["runs"].items():
        training = run["training"]
        where = f", {training['precision']}" if training.get("precision") else ""
        where += f", {training['machine']}" if training.get("machine") else ""
        arithmetic = training.get("arithmetic") or {}
        if arithmetic:
            where += ", portable arithmetic" if arithmetic.get("portable") else ", the machine's own arithmetic"
        lines.append(f"- {key}: {training['steps']} steps, {training['seconds']:.0f} s{where}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments.sense_multilingual", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--model", type=Path, default=Path("/work/models/multilingual-e5-small-q4"))
    parser.add_argument("--seeds", default="0", help="comma-separated training seeds")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--work", type=Path, default=Path("out/experiments-sense-multilingual"))
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    if args.markdown_only:
        return rewrite_page(parser, RESULTS_JSON, RESULTS_MD, markdown)
    run(args.work, args.data_dir, args.model, [int(seed) for seed in args.seeds.split(",") if seed.strip()])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
