"""Adversarial targets: case folding in both directions, BOMs, duplicates, malformed target and forms files."""

from __future__ import annotations

import re
import warnings

import pytest

from wsd.corpus.forms import find_word
from wsd.corpus.matcher import FormMatcher
from wsd.corpus.scan import scan
from wsd.corpus.targets import merge_forms, parse_targets, read_forms_file
from wsd.errors import ConfigError, InputError, WsdError

#: (case, targets, text, expected (form, target) pairs) — ignoring case means equal str.casefold()
MATCH_CASES = [
    (
        "dotted capital I found verbatim",
        "İstanbul",
        "İstanbul is big; İSTANBUL too; not ISTANBUL.",
        [("İstanbul", "İstanbul"), ("İSTANBUL", "İstanbul")],
    ),
    ("dotted capital I in the target", "İSTANBUL", "i̇stanbul", [("i̇stanbul", "İSTANBUL")]),
    ("plain I is another fold", "istanbul", "İstanbul Istanbul", [("Istanbul", "istanbul")]),
    (
        "sharp s finds its folds",
        "straße",
        "STRASSE, Straße, strasse.",
        [("STRASSE", "straße"), ("Straße", "straße"), ("strasse", "straße")],
    ),
    ("ss finds sharp s", "strasse", "Die Straße", [("Straße", "strasse")]),
    ("capital sharp s", "STRASSE", "ẞtraße", []),
    ("capital sharp s folds to ss", "sstrasse", "ẞtraße", [("ẞtraße", "sstrasse")]),
    ("no match inside a fold", "s", "ß s", [("s", "s")]),
    ("no word prefix inside a fold", "mass", "Maße Mass", [("Mass", "mass")]),
    ("ligature", "office", "The oﬃce; OFFICE", [("oﬃce", "office"), ("OFFICE", "office")]),
    ("final sigma", "σίσυφος", "ΣΊΣΥΦΟΣ and Σίσυφος", [("ΣΊΣΥΦΟΣ", "σίσυφος"), ("Σίσυφος", "σίσυφος")]),
    ("dotless i is its own letter", "kız", "KIZ kız", [("kız", "kız")]),
    ("offsets after folds that grow", "bank", "ßßß ﬃ İ bank BANK", [("bank", "bank"), ("BANK", "bank")]),
    ("Cyrillic", "замок:замка", "Замок и ЗАМКА", [("Замок", "замок"), ("ЗАМКА", "замок")]),
    ("word boundaries", "mouse", "mousetrap dormouse mouse-like MOUSE", [("mouse", "mouse"), ("MOUSE", "mouse")]),
    ("multi-word form", "ice cream", "ICE CREAM, ice creamer", [("ICE CREAM", "ice cream")]),
]


@pytest.mark.parametrize(("name", "targets", "text", "expected"), MATCH_CASES, ids=[c[0] for c in MATCH_CASES])
def test_matching_agrees_with_case_folding(name, targets, text, expected):
    matches = FormMatcher(parse_targets(targets)).find(text)
    assert [(m.form, m.target) for m in matches] == expected
    for m in matches:
        assert text[m.start : m.end] == m.form
    # the dataset matcher (find_word) follows the same rule
    forms = [f for target_forms in parse_targets(targets).values() for f in target_forms]
    assert [text[a:b] for a, b in find_word(text, forms)] == [form for form, _ in expected]


def test_case_sensitive_matching_is_exact():
    matcher = FormMatcher(parse_targets("Straße,mouse", case_sensitive=True), case_sensitive=True)
    assert [m.form for m in matcher.find("STRASSE Straße straße Mouse mouse")] == ["Straße", "mouse"]


#: (case, targets-file bytes, expected {target: forms} or an error pattern)
TARGETS_FILE_CASES = [
    ("bom", b"\xef\xbb\xbfmouse\nbank\n", {"mouse": ["mouse"], "bank": ["bank"]}),
    ("forms after a colon, commas", "замок:замка,замке\n".encode(), {"замок": ["замок", "замка", "замке"]}),
    ("forms after a colon, colons", "замок:замка:замке\n".encode(), {"замок": ["замок", "замка", "замке"]}),
    ("forms-file syntax", b"mouse\tmice,mouses\n", {"mouse": ["mouse", "mice", "mouses"]}),
    ("comments and blanks", b"# a comment\n\n  mouse  \n   # indented comment\n", {"mouse": ["mouse"]}),
    ("crlf", b"mouse:mice\r\nbank\r\n", {"mouse": ["mouse", "mice"], "bank": ["bank"]}),
    ("spaces around forms", b"mouse : mice , mouses\n", {"mouse": ["mouse", "mice", "mouses"]}),
    (
        "comma without colon",
        b"mouse\nmouse,bank\n",
        r"targets file .*t\.txt, line 2: 'mouse,bank' has a comma but no colon",
    ),
    ("no target", b"mouse\n:mice\n", r"line 2: no target before the forms"),
    ("comma before the colon", b"mouse,bank:banks\n", r"line 1: the target in 'mouse,bank:banks' has a comma"),
    ("three fields", b"mouse\tmice\tx\n", r"line 1: expected 'target<TAB>form1,form2', found 3 tab-separated fields"),
    (
        "latin-1",
        "mouse\ncafé\n".encode("latin-1"),
        r"targets file .*t\.txt line 2: not UTF-8 \(byte 0xe9 at column 4\)",
    ),
    ("utf-16", "mouse\n".encode("utf-16"), r"looks like UTF-16"),
    ("only comments", b"# nothing\n\n", r"targets file .*t\.txt names no target"),
]


@pytest.mark.parametrize(("name", "data", "expected"), TARGETS_FILE_CASES, ids=[c[0] for c in TARGETS_FILE_CASES])
def test_targets_file(tmp_path, name, data, expected):
    path = tmp_path / "t.txt"
    path.write_bytes(data)
    if isinstance(expected, dict):
        assert parse_targets(str(path)) == expected
        assert parse_targets(path) == expected
    else:
        with pytest.raises(InputError, match=expected):
            parse_targets(str(path))


#: (case, command-line string, expected {target: forms} or a ConfigError pattern)
COMMAND_LINE_CASES = [
    ("targets and forms", "mouse:mice,bank", {"mouse": ["mouse", "mice"], "bank": ["bank"]}),
    ("a comma starts a target", "замок:замка,замке", {"замок": ["замок", "замка"], "замке": ["замке"]}),
    ("several forms", "замок:замка:замке", {"замок": ["замок", "замка", "замке"]}),
    ("empty items", " mouse , ,bank,", {"mouse": ["mouse"], "bank": ["bank"]}),
    ("nothing", " , ", r"no target words given"),
    ("no target", "mouse,:mice", r"empty target name in ':mice'"),
]


@pytest.mark.parametrize(("name", "spec", "expected"), COMMAND_LINE_CASES, ids=[c[0] for c in COMMAND_LINE_CASES])
def test_command_line_targets(name, spec, expected):
    if isinstance(expected, dict):
        assert parse_targets(spec) == expected
    else:
        with pytest.raises(ConfigError, match=expected):
            parse_targets(spec)


def test_list_items_are_one_target_each():
    assert parse_targets(["замок:замка,замке", "#tag", ""]) == {"замок": ["замок", "замка", "замке"], "#tag": ["#tag"]}
    with pytest.raises(ConfigError, match=r"target item 2: 'a,b' has a comma but no colon"):
        parse_targets(["mouse", "a,b"])
    with pytest.raises(ConfigError, match="empty target name"):
        parse_targets({"": ["x"]})


def test_targets_that_differ_in_case_are_merged_once_with_one_warning(tmp_path):
    with pytest.warns(UserWarning, match=r"merged 'MOUSE' into 'mouse', 'Mouse' into 'mouse'") as caught:
        targets = parse_targets("mouse:mice,MOUSE:mouses,Mouse,bank")
    assert len(caught) == 1
    assert targets == {"mouse": ["mouse", "mice", "mouses"], "bank": ["bank"]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(parse_targets("mouse,MOUSE", case_sensitive=True)) == ["mouse", "MOUSE"]
    corpus = tmp_path / "c.txt"
    corpus.write_text("A mouse and a MOUSE.\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="differ only in case"):
        occurrences = scan(corpus, "mouse,MOUSE")
    assert occurrences[["target", "form"]].values.tolist() == [["mouse", "mouse"], ["mouse", "MOUSE"]]
    assert occurrences["id"].is_unique


def test_a_targets_file_with_a_bom_finds_its_first_target(tmp_path):
    targets = tmp_path / "targets.txt"
    targets.write_bytes("\ufeffзамок:замка,замке\nmouse\n".encode())
    corpus = tmp_path / "c.txt"
    corpus.write_text("Замок и замке; a mouse.\n", encoding="utf-8")
    occurrences = scan(corpus, targets)
    assert occurrences[["target", "form"]].values.tolist() == [
        ["замок", "Замок"],
        ["замок", "замке"],
        ["mouse", "mouse"],
    ]


#: (case, forms-file bytes, expected or an error pattern)
FORMS_FILE_CASES = [
    ("bom", b"\xef\xbb\xbfmouse\tmice\n", {"mouse": ["mouse", "mice"]}),
    ("latin-1", "mouse\tmice\ncafé\tcafés\n".encode("latin-1"), r"forms file .*f\.tsv line 2: not UTF-8"),
    ("spaces, not a tab", b"mouse mice\n", r"f\.tsv, line 1: expected 'target<TAB>form1,form2,...'"),
    ("folder", None, r"forms file .* is a folder, not a file"),
    ("missing", "missing", r"forms file not found"),
]


@pytest.mark.parametrize(("name", "data", "expected"), FORMS_FILE_CASES, ids=[c[0] for c in FORMS_FILE_CASES])
def test_forms_file(tmp_path, name, data, expected):
    path = tmp_path / "f.tsv"
    if data is None:
        path.mkdir()
    elif isinstance(data, bytes):
        path.write_bytes(data)
    if isinstance(expected, dict):
        assert read_forms_file(path) == expected
    else:
        with pytest.raises(InputError, match=expected):
            read_forms_file(path)


def test_forms_merge_ignoring_case():
    assert merge_forms({"mouse": ["mouse"]}, {"Mouse": ["Mouse", "mice"]}) == {"mouse": ["mouse", "mice"]}
    assert merge_forms({"mouse": ["mouse"]}, {"Mouse": ["mice"]}, case_sensitive=True) == {"mouse": ["mouse"]}


@pytest.mark.parametrize("spec", ["mouse,bank", "a:b:c", "::", "x,,y", "\t", "#", "é:É"])
def test_errors_are_wsd_errors(spec):
    try:
        parse_targets(spec)
    except WsdError as error:
        assert re.match(r"\S", str(error))
