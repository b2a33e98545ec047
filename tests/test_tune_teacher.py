"""``wsd tune --teacher``: every training pair labelled by a teacher encoder's cosine (distillation)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.cli import main
from wsd.errors import ConfigError
from wsd.options import TuneOptions
from wsd.tune.batches import Batch
from wsd.tune.teacher import Teacher, cosine_to_graded

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "labelled.tsv"


def test_cosines_map_onto_the_graded_scale_in_order():
    graded = cosine_to_graded(np.array([-1.0, -0.2, 0.3, 1.0, 1.2]))
    assert graded[0] == 1.0 and graded[3] == 4.0 and graded[4] == 4.0  # clipped
    assert np.all(np.diff(graded) >= 0) and graded[2] == pytest.approx(1 + 3 * 1.3 / 2)


def test_a_teacher_labels_a_batch_by_its_own_cosines(encoder):
    texts = ["the bank lent money", "a loan from the bank", "the river bank was muddy"]
    spans = np.array([[4, 8], [16, 20], [10, 14]])
    teacher = Teacher(TuneOptions(teacher="default", device="cpu"))
    batch = Batch(np.arange(3), np.array([0, 0, 1]), np.array([1, 2, 2]), np.array([1.0, 0.0, 0.0]), "binary")
    relabelled = teacher.relabel(batch, texts, spans)
    assert relabelled.kind == "graded" and relabelled.labels.shape == (3,)
    assert np.all((relabelled.labels >= 1) & (relabelled.labels <= 4))
    vectors = teacher.encoder.embed_spans(texts, spans).astype(np.float64)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    expected = cosine_to_graded((unit[[0, 0, 1]] * unit[[1, 2, 2]]).sum(1))
    np.testing.assert_allclose(relabelled.labels, expected, atol=1e-6)
    assert np.array_equal(relabelled.first, batch.first) and batch.kind == "binary"  # the input is not changed
    assert teacher.identity["name"] == "all-MiniLM-L6-v2"


@pytest.mark.slow  # trains an encoder (2 steps) with the teacher labelling every pair
def test_a_run_with_a_teacher_records_it(tmp_path, capsys):
    out = tmp_path / "distilled"
    argv = ["tune", "--train", f"generic:{DEMO}", "--out", str(out), "--teacher", "default", "--no-progress"]
    argv += ["--max-steps", "2", "--batch-uses", "4", "--device", "cpu", "--precision", "fp32"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "every training pair labelled by the teacher all-MiniLM-L6-v2" in capsys.readouterr().out
    facts = json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))
    assert facts["teacher"]["name"] == "all-MiniLM-L6-v2" and facts["config"]["options"]["teacher"] == "default"
    assert facts["training"]["loss"] == {"graded": "cosent"}  # the source's binary labels are not what trained
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "- teacher: `all-MiniLM-L6-v2`" in card and "labelled every training pair by its cosine" in card
    assert re.search(r"training time: \d+(\.\d)? s on ", card)  # whole seconds, a decimal below 10 s


def test_a_teacher_that_is_not_there_is_one_line_before_any_source_is_read(tmp_path, capsys):
    argv = ["tune", "--train", "wug:no/such/folder", "--out", str(tmp_path / "x"), "--teacher", str(tmp_path / "no")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--teacher: model folder not found" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_a_teacher_that_cannot_load_leaves_no_output_folder(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    argv = ["tune", "--train", f"generic:{DEMO}", "--out", str(tmp_path / "x"), "--teacher", str(tmp_path / "empty")]
    assert main([*argv, "--max-steps", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "--teacher: model folder" in err and "is empty" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_a_teacher_of_unlabelled_pairs_leaves_labelled_batches_as_they_are(encoder):
    texts = ["the bank lent money", "a loan from the bank", "the river bank was muddy"]
    spans = np.array([[4, 8], [16, 20], [10, 14]])
    teacher = Teacher(TuneOptions(teacher="default", device="cpu", teacher_labels="unlabelled"))
    pairs = (np.arange(3), np.array([0, 0, 1]), np.array([1, 2, 2]))
    binary = Batch(*pairs, np.array([1.0, 0.0, 0.0]), "binary")
    assert teacher.relabel(binary, texts, spans) is binary  # human labels train as they are
    unlabelled = Batch(*pairs, np.full(3, np.nan), "unlabelled")
    relabelled = teacher.relabel(unlabelled, texts, spans)
    assert relabelled.kind == "graded" and np.all((relabelled.labels >= 1) & (relabelled.labels <= 4))
    assert teacher.identity["labels"] == "unlabelled"
    with pytest.raises(ConfigError, match="teacher_labels: 'some' is not one of all, unlabelled"):
        Teacher(TuneOptions(teacher="default", device="cpu", teacher_labels="some"))
    with pytest.raises(ConfigError, match="a teacher needs its model"):
        Teacher(TuneOptions(device="cpu"))


@pytest.mark.slow  # trains an encoder (3 steps) with a teacher
def test_human_labels_and_a_teacher_of_unlabelled_uses_train_side_by_side(tmp_path, capsys):
    table = pd.read_csv(DEMO, sep="\t", keep_default_na=False)
    labelled, uses = tmp_path / "labelled.tsv", tmp_path / "uses.tsv"
    table.loc[table["target"].isin(["замок", "ключ", "лук"])].to_csv(labelled, sep="\t", index=False)
    english = table.loc[table["target"].isin(["bank", "bat", "plant"])].drop(columns="sense")
    english.to_csv(uses, sep="\t", index=False)
    out = tmp_path / "mixed"
    argv = ["tune", "--train", f"generic:{labelled}", "--train", f"uses:{uses}", "--out", str(out)]
    argv += ["--teacher", "default", "--teacher-labels", "unlabelled", "--validation-lemmas", "plant"]
    argv += ["--max-steps", "3", "--batch-uses", "8", "--device", "cpu", "--precision", "fp32", "--no-progress"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "the unlabelled training pairs (uses:FILE; the others kept their labels) labelled by the teacher" in (
        capsys.readouterr().out
    )
    facts = json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))
    assert facts["teacher"]["labels"] == "unlabelled" and facts["config"]["options"]["teacher_labels"] == "unlabelled"
    assert facts["training"]["loss"] == {"binary": "contrastive", "graded": "cosent"}  # WordNet-like labels kept
    counts = {source["name"]: source["counts"] for source in facts["sources"]}
    assert counts[f"generic:{labelled}"]["unlabelled"] == 0 and counts[f"uses:{uses}"]["unlabelled"] == 2 * 990
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "labelled the unlabelled training pairs (uses:FILE; the others kept their labels) by its cosine" in card


def test_teacher_labels_without_a_teacher_is_one_line_and_nothing_is_written(tmp_path, capsys):
    argv = ["tune", "--train", f"generic:{DEMO}", "--out", str(tmp_path / "x"), "--teacher-labels", "unlabelled"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "teacher_labels 'unlabelled': it needs a teacher (--teacher MODEL)" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_a_teacher_of_unlabelled_pairs_without_any_is_one_line_and_nothing_is_written(tmp_path, capsys):
    argv = ["tune", "--train", f"generic:{DEMO}", "--out", str(tmp_path / "x"), "--teacher", "default"]
    assert main([*argv, "--teacher-labels", "unlabelled", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "no training source has unlabelled pairs (uses:FILE)" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()
