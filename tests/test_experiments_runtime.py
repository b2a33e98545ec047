"""experiments.runtime_agreement: how the two runtimes' vectors and scores are compared and reported."""

from __future__ import annotations

import numpy as np
import pytest

from experiments import runtime_agreement


def test_agreement_of_known_vectors() -> None:
    a = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 4.0]], dtype=np.float16)
    b = a.copy()
    b[1] = -b[1]  # opposite: cosine -1
    close = runtime_agreement.agreement(a, b)
    assert close["rows"] == 3
    assert close["cosine_min"] == pytest.approx(-1.0)
    assert close["cosine_mean"] == pytest.approx(1 / 3)
    assert close["values_differing"] == pytest.approx(1 / 6)  # one of six stored values differs
    same = runtime_agreement.agreement(a, a)
    assert same["cosine_min"] == pytest.approx(1.0) and same["values_differing"] == 0.0


def test_agreement_refuses_different_shapes() -> None:
    with pytest.raises(SystemExit, match="different shapes"):
        runtime_agreement.agreement(np.ones((2, 3)), np.ones((3, 3)))


def test_markdown_gives_both_runtimes_and_the_difference() -> None:
    scores = {"avg": 0.31623414143650147, "fnmi": 0.164, "n_clusters": 329}
    report = {
        "command": "python -m experiments.runtime_agreement",
        "seeds": 5,
        "extra": [],
        "datasets": {
            "semeval2013": {
                "torch": {"overall": scores, "precision": "fp32"},
                "openvino": {"overall": scores | {"avg": 0.3172}, "precision": "fp32"},
                "vectors": {"rows": 10, "cosine_min": 0.9999998, "cosine_mean": 1.0, "values_differing": 0.005},
            }
        },
    }
    text = runtime_agreement.markdown(report)
    assert "| avg | 31.62 | 31.72 | +9.66e-02 |" in text
    assert "| fnmi | 16.40 | 16.40 | +0.00e+00 |" in text
    assert "| n_clusters | 329.00 | 329.00 | +0.00e+00 |" in text  # a count, not a percentage
    assert "Precision: torch fp32, openvino fp32" in text and "0.50% of the stored values differ" in text
