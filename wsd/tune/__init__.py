"""Training data for sense-aware encoders: labelled use pairs from WUG judgments, WiC, sense datasets, WordNet.

Every source yields a :class:`~wsd.tune.pairs.PairSet` (uses + labelled pairs, see :mod:`wsd.tune.pairs`);
:func:`~wsd.tune.sources.read_source` reads one from a ``KIND:PATH`` spec.
"""
