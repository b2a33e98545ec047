"""The vectors of a labelled dataset, for the evaluation runners (:mod:`.benchmark`, :mod:`.wug`).

A dataset's occurrences are embedded once (and cached on disk, :func:`wsd.embed.cache.embed_cached`); the leakage
guard names the evaluated words a wsd-tuned encoder was trained on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from wsd.config import EvaluationConfig
from wsd.embed.cache import embed_cached
from wsd.embed.encoder import Encoder


def embed_labelled(
    config: EvaluationConfig,
    occurrences: pd.DataFrame,
    encoder: Encoder | None,
    vectors: np.ndarray | None,
    progress: bool,
    offline: bool | None,
) -> tuple[np.ndarray, dict[str, Any] | None]:
    """The vectors of a dataset's occurrences (embedded with a cache, unless given) and their metadata.

    Parameters
    ----------
    config : EvaluationConfig
        The encoder's options (``embedding``) and the cache folder (``cache_dir``).
    occurrences : DataFrame
        The occurrences to embed.
    encoder : Encoder, optional
        An already loaded encoder (default: one made from ``config.embedding``).
    vectors : ndarray, optional
        Vectors row-aligned with ``occurrences``: nothing is embedded.
    progress : bool
        Show progress bars.
    offline : bool, optional
        Never touch the network when loading the encoder (None: ``config.embedding.offline``).

    Returns
    -------
    (ndarray, dict or None)
        float32 vectors and the embedding's metadata (None when vectors were given without an encoder).
    """
    if vectors is None:
        if encoder is None:
            options = config.embedding if offline is None else config.embedding.replace(offline=offline)
            encoder = Encoder.from_options(options, progress=progress)
        (vectors,) = embed_cached(
            encoder,
            occurrences,
            [(config.embedding.layers, config.embedding.pooling)],
            cache_dir=config.cache_dir,
            progress=progress,
        )
    meta = encoder.identity(config.embedding.layers, config.embedding.pooling).embedding_meta() if encoder else None
    return np.asarray(vectors, dtype=np.float32), meta


def tuned_overlap(config: EvaluationConfig, encoder: Encoder | None, occurrences: pd.DataFrame) -> list[str] | None:
    """The leakage guard: the evaluated targets a wsd-tuned model was trained on (None: not tuned by wsd).

    Parameters
    ----------
    config : EvaluationConfig
        Names the model (``embedding.model``) when no encoder is given.
    encoder : Encoder, optional
        The loaded encoder.
    occurrences : DataFrame
        The evaluated occurrences (their ``target``).

    Returns
    -------
    list of str or None
    """
    from wsd.tune.card import training_overlap

    model = encoder.loaded.name if encoder is not None else config.embedding.model
    return training_overlap(model, occurrences["target"].astype(str).unique())
