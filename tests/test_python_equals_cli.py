"""Python and the command line give the same answers (issue 43, item 7).

- The same vectors and senses: ``wsd embed`` + ``wsd cluster`` with their defaults, against :func:`wsd.embed_corpus`
  with its defaults and :func:`wsd.senses.stage.cluster_run` with :meth:`wsd.SenseInducer.from_recipe`.
- The same predictions of a saved model: a :class:`wsd.SenseModel` fitted and saved from Python records the forms its
  targets were seen in (*mice*), so :func:`wsd.load` finds them in new text as it does for ``wsd cluster``'s folder.
- The same evaluation: :func:`wsd.evaluate_dataset` resolves its arguments as ``wsd evaluate`` resolves its flags and
  runs the same job (:func:`wsd.workflows.evaluation.evaluate_job`), so both write the same ``metrics.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import wsd
from wsd.cli import build_parser, main
from wsd.errors import ConfigError
from wsd.io.layout import CONFIG_FILE, LABELS_FILE, METRICS_FILE, MODEL_DIR, PER_TARGET_FILE, system_key_name
from wsd.options import EmbeddingOptions, EvaluationOptions, SenseOptions
from wsd.schema import DEFAULT_CONTEXT_VECTOR
from wsd.senses.stage import cluster_run
from wsd.workflows import evaluation
from wsd.workflows.evaluation import EvaluationResult

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"
CORPUS = DEMO / "corpus.txt"
LABELLED = DEMO / "labelled.tsv"
TARGETS = "mouse:mice,bank"
#: Both sides load the bundled encoder the same way (fp32 on the CPU: exact comparisons on any machine).
ENCODER = {"precision": "fp32", "device": "cpu"}
#: New text with the inflected form only the run's scan (mouse:mice) knows, and the base form.
NEW_TEXTS = ["Two mice ran under the kitchen table.", "Click the left mouse button twice."]


def _labels(senses: Path) -> pd.DataFrame:
    return pd.read_parquet(senses / LABELS_FILE).sort_values("id").reset_index(drop=True)


@pytest.fixture(scope="module")
def both(tmp_path_factory) -> SimpleNamespace:
    """The demo corpus embedded and clustered by the command line and by Python, each with its defaults."""
    tmp_path = tmp_path_factory.mktemp("python-equals-cli")
    cli_run, cli_senses = tmp_path / "cli-run", tmp_path / "cli-senses"
    encoder_flags = [f"--{name}={value}" for name, value in ENCODER.items()]
    embed = ["embed", "--corpus", str(CORPUS), "--targets", TARGETS, "--out", str(cli_run), *encoder_flags]
    assert main([*embed, "--no-progress"]) == 0
    assert main(["cluster", "--run", str(cli_run), "--out", str(cli_senses), "--no-progress"]) == 0

    py_run = wsd.embed_corpus(CORPUS, TARGETS, tmp_path / "py-run", progress=False, **ENCODER)
    py_senses = cluster_run(py_run, tmp_path / "py-senses", inducer=wsd.SenseInducer.from_recipe())
    return SimpleNamespace(
        tmp_path=tmp_path, cli_run=cli_run, cli_senses=cli_senses, py_run=py_run, py_senses=py_senses
    )


@pytest.mark.slow  # two encoder loads and two embeddings of the demo corpus: about 15 s
def test_python_and_the_cli_give_the_same_vectors_and_senses(both):
    cli_run, cli_senses, py_run, py_senses = both.cli_run, both.cli_senses, both.py_run, both.py_senses
    cli_occurrences, cli_vectors = wsd.load_run(cli_run)
    py_occurrences, py_vectors = wsd.load_run(py_run)
    assert cli_vectors.shape == py_vectors.shape
    assert cli_vectors.shape[1] == 768  # the default recipe's context vector beside the word's own 384 dimensions
    assert py_occurrences["id"].tolist() == cli_occurrences["id"].tolist()
    np.testing.assert_allclose(py_vectors, cli_vectors, rtol=1e-5, atol=1e-6)

    cli_labels, py_labels = _labels(cli_senses), _labels(py_senses)
    assert set(cli_labels["target"]) == {"mouse", "bank"}
    assert cli_labels["id"].tolist() == py_labels["id"].tolist()
    assert cli_labels["sense"].tolist() == py_labels["sense"].tolist()
    np.testing.assert_allclose(np.stack(py_labels["memberships"]), np.stack(cli_labels["memberships"]), atol=1e-6)
    assert cli_labels.groupby("target")["sense"].nunique().min() >= 2  # the default recipe splits both words


@pytest.mark.slow  # the runs of the test above, and one more encoder load to predict: about 5 s more
def test_a_model_saved_from_python_predicts_what_the_clis_predicts(both):
    occurrences, X = wsd.load_run(both.py_run)
    model = wsd.SenseModel(wsd.SenseInducer.from_recipe(), embedding_meta=both.py_run).fit(occurrences, X)
    saved = model.save(both.tmp_path / "py-model")  # a model folder alone: no meta.json naming the run
    cli_model = wsd.SenseModel.load(both.cli_senses / MODEL_DIR)
    assert wsd.SenseModel.load(saved).forms_ == cli_model.forms_ == model.forms_
    assert model.forms_["mouse"] == ["mice", "mouse"]

    cli_tagger = wsd.load(both.cli_senses, **ENCODER)
    py_tagger = wsd.load(saved, encoder=cli_tagger.encoder)  # the encoder its identity names: the same vectors
    cli_frame = cli_tagger.predict(NEW_TEXTS, target="mouse")
    py_frame = py_tagger.predict(NEW_TEXTS, target="mouse")
    assert py_frame["form"].tolist() == cli_frame["form"].tolist() == ["mice", "mouse"]
    assert py_frame["sense"].tolist() == cli_frame["sense"].tolist()
    assert cli_frame["sense"].nunique() == 2, "the animal and the device"
    np.testing.assert_allclose(np.stack(py_frame["probabilities"]), np.stack(cli_frame["probabilities"]), atol=1e-6)


def test_a_model_saved_from_python_finds_the_forms_it_was_fitted_on(tmp_path):
    forms = ["mouse", "mice", "Mouse", "mouse", "mice", "mouse"]
    occurrences = pd.DataFrame(
        {
            "id": [f"d:{i}" for i in range(len(forms))],
            "target": "mouse",
            "form": forms,
            "text": [f"a {form} here" for form in forms],
            "start": 2,
            "end": [2 + len(form) for form in forms],
            "doc_id": "d",
            "doc_start": 0,
        }
    )
    X = np.random.default_rng(0).normal(size=(len(forms), 4))
    saved = wsd.SenseModel(wsd.SenseInducer(k=2, random_state=0)).fit(occurrences, X).save(tmp_path / "model")
    assert json.loads((saved / "sense_model.json").read_text())["targets"][0]["forms"] == ["Mouse", "mice", "mouse"]
    tagger = wsd.load(saved, encoder=object())  # finding the word needs no encoder
    found = tagger.find(["Two mice hid in the barn.", "A mouse.", "No such word."], "mouse")
    assert found["form"].tolist() == ["mice", "mouse"] and found["text_id"].tolist() == [0, 1]


def test_a_run_folder_is_the_identity_of_its_vectors(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "meta.json").write_text(json.dumps({"embedding": {"model": "m", "dim": 4}}), encoding="utf-8")
    from wsd.senses.model import embedding_identity

    assert embedding_identity(run) == {"model": "m", "dim": 4}
    (run / "meta.json").write_text("{}", encoding="utf-8")
    with pytest.raises(wsd.WsdError, match="records no embedding identity"):
        embedding_identity(run)


# ------------------------------------------------------------------------------------------------ evaluate
def _resolved(monkeypatch, run) -> dict:
    """The resolved configuration ``run()`` hands to the evaluation job (the job itself does not run)."""
    seen = {}

    def job(config, progress=True, overwrite=False, executor=None):
        seen["config"] = config
        return EvaluationResult({"dataset": "generic", "overall": {}})

    monkeypatch.setattr(evaluation, "evaluate_job", job)
    run()
    return seen["config"]


def test_python_and_the_cli_resolve_the_same_evaluation(monkeypatch, tmp_path, capsys):
    flags = ["--dataset", "generic", "--data", str(LABELLED), "--targets", "bank,cell", "--seeds", "2"]
    flags += ["--layers", "last", "--method", "ward", "--k", "3", "--no-graded", "--out", str(tmp_path / "e")]
    cli = _resolved(monkeypatch, lambda: main(["evaluate", *flags, "--no-progress"]))
    python = _resolved(
        monkeypatch,
        lambda: wsd.evaluate_dataset(
            "generic",
            LABELLED,
            targets="bank,cell",
            seeds=2,
            embedding=EmbeddingOptions(layers="last"),
            senses=SenseOptions(method="ward"),
            k=3,  # a keyword lands in its options object
            graded=False,
            out=tmp_path / "e",
            progress=False,
        ),
    )
    assert python == cli
    assert cli["senses"]["method"] == "ward" and cli["embedding"]["context_vector"] == DEFAULT_CONTEXT_VECTOR
    objects = _resolved(  # the [evaluation] settings as their options object, as the other sections
        monkeypatch,
        lambda: wsd.evaluate_dataset(
            "generic",
            LABELLED,
            evaluation=EvaluationOptions(targets=("bank", "cell"), seeds=2, graded=False),
            embedding=EmbeddingOptions(layers="last"),
            senses=SenseOptions(method="ward", k=3),
            out=tmp_path / "e",
            progress=False,
        ),
    )
    assert objects == cli
    capsys.readouterr()


def test_python_finds_the_dataset_under_data_dir_as_the_cli_does(monkeypatch):
    fixtures = str(Path(__file__).parent / "fixtures" / "datasets")
    run = lambda **kw: _resolved(monkeypatch, lambda: wsd.evaluate_dataset("semeval2010", **kw))  # noqa: E731
    args = build_parser().parse_args(["evaluate", "--dataset", "semeval2010", "--data-dir", fixtures])
    from wsd.cli.settings import command_config

    assert run(data_dir=fixtures) == command_config("evaluate", args)
    monkeypatch.setenv("WSD_DATA_DIR", fixtures)
    assert run()["evaluation"]["data"] == fixtures
    assert run(data=str(LABELLED), data_dir="elsewhere")["evaluation"]["data"] == str(LABELLED)


def test_python_evaluate_refuses_what_the_evaluation_does_not_use():
    with pytest.raises(ConfigError, match=r"senses\.seed: .*seeds=N"):
        wsd.evaluate_dataset("generic", LABELLED, senses=SenseOptions(seed=3))
    with pytest.raises(TypeError, match="did you mean 'layers'"):
        wsd.evaluate_dataset("generic", LABELLED, layer="last")
    with pytest.raises(ConfigError, match="--report needs --out"):
        wsd.evaluate_dataset("generic", LABELLED, report=True)


@pytest.mark.slow  # two evaluations of the demo's bank and cell, each with its encoder load: about 15 s
def test_python_evaluate_gives_the_clis_metrics(tmp_path, capsys):
    flags = ["--dataset", "generic", "--data", str(LABELLED), "--targets", "bank,cell", "--seeds", "2"]
    cli_out, py_out = tmp_path / "cli", tmp_path / "py"
    assert main(["evaluate", *flags, "--out", str(cli_out), "--precision", "fp32", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    result = wsd.evaluate_dataset(
        "generic", LABELLED, targets=["bank", "cell"], seeds=2, out=py_out, precision="fp32", progress=False
    )
    cli_metrics = json.loads((cli_out / METRICS_FILE).read_text(encoding="utf-8"))
    assert json.loads(json.dumps(result.metrics)) == cli_metrics  # every score, the config, the embedding
    assert json.loads((py_out / METRICS_FILE).read_text(encoding="utf-8")) == cli_metrics
    for name in (PER_TARGET_FILE, system_key_name(0), system_key_name(1)):
        assert (py_out / name).read_bytes() == (cli_out / name).read_bytes(), name
    config = (py_out / CONFIG_FILE).read_text(encoding="utf-8").replace(str(py_out.resolve()), "OUT")
    assert config == (cli_out / CONFIG_FILE).read_text(encoding="utf-8").replace(str(cli_out.resolve()), "OUT")

    scores = result.scores
    assert scores.index.tolist() == ["bank", "cell", "overall"]
    per_target = pd.read_csv(cli_out / PER_TARGET_FILE, index_col="target")
    pd.testing.assert_frame_equal(scores.drop(index="overall"), per_target, check_names=False)
    assert scores.loc["overall"].to_dict() == pytest.approx(cli_metrics["overall"])
    assert result.baselines.loc["random", "ari"] == cli_metrics["baselines"]["random"]["ari"]
    assert str(result) in printed and result.out == py_out


def test_the_python_default_context_vector_is_the_recipes():
    from wsd.senses.recipes import embedding_recipe, recipe

    assert embedding_recipe("default")["context_vector"] == DEFAULT_CONTEXT_VECTOR
    assert (
        wsd.SenseInducer.from_recipe().get_params()
        == wsd.SenseInducer(**recipe("default"), random_state=0).get_params()
    )
