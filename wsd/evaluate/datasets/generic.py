"""Generic labelled occurrence format (TSV or JSON Lines): a reader with line-numbered errors, and a writer.

Format
------
One occurrence per record, UTF-8, as either

* **TSV** — tab-separated, first line a header naming the fields (any order); a field that contains a tab,
  a line break or a double quote is enclosed in double quotes with inner double quotes doubled (what
  Python's ``csv`` module and ``pandas.DataFrame.to_csv(sep="\\t")`` write); blank lines are skipped; or
* **JSON Lines** — one JSON object per line; blank lines are skipped.

=============  ========  ==================================================================================
field          required  meaning
=============  ========  ==================================================================================
``id``         yes       unique occurrence id (non-empty string)
``target``     yes       the target word or lemma (occurrences of one target are clustered together)
``text``       yes       the context passage the encoder sees
``start``      yes       character offset of the occurrence in ``text`` (integer, 0-based, counted in
                         Unicode code points as Python ``str`` indices)
``end``        yes       offset one past the occurrence's last character (end exclusive);
                         ``0 <= start < end <= len(text)``
``sense``      no        gold label: ``label``, or graded ``label/weight label/weight ...`` (whitespace
                         separated, weights non-negative numbers, a label without weight counts 1.0); empty,
                         ``null`` or absent = unlabelled
``doc_id``     no        document id (default: ``id``)
``doc_start``  no        offset of ``text`` inside its document (integer, default 0)
``form``       no        the surface form; if given it must equal ``text[start:end]``
=============  ========  ==================================================================================

Other fields are ignored. The occurrence's ``form`` is ``text[start:end]``. The format is chosen from the
file name (``.tsv``, ``.tab``, ``.txt``: TSV; ``.jsonl``, ``.ndjson``, ``.json``: JSON Lines; a further
``.gz`` is decompressed) or, for other names, from the first character (``{``: JSON Lines).

Example (TSV, ``→`` is a tab)::

    id→target→text→start→end→sense
    b1→bank→She sat on the bank of the river.→15→19→bank%river
    b2→bank→The bank raised its rates.→4→8→bank%money/0.8 bank%building/0.2

Any problem — missing header field, non-integer offset, span outside the text, duplicate id, bad JSON, bad
weight — raises :class:`~wsd.errors.InputError` naming the file and line: ``data.tsv:7: end is not an
integer: '1o'``.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets import DatasetBundle, _build_table
from wsd.io.textfiles import check_file, iter_lines, json_object
from wsd.occurrences import GOLD_COLUMN, validate_occurrences

REQUIRED_FIELDS: tuple[str, ...] = ("id", "target", "text", "start", "end")
OPTIONAL_FIELDS: tuple[str, ...] = ("sense", "doc_id", "doc_start", "form")
FORMATS: tuple[str, ...] = ("tsv", "jsonl")
_SUFFIXES = {".tsv": "tsv", ".tab": "tsv", ".txt": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}
_FIELD_SIZE_LIMIT = 1 << 30


def _open(path: Path, mode: str) -> io.TextIOBase:
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8", newline="")  # type: ignore[return-value]
    return path.open(mode, encoding="utf-8", newline="")  # type: ignore[return-value]


def _lines(path: Path) -> Iterator[str]:
    """The lines of a labelled file with their line ends (UTF-8 checked, a byte-order mark dropped)."""
    return (line for _, line in iter_lines(path, "labelled file", universal_newlines=True, keepends=True))


def detect_format(path: str | Path, format: str | None = None) -> str:
    """``"tsv"`` or ``"jsonl"``: ``format`` if given, else from the file name, else from the first character.

    Parameters
    ----------
    path : str or Path
        The file (read only when neither ``format`` nor its name decides: a first non-blank line starting
        with ``{`` is JSON Lines).
    format : {"tsv", "jsonl", None}
        The format, when the caller knows it.

    Returns
    -------
    str
        ``"tsv"`` or ``"jsonl"``.

    Raises
    ------
    ConfigError
        For a ``format`` that is not one of ``FORMATS``.

    Examples
    --------
    >>> detect_format("occurrences.jsonl.gz")
    'jsonl'
    """
    if format is not None:
        if format not in FORMATS:
            raise ConfigError(f"format={format!r} is not one of {', '.join(FORMATS)}")
        return format
    path = Path(path)
    suffix = Path(path.stem).suffix if path.suffix == ".gz" else path.suffix
    if suffix.lower() in _SUFFIXES:
        return _SUFFIXES[suffix.lower()]
    for line in _lines(path):
        if line.strip():
            return "jsonl" if line.lstrip().startswith("{") else "tsv"
    return "tsv"


def _tsv_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    csv.field_size_limit(max(csv.field_size_limit(), _FIELD_SIZE_LIMIT))
    reader = csv.reader(_lines(path), delimiter="\t")
    try:
        header = next(reader, None)
        if header is None:
            raise InputError(f"{path}: empty file (expected a header line: {' '.join(REQUIRED_FIELDS)} ...)")
        header = [name.strip() for name in header]
        if header and header[0].startswith("\ufeff"):
            header[0] = header[0][1:]
        missing = [name for name in REQUIRED_FIELDS if name not in header]
        if missing:
            raise InputError(
                f"{path}:1: header lacks {', '.join(missing)} (found: {', '.join(header)}; "
                "fields are separated by tabs)"
            )
        repeated = sorted({name for name in header if header.count(name) > 1})
        if repeated:
            raise InputError(f"{path}:1: header names {', '.join(repeated)} more than once")
        line = reader.line_num + 1
        for record in reader:
            if record:
                if len(record) != len(header):
                    raise InputError(f"{path}:{line}: {len(record)} fields, the header has {len(header)}")
                yield line, dict(zip(header, record, strict=True))
            line = reader.line_num + 1
    except csv.Error as error:
        raise InputError(f"{path}:{reader.line_num}: malformed TSV ({error})") from None


def _jsonl_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for line, raw in enumerate(_lines(path), start=1):
        if not raw.strip():
            continue
        record = json_object(raw, f"{path}:{line}")
        missing = [name for name in REQUIRED_FIELDS if name not in record]
        if missing:
            raise InputError(f"{path}:{line}: missing field(s) {', '.join(missing)}")
        yield line, record


def _integer(value: Any, name: str, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise InputError(f"{where}: {name} is not an integer: {value!r}")


def _string(value: Any, name: str, where: str, *, required: bool) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise InputError(f"{where}: {name} must be a string, got {value!r}")
    if required and not value.strip():
        raise InputError(f"{where}: {name} is empty")
    return value


def check_sense(sense: str, where: str = "sense") -> str:
    """Check a gold label string (``label`` or ``label/weight ...``) and return it with single spaces.

    Parameters
    ----------
    sense : str
        The label string, e.g. ``"s1/0.7 s2/0.3"``.
    where : str
        Where it comes from, for the error message (``file:line``).

    Returns
    -------
    str
        The same items joined by single spaces.

    Raises
    ------
    InputError
        When a weight is not a finite non-negative number, or an item has a weight but no label.

    Examples
    --------
    >>> check_sense("s1/0.7   s2/0.3")
    's1/0.7 s2/0.3'
    >>> check_sense("s1/x")
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: sense: 's1/x' has a weight that is not a non-negative number
    """
    items = sense.split()
    for item in items:
        label, slash, weight = item.rpartition("/")
        if not slash:
            continue
        try:
            value = float(weight)
        except ValueError:
            value = -1.0
        if not label or not math.isfinite(value) or value < 0:
            raise InputError(f"{where}: {item!r} has a weight that is not a non-negative number")
    return " ".join(items)


def _row(record: dict[str, Any], where: str) -> dict[str, Any]:
    text = _string(record["text"], "text", where, required=False)
    start, end = _integer(record["start"], "start", where), _integer(record["end"], "end", where)
    if not 0 <= start < end <= len(text):
        raise InputError(f"{where}: span {start}-{end} lies outside the text ({len(text)} characters)")
    row: dict[str, Any] = {
        "id": _string(record["id"], "id", where, required=True).strip(),
        "target": _string(record["target"], "target", where, required=True).strip(),
        "form": text[start:end],
        "text": text,
        "start": start,
        "end": end,
    }
    form = record.get("form")
    if form not in (None, "") and form != row["form"]:
        raise InputError(f"{where}: form {form!r} is not text[{start}:{end}] = {row['form']!r}")
    doc_id = record.get("doc_id")
    row["doc_id"] = _string(doc_id, "doc_id", where, required=False).strip() or row["id"]
    doc_start = record.get("doc_start")
    row["doc_start"] = 0 if doc_start in (None, "") else _integer(doc_start, "doc_start", where)
    if row["doc_start"] < 0:
        raise InputError(f"{where}: doc_start is negative: {row['doc_start']}")
    if "sense" in record:
        row["sense"] = check_sense(_string(record["sense"], "sense", where, required=False), where)
    return row


def read_generic(path: str | os.PathLike[str], format: str | None = None) -> pd.DataFrame:
    """Read a generic TSV/JSONL occurrence file (see the module docstring) into an occurrence table.

    Parameters
    ----------
    path : str or Path
        The file; ``.gz`` files are decompressed.
    format : {"tsv", "jsonl", None}
        Force a format; by default it follows the file name or content.

    Returns
    -------
    pandas.DataFrame
        The occurrence table, with ``sense`` when at least one record has a label.

    Raises
    ------
    InputError
        When the file is missing, or a record is malformed (a missing field, a span outside its text, a
        ``form`` that is not the span, a repeated id, a bad weight), naming the file and line.
    ConfigError
        For an unknown ``format``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "d.tsv"
    >>> _ = p.write_text("id\\ttarget\\ttext\\tstart\\tend\\tsense\\nb1\\tbank\\tthe bank\\t4\\t8\\tmoney\\n")
    >>> read_generic(p)[["id", "form", "sense"]].values.tolist()
    [['b1', 'bank', 'money']]
    """
    path = check_file(Path(path).expanduser(), "generic data file")  # missing, a folder, unreadable: one line
    chosen = detect_format(path, format)
    records = _tsv_records(path) if chosen == "tsv" else _jsonl_records(path)
    rows: list[dict[str, Any]] = []
    first_line: dict[str, int] = {}
    for line, record in records:
        where = f"{path}:{line}"
        row = _row(record, where)
        if row["id"] in first_line:
            raise InputError(f"{where}: id {row['id']!r} already used on line {first_line[row['id']]}")
        first_line[row["id"]] = line
        rows.append(row)
    if any("sense" in row for row in rows):
        for row in rows:
            row.setdefault("sense", "")
    return _build_table(rows, where=str(path))


def load(path: str | Path, format: str | None = None) -> DatasetBundle:
    """Load a generic TSV/JSONL file as a dataset (see :func:`read_generic`).

    Parameters
    ----------
    path : str or Path
        The TSV or JSON Lines file (``.gz`` allowed).
    format : {"tsv", "jsonl", None}
        Force a format; by default it follows the file name or content.

    Returns
    -------
    DatasetBundle
        Named after the file, ``gold=(path,)`` when labelled, no subsets, and ``stats`` ``records``,
        ``labelled``, ``targets``.

    Raises
    ------
    InputError, ConfigError
        As :func:`read_generic`.

    Examples
    --------
    >>> load("my_data.jsonl").stats                                # doctest: +SKIP
    {'records': 120, 'labelled': 120, 'targets': 3}
    """
    path = Path(path).expanduser()
    table = read_generic(path, format)
    labelled = int(table[GOLD_COLUMN].astype(bool).sum()) if GOLD_COLUMN in table else 0
    stats = {"records": len(table), "labelled": labelled, "targets": int(table["target"].nunique())}
    return DatasetBundle(path.name, table, gold=(path,) if labelled else (), subsets={}, stats=stats)


def write_generic(frame: pd.DataFrame, path: str | Path, format: str | None = None) -> Path:
    """Write an occurrence table in the generic format (TSV or JSON Lines, chosen as in :func:`read_generic`).

    Writes ``id, target, text, start, end``, then ``sense`` if the table has it, ``doc_id`` if any differs
    from ``id`` and ``doc_start`` if any is non-zero, so that :func:`read_generic` gives the table back.

    Parameters
    ----------
    frame : pandas.DataFrame
        An occurrence table (checked with :func:`~wsd.occurrences.validate_occurrences`).
    path : str or Path
        Output file; a ``.gz`` suffix compresses it.
    format : {"tsv", "jsonl", None}
        Output format; by default from the file name (TSV for unknown names).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    InputError
        When ``frame`` is not a valid occurrence table.
    ConfigError
        For an unknown ``format``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import pandas as pd
    >>> t = pd.DataFrame({"id": ["a"], "target": ["bank"], "form": ["bank"], "text": ["a bank"],
    ...                   "start": [2], "end": [6], "doc_id": ["a"], "doc_start": [0]})
    >>> p = write_generic(t, pathlib.Path(tempfile.mkdtemp()) / "o.jsonl")
    >>> p.read_text()
    '{"id": "a", "target": "bank", "text": "a bank", "start": 2, "end": 6}\\n'
    """
    path = Path(path).expanduser()
    table = validate_occurrences(frame, where="write_generic")
    if format is None:
        suffix = Path(path.stem).suffix if path.suffix == ".gz" else path.suffix
        format = _SUFFIXES.get(suffix.lower(), "tsv")
    elif format not in FORMATS:
        raise ConfigError(f"format={format!r} is not one of {', '.join(FORMATS)}")
    fields = list(REQUIRED_FIELDS)
    if GOLD_COLUMN in table:
        table[GOLD_COLUMN] = table[GOLD_COLUMN].fillna("").astype(str)
        fields.append(GOLD_COLUMN)
    if (table["doc_id"] != table["id"]).any():
        fields.append("doc_id")
    if (table["doc_start"] != 0).any():
        fields.append("doc_start")
    records = table[fields].to_dict("records")
    path.parent.mkdir(parents=True, exist_ok=True)
    with _open(path, "w") as handle:
        if format == "jsonl":
            for record in records:
                clean = {k: int(v) if k in ("start", "end", "doc_start") else v for k, v in record.items()}
                handle.write(json.dumps(clean, ensure_ascii=False) + "\n")
        else:
            writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
            writer.writerow(fields)
            writer.writerows([record[name] for name in fields] for record in records)
    return path
