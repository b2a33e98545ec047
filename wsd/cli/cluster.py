"""The ``wsd cluster`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse
import contextlib
from typing import TYPE_CHECKING, Any

from wsd.cli.settings import command_config, inventory_namer

if TYPE_CHECKING:
    from wsd.executors import Executor

NAME = "cluster"
#: The one-line summary of ``wsd --help``.
SUMMARY = "induce the senses of every target of a run (wsd embed's output)"
#: The description of ``wsd cluster --help``.
DESCRIPTION = (
    "Cluster each target's occurrence vectors into senses, describe each sense (size, examples, "
    "distinguishing words) and save a sense model that can predict senses of new runs."
)


def command_cluster(args: argparse.Namespace) -> int:
    """``wsd cluster``: induce senses for every target of a run.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    import json

    from wsd.config import config_executor, write_config
    from wsd.io.layout import META_FILE
    from wsd.options import SenseOptions
    from wsd.senses.inducer import SenseInducer
    from wsd.senses.stage import cluster_run

    config = command_config("cluster", args)
    inducer = SenseInducer.from_options(SenseOptions.from_config(config))  # bad options fail before any work
    namer = inventory_namer(config)  # the folder is checked before any clustering
    executor = config_executor(config)
    with executor or contextlib.nullcontext():
        out = cluster_run(
            config["senses"]["run"],
            config["output"]["out"],
            inducer=inducer,
            n_examples=config["output"]["examples"],
            n_keywords=config["output"]["keywords"],
            map_function=_map_with_progress(executor, not args.no_progress),
            overwrite=args.overwrite,
            namer=namer,
        )
    write_config(out, config, "cluster")
    senses = json.loads((out / META_FILE).read_text(encoding="utf-8"))["senses"]
    print(f"senses of {len(senses)} targets ({', '.join(f'{t}: {n}' for t, n in senses.items())}) in {out}")
    return 0


def _map_with_progress(executor: Executor | None, progress: bool) -> Any:
    """A map function over targets with a progress bar, on ``executor`` (this process when None)."""
    import functools

    from wsd.executors import SerialExecutor

    return functools.partial((executor or SerialExecutor()).map, progress="target" if progress else None)
