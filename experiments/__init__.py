"""The experiments behind the tables of the README: ablations, the sense-quality table and benchmarks.

Run them as modules from the repository root, so that they import ``wsd`` (and their shared
:mod:`experiments.common`) like any user would::

    python -m experiments.ablate quality --dataset all --seeds 5
    python -m experiments.bench_embed --data-dir ../shared/datasets

Each writes its tables to ``experiments/results/<script>/`` (one folder per script) with the command that made
them; ``docs/results.md`` lists every script with its question, its command and its headline figure.
"""
