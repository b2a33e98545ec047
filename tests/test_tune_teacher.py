"""``wsd tune --teacher``: every training pair labelled by a teacher encoder's cosine (distillation)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from wsd.cli import main
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
    teacher = Teacher("default", layers="sum-last-4", pooling="mean", device="cpu")
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


def test_a_run_with_a_teacher_records_it(tmp_path, capsys):
    out = tmp_path / "distilled"
    argv = ["tune", "--train", f"generic:{DEMO}", "--out", str(out), "--teacher", "default", "--no-progress"]
    argv += ["--max-steps", "2", "--batch-uses", "4", "--device", "cpu", "--precision", "fp32"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "every pair labelled by the teacher all-MiniLM-L6-v2" in capsys.readouterr().out
    facts = json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))
    assert facts["teacher"]["name"] == "all-MiniLM-L6-v2" and facts["config"]["options"]["teacher"] == "default"
    assert facts["training"]["loss"] == {"graded": "cosent"}  # the source's binary labels are not what trained
    assert "- teacher: `all-MiniLM-L6-v2`" in (out / "README.md").read_text(encoding="utf-8")


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
