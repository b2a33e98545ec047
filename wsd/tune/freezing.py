"""Keep the lower part of an encoder fixed while it is tuned (``--freeze-layers N``).

The input embeddings and the lowest ``N`` transformer layers stop requiring gradients: the optimizer never
changes them, and autograd's backward pass ends above them (nothing below a frozen layer requires a gradient),
so a step is cheaper as well. What the base model learned there cannot be forgotten.

The layer stack is found by its shape, not by an architecture's attribute names: the first ``ModuleList``
whose length is ``config.num_hidden_layers`` (``encoder.layer`` of BERT, MPNet and XLM-R, ``transformer.layer``
of DistilBERT).
"""

from __future__ import annotations

import torch

from wsd.errors import ConfigError


def layer_stack(model: torch.nn.Module) -> torch.nn.ModuleList:
    """The transformer layers of ``model``, lowest first.

    Parameters
    ----------
    model : torch.nn.Module
        A Hugging Face encoder (its ``config.num_hidden_layers`` says how many layers it has).

    Returns
    -------
    torch.nn.ModuleList

    Raises
    ------
    ConfigError
        When no module list of that length is found.
    """
    count = getattr(getattr(model, "config", None), "num_hidden_layers", None)
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == count:
            return module
    raise ConfigError(
        f"cannot find the {count} transformer layers of {type(model).__name__} to freeze; use --freeze-layers 0"
    )


def freeze_lower_layers(model: torch.nn.Module, count: int) -> int:
    """Stop the input embeddings and the lowest ``count`` layers of ``model`` from training.

    Parameters
    ----------
    model : torch.nn.Module
        The encoder being tuned (changed in place).
    count : int
        Layers to freeze, with the embeddings below them; 0 freezes nothing.

    Returns
    -------
    int
        The number of weights (scalars) frozen.

    Raises
    ------
    ConfigError
        When ``count`` is not below the model's number of layers (nothing would be left to train).
    """
    if count <= 0:
        return 0
    layers = layer_stack(model)
    if count >= len(layers):
        raise ConfigError(_nothing_left(count, len(layers)))
    embeddings = getattr(model, "embeddings", None)
    if not isinstance(embeddings, torch.nn.Module):
        input_embeddings = getattr(model, "get_input_embeddings", None)
        if not callable(input_embeddings):
            raise ConfigError(f"cannot find the input embeddings of {type(model).__name__}; use --freeze-layers 0")
        embeddings = input_embeddings()
    frozen = 0
    for module in [embeddings, *layers[:count]]:
        for weight in module.parameters():
            if weight.requires_grad:
                weight.requires_grad_(False)
                frozen += weight.numel()
    return frozen


def check_freeze_count(model: str | None, count: int) -> None:
    """Refuse, before anything is read or loaded, a ``--freeze-layers`` that leaves no layer to train.

    The number of layers is read from a local model's ``config.json`` (the bundled model, a folder, a
    ``wsd:NAME``); a Hub name is checked when it loads (:func:`freeze_lower_layers`).

    Parameters
    ----------
    model : str or None
        The base model option.
    count : int
        The ``freeze_layers`` option.

    Raises
    ------
    ConfigError
        When ``count`` is not below the model's number of layers.
    """
    if count <= 0:
        return
    from wsd.embed.models import read_model_config

    config = read_model_config(model)  # none to read: loading the model reports what is wrong with it
    layers = config.get("num_hidden_layers") if config is not None else None
    if isinstance(layers, int) and count >= layers:
        raise ConfigError(_nothing_left(count, layers))


def _nothing_left(count: int, layers: int) -> str:
    return (
        f"--freeze-layers {count} leaves nothing to train: the model has {layers} layers (freeze at most {layers - 1})"
    )
