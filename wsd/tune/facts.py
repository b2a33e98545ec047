"""The shape of ``wsd_tune.json``, the facts a tuned model folder keeps about itself (:mod:`wsd.tune.card`).

:func:`wsd.tune.tune_encoder` and :func:`wsd.tune.average_encoders` write a :class:`TuneFacts`; the model card,
the leakage guard and ``wsd tune`` read one. A file written by an earlier wsd may lack keys added since, so every
key is optional to a reader (``total=False``), and a reader uses ``.get`` where a key came later.

>>> facts: TuneFacts = {"format": "wsd-tune/1", "training_lemmas": ["bank"]}
>>> facts["training_lemmas"]
['bank']
"""

from __future__ import annotations

from typing import Any, TypedDict


class TuneConfig(TypedDict, total=False):
    """What decides the weights (compared when a run resumes or a folder is written again).

    Trained: ``options`` (:meth:`wsd.options.TuneOptions.weight_settings`), ``sources``, ``pairs``, ``exclude``,
    ``excluded_lemmas``; averaged: ``average`` (model, fingerprint, weight) and ``word_vectors``.
    """

    options: dict[str, Any]
    sources: list[str]
    pairs: int
    exclude: list[str]
    excluded_lemmas: list[str]
    average: list[dict[str, Any]]
    word_vectors: dict[str, Any]


class BaseModelFacts(TypedDict, total=False):
    """The model tuned: its name, where it was read (``bundled``, a folder, a Hub name), its fingerprint."""

    name: str
    location: str
    fingerprint: str | None


class SourceFacts(TypedDict, total=False):
    """One training source: its name, its counts (lemmas, uses, pairs, ...), its lemmas, the reader's counts."""

    name: str
    counts: dict[str, int]
    lemmas: list[str]
    read: dict[str, int]


class TrainingFacts(TypedDict, total=False):
    """How the training went (an average: ``machine``, ``seconds`` and ``averaged`` only)."""

    loss: dict[str, str]
    epochs: int
    steps: int
    steps_planned: int
    stopped_early: bool
    best_step: int
    final_loss: float | None
    seconds: float
    machine: str
    platform: str
    device: str
    precision: str
    precision_choice: dict[str, Any]
    arithmetic: dict[str, Any]
    averaged: int


class ValidationFacts(TypedDict):
    """The validation pairs and the figures before training and at each validation."""

    pairs: int
    history: list[dict[str, Any]]


class TuneFacts(TypedDict, total=False):
    """A model folder's ``wsd_tune.json`` (its keys are described in :mod:`wsd.tune.card`)."""

    format: str
    config: TuneConfig
    given_sources: list[str]
    base_model: BaseModelFacts
    sources: list[SourceFacts]
    teacher: dict[str, Any] | None
    training_lemmas: list[str]
    validation_lemmas: list[str]
    excluded_lemmas: list[str]
    inherited_lemmas: list[str]
    training: TrainingFacts
    validation: ValidationFacts
    versions: dict[str, Any]
    average: list[dict[str, Any]]
    recipe: dict[str, Any]
