"""Whether wsd may write a folder or file: the one check every command that writes makes first.

A folder is wsd's only when it carries a manifest (:mod:`wsd.io.manifest`), which lists every file wsd wrote
there with its size and SHA-256; names mean nothing. A destination is one of:

- absent, or an empty folder → created (and given a manifest);
- a wsd folder of the kind the command writes whose configuration is the same → reused (a run resumes; the
  others are written again); one that a failed command left without a single file is reused too;
- a wsd folder of another kind or configuration → refused, or with ``overwrite=True`` emptied: only the files
  its manifest lists and that are unchanged are removed, and the refusal names any other file (a file of the
  user's inside it, or one of wsd's files edited since) instead of touching it; the one exception is the
  checkpoint of ``wsd tune`` (``OUT/checkpoint``), wsd's own state and no one's output: a file there that the
  manifest lists is removed even when changed since (damaged; it is never loaded then: :mod:`wsd.tune.train`);
- an unfinished folder of another configuration: what a killed ``wsd cluster``, ``wsd change`` or ``wsd tune``
  left before its first checkpoint is wsd's own and redone without ``overwrite``; a run, or a ``wsd tune`` whose
  checkpoint holds the steps trained, is refused like a finished folder, naming the settings that differ;
- a folder without a manifest (someone's files, or the output of a wsd older than manifests), a file where a
  folder is expected → always refused, ``--overwrite`` or not, with one line naming what is there.

A folder is locked (:mod:`wsd.io.lock`) from its claim to the end of the command (:func:`session`); a second
writer is refused at once. ``--out`` may be no input of the command, contain none and lie inside none
(:func:`check_disjoint`).

>>> claim_folder("runs/x", "run", config={"a": 1})   # doctest: +SKIP
'create'
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from wsd.errors import ConfigError, InputError, ModelError
from wsd.io import lock, manifest
from wsd.io.atomic import TEMPORARY_INFIX
from wsd.io.layout import (
    CHANGE_DIR,
    CHANGE_JSON,
    FIGURES_DIR,
    LOCK_FILE,
    MANIFEST_FILE,
    META_FILE,
    METRICS_FILE,
    OCCURRENCES_FILE,
    PARTS_DIR,
    PREDICTED_FILE,
    REPORT_HTML,
    REPORT_MARKDOWN,
    RUN_DIR,
    SENSE_MODEL_FILE,
    SENSES_DIR,
    TUNE_CHECKPOINT_DIR,
    TUNE_CHECKPOINT_STATE,
    TUNE_FILE,
    VECTORS_FILE,
)

RUN_FORMAT = "wsd-run/1"
SENSES_FORMAT = "wsd-senses/1"
CHANGE_FORMAT = "wsd-change/1"
#: Key of the Parquet schema metadata that marks a table wsd wrote (value: what it is).
PARQUET_MARK = b"wsd"
#: The first wsd version whose folders carry a manifest (named in the message about older outputs).
MANIFEST_SINCE = "0.9"

#: The kinds of folder wsd writes, in words.
KIND_NAMES = {
    "run": "a wsd run (wsd embed)",
    "senses": "a wsd senses folder (wsd cluster)",
    "output": "a wsd output folder (wsd run / evaluate / demo)",
    "change": "a wsd change folder (wsd change)",
    "report": "a wsd report",
    "model": "a wsd sense model (the model folder of a senses folder)",
    "encoder": "an encoder folder of wsd tune",
}
REPORT_NAMES = frozenset({REPORT_HTML, REPORT_MARKDOWN, FIGURES_DIR})
#: Names that made a folder look like wsd's before manifests (only to recognise such old outputs).
_OLD_MARKS = frozenset({META_FILE, OCCURRENCES_FILE, VECTORS_FILE, PARTS_DIR, CHANGE_JSON, METRICS_FILE})
#: Kinds a destination of each kind may already be (a report goes into an output folder).
COMPATIBLE = {
    "run": {"run"},
    "senses": {"senses"},
    "output": {"output"},
    "change": {"change"},
    "report": {"report", "output", "change"},
    "model": {"model"},
    "encoder": {"encoder"},
}
#: The file whose presence (listed in the manifest) marks a folder of each kind as finished.
_FINISHED = {
    "run": META_FILE,
    "senses": META_FILE,
    "change": CHANGE_JSON,
    "output": METRICS_FILE,
    "model": SENSE_MODEL_FILE,
    "encoder": TUNE_FILE,
}


class OutputRefused(ConfigError):
    """The destination holds something wsd must not replace (the message says what and how to go on)."""


class NotAsWritten(ConfigError):
    """A file wsd is about to trust is not proven its own: not listed in a manifest, or changed since written.

    Parameters
    ----------
    message : str
        What and where.
    listed : bool
        Whether a manifest lists the file (then its bytes differ from the ones recorded).
    """

    def __init__(self, message: str, *, listed: bool) -> None:
        super().__init__(message)
        self.listed = listed


@dataclass
class Found:
    """What a destination path holds.

    Parameters
    ----------
    path : Path
        The destination.
    kind : str
        ``absent``, ``empty``, ``file``, ``other`` (a folder without a manifest), ``old`` (a folder written by a
        wsd older than manifests) or the kind its manifest names (:data:`KIND_NAMES`).
    meta : dict
        The folder's description (``meta.json`` of a run or senses folder, ``metrics.json`` of an output).
    entries : list of str
        The folder's entries (sorted; wsd's manifest, lock and temporary files left out).
    blank : bool
        A wsd folder in which no file is written yet (a command that failed early left it).
    """

    path: Path
    kind: str
    meta: dict[str, Any] = field(default_factory=dict)
    entries: list[str] = field(default_factory=list)
    blank: bool = False

    def describe(self) -> str:
        """What is there, in words.

        Returns
        -------
        str
        """
        if self.kind == "file":
            return "a file"
        if self.kind in KIND_NAMES:
            return KIND_NAMES[self.kind]
        if self.kind == "old":
            return f"what looks like a wsd output written before manifests (wsd < {MANIFEST_SINCE})"
        shown = ", ".join(self.entries[:4]) + (f" and {len(self.entries) - 4} more" if len(self.entries) > 4 else "")
        return f"a folder of other files ({shown})"


def _read_json_dict(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, or None when it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _temporary(name: str) -> bool:
    """A temporary file of an interrupted atomic write (see :func:`wsd.io.atomic.atomic_write`)."""
    return name.startswith(".") and TEMPORARY_INFIX in name


def _bookkeeping(name: str) -> bool:
    """wsd's own bookkeeping in a folder: its manifest, its lock, temporary files."""
    return name in (MANIFEST_FILE, LOCK_FILE) or _temporary(name)


def _read_manifest(root: Path) -> manifest.Manifest | None:
    try:
        return manifest.read(root)
    except manifest.ManifestError as exc:
        raise OutputRefused(
            f"{exc}; wsd cannot tell which files in {root} it wrote, so it touches none: move the folder away"
        ) from exc


def _has_files(root: Path) -> bool:
    """Whether ``root`` holds a file (or link) other than wsd's bookkeeping, at any depth."""
    for folder, subfolders, files in os.walk(root):
        if any(not _bookkeeping(name) for name in files):
            return True
        if any(Path(folder, name).is_symlink() for name in subfolders):
            return True
    return False


def inspect(path: str | os.PathLike[str]) -> Found:
    """What ``path`` holds: nothing, a file, a kind of wsd folder (by its manifest), or a folder of other files.

    Parameters
    ----------
    path : str or os.PathLike
        A destination a command was given (``--out``), existing or not.

    Returns
    -------
    Found
    """
    root = Path(path)
    if not root.exists() and not root.is_symlink():
        return Found(root, "absent")
    if not root.is_dir():
        return Found(root, "file")
    try:
        entries = sorted(entry.name for entry in root.iterdir() if not _bookkeeping(entry.name))
    except OSError as exc:
        raise OutputRefused(f"cannot read the folder {root}: {exc.strerror or exc}") from exc
    found = _read_manifest(root)
    if found is None:
        if not entries:
            return Found(root, "empty")
        if _looks_old(root, entries):
            return Found(root, "old", {}, entries)
        return Found(root, "other", {}, entries)
    kind = found.kind
    meta = _description(root, kind)
    blank = not any((root / entry.path).exists() for entry in found.entries.values()) and not _has_files(root)
    return Found(root, kind, meta, entries, blank)


def _description(root: Path, kind: str) -> dict[str, Any]:
    """The file that describes a wsd folder of ``kind`` (its configuration), read; empty when it has none yet."""
    if kind == "encoder":  # wsd tune: the finished folder's description, or the checkpoint's while it trains
        for path in (root / TUNE_FILE, root / TUNE_CHECKPOINT_DIR / TUNE_FILE):
            if path.is_file():
                return _read_json_dict(path) or {}
        return {}
    meta_file = {"run": META_FILE, "senses": META_FILE, "change": CHANGE_JSON, "output": METRICS_FILE}.get(kind)
    return (_read_json_dict(root / meta_file) if meta_file else None) or {}


def _looks_old(root: Path, entries: list[str]) -> bool:
    """Whether a folder without a manifest looks like what a wsd older than manifests wrote."""
    if set(entries) & _OLD_MARKS:
        meta = _read_json_dict(root / META_FILE) or _read_json_dict(root / CHANGE_JSON) or {}
        if meta.get("format") in (RUN_FORMAT, SENSES_FORMAT, CHANGE_FORMAT) or {"inducer", "senses"} <= set(meta):
            return True
    return any(
        name in (RUN_DIR, SENSES_DIR, CHANGE_DIR) and _looks_old(root / name, _names(root / name)) for name in entries
    )


def _names(folder: Path) -> list[str]:
    try:
        return sorted(entry.name for entry in folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return []


def differences(old: Any, new: Any, prefix: str = "") -> Iterator[str]:
    """The settings (dotted paths) whose values differ between two JSON-like configurations.

    Parameters
    ----------
    old, new : object
        Two configurations (compared after a JSON round trip, so tuples equal lists).
    prefix : str
        Path of the values compared.

    Yields
    ------
    str
        ``setting: old → new``.
    """
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in sorted(set(old) | set(new), key=str):
            yield from differences(old.get(key), new.get(key), f"{prefix}.{key}" if prefix else str(key))
        return
    if _plain(old) != _plain(new):
        yield f"{prefix or 'configuration'}: {_short(old)} → {_short(new)}"


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------------------------------------- the session
@dataclass
class _Claim:
    path: Path
    kind: str
    made: Path | None  # the topmost folder this claim created (removed again when the command fails early)
    created: bool  # the claim decided "create": what is in the folder was written by this command


@dataclass
class _Session:
    locked: list[Path] = field(default_factory=list)
    claims: list[_Claim] = field(default_factory=list)


_SESSIONS: list[_Session] = []


@contextmanager
def session() -> Iterator[None]:
    """Hold the locks of every folder claimed inside the ``with`` block until it ends (one per command).

    Sessions nest: an inner one (a library function called by a command) joins the outer one. When the block
    fails with an :class:`~wsd.errors.InputError`, :class:`~wsd.errors.ConfigError` or
    :class:`~wsd.errors.ModelError` (bad input, or a ``--model`` that does not load: the user will correct the
    command), the folders it created that hold nothing finished are removed again, so they do not
    block the corrected command; an interruption or a write error keeps them, to resume.

    Yields
    ------
    None

    Examples
    --------
    >>> with session():                                   # doctest: +SKIP
    ...     claim_folder("runs/x", "run")
    'create'
    """
    if _SESSIONS:
        yield
        return
    current = _Session()
    _SESSIONS.append(current)
    try:
        yield
    except (InputError, ConfigError, ModelError):
        _undo(current)
        raise
    finally:
        _SESSIONS.remove(current)
        for folder in reversed(current.locked):
            lock.release(folder)
        for claim in reversed(current.claims):
            if claim.made is not None:
                _remove_empty_folders(claim.path, claim.made)


_Function = TypeVar("_Function", bound=Any)


def in_session(function: _Function) -> _Function:
    """Run ``function`` inside a :func:`session` (joining the caller's): its folders stay locked until it returns.

    Parameters
    ----------
    function : callable
        A function that writes folders (``embed_corpus``, ``cluster_run``, ...).

    Returns
    -------
    callable
        The same function, run inside a session.

    Examples
    --------
    >>> @in_session
    ... def write_something(out): ...
    """

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with session():
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _finished(path: Path, kind: str) -> bool:
    """Whether a folder holds something a corrected command could use (a finished run, senses, change, ...)."""
    found = manifest.read(path) if manifest.has_manifest(path) else None
    if found is None:
        return False
    name = _FINISHED.get(kind)
    if name is not None and name in found.entries and (path / name).exists():
        return kind != "run" or (_read_json_dict(path / META_FILE) or {}).get("status") == "complete"
    if kind == "report" and any((path / entry).exists() for entry in found.entries):
        return True
    if kind != "output":  # a senses folder is finished by its meta.json alone, whatever its model/ holds
        return False
    return any(
        (sub_found := manifest.read(sub)) is not None and _finished(sub, sub_found.kind) for sub in _subfolders(path)
    )


def _subfolders(path: Path) -> list[Path]:
    try:
        return [entry for entry in path.iterdir() if entry.is_dir() and not entry.is_symlink()]
    except OSError:
        return []


def _undo(current: _Session) -> None:
    """Remove what the failed command wrote in the folders it created, where nothing in them is finished."""
    for claim in reversed(current.claims):
        if not claim.created or not claim.path.is_dir():
            continue
        try:
            if _finished(claim.path, claim.kind):
                continue
            plan = _removal_plan(claim.path)
        except (OutputRefused, manifest.ManifestError, OSError):
            continue
        _execute(plan, keep_manifest=False, lenient=True)


def _remove_empty_folders(path: Path, top: Path) -> None:
    """Remove ``path`` and its parents up to ``top`` while they are empty (folders a failed claim made)."""
    folder = path
    while True:
        try:
            if any(folder.iterdir()):
                return
            folder.rmdir()
        except OSError:
            return
        if folder == top or folder.parent == folder:
            return
        folder = folder.parent


# ---------------------------------------------------------------------------------------------- claiming
def claim_folder(
    path: str | os.PathLike[str],
    kind: str,
    *,
    config: Mapping[str, Any] | None = None,
    settings: Any = None,
    overwrite: bool = False,
    option: str = "--out",
    in_place: bool = False,
) -> str:
    """Decide whether the folder ``path`` may be written as a ``kind`` folder; lock it and prepare it if so.

    Inside a :func:`session` the folder stays locked until the session ends; outside one only while deciding.

    Parameters
    ----------
    path : path
        The destination folder.
    kind : {"run", "senses", "output", "change", "report"}
        What the command writes there.
    config : mapping, optional
        The configuration of what will be written, compared with ``settings(found.meta)``; None: not compared.
    settings : callable, optional
        Extracts the comparable configuration from the found folder's description (default: its ``config``).
    overwrite : bool
        Replace a wsd folder of another kind or configuration (only the files its manifest lists and that are
        unchanged are removed; any other file makes it refuse, naming the file).
    option : str
        The command-line option that names the destination (for the message).
    in_place : bool
        Write into an existing input folder (a report beside the outputs it reports on): it is locked and given
        a manifest if it has none, so the files written are recorded; none of its files is ever replaced
        unless wsd wrote it (:func:`wsd.io.atomic.atomic_write` refuses).

    Returns
    -------
    str
        ``"create"`` (nothing of the kind there: write it anew) or ``"reuse"`` (the same kind and
        configuration: resume or write again).

    Raises
    ------
    OutputRefused
        When the destination must not be written (see the module docstring).
    wsd.io.lock.FolderBusy
        When another wsd process is writing it.
    """
    root = Path(path)
    if not in_place:
        _refuse_foreign(inspect(root), kind, option)  # before making anything: nothing is written into such a folder
    made = None
    if not root.exists():
        _check_creatable(root, option)
        made = _topmost_missing(root)
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputRefused(f"{option} {root}: cannot create the folder: {exc.strerror or exc}") from exc
    try:
        lock.acquire(root, option)
    except BaseException:
        if made is not None:
            _remove_empty_folders(root, made)
        raise
    current = _SESSIONS[0] if _SESSIONS else None
    try:
        if in_place:  # a report into the folder it reports on: only new files; replacing one not wsd's is refused
            decision = "reuse"
            manifest.start(root, kind)
        else:
            decision = _decide(inspect(root), kind, config, settings, overwrite, option)
        if decision == "create":
            manifest.start(root, kind)
    except BaseException:
        lock.release(root)
        if made is not None:
            _remove_empty_folders(root, made)
        raise
    if current is None:
        lock.release(root)
    else:
        current.locked.append(root)
        current.claims.append(_Claim(root, kind, made, decision == "create"))
    return decision


def lock_file_folder(path: str | os.PathLike[str], option: str = "--out") -> None:
    """Lock the folder a file is written into when it is a wsd folder (``RUN/predicted.parquet`` locks RUN).

    Inside a :func:`session` the lock is held until the session ends; outside one it is only checked.

    Parameters
    ----------
    path : path
        The file about to be written.
    option : str
        The option that names it (for the message).

    Raises
    ------
    wsd.io.lock.FolderBusy
        When another wsd process is writing that folder.
    """
    folder = Path(path).parent
    if not manifest.has_manifest(folder):
        return
    lock.acquire(folder, option)
    if _SESSIONS:
        _SESSIONS[0].locked.append(folder)
    else:
        lock.release(folder)


def _topmost_missing(path: Path) -> Path:
    top = path
    while not top.parent.exists() and top.parent != top:
        top = top.parent
    return top


def _refuse_foreign(found: Found, kind: str, option: str) -> None:
    """Refuse a file, a folder without a manifest, or an old wsd output: wsd never writes into them."""
    where = f"{option} {found.path}"
    if found.kind == "file":
        raise OutputRefused(f"{where} is an existing file, not a folder; choose a folder for {option}")
    if found.kind == "old":
        raise OutputRefused(
            f"{where} looks like a wsd output written before manifests (wsd < {MANIFEST_SINCE}); it is not touched: "
            f"move it away or delete it yourself, or use another {option}"
        )
    if found.kind == "other":
        raise OutputRefused(
            f"{where} holds {found.describe()}, not {KIND_NAMES[kind]}: wsd writes only into a new or empty folder "
            f"or one it made, and never replaces files it did not write (not even with --overwrite); "
            f"use another {option}"
        )


def _decide(
    found: Found, kind: str, config: Mapping[str, Any] | None, settings: Any, overwrite: bool, option: str
) -> str:
    where = f"{option} {found.path}"
    _refuse_foreign(found, kind, option)
    if found.kind in ("absent", "empty"):
        return "create"
    if found.blank:  # a folder a failed command made and wrote nothing into: start afresh
        if found.kind != kind:
            manifest.manifest_path(found.path).unlink(missing_ok=True)
        return "create"
    if found.kind in COMPATIBLE[kind]:
        if config is None:
            return "reuse"
        old = settings(found.meta) if settings is not None else found.meta.get("config")
        changed = list(differences(old, config))
        if not changed:
            return "reuse"
        # a killed cluster/change left only wsd's own unfinished files: redo them; a run, or a tune whose
        # checkpoint holds the steps trained so far, is never discarded without --overwrite
        unfinished = found.kind != "run" and not _finished(found.path, found.kind) and not _trained(found)
        if not overwrite and not unfinished:
            # a run embedded by PyTorch when it was the default records no runtime (issue 24 made OpenVINO it)
            torch_before = any(".runtime: null" in change for change in changed)
            hint = " (it was embedded with PyTorch: add --runtime torch to resume it)" if torch_before else ""
            if _trained(found) and not _finished(found.path, found.kind):
                hint = " (its training is unfinished: the command with its earlier settings resumes it)"
            raise OutputRefused(
                f"{where} holds {found.describe()} with a different configuration ({'; '.join(changed[:3])}){hint}; "
                f"use another {option}, or --overwrite to replace it"
            )
    elif not overwrite:
        raise OutputRefused(
            f"{where} holds {found.describe()}, not {KIND_NAMES[kind]}; "
            f"use another {option}, or --overwrite to replace it (only files wsd wrote are removed)"
        )
    remove_wsd_files(found.path, option)
    return "create"


def _trained(found: Found) -> bool:
    """Whether a folder of ``wsd tune`` holds a checkpoint (steps trained, which only ``--overwrite`` discards)."""
    checkpoint = found.path / TUNE_CHECKPOINT_DIR / TUNE_CHECKPOINT_STATE
    return found.kind == "encoder" and (checkpoint.exists() or checkpoint.is_symlink())


def _check_creatable(path: Path, option: str) -> None:
    """Refuse a destination under an existing file (its folder could never be created)."""
    for ancestor in path.absolute().parents:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise OutputRefused(f"{option} {path}: {ancestor} is a file, so the folder cannot be made there")
            return


# ---------------------------------------------------------------------------------------------- removing
@dataclass
class _Plan:
    """What removing a wsd folder's files means: the files to remove, the manifests, and what blocks it."""

    root: Path
    files: list[Path] = field(default_factory=list)
    manifests: list[Path] = field(default_factory=list)
    blockers: list[str] = field(default_factory=list)


def _removal_plan(root: Path, plan: _Plan | None = None) -> _Plan:
    """The files of the wsd folder ``root`` (and of the wsd folders nested in it) that may be removed."""
    plan = plan if plan is not None else _Plan(root)
    found = _read_manifest(root)
    if found is None:
        plan.blockers.append(f"{root} (a folder without a wsd manifest)")
        return plan
    plan.manifests.append(root)
    holder = None if lock.holds(root) else lock.holder(root)
    if holder is not None:
        plan.blockers.append(f"{root} (being written by {holder})")
    listed = found.entries
    for name, entry in sorted(listed.items()):
        state = manifest.entry_status(root, entry)
        if state == "match" or (state == "changed" and found.kind == "encoder" and manifest.internal(found, name)):
            plan.files.append(root / name)
        elif state == "changed":
            plan.blockers.append(f"{root / name} (a file wsd wrote, changed since)")
    for folder, subfolders, files in os.walk(root):
        here = Path(folder)
        for name in list(subfolders):
            sub = here / name
            if sub.is_symlink():
                plan.blockers.append(f"{sub} (a link wsd did not make)")
                subfolders.remove(name)
            elif manifest.has_manifest(sub):
                _removal_plan(sub, plan)
                subfolders.remove(name)
        for name in files:
            relative = (here / name).relative_to(root).as_posix()
            if relative in listed:
                continue
            if _temporary(name):
                plan.files.append(here / name)
            elif not (here == root and name in (MANIFEST_FILE, LOCK_FILE)):
                plan.blockers.append(f"{here / name} (not written by wsd)")
    return plan


def _execute(plan: _Plan, *, keep_manifest: bool, lenient: bool = False) -> None:
    """Remove the planned files, then the manifests (unless kept) and the folders left empty below the root."""
    folders: set[Path] = set()
    for path in plan.files:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            if not lenient:
                raise
        folders.update(parent for parent in path.parents if plan.root in parent.parents)
    for folder in plan.manifests:
        if folder != plan.root or not keep_manifest:
            manifest.manifest_path(folder).unlink(missing_ok=True)
        if folder != plan.root:
            folders.add(folder)
            folders.update(parent for parent in folder.parents if plan.root in parent.parents)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):  # not empty: something of the user's, or a folder's lock
            folder.rmdir()


def remove_wsd_files(folder: str | os.PathLike[str], option: str = "--out") -> None:
    """Empty a wsd folder for ``--overwrite``: remove the files its manifest lists and that are unchanged.

    Nested wsd folders (``OUT/run``, ``OUT/senses``, ``OUT/change``) are emptied through their own manifests,
    and the folders left empty are removed. Nothing is removed when anything else is there — a file of the
    user's, a file wsd wrote that was changed since, a folder another process is writing: the refusal names it.
    The checkpoint of ``wsd tune`` is wsd's own state, no one's output: its listed files are removed even when
    changed since (damaged).

    Parameters
    ----------
    folder : path
        A folder with a manifest.
    option : str
        The option that names it (for the message).

    Raises
    ------
    OutputRefused
        When anything but wsd's unchanged files is there; the message names the first such file.

    Examples
    --------
    >>> remove_wsd_files("runs/old")                       # doctest: +SKIP
    """
    root = Path(folder)
    plan = _removal_plan(root)
    if plan.blockers:
        more = f" (and {len(plan.blockers) - 1} more)" if len(plan.blockers) > 1 else ""
        raise OutputRefused(
            f"{option} {root}: --overwrite removes only the files wsd wrote and that are unchanged, and "
            f"{plan.blockers[0]} is not one{more}; nothing was removed: move it out of {root} "
            f"(or delete it yourself), or use another {option}"
        )
    _execute(plan, keep_manifest=False)


# ---------------------------------------------------------------------------------------------- trusted state
@contextmanager
def open_as_written(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a file wsd wrote for reading, only when its bytes are the ones its manifest recorded.

    The checksum is computed on the very handle yielded (rewound), so what is checked is what is read, even if
    the file is replaced meanwhile. For files whose content is trusted, such as a training checkpoint.

    Parameters
    ----------
    path : path
        A file in a wsd folder.

    Yields
    ------
    BinaryIO
        The file, open at its start.

    Raises
    ------
    NotAsWritten
        When no manifest lists the file, or its SHA-256 is not the one recorded.
    OSError
        When it cannot be read.

    Examples
    --------
    >>> with open_as_written("models/m/checkpoint/state.pt") as handle:   # doctest: +SKIP
    ...     data = handle.read()
    """
    target = Path(path)
    entry = manifest.listed(target)
    if entry is None:
        raise NotAsWritten(f"{target} is not listed in the manifest of its wsd folder", listed=False)
    with open(target, "rb") as handle:
        if manifest.stream_sha256(handle) != entry.sha256:
            raise NotAsWritten(f"{target} was written by wsd and changed since", listed=True)
        handle.seek(0)
        yield handle


def discard(path: str | os.PathLike[str]) -> None:
    """Remove a file of wsd's own state and record in its manifest that it is gone (a refused checkpoint).

    Parameters
    ----------
    path : path
        The file (nothing happens when it is absent).

    Examples
    --------
    >>> discard("models/m/checkpoint/state.pt")                         # doctest: +SKIP
    """
    Path(path).unlink(missing_ok=True)
    manifest.forget(path)


# ---------------------------------------------------------------------------------------------- inputs
def check_disjoint(
    out: str | os.PathLike[str] | None,
    inputs: Mapping[str, str | os.PathLike[str] | None],
    *,
    option: str = "--out",
    allowed: Iterable[str | os.PathLike[str]] = (),
) -> None:
    """Refuse an output that is an input, contains one or lies inside one (on resolved paths, links followed).

    Parameters
    ----------
    out : path or None
        The destination (None: nothing to check).
    inputs : mapping
        The inputs by the option that names them (``{"--run": "runs/x"}``); None values are skipped.
    option : str
        The option naming ``out``.
    allowed : iterable of path
        Places inside an input that are the command's own (``RUN/senses`` for ``wsd cluster``), or inputs
        inside the output that are its own record (``OUT/config.toml`` for ``--config``).

    Raises
    ------
    OutputRefused
        Naming the input and the way out.

    Examples
    --------
    >>> check_disjoint("runs/x/senses", {"--run": "runs/x"}, allowed=["runs/x/senses"])
    >>> try:
    ...     check_disjoint("runs", {"--run": "runs/x"})
    ... except OutputRefused as error:
    ...     print(str(error)[:42])
    --out runs contains the --run input runs/x
    """
    if out is None:
        return
    target = Path(os.path.realpath(out))
    exempt = {Path(os.path.realpath(path)) for path in allowed}
    for name, source in inputs.items():
        if source is None:
            continue
        given = Path(os.path.realpath(source))
        if target == given:
            relation = "is the"
        elif target in given.parents and given not in exempt:
            relation = "contains the"
        elif given in target.parents and target not in exempt:
            relation = "lies inside the"
        else:
            continue
        raise OutputRefused(
            f"{option} {out} {relation} {name} input {source}; writing there could replace it: "
            f"choose an {option} outside every input"
        )


def claim_file(path: str | os.PathLike[str], mark: str, *, overwrite: bool = False, option: str = "--out") -> None:
    """Decide whether the Parquet file ``path`` may be written: absent, or a table wsd wrote as ``mark``.

    Parameters
    ----------
    path : path
        The destination file.
    mark : str
        What wsd writes there (recorded in the Parquet metadata under :data:`PARQUET_MARK`).
    overwrite : bool
        Replace a file wsd did not write.
    option : str
        The command-line option that names the destination (for the message).

    Raises
    ------
    OutputRefused
        When ``path`` is a folder, or a file wsd did not write (without ``overwrite``).
    """
    target = Path(path)
    if target.is_dir():
        raise OutputRefused(
            f"{option} {target} is an existing folder, not a file; give a file name such as {target / PREDICTED_FILE}"
        )
    if not target.exists() or overwrite:
        return
    if parquet_mark(target) == mark:
        return
    raise OutputRefused(
        f"{option} {target} is an existing file that wsd did not write; use another {option}, or --overwrite "
        "to replace it"
    )


def parquet_mark(path: str | os.PathLike[str]) -> str | None:
    """The wsd mark of a Parquet file (what wsd wrote it as), or None.

    Parameters
    ----------
    path : str or os.PathLike
        The Parquet file; only its schema is read.

    Returns
    -------
    str or None
        None for a file wsd did not mark, or one that is no Parquet.
    """
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_schema(path).metadata or {}
    except Exception:
        return None
    value = metadata.get(PARQUET_MARK)
    return value.decode("utf-8", "replace") if value is not None else None
