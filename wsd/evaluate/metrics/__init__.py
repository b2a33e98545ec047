"""Evaluation metrics: pure functions of a gold key and a system key (one module per family).

* :mod:`~wsd.evaluate.metrics.semeval2013` — Fuzzy NMI, Fuzzy B-Cubed (official SemEval-2013 scorer parity);
* :mod:`~wsd.evaluate.metrics.semeval2010` — paired F-score, V-measure, supervised recall (SemEval-2010);
* :mod:`~wsd.evaluate.metrics.clustering` — ARI, NMI, V-measure, paired F, B-Cubed, purity; RUSSE-2018.
* :mod:`~wsd.evaluate.metrics.disambiguation` — accuracy and macro-F1 of predicted senses (few-shot).
"""

from __future__ import annotations

from wsd.evaluate.metrics.clustering import score_generic, score_russe
from wsd.evaluate.metrics.semeval2010 import score_semeval2010, supervised_recall
from wsd.evaluate.metrics.semeval2013 import score_semeval2013

__all__ = ["score_generic", "score_russe", "score_semeval2010", "score_semeval2013", "supervised_recall"]
