"""How training reads its options (:class:`wsd.options.TuneOptions`, where each option is declared once).

:class:`~wsd.options.TuneOptions` checks its values' types, choices and ranges itself; what needs the encoder's
parsers is checked here, when training starts (:func:`training_options`): contextual layers, a known subword
pooling, a context vector that parses, each in its one spelling. :func:`with_later_defaults` reads a stored
configuration written before some option existed.

>>> training_options(TuneOptions(pooling="first_last")).pooling
'first-last'
>>> training_options(TuneOptions(layers="static"))
Traceback (most recent call last):
...
wsd.errors.ConfigError: tune option layers: 'static' has no context to train; choose contextual layers
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wsd.embed.context import parse_context
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import check_pooling
from wsd.errors import ConfigError
from wsd.options import TuneOptions


def training_options(options: TuneOptions) -> TuneOptions:
    """The options as training uses them: the layers, pooling and context vector checked by the encoder's parsers,
    and written in their one spelling (``first_last`` is ``first-last``).

    Parameters
    ----------
    options : TuneOptions
        The options given.

    Returns
    -------
    TuneOptions

    Raises
    ------
    ConfigError
        For static or unknown layers, an unknown pooling, a context vector that does not parse, or ``portable``
        with bf16 or a GPU.
    """
    if parse_layers(options.layers).is_static:
        raise ConfigError("tune option layers: 'static' has no context to train; choose contextual layers")
    if options.portable and options.precision == "bf16":
        raise ConfigError(
            "tune option portable trains in fp32 (bf16 rounds differently on each CPU): drop --precision bf16"
        )
    if options.portable and options.device == "cuda":
        raise ConfigError("tune option portable trains on the CPU (a GPU's arithmetic is its own): drop --device cuda")
    context = parse_context(options.context_vector)
    return options.replace(
        pooling=check_pooling(options.pooling), context_vector=context.name if context is not None else None
    )


def with_later_defaults(config: Any) -> Any:
    """A stored training configuration with the options added since it was written set to their defaults.

    A folder or checkpoint written before an option existed (``freeze_layers``, ``context_vector``) trained as
    that option's default does, so it is the same configuration as a run that leaves the option unset.

    Parameters
    ----------
    config : object
        The ``config`` a model folder's ``wsd_tune.json`` or a checkpoint holds (anything else is returned as
        it is).

    Returns
    -------
    object

    Examples
    --------
    >>> with_later_defaults({"options": {"lr": 1e-4}})["options"]["freeze_layers"]
    0
    """
    if not isinstance(config, Mapping) or not isinstance(config.get("options"), Mapping):
        return config
    return {**config, "options": TuneOptions().weight_settings() | dict(config["options"])}
