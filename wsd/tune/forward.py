"""Word vectors in PyTorch with gradients: the same windows, layers and subword pooling as inference.

:class:`SpanEncoder` wraps a :class:`wsd.Encoder` (so the windows are chosen by the same
:func:`~wsd.embed.windows.plan_windows` call, with the same budget and ``window_tokens``), runs its model with
autograd on, and combines and pools the target's pieces with :func:`combine_layers` and :func:`pool_pieces`,
the torch twins of :meth:`wsd.embed.layers.LayerSpec.combine_tokens` and :func:`wsd.embed.pooling.pool_pieces`.
On the untuned model (fp32) its vectors equal :meth:`wsd.Encoder.embed_spans` (tested to 1e-5).

Target markers (``markers=True``) are put into the text itself, around the target
(:func:`mark_targets`); the target's own pieces are pooled as without them.

A call's windows are run longest first; on the CPU in a few groups of similar length (:func:`length_groups`),
so that a step's short windows are not padded to its longest (a DWUG EN step of 24 uses: 65% of its tokens were
padding in one batch). Each window is run exactly as in one batch, so the vectors are the same up to float
rounding; only dropout, which draws a mask for the batch's padded shape, draws other masks.

With the encoder's context vector (``Encoder(context_vector=...)``, :mod:`wsd.embed.context`) each use's vector is
``[target/‖target‖, weight·context/‖context‖]``, the context mean-pooled over the same span
(:func:`~wsd.embed.context.context_plan`) from the same forward pass, as inference makes it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import numpy as np
import torch

from wsd.embed.context import context_plan
from wsd.embed.encoder import Encoder, _length_order
from wsd.embed.forward import hidden_states
from wsd.embed.layers import LayerSpec
from wsd.embed.pooling import check_pooling
from wsd.embed.windows import WindowPlan

#: What ``markers=True`` puts before and after the target (plain text: no new token, no resized vocabulary).
TARGET_MARKERS: tuple[str, str] = ("<t> ", " </t>")
#: The fixed cost of one more forward and backward pass, in padded tokens (on the CPU a pass costs about its
#: tokens; this allowance for the rest, small batches' slower products included, is chosen, not timed: issue 40).
GROUP_COST_TOKENS = 64
#: A call's windows are run in at most this many length groups.
MAX_LENGTH_GROUPS = 8


def combine_layers(states: Sequence[torch.Tensor], spec: LayerSpec) -> torch.Tensor:
    """Combine the token states of several layers: sum, mean or concatenation (as the encoder does in numpy).

    Parameters
    ----------
    states : sequence of Tensor of shape (tokens, hidden)
        The states of the layers ``spec.resolve(...)`` names, in that order.
    spec : LayerSpec
        The layer specification.

    Returns
    -------
    Tensor of shape (tokens, dim)

    Examples
    --------
    >>> from wsd.embed.layers import parse_layers
    >>> combine_layers([torch.ones(1, 2), torch.ones(1, 2)], parse_layers("-2,-1")).tolist()
    [[2.0, 2.0]]
    """
    if spec.combine == "concat":
        return torch.cat(list(states), dim=-1)
    stacked = torch.stack(list(states))
    return stacked.sum(0) if spec.combine == "sum" else stacked.mean(0)


def pool_pieces(pieces: torch.Tensor, segment: torch.Tensor, count: int, pooling: str) -> torch.Tensor:
    """Pool piece vectors into one vector per word, all words at once (as :func:`wsd.embed.pooling.pool_pieces`).

    Parameters
    ----------
    pieces : Tensor of shape (P, dim)
        Every piece's vector, the pieces of each word contiguous and in text order.
    segment : Tensor of shape (P,), int64
        The word (``0..count-1``) of each piece, non-decreasing; every word has a piece.
    count : int
        Number of words.
    pooling : str
        ``mean``, ``first``, ``last``, ``first-last``, ``sum`` or ``max``.

    Returns
    -------
    Tensor of shape (count, dim) or (count, 2 × dim)

    Examples
    --------
    >>> pool_pieces(torch.tensor([[1.0], [3.0], [10.0]]), torch.tensor([0, 0, 1]), 2, "mean").tolist()
    [[2.0], [10.0]]
    """
    pooling = check_pooling(pooling)
    sizes = torch.bincount(segment, minlength=count)
    ends = torch.cumsum(sizes, 0)
    starts = ends - sizes
    if pooling == "first":
        return pieces[starts]
    if pooling == "last":
        return pieces[ends - 1]
    if pooling == "first-last":
        return torch.cat([pieces[starts], pieces[ends - 1]], dim=1)
    index = segment.unsqueeze(1).expand_as(pieces)
    if pooling == "max":
        empty = torch.full((count, pieces.shape[1]), float("-inf"), dtype=pieces.dtype, device=pieces.device)
        return empty.scatter_reduce(0, index, pieces, reduce="amax")
    total = torch.zeros((count, pieces.shape[1]), dtype=pieces.dtype, device=pieces.device).index_add(
        0, segment, pieces
    )
    if pooling == "sum":
        return total
    return total / sizes.unsqueeze(1).to(pieces.dtype)


def length_groups(
    lengths: np.ndarray, group_cost: int = GROUP_COST_TOKENS, max_groups: int = MAX_LENGTH_GROUPS
) -> list[int]:
    """Sizes of consecutive groups of windows, longest first, that cost the fewest tokens to run padded.

    A group of windows runs padded to its longest, so it costs ``size × longest`` tokens, plus ``group_cost`` for
    the pass itself; the grouping with the least total (at most ``max_groups`` groups, fewer on a tie) is found
    exactly by dynamic programming over the windows sorted by length.

    Parameters
    ----------
    lengths : ndarray of int
        The windows' lengths in tokens, longest first.
    group_cost : int
        The fixed cost of one more group, in tokens.
    max_groups : int
        The most groups.

    Returns
    -------
    list of int
        The size of each group, in order; they sum to ``len(lengths)`` (empty for no window).

    Examples
    --------
    >>> length_groups(np.array([100, 98, 20, 19, 18]))
    [2, 3]
    >>> length_groups(np.array([30, 28, 27]))
    [3]
    """
    ordered = np.asarray(lengths, dtype=np.float64)
    count = len(ordered)
    if count == 0:
        return []
    ends = np.arange(count + 1)
    # cost[i, j]: windows i..j-1 padded to window i's length (the longest of them); impossible unless i < j
    cost = (ends[None, :] - ends[:-1, None]) * ordered[:, None]
    cost[ends[None, :] <= ends[:-1, None]] = np.inf
    best = np.full(count + 1, np.inf)
    best[0] = 0.0
    starts: list[np.ndarray] = []  # for k groups: where the last group of the best grouping of the first j starts
    chosen, least = 0, np.inf
    for groups in range(1, min(max_groups, count) + 1):
        total = best[:-1, None] + cost
        start = np.argmin(total, axis=0)
        best = total[start, ends]
        starts.append(start)
        if best[count] + group_cost * groups < least:
            chosen, least = groups, best[count] + group_cost * groups
    bounds = [count]
    for groups in range(chosen, 0, -1):
        bounds.append(int(starts[groups - 1][bounds[-1]]))
    return np.diff(bounds[::-1]).tolist()


def mark_targets(
    texts: Sequence[str], spans: np.ndarray, markers: tuple[str, str] = TARGET_MARKERS
) -> tuple[list[str], np.ndarray]:
    """Texts with markers around each target, and the targets' spans in the marked texts.

    Parameters
    ----------
    texts : sequence of str
        One text per use.
    spans : ndarray of shape (n, 2)
        ``(start, end)`` of each target.
    markers : (str, str)
        What goes before and after.

    Returns
    -------
    (list of str, ndarray of shape (n, 2))

    Examples
    --------
    >>> texts, spans = mark_targets(["a bank here"], np.array([[2, 6]]))
    >>> texts[0], spans.tolist()
    ('a <t> bank </t> here', [[6, 10]])
    """
    before, after = markers
    spans = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    marked = [t[:s] + before + t[s:e] + after + t[e:] for t, (s, e) in zip(texts, spans.tolist(), strict=True)]
    return marked, spans + len(before)


class SpanEncoder:
    """The encoder's model run with gradients: one pooled vector per ``(text, span)``, each window run once.

    Parameters
    ----------
    encoder : Encoder
        A loaded encoder (fp32 weights); its ``layers``, ``pooling`` and ``window_tokens`` are used, and its
        model is the one trained.
    markers : bool
        Put :data:`TARGET_MARKERS` around each target.
    autocast : torch.dtype or None
        Run the forward pass under autocast to this dtype (bf16), or in fp32 (``None``).
    group_lengths : bool, optional
        Run a call's windows in groups of similar length (:func:`length_groups`) instead of one padded batch.
        Default: on the CPU, where a padded token costs what a real one does; one batch on a GPU, where a small
        batch's time goes to launching its kernels more than to its tokens.

    Examples
    --------
    >>> span_encoder = SpanEncoder(Encoder(precision="fp32"))                 # doctest: +SKIP
    >>> span_encoder.encode(["A mouse ran."], np.array([[2, 7]])).shape      # doctest: +SKIP
    torch.Size([1, 384])
    """

    def __init__(
        self,
        encoder: Encoder,
        *,
        markers: bool = False,
        autocast: torch.dtype | None = None,
        group_lengths: bool | None = None,
    ) -> None:
        self.encoder = encoder
        self.markers = bool(markers)
        self.autocast = autocast
        self.model = encoder.loaded.model
        self.device = encoder.loaded.device
        self.group_lengths = self.device.type == "cpu" if group_lengths is None else bool(group_lengths)
        self.positions = encoder.layers.resolve(encoder.loaded.num_layers)
        self.context = encoder.context_vector
        self.context_positions = self.context.layers.resolve(encoder.loaded.num_layers) if self.context else []

    def encode(self, texts: Sequence[str], spans: np.ndarray, *, batch_windows: int | None = None) -> torch.Tensor:
        """The pooled target vectors of the uses, fp32, with autograd where it is enabled.

        Parameters
        ----------
        texts : sequence of str
            One text per use.
        spans : ndarray of shape (n, 2)
            The target's characters in each text.
        batch_windows : int, optional
            Run at most this many windows per forward pass (default: all of them, in one pass or in the
            length groups of :func:`length_groups` when ``group_lengths`` is on).

        Returns
        -------
        Tensor of shape (n, dim), float32
            The target vectors, or with a context vector the combined ones (each half unit length).
        """
        spans = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
        if self.markers:
            texts, spans = mark_targets(texts, spans)
        encoder = self.encoder
        plan = encoder._plan(list(texts), spans)
        uses = len(plan.window_of)
        if self.context is not None:
            plan = context_plan(plan, self.context.tokens)  # rows uses.. are the context spans, same windows
        count = len(plan.window_of)
        parts: list[torch.Tensor] = []
        members_all: list[np.ndarray] = []
        for members, input_ids, mask, rows, cols, segment in encoder._window_batches(
            plan, self.batch_sizes(plan) if batch_windows is None else batch_windows
        ):
            parts.append(self._forward(input_ids, mask, rows, cols, segment, len(members)))
            members_all.append(members)
        vectors = torch.cat(parts) if parts else torch.empty((0, encoder.dim), device=self.device)
        where = torch.from_numpy(np.concatenate(members_all) if members_all else np.empty(0, np.int64))
        inverse = torch.empty_like(where)
        inverse[where] = torch.arange(count)
        ordered = vectors[inverse.to(vectors.device)]
        if self.context is None:
            return ordered
        target = torch.nn.functional.normalize(ordered[:uses, : self._width()], dim=1, eps=1e-12)
        context = torch.nn.functional.normalize(ordered[uses:, self._width() :], dim=1, eps=1e-12)
        return torch.cat([target, self.context.weight * context], dim=1)

    def batch_sizes(self, plan: WindowPlan) -> list[int]:
        """How many windows each forward pass of one call runs, longest windows first.

        Parameters
        ----------
        plan : WindowPlan
            The call's windows (in the order :meth:`wsd.embed.encoder.Encoder._window_batches` runs them).

        Returns
        -------
        list of int
            :func:`length_groups` of the windows' lengths when ``group_lengths`` is on, else all in one.
        """
        if not self.group_lengths:
            return [len(plan.windows)] if len(plan.windows) else []
        lengths, order = _length_order(plan)
        return length_groups(lengths[order])

    def _width(self) -> int:
        """Columns of the target vector alone."""
        return self.encoder._target_dim(self.encoder.layers, self.encoder.pooling)

    def _forward(
        self,
        input_ids: np.ndarray,
        mask: np.ndarray,
        rows: np.ndarray,
        cols: np.ndarray,
        segment: np.ndarray,
        count: int,
    ) -> torch.Tensor:
        """One forward pass over a batch of windows, combined and pooled at the pieces.

        With a context vector the rows are targets and context spans alike (:func:`context_plan`): each is
        pooled both ways (target layers and pooling; context layers, mean) side by side, and :meth:`encode`
        keeps the half each needs (pooling costs little beside the forward pass).
        """
        device = self.device
        ids_t = torch.from_numpy(input_ids).to(device)
        mask_t = torch.from_numpy(mask).to(device)
        context = (
            torch.autocast(device.type, dtype=self.autocast) if self.autocast is not None else contextlib.nullcontext()
        )
        with context:
            layers = hidden_states(self.model, ids_t, mask_t, [*self.positions, *self.context_positions])
        rows_t, cols_t = torch.from_numpy(rows).to(device), torch.from_numpy(cols).to(device)
        segment_t = torch.from_numpy(segment).to(device)
        states = [layer[rows_t, cols_t].float() for layer in layers[: len(self.positions)]]
        target = pool_pieces(combine_layers(states, self.encoder.layers), segment_t, count, self.encoder.pooling)
        if self.context is None:
            return target
        around = [layer[rows_t, cols_t].float() for layer in layers[len(self.positions) :]]
        pooled_around = pool_pieces(combine_layers(around, self.context.layers), segment_t, count, "mean")
        return torch.cat([target, pooled_around], dim=1)
