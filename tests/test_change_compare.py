"""The slice comparison API (wsd.change.slices, wsd.change.compare) on small hand-made cases with known answers."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import jensenshannon

from wsd.change import assign_slices, compare_slices, parse_bins
from wsd.errors import ConfigError, InputError
from wsd.schema import DEFAULT_MEASURE


def _table(targets: list[str], slices: list[object], column: str = "year") -> pd.DataFrame:
    return pd.DataFrame({"target": targets, column: slices})


def _no_nan(*frames: pd.DataFrame) -> None:
    for frame in frames:
        assert not frame.isna().any().any(), frame


def test_jsd_of_two_known_distributions_and_proportions() -> None:
    # slice 1: senses 0,0,0,1 (3:1); slice 2: senses 0,1,1,1 (1:3)
    occ = _table(["w"] * 8, [1, 1, 1, 1, 2, 2, 2, 2])
    labels = np.array([0, 0, 0, 1, 0, 1, 1, 1])
    result = compare_slices(occ, labels=labels, by="year", min_uses=1)
    assert result.slices == ["1", "2"]
    row = result.scores.iloc[0]
    assert row["pair"] == "first-last" and row["uses_a"] == 4 and row["uses_b"] == 4
    assert row["jsd"] == pytest.approx(jensenshannon([0.75, 0.25], [0.25, 0.75], base=2), abs=1e-12)
    counts = result.counts.set_index(["slice", "sense"])
    assert counts.loc[("1", 0), "proportion"] == pytest.approx(0.75)
    assert counts.loc[("2", 1), "count"] == 3
    assert "apd" not in result.scores  # no vectors given
    assert result.measures == ["jsd"]


def test_senses_that_swap_between_slices_give_jsd_1_and_appear_and_vanish() -> None:
    occ = _table(["w"] * 12, [1800] * 6 + [1900] * 6)
    labels = np.array([0] * 6 + [1] * 6)
    result = compare_slices(occ, labels=labels, by="year", min_uses=1, measure="jsd")
    row = result.scores.iloc[0]
    assert row["jsd"] == 1.0
    assert bool(row["binary"]) and row["gained"] == [1] and row["lost"] == [0]
    changes = result.senses.set_index("sense")
    assert changes.loc[1, "change"] == "appeared" and changes.loc[0, "change"] == "vanished"
    assert changes.loc[1, "count_a"] == 0 and changes.loc[1, "count_b"] == 6


def test_binary_rule_k_and_n_are_configurable() -> None:
    occ = _table(["w"] * 8, [1] * 4 + [2] * 4)
    labels = np.array([0, 0, 0, 0, 0, 1, 1, 1])  # sense 0: 4 then 1 use; sense 1: 0 then 3
    assert not bool(
        compare_slices(occ, labels=labels, by="year", min_uses=1).scores.loc[0, "binary"]
    )  # n=5: not enough
    nordiachange = compare_slices(occ, labels=labels, by="year", min_uses=1, binary_k=1, binary_n=3)
    assert bool(nordiachange.scores.loc[0, "binary"])
    assert nordiachange.scores.loc[0, "gained"] == [1] and nordiachange.scores.loc[0, "lost"] == [0]
    with pytest.raises(InputError, match="0 <= k < n"):
        compare_slices(occ, labels=labels, by="year", min_uses=1, binary_k=3, binary_n=3)


def test_apd_and_prt_from_vectors() -> None:
    occ = _table(["w"] * 4, ["a", "a", "b", "b"], "source")
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    result = compare_slices(occ, X=X, by="source", min_uses=1)
    row = result.scores.iloc[0]
    assert row["apd"] == pytest.approx(1.0) and row["prt"] == pytest.approx(1.0)
    assert "jsd" not in result.scores and "binary" not in result.scores
    assert result.ranking.loc[0, "score"] == pytest.approx(1.0)
    with pytest.raises(ConfigError, match="needs sense labels"):
        compare_slices(occ, X=X, by="source", min_uses=1, measure="jsd")


def test_consecutive_slices_and_first_vs_last() -> None:
    occ = _table(["w"] * 6, [3, 3, 1, 1, 2, 2])
    labels = np.array([1, 1, 0, 0, 0, 1])
    result = compare_slices(occ, labels=labels, by="year", min_uses=1, measure="jsd")
    pairs = [(r.slice_a, r.slice_b, r.pair) for r in result.scores.itertuples()]
    assert pairs == [("1", "2", "consecutive"), ("2", "3", "consecutive"), ("1", "3", "first-last")]
    jsd = {(r.slice_a, r.slice_b): r.jsd for r in result.scores.itertuples()}
    assert jsd[("1", "3")] == 1.0
    assert jsd[("1", "2")] == pytest.approx(jensenshannon([1, 0], [0.5, 0.5], base=2))
    assert result.main_pair == ("1", "3") and result.ranking.loc[0, "slice_b"] == "3"
    chosen = compare_slices(occ, labels=labels, by="year", min_uses=1, between=("1", "2"), measure="jsd")
    assert chosen.scores["pair"].tolist() == ["chosen"] and chosen.main_pair == ("1", "2")


def test_numeric_slices_sort_as_numbers_others_as_periods() -> None:
    assert assign_slices(_table(["w"] * 3, ["10", "9", "100"]), "year").order == ["9", "10", "100"]
    periods = _table(["w"] * 2, ["1918-1990", "1700-1916"], "grouping")
    assert assign_slices(periods, "grouping").order == ["1700-1916", "1918-1990"]
    floats = _table(["w"] * 2, [1990.0, 1850.0])
    assert assign_slices(floats, "year").order == ["1850", "1990"]


def test_bins_are_inclusive_on_both_ends() -> None:
    occ = _table(["w"] * 5, [1800, 1850, 1851, 1950, 2000])
    with pytest.warns(UserWarning, match="1 of 5 occurrences have a 'year' value outside every bin"):
        slices = assign_slices(occ, "year", "1950:2000,1800:1850")
    assert slices.order == ["1800:1850", "1950:2000"]
    assert slices.labels.tolist() == ["1800:1850", "1800:1850", None, "1950:2000", "1950:2000"]


def test_ranking_orders_targets_by_the_default_measure() -> None:
    assert DEFAULT_MEASURE in ("jsd", "apd", "prt")
    occ = _table(["calm"] * 4 + ["wild"] * 4, [1, 1, 2, 2] * 2)
    X = np.array([[1, 0], [1, 0], [1, 0.1], [1, 0.1], [1, 0], [1, 0], [0, 1], [0, 1]], dtype=float)
    labels = np.array([0, 0, 0, 0, 0, 0, 1, 1])
    result = compare_slices(occ, labels=labels, X=X, by="year", min_uses=1)
    assert result.measure == DEFAULT_MEASURE
    assert result.ranking["target"].tolist() == ["wild", "calm"]
    assert result.ranking["rank"].tolist() == [1, 2]
    assert result.ranking["score"].tolist() == result.ranking[DEFAULT_MEASURE].tolist()
    _no_nan(result.ranking, result.scores, result.counts)
    json.dumps(result.to_dict())  # JSON-ready


def test_a_target_in_one_slice_only_is_noted_not_nan() -> None:
    occ = _table(["both"] * 4 + ["early"] * 2, [1, 1, 2, 2, 1, 1])
    labels = np.array([0, 0, 1, 1, 0, 0])
    with pytest.warns(UserWarning, match=r"early \(only in slice 1\)"):
        result = compare_slices(occ, labels=labels, X=np.eye(6)[:, :3] + 0.1, by="year", min_uses=1)
    assert result.ranking["target"].tolist() == ["both"]
    assert result.unmeasured[["target", "reason"]].values.tolist() == [["early", "only in slice 1"]]
    _no_nan(result.ranking, result.scores, result.counts, result.unmeasured)


def test_a_target_missing_from_one_of_the_compared_slices_is_noted() -> None:
    occ = _table(["w"] * 4, [1, 1, 3, 3])
    occ = pd.concat([occ, _table(["v"] * 2, [2, 2])], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare_slices(occ, labels=np.zeros(6, dtype=int), by="year", min_uses=1)
    reasons = {(r.target, r.slice_a, r.slice_b): r.reason for r in result.unmeasured.itertuples()}
    assert reasons[("w", "1", "2")] == "no uses in slice 2"
    assert reasons[("v", "1", "3")] == "only in slice 2"
    assert result.ranking["target"].tolist() == ["w"]


def test_missing_slice_column_lists_the_columns() -> None:
    with pytest.raises(InputError, match=r"no column 'year' .*its columns: target, source"):
        compare_slices(_table(["w"], ["a"], "source"), labels=np.zeros(1, dtype=int), by="year", min_uses=1)


def test_non_numeric_values_with_bins() -> None:
    with pytest.raises(InputError, match="'news' is not a number"):
        assign_slices(_table(["w"] * 2, ["1990", "news"]), "year", "1900:2000")


def test_overlapping_and_malformed_bins() -> None:
    with pytest.raises(InputError, match="1800:1850 and 1850:1900 overlap"):
        parse_bins("1800:1850,1850:1900")
    assert [b.label for b in parse_bins("1800:1849,1850:1900")] == ["1800:1849", "1850:1900"]
    for bad, message in (("1800", "LOW:HIGH"), ("a:b", "not a number"), ("1900:1800", "above"), (",", "no bin")):
        with pytest.raises(InputError, match=message):
            parse_bins(bad)


def test_a_bin_with_no_occurrences() -> None:
    # issue 25: a bin without uses is a warning naming it (it is no slice); no bin with uses is an error
    with pytest.warns(UserWarning, match="--bins 1900:1950: no occurrence"):
        slices = assign_slices(_table(["w"] * 2, [1800, 2000]), "year", "1800:1850,1900:1950,1990:2000")
    assert slices.order == ["1800:1850", "1990:2000"]
    with pytest.raises(InputError, match="no occurrence has a 'year' value in any bin"):
        assign_slices(_table(["w"] * 2, [1800, 2000]), "year", "1900:1950,1960:1970")


def test_one_slice_or_no_values() -> None:
    with pytest.raises(InputError, match="only one slice"):
        assign_slices(_table(["w"] * 2, [1800, 1800]), "year")
    with pytest.raises(InputError, match="no occurrence has a value"):
        assign_slices(_table(["w"] * 2, [None, ""]), "year")
    with pytest.warns(UserWarning, match="1 of 3 occurrences have no 'year' value"):
        assert assign_slices(_table(["w"] * 3, [1, 2, math.nan]), "year").order == ["1", "2"]


def test_bad_between_labels_and_inputs() -> None:
    occ = _table(["w"] * 4, [1, 1, 2, 2])
    labels = np.array([0, 0, 1, 1])
    with pytest.raises(InputError, match="no slice '3'; the slices are 1, 2"):
        compare_slices(occ, labels=labels, by="year", min_uses=1, between=("1", "3"))
    with pytest.raises(ConfigError, match="same slice twice"):
        compare_slices(occ, labels=labels, by="year", min_uses=1, between="1,1")
    with pytest.raises(InputError, match="row-aligned"):
        compare_slices(occ, labels=labels[:3], by="year", min_uses=1)
    with pytest.raises(ConfigError, match="needs sense labels, vectors, or both"):
        compare_slices(occ, by="year", min_uses=1)
    with pytest.raises(ConfigError, match="unknown change measure 'cos'"):
        compare_slices(occ, labels=labels, by="year", min_uses=1, measure="cos")
