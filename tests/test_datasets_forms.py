"""Tests for wsd.corpus.forms: English inflection, whole-word matching, Russian lemma/stem matching."""

from __future__ import annotations

import sys

import pytest

from wsd.corpus import forms
from wsd.corpus.forms import (
    english_forms,
    find_lemma,
    find_word,
    fleeting_vowel_forms,
    match_lemma,
    normalize_word,
    spelling_variants,
    stem_prefixes,
    word_spans,
)
from wsd.errors import ConfigError


@pytest.mark.parametrize(
    ("lemma", "pos", "expected"),
    [
        ("lie", "v", {"lie", "lies", "lying", "lay", "lain", "lied"}),
        ("swim", "v", {"swam", "swum", "swimming", "swims"}),
        ("body", "n", {"body", "bodies"}),
        ("life", "n", {"lives"}),
        ("analyze", "v", {"analyzed", "analysing", "analyses"}),
        ("level", "v", {"levelled", "leveled", "levelling"}),
        ("commit", "v", {"committed", "committing"}),
        ("transfer", "v", {"transferred", "transfered"}),
        ("deny", "v", {"denied", "denies", "denying"}),
        ("stick", "v", {"stuck", "sticking"}),
        ("swear", "v", {"swore", "sworn"}),
        ("gas", "n", {"gases"}),
        ("color", "n", {"colour", "colours"}),
        ("panic", "v", {"panicked", "panicking"}),
        ("late", "j", {"later", "latest"}),
    ],
)
def test_english_forms_include_inflections(lemma: str, pos: str, expected: set[str]) -> None:
    assert expected <= english_forms(lemma, pos)


def test_english_forms_respect_pos_and_reject_unknown_pos() -> None:
    assert "lain" not in english_forms("lie", "n")
    assert english_forms("lie") >= english_forms("lie", "v") | english_forms("lie", "n")
    assert english_forms("quickly", "r") == {"quickly"}
    with pytest.raises(ConfigError, match="part of speech"):
        english_forms("lie", "x")


def test_english_forms_multiword_inflects_last_word() -> None:
    assert "ice creams" in english_forms("ice cream", "n")


def test_spelling_variants() -> None:
    assert spelling_variants("center") >= {"center", "centre"}
    assert spelling_variants("defense") >= {"defence"}


def test_find_word_whole_words_case_insensitive() -> None:
    text = "Lain there; the layer lay, LIE-detector, unlain."
    spans = find_word(text, english_forms("lie", "v"))
    assert [text[a:b] for a, b in spans] == ["Lain", "lay", "LIE"]  # not "layer", not "unlain"


def test_find_word_case_sensitive_and_unicode_boundaries() -> None:
    assert find_word("Lain lain", ["lain"], ignore_case=False) == [(5, 9)]
    text = "замок, замокнуть и за́мок; Ёлка"
    assert find_word(text, ["замок"]) == [(0, 5), (19, 25)]
    assert find_word(text, ["елка"]) == [(27, 31)]


def test_find_word_needs_forms() -> None:
    with pytest.raises(ConfigError, match="no"):
        find_word("text", [" "])


def test_word_spans_and_normalize() -> None:
    assert word_spans("за́мок, air-bag") == [(0, 6), (8, 11), (12, 15)]
    assert normalize_word("За́мок") == "замок"
    assert normalize_word("Ёж") == "еж"


def test_russian_stems() -> None:
    assert stem_prefixes("акция") == {"акци"}
    assert stem_prefixes("кабачок") == {"кабачок", "кабачк"}
    assert stem_prefixes("дежурная") == {"дежурн"}
    assert stem_prefixes("зло") == set()  # too short for prefix matching
    assert fleeting_vowel_forms("двойка") == {"двоек"}


def test_match_lemma_methods() -> None:
    words = ["Сучья", "сухих", "сук", "сукно"]
    assert match_lemma(words, "сук", method="exact") == [False, False, True, False]
    assert match_lemma(words, "сук", method="lemma") == [True, False, True, False]
    # lemma+stem: the lemmatiser found something, so the stem rule is not used
    assert match_lemma(words, "сук") == [True, False, True, False]
    # simplemma reads "банка" as a form of "банк": the stem rule finds it
    assert match_lemma(["банка", "банки", "банковский"], "банка", method="lemma+stem") == [True, True, False]
    assert match_lemma(["кабачков"], "кабачок", method="stem") == [True]
    with pytest.raises(ConfigError, match="match method"):
        match_lemma(["a"], "a", method="fuzzy")


def test_find_lemma_spans() -> None:
    text = "Цепляясь за сучья деревьев, он рубил сук."
    assert find_lemma(text, "сук") == [(12, 17), (37, 40)]


def test_missing_simplemma_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    forms._simplemma.cache_clear()
    forms.lemmatize.cache_clear()
    monkeypatch.setitem(sys.modules, "simplemma", None)
    try:
        with pytest.raises(ConfigError, match="simplemma"):
            match_lemma(["сучья"], "сук", method="lemma")
        assert match_lemma(["акции"], "акция", method="stem") == [True]  # stem matching needs no simplemma
    finally:
        forms._simplemma.cache_clear()
        forms.lemmatize.cache_clear()
