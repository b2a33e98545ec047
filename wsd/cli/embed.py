"""The ``wsd embed`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from wsd.cli.settings import command_config

NAME = "embed"
#: The one-line summary of ``wsd --help``.
SUMMARY = "find every occurrence of the targets in a corpus and store a contextual vector for each"
#: The description of ``wsd embed --help``.
DESCRIPTION = (
    "Scan a corpus for target words and store, for every occurrence, a contextual word vector. The output "
    "directory is resumable: re-run the same command after an interruption."
)


def command_embed(args: argparse.Namespace) -> int:
    """``wsd embed``: scan a corpus and store a vector for every occurrence (on a Dask cluster if asked).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.config import config_executor, embedding_options, write_config
    from wsd.options import ExecutionOptions, ScanSettings
    from wsd.workflows.embedding import embed_corpus

    config = command_config("embed", args)
    embedding = embedding_options(config)
    if args.recalibrate:  # before anything is read or written: an explicit --runtime or --precision is refused
        from wsd.workflows.calibration import recalibrate

        recalibrate(embedding)
    run = embed_corpus(
        config["scan"]["corpus"],
        config["scan"]["targets"],
        config["output"]["out"],
        scan=ScanSettings.from_config(config),
        embedding=embedding,
        execution=ExecutionOptions.from_config(config, executor=config_executor(config)),
        overwrite=args.overwrite,
        progress=not args.no_progress,
    )
    write_config(run, config, "embed")
    _print_run_summary(run)
    return 0


def _print_run_summary(run: Path) -> None:
    """Print what a run holds: occurrences per target, documents, the vectors and the folder."""
    from wsd.io.run_reader import read_meta

    meta = read_meta(run)
    counts = meta.get("scan", {}).get("occurrences", {})
    found = ", ".join(f"{t}: {n}" for t, n in counts.items())
    embedding = meta.get("embedding") or {}
    chosen = " (measured: auto)" if meta.get("calibration") else ""
    print(
        f"{meta.get('n_occurrences', 0)} occurrences ({found}) from {meta['scan']['documents']} documents; "
        f"{embedding.get('dim')}-dim vectors ({embedding.get('model')}, {embedding.get('layers')}, "
        f"{embedding.get('pooling')}, {embedding.get('runtime', 'torch')} {embedding.get('precision')}{chosen}) "
        f"in {run}"
    )
