"""How well an encoder's vectors follow a WUG dataset's human usage-pair judgments (``wsd evaluate --dataset wug``).

The judgments (``data/<word>/judgments.csv|tsv``, read as ``wug:`` training sources read them: the median of a
pair's judgments without the 0s, "cannot decide", :mod:`wsd.tune.wug`) give each judged pair of uses a relatedness
from 1 (unrelated) to 4 (identical). The figure is Spearman's ρ between the cosine of the two uses' vectors and that
median, per word (its judged pairs) and pooled over every pair. It needs no clustering, so it measures the space
itself: what usage-pair tuning (XL-LEXEME, ``wsd tune --train wug:DIR``) trains for, and what the clusters and the
change scores are built on (experiments/results/tune_space/tune_space.md).

``metrics.json`` → ``usage_pairs``: ``file`` (the judgments file pattern), ``words`` (words with a figure),
``pairs`` (judged pairs scored), ``spearman_words`` (the mean of the per-word ρ over words with at least
:data:`MIN_PAIRS` pairs and a ρ defined), ``spearman_pooled`` (one ρ over every pair of every word),
``without`` (word → why it has no figure: no judgments file, too few pairs, ρ undefined) and ``per_word`` (word →
its ``spearman`` and ``pairs``: which words the space follows the judgments on, and which it does not). A dataset
without any judgments file gets ``reason`` instead; a malformed judgments file is a warning naming its file and
line, and the evaluation goes on without this figure (its other scores do not need the judgments).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wsd.errors import InputError
from wsd.evaluate.datasets import wug as wug_dataset
from wsd.evaluate.metrics.usage_pairs import MIN_PAIRS, pair_cosines, pair_spearman
from wsd.tune.wug import judgments_file, median_labels, read_judgments

JUDGMENTS_PATTERN = "data/<word>/judgments.csv|tsv"


def word_pairs(folder: Path, ids: pd.Series) -> pd.DataFrame | None:
    """One word's judged pairs as row positions of ``ids`` with their median judgment (None: no judgments file).

    Parameters
    ----------
    folder : Path
        ``data/<word>`` of the WUG dataset.
    ids : pandas.Series
        The ids of the word's uses, in the order of its vectors.

    Returns
    -------
    pandas.DataFrame or None
        ``first``, ``second`` (positions in ``ids``) and ``label``.

    Raises
    ------
    InputError
        When the judgments file is malformed (naming its file and line), or there are two.
    """
    if not any((folder / f"judgments{suffix}").is_file() for suffix in wug_dataset.SUFFIXES):
        return None
    labels, _ = median_labels(read_judgments(judgments_file(folder), set(ids.astype(str))))
    position = pd.Series(np.arange(len(ids)), index=ids.astype(str).to_numpy())
    return pd.DataFrame(
        {
            "first": position[labels["identifier1"]].to_numpy(),
            "second": position[labels["identifier2"]].to_numpy(),
            "label": labels["label"].to_numpy(dtype=np.float64),
        }
    )


def usage_pair_agreement(
    data: str | Path, occurrences: pd.DataFrame, X: np.ndarray, senses: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``usage_pairs`` entry of ``metrics.json`` (see the module docstring).

    Parameters
    ----------
    data : str or Path
        The WUG dataset folder (as ``--data`` names it).
    occurrences : pandas.DataFrame
        The evaluated uses (``id``, ``target``, and ``form`` where the senses centre forms), row-aligned with ``X``.
    X : ndarray of shape (n, d)
        Their vectors.
    senses : mapping, optional
        The :class:`~wsd.senses.SenseInducer` parameters of the evaluation. Given, the entry also holds
        ``sense_cut``: the cosine, on the vectors as that inducer's preprocessing leaves them (fitted on all of a
        word's uses, where the inducer fits a word above ``max_fit_samples`` on a sample), that best tells the pairs
        judged above the scale's midpoint from those below (:func:`wsd.senses.cut.judged_cut`), with its
        ``accuracy`` and ``pairs``: the ``--similarity-cut`` of WUG-like senses for this encoder.

    Returns
    -------
    dict
    """
    root = wug_dataset.dataset_folder(data)
    without: dict[str, str] = {}
    per_word: dict[str, dict[str, Any]] = {}
    cosines, labels, clustered = [], [], []
    targets = occurrences["target"].astype(str).to_numpy()
    forms = occurrences["form"].astype(str).to_numpy() if "form" in occurrences else None
    try:
        for word in sorted(set(targets)):
            rows = np.flatnonzero(targets == word)
            pairs = word_pairs(root / "data" / word, occurrences["id"].iloc[rows])
            if pairs is None:
                without[word] = "no judgments file"
                continue
            first, second = pairs["first"].to_numpy(), pairs["second"].to_numpy()
            similarity = pair_cosines(X[rows], first, second)
            cosines.append(similarity)
            labels.append(pairs["label"].to_numpy())
            if senses is not None:
                seen = _as_clustered(X[rows], None if forms is None else forms[rows], senses)
                clustered.append(pair_cosines(seen, first, second))
            rho = pair_spearman(similarity, labels[-1])
            if rho is None:
                without[word] = (
                    f"{len(pairs)} judged pairs" if len(pairs) < MIN_PAIRS else "ρ undefined (a side constant)"
                )
            else:
                per_word[word] = {"spearman": rho, "pairs": len(pairs)}
    except InputError as error:
        warnings.warn(f"usage-pair agreement not measured: {error}", stacklevel=2)
        return {"file": JUDGMENTS_PATTERN, "reason": str(error)}
    if not cosines:
        return {"file": JUDGMENTS_PATTERN, "reason": f"no judgments file in {root / 'data'}"}
    pooled = pair_spearman(np.concatenate(cosines), np.concatenate(labels))
    rhos = [entry["spearman"] for entry in per_word.values()]
    entry: dict[str, Any] = {
        "file": JUDGMENTS_PATTERN,
        "words": len(rhos),
        "pairs": int(sum(len(c) for c in cosines)),
        "spearman_words": float(np.mean(rhos)) if rhos else None,
        "spearman_pooled": pooled,
        "without": without,
        "per_word": per_word,
    }
    if senses is not None:
        entry["sense_cut"] = _sense_cut(np.concatenate(clustered), np.concatenate(labels))
    return entry


def _as_clustered(X: np.ndarray, forms: np.ndarray | None, senses: Mapping[str, Any]) -> np.ndarray:
    """One word's vectors as the inducer's per-word preprocessing leaves them (what its clusterer sees)."""
    from wsd.senses.inducer import SenseInducer

    preprocessor = SenseInducer(**senses).make_preprocessor()
    if forms is None:
        preprocessor.set_params(center_forms=0.0)
    fitted = preprocessor.fit(X, forms=forms)
    return np.asarray(fitted.transform(X, forms), dtype=np.float64)


def _sense_cut(similarity: np.ndarray, judgment: np.ndarray) -> dict[str, Any]:
    """``sense_cut``: the learned cut, its accuracy and the pairs it was learned on (or why there is none)."""
    from wsd.senses.cut import SCALE_MIDPOINT, judged_cut

    off = int((judgment != SCALE_MIDPOINT).sum())
    if off == 0:
        return {"reason": f"no judged pair off the scale's midpoint {SCALE_MIDPOINT:g}"}
    cut, accuracy = judged_cut(similarity, judgment)
    return {"cut": cut, "accuracy": accuracy, "pairs": off, "midpoint": SCALE_MIDPOINT}
