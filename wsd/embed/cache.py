"""A cache of occurrence vectors on disk, so evaluations that differ only in clustering embed once.

The cache key is a hash of the occurrences (ids, texts, spans) and of the encoder's identity
(:meth:`wsd.Encoder.identity`'s ``embedding_meta()``: model fingerprint, layers, pooling, window, precision,
context vector, dim). Entries are plain
``.npy`` files (float32) with a JSON description beside them. The default folder is ``$WSD_CACHE_DIR`` or
``~/.cache/wsd/vectors``.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from wsd.embed.encoder import Encoder
from wsd.io.atomic import WriteFailed
from wsd.io.outputs import OutputRefused
from wsd.io.writers import write_array, write_json


def default_cache_dir() -> Path:
    """The default cache folder.

    Returns
    -------
    Path
        ``$WSD_CACHE_DIR`` or ``~/.cache/wsd/vectors``.
    """
    return Path(os.environ.get("WSD_CACHE_DIR", Path.home() / ".cache" / "wsd" / "vectors"))


def occurrences_digest(occurrences: pd.DataFrame) -> str:
    """A hash of what the encoder sees: ids, texts and spans, in order.

    Parameters
    ----------
    occurrences : DataFrame
        An occurrence table with ``id``, ``text``, ``start`` and ``end`` columns.

    Returns
    -------
    str
        20 hexadecimal digits.
    """
    digest = hashlib.sha256()
    for column in ("id", "text"):
        for value in occurrences[column].astype(str):
            digest.update(value.encode())
            digest.update(b"\0")
    digest.update(occurrences[["start", "end"]].to_numpy(dtype=np.int64).tobytes())
    return digest.hexdigest()[:20]


def embed_cached(
    encoder: Encoder,
    occurrences: pd.DataFrame,
    configs: Sequence[tuple[str, str]],
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = False,
) -> list[np.ndarray]:
    """Vectors of ``occurrences`` for each ``(layers, pooling)`` in ``configs``, from the cache when present.

    Missing configurations are computed together in one pass over the windows and stored.

    Parameters
    ----------
    encoder : Encoder
        The encoder (or any object with ``identity(layers, pooling).embedding_meta()`` and
        ``embed_configs(texts, spans, configs, progress=...)``); its metadata is part of the key.
    occurrences : DataFrame
        The occurrences (``id``, ``text``, ``start``, ``end``).
    configs : sequence of (layers, pooling)
        The layer specifications and poolings wanted.
    cache_dir : str or path, optional
        The cache folder (default: :func:`default_cache_dir`); an empty string disables the cache.
    progress : bool
        Show a progress bar while embedding.

    Returns
    -------
    list of ndarray
        One float32 array per config, row-aligned with ``occurrences``.
    """
    folder = default_cache_dir() if cache_dir is None else Path(cache_dir)
    if str(cache_dir) != "" and folder.exists() and not folder.is_dir():
        raise OutputRefused(f"--cache-dir {folder} is an existing file, not a folder; choose a folder for the cache")
    digest = occurrences_digest(occurrences)
    results: list[np.ndarray | None] = [None] * len(configs)
    paths: list[Path | None] = [None] * len(configs)
    for index, (layers, pooling) in enumerate(configs):
        if str(cache_dir) == "":
            continue
        meta = encoder.identity(layers, pooling).embedding_meta()
        name = hashlib.sha256(json.dumps([digest, meta], sort_keys=True).encode()).hexdigest()[:24]
        entry = paths[index] = folder / f"{name}.npy"
        if entry.exists():
            results[index] = read_entry(entry, len(occurrences))
    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        computed = encoder.embed_configs(
            occurrences["text"].tolist(),
            occurrences[["start", "end"]].to_numpy(dtype=np.int64),
            [configs[i] for i in missing],
            progress=progress,
        )
        for index, vectors in zip(missing, computed, strict=True):
            results[index] = vectors
            path = paths[index]
            if path is not None:
                layers, pooling = configs[index]
                description = {
                    "occurrences": digest,
                    "rows": len(occurrences),
                    **encoder.identity(layers, pooling).embedding_meta(),
                }
                try:
                    write_array(path, vectors)
                    write_json(path.with_suffix(".json"), description)
                except WriteFailed as error:  # the vectors are computed; only the cache is lost
                    warnings.warn(f"vector cache not written: {error}", stacklevel=2)
    return [r for r in results if r is not None]


def read_entry(path: Path, rows: int) -> np.ndarray | None:
    """A cache entry's vectors, or None (with a warning) when the entry is damaged and must be recomputed.

    Parameters
    ----------
    path : Path
        The entry's ``.npy`` file.
    rows : int
        The number of occurrences it must hold.

    Returns
    -------
    ndarray or None
    """
    try:
        vectors = np.load(path, allow_pickle=False)
        problem = None
        if vectors.dtype.kind != "f" or vectors.ndim != 2 or vectors.shape[0] != rows:
            problem = f"expected a float matrix of {rows} rows, found {vectors.dtype} {vectors.shape}"
        elif not np.isfinite(vectors).all():
            problem = "it holds NaN or infinite values"
    except (OSError, ValueError, EOFError) as error:
        problem = str(error).splitlines()[0] if str(error) else type(error).__name__
    if problem is None:
        return vectors
    warnings.warn(f"damaged vector cache entry {path} ({problem}); computing it again", stacklevel=3)
    return None
