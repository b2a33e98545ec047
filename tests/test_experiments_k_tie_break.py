"""experiments/k_tie_break: the tie-break rule, the comparison and the page (no dataset needed)."""

from __future__ import annotations

import numpy as np

from experiments.k_tie_break import MARGINS, chosen_k, compare, markdown


def _blobs(k: int, per: int = 15, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = np.eye(k, 24) * 10
    return np.vstack([c + rng.normal(scale=0.3, size=(per, 24)) for c in centres])


def test_clear_clusters_give_their_k_under_every_margin():
    X = _blobs(3)
    result = chosen_k(X, np.array(["w"] * len(X)))
    assert set(result["k"].values()) == {3}
    assert max(result["silhouette"], key=result["silhouette"].get) == 3
    # a tie-break only runs where candidates are tied: far-apart candidates are never re-clustered
    assert all(k in result["silhouette"] for k in result["agreement"])


def test_compare_counts_the_words_whose_k_differs_and_the_page_shows_them():
    ks = {f"{m:g}": 2 for m in MARGINS}
    a = {"bank": {"k": ks}, "mouse": {"k": ks | {"0.01": 3}}}
    b = {"bank": {"k": ks}, "mouse": {"k": ks}}
    cell = compare(a, b)
    assert [len(cell["margins"][f"{m:g}"]["differ"]) for m in MARGINS] == [0, 0, 1, 0]
    assert cell["margins"]["0.01"]["mean_k"] == 2.5 and cell["margins"]["0"]["share_k2"] == 1.0
    results = {"command": "c", "machine": "m", "date": "d", "configs": ["x", "y"], "work": "w", "sets": {"s": cell}}
    page = markdown(results)
    assert "| s | 2 | 0 | 0 | 1 | 0 |" in page and "- s, margin 0.01: mouse (3 vs 2)" in page
    assert "| s | 2.00 (100%) | 2.00 (100%) | 2.50 (50%) | 2.00 (100%) |" in page
