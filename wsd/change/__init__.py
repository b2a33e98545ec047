"""Comparing a word's senses across slices of a corpus (periods, sources): lexical semantic change.

:mod:`.measures` holds the change measures (JSD of sense distributions, APD, PRT, the binary WUG rule).
"""
