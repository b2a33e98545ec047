"""The ``wsd tune`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse

from wsd.cli.parsing import add_command
from wsd.cli.settings import command_config

NAME = "tune"
#: The one-line summary of ``wsd --help``.
SUMMARY = "train an encoder to tell senses apart, from usage judgments and sense-labelled examples"
#: The description of ``wsd tune --help``.
DESCRIPTION = (
    "Fine-tune an encoder (the bundled MiniLM unless --model) on labelled pairs of uses of a word: WUG "
    "judgments, WiC pairs, sense datasets, WordNet examples. Trains the word vectors wsd uses (the target's "
    "subwords pooled over --layers) and writes a model folder that --model DIR loads everywhere, with a "
    "model card of the sources, lemmas, options and validation figures. Lemmas held out with --exclude or "
    "--exclude-lemmas are never trained on; an interrupted run resumes from OUT/checkpoint."
)


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Add ``wsd tune`` to the subcommands of the ``wsd`` parser (its flags come from :mod:`wsd.schema`).

    Parameters
    ----------
    commands : argparse._SubParsersAction
        The subcommands of :func:`wsd.cli.build_parser`.
    """
    add_command(commands, NAME, SUMMARY, DESCRIPTION, command_tune)


def command_tune(args: argparse.Namespace) -> int:
    """``wsd tune``: train an encoder to tell senses apart, from labelled use pairs; write a model folder.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.tune.api import read_lemma_list, tune_encoder
    from wsd.tune.options import TuneOptions

    config = command_config("tune", args)
    tune = config["tune"]
    options = TuneOptions.from_settings(tune, progress=args.progress)  # checked before any source is read
    result = tune_encoder(
        tune["train"],
        config["output"]["out"],
        exclude=tune["exclude"] or (),
        exclude_lemmas=read_lemma_list(tune["exclude_lemmas"] or ()),
        options=options,
        overwrite=args.overwrite,
    )
    print(result.summary())
    return 0
