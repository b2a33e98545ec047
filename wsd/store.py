"""The on-disk run store: occurrences as Parquet, row-aligned word vectors as ``.npy``, and ``meta.json``.

A finished run directory holds::

    meta.json            what made it: config, model identity, layers, pooling, dim, corpus fingerprint, versions;
                         ``metadata_columns``: the dtype of each metadata column (``--meta``)
    occurrences.parquet  the occurrence table (see :mod:`wsd.occurrences`), metadata columns typed
    vectors.npy          float16 or float32 matrix, row i = occurrence i; opened memory-mapped

While a run is in progress (or after an interruption) the work lives in ``parts/``: ``shards.json`` (the units of
work), ``occ-SSSSS-CCCCC.parquet`` and ``vec-SSSSS-CCCCC.npy`` (chunk ``C`` of shard ``S``), each written to a
temporary name and renamed when complete, so a part is either whole or absent, and ``shard-SSSSS.json`` once a
shard is done. Occurrence parts hold metadata columns as text (:func:`wsd.occurrences.value_text`), since
their dtype depends on the values of the whole corpus; it is decided when the run is finished, recorded in
``meta.json`` and applied when the parts are joined or read. Re-running the same command reuses every finished
part; a different configuration is refused
instead of being mixed with the old one. A sharded store (parts only, never joined: a run written by a cluster)
reads exactly like a consolidated one.

>>> occurrences, X = load_run("runs/x")   # doctest: +SKIP
>>> len(occurrences) == X.shape[0]        # doctest: +SKIP
True
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from wsd.atomic import atomic_write
from wsd.errors import ConfigError, InputError
from wsd.layout import (
    META_FILE,
    OCCURRENCES_FILE,
    OCCURRENCES_PART,
    PARTS_DIR,
    PLAN_FILE,
    VECTORS_FILE,
    VECTORS_PART,
    marker_name,
    part_glob,
    part_name,
)
from wsd.occurrences import METADATA_DTYPES, type_metadata
from wsd.outputs import PARQUET_MARK, RUN_FORMAT, claim_folder, remove_wsd_files, session

FORMAT = RUN_FORMAT
VECTOR_DTYPES = ("float16", "float32")
STATUS_COMPLETE = "complete"
STATUS_RUNNING = "running"


#: Libraries whose versions a run records: import name -> distribution name.
RECORDED_LIBRARIES = {
    "wsd": "wsd",
    "torch": "torch",
    "transformers": "transformers",
    "tokenizers": "tokenizers",
    "numpy": "numpy",
    "pandas": "pandas",
    "pyarrow": "pyarrow",
    "sklearn": "scikit-learn",
    "hdbscan": "hdbscan",
}


def library_versions() -> dict[str, str]:
    """Versions of Python and the libraries that shape the numbers, for a run's metadata.

    Read from the installed distributions' metadata, without importing them (importing scikit-learn and
    hdbscan alone takes most of a second); a library that is not installed is left out.

    Returns
    -------
    dict
        ``{"python": ..., library: version}``.
    """
    from importlib import metadata

    versions = {"python": platform.python_version()}
    for name, distribution in RECORDED_LIBRARIES.items():
        try:
            versions[name] = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            continue
    return versions


def config_fingerprint(config: dict[str, Any]) -> str:
    """A short hash of a JSON-serialisable configuration (key order does not matter).

    Parameters
    ----------
    config : dict
        The configuration.

    Returns
    -------
    str
        16 hex digits.
    """
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:16]


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write JSON atomically (a reader never sees half a file).

    Parameters
    ----------
    path : Path
        The file to write.
    data : dict
        JSON-ready data (other values are written as strings).
    """

    def write(tmp: Path) -> None:
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")

    atomic_write(path, write)


def write_parquet(path: Path, frame: pd.DataFrame | pa.Table, mark: str | None = None) -> None:
    """Write a DataFrame (or an Arrow table) as Parquet atomically.

    Parameters
    ----------
    path : Path
        The file to write.
    frame : DataFrame or pyarrow.Table
        The table (a DataFrame's index is dropped).
    mark : str, optional
        What the table is, recorded in its metadata (:func:`wsd.outputs.parquet_mark` reads it back).
    """
    if isinstance(frame, pa.Table):
        table = frame
    else:
        table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    if mark is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), PARQUET_MARK: mark.encode()})
    atomic_write(path, lambda tmp: pq.write_table(table, tmp))


def write_array(path: Path, array: np.ndarray) -> None:
    """Write a NumPy array as ``.npy`` atomically (never pickled).

    Parameters
    ----------
    path : Path
        The file to write.
    array : ndarray
        The array.
    """

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.lib.format.write_array(handle, np.ascontiguousarray(array), allow_pickle=False)

    atomic_write(path, write)


#: A part of a run: ``(shard, chunk)``, the ``chunk``-th block of occurrences of corpus shard ``shard``.
PartKey = tuple[int, int]


class RunStore:
    """A run directory being written: parts, shard plan and done-markers, resume bookkeeping, completion.

    ``RunStore.create(path, config, ...)`` opens a directory for a run described by ``config``. If the
    directory already holds a run with the same fingerprint its finished parts are reused; if it holds a
    different run, :class:`ConfigError` is raised unless ``overwrite=True``.

    Parameters
    ----------
    path : path
        The run directory.
    meta : dict
        Its ``meta.json`` (as read or as created).
    """

    def __init__(self, path: Path, meta: dict[str, Any]) -> None:
        self.path = Path(path)
        self.meta = meta

    # -------------------------------------------------------------- opening
    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        config: dict[str, Any],
        vector_dtype: str = "float16",
        overwrite: bool = False,
    ) -> RunStore:
        """Open ``path`` for the run ``config`` (a JSON-ready dict); resume it if it is the same run.

        Parameters
        ----------
        path : path
            The run directory (created when missing).
        config : dict
            Everything that decides the run's contents; its fingerprint identifies the run.
        vector_dtype : {"float16", "float32"}
            Storage type of the vectors.
        overwrite : bool
            Replace a run with a different configuration instead of refusing it.

        Returns
        -------
        RunStore
        """
        if vector_dtype not in VECTOR_DTYPES:
            raise ConfigError(f"vector dtype must be float16 or float32, not {vector_dtype!r}")
        root = Path(path)
        fingerprint = config_fingerprint({"config": config, "vector_dtype": vector_dtype})
        decision = claim_folder(
            root,
            "run",
            config={"config": config, "vector_dtype": vector_dtype},
            settings=lambda meta: {"config": meta.get("config"), "vector_dtype": meta.get("vector_dtype")},
            overwrite=overwrite,
        )
        if decision == "reuse":
            old = read_meta(root)
            if old.get("fingerprint") == fingerprint:
                return cls(root, old)
            # same settings, another fingerprint (a run written by an older version): start it afresh
            remove_wsd_files(root)  # only its own files, unchanged; anything else is named and kept
            claim_folder(root, "run")
        try:
            (root / PARTS_DIR).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the run directory {root}: {exc}") from exc
        meta = {
            "format": FORMAT,
            "status": STATUS_RUNNING,
            "fingerprint": fingerprint,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "config": config,
            "vector_dtype": vector_dtype,
            "versions": library_versions(),
        }
        store = cls(root, meta)
        store.save_meta()
        return store

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> RunStore:
        """The run directory ``path`` as it is on disk (a worker opens the run it writes parts of).

        Parameters
        ----------
        path : path
            A run directory made by :meth:`create`.

        Returns
        -------
        RunStore
        """
        return cls(Path(path), read_meta(path))

    # -------------------------------------------------------------- state
    @property
    def complete(self) -> bool:
        """True when the run finished (consolidated or not).

        Returns
        -------
        bool
        """
        return self.meta.get("status") == STATUS_COMPLETE

    def save_meta(self) -> None:
        """Write ``meta.json``."""
        write_json(self.path / META_FILE, self.meta)

    def part_path(self, kind: str, part: PartKey) -> Path:
        """Path of ``part`` of ``kind`` (``occ`` → Parquet, ``vec`` → npy); names sort in corpus order.

        Parameters
        ----------
        kind : {"occ", "vec"}
            Occurrences or vectors.
        part : (int, int)
            Shard and chunk number.

        Returns
        -------
        Path
        """
        return self.path / PARTS_DIR / part_name(kind, *part)

    def has_part(self, kind: str, part: PartKey) -> bool:
        """Whether ``part`` of ``kind`` was written completely.

        Parameters
        ----------
        kind : {"occ", "vec"}
            Occurrences or vectors.
        part : (int, int)
            Shard and chunk number.

        Returns
        -------
        bool
        """
        return self.part_path(kind, part).exists()

    # -------------------------------------------------------------- writing
    def write_occurrences_part(self, part: PartKey, occurrences: pd.DataFrame) -> None:
        """Store the occurrences of ``part`` (atomically).

        Parameters
        ----------
        part : (int, int)
            Shard and chunk number.
        occurrences : DataFrame
            Its occurrence table.
        """
        write_parquet(self.part_path(OCCURRENCES_PART, part), occurrences)

    def write_vectors_part(self, part: PartKey, vectors: np.ndarray) -> None:
        """Store the vectors of ``part`` (converted to the run's vector dtype); a part is done once it has them.

        Parameters
        ----------
        part : (int, int)
            Shard and chunk number.
        vectors : ndarray
            One row per occurrence of the part.
        """
        write_array(self.part_path(VECTORS_PART, part), vectors.astype(self.meta["vector_dtype"], copy=False))

    # -------------------------------------------------------------- shards
    def read_plan(self) -> list[dict[str, Any]] | None:
        """The shard plan written by :meth:`write_plan` (JSON-ready shards), or None before it.

        Returns
        -------
        list of dict or None
        """
        path = self.path / PARTS_DIR / PLAN_FILE
        if not path.exists():
            return None
        try:
            shards = json.loads(path.read_text(encoding="utf-8"))["shards"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(f"{path}: damaged shard plan ({exc}); embed again with --overwrite") from exc
        if not isinstance(shards, list):
            raise InputError(f"{path}: damaged shard plan (shards is not a list); embed again with --overwrite")
        return shards

    def write_plan(self, shards: list[dict[str, Any]], shard_bytes: int) -> None:
        """Record the run's shards (the units of work) so that a resumed run finds the same ones.

        Parameters
        ----------
        shards : list of dict
            JSON-ready shards (:meth:`wsd.corpus.shards.Shard.to_dict`).
        shard_bytes : int
            The size they were cut to.
        """
        write_json(self.path / PARTS_DIR / PLAN_FILE, {"shard_bytes": shard_bytes, "shards": shards})
        self.meta["shards"] = {"count": len(shards), "shard_bytes": shard_bytes}
        self.save_meta()

    def marker_path(self, shard: int) -> Path:
        """Path of the done-marker of ``shard``.

        Parameters
        ----------
        shard : int
            Shard number.

        Returns
        -------
        Path
        """
        return self.path / PARTS_DIR / marker_name(shard)

    def read_marker(self, shard: int) -> dict[str, Any] | None:
        """What a finished ``shard`` found (its done-marker), or None when it is not done.

        Parameters
        ----------
        shard : int
            Shard number.

        Returns
        -------
        dict or None
        """
        path = self.marker_path(shard)
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:  # cannot happen with atomic writes; treat it as not done
            return None

    def write_marker(self, shard: int, result: dict[str, Any]) -> None:
        """Mark ``shard`` done with what it found (written last, after all its parts).

        Parameters
        ----------
        shard : int
            Shard number.
        result : dict
            JSON-ready summary of the shard.
        """
        write_json(self.marker_path(shard), result)

    # -------------------------------------------------------------- completion
    def finish(self, extra_meta: dict[str, Any] | None = None, consolidate: bool = True) -> None:
        """Check the parts and mark the run complete; with ``consolidate``, join them into one file each.

        Every ``vec-*.npy`` must have its ``occ-*.parquet`` with as many rows; leftover temporary files of
        interrupted writers are removed. Consolidated, the run holds ``occurrences.parquet`` and
        ``vectors.npy`` (streamed, so memory stays flat) and ``parts/`` is removed; otherwise the parts stay
        and :func:`load_run` reads them in name order (a run written by many machines).

        Parameters
        ----------
        extra_meta : dict, optional
            Entries added to ``meta.json`` (e.g. the vectors' ``embedding`` metadata).
        consolidate : bool
            Join the parts into ``occurrences.parquet`` and ``vectors.npy``.
        """
        parts = self.path / PARTS_DIR
        for leftover in [*parts.glob(".*.tmp-*"), *self.path.glob(".*.tmp-*")]:  # of interrupted writers
            leftover.unlink(missing_ok=True)
        vector_files = sorted(parts.glob(part_glob(VECTORS_PART)))
        occurrence_files = sorted(parts.glob(part_glob(OCCURRENCES_PART)))
        if [_part_number(p) for p in vector_files] != [_part_number(p) for p in occurrence_files]:
            raise InputError(f"{parts}: occurrence and vector parts do not pair up; run the same command again")
        rows, dim = 0, 0
        for vector_file, occurrence_file in zip(vector_files, occurrence_files, strict=True):
            shape = np.load(vector_file, mmap_mode="r").shape
            count = pq.ParquetFile(occurrence_file).metadata.num_rows
            if shape[0] != count:
                raise InputError(f"{vector_file}: {shape[0]} vectors for {count} occurrences in {occurrence_file.name}")
            rows, dim = rows + count, shape[1]
        if consolidate:
            self._consolidate(occurrence_files, vector_files, rows, dim)
        self.meta.update(extra_meta or {})
        self.meta.update({"status": STATUS_COMPLETE, "n_occurrences": rows, "dim": dim})
        self.meta["finished"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.save_meta()
        if consolidate:
            shutil.rmtree(parts, ignore_errors=True)

    def _consolidate(self, occurrence_files: list[Path], vector_files: list[Path], rows: int, dim: int) -> None:
        """Join the parts into ``occurrences.parquet`` + ``vectors.npy``."""
        dtype = np.dtype(self.meta["vector_dtype"])

        def join_vectors(tmp: Path) -> None:
            # streamed through a file handle one part at a time, so memory stays flat whatever the run's size
            with open(tmp, "wb") as handle:
                header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": (rows, dim)}
                np.lib.format.write_array_header_2_0(handle, header)
                for file in vector_files:
                    handle.write(np.ascontiguousarray(np.load(file), dtype=dtype).tobytes())

        def join_occurrences(tmp: Path) -> None:
            if not occurrence_files:
                pq.write_table(pa.table({}), tmp)
                return
            dtypes = self.meta.get("metadata_columns") or {}
            if dtypes:  # parts hold metadata as text: written in the dtypes the whole run's values give
                tables = (_typed_part(file, dtypes) for file in occurrence_files)
                first = next(tables)
                schema = _metadata_schema(first.schema, dtypes)
                with pq.ParquetWriter(tmp, schema) as writer:
                    writer.write_table(first.cast(schema))
                    for table in tables:
                        writer.write_table(table.cast(schema))
                return
            schema = pa.unify_schemas([pq.read_schema(p) for p in occurrence_files])
            with pq.ParquetWriter(tmp, schema) as writer:
                for file in occurrence_files:
                    writer.write_table(pq.read_table(file).cast(schema))

        atomic_write(self.path / OCCURRENCES_FILE, join_occurrences)
        atomic_write(self.path / VECTORS_FILE, join_vectors)


def _typed_part(file: Path, dtypes: dict[str, str]) -> pa.Table:
    """An occurrence part with its metadata columns (stored as text) in the run's dtypes."""
    frame = type_metadata(_read_table(file), dtypes)
    return pa.Table.from_pandas(frame, preserve_index=False)


def _metadata_schema(schema: pa.Schema, dtypes: dict[str, str]) -> pa.Schema:
    """``schema`` with text metadata columns as strings (a part where all of them are missing has nulls)."""
    for name, dtype in dtypes.items():
        at = schema.get_field_index(name)
        if dtype == "str" and at >= 0:
            schema = schema.set(at, pa.field(name, pa.large_string()))
    return schema


def write_run(
    path: str | os.PathLike[str],
    occurrences: pd.DataFrame,
    vectors: np.ndarray,
    meta: dict[str, Any],
    vector_dtype: str = "float16",
    overwrite: bool = False,
) -> Path:
    """Write an in-memory occurrence table and its vectors as a complete run directory (``load_run`` reads it).

    Used for datasets, whose occurrences come from a reader rather than a corpus scan.

    Parameters
    ----------
    path : path
        The run directory.
    occurrences : DataFrame
        The occurrence table.
    vectors : ndarray
        One row per occurrence.
    meta : dict
        Entries of ``meta.json`` (e.g. ``config``, ``embedding``).
    vector_dtype : {"float16", "float32"}
        Storage type of the vectors.
    overwrite : bool
        Write into a folder that is not a wsd run (only wsd's own files are replaced).

    Returns
    -------
    Path
        The run directory.
    """
    if len(occurrences) != len(vectors):
        raise InputError(f"{len(occurrences)} occurrences but {len(vectors)} vectors")
    if vector_dtype not in VECTOR_DTYPES:
        raise ConfigError(f"vector dtype must be float16 or float32, not {vector_dtype!r}")
    root = Path(path)
    with session():  # locked until the run is written
        return _write_run(root, occurrences, vectors, meta, vector_dtype, overwrite)


def _write_run(
    root: Path, occurrences: pd.DataFrame, vectors: np.ndarray, meta: dict[str, Any], vector_dtype: str, overwrite: bool
) -> Path:
    claim_folder(root, "run", overwrite=overwrite)
    write_parquet(root / OCCURRENCES_FILE, occurrences)
    write_array(root / VECTORS_FILE, np.asarray(vectors).astype(vector_dtype, copy=False))
    full = {
        "format": FORMAT,
        "status": STATUS_COMPLETE,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "vector_dtype": vector_dtype,
        "versions": library_versions(),
        **meta,
        "n_occurrences": len(occurrences),
        "dim": int(np.asarray(vectors).shape[1]) if len(vectors) else 0,
    }
    write_json(root / META_FILE, full)
    return root


class MappedRows:
    """Some rows of a memory-mapped vector file, by reference: small to pickle, read only when asked.

    What a per-target task carries instead of a copy of the target's vectors, so a map over the targets of a
    run (here or in worker processes) holds one target's rows at a time, never the whole run. It reads like a
    read-only matrix of those rows: ``shape``, ``len``, and ``ref[start:stop]`` or ``ref[positions]`` give an
    in-memory array of the file's dtype. Each read maps the file, copies the rows and unmaps it again, so the
    pages it touched do not stay in the process's resident memory: a pass over a million rows in blocks holds
    one block at a time (a memory map kept open would keep every page it read resident, 768 MB for a million
    384-dim float16 rows).

    Parameters
    ----------
    filename : str
        The ``.npy`` file.
    offset : int
        Byte offset of the data in it.
    dtype : str
        Its element type.
    shape : tuple of int
        Its shape (the whole file's).
    rows : ndarray of int or None
        The rows wanted, in order (None: every row of the file).
    """

    def __init__(self, filename: str, offset: int, dtype: str, shape: tuple[int, ...], rows: np.ndarray | None) -> None:
        self.filename, self.offset, self.dtype, self.file_shape = filename, offset, dtype, tuple(shape)
        self.rows = None if rows is None else np.asarray(rows, dtype=np.int64)

    def __len__(self) -> int:
        return int(self.file_shape[0]) if self.rows is None else len(self.rows)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, dim)`` of the referenced rows.

        Returns
        -------
        tuple of int
        """
        return (len(self), int(self.file_shape[1]))

    @property
    def ndim(self) -> int:
        """2: the rows form a matrix.

        Returns
        -------
        int
        """
        return 2

    def _map(self) -> np.memmap:
        try:
            return np.memmap(self.filename, dtype=self.dtype, mode="r", offset=self.offset, shape=self.file_shape)
        except OSError as exc:
            raise InputError(
                f"{self.filename}: cannot read the run's vectors here ({exc.strerror or exc}); a worker must "
                "reach the run folder at the same path"
            ) from None

    def _read(self, positions: np.ndarray | slice) -> np.ndarray:
        """File rows (a slice of the file, or row numbers) copied into memory through a map closed afterwards."""
        mapped = self._map()
        if isinstance(positions, np.ndarray) and len(positions) > 1:
            first, last = int(positions[0]), int(positions[-1])
            if last - first + 1 == len(positions) and bool(np.all(np.diff(positions) == 1)):
                positions = slice(first, last + 1)  # consecutive rows: one contiguous copy
        block = np.array(mapped[positions]) if isinstance(positions, slice) else np.asarray(mapped[positions])
        del mapped  # unmaps the file: its pages leave this process's resident memory
        return block

    def load(self) -> np.ndarray:
        """The rows as an in-memory array (of the file's dtype).

        Returns
        -------
        ndarray of shape (len(rows), dim)
        """
        return self._read(slice(None) if self.rows is None else self.rows)

    def __getitem__(self, key: slice | np.ndarray | list[int]) -> np.ndarray:
        """Some of the referenced rows, in memory: a slice (step 1) or an array of positions (or a mask).

        Parameters
        ----------
        key : slice or array of int or bool
            Positions among the referenced rows.

        Returns
        -------
        ndarray of shape (selected, dim)
        """
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step != 1:
                raise InputError(f"rows of a vector file are read with a step of 1, not {step}")
            if self.rows is None:
                return self._read(slice(start, stop))
            return self._read(self.rows[start:stop])
        positions = np.arange(len(self))[key] if self.rows is None else self.rows[key]
        return self._read(np.asarray(positions, dtype=np.int64).reshape(-1))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """The rows as an ndarray (``np.asarray(ref)``): :meth:`load`, converted to ``dtype``.

        Parameters
        ----------
        dtype : dtype, optional
            The wanted type.
        copy : bool, optional
            Ignored (the rows are always read into a new array).

        Returns
        -------
        ndarray
        """
        rows = self.load()
        return rows if dtype is None else rows.astype(dtype, copy=False)

    def subset(self, positions: np.ndarray) -> MappedRows:
        """A reference to some of these rows (``positions`` among them), still unread.

        Parameters
        ----------
        positions : ndarray of int
            Positions among the referenced rows.

        Returns
        -------
        MappedRows
        """
        positions = np.asarray(positions, dtype=np.int64)
        rows = positions if self.rows is None else self.rows[positions]
        return MappedRows(self.filename, self.offset, self.dtype, self.file_shape, rows)


def _whole_map(vectors: Any) -> bool:
    """Whether ``vectors`` is a read-only memory map of a whole ``.npy`` file's data (what ``load_run`` gives)."""
    import mmap

    # only a map of the whole file (a view of one has the file's offset but not its own shape's start)
    whole = isinstance(vectors, np.memmap) and isinstance(vectors.base, mmap.mmap) and vectors.mode == "r"
    return bool(whole and vectors.filename and vectors.flags.c_contiguous)


def select_rows(vectors: np.ndarray | MappedRows, rows: np.ndarray) -> np.ndarray | MappedRows:
    """``vectors[rows]``, or a :class:`MappedRows` reference to them when ``vectors`` is a read-only memory map.

    Parameters
    ----------
    vectors : ndarray, numpy.memmap or MappedRows
        A matrix (``load_run`` memory-maps a consolidated run's vectors).
    rows : ndarray of int
        Row positions.

    Returns
    -------
    ndarray or MappedRows
    """
    if isinstance(vectors, MappedRows):
        return vectors.subset(rows)
    if _whole_map(vectors):
        return MappedRows(str(vectors.filename), int(vectors.offset), vectors.dtype.str, vectors.shape, rows)
    return vectors[rows]


def row_source(vectors: Any) -> Any:
    """What to read blocks of rows from: a :class:`MappedRows` of every row of a memory-mapped run, else ``vectors``.

    A pass over ``row_source(X)[start:stop]`` blocks keeps one block in memory at a time even when ``X`` is the
    memory map of a large run (whose pages would otherwise stay resident as they are read).

    Parameters
    ----------
    vectors : ndarray, numpy.memmap or MappedRows
        A matrix.

    Returns
    -------
    ndarray or MappedRows
    """
    if _whole_map(vectors):
        return MappedRows(str(vectors.filename), int(vectors.offset), vectors.dtype.str, vectors.shape, None)
    return vectors


def rows_of(item: np.ndarray | MappedRows) -> np.ndarray:
    """The array behind what :func:`select_rows` returned.

    Parameters
    ----------
    item : ndarray or MappedRows
        Rows or a reference to them.

    Returns
    -------
    ndarray
    """
    return item.load() if isinstance(item, MappedRows) else item


def _part_number(path: Path) -> str:
    """``SSSSS-CCCCC`` of a part file (what pairs an occurrence part with its vector part)."""
    return path.name.split(".")[0].split("-", 1)[1]


def read_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The ``meta.json`` of a run directory.

    Parameters
    ----------
    path : path
        A run directory (or any folder with a ``meta.json``).

    Returns
    -------
    dict
    """
    meta_path = Path(path) / META_FILE
    if not meta_path.is_file():
        if Path(path).is_file():
            raise InputError(f"{path} is a file, not a wsd run directory; create one with `wsd embed`")
        raise InputError(f"{path} is not a wsd run directory (no {META_FILE}); create one with `wsd embed`")
    try:
        text = meta_path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{meta_path}: not UTF-8 text (byte {exc.start}); the run folder is damaged") from exc
    except OSError as exc:
        raise InputError(f"{meta_path}: cannot read it: {exc.strerror or exc}") from exc
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{meta_path}: not valid JSON (line {exc.lineno})") from exc
    if not isinstance(meta, dict):
        raise InputError(f"{meta_path}: expected a JSON object, found a {type(meta).__name__}")
    return meta


def _metadata_columns(meta: dict[str, Any], where: Path) -> dict[str, str]:
    """The run's metadata columns and their dtypes (``metadata_columns`` of ``meta.json``), checked."""
    dtypes = meta.get("metadata_columns") or {}
    if not isinstance(dtypes, dict) or not all(d in METADATA_DTYPES for d in dtypes.values()):
        raise InputError(f"{where}: metadata_columns must map columns to one of {', '.join(METADATA_DTYPES)}")
    return dtypes


def check_run_meta(meta: dict[str, Any], where: Path) -> None:
    """Check the entries of a run's ``meta.json`` that reading the run relies on.

    Parameters
    ----------
    meta : dict
        The run's ``meta.json``.
    where : Path
        The file, for error messages.
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


def _read_table(path: Path) -> pd.DataFrame:
    """A Parquet table of a run, or a clear error naming the file."""
    try:
        return pd.read_parquet(path)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise InputError(
            f"{path}: cannot read this Parquet file ({str(exc).splitlines()[0][:120]}); "
            "the run is damaged, embed it again"
        ) from exc


def _read_vectors(path: Path, mmap: bool) -> np.ndarray:
    """A vector file of a run, checked: a 2-D float matrix, or a clear error naming the file."""
    try:
        vectors = np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise InputError(f"{path}: cannot read these vectors ({exc}); the run is damaged, embed it again") from exc
    if not isinstance(vectors, np.ndarray) or vectors.dtype.kind != "f":
        raise InputError(f"{path}: vectors must be floating point, found dtype {getattr(vectors, 'dtype', '?')}")
    if vectors.ndim != 2:
        raise InputError(f"{path}: vectors must be a 2-D matrix, found shape {vectors.shape}")
    return vectors


def load_run(path: str | os.PathLike[str], mmap: bool = True) -> tuple[pd.DataFrame, np.ndarray]:
    """The occurrence table and the row-aligned vectors that ``wsd embed --out PATH`` wrote.

    Vectors are memory-mapped read-only when ``mmap`` (the default) and the store is consolidated; a sharded
    store (parts only) is read part by part and concatenated.

    Parameters
    ----------
    path : path
        A run directory.
    mmap : bool
        Memory-map the vectors of a consolidated run.

    Returns
    -------
    (DataFrame, ndarray)
        The occurrences and their vectors, row-aligned.

    Examples
    --------
    >>> occurrences, X = load_run("runs/x")   # doctest: +SKIP
    """
    root = Path(path)
    meta = read_meta(root)
    check_run_meta(meta, root / META_FILE)
    if (root / VECTORS_FILE).exists() and (root / OCCURRENCES_FILE).exists():
        occurrences = _read_table(root / OCCURRENCES_FILE)
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
        occurrences = pd.concat([_read_table(p) for p in occurrence_files], ignore_index=True)
        parts = [_read_vectors(p, mmap=False) for p in vector_files]
        if len({part.shape[1] for part in parts}) > 1:
            raise InputError(f"{root / PARTS_DIR}: vector parts of different widths")
        vectors = np.concatenate(parts)
    if len(occurrences) != vectors.shape[0]:
        raise InputError(f"{root}: {len(occurrences)} occurrences but {vectors.shape[0]} vectors")
    occurrences = type_metadata(occurrences, _metadata_columns(meta, root / META_FILE))
    missing = [column for column in ("id", "target") if column not in occurrences.columns]
    if missing:
        raise InputError(f"{root}: the occurrence table lacks the column(s) {', '.join(missing)}")
    return occurrences, vectors
