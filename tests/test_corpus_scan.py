"""The corpus scanner: document formats, UTF-8 handling, word boundaries, forms, lemmas, contexts."""

from __future__ import annotations

import gzip
import json
import warnings

import pandas as pd
import pytest

from wsd.corpus.contexts import passages
from wsd.corpus.documents import corpus_fingerprint, iter_documents
from wsd.corpus.matcher import FormMatcher, LemmaMatcher
from wsd.corpus.scan import build_scan_options, iter_occurrence_chunks, scan
from wsd.corpus.targets import parse_targets, read_forms_file
from wsd.errors import ConfigError, InputError
from wsd.occurrences import validate_occurrences


def test_every_format_yields_the_same_documents(tmp_path):
    texts = ["A mouse ran.", "The bank was closed."]
    (tmp_path / "a.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    with gzip.open(tmp_path / "b.txt.gz", "wt", encoding="utf-8") as handle:
        handle.write("\n".join(texts))
    (tmp_path / "c.jsonl").write_text("\n".join(json.dumps({"id": f"j{i}", "text": t}) for i, t in enumerate(texts)))
    pd.DataFrame({"text": texts}).to_csv(tmp_path / "d.csv", index=False)
    pd.DataFrame({"id": ["t0", "t1"], "text": texts}).to_csv(tmp_path / "e.tsv", sep="\t", index=False)
    pd.DataFrame({"text": texts}).to_parquet(tmp_path / "f.parquet")
    docs = list(iter_documents(tmp_path))
    assert [d.text for d in docs] == texts * 6
    ids = [d.doc_id for d in docs]
    assert ids[:2] == ["a.txt:1", "a.txt:2"]
    assert ids[4:6] == ["j0", "j1"]
    assert ids[8:10] == ["t0", "t1"]
    assert len(set(ids)) == len(ids)


def test_undecodable_bytes_are_replaced_and_counted(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"good mouse line\nbad \xff\xfe mouse line\nanother \xc3 mouse\n")
    with pytest.warns(UserWarning, match="2 line"):
        occurrences = scan(path, "mouse")
    assert len(occurrences) == 3
    assert "\ufffd" in occurrences.loc[1, "text"]


def test_unicode_word_boundaries_and_case(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("Mousetrap, MOUSE, mouse-like, dormouse.\nЗамок и ЗАМОК, замковый; замка.\n", encoding="utf-8")
    occurrences = scan(path, "mouse,замок:замка")
    forms = occurrences.groupby("target")["form"].apply(list).to_dict()
    assert forms["mouse"] == ["MOUSE", "mouse"]
    assert forms["замок"] == ["Замок", "ЗАМОК", "замка"]
    with pytest.warns(UserWarning, match="'замок' was not found"):
        sensitive = scan(path, "mouse,замок", case_sensitive=True)
    assert sensitive["form"].tolist() == ["mouse"]


def test_spans_point_at_the_form_and_ids_are_unique(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("One mouse. Two mice! A bank; the bank.\n" * 3, encoding="utf-8")
    occurrences = validate_occurrences(scan(path, "mouse:mice,bank"))
    assert len(occurrences) == 12
    for row in occurrences.itertuples():
        assert row.text[row.start : row.end] == row.form
    assert occurrences["id"].is_unique


def test_forms_file_and_inline_forms(tmp_path):
    forms = tmp_path / "forms.tsv"
    forms.write_text("mouse\tmice,mouses\n# comment\nbank\tbanks\n", encoding="utf-8")
    assert read_forms_file(forms) == {"mouse": ["mouse", "mice", "mouses"], "bank": ["bank", "banks"]}
    assert parse_targets("mouse:mice,шагать") == {"mouse": ["mouse", "mice"], "шагать": ["шагать"]}
    options = build_scan_options("mouse", forms)
    assert options.targets == {"mouse": ["mouse", "mice", "mouses"]}
    forms.write_text("mouse mice\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"forms.tsv, line 1"):
        read_forms_file(forms)


def test_lemmatizer_finds_unlisted_russian_and_english_forms():
    pytest.importorskip("simplemma")
    matcher = LemmaMatcher({"шагать": ["шагать"], "mouse": ["mouse"]})
    found = matcher.find("Солдаты шагали, он шагает. Two mice ran.")
    assert [(m.form, m.target) for m in found] == [
        ("шагали", "шагать"),
        ("шагает", "шагать"),
        ("mice", "mouse"),
    ]
    assert FormMatcher({"шагать": ["шагать"]}).find("Солдаты шагали.") == []


def test_sentence_context_and_shared_passages():
    doc = "The mouse ran. Then the bank and the mouse met! Last one."
    found = FormMatcher({"mouse": ["mouse"], "bank": ["bank"]}).find(doc)
    groups = passages(doc, found)
    assert [doc[p.start : p.end] for p in groups] == ["The mouse ran.", "Then the bank and the mouse met!"]
    assert len(groups[1].matches) == 2


def test_long_sentence_is_cut_to_a_window_centred_on_the_target():
    doc = "word " * 5000 + "mouse " + "word " * 5000
    found = FormMatcher({"mouse": ["mouse"]}).find(doc)
    (passage,) = passages(doc, found, context_chars=200)
    text = doc[passage.start : passage.end]
    assert "mouse" in text and len(text) <= 2 * 200 + 5
    assert passage.start > 20000


def test_window_mode_shares_nearby_occurrences():
    doc = "x " * 300 + "mouse and mouse " + "y " * 300 + "z " * 2000 + "mouse"
    found = FormMatcher({"mouse": ["mouse"]}).find(doc)
    groups = passages(doc, found, mode="window", context_chars=100)
    assert [len(g.matches) for g in groups] == [2, 1]


def test_chunks_are_deterministic_and_complete(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("\n".join(f"line {i} with a mouse and a bank" for i in range(50)), encoding="utf-8")
    options = build_scan_options("mouse,bank")
    chunks = list(iter_occurrence_chunks(path, options, chunk_size=7))
    assert all(len(c) >= 7 for c in chunks[:-1])
    assert sum(len(c) for c in chunks) == 100
    again = list(iter_occurrence_chunks(path, options, chunk_size=7))
    assert all(a.equals(b) for a, b in zip(chunks, again, strict=True))


def test_bad_inputs_raise_clear_errors(tmp_path):
    with pytest.raises(InputError, match="corpus not found"):
        scan(tmp_path / "missing.txt", "mouse")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="empty"):
        scan(empty, "mouse")
    path = tmp_path / "c.txt"
    path.write_text("a mouse\n", encoding="utf-8")
    with pytest.raises(InputError, match="none of the targets"):
        scan(path, "zebra")
    with pytest.warns(UserWarning, match="'zebra' was not found"):
        assert len(scan(path, "mouse,zebra")) == 1
    with pytest.raises(ConfigError):
        scan(path, "mouse", context="paragraph")
    (tmp_path / "bad.jsonl").write_text('{"text": "a mouse"}\nnot json\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.jsonl, line 2"):
        scan(tmp_path / "bad.jsonl", "mouse")


def test_fingerprint_changes_when_the_corpus_changes(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("a mouse\n", encoding="utf-8")
    before = corpus_fingerprint(tmp_path)
    assert corpus_fingerprint(tmp_path) == before
    path.write_text("a mouse and more\n", encoding="utf-8")
    assert corpus_fingerprint(tmp_path) != before
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(scan(path, "mouse")) == 1
