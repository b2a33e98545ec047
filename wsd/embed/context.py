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

from dataclasses import dataclass

import numpy as np

from wsd.embed.layers import LayerSpec, parse_layers
from wsd.embed.windows import WindowPlan
from wsd.errors import ConfigError
from wsd.schema import is_off

DEFAULT_CONTEXT_LAYERS = "last"
DEFAULT_CONTEXT_WEIGHT = 0.5
_EPSILON = 1e-12


@dataclass(frozen=True)
class ContextSpec:
    """A parsed context specification: window half-width, layers pooled, weight beside the target.

    Parameters
    ----------
    tokens : int or None
        Subword tokens either side of the occurrence; ``None`` means the whole window the model sees.
    layers : LayerSpec
        The (contextual) layers whose hidden states are mean-pooled over the context span.
    weight : float
        Weight of the unit-length context vector beside the unit-length target vector.
    """

    tokens: int | None
    layers: LayerSpec
    weight: float

    @property
    def name(self) -> str:
        """The canonical string form, recorded in the vectors' metadata (``"10:last:0.5"``).

        Returns
        -------
        str
            ``TOKENS:LAYERS:WEIGHT``.
        """
        return f"{'all' if self.tokens is None else self.tokens}:{self.layers.name}:{self.weight:g}"

    def output_dim(self, hidden_size: int) -> int:
        """Columns the context adds to a word vector.

        Parameters
        ----------
        hidden_size : int
            The model's hidden size, as :meth:`LayerSpec.output_dim <wsd.embed.layers.LayerSpec.output_dim>` takes it.

        Returns
        -------
        int
            The context vector's dimension: that of its layers.
        """
        return self.layers.output_dim(hidden_size)


def parse_context(spec: str | int | ContextSpec | None) -> ContextSpec | None:
    """Parse ``TOKENS[:LAYERS[:WEIGHT]]`` (see the module docstring); ``None`` when the context is off.

    Parameters
    ----------
    spec : str, int, ContextSpec or None
        The specification; a :class:`ContextSpec` is returned as it is.

    Returns
    -------
    ContextSpec or None
        The parsed specification, ``None`` for ``None``/``"none"``/``"off"``.

    Raises
    ------
    ConfigError
        For a malformed specification, a negative width, a weight that is not positive, static layers.

    Examples
    --------
    >>> parse_context("all:-2,-1:1").name
    'all:-2,-1:1'
    """
    if isinstance(spec, ContextSpec):
        return spec
    if is_off(spec):  # None, or "none" (also the older "off", "no", ""): wsd.schema.OFF_WORDS
        return None
    text = str(spec).strip()
    fields = text.split(":")
    weight = DEFAULT_CONTEXT_WEIGHT
    if len(fields) >= 3:
        try:
            weight = float(fields[-1])
            fields = fields[:-1]
        except ValueError:
            pass
    layers_text = ":".join(fields[1:]) or DEFAULT_CONTEXT_LAYERS
    where = f"--context-vector {text!r} (TOKENS[:LAYERS[:WEIGHT]], e.g. 10:last:0.5)"
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
    try:
        layers = parse_layers(layers_text)
    except ConfigError as exc:  # its message names --layers; say which option holds the bad LAYERS
        allowed = str(exc).partition(": ")[2]
        raise ConfigError(f"{where}: LAYERS {layers_text!r} is not understood: {allowed}") from None
    if layers.is_static:
        raise ConfigError(f"{where}: the context is pooled from contextual layers, not 'static'")
    return ContextSpec(tokens=tokens, layers=layers, weight=float(weight))


def context_plan(plan: WindowPlan, tokens: int | None) -> WindowPlan:
    """The same windows with every occurrence twice: first its own pieces, then its context span.

    Row ``i`` of the result is occurrence ``i``; row ``n + i`` covers its pieces widened by ``tokens`` on
    each side (clipped to its window; ``None``: the whole window). The windows are shared, so encoding the
    result runs each window once.

    Parameters
    ----------
    plan : WindowPlan
        The occurrences' windows and pieces.
    tokens : int or None
        Half-width of the context span in subword tokens; ``None``: the whole window.

    Returns
    -------
    WindowPlan
        ``2 n`` rows over the same windows.

    Examples
    --------
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
    """Rows scaled to unit L2 norm (zero rows stay zero).

    Parameters
    ----------
    X : ndarray of shape (n, d)
        The rows.

    Returns
    -------
    ndarray of shape (n, d)
        The rows divided by their norms.
    """
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return X / np.where(norms > _EPSILON, norms, 1.0)


def combine(target: np.ndarray, context: np.ndarray, weight: float) -> np.ndarray:
    """``[unit(target), weight · unit(context)]`` as float32.

    Parameters
    ----------
    target : ndarray of shape (n, d1)
        The target vectors.
    context : ndarray of shape (n, d2)
        The context vectors, row-aligned.
    weight : float
        Weight of the unit context vector.

    Returns
    -------
    ndarray of shape (n, d1 + d2), float32
        The combined word vectors.

    Examples
    --------
    >>> combine(np.array([[3.0, 4.0]]), np.array([[0.0, 2.0]]), 0.5).tolist()
    [[0.6000000238418579, 0.800000011920929, 0.0, 0.5]]
    """
    return np.hstack([unit_rows(target), weight * unit_rows(context)]).astype(np.float32)
