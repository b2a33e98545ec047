"""Adversarial state below the CLI: atomic writes that fail, the vector cache, the output decision, spectral seeds."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.embed.cache import embed_cached
from wsd.io.atomic import WriteFailed, atomic_write
from wsd.io.outputs import OutputRefused, claim_folder, differences, inspect
from wsd.io.run_store import write_run
from wsd.io.writers import write_array, write_json
from wsd.senses.clusterers import SpectralClusterer


def _leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".tmp-" in p.name]


# ---------------------------------------------------------------------------------------------- atomic writes
@pytest.mark.parametrize(
    "error", [OSError(errno.ENOSPC, "No space left on device"), RuntimeError("boom"), KeyboardInterrupt()]
)
def test_a_failed_write_leaves_no_temporary_and_the_old_file(tmp_path: Path, error: BaseException) -> None:
    target = tmp_path / "x.json"
    write_json(target, {"old": True})

    def half_then_fail(tmp: Path) -> None:
        tmp.write_text('{"new": ', encoding="utf-8")
        raise error

    with pytest.raises(WriteFailed if isinstance(error, OSError) else type(error)) as caught:
        atomic_write(target, half_then_fail)
    if isinstance(error, OSError):
        assert "No space left on device" in str(caught.value) and str(target) in str(caught.value)
    assert json.loads(target.read_text(encoding="utf-8")) == {"old": True}
    assert not _leftovers(tmp_path)


def test_an_array_write_that_fails_half_way_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    def failing(handle, array, allow_pickle):
        handle.write(b"\x93NUMPY half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(np.lib.format, "write_array", failing)
    with pytest.raises(WriteFailed):
        write_array(tmp_path / "v.npy", np.zeros(3))
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------- vector cache
class CountingEncoder:
    """The two methods of an encoder that the cache calls; counts the passes."""

    def __init__(self) -> None:
        self.passes = 0

    def identity(self, layers, pooling):
        class Identity:
            def embedding_meta(self):
                return {"model": "fake", "layers": layers, "pooling": pooling, "dim": 4}

        return Identity()

    def embed_configs(self, texts, spans, configs, progress=False):
        self.passes += 1
        return [np.arange(len(texts) * 4, dtype=np.float32).reshape(len(texts), 4) for _ in configs]


def _occurrences() -> pd.DataFrame:
    return pd.DataFrame({"id": ["a", "b", "c"], "text": ["x y", "y z", "z x"], "start": [0, 0, 0], "end": [1, 1, 1]})


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(p.read_bytes()[:60]),  # truncated
        lambda p: np.save(p, np.zeros((2, 4), np.float32)),  # wrong row count
        lambda p: np.save(p, np.array([{"a": 1}] * 3, dtype=object), allow_pickle=True),  # object dtype
        lambda p: np.save(p, np.full((3, 4), np.nan, np.float32)),  # not finite
        lambda p: p.write_text("not an array"),
    ],
    ids=["truncated", "rows", "object", "nan", "text"],
)
def test_a_damaged_cache_entry_is_recomputed_with_a_warning(tmp_path: Path, damage) -> None:
    encoder, occurrences = CountingEncoder(), _occurrences()
    (first,) = embed_cached(encoder, occurrences, [("last", "mean")], cache_dir=tmp_path)
    (entry,) = tmp_path.glob("*.npy")
    damage(entry)
    with pytest.warns(UserWarning, match="damaged vector cache entry"):
        (again,) = embed_cached(encoder, occurrences, [("last", "mean")], cache_dir=tmp_path)
    np.testing.assert_array_equal(again, first)
    assert encoder.passes == 2
    embed_cached(encoder, occurrences, [("last", "mean")], cache_dir=tmp_path)  # repaired: read, not computed
    assert encoder.passes == 2


def test_a_cache_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.write_text("mine")
    with pytest.raises(OutputRefused, match="--cache-dir"):
        embed_cached(CountingEncoder(), _occurrences(), [("last", "mean")], cache_dir=cache)
    assert cache.read_text() == "mine"


def test_a_cache_that_cannot_be_written_warns_and_still_returns_the_vectors(tmp_path: Path, monkeypatch) -> None:
    import wsd.embed.cache

    def full(path, array):
        raise WriteFailed(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(wsd.embed.cache, "write_array", full)
    with pytest.warns(UserWarning, match="vector cache not written"):
        (vectors,) = embed_cached(CountingEncoder(), _occurrences(), [("last", "mean")], cache_dir=tmp_path)
    assert vectors.shape == (3, 4)


# ---------------------------------------------------------------------------------------------- the decision
def _run(path: Path, config: dict) -> Path:
    frame = pd.DataFrame({"id": ["a"], "target": ["t"], "text": ["t"], "start": [0], "end": [1]})
    return write_run(path, frame, np.zeros((1, 2)), {"config": config})


def test_inspect_tells_the_kinds_apart(tmp_path: Path) -> None:
    assert inspect(tmp_path / "none").kind == "absent"
    (tmp_path / "empty").mkdir()
    assert inspect(tmp_path / "empty").kind == "empty"
    (tmp_path / "file").write_text("x")
    assert inspect(tmp_path / "file").kind == "file"
    assert inspect(_run(tmp_path / "run", {"a": 1})).kind == "run"
    (tmp_path / "run" / "notes.txt").write_text("mine")
    assert inspect(tmp_path / "run").kind == "run"  # a file of the user's in a wsd folder: still wsd's folder
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "meta.json").write_text('{"format": "wsd-run/1"}')
    assert inspect(tmp_path / "mine").kind == "old"  # wsd's names, no manifest: never wsd's
    (tmp_path / "mine" / "meta.json").write_text('{"my": "notes"}')
    assert inspect(tmp_path / "mine").kind == "other"


def test_claim_names_the_setting_and_overwrite_replaces_only_wsd_files(tmp_path: Path) -> None:
    run = _run(tmp_path / "run", {"scan": {"targets": ["bank"]}, "chunk": 8})
    assert claim_folder(run, "run", config={"scan": {"targets": ["bank"]}, "chunk": 8}) == "reuse"
    with pytest.raises(OutputRefused, match=r"scan\.targets: \[\"bank\"\] → \[\"mouse\"\]"):
        claim_folder(run, "run", config={"scan": {"targets": ["mouse"]}, "chunk": 8})
    (run / "predicted.parquet").write_bytes(b"the user's, under a name of wsd's")
    with pytest.raises(OutputRefused, match=r"predicted\.parquet \(not written by wsd\)"):
        claim_folder(run, "run", config={"scan": {"targets": ["mouse"]}}, overwrite=True)
    assert (run / "predicted.parquet").read_bytes() == b"the user's, under a name of wsd's"
    (run / "predicted.parquet").unlink()
    assert claim_folder(run, "run", config={"scan": {"targets": ["mouse"]}}, overwrite=True) == "create"
    assert [p.name for p in run.iterdir()] == ["wsd-manifest.jsonl"]


def test_differences_of_nested_settings() -> None:
    assert list(differences({"a": {"b": (1, 2)}, "c": 1}, {"a": {"b": [1, 2]}, "c": 1})) == []
    assert list(differences({"a": 1}, {"a": 1, "b": None})) == []
    assert list(differences({"a": {"b": 1}}, {"a": {"b": 2}})) == ["a.b: 1 → 2"]


# ---------------------------------------------------------------------------------------------- spectral seeds
def test_spectral_labels_are_the_same_for_a_fixed_seed() -> None:
    rng = np.random.default_rng(7)
    centres = rng.normal(size=(6, 12)) * 30  # far apart: a disconnected neighbour graph (degenerate eigenspace)
    X = np.concatenate([c + rng.normal(size=(10, 12)) for c in centres])
    runs = {tuple(SpectralClusterer(n_clusters=3, n_neighbors=4, random_state=5).fit(X).labels_) for _ in range(4)}
    assert len(runs) == 1
    shared = [
        tuple(SpectralClusterer(n_clusters=3, random_state=np.random.RandomState(5)).fit(X).labels_) for _ in range(2)
    ]
    assert shared[0] == shared[1]  # a RandomState gives the same seed when it is in the same state


# -------------------------------------------------------------------------------- NaN never becomes a sense
def _table(targets: list[str]) -> pd.DataFrame:
    """A minimal occurrence table of ``targets``."""
    return pd.DataFrame(
        {
            "id": [f"i{n}" for n in range(len(targets))],
            "target": targets,
            "form": targets,
            "text": targets,
            "start": 0,
            "end": [len(t) for t in targets],
            "doc_id": "d",
            "doc_start": 0,
        }
    )


def test_nan_vectors_are_refused_at_predict_naming_the_target() -> None:
    from wsd.errors import InputError
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.model import SenseModel

    rng = np.random.default_rng(0)
    occurrences = _table(["bank"] * 10 + ["mouse"] * 10)
    X = rng.normal(size=(20, 4))
    model = SenseModel(SenseInducer(method="kmeans", k=2, random_state=0)).fit(occurrences, X)
    X[13, 2] = np.nan
    with pytest.raises(InputError, match="target 'mouse'"):
        model.predict(occurrences, X)
    with pytest.raises(InputError, match="NaN"):
        model.predict_proba(occurrences, X)


def test_a_saved_model_with_nan_centres_does_not_load(tmp_path: Path) -> None:
    from wsd.errors import InputError
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.model import SenseModel

    rng = np.random.default_rng(0)
    occurrences = _table(["bank"] * 10)
    SenseModel(SenseInducer(method="kmeans", k=2, random_state=0)).fit(occurrences, rng.normal(size=(10, 4))).save(
        tmp_path / "model"
    )
    np.save(tmp_path / "model" / "senses" / "00000" / "cluster_centers.npy", np.full((2, 4), np.nan))
    with pytest.raises(InputError, match=r"cluster_centers\.npy: holds NaN"):
        SenseModel.load(tmp_path / "model")


def test_spectral_senses_of_a_run_are_the_same_twice(tmp_path: Path) -> None:
    from helpers import synthetic_run

    from wsd.senses.inducer import SenseInducer
    from wsd.senses.stage import cluster_run

    run = synthetic_run(tmp_path / "run", per_target=30)
    tables = [
        pd.read_parquet(
            cluster_run(run, tmp_path / f"s{n}", inducer=SenseInducer(method="spectral", k=3, random_state=1))
            / "labels.parquet"
        )
        for n in range(2)
    ]
    pd.testing.assert_frame_equal(tables[0], tables[1])
