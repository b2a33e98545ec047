"""One typed configuration for every command: sections, settings, defaults, validation, TOML in and out.

``wsd embed``, ``wsd cluster``, ``wsd run`` and ``wsd evaluate`` read the same file (``--config FILE``), with
the same sections; each command uses the settings it needs (``wsd config show --command run`` lists them)::

    [scan]        what the corpus scan finds: corpus, targets, forms, lemmatizer, context, ...
    [embedding]   how occurrences become vectors: model, layers, pooling, context_vector, ...
    [senses]      how senses are induced: recipe, method, k, k_range, normalize, seed, ...
    [evaluation]  what the senses are scored against: gold (wsd run), dataset, data, seeds, graded, ...
    [change]      comparing slices (wsd change, wsd run --by, wsd evaluate --dataset wug): by, bins, measure, ...
    [output]      where results go and how they are stored: out, report, vector_dtype, ...
    [execution]   where the work runs: shard_bytes, scheduler, workers, threads_per_worker

Every setting has a type: a file or ``--set`` value of another type (``graded = "false"``, ``seeds = "3"``),
an unknown section or an unknown key is a :class:`~wsd.errors.ConfigError` that names the setting and lists
the valid ones. Precedence, lowest first: the defaults, the ``--config`` file, the command's flags, and
``--set SECTION.KEY=VALUE`` (a TOML value; a bare word is a string). ``senses.recipe`` (``default``,
``textbook``, ``sense-minilm`` or ``sense-mpnet``, :mod:`wsd.senses.recipes`) fills every sense parameter, the
context vector (``wsd run`` and ``wsd evaluate``) and the key format (``graded``, ``min_weight``, ``top``) that
nothing else sets; where nothing names it, a tuned model that ships a sense recipe (``--model wsd:sense-minilm``,
``wsd:sense-mpnet``) brings it.

The fully resolved configuration (:func:`resolve_config`) is written into each output folder as
``config.toml`` (:data:`wsd.io.layout.CONFIG_FILE`, :func:`write_config`); ``--config OUT/config.toml`` runs the
same job again.

:class:`EvaluationConfig` is what :func:`wsd.workflows.benchmark.evaluate` takes; :func:`evaluation_config` makes it
from a resolved configuration and :func:`build_evaluation_config` from keyword arguments (the Python API).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wsd.errors import ConfigError, InputError
from wsd.io.atomic import atomic_write
from wsd.io.layout import META_FILE
from wsd.options import OPTIONS, SETTINGS, EmbeddingOptions, ExecutionOptions, SenseOptions
from wsd.schema import (
    CONFIG_COMMANDS,
    DEFAULT_MEASURE,
    KIND_LEGEND,
    PAIR_DATASETS,
    Measure,
    Option,
    is_off,
    off_to_word,
)
from wsd.senses.recipes import (
    DEFAULT_EMBEDDING,
    DEFAULT_OUTPUT,
    embedding_recipe,
    output_recipe,
    recipe,
)

if TYPE_CHECKING:
    from wsd.executors import Executor
    from wsd.senses.naming import NamingParameters

#: The sections, in order.
SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(s.section for s in SETTINGS))
#: ``section -> key -> Option``.
SCHEMA: dict[str, dict[str, Option]] = {
    section: {s.key: s for s in SETTINGS if s.section == section} for section in SECTIONS
}
#: Encoder options a configuration (and every command line) may set: ``[embedding]`` but how it is fetched.
EMBEDDING_KEYS: tuple[str, ...] = tuple(key for key in SCHEMA["embedding"] if key != "offline")
#: A resolved configuration: ``section -> key -> value``.
Config = dict[str, dict[str, Any]]

#: What each kind of value is, as an error names it: the reference's legend without how a flag writes it.
_KIND_NAMES = {kind: meaning.split(" (")[0] for kind, meaning in KIND_LEGEND.items()}


def _describe(value: Any) -> str:
    kind = {str: "the string", bool: "the boolean", int: "the number", float: "the number"}.get(type(value))
    if kind:
        return f"{kind} {json.dumps(value, ensure_ascii=False)}"
    return f"{type(value).__name__} {value!r}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_value(setting: Option, value: Any, where: str = "") -> Any:
    """Check a value against its setting's type; return it in canonical form (e.g. a tuple for ``k_range``).

    Parameters
    ----------
    setting : Option
        The setting.
    value : object
        The value (from a file, a flag or ``--set``).
    where : str
        Where it came from, for the error (a file name, ``--set``).

    Returns
    -------
    object

    Raises
    ------
    ConfigError
        The value has the wrong type or is not allowed; the message names the setting.
    """
    kind = setting.kind
    if setting.off and isinstance(value, str):
        value = off_to_word(value)  # "off", "no", "" (older spellings): read as "none", the one written
    ok = True
    if kind == "str":
        ok = isinstance(value, str)
    elif kind == "int":
        ok = _is_int(value)
    elif kind == "float":
        ok = (_is_int(value) or isinstance(value, float)) and math.isfinite(value)
        value = float(value) if ok else value
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "k":
        ok = value == "auto" or _is_int(value)
    elif kind == "temperature":
        ok = value == "auto" or ((_is_int(value) or isinstance(value, float)) and math.isfinite(value) and value > 0)
        value = float(value) if ok and value != "auto" else value
    elif kind == "k_range":
        ok = isinstance(value, list | tuple) and len(value) == 2 and all(_is_int(v) for v in value)
        ok = ok and 1 <= value[0] <= value[1]
        value = tuple(value) if ok else value
    elif kind == "str_list":
        ok = isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
        value = list(value) if ok else value
    prefix = f"{where}: " if where else ""
    if not ok:
        raise ConfigError(f"{prefix}{setting.name} must be {_KIND_NAMES[kind]}, not {_describe(value)}")
    if setting.choices is not None and value not in setting.choices:
        raise ConfigError(f"{prefix}{setting.name} must be one of {', '.join(setting.choices)}, not {_describe(value)}")
    number = kind in ("int", "k", "float") and (_is_int(value) or isinstance(value, float))
    if setting.minimum is not None and number and value < setting.minimum:
        raise ConfigError(f"{prefix}{setting.name} must be at least {setting.minimum}, not {value}")
    if setting.maximum is not None and number and value > setting.maximum:
        raise ConfigError(f"{prefix}{setting.name} must be at most {setting.maximum}, not {value}")
    if kind == "k" and _is_int(value) and value < 1:
        raise ConfigError(f"{prefix}{setting.name} must be at least 1, not {value}")
    return value


def lookup(name: str, where: str = "") -> Option:
    """The setting of a dotted name (``senses.method``).

    Parameters
    ----------
    name : str
        ``section.key``.
    where : str
        Where the name came from, for the error.

    Returns
    -------
    Option

    Raises
    ------
    ConfigError
        No such section or key; the message lists the valid ones.
    """
    prefix = f"{where}: " if where else ""
    section, _, key = name.partition(".")
    if section not in SCHEMA or not key:
        raise ConfigError(f"{prefix}unknown setting {name!r}: expected SECTION.KEY, sections: {', '.join(SECTIONS)}")
    if key not in SCHEMA[section]:
        raise ConfigError(f"{prefix}unknown key {key!r} in [{section}] (valid keys: {', '.join(SCHEMA[section])})")
    return SCHEMA[section][key]


def check_settings(data: Mapping[str, Any], where: str = "") -> Config:
    """Validate a configuration as read from a file: known sections, known keys, the right types.

    Parameters
    ----------
    data : mapping
        ``section -> key -> value``.
    where : str
        The file, for the errors.

    Returns
    -------
    dict
        ``section -> key -> value`` in canonical form.

    Raises
    ------
    ConfigError
        An unknown section or key, or a value of the wrong type; the message names it and lists the valid ones.
    """
    prefix = f"{where}: " if where else ""
    checked: Config = {}
    for section, table in data.items():
        if section not in SCHEMA:
            homes = [other for other in SECTIONS if section in SCHEMA[other]]
            hint = f"; did you mean {section!r} in [{homes[0]}]?" if homes else ""
            what = f"section [{section}]" if isinstance(table, Mapping) else f"top-level setting {section!r}"
            raise ConfigError(f"{prefix}unknown {what}: settings live in the sections {', '.join(SECTIONS)}{hint}")
        if not isinstance(table, Mapping):
            raise ConfigError(f"{prefix}[{section}] must be a table of settings, not {_describe(table)}")
        for key, value in table.items():
            setting = lookup(f"{section}.{key}", where)
            checked.setdefault(section, {})[key] = check_value(setting, value, where)
    return checked


def parse_override(text: str) -> tuple[str, Any]:
    """Parse a ``--set SECTION.KEY=VALUE`` override; VALUE is a TOML value, or else a bare string.

    Parameters
    ----------
    text : str
        The override.

    Returns
    -------
    (str, object)
        The dotted name and the checked value.

    Examples
    --------
    >>> parse_override("senses.method=kmeans")
    ('senses.method', 'kmeans')
    >>> parse_override("senses.k_range=[2, 5]")
    ('senses.k_range', (2, 5))
    """
    name, equals, raw = text.partition("=")
    name = name.strip()
    if not equals or not name:
        raise ConfigError(f"--set {text!r}: expected SECTION.KEY=VALUE, e.g. --set senses.method=kmeans")
    setting = lookup(name, "--set")
    try:
        value = _toml_loads(f"v = {raw.strip()}")["v"]
    except ValueError:
        value = raw.strip()
    if setting.kind == "str_list" and isinstance(value, str):
        value = [item.strip() for item in value.split(",") if item.strip()]
    return name, check_value(setting, value, "--set")


def _toml_loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    return tomllib.loads(text)


def read_config_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a TOML (``.toml``) or YAML (``.yaml``/``.yml``, needs PyYAML) configuration file, as UTF-8.

    Parameters
    ----------
    path : path
        The file.

    Returns
    -------
    dict
        The file's tables, not yet checked (see :func:`check_settings`).
    """
    file = Path(path)
    if not file.is_file():
        raise InputError(f"configuration file not found: {file}" + (" (it is a folder)" if file.is_dir() else ""))
    raw = file.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{file}: line {line}: not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8"
        ) from None
    if file.suffix.lower() in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError as exc:
            raise ConfigError(f"{file}: reading YAML needs PyYAML (pip install pyyaml), or use TOML") from exc
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            raise InputError(f"{file}: not valid YAML: {exc}") from exc
    else:
        try:
            data = _toml_loads(text)
        except ValueError as exc:
            raise InputError(f"{file}: not valid TOML: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(f"{file}: the configuration must be a table of settings")
    return data


def default_config(command: str | None = None) -> Config:
    """The defaults of every setting a command uses (all settings for None), unresolved (None = unset).

    Parameters
    ----------
    command : str, optional
        One of :data:`wsd.schema.CONFIG_COMMANDS`.

    Returns
    -------
    dict
    """
    if command is not None and command not in CONFIG_COMMANDS:
        raise ConfigError(f"unknown command {command!r} (commands with a configuration: {', '.join(CONFIG_COMMANDS)})")
    config: Config = {}
    for setting in SETTINGS:
        if command is None or command in setting.commands:
            config.setdefault(setting.section, {})[setting.key] = setting.default
    return config


def _inducer_defaults() -> dict[str, Any]:
    import inspect

    from wsd.senses.inducer import SenseInducer

    return {
        name: parameter.default
        for name, parameter in inspect.signature(SenseInducer.__init__).parameters.items()
        if parameter.default is not inspect.Parameter.empty
    }


def resolve_config(
    command: str | None,
    file: Mapping[str, Any] | None = None,
    flags: Mapping[str, Any] | None = None,
    overrides: Iterable[str] = (),
    where: str = "",
) -> Config:
    """The full configuration of a command: defaults < ``file`` < ``flags`` < ``overrides``, then the recipe.

    Where none of them names a sense recipe, a model built by a ``wsd tune`` recipe that ships one
    (``--model wsd:sense-minilm``; for ``wsd cluster``, the model that embedded the run, where the run's vectors
    carry that recipe's context vector) brings it (:func:`wsd.embed.built_models.shipped_sense_recipe`).

    Parameters
    ----------
    command : str or None
        One of :data:`wsd.schema.CONFIG_COMMANDS`; None: every setting.
    file : mapping, optional
        A configuration file's tables (checked here).
    flags : mapping, optional
        ``section.key -> value`` given on the command line (None: not given).
    overrides : iterable of str
        ``--set SECTION.KEY=VALUE`` overrides.
    where : str
        The file's name, for errors.

    Returns
    -------
    dict
        ``section -> key -> value`` for every setting the command uses; a sense parameter the recipe and the
        user leave unset is the inducer's default, so the result says everything.

    Examples
    --------
    >>> resolve_config("cluster", flags={"senses.method": "kmeans"})["senses"]["method"]
    'kmeans'
    >>> resolve_config("run", overrides=["senses.recipe=textbook"])["embedding"]["context_vector"]
    'none'
    """
    config = default_config(command)
    layers: list[tuple[str, Any, str]] = []
    for section, table in check_settings(file or {}, where).items():
        layers += [(f"{section}.{key}", value, where) for key, value in table.items()]
    for name, value in (flags or {}).items():
        if value is not None:
            layers.append((name, check_value(lookup(name), value), ""))
    for text in overrides:
        name, value = parse_override(text)
        section, key = name.split(".", 1)
        if command is not None and key not in config.get(section, {}):
            raise ConfigError(
                f"--set {name}: wsd {command} does not use this setting (wsd config show --command {command})"
            )
        layers.append((name, value, "--set"))
    for name, value, _ in layers:
        section, key = name.split(".", 1)
        if key in config.get(section, {}):  # a file may hold settings of other commands
            config[section][key] = value
    shipped = None
    if all(name != "senses.recipe" for name, _, _ in layers):
        shipped = _shipped_recipe(config)
        if shipped is not None and "senses" in config:
            config["senses"]["recipe"] = shipped
    return _fill_from_recipe(command, config, shipped)


def _shipped_recipe(config: Config) -> str | None:
    """The sense recipe a recipe's model brings (:func:`wsd.embed.built_models.shipped_sense_recipe`) to a
    configuration that names no recipe: the model's that embeds (``run``, ``evaluate``; ``embed``, for its context
    vector), or, for ``cluster``, that of the model that embedded the run, where the run's vectors carry that
    recipe's context vector (so ``wsd cluster`` finds the senses ``wsd run`` found, and a run embedded otherwise
    keeps the default)."""
    from wsd.io.recipe_stamp import shipped_sense_recipe
    from wsd.senses.recipes import shipped_for_vectors

    if "embedding" in config:  # a context vector given otherwise than the recipe's keeps the default
        return shipped_for_vectors(config["embedding"].get("model"), config["embedding"].get("context_vector"))
    if "senses" not in config:
        return None
    embedded = _run_embedding(config["senses"].get("run"))
    model, context = embedded.get("model"), embedded.get("context_vector")
    shipped = shipped_sense_recipe(model) if isinstance(model, str) else None
    if shipped is None or context != embedding_recipe(shipped)["context_vector"]:
        return None
    return shipped


def _run_embedding(run: Any) -> dict[str, Any]:
    """The ``embedding`` record of a run folder's ``meta.json`` (empty: no run, or none readable there; reading
    the run is left to the command, which names what is wrong with it)."""
    if not run:
        return {}
    try:
        embedding = json.loads((Path(run) / META_FILE).read_text(encoding="utf-8"))["embedding"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return embedding if isinstance(embedding, dict) else {}


def _fill_from_recipe(command: str | None, config: Config, shipped: str | None = None) -> Config:
    senses = config.get("senses")
    name = senses["recipe"] if senses else shipped or "default"
    if senses:
        defaults = recipe(name)
        inducer_defaults = _inducer_defaults()
        for key, value in senses.items():
            if value is None and key in SenseOptions.parameter_names():
                senses[key] = defaults.get(key, inducer_defaults.get(key))
                if key == "k_range" and senses[key] is not None:
                    senses[key] = tuple(senses[key])
    embedding = config.get("embedding")
    if embedding is not None and embedding["context_vector"] is None:
        # wsd embed stores the (model's) recipe's vectors too, so wsd embed + wsd cluster finds wsd run's senses
        context = embedding_recipe(name)["context_vector"] if command in ("embed", "run", "evaluate", None) else None
        embedding["context_vector"] = context or "none"
    evaluation = config.get("evaluation")
    if evaluation is not None and command in ("evaluate", None):
        for key, value in output_recipe(name).items():
            if evaluation.get(key) is None:
                evaluation[key] = value
    return config


# ------------------------------------------------------------------------------------------- TOML out
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise ConfigError(f"cannot write {value!r} as a TOML value")


def to_toml(config: Config, header: str = "") -> str:
    """A configuration as TOML: one table per section; an unset setting (None) as a comment.

    Parameters
    ----------
    config : dict
        ``section -> key -> value``.
    header : str
        Comment lines put first.

    Returns
    -------
    str

    Examples
    --------
    >>> print(to_toml({"senses": {"method": "ward", "k_range": (2, 7), "pca": None}}))
    [senses]
    method = "ward"
    k_range = [2, 7]
    # pca is not set: reduce each word's vectors to N dimensions
    <BLANKLINE>
    """
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    for section, table in config.items():
        if lines:
            lines.append("")
        lines.append(f"[{section}]")
        for key, value in table.items():
            if value is None:
                setting = SCHEMA.get(section, {}).get(key)
                lines.append(f"# {key} is not set" + (f": {setting.help_text(unset_word='unset')}" if setting else ""))
            else:
                lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def absolute_paths(config: Config) -> Config:
    """A copy with every file or folder setting made absolute (and a targets file too), for ``config.toml``.

    Parameters
    ----------
    config : dict
        A resolved configuration; it is not changed.

    Returns
    -------
    dict
        The copy: the same sections and keys, the paths absolute.
    """
    copy = {section: dict(table) for section, table in config.items()}
    for section, table in copy.items():
        for key, value in table.items():
            setting = SCHEMA[section][key]
            is_file = setting.name == "scan.targets" and isinstance(value, str) and Path(value).is_file()
            if isinstance(value, str) and (setting.path or is_file):
                table[key] = str(Path(value).resolve())
    return copy


def write_config(folder: str | os.PathLike[str], config: Config, command: str) -> Path:
    """Record a resolved configuration as ``folder/config.toml`` (paths absolute), written atomically.

    Parameters
    ----------
    folder : path
        The output folder.
    config : dict
        The resolved configuration.
    command : str
        The command that ran it (named in the header).

    Returns
    -------
    Path
        The file written.
    """
    from wsd.io.layout import CONFIG_FILE

    path = Path(folder) / CONFIG_FILE
    header = (
        f"The configuration of this folder's `wsd {command}`, every setting resolved.\n"
        f"Run it again with: wsd {command} --config {path}"
    )
    text = to_toml(absolute_paths(config), header)
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    return path


# ------------------------------------------------------------------------------------------- to the API
def embedding_options(config: Config) -> EmbeddingOptions:
    """The :class:`~wsd.options.EmbeddingOptions` of a resolved configuration, as the commands use them.

    As :meth:`EmbeddingOptions.from_config <wsd.options.EmbeddingOptions.from_config>`, but ``context_vector =
    "none"`` is None where the configuration's recipe has no context vector either (so what runs and evaluations
    record stays as it was: ``"none"`` only where it turns the recipe's context vector off). Without a recipe
    (``wsd embed``) ``"none"`` stays: :func:`wsd.embed_corpus` reads None as the default recipe's context vector.

    Parameters
    ----------
    config : dict
        A resolved configuration.

    Returns
    -------
    EmbeddingOptions
    """
    options = EmbeddingOptions.from_config(config)
    if "senses" not in config:  # wsd embed: "none" is off, None the default recipe's
        return options
    recipe_context = embedding_recipe(config["senses"]["recipe"])["context_vector"]
    if is_off(options.context_vector) and recipe_context is None:
        options = options.replace(context_vector=None)  # off, as the recipe has it
    return options


def naming_parameters(config: Config) -> NamingParameters:
    """The :class:`~wsd.senses.naming.NamingParameters` of a resolved configuration: its ``[output]`` thresholds.

    ``name_min_lead`` (``--name-min-lead``) is the least lead, ``min_margin``; ``name_min_cosine``
    (``--name-min-cosine``) the least cosine, ``min_similarity`` (checked when the configuration was resolved:
    finite, the lead at least 0, the cosine from -1 to 1); the rest are the defaults.

    Parameters
    ----------
    config : dict
        A resolved configuration (a threshold absent or None: the default).

    Returns
    -------
    NamingParameters

    Examples
    --------
    >>> naming_parameters({"output": {"inventory": "wordnet:DIR", "name_min_lead": 0.01}}).min_margin
    0.01
    """
    from wsd.senses.naming import NamingParameters

    output = config.get("output", {})
    lead, cosine = output.get("name_min_lead"), output.get("name_min_cosine")
    defaults = NamingParameters()
    return NamingParameters(
        min_similarity=defaults.min_similarity if cosine is None else float(cosine),
        min_margin=defaults.min_margin if lead is None else float(lead),
    )


def config_executor(config: Config, executor: Executor | str | None = None) -> Executor | None:
    """The executor to start for a resolved configuration: ``executor`` by its name, or a Dask one where
    ``[execution]`` names a scheduler or workers; None where the work runs in this process or ``executor`` is one
    already (it is then used as it is).

    Parameters
    ----------
    config : dict
        A resolved configuration (its ``[execution]`` section, where it has one).
    executor : Executor or {"serial", "processes", "dask"}, optional
        The executor asked for (:func:`wsd.executors.make_executor`).

    Returns
    -------
    Executor or None
        An executor not started yet (``with executor:`` starts and stops it; it is also a ``map_function`` for the
        per-target stages).

    Examples
    --------
    >>> config_executor(resolve_config("cluster")) is None
    True
    """
    from wsd.executors import Executor, make_executor

    execution = ExecutionOptions.from_config(config)
    if isinstance(executor, Executor):
        return None
    if executor is None and execution.scheduler is None and execution.workers is None:
        return None
    return make_executor(
        executor,
        scheduler=execution.scheduler,
        workers=execution.workers,
        threads_per_worker=execution.threads_per_worker,
    )


# ------------------------------------------------------------------------------------------- evaluation
@dataclass
class EvaluationConfig:
    """Everything an evaluation needs: dataset, encoder, sense inducer, output format, seeds.

    Parameters
    ----------
    dataset : str
        The dataset (and metric family).
    data : str, optional
        Its folder or file.
    dataset_options : dict
        Options of the dataset reader.
    targets : list of str, optional
        Evaluate only these targets.
    embedding : EmbeddingOptions
        How occurrences become vectors.
    senses : dict
        Sense-inducer parameters.
    graded, min_weight, top
        Output format of the system keys.
    seeds : int
        Number of seeds (mean ± std).
    cache_dir : str, optional
        The vector cache.
    change_measure : str
        The default change score (``wug``: ``graded_spearman``).
    binary_k, binary_n : int, optional
        The binary change rule (``wug``; None: the dataset's, else DWUG EN's 1 and 5).
    """

    dataset: str = OPTIONS["evaluation.dataset"].default
    data: str | None = None
    dataset_options: dict[str, Any] = field(default_factory=dict)
    targets: list[str] | None = None
    embedding: EmbeddingOptions = field(default_factory=lambda: EmbeddingOptions(**DEFAULT_EMBEDDING))
    senses: dict[str, Any] = field(default_factory=lambda: recipe("default"))
    graded: bool = DEFAULT_OUTPUT["graded"]
    min_weight: float = DEFAULT_OUTPUT["min_weight"]
    top: int | None = DEFAULT_OUTPUT["top"]
    seeds: int = OPTIONS["evaluation.seeds"].default
    cache_dir: str | None = None
    change_measure: Measure = DEFAULT_MEASURE
    binary_k: int | None = None
    binary_n: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (recorded in ``metrics.json``).

        Returns
        -------
        dict
        """
        data = dataclasses.asdict(self)
        data["embedding"] = self.embedding.encoder_kwargs()  # what it computes (offline is how it is fetched)
        data["senses"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.senses.items()}
        if self.dataset != "wug":  # the change settings score nothing else; other datasets' records stay as they were
            for name in CHANGE_FIELDS:
                data.pop(name)
        return data


#: The :class:`EvaluationConfig` fields that only the WUG evaluation uses.
CHANGE_FIELDS = ("change_measure", "binary_k", "binary_n")


def evaluation_config(config: Config) -> EvaluationConfig:
    """The :class:`EvaluationConfig` of a resolved ``wsd evaluate`` configuration.

    Parameters
    ----------
    config : dict
        A configuration resolved for ``evaluate``.

    Returns
    -------
    EvaluationConfig
    """
    evaluation = config["evaluation"]
    options: dict[str, Any] = {}
    if evaluation["split"]:
        options["splits"] = evaluation["split"]
    if evaluation["gold_key"]:
        options["key"] = evaluation["gold_key"]
    if evaluation.get("dev"):
        if evaluation["dataset"] not in PAIR_DATASETS:
            raise ConfigError(f"--dev is for --dataset wic (pairs), not {evaluation['dataset']}")
        options["dev"] = evaluation["dev"]
    overrides = {key: evaluation[key] for key in ("graded", "min_weight", "top", "seeds", "cache_dir")}
    change = config.get("change", {})
    overrides |= {"change_measure": change.get("measure"), "binary_k": change.get("binary_k")}
    overrides["binary_n"] = change.get("binary_n")
    recipe_params, inducer_defaults = recipe(config["senses"]["recipe"]), _inducer_defaults()
    senses = {  # as metrics.json records them: the recipe's parameters and those that differ from the inducer's
        key: value
        for key, value in SenseOptions.from_config(config).params().items()
        if key in recipe_params or value != inducer_defaults.get(key)
    }
    return build_evaluation_config(
        {"dataset_options": options, "embedding": embedding_options(config).encoder_kwargs(), "senses": senses},
        recipe=config["senses"]["recipe"],
        dataset=evaluation["dataset"],
        data=evaluation["data"],
        targets=evaluation["targets"],
        **overrides,
    )


def build_evaluation_config(file_settings: dict[str, Any] | None = None, **overrides: Any) -> EvaluationConfig:
    """Merge settings and overrides (``None`` means "not given") into an :class:`EvaluationConfig`.

    Overrides may name embedding options (``layers="last"``) or sense parameters (``method="ward"``)
    directly; ``recipe="textbook"`` starts the embedding options, sense parameters and output settings
    from a named recipe. Without a recipe, the one a recipe's model ships (``model="wsd:sense-minilm"``), else
    ``default``.

    Parameters
    ----------
    file_settings : dict, optional
        Top-level settings (``dataset``, ``seeds``, ...) and the tables ``embedding``, ``senses`` and
        ``dataset_options``.
    **overrides
        Settings that win over ``file_settings`` (None: not given).

    Returns
    -------
    EvaluationConfig

    Examples
    --------
    >>> build_evaluation_config({"dataset": "semeval2010", "senses": {"method": "kmeans"}}, seeds=3).senses["method"]
    'kmeans'
    >>> build_evaluation_config(recipe="textbook").embedding.context_vector is None
    True
    """
    settings = dict(file_settings or {})
    embedding_from_file = dict(settings.pop("embedding", {}) or {})
    senses_from_file = dict(settings.pop("senses", {}) or {})
    stated_in_senses = senses_from_file.pop("recipe", None)
    base_recipe = overrides.pop("recipe", None) or settings.pop("recipe", None) or stated_in_senses
    if base_recipe is None:  # a recipe's model brings the sense recipe made for it, for the vectors it was made for
        from wsd.senses.recipes import shipped_for_vectors

        model = overrides.get("model") or embedding_from_file.get("model")
        context = overrides.get("context_vector") or embedding_from_file.get("context_vector")
        base_recipe = shipped_for_vectors(model, context) or "default"
    senses = recipe(base_recipe) | senses_from_file
    embedding = embedding_recipe(base_recipe) | embedding_from_file
    settings = output_recipe(base_recipe) | settings
    known = {f.name for f in dataclasses.fields(EvaluationConfig)} - {"embedding", "senses"}
    for name, value in overrides.items():
        if value is None:
            continue
        if name in EMBEDDING_KEYS:
            embedding[name] = value
        elif name in known:
            settings[name] = value
        else:
            senses[name] = value
    unknown = set(settings) - known
    if unknown:
        raise ConfigError(f"unknown configuration setting(s): {', '.join(sorted(unknown))}")
    bad_embedding = set(embedding) - set(EMBEDDING_KEYS)
    if bad_embedding:
        raise ConfigError(f"unknown [embedding] setting(s): {', '.join(sorted(bad_embedding))}")
    for name, kind in (("seeds", int), ("graded", bool)):
        value = settings.get(name)
        if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise ConfigError(f"{name} must be {'a whole number' if kind is int else 'true or false'}, not {value!r}")
    if "k_range" in senses:
        senses["k_range"] = tuple(senses["k_range"])
    config = EvaluationConfig(embedding=EmbeddingOptions(**embedding), senses=senses, **settings)
    if config.seeds < 1:
        raise ConfigError(f"seeds must be at least 1, not {config.seeds}")
    return config
