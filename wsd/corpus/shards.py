"""Cutting a corpus into shards for distributed work: whole files, and line-aligned byte ranges of large files.

A shard is a short list of *pieces* read one after another; a piece is a whole corpus file, a byte range of
an uncompressed text or JSON-lines file, or a run of row groups of a Parquet file. Read in shard order, the
shards yield exactly the documents of :func:`wsd.corpus.documents.iter_documents`, with the same ids, so a
distributed scan finds the same occurrences as a single-process one.

How each format is cut (``shard_bytes`` is the target size of a shard):

- ``.txt``, ``.jsonl``, ``.ndjson`` (uncompressed): byte ranges of about ``shard_bytes``, each cut just after
  a newline. A document id names its line (``<relative path>:<line number>``), so a range records the number
  of its first line; it is found by counting newlines once when planning (:func:`count_newlines`, which
  :func:`plan_shards` can hand to a cluster through ``count_lines``);
- gzip files (``.txt.gz``, ``.jsonl.gz``, ``.csv.gz``...): one piece each; a gzip stream cannot be entered in
  the middle, so split a large one into several files (or decompress it) to spread it over workers;
- ``.csv`` / ``.tsv``: one piece each; a quoted field may hold newlines, so a byte cut could split a record;
- ``.parquet``: runs of consecutive row groups of about ``shard_bytes`` (compressed), read with the row
  numbers they have in the file.

Consecutive small pieces are packed into one shard up to ``shard_bytes``, so a folder of many small files
does not become as many tasks.

>>> shards = plan_shards("corpus/", shard_bytes=64 * 2**20)          # doctest: +SKIP
>>> docs = [d for s in shards for d in iter_shard_documents(s)]     # doctest: +SKIP
>>> docs == list(iter_documents("corpus/"))                         # doctest: +SKIP
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from wsd.corpus.documents import (
    PARQUET_SUFFIXES,
    TEXT_FIELD,
    Document,
    JsonLineParser,
    _Decoder,
    _has_suffix,
    check_text_file_meta,
    corpus_files,
    file_documents,
    parquet_batch_documents,
    parquet_columns,
    text_line_documents,
)
from wsd.corpus.metadata import MetaSpec
from wsd.errors import ConfigError, InputError
from wsd.io import textfiles
from wsd.io.textfiles import raw_lines
from wsd.schema import DEFAULT_SHARD_BYTES

READ_BLOCK = 4 * 2**20
SPLITTABLE_TEXT = (".txt",)
SPLITTABLE_JSONL = (".jsonl", ".ndjson")
PARQUET_BATCH_ROWS = 4096

#: ``count_lines(ranges) -> counts``: the number of newlines in each ``(path, start, stop)`` byte range.
LineCounter = Callable[[list[tuple[str, int, int]]], Sequence[int]]


@dataclass(frozen=True)
class Piece:
    """A whole corpus file or a part of one.

    ``path`` is absolute, ``label`` the prefix of the ids of its documents (the path relative to the corpus).
    For a byte range of a text or JSON-lines file, ``[start, stop)`` are byte offsets at line starts and
    ``first_line`` is the number of the line at ``start``; for a Parquet file, ``[start, stop)`` are row
    group numbers and ``first_line`` the row number (from 1) of the first row. ``stop=None``: the whole file.

    Parameters
    ----------
    path : str
        The file (absolute).
    label : str
        Prefix of its documents' ids.
    size : int
        Bytes of the piece.
    start, stop : int
        Byte offsets (text) or row groups (Parquet); ``stop=None``: the whole file.
    first_line : int
        Number of the line (or row) at ``start``.
    """

    path: str
    label: str
    size: int
    start: int = 0
    stop: int | None = None
    first_line: int = 1


@dataclass(frozen=True)
class Shard:
    """A unit of distributed work: its position in the corpus and the pieces it reads, in order.

    Parameters
    ----------
    index : int
        Position of the shard in the corpus.
    pieces : tuple of Piece
        What it reads, in order.
    """

    index: int
    pieces: tuple[Piece, ...]

    @property
    def size(self) -> int:
        """Bytes of corpus this shard reads (compressed size for gzip and Parquet).

        Returns
        -------
        int
        """
        return sum(piece.size for piece in self.pieces)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (tasks and the run's shard plan carry it).

        Returns
        -------
        dict
        """
        return {"index": self.index, "pieces": [asdict(piece) for piece in self.pieces]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Shard:
        """The shard described by :meth:`to_dict`.

        Parameters
        ----------
        data : dict
            Made by :meth:`to_dict`.

        Returns
        -------
        Shard
        """
        return cls(int(data["index"]), tuple(Piece(**piece) for piece in data["pieces"]))


def plan_shards(
    corpus: str | os.PathLike[str],
    shard_bytes: int = DEFAULT_SHARD_BYTES,
    count_lines: LineCounter | None = None,
    exclude: Iterable[str | os.PathLike[str]] = (),
) -> list[Shard]:
    """Cut ``corpus`` (a file or folder) into shards of about ``shard_bytes`` bytes, in corpus order.

    ``count_lines`` counts the newlines of byte ranges (default: here, one after another with
    :func:`count_newlines`); pass one that runs on a cluster to spread that reading. The plan depends only on
    the corpus files and ``shard_bytes``.

    Parameters
    ----------
    corpus : path
        A corpus file or folder.
    shard_bytes : int
        Target size of a shard.
    count_lines : callable, optional
        ``count_lines(ranges) -> counts``.
    exclude : iterable of path
        Files or folders left out of the corpus (a run's output folder inside the corpus folder).

    Returns
    -------
    list of Shard

    Examples
    --------
    >>> [len(s.pieces) for s in plan_shards("data/demo/corpus.txt", shard_bytes=10_000)]  # doctest: +SKIP
    [1, 1, 1, 1]
    """
    if shard_bytes < 1:
        raise ConfigError(f"shard_bytes must be a positive number of bytes, not {shard_bytes}")
    root = Path(corpus)
    pieces: list[Piece] = []
    for file in corpus_files(root, exclude):
        label = file.name if root.is_file() else file.relative_to(root).as_posix()
        pieces.extend(_file_pieces(file.resolve(), label, shard_bytes))
    pieces = _number_lines(pieces, count_lines or _count_here)
    return _pack(pieces, shard_bytes)


def iter_shard_documents(
    shard: Shard,
    text_field: str = TEXT_FIELD,
    meta: MetaSpec | None = None,
    on_bytes: Callable[[int], None] | None = None,
) -> Iterator[Document]:
    """Stream the documents of ``shard``: those of :func:`iter_documents` that lie in its pieces, same ids.

    ``on_bytes(n)`` is told how many more bytes of the corpus were read, as reading goes on: for plain-text
    and JSON-lines byte ranges and plain-text files (``.gz`` too) every block read (about one MiB), so that a
    progress bar moves inside a long line; for the other files when each is done. The ``n`` add up to
    :attr:`Shard.size` once the shard is read.

    Parameters
    ----------
    shard : Shard
        The shard.
    text_field : str
        The field or column holding the text.
    meta : MetaSpec, optional
        The metadata kept with each document (:mod:`wsd.corpus.metadata`).
    on_bytes : callable, optional
        Called with the number of bytes read since its last call (a progress bar's ``update``).

    Returns
    -------
    iterator of Document

    Examples
    --------
    >>> shard = plan_shards("data/demo/corpus.txt", shard_bytes=10_000)[1]   # doctest: +SKIP
    >>> next(iter_shard_documents(shard)).doc_id                            # doctest: +SKIP
    'corpus.txt:120'
    """
    for piece in shard.pieces:
        file = Path(piece.path)
        read = _BytesRead(piece.size, on_bytes)
        if piece.stop is None:
            yield from file_documents(file, piece.label, text_field, meta, read.at)
        elif _has_suffix(file, PARQUET_SUFFIXES):
            yield from _parquet_range_documents(piece, text_field, meta)
        elif _has_suffix(file, SPLITTABLE_JSONL):
            yield from _jsonl_range_documents(piece, text_field, meta, read.at)
        else:
            yield from _text_range_documents(piece, meta, read.at)
        read.at(piece.size)


class _BytesRead:
    """Tells ``on_bytes`` how far reading one piece has gone (never beyond its size; nothing without a callback)."""

    def __init__(self, size: int, on_bytes: Callable[[int], None] | None) -> None:
        self.size, self.on_bytes, self.told = size, on_bytes, 0

    def at(self, position: int) -> None:
        """Reading has reached ``position`` bytes into the piece."""
        if self.on_bytes is None:
            return
        position = min(position, self.size)
        if position > self.told:
            self.on_bytes(position - self.told)
            self.told = position


def count_newlines(path: str | os.PathLike[str], start: int, stop: int) -> int:
    """Number of line ends in ``[start, stop)`` of a file, read in blocks (no line splitting).

    A line ends at ``\\n``; in a plain-text file (``.txt``) also at a lone ``\\r``, as its reader splits it
    (``\\r\\n`` counts once). ``stop`` is a line start (or the end of the file).

    Parameters
    ----------
    path : path
        The file.
    start, stop : int
        The byte range.

    Returns
    -------
    int

    Examples
    --------
    >>> count_newlines("data/demo/corpus.txt", 0, 10**9)  # doctest: +SKIP
    369
    """
    count = 0
    lone_cr = _has_suffix(Path(path), SPLITTABLE_TEXT)
    after_cr = False
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            remaining = stop - start
            while remaining > 0:
                block = handle.read(min(READ_BLOCK, remaining))
                if not block:
                    break
                count += block.count(b"\n")
                if lone_cr:
                    count += block.count(b"\r") - block.count(b"\r\n") - (after_cr and block.startswith(b"\n"))
                    after_cr = block.endswith(b"\r")
                remaining -= len(block)
    except OSError as exc:
        raise InputError(f"cannot read corpus file {path}: {exc}") from exc
    return count


# ---------------------------------------------------------------------------------------------- planning
def _file_pieces(file: Path, label: str, shard_bytes: int) -> list[Piece]:
    size = file.stat().st_size
    if size <= shard_bytes:
        return [Piece(str(file), label, size)]
    if _has_suffix(file, SPLITTABLE_TEXT + SPLITTABLE_JSONL) and not file.name.lower().endswith(".gz"):
        cuts = _line_cuts(file, size, shard_bytes)
        # first_line is filled in by _number_lines; 0 marks "not counted yet"
        return [
            Piece(str(file), label, stop - start, start, stop, 1 if start == 0 else 0) for start, stop in pairwise(cuts)
        ]
    if _has_suffix(file, PARQUET_SUFFIXES):
        return _parquet_pieces(file, label, shard_bytes)
    return [Piece(str(file), label, size)]


def _line_cuts(file: Path, size: int, shard_bytes: int) -> list[int]:
    """Offsets ``0 = c0 < c1 < ... < size``: each cut is the first line start at least ``shard_bytes`` after
    the previous one (a line longer than that stays whole)."""
    cuts = [0]
    try:
        with open(file, "rb") as handle:
            while cuts[-1] + shard_bytes < size:
                position = cuts[-1] + shard_bytes - 1
                handle.seek(position)
                while True:
                    block = handle.read(64 * 1024)
                    found = block.find(b"\n")
                    if not block or found != -1:
                        break
                    position += len(block)
                if not block or position + found + 1 >= size:
                    break
                cuts.append(position + found + 1)
    except OSError as exc:
        raise InputError(f"cannot read corpus file {file}: {exc}") from exc
    cuts.append(size)
    return cuts


def _parquet_pieces(file: Path, label: str, shard_bytes: int) -> list[Piece]:
    """Runs of consecutive row groups of about ``shard_bytes`` compressed bytes each."""
    import pyarrow.parquet as pq

    try:
        metadata = pq.ParquetFile(file).metadata
    except Exception as exc:  # pyarrow raises several types for corrupt files
        raise InputError(f"cannot read Parquet corpus file {file}: {exc}") from exc
    pieces: list[Piece] = []
    first_group, rows_before, rows, size = 0, 0, 0, 0
    for group in range(metadata.num_row_groups):
        meta = metadata.row_group(group)
        group_size = sum(meta.column(c).total_compressed_size for c in range(meta.num_columns))
        if group > first_group and size + group_size > shard_bytes:
            pieces.append(Piece(str(file), label, size, first_group, group, rows_before + 1))
            first_group, rows_before, size = group, rows_before + rows, 0
            rows = 0
        size += group_size
        rows += meta.num_rows
    pieces.append(Piece(str(file), label, size, first_group, metadata.num_row_groups, rows_before + 1))
    return pieces


def _count_here(ranges: list[tuple[str, int, int]]) -> list[int]:
    return [count_newlines(path, start, stop) for path, start, stop in ranges]


def _number_lines(pieces: list[Piece], count_lines: LineCounter) -> list[Piece]:
    """Fill in ``first_line`` of every byte range that does not start a file (a running sum of newlines)."""
    pending = [i for i, piece in enumerate(pieces) if piece.first_line == 0]
    if not pending:
        return pieces
    # the newlines of every range that precedes an uncounted one (i.e. every range but a file's last)
    before = [i - 1 for i in pending]
    ranges = []
    for i in before:
        stop = pieces[i].stop
        assert stop is not None, "a range that another range of its file follows has an end"
        ranges.append((pieces[i].path, pieces[i].start, stop))
    counts = list(count_lines(ranges))
    if len(counts) != len(before):
        raise ConfigError(f"count_lines returned {len(counts)} counts for {len(before)} byte ranges")
    numbered = list(pieces)
    for index, newlines in zip(pending, counts, strict=True):
        previous = numbered[index - 1]
        numbered[index] = Piece(
            previous.path,
            previous.label,
            pieces[index].size,
            pieces[index].start,
            pieces[index].stop,
            previous.first_line + int(newlines),
        )
    return numbered


def _pack(pieces: list[Piece], shard_bytes: int) -> list[Shard]:
    """Group consecutive pieces into shards of at most ``shard_bytes`` (a larger piece is a shard alone)."""
    shards: list[Shard] = []
    group: list[Piece] = []
    size = 0
    for piece in pieces:
        if group and size + piece.size > shard_bytes:
            shards.append(Shard(len(shards), tuple(group)))
            group, size = [], 0
        group.append(piece)
        size += piece.size
    if group:
        shards.append(Shard(len(shards), tuple(group)))
    return shards


# ---------------------------------------------------------------------------------------------- reading
def _range_lines(
    piece: Piece, text: bool = True, on_position: Callable[[int], None] | None = None
) -> Iterator[tuple[int, bytes, bool]]:
    """``(line number, raw line or piece of one, ends its line)`` for a byte range that starts and ends at line
    starts: a plain-text file's lines also end at a lone ``\\r`` and come in bounded pieces
    (:func:`wsd.io.textfiles.raw_lines`); JSON lines come whole. ``on_position`` is told the bytes of the range
    read so far before each is yielded."""
    assert piece.stop is not None
    number = piece.first_line
    try:
        with open(piece.path, "rb") as handle:
            handle.seek(piece.start)
            lines = raw_lines(
                handle,
                limit=piece.stop - piece.start,
                lone_cr=text,
                piece_bytes=textfiles.LINE_PIECE_BYTES if text else None,
            )
            for raw, ends in lines:
                if on_position is not None:
                    on_position(handle.tell() - piece.start)
                yield number, raw, ends
                number += ends
    except OSError as exc:
        raise InputError(f"cannot read corpus file {piece.path}: {exc}") from exc


def _text_range_documents(
    piece: Piece, meta: MetaSpec | None = None, on_position: Callable[[int], None] | None = None
) -> Iterator[Document]:
    """As :func:`wsd.corpus.documents._text_documents`, for one byte range."""
    check_text_file_meta(piece.path, meta)
    values = meta.path_values(piece.label) if meta else ()
    decode = _Decoder(Path(piece.path))
    lines = _range_lines(piece, on_position=on_position)
    yield from text_line_documents(_decoded(lines, decode), piece.label, values)
    decode.report()


def _decoded(lines: Iterator[tuple[int, bytes, bool]], decode: _Decoder) -> Iterator[tuple[int, str, bool]]:
    """Decode raw lines and pieces (a byte-order mark is dropped from the start of line 1 only)."""
    starts_line = True
    for number, raw, ends in lines:
        yield number, decode(raw, number if starts_line else None), ends
        starts_line = ends


def _jsonl_range_documents(
    piece: Piece, text_field: str, meta: MetaSpec | None = None, on_position: Callable[[int], None] | None = None
) -> Iterator[Document]:
    """As :func:`wsd.corpus.documents._jsonl_documents`, for one byte range (the same record checks)."""
    file = Path(piece.path)
    decode = _Decoder(file)
    parse = JsonLineParser(file, piece.label, text_field, meta)
    for number, raw, _ in _range_lines(piece, text=False, on_position=on_position):
        document = parse(decode(raw), number)
        if document is not None:
            yield document
    # no check_fields: a range is not the whole file; its records without a field count as missing (a warning)
    decode.report()
    parse.report()


def _parquet_range_documents(piece: Piece, text_field: str, meta: MetaSpec | None = None) -> Iterator[Document]:
    """As :func:`wsd.corpus.documents._parquet_documents`, for row groups ``[start, stop)``."""
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(piece.path)
    except Exception as exc:  # pyarrow raises several types for corrupt files
        raise InputError(f"cannot read Parquet corpus file {piece.path}: {exc}") from exc
    columns = parquet_columns(parquet.schema_arrow, piece.path, text_field, meta.fields if meta else ())
    row = piece.first_line
    groups = list(range(piece.start, piece.stop if piece.stop is not None else parquet.num_row_groups))
    for batch in parquet.iter_batches(batch_size=PARQUET_BATCH_ROWS, row_groups=groups, columns=columns):
        yield from parquet_batch_documents(batch, piece.label, row, text_field, meta)
        row += batch.num_rows
