"""The forward pass: what the encoder asks of a runtime (PyTorch, OpenVINO), and what the runtimes share.

:class:`~wsd.embed.models.TorchForward` (``--runtime torch``) and
:class:`~wsd.embed.ov_runtime.OpenVinoForward` (``--runtime openvino``) are two subclasses of
:class:`ForwardPass`; :class:`~wsd.embed.encoder.Encoder` sees only its methods, so a third runtime needs no
change there: it implements how one batch runs (``_run``), and :meth:`ForwardPass.pieces` times it. The
Hugging Face model call itself is :func:`hidden_states`, shared by the PyTorch runtime, the model that the
OpenVINO runtime converts and the tuning forward pass (:mod:`wsd.tune.forward`).

>>> from wsd.embed.models import TorchForward
>>> isinstance(TorchForward(None, "cpu", "fp32", 6), ForwardPass)
True

:func:`distinct_pieces` asks a runtime for each token of a batch at most once, however many occurrences' pieces
and context spans cover it: what a batch gathers is then bounded by its windows (batch × tokens), not by the
occurrences in them (issue 39: a line with thousands of uses put thousands of overlapping context spans in
one window).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np


def hidden_states(
    model: Any, input_ids: Any, attention_mask: Any, layers: Sequence[int], num_layers: int | None = None
) -> list[Any]:
    """One call of a Hugging Face encoder: its hidden states at the positions ``layers``, in that order.

    Parameters
    ----------
    model : torch.nn.Module
        The encoder.
    input_ids, attention_mask : Tensor of shape (batch, tokens)
        The batch.
    layers : sequence of int
        Positions in ``hidden_states`` (0 = the embedding layer's output).
    num_layers : int, optional
        The model's transformer layers. Given, a call that asks for the last layer alone reads
        ``last_hidden_state`` and keeps no other layer's states (what inference does to save memory).

    Returns
    -------
    list of Tensor of shape (batch, tokens, hidden)
        One per position of ``layers``.
    """
    only_last = num_layers is not None and list(layers) == [num_layers]
    out = model(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=not only_last)
    return [out.last_hidden_state] if only_last else [out.hidden_states[layer] for layer in layers]


class ForwardPass:
    """A runtime of the encoder's forward pass: hidden states of chosen layers at chosen tokens of a batch.

    A runtime subclasses it and implements ``_run(input_ids, mask, needed, rows, cols)``: one batch, with the
    arguments and the result of :meth:`pieces`, which times it. It may get ready for a set of layers in
    ``_ready(needed)`` (compiling: that time goes to :attr:`compile_s`) and override :meth:`session`,
    :meth:`prepare` and :meth:`settle`, which do nothing here.

    Attributes
    ----------
    name : str
        The runtime's name (``torch``, ``openvino``), as ``--runtime`` spells it.
    seconds : float
        Time spent in model calls so far, compilation excluded (the stage timings read it).
    compile_s : float
        Time spent converting and compiling so far (0 for eager PyTorch).
    """

    name: str

    def __init__(self) -> None:
        self.seconds = 0.0
        self.compile_s = 0.0

    def session(self) -> AbstractContextManager[Any]:
        """The context that a run of forward passes executes in (e.g. ``torch.inference_mode``; here none).

        Returns
        -------
        context manager
        """
        return contextlib.nullcontext()

    def prepare(self, needed: Sequence[int]) -> None:
        """Get ready for batches that ask for the layers ``needed`` (compile ahead; here nothing).

        Parameters
        ----------
        needed : sequence of int
            Positions in ``hidden_states`` (0 = the embedding layer's output).
        """

    def settle(self) -> None:
        """Wait for whatever :meth:`prepare` started in the background (nothing runs on after a call returns)."""

    def pieces(
        self, input_ids: np.ndarray, mask: np.ndarray, needed: Sequence[int], rows: np.ndarray, cols: np.ndarray
    ) -> dict[int, np.ndarray]:
        """Hidden states of the ``needed`` layers at the tokens ``(rows[i], cols[i])`` of one batch.

        Parameters
        ----------
        input_ids, mask : ndarray of shape (batch, tokens), int64
            The batch.
        needed : sequence of int
            Positions in ``hidden_states`` (0 = the embedding layer's output).
        rows, cols : ndarray of int
            Batch row and token column of every piece wanted.

        Returns
        -------
        dict
            ``{layer: ndarray of shape (pieces, hidden), float32}``.
        """
        self._ready(needed)
        clock = time.perf_counter()
        gathered = self._run(input_ids, mask, needed, rows, cols)
        self.seconds += time.perf_counter() - clock
        return gathered

    def _ready(self, needed: Sequence[int]) -> None:
        """Make the model for ``needed`` ready to run now (its time is not counted in :attr:`seconds`)."""

    def _run(
        self, input_ids: np.ndarray, mask: np.ndarray, needed: Sequence[int], rows: np.ndarray, cols: np.ndarray
    ) -> dict[int, np.ndarray]:
        """One batch through the model, gathered at the pieces: what :meth:`pieces` gives, untimed."""
        raise NotImplementedError(f"{type(self).__name__} runs no batch: a runtime implements _run")


def distinct_pieces(
    forward: ForwardPass,
    input_ids: np.ndarray,
    mask: np.ndarray,
    needed: Sequence[int],
    rows: np.ndarray,
    cols: np.ndarray,
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """One forward pass, the hidden states gathered once per distinct token ``(rows[i], cols[i])``.

    Pieces of different occurrences often cover the same token (overlapping context spans, several uses in one
    window); gathering each token once bounds the result by the batch's size, ``batch × tokens`` rows, whatever
    the number of pieces. ``states[layer][where]`` gives the pieces in their own order, with the same values
    as :meth:`ForwardPass.pieces` of ``rows, cols`` (a gather copies; nothing is computed differently).

    Parameters
    ----------
    forward : ForwardPass
        The runtime.
    input_ids, mask, needed, rows, cols
        The batch, the layers and the pieces wanted, as :meth:`ForwardPass.pieces` takes them.

    Returns
    -------
    states : dict
        ``{layer: ndarray of shape (distinct tokens, hidden), float32}``, the tokens in batch order.
    where : ndarray of shape (len(rows),)
        For each piece, its row in ``states``.

    Examples
    --------
    >>> class Echo:  # a stand-in runtime: the state of a token is its column
    ...     def pieces(self, input_ids, mask, needed, rows, cols):
    ...         return {needed[0]: cols[:, None].astype(np.float32)}
    >>> ids = np.zeros((1, 4), dtype=np.int64)
    >>> states, where = distinct_pieces(Echo(), ids, ids, [6], np.array([0, 0, 0]), np.array([2, 1, 2]))
    >>> states[6][:, 0].tolist(), where.tolist()
    ([1.0, 2.0], [1, 0, 1])
    """
    width = max(int(input_ids.shape[1]), 1)
    flat = np.asarray(rows, dtype=np.int64) * width + np.asarray(cols, dtype=np.int64)
    tokens, where = np.unique(flat, return_inverse=True)
    states = forward.pieces(input_ids, mask, needed, tokens // width, tokens % width)
    return states, where.reshape(-1)
