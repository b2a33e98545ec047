"""The ``wsd report`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from wsd.errors import WsdError

NAME = "report"
#: The one-line summary of ``wsd --help``.
SUMMARY = "write report.html, report.md and the plots of a run, an evaluation or experiment results"
#: The description of ``wsd report --help``.
DESCRIPTION = (
    "Sense maps, sense cards, confusion heatmaps and score plots of the --out folder of `wsd run`, `wsd "
    "demo` or `wsd evaluate` (for `--dataset wic`: the scores, the cosine distributions and the ROC curve); or plots "
    "of experiment results (a .json file or a folder of them)."
)


def command_report(args: argparse.Namespace) -> int:
    """``wsd report``: report.html (self-contained), report.md and the PNGs of a run, an evaluation or experiments.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.io.layout import METRICS_FILE, RUN_DIR, SENSES_DIR
    from wsd.io.locate import folder_kind
    from wsd.report import write_report

    source = Path(args.run)
    markers = (RUN_DIR, SENSES_DIR, METRICS_FILE)  # or any folder of a run's layout (wsd.io.locate)
    is_output_folder = source.is_dir() and (
        folder_kind(source) is not None or any((source / name).exists() for name in markers)
    )
    if args.out is None and source.exists() and not is_output_folder:
        raise WsdError(
            f"--run {source} holds experiment results: give --out DIR for the report "
            "(it is never written into the results themselves)"
        )
    path = write_report(
        args.run,
        args.out,
        projection=args.projection,
        experiments=args.experiments,
        max_points=args.max_points,
        n_examples=args.examples,
        random_state=args.seed,
        title=args.title,
        overwrite=args.overwrite,
        senses=args.report_senses,
        change=args.report_change,
    )
    from wsd.io.layout import FIGURES_DIR, REPORT_MARKDOWN

    print(f"report written to {path} (with {REPORT_MARKDOWN} and {FIGURES_DIR}/ beside it)")
    return 0
