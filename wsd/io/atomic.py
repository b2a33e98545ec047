"""Atomic file writes: a reader never sees half a file, and a failed write leaves nothing behind.

The one implementation every writer of wsd uses (runs, sense models, keys, metrics, configs, reports), and so the
one place of the rule on files already there: in a wsd folder, a file is replaced only when its manifest lists it
and it is unchanged since wsd wrote it. A file of the user's, or one of wsd's that the user changed since (an
edited report, a table with a row added), is never replaced: the command stops and names it.

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
from wsd.io.manifest import is_internal, owner, pending, record, status

#: What the name of a temporary file holds between the target's name and the process's token.
TEMPORARY_INFIX = ".tmp-"


class WriteFailed(WsdError):
    """A file could not be written (disk full, no permission, ...); nothing half-written is left behind."""


def atomic_write(path: str | os.PathLike[str], write: Callable[[Path], Any]) -> str | None:
    """Write ``path`` through ``write(temporary)`` and a rename, so a reader never sees half a file.

    The temporary file lies in the same folder (so the rename is atomic) and is removed on every error
    path; an operating-system error (disk full, no permission) becomes :class:`WriteFailed`. The finished
    file is recorded, with its size, checksum and modification time, in the manifest of the wsd folder it lies
    in (nothing when it lies in no wsd folder): once before the rename (:func:`wsd.io.manifest.pending`), so
    that a process killed right after the rename leaves a file still proven wsd's, and once after
    (:func:`wsd.io.manifest.record`).

    In a wsd folder, a file already at ``path`` is replaced only when the manifest lists it and it is unchanged
    since (:func:`wsd.io.manifest.status`; its size and modification time, else its checksum), or lies in wsd's
    own state (:data:`wsd.io.manifest.INTERNAL_STATE`: a run's parts, a tune checkpoint; changed there means
    damaged, and its readers check it).

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
        When the folder cannot be made, ``path`` is a folder, a file wsd did not write or one changed since it
        wrote it, or writing or renaming fails.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteFailed(f"cannot create the folder {path.parent}: {exc.strerror or exc}") from exc
    if path.is_dir():
        raise WriteFailed(f"cannot write {path}: it is a folder")
    check_replaceable(path)
    # pid and a random token: two processes (on two machines sharing the disk) never share a temporary file
    tmp = path.with_name(f".{path.name}{TEMPORARY_INFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        written = write(tmp)
        checksum = written if isinstance(written, str) else None
        entry = pending(path, tmp, sha256=checksum)  # before the rename: a kill after it leaves a file proven wsd's
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise WriteFailed(f"cannot write {path}: {exc.strerror or exc}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    record(path, sha256=checksum, entry=entry)  # in the manifest of the wsd folder it lies in, if any
    return checksum


def check_replaceable(path: str | os.PathLike[str]) -> None:
    """Refuse to replace a file in a wsd folder unless wsd wrote it and it is unchanged since.

    Nothing is checked outside wsd folders (a path no manifest is near) or where nothing is at ``path``.

    Parameters
    ----------
    path : path
        The file about to be written.

    Raises
    ------
    WriteFailed
        Naming the file and how to go on, when it is not wsd's or was changed since wsd wrote it.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> check_replaceable(pathlib.Path(tempfile.mkdtemp()) / "new.txt")
    """
    target = Path(path)
    if not (target.exists() or target.is_symlink()) or owner(target) is None:
        return
    found = status(target)
    if found == "unknown":
        raise WriteFailed(
            f"{target} is not a file wsd wrote (a file of yours?), so wsd does not replace it: move it out of "
            f"{target.parent}, or write somewhere else"
        )
    if found == "changed" and not is_internal(target):  # wsd's own state (damaged) is checked where it is read
        raise WriteFailed(
            f"{target} was written by wsd and changed since (edited?), so wsd neither replaces nor removes it: "
            "move it away or rename it, then run the command again"
        )
