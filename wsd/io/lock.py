"""One writer per output folder: an advisory lock (``wsd.lock``) held from the claim to the last file.

The lock is :func:`fcntl.flock` on :data:`wsd.io.layout.LOCK_FILE` inside the folder; the file holds the pid and
host of the process holding it. A second wsd process that wants to write the folder is refused at once with
:class:`FolderBusy`, naming that process. The operating system drops the lock when its process ends, however
it ends; a lock file left behind by a killed process is stale: the next writer takes it over and says whose it
was. Locks are re-entrant within a process (a command claims a folder more than once), and worker processes
forked by the holder write inside its lock without taking it.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> with folder_lock(folder):
...     holder(folder) is not None
True
>>> holder(folder) is None
True
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from wsd.errors import ConfigError
from wsd.io.layout import LOCK_FILE

try:  # POSIX; elsewhere folders are not locked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


class FolderBusy(ConfigError):
    """Another wsd process is writing the folder (the message names it)."""


@dataclass
class _Held:
    descriptor: int
    path: Path
    pid: int
    count: int = 1


#: The locks this process holds, by the folder's real path.
_HELD: dict[str, _Held] = {}


def _lock_path(folder: str | os.PathLike[str]) -> Path:
    """Where the lock of ``folder`` lies (:data:`~wsd.io.layout.LOCK_FILE` inside it)."""
    return Path(folder) / LOCK_FILE


def _describe(text: str) -> str:
    """``pid 12 on host h`` from a lock file's text (``pid=12 host=h``)."""
    fields = dict(part.split("=", 1) for part in text.split() if "=" in part)
    if "pid" not in fields:
        return "another process"
    return f"pid {fields['pid']} on host {fields.get('host', '?')}"


def _read(descriptor: int) -> str:
    try:
        return os.pread(descriptor, 4096, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""


def acquire(folder: str | os.PathLike[str], option: str = "--out") -> None:
    """Take the lock of ``folder`` (which must exist) for this process, or raise :class:`FolderBusy` at once.

    Parameters
    ----------
    folder : path
        The folder to write.
    option : str
        The option that names it (for the message).

    Raises
    ------
    FolderBusy
        When another process holds it.
    """
    key = os.path.realpath(folder)
    held = _HELD.get(key)
    if held is not None and held.pid == os.getpid():
        held.count += 1
        return
    path = _lock_path(folder)
    if fcntl is None:  # pragma: no cover
        return
    while True:
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise FolderBusy(f"{option} {folder}: cannot create its lock {path}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            text = _read(descriptor)
            os.close(descriptor)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise FolderBusy(f"{option} {folder}: cannot lock it ({exc.strerror or exc})") from exc
            raise FolderBusy(
                f"{option} {folder} is being written by another wsd process ({_describe(text)}); "
                f"wait until it ends, or use another {option}"
            ) from None
        # the file may have been removed by the holder that released it between our open and our lock
        try:
            same = os.path.samestat(os.fstat(descriptor), os.stat(path))
        except OSError:
            same = False
        if same:
            break
        os.close(descriptor)
    stale = _read(descriptor)
    if stale:
        warnings.warn(
            f"{folder}: took over a stale lock ({_describe(stale)} held it and is gone, e.g. killed)", stacklevel=3
        )
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"pid={os.getpid()} host={socket.gethostname()}\n".encode(), 0)
    _HELD[key] = _Held(descriptor, path, os.getpid())


def release(folder: str | os.PathLike[str]) -> None:
    """Give back one hold of this process on the lock of ``folder``; the last one removes the lock file.

    Parameters
    ----------
    folder : path
        A folder locked with :func:`acquire`.
    """
    key = os.path.realpath(folder)
    held = _HELD.get(key)
    if held is None or held.pid != os.getpid():  # a forked worker never releases its parent's lock
        return
    held.count -= 1
    if held.count > 0:
        return
    del _HELD[key]
    with contextlib.suppress(OSError):  # still locked: a waiting process re-checks the file after locking
        held.path.unlink(missing_ok=True)
    os.close(held.descriptor)


def holds(folder: str | os.PathLike[str]) -> bool:
    """Whether this process holds the lock of ``folder``.

    Parameters
    ----------
    folder : str or os.PathLike
        The folder to ask about.

    Returns
    -------
    bool
    """
    held = _HELD.get(os.path.realpath(folder))
    return held is not None and held.pid == os.getpid()


def holder(folder: str | os.PathLike[str]) -> str | None:
    """Who holds the lock of ``folder`` (``pid 12 on host h``), or None when nobody does.

    Parameters
    ----------
    folder : str or os.PathLike
        The folder to ask about; its lock file is read, not taken.

    Returns
    -------
    str or None
        This process too when it holds the lock.
    """
    if holds(folder):
        return f"pid {os.getpid()} on host {socket.gethostname()}"
    path = _lock_path(folder)
    if fcntl is None or not path.is_file():
        return None
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        text = _read(descriptor)
        os.close(descriptor)
        return _describe(text)
    os.close(descriptor)
    return None


@contextmanager
def folder_lock(folder: str | os.PathLike[str], option: str = "--out") -> Iterator[None]:
    """Hold the lock of ``folder`` for the ``with`` block (see :func:`acquire`).

    Parameters
    ----------
    folder : path
        An existing folder.
    option : str
        The option that names it (for the message).

    Yields
    ------
    None
    """
    acquire(folder, option)
    try:
        yield
    finally:
        release(folder)
