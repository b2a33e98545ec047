"""Finding a run, its senses and its change folder from any folder of one layout (``wsd change``, ``wsd report``).

The folders wsd writes meet in two layouts (names in :mod:`wsd.io.layout`):

- the output folder of ``wsd run`` / ``wsd demo`` / ``wsd evaluate``: ``OUT/run``, ``OUT/senses``, ``OUT/change``;
- a staged one: a ``wsd embed`` folder ``RUN``, its senses (``RUN/senses`` of ``wsd cluster``, or a folder given
  with ``--senses``) and its change folder (``RUN/change`` of ``wsd change``, or one given with ``--out``).

:func:`find_layout` takes any of these folders (``OUT``, ``OUT/run``, ``OUT/senses``, ``OUT/change``, ``RUN``,
``RUN/senses``, a senses or change folder elsewhere: they record the run they were made from) and returns the
whole :class:`Layout`; an error names the folder the user meant.

>>> find_layout("out/sotu/run").senses          # doctest: +SKIP
PosixPath('out/sotu/senses')
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wsd.errors import InputError
from wsd.io.layout import (
    CHANGE_DIR,
    CHANGE_JSON,
    CONFIG_FILE,
    LABELS_FILE,
    META_FILE,
    METRICS_FILE,
    OCCURRENCES_FILE,
    PARTS_DIR,
    RUN_DIR,
    SENSES_DIR,
    VECTORS_FILE,
)

__all__ = ["Layout", "describe", "find_layout", "folder_kind", "senses_folder"]

#: What to give instead, in words (the end of an error about a folder that is none of wsd's).
WHAT_TO_GIVE = (
    "give the --out folder of `wsd run` (OUT), its run/, or a `wsd embed` folder (with --senses for the senses "
    "of `wsd cluster --out`)"
)


@dataclass(frozen=True)
class Layout:
    """The folders of one layout, found from the one the user gave.

    Parameters
    ----------
    root : Path
        Where the layout's other files are (``metrics.json``, ``gold.parquet``, a report): the output folder of
        ``wsd run``, else the run.
    run : Path
        The run (``wsd embed``'s folder, or ``OUT/run``).
    senses : Path or None
        Its senses folder; None where it has none yet.
    change : Path or None
        Its change folder; None where it has none.
    """

    root: Path
    run: Path
    senses: Path | None = None
    change: Path | None = None


def _is_run(folder: Path) -> bool:
    return (folder / META_FILE).is_file() and any(
        (folder / name).exists() for name in (OCCURRENCES_FILE, VECTORS_FILE, PARTS_DIR)
    )


def _is_output(folder: Path) -> bool:
    """``OUT`` of ``wsd run``: a run in ``run/`` beside what ``wsd run`` writes (a run merely named ``run`` is not)."""
    beside = (SENSES_DIR + "/" + LABELS_FILE, CHANGE_DIR + "/" + CHANGE_JSON, METRICS_FILE, CONFIG_FILE)
    return _is_run(folder / RUN_DIR) and any((folder / name).is_file() for name in beside)


def _is_senses(folder: Path) -> bool:
    return (folder / LABELS_FILE).is_file()


def _is_change(folder: Path) -> bool:
    return (folder / CHANGE_JSON).is_file()


def folder_kind(path: str | os.PathLike[str]) -> str | None:
    """Which of wsd's folders ``path`` is, by what it holds: ``output``, ``run``, ``senses``, ``change`` or None.

    Parameters
    ----------
    path : path
        A folder.

    Returns
    -------
    str or None
        None for a missing path, a file or a folder of none of these kinds.

    Examples
    --------
    >>> folder_kind("no/such/folder") is None
    True
    """
    folder = Path(path)
    if not folder.is_dir():
        return None
    if _is_output(folder):
        return "output"
    if _is_senses(folder):
        return "senses"
    if _is_change(folder):
        return "change"
    if (folder / META_FILE).is_file():  # a run (a damaged one is named by wsd.io.run_reader when it is read)
        return "run"
    return None


def _recorded(file: Path, *keys: str) -> Path | None:
    """A folder path recorded in a JSON file (``meta.json`` of senses: ``run``; ``change.json``: config)."""
    try:
        data: Any = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return Path(data) if isinstance(data, str) and data else None


def _first(candidates: Iterable[Path], test: Any) -> Path | None:
    return next((folder for folder in candidates if test(folder)), None)


def senses_folder(path: str | os.PathLike[str], option: str = "--senses") -> Path:
    """A senses folder given by the user, checked; a run or output folder is answered with its senses' path.

    Parameters
    ----------
    path : path
        The folder given (``--senses``).
    option : str
        The option that named it.

    Returns
    -------
    Path
        ``path``, a senses folder of ``wsd cluster``.

    Raises
    ------
    InputError
        When it is missing or not a senses folder; the message names the senses folder meant, where there is one.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise InputError(f"{option} {folder}: folder not found (a senses folder written by wsd cluster)")
    if _is_senses(folder):
        return folder
    try:
        layout: Layout | None = find_layout(folder, option=option)
    except InputError:
        layout = None
    if layout is not None and layout.senses is not None:
        raise InputError(
            f"{option} {folder} is {describe(folder, layout)}; its senses are in {layout.senses}: "
            f"give {option} {layout.senses}"
        )
    raise InputError(f"{option} {folder}: no {LABELS_FILE} (not a senses folder written by wsd cluster)")


def describe(folder: Path, layout: Layout) -> str:
    """What ``folder`` is in ``layout``, in words (for messages).

    Parameters
    ----------
    folder : Path
        A folder of the layout.
    layout : Layout
        Its layout (:func:`find_layout`).

    Returns
    -------
    str

    Examples
    --------
    >>> describe(Path("out/run"), Layout(Path("out"), Path("out/run")))
    'the run of the `wsd run` output out'
    """
    if folder == layout.change:
        return "a change folder"
    if folder == layout.run and layout.root != layout.run:
        return f"the run of the `wsd run` output {layout.root}"
    if folder == layout.root and layout.root != layout.run:
        return "the output folder of `wsd run`"
    return "a run (wsd embed)"


def find_layout(
    path: str | os.PathLike[str],
    *,
    senses: str | os.PathLike[str] | None = None,
    change: str | os.PathLike[str] | None = None,
    option: str = "--run",
) -> Layout:
    """The run, senses and change folder of the layout that ``path`` belongs to (see the module docstring).

    Where both exist, the senses and change folder nearest the folder given win: ``OUT`` finds ``OUT/senses``
    before ``OUT/run/senses``, ``OUT/run`` the other way round.

    Parameters
    ----------
    path : path
        The output folder of ``wsd run``, its ``run/``, a ``wsd embed`` folder, or a senses or change folder.
    senses : path, optional
        The senses folder, given by the user (checked: :func:`senses_folder`).
    change : path, optional
        The change folder, given by the user (checked: it holds ``change.json``).
    option : str
        The option that named ``path`` (for messages).

    Returns
    -------
    Layout

    Raises
    ------
    InputError
        When ``path`` is missing or none of wsd's folders, or a senses or change folder's run cannot be found;
        the message names the folder meant.

    Examples
    --------
    >>> layout = find_layout("out/sotu")            # doctest: +SKIP
    >>> layout.run, layout.senses, layout.change    # doctest: +SKIP
    (PosixPath('out/sotu/run'), PosixPath('out/sotu/senses'), PosixPath('out/sotu/change'))
    """
    given = Path(path)
    if not given.exists():
        raise InputError(f"{option} {given}: no such folder; {WHAT_TO_GIVE}")
    if not given.is_dir():
        raise InputError(f"{option} {given} is a file, not a folder; {WHAT_TO_GIVE}")
    kind = folder_kind(given)
    chosen_senses = senses_folder(senses) if senses is not None else None
    chosen_change = Path(change) if change is not None else None
    if chosen_change is not None and not _is_change(chosen_change):
        inner = chosen_change / CHANGE_DIR
        meant = f"; its change folder is {inner}: give --change {inner}" if _is_change(inner) else ""
        raise InputError(f"--change {chosen_change}: no {CHANGE_JSON} (not a change folder of wsd change){meant}")
    if kind == "senses":
        chosen_senses = chosen_senses or given
        given = _run_of(given, _recorded(given / META_FILE, "run"), "senses folder", option)
    elif kind == "change":
        chosen_change = chosen_change or given
        recorded_senses = _recorded(given / CHANGE_JSON, "config", "senses")
        if chosen_senses is None and recorded_senses is not None and _is_senses(recorded_senses):
            chosen_senses = recorded_senses
        given = _run_of(given, _recorded(given / CHANGE_JSON, "config", "run"), "change folder", option)
    elif kind is None and folder_kind(given / RUN_DIR) == "run":
        pass  # a `wsd run` output holding only its run/ (interrupted before its senses): given is its root
    elif kind is None:
        folders = sorted(entry for entry in given.iterdir() if entry.is_dir())
        nested = _first(folders, lambda f: folder_kind(f) == "output")
        meant = (
            f"; {nested} is the output folder of `wsd run`: give {option} {nested}" if nested else f"; {WHAT_TO_GIVE}"
        )
        raise InputError(f"{option} {given} holds no wsd run (no {META_FILE}, no {RUN_DIR}/{META_FILE}){meant}")
    if folder_kind(given) == "output" or (kind is None and folder_kind(given / RUN_DIR) == "run"):
        root, run = given, given / RUN_DIR
        near = [root, run]
    elif given.name == RUN_DIR and folder_kind(given.parent) == "output":
        root, run = given.parent, given  # OUT/run of a wsd run output
        near = [run, root]
    else:
        root, run = given, given
        near = [run]
    return Layout(
        root=root,
        run=run,
        senses=chosen_senses or _first([folder / SENSES_DIR for folder in near], _is_senses),
        change=chosen_change or _first([folder / CHANGE_DIR for folder in near], _is_change),
    )


def _run_of(folder: Path, recorded: Path | None, what: str, option: str) -> Path:
    """The run a senses or change folder was made from: its neighbour in the layout, else the one it records."""
    parent = folder.parent
    if folder_kind(parent) in ("output", "run"):
        return parent
    if recorded is not None and folder_kind(recorded) in ("output", "run"):
        return recorded
    where = f" ({recorded}, which holds no run now)" if recorded is not None else ""
    raise InputError(
        f"{option} {folder} is a {what}, but the run it was made from is not found{where}: "
        f"give {option} RUN (the `wsd embed` folder or the output folder of `wsd run`)"
    )
