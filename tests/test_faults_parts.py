"""Fault tests of a run's parts: truncated and bit-flipped files of every kind, then resume, load or cluster.

Whatever is damaged (an occurrence part, a vector part, a chunk's checksum record, a shard's done-marker,
the shard plan, the consolidated ``occurrences.parquet`` or ``vectors.npy``), no path ends in a ``complete``
run with missing or non-finite rows: resuming drops what fails its checksum (one warning naming the file)
and redoes it, so the run equals a clean one; reading a damaged finished run is one clear error that says
which file and what to do, and doing it (the same ``wsd embed``) really rebuilds the damage.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import mouse_bank_lines, write_lines

from wsd.cli import main
from wsd.errors import InputError, ModelError
from wsd.io.manifest import record
from wsd.io.run_reader import load_run
from wsd.io.run_store import RunStore
from wsd.workflows.embedding import embed_corpus

TARGETS = "mouse,bank"
#: Small chunks and shards: the corpus makes several shards of several chunks each.
OPTIONS = {"chunk_size": 4, "shard_bytes": 450, "progress": False}
DAMAGES = ("truncate", "bitflip")
#: Stored chunks after which a run is interrupted (the first shard is done after its 4 chunks).
FIRST_SHARD_DONE = 5
STOPS = (5, 8)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_lines(tmp_path_factory.mktemp("corpus") / "corpus.txt", mouse_bank_lines(12))


@pytest.fixture(scope="module")
def clean_run(corpus, encoder, tmp_path_factory) -> Path:
    """A clean run of the command (tests damage copies of it)."""
    run = embed_corpus(corpus, TARGETS, tmp_path_factory.mktemp("ref") / "run", encoder=encoder, **OPTIONS)
    assert json.loads((run / "meta.json").read_text())["shards"]["count"] >= 3
    return run


@pytest.fixture(scope="module")
def reference(clean_run) -> tuple[pd.DataFrame, np.ndarray]:
    """The clean run, read into memory."""
    occurrences, vectors = load_run(clean_run)
    return occurrences, np.array(vectors)


@pytest.fixture(scope="module")
def interrupted_runs(corpus, encoder, tmp_path_factory) -> dict[int, Path]:
    """Runs interrupted after so many chunks, made once per module (a test works on a copy)."""
    return {}


@pytest.fixture()
def interrupted(corpus, encoder, interrupted_runs, tmp_path_factory):
    """``interrupted(out, after)``: a copy at ``out`` of the run interrupted after ``after`` stored chunks
    (finished shards with markers, and loose parts)."""

    def make(out: Path, after: int) -> Path:
        if after not in interrupted_runs:
            run = tmp_path_factory.mktemp(f"interrupted{after}") / "run"
            original = RunStore.write_vectors_part
            written: list[tuple[int, int]] = []

            def write_then_stop(self, part, vectors):
                if len(written) == after:
                    raise KeyboardInterrupt("simulated interruption")
                written.append(part)
                original(self, part, vectors)

            RunStore.write_vectors_part = write_then_stop
            try:
                with pytest.raises(KeyboardInterrupt):
                    embed_corpus(corpus, TARGETS, run, encoder=encoder, **OPTIONS)
            finally:
                RunStore.write_vectors_part = original
            assert list((run / "parts").glob("shard-*.json")), "a shard finished before the interruption"
            interrupted_runs[after] = run
        shutil.copytree(interrupted_runs[after], out)
        return out

    return make


def damage(path: Path, how: str, rng: random.Random) -> None:
    """Cut ``path`` short at a random point, or flip random bits inside it (same size)."""
    data = bytearray(path.read_bytes())
    if how == "truncate":
        path.write_bytes(bytes(data[: rng.randrange(0, len(data))]))
        return
    for _ in range(3):
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def assert_same_run(run: Path, reference: tuple[pd.DataFrame, np.ndarray]) -> None:
    """Complete, every row present and finite, equal to the clean run."""
    meta = json.loads((run / "meta.json").read_text())
    assert meta["status"] == "complete"
    occurrences, vectors = load_run(run)
    pd.testing.assert_frame_equal(occurrences, reference[0])
    assert np.isfinite(np.asarray(vectors, dtype=np.float32)).all()
    np.testing.assert_array_equal(np.asarray(vectors), reference[1])


def resume(corpus, encoder, run: Path) -> list[str]:
    """Run the same command again; the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        embed_corpus(corpus, TARGETS, run, encoder=encoder, **OPTIONS)
    return [str(w.message) for w in caught]


# ------------------------------------------------------------------------------------------------ the findings
def test_a_truncated_part_of_a_finished_shard_is_redone_not_an_arrow_error(corpus, encoder, reference, tmp_path,
                                                                           interrupted):  # fmt: skip
    """Issue 26, finding 8: a truncated ``occ-….parquet`` of a shard marked done made every resume fail with
    "unexpected error: ArrowInvalid". Now it is dropped with a warning naming it, and its shard is redone."""
    run = interrupted(tmp_path / "run", FIRST_SHARD_DONE)
    part = run / "parts" / "occ-00000-00000.parquet"
    part.write_bytes(part.read_bytes()[:100])
    said = resume(corpus, encoder, run)
    assert any(str(part) in message for message in said), said
    assert_same_run(run, reference)


def test_a_bit_flipped_vector_part_never_becomes_a_complete_run(corpus, encoder, reference, tmp_path, interrupted):
    """Issue 26, finding 8: NaN bytes written into a vector part of a finished shard made a "complete" run
    with NaN vectors (exit 0). Now the part fails its checksum and is embedded again."""
    run = interrupted(tmp_path / "run", FIRST_SHARD_DONE)
    part = run / "parts" / "vec-00000-00001.npy"
    data = bytearray(part.read_bytes())
    data[-64:] = b"\xff" * 64  # float16 NaNs in the last rows
    part.write_bytes(bytes(data))
    said = resume(corpus, encoder, run)
    assert any(str(part) in message and "checksum" in message for message in said), said
    assert_same_run(run, reference)


def test_cluster_refuses_a_bit_flipped_run_and_embed_again_rebuilds_it(corpus, encoder, clean_run, reference, tmp_path,
                                                                       capsys):  # fmt: skip
    """Issue 26, finding 8: ``wsd cluster`` advised embedding again, which reused the damaged vectors. Now a
    flipped ``vectors.npy`` is named (exit 2), and the same embed command rebuilds it."""
    run = Path(shutil.copytree(clean_run, tmp_path / "run"))
    vectors = run / "vectors.npy"
    data = bytearray(vectors.read_bytes())
    data[len(data) // 2] ^= 0x40  # one bit: a finite, wrong value
    vectors.write_bytes(bytes(data))
    assert main(["cluster", "--run", str(run), "--no-progress"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and str(vectors) in error and "wsd embed" in error, error
    with pytest.raises(InputError, match="checksum"):
        load_run(run)
    said = resume(corpus, encoder, run)
    assert any(str(vectors) in message for message in said), said
    assert_same_run(run, reference)
    assert main(["cluster", "--run", str(run), "--no-progress"]) == 0


# ------------------------------------------------------------------------------------------------ every part type
@pytest.mark.slow
@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("kind", ["occ", "vec", "sum", "shard", "plan"])
def test_damaged_parts_of_an_interrupted_run_heal_on_resume(corpus, encoder, reference, tmp_path, interrupted, kind,
                                                            how):  # fmt: skip
    rng = random.Random(f"{kind}-{how}")
    run = interrupted(tmp_path / "run", rng.choice(STOPS))
    parts = run / "parts"
    candidates = [parts / "shards.json"] if kind == "plan" else sorted(parts.glob(f"{kind}-*"))
    target = rng.choice(candidates)
    damage(target, how, rng)
    said = resume(corpus, encoder, run)
    assert any(str(target) in message for message in said), said
    assert_same_run(run, reference)


@pytest.mark.slow
@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("name", ["occurrences.parquet", "vectors.npy"])
def test_damaged_consolidated_files_are_refused_then_rebuilt(corpus, encoder, clean_run, reference, tmp_path, name,
                                                            how):  # fmt: skip
    rng = random.Random(f"{name}-{how}")
    run = Path(shutil.copytree(clean_run, tmp_path / "run"))
    damage(run / name, how, rng)
    with pytest.raises(InputError, match=rf"{re.escape(name)}.*wsd embed"):
        load_run(run)
    said = resume(corpus, encoder, run)
    assert any(str(run / name) in message for message in said), said
    assert_same_run(run, reference)


def test_a_sharded_run_with_a_damaged_part_is_refused_then_healed(corpus, encoder, reference, tmp_path):
    run = embed_corpus(corpus, TARGETS, tmp_path / "run", encoder=encoder, consolidate=False, **OPTIONS)
    part = run / "parts" / "vec-00001-00000.npy"
    data = bytearray(part.read_bytes())
    data[-3] ^= 0x10
    part.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"vec-00001-00000\.npy.*checksum"):
        load_run(run)
    said = resume(corpus, encoder, run)
    assert any(str(part) in message for message in said), said
    occurrences, vectors = load_run(run)
    pd.testing.assert_frame_equal(occurrences, reference[0])
    np.testing.assert_array_equal(np.asarray(vectors), reference[1])


@pytest.mark.slow
def test_random_damage_never_gives_a_complete_run_with_missing_or_non_finite_rows(corpus, encoder, reference, tmp_path,
                                                                                  interrupted):  # fmt: skip
    """Several files of several kinds damaged at once, seeded: resumed, the run equals the clean one."""
    rng = random.Random(26)
    for attempt in range(3):
        run = interrupted(tmp_path / f"run{attempt}", rng.choice(STOPS))
        files = sorted(p for p in (run / "parts").iterdir() if not p.name.startswith("."))
        for target in rng.sample(files, k=min(4, len(files))):
            damage(target, rng.choice(DAMAGES), rng)
        resume(corpus, encoder, run)
        assert_same_run(run, reference)


def test_non_finite_vectors_are_never_stored(corpus, encoder, tmp_path, monkeypatch):
    original = RunStore.write_vectors_part

    def nan_vectors(self, part, vectors):
        vectors = np.array(vectors, dtype=np.float32)
        vectors[0, 0] = np.nan
        original(self, part, vectors)

    monkeypatch.setattr(RunStore, "write_vectors_part", nan_vectors)
    with pytest.raises(ModelError, match="NaN or infinite"):
        embed_corpus(corpus, TARGETS, tmp_path / "run", encoder=encoder, **OPTIONS)
    assert not list((tmp_path / "run" / "parts").glob("vec-*.npy"))


def test_a_missing_shard_is_never_finished_as_complete(tmp_path, interrupted):
    """finish() takes the parts the markers list: a shard without its marker is an error, not fewer rows."""
    run = interrupted(tmp_path / "run", FIRST_SHARD_DONE)
    store = RunStore.open(run)
    with pytest.raises(InputError, match="is not done"):
        store.finish({})
    assert json.loads((run / "meta.json").read_text())["status"] == "running"


# ------------------------------------------------------------------------------------------------ senses folder
@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("name", ["labels.parquet", "senses.parquet"])
def test_a_damaged_senses_table_is_named_before_change_uses_it(clean_run, tmp_path, name, how):
    """``wsd change`` reads a senses folder's tables: a damaged one is one clear error naming it, whether or
    not the damage leaves it readable (a flipped bit in a value)."""
    from wsd.change.stage import read_labels, sense_cards
    from wsd.senses.stage import cluster_run

    run = Path(shutil.copytree(clean_run, tmp_path / "run"))
    senses = cluster_run(run, tmp_path / "senses")
    occurrences, _ = load_run(run)
    assert len(read_labels(senses, occurrences)) == len(occurrences) and sense_cards(senses) is not None
    damage(senses / name, how, random.Random(f"{name}-{how}"))
    with pytest.raises(InputError, match=rf"{re.escape(str(senses / name))}: .*wsd cluster"):
        read_labels(senses, occurrences)
        sense_cards(senses)


def test_parts_left_over_by_a_cut_short_consolidation_are_removed_quietly(clean_run, tmp_path, interrupted, encoder,
                                                                          corpus, reference):  # fmt: skip
    """Killed while ``parts/`` was being removed after the run was complete: resuming keeps the run as it is."""
    run = Path(shutil.copytree(clean_run, tmp_path / "run"))
    leftover = interrupted(tmp_path / "other", FIRST_SHARD_DONE) / "parts"
    shutil.copytree(leftover, run / "parts")
    for path in (run / "parts").iterdir():  # as the run itself wrote them: its manifest lists them
        record(path)
    (run / "parts" / "vec-00000-00000.npy").unlink()
    (run / "parts" / "mine.txt").write_text("the user's")
    said = resume(corpus, encoder, run)
    assert len(said) == 1 and "mine.txt" in said[0] and "wsd did not write" in said[0]
    assert sorted(path.name for path in (run / "parts").iterdir()) == ["mine.txt"]  # only wsd's parts removed
    (run / "parts" / "mine.txt").unlink()
    (run / "parts").rmdir()
    assert not (run / "parts").exists()
    assert_same_run(run, reference)
