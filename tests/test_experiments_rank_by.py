"""experiments/lscd_rank_by.py: cached vectors only unless --embed, and the results page."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.lscd_rank_by import cached_vectors, markdown, rho_pair
from wsd.change import compare_slices


def test_no_cached_entry_means_no_vectors(tmp_path: Path) -> None:
    occurrences = pd.DataFrame({"id": ["a"], "target": ["w"], "text": ["w"], "start": [0], "end": [1]})
    assert cached_vectors(occurrences, tmp_path) is None


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
    figures = rho_pair(comparison, gold)
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
