"""Adversarial occurrence tables: a missing, fractional or non-text value is an InputError naming the column and
the occurrence, never a ValueError from pandas or the text "None"/"nan" taken as a context."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from wsd.errors import InputError
from wsd.occurrences import validate_occurrences

BASE = {
    "id": ["a", "b"],
    "target": ["bank", "bank"],
    "form": ["bank", "bank"],
    "text": ["a bank", "a bank"],
    "start": [2, 2],
    "end": [6, 6],
    "doc_id": ["d", "d"],
    "doc_start": [0, 0],
}

#: (case, column, values, expected column values or an error pattern)
CASES = [
    ("integer ids become strings", "id", [1, 2], ["1", "2"]),
    ("integral floats are offsets", "start", [2.0, 2.0], [2, 2]),
    ("numeric strings are offsets", "end", ["6", "6"], [6, 6]),
    ("categorical targets", "target", pd.Categorical(["bank", "bank"]), ["bank", "bank"]),
    (
        "missing offset",
        "start",
        [2.0, np.nan],
        r"column 'start' of occurrence 'b' is not an integer offset \(float nan\)",
    ),
    ("fractional offset", "end", [6.5, 6], r"column 'end' of occurrence 'a' is not an integer offset \(float 6\.5\)"),
    (
        "text offset",
        "doc_start",
        [0, "x"],
        r"column 'doc_start' of occurrence 'b' is not an integer offset \(str 'x'\)",
    ),
    ("bool offset", "start", [True, 2], r"column 'start' of occurrence 'a' is not an integer offset"),
    ("missing text", "text", ["a bank", None], r"column 'text' of occurrence 'b' is missing or not text"),
    ("bytes text", "text", ["a bank", b"a bank"], r"column 'text' of occurrence 'b' is missing or not text \(bytes"),
    ("list id", "id", ["a", ["b"]], r"column 'id' of row 1 is missing or not text \(list \['b'\]\)"),
    ("missing id", "id", ["a", np.nan], r"column 'id' of row 1 is missing or not text"),
    ("NA form", "form", pd.array(["bank", pd.NA], dtype="string"), r"column 'form' of occurrence 'b' is missing"),
    ("dict doc id", "doc_id", ["d", {"k": 1}], r"column 'doc_id' of occurrence 'b' is missing or not text \(dict"),
]


@pytest.mark.parametrize(("name", "column", "values", "expected"), CASES, ids=[c[0] for c in CASES])
def test_occurrence_table_values(name, column, values, expected):
    frame = pd.DataFrame({**BASE, column: values})
    if isinstance(expected, list):
        assert validate_occurrences(frame)[column].tolist() == expected
    else:
        with pytest.raises(InputError, match=r"^run/occurrences\.parquet: " + expected):
            validate_occurrences(frame, where="run/occurrences.parquet")
