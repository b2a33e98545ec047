"""The ``wsd`` command line: thin argument parsing over the Python API, with one-line errors.

Every problem the user can fix (missing corpus, unknown model, bad option value, malformed file) is printed
as ``wsd <command>: error: <what and where>`` with exit code 2; warnings are printed as one line each.

One module per command (``wsd/cli/<command>.py``: its help texts and its handler, which imports the stages it
calls only when it runs, so that ``wsd --help`` stays fast); the flags of every command are declared in
:mod:`wsd.schema`; :mod:`wsd.cli.parsing` holds the parser and the error lines, :mod:`wsd.cli.settings` a
command's resolved configuration.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence

from wsd import __version__
from wsd.cli import change, cluster, config, demo, embed, evaluate, predict, report, run, score, tune
from wsd.cli.parsing import (
    DEBUG_FLAG,
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    OneLineParser,
    add_command,
    one_line_warnings,
    os_error_line,
)
from wsd.errors import WsdError
from wsd.io.outputs import session
from wsd.schema import CONFIG_COMMANDS

__all__ = ["CONFIG_COMMANDS", "EXIT_FAILURE", "EXIT_INTERRUPTED", "EXIT_USAGE", "build_parser", "main", "os_error_line"]

#: The commands in the order ``wsd --help`` lists them: each module holds its name, texts and handler
#: (:func:`wsd.cli.parsing.add_command`); ``config`` adds its own parser.
COMMANDS = (embed, cluster, predict, evaluate, score, report, run, change, tune, demo, config)


def build_parser() -> OneLineParser:
    """The ``wsd`` argument parser with all subcommands, their flags generated from :mod:`wsd.schema`.

    Returns
    -------
    OneLineParser
    """
    parser = OneLineParser(
        prog="wsd",
        description="Word-sense induction from contextual embeddings: scan → embed → cluster → evaluate → report.",
    )
    parser.add_argument("--version", action="version", version=f"wsd {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an unexpected error (anywhere on the line)"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for module in COMMANDS:
        if module is config:  # show and validate: subcommands of their own
            config.add_parser(commands)
        else:
            add_command(commands, module)  # the handler is looked up now (a test may replace one)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wsd`` console script; returns the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 for an error the user can fix, 1 for an unexpected error (``--debug`` shows its
        traceback), 130 when interrupted.
    """
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    debug = DEBUG_FLAG in arguments
    args = parser.parse_args(([DEBUG_FLAG] if debug else []) + [a for a in arguments if a != DEBUG_FLAG])
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    name = getattr(args, "command_name", None) or args.command  # wsd <name>: error: ...
    previous_showwarning = warnings.showwarning
    warnings.showwarning = one_line_warnings()
    try:
        with session():  # every folder the command writes stays locked until it ends (wsd.io.outputs)
            return handler(args)
    except WsdError as exc:
        print(f"wsd {name}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    except KeyboardInterrupt as exc:  # a message says what was saved (wsd tune), else the run resumes
        print(f"wsd {name}: interrupted; {str(exc) or 'run the same command again to resume'}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:  # every errno: the disk, a name too long, a dangling link, ... (one line, the path)
        if debug:
            raise
        print(f"wsd {name}: error: {os_error_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # the last line of defence: one line, and the traceback on request
        if debug:
            raise
        message = str(exc).splitlines()[0] if str(exc) else ""
        print(
            f"wsd {name}: unexpected error: {type(exc).__name__}: {message} "
            "(a bug in wsd or an unchecked input; re-run with --debug for the traceback)",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    finally:
        warnings.showwarning = previous_showwarning
