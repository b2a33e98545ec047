"""The ``wsd score`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from wsd.errors import WsdError

NAME = "score"
#: The one-line summary of ``wsd --help``.
SUMMARY = "score a system key file against a gold key file"
#: The description of ``wsd score --help``.
DESCRIPTION = (
    "Score an existing key file (lemma.pos instance sense[/weight] ...) with the dataset's official metrics; "
    "SemEval-2013 scores reproduce the official scorer."
)


def command_score(args: argparse.Namespace) -> int:
    """``wsd score``: score an existing system key file against a gold key file.

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

    from wsd.evaluate.keys import read_key
    from wsd.evaluate.scoring import baseline_keys_from_gold, score_keys
    from wsd.workflows.results import baseline_scores, format_table, metrics_document

    for option, path in (("--gold", args.gold), ("--system", args.system)):
        if Path(path).is_dir():
            raise WsdError(f"{option} {path} is a folder, not a key file")
    gold = read_key(args.gold)
    system = read_key(args.system)
    result = metrics_document(
        args.dataset,
        {"gold": str(args.gold), "system": str(args.system)},
        [score_keys(args.dataset, gold, system)],
        baseline_scores(args.dataset, gold, baseline_keys_from_gold(gold)),
        n_instances=sum(len(instances) for instances in gold.values()),
        n_targets=len(gold),
    )
    if args.format == "json":
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(format_table(result))
    return 0
