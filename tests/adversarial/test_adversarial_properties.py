"""Property-based tests (hypothesis): readers give back every document exactly, the key parser round-trips and
never raises anything but InputError, the target parser never raises anything but a WsdError, and matching
agrees with Unicode case folding. Runs are small and derandomized, so CI is fast and stable."""

from __future__ import annotations

import contextlib
import csv
import functools
import gzip
import io
import json
import re
import sys
import tempfile
import unicodedata
import warnings
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from wsd.corpus.documents import iter_documents
from wsd.corpus.folding import (
    FoldedOffsets,
    combining_marks,
    expanding_characters,
    fold_text,
    match_key,
    normal_text,
)
from wsd.corpus.forms import find_word
from wsd.corpus.matcher import FormMatcher, _whole_words
from wsd.corpus.targets import parse_targets
from wsd.errors import InputError, WsdError
from wsd.evaluate.keys import read_key, write_key

PROPERTY = settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

# Any Unicode text that UTF-8 can hold (no lone surrogates).
ANY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
LINE_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), min_size=1, max_size=40)


def _read_back(name: str, data: bytes) -> list:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # clean input: no warning either
            return list(iter_documents(path))


# ---------------------------------------------------------------------------------------------- readers
@PROPERTY
@given(st.lists(LINE_TEXT, min_size=1, max_size=8), st.booleans())
def test_text_lines_come_back_exactly(texts, compressed):
    assume(not texts[0].startswith("\ufeff"))  # a byte-order mark at the start of a file is dropped
    data = ("\n".join(texts) + "\n").encode()
    name = "c.txt.gz" if compressed else "c.txt"
    docs = _read_back(name, gzip.compress(data) if compressed else data)
    assert [(d.doc_id, d.text) for d in docs] == [(f"{name}:{n}", t) for n, t in enumerate(texts, start=1) if t.strip()]


@PROPERTY
@given(
    st.lists(st.tuples(ANY_TEXT, st.one_of(st.none(), ANY_TEXT, st.integers())), min_size=1, max_size=8),
    st.booleans(),
)
def test_json_lines_come_back_exactly(records, ascii_only):
    lines = []
    for text, doc_id in records:
        record = {"text": text} if doc_id is None else {"id": doc_id, "text": text, "meta": [1, {"x": None}]}
        lines.append(json.dumps(record, ensure_ascii=ascii_only))
    docs = _read_back("c.jsonl", ("\n".join(lines) + "\n").encode())
    expected = [(f"c.jsonl:{n}" if i is None else str(i), t) for n, (t, i) in enumerate(records, start=1)]
    assert [(d.doc_id, d.text) for d in docs] == expected


@PROPERTY
@given(st.lists(ANY_TEXT, min_size=1, max_size=8), st.sampled_from([",", "\t"]), st.sampled_from(["\n", "\r\n"]))
def test_csv_rows_come_back_exactly(texts, delimiter, line_end):
    assume("\0" not in "".join(texts))
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=line_end)
    writer.writerow(["id", "text"])
    writer.writerows([f"d{n}", text] for n, text in enumerate(texts))
    name = "c.csv" if delimiter == "," else "c.tsv"
    docs = _read_back(name, buffer.getvalue().encode())
    assert [(d.doc_id, d.text) for d in docs] == [(f"d{n}", t) for n, t in enumerate(texts) if t.strip()]


@PROPERTY
@given(st.lists(st.one_of(st.none(), ANY_TEXT), min_size=1, max_size=8))
def test_parquet_rows_come_back_exactly(texts):
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table({"text": pa.array(texts, pa.string())}), sink)
    docs = _read_back("c.parquet", sink.getvalue().to_pybytes())
    assert [(d.doc_id, d.text) for d in docs] == [
        (f"c.parquet:{n}", t) for n, t in enumerate(texts, start=1) if t and t.strip()
    ]


@PROPERTY
@given(st.binary(max_size=200), st.sampled_from(["c.txt", "c.jsonl", "c.csv", "c.tsv", "c.txt.gz", "c.jsonl.gz"]))
def test_any_bytes_give_documents_or_one_input_error(data, name):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                docs = list(iter_documents(path))
            except InputError as error:
                assert "\n" not in str(error)
            else:
                assert all(isinstance(d.text, str) and isinstance(d.doc_id, str) for d in docs)


# ---------------------------------------------------------------------------------------------- key files
NAME = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).filter(
    lambda s: len(s.split()) == 1 and s.strip() == s
)
SENSE = NAME.filter(lambda s: "/" not in s and not s.startswith("!!"))
WEIGHTS = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@st.composite
def keys(draw):
    key: dict = {}
    for target in draw(st.lists(NAME, min_size=1, max_size=3, unique=True)):
        instances = key.setdefault(target, {})
        for instance in draw(st.lists(NAME, min_size=1, max_size=3, unique=True)):
            senses = draw(st.lists(SENSE, min_size=1, max_size=3, unique=True))
            if draw(st.booleans()):
                weights = [1.0] * len(senses)
            else:
                weights = draw(st.lists(WEIGHTS, min_size=len(senses), max_size=len(senses)))
                weights[draw(st.integers(0, len(senses) - 1))] = 1.0  # read back divides by the largest
            instances[instance] = dict(zip(senses, weights, strict=True))
    return key


@PROPERTY
@given(keys())
def test_written_keys_read_back_exactly(key):
    with tempfile.TemporaryDirectory() as folder:
        assert read_key(write_key(key, Path(folder) / "k.key")) == key


TOKENS = ["a.n", "i1", "i/2", "s1", "s1/0.5", "s/", "/", "/1", "s//", "!!", "!!x", "s/NaN", "s/-1", "s/1e400", "s/1d"]


@PROPERTY
@given(
    st.lists(
        st.lists(st.one_of(st.sampled_from(TOKENS), NAME), max_size=5).map(" ".join)
        | st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
        max_size=6,
    ),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_garbage_key_lines_give_a_key_or_one_input_error(lines, line_end):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "k.key"
        path.write_text(line_end.join(lines), encoding="utf-8", newline="")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                key = read_key(path)
            except InputError as error:
                assert "\n" not in str(error)
            else:
                assert key and all(isinstance(w, float) for i in key.values() for s in i.values() for w in s.values())


@PROPERTY
@given(st.binary(max_size=120))
def test_garbage_key_bytes_give_a_key_or_one_input_error(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "k.key"
        path.write_bytes(data)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with contextlib.suppress(InputError):
                read_key(path)


# ---------------------------------------------------------------------------------------------- targets
TARGET_CHARS = st.sampled_from([*"mouse,:\t #\ufeff\n", "замок", "İ", "ß", " ", "", "::", ",,"])


@PROPERTY
@given(st.one_of(st.lists(TARGET_CHARS, max_size=10).map("".join), ANY_TEXT))
def test_any_target_string_gives_targets_or_one_wsd_error(spec):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            targets = parse_targets(spec)
        except WsdError as error:
            assert "\n" not in str(error)
        else:
            assert targets and all(t and forms[0] == t and "," not in t for t, forms in targets.items())


@PROPERTY
@given(st.lists(st.one_of(st.lists(TARGET_CHARS, max_size=8).map("".join), ANY_TEXT), max_size=6))
def test_any_targets_file_gives_targets_or_one_wsd_error(lines):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "targets.txt"
        path.write_text("\n".join(lines), encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                targets = parse_targets(path)
            except WsdError as error:
                assert "\n" not in str(error)
            else:
                assert all(
                    t.strip() == t and "," not in t and all("," not in f for f in fs) for t, fs in targets.items()
                )


def _is_word(char: str) -> bool:
    """A character of a word: ``\\w`` (letters, digits, ``_``) or a combining mark, which joins the letter before."""
    return char.isalnum() or char == "_" or unicodedata.category(char).startswith("M")


def _words(text: str) -> list[re.Match]:
    return list(re.finditer(rf"[\w{combining_marks()}]+", text))


def _folding_keeps_word_characters(text: str) -> bool:
    """Folding keeps the word/non-word class of each character (true for nearly all of Unicode)."""
    return all(all(_is_word(f) == _is_word(c) for f in c.casefold()) for c in text)


LETTERS = st.characters(whitelist_categories=("Lu", "Ll", "Lt", "Lo"))
WORD = st.text(LETTERS, min_size=1, max_size=6)
VARIANTS = (str.upper, str.lower, str.casefold, str.title, str.swapcase, lambda s: s)


@PROPERTY
@given(
    st.lists(WORD, min_size=1, max_size=4),
    st.lists(st.one_of(ANY_TEXT, st.tuples(st.integers(0, 3), st.integers(0, len(VARIANTS) - 1))), max_size=8),
    st.booleans(),
)
def test_matches_are_the_words_whose_case_fold_is_a_form(forms, pieces, case_sensitive):
    """A match is a word (word characters and combining marks) whose NFC, case-folded unless case-sensitive,
    is a form's; spans and forms are those of the text as given, in whatever normalisation form it is."""
    parts = [p if isinstance(p, str) else VARIANTS[p[1]](forms[p[0] % len(forms)]) for p in pieces]
    text = " ".join(parts)
    assume(all(_is_word(c) for form in forms for c in form.casefold()))
    assume(_folding_keeps_word_characters(text))
    key = functools.partial(match_key, case_sensitive=case_sensitive)
    # NFC joins no two words and splits none (true for nearly all of Unicode)
    assume([key(w.group()) for w in _words(text)] == [key(w.group()) for w in _words(normal_text(text)[0])])
    wanted = {key(form) for form in forms}
    targets = {form: [form] for form in forms}
    matches = FormMatcher(targets, case_sensitive=case_sensitive).find(text)
    found = sorted({(m.start, m.end) for m in matches})
    expected = [m.span() for m in _words(text) if key(m.group()) in wanted]
    assert found == expected
    for m in matches:
        assert text[m.start : m.end] == m.form and key(m.form) == key(m.target)
    if not case_sensitive and unicodedata.is_normalized("NFC", text) and not re.search(f"[{combining_marks()}]", text):
        assert sorted(set(find_word(text, forms))) == expected or any(
            ch in text or ch in "".join(forms) for ch in "ёЁеЕ"
        )


#: Letters with and without their marks, marks, Hangul jamo, characters that NFC replaces alone, folds that grow.
NORMAL_FORM_TEXT = st.text(
    st.sampled_from(["a", "e", " ", "-", "\u00e9", "\u0301", "\u0323", "\u0308", "\u093e", "\u0345", "\u212b", "A"])
    | st.sampled_from(["\u0958", "\u0915", "\u093c", "\u1100", "\u1161", "\u11a8", "\uac00", "\u1e69", "ß", "İ", "q"]),
    max_size=30,
)


@PROPERTY
@given(
    NORMAL_FORM_TEXT, st.lists(st.sampled_from(["e", "\u00e9", "\u0915", "\uac01", "a", "ss", "\u1e69"]), min_size=1)
)
def test_matches_ignore_the_normalisation_form_of_text_and_forms(text, forms):
    for form_of in ("NFC", "NFD"):
        targets = {unicodedata.normalize(form_of, f): [unicodedata.normalize(form_of, f)] for f in forms}
        wanted = {match_key(f) for f in targets}
        found = sorted({(m.start, m.end) for m in FormMatcher(targets).find(text)})
        assert found == [m.span() for m in _words(text) if match_key(m.group()) in wanted]


@PROPERTY
@given(NORMAL_FORM_TEXT | ANY_TEXT)
def test_normal_text_is_nfc_and_its_offsets_map_back(text):
    composed, offsets = normal_text(text)
    assert composed == unicodedata.normalize("NFC", text)
    assert (offsets is None) == unicodedata.is_normalized("NFC", text)
    mapper = offsets or FoldedOffsets("")  # an empty map: every offset is itself
    assert mapper.original(0) == 0 and mapper.original(len(composed)) == len(text)
    for position in range(len(composed) + 1):
        original = mapper.original(position)
        if original is not None:  # never wrong: the two sides are the NFC of the two sides of the original
            assert unicodedata.normalize("NFC", text[:original]) == composed[:position]
            assert unicodedata.normalize("NFC", text[original:]) == composed[position:]


@PROPERTY
@given(st.lists(ANY_TEXT.filter(bool), min_size=1, max_size=4), ANY_TEXT)
def test_the_fast_search_finds_what_a_look_behind_finds(alternatives, text):
    body = "(?:" + "|".join(re.escape(a) for a in sorted(alternatives, key=lambda a: (-len(a), a))) + r")(?!\w)"
    fast = [m.span() for m in _whole_words(re.compile(body), text)]
    assert fast == [m.span() for m in re.compile(rf"(?<![\w{combining_marks()}])" + body).finditer(text)]


@PROPERTY
@given(ANY_TEXT | st.text(st.sampled_from("aßİﬃΐSs σς"), max_size=30))
def test_folded_offsets_map_back(text):
    folded, offsets = fold_text(text)
    assert folded == text.casefold()
    mapper = offsets or FoldedOffsets(text)
    starts = set()
    for i in range(len(text) + 1):
        position = len(text[:i].casefold())
        starts.add(position)
        assert mapper.original(position) == i
    for position in set(range(len(folded) + 1)) - starts:
        assert mapper.original(position) is None


def test_folding_facts_the_matcher_relies_on():
    """Only characters of the Basic Multilingual Plane fold to more than one, and folding is idempotent."""
    grow = [chr(c) for c in range(sys.maxunicode + 1) if len(chr(c).casefold()) > 1]
    assert grow and max(map(ord, grow)) <= 0xFFFF
    assert all(expanding_characters().fullmatch(c) for c in grow)
    assert all(chr(c).casefold().casefold() == chr(c).casefold() for c in range(sys.maxunicode + 1))
