"""Which files wsd wrote: the manifest every folder wsd creates carries, with each file's size and checksum.

A folder is wsd's only when it holds a manifest (:data:`wsd.io.layout.MANIFEST_FILE`); a file in it is wsd's only
when the manifest lists it and the file still has the size and SHA-256 recorded. Everything else is the user's,
whatever its name, and is never removed or replaced.

The manifest is a JSON-lines log, appended to (one ``write`` of one line, ``O_APPEND``), so several processes
writing parts of one run record their files without a lock. Its first line says what the folder is::

    {"format": "wsd-manifest/1", "kind": "run", "created": "2026-12-03T12:00:00+00:00", "pid": 1234, "host": "h"}
    {"path": "notes.txt", "size": 812, "sha256": "9f2c..."}
    {"path": "parts/part-1.bin", "size": 4096, "sha256": "77ab..."}
    {"path": "parts/part-1.bin", "removed": true}

The last line about a path wins. A line cut short by a killed process is skipped (the file it describes is then
not proven wsd's, which errs on the safe side).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> start(folder, "run")
>>> _ = (folder / "a.txt").write_text("hello", encoding="utf-8")
>>> record(folder / "a.txt")
>>> status(folder / "a.txt")
'match'
>>> _ = (folder / "a.txt").write_text("edited by hand", encoding="utf-8")
>>> status(folder / "a.txt")
'changed'
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

from wsd.errors import WsdError
from wsd.io.layout import MANIFEST_FILE

#: The first line's ``format``.
MANIFEST_FORMAT = "wsd-manifest/1"
#: How many folders up from a written file :func:`owner` looks for a manifest (``RUN/parts/x`` is two).
OWNER_DEPTH = 3
#: Bytes read at a time when hashing a file.
_BLOCK = 1 << 20

FileStatus = Literal["match", "changed", "missing", "unknown"]


class ManifestError(WsdError):
    """A manifest that cannot be read or written (the message names the file)."""


@dataclass(frozen=True)
class Entry:
    """One file a manifest lists.

    Parameters
    ----------
    path : str
        Its path relative to the manifest's folder (``/``-separated).
    size : int
        Its size in bytes.
    sha256 : str
        Its SHA-256 (hexadecimal).
    """

    path: str
    size: int
    sha256: str


@dataclass
class Manifest:
    """What a folder's manifest says.

    Parameters
    ----------
    folder : Path
        The folder that holds the manifest.
    kind : str
        What wsd wrote the folder as (``run``, ``senses``, ``output``, ``change``, ``report``, ...).
    header : dict
        The first line (format, kind, created, pid, host).
    entries : dict of str to Entry
        The files it lists now (removed ones dropped), by relative path (``/``-separated).
    """

    folder: Path
    kind: str
    header: dict[str, object] = field(default_factory=dict)
    entries: dict[str, Entry] = field(default_factory=dict)


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes, read in blocks (constant memory).

    Parameters
    ----------
    path : path
        A file.

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_bytes(b"")
    >>> file_sha256(p)[:12]
    'e3b0c44298fc'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def manifest_path(folder: str | os.PathLike[str]) -> Path:
    """Where the manifest of ``folder`` lies.

    Parameters
    ----------
    folder : path
        A folder.

    Returns
    -------
    Path
    """
    return Path(folder) / MANIFEST_FILE


def has_manifest(folder: str | os.PathLike[str]) -> bool:
    """Whether ``folder`` carries a wsd manifest (a file of that name, whatever it holds).

    Parameters
    ----------
    folder : path
        A folder.

    Returns
    -------
    bool
    """
    return manifest_path(folder).is_file()


def _append(path: Path, record: dict[str, object]) -> None:
    """Append one JSON line with one ``write`` call (atomic among appenders on a local file system).

    The line starts with a newline too, so a line cut short by a killed writer never swallows the next one.
    """
    line = ("\n" + json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ManifestError(f"cannot write the manifest {path}: {exc.strerror or exc}") from exc
    try:
        os.write(descriptor, line)
    except OSError as exc:
        raise ManifestError(f"cannot write the manifest {path}: {exc.strerror or exc}") from exc
    finally:
        os.close(descriptor)


def start(folder: str | os.PathLike[str], kind: str) -> None:
    """Make ``folder`` (if needed) and give it a manifest of ``kind``; an existing manifest is kept.

    Parameters
    ----------
    folder : path
        The folder wsd is about to write.
    kind : str
        What it writes there.

    Raises
    ------
    ManifestError
        When the folder or its manifest cannot be made.
    """
    root = Path(folder)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ManifestError(f"cannot create the folder {root}: {exc.strerror or exc}") from exc
    path = manifest_path(root)
    if path.exists():
        return
    header: dict[str, object] = {
        "format": MANIFEST_FORMAT,
        "kind": kind,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "pid": os.getpid(),
        "host": socket.gethostname(),
    }
    _append(path, header)


def read(folder: str | os.PathLike[str]) -> Manifest | None:
    """The manifest of ``folder``, or None when it has none.

    Lines that are not JSON objects (a line cut short by a killed process) are skipped.

    Parameters
    ----------
    folder : path
        A folder.

    Returns
    -------
    Manifest or None

    Raises
    ------
    ManifestError
        When the manifest exists but cannot be read, or its first line is not a wsd manifest header.
    """
    root = Path(folder)
    path = manifest_path(root)
    if not path.is_file():
        return None
    try:
        lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    except OSError as exc:
        raise ManifestError(f"cannot read the manifest {path}: {exc.strerror or exc}") from exc
    records = []
    for line in lines:
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            records.append(value)
    if not records or records[0].get("format") != MANIFEST_FORMAT:
        raise ManifestError(f"{path} is not a wsd manifest (its first line is not a {MANIFEST_FORMAT} header)")
    header = records[0]
    entries: dict[str, Entry] = {}
    for value in records[1:]:
        name = value.get("path")
        if not isinstance(name, str):
            continue
        if value.get("removed"):
            entries.pop(name, None)
            continue
        size, checksum = value.get("size"), value.get("sha256")
        if isinstance(size, int) and isinstance(checksum, str):
            entries[name] = Entry(name, size, checksum)
    return Manifest(root, str(header.get("kind", "")), header, entries)


def owner(path: str | os.PathLike[str]) -> Path | None:
    """The folder whose manifest records ``path``: the nearest of its parents (up to :data:`OWNER_DEPTH`) with one.

    Parameters
    ----------
    path : path
        A file wsd writes.

    Returns
    -------
    Path or None
        None when no folder near it carries a manifest (a file outside any wsd folder).
    """
    folder = Path(path).absolute().parent
    for _ in range(OWNER_DEPTH):
        if has_manifest(folder):
            return folder
        if folder.parent == folder:
            return None
        folder = folder.parent
    return None


def _relative(folder: Path, path: Path) -> str:
    return Path(path).absolute().relative_to(folder.absolute()).as_posix()


def record(path: str | os.PathLike[str], *, sha256: str | None = None) -> None:
    """Record a file wsd has just written in the manifest of its folder (nothing when it has none).

    Parameters
    ----------
    path : path
        The file, complete (after its atomic rename).
    sha256 : str, optional
        Its checksum when the writer already knows it (else the file is read once).
    """
    target = Path(path)
    folder = owner(target)
    if folder is None or target.name == MANIFEST_FILE:
        return
    size = target.stat().st_size
    checksum = sha256 if sha256 is not None else file_sha256(target)
    _append(manifest_path(folder), {"path": _relative(folder, target), "size": size, "sha256": checksum})


def forget(path: str | os.PathLike[str]) -> None:
    """Record that wsd removed a file it had written (nothing when no manifest is near).

    Parameters
    ----------
    path : path
        The removed file.
    """
    target = Path(path)
    folder = owner(target)
    if folder is None:
        return
    _append(manifest_path(folder), {"path": _relative(folder, target), "removed": True})


def entry_status(folder: str | os.PathLike[str], entry: Entry) -> FileStatus:
    """Whether the file an entry describes is still as wsd wrote it.

    Parameters
    ----------
    folder : path
        The manifest's folder.
    entry : Entry
        One of its entries.

    Returns
    -------
    {"match", "changed", "missing"}
    """
    target = Path(folder) / entry.path
    if target.is_symlink() or not target.exists():
        return "missing" if not target.is_symlink() else "changed"
    if not target.is_file():
        return "changed"
    try:
        if target.stat().st_size != entry.size:
            return "changed"
        return "match" if file_sha256(target) == entry.sha256 else "changed"
    except OSError:
        return "changed"


def status(path: str | os.PathLike[str]) -> FileStatus:
    """Whether ``path`` is a file wsd wrote and that is unchanged since.

    Parameters
    ----------
    path : path
        A file.

    Returns
    -------
    {"match", "changed", "missing", "unknown"}
        ``unknown``: no manifest near it lists it (so it is not wsd's).
    """
    target = Path(path)
    folder = owner(target)
    if folder is None:
        return "unknown"
    entry = listed(target)
    if entry is None:
        return "unknown"
    return entry_status(folder, entry)


def listed(path: str | os.PathLike[str]) -> Entry | None:
    """The entry of the manifest near ``path`` that lists it, or None (its bytes are not read).

    Parameters
    ----------
    path : path
        A file.

    Returns
    -------
    Entry or None
        None when no manifest near it lists it.
    """
    target = Path(path)
    folder = owner(target)
    found = read(folder) if folder is not None else None
    return found.entries.get(_relative(folder, target)) if found is not None and folder is not None else None


def remove_listed(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove a folder wsd filled (``RUN/parts`` after its parts are joined): only the files a manifest lists.

    A file is removed when the manifest of the wsd folder above it lists it with its present size; anything
    else (a file of the user's, one changed since) is kept, and so are the folders that still hold something.
    Checking sizes, not checksums, keeps this cheap on the many parts of a large run.

    Parameters
    ----------
    folder : path
        A folder inside a wsd folder (or one with a manifest of its own).

    Returns
    -------
    list of Path
        The files kept (empty when the folder is gone).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> start(root, "run")
    >>> from wsd.io.atomic import atomic_write
    >>> atomic_write(root / "parts" / "a.bin", lambda tmp: tmp.write_bytes(b"x"))
    >>> _ = (root / "parts" / "mine.txt").write_text("the user's", encoding="utf-8")
    >>> [path.name for path in remove_listed(root / "parts")]
    ['mine.txt']
    """
    top = Path(folder)
    if not top.is_dir():
        return []
    files = sorted(path for path in top.rglob("*") if path.is_file() or path.is_symlink())
    listed: dict[Path, Manifest | None] = {}
    kept: list[Path] = []
    for path in files:
        root = owner(path)
        if root is not None and root not in listed:
            listed[root] = read(root)
        found = listed.get(root) if root is not None else None
        entry = found.entries.get(_relative(root, path)) if found is not None and root is not None else None
        if entry is None or path.is_symlink() or path.stat().st_size != entry.size:
            kept.append(path)
            continue
        path.unlink()
        forget(path)
    for path in sorted((p for p in top.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        if not any(path.iterdir()):
            path.rmdir()
    if not any(top.iterdir()):
        top.rmdir()
    return kept
