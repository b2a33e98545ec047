"""Training batches grouped by lemma, chosen through the labelled pairs: each use encoded once per step.

An epoch's batches are planned from ``(seed, epoch)`` alone, so a resumed run finds the same batches again
(the sampling state is just the epoch and the position in it):

1. For each lemma of each source, its pairs are shuffled and walked: a pair's uses join the current chunk
   while the chunk holds at most ``batch_uses`` uses; a pair already scored inside a chunk (both its uses are
   there) is not walked again. So every labelled pair is scored at least once an epoch, and a chunk scores
   **every** labelled pair among its uses — far more than random uses of a sparse judgment graph share.
2. Chunks of one label kind are packed together, in shuffled order, while the batch stays within
   ``batch_uses`` uses (a WiC lemma with 2 uses does not take a step of its own).
3. The batches of all kinds are shuffled.

A batch is the uses to encode and the pairs to score (as row numbers into the pair set's tables).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from wsd.tune.pairs import PairSet


@dataclass(frozen=True)
class Batch:
    """One training step's uses and the labelled pairs among them.

    Parameters
    ----------
    uses : ndarray of int
        Rows of ``PairSet.uses`` to encode, each once.
    first, second : ndarray of int
        For each scored pair, the positions of its two uses in ``uses``.
    labels : ndarray of float
        The pairs' labels.
    kind : str
        ``graded`` or ``binary`` (one kind per batch).
    """

    uses: np.ndarray
    first: np.ndarray
    second: np.ndarray
    labels: np.ndarray
    kind: str


class PairIndex:
    """A pair set as integer arrays: the use rows of each pair, and the pairs of each (source, lemma).

    Parameters
    ----------
    pairset : PairSet
        The training pairs.
    """

    def __init__(self, pairset: PairSet) -> None:
        row_of = pd.Series(np.arange(len(pairset.uses)), index=pairset.uses["use_id"].to_numpy())
        pairs = pairset.pairs
        self.use_1 = row_of.loc[pairs["use_id_1"]].to_numpy()
        self.use_2 = row_of.loc[pairs["use_id_2"]].to_numpy()
        self.labels = pairs["label"].to_numpy(dtype=np.float64)
        self.kinds = pairs["kind"].to_numpy()
        groups = pairs.groupby(["source", "lemma"], sort=True).indices
        self.groups: list[np.ndarray] = [np.asarray(groups[key]) for key in sorted(groups)]
        self.group_kind = [str(self.kinds[rows[0]]) for rows in self.groups]

    def chunks(
        self, rows: np.ndarray, batch_uses: int, rng: np.random.Generator
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Split one lemma's pairs into chunks of at most ``batch_uses`` uses (see the module docstring).

        Parameters
        ----------
        rows : ndarray of int
            The lemma's pair rows.
        batch_uses : int
            The most uses in a chunk.
        rng : numpy.random.Generator
            Shuffles the pairs.

        Returns
        -------
        list of (uses, pairs)
            Use rows and the pair rows scored among them.
        """
        order = rows[rng.permutation(len(rows))]
        covered = np.zeros(len(order), dtype=bool)
        first, second = self.use_1[order], self.use_2[order]
        result = []
        while not covered.all():
            chosen: list[int] = []
            members: set[int] = set()
            for at in np.flatnonzero(~covered):
                new = {int(first[at]), int(second[at])} - members
                if len(members) + len(new) > batch_uses:
                    continue
                members |= new
                chosen.extend(sorted(new))
                if len(members) >= batch_uses:
                    break
            inside = np.isin(first, chosen) & np.isin(second, chosen)
            covered |= inside
            result.append((np.asarray(chosen, dtype=np.int64), order[inside]))
        return result

    def epoch(self, seed: int, epoch: int, batch_uses: int) -> list[Batch]:
        """The batches of one epoch (the same for the same seed and epoch).

        Parameters
        ----------
        seed : int
            The run's seed.
        epoch : int
            The epoch (0-based).
        batch_uses : int
            The most uses in a batch.

        Returns
        -------
        list of Batch
        """
        rng = np.random.default_rng([seed, epoch, 0x7475])
        by_kind: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
        for rows, kind in zip(self.groups, self.group_kind, strict=True):
            by_kind.setdefault(kind, []).extend(self.chunks(rows, batch_uses, rng))
        batches: list[Batch] = []
        for kind in sorted(by_kind):
            chunks = by_kind[kind]
            packed: list[tuple[np.ndarray, np.ndarray]] = []
            for index in rng.permutation(len(chunks)):
                uses, pairs = chunks[index]
                if packed and len(packed[-1][0]) + len(uses) <= batch_uses:
                    packed[-1] = (np.concatenate([packed[-1][0], uses]), np.concatenate([packed[-1][1], pairs]))
                else:
                    packed.append((uses, pairs))
            batches.extend(self._batch(uses, pairs, kind) for uses, pairs in packed)
        return [batches[i] for i in rng.permutation(len(batches))]

    def _batch(self, uses: np.ndarray, pairs: np.ndarray, kind: str) -> Batch:
        position = {int(use): at for at, use in enumerate(uses)}
        first = np.fromiter((position[int(u)] for u in self.use_1[pairs]), dtype=np.int64, count=len(pairs))
        second = np.fromiter((position[int(u)] for u in self.use_2[pairs]), dtype=np.int64, count=len(pairs))
        return Batch(uses, first, second, self.labels[pairs], kind)
