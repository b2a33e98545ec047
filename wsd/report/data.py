"""Loading what a report shows from an output folder: occurrences, vectors, induced and gold senses, scores.

Two layouts are read:

* the ``--out`` folder of ``wsd run``, ``wsd demo`` or ``wsd evaluate``: ``OUT/run/`` (occurrences, vectors),
  ``OUT/senses/`` (labels, sense descriptions), optionally ``OUT/metrics.json`` and ``OUT/gold.parquet``
  (``wsd evaluate`` keeps the gold in the ``sense`` column of ``OUT/run/occurrences.parquet`` instead);
* a run directory of ``wsd embed`` clustered in place by ``wsd cluster`` (``RUN/meta.json``, ``RUN/senses/``).

Either may hold a change folder (``OUT/change/`` of ``wsd run --by`` and ``wsd evaluate --dataset wug``,
``RUN/change/`` of ``wsd change``): it is read into :attr:`RunData.change`, with the gold change of
``OUT/change.csv`` where an evaluation wrote one. Any folder of a layout finds the rest (:mod:`wsd.io.locate`):
``OUT/run``, ``OUT/senses``, ``OUT/change`` or a change folder written elsewhere; ``--senses`` and ``--change``
name folders that are not beside the run. A run reports its own change folder (``RUN/change``, ``OUT/change``);
a change folder elsewhere is drawn only when named, and its report goes into it (:attr:`RunData.report_dir`).

What is read is checked first: every table of a senses or change folder against the checksum its folder's
manifest records (:func:`check_unchanged`: a table edited since wsd wrote it is refused, naming it), and the senses
and change folder against the run they were made from (:func:`check_change_of_run`, by the run fingerprint).

>>> data = load_run_data("out/demo")      # doctest: +SKIP
>>> data.targets[:2], data.has_gold       # doctest: +SKIP
(['mouse', 'bank'], True)
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.change.slices import assign_slices
from wsd.change.stage import DAMAGED_CHANGE, check_senses_of_run, read_change_meta
from wsd.errors import InputError, WsdError
from wsd.evaluate.keys import parse_senses
from wsd.io import manifest
from wsd.io.checksums import check_recorded
from wsd.io.layout import (
    CHANGE_COUNTS,
    CHANGE_CSV,
    CHANGE_DIR,
    CHANGE_JSON,
    CHANGE_RANKING,
    CHANGE_SENSES,
    CHANGE_TIMELINE,
    CHANGE_TRENDS,
    GOLD_FILE,
    LABELS_FILE,
    META_FILE,
    METRICS_FILE,
    RUN_DIR,
    SENSES_DIR,
    SENSES_FILE,
)
from wsd.io.locate import Layout, find_layout, folder_kind
from wsd.io.meta_types import ChangeMeta, RunMeta, SensesMeta
from wsd.io.run_reader import REBUILD_SENSES, load_run, read_meta, read_senses_meta

GOLD_COLUMN = "sense"

HEADLINE_METRICS: dict[str, tuple[str, ...]] = {
    "semeval2013": ("fnmi", "fbc_f", "avg"),
    "semeval2010": ("paired_f", "v_measure", "avg"),
    "russe2018": ("ari", "nmi"),
    "generic": ("ari", "nmi", "bcubed_f"),
}
"""The scores a report shows first for each dataset (the metrics its papers report)."""


#: Gold change columns shown beside the system's in the report (where an evaluation wrote them).
GOLD_CHANGE_COLUMNS = ("change_graded", "change_binary", "COMPARE")
#: What to do about an evaluation's ``change.csv`` changed or missing (the end of the error that names it).
DAMAGED_GOLD_CHANGE = "run the same `wsd evaluate` again to rebuild it"


def check_unchanged(path: Path, remedy: str) -> None:
    """Refuse a file wsd wrote that was changed since, by the manifest of its folder (:mod:`wsd.io.manifest`).

    A file no manifest lists (a folder of an older wsd) is checked against the checksums its folder's
    ``meta.json`` records, where it records any (:func:`wsd.io.checksums.check_recorded`), else read as it is.

    Parameters
    ----------
    path : Path
        A file a report reads (a table of a senses or change folder).
    remedy : str
        The command that writes it again (the end of the error; an edited file is to be moved away first, since
        wsd never replaces a file that was changed since it wrote it).

    Raises
    ------
    InputError
        When the manifest lists the file and it is missing or its size or SHA-256 differs (the message names it).

    Examples
    --------
    >>> check_unchanged(Path("runs/x/change/ranking.parquet"), DAMAGED_CHANGE)  # doctest: +SKIP
    """
    state = manifest.status(path, thorough=True)  # tables a report draws are hashed whole: tampering may keep the time
    if state == "changed":
        folder = manifest.owner(path)
        record = manifest.manifest_path(folder) if folder is not None else "its folder's manifest"
        raise InputError(
            f"{path}: changed since wsd wrote it (its size or SHA-256 differs from what {record} records); "
            f"move it away and {remedy}"
        )
    if state == "missing":
        raise InputError(f"{path}: missing, though wsd wrote it (its folder's manifest lists it); {remedy}")
    if state == "unknown" and path.is_file():
        check_recorded(path, remedy)


def check_change_of_run(folder: Path, run: Path, run_meta: RunMeta) -> None:
    """Refuse a change folder made from another run, by the run fingerprint its ``change.json`` records.

    The same check as ``wsd change`` makes of a senses folder (:func:`wsd.change.stage.check_senses_of_run`):
    occurrence ids alone do not tell runs apart. A change folder without a fingerprint (``wsd evaluate --dataset
    wug``, an older wsd) is not checked.

    Parameters
    ----------
    folder : Path
        The change folder (``change.json``, checked first: :func:`check_unchanged`).
    run : Path
        The run reported.
    run_meta : RunMeta
        The run's ``meta.json``.

    Raises
    ------
    InputError
        When both fingerprints are known and differ (the message names both folders), or ``change.json`` is
        unreadable or damaged (:func:`wsd.change.stage.read_change_meta`).

    Examples
    --------
    >>> check_change_of_run(Path("runs/x/change"), Path("runs/x"), {"fingerprint": "ab12"})  # doctest: +SKIP
    """
    check_unchanged(folder / CHANGE_JSON, DAMAGED_CHANGE)
    document = read_change_meta(folder)
    theirs = document.get("run_fingerprint")
    ours = run_meta.get("fingerprint")
    if theirs and ours and theirs != ours:
        made_from = document.get("config", {}).get("run")
        made_on = f" ({made_from})" if isinstance(made_from, str) else ""
        raise InputError(
            f"--change {folder} was made from another run{made_on}, not from --run {run} (the run fingerprints "
            f"differ); give the change folder of {run}, or run wsd change --run {run} for one"
        )


@dataclass
class ChangeData:
    """A change folder (``wsd change``): settings, the ranking, sense counts per slice, senses gained and lost.

    Attributes
    ----------
    folder : Path
        The change folder.
    document : ChangeMeta
        Its ``change.json`` (``by``, ``slices``, ``measure``, ``binary``, ``main_pair``, ...).
    ranking : DataFrame
        The targets by change score (``rank``, ``target``, ``score``, the measures, ``binary``), with the gold
        change columns where known.
    counts : DataFrame
        ``target``, ``slice``, ``sense``, ``count``, ``uses``, ``proportion``.
    sense_changes : DataFrame
        ``target``, ``sense``, ``change`` (``appeared``/``vanished``), ``slice_a``, ``slice_b``, counts.
    timeline : DataFrame
        Every slice against the next (``step``, ``target``, ``slice_a``, ``slice_b``, ``score``, ``score_low``,
        ``score_high``, uses); empty for a change folder written before it existed.
    trends : DataFrame
        Per target and sense, its proportion against the slice order (``tau``, ``p_value``, ``slope``,
        ``slope_low``, ``slope_high``, ``trend``); empty likewise.
    """

    folder: Path
    document: ChangeMeta
    ranking: pd.DataFrame
    counts: pd.DataFrame
    sense_changes: pd.DataFrame
    timeline: pd.DataFrame = field(default_factory=pd.DataFrame)
    trends: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def slices(self) -> list[str]:
        """The slices, earliest first."""
        return [str(s) for s in self.document.get("slices", [])]

    @property
    def measure(self) -> str:
        """The change score the ranking is sorted by."""
        return str(self.document.get("measure", "score"))


#: The tables of a change folder a report reads (timeline and trends are absent from folders before issue 25).
TABLES_READ = (CHANGE_RANKING, CHANGE_COUNTS, CHANGE_SENSES, CHANGE_TIMELINE, CHANGE_TRENDS)


def read_change(folder: Path, gold_file: Path | None = None) -> ChangeData:
    """Read a change folder (and the gold change of an evaluation's ``change.csv``).

    Parameters
    ----------
    folder : Path
        The change folder.
    gold_file : Path, optional
        ``OUT/change.csv`` of ``wsd evaluate --dataset wug``: its gold columns join the ranking.

    Returns
    -------
    ChangeData

    Raises
    ------
    InputError
        When ``change.json`` or a table is unreadable, or was changed since wsd wrote it (:func:`check_unchanged`).
    """
    for name in (CHANGE_JSON, *(f"{stem}.parquet" for stem in TABLES_READ)):
        check_unchanged(folder / name, DAMAGED_CHANGE)
    if gold_file is not None and gold_file.is_file():
        check_unchanged(gold_file, DAMAGED_GOLD_CHANGE)
    document = read_change_meta(folder)
    try:
        tables = [
            pd.read_parquet(folder / f"{stem}.parquet") for stem in (CHANGE_RANKING, CHANGE_COUNTS, CHANGE_SENSES)
        ]
    except (OSError, ValueError) as exc:
        raise InputError(f"{folder}: damaged change folder ({exc}); {DAMAGED_CHANGE}") from None
    ranking, counts, changes = tables
    optional = []
    for stem in (CHANGE_TIMELINE, CHANGE_TRENDS):  # absent from change folders written before issue 25
        file = folder / f"{stem}.parquet"
        try:
            optional.append(pd.read_parquet(file) if file.is_file() else pd.DataFrame())
        except (OSError, ValueError) as exc:
            raise InputError(f"{folder}: damaged change folder ({exc}); {DAMAGED_CHANGE}") from None
    if gold_file is not None and gold_file.is_file():
        gold = pd.read_csv(gold_file)
        columns = [c for c in GOLD_CHANGE_COLUMNS if c in gold.columns]
        if "target" in gold.columns and columns:
            ranking = ranking.merge(gold[["target", *columns]], on="target", how="left")
    return ChangeData(folder, document, ranking, counts, changes, *optional)


@dataclass
class RunData:
    """Everything a run report shows, row-aligned with ``occurrences``.

    Attributes
    ----------
    out_dir : Path
        The folder that was read.
    occurrences : DataFrame
        The occurrence table (``id``, ``target``, ``text``, ``start``, ``end``, ...).
    vectors : ndarray (n, dim)
        Occurrence vectors (memory-mapped, any float dtype).
    labels : ndarray of int (n,)
        Induced sense of each occurrence (``-1``: unassigned).
    senses : DataFrame
        One row per induced sense (``senses.parquet``: target, sense, size, example_ids, examples, keywords).
    gold : ndarray of str (n,) or None
        The top-weighted gold sense of each occurrence (``""``: unlabelled); None without gold labels.
    metrics : dict or None
        ``metrics.json`` when the run was evaluated.
    run_meta, senses_meta : RunMeta, SensesMeta
        The ``meta.json`` of the run and of the senses folder.
    change : ChangeData or None
        The change folder's tables, where there is one.
    slices : ndarray of object (n,) or None
        The slice of each occurrence as the change folder cut them (None: in no slice); None without a change
        folder.
    report_dir : Path or None
        Where its report goes unless told: the change folder drawn when it is not the run's own (one named with
        ``--change``, or given as the run: a report belongs to the folder it reports); None: ``out_dir``.
    """

    out_dir: Path
    occurrences: pd.DataFrame
    vectors: np.ndarray
    labels: np.ndarray
    senses: pd.DataFrame
    gold: np.ndarray | None = None
    metrics: dict[str, Any] | None = None
    run_meta: RunMeta = field(default_factory=lambda: RunMeta())
    senses_meta: SensesMeta = field(default_factory=lambda: SensesMeta())
    change: ChangeData | None = None
    slices: np.ndarray | None = None
    report_dir: Path | None = None

    @cached_property
    def target_rows(self) -> dict[str, np.ndarray]:
        """Row positions of each target's occurrences, targets in order of first appearance."""
        codes, uniques = pd.factorize(self.occurrences["target"].astype(str))
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(uniques) + 1))
        return {str(t): order[bounds[i] : bounds[i + 1]] for i, t in enumerate(uniques)}

    @property
    def targets(self) -> list[str]:
        """Targets in order of first appearance in the occurrence table."""
        return list(self.target_rows)

    @property
    def has_gold(self) -> bool:
        """Whether any occurrence has a gold sense."""
        return self.gold is not None and bool((self.gold != "").any())

    def rows_of(self, target: str) -> np.ndarray:
        """Row positions of ``target``'s occurrences (ascending).

        Parameters
        ----------
        target : str
            A target of the run.

        Returns
        -------
        numpy.ndarray of int
            Row positions in :attr:`occurrences`; empty for a target the run lacks.
        """
        return self.target_rows.get(target, np.zeros(0, dtype=np.int64))

    @property
    def dataset(self) -> str | None:
        """The metric family of the evaluation (``semeval2013``, ``generic``, ...), or None."""
        return None if self.metrics is None else str(self.metrics.get("dataset", "generic"))


def resolve_layout(
    out_dir: str | os.PathLike[str],
    senses: str | os.PathLike[str] | None = None,
    change: str | os.PathLike[str] | None = None,
) -> Layout:
    """The run, senses and change folder a report reads, from any folder of their layout (:mod:`wsd.io.locate`).

    Parameters
    ----------
    out_dir : str or os.PathLike
        The ``--out`` folder of ``wsd run`` / ``wsd demo`` / ``wsd evaluate``, its ``run/``, a ``wsd embed`` run,
        or a senses or change folder.
    senses : path, optional
        The senses folder (``--senses``; default: found beside the run).
    change : path, optional
        The change folder (``--change``; default: found beside the run, where there is one).

    Returns
    -------
    Layout
        ``root`` (where ``metrics.json`` and ``gold.parquet`` are), ``run``, ``senses`` and ``change``.

    Raises
    ------
    InputError
        Naming the folder when it, its run or its induced senses are missing.
    """
    root = Path(out_dir)
    if not root.is_dir():
        raise InputError(f"{root}: no such folder; give the --out folder of `wsd run`, `wsd demo` or `wsd evaluate`")
    if folder_kind(root) is None and folder_kind(root / RUN_DIR) is None and not (root / META_FILE).is_file():
        raise InputError(
            f"{root} holds no run (no {RUN_DIR}/{META_FILE}); give the --out folder of `wsd run`, `wsd demo` "
            "or `wsd evaluate`, its run/, a change folder, or a folder of experiment results (*.json)"
        )
    layout = find_layout(root, senses=senses, change=change)
    if layout.senses is None or not (layout.senses / SENSES_FILE).is_file():
        where = layout.senses or layout.root / SENSES_DIR
        raise InputError(
            f"{root} holds no senses (no {where / LABELS_FILE} or {where / SENSES_FILE}): run "
            f"`wsd cluster --run {layout.run}` first (its senses go to {layout.run / SENSES_DIR}, where wsd report "
            "finds them), or give --senses DIR"
        )
    return layout


def load_run_data(
    out_dir: str | os.PathLike[str],
    senses: str | os.PathLike[str] | None = None,
    change: str | os.PathLike[str] | None = None,
) -> RunData:
    """Read an output folder (or any folder of its layout) into a :class:`RunData`.

    Parameters
    ----------
    out_dir : path
        The ``--out`` folder of ``wsd run`` / ``wsd demo`` / ``wsd evaluate``, its ``run/``, a clustered
        ``wsd embed`` run, or a senses or change folder (:func:`resolve_layout`).
    senses : path, optional
        The senses folder (default: found beside the run).
    change : path, optional
        The change folder drawn (default: found beside the run, where there is one).

    Returns
    -------
    RunData
        Occurrences, vectors, induced labels and senses, gold senses and metrics where present, metadata.

    Raises
    ------
    InputError
        When the folder is not a clustered run (see :func:`resolve_layout`); a labels, gold or metrics file is
        malformed; a table of the senses or change folder was changed since wsd wrote it (:func:`check_unchanged`);
        or the senses or change folder was made from another run (:func:`check_change_of_run`).

    Examples
    --------
    >>> data = load_run_data("out/demo")                 # doctest: +SKIP
    >>> len(data.occurrences) == len(data.labels)         # doctest: +SKIP
    True
    """
    layout = resolve_layout(out_dir, senses, change)
    root, run_dir, senses_dir = layout.root, layout.run, layout.senses
    assert senses_dir is not None  # resolve_layout refuses a layout without senses
    run_meta = read_meta(run_dir)  # a missing or damaged run is named first
    check_senses_of_run(senses_dir, run_dir, run_meta)  # before anything large is read
    if layout.change is not None:
        check_change_of_run(layout.change, run_dir, run_meta)
    for name in (LABELS_FILE, SENSES_FILE):
        check_unchanged(senses_dir / name, REBUILD_SENSES)
    occurrences, vectors = load_run(run_dir)
    occurrences = occurrences.reset_index(drop=True)
    label_table = pd.read_parquet(senses_dir / LABELS_FILE)
    labels = align_column(occurrences, label_table, "sense", -1, senses_dir / LABELS_FILE).astype(np.int64)
    senses_table = pd.read_parquet(senses_dir / SENSES_FILE)
    for column in ("example_ids", "examples", "keywords", "keyword_scores"):
        if column in senses_table.columns:
            senses_table[column] = [list(value) if value is not None else [] for value in senses_table[column]]
    metrics = read_metrics(root / METRICS_FILE) if (root / METRICS_FILE).is_file() else None
    gold = read_gold(root, occurrences)
    senses_meta = read_senses_meta(senses_dir)
    change_data = read_change(layout.change, root / CHANGE_CSV) if layout.change is not None else None
    return RunData(
        out_dir=root,
        occurrences=occurrences,
        vectors=vectors,
        labels=labels,
        senses=senses_table,
        gold=gold,
        metrics=metrics,
        run_meta=run_meta,
        senses_meta=senses_meta,
        change=change_data,
        slices=occurrence_slices(occurrences, change_data) if change_data is not None else None,
        report_dir=None if layout.change is None or _own_change(layout) else layout.change,
    )


def _own_change(layout: Layout) -> bool:
    """Whether the layout's change folder is the run's own (``OUT/change``, ``RUN/change``), not one elsewhere."""
    assert layout.change is not None
    own = {os.path.realpath(folder / CHANGE_DIR) for folder in (layout.root, layout.run)}
    return os.path.realpath(layout.change) in own


def occurrence_slices(occurrences: pd.DataFrame, change: ChangeData) -> np.ndarray | None:
    """The slice of each occurrence, cut as the change folder's settings say (``by``, ``bins``, ``bin_width``).

    Parameters
    ----------
    occurrences : pandas.DataFrame
        The run's occurrence table.
    change : ChangeData
        Its change folder.

    Returns
    -------
    numpy.ndarray of object or None
        The slice label of each row (None: in no slice); None when the settings no longer apply to the table
        (a change folder of another run).

    Examples
    --------
    >>> change = ChangeData(Path("c"), {"by": "year", "bin_width": 10}, *[pd.DataFrame()] * 3)
    >>> occurrence_slices(pd.DataFrame({"year": [1795, 1801, None]}), change).tolist()
    ['1790:1799', '1800:1809', None]
    """
    document = change.document
    width = document.get("bin_width")
    bins = None if width else document.get("bins")
    try:
        with warnings.catch_warnings():  # rows without a value: the change stage warned already
            warnings.simplefilter("ignore")
            slices = assign_slices(occurrences, str(document.get("by")), bins, int(width) if width else None)
    except WsdError:
        return None
    return slices.labels.to_numpy(dtype=object)


def align_column(
    occurrences: pd.DataFrame, table: pd.DataFrame, column: str, missing: Any, where: str | os.PathLike[str]
) -> np.ndarray:
    """``table[column]`` in the row order of ``occurrences``, matched on (target, id); ``missing`` elsewhere.

    The common case, a table written in the same row order, is detected and costs no join.

    Parameters
    ----------
    occurrences : pandas.DataFrame
        The run's occurrence table (``target``, ``id``).
    table : pandas.DataFrame
        A table with ``target``, ``id`` and ``column`` (where ids repeat, the last row wins).
    column : str
        The column to align.
    missing : Any
        The value of occurrences that ``table`` lacks.
    where : str or os.PathLike
        The table's file, for error messages.

    Returns
    -------
    numpy.ndarray
        One value per occurrence, in the order of ``occurrences``.

    Raises
    ------
    InputError
        When ``table`` lacks ``id``, ``target`` or ``column``.

    Examples
    --------
    >>> occ = pd.DataFrame({"target": ["a", "a"], "id": ["1", "2"]})
    >>> align_column(occ, pd.DataFrame({"target": ["a"], "id": ["2"], "sense": [5]}), "sense", -1, "x").tolist()
    [-1, 5]
    """
    for name in ("id", "target", column):
        if name not in table.columns:
            raise InputError(f"{where}: missing column {name!r}")
    ids = occurrences["id"].astype(str).to_numpy()
    if len(table) == len(occurrences) and np.array_equal(table["id"].astype(str).to_numpy(), ids):
        return table[column].to_numpy()
    keys = pd.MultiIndex.from_arrays([table["target"].astype(str), table["id"].astype(str)])
    values = table[column].to_numpy()
    last = ~keys.duplicated(keep="last")
    keys, values = keys[last], values[last]
    positions = keys.get_indexer(pd.MultiIndex.from_arrays([occurrences["target"].astype(str), ids]))
    result = np.full(len(occurrences), missing, dtype=object)
    found = positions >= 0
    result[found] = values[positions[found]]
    return result


def top_senses(values: np.ndarray | pd.Series, where: str = "gold senses") -> np.ndarray:
    """The top-weighted sense of each gold label (``"s1/0.7 s2/0.3"`` → ``"s1"``); ``""`` for blank ones.

    Ties go to the sense listed first. Each distinct label is parsed once.

    Parameters
    ----------
    values : numpy.ndarray or pandas.Series
        Gold labels (``label`` or ``label/weight ...``; None and blank for unlabelled).
    where : str
        Where they come from, for error messages.

    Returns
    -------
    numpy.ndarray of object
        The top sense of each label, ``""`` where there is none.

    Raises
    ------
    InputError
        For a malformed label (a bad weight).

    Examples
    --------
    >>> top_senses(np.array(["s1/0.3 s2/0.7", "s3", "", None], dtype=object)).tolist()
    ['s2', 's3', '', '']
    """
    series = pd.Series(values, dtype=object).fillna("").astype(str)
    codes, uniques = pd.factorize(series)
    tops = np.empty(len(uniques), dtype=object)
    for position, text in enumerate(uniques):
        weights = parse_senses(text, where) if text.strip() else {}
        tops[position] = max(weights, key=weights.__getitem__) if weights else ""
    result = tops[codes] if len(codes) else np.empty(0, dtype=object)
    return result.astype(object)


def read_gold(root: Path, occurrences: pd.DataFrame) -> np.ndarray | None:
    """Top gold sense per occurrence from ``gold.parquet`` or the occurrences' ``sense`` column; else None.

    Parameters
    ----------
    root : Path
        The output folder (where ``gold.parquet`` may be).
    occurrences : pandas.DataFrame
        The run's occurrence table.

    Returns
    -------
    numpy.ndarray of str or None
        The top-weighted gold sense of each occurrence (``""``: unlabelled), or None without gold.

    Raises
    ------
    InputError
        When ``gold.parquet`` lacks a column or holds a malformed label.
    """
    gold_file = root / GOLD_FILE
    if gold_file.is_file():
        table = pd.read_parquet(gold_file)
        raw = align_column(occurrences, table, GOLD_COLUMN, "", gold_file)
        return top_senses(raw, str(gold_file))
    if GOLD_COLUMN in occurrences.columns:
        return top_senses(occurrences[GOLD_COLUMN].to_numpy(), "the gold 'sense' column of the run")
    return None


def read_metrics(path: Path) -> dict[str, Any]:
    """A ``metrics.json`` written by the evaluation (NaN scores are kept as NaN).

    Parameters
    ----------
    path : Path
        The ``metrics.json`` to read.

    Returns
    -------
    dict
        Its content, with an ``overall`` dict of scores.

    Raises
    ------
    InputError
        When the file is not valid JSON or has no ``overall`` scores.
    """
    try:
        metrics = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno})") from exc
    if not isinstance(metrics, dict) or not isinstance(metrics.get("overall"), dict):
        raise InputError(f"{path}: not a metrics file of `wsd evaluate` (no 'overall' scores)")
    return metrics


def score_names(scores: dict[str, Any]) -> list[str]:
    """The score entries of a metrics dictionary: numeric values, without counts (``n_*``).

    Parameters
    ----------
    scores : dict
        Name -> value (``overall`` of ``metrics.json``, one row of an experiment file).

    Returns
    -------
    list of str
        The names of the numeric entries (NaN included, booleans not), in dictionary order.

    Examples
    --------
    >>> score_names({"ari": 0.5, "n_instances": 10, "note": "x"})
    ['ari']
    """
    return [
        name
        for name, value in scores.items()
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not name.startswith("n_")
    ]


def headline_metrics(dataset: str | None, scores: dict[str, Any]) -> list[str]:
    """The scores to show first for ``dataset``: its usual metrics that ``scores`` has, else the first three.

    Parameters
    ----------
    dataset : str or None
        The metric family (``semeval2013``, ``generic``, ...).
    scores : dict
        Name -> value.

    Returns
    -------
    list of str
        Score names, in the order of ``HEADLINE_METRICS`` (else of ``scores``).

    Examples
    --------
    >>> headline_metrics("semeval2013", {"fnmi": 0.1, "fbc_p": 0.2, "fbc_f": 0.3, "avg": 0.2})
    ['fnmi', 'fbc_f', 'avg']
    """
    available = score_names(scores)
    preferred = [name for name in HEADLINE_METRICS.get(dataset or "", ()) if name in available]
    return preferred or available[:3]
