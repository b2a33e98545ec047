"""Checksum records of the files wsd writes (size and SHA-256), and whether a file or a record still matches.

A folder's ``meta.json`` records the checksum of each file it vouches for (``checksums``, by name); a small JSON
record (a chunk's record, a shard's done-marker) carries a :data:`SEAL`, the fingerprint of the rest of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wsd.errors import InputError
from wsd.io.layout import META_FILE
from wsd.io.manifest import file_sha256
from wsd.io.meta_types import FileRecord
from wsd.io.provenance import config_fingerprint

#: The key of a JSON record (chunk record, shard marker) that holds the fingerprint of the rest of it.
SEAL = "seal"


def file_record(
    path: Path, sha256: str | None = None, *, rows: int | None = None, dim: int | None = None
) -> FileRecord:
    """What a checksum record says of a file: its size and SHA-256 (and, where given, its ``rows`` and ``dim``).

    Parameters
    ----------
    path : Path
        A file just written.
    sha256 : str, optional
        Its checksum when the writer computed it (else the file is read once).
    rows, dim : int, optional
        The rows of a table or matrix, the columns of a matrix.

    Returns
    -------
    FileRecord
        ``{"size": ..., "sha256": ..., "rows": ..., "dim": ...}``.
    """
    record: FileRecord = {"size": path.stat().st_size, "sha256": sha256 or file_sha256(path)}
    if rows is not None:
        record["rows"] = rows
    if dim is not None:
        record["dim"] = dim
    return record


def file_problem(path: Path, record: Any, full: bool = True) -> str | None:
    """What is wrong with a file against its checksum record (:func:`file_record`), or None when it matches.

    Parameters
    ----------
    path : Path
        The file.
    record : dict
        Its record (``size``, ``sha256``).
    full : bool
        Compare the checksum too (reads the file); else only the size.

    Returns
    -------
    str or None
        E.g. ``"missing"``, ``"1024 bytes where 4096 were written (truncated?)"``.
    """
    if not isinstance(record, dict) or not isinstance(record.get("size"), int):
        return "its checksum record is damaged"
    try:
        if not path.is_file():
            return "missing"
        size = path.stat().st_size
        if size != record["size"]:
            return f"{size} bytes where {record['size']} were written (truncated or overwritten)"
        if full and file_sha256(path) != record.get("sha256"):
            return "its bytes do not match the checksum recorded when it was written (damaged)"
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    return None


def sealed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with a :data:`SEAL`: the fingerprint of the rest, so that an edited record is recognised.

    Parameters
    ----------
    record : dict
        JSON-ready data.

    Returns
    -------
    dict

    Examples
    --------
    >>> seal_intact(sealed({"rows": 3}))
    True
    >>> seal_intact({**sealed({"rows": 3}), "rows": 4})
    False
    """
    body = {key: value for key, value in record.items() if key != SEAL}
    return {**body, SEAL: config_fingerprint(body)}


def seal_intact(record: Any) -> bool:
    """Whether a record written by :func:`sealed` is unchanged (one without a seal, of an older wsd, passes).

    Parameters
    ----------
    record : object
        A record read back.

    Returns
    -------
    bool
    """
    if not isinstance(record, dict):
        return False
    if SEAL not in record:
        return True
    return record[SEAL] == config_fingerprint({key: value for key, value in record.items() if key != SEAL})


def check_recorded(path: Path, remedy: str) -> None:
    """Check a file against the checksum its folder's ``meta.json`` records for it (``checksums``, by name).

    Nothing is checked when no checksum is recorded (a folder of an older wsd).

    Parameters
    ----------
    path : Path
        A file wsd wrote (e.g. a senses folder's ``labels.parquet``).
    remedy : str
        What to do when it is damaged (the end of the error).

    Raises
    ------
    InputError
        When the file is missing, has another size, or does not match its checksum (the message names it).
    """
    meta = read_record(path.parent / META_FILE)
    records = meta.get("checksums") if isinstance(meta, dict) else None
    if not isinstance(records, dict) or path.name not in records:
        return
    problem = file_problem(path, records[path.name])
    if problem is not None:
        raise InputError(f"{path}: {problem}; {remedy}")


def read_record(path: Path) -> Any:
    """A small JSON record (a chunk's record, a shard's marker, a ``meta.json``), or None when absent or unreadable.

    Parameters
    ----------
    path : Path
        A JSON file of wsd's bookkeeping.

    Returns
    -------
    object or None
        The parsed JSON.
    """
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return None


def read_sealed(path: Path) -> dict[str, Any] | None:
    """A record written by :func:`sealed` (a chunk's record, a shard's marker), or None when it is not intact.

    Not intact: absent, unreadable, no JSON object, or changed since it was sealed (:func:`seal_intact`).

    Parameters
    ----------
    path : Path
        Where the sealed record was written.

    Returns
    -------
    dict or None

    Examples
    --------
    >>> import tempfile, json
    >>> path = Path(tempfile.mkdtemp()) / "record.json"
    >>> _ = path.write_text(json.dumps(sealed({"rows": 3})), encoding="utf-8")
    >>> read_sealed(path)["rows"]
    3
    >>> _ = path.write_text(json.dumps({**sealed({"rows": 3}), "rows": 4}), encoding="utf-8")
    >>> read_sealed(path) is None
    True
    """
    record = read_record(path)
    return record if isinstance(record, dict) and seal_intact(record) else None
