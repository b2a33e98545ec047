"""experiments/worked_examples.py and experiments/one_sense.py: the tables the docs include, from run outputs."""

from __future__ import annotations

from pathlib import Path

from experiments.one_sense import senses_per_word, threshold_name
from experiments.worked_examples import counts_table, energy_sense, ranking_table, trend_table, unmeasured_table


def test_the_ranking_table_shows_interval_shrunk_score_and_counts() -> None:
    row = {"rank": 1, "target": "power", "score": 0.04412, "score_low": 0.0331, "score_high": 0.0579,
           "score_shrunk": 0.0441, "jsd": 0.401, "apd": 0.288, "binary": True, "slice_a": "1700:1799",
           "slice_b": "2000:2099", "uses_a": 22, "uses_b": 1062}  # fmt: skip
    lines = ranking_table([row])
    assert lines[0].endswith("| uses 1700:1799 | uses 2000:2099 |")
    assert lines[2] == "| 1 | power | 0.044 | 0.033–0.058 | 0.044 | 0.401 | 0.288 | yes | 22 | 1,062 |"
    assert ranking_table([]) == ["(no target ranked)"]


def test_counts_give_each_slice_its_share_of_one_sense() -> None:
    rows = [
        {"target": "power", "slice": "1800:1899", "sense": 0, "count": 1049, "uses": 1062},
        {"target": "power", "slice": "1800:1899", "sense": 1, "count": 13, "uses": 1062},
        {"target": "power", "slice": "1700:1799", "sense": 0, "count": 22, "uses": 22},
        {"target": "bank", "slice": "1700:1799", "sense": 1, "count": 3, "uses": 3},
    ]
    assert counts_table(rows, "power", 1)[2:] == ["| 1700:1799 | 22 | 0 | 0.0% |", "| 1800:1899 | 1,062 | 13 | 1.2% |"]


def test_the_energy_sense_is_found_by_its_keywords_else_the_smaller_one() -> None:
    senses = [{"sense": 0, "size": 1903, "keywords": ["executive"]}, {"sense": 1, "size": 221, "keywords": ["water"]}]
    assert energy_sense(senses) == 1
    senses[0]["keywords"] = ["nuclear"]
    assert energy_sense(senses) == 0


def test_trends_and_unmeasured_rows_are_filtered() -> None:
    trend = {"target": "power", "sense": 1, "slices": 24, "proportion_first": 0.0, "proportion_last": 0.185,
             "tau": 0.55, "p_value": 0.00027, "slope": 0.014, "slope_low": 0.012, "slope_high": 0.016,
             "trend": "rising"}  # fmt: skip
    lines = trend_table([trend, {**trend, "target": "bank"}], ("power",))
    assert len(lines) == 3 and "| 0.55 | 0.00027 | +0.014 | +0.012 to +0.016 | rising |" in lines[2]
    rows = [{"target": "bank", "slice_a": "a", "slice_b": "b", "pair": "first-last", "reason": "few"},
            {"target": "plant", "slice_a": "a", "slice_b": "b", "pair": "consecutive", "reason": "few"}]  # fmt: skip
    assert unmeasured_table(rows) == ["| target | slices | reason |", "|---|---|---|", "| bank | a vs b | few |"]
    assert unmeasured_table([]) == ["(none)"]


def test_the_small_words_table_says_why_one_sense_or_why_split() -> None:
    from experiments.worked_examples import small_words_table

    figures = {"targets": {
        "virus": {"uses": 5, "senses": 1, "one_sense": "5 uses, fewer than the 8", "split": "", "capitalised": 0},
        "cell": {"uses": 12, "senses": 3, "one_sense": "", "split": "3 senses from 12 uses: ...", "capitalised": 0},
        "state": {"uses": 2464, "senses": 2, "one_sense": "", "capitalised": 1585},  # a run before few_uses_split
    }}  # fmt: skip
    lines = small_words_table(figures)
    assert lines[2] == "| virus | 5 | 1 | 5 uses, fewer than the 8 | 0 (0%) |"
    assert lines[3] == "| cell | 12 | 3 | 3 senses from 12 uses: ... | 0 (0%) |"
    assert lines[4] == "| state | 2,464 | 2 | – | 1,585 (64%) |"


def test_senses_per_word_reads_graded_keys(tmp_path: Path) -> None:
    key = tmp_path / "system.key"
    key.write_text("add.v add.v.1 s1/0.7 s2/0.3\nadd.v add.v.2 s1\nask.v ask.v.1 s4\n", encoding="utf-8")
    assert senses_per_word(key) == {"add.v": 2, "ask.v": 1}
    assert (threshold_name(None), threshold_name(0.03)) == ("default", "below0.03")


def test_prt_at_the_slices_own_size_is_prt_and_the_unbiased_norm_has_no_noise() -> None:
    import numpy as np

    from experiments.prt_bias import prt, prt_at, prt_unbiased, unbiased_sq_norm

    rng = np.random.default_rng(0)
    a, b = rng.normal(1.0, 1.0, size=(12, 5)), rng.normal(0.5, 1.0, size=(12, 5))
    # |mean|² = U + (mean |x|² - U) / n exactly, so at n_ref = n the common-size PRT is PRT itself
    assert abs(prt_at(12)(a, b) - prt(a, b)) < 1e-12
    # the raw squared norm of a mean of few draws is inflated by tr Σ / n; the unbiased one is not
    draws = [rng.normal(1.0, 1.0, size=(5, 5)) for _ in range(4000)]
    raw = np.mean([float(x.mean(axis=0) @ x.mean(axis=0)) for x in draws])
    unbiased = np.mean([unbiased_sq_norm(x) for x in draws])
    assert abs(raw - 6.0) < 0.15 and abs(unbiased - 5.0) < 0.15  # |μ|² = 5, tr Σ / n = 1
    # so on few uses PRT is larger, on average, than the unbiased PRT of the same slices
    pairs = [(rng.normal(1.0, 1.0, size=(4, 5)), rng.normal(1.0, 1.0, size=(4, 5))) for _ in range(500)]
    assert np.mean([prt(x, y) for x, y in pairs]) > np.mean([prt_unbiased(x, y) for x, y in pairs]) + 0.05
