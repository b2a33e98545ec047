"""The ``wsd run`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse

from wsd.cli.settings import command_config

NAME = "run"
#: The one-line summary of ``wsd --help``.
SUMMARY = "the whole job on a corpus: scan, embed, cluster, (evaluate against gold labels), (report)"
#: The description of ``wsd run --help``.
DESCRIPTION = (
    "Scan a corpus for the targets, embed every occurrence, induce each target's senses and, given --gold "
    "labels in the generic format, score them; --report writes report.html."
)


def command_run(args: argparse.Namespace) -> int:
    """``wsd run``: scan → embed → cluster → (evaluate) → (report) on a corpus.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.workflows.run import format_summary, run_job

    config = command_config("run", args)
    if args.recalibrate:  # before anything is read or written: an explicit --runtime or --precision is refused
        from wsd.config import embedding_options
        from wsd.workflows.calibration import recalibrate

        recalibrate(embedding_options(config))
    summary = run_job(config, progress=not args.no_progress, overwrite=args.overwrite)
    print(format_summary(summary))
    return 0
