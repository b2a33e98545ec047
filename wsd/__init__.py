"""wsd: word-sense induction from contextual embeddings.

The public API, imported lazily so that ``import wsd`` stays cheap (torch loads only when needed)::

    import wsd
    occurrences = wsd.scan("corpus/", ["mouse", "bank"])          # DataFrame, one row per occurrence
    enc = wsd.Encoder()                                           # the bundled MiniLM-L6
    X = enc.embed_spans(texts, spans)                             # (n, dim) word vectors
    occurrences, X = wsd.load_run("runs/x")                       # what `wsd embed` wrote
    labels = wsd.SenseInducer(method="kmeans", k="auto").fit_predict(X[mask])
    tagger = wsd.load("runs/x/senses")                            # senses + the encoder they were fitted with
    tagger.predict(["The mouse ran.", "Click the mouse."], target="mouse")  # text, sense, probabilities, keywords
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_LAZY: dict[str, tuple[str, str]] = {
    "scan": ("wsd.corpus.scan", "scan"),
    "Encoder": ("wsd.embed.encoder", "Encoder"),
    "load_run": ("wsd.io.store", "load_run"),
    "embed_corpus": ("wsd.workflows.embedding", "embed_corpus"),
    "SenseInducer": ("wsd.senses.inducer", "SenseInducer"),
    "SenseModel": ("wsd.senses.model", "SenseModel"),
    "load": ("wsd.workflows.tagger", "load"),
    "SenseTagger": ("wsd.workflows.tagger", "SenseTagger"),
    "WsdError": ("wsd.errors", "WsdError"),
}

__all__ = ["__version__", *sorted(_LAZY)]


def __getattr__(name: str) -> Any:
    """Import public names on first use (PEP 562)."""
    if name in _LAZY:
        module_name, attr = _LAZY[name]
        value = getattr(importlib.import_module(module_name), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'wsd' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_LAZY))
