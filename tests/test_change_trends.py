"""Change over every slice: trends per sense, the pair of largest change, counted shifts, the timeline."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import SMALL, make_run_with_change

from wsd.change import compare_slices
from wsd.change.measures import sense_shifts
from wsd.change.stage import change_run
from wsd.change.trends import TREND_COLUMNS, sense_trends
from wsd.io.layout import CHANGE_JSON, CHANGE_LARGEST, CHANGE_SENSES, CHANGE_TIMELINE, CHANGE_TRENDS, LABELS_FILE
from wsd.io.run_store import write_run

YEARS = [2000, 2001, 2002, 2003, 2004, 2005]
SLICES = [str(year) for year in YEARS]


def _occurrences(spec: dict[str, list[list[int]]], years: list[int] = YEARS, dim: int = 6, seed: int = 0):
    """Each target's sense counts per slice (one list per year), with a noisy vector per sense."""
    rng = np.random.default_rng(seed)
    rows, labels, vectors = [], [], []
    for t, (target, per_year) in enumerate(spec.items()):
        for year, counts in zip(years, per_year, strict=True):
            for sense, n in enumerate(counts):
                for _ in range(n):
                    rows.append({"id": f"{target}:{len(rows)}", "target": target, "year": year})
                    labels.append(sense)
                    centre = np.zeros(dim)
                    centre[(2 * t + sense) % dim] = 1.0
                    vectors.append(centre + rng.normal(scale=0.3, size=dim))
    return pd.DataFrame(rows), np.array(labels), np.array(vectors)


GROW = [[100 - 10 * i, 10 * i] for i in range(1, 7)]  # sense 1: 10% -> 60% of 100 uses, steadily
FLAT = [[70, 30], [67, 33], [72, 28], [69, 31], [71, 29], [68, 32]]  # sense 1 near 30%, no order


def test_a_steadily_growing_sense_has_a_significant_trend_and_a_flat_one_none() -> None:
    occ, labels, X = _occurrences({"grow": GROW, "flat": FLAT})
    trends = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL).trends
    assert list(trends.columns) == TREND_COLUMNS
    grow = trends[(trends["target"] == "grow") & (trends["sense"] == 1)].iloc[0]
    assert grow["tau"] == pytest.approx(1.0) and grow["p_value"] < 0.01  # exact: 2/720
    assert grow["slope"] == pytest.approx(0.1) and 0 < grow["slope_low"] < 0.1 < grow["slope_high"]
    assert grow["trend"] == "rising" and grow["slices"] == 6
    assert (grow["first_slice"], grow["last_slice"]) == ("2000", "2005")
    assert grow["proportion_first"] == pytest.approx(0.1) and grow["proportion_last"] == pytest.approx(0.6)
    assert trends.set_index(["target", "sense"]).loc[("grow", 0), "trend"] == "falling"
    flat = trends[trends["target"] == "flat"]
    assert (flat["p_value"] > 0.05).all() and set(flat["trend"]) == {"no trend"}
    for row in flat.itertuples():
        assert row.slope_low < 0 < row.slope_high  # the interval holds 0
    assert not trends.isna().any().any()


def test_trends_leave_out_sparse_slices_and_need_three() -> None:
    counts = pd.DataFrame(
        {
            "target": "w",
            "slice": [s for s in SLICES for _ in (0, 1)],
            "sense": [0, 1] * 6,
            "count": [9, 1, 80, 20, 60, 40, 1, 2, 40, 60, 20, 80],
        }
    )
    table = sense_trends(counts, SLICES, min_uses=10, random_state=0)
    assert table["slices"].tolist() == [5, 5]  # 2000 (10 uses) stays, 2003 (3 uses) is left out
    assert table["first_slice"].tolist() == ["2000", "2000"]
    assert sense_trends(counts, SLICES, min_uses=101).empty  # no slice has 101 uses
    constant = counts.assign(count=[50, 50] * 6)
    still = sense_trends(constant, SLICES, min_uses=10)
    assert still["tau"].tolist() == [0.0, 0.0] and still["p_value"].tolist() == [1.0, 1.0]


def test_the_pair_of_largest_change_is_the_best_by_the_rankings_order() -> None:
    peak = [[90, 10], [85, 15], [20, 80], [80, 20], [88, 12], [86, 14]]  # sense 1 peaks in 2002
    occ, labels, X = _occurrences({"grow": GROW, "peak": peak})
    result = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, measure="jsd")
    largest = result.largest.set_index("target")
    assert largest.loc["grow", ["slice_a", "slice_b"]].tolist() == ["2000", "2005"]
    assert largest.loc["peak", "slice_a"] == "2002" or largest.loc["peak", "slice_b"] == "2002"
    assert (largest["pairs"] == 15).all() and (largest["bootstrapped"] < 15).all()  # the search is pruned
    for target in ("grow", "peak"):  # every pair measured on its own: the largest's lower end is the highest
        rows = (occ["target"] == target).to_numpy()
        lows = {}
        for a, b in itertools.combinations(SLICES, 2):
            one = compare_slices(
                occ[rows], labels=labels[rows], by="year", min_uses=SMALL, measure="jsd", between=(a, b)
            )
            lows[(a, b)] = (float(one.scores.loc[0, "score_low"]), float(one.scores.loc[0, "score"]))
        best = max(lows, key=lows.__getitem__)
        assert tuple(largest.loc[target, ["slice_a", "slice_b"]]) == best
        assert largest.loc[target, "score_low"] == pytest.approx(lows[best][0])
    by_score = compare_slices(occ, labels=labels, by="year", min_uses=SMALL, measure="jsd", rank_by="score").largest
    assert by_score.set_index("target").loc["grow", ["slice_a", "slice_b"]].tolist() == ["2000", "2005"]


def test_a_sense_seen_once_in_a_slice_of_14_has_not_vanished() -> None:
    assert sense_shifts([1, 13], [0, 14]) == []
    found = sense_shifts([40, 60], [0, 100])
    assert [(s.position, s.change) for s in found] == [(0, "vanished")] and found[0].p_value < 1e-10
    assert [s.change for s in sense_shifts([0, 100], [40, 60])] == ["appeared"]
    spec = {
        "river": [[1, 13], [0, 14]],  # once in 14, then never: not vanished
        "drop": [[40, 60], [0, 100]],  # 40 of 100, then none of 100: vanished
        "few": [[5, 55], [0, 12]],  # the WUG rule (>= 5, then <= 1) calls it lost; 12 uses are no evidence
    }
    occ, labels, _ = _occurrences(spec, years=[1900, 2000])
    result = compare_slices(occ, labels=labels, by="year", min_uses=SMALL)
    assert result.senses[["target", "sense", "change"]].values.tolist() == [["drop", 0, "vanished"]]
    row = result.senses.iloc[0]
    assert (row["count_a"], row["count_b"], row["uses_a"], row["uses_b"]) == (40, 0, 100, 100)
    binary = result.scores.set_index("target")["binary"]
    assert binary["few"] and binary["drop"] and not binary["river"]  # the binary column keeps the WUG rule


def test_the_timeline_has_every_consecutive_pair() -> None:
    occ, labels, X = _occurrences({"grow": GROW, "flat": FLAT})
    result = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL)
    timeline = result.timeline
    assert len(timeline) == 2 * (len(SLICES) - 1)
    grow = timeline[timeline["target"] == "grow"]
    assert grow["step"].tolist() == [1, 2, 3, 4, 5]
    assert list(zip(grow["slice_a"], grow["slice_b"], strict=True)) == list(itertools.pairwise(SLICES))
    assert (grow["uses_a"] == 100).all() and (grow["uses_b"] == 100).all()
    assert ((grow["score_low"] <= grow["score"]) & (grow["score"] <= grow["score_high"])).all()
    consecutive = result.scores[result.scores["pair"] == "consecutive"].reset_index(drop=True)
    pd.testing.assert_series_equal(timeline["score_low"], consecutive["score_low"])  # the same bootstrap
    chosen = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, between=("2000", "2003"))
    assert len(chosen.timeline) == 10 and chosen.scores["pair"].tolist() == ["chosen", "chosen"]
    sparse = [*GROW[:2], [2, 1], *GROW[3:]]  # 2002 has 3 uses: its two steps are unmeasured, with the reason
    occ, labels, _ = _occurrences({"grow": sparse})
    result = compare_slices(occ, labels=labels, by="year", min_uses=SMALL, between=("2000", "2005"))
    assert result.timeline["step"].tolist() == [1, 4, 5]
    assert result.unmeasured[["slice_a", "slice_b", "pair"]].values.tolist() == [
        ["2001", "2002", "consecutive"],
        ["2002", "2003", "consecutive"],
    ]
    assert result.unmeasured["reason"].str.contains("slice 2002 has 3 uses").all()


def test_the_same_seed_gives_the_same_tables() -> None:
    occ, labels, X = _occurrences({"grow": GROW, "flat": FLAT})
    first = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, random_state=5)
    again = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, random_state=5)
    other = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, random_state=6)
    for name in ("timeline", "trends", "largest", "senses"):
        pd.testing.assert_frame_equal(getattr(first, name), getattr(again, name))
    assert not np.allclose(first.trends["slope_low"], other.trends["slope_low"])


def test_the_change_folder_holds_the_new_tables_in_csv_parquet_and_json(tmp_path: Path) -> None:
    occ, labels, X = _occurrences({"grow": GROW, "drop": [[40, 60], [0, 100]] * 3})
    occ = occ.assign(form=occ["target"], text="a use", start=0, end=1, doc_id=occ["id"], doc_start=0)
    run = write_run(tmp_path / "run", occ, X, {"config": {"made": "by hand"}})
    (tmp_path / "run" / "senses").mkdir()
    pd.DataFrame({"id": occ["id"], "target": occ["target"], "sense": labels}).to_parquet(
        tmp_path / "run" / "senses" / LABELS_FILE
    )
    out = change_run(run, by="year", min_uses=SMALL)
    expected = {
        CHANGE_TIMELINE: ["step", "target", "slice_a", "slice_b", "uses_a", "uses_b", "score", "score_low"],
        CHANGE_TRENDS: TREND_COLUMNS,
        CHANGE_LARGEST: ["target", "slice_a", "slice_b", "uses_a", "uses_b", "score", "score_low", "score_high"],
        CHANGE_SENSES: ["target", "sense", "change", "slice_a", "slice_b", "count_a", "count_b", "uses_a"],
    }
    for stem, columns in expected.items():
        parquet = pd.read_parquet(out / f"{stem}.parquet")
        csv = pd.read_csv(out / f"{stem}.csv")
        assert list(parquet.columns[: len(columns)]) == columns and list(csv.columns) == list(parquet.columns)
        assert len(parquet) == len(csv) > 0, stem
    document = json.loads((out / CHANGE_JSON).read_text(encoding="utf-8"))
    assert len(document["timeline"]) == 10 and len(document["largest"]) == 2
    assert {(r["target"], r["trend"]) for r in document["trends"] if r["sense"] == 1} == {
        ("grow", "rising"),
        ("drop", "no trend"),
    }
    assert document["sense_shift_test"] == {"present_min": 5, "absent_max": 1, "alpha": 0.05}
    vanished = [(r["target"], r["slice_a"], r["slice_b"]) for r in document["senses"] if r["change"] == "vanished"]
    assert ("drop", "2000", "2001") in vanished


def test_the_report_shows_the_timeline_the_trends_and_the_largest_pair(tmp_path: Path) -> None:
    from wsd.io.layout import FIGURES_DIR, REPORT_MARKDOWN
    from wsd.report import load_run_data, write_report

    out = make_run_with_change(tmp_path / "out", n_slices=6)  # swap: sense 1 only in 1950
    data = load_run_data(out)
    assert data.change is not None and len(data.change.timeline) == 10 and len(data.change.trends) == 4
    write_report(out)
    figures = sorted(p.name for p in (out / FIGURES_DIR).glob("timeline-*.png"))
    assert figures == ["timeline-001-swap.png", "timeline-002-calm.png"]
    markdown = (out / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert "Change (jsd) of swap from each slice to the next, with its bootstrap interval." in markdown
    assert "Each target's pair of slices of largest change (ordered as the ranking)" in markdown
    assert "| swap | 1900 → 1950 | 1.000 | 1.000–1.000 | 12 | 12 | 15 |" in markdown
    assert "Which words changed over the whole period: none; no sense's share rises or falls over the" in markdown
    assert "slices (Kendall p \\< 0.05" in markdown
    assert "judged with counts: at least 5 uses where present, at most 1 where absent" in markdown
