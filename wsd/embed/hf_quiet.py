"""Muting ``transformers``' log messages and progress bars for one block, then restoring them exactly.

wsd loads and converts models inside :func:`quiet_transformers`, so a user sees wsd's own messages, not the
library's notes about configuration fields an encoder never uses; the process's logging is as it was afterwards.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

_QUIET_LOCK = threading.Lock()
_QUIET_DEPTH = 0
_QUIET_SAVED: list[Any] = []


@contextlib.contextmanager
def quiet_transformers() -> Iterator[None]:
    """Mute ``transformers``' log messages (below ERROR) and progress bars inside the block, then restore them.

    Only the ``transformers`` logger's own level and the progress-bar switch are changed, and both are put back
    exactly as they were when the outermost block (of any thread) ends.

    Returns
    -------
    context manager
        A context manager; nothing is bound by ``with``.

    Examples
    --------
    >>> import logging, transformers  # importing transformers sets its logger's level once
    >>> before = logging.getLogger("transformers").level
    >>> with quiet_transformers():
    ...     logging.getLogger("transformers").level
    40
    >>> logging.getLogger("transformers").level == before
    True
    """
    global _QUIET_DEPTH
    from transformers.utils import logging as hf_logging

    logger = logging.getLogger("transformers")
    hook_setter = getattr(hf_logging, "set_tqdm_hook", None)
    with _QUIET_LOCK:
        if _QUIET_DEPTH == 0:
            if hook_setter is not None:  # transformers ≥ 5: hide its bars without touching huggingface_hub's switch
                previous = hook_setter(_hidden_bar)
            else:  # pragma: no cover - older transformers
                previous = hf_logging.is_progress_bar_enabled()
                hf_logging.disable_progress_bar()
            _QUIET_SAVED[:] = [logger.level, previous]
            logger.setLevel(logging.ERROR)
        _QUIET_DEPTH += 1
    try:
        yield
    finally:
        with _QUIET_LOCK:
            _QUIET_DEPTH -= 1
            if _QUIET_DEPTH == 0:
                level, previous = _QUIET_SAVED
                logger.setLevel(level)
                if hook_setter is not None:
                    hook_setter(previous)
                elif previous:  # pragma: no cover - older transformers
                    hf_logging.enable_progress_bar()


def _hidden_bar(factory: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A ``transformers`` tqdm hook that creates every bar disabled."""
    return factory(*args, **(kwargs | {"disable": True}))
