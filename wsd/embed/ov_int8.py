"""int8 with OpenVINO: the converted model quantised once with NNCF on fixed windows of text, cached beside it.

``--runtime openvino --precision int8`` runs the same converted model as fp32 (:mod:`wsd.embed.ov_runtime`), after
NNCF's post-training quantisation (``nncf.quantize`` with ``model_type=TRANSFORMER``: int8 weights and
activations in the matrix products, SmoothQuant on their inputs, bias correction). Quantising needs inputs to
measure the ranges of the activations: the calibration windows (:func:`calibration_windows`), by default up to
:data:`CALIBRATION_WINDOWS` sentences of the bundled demo, one window each, tokenised by the model's own tokenizer.

The windows are fixed, not taken from the corpus being embedded: the same model gives the same int8 vectors for
the same text in every run, so runs on different corpora (the periods of a change study, a resumed run, new text
predicted later) stay comparable, and each model is quantised once. How much int8 costs in quality is measured in
``experiments/results/int8_quality/int8_quality.md``.

The quantised model is cached beside the fp32 conversion, keyed like it and by what it was quantised on:
``<source>-<layers>-int8-<calibration>.ir.xml`` / ``.ir.bin`` and ``.ir.json`` (written last, with the SHA-256
of both files and of its own content), where ``<calibration>`` is :func:`calibration_identity` (the windows'
token ids, the NNCF version and :data:`QUANTISATION`). A damaged entry is said so in a warning and quantised
again; it is never used.

NNCF is an optional dependency (``pip install 'wsd[int8]'``, which ``make setup`` installs); it is imported only
to quantise, with its usage statistics off and its progress bars quiet.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from wsd.embed.ov_runtime import FORMAT, OpenVinoForward, check_nncf, entry_problem, locale_kept, nncf_installed
from wsd.errors import ConfigError, ModelError
from wsd.machine import library_version

#: The most calibration windows NNCF measures (its own default subset size; the bundled demo has a few more).
CALIBRATION_WINDOWS = 300
#: The bundled demo's labelled sentences: the default calibration text.
DEMO_TEXTS = Path(__file__).resolve().parents[1] / "demo_data" / "labelled.tsv"
#: How NNCF quantises (part of the cache key): NNCF's recommendation for transformers (``model_type``: its
#: ``mixed`` preset, symmetric weights and asymmetric activations, and SmoothQuant on the matrix products), on
#: the CPU's int8 kernels, every matrix product quantised (``float_nodes``: regular expressions of the operations
#: NNCF leaves in float, none). Measured in ``experiments/results/int8_quality/int8_quality.md``.
QUANTISATION: dict[str, Any] = {
    "model_type": "transformer",
    "target_device": "CPU",
    "fast_bias_correction": True,
    "float_nodes": [],
}
#: Bumped when what this module writes or how it quantises changes: older entries are then quantised again.
INT8_FORMAT = 1


def demo_texts() -> list[str]:
    """The distinct sentences of the bundled demo's labelled uses, in file order.

    Returns
    -------
    list of str

    Examples
    --------
    >>> texts = demo_texts()
    >>> len(texts) >= CALIBRATION_WINDOWS, len(set(texts)) == len(texts)
    (True, True)
    """
    with DEMO_TEXTS.open(encoding="utf-8", newline="") as handle:
        return list(dict.fromkeys(row["text"] for row in csv.DictReader(handle, delimiter="\t")))


def calibration_windows(
    backend: Any,
    prefix_ids: Sequence[int],
    suffix_ids: Sequence[int],
    max_length: int,
    texts: Sequence[str] | None = None,
    limit: int | None = None,
) -> list[np.ndarray]:
    """The windows NNCF measures the activations on: one per text, as the encoder feeds a text that fits.

    Parameters
    ----------
    backend : tokenizers.Tokenizer
        The model's tokenizer (without padding or truncation).
    prefix_ids, suffix_ids : sequence of int
        The special tokens put before and after a text.
    max_length : int
        The longest window in tokens, special tokens included (a longer text is cut).
    texts : sequence of str, optional
        The texts (None: :func:`demo_texts`).
    limit : int, optional
        The most windows, taken evenly from ``texts`` (the first and the last among them; None:
        :data:`CALIBRATION_WINDOWS`).

    Returns
    -------
    list of ndarray of int64
        The token ids of each window, special tokens included.

    Examples
    --------
    >>> from tokenizers import Tokenizer, models, pre_tokenizers
    >>> backend = Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1, "bank": 2}, unk_token="[UNK]"))
    >>> backend.pre_tokenizer = pre_tokenizers.Whitespace()
    >>> [w.tolist() for w in calibration_windows(backend, [7], [8], 4, ["a bank", "a a a bank"])]
    [[7, 1, 2, 8], [7, 1, 1, 8]]
    """
    chosen = list(demo_texts() if texts is None else texts)
    limit = CALIBRATION_WINDOWS if limit is None else limit
    if limit < 1:
        raise ConfigError(f"int8 calibration needs at least one window, not {limit}")
    if len(chosen) > limit:
        chosen = [chosen[i] for i in np.unique(np.linspace(0, len(chosen) - 1, limit).astype(np.int64))]
    room = max_length - len(prefix_ids) - len(suffix_ids)
    if room < 1 or not chosen:
        raise ConfigError("int8 calibration has no text to measure the model on")
    encoded = backend.encode_batch(chosen, add_special_tokens=False)
    return [np.array([*prefix_ids, *piece.ids[:room], *suffix_ids], dtype=np.int64) for piece in encoded]


def calibration_identity(windows: Sequence[np.ndarray]) -> str:
    """A hash of what a quantisation depends on besides the model: the windows' token ids, NNCF's version and
    :data:`QUANTISATION`.

    Parameters
    ----------
    windows : sequence of ndarray
        The calibration windows (:func:`calibration_windows`).

    Returns
    -------
    str
        16 hexadecimal digits.

    Examples
    --------
    >>> a = calibration_identity([np.array([101, 7, 102])])
    >>> a == calibration_identity([np.array([101, 7, 102])]), a == calibration_identity([np.array([101, 8, 102])])
    (True, False)
    """
    version = (library_version("nncf") or "none") if nncf_installed() else "none"
    settings = json.dumps({"format": INT8_FORMAT, "nncf": version, **QUANTISATION}, sort_keys=True)
    digest = hashlib.sha256(settings.encode())
    for window in windows:
        digest.update(np.asarray(window, dtype="<i8").tobytes() + b"\0")
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def _nncf_quiet() -> Iterator[Any]:
    """Import NNCF with its usage statistics off and its log and progress bars quiet, for the time of a quantisation.

    NNCF decides at import whether it sends usage statistics (``openvino-telemetry``); ``$NNCF_CI`` turns that off,
    so it is set while NNCF is first imported, and put back. Its log's INFO lines and its progress bars (``rich``'s
    shared console) are muted until the block ends.
    """
    if "nncf" not in sys.modules:
        previous = os.environ.get("NNCF_CI")
        os.environ["NNCF_CI"] = "1"
        try:
            import nncf
        finally:
            if previous is None:
                os.environ.pop("NNCF_CI", None)
            else:
                os.environ["NNCF_CI"] = previous
    import nncf
    from rich import get_console

    logger = logging.getLogger("nncf")
    level, console = logger.level, get_console()
    quiet = console.quiet
    logger.setLevel(logging.WARNING)
    console.quiet = True
    try:
        yield nncf
    finally:
        logger.setLevel(level)
        console.quiet = quiet


def quantize(model: Any, windows: Sequence[np.ndarray]) -> Any:
    """The OpenVINO model quantised to int8 with NNCF, its activation ranges measured on ``windows``.

    Parameters
    ----------
    model : openvino.Model
        The fp32 model (its inputs ``input_ids`` and ``attention_mask``, of dynamic batch and length).
    windows : sequence of ndarray
        The calibration windows (:func:`calibration_windows`), each one input of batch 1.

    Returns
    -------
    openvino.Model
        The quantised model.
    """
    samples = [{"input_ids": w[None, :], "attention_mask": np.ones((1, len(w)), dtype=np.int64)} for w in windows]
    with _nncf_quiet() as nncf, locale_kept():
        floating = list(QUANTISATION["float_nodes"])
        return nncf.quantize(
            model,
            nncf.Dataset(samples),
            model_type=nncf.ModelType(QUANTISATION["model_type"]),
            target_device=nncf.TargetDevice[QUANTISATION["target_device"]],
            fast_bias_correction=QUANTISATION["fast_bias_correction"],
            ignored_scope=nncf.IgnoredScope(patterns=floating, validate=False) if floating else None,
            subset_size=len(samples),
        )


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class OpenVinoInt8Forward(OpenVinoForward):
    """The OpenVINO forward pass in int8: the converted model, quantised once (:func:`quantize`) and cached.

    Parameters
    ----------
    cache_dir : Path
        The conversion cache (:func:`~wsd.embed.ov_runtime.default_cache_dir`).
    key : str
        The model's :func:`~wsd.embed.ov_runtime.source_key`.
    torch_model : callable
        Returns the model loaded with PyTorch in fp32 (called only when the fp32 conversion is needed).
    windows : sequence of ndarray
        The calibration windows (:func:`calibration_windows`).
    threads : int, optional
        Inference threads (default: ``$OMP_NUM_THREADS``, else every usable core).
    announce : callable, optional
        Receives one line when a quantisation starts (None: silent; by default standard error).
    """

    def __init__(
        self,
        cache_dir: Path,
        key: str,
        torch_model: Callable[[], Any],
        windows: Sequence[np.ndarray],
        threads: int | None = None,
        announce: Callable[[str], None] | None = _stderr,
    ) -> None:
        check_nncf()
        super().__init__(cache_dir, key, "int8", torch_model, threads)
        self.windows = list(windows)
        self.calibration = calibration_identity(self.windows)
        self.announce = announce
        self.quantised = 0  # quantisations this process made (the tests read it)

    def _int8_name(self, layers: tuple[int, ...]) -> str:
        """The cache entry's name of the int8 model for ``layers``: the fp32 entry's, the precision, the calibration."""
        return f"{self._name(layers)}-int8-{self.calibration}"

    def _cached(self, layers: tuple[int, ...]) -> bool:
        return self._files(self._int8_name(layers))[0].exists()

    def _model_file(self, layers: tuple[int, ...]) -> tuple[Path, list[str]]:
        """The int8 IR for ``layers``: from the cache when a valid entry holds it, else quantised now from the fp32
        IR (itself converted first where needed); and the problems found in the cache."""
        entry, xml, weights = self._files(self._int8_name(layers))
        expected = {"format": FORMAT, "layers": list(layers), "precision": "int8", "calibration": self.calibration}
        problem = entry_problem(entry, xml, weights, expected, redo="quantising the model again")
        if problem == "":
            return xml, []
        source, problems = super()._model_file(layers)
        import openvino as ov

        if self.announce is not None:
            self.announce(
                f"quantising the model to int8 with NNCF on {len(self.windows)} calibration windows "
                f"(once per model; cached in {self.cache_dir})"
            )
        try:
            quantised = quantize(ov.Core().read_model(str(source)), self.windows)
        except (RuntimeError, ValueError) as error:  # NNCF's own errors derive from these
            raise ModelError(f"NNCF cannot quantise {source} to int8: {str(error).splitlines()[0]}") from error
        self.quantised += 1
        self._keep(quantised, xml, weights, expected | {"calibration_windows": len(self.windows)})
        return xml, [*problems, *([problem] if problem else [])]
