"""Few-shot disambiguation (issue 41, item 6): the nearest-example classifier, its metrics, SenseTagger.from_examples
and ``wsd predict --examples FILE --data FILE2 --out DIR`` with its bad inputs and its output folder."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import wsd
from wsd.cli import main
from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets.generic import read_generic, write_generic
from wsd.evaluate.metrics.disambiguation import disambiguation_scores
from wsd.io import manifest
from wsd.senses.nearest import FewShotSenses, NearestSenseClassifier, check_covered, primary_senses
from wsd.workflows import fewshot
from wsd.workflows import naming as naming_module
from wsd.workflows import tagger as tagger_module
from wsd.workflows.tagger import SenseTagger, read_examples

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "labelled.tsv"
ENGLISH = ("mouse", "bank")


def _cosine(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    A = A / np.linalg.norm(A, axis=1, keepdims=True)
    B = B / np.linalg.norm(B, axis=1, keepdims=True)
    return A @ B.T


# ------------------------------------------------------------------------------------------- the classifier
@pytest.fixture(scope="module")
def three_senses() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(3, 8)) * 3
    y = np.repeat(["a", "b", "c"], [12, 6, 3])
    X = centres[np.searchsorted(["a", "b", "c"], y)] + rng.normal(size=(len(y), 8))
    return X, y


def test_one_nn_is_the_sense_of_the_most_similar_example(three_senses) -> None:
    X, y = three_senses
    queries = np.random.default_rng(1).normal(size=(40, 8)) * 3
    model = NearestSenseClassifier(n_neighbors=1, margin=0.0).fit(X, y)
    assert model.predict(queries).tolist() == y[np.argmax(_cosine(queries, X), axis=1)].tolist()


def test_knn_averages_each_senses_nearest_examples_and_centroids_their_mean(three_senses) -> None:
    X, y = three_senses
    queries = np.random.default_rng(2).normal(size=(5, 8))
    similarity = _cosine(queries, X)
    scores = NearestSenseClassifier(n_neighbors=4).fit(X, y).scores(queries)
    for column, sense in enumerate("abc"):
        own = np.sort(similarity[:, y == sense], axis=1)[:, -min(4, (y == sense).sum()) :]
        assert np.allclose(scores[:, column], own.mean(axis=1))
    unit = X / np.linalg.norm(X, axis=1, keepdims=True)
    centroids = np.stack([unit[y == sense].mean(axis=0) for sense in "abc"])
    assert np.allclose(NearestSenseClassifier(rule="centroid").fit(X, y).scores(queries), _cosine(queries, centroids))


def test_below_the_margin_the_most_frequent_sense_is_given(three_senses) -> None:
    X, y = three_senses
    queries = np.random.default_rng(3).normal(size=(60, 8))
    plain = NearestSenseClassifier(margin=0.0).fit(X, y)
    strict = NearestSenseClassifier(margin=0.3).fit(X, y)
    close = plain.margins(queries) < 0.3
    assert close.any() and (~close).any()
    assert (strict.predict(queries)[close] == "a").all()  # "a" has the most examples
    assert (strict.predict(queries)[~close] == plain.predict(queries)[~close]).all()
    proba = plain.predict_proba(queries)
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert (plain.classes_[proba.argmax(axis=1)] == plain.predict(queries)).all()


def test_parameters_are_checked_and_the_estimator_follows_sklearn() -> None:
    from sklearn.base import clone

    with pytest.raises(ConfigError, match="rule"):
        NearestSenseClassifier(rule="vote").fit(np.eye(2), [0, 1])
    with pytest.raises(ConfigError, match="margin"):
        NearestSenseClassifier(margin=-0.1).fit(np.eye(2), [0, 1])
    assert clone(NearestSenseClassifier(n_neighbors=7)).get_params()["n_neighbors"] == 7


def test_check_estimator() -> None:
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(NearestSenseClassifier(), on_fail=None)
    assert [r["check_name"] for r in results if r["status"] == "failed"] == []


def test_few_shot_senses_fit_one_classifier_per_target_and_name_targets_without_examples() -> None:
    occurrences = pd.DataFrame({"target": ["bank", "bank", "bat", "bat"]})
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    model = FewShotSenses().fit(occurrences, X, ["money", "river", "club", "animal"])
    assert model.targets_ == ["bank", "bat"]
    table = model.label(pd.DataFrame({"target": ["bat", "bank"]}, index=[5, 9]), np.array([[0.1, 1.0], [1.0, 0.2]]))
    assert table["sense"].tolist() == ["animal", "money"] and table.index.tolist() == [5, 9]
    assert model.senses_of("bank") == ["money", "river"]
    with pytest.raises(InputError, match=r"no examples for targets 'cell', 'mouse' \(the examples cover bank, bat\)"):
        model.predict(pd.DataFrame({"target": ["mouse", "bank", "cell"]}), np.zeros((3, 2)))
    with pytest.raises(InputError, match="no examples for target 'x'"):
        check_covered(["x"], [], "f.tsv")


def test_primary_sense_is_the_highest_weight_one() -> None:
    assert primary_senses(["s1/0.2 s2/0.8", "s3", "a/1 b/1", ""]).tolist() == ["s2", "s3", "a", ""]


# ------------------------------------------------------------------------------------------- the metrics
def test_metrics_agree_with_sklearn_and_keep_the_senses_of_targets_apart() -> None:
    from sklearn.metrics import accuracy_score, f1_score

    rng = np.random.default_rng(0)
    targets = rng.choice(["w1", "w2"], size=200)
    gold = rng.choice(["1", "2", "3"], size=200)
    predicted = np.where(rng.random(200) < 0.6, gold, rng.choice(["1", "2", "4"], size=200))
    scores = disambiguation_scores(targets, gold, predicted)
    pooled_gold = [f"{t}:{g}" for t, g in zip(targets, gold, strict=True)]
    pooled_predicted = [f"{t}:{p}" for t, p in zip(targets, predicted, strict=True)]
    assert scores["accuracy"] == pytest.approx(accuracy_score(gold, predicted))
    expected = f1_score(pooled_gold, pooled_predicted, average="macro", zero_division=0)
    assert scores["macro_f1"] == pytest.approx(expected)
    w1 = targets == "w1"
    assert scores["per_target"]["w1"]["macro_f1"] == pytest.approx(
        f1_score(gold[w1], predicted[w1], average="macro", zero_division=0)
    )
    assert scores["n"] == 200 and scores["per_target"]["w1"]["n"] == int(w1.sum())
    with pytest.raises(InputError, match="no occurrences"):
        disambiguation_scores([], [], [])


# ------------------------------------------------------------------------------------------- with the encoder
@pytest.fixture(scope="module")
def demo_split(tmp_path_factory) -> tuple[Path, Path]:
    """English demo occurrences (mouse, bank): every second one an example, a third of the rest to label."""
    table = read_generic(DEMO)
    table = table[table["target"].isin(ENGLISH)].reset_index(drop=True)
    folder = tmp_path_factory.mktemp("fewshot")
    examples, data = folder / "examples.tsv", folder / "data.tsv"
    write_generic(table.iloc[0::2], examples)
    write_generic(table.iloc[1::6], data)
    return examples, data


@pytest.fixture()
def quick_encoder(encoder, monkeypatch):
    """The session's encoder, given to the job instead of loading the bundled model again (same model)."""

    def same_model(model=None, **options):
        return encoder.with_options(**options)

    monkeypatch.setattr(fewshot, "Encoder", same_model)
    monkeypatch.setattr(tagger_module, "Encoder", same_model)
    return encoder


def test_from_examples_labels_texts_and_occurrence_tables(demo_split, encoder) -> None:
    examples, data = demo_split
    tagger = SenseTagger.from_examples(examples, encoder.with_options(context_vector="20:last:0.5"))
    assert tagger.targets == ["bank", "mouse"] and wsd.SenseTagger is SenseTagger
    frame = tagger.predict(["A mouse ran along the skirting board.", "Click the right mouse button."], target="mouse")
    assert frame["sense"].tolist() == ["mouse.animal", "mouse.device"]
    assert frame["sense_id"].tolist() == frame["sense"].tolist()
    assert all(len(p) == 2 and abs(sum(p) - 1) < 1e-6 for p in frame["probabilities"])
    held_out = read_generic(data)
    labelled = tagger.label(held_out)
    assert labelled["id"].tolist() == held_out["id"].tolist()
    assert (labelled["sense"] == held_out["sense"]).mean() > 0.8
    assert set(labelled.columns) >= {"sense", "probability", "margin", "fallback", "most_frequent"}


def test_from_examples_takes_a_table_and_leaves_unlabelled_rows_out(encoder) -> None:
    table = pd.DataFrame(
        {
            "target": ["bank"] * 3,
            "text": ["the bank lent money", "the river bank flooded", "a bank"],
            "start": [4, 10, 2],
            "end": [8, 14, 6],
            "sense": ["money", "river", ""],
        }
    )
    with pytest.warns(UserWarning, match="1 of 3 examples have no sense"):
        tagger = SenseTagger.from_examples(table, encoder)
    assert tagger.model.senses_of("bank") == ["money", "river"]
    with pytest.raises(InputError, match="no sense column"):
        read_examples(table.drop(columns="sense"))


def test_predict_examples_writes_the_folder_and_scores(demo_split, quick_encoder, tmp_path, capsys) -> None:
    examples, data = demo_split
    out = tmp_path / "out"
    assert main(["predict", "--examples", str(examples), "--data", str(data), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "labelled" in printed and "accuracy" in printed and "most frequent sense" in printed
    metrics = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    table = pd.read_parquet(out / "predicted.parquet")
    assert metrics["dataset"] == "few-shot" and metrics["n_scored"] == len(table) == len(read_generic(data))
    assert metrics["config"]["rule"] == "knn" and metrics["embedding"]["context_vector"] == "20:last:0.5"
    assert metrics["overall"]["accuracy"] > metrics["baselines"]["most-frequent-sense"]["accuracy"]
    assert metrics["overall"]["accuracy"] == pytest.approx(table["correct"].mean())
    assert set(metrics["per_target"]) == set(ENGLISH)
    # another rule is refused (before anything is embedded), then replaced with --overwrite
    other = ["predict", "--examples", str(examples), "--data", str(data), "--out", str(out), "--rule", "centroid"]
    assert main(other) == 2
    assert "different configuration" in capsys.readouterr().err
    assert main([*other, "--overwrite"]) == 0
    assert json.loads((out / "metrics.json").read_text(encoding="utf-8"))["config"]["rule"] == "centroid"


def test_unlabelled_data_is_labelled_without_scores(demo_split, quick_encoder, tmp_path, capsys) -> None:
    examples, data = demo_split
    unlabelled = tmp_path / "unlabelled.jsonl"
    write_generic(read_generic(data).drop(columns="sense"), unlabelled)
    document = fewshot.predict_examples(examples, unlabelled, tmp_path / "out", n_neighbors=1)
    assert document["n_scored"] == 0 and "overall" not in document
    table = pd.read_parquet(tmp_path / "out" / "predicted.parquet")
    assert "gold" not in table.columns and table["sense"].str.startswith(ENGLISH).all()


def test_cli_tags_texts_by_the_examples(demo_split, quick_encoder, capsys) -> None:
    examples, _ = demo_split
    argv = ["predict", "--examples", str(examples), "--target", "mouse", "--text", "Click the right mouse button."]
    assert main(argv) == 0
    assert "[0] mouse.device" in capsys.readouterr().out


def test_a_folder_of_the_users_files_is_never_written(demo_split, tmp_path, capsys) -> None:
    examples, data = demo_split
    out = tmp_path / "mine"
    out.mkdir()
    (out / "metrics.json").write_text("my notes", encoding="utf-8")
    assert main(["predict", "--examples", str(examples), "--data", str(data), "--out", str(out), "--overwrite"]) == 2
    assert "never replaces files it did not write" in capsys.readouterr().err
    assert (out / "metrics.json").read_text(encoding="utf-8") == "my notes" and sorted(out.iterdir()) == [
        out / "metrics.json"
    ]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


HEADER = "id\ttarget\ttext\tstart\tend\tsense\n"


@pytest.mark.parametrize(
    ("examples", "data", "message"),
    [
        ("id\ttarget\ttext\tstart\tend\nb1\tbank\tthe bank\t4\t8\n", None, "no sense column"),
        (HEADER, None, "no examples"),
        ("", None, "empty file"),
        (None, HEADER, "no occurrences to label"),
        (None, "id\ttarget\ttxt\tstart\tend\n", "header lacks text"),
        (None, HEADER + "q\tbank\tthe bank\t4\t80\t\n", "span 4-80 lies outside the text"),
        (None, HEADER + "q\tbat\tthe bat\t4\t7\t\nr\tcell\ta cell\t2\t6\t\n", "no examples for targets 'bat', 'cell'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(demo_split, tmp_path, capsys, examples, data, message) -> None:
    good_examples, good_data = demo_split
    examples_file = _write(tmp_path / "e.tsv", examples) if examples is not None else good_examples
    data_file = _write(tmp_path / "d.tsv", data) if data is not None else good_data
    out = tmp_path / "out"
    assert main(["predict", "--examples", str(examples_file), "--data", str(data_file), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not out.exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--out", "o"], "give both"),
        (["--data", "d.tsv"], "give both"),
        (["--senses", "s", "--data", "d.tsv", "--out", "o"], "--examples replaces --senses"),
    ],
)
def test_flags_that_do_not_go_together(tmp_path, capsys, monkeypatch, extra, message) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["predict", "--examples", "e.tsv", *extra]) == 2
    assert message in capsys.readouterr().err
    assert main(["predict", "--data", "d.tsv", "--out", "o"]) == 2
    assert "give the labelled examples too" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------- saved and loaded
def _two_targets(rule: str) -> tuple[FewShotSenses, pd.DataFrame, np.ndarray]:
    """A few-shot model of two targets on random vectors, and queries for both."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 6))
    occurrences = pd.DataFrame({"target": ["bank"] * 18 + ["bat"] * 12})
    senses = ["money"] * 10 + ["river"] * 8 + ["club"] * 5 + ["animal"] * 7
    classifier = NearestSenseClassifier(rule=rule, n_neighbors=3, margin=0.01)
    model = FewShotSenses(classifier).fit(occurrences, X, senses)
    queries = pd.DataFrame({"target": ["bat", "bank"] * 20})
    return model, queries, rng.normal(size=(40, 6))


@pytest.mark.parametrize("rule", ["knn", "centroid"])
def test_a_saved_few_shot_model_labels_exactly_as_before(tmp_path: Path, rule: str) -> None:
    from wsd.senses.nearest_persistence import load_few_shot, save_few_shot

    model, queries, Q = _two_targets(rule)
    save_few_shot(model, tmp_path / "m", {"model": "m", "dim": 6})
    loaded, embedding = load_few_shot(tmp_path / "m")
    assert embedding == {"model": "m", "dim": 6} and loaded.targets_ == ["bank", "bat"]
    pd.testing.assert_frame_equal(loaded.label(queries, Q), model.label(queries, Q))
    assert loaded.classifiers_["bat"].get_params() == model.classifiers_["bat"].get_params()
    assert loaded.n_examples() == 30 and not list(tmp_path.rglob("*.pkl"))
    # the saved examples under another rule are what fitting them with that rule gives
    other = NearestSenseClassifier(rule="centroid" if rule == "knn" else "knn", n_neighbors=1)
    refitted, _ = load_few_shot(tmp_path / "m", other)
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 6))
    occurrences = pd.DataFrame({"target": ["bank"] * 18 + ["bat"] * 12})
    senses = ["money"] * 10 + ["river"] * 8 + ["club"] * 5 + ["animal"] * 7
    fresh = FewShotSenses(other).fit(occurrences, X, senses)
    pd.testing.assert_frame_equal(refitted.label(queries, Q), fresh.label(queries, Q))


def _flip_last_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda m: (m / "00000/examples.npy").write_bytes(b"\x93NUMPY"), "truncated or overwritten"),
        (lambda m: _flip_last_byte(m / "00001/examples.npy"), "do not match the checksum"),
        (lambda m: (m / "00000/example_classes.npy").unlink(), "missing"),
        (
            lambda m: (m / "few_shot_model.json").write_text(
                (m / "few_shot_model.json").read_text(encoding="utf-8").replace('"margin": 0.01', '"margin": 0.5'),
                encoding="utf-8",
            ),
            "edited since it was written",
        ),
        (lambda m: (m / "few_shot_model.json").write_text("{", encoding="utf-8"), "cannot read the few-shot model"),
        (lambda m: (m / "few_shot_model.json").unlink(), "not a saved few-shot model"),
    ],
)
def test_a_damaged_few_shot_model_is_refused_naming_the_file(tmp_path: Path, damage, message: str) -> None:
    from wsd.senses.nearest_persistence import load_few_shot, save_few_shot

    model, _, _ = _two_targets("knn")
    folder = save_few_shot(model, tmp_path / "m")
    damage(folder)
    with pytest.raises(InputError, match=message) as caught:
        load_few_shot(folder)
    assert "\n" not in str(caught.value)


@pytest.fixture()
def named_encoder(encoder, monkeypatch) -> list[dict]:
    """The session's encoder stands for ``Encoder(**what a saved folder names)``; what was asked for is recorded."""
    asked: list[dict] = []

    def named(**options):
        asked.append(options)
        return encoder.with_options(context_vector=options.get("context_vector"))

    monkeypatch.setattr(naming_module, "Encoder", named)
    return asked


def test_a_tagger_of_examples_is_saved_and_loaded_with_its_encoder(demo_split, encoder, named_encoder, tmp_path):
    examples, data = demo_split
    encoder = encoder.with_options(context_vector="20:last:0.5")
    tagger = SenseTagger.from_examples(examples, encoder, n_neighbors=3)
    folder = tagger.save(tmp_path / "tagger")
    loaded = wsd.load(folder)  # the encoder is the one the folder names (the session's, patched in)
    identity = encoder.identity().embedding_meta()
    assert [{k: named_encoder[0][k] for k in ("layers", "pooling", "context_vector")}] == [
        {k: identity[k] for k in ("layers", "pooling", "context_vector")}
    ]
    assert named_encoder[0]["model"] == identity["model"]
    texts = ["A mouse ran along the skirting board.", "Click the right mouse button.", "The cat caught a mouse."]
    pd.testing.assert_frame_equal(loaded.predict(texts, target="mouse"), tagger.predict(texts, target="mouse"))
    held_out = read_generic(data)
    pd.testing.assert_frame_equal(loaded.label(held_out), tagger.label(held_out))
    # the saved folder stands in for the examples file: not embedded again, labelled under the rule given
    again = SenseTagger.from_examples(folder, n_neighbors=3)
    pd.testing.assert_frame_equal(again.label(held_out), tagger.label(held_out))
    with pytest.raises(ConfigError, match="embedded with their own encoder"):
        SenseTagger.from_examples(folder, layers="last")
    with pytest.raises(InputError, match="a folder without a saved few-shot model"):
        SenseTagger.from_examples(tmp_path)
    with pytest.raises(InputError, match="save\\(\\) writes a tagger made from labelled examples"):
        SenseTagger(object(), encoder).save(tmp_path / "x")  # type: ignore[arg-type]


def test_predict_examples_saves_the_examples_and_takes_them_back(
    demo_split, quick_encoder, named_encoder, tmp_path, capsys
) -> None:
    examples, data = demo_split
    first, second = tmp_path / "first", tmp_path / "second"
    assert main(["predict", "--examples", str(examples), "--data", str(data), "--out", str(first)]) == 0
    assert (first / "model" / "few_shot_model.json").is_file()
    assert manifest.listed(first / "model" / "00000" / "examples.npy") is not None, "the output folder's own file"
    assert main(["predict", "--examples", str(first), "--data", str(data), "--out", str(second)]) == 0
    columns = ["id", "sense", "probability", "margin", "fallback"]
    a, b = (pd.read_parquet(folder / "predicted.parquet")[columns] for folder in (first, second))
    pd.testing.assert_frame_equal(a, b)
    metrics = json.loads((second / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["n_examples"] == len(read_generic(examples)) and metrics["embedding"]["context_vector"]
    argv = ["predict", "--examples", str(first / "model"), "--target", "mouse", "--text", "Click the mouse button."]
    assert main(argv) == 0 and "mouse.device" in capsys.readouterr().out
    # a damaged saved model: one line, exit 2, nothing written
    _flip_last_byte(first / "model" / "00000" / "examples.npy")
    third = tmp_path / "third"
    assert main(["predict", "--examples", str(first), "--data", str(data), "--out", str(third)]) == 2
    err = capsys.readouterr().err
    assert "do not match the checksum" in err and err.count("\n") == 1 and not third.exists()
    assert main(["predict", "--examples", str(first), "--data", str(data), "--out", str(third), "--model", "x"]) == 2
    assert "embedded with their own encoder" in capsys.readouterr().err


def test_a_text_target_without_examples_is_one_line_and_exit_2(tmp_path, encoder, named_encoder, capsys) -> None:
    from wsd.senses.nearest_persistence import save_few_shot

    model, _, _ = _two_targets("knn")
    save_few_shot(model, tmp_path / "m", encoder.identity().embedding_meta())
    argv = ["predict", "--examples", str(tmp_path / "m"), "--target", "cell", "--text", "A cell in the prison."]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "target 'cell' is not one of the senses' targets (bank, bat)" in err and err.count("\n") == 1
