"""Average the weights of encoders of one architecture: a uniform "soup" of tuned runs, or a tuned run
interpolated with its base model (:func:`average_encoders`).

Two published ways of making fine-tuning robust work on the weights alone, with no training:

- **A model soup** (Wortsman et al., 2022): the mean of the weights of runs fine-tuned from one base model with
  different seeds or settings. Runs from one base stay in one basin of the loss, so their mean is a model, and it
  is often better than each run: the seed noise of the runs partly cancels.
- **WiSE-FT** (Wortsman et al., 2022): ``(1 − α)·base + α·tuned``, which keeps more of what the base model knew
  about data unlike the tuning data.

The result is a model folder like the one :func:`wsd.tune.tune_encoder` writes (weights, tokenizer,
sentence-transformers files, ``README.md``, ``wsd_tune.json``). Its ``wsd_tune.json`` names the ingredients and
their weights under ``average``, and its ``training_lemmas`` / ``validation_lemmas`` are the union of the
ingredients', so the leakage guard of ``wsd evaluate`` (:func:`wsd.tune.card.training_overlap`) still sees every
lemma any ingredient was trained on.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wsd.errors import ConfigError
from wsd.tune.facts import SourceFacts, TuneConfig, TuneFacts

#: The options that decide what a tuned model's word vectors are; the tuned ingredients of an average must agree.
WORD_VECTOR_OPTIONS = ("layers", "pooling", "window_tokens", "markers", "context_vector")


def mixing_weights(count: int, weights: Sequence[float] | None) -> list[float]:
    """The weights of ``count`` ingredients, normalised to sum to 1 (None: uniform).

    Parameters
    ----------
    count : int
        How many models are averaged (at least 2).
    weights : sequence of float or None
        One non-negative finite weight per model, not all zero. They are divided by the largest before they are
        summed, so weights near the largest float (``1e308``) add up without overflowing.

    Returns
    -------
    list of float

    Raises
    ------
    ConfigError
        For fewer than two models, a count mismatch, a weight that is negative or not finite, weights that are
        all zero, or a positive weight so much smaller than the largest that its share is no float above 0.

    Examples
    --------
    >>> mixing_weights(2, None)
    [0.5, 0.5]
    >>> mixing_weights(2, [1, 3])
    [0.25, 0.75]
    >>> mixing_weights(2, [1e308, 1e308])
    [0.5, 0.5]
    """
    if count < 2:
        raise ConfigError(f"averaging needs at least two models, got {count}")
    if weights is None:
        return [1.0 / count] * count
    values = [float(w) for w in weights]
    if len(values) != count:
        raise ConfigError(f"{len(values)} weights for {count} models: give one weight per model")
    largest = max(values) if all(math.isfinite(w) for w in values) else math.inf
    if not math.isfinite(largest) or any(w < 0 for w in values) or largest <= 0:
        raise ConfigError(f"averaging weights must be finite, non-negative and not all zero, got {values}")
    scaled = [w / largest for w in values]  # in [0, 1]: their sum (at most count) cannot overflow
    total = math.fsum(scaled)
    shares = [w / total for w in scaled]
    for weight, share in zip(values, shares, strict=True):
        if weight > 0 and not share > 0:
            raise ConfigError(
                f"averaging weight {weight!r} is too small next to {largest!r} to be represented (its share "
                "would be 0); give 0 to leave that model out, or weights closer together"
            )
    return shares


def _word_vector_options(facts: Sequence[tuple[str, Mapping[str, Any] | None]]) -> dict[str, Any]:
    """The word-vector options the tuned ingredients share (refused when two of them differ)."""
    shared: dict[str, Any] = {}
    first: dict[str, str] = {}
    for name, fact in facts:
        config = (fact or {}).get("config", {})
        options = config.get("word_vectors", {}) if (fact or {}).get("average") else config.get("options", {})
        for key in WORD_VECTOR_OPTIONS:
            if key not in options:
                continue
            if key in shared and shared[key] != options[key]:
                raise ConfigError(
                    f"cannot average {first[key]} and {name}: they were tuned for different word vectors "
                    f"({key} {shared[key]!r} vs {options[key]!r})"
                )
            shared.setdefault(key, options[key])
            first.setdefault(key, name)
    return shared


def _state_dicts_compatible(names: Sequence[str], states: Sequence[Mapping[str, Any]]) -> None:
    """Refuse models whose weights differ in names or shapes (another architecture)."""
    reference = states[0]
    for name, state in zip(names[1:], states[1:], strict=True):
        missing = sorted(set(reference) ^ set(state))
        if missing:
            raise ConfigError(
                f"cannot average {names[0]} and {name}: their weights differ in names ({missing[0]} is in only one); "
                "average models of one architecture, tuned from one base model"
            )
        for key, tensor in reference.items():
            if tuple(tensor.shape) != tuple(state[key].shape):
                raise ConfigError(
                    f"cannot average {names[0]} and {name}: {key} has shape {tuple(tensor.shape)} vs "
                    f"{tuple(state[key].shape)}"
                )


def average_state(states: Sequence[Mapping[str, Any]], weights: Sequence[float], names: Sequence[str]) -> dict:
    """The weighted mean of state dicts, computed in float64 and cast back; integer buffers must agree.

    Parameters
    ----------
    states : sequence of mapping of str to torch.Tensor
        The models' state dicts (the same names and shapes).
    weights : sequence of float
        Their weights (summing to 1).
    names : sequence of str
        The models' names (for messages).

    Returns
    -------
    dict of str to torch.Tensor

    Raises
    ------
    ConfigError
        For weights of other names or shapes, integer buffers (position ids) that differ, or a mean that is not
        finite (an ingredient with NaN or infinite weights), naming the tensor and the ingredients.
    """
    import torch

    _state_dicts_compatible(names, states)
    averaged: dict[str, Any] = {}
    for key, tensor in states[0].items():
        if not torch.is_floating_point(tensor):
            for name, state in zip(names[1:], states[1:], strict=True):
                if not torch.equal(tensor, state[key]):
                    raise ConfigError(f"cannot average {names[0]} and {name}: the buffer {key} differs")
            averaged[key] = tensor.clone()
            continue
        total = torch.zeros(tensor.shape, dtype=torch.float64)
        for weight, state in zip(weights, states, strict=True):
            total += weight * state[key].to(torch.float64)
        mean = total.to(tensor.dtype)
        if not bool(torch.isfinite(mean).all()):
            bad = [name for name, state in zip(names, states, strict=True) if not torch.isfinite(state[key]).all()]
            why = f"{', '.join(bad)} {'holds' if len(bad) == 1 else 'hold'} NaN or infinite values there"
            raise ConfigError(
                f"cannot average {', '.join(names)}: the mean of {key} is not finite "
                f"({why if bad else 'it overflows'}); nothing was written"
            )
        averaged[key] = mean
    return averaged


def _same_tokenizer(names: Sequence[str], encoders: Sequence[Any]) -> None:
    """Refuse models whose vocabularies differ (their embedding rows would mean different pieces)."""
    reference = encoders[0].loaded.tokenizer.get_vocab()
    for name, encoder in zip(names[1:], encoders[1:], strict=True):
        if encoder.loaded.tokenizer.get_vocab() != reference:
            raise ConfigError(f"cannot average {names[0]} and {name}: their tokenizers have different vocabularies")


def _union(facts: Sequence[Mapping[str, Any] | None], key: str) -> list[str]:
    return sorted({lemma for fact in facts if fact for lemma in fact.get(key, [])})


def _merged_sources(facts: Sequence[TuneFacts | None]) -> list[SourceFacts]:
    """The ingredients' training sources, one entry per source name: the first one's counts, every lemma."""
    merged: dict[str, SourceFacts] = {}
    for fact in facts:
        for source in (fact or {}).get("sources", []):
            entry = merged.setdefault(source["name"], {**source, "lemmas": []})
            entry["lemmas"] = sorted(set(entry["lemmas"]) | set(source.get("lemmas", [])))
    return list(merged.values())


def average_encoders(
    models: Sequence[str | os.PathLike[str] | None],
    out: str | os.PathLike[str],
    *,
    weights: Sequence[float] | None = None,
    overwrite: bool = False,
    recipe: Mapping[str, Any] | None = None,
) -> Any:
    """Average the weights of encoders of one architecture and write the result as a model folder.

    Parameters
    ----------
    models : sequence of str, path or None
        The ingredients, as ``--model`` takes them (None or ``"default"``: the bundled model; a folder, one
        ``wsd tune`` wrote too; ``wsd:NAME``; a Hub name). The first one's sentence-transformers files are
        carried over.
    out : path
        The model folder to write (absent, empty, or a folder this same average wrote).
    weights : sequence of float, optional
        One weight per model (normalised to sum to 1); default uniform. ``[1 − α, α]`` with the base model
        first and a tuned model second is WiSE-FT's interpolation.
    overwrite : bool
        Replace a model folder of another configuration.
    recipe : mapping, optional
        The stamp of the ``wsd tune --recipe`` that made this average (``recipe`` in its ``wsd_tune.json``,
        :meth:`wsd.tune.recipes.TuneRecipe.stamp`).

    Returns
    -------
    wsd.tune.api.TuneResult
        The folder and its facts.

    Raises
    ------
    ConfigError
        Fewer than two models, bad weights, ``out`` that is or holds an ingredient, models of different
        architectures, vocabularies or word-vector options.
    ModelError
        An ingredient that cannot be found or loaded.

    Examples
    --------
    >>> average_encoders(["tuned-seed0", "tuned-seed1", "tuned-seed2"], "tuned-soup")      # doctest: +SKIP
    >>> average_encoders([None, "tuned-seed0"], "tuned-wise", weights=[0.5, 0.5])        # doctest: +SKIP
    """
    from types import SimpleNamespace

    from wsd import machine
    from wsd.embed.models import load_encoder, model_source
    from wsd.io.outputs import check_disjoint, claim_folder
    from wsd.io.provenance import library_versions
    from wsd.tune.api import TuneResult, write_model_folder
    from wsd.tune.card import TUNE_FORMAT, read_tune_facts

    shares = mixing_weights(len(models), weights)
    sources = [model_source(model) for model in models]
    names = [source.name for source in sources]
    folder = Path(out)
    check_disjoint(
        folder, {f"--average {source.name}": source.location for source in sources if source.local}, option="--out"
    )
    facts_in = [read_tune_facts(model) for model in models]
    word_vectors = _word_vector_options(list(zip(names, facts_in, strict=True)))
    encoders = [
        SimpleNamespace(loaded=load_encoder(model, device="cpu", precision="fp32", runtime="torch")) for model in models
    ]
    _same_tokenizer(names, encoders)
    ingredients = [
        {
            "model": name,
            "location": "bundled" if model is None or str(model) in ("", "default") else str(model),
            "fingerprint": encoder.loaded.fingerprint,
            "weight": share,
            "tuned": fact is not None,
        }
        for name, model, encoder, fact, share in zip(names, models, encoders, facts_in, shares, strict=True)
    ]
    config: TuneConfig = {
        "average": [{k: row[k] for k in ("model", "fingerprint", "weight")} for row in ingredients],
        "word_vectors": word_vectors,
    }
    states = [e.loaded.model.state_dict() for e in encoders]
    # before the folder is claimed: a refused average (other shapes, a mean that is not finite) leaves nothing behind
    state = average_state(states, shares, names)
    claim_folder(folder, "encoder", config=config, overwrite=overwrite)
    target = encoders[0]
    target.loaded.model.load_state_dict(state)
    bases = {
        (fact["base_model"]["name"], fact["base_model"].get("fingerprint"))
        for fact in facts_in
        if fact is not None and "base_model" in fact
    }
    untuned = [row for row in ingredients if not row["tuned"]]
    base = (
        next(iter(bases))
        if len(bases) == 1
        else (untuned[0]["model"], untuned[0]["fingerprint"])
        if untuned
        else (names[0], ingredients[0]["fingerprint"])
    )
    facts: TuneFacts = {
        "format": TUNE_FORMAT,
        "config": config,
        "average": ingredients,
        "base_model": {"name": base[0], "fingerprint": base[1]},
        "sources": _merged_sources(facts_in),
        "training_lemmas": _union(facts_in, "training_lemmas"),
        "validation_lemmas": _union(facts_in, "validation_lemmas"),
        "inherited_lemmas": _union(facts_in, "inherited_lemmas"),
        "excluded_lemmas": sorted(
            set.intersection(*[set(f.get("excluded_lemmas", [])) for f in facts_in if f]) if any(facts_in) else set()
        ),
        "training": {"machine": machine.describe(), "seconds": 0.0, "averaged": len(models)},
        "validation": {"pairs": 0, "history": []},
        "versions": library_versions(),
    }
    if recipe is not None:
        facts["recipe"] = dict(recipe)
    write_model_folder(folder, target, facts, str(models[0]) if models[0] is not None else None)
    return TuneResult(folder, facts)
