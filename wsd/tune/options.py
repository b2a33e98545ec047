"""The options of training an encoder (:func:`wsd.tune.tune_encoder`): one typed field each, with default and help.

Each option is declared once, in :mod:`wsd.schema` (``tune.<field>``; ``progress`` is ``cli.progress``): its
default, its choices (a ``Literal`` of the schema) and its help (``metadata["help"]``) come from there, so the
command line (``wsd tune``), the ``[tune]`` section of ``--config`` and this dataclass cannot disagree
(tests/test_option_schema.py checks it). The checks below (ranges, types) are the library's.

>>> TuneOptions(epochs=2, loss="cosent").epochs
2
>>> TuneOptions(loss="triplet")
Traceback (most recent call last):
...
wsd.errors.ConfigError: tune option loss: 'triplet' is not one of cosent, contrastive, auto
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from wsd.embed.context import parse_context
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import check_pooling
from wsd.errors import ConfigError
from wsd.schema import TUNE_OPTIONS, Pooling, TuneDevice, TuneLoss, TunePrecision, TuneTeacherLabels

#: Options that change how a run looks, not what it computes (left out when a resumed run's settings are compared).
PRESENTATION_OPTIONS = ("progress",)


#: ``name -> Option`` of the ``[tune]`` options (:data:`wsd.schema.TUNE_OPTIONS`).
_DECLARED = {option.name: option for option in TUNE_OPTIONS}


def _default(name: str) -> Any:
    """The default of the schema's option ``tune.<name>`` (or ``name`` when dotted); a list as a tuple (frozen)."""
    declared = _DECLARED[name if "." in name else f"tune.{name}"]
    return tuple(declared.default) if declared.kind == "str_list" else declared.default


def _about(name: str) -> dict[str, str]:
    """The ``metadata`` of a field: help and name of the schema's option ``tune.<name>`` (or ``name`` when dotted)."""
    declared = _DECLARED[name if "." in name else f"tune.{name}"]
    return {"help": declared.help, "option": declared.name}


@dataclass(frozen=True)
class TuneOptions:
    """How an encoder is trained to tell senses apart (each field's ``metadata["help"]`` says what it does).

    Parameters
    ----------
    model : str or None
        The base encoder: ``None`` for the bundled all-MiniLM-L6-v2, a model folder or a Hub name.
    teacher : str or None
        Label every training pair with this encoder's cosine of its two uses (graded) instead of the
        source's label: distillation (:mod:`wsd.tune.teacher`); ``None``: the sources' labels.
    teacher_labels : {"all", "unlabelled"}
        Which training pairs the ``teacher`` labels: ``all`` (the sources' labels are not read) or
        ``unlabelled`` (only the pairs of ``uses:FILE`` sources; labelled sources keep their human labels).
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
    freeze_layers : int
        Keep the input embeddings and the lowest this many transformer layers fixed (0: every weight trains);
        what the base model knows there cannot be forgotten, and the backward pass stops below them.
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
    pooling : {"mean", "first", "last", "first-last", "sum", "max"}
        Subword pooling (as the encoder's ``pooling``; ``first_last`` is read as ``first-last``); training uses
        the same.
    window_tokens : int or None
        At most this many subword tokens either side of the target (as the encoder's ``window_tokens``).
    markers : bool
        Put target markers (:data:`wsd.tune.forward.TARGET_MARKERS`) around the target in every text.
    context_vector : str or None
        Train ``[target/‖target‖, weight·context/‖context‖]``, the vector inference makes with this
        ``--context-vector`` (:mod:`wsd.embed.context`), instead of the target vector alone (``None``).
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

    model: str | None = field(default=_default("model"), metadata=_about("model"))
    teacher: str | None = field(default=_default("teacher"), metadata=_about("teacher"))
    teacher_labels: TuneTeacherLabels = field(default=_default("teacher_labels"), metadata=_about("teacher_labels"))
    loss: TuneLoss = field(default=_default("loss"), metadata=_about("loss"))
    epochs: int = field(default=_default("epochs"), metadata=_about("epochs"))
    max_steps: int | None = field(default=_default("max_steps"), metadata=_about("max_steps"))
    lr: float = field(default=_default("lr"), metadata=_about("lr"))
    warmup_fraction: float = field(default=_default("warmup_fraction"), metadata=_about("warmup_fraction"))
    weight_decay: float = field(default=_default("weight_decay"), metadata=_about("weight_decay"))
    freeze_layers: int = field(default=_default("freeze_layers"), metadata=_about("freeze_layers"))
    batch_uses: int = field(default=_default("batch_uses"), metadata=_about("batch_uses"))
    scale: float = field(default=_default("scale"), metadata=_about("scale"))
    margin: float = field(default=_default("margin"), metadata=_about("margin"))
    seed: int = field(default=_default("seed"), metadata=_about("seed"))
    layers: str = field(default=_default("layers"), metadata=_about("layers"))
    pooling: Pooling = field(default=_default("pooling"), metadata=_about("pooling"))
    window_tokens: int | None = field(default=_default("window_tokens"), metadata=_about("window_tokens"))
    markers: bool = field(default=_default("markers"), metadata=_about("markers"))
    context_vector: str | None = field(default=_default("context_vector"), metadata=_about("context_vector"))
    device: TuneDevice = field(default=_default("device"), metadata=_about("device"))
    precision: TunePrecision = field(default=_default("precision"), metadata=_about("precision"))
    validation_fraction: float = field(default=_default("validation_fraction"), metadata=_about("validation_fraction"))
    validation_lemmas: tuple[str, ...] = field(
        default=_default("validation_lemmas"), metadata=_about("validation_lemmas")
    )
    validation_max_pairs: int = field(default=_default("validation_max_pairs"), metadata=_about("validation_max_pairs"))
    eval_steps: int | None = field(default=_default("eval_steps"), metadata=_about("eval_steps"))
    patience: int | None = field(default=_default("patience"), metadata=_about("patience"))
    checkpoint_steps: int = field(default=_default("checkpoint_steps"), metadata=_about("checkpoint_steps"))
    progress: bool = field(default=_default("cli.progress"), metadata=_about("cli.progress"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "validation_lemmas", tuple(str(x) for x in self.validation_lemmas))
        if isinstance(self.pooling, str):  # first_last (and any case) is read as first-last before the type check
            object.__setattr__(self, "pooling", check_pooling(self.pooling))
        hints = typing.get_type_hints(type(self))
        for item in dataclasses.fields(self):
            _check_type(item.name, getattr(self, item.name), hints[item.name])
        if self.batch_uses < 2:
            raise ConfigError(f"tune option batch_uses: a pair needs 2 uses, not {self.batch_uses}")
        for item in dataclasses.fields(self):
            declared = _DECLARED[item.metadata["option"]]
            value, minimum, maximum = getattr(self, item.name), declared.minimum, declared.maximum
            if minimum is not None and value is not None and value < minimum:
                raise ConfigError(f"tune option {item.name}: must be at least {minimum}, not {value}")
            if maximum is not None and value is not None and value > maximum:
                raise ConfigError(f"tune option {item.name}: must be at most {maximum}, not {value}")
        for name in ("lr", "scale", "margin"):  # NaN and infinity would train a model of NaN
            if not (getattr(self, name) > 0 and math.isfinite(getattr(self, name))):
                raise ConfigError(f"tune option {name}: must be above 0 and finite, not {getattr(self, name)}")
        for name in ("warmup_fraction", "weight_decay"):
            if not 0 <= getattr(self, name) < 1:
                raise ConfigError(f"tune option {name}: must be in [0, 1), not {getattr(self, name)}")
        if self.teacher_labels != "all" and self.teacher is None:
            raise ConfigError(
                f"tune option teacher_labels {self.teacher_labels!r}: it needs a teacher (--teacher MODEL)"
            )
        if not 0 <= self.validation_fraction < 1:
            raise ConfigError(f"tune option validation_fraction: must be in [0, 1), not {self.validation_fraction}")
        spec = parse_layers(self.layers)
        if spec.is_static:
            raise ConfigError("tune option layers: 'static' has no context to train; choose contextual layers")
        context = parse_context(self.context_vector)
        object.__setattr__(self, "context_vector", context.name if context is not None else None)

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], **changes: Any) -> TuneOptions:
        """The options of a resolved ``[tune]`` section (:func:`wsd.config.resolve_config`); other keys are ignored.

        Parameters
        ----------
        settings : mapping
            ``key -> value``; the sources (``train``, ``exclude``, ``exclude_lemmas``) are not options.
        **changes
            Options that win over ``settings`` (``progress=False``).

        Returns
        -------
        TuneOptions

        Examples
        --------
        >>> TuneOptions.from_settings({"epochs": 3, "train": ["wug:x"]}, progress=False).epochs
        3
        """
        names = {item.name for item in dataclasses.fields(cls)}
        return cls(**{key: value for key, value in settings.items() if key in names} | changes)

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (tuples as lists).

        Returns
        -------
        dict
        """
        return {
            key: list(value) if isinstance(value, tuple) else value for key, value in dataclasses.asdict(self).items()
        }

    def weight_settings(self) -> dict[str, Any]:
        """The options that decide the weights (:meth:`to_dict` without :data:`PRESENTATION_OPTIONS`): what a model
        folder and a checkpoint record, and what a resumed run is compared on.

        Returns
        -------
        dict

        Examples
        --------
        >>> "progress" in TuneOptions().weight_settings()
        False
        """
        return {key: value for key, value in self.to_dict().items() if key not in PRESENTATION_OPTIONS}

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
