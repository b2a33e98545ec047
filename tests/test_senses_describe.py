"""describe_senses: planted distinguishing words, central examples, stopwords/forms dropped, Markdown output."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from wsd.errors import ConfigError, InputError
from wsd.senses import describe_senses, senses_to_markdown
from wsd.senses.describe import class_tf_idf, log_odds_dirichlet, token_pattern

RIVER = [
    "We walked along the river {} with fishing rods near the water today.",
    "The muddy {} of the river was full of fishing boats and water birds.",
    "Children sat on the grassy {} watching the river water flow by today.",
    "Fishing from the {} of a river needs patience and calm water.",
]
MONEY = [
    "The {} approved the loan and opened an account with money today.",
    "She asked her {} for a loan to buy a house with borrowed money.",
    "Interest on the savings account at the {} earns little money today.",
    "The central {} raised rates, so every loan and account costs more money.",
]
FORMS = ["bank", "Bank", "banks", "bank"]


def _table(templates: list[list[str]], target: str, forms: list[list[str]]) -> tuple[pd.DataFrame, np.ndarray]:
    """An occurrence table: ``templates[sense][i]`` filled with ``forms[sense][i]``, labelled ``sense``."""
    rows, labels = [], []
    for sense, group in enumerate(templates):
        for i, template in enumerate(group):
            form = forms[sense][i]
            text = template.format(form)
            start = text.index(form)
            rows.append({"id": f"{target}.{sense}.{i}", "target": target, "form": form, "text": text,
                         "start": start, "end": start + len(form)})  # fmt: skip
            labels.append(sense)
    return pd.DataFrame(rows), np.array(labels)


def _central_vectors(labels: np.ndarray, dim: int = 16) -> np.ndarray:
    """Sense s points along e_s; its first occurrence exactly, the others tilted towards distinct axes."""
    X = np.zeros((len(labels), dim))
    for sense in np.unique(labels):
        rows = np.flatnonzero(labels == sense)
        X[rows, sense] = 1.0
        for j, row in enumerate(rows[1:]):
            X[row, 4 + 3 * sense + j] = 1.0
    return X


@pytest.fixture(scope="module")
def bank() -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    occurrences, labels = _table([RIVER, MONEY], "bank", [FORMS, FORMS])
    return occurrences, _central_vectors(labels), labels


def test_log_odds_finds_the_planted_words(bank) -> None:
    occurrences, X, labels = bank
    table = describe_senses(occurrences, X, labels, n_keywords=3)
    assert table["target"].tolist() == ["bank", "bank"]
    assert table["sense"].tolist() == [0, 1]
    assert table["size"].tolist() == [4, 4]
    assert set(table.loc[0, "keywords"]) == {"river", "water", "fishing"}
    assert set(table.loc[1, "keywords"]) == {"loan", "account", "money"}
    scores = table.loc[0, "keyword_scores"]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0


def test_c_tf_idf_finds_the_planted_words_too(bank) -> None:
    occurrences, X, labels = bank
    table = describe_senses(occurrences, X, labels, n_keywords=3, statistic="c-tf-idf")
    assert set(table.loc[0, "keywords"]) == {"river", "water", "fishing"}
    assert set(table.loc[1, "keywords"]) == {"loan", "account", "money"}


def test_target_forms_stopwords_and_short_tokens_are_dropped(bank) -> None:
    occurrences, X, labels = bank
    table = describe_senses(occurrences, X, labels, n_keywords=50)
    words = set(table.loc[0, "keywords"]) | set(table.loc[1, "keywords"])
    assert not words & {"bank", "banks", "the", "with", "of", "on", "by", "so", "an", "and"}
    for record in table.itertuples():  # "today" is in both senses equally often: it distinguishes neither
        scores = dict(zip(record.keywords, record.keyword_scores, strict=True))
        assert scores.get("today", 0.0) < 0.1 * max(scores.values())


def test_examples_are_nearest_the_sense_centre_and_marked(bank) -> None:
    occurrences, X, labels = bank
    table = describe_senses(occurrences, X, labels, n_examples=2)
    assert table.loc[0, "example_ids"][0] == "bank.0.0"
    assert table.loc[1, "example_ids"][0] == "bank.1.0"
    assert len(table.loc[0, "examples"]) == 2
    assert "river [[bank]] with" in table.loc[0, "examples"][0]
    no_vectors = describe_senses(occurrences, None, labels, n_examples=3)
    assert no_vectors.loc[1, "example_ids"] == ["bank.1.0", "bank.1.1", "bank.1.2"]


def test_russian_contexts_and_stopwords() -> None:
    castle = [
        "Старый {} стоял на горе, и король который жил там любил башни.",
        "Король построил {} с высокими башнями на горе.",
        "Этот {} короля очень древний, его башни видны с горы.",
    ]
    lock = [
        "Ключ от {} сломался, и дверь не открылась.",
        "Он вставил ключ в {} двери очень осторожно.",
        "Новый {} на двери открывается только этим ключом.",
    ]
    occurrences, labels = _table([castle, lock], "замок", [["замок"] * 3, ["замка", "замок", "замок"]])
    table = describe_senses(occurrences, None, labels, n_keywords=4, keyword_alpha=1.0)  # 3 contexts: no test passes
    castle_words, lock_words = set(table.loc[0, "keywords"]), set(table.loc[1, "keywords"])
    assert {"король", "башни", "горе"} <= castle_words
    assert {"ключ", "двери"} <= lock_words
    assert not (castle_words | lock_words) & {"замок", "замка", "который", "очень", "этот", "только"}


def test_unassigned_rows_are_left_out_and_one_sense_uses_frequency(bank) -> None:
    occurrences, X, labels = bank
    labels = labels.copy()
    labels[labels == 1] = -1
    table = describe_senses(occurrences, X, labels, n_keywords=3)
    assert table["sense"].tolist() == [0]
    assert table.loc[0, "size"] == 4
    assert table.loc[0, "keywords"][0] in {"river", "water", "fishing"}
    assert table.loc[0, "keyword_scores"][0] == 4.0  # a count


def test_log_odds_is_antisymmetric_for_two_senses() -> None:
    counts = np.array([[5.0, 1.0, 3.0], [1.0, 6.0, 3.0]])
    z = log_odds_dirichlet(counts, counts.sum(axis=0))
    np.testing.assert_allclose(z[0], -z[1])
    assert z[0, 0] > 0 > z[0, 1]
    tfidf = class_tf_idf(counts)
    assert tfidf[0, 0] > tfidf[1, 0] and tfidf[1, 1] > tfidf[0, 1]


def test_token_pattern_is_unicode_letters_only() -> None:
    import re

    assert re.findall(token_pattern(3), "naïve_x 123abc ёж ёжик Straße") == ["naïve", "abc", "ёжик", "Straße"]


def test_markdown_has_a_section_and_table_per_target(bank) -> None:
    occurrences, X, labels = bank
    occurrences = occurrences.copy()
    occurrences.loc[0, "text"] = occurrences.loc[0, "text"].replace("today", "to|day")
    table = describe_senses(occurrences, X, labels, n_examples=1, n_keywords=2)
    markdown = senses_to_markdown(table)
    lines = markdown.splitlines()
    assert lines[0] == "## bank"
    assert lines[2] == "| sense | size | keywords | examples |"
    assert sum(line.startswith("| 0 |") or line.startswith("| 1 |") for line in lines) == 2
    assert "to\\|day" in markdown and "`bank.0.0`" in markdown


def test_examples_are_cited_by_their_metadata_instead_of_their_offsets() -> None:
    occ = pd.DataFrame(
        {
            "id": ["sotu.jsonl.gz:1@5", "sotu.jsonl.gz:2@9", "x.txt:3@0"],
            "target": ["power", "power", "power"],
            "form": ["power"] * 3,
            "text": ["executive power of congress", "water power dams", "the power plant"],
            "start": [10, 6, 4],
            "end": [15, 11, 9],
            "year": [1862, 1935, 1960],
            "president": ["Lincoln", "Roosevelt", None],
        }
    )
    table = describe_senses(occ, None, [0, 1, 1], n_examples=2)
    cited = dict(zip(table["sense"], table["example_citations"], strict=True))
    assert cited[0] == ["year 1862 · president Lincoln"]
    assert sorted(cited[1]) == ["year 1935 · president Roosevelt", "year 1960"]
    page = senses_to_markdown(table)
    assert "`year 1862 · president Lincoln` executive [[power]]" in page and "sotu.jsonl.gz" not in page
    plain = describe_senses(occ.drop(columns=["year", "president"]), None, [0, 1, 1])
    assert plain.loc[0, "example_citations"] == [""] and "`sotu.jsonl.gz:1@5`" in senses_to_markdown(plain)


def test_bad_arguments(bank) -> None:
    occurrences, X, labels = bank
    with pytest.raises(ConfigError, match="statistic"):
        describe_senses(occurrences, X, labels, statistic="tf")
    with pytest.raises(InputError, match="row-aligned"):
        describe_senses(occurrences, X, labels[:-1])
    with pytest.raises(InputError, match="missing column"):
        describe_senses(occurrences.drop(columns="form"), X, labels)
