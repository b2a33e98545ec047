"""Sense induction: cluster one word's occurrence vectors into senses, describe them, save and predict.

from wsd.senses import SenseInducer, SenseModel, describe_senses
labels = SenseInducer(method="kmeans", k="auto").fit_predict(X_word)     # one word
model = SenseModel(SenseInducer(method="agglomerative")).fit(occurrences, X)  # many words
model.save("runs/x/senses"); SenseModel.load("runs/x/senses").predict(occurrences, X)
"""

from __future__ import annotations

from wsd.senses.describe import describe_senses, senses_to_markdown
from wsd.senses.inducer import SenseInducer
from wsd.senses.methods import BASELINE_METHODS, CLUSTERING_METHODS, METHODS
from wsd.senses.model import SenseModel
from wsd.senses.preprocess import Preprocessor
from wsd.senses.selection import SELECTIONS

__all__ = [
    "BASELINE_METHODS",
    "CLUSTERING_METHODS",
    "METHODS",
    "SELECTIONS",
    "Preprocessor",
    "SenseInducer",
    "SenseModel",
    "describe_senses",
    "senses_to_markdown",
]
