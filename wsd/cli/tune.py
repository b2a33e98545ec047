"""The ``wsd tune`` command: its help texts and its handler (its flags are declared in :mod:`wsd.schema`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wsd.cli.settings import command_config
from wsd.errors import ConfigError
from wsd.io.layout import MANIFEST_FILE, TUNE_FILE
from wsd.options import OPTIONS, TuneOptions

if TYPE_CHECKING:
    from wsd.tune.api import TuneResult

NAME = "tune"
#: The one-line summary of ``wsd --help``.
SUMMARY = "train an encoder to tell senses apart, from usage judgments and sense-labelled examples"
#: The description of ``wsd tune --help``.
DESCRIPTION = (
    "Fine-tune an encoder (the bundled MiniLM unless --model) on labelled pairs of uses of a word: WUG "
    "judgments, WiC pairs, sense datasets, WordNet examples. Trains the word vectors wsd uses (the target's "
    "subwords pooled over --layers) and writes a model folder that --model DIR loads everywhere, with a "
    "model card of the sources, lemmas, options and validation figures. Lemmas held out with --exclude or "
    "--exclude-lemmas are never trained on; an interrupted run resumes from OUT/checkpoint (OUT.trained/checkpoint "
    "for a recipe that averages)."
)


def command_tune(args: argparse.Namespace) -> int:
    """``wsd tune``: train an encoder to tell senses apart, from labelled use pairs; write a model folder.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit code.
    """
    from wsd.tune.api import read_lemma_list, tune_encoder
    from wsd.tune.options import training_options

    config = command_config("tune", args)
    tune, out = config["tune"], config["output"]["out"]
    options = TuneOptions.from_config(config).replace(progress=args.progress)  # checked before any source is read
    if tune.get("average"):
        return _average_run(tune, options, out, args.overwrite)
    recipe, train = tune.get("recipe"), tune["train"]
    excluded: list[str] = []
    if args.data_dir and not recipe:
        raise ConfigError("--data-dir is where --recipe finds its datasets; without --recipe name each with --train")
    trained_out, averaged = out, False  # a recipe that averages trains beside its folder, then averages into it
    if recipe:
        options, train, out, excluded = _recipe_run(recipe, options, train, out, args.data_dir)
        _warn_base_type(recipe, options.model)
        _check_base(recipe, Path(out), options.model, args.overwrite)
        if not args.overwrite and _built_by_recipe(Path(out), recipe, train, options.model):
            print(
                f"the model of recipe {recipe} is built already in {out} (--overwrite builds it again); "
                + _load_hint(recipe, out)
            )
            return 0
        trained_out = str(_trained_folder(recipe, Path(out)))
        averaged = _averages(recipe)
        if averaged:  # what would refuse the average is refused before the training
            if not args.overwrite:
                _upgrade_earlier_build(recipe, Path(out), Path(trained_out), train, options.model)
            _check_replaceable(recipe, Path(out), args.overwrite, train)
            _check_base(recipe, Path(trained_out), options.model, args.overwrite, trained=True)
    built = (
        recipe
        and averaged
        and not args.overwrite
        and _built_by_recipe(Path(trained_out), recipe, train, options.model, trained=True)
    )
    if built:
        print(f"the trained part of recipe {recipe} is built already in {trained_out}: averaging it")
    else:
        result = tune_encoder(
            train,
            trained_out,
            exclude=tune["exclude"] or (),
            exclude_lemmas=[*excluded, *read_lemma_list(tune["exclude_lemmas"] or ())],
            options=training_options(options),
            overwrite=args.overwrite,
            recipe=_stamp(recipe, train) if recipe and not averaged else None,  # a trained part is not the model
        )
        print(result.summary())
    if recipe:
        if averaged:
            print(_recipe_average(recipe, options, trained_out, out, train, args.overwrite).summary())
        print(_load_hint(recipe, out))
    return 0


def _same_recipe(stamp: Any, recipe: str) -> bool:
    """Whether a card's ``recipe`` stamp is this version of ``recipe``'s (its sources aside)."""
    from wsd.tune.recipes import resolve_recipe

    wanted = resolve_recipe(recipe).stamp()
    return isinstance(stamp, dict) and {key: stamp.get(key) for key in wanted} == wanted


def _averages(recipe: str) -> bool:
    """Whether a recipe trains beside its folder and then averages into it (WiSE-FT)."""
    from wsd.tune.recipes import resolve_recipe

    return resolve_recipe(recipe).wise_weight is not None


def _trained_folder(recipe: str, out: Path) -> Path:
    """Where a recipe trains: ``out`` itself, or for a recipe that then averages (WiSE-FT) the folder
    ``OUT.trained`` beside it (kept: an interrupted training resumes from its checkpoint, and an average
    interrupted after training is made again without training; ``--overwrite`` trains again)."""
    if not _averages(recipe):
        return out
    resolved = out.resolve()
    if not resolved.name:
        raise ConfigError(f"--out {out}: recipe {recipe} needs a folder with a name, to train beside it")
    return resolved.with_name(resolved.name + ".trained")


def _upgrade_earlier_build(recipe: str, out: Path, trained: Path, train: list[str], model: str | None) -> None:
    """Where the model cache's folder of a recipe (``wsd:NAME``'s, wsd's own) holds what an earlier version of the
    recipe built, its trained model alone (the same training: options and sources), and nothing lies at ``trained``
    yet, move it there: it is this version's trained part, and the build then only averages (seconds, not a
    training run). A folder given with ``--out`` is the user's: it is never moved."""
    from wsd.embed.built_models import recipe_folder

    if out.is_symlink() or out.resolve() != recipe_folder(recipe).resolve():
        return
    if trained.exists() or not _built_by_recipe(out, recipe, train, model, trained=True):
        return
    out.rename(trained)
    print(
        f"{out} held the trained model of an earlier version of recipe {recipe}: it is this version's trained part, "
        f"moved to {trained}"
    )


def _check_replaceable(recipe: str, out: Path, overwrite: bool, train: list[str]) -> None:
    """Refuse, before any training, a recipe build whose folder the average could not be written to: a file; a
    folder of files that are no model (wsd replaces only what it wrote, even with ``--overwrite``); without
    ``--overwrite``, a model of something else (an older version of the recipe, another recipe, other sources, a
    model of another kind; another base is :func:`_check_base`'s). Each would only be refused after the
    training."""
    from wsd.io.recipe_stamp import read_recipe_stamp

    if out.is_file():
        raise ConfigError(f"--out {out} is a file: recipe {recipe} writes a model folder there")
    if not out.is_dir() or not any(out.iterdir()):
        return
    card = out / TUNE_FILE
    if not card.is_file():
        if (out / MANIFEST_FILE).is_file():
            return  # a folder wsd began to write (an interrupted average): its claim decides, as for any output
        raise ConfigError(
            f"{out} holds files but no model (no {TUNE_FILE}): move them away, or give another --out, to build "
            f"recipe {recipe} there"
        )
    if overwrite:
        return
    try:
        stamp = read_recipe_stamp(out)
    except ValueError:
        stamp = {}  # a damaged card: another model, as far as this recipe can tell
    if not _same_recipe(stamp, recipe):
        ours = stamp.get("name") == recipe and "version" in stamp
        built = f"version {stamp['version']} of this recipe" if ours else "an older version of it, or another model"
        raise ConfigError(f"{out} holds another model ({built}): give --overwrite to build recipe {recipe} there again")
    raise ConfigError(
        f"{out} holds this recipe's model from other sources ({', '.join(stamp.get('sources') or ['none recorded'])}): "
        f"give --overwrite to build it there from these"
    )


def _recipe_average(
    recipe: str, options: TuneOptions, trained: str, out: str, sources: list[str], overwrite: bool
) -> TuneResult:
    """A recipe's WiSE-FT step: ``(1 − w)·base + w·trained`` into ``out``, stamped with the recipe and the
    sources its trained part learnt from."""
    from wsd.tune.averaging import average_encoders
    from wsd.tune.recipes import resolve_recipe

    spec = resolve_recipe(recipe)
    weight = float(spec.wise_weight or 0.0)
    stamp = _stamp(recipe, sources)
    result: TuneResult = average_encoders(
        [options.model, trained], out, weights=[1.0 - weight, weight], overwrite=overwrite, recipe=stamp
    )
    return result


def _average_run(tune: dict, options: TuneOptions, out: str, overwrite: bool) -> int:
    """``wsd tune --average``: average the models' weights into ``out``; training settings are refused."""
    from wsd.tune.averaging import average_encoders

    if tune.get("train") or tune.get("recipe"):
        raise ConfigError("--average makes a model from others without training: give it without --train and --recipe")
    defaults = TuneOptions().weight_settings()
    trained = {
        OPTIONS[f"tune.{key}"].option_strings[0]
        for key, value in options.weight_settings().items()
        if value != defaults[key]
    }
    trained |= {flag for key, flag in (("exclude", "--exclude"), ("exclude_lemmas", "--exclude-lemmas")) if tune[key]}
    if trained:
        raise ConfigError(f"--average does not train: {', '.join(sorted(trained))} would have no effect")
    weights = None
    if tune.get("average_weights"):
        try:
            weights = [float(item) for item in tune["average_weights"]]
        except ValueError:
            raise ConfigError(
                f"--average-weights takes numbers, comma-separated (0.5,0.5), not {','.join(tune['average_weights'])}"
            ) from None
    print(average_encoders(tune["average"], out, weights=weights, overwrite=overwrite).summary())
    return 0


def _built_by_recipe(folder: Path, recipe: str, train: list[str], model: str | None, trained: bool = False) -> bool:
    """Whether ``folder`` holds a finished model of this recipe on these sources (another model is left to
    :func:`~wsd.tune.api.tune_encoder`, which refuses it without ``--overwrite``), and for a recipe on the user's
    base, on the base ``model`` given now. ``trained``: the trained part of a recipe that then averages; else a
    recipe that averages needs its stamp, of this version."""
    from wsd.io.recipe_stamp import read_tune_card
    from wsd.tune.recipes import resolve_recipe

    spec = resolve_recipe(recipe)
    try:
        facts = read_tune_card(folder)
        if spec.needs_model and not _same_base(facts, model):
            return False
        if spec.wise_weight is not None and not trained:  # its own card says what it averaged, from what
            stamp = facts.get("recipe")
            return isinstance(stamp, dict) and _same_recipe(stamp, recipe) and stamp.get("sources") == train
        options = facts["config"]["options"]
        sources = facts.get("given_sources", facts["config"]["sources"])
        stamp = facts.get("recipe")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    if not trained and not (_same_recipe(stamp, recipe) if stamp is not None else spec.version == 1):
        return False  # another version of the recipe (a model from before stamps: version 1's)
    return sources == train and all(options.get(key) == value for key, value in spec.settings.items())


def _recorded_base(facts: dict[str, Any]) -> str | None:
    """The base model a tuned model's card records (``base_model.name``), or None."""
    base = facts.get("base_model")
    name = base.get("name") if isinstance(base, dict) else None
    return name if isinstance(name, str) else None


def _same_base(facts: dict[str, Any], model: str | None) -> bool:
    """Whether the base a tuned model's card records is the ``--model BASE`` given now: the same name, or the same
    folder however it is written (a relative path, a link). A copy elsewhere counts as another base. Not by the
    card's fingerprint: it holds the configuration as the installed transformers expands it (so the same base
    would differ after an upgrade) and only the sizes of the weight files (two fine-tunes of one architecture
    would be the same)."""
    recorded = _recorded_base(facts)
    if recorded is None or not model:
        return False
    if recorded == model:
        return True
    given, built = Path(model).expanduser(), Path(recorded).expanduser()
    return given.is_dir() and built.is_dir() and given.resolve() == built.resolve()


def _warn_base_type(recipe: str, model: str | None) -> None:
    """Warn when a recipe on the user's base is given a base of another kind than the one it was measured on."""
    import warnings

    from wsd.tune.recipes import resolve_recipe

    spec = resolve_recipe(recipe)
    if spec.base_type is None or not model:
        return
    from wsd.embed.models import read_model_config

    config = read_model_config(model)  # nothing loaded or downloaded: a base not in reach is not warned about
    kind = config.get("model_type") if config is not None else None
    if isinstance(kind, str) and kind != spec.base_type:
        warnings.warn(
            f"--recipe {recipe} was measured on a base of type {spec.base_type}; --model {model} is of type {kind}: "
            f"the recipe's figures and the sense recipe it ships were not chosen for it",
            stacklevel=2,
        )


def _check_base(recipe: str, folder: Path, model: str | None, overwrite: bool, trained: bool = False) -> None:
    """For a recipe on the user's base, refuse before any training a ``folder`` that holds this recipe's model
    (``trained``: the trained part beside it, which records no recipe) built on another base: without
    ``--overwrite`` it would be taken as built, or refused only after every source was read. Another model there
    is left to the checks that name it."""
    from wsd.embed.models import model_source
    from wsd.errors import ModelError
    from wsd.io.recipe_stamp import read_tune_card
    from wsd.tune.recipes import resolve_recipe

    if not resolve_recipe(recipe).needs_model or not model:
        return
    if overwrite or not (folder / TUNE_FILE).is_file():
        return
    try:
        model_source(model)
    except ModelError:
        return  # a base found nowhere: the training names it, not a comparison with it
    try:
        facts = read_tune_card(folder)
    except ValueError:
        return  # a damaged card: the checks that follow name it
    stamp = facts.get("recipe")
    ours = trained or (isinstance(stamp, dict) and stamp.get("name") == recipe)
    if ours and not _same_base(facts, model):
        raise ConfigError(
            f"{folder} holds a model built on another base ({_recorded_base(facts) or 'none recorded'}; bases are "
            f"compared by name and by the folder they resolve to): give --overwrite to build recipe {recipe} there on "
            f"{model}, or another --out"
        )


def _stamp(recipe: str, train: list[str]) -> dict[str, Any]:
    """The ``recipe`` a recipe's model records: the recipe's stamp and the sources it learnt from."""
    from wsd.tune.recipes import resolve_recipe

    return resolve_recipe(recipe).stamp() | {"sources": list(train)}


def _load_hint(recipe: str, out: str) -> str:
    """How to load a recipe's model: by its name where it lies in the model cache, else by its folder."""
    from wsd.embed.built_models import recipe_folder

    name = f"wsd:{recipe}" if Path(out).resolve() == recipe_folder(recipe).resolve() else out
    return f"load it anywhere with --model {name}"


def _recipe_run(
    name: str, options: TuneOptions, train: list[str] | None, out: str | None, data_dir: str | None
) -> tuple[TuneOptions, list[str], str, list[str]]:
    """The options, the sources, the folder and the excluded lemmas of a ``--recipe`` run: its fixed options, its
    sources (found under ``data_dir`` or ``$WSD_DATA_DIR``, or given with ``--train``), its cache folder."""
    from wsd.embed.built_models import recipe_folder
    from wsd.tune.recipes import recipe_excluded_lemmas, recipe_options, recipe_sources, resolve_recipe

    recipe = resolve_recipe(name)
    options = recipe_options(recipe, options)
    sources = recipe_sources(recipe, data_dir, list(train or []))
    return options, sources, out or str(recipe_folder(recipe.name)), recipe_excluded_lemmas(recipe)
