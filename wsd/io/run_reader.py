"""Reading a run: its ``meta.json``, the occurrence table with its row-aligned vectors, and the ``meta.json`` of the
senses induced on it.

The run directory is described in :mod:`wsd.io.run_store`, which writes it. Its ``meta.json`` is checked against
its type (:class:`wsd.io.meta_types.RunMeta`) when it is read, as a senses folder's is
(:class:`~wsd.io.meta_types.SensesMeta`), and every other file against the size and checksum recorded when it was
written (:mod:`wsd.io.run_checks`).

>>> occurrences, X = load_run("runs/x")   # doctest: +SKIP
>>> len(occurrences) == X.shape[0]        # doctest: +SKIP
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, cast

import numpy as np
import pandas as pd
import pyarrow as pa

from wsd.errors import InputError
from wsd.io.layout import (
    CHUNK_RECORD,
    META_FILE,
    OCCURRENCES_FILE,
    OCCURRENCES_PART,
    PARTS_DIR,
    RUN_DIR,
    VECTORS_FILE,
    VECTORS_PART,
    part_glob,
)
from wsd.io.meta_types import RunMeta, SensesMeta, shape_problem
from wsd.io.run_checks import chunk_problem, consolidated_problem, part_key, part_path, read_chunk_record
from wsd.io.textfiles import json_object
from wsd.occurrences import METADATA_DTYPES, type_metadata

#: The storage types of a run's vectors.
VECTOR_DTYPES = ("float16", "float32")
#: A run's ``status`` in its ``meta.json``: finished, or being written (or interrupted).
STATUS_COMPLETE: Final = "complete"
STATUS_RUNNING: Final = "running"
#: What writes a file of a senses folder again (the end of the error that names the damaged or changed file).
REBUILD_SENSES = "run the same `wsd cluster` command again to rebuild it"
#: What to do about a damaged senses folder (the end of the error that names the damaged file).
DAMAGED_SENSES = f"the senses folder is damaged: {REBUILD_SENSES}"
#: What to do about a damaged run (the end of the error that names the damaged file).
DAMAGED_RUN = "the run is damaged: run the same `wsd embed` command again, which embeds the damaged part anew"


def _part_number(path: Path) -> str:
    """``SSSSS-CCCCC`` of a part file (what pairs an occurrence part with its vector part)."""
    return path.name.split(".")[0].split("-", 1)[1]


def read_meta(path: str | os.PathLike[str]) -> RunMeta:
    """The ``meta.json`` of a run directory, checked (:func:`check_run_meta`).

    Parameters
    ----------
    path : path
        A run directory.

    Returns
    -------
    RunMeta
        As the file has it (one written by an earlier wsd may lack keys added since).

    Raises
    ------
    InputError
        When there is no run, or its ``meta.json`` is unreadable, no JSON object, or an entry of it has another
        type than :class:`~wsd.io.meta_types.RunMeta` declares (the message names the entry).
    """
    meta_path = Path(path) / META_FILE
    if not meta_path.is_file():
        if Path(path).is_file():
            raise InputError(f"{path} is a file, not a wsd run directory; create one with `wsd embed`")
        if (Path(path) / RUN_DIR / META_FILE).is_file():  # the output folder of wsd run: name the run meant
            raise InputError(f"{path} is the output folder of `wsd run`; its run is {Path(path) / RUN_DIR}")
        raise InputError(f"{path} is not a wsd run directory (no {META_FILE}); create one with `wsd embed`")
    try:
        text = meta_path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{meta_path}: not UTF-8 text (byte {exc.start}); the run folder is damaged") from exc
    except OSError as exc:
        raise InputError(f"{meta_path}: cannot read it: {exc.strerror or exc}") from exc
    meta = json_object(text, str(meta_path))
    check_run_meta(meta, meta_path)
    return cast(RunMeta, meta)


def read_senses_meta(folder: str | os.PathLike[str]) -> SensesMeta:
    """The ``meta.json`` of a senses folder (``wsd cluster``), checked; empty when the folder has none.

    Parameters
    ----------
    folder : path
        A senses folder.

    Returns
    -------
    SensesMeta
        As the file has it (one written by an earlier wsd, or by ``wsd evaluate``, lacks ``run_fingerprint``).

    Raises
    ------
    InputError
        When the file is unreadable, no JSON object, or an entry of it has another type than
        :class:`~wsd.io.meta_types.SensesMeta` declares (the message names the entry).
    """
    file = Path(folder) / META_FILE
    try:
        meta = json.loads(file.read_text(encoding="utf-8")) if file.is_file() else {}
    except (OSError, ValueError):  # a UnicodeDecodeError is a ValueError
        raise InputError(f"{file}: not a readable senses meta.json") from None
    problem = shape_problem(meta, SensesMeta)
    if problem is not None:
        raise InputError(f"{file}: {problem}; {DAMAGED_SENSES}")
    return cast(SensesMeta, meta)


def _metadata_columns(meta: RunMeta, where: Path) -> dict[str, str]:
    """The run's metadata columns and their dtypes (``metadata_columns`` of ``meta.json``), checked."""
    dtypes = meta.get("metadata_columns") or {}
    if not isinstance(dtypes, dict) or not all(d in METADATA_DTYPES for d in dtypes.values()):
        raise InputError(f"{where}: metadata_columns must map columns to one of {', '.join(METADATA_DTYPES)}")
    return dtypes


def check_run_meta(meta: Mapping[str, Any], where: Path) -> None:
    """Check a run's ``meta.json``: the entries reading the run relies on, then every entry against its type.

    Parameters
    ----------
    meta : mapping
        The run's ``meta.json`` as read.
    where : Path
        The file, for error messages.

    Raises
    ------
    InputError
        Naming the first entry that is wrong (``vector_dtype``, a count, ``embedding``; then any entry of another
        type than :class:`~wsd.io.meta_types.RunMeta` declares).

    Examples
    --------
    >>> check_run_meta({"status": "complete", "dim": 384}, Path("x.json"))
    >>> check_run_meta({"scan": {"documents": "3"}}, Path("x.json"))
    Traceback (most recent call last):
    wsd.errors.InputError: x.json: scan.documents must be a whole number, not '3'
    """
    dtype = meta.get("vector_dtype", "float16")
    if dtype not in VECTOR_DTYPES:
        raise InputError(f"{where}: vector_dtype must be float16 or float32, not {dtype!r}")
    for key in ("n_occurrences", "dim"):
        value = meta.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise InputError(f"{where}: {key} must be a whole number ≥ 0, not {value!r}")
    if not isinstance(meta.get("embedding", {}), dict):
        raise InputError(f"{where}: embedding must be a JSON object, not {type(meta['embedding']).__name__}")
    problem = shape_problem(meta, RunMeta)
    if problem is not None:
        raise InputError(f"{where}: {problem}")


def read_table(path: Path) -> pd.DataFrame:
    """A Parquet table of a run, or a clear error naming the file.

    Parameters
    ----------
    path : Path
        An occurrence table (consolidated or a part).

    Returns
    -------
    DataFrame
    """
    try:
        return pd.read_parquet(path)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise InputError(
            f"{path}: cannot read this Parquet file ({str(exc).splitlines()[0][:120]}); {DAMAGED_RUN}"
        ) from exc


def _read_vectors(path: Path, mmap: bool) -> np.ndarray:
    """A vector file of a run, checked: a 2-D float matrix, or a clear error naming the file."""
    try:
        vectors = np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise InputError(f"{path}: cannot read these vectors ({exc}); {DAMAGED_RUN}") from exc
    if not isinstance(vectors, np.ndarray) or vectors.dtype.kind != "f":
        raise InputError(f"{path}: vectors must be floating point, found dtype {getattr(vectors, 'dtype', '?')}")
    if vectors.ndim != 2:
        raise InputError(f"{path}: vectors must be a 2-D matrix, found shape {vectors.shape}")
    return vectors


def load_run(path: str | os.PathLike[str], mmap: bool = True, verify: bool = True) -> tuple[pd.DataFrame, np.ndarray]:
    """The occurrence table and the row-aligned vectors that ``wsd embed --out PATH`` wrote.

    Vectors are memory-mapped read-only when ``mmap`` (the default) and the store is consolidated; a sharded
    store (parts only) is read part by part and concatenated. Every file is checked against the size
    recorded when it was written and, with ``verify`` (the default), against its SHA-256 (one pass over the
    file, in blocks: memory stays flat); a damaged run is an :class:`InputError` naming the file and saying
    that the same ``wsd embed`` command rebuilds it.

    Parameters
    ----------
    path : path
        A run directory.
    mmap : bool
        Memory-map the vectors of a consolidated run.
    verify : bool
        Compare the checksums too (else only sizes and row counts).

    Returns
    -------
    (DataFrame, ndarray)
        The occurrences and their vectors, row-aligned.

    Examples
    --------
    >>> occurrences, X = load_run("runs/x")   # doctest: +SKIP
    """
    root = Path(path)
    meta = read_meta(root)  # checked
    if (root / VECTORS_FILE).exists() and (root / OCCURRENCES_FILE).exists():
        if meta.get("status", STATUS_COMPLETE) != STATUS_COMPLETE:
            raise InputError(
                f"the run in {root} is not complete (status {meta.get('status')!r}); "
                "run the same `wsd embed` command again to finish it"
            )
        found = consolidated_problem(root, meta, full=verify)
        if found is not None:
            raise InputError(f"{found[0]}: {found[1]}; {DAMAGED_RUN}")
        occurrences = read_table(root / OCCURRENCES_FILE)
        vectors = _read_vectors(root / VECTORS_FILE, mmap)
    else:
        vector_files = sorted((root / PARTS_DIR).glob(part_glob(VECTORS_PART)))
        occurrence_files = sorted((root / PARTS_DIR).glob(part_glob(OCCURRENCES_PART)))
        if meta.get("status") != STATUS_COMPLETE or not vector_files:
            raise InputError(
                f"the run in {root} is not complete (status {meta.get('status')!r}); "
                "run the same `wsd embed` command again to finish it"
            )
        if [_part_number(p) for p in vector_files] != [_part_number(p) for p in occurrence_files]:
            raise InputError(f"{root / PARTS_DIR}: occurrence and vector parts do not pair up")
        for vector_file in vector_files:
            part = part_key(vector_file)
            if verify and part_path(root, CHUNK_RECORD, part).exists():  # a chunk that is done has its record
                found = chunk_problem(root, part, read_chunk_record(root, part) or {})
                if found is not None:
                    raise InputError(f"{found[0]}: {found[1]}; {DAMAGED_RUN}")
        occurrences = pd.concat([read_table(p) for p in occurrence_files], ignore_index=True)
        parts = [_read_vectors(p, mmap=False) for p in vector_files]
        if len({part.shape[1] for part in parts}) > 1:
            raise InputError(f"{root / PARTS_DIR}: vector parts of different widths")
        vectors = np.concatenate(parts)
    if len(occurrences) != vectors.shape[0]:
        raise InputError(f"{root}: {len(occurrences)} occurrences but {vectors.shape[0]} vectors; {DAMAGED_RUN}")
    recorded = meta.get("n_occurrences")
    if isinstance(recorded, int) and recorded != len(occurrences):
        raise InputError(
            f"{root}: it holds {len(occurrences)} occurrences where {recorded} were written; {DAMAGED_RUN}"
        )
    occurrences = type_metadata(occurrences, _metadata_columns(meta, root / META_FILE))
    missing = [column for column in ("id", "target") if column not in occurrences.columns]
    if missing:
        raise InputError(f"{root}: the occurrence table lacks the column(s) {', '.join(missing)}")
    return occurrences, vectors
