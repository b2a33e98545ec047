"""Whether a run's files are still what was written: the checks that resuming, finishing and reading a run make.

A chunk of a run (:mod:`wsd.io.run_store`) is two files in ``parts/`` and a checksum record written after both;
a consolidated run is ``occurrences.parquet`` and ``vectors.npy`` with their checksums in ``meta.json``. Each
check names the first file that fails and why (a :data:`Problem`), or gives None.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from wsd.io.checksums import SEAL, file_problem, read_sealed, seal_intact
from wsd.io.layout import (
    CHUNK_RECORD,
    OCCURRENCES_FILE,
    OCCURRENCES_PART,
    PARTS_DIR,
    VECTORS_FILE,
    VECTORS_PART,
    part_name,
)
from wsd.io.meta_types import RunMeta

#: A part of a run: ``(shard, chunk)``, the ``chunk``-th block of occurrences of corpus shard ``shard``.
PartKey = tuple[int, int]
#: A file that fails its check, and why.
Problem = tuple[Path, str]


def part_path(root: Path, kind: str, part: PartKey) -> Path:
    """Path of ``part`` of ``kind`` in the run ``root`` (``occ`` → Parquet, ``vec`` → npy, ``sum`` → its record).

    Names sort in corpus order.

    Parameters
    ----------
    root : Path
        The run directory.
    kind : {"occ", "vec", "sum"}
        Occurrences, vectors, or the chunk's checksum record.
    part : (int, int)
        Shard and chunk number.

    Returns
    -------
    Path
    """
    return root / PARTS_DIR / part_name(kind, *part)


def part_key(path: Path) -> PartKey:
    """``(shard, chunk)`` of a part file's name.

    Parameters
    ----------
    path : Path
        A part file.

    Returns
    -------
    (int, int)

    Examples
    --------
    >>> part_key(Path("parts/vec-00002-00013.npy"))
    (2, 13)
    """
    shard, chunk = path.name.split(".")[0].split("-")[1:3]
    return int(shard), int(chunk)


def read_chunk_record(root: Path, part: PartKey) -> dict[str, Any] | None:
    """The checksum record of chunk ``part`` of the run ``root``, or None when it is absent or damaged.

    Parameters
    ----------
    root, part
        The run directory and the chunk, as for :func:`part_path`.

    Returns
    -------
    dict or None
    """
    return read_sealed(part_path(root, CHUNK_RECORD, part))


def _record_damaged(record: dict[str, Any], rows: int | None) -> bool:
    """Whether a chunk's checksum record is unsealed, changed since it was sealed, or counts other than ``rows``."""
    return SEAL not in record or not seal_intact(record) or (rows is not None and record.get("rows") != rows)


def chunk_problem(root: Path, part: PartKey, record: dict[str, Any] | None, rows: int | None = None) -> Problem | None:
    """What is wrong with the files of chunk ``part``: the first that fails, and why; None when both pass.

    With a checksum record, both files must have the recorded size and SHA-256. Without one (a run of
    an older wsd), they must be readable, have ``rows`` rows, and the vectors must be finite.

    Parameters
    ----------
    root, part
        The run directory and the chunk to check, as for :func:`part_path`.
    record : dict or None
        The chunk's checksum record.
    rows : int, optional
        Rows the chunk must have (from its shard's marker).

    Returns
    -------
    (Path, str) or None
    """
    if record is not None:
        if _record_damaged(record, rows):
            return part_path(root, CHUNK_RECORD, part), "its checksum record is damaged"
        for kind in (OCCURRENCES_PART, VECTORS_PART):
            problem = file_problem(part_path(root, kind, part), record.get(kind))
            if problem is not None:
                return part_path(root, kind, part), problem
        return None
    try:
        return _structure_problem(part_path(root, OCCURRENCES_PART, part), part_path(root, VECTORS_PART, part), rows)
    except OSError as exc:
        return part_path(root, VECTORS_PART, part), f"cannot read it ({exc.strerror or exc})"


def chunk_content_problem(root: Path, part: PartKey, record: dict[str, Any] | None, rows: int) -> Problem | None:
    """A finished chunk checked in full before it is joined: checksum and size (with a record), then its content.

    Each file is read once: its bytes are hashed and parsed from memory (a chunk is small).

    Parameters
    ----------
    root, part
        The run directory and the chunk to check, as for :func:`part_path`.
    record : dict or None
        The chunk's checksum record (None: a chunk of an older wsd, checked by its content only).
    rows : int
        Rows its shard's marker records for it.

    Returns
    -------
    (Path, str) or None
        The first file that fails, and why.
    """
    if record is not None and _record_damaged(record, rows):
        return part_path(root, CHUNK_RECORD, part), "its checksum record is damaged"
    contents = {}
    for kind in (OCCURRENCES_PART, VECTORS_PART):
        path = part_path(root, kind, part)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return path, "missing"
        except OSError as exc:
            return path, f"cannot read it ({exc.strerror or exc})"
        if record is not None:
            expected = record.get(kind) or {}
            if len(data) != expected.get("size") or hashlib.sha256(data).hexdigest() != expected.get("sha256"):
                return path, "its bytes do not match the checksum recorded when it was written (damaged)"
        contents[kind] = data
    occurrence_path, vector_path = part_path(root, OCCURRENCES_PART, part), part_path(root, VECTORS_PART, part)
    try:
        count = pq.ParquetFile(pa.BufferReader(contents[OCCURRENCES_PART])).metadata.num_rows
    except (ValueError, pa.ArrowException) as exc:
        return occurrence_path, f"not a readable Parquet file ({str(exc).splitlines()[0][:120]})"
    try:
        vectors = np.load(io.BytesIO(contents[VECTORS_PART]), allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:
        return vector_path, f"not a readable .npy file ({exc})"
    if vectors.ndim != 2 or vectors.dtype.kind != "f":
        return vector_path, f"not a matrix of floats ({vectors.dtype}, shape {vectors.shape})"
    if count != rows or vectors.shape[0] != rows:
        return vector_path, f"{vectors.shape[0]} vectors and {count} occurrences where its marker records {rows}"
    if not np.isfinite(vectors).all():
        return vector_path, "holds NaN or infinite values"
    return None


def consolidated_problem(root: Path, meta: RunMeta, full: bool) -> Problem | None:
    """What is wrong with a consolidated run's two files against the checksums ``meta.json`` records.

    A run written before checksums were recorded is checked for presence only.

    Parameters
    ----------
    root : Path
        The run directory.
    meta : RunMeta
        Its ``meta.json``.
    full : bool
        Compare the checksums too (reads both files); else only the sizes.

    Returns
    -------
    (Path, str) or None
        The first file that fails, and why.
    """
    records = meta.get("checksums")
    for name in (OCCURRENCES_FILE, VECTORS_FILE):
        path = root / name
        if not path.is_file():
            return path, "missing"
        if isinstance(records, dict):
            problem = file_problem(path, records.get(name), full=full)
            if problem is not None:
                return path, problem
    return None


def _structure_problem(occurrence_path: Path, vector_path: Path, rows: int | None) -> Problem | None:
    """A chunk without checksum record: both files readable, with ``rows`` rows, the vectors finite."""
    try:
        count = pq.ParquetFile(occurrence_path).metadata.num_rows
    except FileNotFoundError:
        return occurrence_path, "missing"
    except (ValueError, pa.ArrowException) as exc:
        return occurrence_path, f"not a readable Parquet file ({str(exc).splitlines()[0][:120]})"
    try:
        vectors = np.load(vector_path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        return vector_path, "missing"
    except (ValueError, EOFError) as exc:
        return vector_path, f"not a readable .npy file ({exc})"
    if vectors.ndim != 2 or vectors.dtype.kind != "f":
        return vector_path, f"not a matrix of floats ({vectors.dtype}, shape {vectors.shape})"
    if vectors.shape[0] != count or (rows is not None and count != rows):
        return vector_path, f"{vectors.shape[0]} vectors for {count} occurrences (expected {rows})"
    if not all(np.isfinite(vectors[i : i + 65536]).all() for i in range(0, len(vectors), 65536)):
        return vector_path, "holds NaN or infinite values"
    return None
