"""Reading corpus documents as a stream: text, gzipped text, JSON lines, CSV/TSV and Parquet.

A corpus is a file or a folder (searched recursively, linked folders followed, files in sorted order).
Documents are yielded one at a time, so a corpus of any size is never held in memory:

- ``.txt`` / ``.txt.gz``: one document per line (empty lines skipped; lines end at ``\\n``, ``\\r\\n`` or a lone
  ``\\r``); id ``<relative path>:<line number>``. A line longer than :data:`wsd.io.textfiles.LINE_PIECE_BYTES`
  comes in pieces (:attr:`Document.offset`, :attr:`Document.more`), which the scanner joins at places where no
  context crosses, so memory does not grow with the length of a line;
- ``.jsonl`` / ``.jsonl.gz``: one JSON object per line with a ``text`` field (a string; ``null``: no
  document, counted in a warning) and an optional ``id`` (a string or an integer; ``null`` or absent:
  ``<relative path>:<line number>``);
- ``.csv`` / ``.tsv`` (optionally ``.gz``): a header row with a ``text`` column (and an optional ``id``);
  fields may be quoted as by Python's :mod:`csv` and pandas (``"..."``, inner quotes doubled);
- ``.parquet``: a ``text`` column of strings (and an optional ``id`` of strings or integers), read one
  batch at a time.

Every file is read through :mod:`wsd.io.textfiles`: a UTF-8 byte-order mark is dropped; bytes that are not
valid UTF-8 are replaced by U+FFFD and one warning per file says how many lines had them, so the user
learns about it without losing the rest of the line. Anything that would turn into wrong text raises an
:class:`~wsd.errors.InputError` naming the file and line instead: a ``text`` that is a number, object or
list (JSON), a column of bytes or lists (Parquet), a quote that is never closed (CSV), a truncated ``.gz``
file, a file that starts with a UTF-16 byte-order mark (every character of it would be replaced), a folder
that cannot be read, a broken link, a corpus path that is a link loop.

Metadata beside the text (``--meta year,source``: JSON fields, CSV/TSV and Parquet columns; and values taken
from the file path with ``--slice-from-path``) travel with each document as :attr:`Document.meta`
(:mod:`wsd.corpus.metadata` says which and what goes wrong how).
"""

from __future__ import annotations

import csv
import errno
import hashlib
import math
import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wsd.corpus.metadata import MetaSpec
from wsd.errors import InputError
from wsd.io import textfiles
from wsd.io.manifest import has_manifest
from wsd.io.textfiles import LineDecoder, iter_line_pieces, iter_lines, json_kind, json_object

TEXT_SUFFIXES = (".txt", ".txt.gz")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson")
TABLE_SUFFIXES = (".csv", ".tsv", ".csv.gz", ".tsv.gz")
PARQUET_SUFFIXES = (".parquet",)
CORPUS_SUFFIXES = TEXT_SUFFIXES + JSONL_SUFFIXES + TABLE_SUFFIXES + PARQUET_SUFFIXES
TEXT_FIELD = "text"
ID_FIELD = "id"
_CSV_FIELD_LIMIT = 1 << 30


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
    meta : tuple
        Its metadata values, one per column of the scan's :class:`~wsd.corpus.metadata.MetaSpec` (None:
        missing); empty when no metadata is kept.
    where : str
        Its place for messages, ``<relative path>:<line or row number>`` (set when metadata is kept).
    offset : int
        For a piece of a long document (a line longer than :data:`wsd.io.textfiles.LINE_PIECE_BYTES`, read in
        pieces so that memory stays bounded): the character offset of ``text`` in the whole document.
    more : bool
        For a piece of a long document: more pieces follow (the last piece has ``more=False`` and an
        ``offset`` above 0, or is the only one).
    """

    doc_id: str
    text: str
    meta: tuple = field(default=(), repr=False)
    where: str = field(default="", repr=False, compare=False)
    offset: int = field(default=0, repr=False)
    more: bool = field(default=False, repr=False)

    @property
    def is_piece(self) -> bool:
        """Whether this is a piece of a document read in pieces (not a whole document).

        Returns
        -------
        bool
        """
        return self.more or self.offset > 0


def corpus_files(path: str | os.PathLike[str], exclude: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    """The corpus files under ``path`` (itself if it is a file), in a stable sorted order.

    Linked folders are followed; a link that leads back into a folder it sits in (a loop) is skipped with a
    warning naming it.

    Parameters
    ----------
    path : str or os.PathLike
        A corpus file, or a folder searched recursively for files with a suffix of ``CORPUS_SUFFIXES``.
    exclude : iterable of str or os.PathLike
        Files or folders left out, e.g. a run's output folder inside the corpus folder, so that the run's
        own files never count as corpus.

    Returns
    -------
    list of Path
        The corpus files, sorted.

    Raises
    ------
    InputError
        If the path does not exist or is a link loop (:func:`corpus_location`), is a file of an unsupported
        type, holds no corpus file, a folder in it cannot be read, a corpus file is a broken link, or a file is
        not readable.

    Examples
    --------
    >>> corpus_files("data/demo/corpus.txt")  # doctest: +SKIP
    [PosixPath('data/demo/corpus.txt')]
    """
    root = Path(corpus_location(path, resolve=False))
    if root.is_file():
        if not _has_suffix(root, CORPUS_SUFFIXES):
            raise InputError(f"{root}: unsupported corpus file type (use one of {', '.join(CORPUS_SUFFIXES)})")
        files = [root]
    elif root.is_dir():
        skipped = {os.path.realpath(p) for p in exclude}
        files = sorted(_walk(root, skipped))
        if not files:
            raise InputError(f"{root}: no corpus files found (looked for {', '.join(CORPUS_SUFFIXES)})")
    else:
        raise InputError(f"corpus {root} is neither a file nor a folder")
    for file in files:
        if not os.access(file, os.R_OK):
            raise InputError(f"corpus file is not readable: {file}")
    return files


def corpus_location(path: str | os.PathLike[str], *, resolve: bool = True) -> str:
    """The absolute path of a corpus file or folder (links resolved), or one :class:`InputError` saying why not.

    Parameters
    ----------
    path : str or os.PathLike
        The corpus the user gave.
    resolve : bool
        Return the absolute path with every link resolved (what a run records); else ``path`` as given.

    Returns
    -------
    str
        The path.

    Raises
    ------
    InputError
        When nothing is there, for a broken link, for a link that leads back to itself (a loop, directly or
        through other links), and when the path cannot be read.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> loop = pathlib.Path(tempfile.mkdtemp()) / "loop.txt"
    >>> loop.symlink_to(loop)
    >>> corpus_location(loop)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: corpus .../loop.txt is a link that points to itself (a loop); ...
    """
    root = Path(path)
    try:
        root.stat()
    except FileNotFoundError:
        if root.is_symlink():
            raise InputError(f"corpus not found: {root} is a broken symbolic link") from None
        raise InputError(f"corpus not found: {root}") from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise InputError(
                f"corpus {root} is a link that points to itself (a loop); give the file or folder it should point to"
            ) from None
        raise InputError(f"cannot read corpus {root}: {error.strerror or error}") from None
    return os.path.realpath(root) if resolve else os.fspath(path)


def _walk(root: Path, skipped: set[str]) -> list[Path]:
    """The corpus files under ``root``; linked folders followed, loops skipped with a warning."""
    files: list[Path] = []
    outputs: list[Path] = []
    stack: list[tuple[Path, tuple[tuple[int, int], ...]]] = [(root, (_identity(root),))]
    while stack:
        folder, ancestors = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError as error:
            raise InputError(
                f"cannot read folder {folder} of the corpus ({error.strerror or error}); "
                "make it readable or move it out of the corpus folder"
            ) from None
        for entry in entries:
            entry_path = Path(folder, entry.name)
            if skipped and os.path.realpath(entry_path) in skipped:
                continue
            try:
                is_dir = entry.is_dir()
                is_file = not is_dir and entry.is_file()
            except OSError as error:
                if error.errno != errno.ELOOP:
                    raise InputError(f"cannot read {entry_path} in the corpus: {error.strerror or error}") from None
                warnings.warn(f"{entry_path}: a symbolic link loop; skipped", stacklevel=3)
                continue
            if is_dir and has_manifest(entry_path):  # a folder wsd wrote (a run, an output): never corpus
                outputs.append(entry_path)
                continue
            if is_dir:
                identity = _identity(entry_path)
                if identity in ancestors:
                    warnings.warn(
                        f"{entry_path}: a link back to a folder that contains it (a loop); skipped", stacklevel=3
                    )
                    continue
                stack.append((entry_path, (*ancestors, identity)))
            elif is_file:
                if _has_suffix(entry_path, CORPUS_SUFFIXES):
                    files.append(entry_path)
            elif entry.is_symlink() and _has_suffix(entry_path, CORPUS_SUFFIXES):
                raise InputError(f"corpus file {entry_path} is a broken symbolic link")
    _warn_skipped(sorted(outputs))
    return files


#: The skipped output folders already warned about (a command lists the corpus more than once).
_WARNED: set[tuple[Path, ...]] = set()


def _warn_skipped(outputs: list[Path]) -> None:
    """Say once which folders of wsd's own outputs inside the corpus folder were not read as corpus."""
    key = tuple(outputs)
    if not outputs or key in _WARNED:
        return
    _WARNED.add(key)
    shown = ", ".join(str(p) for p in outputs[:5]) + (f" and {len(outputs) - 5} more" if len(outputs) > 5 else "")
    warnings.warn(
        f"{len(outputs)} folder(s) of wsd output in the corpus folder skipped (not corpus): {shown}", stacklevel=4
    )


def _identity(folder: Path) -> tuple[int, int]:
    try:
        info = folder.stat()
    except OSError as error:
        raise InputError(f"cannot read folder {folder} of the corpus: {error.strerror or error}") from None
    return info.st_dev, info.st_ino


def corpus_fingerprint(path: str | os.PathLike[str], exclude: Iterable[str | os.PathLike[str]] = ()) -> str:
    """A short hash of the corpus files' names, sizes and modification times.

    It changes when a file is added, removed, or rewritten, which is what decides whether an earlier run's
    work can be reused.

    Parameters
    ----------
    path : str or os.PathLike
        A corpus file or folder (as for :func:`corpus_files`).
    exclude : iterable of str or os.PathLike
        Files or folders left out (as for :func:`corpus_files`): pass the run's output folder.

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
    for file in corpus_files(root, exclude):
        stat = file.stat()
        rel = file.name if root.is_file() else file.relative_to(root).as_posix()
        digest.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def iter_documents(
    path: str | os.PathLike[str],
    text_field: str = TEXT_FIELD,
    exclude: Iterable[str | os.PathLike[str]] = (),
    meta: MetaSpec | None = None,
) -> Iterator[Document]:
    """Stream the documents of a corpus file or folder, in a stable order.

    Parameters
    ----------
    path : str or os.PathLike
        A corpus file or folder (as for :func:`corpus_files`).
    text_field : str
        The field (JSON lines) or column (CSV/TSV, Parquet) that holds the text.
    exclude : iterable of str or os.PathLike
        Files or folders left out (as for :func:`corpus_files`).
    meta : MetaSpec, optional
        The metadata to keep with each document (:mod:`wsd.corpus.metadata`).

    Yields
    ------
    Document
        One document at a time: files in sorted order, lines or rows in file order; empty lines and
        empty texts are skipped.

    Raises
    ------
    InputError
        As :func:`corpus_files`; and for a file that cannot be read (a truncated ``.gz`` too), a JSON line
        that is not valid JSON, lacks ``text_field`` or holds a value that is not a string there, a table
        without a ``text_field`` column or whose column is not text, or a CSV quote that is never closed.

    Examples
    --------
    >>> docs = iter_documents("data/demo/corpus.txt")  # doctest: +SKIP
    >>> next(docs).doc_id  # doctest: +SKIP
    'corpus.txt:1'
    """
    root = Path(path)
    files = corpus_files(root, exclude)
    labels = [file.name if root.is_file() else file.relative_to(root).as_posix() for file in files]
    if meta:
        meta.check_paths(labels)
    for file, label in zip(files, labels, strict=True):
        yield from file_documents(file, label, text_field, meta)


def file_documents(
    file: Path,
    label: str,
    text_field: str = TEXT_FIELD,
    meta: MetaSpec | None = None,
    on_position: Callable[[int], None] | None = None,
) -> Iterator[Document]:
    """The documents of one corpus file, read by its kind (text, JSON lines, CSV/TSV or Parquet, by suffix).

    Parameters
    ----------
    file : Path
        The file.
    label : str
        How the documents name it (their ``doc_id`` starts with it).
    text_field : str
        The field or column holding the text (not used for plain text).
    meta : MetaSpec, optional
        The ``--meta`` fields to keep.
    on_position : callable, optional
        Told the byte position read so far in a plain-text file (for progress).

    Yields
    ------
    Document
        As :func:`iter_documents`.
    """
    if _has_suffix(file, TEXT_SUFFIXES):
        yield from _text_documents(file, label, meta, on_position)
    elif _has_suffix(file, JSONL_SUFFIXES):
        yield from _jsonl_documents(file, label, text_field, meta)
    elif _has_suffix(file, TABLE_SUFFIXES):
        yield from _table_documents(file, label, text_field, meta)
    else:
        yield from _parquet_documents(file, label, text_field, meta)


def _has_suffix(path: Path, suffixes: tuple[str, ...]) -> bool:
    name = path.name.lower()
    return any(name.endswith(s) for s in suffixes)


class _Decoder(LineDecoder):
    """Decodes corpus lines as UTF-8, replacing bad bytes and counting the lines that had any."""

    def __init__(self, file: Path) -> None:
        super().__init__(file, bad_bytes="replace")


# ------------------------------------------------------------------------------------------- plain text
def check_text_file_meta(file: str | os.PathLike[str], meta: MetaSpec | None) -> None:
    """An :class:`InputError` when ``--meta`` asks a plain-text file for fields (it has none).

    Parameters
    ----------
    file : str or os.PathLike
        The file (for the message).
    meta : MetaSpec or None
        The metadata kept.

    Returns
    -------
    None
    """
    if meta and meta.fields:
        raise InputError(
            f"{file}: a plain-text file has no fields, so --meta {','.join(meta.fields)} cannot be kept; "
            "use .jsonl, .csv/.tsv or .parquet files, or take a slice from the path with --slice-from-path"
        )


def _text_documents(
    file: Path, label: str, meta: MetaSpec | None = None, on_position: Callable[[int], None] | None = None
) -> Iterator[Document]:
    check_text_file_meta(file, meta)
    values = meta.path_values(label) if meta else ()
    lines = iter_line_pieces(file, bad_bytes="replace", piece_bytes=textfiles.LINE_PIECE_BYTES, on_position=on_position)
    yield from text_line_documents(lines, label, values)


def text_line_documents(lines: Iterable[tuple[int, str, bool]], label: str, values: tuple = ()) -> Iterator[Document]:
    """The documents of a plain-text file's lines: blank lines skipped, a long line's pieces kept in order.

    Parameters
    ----------
    lines : iterable of (int, str, bool)
        Line number, the line or a piece of it, and whether it ends its line
        (:func:`wsd.io.textfiles.iter_line_pieces`).
    label : str
        Prefix of the document ids (``<label>:<line number>``).
    values : tuple
        The metadata values of every document (from the file's path).

    Returns
    -------
    iterator of Document

    Examples
    --------
    >>> [(d.doc_id, d.text, d.offset, d.more) for d in text_line_documents(
    ...     [(1, "a mouse", True), (2, " ", True), (3, "one ", False), (3, "two", True)], "c.txt")]
    [('c.txt:1', 'a mouse', 0, False), ('c.txt:3', 'one ', 0, True), ('c.txt:3', 'two', 4, False)]
    """
    offset = 0
    for number, text, ends in lines:
        doc_id = f"{label}:{number}"
        where = doc_id if values else ""
        if ends and not offset:
            if text.strip():
                yield Document(doc_id, text, values, where)
            continue
        yield Document(doc_id, text, values, where, offset=offset, more=not ends)
        offset = 0 if ends else offset + len(text)


# ------------------------------------------------------------------------------------------- JSON lines


class JsonLineParser:
    """Turns the lines of one JSON-lines corpus file into documents, checking each record's types.

    A line must be a JSON object with ``text_field``: a string (``null`` gives no document; :meth:`report`
    warns how many records had it); its ``id``, if present and not ``null``, must be a
    string or an integer. Anything else raises :class:`InputError` naming the file and line, so a nested
    object is never embedded as its Python ``repr``.

    Parameters
    ----------
    file : str or os.PathLike
        The file (for messages).
    label : str
        Prefix of the default document ids (``<label>:<line number>``).
    text_field : str
        The field that holds the text.
    meta : MetaSpec, optional
        The metadata to keep: its fields are read from each record (numbers, text, booleans; an object or a
        list is an error), its path columns from ``label``.

    Examples
    --------
    >>> parse = JsonLineParser("c.jsonl", "c.jsonl", "text")
    >>> parse('{"text": "a mouse"}', 3)
    Document(doc_id='c.jsonl:3', text='a mouse')
    >>> parse('{"text": {"en": "a mouse"}}', 4)
    Traceback (most recent call last):
    ...
    wsd.errors.InputError: c.jsonl, line 4: 'text' is an object, not a string (choose the field that holds the text)
    """

    def __init__(
        self, file: str | os.PathLike[str], label: str, text_field: str = TEXT_FIELD, meta: MetaSpec | None = None
    ) -> None:
        self.file = file
        self.label = label
        self.text_field = text_field
        self.null_texts = 0
        self.first_null: int | None = None
        self.fields = meta.fields if meta else ()
        self.path_values = meta.path_values(label) if meta else ()
        self.records = 0
        self.having = dict.fromkeys(self.fields, 0)

    def __call__(self, line: str, number: int) -> Document | None:
        """The document of one line, or ``None`` for a blank line or a ``null`` text.

        Parameters
        ----------
        line : str
            The decoded line.
        number : int
            Its line number (from 1).

        Returns
        -------
        Document or None
            The document.

        Raises
        ------
        InputError
            For a line that is not a JSON object with a string ``text_field`` and a valid ``id``.
        """
        line = line.strip()
        if not line:
            return None
        record = json_object(line, f"{self.file}, line {number}")
        values = self._meta_values(record, number) if self.fields else ()
        if self.text_field not in record:
            raise InputError(f"{self.file}, line {number}: no {self.text_field!r} field")
        text = record[self.text_field]
        if text is None:
            self.null_texts += 1
            self.first_null = self.first_null or number
            return None
        if not isinstance(text, str):
            raise InputError(
                f"{self.file}, line {number}: {self.text_field!r} is {json_kind(text)}, "
                "not a string (choose the field that holds the text)"
            )
        doc_id = record.get(ID_FIELD)
        if doc_id is None:
            doc_id = f"{self.label}:{number}"
        elif isinstance(doc_id, int) and not isinstance(doc_id, bool):
            doc_id = str(doc_id)
        elif not isinstance(doc_id, str):
            raise InputError(
                f"{self.file}, line {number}: {ID_FIELD!r} is {json_kind(doc_id)}; an id must be a string or an integer"
            )
        values += self.path_values
        return Document(doc_id, text, values, f"{self.label}:{number}" if values else "")

    def _meta_values(self, record: dict, number: int) -> tuple:
        """The record's values of the ``--meta`` fields (None where absent); an object or list is an error."""
        self.records += 1
        values = []
        for name in self.fields:
            if name in record:
                self.having[name] += 1
            value = record.get(name)
            if isinstance(value, dict | list):
                raise InputError(
                    f"{self.file}, line {number}: --meta field {name!r} is {json_kind(value)}; "
                    "metadata must be a number, a string, true/false or null"
                )
            if isinstance(value, float) and not math.isfinite(value):
                raise InputError(
                    f"{self.file}, line {number}: --meta field {name!r} is {value} (Infinity, NaN, or a number "
                    'beyond ±1.8e308); write it as a string ("...") to keep it as text, or as null when missing'
                )
            if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
                raise InputError(
                    f"{self.file}, line {number}: --meta field {name!r} is {value}, an integer beyond 64 bits; "
                    'write it as a string ("...") to keep it as text'
                )
            values.append(value)
        return tuple(values)

    def check_fields(self) -> None:
        """An :class:`InputError` when some ``--meta`` field is in none of the records read.

        Returns
        -------
        None
        """
        absent = [name for name, count in self.having.items() if count == 0]
        if self.records and absent:
            raise InputError(
                f"{self.file}: none of its {self.records} records has the field(s) {', '.join(map(repr, absent))} "
                "asked for with --meta"
            )

    def report(self, stacklevel: int = 3) -> None:
        """Warn once when records had a ``null`` text (they were skipped).

        Parameters
        ----------
        stacklevel : int
            Passed to :func:`warnings.warn`.
        """
        if self.null_texts:
            warnings.warn(
                f"{self.file}: {self.null_texts} record(s) have {self.text_field!r} null (the first on line "
                f"{self.first_null}); they were skipped",
                stacklevel=stacklevel,
            )


def _jsonl_documents(file: Path, label: str, text_field: str, meta: MetaSpec | None = None) -> Iterator[Document]:
    parse = JsonLineParser(file, label, text_field, meta)
    for number, line in iter_lines(file, bad_bytes="replace"):
        document = parse(line, number)
        if document is not None:
            yield document
    parse.check_fields()
    parse.report()


# ------------------------------------------------------------------------------------------- CSV / TSV
class _RowLines:
    """The lines fed to :mod:`csv`, remembering those of the row being read (for messages and recovery)."""

    def __init__(self, lines: Iterator[tuple[int, str]]) -> None:
        self._lines = lines
        self.row: list[tuple[int, str]] = []

    def __iter__(self) -> _RowLines:
        return self

    def __next__(self) -> str:
        number, line = next(self._lines)
        self.row.append((number, line))
        return line


def _table_documents(file: Path, label: str, text_field: str, meta: MetaSpec | None = None) -> Iterator[Document]:
    delimiter = "\t" if ".tsv" in file.name.lower() else ","
    csv.field_size_limit(max(csv.field_size_limit(), _CSV_FIELD_LIMIT))
    lines = _RowLines(iter_lines(file, bad_bytes="replace", universal_newlines=True, keepends=True))
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    lenient: list[int] = []

    def next_row() -> tuple[int, list[str]] | None:
        lines.row = []
        try:
            row = next(reader)
        except StopIteration:
            return None
        except csv.Error as error:
            row = _recover_row(file, lines.row, delimiter, error)
            lenient.append(lines.row[0][0])
        return (lines.row[-1][0] if lines.row else 0), row

    first = next_row()
    if first is None:
        return
    header = first[1]
    text_at, id_at, meta_at = table_header_columns(file, header, text_field, meta.fields if meta else ())
    path_values = meta.path_values(label) if meta else ()
    while (item := next_row()) is not None:
        number, row = item  # the row's last line: the id of a document without one, as always
        if not row:
            continue
        if len(row) <= text_at:
            raise InputError(f"{file}, line {number}: expected {len(header)} fields, found {len(row)}")
        text = row[text_at]
        if text.strip():
            doc_id = row[id_at] if id_at is not None and id_at < len(row) else f"{label}:{number}"
            if meta:
                values = tuple(row[at] if at < len(row) else None for at in meta_at) + path_values
                yield Document(doc_id, text, values, f"{label}:{number}")
            else:
                yield Document(doc_id, text)
    if lenient:
        warnings.warn(
            f"{file}: {len(lenient)} row(s) have text after a closing quote (the first on line {lenient[0]}); "
            "they were read without the quotes. Quote such fields whole, doubling the quotes inside",
            stacklevel=2,
        )


def table_header_columns(
    file: str | os.PathLike[str], header: Sequence[str], text_field: str = TEXT_FIELD, meta_fields: Sequence[str] = ()
) -> tuple[int, int | None, list[int]]:
    """Where the text, the id and the ``--meta`` columns are in a CSV/TSV header; an error for one that is absent.

    Parameters
    ----------
    file : str or os.PathLike
        The file, for messages.
    header : sequence of str
        Its header row.
    text_field : str
        The column that holds the text.
    meta_fields : sequence of str
        The ``--meta`` columns.

    Returns
    -------
    (int, int or None, list of int)
        The text column's index, the ``id`` column's (None when absent), the ``--meta`` columns'.

    Raises
    ------
    InputError
        When ``text_field`` or a ``meta_fields`` column is not in the header.

    Examples
    --------
    >>> table_header_columns("c.csv", ["id", "text", "year"], meta_fields=["year"])
    (1, 0, [2])
    """
    if text_field not in header:
        raise InputError(f"{file}, line 1: no {text_field!r} column in the header ({', '.join(header)})")
    absent = [name for name in meta_fields if name not in header]
    if absent:
        raise InputError(
            f"{file}, line 1: no column {', '.join(map(repr, absent))} in the header ({', '.join(header)}), "
            "asked for with --meta"
        )
    id_at = list(header).index(ID_FIELD) if ID_FIELD in header else None
    return list(header).index(text_field), id_at, [list(header).index(name) for name in meta_fields]


def read_table_header(file: str | os.PathLike[str]) -> list[str]:
    """The header row of a CSV/TSV corpus file (``.gz`` too), read alone.

    Parameters
    ----------
    file : str or os.PathLike
        The file.

    Returns
    -------
    list of str
        Its first row (empty for an empty file).
    """
    delimiter = "\t" if ".tsv" in Path(file).name.lower() else ","
    numbered = iter_lines(file, bad_bytes="replace", universal_newlines=True, keepends=True)
    try:
        return next(csv.reader((line for _, line in numbered), delimiter=delimiter), [])
    except csv.Error as error:
        raise InputError(f"{file}, line 1: malformed CSV header ({error})") from None
    finally:
        numbered.close()


def _recover_row(file: Path, row_lines: list[tuple[int, str]], delimiter: str, error: csv.Error) -> list[str]:
    """A row that strict CSV parsing rejected: re-read leniently if it is one line, else an InputError.

    A quote that is never closed makes every later line part of one field: the parser then either reaches
    the end of the file or a later quote followed by text, after more than one line. Both are errors.
    Text after the closing quote of a one-line field (``"Hi," he said``) is read as Python's lenient CSV
    reader always did.
    """
    if not row_lines:
        raise InputError(f"{file}: malformed CSV ({error})")
    first, last = row_lines[0][0], row_lines[-1][0]
    if "unexpected end of data" in str(error):
        raise InputError(
            f"{file}, line {first}: a quoted field opened on this line is never closed (it runs to the end of "
            f"the file, line {last}); close the quote, or double the quotes inside quoted text"
        )
    if first != last:
        raise InputError(
            f"{file}, line {first}: a quoted field opened on this line runs over {last - first + 1} lines and "
            f"stops at a stray quote on line {last} ({error}); a quote is probably not closed"
        )
    return next(csv.reader([row_lines[0][1]], delimiter=delimiter, strict=False), [])


# ------------------------------------------------------------------------------------------- Parquet
def parquet_columns(
    schema: Any, file: str | os.PathLike[str], text_field: str = TEXT_FIELD, meta_fields: Sequence[str] = ()
) -> list[str]:
    """The columns to read from a Parquet corpus file: ``text_field``, ``id`` if present, and ``meta_fields``.

    Parameters
    ----------
    schema : pyarrow.Schema
        The file's Arrow schema (``ParquetFile.schema_arrow``).
    file, text_field, meta_fields
        As for :func:`table_header_columns`.

    Returns
    -------
    list of str
        ``[text_field]`` or ``[text_field, "id"]``, then ``meta_fields``.

    Raises
    ------
    InputError
        When ``text_field`` is missing or not a column of strings (bytes, lists, numbers), ``id`` is
        neither strings nor integers, or a ``meta_fields`` column is missing or holds lists, structs or bytes.
    """
    import pyarrow as pa

    names = schema.names
    if text_field not in names:
        raise InputError(f"{file}: no {text_field!r} column (columns: {', '.join(names)})")
    text_type = schema.field(text_field).type
    if not _is_text_type(pa, text_type):
        raise InputError(
            f"{file}: column {text_field!r} holds {text_type} values, not text (strings); "
            "convert it to strings, or choose the column that holds the text"
        )
    absent = [name for name in meta_fields if name not in names]
    if absent:
        raise InputError(
            f"{file}: no column {', '.join(map(repr, absent))} (columns: {', '.join(names)}), asked for with --meta"
        )
    for name in meta_fields:
        kind = schema.field(name).type
        value_type = kind.value_type if pa.types.is_dictionary(kind) else kind
        if pa.types.is_nested(value_type) or pa.types.is_binary(value_type) or pa.types.is_large_binary(value_type):
            raise InputError(
                f"{file}: --meta column {name!r} holds {kind} values; metadata must be numbers, text, booleans or dates"
            )
    if ID_FIELD not in names:
        return [text_field, *meta_fields]
    id_type = schema.field(ID_FIELD).type
    if not (_is_text_type(pa, id_type) or pa.types.is_integer(id_type)):
        raise InputError(f"{file}: column {ID_FIELD!r} holds {id_type} values; ids must be strings or integers")
    return [text_field, ID_FIELD, *meta_fields]


def _is_text_type(pa: Any, data_type: Any) -> bool:
    if pa.types.is_dictionary(data_type):
        data_type = data_type.value_type
    string_view = getattr(pa.types, "is_string_view", lambda _: False)
    return bool(
        pa.types.is_string(data_type)
        or pa.types.is_large_string(data_type)
        or string_view(data_type)
        or pa.types.is_null(data_type)
    )


def parquet_batch_documents(
    batch: Any, label: str, first_row: int, text_field: str = TEXT_FIELD, meta: MetaSpec | None = None
) -> list[Document]:
    """The documents of one record batch read with the columns of :func:`parquet_columns`.

    Parameters
    ----------
    batch : pyarrow.RecordBatch
        The batch.
    label : str
        Prefix of the default document ids (``<label>:<row number>``).
    first_row : int
        The row number (from 1) of the batch's first row.
    text_field : str
        The text column.
    meta : MetaSpec, optional
        The metadata kept (its fields are columns of ``batch``).

    Returns
    -------
    list of Document
        One per row whose text is not null or blank.
    """
    texts = batch.column(text_field).to_pylist()
    ids = batch.column(ID_FIELD).to_pylist() if ID_FIELD in batch.schema.names else None
    columns = [batch.column(name).to_pylist() for name in meta.fields] if meta else []
    for name, column in zip(meta.fields if meta else (), columns, strict=True):
        _check_unsigned(batch.column(name), column, texts, name, label, first_row)
    path_values = meta.path_values(label) if meta else ()
    documents = []
    for offset, text in enumerate(texts):
        if text and text.strip():
            given = ids[offset] if ids is not None else None
            doc_id = str(given) if given is not None else f"{label}:{first_row + offset}"
            if meta:
                values = tuple(column[offset] for column in columns) + path_values
                documents.append(Document(doc_id, text, values, f"{label}:{first_row + offset}"))
            else:
                documents.append(Document(doc_id, text))
    return documents


_INT64_MAX = 2**63 - 1


def _check_unsigned(array: Any, values: list, texts: list, name: str, label: str, first_row: int) -> None:
    """An :class:`InputError` for a ``uint64`` value beyond int64 in a row with text (smaller ones stay integers)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = array.type.value_type if pa.types.is_dictionary(array.type) else array.type
    if not pa.types.is_uint64(kind) or array.null_count == len(array):
        return
    largest = pc.max(array.dictionary if pa.types.is_dictionary(array.type) else array).as_py()
    if largest is None or largest <= _INT64_MAX:
        return
    for offset, value in enumerate(values):
        if value is not None and value > _INT64_MAX and texts[offset] and texts[offset].strip():
            raise InputError(
                f"{label}, row {first_row + offset}: --meta column {name!r} holds {value}, an unsigned integer "
                f"beyond the int64 range (up to {_INT64_MAX}); store the column as text (strings) to keep such values"
            )


def _parquet_documents(file: Path, label: str, text_field: str, meta: MetaSpec | None = None) -> Iterator[Document]:
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(file)
    except Exception as exc:  # pyarrow raises several types for corrupt files
        raise InputError(f"cannot read Parquet corpus file {file}: {exc}") from exc
    columns = parquet_columns(parquet.schema_arrow, file, text_field, meta.fields if meta else ())
    row = 1
    batches = parquet.iter_batches(batch_size=4096, columns=columns)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            break
        except Exception as exc:  # a truncated or corrupt row group
            raise InputError(f"cannot read Parquet corpus file {file} after row {row - 1}: {exc}") from exc
        yield from parquet_batch_documents(batch, label, row, text_field, meta)
        row += batch.num_rows
