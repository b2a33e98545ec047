"""The contract of a forward-pass runtime: what the encoder asks of PyTorch and of OpenVINO alike.

:class:`~wsd.embed.models.TorchForward` (``--runtime torch``) and
:class:`~wsd.embed.ov_runtime.OpenVinoForward` (``--runtime openvino``) are two implementations of
:class:`ForwardPass`; :class:`~wsd.embed.encoder.Encoder` sees only this protocol, so a third runtime needs no
change there. mypy checks both against it (``make lint``), and a test checks it at run time.

>>> from wsd.embed.models import TorchForward
>>> isinstance(TorchForward(None, "cpu", "fp32", 6), ForwardPass)
True
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
