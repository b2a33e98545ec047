"""The calibration cache: what ``auto`` measured, one JSON file per model and machine, checked before it is trusted.

An entry (``<hash>.calibration.json`` in :func:`default_cache_dir`, the hash of its key: the machine's fingerprint,
:func:`wsd.machine.fingerprint`, and the model's identity, :func:`model_identity`) holds the fingerprint, the
choice and every candidate's measurement, with the SHA-256 of its content. It is written atomically
(:func:`wsd.io.atomic.atomic_write`); one that is damaged, edited, of another format or fingerprint, or whose
choice is not an agreeing candidate, is not trusted: :func:`read_entry` warns once and the caller measures again.
What is measured, and how, is :mod:`wsd.embed.calibration`.

>>> content_checksum({"runtime": "torch"}) == content_checksum({"sha256": "edited", "runtime": "torch"})
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import warnings
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

from wsd.io.atomic import WriteFailed, atomic_write
from wsd.io.layout import CALIBRATION_ENTRY
from wsd.io.manifest import checked_content
from wsd.io.manifest import content_sha256 as content_checksum

#: The environment variable naming the calibration cache folder.
CACHE_ENV = "WSD_CALIBRATION_CACHE"
#: Bumped when what a cache entry holds or how it is measured changes: older entries are then measured again (the
#: format is part of an entry's key, so an older entry is not even read). 2: only the candidates that could be
#: chosen are compared on every occurrence (``checked``), the others on the warm-up and timed ones.
FORMAT = 2
#: The key of an entry that holds the SHA-256 of the rest of it.
CHECKSUM = "sha256"  # the key content_checksum leaves out (wsd.io.manifest.content_sha256)


def default_cache_dir() -> Path:
    """The calibration cache folder.

    Returns
    -------
    Path
        ``$WSD_CALIBRATION_CACHE`` or ``~/.cache/wsd/calibration``.
    """
    return Path(os.environ.get(CACHE_ENV, Path.home() / ".cache" / "wsd" / "calibration")).expanduser()


def model_identity(model: str | os.PathLike[str] | None) -> dict[str, Any] | None:
    """What identifies a model folder for the calibration, without loading it.

    Parameters
    ----------
    model : str or path, optional
        As :class:`wsd.Encoder` takes it (None: the bundled model).

    Returns
    -------
    dict or None
        ``name`` and ``files`` (a hash of the folder's file names, sizes and modification times); None for a
        Hub model not in the Hugging Face cache yet.
    """
    from wsd.embed import hub
    from wsd.embed.models import model_source

    source = model_source(model)
    folder: Path | None = Path(source.location) if source.local else None
    if not source.local and (snapshot := hub.cached_snapshot(source.location)) is not None:
        folder = snapshot[0]
    if folder is None or not folder.is_dir():
        return None
    digest = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}\0".encode())
    return {"name": source.name, "files": digest.hexdigest()[:20]}


def entry_path(key: Mapping[str, Any], cache_dir: Path, suffix: str = CALIBRATION_ENTRY) -> Path:
    """The cache entry of a fingerprint: ``<cache_dir>/<hash>.calibration.json``.

    Parameters
    ----------
    key : mapping
        The machine's fingerprint and the model's identity.
    cache_dir : Path
        The cache folder.
    suffix : str
        What follows the hash (:data:`~wsd.io.layout.CALIBRATION_LOCK` names the entry's lock).

    Returns
    -------
    Path

    Examples
    --------
    >>> entry_path({"cpu": "x"}, Path("cache")).name.endswith(CALIBRATION_ENTRY)
    True
    """
    digest = hashlib.sha256(json.dumps(dict(key), sort_keys=True, default=str).encode()).hexdigest()[:20]
    return cache_dir / (digest + suffix)


def read_entry(path: Path, key: Mapping[str, Any], allowed: Collection[tuple[str, str]]) -> dict[str, Any] | None:
    """What a cache entry holds, or None: absent, or damaged (then with one warning).

    An entry is trusted only when it is a JSON object of this :data:`FORMAT` whose checksum matches its content,
    whose fingerprint is ``key`` and whose choice (``runtime``, ``precision``) is one of ``allowed`` that it
    lists among its ``candidates`` as agreeing.

    Parameters
    ----------
    path : Path
        The entry (:func:`entry_path`).
    key : mapping
        The fingerprint it must hold.
    allowed : collection of (str, str)
        The ``(runtime, precision)`` candidates of this machine (:func:`wsd.embed.calibration.candidates`).

    Returns
    -------
    dict or None
        The entry (its checksum left in).
    """
    if not path.exists():
        return None
    try:
        entry = checked_content(json.loads(path.read_text(encoding="utf-8")))
        if entry.get("format") != FORMAT:
            raise ValueError(f"format {entry.get('format')!r}, expected {FORMAT}")
        if entry.get("fingerprint") != json.loads(json.dumps(dict(key), default=str)):
            raise ValueError("it was measured for another machine or model")
        chosen = (str(entry["runtime"]), str(entry["precision"]))
        listed = [m for m in entry["candidates"] if (m["runtime"], m["precision"]) == chosen]
        if chosen not in allowed or not listed or listed[0].get("agrees") is not True:
            raise ValueError(f"its choice {' '.join(chosen)} is not an agreeing candidate of this machine")
        for name in ("model", "measured_at"):
            if not isinstance(entry.get(name), str):
                raise ValueError(f"no {name}")
        return entry
    except (OSError, ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError) as error:
        if isinstance(error, KeyError):
            problem = f"no {error.args[0]}"
        else:
            problem = str(error).splitlines()[0] if str(error) else type(error).__name__
        warnings.warn(f"damaged calibration cache entry {path} ({problem}); measuring again", stacklevel=4)
        return None


def write_entry(path: Path, key: Mapping[str, Any], content: Mapping[str, Any]) -> bool:
    """Write a cache entry atomically: this :data:`FORMAT`, the fingerprint, the content and their checksum.

    A failed write is a warning: only the cache is lost (the next encoder measures again).

    Parameters
    ----------
    path : Path
        The entry (:func:`entry_path`).
    key : mapping
        The fingerprint it holds for.
    content : mapping
        What was measured (JSON-ready: ``runtime``, ``precision``, ``candidates``, ``model``, ``measured_at``...).

    Returns
    -------
    bool
        Whether it was written.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "x.json"
    >>> measured = [{"runtime": "torch", "precision": "fp32", "agrees": True}]
    >>> content = {"runtime": "torch", "precision": "fp32", "candidates": measured, "model": "m", "measured_at": "now"}
    >>> write_entry(path, {"cpu": "x"}, content)
    True
    >>> read_entry(path, {"cpu": "x"}, allowed=[("torch", "fp32")])["runtime"]
    'torch'
    """
    entry = json.loads(json.dumps({"format": FORMAT, "fingerprint": dict(key), **content}, default=str))
    text = json.dumps({**entry, CHECKSUM: content_checksum(entry)}, indent=2, ensure_ascii=False) + "\n"
    try:
        atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    except WriteFailed as error:
        warnings.warn(f"calibration cache entry not written: {error}", stacklevel=3)
        return False
    return True


@contextlib.contextmanager
def one_at_a_time(lock: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock`` (POSIX), so processes of one machine measure one after another.

    Parameters
    ----------
    lock : Path
        The lock file (:func:`entry_path` with :data:`~wsd.io.layout.CALIBRATION_LOCK`); made where absent.

    Yields
    ------
    None
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: processes may measure side by side
        yield
        return
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock, "a+")  # noqa: SIM115 - held for the block, closed below
    except OSError:  # an unwritable cache: measure anyway (the entry will not be written either)
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()
