"""Atomic writers of JSON, Parquet and ``.npy`` files, each returning the SHA-256 of what it wrote.

The checksum is computed while the bytes are written (no second read), so that a checksum record
(:func:`wsd.io.checksums.file_record`) costs nothing.

>>> write_json(Path("out/meta.json"), {"rows": 3})   # doctest: +SKIP
'9f86d0…'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from wsd.io.atomic import atomic_write
from wsd.io.outputs import PARQUET_MARK


class _HashingWriter:
    """A binary file handle that computes the SHA-256 of what is written through it (no second read)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle
        self.digest = hashlib.sha256()
        self.closed = False

    def write(self, data: Any) -> int:
        self.digest.update(data)
        return self.handle.write(data)

    def flush(self) -> None:
        self.handle.flush()

    def tell(self) -> int:
        return self.handle.tell()

    def close(self) -> None:
        self.closed = True  # the caller closes the file it opened

    def hexdigest(self) -> str:
        return self.digest.hexdigest()


def write_hashed(tmp: Path, write: Any) -> str:
    """``write(handle)`` into ``tmp`` through a :class:`_HashingWriter`; the SHA-256 of what it wrote.

    Parameters
    ----------
    tmp : Path
        The file to write (a temporary name of :func:`wsd.io.atomic.atomic_write`).
    write : callable
        ``write(handle)``: writes the content to a binary file handle.

    Returns
    -------
    str
        The SHA-256 of the bytes written.
    """
    with open(tmp, "wb") as handle:
        writer = _HashingWriter(handle)
        write(writer)
    return writer.hexdigest()


def write_json(path: Path, data: Mapping[str, Any]) -> str:
    """Write JSON atomically (a reader never sees half a file).

    Parameters
    ----------
    path : Path
        The file to write.
    data : dict
        JSON-ready data, a plain dict or a TypedDict (other values are written as strings).

    Returns
    -------
    str
        The SHA-256 of the file written.
    """
    content = (json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n").encode("utf-8")

    def write(tmp: Path) -> str:
        tmp.write_bytes(content)
        return hashlib.sha256(content).hexdigest()

    return write_checked(path, write)


def write_parquet(path: Path, frame: pd.DataFrame | pa.Table, mark: str | None = None) -> str:
    """Write a DataFrame (or an Arrow table) as Parquet atomically.

    Parameters
    ----------
    path : Path
        The file to write.
    frame : DataFrame or pyarrow.Table
        The table (a DataFrame's index is dropped).
    mark : str, optional
        What the table is, recorded in its metadata (:func:`wsd.io.outputs.parquet_mark` reads it back).

    Returns
    -------
    str
        The SHA-256 of the file written (computed while writing it).
    """
    if isinstance(frame, pa.Table):
        table = frame
    else:
        table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    if mark is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), PARQUET_MARK: mark.encode()})
    return write_checked(path, lambda tmp: write_hashed(tmp, lambda handle: pq.write_table(table, handle)))


def write_array(path: Path, array: np.ndarray) -> str:
    """Write a NumPy array as ``.npy`` atomically (never pickled).

    Parameters
    ----------
    path : Path
        The file to write.
    array : ndarray
        The array.

    Returns
    -------
    str
        The SHA-256 of the file written (computed while writing it).
    """

    def write(handle: Any) -> None:
        np.lib.format.write_array(handle, np.ascontiguousarray(array), allow_pickle=False)

    return write_checked(path, lambda tmp: write_hashed(tmp, write))


def write_checked(path: Path, write: Any) -> str:
    """:func:`wsd.io.atomic.atomic_write` of a writer that returns the SHA-256 of what it wrote; that checksum.

    Parameters
    ----------
    path : Path
        The file to write.
    write : callable
        ``write(tmp) -> sha256``.

    Returns
    -------
    str
        The checksum.
    """
    checksum = atomic_write(path, write)
    assert checksum is not None, "the writer returns its checksum"
    return checksum
