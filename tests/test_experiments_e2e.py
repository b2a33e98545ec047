"""The end-to-end benchmark's parts: the copies' perturbation, the synthetic dated word, the growth ratios."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from experiments import bench_e2e, common
from wsd.corpus.scan import scan
from wsd.io.run_reader import load_run


def test_every_sentence_of_a_copy_differs_so_no_window_is_shared(tmp_path: Path) -> None:
    text = "The state grew. Its power?\nA plant…  The bank\n\nthe end"
    assert bench_e2e.perturb(text, 0) == text
    assert bench_e2e.perturb(text, 3) == "The state grew (3). Its power (3)?\nA plant (3)…  The bank (3)\n\nthe end (3)"
    records = [{"text": text, "year": "1900"}, {"text": "A state. Another state!", "year": "2000"}]
    corpus = bench_e2e.write_copies(records, 3, tmp_path / "c.jsonl")
    assert [json.loads(line)["year"] for line in corpus.read_text().splitlines()] == ["1900", "2000"] * 3
    occurrences = scan(corpus, "state,power,plant,bank", meta=["year"])
    assert len(occurrences) == 3 * bench_e2e.count_per_copy(records, "state,power,plant,bank") == 18
    assert occurrences["text"].nunique() == 18  # one sentence each, and no sentence in two copies


def test_the_synthetic_word_is_a_dated_run_with_sense_words(tmp_path: Path) -> None:
    run = bench_e2e.write_synthetic(tmp_path, 500)
    occurrences, X = load_run(run)
    assert X.shape == (500, 384) and X.dtype == np.float16
    assert occurrences["year"].between(1800, 1999).all() and occurrences["year"].dtype == np.int64
    assert occurrences["text"].str.startswith("the state").all()
    assert (occurrences["text"].str.slice(4, 4 + occurrences["end"].iloc[0] - 4) == occurrences["form"]).iloc[0]


def test_growth_is_per_occurrence_and_relative_to_the_smallest_size() -> None:
    rows = [
        {"data": "d", "size": 10, "stage": "scan", "occurrences": 1000, "seconds": 1.0, "peak_rss_mib": 100.0},
        {"data": "d", "size": 10, "stage": "embed", "seconds": 2.0, "peak_rss_mib": 200.0},
        {"data": "d", "size": 100, "stage": "scan", "occurrences": 10_000, "seconds": 20.0, "peak_rss_mib": 150.0},
        {"data": "d", "size": 100, "stage": "embed", "error": "boom"},
    ]
    grown = bench_e2e.with_growth(rows)
    assert [row["n"] for row in grown] == [1000, 1000, 10_000, 10_000]
    assert grown[2]["ms_per_1k"] == 2000.0 and grown[2]["time_per_use_x"] == 2.0 and grown[2]["rss_x"] == 1.5
    assert "ms_per_1k" not in grown[3]


def test_peak_rss_is_this_programs_own() -> None:
    peak = common.peak_rss_mib()
    current = pd.Series(np.zeros(4_000_000))  # 30 MiB more
    assert common.peak_rss_mib() >= peak and peak > 10 and len(current) == 4_000_000
