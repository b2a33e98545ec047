"""Facts about the machine a run or a benchmark ran on: CPU model, usable cores, CPU flags, native bf16.

One place for what results files, benchmarks, the encoder's ``precision="auto"`` and the calibration of
``auto`` (:func:`fingerprint`, :mod:`wsd.embed.calibration`) ask about the hardware.
Everything here is cheap, never raises on an unusual platform (it answers "unknown" or an empty set instead)
and imports nothing heavy at module level.

>>> usable_cores() >= 1
True
"""

from __future__ import annotations

import hashlib
import os
import platform
from pathlib import Path
from typing import Any

#: Where Linux describes its CPUs.
CPUINFO = Path("/proc/cpuinfo")
#: CPU flags (as ``/proc/cpuinfo`` spells them) of native bf16 matrix arithmetic: AMX tiles and AVX512-BF16.
BF16_FLAGS: tuple[str, ...] = ("amx_bf16", "avx512_bf16")
#: What :func:`describe` says of a CPU without :data:`BF16_FLAGS`.
NO_NATIVE_BF16 = "no native bf16"
#: What :func:`cpu_model` answers when the platform does not say.
UNKNOWN_CPU = "unknown CPU"
#: The libraries whose versions decide how fast a runtime computes (read from their metadata, never imported).
RUNTIME_LIBRARIES: tuple[str, ...] = ("torch", "openvino")


def _cpuinfo_field(name: str) -> str | None:
    """The value of the first ``name : value`` line of :data:`CPUINFO` (None where there is none)."""
    try:
        text = CPUINFO.read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == name:
            return value.strip()
    return None


def cpu_model() -> str:
    """The CPU's model name.

    Returns
    -------
    str
        ``model name`` from ``/proc/cpuinfo`` on Linux, else :func:`platform.processor`, else
        ``"unknown CPU"``.
    """
    return _cpuinfo_field("model name") or platform.processor() or UNKNOWN_CPU


def logical_cpus() -> int:
    """The number of logical CPUs of the machine (all of them, whether this process may use them or not).

    Returns
    -------
    int
        :func:`os.cpu_count`, at least 1.
    """
    return os.cpu_count() or 1


def usable_cores() -> int:
    """The number of logical CPUs this process may run on.

    Returns
    -------
    int
        The size of the process's CPU affinity set where the platform has one (Linux: a container or
        ``taskset`` may allow fewer CPUs than the machine has), else :func:`logical_cpus`.
    """
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return logical_cpus()


def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags (``avx2``, ``avx512_bf16``, ``amx_bf16``, ...).

    Returns
    -------
    frozenset of str
        The ``flags`` of ``/proc/cpuinfo`` on x86 Linux (``Features`` on ARM Linux); empty where the
        platform does not list them.
    """
    flags = _cpuinfo_field("flags") or _cpuinfo_field("Features") or ""
    return frozenset(flags.split())


def native_bf16_flags() -> tuple[str, ...]:
    """The CPU flags of native bf16 matrix arithmetic that this CPU has.

    Returns
    -------
    tuple of str
        The members of :data:`BF16_FLAGS` found in :func:`cpu_flags`, in that order (empty when none, or
        when the platform does not list flags).
    """
    flags = cpu_flags()
    return tuple(flag for flag in BF16_FLAGS if flag in flags)


def fast_bf16() -> bool:
    """Whether PyTorch computes bf16 matrix products on this CPU through oneDNN.

    This is the test behind ``precision="auto"`` on a CPU (see :func:`wsd.embed.models.resolve_precision`):
    oneDNN's own answer, which is what decides how PyTorch runs bf16. It can be true on a CPU without
    :func:`native_bf16_flags` (oneDNN also accepts AVX-512 cores, where bf16 is converted, not native).

    Returns
    -------
    bool
        False where torch is not installed or its build has no oneDNN.
    """
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency of wsd
        return False
    try:
        return bool(torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):  # pragma: no cover - older torch builds
        return False


def describe() -> str:
    """One line about this machine, for the header of a results file.

    Returns
    -------
    str
        ``"<usable> cores available (<logical> logical CPUs), <CPU model>"``, followed by
        ``"; native bf16: <flags>"`` when the CPU has :data:`BF16_FLAGS`, else ``"; no native bf16"`` (wsd's
        ``auto`` precision then computes on the CPU in fp32, which every timing of the file reflects).

    Examples
    --------
    >>> "cores available" in describe()
    True
    """
    line = f"{usable_cores()} cores available ({logical_cpus()} logical CPUs), {cpu_model()}"
    bf16 = native_bf16_flags()
    return f"{line}; native bf16: {', '.join(bf16)}" if bf16 else f"{line}; {NO_NATIVE_BF16}"


def library_version(distribution: str) -> str | None:
    """The installed version of a distribution, read from its metadata without importing it.

    Parameters
    ----------
    distribution : str
        The distribution's name (``torch``, ``openvino``).

    Returns
    -------
    str or None
        The version; None where it is not installed.

    Examples
    --------
    >>> library_version("no-such-distribution-of-wsd") is None
    True
    """
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def fingerprint() -> dict[str, Any]:
    """What decides how fast an encoder runs here: CPU, its flags, the cores and threads, the runtimes' versions.

    The key of the calibration cache (:mod:`wsd.embed.calibration`): a measurement holds for the machine whose
    fingerprint it was made on, and another fingerprint (another CPU, a container with fewer cores, an upgraded
    torch or OpenVINO) measures again.

    Returns
    -------
    dict
        ``cpu`` (:func:`cpu_model`), ``architecture``, ``cpu_flags`` (a SHA-256 prefix of the sorted
        :func:`cpu_flags`), ``native_bf16`` (:func:`native_bf16_flags`), ``usable_cores``, ``omp_num_threads``
        (``$OMP_NUM_THREADS``, which both runtimes follow; None when unset) and the version of each of
        :data:`RUNTIME_LIBRARIES` (None when not installed).

    Examples
    --------
    >>> sorted(fingerprint())[:4]
    ['architecture', 'cpu', 'cpu_flags', 'native_bf16']
    """
    flags = " ".join(sorted(cpu_flags()))
    facts: dict[str, Any] = {
        "cpu": cpu_model(),
        "architecture": platform.machine(),
        "cpu_flags": hashlib.sha256(flags.encode()).hexdigest()[:16],
        "native_bf16": list(native_bf16_flags()),
        "usable_cores": usable_cores(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS") or None,
    }
    return facts | {name: library_version(name) for name in RUNTIME_LIBRARIES}
