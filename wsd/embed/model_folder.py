"""Checks that a model folder holds a usable model: before ``transformers`` reads it, and after it loaded.

``transformers`` loads some broken folders without a word: without tokenizer files it builds a 5-token
vocabulary and every word becomes ``[UNK]``; with fewer layers in the weights than ``config.json`` names it
initialises the rest at random. Others fail with a message about its internals. Each case here is a
:class:`~wsd.errors.ModelError` of one line that names the folder (or the model) and what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wsd.errors import ModelError

#: Files of which a tokenizer is built (any one is enough; ``*.model`` is a SentencePiece model).
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "vocab.json", "tokenizer.model", "spiece.model", "source.spm")
#: Fewer tokens than this is not a real vocabulary (``transformers`` makes 5 from no files at all).
MIN_VOCABULARY = 100
#: Weight files ``transformers`` loads a PyTorch model from (sharded checkpoints have several).
WEIGHT_PATTERNS = ("*.safetensors", "*.bin")
#: Parameters a checkpoint may lack without harm: wsd reads hidden states, never the pooler.
HARMLESS_MISSING = ("pooler.",)


def check_model_folder(folder: Path) -> dict[str, Any]:
    """Check a local model folder before loading it: a folder, a JSON ``config.json``, tokenizer files, weights.

    Parameters
    ----------
    folder : Path
        The folder given as the model.

    Returns
    -------
    dict
        The parsed ``config.json``.

    Raises
    ------
    ModelError
        For a missing folder, a file, an empty folder, a ``config.json`` that is missing, not UTF-8, not JSON
        or not an object, no tokenizer files, no weights, safetensors weights that are damaged, or weights
        whose hidden size differs from ``config.json``'s.
    """
    if not folder.exists():
        raise ModelError(f"model folder not found: {folder}")
    if not folder.is_dir():
        raise ModelError(f"model {folder} is a file, not a model folder (give the folder that holds config.json)")
    if not any(folder.iterdir()):
        raise ModelError(f"model folder {folder} is empty (no config.json, tokenizer or weights)")
    config = read_config(folder / "config.json", folder)
    if not any((folder / name).is_file() for name in TOKENIZER_FILES) and not any(folder.glob("*.model")):
        raise ModelError(
            f"model folder {folder} has no tokenizer files (one of {', '.join(TOKENIZER_FILES)}); "
            "copy them from where the model came from"
        )
    weights = [path for pattern in WEIGHT_PATTERNS for path in sorted(folder.glob(pattern)) if path.is_file()]
    if not weights:
        raise ModelError(f"model folder {folder} has no weights (model.safetensors or pytorch_model.bin)")
    for path in weights:
        if path.suffix == ".safetensors":
            _check_safetensors(path, config)
    return config


def read_config(path: Path, folder: Path) -> dict[str, Any]:
    """``config.json`` parsed, or a ModelError saying why it cannot be.

    Parameters
    ----------
    path : Path
        The ``config.json``.
    folder : Path
        The model folder, as messages name it.

    Returns
    -------
    dict

    Raises
    ------
    ModelError
        For a file that is missing, not UTF-8, not JSON, or not a JSON object.
    """
    if not path.is_file():
        raise ModelError(f"{folder} is not a Hugging Face model folder (no config.json)")
    try:
        config = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ModelError(f"{path} is not UTF-8 text (byte {exc.start}); it is not a model configuration") from exc
    except json.JSONDecodeError as exc:
        raise ModelError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    if not isinstance(config, dict):
        raise ModelError(f"{path} holds a JSON {type(config).__name__}, not an object of model settings")
    return config


def _check_safetensors(path: Path, config: dict[str, Any]) -> None:
    """Open a safetensors file's header (which checks that the file is whole) and compare the hidden size."""
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(str(path), framework="numpy") as weights:  # numpy: no torch import
            shapes = {name: weights.get_slice(name).get_shape() for name in weights.keys()}  # noqa: SIM118
    except (SafetensorError, OSError) as exc:
        raise ModelError(f"weights file {path} is damaged ({first_line(exc)}); download or copy it again") from exc
    hidden = config.get("hidden_size")
    if not isinstance(hidden, int) or "embedding_size" in config:  # ALBERT-like: embeddings narrower on purpose
        return
    for name, shape in shapes.items():
        if name.endswith("word_embeddings.weight") and len(shape) == 2 and shape[1] != hidden:
            raise ModelError(
                f"{path.parent / 'config.json'} says hidden_size {hidden} but the weights in {path.name} have "
                f"{shape[1]} (tensor {name}); config and weights come from different models"
            )


def check_loaded(name: str, tokenizer: Any, loading_info: dict[str, Any]) -> None:
    """Check what ``transformers`` loaded: a real vocabulary, and every parameter taken from the weights.

    Parameters
    ----------
    name : str
        The model's display name (a folder or a Hub name), for the message.
    tokenizer : PreTrainedTokenizerBase
        The loaded tokenizer.
    loading_info : dict
        ``from_pretrained(..., output_loading_info=True)``'s second value (``missing_keys`` ...).

    Raises
    ------
    ModelError
        For a vocabulary of fewer than :data:`MIN_VOCABULARY` tokens (every word would be ``[UNK]``), or
        parameters the weights lack (they would be random), the pooler excepted.
    """
    size = len(tokenizer)
    if size < MIN_VOCABULARY:
        raise ModelError(
            f"the tokenizer of model {name} has only {size} tokens: its vocabulary files are missing or damaged "
            "(every word would be [UNK])"
        )
    missing = sorted(key for key in loading_info.get("missing_keys", ()) if not key.startswith(HARMLESS_MISSING))
    if missing:
        raise ModelError(
            f"the weights of model {name} lack {len(missing)} parameters its config.json describes "
            f"(e.g. {missing[0]}): config and weights come from different models"
        )


def first_line(exc: BaseException) -> str:
    """The first non-empty line of an exception's message, or its type's name.

    Parameters
    ----------
    exc : BaseException
        Any exception.

    Returns
    -------
    str
        One line for an error message.
    """
    for line in str(exc).splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__
