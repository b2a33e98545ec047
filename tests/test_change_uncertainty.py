"""Change scores with counts and bootstrap intervals, a minimum of uses per slice, a ranking by the lower bound."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.change import compare_slices
from wsd.change.measures import apd, jsd_distance, prt
from wsd.change.stage import change_run, format_ranking
from wsd.change.uncertainty import jsd_interval, shifted_percentile, shrink_scores
from wsd.cli import main
from wsd.errors import ConfigError
from wsd.io.layout import CHANGE_DIR, CHANGE_JSON, CHANGE_RANKING, CHANGE_SCORES, CHANGE_UNMEASURED, LABELS_FILE
from wsd.io.run_store import write_run
from wsd.schema import DEFAULT_MIN_USES

MEASURES = ("jsd", "apd", "prt")

#: The fixtures hold 10 to 19 uses a slice, under the default floor (20): the tests that are not about the
#: floor lower it to this.
SMALL = 10
SMALL_FLAG = str(SMALL)


def _occurrences(spec: dict[str, tuple[list[int], list[int]]], dim: int = 8, seed: int = 0):
    """Occurrences of each target in 1800 and 1900 with the given sense counts, and noisy vectors per sense."""
    rng = np.random.default_rng(seed)
    rows, labels, vectors = [], [], []
    for t, (target, (counts_a, counts_b)) in enumerate(spec.items()):
        for year, counts in ((1800, counts_a), (1900, counts_b)):
            for sense, n in enumerate(counts):
                for _ in range(n):
                    rows.append({"id": f"{target}:{len(rows)}", "target": target, "year": year})
                    labels.append(sense)
                    centre = np.zeros(dim)
                    centre[(2 * t + sense) % dim] = 1.0
                    vectors.append(centre + rng.normal(scale=0.3, size=dim))
    return pd.DataFrame(rows), np.array(labels), np.array(vectors)


def test_intervals_contain_the_point_score_for_every_measure() -> None:
    spec = {"a": ([12, 3], [4, 11]), "b": ([20, 20], [21, 19]), "c": ([30, 0], [15, 15]), "d": ([9, 1], [10, 2])}
    occ, labels, X = _occurrences(spec)
    scores = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL).scores
    for measure in MEASURES:
        low, point, high = scores[f"{measure}_low"], scores[measure], scores[f"{measure}_high"]
        assert ((low <= point) & (point <= high)).all(), measure
        assert (high > low).any(), measure  # not a degenerate interval everywhere
    assert scores["score"].tolist() == scores["prt"].tolist()  # the default measure
    assert scores["score_low"].tolist() == scores["prt_low"].tolist()


def test_intervals_shrink_with_more_uses() -> None:
    few = ([6, 4], [3, 7])
    many = ([600, 400], [300, 700])
    occ, labels, X = _occurrences({"few": few, "many": many})
    scores = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL).scores.set_index("target")
    for measure in MEASURES:
        width = scores[f"{measure}_high"] - scores[f"{measure}_low"]
        assert width["many"] < width["few"] / 3, measure
    assert scores.loc["few", "jsd"] == pytest.approx(scores.loc["many", "jsd"])  # same proportions, same point


def test_the_same_seed_gives_the_same_intervals_and_another_seed_others() -> None:
    occ, labels, X = _occurrences({"a": ([12, 3], [4, 11]), "b": ([20, 20], [21, 19])})
    first = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, random_state=3).scores
    again = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, random_state=3).scores
    other = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, random_state=4).scores
    pd.testing.assert_frame_equal(first, again)
    assert not np.allclose(first["jsd_low"], other["jsd_low"]) or not np.allclose(first["prt_low"], other["prt_low"])
    alone = compare_slices(
        occ[occ["target"] == "a"], labels=labels[:30], X=X[:30], by="year", min_uses=SMALL, random_state=3
    )
    assert alone.scores.loc[0, "prt_low"] == first.loc[0, "prt_low"]  # a target's interval ignores the others


def test_min_uses_sends_sparse_pairs_to_unmeasured_with_the_reason() -> None:
    occ, labels, X = _occurrences({"bank": ([2, 1], [30, 20]), "power": ([20, 10], [15, 15])})
    occ["year"] = occ["year"].map({1800: 1790, 1900: 2020})
    with pytest.warns(UserWarning, match="bank \\(slice 1790 has 3 uses, fewer than --min-uses 20\\)"):
        result = compare_slices(occ, labels=labels, X=X, by="year")  # the default floor
    assert DEFAULT_MIN_USES == 20
    assert result.ranking["target"].tolist() == ["power"]
    assert result.unmeasured[["target", "reason"]].values.tolist() == [
        ["bank", "slice 1790 has 3 uses, fewer than --min-uses 20"]
    ]
    lowered = compare_slices(occ, labels=labels, X=X, by="year", min_uses=3)
    assert set(lowered.ranking["target"]) == {"bank", "power"} and lowered.unmeasured.empty
    with pytest.raises(ConfigError, match="min_uses must be a positive integer"):
        compare_slices(occ, labels=labels, by="year", min_uses=0)


def test_a_sparse_large_change_ranks_below_a_well_supported_moderate_one() -> None:
    """The issue's case: plant on 10 vs 12 uses ranked first by its point score; power, on thousands, is real."""
    counts = {"plant": ([7, 3], [3, 9]), "power": ([900, 100], [650, 350])}
    occ, labels, _ = _occurrences(counts)
    by_score = compare_slices(occ, labels=labels, by="year", min_uses=SMALL, rank_by="score")
    assert by_score.ranking["target"].tolist() == ["plant", "power"]  # the point score alone: plant first
    result = compare_slices(occ, labels=labels, by="year", min_uses=SMALL, rank_by="lower")
    ranking = result.ranking.set_index("target")
    assert result.ranking["target"].tolist() == ["power", "plant"] and result.rank_by == "lower"
    # the default (shrunk; two targets cannot be told apart beyond noise, so its tie-breaker, the lower end)
    assert compare_slices(occ, labels=labels, by="year", min_uses=SMALL).ranking["target"].tolist() == [
        "power",
        "plant",
    ]
    assert ranking.loc["plant", "score"] > ranking.loc["power", "score"]  # the point score is kept beside it
    assert ranking.loc["plant", "score"] == pytest.approx(jsd_distance([7, 3], [3, 9]))
    assert ranking.loc["plant", ["uses_a", "uses_b"]].tolist() == [10, 12]
    assert ranking.loc["power", ["uses_a", "uses_b"]].tolist() == [1000, 1000]


def test_shrinking_moves_an_uncertain_score_most_and_a_precise_one_hardly() -> None:
    scores = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.9])
    low, high = scores - 0.01, scores + 0.01
    low[-1], high[-1] = 0.0, 2.0
    shrunk = shrink_scores(scores, low, high, 0.95)
    np.testing.assert_allclose(shrunk[:5], scores[:5], atol=2e-3)
    assert shrunk[-1] < scores[4] < scores[-1]  # the score of a wide interval no longer ranks first
    assert shrunk[-1] > scores.mean()  # shrunk toward the mean, not past it
    # fewer than three scores, or intervals as wide as the scores' spread: the data cannot tell them apart
    np.testing.assert_allclose(shrink_scores(scores[:2], low[:2], high[:2], 0.95), [0.15, 0.15])
    np.testing.assert_allclose(shrink_scores(scores, scores - 5, scores + 5, 0.95), np.full(6, scores.mean()))


def test_ranking_by_the_shrunk_score_puts_a_sparse_large_change_below_well_supported_ones() -> None:
    counts = {
        "plant": ([7, 3], [3, 9]),
        "power": ([900, 100], [650, 350]),
        "state": ([800, 200], [700, 300]),
        "bank": ([500, 500], [450, 550]),
    }
    occ, labels, _ = _occurrences(counts)
    by_score = compare_slices(occ, labels=labels, by="year", min_uses=SMALL, rank_by="score")
    assert by_score.ranking["target"].tolist()[0] == "plant"
    result = compare_slices(occ, labels=labels, by="year", min_uses=SMALL, rank_by="shrunk")
    ranking = result.ranking.set_index("target")
    assert result.ranking["target"].tolist()[0] == "power" and result.rank_by == "shrunk"
    assert result.ranking["score_shrunk"].is_monotonic_decreasing
    assert ranking.loc["plant", "score_shrunk"] < ranking.loc["plant", "score"]
    assert ranking.loc["power", "score_shrunk"] == pytest.approx(ranking.loc["power", "score"], abs=0.02)
    assert "score_shrunk" in by_score.ranking.columns  # every ranking carries it, whatever orders it
    # two targets: no spread to estimate, so the shrunk order falls back to the interval's lower end
    two = compare_slices(
        *_occurrences({k: counts[k] for k in ("plant", "power")})[:2], by="year", min_uses=SMALL, rank_by="shrunk"
    )
    assert two.ranking["target"].tolist() == ["power", "plant"]


def test_jsd_interval_resamples_the_uses() -> None:
    low, high = jsd_interval([50, 50], [50, 50], resamples=500, random_state=0)
    assert low == 0.0 and 0.0 < high < 0.25  # no change observed; an interval above 0 from sampling alone
    low, high = jsd_interval([100, 0], [0, 100], random_state=0)
    assert low == high == 1.0  # disjoint distributions stay disjoint under resampling
    assert shifted_percentile(0.2, np.array([0.5, 0.5]), 0.95, "jsd") == (0.2, 0.2)


def test_big_slices_are_resampled_through_a_capped_subsample() -> None:
    occ, labels, X = _occurrences({"w": ([900, 600], [700, 800])})
    full = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, vector_cap=5000)
    capped = compare_slices(occ, labels=labels, X=X, by="year", min_uses=SMALL, vector_cap=300)
    assert not full.subsampled and capped.subsampled
    assert capped.to_dict()["bootstrap"] == {
        "resamples": 200,
        "confidence": 0.95,
        "random_state": 0,
        "vector_cap": 300,
        "subsampled": True,
    }
    for measure in ("apd", "prt"):
        f, c = full.scores.iloc[0], capped.scores.iloc[0]
        assert c[f"{measure}_low"] <= c[measure] <= c[f"{measure}_high"]
        assert c[measure] == f[measure]  # the point score uses every row
        width_full, width_capped = (
            f[f"{measure}_high"] - f[f"{measure}_low"],
            c[f"{measure}_high"] - c[f"{measure}_low"],
        )
        assert 0.5 < width_capped / width_full < 2.0, measure  # rescaled to the whole slice, not the subsample's
    rows_a, rows_b = X[(occ["year"] == 1800).to_numpy()], X[(occ["year"] == 1900).to_numpy()]
    assert capped.scores.loc[0, "apd"] == pytest.approx(apd(rows_a, rows_b))
    assert capped.scores.loc[0, "prt"] == pytest.approx(prt(rows_a, rows_b))


# ----------------------------------------------------------------------------------------- the change folder
def _run_with_senses(root: Path) -> Path:
    spec = {"plant": ([7, 3], [3, 9]), "power": ([90, 10], [55, 45]), "bank": ([2, 1], [20, 20])}
    occ, labels, X = _occurrences(spec)
    occ = occ.assign(form=occ["target"], text="a use", start=0, end=1, doc_id=occ["id"], doc_start=0)
    run = write_run(root / "run", occ, X, {"config": {"made": "by hand"}})
    (root / "run" / "senses").mkdir()
    pd.DataFrame({"id": occ["id"], "target": occ["target"], "sense": labels}).to_parquet(
        root / "run" / "senses" / LABELS_FILE
    )
    return run


def test_columns_in_csv_and_parquet_and_the_reason_in_unmeasured(tmp_path: Path) -> None:
    run = _run_with_senses(tmp_path)
    with pytest.warns(UserWarning, match="fewer than --min-uses 10"):
        out = change_run(run, by="year", min_uses=SMALL, measure="jsd")
    expected = ["rank", "target", "score", "score_low", "score_high", "slice_a", "slice_b", "uses_a", "uses_b"]
    for suffix in ("parquet", "csv"):
        read = pd.read_parquet if suffix == "parquet" else pd.read_csv
        ranking = read(out / f"{CHANGE_RANKING}.{suffix}")
        assert list(ranking.columns[:9]) == expected and {"jsd", "apd", "prt"} <= set(ranking.columns)
        assert ranking["target"].tolist() == ["power", "plant"]
        scores = read(out / f"{CHANGE_SCORES}.{suffix}")
        for measure in MEASURES:
            assert {measure, f"{measure}_low", f"{measure}_high"} <= set(scores.columns)
        assert {"score", "score_low", "score_high", "uses_a", "uses_b"} <= set(scores.columns)
    unmeasured = pd.read_csv(out / CHANGE_UNMEASURED)
    assert unmeasured["reason"].tolist() == ["slice 1800 has 3 uses, fewer than --min-uses 10"]
    document = json.loads((out / CHANGE_JSON).read_text(encoding="utf-8"))
    assert document["min_uses"] == SMALL and document["rank_by"] == "shrunk"
    assert document["config"]["min_uses"] == SMALL and document["bootstrap"]["resamples"] == 200


def test_wsd_change_prints_the_ranking_with_intervals_and_counts(tmp_path: Path, capsys) -> None:
    run = _run_with_senses(tmp_path)
    assert main(["change", "--run", str(run), "--by", "year", "--min-uses", SMALL_FLAG, "--measure", "jsd"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == (
        "ranked by the score shrunk toward the mean by its uncertainty (shrunk; ties: the lower end of the 95% "
        "interval) of jsd, 1800 vs 1900 (1 unmeasured: unmeasured.csv)"
    )
    # two targets: the shrunk column is the fallback, starred and explained; PRT beside JSD
    header = ["rank", "target", "jsd", "95%", "interval", "shrunk*", "prt", "uses", "1800", "uses", "1900"]
    assert lines[1].split() == header
    ranking = pd.read_parquet(run / CHANGE_DIR / f"{CHANGE_RANKING}.parquet")
    assert lines[-1].startswith("2 targets ranked by jsd")
    assert lines[4].startswith("jsd: how much the shares of the senses changed")
    assert lines[5].startswith("prt: how far the average use moved") and lines[5].endswith("0 = not at all")
    assert lines[8].startswith("* shrunk (fallback): with 2 ranked targets")
    for line, row in zip(lines[2:4], ranking.itertuples(), strict=True):
        interval = f"[{row.score_low:.3f}, {row.score_high:.3f}]"
        assert line.split()[:3] == [str(row.rank), row.target, f"{row.score:.3f}"] and interval in line
        assert line.split()[-3:] == [f"{row.prt:.3f}", str(row.uses_a), str(row.uses_b)]
    assert [line.split()[1] for line in lines[2:4]] == ["power", "plant"]
    assert format_ranking(run / CHANGE_DIR) in out
    capsys.readouterr()
    code = main(["change", "--run", str(run), "--by", "year", "--min-uses", "3", "--rank-by", "score", "--overwrite"])
    assert code == 0
    printed = capsys.readouterr().out
    assert printed.startswith("ranked by the point score of prt, 1800 vs 1900\n") and "bank" in printed
    with pytest.raises(SystemExit) as exited:
        main(["change", "--run", str(run), "--by", "year", "--min-uses", "0"])
    assert exited.value.code == 2 and "--min-uses: expected a number ≥ 1, got 0" in capsys.readouterr().err
