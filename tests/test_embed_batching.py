"""The encoder's batch cuts (wsd.embed.batching): the fewest padded tokens, at most ``batch_size`` windows a batch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from wsd.embed.batching import BATCH_COST_TOKENS, batch_sizes


def cost(lengths: np.ndarray, sizes: list[int], batch_cost: float = BATCH_COST_TOKENS) -> float:
    """What a cutting costs: each batch padded to its first (longest) window, plus the cost of a batch."""
    cuts = np.cumsum([0, *sizes])
    return float(sum((end - begin) * lengths[begin] + batch_cost for begin, end in itertools.pairwise(cuts)))


def every_cutting(count: int, most: int):
    """Every way to cut ``count`` windows into consecutive batches of at most ``most``."""
    if count == 0:
        yield []
        return
    for first in range(1, min(most, count) + 1):
        for rest in every_cutting(count - first, most):
            yield [first, *rest]


@pytest.mark.parametrize("seed", range(25))
def test_the_cutting_is_the_cheapest_of_all_and_keeps_every_window_in_order(seed: int) -> None:
    rng = np.random.default_rng(seed)
    lengths = np.sort(rng.integers(3, 400, size=int(rng.integers(1, 11))))[::-1]
    most = int(rng.integers(1, 5))
    sizes = batch_sizes(lengths, most)
    assert sum(sizes) == len(lengths) and all(1 <= size <= most for size in sizes)
    assert cost(lengths, sizes) == min(cost(lengths, other) for other in every_cutting(len(lengths), most))


def test_windows_of_one_length_fill_whole_batches_the_remainder_last() -> None:
    assert batch_sizes(np.full(70, 37), 32) == [32, 32, 6]
    assert batch_sizes(np.full(64, 12), 32) == [32, 32]
    assert batch_sizes(np.array([], dtype=np.int64), 32) == []


def test_a_long_window_no_longer_pads_its_whole_batch() -> None:
    lengths = np.array([215, *range(90, 59, -1)])  # the head of a part of DWUG EN sentences: one long window
    sizes = batch_sizes(lengths, 32)
    assert sizes[0] < 32, "the long window runs with fewer others"
    padded = cost(lengths, sizes, 0)
    assert padded < 0.6 * 32 * 215, f"padded {padded} tokens where one batch of 32 pads 6,880"


def test_a_larger_batch_cost_cuts_fewer_batches() -> None:
    lengths = np.sort(np.random.default_rng(3).integers(5, 120, size=300))[::-1]
    counts = [len(batch_sizes(lengths, 32, batch_cost)) for batch_cost in (0, 64, 1024, 10**6)]
    assert counts == sorted(counts, reverse=True) and counts[-1] == -(-300 // 32)


def test_bad_arguments_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        batch_sizes(np.array([3, 2]), 0)
    with pytest.raises(ValueError, match="descending"):
        batch_sizes(np.array([2, 3]), 4)


def test_the_encoder_runs_an_outlier_in_a_small_batch_with_the_same_vectors(encoder) -> None:
    texts = ["a mouse " + "and a cat " * 60 + "ran.", *[f"the mouse number {i} ran." for i in range(9)]]
    spans = np.array([[2, 7]] * len(texts))
    batches = encoder.with_options(batch_size=8).model_inputs(texts, spans)
    assert len(batches[0][0]) < 8, "the long window is not padded into a batch of 8"
    assert sum(len(ids) for ids, _ in batches) == len(texts)
    together = encoder.with_options(batch_size=8).embed_spans(texts, spans)
    alone = encoder.with_options(batch_size=1).embed_spans(texts, spans)
    assert np.allclose(together, alone, atol=1e-4)
