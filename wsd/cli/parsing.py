"""The parser and the error lines every ``wsd`` command shares: one-line usage errors, warnings and OS errors.

Every problem the user can fix is printed as ``wsd <command>: error: <what and where>`` with exit code 2
(:func:`wsd.cli.main`); this module holds the pieces: the parser class, the exit codes, the line of an
operating-system error and the one-line warnings.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from wsd.options import OPTION_LIST
from wsd.schema import add_options

EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: Values argparse must not take for options: negative numbers and lists of them (``-4,-3,-2,-1``).
NEGATIVE_VALUE = re.compile(r"^-\d+(?:,-?\d+)*$|^-\d*\.\d+$")
DEBUG_FLAG = "--debug"


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (and exit code 2), pointing to ``--help``.

    A value that starts with ``-`` and is a number or a comma-separated list of numbers (``--layers -4,-3,-2,-1``)
    is read as the option's value, not as an unknown option.

    Parameters
    ----------
    *args, **kwargs
        As for :class:`argparse.ArgumentParser`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_VALUE

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print ``<prog>: error: <message>`` and exit with code 2.

        Parameters
        ----------
        message : str
            What is wrong.
        """
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def add_command(commands: argparse._SubParsersAction, module: ModuleType) -> OneLineParser:
    """Add the subcommand of a command module: its name, texts and flags (from :mod:`wsd.schema`), and its handler.

    A command module (``wsd/cli/<command>.py``) holds ``NAME``, ``SUMMARY`` (its line in ``wsd --help``),
    ``DESCRIPTION`` (of ``wsd NAME --help``) and its handler ``command_<NAME>`` (the parsed command line in, the
    exit code out), looked up now, so that a test may replace it.

    Parameters
    ----------
    commands : argparse._SubParsersAction
        The subcommands of the ``wsd`` parser.
    module : module
        The command's module.

    Returns
    -------
    OneLineParser
        The command's parser.
    """
    name = module.NAME
    command = commands.add_parser(name, help=module.SUMMARY, description=module.DESCRIPTION)
    add_options(command, name, OPTION_LIST)
    # command_name names the command in messages (wsd <name>: error: ...)
    command.set_defaults(handler=getattr(module, f"command_{name}"), command_name=name)
    return command


def os_error_line(exc: OSError) -> str:
    """An operating-system error as one line: what went wrong and the path(s) it concerns.

    Parameters
    ----------
    exc : OSError
        The error (any errno; ``filename`` and ``filename2`` where the system gave them).

    Returns
    -------
    str

    Examples
    --------
    >>> os_error_line(FileExistsError(17, "File exists", "out/run"))
    'File exists: out/run'
    """
    what = exc.strerror or (str(exc).splitlines() or [type(exc).__name__])[0]
    paths = [str(name) for name in (exc.filename, exc.filename2) if name is not None]
    return f"{what}: {' -> '.join(paths)}" if paths else what


def one_line_warnings() -> Callable[..., None]:
    """A ``warnings.showwarning`` that prints each warning as one line, and the same message only once.

    Returns
    -------
    callable
        To assign to ``warnings.showwarning`` while a command runs (:func:`wsd.cli.main`).
    """
    shown: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if str(message) not in shown:
            shown.add(str(message))
            print(f"wsd: warning: {message}", file=sys.stderr)

    return show
