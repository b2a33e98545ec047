"""experiments/lscd_rank_by.py: cached vectors only unless --embed, and the results page."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from experiments.lscd_rank_by import cached_vectors, default_encoder, markdown, permutation_tests, rho_pair
from wsd.change import compare_slices
from wsd.embed.cache import occurrences_digest


def test_no_cached_entry_means_no_vectors(tmp_path: Path) -> None:
    occurrences = pd.DataFrame({"id": ["a"], "target": ["w"], "text": ["w"], "start": [0], "end": [1]})
    assert cached_vectors(occurrences, tmp_path, default_encoder("dwug_en")) is None


def test_only_the_default_encoders_entry_is_read(tmp_path: Path) -> None:
    """A tuned model's entry (an absolute path) or another encoder's for the same uses is passed over."""
    occurrences = pd.DataFrame(
        {"id": ["a", "b"], "target": ["w", "w"], "text": ["w", "w"], "start": [0, 0], "end": [1, 1]}
    )
    digest = occurrences_digest(occurrences)
    entries = {  # sorted by file name: the wrong encoders come first
        "0-tuned": ("/work/main/out/experiments-tune/dwug-sotu-distill", 1.0),
        "1-mpnet": ("/work/models/all-mpnet-base-v2", 2.0),
        "2-bundled": ("all-MiniLM-L6-v2", 3.0),
    }
    for stem, (model, value) in entries.items():
        (tmp_path / f"{stem}.json").write_text(json.dumps({"occurrences": digest, "rows": 2, "model": model}))
        np.save(tmp_path / f"{stem}.npy", np.full((2, 3), value, dtype=np.float32))
    vectors, meta = cached_vectors(occurrences, tmp_path, default_encoder("dwug_en"))
    assert meta["model"] == "all-MiniLM-L6-v2" and float(vectors[0, 0]) == 3.0
    assert cached_vectors(occurrences, tmp_path, default_encoder("rusemshift1")) is None  # no multilingual entry
    vectors, meta = cached_vectors(occurrences, tmp_path, default_encoder("dwug_en", "/elsewhere/all-mpnet-base-v2"))
    assert float(vectors[0, 0]) == 2.0


def test_permutation_tests_tell_a_shift_from_noise() -> None:
    """A word whose uses move between the periods gets a small p and a large z; a word that stays does not."""
    rng = np.random.default_rng(1)
    rows, vectors = [], []
    for word, shift in (("moved", 3.0), ("stayed", 0.0)):
        for period in (1, 2):
            for _ in range(20):
                rows.append({"target": word, "grouping": period})
                vectors.append(rng.normal(size=4) + np.array([5.0, shift * (period - 1), 0.0, 0.0]))
    table = permutation_tests(pd.DataFrame(rows), np.array(vectors), "grouping", "prt", seed=0, permutations=99)
    assert table.loc["moved", "p"] == 0.01 and table.loc["moved", "z"] > 3.0
    assert table.loc["stayed", "p"] > 0.05 and table.loc["stayed", "z"] < 2.0
    again = permutation_tests(pd.DataFrame(rows), np.array(vectors), "grouping", "prt", seed=0, permutations=99)
    pd.testing.assert_frame_equal(table, again)  # seeded


def test_rho_of_the_point_score_and_the_lower_end_and_the_page() -> None:
    rng = np.random.default_rng(0)
    rows, vectors = [], []
    for t, shift in enumerate((0.0, 0.5, 1.0, 2.0)):
        for period in (1, 2):
            for _ in range(15):
                rows.append({"target": f"w{t}", "grouping": period})
                vectors.append(rng.normal(size=4) + np.array([shift * (period - 1), 1.0, 0.0, 0.0]))
    comparison = compare_slices(pd.DataFrame(rows), X=np.array(vectors), by="grouping", min_uses=1)
    gold = pd.Series([0.0, 0.3, 0.6, 0.9], index=["w0", "w1", "w2", "w3"])
    tests = permutation_tests(pd.DataFrame(rows), np.array(vectors), "grouping", "prt", seed=0, permutations=49)
    figures = rho_pair(comparison, gold, tests)
    assert figures["words"] == 4 and -1.0 <= figures["score_low"] <= 1.0 and figures["score"] > 0.5
    measured = {m: figures for m in ("apd", "prt", "jsd")} | {"encoder": {"model": "/models/multilingual-e5-small"}}
    page = markdown({"dwug_en": None, "rusemshift1": measured}, "python -m experiments.lscd_rank_by")
    assert "| dwug_en | – | – | – | not run (no cached vectors; `--embed`) | – | – | – | – |" in page
    assert (
        f"| rusemshift1 | multilingual-e5-small | 4 | prt | {figures['score']:.3f} | {figures['score_low']:.3f} |"
        in page
    )
    low, high = figures["score_shrunk_difference"]
    assert low <= figures["score_shrunk"] - figures["score"] <= high  # the paired interval holds the difference
    assert f"{figures['score_shrunk'] - figures['score']:+.3f} [{low:+.2f}, {high:+.2f}] |" in page
    z_low, z_high = figures["permutation_z_difference"]
    assert z_low <= figures["permutation_z"] - figures["score"] <= z_high
    assert (
        f"| rusemshift1 | prt | {figures['score']:.3f} | {figures['permutation_p']:.3f} | "
        f"{figures['permutation_p'] - figures['score']:+.3f} [" in page
    )
    assert "- the z-score against the shuffled scores: worst difference" in page
