"""Tests for the SemEval-2013 Task 13 reader: a tiny fixture always, the real data where it is available."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from wsd.corpus.forms import english_forms
from wsd.errors import InputError
from wsd.evaluate.datasets import DatasetBundle, load_dataset
from wsd.occurrences import validate_occurrences

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"


def test_fixture_graded_senses_dropped_and_repaired() -> None:
    bundle = load_dataset("semeval2013", FIXTURES / "semeval2013-task13")
    table = bundle.occurrences.set_index("id")
    assert list(table.index) == ["add.v.1", "add.v.2"]  # add.v.4 has no gold
    assert table.loc["add.v.1", "sense"] == "add%2:30:00::/4 add%2:32:01::/2"
    assert table.loc["add.v.1", "text"] == "She kept adding salt & pepper."
    assert (table.loc["add.v.2", "start"], table.loc["add.v.2", "end"]) == (3, 8)  # offsets 0-3 were wrong
    assert bundle.stats == {
        "instances": 3,
        "loaded": 2,
        "dropped_without_gold": 1,
        "gold_without_context": 0,
        "spans_repaired": 1,
    }
    assert bundle.subsets["spoken"] == {"add.v.2"}
    assert bundle.subsets["verbs"] == {"add.v.1", "add.v.2"}


def test_fixture_unknown_key() -> None:
    with pytest.raises(InputError, match=r"gold key not found .*all\.key"):
        load_dataset("semeval2013", FIXTURES, key="nouns")


@pytest.fixture(scope="module")
def semeval2013(datasets_dir: Path) -> DatasetBundle:
    return load_dataset("semeval2013", datasets_dir)


def test_all_instances_loaded(semeval2013: DatasetBundle) -> None:
    table = semeval2013.occurrences
    assert len(table) == 4664
    assert semeval2013.stats["dropped_without_gold"] == 0
    assert semeval2013.stats["spans_repaired"] == 0
    assert {k: len(v) for k, v in semeval2013.subsets.items()} == {
        "nouns": 1848,
        "verbs": 1856,
        "adjectives": 960,
        "spoken": 751,
        "written": 3913,
    }
    pd_validated = validate_occurrences(table)
    assert pd_validated["id"].tolist() == table["id"].tolist()
    assert (table["doc_id"] == table["id"]).all() and (table["doc_start"] == 0).all()


def test_spans_equal_token_attribute_and_are_forms(semeval2013: DatasetBundle, datasets_dir: Path) -> None:
    table = semeval2013.occurrences
    spans = [text[a:b] for text, a, b in zip(table["text"], table["start"], table["end"], strict=True)]
    assert spans == table["form"].tolist()
    tokens = {}
    for path in (datasets_dir / "semeval2013-task13" / "contexts" / "xml-format").glob("*.xml"):
        tokens.update({e.get("id"): e.get("token") for e in ET.parse(path).getroot().iter("instance")})
    assert table["form"].tolist() == [tokens[i] for i in table["id"]]
    for target, group in table.groupby("target"):
        lemma, pos = target.rsplit(".", 1)
        assert set(group["form"].str.lower()) <= english_forms(lemma, pos), target


def test_graded_gold(semeval2013: DatasetBundle) -> None:
    counts = semeval2013.occurrences["sense"].str.split().str.len().value_counts().to_dict()
    assert counts == {1: 4122, 2: 517, 3: 25}


def test_single_sense_key(datasets_dir: Path) -> None:
    bundle = load_dataset("semeval2013", datasets_dir / "semeval2013-task13", key="all.singlesense.key")
    assert len(bundle.occurrences) == 4122
    assert bundle.stats["dropped_without_gold"] == 542
    assert bundle.gold[0].name == "all.singlesense.key"
