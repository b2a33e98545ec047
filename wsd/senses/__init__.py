"""Sense induction: cluster one word's occurrence vectors into senses, describe them, save and predict.

from wsd.senses import SenseInducer, SenseModel, describe_senses
labels = SenseInducer(method="kmeans", k="auto").fit_predict(X_word)     # one word
model = SenseModel(SenseInducer(method="agglomerative")).fit(occurrences, X)  # many words
model.save("runs/x/senses"); SenseModel.load("runs/x/senses").predict(occurrences, X)

The parts are scikit-learn estimators that compose on their own (``SenseInducer`` is the front door that
wires them): ``Preprocessor`` (a transformer), the clusterers of ``CLUSTERERS`` and the baselines
``DummyClusterer(strategy=...)``, and ``SelectK`` (chooses the number of senses of any of them).

>>> from sklearn.pipeline import make_pipeline
>>> pipeline = make_pipeline(Preprocessor(normalize=True), SelectK(CLUSTERERS["ward"](), k_range=(2, 7)))
"""

from __future__ import annotations

from typing import Any

from wsd._lazy import LazyTable, lazy_attribute, lazy_dir

#: The public names and the module each lives in, imported on first use (PEP 562): importing a light module
#: of the package (``wsd.senses.recipes``, ``wsd.senses.methods``) does not import scikit-learn.
_LAZY: LazyTable = {
    "CLUSTERERS": "wsd.senses.clusterers",
    "DummyClusterer": "wsd.senses.dummy",
    "Preprocessor": "wsd.senses.preprocess",
    "SelectK": "wsd.senses.selection",
    "SenseInducer": "wsd.senses.inducer",
    "SenseModel": "wsd.senses.model",
    "describe_senses": "wsd.senses.describe",
    "senses_to_markdown": "wsd.senses.describe",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Import public names on first use (PEP 562)."""
    return lazy_attribute(__name__, _LAZY, name)


def __dir__() -> list[str]:
    return lazy_dir(__name__, _LAZY)
