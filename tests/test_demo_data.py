"""Checks of the bundled demo corpus in data/demo: spans, senses, coverage and reproducible build."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import shutil
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

from wsd.errors import InputError
from wsd.occurrences import validate_occurrences

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"
BUILT_FILES = ("corpus.txt", "corpus.jsonl", "corpus.csv", "labelled.tsv", "forms.tsv")
ENGLISH_TARGETS = ("mouse", "bank", "plant", "bat", "cell")
RUSSIAN_TARGETS = ("замок", "лук", "ключ")
MIN_PER_SENSE = 10
ID_PATTERN = re.compile(r"^demo\.(\d+)\.(\d+)$")
README_ROW = re.compile(r"^\| (\S+) \| (\S+\.\S+) \| (\d+) \|$")


@pytest.fixture(scope="module")
def build_demo() -> ModuleType:
    """The build script, imported from its file."""
    spec = importlib.util.spec_from_file_location("wsd_demo_build_demo", DEMO / "build_demo.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file executes
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def labelled() -> pd.DataFrame:
    """labelled.tsv as strings (no quoting: the texts hold no tabs or double quotes)."""
    return pd.read_csv(DEMO / "labelled.tsv", sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE)


@pytest.fixture(scope="module")
def corpus_lines() -> list[str]:
    """The lines of corpus.txt."""
    text = (DEMO / "corpus.txt").read_text(encoding="utf-8")
    assert text.endswith("\n") and "\r" not in text
    return text[:-1].split("\n")


@pytest.fixture(scope="module")
def forms() -> dict[str, list[str]]:
    """forms.tsv as target -> forms."""
    rows = (DEMO / "forms.tsv").read_text(encoding="utf-8").splitlines()
    return {target: group.split(",") for target, group in (row.split("\t") for row in rows)}


def test_labelled_header_and_unique_ids(labelled: pd.DataFrame) -> None:
    assert labelled.columns.tolist() == ["id", "target", "text", "start", "end", "sense"]
    assert not labelled["id"].duplicated().any()
    assert labelled["id"].str.fullmatch(ID_PATTERN.pattern).all()


def test_span_is_a_listed_form_of_its_target(labelled: pd.DataFrame, forms: dict[str, list[str]]) -> None:
    for row in labelled.itertuples():
        surface = row.text[int(row.start) : int(row.end)].lower()
        assert surface == row.target or surface in forms[row.target], row.id
        assert row.sense.split(".")[0] == row.target, row.id


def test_sentences_are_corpus_lines_named_by_the_id(labelled: pd.DataFrame, corpus_lines: list[str]) -> None:
    for row in labelled.itertuples():
        line, _ = map(int, ID_PATTERN.match(row.id).groups())
        assert corpus_lines[line - 1] == row.text, row.id
    assert set(labelled["text"]) <= set(corpus_lines)


def test_occurrence_numbers_follow_offsets(labelled: pd.DataFrame) -> None:
    parts = labelled["id"].str.extract(ID_PATTERN).astype(int)
    frame = labelled.assign(line=parts[0], k=parts[1], start=labelled["start"].astype(int))
    for _, group in frame.groupby("line"):
        assert group["k"].tolist() == list(range(1, len(group) + 1))
        assert group["start"].is_monotonic_increasing


def test_every_occurrence_of_a_listed_form_is_labelled(
    labelled: pd.DataFrame, corpus_lines: list[str], forms: dict[str, list[str]]
) -> None:
    alternatives = "|".join(sorted({f for group in forms.values() for f in group}, key=len, reverse=True))
    pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    found = {
        (number, match.start(), match.end())
        for number, line in enumerate(corpus_lines, start=1)
        for match in pattern.finditer(line)
    }
    line_numbers = labelled["id"].str.extract(ID_PATTERN)[0].astype(int)
    labelled_spans = set(zip(line_numbers, labelled["start"].astype(int), labelled["end"].astype(int), strict=True))
    assert found == labelled_spans


def test_english_targets_have_two_senses_with_enough_occurrences(labelled: pd.DataFrame) -> None:
    for target in ENGLISH_TARGETS:
        counts = labelled.loc[labelled["target"] == target, "sense"].value_counts()
        assert (counts >= MIN_PER_SENSE).sum() >= 2, f"{target}: {counts.to_dict()}"
        assert 40 <= counts.sum() <= 60, target


def test_russian_part_exists(labelled: pd.DataFrame, forms: dict[str, list[str]]) -> None:
    for target in RUSSIAN_TARGETS:
        counts = labelled.loc[labelled["target"] == target, "sense"].value_counts()
        assert (counts >= MIN_PER_SENSE).sum() >= 2, f"{target}: {counts.to_dict()}"
        assert len(forms[target]) >= 4, target
    walks = labelled.loc[labelled["target"] == "шагать"]
    assert len(walks) >= 5
    assert set(walks["sense"]) == {"шагать.walk"}
    assert len(forms["шагать"]) >= 3


def test_corpus_shape(labelled: pd.DataFrame, corpus_lines: list[str]) -> None:
    assert 300 <= len(corpus_lines) <= 400
    for number, line in enumerate(corpus_lines, start=1):
        assert line == line.strip() and unicodedata.is_normalized("NFC", line), number
        assert 8 <= len(line.split()) <= 30, number
    per_line = Counter(labelled["text"])
    fillers = len(set(corpus_lines) - set(per_line))
    assert 0.05 <= fillers / len(corpus_lines) <= 0.15
    assert sum(1 for n in per_line.values() if n >= 2) >= 10
    assert len(set(corpus_lines)) == len(corpus_lines)


def test_labelled_rows_form_a_valid_occurrence_table(labelled: pd.DataFrame) -> None:
    line = labelled["id"].str.extract(ID_PATTERN)[0]
    table = labelled.assign(
        start=labelled["start"].astype(int),
        end=labelled["end"].astype(int),
        form=[t[int(s) : int(e)] for t, s, e in zip(labelled["text"], labelled["start"], labelled["end"], strict=True)],
        doc_id="corpus.txt:" + line,
        doc_start=0,
    )
    assert len(validate_occurrences(table, "labelled.tsv")) == len(labelled)


def test_readme_counts_match_labelled(labelled: pd.DataFrame) -> None:
    readme = (DEMO / "README.md").read_text(encoding="utf-8").splitlines()
    rows = [README_ROW.match(line) for line in readme]
    documented = {m.group(2): int(m.group(3)) for m in rows if m}
    assert documented == labelled["sense"].value_counts().to_dict()


def test_build_reproduces_committed_files(build_demo: ModuleType, tmp_path: Path) -> None:
    paths = build_demo.build(DEMO / "sentences.tsv", tmp_path)
    assert sorted(paths) == sorted(BUILT_FILES)
    for name in BUILT_FILES:
        assert (tmp_path / name).read_bytes() == (DEMO / name).read_bytes(), name


@pytest.mark.parametrize(
    ("sentence", "message"),
    [
        ("The [[mice|mouse.animal]] ran past two more Mice hiding in the wall.", "not marked"),
        ("The [[mouse|mouse.animal]]s ran past the barn and into the wet field.", "whole word"),
        ("The [[mice|mouse]] ran past the barn and into the wet field tonight.", "lemma.label"),
        ("The [[mice|mouse.animal] ran past the barn and into the wet field.", "stray"),
    ],
)
def test_build_rejects_bad_annotation(build_demo: ModuleType, tmp_path: Path, sentence: str, message: str) -> None:
    source = tmp_path / "sentences.tsv"
    source.write_text(f"lang\tsentence\n# comment\n\nen\t{sentence}\n", encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        build_demo.build(source, tmp_path / "out")
    assert f"{source}:4" in str(info.value)


def test_build_rejects_bad_header(build_demo: ModuleType, tmp_path: Path) -> None:
    source = tmp_path / "sentences.tsv"
    source.write_text("sentence\nen\tA [[bat|bat.animal]] flew out.\n", encoding="utf-8")
    with pytest.raises(InputError, match=":1: header"):
        build_demo.read_source(source)


def test_dated_corpus_is_the_corpus_with_a_year(corpus_lines: list[str], labelled: pd.DataFrame) -> None:
    import wsd

    records = [json.loads(line) for line in (DEMO / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in records] == corpus_lines
    assert all(isinstance(r["year"], int) and 1850 <= r["year"] <= 2020 for r in records)
    # the younger senses lie in the later years only; the others span the whole range
    years = {f"demo.{line}": r["year"] for line, r in enumerate(records, start=1)}
    labelled = labelled.assign(year=[years[i.rsplit(".", 1)[0]] for i in labelled["id"]])
    assert labelled.loc[labelled["sense"].isin(["mouse.device", "cell.phone"]), "year"].min() >= 1985
    assert labelled.loc[labelled["sense"] == "mouse.animal", "year"].agg(["min", "max"]).tolist()[0] < 1900
    occurrences = wsd.scan(DEMO / "corpus.jsonl", "mouse:mice", meta=["year"])
    assert occurrences["year"].dtype == "int64" and len(occurrences) == 56


def test_dated_csv_is_the_corpus_with_a_date_in_three_decades(corpus_lines: list[str], labelled: pd.DataFrame) -> None:
    """corpus.csv (the docs' decade-by-decade example): the corpus with an ISO date, 1990-2019, 10+ uses a decade."""
    import wsd

    table = pd.read_csv(DEMO / "corpus.csv", dtype=str, keep_default_na=False)
    assert list(table.columns) == ["date", "text"] and table["text"].tolist() == corpus_lines
    years = pd.to_datetime(table["date"], format="%Y-%m-%d").dt.year
    assert years.between(1990, 2019).all()
    dated = dict(zip([f"demo.{line}" for line in range(1, len(table) + 1)], years, strict=True))
    labelled = labelled.assign(year=[dated[i.rsplit(".", 1)[0]] for i in labelled["id"]])
    assert labelled.loc[labelled["sense"].isin(["mouse.device", "cell.phone"]), "year"].min() >= 2000
    english = ["mouse", "bank", "plant", "bat", "cell"]
    occurrences = wsd.scan(DEMO / "corpus.csv", ",".join(english), forms=DEMO / "forms.tsv", meta=["date"])
    per_decade = pd.crosstab(occurrences["target"], occurrences["date"].str[:3] + "0s")
    assert list(per_decade.columns) == ["1990s", "2000s", "2010s"] and sorted(per_decade.index) == sorted(english)
    assert (per_decade >= 10).all().all(), per_decade  # every decade of every English word reaches --min-uses 10


def test_demo_folder_holds_files_not_links() -> None:
    """data/demo holds plain files with the same bytes as the package data wsd/demo_data (wsd demo's copy)."""
    package = DEMO.parents[1] / "wsd" / "demo_data"
    for name in BUILT_FILES:
        assert not (DEMO / name).is_symlink(), name
        assert (DEMO / name).read_bytes() == (package / name).read_bytes(), name


def test_copied_demo_folder_scans(tmp_path: Path) -> None:
    """``cp -r data/demo mine`` (links copied as links, as cp -r does) gives a corpus whose forms.tsv reads."""
    from wsd.corpus.scan import scan

    copy = tmp_path / "mine"
    shutil.copytree(DEMO, copy, symlinks=True)  # what `cp -r` does: a symbolic link is copied as a link
    occurrences = scan(copy / "corpus.txt", ["mouse"], forms=copy / "forms.tsv")
    assert set(occurrences["form"].str.lower()) >= {"mouse", "mice"}
