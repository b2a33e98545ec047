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
import io
import json
import os
import platform
import warnings
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeGuard

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from wsd.errors import ConfigError, InputError, ModelError
from wsd.io.atomic import atomic_write
from wsd.io.layout import (
    CHUNK_RECORD,
    META_FILE,
    OCCURRENCES_FILE,
    OCCURRENCES_PART,
    PARTS_DIR,
    PLAN_FILE,
    RUN_DIR,
    SHARD_MARKER,
    VECTORS_FILE,
    VECTORS_PART,
    marker_name,
    part_glob,
    part_name,
)
from wsd.io.manifest import file_sha256, remove_listed
from wsd.io.outputs import PARQUET_MARK, RUN_FORMAT, claim_folder, remove_wsd_files, session
from wsd.occurrences import METADATA_DTYPES, type_metadata

FORMAT = RUN_FORMAT
VECTOR_DTYPES = ("float16", "float32")
STATUS_COMPLETE = "complete"
STATUS_RUNNING = "running"
#: What to do about a damaged run (the end of the error that names the damaged file).
DAMAGED_RUN = "the run is damaged: run the same `wsd embed` command again, which embeds the damaged part anew"
#: The key of a JSON record (chunk record, shard marker) that holds the fingerprint of the rest of it.
SEAL = "seal"


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


class _HashingWriter:
    """A binary file handle that computes the SHA-256 of what is written through it (no second read)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle
        self.digest = hashlib.sha256()
        self.closed = False

    def write(self, data: Any) -> int:
        self.digest.update(data)
        return self.handle.write(data)

    def flush(self) -> None:
        self.handle.flush()

    def tell(self) -> int:
        return self.handle.tell()

    def close(self) -> None:
        self.closed = True  # the caller closes the file it opened

    def hexdigest(self) -> str:
        return self.digest.hexdigest()


def _write_hashed(tmp: Path, write: Any) -> str:
    """``write(handle)`` into ``tmp`` through a :class:`_HashingWriter`; the SHA-256 of what it wrote."""
    with open(tmp, "wb") as handle:
        writer = _HashingWriter(handle)
        write(writer)
    return writer.hexdigest()


def write_json(path: Path, data: dict[str, Any]) -> str:
    """Write JSON atomically (a reader never sees half a file).

    Parameters
    ----------
    path : Path
        The file to write.
    data : dict
        JSON-ready data (other values are written as strings).

    Returns
    -------
    str
        The SHA-256 of the file written.
    """
    content = (json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n").encode("utf-8")

    def write(tmp: Path) -> str:
        tmp.write_bytes(content)
        return hashlib.sha256(content).hexdigest()

    return write_checked(path, write)


def write_parquet(path: Path, frame: pd.DataFrame | pa.Table, mark: str | None = None) -> str:
    """Write a DataFrame (or an Arrow table) as Parquet atomically.

    Parameters
    ----------
    path : Path
        The file to write.
    frame : DataFrame or pyarrow.Table
        The table (a DataFrame's index is dropped).
    mark : str, optional
        What the table is, recorded in its metadata (:func:`wsd.io.outputs.parquet_mark` reads it back).

    Returns
    -------
    str
        The SHA-256 of the file written (computed while writing it).
    """
    if isinstance(frame, pa.Table):
        table = frame
    else:
        table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    if mark is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), PARQUET_MARK: mark.encode()})
    return write_checked(path, lambda tmp: _write_hashed(tmp, lambda handle: pq.write_table(table, handle)))


def write_array(path: Path, array: np.ndarray) -> str:
    """Write a NumPy array as ``.npy`` atomically (never pickled).

    Parameters
    ----------
    path : Path
        The file to write.
    array : ndarray
        The array.

    Returns
    -------
    str
        The SHA-256 of the file written (computed while writing it).
    """

    def write(handle: Any) -> None:
        np.lib.format.write_array(handle, np.ascontiguousarray(array), allow_pickle=False)

    return write_checked(path, lambda tmp: _write_hashed(tmp, write))


def write_checked(path: Path, write: Any) -> str:
    """:func:`wsd.io.atomic.atomic_write` of a writer that returns the SHA-256 of what it wrote; that checksum.

    Parameters
    ----------
    path : Path
        The file to write.
    write : callable
        ``write(tmp) -> sha256``.

    Returns
    -------
    str
        The checksum.
    """
    checksum = atomic_write(path, write)
    assert checksum is not None, "the writer returns its checksum"
    return checksum


def file_record(path: Path, sha256: str | None = None, **extra: Any) -> dict[str, Any]:
    """What a checksum record says of a file: its size and SHA-256 (and ``extra`` entries, e.g. ``rows``).

    Parameters
    ----------
    path : Path
        A file just written.
    sha256 : str, optional
        Its checksum when the writer computed it (else the file is read once).
    **extra
        More entries.

    Returns
    -------
    dict
        ``{"size": ..., "sha256": ..., **extra}``.
    """
    return {"size": path.stat().st_size, "sha256": sha256 or file_sha256(path), **extra}


def file_problem(path: Path, record: Any, full: bool = True) -> str | None:
    """What is wrong with a file against its checksum record (:func:`file_record`), or None when it matches.

    Parameters
    ----------
    path : Path
        The file.
    record : dict
        Its record (``size``, ``sha256``).
    full : bool
        Compare the checksum too (reads the file); else only the size.

    Returns
    -------
    str or None
        E.g. ``"missing"``, ``"1024 bytes where 4096 were written (truncated?)"``.
    """
    if not isinstance(record, dict) or not isinstance(record.get("size"), int):
        return "its checksum record is damaged"
    try:
        if not path.is_file():
            return "missing"
        size = path.stat().st_size
        if size != record["size"]:
            return f"{size} bytes where {record['size']} were written (truncated or overwritten)"
        if full and file_sha256(path) != record.get("sha256"):
            return "its bytes do not match the checksum recorded when it was written (damaged)"
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    return None


def sealed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with a :data:`SEAL`: the fingerprint of the rest, so that an edited record is recognised.

    Parameters
    ----------
    record : dict
        JSON-ready data.

    Returns
    -------
    dict

    Examples
    --------
    >>> seal_intact(sealed({"rows": 3}))
    True
    >>> seal_intact({**sealed({"rows": 3}), "rows": 4})
    False
    """
    body = {key: value for key, value in record.items() if key != SEAL}
    return {**body, SEAL: config_fingerprint(body)}


def seal_intact(record: Any) -> bool:
    """Whether a record written by :func:`sealed` is unchanged (one without a seal, of an older wsd, passes).

    Parameters
    ----------
    record : object
        A record read back.

    Returns
    -------
    bool
    """
    if not isinstance(record, dict):
        return False
    if SEAL not in record:
        return True
    return record[SEAL] == config_fingerprint({key: value for key, value in record.items() if key != SEAL})


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
        self._written: dict[PartKey, dict[str, Any]] = {}  # occurrence parts' records, until their vectors

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
        """Whether ``part`` of ``kind`` was written completely (``sum``: whether the chunk is done).

        Parameters
        ----------
        kind : {"occ", "vec", "sum"}
            Occurrences, vectors, or the chunk's checksum record.
        part : (int, int)
            Shard and chunk number.

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
            Shard and chunk number.

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
            Shard and chunk number.
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
            Shard and chunk number.
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
            Shard and chunk number.

        Returns
        -------
        dict or None
        """
        record = _read_record(self.part_path(CHUNK_RECORD, part))
        return record if isinstance(record, dict) and seal_intact(record) else None

    # -------------------------------------------------------------- checking
    def chunk_problem(self, part: PartKey, record: dict[str, Any] | None, rows: int | None = None) -> Problem | None:
        """What is wrong with the files of chunk ``part``: the first that fails, and why; None when both pass.

        With a checksum record, both files must have the recorded size and SHA-256. Without one (a run of
        an older wsd), they must be readable, have ``rows`` rows, and the vectors must be finite.

        Parameters
        ----------
        part : (int, int)
            Shard and chunk number.
        record : dict or None
            The chunk's checksum record.
        rows : int, optional
            Rows the chunk must have (from its shard's marker).

        Returns
        -------
        (Path, str) or None
        """
        if record is not None:
            if SEAL not in record or not seal_intact(record) or (rows is not None and record.get("rows") != rows):
                return self.part_path(CHUNK_RECORD, part), "its checksum record is damaged"
            for kind in (OCCURRENCES_PART, VECTORS_PART):
                problem = file_problem(self.part_path(kind, part), record.get(kind))
                if problem is not None:
                    return self.part_path(kind, part), problem
            return None
        try:
            return _structure_problem(self.part_path(OCCURRENCES_PART, part), self.part_path(VECTORS_PART, part), rows)
        except OSError as exc:
            return self.part_path(VECTORS_PART, part), f"cannot read it ({exc.strerror or exc})"

    def drop_chunk(self, part: PartKey) -> None:
        """Remove the files of chunk ``part`` (its record first, so that it is never done without them).

        Parameters
        ----------
        part : (int, int)
            Shard and chunk number.
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
            found = _consolidated_problem(self.path, self.meta, full=True)
            if found is None:  # sound; parts left over by a consolidation cut short are not needed
                _remove_parts(parts)
                return said
            drop(*found, "the run is embedded again")
            for path in consolidated:
                path.unlink(missing_ok=True)
        marked: set[int] = set()
        for marker_path in sorted(parts.glob(f"{SHARD_MARKER}-*.json")) if parts.is_dir() else []:
            shard = int(marker_path.stem.split("-")[1])
            marker = _read_record(marker_path)
            intact = isinstance(marker, dict) and seal_intact(marker)
            if not intact or not isinstance(marker.get("part_sizes"), list):
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
                found = self.chunk_problem((shard, chunk), record, rows)
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
            part = _part_key(record_path)
            if part[0] in marked:
                continue
            record = _read_record(record_path)
            found = self.chunk_problem(part, record if isinstance(record, dict) else {})
            if found is not None:
                drop(*found, "dropped, its chunk is embedded again")
                self.drop_chunk(part)
        if said and self.complete:
            self.meta["status"] = STATUS_RUNNING
            for key in ("checksums", "n_occurrences", "finished"):
                self.meta.pop(key, None)
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
            Shard number.

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
            Shard number.

        Returns
        -------
        dict or None
        """
        marker = _read_record(self.marker_path(shard))
        return marker if isinstance(marker, dict) and seal_intact(marker) else None

    def write_marker(self, shard: int, result: dict[str, Any]) -> None:
        """Mark ``shard`` done with what it found (written last, after all its parts; sealed).

        Parameters
        ----------
        shard : int
            Shard number.
        result : dict
            JSON-ready summary of the shard (with ``chunks``, the checksum records of its chunks).
        """
        write_json(self.marker_path(shard), sealed(result))

    # -------------------------------------------------------------- completion
    def finish(self, extra_meta: dict[str, Any] | None = None, consolidate: bool = True) -> None:
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
        extra_meta : dict, optional
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
                if _part_key(path) not in keep:
                    path.unlink(missing_ok=True)
        rows, dims = 0, set()
        for part, record, count in chunks:
            found = _chunk_content_problem(self, part, record, count)
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
    ) -> dict[str, dict[str, Any]]:
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
        occurrences_sum = write_checked(occurrences, lambda tmp: _write_hashed(tmp, join_occurrences))
        vectors_sum = write_checked(vectors, lambda tmp: _write_hashed(tmp, join_vectors))
        return {
            OCCURRENCES_FILE: file_record(occurrences, occurrences_sum, rows=rows),
            VECTORS_FILE: file_record(vectors, vectors_sum, rows=rows, dim=dim),
        }


def check_recorded(path: Path, remedy: str) -> None:
    """Check a file against the checksum its folder's ``meta.json`` records for it (``checksums``, by name).

    Nothing is checked when no checksum is recorded (a folder of an older wsd).

    Parameters
    ----------
    path : Path
        A file wsd wrote (e.g. a senses folder's ``labels.parquet``).
    remedy : str
        What to do when it is damaged (the end of the error).

    Raises
    ------
    InputError
        When the file is missing, has another size, or does not match its checksum (the message names it).
    """
    meta = _read_record(path.parent / META_FILE)
    records = meta.get("checksums") if isinstance(meta, dict) else None
    if not isinstance(records, dict) or path.name not in records:
        return
    problem = file_problem(path, records[path.name])
    if problem is not None:
        raise InputError(f"{path}: {problem}; {remedy}")


#: A file that fails its check, and why.
Problem = tuple[Path, str]


def _read_record(path: Path) -> Any:
    """A small JSON file of a run's bookkeeping, or None when it is absent or unreadable."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return None


def _part_key(path: Path) -> PartKey:
    """``(shard, chunk)`` of a part file's name."""
    shard, chunk = path.name.split(".")[0].split("-")[1:3]
    return int(shard), int(chunk)


def _structure_problem(occurrence_path: Path, vector_path: Path, rows: int | None) -> Problem | None:
    """A chunk without checksum record: both files readable, with ``rows`` rows, the vectors finite."""
    try:
        count = pq.ParquetFile(occurrence_path).metadata.num_rows
    except FileNotFoundError:
        return occurrence_path, "missing"
    except (ValueError, pa.ArrowException) as exc:
        return occurrence_path, f"not a readable Parquet file ({str(exc).splitlines()[0][:120]})"
    try:
        vectors = np.load(vector_path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        return vector_path, "missing"
    except (ValueError, EOFError) as exc:
        return vector_path, f"not a readable .npy file ({exc})"
    if vectors.ndim != 2 or vectors.dtype.kind != "f":
        return vector_path, f"not a matrix of floats ({vectors.dtype}, shape {vectors.shape})"
    if vectors.shape[0] != count or (rows is not None and count != rows):
        return vector_path, f"{vectors.shape[0]} vectors for {count} occurrences (expected {rows})"
    if not all(np.isfinite(vectors[i : i + 65536]).all() for i in range(0, len(vectors), 65536)):
        return vector_path, "holds NaN or infinite values"
    return None


def _chunk_content_problem(store: RunStore, part: PartKey, record: dict[str, Any] | None, rows: int) -> Problem | None:
    """A finished chunk checked in full before it is joined: checksum and size (with a record), then its content.

    Each file is read once: its bytes are hashed and parsed from memory (a chunk is small).
    """
    if record is not None and (SEAL not in record or not seal_intact(record) or record.get("rows") != rows):
        return store.part_path(CHUNK_RECORD, part), "its checksum record is damaged"
    contents = {}
    for kind in (OCCURRENCES_PART, VECTORS_PART):
        path = store.part_path(kind, part)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return path, "missing"
        except OSError as exc:
            return path, f"cannot read it ({exc.strerror or exc})"
        if record is not None:
            expected = record.get(kind) or {}
            if len(data) != expected.get("size") or hashlib.sha256(data).hexdigest() != expected.get("sha256"):
                return path, "its bytes do not match the checksum recorded when it was written (damaged)"
        contents[kind] = data
    occurrence_path, vector_path = store.part_path(OCCURRENCES_PART, part), store.part_path(VECTORS_PART, part)
    try:
        count = pq.ParquetFile(pa.BufferReader(contents[OCCURRENCES_PART])).metadata.num_rows
    except (ValueError, pa.ArrowException) as exc:
        return occurrence_path, f"not a readable Parquet file ({str(exc).splitlines()[0][:120]})"
    try:
        vectors = np.load(io.BytesIO(contents[VECTORS_PART]), allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:
        return vector_path, f"not a readable .npy file ({exc})"
    if vectors.ndim != 2 or vectors.dtype.kind != "f":
        return vector_path, f"not a matrix of floats ({vectors.dtype}, shape {vectors.shape})"
    if count != rows or vectors.shape[0] != rows:
        return vector_path, f"{vectors.shape[0]} vectors and {count} occurrences where its marker records {rows}"
    if not np.isfinite(vectors).all():
        return vector_path, "holds NaN or infinite values"
    return None


def _consolidated_problem(root: Path, meta: dict[str, Any], full: bool) -> Problem | None:
    """What is wrong with a consolidated run's two files against the checksums ``meta.json`` records.

    A run written before checksums were recorded is checked for presence only.
    """
    records = meta.get("checksums")
    for name in (OCCURRENCES_FILE, VECTORS_FILE):
        path = root / name
        if not path.is_file():
            return path, "missing"
        if isinstance(records, dict):
            problem = file_problem(path, records.get(name), full=full)
            if problem is not None:
                return path, problem
    return None


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
    matrix = np.asarray(vectors).astype(vector_dtype, copy=False)
    occurrences_sum = write_parquet(root / OCCURRENCES_FILE, occurrences)
    vectors_sum = write_array(root / VECTORS_FILE, matrix)
    dim = int(matrix.shape[1]) if matrix.ndim == 2 else 0
    full = {
        "format": FORMAT,
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


def _whole_map(vectors: Any) -> TypeGuard[np.memmap]:
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
        if (Path(path) / RUN_DIR / META_FILE).is_file():  # the output folder of wsd run: name the run meant
            raise InputError(f"{path} is the output folder of `wsd run`; its run is {Path(path) / RUN_DIR}")
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
    meta = read_meta(root)
    check_run_meta(meta, root / META_FILE)
    if (root / VECTORS_FILE).exists() and (root / OCCURRENCES_FILE).exists():
        if meta.get("status", STATUS_COMPLETE) != STATUS_COMPLETE:
            raise InputError(
                f"the run in {root} is not complete (status {meta.get('status')!r}); "
                "run the same `wsd embed` command again to finish it"
            )
        found = _consolidated_problem(root, meta, full=verify)
        if found is not None:
            raise InputError(f"{found[0]}: {found[1]}; {DAMAGED_RUN}")
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
        store = RunStore(root, meta)
        for vector_file in vector_files:
            part = _part_key(vector_file)
            if store.chunk_done(part):
                found = store.chunk_problem(part, store.read_chunk_record(part) or {}) if verify else None
                if found is not None:
                    raise InputError(f"{found[0]}: {found[1]}; {DAMAGED_RUN}")
        occurrences = pd.concat([_read_table(p) for p in occurrence_files], ignore_index=True)
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


def _remove_parts(parts: Path) -> None:
    """Remove ``parts/`` once it is joined: only the files wsd wrote there (a warning names any other file)."""
    kept = remove_listed(parts)
    if kept:
        shown = ", ".join(str(path) for path in kept[:3]) + (f" and {len(kept) - 3} more" if len(kept) > 3 else "")
        warnings.warn(f"{parts}: kept {shown}, which wsd did not write there", stacklevel=3)
