"""Few-shot disambiguation on SemEval-2010 Task 14, supervised (80/20 per lemma): the rule chosen, 1-NN and MFS.

Run from the repository root::

    python -m experiments.few_shot [--data-dir DIR] [--seeds 5] [--markdown-only]

Each lemma's instances are split 80/20 at random (seeded, one split per seed): the 80% are the labelled examples,
the 20% are labelled by :class:`wsd.senses.nearest.FewShotSenses` and scored (accuracy and macro-F1,
:mod:`wsd.evaluate.metrics.disambiguation`) against the most-frequent-sense baseline (the sense with the most
examples of the lemma).

**Choosing without looking at the result.** The 100 lemmas are split in two halves by alphabetical position
(``dev``: even positions, 0, 2, ...; ``test``: odd). Every candidate — the representation (the target's vector
alone, or with the default recipe's context vector), the rule (local-mean k-NN with ``n_neighbors`` in
:data:`NEIGHBORS`, or sense centroids) and the margin (:data:`MARGINS`) — is scored on the dev lemmas only, over
the same seeds; the best mean dev accuracy (then macro-F1) becomes wsd's default. The result is that candidate,
1-NN (no margin, the same representation), the centroids and MFS on the test lemmas, which chose nothing.

The vectors are the bundled encoder's with the default recipe's context vector (``--context-vector 20:last:0.5``:
``[unit(target), 0.5 · unit(context)]``), from wsd's vector cache; the target's vector alone is their first half
(cosine similarity ignores its unit length). Results: ``experiments/results/few_shot/few_shot.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from experiments.common import (
    BENCHMARKS,
    DEFAULT_DATA_DIR,
    command_line,
    labelled_occurrences,
    log,
    results_dir,
    rewrite_page,
    save_page,
    semeval2013_split,
)

#: Examples per sense that the k-NN rule averages (1: the nearest neighbour).
NEIGHBORS: tuple[int, ...] = (1, 3, 5, 10)
#: The margins (cosine units) below which the most frequent sense is given; 0: never.
MARGINS: tuple[float, ...] = (0.0, 0.005, 0.01, 0.02, 0.04)
#: The representations compared: the target's vector alone, or beside the default recipe's context vector.
REPRESENTATIONS: tuple[str, ...] = ("target", "target+context")
CONTEXT_VECTOR = "20:last:0.5"
TRAIN_SHARE = 0.8


def split(occurrences: pd.DataFrame, seed: int) -> np.ndarray:
    """A boolean mask of the examples: a seeded random 80% of each lemma's instances (at least one of each side)."""
    rng = np.random.default_rng(seed)
    train = np.zeros(len(occurrences), dtype=bool)
    for _, rows in occurrences.groupby("target", sort=True).indices.items():
        n_train = min(max(round(TRAIN_SHARE * len(rows)), 1), len(rows) - 1)
        train[rng.permutation(rows)[:n_train]] = True
    return train


def halves(targets: list[str]) -> dict[str, list[str]]:
    """``dev``: the lemmas at even alphabetical positions (0, 2, ...); ``test``: the others."""
    return semeval2013_split(targets)


def candidates() -> list[dict[str, Any]]:
    """Every setting scored on the dev lemmas."""
    found = []
    for representation in REPRESENTATIONS:
        for margin in MARGINS:
            for k in NEIGHBORS:
                found.append({"representation": representation, "rule": "knn", "n_neighbors": k, "margin": margin})
            found.append({"representation": representation, "rule": "centroid", "n_neighbors": 1, "margin": margin})
    return found


def name(setting: dict[str, Any]) -> str:
    """A setting in words."""
    rule = f"k-NN k={setting['n_neighbors']}" if setting["rule"] == "knn" else "centroids"
    return f"{setting['representation']}, {rule}, margin {setting['margin']:g}"


def score(
    occurrences: pd.DataFrame, vectors: dict[str, np.ndarray], setting: dict[str, Any], train: np.ndarray
) -> dict[str, Any]:
    """Fit on the examples (``train``), label the rest, score: accuracy, macro-F1, and the same of MFS."""
    from wsd.evaluate.metrics.disambiguation import disambiguation_scores
    from wsd.senses.nearest import FewShotSenses, NearestSenseClassifier

    X = vectors[setting["representation"]]
    classifier = NearestSenseClassifier(
        rule=setting["rule"], n_neighbors=setting["n_neighbors"], margin=setting["margin"]
    )
    examples, held_out = occurrences[train], occurrences[~train]
    model = FewShotSenses(classifier).fit(examples, X[train], examples["sense"].to_numpy())
    labels = model.label(held_out, X[~train])
    targets, gold = held_out["target"].to_numpy(), held_out["sense"].to_numpy()
    system = disambiguation_scores(targets, gold, labels["sense"].to_numpy())
    baseline = disambiguation_scores(targets, gold, labels["most_frequent"].to_numpy())
    return {
        "accuracy": system["accuracy"],
        "macro_f1": system["macro_f1"],
        "mfs_accuracy": baseline["accuracy"],
        "mfs_macro_f1": baseline["macro_f1"],
        "fallback": float(labels["fallback"].mean()),
        "n": system["n"],
    }


def over_seeds(
    occurrences: pd.DataFrame, vectors: dict[str, np.ndarray], setting: dict[str, Any], masks: list[np.ndarray]
) -> dict[str, Any]:
    """:func:`score` for every seed's split, as mean and std per figure."""
    per_seed = [score(occurrences, vectors, setting, train) for train in masks]
    keys = ("accuracy", "macro_f1", "mfs_accuracy", "mfs_macro_f1", "fallback")
    return {
        **setting,
        "mean": {key: float(np.mean([s[key] for s in per_seed])) for key in keys},
        "std": {key: float(np.std([s[key] for s in per_seed])) for key in keys},
        "n": per_seed[0]["n"],
        "per_seed": per_seed,
    }


def run(data_dir: Path, seeds: int) -> dict[str, Any]:
    """The whole experiment (see the module docstring), as plain figures."""
    from wsd.embed.cache import embed_cached
    from wsd.embed.encoder import Encoder

    occurrences = labelled_occurrences(BENCHMARKS["semeval2010"], data_dir).reset_index(drop=True)
    encoder = Encoder(context_vector=CONTEXT_VECTOR)
    started = time.perf_counter()
    (both,) = embed_cached(encoder, occurrences, [("sum-last-4", "mean")])
    log(f"vectors: {both.shape} in {time.perf_counter() - started:.0f} s")
    width = both.shape[1] // 2
    vectors = {"target": both[:, :width], "target+context": both}
    parts = halves(occurrences["target"].unique().tolist())
    masks = [split(occurrences, seed) for seed in range(seeds)]
    results: dict[str, Any] = {"embedding": encoder.identity().embedding_meta(), "seeds": seeds, "halves": parts}
    for half in ("dev", "test"):
        rows = occurrences["target"].isin(parts[half]).to_numpy()
        results[f"{half}_size"] = {"lemmas": len(parts[half]), "instances": int(rows.sum())}
    dev_rows = occurrences["target"].isin(parts["dev"]).to_numpy()
    dev = occurrences[dev_rows].reset_index(drop=True)
    dev_vectors = {key: value[dev_rows] for key, value in vectors.items()}
    dev_masks = [mask[dev_rows] for mask in masks]
    selection = []
    for setting in candidates():
        selection.append(over_seeds(dev, dev_vectors, setting, dev_masks))
        log(f"dev {name(setting)}: accuracy {selection[-1]['mean']['accuracy']:.4f}")
    chosen = max(selection, key=lambda row: (row["mean"]["accuracy"], row["mean"]["macro_f1"]))
    chosen_setting = {key: chosen[key] for key in ("representation", "rule", "n_neighbors", "margin")}
    test_rows = occurrences["target"].isin(parts["test"]).to_numpy()
    test = occurrences[test_rows].reset_index(drop=True)
    test_vectors = {key: value[test_rows] for key, value in vectors.items()}
    test_masks = [mask[test_rows] for mask in masks]
    reported = {
        "chosen": chosen_setting,
        "1-NN": chosen_setting | {"rule": "knn", "n_neighbors": 1, "margin": 0.0},
        "centroids": chosen_setting | {"rule": "centroid", "n_neighbors": 1},
    }
    results["selection"] = [{k: v for k, v in row.items() if k != "per_seed"} for row in selection]
    results["chosen"] = chosen_setting
    results["test"] = {
        label: over_seeds(test, test_vectors, setting, test_masks) for label, setting in reported.items()
    }
    return results


def _pct(mean: float, std: float | None = None) -> str:
    return f"{100 * mean:.1f}" + ("" if std is None else f" ± {100 * std:.1f}")


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    embedding = results["embedding"]
    test, chosen = results["test"], results["chosen"]
    first = next(iter(test.values()))
    lines = [
        "# Few-shot disambiguation on SemEval-2010 (supervised, 80/20 per lemma)",
        "",
        f"- Command: `{results['command']}`",
        f"- Date: {results['date']}; machine: {results['machine']}",
        f"- Encoder: {embedding['model']} ({embedding['runtime']}, {embedding['precision']}), layers "
        f"{embedding['layers']}, pooling {embedding['pooling']}, context vector {embedding['context_vector']} "
        "(the target's vector alone is its first half)",
        f"- Seeds: {results['seeds']} random 80/20 splits of each lemma (mean ± std over seeds; scores in percent)",
        f"- Halves: dev {results['dev_size']['lemmas']} lemmas ({results['dev_size']['instances']} instances, "
        f"even alphabetical positions) chose the setting; test {results['test_size']['lemmas']} lemmas "
        f"({results['test_size']['instances']} instances) report it",
        "",
        "## The result: test lemmas",
        "",
        f"Chosen on the dev lemmas: **{name(chosen)}** (now wsd's default: `wsd predict --examples`, "
        "`SenseTagger.from_examples`). 1-NN and the centroids use the same representation. "
        f"{first['n']} held-out instances per seed.",
        "",
        "| setting | accuracy | macro-F1 | below the margin (MFS given) |",
        "|---|---:|---:|---:|",
    ]
    for label, row in test.items():
        mean, std = row["mean"], row["std"]
        lines.append(
            f"| {label}: {name(row)} | {_pct(mean['accuracy'], std['accuracy'])} | "
            f"{_pct(mean['macro_f1'], std['macro_f1'])} | {_pct(mean['fallback'])} |"
        )
    mean, std = first["mean"], first["std"]
    lines.append(
        f"| *baseline: most frequent sense* | {_pct(mean['mfs_accuracy'], std['mfs_accuracy'])} | "
        f"{_pct(mean['mfs_macro_f1'], std['mfs_macro_f1'])} | |"
    )
    chosen_row = test["chosen"]
    gains = [s["accuracy"] - s["mfs_accuracy"] for s in chosen_row["per_seed"]]
    lines += [
        "",
        f"The chosen setting beats the most frequent sense by {100 * float(np.mean(gains)):+.1f} points of accuracy "
        f"(per seed {', '.join(f'{100 * g:+.1f}' for g in gains)}).",
        "",
        "## Selection: dev lemmas (not the result)",
        "",
        "Every candidate, mean over the same seeds; the best accuracy (then macro-F1) was chosen.",
        "",
        "| representation | rule | margin | accuracy | macro-F1 | MFS given |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for row in results["selection"]:
        rule = f"k-NN k={row['n_neighbors']}" if row["rule"] == "knn" else "centroids"
        mark = "**" if all(row[k] == chosen[k] for k in chosen) else ""
        lines.append(
            f"| {row['representation']} | {rule} | {row['margin']:g} | {mark}{_pct(row['mean']['accuracy'])}{mark} | "
            f"{_pct(row['mean']['macro_f1'])} | {_pct(row['mean']['fallback'])} |"
        )
    dev_mfs = results["selection"][0]["mean"]
    lines += [
        f"| *baseline: most frequent sense* | | | {_pct(dev_mfs['mfs_accuracy'])} | "
        f"{_pct(dev_mfs['mfs_macro_f1'])} | |",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.few_shot", description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--seeds", type=int, default=5, help="random 80/20 splits")
    parser.add_argument("--out", type=Path, default=results_dir("few_shot"))
    parser.add_argument("--markdown-only", action="store_true", help="rewrite the Markdown from the JSON")
    args = parser.parse_args(argv)
    json_file, md_file = args.out / "few_shot.json", args.out / "few_shot.md"
    if args.markdown_only:
        return rewrite_page(parser, json_file, md_file, markdown)
    from threadpoolctl import threadpool_limits

    from wsd import machine

    with threadpool_limits(limits=1):  # one word's examples are a small matrix: more threads only add overhead
        results = run(args.data_dir, args.seeds)
    results |= {"command": command_line(), "machine": machine.describe(), "date": time.strftime("%Y-%m-%d")}
    save_page(results, json_file, md_file, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
