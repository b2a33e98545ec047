"""experiments/bench_tune_precision.py: its page gives each precision's step time and the auto choice's cost."""

from __future__ import annotations

from experiments.bench_tune_precision import markdown


def test_the_page_sets_the_auto_choice_against_the_faster_precision() -> None:
    results = {
        "command": "python -m experiments.bench_tune_precision",
        "machine": "2 cores",
        "date": "2026-12-07",
        "model": "bundled MiniLM",
        "source": "recipe",
        "warmup": 2,
        "steps": 6,
        "rounds": 3,
        "auto": {
            "precision": "bf16",
            "decided_by": "measured",
            "seconds": {"fp32": 0.5, "bf16": 0.4},
            "probe_seconds": 3.0,
        },
        "timed": {
            "seconds_per_step": {"fp32": 0.4, "bf16": 0.5},
            "round_ratios": [0.8, 0.79, 0.81],
            "median_ratio": 0.8,
            "faster": "fp32",
        },
    }
    page = markdown(results)
    assert "| fp32 | 0.400 | |" in page
    assert "| bf16 autocast | 0.500 | 0.800, 0.790, 0.810 (median 0.800) |" in page
    assert "Faster here: **fp32**. `--precision auto` chose **bf16**" in page
    assert "its steps are 1.250× the faster precision's" in page
