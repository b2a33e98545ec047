"""Per-word preprocessing: centring, normalisation, PCA, whitening, and state reused on new vectors."""

from __future__ import annotations

import numpy as np
import pytest

from wsd.errors import ConfigError, InputError
from wsd.senses.persistence import preprocessor_arrays, restore_preprocessor
from wsd.senses.preprocess import Preprocessor


@pytest.fixture(scope="module")
def vectors() -> np.ndarray:
    rng = np.random.RandomState(0)
    return rng.normal(size=(40, 12)) * np.linspace(0.5, 3.0, 12) + 5.0


def test_identity_when_nothing_is_asked(vectors) -> None:
    np.testing.assert_array_equal(Preprocessor().fit_transform(vectors), vectors)


def test_centring_uses_the_fitted_mean_for_new_vectors(vectors) -> None:
    prep = Preprocessor(center=True).fit(vectors)
    np.testing.assert_allclose(prep.transform(vectors).mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(prep.transform(vectors[:3] + 1.0), vectors[:3] + 1.0 - vectors.mean(axis=0))


def test_normalisation_gives_unit_rows_and_keeps_zero_rows(vectors) -> None:
    out = Preprocessor(normalize=True).fit_transform(np.vstack([vectors, np.zeros(12)]))
    np.testing.assert_allclose(np.linalg.norm(out[:-1], axis=1), 1.0)
    np.testing.assert_array_equal(out[-1], 0.0)


def test_pca_projects_and_whitening_gives_unit_variance(vectors) -> None:
    prep = Preprocessor(pca=4).fit(vectors)
    out = prep.transform(vectors)
    assert out.shape == (40, 4)
    variances = out.var(axis=0, ddof=1)
    assert (np.diff(variances) <= 1e-9).all()  # decreasing variance
    white = Preprocessor(pca=4, whiten=True).fit_transform(vectors)
    np.testing.assert_allclose(white.var(axis=0, ddof=1), 1.0)
    full = Preprocessor(whiten=True).fit_transform(vectors)
    assert full.shape == (40, 12)


def test_pca_is_capped_by_the_number_of_occurrences(vectors) -> None:
    assert Preprocessor(pca=50).fit(vectors[:5]).transform(vectors).shape == (40, 4)
    assert Preprocessor(pca=3).fit(vectors[:1]).transform(vectors[:1]).shape == (1, 1)


def test_pca_signs_are_deterministic(vectors) -> None:
    a = Preprocessor(pca=3).fit(vectors).components_
    b = Preprocessor(pca=3).fit(vectors.copy()).components_
    assert a.tobytes() == b.tobytes()
    assert (a[np.arange(3), np.argmax(np.abs(a), axis=1)] > 0).all()


def test_state_round_trips_through_plain_arrays(vectors) -> None:
    prep = Preprocessor(center=True, normalize=True, pca=5, whiten=True).fit(vectors)
    twin = restore_preprocessor(
        Preprocessor(center=True, normalize=True, pca=5, whiten=True), preprocessor_arrays(prep)
    )
    assert twin.transform(vectors).tobytes() == prep.transform(vectors).tobytes()


def test_bad_input_and_options(vectors) -> None:
    prep = Preprocessor(pca=2).fit(vectors)
    with pytest.raises(InputError, match="12-dim"):
        prep.transform(vectors[:, :5])
    with pytest.raises(ConfigError, match="pca"):
        Preprocessor(pca=0).fit(vectors)
