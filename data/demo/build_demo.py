"""Build the bundled demo corpus (corpus.txt, corpus.jsonl, corpus.csv, labelled.tsv, forms.tsv) from sentences.tsv.

The source ``sentences.tsv`` has a header ``lang<TAB>sentence`` and one sentence per line; every
occurrence of a target word is marked as ``[[surface form|lemma.label]]``. Lines starting with ``#``
and blank lines are skipped. This script strips the markers and writes

* ``corpus.txt``   -- the plain sentences, one per line, in source order (UTF-8, ``\\n`` line ends);
* ``corpus.jsonl`` -- the same sentences in the same order as JSON lines ``{"text": ..., "year": ...}``: a
  made-up year per document for the corpus-analysis example (``wsd embed --meta year``). The years are a
  fixed rule, not history: a sentence with a sense that is younger than the rest (``mouse.device``,
  ``cell.phone``: :data:`MODERN_SENSES`) gets a year in 1985-2020, every other sentence one spread over
  1850-2020 (:func:`document_year`), so those two words gain a sense in the later slices and the others
  keep theirs;
* ``corpus.csv``   -- the same sentences in the same order as a CSV file with a header ``date,text``: a made-up
  ISO date per document for the decade-by-decade example (``wsd run --meta date --by date:year --bin-width 10``),
  again a fixed rule: a sentence with a younger sense gets a date in 2000-2019, every other sentence one spread
  over 1990-2019 (:func:`document_date`), three decades with enough uses of each English target;
* ``labelled.tsv`` -- ``id target text start end sense``, one row per marked occurrence, where
  ``id`` is ``demo.<line of corpus.txt>.<k>`` and ``start``/``end`` are Python ``str`` offsets;
* ``forms.tsv``    -- ``target<TAB>form1,form2,...``: the lower-cased surface forms that occur.

The built files are plain files in ``data/demo`` (no links, so ``cp -r data/demo mine`` copies a working corpus)
and the same bytes in the package data ``wsd/demo_data`` (what ``wsd demo`` reads from an installed wheel).
Run ``python data/demo/build_demo.py`` to rebuild both in place, ``--out DIR`` to build elsewhere and
``--counts`` to print the sense inventory as a Markdown table (as pasted into README.md).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from wsd.errors import InputError

HERE = Path(__file__).resolve().parent
#: The package-data copy of the built files (``wsd demo`` reads it; tests/test_demo_data.py checks it is the same).
PACKAGE_DATA = HERE.parent.parent / "wsd" / "demo_data"
SOURCE_NAME = "sentences.tsv"
SOURCE_HEADER = "lang\tsentence"
LANGUAGES = ("en", "ru")
CORPUS_NAME = "corpus.txt"
DATED_CORPUS_NAME = "corpus.jsonl"
#: Senses that the dated corpus gives only recent years (1985-2020).
MODERN_SENSES = ("mouse.device", "cell.phone")
YEAR_RANGE = (1850, 2020)
MODERN_FROM = 1985
DATED_CSV_NAME = "corpus.csv"
#: The years of ``corpus.csv``: every sentence in DATE_RANGE, the younger senses from DATE_MODERN_FROM.
DATE_RANGE = (1990, 2019)
DATE_MODERN_FROM = 2000
LABELLED_NAME = "labelled.tsv"
FORMS_NAME = "forms.tsv"
LABELLED_COLUMNS = ("id", "target", "text", "start", "end", "sense")
ID_PREFIX = "demo"
MARKER = re.compile(r"\[\[([^\[\]|]*)\|([^\[\]|]*)\]\]")
SENSE_LABEL = re.compile(r"^(\w+)\.(\w+)$")
FORBIDDEN_CHARACTERS = ('"', "\t", "\r", "[", "]", "|")


@dataclass(frozen=True)
class Occurrence:
    """One marked occurrence of a target inside a plain sentence.

    >>> Occurrence(target="bank", sense="bank.river", start=4, end=8).target
    'bank'
    """

    target: str
    sense: str
    start: int
    end: int


@dataclass(frozen=True)
class Sentence:
    """A source sentence with markers stripped, its language and its marked occurrences.

    >>> Sentence(lang="en", text="A bank.", occurrences=(), source_line=3).text
    'A bank.'
    """

    lang: str
    text: str
    occurrences: tuple[Occurrence, ...]
    source_line: int


def parse_annotated(annotated: str, where: str = "sentence") -> tuple[str, tuple[Occurrence, ...]]:
    """Strip the ``[[form|lemma.label]]`` markers from ``annotated``; return the text and its occurrences.

    Raises :class:`~wsd.errors.InputError` naming ``where`` for a malformed marker or sense label,
    a marker that does not cover a whole word, or a stray bracket, bar, tab or double quote.

    >>> text, occ = parse_annotated("The [[mice|mouse.animal]] ran.")
    >>> text, text[occ[0].start:occ[0].end], occ[0].target, occ[0].sense
    ('The mice ran.', 'mice', 'mouse', 'mouse.animal')
    """
    pieces: list[str] = []
    occurrences: list[Occurrence] = []
    length = 0
    position = 0
    for match in MARKER.finditer(annotated):
        before = annotated[position : match.start()]
        pieces.append(before)
        length += len(before)
        form, sense = match.group(1), match.group(2)
        label = SENSE_LABEL.match(sense)
        if not form.strip() or form != form.strip():
            raise InputError(f"{where}: marker {match.group(0)!r} has an empty or padded surface form")
        if label is None:
            raise InputError(f"{where}: sense {sense!r} in {match.group(0)!r} is not of the form lemma.label")
        occurrences.append(Occurrence(label.group(1), sense, length, length + len(form)))
        pieces.append(form)
        length += len(form)
        position = match.end()
    pieces.append(annotated[position:])
    text = "".join(pieces)
    bad = [c for c in FORBIDDEN_CHARACTERS if c in text]
    if bad:
        raise InputError(f"{where}: stray character {bad[0]!r} outside a well-formed [[form|sense]] marker")
    if text != text.strip() or not text:
        raise InputError(f"{where}: sentence is empty or has leading/trailing whitespace")
    if not unicodedata.is_normalized("NFC", text):
        raise InputError(f"{where}: sentence is not in Unicode NFC form")
    for occ in occurrences:
        left = text[occ.start - 1] if occ.start > 0 else " "
        right = text[occ.end] if occ.end < len(text) else " "
        if left.isalnum() or right.isalnum():
            raise InputError(f"{where}: marker around {text[occ.start : occ.end]!r} does not cover a whole word")
    return text, tuple(occurrences)


def read_source(path: Path) -> list[Sentence]:
    """Read the annotated ``sentences.tsv`` at ``path`` into :class:`Sentence` objects, in order.

    Raises :class:`~wsd.errors.InputError` with the file and line number for a bad header, a line
    that is not ``lang<TAB>sentence``, an unknown language or a malformed marker.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.tsv"
    >>> _ = p.write_text("lang\\tsentence\\nen\\tA [[bat|bat.animal]] flew out of the cave.\\n", "utf-8")
    >>> [o.sense for o in read_source(p)[0].occurrences]
    ['bat.animal']
    """
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: cannot read the annotated source ({error})") from error
    if not lines or lines[0] != SOURCE_HEADER:
        raise InputError(f"{path}:1: header must be {SOURCE_HEADER!r}")
    sentences: list[Sentence] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{path}:{number}"
        fields = line.split("\t")
        if len(fields) != 2:
            raise InputError(f"{where}: expected 2 tab-separated fields (lang, sentence), found {len(fields)}")
        lang, annotated = fields
        if lang not in LANGUAGES:
            raise InputError(f"{where}: language {lang!r} is not one of {', '.join(LANGUAGES)}")
        text, occurrences = parse_annotated(annotated, where)
        sentences.append(Sentence(lang, text, occurrences, number))
    if not sentences:
        raise InputError(f"{path}: no sentences")
    return sentences


def collect_forms(sentences: list[Sentence]) -> dict[str, list[str]]:
    """Map each target (in order of first appearance) to its lower-cased surface forms.

    The lemma comes first when it occurs itself; the other forms follow in sorted order.

    >>> s = Sentence("en", "Mice and a mouse.", (Occurrence("mouse", "mouse.animal", 0, 4),
    ...              Occurrence("mouse", "mouse.animal", 11, 16)), 2)
    >>> collect_forms([s])
    {'mouse': ['mouse', 'mice']}
    """
    found: dict[str, set[str]] = {}
    for sentence in sentences:
        for occ in sentence.occurrences:
            found.setdefault(occ.target, set()).add(sentence.text[occ.start : occ.end].lower())
    return {target: ([target] if target in forms else []) + sorted(forms - {target}) for target, forms in found.items()}


def check_all_marked(sentences: list[Sentence], forms: dict[str, list[str]], source: Path) -> None:
    """Raise :class:`~wsd.errors.InputError` if a known form of a target occurs without a marker.

    Every whole-word, case-insensitive occurrence of a form listed in ``forms`` must be marked, so
    that a corpus scanner looking for these forms finds exactly the labelled occurrences.
    """
    all_forms = sorted({form for group in forms.values() for form in group}, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, all_forms)) + r")(?!\w)", re.IGNORECASE)
    for sentence in sentences:
        marked = {(occ.start, occ.end) for occ in sentence.occurrences}
        for match in pattern.finditer(sentence.text):
            if match.span() not in marked:
                raise InputError(
                    f"{source}:{sentence.source_line}: {match.group(0)!r} is a target form but is not marked"
                )


def render_corpus(sentences: list[Sentence]) -> str:
    """The text of ``corpus.txt``: one plain sentence per line, each ending in ``\\n``."""
    return "".join(sentence.text + "\n" for sentence in sentences)


def document_year(line: int, sentence: Sentence) -> int:
    """The made-up year of the sentence on ``line`` (from 1) of the corpus: a fixed rule, see the module notes.

    >>> document_year(1, Sentence(lang="en", text="A mouse.", occurrences=(), source_line=2))
    1887
    """
    first, last = YEAR_RANGE
    if any(occ.sense in MODERN_SENSES for occ in sentence.occurrences):
        return MODERN_FROM + (line * 7) % (last - MODERN_FROM + 1)
    return first + (line * 37) % (last - first + 1)


def render_dated_corpus(sentences: list[Sentence]) -> str:
    """The text of ``corpus.jsonl``: one ``{"text": ..., "year": ...}`` object per sentence, in corpus order."""
    return "".join(
        json.dumps({"text": sentence.text, "year": document_year(line, sentence)}, ensure_ascii=False) + "\n"
        for line, sentence in enumerate(sentences, start=1)
    )


def document_date(line: int, sentence: Sentence) -> str:
    """The made-up ISO date of the sentence on ``line`` (from 1) in ``corpus.csv``: a fixed rule, see the module notes.

    >>> document_date(1, Sentence(lang="en", text="A mouse.", occurrences=(), source_line=2))
    '1997-02-12'
    """
    first, last = DATE_RANGE
    if any(occ.sense in MODERN_SENSES for occ in sentence.occurrences):
        first = DATE_MODERN_FROM
    year = first + (line * 37) % (last - first + 1)
    return f"{year:04d}-{1 + line % 12:02d}-{1 + (line * 11) % 28:02d}"


def render_dated_csv(sentences: list[Sentence]) -> str:
    """The text of ``corpus.csv``: a header ``date,text`` and one row per sentence, in corpus order."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["date", "text"])
    for line, sentence in enumerate(sentences, start=1):
        writer.writerow([document_date(line, sentence), sentence.text])
    return buffer.getvalue()


def render_labelled(sentences: list[Sentence]) -> str:
    """The text of ``labelled.tsv``: a header and one row per occurrence, ordered by line and offset."""
    rows = ["\t".join(LABELLED_COLUMNS)]
    for line, sentence in enumerate(sentences, start=1):
        ordered = sorted(sentence.occurrences, key=lambda occ: occ.start)
        for k, occ in enumerate(ordered, start=1):
            fields = (f"{ID_PREFIX}.{line}.{k}", occ.target, sentence.text, occ.start, occ.end, occ.sense)
            rows.append("\t".join(map(str, fields)))
    return "".join(row + "\n" for row in rows)


def render_forms(forms: dict[str, list[str]]) -> str:
    """The text of ``forms.tsv``: ``target<TAB>form1,form2,...`` per target, no header."""
    return "".join(f"{target}\t{','.join(group)}\n" for target, group in forms.items())


def sense_counts_markdown(sentences: list[Sentence]) -> str:
    """A Markdown table ``| target | sense | occurrences |`` with one row per sense, in source order."""
    counts = Counter(occ.sense for sentence in sentences for occ in sentence.occurrences)
    targets = {occ.sense: occ.target for sentence in sentences for occ in sentence.occurrences}
    lines = ["| target | sense | occurrences |", "|---|---|---|"]
    lines += [f"| {targets[sense]} | {sense} | {count} |" for sense, count in counts.items()]
    return "\n".join(lines) + "\n"


def build(source: Path = HERE / SOURCE_NAME, out_dir: Path = HERE) -> dict[str, Path]:
    """Build ``corpus.txt``, ``corpus.jsonl``, ``corpus.csv``, ``labelled.tsv`` and ``forms.tsv`` into ``out_dir``.

    Returns the written paths by file name. Output is deterministic: the same source gives
    byte-identical files.

    >>> import tempfile, pathlib
    >>> paths = build(out_dir=pathlib.Path(tempfile.mkdtemp()))
    >>> sorted(paths)
    ['corpus.csv', 'corpus.jsonl', 'corpus.txt', 'forms.tsv', 'labelled.tsv']
    """
    sentences = read_source(source)
    forms = collect_forms(sentences)
    check_all_marked(sentences, forms, source)
    out_dir.mkdir(parents=True, exist_ok=True)
    contents = {
        CORPUS_NAME: render_corpus(sentences),
        DATED_CORPUS_NAME: render_dated_corpus(sentences),
        DATED_CSV_NAME: render_dated_csv(sentences),
        LABELLED_NAME: render_labelled(sentences),
        FORMS_NAME: render_forms(forms),
    }
    paths = {}
    for name, text in contents.items():
        paths[name] = out_dir / name
        paths[name].write_bytes(text.encode("utf-8"))
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line: build the demo files (default: next to this script) or print the sense counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=HERE / SOURCE_NAME, help="annotated sentences.tsv")
    parser.add_argument(
        "--out", type=Path, default=None, help="output folder (default: data/demo and its copy wsd/demo_data)"
    )
    parser.add_argument("--counts", action="store_true", help="print the sense counts table and exit")
    args = parser.parse_args(argv)
    try:
        if args.counts:
            print(sense_counts_markdown(read_source(args.source)), end="")
            return 0
        paths = build(args.source, args.out or HERE)
        if args.out is None:
            paths |= {f"package {name}": path for name, path in build(args.source, PACKAGE_DATA).items()}
    except InputError as error:
        print(f"build_demo: error: {error}", file=sys.stderr)
        return 2
    for path in paths.values():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
