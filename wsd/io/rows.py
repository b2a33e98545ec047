"""Rows of a memory-mapped vector file, by reference: what a per-target task carries instead of a copy.

>>> occurrences, X = load_run("runs/x")             # doctest: +SKIP
>>> rows_of(select_rows(X, np.array([0, 5, 9]))).shape   # doctest: +SKIP
(3, 384)
"""

from __future__ import annotations

from typing import Any, TypeGuard

import numpy as np

from wsd.errors import InputError


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
