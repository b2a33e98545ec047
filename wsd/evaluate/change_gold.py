"""Which gold change a WUG evaluation scores against, and which words have none (and why).

The graded gold is the stats file's ``change_graded`` column. Only where the file has **no such column**
(RuSemShift's format) is it −``COMPARE`` (lower mean relatedness across periods = more change), and the
column used is always named: ``"change_graded"`` or ``"-COMPARE"``. A ``change_graded`` column that is empty
for every word is *not* replaced by −``COMPARE``: the graded scores are then absent, with the reason. The
binary gold is ``change_binary``.

A word without a gold value (no row in the stats file, or an empty field in the column used) cannot be
scored; it is never dropped silently: :class:`ChangeGold` lists it with its reason, and counts it.

>>> import pandas as pd
>>> table = pd.DataFrame({"target": ["a", "b"], "change_graded": [0.5, float("nan")]})
>>> gold = change_gold(table, ["a", "b", "c"])
>>> gold.graded_column, gold.graded.to_dict()
('change_graded', {'a': 0.5})
>>> gold.without["graded"]
{'b': 'no change_graded value in the stats file', 'c': 'no row in the stats file'}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["COMPARE_COLUMN", "ChangeGold", "change_gold"]

#: The name of the graded gold when it is the negated mean relatedness across periods.
COMPARE_COLUMN = "-COMPARE"
NO_STATS = "no stats file (stats/opt/stats_groupings.csv or stats/stats_groupings.csv)"


@dataclass(frozen=True)
class ChangeGold:
    """The gold change values a WUG evaluation uses, and the words left without one.

    Parameters
    ----------
    file : str or None
        The stats file (None: the dataset has none).
    graded_column, binary_column : str or None
        The column each gold comes from (``change_graded``, ``-COMPARE``; ``change_binary``), None where
        there is none.
    graded, binary : pandas.Series
        Target → gold value, for the targets that have one.
    without : dict
        ``{"graded": {target: reason}, "binary": {target: reason}}``: the targets without a value.
    reasons : dict
        ``{"graded": reason, "binary": reason}`` where that gold cannot score at all (no column, no value).
    """

    file: str | None
    graded_column: str | None
    binary_column: str | None
    graded: pd.Series
    binary: pd.Series
    without: dict[str, dict[str, str]] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The ``gold_change`` entry of ``metrics.json``.

        Returns
        -------
        dict
            ``file``, and per kind (``graded``, ``binary``): ``column``, ``words`` (with a value),
            ``without`` (target → reason) and, where the score is absent, ``reason``.
        """
        document: dict[str, Any] = {"file": self.file}
        for kind, column, values in (
            ("graded", self.graded_column, self.graded),
            ("binary", self.binary_column, self.binary),
        ):
            entry: dict[str, Any] = {"column": column, "words": len(values), "without": dict(self.without[kind])}
            if kind in self.reasons:
                entry["reason"] = self.reasons[kind]
            document[kind] = entry
        return document

    def notes(self) -> dict[str, str]:
        """Per target, why it lacks a gold value (graded and binary reasons joined), for ``change.csv``.

        Returns
        -------
        dict
            Target → reason; targets with both values are absent.
        """
        notes: dict[str, list[str]] = {}
        for kind in ("graded", "binary"):
            for target, reason in self.without[kind].items():
                if reason not in notes.setdefault(target, []):
                    notes[target].append(reason)
        return {target: "; ".join(reasons) for target, reasons in notes.items()}


def _graded_column(table: pd.DataFrame) -> tuple[str | None, str | None]:
    if "change_graded" in table:
        return "change_graded", None
    if "COMPARE" in table:
        return COMPARE_COLUMN, None
    return None, "the stats file has neither a change_graded nor a COMPARE column"


def _values(
    table: pd.DataFrame, column: str, name: str, targets: list[str], source: dict[str, Any]
) -> tuple[pd.Series, dict[str, str]]:
    values = table[column].astype("float64") * (-1.0 if name == COMPARE_COLUMN else 1.0)
    lines = source.get("lines", {})
    file = Path(source["file"]).name if source.get("file") else "the stats file"
    without: dict[str, str] = {}
    for target in targets:
        if target not in values.index:
            without[target] = f"no row in {file}"
        elif pd.isna(values.loc[target]):
            line = f" (line {lines[target]})" if target in lines else ""
            without[target] = f"no {column} value in {file}{line}"
    present = [t for t in targets if t not in without]
    return values.loc[present], without


def change_gold(gold_change: pd.DataFrame | None, targets: Iterable[str]) -> ChangeGold:
    """The gold change of ``targets``: the columns used, the values, the targets without one and why.

    Parameters
    ----------
    gold_change : DataFrame, optional
        The dataset's gold change table (:mod:`wsd.evaluate.datasets.wug`; its ``attrs["source"]`` names the
        file and each word's line, where the reader set it). None: the dataset has no stats file.
    targets : iterable of str
        The words evaluated.

    Returns
    -------
    ChangeGold

    Examples
    --------
    >>> table = pd.DataFrame({"target": ["a", "b"], "COMPARE": [3.0, 2.0]})
    >>> change_gold(table, ["a", "b"]).graded.to_dict()
    {'a': -3.0, 'b': -2.0}
    """
    targets = sorted(dict.fromkeys(str(t) for t in targets))
    empty = pd.Series(dtype="float64")
    if gold_change is None:
        every = dict.fromkeys(targets, NO_STATS)
        return ChangeGold(
            None, None, None, empty, empty, {"graded": every, "binary": every}, {"graded": NO_STATS, "binary": NO_STATS}
        )
    source = dict(gold_change.attrs.get("source", {}))
    table = gold_change.set_index("target")
    file = source.get("file")
    where = f"the stats file {file}" if file else "the stats file"
    reasons: dict[str, str] = {}
    found: dict[str, tuple[pd.Series, dict[str, str]]] = {}
    columns = {"graded": _graded_column(table), "binary": ("change_binary", None)}
    if "change_binary" not in table:
        columns["binary"] = (None, "the stats file has no change_binary column")
    for kind, (column, reason) in columns.items():
        if column is None:
            reasons[kind] = str(reason)
            found[kind] = (empty, dict.fromkeys(targets, str(reason)))
            continue
        values, without = _values(table, column.removeprefix("-"), column, targets, source)
        if values.empty:
            instead = " (COMPARE is not used in its place)" if kind == "graded" and "COMPARE" in table else ""
            reasons[kind] = f"no word has a {column.removeprefix('-')} value in {where}{instead}"
        found[kind] = (values, without)
    return ChangeGold(
        file,
        columns["graded"][0],
        columns["binary"][0],
        found["graded"][0],
        found["binary"][0],
        {kind: found[kind][1] for kind in ("graded", "binary")},
        reasons,
    )
