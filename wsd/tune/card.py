"""What a tuned model folder says about itself: ``wsd_tune.json``, its model card, and the leakage guard.

``wsd_tune.json`` (:data:`wsd.io.layout.TUNE_FILE`) holds the facts of the training run, machine-readable
(typed as :class:`wsd.tune.facts.TuneFacts`):

=====================  ===================================================================================
key                    value
=====================  ===================================================================================
``format``             ``wsd-tune/1``
``config``             what decides the weights: the options, the sources, the exclusions (compared when
                       a run resumes or is written again)
``base_model``         ``name``, ``location``, ``fingerprint`` of the model tuned
``sources``            per source: ``name``, counts (``lemmas``, ``uses``, ``pairs``, ``graded``, ``same``,
                       ``different``), its training ``lemmas`` and ``read``, the reader's counts of the whole
                       source (``self_pairs_skipped``, ``repeats_skipped`` of a ``wic:`` file, ...); the card
                       adds files and pairs per language of the ``wic:`` files (:func:`language_counts`)
``training_lemmas``    every lemma trained on (normalised, sorted)
``validation_lemmas``  the held-out lemmas (normalised, sorted)
``excluded_lemmas``    the lemmas dropped by ``exclude`` and ``exclude_lemmas``
``inherited_lemmas``   the lemmas a wsd-tuned base model or teacher had seen (the leakage guard counts them)
``training``           ``loss`` per label kind, ``epochs``, ``steps``, ``stopped_early``, ``best_step``,
                       ``seconds``, ``machine``, ``device``, ``precision`` and ``precision_choice`` (how it
                       was decided: :meth:`wsd.tune.precision.PrecisionChoice.to_dict`)
``validation``         the figures before training, at each validation, and of the weights kept
``versions``           library versions
=====================  ===================================================================================

:func:`training_overlap` is the leakage guard of ``wsd evaluate`` and ``wsd run --gold``: the evaluated lemmas
the model was trained or validated on.

The card (:func:`model_card`) is wsd's own, with the Hub's metadata header (``library_name``, ``pipeline_tag``,
``tags``). sentence-transformers' ``generate_model_card`` and ``SentenceTransformerModelCardData`` describe a
sentence encoder: they need the folder loaded as a ``SentenceTransformer``, run its ``encode`` on example
sentences for a usage snippet, and fill a template of sentence embeddings and of its own trainer's datasets,
losses and evaluators. What a tuned folder must tell has no field there: the word-vector settings to use it
with, each source's counts and lemmas, the excluded, held-out and inherited lemmas, and the validation on
held-out lemmas.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, cast

from wsd.embed import hub
from wsd.embed.models import model_source
from wsd.errors import ModelError
from wsd.io.layout import TUNE_FILE
from wsd.io.recipe_stamp import read_tune_card
from wsd.tune.facts import TuneFacts
from wsd.tune.pairs import COUNT_COLUMNS, normalize_lemma
from wsd.tune.wic import SKIPPED, language

TUNE_FORMAT = "wsd-tune/1"


def read_tune_facts(model: str | os.PathLike[str] | None) -> TuneFacts | None:
    """The ``wsd_tune.json`` of a model, or None when the model was not tuned by wsd.

    Parameters
    ----------
    model : str, path or None
        A model as ``--model`` takes it (None: the bundled model; a folder; a Hub name, looked up in the
        Hugging Face cache only).

    Returns
    -------
    TuneFacts or None
        As the file has it (one written by an earlier wsd may lack keys added since).

    Raises
    ------
    ModelError
        When the file is there but is not a JSON object.

    Examples
    --------
    >>> read_tune_facts(None) is None
    True
    """
    source = model_source(model)
    folder: Path | None = Path(source.location) if source.local else None
    if folder is None:
        snapshot = hub.cached_snapshot(source.location)
        folder = Path(snapshot[0]) if snapshot is not None else None
    path = folder / TUNE_FILE if folder is not None else None
    if path is None or not path.is_file():
        return None
    try:
        facts = read_tune_card(path.parent)
    except ValueError as exc:
        raise ModelError(str(exc)) from None
    return cast(TuneFacts, facts)


def seen_lemmas(facts: Mapping[str, Any]) -> list[str]:
    """Every lemma a wsd-tuned model has seen: its training and validation lemmas, and those a wsd-tuned base model
    or teacher had seen (``inherited_lemmas``), normalised and sorted.

    Parameters
    ----------
    facts : mapping
        A model folder's ``wsd_tune.json``.

    Returns
    -------
    list of str

    Examples
    --------
    >>> seen_lemmas({"training_lemmas": ["part_nn"], "validation_lemmas": [], "inherited_lemmas": ["Bank"]})
    ['bank', 'part']
    """
    keys = ("training_lemmas", "validation_lemmas", "inherited_lemmas")
    return sorted({normalize_lemma(lemma) for key in keys for lemma in facts.get(key, [])})


def inherited_lemmas(*models: str | os.PathLike[str] | None) -> list[str]:
    """The lemmas that the wsd-tuned ones among ``models`` (a base model, a teacher) had seen (:func:`seen_lemmas`).

    A model that wsd did not tune adds nothing. What a student learns from its base model or teacher it learns
    about their lemmas too, so the leakage guard counts them.

    Parameters
    ----------
    *models : str, path or None
        Models as ``--model`` takes them (None: the bundled model).

    Returns
    -------
    list of str

    Raises
    ------
    ModelError
        When a model's ``wsd_tune.json`` is there but unreadable.

    Examples
    --------
    >>> inherited_lemmas(None)
    []
    """
    found: set[str] = set()
    for model in models:
        facts = read_tune_facts(model) if model is not None else None
        if facts is not None:
            found.update(seen_lemmas(facts))
    return sorted(found)


def training_overlap(model: str | os.PathLike[str] | None, lemmas: Iterable[str]) -> list[str] | None:
    """The evaluated lemmas a wsd-tuned model was trained or validated on (compared normalised); warns if any.

    Parameters
    ----------
    model : str, path or None
        The model used.
    lemmas : iterable of str
        The evaluated targets, in any spelling (``part.n``, ``part_nn``).

    Returns
    -------
    list of str or None
        The overlap (normalised, sorted; possibly empty), or None when the model was not tuned by wsd.

    Examples
    --------
    >>> training_overlap(None, ["part.n"]) is None
    True
    """
    facts = read_tune_facts(model)
    if facts is None:
        return None
    overlap = sorted({normalize_lemma(lemma) for lemma in lemmas} & set(seen_lemmas(facts)))
    if overlap:
        shown = ", ".join(overlap[:10]) + (f" and {len(overlap) - 10} more" if len(overlap) > 10 else "")
        warnings.warn(
            f"the model {model} was tuned on {len(overlap)} of the evaluated lemmas ({shown}): "
            "their scores are not out of sample (metrics.json training_overlap)",
            stacklevel=2,
        )
    return overlap


def teacher_scope(teacher: Mapping[str, Any]) -> str:
    """Which training pairs a teacher labelled, in words (a folder written before ``--teacher-labels``: all).

    Parameters
    ----------
    teacher : mapping
        The ``teacher`` of a model folder's facts (``name``, ``fingerprint``, ``labels``).

    Returns
    -------
    str

    Examples
    --------
    >>> teacher_scope({"name": "m", "labels": "unlabelled"})
    'the unlabelled training pairs (uses:FILE; the others kept their labels)'
    >>> teacher_scope({"name": "m"})
    'every training pair'
    """
    if teacher.get("labels", "all") == "unlabelled":
        return "the unlabelled training pairs (uses:FILE; the others kept their labels)"
    return "every training pair"


def _figure(value: Any) -> str:
    return "–" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))


def _seconds(value: Any) -> str:
    """A duration as the card shows it: whole seconds, with one decimal below 10 s."""
    if not isinstance(value, (int, float)):
        return "–"
    return f"{value:.1f}" if value < 10 else f"{value:.0f}"


def _recipe_lines(facts: Mapping[str, Any]) -> list[str]:
    """The card's section on the ``wsd tune --recipe`` that built the model, if one did (its ``recipe`` stamp)."""
    stamp = facts.get("recipe")
    if not isinstance(stamp, dict) or not stamp.get("name"):
        return []
    name = stamp["name"]
    lines = [
        "## Recipe",
        "",
        f"Built by `wsd tune --recipe {name}` (version {stamp.get('version', 1)}); in wsd's model cache it loads as "
        f"`--model wsd:{name}`.",
    ]
    if stamp.get("wise_weight") is not None:
        weight = float(stamp["wise_weight"])
        lines[-1] += f" The trained model averaged with its base: {1 - weight:g} base + {weight:g} trained (WiSE-FT)."
    if stamp.get("senses"):
        lines[-1] += (
            f" It ships the sense recipe `{stamp['senses']}`, which `wsd run`, `wsd evaluate` and `wsd cluster` take "
            "for it where no recipe is given (`--recipe default` is the default's)."
        )
    return [*lines, ""]


def model_card(facts: TuneFacts) -> str:
    """The model card (``README.md``) of a tuned model: the facts of ``wsd_tune.json`` in words and tables.

    Parameters
    ----------
    facts : mapping
        The ``wsd_tune.json`` document.

    Returns
    -------
    str
        Markdown, with a sentence-transformers/Hugging Face metadata header.

    Examples
    --------
    >>> facts = {"base_model": {"name": "m", "fingerprint": "f"}, "config": {"options": {}}, "sources": [],
    ...          "training_lemmas": [], "validation_lemmas": [], "excluded_lemmas": [], "training": {},
    ...          "validation": {}}
    >>> model_card(facts).splitlines()[0]
    '---'
    """
    if facts.get("average"):
        return _average_card(facts)
    base = facts["base_model"]
    options = facts["config"].get("options", {})
    training = facts.get("training", {})
    validation = facts.get("validation", {})
    lines = [
        "---",
        "library_name: sentence-transformers",
        "pipeline_tag: feature-extraction",
        "tags: [wsd, word-sense, sense-aware, token-embeddings]",
        "---",
        "",
        f"# A sense-aware encoder tuned by wsd from {base['name']}",
        "",
        "Trained by `wsd tune` to give two uses of a word a cosine that follows how related their senses are. "
        "Use it as wsd does: the target's subword pieces pooled over the layers below (`--model THIS_FOLDER`). "
        "It also loads with `transformers` (`AutoModel`) and `sentence-transformers`.",
        "",
        *_recipe_lines(facts),
        "## Base model",
        "",
        f"- name: `{base['name']}`",
        f"- location: `{base.get('location', '')}`",
        f"- fingerprint: `{base.get('fingerprint', '')}`",
        "",
        "## Word vectors (train and use them alike)",
        "",
        f"- layers: `{options.get('layers')}`, subword pooling: `{options.get('pooling')}`, "
        f"window tokens: `{options.get('window_tokens')}`, target markers: `{options.get('markers')}`, "
        f"context vector: `{options.get('context_vector')}`",
        "",
        "## Training data",
        "",
        *_sources_lines(facts),
    ]
    lines += [
        "- validation lemmas (held out, never trained on): "
        + (", ".join(facts.get("validation_lemmas", [])) or "(none)"),
        f"- excluded lemmas: {', '.join(facts.get('excluded_lemmas', [])) or '(none)'}",
        *(
            [
                f"- lemmas its wsd-tuned base model or teacher had seen ({len(facts['inherited_lemmas'])}; the "
                "leakage guard counts them too): " + ", ".join(facts["inherited_lemmas"])
            ]
            if facts.get("inherited_lemmas")
            else []
        ),
        "",
        "## Training",
        "",
        f"- loss: {', '.join(f'{k}: {v}' for k, v in training.get('loss', {}).items()) or options.get('loss')} "
        f"(option `{options.get('loss')}`)",
        f"- epochs: {training.get('epochs')} of {options.get('epochs')}, steps: {training.get('steps')}, "
        f"stopped early: {training.get('stopped_early')}, weights kept from step {training.get('best_step')}",
        *(
            [
                f"- teacher: `{teacher['name']}` (fingerprint `{teacher['fingerprint']}`): "
                f"labelled {teacher_scope(teacher)} by its cosine of the two uses"
            ]
            if (teacher := facts.get("teacher"))
            else []
        ),
        f"- seed: {options.get('seed')}, lr: {options.get('lr')}, uses per step: {options.get('batch_uses')}, "
        f"frozen layers (with the embeddings): {options.get('freeze_layers', 0)}",
        f"- training time: {_seconds(training.get('seconds'))} s on {training.get('machine')} "
        f"(device {training.get('device')}, precision {_precision_line(training)})",
        *_arithmetic_lines(training),
        "",
        "## Validation on the held-out lemmas",
        "",
        "| when | step | pairs | graded ρ | binary AUC | score |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in validation.get("history", []):
        lines.append(
            f"| {row.get('when')} | {row.get('step')} | {row.get('pairs')} | {_figure(row.get('graded_spearman'))} "
            f"| {_figure(row.get('binary_auc'))} | {_figure(row.get('score'))} |"
        )
    lines += [
        "",
        "Graded ρ: Spearman's ρ of the cosine of two uses against their graded label; binary AUC: ROC AUC of the "
        "cosine for same vs different sense; score: their mean (AUC as 2·AUC − 1), the early-stopping criterion.",
        "",
        f"Full facts: `{TUNE_FILE}`.",
        "",
    ]
    return "\n".join(lines)


def _sources_lines(facts: Mapping[str, Any]) -> list[str]:
    """The training-data table and the lemma lists of a model card."""
    counted = COUNT_COLUMNS[1:]  # one column per count of PairSet.counts, in its order
    lines = ["| " + " | ".join(COUNT_COLUMNS) + " |", "|---|" + "---:|" * len(counted)]
    for source in facts.get("sources", []):
        counts = source["counts"]  # folders written before unlabelled sources have no ``unlabelled`` count
        lines.append(f"| `{source['name']}` | " + " | ".join(str(counts.get(name, 0)) for name in counted) + " |")
    lines += ["", *_language_lines(facts.get("sources", []))]
    for source in facts.get("sources", []):
        skipped = [source.get("read", {}).get(key, 0) for key in SKIPPED]
        if any(skipped):
            lines.append(
                f"- `{source['name']}` as read: {skipped[0]} pair(s) of a use with itself and {skipped[1]} repeated "
                "pair(s) skipped"
            )
    for source in facts.get("sources", []):
        lines.append(f"- lemmas of `{source['name']}`: {', '.join(source['lemmas']) or '(none)'}")
    return lines


def language_counts(sources: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Files and training pairs per language of the Word-in-Context sources (``wic:``) of a model folder.

    The language comes from each file's name (:func:`wsd.tune.wic.language`): ``en-ru`` for a cross-lingual
    MCL-WiC file, ``en`` for WiC, ``en-de`` for AM2iCo's ``de/`` folder; sources that tell none are left out.

    Parameters
    ----------
    sources : iterable of mapping
        The ``sources`` of ``wsd_tune.json`` (``name`` and ``counts``).

    Returns
    -------
    dict
        Language → ``{"files": n, "pairs": n}``, sorted by language.

    Examples
    --------
    >>> language_counts([{"name": "wic:d/test.en-ru.data", "counts": {"pairs": 999}},
    ...                  {"name": "wic:w/train.data.txt", "counts": {"pairs": 5424}}])
    {'en': {'files': 1, 'pairs': 5424}, 'en-ru': {'files': 1, 'pairs': 999}}
    """
    found: dict[str, dict[str, int]] = {}
    for source in sources:
        tongue = language(source["name"]) if str(source["name"]).startswith("wic:") else None
        if tongue is not None:
            row = found.setdefault(tongue, {"files": 0, "pairs": 0})
            row["files"] += 1
            row["pairs"] += int(source["counts"].get("pairs", 0))
    return dict(sorted(found.items()))


def _language_lines(sources: Iterable[Mapping[str, Any]]) -> list[str]:
    """The pairs-per-language table of a model card (empty without Word-in-Context sources)."""
    counts = language_counts(sources)
    if not counts:
        return []
    lines = ["| language | files | pairs |", "|---|---:|---:|"]
    lines += [f"| {tongue} | {row['files']} | {row['pairs']} |" for tongue, row in counts.items()]
    return [*lines, ""]


def _average_card(facts: Mapping[str, Any]) -> str:
    """The model card of an average of encoders (:func:`wsd.tune.averaging.average_encoders`)."""
    base = facts["base_model"]
    options = facts["config"].get("word_vectors", {})
    lines = [
        "---",
        "library_name: sentence-transformers",
        "pipeline_tag: feature-extraction",
        "tags: [wsd, word-sense, sense-aware, token-embeddings, model-soup]",
        "---",
        "",
        f"# An average of {len(facts['average'])} encoders by wsd, from {base['name']}",
        "",
        "The weighted mean of the weights of the models below (a model soup; with the base model among them, "
        "WiSE-FT's interpolation), made by `wsd tune --average`; no training. Use it as wsd does "
        "(`--model THIS_FOLDER`); it also loads with `transformers` (`AutoModel`) and `sentence-transformers`.",
        "",
        *_recipe_lines(facts),
        "## Averaged models",
        "",
        "| model | weight | tuned by wsd | fingerprint |",
        "|---|---:|---|---|",
    ]
    for row in facts["average"]:
        lines.append(
            f"| `{row['model']}` | {row['weight']:.4f} | {'yes' if row['tuned'] else 'no'} | `{row['fingerprint']}` |"
        )
    lines += [
        "",
        "## Word vectors (the tuned models' options; use them alike)",
        "",
        "- " + (", ".join(f"{key}: `{value}`" for key, value in options.items()) or "(no tuned model among them)"),
        "",
        "## Training data of the tuned models",
        "",
        *_sources_lines(facts),
        "- validation lemmas of the tuned models: " + (", ".join(facts.get("validation_lemmas", [])) or "(none)"),
        "- lemmas every tuned model excluded: " + (", ".join(facts.get("excluded_lemmas", [])) or "(none)"),
        "",
        f"Made on {facts.get('training', {}).get('machine')}. Full facts: `{TUNE_FILE}`.",
        "",
    ]
    return "\n".join(lines)


def _precision_line(training: Mapping[str, Any]) -> str:
    """The precision and, where the facts record it, how it was decided (``fp32 (measured: ...)``)."""
    choice = training.get("precision_choice")
    if not isinstance(choice, Mapping):
        return str(training.get("precision"))
    from wsd.tune.precision import PrecisionChoice

    try:
        return PrecisionChoice(**choice).describe()
    except (TypeError, ValueError, AttributeError):  # a hand-edited record: the plain precision
        return str(training.get("precision"))


def _arithmetic_lines(training: Mapping[str, Any]) -> list[str]:
    """How the run computed (``training.arithmetic``): portable, or the machine's own kernels and threads."""
    record = training.get("arithmetic")
    if not isinstance(record, Mapping):
        return []
    kernels = f"PyTorch {record.get('capability')} kernels, {record.get('threads')} threads"
    if record.get("portable") is True:
        return [
            f"- arithmetic: portable ({kernels}, MKL {record.get('mkl_cbwr')}, oneDNN off): the same weights on "
            "every x86-64 CPU with AVX2"
        ]
    reason = f"; {record['reason']}" if record.get("reason") else ""
    return [f"- arithmetic: this machine's ({kernels}){reason}"]
