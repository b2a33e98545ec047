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
    result = wsd.evaluate_dataset("semeval2010", data_dir="../shared/datasets")  # wsd evaluate: result.scores
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wsd._lazy import LazyTable, lazy_attribute, lazy_dir

if TYPE_CHECKING:  # what __getattr__ gives, for type checkers (tests/test_public_api.py keeps the two equal)
    from wsd.corpus.scan import scan
    from wsd.embed.encoder import Encoder
    from wsd.errors import WsdError
    from wsd.io.run_reader import load_run
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.model import SenseModel
    from wsd.workflows.embedding import embed_corpus
    from wsd.workflows.evaluation import evaluate_dataset
    from wsd.workflows.tagger import SenseTagger, load

__version__ = "0.1.0"

_LAZY: LazyTable = {
    "scan": "wsd.corpus.scan",
    "Encoder": "wsd.embed.encoder",
    "load_run": "wsd.io.run_reader",
    "embed_corpus": "wsd.workflows.embedding",
    "evaluate_dataset": "wsd.workflows.evaluation",
    "SenseInducer": "wsd.senses.inducer",
    "SenseModel": "wsd.senses.model",
    "load": "wsd.workflows.tagger",
    "SenseTagger": "wsd.workflows.tagger",
    "WsdError": "wsd.errors",
}

__all__ = [
    "Encoder",
    "SenseInducer",
    "SenseModel",
    "SenseTagger",
    "WsdError",
    "__version__",
    "embed_corpus",
    "evaluate_dataset",
    "load",
    "load_run",
    "scan",
]


def __getattr__(name: str) -> Any:
    """Import public names on first use (PEP 562)."""
    return lazy_attribute(__name__, _LAZY, name)


def __dir__() -> list[str]:
    return lazy_dir(__name__, _LAZY)
