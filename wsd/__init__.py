"""wsd: word-sense induction from contextual embeddings.

The public API, imported lazily so that ``import wsd`` stays cheap (torch loads only when needed); type checkers
read the real names from the ``TYPE_CHECKING`` block, so ``wsd.SenseInducer`` is typed::

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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what __getattr__ gives, for type checkers (tests/test_public_api.py keeps the two equal)
    from wsd.corpus.scan import scan
    from wsd.embed.encoder import Encoder
    from wsd.errors import WsdError
    from wsd.io.run_reader import load_run
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.model import SenseModel
    from wsd.workflows.embedding import embed_corpus
    from wsd.workflows.tagger import SenseTagger, load

__version__ = "0.1.0"

_LAZY: dict[str, tuple[str, str]] = {
    "scan": ("wsd.corpus.scan", "scan"),
    "Encoder": ("wsd.embed.encoder", "Encoder"),
    "load_run": ("wsd.io.run_reader", "load_run"),
    "embed_corpus": ("wsd.workflows.embedding", "embed_corpus"),
    "SenseInducer": ("wsd.senses.inducer", "SenseInducer"),
    "SenseModel": ("wsd.senses.model", "SenseModel"),
    "load": ("wsd.workflows.tagger", "load"),
    "SenseTagger": ("wsd.workflows.tagger", "SenseTagger"),
    "WsdError": ("wsd.errors", "WsdError"),
}

__all__ = [
    "Encoder",
    "SenseInducer",
    "SenseModel",
    "SenseTagger",
    "WsdError",
    "__version__",
    "embed_corpus",
    "load",
    "load_run",
    "scan",
]


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
