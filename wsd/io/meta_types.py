"""The shape of the metadata files wsd writes beside its outputs, and the check of one read back from disk.

Three files, each a TypedDict: a run's ``meta.json`` (:class:`RunMeta`, written by :mod:`wsd.io.run_store`), a
senses folder's ``meta.json`` (:class:`SensesMeta`, :func:`wsd.senses.stage.write_senses`) and a change folder's
``change.json`` (:class:`ChangeMeta`, :func:`wsd.change.stage.write_change`). The writers build them (mypy checks
every key they write); the readers check what they read with :func:`shape_problem` before they use it, so a tampered
file is one error line, never a traceback. As for ``wsd_tune.json`` (:mod:`wsd.tune.facts`): a file written by an
earlier wsd may lack keys added since, so every key is optional to a reader (``total=False``), and a reader uses
``.get`` where a key came later; a key no type declares (one an older wsd wrote) is left alone.

Entries whose keys another object declares stay ``dict[str, Any]`` and say which (the scan options, the inducer's
parameters, the change options, the rows of a change table), so that no key is declared twice.

>>> meta: RunMeta = {"format": "wsd-run/1", "status": "complete", "dim": 384}
>>> shape_problem(meta, RunMeta) is None
True
>>> shape_problem({"scan": {"occurrences": {"bank": "12"}}}, RunMeta)
"scan.occurrences.bank must be a whole number, not '12'"
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Any, Literal, TypedDict, Union

from wsd.schema import VectorDtype

#: A run's ``status``: finished, or being written (or interrupted).
RunStatus = Literal["complete", "running"]


class FileRecord(TypedDict, total=False):
    """A file's checksum record (:func:`wsd.io.checksums.file_record`): its size and SHA-256, rows and width."""

    size: int
    sha256: str
    rows: int
    dim: int


class VectorSettings(TypedDict, total=False):
    """The settings that change an encoder's vectors (:class:`wsd.embed.identity.EncoderIdentity`).

    ``model_revision`` only for a Hub model, ``runtime`` only for a runtime other than PyTorch, ``quantisation``
    only for a quantised model.
    """

    model: str
    model_fingerprint: str
    model_revision: str
    layers: str
    pooling: str
    max_length: int
    window_tokens: int | None
    precision: str
    runtime: str
    quantisation: str


class VectorMeta(VectorSettings, total=False):
    """The identity of a run's vectors (``embedding``): the settings, ``dim``, ``context_vector`` when there is one."""

    dim: int
    context_vector: str


class EmbedConfig(VectorSettings, total=False):
    """What a corpus run records as its ``embed`` configuration: the settings, ``context_vector`` and the batch."""

    context_vector: str | None
    batch_size: int


class ShardingConfig(TypedDict, total=False):
    """How a corpus run is cut into units of work: bytes per shard, occurrences per chunk."""

    shard_bytes: int
    chunk_size: int


class RunConfig(TypedDict, total=False):
    """What decides a run's contents (its fingerprint).

    A corpus run (``wsd embed``): ``corpus``, ``corpus_fingerprint``, ``scan`` (the scan options,
    :meth:`wsd.corpus.scan.ScanOptions.to_dict`), ``embed`` and ``sharding``; a dataset's run (``wsd evaluate``):
    ``dataset`` and ``data``.
    """

    corpus: str
    corpus_fingerprint: str
    scan: dict[str, Any]
    embed: EmbedConfig
    sharding: ShardingConfig
    dataset: str
    data: str | None


class ShardsFacts(TypedDict, total=False):
    """A corpus run's shard plan: how many shards, of how many bytes, and the plan file's checksum record."""

    count: int
    shard_bytes: int
    plan: FileRecord


class CalibrationRecord(TypedDict, total=False):
    """How ``auto`` chose the runtime and precision (:meth:`wsd.embed.calibration.Calibration.record`)."""

    runtime: str
    precision: str
    measured_at: str
    checks: list[str]
    cache: str


class ScanFacts(TypedDict, total=False):
    """What the scan of a corpus run found: parts and their sizes, documents, uses per target, proper names."""

    parts: int
    part_sizes: list[int]
    documents: int
    occurrences: dict[str, int]
    proper: dict[str, dict[str, int]]


class ExecutionFacts(TypedDict, total=False):
    """Where a corpus run's shards ran: the executor, its workers and scheduler, the shards computed of all."""

    executor: str
    workers: int
    scheduler: str | None
    computed: int
    shards: int
    shard_bytes: int


class RunMeta(TypedDict, total=False):
    """A run's ``meta.json`` (the layout of a run: :mod:`wsd.io.run_store`).

    Written when the run is created (``format`` ... ``versions``), while it is embedded (``calibration``,
    ``shards``) and when it is finished (the rest; a dataset's run is written whole at once).
    """

    format: str
    status: RunStatus
    fingerprint: str
    created: str
    config: RunConfig
    vector_dtype: VectorDtype
    versions: dict[str, str]
    calibration: CalibrationRecord
    shards: ShardsFacts
    metadata_columns: dict[str, str]
    scan: ScanFacts
    execution: ExecutionFacts
    checksums: dict[str, FileRecord]
    embedding: VectorMeta | None
    n_occurrences: int
    dim: int
    finished: str
    timings: dict[str, float]


class NamingFacts(TypedDict, total=False):
    """How the occurrences of a senses folder were named (``--inventory``; :mod:`wsd.senses.naming`)."""

    parameters: dict[str, Any]
    senses_per_target: dict[str, int]
    inventory: str
    definitions: dict[str, str]


class SensesMeta(TypedDict, total=False):
    """A senses folder's ``meta.json`` (the layout: :mod:`wsd.senses.stage`).

    ``run``, ``run_fingerprint`` and ``request`` come from ``wsd cluster`` and ``wsd run``, ``seed`` from an
    evaluation; ``embedding`` is the identity the sense model was fitted with (a run's :class:`VectorMeta`, or any
    mapping given from Python), ``inducer`` the inducer's parameters (:meth:`wsd.senses.SenseInducer.get_params`),
    ``request`` what ``wsd run`` asked (its scan, encoder and inducer settings).
    """

    format: str
    run: str
    run_fingerprint: str | None
    request: dict[str, Any]
    seed: int
    embedding: dict[str, Any]
    inducer: dict[str, Any]
    senses: dict[str, int]
    one_sense: dict[str, str]
    few_uses_split: dict[str, str]
    occurrences: int
    naming: NamingFacts
    versions: dict[str, str]
    checksums: dict[str, FileRecord]


class BinaryRule(TypedDict, total=False):
    """The binary change decision of the WUG rule: at most ``k`` uses in one slice, at least ``n`` in the other."""

    k: int
    n: int


class BootstrapFacts(TypedDict, total=False):
    """How the intervals of a change comparison were drawn."""

    resamples: int
    confidence: float
    random_state: int | None
    vector_cap: int | None
    subsampled: bool


class TrendTest(TypedDict, total=False):
    """The trend test's settings: the fewest slices it runs on, its significance level."""

    min_slices: int
    alpha: float


class SenseShiftTest(TypedDict, total=False):
    """When a sense counts as appeared or vanished: its uses where present and absent, the test's level."""

    present_min: int
    absent_max: int
    alpha: float


class ComparisonFacts(TypedDict, total=False):
    """A comparison of slices as ``change.json`` records it (:meth:`wsd.change.compare.SliceComparison.to_dict`).

    The tables (``ranking``, ``scores``, ``senses``, ...) are lists of rows, their columns those of the change
    tables (:mod:`wsd.change.stage`).
    """

    by: str
    bins: list[str] | None
    bin_width: int | None
    slices: list[str]
    main_pair: list[str]
    measure: str
    measures: list[str]
    binary: BinaryRule
    min_uses: int
    rank_by: str
    bootstrap: BootstrapFacts
    ranking: list[dict[str, Any]]
    scores: list[dict[str, Any]]
    senses: list[dict[str, Any]]
    counts: list[dict[str, Any]]
    unmeasured: list[dict[str, Any]]
    timeline: list[dict[str, Any]]
    trends: list[dict[str, Any]]
    trend_test: TrendTest
    largest: list[dict[str, Any]]
    sense_shift_test: SenseShiftTest


class ChangeMeta(ComparisonFacts, total=False):
    """A change folder's ``change.json``: the comparison, the settings that made it (``config``: the run, the
    senses folder and the change options, :meth:`wsd.options.ChangeOptions.to_dict`), the run's fingerprint."""

    format: str
    config: dict[str, Any]
    run_fingerprint: str | None
    versions: dict[str, str]


def shape_problem(value: object, shape: Any, strict: bool = False) -> str | None:
    """What in ``value`` (JSON read back) does not have the type ``shape`` declares, or None when all does.

    Keys of a TypedDict are optional (a file of an earlier wsd may lack some); a key the type does not declare is
    left alone unless ``strict``.

    Parameters
    ----------
    value : object
        A JSON value (a ``meta.json`` read).
    shape : type
        A TypedDict of this module, or any type built of ``dict``, ``list``, ``tuple``, unions, ``Literal``,
        ``str``, ``int``, ``float``, ``bool``, ``None`` and ``Any``.
    strict : bool
        Report a key that a TypedDict does not declare too (what the tests ask of every writer).

    Returns
    -------
    str or None
        The first problem, naming the entry by its dotted path (``scan.occurrences.bank must be ...``).

    Examples
    --------
    >>> shape_problem({"status": "done"}, RunMeta)
    "status must be one of 'complete', 'running', not 'done'"
    >>> shape_problem({"dim": 3, "notes": "mine"}, RunMeta, strict=True)
    'notes is no key of RunMeta'
    """
    return _problem(value, shape, "", strict)


def _problem(value: object, shape: Any, name: str, strict: bool) -> str | None:
    """The first problem of ``value`` against ``shape`` (``name``: its dotted path), or None."""
    label = name or "the file"
    if shape is Any or shape is object:
        return None
    if typing.is_typeddict(shape):
        if not isinstance(value, dict):
            return f"{label} must be a JSON object, not {_shown(value)}"
        declared = _declared(shape)
        for key, item in value.items():
            path = f"{name}.{key}" if name else str(key)
            if key in declared:
                found = _problem(item, declared[key], path, strict)
                if found is not None:
                    return found
            elif strict:
                return f"{path} is no key of {shape.__name__}"
        return None
    origin, arguments = typing.get_origin(shape), typing.get_args(shape)
    if origin in (Union, types.UnionType):
        if any(_problem(value, option, name, strict) is None for option in arguments):
            return None
        return f"{label} must be {' or '.join(_describe(option) for option in arguments)}, not {_shown(value)}"
    if origin is Literal:
        if any(value == choice and type(value) is type(choice) for choice in arguments):
            return None
        return f"{label} must be one of {', '.join(map(repr, arguments))}, not {_shown(value)}"
    if origin is dict:
        if not isinstance(value, dict):
            return f"{label} must be {_describe(shape)}, not {_shown(value)}"
        for key, item in value.items():
            found = _problem(item, arguments[1], f"{name}.{key}" if name else str(key), strict)
            if found is not None:
                return found
        return None
    if origin in (list, tuple):  # JSON gives a tuple back as a list
        if not isinstance(value, list | tuple):
            return f"{label} must be {_describe(shape)}, not {_shown(value)}"
        items = arguments[:1] * len(value) if origin is list or arguments[-1:] == (...,) else arguments
        if len(items) != len(value):
            return f"{label} must be a list of {len(items)}, not {_shown(value)}"
        for position, (item, kind) in enumerate(zip(value, items, strict=True)):
            found = _problem(item, kind, f"{label}[{position}]", strict)
            if found is not None:
                return found
        return None
    return None if _is_a(value, shape) else f"{label} must be {_describe(shape)}, not {_shown(value)}"


@functools.cache
def _declared(shape: type) -> dict[str, Any]:
    """The keys a TypedDict declares and their types (resolved once)."""
    return typing.get_type_hints(shape)


def _is_a(value: object, shape: Any) -> bool:
    """Whether a JSON scalar is of a plain type (a whole number is no bool; a number may be whole)."""
    if shape is type(None) or shape is None:
        return value is None
    if shape is bool:
        return isinstance(value, bool)
    if shape is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if shape is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(shape, type) and isinstance(value, shape)


def _describe(shape: Any) -> str:
    """A type in words, as an error message names it."""
    origin = typing.get_origin(shape)
    if typing.is_typeddict(shape) or origin is dict:
        return "a JSON object"
    if origin in (list, tuple):
        return "a list"
    if origin is Literal:
        return "one of " + ", ".join(map(repr, typing.get_args(shape)))
    words = {int: "a whole number", float: "a number", str: "text", bool: "true or false", type(None): "null"}
    return words.get(shape, getattr(shape, "__name__", str(shape)))


def _shown(value: object) -> str:
    """A value as an error message shows it: short scalars as they are, containers by their kind."""
    if isinstance(value, dict):
        return "a JSON object"
    if isinstance(value, list):
        return "a list"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
