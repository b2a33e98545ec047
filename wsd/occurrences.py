"""The occurrence table: one row per occurrence of a target word, shared by every stage.

The corpus scanner and every dataset reader produce the same columns, so embedding, clustering,
evaluation and reports serve both. Offsets are Python ``str`` character offsets, end exclusive.

=========  =======  ==================================================================
column     dtype    meaning
=========  =======  ==================================================================
id         str      unique occurrence id (``<doc_id>:<doc_start+start>`` for corpora,
                    the instance id for datasets)
target     str      the target as the user named it (``mouse``; ``add.v`` in SemEval)
form       str      the surface form matched in the text (``mice``)
text       str      the context passage the encoder sees (a sentence, or a window)
start      int64    character offset of the occurrence in ``text``
end        int64    character offset one past its last character in ``text``
doc_id     str      document id (``file:line`` for text corpora, instance id for datasets)
doc_start  int64    character offset of ``text`` inside the document (0 for datasets)
sense      str      optional gold label; graded as ``s1/0.7 s2/0.3``
=========  =======  ==================================================================

**Metadata columns.** Any other column is a metadata column: a value that belongs to the occurrence's
document, kept beside the text (a year, a source, a period). A corpus scan keeps the fields or columns named
with ``--meta year,source`` (``scan.meta``; :mod:`wsd.corpus.metadata`) and the values that
``--slice-from-path`` takes from the file path; dataset readers fill theirs the same way (the WUG reader:
``grouping`` and ``date``). Their names may not be one of the columns above (:data:`RESERVED_COLUMNS`). Every
metadata column, however it was read, gets its dtype from its values by one rule (:func:`metadata_dtype`):

=============================================  ===========================================================
the column's values (missing ones left out)    dtype
=============================================  ===========================================================
all integers, or text spelling one (``1850``)  ``int64``; ``Int64`` (pandas' nullable integer) if any is
                                               missing
numbers, some of them not whole                ``float64`` (missing: NaN)
all ``true``/``false`` (JSON or Parquet bools) ``bool``; ``boolean`` (nullable) if any is missing
anything else: text, or a mix of text with     ``str`` (missing: NaN); numbers are written as in JSON
numbers or booleans                            (``1850``, ``0.5``, ``true``); a scan warns about the mix
=============================================  ===========================================================

Text spells an integer when it is ``0`` or digits without a leading zero, with an optional ``-``
(``007`` and ``+5`` stay text); a number when it is a decimal such as ``1.5``, ``-2e3``. A value that is absent,
``null`` or empty is missing; a scan warns how many documents had a missing value and where the first was.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from wsd.errors import InputError

REQUIRED_COLUMNS: tuple[str, ...] = ("id", "target", "form", "text", "start", "end", "doc_id", "doc_start")
GOLD_COLUMN = "sense"
STRING_COLUMNS: tuple[str, ...] = ("id", "target", "form", "text", "doc_id")
INT_COLUMNS: tuple[str, ...] = ("start", "end", "doc_start")
#: Names a metadata column may not have: the occurrence table's own columns.
RESERVED_COLUMNS: tuple[str, ...] = (*REQUIRED_COLUMNS, GOLD_COLUMN)
#: The kinds of metadata values (:func:`value_kind`) and the dtypes of metadata columns (:func:`metadata_dtype`).
VALUE_KINDS: tuple[str, ...] = ("int", "float", "bool", "str")
METADATA_DTYPES: tuple[str, ...] = ("int64", "Int64", "float64", "bool", "boolean", "str")
_INTEGER_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_NUMBER_TEXT = re.compile(r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_INT64_RANGE = (-(2**63), 2**63 - 1)
#: How text metadata is held in memory: pandas' ``str`` dtype (pandas 3; missing: NaN), else ``object``.
TEXT_DTYPE: Any = "str" if int(pd.__version__.split(".")[0]) >= 3 else object


def empty_occurrences() -> pd.DataFrame:
    """An occurrence table with the required columns and no rows.

    Returns
    -------
    pandas.DataFrame
        The columns of ``REQUIRED_COLUMNS`` (strings as ``object``, offsets as ``int64``), no rows.

    Examples
    --------
    >>> empty_occurrences().columns.tolist()[:3]
    ['id', 'target', 'form']
    """
    frame = pd.DataFrame({name: pd.Series(dtype="int64") for name in REQUIRED_COLUMNS})
    for name in STRING_COLUMNS:
        frame[name] = frame[name].astype(object)
    return frame


def validate_occurrences(frame: pd.DataFrame, where: str = "occurrence table") -> pd.DataFrame:
    """Check that ``frame`` is a well-formed occurrence table and return it with canonical dtypes.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table to check (not modified).
    where : str
        What the table is, for error messages (a file name, ``"dataset semeval2013"``).

    Returns
    -------
    pandas.DataFrame
        A copy with ``int64`` offsets, string ids and texts, and a fresh 0..n-1 index.

    Raises
    ------
    InputError
        Naming ``where`` and the first bad row when a column is missing, an id repeats, or a span does
        not lie inside its text.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"id": ["a"], "target": ["bank"], "form": ["bank"], "text": ["a bank"],
    ...                   "start": [2], "end": [6], "doc_id": ["d"], "doc_start": [0]})
    >>> len(validate_occurrences(t))
    1
    """
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(f"{where}: missing column(s) {', '.join(missing)}")
    frame = frame.copy()
    for name in INT_COLUMNS:
        frame[name] = _integer_column(frame, name, where)
    for name in STRING_COLUMNS:
        _check_text_column(frame, name, where)
        frame[name] = frame[name].astype(str)
    if frame["id"].duplicated().any():
        dup = frame.loc[frame["id"].duplicated(), "id"].iloc[0]
        raise InputError(f"{where}: occurrence id {dup!r} appears more than once")
    lengths = frame["text"].str.len()
    bad = (frame["start"] < 0) | (frame["end"] <= frame["start"]) | (frame["end"] > lengths)
    if bad.any():
        row = frame.loc[bad].iloc[0]
        raise InputError(
            f"{where}: occurrence {row['id']!r} has span {row['start']}-{row['end']} "
            f"outside its text of {len(row['text'])} characters"
        )
    return frame.reset_index(drop=True)


def _first_bad(frame: pd.DataFrame, bad: pd.Series | np.ndarray, name: str, where: str, problem: str) -> InputError:
    """The error for the first row flagged in ``bad``: names the table, the occurrence and the value."""
    position = int(np.asarray(bad).nonzero()[0][0])
    value = frame[name].iloc[position]
    value = value.item() if isinstance(value, np.generic) else value
    occurrence = frame["id"].iloc[position] if name != "id" else None
    row = f"occurrence {occurrence!r}" if isinstance(occurrence, str) else f"row {position}"
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    return InputError(f"{where}: column {name!r} of {row} {problem} ({type(value).__name__} {shown})")


def _integer_column(frame: pd.DataFrame, name: str, where: str) -> pd.Series:
    """``frame[name]`` as ``int64``, or an InputError for a missing, non-numeric or fractional value."""
    column = frame[name]
    if pd.api.types.is_integer_dtype(column.dtype) and not column.isna().any():
        return column.astype("int64")
    if pd.api.types.is_bool_dtype(column.dtype):
        raise _first_bad(frame, pd.Series(True, index=column.index), name, where, "is not an integer offset")
    numbers = pd.to_numeric(column, errors="coerce")
    bad = (
        numbers.isna()
        | (numbers % 1 != 0)
        | column.map(lambda v: isinstance(v, bool), na_action="ignore").fillna(False)
    )
    if bad.any():
        raise _first_bad(frame, bad.astype(bool), name, where, "is not an integer offset")
    return numbers.astype("int64")


def _check_text_column(frame: pd.DataFrame, name: str, where: str) -> None:
    """An InputError when a value of a text column is missing or is not a string or an integer id."""
    column = frame[name]
    missing = column.isna()
    if not missing.any() and pd.api.types.infer_dtype(column, skipna=False) in ("string", "integer", "empty"):
        return
    usable = np.fromiter(
        (isinstance(v, (str, int, np.integer)) and not isinstance(v, bool) for v in column.array), bool, len(column)
    )
    bad = missing.to_numpy() | ~usable
    if bad.any():
        raise _first_bad(frame, bad, name, where, "is missing or not text")


# ------------------------------------------------------------------------------------------- metadata columns
def check_metadata_names(names: Sequence[str], where: str = "metadata") -> None:
    """An :class:`InputError` when a metadata column name is empty, repeated, or one of :data:`RESERVED_COLUMNS`.

    Parameters
    ----------
    names : sequence of str
        The metadata column names.
    where : str
        Where they were asked for, for the message (``"--meta"``).

    Raises
    ------
    InputError
        Naming the bad name.

    Examples
    --------
    >>> check_metadata_names(["year", "text"], "--meta")
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: --meta: 'text' is a column of the occurrence table itself; rename the field ...
    """
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{where}: a metadata column needs a name, not {name!r}")
        if name in RESERVED_COLUMNS:
            raise InputError(
                f"{where}: {name!r} is a column of the occurrence table itself; rename the field in the corpus "
                f"(the reserved names: {', '.join(RESERVED_COLUMNS)})"
            )
        if name in seen:
            raise InputError(f"{where}: metadata column {name!r} is asked for twice")
        seen.add(name)


def value_kind(value: Any) -> str | None:
    """The kind of one metadata value: ``int``, ``float``, ``bool``, ``str``, or None when it is missing.

    Text that spells an integer is ``int``, text that spells another number ``float`` (see the module notes).

    Parameters
    ----------
    value : object
        A value as a reader gives it (None, bool, int, float, str, or another scalar).

    Returns
    -------
    str or None

    Examples
    --------
    >>> [value_kind(v) for v in (1850, "1850", "007", 0.5, "1.5e3", True, "c. 1850", "", None)]
    ['int', 'int', 'str', 'float', 'float', 'bool', 'str', None, None]
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | np.integer):
        return "int" if _INT64_RANGE[0] <= int(value) <= _INT64_RANGE[1] else "str"
    if isinstance(value, float | np.floating):
        return "float" if math.isfinite(value) else "str"
    text = str(value)
    if not text:
        return None
    if _INTEGER_TEXT.fullmatch(text):
        return "int" if _INT64_RANGE[0] <= int(text) <= _INT64_RANGE[1] else "str"
    if _NUMBER_TEXT.fullmatch(text):
        return "float"
    return "str"


def value_text(value: Any) -> str | None:
    """One metadata value as the text a run's parts store (None when missing); :func:`metadata_column` reads it.

    Parameters
    ----------
    value : object
        A value as a reader gives it.

    Returns
    -------
    str or None
        Numbers and booleans as JSON writes them (``1850``, ``0.5``, ``true``), text as it is.

    Examples
    --------
    >>> [value_text(v) for v in (1850, 0.5, True, "c. 1850", "")]
    ['1850', '0.5', 'true', 'c. 1850', None]
    """
    if value_kind(value) is None:
        return None
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return json.dumps(float(value))
    return str(value)


def metadata_dtype(kinds: Iterable[str], missing: bool = False) -> str:
    """The dtype of a metadata column whose values have ``kinds`` (see the table in the module notes).

    Parameters
    ----------
    kinds : iterable of str
        The kinds of its values (:func:`value_kind`), repeats allowed.
    missing : bool
        Whether some values are missing.

    Returns
    -------
    str
        One of :data:`METADATA_DTYPES`.

    Examples
    --------
    >>> metadata_dtype({"int"}), metadata_dtype({"int"}, missing=True), metadata_dtype({"int", "float"})
    ('int64', 'Int64', 'float64')
    >>> metadata_dtype({"int", "str"})
    'str'
    """
    found = set(kinds)
    if found == {"int"}:
        return "Int64" if missing else "int64"
    if found and found <= {"int", "float"}:
        return "float64"
    if found == {"bool"}:
        return "boolean" if missing else "bool"
    return "str"


def metadata_column(values: Iterable[Any], dtype: str | None = None, index: Any = None) -> pd.Series:
    """A metadata column of ``dtype`` from its values (as readers give them, or as :func:`value_text` stores them).

    Parameters
    ----------
    values : iterable
        The values, one per occurrence; None, NaN or ``""``: missing.
    dtype : str, optional
        One of :data:`METADATA_DTYPES`; by default the one :func:`metadata_dtype` gives the values.
    index : index, optional
        The index of the Series.

    Returns
    -------
    pandas.Series

    Examples
    --------
    >>> metadata_column(["1850", 1900, None]).tolist()
    [1850, 1900, <NA>]
    >>> metadata_column(["1850", "c. 1900"]).tolist()
    ['1850', 'c. 1900']
    """
    items = list(values)
    kinds = [value_kind(v) for v in items]
    if dtype is None:
        dtype = metadata_dtype((k for k in kinds if k is not None), missing=None in kinds)
    if dtype not in METADATA_DTYPES:
        raise InputError(f"unknown metadata dtype {dtype!r} (one of {', '.join(METADATA_DTYPES)})")
    if dtype in ("int64", "Int64"):
        data: list[Any] = [
            None if k is None else int(v) if k == "int" else int(float(v)) for v, k in zip(items, kinds, strict=True)
        ]
    elif dtype == "float64":
        data = [math.nan if k is None else float(v) for v, k in zip(items, kinds, strict=True)]
    elif dtype in ("bool", "boolean"):
        data = [
            None if k is None else bool(v) if k == "bool" else v == "true" for v, k in zip(items, kinds, strict=True)
        ]
    else:
        data = [None if k is None else value_text(v) for v, k in zip(items, kinds, strict=True)]
    if dtype == "str":
        return pd.Series(data, index=index, dtype=TEXT_DTYPE)
    return pd.Series(pd.array(data, dtype=dtype), index=index)


def type_metadata(frame: pd.DataFrame, dtypes: Mapping[str, str]) -> pd.DataFrame:
    """``frame`` with each metadata column of ``dtypes`` in its dtype (columns already in it are kept as they are).

    Parameters
    ----------
    frame : pandas.DataFrame
        An occurrence table whose metadata columns may hold stored text (:func:`value_text`).
    dtypes : mapping
        Column → dtype (one of :data:`METADATA_DTYPES`), as a run records them.

    Returns
    -------
    pandas.DataFrame
        A copy when a column changed, else ``frame``.
    """
    changed = {
        name: metadata_column(frame[name].array, dtype, index=frame.index)
        for name, dtype in dtypes.items()
        if name in frame.columns and str(frame[name].dtype) != dtype
    }
    return frame.assign(**changed) if changed else frame


#: Metadata fields a citation shows at most, and characters per value (the rest cut with an ellipsis).
CITATION_FIELDS = 4
CITATION_VALUE_CHARS = 40


def metadata_columns(frame: pd.DataFrame) -> list[str]:
    """The metadata columns of an occurrence table: every column that is not one of :data:`RESERVED_COLUMNS`.

    Parameters
    ----------
    frame : pandas.DataFrame
        An occurrence table.

    Returns
    -------
    list of str
        The column names, in table order.

    Examples
    --------
    >>> metadata_columns(pd.DataFrame(columns=["id", "target", "year", "president"]))
    ['year', 'president']
    """
    return [str(name) for name in frame.columns if name not in RESERVED_COLUMNS]


def citations(frame: pd.DataFrame, rows: Sequence[int] | np.ndarray, columns: Sequence[str] | None = None) -> list[str]:
    """How to cite each of ``rows``: its metadata as ``year 1862 · president Lincoln`` (``""`` when it has none).

    The first :data:`CITATION_FIELDS` metadata columns are shown, each value cut to :data:`CITATION_VALUE_CHARS`
    characters; missing values are left out.

    Parameters
    ----------
    frame : pandas.DataFrame
        An occurrence table.
    rows : sequence of int
        Row positions in ``frame``.
    columns : sequence of str, optional
        The fields to show (default: :func:`metadata_columns`).

    Returns
    -------
    list of str
        One citation per row.

    Examples
    --------
    >>> table = pd.DataFrame({"id": ["a", "b"], "year": [1862, 1790], "president": ["Lincoln", None]})
    >>> citations(table, [0, 1])
    ['year 1862 · president Lincoln', 'year 1790']
    """
    names = list(metadata_columns(frame) if columns is None else columns)[:CITATION_FIELDS]
    positions = np.asarray(rows, dtype=np.int64)
    parts: list[list[str]] = [[] for _ in positions]
    for name in names:
        for part, value in zip(parts, frame[name].iloc[positions].to_numpy(dtype=object), strict=True):
            text = None if value is pd.NA or value is pd.NaT else value_text(value)
            if text is not None and text.strip():
                text = " ".join(text.split())
                if len(text) > CITATION_VALUE_CHARS:
                    text = text[: CITATION_VALUE_CHARS - 1] + "…"
                part.append(f"{name} {text}")
    return [" · ".join(part) for part in parts]
