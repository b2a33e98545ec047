"""The training loop: lemma-grouped batches, each use encoded once, every labelled pair among them scored.

One step (:func:`train`): a :class:`~wsd.tune.batches.Batch` of uses is encoded by the
:class:`~wsd.tune.forward.SpanEncoder` (the windows, layers and pooling of inference, with gradients), the
cosine of every scored pair is taken from the normalised vectors, and the batch's loss
(:func:`~wsd.tune.losses.pair_loss`) is back-propagated; AdamW with linear warm-up and decay
(:func:`_schedule`), gradients clipped at norm 1; ``freeze_layers`` keeps the embeddings and the lowest layers
fixed (:func:`~wsd.tune.freezing.freeze_lower_layers`). Validation runs before the first step, after each epoch and
every ``eval_steps``; the best weights are kept, and ``patience`` validations without improvement stop the run.

A checkpoint (``OUT/checkpoint/state.pt``, written atomically) holds the weights, the optimizer and scheduler,
the step and the position in the epoch (the batches of an epoch follow from the seed), the RNG state, the
validation history and the best weights so far: a run that resumes from it ends with the same weights as one
that was never interrupted. One is written every ``checkpoint_steps`` steps, and on Ctrl-C when a step was
finished since the last (:class:`TrainingInterrupted` says which step is saved).

A checkpoint is trusted only as far as it is proven wsd's: its SHA-256 must be the one the folder's manifest
recorded (:mod:`wsd.io.manifest`, checked on the very bytes loaded), and it is loaded as tensors and plain values
only (``torch.load(weights_only=True)``), so a file put in its place runs no code.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm.auto import tqdm

from wsd.errors import ConfigError
from wsd.io.atomic import atomic_write
from wsd.io.layout import TUNE_CHECKPOINT_STATE
from wsd.io.outputs import NotAsWritten, differences, discard, open_as_written
from wsd.options import TuneOptions
from wsd.tune.batches import Batch, PairIndex
from wsd.tune.facts import TuneConfig
from wsd.tune.forward import SpanEncoder
from wsd.tune.freezing import freeze_lower_layers
from wsd.tune.losses import pair_loss
from wsd.tune.options import with_later_defaults
from wsd.tune.pairs import PairSet
from wsd.tune.precision import PROBE_BATCHES, PrecisionChoice, fixed_choice, measured_choice
from wsd.tune.teacher import Teacher
from wsd.tune.validation import validate

CHECKPOINT_FORMAT = "wsd-tune-checkpoint/1"
#: Gradients are clipped at this norm.
MAX_GRAD_NORM = 1.0
#: Weight of the newest step in the running loss the progress bar shows.
RUNNING_WEIGHT = 0.1


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C during training; the message says what was saved (``saved at step N of M ...``, or nothing).

    A :class:`KeyboardInterrupt`, so it stops the command as Ctrl-C does; the CLI prints its message.
    """


@dataclass
class TrainState:
    """Where a training run stands (saved in every checkpoint).

    Parameters
    ----------
    step : int
        Optimisation steps done.
    epoch : int
        The current epoch (0-based).
    position : int
        Batches of the current epoch done.
    history : list of dict
        Validation figures so far (``when``, ``step`` and :func:`~wsd.tune.validation.pair_figures`).
    losses : list of float
        The loss of every step.
    best_score : float or None
        The best validation score so far.
    best_step : int
        The step whose weights are kept (0: the base model's).
    bad_validations : int
        Validations since the last improvement.
    stopped_early : bool
        Whether patience ran out.
    seconds : float
        Training time so far (over all sessions of a resumed run).
    precision : dict or None
        The precision the run trains in and how it was decided (:meth:`wsd.tune.precision.PrecisionChoice.to_dict`;
        None until it is decided, and in a checkpoint written before it was recorded).
    """

    step: int = 0
    epoch: int = 0
    position: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    best_score: float | None = None
    best_step: int = 0
    bad_validations: int = 0
    stopped_early: bool = False
    seconds: float = 0.0
    precision: dict[str, Any] | None = None


@dataclass
class TrainOutcome:
    """What :func:`train` returns.

    Parameters
    ----------
    state : TrainState
        The final state.
    steps_planned : int
        The steps the schedule was made for.
    precision : PrecisionChoice
        The precision the run trained in, and how it was decided.
    """

    state: TrainState
    steps_planned: int
    precision: PrecisionChoice


@contextlib.contextmanager
def deterministic(seed: int) -> Iterator[None]:
    """Seed as transformers does and turn deterministic algorithms on for the block (the previous setting is restored).

    The seeding is :func:`transformers.set_seed`: Python's :mod:`random`, NumPy's global RNG and torch on the CPU
    and every CUDA device. torch's streams are those of ``torch.manual_seed(seed)``, and wsd draws nothing from
    the other two (its batches, splits and samples take seeded :class:`numpy.random.Generator` objects), so no
    draw of a run changes. The switch to deterministic algorithms stays wsd's: warnings only where an operation
    has no deterministic kernel, and the caller's setting back afterwards (``set_seed(seed, deterministic=True)``
    makes such an operation an error and leaves the switch on).

    Parameters
    ----------
    seed : int
        The seed.

    Yields
    ------
    None

    Examples
    --------
    >>> with deterministic(0):
    ...     first = torch.rand(2)
    >>> with deterministic(0):
    ...     torch.equal(torch.rand(2), first)
    True
    """
    from transformers import set_seed

    before = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    set_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(before, warn_only=warn_only)


def _schedule(total: int, warmup_fraction: float) -> Callable[[int], float]:
    """The learning-rate factor of each step: linear warm-up, then linear decay to 0 at step ``total``.

    This is transformers' ``get_linear_schedule_with_warmup(optimizer, warmup + 1, total + 1)`` read one step
    ahead (``tests/test_tune_library.py`` checks it bit for bit), so the first step trains at ``lr / (warmup + 1)``
    where transformers' own schedule gives 0. It stays wsd's so that the recipes' models and the checkpoints
    written so far stay as they are: the library's schedule differs in every warm-up step, and the shifted one
    starts a step in (``last_epoch=0``), so its saved state counts one step ahead of wsd's checkpoints.

    Parameters
    ----------
    total : int
        Steps planned.
    warmup_fraction : float
        Share of them that warm up (``int(warmup_fraction * total)`` steps).

    Returns
    -------
    callable
        Step (0-based) → factor of the peak learning rate (:class:`torch.optim.lr_scheduler.LambdaLR`'s lambda).

    Examples
    --------
    >>> factor = _schedule(10, 0.2)
    >>> [round(factor(step), 3) for step in (0, 1, 2, 6, 10)]
    [0.333, 0.667, 1.0, 0.5, 0.0]
    """
    warmup = int(warmup_fraction * total)

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / (warmup + 1)
        return max(0.0, (total - step) / max(1, total - warmup))

    return factor


def _batch_loss(
    span: SpanEncoder, uses: Any, batch: Batch, options: TuneOptions, teacher: Teacher | None = None
) -> torch.Tensor:
    """The loss of one batch: each use encoded once, every scored pair's cosine from the normalised vectors.

    With a ``teacher`` the pairs are labelled by its cosines first (:mod:`wsd.tune.teacher`).
    """
    rows = uses.iloc[batch.uses]
    texts, spans = rows["text"].tolist(), rows[["start", "end"]].to_numpy(dtype=np.int64)
    if teacher is not None:
        batch = teacher.relabel(batch, texts, spans)
    vectors = span.encode(texts, spans)
    unit = torch.nn.functional.normalize(vectors, dim=1)
    first = torch.from_numpy(batch.first).to(unit.device)
    second = torch.from_numpy(batch.second).to(unit.device)
    scores = (unit[first] * unit[second]).sum(1)
    labels = torch.from_numpy(batch.labels).to(unit.device, unit.dtype)
    return pair_loss(scores, labels, batch.kind, options.loss, scale=options.scale, margin=options.margin)


def _cpu_copy(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {key: value.detach().to("cpu", copy=True) for key, value in state.items()}


def train(
    span: SpanEncoder,
    pairset: PairSet,
    valid: PairSet | None,
    options: TuneOptions,
    checkpoint_dir: Path,
    config: TuneConfig,
    *,
    on_step: Callable[[int, float], None] | None = None,
    teacher: Teacher | None = None,
    overwrite: bool = False,
) -> TrainOutcome:
    """Train ``span``'s model in place on ``pairset`` (see the module docstring); resume from a checkpoint.

    A resumed run says so on stderr (``resuming from step N of M``). Ctrl-C saves a checkpoint of the steps
    finished since the last one (atomically) and raises :class:`TrainingInterrupted`, whose message says which
    step is saved, or that nothing is.

    Parameters
    ----------
    span : SpanEncoder
        The model to train and how word vectors are made.
    pairset : PairSet
        The training pairs.
    valid : PairSet or None
        The validation pairs (None: no validation, the last weights are kept).
    options : TuneOptions
        Epochs, steps, learning rate, loss, seed, patience, checkpoints, progress.
    checkpoint_dir : Path
        Where checkpoints go; a checkpoint there of the same ``config`` is resumed from.
    config : TuneConfig
        What decides the weights (a checkpoint of another configuration is not resumed from).
    on_step : callable, optional
        Called with the step number and its loss after each step (and its checkpoint); what it raises
        stops the run (a test interrupts a run this way).
    teacher : Teacher, optional
        Labels every training pair with its cosine instead of the source's label (:mod:`wsd.tune.teacher`).
    overwrite : bool
        A checkpoint that is not as wsd wrote it, or not a checkpoint, is removed (a warning says so) and
        training starts at step 0; without it such a checkpoint is refused. Either way it runs no code: it is
        loaded only when its checksum is the manifest's, and then as tensors and plain values only.

    Returns
    -------
    TrainOutcome
        The final state; the model holds the kept weights (the best validated, or the last).

    Raises
    ------
    ConfigError
        When the training pairs are empty, or the checkpoint is not wsd's, changed since wsd wrote it, not a
        checkpoint (without ``overwrite``), or of another configuration.
    TrainingInterrupted
        On Ctrl-C.
    """
    if not len(pairset):
        raise ConfigError("no training pair is left (every lemma is excluded or held out for validation)")
    model = span.model
    index = PairIndex(pairset)
    plans = [index.epoch(options.seed, epoch, options.batch_uses) for epoch in range(options.epochs)]
    total = sum(len(plan) for plan in plans)
    if options.max_steps is not None:
        total = min(total, options.max_steps)
    freeze_lower_layers(model, options.freeze_layers)
    trainable = [weight for weight in model.parameters() if weight.requires_grad]
    optimizer, scheduler = _optimizer(trainable, options, total)
    state = TrainState()
    best: dict[str, torch.Tensor] | None = None
    path = checkpoint_dir / TUNE_CHECKPOINT_STATE
    with deterministic(options.seed):
        saved: int | None = None  # the step of the checkpoint on disk
        found = path.is_file()
        load = functools.partial(_load_checkpoint, path, config, model, optimizer, scheduler, span.device)
        resumed = _resume(path, load, overwrite) if found else None
        if resumed is not None:
            state, best = resumed
            saved = state.step
            print(f"tuning: resuming from step {state.step} of {total} ({path})", file=sys.stderr, flush=True)
        elif found:  # refused and removed (--overwrite): nothing of it may stay in the optimizer
            optimizer, scheduler = _optimizer(trainable, options, total)
        choice = _precision(span, pairset.uses, plans, state, options, teacher)
        span.autocast, state.precision = choice.dtype, choice.to_dict()
        # False while the state in memory is between two steps' (an update, a validation): not saved on Ctrl-C
        consistent = True

        def check(when: str) -> bool:
            """Validate; keep the weights when they are the best; True when patience ran out."""
            nonlocal best, consistent
            if valid is None:
                return False
            consistent = False
            model.eval()
            figures = validate(span.encode, valid, options.batch_uses)
            model.train()
            state.history.append({"when": when, "step": state.step, **figures})
            score = figures["score"]
            if score is not None and (state.best_score is None or score > state.best_score):
                state.best_score, state.best_step, state.bad_validations = float(score), state.step, 0
                best = _cpu_copy(model.state_dict())
            else:
                state.bad_validations += 1
            return options.patience is not None and state.bad_validations >= options.patience

        clock = time.perf_counter()
        rng = _rng_state()  # as the next step starts: a checkpoint taken during the step has the step's RNG

        def save() -> None:
            nonlocal clock, saved
            state.seconds += time.perf_counter() - clock
            clock = time.perf_counter()
            _save_checkpoint(path, config, model, optimizer, scheduler, state, best, rng)
            saved = state.step

        bar = tqdm(total=total, initial=state.step, unit="step", desc="tuning", disable=not options.progress)
        try:
            if not state.history and state.step == 0:
                check("before")
                consistent = True
            uses = pairset.uses
            running = float(np.mean(state.losses[-10:])) if state.losses else None
            model.train()
            while state.epoch < len(plans) and state.step < total and not state.stopped_early:
                plan = plans[state.epoch]
                while state.position < len(plan) and state.step < total:
                    rng = _rng_state()
                    loss = _batch_loss(span, uses, plan[state.position], options, teacher)
                    optimizer.zero_grad(set_to_none=True)
                    if loss.requires_grad:
                        loss.backward()
                        torch.nn.utils.clip_grad_norm_(trainable, MAX_GRAD_NORM)
                    consistent = False  # the weights, the optimizer and the step change together
                    if loss.requires_grad:
                        optimizer.step()
                    scheduler.step()
                    value = float(loss.detach())
                    state.step, state.position = state.step + 1, state.position + 1
                    state.losses.append(value)
                    running = value if running is None else (1 - RUNNING_WEIGHT) * running + RUNNING_WEIGHT * value
                    bar.update(1)
                    bar.set_postfix(loss=f"{running:.4f}", epoch=state.epoch + 1)
                    if options.eval_steps is not None and state.step % options.eval_steps == 0 and check("step"):
                        state.stopped_early = True
                        consistent = True
                        break
                    rng, consistent = _rng_state(), True
                    if state.step % options.checkpoint_steps == 0:
                        save()
                    if on_step is not None:
                        on_step(state.step, value)
                if state.stopped_early:
                    break
                if state.position >= len(plan):
                    if check(f"epoch {state.epoch + 1}"):
                        state.stopped_early = True
                    consistent = False
                    state.epoch, state.position = state.epoch + 1, 0
                    consistent = True
            bar.close()
            if valid is not None and state.history[-1]["step"] != state.step and not state.stopped_early:
                check("end")
                consistent = True
        except KeyboardInterrupt:
            bar.close()
            if consistent and state.step > (saved if saved is not None else 0):  # a step finished since the last
                with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C: the write is atomic, the last stays
                    save()
            raise TrainingInterrupted(_interrupted(saved, state.step, total, checkpoint_dir)) from None
        state.seconds += time.perf_counter() - clock
    if best is not None:
        model.load_state_dict(best)
    model.eval()
    return TrainOutcome(state, total, choice)


def _precision(
    span: SpanEncoder,
    uses: Any,
    plans: list[list[Batch]],
    state: TrainState,
    options: TuneOptions,
    teacher: Teacher | None,
) -> PrecisionChoice:
    """The precision to train in: a resumed run's own, a fixed one, or the faster on the run's first batches.

    The probe (:func:`wsd.tune.precision.measured_choice`) runs forward and backward passes in training mode;
    their gradients are dropped, no weight changes, and the random state is restored after it, so the training
    that follows draws what it would have drawn without it.
    """
    if state.precision is not None:
        return PrecisionChoice(**state.precision)
    if options.portable:  # validated: not bf16 (wsd.tune.options.training_options)
        return PrecisionChoice("fp32", "portable")
    fixed = fixed_choice(options.precision, span.device)
    if fixed is not None:
        return fixed
    model = span.model
    batches = [batch for plan in plans for batch in plan][:PROBE_BATCHES]

    def step(batch: Batch, dtype: torch.dtype | None) -> None:
        span.autocast = dtype
        loss = _batch_loss(span, uses, batch, options, teacher)
        if loss.requires_grad:
            loss.backward()
        model.zero_grad(set_to_none=True)

    with torch.random.fork_rng(devices=[]):
        model.train()
        choice = measured_choice(step, batches)
    model.zero_grad(set_to_none=True)
    print(f"tuning: training precision {choice.describe()}", file=sys.stderr, flush=True)
    return choice


def _optimizer(trainable: list[torch.nn.Parameter], options: TuneOptions, total: int) -> tuple[Any, Any]:
    """AdamW and its linear warm-up and decay over ``total`` steps, fresh."""
    optimizer = torch.optim.AdamW(trainable, lr=options.lr, weight_decay=options.weight_decay)
    return optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, _schedule(total, options.warmup_fraction))


def _interrupted(saved: int | None, step: int, total: int, checkpoint_dir: Path) -> str:
    """What an interrupted training left: the step of its checkpoint, or nothing to resume."""
    if saved is not None:
        return f"saved at step {saved} of {total} in {checkpoint_dir}; run the same command again to resume"
    if step == 0:
        return "no step was finished; nothing to resume"
    return f"{step} steps were done and none is saved; nothing to resume"


def _rng_state() -> tuple[torch.Tensor, list[torch.Tensor]]:
    """The RNG state of torch on the CPU and on every CUDA device."""
    return torch.get_rng_state(), (torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [])


def _save_checkpoint(
    path: Path,
    config: TuneConfig,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    state: TrainState,
    best: dict[str, torch.Tensor] | None,
    rng: tuple[torch.Tensor, list[torch.Tensor]] | None = None,
) -> None:
    """Write the checkpoint atomically (a reader never finds half of one); ``rng``: the state to resume with."""
    cpu_rng, cuda_rng = rng if rng is not None else _rng_state()
    document = {
        "format": CHECKPOINT_FORMAT,
        "config": config,
        "model": _cpu_copy(model.state_dict()),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "state": asdict(state),
        "rng": cpu_rng,
        "cuda_rng": cuda_rng,
        "best": best,
    }
    atomic_write(path, lambda tmp: torch.save(document, tmp))


class _Untrusted(ConfigError):
    """A checkpoint that is not as wsd wrote it, or not a checkpoint: never loaded (``--overwrite`` removes it)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _resume(
    path: Path, load: Callable[[], tuple[TrainState, dict[str, torch.Tensor] | None]], overwrite: bool
) -> tuple[TrainState, dict[str, torch.Tensor] | None] | None:
    """Restore the checkpoint at ``path`` with ``load`` (:func:`_load_checkpoint`); with ``overwrite`` one that
    cannot be trusted is removed instead (None: from scratch)."""
    try:
        return load()
    except _Untrusted as exc:
        if not overwrite:
            raise
        discard(path)
        warnings.warn(
            f"--overwrite removed the checkpoint {path} (it was {exc.reason}); training starts at step 0",
            stacklevel=2,
        )
        return None


def _read_trusted(path: Path) -> dict[str, Any]:
    """The checkpoint's document: its bytes checked against the manifest, then loaded as tensors and plain values.

    The checksum is computed on the handle that is then loaded, so the bytes checked are the bytes loaded.
    """
    how = "run again with --overwrite to start at step 0 (it removes the checkpoint, wsd's own state)"
    try:
        with open_as_written(path) as handle:
            document = torch.load(handle, map_location="cpu", weights_only=True)
    except NotAsWritten as exc:
        if not exc.listed:
            raise ConfigError(
                f"the checkpoint {path} is not listed in its folder's manifest, so wsd did not write it (or not "
                f"this one): it is not opened; move it out of {path.parent} to start at step 0"
            ) from exc
        raise _Untrusted(
            f"the checkpoint {path} was written by wsd and changed since (damaged, or replaced), so it is not "
            f"opened; {how}",
            "changed since wsd wrote it",
        ) from exc
    except OSError as exc:
        raise ConfigError(f"cannot read the checkpoint {path}: {exc.strerror or exc}") from exc
    except Exception as exc:  # weights_only refuses anything but tensors and plain values; or a damaged file
        raise _Untrusted(
            f"{path} is not a wsd tune checkpoint (it holds more than tensors and plain values, or cannot be "
            f"read as one: {type(exc).__name__}); it was not loaded; {how}",
            "not a wsd tune checkpoint",
        ) from exc
    if not isinstance(document, dict) or document.get("format") != CHECKPOINT_FORMAT:
        raise _Untrusted(f"{path} is not a wsd tune checkpoint; it was not used; {how}", "not a wsd tune checkpoint")
    return document


def _load_checkpoint(
    path: Path,
    config: TuneConfig,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    device: torch.device,
) -> tuple[TrainState, dict[str, torch.Tensor] | None]:
    """Restore a checkpoint of the same configuration into the model, optimizer and scheduler."""
    document = _read_trusted(path)
    changed = list(differences(with_later_defaults(document.get("config")), config))
    if changed:
        raise _Untrusted(
            f"the checkpoint {path} is of another configuration ({'; '.join(changed[:3])}); "
            "use another --out, or --overwrite to start again",
            "of another configuration",
        )
    # everything is checked before anything is restored, so a refused checkpoint leaves the model as it was
    try:
        state = TrainState(**copy.deepcopy(document["state"]))
        weights, best, rng = document["model"], document["best"], document["rng"]
        expected = {name: value.shape for name, value in model.state_dict().items()}
        for found in (weights, best) if best is not None else (weights,):
            if {name: getattr(value, "shape", None) for name, value in found.items()} != expected:
                raise ValueError("its weights are not those of this model")
        if not isinstance(rng, torch.Tensor) or rng.dtype != torch.uint8:
            raise ValueError("its random state is not a byte tensor")
        optimizer.load_state_dict(document["optimizer"])  # checks the parameter groups before it changes anything
        scheduler.load_state_dict(document["scheduler"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _Untrusted(
            f"{path} is not a checkpoint of this training ({type(exc).__name__}: {' '.join(str(exc).split())[:80]}); "
            "it was not "
            "used; run again with --overwrite to start at step 0 (it removes the checkpoint, wsd's own state)",
            "not a checkpoint of this training",
        ) from exc
    model.load_state_dict(weights)
    model.to(device)
    torch.set_rng_state(rng)
    if document.get("cuda_rng") and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(document["cuda_rng"])
    return state, best
