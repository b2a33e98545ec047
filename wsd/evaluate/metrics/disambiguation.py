"""Disambiguation metrics (few-shot, supervised): accuracy and macro-F1 of predicted senses against gold senses.

Each occurrence has one gold sense and one predicted sense (hard labels). A sense is a ``(target, label)`` pair,
so two words whose labels are spelled alike (``1``, ``2``) keep their senses apart.

- **accuracy**: the share of occurrences whose predicted sense is the gold one;
- **macro-F1**: the unweighted mean, over every sense that is a gold or a predicted sense of some occurrence, of
  that sense's F1 (as ``sklearn.metrics.f1_score(average="macro", zero_division=0)``): rare senses weigh as much as
  frequent ones, so a system that always answers the most frequent sense scores low.

Both are given overall and per target.

>>> disambiguation_scores(["bank", "bank", "bat"], ["money", "river", "club"], ["money", "money", "club"])["accuracy"]
0.6666666666666666
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from wsd.errors import InputError


def _f1_macro(gold: np.ndarray, predicted: np.ndarray) -> float:
    """Macro-F1 over the labels of either side: per label ``2 tp / (gold + predicted)``, which is
    ``sklearn.metrics.f1_score(average="macro", zero_division=0)`` (a test checks the two agree) without its
    per-call validation (an experiment scores thousands of splits)."""
    labels, codes = np.unique(np.concatenate([gold, predicted]), return_inverse=True)
    gold_codes, predicted_codes = codes[: len(gold)], codes[len(gold) :]
    hits = np.bincount(gold_codes[gold_codes == predicted_codes], minlength=len(labels))
    sizes = np.bincount(gold_codes, minlength=len(labels)) + np.bincount(predicted_codes, minlength=len(labels))
    return float(np.mean(2 * hits / sizes))


def disambiguation_scores(
    targets: Sequence[str] | np.ndarray, gold: Sequence[str] | np.ndarray, predicted: Sequence[str] | np.ndarray
) -> dict[str, Any]:
    """Accuracy and macro-F1 of predicted senses, overall and per target (see the module docstring).

    Parameters
    ----------
    targets : sequence of str
        The target of each occurrence.
    gold : sequence of str
        Its gold sense.
    predicted : sequence of str
        Its predicted sense.

    Returns
    -------
    dict
        ``accuracy``, ``macro_f1``, ``n`` (occurrences scored) and ``per_target``: ``target -> {accuracy,
        macro_f1, n}``.

    Raises
    ------
    InputError
        When the three sequences differ in length, or are empty.

    Examples
    --------
    >>> scores = disambiguation_scores(["w"] * 4, ["a", "a", "a", "b"], ["a", "a", "a", "a"])
    >>> scores["accuracy"], round(scores["macro_f1"], 3)
    (0.75, 0.429)
    """
    t = np.asarray(targets, dtype=str)
    g = np.asarray(gold, dtype=str)
    p = np.asarray(predicted, dtype=str)
    if not len(t) == len(g) == len(p):
        raise InputError(f"{len(t)} targets, {len(g)} gold and {len(p)} predicted senses: give one of each per row")
    if not len(t):
        raise InputError("no occurrences with a gold sense to score")
    correct = g == p
    separator = "\x1f"  # a sense is (target, label): joined with a character no label holds
    pooled_gold = np.char.add(np.char.add(t, separator), g)
    pooled_predicted = np.char.add(np.char.add(t, separator), p)
    per_target: dict[str, dict[str, Any]] = {}
    for target in np.unique(t):
        rows = t == target
        per_target[str(target)] = {
            "accuracy": float(correct[rows].mean()),
            "macro_f1": _f1_macro(g[rows], p[rows]),
            "n": int(rows.sum()),
        }
    return {
        "accuracy": float(correct.mean()),
        "macro_f1": _f1_macro(pooled_gold, pooled_predicted),
        "n": len(t),
        "per_target": per_target,
    }
