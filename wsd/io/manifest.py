"""Which files wsd wrote: the manifest every folder wsd creates carries, with each file's size and checksum.

A folder is wsd's only when it holds a manifest (:data:`wsd.io.layout.MANIFEST_FILE`); a file in it is wsd's only
when the manifest lists it and the file still has the size and SHA-256 recorded. Everything else is the user's,
whatever its name, and is never removed or replaced; so is a file wsd wrote and that was changed since.

The manifest is a JSON-lines log, appended to (one ``write`` of one line, ``O_APPEND``), so several processes
writing parts of one run record their files without a lock. Its first line says what the folder is::

    {"format": "wsd-manifest/1", "kind": "run", "created": "2026-12-03T12:00:00+00:00", "pid": 1234, "host": "h"}
    {"path": "notes.txt", "size": 812, "sha256": "9f2c...", "mtime_ns": 1796212800123456789}
    {"path": "parts/part-1.bin", "pending": {"temporary": ".part-1.bin.tmp-77-1a2b3c4d", "size": 4096, ...}}
    {"path": "parts/part-1.bin", "size": 4096, "sha256": "77ab...", "mtime_ns": 1796212801000000000}
    {"path": "parts/part-1.bin", "removed": true}

The last line about a path wins. A line cut short by a killed process is skipped (the file it describes is then
not proven wsd's, which errs on the safe side). A ``pending`` line is written before an atomic write renames its
temporary file into place (:func:`pending`), the final line after: a process killed between the two leaves a file
whose size and modification time are those of the pending line, and it is read as that entry (the file is wsd's,
complete). A pending line that no file matches (killed before the rename) changes nothing. Lines without
``mtime_ns`` (written before it was recorded) are checked by their checksum alone.

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
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO, Literal

from wsd.errors import WsdError
from wsd.io.layout import MANIFEST_FILE, PARTS_DIR, TUNE_CHECKPOINT_DIR

#: The first line's ``format``.
MANIFEST_FORMAT = "wsd-manifest/1"
#: How many folders up from a written file :func:`owner` looks for a manifest (``RUN/parts/x`` is two).
OWNER_DEPTH = 3
#: Bytes read at a time when hashing a file.
_BLOCK = 1 << 20
#: The folders of wsd's own state, by the kind of the folder that holds them: a run's parts (checked against their
#: own checksums when read; a resume drops and redoes a damaged one) and the checkpoint of ``wsd tune`` (loaded
#: only when its checksum is the manifest's). No one's output: wsd rewrites a file there even when it was changed
#: since (damaged); ``--overwrite`` removes a changed one only from the checkpoint (:mod:`wsd.io.outputs`).
INTERNAL_STATE = {"run": PARTS_DIR, "encoder": TUNE_CHECKPOINT_DIR}

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
    mtime_ns : int or None
        Its modification time (nanoseconds) when written: a file of the same size and time is not hashed again
        (None in manifests written before it was recorded: the checksum decides).
    """

    path: str
    size: int
    sha256: str
    mtime_ns: int | None = None


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
    path : str or os.PathLike
        The file to hash.

    Returns
    -------
    str
        The digest in hexadecimal, as :func:`stream_sha256` gives it.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x"
    >>> _ = p.write_bytes(b"")
    >>> file_sha256(p)[:12]
    'e3b0c44298fc'
    """
    with open(path, "rb") as handle:
        return stream_sha256(handle)


def content_sha256(entry: Mapping[str, Any], checksum_key: str = "sha256") -> str:
    """SHA-256 of a JSON-ready entry's content, its own checksum (``checksum_key``) left out; key order does not matter.

    What the caches that check their entries write beside them (the OpenVINO conversion's and the calibration's
    entries), so that an edited entry is recognised.

    Parameters
    ----------
    entry : mapping
        A JSON-ready entry, with or without its checksum.
    checksum_key : str
        The key that holds the checksum.

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> content_sha256({"a": 1}) == content_sha256({"sha256": "x", "a": 1})
    True
    """
    body = {key: value for key, value in entry.items() if key != checksum_key}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def checked_content(entry: object, checksum_key: str = "sha256") -> dict[str, Any]:
    """``entry`` where it is a JSON object whose checksum (``checksum_key``) matches its content; else ValueError.

    What the caches that check their entries (the OpenVINO conversion's and the calibration's) ask of an entry
    they read back, whatever else each asks.

    Parameters
    ----------
    entry : object
        A parsed JSON entry.
    checksum_key : str
        The key that holds the checksum (:func:`content_sha256`).

    Returns
    -------
    dict
        ``entry``.

    Raises
    ------
    ValueError
        Not a JSON object, no checksum, or a content that does not match it (one line, saying which).

    Examples
    --------
    >>> checked_content({"a": 1, "sha256": content_sha256({"a": 1})})["a"]
    1
    >>> checked_content({"a": 2, "sha256": content_sha256({"a": 1})})
    Traceback (most recent call last):
    ...
    ValueError: its content does not match its checksum (edited or damaged)
    """
    if not isinstance(entry, dict):
        raise ValueError("not a JSON object")
    if checksum_key not in entry:
        raise ValueError("no checksum")
    if entry[checksum_key] != content_sha256(entry, checksum_key):
        raise ValueError("its content does not match its checksum (edited or damaged)")
    return entry


def stream_sha256(handle: BinaryIO) -> str:
    """SHA-256 of what is left to read in an open binary file, read in blocks (constant memory).

    Hashing the handle a reader then loads from (after ``seek(0)``) checks the very bytes it loads.

    Parameters
    ----------
    handle : binary file
        Open for reading.

    Returns
    -------
    str
        The digest: 64 hexadecimal digits (``hexdigest()``).

    Examples
    --------
    >>> import io
    >>> stream_sha256(io.BytesIO(b""))[:12]
    'e3b0c44298fc'
    """
    digest = hashlib.sha256()
    while block := handle.read(_BLOCK):
        digest.update(block)
    return digest.hexdigest()


def manifest_path(folder: str | os.PathLike[str]) -> Path:
    """Where the manifest of ``folder`` lies.

    Parameters
    ----------
    folder : str or os.PathLike
        The folder the manifest describes (it need not exist yet).

    Returns
    -------
    Path
        :data:`~wsd.io.layout.MANIFEST_FILE` inside ``folder``.
    """
    return Path(folder) / MANIFEST_FILE


def has_manifest(folder: str | os.PathLike[str]) -> bool:
    """Whether ``folder`` carries a wsd manifest (a file of that name, whatever it holds).

    Parameters
    ----------
    folder : str or os.PathLike
        Any folder (one that does not exist has none).

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
    folder : str or os.PathLike
        The folder whose manifest to read.

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
    waiting: dict[str, Entry] = {}  # pending lines no final line followed (yet)
    for value in records[1:]:
        name = value.get("path")
        if not isinstance(name, str):
            continue
        if value.get("removed"):
            entries.pop(name, None)
            waiting.pop(name, None)
            continue
        if isinstance(value.get("pending"), dict):
            found = _entry(name, value["pending"])
            if found is not None and found.mtime_ns is not None:
                waiting[name] = found
            continue
        found = _entry(name, value)
        if found is not None:
            entries[name] = found
            waiting.pop(name, None)
    for name, found in waiting.items():
        if _renamed(root / name, found):  # killed after the rename, before the final line: the file is this one
            entries[name] = found
    return Manifest(root, str(header.get("kind", "")), header, entries)


def _entry(name: str, value: dict[str, Any]) -> Entry | None:
    """The entry a line describes, or None when its size or checksum is missing or of the wrong type."""
    size, checksum, mtime = value.get("size"), value.get("sha256"), value.get("mtime_ns")
    if not isinstance(size, int) or not isinstance(checksum, str):
        return None
    return Entry(name, size, checksum, mtime if isinstance(mtime, int) and not isinstance(mtime, bool) else None)


def _renamed(target: Path, entry: Entry) -> bool:
    """Whether ``target`` is the file a pending line describes: its size and modification time (a rename keeps it)."""
    try:
        if target.is_symlink() or not target.is_file():
            return False
        found = target.stat()
    except OSError:
        return False
    return found.st_size == entry.size and found.st_mtime_ns == entry.mtime_ns


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


def _near(path: str | os.PathLike[str]) -> tuple[Manifest, str] | None:
    """The manifest that would record ``path`` (:func:`owner`) and ``path``'s name in it; None without one."""
    target = Path(path)
    folder = owner(target)
    found = read(folder) if folder is not None else None
    return (found, _relative(folder, target)) if found is not None and folder is not None else None


def _describe(file: Path, sha256: str | None) -> dict[str, Any]:
    """Size, checksum and modification time of a file wsd has just written (read once when ``sha256`` is None)."""
    found = file.stat()
    checksum = sha256 if sha256 is not None else file_sha256(file)
    return {"size": found.st_size, "sha256": checksum, "mtime_ns": found.st_mtime_ns}


def pending(
    path: str | os.PathLike[str], temporary: str | os.PathLike[str], *, sha256: str | None = None
) -> Entry | None:
    """Record, before an atomic write renames ``temporary`` to ``path``, what ``path`` is about to hold.

    A process killed after the rename and before :func:`record` leaves a file the manifest still proves wsd's:
    its size and modification time are those recorded here (see the module docstring).

    Parameters
    ----------
    path : path
        The file being written.
    temporary : path
        The complete temporary file that will be renamed to ``path``.
    sha256 : str, optional
        Its checksum when the writer already knows it (else the temporary file is read once).

    Returns
    -------
    Entry or None
        What to pass to :func:`record` after the rename; None when no wsd folder holds ``path``.

    Raises
    ------
    ManifestError
        When the manifest cannot be written.
    """
    target = Path(path)
    folder = owner(target)
    if folder is None or target.name == MANIFEST_FILE:
        return None
    name = _relative(folder, target)
    facts = _describe(Path(temporary), sha256)
    _append(manifest_path(folder), {"path": name, "pending": {"temporary": Path(temporary).name, **facts}})
    return Entry(name, facts["size"], facts["sha256"], facts["mtime_ns"])


def record(path: str | os.PathLike[str], *, sha256: str | None = None, entry: Entry | None = None) -> None:
    """Record a file wsd has just written in the manifest of its folder (nothing when it has none).

    Parameters
    ----------
    path : path
        The file, complete (after its atomic rename).
    sha256 : str, optional
        Its checksum when the writer already knows it (else the file is read once).
    entry : Entry, optional
        What :func:`pending` recorded before the rename (then nothing is read).
    """
    target = Path(path)
    folder = owner(target)
    if folder is None or target.name == MANIFEST_FILE:
        return
    name = _relative(folder, target)
    if entry is not None and entry.path == name:
        facts: dict[str, Any] = {"size": entry.size, "sha256": entry.sha256, "mtime_ns": entry.mtime_ns}
    else:
        facts = _describe(target, sha256)
    _append(manifest_path(folder), {"path": name, **facts})


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


def entry_status(folder: str | os.PathLike[str], entry: Entry, *, thorough: bool = False) -> FileStatus:
    """Whether the file an entry describes is still as wsd wrote it.

    A file of the recorded size and modification time is taken as unchanged without reading it, unless
    ``thorough``; any other (and every file of an entry without a time) is compared by its SHA-256.

    Parameters
    ----------
    folder : path
        The manifest's folder.
    entry : Entry
        One of its entries.
    thorough : bool
        Compare the checksum even when size and time match (before a file is trusted, e.g. loaded).

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
        found = target.stat()
        if found.st_size != entry.size:
            return "changed"
        if not thorough and entry.mtime_ns is not None and found.st_mtime_ns == entry.mtime_ns:
            return "match"
        return "match" if file_sha256(target) == entry.sha256 else "changed"
    except OSError:
        return "changed"


def status(path: str | os.PathLike[str], *, thorough: bool = False) -> FileStatus:
    """Whether ``path`` is a file wsd wrote and that is unchanged since.

    Parameters
    ----------
    path : path
        A file.
    thorough : bool
        Compare its checksum even when its size and modification time match the entry (:func:`entry_status`).

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
    return entry_status(folder, entry, thorough=thorough)


def internal(found: Manifest, name: str) -> bool:
    """Whether the file ``name`` of a manifest's folder is wsd's own state (:data:`INTERNAL_STATE`), no output.

    Parameters
    ----------
    found : Manifest
        The manifest of the folder (its kind decides).
    name : str
        The file's path relative to that folder (``/``-separated).

    Returns
    -------
    bool

    Examples
    --------
    >>> model = Manifest(Path("model"), "encoder")
    >>> internal(model, "checkpoint/state.pt"), internal(model, "notes.txt")
    (True, False)
    """
    folder = INTERNAL_STATE.get(found.kind)
    return folder is not None and name.startswith(f"{folder}/")


def is_internal(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` lies in wsd's own state of the wsd folder near it (:func:`internal`).

    Parameters
    ----------
    path : str or os.PathLike
        Any file (a checkpoint, an output, a file of the user's).

    Returns
    -------
    bool
        False outside wsd folders.
    """
    near = _near(path)
    return near is not None and internal(*near)


def listed(path: str | os.PathLike[str]) -> Entry | None:
    """The entry of the manifest near ``path`` that lists it, or None (its bytes are not read).

    Parameters
    ----------
    path : str or os.PathLike
        The file to look up.

    Returns
    -------
    Entry or None
        None when no manifest near it lists it.
    """
    near = _near(path)
    return near[0].entries.get(near[1]) if near is not None else None


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
