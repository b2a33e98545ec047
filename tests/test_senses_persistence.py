"""The on-disk sense model format: models saved by earlier versions load and predict the same; saving is unchanged.

``fixtures/senses_model_v1`` was written by the code before the senses were split into estimators (format
version 1): four models over three targets, with every assignment kind (Gaussian, random, centroid),
form centring, PCA/whitening and kept noise, plus the labels and memberships that code predicted.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.errors import InputError
from wsd.io.layout import SENSE_MODEL_FILE as MODEL_FILE
from wsd.senses import SenseInducer, SenseModel
from wsd.senses.persistence import preprocessor_arrays, read_sense_model, restore_preprocessor

FIXTURE = Path(__file__).parent / "fixtures" / "senses_model_v1"
#: The inducers the fixture models were fitted with (same parameters, same data).
INDUCERS = {
    "gmm_bic": SenseInducer(method="gmm", selection="bic", k_range=(1, 4), min_cluster_size=2),
    "random_pca_forms": SenseInducer(method="random", k=3, pca=3, center_forms=0.5, random_state=4),
    "kmeans_whiten_forms": SenseInducer(
        method="kmeans", center=True, normalize=True, whiten=True, pca=4, center_forms=1.0, temperature=0.3
    ),
    "hdbscan_keep": SenseInducer(method="hdbscan", selection="native", noise="keep", hdbscan_min_cluster_size=3),
}


@pytest.fixture(scope="module")
def table() -> tuple[pd.DataFrame, np.ndarray]:
    X = np.load(FIXTURE / "vectors.npy", allow_pickle=False)
    forms = np.load(FIXTURE / "forms.npy", allow_pickle=False)
    occurrences = pd.DataFrame(
        {
            "id": [f"d:{i}" for i in range(len(X))],
            "target": np.load(FIXTURE / "targets.npy", allow_pickle=False),
            "form": forms,
            "text": [f"a {f} here" for f in forms],
            "start": 2,
            "end": [2 + len(f) for f in forms],
            "doc_id": "d",
            "doc_start": 0,
        }
    )
    return occurrences, X


@pytest.mark.parametrize("name", sorted(INDUCERS))
def test_models_saved_by_the_previous_code_predict_the_same(name: str, table) -> None:
    occurrences, X = table
    model = SenseModel.load(FIXTURE / name)
    np.testing.assert_array_equal(model.labels_, np.load(FIXTURE / f"{name}.labels.npy"))
    np.testing.assert_array_equal(model.predict(occurrences, X), np.load(FIXTURE / f"{name}.predict.npy"))
    # memberships to the last bit but one: the fixture was written on an AVX-512 CPU (see FLOAT_RTOL)
    expected = np.load(FIXTURE / f"{name}.proba.npy")
    proba = model.predict_proba(occurrences, X)
    assert proba.dtype == expected.dtype and proba.shape == expected.shape
    np.testing.assert_allclose(proba, expected, rtol=FLOAT_RTOL, atol=0)


@pytest.mark.parametrize("name", sorted(INDUCERS))
def test_fitting_again_writes_the_same_files(name: str, table, tmp_path: Path) -> None:
    occurrences, X = table
    SenseModel(INDUCERS[name], embedding_meta={"dim": 5, "model": "fixture"}).fit(occurrences, X).save(tmp_path)
    old = json.loads((FIXTURE / name / MODEL_FILE).read_text(encoding="utf-8"))
    new = json.loads((tmp_path / MODEL_FILE).read_text(encoding="utf-8"))
    for param, default in ADDED_LATER.items():  # saved with their defaults; the fixture predates them
        assert new["inducer_params"].pop(param) == default
    for entry in new["targets"]:  # the forms each target was fitted on: added later, the fixture has none
        rows = (occurrences["target"] == entry["target"]).to_numpy()
        assert entry.pop("forms") == sorted(set(occurrences["form"][rows]))
    assert _same_up_to_rounding(new, old)
    _, old_targets = read_sense_model(FIXTURE / name)
    _, new_targets = read_sense_model(tmp_path)
    for before, after in zip(old_targets, new_targets, strict=True):
        assert sorted(before.arrays) == sorted(after.arrays)
        for key, array in before.arrays.items():
            assert after.arrays[key].dtype == array.dtype, key
            if array.dtype.kind == "f":
                np.testing.assert_allclose(after.arrays[key], array, rtol=FLOAT_RTOL, atol=1e-15, err_msg=key)
            else:
                np.testing.assert_array_equal(after.arrays[key], array, err_msg=key)
        np.testing.assert_array_equal(after.rows, before.rows)


def test_a_model_saved_before_forms_were_recorded_loads_with_none_and_saves_them_again(table, tmp_path) -> None:
    occurrences, X = table
    model = SenseModel.load(FIXTURE / "kmeans_whiten_forms")
    assert model.forms_ == {target: [] for target in model.targets_}
    fitted = SenseModel(INDUCERS["kmeans_whiten_forms"]).fit(occurrences, X)
    assert SenseModel.load(fitted.save(tmp_path)).forms_ == fitted.forms_
    assert set(fitted.forms_["mouse"]) == set(occurrences["form"][occurrences["target"] == "mouse"])


def test_forms_that_are_not_a_list_of_strings_are_refused(table, tmp_path) -> None:
    occurrences, X = table
    SenseModel(SenseInducer(k=2)).fit(occurrences, X).save(tmp_path)
    document = json.loads((tmp_path / MODEL_FILE).read_text(encoding="utf-8"))
    document["targets"][0]["forms"] = "mice"
    (tmp_path / MODEL_FILE).write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputError, match=r"targets\[0\]: forms must be a list of strings"):
        SenseModel.load(tmp_path)


#: Inducer parameters added after the fixture was written, and the default they are saved with.
ADDED_LATER: dict[str, object] = {"one_sense_below": None, "k_tie_margin": 0.0}
#: Fitting again on another CPU may round the last bit differently (BLAS and numpy pick SIMD kernels by
#: CPU: the fixture was written on an AVX-512 machine); every integer, label and name must still be equal.
FLOAT_RTOL = 1e-10


def _same_up_to_rounding(new: object, old: object) -> bool:
    """Equal JSON documents, floats compared to ``FLOAT_RTOL``."""
    if isinstance(old, float) and isinstance(new, float):
        return new == pytest.approx(old, rel=FLOAT_RTOL, abs=1e-15)
    if isinstance(old, dict) and isinstance(new, dict):
        return old.keys() == new.keys() and all(_same_up_to_rounding(new[key], old[key]) for key in old)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_same_up_to_rounding(a, b) for a, b in zip(new, old, strict=True))
    return type(new) is type(old) and new == old


def test_preprocessor_state_round_trips_through_the_persistence_functions(table) -> None:
    occurrences, X = table
    model = SenseModel.load(FIXTURE / "kmeans_whiten_forms")
    prep = model.inducers_["mouse"].preprocessor_
    again = restore_preprocessor(model.inducer.make_preprocessor(), preprocessor_arrays(prep))
    rows = (occurrences["target"] == "mouse").to_numpy()
    forms = occurrences["form"].to_numpy()[rows]
    assert again.transform(X[rows], forms).tobytes() == prep.transform(X[rows], forms).tobytes()
