"""The ``wsd config`` command: ``show`` the defaults as TOML, ``validate`` a file (flags: :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse

from wsd.cli.parsing import OneLineParser
from wsd.errors import WsdError
from wsd.options import OPTION_LIST
from wsd.schema import add_options

NAME = "config"


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Add ``wsd config show|validate`` to the subcommands of the ``wsd`` parser.

    Parameters
    ----------
    commands : argparse._SubParsersAction
        The subcommands of :func:`wsd.cli.build_parser`.
    """
    config = commands.add_parser(
        "config",
        help="print the default configuration as TOML, or check a configuration file",
        description="One TOML configuration serves wsd embed, cluster, run and evaluate (--config FILE). "
        "`wsd config show` prints the defaults; `wsd config validate FILE` checks a file against the schema.",
    )
    actions = config.add_subparsers(dest="action", metavar="ACTION", parser_class=OneLineParser)
    add_options(actions.add_parser("show", help="print the defaults as TOML"), "config show", OPTION_LIST)
    add_options(
        actions.add_parser("validate", help="check a configuration file (unknown keys, wrong types)"),
        "config validate",
        OPTION_LIST,
    )
    config.set_defaults(handler=command_config_tool, command_name="config")  # its --command is another option


def command_config_tool(args: argparse.Namespace) -> int:
    """``wsd config show|validate``: the default configuration as TOML, or a checked file.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.config import check_settings, read_config_file, resolve_config, to_toml

    if args.action == "show":
        header = f"The defaults of wsd {args.command}" if args.command else "Every setting and its default"
        config = resolve_config(args.command)
        if "embedding" in config:
            header += " (wsd config show).\n" + _auto_choice_line()
        else:
            header += " (wsd config show)."
        print(to_toml(config, header), end="")
        return 0
    if args.action == "validate":
        data = read_config_file(args.file)
        checked = check_settings(data, args.file)
        if args.command:
            resolve_config(args.command, data, where=args.file)
        count = sum(len(table) for table in checked.values())
        print(f"{args.file}: valid ({count} settings in {len(checked)} sections)")
        return 0
    raise WsdError("choose an action: wsd config show or wsd config validate FILE")


def _auto_choice_line() -> str:
    """What ``runtime = "auto"`` and ``precision = "auto"`` run the default model with on this machine (read from
    the calibration cache: nothing is measured or loaded here)."""
    from wsd.embed import calibration

    if not calibration.enabled():
        return f"auto runtime and precision: the fixed rule (${calibration.CALIBRATION_ENV} turns measuring off)."
    found = calibration.cached_choice()
    if found is None:
        return (
            "auto runtime and precision on this machine: not measured yet (the first wsd embed with both auto "
            "measures them, once per model and machine)."
        )
    return (
        f"auto runtime and precision on this machine for {found.model}: {found.choice} (measured "
        f"{found.measured_at}, {found.path}; --recalibrate of wsd embed or wsd run measures again)."
    )
