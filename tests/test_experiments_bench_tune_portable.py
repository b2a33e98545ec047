"""experiments/bench_tune_portable.py: its page sets the portable arm's seconds a step against the native arm's."""

from __future__ import annotations

from experiments.bench_tune_portable import markdown


def test_the_page_gives_each_arm_its_arithmetic_and_the_ratio() -> None:
    native = {"capability": "AVX512", "threads": 2, "onednn": True, "portable": False}
    portable = {"capability": "AVX2", "threads": 2, "onednn": False, "portable": True}
    results = {
        "command": "python -m experiments.bench_tune_portable",
        "machine": "2 cores",
        "date": "2026-12-07",
        "steps": 60,
        "repeats": 2,
        "arms": {
            "native": {
                "runs": [{"seconds_per_step": 0.4, "arithmetic": native}, {"seconds_per_step": 0.42}],
                "median_seconds_per_step": 0.41,
                "median_wall_s": 40.0,
            },
            "portable": {
                "runs": [{"seconds_per_step": 0.5, "arithmetic": portable}, {"seconds_per_step": 0.52}],
                "median_seconds_per_step": 0.51,
                "median_wall_s": 48.5,
            },
        },
        "ratio": 0.51 / 0.41,
    }
    page = markdown(results)
    assert "| native | AVX512, 2 threads, oneDNN on | 0.410 | 40.0 | 0.400, 0.420 |" in page
    assert "| portable | AVX2, 2 threads, oneDNN off | 0.510 | 48.5 | 0.500, 0.520 |" in page
    assert "Portable / native, seconds a step: **1.24**." in page
