"""Adversarial text files through wsd.io.textfiles: every bad file gives one InputError naming file, line, problem."""

from __future__ import annotations

import gzip
import re
import warnings

import pytest

from wsd.errors import InputError
from wsd.io.textfiles import LineDecoder, check_file, iter_lines, read_lines, read_text

GOOD = "mouse\nзамок\nİstanbul\n"


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


#: (case name, file name, bytes, expected lines or an error pattern)
READ_CASES = [
    ("utf-8", "t.txt", GOOD.encode(), ["mouse", "замок", "İstanbul"]),
    ("utf-8 bom", "t.txt", b"\xef\xbb\xbf" + GOOD.encode(), ["mouse", "замок", "İstanbul"]),
    ("crlf", "t.txt", b"a\r\nb\r\n", ["a", "b"]),
    ("lone cr", "t.txt", b"a\rb\rc", ["a", "b", "c"]),
    ("no final newline", "t.txt", b"a\nb", ["a", "b"]),
    ("empty", "t.txt", b"", []),
    ("bom only", "t.txt", b"\xef\xbb\xbf", []),
    ("gzip", "t.txt.gz", _gzip(GOOD.encode()), ["mouse", "замок", "İstanbul"]),
    ("latin-1", "t.txt", "ok\ncafé au lait\n".encode("latin-1"), r"t\.txt line 2: not UTF-8 \(byte 0xe9 at column 4\)"),
    ("cp1251", "t.txt", "mouse\nзамок\n".encode("cp1251"), r"line 2: not UTF-8 \(byte 0xe7 at column 1\)"),
    ("column counts characters", "t.txt", "ключ \xff".encode()[:-2] + b"\xff", r"line 1: .*column 6\)"),
    ("utf-16 le", "t.txt", GOOD.encode("utf-16"), r"looks like UTF-16 \(little-endian\)"),
    ("utf-16 be", "t.txt", b"\xfe\xff" + GOOD.encode("utf-16-be"), r"looks like UTF-16 \(big-endian\)"),
    ("truncated gzip", "t.txt.gz", _gzip(GOOD.encode() * 50)[:-12], r"t\.txt\.gz: truncated or damaged gzip file"),
    ("not gzip", "t.txt.gz", GOOD.encode(), r"truncated or damaged gzip file"),
    ("gzip of latin-1", "t.txt.gz", _gzip("café\n".encode("latin-1")), r"line 1: not UTF-8 \(byte 0xe9"),
]


@pytest.mark.parametrize(("name", "file_name", "data", "expected"), READ_CASES, ids=[c[0] for c in READ_CASES])
def test_read_lines(tmp_path, name, file_name, data, expected):
    path = tmp_path / file_name
    path.write_bytes(data)
    if isinstance(expected, list):
        assert read_lines(path) == expected
        assert [line for _, line in iter_lines(path, universal_newlines=True)] == expected
    else:
        with pytest.raises(InputError, match=expected):
            read_lines(path)
        with pytest.raises(InputError, match=expected):
            list(iter_lines(path))


#: (case name, how to make the path, error pattern)
PATH_CASES = [
    ("missing", lambda tmp: tmp / "nope.txt", r"targets file not found: .*nope\.txt"),
    ("folder", lambda tmp: tmp, r"targets file .* is a folder, not a file"),
    ("broken link", lambda tmp: _link(tmp / "l.txt", tmp / "gone.txt"), r"is a broken symbolic link"),
    ("link loop", lambda tmp: _link(tmp / "loop.txt", tmp / "loop.txt"), r"cannot read targets file .*loop\.txt"),
]


def _link(link, target):
    link.symlink_to(target)
    return link


@pytest.mark.parametrize(("name", "make", "expected"), PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_bad_paths(tmp_path, name, make, expected):
    path = make(tmp_path)
    with pytest.raises(InputError, match=expected):
        check_file(path, "targets file")
    with pytest.raises(InputError, match=expected):
        read_text(path, "targets file")


def test_replace_mode_counts_lines_and_names_the_first(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(b"ok\nbad \xff\nok\nbad \xc3\n")
    with pytest.warns(UserWarning, match=r"c\.txt: 2 line\(s\) had bytes that are not UTF-8 \(the first on line 2\)"):
        lines = [line for _, line in iter_lines(path, bad_bytes="replace")]
    assert lines == ["ok", "bad \ufffd", "ok", "bad \ufffd"]


def test_a_bom_is_dropped_only_at_the_start_of_the_file(tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(b"\xef\xbb\xbfone\n\xef\xbb\xbftwo\n")
    assert [line for _, line in iter_lines(path)] == ["one", "\ufefftwo"]
    decode = LineDecoder(path)
    assert [decode(b"\xef\xbb\xbfa"), decode(b"\xef\xbb\xbfb")] == ["a", "\ufeffb"]


def test_a_clean_file_gives_no_warning(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(GOOD, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(list(iter_lines(path, bad_bytes="replace"))) == 3


def test_messages_are_one_line(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"a\n\xff\n")
    with pytest.raises(InputError) as caught:
        read_text(path, "forms file")
    assert "\n" not in str(caught.value)
    assert re.match(r"forms file .*t\.txt line 2: not UTF-8", str(caught.value))
