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

from wsd.senses.clusterers import CLUSTERERS
from wsd.senses.describe import describe_senses, senses_to_markdown
from wsd.senses.dummy import DummyClusterer
from wsd.senses.inducer import SenseInducer
from wsd.senses.methods import BASELINE_METHODS, CLUSTERING_METHODS, METHODS
from wsd.senses.model import SenseModel
from wsd.senses.preprocess import Preprocessor
from wsd.senses.selection import SELECTIONS, SelectK

__all__ = [
    "BASELINE_METHODS",
    "CLUSTERERS",
    "CLUSTERING_METHODS",
    "METHODS",
    "SELECTIONS",
    "DummyClusterer",
    "Preprocessor",
    "SelectK",
    "SenseInducer",
    "SenseModel",
    "describe_senses",
    "senses_to_markdown",
]
