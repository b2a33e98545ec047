"""Usage similarity as a benchmark: how well the cosine of two uses' vectors tells same sense from different.

Run from the repository root::

    python -m experiments.usage_similarity [--data-dir DIR] [--skip-wug]

One table of every usage-similarity measure wsd computes, with the bundled encoder (all-MiniLM-L6-v2) and the
default embedding recipe:

- **WUG pair Spearman** on DWUG EN (``wsd evaluate --dataset wug`` → ``usage_pairs``): Spearman's ρ between the
  cosine of a judged pair of uses and its median human judgment (1–4), the mean over words and pooled;
- **WiC-style accuracy and ROC AUC** (``wsd evaluate --dataset wic``) on the dev sets of WiC, MCL-WiC (en-en,
  ru-ru) and AM2iCo (de, ru; where :func:`wsd.tune.wic.load` reads AM2iCo): the accuracy of a cosine threshold
  chosen by grouped 5-fold cross-validation over lemmas (the dev sets are the held-out data here, so no file of
  theirs chooses the threshold for itself), and the ROC AUC of the cosine, each with a 95% bootstrap interval
  over pairs (1,000 resamples, seed 0).

Results: ``experiments/results/usage_similarity/usage_similarity.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from experiments.common import DEFAULT_DATA_DIR, command_line, header_lines, log, results_dir

#: Name → (file under the datasets folder, what it is).
PAIR_SETS: dict[str, tuple[str, str]] = {
    "WiC dev (en)": ("wic/dev/dev.data.txt", "WiC"),
    "MCL-WiC dev en-en": ("mcl-wic/dev/multilingual/dev.en-en.data", "MCL-WiC"),
    "MCL-WiC dev ru-ru": ("mcl-wic/dev/multilingual/dev.ru-ru.data", "MCL-WiC"),
    "AM2iCo dev de-en": ("am2ico/de/dev.tsv", "AM2iCo"),
    "AM2iCo dev ru-en": ("am2ico/ru/dev.tsv", "AM2iCo"),
}
WUG_DATASET = "lscd/dwug_en"
#: Published figures (the datasets README): on the TEST sets, not the dev sets measured here.
PUBLISHED: list[dict[str, Any]] = [
    {"set": "WiC test (en)", "system": "BERT-large (Pilehvar & Camacho-Collados 2019)", "accuracy": 0.655},
    {"set": "WiC test (en)", "system": "human upper bound", "accuracy": 0.800},
    {"set": "MCL-WiC test en-en", "system": "median submission (SemEval-2021 Task 2)", "accuracy": 0.844},
    {"set": "MCL-WiC test ru-ru", "system": "median submission (SemEval-2021 Task 2)", "accuracy": 0.683},
]


def _interval(value: float | None, interval: list[float] | None) -> str:
    if value is None:
        return "–"
    return f"{value:.3f}" + (f" [{interval[0]:.3f}, {interval[1]:.3f}]" if interval else "")


def pair_rows(data_dir: Path, encoder: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """One row per WiC-format dev set (accuracy and AUC), and a note for each set that could not be read."""
    from wsd.config import build_evaluation_config
    from wsd.errors import InputError
    from wsd.workflows.benchmark import evaluate

    rows, notes = [], []
    for name, (relative, kind) in PAIR_SETS.items():
        path = data_dir / relative
        config = build_evaluation_config(dataset="wic", data=str(path))
        log(f"{name}: {path}")
        try:
            document = evaluate(config, encoder=encoder, progress=False)
        except InputError as error:
            notes.append(f"{name}: not measured ({error})")
            log(notes[-1])
            continue
        entry = document["usage_pairs"]
        rows.append({**entry, "set": name, "kind": kind, "file": relative, **_experiment_fields(name, entry)})
        log(f"  accuracy {entry['accuracy']:.3f}, auc {entry['auc']:.3f}")
    return rows, notes


def _experiment_fields(name: str, entry: dict[str, Any]) -> dict[str, Any]:
    """A row's ``setting`` and ``overall`` scores, as every results file has them (``wsd report --run
    experiments/results/usage_similarity`` draws them; :func:`wsd.report.experiments.read_experiment`)."""
    return {"setting": name, "overall": {"accuracy": entry["accuracy"], "auc": entry["auc"]}}


def wug_row(data_dir: Path, encoder: Any) -> dict[str, Any]:
    """The WUG pair Spearman of DWUG EN with the default vectors (every use embedded, no clustering)."""
    from wsd.config import build_evaluation_config
    from wsd.workflows.usage_pairs import usage_pair_agreement
    from wsd.workflows.vectors import embed_labelled
    from wsd.workflows.wug import load_wug

    config = build_evaluation_config(dataset="wug", data=str(data_dir / WUG_DATASET))
    _, occurrences = load_wug(config)
    log(f"DWUG EN: embedding {len(occurrences):,} uses")
    X, _ = embed_labelled(config, occurrences, encoder, None, False, None)
    entry = usage_pair_agreement(str(config.data), occurrences, X)
    return {key: value for key, value in entry.items() if key not in ("per_word", "without")}


#: What the header's seeds line says here: nothing is trained, so one pass; the figures are fractions.
SEEDS_NOTE = (
    "one deterministic pass, nothing trained; the lemma folds and the bootstrap are seeded; scores are fractions"
)


def markdown(document: dict[str, Any]) -> str:
    """The results page: provenance, the one table of usage-similarity measures, the published points."""
    lines = ["# Usage similarity as a benchmark", "", *document["header"], ""]
    lines += [
        "Our figures are on the **dev** sets (the test sets of WiC and of MCL-WiC en-en / ru-ru are not in "
        "../shared/datasets); the published points are on the **test** sets, from the papers, not ours. The "
        "threshold of the accuracy is chosen by grouped 5-fold cross-validation over lemmas (no lemma on both sides); "
        "brackets: 95% bootstrap intervals over pairs (1,000 resamples, seed 0). WUG: Spearman ρ of the cosine "
        "against the median judgment (1–4), mean over words (pooled over all pairs in the note).",
        "",
        "| data | pairs | lemmas | measure | ours (dev) | published (test, not ours) |",
        "|---|---|---|---|---|---|",
    ]
    wug = document.get("wug")
    if wug and wug.get("spearman_words") is not None:
        lines.append(
            f"| DWUG EN judged pairs | {wug['pairs']:,} | {wug['words']} | WUG pair Spearman ρ (mean over words) | "
            f"{wug['spearman_words']:.3f} (pooled {wug['spearman_pooled']:.3f}) | – |"
        )
    published: dict[str, list[str]] = {}
    for point in document["published_test"]:
        published.setdefault(point["set"].replace(" test", " dev"), []).append(
            f"{point['accuracy']:.3f} ({point['system']})"
        )
    for row in document["rows"]:
        lines.append(
            f"| {row['set']} | {row['pairs']:,} | {row['lemmas']:,} | accuracy (threshold by lemma CV) | "
            f"{_interval(row['accuracy'], row['accuracy_ci'])} | {'; '.join(published.get(row['set'], [])) or '–'} |"
        )
        lines.append(
            f"| {row['set']} | {row['pairs']:,} | {row['lemmas']:,} | ROC AUC of the cosine | "
            f"{_interval(row['auc'], row['auc_ci'])} | – |"
        )
    lines.append("")
    lines += [f"- {note}" for note in document["notes"]]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure every set and write the results files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--skip-wug", action="store_true", help="leave out the DWUG EN pair Spearman")
    parser.add_argument("--results-dir", type=Path, default=results_dir("usage_similarity"))
    args = parser.parse_args(argv)
    from wsd.config import build_evaluation_config
    from wsd.embed.encoder import Encoder

    options = build_evaluation_config(dataset="wic").embedding
    encoder = Encoder.from_options(options, progress=False)
    meta = encoder.identity(options.layers, options.pooling).embedding_meta()
    rows, notes = pair_rows(args.data_dir, encoder)
    document: dict[str, Any] = {
        "experiment": "usage_similarity",
        "command": command_line(),
        "header": header_lines(command_line(), 1, meta, seeds_note=SEEDS_NOTE),
        "embedding": meta,
        "rows": rows,
        "metric": "accuracy",
        # others' test-set figures on sets we score on dev: not the ``published`` scores of a setting we ran
        "published_test": PUBLISHED,
        "notes": notes,
    }
    if not args.skip_wug:
        document["wug"] = wug_row(args.data_dir, encoder)
    args.results_dir.mkdir(parents=True, exist_ok=True)
    (args.results_dir / "usage_similarity.json").write_text(
        json.dumps(document, indent=1, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8"
    )
    (args.results_dir / "usage_similarity.md").write_text(markdown(document), encoding="utf-8")
    log(f"written: {args.results_dir / 'usage_similarity.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
