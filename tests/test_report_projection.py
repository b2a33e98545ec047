"""2-D projections for sense maps: PCA by default, t-SNE, UMAP only when installed."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from wsd.errors import ConfigError
from wsd.report.projection import check_projection, project


def _blobs(n: int = 40, dim: int = 16) -> np.ndarray:
    rng = np.random.default_rng(0)
    X = rng.normal(scale=0.3, size=(n, dim))
    X[: n // 2, 0] += 5.0
    return X.astype(np.float16)


def test_pca_keeps_separated_groups_apart_and_names_its_axes():
    X = _blobs()
    points, axes = project(X)
    assert points.shape == (40, 2)
    first = points[:20, 0]
    second = points[20:, 0]
    assert first.min() > second.max() or first.max() < second.min()
    assert axes[0].startswith("PC 1 (") and "% of variance" in axes[0]
    np.testing.assert_array_equal(points, project(X)[0])


def test_tsne_is_seeded():
    X = _blobs(30)
    points, axes = project(X, "tsne", random_state=3)
    assert points.shape == (30, 2) and axes == ("t-SNE 1", "t-SNE 2")
    np.testing.assert_allclose(points, project(X, "tsne", random_state=3)[0])


@pytest.mark.parametrize("n", [0, 1, 2, 4])
def test_tiny_and_degenerate_inputs(n):
    points, _ = project(np.ones((n, 8)) * np.arange(n)[:, None], "tsne")
    assert points.shape == (n, 2) and np.isfinite(points).all()
    constant, _ = project(np.ones((5, 3)))
    assert constant.shape == (5, 2) and not constant.any()


def test_unknown_projection_and_missing_umap_are_config_errors(monkeypatch):
    with pytest.raises(ConfigError, match="projection must be one of pca, tsne, umap"):
        check_projection("mds")
    monkeypatch.setitem(sys.modules, "umap", None)  # makes `import umap` fail
    with pytest.raises(ConfigError, match="umap-learn"):
        check_projection("umap")
    with pytest.raises(ConfigError, match="umap-learn"):
        project(_blobs(), "umap")
