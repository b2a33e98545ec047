"""Training pairs from Word-in-Context files (``wic:PATH``): WiC, XL-WiC, MCL-WiC and AM2iCo, binary labels.

``PATH`` is one data file, whose layout decides the format, or a folder (below):

* **WiC** (Pilehvar & Camacho-Collados 2019): ``train.data.txt``, TAB-separated, no header, five fields
  ``target, PoS, i-j, sentence1, sentence2``, where ``i`` and ``j`` are **token indices** (0-based) of the
  target in the whitespace-tokenised sentences; gold labels ``T``/``F`` one per line in the file beside it
  whose name has ``gold`` for the last ``data`` (``train.gold.txt``). The target's span is the token's span.
* **XL-WiC** (Raganato et al. 2020): nine fields ``target, PoS, start1, end1, start2, end2, sentence1,
  sentence2, label`` with character offsets (end exclusive) and a ``1``/``0`` label; test files have the
  first eight fields and the labels in the ``gold`` file beside (``de_test_data.txt`` → ``de_test_gold.txt``).
* **MCL-WiC** (SemEval-2021 Task 2): a JSON list (``training.en-en.data``) of objects with ``id, lemma,
  sentence1, sentence2`` and either ``start1, end1, start2, end2`` or ``ranges1, ranges2`` (``"a-b"``,
  several comma-separated for a split target: the first start to the last end); gold in the JSON list
  beside it (``training.en-en.gold``) of ``{"id", "tag": "T"|"F"}``.
* **AM2iCo** (Liu et al. 2021), told by its header ``context1, context2, label`` (TAB-separated, labels
  ``T``/``F`` inline): each context marks its target as ``<word>…</word>``; the tags are removed and the
  target's span is the tagged word's span (spaces inside the tags left out) in the text without them.

**Cross-lingual pairs** (MCL-WiC ``test.en-ru`` etc., AM2iCo) put two languages and two target words in one
pair, while a pair set keys a pair and both its uses by one lemma. The key is the **English** lemma: MCL-WiC's
``lemma`` field (which its cross-lingual files give in English), and in AM2iCo, which has no lemma field, the
English context's (``context2``'s) tagged word, lower-cased and normalised (:func:`~wsd.tune.pairs.
normalize_lemma`; a surface form such as ``cardinals``, not a dictionary lemma). Each use keeps its own text and
span, so the other language's word is the other use's ``text[start:end]``. ``--exclude`` and
``--exclude-lemmas`` match that English key (:func:`lemmas`), not the other language's word.

**A folder** reads every data file in it, recursively (:func:`folder_files`): a file with ``data`` in its name
and its gold file beside it, or an AM2iCo TSV. Each file is its own source, named ``NAME/RELATIVE_PATH``
(``wic:../shared/datasets/mcl-wic/test/crosslingual/test.en-ru.data``), so counts stay per file; data files
whose gold file is missing are skipped with one warning that counts them; a folder without one labelled data
file is an error. (An XL-WiC training file, labels inline and no ``data`` in its name, is read when named, not
from a folder.) :func:`language` tells a file's language(s) from its name, for the model card.

Gold ``T``/``True``/``1`` is a "same sense" pair (label 1), ``F``/``False``/``0`` a "different senses" pair
(label 0). Uses that recur with the same lemma, text and span are one use (so a training batch encodes
them once). A pair of a use with itself, and a pair that repeats an earlier one (the same two uses, in either
order, and the same label) are skipped, with one warning that counts them (the official files hold a few: WiC
train three self-pairs and one pair repeated with its sentences swapped, MCL-WiC ``test.en-ru`` one repeat).
Strict: a missing data or gold file, a gold file with another number of lines (or ids), an unknown label, a
token index or offset that is not ASCII digits, a token index past the sentence's end or a span outside it, an
MCL-WiC id given twice (in the data file; in the gold file with another tag), a lemma or sentence that is not a
string (``null``, a number), a pair repeated with another label, an AM2iCo context without exactly one
``<word>…</word>``, an empty file is an :class:`InputError` naming the file and line (or item).

``stats`` (per file): ``pairs``, ``same``, ``different``, ``uses``, ``self_pairs_skipped``, ``repeats_skipped``."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from wsd.errors import InputError
from wsd.io.textfiles import check_file, iter_lines, read_text
from wsd.tune.pairs import BINARY, PairSet, concat, normalize_lemma, use_id

GOLD_VALUES: dict[str, float] = {"t": 1.0, "true": 1.0, "1": 1.0, "f": 0.0, "false": 0.0, "0": 0.0}
WIC_FIELDS, XLWIC_FIELDS = 5, 9
_TOKEN = re.compile(r"\S+")
#: An index or offset: ASCII digits only (``str.isdigit`` and ``\d`` take ``²``, ``٣``, ``１`` too).
_NUMBER = re.compile(r"[0-9]+")
_RANGE = re.compile(r"\s*([0-9]+)\s*-\s*([0-9]+)\s*")
#: AM2iCo's header, and the tags around its targets.
AM2ICO_HEADER: tuple[str, ...] = ("context1", "context2", "label")
WORD_OPEN, WORD_CLOSE = "<word>", "</word>"
_WORD = re.compile(r"<word>(.*?)</word>", re.DOTALL)
#: The counts of pairs skipped as read (``stats``).
SKIPPED: tuple[str, ...] = ("self_pairs_skipped", "repeats_skipped")
_LANGUAGE = re.compile(r"[a-z]{2,3}")
_LANGUAGE_PAIR = re.compile(r"\.([a-z]{2,3})-([a-z]{2,3})\.(?:data|gold)$")
_XLWIC_NAME = re.compile(r"^([a-z]{2,3})_")


def gold_path(data: Path) -> Path:
    """The gold file beside a data file: the last ``data`` in its name becomes ``gold``.

    Parameters
    ----------
    data : Path
        ``train.data.txt``, ``de_test_data.txt``, ``training.en-en.data``.

    Returns
    -------
    Path
        In the folder of ``data`` (it need not exist).

    Raises
    ------
    InputError
        When the name holds no ``data``.

    Examples
    --------
    >>> gold_path(Path("wic/train.data.txt")).as_posix()
    'wic/train.gold.txt'
    """
    head, found, tail = data.name.rpartition("data")
    if not found:
        raise InputError(f"{data}: cannot tell its gold file (the name has no 'data' to read as 'gold')")
    return data.with_name(f"{head}gold{tail}")


def _label(value: str, where: str) -> float:
    label = GOLD_VALUES.get(value.strip().lower())
    if label is None:
        raise InputError(f"{where}: gold label {value.strip()!r} is not T/F (or 1/0)")
    return label


def _gold_lines(file: Path, expected: int) -> list[float]:
    check_file(file, "WiC gold file")
    labels = [_label(line, f"{file}:{n}") for n, line in iter_lines(file, "WiC gold file") if line.strip()]
    if len(labels) != expected:
        raise InputError(f"{file}: {len(labels)} gold labels for {expected} data lines")
    return labels


def _token_span(sentence: str, index: str, where: str) -> tuple[int, int]:
    if not _NUMBER.fullmatch(index.strip()):
        raise InputError(f"{where}: token index {index!r} is not a number (ASCII digits 0-9)")
    tokens = [m.span() for m in _TOKEN.finditer(sentence)]
    position = int(index.strip())
    if position >= len(tokens):
        raise InputError(f"{where}: token index {position} is past the sentence's {len(tokens)} tokens")
    return tokens[position]


def _char_span(sentence: str, start: object, end: object, where: str) -> tuple[int, int]:
    texts = str(start).strip(), str(end).strip()
    if isinstance(start, bool) or isinstance(end, bool) or not all(_NUMBER.fullmatch(text) for text in texts):
        raise InputError(f"{where}: target offsets {start!r}, {end!r} are not integers (ASCII digits 0-9)")
    span = int(texts[0]), int(texts[1])
    if not 0 <= span[0] < span[1] <= len(sentence):
        raise InputError(f"{where}: target span {span[0]}-{span[1]} lies outside the sentence of {len(sentence)}")
    return span


def _ranges_span(sentence: str, ranges: object, where: str) -> tuple[int, int]:
    parts = [_RANGE.fullmatch(part) for part in str(ranges).split(",")]
    if not parts or any(part is None for part in parts):
        raise InputError(f"{where}: ranges {ranges!r} are not 'start-end[,start-end...]'")
    return _char_span(sentence, parts[0][1], parts[-1][2], where)  # type: ignore[index]


class Record(NamedTuple):
    """One labelled WiC pair as read: its id (line number or MCL-WiC id), target, both sentences and spans."""

    ident: str
    target: str
    text1: str
    span1: tuple[int, int]
    text2: str
    span2: tuple[int, int]
    label: float


def _fields_error(file: Path, number: int, count: int) -> InputError:
    return InputError(
        f"{file}:{number}: {count} tab-separated fields; WiC has 5 (target, PoS, i-j, sentence1, sentence2), "
        f"XL-WiC 8 or 9 (target, PoS, start1, end1, start2, end2, sentence1, sentence2[, label])"
    )


def _read_tsv(file: Path, gold: Path | None) -> list[Record]:
    lines = [(n, line.removesuffix("\r").split("\t")) for n, line in iter_lines(file, "WiC data file") if line.strip()]
    if not lines:
        raise InputError(f"{file}: empty WiC data file")
    width = len(lines[0][1])
    if width not in (WIC_FIELDS, XLWIC_FIELDS - 1, XLWIC_FIELDS):
        raise _fields_error(file, lines[0][0], width)
    for number, fields in lines:
        if len(fields) != width:
            raise _fields_error(file, number, len(fields))
    if width == XLWIC_FIELDS:
        labels = [_label(fields[-1], f"{file}:{n}") for n, fields in lines]
    else:
        gold = gold or gold_path(file)
        if not gold.is_file():
            raise InputError(f"{file}: no gold file beside it ({gold.name} not found)")
        labels = _gold_lines(gold, len(lines))
    records = []
    for (number, fields), label in zip(lines, labels, strict=True):
        where = f"{file}:{number}"
        if width == WIC_FIELDS:
            first, second = fields[3], fields[4]
            one, dash, two = fields[2].partition("-")
            if not dash:
                raise InputError(f"{where}: token indices {fields[2]!r} are not 'i-j'")
            span1, span2 = _token_span(first, one, where), _token_span(second, two, where)
        else:
            first, second = fields[6], fields[7]
            span1 = _char_span(first, fields[2], fields[3], where)
            span2 = _char_span(second, fields[4], fields[5], where)
        records.append(Record(str(number), fields[0], first, span1, second, span2, label))
    return records


def _json_list(file: Path, what: str) -> list[dict]:
    try:
        items = json.loads(read_text(file, what))
    except json.JSONDecodeError as error:
        raise InputError(f"{file}:{error.lineno}: not valid JSON ({error.msg})") from None
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise InputError(f"{file}: expected a JSON list of objects ({what})")
    if not items:
        raise InputError(f"{file}: empty {what}")
    return items


def _shown(value: object) -> str:
    """A JSON value as the file spells it (``null``, ``5``, ``["a"]``), cut to 40 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _mclwic_id(item: dict, where: str) -> str:
    """The ``id`` of an MCL-WiC item: a string (a whole number is read as its digits)."""
    value = item["id"]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f"{where}: id {_shown(value)} is neither a string nor a whole number")
    return str(value)


def _item_where(file: Path, number: int, item: dict) -> str:
    """Where an MCL-WiC item is: the file, its number, and its id where it has a usable one."""
    ident = item.get("id")
    named = isinstance(ident, (str, int)) and not isinstance(ident, bool)
    return f"{file}: item {number}" + (f" (id {str(ident)!r})" if named else "")


def _mclwic_text(item: dict, key: str, where: str) -> str:
    """A text field of an MCL-WiC item (``lemma``, ``sentence1``, ``sentence2``): a string that is not blank."""
    value = item[key]
    if not isinstance(value, str):
        raise InputError(f"{where}: {key} {_shown(value)} is not a string")
    if not value.strip():
        raise InputError(f"{where}: {key} is empty")
    return value


def _read_mclwic(file: Path, gold: Path | None) -> list[Record]:
    items = _json_list(file, "MCL-WiC data file")
    gold = gold or gold_path(file)
    if not gold.is_file():
        raise InputError(f"{file}: no gold file beside it ({gold.name} not found)")
    tags: dict[str, tuple[float, int, str]] = {}
    for number, item in enumerate(_json_list(gold, "MCL-WiC gold file"), 1):
        if "id" not in item or "tag" not in item:
            raise InputError(f"{gold}: item {number} lacks 'id' or 'tag'")
        ident = _mclwic_id(item, f"{gold}: item {number}")
        tag = str(item["tag"])
        label = _label(tag, f"{gold}: item {number}")
        if ident in tags and tags[ident][0] != label:
            _, first_number, first_tag = tags[ident]
            raise InputError(
                f"{gold}: item {number}: id {ident!r} is given twice with different tags "
                f"({first_tag!r} at item {first_number}, {tag!r} here)"
            )
        tags.setdefault(ident, (label, number, tag))
    records = []
    first_items: dict[str, int] = {}
    for number, item in enumerate(items, 1):
        where = f"{file}: item {number}"
        missing = [key for key in ("id", "lemma", "sentence1", "sentence2") if key not in item]
        if missing:
            raise InputError(f"{where} lacks {', '.join(missing)}")
        ident = _mclwic_id(item, where)
        if ident in first_items:  # two pairs under one id would share the ids of their uses
            raise InputError(f"{where}: id {ident!r} is given twice (item {first_items[ident]})")
        first_items[ident] = number
        where = _item_where(file, number, item)
        lemma = _mclwic_text(item, "lemma", where)
        sentences = {side: _mclwic_text(item, f"sentence{side}", where) for side in ("1", "2")}
        spans = []
        for side in ("1", "2"):
            sentence = sentences[side]
            if f"ranges{side}" in item:
                spans.append(_ranges_span(sentence, item[f"ranges{side}"], where))
            elif f"start{side}" in item and f"end{side}" in item:
                spans.append(_char_span(sentence, item[f"start{side}"], item[f"end{side}"], where))
            else:
                raise InputError(f"{where} has neither ranges{side} nor start{side}/end{side}")
        if ident not in tags:
            raise InputError(f"{gold}: no gold tag for {ident!r} ({where})")
        records.append(Record(ident, lemma, sentences["1"], spans[0], sentences["2"], spans[1], tags[ident][0]))
    return records


def _is_json(file: Path) -> bool:
    return read_text(file, "WiC data file").lstrip()[:1] == "["


def _first_line(file: Path) -> str:
    """The first line of a file (undecodable bytes replaced: it is only compared with known headers)."""
    with file.open(encoding="utf-8", errors="replace") as handle:
        return handle.readline().removesuffix("\n").removesuffix("\r").removeprefix("\ufeff")


def is_am2ico(file: Path) -> bool:
    """Whether a file is an AM2iCo TSV: its first line is the header ``context1, context2, label``.

    Parameters
    ----------
    file : Path
        Any file.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_am2ico(Path(__file__))
    False
    """
    return tuple(field.strip() for field in _first_line(file).split("\t")) == AM2ICO_HEADER


def _tagged(context: str, where: str, side: str) -> tuple[str, tuple[int, int], str]:
    """An AM2iCo context without its ``<word>`` tags, the tagged word's span in it, and the word."""
    opened, closed = context.count(WORD_OPEN), context.count(WORD_CLOSE)
    match = _WORD.search(context)
    if opened != 1 or closed != 1 or match is None:
        raise InputError(
            f"{where}: {side} has {opened} {WORD_OPEN} and {closed} {WORD_CLOSE} tags; AM2iCo marks exactly one "
            f"target as {WORD_OPEN}word{WORD_CLOSE}"
        )
    inner = match[1]
    word = inner.strip()
    if not word:
        raise InputError(f"{where}: {side} tags an empty word ({WORD_OPEN}{WORD_CLOSE})")
    start = match.start() + len(inner) - len(inner.lstrip())
    text = context[: match.start()] + inner + context[match.end() :]
    return text, (start, start + len(word)), word


def _read_am2ico(file: Path) -> list[Record]:
    lines = [(n, line.removesuffix("\r")) for n, line in iter_lines(file, "AM2iCo file") if line.strip()]
    if len(lines) < 2:
        raise InputError(f"{file}: empty AM2iCo file (no pair under the header)")
    records = []
    for number, line in lines[1:]:
        where = f"{file}:{number}"
        fields = line.split("\t")
        if len(fields) != len(AM2ICO_HEADER):
            raise InputError(f"{where}: {len(fields)} tab-separated fields; AM2iCo has 3 (context1, context2, label)")
        label = _label(fields[2], where)
        text1, span1, _ = _tagged(fields[0], where, "context1")
        text2, span2, english = _tagged(fields[1], where, "context2")
        records.append(Record(str(number), english, text1, span1, text2, span2, label))
    return records


def _records(file: Path, gold: Path | None) -> list[Record]:
    """The records of one data file, in whichever format it is."""
    if _is_json(file):
        return _read_mclwic(file, gold)
    if is_am2ico(file):
        return _read_am2ico(file)
    return _read_tsv(file, gold)


def _load_file(file: Path, gold: Path | None, name: str) -> PairSet:
    """One data file as a pair set; self-pairs and exact repeats skipped and counted in its stats."""
    use_ids: dict[tuple[str, str, int, int], str] = {}
    uses, pairs = [], []
    seen: dict[tuple[str, str], tuple[float, str]] = {}
    skipped_self = skipped_repeats = 0
    for record in _records(file, gold):
        lemma = normalize_lemma(record.target)
        sides = []
        for side, (text, (start, end)) in enumerate(((record.text1, record.span1), (record.text2, record.span2)), 1):
            key = (lemma, text, start, end)
            if key not in use_ids:
                use_ids[key] = use_id(name, f"{record.ident}.{side}")
                uses.append((use_ids[key], lemma, text, start, end, name))
            sides.append(use_ids[key])
        if sides[0] == sides[1]:
            skipped_self += 1
            continue
        pair = (min(sides), max(sides))
        if pair in seen:
            label, first = seen[pair]
            if label != record.label:
                raise InputError(
                    f"{file}: pair {record.ident} repeats pair {first} (the same two uses) with another label"
                )
            skipped_repeats += 1
            continue
        seen[pair] = (record.label, record.ident)
        pairs.append((sides[0], sides[1], lemma, record.label, BINARY, name))
    paired = {use for pair in seen for use in pair}
    use_table = pd.DataFrame(
        [use for use in uses if use[0] in paired], columns=["use_id", "lemma", "text", "start", "end", "source"]
    )
    pair_table = pd.DataFrame(pairs, columns=["use_id_1", "use_id_2", "lemma", "label", "kind", "source"])
    same = int((pair_table["label"] == 1).sum())
    stats = {
        "pairs": len(pair_table),
        "same": same,
        "different": len(pair_table) - same,
        "uses": len(use_table),
        "self_pairs_skipped": skipped_self,
        "repeats_skipped": skipped_repeats,
    }
    return PairSet(use_table, pair_table, {name: stats})


def folder_files(folder: Path) -> tuple[list[Path], list[Path]]:
    """The data files of a folder (searched recursively): those with labels, and those whose gold file is missing.

    A file with labels is a data file (``data`` in its name, ``gold`` not) with its gold file beside it
    (:func:`gold_path`), or an AM2iCo TSV (:func:`is_am2ico`, labels inline). Other files (gold files,
    ``README.txt``, licences) are not data.

    Parameters
    ----------
    folder : Path
        The folder.

    Returns
    -------
    (list of Path, list of Path)
        Labelled data files and data files without gold, each sorted.

    Examples
    --------
    >>> folder_files(Path("no such folder"))
    ([], [])
    """
    labelled: list[Path] = []
    without_gold: list[Path] = []
    for file in sorted(path for path in folder.rglob("*") if path.is_file()):
        if "gold" in file.name:
            continue
        if "data" in file.name:
            (labelled if gold_path(file).is_file() else without_gold).append(file)
        elif file.suffix == ".tsv" and is_am2ico(file):
            labelled.append(file)
    return labelled, without_gold


def _load_folder(folder: Path, name: str) -> list[PairSet]:
    labelled, without_gold = folder_files(folder)
    if not labelled:
        raise InputError(
            f"{folder}: no WiC data file with its gold file in this folder "
            f"({len(without_gold)} data file(s) without gold)"
        )
    if without_gold:
        warnings.warn(
            f"{name}: skipped {len(without_gold)} data file(s) whose gold file is missing "
            f"(first: {without_gold[0].relative_to(folder).as_posix()})",
            stacklevel=3,
        )
    base = name.rstrip("/")
    return [_load_file(file, None, f"{base}/{file.relative_to(folder).as_posix()}") for file in labelled]


def load(path: str | Path, *, gold: str | Path | None = None, name: str | None = None) -> PairSet:
    """Read a WiC, XL-WiC, MCL-WiC or AM2iCo data file with its gold labels, or a folder of them, as binary pairs.

    Parameters
    ----------
    path : str or Path
        The data file (``train.data.txt``, ``de_train.txt``, ``training.en-en.data``, ``dev.tsv``), or a folder:
        every labelled data file in it (:func:`folder_files`), each its own source named ``NAME/RELATIVE_PATH``.
    gold : str or Path, optional
        The gold file, where it does not lie beside the data file under the usual name (a file only).
    name : str, optional
        The source name (default ``wic:<path>``).

    Returns
    -------
    PairSet
        Binary pairs: 1 same sense, 0 different senses. Self-pairs and exact repeats are skipped with one
        warning that counts them (``stats``: ``self_pairs_skipped``, ``repeats_skipped``).

    Raises
    ------
    InputError
        For a missing data or gold file, malformed lines, a repeated pair with another label, a folder without
        a labelled data file, a gold file given with a folder (see the module docstring).

    Examples
    --------
    >>> load("wic/train.data.txt").counts()     # doctest: +SKIP
    """
    location = Path(path)
    name = name or f"wic:{path}"
    if location.is_dir():
        if gold is not None:
            raise InputError(f"{location}: a gold file is given for a folder (each data file has its own beside it)")
        pairset = concat(_load_folder(location, name))
    else:
        file = check_file(location, "WiC data file")
        pairset = _load_file(file, Path(gold) if gold is not None else None, name)
    skipped = {key: sum(stats[key] for stats in pairset.stats.values()) for key in SKIPPED}
    if any(skipped.values()):
        warnings.warn(
            f"{name}: skipped {skipped['self_pairs_skipped']} pair(s) of a use with itself and "
            f"{skipped['repeats_skipped']} repeated pair(s) (the same two uses and label)",
            stacklevel=2,
        )
    return pairset


def language(path: str | Path) -> str | None:
    """The language(s) of a WiC-family data file, from its name (and, for AM2iCo, its folder).

    MCL-WiC ``*.xx-yy.data``: ``xx-yy`` (``xx`` when both are one language); XL-WiC ``xx_*``: ``xx``; WiC
    ``*.data.txt``: ``en``; AM2iCo ``xx/*.tsv``: ``en-xx``.

    Parameters
    ----------
    path : str or Path
        The data file (or a source name ``wic:PATH``).

    Returns
    -------
    str or None
        None when the name does not tell.

    Examples
    --------
    >>> [language(x) for x in ("test.en-ru.data", "dev.fr-fr.data", "train.data.txt", "am2ico/de/dev.tsv")]
    ['en-ru', 'fr', 'en', 'en-de']
    """
    file = Path(str(path).removeprefix("wic:"))
    pair = _LANGUAGE_PAIR.search(file.name)
    if pair:
        return pair[1] if pair[1] == pair[2] else f"{pair[1]}-{pair[2]}"
    if file.suffix == ".tsv":
        return f"en-{file.parent.name}" if _LANGUAGE.fullmatch(file.parent.name) else None
    xlwic = _XLWIC_NAME.match(file.name)
    if xlwic:
        return xlwic[1]
    return "en" if file.name.endswith(".data.txt") else None


def lemmas(path: str | Path) -> set[str]:
    """The normalised lemmas of a WiC-family data file, or of every data file of a folder (gold not needed).

    A pair's lemma: the data's target (MCL-WiC's ``lemma``, English in its cross-lingual files); in AM2iCo the
    English context's tagged word.

    Parameters
    ----------
    path : str or Path
        The data file, or a folder (its data files with or without gold: :func:`folder_files`).

    Returns
    -------
    set of str

    Raises
    ------
    InputError
        When the file is missing, empty or not in a WiC format, or the folder holds no data file.

    Examples
    --------
    >>> lemmas("wic/train.data.txt")       # doctest: +SKIP
    {'carry', 'go', ...}
    """
    location = Path(path)
    if location.is_dir():
        labelled, without_gold = folder_files(location)
        if not labelled and not without_gold:
            raise InputError(f"{location}: no WiC data file in this folder")
        return set().union(*(_file_lemmas(file) for file in labelled + without_gold))
    return _file_lemmas(check_file(location, "WiC data file"))


def _file_lemmas(file: Path) -> set[str]:
    if _is_json(file):
        items = _json_list(file, "MCL-WiC data file")
        missing = next((n for n, item in enumerate(items, 1) if "lemma" not in item), None)
        if missing is not None:
            raise InputError(f"{file}: item {missing} lacks lemma")
        return {
            normalize_lemma(_mclwic_text(item, "lemma", _item_where(file, n, item))) for n, item in enumerate(items, 1)
        }
    if is_am2ico(file):
        return {normalize_lemma(record.target) for record in _read_am2ico(file)}
    found = {normalize_lemma(line.split("\t")[0]) for _, line in iter_lines(file, "WiC data file") if line.strip()}
    if not found:
        raise InputError(f"{file}: empty WiC data file")
    return found
