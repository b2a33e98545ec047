"""The OpenVINO runtime: the encoder converted once to OpenVINO IR, cached on disk, run on the CPU.

``runtime="openvino"`` (``--runtime openvino``, and ``auto``, the default, on a CPU) runs the forward pass
with OpenVINO (the ``openvino`` package, installed with wsd) instead of PyTorch; tokenisation, windows, layers
and pooling are wsd's own, the same for both runtimes. On a CPU with native bf16 it computes in bf16
(``INFERENCE_PRECISION_HINT``), else fp32.

The first use of a model converts it (``openvino.convert_model`` of a wrapper that returns the hidden states
of the layers asked for, with dynamic batch and length) and stores, in the conversion cache
(:func:`default_cache_dir`; ``$WSD_OPENVINO_CACHE``, by default ``~/.cache/wsd/openvino``):

- ``<source>.model.json``: what wsd needs of the model without loading it: fingerprint, layer count, hidden
  size, length limit, special tokens and the tokenizer (its ``tokenizers`` JSON, so the tokenisation is the
  one ``transformers`` built), with the SHA-256 of all of that (``sha256``);
- ``<source>-<layers>.ir.xml`` / ``.ir.bin``: the converted model, with ``.ir.json`` beside them (written
  last, with the SHA-256 of both files and of its own content);

every file of an entry is covered by a checksum: an entry whose files or JSON do not match it (truncated,
edited, bit-flipped) is damaged, said so in a warning and built again; it is never used;
- ``compiled/``: OpenVINO's own cache of compiled models (``CACHE_DIR``), so a later process compiles in a
  fraction of a second.

``<source>`` is a hash of the model folder's files (names, sizes, modification times) and of the OpenVINO
version, so a changed model or another OpenVINO converts anew. Once cached, loading imports neither PyTorch
nor ``transformers``: that is most of the start-up time of a ``wsd embed`` process.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import locale
import os
import shutil
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from wsd import machine
from wsd.embed.forward import ForwardPass, hidden_states
from wsd.embed.hf_quiet import quiet_transformers
from wsd.errors import ConfigError, ModelError
from wsd.io.atomic import WriteFailed, atomic_write
from wsd.io.layout import (
    OPENVINO_COMPILED_DIR,
    OPENVINO_IR_ENTRY,
    OPENVINO_IR_MODEL,
    OPENVINO_IR_WEIGHTS,
)
from wsd.io.manifest import checked_content, file_sha256
from wsd.io.manifest import content_sha256 as content_checksum
from wsd.schema import DEFAULT_RUNTIME, RUNTIMES

#: Precisions the OpenVINO runtime computes in (``int8``: the model quantised with NNCF, :mod:`wsd.embed.ov_int8`).
OPENVINO_PRECISIONS = ("auto", "fp32", "bf16", "int8")
#: wsd's precision names as OpenVINO's ``INFERENCE_PRECISION_HINT`` spells them (it refuses ``fp32``). An int8
#: model runs its quantised operations in int8 and the others (normalisation, softmax, GELU) in f32.
OPENVINO_PRECISION_HINTS = {"fp32": "f32", "bf16": "bf16", "int8": "f32"}
#: Bumped when what this module writes changes: older entries are then converted again (2: JSON checksums).
FORMAT = 2
#: The key of a cache entry's JSON that holds the SHA-256 of the rest of it.
CHECKSUM = "sha256"  # the key content_checksum leaves out (wsd.io.manifest.content_sha256)
_INSTALL = "pip install openvino (wsd installs it; this environment lacks it)"
_NNCF = "pip install 'wsd[int8]' (or pip install nncf)"
#: Driver folders and device nodes without which PyTorch sees no GPU on Linux: NVIDIA's driver and device nodes,
#: AMD's ROCm device (``/dev/kfd``) and WSL 2's GPU bridge (``/dev/dxg``).
GPU_DRIVER_PATHS = ("/proc/driver/nvidia", "/dev/nvidiactl", "/dev/nvidia0", "/dev/kfd", "/dev/dxg")


#: OpenVINO switches the whole process's C locale to "C" while it compiles or converts a model and switches it
#: back after: meanwhile Python in every thread reads ASCII as the default text encoding, and two overlapping
#: calls could restore each other's "C" for good. wsd makes those calls one at a time (:func:`locale_kept`) and
#: waits for them before an embedding call returns (:meth:`OpenVinoForward.settle`).
_OPENVINO_LOCALE = threading.Lock()


@contextmanager
def locale_kept() -> Iterator[None]:
    """Run OpenVINO calls that touch the process's locale one at a time, and leave the locale as it was.

    Yields
    ------
    None

    Examples
    --------
    >>> import locale
    >>> before = locale.setlocale(locale.LC_ALL)
    >>> with locale_kept():
    ...     _ = locale.setlocale(locale.LC_ALL, "C")
    >>> locale.setlocale(locale.LC_ALL) == before
    True
    """
    with _OPENVINO_LOCALE:
        before = locale.setlocale(locale.LC_ALL)
        try:
            yield
        finally:
            if locale.setlocale(locale.LC_ALL) != before:
                locale.setlocale(locale.LC_ALL, before)


def no_gpu_driver() -> bool:
    """True on Linux where no GPU driver is present, so that no CUDA or ROCm device can be; found without torch.

    ``--runtime auto`` (the default) runs PyTorch where a CUDA GPU is present; asking torch costs about a second of
    importing it, which the OpenVINO path otherwise never pays. Without a GPU driver there is nothing to ask. On
    other systems (and where a driver is present) the answer is "maybe", and torch is asked.

    Returns
    -------
    bool
    """
    return sys.platform.startswith("linux") and not any(os.path.exists(path) for path in GPU_DRIVER_PATHS)


def openvino_installed() -> bool:
    """Whether the ``openvino`` package can be imported (without importing it).

    Returns
    -------
    bool
        True where ``import openvino`` would find the package.
    """
    return importlib.util.find_spec("openvino") is not None


def nncf_installed() -> bool:
    """Whether NNCF, which quantises the model for ``int8`` (:mod:`wsd.embed.ov_int8`), can be imported (without
    importing it).

    Returns
    -------
    bool
    """
    return importlib.util.find_spec("nncf") is not None


def check_nncf() -> None:
    """Raise a one-line :class:`~wsd.errors.ConfigError` where NNCF is missing (int8 cannot be made here).

    Raises
    ------
    ConfigError
        Saying how to install it.
    """
    if not nncf_installed():
        raise ConfigError(
            f"precision int8 with runtime openvino needs the nncf package, which is not installed: {_NNCF}"
        )


def resolve_runtime(runtime: str | None, device: Any = None, precision: str | None = None) -> str:
    """Turn a runtime choice into ``torch`` or ``openvino``; check that it can run.

    ``auto`` (the default) is OpenVINO on a CPU and PyTorch on a GPU: OpenVINO where it is installed, the
    device asked for is the CPU (or none is asked for and no CUDA GPU is present), and the precision is one
    OpenVINO computes in (``auto``, ``fp32``, ``bf16``); PyTorch otherwise (``fp16`` is a GPU's). ``int8`` is
    OpenVINO's (the model quantised with NNCF, :mod:`wsd.embed.ov_int8`) and the CPU's, so with no device asked
    for it runs there even where a GPU is present; where OpenVINO is missing or another device is asked for,
    PyTorch refuses it in one line (:func:`wsd.embed.models.resolve_precision`).

    Parameters
    ----------
    runtime : str or None
        ``auto``, ``torch`` or ``openvino`` (``None``: :data:`wsd.schema.DEFAULT_RUNTIME`).
    device : str, optional
        The device asked for (``None``/``auto``, ``cpu``, ``cuda``...).
    precision : str, optional
        The precision asked for (``None``: ``auto``); it steers ``auto`` only.

    Returns
    -------
    str
        ``torch`` or ``openvino``.

    Raises
    ------
    ConfigError
        For an unknown runtime, OpenVINO asked for on a GPU, or OpenVINO asked for but not installed.

    Examples
    --------
    >>> resolve_runtime("torch")
    'torch'
    >>> resolve_runtime("auto", "cpu", "fp16")  # a GPU's precision: PyTorch says it is not the CPU's
    'torch'
    """
    chosen = DEFAULT_RUNTIME if runtime is None else str(runtime)
    if chosen not in RUNTIMES:
        raise ConfigError(f"unknown runtime {runtime!r} (choose one of {', '.join(RUNTIMES)})")
    if chosen == "torch":
        return chosen
    on_cpu = device is not None and str(device).split(":")[0] == "cpu"
    if chosen == "openvino":
        if device not in (None, "auto") and not on_cpu:
            raise ConfigError(f"runtime openvino runs on the CPU only, not on device {device!r}; use --runtime torch")
        if not openvino_installed():
            raise ConfigError(f"runtime openvino needs the openvino package, which is not installed: {_INSTALL}")
        return chosen
    if precision == "int8":  # OpenVINO's, on the CPU: no GPU is asked about
        return "openvino" if openvino_installed() and (device in (None, "auto") or on_cpu) else "torch"
    if precision not in (None, *OPENVINO_PRECISIONS):
        return "torch"
    if not openvino_installed() or (device not in (None, "auto") and not on_cpu):
        return "torch"
    if on_cpu or no_gpu_driver():
        return "openvino"
    import torch  # auto without a device: a CUDA GPU, where there is one, runs PyTorch

    return "torch" if torch.cuda.is_available() else "openvino"


def resolve_openvino_precision(precision: str) -> str:
    """The concrete precision of the OpenVINO runtime: ``auto`` is bf16 on a CPU with native bf16, else fp32.

    Parameters
    ----------
    precision : str
        ``auto``, ``fp32``, ``bf16`` or ``int8`` (the model quantised with NNCF, :mod:`wsd.embed.ov_int8`).

    Returns
    -------
    str
        ``fp32``, ``bf16`` or ``int8``.

    Raises
    ------
    ConfigError
        For another precision (fp16 is a GPU's), or int8 where NNCF is not installed.
    """
    if precision not in OPENVINO_PRECISIONS:
        raise ConfigError(
            f"precision {precision!r} is not available with runtime openvino (choose one of "
            f"{', '.join(OPENVINO_PRECISIONS)}, or use --runtime torch)"
        )
    if precision == "auto":
        return "bf16" if machine.native_bf16_flags() else "fp32"
    if precision == "int8":
        check_nncf()
    return precision


def default_cache_dir() -> Path:
    """The conversion cache folder.

    Returns
    -------
    Path
        ``$WSD_OPENVINO_CACHE`` or ``~/.cache/wsd/openvino``.
    """
    return Path(os.environ.get("WSD_OPENVINO_CACHE", Path.home() / ".cache" / "wsd" / "openvino"))


def openvino_version() -> str:
    """The installed OpenVINO version (read from the package metadata, without importing it).

    Returns
    -------
    str
        E.g. ``2026.4.0``.
    """
    from importlib.metadata import version

    return version("openvino")


def source_key(folder: Path) -> str:
    """A hash of a model folder's files (names, sizes, modification times), the OpenVINO version and :data:`FORMAT`.

    Parameters
    ----------
    folder : Path
        The model folder (a Hub model's cached snapshot).

    Returns
    -------
    str
        20 hexadecimal digits.
    """
    digest = hashlib.sha256(f"{FORMAT}:{openvino_version()}".encode())
    for path in sorted(folder.iterdir()):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:20]


def _damaged(path: Path, problem: str, redo: str = "converting the model again") -> str:
    return f"damaged OpenVINO cache entry {path} ({problem}); {redo}"


def _warn_damaged(path: Path, problem: str) -> None:
    warnings.warn(_damaged(path, problem), stacklevel=4)


def read_model_entry(path: Path) -> dict[str, Any] | None:
    """The model description of a cache entry, or None (with a warning when it exists but is damaged).

    Parameters
    ----------
    path : Path
        The ``<source>.model.json`` file.

    Returns
    -------
    dict or None
        The description; None when it is absent or damaged (it is then rebuilt).
    """
    if not path.exists():
        return None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(entry, dict):
            raise ValueError("not a JSON object")
        missing = [key for key in MODEL_ENTRY_KEYS if key not in entry]
        if missing:
            raise ValueError(f"no {', '.join(missing)}")
        if entry["format"] != FORMAT:
            raise ValueError(f"format {entry['format']}, expected {FORMAT}")
        checked_content(entry)
    except (OSError, ValueError, TypeError, UnicodeDecodeError) as error:
        _warn_damaged(path, str(error).splitlines()[0] if str(error) else type(error).__name__)
        return None
    return entry


#: What a model entry holds.
MODEL_ENTRY_KEYS = (
    "format",
    "fingerprint",
    "num_layers",
    "hidden_size",
    "max_length",
    "prefix_ids",
    "suffix_ids",
    "pad_id",
    "tokenizer",
)


def model_entry(loaded: Any, longest: int) -> dict[str, Any]:
    """The model description a cache entry stores, from a model loaded with PyTorch.

    Parameters
    ----------
    loaded : LoadedEncoder
        The model loaded with the PyTorch runtime.
    longest : int
        The model's own length limit in tokens (before any ``max_length`` asked for).

    Returns
    -------
    dict
        The fields of :data:`MODEL_ENTRY_KEYS`.
    """
    return {
        "format": FORMAT,
        "fingerprint": loaded.fingerprint,
        "num_layers": loaded.num_layers,
        "hidden_size": loaded.hidden_size,
        "max_length": longest,
        "prefix_ids": list(loaded.prefix_ids),
        "suffix_ids": list(loaded.suffix_ids),
        "pad_id": loaded.pad_id,
        "tokenizer": loaded.backend.to_str(),
    }


def write_json_entry(path: Path, entry: Mapping[str, Any]) -> bool:
    """Write a cache entry's JSON atomically, with the checksum of its content; a failed write is a warning.

    Only the cache is lost when it cannot be written.

    Parameters
    ----------
    path : Path
        The file to write.
    entry : mapping
        Its content.

    Returns
    -------
    bool
        Whether it was written.
    """
    content = {**entry, CHECKSUM: content_checksum(entry)}
    try:
        atomic_write(path, lambda tmp: tmp.write_text(json.dumps(content), encoding="utf-8"))
    except WriteFailed as error:
        warnings.warn(f"OpenVINO cache entry not written: {error}", stacklevel=3)
        return False
    return True


def entry_problem(
    entry: Path, xml: Path, weights: Path, expected: Mapping[str, Any], redo: str = "converting the model again"
) -> str | None:
    """What is wrong with a cache entry of a converted (or quantised) model: ``""`` when nothing is.

    Parameters
    ----------
    entry : Path
        Its description (``.ir.json``), written last, with the SHA-256 of both files and of its own content.
    xml, weights : Path
        The model's ``.ir.xml`` and ``.ir.bin``.
    expected : mapping
        What the description must say (``format``, ``layers``; an int8 model's ``precision`` and ``calibration``).
    redo : str
        What is done instead when the entry is damaged (the end of the problem's sentence).

    Returns
    -------
    str or None
        ``""`` when the entry exists and holds; None when there is none; else the problem, one line to warn about.
    """
    if not entry.exists():
        return None
    try:
        description = checked_content(json.loads(entry.read_text(encoding="utf-8")))
        if any(description.get(key) != value for key, value in expected.items()):
            raise ValueError("it describes another conversion")
        for path, field in ((xml, "xml_sha256"), (weights, "bin_sha256")):
            if not path.exists():
                raise ValueError(f"{path.name} is missing")
            if file_sha256(path) != description.get(field):
                raise ValueError(f"{path.name} does not match its checksum")
    except (OSError, ValueError, TypeError, AttributeError, UnicodeDecodeError) as error:
        return _damaged(entry, str(error).splitlines()[0] if str(error) else type(error).__name__, redo)
    return ""


class OpenVinoForward(ForwardPass):
    """The forward pass with OpenVINO: one compiled model per set of layers asked for, converted on first use.

    Parameters
    ----------
    cache_dir : Path
        The conversion cache (:func:`default_cache_dir`).
    key : str
        The model's :func:`source_key`.
    precision : str
        ``fp32`` or ``bf16``.
    torch_model : callable
        Returns the model loaded with PyTorch in fp32 (called only when a conversion is needed).
    threads : int, optional
        Inference threads (default: ``$OMP_NUM_THREADS``, else every usable core).
    """

    name = "openvino"

    def __init__(
        self,
        cache_dir: Path,
        key: str,
        precision: str,
        torch_model: Callable[[], Any],
        threads: int | None = None,
    ) -> None:
        super().__init__()  # compile_s: time waited for converting (when not cached) and compiling
        self.cache_dir = cache_dir
        self.key = key
        self.precision = precision
        self._torch_model = torch_model
        self.threads = threads or int(os.environ.get("OMP_NUM_THREADS") or machine.usable_cores())
        self._requests: dict[tuple[int, ...], Any] = {}
        self._pending: dict[tuple[int, ...], Future] = {}
        self.converted = 0  # conversions this process made (a test and the benchmark read it)

    def prepare(self, needed: Sequence[int]) -> None:
        """Start loading (or converting) and compiling the model for ``needed`` in a helper thread.

        :meth:`pieces` waits for it, so compiling overlaps whatever the caller does meanwhile (reading and
        tokenising the first chunk of a corpus). Only a cached conversion is prepared so: converting loads
        PyTorch and traces the model, which :meth:`pieces` does in the caller's thread.

        Parameters
        ----------
        needed : sequence of int
            Positions in ``hidden_states``.
        """
        layers = tuple(needed)
        if layers in self._requests or layers in self._pending:
            return
        if not self._cached(layers):
            return  # a conversion (loading PyTorch, tracing) runs in the caller's thread, when it is needed
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wsd-compile")
        self._pending[layers] = pool.submit(self._compile, layers)
        pool.shutdown(wait=False)

    def settle(self) -> None:
        """Wait for the compilations :meth:`prepare` started (kept for :meth:`pieces`, errors and all).

        An embedding call that ends early (no occurrence, an error) must not leave a compilation running
        after it returns: OpenVINO holds the process's locale at "C" while it compiles (:func:`locale_kept`).
        """
        wait(list(self._pending.values()))

    def _ready(self, needed: Sequence[int]) -> None:
        """Compile the model for ``needed`` now, or wait for :meth:`prepare`'s thread (the time waited counts)."""
        layers = tuple(needed)
        if layers in self._requests:
            return
        clock = time.perf_counter()
        pending = self._pending.pop(layers, None)
        request, problems = pending.result() if pending is not None else self._compile(layers)
        for problem in problems:  # found in the helper thread: warned about here, in the caller's
            warnings.warn(problem, stacklevel=4)
        self._requests[layers] = request
        self.compile_s += time.perf_counter() - clock

    def _run(
        self, input_ids: np.ndarray, mask: np.ndarray, needed: Sequence[int], rows: np.ndarray, cols: np.ndarray
    ) -> dict[int, np.ndarray]:
        request = self._requests[tuple(needed)]
        request.infer({"input_ids": input_ids, "attention_mask": mask})
        return {
            layer: np.array(request.get_output_tensor(i).data[rows, cols], dtype=np.float32)
            for i, layer in enumerate(needed)
        }

    def _name(self, layers: tuple[int, ...]) -> str:
        """The cache entry's name (without suffix) of the conversion for ``layers``."""
        return f"{self.key}-{'-'.join(map(str, layers))}"

    def _files(self, name: str) -> tuple[Path, Path, Path]:
        """The description, model and weights files of the cache entry ``name``."""
        entry, xml, weights = (name + suffix for suffix in (OPENVINO_IR_ENTRY, OPENVINO_IR_MODEL, OPENVINO_IR_WEIGHTS))
        return self.cache_dir / entry, self.cache_dir / xml, self.cache_dir / weights

    def _cached(self, layers: tuple[int, ...]) -> bool:
        """Whether the cache holds an entry (valid or not: checked when compiling) of the model for ``layers``."""
        return self._files(self._name(layers))[0].exists()

    def _model_file(self, layers: tuple[int, ...]) -> tuple[Path, list[str]]:
        """The IR to compile for ``layers`` (converted now unless a valid cache entry holds it), and the problems
        found in the cache (warned about by the caller's thread)."""
        entry, xml, weights = self._files(self._name(layers))
        problem = entry_problem(entry, xml, weights, {"format": FORMAT, "layers": list(layers)})
        if problem != "":
            self._convert(layers, xml, weights)
        return xml, [problem] if problem else []

    def _compile(self, layers: tuple[int, ...]) -> tuple[Any, list[str]]:
        """An inference request of the model for ``layers`` (from the cache when a valid entry is there, else
        converted), and the problems found in the cache (warned about by the caller's thread)."""
        import openvino as ov

        xml, problems = self._model_file(layers)
        core = ov.Core()
        core.set_property({"CACHE_DIR": str(self.cache_dir / OPENVINO_COMPILED_DIR)})
        config = {
            "INFERENCE_PRECISION_HINT": OPENVINO_PRECISION_HINTS[self.precision],
            "INFERENCE_NUM_THREADS": self.threads,
        }
        try:
            with locale_kept():
                compiled = core.compile_model(str(xml), "CPU", config)
            return compiled.create_infer_request(), problems
        except RuntimeError as error:
            raise ModelError(f"OpenVINO cannot compile {xml}: {str(error).splitlines()[0]}") from error

    def _convert(self, layers: tuple[int, ...], xml: Path, weights: Path) -> None:
        """Convert the PyTorch model to IR returning the hidden states of ``layers``; store it in the cache."""
        import openvino as ov
        import torch

        model = self._torch_model()
        wrapper = hidden_states_module(model, layers)
        example = torch.ones((2, 8), dtype=torch.int64)
        shape = ov.PartialShape([-1, -1])
        # tracing reads every attribute of the model, and transformers logs a note on an unused loss setting
        with torch.inference_mode(False), torch.no_grad(), warnings.catch_warnings(), quiet_transformers():
            warnings.simplefilter("ignore")  # tracing warnings about Python control flow on shapes
            with locale_kept():
                converted = ov.convert_model(
                    wrapper,
                    example_input={"input_ids": example, "attention_mask": example},
                    input=[("input_ids", shape, ov.Type.i64), ("attention_mask", shape, ov.Type.i64)],
                )
        self.converted += 1
        self._keep(converted, xml, weights, {"format": FORMAT, "layers": list(layers)})

    def _keep(self, converted: Any, xml: Path, weights: Path, description: Mapping[str, Any]) -> None:
        """Store a model in the cache: its files, then (last) its description with their checksums."""
        try:
            self._store(converted, xml, weights)
            written = {**description, "xml_sha256": file_sha256(xml), "bin_sha256": file_sha256(weights)}
            written[CHECKSUM] = content_checksum(written)
            atomic_write(xml.with_name(xml.name.replace(OPENVINO_IR_MODEL, OPENVINO_IR_ENTRY)),
                         lambda tmp: tmp.write_text(json.dumps(written), encoding="utf-8"))  # fmt: skip
        except WriteFailed as error:
            raise ModelError(
                f"cannot write the OpenVINO conversion cache ({error}); set WSD_OPENVINO_CACHE to a writable folder"
            ) from error

    def _store(self, converted: Any, xml: Path, weights: Path) -> None:
        """Serialise the converted model into a scratch folder of the cache, then move both files into place."""
        import openvino as ov

        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix=".convert-", dir=self.cache_dir))
        except OSError as exc:
            raise WriteFailed(f"cannot create a folder in {self.cache_dir}: {exc.strerror or exc}") from exc
        try:
            with locale_kept():
                ov.serialize(converted, str(scratch / "model.xml"), str(scratch / "model.bin"))
            atomic_write(weights, lambda tmp: os.replace(scratch / "model.bin", tmp))
            atomic_write(xml, lambda tmp: os.replace(scratch / "model.xml", tmp))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


@functools.lru_cache(maxsize=1)
def _wrapper_class() -> type:
    import torch

    class HiddenStates(torch.nn.Module):
        """The encoder's hidden states at the given positions, as a tuple (what the IR returns)."""

        def __init__(self, model: Any, layers: tuple[int, ...]) -> None:
            super().__init__()
            self.model = model
            self.layers = layers

        def forward(self, input_ids: Any, attention_mask: Any) -> tuple[Any, ...]:
            return tuple(hidden_states(self.model, input_ids, attention_mask, self.layers))

    return HiddenStates


def hidden_states_module(model: Any, layers: tuple[int, ...]) -> Any:
    """A ``torch.nn.Module`` returning the hidden states of ``layers`` of ``model``: what is converted.

    Parameters
    ----------
    model : torch.nn.Module
        A Hugging Face encoder.
    layers : tuple of int
        Positions in its ``hidden_states``.

    Returns
    -------
    torch.nn.Module
        ``forward(input_ids, attention_mask)`` returns a tuple of ``(batch, tokens, hidden)`` tensors.
    """
    return _wrapper_class()(model, layers)
