"""Comparing a word's senses across slices of a corpus (periods, sources): lexical semantic change.

:mod:`.measures` holds the change measures (JSD of sense distributions, APD, PRT, the binary WUG rule);
:mod:`.slices` assigns occurrences to slices (a metadata column, optionally binned); :mod:`.compare` compares
every target between slices (:func:`compare_slices`) and ranks the targets by
:data:`wsd.schema.DEFAULT_MEASURE`, shrunk toward the mean by the width of its bootstrap interval
(:mod:`.uncertainty`).
"""

from wsd.change.compare import SliceComparison, compare_slices
from wsd.change.slices import Bin, Slices, assign_slices, check_slice_options, parse_bins

__all__ = [
    "Bin",
    "SliceComparison",
    "Slices",
    "assign_slices",
    "check_slice_options",
    "compare_slices",
    "parse_bins",
]
