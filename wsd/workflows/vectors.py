"""The vectors of a labelled dataset, for the evaluation runners (:mod:`.benchmark`, :mod:`.wug`).

The occurrences of the targets an evaluation asks for (:func:`evaluated_targets`) are embedded once (and cached on
disk, :func:`wsd.embed.cache.embed_cached`); the leakage guard names the evaluated words a wsd-tuned encoder was
trained on.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from wsd.config import EvaluationConfig
from wsd.embed.cache import embed_cached
from wsd.embed.encoder import Encoder
from wsd.errors import InputError
from wsd.io.meta_types import VectorMeta


def evaluated_targets(occurrences: pd.DataFrame, config: EvaluationConfig, dataset_name: str) -> pd.DataFrame:
    """The occurrences of the targets ``config.targets`` names (all of them when it names none).

    Parameters
    ----------
    occurrences : DataFrame
        A dataset's occurrences.
    config : EvaluationConfig
        The targets to keep (``targets``) and the dataset's file or folder (``data``, for the message).
    dataset_name : str
        The dataset as the message names it (``semeval2013``, ``WUG``).

    Returns
    -------
    DataFrame
        Those of the targets, indexed from 0 (``occurrences`` itself when no target is named).

    Raises
    ------
    InputError
        When ``config.targets`` names a target that the data does not hold (the message names the data).

    Examples
    --------
    >>> table = pd.DataFrame({"target": ["bank", "mouse", "bank"]})
    >>> evaluated_targets(table, EvaluationConfig(targets=["bank"]), "generic")["target"].tolist()
    ['bank', 'bank']
    """
    if not config.targets:
        return occurrences
    unknown = sorted(set(config.targets) - set(occurrences["target"]))
    if unknown:
        raise InputError(f"{config.data}: no target(s) {', '.join(unknown)} in the {dataset_name} data")
    return occurrences[occurrences["target"].isin(config.targets)].reset_index(drop=True)


def evaluation_encoder(config: EvaluationConfig, progress: bool, offline: bool | None) -> Encoder:
    """The encoder an evaluation names (``config.embedding``), loaded.

    Parameters
    ----------
    config : EvaluationConfig
        The encoder's options (``embedding``).
    progress : bool
        Show progress bars.
    offline : bool, optional
        Never touch the network when loading the encoder (None: ``config.embedding.offline``).

    Returns
    -------
    Encoder
    """
    options = config.embedding if offline is None else config.embedding.replace(offline=offline)
    return Encoder.from_options(options, progress=progress)


def embed_labelled(
    config: EvaluationConfig,
    occurrences: pd.DataFrame,
    encoder: Encoder | None,
    vectors: np.ndarray | None,
    progress: bool,
    offline: bool | None,
) -> tuple[np.ndarray, VectorMeta | None]:
    """The vectors of a dataset's occurrences (embedded with a cache, unless given) and their metadata.

    Parameters
    ----------
    config : EvaluationConfig
        The encoder's options (``embedding``) and the cache folder (``cache_dir``).
    occurrences : DataFrame
        The occurrences to embed.
    encoder : Encoder, optional
        An already loaded encoder (default: :func:`evaluation_encoder`).
    vectors : ndarray, optional
        Vectors row-aligned with ``occurrences``: nothing is embedded.
    progress : bool
        Show progress bars.
    offline : bool, optional
        As for :func:`evaluation_encoder`, when no encoder is given.

    Returns
    -------
    (ndarray, dict or None)
        float32 vectors and the embedding's metadata (None when vectors were given without an encoder).
    """
    if vectors is None:
        if encoder is None:
            encoder = evaluation_encoder(config, progress, offline)
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
