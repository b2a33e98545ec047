"""experiments/sense_minilm_seeds.py: its page reads each seed, the soup and the mean beside the untuned model."""

from __future__ import annotations

from experiments.sense_minilm_seeds import MEASURES, markdown


def test_the_page_gives_each_model_its_intervals_and_the_seeds_mean() -> None:
    pooled = {"rho_prt": 0.55, "rho_apd": 0.6, "rho_jsd": 0.2, "ari": 0.19, "ari_one_sense": 0.134}
    intervals = {f"{m}_difference": [0.01, 0.3] for m in MEASURES}
    results = {
        "command": "python -m experiments.sense_minilm_seeds",
        "machine": "2 cores",
        "date": "2026-12-07",
        "seeds": [0, 1],
        "gold": "change_graded",
        "untuned": {"pooled": pooled | {"rho_prt": 0.369}},
        "models": {
            "seed 0": {"training": {"steps": 732}, "pooled": pooled, "intervals": intervals},
            "soup": {"training": {"averaged": ["a", "b"]}, "pooled": pooled, "intervals": intervals},
        },
        "seed_mean": pooled | {"rho_prt": 0.545},
    }
    page = markdown(results)
    assert "| untuned MiniLM | – | 0.369 | 0.600 | 0.200 | 19.0 (13.4) |" in page
    assert "| seed 0 | 732 | 0.550 [+0.010, +0.300] |" in page
    assert "| soup | averaged | 0.550 [+0.010, +0.300] |" in page
    assert "| mean of the seeds | – | 0.545 |" in page
