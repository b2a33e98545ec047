"""The worked examples of the corpus-analysis guide, run as the guide shows them, with their figures.

Run from the repository root::

    python -m experiments.worked_examples [--work DIR] [--corpus FILE] [--markdown-only]

``docs/change.md`` walks through two analyses: the bundled demo corpus (two slices) and the State of the Union
addresses 1790–2026 (``../shared/corpora/sotu.jsonl.gz``; by century, by decade, a chosen pair of centuries, and
all five words the issue that shaped it tried: *power, bank, plant, interest, state*). This script runs exactly
those commands (default model and recipe) and writes the tables the page includes and the figures its prose
quotes, so that they are the outputs of this checkout, not figures copied by hand:

- each ranking (``change/ranking.csv``) and its unmeasured pairs (``unmeasured.csv``);
- the senses that appeared or vanished (``sense_changes.csv``);
- *power*'s sense counts by century (``counts.csv``), its senses' keywords (``senses.parquet``), and the trends
  (``trends.csv``) and largest change (``largest_change.csv``) of the words the page discusses.

Results: ``experiments/results/worked_examples/worked_examples.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import pandas as pd

from experiments.common import command_line, log, results_dir, rewrite_page, run_wsd, save_page

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "sotu.jsonl.gz"
DEMO_TARGETS = "mouse,bank,plant,bat,cell"
SOTU_TARGETS = "power,bank,plant"
SOTU_ALL_TARGETS = "power,bank,plant,interest,state"
#: Words of the issue-41 historian's twelve with a handful of uses (virus 5, web 7, cell 12), and state, whose
#: uses are mostly capitalised ("Secretary of State"): one sense and the proper-name warning, without a lemmatizer.
SOTU_SMALL_TARGETS = "virus,web,cell,state"


#: The floor before issue 25's last change, for the comparisons that show what it let through.
OLD_FLOOR = ("--min-uses", "10")


def runs(work: Path, corpus: Path) -> tuple[dict[str, Path], dict[str, float]]:
    """Run every command of the page that has no output yet: the change folder of each analysis, and the wall
    seconds of each command (kept in ``WORK/seconds.json``, so a resumed run still reports them)."""
    demo, sotu, sotu_all = work / "demo-change", work / "sotu", work / "sotu-all"
    sotu_small = work / "sotu-small"
    plan: list[tuple[Path, list[str]]] = [
        (
            demo / "change",
            [
                "run",
                "--corpus",
                "data/demo/corpus.jsonl",
                "--meta",
                "year",
                "--targets",
                DEMO_TARGETS,
                "--forms",
                "data/demo/forms.tsv",
                "--by",
                "year",
                "--bins",
                "1850:1984,1985:2020",
                "--out",
                str(demo),
            ],
        ),
        (
            work / "demo-min-uses-5",
            [
                "change",
                "--run",
                str(demo),
                "--by",
                "year",
                "--bins",
                "1850:1984,1985:2020",
                "--min-uses",
                "5",
                "--out",
                str(work / "demo-min-uses-5"),
            ],
        ),
        (
            sotu / "change",
            [
                "run",
                "--corpus",
                str(corpus),
                "--meta",
                "year,president",
                "--targets",
                SOTU_TARGETS,
                "--by",
                "year",
                "--bin-width",
                "100",
                "--out",
                str(sotu),
            ],
        ),
        (
            work / "sotu-decades",
            ["change", "--run", str(sotu), "--by", "year", "--bin-width", "10", "--out", str(work / "sotu-decades")],
        ),
        (
            work / "sotu-1800s-2000s",
            [
                "change",
                "--run",
                str(sotu),
                "--by",
                "year",
                "--bin-width",
                "100",
                "--between",
                "1800:1899,2000:2099",
                "--out",
                str(work / "sotu-1800s-2000s"),
            ],
        ),
        (
            sotu_all / "change",
            [
                "run",
                "--corpus",
                str(corpus),
                "--meta",
                "year,president",
                "--targets",
                SOTU_ALL_TARGETS,
                "--by",
                "year",
                "--bin-width",
                "100",
                "--out",
                str(sotu_all),
            ],
        ),
        (
            sotu_small / "change",
            [
                "run",
                "--corpus",
                str(corpus),
                "--meta",
                "year,president",
                "--targets",
                SOTU_SMALL_TARGETS,
                "--by",
                "year",
                "--bin-width",
                "100",
                "--out",
                str(sotu_small),
            ],
        ),
        *[
            (
                work / name,
                [
                    "change",
                    "--run",
                    str(source),
                    "--by",
                    "year",
                    "--bin-width",
                    "100",
                    *extra,
                    *OLD_FLOOR,
                    "--out",
                    str(work / name),
                ],
            )
            for name, source, extra in (
                ("sotu-1800s-2000s-min-uses-10", sotu, ["--between", "1800:1899,2000:2099"]),
                ("sotu-all-min-uses-10", sotu_all, []),
            )
        ],
    ]
    timings_file = work / "seconds.json"
    seconds = json.loads(timings_file.read_text(encoding="utf-8")) if timings_file.is_file() else {}
    for folder, args in plan:
        name = Path(args[args.index("--out") + 1]).name
        if not (folder / "ranking.csv").is_file():
            seconds[name] = run_wsd(args, quiet=True)
            timings_file.write_text(json.dumps(seconds, indent=1), encoding="utf-8")
            log(f"wsd {args[0]} → {folder}: {seconds[name]:.0f} s")
    folders = {
        "demo": demo / "change",
        "demo_min_uses_5": work / "demo-min-uses-5",
        "sotu_centuries": sotu / "change",
        "sotu_decades": work / "sotu-decades",
        "sotu_1800s_2000s": work / "sotu-1800s-2000s",
        "sotu_all_centuries": sotu_all / "change",
        "sotu_1800s_2000s_min_uses_10": work / "sotu-1800s-2000s-min-uses-10",
        "sotu_all_min_uses_10": work / "sotu-all-min-uses-10",
        "sotu_small": sotu_small / "change",
    }
    return folders, seconds


def _records(folder: Path, name: str) -> list[dict[str, Any]]:
    frame = pd.read_csv(folder / name, keep_default_na=False)
    return json.loads(frame.to_json(orient="records"))


def collect(folders: dict[str, Path]) -> dict[str, Any]:
    """The figures of every analysis, read from its change folder (and *power*'s sense cards)."""
    figures: dict[str, Any] = {}
    for name, folder in folders.items():
        figures[name] = {
            "ranking": _records(folder, "ranking.csv"),
            "unmeasured": _records(folder, "unmeasured.csv"),
            "sense_changes": _records(folder, "sense_changes.csv"),
            "trends": _records(folder, "trends.csv"),
            "largest_change": _records(folder, "largest_change.csv"),
            "counts": _records(folder, "counts.csv"),
        }
    senses = pd.read_parquet(folders["sotu_centuries"].parent / "senses" / "senses.parquet")
    power = senses[senses["target"] == "power"]
    figures["power_senses"] = [
        {"sense": int(row["sense"]), "size": int(row["size"]), "keywords": list(row["keywords"])[:8]}
        for _, row in power.iterrows()
    ]
    figures["small_words"] = small_words(folders["sotu_small"].parent)
    return figures


def small_words(out: Path) -> dict[str, Any]:
    """Per target of a ``wsd run`` folder: its uses, its senses, why it kept one sense (``senses/meta.json``), its
    uses capitalised mid-sentence (``run/meta.json``), and the proper-name warning the run gave."""
    from wsd.corpus.proper import proper_message
    from wsd.io.layout import RUN_DIR, SENSES_DIR
    from wsd.io.run_reader import read_meta

    scan = read_meta(out / RUN_DIR)["scan"]
    senses = read_meta(out / SENSES_DIR)
    uses, proper = scan["occurrences"], scan.get("proper", {})
    return {
        "targets": {
            target: {
                "uses": int(uses.get(target, 0)),
                "senses": int(senses["senses"].get(target, 0)),
                "one_sense": senses.get("one_sense", {}).get(target, ""),
                "split": senses.get("few_uses_split", {}).get(target, ""),
                "capitalised": int(sum(proper.get(target, {}).values())),
            }
            for target in SOTU_SMALL_TARGETS.split(",")
        },
        "warning": proper_message(proper, uses),
    }


def small_words_table(figures: dict[str, Any]) -> list[str]:
    """The words with few uses and the capitalised ones: uses, senses, why one sense (or why split on few uses,
    ``few_uses_split``), capitalised mid-sentence."""
    lines = [
        "| target | uses | senses | why one sense, or why split on few uses | capitalised mid-sentence |",
        "|---|---:|---:|---|---:|",
    ]
    for target, row in figures["targets"].items():
        share = f"{row['capitalised']:,} ({row['capitalised'] / max(row['uses'], 1):.0%})"
        why = row["one_sense"] or row.get("split", "") or "–"
        lines.append(f"| {target} | {row['uses']:,} | {row['senses']} | {why} | {share} |")
    return lines


def _f(value: Any, digits: int = 3) -> str:
    return "–" if value in (None, "") else f"{float(value):.{digits}f}"


def _p(value: Any) -> str:
    """A p-value at two significant digits."""
    return "–" if value in (None, "") else f"{float(value):.2g}"


def ranking_table(rows: list[dict[str, Any]]) -> list[str]:
    """``ranking.csv`` as the page shows it."""
    if not rows:
        return ["(no target ranked)"]
    a, b = rows[0]["slice_a"], rows[0]["slice_b"]
    lines = [
        f"| rank | target | prt (score) | 95% interval | shrunk | jsd | apd | binary | uses {a} | uses {b} |",
        "|---:|---|---:|---|---:|---:|---:|---|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['rank']} | {row['target']} | {_f(row['score'])} | "
            f"{_f(row['score_low'])}–{_f(row['score_high'])} | "
            f"{_f(row['score_shrunk'])} | {_f(row['jsd'])} | {_f(row['apd'])} | {'yes' if row['binary'] else 'no'} | "
            f"{row['uses_a']:,} | {row['uses_b']:,} |"
        )
    return lines


def unmeasured_table(rows: list[dict[str, Any]], pair: str | None = "first-last") -> list[str]:
    """The unmeasured pairs (of one kind of pair, or all) with their reasons."""
    chosen = [row for row in rows if pair is None or row["pair"] == pair]
    if not chosen:
        return ["(none)"]
    lines = ["| target | slices | reason |", "|---|---|---|"]
    lines += [f"| {r['target']} | {r['slice_a']} vs {r['slice_b']} | {r['reason']} |" for r in chosen]
    return lines


def sense_change_table(rows: list[dict[str, Any]]) -> list[str]:
    """``sense_changes.csv``: the senses that appeared or vanished."""
    if not rows:
        return ["(none)"]
    lines = ["| target | sense | change | uses of the sense | Fisher p | keywords |", "|---|---:|---|---|---:|---|"]
    for r in rows:
        keywords = ", ".join(str(r["keywords"]).split(" | ")[:4])
        lines.append(
            f"| {r['target']} | {r['sense']} | {r['change']} | {r['count_a']} of {r['uses_a']} → {r['count_b']} of "
            f"{r['uses_b']} | {_p(r['p_value'])} | {keywords} |"
        )
    return lines


def trend_table(rows: list[dict[str, Any]], targets: tuple[str, ...]) -> list[str]:
    """``trends.csv`` rows of some targets."""
    chosen = [r for r in rows if r["target"] in targets]
    lines = [
        "| target | sense | slices | share first → last | Kendall τ | p | slope a slice | 95% interval | trend |",
        "|---|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for r in chosen:
        lines.append(
            f"| {r['target']} | {r['sense']} | {r['slices']} | {_f(r['proportion_first'])} → "
            f"{_f(r['proportion_last'])} | {_f(r['tau'], 2)} | {_p(r['p_value'])} | {float(r['slope']):+.3f} | "
            f"{float(r['slope_low']):+.3f} to {float(r['slope_high']):+.3f} | {r['trend']} |"
        )
    return lines


def counts_table(rows: list[dict[str, Any]], target: str, sense: int) -> list[str]:
    """One sense's count and share in each slice."""
    lines = [f"| slice | uses of *{target}* | sense {sense} | share |", "|---|---:|---:|---:|"]
    by_slice: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["target"] == target:
            entry = by_slice.setdefault(r["slice"], {"uses": r["uses"], "count": 0})
            if int(r["sense"]) == sense:
                entry["count"] = r["count"]
    for name, entry in sorted(by_slice.items()):
        share = 100 * entry["count"] / entry["uses"] if entry["uses"] else 0.0
        lines.append(f"| {name} | {entry['uses']:,} | {entry['count']:,} | {share:.1f}% |")
    return lines


def largest_table(rows: list[dict[str, Any]], targets: tuple[str, ...]) -> list[str]:
    """``largest_change.csv`` rows of some targets."""
    lines = ["| target | slices | prt | 95% interval | uses |", "|---|---|---:|---|---|"]
    for r in rows:
        if r["target"] in targets:
            lines.append(
                f"| {r['target']} | {r['slice_a']} vs {r['slice_b']} | {_f(r['score'])} | "
                f"{_f(r['score_low'])}–{_f(r['score_high'])} | {r['uses_a']} vs {r['uses_b']} |"
            )
    return lines


def energy_sense(senses: list[dict[str, Any]]) -> int:
    """*power*'s sense whose keywords name energy (the page follows it); the smaller sense if none does."""
    for sense in senses:
        if any(word in sense["keywords"] for word in ("energy", "electric", "nuclear")):
            return int(sense["sense"])
    return int(min(senses, key=lambda s: s["size"])["sense"])


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    f = results["figures"]
    energy = energy_sense(f["power_senses"])
    decades = f["sotu_decades"]
    steps = [r for r in decades["unmeasured"] if r["pair"] != "first-last"]
    per_target = {t: sum(1 for r in steps if r["target"] == t) for t in sorted({r["target"] for r in steps})}
    lines = [
        "# Worked examples: the demo corpus and the State of the Union",
        "",
        f"- Command: `{results['command']}`",
        f"- Date: {results['date']}; machine: {results['machine']}",
        "- Default model and recipe; each command as `docs/change.md` shows it; times are wall seconds on this machine",
        "",
        "## The demo corpus, 1850:1984 vs 1985:2020",
        "",
        f"`wsd run ... --targets {DEMO_TARGETS} --by year --bins 1850:1984,1985:2020` "
        f"({results['seconds']['demo-change']:.0f} s):",
        "",
        *ranking_table(f["demo"]["ranking"]),
        "",
        "### Unmeasured",
        "",
        *unmeasured_table(f["demo"]["unmeasured"]),
        "",
        "### With `--min-uses 5`",
        "",
        *ranking_table(f["demo_min_uses_5"]["ranking"]),
        "",
        "### Senses that appeared or vanished",
        "",
        *sense_change_table(f["demo"]["sense_changes"]),
        "",
        "## State of the Union by century: power, bank, plant",
        "",
        f"`wsd run ... --targets {SOTU_TARGETS} --by year --bin-width 100` ({results['seconds']['sotu']:.0f} s):",
        "",
        "### The senses of power",
        "",
        "| sense | uses | keywords |",
        "|---:|---:|---|",
        *[f"| {s['sense']} | {s['size']:,} | {', '.join(s['keywords'])} |" for s in f["power_senses"]],
        "",
        f"### Power's sense {energy} by century",
        "",
        *counts_table(f["sotu_centuries"]["counts"], "power", energy),
        "",
        "### The ranking",
        "",
        *ranking_table(f["sotu_centuries"]["ranking"]),
        "",
        *unmeasured_table(f["sotu_centuries"]["unmeasured"]),
        "",
        "### Trends",
        "",
        *trend_table(f["sotu_centuries"]["trends"], ("power",)),
        "",
        "## State of the Union by decade",
        "",
        "`wsd change --run runs/sotu --by year --bin-width 10`:",
        "",
        *ranking_table(decades["ranking"]),
        "",
        *unmeasured_table(decades["unmeasured"]),
        "",
        f"Consecutive decades unmeasured (fewer than --min-uses uses): {len(steps)} "
        f"({', '.join(f'{t} {n}' for t, n in per_target.items())}).",
        "",
        "### Trends",
        "",
        *trend_table(decades["trends"], ("power", "bank")),
        "",
        "### Largest change over any two decades",
        "",
        *largest_table(decades["largest_change"], ("power",)),
        "",
        "## State of the Union, the 1800s vs the 2000s",
        "",
        "`wsd change --run runs/sotu --by year --bin-width 100 --between 1800:1899,2000:2099`:",
        "",
        *ranking_table(f["sotu_1800s_2000s"]["ranking"]),
        "",
        *unmeasured_table(f["sotu_1800s_2000s"]["unmeasured"]),
        "",
        "### With `--min-uses 10` (the floor before issue 25's last change)",
        "",
        *ranking_table(f["sotu_1800s_2000s_min_uses_10"]["ranking"]),
        "",
        "## State of the Union by century: all five words",
        "",
        f"`wsd run ... --targets {SOTU_ALL_TARGETS} --by year --bin-width 100` "
        f"({results['seconds']['sotu-all']:.0f} s):",
        "",
        *ranking_table(f["sotu_all_centuries"]["ranking"]),
        "",
        *unmeasured_table(f["sotu_all_centuries"]["unmeasured"]),
        "",
        "### With `--min-uses 10` (the floor before issue 25's last change)",
        "",
        *ranking_table(f["sotu_all_min_uses_10"]["ranking"]),
        "",
        "### Trends",
        "",
        *trend_table(f["sotu_all_centuries"]["trends"], ("interest", "state")),
        "",
        "### Senses that appeared or vanished",
        "",
        *sense_change_table(f["sotu_all_centuries"]["sense_changes"]),
        "",
        "## State of the Union: a handful of uses, and proper names",
        "",
        f"`wsd run ... --targets {SOTU_SMALL_TARGETS} --by year --bin-width 100` "
        f"({results['seconds'].get('sotu-small', 0):.0f} s), no lemmatizer: the senses per target, why a word kept "
        "one sense (`senses/meta.json`), and its uses capitalised mid-sentence (`run/meta.json`):",
        "",
        *small_words_table(f["small_words"]),
        "",
        f'The run\'s warning: *"{f["small_words"]["warning"]}"*',
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.worked_examples", description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("out/experiments-worked-examples"), help="the runs")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the State of the Union corpus")
    parser.add_argument("--out", type=Path, default=results_dir("worked_examples"))
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    json_file, md_file = args.out / "worked_examples.json", args.out / "worked_examples.md"
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    if not args.corpus.is_file():
        raise SystemExit(f"the State of the Union corpus {args.corpus} is absent (--corpus FILE)")
    from wsd import machine

    args.work.mkdir(parents=True, exist_ok=True)
    folders, seconds = runs(args.work, args.corpus)
    results = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "seconds": seconds,
        "figures": collect(folders),
    }
    save_page(results, json_file, md_file, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
