"""The training loop: lemma-grouped batches, each use encoded once, every labelled pair among them scored.

One step (:func:`train`): a :class:`~wsd.tune.batches.Batch` of uses is encoded by the
:class:`~wsd.tune.forward.SpanEncoder` (the windows, layers and pooling of inference, with gradients), the
cosine of every scored pair is taken from the normalised vectors, and the batch's loss
(:func:`~wsd.tune.losses.pair_loss`) is back-propagated; AdamW with linear warm-up and decay, gradients clipped
at norm 1; ``freeze_layers`` keeps the embeddings and the lowest layers fixed
(:func:`~wsd.tune.freezing.freeze_lower_layers`). Validation runs before the first step, after each epoch and
every ``eval_steps``; the best weights are kept, and ``patience`` validations without improvement stop the run.

A checkpoint (``OUT/checkpoint/state.pt``, written atomically) holds the weights, the optimizer and scheduler,
the step and the position in the epoch (the batches of an epoch follow from the seed), the RNG state, the
validation history and the best weights so far: a run that resumes from it ends with the same weights as one
that was never interrupted.
"""

from __future__ import annotations

import contextlib
import copy
import time
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
from wsd.tune.batches import Batch, PairIndex
from wsd.tune.forward import SpanEncoder
from wsd.tune.freezing import freeze_lower_layers
from wsd.tune.losses import pair_loss
from wsd.tune.options import TuneOptions, with_later_defaults
from wsd.tune.pairs import PairSet
from wsd.tune.teacher import Teacher
from wsd.tune.validation import validate

CHECKPOINT_FORMAT = "wsd-tune-checkpoint/1"
#: Gradients are clipped at this norm.
MAX_GRAD_NORM = 1.0
#: Weight of the newest step in the running loss the progress bar shows.
RUNNING_WEIGHT = 0.1


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


@dataclass
class TrainOutcome:
    """What :func:`train` returns.

    Parameters
    ----------
    state : TrainState
        The final state.
    steps_planned : int
        The steps the schedule was made for.
    """

    state: TrainState
    steps_planned: int


def autocast_dtype(precision: str, device: torch.device) -> torch.dtype | None:
    """The autocast dtype of a precision option on a device: bf16 where native (``auto``) or asked, else None.

    Parameters
    ----------
    precision : {"auto", "fp32", "bf16"}
        The option.
    device : torch.device
        Where training runs.

    Returns
    -------
    torch.dtype or None
        ``torch.bfloat16``, or None for fp32.

    Examples
    --------
    >>> autocast_dtype("fp32", torch.device("cpu")) is None
    True
    """
    from wsd import machine

    if precision == "fp32":
        return None
    if precision == "bf16":
        return torch.bfloat16
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else None
    return torch.bfloat16 if machine.fast_bf16() else None


@contextlib.contextmanager
def deterministic(seed: int) -> Iterator[None]:
    """Seed torch and turn deterministic algorithms on for the block (the previous setting is restored).

    Parameters
    ----------
    seed : int
        The seed.

    Yields
    ------
    None
    """
    before = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(before, warn_only=warn_only)


def _schedule(total: int, warmup_fraction: float) -> Callable[[int], float]:
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
    config: dict[str, Any],
    *,
    on_step: Callable[[int, float], None] | None = None,
    teacher: Teacher | None = None,
) -> TrainOutcome:
    """Train ``span``'s model in place on ``pairset`` (see the module docstring); resume from a checkpoint.

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
    config : dict
        What decides the weights (a checkpoint of another configuration is not resumed from).
    on_step : callable, optional
        Called with the step number and its loss after each step (and its checkpoint); what it raises
        stops the run (a test interrupts a run this way).
    teacher : Teacher, optional
        Labels every training pair with its cosine instead of the source's label (:mod:`wsd.tune.teacher`).

    Returns
    -------
    TrainOutcome
        The final state; the model holds the kept weights (the best validated, or the last).

    Raises
    ------
    ConfigError
        When the training pairs are empty.
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
    optimizer = torch.optim.AdamW(trainable, lr=options.lr, weight_decay=options.weight_decay)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, _schedule(total, options.warmup_fraction))
    state = TrainState()
    best: dict[str, torch.Tensor] | None = None
    path = checkpoint_dir / TUNE_CHECKPOINT_STATE
    with deterministic(options.seed):
        if path.is_file():
            state, best = _load_checkpoint(path, config, model, optimizer, scheduler, span.device)

        def check(when: str) -> bool:
            """Validate; keep the weights when they are the best; True when patience ran out."""
            nonlocal best
            if valid is None:
                return False
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
        if not state.history and state.step == 0:
            check("before")
        uses = pairset.uses
        bar = tqdm(total=total, initial=state.step, unit="step", desc="tuning", disable=not options.progress)
        running = float(np.mean(state.losses[-10:])) if state.losses else None
        model.train()
        while state.epoch < len(plans) and state.step < total and not state.stopped_early:
            plan = plans[state.epoch]
            while state.position < len(plan) and state.step < total:
                loss = _batch_loss(span, uses, plan[state.position], options, teacher)
                optimizer.zero_grad(set_to_none=True)
                if loss.requires_grad:
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(trainable, MAX_GRAD_NORM)
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
                    break
                if state.step % options.checkpoint_steps == 0:
                    state.seconds += time.perf_counter() - clock
                    clock = time.perf_counter()
                    _save_checkpoint(path, config, model, optimizer, scheduler, state, best)
                if on_step is not None:
                    on_step(state.step, value)
            if state.stopped_early:
                break
            if state.position >= len(plan):
                if check(f"epoch {state.epoch + 1}"):
                    state.stopped_early = True
                state.epoch, state.position = state.epoch + 1, 0
        bar.close()
        if valid is not None and state.history[-1]["step"] != state.step and not state.stopped_early:
            check("end")
        state.seconds += time.perf_counter() - clock
    if best is not None:
        model.load_state_dict(best)
    model.eval()
    return TrainOutcome(state, total)


def _save_checkpoint(
    path: Path,
    config: dict[str, Any],
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    state: TrainState,
    best: dict[str, torch.Tensor] | None,
) -> None:
    """Write the checkpoint atomically (a reader never finds half of one)."""
    document = {
        "format": CHECKPOINT_FORMAT,
        "config": config,
        "model": _cpu_copy(model.state_dict()),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "state": asdict(state),
        "rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
        "best": best,
    }
    atomic_write(path, lambda tmp: torch.save(document, tmp))


def _load_checkpoint(
    path: Path,
    config: dict[str, Any],
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: Any,
    device: torch.device,
) -> tuple[TrainState, dict[str, torch.Tensor] | None]:
    """Restore a checkpoint of the same configuration into the model, optimizer and scheduler."""
    from wsd.io.outputs import differences

    try:
        document = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as exc:
        raise ConfigError(f"the checkpoint {path} cannot be read ({exc}); remove it to start again") from exc
    if not isinstance(document, dict) or document.get("format") != CHECKPOINT_FORMAT:
        raise ConfigError(f"{path} is not a wsd tune checkpoint; remove it to start again")
    changed = list(differences(with_later_defaults(document.get("config")), config))
    if changed:
        raise ConfigError(
            f"the checkpoint {path} is of another configuration ({'; '.join(changed[:3])}); "
            "use another --out, or --overwrite to start again"
        )
    model.load_state_dict(document["model"])
    model.to(device)
    optimizer.load_state_dict(document["optimizer"])
    scheduler.load_state_dict(document["scheduler"])
    torch.set_rng_state(document["rng"])
    if document["cuda_rng"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(document["cuda_rng"])
    return TrainState(**copy.deepcopy(document["state"])), document["best"]
