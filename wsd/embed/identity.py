"""What identifies an encoder's word vectors, and the two views of it that the rest of wsd compares.

:meth:`wsd.Encoder.identity` returns an :class:`EncoderIdentity`: every setting that shapes the vectors
(model and its fingerprint, layers, pooling, windows, precision, context vector), the batch size and the
vectors' dimension. Two consumers each compare their own part of it:

- :meth:`EncoderIdentity.embedding_meta` is stored beside vectors (a run's ``meta.json`` ``embedding``, the
  vector cache, a sense model's ``embedding_meta``) and compared by a sense model before it predicts: it has
  ``dim`` and no batch size, and ``context_vector`` only when there is one;
- :meth:`EncoderIdentity.run_config` is what a run records as its ``embed`` configuration and compares when
  it resumes: it has the batch size and no ``dim``, and ``context_vector`` always (``None`` when off).

>>> identity = EncoderIdentity("m", "f", "last", "mean", 128, None, "fp32", None, 32, 384)
>>> sorted(set(identity.run_config()) ^ set(identity.embedding_meta()))
['batch_size', 'context_vector', 'dim']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wsd.io.meta_types import EmbedConfig, VectorMeta, VectorSettings


@dataclass(frozen=True)
class EncoderIdentity:
    """Everything that identifies the word vectors of an encoder for one (layers, pooling) choice.

    How the runtime and precision were chosen (given, or measured by ``auto``: :mod:`wsd.embed.calibration`) is no
    part of it: the vectors are those of the runtime and precision, however they were chosen, so a run resumed
    after a new measurement compares only what it computes with.

    Parameters
    ----------
    model : str
        The model's display name (``all-MiniLM-L6-v2``, a folder, a Hugging Face name).
    model_fingerprint : str
        A hash of the model's configuration and weight file sizes.
    layers : str
        The canonical name of the layer specification (:mod:`wsd.embed.layers`).
    pooling : str
        The subword pooling (:mod:`wsd.embed.pooling`).
    max_length : int
        Longest window in tokens, special tokens included.
    window_tokens : int or None
        The most tokens either side of an occurrence (``None``: as many as fit).
    precision : str
        The concrete precision the model runs in (``fp32``, ``bf16``, ``fp16``, ``int8``).
    context_vector : str or None
        The canonical context-vector specification (:mod:`wsd.embed.context`), ``None`` when off.
    batch_size : int
        Windows per forward pass.
    dim : int
        Columns of a word vector (target and context vector together).
    model_revision : str or None
        For a model loaded by Hugging Face Hub name, the commit hash of the snapshot it was loaded from
        (``None`` for a local folder, the bundled model included).
    runtime : str
        The forward pass's runtime (``torch`` or ``openvino``): their vectors differ in float rounding, so
        they are never mixed.
    quantisation : str or None
        For a model quantised with NNCF (``openvino`` ``int8``), what it was quantised on and how
        (:func:`wsd.embed.ov_int8.calibration_identity`): two quantisations give different vectors (``None``
        otherwise).
    """

    model: str
    model_fingerprint: str
    layers: str
    pooling: str
    max_length: int
    window_tokens: int | None
    precision: str
    context_vector: str | None
    batch_size: int
    dim: int
    model_revision: str | None = None
    runtime: str = "torch"
    quantisation: str | None = None

    def _settings(self) -> VectorSettings:
        """The settings that change the vectors, in the order they are written to disk.

        ``model_revision`` is there only for a Hub model, ``runtime`` only for a runtime other than PyTorch and
        ``quantisation`` only for a quantised model, so the settings of a local model run by PyTorch are as they
        always were.
        """
        settings: VectorSettings = {"model": self.model, "model_fingerprint": self.model_fingerprint}
        if self.model_revision is not None:
            settings["model_revision"] = self.model_revision
        settings |= {
            "layers": self.layers,
            "pooling": self.pooling,
            "max_length": self.max_length,
            "window_tokens": self.window_tokens,
            "precision": self.precision,
        }
        if self.runtime != "torch":
            settings["runtime"] = self.runtime
        if self.quantisation is not None:
            settings["quantisation"] = self.quantisation
        return settings

    def embedding_meta(self) -> VectorMeta:
        """The metadata stored with vectors: vectors whose metadata differ must never be mixed.

        Returns
        -------
        VectorMeta
            The settings that change the vectors and ``dim``; ``context_vector`` only when there is one.
            A sense model compares every field before it predicts; the vector cache keys on it.
        """
        meta: VectorMeta = {**self._settings(), "dim": self.dim}
        if self.context_vector is not None:
            meta["context_vector"] = self.context_vector
        return meta

    def run_config(self) -> EmbedConfig:
        """The ``embed`` configuration a run records: resuming with a different one is refused.

        Returns
        -------
        EmbedConfig
            The settings that change the vectors, ``context_vector`` (``None`` when off) and ``batch_size``;
            no ``dim``.
        """
        return {**self._settings(), "context_vector": self.context_vector, "batch_size": self.batch_size}

    def to_dict(self) -> dict[str, Any]:
        """Every field.

        Returns
        -------
        dict
            The settings (``model_revision`` for a Hub model), ``context_vector``, ``batch_size`` and ``dim``.
        """
        return {**self.run_config(), "dim": self.dim}
