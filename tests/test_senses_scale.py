"""The senses stage at corpus scale: memory-mapped rows read in short-lived blocks, chunked paths = one-shot paths."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import wsd.senses.describe as describe
import wsd.senses.inducer as inducer_module
import wsd.senses.model as model_module
import wsd.senses.sampling as sampling
from wsd.io.rows import MappedRows, row_source, select_rows
from wsd.io.run_reader import load_run
from wsd.io.run_store import write_run
from wsd.io.writers import write_parquet
from wsd.senses import SenseInducer, SenseModel, describe_senses
from wsd.senses.recipes import recipe
from wsd.senses.stage import cluster_run, label_table

WORDS = ("river water fishing", "loan money account", "field crop harvest")


def _word(n: int, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """``n`` occurrences of one target in three separable senses, each with its own context words."""
    rng = np.random.RandomState(seed)
    senses = rng.randint(0, 3, n)
    centres = np.eye(3, 16) * 4.0
    X = (centres[senses] + rng.randn(n, 16)).astype(np.float16)
    forms = np.where(rng.rand(n) < 0.3, "banks", "bank")
    text = [f"the {form} {WORDS[s]} here" for form, s in zip(forms, senses, strict=True)]
    occurrences = pd.DataFrame(
        {
            "id": [f"d{i}:4" for i in range(n)],
            "target": "bank",
            "form": forms,
            "text": text,
            "start": 4,
            "end": 4 + np.char.str_len(forms.astype(str)),
            "doc_id": [f"d{i}" for i in range(n)],
            "doc_start": 0,
        }
    )
    return occurrences, X


@pytest.fixture(scope="module")
def mapped_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    occurrences, X = _word(3000)
    return write_run(tmp_path_factory.mktemp("scale") / "run", occurrences, X, {"embedding": {"dim": 16}})


def test_mapped_rows_read_like_the_array_they_refer_to(mapped_run: Path) -> None:
    _, X = load_run(mapped_run)
    array = np.asarray(X)
    rows = np.array([5, 6, 7, 8, 100, 3, 2999])
    reference = select_rows(X, rows)
    assert reference.shape == (7, 16) and len(reference) == 7
    np.testing.assert_array_equal(reference[1:4], array[[6, 7, 8]])  # consecutive rows: one contiguous read
    np.testing.assert_array_equal(reference[np.array([4, 0])], array[[100, 5]])
    np.testing.assert_array_equal(np.asarray(reference, dtype=np.float64), array[rows].astype(np.float64))
    np.testing.assert_array_equal(reference.subset(np.array([6, 0])).load(), array[[2999, 5]])
    whole = row_source(X)
    assert isinstance(whole, MappedRows) and whole.shape == X.shape
    np.testing.assert_array_equal(whole[10:20], array[10:20])
    np.testing.assert_array_equal(whole.subset(rows).load(), array[rows])
    assert row_source(array) is array  # an in-memory matrix is read as it is


def _rss_file_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssFile:"):
            return int(line.split()[1])
    raise AssertionError("no RssFile line")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads resident memory from /proc (Linux)")
def test_a_pass_over_mapped_rows_leaves_no_pages_resident(tmp_path: Path) -> None:
    path = tmp_path / "v.npy"
    mapped = np.lib.format.open_memmap(path, mode="w+", dtype=np.float16, shape=(65_536, 256))  # 32 MiB
    mapped[:] = 1.0
    mapped.flush()
    del mapped
    X = np.load(path, mmap_mode="r")
    before = _rss_file_kib()
    source = row_source(X)
    total = sum(float(source[start : start + 4096].sum(dtype=np.float64)) for start in range(0, len(X), 4096))
    through_references = _rss_file_kib() - before
    total_kept = sum(float(X[start : start + 4096].sum(dtype=np.float64)) for start in range(0, len(X), 4096))
    kept = _rss_file_kib() - before
    assert total == total_kept == 65_536 * 256
    assert kept > 24 * 1024, f"the plain map should keep its pages ({kept} KiB): the measure does not work here"
    assert through_references < 8 * 1024, f"{through_references} KiB stayed resident after reading by reference"


def test_a_large_target_is_fitted_from_its_reference_with_the_same_senses(mapped_run: Path) -> None:
    occurrences, X = load_run(mapped_run)
    params = recipe("default") | {"max_fit_samples": 500}
    forms = occurrences["form"].to_numpy()
    in_memory = SenseInducer(**params).fit(np.asarray(X), forms=forms)
    task = ("bank", SenseInducer(**params), select_rows(X, np.arange(len(X))), forms)
    by_reference = model_module.fit_target(task)
    np.testing.assert_array_equal(by_reference.labels_, in_memory.labels_)
    np.testing.assert_array_equal(by_reference.cluster_centers_, in_memory.cluster_centers_)


def test_tiny_chunks_give_the_labels_and_memberships_of_one_chunk(mapped_run: Path, monkeypatch) -> None:
    occurrences, X = load_run(mapped_run)
    forms = occurrences["form"].to_numpy()
    params = recipe("default") | {"max_fit_samples": 400}
    whole = SenseInducer(**params).fit(np.asarray(X), forms=forms)  # 3,000 rows: one chunk
    expected = whole.predict_proba(np.asarray(X), forms)
    monkeypatch.setattr(sampling, "CHUNK_ROWS", 7)
    monkeypatch.setattr(inducer_module, "CHUNKED_ABOVE", 10)  # predict_proba goes chunk by chunk too
    chunked = SenseInducer(**params).fit(X, forms=forms)
    np.testing.assert_array_equal(chunked.labels_, whole.labels_)
    np.testing.assert_allclose(chunked.predict_proba(X, forms), expected, rtol=0, atol=1e-12)


def test_a_model_predicts_a_large_mapped_target_block_by_block(mapped_run: Path, monkeypatch) -> None:
    occurrences, X = load_run(mapped_run)
    model = SenseModel(SenseInducer(**recipe("default"))).fit(occurrences, X)
    expected_proba = model.predict_proba(occurrences, np.asarray(X))
    expected_labels = model.predict(occurrences, np.asarray(X))
    monkeypatch.setattr(model_module, "CHUNKED_ABOVE", 100)
    monkeypatch.setattr(inducer_module, "CHUNKED_ABOVE", 100)
    monkeypatch.setattr(sampling, "CHUNK_ROWS", 256)
    np.testing.assert_allclose(model.predict_proba(occurrences, X), expected_proba, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(model.predict(occurrences, X), expected_labels)
    np.testing.assert_array_equal(expected_labels, model.labels_)


def _old_label_frame(occurrences: pd.DataFrame, labels: np.ndarray, proba: np.ndarray, n_senses: dict) -> pd.DataFrame:
    """The label table as a DataFrame with a Python list of memberships per row (how it was built before)."""
    targets = occurrences["target"].to_numpy()
    confidence = np.where(labels >= 0, proba[np.arange(len(labels)), np.maximum(labels, 0)], 0.0)
    return pd.DataFrame(
        {
            "id": occurrences["id"].to_numpy(),
            "target": targets,
            "sense": labels.astype(np.int64),
            "sense_id": [f"{t}.{s}" if s >= 0 else f"{t}.unassigned" for t, s in zip(targets, labels, strict=True)],
            "confidence": confidence.astype(np.float64),
            "memberships": [proba[i, : n_senses.get(t, 0)].tolist() for i, t in enumerate(targets)],
        }
    )


def test_the_label_table_file_is_the_one_a_frame_of_lists_gives(tmp_path: Path) -> None:
    rng = np.random.RandomState(0)
    occurrences = pd.DataFrame({"id": [f"i{i}" for i in range(60)], "target": rng.choice(["bank", "mouse", "x"], 60)})
    labels = rng.randint(-1, 3, 60)
    proba = rng.rand(60, 3)
    n_senses = {"bank": 3, "mouse": 2}  # "x": unknown to the model, no memberships
    table = label_table(occurrences, labels, proba, n_senses)
    assert isinstance(table, pa.Table)
    write_parquet(tmp_path / "new.parquet", table, mark="predicted")
    write_parquet(tmp_path / "old.parquet", _old_label_frame(occurrences, labels, proba, n_senses), mark="predicted")
    assert (tmp_path / "new.parquet").read_bytes() == (tmp_path / "old.parquet").read_bytes()
    empty = label_table(occurrences.iloc[:0], labels[:0], proba[:0], n_senses)
    assert empty.num_rows == 0 and "memberships" in empty.column_names


def test_sense_cards_counted_in_small_blocks_are_the_same(mapped_run: Path, monkeypatch) -> None:
    occurrences, X = load_run(mapped_run)
    labels = SenseModel(SenseInducer(**recipe("default"))).fit(occurrences, X).labels_
    expected = describe_senses(occurrences, np.asarray(X), labels)
    assert sorted(" ".join(sorted(words)) for words in expected["keywords"]) == sorted(
        " ".join(sorted(words.split())) for words in WORDS
    )  # each sense's keywords are its own context words
    monkeypatch.setattr(describe, "CONTEXT_BLOCK", 7)
    monkeypatch.setattr(describe, "CHUNKED_ABOVE", 10)  # the examples' centres go block by block too
    monkeypatch.setattr(describe, "CHUNK_ROWS", 64)
    blocks = describe_senses(occurrences, X, labels)
    pd.testing.assert_frame_equal(blocks.drop(columns=["example_ids", "examples"]), expected.drop(
        columns=["example_ids", "examples"]))  # fmt: skip
    assert [len(ids) for ids in blocks["example_ids"]] == [5, 5, 5]


def test_the_stage_writes_the_same_senses_through_the_chunked_paths(mapped_run: Path, tmp_path: Path, monkeypatch):
    inducer = SenseInducer(**recipe("default") | {"max_fit_samples": 500})
    first = cluster_run(mapped_run, out=tmp_path / "one", inducer=inducer)
    monkeypatch.setattr(sampling, "CHUNK_ROWS", 100)
    monkeypatch.setattr(model_module, "CHUNKED_ABOVE", 100)
    monkeypatch.setattr(inducer_module, "CHUNKED_ABOVE", 100)
    monkeypatch.setattr(describe, "CONTEXT_BLOCK", 100)
    second = cluster_run(mapped_run, out=tmp_path / "two", inducer=inducer)
    a, b = pd.read_parquet(first / "labels.parquet"), pd.read_parquet(second / "labels.parquet")
    pd.testing.assert_frame_equal(a.drop(columns="memberships"), b.drop(columns="memberships"))
    np.testing.assert_allclose(np.stack(a["memberships"]), np.stack(b["memberships"]), rtol=0, atol=1e-12)
    cards = [pd.read_parquet(folder / "senses.parquet") for folder in (first, second)]
    pd.testing.assert_frame_equal(cards[0].drop(columns="keyword_scores"), cards[1].drop(columns="keyword_scores"))
