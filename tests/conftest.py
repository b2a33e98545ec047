"""Shared pytest fixtures: where the shared datasets are, and the bundled encoder (loaded once); under pytest-xdist
(``make test`` runs ``-n 2``), each worker's share of the cores, the order the test files are handed out in, and a
line of each worker's busy time after ``--durations``.

The tests never reach the network: Hugging Face's offline mode is set here, before ``huggingface_hub`` is
imported (it reads the variable once, at import), for this test process only. wsd itself sets no environment
variable; tests of Hub loading run in subprocesses with an environment of their own.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def worker_math_threads() -> int | None:
    """The math threads of one pytest-xdist worker (``make test`` runs ``-n 2``), or None outside a worker.

    The cores are shared out among the workers (2 workers on 2 cores: one thread each), so that they do not
    oversubscribe the machine; an ``$OMP_NUM_THREADS`` the user set wins. A serial run (no worker) is left alone.
    """
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return None
    if os.environ.get("OMP_NUM_THREADS", "").isdigit() and int(os.environ["OMP_NUM_THREADS"]) > 0:
        return int(os.environ["OMP_NUM_THREADS"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores // int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1))


# Set before torch, OpenVINO or MKL is imported (they read it once), and inherited by the tests' subprocesses:
# PyTorch's intra-op pool and MKL follow it, and OpenVINO's INFERENCE_NUM_THREADS too (wsd.embed.ov_runtime).
_WORKER_THREADS = worker_math_threads()
if _WORKER_THREADS is not None:
    for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[_name] = str(_WORKER_THREADS)

REPO_ROOT = Path(__file__).resolve().parents[1]
DEMO_DIR = REPO_ROOT / "data" / "demo"


def shared_datasets_dir() -> Path:
    """The shared datasets folder: ``$WSD_DATASETS`` if set, else ``../shared/datasets`` beside the repo."""
    return Path(os.environ.get("WSD_DATASETS", REPO_ROOT.parent / "shared" / "datasets"))


@pytest.fixture(scope="session")
def datasets_dir() -> Path:
    """Path to the shared datasets; tests that use it skip (with the reason) where it is absent."""
    path = shared_datasets_dir()
    if not (path / "semeval2013-task13").is_dir():
        pytest.skip(f"shared datasets not found at {path} (set WSD_DATASETS to their folder)")
    return path


@pytest.fixture(scope="session")
def encoder():
    """The bundled encoder in fp32 (exact comparisons), loaded once per test session."""
    from wsd.embed.encoder import Encoder

    return Encoder(precision="fp32", device="cpu")


def _variable_pointing_to_a_new_folder(variable: str, tmp_path_factory, stem: str) -> Iterator[None]:
    """For a session fixture: ``$variable`` names a new empty folder until the session ends, then is restored."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(variable, str(tmp_path_factory.mktemp(stem)))
        yield


@pytest.fixture(scope="session", autouse=True)
def isolated_vector_cache(tmp_path_factory):
    """Keep the tests' vector cache out of the user's ~/.cache (and start every session cold)."""
    yield from _variable_pointing_to_a_new_folder("WSD_CACHE_DIR", tmp_path_factory, "vector-cache")


@pytest.fixture(scope="session", autouse=True)
def isolated_openvino_cache(tmp_path_factory):
    """Keep the OpenVINO conversion cache of the tests out of the user's ~/.cache (every session converts anew)."""
    yield from _variable_pointing_to_a_new_folder("WSD_OPENVINO_CACHE", tmp_path_factory, "openvino-cache")


@pytest.fixture(scope="session", autouse=True)
def isolated_models_dir(tmp_path_factory):
    """Keep the models ``wsd tune --recipe`` builds out of the user's ~/.cache/wsd/models (each session, or each
    pytest-xdist worker, has its own folder; tests/test_tune_recipe.py points each of its tests elsewhere)."""
    yield from _variable_pointing_to_a_new_folder("WSD_MODELS_DIR", tmp_path_factory, "models")


# ------------------------------------------------------------- calibration of `auto` (issue 42; wsd.embed.calibration)
@pytest.fixture(scope="session", autouse=True)
def fixed_auto_choice(tmp_path_factory):
    """``auto`` follows its fixed rule in the tests: no timing runs in every test that embeds, and results that do
    not depend on the machine's load. tests/test_embed_calibration.py measures with a fake clock instead. Any
    calibration cache stays out of the user's ~/.cache. Subprocesses of the tests inherit both."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CALIBRATION", "off")
        yield from _variable_pointing_to_a_new_folder("WSD_CALIBRATION_CACHE", tmp_path_factory, "calibration-cache")


# ------------------------------------------------------------------------- scikit-learn's OpenMP loops (test speed)
@pytest.fixture(scope="session", autouse=True)
def single_threaded_sklearn_openmp():
    """scikit-learn's OpenMP loops (k-means) run in one thread in the test process; PyTorch's threads are left alone.

    The tests fit many tiny k-means (the subgroups of sense cards, ``SelectK``), where a second thread saves
    nothing and, on a busy machine, its spin-waits cost several times the work: five ``test_senses_*`` modules took
    99 s of CPU with two threads and 26 s with this limit (2026-12-06, 2 loaded cores). No assertion depends on it.
    """
    import sklearn.cluster  # noqa: F401  (loads scikit-learn's OpenMP library, so that it can be limited)
    from threadpoolctl import ThreadpoolController

    controller = ThreadpoolController()
    ours = [
        lib["filepath"]
        for lib in controller.info()
        if lib["user_api"] == "openmp" and "scikit_learn" in lib["filepath"]
    ]
    limits = controller.select(filepath=ours).limit(limits=1) if ours else None
    yield
    if limits is not None:
        limits.restore_original_limits()


# ---------------------------------------------------------------------------- pytest-xdist workers (make test -n 2)
@pytest.fixture(scope="session", autouse=True)
def worker_torch_threads():
    """In a pytest-xdist worker, PyTorch's intra-op pool has :func:`worker_math_threads` threads (even where torch
    was imported before the variables above were set); a serial run keeps PyTorch's default. OpenVINO follows
    ``$OMP_NUM_THREADS`` (one stream, its default latency hint) and scikit-learn's OpenMP is limited above."""
    if _WORKER_THREADS is None:
        yield
        return
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(_WORKER_THREADS)
    yield
    torch.set_num_threads(previous)


@pytest.hookimpl(trylast=True)  # after ``-m`` has deselected what this run leaves out
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker, the test files that hold a slow test come first, then the others, each group by
    its number of tests: ``--dist loadfile --no-loadscope-reorder`` hands the files out in this order, so the long
    ones (the SOTU worked example, the README's commands, training) start early and do not end the run on one
    worker while the other idles. Every worker collects the same order; a serial run keeps pytest's own."""
    if _WORKER_THREADS is None:
        return
    slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
    tests_in = Counter(item.path for item in items)
    items.sort(key=lambda item: (item.path not in slow_files, -tests_in[item.path]))  # stable: files stay whole


#: Per pytest-xdist worker, in the controller: seconds spent inside its tests (setup, call and teardown) and tests run.
_WORKER_BUSY: dict[str, list[float]] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """In the pytest-xdist controller, add a worker's report to its busy time (:data:`_WORKER_BUSY`)."""
    gateway = getattr(getattr(report, "node", None), "gateway", None)  # set on the reports a worker sends
    if gateway is None:
        return
    busy = _WORKER_BUSY.setdefault(gateway.id, [0.0, 0])
    busy[0] += report.duration
    busy[1] += report.when == "teardown"


@pytest.hookimpl(trylast=True)  # after ``--durations``' list
def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    """Under pytest-xdist with ``--durations`` (``make test``), one line: each worker's time inside tests, so the
    slowest tests above can be read against how evenly the two workers were loaded (the rest of the wall time is
    start-up, collection and a worker idle at the end)."""
    if not _WORKER_BUSY or config.getoption("durations") is None:
        return
    workers = ", ".join(
        f"{name} {busy:.1f} s in {int(tests)} tests" for name, (busy, tests) in sorted(_WORKER_BUSY.items())
    )
    terminalreporter.write_line(f"pytest-xdist workers, time inside tests: {workers}")
