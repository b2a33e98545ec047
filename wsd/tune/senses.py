"""Training pairs from a labelled sense dataset (``semeval2013:DIR``, ``semeval2010:DIR``, ``russe2018:DIR``,
``generic:FILE``): two uses of one target are a "same" pair (1) when they share a gold sense, else "different" (0).

The dataset is read by :func:`wsd.evaluate.datasets.load_dataset`, exactly as ``wsd evaluate --dataset``
reads it. Uses without a gold label are left out (counted). Pairs are formed among the uses of one
``target`` (``add.v``: a noun and a verb of one spelling are not paired); the pair's ``lemma`` is the target
normalised (:func:`~wsd.tune.pairs.normalize_lemma`).

**Graded senses** (SemEval-2013 gives some instances several weighted senses): each use's *top* senses are
those of the largest weight (usually one; ties keep all); two uses are "same" when their top senses
intersect. ``add%2:30:00::/4 add%2:32:01::/2`` and ``add%2:30:00::`` are the same; ``add%2:32:01::``
alone is different from the first.

**Sampling.** A target with ``n`` uses has ``n(n-1)/2`` pairs; beyond ``max_pairs_per_lemma`` a seeded,
balanced sample is drawn (:func:`~wsd.tune.pairs.sense_pairs`). Uses in no drawn pair are left out.

``stats``: ``targets`` (target and inventory groups), ``uses`` (labelled uses read), ``unlabelled`` (left
out), ``paired_uses``, ``pairs``, ``same``, ``different``, ``capped_targets`` (targets whose pairs were sampled).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wsd.errors import ConfigError, InputError
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.keys import parse_senses
from wsd.tune.pairs import (
    BINARY,
    DEFAULT_MAX_PAIRS,
    PairSet,
    lemma_pairs,
    lemma_uses,
    normalize_lemma,
    sense_pairs,
    use_id,
)

#: The sense datasets a training source may name (the ``wsd evaluate --dataset`` names, ``wug`` aside: a WUG
#: folder trains on its judgments, :mod:`wsd.tune.wug`).
SENSE_DATASETS: tuple[str, ...] = ("semeval2013", "semeval2010", "russe2018", "generic")


def top_senses(label: str, where: str) -> frozenset[str]:
    """The senses of largest weight in a gold label (``s1/4 s2/2`` → ``{s1}``; ``s1 s2`` → both).

    Parameters
    ----------
    label : str
        A gold ``sense`` value: ``label`` or ``label/weight label/weight ...``.
    where : str
        For messages.

    Returns
    -------
    frozenset of str

    Raises
    ------
    InputError
        For a malformed weight.

    Examples
    --------
    >>> sorted(top_senses("a/4 b/2", "x")), sorted(top_senses("a/1 b/1", "x"))
    (['a'], ['a', 'b'])
    """
    senses = parse_senses(label, where)
    top = max(senses.values(), default=0.0)
    return frozenset(sense for sense, weight in senses.items() if weight == top)


def agreement(tops: list[frozenset[str]]) -> np.ndarray:
    """Which uses share a top sense: an ``n × n`` boolean matrix.

    Parameters
    ----------
    tops : list of frozenset of str
        Each use's top senses.

    Returns
    -------
    ndarray of bool

    Examples
    --------
    >>> agreement([frozenset("a"), frozenset("ab"), frozenset("b")]).astype(int).tolist()
    [[1, 1, 0], [1, 1, 1], [0, 1, 1]]
    """
    labels = sorted(set().union(*tops)) if tops else []
    column = {label: index for index, label in enumerate(labels)}
    member = np.zeros((len(tops), len(labels)), dtype=np.int64)
    for row, senses in enumerate(tops):
        member[row, [column[s] for s in senses]] = 1
    return (member @ member.T) > 0


def inventories(kind: str, subsets: dict[str, frozenset[str]], ids: pd.Series) -> np.ndarray:
    """The sense inventory of each use: RUSSE 2018 numbers senses per file, so each file is one; else one.

    Parameters
    ----------
    kind : str
        The dataset kind.
    subsets : dict of str to frozenset of str
        The bundle's named subsets (RUSSE: one per loaded file, ``wiki-wiki/train``).
    ids : pandas.Series
        The occurrence ids.

    Returns
    -------
    ndarray of str
        The inventory name per use (``""`` where the dataset has one inventory).

    Examples
    --------
    >>> inventories("russe2018", {"a/train": frozenset({"1"}), "a": frozenset({"1"})}, pd.Series(["1"])).tolist()
    ['a/train']
    """
    names = np.full(len(ids), "", dtype=object)
    if kind == "russe2018":
        for subset, members in subsets.items():
            if "/" in subset:
                names[ids.isin(members).to_numpy()] = subset
    return names


def load(
    kind: str,
    path: str | Path,
    *,
    max_pairs_per_lemma: int | None = DEFAULT_MAX_PAIRS,
    random_state: int = 0,
    name: str | None = None,
    **options: object,
) -> PairSet:
    """Read a labelled sense dataset as binary training pairs (same / different gold sense).

    Parameters
    ----------
    kind : str
        One of :data:`SENSE_DATASETS`.
    path : str or Path
        As for :func:`wsd.evaluate.datasets.load_dataset`.
    max_pairs_per_lemma : int or None
        The cap on pairs per target (``None``: every pair).
    random_state : int
        Seed of the sampling.
    name : str, optional
        The source name (default ``<kind>:<path>``).
    **options
        Reader options passed on (``key=``, ``splits=``, ...).

    Returns
    -------
    PairSet
        The labelled uses of every target with two or more of them, and their pairs (label 1: same sense).

    Raises
    ------
    InputError
        As the dataset reader; when the dataset has no gold senses.
    ConfigError
        For an unknown dataset kind or reader option.

    Examples
    --------
    >>> load("semeval2013", "../shared/datasets").counts()     # doctest: +SKIP
    """
    name = name or f"{kind}:{path}"
    if kind not in SENSE_DATASETS:
        raise ConfigError(f"{kind!r} is not a sense dataset ({', '.join(SENSE_DATASETS)})")
    bundle = load_dataset(kind, path, **options)
    table = bundle.occurrences
    if not bundle.labelled:
        raise InputError(f"{kind} dataset {path}: no gold senses to pair uses by")
    labelled = table["sense"].astype(str).str.strip() != ""
    stats = {"targets": 0, "uses": int(labelled.sum()), "unlabelled": int((~labelled).sum()), "capped_targets": 0}
    uses, pairs = [], []
    table = table.assign(inventory=inventories(kind, bundle.subsets, table["id"]))
    for (inventory, target), group in table.loc[labelled].groupby(["inventory", "target"], sort=True):
        lemma = normalize_lemma(str(target))
        tops = [top_senses(str(s), f"{kind} {path}: use {i}") for i, s in zip(group["id"], group["sense"], strict=True)]
        first, second, label = sense_pairs(
            agreement(tops), f"{inventory}/{target}", max_pairs=max_pairs_per_lemma, random_state=random_state
        )
        stats["targets"] += 1
        n = len(group)
        stats["capped_targets"] += max_pairs_per_lemma is not None and n * (n - 1) // 2 > max_pairs_per_lemma
        ids = np.array([use_id(name, ident) for ident in group["id"]], dtype=object)
        used = np.unique(np.concatenate([first, second]))
        uses.append(lemma_uses(name, lemma, ids[used], group.iloc[used]))
        pairs.append(lemma_pairs(name, lemma, ids[first], ids[second], label, BINARY))
    use_table = pd.concat(uses, ignore_index=True) if uses else pd.DataFrame(columns=["use_id"])
    pair_table = pd.concat(pairs, ignore_index=True) if pairs else pd.DataFrame(columns=["use_id_1"])
    if not len(pair_table):
        raise InputError(f"{kind} dataset {path}: no target has two labelled uses to pair")
    same = int((pair_table["label"] == 1).sum())
    stats.update(paired_uses=len(use_table), pairs=len(pair_table), same=same, different=len(pair_table) - same)
    return PairSet(use_table, pair_table, {name: stats})


def lemmas(kind: str, path: str | Path, **options: object) -> set[str]:
    """The normalised targets of a sense dataset (labelled or not).

    Parameters
    ----------
    kind : str
        One of :data:`SENSE_DATASETS`.
    path : str or Path
        As for :func:`load`.
    **options
        Reader options.

    Returns
    -------
    set of str
    """
    bundle = load_dataset(kind, path, **options)
    return {normalize_lemma(str(target)) for target in bundle.occurrences["target"].unique()}
