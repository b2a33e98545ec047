"""Reading corpus documents as a stream: text, gzipped text, JSON lines, CSV/TSV and Parquet.

A corpus is a file or a folder (searched recursively, files in sorted order). Documents are yielded one at a
time, so a corpus of any size is never held in memory:

- ``.txt`` / ``.txt.gz``: one document per line (empty lines skipped); id ``<relative path>:<line number>``;
- ``.jsonl`` / ``.jsonl.gz``: one JSON object per line with a ``text`` field (and an optional ``id``);
- ``.csv`` / ``.tsv`` (optionally ``.gz``): a header row with a ``text`` column (and an optional ``id``);
- ``.parquet``: a ``text`` column (and an optional ``id``), read one row group batch at a time.

Bytes that are not valid UTF-8 are replaced by U+FFFD; how many lines had them is reported in one warning
per file, so the user learns about it without losing the rest of the line.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import os
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from wsd.errors import InputError

TEXT_SUFFIXES = (".txt", ".txt.gz")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson")
TABLE_SUFFIXES = (".csv", ".tsv", ".csv.gz", ".tsv.gz")
PARQUET_SUFFIXES = (".parquet",)
CORPUS_SUFFIXES = TEXT_SUFFIXES + JSONL_SUFFIXES + TABLE_SUFFIXES + PARQUET_SUFFIXES
TEXT_FIELD = "text"
ID_FIELD = "id"


@dataclass(frozen=True)
class Document:
    """One document of a corpus: its id and its text.

    Parameters
    ----------
    doc_id : str
        The document's id: ``<relative path>:<line number>`` for text files, else the record's ``id`` (or
        ``<relative path>:<line or row number>`` when it has none).
    text : str
        The document's text.
    """

    doc_id: str
    text: str


def corpus_files(path: str | os.PathLike[str]) -> list[Path]:
    """The corpus files under ``path`` (itself if it is a file), in a stable sorted order.

    Parameters
    ----------
    path : str or os.PathLike
        A corpus file, or a folder searched recursively for files with a suffix of ``CORPUS_SUFFIXES``.

    Returns
    -------
    list of Path
        The corpus files, sorted.

    Raises
    ------
    InputError
        If the path does not exist, is a file of an unsupported type, holds no corpus file, or a file is
        not readable.

    Examples
    --------
    >>> corpus_files("data/demo/corpus.txt")  # doctest: +SKIP
    [PosixPath('data/demo/corpus.txt')]
    """
    root = Path(path)
    if not root.exists():
        raise InputError(f"corpus not found: {root}")
    if root.is_file():
        if not _has_suffix(root, CORPUS_SUFFIXES):
            raise InputError(f"{root}: unsupported corpus file type (use one of {', '.join(CORPUS_SUFFIXES)})")
        files = [root]
    else:
        files = sorted(p for p in root.rglob("*") if p.is_file() and _has_suffix(p, CORPUS_SUFFIXES))
        if not files:
            raise InputError(f"{root}: no corpus files found (looked for {', '.join(CORPUS_SUFFIXES)})")
    for file in files:
        if not os.access(file, os.R_OK):
            raise InputError(f"corpus file is not readable: {file}")
    return files


def corpus_fingerprint(path: str | os.PathLike[str], exclude: Iterable[str | os.PathLike[str]] = ()) -> str:
    """A short hash of the corpus files' names, sizes and modification times.

    It changes when a file is added, removed, or rewritten, which is what decides whether an earlier run's
    work can be reused.

    Parameters
    ----------
    path : str or os.PathLike
        A corpus file or folder (as for :func:`corpus_files`).
    exclude : iterable of str or os.PathLike
        Files or folders left out (a run's output folder inside the corpus folder).

    Returns
    -------
    str
        16 hexadecimal digits of a SHA-256 over each file's relative name, size and modification time.

    Raises
    ------
    InputError
        As :func:`corpus_files`.
    """
    root = Path(path)
    digest = hashlib.sha256()
    skipped = [Path(p).resolve() for p in exclude]
    for file in corpus_files(root):
        if any(file.resolve().is_relative_to(p) for p in skipped):
            continue
        stat = file.stat()
        rel = file.name if root.is_file() else file.relative_to(root).as_posix()
        digest.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def iter_documents(path: str | os.PathLike[str], text_field: str = TEXT_FIELD) -> Iterator[Document]:
    """Stream the documents of a corpus file or folder, in a stable order.

    Parameters
    ----------
    path : str or os.PathLike
        A corpus file or folder (as for :func:`corpus_files`).
    text_field : str
        The field (JSON lines) or column (CSV/TSV, Parquet) that holds the text.

    Yields
    ------
    Document
        One document at a time: files in sorted order, lines or rows in file order; empty lines and
        empty texts are skipped.

    Raises
    ------
    InputError
        As :func:`corpus_files`; and for a file that cannot be read, a JSON line that is not valid JSON or
        lacks ``text_field``, or a table without a ``text_field`` column.

    Examples
    --------
    >>> docs = iter_documents("data/demo/corpus.txt")  # doctest: +SKIP
    >>> next(docs).doc_id  # doctest: +SKIP
    'corpus.txt:1'
    """
    root = Path(path)
    for file in corpus_files(root):
        label = file.name if root.is_file() else file.relative_to(root).as_posix()
        if _has_suffix(file, TEXT_SUFFIXES):
            yield from _text_documents(file, label)
        elif _has_suffix(file, JSONL_SUFFIXES):
            yield from _jsonl_documents(file, label, text_field)
        elif _has_suffix(file, TABLE_SUFFIXES):
            yield from _table_documents(file, label, text_field)
        else:
            yield from _parquet_documents(file, label, text_field)


def _has_suffix(path: Path, suffixes: tuple[str, ...]) -> bool:
    name = path.name.lower()
    return any(name.endswith(s) for s in suffixes)


def _open_binary(file: Path) -> io.BufferedIOBase:
    if file.name.lower().endswith(".gz"):
        return gzip.open(file, "rb")  # type: ignore[return-value]
    return open(file, "rb")


class _Decoder:
    """Decodes lines as UTF-8, replacing bad bytes and counting the lines that had any."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.bad_lines = 0

    def __call__(self, raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            self.bad_lines += 1
            return raw.decode("utf-8", errors="replace")

    def report(self) -> None:
        if self.bad_lines:
            warnings.warn(
                f"{self.file}: {self.bad_lines} line(s) had bytes that are not UTF-8; they were replaced with U+FFFD",
                stacklevel=3,
            )


def _text_documents(file: Path, label: str) -> Iterator[Document]:
    decode = _Decoder(file)
    try:
        with _open_binary(file) as handle:
            for number, raw in enumerate(handle, start=1):
                text = decode(raw).rstrip("\r\n")
                if text.strip():
                    yield Document(f"{label}:{number}", text)
    except (OSError, EOFError) as exc:
        raise InputError(f"cannot read corpus file {file}: {exc}") from exc
    decode.report()


def _jsonl_documents(file: Path, label: str, text_field: str) -> Iterator[Document]:
    decode = _Decoder(file)
    with _open_binary(file) as handle:
        for number, raw in enumerate(handle, start=1):
            line = decode(raw).strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{file}, line {number}: not valid JSON ({exc.msg})") from exc
            if not isinstance(record, dict) or text_field not in record:
                raise InputError(f"{file}, line {number}: no {text_field!r} field")
            text = record[text_field]
            if text is None:
                continue
            doc_id = str(record[ID_FIELD]) if ID_FIELD in record else f"{label}:{number}"
            yield Document(doc_id, str(text))
    decode.report()


def _table_documents(file: Path, label: str, text_field: str) -> Iterator[Document]:
    delimiter = "\t" if ".tsv" in file.name.lower() else ","
    csv.field_size_limit(1 << 30)
    with _open_binary(file) as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", newline="")
        reader = csv.reader(handle, delimiter=delimiter)
        header = next(reader, None)
        if header is None:
            return
        if text_field not in header:
            raise InputError(f"{file}, line 1: no {text_field!r} column in the header ({', '.join(header)})")
        text_at = header.index(text_field)
        id_at = header.index(ID_FIELD) if ID_FIELD in header else None
        for row in reader:
            number = reader.line_num
            if not row:
                continue
            if len(row) <= text_at:
                raise InputError(f"{file}, line {number}: expected {len(header)} fields, found {len(row)}")
            text = row[text_at]
            if "\ufffd" in text:
                warnings.warn(f"{file}, line {number}: bytes that are not UTF-8 were replaced", stacklevel=2)
            if text.strip():
                doc_id = row[id_at] if id_at is not None and id_at < len(row) else f"{label}:{number}"
                yield Document(doc_id, text)


def _parquet_documents(file: Path, label: str, text_field: str) -> Iterator[Document]:
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(file)
    except Exception as exc:  # pyarrow raises several types for corrupt files
        raise InputError(f"cannot read Parquet corpus file {file}: {exc}") from exc
    names = parquet.schema_arrow.names
    if text_field not in names:
        raise InputError(f"{file}: no {text_field!r} column (columns: {', '.join(names)})")
    columns = [text_field] + ([ID_FIELD] if ID_FIELD in names else [])
    row = 0
    for batch in parquet.iter_batches(batch_size=4096, columns=columns):
        texts = batch.column(text_field).to_pylist()
        ids = batch.column(ID_FIELD).to_pylist() if ID_FIELD in names else None
        for offset, text in enumerate(texts):
            if text and str(text).strip():
                doc_id = str(ids[offset]) if ids is not None else f"{label}:{row + offset + 1}"
                yield Document(doc_id, str(text))
        row += len(texts)
