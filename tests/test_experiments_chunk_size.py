"""experiments/bench_chunk_size.py: its arguments, run order, what an interruption keeps, and the results files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.bench_chunk_size import BASELINE, kept_at, markdown, parse_args, run_order, summarise, write


def _run(size: int, wall: float, finished: list[list[float]], repeat: int = 0) -> dict:
    rows = sum(int(r) for _, r in finished)
    return {
        "chunk_size": size,
        "repeat": repeat,
        "wall_s": wall,
        "cpu_s": wall / 2,
        "max_rss_mib": 500.0,
        "load_average": 1.0,
        "occurrences": rows,
        "parts": len(finished),
        "part_sizes": [int(r) for _, r in finished],
        "finished": finished,
        "timings": {"forward_s": wall / 3, "write_s": 0.5},
    }


def test_arguments_default_to_the_three_sizes_and_refuse_a_bad_size() -> None:
    args = parse_args([])
    assert args.chunk_sizes == [256, 1024, BASELINE] and args.repeats == 3 and args.targets == "bank,plant"
    assert parse_args(["--chunk-sizes", "64, 128", "--repeats", "1"]).chunk_sizes == [64, 128]
    for bad in (["--chunk-sizes", "0,1024"], ["--chunk-sizes", "big"], ["--repeats", "0"]):
        with pytest.raises(SystemExit):
            parse_args(bad)


def test_the_order_alternates_between_repeats() -> None:
    assert [run_order([1, 2, 3], r) for r in range(3)] == [[1, 2, 3], [3, 2, 1], [1, 2, 3]]


def test_an_interruption_keeps_the_parts_finished_by_then() -> None:
    run = _run(1024, 10.0, [[2.0, 1024], [5.0, 1024], [5.01, 1024], [9.0, 100]])
    assert kept_at(run) == {"parts": 2, "rows": 2048, "fraction": 2048 / 3172}
    assert kept_at(_run(8192, 10.0, [[9.5, 3172]]))["parts"] == 0  # one part: nothing kept


def test_summary_medians_and_ratios_to_the_baseline() -> None:
    runs = [_run(BASELINE, w, [[0.9 * w, 500]], r) for r, w in enumerate((10.0, 12.0, 30.0))]
    runs += [_run(1024, w, [[0.3 * w, 400], [0.9 * w, 100]], r) for r, w in enumerate((11.0, 13.2, 11.5))]
    small, large = summarise(runs)
    assert large["chunk_size"] == BASELINE and large["wall_s"] == 12.0 and large["wall_ratio"] == 1.0
    assert small["wall_s"] == 11.5 and small["wall_ratio"] == pytest.approx(11.5 / 12.0)
    assert small["cpu_ratio"] == pytest.approx(5.75 / 6.0) and small["wall_max_s"] == 13.2
    assert (small["kept_parts"], small["kept_fraction"]) == (1, 0.8) and large["kept_fraction"] == 0.0
    assert summarise(runs[3:])[0]["wall_ratio"] is None  # no baseline run: no ratio


def test_the_results_files_hold_the_provenance_the_table_and_every_run(tmp_path: Path) -> None:
    runs = [_run(BASELINE, 20.0, [[19.0, 900]]), _run(256, 21.0, [[3.0, 256], [6.0, 256], [20.0, 388]], 1)]
    report = {
        "command": "python -m experiments.bench_chunk_size --repeats 1",
        "date": "2026-12-03",
        "machine": "2 cores available",
        "corpus": "sotu.jsonl.gz",
        "targets": "bank,plant",
        "repeats": 1,
        "seconds": 41.0,
        "runs": runs,
    }
    md_path, json_path = write(report, tmp_path / "results", "bench_chunk_size")
    page = md_path.read_text(encoding="utf-8")
    assert page == markdown(report)
    assert "python -m experiments.bench_chunk_size --repeats 1" in page and "2026-12-03" in page
    assert "| 256 | 1 | 21.0 (21.0–21.0) | 1.05 | 10.5 | 1.05 | 500 | 3 | 2 (57%) | 1.0 |" in page
    assert "| 2 | 2 | 256 | 21.0 | 10.5 | 7.0 | 0.50 | 3 | 3.0, 6.0, 20.0 | 1.0 |" in page
    document = json.loads(json_path.read_text(encoding="utf-8"))
    assert document["runs"] == runs and [row["chunk_size"] for row in document["summary"]] == [256, BASELINE]
