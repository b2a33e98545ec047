"""The ``wsd demo`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse

from wsd.io.outputs import check_disjoint

NAME = "demo"
#: The one-line summary of ``wsd --help``.
SUMMARY = "run the whole pipeline on the bundled demo corpus with the bundled model"
#: The description of ``wsd demo --help``.
DESCRIPTION = (
    "Scan, embed, cluster, evaluate and report on the bundled demo corpus (English and Russian ambiguous "
    "words with gold senses), using the bundled all-MiniLM-L6-v2."
)


def command_demo(args: argparse.Namespace) -> int:
    """``wsd demo``: the whole pipeline on the bundled demo corpus and the bundled model.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.io.outputs import claim_folder
    from wsd.workflows.demo import run_demo

    check_disjoint(args.out, {"--data": args.data})
    claim_folder(args.out, "output", overwrite=args.overwrite)  # a folder of the user's is never written into
    summary = run_demo(args.out, data_dir=args.data, progress=not args.no_progress, overwrite=args.overwrite)
    print(summary)
    return 0
