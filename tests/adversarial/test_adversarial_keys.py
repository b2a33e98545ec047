"""Adversarial key files and scoring: empty keys, folders, bad bytes, malformed lines, ids with '/'."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from wsd.errors import InputError
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.keys import key_from_labels, key_from_occurrences, read_key, write_key
from wsd.evaluate.scoring import SCORERS, score_keys

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "datasets"

#: (case, key-file bytes, expected key or an error pattern)
READ_CASES = [
    ("ok", b"a.n a.n.1 s1/4 s2/2\na.n a.n.2 s1\n", {"a.n": {"a.n.1": {"s1": 1.0, "s2": 0.5}, "a.n.2": {"s1": 1.0}}}),
    ("bom", b"\xef\xbb\xbfa.n a.n.1 s1\n", {"a.n": {"a.n.1": {"s1": 1.0}}}),
    (
        "ids with slashes",
        b"\xd1\x81\xd1\x83\xd0\xba wiki-wiki/train/17 3\n",
        {"сук": {"wiki-wiki/train/17": {"3": 1.0}}},
    ),
    ("empty", b"", r"key file .*k\.key holds no key line"),
    ("blank lines only", b"\n  \n\r\n", r"holds no key line"),
    ("two fields", b"a.n a.n.1 s1\na.n a.n.2\n", r"k\.key: malformed sense description on line 2: 'a\.n a\.n\.2'"),
    ("one field", b"a.n\n", r"malformed sense description on line 1"),
    ("bad weight", b"a.n a.n.1 s1/x\n", r"k\.key line 1: malformed sense weight 'x'"),
    ("negative weight", b"a.n a.n.1 s1/-1\n", r"k\.key line 1: sense weight '-1' must be a finite number >= 0"),
    ("NaN weight", b"a.n a.n.1 s1/NaN\n", r"line 1: sense weight 'NaN' must be a finite number"),
    ("zero weights", b"a.n a.n.1 s1/0 s2/0\n", r"line 1: all sense weights are zero"),
    ("latin-1", "a.n a.n.1 s1\na.n café s1\n".encode("latin-1"), r"key file .*k\.key line 2: not UTF-8 \(byte 0xe9"),
    ("utf-16", "a.n a.n.1 s1\n".encode("utf-16"), r"looks like UTF-16"),
    ("binary", bytes(range(256)), r"not UTF-8"),
]


@pytest.mark.parametrize(("name", "data", "expected"), READ_CASES, ids=[c[0] for c in READ_CASES])
def test_read_key(tmp_path, name, data, expected):
    path = tmp_path / "k.key"
    path.write_bytes(data)
    if isinstance(expected, dict):
        assert read_key(path) == expected
    else:
        with pytest.raises(InputError, match=expected) as error:
            read_key(path)
        assert "\n" not in str(error.value)


def test_read_key_of_a_folder_or_nothing(tmp_path):
    with pytest.raises(InputError, match=r"key file .* is a folder, not a file"):
        read_key(tmp_path)
    with pytest.raises(InputError, match=r"key file not found"):
        read_key(tmp_path / "missing.key")


#: (case, key, error pattern) — what write_key refuses, because it would not read back as written
WRITE_CASES = [
    ("sense with slash", {"a.n": {"i1": {"s/1": 1.0}}}, r"the sense 's/1' is empty or contains whitespace or '/'"),
    ("instance with space", {"a.n": {"i 1": {"s": 1.0}}}, r"the instance id 'i 1' is empty or contains whitespace"),
    ("target with newline", {"a\nn": {"i1": {"s": 1.0}}}, r"the target 'a\\nn' is empty or contains whitespace"),
    ("empty instance", {"a.n": {"": {"s": 1.0}}}, r"the instance id '' is empty"),
    ("comment sense", {"a.n": {"i1": {"!!s": 1.0}}}, r"the sense '!!s' starts with '!!'"),
    ("no sense", {"a.n": {"i1": {}}}, r"instance 'i1' of target 'a\.n': no sense"),
    ("NaN weight", {"a.n": {"i1": {"s": float("nan"), "t": 1.0}}}, r"weights must be finite numbers >= 0"),
    ("negative weight", {"a.n": {"i1": {"s": -0.5, "t": 1.0}}}, r"weights must be finite numbers >= 0"),
    ("zero weights", {"a.n": {"i1": {"s": 0.0, "t": 0.0}}}, r"not all 0"),
]


@pytest.mark.parametrize(("name", "key", "expected"), WRITE_CASES, ids=[c[0] for c in WRITE_CASES])
def test_write_key_refuses_what_cannot_be_read_back(tmp_path, name, key, expected):
    with pytest.raises(InputError, match=expected):
        write_key(key, tmp_path / "out.key")
    assert list(tmp_path.iterdir()) == []


def test_write_key_into_a_folder_or_a_file_path_is_an_error(tmp_path):
    key = {"a.n": {"i1": {"s": 1.0}}}
    (tmp_path / "taken").mkdir()
    with pytest.raises(InputError, match=r"cannot write key .*taken: it is a folder"):
        write_key(key, tmp_path / "taken")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match=r"cannot write key .*file/out\.key"):
        write_key(key, tmp_path / "file" / "out.key")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "taken"]


def test_semeval_key_files_are_byte_identical(tmp_path):
    key = {
        "add.v": {"add.v.1": {"add.v.0": 1.0}, "add.v.2": {"add.v.1": 1.0, "add.v.3": 0.5}},
        "bank.n": {"bank.n.7": {"bank%1:14:00::": 1.0, "bank%1:17:01::": 1.0}},
    }
    expected = (
        "add.v add.v.1 add.v.0\nadd.v add.v.2 add.v.1/1.0 add.v.3/0.5\nbank.n bank.n.7 bank%1:14:00:: bank%1:17:01::\n"
    )
    path = write_key(key, tmp_path / "sys.key")
    assert path.read_bytes() == expected.encode()
    assert read_key(path) == key


def test_russe_ids_round_trip_through_a_key_file(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bundle = load_dataset("russe2018", FIXTURES / "russe_mini.csv")
    ids = bundle.occurrences["id"].tolist()
    assert all("/" in i for i in ids)
    system = key_from_labels(bundle.occurrences["target"], ids, range(len(ids)))
    assert read_key(write_key(system, tmp_path / "system.key")) == system
    gold = key_from_occurrences(bundle.occurrences)
    assert read_key(write_key(gold, tmp_path / "gold.key")) == gold
    scores = score_keys("russe2018", gold, read_key(tmp_path / "system.key"))
    assert set(scores["overall"]) >= {"ari", "nmi"}


@pytest.mark.parametrize("dataset", sorted(SCORERS))
def test_an_empty_gold_is_an_error_and_a_system_without_answers_warns(dataset):
    gold = {"w.n": {"1": {"a": 1.0}, "2": {"b": 1.0}}}
    with pytest.raises(InputError, match="the gold key has no instance"):
        score_keys(dataset, {}, gold)
    with pytest.warns(UserWarning, match="the system key answers none of the 2 gold instances"):
        score_keys(dataset, gold, {})
    with pytest.warns(UserWarning, match="answers none"):
        score_keys(dataset, gold, {"w.n": {"x": {"a": 1.0}}})
