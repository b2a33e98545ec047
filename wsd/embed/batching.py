"""Where the batches of a forward pass begin and end: windows longest first, cut where padding would cost most.

The encoder runs its windows longest first, at most ``batch_size`` a batch, each batch padded to its longest
window. Cutting every ``batch_size`` windows wastes the most where lengths fall steeply: a part of running text
holds a few long windows, and the longest one pads its whole batch to its length (on the DWUG EN sentences, parts
of 1,024 occurrences cut that way ran 13% more padded tokens than the same windows sorted in one part). Here a
batch costs its padded tokens plus a fixed allowance for the pass itself (:data:`BATCH_COST_TOKENS`), and the cuts
with the least total are found exactly by dynamic programming over the windows in that order (each cut at most
``batch_size`` windows from the last, so the work is ``windows × batch_size``). Windows of similar length still
fill whole batches; a long window is run with fewer others.
"""

from __future__ import annotations

import numpy as np

#: The fixed cost of one more forward pass, in padded tokens. Measured on the tuning corpus of
#: ``experiments/bench_embed_sentences.py`` (State of the Union sentences) on the Intel Xeon AMX kind, OpenVINO bf16:
#: a call of 3 or 4 short windows (33 to 44 tokens) took 8 to 10 ms where full batches ran at 33 µs a token, about
#: 250 tokens' worth. A slower CPU runs fewer tokens in that time, so there a cut pays off sooner than this
#: allowance says; the long windows it is for are cut off all the same (experiments/bench_batch_cuts.py).
BATCH_COST_TOKENS = 256


def batch_sizes(lengths: np.ndarray, max_windows: int, batch_cost: float = BATCH_COST_TOKENS) -> list[int]:
    """Sizes of consecutive batches of windows, longest first, that run the fewest padded tokens.

    A batch of windows ``i..j-1`` (``lengths`` descending) costs ``(j - i) × lengths[i] + batch_cost``; the
    batches hold at most ``max_windows`` windows each, and the cutting with the least total cost is returned
    (on a tie, the one whose last batch starts latest: where lengths are equal, whole batches of ``max_windows``
    and the remainder last, as cutting every ``max_windows`` windows gives).

    Parameters
    ----------
    lengths : ndarray of int
        Each window's length in tokens, longest first.
    max_windows : int
        The most windows in one batch (the encoder's ``batch_size``).
    batch_cost : float
        The fixed cost of one more batch, in tokens.

    Returns
    -------
    list of int
        The size of each batch, in order; they sum to ``len(lengths)`` (empty for no window).

    Raises
    ------
    ValueError
        When ``max_windows`` is below 1 or ``lengths`` rise anywhere.

    Examples
    --------
    >>> batch_sizes(np.array([400, 90, 88, 87, 86, 85]), max_windows=4)
    [1, 2, 3]
    >>> batch_sizes(np.array([40] * 10), max_windows=4)
    [4, 4, 2]
    """
    if max_windows < 1:
        raise ValueError(f"max_windows must be at least 1, got {max_windows}")
    ordered = np.asarray(lengths, dtype=np.float64)
    count = len(ordered)
    if count == 0:
        return []
    if np.any(np.diff(ordered) > 0):
        raise ValueError("the window lengths must be in descending order (longest first)")
    best = np.full(count + 1, np.inf)
    best[0] = 0.0
    start = np.zeros(count + 1, dtype=np.int64)
    for end in range(1, count + 1):
        first = max(0, end - max_windows)
        begins = np.arange(first, end)
        totals = best[first:end] + (end - begins) * ordered[first:end] + batch_cost
        pick = len(totals) - 1 - int(np.argmin(totals[::-1]))  # the latest start of the least
        best[end], start[end] = totals[pick], begins[pick]
    cuts = [count]
    while cuts[-1] > 0:
        cuts.append(int(start[cuts[-1]]))
    return np.diff(cuts[::-1]).tolist()
