"""Reports: sense maps, sense cards, confusion heatmaps and score plots in one self-contained HTML page.

``write_report(out)`` reads the ``--out`` folder of ``wsd run`` / ``wsd demo`` / ``wsd evaluate`` (or a folder or
file of experiment results) and writes ``report.html`` (images embedded, no network), ``report.md`` and the PNGs
(in ``report_figures/``).

>>> from wsd.report import write_report
>>> write_report("out/demo")                        # doctest: +SKIP
PosixPath('out/demo/report.html')
"""

from __future__ import annotations

from wsd.report.build import write_report
from wsd.report.data import RunData, load_run_data
from wsd.report.experiments import Experiment, load_experiments
from wsd.report.projection import project

__all__ = ["Experiment", "RunData", "load_experiments", "load_run_data", "project", "write_report"]
