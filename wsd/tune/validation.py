"""Validation on held-out lemmas: a seeded lemma split, and how well the cosine of two uses follows their label.

For graded pairs the figure is Spearman's ρ between cosine and label; for binary pairs the ROC AUC of the
cosine (the chance that a same-sense pair scores above a different-sense pair). The early-stopping score is
their mean over the label kinds present (ρ and AUC − 0.5 scaled by 2, so that both are 0 for chance and 1
at best).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import torch

from wsd.errors import ConfigError
from wsd.tune.pairs import BINARY, GRADED, PairSet, normalize_lemma


def split_lemmas(
    lemmas: Iterable[str], fraction: float, seed: int, chosen: Iterable[str] = ()
) -> tuple[list[str], list[str]]:
    """Split lemmas into training and validation lemmas: ``chosen`` when given, else a seeded ``fraction``.

    Parameters
    ----------
    lemmas : iterable of str
        The normalised lemmas with pairs.
    fraction : float
        Share held out (at least one lemma when above 0 and there are two or more lemmas).
    seed : int
        Seeds the split.
    chosen : iterable of str
        Validation lemmas in any spelling (overrides ``fraction``).

    Returns
    -------
    (list of str, list of str)
        Training and validation lemmas, sorted.

    Raises
    ------
    ConfigError
        When a chosen lemma has no pairs, or nothing is left to train on.

    Examples
    --------
    >>> split_lemmas(["a", "b", "c", "d"], 0.25, seed=0)
    (['b', 'c', 'd'], ['a'])
    >>> split_lemmas(["a", "b", "c", "d"], 0.25, seed=0, chosen=["C.n"])
    (['a', 'b', 'd'], ['c'])
    """
    pool = sorted(set(lemmas))
    wanted = sorted({normalize_lemma(lemma) for lemma in chosen})
    if wanted:
        unknown = [lemma for lemma in wanted if lemma not in pool]
        if unknown:
            raise ConfigError(f"validation lemma(s) {', '.join(unknown[:5])} have no training pairs")
        held = wanted
    elif fraction > 0 and len(pool) > 1:
        count = min(max(1, round(fraction * len(pool))), len(pool) - 1)
        held = sorted(np.random.default_rng([seed, 0x76616C]).choice(pool, count, replace=False).tolist())
    else:
        held = []
    train = [lemma for lemma in pool if lemma not in set(held)]
    if not train:
        raise ConfigError("every lemma is held out for validation: nothing is left to train on")
    return train, held


def sample_pairs(pairset: PairSet, max_pairs: int, seed: int) -> PairSet:
    """At most ``max_pairs`` pairs of a pair set (a seeded sample; all of them when fewer).

    Parameters
    ----------
    pairset : PairSet
        Validation pairs.
    max_pairs : int
        The most pairs kept.
    seed : int
        Seeds the sample.

    Returns
    -------
    PairSet
    """
    if len(pairset) <= max_pairs:
        return pairset
    keep = np.zeros(len(pairset), dtype=bool)
    keep[np.random.default_rng([seed, 0x7061]).choice(len(pairset), max_pairs, replace=False)] = True
    return pairset.select(keep)


def pair_figures(scores: np.ndarray, labels: np.ndarray, kinds: np.ndarray) -> dict[str, float | int | None]:
    """Validation figures of scored pairs: Spearman ρ (graded), ROC AUC (binary), and the early-stopping score.

    Parameters
    ----------
    scores : ndarray of float
        Cosine of each pair.
    labels : ndarray of float
        Its label.
    kinds : ndarray of str
        Its label kind.

    Returns
    -------
    dict
        ``pairs``, ``graded_spearman`` and ``binary_auc`` (:func:`~wsd.evaluate.metrics.usage_pairs.roc_auc`; None
        where that kind has no pairs or one label only),
        ``score`` (None when neither is defined).

    Examples
    --------
    >>> pair_figures(np.array([0.9, 0.2, 0.5]), np.array([1.0, 0.0, 1.0]), np.array(["binary"] * 3))["binary_auc"]
    1.0
    """
    from scipy.stats import spearmanr

    from wsd.evaluate.metrics.usage_pairs import roc_auc

    figures: dict[str, float | int | None] = {"pairs": len(scores), "graded_spearman": None, "binary_auc": None}
    graded, binary = kinds == GRADED, kinds == BINARY
    parts = []
    if graded.sum() > 2 and np.unique(labels[graded]).size > 1:
        rho = float(spearmanr(scores[graded], labels[graded]).statistic)
        figures["graded_spearman"] = rho
        parts.append(rho)
    # both labels checked first, so a binary set of one label is skipped without reading its scores
    auc = roc_auc(scores[binary], labels[binary]) if np.unique(labels[binary]).size > 1 else None
    if auc is not None:
        figures["binary_auc"] = auc
        parts.append(2 * auc - 1)
    figures["score"] = float(np.mean(parts)) if parts else None
    return figures


def validate(
    encode: Callable[[list[str], np.ndarray], torch.Tensor], pairset: PairSet, batch_uses: int
) -> dict[str, float | int | None]:
    """Encode the validation uses (no gradients) and measure :func:`pair_figures`.

    Parameters
    ----------
    encode : callable
        ``encode(texts, spans)`` → pooled vectors (a :meth:`~wsd.tune.forward.SpanEncoder.encode`).
    pairset : PairSet
        The validation pairs.
    batch_uses : int
        Uses encoded per call.

    Returns
    -------
    dict
        As :func:`pair_figures`.
    """
    uses = pairset.uses
    spans = uses[["start", "end"]].to_numpy(dtype=np.int64)
    texts = uses["text"].tolist()
    with torch.no_grad():
        vectors = torch.cat(
            [encode(texts[i : i + batch_uses], spans[i : i + batch_uses]) for i in range(0, len(uses), batch_uses)]
        )
    vectors = torch.nn.functional.normalize(vectors.float(), dim=1)
    row_of = {use: row for row, use in enumerate(uses["use_id"])}
    first = torch.tensor([row_of[u] for u in pairset.pairs["use_id_1"]], dtype=torch.long)
    second = torch.tensor([row_of[u] for u in pairset.pairs["use_id_2"]], dtype=torch.long)
    scores = (vectors[first] * vectors[second]).sum(1).cpu().numpy().astype(np.float64)
    return pair_figures(scores, pairset.pairs["label"].to_numpy(), pairset.pairs["kind"].to_numpy())
