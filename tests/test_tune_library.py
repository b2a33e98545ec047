"""wsd tune beside the libraries it could use: transformers' schedule and seeding, sentence-transformers' losses.

Each test pins a claim of docs/tuning.md ("What is wsd's own in `wsd tune`, and why"): what is the library's
is the same, bit for bit, and what stays wsd's differs from the library in the way the page says.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np
import pytest
import torch
from transformers import get_linear_schedule_with_warmup, set_seed

from wsd.tune.losses import contrastive_loss, cosent_loss
from wsd.tune.train import _schedule, deterministic

#: (steps, warm-up share): the recipes' (sense-minilm 732 steps, sense-multilingual 1,000, warm-up 0.1), the
#: experiments' 300 and 1,500, and the edges (no warm-up step, every step warming up, one step).
SCHEDULES = [(732, 0.1), (1000, 0.1), (300, 0.1), (1500, 0.1), (7, 0.5), (10, 0.0), (5, 1.0), (1, 0.1)]


def _learning_rates(make: Callable[[torch.optim.Optimizer], object], total: int) -> tuple[list[float], object]:
    """The learning rate of every step (and two past the end) of a scheduler made by ``make``, and the scheduler."""
    weight = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.AdamW([weight], lr=2e-5)
    scheduler = make(optimizer)
    rates = []
    for _ in range(total + 2):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()  # type: ignore[attr-defined]
    return rates, scheduler


def _ours(total: int, fraction: float) -> Callable[[torch.optim.Optimizer], object]:
    return lambda optimizer: torch.optim.lr_scheduler.LambdaLR(optimizer, _schedule(total, fraction))


@pytest.mark.parametrize(("total", "fraction"), SCHEDULES)
def test_the_schedule_is_transformers_linear_schedule_one_step_ahead(total: int, fraction: float) -> None:
    warmup = int(fraction * total)

    def shifted(optimizer: torch.optim.Optimizer) -> object:
        for group in optimizer.param_groups:  # a scheduler started past step 0 wants the peak rate given
            group["initial_lr"] = group["lr"]
        return get_linear_schedule_with_warmup(optimizer, warmup + 1, total + 1, last_epoch=0)

    ours, mine = _learning_rates(_ours(total, fraction), total)
    theirs, library = _learning_rates(shifted, total)
    assert ours == theirs  # bit for bit, every step
    # ... but its state counts a step ahead, so a checkpoint wsd wrote would resume a step off
    assert library.state_dict()["last_epoch"] == mine.state_dict()["last_epoch"] + 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(("total", "fraction"), SCHEDULES)
def test_transformers_own_schedule_starts_at_zero_and_differs_in_every_warm_up_step(total: int, fraction: float):
    warmup = int(fraction * total)
    ours, _ = _learning_rates(_ours(total, fraction), total)
    theirs, _ = _learning_rates(lambda optimizer: get_linear_schedule_with_warmup(optimizer, warmup, total), total)
    assert [step for step, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b] == list(range(warmup))
    if warmup:
        assert theirs[0] == 0.0 and ours[0] == 2e-5 * (1 / (warmup + 1))  # lr / (warmup + 1), not 0


@pytest.fixture
def global_random_states() -> Iterator[None]:
    """Put back the global RNGs (Python, NumPy, torch) and the deterministic switch a test changes."""
    states = random.getstate(), np.random.get_state(), torch.get_rng_state()
    switch = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
    yield
    random.setstate(states[0])
    np.random.set_state(states[1])
    torch.set_rng_state(states[2])
    torch.use_deterministic_algorithms(switch[0], warn_only=switch[1])


def test_the_seed_is_transformers_set_seed_and_torch_draws_what_manual_seed_draws(global_random_states) -> None:
    torch.manual_seed(11)
    expected = torch.get_rng_state()
    torch.use_deterministic_algorithms(False)
    with deterministic(11):
        assert torch.equal(torch.get_rng_state(), expected)  # torch's stream: as torch.manual_seed left it
        assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
        drawn = random.random(), float(np.random.random())
    assert not torch.are_deterministic_algorithms_enabled()  # the caller's setting is back
    set_seed(11)
    assert drawn == (random.random(), float(np.random.random()))  # Python and NumPy seeded as set_seed seeds them


def _pairs(seed: int, binary: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Span vectors of 24 uses, 60 scored pairs among them and their labels (binary, or graded 1-4)."""
    generator = torch.Generator().manual_seed(seed)
    vectors = torch.randn(24, 384, generator=generator)
    first, second = (torch.randint(0, 24, (60,), generator=generator) for _ in range(2))
    labels = (
        torch.randint(0, 2, (60,), generator=generator) if binary else torch.randint(1, 5, (60,), generator=generator)
    )
    return vectors, first, second, labels.float()


def _loss_and_gradient(
    vectors: torch.Tensor, loss: Callable[[torch.Tensor], torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor]:
    """A loss of the unit vectors, and its gradient with respect to the vectors."""
    leaf = vectors.clone().requires_grad_(True)
    value = loss(torch.nn.functional.normalize(leaf, dim=1))
    value.backward()
    assert leaf.grad is not None
    return value.detach(), leaf.grad


def _unit_cosine_distance(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return 1.0 - (a * b).sum(1)


@pytest.fixture(scope="module")
def st_losses():
    """sentence-transformers' losses module (6.x; its import takes about 10 s on 2 cores)."""
    return pytest.importorskip("sentence_transformers.sentence_transformer.losses")


@pytest.mark.slow  # imports sentence-transformers
@pytest.mark.parametrize("seed", range(10))
def test_the_contrastive_loss_is_sentence_transformers_bit_for_bit(st_losses, seed: int) -> None:
    theirs = st_losses.ContrastiveLoss(None, distance_metric=_unit_cosine_distance, margin=0.5)
    vectors, first, second, labels = _pairs(seed, binary=True)
    ours_loss, ours_grad = _loss_and_gradient(
        vectors, lambda u: contrastive_loss((u[first] * u[second]).sum(1), labels, 0.5)
    )
    their_loss, their_grad = _loss_and_gradient(
        vectors, lambda u: theirs.compute_loss_from_embeddings([u[first], u[second]], labels)
    )
    assert torch.equal(ours_loss, their_loss) and torch.equal(ours_grad, their_grad)


@pytest.mark.slow  # imports sentence-transformers
@pytest.mark.parametrize("seed", range(10))
def test_cosent_is_sentence_transformers_summed_in_another_order(st_losses, seed: int) -> None:
    theirs = st_losses.CoSENTLoss(None, scale=20.0)
    vectors, first, second, grades = _pairs(seed, binary=False)
    ours_loss, ours_grad = _loss_and_gradient(vectors, lambda u: cosent_loss((u[first] * u[second]).sum(1), grades))
    their_loss, their_grad = _loss_and_gradient(
        vectors, lambda u: theirs.compute_loss_from_embeddings([u[first], u[second]], grades)
    )
    torch.testing.assert_close(ours_loss, their_loss, rtol=1e-6, atol=0.0)
    torch.testing.assert_close(ours_grad, their_grad, rtol=0.0, atol=1e-4 * float(ours_grad.abs().max()))


@pytest.mark.slow  # imports sentence-transformers
def test_a_batch_left_without_pairs_costs_nothing_where_sentence_transformers_gives_nan(st_losses) -> None:
    empty = torch.zeros(0)
    assert float(contrastive_loss(empty, empty)) == 0.0
    theirs = st_losses.ContrastiveLoss(None, distance_metric=_unit_cosine_distance, margin=0.5)
    assert torch.isnan(theirs.compute_loss_from_embeddings([torch.zeros(0, 3), torch.zeros(0, 3)], empty))
