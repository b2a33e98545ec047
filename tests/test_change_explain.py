"""The ranking in words (issue 41, item 5): a sentence per measure, the shrinkage fallback, PRT/JSD disagreements."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from wsd.change.explain import (
    MEASURE_SENTENCES,
    companion_measure,
    disagreement_notes,
    disagreements,
    fallback_note,
    ranking_legend,
)
from wsd.change.uncertainty import shrink_scores, shrinkage_falls_back


def _ranking(rows: list[tuple[str, float, float, float, float, float, float]]) -> pd.DataFrame:
    columns = ["target", "score", "score_low", "score_high", "jsd", "jsd_low", "jsd_high"]
    return pd.DataFrame(rows, columns=columns)


def test_every_measure_has_one_sentence_that_says_what_zero_means() -> None:
    assert set(MEASURE_SENTENCES) == {"prt", "jsd", "apd"}
    legend = ranking_legend("prt", ["jsd", "apd"])
    assert [line.split(":")[0] for line in legend] == ["prt", "jsd", "apd", "95% interval", "shrunk"]
    assert legend[0].endswith("0 = not at all") and "0 = the same shares" in legend[1]
    assert ranking_legend("jsd", ["jsd", "prt"])[:2] == [
        f"jsd: {MEASURE_SENTENCES['jsd']}",
        f"prt: {MEASURE_SENTENCES['prt']}",
    ]
    assert (companion_measure("prt", ["jsd", "prt"]), companion_measure("apd", ["jsd"])) == ("jsd", "jsd")
    assert (companion_measure("jsd", ["jsd", "prt"]), companion_measure("prt", ["prt"])) == ("prt", None)


@pytest.mark.parametrize(
    ("scores", "low", "high", "falls_back"),
    [
        ([0.04, 0.03], [0.03, 0.02], [0.06, 0.04], True),  # two targets: no spread to estimate
        ([0.1, 0.11, 0.12], [0.0, 0.0, 0.0], [0.3, 0.3, 0.3], True),  # spread within the noise
        ([0.1, 0.5, 0.9], [0.09, 0.49, 0.89], [0.11, 0.51, 0.91], False),
        ([0.3], [0.2], [0.4], False),  # one target: its own mean, no fallback to label
    ],
)
def test_the_fallback_test_is_the_one_shrink_scores_takes(scores, low, high, falls_back) -> None:
    assert shrinkage_falls_back(scores, low, high, 0.95) is falls_back
    shrunk = shrink_scores(np.array(scores), np.array(low), np.array(high), 0.95)
    if falls_back:
        assert np.all(shrunk == np.mean(scores))
    elif len(scores) > 1:
        assert np.ptp(shrunk) > 0


def test_the_fallback_is_labelled_with_its_reason() -> None:
    two = pd.DataFrame({"score": [0.04, 0.03], "score_low": [0.03, 0.02], "score_high": [0.06, 0.04],
                        "score_shrunk": [0.035, 0.035]})  # fmt: skip
    note = fallback_note(two, "shrunk")
    assert note is not None and "with 2 ranked targets" in note and "lower end of the 95% interval" in note
    assert "so the order" not in (fallback_note(two, "score") or "")  # ordered otherwise: only the column is named
    three = pd.DataFrame({"score": [0.1, 0.5, 0.9], "score_low": [0.09, 0.49, 0.89],
                          "score_high": [0.11, 0.51, 0.91], "score_shrunk": [0.1, 0.5, 0.9]})  # fmt: skip
    assert fallback_note(three, "shrunk") is None
    assert fallback_note(two.drop(columns="score_shrunk"), "shrunk") is None


def test_a_tie_on_prt_that_jsd_separates_is_noted() -> None:
    # the State of the Union: state level with power on PRT, its sense shares barely moving
    ranking = _ranking(
        [("power", 0.032, 0.027, 0.038, 0.32, 0.25, 0.40), ("state", 0.030, 0.024, 0.037, 0.026, 0.0, 0.09)]
    )
    (found,) = disagreements(ranking, "prt")
    assert (found.higher, found.lower, found.level, found.other) == ("power", "state", True, "jsd")
    sentence = found.sentence()
    assert sentence.startswith("prt and jsd disagree: prt cannot tell power and state apart (0.032 and 0.030)")
    assert "power's sense shares moved clearly more (jsd 0.320 against 0.026" in sentence


def test_a_clear_reversal_is_noted_and_agreement_is_not() -> None:
    reversed_ = _ranking([("a", 0.30, 0.25, 0.35, 0.05, 0.01, 0.10), ("b", 0.10, 0.08, 0.12, 0.50, 0.40, 0.60)])
    (found,) = disagreements(reversed_, "prt")
    assert (found.higher, found.lower, found.level) == ("a", "b", False)
    assert "prt ranks a above b (0.300 against 0.100)" in found.sentence() and "moved clearly less" in found.sentence()
    agree = _ranking([("a", 0.30, 0.25, 0.35, 0.50, 0.40, 0.60), ("b", 0.10, 0.08, 0.12, 0.05, 0.01, 0.10)])
    assert disagreements(agree, "prt") == []
    overlapping_jsd = _ranking([("a", 0.30, 0.25, 0.35, 0.05, 0.0, 0.45), ("b", 0.10, 0.08, 0.12, 0.50, 0.40, 0.60)])
    assert disagreements(overlapping_jsd, "prt") == []  # JSD cannot tell them apart: nothing to point out
    assert disagreements(reversed_.drop(columns="jsd_low"), "prt") == []  # a ranking written before issue 41


def test_notes_are_capped_and_counted() -> None:
    rows = [(f"w{i}", 0.5 - 0.01 * i, 0.49 - 0.01 * i, 0.51 - 0.01 * i, 0.01 * i, 0.01 * i - 0.001, 0.01 * i + 0.001)
            for i in range(6)]  # fmt: skip
    notes = disagreement_notes(_ranking(rows), "prt", limit=3)
    more = len(disagreements(_ranking(rows), "prt")) - 3
    assert len(notes) == 4 and notes[-1] == f"... and {more} more pairs on which they disagree."
