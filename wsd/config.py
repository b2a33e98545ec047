"""One configuration object that fully describes an evaluation or a job on a corpus (from a file or from flags).

A configuration file is TOML (or YAML when PyYAML is installed) with top-level settings and the sections
``[embedding]`` (encoder options), ``[senses]`` (sense-inducer parameters) and ``[dataset_options]``::

    dataset = "semeval2013"
    data = "../shared/datasets"
    seeds = 5
    graded = false

    [embedding]
    layers = "sum-last-4"
    pooling = "mean"
    context_vector = "20:last:0.5"     # or "none"

    [senses]
    method = "agglomerative"
    k = "auto"

Flags given on the command line override the file; ``recipe`` (``default`` or ``textbook``, see
:mod:`wsd.senses.recipes`) supplies every embedding option, sense parameter and output setting (``graded``,
``min_weight``, ``top``) that neither gives. The resolved configuration is recorded beside every result, so
any table can be regenerated from it.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wsd.errors import ConfigError, InputError
from wsd.senses.recipes import DEFAULT_EMBEDDING, DEFAULT_OUTPUT, embedding_recipe, output_recipe, recipe

#: Encoder options a configuration (and every command line: ``wsd.cli.encoder_kwargs``) may set.
EMBEDDING_KEYS = (
    "model",
    "layers",
    "pooling",
    "precision",
    "device",
    "batch_size",
    "max_length",
    "window_tokens",
    "context_vector",
)


@dataclass
class EmbeddingOptions:
    """How occurrences become vectors (the parameters of :class:`wsd.Encoder`).

    Parameters
    ----------
    model, layers, pooling, precision, device, batch_size, max_length, window_tokens, context_vector
        As in :class:`wsd.Encoder`.
    """

    model: str | None = None
    layers: str = DEFAULT_EMBEDDING["layers"]
    pooling: str = DEFAULT_EMBEDDING["pooling"]
    precision: str = "auto"
    device: str | None = None
    batch_size: int | None = None
    max_length: int | None = None
    window_tokens: int | None = None
    context_vector: str | None = DEFAULT_EMBEDDING["context_vector"]

    def encoder_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for :class:`wsd.Encoder`.

        Returns
        -------
        dict
        """
        return dataclasses.asdict(self)


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
    """

    dataset: str = "semeval2013"
    data: str | None = None
    dataset_options: dict[str, Any] = field(default_factory=dict)
    targets: list[str] | None = None
    embedding: EmbeddingOptions = field(default_factory=EmbeddingOptions)
    senses: dict[str, Any] = field(default_factory=lambda: recipe("default"))
    graded: bool = DEFAULT_OUTPUT["graded"]
    min_weight: float = DEFAULT_OUTPUT["min_weight"]
    top: int | None = DEFAULT_OUTPUT["top"]
    seeds: int = 1
    cache_dir: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (recorded in ``metrics.json``).

        Returns
        -------
        dict
        """
        data = dataclasses.asdict(self)
        data["senses"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.senses.items()}
        return data


def read_config_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a TOML (``.toml``) or YAML (``.yaml``/``.yml``) configuration file into a dict.

    Parameters
    ----------
    path : path
        The file.

    Returns
    -------
    dict
    """
    file = Path(path)
    if not file.is_file():
        raise InputError(f"configuration file not found: {file}")
    text = file.read_text(encoding="utf-8")
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
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - Python 3.10
            import tomli as tomllib
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"{file}: not valid TOML: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(f"{file}: the configuration must be a table of settings")
    return data


def build_evaluation_config(file_settings: dict[str, Any] | None = None, **overrides: Any) -> EvaluationConfig:
    """Merge file settings and overrides (``None`` means "not given") into an :class:`EvaluationConfig`.

    Overrides may name embedding options (``layers="last"``) or sense parameters (``method="ward"``)
    directly; ``recipe="textbook"`` starts the embedding options, sense parameters and output settings
    from a named recipe.

    Parameters
    ----------
    file_settings : dict, optional
        Settings read from a configuration file.
    **overrides
        Settings given on the command line (None: not given).

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
    base_recipe = overrides.pop("recipe", None) or settings.pop("recipe", None) or "default"
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
    if "k_range" in senses:
        senses["k_range"] = tuple(senses["k_range"])
    config = EvaluationConfig(embedding=EmbeddingOptions(**embedding), senses=senses, **settings)
    if config.seeds < 1:
        raise ConfigError(f"seeds must be at least 1, not {config.seeds}")
    return config
