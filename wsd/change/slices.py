"""Slices of a corpus: which slice each occurrence falls into (a metadata column, optionally binned), in order.

A *slice* is a value of a metadata column of the occurrence table (``year``, ``source``, the WUG ``grouping``),
or a bin of such values. Bins are written ``LOW:HIGH`` separated by commas (``1800:1850,1950:2000``); both ends
are **inclusive** (``1800:1850`` holds 1800, 1850 and every value between), so bins that share a value overlap
and are refused — write ``1800:1849,1850:1899`` for adjacent bins. Values outside every bin are left out with a
warning. The bin's label is its text (``1800:1850``).

Slices are ordered as :func:`wsd.evaluate.datasets.wug.period_order` orders WUG periods: numerically when every
value is a number (``2 < 10``), else as strings (``1700-1916 < 1918-1990``); bins in order of their low end.

>>> import pandas as pd
>>> table = pd.DataFrame({"year": [1990, 1805, 1995]})
>>> assign_slices(table, "year", "1800:1850,1950:2000").labels.tolist()
['1950:2000', '1800:1850', '1950:2000']
"""

from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets.wug import period_order
from wsd.occurrences import RESERVED_COLUMNS

__all__ = ["Bin", "Slices", "assign_slices", "check_slice_options", "parse_bins"]


@dataclass(frozen=True)
class Bin:
    """One bin of slice values, ``low <= value <= high`` (both ends inclusive).

    Parameters
    ----------
    low, high : float
        The ends.
    label : str
        How the bin is named in every table (the text it was written as, ``1800:1850``).
    """

    low: float
    high: float
    label: str

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
        return (values >= self.low) & (values <= self.high)


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"--bins {where}: {text!r} is not a number (bins are LOW:HIGH, e.g. 1800:1850)") from None
    if not math.isfinite(value):
        raise InputError(f"--bins {where}: {text!r} is not a finite number")
    return value


def parse_bins(text: str | list[str] | tuple[str, ...]) -> list[Bin]:
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
        bin_ = Bin(_number(low.strip(), repr(item)), _number(high.strip(), repr(item)), item)
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


def check_slice_options(
    by: str | None,
    bins: str | list[str] | tuple[str, ...] | None = None,
    between: str | list[str] | tuple[str, ...] | None = None,
    columns: tuple[str, ...] | None = None,
) -> list[Bin] | None:
    """Check the slice options before any work: the column, the bins, the pair; the parsed bins.

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

    Returns
    -------
    list of Bin or None
        The parsed bins (None without ``bins``).

    Raises
    ------
    ConfigError
        ``--bins``/``--between`` without ``--by``, or ``--between`` not naming two different slices.
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
        if bins or between:
            raise ConfigError("--bins and --between compare slices: give --by COLUMN too (the slice column)")
        return None
    if not isinstance(by, str):
        raise ConfigError(f"--by (change.by) must be a column name, not {by!r}")
    if by in RESERVED_COLUMNS:
        raise InputError(
            f"--by {by!r} is a core column of the occurrence table, not metadata: slice by a metadata column "
            "kept with --meta (e.g. --meta year --by year)"
        )
    if columns is not None and by not in columns:
        kept = f"it keeps {', '.join(columns)}" if columns else "it keeps no metadata"
        raise InputError(
            f"--by {by!r}: the scan keeps no column {by!r} ({kept}); add --meta {by} "
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
    occurrences: pd.DataFrame, by: str, bins: str | list[str] | tuple[str, ...] | list[Bin] | None = None
) -> Slices:
    """The slice of every occurrence: the value of column ``by``, or the bin it falls into.

    Parameters
    ----------
    occurrences : pandas.DataFrame
        An occurrence table with the metadata column ``by``.
    by : str
        The column (``year``, ``source``, ``grouping``, ...).
    bins : str or list, optional
        Bins of numeric values (see :func:`parse_bins`); none: every distinct value is a slice.

    Returns
    -------
    Slices

    Raises
    ------
    InputError
        When the column is missing (the message lists the columns there are), no row has a value, a value is
        not a number while ``bins`` are given, a bin holds no occurrence, or fewer than two slices remain.

    Warns
    -----
    UserWarning
        Naming how many rows have no value in ``by`` or fall outside every bin (they are left out).

    Examples
    --------
    >>> import pandas as pd
    >>> s = assign_slices(pd.DataFrame({"grouping": ["2", "10", "2"]}), "grouping")
    >>> s.order
    ['2', '10']
    """
    if by not in occurrences.columns:
        raise InputError(
            f"the occurrence table has no column {by!r} to slice by (its columns: {', '.join(map(str, occurrences))}); "
            "keep a metadata column in the scan (wsd embed --meta ...)"
        )
    values = _text_values(occurrences[by])
    empty = int(values.isna().sum())
    if empty == len(values):
        raise InputError(f"column {by!r}: no occurrence has a value, so there is nothing to slice")
    if empty:
        warnings.warn(f"{empty} of {len(values)} occurrences have no {by!r} value; they are left out", stacklevel=2)
    if bins is None:
        labels = values
        order = period_order(values.dropna())
    else:
        parsed = bins if bins and isinstance(next(iter(bins)), Bin) else parse_bins(bins)  # type: ignore[arg-type]
        codes, uniques = pd.factorize(values)  # each distinct value read as a number once
        unique_numbers = pd.to_numeric(pd.Series(uniques, dtype=object), errors="coerce").to_numpy(np.float64)
        bad = (codes >= 0) & np.isnan(np.append(unique_numbers, 0.0)[codes])
        if bad.any():
            raise InputError(
                f"column {by!r}: value {values[bad].iloc[0]!r} is not a number, so it cannot go into --bins "
                f"({int(bad.sum())} such values; slice by the values themselves without --bins)"
            )
        numeric = np.where(codes >= 0, np.append(unique_numbers, np.nan)[codes], np.nan)
        labels = pd.Series([None] * len(values), index=values.index, dtype=object)
        for bin_ in parsed:  # type: ignore[union-attr]
            inside = bin_.holds(numeric)
            if not inside.any():
                raise InputError(f"--bins {bin_.label}: no occurrence has a {by!r} value in it")
            labels[inside] = bin_.label
        outside = int(labels.isna().sum()) - empty
        if outside:
            warnings.warn(
                f"{outside} of {len(values)} occurrences have a {by!r} value outside every bin; they are left out",
                stacklevel=2,
            )
        order = [bin_.label for bin_ in parsed]  # type: ignore[union-attr]
    if len(order) < 2:
        raise InputError(f"column {by!r}: only one slice ({order[0]}); comparing needs at least two")
    return Slices(by, labels, order)
