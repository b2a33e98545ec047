"""Tune an encoder to tell senses apart: sources in, a model folder out (:func:`tune_encoder`).

The model folder loads everywhere a model does: ``wsd --model DIR`` / ``wsd.Encoder(model=DIR)``,
``transformers.AutoModel.from_pretrained(DIR)`` and ``sentence_transformers.SentenceTransformer(DIR)`` (the base
model's sentence-transformers files are carried over, or made for mean pooling). Beside the weights:
``README.md`` (the model card) and ``wsd_tune.json`` (:mod:`wsd.tune.card`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import platform
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from wsd.errors import ConfigError
from wsd.io.layout import MODEL_CARD, TUNE_CHECKPOINT_DIR, TUNE_FILE
from wsd.io.outputs import in_session
from wsd.options import TuneOptions
from wsd.tune.card import TUNE_FORMAT, teacher_scope
from wsd.tune.facts import TuneConfig, TuneFacts
from wsd.tune.options import training_options, with_later_defaults
from wsd.tune.pairs import UNLABELLED, PairSet, concat, exclude_lemmas, normalize_lemma

if TYPE_CHECKING:
    import pandas as pd

#: The share of the trained words a base model must fail to read before ``wsd tune`` warns
#: (:func:`warn_unreadable_words`): English training files hold a few odd words MiniLM reads letter by letter.
UNREADABLE_WORDS_SHARE = 0.05
#: sentence-transformers files carried over from the base model (made anew where it has none).
SENTENCE_TRANSFORMERS_FILES = ("modules.json", "sentence_bert_config.json", "config_sentence_transformers.json")
POOLING_CONFIG = "1_Pooling/config.json"


@dataclass(frozen=True)
class TuneResult:
    """What :func:`tune_encoder` made.

    Parameters
    ----------
    out : Path
        The model folder.
    facts : TuneFacts
        Its ``wsd_tune.json`` (sources, lemmas, options, training, validation).
    """

    out: Path
    facts: TuneFacts

    @property
    def validation(self) -> list[dict[str, Any]]:
        """The validation figures, before training and at each validation.

        Returns
        -------
        list of dict
        """
        return list(self.facts["validation"]["history"])

    def summary(self) -> str:
        """A few lines saying what was trained: base model, sources, steps, validation before → after, time, card.

        Returns
        -------
        str
        """
        facts, training = self.facts, self.facts["training"]
        if facts.get("average"):
            parts = ", ".join(f"{row['model']} ×{row['weight']:.3f}" for row in facts["average"])
            return (
                f"averaged {len(facts['average'])} encoders: {parts}\n"
                f"model folder {self.out} (model card {self.out / MODEL_CARD}; use it with --model {self.out})"
            )
        sources = ", ".join(f"{s['name']} ({s['counts']['pairs']} pairs)" for s in facts["sources"])
        history = self.validation
        given = facts.get("teacher")
        teacher = f", {teacher_scope(given)} labelled by the teacher {given['name']}" if given else ""
        lines = [
            f"tuned {facts['base_model']['name']} on {sources}{teacher}",
            f"{training['steps']} steps, {training['epochs']} of {facts['config']['options']['epochs']} epochs done"
            + (" (stopped early)" if training["stopped_early"] else "")
            + f", in {training['seconds']:.1f} s on {training['device']} ({training['precision']})",
        ]
        if history:
            lemmas = facts["validation_lemmas"]
            lines.append(
                f"validation on {len(lemmas)} held-out lemma{'s' if len(lemmas) != 1 else ''} "
                f"({facts['validation']['pairs']} pairs), step {history[0]['step']} → {history[-1]['step']}: "
                + "; ".join(
                    f"{label} {_figure(history[0].get(key))} → {_figure(history[-1].get(key))}"
                    for key, label in (("score", "score"), ("graded_spearman", "graded ρ"), ("binary_auc", "AUC"))
                    if history[0].get(key) is not None or history[-1].get(key) is not None
                )
                + (
                    f" (weights of step {training['best_step']} kept)"
                    if training["best_step"] != training["steps"]
                    else ""
                )
            )
        else:
            lines.append("no validation (no held-out lemmas)")
        lines.append(f"model folder {self.out} (model card {self.out / MODEL_CARD}; use it with --model {self.out})")
        return "\n".join(lines)


def _figure(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"


def read_lemma_list(items: Sequence[str]) -> list[str]:
    """Lemmas given as a list, where an item ``@FILE`` stands for the lemmas of a file (one per line).

    Parameters
    ----------
    items : sequence of str
        Lemmas and ``@FILE`` items (``--exclude-lemmas a,b,c`` or ``--exclude-lemmas @held-out.txt``).

    Returns
    -------
    list of str
        The lemmas in order (blank lines of a file skipped).

    Raises
    ------
    InputError
        A file that cannot be read as UTF-8 text (:func:`wsd.io.textfiles.read_lines`), or one without a lemma.
    ConfigError
        A bare ``@``.

    Examples
    --------
    >>> read_lemma_list(["bank", "part_nn"])
    ['bank', 'part_nn']
    """
    from wsd.errors import InputError
    from wsd.io.textfiles import read_lines

    lemmas: list[str] = []
    for item in items:
        if not item.startswith("@"):
            lemmas.append(item)
            continue
        if item == "@":
            raise ConfigError("--exclude-lemmas @: give the file after @ (@FILE, one lemma per line)")
        path = Path(item[1:]).expanduser()
        found = [line.strip() for line in read_lines(path, "lemma file") if line.strip()]
        if not found:
            raise InputError(f"lemma file {path} holds no lemma (one lemma per line)")
        lemmas += found
    return lemmas


def _read_training(
    train: Sequence[str | PairSet] | str | PairSet, exclude: Sequence[str], drop: Sequence[str], seed: int, out: Path
) -> tuple[PairSet, list[str]]:
    """The training pairs of every source, less the excluded lemmas; and the excluded lemmas.

    Every spec is checked (its kind, that its path exists and lies apart from ``out``, that no two training
    sources are the same data) before any is read.
    """
    from wsd.io.outputs import check_disjoint
    from wsd.tune.sources import check_distinct_sources, parse_source, read_source, source_lemmas

    if isinstance(train, (str, PairSet)):
        train = [train]
    if not train:
        raise ConfigError("no training source (give at least one KIND:PATH)")
    for option, specs in (("--train", train), ("--exclude", exclude)):
        for spec in specs:
            if not isinstance(spec, PairSet):
                check_disjoint(out, {f"{option} {spec}": parse_source(spec)[1]})
    check_distinct_sources([spec for spec in train if not isinstance(spec, PairSet)], "--train")
    pairset = concat(item if isinstance(item, PairSet) else read_source(item, random_state=seed) for item in train)
    if not len(pairset):
        raise ConfigError("the training sources hold no labelled pair")
    excluded = {normalize_lemma(lemma) for lemma in drop}
    for spec in exclude:
        excluded |= source_lemmas(spec)
    kept = exclude_lemmas(pairset, excluded) if excluded else pairset
    return kept, sorted(excluded & set(pairset.lemmas))


def _check_apart_from_models(out: Path, options: TuneOptions) -> None:
    """Refuse an ``out`` that is, holds or lies inside the base model or the teacher (compared resolved, links
    followed), or that would make the folder a Hub name given as either would then be read as.

    A Hub name (``org/name``) is no path: ``--out org`` does not hold it. But a folder ``org/name`` that ``--out``
    makes takes the Hub model's place for every later read of that name (a resumed run among them).
    """
    from wsd.embed.models import model_source
    from wsd.errors import ModelError
    from wsd.io.outputs import OutputRefused, check_disjoint

    for option, model in (("--model", options.model), ("--teacher", options.teacher)):
        if model is None and option == "--teacher":
            continue
        try:
            source = model_source(model)
        except ModelError:  # neither a folder nor a Hub name: loading it says so, in its own words
            continue
        if source.local:
            check_disjoint(out, {option: source.location})
            continue
        target, named = Path(os.path.realpath(out)), Path(os.path.realpath(Path(str(model)).expanduser()))
        if target == named or named in target.parents:
            raise OutputRefused(
                f"--out {out} would make the folder {model}, which {option} {model} then names instead of the "
                "Hugging Face Hub model; choose another --out"
            )


@in_session  # a failure on bad input or a model that does not load takes back the folder it created
def tune_encoder(
    train: Sequence[str | PairSet] | str | PairSet,
    out: str | os.PathLike[str],
    *,
    exclude: Sequence[str] = (),
    exclude_lemmas: Sequence[str] = (),
    options: TuneOptions | None = None,
    overwrite: bool = False,
    on_step: Any = None,
    recipe: Mapping[str, Any] | None = None,
) -> TuneResult:
    """Train an encoder on labelled use pairs so that its word vectors tell senses apart.

    Parameters
    ----------
    train : sequence of str or PairSet
        Training sources: ``KIND:PATH`` specs (:func:`wsd.tune.sources.read_source`) or pair sets.
    out : path
        The model folder to write (absent, empty, or a model folder of this same configuration, whose
        checkpoint is resumed from).
    exclude : sequence of str
        ``KIND:PATH`` datasets whose every lemma is left out of training.
    exclude_lemmas : sequence of str
        Lemmas left out of training (any spelling: ``part_nn``, ``part.n``, ``part``).
    options : TuneOptions, optional
        The training options (default: ``TuneOptions()``).
    overwrite : bool
        Replace a model folder of another configuration, or write into a folder of other files (only the
        names of a model folder are replaced).
    on_step : callable, optional
        ``on_step(step, loss)`` after each step (what it raises stops the run; the checkpoint stays).
    recipe : mapping, optional
        The stamp of the ``wsd tune --recipe`` that trains this model (``recipe`` in its ``wsd_tune.json``,
        :meth:`wsd.tune.recipes.TuneRecipe.stamp`).

    Returns
    -------
    TuneResult
        The folder and its facts.

    Raises
    ------
    ConfigError
        For bad options, no source, nothing left to train on after the exclusions, or an ``out`` that
        holds something else, or is, holds or lies inside a source, the base model or the teacher
        (:class:`~wsd.io.outputs.OutputRefused`).
    InputError
        For a source that cannot be read, or one given twice (under any spelling).
    ModelError
        For a base model or teacher that cannot be loaded (nothing is left in ``out``).

    Examples
    --------
    >>> result = tune_encoder(["wug:../shared/datasets/lscd/dwug_en"], "models/sense-minilm",
    ...                       exclude=["semeval2013:../shared/datasets"],
    ...                       options=TuneOptions(epochs=2, seed=1))          # doctest: +SKIP
    >>> wsd.Encoder(model="models/sense-minilm")                            # doctest: +SKIP
    """
    from wsd.io.outputs import claim_folder

    options = options if options is not None else TuneOptions()
    if not isinstance(options, TuneOptions):
        raise ConfigError(f"options must be a TuneOptions, not {type(options).__name__}")
    options = training_options(options)
    if options.portable:
        from wsd.tune.portable import run_portably, started_portable

        if not started_portable():  # ATen and MKL read their settings when they start: a fresh process
            if on_step is not None:
                raise ConfigError("on_step cannot follow a portable run, which trains in another process")
            return cast(
                TuneResult,
                run_portably(
                    tune_encoder,
                    train,
                    out,
                    exclude=exclude,
                    exclude_lemmas=exclude_lemmas,
                    options=options,
                    overwrite=overwrite,
                    recipe=recipe,
                ),
            )
        options = options.replace(device="cpu")  # a portable run trains on the CPU (checked above: not cuda)
    _check_apart_from_models(Path(out), options)
    from wsd.embed.model_folder import check_model_folder
    from wsd.embed.models import model_source
    from wsd.tune.freezing import check_freeze_count

    base = model_source(options.model)
    if base.local:  # a folder that is no model fails now: before a source is read or --out claimed
        check_model_folder(Path(base.location))
    check_freeze_count(options.model, options.freeze_layers)
    from wsd.tune.card import inherited_lemmas

    inherited = set(inherited_lemmas(options.model))  # before training: a damaged wsd_tune.json fails now
    teacher = None
    if options.teacher is not None:
        from wsd.errors import ModelError
        from wsd.tune.teacher import Teacher

        try:  # loaded before any source is read or the output claimed: a teacher that cannot load leaves nothing
            teacher = Teacher(options)
            inherited.update(inherited_lemmas(options.teacher))
        except ModelError as exc:
            raise ModelError(f"--teacher: {exc}") from exc
    exclude = [exclude] if isinstance(exclude, str) else exclude
    exclude_lemmas = [exclude_lemmas] if isinstance(exclude_lemmas, str) else exclude_lemmas
    train_items = [train] if isinstance(train, str | PairSet) else list(train)
    pairset, excluded = _read_training(train, list(exclude), list(exclude_lemmas), options.seed, Path(out))
    if teacher is None and (pairset.pairs["kind"] == UNLABELLED).any():
        unlabelled = sorted(set(pairset.pairs.loc[pairset.pairs["kind"] == UNLABELLED, "source"]))
        raise ConfigError(
            f"{', '.join(unlabelled)}: its uses have no labels; give --teacher MODEL to label their pairs "
            "(distillation), or a labelled source"
        )
    if teacher is not None and teacher.labels == "unlabelled" and not (pairset.pairs["kind"] == UNLABELLED).any():
        raise ConfigError(
            "--teacher-labels unlabelled: no training source has unlabelled pairs (uses:FILE), so the teacher "
            "would label nothing; add a uses:FILE source, or drop --teacher"
        )
    from wsd.tune.validation import sample_pairs, split_lemmas

    train_lemmas, valid_lemmas = split_lemmas(
        pairset.lemmas, options.validation_fraction, options.seed, options.validation_lemmas
    )
    training = pairset.only_lemmas(train_lemmas)
    valid = (
        sample_pairs(pairset.only_lemmas(valid_lemmas), options.validation_max_pairs, options.seed)
        if valid_lemmas
        else None
    )
    if valid is not None and teacher is not None:  # held-out unlabelled uses: scored against the teacher
        valid = teacher.label_unlabelled(valid)
    config: TuneConfig = {
        "options": options.weight_settings(),
        "sources": pairset.sources,
        "pairs": len(pairset),
        "exclude": sorted(map(str, exclude)),
        "excluded_lemmas": excluded,
    }
    folder = Path(out)
    from wsd import machine
    from wsd.embed.encoder import Encoder
    from wsd.tune.forward import SpanEncoder
    from wsd.tune.train import train as run_training

    # training runs PyTorch's graph, whatever the default inference runtime is
    encoder_options = options.encoder_options(options.model).replace(runtime="torch")
    # with --overwrite the claim removes what the folder holds (a model, hours of training): a base that cannot
    # load must fail before it, leaving the folder as it was
    encoder = Encoder.from_options(encoder_options) if overwrite else None
    claim_folder(
        folder,
        "encoder",
        config=config,
        settings=lambda meta: with_later_defaults(meta.get("config")),
        overwrite=overwrite,
    )
    # else loaded before anything is written into the folder: a Hub model that cannot load leaves nothing (the
    # session takes back the claim's manifest, wsd.io.outputs.session)
    encoder = encoder if encoder is not None else Encoder.from_options(encoder_options)
    warn_unreadable_words(encoder, pairset.uses)
    checkpoint = folder / TUNE_CHECKPOINT_DIR
    from wsd.io.atomic import atomic_write

    marker = {"format": TUNE_FORMAT, "config": config}
    atomic_write(checkpoint / TUNE_FILE, lambda tmp: tmp.write_text(json.dumps(marker), encoding="utf-8"))
    span = SpanEncoder(encoder, markers=options.markers)  # its precision: decided by training (wsd.tune.precision)
    from wsd.tune.portable import arithmetic_record, portable_arithmetic

    arithmetic_context = portable_arithmetic() if options.portable else contextlib.nullcontext(arithmetic_record())
    with arithmetic_context as arithmetic:
        outcome = run_training(
            span, training, valid, options, checkpoint, config, on_step=on_step, teacher=teacher, overwrite=overwrite
        )
    state = outcome.state
    from wsd.io.provenance import library_versions

    kinds = sorted(set(training.pairs["kind"]))
    if teacher is not None:  # the teacher grades every pair, or every unlabelled one
        kinds = ["graded"] if teacher.labels == "all" else sorted((set(kinds) - {UNLABELLED}) | {"graded"})
    from wsd.tune.losses import chosen_loss

    facts: TuneFacts = {
        "format": TUNE_FORMAT,
        "config": config,
        # the sources as given: one whose every lemma is excluded has no pairs, so it is missing from ``sources``
        "given_sources": [item if isinstance(item, str) else "(pairs given in Python)" for item in train_items],
        "base_model": {
            "name": encoder.loaded.name,
            "location": str(options.model) if options.model is not None else "bundled",
            "fingerprint": encoder.loaded.fingerprint,
        },
        "sources": [
            {
                "name": row["source"],
                "counts": {k: int(v) for k, v in row.items() if k != "source"},
                "lemmas": sorted(set(training.pairs.loc[training.pairs["source"] == row["source"], "lemma"])),
                "read": {k: int(v) for k, v in training.stats.get(row["source"], {}).items()},
            }
            for row in training.counts().to_dict("records")
        ],
        "teacher": teacher.identity if teacher is not None else None,
        "training_lemmas": training.lemmas,
        "validation_lemmas": valid_lemmas,
        "excluded_lemmas": excluded,
        "inherited_lemmas": sorted(inherited),
        "training": {
            "loss": {kind: chosen_loss(kind, options.loss) for kind in kinds},
            "epochs": state.epoch,
            "steps": state.step,
            "steps_planned": outcome.steps_planned,
            "stopped_early": state.stopped_early,
            "best_step": state.best_step if valid is not None else state.step,
            "final_loss": state.losses[-1] if state.losses else None,
            "seconds": round(state.seconds, 1),
            "machine": machine.describe(),
            "platform": platform.platform(),
            "device": str(encoder.loaded.device),
            "precision": "bf16 autocast" if outcome.precision.precision == "bf16" else "fp32",
            "precision_choice": outcome.precision.to_dict(),
            "arithmetic": arithmetic,
        },
        "validation": {"pairs": len(valid) if valid is not None else 0, "history": state.history},
        "versions": library_versions(),
    }
    if recipe is not None:
        facts["recipe"] = dict(recipe)
    write_model_folder(folder, encoder, facts, options.model)
    shutil.rmtree(checkpoint, ignore_errors=True)
    return TuneResult(folder, facts)


def warn_unreadable_words(encoder: Any, uses: pd.DataFrame) -> dict[str, float]:
    """Warn once, as ``wsd embed`` does, when the base model's vocabulary cannot read the trained words.

    The words are the uses' target spans (both sides of a cross-lingual pair: the Russian word of an en-ru pair
    too); an English-only base such as the bundled MiniLM splits Cyrillic into a piece per letter, and training
    on such pieces teaches it nothing about senses (:mod:`wsd.embed.coverage`). Only a share of at least
    :data:`UNREADABLE_WORDS_SHARE` of the distinct words warns: WiC and MCL-WiC's English files hold 3 of 13,047
    (``snag``, ``snug``, ``zizz``) that MiniLM reads letter by letter, which is no other script.

    Parameters
    ----------
    encoder : wsd.embed.encoder.Encoder
        The loaded base model.
    uses : DataFrame
        The training uses (``text``, ``start``, ``end``).

    Returns
    -------
    dict
        The unreadable words and their share (empty: no warning).

    Examples
    --------
    >>> warn_unreadable_words(encoder, pairset.uses)  # doctest: +SKIP
    {}
    """
    from wsd.embed.coverage import unreadable_targets, warn_unreadable

    spans = zip(uses["text"], uses["start"], uses["end"], strict=True)
    words = sorted({text[start:end] for text, start, end in spans})
    found = unreadable_targets(encoder.loaded.backend, words)
    if len(found) < UNREADABLE_WORDS_SHARE * len(words):  # a few odd English words (zizz, snug) are no other script
        return {}
    warn_unreadable(found, words, encoder.loaded.name, stacklevel=3)
    return found


def write_model_folder(folder: Path, encoder: Any, facts: TuneFacts, base: str | None) -> None:
    """Write the tuned model as a transformers + sentence-transformers folder, with its card and facts.

    Every file is written atomically (:func:`wsd.io.atomic.atomic_write`).

    Parameters
    ----------
    folder : Path
        The model folder.
    encoder : Encoder
        The encoder whose (tuned) model and tokenizer are saved.
    facts : TuneFacts
        The ``wsd_tune.json`` document.
    base : str or None
        The base model as given (its sentence-transformers files are carried over).
    """
    from wsd.embed.hf_quiet import quiet_transformers
    from wsd.embed.models import model_source
    from wsd.io.atomic import atomic_write
    from wsd.tune.card import model_card

    with tempfile.TemporaryDirectory(prefix="wsd-tune-") as scratch:
        staging = Path(scratch)
        with quiet_transformers():
            encoder.loaded.model.save_pretrained(staging, safe_serialization=True)
            encoder.loaded.tokenizer.save_pretrained(staging)
        source = model_source(base)
        base_folder = Path(source.location) if source.local else None
        for name in [*SENTENCE_TRANSFORMERS_FILES, POOLING_CONFIG]:
            original = base_folder / name if base_folder is not None else None
            if original is not None and original.is_file():
                (staging / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(original, staging / name)
        _default_sentence_files(staging, int(encoder.loaded.hidden_size))
        for path in sorted(p for p in staging.rglob("*") if p.is_file()):
            target = folder / path.relative_to(staging)
            atomic_write(target, functools.partial(shutil.copyfile, path))
    text = json.dumps(facts, indent=2, ensure_ascii=False)
    atomic_write(folder / TUNE_FILE, lambda tmp: tmp.write_text(text + "\n", encoding="utf-8"))
    card = model_card(facts)
    atomic_write(folder / MODEL_CARD, lambda tmp: tmp.write_text(card, encoding="utf-8"))


def _default_sentence_files(staging: Path, hidden_size: int) -> None:
    """sentence-transformers files for a base model without them: the transformer, then mean pooling."""
    if not (staging / "modules.json").is_file():
        modules = [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        ]
        (staging / "modules.json").write_text(json.dumps(modules, indent=2), encoding="utf-8")
    if not (staging / "sentence_bert_config.json").is_file():
        (staging / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 512}), encoding="utf-8")
    pooling = staging / POOLING_CONFIG
    if not pooling.is_file():
        pooling.parent.mkdir(parents=True, exist_ok=True)
        settings = {"word_embedding_dimension": hidden_size, "pooling_mode_mean_tokens": True}
        pooling.write_text(json.dumps(settings, indent=2), encoding="utf-8")
