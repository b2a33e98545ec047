"""The contract of a forward-pass runtime: what the encoder asks of PyTorch and of OpenVINO alike.

:class:`~wsd.embed.models.TorchForward` (``--runtime torch``) and
:class:`~wsd.embed.ov_runtime.OpenVinoForward` (``--runtime openvino``) are two implementations of
:class:`ForwardPass`; :class:`~wsd.embed.encoder.Encoder` sees only this protocol, so a third runtime needs no
change there. mypy checks both against it (``make lint``), and a test checks it at run time.

>>> from wsd.embed.models import TorchForward
>>> isinstance(TorchForward(None, "cpu", "fp32", 6), ForwardPass)
True

:func:`distinct_pieces` asks a runtime for each token of a batch at most once, however many occurrences' pieces
and context spans cover it: what a batch gathers is then bounded by its windows (batch × tokens), not by the
occurrences in them (issue 39: a line with thousands of uses put thousands of overlapping context spans in
one window).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class ForwardPass(Protocol):
    """A runtime of the encoder's forward pass: hidden states of chosen layers at chosen tokens of a batch.

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
    seconds: float
    compile_s: float

    def session(self) -> AbstractContextManager[Any]:
        """The context that a run of forward passes executes in (e.g. ``torch.inference_mode``).

        Returns
        -------
        context manager
        """
        ...

    def prepare(self, needed: Sequence[int]) -> None:
        """Get ready for batches that ask for the layers ``needed`` (compile ahead; may do nothing).

        Parameters
        ----------
        needed : sequence of int
            Positions in ``hidden_states`` (0 = the embedding layer's output).
        """
        ...

    def settle(self) -> None:
        """Wait for whatever :meth:`prepare` started in the background (nothing runs on after a call returns)."""
        ...

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
        ...


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
    input_ids, mask : ndarray of shape (batch, tokens), int64
        The batch.
    needed : sequence of int
        Positions in ``hidden_states`` (0 = the embedding layer's output).
    rows, cols : ndarray of int
        Batch row and token column of every piece wanted.

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
