"""Atomic file writes: a reader never sees half a file, and a failed write leaves nothing behind.

The one implementation every writer of wsd uses (runs, sense models, keys, metrics, configs, reports).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
>>> atomic_write(path, lambda tmp: tmp.write_text("done", encoding="utf-8"))
>>> path.read_text(encoding="utf-8")
'done'
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wsd.errors import WsdError
from wsd.io.manifest import listed, owner, record

#: What the name of a temporary file holds between the target's name and the process's token.
TEMPORARY_INFIX = ".tmp-"


class WriteFailed(WsdError):
    """A file could not be written (disk full, no permission, ...); nothing half-written is left behind."""


def atomic_write(path: str | os.PathLike[str], write: Callable[[Path], Any]) -> str | None:
    """Write ``path`` through ``write(temporary)`` and a rename, so a reader never sees half a file.

    The temporary file lies in the same folder (so the rename is atomic) and is removed on every error
    path; an operating-system error (disk full, no permission) becomes :class:`WriteFailed`. The finished
    file is recorded, with its size and checksum, in the manifest of the wsd folder it lies in
    (:func:`wsd.io.manifest.record`; nothing when it lies in no wsd folder).

    Parameters
    ----------
    path : path
        The file to write.
    write : callable
        Writes the whole content into the path it is given. It may return the SHA-256 (hexadecimal) of what
        it wrote, computed while writing, so that the file is not read again to record it.

    Returns
    -------
    str or None
        What ``write`` returned when it is a checksum, else None.

    Raises
    ------
    WriteFailed
        When the folder cannot be made, ``path`` is a folder, or writing or renaming fails.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteFailed(f"cannot create the folder {path.parent}: {exc.strerror or exc}") from exc
    if path.is_dir():
        raise WriteFailed(f"cannot write {path}: it is a folder")
    # a file already there is replaced only when a wsd manifest lists it (listing is enough: no need to hash it)
    if path.exists() and owner(path) is not None and listed(path) is None:
        raise WriteFailed(
            f"{path} is not a file wsd wrote (a file of yours?), so wsd does not replace it: move it out of "
            f"{path.parent}, or write somewhere else"
        )
    # pid and a random token: two processes (on two machines sharing the disk) never share a temporary file
    tmp = path.with_name(f".{path.name}{TEMPORARY_INFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        written = write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise WriteFailed(f"cannot write {path}: {exc.strerror or exc}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    checksum = written if isinstance(written, str) else None
    record(path, sha256=checksum)  # in the manifest of the wsd folder it lies in, if any (wsd.io.manifest)
    return checksum
