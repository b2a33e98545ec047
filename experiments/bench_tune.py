"""Training throughput of `wsd tune` against the naive loop, measured side by side in one run (issue 23, item 5).

Run from the repository root::

    python -m experiments.bench_tune [--steps 20] [--warmup 3] [--pairs-per-step 16] [--data-dir DIR] [--one-batch]

Both loops train the bundled MiniLM on DWUG EN's judged pairs (``wug:`` source) with the same loss (CoSENT),
the same optimizer (AdamW, lr 2e-5), the same word vectors (:class:`wsd.tune.forward.SpanEncoder`: the
inference windows, the sum of the last four layers, mean subword pooling) and fp32 on the CPU. The naive loop runs
each call's windows in one padded batch, as a tutorial loop does; ``wsd tune`` runs them in groups of similar length
(issue 40), or in one padded batch too with ``--one-batch`` (as before issue 40):

``naive``
    A batch of ``--pairs-per-step`` random labelled pairs; one forward pass for the first use of every pair
    and one for the second (a use is encoded as often as it appears in the batch's pairs).
``wsd tune``
    The planned batches of :class:`wsd.tune.batches.PairIndex` (uses grouped by lemma and chosen through the
    labelled pairs, 24 uses a step): each use encoded once, every labelled pair among them scored.

For each loop the script reports pairs scored per second, the share of a step's time spent in the forward
pass (loss included) and in the backward pass (with the optimizer step), FLOP/s counted by
:class:`torch.utils.flop_counter.FlopCounterMode` on the timed steps, set against the fp32 matmul peak measured
in the same run, and the time one DWUG EN epoch would take (every labelled pair scored once). Both loops start
from the same weights; after the timed steps each model's loss and Spearman ρ on the same 1,000 validation
pairs of lemmas neither trained on show that the faster loop does not buy its speed with a worse model.
Results: ``experiments/results/bench_tune/bench_tune.md`` / ``.json``.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from experiments.common import DEFAULT_DATA_DIR, command_line, log, results_dir

DWUG = "lscd/dwug_en"
#: Lemmas held out of both loops' training; the validation pairs come from them.
VALIDATION_SHARE = 0.2


def matmul_peak(size: int = 2048, repeats: int = 10) -> float:
    """The fp32 matmul rate of this machine, in FLOP/s (the best of ``repeats`` products of two square matrices)."""
    import torch

    a, b = torch.randn(size, size), torch.randn(size, size)
    torch.mm(a, b)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        torch.mm(a, b)
        best = min(best, time.perf_counter() - started)
    return 2 * size**3 / best


def _scores(span: Any, uses: Any, first_rows: np.ndarray, second_rows: np.ndarray, naive: bool) -> Any:
    """Cosines of pairs: each side encoded by its own forward pass (naive), or each distinct use once."""
    import torch

    def encode(rows: np.ndarray) -> torch.Tensor:
        table = uses.iloc[rows]
        return span.encode(table["text"].tolist(), table[["start", "end"]].to_numpy(dtype=np.int64))

    if naive:
        a, b = encode(first_rows), encode(second_rows)
    else:
        distinct, inverse = np.unique(np.concatenate([first_rows, second_rows]), return_inverse=True)
        vectors = encode(distinct)
        a, b = vectors[inverse[: len(first_rows)]], vectors[inverse[len(first_rows) :]]
    a, b = torch.nn.functional.normalize(a, dim=1), torch.nn.functional.normalize(b, dim=1)
    return (a * b).sum(1)


def run_loop(
    name: str, span: Any, uses: Any, steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]], warmup: int
) -> dict[str, Any]:
    """Train on ``steps`` (pairs as use rows and labels); time forward and backward of the steps after ``warmup``.

    The FLOPs of the timed steps are counted afterwards, by running each timed step's forward and backward pass
    again under :class:`~torch.utils.flop_counter.FlopCounterMode` (the counter slows what it counts, so it is
    kept out of the timed runs; a step's FLOPs do not depend on the weights).
    """
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    from wsd.tune.losses import pair_loss

    model = span.model
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5, weight_decay=0.01)
    naive = name == "naive"

    def loss_of(first: np.ndarray, second: np.ndarray, labels: np.ndarray) -> torch.Tensor:
        scores = _scores(span, uses, first, second, naive=naive)
        return pair_loss(scores, torch.from_numpy(labels).to(scores.dtype), "graded", "cosent", scale=20.0)

    model.train()
    forward_s = backward_s = 0.0
    pairs = uses_encoded = 0
    losses = []
    for number, (first, second, labels) in enumerate(steps):
        started = time.perf_counter()
        loss = loss_of(first, second, labels)
        middle = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        ended = time.perf_counter()
        losses.append(float(loss.detach()))
        if number >= warmup:
            forward_s += middle - started
            backward_s += ended - middle
            pairs += len(labels)
            uses_encoded += 2 * len(labels) if naive else len(np.unique(np.concatenate([first, second])))
    counter = FlopCounterMode(display=False)
    with counter:
        for first, second, labels in steps[warmup:]:
            loss_of(first, second, labels).backward()
            optimizer.zero_grad(set_to_none=True)
    total = forward_s + backward_s
    log(f"{name}: {pairs / total:.1f} pairs/s over {len(steps) - warmup} steps")
    return {
        "steps_timed": len(steps) - warmup,
        "pairs": pairs,
        "uses_encoded": uses_encoded,
        "seconds": total,
        "pairs_per_second": pairs / total,
        "forward_share": forward_s / total,
        "backward_share": backward_s / total,
        "seconds_per_step": total / (len(steps) - warmup),
        "flop_per_second": counter.get_total_flops() / total,
        "losses": losses,
    }


def validation_figures(span: Any, valid: Any) -> dict[str, float]:
    """CoSENT loss and Spearman ρ of the model's cosines on the validation pairs (no gradients)."""
    import torch
    from scipy.stats import spearmanr

    from wsd.tune.losses import pair_loss

    row_of = {use: at for at, use in enumerate(valid.uses["use_id"])}
    first = valid.pairs["use_id_1"].map(row_of).to_numpy()
    second = valid.pairs["use_id_2"].map(row_of).to_numpy()
    labels = valid.pairs["label"].to_numpy(dtype=np.float64)
    span.model.eval()
    with torch.no_grad():
        distinct, inverse = np.unique(np.concatenate([first, second]), return_inverse=True)
        table = valid.uses.iloc[distinct]
        chunks = []
        for at in range(0, len(table), 64):
            part = table.iloc[at : at + 64]
            chunks.append(span.encode(part["text"].tolist(), part[["start", "end"]].to_numpy(dtype=np.int64)))
        vectors = torch.nn.functional.normalize(torch.cat(chunks), dim=1)
        a, b = vectors[inverse[: len(first)]], vectors[inverse[len(first) :]]
        scores = (a * b).sum(1)
        loss = pair_loss(scores, torch.from_numpy(labels).to(scores.dtype), "graded", "cosent", scale=20.0)
    span.model.train()
    return {"loss": float(loss), "rho": float(spearmanr(scores.numpy(), labels).statistic)}


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m experiments.bench_tune", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="timed steps of each loop")
    parser.add_argument("--warmup", type=int, default=3, help="untimed steps first")
    parser.add_argument("--pairs-per-step", type=int, default=16, help="the naive loop's batch of pairs")
    parser.add_argument("--batch-uses", type=int, default=24, help="uses a step of wsd tune encodes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--one-batch",
        action="store_true",
        help="wsd tune runs each call's windows in one padded batch too (no length groups)",
    )
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--out", type=Path, default=results_dir("bench_tune"))
    parser.add_argument("--name", default="bench_tune")
    args = parser.parse_args(argv)

    import torch

    from wsd import machine
    from wsd.embed.encoder import Encoder
    from wsd.tune.batches import PairIndex
    from wsd.tune.forward import SpanEncoder
    from wsd.tune.validation import sample_pairs, split_lemmas
    from wsd.tune.wug import load

    torch.manual_seed(args.seed)
    pairset = load(args.data_dir / DWUG)
    train_lemmas, valid_lemmas = split_lemmas(pairset.lemmas, VALIDATION_SHARE, args.seed, ())
    training = pairset.only_lemmas(train_lemmas)
    valid = sample_pairs(pairset.only_lemmas(valid_lemmas), 1000, args.seed)
    index = PairIndex(training)
    total = args.steps + args.warmup
    planned = index.epoch(args.seed, 0, args.batch_uses)
    ours = [(b.uses[b.first], b.uses[b.second], b.labels) for b in planned[:total]]
    rng = np.random.default_rng(args.seed)
    chosen = [rng.choice(len(index.labels), size=args.pairs_per_step, replace=False) for _ in range(total)]
    naive = [(index.use_1[rows], index.use_2[rows], index.labels[rows]) for rows in chosen]
    epoch_pairs = len(training)

    encoder = Encoder(None, precision="fp32")
    start_weights = copy.deepcopy(encoder.loaded.model.state_dict())
    threads = torch.get_num_threads()
    peak = matmul_peak()
    log(f"fp32 matmul peak {peak / 1e9:.0f} GFLOP/s on {threads} threads")
    results: dict[str, Any] = {
        "command": command_line(),
        "machine": machine.describe(),
        "date": time.strftime("%Y-%m-%d"),
        "threads": threads,
        "length_groups": not args.one_batch,
        "peak_flop_per_second": peak,
        "training_pairs": epoch_pairs,
        "training_lemmas": len(train_lemmas),
        "validation": {"lemmas": len(valid_lemmas), "pairs": len(valid)},
        "loops": {},
    }
    span = SpanEncoder(encoder, group_lengths=not args.one_batch)
    results["validation"]["start"] = validation_figures(span, valid)
    for name, steps in (("naive", naive), ("wsd tune", ours)):
        encoder.loaded.model.load_state_dict(start_weights)
        # the naive loop pads each call's windows into one batch; wsd tune groups them by length unless told not to
        span = SpanEncoder(encoder, group_lengths=name == "wsd tune" and not args.one_batch)
        loop = run_loop(name, span, training.uses, steps, args.warmup)
        loop["epoch_seconds"] = epoch_pairs / loop["pairs_per_second"]
        loop["share_of_peak"] = loop["flop_per_second"] / peak
        loop["validation"] = validation_figures(span, valid)
        results["loops"][name] = loop
    results["speedup"] = (
        results["loops"]["wsd tune"]["pairs_per_second"] / results["loops"]["naive"]["pairs_per_second"]
    )
    log(f"speed-up {results['speedup']:.2f}x")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{args.name}.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    (args.out / f"{args.name}.md").write_text(markdown(results), encoding="utf-8")
    return 0


def markdown(results: dict[str, Any]) -> str:
    """The results page."""
    lines = [
        "# Training throughput: `wsd tune` against the naive loop (issue 23, item 5)",
        "",
        f"- Command: `{results['command']}`",
        f"- Machine: {results['machine']}; {results['threads']} threads; fp32 matmul peak measured in the same run: "
        f"{results['peak_flop_per_second'] / 1e9:.0f} GFLOP/s",
        f"- Date: {results['date']}",
        "- Forward passes: the naive loop runs a call's windows in one padded batch; wsd tune "
        + ("in groups of similar length" if results.get("length_groups") else "in one padded batch as well")
        + ".",
        f"- Data: DWUG EN judged pairs of {results['training_lemmas']} lemmas ({results['training_pairs']} pairs); "
        f"validation: {results['validation']['pairs']} pairs of {results['validation']['lemmas']} other lemmas.",
        "",
        "| loop | pairs / s | uses encoded / pair | s / step | forward | backward + step | GFLOP/s | of peak | "
        "one DWUG EN epoch | validation loss | validation ρ |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    start = results["validation"]["start"]
    lines.append(
        f"| (start) | | | | | | | | | {start['loss']:.3f} | {start['rho']:.3f} |",
    )
    for name, loop in results["loops"].items():
        lines.append(
            f"| {name} | {loop['pairs_per_second']:.1f} | {loop['uses_encoded'] / loop['pairs']:.2f} | "
            f"{loop['seconds_per_step']:.2f} | {100 * loop['forward_share']:.0f}% | "
            f"{100 * loop['backward_share']:.0f}% | {loop['flop_per_second'] / 1e9:.0f} | "
            f"{100 * loop['share_of_peak']:.0f}% | {loop['epoch_seconds'] / 60:.0f} min | "
            f"{loop['validation']['loss']:.3f} | {loop['validation']['rho']:.3f} |"
        )
    lines += [
        "",
        f"**Speed-up: {results['speedup']:.2f}× the naive loop's pairs per second** (same loss, optimizer, word "
        "vectors and precision; the validation columns are measured after each loop's timed steps, from the same "
        "start).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
