"""WUG-like senses: ``similarity_cut`` (average linkage cut at a mean cosine) and the cut learned from judged pairs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import CHANGE_SENSES, make_change_wug

from wsd.cli import main
from wsd.errors import ConfigError
from wsd.evaluate.datasets import load_dataset
from wsd.senses import SenseInducer, SenseModel
from wsd.senses.cut import best_cut, judged_cut
from wsd.workflows.usage_pairs import usage_pair_agreement


def _groups(sizes=(10, 10, 10), seed: int = 0, noise: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = np.vstack([np.eye(len(sizes), 12)[g] * 5 + rng.normal(scale=noise, size=(n, 12)) for g, n in enumerate(sizes)])
    return X, np.repeat(np.arange(len(sizes)), sizes)


def _scipy_cut(X: np.ndarray, cut: float) -> np.ndarray:
    """The reference: scipy's average linkage on cosine, clusters merged while the mean similarity ≥ cut."""
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import pdist

    return fcluster(linkage(pdist(X, "cosine"), "average"), t=1.0 - cut, criterion="distance")


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    pairs = set(zip(a.tolist(), b.tolist(), strict=True))
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


def test_a_cut_between_the_groups_finds_them_and_the_extremes_give_one_sense_or_one_each() -> None:
    X, truth = _groups()
    inducer = SenseInducer(method="agglomerative", similarity_cut=0.5).fit(X)
    assert inducer.n_senses_ == 3 and _same_partition(inducer.labels_, truth)
    assert inducer.k_scores_ == {}  # no k was chosen
    assert SenseInducer(method="agglomerative", similarity_cut=-1.0).fit(X).n_senses_ == 1
    assert SenseInducer(method="agglomerative", similarity_cut=1.0).fit(X).n_senses_ == len(X)
    assert SenseInducer(method="agglomerative", similarity_cut=0.5).fit(X[:1]).n_senses_ == 1


@pytest.mark.parametrize("cut", [0.2, 0.5, 0.8, 0.95])
def test_the_clusters_are_scipys_average_linkage_cut_at_the_similarity(cut: float) -> None:
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 6)) + np.repeat(np.eye(4, 6) * 2, 10, axis=0)
    clusterer = SenseInducer(method="agglomerative", similarity_cut=cut).make_clusterer(0).fit(X)
    assert _same_partition(clusterer.labels_, _scipy_cut(X, cut))


def test_two_uses_exactly_at_the_cut_merge() -> None:
    X = np.array([[1.0, 0.0], [0.6, 0.8]])  # cosine 0.6 exactly
    assert SenseInducer(method="agglomerative", similarity_cut=0.6).fit(X).n_senses_ == 1
    assert SenseInducer(method="agglomerative", similarity_cut=0.61).fit(X).n_senses_ == 2


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"method": "ward", "similarity_cut": 0.6}, "needs method='agglomerative', not 'ward'"),
        ({"method": "agglomerative", "k": 3, "similarity_cut": 0.6}, "drop k=3"),
        ({"method": "agglomerative", "similarity_cut": 0.6, "one_sense_below": 0.1}, "drop one of them"),
        ({"method": "agglomerative", "similarity_cut": 1.5}, "similarity_cut"),
        ({"method": "agglomerative", "similarity_cut": float("nan")}, "similarity_cut"),
        ({"method": "agglomerative", "similarity_cut": True}, "similarity_cut"),
    ],
)
def test_bad_combinations_and_values_are_refused_naming_the_parameter(params, message) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        SenseInducer(**params).fit(_groups()[0])


def test_a_saved_model_keeps_its_cut_and_predicts_the_same(tmp_path: Path) -> None:
    X, _ = _groups()
    occurrences = pd.DataFrame(
        {
            "id": [f"d:{i}" for i in range(len(X))],
            **{"target": "w", "form": "w", "text": "a w", "start": 2, "end": 3, "doc_id": "d", "doc_start": 0},
        }
    )
    inducer = SenseInducer(method="agglomerative", similarity_cut=0.5, normalize=True)
    model = SenseModel(inducer, embedding_meta={"dim": 12, "model": "t"}).fit(occurrences, X)
    model.save(tmp_path / "m")
    saved = json.loads(next((tmp_path / "m").glob("*.json")).read_text(encoding="utf-8"))
    assert saved["inducer_params"]["similarity_cut"] == 0.5
    loaded = SenseModel.load(tmp_path / "m")
    np.testing.assert_array_equal(loaded.predict(occurrences, X), model.predict(occurrences, X))


def test_best_cut_is_exact_and_refuses_what_it_cannot_read() -> None:
    rng = np.random.default_rng(0)
    s = np.round(rng.uniform(size=200), 2)
    same = rng.uniform(size=200) < s  # likelier "same" the more similar
    cut, accuracy = best_cut(s, same)
    values = np.unique(s)
    edges = np.concatenate([[-1.0], (values[:-1] + values[1:]) / 2, [2.0]])
    scores = [np.mean((s >= e) == same) for e in edges]
    assert accuracy == pytest.approx(max(scores)) == pytest.approx(np.mean((s >= cut) == same))
    assert cut == pytest.approx(edges[int(np.argmax(scores))])  # the smallest of the best
    for bad, message in [
        ((np.array([]), np.array([], dtype=bool)), "no pair"),
        ((np.array([0.1, np.nan]), np.array([True, False])), "not finite"),
        ((np.array([0.1, 0.2]), np.array([True])), "one length"),
    ]:
        with pytest.raises(ValueError, match=message):
            best_cut(*bad)
    with pytest.raises(ValueError, match=r"midpoint 2\.5"):
        judged_cut(np.array([0.1, 0.2]), np.array([2.5, 2.5]))
    assert judged_cut(np.array([0.1, 0.9, 0.5]), np.array([1.0, 4.0, 2.5])) == (0.5, 1.0)


def _judge_all(root: Path) -> None:
    """Every pair of every word judged 4 (same gold sense) or 1, as in test_evaluate_usage_pairs."""
    import itertools

    occurrences = load_dataset("wug", root).occurrences
    for word in CHANGE_SENSES:
        ids = occurrences.loc[occurrences["target"] == word, "id"]
        sense = {}
        for ident in ids:
            period, i = ident.split("_")[1:]
            sense[ident] = CHANGE_SENSES[word][0 if period == "1" else 1][int(i)]
        lines = ["identifier1\tidentifier2\tannotator\tjudgment"]
        lines += [f"{a}\t{b}\tA\t{4 if sense[a] == sense[b] else 1}" for a, b in itertools.combinations(sorted(ids), 2)]
        (root / "data" / word / "judgments.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_wug_evaluation_reports_the_cut_and_clustering_at_it_finds_the_gold(tmp_path: Path, capsys) -> None:
    from helpers import change_wug_vectors

    root = make_change_wug(tmp_path / "wug")
    _judge_all(root)
    occurrences = load_dataset("wug", root).occurrences
    X = change_wug_vectors(occurrences)
    senses = {"method": "agglomerative", "normalize": True, "center_forms": 0.5}
    entry = usage_pair_agreement(root, occurrences, X, senses=senses)["sense_cut"]
    assert entry["accuracy"] == 1.0 and entry["pairs"] == 3 * 66 and entry["midpoint"] == 2.5
    assert -1.0 < entry["cut"] < 1.0
    for word in ("stable", "half"):  # two gold senses each: the cut recovers them
        rows = (occurrences["target"] == word).to_numpy()
        inducer = SenseInducer(**senses, similarity_cut=entry["cut"])
        labels = inducer.fit(X[rows], forms=occurrences["form"][rows].to_numpy()).labels_
        gold = np.concatenate(CHANGE_SENSES[word])
        assert _same_partition(labels, gold)
    # the command line prints it and writes it to metrics.json
    out = tmp_path / "out"
    code = main(["evaluate", "--dataset", "wug", "--data", str(root), "--out", str(out), "--no-progress"])
    assert code == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    document = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    cut = document["usage_pairs"]["sense_cut"]
    assert f"--similarity-cut {cut['cut']:.3f}" in printed and cut["accuracy"] == 1.0


def test_the_cut_runs_from_the_command_line_and_a_bad_one_is_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    root = make_change_wug(tmp_path / "wug")
    base = ["evaluate", "--dataset", "wug", "--data", str(root), "--no-progress", "--method", "agglomerative"]
    out = tmp_path / "ok"
    assert main([*base, "--similarity-cut", "0.5", "--out", str(out)]) == 0, capsys.readouterr().err
    metrics = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["config"]["senses"]["similarity_cut"] == 0.5
    capsys.readouterr()
    for extra, message in [
        (["--similarity-cut", "0.5", "--method", "ward"], "needs method='agglomerative'"),
        (["--similarity-cut", "0.5", "--k", "3"], "drop k=3"),
        (["--similarity-cut", "2"], "--similarity-cut: expected a number ≤ 1, got 2"),
    ]:
        try:
            code = main([*base, *extra, "--out", str(tmp_path / "bad")])
        except SystemExit as exit:  # argparse's own range check
            code = exit.code
        err = capsys.readouterr().err
        assert code == 2 and message in err and "Traceback" not in err
        assert not (tmp_path / "bad").exists()


def test_the_report_says_no_k_was_chosen_and_gives_the_cut() -> None:
    from types import SimpleNamespace

    from wsd.report.build import run_facts

    def facts(inducer: dict) -> list[str]:
        data = SimpleNamespace(run_meta={}, senses_meta={"inducer": inducer}, metrics=None)
        return [fact for fact in run_facts(data) if fact.startswith("Senses:")]

    cut = {"method": "agglomerative", "k": "auto", "selection": "silhouette", "k_range": [2, 7], "similarity_cut": 0.64}
    assert facts(cut) == ["Senses: agglomerative, no k chosen: senses merged while their mean cosine is at least 0.64"]
    assert facts(cut | {"similarity_cut": None}) == ["Senses: agglomerative, k chosen by silhouette in [2, 7]"]


def test_best_cut_stays_a_cosine_reports_its_own_accuracy_and_refuses_graded_labels() -> None:
    # every pair "different", one of them identical uses (cosine 1): no cut within [-1, 1] calls it "different",
    # so the best is the smallest that calls only it "same", and its accuracy says so
    cut, accuracy = best_cut(np.array([0.2, 0.995, 1.0]), np.array([False, False, False]))
    assert cut == pytest.approx(0.9975) and accuracy == pytest.approx(2 / 3)
    assert best_cut(np.array([-0.995, 0.2]), np.array([True, True])) == (-1.0, 1.0)
    # neighbours one float apart: the cut lies above the lower one, so it is called "different"
    low = 0.5
    cut, accuracy = best_cut(np.array([low, np.nextafter(low, 1.0)]), np.array([False, True]))
    assert cut > low and accuracy == 1.0
    with pytest.raises(ValueError, match="True/False"):
        best_cut(np.array([0.1, 0.2]), np.array([1.0, 4.0]))  # judgments passed where labels belong
    with pytest.raises(ValueError, match="judgment is not finite"):
        judged_cut(np.array([0.1, 0.9, 0.95]), np.array([1.0, 4.0, np.nan]))


def test_few_uses_keep_one_sense_under_a_cut_too_and_say_why() -> None:
    X, _ = _groups(sizes=(3, 2))
    inducer = SenseInducer.from_recipe("default", method="agglomerative", similarity_cut=0.5)
    inducer.fit(X, forms=["w"] * len(X))
    assert inducer.n_senses_ == 1 and "min_split_uses" in inducer.one_sense_reason_
    assert SenseInducer(method="agglomerative", similarity_cut=0.5).fit(X).n_senses_ == 2  # no floor: split
