"""Kill tests: ``wsd embed``, ``wsd cluster`` and ``wsd change`` killed (SIGKILL) at random points, then resumed.

Each command runs in a subprocess on the demo corpus and is killed at a seeded random point: for embed, once
a random number of chunks are stored (or after a random delay), so the kill lands inside the embedding loop,
the consolidation or the start-up. Then the same command runs again. Nothing may be lost or damaged: the
resumed run equals a clean run (same occurrences, same vectors), the input of cluster and change is never
touched, and the outputs equal a clean run's.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.io.run_reader import load_run

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "data" / "demo" / "corpus.jsonl"
EMBED = [
    "embed",
    "--corpus",
    str(CORPUS),
    "--targets",
    "mouse:mice,cell:cells,bank",
    "--meta",
    "year",
    "--chunk-size",
    "8",
    "--batch-size",
    "4",
    "--precision",
    "fp32",
    "--device",
    "cpu",
    "--no-progress",
]
CLUSTER = ["cluster", "--no-progress"]
CHANGE = ["change", "--by", "year", "--bins", "1900:2005,2006:2100", "--min-uses", "3"]  # a few uses a slice
#: Longest a command may take here (a slow, shared CI machine).
LIMIT_S = 300

pytestmark = pytest.mark.slow


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "wsd.cli", *args]


def environment() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", OMP_NUM_THREADS="1")


def run_to_end(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(command(*args), capture_output=True, text=True, env=environment(), timeout=LIMIT_S)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def kill_when(args: list[str], ready) -> bool:
    """Start the command, SIGKILL it as soon as ``ready()`` holds; False when it finished first."""
    process = subprocess.Popen(command(*args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment())
    deadline = time.monotonic() + LIMIT_S
    try:
        while process.poll() is None and time.monotonic() < deadline:
            if ready():
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=30)
                return True
            time.sleep(0.005)
        return False
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


def after_delay(seconds: float):
    start = time.monotonic()
    return lambda: time.monotonic() - start >= seconds


def after_parts(run: Path, count: int):
    return lambda: len(list((run / "parts").glob("vec-*.npy"))) >= count


def once_exists(path: Path, delay: float):
    """Ready ``delay`` seconds after ``path`` appeared (the command is then past its checks, in its work)."""
    seen: list[float] = []

    def ready() -> bool:
        if not seen and path.exists():
            seen.append(time.monotonic())
        return bool(seen) and time.monotonic() - seen[0] >= delay

    return ready


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> Path:
    """A clean embed, cluster and change of the demo corpus (the folder holds ``run/`` with both outputs)."""
    root = tmp_path_factory.mktemp("clean")
    for args in (
        [*EMBED, "--out", str(root / "run")],
        [*CLUSTER, "--run", str(root / "run")],
        [*CHANGE, "--run", str(root / "run")],
    ):
        done = run_to_end(*args)
        assert done.returncode == 0, done.stderr
    return root


def assert_same_run(run: Path, reference: Path) -> None:
    assert json.loads((run / "meta.json").read_text())["status"] == "complete"
    occurrences, vectors = load_run(run)
    expected_occurrences, expected_vectors = load_run(reference)
    pd.testing.assert_frame_equal(occurrences, expected_occurrences)
    assert np.isfinite(np.asarray(vectors, dtype=np.float32)).all()
    np.testing.assert_array_equal(np.asarray(vectors), np.asarray(expected_vectors))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_embed_killed_at_a_random_point_resumes_to_the_clean_run(clean, tmp_path, seed):
    rng = random.Random(seed)
    run = tmp_path / "run"
    chunks = len(json.loads((clean / "run" / "meta.json").read_text())["scan"]["part_sizes"])
    if seed < 2:
        assert kill_when([*EMBED, "--out", str(run)], after_parts(run, rng.randint(1, chunks - 1)))
    else:  # anywhere: start-up, scan, embedding or consolidation
        kill_when([*EMBED, "--out", str(run)], after_delay(rng.uniform(0.5, 6.0)))
    done = run_to_end(*EMBED, "--out", str(run))
    assert done.returncode == 0, done.stderr
    assert_same_run(run, clean / "run")


def test_embed_killed_twice_then_resumed(clean, tmp_path):
    rng = random.Random(26)
    run = tmp_path / "run"
    for count in sorted(rng.sample(range(1, 12), 2)):
        assert kill_when([*EMBED, "--out", str(run)], after_parts(run, count))
    done = run_to_end(*EMBED, "--out", str(run))
    assert done.returncode == 0, done.stderr
    assert_same_run(run, clean / "run")


def copy_run(clean: Path, tmp_path: Path, keep: tuple[str, ...] = ()) -> Path:
    """A copy of the clean run without its senses and change folders (but those named in ``keep``)."""
    import shutil

    run = tmp_path / "run"
    dropped = [name for name in ("senses", "change") if name not in keep]
    shutil.copytree(clean / "run", run, ignore=shutil.ignore_patterns(*dropped))
    return run


def killed_inside(
    args: list[str], clean: Path, tmp_path: Path, output: str, delay: float, keep: tuple[str, ...] = ()
) -> Path:
    """A copy of the clean run on which ``args`` was SIGKILLed ``delay`` s after its ``output`` folder appeared.

    A machine fast enough to finish first gets a fresh copy and a quarter of the delay, then an immediate kill,
    so the kill lands inside the work on any machine (a CI run once finished cluster within 0.42 s).
    """
    for attempt, wait in enumerate((delay, delay / 4, 0.0)):
        run = copy_run(clean, tmp_path / f"attempt{attempt}", keep)
        if kill_when([*args, "--run", str(run)], once_exists(run / output, wait)):
            return run
    pytest.fail(f"{args[0]} finished each time before it could be killed inside its work")


def rerun(args: list[str]) -> None:
    """The same command again completes: what the killed one left is wsd's own unfinished output, redone."""
    done = run_to_end(*args)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("seed", [0, 1])
def test_cluster_killed_at_a_random_point_leaves_the_run_and_reruns_alike(clean, tmp_path, seed):
    rng = random.Random(seed)
    run = killed_inside(CLUSTER, clean, tmp_path, "senses", rng.uniform(0.0, 0.5))
    assert_same_run(run, clean / "run")  # the input is never touched
    rerun([*CLUSTER, "--run", str(run)])
    pd.testing.assert_frame_equal(
        pd.read_parquet(run / "senses" / "labels.parquet"), pd.read_parquet(clean / "run" / "senses" / "labels.parquet")
    )


@pytest.mark.parametrize("seed", [0, 1])
def test_change_killed_at_a_random_point_leaves_its_inputs_and_reruns_alike(clean, tmp_path, seed):
    rng = random.Random(seed)
    run = killed_inside(CHANGE, clean, tmp_path, "change", rng.uniform(0.0, 0.1), keep=("senses",))
    assert_same_run(run, clean / "run")
    pd.testing.assert_frame_equal(
        pd.read_parquet(run / "senses" / "labels.parquet"), pd.read_parquet(clean / "run" / "senses" / "labels.parquet")
    )
    rerun([*CHANGE, "--run", str(run)])
    for table in ("ranking", "scores", "counts"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(run / "change" / f"{table}.parquet"),
            pd.read_parquet(clean / "run" / "change" / f"{table}.parquet"),
        )
