"""Target + context word vectors: the occurrence's own vector beside a pooled vector of the tokens around it.

A contextual vector of a word still carries much of the word's identity; the tokens around it say which
sense is meant. With a context-vector specification (``Encoder(context_vector=...)``) the encoder
returns, for every occurrence,

    [ target / ‖target‖ ,  weight · context / ‖context‖ ]

where ``target`` is the usual word vector (layers and subword pooling as asked) and ``context`` is the mean,
over the ``tokens`` subword tokens either side of the occurrence **and the occurrence's own pieces**, of the
hidden states of the context ``layers`` (``last`` by default: the layer a sentence-embedding model is
trained to mean-pool). Both come from the SAME forward pass over the same window (see
:func:`context_plan`), so the context costs no extra model call.

A specification is a string ``TOKENS[:LAYERS[:WEIGHT]]``: ``"10"`` (±10 tokens, last layer, weight 0.5),
``"all:last:0.5"`` (the whole window), ``"5:sum-last-4:0.7"``; ``None``/``"none"`` turns it off.

>>> parse_context("10").name
'10:last:0.5'
>>> parse_context("none") is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from wsd.embed.layers import LayerSpec, parse_layers
from wsd.embed.windows import WindowPlan
from wsd.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from wsd.embed.encoder import Config, Encoder

DEFAULT_CONTEXT_LAYERS = "last"
DEFAULT_CONTEXT_WEIGHT = 0.5
#: Values that turn the context off.
OFF = ("", "none", "off", "no")
_EPSILON = 1e-12


@dataclass(frozen=True)
class ContextSpec:
    """A parsed context specification: window half-width, layers pooled, weight beside the target.

    ``tokens=None`` means the whole window the model sees.
    """

    tokens: int | None
    layers: LayerSpec
    weight: float

    @property
    def name(self) -> str:
        """The canonical string form, recorded in the vectors' metadata (``"10:last:0.5"``)."""
        return f"{'all' if self.tokens is None else self.tokens}:{self.layers.name}:{self.weight:g}"

    def output_dim(self, hidden_size: int) -> int:
        """Columns the context adds to a word vector."""
        return self.layers.output_dim(hidden_size)


def parse_context(spec: str | int | ContextSpec | None) -> ContextSpec | None:
    """Parse ``TOKENS[:LAYERS[:WEIGHT]]`` (see the module docstring); ``None`` when the context is off.

    >>> parse_context("all:-2,-1:1").name
    'all:-2,-1:1'
    """
    if spec is None or isinstance(spec, ContextSpec):
        return spec
    text = str(spec).strip()
    if text.lower() in OFF:
        return None
    fields = text.split(":")
    weight = DEFAULT_CONTEXT_WEIGHT
    if len(fields) >= 3:
        try:
            weight = float(fields[-1])
            fields = fields[:-1]
        except ValueError:
            pass
    layers_text = ":".join(fields[1:]) or DEFAULT_CONTEXT_LAYERS
    where = f"context {text!r} (TOKENS[:LAYERS[:WEIGHT]], e.g. 10:last:0.5)"
    if fields[0].lower() == "all":
        tokens = None
    else:
        try:
            tokens = int(fields[0])
        except ValueError:
            raise ConfigError(f"{where}: TOKENS must be a whole number or 'all', not {fields[0]!r}") from None
        if tokens < 0:
            raise ConfigError(f"{where}: TOKENS must be ≥ 0, not {tokens}")
    if not (np.isfinite(weight) and weight > 0):
        raise ConfigError(f"{where}: WEIGHT must be a positive number, not {weight!r}")
    layers = parse_layers(layers_text)
    if layers.is_static:
        raise ConfigError(f"{where}: the context is pooled from contextual layers, not 'static'")
    return ContextSpec(tokens=tokens, layers=layers, weight=float(weight))


def context_plan(plan: WindowPlan, tokens: int | None) -> WindowPlan:
    """The same windows with every occurrence twice: first its own pieces, then its context span.

    Row ``i`` of the result is occurrence ``i``; row ``n + i`` covers its pieces widened by ``tokens`` on
    each side (clipped to its window; ``None``: the whole window). The windows are shared, so encoding the
    result runs each window once.

    >>> import numpy as np
    >>> plan = WindowPlan([np.arange(9)], np.array([0]), np.array([4]), np.array([5]))
    >>> doubled = context_plan(plan, 2)
    >>> doubled.piece_start.tolist(), doubled.piece_end.tolist()
    ([4, 2], [5, 7])
    """
    lengths = np.fromiter((len(w) for w in plan.windows), dtype=np.int64, count=len(plan.windows))
    length = lengths[plan.window_of] if len(plan.window_of) else np.zeros(0, dtype=np.int64)
    if tokens is None:
        low, high = np.zeros_like(plan.piece_start), length
    else:
        low = np.maximum(plan.piece_start - tokens, 0)
        high = np.minimum(plan.piece_end + tokens, length)
    return WindowPlan(
        plan.windows,
        np.concatenate([plan.window_of, plan.window_of]),
        np.concatenate([plan.piece_start, low]),
        np.concatenate([plan.piece_end, high]),
    )


def unit_rows(X: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm (zero rows stay zero)."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(norms > _EPSILON, norms, 1.0)


def combine(target: np.ndarray, context: np.ndarray, weight: float) -> np.ndarray:
    """``[unit(target), weight · unit(context)]`` as float32.

    >>> combine(np.array([[3.0, 4.0]]), np.array([[0.0, 2.0]]), 0.5).tolist()
    [[0.6000000238418579, 0.800000011920929, 0.0, 0.5]]
    """
    return np.hstack([unit_rows(target), weight * unit_rows(context)]).astype(np.float32)


def encode_with_context(
    encoder: Encoder, plan: WindowPlan, configs: Sequence[Config], spec: ContextSpec, progress: bool = False
) -> list[np.ndarray]:
    """Target + context vectors of a window plan for each (layers, pooling) config, one forward pass per window.

    ``configs`` are parsed ``(LayerSpec, pooling)`` pairs; the result has one array per config, of
    ``target dim + context dim`` columns.
    """
    spec.layers.resolve(encoder.loaded.num_layers)
    count = len(plan.window_of)
    outputs = encoder.encode_plan(context_plan(plan, spec.tokens), [*configs, (spec.layers, "mean")], progress)
    context = outputs[-1][count:]
    return [combine(vectors[:count], context, spec.weight) for vectors in outputs[:-1]]
