"""Whether wsd may write a folder or file: the one check every command that writes makes first.

A destination is one of:

- absent, or an empty folder → created;
- a wsd folder of the kind the command writes (a run, a senses folder, an output folder, a report) whose
  configuration is the same → reused (a run resumes; the others are written again);
- anything else — a folder holding other files, a wsd folder of another kind or another configuration, a
  file where a folder is expected, a folder where a file is expected → refused with
  :class:`OutputRefused`, one line naming what is there and pointing to ``--overwrite``.

With ``overwrite=True`` a wsd folder of another configuration is replaced, and a folder holding other files
is written into: only wsd's own files (the names in :mod:`wsd.layout`) are removed, never anything else.

>>> claim_folder("runs/x", "run", config={"a": 1})   # doctest: +SKIP
'create'
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wsd.atomic import TEMPORARY_INFIX
from wsd.errors import ConfigError
from wsd.layout import (
    CHANGE_CSV,
    CHANGE_DIR,
    CHANGE_JSON,
    CHANGE_TABLES,
    CHANGE_UNMEASURED,
    CONFIG_FILE,
    FIGURES_DIR,
    GOLD_FILE,
    LABELS_FILE,
    META_FILE,
    METRICS_FILE,
    MODEL_DIR,
    MODEL_FOLDER_NAMES,
    OCCURRENCES_FILE,
    PARTS_DIR,
    PER_TARGET_FILE,
    PREDICTED_FILE,
    REPORT_HTML,
    REPORT_MARKDOWN,
    RUN_DIR,
    SENSES_DIR,
    SENSES_FILE,
    SENSES_MARKDOWN,
    TUNE_CHECKPOINT_DIR,
    TUNE_FILE,
    VECTORS_FILE,
)

RUN_FORMAT = "wsd-run/1"
SENSES_FORMAT = "wsd-senses/1"
CHANGE_FORMAT = "wsd-change/1"
#: Key of the Parquet schema metadata that marks a table wsd wrote (value: what it is).
PARQUET_MARK = b"wsd"

#: The kinds of folder wsd writes, in words.
KIND_NAMES = {
    "run": "a wsd run (wsd embed)",
    "senses": "a wsd senses folder (wsd cluster)",
    "output": "a wsd output folder (wsd run / evaluate / demo)",
    "change": "a wsd change folder (wsd change)",
    "report": "a wsd report",
    "model": "a model folder of wsd tune",
}
REPORT_NAMES = frozenset({REPORT_HTML, REPORT_MARKDOWN, FIGURES_DIR})
#: wsd's own names in each kind of folder (the only ones ``overwrite`` removes).
OWN_NAMES = {
    "run": frozenset(
        {META_FILE, OCCURRENCES_FILE, VECTORS_FILE, PARTS_DIR, PREDICTED_FILE, SENSES_DIR, CONFIG_FILE, CHANGE_DIR}
    ),
    "senses": frozenset({MODEL_DIR, LABELS_FILE, SENSES_FILE, SENSES_MARKDOWN, META_FILE, CONFIG_FILE}),
    "output": frozenset(
        {RUN_DIR, SENSES_DIR, METRICS_FILE, PER_TARGET_FILE, GOLD_FILE, CONFIG_FILE, CHANGE_CSV, CHANGE_DIR}
    )
    | REPORT_NAMES,
    "change": frozenset(
        {CHANGE_JSON, CHANGE_UNMEASURED, CONFIG_FILE}
        | {f"{table}.{suffix}" for table in CHANGE_TABLES for suffix in ("parquet", "csv")}
    )
    | REPORT_NAMES,
    "report": REPORT_NAMES,
    "model": MODEL_FOLDER_NAMES,
}
#: Kinds a destination of each kind may already be (a report goes into an output folder).
COMPATIBLE = {
    "run": {"run"},
    "senses": {"senses"},
    "output": {"output"},
    "change": {"change"},
    "report": {"report", "output", "change"},
    "model": {"model"},
}


class OutputRefused(ConfigError):
    """The destination holds something wsd must not replace (the message says what and how to go on)."""


@dataclass
class Found:
    """What a destination path holds.

    Parameters
    ----------
    path : Path
        The destination.
    kind : str
        ``absent``, ``empty``, ``file``, ``other`` (a folder of other files) or a kind of :data:`KIND_NAMES`.
    meta : dict
        The folder's description (``meta.json`` of a run or senses folder, ``metrics.json`` of an output).
    entries : list of str
        The folder's entries (sorted).
    """

    path: Path
    kind: str
    meta: dict[str, Any] = field(default_factory=dict)
    entries: list[str] = field(default_factory=list)

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
        shown = ", ".join(self.entries[:4]) + (f" and {len(self.entries) - 4} more" if len(self.entries) > 4 else "")
        return f"a folder of other files ({shown})"


def _read_json_dict(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, or None when it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _key_files(name: str) -> bool:
    return name.startswith("system.seed") and name.endswith(".key")


def _temporary(name: str) -> bool:
    """A temporary file of an interrupted atomic write (see :func:`wsd.atomic.atomic_write`)."""
    return name.startswith(".") and TEMPORARY_INFIX in name


def inspect(path: str | os.PathLike[str]) -> Found:
    """What ``path`` holds: nothing, a file, a kind of wsd folder, or a folder of other files.

    Parameters
    ----------
    path : path
        A destination.

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
        entries = sorted(entry.name for entry in root.iterdir() if not _temporary(entry.name))
    except OSError as exc:
        raise OutputRefused(f"cannot read the folder {root}: {exc.strerror or exc}") from exc
    if not entries:
        return Found(root, "empty")
    meta = _read_json_dict(root / META_FILE) if META_FILE in entries else None
    if meta is not None and meta.get("format") == RUN_FORMAT and set(entries) <= OWN_NAMES["run"]:
        return Found(root, "run", meta, entries)
    if (
        meta is not None
        and (meta.get("format") == SENSES_FORMAT or {"inducer", "senses"} <= set(meta))
        and set(entries) <= OWN_NAMES["senses"]
    ):
        return Found(root, "senses", meta, entries)
    change = _read_json_dict(root / CHANGE_JSON) if CHANGE_JSON in entries else None
    if change is not None and change.get("format") == CHANGE_FORMAT and set(entries) <= OWN_NAMES["change"]:
        return Found(root, "change", change, entries)
    tuned = next((p for p in (root / TUNE_FILE, root / TUNE_CHECKPOINT_DIR / TUNE_FILE) if p.is_file()), None)
    if tuned is not None and set(entries) <= OWN_NAMES["model"]:
        return Found(root, "model", _read_json_dict(tuned) or {}, entries)
    if set(entries) <= REPORT_NAMES:
        return Found(root, "report", {}, entries)
    if all(name in OWN_NAMES["output"] or _key_files(name) for name in entries):
        subfolders_ok = all(
            inspect(root / name).kind in {"absent", "empty", kind}
            for name, kind in ((RUN_DIR, "run"), (SENSES_DIR, "senses"), (CHANGE_DIR, "change"))
        )
        if subfolders_ok:
            return Found(root, "output", _read_json_dict(root / METRICS_FILE) or {}, entries)
    return Found(root, "other", {}, entries)


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


def claim_folder(
    path: str | os.PathLike[str],
    kind: str,
    *,
    config: Mapping[str, Any] | None = None,
    settings: Any = None,
    overwrite: bool = False,
    option: str = "--out",
) -> str:
    """Decide whether the folder ``path`` may be written as a ``kind`` folder; prepare it if so.

    Parameters
    ----------
    path : path
        The destination folder.
    kind : {"run", "senses", "output", "report"}
        What the command writes there.
    config : mapping, optional
        The configuration of what will be written, compared with ``settings(found.meta)``; None: not compared.
    settings : callable, optional
        Extracts the comparable configuration from the found folder's description (default: its ``config``).
    overwrite : bool
        Replace a wsd folder of another configuration, and write into a folder of other files (only wsd's own
        files are removed).
    option : str
        The command-line option that names the destination (for the message).

    Returns
    -------
    str
        ``"create"`` (nothing of the kind there: write it anew) or ``"reuse"`` (the same kind and
        configuration: resume or write again).

    Raises
    ------
    OutputRefused
        When the destination must not be written (see the module docstring).
    """
    found = inspect(path)
    where = f"{option} {found.path}"
    if found.kind == "file":
        raise OutputRefused(f"{where} is an existing file, not a folder; choose a folder for {option}")
    if found.kind == "absent":
        _check_creatable(found.path, option)
        return "create"
    if found.kind == "empty":
        return "create"
    if found.kind in COMPATIBLE[kind]:
        if config is None:
            return "reuse"
        old = settings(found.meta) if settings is not None else found.meta.get("config")
        changed = list(differences(old, config))
        if not changed:
            return "reuse"
        if not overwrite:
            raise OutputRefused(
                f"{where} holds {found.describe()} with a different configuration ({'; '.join(changed[:3])}); "
                f"use another {option}, or --overwrite to replace it"
            )
        remove_own_files(found.path, found.kind)
        return "create"
    if not overwrite:
        raise OutputRefused(
            f"{where} holds {found.describe()}, not {KIND_NAMES[kind]}; "
            f"use another {option}, or --overwrite to write there (only wsd's own files are replaced)"
        )
    if found.kind in KIND_NAMES:
        remove_own_files(found.path, found.kind)
    remove_own_files(found.path, kind)
    return "create"


def _check_creatable(path: Path, option: str) -> None:
    """Refuse a destination under an existing file (its folder could never be created)."""
    for ancestor in path.absolute().parents:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise OutputRefused(f"{option} {path}: {ancestor} is a file, so the folder cannot be made there")
            return


def remove_own_files(folder: str | os.PathLike[str], kind: str) -> None:
    """Remove wsd's own files of a ``kind`` folder (the names in :mod:`wsd.layout`), nothing else.

    Parameters
    ----------
    folder : path
        The folder.
    kind : str
        Its kind (a key of :data:`OWN_NAMES`).
    """
    root = Path(folder)
    names = set(OWN_NAMES[kind])
    if kind == "output":
        names |= {entry.name for entry in root.iterdir() if _key_files(entry.name)}
    for name in sorted(names):
        target = root / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()


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
    path : path
        A file.

    Returns
    -------
    str or None
    """
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_schema(path).metadata or {}
    except Exception:
        return None
    value = metadata.get(PARQUET_MARK)
    return value.decode("utf-8", "replace") if value is not None else None


def check_not_inside(out: str | os.PathLike[str], source: str | os.PathLike[str], what: str) -> None:
    """Refuse an output folder that is the input folder ``source`` (writing it would destroy the input).

    Parameters
    ----------
    out : path
        The destination.
    source : path
        The input folder.
    what : str
        The input's option, e.g. ``--run``.

    Raises
    ------
    OutputRefused
        When ``out`` and ``source`` are the same folder.
    """
    if Path(out).resolve() == Path(source).resolve():
        raise OutputRefused(f"--out {out} is the {what} folder itself; writing there would replace its files")
