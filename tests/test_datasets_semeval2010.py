"""Tests for the SemEval-2010 Task 14 reader: a tiny fixture always, the real data where it is available."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from wsd.corpus.forms import english_forms
from wsd.errors import ConfigError
from wsd.evaluate.datasets import DatasetBundle, load_dataset
from wsd.evaluate.datasets.semeval2010 import DIALECT_FORMS

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"


def test_fixture_locates_targets_and_splits_shared_sentences() -> None:
    bundle = load_dataset("semeval2010", FIXTURES)
    table = bundle.occurrences.set_index("id")
    assert table.loc["lie.v.1", "form"] == "lain"
    assert table.loc["lie.v.1", "text"] == "The dog was tired . It had lain by the fire all day . Nobody moved it ."
    # two instances with the same sentence: the 1st and the 2nd occurrence
    assert table.loc["lie.v.2", "start"] < table.loc["lie.v.3", "start"]
    assert table.loc[["lie.v.2", "lie.v.3"], "form"].tolist() == ["lied", "lied"]
    assert table.loc["lie.v.4", "form"] == "Lying"
    assert table.loc["lie.v.4", "text"] == "Lying is hard & tiring ."
    # "Air Force" (capitalised inside the sentence) is set aside for the plain "air"
    assert table.loc["air.n.1", "form"] == "air"
    assert table.loc["air.n.1", "text"][table.loc["air.n.1", "start"] - 4 : table.loc["air.n.1", "end"]] == "the air"
    assert bundle.stats["dropped_without_gold"] == 1  # lie.v.5
    assert bundle.stats["shared_sentence"] == 2
    assert bundle.subsets == {"nouns": {"air.n.1"}, "verbs": {"lie.v.1", "lie.v.2", "lie.v.3", "lie.v.4"}}
    assert table.loc["lie.v.1", "sense"] == "lie.v.s1"


def test_fixture_sentence_context() -> None:
    table = load_dataset("semeval2010", FIXTURES, context="sentence").occurrences.set_index("id")
    assert table.loc["lie.v.1", "text"] == "It had lain by the fire all day ."
    assert table.loc["lie.v.3", "text"][table.loc["lie.v.3", "start"] :].startswith("lied back")
    with pytest.raises(ConfigError, match="context="):
        load_dataset("semeval2010", FIXTURES, context="window")


@pytest.fixture(scope="module")
def semeval2010(datasets_dir: Path) -> DatasetBundle:
    return load_dataset("semeval2010", datasets_dir)


def test_all_instances_found(semeval2010: DatasetBundle) -> None:
    assert len(semeval2010.occurrences) == 8915
    assert semeval2010.stats["not_found"] == 0
    assert {k: len(v) for k, v in semeval2010.subsets.items()} == {"nouns": 5285, "verbs": 3630}


def test_every_span_is_a_form_of_the_target(semeval2010: DatasetBundle) -> None:
    table = semeval2010.occurrences
    spans = [text[a:b] for text, a, b in zip(table["text"], table["start"], table["end"], strict=True)]
    assert spans == table["form"].tolist()
    for target, group in table.groupby("target"):
        lemma, pos = target.rsplit(".", 1)
        allowed = english_forms(lemma, pos) | DIALECT_FORMS.get(lemma, frozenset())
        assert set(group["form"].str.lower()) <= allowed, target
    forms = set(table.loc[table["target"] == "lie.v", "form"].str.lower())
    assert {"lain", "lay", "lying"} <= forms
    assert "swam" in set(table.loc[table["target"] == "swim.v", "form"])


def test_spans_lie_in_the_target_sentence(semeval2010: DatasetBundle, datasets_dir: Path) -> None:
    root = ET.parse(datasets_dir / "semeval2010-task14" / "test_data" / "nouns" / "air.n.xml").getroot()
    sentences = {e.tag: e.find("TargetSentence").text.strip() for e in root}
    table = semeval2010.occurrences.set_index("id")
    for instance_id in ("air.n.14", "air.n.15", "air.n.133", "air.n.134", "air.n.135"):
        row = table.loc[instance_id]
        offset = row["text"].index(sentences[instance_id])
        assert offset <= row["start"] < row["end"] <= offset + len(sentences[instance_id])
    # instances sharing one sentence point at different occurrences
    assert table.loc["air.n.14", "start"] < table.loc["air.n.15", "start"]
    starts = table.loc[["air.n.133", "air.n.134", "air.n.135"], "start"].tolist()
    assert starts == sorted(set(starts))


def test_gold_from_key(semeval2010: DatasetBundle, datasets_dir: Path) -> None:
    key = {}
    for line in (datasets_dir / "semeval2010-task14" / "keys" / "all.key").read_text().splitlines():
        _, instance, sense = line.split()
        key[instance] = sense
    table = semeval2010.occurrences
    assert dict(zip(table["id"], table["sense"], strict=True)) == key
