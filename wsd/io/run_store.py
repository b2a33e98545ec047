"""Writing a run: occurrences as Parquet, row-aligned word vectors as ``.npy``, and ``meta.json``.

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
reads exactly like a consolidated one (:func:`wsd.io.run_reader.load_run` reads both).

>>> store = RunStore.create("runs/x", {"model": "m"})   # doctest: +SKIP
>>> store.complete                                      # doctest: +SKIP
False
"""

from __future__ import annotations

import json
import os
import warnings
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from wsd.errors import ConfigError, InputError, ModelError
from wsd.io import run_checks
from wsd.io.checksums import file_problem, file_record, read_record, read_sealed, sealed
from wsd.io.layout import (
    CHUNK_RECORD,
    META_FILE,
    OCCURRENCES_FILE,
    OCCURRENCES_PART,
    PARTS_DIR,
    PLAN_FILE,
    SHARD_MARKER,
    VECTORS_FILE,
    VECTORS_PART,
    marker_name,
    part_glob,
)
from wsd.io.manifest import remove_listed
from wsd.io.meta_types import FileRecord, RunConfig, RunMeta
from wsd.io.outputs import RUN_FORMAT, claim_folder, remove_wsd_files, session
from wsd.io.provenance import config_fingerprint, library_versions
from wsd.io.run_checks import PartKey
from wsd.io.run_reader import STATUS_COMPLETE, STATUS_RUNNING, VECTOR_DTYPES, read_meta, read_table
from wsd.io.writers import write_array, write_checked, write_hashed, write_json, write_parquet
from wsd.occurrences import type_metadata
from wsd.schema import VectorDtype


class RunStore:
    """A run directory being written: parts, shard plan and done-markers, resume bookkeeping, completion.

    ``RunStore.create(path, config, ...)`` opens a directory for a run described by ``config``. If the
    directory already holds a run with the same fingerprint its finished parts are reused; if it holds a
    different run, :class:`ConfigError` is raised unless ``overwrite=True``.

    Parameters
    ----------
    path : path
        The run directory.
    meta : RunMeta
        Its ``meta.json`` (as read or as created).
    """

    def __init__(self, path: Path, meta: RunMeta) -> None:
        self.path = Path(path)
        self.meta = meta
        self._written: dict[PartKey, FileRecord] = {}  # occurrence parts' records, until their vectors

    # -------------------------------------------------------------- opening
    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        config: RunConfig,
        vector_dtype: VectorDtype = "float16",
        overwrite: bool = False,
    ) -> RunStore:
        """Open ``path`` for the run ``config`` (a JSON-ready dict); resume it if it is the same run.

        Parameters
        ----------
        path : path
            The run directory (created when missing).
        config : RunConfig
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
        meta: RunMeta = {
            "format": RUN_FORMAT,
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
        kind, part
            As for :func:`wsd.io.run_checks.part_path`.

        Returns
        -------
        Path
        """
        return run_checks.part_path(self.path, kind, part)

    def has_part(self, kind: str, part: PartKey) -> bool:
        """Whether ``part`` of ``kind`` was written completely (``sum``: whether the chunk is done).

        Parameters
        ----------
        kind, part
            The file to look for, as for :meth:`part_path`.

        Returns
        -------
        bool
        """
        return self.part_path(kind, part).exists()

    def chunk_done(self, part: PartKey) -> bool:
        """Whether chunk ``part`` is done: its checksum record, written after both of its files, exists.

        Parameters
        ----------
        part : (int, int)
            The chunk to ask about (shard and chunk number).

        Returns
        -------
        bool
        """
        return self.has_part(CHUNK_RECORD, part)

    # -------------------------------------------------------------- writing
    def write_occurrences_part(self, part: PartKey, occurrences: pd.DataFrame) -> None:
        """Store the occurrences of ``part`` (atomically); their checksum goes into the chunk's record.

        Parameters
        ----------
        part : (int, int)
            The chunk they belong to (shard and chunk number).
        occurrences : DataFrame
            Its occurrence table.
        """
        path = self.part_path(OCCURRENCES_PART, part)
        checksum = write_parquet(path, occurrences)
        self._written[part] = file_record(path, checksum, rows=len(occurrences))

    def write_vectors_part(self, part: PartKey, vectors: np.ndarray) -> None:
        """Store the vectors of ``part`` (in the run's vector dtype), then the chunk's checksum record.

        The chunk is done once the record exists (:meth:`chunk_done`); it holds the rows, sizes and SHA-256
        of both files, each computed while the file was written. Vectors that are not all finite are
        refused: nothing is stored for the chunk.

        Parameters
        ----------
        part : (int, int)
            The chunk they belong to; its occurrences are stored first.
        vectors : ndarray
            One row per occurrence of the part.

        Raises
        ------
        ModelError
            When a vector holds NaN or an infinite value (after conversion to the run's vector dtype).
        """
        array = np.asarray(vectors).astype(self.meta["vector_dtype"], copy=False)
        path = self.part_path(VECTORS_PART, part)
        if array.ndim != 2:
            raise ModelError(f"{path}: the encoder gave vectors of shape {array.shape}, not a matrix")
        finite = np.isfinite(array).all(axis=1)
        if not finite.all():
            raise ModelError(
                f"shard {part[0]} chunk {part[1]}: {int((~finite).sum())} of {len(array)} vectors are NaN or "
                f"infinite in {self.meta['vector_dtype']}; nothing was stored (try --vector-dtype float32, or "
                "another precision)"
            )
        occurrences = self._written.pop(part, None)
        occurrence_path = self.part_path(OCCURRENCES_PART, part)
        if occurrences is None:  # written by another call path: read it back once
            occurrences = file_record(occurrence_path, rows=pq.ParquetFile(occurrence_path).metadata.num_rows)
        if occurrences["rows"] != len(array):
            raise InputError(f"{path}: {len(array)} vectors for {occurrences['rows']} occurrences")
        checksum = write_array(path, array)
        record = {
            "shard": part[0],
            "chunk": part[1],
            "rows": len(array),
            "dim": int(array.shape[1]),
            OCCURRENCES_PART: occurrences,
            VECTORS_PART: file_record(path, checksum),
        }
        write_json(self.part_path(CHUNK_RECORD, part), sealed(record))

    def read_chunk_record(self, part: PartKey) -> dict[str, Any] | None:
        """The checksum record of chunk ``part``, or None when it is absent or damaged.

        Parameters
        ----------
        part : (int, int)
            The chunk whose record to read.

        Returns
        -------
        dict or None
        """
        return run_checks.read_chunk_record(self.path, part)

    # -------------------------------------------------------------- checking
    def drop_chunk(self, part: PartKey) -> None:
        """Remove the files of chunk ``part`` (its record first, so that it is never done without them).

        Parameters
        ----------
        part : (int, int)
            The chunk to remove (shard and chunk number).
        """
        for kind in (CHUNK_RECORD, VECTORS_PART, OCCURRENCES_PART):
            self.part_path(kind, part).unlink(missing_ok=True)

    def heal(self) -> list[str]:
        """Check every finished part against its checksum; drop what fails, so that resuming redoes it.

        A chunk whose file is missing, truncated, changed or unreadable is removed with its record; a shard
        marked done with such a chunk (or whose marker is damaged) loses its marker and is done again (its
        sound chunks are kept). A consolidated run whose ``occurrences.parquet`` or ``vectors.npy`` fails its
        checksum loses both and is embedded anew. Each dropped file is named in one warning. A complete run
        that lost anything is marked running again.

        Returns
        -------
        list of str
            The warnings given (empty when everything passed).
        """
        said: list[str] = []

        def drop(path: Path, problem: str, what: str) -> None:
            message = f"{path}: {problem}; {what}"
            warnings.warn(message, stacklevel=3)
            said.append(message)

        consolidated = [self.path / OCCURRENCES_FILE, self.path / VECTORS_FILE]
        parts = self.path / PARTS_DIR
        if self.complete and any(path.exists() for path in consolidated):
            found = run_checks.consolidated_problem(self.path, self.meta, full=True)
            if found is None:  # sound; parts left over by a consolidation cut short are not needed
                _remove_parts(parts)
                return said
            drop(*found, "the run is embedded again")
            for path in consolidated:
                path.unlink(missing_ok=True)
        marked: set[int] = set()
        for marker_path in sorted(parts.glob(f"{SHARD_MARKER}-*.json")) if parts.is_dir() else []:
            shard = int(marker_path.stem.split("-")[1])
            marker = read_sealed(marker_path)
            if marker is None or not isinstance(marker.get("part_sizes"), list):
                drop(marker_path, "damaged shard marker", "its shard is done again")
                marker_path.unlink(missing_ok=True)
                continue
            sizes, records = marker["part_sizes"], marker.get("chunks")
            if records is not None and (not isinstance(records, list) or len(records) != len(sizes)):
                drop(marker_path, "damaged shard marker", "its shard is done again")
                marker_path.unlink(missing_ok=True)
                continue
            sound = True
            for chunk, rows in enumerate(sizes):
                record = records[chunk] if records is not None else None
                found = run_checks.chunk_problem(self.path, (shard, chunk), record, rows)
                if found is not None:
                    drop(*found, f"dropped, shard {shard} is done again")
                    self.drop_chunk((shard, chunk))
                    sound = False
                elif record is not None and self.read_chunk_record((shard, chunk)) != record:
                    record_path = self.part_path(CHUNK_RECORD, (shard, chunk))
                    drop(record_path, "missing or damaged checksum record", "restored from its shard's marker")
                    write_json(record_path, record)
            if sound:
                marked.add(shard)
            else:
                marker_path.unlink(missing_ok=True)
        for record_path in sorted(parts.glob(part_glob(CHUNK_RECORD))) if parts.is_dir() else []:
            part = run_checks.part_key(record_path)
            if part[0] in marked:
                continue
            record = read_record(record_path)
            found = run_checks.chunk_problem(self.path, part, record if isinstance(record, dict) else {})
            if found is not None:
                drop(*found, "dropped, its chunk is embedded again")
                self.drop_chunk(part)
        if said and self.complete:
            self.meta["status"] = STATUS_RUNNING
            self.meta.pop("checksums", None)
            self.meta.pop("n_occurrences", None)
            self.meta.pop("finished", None)
            self.save_meta()
        return said

    # -------------------------------------------------------------- shards
    def read_plan(self) -> list[dict[str, Any]] | None:
        """The shard plan written by :meth:`write_plan` (JSON-ready shards), or None before it.

        A plan that does not match the checksum recorded in ``meta.json`` when it was written, or cannot be
        read, is removed with a warning (None is returned: the corpus, unchanged, is planned again alike).

        Returns
        -------
        list of dict or None
        """
        path = self.path / PARTS_DIR / PLAN_FILE
        if not path.exists():
            return None
        recorded = (self.meta.get("shards") or {}).get("plan")
        problem = file_problem(path, recorded) if recorded is not None else None
        shards = None
        if problem is None:
            try:
                shards = json.loads(path.read_text(encoding="utf-8"))["shards"]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                problem = f"damaged shard plan ({str(exc).splitlines()[0][:120]})"
        if problem is None and not isinstance(shards, list):
            problem = "damaged shard plan (shards is not a list)"
        if problem is not None:
            warnings.warn(f"{path}: {problem}; the corpus is planned again", stacklevel=2)
            path.unlink(missing_ok=True)
            return None
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
        path = self.path / PARTS_DIR / PLAN_FILE
        checksum = write_json(path, {"shard_bytes": shard_bytes, "shards": shards})
        self.meta["shards"] = {"count": len(shards), "shard_bytes": shard_bytes, "plan": file_record(path, checksum)}
        self.save_meta()

    def marker_path(self, shard: int) -> Path:
        """Path of the done-marker of ``shard``.

        Parameters
        ----------
        shard : int
            The shard whose marker is meant (:func:`~wsd.io.layout.marker_name`).

        Returns
        -------
        Path
        """
        return self.path / PARTS_DIR / marker_name(shard)

    def read_marker(self, shard: int) -> dict[str, Any] | None:
        """What a finished ``shard`` found (its done-marker), or None when it is not done (or it is damaged).

        Parameters
        ----------
        shard : int
            The shard to ask about.

        Returns
        -------
        dict or None
        """
        return read_sealed(self.marker_path(shard))

    def write_marker(self, shard: int, result: dict[str, Any]) -> None:
        """Mark ``shard`` done with what it found (written last, after all its parts; sealed).

        Parameters
        ----------
        shard : int
            The shard that is done.
        result : dict
            JSON-ready summary of the shard (with ``chunks``, the checksum records of its chunks).
        """
        write_json(self.marker_path(shard), sealed(result))

    # -------------------------------------------------------------- completion
    def finish(self, extra_meta: RunMeta | None = None, consolidate: bool = True) -> None:
        """Check the parts and mark the run complete; with ``consolidate``, join them into one file each.

        The parts are those the shards' done-markers list, in shard order: every shard of the plan must be
        done, and each chunk must match its checksum, have the rows its marker records and finite vectors
        (a chunk that fails is dropped with its shard's marker, and the error says to run the command
        again, which redoes it). Files of no finished chunk, and temporary files of interrupted writers,
        are removed. Consolidated, the run holds ``occurrences.parquet`` and ``vectors.npy`` (streamed, so
        memory stays flat; their sizes and checksums go into ``meta.json``) and ``parts/`` is removed;
        otherwise the parts stay and :func:`load_run` reads them in name order (a run written by many
        machines).

        Parameters
        ----------
        extra_meta : RunMeta, optional
            Entries added to ``meta.json`` (e.g. the vectors' ``embedding`` metadata).
        consolidate : bool
            Join the parts into ``occurrences.parquet`` and ``vectors.npy``.
        """
        parts = self.path / PARTS_DIR
        for leftover in [*parts.glob(".*.tmp-*"), *self.path.glob(".*.tmp-*")]:  # of interrupted writers
            leftover.unlink(missing_ok=True)
        chunks = self._finished_chunks()
        keep = {part for part, _, _ in chunks}
        for kind in (OCCURRENCES_PART, VECTORS_PART, CHUNK_RECORD):
            for path in parts.glob(part_glob(kind)):
                if run_checks.part_key(path) not in keep:
                    path.unlink(missing_ok=True)
        rows, dims = 0, set()
        for part, record, count in chunks:
            found = run_checks.chunk_content_problem(self.path, part, record, count)
            if found is not None:
                self.drop_chunk(part)
                self.marker_path(part[0]).unlink(missing_ok=True)
                raise InputError(
                    f"{found[0]}: {found[1]}; it was dropped with its shard's marker: run the same command again "
                    "to embed that shard anew"
                )
            rows += count
            if count:
                dims.add(int(np.load(self.part_path(VECTORS_PART, part), mmap_mode="r").shape[1]))
        if len(dims) > 1:
            raise InputError(f"{parts}: vector parts of different widths {sorted(dims)}")
        dim = dims.pop() if dims else 0
        occurrence_files = [self.part_path(OCCURRENCES_PART, part) for part, _, _ in chunks]
        vector_files = [self.part_path(VECTORS_PART, part) for part, _, _ in chunks]
        if consolidate:
            self.meta["checksums"] = self._consolidate(occurrence_files, vector_files, rows, dim)
        self.meta.update(extra_meta or {})
        self.meta.update({"status": STATUS_COMPLETE, "n_occurrences": rows, "dim": dim})
        self.meta["finished"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.save_meta()
        if consolidate:
            _remove_parts(parts)

    def _finished_chunks(self) -> list[tuple[PartKey, dict[str, Any] | None, int]]:
        """``(part, checksum record or None, rows)`` of every chunk of the run, in order, from the markers."""
        plan = self.read_plan()
        parts = self.path / PARTS_DIR
        if plan is not None:
            shards = [int(shard["index"]) for shard in plan]
        else:  # a run without a plan (written part by part by hand): its markers
            shards = sorted(int(p.stem.split("-")[1]) for p in parts.glob(f"{SHARD_MARKER}-*.json"))
        chunks = []
        for shard in shards:
            marker = self.read_marker(shard)
            sizes = marker.get("part_sizes") if marker is not None else None
            if marker is None or not isinstance(sizes, list):
                raise InputError(
                    f"{self.marker_path(shard)}: shard {shard} is not done (or its marker is damaged); "
                    "run the same command again to finish the run"
                )
            records = marker.get("chunks")
            for chunk, count in enumerate(sizes):
                record = records[chunk] if isinstance(records, list) and chunk < len(records) else None
                chunks.append(((shard, chunk), record, int(count)))
        return chunks

    def _consolidate(
        self, occurrence_files: list[Path], vector_files: list[Path], rows: int, dim: int
    ) -> dict[str, FileRecord]:
        """Join the parts into ``occurrences.parquet`` + ``vectors.npy``; their checksum records."""
        dtype = np.dtype(self.meta["vector_dtype"])

        def join_vectors(handle: Any) -> None:
            # streamed through a file handle one part at a time, so memory stays flat whatever the run's size
            header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": (rows, dim)}
            np.lib.format.write_array_header_2_0(handle, header)
            for file in vector_files:
                handle.write(np.ascontiguousarray(np.load(file), dtype=dtype).tobytes())

        def join_occurrences(handle: Any) -> None:
            if not occurrence_files:
                pq.write_table(pa.table({}), handle)
                return
            dtypes = self.meta.get("metadata_columns") or {}
            if dtypes:  # parts hold metadata as text: written in the dtypes the whole run's values give
                tables = (_typed_part(file, dtypes) for file in occurrence_files)
                first = next(tables)
                schema = _metadata_schema(first.schema, dtypes)
                with pq.ParquetWriter(handle, schema) as writer:
                    writer.write_table(first.cast(schema))
                    for table in tables:
                        writer.write_table(table.cast(schema))
                return
            schema = pa.unify_schemas([pq.read_schema(p) for p in occurrence_files])
            with pq.ParquetWriter(handle, schema) as writer:
                for file in occurrence_files:
                    writer.write_table(pq.read_table(file).cast(schema))

        occurrences = self.path / OCCURRENCES_FILE
        vectors = self.path / VECTORS_FILE
        occurrences_sum = write_checked(occurrences, lambda tmp: write_hashed(tmp, join_occurrences))
        vectors_sum = write_checked(vectors, lambda tmp: write_hashed(tmp, join_vectors))
        return {
            OCCURRENCES_FILE: file_record(occurrences, occurrences_sum, rows=rows),
            VECTORS_FILE: file_record(vectors, vectors_sum, rows=rows, dim=dim),
        }


def _typed_part(file: Path, dtypes: dict[str, str]) -> pa.Table:
    """An occurrence part with its metadata columns (stored as text) in the run's dtypes."""
    frame = type_metadata(read_table(file), dtypes)
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
    meta: RunMeta,
    vector_dtype: VectorDtype = "float16",
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
    meta : RunMeta
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
    root: Path,
    occurrences: pd.DataFrame,
    vectors: np.ndarray,
    meta: RunMeta,
    vector_dtype: VectorDtype,
    overwrite: bool,
) -> Path:
    claim_folder(root, "run", overwrite=overwrite)
    matrix = np.asarray(vectors).astype(vector_dtype, copy=False)
    occurrences_sum = write_parquet(root / OCCURRENCES_FILE, occurrences)
    vectors_sum = write_array(root / VECTORS_FILE, matrix)
    dim = int(matrix.shape[1]) if matrix.ndim == 2 else 0
    full: RunMeta = {
        "format": RUN_FORMAT,
        "status": STATUS_COMPLETE,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "vector_dtype": vector_dtype,
        "versions": library_versions(),
        **meta,
        "n_occurrences": len(occurrences),
        "dim": dim if len(vectors) else 0,
        "checksums": {
            OCCURRENCES_FILE: file_record(root / OCCURRENCES_FILE, occurrences_sum, rows=len(occurrences)),
            VECTORS_FILE: file_record(root / VECTORS_FILE, vectors_sum, rows=len(occurrences), dim=dim),
        },
    }
    write_json(root / META_FILE, full)
    return root


def _remove_parts(parts: Path) -> None:
    """Remove ``parts/`` once it is joined: only the files wsd wrote there (a warning names any other file)."""
    kept = remove_listed(parts)
    if kept:
        shown = ", ".join(str(path) for path in kept[:3]) + (f" and {len(kept) - 3} more" if len(kept) > 3 else "")
        warnings.warn(f"{parts}: kept {shown}, which wsd did not write there", stacklevel=3)
