"""SenseModel: per-target fitting, prediction, save/load as JSON + .npy, embedding identity checks."""

from __future__ import annotations

import json
import pickle
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs

from wsd.errors import InputError, ModelError
from wsd.io.layout import SENSE_MODEL_FILE as MODEL_FILE
from wsd.senses import SenseInducer, SenseModel

DIM = 16
META = {"model": "all-MiniLM-L6-v2", "layers": "-1", "pooling": "mean", "dim": DIM}


def _occurrences(targets: list[str]) -> pd.DataFrame:
    n = len(targets)
    return pd.DataFrame(
        {
            "id": [f"doc:{i}" for i in range(n)],
            "target": targets,
            "form": targets,
            "text": [f"a {t} here" for t in targets],
            "start": [2] * n,
            "end": [2 + len(t) for t in targets],
            "doc_id": ["doc"] * n,
            "doc_start": [0] * n,
        }
    )


@pytest.fixture(scope="module")
def corpus() -> tuple[pd.DataFrame, np.ndarray]:
    """Three targets interleaved in one table: bank (2 senses), mouse (3 senses), lone (1 occurrence)."""
    bank, _ = make_blobs(n_samples=40, centers=2, n_features=DIM, random_state=1)
    mouse, _ = make_blobs(n_samples=45, centers=3, n_features=DIM, random_state=2)
    lone = np.full((1, DIM), 0.5)
    rng = np.random.RandomState(0)
    rows = [("bank", v) for v in bank] + [("mouse", v) for v in mouse] + [("lone", lone[0])]
    order = rng.permutation(len(rows))
    targets = [rows[i][0] for i in order]
    X = np.vstack([rows[i][1] for i in order]).astype(np.float32)
    return _occurrences(targets), X


INDUCERS = {
    "kmeans-auto": SenseInducer(method="kmeans"),
    "agglomerative-pca": SenseInducer(method="agglomerative", center=True, normalize=True, pca=4),
    "gmm-bic-merge": SenseInducer(method="gmm", selection="bic", min_cluster_size=3),
    "gmm-full-whiten": SenseInducer(method="gmm", k=2, covariance_type="full", whiten=True, pca=3),
    "hdbscan": SenseInducer(method="hdbscan", selection="native", hdbscan_min_cluster_size=4),
    "spectral": SenseInducer(method="spectral", k=3, temperature=0.3),
    "random": SenseInducer(method="random", k=3),
    "one-per-instance": SenseInducer(method="one-per-instance"),
}


def test_fit_gives_row_aligned_labels_per_target(corpus) -> None:
    occurrences, X = corpus
    model = SenseModel(SenseInducer(method="kmeans"), embedding_meta=META).fit(occurrences, X)
    assert model.targets_ == list(dict.fromkeys(occurrences["target"]))
    assert model.labels_.shape == (len(occurrences),)
    for target in model.targets_:
        rows = np.flatnonzero(occurrences["target"] == target)
        np.testing.assert_array_equal(model.labels_[rows], model.inducers_[target].labels_)
    senses = model.summary().set_index("target")["n_senses"]
    assert senses.to_dict() == {"bank": 2, "mouse": 3, "lone": 1}
    assert model.inducers_["bank"] is not model.inducers_["mouse"]
    assert model.inducer.get_params() == SenseInducer(method="kmeans").get_params()  # template untouched


@pytest.mark.parametrize("name", sorted(INDUCERS))
def test_save_load_predict_reproduces_the_fitted_labels(name: str, corpus, tmp_path: Path) -> None:
    occurrences, X = corpus
    model = SenseModel(INDUCERS[name], embedding_meta=META).fit(occurrences, X)
    proba = model.predict_proba(occurrences, X)
    model.save(tmp_path / "senses")
    loaded = SenseModel.load(tmp_path / "senses")
    labels = loaded.predict(occurrences, X, embedding_meta=META)
    np.testing.assert_array_equal(labels, model.labels_)
    np.testing.assert_array_equal(loaded.labels_, model.labels_)
    assert loaded.predict_proba(occurrences, X).tobytes() == proba.tobytes()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(np.argmax(proba, axis=1), labels)
    assert loaded.embedding_meta_ == META
    assert loaded.inducer.get_params() == INDUCERS[name].get_params()


def test_saved_files_are_json_and_plain_npy_only(corpus, tmp_path: Path) -> None:
    occurrences, X = corpus
    SenseModel(SenseInducer(method="gmm", k=2), embedding_meta=META).fit(occurrences, X).save(tmp_path)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {p.suffix for p in files} == {".json", ".npy"}
    json.loads((tmp_path / MODEL_FILE).read_text(encoding="utf-8"))
    for path in files:
        if path.suffix == ".npy":
            array = np.load(path, allow_pickle=False)  # would raise on pickled object arrays
            assert array.dtype.kind in "biuf", path
            assert b"\x80\x04" not in path.read_bytes()[:128]  # no pickle protocol header


def test_a_different_embedding_is_refused_naming_the_field(corpus, tmp_path: Path) -> None:
    occurrences, X = corpus
    SenseModel(embedding_meta=META).fit(occurrences, X).save(tmp_path)
    loaded = SenseModel.load(tmp_path)
    with pytest.raises(ModelError, match="'layers'"):
        loaded.predict(occurrences, X, embedding_meta=META | {"layers": "-1,-2,-3,-4"})
    with pytest.raises(ModelError, match="'model'"):
        loaded.predict_proba(occurrences, X, embedding_meta=META | {"model": "xlm-roberta-base"})
    with pytest.raises(InputError, match="'dim'"):
        loaded.predict(occurrences, np.hstack([X, X]))
    with pytest.raises(ModelError, match="'dim'"):
        loaded.predict(occurrences, X, embedding_meta=META | {"dim": 768})
    loaded.predict(occurrences, X, embedding_meta=META | {"created": "today"})  # bookkeeping is not identity


def test_meta_dim_must_match_the_vectors_at_fit(corpus) -> None:
    occurrences, X = corpus
    with pytest.raises(InputError, match="dim=384"):
        SenseModel(embedding_meta=META | {"dim": 384}).fit(occurrences, X)
    with pytest.raises(InputError, match="row-aligned"):
        SenseModel().fit(occurrences, X[:-1])


def test_unknown_targets_fail_or_are_skipped_with_a_warning(corpus) -> None:
    occurrences, X = corpus
    model = SenseModel(SenseInducer(method="kmeans", k=2)).fit(occurrences, X)
    extra = pd.concat([occurrences.head(3), _occurrences(["zebra", "yak"])], ignore_index=True)
    extra_X = np.vstack([X[:3], X[:2]])
    with pytest.raises(InputError, match=r"2 target\(s\) unknown.*'zebra'"):
        model.predict(extra, extra_X)
    with pytest.warns(UserWarning, match="unknown to the sense model"):
        labels = model.predict(extra, extra_X, unknown="skip")
    np.testing.assert_array_equal(labels[:3], model.labels_[:3])
    assert labels[3:].tolist() == [-1, -1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        proba = model.predict_proba(extra, extra_X, unknown="skip")
    assert proba[3:].sum() == 0.0
    np.testing.assert_allclose(proba[:3].sum(axis=1), 1.0)


def test_load_rejects_missing_or_inconsistent_files(corpus, tmp_path: Path) -> None:
    occurrences, X = corpus
    with pytest.raises(InputError, match="not a saved sense model"):
        SenseModel.load(tmp_path / "nothing")
    SenseModel(SenseInducer(method="kmeans", k=2)).fit(occurrences, X).save(tmp_path)
    centers = next(tmp_path.rglob("cluster_centers.npy"))
    np.save(centers, np.zeros((5, 3)), allow_pickle=False)
    with pytest.raises(InputError, match="cluster_centers has shape"):
        SenseModel.load(tmp_path)
    centers.unlink()
    with pytest.raises(InputError, match=r"cannot read cluster_centers\.npy"):
        SenseModel.load(tmp_path)
    document = json.loads((tmp_path / MODEL_FILE).read_text(encoding="utf-8"))
    (tmp_path / MODEL_FILE).write_text(json.dumps(document | {"format_version": 99}), encoding="utf-8")
    with pytest.raises(InputError, match="version 99"):
        SenseModel.load(tmp_path)


def test_unfitted_model_says_so(corpus) -> None:
    occurrences, X = corpus
    with pytest.raises(ModelError, match="not fitted"):
        SenseModel().predict(occurrences, X)


def test_per_target_fits_can_be_mapped_elsewhere(corpus) -> None:
    occurrences, X = corpus
    calls = []

    def remote_map(func, items):  # simulates a cluster: function and items travel pickled
        calls.append(len(items))
        return [pickle.loads(pickle.dumps(func))(pickle.loads(pickle.dumps(item))) for item in items]

    inducer = SenseInducer(method="gmm", selection="bic")
    local = SenseModel(inducer).fit(occurrences, X)
    mapped = SenseModel(inducer).fit(occurrences, X, map_function=remote_map)
    assert calls == [3]
    np.testing.assert_array_equal(mapped.labels_, local.labels_)
    assert mapped.predict_proba(occurrences, X).tobytes() == local.predict_proba(occurrences, X).tobytes()


def test_errors_name_the_target(corpus) -> None:
    occurrences, X = corpus
    X = X.copy()
    X[np.flatnonzero(occurrences["target"] == "mouse")[0], 0] = np.nan
    with pytest.raises(InputError, match="target 'mouse'"):
        SenseModel().fit(occurrences, X)
