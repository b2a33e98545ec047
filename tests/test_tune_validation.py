"""wsd.tune.validation: the validation figures of scored pairs (no encoder)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.metrics import roc_auc_score

from wsd.tune.pairs import BINARY, GRADED
from wsd.tune.validation import pair_figures


def test_pair_figures_binary_auc_is_sklearns_with_ties_and_none_for_one_label() -> None:
    scores = np.array([0.9, 0.4, 0.4, 0.4, 0.1, 0.7, 0.2, 0.5, 0.8])
    labels = np.array([1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0])
    kinds = np.array([BINARY] * 6 + [GRADED] * 3)
    figures = pair_figures(scores, labels, kinds)
    expected_auc = roc_auc_score(labels[:6].astype(int), scores[:6])  # ties between the classes count half
    expected_rho = spearmanr(scores[6:], labels[6:]).statistic
    assert figures["binary_auc"] == pytest.approx(expected_auc, abs=1e-12)
    assert figures["binary_auc"] == pytest.approx(8 / 9)  # 7 of 9 pairs above, 2 tied
    assert figures["score"] == pytest.approx(((2 * expected_auc - 1) + expected_rho) / 2, abs=1e-12)
    one_label = pair_figures(scores[:2], labels[:2], kinds[:2])
    assert one_label["binary_auc"] is None and one_label["score"] is None and one_label["pairs"] == 2
