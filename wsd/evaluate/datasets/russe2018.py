"""Reader for RUSSE 2018 (Russian word-sense induction): TSV contexts whose target positions are re-located.

Layout (under ``russe2018-wsi``): ``data/main/{wiki-wiki,bts-rnc,active-dict}/{train,test}.csv`` and
``data/additional/{active-rnc,active-rutenten,bts-rutenten}/train.csv``; tab-separated UTF-8 with the header
``context_id word gold_sense_id predict_sense_id positions context`` and CSV quoting (a field that starts
with ``"`` is quoted, inner quotes doubled; reading it unquoted shifts every offset after a quote).

``positions`` are character spans ``a-b`` (several comma-separated, in no particular order; end exclusive in
``main``, end inclusive in ``additional``), and some do not point at the word or are empty. Each row's
target is therefore re-located by word form (:func:`wsd.corpus.forms.find_lemma`, method
``lemma+stem``: words whose ``simplemma`` lemma is the target — ``сучьев`` → ``сук`` — or, when no word of
the context has that lemma, words that start with the target's stem and add at most three letters —
``банка`` for the target ``банка``, which simplemma reads as a form of ``банк``; see
:func:`~wsd.corpus.forms.match_lemma`). Measured on all nine files (23361 rows), this finds the word in more
rows than the lemma or the stem rule alone (23251 vs 22960 and 22985) and agrees with more of the given
positions that are whole words (26168 vs 25902 and 25976 of 26336), while in ``wiki-wiki`` (whose
positions list every occurrence) it adds as few unlisted matches as the lemma rule (150; stem: 494).
For each row:

1. **given** — a given span is a found form, or is itself a form of the target (words glued together in
   the source, ``обменаДисциплина``); the earliest such span in the text is taken;
2. **repaired** — positions are given but none is a form: the found form nearest to a given span is taken;
3. **located** — no positions: the first found form is taken;
4. **given (unverified)** — no form found, but a given span covers exactly one whole word (suppletive or
   rare forms the matcher misses, ``кур`` for ``курица``): it is taken as given;
5. **not found** — the row is left out (the context does not contain the word, e.g. an empty position).

``id`` = ``doc_id`` = ``<subset>/<split>/<context_id>`` (``wiki-wiki/train/17``), ``target`` = the word,
``sense`` = ``gold_sense_id`` (``""`` for test rows; the column is absent when nothing loaded has a label).
``stats``: ``rows``, ``loaded``, ``positions_given``, ``positions_repaired``, ``positions_located``,
``positions_unverified``, ``not_found``, ``several_positions``, ``invalid_positions`` (rows with a span
that is empty, outside the context or not ``a-b``); a warning summarises them. ``subsets``: one per file
(``wiki-wiki/train``) and per sub-dataset (``wiki-wiki``). Loading several sub-datasets at once puts the
same word from different sense inventories under one target (a warning names them); evaluate such words
per subset.
"""

from __future__ import annotations

import csv
import re
import warnings
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from wsd.corpus.forms import COMBINING_MARKS, WORD_PATTERN, find_lemma, match_lemma
from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets import DatasetBundle, _build_table, _dataset_root
from wsd.io.textfiles import check_file, iter_lines

FOLDER = "russe2018-wsi"
DATA = Path("data")
MAIN = ("wiki-wiki", "bts-rnc", "active-dict")
ADDITIONAL = ("active-rnc", "active-rutenten", "bts-rutenten")
SPLITS = ("train", "test")
#: Group names accepted in ``splits``.
GROUPS: dict[str, tuple[str, ...]] = {
    "main": MAIN,
    "additional": ADDITIONAL,
    "all": MAIN + ADDITIONAL,
    "test": tuple(f"{name}/test" for name in MAIN),
}
REQUIRED_FIELDS = ("context_id", "word", "context")
_WORD_CHAR = re.compile(rf"[^\W_]|[{COMBINING_MARKS}]")
_SPAN = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")
#: The ``stats`` keys, in order.
STATS = (
    "rows",
    "loaded",
    "positions_given",
    "positions_repaired",
    "positions_located",
    "positions_unverified",
    "not_found",
    "several_positions",
    "invalid_positions",
)


def _resolve_splits(splits: str | Sequence[str]) -> list[tuple[str, str, Path]]:
    """``splits`` → [(subset, split, relative path)], in order, without repeats."""
    names = [splits] if isinstance(splits, str) else list(splits)
    resolved: list[tuple[str, str, Path]] = []
    for name in names:
        for item in GROUPS.get(name, (name,)):
            subset, _, split = item.partition("/")
            split = split or "train"
            if subset in MAIN and split in SPLITS:
                relative = DATA / "main" / subset / f"{split}.csv"
            elif subset in ADDITIONAL and split == "train":
                relative = DATA / "additional" / subset / "train.csv"
            else:
                known = [*GROUPS, *MAIN, *(f"{m}/test" for m in MAIN), *ADDITIONAL]
                raise ConfigError(f"RUSSE 2018 has no split {item!r}; choose from {', '.join(known)}")
            if (subset, split, relative) not in resolved:
                resolved.append((subset, split, relative))
    if not resolved:
        raise ConfigError("RUSSE 2018: no splits chosen")
    return resolved


def _parse_positions(value: str, end_inclusive: bool, length: int) -> tuple[list[tuple[int, int]], bool]:
    """Spans inside the text (end exclusive) and whether some part could not be parsed."""
    spans, bad = [], False
    for part in value.split(","):
        if not part.strip():
            continue
        match = _SPAN.match(part)
        if not match:
            bad = True
            continue
        start, end = int(match[1]), int(match[2]) + end_inclusive
        if 0 <= start < end <= length:
            spans.append((start, end))
        else:
            bad = True
    return spans, bad


def _is_word_char(text: str, index: int) -> bool:
    """Whether ``text[index]`` exists and can be part of a word (letter, digit or combining mark)."""
    return 0 <= index < len(text) and _WORD_CHAR.match(text[index]) is not None


def _is_form(text: str, span: tuple[int, int], word: str) -> bool:
    """Whether ``text[span]`` is one word ending at a word boundary and a form of ``word``.

    The start may be glued to a preceding word (``обменаДисциплина``); a span that cuts a word short
    (``банк|а``) is not a form.
    """
    fragment = text[span[0] : span[1]]
    return (
        WORD_PATTERN.fullmatch(fragment) is not None
        and not _is_word_char(text, span[1])
        and match_lemma([fragment], word, lang="ru")[0]
    )


def _whole_word(text: str, span: tuple[int, int]) -> bool:
    """Whether ``text[span]`` is exactly one word of ``text``."""
    return (
        WORD_PATTERN.fullmatch(text[span[0] : span[1]]) is not None
        and not _is_word_char(text, span[0] - 1)
        and not _is_word_char(text, span[1])
    )


def locate(text: str, word: str, given: list[tuple[int, int]]) -> tuple[tuple[int, int] | None, str]:
    """The target's span in one context and how it was decided (see the module docstring).

    Parameters
    ----------
    text : str
        The context.
    word : str
        The target word (a Russian lemma).
    given : list of (start, end)
        The spans the file gives for it (end exclusive; may be empty or wrong).

    Returns
    -------
    span : (start, end) or None
        The target's span, or None when no form of ``word`` is found and no given span is a whole word.
    status : str
        ``given`` (a given span is a form of the word), ``repaired`` (the form nearest a given span),
        ``located`` (no usable position: the first form found), ``unverified`` (a given whole word that
        is not recognised as a form) or ``not_found``.

    Examples
    --------
    >>> locate("Цепляясь за сучья деревьев", "сук", [(11, 16)])
    ((12, 17), 'repaired')
    """
    found = find_lemma(text, word, lang="ru", method="lemma+stem")
    found_set = set(found)
    confirmed = sorted(span for span in given if span in found_set or _is_form(text, span, word))
    if confirmed:
        return confirmed[0], "given"
    if found and given:
        return min(found, key=lambda f: (min(abs(f[0] - g[0]) for g in given), f[0])), "repaired"
    if found:
        return found[0], "located"
    whole = sorted(span for span in given if _whole_word(text, span))
    if whole:
        return whole[0], "unverified"
    return None, "not_found"


def read_russe_csv(
    path: str | Path, subset: str, split: str = "train", *, end_inclusive: bool = False
) -> tuple[list[dict[str, object]], Counter[str]]:
    """Read one RUSSE-format TSV file into occurrence rows (with ``sense``) and counts.

    Parameters
    ----------
    path : str or Path
        The file (header ``context_id word gold_sense_id predict_sense_id positions context``; only
        ``context_id``, ``word`` and ``context`` are required).
    subset, split : str
        Used in the occurrence ids ``<subset>/<split>/<context_id>``.
    end_inclusive : bool
        Whether the ``positions`` ends are inclusive (the ``additional`` files).

    Returns
    -------
    rows : list of dict
        One occurrence row per context whose target was found (``id``, ``target``, ``form``, ``text``,
        ``start``, ``end``, ``sense``).
    stats : collections.Counter
        ``rows``, ``invalid_positions``, ``several_positions``, ``positions_<status>`` and ``not_found``.

    Raises
    ------
    InputError
        When the file is missing, its header lacks a required field, or a line has the wrong number of
        fields (naming the file and line).
    """
    path = check_file(path, "RUSSE file")  # missing, a folder, unreadable: one line
    rows: list[dict[str, object]] = []
    stats: Counter[str] = Counter()
    lines = (line for _, line in iter_lines(path, "RUSSE file", universal_newlines=True, keepends=True))
    reader = csv.reader(lines, delimiter="\t")
    header = next(reader, [])
    missing = [name for name in REQUIRED_FIELDS if name not in header]
    if missing:
        raise InputError(f"{path}:1: header lacks {', '.join(missing)} (got {' '.join(header)!r})")
    column = {name: header.index(name) for name in header}
    line = reader.line_num + 1
    for record in reader:
        if len(record) != len(header):
            raise InputError(f"{path}:{line}: {len(record)} fields, the header has {len(header)}")
        fields = {name: record[i] for name, i in column.items()}
        text, word = fields["context"], fields["word"].strip()
        stats["rows"] += 1
        given, bad = _parse_positions(fields.get("positions", ""), end_inclusive, len(text))
        stats["invalid_positions"] += bad
        stats["several_positions"] += len(given) > 1
        span, status = locate(text, word, given)
        stats[f"positions_{status}" if status != "not_found" else "not_found"] += 1
        if span is not None:
            rows.append(
                {
                    "id": f"{subset}/{split}/{fields['context_id'].strip()}",
                    "target": word,
                    "form": text[span[0] : span[1]],
                    "text": text,
                    "start": span[0],
                    "end": span[1],
                    "sense": fields.get("gold_sense_id", "").strip(),
                }
            )
        line = reader.line_num + 1
    return rows, stats


def load(path: str | Path, splits: str | Sequence[str] = "main") -> DatasetBundle:
    """Load RUSSE 2018 contexts with re-located targets and (for train/additional files) gold senses.

    Parameters
    ----------
    path : str or Path
        The ``russe2018-wsi`` folder (or the folder that holds it); or one RUSSE-format ``.csv`` file (end
        exclusive positions; its name without suffix becomes the subset).
    splits : str or sequence of str
        What to load: ``"wiki-wiki"``, ``"bts-rnc"``, ``"active-dict"`` (their ``train.csv``; add ``/test``
        for the unlabelled test sets), ``"active-rnc"``, ``"active-rutenten"``, ``"bts-rutenten"``
        (additional, train only), or the groups ``"main"`` (the three main train sets, default),
        ``"additional"``, ``"all"`` (main + additional train sets), ``"test"`` (the three main test sets).

    Returns
    -------
    DatasetBundle
        ``name="russe2018"``; ``gold`` = the labelled files read.

    Raises
    ------
    ConfigError
        For an unknown split or group.
    InputError
        When the folder or a file is missing or malformed.

    Examples
    --------
    >>> bundle = load("../shared/datasets", splits="wiki-wiki")     # doctest: +SKIP
    >>> bundle.stats["rows"], bundle.subsets.keys()                 # doctest: +SKIP
    (439, dict_keys(['wiki-wiki/train', 'wiki-wiki']))
    """
    path = Path(path).expanduser()
    if path.is_file():
        files = [(path.stem, "train", path, False)]
    else:
        chosen = _resolve_splits(splits)
        root = _dataset_root(path, FOLDER, str(DATA / "main"))
        files = [(s, split, root / rel, rel.parts[1] == "additional") for s, split, rel in chosen]
    rows: list[dict[str, object]] = []
    stats: Counter[str] = Counter()
    subsets: dict[str, set[str]] = {}
    words: dict[str, set[str]] = {}
    labelled_files = []
    for subset, split, file, end_inclusive in files:
        file_rows, file_stats = read_russe_csv(file, subset, split, end_inclusive=end_inclusive)
        rows += file_rows
        stats += file_stats
        ids = {str(row["id"]) for row in file_rows}
        subsets[f"{subset}/{split}"] = ids
        subsets.setdefault(subset, set()).update(ids)
        words.setdefault(subset, set()).update(str(row["target"]) for row in file_rows)
        if any(row["sense"] for row in file_rows):
            labelled_files.append(file)
    table = _build_table(rows, where=f"RUSSE 2018 ({path})")
    stats["loaded"] = len(table)
    summary = {name: int(stats[name]) for name in STATS}
    names = ", ".join(f"{s}/{sp}" for s, sp, _, _ in files)
    warnings.warn(
        f"RUSSE 2018 ({names}): {summary['rows']} rows; target position taken as given in "
        f"{summary['positions_given']}, repaired in {summary['positions_repaired']}, located (no position) in "
        f"{summary['positions_located']}, taken unverified in {summary['positions_unverified']}, "
        f"not found (row left out) in {summary['not_found']}",
        stacklevel=2,
    )
    shared = sorted({w for a in words for b in words if a < b for w in words[a] & words[b]})
    if shared:
        warnings.warn(
            f"RUSSE 2018: {len(shared)} word(s) occur in several loaded sub-datasets with their own sense "
            f"inventories ({', '.join(shared[:5])}{', ...' if len(shared) > 5 else ''}); evaluate per subset",
            stacklevel=2,
        )
    return DatasetBundle(
        "russe2018",
        table,
        gold=tuple(labelled_files),
        subsets={name: frozenset(ids) for name, ids in subsets.items()},
        stats=summary,
    )
