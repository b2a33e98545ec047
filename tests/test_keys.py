"""Key files: the official reader's rules, errors with file and line, round trips, and key builders."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from wsd.errors import ConfigError, InputError
from wsd.evaluate.keys import (
    format_key_line,
    key_from_labels,
    key_from_memberships,
    key_from_occurrences,
    key_instances,
    parse_senses,
    read_key,
    write_key,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("s1/4 s2/2", {"s1": 1.0, "s2": 0.5}),  # divided by the maximum weight
        ("s1 s2", {"s1": 1.0, "s2": 1.0}),  # no weights: 1.0
        ("s1/0.3 s2", {"s1": 1.0, "s2": 1.0}),  # any unweighted sense: all 1.0
        ("s1/4 s1/2", {"s1": 1.0}),  # a repeated sense makes the counts differ: 1.0
        ("s1/ s2/0.5", {"s1": 1.0, "s2": 1.0}),  # trailing '/' is no weight
        ("s1/2 !! s2/1", {"s1": 1.0}),  # comment
        ("s1/2 !!comment", {"s1": 1.0}),
        ("s1/1e-1 s2/2d s3/.5f", {"s1": 0.05, "s2": 1.0, "s3": 0.25}),  # Java number syntax
        ("s1/0.0 s2/0.5", {"s1": 0.0, "s2": 1.0}),  # a listed sense may weigh 0
        ("", {}),
    ],
)
def test_parse_senses_follows_the_official_reader(text, expected):
    assert parse_senses(text, "test") == pytest.approx(expected)


@pytest.mark.parametrize("text", ["s1/abc", "s1/-1", "s1/NaN", "s1/Infinity", "s1/0 s2/0", "s1/1_0", "/"])
def test_parse_senses_rejects_bad_weights(text):
    with pytest.raises(InputError, match="somewhere"):
        parse_senses(text, "somewhere")


def test_read_key_handles_crlf_blank_lines_and_order(tmp_path):
    path = tmp_path / "k.key"
    path.write_bytes(b"b.n b.n.2 x/3 y/1\r\n\r\nb.n b.n.1 x\r\na.v a.v.1 z\r\n")
    key = read_key(path)
    assert list(key) == ["b.n", "a.v"]
    assert list(key["b.n"]) == ["b.n.2", "b.n.1"]
    assert key["b.n"]["b.n.2"] == pytest.approx({"x": 1.0, "y": 1 / 3})
    assert key_instances(key) == 3


def test_read_key_malformed_line_names_file_and_line(tmp_path):
    path = tmp_path / "bad.key"
    path.write_text("a.n a.n.1 s1\na.n a.n.2 s1\na.n a.n.3\n")
    with pytest.raises(InputError, match=r"bad\.key: malformed sense description on line 3"):
        read_key(path)


def test_read_key_bad_weight_names_file_and_line(tmp_path):
    path = tmp_path / "w.key"
    path.write_text("a.n a.n.1 s1/0.5\na.n a.n.2 s1/x\n")
    with pytest.raises(InputError, match=r"w\.key line 2"):
        read_key(path)


def test_read_key_missing_file(tmp_path):
    with pytest.raises(InputError, match="not found"):
        read_key(tmp_path / "nope.key")


def test_repeated_instance_last_line_wins_with_warning(tmp_path):
    path = tmp_path / "dup.key"
    path.write_text("a.n i1 s1\na.n i2 s2\na.n i1 s3\n")
    with pytest.warns(UserWarning, match="1 line"):
        key = read_key(path)
    assert key["a.n"] == {"i1": {"s3": 1.0}, "i2": {"s2": 1.0}}


def test_write_read_round_trip(tmp_path):
    key = {
        "add.v": {
            "add.v.1": {"add.v.0": 1.0, "add.v.3": 0.123456789012345678},
            "add.v.2": {"add.v.1": 1.0},
        },
        "bank.n": {"bank.n.7": {"s%1:2::": 1.0, "s%1:3::": 1.0}},
    }
    path = write_key(key, tmp_path / "out" / "sys.key")
    assert read_key(path) == key
    assert path.read_text().splitlines()[1] == "add.v add.v.2 add.v.1"


def test_write_rejects_unwritable_names(tmp_path):
    with pytest.raises(InputError, match="whitespace"):
        write_key({"a.n": {"i 1": {"s": 1.0}}}, tmp_path / "x.key")
    with pytest.raises(InputError, match="no sense"):
        write_key({"a.n": {"i1": {}}}, tmp_path / "x.key")


def test_format_key_line_omits_unit_weights():
    assert format_key_line("a.n", "i", {"s": 1.0, "t": 1.0}) == "a.n i s t"
    assert format_key_line("a.n", "i", {"s": 1.0, "t": 0.25}) == "a.n i s/1.0 t/0.25"


def test_key_from_labels_names_and_noise():
    targets = ["a.n", "a.n", "b.v"]
    ids = ["a.n.1", "a.n.2", "b.v.1"]
    assert key_from_labels(targets, ids, np.array([1, -1, 0])) == {
        "a.n": {"a.n.1": {"a.n.1": 1.0}},
        "b.v": {"b.v.1": {"b.v.0": 1.0}},
    }
    singleton = key_from_labels(targets, ids, [1, -1, 0], noise="singleton")
    assert singleton["a.n"]["a.n.2"] == {"a.n.noise1": 1.0}
    with pytest.raises(InputError, match="differ in length"):
        key_from_labels(targets, ids, [0, 1])
    with pytest.raises(ConfigError, match="noise"):
        key_from_labels(targets, ids, [0, 1, 2], noise="drop")
    with pytest.raises(InputError, match="more than once"):
        key_from_labels(["a.n", "a.n"], ["i", "i"], [0, 1])
    with pytest.raises(InputError, match="integers"):
        key_from_labels(targets, ids, ["x", "y", "z"])
    assert key_from_labels(targets, ids, np.array([1.0, 0.0, 2.0]))["b.v"] == {"b.v.1": {"b.v.2": 1.0}}


def test_key_from_memberships_thresholds_and_top(tmp_path):
    memberships = np.array([[0.2, 0.6, 0.2], [0.0, 0.0, 0.0], [0.5, 0.25, 0.25]])
    key = key_from_memberships(["w.n"] * 3, ["i1", "i2", "i3"], memberships)
    assert key == {
        "w.n": {
            "i1": {"w.n.1": 1.0, "w.n.0": pytest.approx(1 / 3), "w.n.2": pytest.approx(1 / 3)},
            "i3": {"w.n.0": 1.0, "w.n.1": 0.5, "w.n.2": 0.5},
        }
    }
    top1 = key_from_memberships(["w.n"] * 3, ["i1", "i2", "i3"], memberships, top=1)
    assert top1["w.n"] == {"i1": {"w.n.1": 1.0}, "i3": {"w.n.0": 1.0}}
    thresholded = key_from_memberships(["w.n"] * 3, ["i1", "i2", "i3"], memberships, min_weight=0.4)
    assert thresholded["w.n"] == {"i1": {"w.n.1": 1.0}, "i3": {"w.n.0": 1.0, "w.n.1": 0.5, "w.n.2": 0.5}}
    assert read_key(write_key(key, tmp_path / "m.key")) == key
    with pytest.raises(InputError, match=">= 0"):
        key_from_memberships(["w.n"], ["i1"], np.array([[-0.1, 1.0]]))
    with pytest.raises(ConfigError, match="min_weight"):
        key_from_memberships(["w.n"], ["i1"], np.array([[1.0]]), min_weight=1.0)


def test_key_from_occurrences():
    frame = pd.DataFrame(
        {
            "id": ["a.1", "a.2", "a.3", "b.1"],
            "target": ["a.n", "a.n", "a.n", "b.v"],
            "sense": ["s1/0.7 s2/0.35", None, "  ", "t1"],
        }
    )
    assert key_from_occurrences(frame) == {"a.n": {"a.1": {"s1": 1.0, "s2": 0.5}}, "b.v": {"b.1": {"t1": 1.0}}}
    with pytest.raises(InputError, match="sense"):
        key_from_occurrences(frame.drop(columns="sense"))
    bad = frame.assign(sense=["s1/x", None, None, "t"])
    with pytest.raises(InputError, match=r"'a\.1'"):
        key_from_occurrences(bad)


def test_official_gold_key_quirks(datasets_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gold = read_key(datasets_dir / "semeval2013-task13" / "keys" / "gold" / "all.key")
    assert len(gold) == 50
    assert key_instances(gold) == 4664
    assert gold["add.v"]["add.v.1"] == {"add%2:32:01::": 1.0}
    # "common%3:00:01::/4 common%3:00:01::/2": a repeated sense, read as unweighted.
    assert gold["common.j"]["common.j.4"] == {"common%3:00:01::": 1.0}
    graded = [s for instances in gold.values() for s in instances.values() if len(s) > 1]
    assert len(graded) == 517 + 25 - 17
    assert all(max(s.values()) == 1.0 for instances in gold.values() for s in instances.values())
