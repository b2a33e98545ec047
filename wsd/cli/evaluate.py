"""The ``wsd evaluate`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse
import contextlib

from wsd.cli.parsing import add_command
from wsd.cli.settings import command_config, executor_for
from wsd.errors import WsdError

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


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Add ``wsd evaluate`` to the subcommands of the ``wsd`` parser (its flags come from :mod:`wsd.schema`).

    Parameters
    ----------
    commands : argparse._SubParsersAction
        The subcommands of :func:`wsd.cli.build_parser`.
    """
    add_command(commands, NAME, SUMMARY, DESCRIPTION, command_evaluate)


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
    from wsd.config import evaluation_config, write_config
    from wsd.senses.inducer import make_inducer
    from wsd.workflows.benchmark import evaluate
    from wsd.workflows.results import format_table

    resolved = command_config("evaluate", args)
    config = evaluation_config(resolved)
    make_inducer(config.senses)
    out, report = resolved["output"]["out"], resolved["output"]["report"]
    if report and not out:
        raise WsdError("--report needs --out (the folder the report is written into)")
    executor = executor_for(resolved)
    with executor or contextlib.nullcontext():  # one cluster for every seed
        result = evaluate(
            config,
            out=out,
            map_function=executor,
            progress=not args.no_progress,
            overwrite=args.overwrite,
            offline=True if resolved["embedding"]["offline"] else None,
        )
    print(format_table(result))
    if out:
        write_config(out, resolved, "evaluate")
        written = (
            "metrics and the per-pair table"
            if config.dataset == "wic"
            else "metrics, per-target scores and system keys"
        )
        print(f"{written} written to {out}")
    if report:
        from wsd.report import write_report

        print(f"report written to {write_report(out)}")
    return 0
