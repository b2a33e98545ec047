"""The leakage guard: evaluating with a wsd-tuned model records the evaluated lemmas it was trained on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from wsd.cli import main
from wsd.embed.models import bundled_model_path
from wsd.io.layout import METRICS_FILE, TUNE_FILE
from wsd.tune.card import read_tune_facts, training_overlap
from wsd.workflows.results import OPTIONAL_KEYS, metrics_document

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"


@pytest.fixture(scope="module")
def fake_tuned(tmp_path_factory) -> Path:
    """The bundled model folder (weights linked, not copied) with a wsd_tune.json: no training in these tests."""
    folder = tmp_path_factory.mktemp("fake") / "tuned"
    folder.mkdir()
    for item in bundled_model_path().iterdir():
        if item.name == "model.safetensors":
            (folder / item.name).symlink_to(item)
        elif item.is_dir():
            shutil.copytree(item, folder / item.name)
        elif item.name != "README.md":
            shutil.copyfile(item, folder / item.name)
    facts = {"format": "wsd-tune/1", "training_lemmas": ["bank", "part"], "validation_lemmas": ["cell"]}
    (folder / TUNE_FILE).write_text(json.dumps(facts), encoding="utf-8")
    return folder


def test_overlap_is_normalised_and_warned(fake_tuned):
    with pytest.warns(UserWarning, match="tuned on 2 of the evaluated lemmas"):
        assert training_overlap(str(fake_tuned), ["Bank", "part.n", "mouse_nn"]) == ["bank", "part"]
    assert training_overlap(str(fake_tuned), ["mouse"]) == []
    assert training_overlap(None, ["bank"]) is None  # the bundled model was not tuned by wsd
    assert read_tune_facts(str(fake_tuned))["training_lemmas"] == ["bank", "part"]


@pytest.mark.parametrize(
    ("content", "match"),
    [('{"training_lemmas": [', "cannot be read as JSON"), ("[1, 2]", "holds no JSON object"), (None, "cannot be read")],
)
def test_every_reader_of_a_tuned_models_card_names_a_damaged_one(tmp_path, content, match):
    """The card is read in one place (wsd.io.recipe_stamp.read_tune_card); each reader names the file."""
    from wsd.errors import ModelError
    from wsd.io.recipe_stamp import read_recipe_stamp, read_tune_card

    card = tmp_path / TUNE_FILE
    if content is None:
        card.mkdir()  # a folder where the file should be: unreadable, not missing
    else:
        card.write_text(content, encoding="utf-8")
    for read in (read_tune_card, read_recipe_stamp):
        with pytest.raises(ValueError, match=match) as caught:
            read(tmp_path)
        assert str(card) in str(caught.value)
    if content is not None:  # read_tune_facts reads a file that is there; a folder is no card to it
        with pytest.raises(ModelError, match=match):
            read_tune_facts(str(tmp_path))


def test_the_shared_reader_returns_the_card_and_its_stamp(fake_tuned, tmp_path):
    from wsd.io.recipe_stamp import read_recipe_stamp, read_tune_card

    assert read_tune_card(fake_tuned)["training_lemmas"] == ["bank", "part"]
    assert read_recipe_stamp(fake_tuned) == {}  # no recipe built it
    (tmp_path / TUNE_FILE).write_text(json.dumps({"recipe": {"name": "sense-minilm", "version": 2}}), encoding="utf-8")
    assert read_recipe_stamp(tmp_path) == {"name": "sense-minilm", "version": 2}
    (tmp_path / TUNE_FILE).write_text(json.dumps({"recipe": "sense-minilm"}), encoding="utf-8")
    assert read_recipe_stamp(tmp_path) == {}  # a stamp of the wrong shape is none


def test_metrics_document_carries_the_overlap_only_when_given():
    per_seed = [{"overall": {"ari": 0.5}, "per_target": {}}]
    assert "training_overlap" in OPTIONAL_KEYS
    assert "training_overlap" not in metrics_document("generic", {}, per_seed, {}, 1, 1)
    assert metrics_document("generic", {}, per_seed, {}, 1, 1, training_overlap=[])["training_overlap"] == []


def test_evaluate_and_run_gold_write_the_overlap_and_warn(fake_tuned, tmp_path, capsys):
    labelled = str(DEMO_DIR / "labelled.tsv")
    # PyTorch: the guard does not depend on the runtime, and OpenVINO would convert this folder anew (slow)
    common = ["--no-progress", "--precision", "fp32", "--runtime", "torch", "--model", str(fake_tuned)]
    args = ["evaluate", "--dataset", "generic", "--data", labelled, "--targets", "bank", "--out", str(tmp_path / "e")]
    assert main([*args, *common]) == 0
    assert json.loads((tmp_path / "e" / METRICS_FILE).read_text())["training_overlap"] == ["bank"]
    assert "tuned on 1 of the evaluated lemmas (bank)" in capsys.readouterr().err
    args = ["run", "--corpus", str(DEMO_DIR / "corpus.txt"), "--targets", "bank", "--gold", labelled]
    assert main([*args, "--out", str(tmp_path / "r"), *common]) == 0
    assert json.loads((tmp_path / "r" / METRICS_FILE).read_text())["training_overlap"] == ["bank"]
    assert "tuned on 1 of the evaluated lemmas" in capsys.readouterr().err


def test_an_untuned_model_writes_no_overlap(tmp_path):
    labelled = str(DEMO_DIR / "labelled.tsv")
    args = ["evaluate", "--dataset", "generic", "--data", labelled, "--targets", "bank", "--out", str(tmp_path / "e")]
    assert main([*args, "--no-progress", "--precision", "fp32"]) == 0
    assert "training_overlap" not in json.loads((tmp_path / "e" / METRICS_FILE).read_text())


@pytest.mark.slow  # trains an encoder (1 step) per role
@pytest.mark.parametrize("role", ["--model", "--teacher"])
def test_a_student_inherits_the_lemmas_its_tuned_base_model_or_teacher_had_seen(fake_tuned, tmp_path, role, capsys):
    import pandas as pd

    table = pd.read_csv(DEMO_DIR / "labelled.tsv", sep="\t", keep_default_na=False)
    russian = tmp_path / "russian.tsv"
    table.loc[table["target"].isin(["замок", "ключ"])].to_csv(russian, sep="\t", index=False)
    out = tmp_path / "student"
    argv = ["tune", "--train", f"generic:{russian}", "--out", str(out), role, str(fake_tuned), "--no-progress"]
    argv += ["--validation-fraction", "0"]
    assert main([*argv, "--max-steps", "1", "--batch-uses", "4", "--device", "cpu", "--precision", "fp32"]) == 0
    facts = read_tune_facts(str(out))
    assert facts["training_lemmas"] == ["замок", "ключ"] and facts["inherited_lemmas"] == ["bank", "cell", "part"]
    with pytest.warns(UserWarning, match="tuned on 2 of the evaluated lemmas"):
        assert training_overlap(str(out), ["bank_nn", "замок", "mouse"]) == ["bank", "замок"]
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "- lemmas its wsd-tuned base model or teacher had seen (3; the leakage guard counts them too)" in card


def test_a_teacher_whose_tuning_facts_are_damaged_is_one_line_before_anything_is_written(fake_tuned, tmp_path, capsys):
    damaged = tmp_path / "damaged"
    shutil.copytree(fake_tuned, damaged, symlinks=True)
    (damaged / TUNE_FILE).write_text("{not json", encoding="utf-8")
    argv = ["tune", "--train", f"generic:{DEMO_DIR / 'labelled.tsv'}", "--out", str(tmp_path / "x")]
    assert main([*argv, "--teacher", str(damaged), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "--teacher: " in err and "cannot be read as JSON" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()
