"""Machine facts: CPU model, usable cores, CPU flags and the one-line description of results files."""

from __future__ import annotations

import os

import pytest

from wsd import machine

CPUINFO = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: fpu sse2 avx2 avx512bw amx_bf16 avx512_bf16 amx_tile

processor\t: 1
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: fpu sse2 avx2 avx512bw amx_bf16 avx512_bf16 amx_tile
"""


@pytest.fixture
def xeon(tmp_path, monkeypatch):
    path = tmp_path / "cpuinfo"
    path.write_text(CPUINFO)
    monkeypatch.setattr(machine, "CPUINFO", path)
    return path


def test_cpu_model_and_flags_come_from_cpuinfo(xeon) -> None:
    assert machine.cpu_model() == "Intel(R) Xeon(R) Platinum 8480+"
    assert {"avx2", "amx_bf16", "avx512_bf16"} <= machine.cpu_flags()
    assert machine.native_bf16_flags() == ("amx_bf16", "avx512_bf16")


def test_without_cpuinfo_the_answers_are_unknown_not_errors(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(machine, "CPUINFO", tmp_path / "absent")
    monkeypatch.setattr(machine.platform, "processor", lambda: "")
    assert machine.cpu_model() == "unknown CPU"
    assert machine.cpu_flags() == frozenset()
    assert machine.native_bf16_flags() == ()
    assert machine.describe().endswith("logical CPUs), unknown CPU; no native bf16")


def test_usable_cores_follow_the_affinity_set(monkeypatch) -> None:
    monkeypatch.setattr(machine.os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    monkeypatch.setattr(machine.os, "cpu_count", lambda: 64)
    assert machine.usable_cores() == 3
    assert machine.logical_cpus() == 64
    monkeypatch.delattr(machine.os, "sched_getaffinity")
    assert machine.usable_cores() == 64


def test_description_names_cores_model_and_native_bf16(xeon, monkeypatch) -> None:
    monkeypatch.setattr(machine.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(machine.os, "cpu_count", lambda: 2)
    assert machine.describe() == (
        "2 cores available (2 logical CPUs), Intel(R) Xeon(R) Platinum 8480+; native bf16: amx_bf16, avx512_bf16"
    )


def test_the_real_machine_answers() -> None:
    assert 1 <= machine.usable_cores() <= machine.logical_cpus() == (os.cpu_count() or 1)
    assert machine.cpu_model()
    assert isinstance(machine.fast_bf16(), bool)


def test_the_encoder_asks_the_same_bf16_question() -> None:
    from wsd.embed.models import cpu_has_fast_bf16

    assert cpu_has_fast_bf16() == machine.fast_bf16()
