"""Adversarial labelled files, gold keys and options: bad bytes, byte-order marks and truncated gzip files give
one InputError naming the file and line; a usable file is read as it is meant."""

from __future__ import annotations

import gzip

import pytest

from wsd.corpus.contexts import passages
from wsd.corpus.matcher import FormMatcher
from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets import _read_key
from wsd.evaluate.datasets.generic import read_generic

TSV = "id\ttarget\ttext\tstart\tend\tsense\nb1\tbank\tthe bank\t4\t8\tmoney\n"
JSONL = '{"id": "b1", "target": "bank", "text": "the bank", "start": 4, "end": 8, "sense": "money"}\n'

#: (case, file name, bytes, expected ids or an error pattern)
GENERIC_CASES = [
    ("tsv", "d.tsv", TSV.encode(), ["b1"]),
    ("tsv bom", "d.tsv", b"\xef\xbb\xbf" + TSV.encode(), ["b1"]),
    ("jsonl bom", "d.jsonl", b"\xef\xbb\xbf" + JSONL.encode(), ["b1"]),
    ("tsv crlf", "d.tsv", TSV.replace("\n", "\r\n").encode(), ["b1"]),
    ("tsv.gz", "d.tsv.gz", gzip.compress(TSV.encode()), ["b1"]),
    (
        "tsv latin-1",
        "d.tsv",
        (TSV + "b2\tbank\tcafé bank\t5\t9\t\n").encode("latin-1"),
        r"labelled file .*d\.tsv line 3: not UTF-8",
    ),
    ("jsonl latin-1", "d.jsonl", JSONL.replace("the", "thé").encode("latin-1"), r"d\.jsonl line 1: not UTF-8"),
    (
        "tsv.gz truncated",
        "d.tsv.gz",
        gzip.compress((TSV + "".join(f"x{i}\tbank\tthe bank\t4\t8\t\n" for i in range(300))).encode())[:-20],
        r"d\.tsv\.gz: truncated or damaged gzip",
    ),
    ("utf-16", "d.tsv", TSV.encode("utf-16"), r"looks like UTF-16"),
]


@pytest.mark.parametrize(("name", "file_name", "data", "expected"), GENERIC_CASES, ids=[c[0] for c in GENERIC_CASES])
def test_generic_labelled_file(tmp_path, name, file_name, data, expected):
    path = tmp_path / file_name
    path.write_bytes(data)
    if isinstance(expected, list):
        assert read_generic(path)["id"].tolist() == expected
    else:
        with pytest.raises(InputError, match=expected):
            read_generic(path)


def test_gold_key_files_of_datasets(tmp_path):
    path = tmp_path / "all.key"
    path.write_bytes(b"\xef\xbb\xbfadd.v add.v.1 s1/1\r\nadd.v add.v.2 s2\r\n")
    assert _read_key(path) == {"add.v.1": ("add.v", "s1/1"), "add.v.2": ("add.v", "s2")}
    path.write_bytes("add.v add.v.1 s1\nadd.v add.v.2 sé\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"gold key file .*all\.key line 2: not UTF-8"):
        _read_key(path)


@pytest.mark.parametrize("chars", ["100", 1.5, True, 0, -3, None])
def test_context_chars_of_the_wrong_type_is_a_config_error(chars):
    found = FormMatcher({"bank": ["bank"]}).find("the bank")
    with pytest.raises(ConfigError, match="context_chars must be a positive number of characters"):
        passages("the bank", found, context_chars=chars)
