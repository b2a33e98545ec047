"""Sense-aware encoders: training data from WUG judgments, WiC, sense datasets, WordNet; training; model folders.

Every source yields a :class:`~wsd.tune.pairs.PairSet` (uses + labelled pairs, see :mod:`wsd.tune.pairs`);
:func:`~wsd.tune.sources.read_source` reads one from a ``KIND:PATH`` spec. :func:`tune_encoder` trains an
encoder on them (:mod:`wsd.tune.train`) with :class:`TuneOptions` and writes a model folder
(:mod:`wsd.tune.api`, :mod:`wsd.tune.card`). Names are imported on first use, so that importing the package
does not import torch.

>>> from wsd.tune import TuneOptions, tune_encoder                         # doctest: +SKIP
>>> tune_encoder(["wug:dwug_en"], "models/tuned", options=TuneOptions(epochs=1))   # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY: dict[str, tuple[str, str]] = {
    "TuneOptions": ("wsd.tune.options", "TuneOptions"),
    "TuneResult": ("wsd.tune.api", "TuneResult"),
    "tune_encoder": ("wsd.tune.api", "tune_encoder"),
    "PairSet": ("wsd.tune.pairs", "PairSet"),
    "read_source": ("wsd.tune.sources", "read_source"),
    "training_overlap": ("wsd.tune.card", "training_overlap"),
    "average_encoders": ("wsd.tune.averaging", "average_encoders"),
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Import public names on first use (PEP 562)."""
    if name in _LAZY:
        module_name, attr = _LAZY[name]
        value = getattr(importlib.import_module(module_name), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'wsd.tune' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_LAZY))
