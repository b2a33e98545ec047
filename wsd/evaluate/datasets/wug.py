"""Reader for diachronic Word Usage Graph (WUG) datasets: uses of words in two periods, gold senses and change.

The WUG format (DWUG EN, NorDiaChange, RuSemShift in ``../shared/datasets/lscd/``) is a folder::

    data/<word>/uses.csv | uses.tsv        one row per use (TAB-separated, header, quoting OFF)
    clusters/opt/<word>.csv | .tsv         optional: identifier, cluster (the gold senses; -1 = noise)
    stats/opt/stats_groupings.csv | .tsv   optional: the gold change scores per word
      or stats/stats_groupings.csv | .tsv

Every file is TAB-separated with a header and is read with quoting **off**: contexts contain bare quote
characters, and a quote never starts a quoted field. ``path`` may be the dataset folder itself, or a folder
holding exactly one dataset folder (RuSemShift keeps it in ``DWUG/``).

The occurrence table (:mod:`wsd.occurrences`): ``id`` = ``doc_id`` = the use's ``identifier``; ``target`` =
the word's folder name (``afternoon_nn``, also the ``lemma`` of the stats file); ``text`` = ``context``;
``start``/``end`` from ``indexes_target_token`` (``start:end``, end exclusive); ``form`` = the text there;
and two metadata columns as a corpus scan with ``--meta grouping,date`` gives them (:mod:`wsd.occurrences`,
metadata columns: the same dtype rule): ``grouping`` (the period label: ``1``/``2`` become ``int64``,
``1929-1965`` stays text) and ``date`` (``1857`` → ``int64``; ``1682-1916`` stays text; missing where empty).
``sense`` = the gold cluster where the
dataset has clusters (``""`` for uses in cluster ``-1`` and uses without a cluster: they are left out of the
scores, as the datasets define them).

The periods are the distinct ``grouping`` labels in order, earlier first: numerically when every label is a
number, else as strings (``1700-1916`` < ``1918-1990``). ``subsets`` has one entry per period (its label).
``gold_change`` holds one row per word from the stats file (``target``, ``change_graded``,
``change_binary``, ``change_binary_gain``, ``change_binary_loss``, ``COMPARE``, ``k``, ``n``: each column the
file has, NaN where a word's field is empty); its ``attrs["source"]`` names the file and each word's line.
A stats file with a header only, or with a value that is not a finite number (``abc``, ``inf``), is refused
with its file, line and column.
``stats``: ``words``, ``uses``, ``clustered`` (uses with a gold sense), ``noise`` (cluster ``-1``),
``unclustered`` (uses the cluster file does not list, where one exists).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from wsd.errors import InputError
from wsd.evaluate.datasets import DatasetBundle, _build_table
from wsd.io.textfiles import finite_number, iter_lines

#: The metadata columns the reader fills (and a corpus scan keeps with ``--meta grouping,date``).
PERIOD_COLUMN = "grouping"
DATE_COLUMN = "date"
USES_FIELDS = ("identifier", "context", "indexes_target_token", PERIOD_COLUMN)
#: Stats columns kept in ``gold_change`` (where present), after ``target``.
GOLD_CHANGE_FIELDS = ("change_graded", "change_binary", "change_binary_gain", "change_binary_loss", "COMPARE")
NOISE_CLUSTER = "-1"
SUFFIXES = (".csv", ".tsv")


def dataset_folder(path: str | Path) -> Path:
    """The WUG dataset folder at ``path``: the folder itself, or the one dataset folder inside it.

    Parameters
    ----------
    path : str or Path
        A folder with ``data/<word>/uses.csv|tsv``, or a folder holding exactly one such folder.

    Returns
    -------
    Path
        The folder that holds ``data/``.

    Raises
    ------
    InputError
        When neither ``path`` nor exactly one of its sub-folders is a WUG dataset folder.
    """
    path = Path(path).expanduser()
    if not path.is_dir():
        raise InputError(f"{path}: WUG dataset folder not found")
    if (path / "data").is_dir():
        return path
    inside = sorted(child for child in path.iterdir() if (child / "data").is_dir())
    if len(inside) == 1:
        return inside[0]
    found = f"; it holds several: {', '.join(c.name for c in inside)} — name one" if inside else ""
    raise InputError(f"{path}: not a WUG dataset folder (expected data/<word>/uses.csv in it){found}")


def read_tsv(path: Path, what: str) -> Iterator[tuple[int, dict[str, str]]]:
    """Rows of a TAB-separated file with a header, quoting off, each with its line number.

    Parameters
    ----------
    path : Path
        The file (UTF-8).
    what : str
        What the file is, for messages.

    Yields
    ------
    (int, dict)
        The line number and the row as header → value.

    Raises
    ------
    InputError
        When the file is empty, not UTF-8, or a row has a different number of fields than the header.
    """
    lines = iter_lines(path, what)
    header: list[str] | None = None
    for number, line in lines:
        line = line.removesuffix("\r")
        if header is None:
            header = line.split("\t")
            continue
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != len(header):
            raise InputError(
                f"{path}:{number}: {len(fields)} tab-separated fields, the header has {len(header)} "
                f"(WUG files are read with quoting off)"
            )
        yield number, dict(zip(header, fields, strict=True))
    if header is None:
        raise InputError(f"{path}: empty {what} (no header)")


def _one_file(folder: Path, stem: str, what: str, required: bool = True) -> Path | None:
    found = [folder / f"{stem}{suffix}" for suffix in SUFFIXES if (folder / f"{stem}{suffix}").is_file()]
    if len(found) > 1:
        raise InputError(f"{folder}: both {found[0].name} and {found[1].name}; keep one {what}")
    if not found and required:
        raise InputError(f"{folder}: no {stem}.csv or {stem}.tsv ({what})")
    return found[0] if found else None


#: A character offset: ASCII digits only (``str.isdigit`` takes ``²`` and ``٣`` too, which ``int`` refuses or reads).
_OFFSET = re.compile(r"[0-9]+")


def _span(value: str, text: str, where: str) -> tuple[int, int]:
    start, sep, end = value.partition(":")
    if not sep or not _OFFSET.fullmatch(start.strip()) or not _OFFSET.fullmatch(end.strip()):
        raise InputError(f"{where}: indexes_target_token {value!r} is not 'start:end' (ASCII digits 0-9)")
    span = int(start.strip()), int(end.strip())
    if not 0 <= span[0] < span[1] <= len(text):
        raise InputError(f"{where}: target span {value} lies outside the context of {len(text)} characters")
    return span


def _read_uses(file: Path, word: str) -> list[dict[str, object]]:
    rows = []
    for number, row in read_tsv(file, "WUG uses file"):
        where = f"{file}:{number}"
        missing = [name for name in USES_FIELDS if name not in row]
        if missing:
            raise InputError(f"{file}: missing column(s) {', '.join(missing)} (WUG uses need {', '.join(USES_FIELDS)})")
        if not row["identifier"]:
            raise InputError(f"{where}: empty identifier")
        if not row[PERIOD_COLUMN].strip():
            raise InputError(f"{where}: empty grouping (the period of the use)")
        start, end = _span(row["indexes_target_token"], row["context"], where)
        rows.append(
            {
                "id": row["identifier"],
                "target": word,
                "form": row["context"][start:end],
                "text": row["context"],
                "start": start,
                "end": end,
                PERIOD_COLUMN: row[PERIOD_COLUMN].strip(),
                DATE_COLUMN: row.get(DATE_COLUMN, "").strip(),
            }
        )
    if not rows:
        raise InputError(f"{file}: no uses")
    return rows


def _read_clusters(file: Path) -> dict[str, str]:
    clusters: dict[str, str] = {}
    for number, row in read_tsv(file, "WUG cluster file"):
        if "identifier" not in row or "cluster" not in row:
            raise InputError(f"{file}: expected the columns identifier and cluster")
        value = row["cluster"].strip()
        try:
            int(float(value))
        except ValueError:
            raise InputError(f"{file}:{number}: cluster {value!r} is not a number") from None
        if row["identifier"] in clusters:
            raise InputError(f"{file}:{number}: use {row['identifier']!r} is listed twice")
        clusters[row["identifier"]] = str(int(float(value)))
    return clusters


def period_order(labels: object) -> list[str]:
    """Period labels sorted earlier first: numerically when all are numbers, else as strings.

    Parameters
    ----------
    labels : iterable of str
        The labels (repeats allowed).

    Returns
    -------
    list of str
        The distinct labels in order.

    Examples
    --------
    >>> period_order(["2", "10", "1"])
    ['1', '2', '10']
    >>> period_order(["1970-2015", "1929-1965"])
    ['1929-1965', '1970-2015']
    """
    distinct = sorted({str(label) for label in labels})  # type: ignore[attr-defined]
    try:
        return sorted(distinct, key=float)
    except ValueError:
        return distinct


def _stats_file(root: Path) -> Path | None:
    for folder in (root / "stats" / "opt", root / "stats"):
        found = _one_file(folder, "stats_groupings", "gold change file", required=False) if folder.is_dir() else None
        if found:
            return found
    return None


#: Values of a stats file that mean "no value" (as an empty field): pandas and R write them for missing numbers.
MISSING_VALUES = frozenset({"", "nan", "NaN", "NA", "null", "None"})
#: The attribute of ``gold_change`` (``DataFrame.attrs``) holding the stats file and each word's line in it.
SOURCE_ATTR = "source"


def _stats_number(value: str, where: str, name: str, integer: bool = False) -> float | None:
    """A number of a stats file: None where the field is empty (or NaN); an error for text or an infinity."""
    if value.strip() in MISSING_VALUES:
        return None
    number = finite_number(value, f"{where}: column {name}")
    if integer and (number != int(number) or number < 0):
        raise InputError(f"{where}: column {name}: {value!r} is not a whole number of at least 0")
    return number


def _read_gold_change(file: Path, words: set[str]) -> pd.DataFrame:
    records = []
    lines: dict[str, int] = {}
    for number, row in read_tsv(file, "WUG stats file"):
        where = f"{file}:{number}"
        if "lemma" not in row:
            raise InputError(f"{where}: expected a lemma column (the word) in the header")
        if row["lemma"] in lines:
            raise InputError(f"{where}: word {row['lemma']!r} twice (first at line {lines[row['lemma']]})")
        lines[row["lemma"]] = number
        record: dict[str, object] = {"target": row["lemma"]}
        for name in GOLD_CHANGE_FIELDS:
            if name in row:
                record[name] = _stats_number(row[name], where, name)
        if "k1" in row and "n1" in row:
            record["k"] = _stats_number(row["k1"], where, "k1", integer=True)
            record["n"] = _stats_number(row["n1"], where, "n1", integer=True)
        records.append(record)
    if not records:
        raise InputError(f"{file}:1: a header and no rows (no word has gold change scores)")
    table = pd.DataFrame(records)
    unknown = sorted(set(table["target"]) - words)
    if unknown:
        raise InputError(f"{file}: change scores for words without uses in data/: {', '.join(unknown[:5])}")
    for name in (*GOLD_CHANGE_FIELDS, "k", "n"):
        if name in table:
            table[name] = table[name].astype("float64")  # a column of empty fields is NaN, not None
            whole = name in ("change_binary", "change_binary_gain", "change_binary_loss", "k", "n")
            if whole and not table[name].isna().any():
                table[name] = table[name].astype("int64")
    table = table.sort_values("target").reset_index(drop=True)
    table.attrs[SOURCE_ATTR] = {"file": str(file), "lines": lines}
    return table


def load(path: str | Path) -> DatasetBundle:
    """Load a WUG dataset folder: uses with their periods, gold senses where clustered, gold change where given.

    Parameters
    ----------
    path : str or Path
        The dataset folder (``.../lscd/dwug_en``, ``.../nordiachange/subset1``) or a folder holding exactly
        one (``.../rusemshift/rusemshift_1``, which keeps it in ``DWUG/``).

    Returns
    -------
    DatasetBundle
        ``name="wug"``; ``subsets`` one per period (earlier first); ``gold_change`` the stats table (or
        ``None``); ``gold`` the cluster and stats files read.

    Raises
    ------
    InputError
        When the folder, a uses file or a column is missing, a row is malformed (the message names file and
        line), a use id repeats, or the data has more or fewer than two periods.

    Examples
    --------
    >>> bundle = load("../shared/datasets/lscd/dwug_en")            # doctest: +SKIP
    >>> bundle.subsets.keys(), bundle.stats["uses"]                 # doctest: +SKIP
    (dict_keys(['1', '2']), 9107)
    """
    root = dataset_folder(path)
    word_folders = sorted(child for child in (root / "data").iterdir() if child.is_dir())
    if not word_folders:
        raise InputError(f"{root / 'data'}: no word folders")
    clusters_dir = root / "clusters" / "opt"
    rows: list[dict[str, object]] = []
    stats: Counter[str] = Counter()
    gold_files: list[Path] = []
    for folder in word_folders:
        word_rows = _read_uses(_one_file(folder, "uses", "WUG uses file"), folder.name)  # type: ignore[arg-type]
        cluster_file = (
            _one_file(clusters_dir, folder.name, "gold cluster file", False) if clusters_dir.is_dir() else None
        )
        if cluster_file is not None:
            gold_files.append(cluster_file)
            clusters = _read_clusters(cluster_file)
            for row in word_rows:
                cluster = clusters.get(str(row["id"]))
                stats["unclustered"] += cluster is None
                stats["noise"] += cluster == NOISE_CLUSTER
                row["sense"] = "" if cluster in (None, NOISE_CLUSTER) else cluster
        stats["words"] += 1
        rows += word_rows
    if gold_files and len(gold_files) != len(word_folders):
        raise InputError(f"{clusters_dir}: gold clusters for {len(gold_files)} of {len(word_folders)} words")
    table = _build_table(rows, where=f"WUG dataset {root}", extra=(PERIOD_COLUMN, DATE_COLUMN))
    periods = period_order(table[PERIOD_COLUMN])
    if len(periods) != 2:
        raise InputError(f"{root}: the uses fall into {len(periods)} periods ({', '.join(periods)}); WUG data has two")
    stats["uses"] = len(table)
    stats["clustered"] = int(table["sense"].astype(bool).sum()) if "sense" in table else 0
    stats_file = _stats_file(root)
    gold_change = None
    if stats_file is not None:
        gold_files.append(stats_file)
        gold_change = _read_gold_change(stats_file, {folder.name for folder in word_folders})
    labels = table[PERIOD_COLUMN].astype(str)
    subsets = {label: frozenset(table.loc[labels == label, "id"].astype(str)) for label in periods}
    return DatasetBundle(
        "wug",
        table,
        gold=tuple(gold_files),
        subsets=subsets,
        stats={name: int(stats[name]) for name in ("words", "uses", "clustered", "noise", "unclustered")},
        gold_change=gold_change,
    )


def period_of(occurrences: pd.DataFrame) -> np.ndarray:
    """The period index (0 = earlier, 1 = later) of every row of a WUG occurrence table.

    Parameters
    ----------
    occurrences : pandas.DataFrame
        A table with the ``grouping`` column.

    Returns
    -------
    ndarray of int

    Raises
    ------
    InputError
        When the table has no ``grouping`` column.
    """
    if PERIOD_COLUMN not in occurrences:
        raise InputError("the occurrence table has no 'grouping' column (the period of each use)")
    order = {label: index for index, label in enumerate(period_order(occurrences[PERIOD_COLUMN]))}
    return occurrences[PERIOD_COLUMN].astype(str).map(order).to_numpy(dtype=np.int64)
