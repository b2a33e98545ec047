"""The ranking in words a non-specialist can read: one sentence per measure, the fallback, where measures disagree.

The report (:func:`wsd.report.build.change_section`), the terminal table (:func:`wsd.change.stage.format_ranking`)
and the worked examples' pages all ask this module, so a measure is explained in one place.

>>> measure_sentence("prt")
'prt: how far the average use moved (cosine distance of the mean vectors of the two slices); 0 = not at all'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from wsd.change.uncertainty import DEFAULT_CONFIDENCE, shrinkage_falls_back

__all__ = [
    "MEASURE_SENTENCES",
    "Disagreement",
    "companion_measure",
    "disagreement_notes",
    "disagreements",
    "fallback_note",
    "measure_sentence",
    "ranking_legend",
    "shrinkage_fell_back",
]

#: One sentence per change measure: what it says about the uses, and what 0 means.
MEASURE_SENTENCES: dict[str, str] = {
    "prt": "how far the average use moved (cosine distance of the mean vectors of the two slices); 0 = not at all",
    "jsd": "how much the shares of the senses changed (Jensen–Shannon distance, base 2); 0 = the same shares, "
    "1 = no sense in common",
    "apd": "how far apart a use of one slice and a use of the other are on average (average pairwise cosine "
    "distance); above 0 even without change, since uses differ within a slice too",
}
#: The most disagreement notes shown (the rest are counted).
MAX_DISAGREEMENTS = 5


def measure_sentence(measure: str) -> str:
    """``name: sentence`` for a change measure (the name alone for one this module does not know).

    Parameters
    ----------
    measure : str
        ``prt``, ``jsd`` or ``apd``.

    Returns
    -------
    str

    Examples
    --------
    >>> measure_sentence("jsd").split(";")[0]
    'jsd: how much the shares of the senses changed (Jensen–Shannon distance, base 2)'
    """
    sentence = MEASURE_SENTENCES.get(str(measure))
    return f"{measure}: {sentence}" if sentence else str(measure)


def companion_measure(measure: str, available: list[str] | tuple[str, ...]) -> str | None:
    """The measure shown beside the ranking's own: JSD (the senses' shares) beside a vector measure, PRT beside JSD.

    Parameters
    ----------
    measure : str
        The ranking's measure.
    available : list of str
        The measures the ranking holds.

    Returns
    -------
    str or None
        None when the companion is not among ``available``.

    Examples
    --------
    >>> companion_measure("prt", ["jsd", "apd", "prt"]), companion_measure("jsd", ["jsd"])
    ('jsd', None)
    """
    other = "prt" if measure == "jsd" else "jsd"
    return other if other in available else None


def shrinkage_fell_back(ranking: pd.DataFrame, confidence: float = DEFAULT_CONFIDENCE) -> bool:
    """Whether a ranking's ``score_shrunk`` is the documented fallback (every score the mean of all).

    Parameters
    ----------
    ranking : DataFrame
        ``ranking.csv`` (``score``, ``score_low``, ``score_high``).
    confidence : float
        The intervals' level.

    Returns
    -------
    bool
        :func:`wsd.change.uncertainty.shrinkage_falls_back` of its scores; False without intervals.
    """
    if not {"score", "score_low", "score_high"} <= set(ranking.columns):
        return False
    return shrinkage_falls_back(ranking["score"], ranking["score_low"], ranking["score_high"], confidence)


def fallback_note(ranking: pd.DataFrame, rank_by: str, confidence: float = DEFAULT_CONFIDENCE) -> str | None:
    """The sentence that labels the shrinkage fallback, where a ranking shows or is ordered by the shrunk score.

    Parameters
    ----------
    ranking : DataFrame
        ``ranking.csv``.
    rank_by : str
        The ranking's order.
    confidence : float
        The intervals' level.

    Returns
    -------
    str or None
        None when the shrunk scores are real shrinkage (or absent).

    Examples
    --------
    >>> r = pd.DataFrame({"score": [0.1, 0.3], "score_low": [0.0, 0.2], "score_high": [0.2, 0.4],
    ...                   "score_shrunk": [0.2, 0.2]})
    >>> fallback_note(r, "shrunk").startswith("shrunk (fallback): with 2 ranked targets")
    True
    """
    if "score_shrunk" not in ranking.columns or not shrinkage_fell_back(ranking, confidence):
        return None
    level = f"{100 * confidence:g}% interval"
    why = (
        f"with {len(ranking)} ranked targets how much their true changes differ cannot be estimated"
        if len(ranking) < 3
        else "the scores differ no more than their noise explains"
    )
    ordered = f", so the order is by the lower end of the {level}" if rank_by == "shrunk" else ""
    return f"shrunk (fallback): {why}; every shrunk score is the mean of all{ordered}."


def ranking_legend(
    measure: str, measures: list[str] | tuple[str, ...], confidence: float = DEFAULT_CONFIDENCE
) -> list[str]:
    """One sentence per column of a ranking a reader may not know: each measure, the interval, the shrunk score.

    Parameters
    ----------
    measure : str
        The ranking's measure (its ``score``), first.
    measures : list of str
        The other measures shown.
    confidence : float
        The intervals' level.

    Returns
    -------
    list of str

    Examples
    --------
    >>> ranking_legend("prt", ["jsd"])[1].startswith("jsd: how much the shares")
    True
    """
    level = f"{100 * confidence:g}% interval"
    lines = [measure_sentence(m) for m in dict.fromkeys([measure, *measures])]
    lines.append(
        f"{level}: where the score would fall on {100 * confidence:g}% of resamples of the uses (bootstrap); wide "
        "on few uses"
    )
    lines.append(
        "shrunk: the score pulled toward the mean of all targets by its uncertainty, so a large score on few uses "
        "does not rank first on noise"
    )
    return lines


@dataclass(frozen=True)
class Disagreement:
    """Two targets that the ranking's measure and its companion order differently.

    Parameters
    ----------
    higher, lower : str
        The targets, ``higher`` at or above ``lower`` by the ranking's measure.
    measure, other : str
        The ranking's measure and its companion.
    values : dict
        ``{target: (score, other score)}`` of both.
    level : bool
        Whether the ranking's measure cannot tell them apart (intervals overlap) rather than ordering them.
    """

    higher: str
    lower: str
    measure: str
    other: str
    values: dict[str, tuple[float, float]]
    level: bool

    def sentence(self) -> str:
        """The note, in words.

        Returns
        -------
        str
        """
        h, lo = self.values[self.higher], self.values[self.lower]
        first = (
            f"{self.measure} cannot tell {self.higher} and {self.lower} apart ({h[0]:.3f} and {lo[0]:.3f})"
            if self.level
            else f"{self.measure} ranks {self.higher} above {self.lower} ({h[0]:.3f} against {lo[0]:.3f})"
        )
        moved = "more" if h[1] > lo[1] else "less"
        return (
            f"{self.measure} and {self.other} disagree: {first}, but {self.higher}'s {_what(self.other)} moved "
            f"clearly {moved} ({self.other} {h[1]:.3f} against {lo[1]:.3f}, intervals apart); read both words' "
            "sense cards before reading the order as meaning."
        )


def _what(measure: str) -> str:
    return {"jsd": "sense shares", "prt": "average use", "apd": "uses"}.get(measure, measure)


def disagreements(ranking: pd.DataFrame, measure: str, other: str | None = None) -> list[Disagreement]:
    """The pairs of ranked targets on which the ranking's measure and its companion disagree.

    A pair disagrees when the companion's intervals are apart (one target's upper end below the other's lower
    end: a clear difference) and the ranking's measure does not show the same clear difference: it orders the two
    the other way round, or its own intervals overlap (it cannot tell them apart). The State of the Union by
    century (issue 41): *state* and *power* level on PRT, while *power*'s sense shares moved ten times as much
    (JSD 0.32 against 0.026).

    Parameters
    ----------
    ranking : DataFrame
        ``ranking.csv`` with ``score``, ``score_low``, ``score_high`` and the companion with its interval
        (``jsd``, ``jsd_low``, ``jsd_high``; a ranking written before issue 41 has none: no note).
    measure : str
        The ranking's measure.
    other : str, optional
        The companion (default :func:`companion_measure`).

    Returns
    -------
    list of Disagreement
        In the ranking order of each pair's higher-ranked target.

    Examples
    --------
    >>> r = pd.DataFrame({"target": ["power", "state"], "score": [0.032, 0.030], "score_low": [0.027, 0.024],
    ...                   "score_high": [0.038, 0.037], "jsd": [0.32, 0.026], "jsd_low": [0.25, 0.0],
    ...                   "jsd_high": [0.40, 0.09]})
    >>> [(d.higher, d.lower, d.level) for d in disagreements(r, "prt")]
    [('power', 'state', True)]
    """
    other = other or companion_measure(measure, [c for c in ranking.columns if c in MEASURE_SENTENCES])
    needed = {"target", "score", "score_low", "score_high", f"{other}", f"{other}_low", f"{other}_high"}
    if other is None or other == measure or not needed <= set(ranking.columns):
        return []
    rows: list[dict[str, Any]] = ranking.to_dict("records")
    found = []
    for i, first in enumerate(rows):
        for second in rows[i + 1 :]:
            if first["score"] >= second["score"]:
                high, low = first, second
            else:
                high, low = second, first
            apart = high[f"{other}_high"] < low[f"{other}_low"] or low[f"{other}_high"] < high[f"{other}_low"]
            if not apart:
                continue
            other_higher = high[other] > low[other]
            measure_apart = high["score_low"] > low["score_high"]
            if other_higher and measure_apart:
                continue  # both measures order the pair the same way, clearly
            values = {str(r["target"]): (float(r["score"]), float(r[other])) for r in (high, low)}
            found.append(
                Disagreement(str(high["target"]), str(low["target"]), measure, other, values, not measure_apart)
            )
    return found


def disagreement_notes(ranking: pd.DataFrame, measure: str, limit: int = MAX_DISAGREEMENTS) -> list[str]:
    """The sentences of :func:`disagreements`, at most ``limit`` and a count of the rest.

    Parameters
    ----------
    ranking : DataFrame
        ``ranking.csv``.
    measure : str
        The ranking's measure.
    limit : int
        The most notes.

    Returns
    -------
    list of str
    """
    found = disagreements(ranking, measure)
    notes = [d.sentence() for d in found[:limit]]
    if len(found) > limit:
        notes.append(f"... and {len(found) - limit} more pairs on which they disagree.")
    return notes
