"""Hard-clustering metrics: agreement with scikit-learn and brute force, and the per-word aggregation."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from sklearn import metrics as skm

from wsd.evaluate.metrics.clustering import (
    UNANSWERED,
    adjusted_rand,
    bcubed,
    contingency,
    hard_label,
    key_labels,
    normalized_mutual_info,
    paired_f,
    purity,
    score_generic,
    score_russe,
    v_measure,
)
from wsd.evaluate.metrics.semeval2013 import score_semeval2013


def _labelings():
    rng = np.random.default_rng(0)
    cases = [
        (np.zeros(6, int), np.zeros(6, int)),  # one class, one cluster
        (np.zeros(6, int), np.arange(6)),  # one class, singletons
        (np.arange(6), np.zeros(6, int)),
        (np.arange(6), np.arange(6)[::-1]),
        (np.array([0]), np.array([3])),
        (np.array([0, 0, 1, 1]), np.array([1, 1, 0, 0])),
    ]
    for n, k_gold, k_system in [(10, 2, 3), (50, 4, 4), (200, 7, 12), (37, 1, 5), (80, 3, 80)]:
        cases.append((rng.integers(0, k_gold, n), rng.integers(0, k_system, n)))
    return cases


@pytest.mark.parametrize(("gold", "system"), _labelings())
def test_agreement_with_scikit_learn(gold, system):
    assert adjusted_rand(gold, system) == pytest.approx(skm.adjusted_rand_score(gold, system), abs=1e-12)
    assert normalized_mutual_info(gold, system) == pytest.approx(
        skm.normalized_mutual_info_score(gold, system), abs=1e-12
    )
    ours = v_measure(gold, system)
    theirs = skm.homogeneity_completeness_v_measure(gold, system)
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert contingency(gold, system).tolist() == skm.cluster.contingency_matrix(gold, system).tolist()


@pytest.mark.parametrize(("gold", "system"), _labelings())
def test_pair_and_item_metrics_against_brute_force(gold, system):
    n = len(gold)
    pairs = list(combinations(range(n), 2))
    same_gold = {p for p in pairs if gold[p[0]] == gold[p[1]]}
    same_system = {p for p in pairs if system[p[0]] == system[p[1]]}
    precision = len(same_gold & same_system) / len(same_system) if same_system else 0.0
    recall = len(same_gold & same_system) / len(same_gold) if same_gold else 0.0
    f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    assert paired_f(gold, system) == pytest.approx((precision, recall, f))

    item_p = [np.mean(gold[system == system[i]] == gold[i]) for i in range(n)]
    item_r = [np.mean(system[gold == gold[i]] == system[i]) for i in range(n)]
    b_p, b_r = np.mean(item_p), np.mean(item_r)
    assert bcubed(gold, system) == pytest.approx((b_p, b_r, 2 * b_p * b_r / (b_p + b_r)))

    majority = sum(np.bincount(gold[system == k]).max() for k in np.unique(system))
    assert purity(gold, system) == pytest.approx(majority / n)


def test_string_labels_work_like_integers():
    gold, system = ["b", "a", "a", "c"], ["x", "x", "y", "y"]
    assert adjusted_rand(gold, system) == pytest.approx(skm.adjusted_rand_score(gold, system))
    assert paired_f(gold, system) == paired_f([1, 0, 0, 2], [0, 0, 1, 1])


def test_hard_labels_from_keys():
    assert hard_label({"s1": 0.3, "s2": 1.0}) == "s2"
    assert hard_label({"s2": 1.0, "s1": 1.0}) == "s1+s2"
    ids, gold_labels, system_labels = key_labels(
        {"i1": {"a": 1.0}, "i2": {"a": 1.0, "b": 0.5}, "i3": {"b": 1.0}},
        {"i1": {"x": 1.0}, "i3": {"y": 0.2, "x": 1.0}, "other": {"z": 1.0}},
    )
    assert (ids, gold_labels, system_labels) == (["i1", "i2", "i3"], ["a", "a", "b"], ["x", UNANSWERED, "x"])


def _key(labels_by_target):
    return {
        t: {f"{t}.{k}": {str(label): 1.0} for k, label in enumerate(labels)} for t, labels in labels_by_target.items()
    }


def test_score_russe_weights_words_by_contexts():
    rng = np.random.default_rng(1)
    gold_labels = {"замок": rng.integers(0, 3, 40), "лук": rng.integers(0, 2, 10)}
    system_labels = {"замок": rng.integers(0, 3, 40), "лук": gold_labels["лук"].copy()}
    result = score_russe(_key(gold_labels), _key(system_labels))
    ari = {t: skm.adjusted_rand_score(gold_labels[t], system_labels[t]) for t in gold_labels}
    assert result["per_target"]["лук"]["ari"] == pytest.approx(1.0)
    assert result["overall"]["ari"] == pytest.approx((40 * ari["замок"] + 10 * ari["лук"]) / 50)
    assert result["overall"]["n_instances"] == 50
    nmi = skm.normalized_mutual_info_score(gold_labels["замок"], system_labels["замок"])
    assert result["per_target"]["замок"]["nmi"] == pytest.approx(nmi)


def test_score_generic_reports_every_metric():
    gold = _key({"a.n": [0, 0, 1, 1, 2, 2], "b.v": [0, 1, 0]})
    system = _key({"a.n": [5, 5, 6, 6, 6, 7], "b.v": [0, 0, 0]})
    result = score_generic(gold, system)
    expected_names = {"ari", "nmi", "v_measure", "paired_f", "bcubed_f", "purity", "fnmi", "fbc_f", "n_instances"}
    assert set(result["overall"]) == expected_names
    assert set(result["per_target"]["a.n"]) == expected_names
    a_gold, a_system = [0, 0, 1, 1, 2, 2], [5, 5, 6, 6, 6, 7]
    assert result["per_target"]["a.n"]["ari"] == pytest.approx(skm.adjusted_rand_score(a_gold, a_system))
    assert result["overall"]["v_measure"] == pytest.approx(
        (6 * skm.v_measure_score(a_gold, a_system) + 3 * skm.v_measure_score([0, 1, 0], [0, 0, 0])) / 9
    )
    fuzzy = score_semeval2013(gold, system)
    assert result["overall"]["fnmi"] == fuzzy["overall"]["fnmi"]
    assert result["per_target"]["b.v"]["fbc_f"] == fuzzy["per_target"]["b.v"]["fbc_f"]


def test_generic_fnmi_leaves_out_targets_where_it_is_undefined():
    gold = {
        "bank": {"b1": {"river": 1.0}, "b2": {"river": 1.0}, "b3": {"money": 1.0}, "b4": {"money": 1.0}},
        "walk": {"w1": {"go": 1.0}, "w2": {"go": 1.0}},  # one gold sense
    }
    system = {"bank": {f"b{i}": {"one": 1.0} for i in range(1, 5)}, "walk": {"w1": {"x": 1.0}, "w2": {"x": 1.0}}}
    result = score_generic(gold, system)
    assert math.isnan(result["per_target"]["walk"]["fnmi"]), "zero entropy on both sides, as the official scorer"
    assert result["overall"]["fnmi"] == pytest.approx(result["per_target"]["bank"]["fnmi"]) == 0.0
    only_walk = score_generic({"walk": gold["walk"]}, {"walk": system["walk"]})
    assert math.isnan(only_walk["overall"]["fnmi"])
