"""Comparing each target's senses and vectors between slices of a corpus: counts, change scores, ranking.

:func:`compare_slices` takes an occurrence table with a slice column, the induced sense of every occurrence
and/or its vector, and gives a :class:`SliceComparison` of eight tables:

==============  ===========================================================================================
``counts``      per target and slice: ``uses`` (occurrences with a sense), and per sense ``count`` and
                ``proportion`` (every sense of the target in every slice where it has uses; zeros included)
``scores``      per target and pair of slices: ``uses_a``, ``uses_b``, the change measures (``jsd``, ``apd``,
                ``prt``: :mod:`wsd.change.measures`) each with its bootstrap interval (``jsd_low``,
                ``jsd_high``, ...: :mod:`wsd.change.uncertainty`), ``score``, ``score_low``, ``score_high``
                (the ranking's measure), ``binary`` (the WUG rule with ``k``/``n``), the senses ``gained`` and
                ``lost`` under it; ``pair`` says which comparison the row is (``consecutive``,
                ``first-last``, or ``chosen`` for the two slices named by ``between``)
``senses``      the senses that appeared or vanished, per pair, judged with the slices' counts
                (:func:`wsd.change.measures.sense_shifts`: at least 5 uses where present, at most 1 where
                absent, and a one-sided Fisher exact test at 0.05 that the proportion is lower where absent):
                ``count_a``, ``count_b``, the slices' ``uses_a``, ``uses_b`` and the ``p_value``; the
                ``binary`` column keeps the WUG rule, an evaluation rule, with its own ``gained``/``lost``
``ranking``     the targets by the change score (:data:`DEFAULT_MEASURE` unless ``measure`` says otherwise)
                of the main pair (``between`` when given, else the first vs the last slice): ordered by the
                score shrunk toward the mean of all targets by its uncertainty, ``score_shrunk``
                (``rank_by="shrunk"``, the default; empirical Bayes, :func:`wsd.change.uncertainty.shrink_scores`:
                a large score on few uses has a wide interval and falls below a smaller, well-supported one),
                by the lower end of its interval, ``score_low`` (``rank_by="lower"``), or by the point ``score``
                (``rank_by="score"``); ``uses_a``/``uses_b`` beside it, and each measure's interval
                (``jsd_low``, ``jsd_high``, ...) last
``timeline``    every slice against the next, whatever ``between`` says (``step`` 1, 2, ...): the columns of
                ``scores`` without ``pair``
``trends``      per target and sense, its proportion against the slice order over the slices with at least
                ``min_uses`` uses (three or more): Kendall's ``tau`` and ``p_value``, the least-squares
                ``slope`` with its bootstrap interval, and ``trend`` (:mod:`wsd.change.trends`)
``largest``     per target, the pair of slices (any two with at least ``min_uses`` uses) whose change is
                largest, ordered as the ranking is (``rank_by``), with ``pairs`` the number of pairs it
                was chosen from and ``bootstrapped`` how many needed their interval (the search is exact
                unless it reaches :data:`LARGEST_MAX_BOOTSTRAPS`: then it is the best of the 50 pairs of
                highest point score)
``unmeasured``  the target/pair combinations whose change cannot be measured, with the ``reason`` (a
                target with no use in one of the slices, "only in slice 1850"; a slice with fewer than
                ``min_uses`` uses, "slice 1790 has 3 uses, fewer than --min-uses 20"): they appear in no
                other table, and a warning names them — no table ever holds a NaN
==============  ===========================================================================================

With more than two slices, every consecutive pair is compared, and the first with the last; with two, the one
pair is ``first-last``. Uses whose sense is ``-1`` (unassigned) count for APD and PRT, not for the sense
distributions.

>>> import numpy as np, pandas as pd
>>> occ = pd.DataFrame({"target": ["w"] * 4, "year": [1, 1, 2, 2]})
>>> result = compare_slices(occ, labels=np.array([0, 0, 1, 1]), by="year", min_uses=1)
>>> float(result.scores.loc[0, "jsd"])
1.0
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pandas as pd

from wsd.change.measures import (
    ABSENT_MAX,
    PRESENT_MIN,
    SHIFT_ALPHA,
    SliceSummary,
    apd,
    binary_change,
    jsd_distance,
    prt,
    sense_shifts,
    summarise_slice,
)
from wsd.change.slices import Bin, Slices, assign_slices
from wsd.change.trends import TREND_ALPHA, TREND_MIN_SLICES, sense_trends
from wsd.change.uncertainty import (
    DEFAULT_CONFIDENCE,
    DEFAULT_RESAMPLES,
    DEFAULT_VECTOR_CAP,
    check_bootstrap,
    jsd_interval,
    seed_for,
    shrink_scores,
    vector_intervals,
)
from wsd.errors import ConfigError, InputError
from wsd.io.meta_types import ComparisonFacts
from wsd.io.rows import row_source, select_rows
from wsd.schema import (
    DEFAULT_BINARY_K,
    DEFAULT_BINARY_N,
    DEFAULT_MEASURE,
    DEFAULT_MIN_USES,
    DEFAULT_RANK_BY,
    MEASURES,
    RANK_BY,
    Measure,
    RankBy,
)

__all__ = [
    "RANK_KEYS",
    "SliceComparison",
    "compare_slices",
    "describe_order",
]

PAIR_KINDS = ("consecutive", "first-last", "chosen")
#: The columns of the ``senses`` table (the senses that appeared or vanished, :func:`sense_shifts`).
SENSE_CHANGE_COLUMNS = [
    "target",
    "sense",
    "change",
    "slice_a",
    "slice_b",
    "count_a",
    "count_b",
    "uses_a",
    "uses_b",
    "p_value",
]
#: The columns of the ``largest`` table (each target's pair of slices of largest change).
LARGEST_COLUMNS = [
    "target",
    "slice_a",
    "slice_b",
    "uses_a",
    "uses_b",
    "score",
    "score_low",
    "score_high",
    "pairs",
    "bootstrapped",
]
#: The most pairs of one target bootstrapped in the search for its pair of largest change (highest point
#: scores first; a pair whose point score is below the best lower end found is never needed).
LARGEST_MAX_BOOTSTRAPS = 50


def describe_order(rank_by: str, confidence: float = DEFAULT_CONFIDENCE) -> str:
    """How a ranking is ordered, in words (the terminal table's and the report's first line).

    Parameters
    ----------
    rank_by : {"lower", "shrunk", "score"}
        The ranking's order.
    confidence : float
        The intervals' level.

    Returns
    -------
    str

    Examples
    --------
    >>> describe_order("lower")
    'the lower end of the 95% interval'
    """
    level = f"{100 * confidence:g}% interval"
    return {
        "score": "the point score",
        "shrunk": f"the score shrunk toward the mean by its uncertainty (shrunk; ties: the lower end of the {level})",
    }.get(rank_by, f"the lower end of the {level}")


#: The ranking's sort keys for each ``rank_by`` (all descending; the target's name breaks the last ties).
RANK_KEYS: dict[str, tuple[str, ...]] = {
    "lower": ("score_low", "score"),
    "shrunk": ("score_shrunk", "score_low", "score"),
    "score": ("score", "score_low"),
}


@dataclass
class SliceComparison:
    """The result of :func:`compare_slices` (see the module docstring for the tables).

    Parameters
    ----------
    by : str
        The slice column.
    slices : list of str
        The slices, earliest first.
    measure : str
        The change score the ranking is sorted by.
    binary_k, binary_n : int
        The binary rule's ``k`` and ``n``.
    counts, scores, senses, ranking, unmeasured : pandas.DataFrame
        The tables.
    bins : list of str, optional
        The bins the slices are (none: the column's values).
    main_pair : tuple of str
        The two slices the ranking compares.
    bins : list of str, optional
        The bins the slices are.
    bin_width : int, optional
        The width the bins were cut by (``bins`` are then the bins that hold uses).
    measures : list of str
        The measures the inputs give.
    min_uses : int
        The fewest uses per slice of a measured pair.
    rank_by : {"lower", "shrunk", "score"}
        The ranking's order.
    resamples : int
        Bootstrap resamples per score.
    confidence : float
        The intervals' level.
    random_state : int
        The bootstrap's seed.
    subsampled : bool
        Some slice's vectors were resampled through a subsample of ``vector_cap`` rows.
    vector_cap : int
        The most rows of a slice whose vectors are resampled.
    timeline, trends, largest : pandas.DataFrame
        Every slice against the next; each sense's trend over the slices; each target's pair of largest change.
    """

    by: str
    slices: list[str]
    measure: Measure
    binary_k: int
    binary_n: int
    counts: pd.DataFrame
    scores: pd.DataFrame
    senses: pd.DataFrame
    ranking: pd.DataFrame
    unmeasured: pd.DataFrame
    main_pair: tuple[str, str]
    bins: list[str] | None = None
    bin_width: int | None = None
    measures: list[str] = field(default_factory=list)
    min_uses: int = DEFAULT_MIN_USES
    rank_by: RankBy = DEFAULT_RANK_BY
    resamples: int = DEFAULT_RESAMPLES
    confidence: float = DEFAULT_CONFIDENCE
    random_state: int = 0
    subsampled: bool = False
    vector_cap: int = DEFAULT_VECTOR_CAP
    timeline: pd.DataFrame = field(default_factory=pd.DataFrame)
    trends: pd.DataFrame = field(default_factory=pd.DataFrame)
    largest: pd.DataFrame = field(default_factory=pd.DataFrame)

    def to_dict(self) -> ComparisonFacts:
        """A JSON-ready summary: settings, slices and every table as a list of records.

        Returns
        -------
        ComparisonFacts
            As ``change.json`` records it (:class:`wsd.io.meta_types.ComparisonFacts`).
        """

        def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
            return [{key: _plain(value) for key, value in row.items()} for row in frame.to_dict(orient="records")]

        return {
            "by": self.by,
            "bins": self.bins,
            "bin_width": self.bin_width,
            "slices": list(self.slices),
            "main_pair": list(self.main_pair),
            "measure": self.measure,
            "measures": list(self.measures),
            "binary": {"k": self.binary_k, "n": self.binary_n},
            "min_uses": self.min_uses,
            "rank_by": self.rank_by,
            "bootstrap": {
                "resamples": self.resamples,
                "confidence": self.confidence,
                "random_state": self.random_state,
                "vector_cap": self.vector_cap,
                "subsampled": self.subsampled,
            },
            "ranking": records(self.ranking),
            "scores": records(self.scores),
            "senses": records(self.senses),
            "counts": records(self.counts),
            "unmeasured": records(self.unmeasured),
            "timeline": records(self.timeline),
            "trends": records(self.trends),
            "trend_test": {"min_slices": TREND_MIN_SLICES, "alpha": TREND_ALPHA},
            "largest": records(self.largest),
            "sense_shift_test": {"present_min": PRESENT_MIN, "absent_max": ABSENT_MAX, "alpha": SHIFT_ALPHA},
        }


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray | list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def _pairs(order: list[str], between: tuple[str, str] | None) -> list[tuple[str, str, str]]:
    if between is not None:
        return [(between[0], between[1], "chosen")]
    pairs = [(a, b, "consecutive") for a, b in itertools.pairwise(order)] if len(order) > 2 else []
    return [*pairs, (order[0], order[-1], "first-last")]


def _check_between(between: Any, order: list[str]) -> tuple[str, str] | None:
    if between is None:
        return None
    if isinstance(between, str):
        between = [item.strip() for item in between.split(",")]
    items = [str(item) for item in between]
    if len(items) != 2:
        raise ConfigError(f"between names two slices (A,B), not {len(items)}: {', '.join(items)}")
    unknown = [item for item in items if item not in order]
    if unknown:
        raise InputError(f"no slice {unknown[0]!r}; the slices are {', '.join(order)}")
    if items[0] == items[1]:
        raise ConfigError(f"between names the same slice twice ({items[0]}); name two different slices")
    return items[0], items[1]


def _check_measure(measure: str | None, available: list[str]) -> Measure:
    """The measure asked for (None: :data:`DEFAULT_MEASURE`, else the first the inputs give), checked."""
    if measure is None:
        measure = DEFAULT_MEASURE if DEFAULT_MEASURE in available else available[0]
    if measure not in MEASURES:
        raise ConfigError(f"unknown change measure {measure!r} (choose one of {', '.join(MEASURES)})")
    if measure not in available:
        needs = "sense labels" if measure == "jsd" else "vectors"
        raise ConfigError(f"the change measure {measure!r} needs {needs}, which were not given")
    return cast(Measure, measure)


def compare_slices(
    occurrences: pd.DataFrame,
    labels: np.ndarray | None = None,
    X: np.ndarray | None = None,
    *,
    by: str,
    bins: str | Sequence[str] | Sequence[Bin] | None = None,
    bin_width: int | None = None,
    between: str | Sequence[str] | None = None,
    measure: Measure | None = None,
    binary_k: int | None = None,
    binary_n: int | None = None,
    min_uses: int = DEFAULT_MIN_USES,
    rank_by: RankBy = DEFAULT_RANK_BY,
    resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
    random_state: int = 0,
    vector_cap: int = DEFAULT_VECTOR_CAP,
) -> SliceComparison:
    """Sense distributions per slice and the change of every target between slices.

    Parameters
    ----------
    occurrences : pandas.DataFrame
        The occurrence table with ``target`` and the slice column ``by``.
    labels : ndarray of int, optional
        The sense of every row (``-1``: unassigned); without it there are no counts, JSD or binary decision.
    X : ndarray of shape (n, d), optional
        The vector of every row; without it there is no APD or PRT.
    by : str
        The slice column (:func:`wsd.change.slices.assign_slices`).
    bins : str or list, optional
        Bins of numeric slice values, ``LOW:HIGH`` both ends inclusive.
    bin_width : int, optional
        Slices of this many values, aligned to its multiples (``1790:1799``); not with ``bins``.
    between : two slice labels, optional
        Compare only these two (earlier first); default: consecutive slices and the first vs the last.
    measure : {"jsd", "apd", "prt"}, optional
        The change score of the ranking; default :data:`DEFAULT_MEASURE`, or the first of :data:`MEASURES` the
        inputs give when they cannot give that one (no vectors: ``jsd``).
    binary_k, binary_n : int, optional
        The binary WUG rule: a sense with at most ``k`` uses in one slice and at least ``n`` in the other (None:
        DWUG EN's, :data:`wsd.schema.DEFAULT_BINARY_K` and :data:`wsd.schema.DEFAULT_BINARY_N`).
    min_uses : int
        The fewest uses (with a sense, where ``labels`` are given) each slice of a pair needs; a pair with a
        slice below it is listed in ``unmeasured`` with the counts, not scored.
    rank_by : {"lower", "shrunk", "score"}
        Order the ranking by the score shrunk toward the mean by its uncertainty (``score_shrunk``, default), by
        the lower end of the score's interval, or by the point score.
    resamples : int
        Bootstrap resamples per score (at least 10).
    confidence : float
        The intervals' level (0.95: the 2.5th to the 97.5th percentile).
    random_state : int
        The bootstrap's seed: the same seed gives the same intervals.
    vector_cap : int
        The most rows of one slice whose vectors are resampled; a bigger slice is resampled through a random
        subsample of this many (:mod:`wsd.change.uncertainty`; ``subsampled`` says when).

    Returns
    -------
    SliceComparison

    Raises
    ------
    InputError
        Bad slice column or bins (:func:`assign_slices`), labels or vectors not row-aligned, an unknown slice
        in ``between``, or no target whose change between the main pair can be measured (an empty ranking).
    ConfigError
        Neither labels nor vectors, an unknown ``measure`` or one the inputs cannot give, a bad ``k``/``n``.

    Warns
    -----
    UserWarning
        Naming the targets whose change between the main pair cannot be measured (the ``unmeasured`` table).
    """
    if "target" not in occurrences.columns:
        raise InputError("the occurrence table has no 'target' column")
    if labels is None and X is None:
        raise ConfigError("comparing slices needs sense labels, vectors, or both")
    binary_k = DEFAULT_BINARY_K if binary_k is None else binary_k
    binary_n = DEFAULT_BINARY_N if binary_n is None else binary_n
    binary_change([0], [0], k=binary_k, n=binary_n)  # checks k and n before any work
    if isinstance(min_uses, bool) or not isinstance(min_uses, int | np.integer) or min_uses < 1:
        raise ConfigError(f"min_uses must be a positive integer, got {min_uses!r}")
    if rank_by not in RANK_BY:
        raise ConfigError(f"unknown rank_by {rank_by!r} (choose one of {', '.join(RANK_BY)})")
    check_bootstrap(resamples, confidence)
    if isinstance(vector_cap, bool) or not isinstance(vector_cap, int | np.integer) or vector_cap < 2:
        raise ConfigError(f"vector_cap must be an integer of at least 2, got {vector_cap!r}")
    if labels is not None:
        labels = np.asarray(labels)
        if labels.shape != (len(occurrences),):
            raise InputError(
                f"{labels.shape} sense labels for {len(occurrences)} occurrences; they must be row-aligned"
            )
        labels = labels.astype(np.int64)
    if X is not None:
        X = X if isinstance(X, np.ndarray) else np.asarray(X)  # a memory map stays one: slices are read in blocks
        if X.ndim != 2 or X.shape[0] != len(occurrences):
            raise InputError(f"vectors of shape {X.shape} are not row-aligned with {len(occurrences)} occurrences")
    available = [m for m in MEASURES if (m == "jsd" and labels is not None) or (m != "jsd" and X is not None)]
    measure = _check_measure(measure, available)
    slices = assign_slices(occurrences, by, bins, bin_width)
    chosen = _check_between(between, slices.order)
    pairs = _pairs(slices.order, chosen)
    tables = _Tables(occurrences, slices, labels, X, available, binary_k, binary_n)
    tables.measure, tables.min_uses = measure, int(min_uses)
    tables.bootstrap = _Bootstrap(int(resamples), float(confidence), int(random_state), int(vector_cap))
    for target, rows in tables.rows_by_target.items():
        tables.add_counts(target, rows)
        for a, b, kind in pairs:
            tables.add_pair(target, rows, a, b, kind)
        tables.add_timeline(target, rows)
        tables.add_largest(target, rows, rank_by)
    main = (pairs[-1][0], pairs[-1][1])
    scores = pd.DataFrame(tables.scores, columns=tables.score_columns())
    unmeasured = pd.DataFrame(tables.unmeasured, columns=["target", "slice_a", "slice_b", "pair", "reason"])
    main_missing = unmeasured[(unmeasured["slice_a"] == main[0]) & (unmeasured["slice_b"] == main[1])]
    if len(main_missing) and len(main_missing) == len(tables.rows_by_target):  # an empty ranking is no answer
        first = main_missing.iloc[0]
        lower = " or lower --min-uses" if "--min-uses" in str(first["reason"]) else ""
        raise InputError(
            f"no target's change between {main[0]} and {main[1]} can be measured (e.g. {first['target']}: "
            f"{first['reason']}); choose slices that hold uses of the targets (--bins LOW:HIGH,... or --between "
            f"A,B){lower}"
        )
    if len(main_missing):
        shown = "; ".join(f"{r.target} ({r.reason})" for r in main_missing.head(5).itertuples())
        more = f" and {len(main_missing) - 5} more" if len(main_missing) > 5 else ""
        warnings.warn(
            f"the change of {len(main_missing)} target(s) between {main[0]} and {main[1]} cannot be measured: "
            f"{shown}{more}; they are listed as unmeasured, not ranked",
            stacklevel=2,
        )
    counts = pd.DataFrame(tables.counts, columns=["target", "slice", "sense", "count", "uses", "proportion"])
    boot = tables.bootstrap
    return SliceComparison(
        by=by,
        slices=slices.order,
        measure=measure,
        binary_k=binary_k,
        binary_n=binary_n,
        counts=counts,
        scores=scores,
        senses=pd.DataFrame(tables.senses, columns=SENSE_CHANGE_COLUMNS),
        ranking=_ranking(scores, main, rank_by, available, labels is not None, float(confidence)),
        unmeasured=unmeasured,
        main_pair=main,
        bins=[bin_.label if isinstance(bin_, Bin) else str(bin_) for bin_ in _bin_labels(bins)]
        if bins
        else (list(slices.order) if bin_width is not None else None),
        bin_width=bin_width,
        measures=available,
        min_uses=int(min_uses),
        rank_by=rank_by,
        resamples=int(resamples),
        confidence=float(confidence),
        random_state=int(random_state),
        subsampled=tables.subsampled,
        vector_cap=int(vector_cap),
        timeline=pd.DataFrame(tables.timeline, columns=["step", *tables.score_columns(pair=False)]),
        trends=sense_trends(
            counts,
            slices.order,
            min_uses=int(min_uses),
            resamples=boot.resamples,
            confidence=boot.confidence,
            random_state=boot.random_state,
        ),
        largest=pd.DataFrame(tables.largest, columns=LARGEST_COLUMNS),
    )


def _bin_labels(bins: Any) -> list[Any]:
    if isinstance(bins, str):
        return [item.strip() for item in bins.split(",") if item.strip()]
    return list(bins)


def _ranking(
    scores: pd.DataFrame,
    main: tuple[str, str],
    rank_by: str,
    measures: list[str],
    has_labels: bool,
    confidence: float = DEFAULT_CONFIDENCE,
) -> pd.DataFrame:
    columns = ["target", "score", "score_low", "score_high", "slice_a", "slice_b", "uses_a", "uses_b", *measures]
    if has_labels:
        columns += ["binary"]
    # each measure's interval, after the columns rankings had before issue 41 (the disagreement notes read them)
    columns += [f"{m}_{end}" for m in measures for end in ("low", "high") if f"{m}_{end}" in scores.columns]
    part = scores[(scores["slice_a"] == main[0]) & (scores["slice_b"] == main[1])]
    part = part[columns].copy()
    part["score_shrunk"] = shrink_scores(part["score"], part["score_low"], part["score_high"], confidence)
    order = [*RANK_KEYS[rank_by], "target"]
    ascending = [False] * (len(order) - 1) + [True]
    part = part.sort_values(order, ascending=ascending, kind="mergesort").reset_index(drop=True)
    part.insert(0, "rank", np.arange(1, len(part) + 1, dtype=np.int64))
    return part


@dataclass(frozen=True)
class _Bootstrap:
    """The bootstrap's settings."""

    resamples: int = DEFAULT_RESAMPLES
    confidence: float = DEFAULT_CONFIDENCE
    random_state: int = 0
    vector_cap: int = DEFAULT_VECTOR_CAP


class _Tables:
    """The rows of the tables, collected target by target."""

    def __init__(
        self,
        occurrences: pd.DataFrame,
        slices: Slices,
        labels: np.ndarray | None,
        X: np.ndarray | None,
        measures: list[str],
        k: int,
        n: int,
    ) -> None:
        kept = slices.kept
        self.order = slices.order
        # each row's slice as a number (its position in the order; -1: in no slice), compared as numbers
        code_of = {label: code for code, label in enumerate(self.order)}
        self.slice_code = slices.labels.map(code_of).fillna(-1).to_numpy(dtype=np.int64)
        self.labels, self.X, self.measures, self.k, self.n = labels, X, measures, k, n
        self.source = None if X is None else row_source(X)
        targets = occurrences["target"].astype(str).to_numpy()
        self.rows_by_target = {
            target: index[kept[index]]
            for target, index in pd.Series(np.arange(len(targets))).groupby(targets, sort=True).indices.items()
        }
        self.counts: list[tuple[Any, ...]] = []
        self.scores: list[dict[str, Any]] = []
        self.senses: list[tuple[Any, ...]] = []
        self.unmeasured: list[tuple[str, str, str, str, str]] = []
        self.timeline: list[dict[str, Any]] = []
        self.largest: list[dict[str, Any]] = []
        self._recorded: set[tuple[str, str, str]] = set()
        self._measured: dict[tuple[str, str, str], dict[str, Any] | str] = {}
        self._sense_ids: dict[str, np.ndarray] = {}
        self._summaries: dict[tuple[str, str], SliceSummary] = {}
        self._resampled_rows: dict[tuple[str, str], np.ndarray] = {}
        self.measure = measures[0]
        self.min_uses = DEFAULT_MIN_USES
        self.bootstrap = _Bootstrap()
        self.subsampled = False

    def score_columns(self, pair: bool = True) -> list[str]:
        columns = ["target", "slice_a", "slice_b", *(["pair"] if pair else [])]
        columns += ["uses_a", "uses_b", "score", "score_low", "score_high"]
        for measure in self.measures:
            columns += [measure, f"{measure}_low", f"{measure}_high"]
        return columns + (["binary", "gained", "lost"] if self.labels is not None else [])

    def _rows_to_resample(self, target: str, label: str, rows: np.ndarray) -> np.ndarray:
        """A slice's vectors for the bootstrap: all of them, or a seeded subsample of ``vector_cap`` rows."""
        key = (target, label)
        if key not in self._resampled_rows:
            cap = self.bootstrap.vector_cap
            if len(rows) > cap:
                rng = seed_for(self.bootstrap.random_state, "subsample", target, label)
                rows = np.sort(rng.choice(rows, size=cap, replace=False))
            assert self.source is not None, "vectors are resampled only when the comparison has them"
            self._resampled_rows[key] = np.asarray(select_rows(self.source, rows), dtype=np.float64)
        return self._resampled_rows[key]

    def _in(self, rows: np.ndarray, label: str) -> np.ndarray:
        return rows[self.slice_code[rows] == self.order.index(label)]

    def _present(self, rows: np.ndarray) -> set[str]:
        return {self.order[code] for code in np.unique(self.slice_code[rows]) if code >= 0}

    def _summary(self, target: str, label: str, rows: np.ndarray, name: str) -> SliceSummary:
        """A slice's vector summary, computed once per target and slice (a slice is in several pairs)."""
        key = (target, label)
        if key not in self._summaries:
            assert self.source is not None, "slices are summarised only when the comparison has vectors"
            self._summaries[key] = summarise_slice(select_rows(self.source, rows), label)
        found = self._summaries[key]
        return SliceSummary(name, found.mean, found.unit_mean)

    def _sense_counts(self, target: str, rows: np.ndarray) -> np.ndarray:
        senses = self._sense_ids[target]
        own = self.labels[rows]  # type: ignore[index]
        own = own[own >= 0]
        return np.array([int(np.sum(own == s)) for s in senses], dtype=np.int64)

    def add_counts(self, target: str, rows: np.ndarray) -> None:
        if self.labels is None:
            return
        own = self.labels[rows]
        self._sense_ids[target] = np.unique(own[own >= 0])
        present = self._present(rows)
        for label in (label for label in self.order if label in present):
            counts = self._sense_counts(target, self._in(rows, label))
            total = int(counts.sum())
            if total == 0:
                continue
            for sense, count in zip(self._sense_ids[target], counts, strict=True):
                self.counts.append((target, label, int(sense), int(count), total, float(count / total)))

    def _reason(self, target: str, rows: np.ndarray, a: str, b: str, in_a: int, in_b: int) -> str | None:
        present = self._present(rows)
        if len(present) == 1:
            return f"only in slice {next(iter(present))}"
        empty = [label for label, count in ((a, in_a), (b, in_b)) if count == 0]
        if empty:
            return f"no uses in slice {' or '.join(empty)}"
        return None

    def _measure(self, target: str, rows: np.ndarray, a: str, b: str) -> dict[str, Any] | str:
        """The scores of one pair with their intervals (a dict), or why it cannot be measured; computed once."""
        key = (target, a, b)
        if key not in self._measured:
            self._measured[key] = self._compute(target, rows, a, b)
        return self._measured[key]

    def _slice_uses(self, target: str, rows: np.ndarray, label: str) -> int:
        """The uses (with a sense, where senses are given) of a target in a slice."""
        in_slice = self._in(rows, label)
        if self.labels is None:
            return len(in_slice)
        return int(np.sum(self.labels[in_slice] >= 0))

    def _compute(self, target: str, rows: np.ndarray, a: str, b: str) -> dict[str, Any] | str:
        rows_a, rows_b = self._in(rows, a), self._in(rows, b)
        uses_a, uses_b = len(rows_a), len(rows_b)
        counts_a = counts_b = None
        if self.labels is not None:
            counts_a, counts_b = self._sense_counts(target, rows_a), self._sense_counts(target, rows_b)
            uses_a, uses_b = int(counts_a.sum()), int(counts_b.sum())
        reason = self._reason(target, rows, a, b, len(rows_a), len(rows_b))
        if reason is None and (uses_a == 0 or uses_b == 0):
            reason = f"no use with a sense in slice {a if uses_a == 0 else b}"
        if reason is None and min(uses_a, uses_b) < self.min_uses:
            few = [f"slice {label} has {count} uses" for label, count in ((a, uses_a), (b, uses_b))]
            few = [text for text, count in zip(few, (uses_a, uses_b), strict=True) if count < self.min_uses]
            reason = f"{' and '.join(few)}, fewer than --min-uses {self.min_uses}"
        if reason is not None:
            return reason
        row: dict[str, Any] = {"target": target, "slice_a": a, "slice_b": b}
        row |= {"uses_a": uses_a, "uses_b": uses_b}
        boot = self.bootstrap
        rng = seed_for(boot.random_state, target, a, b)
        if "jsd" in self.measures:
            row["jsd"] = jsd_distance(counts_a, counts_b)
            row["jsd_low"], row["jsd_high"] = jsd_interval(
                counts_a, counts_b, resamples=boot.resamples, confidence=boot.confidence, random_state=rng
            )
        if self.X is not None:  # one pass over each slice's vectors, in float64 chunks of the store's dtype
            va, vb = self._summary(target, a, rows_a, "slice A"), self._summary(target, b, rows_b, "slice B")
            row["apd"], row["prt"] = apd(va, vb), prt(va, vb)
            found = vector_intervals(
                self._rows_to_resample(target, a, rows_a),
                self._rows_to_resample(target, b, rows_b),
                va,
                vb,
                (len(rows_a), len(rows_b)),
                (row["apd"], row["prt"]),
                resamples=boot.resamples,
                confidence=boot.confidence,
                random_state=rng,
            )
            assert found.apd is not None and found.prt is not None  # apd() and prt() raise where undefined
            (row["apd_low"], row["apd_high"]), (row["prt_low"], row["prt_high"]) = found.apd, found.prt
            self.subsampled = self.subsampled or found.subsampled
        row["score"] = row[self.measure]
        row["score_low"], row["score_high"] = row[f"{self.measure}_low"], row[f"{self.measure}_high"]
        if self.labels is not None:
            decision = binary_change(counts_a, counts_b, k=self.k, n=self.n)  # the WUG rule: an evaluation rule
            senses = self._sense_ids[target]
            row["binary"] = decision.changed
            row["gained"] = [int(senses[i]) for i in decision.gained]
            row["lost"] = [int(senses[i]) for i in decision.lost]
            row["_shifts"] = []  # appeared/vanished: judged with the slices' counts, not by the WUG rule
            for shift in sense_shifts(counts_a, counts_b):
                i = shift.position
                numbers = (int(counts_a[i]), int(counts_b[i]), uses_a, uses_b, shift.p_value)  # type: ignore[index]
                row["_shifts"].append((target, int(senses[i]), shift.change, a, b, *numbers))
        return row

    def _unmeasured(self, target: str, a: str, b: str, kind: str, reason: str) -> None:
        if (target, a, b) not in self._recorded:
            self._recorded.add((target, a, b))
            self.unmeasured.append((target, a, b, kind, reason))

    def add_pair(self, target: str, rows: np.ndarray, a: str, b: str, kind: str) -> None:
        found = self._measure(target, rows, a, b)
        if isinstance(found, str):
            self._unmeasured(target, a, b, kind, found)
            return
        self.scores.append({key: value for key, value in found.items() if key != "_shifts"} | {"pair": kind})
        self.senses.extend(found.get("_shifts", []))

    def add_timeline(self, target: str, rows: np.ndarray) -> None:
        """Every slice against the next (the timeline); an unmeasurable step goes to ``unmeasured``."""
        for step, (a, b) in enumerate(itertools.pairwise(self.order), start=1):
            found = self._measure(target, rows, a, b)
            if isinstance(found, str):
                self._unmeasured(target, a, b, "consecutive", found)
                continue
            self.timeline.append({"step": step} | {key: value for key, value in found.items() if key != "_shifts"})

    def _point(self, target: str, rows: np.ndarray, a: str, b: str) -> float:
        """The point score of a pair, without its interval (cheap: cached slice summaries or counts)."""
        rows_a, rows_b = self._in(rows, a), self._in(rows, b)
        if self.measure == "jsd":
            return jsd_distance(self._sense_counts(target, rows_a), self._sense_counts(target, rows_b))
        va, vb = self._summary(target, a, rows_a, "slice A"), self._summary(target, b, rows_b, "slice B")
        return apd(va, vb) if self.measure == "apd" else prt(va, vb)

    def add_largest(self, target: str, rows: np.ndarray, rank_by: str) -> None:
        """The pair of slices of largest change, ordered as the ranking is, over every measurable pair.

        With ``rank_by="shrunk"`` the pairs are ordered as with ``"lower"`` (shrinking needs the other targets).
        A pair's interval holds its point score, so once the point scores (sorted) fall below the best lower
        end found, no later pair can beat it: only the pairs above it are bootstrapped, at most
        :data:`LARGEST_MAX_BOOTSTRAPS` of them (the exact answer unless ``bootstrapped`` reaches it).
        """
        present = self._present(rows)
        usable = [label for label in self.order if label in present]
        usable = [label for label in usable if self._slice_uses(target, rows, label) >= self.min_uses]
        pairs = list(itertools.combinations(usable, 2))
        if not pairs:
            return
        points = [self._point(target, rows, a, b) for a, b in pairs]
        # one target's pairs have no prior across targets to shrink toward: "shrunk" orders them as "lower" does
        rank_by = "score" if rank_by == "score" else "lower"

        def order(row: dict[str, Any]) -> tuple[float, float]:
            return (row["score_low"], row["score"]) if rank_by == "lower" else (row["score"], row["score_low"])

        best: dict[str, Any] | None = None
        bootstrapped = 0
        for index in sorted(range(len(pairs)), key=lambda i: -points[i]):  # stable: earlier pairs first on ties
            if best is not None and (rank_by == "score" or points[index] < best["score_low"]):
                break
            if bootstrapped == LARGEST_MAX_BOOTSTRAPS:  # bounded work: the best of the highest point scores
                break
            bootstrapped += 1
            found = self._measure(target, rows, *pairs[index])
            if isinstance(found, str):
                continue
            if best is None or order(found) > order(best):
                best = found
        if best is not None:
            columns = ("target", "slice_a", "slice_b", "uses_a", "uses_b", "score", "score_low", "score_high")
            self.largest.append(
                {column: best[column] for column in columns} | {"pairs": len(pairs), "bootstrapped": bootstrapped}
            )
