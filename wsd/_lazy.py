"""Public names a package imports on first use (PEP 562), so that importing the package stays cheap.

A package lists its public names in a table, ``name -> module`` (the module that defines the name), and its
module-level ``__getattr__`` and ``__dir__`` ask this module (``wsd``, ``wsd.tune``)::

    def __getattr__(name: str) -> Any:
        return lazy_attribute(__name__, _LAZY, name)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from typing import Any

#: What a package's table holds: each public name with the module that defines it (under the same name).
LazyTable = Mapping[str, str]


def lazy_attribute(package: str, table: LazyTable, name: str) -> Any:
    """The public name ``name`` of ``package``, imported from its module on first use and kept in the package.

    Parameters
    ----------
    package : str
        The package's module name (its ``__name__``).
    table : mapping of str to str
        Its public names: ``name -> module``.
    name : str
        The name asked for.

    Returns
    -------
    object
        The attribute; the package holds it from now on, so ``__getattr__`` is not asked again.

    Raises
    ------
    AttributeError
        When ``name`` is not in ``table`` (what Python raises for any missing attribute).

    Examples
    --------
    >>> lazy_attribute("wsd", {"WsdError": "wsd.errors"}, "WsdError").__name__
    'WsdError'
    """
    if name not in table:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(table[name]), name)
    setattr(sys.modules[package], name, value)
    return value


def lazy_dir(package: str, table: LazyTable) -> list[str]:
    """The names of ``package``: those it holds and those it imports on first use.

    Parameters
    ----------
    package : str
        The package's module name (its ``__name__``).
    table : mapping of str to str
        Its public names imported on first use, ``name -> module``.

    Returns
    -------
    list of str
        Sorted.
    """
    return sorted(list(vars(sys.modules[package])) + list(table))
