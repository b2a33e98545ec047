"""Checking, before any work, that each ``--meta`` field is in the corpus at all (a misspelled name is an error).

A scan checks its fields file by file, and a large JSON-lines file is scanned in byte ranges
(:mod:`wsd.corpus.shards`) where a record without a field only counts as missing. A misspelled ``--meta
yeer`` on such a file was therefore only a warning after the whole corpus had been embedded.
:func:`check_meta_fields` reads a little of every corpus file first and raises one :class:`~wsd.errors.InputError`
naming the field, the files and the fields they have, before an output folder is claimed.

What it reads, per file (bounded, so it stays cheap on a corpus of many gigabytes):

- a CSV/TSV file: its header row; a Parquet file: its schema (a column asked for and absent there is the
  same error the scan gives, only earlier); a plain-text file with ``--meta``: the error it always was;
- a JSON-lines file: records from the start until every field has been seen, at most
  :data:`PROBE_RECORDS` records in the first :data:`PROBE_PARSE_BYTES` bytes (one record when the names are
  right). A field not seen there is looked for as its quoted name (``"year"``) in the file's bytes, at most
  :data:`PROBE_SEARCH_BYTES` of them: absent from the whole file, the file does not have it. A field once
  found in one file is not looked for in the next ones, and all files together are searched for at most
  :data:`PROBE_TOTAL_BYTES` bytes (later files are then not searched: they cannot rule a field out).

A field is an error only when every file is known not to have it. When the bounded reading cannot tell (a
file larger than the bound, or the quoted name found where no record read has it as a field), the scan's
own checks decide as before: a field present in some records and missing in others is a warning with counts.

>>> check_meta_fields("corpus.jsonl", MetaSpec.build(["yeer"]))  # doctest: +SKIP
Traceback (most recent call last):
...
wsd.errors.InputError: --meta field 'yeer' is in none of the corpus files: corpus.jsonl has the fields id, text, ...
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wsd.corpus.documents import (
    JSONL_SUFFIXES,
    PARQUET_SUFFIXES,
    TABLE_SUFFIXES,
    TEXT_FIELD,
    TEXT_SUFFIXES,
    _has_suffix,
    check_text_file_meta,
    corpus_files,
    parquet_columns,
    read_table_header,
    table_header_columns,
)
from wsd.corpus.metadata import MetaSpec
from wsd.errors import InputError
from wsd.io.textfiles import UTF8_BOM, open_binary, raw_lines

#: Records of a JSON-lines file parsed at most, looking for the ``--meta`` fields.
PROBE_RECORDS = 1000
#: Bytes of a JSON-lines file parsed at most (a longer first line is not parsed).
PROBE_PARSE_BYTES = 16 * 2**20
#: Bytes of a JSON-lines file searched at most for the quoted name of a field not seen in the records parsed.
PROBE_SEARCH_BYTES = 2**30
#: Bytes searched at most over all the files of a corpus.
PROBE_TOTAL_BYTES = 8 * 2**30
_SEARCH_BLOCK = 4 * 2**20
_SHOWN_FIELDS = 12


@dataclass
class _FileFields:
    """What the bounded reading learnt of one JSON-lines file."""

    label: str
    records: int = 0
    keys: dict[str, None] = field(default_factory=dict)  # the fields seen, in order of first appearance
    maybe: set[str] = field(default_factory=set)  # fields the bounded reading cannot rule out


def check_meta_fields(
    corpus: str | os.PathLike[str],
    meta: MetaSpec | None,
    text_field: str = TEXT_FIELD,
    exclude: Iterable[str | os.PathLike[str]] = (),
) -> None:
    """An :class:`InputError` when a ``--meta`` field is in none of the corpus files (read boundedly, see above).

    Parameters
    ----------
    corpus : str or os.PathLike
        The corpus file or folder.
    meta : MetaSpec or None
        The metadata kept (nothing is read when it has no fields).
    text_field : str
        The field or column holding the text.
    exclude : iterable of str or os.PathLike
        Files or folders left out of the corpus (as for :func:`wsd.corpus.documents.corpus_files`).

    Returns
    -------
    None

    Raises
    ------
    InputError
        For a field that no file has (naming it, the files and the fields they have); as the scan would,
        for a column absent from a CSV/TSV header or Parquet schema, ``--meta`` on a plain-text file, and a
        corpus that cannot be read.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "c.jsonl"
    >>> _ = path.write_text('{"text": "a mouse", "year": 1850}\\n')
    >>> check_meta_fields(path, MetaSpec.build(["year"]))
    >>> check_meta_fields(path, MetaSpec.build(["yeer"]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: --meta field 'yeer' is in none of the corpus files: c.jsonl has the fields text, year ...
    """
    fields = meta.fields if meta else ()
    if not fields:
        return
    root = Path(corpus)
    files = corpus_files(root, exclude)
    found: set[str] = set()
    probed: list[_FileFields] = []
    budget = [PROBE_TOTAL_BYTES]  # bytes left to search, over all files
    for file in files:
        label = file.name if root.is_file() else file.relative_to(root).as_posix()
        if _has_suffix(file, TEXT_SUFFIXES):
            check_text_file_meta(file, meta)
        elif _has_suffix(file, JSONL_SUFFIXES):
            seen = _probe_jsonl(file, label, [name for name in fields if name not in found], budget)
            found |= set(fields) & (set(seen.keys) | seen.maybe)
            probed.append(seen)
        elif _has_suffix(file, TABLE_SUFFIXES):
            _table_header_check(file, text_field, fields)
            found |= set(fields)
        elif _has_suffix(file, PARQUET_SUFFIXES):
            _parquet_schema_check(file, text_field, fields)
            found |= set(fields)
    absent = [name for name in fields if name not in found]
    if absent and any(seen.records for seen in probed):
        raise InputError(_absent_message(absent, probed))


def _absent_message(absent: Sequence[str], probed: Sequence[_FileFields]) -> str:
    names = ", ".join(map(repr, absent))
    which = "field" if len(absent) == 1 else "fields"
    shown = [seen for seen in probed if seen.records][:3]
    described = "; ".join(
        f"{seen.label} has the fields {_listed(seen.keys)} ({seen.records} record{'s' * (seen.records != 1)} read)"
        for seen in shown
    )
    more = f"; and {len(probed) - len(shown)} more file(s)" if len(probed) > len(shown) else ""
    return f"--meta {which} {names} is in none of the corpus files: {described}{more}; check its spelling"


def _listed(keys: Iterable[str]) -> str:
    names = list(keys)
    shown = ", ".join(names[:_SHOWN_FIELDS])
    return shown + (f", ... ({len(names)} in all)" if len(names) > _SHOWN_FIELDS else "") if names else "(none)"


def _probe_jsonl(file: Path, label: str, fields: Sequence[str], budget: list[int]) -> _FileFields:
    """Parse records from the start until all ``fields`` are seen (bounded); search the bytes for the others."""
    seen = _FileFields(label)
    if not fields:
        return seen
    wanted = set(fields)
    with open_binary(file) as handle:
        try:
            for raw, _ in raw_lines(handle, limit=PROBE_PARSE_BYTES, lone_cr=False, piece_bytes=None):
                try:
                    record = json.loads(raw.removeprefix(UTF8_BOM))
                except ValueError:  # a bad line (or the first line cut by the bound): the scan names it
                    continue
                if not isinstance(record, dict):
                    continue
                seen.records += 1
                seen.keys.update(dict.fromkeys(record))
                if wanted <= seen.keys.keys() or seen.records >= PROBE_RECORDS:
                    break
        except (OSError, EOFError, ValueError):
            return seen  # the scan reports a file it cannot read
    missing = [name for name in fields if name not in seen.keys]
    if missing:
        seen.maybe = _quoted_names_in(file, missing, budget)
    return seen


def _quoted_names_in(file: Path, names: Sequence[str], budget: list[int]) -> set[str]:
    """The ``names`` whose quoted form occurs in the first :data:`PROBE_SEARCH_BYTES` bytes of ``file`` (at most
    ``budget[0]``, which is reduced by the bytes searched), and all of them when the file goes on beyond that
    (the search cannot rule them out)."""
    needles = {
        name: {json.dumps(name).encode(), json.dumps(name, ensure_ascii=False).encode("utf-8")} for name in names
    }
    longest = max(len(needle) for group in needles.values() for needle in group)
    found: set[str] = set()
    tail = b""
    searched = 0
    with open_binary(file) as handle:
        try:
            while len(found) < len(names):
                if searched >= min(PROBE_SEARCH_BYTES, budget[0]):
                    return set(names)  # not searched to the end
                block = handle.read(_SEARCH_BLOCK)
                if not block:
                    break
                searched += len(block)
                budget[0] -= len(block)
                window = tail + block
                for name, group in needles.items():
                    if name not in found and any(needle in window for needle in group):
                        found.add(name)
                tail = window[-(longest - 1) :] if longest > 1 else b""
        except (OSError, EOFError, ValueError):
            return set(names)  # the scan reports a file it cannot read
    return found


def _table_header_check(file: Path, text_field: str, fields: Sequence[str]) -> None:
    """The scan's own header checks (the text column, the ``--meta`` columns), reading the header only."""
    header = read_table_header(file)
    if header:
        table_header_columns(file, header, text_field, fields)


def _parquet_schema_check(file: Path, text_field: str, fields: Sequence[str]) -> None:
    """The scan's own schema checks (the text column, the ``--meta`` columns), reading the schema only."""
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(file)
    except Exception as exc:  # pyarrow raises several types for corrupt files
        raise InputError(f"cannot read Parquet corpus file {file}: {exc}") from exc
    parquet_columns(schema, file, text_field, fields)
