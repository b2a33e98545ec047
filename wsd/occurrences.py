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
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from wsd.errors import InputError

REQUIRED_COLUMNS: tuple[str, ...] = ("id", "target", "form", "text", "start", "end", "doc_id", "doc_start")
GOLD_COLUMN = "sense"
STRING_COLUMNS: tuple[str, ...] = ("id", "target", "form", "text", "doc_id")
INT_COLUMNS: tuple[str, ...] = ("start", "end", "doc_start")


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
