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

from typing import Any

from wsd._lazy import LazyTable, lazy_attribute, lazy_dir

_LAZY: LazyTable = {
    "TuneOptions": "wsd.options",
    "TuneResult": "wsd.tune.api",
    "tune_encoder": "wsd.tune.api",
    "PairSet": "wsd.tune.pairs",
    "read_source": "wsd.tune.sources",
    "training_overlap": "wsd.tune.card",
    "average_encoders": "wsd.tune.averaging",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Import public names on first use (PEP 562)."""
    return lazy_attribute(__name__, _LAZY, name)


def __dir__() -> list[str]:
    return lazy_dir(__name__, _LAZY)
