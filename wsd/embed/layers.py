"""Which hidden layers make a word vector, and how they are combined.

Layer indices follow Hugging Face's ``hidden_states`` tuple: ``0`` is the embedding layer's output (word +
position embeddings after their LayerNorm), ``1..L`` are the transformer layers, negative indices count from the
last (``-1`` is the last layer). Named specifications:

==============  ==============================================================================
spec            vector
==============  ==============================================================================
last            the last layer (``-1``)
sum-last-4      sum of the last four layers (default; Devlin et al. 2019's feature-based recipe)
mean-last-4     mean of the last four layers
concat-last-4   concatenation of the last four layers (4 × hidden size)
mean-all        mean of all layers, 0..L
-4,-3,-2,-1     an explicit list, summed (``sum:-4,-3`` / ``mean:...`` / ``concat:...`` choose the combination)
3               a single layer
static          the input word-embedding lookup (``nn.Embedding``, no context): the context-free baseline
==============  ==============================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wsd.errors import ConfigError
from wsd.schema import NAMED_SPECS

COMBINATIONS = ("sum", "mean", "concat")
STATIC = "static"


@dataclass(frozen=True)
class LayerSpec:
    """A parsed layer specification: layer indices (into ``hidden_states``) and how to combine them.

    Parameters
    ----------
    name : str
        The canonical name (``sum-last-4``, ``-2,-1``, ``static``...).
    indices : tuple of int
        Indices into ``hidden_states`` (negative: from the last).
    combine : str
        ``sum``, ``mean``, ``concat`` or ``static``.
    """

    name: str
    indices: tuple[int, ...]
    combine: str

    @property
    def is_static(self) -> bool:
        """True for the context-free input embedding lookup.

        Returns
        -------
        bool
            Whether this is ``static``.
        """
        return self.combine == STATIC

    def output_dim(self, hidden_size: int) -> int:
        """Dimension of a token vector after combining layers.

        Parameters
        ----------
        hidden_size : int
            Size of one layer's token vector.

        Returns
        -------
        int
            ``hidden_size``, or ``hidden_size × layers`` for ``concat``.
        """
        return hidden_size * len(self.indices) if self.combine == "concat" else hidden_size

    def resolve(self, num_layers: int) -> tuple[int, ...]:
        """Indices as non-negative positions in a ``hidden_states`` tuple of ``num_layers + 1`` entries.

        Parameters
        ----------
        num_layers : int
            The model's number of transformer layers.

        Returns
        -------
        tuple of int
            The positions (empty for ``static``).

        Raises
        ------
        ConfigError
            For a layer the model does not have.
        """
        if self.is_static:
            return ()
        if self.name == "mean-all":
            return tuple(range(num_layers + 1))
        size = num_layers + 1
        resolved = []
        for index in self.indices:
            position = index + size if index < 0 else index
            if not 0 <= position < size:
                raise ConfigError(
                    f"layer {index} does not exist: the model has layers 0..{num_layers} "
                    f"(or -1..-{size}) in --layers {self.name!r}"
                )
            resolved.append(position)
        return tuple(resolved)

    def combine_tokens(self, states: Sequence[np.ndarray]) -> np.ndarray:
        """Combine the token states of several layers into one vector per token.

        Parameters
        ----------
        states : sequence of ndarray of shape (tokens, hidden)
            The token states of the resolved layers, in order.

        Returns
        -------
        ndarray of shape (tokens, dim)
            Summed, averaged or concatenated.

        Examples
        --------
        >>> parse_layers("-2,-1").combine_tokens([np.ones((1, 2)), np.ones((1, 2))]).tolist()
        [[2.0, 2.0]]
        """
        if self.combine == "concat":
            return np.concatenate(list(states), axis=-1)
        stacked = np.stack(list(states))
        return stacked.sum(0) if self.combine == "sum" else stacked.mean(0)


def parse_layers(spec: str | int | LayerSpec) -> LayerSpec:
    """Parse a layer specification (see the module docstring).

    Parameters
    ----------
    spec : str, int or LayerSpec
        The specification; a :class:`LayerSpec` is returned as it is.

    Returns
    -------
    LayerSpec
        The parsed specification (indices are resolved against a model by :meth:`LayerSpec.resolve`).

    Raises
    ------
    ConfigError
        For a specification that is not understood.

    Examples
    --------
    >>> parse_layers("sum-last-4")
    LayerSpec(name='sum-last-4', indices=(-4, -3, -2, -1), combine='sum')
    >>> parse_layers("-2,-1").combine
    'sum'
    >>> parse_layers("concat:-2,-1").indices
    (-2, -1)
    """
    if isinstance(spec, LayerSpec):
        return spec
    text = str(spec).strip().lower()
    last_four = (-4, -3, -2, -1)
    if text == "last":
        return LayerSpec(text, (-1,), "sum")
    if text == STATIC:
        return LayerSpec(text, (), STATIC)
    if text == "mean-all":
        return LayerSpec(text, (), "mean")
    for combine in COMBINATIONS:
        if text == f"{combine}-last-4":
            return LayerSpec(text, last_four, combine)
    combine = "sum"
    body = text
    if ":" in text:
        combine, body = (part.strip() for part in text.split(":", 1))
        if combine not in COMBINATIONS:
            raise ConfigError(f"unknown layer combination {combine!r} in --layers {spec!r} (use sum, mean or concat)")
    try:
        indices = tuple(int(part) for part in body.split(",") if part.strip())
    except ValueError:
        raise ConfigError(
            f"--layers {spec!r} is not understood: use one of {', '.join(NAMED_SPECS)}, "
            "a layer index such as -1, or a list such as -4,-3,-2,-1"
        ) from None
    if not indices:
        raise ConfigError(f"--layers {spec!r} names no layer")
    return LayerSpec(text, indices, combine)
