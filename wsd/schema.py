"""The vocabulary of the options: their choices, their defaults, how one is declared and how flags and docs are made.

An option is declared once. A setting that is a field of an options object (:mod:`wsd.options`: ``ScanSettings``,
``EmbeddingOptions``, ``SenseOptions``, ``EvaluationOptions``, ``ChangeOptions``, ``ExecutionOptions``,
``TuneOptions``) is declared as that field, with :func:`setting`: its annotation gives the type and the choices (a
``Literal``), the field its default, the metadata its help, its commands and its flags, as transformers'
``HfArgumentParser`` reads ``TrainingArguments``. The options that are no field of such an object (a command's
inputs, such as the corpus, the dataset or the training sources, and the flags of ``report``, ``predict``,
``score``, ``demo``) are declared here, as :class:`Option` values. :data:`wsd.options.OPTION_LIST` joins them all;
from it come the flags of every ``wsd`` command (:func:`add_options`), the TOML configuration with ``--set`` and
``wsd config show`` (:mod:`wsd.config`) and the docs reference (:func:`reference_markdown`). This module imports
nothing heavy (no pandas, torch or scikit-learn, nothing else of wsd), so that ``wsd --help`` stays fast.

An :class:`Option` is either a setting of the configuration (``config=True``: ``[section] key = ...`` in a TOML
file, ``--set section.key=VALUE``, and a flag where it has one) or a flag only (``config=False``: the options of
``report``, ``predict``, ``score`` and ``demo``, and ``--overwrite``, ``--no-progress``, ``--config``, ``--set``).
A choice is a ``Literal``; its values are read from the type (:data:`RUNTIMES` is ``get_args(Runtime)``). The
default is filled into the help text by :meth:`Option.help_text`, never written by hand.
"""

from __future__ import annotations

import argparse
import math
import os
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, Union, get_args, get_origin

# ------------------------------------------------------------------------------------------- the choices
Lemmatizer = Literal["none", "simplemma"]
ContextKind = Literal["sentence", "window"]
#: What a scan does with likely proper names (uses of a lower-case target capitalised mid-sentence, with or without
#: a lemmatizer, :mod:`wsd.corpus.proper`): keep them and warn, keep them, or drop them.
ProperNames = Literal["warn", "keep", "drop"]
Runtime = Literal["auto", "torch", "openvino"]
Precision = Literal["auto", "fp32", "bf16", "fp16", "int8"]
Pooling = Literal["mean", "first", "last", "first-last", "sum", "max"]
NamedLayers = Literal["last", "sum-last-4", "mean-last-4", "concat-last-4", "mean-all", "static"]
Recipe = Literal["default", "textbook", "sense-minilm", "sense-mpnet"]
ClusteringMethod = Literal["kmeans", "agglomerative", "ward", "hdbscan", "gmm", "spectral"]
BaselineMethod = Literal["one-sense", "one-per-instance", "random"]
Selection = Literal["silhouette", "calinski_harabasz", "bic", "native"]
Noise = Literal["nearest", "keep"]
Dataset = Literal["semeval2013", "semeval2010", "russe2018", "generic", "wug"]
Measure = Literal["jsd", "apd", "prt"]
RankBy = Literal["lower", "shrunk", "score"]
VectorDtype = Literal["float16", "float32"]
Projection = Literal["pca", "tsne", "umap"]
ScoreFormat = Literal["table", "json"]
#: How ``wsd predict --examples`` labels an occurrence: local-mean k-NN or sense centroids (wsd.senses.nearest).
FewShotRule = Literal["knn", "centroid"]

LEMMATIZERS: tuple[str, ...] = get_args(Lemmatizer)
CONTEXTS: tuple[str, ...] = get_args(ContextKind)
PROPER_MODES: tuple[str, ...] = get_args(ProperNames)
#: Runtimes of the forward pass; ``auto`` is OpenVINO where it is installed and the device is the CPU.
RUNTIMES: tuple[str, ...] = get_args(Runtime)
PRECISIONS: tuple[str, ...] = get_args(Precision)
POOLINGS: tuple[str, ...] = get_args(Pooling)
NAMED_SPECS: tuple[str, ...] = get_args(NamedLayers)
RECIPE_NAMES: tuple[str, ...] = get_args(Recipe)
CLUSTERING_METHODS: tuple[str, ...] = get_args(ClusteringMethod)
BASELINE_METHODS: tuple[str, ...] = get_args(BaselineMethod)
METHODS: tuple[str, ...] = CLUSTERING_METHODS + BASELINE_METHODS
#: The criteria that choose the number of senses (``k="auto"``), :mod:`wsd.senses.selection`.
SELECTIONS: tuple[str, ...] = get_args(Selection)
NOISES: tuple[str, ...] = get_args(Noise)
#: The labelled datasets of ``wsd evaluate`` (as :func:`wsd.evaluate.datasets.available_datasets`).
DATASETS: tuple[str, ...] = get_args(Dataset)
#: The datasets ``wsd score`` scores key files of (the WUG has no key files).
KEY_DATASETS: tuple[str, ...] = tuple(name for name in DATASETS if name != "wug")
#: Datasets of labelled use pairs, scored on the vectors alone (WiC, MCL-WiC, AM2iCo: :mod:`wsd.workflows.wic`).
PairDataset = Literal["wic"]
PAIR_DATASETS: tuple[str, ...] = get_args(PairDataset)
#: What ``wsd evaluate --dataset`` takes: the sense datasets and the pair datasets.
EVALUATE_DATASETS: tuple[str, ...] = DATASETS + PAIR_DATASETS
#: The change measures, in the order every table shows them.
MEASURES: tuple[str, ...] = get_args(Measure)
#: How the change ranking is ordered: by the lower end of the score's bootstrap interval, by the score shrunk toward
#: the mean by its uncertainty (empirical Bayes), or by the point score.
RANK_BY: tuple[str, ...] = get_args(RankBy)
VECTOR_DTYPES: tuple[str, ...] = get_args(VectorDtype)
PROJECTIONS: tuple[str, ...] = get_args(Projection)
FEW_SHOT_RULES: tuple[str, ...] = get_args(FewShotRule)

# ------------------------------------------------------------------------------------------- "off"
#: The words that turn an option off (``scan.lemmatizer``, ``embedding.context_vector``): ``"none"`` is the one
#: spelling written in a configuration, ``wsd config show`` and the help; ``"off"``, ``"no"`` and ``""`` (any case)
#: are read as it, so older configurations and command lines keep working. In the Python API, off is ``None``.
OFF_WORDS: tuple[str, ...] = ("none", "off", "no", "")


def is_off(value: Any) -> bool:
    """Whether a value means "off": ``None`` or one of :data:`OFF_WORDS` (any case, spaces around ignored).

    Parameters
    ----------
    value : object
        An option's value (of any type: only ``None`` and strings can mean off).

    Returns
    -------
    bool
        True for ``None`` and for the off words.

    Examples
    --------
    >>> [is_off(value) for value in (None, "none", "Off", "no", "", "simplemma")]
    [True, True, True, True, True, False]
    """
    return value is None or (isinstance(value, str) and value.strip().lower() in OFF_WORDS)


def off_to_none(value: Any) -> Any:
    """``None`` for a value that means off (:func:`is_off`), else the value: the Python API's spelling.

    Parameters
    ----------
    value : object
        An option's value, as a configuration or a command line spells it.

    Returns
    -------
    object
        ``None``, or ``value`` unchanged.

    Examples
    --------
    >>> off_to_none("off") is None, off_to_none("20:last:0.5")
    (True, '20:last:0.5')
    """
    return None if is_off(value) else value


def off_to_word(value: Any) -> Any:
    """``"none"`` for a string that means off (:func:`is_off`), else the value: the configuration's spelling.

    ``None`` stays ``None`` (unset, in a configuration).

    Parameters
    ----------
    value : object
        An option's value, as the Python API spells it.

    Returns
    -------
    object
        ``"none"``, or ``value`` unchanged.

    Examples
    --------
    >>> off_to_word("no"), off_to_word(None), off_to_word("simplemma")
    ('none', None, 'simplemma')
    """
    return "none" if value is not None and is_off(value) else value


# ------------------------------------------------------------------------------------------- the defaults
DEFAULT_LAYERS = "sum-last-4"
DEFAULT_POOLING: Pooling = "mean"
#: The default recipe's context vector (wsd.senses.recipes), which wsd embed, run and evaluate store by default.
DEFAULT_CONTEXT_VECTOR = "20:last:0.5"
#: OpenVINO on a CPU, PyTorch on a GPU (issue 24: the fastest path is the default; wsd.embed.ov_runtime).
DEFAULT_RUNTIME: Runtime = "auto"
DEFAULT_SHARD_BYTES = 64 * 2**20
#: Occurrences per stored part of a run, the unit of resumption (``--chunk-size``): an interrupted run keeps every
#: finished part. 1024 is 32 forward batches on a CPU (8192 was a whole SOTU-sized run, so an interruption kept
#: nothing). Measured on SOTU's five targets, 6,603 uses
#: (experiments/results/bench_chunk_size/bench_chunk_size-sotu5.md): 1024
#: takes 1.15x the wall time of 8192 (windows are length-sorted within a part, so smaller parts pad more) and an
#: interruption at half the run keeps 32% of the occurrences; 256 takes 1.31x.
DEFAULT_CHUNK_SIZE = 1024
#: THE default change score: what ``ranking`` is sorted by, what ``wsd change`` and ``wsd evaluate --dataset
#: wug`` report as ``score`` / ``graded_spearman``. PRT: the best measured on DWUG EN with the default vectors
#: (issue 15), kept after the selection protocol of experiments/results/lscd/lscd.md (no alternative beat it).
DEFAULT_MEASURE: Measure = "prt"
#: The WUG binary rule's defaults (DWUG EN: a sense with at most 1 use in one period and at least 5 in the other).
DEFAULT_BINARY_K = 1
DEFAULT_BINARY_N = 5
#: The fewest uses (with a sense, where senses are given) a slice needs for a pair to be measured. 20, not 10
#: (issue 25): on 10 to 15 uses per slice a DWUG EN word climbs 17 to 20 places of 46 by PRT, 15 to 17 by the
#: shrunk ranking, on noise alone (experiments/results/prt_bias/prt_bias.md); no bias-aware order ranks the WUG sets
#: as well
#: (lscd_rank_by.md); and at 10 the State of the Union's *interest* ranked first on 15 vs 16 uses. A small corpus
#: lowers it with ``--min-uses``. WUG evaluation compares every word whatever its counts (the gold scores each).
DEFAULT_MIN_USES = 20
DEFAULT_RANK_BY: RankBy = "shrunk"
DEFAULT_PROJECTION: Projection = "pca"
DEFAULT_MAX_POINTS = 2000
DEFAULT_REPORT_EXAMPLES = 5
#: Few-shot disambiguation (``wsd predict --examples``, ``SenseTagger.from_examples``): the rule, the examples per
#: sense the k-NN rule averages and the least lead of the best sense (else the most frequent sense). Chosen among
#: k = 1, 3, 5, 10, centroids and margins 0 to 0.04 on half of SemEval-2010's lemmas (80/20 splits, 5 seeds); on the
#: other half: accuracy 81.5%, 1-NN 79.5%, most frequent sense 63.0% (experiments/results/few_shot/few_shot.md).
#: Every margin
#: above 0 lost accuracy.
DEFAULT_FEW_SHOT_RULE: FewShotRule = "knn"
DEFAULT_FEW_SHOT_NEIGHBORS = 3
DEFAULT_FEW_SHOT_MARGIN = 0.0
#: The vectors the examples are compared by: the target's vector beside the default recipe's context vector.
DEFAULT_FEW_SHOT_CONTEXT_VECTOR: str | None = DEFAULT_CONTEXT_VECTOR
#: Naming uses from a sense inventory (``--inventory``, :mod:`wsd.senses.naming`): the least cosine of a use's
#: nearest synset, and the least lead of its score over the runner-up's, for the use to be named (else unnamed).
#: By default none: every use takes its nearest synset, because on SemEval-2013's lemmas every threshold cost
#: accuracy against WordNet's first sense (:data:`wsd.senses.naming.DEFAULT_REPRESENTATION` tells the choice and
#: what a lead buys).
DEFAULT_NAME_MIN_COSINE = -1.0
DEFAULT_NAME_MIN_LEAD = 0.0

# ------------------------------------------------------------------------------------------- the data folder
#: The environment variable naming the data folder, laid out as ../shared/datasets (``--data-dir`` wins): where
#: ``wsd evaluate`` finds the dataset ``--dataset`` names, and ``wsd tune --recipe`` its training sources.
DATA_DIR_VARIABLE = "WSD_DATA_DIR"


def data_location(
    data: str | os.PathLike[str] | None = None, data_dir: str | os.PathLike[str] | None = None
) -> str | None:
    """Where a dataset is read from: ``data`` (``--data``), else the data folder ``data_dir`` (``--data-dir``), else
    ``$WSD_DATA_DIR``; None when none is given.

    Parameters
    ----------
    data : path, optional
        The dataset's own folder or file.
    data_dir : path, optional
        The folder holding the datasets.

    Returns
    -------
    str or None

    Examples
    --------
    >>> data_location("labelled.tsv", "datasets"), data_location(None, "datasets")
    ('labelled.tsv', 'datasets')
    """
    for given in (data, data_dir, os.environ.get(DATA_DIR_VARIABLE)):
        if given is not None and os.fspath(given) != "":
            return os.fspath(given)
    return None


#: The commands that take ``--config``.
CONFIG_COMMANDS = ("embed", "cluster", "run", "evaluate", "change", "tune")

#: The type of a value: ``k`` is a whole number or ``"auto"``, ``k_range`` two whole numbers, ``temperature`` a
#: number or ``"auto"``.
Kind = Literal["str", "int", "float", "bool", "k", "k_range", "temperature", "str_list"]


@dataclass(frozen=True)
class Option:
    """One option, declared once.

    Parameters
    ----------
    name : str
        ``section.key``: the TOML name of a setting (``[section] key = ...``); for a flag-only option the command
        (or ``cli`` for options many commands share) and the key.
    kind : str
        The type of its value (:data:`Kind`).
    default : object
        The default; None means unset (what unset means is ``unset``).
    commands : tuple of str
        The commands that use it.
    help : str
        What it does, one line, without the default (:meth:`help_text` adds it).
    choices : tuple, optional
        The allowed values (from a ``Literal``).
    minimum, maximum : int or float, optional
        The smallest and largest allowed number (a ``float`` option with either must also be finite).
    path : bool
        A file or folder (written as an absolute path into ``config.toml``).
    config : bool
        A setting of the configuration file (else a flag only).
    flags : tuple of str, optional
        Its flags; None: ``--key`` with dashes; ``()``: none (a file-only setting).
    flag_values : mapping, optional
        ``flag -> value`` for a choice whose flags each set one value and take none (``--no-proper`` sets
        ``drop``); its ``flags`` are these flags.
    flag_commands : tuple of str, optional
        The commands that have the flag (None: all of ``commands``).
    dest : str, optional
        The attribute of the parsed arguments (None: the key).
    metavar : str, optional
        The placeholder of the value in ``--help``.
    unset : str, optional
        What the default means where it is None (``"32 on a CPU, 256 on a GPU"``), for the help.
    negatable : bool
        A boolean flag with a ``--no-`` form.
    repeat : bool
        A flag given once per value (``--experiments A --experiments B``).
    required : tuple of str
        The commands where the flag must be given.
    help_for : mapping, optional
        ``command -> help`` where a command says it differently.
    unset_for : mapping, optional
        ``command -> unset`` where unset means something else for a command.
    off : bool
        ``"none"`` turns it off, and the other words of :data:`OFF_WORDS` are read as ``"none"``.
    """

    name: str
    kind: Kind
    default: Any
    commands: tuple[str, ...]
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    path: bool = False
    config: bool = True
    flags: tuple[str, ...] | None = None
    flag_values: Mapping[str, Any] = field(default_factory=dict)
    flag_commands: tuple[str, ...] | None = None
    dest: str | None = None
    metavar: str | None = None
    unset: str | None = None
    negatable: bool = False
    repeat: bool = False
    required: tuple[str, ...] = ()
    help_for: Mapping[str, str] = field(default_factory=dict)
    unset_for: Mapping[str, str] = field(default_factory=dict)
    off: bool = False

    @property
    def section(self) -> str:
        """The part of the name before the dot (a section of the configuration for a setting).

        Returns
        -------
        str
        """
        return self.name.partition(".")[0]

    @property
    def key(self) -> str:
        """The part of the name after the dot.

        Returns
        -------
        str
        """
        return self.name.partition(".")[2]

    @property
    def option_strings(self) -> tuple[str, ...]:
        """The flags (``--window-tokens``); empty for a setting of the file only.

        Returns
        -------
        tuple of str

        Examples
        --------
        >>> SCAN_INPUTS[0].option_strings
        ('--corpus',)
        """
        return ("--" + self.key.replace("_", "-"),) if self.flags is None else self.flags

    @property
    def attribute(self) -> str:
        """The attribute of the parsed command line that holds the value.

        Returns
        -------
        str
        """
        return self.dest or self.key

    def takes_flag(self, command: str) -> bool:
        """Whether ``command`` has a flag for this option.

        Parameters
        ----------
        command : str
            A command name (``embed``, ``config show``, ...).

        Returns
        -------
        bool
        """
        return bool(self.option_strings) and command in (self.flag_commands or self.commands)

    def help_text(self, command: str | None = None, unset_word: str = "default") -> str:
        """The help, with the default filled in: ``(default: 1024)``, or what unset means.

        Parameters
        ----------
        command : str, optional
            The command whose wording is wanted (``help_for``, ``unset_for``).
        unset_word : str
            The word before what unset means (``wsd config show`` says ``unset``).

        Returns
        -------
        str

        Examples
        --------
        >>> next(option for option in FLAG_OPTIONS if option.name == "score.format").help_text()
        'output format (default: table)'
        """
        text = self.help_for.get(command, self.help) if command else self.help
        unset = self.unset_for.get(command, self.unset) if command else self.unset
        if unset is not None:
            return f"{text} ({unset_word}: {unset})"
        if self.default is None or self.default is False or self.default == [] or self.required:
            return text
        return f"{text} (default: {self.default})"


#: The commands that scan a corpus and store a run.
SCAN_COMMANDS = ("embed", "run")
# wsd tune (the types of wsd.options.TuneOptions)
TuneLoss = Literal["cosent", "contrastive", "auto"]
TuneDevice = Literal["auto", "cpu", "cuda"]
TunePrecision = Literal["auto", "fp32", "bf16"]
TuneTeacherLabels = Literal["all", "unlabelled"]
#: The named tuning recipes (``wsd tune --recipe``; their options in :mod:`wsd.tune.recipes`).
TuneRecipeName = Literal["sense-minilm", "sense-mpnet", "sense-multilingual"]
TUNE_RECIPES: tuple[str, ...] = get_args(TuneRecipeName)
#: The prefix of a model argument that names a recipe's model (``wsd:sense-minilm``; :mod:`wsd.embed.built_models`).
TUNE_MODEL_PREFIX = "wsd:"
#: Each recipe's version: raised whenever it builds another model (a model an older version built is refused).
TUNE_RECIPE_VERSIONS: dict[str, int] = {"sense-minilm": 2, "sense-mpnet": 1, "sense-multilingual": 1}
#: The sense recipe (:data:`RECIPE_NAMES`) each recipe's model ships with, or None (:mod:`wsd.io.recipe_stamp`).
TUNE_RECIPE_SENSES: dict[str, str | None] = {
    "sense-minilm": "sense-minilm",
    "sense-mpnet": "sense-mpnet",
    "sense-multilingual": None,
}
#: The recipes that tune the base the user names (``--model BASE``), not the bundled model.
TUNE_RECIPES_ON_BASE: frozenset[str] = frozenset({"sense-mpnet", "sense-multilingual"})
_TUNE = ("tune",)
#: The largest seed: numpy's legacy ``RandomState`` (and so scikit-learn's ``random_state``) takes 0 to 2**32 - 1.
SEED_MAX = 2**32 - 1
#: The most epochs `wsd tune` takes (each epoch's batch plan is made before training starts).
MAX_EPOCHS = 1000
_OVERWRITE = "write where wsd output of another configuration or other files are (only wsd's files are replaced)"


def _o(name: str, kind: Kind, default: Any, commands: tuple[str, ...], help: str, **extra: Any) -> Option:
    return Option(name, kind, default, commands, help, **extra)


#: The ``[scan]`` settings that say what is scanned (its other settings: :class:`wsd.options.ScanSettings`).
SCAN_INPUTS: tuple[Option, ...] = (
    _o(
        "scan.corpus",
        "str",
        None,
        SCAN_COMMANDS,
        "corpus file or folder: .txt/.txt.gz (one document per line), .jsonl (text field), "
        ".csv/.tsv/.parquet (text column)",
        path=True,
    ),
    _o(
        "scan.targets",
        "str",
        None,
        SCAN_COMMANDS,
        "comma-separated target words, each optionally with forms after colons "
        "(mouse:mice,bank,шагать), or a file with one such item per line",
    ),
)

#: The ``[senses]`` setting of ``wsd cluster``'s input (the others: :class:`wsd.options.SenseOptions`).
SENSES_INPUTS: tuple[Option, ...] = (
    _o("senses.run", "str", None, ("cluster",), "run directory written by wsd embed", path=True),
)

#: The ``[evaluation]`` settings that say what is scored (the others: :class:`wsd.options.EvaluationOptions`).
EVALUATION_INPUTS: tuple[Option, ...] = (
    _o("evaluation.gold", "str", None, ("run",), "gold labels (generic labelled format, .tsv or .jsonl)", path=True),
    _o(
        "evaluation.dataset",
        "str",
        "semeval2013",
        ("evaluate",),
        "dataset, or the config file's; wug: a Word Usage Graph folder (--data); wic: a WiC, MCL-WiC or AM2iCo file",
        choices=EVALUATE_DATASETS,
    ),
    _o(
        "evaluation.data",
        "str",
        None,
        ("evaluate",),
        "dataset folder or file (generic: a .tsv or .jsonl file)",
        path=True,
    ),
)

#: The ``[change]`` settings of ``wsd change``'s inputs (the others: :class:`wsd.options.ChangeOptions`).
CHANGE_INPUTS: tuple[Option, ...] = (
    _o(
        "change.run",
        "str",
        None,
        ("change",),
        "the output folder of wsd run, its run/, or a wsd embed run (its senses are found beside it)",
        path=True,
        dest="change_run",
    ),
    _o(
        "change.senses",
        "str",
        None,
        ("change",),
        "senses folder of the run",
        path=True,
        dest="change_senses",
        unset="RUN/senses, else OUT/senses of a wsd run output",
    ),
)

#: The ``[output]`` settings of where results go (storage: :class:`wsd.options.ExecutionOptions`).
OUTPUT_DESTINATION: tuple[Option, ...] = (
    _o(
        "output.out",
        "str",
        None,
        CONFIG_COMMANDS,
        "output folder",
        path=True,
        help_for={
            "embed": "run directory to write (or resume)",
            "evaluate": "output folder for metrics.json, keys and per-target CSV",
            "run": "output folder (run/, senses/, metrics.json, config.toml, report)",
            "tune": "the model folder to write (or resume): weights, tokenizer, model card, wsd_tune.json "
            "(a recipe that averages trains in OUT.trained beside it)",
        },
        unset_for={"cluster": "RUN/senses", "change": "RUN/change"},
    ),
    _o("output.report", "bool", False, ("run", "evaluate"), "also write report.html, report.md and the plots"),
)

#: The ``[output]`` settings of how ``wsd cluster`` describes the senses.
OUTPUT_DESCRIPTION: tuple[Option, ...] = (
    _o("output.examples", "int", 5, ("cluster",), "example occurrences per sense", minimum=1),
    _o("output.keywords", "int", 10, ("cluster",), "keywords per sense", minimum=1),
    _o(
        "output.inventory",
        "str",
        None,
        ("cluster", "run", "change"),
        "name the senses from a sense inventory, wordnet:DIR (a WordNet 3.0 database folder; English): each use its "
        "nearest synset of the target's lemma (or unnamed), each sense its mix of names, mixtures flagged",
        metavar="wordnet:DIR",
        unset="no names",
    ),
    _o(
        "output.name_min_lead",
        "float",
        DEFAULT_NAME_MIN_LEAD,
        ("cluster", "run", "change"),
        "with --inventory: name a use only where its nearest synset's score leads the runner-up's by at least this "
        "(a lemma of one synset: its cosine), else leave it unnamed; higher: fewer, surer names",
        minimum=0,
        metavar="LEAD",
    ),
    _o(
        "output.name_min_cosine",
        "float",
        DEFAULT_NAME_MIN_COSINE,
        ("cluster", "run", "change"),
        "with --inventory: name a use only where the cosine of its nearest synset is at least this (-1 to 1), "
        "else leave it unnamed",
        minimum=-1,
        maximum=1,
        metavar="COSINE",
    ),
)

#: The ``[tune]`` settings that say what is trained on (or averaged): the training sources, the recipe, the lemmas
#: left out, the models averaged. How it is trained: :class:`wsd.options.TuneOptions`.
TUNE_INPUTS: tuple[Option, ...] = (
    _o(
        "tune.train",
        "str_list",
        None,
        _TUNE,
        "training source KIND:PATH (repeatable); kinds: wug:DIR (WUG judgments), wic:FILE (WiC, XL-WiC, MCL-WiC "
        "with its gold beside), semeval2013:DIR, semeval2010:DIR, russe2018:DIR, generic:FILE, wordnet:DIR, "
        "uses:FILE (unlabelled uses in the generic format, labelled by --teacher)",
        metavar="KIND:PATH",
        repeat=True,
    ),
    _o(
        "tune.recipe",
        "str",
        None,
        _TUNE,
        "build a named tuned encoder into wsd's model cache ($WSD_MODELS_DIR, default ~/.cache/wsd/models), "
        "which --model wsd:NAME then loads everywhere: sense-minilm (the bundled MiniLM tuned on the WiC and "
        "MCL-WiC en-en training pairs, in OUT.trained, then averaged 0.25 untuned + 0.75 tuned into OUT; it ships "
        "the sense recipe of its name), sense-mpnet (the same for --model BASE, all-mpnet-base-v2, with its own "
        "sense recipe) or sense-multilingual (--model BASE tuned "
        "on MCL-WiC, AM2iCo, NorDiaChange, RuSemShift and WiC); the data found under --data-dir or "
        "$WSD_DATA_DIR (laid out as ../shared/datasets) or given with --train KIND:PATH; the recipe fixes its "
        "training options",
        choices=TUNE_RECIPES,
        unset="none",
    ),
    _o(
        "tune.exclude",
        "str_list",
        None,
        _TUNE,
        "leave every lemma of this dataset out of training (repeatable), e.g. semeval2013:../shared/datasets",
        metavar="KIND:PATH",
        repeat=True,
        unset="none",
    ),
    _o(
        "tune.exclude_lemmas",
        "str_list",
        None,
        _TUNE,
        "leave these lemmas out of training: comma-separated, or @FILE with one lemma per line "
        "(compared without POS tag and case: part_nn, part.n and Part are one lemma)",
        metavar="A,B,C|@FILE",
        unset="none",
    ),
    _o(
        "tune.average",
        "str_list",
        None,
        _TUNE,
        "instead of training, average the weights of these models into --out (repeatable, at least two, one "
        "architecture and vocabulary): several tuned runs make a model soup; the base model (the bundled one is "
        "`default`) and a tuned run make WiSE-FT's interpolation; the model card and the leakage guard keep "
        "every lemma they were trained on",
        metavar="MODEL",
        repeat=True,
        unset="train",
    ),
    _o(
        "tune.average_weights",
        "str_list",
        None,
        _TUNE,
        "the weights of the --average models, comma-separated, in their order (normalised to sum to 1), e.g. 0.5,0.5",
        metavar="W,W,...",
        unset="equal weights",
    ),
)

#: The options that are flags only (``config=False``): of ``report``, ``predict``, ``score``, ``demo``, ``config``
#: and of every command.
FLAG_OPTIONS: tuple[Option, ...] = (
    _o(
        "evaluate.data_dir",
        "str",
        None,
        ("evaluate", "tune"),
        "folder holding the datasets, laid out as ../shared/datasets: the one --dataset names (evaluate), the "
        "ones --recipe trains on (tune)",
        config=False,
        unset="$WSD_DATA_DIR",
    ),
    _o(
        "predict.senses",
        "str",
        None,
        ("predict",),
        "folder written by wsd cluster (or give --examples)",
        config=False,
    ),
    _o(
        "predict.run",
        "str",
        None,
        ("predict",),
        "run directory written by wsd embed (or give --text)",
        config=False,
    ),
    _o(
        "predict.text",
        "str",
        None,
        ("predict",),
        "a text to tag instead of a run (repeatable): prints each occurrence of --target with its sense, "
        "probability and keywords; at most 100,000 characters in all (more: wsd embed them, then --run)",
        config=False,
        repeat=True,
        dest="texts",
    ),
    _o(
        "predict.target",
        "str",
        None,
        ("predict",),
        "the target word to find in each --text",
        config=False,
        unset="the senses' only target",
    ),
    _o(
        "predict.out",
        "str",
        None,
        ("predict",),
        "output Parquet file; with --examples the output folder (predicted.parquet, metrics.json)",
        config=False,
        unset="RUN/predicted.parquet",
    ),
    _o(
        "predict.skip_unknown",
        "bool",
        False,
        ("predict",),
        "label targets the model has not seen -1 instead of failing",
        config=False,
    ),
    _o(
        "predict.examples",
        "str",
        None,
        ("predict",),
        "labelled examples instead of --senses: a TSV or JSON Lines file with id, target, text, start, end, "
        "sense, or the --out of an earlier --examples run (its examples, embedded and saved in DIR/model); each "
        "occurrence of --data gets the sense of its nearest examples",
        config=False,
        metavar="FILE",
    ),
    _o(
        "predict.data",
        "str",
        None,
        ("predict",),
        "the occurrences to label with --examples, in the same format; scored (accuracy, macro F1) when it has a "
        "sense column",
        config=False,
        metavar="FILE",
    ),
    _o(
        "predict.rule",
        "str",
        DEFAULT_FEW_SHOT_RULE,
        ("predict",),
        "how --examples label: knn = each sense's --neighbors most similar examples, centroid = the sense's mean",
        choices=FEW_SHOT_RULES,
        config=False,
    ),
    _o(
        "predict.neighbors",
        "int",
        DEFAULT_FEW_SHOT_NEIGHBORS,
        ("predict",),
        "examples per sense the knn rule averages (1: the nearest example)",
        minimum=1,
        config=False,
    ),
    _o(
        "predict.margin",
        "float",
        DEFAULT_FEW_SHOT_MARGIN,
        ("predict",),
        "the least lead (cosine) of the best sense over the second; below it the examples' most frequent sense",
        config=False,
    ),
    _o(
        "predict.model",
        "str",
        None,
        ("predict",),
        "encoder of --examples: a model folder, a Hub name or wsd:NAME (as wsd embed --model)",
        config=False,
        unset="the bundled model",
    ),
    _o("score.dataset", "str", None, ("score",), "metrics", choices=KEY_DATASETS, config=False, required=("score",)),
    _o("score.gold", "str", None, ("score",), "gold key file", config=False, required=("score",)),
    _o("score.system", "str", None, ("score",), "system key file", config=False, required=("score",)),
    _o("score.format", "str", "table", ("score",), "output format", choices=get_args(ScoreFormat), config=False),
    _o(
        "report.run",
        "str",
        None,
        ("report",),
        "output folder (of wsd run, demo, evaluate; or its run/, a wsd embed run, a change folder), or "
        "experiment results",
        config=False,
        metavar="DIR",
        required=("report",),
    ),
    _o(
        "report.senses",
        "str",
        None,
        ("report",),
        "senses folder of the run",
        config=False,
        metavar="DIR",
        dest="report_senses",
        unset="found beside the run: RUN/senses or OUT/senses",
    ),
    _o(
        "report.change",
        "str",
        None,
        ("report",),
        "change folder to draw (wsd change)",
        config=False,
        metavar="DIR",
        dest="report_change",
        unset="found beside the run, where there is one",
    ),
    _o(
        "report.out",
        "str",
        None,
        ("report",),
        "where to write",
        config=False,
        metavar="DIR",
        unset="the --run output folder (a change folder from elsewhere: that folder); required for experiment results",
    ),
    _o(
        "report.projection",
        "str",
        DEFAULT_PROJECTION,
        ("report",),
        "sense-map projection (umap needs umap-learn)",
        choices=PROJECTIONS,
        config=False,
    ),
    _o(
        "report.max_points",
        "int",
        DEFAULT_MAX_POINTS,
        ("report",),
        "occurrences drawn per map, a seeded sample beyond",
        minimum=1,
        config=False,
    ),
    _o(
        "report.examples",
        "int",
        DEFAULT_REPORT_EXAMPLES,
        ("report",),
        "example contexts per sense card, 1-5",
        choices=tuple(range(1, 6)),
        metavar="N",
        config=False,
    ),
    _o(
        "report.experiments",
        "str_list",
        None,
        ("report",),
        "also plot these experiment results (repeatable)",
        metavar="PATH",
        repeat=True,
        config=False,
    ),
    _o(
        "report.seed",
        "int",
        0,
        ("report",),
        "random state of the map sample and t-SNE",
        config=False,
        minimum=0,
        maximum=SEED_MAX,
    ),
    _o("report.title", "str", None, ("report",), "the report's title", config=False),
    _o("demo.out", "str", None, ("demo",), "output directory", config=False, required=("demo",)),
    _o(
        "demo.data",
        "str",
        None,
        ("demo",),
        "demo data folder",
        config=False,
        unset="the bundled demo corpus, wsd/demo_data",
    ),
    _o(
        "config.command",
        "str",
        None,
        ("config show", "config validate"),
        "only the settings it uses",
        choices=CONFIG_COMMANDS,
        config=False,
        help_for={"config validate": "also resolve it for COMMAND"},
    ),
    _o(
        "config.file",
        "str",
        None,
        ("config validate",),
        "the TOML (or YAML) file",
        config=False,
        flags=("file",),
    ),
    _o(
        "embed.recalibrate",
        "bool",
        False,
        ("embed", "run"),
        "measure again which runtime and precision auto runs the model with on this machine (only with "
        "--runtime auto and --precision auto)",
        config=False,
    ),
    _o(
        "cli.overwrite",
        "bool",
        False,
        (*CONFIG_COMMANDS, "predict", "report", "demo"),
        _OVERWRITE,
        config=False,
        help_for={
            "predict": "replace an --out file that wsd did not write",
            "report": "write into an --out folder holding other files",
        },
    ),
    _o(
        "cli.no_progress",
        "bool",
        False,
        ("embed", "cluster", "run", "evaluate", "demo"),
        "no progress bar",
        config=False,
    ),
    _o(
        "cli.config",
        "str",
        None,
        CONFIG_COMMANDS,
        "TOML file of settings ([scan], [embedding], [senses], ...)",
        config=False,
        metavar="FILE",
    ),
    _o(
        "cli.set",
        "str_list",
        [],
        CONFIG_COMMANDS,
        "override one setting, e.g. --set senses.method=kmeans (a TOML value; repeatable)",
        config=False,
        dest="overrides",
        metavar="SECTION.KEY=VALUE",
        repeat=True,
    ),
)

#: The argparse group each section's flags are listed under (others: the command's own options).
GROUPS = {
    "scan": "scan",
    "embedding": "encoder",
    "senses": "sense induction (unset options come from --recipe)",
    "change": "change across slices (see the docs page Corpus analysis, docs/change.md)",
    "execution": "scale-out (Dask)",
    "cli.config": "configuration (precedence: defaults < --config < options < --set)",
    "cli.set": "configuration (precedence: defaults < --config < options < --set)",
}


# ------------------------------------------------------------------------------------------- options as fields
#: The key of a dataclass field's ``metadata`` that makes the field an option (:func:`setting`).
OPTION_METADATA = "wsd.option"


def setting(default: Any, help: str, *, commands: tuple[str, ...], **extra: Any) -> Any:
    """Declare a field of an options dataclass (:mod:`wsd.options`) as a setting of the configuration.

    The field is the one declaration of the option: its annotation gives the type (a ``Literal`` gives the
    choices, ``X | None`` an unset default), ``default`` the default, and ``help``, ``commands`` and ``extra``
    the rest of the :class:`Option` (:func:`declared_options` reads them back). So a field added to
    :class:`wsd.options.ChangeOptions` is a flag of its commands, a key of ``[change]``, a line of
    ``wsd config show`` and a row of the docs reference at once. This is how transformers'
    ``HfArgumentParser`` reads ``TrainingArguments``.

    Parameters
    ----------
    default : object
        The default (a tuple for a list: the dataclasses are frozen); None: unset.
    help : str
        What it does, one line, without the default (:meth:`Option.help_text` adds it).
    commands : tuple of str
        The commands that use it.
    **extra
        Any other field of :class:`Option` (``minimum``, ``flags``, ``unset``, ...); ``section`` where the
        setting is not of the class's section, ``kind`` where the annotation does not say it, and ``choices=None``
        for a ``Literal`` whose values the flag does not restrict (the library normalises other spellings).

    Returns
    -------
    dataclasses.Field

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Demo:
    ...     depth: int = setting(3, "how deep", commands=("change",), minimum=1)
    >>> option = declared_options(Demo, "change")[0]
    >>> option.name, option.kind, option.default, option.option_strings
    ('change.depth', 'int', 3, ('--depth',))
    """
    unknown = set(extra) - {f.name for f in fields(Option)} - {"section"}
    if unknown:
        raise TypeError(f"setting() got unknown option attributes: {', '.join(sorted(unknown))}")
    return field(default=default, metadata={OPTION_METADATA: {"help": help, "commands": commands, **extra}})


def _members(hint: Any) -> list[Any]:
    """The members of a union (nested unions flattened), or the hint itself."""
    if get_origin(hint) in (Union, types.UnionType):
        return [member for arg in get_args(hint) for member in _members(arg)]
    return [hint]


def kind_of(hint: Any) -> tuple[Kind, tuple[Any, ...] | None]:
    """The :data:`Kind` of a field's annotation and its choices (the values of its ``Literal``).

    Parameters
    ----------
    hint : type
        The resolved annotation (``typing.get_type_hints``).

    Returns
    -------
    (str, tuple or None)

    Raises
    ------
    TypeError
        For an annotation no kind describes.

    Examples
    --------
    >>> kind_of(Measure | None)
    ('str', ('jsd', 'apd', 'prt'))
    >>> kind_of(int | Literal["auto"] | None), kind_of(tuple[int, int] | None)
    (('k', None), ('k_range', None))
    """
    members = [member for member in _members(hint) if member is not type(None)]
    literals = tuple(value for member in members if get_origin(member) is Literal for value in get_args(member))
    others = [member for member in members if get_origin(member) is not Literal]
    plain = {int: "int", float: "float", bool: "bool", str: "str"}
    if not others and literals:
        return "str", literals
    if literals == ("auto",) and others in ([int], [float]):
        return ("k" if others == [int] else "temperature"), None
    if not literals and len(others) == 1 and others[0] in plain:
        return plain[others[0]], None  # type: ignore[return-value]
    if not literals and set(others) <= {str, os.PathLike[str]} and str in others:
        return "str", None
    if not literals and tuple[int, int] in others and len(others) == 1:
        return "k_range", None
    if not literals and tuple[str, ...] in others and set(others) <= {tuple[str, ...], str}:
        return "str_list", None
    raise TypeError(f"no option kind for the annotation {hint!r}; give kind= in setting()")


def declared_options(cls: type, section: str) -> tuple[Option, ...]:
    """The options an options dataclass declares: its fields made with :func:`setting`, in field order.

    Parameters
    ----------
    cls : dataclass type
        A class of :mod:`wsd.options` (or any dataclass whose fields use :func:`setting`).
    section : str
        The configuration section of its settings (a field's ``section`` wins).

    Returns
    -------
    tuple of Option
    """
    hints = typing.get_type_hints(cls)
    options = []
    for item in fields(cls):
        about = dict(item.metadata.get(OPTION_METADATA, {}))
        if not about:
            continue
        kind, choices = (about.pop("kind"), None) if "kind" in about else kind_of(hints[item.name])
        name = f"{about.pop('section', section)}.{item.name}"
        choices = about.pop("choices", choices)
        default = list(item.default) if isinstance(item.default, tuple) else item.default
        help_, commands = about.pop("help"), about.pop("commands")
        options.append(Option(name, kind, default, commands, help_, choices=choices, **about))
    return tuple(options)


def options_of(command: str, options: Iterable[Option]) -> list[Option]:
    """The options that ``command`` has a flag for, in the given order.

    Parameters
    ----------
    command : str
        A command (``embed``, ``report``, ``config show``, ...).
    options : iterable of Option
        Every option (:data:`wsd.options.OPTION_LIST`).

    Returns
    -------
    list of Option

    Examples
    --------
    >>> [option.name for option in options_of("score", FLAG_OPTIONS)]
    ['score.dataset', 'score.gold', 'score.system', 'score.format']
    """
    return [option for option in options if option.takes_flag(command)]


# ------------------------------------------------------------------------------------------- argparse
def _whole_number(minimum: float | None, maximum: float | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"expected a number ≥ {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"expected a number ≤ {maximum}, got {value}")
        return value

    return parse


def _finite_number(minimum: float | None, maximum: float | None = None) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"expected a number ≥ {minimum}, got {text}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"expected a number ≤ {maximum}, got {text}")
        return value

    return parse


def _k_value(text: str) -> int | str:
    return "auto" if text == "auto" else _whole_number(1)(text)


def _k_range_value(text: str) -> tuple[int, int]:
    parts = text.replace("-", ",").split(",")
    try:
        low, high = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two numbers such as 2,7, got {text!r}") from None
    if not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"expected 1 ≤ low ≤ high, got {text!r}")
    return low, high


def _comma_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


class _ValueFlags(argparse.Action):
    """Flags that each set one value of a choice and take none (:attr:`Option.flag_values`); two that set
    different values are refused."""

    def __init__(self, option_strings: list[str], dest: str, values_of: Mapping[str, Any], **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)
        self.values_of = dict(values_of)

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: Any = None) -> None:
        value = self.values_of[option_string]
        previous = getattr(namespace, self.dest, None)
        if previous not in (None, self.default, value):
            given = [flag for flag, set_to in self.values_of.items() if set_to in (previous, value)]
            parser.error(f"{' and '.join(given)} exclude each other")
        setattr(namespace, self.dest, value)


def _argument(option: Option, command: str) -> dict[str, Any]:
    """The keyword arguments of ``add_argument`` for an option of a command."""
    # a setting's flag defaults to None ("not given": the configuration's value wins); a flag-only option's
    # default is its own
    default = None if option.config else option.default
    kwargs: dict[str, Any] = {"help": option.help_text(command).replace("%", "%%")}
    if option.option_strings[0].startswith("-"):
        kwargs["dest"] = option.attribute
        kwargs["default"] = default
        if command in option.required:
            kwargs["required"] = True
    if option.off:
        kwargs["type"] = off_to_word  # --lemmatizer off (older spellings) reads as none, before the choices
    if option.kind == "bool":
        kwargs["action"] = argparse.BooleanOptionalAction if option.negatable else "store_true"
        return kwargs
    if option.flag_values:
        kwargs |= {"action": _ValueFlags, "values_of": dict(option.flag_values), "choices": option.choices}
        return kwargs
    if option.repeat:
        kwargs["action"] = "append"
    elif option.kind == "int":
        kwargs["type"] = int if option.choices else _whole_number(option.minimum, option.maximum)
    elif option.kind == "float":
        bounded = option.minimum is not None or option.maximum is not None
        kwargs["type"] = _finite_number(option.minimum, option.maximum) if bounded else float
    elif option.kind == "k":
        kwargs["type"] = _k_value
    elif option.kind == "k_range":
        kwargs["type"] = _k_range_value
    elif option.kind == "str_list":
        kwargs["type"] = _comma_list
    if option.choices is not None:
        kwargs["choices"] = option.choices
    if option.metavar is not None:
        kwargs["metavar"] = option.metavar
    return kwargs


def add_options(parser: argparse.ArgumentParser, command: str, options: Iterable[Option]) -> argparse.ArgumentParser:
    """Add the flags of ``command`` to its parser, grouped by section, from the declarations.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    command : str
        The command (``embed``, ``report``, ``config show``, ...).
    options : iterable of Option
        Every option (:data:`wsd.options.OPTION_LIST`); those ``command`` has a flag for are added.

    Returns
    -------
    argparse.ArgumentParser
        ``parser``.

    Examples
    --------
    >>> from wsd.options import OPTION_LIST
    >>> parser = add_options(argparse.ArgumentParser(prog="wsd embed"), "embed", OPTION_LIST)
    >>> parser.parse_args(["--window-tokens", "8", "--case-sensitive"]).window_tokens
    8
    """
    groups: dict[str, Any] = {}
    for option in options_of(command, options):
        title = GROUPS.get(option.name, GROUPS.get(option.section)) if option.config or option.name in GROUPS else None
        if title is None:
            target: Any = parser
        else:
            target = groups.get(title) or groups.setdefault(title, parser.add_argument_group(title))
        target.add_argument(*option.option_strings, **_argument(option, command))
    return parser


# ------------------------------------------------------------------------------------------- the docs reference
#: What each :data:`Kind` means, as the reference page explains it.
KIND_LEGEND: dict[str, str] = {
    "str": "a string",
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false (a flag without a value)",
    "k": 'a whole number or "auto"',
    "k_range": "two whole numbers [low, high] (`2,7` on the command line)",
    "temperature": 'a number or "auto"',
    "str_list": "a list of strings (`a,b` on the command line)",
}


def _cell(text: str) -> str:
    """Text that is safe in a Markdown table cell: pipes, HTML brackets and emphasis characters escaped."""
    for character, escaped in (("|", "\\|"), ("<", "&lt;"), (">", "&gt;"), ("*", "\\*"), ("_", "\\_")):
        text = text.replace(character, escaped)
    return text


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return str(value)


def _reference_row(option: Option, setting: bool) -> str:
    flags = list(option.option_strings)
    if option.negatable and flags:
        flags.append("--no-" + flags[0].removeprefix("--"))
    flag_cell = ", ".join(f"`{flag}`" for flag in flags) or "(file only)"
    if option.flag_commands is not None and flags:
        flag_cell += " (" + ", ".join(option.flag_commands) + ")"
    kind = " \\| ".join(f"`{choice}`" for choice in option.choices) if option.choices else f"{option.kind}"
    if option.default is None:
        default = _cell(option.unset) if option.unset is not None else "unset"
    else:
        default = f"`{_toml_value(option.default)}`"
    commands = ", ".join(option.commands)
    name = f"`{option.key}`" if setting else flag_cell
    help_cell = _cell(option.help)
    if setting:
        return f"| {name} | {flag_cell} | {kind} | {default} | {commands} | {help_cell} |"
    return f"| {name} | {kind} | {default} | {help_cell} |"


def reference_markdown(options: Iterable[Option]) -> str:
    """The configuration reference of the docs: every option as Markdown tables, generated from the declarations.

    Settings of the configuration file come first, one table per section (``[scan]``, ``[embedding]``, ...:
    key, flags, type or choices, default, commands, help); then the flag-only options, one table per command.
    The docs page ``docs/configuration.md`` includes it (``docs/hooks.py``), so the page cannot drift from the
    schema.

    Parameters
    ----------
    options : iterable of Option
        The options to list (all: :data:`wsd.options.OPTION_LIST`), in order.

    Returns
    -------
    str
        Markdown, with a heading per section (level 3) and a table per heading.

    Examples
    --------
    >>> from wsd.options import OPTION_LIST
    >>> text = reference_markdown(OPTION_LIST)
    >>> "| `window_tokens` | `--window-tokens` |" in text
    True
    """
    lines = ["Types: " + "; ".join(f"`{kind}`: {meaning}" for kind, meaning in KIND_LEGEND.items()) + "."]
    sections: dict[str, list[Option]] = {}
    for option in options:
        sections.setdefault(("setting:" if option.config else "flag:") + option.section, []).append(option)
    for group, members in sections.items():
        setting = group.startswith("setting:")
        section = group.partition(":")[2]
        if setting:
            lines += ["", f"### `[{section}]`", "", "| key | flags | type | default | commands | help |"]
            lines.append("|---|---|---|---|---|---|")
        else:
            title = "options of every command" if section == "cli" else f"`wsd {section}`"
            lines += ["", f"### {title} (flags only)", "", "| flags | type | default | help |", "|---|---|---|---|"]
        lines += [_reference_row(option, setting) for option in members]
    return "\n".join(lines) + "\n"
