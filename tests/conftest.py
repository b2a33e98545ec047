"""Shared pytest fixtures: where the shared datasets are, and the bundled encoder (loaded once).

The tests never reach the network: Hugging Face's offline mode is set here, before ``huggingface_hub`` is
imported (it reads the variable once, at import), for this test process only. wsd itself sets no environment
variable; tests of Hub loading run in subprocesses with an environment of their own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

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


@pytest.fixture(scope="session", autouse=True)
def isolated_vector_cache(tmp_path_factory):
    """Keep the tests' vector cache out of the user's ~/.cache (and start every session cold)."""
    previous = os.environ.get("WSD_CACHE_DIR")
    os.environ["WSD_CACHE_DIR"] = str(tmp_path_factory.mktemp("vector-cache"))
    yield
    if previous is None:
        os.environ.pop("WSD_CACHE_DIR", None)
    else:
        os.environ["WSD_CACHE_DIR"] = previous


@pytest.fixture(scope="session", autouse=True)
def isolated_openvino_cache(tmp_path_factory):
    """Keep the OpenVINO conversion cache of the tests out of the user's ~/.cache (every session converts anew)."""
    previous = os.environ.get("WSD_OPENVINO_CACHE")
    os.environ["WSD_OPENVINO_CACHE"] = str(tmp_path_factory.mktemp("openvino-cache"))
    yield
    if previous is None:
        os.environ.pop("WSD_OPENVINO_CACHE", None)
    else:
        os.environ["WSD_OPENVINO_CACHE"] = previous


# ------------------------------------------------------------- calibration of `auto` (issue 42; wsd.embed.calibration)
@pytest.fixture(scope="session", autouse=True)
def fixed_auto_choice(tmp_path_factory):
    """``auto`` follows its fixed rule in the tests: no timing runs in every test that embeds, and results that do
    not depend on the machine's load. tests/test_embed_calibration.py measures with a fake clock instead. Any
    calibration cache stays out of the user's ~/.cache. Subprocesses of the tests inherit both."""
    names = ("WSD_CALIBRATION", "WSD_CALIBRATION_CACHE")
    previous = {name: os.environ.get(name) for name in names}
    os.environ["WSD_CALIBRATION"] = "off"
    os.environ["WSD_CALIBRATION_CACHE"] = str(tmp_path_factory.mktemp("calibration-cache"))
    yield
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


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
