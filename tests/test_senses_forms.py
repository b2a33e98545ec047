"""Form centring: a word's vectors are moved by their surface form's offset, learned once and reused."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from wsd.errors import ConfigError, InputError
from wsd.senses import SenseInducer, SenseModel
from wsd.senses.persistence import preprocessor_arrays, restore_preprocessor
from wsd.senses.preprocess import Preprocessor, check_center_forms

DIM = 8


def _senses_and_forms(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two senses (axis 0) crossed with two forms (a large offset on axis 1): 60 vectors."""
    rng = np.random.RandomState(seed)
    sense = np.repeat([0, 1], 30)
    plural = np.tile([0, 1], 30)
    X = rng.normal(scale=0.3, size=(60, DIM))
    X[:, 0] += 2.0 * sense
    X[:, 1] += 10.0 * plural
    forms = np.where(plural == 1, "Mice", "mouse")
    return X, forms, sense


def test_full_centring_puts_every_form_on_the_word_mean() -> None:
    X, forms, _ = _senses_and_forms()
    out = Preprocessor(center_forms=1.0).fit_transform(X, forms=forms)
    for form in ("mouse", "Mice"):
        np.testing.assert_allclose(out[forms == form].mean(axis=0), X.mean(axis=0), atol=1e-12)


def test_partial_centring_removes_that_fraction_of_the_offset() -> None:
    X, forms, _ = _senses_and_forms()
    half = Preprocessor(center_forms=0.5).fit_transform(X, forms=forms)
    offset = X[forms == "Mice"].mean(axis=0) - X.mean(axis=0)
    np.testing.assert_allclose(half[forms == "Mice"], X[forms == "Mice"] - 0.5 * offset, atol=1e-12)


def test_forms_are_compared_lower_cased_and_unknown_forms_stay_put() -> None:
    X, forms, _ = _senses_and_forms()
    prep = Preprocessor(center_forms=1.0).fit(X, forms=forms)
    assert prep.forms_.tolist() == ["mice", "mouse"]
    new = X[:3]
    np.testing.assert_allclose(prep.transform(new, ["MICE"] * 3), prep.transform(new, ["mice"] * 3))
    np.testing.assert_array_equal(prep.transform(new, ["mouses"] * 3), new)
    np.testing.assert_array_equal(prep.transform(new), new)


def test_off_by_default_and_state_round_trips_without_pickle(tmp_path) -> None:
    X, forms, _ = _senses_and_forms()
    np.testing.assert_array_equal(Preprocessor().fit_transform(X, forms=forms), X)
    prep = Preprocessor(center_forms=0.75, normalize=True).fit(X, forms=forms)
    for name, array in preprocessor_arrays(prep).items():
        np.save(tmp_path / f"{name}.npy", array, allow_pickle=False)
    loaded = {p.stem: np.load(p, allow_pickle=False) for p in tmp_path.glob("*.npy")}
    again = restore_preprocessor(Preprocessor(center_forms=0.75, normalize=True), loaded)
    np.testing.assert_array_equal(again.transform(X, forms), prep.transform(X, forms))


def test_bad_strength_missing_forms_and_bad_state_are_clear_errors() -> None:
    X, forms, _ = _senses_and_forms()
    assert check_center_forms(True) == 1.0
    with pytest.raises(ConfigError, match="between 0 and 1"):
        Preprocessor(center_forms=1.5).fit(X, forms=forms)
    with pytest.raises(ConfigError, match="needs the surface form"):
        Preprocessor(center_forms=1.0).fit(X)
    with pytest.raises(InputError, match="one surface form per vector"):
        Preprocessor(center_forms=1.0).fit(X, forms=forms[:5])
    with pytest.raises(InputError, match=r"missing .forms."):
        restore_preprocessor(Preprocessor(center_forms=1.0), {"mean": np.zeros(DIM)})
    with pytest.raises(ConfigError, match="center_forms"):
        SenseInducer(center_forms=-0.1).fit(X, forms=forms)


def test_inducer_finds_senses_instead_of_forms_only_with_centring() -> None:
    X, forms, sense = _senses_and_forms()
    by_form = SenseInducer(method="kmeans", k=2).fit(X, forms=forms).labels_
    assert abs(np.corrcoef(by_form, forms == "Mice")[0, 1]) > 0.99
    by_sense = SenseInducer(method="kmeans", k=2, center_forms=1.0).fit(X, forms=forms)
    assert abs(np.corrcoef(by_sense.labels_, sense)[0, 1]) > 0.99
    np.testing.assert_array_equal(by_sense.predict(X, forms), by_sense.labels_)


def test_sense_model_passes_forms_and_predicts_the_same_after_save_load(tmp_path) -> None:
    X, forms, sense = _senses_and_forms()
    occurrences = pd.DataFrame(
        {
            "id": [f"d:{i}" for i in range(len(X))],
            "target": "mouse",
            "form": forms,
            "text": [f"a {f} here" for f in forms],
            "start": 2,
            "end": [2 + len(f) for f in forms],
            "doc_id": "d",
            "doc_start": 0,
        }
    )
    model = SenseModel(SenseInducer(method="kmeans", k=2, center_forms=1.0)).fit(occurrences, X)
    assert abs(np.corrcoef(model.labels_, sense)[0, 1]) > 0.99
    loaded = SenseModel.load(model.save(tmp_path / "model"))
    np.testing.assert_array_equal(loaded.predict(occurrences, X), model.labels_)
    np.testing.assert_allclose(loaded.predict_proba(occurrences, X), model.predict_proba(occurrences, X))
