"""User-facing errors: bad input that the CLI reports as one line and exit code 2."""

from __future__ import annotations


class WsdError(Exception):
    """Base class for problems the user can fix (bad input, missing file, unknown model, bad option).

    The message must say *what* is wrong and *where* (file, line, option). The CLI prints
    ``wsd: error: <message>`` and exits with code 2; the Python API simply raises it.
    """


class InputError(WsdError, ValueError):
    """Malformed or missing input data: corpus, key file, dataset, run directory."""


class ModelError(WsdError):
    """An encoder that cannot be loaded or used (not found locally, no offsets, wrong identity)."""


class ConfigError(WsdError, ValueError):
    """An option value that is not allowed (unknown layer spec, pooling, method, ...)."""


class UnreadableTargetsWarning(UserWarning):
    """The encoder's vocabulary cannot read some target words (mostly [UNK] or single letters): their senses are
    noise; a model that knows their script reads them (:mod:`wsd.embed.coverage`)."""
