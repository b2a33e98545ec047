"""The report of a usage-similarity evaluation (``wsd evaluate --dataset wic``): facts, scores, figures, errors.

Such an output folder holds no run and no senses: ``metrics.json`` (its ``usage_pairs`` entry) and ``pairs.csv``
(one row per scored pair, :func:`wsd.workflows.wic.pair_table`). :func:`wsd.report.build.write_report` hands a
folder that :func:`is_pairs_folder` recognises to :func:`load_pairs_data` and :func:`pairs_report`; both tables are
checked against the folder's manifest first, like every table a report draws (:func:`wsd.report.data.
check_unchanged`: one changed since wsd wrote it is refused, naming it), and against each other.

The page: the facts (data file, dev file or lemma cross-validation, pairs, lemmas, share of same-sense pairs, dev
overlap, encoder), the scores (accuracy and ROC AUC with their 95% bootstrap intervals, the threshold or the
threshold of each fold), the cosine distributions of same-sense and different-sense pairs with the threshold
marked, the ROC curve with its AUC (:mod:`wsd.report.pair_plots`), and the lemmas with the most errors beside
the pairs judged wrong by the widest margin.

>>> data = load_pairs_data("out/wic")                          # doctest: +SKIP
>>> len(data.table) == data.entry["pairs"]                     # doctest: +SKIP
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.evaluate.metrics.usage_pairs import PAIR_TABLE_COLUMNS
from wsd.io.layout import METRICS_FILE, PAIRS_FILE, RUN_DIR
from wsd.io.locate import folder_kind
from wsd.report import pair_plots
from wsd.report.content import Image, Report, Section, Table, fmt_score, plural
from wsd.report.data import check_unchanged, read_metrics

#: The dataset name of a usage-similarity evaluation in ``metrics.json``.
DATASET = "wic"
#: What to do about a damaged or changed ``pairs.csv`` / ``metrics.json`` (the end of the error that names it).
DAMAGED_PAIRS = "run the same `wsd evaluate --dataset wic` again to rebuild it"
#: Lemmas listed in the table of the most errors; pairs in the table of the widest misses.
MOST_ERRORS, WIDEST_MISSES = 15, 10
#: Characters of each context shown in the table of the widest misses.
CONTEXT_CHARS = 90
#: Columns read as text, and as numbers (every other column of :data:`PAIR_TABLE_COLUMNS`).
TEXT_COLUMNS = ("lemma", "word_1", "word_2", "context_1", "context_2")
NUMBER_COLUMNS = tuple(name for name in PAIR_TABLE_COLUMNS if name not in TEXT_COLUMNS)


@dataclass
class PairsData:
    """What a usage-similarity report draws: the folder, its ``metrics.json`` and its ``pairs.csv``.

    Parameters
    ----------
    out_dir : Path
        The output folder of ``wsd evaluate --dataset wic``.
    metrics : dict
        ``metrics.json``.
    table : DataFrame
        ``pairs.csv``: the columns of :data:`wsd.evaluate.metrics.usage_pairs.PAIR_TABLE_COLUMNS`.
    """

    out_dir: Path
    metrics: dict[str, Any]
    table: pd.DataFrame

    @property
    def entry(self) -> dict[str, Any]:
        """``metrics.json``'s ``usage_pairs``: file, dev, thresholds, accuracy, AUC, their intervals."""
        return dict(self.metrics.get("usage_pairs") or {})


def is_pairs_folder(folder: str | os.PathLike[str]) -> bool:
    """Whether ``folder`` is the output of ``wsd evaluate --dataset wic``: no run, and ``pairs.csv`` or wic metrics.

    Parameters
    ----------
    folder : path
        A folder given to ``wsd report``.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_pairs_folder("no/such/folder")
    False
    """
    root = Path(folder)
    if not root.is_dir() or folder_kind(root) is not None or (root / RUN_DIR).exists():
        return False
    if (root / PAIRS_FILE).is_file():
        return True
    try:
        metrics = json.loads((root / METRICS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(metrics, dict) and metrics.get("dataset") == DATASET


def pairs_folder(
    folder: str | os.PathLike[str],
    senses: str | os.PathLike[str] | None = None,
    change: str | os.PathLike[str] | None = None,
) -> PairsData | None:
    """The checked data of a ``wsd evaluate --dataset wic`` output folder, or None for any other folder.

    Parameters
    ----------
    folder : path
        The folder given to ``wsd report``.
    senses, change : path, optional
        ``--senses`` and ``--change``: refused with such a folder (it has no senses to draw).

    Returns
    -------
    PairsData or None

    Raises
    ------
    ConfigError
        With ``senses`` or ``change`` given for such a folder.
    InputError
        As :func:`load_pairs_data`.

    Examples
    --------
    >>> pairs_folder("no/such/folder") is None
    True
    """
    if not is_pairs_folder(folder):
        return None
    if senses is not None or change is not None:
        raise ConfigError(f"--senses and --change go with a run; {folder} holds a wic evaluation (no senses)")
    return load_pairs_data(folder)


def load_pairs_data(folder: str | os.PathLike[str]) -> PairsData:
    """Read and check ``metrics.json`` and ``pairs.csv`` of a ``wsd evaluate --dataset wic`` output folder.

    Parameters
    ----------
    folder : path
        The output folder.

    Returns
    -------
    PairsData

    Raises
    ------
    InputError
        When either file is missing, was changed since wsd wrote it (the manifest's size or SHA-256 differs), is
        malformed (a missing column, a value that is not a number), or the two disagree (their pairs or accuracy);
        the message names the file.
    """
    root = Path(folder)
    metrics_path, pairs_path = root / METRICS_FILE, root / PAIRS_FILE
    for path in (metrics_path, pairs_path):
        check_unchanged(path, DAMAGED_PAIRS)
        if not path.is_file():
            raise InputError(f"{path}: missing (a wic evaluation writes it); {DAMAGED_PAIRS}")
    metrics = read_metrics(metrics_path)
    entry = metrics.get("usage_pairs")
    if metrics.get("dataset") != DATASET or not isinstance(entry, dict) or "accuracy" not in entry:
        raise InputError(f"{metrics_path}: not the metrics of `wsd evaluate --dataset wic` (no usage_pairs accuracy)")
    table = read_pair_table(pairs_path)
    if len(table) != entry.get("pairs"):
        raise InputError(
            f"{pairs_path}: {plural(len(table), 'pair')}, but {metrics_path} scores {entry.get('pairs')}; "
            f"{DAMAGED_PAIRS}"
        )
    accuracy = float(table["correct"].mean()) if len(table) else float("nan")
    if not np.isclose(accuracy, float(entry["accuracy"]), rtol=0.0, atol=1e-9):
        raise InputError(
            f"{pairs_path}: its correct column gives accuracy {accuracy:.6f}, {metrics_path} {entry['accuracy']:.6f}; "
            f"{DAMAGED_PAIRS}"
        )
    return PairsData(root, metrics, table)


def read_pair_table(path: Path) -> pd.DataFrame:
    """``pairs.csv`` as a table: text columns as written (``null`` stays a word), number columns finite.

    Parameters
    ----------
    path : Path
        The ``pairs.csv`` of a usage-pair evaluation.

    Returns
    -------
    DataFrame
        The columns of :data:`wsd.evaluate.metrics.usage_pairs.PAIR_TABLE_COLUMNS`, in order.

    Raises
    ------
    InputError
        When the file cannot be parsed, lacks a column, or holds a number column value that is not a finite number.
    """
    try:
        table = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a pairs table of `wsd evaluate --dataset wic` ({exc}); {DAMAGED_PAIRS}") from exc
    missing = [name for name in PAIR_TABLE_COLUMNS if name not in table.columns]
    if missing:
        raise InputError(f"{path}: no column {', '.join(missing)}; {DAMAGED_PAIRS}")
    for name in NUMBER_COLUMNS:
        values = pd.to_numeric(table[name], errors="coerce")
        bad = ~np.isfinite(values.to_numpy(dtype=np.float64))
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{path}: line {row + 2}: {name} {table[name].iloc[row]!r} is not a number; {DAMAGED_PAIRS}"
            )
        table[name] = values
    for name in ("pair", "label", "fold", "predicted", "correct"):
        table[name] = table[name].astype(np.int64)
    return table[list(PAIR_TABLE_COLUMNS)]


def pairs_report(data: PairsData, figures: Path, title: str | None, draw: Callable[..., None]) -> Report:
    """The report of a usage-similarity evaluation (see the module docstring).

    Parameters
    ----------
    data : PairsData
        The folder's metrics and pairs (:func:`load_pairs_data`).
    figures : Path
        The folder the PNGs are written into.
    title : str, optional
        The report's title (default ``Usage similarity: <folder name>``).
    draw : callable
        Calls a plotting function with the arguments after it and keeps the glyphs it could not draw
        (the report builder's).

    Returns
    -------
    Report
    """
    entry, table = data.entry, data.table
    labels = table["label"].to_numpy().astype(bool)
    cosines = table["cosine"].to_numpy(dtype=np.float64)
    report = Report(
        title=title or f"Usage similarity: {data.out_dir.resolve().name}",
        facts=pairs_facts(data.metrics),
        summary=scores_table(entry),
    )
    if entry.get("threshold_from") == "lemma-cv":
        report.sections.append(_folds_section(table))
    path = figures / "pairs-cosines.png"
    thresholds = [float(value) for value in entry.get("thresholds") or []]
    draw(pair_plots.cosine_distributions, cosines[labels], cosines[~labels], thresholds, entry["threshold_from"], path)
    where = "chosen on the dev pairs" if entry["threshold_from"] == "dev" else "of each lemma fold"
    images = [
        Image(
            path,
            "cosine distributions of same-sense and different-sense pairs",
            "scores",
            "Cosine of the two uses' vectors of each pair, same-sense pairs against different-sense pairs (each a "
            f"density); dashed: the threshold {where} (a pair at or above it is called same sense).",
        )
    ]
    if entry.get("auc") is not None and labels.any() and not labels.all():
        path = figures / "pairs-roc.png"
        draw(pair_plots.roc_curve, cosines, labels, float(entry["auc"]), entry.get("auc_ci"), table["predicted"], path)
        images.append(
            Image(
                path,
                "ROC curve of the cosine",
                "scores",
                "ROC curve of the cosine against the gold label, with its area (AUC) and 95% bootstrap interval; "
                "the point: the rates of the threshold's predictions.",
            )
        )
    report.sections.append(Section("Figures", "figures", images=images))
    report.sections.append(errors_section(table))
    report.notes.append(
        f"One row per pair in {PAIRS_FILE}: {', '.join(PAIR_TABLE_COLUMNS)} (the mean of correct is the accuracy). "
        f"Intervals: 95% percentile bootstrap over the pairs ({entry.get('resamples', '?')} resamples), the "
        "thresholds kept as chosen."
    )
    return report


def pairs_facts(metrics: dict[str, Any]) -> list[str]:
    """One-line facts: data, threshold source (dev file and its overlap, or lemma folds), pairs, encoder.

    Parameters
    ----------
    metrics : dict
        ``metrics.json`` of ``wsd evaluate --dataset wic``.

    Returns
    -------
    list of str

    Examples
    --------
    >>> pairs_facts({"usage_pairs": {"file": "d.txt", "dev": None, "threshold_from": "lemma-cv",
    ...              "thresholds": [0.5, 0.6], "pairs": 8, "lemmas": 4, "same": 4}})  # doctest: +NORMALIZE_WHITESPACE
    ['Data: d.txt', 'Threshold: chosen for each of 2 lemma folds on the other folds (no dev file)',
     'Pairs: 8 of 4 lemmas; 4 same sense (50.0%)']
    """
    entry = metrics.get("usage_pairs") or {}
    facts = [f"Data: {entry.get('file')}"]
    if entry.get("threshold_from") == "dev":
        overlap = entry.get("dev_overlap")
        shared = f"; {plural(int(overlap), 'lemma')} of it also in the data" if overlap else "; no lemma in common"
        facts.append(f"Threshold: chosen on the dev file {entry.get('dev')}{shared if overlap is not None else ''}")
    else:
        folds = len(entry.get("thresholds") or [])
        facts.append(f"Threshold: chosen for each of {folds} lemma folds on the other folds (no dev file)")
    pairs, same = int(entry.get("pairs", 0)), int(entry.get("same", 0))
    share = f" ({100 * same / pairs:.1f}%)" if pairs else ""
    facts.append(f"Pairs: {pairs:,} of {plural(int(entry.get('lemmas', 0)), 'lemma')}; {same:,} same sense{share}")
    embedding = metrics.get("embedding") or {}
    if embedding:
        shown = ", ".join(
            f"{key} {embedding[key]}" for key in ("model", "layers", "pooling", "dim") if embedding.get(key)
        )
        facts.append(f"Encoder: {shown}")
    overlap_tuned = metrics.get("training_overlap")
    if overlap_tuned is not None:
        facts.append(f"Tuned encoder: {plural(len(overlap_tuned), 'evaluated lemma')} in its training data")
    return facts


def _interval(interval: Any) -> str:
    if not isinstance(interval, (list, tuple)) or len(interval) != 2:
        return "–"
    return f"[{fmt_score(interval[0])}, {fmt_score(interval[1])}]"


def scores_table(entry: dict[str, Any]) -> Table:
    """Accuracy and ROC AUC with their 95% intervals, and the threshold(s) the accuracy was judged by.

    Parameters
    ----------
    entry : dict
        ``metrics.json``'s ``usage_pairs``.

    Returns
    -------
    Table

    Examples
    --------
    >>> scores_table({"accuracy": 0.75, "accuracy_ci": [0.5, 1.0], "auc": None, "auc_ci": None,
    ...               "threshold_from": "dev", "thresholds": [0.41]}).rows
    [['accuracy', '0.750', '[0.500, 1.000]'], ['ROC AUC', '–', '–'], ['threshold (dev)', '0.410', '']]
    """
    thresholds = [float(value) for value in entry.get("thresholds") or []]
    if entry.get("threshold_from") == "dev":
        threshold = ["threshold (dev)", fmt_score(thresholds[0]) if thresholds else "–", ""]
    else:
        spread = f"{fmt_score(min(thresholds))} – {fmt_score(max(thresholds))}" if thresholds else "–"
        threshold = [f"thresholds ({len(thresholds)} lemma folds)", spread, ""]
    rows = [
        ["accuracy", fmt_score(entry.get("accuracy")), _interval(entry.get("accuracy_ci"))],
        ["ROC AUC", fmt_score(entry.get("auc")), _interval(entry.get("auc_ci"))],
        threshold,
    ]
    return Table(
        ["score", "value", "95% interval"],
        rows,
        [False, True, True],
        caption="Same sense or not by the cosine of the two uses",
        css="scores",
        legend=[
            "Accuracy: share of pairs whose label the threshold gets right (a pair at or above it is called same "
            "sense). ROC AUC: the chance that a same-sense pair has a higher cosine than a different-sense pair "
            "(no threshold)."
        ],
    )


def _folds_section(table: pd.DataFrame) -> Section:
    """The threshold of each lemma fold, with the pairs and lemmas it judged and its accuracy there."""
    rows = []
    for fold, group in table.groupby("fold", sort=True):
        rows.append(
            [
                str(fold),
                fmt_score(float(group["threshold"].iloc[0])),
                f"{len(group):,}",
                f"{group['lemma'].nunique():,}",
                fmt_score(float(group["correct"].mean())),
            ]
        )
    return Section(
        "Lemma folds",
        "folds",
        paragraphs=[
            "Without a dev file each fold's pairs are judged by the threshold with the best accuracy on the other "
            "folds' pairs; no lemma is in two folds."
        ],
        tables=[Table(["fold", "threshold", "pairs", "lemmas", "accuracy"], rows, [True] * 5, css="scores")],
    )


def _short(text: str, limit: int = CONTEXT_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def errors_section(table: pd.DataFrame) -> Section:
    """The lemmas with the most wrongly judged pairs, and the pairs judged wrong by the widest margin.

    Parameters
    ----------
    table : DataFrame
        ``pairs.csv`` (:func:`read_pair_table`).

    Returns
    -------
    Section
    """
    by_lemma = (
        table.assign(errors=1 - table["correct"])
        .groupby("lemma", sort=True)
        .agg(pairs=("pair", "size"), errors=("errors", "sum"), same=("label", "sum"))
    )
    by_lemma = by_lemma[by_lemma["errors"] > 0]
    by_lemma = by_lemma.assign(rate=by_lemma["errors"] / by_lemma["pairs"])
    worst = by_lemma.sort_values(["errors", "rate"], ascending=False, kind="stable").head(MOST_ERRORS)
    lemma_rows = [
        [str(row.Index), f"{int(row.pairs):,}", f"{int(row.same):,}", f"{int(row.errors):,}", fmt_score(1 - row.rate)]
        for row in worst.itertuples()
    ]
    wrong = table[table["correct"] == 0]
    margin = (wrong["cosine"] - wrong["threshold"]).abs()
    widest = wrong.assign(margin=margin).sort_values("margin", ascending=False, kind="stable").head(WIDEST_MISSES)
    miss_rows = [
        [
            str(row.pair),
            str(row.lemma),
            f"{row.word_1} / {row.word_2}",
            "same" if row.label else "different",
            fmt_score(row.cosine),
            fmt_score(row.threshold),
            _short(row.context_1),
            _short(row.context_2),
        ]
        for row in widest.itertuples(index=False)
    ]
    errors = int((table["correct"] == 0).sum())
    section = Section(
        "Errors",
        "errors",
        paragraphs=[f"{plural(errors, 'pair')} of {len(table):,} judged wrong, over {plural(len(by_lemma), 'lemma')}."],
    )
    if lemma_rows:
        section.tables.append(
            Table(
                ["lemma", "pairs", "same sense", "errors", "accuracy"],
                lemma_rows,
                [False, True, True, True, True],
                caption=f"Lemmas with the most errors (at most {MOST_ERRORS})",
            )
        )
        section.tables.append(
            Table(
                ["pair", "lemma", "words", "gold", "cosine", "threshold", "use 1", "use 2"],
                miss_rows,
                [True, False, False, False, True, True, False, False],
                caption=f"Pairs judged wrong by the widest margin (at most {WIDEST_MISSES}; all in {PAIRS_FILE})",
            )
        )
    return section
