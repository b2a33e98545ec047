"""``wsd tune --train uses:FILE``: unlabelled uses of running text, paired completely, labelled by a teacher."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.cli import main
from wsd.errors import ConfigError, InputError
from wsd.tune import TuneOptions, tune_encoder
from wsd.tune.pairs import UNLABELLED, PairSet
from wsd.tune.sources import read_source, source_lemmas
from wsd.tune.teacher import Teacher
from wsd.tune.usages import load, uses_for_pairs

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "labelled.tsv"


@pytest.fixture
def uses_file(tmp_path) -> Path:
    """The demo's English uses without their senses (bank 47, bat 47, cell 50, mouse 56, plant 47)."""
    table = pd.read_csv(DEMO, sep="\t", keep_default_na=False)
    table = table.loc[table["target"].isin(["bank", "bat", "cell", "mouse", "plant"])].drop(columns="sense")
    path = tmp_path / "uses.tsv"
    table.to_csv(path, sep="\t", index=False)
    return path


def test_uses_for_pairs_is_the_largest_complete_pairing_within_the_cap():
    for cap in (1, 2, 3, 10, 990, 1000, 1034, 1035):
        n = uses_for_pairs(cap)
        assert n * (n - 1) // 2 <= cap < (n + 1) * n // 2
    assert uses_for_pairs(None) is None
    with pytest.raises(ConfigError, match="at least 1"):
        uses_for_pairs(0)


def test_each_lemma_is_sampled_to_the_cap_and_paired_completely(uses_file):
    pairset = load(uses_file, max_pairs_per_lemma=300, random_state=0)
    keep = uses_for_pairs(300)  # 25 uses, 300 pairs
    assert pairset.lemmas == ["bank", "bat", "cell", "mouse", "plant"]
    assert (pairset.uses.groupby("lemma").size() == keep).all()
    assert (pairset.pairs.groupby("lemma").size() == keep * (keep - 1) // 2).all()
    assert (pairset.pairs["kind"] == UNLABELLED).all() and pairset.pairs["label"].isna().all()
    stats = pairset.stats[f"uses:{uses_file}"]
    assert stats["records"] == 247 and stats["lemmas"] == 5 and stats["capped_lemmas"] == 5
    counts = pairset.counts().iloc[0]
    assert counts["unlabelled"] == counts["pairs"] == 5 * 300 and counts["graded"] == counts["same"] == 0
    # the sample is seeded, and a lemma's sample does not depend on the other lemmas in the file
    again = load(uses_file, max_pairs_per_lemma=300, random_state=0)
    pd.testing.assert_frame_equal(pairset.uses, again.uses)
    alone_path = uses_file.with_name("mouse.tsv")
    table = pd.read_csv(uses_file, sep="\t", keep_default_na=False)
    table.loc[table["target"] == "mouse"].to_csv(alone_path, sep="\t", index=False)
    alone = load(alone_path, max_pairs_per_lemma=300, random_state=0, name=f"uses:{uses_file}")
    assert list(alone.uses["text"]) == list(pairset.uses.loc[pairset.uses["lemma"] == "mouse", "text"])
    other = load(uses_file, max_pairs_per_lemma=300, random_state=1)
    assert set(other.uses["text"]) != set(pairset.uses["text"])


def test_without_a_cap_every_use_is_kept_and_single_uses_are_dropped(tmp_path):
    path = tmp_path / "uses.jsonl"
    rows = [
        {"id": "a", "target": "Bank", "text": "the bank", "start": 4, "end": 8},
        {"id": "b", "target": "bank_nn", "text": "a bank loan", "start": 2, "end": 6},
        {"id": "c", "target": "bank", "text": "river bank", "start": 6, "end": 10},
        {"id": "d", "target": "lonely", "text": "so lonely", "start": 3, "end": 9},
    ]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    pairset = read_source(f"uses:{path}", max_pairs_per_lemma=None)
    assert pairset.lemmas == ["bank"] and len(pairset) == 3 and len(pairset.uses) == 3
    assert pairset.stats[f"uses:{path}"]["single_use_lemmas"] == 1
    assert source_lemmas(f"uses:{path}") == {"bank", "lonely"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("id\ttarget\ttext\tstart\tend\n", "holds no use"),
        ("id\ttarget\ttext\tstart\tend\na\tbank\tthe bank\t4\t8\nb\tcell\ta cell\t2\t6\n", "no lemma has two uses"),
        ("id\ttarget\ttext\tstart\tend\na\tbank\tthe bank\t4\t80\n", ":2:"),
        ("id\ttarget\ttext\nа\tbank\tthe bank\n", "start"),
    ],
)
def test_a_bad_uses_file_is_one_clear_error(tmp_path, content, message):
    path = tmp_path / "uses.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load(path)


def test_a_uses_file_in_another_encoding_or_empty_is_one_line_and_exit_2(tmp_path, capsys):
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("id\ttarget\ttext\tstart\tend\na\tcafé\tle café noir\t3\t7\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin\.tsv"):
        load(latin)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    for path in (latin, empty):
        argv = ["tune", "--train", f"uses:{path}", "--out", str(tmp_path / "x"), "--teacher", "default"]
        assert main([*argv, "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert str(path.name) in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_unlabelled_pairs_are_refused_without_a_teacher_and_nothing_is_written(uses_file, tmp_path, capsys):
    out = tmp_path / "tuned"
    with pytest.raises(ConfigError, match="--teacher"):
        tune_encoder([f"uses:{uses_file}"], out, options=TuneOptions(max_steps=1))
    assert main(["tune", "--train", f"uses:{uses_file}", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "its uses have no labels; give --teacher MODEL" in err and "Traceback" not in err
    assert not out.exists()


def test_a_pairset_rejects_a_label_on_an_unlabelled_pair():
    uses = pd.DataFrame(
        {"use_id": ["s#1", "s#2"], "lemma": "bank", "text": ["a bank", "the bank"], "start": [2, 4], "end": [6, 8]}
    ).assign(source="s")
    pairs = pd.DataFrame(
        {"use_id_1": ["s#1"], "use_id_2": ["s#2"], "lemma": ["bank"], "label": [1.0], "kind": [UNLABELLED]}
    ).assign(source="s")
    with pytest.raises(InputError, match="unlabelled none"):
        PairSet(uses, pairs)
    assert len(PairSet(uses, pairs.assign(label=np.nan))) == 1


def test_the_teacher_labels_held_out_unlabelled_pairs_once(uses_file, encoder):
    pairset = load(uses_file, max_pairs_per_lemma=10, random_state=0)
    teacher = Teacher(TuneOptions(teacher="default", device="cpu"))
    labelled = teacher.label_unlabelled(pairset)
    assert (labelled.pairs["kind"] == "graded").all() and labelled.pairs["label"].between(1, 4).all()
    row = labelled.pairs.iloc[7]
    sides = pairset.uses.set_index("use_id").loc[[row["use_id_1"], row["use_id_2"]]]
    vectors = teacher.encoder.embed_spans(list(sides["text"]), sides[["start", "end"]].to_numpy()).astype(float)
    cosine = vectors[0] @ vectors[1] / np.linalg.norm(vectors[0]) / np.linalg.norm(vectors[1])
    assert row["label"] == pytest.approx(1 + 1.5 * (cosine + 1), abs=1e-6)
    assert pairset.pairs["label"].isna().all()  # the input is not changed


@pytest.mark.slow  # trains an encoder (2 steps) with a teacher
def test_a_run_on_unlabelled_uses_with_a_teacher_trains_and_validates_against_it(uses_file, tmp_path, capsys):
    out = tmp_path / "distilled"
    argv = ["tune", "--train", f"uses:{uses_file}", "--out", str(out), "--teacher", "default", "--no-progress"]
    argv += ["--max-steps", "2", "--batch-uses", "8", "--device", "cpu", "--precision", "fp32"]
    argv += ["--validation-lemmas", "plant"]
    assert main(argv) == 0, capsys.readouterr().err
    facts = json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))
    assert facts["training"]["loss"] == {"graded": "cosent"} and facts["validation_lemmas"] == ["plant"]
    (source,) = facts["sources"]
    assert source["lemmas"] == ["bank", "bat", "cell", "mouse"] and source["counts"]["unlabelled"] == 4 * 990
    before, final = facts["validation"]["history"][0], facts["validation"]["history"][-1]
    assert before["pairs"] == final["pairs"] == 990  # plant's pairs, labelled by the teacher
    assert before["graded_spearman"] == pytest.approx(1.0, abs=1e-3)  # the student starts as its teacher
    assert math.isfinite(final["graded_spearman"]) and final["graded_spearman"] > 0.9
    card = (out / "README.md").read_text(encoding="utf-8")
    assert f"| `uses:{uses_file}` | 4 | 180 | 3960 | 0 | 0 | 0 | 3960 |" in card
