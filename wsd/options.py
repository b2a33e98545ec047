"""The typed option objects of the Python API: one frozen dataclass per group of settings.

:func:`wsd.embed_corpus`, :func:`wsd.workflows.pipeline.induce_corpus`, :class:`wsd.Encoder` (``Encoder.from_options``)
and :func:`wsd.workflows.benchmark.evaluate` take these instead of dozens of keyword arguments::

    ScanSettings        which occurrences a scan finds ([scan])
    EmbeddingOptions    how occurrences become vectors ([embedding])
    SenseOptions        how senses are induced ([senses])
    ChangeOptions       comparing slices ([change])
    ExecutionOptions    where the work runs and how a run is stored ([execution], output.chunk_size, ...)

Every field's default is the one declared in :mod:`wsd.schema` (read from it, never written again here), and a
choice is typed with the schema's ``Literal``. Each class has ``from_config(config)`` (a resolved configuration,
:func:`wsd.config.resolve_config`) and ``replace(**changes)``. Off is ``None`` (a configuration writes ``"none"``;
:func:`wsd.schema.is_off` reads every spelling of it); the context vector keeps ``"none"`` apart from None, because
there None may mean "the recipe's" (see :class:`EmbeddingOptions`).

:func:`route_settings` is how a function that takes option objects keeps taking the old keyword arguments: each
keyword goes to the object whose class has a field of that name.

>>> EmbeddingOptions(layers="last").replace(pooling="first").pooling
'first'
>>> ScanSettings(lemmatizer="off").lemmatizer is None
True
>>> EmbeddingOptions(context_vector="off").context_vector
'none'

This module imports nothing of wsd but :mod:`wsd.schema` (and nothing heavy).
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from wsd.schema import (
    OPTIONS,
    BaselineMethod,
    ClusteringMethod,
    ContextKind,
    Lemmatizer,
    Measure,
    Noise,
    Pooling,
    Precision,
    ProperNames,
    RankBy,
    Recipe,
    Runtime,
    Selection,
    VectorDtype,
    off_to_none,
    off_to_word,
)

_T = TypeVar("_T", bound="_Options")

#: The ``[senses]`` settings that are not :class:`~wsd.senses.SenseInducer` parameters.
NOT_INDUCER = ("recipe", "seed")


def _default(name: str) -> Any:
    """The declared default of an option (:data:`wsd.schema.OPTIONS`), as the Python API spells it."""
    default = OPTIONS[name].default
    if OPTIONS[name].off:
        return off_to_none(default)
    if isinstance(default, list):
        return tuple(default)
    return default


#: ``name -> default`` of every option, as the Python API spells it (the field defaults below read it).
_DEFAULTS: dict[str, Any] = {name: _default(name) for name in OPTIONS}


def _closest(name: str, candidates: list[str]) -> str:
    found = difflib.get_close_matches(name, candidates, n=1, cutoff=0.0)
    return found[0] if found else ""


def _unknown(where: str, name: str, candidates: list[str]) -> TypeError:
    closest = _closest(name, candidates)
    hint = f"; did you mean {closest!r}?" if closest else ""
    return TypeError(f"{where} got an unexpected keyword argument {name!r}{hint}")


class _Options:
    """What every option object can do (a mixin of the frozen dataclasses below)."""

    def replace(self: _T, **changes: Any) -> _T:
        """A copy with some fields changed.

        Parameters
        ----------
        **changes
            New values by field name.

        Returns
        -------
        The same class.

        Raises
        ------
        TypeError
            For a name that is not a field; the message names the closest field.
        """
        names = [f.name for f in fields(self)]  # type: ignore[arg-type]
        for name in changes:
            if name not in names:
                raise _unknown(f"{type(self).__name__}.replace()", name, names)
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dictionary (tuples as lists, ready for JSON).

        Returns
        -------
        dict
        """
        return {
            f.name: list(value) if isinstance(value := getattr(self, f.name), tuple) else value
            for f in fields(self)  # type: ignore[arg-type]
        }

    #: The configuration section the fields come from.
    _SECTION: ClassVar[str] = ""

    @classmethod
    def from_config(cls: type[_T], config: Mapping[str, Any]) -> _T:
        """The settings of the object's section of a resolved configuration.

        Parameters
        ----------
        config : mapping
            ``section -> key -> value`` (:func:`wsd.config.resolve_config`).

        Returns
        -------
        The same class.
        """
        table = config.get(cls._SECTION, {})
        return cls._from_section(table, **cls._section_extra(table))

    @classmethod
    def _section_extra(cls, table: Mapping[str, Any]) -> dict[str, Any]:
        """Fields read from the section otherwise than as they are (none by default)."""
        return {}

    @classmethod
    def _from_section(cls: type[_T], table: Mapping[str, Any], **extra: Any) -> _T:
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        values = {key: value for key, value in table.items() if key in names}
        return cls(**(values | extra))


@dataclass(frozen=True)
class ScanSettings(_Options):
    """Which occurrences a scan finds and which context each gets (``[scan]`` but the corpus and targets).

    The targets are not part of it: :func:`wsd.corpus.scan.build_scan_options` joins them with these settings
    into the :class:`~wsd.corpus.scan.ScanOptions` a run records.

    Parameters
    ----------
    forms : path, optional
        A forms file (lines ``target<TAB>form1,form2``).
    lemmatizer : {"simplemma"} or None
        Also match words whose lemma is a target; None (off): the listed forms only. ``"none"`` (and the older
        ``"off"``, ``"no"``, ``""``) are read as None.
    case_sensitive : bool
        Match case exactly.
    context : {"sentence", "window"}
        The passage an occurrence gets.
    context_chars : int
        Characters either side for ``window`` (and the cap for long sentences).
    text_field : str
        The field or column holding the text.
    meta : tuple of str or str
        Fields or columns kept beside the text as metadata columns (``"year,source"`` or ``("year", "source")``).
    slice_from_path : str, optional
        A regex whose groups, searched in each file's relative path, become metadata columns.
    proper : {"warn", "keep", "drop"}
        Likely proper names a lemmatizer maps onto a target (:mod:`wsd.corpus.proper`): keep them and warn, keep
        them, or drop them.

    Examples
    --------
    >>> ScanSettings(context="window", context_chars=200).context_chars
    200
    """

    _SECTION = "scan"

    forms: str | os.PathLike[str] | None = _DEFAULTS["scan.forms"]
    lemmatizer: Lemmatizer | None = _DEFAULTS["scan.lemmatizer"]
    case_sensitive: bool = _DEFAULTS["scan.case_sensitive"]
    context: ContextKind = _DEFAULTS["scan.context"]
    context_chars: int = _DEFAULTS["scan.context_chars"]
    text_field: str = _DEFAULTS["scan.text_field"]
    meta: tuple[str, ...] | str = _DEFAULTS["scan.meta"]
    slice_from_path: str | None = _DEFAULTS["scan.slice_from_path"]
    proper: ProperNames = _DEFAULTS["scan.proper"]

    def __post_init__(self) -> None:
        object.__setattr__(self, "lemmatizer", off_to_none(self.lemmatizer))
        if self.meta is None:
            object.__setattr__(self, "meta", ())
        elif not isinstance(self.meta, str | tuple):
            object.__setattr__(self, "meta", tuple(self.meta))

    def scan_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :func:`wsd.scan` and :func:`wsd.corpus.scan.build_scan_options` (without forms).

        Returns
        -------
        dict
        """
        data = self.to_dict()
        data.pop("forms")
        data["meta"] = self.meta  # a tuple, as ScanOptions has it (or the "a,b" string)
        return data

    @classmethod
    def _section_extra(cls, table: Mapping[str, Any]) -> dict[str, Any]:
        """``meta`` as a tuple."""
        return {"meta": tuple(table.get("meta") or ())}


@dataclass(frozen=True)
class EmbeddingOptions(_Options):
    """How occurrences become vectors: the options of :class:`wsd.Encoder` (``[embedding]``).

    Parameters
    ----------
    model : str, optional
        A local model folder or a Hugging Face Hub name; None: the bundled all-MiniLM-L6-v2.
    layers : str
        Layer combination (``sum-last-4``, ``last``, ``-4,-3,-2,-1``, ...; :mod:`wsd.embed.layers`).
    pooling : {"mean", "first", "last", "first-last", "sum", "max"}
        Subword pooling.
    precision : {"auto", "fp32", "bf16", "fp16", "int8"}
        Compute precision.
    runtime : {"auto", "torch", "openvino"}
        The forward pass's runtime.
    device : str, optional
        ``cpu``, ``cuda``, ``cuda:N``; None or ``auto``: CUDA when present.
    batch_size, max_length, window_tokens : int, optional
        Windows per forward pass, the longest window, subword tokens either side (None: the encoder's choice).
    context_vector : str, optional
        ``TOKENS[:LAYERS[:WEIGHT]]`` appended to each word vector (:mod:`wsd.embed.context`), or ``"none"``:
        off (the older ``"off"``, ``"no"``, ``""`` are read as ``"none"``). None means "not given": for
        :func:`wsd.embed_corpus` (as ``wsd embed``) the default recipe's, ``20:last:0.5``
        (:data:`wsd.schema.DEFAULT_CONTEXT_VECTOR`); where a recipe supplies a context vector
        (:func:`wsd.workflows.pipeline.induce_corpus`, :func:`wsd.config.build_evaluation_config`) the recipe's;
        ``"none"`` turns it off, as in a configuration file.
    offline : bool
        Never touch the network; False: as Hugging Face is configured (``HF_HUB_OFFLINE``). How the model is
        fetched, not what it computes: left out of :meth:`encoder_kwargs` and of what an evaluation records.

    Examples
    --------
    >>> EmbeddingOptions(context_vector="20:last:0.5").encoder_kwargs()["context_vector"]
    '20:last:0.5'
    """

    _SECTION = "embedding"

    model: str | None = _DEFAULTS["embedding.model"]
    layers: str = _DEFAULTS["embedding.layers"]
    pooling: Pooling = _DEFAULTS["embedding.pooling"]
    precision: Precision = _DEFAULTS["embedding.precision"]
    runtime: Runtime = _DEFAULTS["embedding.runtime"]
    device: str | None = _DEFAULTS["embedding.device"]
    batch_size: int | None = _DEFAULTS["embedding.batch_size"]
    max_length: int | None = _DEFAULTS["embedding.max_length"]
    window_tokens: int | None = _DEFAULTS["embedding.window_tokens"]
    context_vector: str | None = _DEFAULTS["embedding.context_vector"]
    offline: bool = _DEFAULTS["embedding.offline"]

    def __post_init__(self) -> None:
        object.__setattr__(self, "context_vector", off_to_word(self.context_vector))

    def encoder_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :class:`wsd.Encoder`: what the encoder computes (``offline`` left out).

        Returns
        -------
        dict
        """
        data = self.to_dict()
        data.pop("offline")
        return data

    @classmethod
    def _section_extra(cls, table: Mapping[str, Any]) -> dict[str, Any]:
        """``offline`` as a bool."""
        return {"offline": bool(table.get("offline"))}


@dataclass(frozen=True)
class SenseOptions(_Options):
    """How senses are induced (``[senses]`` but the run): a recipe, a seed and the inducer's parameters.

    Unset parameters (None) come from the recipe (:mod:`wsd.senses.recipes`), else the inducer's defaults.

    Parameters
    ----------
    recipe : {"default", "textbook"}
        The named parameter set unset parameters come from.
    seed : int
        Random state of every random choice.
    method, k, selection, k_range, one_sense_below, k_tie_margin, min_split_uses, center, center_forms, normalize,
    pca, whiten, min_cluster_size, noise, temperature, distance, n_init, covariance_type, n_neighbors,
    hdbscan_min_cluster_size, hdbscan_min_samples, max_fit_samples
        Parameters of :class:`~wsd.senses.SenseInducer`.

    Examples
    --------
    >>> SenseOptions(method="kmeans", k=3).params()["k"]
    3
    """

    _SECTION = "senses"

    recipe: Recipe = _DEFAULTS["senses.recipe"]
    seed: int = _DEFAULTS["senses.seed"]
    method: ClusteringMethod | BaselineMethod | None = _DEFAULTS["senses.method"]
    k: int | str | None = _DEFAULTS["senses.k"]
    selection: Selection | None = _DEFAULTS["senses.selection"]
    k_range: tuple[int, int] | None = _DEFAULTS["senses.k_range"]
    one_sense_below: float | None = _DEFAULTS["senses.one_sense_below"]
    k_tie_margin: float | None = _DEFAULTS["senses.k_tie_margin"]
    min_split_uses: int | None = _DEFAULTS["senses.min_split_uses"]
    center: bool | None = _DEFAULTS["senses.center"]
    center_forms: float | None = _DEFAULTS["senses.center_forms"]
    normalize: bool | None = _DEFAULTS["senses.normalize"]
    pca: int | None = _DEFAULTS["senses.pca"]
    whiten: bool | None = _DEFAULTS["senses.whiten"]
    min_cluster_size: int | None = _DEFAULTS["senses.min_cluster_size"]
    noise: Noise | None = _DEFAULTS["senses.noise"]
    temperature: float | str | None = _DEFAULTS["senses.temperature"]
    distance: str | None = _DEFAULTS["senses.distance"]
    n_init: int | None = _DEFAULTS["senses.n_init"]
    covariance_type: str | None = _DEFAULTS["senses.covariance_type"]
    n_neighbors: int | None = _DEFAULTS["senses.n_neighbors"]
    hdbscan_min_cluster_size: int | None = _DEFAULTS["senses.hdbscan_min_cluster_size"]
    hdbscan_min_samples: int | None = _DEFAULTS["senses.hdbscan_min_samples"]
    max_fit_samples: int | None = _DEFAULTS["senses.max_fit_samples"]

    def __post_init__(self) -> None:
        if self.k_range is not None:
            object.__setattr__(self, "k_range", tuple(self.k_range))

    def params(self, given_only: bool = False) -> dict[str, Any]:
        """The :class:`~wsd.senses.SenseInducer` parameters (without ``random_state``).

        Parameters
        ----------
        given_only : bool
            Leave out the unset ones (None).

        Returns
        -------
        dict
        """
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in NOT_INDUCER and not (given_only and getattr(self, f.name) is None)
        }


@dataclass(frozen=True)
class ChangeOptions(_Options):
    """Comparing the senses between slices of a metadata column (``[change]`` but the run and senses folders).

    Parameters
    ----------
    by : str, optional
        The metadata column the slices come from (``COLUMN:year`` or ``:decade`` for dates).
    bins : str, optional
        Bins of numeric values, ``LOW:HIGH,...``.
    bin_width : int, optional
        Slices of this many values.
    between : tuple of str, optional
        Compare only these two slices.
    measure : {"jsd", "apd", "prt"}
        The change score to rank by.
    binary_k, binary_n : int, optional
        The binary change rule.
    min_uses : int
        Fewest uses per slice.
    rank_by : {"lower", "shrunk", "score"}
        Rank by the score shrunk toward the mean by its uncertainty, the lower end of its bootstrap interval, or
        the point score.

    Examples
    --------
    >>> ChangeOptions(by="year").kwargs()["measure"]
    'prt'
    """

    _SECTION = "change"

    by: str | None = _DEFAULTS["change.by"]
    bins: str | None = _DEFAULTS["change.bins"]
    bin_width: int | None = _DEFAULTS["change.bin_width"]
    between: tuple[str, ...] | str | None = _DEFAULTS["change.between"]
    measure: Measure = _DEFAULTS["change.measure"]
    binary_k: int | None = _DEFAULTS["change.binary_k"]
    binary_n: int | None = _DEFAULTS["change.binary_n"]
    min_uses: int = _DEFAULTS["change.min_uses"]
    rank_by: RankBy = _DEFAULTS["change.rank_by"]

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :func:`wsd.change.stage.change_run`.

        Returns
        -------
        dict
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class ExecutionOptions(_Options):
    """Where the work runs and how a run is stored: none of it changes the vectors.

    Parameters
    ----------
    executor : Executor or {"serial", "processes", "dask"}, optional
        What runs the shards (:func:`wsd.executors.make_executor`): by default this process, or Dask when
        ``scheduler`` or ``workers`` is given.
    scheduler : str or Client, optional
        A Dask scheduler address (or client).
    workers : int, optional
        Local worker processes.
    threads_per_worker : int
        Threads of each local worker.
    retries : int, optional
        How many times a failed shard is retried (Dask; None: :data:`wsd.executors.DEFAULT_RETRIES`).
    shard_bytes : int, optional
        Corpus bytes per shard, the unit of work (None: :data:`wsd.schema.DEFAULT_SHARD_BYTES`).
    chunk_size : int
        Occurrences per stored part, the unit of resumption.
    consolidate : bool, optional
        Join the parts into one file each at the end (None: yes unless the shards ran on Dask).
    vector_dtype : {"float16", "float32"}
        Storage type of the vectors.

    Examples
    --------
    >>> ExecutionOptions(workers=2).threads_per_worker
    1
    """

    _SECTION = "execution"

    executor: Any = None
    scheduler: Any = _DEFAULTS["execution.scheduler"]
    workers: int | None = _DEFAULTS["execution.workers"]
    threads_per_worker: int = _DEFAULTS["execution.threads_per_worker"]
    retries: int | None = None
    shard_bytes: int | None = _DEFAULTS["execution.shard_bytes"]
    chunk_size: int = _DEFAULTS["output.chunk_size"]
    consolidate: bool | None = None
    vector_dtype: VectorDtype = _DEFAULTS["output.vector_dtype"]

    @classmethod
    def from_config(cls, config: Mapping[str, Any], executor: Any = None) -> ExecutionOptions:
        """The ``[execution]`` settings and the storage settings of ``[output]`` of a resolved configuration.

        Parameters
        ----------
        config : mapping
            ``section -> key -> value`` (:func:`wsd.config.resolve_config`).
        executor : Executor, optional
            An executor already made from the scheduler and workers (they are then left out).

        Returns
        -------
        ExecutionOptions
        """
        output = config.get("output", {})
        storage = {key: output[key] for key in ("chunk_size", "vector_dtype") if output.get(key) is not None}
        options = cls._from_section(config.get("execution", {}), **storage)
        if executor is not None:
            options = options.replace(executor=executor, scheduler=None, workers=None)
        return options


def route_settings(
    where: str, settings: Mapping[str, Any], groups: Mapping[str, tuple[type[Any], Any]]
) -> tuple[dict[str, Any], set[str]]:
    """Send keyword arguments to the option objects whose classes have fields of their names.

    This is how :func:`wsd.embed_corpus` and :func:`wsd.workflows.pipeline.induce_corpus` keep taking every keyword they
    took before they took option objects: ``layers="last"`` lands in the :class:`EmbeddingOptions`. A keyword
    given as None counts as not given. A keyword is applied on top of an option object given too.

    Parameters
    ----------
    where : str
        The function, for the error (``"embed_corpus()"``).
    settings : mapping
        The keyword arguments.
    groups : mapping
        ``name -> (class, object or None)``: the option objects the function takes.

    Returns
    -------
    (dict, set)
        ``name -> object`` for every group (a default object where none was given), and the fields set by
        keywords.

    Raises
    ------
    TypeError
        For a keyword that is no field of any group; the message names the closest field.

    Examples
    --------
    >>> objects, given = route_settings(
    ...     "f()", {"layers": "last"}, {"embedding": (EmbeddingOptions, None), "scan": (ScanSettings, None)}
    ... )
    >>> objects["embedding"].layers, sorted(given)
    ('last', ['layers'])
    """
    home = {f.name: name for name, (cls, _) in groups.items() for f in fields(cls)}
    changes: dict[str, dict[str, Any]] = {name: {} for name in groups}
    for key, value in settings.items():
        if key not in home:
            raise _unknown(where, key, sorted(home))
        if value is not None:
            changes[home[key]][key] = value
    objects = {}
    for name, (cls, given) in groups.items():
        base = given if given is not None else cls()
        if not isinstance(base, cls):
            raise TypeError(f"{where}: {name}= must be a {cls.__name__}, not {type(base).__name__}")
        objects[name] = base.replace(**changes[name]) if changes[name] else base
    return objects, {key for change in changes.values() for key in change}
