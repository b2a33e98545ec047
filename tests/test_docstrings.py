"""numpydoc on the public API: every public callable with parameters has a Parameters section, and one that
returns something has a Returns (or Yields) section; every module of the package starts with a docstring."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from types import ModuleType

import pytest

import wsd

#: Modules whose public functions, classes and methods must carry numpydoc sections. The integrator extends
#: this list to every module of ``wsd`` once the parallel branches of issue 12 have landed (then it can become
#: ``ALL_MODULES``).
CHECKED = [
    "wsd.corpus.contexts",
    "wsd.corpus.documents",
    "wsd.corpus.folding",
    "wsd.corpus.forms",
    "wsd.corpus.matcher",
    "wsd.corpus.targets",
    "wsd.errors",
    "wsd.evaluate.datasets",
    "wsd.evaluate.datasets.generic",
    "wsd.evaluate.datasets.russe2018",
    "wsd.evaluate.datasets.semeval2010",
    "wsd.evaluate.datasets.semeval2013",
    "wsd.evaluate.keys",
    "wsd.evaluate.metrics",
    "wsd.evaluate.metrics.clustering",
    "wsd.evaluate.metrics.semeval2010",
    "wsd.evaluate.metrics.semeval2013",
    "wsd.evaluate.scoring",
    "wsd.machine",
    "wsd.occurrences",
    "wsd.report",
    "wsd.report.build",
    "wsd.report.content",
    "wsd.report.data",
    "wsd.report.experiments",
    "wsd.report.html_page",
    "wsd.report.markdown_page",
    "wsd.report.plots",
    "wsd.report.projection",
    "wsd.textfiles",
]

#: Modules owned by a parallel branch of issue 12 that adds their module docstring (the integrator empties this).
DOCSTRING_PENDING = {"wsd.embed"}
#: Parameter names that are not documented: the instance and the class of a method.
IMPLICIT = {"self", "cls"}
#: Return annotations that mean "returns nothing" (annotations are strings under ``from __future__``).
NOTHING = {inspect.Signature.empty, None, "None", "NoReturn", "typing.NoReturn"}


def _section(doc: str, *names: str) -> bool:
    """Whether ``doc`` has a numpydoc section headed by one of ``names`` (a title over a dashed line)."""
    return any(re.search(rf"^\s*{name}\s*\n\s*-{{3,}}\s*$", doc, flags=re.MULTILINE) for name in names)


def _walk() -> tuple[list[str], dict[str, str]]:
    """The importable modules of ``wsd``, and those skipped with why (an optional dependency missing)."""
    names = ["wsd"]
    names += [info.name for info in pkgutil.walk_packages(wsd.__path__, prefix="wsd.")]
    importable, skipped = [], {}
    for name in sorted(names):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:  # an optional dependency (dask, simplemma, ...) is not installed
            if error.name and error.name.split(".")[0] == "wsd":
                raise
            skipped[name] = str(error)
            continue
        importable.append(name)
    return importable, skipped


ALL_MODULES, SKIPPED = _walk()


def _parameters(function) -> list[str] | None:
    """The documented-to-be parameter names of ``function`` (None when it has no inspectable signature)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    return [name for name in signature.parameters if name not in IMPLICIT]


def _returns_something(function) -> bool:
    try:
        annotation = inspect.signature(function).return_annotation
    except (TypeError, ValueError):
        return False
    return annotation not in NOTHING


def _check_function(qualname: str, function, offenders: list[str]) -> None:
    doc = inspect.getdoc(function) or ""
    if not doc:
        offenders.append(f"{qualname}: no docstring")
        return
    if _parameters(function) and not _section(doc, "Parameters"):
        offenders.append(f"{qualname}: no Parameters section")
    if _returns_something(function) and not _section(doc, "Returns", "Yields"):
        offenders.append(f"{qualname}: no Returns section")


def _own_constructor(cls: type):
    """The ``__init__`` (or ``__new__``) that builds ``cls``, when it is written in wsd (else None)."""
    for klass in cls.__mro__:
        for name in ("__init__", "__new__"):
            function = klass.__dict__.get(name)
            if function is None:
                continue
            function = getattr(function, "__func__", function)
            module = getattr(function, "__module__", None) or ""
            return function if module.split(".")[0] == "wsd" else None
    return None


def _is_function(value) -> bool:
    """Whether ``value`` is a plain function, also behind ``functools.wraps`` (``lru_cache``, decorators)."""
    try:
        return inspect.isfunction(inspect.unwrap(value))
    except ValueError:  # a __wrapped__ chain that loops
        return False


def _generated(cls: type) -> bool:
    """Whether the constructor of ``cls`` is generated from its fields (a dataclass or a NamedTuple)."""
    return dataclasses.is_dataclass(cls) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))


def _check_class(module: ModuleType, cls: type, offenders: list[str]) -> None:
    qualname = f"{module.__name__}.{cls.__qualname__}"
    doc = inspect.getdoc(cls) or ""
    if not doc or cls.__doc__ is None:
        offenders.append(f"{qualname}: no docstring")
    constructor = _own_constructor(cls)
    # a dataclass or NamedTuple takes its fields as parameters: an Attributes section documents both
    sections = ("Parameters", "Attributes") if _generated(cls) else ("Parameters",)
    if constructor is not None and _parameters(constructor) and not _section(doc, *sections):
        offenders.append(f"{qualname}: no Parameters section (for __init__)")
    for name, member in vars(cls).items():
        if name.startswith("_") or isinstance(member, property):
            continue
        function = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
        if _is_function(function) and function.__module__ == module.__name__:
            _check_function(f"{qualname}.{name}", function, offenders)


def offenders_in(module: ModuleType) -> list[str]:
    """Every public function, class and method defined in ``module`` that lacks a numpydoc section it needs."""
    offenders: list[str] = []
    for name, value in vars(module).items():
        if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isclass(value):
            _check_class(module, value, offenders)
        elif _is_function(value):
            _check_function(f"{module.__name__}.{name}", value, offenders)
    return offenders


@pytest.mark.parametrize("name", CHECKED)
def test_public_callables_have_numpydoc_sections(name: str) -> None:
    if name in SKIPPED:
        pytest.skip(f"{name} needs an optional dependency: {SKIPPED[name]}")
    offenders = offenders_in(importlib.import_module(name))
    assert not offenders, "missing numpydoc sections:\n" + "\n".join(offenders)


@pytest.mark.parametrize("name", ALL_MODULES)
def test_every_module_has_a_docstring(name: str) -> None:
    if name in DOCSTRING_PENDING:
        pytest.skip(f"{name}: its module docstring comes with another branch of issue 12")
    module = importlib.import_module(name)
    assert (module.__doc__ or "").strip(), f"{name} has no module docstring"


def test_the_checker_finds_missing_sections() -> None:
    module = ModuleType("wsd._docstring_probe")
    source = '''
import functools


def documented(x: int) -> int:
    """Double.

    Parameters
    ----------
    x : int
        A number.

    Returns
    -------
    int
        Twice ``x``.
    """
    return 2 * x


def prose_only(x: int) -> int:
    """Double ``x``."""
    return 2 * x


@functools.lru_cache
def cached(x: int) -> int:
    """Double ``x``, once."""
    return 2 * x


def no_returns(x: int) -> int:
    """Double.

    Parameters
    ----------
    x : int
        A number.
    """
    return 2 * x


class Thing:
    """A thing."""

    def __init__(self, size: int) -> None:
        self.size = size

    def grow(self, by: int) -> None:
        """Grow."""

    @property
    def half(self) -> float:
        return self.size / 2
'''
    exec(compile(source, "<probe>", "exec"), module.__dict__)
    assert offenders_in(module) == [
        "wsd._docstring_probe.prose_only: no Parameters section",
        "wsd._docstring_probe.prose_only: no Returns section",
        "wsd._docstring_probe.cached: no Parameters section",
        "wsd._docstring_probe.cached: no Returns section",
        "wsd._docstring_probe.no_returns: no Returns section",
        "wsd._docstring_probe.Thing: no Parameters section (for __init__)",
        "wsd._docstring_probe.Thing.grow: no Parameters section",
    ]


def test_checked_modules_exist() -> None:
    unknown = [name for name in CHECKED if name not in ALL_MODULES and name not in SKIPPED]
    assert not unknown, f"CHECKED names modules that are not in wsd: {unknown}"
