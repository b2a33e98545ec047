"""Adversarial corpora: each case gives the right documents (with a warning where the input is usable) or one
InputError naming the file and line, never a Python repr as text, a silent merge, or a traceback."""

from __future__ import annotations

import gzip
import json
import os
import re
import warnings
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from wsd.corpus.documents import corpus_files, corpus_fingerprint, iter_documents
from wsd.corpus.scan import scan
from wsd.errors import ConfigError, InputError


def _jsonl(*records) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


def _parquet(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


LONG_TEXT = "".join(f"line {i}: a mouse ran past the bank\n" for i in range(400)).encode()

#: (case, file name, bytes, expected texts, or a regex of the expected InputError, and a warning regex or None)
FILE_CASES = [
    # JSON lines
    ("jsonl ok", "c.jsonl", _jsonl({"text": "a mouse"}, {"text": "a bank", "id": 7}), ["a mouse", "a bank"], None),
    (
        "jsonl text object",
        "c.jsonl",
        _jsonl({"text": "x"}, {"text": {"en": "a"}}),
        r"c\.jsonl, line 2: 'text' is an object",
        None,
    ),
    ("jsonl text list", "c.jsonl", _jsonl({"text": ["a", "b"]}), r"line 1: 'text' is a list, not a string", None),
    ("jsonl text number", "c.jsonl", _jsonl({"text": 3.5}), r"line 1: 'text' is a number", None),
    ("jsonl text bool", "c.jsonl", _jsonl({"text": True}), r"line 1: 'text' is true or false", None),
    ("jsonl text NaN", "c.jsonl", b'{"text": NaN}\n', r"line 1: 'text' is a number", None),
    (
        "jsonl text null",
        "c.jsonl",
        _jsonl({"text": None}, {"text": "a mouse"}),
        ["a mouse"],
        r"1 record\(s\) have 'text' null \(the first on line 1\)",
    ),
    (
        "jsonl id object",
        "c.jsonl",
        _jsonl({"text": "a", "id": {"k": 1}}),
        r"line 1: 'id' is an object; an id must be",
        None,
    ),
    ("jsonl id null", "c.jsonl", _jsonl({"text": "a", "id": None}), ["a"], None),
    ("jsonl record list", "c.jsonl", b'["text"]\n', r"line 1: expected a JSON object, found a list", None),
    ("jsonl record string", "c.jsonl", b'"text"\n', r"line 1: expected a JSON object, found a string", None),
    ("jsonl no text", "c.jsonl", _jsonl({"body": "a"}), r"line 1: no 'text' field", None),
    ("jsonl bad json", "c.jsonl", b'{"text": "a"}\n{"text": \n', r"c\.jsonl, line 2: not valid JSON", None),
    ("jsonl bom", "c.jsonl", b"\xef\xbb\xbf" + _jsonl({"text": "a mouse"}), ["a mouse"], None),
    (
        "jsonl utf-16",
        "c.jsonl",
        _jsonl({"text": "a mouse"}).decode().encode("utf-16"),
        r"c\.jsonl: looks like UTF-16",
        None,
    ),
    (
        "jsonl latin-1",
        "c.jsonl",
        '{"text": "café mouse"}\n'.encode("latin-1"),
        ["caf\ufffd mouse"],
        r"1 line\(s\) had bytes that are not UTF-8",
    ),
    (
        "jsonl.gz truncated",
        "c.jsonl.gz",
        _gzip(_jsonl(*[{"text": f"mouse {i}"} for i in range(3000)]))[:-40],
        r"c\.jsonl\.gz: truncated or damaged gzip file",
        None,
    ),
    ("jsonl.gz not gzip", "c.jsonl.gz", _jsonl({"text": "a"}), r"truncated or damaged gzip file", None),
    # plain text
    ("txt ok", "c.txt", b"a mouse\n\n  \nthe bank\n", ["a mouse", "the bank"], None),
    ("txt bom", "c.txt", b"\xef\xbb\xbfa mouse\n", ["a mouse"], None),
    ("txt crlf", "c.txt", b"a mouse\r\nthe bank\r\n", ["a mouse", "the bank"], None),
    (
        "txt.gz truncated",
        "c.txt.gz",
        _gzip(LONG_TEXT)[:-30],
        r"c\.txt\.gz: truncated or damaged gzip file \(after line \d+",
        None,
    ),
    ("txt.gz empty file", "c.txt.gz", b"", [], None),
    ("txt utf-16", "c.txt", "a mouse\n".encode("utf-16"), r"c\.txt: looks like UTF-16 \(little-endian\)", None),
    (
        "txt.gz utf-16 big-endian",
        "c.txt.gz",
        _gzip("\ufeffa mouse\n".encode("utf-16-be")),
        r"c\.txt\.gz: looks like UTF-16 \(big-endian\)",
        None,
    ),
    # CSV / TSV
    (
        "csv ok",
        "c.csv",
        b'id,text\n1,a mouse\n2,"the bank, and ""quotes"""\n',
        ["a mouse", 'the bank, and "quotes"'],
        None,
    ),
    (
        "csv multi-line field",
        "c.csv",
        b'text\n"a mouse\nover two lines"\nnext\n',
        ["a mouse\nover two lines", "next"],
        None,
    ),
    (
        "csv unclosed quote at end",
        "c.csv",
        b'id,text\n1,a mouse\n2,"the bank\n3,more\n4,rows\n',
        r"c\.csv, line 3: a quoted field opened on this line is never closed \(it runs to the end .*, line 5\)",
        None,
    ),
    (
        "csv unclosed quote before quoted rows",
        "c.csv",
        b'id,text\n1,"a mouse\n2,"the bank"\n3,"x"\n',
        r"c\.csv, line 2: a quoted field opened on this line runs over 2 lines",
        None,
    ),
    (
        "csv text after closing quote",
        "c.csv",
        b'id,text\n1,"Hi," she said\n2,ok\n',
        ["Hi, she said", "ok"],
        r"1 row\(s\) have text after a closing quote \(the first on line 2\)",
    ),
    ("csv bom header", "c.csv", b"\xef\xbb\xbftext\na mouse\n", ["a mouse"], None),
    ("csv utf-16", "c.csv", "text\na mouse\n".encode("utf-16"), r"c\.csv: looks like UTF-16 \(little-endian\)", None),
    ("csv cr line ends", "c.csv", b"id,text\r1,a mouse\r2,the bank\r", ["a mouse", "the bank"], None),
    ("csv no text column", "c.csv", b"id,body\n1,a\n", r"c\.csv, line 1: no 'text' column", None),
    ("csv short row", "c.csv", b"id,x,text\n1,a mouse\n", r"line 2: expected 3 fields, found 2", None),
    ("tsv quoted tab", "c.tsv", b'id\ttext\n1\t"a\tmouse"\n', ["a\tmouse"], None),
    (
        "tsv unclosed quote",
        "c.tsv",
        b'id\ttext\n1\t"a mouse\n2\tthe bank\n',
        r"c\.tsv, line 2: a quoted field opened on this line is never closed",
        None,
    ),
    (
        "csv.gz truncated",
        "c.csv.gz",
        _gzip(b"text\n" + LONG_TEXT)[:-30],
        r"c\.csv\.gz: truncated or damaged gzip file",
        None,
    ),
    (
        "csv latin-1",
        "c.csv",
        "text\ncafé\n".encode("latin-1"),
        ["caf\ufffd"],
        r"1 line\(s\) had bytes that are not UTF-8",
    ),
    # Parquet
    (
        "parquet ok",
        "c.parquet",
        _parquet(pa.table({"text": ["a mouse", None, "the bank"]})),
        ["a mouse", "the bank"],
        None,
    ),
    (
        "parquet dictionary",
        "c.parquet",
        _parquet(pa.table({"text": pa.array(["a", "b"]).dictionary_encode()})),
        ["a", "b"],
        None,
    ),
    (
        "parquet large string",
        "c.parquet",
        _parquet(pa.table({"text": pa.array(["a"], pa.large_string())})),
        ["a"],
        None,
    ),
    (
        "parquet binary",
        "c.parquet",
        _parquet(pa.table({"text": pa.array([b"a mouse"], pa.binary())})),
        r"c\.parquet: column 'text' holds binary values, not text",
        None,
    ),
    (
        "parquet list",
        "c.parquet",
        _parquet(pa.table({"text": pa.array([["a", "b"]])})),
        r"column 'text' holds list<.*: string> values",
        None,
    ),
    (
        "parquet int",
        "c.parquet",
        _parquet(pa.table({"text": pa.array([1, 2])})),
        r"column 'text' holds int64 values",
        None,
    ),
    (
        "parquet id list",
        "c.parquet",
        _parquet(pa.table({"text": ["a"], "id": pa.array([[1]])})),
        r"column 'id' holds list<.*: int64> values",
        None,
    ),
    (
        "parquet truncated",
        "c.parquet",
        _parquet(pa.table({"text": ["a mouse"] * 1000}))[:-100],
        r"cannot read Parquet corpus file",
        None,
    ),
]


@pytest.mark.parametrize(
    ("name", "file_name", "data", "expected", "warning"), FILE_CASES, ids=[c[0] for c in FILE_CASES]
)
def test_corpus_file(tmp_path, name, file_name, data, expected, warning):
    path = tmp_path / file_name
    path.write_bytes(data)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if isinstance(expected, list):
            texts = [d.text for d in iter_documents(path)]
            assert texts == expected
        else:
            with pytest.raises(InputError, match=expected) as error:
                list(iter_documents(path))
            assert "\n" not in str(error.value)
    messages = [str(w.message) for w in caught]
    if warning is None:
        assert messages == []
    else:
        assert len(messages) == 1 and re.search(warning, messages[0]), messages


# ---------------------------------------------------------------------------------------------- folders
def _tree(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("a mouse\n", encoding="utf-8")
    (root / "sub" / "b.txt").write_text("the bank\n", encoding="utf-8")
    return root


def test_linked_folders_are_followed(tmp_path):
    corpus = _tree(tmp_path / "corpus")
    elsewhere = tmp_path / "more"
    elsewhere.mkdir()
    (elsewhere / "c.txt").write_text("a cat\n", encoding="utf-8")
    (corpus / "linked").symlink_to(elsewhere)
    assert [p.relative_to(corpus).as_posix() for p in corpus_files(corpus)] == ["a.txt", "linked/c.txt", "sub/b.txt"]


def test_a_link_loop_is_skipped_with_a_warning(tmp_path):
    corpus = _tree(tmp_path / "corpus")
    (corpus / "sub" / "up").symlink_to(corpus)
    (corpus / "self").symlink_to(corpus / "self")
    with pytest.warns(UserWarning) as caught:
        files = corpus_files(corpus)
    assert [p.relative_to(corpus).as_posix() for p in files] == ["a.txt", "sub/b.txt"]
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 2
    assert "self: a symbolic link loop; skipped" in messages[0]
    assert "up: a link back to a folder that contains it (a loop); skipped" in messages[1]


def test_a_broken_link_to_a_corpus_file_is_an_error(tmp_path):
    corpus = _tree(tmp_path / "corpus")
    (corpus / "gone.txt").symlink_to(tmp_path / "missing.txt")
    with pytest.raises(InputError, match=r"corpus file .*gone\.txt is a broken symbolic link"):
        corpus_files(corpus)


def test_an_unreadable_folder_is_an_error(tmp_path, monkeypatch):
    corpus = _tree(tmp_path / "corpus")
    real_scandir = os.scandir

    def scandir(path):
        if Path(path).name == "sub":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(InputError, match=r"cannot read folder .*sub of the corpus \(Permission denied\)"):
        corpus_files(corpus)


def test_the_run_folder_inside_the_corpus_can_be_excluded(tmp_path):
    corpus = _tree(tmp_path / "corpus")
    before = corpus_fingerprint(corpus)
    run = corpus / "runs" / "x"
    run.mkdir(parents=True)
    (run / "occurrences.parquet").write_bytes(_parquet(pa.table({"text": ["a mouse"]})))
    assert corpus_fingerprint(corpus) != before
    assert corpus_fingerprint(corpus, exclude=[run]) == before
    assert [d.text for d in iter_documents(corpus, exclude=[corpus / "runs"])] == ["a mouse", "the bank"]


EMPTY_CASES = [
    ("no corpus files", lambda tmp: (tmp / "notes.md").write_text("x") and tmp, r"no corpus files found"),
    ("empty folder", lambda tmp: tmp, r"no corpus files found"),
    ("empty text file", lambda tmp: _write(tmp / "c.txt", b"\n \n"), r"corpus .* is empty: no documents with text"),
    ("empty jsonl", lambda tmp: _write(tmp / "c.jsonl", b""), r"is empty: no documents with text"),
    ("only null texts", lambda tmp: _write(tmp / "c.jsonl", b'{"text": null}\n'), r"is empty: no documents with text"),
    ("header-only csv", lambda tmp: _write(tmp / "c.csv", b"id,text\n"), r"is empty: no documents with text"),
    ("missing", lambda tmp: tmp / "nope.txt", r"corpus not found"),
    ("link loop", lambda tmp: _loop(tmp / "loop"), r"corpus .*loop is a link that points to itself \(a loop\)"),
    ("broken link", lambda tmp: _broken(tmp / "c.txt"), r"corpus not found: .*c\.txt is a broken symbolic link"),
    ("unsupported file", lambda tmp: _write(tmp / "c.docx", b"x"), r"unsupported corpus file type"),
]


def _loop(path: Path) -> Path:
    path.symlink_to(path)
    return path


def _broken(path: Path) -> Path:
    path.symlink_to(path.parent / "gone.txt")
    return path


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("name", "make", "expected"), EMPTY_CASES, ids=[c[0] for c in EMPTY_CASES])
def test_an_empty_corpus_is_an_error(tmp_path, name, make, expected):
    corpus = make(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(InputError, match=expected):
            scan(corpus, "mouse")


# ---------------------------------------------------------------------------------------------- metadata
def _csv(text: str) -> bytes:
    return text.encode()


MISSING = r"'{}': \d+ document\(s\) with occurrences have no value .*the first at 1850/{}"

#: (case, file name, bytes, --meta, --slice-from-path, the metadata columns' values (dict) or a regex of the
#: error, and a regex of the one warning or None). Paths are relative to a corpus folder (``1850/c.jsonl``).
META_CASES = [
    ("jsonl ints", "c.jsonl", _jsonl({"text": "a mouse", "y": 1850}, {"text": "mouse", "y": 1900}), "y", None,
     {"y": ("int64", [1850, 1900])}, None),
    ("jsonl missing field", "c.jsonl", _jsonl({"text": "a mouse", "y": 1850}, {"text": "mouse"}), "y", None,
     {"y": ("Int64", [1850, pd.NA])}, MISSING.format("y", r"c\.jsonl:2")),
    ("jsonl null value", "c.jsonl", _jsonl({"text": "a mouse", "y": None}, {"text": "mouse", "y": 2}), "y", None,
     {"y": ("Int64", [pd.NA, 2])}, MISSING.format("y", r"c\.jsonl:1")),
    ("jsonl field in no record", "c.jsonl", _jsonl({"text": "a mouse"}), "y", None,
     r"--meta field 'y' is in none of the corpus files: 1850/c\.jsonl has the fields text", None),
    ("jsonl object value", "c.jsonl", _jsonl({"text": "a mouse", "y": {"a": 1}}), "y", None,
     r"c\.jsonl, line 1: --meta field 'y' is an object", None),
    ("jsonl list value", "c.jsonl", _jsonl({"text": "a mouse", "y": [1]}), "y", None,
     r"c\.jsonl, line 1: --meta field 'y' is a list", None),
    ("jsonl text and numbers", "c.jsonl", _jsonl({"text": "a mouse", "y": 1}, {"text": "mouse", "y": "c. 2"}), "y",
     None, {"y": ("str", ["1", "c. 2"])}, r"'y' mixes int, str values \(text first at 1850/c\.jsonl:2\)"),
    ("jsonl integral strings", "c.jsonl", _jsonl({"text": "a mouse", "y": "1850"}), "y", None,
     {"y": ("int64", [1850])}, None),
    ("jsonl floats", "c.jsonl", _jsonl({"text": "a mouse", "y": 1}, {"text": "mouse", "y": 0.5}), "y", None,
     {"y": ("float64", [1.0, 0.5])}, None),
    ("jsonl booleans", "c.jsonl", _jsonl({"text": "a mouse", "y": True}, {"text": "mouse", "y": False}), "y", None,
     {"y": ("bool", [True, False])}, None),
    ("jsonl int beyond int64", "c.jsonl", _jsonl({"text": "a mouse", "y": 2**70}), "y", None,
     r"c\.jsonl, line 1: --meta field 'y' is 1180591620717411303424, an integer beyond 64 bits", None),
    ("jsonl two fields", "c.jsonl", _jsonl({"text": "a mouse", "y": 1, "s": "news"}), "y,s", None,
     {"y": ("int64", [1]), "s": ("str", ["news"])}, None),
    ("csv absent column", "c.csv", _csv("text,year\na mouse,1\n"), "decade", None,
     r"c\.csv, line 1: no column 'decade' in the header \(text, year\)", None),
    ("csv empty value", "c.csv", _csv("text,year\na mouse,\nmouse,3\n"), "year", None,
     {"year": ("Int64", [pd.NA, 3])}, MISSING.format("year", r"c\.csv:2")),
    ("csv short row", "c.csv", _csv("text,source,year\na mouse,x\nmouse,y,3\n"), "year", None,
     {"year": ("Int64", [pd.NA, 3])}, MISSING.format("year", r"c\.csv:2")),
    ("csv integral column", "c.csv", _csv("text,year\na mouse,1850\nmouse,-3\n"), "year", None,
     {"year": ("int64", [1850, -3])}, None),
    ("csv leading zeros stay text", "c.csv", _csv("text,code\na mouse,007\n"), "code", None,
     {"code": ("str", ["007"])}, None),
    ("tsv column", "c.tsv", _csv("text\tsource\na mouse\tnews\n"), "source", None, {"source": ("str", ["news"])},
     None),
    ("parquet absent column", "c.parquet", _parquet(pa.table({"text": ["a mouse"]})), "year", None,
     r"c\.parquet: no column 'year' \(columns: text\)", None),
    ("parquet list column", "c.parquet", _parquet(pa.table({"text": ["a mouse"], "y": [[1]]})), "y", None,
     r"c\.parquet: --meta column 'y' holds list<.*int64> values", None),
    ("parquet ints with a null", "c.parquet", _parquet(pa.table({"text": ["a mouse", "mouse"], "y": [1, None]})),
     "y", None, {"y": ("Int64", [1, pd.NA])}, MISSING.format("y", r"c\.parquet:2")),
    ("parquet booleans", "c.parquet", _parquet(pa.table({"text": ["a mouse"], "y": [True]})), "y", None,
     {"y": ("bool", [True])}, None),
    ("parquet floats", "c.parquet", _parquet(pa.table({"text": ["a mouse"], "y": [0.25]})), "y", None,
     {"y": ("float64", [0.25])}, None),
    ("meta on plain text", "c.txt", b"a mouse\n", "year", None, r"c\.txt: a plain-text file has no fields", None),
    ("meta id", "c.jsonl", _jsonl({"text": "a mouse", "id": "x"}), "id", None,
     r"--meta: 'id' is a column of the occurrence table itself", None),
    ("meta target", "c.jsonl", _jsonl({"text": "a mouse"}), "target", None, r"'target' is a column of the", None),
    ("meta sense", "c.jsonl", _jsonl({"text": "a mouse"}), "sense", None, r"'sense' is a column of the", None),
    ("meta text field", "c.jsonl", _jsonl({"body": "a mouse"}), "body", None, r"'body' is the field that holds", None),
    ("meta twice", "c.jsonl", _jsonl({"text": "a mouse", "y": 1}), "y,y", None, r"'y' is asked for twice", None),
    ("path year", "c.txt", b"a mouse\n", "", r"(\d{4})", {"slice": ("int64", [1850])}, None),
    ("path named group", "c.txt", b"a mouse\n", "", r"(?P<year>\d{4})/", {"year": ("int64", [1850])}, None),
    ("path folder name", "c.txt", b"a mouse\n", "", r"^([^/]+)/", {"slice": ("int64", [1850])}, None),
    ("path and field", "c.jsonl", _jsonl({"text": "a mouse", "s": "x"}), "s", r"(?P<year>\d{4})",
     {"s": ("str", ["x"]), "year": ("int64", [1850])}, None),
    ("path no group", "c.txt", b"a mouse\n", "", r"\d{4}", r"has no group: put the part of the path to keep in", None),
    ("path bad regex", "c.txt", b"a mouse\n", "", r"(\d{4}", r"is not a valid regex \(missing \), unterminated", None),
    ("path matches nothing", "c.txt", b"a mouse\n", "", r"(\d{5})",
     r"matches none of the 1 corpus file paths \('1850/c\.txt'\)", None),
    ("path empty capture", "c.txt", b"a mouse\n", "", r"(x*)1850",
     {"slice": ("str", [float("nan")])}, MISSING.format("slice", r"c\.txt:1")),
    ("path group named like a column", "c.txt", b"a mouse\n", "", r"(?P<doc_id>\d+)",
     r"'doc_id' is a column of the occurrence table", None),
    ("path group named like a field", "c.jsonl", _jsonl({"text": "a mouse", "y": 1}), "y", r"(?P<y>\d+)",
     r"'y' is asked for twice", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "file_name", "data", "meta", "regex", "expected", "warning"), META_CASES, ids=[c[0] for c in META_CASES]
)
def test_corpus_metadata(tmp_path, name, file_name, data, meta, regex, expected, warning):
    (tmp_path / "1850").mkdir()
    (tmp_path / "1850" / file_name).write_bytes(data)
    text_field = "body" if name == "meta text field" else "text"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if isinstance(expected, dict):
            occurrences = scan(tmp_path, "mouse", meta=meta, slice_from_path=regex, text_field=text_field)
            for column, (dtype, values) in expected.items():
                assert str(occurrences[column].dtype) == dtype, column
                found = [None if pd.isna(v) else v for v in occurrences[column].tolist()]
                assert found == [None if pd.isna(v) else v for v in values], column
        else:
            with pytest.raises((InputError, ConfigError), match=expected) as error:
                scan(tmp_path, "mouse", meta=meta, slice_from_path=regex, text_field=text_field)
            assert "\n" not in str(error.value)
    messages = [str(w.message) for w in caught]
    if warning is None:
        assert messages == []
    else:
        assert len(messages) == 1 and re.search(warning, messages[0]), messages
