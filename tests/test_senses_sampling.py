"""Very frequent words: the sampled fit above max_fit_samples, the unchanged exact fit below it, bounded memory."""

from __future__ import annotations

import pickle
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import AgglomerativeClustering
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

from wsd.errors import ConfigError
from wsd.io.rows import MappedRows, rows_of, select_rows
from wsd.senses import SenseInducer, SenseModel
from wsd.senses.clusterers import WardClusterer
from wsd.senses.recipes import recipe
from wsd.senses.sampling import DEFAULT_MAX_FIT_SAMPLES, sample_rows, uses_sample


@pytest.fixture(scope="module")
def blobs() -> tuple[np.ndarray, np.ndarray]:
    X, y = make_blobs(30_000, centers=[[0.0] * 8, [4.0] * 8, [0.0] * 4 + [4.0] * 4], cluster_std=1.0, random_state=0)
    return X, y


def test_a_large_word_is_fitted_on_a_sample_and_every_row_gets_a_sense(blobs) -> None:
    X, y = blobs
    model = SenseInducer(method="ward", max_fit_samples=1000, random_state=0).fit(X)
    assert model.n_fit_samples_ == 1000
    assert model.labels_.shape == (len(X),) and model.labels_.min() >= 0
    assert model.n_senses_ == 3
    assert adjusted_rand_score(y, model.labels_) > 0.95
    np.testing.assert_array_equal(model.predict(X), model.labels_)
    sizes = np.bincount(model.labels_)
    assert (np.diff(sizes) <= 0).all()  # senses numbered by their size over all rows


def test_the_sampled_fit_is_deterministic_for_a_seed_and_follows_the_seed(blobs) -> None:
    X, _ = blobs
    first = SenseInducer(method="kmeans", max_fit_samples=800, random_state=3).fit(X)
    again = SenseInducer(method="kmeans", max_fit_samples=800, random_state=3).fit(X)
    np.testing.assert_array_equal(first.labels_, again.labels_)
    assert first.cluster_centers_.tobytes() == again.cluster_centers_.tobytes()
    assert not np.array_equal(sample_rows(len(X), 800, 3), sample_rows(len(X), 800, 4))


def test_the_sampled_fit_agrees_with_the_exact_fit(blobs) -> None:
    X, _ = blobs
    X = X[:3000]  # the exact Ward tree grows with the square of the rows: 3,000 (a quarter sampled) is plenty
    exact = SenseInducer(method="ward", max_fit_samples=None).fit(X)
    sampled = SenseInducer(method="ward", max_fit_samples=750).fit(X)
    assert exact.n_fit_samples_ == 3000 and sampled.n_fit_samples_ == 750
    assert adjusted_rand_score(exact.labels_, sampled.labels_) >= 0.95


def test_below_the_threshold_nothing_changes() -> None:
    X, _ = make_blobs(400, centers=4, n_features=6, random_state=1)
    forms = np.where(np.arange(400) % 3 == 0, "mice", "mouse")
    reference = SenseInducer(**recipe("default"), max_fit_samples=None).fit(X, forms=forms)
    for threshold in (DEFAULT_MAX_FIT_SAMPLES, 400):  # the default, and exactly n (not above it: exact)
        model = SenseInducer(**recipe("default"), max_fit_samples=threshold).fit(X, forms=forms)
        np.testing.assert_array_equal(model.labels_, reference.labels_)
        assert model.cluster_centers_.tobytes() == reference.cluster_centers_.tobytes()
        assert model.predict_proba(X, forms).tobytes() == reference.predict_proba(X, forms).tobytes()
        assert model.n_fit_samples_ == 400


@pytest.mark.parametrize(
    "params",
    [
        {"method": "kmeans"},
        {"method": "agglomerative"},
        {"method": "gmm", "selection": "bic", "k_range": (1, 4)},
        {"method": "spectral", "k": 3},
        {"method": "hdbscan", "selection": "native", "noise": "keep", "hdbscan_min_cluster_size": 10},
        {"method": "random", "k": 3},
        {"method": "one-sense"},
        {"method": "ward", "pca": 4, "center": True, "center_forms": 0.5},
    ],
    ids=lambda p: p["method"] + ("-pca" if "pca" in p else ""),
)
def test_every_method_works_on_a_sample(params, blobs) -> None:
    X, _ = blobs
    X = X[:4000]
    forms = np.where(np.arange(len(X)) % 2 == 0, "a", "b")
    model = SenseInducer(**params, max_fit_samples=400).fit(X, forms=forms)
    assert model.labels_.shape == (len(X),)
    predicted = model.predict(X, forms)
    assigned = model.labels_ >= 0
    np.testing.assert_array_equal(predicted[assigned], model.labels_[assigned])
    assert set(np.unique(model.labels_[assigned])) == set(range(model.n_senses_))
    proba = model.predict_proba(X, forms)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    if params.get("noise") == "keep":
        assert 0 < (~assigned).mean() < 0.5  # noise flags spread from the sample to the other rows


def test_one_per_instance_is_refused_above_the_threshold() -> None:
    with pytest.raises(ConfigError, match="max_fit_samples"):
        SenseInducer(method="one-per-instance", max_fit_samples=10).fit(np.random.RandomState(0).randn(50, 3))


@pytest.mark.parametrize("bad", [1, 0, -5, 2.5, "many", True])
def test_max_fit_samples_is_validated(bad) -> None:
    with pytest.raises(ConfigError, match="max_fit_samples"):
        SenseInducer(max_fit_samples=bad).fit(np.zeros((5, 2)))


def test_max_fit_samples_is_keyword_only_and_a_parameter() -> None:
    with pytest.raises(TypeError):
        SenseInducer("kmeans", "auto")  # type: ignore[misc]
    assert SenseInducer().get_params()["max_fit_samples"] == DEFAULT_MAX_FIT_SAMPLES
    assert uses_sample(np.zeros((11, 2)), 10) and not uses_sample(np.zeros((10, 2)), 10)


def test_a_sampled_model_saves_and_loads(tmp_path: Path, blobs) -> None:
    X, _ = blobs
    X = X[:3000]
    occurrences = pd.DataFrame(
        {
            "id": [f"d:{i}" for i in range(len(X))],
            "target": "bank",
            "form": "bank",
            "text": "the bank",
            "start": 4,
            "end": 8,
            "doc_id": "d",
            "doc_start": 0,
        }
    )
    model = SenseModel(SenseInducer(method="ward", max_fit_samples=500)).fit(occurrences, X)
    loaded = SenseModel.load(model.save(tmp_path / "model"))
    assert loaded.inducers_["bank"].n_fit_samples_ == 500
    assert loaded.inducer.max_fit_samples == 500
    np.testing.assert_array_equal(loaded.predict(occurrences, X), model.labels_)


def _peak_fit_bytes(path: Path, n: int, dim: int) -> tuple[int, SenseInducer]:
    rng = np.random.RandomState(0)
    mapped = np.lib.format.open_memmap(path, mode="w+", dtype=np.float16, shape=(n, dim))
    for start in range(0, n, 50_000):
        centres = np.where(rng.rand(50_000, 1) < 0.5, 0.0, 3.0)
        mapped[start : start + 50_000] = centres + rng.randn(50_000, dim)
    mapped.flush()
    del mapped
    X = np.load(path, mmap_mode="r")
    tracemalloc.start()
    model = SenseInducer(method="kmeans", k=2, max_fit_samples=1000, n_init=1).fit(X)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, model


def test_a_memory_mapped_word_is_fitted_in_bounded_memory(tmp_path: Path) -> None:
    dim = 32
    small, _ = _peak_fit_bytes(tmp_path / "small.npy", 150_000, dim)
    large, model = _peak_fit_bytes(tmp_path / "large.npy", 300_000, dim)
    growth = (large - small) / 150_000  # bytes per extra row: labels and the sample draw, not the vectors
    assert growth < 0.15 * dim * 8, f"{growth:.0f} bytes per row (a float64 copy of the word: {dim * 8})"
    assert large < 300_000 * dim * 8  # less than one float64 copy of the word
    assert np.bincount(model.labels_).min() > 0.4 * 300_000


def test_memory_mapped_rows_travel_by_reference(tmp_path: Path) -> None:
    np.save(tmp_path / "v.npy", np.arange(40, dtype=np.float16).reshape(20, 2))
    X = np.load(tmp_path / "v.npy", mmap_mode="r")
    rows = np.array([3, 7, 19])
    reference = select_rows(X, rows)
    assert isinstance(reference, MappedRows) and len(pickle.dumps(reference)) < 1000
    np.testing.assert_array_equal(rows_of(pickle.loads(pickle.dumps(reference))), np.asarray(X)[rows])
    assert isinstance(select_rows(X[2:], rows - 2), np.ndarray)  # a view is copied, not referenced wrongly
    assert isinstance(select_rows(np.asarray(X), rows), np.ndarray)


def test_the_ward_tree_is_cut_like_agglomerative_clustering() -> None:
    rng = np.random.RandomState(0)
    for n in (3, 17, 120):
        X = np.round(rng.randn(n, 4), 1)  # rounding makes ties
        for k in range(1, min(n, 8)):
            expected = AgglomerativeClustering(n_clusters=k, linkage="ward").fit_predict(X)
            np.testing.assert_array_equal(WardClusterer(n_clusters=k).fit(X).labels_, expected)


def test_max_fit_samples_is_a_setting_of_the_senses_commands() -> None:
    from wsd.config import resolve_config
    from wsd.options import SenseOptions

    assert SenseOptions.from_config(resolve_config("cluster")).params()["max_fit_samples"] == DEFAULT_MAX_FIT_SAMPLES
    config = resolve_config("cluster", overrides=["senses.max_fit_samples=1000"])
    assert SenseOptions.from_config(config).params()["max_fit_samples"] == 1000
    with pytest.raises(ConfigError, match="max_fit_samples"):
        resolve_config("cluster", overrides=["senses.max_fit_samples=1"])


def test_a_reference_to_a_missing_vector_file_is_a_clear_error(tmp_path: Path) -> None:
    from wsd.errors import InputError

    reference = MappedRows(str(tmp_path / "gone.npy"), 128, "<f2", (4, 2), np.array([0]))
    with pytest.raises(InputError, match=r"gone\.npy"):
        reference.load()
