"""The typed option objects of the Python API, and the one declaration of every setting they hold.

:func:`wsd.embed_corpus`, :func:`wsd.workflows.pipeline.induce_corpus`, :func:`wsd.evaluate_dataset`,
:class:`wsd.Encoder` (``Encoder.from_options``), :func:`wsd.senses.stage.cluster_run`,
:func:`wsd.change.stage.change_run` and :func:`wsd.tune.tune_encoder` take these instead of dozens of keyword
arguments::

    ScanSettings        which occurrences a scan finds ([scan])
    EmbeddingOptions    how occurrences become vectors ([embedding])
    SenseOptions        how senses are induced ([senses])
    EvaluationOptions   how a labelled dataset is scored ([evaluation])
    ChangeOptions       comparing slices ([change])
    ExecutionOptions    where the work runs and how a run is stored ([execution], output.chunk_size, ...)
    TuneOptions         how an encoder is trained to tell senses apart ([tune])

Each field is declared once, with :func:`wsd.schema.setting`: its annotation gives the type and the choices (a
``Literal`` of :mod:`wsd.schema`), the field its default, the metadata its help, commands and flags.
:data:`OPTION_LIST` joins these fields with the options declared in :mod:`wsd.schema` (a command's inputs, the
flags only); the flags of every command, the TOML configuration, ``wsd config show`` and the docs reference are
made from it. So a new field of :class:`ChangeOptions` is a flag of ``wsd change``, a key of ``[change]`` and a row
of the reference at once (docs/contributing.md shows it).

Each class has ``from_config(config)`` (a resolved configuration, :func:`wsd.config.resolve_config`) and
``replace(**changes)``. Off is ``None`` (a configuration writes ``"none"``; :func:`wsd.schema.is_off` reads every
spelling of it); the context vector keeps ``"none"`` apart from None, because there None may mean "the recipe's"
(see :class:`EmbeddingOptions`).

:func:`route_settings` is how a function that takes option objects keeps taking the old keyword arguments: each
keyword goes to the object whose class has a field of that name.

>>> EmbeddingOptions(layers="last").replace(pooling="first").pooling
'first'
>>> ScanSettings(lemmatizer="off").lemmatizer is None
True
>>> EmbeddingOptions(context_vector="off").context_vector
'none'
>>> OPTIONS["change.min_uses"].option_strings, OPTIONS["change.min_uses"].default
(('--min-uses',), 20)

This module imports nothing of wsd but :mod:`wsd.schema` and :mod:`wsd.errors` (and nothing heavy).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import os
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, TypeVar

from wsd.errors import ConfigError
from wsd.schema import (
    CHANGE_INPUTS,
    DEFAULT_BINARY_K,
    DEFAULT_BINARY_N,
    DEFAULT_CHUNK_SIZE,
    DEFAULT_CONTEXT_VECTOR,
    DEFAULT_LAYERS,
    DEFAULT_MEASURE,
    DEFAULT_MIN_USES,
    DEFAULT_POOLING,
    DEFAULT_RANK_BY,
    DEFAULT_RUNTIME,
    DEFAULT_SHARD_BYTES,
    EVALUATION_INPUTS,
    FLAG_OPTIONS,
    MAX_EPOCHS,
    NAMED_SPECS,
    OUTPUT_DESCRIPTION,
    OUTPUT_DESTINATION,
    POOLINGS,
    SCAN_COMMANDS,
    SCAN_INPUTS,
    SEED_MAX,
    SENSES_INPUTS,
    TUNE_INPUTS,
    BaselineMethod,
    ClusteringMethod,
    ContextKind,
    Lemmatizer,
    Measure,
    Noise,
    Option,
    Pooling,
    Precision,
    ProperNames,
    RankBy,
    Recipe,
    Runtime,
    Selection,
    TuneDevice,
    TuneLoss,
    TunePrecision,
    TuneTeacherLabels,
    VectorDtype,
    declared_options,
    off_to_none,
    off_to_word,
    setting,
)

_T = TypeVar("_T", bound="_Options")

#: The commands of each group of settings.
_EMBEDDING = ("embed", "run", "evaluate")
_SENSES = ("cluster", "run", "evaluate")
_DISTRIBUTED = ("embed", "cluster", "evaluate")
_CHANGE_ALL = ("change", "run", "evaluate")
_CHANGE_SLICES = ("change", "run")
_EVALUATE = ("evaluate",)
_TUNE = ("tune",)
_SENSE_PARAMETER = "sense-inducer parameter"
_INDUCER_DEFAULT = "from the recipe, else the inducer's default"


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

    forms: str | os.PathLike[str] | None = setting(
        None, "forms file: lines target<TAB>form1,form2,...", commands=SCAN_COMMANDS, path=True
    )
    lemmatizer: Lemmatizer | None = setting(
        "none",
        "also match words whose lemma is a target (simplemma, offline; none = listed forms only)",
        commands=SCAN_COMMANDS,
        off=True,
    )
    case_sensitive: bool = setting(False, "match case exactly", commands=SCAN_COMMANDS, unset="ignore case")
    proper: ProperNames = setting(
        "warn",
        "likely proper names: uses of a lower-case target capitalised mid-sentence (State of Georgia, United "
        "States for state), with or without a lemmatizer; warn = keep them and warn with their share per target "
        "(from 5% of its uses), keep (--keep-proper) = keep them silently, drop (--no-proper) = leave them out "
        "(never embedded)",
        commands=SCAN_COMMANDS,
        flags=("--keep-proper", "--no-proper"),
        flag_values={"--keep-proper": "keep", "--no-proper": "drop"},
    )
    context: ContextKind = setting(
        "sentence",
        "context passage of an occurrence: its sentence, or --context-chars either side",
        commands=SCAN_COMMANDS,
    )
    context_chars: int = setting(
        1000,
        "characters either side for --context window, and the cap for very long sentences",
        commands=SCAN_COMMANDS,
        minimum=1,
    )
    text_field: str = setting("text", "field/column holding the text", commands=SCAN_COMMANDS)
    meta: tuple[str, ...] | str = setting(
        (),
        "comma-separated fields (.jsonl) or columns (.csv/.tsv/.parquet) kept beside the text as metadata "
        "columns of the occurrence table, e.g. year,source",
        commands=SCAN_COMMANDS,
        metavar="FIELDS",
    )
    slice_from_path: str | None = setting(
        None,
        "keep part of each corpus file's path (relative to the corpus) as metadata: the regex's first group "
        "becomes the column slice, e.g. '(\\d{4})'; named groups name their columns, e.g. '(?P<year>\\d{4})'",
        commands=SCAN_COMMANDS,
        metavar="REGEX",
    )

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

    model: str | None = setting(
        None,
        "encoder: a local Hugging Face model folder or a Hub name such as intfloat/multilingual-e5-small "
        "(downloaded into the HF cache on first use; see --offline), or wsd:NAME for the model `wsd tune --recipe "
        "NAME` built; never trust_remote_code",
        commands=_EMBEDDING,
        unset="the bundled all-MiniLM-L6-v2 (English only)",
    )
    offline: bool = setting(
        False,
        "never touch the network: a Hub --model must already be in the Hugging Face cache "
        "(HF_HUB_OFFLINE=1 does the same)",
        commands=_EMBEDDING,
    )
    layers: str = setting(
        DEFAULT_LAYERS,
        f"layer combination: {', '.join(NAMED_SPECS)}, a layer index (0 = embedding layer, -1 = last) "
        "or a list such as -4,-3,-2,-1 (summed; prefix mean: or concat: to change)",
        commands=_EMBEDDING,
    )
    # no choice list on the flag: first_last (flair's spelling) is read as first-last (wsd.embed.pooling)
    pooling: Pooling = setting(
        DEFAULT_POOLING, f"subword pooling: {', '.join(POOLINGS)}", commands=_EMBEDDING, choices=None
    )
    precision: Precision = setting(
        "auto",
        "compute precision: auto = on a CPU with --runtime auto, the fastest of the runtimes and precisions whose "
        "vectors agree with fp32, measured once per model and machine (--recalibrate on wsd embed and wsd run); "
        "else bf16 where the hardware has it natively, else fp32; int8 = OpenVINO on the CPU, quantised with NNCF "
        "(pip install 'wsd[int8]'); fp16 on GPU",
        commands=_EMBEDDING,
    )
    runtime: Runtime = setting(
        DEFAULT_RUNTIME,
        "forward pass: auto = on a CPU with --precision auto, chosen by measuring (see --precision), else openvino "
        "on a CPU (converted once, cached in $WSD_OPENVINO_CACHE; faster start-up and forward pass), torch on a "
        "GPU or for fp16; or torch, or openvino",
        commands=_EMBEDDING,
    )
    device: str | None = setting(None, "cpu, cuda, cuda:N or auto", commands=_EMBEDDING, unset="auto")
    batch_size: int | None = setting(
        None, "windows per forward pass", commands=_EMBEDDING, minimum=1, unset="32 on a CPU, 256 on a GPU"
    )
    max_length: int | None = setting(
        None,
        "longest window in subword tokens incl. special tokens",
        commands=_EMBEDDING,
        minimum=1,
        unset="the model's limit, ≤ 512",
    )
    window_tokens: int | None = setting(
        None,
        "at most N subword tokens either side of the target",
        commands=_EMBEDDING,
        minimum=0,
        unset="as many as fit",
    )
    context_vector: str | None = setting(
        None,
        "append a pooled vector of the tokens around each occurrence: TOKENS[:LAYERS[:WEIGHT]], e.g. "
        "20:last:0.5, or none",
        commands=_EMBEDDING,
        unset=f"from --recipe (default recipe: {DEFAULT_CONTEXT_VECTOR})",
        unset_for={
            "embed": f"the default recipe's, {DEFAULT_CONTEXT_VECTOR} (a model's shipped recipe's, e.g. "
            "wsd:sense-minilm's), as wsd run embeds; none: the word's own"
        },
        off=True,
    )

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
    recipe : {"default", "textbook", "sense-minilm", "sense-mpnet"}
        The named parameter set unset parameters come from.
    seed : int
        Random state of every random choice.
    method, k, selection, k_range, one_sense_below, k_tie_margin, min_split_uses, similarity_cut, center,
    center_forms, normalize, pca, whiten, min_cluster_size, noise, temperature, distance, n_init, covariance_type,
    n_neighbors, hdbscan_min_cluster_size, hdbscan_min_samples, max_fit_samples
        Parameters of :class:`~wsd.senses.SenseInducer`.

    Examples
    --------
    >>> SenseOptions(method="kmeans", k=3).params()["k"]
    3
    """

    _SECTION = "senses"

    #: The fields that are not :class:`~wsd.senses.SenseInducer` parameters.
    NOT_PARAMETERS: ClassVar[tuple[str, ...]] = ("recipe", "seed")

    recipe: Recipe = setting(
        "default",
        "named parameter set the unset sense options come from: default (wsd's recommended), textbook "
        "(k-means, silhouette), sense-minilm or sense-mpnet (the default made for --model wsd:sense-minilm or "
        "wsd:sense-mpnet, which takes it when no --recipe is given)",
        commands=_SENSES,
    )
    seed: int = setting(
        0, "random state of every random choice", commands=("cluster", "run"), minimum=0, maximum=SEED_MAX
    )
    method: ClusteringMethod | BaselineMethod | None = setting(None, "clustering method or baseline", commands=_SENSES)
    k: int | Literal["auto"] | None = setting(None, "number of senses, or auto (chosen per word)", commands=_SENSES)
    selection: Selection | None = setting(None, "criterion that chooses k for --k auto", commands=_SENSES)
    k_range: tuple[int, int] | None = setting(None, "candidate k for --k auto, e.g. 2,7", commands=_SENSES)
    one_sense_below: float | None = setting(
        None, "--k auto: answer one sense when the best score (e.g. silhouette) is below this", commands=_SENSES
    )
    min_split_uses: int | None = setting(
        None,
        "--k auto: a word with fewer uses keeps one sense, and says why (0 = split any word; the default recipe's "
        "floor is measured by experiments/one_sense_floor.py)",
        commands=_SENSES,
        minimum=0,
    )
    similarity_cut: float | None = setting(
        None,
        "agglomerative: no k chosen; senses merge while their mean cosine is at least this, as WUG judgment graphs "
        "are clustered (wsd evaluate --dataset wug reports the cut its judgments call 'same' as sense_cut)",
        commands=_SENSES,
        minimum=-1,
        maximum=1,
    )
    k_tie_margin: float | None = setting(
        None,
        "--k auto: scores within this of the best are ties, won by the fewest senses (so float rounding "
        "does not decide k)",
        commands=_SENSES,
        minimum=0,
    )
    center: bool | None = setting(None, "centre each word's vectors on their mean", commands=_SENSES)
    center_forms: float | None = setting(
        None, "fraction of each form's offset from the word mean removed", commands=_SENSES, flags=()
    )
    normalize: bool | None = setting(None, "L2-normalise the vectors", commands=_SENSES)
    pca: int | None = setting(None, "reduce each word's vectors to N dimensions", commands=_SENSES, minimum=1)
    whiten: bool | None = setting(None, "whiten after PCA", commands=_SENSES)
    min_cluster_size: int | None = setting(
        None, "merge senses smaller than N into the nearest", commands=_SENSES, minimum=1
    )
    noise: Noise | None = setting(None, "HDBSCAN noise: nearest sense or unassigned", commands=_SENSES)
    temperature: float | Literal["auto"] | None = setting(
        None, "soft-membership temperature: a number or auto", commands=_SENSES
    )
    distance: str | None = setting(None, _SENSE_PARAMETER, commands=_SENSES, flags=(), unset=_INDUCER_DEFAULT)
    n_init: int | None = setting(None, _SENSE_PARAMETER, commands=_SENSES, minimum=1, flags=(), unset=_INDUCER_DEFAULT)
    covariance_type: str | None = setting(None, _SENSE_PARAMETER, commands=_SENSES, flags=(), unset=_INDUCER_DEFAULT)
    n_neighbors: int | None = setting(
        None, _SENSE_PARAMETER, commands=_SENSES, minimum=1, flags=(), unset=_INDUCER_DEFAULT
    )
    hdbscan_min_cluster_size: int | None = setting(
        None, _SENSE_PARAMETER, commands=_SENSES, minimum=2, flags=(), unset=_INDUCER_DEFAULT
    )
    hdbscan_min_samples: int | None = setting(
        None, _SENSE_PARAMETER, commands=_SENSES, minimum=1, flags=(), unset=_INDUCER_DEFAULT
    )
    max_fit_samples: int | None = setting(
        None,
        "fit words with more occurrences on a seeded sample of N, assign the rest",
        commands=_SENSES,
        minimum=2,
        flags=(),
        unset="5000",
    )

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
            name: getattr(self, name)
            for name in self.parameter_names()
            if not (given_only and getattr(self, name) is None)
        }

    @classmethod
    def parameter_names(cls) -> tuple[str, ...]:
        """The fields that are :class:`~wsd.senses.SenseInducer` parameters (all but ``recipe`` and ``seed``).

        Returns
        -------
        tuple of str

        Examples
        --------
        >>> SenseOptions.parameter_names()[:3]
        ('method', 'k', 'selection')
        """
        return tuple(f.name for f in fields(cls) if f.name not in cls.NOT_PARAMETERS)


@dataclass(frozen=True)
class EvaluationOptions(_Options):
    """How a labelled dataset is scored (``[evaluation]`` but the dataset, its data and ``wsd run``'s gold labels).

    Parameters
    ----------
    dev : path, optional
        ``wic``: the pairs file the cosine threshold is chosen on (None: by lemma cross-validation).
    split : str, optional
        RUSSE-2018 split(s).
    gold_key : str, optional
        SemEval-2013 gold key name or path (None: ``all.key``).
    targets : tuple of str or str, optional
        Evaluate only these targets (``("add.v", "bank.n")`` or ``"add.v,bank.n"``; None: all).
    seeds : int
        Seeds ``0 .. seeds - 1`` (mean ± std over them).
    graded : bool, optional
        Graded system keys from the sense memberships, or hard labels (None: the recipe's).
    min_weight : float, optional
        Graded keys: the smallest relative membership kept (None: the recipe's).
    top : int, optional
        Graded keys: the most senses per occurrence (None: the recipe's).
    cache_dir : path, optional
        The vector cache (None: ``$WSD_CACHE_DIR`` or ``~/.cache/wsd``).

    Examples
    --------
    >>> EvaluationOptions(targets="add.v, bank.n").targets
    ('add.v', 'bank.n')
    """

    _SECTION = "evaluation"

    dev: str | os.PathLike[str] | None = setting(
        None,
        "wic: the pairs file the cosine threshold is chosen on",
        commands=_EVALUATE,
        path=True,
        unset="a threshold by lemma cross-validation on --data",
    )
    split: str | None = setting(None, "RUSSE split(s): wiki-wiki, bts-rnc, active-dict, main, ...", commands=_EVALUATE)
    gold_key: str | None = setting(None, "SemEval-2013 gold key name or path", commands=_EVALUATE, unset="all.key")
    targets: tuple[str, ...] | str | None = setting(
        None, "evaluate only these targets (comma-separated, e.g. add.v,bank.n)", commands=_EVALUATE, unset="all"
    )
    seeds: int = setting(1, "number of seeds (mean ± std)", commands=_EVALUATE, minimum=1)
    graded: bool | None = setting(
        None,
        "graded (soft) system keys from the sense memberships, or hard labels with --no-graded",
        commands=_EVALUATE,
        negatable=True,
        unset="from --recipe; the default recipe is graded",
    )
    min_weight: float | None = setting(
        None, "graded keys: smallest relative membership kept", commands=_EVALUATE, flags=()
    )
    top: int | None = setting(None, "graded keys: most senses per occurrence", commands=_EVALUATE, minimum=1, flags=())
    cache_dir: str | os.PathLike[str] | None = setting(
        None, "vector cache", commands=_EVALUATE, path=True, unset="$WSD_CACHE_DIR or ~/.cache/wsd"
    )

    def __post_init__(self) -> None:
        if self.targets is not None:
            items = self.targets.split(",") if isinstance(self.targets, str) else [str(t) for t in self.targets]
            object.__setattr__(self, "targets", tuple(item.strip() for item in items if item.strip()))


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

    by: str | None = setting(
        None,
        "metadata column the slices come from; COLUMN:year (or :decade) slices a date column by its year",
        commands=_CHANGE_SLICES,
        metavar="COLUMN",
    )
    bins: str | None = setting(
        None, "bins of numeric values, both ends inclusive", commands=_CHANGE_SLICES, metavar="LOW:HIGH,..."
    )
    bin_width: int | None = setting(
        None,
        "slices of N values (years), aligned to multiples of N: 1790:1799, 1800:1809, ... (not with --bins)",
        commands=_CHANGE_SLICES,
        minimum=1,
        metavar="N",
    )
    between: tuple[str, ...] | str | None = setting(
        None, "compare only these two slices", commands=_CHANGE_SLICES, metavar="A,B"
    )
    measure: Measure = setting(
        DEFAULT_MEASURE, "change score to rank by (graded_spearman for wug)", commands=_CHANGE_ALL
    )
    binary_k: int | None = setting(
        None,
        "binary rule: at most k uses in one slice",
        commands=_CHANGE_ALL,
        minimum=0,
        unset=f"the dataset's, else {DEFAULT_BINARY_K}",
    )
    binary_n: int | None = setting(
        None,
        "binary rule: at least n uses in the other",
        commands=_CHANGE_ALL,
        minimum=1,
        unset=f"the dataset's, else {DEFAULT_BINARY_N}",
    )
    min_uses: int = setting(
        DEFAULT_MIN_USES,
        "fewest uses per slice; a pair below it goes to unmeasured.csv, not ranked",
        commands=_CHANGE_SLICES,
        minimum=1,
    )
    rank_by: RankBy = setting(
        DEFAULT_RANK_BY,
        "rank by the lower end of the score's 95% bootstrap interval, by the score shrunk toward the mean by its "
        "uncertainty (empirical Bayes), or by the point score",
        commands=_CHANGE_SLICES,
    )

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :func:`wsd.change.compare_slices`: every field, as it is.

        :func:`wsd.change.stage.change_run` passes them on, so a new field reaches ``compare_slices`` without a
        line between the command line and the function that uses it.

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
    shard_bytes: int | None = setting(
        None,
        "corpus bytes per shard, the unit of work (one task on a Dask cluster)",
        commands=("embed",),
        minimum=1,
        unset=f"{DEFAULT_SHARD_BYTES // 2**20} MiB",
    )
    scheduler: Any = setting(
        None, "address of a running Dask scheduler (tcp://host:8786)", commands=_DISTRIBUTED, kind="str"
    )
    workers: int | None = setting(None, "start a local Dask cluster of N processes", commands=_DISTRIBUTED, minimum=1)
    threads_per_worker: int = setting(1, "threads of each local Dask worker", commands=_DISTRIBUTED, minimum=1)
    retries: int | None = None
    vector_dtype: VectorDtype = setting("float16", "storage type", commands=SCAN_COMMANDS, section="output")
    chunk_size: int = setting(
        DEFAULT_CHUNK_SIZE,
        "occurrences per stored part, the unit of resumption",
        commands=SCAN_COMMANDS,
        minimum=1,
        section="output",
    )
    consolidate: bool | None = None

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


@dataclass(frozen=True)
class TuneOptions(_Options):
    """How an encoder is trained to tell senses apart: the options of :func:`wsd.tune.tune_encoder` (``[tune]`` but
    what is trained on).

    The values are checked here (types, choices, ranges: one :class:`~wsd.errors.ConfigError` line each); the
    layers, the subword pooling and the context vector are read by the encoder's parsers when training starts
    (:func:`wsd.tune.options.training_options`, which also gives ``first_last`` and the context vector their one
    spelling).

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
        ``--context-vector`` (:mod:`wsd.embed.context`), instead of the target vector alone (``None``; ``"none"``
        and the other words of :data:`wsd.schema.OFF_WORDS` are read as None).
    device : {"auto", "cpu", "cuda"}
        Where to train (``auto``: CUDA when present).
    precision : {"auto", "fp32", "bf16"}
        ``auto``: on a CPU with native bf16, the faster of fp32 and bf16 autocast on the run's first batches
        (:mod:`wsd.tune.precision`); fp32 on other CPUs; bf16 autocast on a GPU that supports it.
    portable : bool
        Train in the portable arithmetic (:mod:`wsd.tune.portable`): the same weights on every x86-64 CPU with
        AVX2, in a fresh process, on the CPU, in fp32, on two threads. The recipes train so.
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
        Show a progress bar with the running loss (how a run looks, not what it computes:
        :data:`PRESENTATION_FIELDS`).

    Examples
    --------
    >>> TuneOptions(epochs=2, loss="cosent").epochs
    2
    >>> TuneOptions(loss="triplet")
    Traceback (most recent call last):
    ...
    wsd.errors.ConfigError: tune option loss: 'triplet' is not one of cosent, contrastive, auto
    """

    _SECTION = "tune"
    #: The fields that change how a run looks, not what it computes (left out of :meth:`weight_settings`).
    PRESENTATION_FIELDS: ClassVar[tuple[str, ...]] = ("progress",)

    model: str | None = setting(
        None,
        "base encoder: a local model folder (one wsd tune wrote, too) or a Hugging Face Hub name",
        commands=_TUNE,
        unset="the bundled all-MiniLM-L6-v2",
    )
    teacher: str | None = setting(
        None,
        "distil: label every training pair with this encoder's cosine of its two uses (the same layers, pooling "
        "and context vector; graded, so --loss auto trains it with CoSENT) instead of the source's label (or only "
        "the unlabelled pairs: --teacher-labels); a model folder or Hub name, e.g. a larger encoder whose senses the "
        "base model should learn",
        commands=_TUNE,
        metavar="MODEL",
        unset="the sources' labels",
    )
    teacher_labels: TuneTeacherLabels = setting(
        "all",
        "which training pairs --teacher labels: all (distillation: the sources' labels are not read) or "
        "unlabelled (only the pairs of uses:FILE sources; human labels train beside the teacher's)",
        commands=_TUNE,
    )
    loss: TuneLoss = setting(
        "auto",
        "cosent (a ranking loss) or contrastive (a margin on the cosine distance) for every batch; "
        "auto: cosent for graded labels, contrastive for binary ones",
        commands=_TUNE,
    )
    # every epoch's batch plan is made before the first step (the schedule needs the total): a cap keeps a typo
    # such as --epochs 1000000000 from hanging before training starts
    epochs: int = setting(1, "passes over the training pairs", commands=_TUNE, minimum=1, maximum=MAX_EPOCHS)
    max_steps: int | None = setting(
        None, "stop after this many steps", commands=_TUNE, minimum=1, unset="the epochs decide"
    )
    lr: float = setting(2e-5, "peak learning rate (AdamW, linear warm-up and decay)", commands=_TUNE)
    warmup_fraction: float = setting(0.1, "share of the steps spent warming the learning rate up", commands=_TUNE)
    weight_decay: float = setting(0.01, "AdamW weight decay", commands=_TUNE)
    freeze_layers: int = setting(
        0,
        "keep the input embeddings and the lowest N transformer layers fixed (0: every weight trains)",
        commands=_TUNE,
        minimum=0,
    )
    batch_uses: int = setting(
        24,
        "uses encoded per step (each once, grouped by lemma); every labelled pair among them is scored",
        commands=_TUNE,
        minimum=2,
    )
    scale: float = setting(20.0, "CoSENT scale (inverse temperature)", commands=_TUNE)
    margin: float = setting(0.5, "contrastive margin on the cosine distance", commands=_TUNE)
    seed: int = setting(
        0,
        "seed of the lemma split, the batches, dropout and the updates",
        commands=_TUNE,
        minimum=0,
        maximum=SEED_MAX,
    )
    layers: str = setting(
        DEFAULT_LAYERS,
        "layer combination of a word vector, trained as it is used: a name such as sum-last-4, "
        "a layer index or a list such as -4,-3,-2,-1 (as --layers of wsd embed; not static)",
        commands=_TUNE,
    )
    # no choice list on the flag: first_last (flair's spelling) is read as first-last (wsd.embed.pooling)
    pooling: Pooling = setting(
        DEFAULT_POOLING, f"subword pooling, as at inference: {', '.join(POOLINGS)}", commands=_TUNE, choices=None
    )
    window_tokens: int | None = setting(
        None,
        "at most N subword tokens either side of the target",
        commands=_TUNE,
        minimum=0,
        unset="as many as fit",
    )
    markers: bool = setting(False, "put target markers around the target in every text", commands=_TUNE)
    context_vector: str | None = setting(
        None,
        "also train the context vector inference sets beside the target: TOKENS[:LAYERS[:WEIGHT]] as wsd run "
        f"takes it (the default recipe's is {DEFAULT_CONTEXT_VECTOR}), or none",
        commands=_TUNE,
        unset="the target vector alone",
        off=True,
    )
    device: TuneDevice = setting("auto", "where to train (auto: CUDA when present)", commands=_TUNE)
    precision: TunePrecision = setting(
        "auto",
        "auto: on a CPU with native bf16, the faster of fp32 and bf16 autocast, timed on the first batches; "
        "fp32 on other CPUs; bf16 autocast on a GPU that supports it",
        commands=_TUNE,
    )
    portable: bool = setting(
        False,
        "train in the portable arithmetic: the same weights on every x86-64 CPU with AVX2 (a fresh process, CPU, "
        "fp32, two threads; slower)",
        commands=_TUNE,
    )
    validation_fraction: float = setting(
        0.1,
        "share of the lemmas held out for validation and early stopping (a seeded split; 0: none)",
        commands=_TUNE,
    )
    validation_lemmas: tuple[str, ...] = setting(
        (), "hold out exactly these lemmas for validation instead (comma-separated)", commands=_TUNE, metavar="A,B"
    )
    validation_max_pairs: int = setting(
        2000, "at most this many validation pairs (a seeded sample)", commands=_TUNE, minimum=1
    )
    eval_steps: int | None = setting(
        None, "also validate every this many steps", commands=_TUNE, minimum=1, unset="after each epoch only"
    )
    patience: int | None = setting(
        None,
        "stop after this many validations without improvement",
        commands=_TUNE,
        minimum=1,
        unset="never stop early",
    )
    checkpoint_steps: int = setting(
        100,
        "write a checkpoint (OUT/checkpoint, resumed from by the same command) every this many steps",
        commands=_TUNE,
        minimum=1,
    )
    progress: bool = setting(
        True,
        "show a progress bar with the running loss",
        commands=_TUNE,
        section="cli",
        config=False,
        negatable=True,
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "validation_lemmas", tuple(str(x) for x in self.validation_lemmas))
        object.__setattr__(self, "context_vector", off_to_none(self.context_vector))
        hints, declared = _TUNE_HINTS, _TUNE_DECLARED
        for item in fields(self):
            _check_type(item.name, getattr(self, item.name), hints[item.name], declared[item.name].choices)
        if self.batch_uses < 2:
            raise ConfigError(f"tune option batch_uses: a pair needs 2 uses, not {self.batch_uses}")
        for name, option in declared.items():
            value = getattr(self, name)
            if option.minimum is not None and value is not None and value < option.minimum:
                raise ConfigError(f"tune option {name}: must be at least {option.minimum}, not {value}")
            if option.maximum is not None and value is not None and value > option.maximum:
                raise ConfigError(f"tune option {name}: must be at most {option.maximum}, not {value}")
        for name in ("lr", "scale", "margin"):  # NaN and infinity would train a model of NaN
            if not (getattr(self, name) > 0 and math.isfinite(getattr(self, name))):
                raise ConfigError(f"tune option {name}: must be above 0 and finite, not {getattr(self, name)}")
        for name in ("warmup_fraction", "weight_decay", "validation_fraction"):
            if not 0 <= getattr(self, name) < 1:
                raise ConfigError(f"tune option {name}: must be in [0, 1), not {getattr(self, name)}")
        if self.teacher_labels != "all" and self.teacher is None:
            raise ConfigError(
                f"tune option teacher_labels {self.teacher_labels!r}: it needs a teacher (--teacher MODEL)"
            )

    def weight_settings(self) -> dict[str, Any]:
        """The options that decide the weights (:meth:`to_dict` without :data:`PRESENTATION_FIELDS`): what a model
        folder and a checkpoint record, and what a resumed run is compared on.

        Returns
        -------
        dict

        Examples
        --------
        >>> "progress" in TuneOptions().weight_settings()
        False
        """
        return {key: value for key, value in self.to_dict().items() if key not in self.PRESENTATION_FIELDS}

    def encoder_options(self, model: str | None) -> EmbeddingOptions:
        """The options of an encoder that makes the word vectors these options train: ``model`` with the layers,
        pooling, window, context vector and device given here, in fp32 (the student, and the ``teacher``).

        Parameters
        ----------
        model : str or None
            The model (:attr:`model`, :attr:`teacher`).

        Returns
        -------
        EmbeddingOptions

        Examples
        --------
        >>> TuneOptions(layers="last").encoder_options("default").layers
        'last'
        """
        return EmbeddingOptions(
            model=model,
            layers=self.layers,
            pooling=self.pooling,
            window_tokens=self.window_tokens,
            context_vector=self.context_vector,
            device=self.device,
            precision="fp32",
        )


#: The type and the declaration of each field of TuneOptions, by name (what its values are checked against).
_TUNE_HINTS: dict[str, Any] = typing.get_type_hints(TuneOptions)
_TUNE_DECLARED: dict[str, Option] = {option.key: option for option in declared_options(TuneOptions, "tune")}


def _check_type(name: str, value: Any, hint: Any, choices: tuple[Any, ...] | None) -> None:
    """Raise a ConfigError when ``value`` does not fit the field's type (the ``Literal`` choices where the option has
    them, None where the type allows it, numbers, strings, booleans)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        if choices is not None and value not in args:
            raise ConfigError(f"tune option {name}: {value!r} is not one of {', '.join(map(str, args))}")
        if choices is None and not isinstance(value, str):
            raise ConfigError(f"tune option {name}: {value!r} is not a str")
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


#: Every option, in the order ``wsd config show``, ``--help`` and the docs reference list them: the fields of the
#: classes above joined with the options :mod:`wsd.schema` declares (inputs, ``[evaluation]``, ``[tune]``, flags).
OPTION_LIST: tuple[Option, ...] = (
    *SCAN_INPUTS,
    *declared_options(ScanSettings, "scan"),
    *declared_options(EmbeddingOptions, "embedding"),
    *SENSES_INPUTS,
    *declared_options(SenseOptions, "senses"),
    *EVALUATION_INPUTS,
    *declared_options(EvaluationOptions, "evaluation"),
    *CHANGE_INPUTS,
    *declared_options(ChangeOptions, "change"),
    *OUTPUT_DESTINATION,
    *(option for option in declared_options(ExecutionOptions, "execution") if option.section == "output"),
    *OUTPUT_DESCRIPTION,
    *(option for option in declared_options(ExecutionOptions, "execution") if option.section == "execution"),
    *TUNE_INPUTS,
    *declared_options(TuneOptions, "tune"),
    *FLAG_OPTIONS,
)
#: ``name -> Option``.
OPTIONS: dict[str, Option] = {option.name: option for option in OPTION_LIST}
#: The settings of the configuration file, in order.
SETTINGS: tuple[Option, ...] = tuple(option for option in OPTION_LIST if option.config)
#: The commands with a parser built from the options, in the order ``wsd --help`` lists them.
COMMANDS: tuple[str, ...] = tuple(dict.fromkeys(command for option in OPTION_LIST for command in option.commands))
