"""Inputs from a hostile sweep (issue 39): dates that are not ISO, Unicode in another normalisation form, UTF-16
corpus files, a corpus that is a link loop, and command-line text that is not UTF-8. Each is one line and exit 2
(or the right answer), never a silent guess or a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pandas as pd
import pytest

from wsd.change.slices import assign_slices, years_of
from wsd.cli import main
from wsd.corpus.matcher import FormMatcher, LemmaMatcher
from wsd.corpus.scan import scan
from wsd.corpus.targets import parse_targets
from wsd.errors import InputError
from wsd.io.textfiles import check_utf8_text


def _one_line_exit_2(code: int, err: str) -> None:
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "unexpected error" not in err, err


# ---------------------------------------------------------------------------------------------- 1. dates
#: (case, a value of the date column, what the one-line error says)
BAD_DATES = [
    ("day first, two-digit year", "01-01-87", r"the year comes first, with four digits"),
    ("month 13", "1887-13-45", r"month 13 is not 1 to 12"),
    ("day 45", "1887-05-45", r"1887-05 has no day 45"),
    ("February 30", "1887-02-30", r"1887-02 has no day 30"),
    ("no leap day in 1900", "1900-02-29", r"1900-02 has no day 29"),
    ("month 0", "1887-00", r"month 0 is not 1 to 12"),
    ("one-digit month", "1887-5-3", r"month and day have two digits"),
    ("slashes", "1887/05/03", r"expected an ISO date"),
    ("hour 25", "1887-05-03T25:00", r"hour 25 is not 0 to 23"),
    ("garbage after the time mark", "1887-05-03T1x", r"the time is not hh:mm or hh:mm:ss"),
    ("a time after a month", "1887-05T10:00", r"the time is not hh:mm or hh:mm:ss after a full date"),
    ("a word", "May 1887", r"expected an ISO date"),
]
#: (a value of the date column, its year)
GOOD_DATES = [
    ("1887", "1887"),
    (1887, "1887"),
    (1887.0, "1887"),
    ("-45", "-45"),
    ("1887-05", "1887"),
    ("1887-05-03", "1887"),
    ("0044-03-15", "44"),
    ("2000-02-29", "2000"),
    ("1887-05-03T10:00", "1887"),
    ("1887-05-03 00:00:00", "1887"),
    ("1887-05-03T23:59:60Z", "1887"),
    ("1887-05-03T10:00:00.123456+02:00", "1887"),
    (" 1887-05-03 ", "1887"),
]


@pytest.mark.parametrize(("name", "value", "reason"), BAD_DATES, ids=[c[0] for c in BAD_DATES])
def test_a_date_that_is_not_iso_is_one_error_naming_value_column_and_document(name, value, reason) -> None:
    table = pd.DataFrame({"doc_id": ["c.jsonl:1", "c.jsonl:2"], "date": ["1999-05-01", value]})
    for by in ("date:year", "date:decade"):
        with pytest.raises(InputError, match=reason) as caught:
            assign_slices(table, by)
        message = str(caught.value)
        assert repr(value) in message and "'date'" in message and "c.jsonl:2" in message and "\n" not in message
    with pytest.raises(InputError, match=reason):
        years_of(pd.Series([value]), "date")


def test_a_column_that_looks_like_dates_is_read_strictly_unasked() -> None:
    """--by date without :year reads a column of dates as years; one that is no real date is an error there too."""
    table = pd.DataFrame({"doc_id": ["a:1", "a:2"], "date": ["1887-05-03", "1887-13-45"]})
    with pytest.raises(InputError, match=r"'1887-13-45' in document a:2.*month 13"):
        assign_slices(table, "date")


@pytest.mark.parametrize(("value", "year"), GOOD_DATES, ids=[repr(c[0]) for c in GOOD_DATES])
def test_iso_dates_and_years_are_read_as_their_year(value, year) -> None:
    assert years_of(pd.Series([value, None], dtype=object), "date").tolist() == [year, None]


def test_a_date_that_is_not_iso_stops_wsd_run_before_embedding(tmp_path: Path, capsys) -> None:
    corpus = tmp_path / "c.jsonl"
    rows = [("a bank here", "1999-05-01"), ("the bank there", "01-01-87")]
    corpus.write_text("".join(json.dumps({"text": t, "date": d}) + "\n" for t, d in rows), encoding="utf-8")
    out = tmp_path / "o"
    argv = ["run", "--corpus", str(corpus), "--targets", "bank", "--meta", "date", "--by", "date:year"]
    code = main([*argv, "--min-uses", "1", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    _one_line_exit_2(code, err)
    assert "'01-01-87'" in err and "'date'" in err and "c.jsonl:2" in err
    assert not out.exists()


# ---------------------------------------------------------------------------------------------- 2. NFC and NFD
CAFE_NFC = "caf\u00e9"
CAFE_NFD = "cafe\u0301"


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


#: (case, targets, text, expected (form, target) pairs): canonically equal strings match, whatever their form
NORMAL_FORM_CASES = [
    ("NFC target, NFD text", CAFE_NFC, f"Un {CAFE_NFD} noir.", [(CAFE_NFD, CAFE_NFC)]),
    ("NFD target, NFC text", CAFE_NFD, f"Un {CAFE_NFC} noir.", [(CAFE_NFC, CAFE_NFD)]),
    ("NFD target, NFD text", CAFE_NFD, f"Un {CAFE_NFD} noir.", [(CAFE_NFD, CAFE_NFD)]),
    ("NFC target, mixed text", CAFE_NFC, f"{CAFE_NFD}, {CAFE_NFC}!", [(CAFE_NFD, CAFE_NFC), (CAFE_NFC, CAFE_NFC)]),
    ("upper case NFD text", CAFE_NFC, _nfd("CAFÉ au lait"), [(_nfd("CAFÉ"), CAFE_NFC)]),
    ("plain cafe, NFD text", "cafe", f"{CAFE_NFD} cafe", [("cafe", "cafe")]),
    ("plain cafe, NFC text", "cafe", f"{CAFE_NFC} cafe", [("cafe", "cafe")]),
    ("plain cafe, mixed", "cafe", f"{CAFE_NFC} {CAFE_NFD} cafe.", [("cafe", "cafe")]),
    ("a mark with no precomposed letter", "q", "q\u0301 q", [("q", "q")]),
    ("a mark before the word", "abc", "x\u0301abc \u0301abc abc", [("abc", "abc")]),
    (
        "Hangul jamo",
        "한국",
        "\u1112\u1161\u11ab\u1100\u116e\u11a8 말",
        [("\u1112\u1161\u11ab\u1100\u116e\u11a8", "한국")],
    ),
    ("Devanagari vowel sign", "कम", "कमा कम", [("कम", "कम")]),  # कमा: कम and the sign ा
    (
        "offsets after clusters that shrink",
        "bank",
        f"{_nfd('été, où, Ångström')} bank BANK",
        [("bank", "bank"), ("BANK", "bank")],
    ),
    (
        "mixed forms of one target",
        f"{CAFE_NFC}:{_nfd('cafés')}",
        f"{_nfd('cafés')} {CAFE_NFC}",
        [(_nfd("cafés"), CAFE_NFC), (CAFE_NFC, CAFE_NFC)],
    ),
]


@pytest.mark.parametrize(
    ("name", "targets", "text", "expected"), NORMAL_FORM_CASES, ids=[c[0] for c in NORMAL_FORM_CASES]
)
def test_matching_ignores_the_unicode_normalisation_form(name, targets, text, expected) -> None:
    matches = FormMatcher(parse_targets(targets)).find(text)
    for m in matches:
        assert text[m.start : m.end] == m.form  # offsets into the text as given, the form as written there
    assert [(m.form, m.target) for m in matches] == expected


def test_a_scan_of_nfd_text_keeps_offsets_and_text_as_written(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    line = f"Le {CAFE_NFD} de Zoë; un {CAFE_NFC}, pas un cafe."
    corpus.write_text(line + "\n", encoding="utf-8")
    for targets in (CAFE_NFC, CAFE_NFD):
        table = scan(corpus, targets)
        assert table["form"].tolist() == [CAFE_NFD, CAFE_NFC]
        for row in table.itertuples():
            assert row.text[row.start : row.end] == row.form
            assert line[row.doc_start + row.start : row.doc_start + row.end] == row.form
    assert scan(corpus, "cafe")["form"].tolist() == ["cafe"]


def test_the_lemma_matcher_reads_nfd_words_whole() -> None:
    pytest.importorskip("simplemma")
    matcher = LemmaMatcher({CAFE_NFC: [CAFE_NFC]}, languages=("fr",))
    text = _nfd("un café, des cafés, un cafe")
    assert [(m.form, m.target) for m in matcher.find(text)] == [(CAFE_NFD, CAFE_NFC), (_nfd("cafés"), CAFE_NFC)]
    assert [m.form for m in LemmaMatcher({"cafe": ["cafe"]}, languages=("fr",)).find(text)] == ["cafe"]


def test_targets_that_differ_only_in_normalisation_are_one_target() -> None:
    with pytest.warns(UserWarning, match="merged"):
        targets = parse_targets(f"{CAFE_NFC},{CAFE_NFD}", case_sensitive=True)
    assert list(targets) == [CAFE_NFC]


# ---------------------------------------------------------------------------------------------- 3. UTF-16
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("name", ["b.txt", "b.jsonl", "b.csv"])
def test_a_utf16_file_in_a_corpus_folder_stops_the_scan_naming_it(tmp_path: Path, encoding, name, capsys) -> None:
    bom = {"utf-16": "", "utf-16-le": "\ufeff", "utf-16-be": "\ufeff"}[encoding]
    text = {"b.txt": "a mouse\n", "b.jsonl": '{"text": "a mouse"}\n', "b.csv": "text\na mouse\n"}[name]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("the mouse\n", encoding="utf-8")
    (corpus / name).write_bytes((bom + text).encode(encoding))
    with pytest.raises(InputError, match=rf"{name}: looks like UTF-16 \((little|big)-endian\)") as caught:
        scan(corpus, "mouse")
    assert "\n" not in str(caught.value)
    out = tmp_path / "o"
    code = main(["run", "--corpus", str(corpus), "--targets", "mouse", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    _one_line_exit_2(code, err)
    assert f"{name}: looks like UTF-16" in err and "iconv -f UTF-16" in err
    assert not out.exists()


# ---------------------------------------------------------------------------------------------- 4. link loop
@pytest.mark.parametrize("command", ["embed", "run"])
def test_a_corpus_that_is_a_link_loop_is_one_line(command: str, tmp_path: Path, capsys) -> None:
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    out = tmp_path / "o"
    code = main([command, "--corpus", str(loop), "--targets", "mouse", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    _one_line_exit_2(code, err)
    assert f"{loop} is a link that points to itself (a loop)" in err
    assert not out.exists()


# ---------------------------------------------------------------------------------------------- 5. argv not UTF-8
def test_check_utf8_text_names_the_byte() -> None:
    assert check_utf8_text("café", "--text") == "café"
    with pytest.raises(InputError, match=r"^--text holds bytes that are not UTF-8 \(byte 0xff at character 4\)"):
        check_utf8_text(os.fsdecode(b"caf\xff"), "--text")
    with pytest.raises(InputError, match=r"lone surrogate U\+D800 at character 1"):
        check_utf8_text("\ud800", "text 1")


@pytest.mark.skipif(sys.platform == "win32", reason="argv bytes are a POSIX matter")
@pytest.mark.parametrize(
    ("flag", "argv"),
    [
        ("--text", ["--target", "mouse", "--text", "a mouse", "--text", b"the mouse caf\xff"]),
        ("--target", ["--target", b"mous\xff", "--text", "a mouse"]),
    ],
)
def test_predict_text_that_is_not_utf8_is_one_line_before_loading(tmp_path: Path, flag: str, argv: list) -> None:
    senses = tmp_path / "senses"  # never read: the text is checked first
    command = [sys.executable, "-m", "wsd.cli", "predict", "--senses", str(senses), *argv]
    result = subprocess.run(command, capture_output=True, check=False, cwd=tmp_path)
    err = result.stderr.decode("utf-8", errors="replace")
    _one_line_exit_2(result.returncode, err)
    assert f"{flag} holds bytes that are not UTF-8 (byte 0xff at character" in err


def test_targets_on_the_command_line_that_are_not_utf8_are_one_line(tmp_path: Path, capsys) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("a mouse\n", encoding="utf-8")
    out = tmp_path / "o"
    targets = os.fsdecode(b"mous\xff")
    code = main(["embed", "--corpus", str(corpus), "--targets", targets, "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    _one_line_exit_2(code, err)
    assert "bytes that are not UTF-8 (byte 0xff" in err
    assert not out.exists()
