"""Named sense-induction recipes: the parameters of :class:`~wsd.senses.SenseInducer` in one place.

``textbook`` is the baseline every result is compared with (k-means per word, k chosen by silhouette
over 2..7, on the raw vectors). ``default`` is what ``wsd cluster``, ``wsd evaluate`` and ``wsd run``
use when no method is given.
"""

from __future__ import annotations

from typing import Any

from wsd.errors import ConfigError

TEXTBOOK: dict[str, Any] = {"method": "kmeans", "k": "auto", "selection": "silhouette", "k_range": (2, 7)}
DEFAULT: dict[str, Any] = dict(TEXTBOOK)

RECIPES: dict[str, dict[str, Any]] = {"textbook": TEXTBOOK, "default": DEFAULT}


def recipe(name: str) -> dict[str, Any]:
    """A copy of the inducer parameters of a named recipe.

    >>> recipe("textbook")["method"]
    'kmeans'
    """
    if name not in RECIPES:
        raise ConfigError(f"unknown recipe {name!r} (choose one of {', '.join(RECIPES)})")
    return dict(RECIPES[name])


def make_inducer(params: dict[str, Any]):
    """A :class:`~wsd.senses.SenseInducer` from parameters, validated now (bad values fail before any work).

    >>> make_inducer({"method": "ward", "k": 3}).method
    'ward'
    """
    from wsd.senses.inducer import SenseInducer

    try:
        inducer = SenseInducer(**params)
    except TypeError as exc:
        raise ConfigError(f"unknown sense-induction parameter: {exc}") from None
    inducer._check_params()
    return inducer
