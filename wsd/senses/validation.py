"""Declarative parameter constraints for the sense estimators, checked at ``fit`` and raised as ConfigError.

Each estimator lists its parameters' constraints in a class attribute ``_parameter_constraints``
(``{name: [constraint, ...]}``, a value passes when it satisfies any one of them; a plain string or
``None`` in the list means exactly that value). :func:`validate_params` checks them in order and raises
:class:`~wsd.errors.ConfigError` (a ``ValueError``, so scikit-learn's checks see the error they expect)
naming the parameter, what it must be, and the value it got. scikit-learn's ``_fit_context`` plays the same
role there; this is the few lines wsd needs, with wsd's error class and messages.

>>> class Demo:
...     _parameter_constraints = {"k": [Integer(1), "auto"]}
...     k = 0
>>> validate_params(Demo())
Traceback (most recent call last):
...
wsd.errors.ConfigError: k must be an int >= 1 or 'auto', got 0
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.exceptions import NotFittedError

from wsd.errors import ConfigError, ModelError


class NotFittedModelError(ModelError, NotFittedError):
    """A sense estimator used before ``fit`` (or ``load``): both wsd's ModelError and sklearn's NotFittedError."""


class Constraint:
    """One allowed kind of value; ``description`` completes the sentence "``name`` must be ...".

    A subclass overrides :meth:`is_satisfied_by` (whose docstring it inherits) and sets ``description``.
    """

    description = "valid"

    def is_satisfied_by(self, value: Any) -> bool:
        """Whether ``value`` is allowed.

        Parameters
        ----------
        value : object
            The parameter's value.

        Returns
        -------
        bool
        """
        raise NotImplementedError


class Integer(Constraint):
    """An int (not a bool) at least ``minimum``.

    Parameters
    ----------
    minimum : int
        The smallest allowed value.
    """

    def __init__(self, minimum: int):
        self.minimum = minimum
        self.description = f"an int >= {minimum}"

    def is_satisfied_by(self, value: Any) -> bool:
        return bool(
            isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and value >= self.minimum
        )


class Real(Constraint):
    """A finite number (int or float, not a bool)."""

    description = "a finite number"

    def is_satisfied_by(self, value: Any) -> bool:
        return (
            isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, (bool, np.bool_))
            and math.isfinite(value)
        )


class PositiveReal(Real):
    """A finite number (int or float, not a bool) greater than 0."""

    description = "a positive number"

    def is_satisfied_by(self, value: Any) -> bool:
        return bool(super().is_satisfied_by(value) and value > 0)


class NonNegativeReal(Real):
    """A finite number (int or float, not a bool) of at least 0."""

    description = "a number ≥ 0"

    def is_satisfied_by(self, value: Any) -> bool:
        return super().is_satisfied_by(value) and value >= 0


class Cosine(Real):
    """A finite number (int or float, not a bool) in [-1, 1]: a cosine similarity."""

    description = "a cosine similarity between -1 and 1"

    def is_satisfied_by(self, value: Any) -> bool:
        return super().is_satisfied_by(value) and -1.0 <= float(value) <= 1.0


class Fraction(Constraint):
    """A number in [0, 1]; ``True`` and ``False`` count as 1 and 0."""

    description = "a number between 0 and 1"

    def is_satisfied_by(self, value: Any) -> bool:
        if isinstance(value, (bool, np.bool_)):
            return True
        return isinstance(value, (int, float, np.integer, np.floating)) and 0.0 <= float(value) <= 1.0


class Boolean(Constraint):
    """``True`` or ``False`` (Python or NumPy bools)."""

    description = "True or False"

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, (bool, np.bool_))


class Options(Constraint):
    """One of a fixed set of strings.

    Parameters
    ----------
    options : sequence of str
        The allowed values, in the order the message lists them.
    message : str or None
        A message of its own, formatted with ``name``, ``value`` and ``options`` (default: "one of ...").
    """

    def __init__(self, options: Sequence[str], message: str | None = None):
        self.options = tuple(options)
        self.message = message
        self.description = f"one of {', '.join(self.options)}"

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.options


class RandomStateLike(Constraint):
    """What :func:`sklearn.utils.check_random_state` accepts: ``None``, an int or a ``RandomState``."""

    description = "None, an int or a numpy RandomState"

    def is_satisfied_by(self, value: Any) -> bool:
        return value is None or Integer(0).is_satisfied_by(value) or isinstance(value, np.random.RandomState)


class HasMethods(Constraint):
    """An object with these methods (e.g. a clusterer with ``fit``).

    Parameters
    ----------
    methods : sequence of str
        Method names the object must have.
    """

    def __init__(self, methods: Sequence[str]):
        self.methods = tuple(methods)
        self.description = f"an object with {', '.join(self.methods)}"

    def is_satisfied_by(self, value: Any) -> bool:
        return all(callable(getattr(value, method, None)) for method in self.methods)


def _describe(option: Any) -> str:
    return option.description if isinstance(option, Constraint) else repr(option)


def _satisfies(option: Any, value: Any) -> bool:
    if isinstance(option, Constraint):
        return option.is_satisfied_by(value)
    if option is None:
        return value is None
    return isinstance(value, str) and value == option


def check_param(name: str, value: Any, constraints: Sequence[Any]) -> None:
    """Raise :class:`~wsd.errors.ConfigError` unless ``value`` satisfies one of ``constraints``.

    Parameters
    ----------
    name : str
        The parameter's name (used in the message).
    value : object
        Its value.
    constraints : sequence
        :class:`Constraint` objects, literal strings or ``None``.

    Returns
    -------
    None

    Examples
    --------
    >>> check_param("noise", "keep", [Options(("nearest", "keep"))])
    """
    if any(_satisfies(option, value) for option in constraints):
        return
    custom = next((c.message for c in constraints if isinstance(c, Options) and c.message), None)
    if custom is not None:
        options = next(c for c in constraints if isinstance(c, Options)).options
        raise ConfigError(custom.format(name=name, value=value, options=", ".join(options)))
    raise ConfigError(f"{name} must be {' or '.join(_describe(option) for option in constraints)}, got {value!r}")


def validate_params(estimator: Any, constraints: Mapping[str, Sequence[Any]] | None = None) -> None:
    """Check every constrained parameter of ``estimator`` (its ``_parameter_constraints`` by default).

    Parameters
    ----------
    estimator : object
        An estimator whose parameters are attributes of the same name.
    constraints : mapping or None
        ``{name: [constraint, ...]}``; default ``type(estimator)._parameter_constraints``.

    Returns
    -------
    None
    """
    table = type(estimator)._parameter_constraints if constraints is None else constraints
    for name, allowed in table.items():
        check_param(name, getattr(estimator, name), allowed)
