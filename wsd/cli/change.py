"""The ``wsd change`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse

from wsd.cli.settings import command_config, inventory_namer

NAME = "change"
#: The one-line summary of ``wsd --help``.
SUMMARY = "compare each target's senses between slices of a metadata column (year, source, ...)"
#: The description of ``wsd change --help``.
DESCRIPTION = (
    "Per target: sense counts and proportions in every slice, change scores (JSD, APD, PRT, the binary WUG "
    "rule) between consecutive slices and first vs last (or --between A,B), senses that appeared or "
    "vanished, and the targets ranked by change. Writes RUN/change (or --out)."
)


def command_change(args: argparse.Namespace) -> int:
    """``wsd change``: compare the senses of a run's targets between slices of a metadata column.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    import pandas as pd

    from wsd.change.stage import change_run, format_ranking
    from wsd.config import write_config
    from wsd.io.layout import CHANGE_RANKING
    from wsd.options import ChangeOptions

    config = command_config("change", args)
    change = ChangeOptions.from_config(config)
    namer = inventory_namer(config)  # the folder is checked before the run is read
    inputs = config["change"]
    out = change_run(
        inputs["run"], inputs["senses"], config["output"]["out"], change, overwrite=args.overwrite, namer=namer
    )
    write_config(out, config, "change")
    ranking = pd.read_parquet(out / f"{CHANGE_RANKING}.parquet")
    shown = ", ".join(f"{r.target} {r.score:.3f}" for r in ranking.head(5).itertuples())
    print(format_ranking(out))
    print(f"{len(ranking)} targets ranked by {change.measure} ({shown}{', ...' if len(ranking) > 5 else ''}) in {out}")
    return 0
