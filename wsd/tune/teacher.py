"""Distillation: a teacher encoder labels every training pair with its own cosine of the two uses.

With ``--teacher MODEL`` (:attr:`wsd.tune.TuneOptions.teacher`), each training step's pairs keep their uses but
not their source labels: the teacher encodes the step's uses once (no gradients, the same layers, pooling,
window and context vector as the student), and each pair's label becomes the teacher's cosine, mapped from
[−1, 1] onto the graded scale 1–4. The batch is then graded, so ``--loss auto`` trains it with CoSENT, which asks
the student to **order the pairs as the teacher does**. A larger encoder's sense distinctions move into the
bundled one this way, from unlabelled uses (``uses:FILE``, :mod:`wsd.tune.usages`) as well as labelled ones
(the labels are not read). With ``--teacher-labels unlabelled`` the teacher labels only the pairs that have no
label (``uses:FILE``), and the labelled sources train on their human labels beside it (each batch holds one
label kind, so a batch is either the teacher's or the humans'). Validation still scores the human labels of the
held-out lemmas; held-out unlabelled pairs are labelled by the teacher once (:meth:`Teacher.label_unlabelled`),
so they score the student's agreement with it.

The teacher runs in fp32 (the same labels on every machine, up to the order of floating-point sums).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from wsd.errors import ConfigError
from wsd.options import TuneOptions
from wsd.tune.batches import Batch
from wsd.tune.pairs import GRADED, GRADED_RANGE, UNLABELLED, PairSet


def cosine_to_graded(cosines: np.ndarray) -> np.ndarray:
    """Cosines in [−1, 1] mapped linearly onto the graded scale 1–4 (clipped; only their order matters to CoSENT).

    Parameters
    ----------
    cosines : ndarray of float

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> cosine_to_graded(np.array([-1.0, 0.0, 1.0])).tolist()
    [1.0, 2.5, 4.0]
    """
    low, high = GRADED_RANGE
    graded = low + (high - low) * (np.asarray(cosines, dtype=np.float64) + 1.0) / 2.0
    return np.clip(graded, low, high)


class Teacher:
    """An encoder whose cosines label the student's training pairs (see the module docstring).

    Parameters
    ----------
    options : TuneOptions
        The student's options: the teacher (:attr:`~wsd.options.TuneOptions.teacher`, as ``--model`` takes it: a
        folder, ``wsd:NAME``, a Hub name, ``default``), which pairs it labels (``teacher_labels``: every pair, or
        only those without a label) and how its word vectors are made (the student's layers, pooling, window,
        context vector and device, so both compare the same kind of vector).

    Attributes
    ----------
    encoder : wsd.Encoder
        The loaded teacher.
    labels : {"all", "unlabelled"}
        Which pairs :meth:`relabel` labels.

    Raises
    ------
    ConfigError
        For options without a teacher.
    """

    def __init__(self, options: TuneOptions) -> None:
        from wsd.embed.encoder import Encoder

        if options.teacher is None:
            raise ConfigError("a teacher needs its model: TuneOptions(teacher=MODEL)")
        self.labels = options.teacher_labels
        self.encoder = Encoder.from_options(options.encoder_options(options.teacher))

    @property
    def identity(self) -> dict[str, Any]:
        """The teacher's name and fingerprint (what a model card records).

        Returns
        -------
        dict
        """
        return {
            "name": self.encoder.loaded.name,
            "fingerprint": self.encoder.loaded.fingerprint,
            "labels": self.labels,
        }

    def cosines(self, texts: list[str], spans: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """The teacher's cosine of each pair (``first[i]``, ``second[i]``) of the uses (``texts``, ``spans``).

        Parameters
        ----------
        texts : list of str
            The uses' texts.
        spans : ndarray of int, shape (n, 2)
            The targets' character spans.
        first, second : ndarray of int
            Row numbers of the two sides of each pair.

        Returns
        -------
        ndarray of float64
        """
        vectors = np.asarray(self.encoder.embed_spans(texts, spans, progress=False), dtype=np.float64)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit = vectors / np.where(norms > 0, norms, 1.0)
        return (unit[first] * unit[second]).sum(axis=1)

    def relabel(self, batch: Batch, texts: list[str], spans: np.ndarray) -> Batch:
        """The batch with every pair labelled by the teacher's cosine (graded 1–4).

        A teacher of ``labels="unlabelled"`` returns a labelled batch as it is (its pairs keep their labels).

        Parameters
        ----------
        batch : Batch
            A training step's uses and pairs.
        texts : list of str
            The texts of ``batch.uses``, in order.
        spans : ndarray of int, shape (n, 2)
            Their target spans.

        Returns
        -------
        Batch
        """
        if self.labels == "unlabelled" and batch.kind != UNLABELLED:
            return batch
        labels = cosine_to_graded(self.cosines(texts, spans, batch.first, batch.second))
        return dataclasses.replace(batch, labels=labels, kind=GRADED)

    def label_unlabelled(self, pairset: PairSet) -> PairSet:
        """The pair set with its unlabelled pairs (``uses:FILE``) labelled by the teacher's cosine (graded 1–4).

        Labelled pairs keep their labels. This gives a validation set of unlabelled uses its figures: how well
        the student's cosines follow the teacher's on held-out lemmas.

        Parameters
        ----------
        pairset : PairSet

        Returns
        -------
        PairSet
        """
        pairs = pairset.pairs
        todo = (pairs["kind"] == UNLABELLED).to_numpy()
        if not todo.any():
            return pairset
        needed = pd.unique(pd.concat([pairs.loc[todo, "use_id_1"], pairs.loc[todo, "use_id_2"]]))
        uses = pairset.uses.set_index("use_id").loc[needed]
        row = pd.Series(np.arange(len(needed)), index=needed)
        spans = uses[["start", "end"]].to_numpy(dtype=np.int64)
        cosines = self.cosines(
            uses["text"].tolist(),
            spans,
            row.loc[pairs.loc[todo, "use_id_1"]].to_numpy(),
            row.loc[pairs.loc[todo, "use_id_2"]].to_numpy(),
        )
        labelled = pairs.copy()
        labelled.loc[todo, "label"] = cosine_to_graded(cosines)
        labelled.loc[todo, "kind"] = GRADED
        return PairSet(pairset.uses, labelled, pairset.stats)
