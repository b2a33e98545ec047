"""Slices of a corpus: which slice each occurrence falls into (a metadata column, optionally binned), in order.

A *slice* is a value of a metadata column of the occurrence table (``year``, ``source``, the WUG ``grouping``),
or a bin of such values. Bins are written ``LOW:HIGH`` separated by commas (``1800:1850,1950:2000``); both ends
are **inclusive** (``1800:1850`` holds 1800, 1850 and every value between), so bins that share a value overlap
and are refused — write ``1800:1849,1850:1899`` for adjacent bins. Values outside every bin are left out with a
warning. The bin's label is its text (``1800:1850``). A bin width instead (``bin_width=10``) cuts the values into
slices of that many, aligned to its multiples (1790 to 1799, 1800 to 1809, ...; labelled ``1790:1799``; a slice
holds every value ``1790 <= value < 1800``); a width bin without uses is no slice.

Dates become years: ``by="date:year"`` slices the column ``date`` by the year of its values (ISO dates such as
``1999-05-01``, ``1999-05``, a timestamp, or a plain year; ``date:decade`` by decades), and a column whose values
are all ISO dates (or a datetime Parquet column) is read as years without being asked.

Slices are ordered as :func:`wsd.evaluate.datasets.wug.period_order` orders WUG periods: numerically when every
value is a number (``2 < 10``), else as strings (``1700-1916 < 1918-1990``); bins in order of their low end.

>>> import pandas as pd
>>> table = pd.DataFrame({"year": [1990, 1805, 1995]})
>>> assign_slices(table, "year", "1800:1850,1950:2000").labels.tolist()
['1950:2000', '1800:1850', '1950:2000']
"""

from __future__ import annotations

import calendar
import itertools
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets.wug import period_order
from wsd.io.textfiles import finite_number
from wsd.occurrences import RESERVED_COLUMNS

__all__ = [
    "DATE_UNITS",
    "Bin",
    "Slices",
    "assign_slices",
    "check_slice_options",
    "parse_bins",
    "parse_by",
    "width_bins",
    "years_of",
]

#: The units a date column is sliced by (``--by date:year``); a decade is a year with a bin width of 10.
DATE_UNITS = ("year", "decade")
#: What looks like a date (``1999-05``, ``01-01-87``, ``1887-13-45``): a column of such values is read as dates
#: without being asked, and then strictly (:data:`_ISO_DATE`), so that a value that only looks like one is an error.
_DATE_SHAPE = re.compile(r"\s*([+-]?\d{1,6})(-\d{1,2}(?:-\d{1,4})?)?(?:[T ]\d.*)?\s*")
#: A date as the docs promise it: a year (``1999``, ``-45``), or an ISO date ``YYYY-MM`` or ``YYYY-MM-DD`` (the year
#: first with at least four digits), optionally with a time after ``T`` or a space (``hh:mm``, ``:ss``, a
#: fraction, ``Z`` or an offset: what a datetime Parquet column becomes in a run, ``1999-05-01 00:00:00``).
_ISO_DATE = re.compile(
    r"\s*(?P<year>[+-]?\d{1,6})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2})"
    r"(?:[T ](?P<hour>\d{2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?\s*"
)
#: What a date that is no ISO date is told to be.
_ISO_HINT = "expected an ISO date: YYYY, YYYY-MM or YYYY-MM-DD, optionally with a time (1999-05-01T12:00:00)"


@dataclass(frozen=True)
class Bin:
    """One bin of slice values, ``low <= value <= high`` (both ends inclusive).

    Parameters
    ----------
    low, high : float
        The ends.
    label : str
        How the bin is named in every table (the text it was written as, ``1800:1850``).
    open_high : bool
        The high end is excluded (``low <= value < high``): the bins of a width (:func:`width_bins`).
    """

    low: float
    high: float
    label: str
    open_high: bool = False

    def holds(self, values: np.ndarray) -> np.ndarray:
        """Which of ``values`` fall into the bin.

        Parameters
        ----------
        values : ndarray of float
            Numeric slice values.

        Returns
        -------
        ndarray of bool
        """
        if self.open_high:  # a bin of a width: low <= value < high
            return (values >= self.low) & (values < self.high)
        return (values >= self.low) & (values <= self.high)


def parse_bins(text: str | Sequence[str]) -> list[Bin]:
    """Parse bins written ``LOW:HIGH,LOW:HIGH,...`` (both ends inclusive), checked not to overlap.

    Parameters
    ----------
    text : str or list of str
        The bins, as one comma-separated string or a list of ``LOW:HIGH`` strings.

    Returns
    -------
    list of Bin
        In order of their low ends.

    Raises
    ------
    InputError
        When a bin is not ``LOW:HIGH`` with numbers and ``LOW <= HIGH``, there is no bin, or two bins overlap
        (share a value).

    Examples
    --------
    >>> [b.label for b in parse_bins("1950:2000,1800:1850")]
    ['1800:1850', '1950:2000']
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    items = [item.strip() for item in items if item.strip()]
    if not items:
        raise InputError("--bins: no bin given (write LOW:HIGH,LOW:HIGH, e.g. 1800:1850,1950:2000)")
    bins = []
    for item in items:
        low, sep, high = item.partition(":")
        if not sep:
            raise InputError(f"--bins {item!r}: expected LOW:HIGH (both ends inclusive), e.g. 1800:1850")
        where, hint = f"--bins {item!r}", " (bins are LOW:HIGH, e.g. 1800:1850)"
        bin_ = Bin(finite_number(low.strip(), where, hint), finite_number(high.strip(), where, hint), item)
        if bin_.low > bin_.high:
            raise InputError(f"--bins {item!r}: the low end is above the high end")
        bins.append(bin_)
    bins.sort(key=lambda b: (b.low, b.high))
    for before, after in itertools.pairwise(bins):
        if after.low <= before.high:
            raise InputError(
                f"--bins: {before.label} and {after.label} overlap (both ends are inclusive; "
                f"adjacent bins are written like 1800:1849,1850:1899)"
            )
    return bins


def parse_by(by: str) -> tuple[str, str | None]:
    """Split a ``--by`` value into the column and the date unit (``date:year`` -> ``("date", "year")``).

    Parameters
    ----------
    by : str
        A column name, or ``COLUMN:UNIT`` with a unit of :data:`DATE_UNITS`.

    Returns
    -------
    tuple
        The column and the unit (None when none is given).

    Raises
    ------
    ConfigError
        For a unit not in :data:`DATE_UNITS`, or an empty column name.

    Examples
    --------
    >>> parse_by("date:year"), parse_by("year")
    (('date', 'year'), ('year', None))
    """
    column, sep, unit = by.rpartition(":")
    if not sep:
        return by.strip(), None
    column, unit = column.strip(), unit.strip()
    if unit not in DATE_UNITS or not column:
        raise ConfigError(
            f"--by {by!r}: expected COLUMN or COLUMN:UNIT with a unit of {', '.join(DATE_UNITS)} (e.g. --by date:year)"
        )
    return column, unit


def years_of(
    values: pd.Series, column: str, *, strict: bool = True, documents: pd.Series | None = None
) -> pd.Series | None:
    """The year of every date in ``values`` (text, datetimes or numbers) as text; missing values stay None.

    A date is read strictly: a year (``1887``, ``-45``), or an ISO date with the year first (``1887-05``,
    ``1887-05-03``, optionally with a time such as ``1887-05-03T10:00:00Z``) whose month and day exist. Anything
    else (``01-01-87``, ``1887-13-45``, ``1887-02-30``, ``May 1887``) is no date.

    Parameters
    ----------
    values : pandas.Series
        A metadata column: ISO dates (``1999-05-01``, ``1999-05``, ``1999-05-01 12:00:00``), years, datetimes.
    column : str
        Its name, for the message.
    strict : bool
        Raise on a value that is no date (else: None when one is not, the column is no date column).
    documents : pandas.Series, optional
        The document of every value (an occurrence table's ``doc_id``, same index), so that the message names
        the first document that holds a bad value.

    Returns
    -------
    pandas.Series or None
        The years as text (``"1999"``), same index; None when ``strict`` is false and a value is no date.

    Raises
    ------
    InputError
        With ``strict``, in one line naming the column, the first value that is no date, its document and
        what is wrong with it.

    Examples
    --------
    >>> years_of(pd.Series(["1999-05-01", "-45", None]), "date").tolist()
    ['1999', '-45', None]
    >>> years_of(pd.Series(["01-01-87"]), "date")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: --by: column 'date' holds '01-01-87', which is not a date (the year comes first, ...
    """
    if pd.api.types.is_datetime64_any_dtype(values):
        years = values.dt.year
        return pd.Series([None if pd.isna(y) else str(int(y)) for y in years], index=values.index, dtype=object)
    codes, uniques = pd.factorize(values)  # each distinct value parsed once
    parsed: list[str | None] = []
    for number, value in enumerate(uniques):
        year = getattr(value, "year", None)  # a datetime or date object
        if year is not None and not isinstance(value, str):
            parsed.append(str(int(year)))
            continue
        if isinstance(value, float | np.floating) and float(value).is_integer():
            value = int(value)
        found, reason = (None, "true or false is no date") if isinstance(value, bool | np.bool_) else _year(str(value))
        if found is None:
            if not strict:
                return None
            where = ""
            if documents is not None:
                where = f" in document {documents.iloc[int(np.flatnonzero(codes == number)[0])]}"
            raise InputError(f"--by: column {column!r} holds {value!r}{where}, which is not a date ({reason})")
        parsed.append(str(found))
    texts = np.array([*parsed, None], dtype=object)
    return pd.Series(texts[codes], index=values.index, dtype=object)


def _year(text: str) -> tuple[int | None, str]:
    """The year of a date written as text, or None and why it is no date (:data:`_ISO_DATE`)."""
    match = _ISO_DATE.fullmatch(text)
    if match is None:
        shape = _DATE_SHAPE.fullmatch(text)
        if shape is not None and shape.group(2) is not None:
            if len(shape.group(1).lstrip("+-")) < 4:
                return None, f"the year comes first, with four digits; {_ISO_HINT}"
            if re.fullmatch(r"-\d{2}(?:-\d{2})?", shape.group(2)) is None:
                return None, f"month and day have two digits; {_ISO_HINT}"
            return None, f"the time is not hh:mm or hh:mm:ss after a full date; {_ISO_HINT}"
        return None, _ISO_HINT
    year = int(match["year"])
    if match["month"] is None:
        return year, ""
    if len(match["year"].lstrip("+-")) < 4:
        return None, f"the year comes first, with four digits; {_ISO_HINT}"
    month = int(match["month"])
    if not 1 <= month <= 12:
        return None, f"month {month} is not 1 to 12"
    if match["day"] is not None:
        day = int(match["day"])
        days = (31, 29 if calendar.isleap(year) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
        if not 1 <= day <= days:
            return None, f"{match['year']}-{match['month']} has no day {day}"
    for unit, highest in (("hour", 23), ("minute", 59), ("second", 60)):  # 60: a leap second
        if match[unit] is not None and int(match[unit]) > highest:
            return None, f"{unit} {int(match[unit])} is not 0 to {highest}"
    return year, ""


def _all_dates(values: pd.Series) -> bool:
    """Whether every value looks like a date with at least a month (``1999-05``), so that it is read as a year."""
    present = values.dropna().unique()
    return bool(len(present)) and all(
        isinstance(value, str) and (m := _DATE_SHAPE.fullmatch(value)) is not None and m.group(2) is not None
        for value in present
    )


def width_bins(values: np.ndarray, width: int) -> list[Bin]:
    """The bins of ``width`` that hold ``values``, aligned to multiples of the width (1790 to 1799, ...).

    Parameters
    ----------
    values : ndarray of float
        Numeric slice values (NaN: none).
    width : int
        The bin width (at least 1).

    Returns
    -------
    list of Bin
        The bins holding at least one value, in order; labelled ``LOW:HIGH`` with ``HIGH = LOW + width - 1``.

    Examples
    --------
    >>> [b.label for b in width_bins(np.array([1790, 1805, 1799, -45]), 10)]
    ['-50:-41', '1790:1799', '1800:1809']
    """
    present = values[~np.isnan(values)]
    starts = np.unique(np.floor(present / width).astype(np.int64) * width)
    return [Bin(float(low), float(low + width), f"{low}:{low + width - 1}", open_high=True) for low in starts.tolist()]


def _given_bins(bins: str | Sequence[str] | Sequence[Bin] | None) -> list[Bin]:
    """``bins`` as Bin objects: parsed from text (:func:`parse_bins`), or as they are when already parsed."""
    if bins is None or isinstance(bins, str):
        return parse_bins(bins or "")
    if bins and all(isinstance(bin_, Bin) for bin_ in bins):
        return [bin_ for bin_ in bins if isinstance(bin_, Bin)]
    return parse_bins([str(bin_) for bin_ in bins])


def _check_one_way(bins: object, bin_width: object) -> None:
    if bins is not None and bin_width is not None:
        shown = bins if isinstance(bins, str) else ",".join(getattr(b, "label", str(b)) for b in bins)  # type: ignore[attr-defined]
        raise ConfigError(
            f"--bins {shown} and --bin-width {bin_width} both given: choose one "
            "(explicit LOW:HIGH bins, or slices of a width)"
        )


def _check_width(bin_width: object) -> int:
    if isinstance(bin_width, bool) or not isinstance(bin_width, int | np.integer) or bin_width < 1:
        raise ConfigError(f"--bin-width (change.bin_width) must be a whole number of at least 1, not {bin_width!r}")
    return int(bin_width)


def check_slice_options(
    by: str | None,
    bins: str | Sequence[str] | None = None,
    between: str | Sequence[str] | None = None,
    columns: tuple[str, ...] | None = None,
    bin_width: int | None = None,
) -> list[Bin] | None:
    """Check the slice options before any work: the column, the bins or bin width, the pair; the parsed bins.

    Everything that can be known without the occurrence table is checked here, so that a command that embeds
    a corpus first refuses bad slice options at once rather than after the embedding.

    Parameters
    ----------
    by : str or None
        The ``--by`` column.
    bins : str or list of str, optional
        The ``--bins`` (:func:`parse_bins`).
    between : str or list of str, optional
        The ``--between`` pair (two different slice labels).
    columns : tuple of str, optional
        The metadata columns the occurrence table will have (a scan's ``--meta`` and ``--slice-from-path``
        columns); None: not known yet (the table's own columns are checked later).
    bin_width : int, optional
        The ``--bin-width`` (slices of that many values, aligned to its multiples).

    Returns
    -------
    list of Bin or None
        The parsed bins (None without ``bins``).

    Raises
    ------
    ConfigError
        ``--bins``/``--bin-width``/``--between`` without ``--by``, ``--bins`` with ``--bin-width``, a width below
        1, an unknown date unit (``--by date:week``), or ``--between`` not naming two different slices.
    InputError
        ``--by`` naming a core column of the occurrence table (``text``, ``target``, ``start``, ...), a column
        the scan does not keep, or malformed bins (``--bins 0``).

    Examples
    --------
    >>> [b.label for b in check_slice_options("year", "1800:1850,1950:2000", columns=("year",))]
    ['1800:1850', '1950:2000']
    >>> check_slice_options("text")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    wsd.errors.InputError: --by 'text' is a core column of the occurrence table, not metadata: ...
    """
    if by is None or (isinstance(by, str) and not by.strip()):
        if bins or between or bin_width is not None:
            raise ConfigError(
                "--bins, --bin-width and --between compare slices: give --by COLUMN too (the slice column)"
            )
        return None
    if not isinstance(by, str):
        raise ConfigError(f"--by (change.by) must be a column name, not {by!r}")
    _check_one_way(bins, bin_width)
    if bin_width is not None:
        _check_width(bin_width)
    spec, by = by, parse_by(by)[0]
    if by in RESERVED_COLUMNS:
        raise InputError(
            f"--by {spec!r} is a core column of the occurrence table, not metadata: slice by a metadata column "
            "kept with --meta (e.g. --meta year --by year)"
        )
    if columns is not None and by not in columns:
        kept = f"it keeps {', '.join(columns)}" if columns else "it keeps no metadata"
        raise InputError(
            f"--by {spec!r}: the scan keeps no column {by!r} ({kept}); add --meta {by} "
            f"(or a --slice-from-path group named {by})"
        )
    parsed = parse_bins(bins) if bins is not None else None
    if between is not None:
        items = [item.strip() for item in between.split(",")] if isinstance(between, str) else list(between)
        if len(items) != 2 or not all(str(item) for item in items):
            raise ConfigError(f"--between names two slices (A,B), not {between!r}")
        if str(items[0]) == str(items[1]):
            raise ConfigError(f"--between names the same slice twice ({items[0]}); name two different slices")
    return parsed


@dataclass
class Slices:
    """The slice of every occurrence and the slices in order.

    Parameters
    ----------
    by : str
        The metadata column the slices come from.
    labels : pandas.Series of str
        The slice of each row of the occurrence table (same index); ``None`` for rows in no slice (an empty
        value, or a value outside every bin).
    order : list of str
        The slices, earliest first.
    """

    by: str
    labels: pd.Series
    order: list[str]

    @property
    def kept(self) -> np.ndarray:
        """Which rows fall into a slice.

        Returns
        -------
        ndarray of bool
        """
        return self.labels.notna().to_numpy()


def _text_values(column: pd.Series) -> pd.Series:
    """Slice values as strings; missing and empty values as None (whole floats lose their ``.0``)."""

    def text(value: object) -> str | None:
        if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
            return None
        if isinstance(value, float | np.floating) and float(value).is_integer():
            return str(int(value))
        out = str(value).strip()
        return out or None

    if column.dtype == object:  # mixed values (1 and True hash alike): each one on its own
        return column.map(text).astype(object)
    codes, uniques = pd.factorize(column)  # numbers or strings: each distinct value once (a million rows, few years)
    texts = np.array([text(value) for value in uniques] + [None], dtype=object)
    return pd.Series(texts[codes], index=column.index, dtype=object)


def assign_slices(
    occurrences: pd.DataFrame,
    by: str,
    bins: str | Sequence[str] | Sequence[Bin] | None = None,
    bin_width: int | None = None,
) -> Slices:
    """The slice of every occurrence: the value of column ``by``, or the bin it falls into.

    Parameters
    ----------
    occurrences : pandas.DataFrame
        An occurrence table with the metadata column ``by``.
    by : str
        The column (``year``, ``source``, ``grouping``, ...), or ``COLUMN:UNIT`` to slice dates by year or
        decade (:func:`parse_by`); a column of ISO dates or datetimes is read as years without a unit.
    bins : str or list, optional
        Bins of numeric values (see :func:`parse_bins`); none: every distinct value is a slice.
    bin_width : int, optional
        Slices of this many values, aligned to its multiples (:func:`width_bins`); not with ``bins``.

    Returns
    -------
    Slices

    Raises
    ------
    InputError
        When the column is missing (the message lists the columns there are), no row has a value, a value is
        not a number (or, with a unit, not a date) while bins are given, no bin holds an occurrence, or fewer
        than two slices remain.
    ConfigError
        Bad ``by``, ``bins`` with ``bin_width``, a width below 1.

    Warns
    -----
    UserWarning
        Naming how many rows have no value in ``by`` or fall outside every bin (they are left out), and each
        bin of ``bins`` that holds no occurrence (it is no slice).

    Examples
    --------
    >>> import pandas as pd
    >>> s = assign_slices(pd.DataFrame({"grouping": ["2", "10", "2"]}), "grouping")
    >>> s.order
    ['2', '10']
    >>> assign_slices(pd.DataFrame({"date": ["1795-03-04", "1801-12-01"]}), "date", bin_width=10).order
    ['1790:1799', '1800:1809']
    """
    _check_one_way(bins, bin_width)
    check_slice_options(by, bin_width=bin_width)
    column, unit = parse_by(by)
    if column not in occurrences.columns:
        raise InputError(
            f"the occurrence table has no column {column!r} to slice by (its columns: "
            f"{', '.join(map(str, occurrences))}); keep a metadata column in the scan (wsd embed --meta ...)"
        )
    raw = occurrences[column]
    values = None
    documents = occurrences["doc_id"] if "doc_id" in occurrences.columns else None
    if (
        unit is not None
        or pd.api.types.is_datetime64_any_dtype(raw)
        or (not pd.api.types.is_numeric_dtype(raw) and _all_dates(raw))  # dates unasked: read strictly too
    ):
        values = years_of(raw, column, documents=documents)
    if unit == "decade" and bins is None and bin_width is None:
        bin_width = 10
    values = _text_values(values if values is not None else raw)
    empty = int(values.isna().sum())
    if empty == len(values):
        raise InputError(f"column {column!r}: no occurrence has a value, so there is nothing to slice")
    if empty:
        warnings.warn(f"{empty} of {len(values)} occurrences have no {column!r} value; they are left out", stacklevel=2)
    if bins is None and bin_width is None:
        labels = values
        order = period_order(values.dropna())
    else:
        option = "--bins" if bin_width is None else "--bin-width"
        codes, uniques = pd.factorize(values)  # each distinct value read as a number once
        unique_numbers = pd.to_numeric(pd.Series(uniques, dtype=object), errors="coerce").to_numpy(np.float64)
        bad = (codes >= 0) & np.isnan(np.append(unique_numbers, 0.0)[codes])
        if bad.any():
            raise InputError(
                f"column {column!r}: value {values[bad].iloc[0]!r} is not a number, so it cannot go into {option} "
                f"({int(bad.sum())} such values; slice by the values themselves without {option}, or by the year "
                f"of a date with --by {column}:year)"
            )
        numeric = np.where(codes >= 0, np.append(unique_numbers, np.nan)[codes], np.nan)
        parsed = width_bins(numeric, _check_width(bin_width)) if bin_width is not None else _given_bins(bins)
        labels = pd.Series([None] * len(values), index=values.index, dtype=object)
        order = []
        unused = []
        for bin_ in parsed:
            inside = bin_.holds(numeric)
            if not inside.any():
                unused.append(bin_.label)
                continue
            labels[inside] = bin_.label
            order.append(bin_.label)
        if not order:
            raise InputError(
                f"--bins: no occurrence has a {column!r} value in any bin (the values run from "
                f"{np.nanmin(numeric):g} to {np.nanmax(numeric):g})"
            )
        if unused:
            warnings.warn(
                f"--bins {', '.join(unused)}: no occurrence has a {column!r} value in it; "
                f"{'it is' if len(unused) == 1 else 'they are'} no slice",
                stacklevel=2,
            )
        outside = int(labels.isna().sum()) - empty
        if outside:
            warnings.warn(
                f"{outside} of {len(values)} occurrences have a {column!r} value outside every bin; they are left out",
                stacklevel=2,
            )
    if len(order) < 2:
        raise InputError(f"column {column!r}: only one slice ({order[0]}); comparing needs at least two")
    return Slices(by, labels, order)
