"""experiments/tune_space: the figures without clustering, the cross-validated threshold and the page (no dataset)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from experiments.tune_space import (
    THRESHOLDS,
    bootstrap_against,
    cross_validated_threshold,
    gold_k,
    markdown,
    models_to_compare,
    pair_rho,
    parse_models,
    sense_auc,
    weighted_ari,
    word_space,
)
from wsd.errors import InputError
from wsd.evaluate.metrics.usage_pairs import pair_cosines


def _two_senses(per: int = 12, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = np.eye(2, 16) * 10
    X = np.vstack([c + rng.normal(scale=0.3, size=(per, 16)) for c in centres])
    return X, np.array(["a"] * per + ["b"] * per)


def test_sense_auc_is_one_for_separated_senses_chance_for_shuffled_and_nan_for_one_sense():
    X, senses = _two_senses()
    assert sense_auc(X, senses) == pytest.approx(1.0)
    shuffled = np.random.default_rng(1).permutation(senses)
    assert 0.3 < sense_auc(X, shuffled) < 0.7
    assert math.isnan(sense_auc(X, np.array(["a"] * len(X))))


def test_sense_auc_is_sklearns_roc_auc_with_tied_cosines():
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 1.0]])  # repeated vectors tie their cosines
    senses = np.array(["a", "a", "b", "b", "a"])
    first, second = np.triu_indices(len(X), 1)
    expected = roc_auc_score(senses[first] == senses[second], pair_cosines(X, first, second))
    assert sense_auc(X, senses) == pytest.approx(expected, abs=1e-12)


def test_pair_rho_follows_the_judgments_and_is_nan_when_it_cannot_be_measured():
    assert pair_rho(np.array([0.1, 0.5, 0.9, 0.3]), np.array([1.0, 3.0, 4.0, 2.0])) == pytest.approx(1.0)
    assert pair_rho(np.array([0.9, 0.5, 0.1]), np.array([1.0, 3.0, 4.0])) == pytest.approx(-1.0)
    assert math.isnan(pair_rho(np.array([0.1, 0.2]), np.array([1.0, 4.0])))  # under three pairs
    assert math.isnan(pair_rho(np.array([0.1, 0.2, 0.3]), np.array([2.0, 2.0, 2.0])))


def test_gold_k_counts_the_senses_above_the_share():
    senses = np.array(["a"] * 50 + ["b"] * 45 + ["c"] * 4 + ["d"])  # c holds 4%, d 1%
    assert gold_k(senses) == 2
    assert gold_k(senses, share=0.01) == 4
    assert gold_k(np.array([], dtype=str)) == 1


def test_word_space_of_two_clear_senses():
    X, senses = _two_senses()
    forms = np.array(["w"] * len(X))
    periods = np.array([0, 1] * (len(X) // 2))
    first, second = np.array([0, 0, 1, 13]), np.array([1, 12, 14, 20])
    judgment = np.array([4.0, 1.0, 1.0, 4.0])  # same sense: 4, different: 1
    figures = word_space(X, forms, periods, senses, (first, second, judgment))
    assert figures["gold_k"] == 2 and figures["n_clustered"] == len(X)
    assert figures["ari_gold_k"] == pytest.approx(1.0) and figures["ari"] == pytest.approx(1.0)
    assert figures["sense_auc"] == pytest.approx(1.0) and figures["pair_rho"] > 0.8
    for t in THRESHOLDS:
        assert f"ari@{t:g}" in figures and f"jsd@{t:g}" in figures
    assert figures["senses@0"] == 2  # the default recipe finds both senses


def _word(ari_by_threshold: dict[float, float], n: int, jsd: float, senses: int = 2) -> dict[str, float]:
    figures: dict[str, float] = {"n_clustered": float(n)}
    for t in THRESHOLDS:
        figures[f"ari@{t:g}"] = ari_by_threshold.get(t, 0.0)
        figures[f"jsd@{t:g}"] = jsd
        figures[f"senses@{t:g}"] = float(senses if t < 0.05 else 1)
    return figures


def test_the_threshold_is_chosen_on_the_other_half_and_every_word_is_scored_at_it():
    # sorted words a, b, c, d: dev = a, c (even); held_out = b, d (odd)
    words = {
        "a": _word({0.0: 0.5, 0.06: 0.1}, 10, 0.1),
        "b": _word({0.0: 0.2, 0.06: 0.9}, 30, 0.4),
        "c": _word({0.0: 0.6, 0.06: 0.2}, 10, 0.3),
        "d": _word({0.0: 0.1, 0.06: 0.7}, 10, 0.2),
    }
    gold = {"a": 0.1, "b": 0.4, "c": 0.3, "d": 0.2}
    result = cross_validated_threshold(words, gold)
    # the held-out half prefers 0.06, so the dev words are scored at 0.06; the dev half prefers 0 for the others
    assert result["chosen"] == {"dev": 0.06, "held_out": 0.0}
    assert result["ari"] == pytest.approx((0.1 * 10 + 0.2 * 30 + 0.2 * 10 + 0.1 * 10) / 60)
    assert result["rho_jsd"] == pytest.approx(1.0)
    assert result["one_sense_words"] == pytest.approx(0.5)  # a and c at 0.06
    assert result["words"]["a"] == {"ari": 0.1, "jsd": 0.1, "n_clustered": 10.0}


def test_bootstrap_intervals_hold_the_figures_and_a_model_against_itself_differs_by_nothing(monkeypatch):
    monkeypatch.setattr("experiments.tune_space.N_BOOTSTRAP", 200)  # the page's 2,000 resamples are not the point
    rng = np.random.default_rng(0)
    gold = {f"w{i}": float(i) for i in range(30)}
    model = {w: {"ari": 0.3, "jsd": g + rng.normal(scale=3.0), "n_clustered": 10.0} for w, g in gold.items()}
    base = {w: {"ari": 0.1, "jsd": rng.normal(), "n_clustered": 10.0} for w in gold}
    ci = bootstrap_against(model, base, gold, seed=0)
    assert ci["ari"] == pytest.approx([0.3, 0.3]) and ci["ari_difference"] == pytest.approx([0.2, 0.2])
    assert 0 < ci["rho_jsd"][0] < ci["rho_jsd"][1] <= 1 and ci["rho_jsd_difference"][0] > 0
    same = bootstrap_against(model, model, gold, seed=0)
    assert same["rho_jsd_difference"] == [0.0, 0.0] and same["ari_difference"] == [0.0, 0.0]


def test_weighted_ari_counts_a_missing_ari_as_zero():
    words = {"a": {"ari": 1.0, "n_clustered": 3.0}, "b": {"ari": math.nan, "n_clustered": 1.0}}
    assert weighted_ari(words, ["a", "b"], "ari") == pytest.approx(0.75)


def test_a_model_not_built_names_the_cell_that_builds_it(tmp_path):
    with pytest.raises(InputError) as raised:
        models_to_compare(tmp_path, None)
    assert str(raised.value) == (
        f"{tmp_path / 'dwug-wordnet-only-seed0'}: no tuned model; build it with python -m experiments.tune --cells "
        "dwug_seeds"
    )


def test_given_models_replace_the_default_list_behind_the_untuned_model(tmp_path):
    built = tmp_path / "wic-seed0"
    built.mkdir()
    (built / "config.json").write_text("{}", encoding="utf-8")
    given = parse_models(f"seed 0={built}")
    assert models_to_compare(tmp_path / "unused", None, given) == [("untuned MiniLM", None), ("seed 0", str(built))]
    with pytest.raises(InputError, match="no tuned model; build it with its experiment"):
        models_to_compare(tmp_path, None, parse_models(f"soup={tmp_path / 'missing'}"))
    for bad in ("seed 0", "=folder", " , "):
        with pytest.raises(InputError, match="--models"):
            parse_models(bad)


def test_the_page_shows_both_tables():
    summary = {
        "pair_rho": 0.26,
        "sense_auc": 0.64,
        "ari": 0.158,
        "ari_gold_k": 0.249,
        "mean_senses": 2.2,
        "mean_gold_k": 1.9,
        "words_with_auc": 40,
        "rho_jsd": 0.231,
    }
    intervals = {"ari_difference": [-0.01, 0.05], "rho_jsd_difference": [-0.2, 0.1]}
    threshold = {
        "chosen": {"dev": 0.08, "held_out": 0.1},
        "ari": 0.2,
        "rho_jsd": 0.1,
        "one_sense_words": 0.5,
        "intervals": intervals,
    }
    results = {
        "command": "c",
        "machine": "m",
        "date": "d",
        "words": 46,
        "pairs": 43784,
        "one_sense_ari": 0.134,
        "models": {"untuned MiniLM": {"summary": summary, "threshold": threshold}},
    }
    page = markdown(results)
    assert "| untuned MiniLM | 0.260 | 0.640 | 15.8 | 24.9 | 2.20 | 1.90 |" in page
    assert "| untuned MiniLM | 15.8 | 0.231 | 20.0 [-1.0, +5.0] | 0.100 [-0.200, +0.100] | 0.08 / 0.1 | 50% |" in page
    assert "43,784 judged pairs" in page and "One sense for every word gives ARI 13.4." in page
