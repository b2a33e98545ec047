"""Unlabelled uses (``uses:FILE``): uses of lemmas in running text, with no labels, for distillation.

The file is the generic occurrence format (:mod:`wsd.evaluate.datasets.generic`: ``id, target, text, start,
end``, TSV or JSON Lines; a ``sense`` column is ignored), so the uses of any corpus can be written with
:func:`wsd.evaluate.datasets.generic.write_generic` after :func:`wsd.corpus.scan.scan`. Its pairs carry no
label (kind ``unlabelled``): a teacher encoder labels them (``wsd tune --teacher MODEL``,
:mod:`wsd.tune.teacher`), and ``wsd tune`` refuses the source without one.

Since a teacher can label *every* pair, each lemma's uses are paired completely: a lemma keeps at most ``n``
uses (a seeded sample), the most whose ``n(n−1)/2`` pairs fit the cap on pairs per lemma (45 uses for the
default cap of 1,000), so a training step of 24 uses scores all of its 276 pairs. Lemmas with one use are
dropped (counted in the stats).
"""

from __future__ import annotations

import math
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from wsd.errors import InputError
from wsd.tune.pairs import (
    DEFAULT_MAX_PAIRS,
    UNLABELLED,
    PairSet,
    check_pair_cap,
    lemma_pairs,
    lemma_uses,
    normalize_lemma,
    use_id,
)


def uses_for_pairs(max_pairs: int | None) -> int | None:
    """The most uses whose complete pairing stays within ``max_pairs`` (``None``: no cap).

    Parameters
    ----------
    max_pairs : int or None
        The cap on pairs per lemma (at least 1).

    Returns
    -------
    int or None
        The largest ``n`` with ``n(n-1)/2 <= max_pairs`` (``None`` when ``max_pairs`` is).

    Raises
    ------
    ConfigError
        When ``max_pairs`` is below 1 (:func:`~wsd.tune.pairs.check_pair_cap`).

    Examples
    --------
    >>> uses_for_pairs(1000), uses_for_pairs(1), uses_for_pairs(None)
    (45, 2, None)
    """
    check_pair_cap(max_pairs)
    if max_pairs is None:
        return None
    n = int((1 + math.isqrt(1 + 8 * max_pairs)) // 2)
    while n * (n - 1) // 2 > max_pairs:
        n -= 1
    return n


def _read(path: Path) -> pd.DataFrame:
    from wsd.evaluate.datasets.generic import read_generic

    table = read_generic(path)
    if table.empty:
        raise InputError(f"uses file {path} holds no use")
    return table


def load(
    path: str | Path,
    *,
    max_pairs_per_lemma: int | None = DEFAULT_MAX_PAIRS,
    random_state: int = 0,
    name: str | None = None,
) -> PairSet:
    """Read a file of unlabelled uses into a pair set of unlabelled pairs (see the module docstring).

    Parameters
    ----------
    path : str or Path
        A generic-format file (TSV or JSON Lines, ``.gz`` allowed).
    max_pairs_per_lemma : int or None
        Caps each lemma's pairs by sampling its uses down to :func:`uses_for_pairs` (``None``: every use).
    random_state : int
        Seed of that sampling (mixed with the lemma, so a lemma's sample does not depend on the others).
    name : str, optional
        The source name (default ``uses:<path>``).

    Returns
    -------
    PairSet
        Pairs of kind ``unlabelled`` (label NaN); ``stats`` counts ``records``, ``lemmas``, ``single_use_lemmas``
        (dropped), ``capped_lemmas``, ``paired_uses`` and ``pairs``.

    Raises
    ------
    InputError
        For a missing, empty or malformed file (line-numbered, as the generic reader), or one in which no lemma
        has two uses.

    Examples
    --------
    >>> load("sotu-uses.jsonl").counts()                       # doctest: +SKIP
    """
    path = Path(path).expanduser()
    name = name or f"uses:{path}"
    keep = uses_for_pairs(max_pairs_per_lemma)
    table = _read(path)
    table = table.assign(lemma=table["target"].astype(str).map(normalize_lemma))
    stats = {"records": len(table), "lemmas": 0, "single_use_lemmas": 0, "capped_lemmas": 0}
    uses, pairs = [], []
    for lemma, group in table.groupby("lemma", sort=True):
        if len(group) < 2:
            stats["single_use_lemmas"] += 1
            continue
        stats["lemmas"] += 1
        if keep is not None and len(group) > keep:
            stats["capped_lemmas"] += 1
            rng = np.random.default_rng([random_state, zlib.crc32(str(lemma).encode("utf-8"))])
            group = group.iloc[np.sort(rng.choice(len(group), keep, replace=False))]
        ids = np.array([use_id(name, ident) for ident in group["id"]], dtype=object)
        first, second = np.triu_indices(len(group), k=1)
        uses.append(lemma_uses(name, lemma, ids, group))
        pairs.append(lemma_pairs(name, lemma, ids[first], ids[second], np.nan, UNLABELLED))
    if not pairs:
        raise InputError(f"uses file {path}: no lemma has two uses to pair (each target needs at least two)")
    use_table = pd.concat(uses, ignore_index=True)
    pair_table = pd.concat(pairs, ignore_index=True)
    stats.update(paired_uses=len(use_table), pairs=len(pair_table))
    return PairSet(use_table, pair_table, {name: stats})


def lemmas(path: str | Path) -> set[str]:
    """The normalised targets of a file of uses (for ``--exclude uses:FILE``).

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    set of str
    """
    return {normalize_lemma(str(target)) for target in _read(Path(path).expanduser())["target"].unique()}


__all__ = ["lemmas", "load", "uses_for_pairs"]
