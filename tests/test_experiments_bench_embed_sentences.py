"""experiments/bench_embed_sentences.py: the machine-kind key, the results files it names, and its ratios (fake
timings: nothing is timed here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments import bench_embed_sentences as bench
from wsd.embed import calibration


def _cli(wall: float, forward: float, runtime: str = "openvino", precision: str = "fp32") -> dict:
    """What :func:`bench.run_cli` returns of one process, with made-up seconds."""
    timings = {"total_s": wall - 1.0, "load_s": 0.5, "scan_s": 0.25, "tokenize_s": 0.5, "encode_s": forward + 0.5}
    timings |= {"forward_s": forward, "compile_s": 0.0, "write_s": 0.25}
    return {"wall_s": wall, "load_average": 1.0, "occurrences": 100, "timings": timings, "runtime": runtime,
            "precision": precision, "calibration": None}  # fmt: skip


def _ran(wall: float, forward: float, runtime: str, precision: str, cosine: float = 1.0) -> dict:
    return {"runtime": runtime, "precision": precision, "run": "x", "first_use": _cli(wall + 5, forward, runtime,
            precision), "warm": _cli(wall, forward, runtime, precision), "min_cosine": cosine}  # fmt: skip


def _entry() -> dict:
    """A held-out corpus: OpenVINO fp32 40 s, PyTorch fp32 50 s, PyTorch int8 30 s but disagreeing, OpenVINO int8
    refused; the defaults 42 s (OpenVINO fp32); the naive loop 168 s; the floor 32 s; three pairs."""
    return {
        "role": "held out",
        "lines": 90,
        "occurrences": 100,
        "candidates": {
            "openvino fp32": _ran(40.0, 34.0, "openvino", "fp32"),
            "torch fp32": _ran(50.0, 40.0, "torch", "fp32"),
            "torch int8": _ran(30.0, 25.0, "torch", "int8", cosine=0.87),
            "openvino int8": {"runtime": "openvino", "precision": "int8", "run": "y", "error": "exit code 2: no"},
        },
        "defaults": _ran(42.0, 33.6, "openvino", "fp32") | {"runtime": None, "precision": None},
        "naive": {"seconds": 168.0, "load_average": 1.0},
        "floor": {"seconds": 32.0, "padded_tokens": 4000, "token_squares": 160000, "tokens": 3600, "batches": 4,
                  "precision": "fp32", "runtime": "openvino", "load_average": 1.0, "candidate": "openvino fp32"},
        "agreement": {"defaults": {"compared": 90, "min": 0.99998, "mean": 0.99999}},
        "repeats": [{"naive_s": 168.0, "defaults_s": 42.0, "ratio": 4.0, "load_average": [1.0, 1.0]},
                    {"naive_s": 126.0, "defaults_s": 42.0, "ratio": 3.0, "load_average": [1.0, 1.0]},
                    {"naive_s": 210.0, "defaults_s": 42.0, "ratio": 5.0, "load_average": [1.0, 1.0]}],
    }  # fmt: skip


def _report(kind: str, cpu: str = "AMD EPYC") -> dict:
    facts = {"kind": kind, "cpu": cpu, "vendor": "AuthenticAMD", "architecture": "x86_64", "flags": ["avx2"],
             "usable_cores": 2, "logical_cpus": 2, "describe": "2 cores"}  # fmt: skip
    return {
        "command": "python -m experiments.bench_embed_sentences",
        "threads": 2,
        "quick": False,
        "date": "2026-12-06",
        "seconds": 600.0,
        "software": {"machine": "2 cores", "torch": "2", "openvino": "2026"},
        "machine": facts,
        "matmul": {"bf16_gflops": None, "fp32_gflops": 100.0, "load_average": 1.0},
        "imports": {"seconds": 0.5, "torch": False},
        "corpora": {"dwug": _entry()},
    }


@pytest.mark.parametrize(
    ("vendor", "model", "flags", "architecture", "kind"),
    [
        ("AuthenticAMD", "AMD EPYC", {"avx", "avx2", "fma"}, "x86_64", "amd-epyc-avx2"),
        ("AuthenticAMD", "AMD EPYC 9R14", {"avx2", "avx512f", "avx512_vnni", "avx512_bf16"}, "x86_64",
         "amd-epyc-avx512bf16"),
        ("GenuineIntel", "Intel(R) Xeon(R) Platinum 8488C", {"avx2", "avx512f", "avx512_vnni", "avx512_bf16",
         "avx512_fp16"}, "x86_64", "intel-xeon-avx512bf16"),
        ("GenuineIntel", "Intel(R) Xeon(R) Platinum 8480+", {"avx512_bf16", "amx_bf16", "amx_int8"}, "x86_64",
         "intel-xeon-amx"),
        ("GenuineIntel", "Intel(R) Xeon(R) Gold 6248", {"avx2", "avx512f", "avx512_vnni"}, "x86_64",
         "intel-xeon-avx512vnni"),
        ("GenuineIntel", "12th Gen Intel(R) Core(TM) i7-1265U", {"avx2", "avx_vnni"}, "x86_64", "intel-core-avxvnni"),
        ("AuthenticAMD", "AMD Eng Sample", {"avx2", "avx512f"}, "x86_64", "amd-avx512"),
        (None, "unknown CPU", set(), "aarch64", "aarch64-baseline"),
        ("HygonGenuine", "Hygon C86 7285", {"avx2"}, "x86_64", "x86-64-avx2"),
    ],
)  # fmt: skip
def test_the_machine_kind_key_comes_from_vendor_family_and_the_best_tier(vendor, model, flags, architecture, kind):
    assert bench.machine_kind(vendor, model, flags, architecture) == kind


def test_each_kind_has_its_own_results_file_and_target() -> None:
    assert bench.results_name("amd-epyc-avx2") == "bench_embed_sentences-amd-epyc-avx2"
    assert bench.results_name("amd-epyc-avx2") != bench.results_name("intel-xeon-avx512bf16")
    assert bench.naive_target("amd-epyc-avx512bf16") == 6.0
    assert bench.naive_target("intel-xeon-avx512bf16") == 4.0
    assert bench.naive_target("intel-core-avx2") == 5.0  # any AVX2-only kind
    assert bench.naive_target("aarch64-baseline") is None


def test_the_fastest_candidate_ran_and_agrees() -> None:
    entry = _entry()
    assert bench.fastest_candidate(entry["candidates"], calibration.MIN_COSINE) == "openvino fp32"
    entry["candidates"]["torch int8"]["min_cosine"] = 0.995  # agrees now: the fastest
    assert bench.fastest_candidate(entry["candidates"], calibration.MIN_COSINE) == "torch int8"
    assert bench.fastest_candidate({"x": {"error": "exit code 2: no"}}, 0.99) is None


def test_the_ratios_and_shares_of_fake_timings() -> None:
    found = bench.summarise(_entry(), calibration.MIN_COSINE)
    assert found["fastest"] == "openvino fp32" and found["choice"] == "openvino fp32"
    assert found["defaults_vs_fastest"] == pytest.approx(42.0 / 40.0)  # within 10%
    assert found["defaults_x_naive"] == pytest.approx(4.0) and found["pairs"] == 3  # the median of 3, 4, 5
    assert found["fastest_x_naive"] == pytest.approx(168.0 / 40.0)
    assert found["outside_forward_defaults"] == pytest.approx(1 - 33.6 / 42.0)
    assert found["outside_forward_fastest"] == pytest.approx(1 - 34.0 / 40.0)
    assert found["floor_x_naive"] == pytest.approx(168.0 / 32.0)
    assert found["defaults_over_floor"] == pytest.approx(42.0 / 32.0)
    assert found["fastest_over_floor"] == pytest.approx(40.0 / 32.0)
    one = _entry()
    one["repeats"] = one["repeats"][:1]
    assert bench.summarise(one, calibration.MIN_COSINE)["defaults_x_naive"] == pytest.approx(168.0 / 42.0)


def test_the_breakdown_adds_up_to_the_wall_time() -> None:
    cli = _cli(42.0, 33.6)
    parts = bench.breakdown(cli)
    assert parts["start-up (interpreter, imports, CLI)"] == pytest.approx(1.0)
    assert parts["pool and gather"] == pytest.approx(0.5)
    assert sum(parts.values()) - parts["tokenise (helper thread)"] == pytest.approx(42.0)


def test_results_files_are_named_by_kind_and_the_index_lists_each_kind(tmp_path: Path) -> None:
    (tmp_path / "bench_embed_sentences.md").write_text("# old\n\nMachine: 2 cores, AMD EPYC; native bf16: x; torch\n")
    (tmp_path / "bench_embed_sentences.json").write_text('{"software": {}}\n')  # an earlier run: no kind
    assert "No machine kind measured yet." in bench.write_index(tmp_path).read_text()
    for kind in ("amd-epyc-avx2", "intel-xeon-avx512bf16"):
        bench.write(_report(kind), bench.results_name(kind), tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*-*.md")) == [
        "bench_embed_sentences-amd-epyc-avx2.md",
        "bench_embed_sentences-intel-xeon-avx512bf16.md",
    ]
    page = (tmp_path / "bench_embed_sentences-intel-xeon-avx512bf16.md").read_text()
    assert "| the defaults within 10% of the fastest candidate (time ratio ≤ 1.10) | 1.050 " in page
    assert "| the defaults ≥ 4× the naive loop (this kind's target) | 4.00× (the median of 3 pairs)" in page
    assert "did not run: exit code 2: no" in page
    saved = json.loads((tmp_path / "bench_embed_sentences-amd-epyc-avx2.json").read_text())
    assert (
        saved["summary"]["defaults_vs_fastest"] == pytest.approx(1.05) and saved["machine"]["kind"] == "amd-epyc-avx2"
    )
    index = (tmp_path / bench.INDEX).read_text()
    assert (
        "| `amd-epyc-avx2` | [bench_embed_sentences-amd-epyc-avx2.md](bench_embed_sentences-amd-epyc-avx2.md)" in index
    )
    assert "| `intel-xeon-avx512bf16` |" in index
    assert "- [bench_embed_sentences.md](bench_embed_sentences.md): 2 cores, AMD EPYC; native bf16: x" in index


def test_a_new_candidate_of_auto_joins_and_openvino_int8_is_measured_beside_them(monkeypatch) -> None:
    assert calibration.REFERENCE.name == bench.REFERENCE_NAME
    among = (calibration.Candidate("openvino", "fp32"), calibration.Candidate("torch", "bf16"), calibration.REFERENCE)
    monkeypatch.setattr(calibration, "candidates", lambda: among)
    assert [c["name"] for c in bench.contenders()] == ["openvino fp32", "torch bf16", "torch fp32", "openvino int8"]
    monkeypatch.setattr(
        calibration, "candidates", lambda: (calibration.REFERENCE, calibration.Candidate("openvino", "int8"))
    )
    assert [c["name"] for c in bench.contenders()] == ["torch fp32", "openvino int8"]


def test_quick_is_small_and_writes_elsewhere_and_bad_numbers_are_refused(capsys) -> None:
    quick = bench.parse_args(["--quick"])
    assert quick.held_out_lines == quick.tune_lines == bench.QUICK_LINES and quick.no_levers
    assert quick.results != bench.RESULTS and quick.results.is_dir()
    quick.results.rmdir()
    full = bench.parse_args([])
    assert full.results == bench.RESULTS and full.tune_lines == 10000 and full.held_out_lines is None
    with pytest.raises(SystemExit) as stopped:
        bench.parse_args(["--repeats", "0"])
    assert stopped.value.code == 2
    assert "expected a whole number of at least 1, got '0'" in capsys.readouterr().err


def test_a_floor_that_could_not_run_is_reported_not_fatal() -> None:
    entry = _entry()
    del entry["floor"]
    entry["floor_error"] = "openvino fp32: worker floor failed"
    assert "floor_s" not in bench.summarise(entry, calibration.MIN_COSINE)
    matmul = {"bf16_gflops": None, "fp32_gflops": 100.0, "load_average": 1.0}
    text = "\n".join(bench.corpus_lines("dwug", entry, matmul, calibration.MIN_COSINE))
    assert (
        "| floor: bare forward pass of the fastest candidate | did not run: openvino fp32: worker floor failed |"
        in text
    )
