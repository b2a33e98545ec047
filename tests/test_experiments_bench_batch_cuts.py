"""experiments/bench_batch_cuts.py: the old cutting it compares with, and its page."""

from __future__ import annotations

from experiments.bench_batch_cuts import fixed_sizes, markdown


def test_the_old_cutting_is_every_batch_size_windows() -> None:
    assert fixed_sizes(70, 32) == [32, 32, 6]
    assert fixed_sizes(64, 32) == [32, 32]
    assert fixed_sizes(0, 32) == []


def test_the_page_gives_each_cuttings_medians_and_the_ratios() -> None:
    def run(wall: float, forward: float, calls: int, padded: int) -> dict:
        return {"wall_s": wall, "forward_s": forward, "load_average": 1.0, "runtime": "openvino bf16",
                "calls": calls, "padded_tokens": padded}  # fmt: skip

    corpus = {
        "runs": {"fixed": [run(20.0, 16.0, 293, 432364)], "cut": [run(18.0, 14.0, 316, 393471)]},
        "medians": {"fixed": {"wall_s": 20.0, "forward_s": 16.0}, "cut": {"wall_s": 18.0, "forward_s": 14.0}},
        "wall_ratio": 20 / 18,
        "forward_ratio": 16 / 14,
        "min_cosine": 0.99999,
    }
    results = {
        "command": "python -m experiments.bench_batch_cuts",
        "date": "2026-12-07",
        "seconds": 300.0,
        "machine": {"kind": "intel-xeon-amx", "cpu": "Xeon", "flags": ["amx_bf16"], "usable_cores": 2},
        "software": {"torch": "2.13.0"},
        "threads": 2,
        "corpora": {"dwug": corpus},
    }
    page = markdown(results)
    assert "| `dwug` | openvino bf16 | cut | 1 | 18.00 | 14.00 | 316 | 393471 | 1.111 | 1.143 | 0.99999 |" in page
    assert "| `dwug` | fixed | 20.00 | 16.00 | 1.0 |" in page
