"""Change scores at corpus scale: slices read from the memory-mapped run in blocks, each slice summarised once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import wsd.change.compare as compare_module
import wsd.change.measures as measures
from wsd.change import compare_slices
from wsd.change.measures import apd, prt, summarise_slice
from wsd.change.slices import assign_slices
from wsd.errors import InputError
from wsd.io.rows import select_rows
from wsd.io.run_reader import load_run
from wsd.io.run_store import write_run


@pytest.fixture(scope="module")
def dated_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = np.random.RandomState(0)
    n = 2000
    year = rng.randint(1800, 2000, n)
    X = (rng.randn(n, 12) + (year[:, None] > 1900) * np.eye(1, 12)).astype(np.float16)
    occurrences = pd.DataFrame(
        {
            "id": [f"d{i}:0" for i in range(n)],
            "target": rng.choice(["bank", "cell"], n),
            "form": "bank",
            "text": "bank",
            "start": 0,
            "end": 4,
            "doc_id": [f"d{i}" for i in range(n)],
            "doc_start": 0,
            "year": year,
        }
    )
    return write_run(tmp_path_factory.mktemp("dated") / "run", occurrences, X, {"embedding": {"dim": 12}})


def test_a_mapped_run_scores_like_its_vectors_in_memory_with_each_slice_read_once(dated_run: Path, monkeypatch):
    occurrences, X = load_run(dated_run)
    labels = (np.asarray(X)[:, 0] > 0.5).astype(np.int64)
    bins = "1800:1849,1850:1899,1900:1949,1950:1999"
    expected = compare_slices(occurrences, labels=labels, X=np.array(X, dtype=np.float64), by="year", bins=bins)
    calls: list[int] = []

    def counted(vectors, name="slice"):
        calls.append(len(vectors))
        return summarise_slice(vectors, name)

    monkeypatch.setattr(compare_module, "summarise_slice", counted)
    monkeypatch.setattr(measures, "_CHUNK_ROWS", 16)
    mapped = compare_slices(occurrences, labels=labels, X=X, by="year", bins=bins)
    assert len(calls) == 2 * 4  # two targets × four slices, though each slice is in two of the four pairs
    pd.testing.assert_frame_equal(
        mapped.scores.drop(columns=["apd", "prt"]), expected.scores.drop(columns=["apd", "prt"])
    )
    np.testing.assert_allclose(mapped.scores[["apd", "prt"]], expected.scores[["apd", "prt"]], rtol=0, atol=1e-12)


def test_a_slice_summary_reads_a_mapped_slice_in_blocks_and_names_a_zero_vector(dated_run: Path, monkeypatch):
    _, X = load_run(dated_run)
    rows = np.arange(0, 2000, 3)
    monkeypatch.setattr(measures, "_CHUNK_ROWS", 50)
    summary = summarise_slice(select_rows(X, rows), "1850")
    in_memory = np.asarray(X, dtype=np.float64)[rows]
    np.testing.assert_allclose(summary.mean, in_memory.mean(axis=0), rtol=0, atol=1e-12)
    unit = in_memory / np.linalg.norm(in_memory, axis=1, keepdims=True)
    np.testing.assert_allclose(summary.unit_mean, unit.mean(axis=0), rtol=0, atol=1e-12)
    assert apd(summary, summary) == pytest.approx(apd(in_memory, in_memory), abs=1e-12)
    assert prt(summary, in_memory[:10]) == pytest.approx(prt(in_memory, in_memory[:10]), abs=1e-12)
    zero = in_memory.copy()
    zero[-1] = 0.0
    assert summarise_slice(zero).unit_mean is None
    with pytest.raises(InputError, match="slice B: a vector is zero"):
        apd(in_memory, zero)
    assert np.isfinite(prt(in_memory, zero))  # the prototype needs no unit vector


def test_numeric_slices_of_a_million_rows_are_read_value_by_value() -> None:
    years = pd.Series(np.repeat([1850, 1900, 1950], 400_000))
    slices = assign_slices(pd.DataFrame({"year": years}), "year", "1800:1899,1900:1999")
    assert slices.order == ["1800:1899", "1900:1999"]
    assert slices.labels.value_counts().to_dict() == {"1900:1999": 800_000, "1800:1899": 400_000}
    text = pd.DataFrame({"year": pd.Series(["1850", None, "1950.0", "x"] * 3, dtype=object)})
    with pytest.raises(InputError, match=r"value 'x' is not a number.*3 such values"), pytest.warns(UserWarning):
        assign_slices(text, "year", "1800:1899,1900:1999")
    with pytest.warns(UserWarning, match="1 of 3 occurrences have no 'year' value"):
        whole = assign_slices(pd.DataFrame({"year": [1850.0, np.nan, 1950.0]}), "year")
    assert whole.labels.tolist() == ["1850", None, "1950"]
