"""The options of training an encoder (:func:`wsd.tune.tune_encoder`): one typed field each, with default and help.

Each field carries its help text in ``metadata["help"]``; a choice is a ``Literal``. The command line's option
schema reads these fields (name, type, default, help), so this dataclass is the one declaration of them.

>>> TuneOptions(epochs=2, loss="cosent").epochs
2
>>> TuneOptions(loss="triplet")
Traceback (most recent call last):
...
wsd.errors.ConfigError: tune option loss: 'triplet' is not one of cosent, contrastive, auto
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

from wsd.embed.encoder import DEFAULT_LAYERS, DEFAULT_POOLING
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import check_pooling
from wsd.errors import ConfigError

Loss = Literal["cosent", "contrastive", "auto"]
Device = Literal["auto", "cpu", "cuda"]
Precision = Literal["auto", "fp32", "bf16"]

#: Options that change how a run looks, not what it computes (left out when a resumed run's settings are compared).
PRESENTATION_OPTIONS = ("progress",)


def _help(text: str) -> dict[str, str]:
    return {"help": text}


@dataclass(frozen=True)
class TuneOptions:
    """How an encoder is trained to tell senses apart (each field's ``metadata["help"]`` says what it does).

    Parameters
    ----------
    model : str or None
        The base encoder: ``None`` for the bundled all-MiniLM-L6-v2, a model folder or a Hub name.
    loss : {"cosent", "contrastive", "auto"}
        ``cosent`` (a ranking loss) for every batch, ``contrastive`` (margin on the cosine distance) for
        every batch, or ``auto``: CoSENT for graded labels, contrastive for binary ones.
    epochs : int
        Passes over the training pairs.
    max_steps : int or None
        Stop after this many optimisation steps (``None``: ``epochs`` decide).
    lr : float
        Peak learning rate of AdamW (linear warm-up, then linear decay to 0).
    warmup_fraction : float
        Share of the steps spent warming the learning rate up.
    weight_decay : float
        AdamW's weight decay.
    batch_uses : int
        Uses encoded per step (each once); every labelled pair among them is scored.
    scale : float
        CoSENT's scale (the inverse temperature of the cosine differences).
    margin : float
        The contrastive loss's margin on the cosine distance of different-sense pairs.
    seed : int
        Seeds the lemma split, the batches, dropout and the weights' updates.
    layers : str
        Which hidden layers make a word vector (as the encoder's ``layers``); training uses the same.
    pooling : str
        Subword pooling (as the encoder's ``pooling``); training uses the same.
    window_tokens : int or None
        At most this many subword tokens either side of the target (as the encoder's ``window_tokens``).
    markers : bool
        Put target markers (:data:`wsd.tune.forward.TARGET_MARKERS`) around the target in every text.
    device : {"auto", "cpu", "cuda"}
        Where to train (``auto``: CUDA when present).
    precision : {"auto", "fp32", "bf16"}
        ``auto``: bf16 autocast where the CPU (or GPU) computes bf16 natively, else fp32.
    validation_fraction : float
        Share of the lemmas held out for validation (a seeded split), 0 for none.
    validation_lemmas : tuple of str
        Hold out exactly these lemmas instead (any spelling; overrides ``validation_fraction``).
    validation_max_pairs : int
        At most this many validation pairs (a seeded sample).
    eval_steps : int or None
        Validate every this many steps as well as after each epoch (``None``: after each epoch only).
    patience : int or None
        Stop after this many validations without improvement (``None``: never stop early).
    checkpoint_steps : int
        Write a checkpoint (``OUT/checkpoint``) every this many steps.
    progress : bool
        Show a progress bar with the running loss.
    """

    model: str | None = field(
        default=None, metadata=_help("base encoder: a model folder or Hub name (default: the bundled MiniLM)")
    )
    loss: Loss = field(
        default="auto",
        metadata=_help("cosent, contrastive, or auto (cosent for graded, contrastive for binary labels)"),
    )
    epochs: int = field(default=1, metadata=_help("passes over the training pairs"))
    max_steps: int | None = field(
        default=None, metadata=_help("stop after this many steps (default: the epochs decide)")
    )
    lr: float = field(default=2e-5, metadata=_help("peak learning rate (AdamW, linear warm-up and decay)"))
    warmup_fraction: float = field(default=0.1, metadata=_help("share of the steps spent warming the learning rate up"))
    weight_decay: float = field(default=0.01, metadata=_help("AdamW weight decay"))
    batch_uses: int = field(
        default=24, metadata=_help("uses encoded per step; every labelled pair among them is scored")
    )
    scale: float = field(default=20.0, metadata=_help("CoSENT scale (inverse temperature)"))
    margin: float = field(default=0.5, metadata=_help("contrastive margin on the cosine distance"))
    seed: int = field(default=0, metadata=_help("seed of the lemma split, batches, dropout"))
    layers: str = field(default=DEFAULT_LAYERS, metadata=_help("hidden layers of a word vector, as at inference"))
    pooling: str = field(default=DEFAULT_POOLING, metadata=_help("subword pooling, as at inference"))
    window_tokens: int | None = field(
        default=None, metadata=_help("at most this many tokens either side of the target")
    )
    markers: bool = field(default=False, metadata=_help("put target markers around the target"))
    device: Device = field(default="auto", metadata=_help("auto, cpu or cuda"))
    precision: Precision = field(default="auto", metadata=_help("auto (bf16 where native), fp32 or bf16"))
    validation_fraction: float = field(default=0.1, metadata=_help("share of lemmas held out for validation (0: none)"))
    validation_lemmas: tuple[str, ...] = field(default=(), metadata=_help("hold out these lemmas instead"))
    validation_max_pairs: int = field(
        default=2000, metadata=_help("at most this many validation pairs (seeded sample)")
    )
    eval_steps: int | None = field(default=None, metadata=_help("also validate every this many steps"))
    patience: int | None = field(default=None, metadata=_help("stop after this many validations without improvement"))
    checkpoint_steps: int = field(default=100, metadata=_help("write a checkpoint every this many steps"))
    progress: bool = field(default=True, metadata=_help("show a progress bar with the running loss"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "validation_lemmas", tuple(str(x) for x in self.validation_lemmas))
        hints = typing.get_type_hints(type(self))
        for item in dataclasses.fields(self):
            _check_type(item.name, getattr(self, item.name), hints[item.name])
        positive = ("epochs", "batch_uses", "checkpoint_steps", "validation_max_pairs")
        for name in (*positive, "max_steps", "eval_steps", "patience"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ConfigError(f"tune option {name}: must be at least 1, not {value}")
        if self.batch_uses < 2:
            raise ConfigError(f"tune option batch_uses: a pair needs 2 uses, not {self.batch_uses}")
        for name in ("lr", "scale", "margin"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"tune option {name}: must be above 0, not {getattr(self, name)}")
        for name in ("warmup_fraction", "weight_decay"):
            if not 0 <= getattr(self, name) < 1:
                raise ConfigError(f"tune option {name}: must be in [0, 1), not {getattr(self, name)}")
        if not 0 <= self.validation_fraction < 1:
            raise ConfigError(f"tune option validation_fraction: must be in [0, 1), not {self.validation_fraction}")
        if self.window_tokens is not None and self.window_tokens < 0:
            raise ConfigError(f"tune option window_tokens: must be at least 0, not {self.window_tokens}")
        spec = parse_layers(self.layers)
        if spec.is_static:
            raise ConfigError("tune option layers: 'static' has no context to train; choose contextual layers")
        object.__setattr__(self, "pooling", check_pooling(self.pooling))

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (tuples as lists).

        Returns
        -------
        dict
        """
        return {
            key: list(value) if isinstance(value, tuple) else value for key, value in dataclasses.asdict(self).items()
        }

    def replace(self, **changes: Any) -> TuneOptions:
        """A copy with some options changed (checked again).

        Parameters
        ----------
        **changes
            Option names and values.

        Returns
        -------
        TuneOptions
        """
        unknown = sorted(set(changes) - {item.name for item in dataclasses.fields(self)})
        if unknown:
            raise ConfigError(f"unknown tune option(s): {', '.join(unknown)}")
        return dataclasses.replace(self, **changes)


def option_help() -> dict[str, str]:
    """Each option's help text, by name (what an option schema reads).

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> option_help()["lr"]
    'peak learning rate (AdamW, linear warm-up and decay)'
    """
    return {item.name: item.metadata["help"] for item in dataclasses.fields(TuneOptions)}


def _check_type(name: str, value: Any, hint: Any) -> None:
    """Raise a ConfigError when ``value`` does not fit the field's type (Literal choices, Optional, numbers)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        if value not in args:
            raise ConfigError(f"tune option {name}: {value!r} is not one of {', '.join(map(str, args))}")
        return
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return
        (hint,) = [arg for arg in args if arg is not type(None)]
        origin = typing.get_origin(hint)
    if origin is tuple:
        return
    expected = {float: (int, float), int: (int,), bool: (bool,), str: (str,)}.get(hint, (object,))
    if (isinstance(value, bool) and hint is not bool) or not isinstance(value, expected):
        raise ConfigError(f"tune option {name}: {value!r} is not a {getattr(hint, '__name__', hint)}")
