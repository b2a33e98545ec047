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


def test_metrics_document_carries_the_overlap_only_when_given():
    per_seed = [{"overall": {"ari": 0.5}, "per_target": {}}]
    assert "training_overlap" in OPTIONAL_KEYS
    assert "training_overlap" not in metrics_document("generic", {}, per_seed, {}, 1, 1)
    assert metrics_document("generic", {}, per_seed, {}, 1, 1, training_overlap=[])["training_overlap"] == []


def test_evaluate_and_run_gold_write_the_overlap_and_warn(fake_tuned, tmp_path, capsys):
    labelled = str(DEMO_DIR / "labelled.tsv")
    common = ["--no-progress", "--precision", "fp32", "--model", str(fake_tuned)]
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
