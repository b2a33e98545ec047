"""Usage similarity on binary use pairs (``wsd evaluate --dataset wic``): WiC, MCL-WiC and AM2iCo files.

Each pair is two uses of a word (or of a word and its translation) labelled "same sense" (T) or not (F). Both
uses are embedded as occurrences with their spans, as every other evaluation embeds (:func:`embed_labelled`, with
the vector cache), and the pair's score is the cosine of the two target vectors. No clustering: like the WUG
usage-pair Spearman (:mod:`wsd.workflows.usage_pairs`) it measures the vector space itself.

Two figures, each with a 95% bootstrap interval over the pairs (:func:`wsd.evaluate.metrics.usage_pairs.
binary_pair_scores`): the **accuracy** of a cosine threshold, chosen on ``--dev`` where given (the one with the
best dev accuracy), else for each fold of a grouped 5-fold cross-validation over lemmas on the other folds; and
the **ROC AUC** of the cosine against the label (no threshold at all).

``metrics.json``: ``overall`` holds ``accuracy`` and ``auc``; ``usage_pairs`` holds the whole entry (``file``,
``dev``, ``dev_overlap``: the lemmas of ``--dev`` also in ``--data``, ``pairs``, ``lemmas``, ``same``,
``threshold_from``, ``thresholds``, ``accuracy[_ci]``, ``auc[_ci]``, ``resamples``). ``pairs.csv``: one row
per scored pair, for error analysis (:func:`pair_table`; the columns are
:data:`wsd.evaluate.metrics.usage_pairs.PAIR_TABLE_COLUMNS`): its ``correct`` column's mean is the accuracy. Both
are written through the output folder's manifest like every output, ``metrics.json`` last; ``wsd report OUT``
draws them (:mod:`wsd.report.pairs_page`). The files are read by :func:`wsd.tune.wic.load` (its formats and its
errors).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.config import EvaluationConfig
from wsd.embed.encoder import Encoder
from wsd.errors import InputError
from wsd.evaluate.metrics.usage_pairs import (
    PAIR_TABLE_COLUMNS,
    PairThresholds,
    binary_pair_scores,
    pair_cosines,
    pair_thresholds,
)
from wsd.tune.pairs import PairSet
from wsd.workflows.results import metrics_document, write_metrics
from wsd.workflows.vectors import embed_labelled, evaluation_encoder, tuned_overlap


def load_pairs(path: str | Path) -> PairSet:
    """The labelled pairs of a WiC, MCL-WiC or AM2iCo file (:func:`wsd.tune.wic.load`), with binary labels only.

    Parameters
    ----------
    path : path
        The data file (its gold beside it where the format keeps gold apart).

    Returns
    -------
    PairSet
        The file's uses and their labelled pairs (at least one pair).

    Raises
    ------
    InputError
        For a missing, empty or malformed file (naming its file and line).
    """
    from wsd.tune import wic

    pairs = wic.load(path)
    if pairs.pairs.empty:
        raise InputError(f"{path}: no labelled pairs")
    return pairs


def pair_occurrences(pairs: PairSet) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """The uses of a pair set as an occurrence table, and the rows of each pair's two uses in it.

    Parameters
    ----------
    pairs : PairSet
        Uses (``use_id, lemma, text, start, end``) and pairs (``use_id_1, use_id_2``).

    Returns
    -------
    (DataFrame, ndarray, ndarray)
        ``id, target, form, text, start, end, doc_id, doc_start`` (one row per use; ``target`` is the lemma),
        and the row of the first and of the second use of each pair.

    Examples
    --------
    >>> uses = pd.DataFrame({"use_id": ["u1", "u2"], "lemma": ["bank", "bank"], "text": ["a bank", "the bank"],
    ...                      "start": [2, 4], "end": [6, 8], "source": ["s", "s"]})
    >>> links = pd.DataFrame({"use_id_1": ["u1"], "use_id_2": ["u2"], "lemma": ["bank"], "label": [1.0],
    ...                       "kind": ["binary"], "source": ["s"]})
    >>> table, first, second = pair_occurrences(PairSet(uses, links))
    >>> table["form"].tolist(), first.tolist(), second.tolist()
    (['bank', 'bank'], [0], [1])
    """
    uses = pairs.uses
    starts, ends = uses["start"].to_numpy(dtype=np.int64), uses["end"].to_numpy(dtype=np.int64)
    table = pd.DataFrame(
        {
            "id": uses["use_id"].astype(str).to_numpy(),
            "target": uses["lemma"].astype(str).to_numpy(),
            "form": [text[a:b] for text, a, b in zip(uses["text"], starts, ends, strict=True)],
            "text": uses["text"].astype(str).to_numpy(),
            "start": starts,
            "end": ends,
            "doc_id": uses["use_id"].astype(str).to_numpy(),
            "doc_start": np.zeros(len(uses), dtype=np.int64),
        }
    )
    row = pd.Series(np.arange(len(table)), index=table["id"].to_numpy())
    first = row[pairs.pairs["use_id_1"].astype(str)].to_numpy()
    second = row[pairs.pairs["use_id_2"].astype(str)].to_numpy()
    return table, first, second


def pair_table(
    occurrences: pd.DataFrame,
    first: np.ndarray,
    second: np.ndarray,
    pairs: PairSet,
    cosines: np.ndarray,
    chosen: PairThresholds,
) -> pd.DataFrame:
    """One row per scored pair: lemma, both target words as written, label, cosine, threshold, prediction, contexts.

    Parameters
    ----------
    occurrences : DataFrame
        The uses as an occurrence table, with the rows of each pair's two uses (:func:`pair_occurrences`).
    first, second : ndarray of int
        The row of the first and of the second use of each pair.
    pairs : PairSet
        The pairs (``lemma``, ``label``).
    cosines : ndarray of shape (m,)
        The cosine of each pair.
    chosen : PairThresholds
        The threshold of each pair and its fold (:func:`wsd.evaluate.metrics.usage_pairs.pair_thresholds`).

    Returns
    -------
    DataFrame
        The columns of :data:`wsd.evaluate.metrics.usage_pairs.PAIR_TABLE_COLUMNS`; ``correct`` is 1 where the
        prediction (cosine ≥ threshold) matches the label.

    Examples
    --------
    >>> uses = pd.DataFrame({"use_id": ["u1", "u2"], "lemma": ["bank", "bank"], "text": ["a bank", "the Bank"],
    ...                      "start": [2, 4], "end": [6, 8], "source": ["s", "s"]})
    >>> links = pd.DataFrame({"use_id_1": ["u1"], "use_id_2": ["u2"], "lemma": ["bank"], "label": [1.0],
    ...                       "kind": ["binary"], "source": ["s"]})
    >>> pairs = PairSet(uses, links)
    >>> table, first, second = pair_occurrences(pairs)
    >>> chosen = PairThresholds(np.array([0.5]), np.array([0]), [0.5], "dev")
    >>> pair_table(table, first, second, pairs, np.array([0.8]), chosen)[["word_2", "predicted", "correct"]]
      word_2  predicted  correct
    0   Bank          1        1
    """
    labels = pairs.pairs["label"].to_numpy(dtype=np.float64).astype(np.int64)
    predicted = (np.asarray(cosines, dtype=np.float64) >= chosen.per_pair).astype(np.int64)
    forms, texts = occurrences["form"].to_numpy(), occurrences["text"].to_numpy()
    table = pd.DataFrame(
        {
            "pair": np.arange(1, len(labels) + 1),
            "lemma": pairs.pairs["lemma"].astype(str).to_numpy(),
            "word_1": forms[first],
            "word_2": forms[second],
            "label": labels,
            "cosine": np.asarray(cosines, dtype=np.float64),
            "threshold": chosen.per_pair,
            "fold": chosen.fold,
            "predicted": predicted,
            "correct": (predicted == labels).astype(np.int64),
            "context_1": texts[first],
            "context_2": texts[second],
        }
    )
    return table[list(PAIR_TABLE_COLUMNS)]


def _pair_cosines(
    config: EvaluationConfig, pairs: PairSet, encoder: Encoder, progress: bool
) -> tuple[np.ndarray, pd.DataFrame, Any]:
    occurrences, first, second = pair_occurrences(pairs)
    X, meta = embed_labelled(config, occurrences, encoder, None, progress, None)
    return pair_cosines(X, first, second), occurrences, meta


def evaluate_wic(
    config: EvaluationConfig,
    out: str | os.PathLike[str] | None,
    encoder: Encoder | None,
    progress: bool,
    offline: bool | None,
) -> dict[str, Any]:
    """:func:`wsd.workflows.benchmark.evaluate` for binary use pairs: threshold accuracy and ROC AUC of the cosine.

    Called by :func:`wsd.workflows.benchmark.evaluate` once the output folder is claimed.

    Parameters
    ----------
    config : EvaluationConfig
        ``data`` (the pairs file), ``dataset_options["dev"]`` (the pairs the threshold is chosen on, optional),
        the encoder's options.
    out : path, optional
        Output folder: ``pairs.csv`` (:func:`pair_table`), ``metrics.json`` and ``per_target.csv`` (empty);
        nothing is written without it.
    encoder, progress, offline
        As :func:`wsd.workflows.benchmark.evaluate`, which passes them on.

    Returns
    -------
    dict
        The ``metrics.json`` document (accuracy and ROC AUC; the pair scores under ``usage_pairs``).

    Raises
    ------
    InputError
        Without ``--data``; for a malformed pairs file; with one lemma and no dev file.
    """
    if config.data is None:
        raise InputError("--data is required for dataset 'wic' (a WiC, MCL-WiC or AM2iCo data file)")
    dev_path = config.dataset_options.get("dev")
    pairs = load_pairs(config.data)
    dev = load_pairs(dev_path) if dev_path else None
    overlap = None
    if dev is not None:
        shared = set(dev.pairs["lemma"]) & set(pairs.pairs["lemma"])
        overlap = len(shared)
        if shared:
            warnings.warn(
                f"{len(shared)} of the {dev.pairs['lemma'].nunique()} lemmas of --dev {dev_path} are in --data too "
                "(the threshold is chosen on pairs of words it is then scored on)",
                stacklevel=2,
            )
    if encoder is None:
        encoder = evaluation_encoder(config, progress, offline)
    cosines, occurrences, meta = _pair_cosines(config, pairs, encoder, progress)
    labels = pairs.pairs["label"].to_numpy(dtype=np.float64)
    lemmas = pairs.pairs["lemma"].astype(str).to_numpy()
    dev_scores = dev_labels = None
    if dev is not None:
        dev_scores = _pair_cosines(config, dev, encoder, progress)[0]
        dev_labels = dev.pairs["label"].to_numpy(dtype=np.float64)
    entry = {
        "file": str(config.data),
        "dev": str(dev_path) if dev_path else None,
        "dev_overlap": overlap,
        **binary_pair_scores(cosines, labels, lemmas, dev_scores, dev_labels),
    }
    overall = {name: entry[name] for name in ("accuracy", "auc") if entry[name] is not None}
    document = metrics_document(
        "wic",
        config.to_dict(),
        [{"overall": overall, "per_target": {}}],
        {},
        n_instances=entry["pairs"],
        n_targets=entry["lemmas"],
        embedding=meta,
        dataset_stats=next(iter(pairs.stats.values()), {}),
        training_overlap=tuned_overlap(config, encoder, occurrences),
        usage_pairs=entry,
    )
    if out is not None:
        chosen = pair_thresholds(cosines, labels, lemmas, dev_scores, dev_labels)  # the thresholds scored above
        first, second = pair_occurrences(pairs)[1:]
        write_metrics(Path(out), document, pair_table=pair_table(occurrences, first, second, pairs, cosines, chosen))
    return document
