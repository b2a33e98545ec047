"""The ``wsd evaluate`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse

from wsd.cli.settings import command_config

NAME = "evaluate"
#: The one-line summary of ``wsd --help``.
SUMMARY = "embed, cluster and score a labelled dataset with its official metrics"
#: The description of ``wsd evaluate --help``.
DESCRIPTION = (
    "Evaluate sense induction on SemEval-2013 Task 13, SemEval-2010 Task 14, RUSSE-2018 or your own labelled "
    "data (generic format), with mean ± std over seeds and the trivial baselines; or usage similarity on WiC, "
    "MCL-WiC or AM2iCo pairs (--dataset wic: threshold accuracy and ROC AUC of the cosine, a per-pair table "
    "OUT/pairs.csv, and with --report a page of the scores, the cosine distributions and the ROC curve)."
)


def command_evaluate(args: argparse.Namespace) -> int:
    """``wsd evaluate``: embed, cluster and score a labelled dataset.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.workflows.evaluation import evaluate_job
    from wsd.workflows.results import format_table

    result = evaluate_job(command_config("evaluate", args), progress=not args.no_progress, overwrite=args.overwrite)
    print(format_table(result.metrics))
    if result.out is not None:
        written = (
            "metrics and the per-pair table"
            if result.metrics["dataset"] == "wic"
            else "metrics, per-target scores and system keys"
        )
        print(f"{written} written to {result.out}")
    if result.report is not None:
        print(f"report written to {result.report}")
    return 0
