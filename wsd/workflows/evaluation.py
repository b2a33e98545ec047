"""The ``wsd evaluate`` job, one code path for Python and the command line.

:func:`evaluate_dataset` (``wsd.evaluate_dataset``) and ``wsd evaluate`` both resolve a configuration for
``evaluate`` (the defaults, then what was given: keywords and option objects here, flags there) and run
:func:`evaluate_job` on it: :func:`wsd.workflows.benchmark.evaluate` (embed the dataset, induce senses for each seed,
score them with the official metrics beside the baselines), then, with ``out``, ``OUT/config.toml`` and the report.
So the same settings give the same ``metrics.json`` from either side.

>>> result = evaluate_dataset("generic", "data/demo/labelled.tsv", targets=["bank"])  # doctest: +SKIP
>>> result.scores.loc["overall", "ari"]  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from wsd.config import Config, config_executor, default_config, evaluation_config, resolve_config, write_config
from wsd.errors import ConfigError
from wsd.executors import Executor
from wsd.options import (
    ChangeOptions,
    EmbeddingOptions,
    EvaluationOptions,
    ExecutionOptions,
    SenseOptions,
    route_settings,
)
from wsd.schema import Dataset, PairDataset, data_location
from wsd.senses.inducer import make_inducer
from wsd.workflows.benchmark import evaluate
from wsd.workflows.results import format_table

#: The row of :attr:`EvaluationResult.scores` that holds the scores over all targets.
OVERALL = "overall"


@dataclass(frozen=True)
class EvaluationResult:
    """What an evaluation gives: its ``metrics.json`` document, and the folder and report it wrote.

    Parameters
    ----------
    metrics : dict
        The ``metrics.json`` document (:mod:`wsd.workflows.results`: ``overall``, ``overall_std``, ``per_target``,
        ``baselines``, ``seeds``, ``config``, ...), equal to the file ``wsd evaluate --out`` writes.
    out : Path, optional
        The output folder (None: nothing was written).
    report : Path, optional
        The report page (with ``report=True``).

    Examples
    --------
    >>> result = EvaluationResult({"overall": {"ari": 0.5}, "per_target": {"bank": {"ari": 0.5}}, "baselines": {}})
    >>> result.scores
             ari
    target
    bank     0.5
    overall  0.5
    """

    metrics: dict[str, Any]
    out: Path | None = None
    report: Path | None = None

    @property
    def scores(self) -> pd.DataFrame:
        """One row per target, then the row ``overall``: each metric's mean over the seeds (as ``per_target.csv``).

        Returns
        -------
        DataFrame
            Indexed by ``target``; a metric a target has no score for (WUG change scores) is NaN in its row.
        """
        rows = {str(target): dict(values) for target, values in self.metrics.get("per_target", {}).items()}
        frame = pd.DataFrame.from_dict(rows | {OVERALL: dict(self.metrics["overall"])}, orient="index")
        frame.index.name = "target"
        return frame

    @property
    def baselines(self) -> pd.DataFrame:
        """The overall scores of the trivial baselines, one row each (``one-sense``, ``one-per-instance``, ``random``).

        Returns
        -------
        DataFrame
            Indexed by ``baseline``; empty where the dataset has none (WiC).
        """
        frame = pd.DataFrame.from_dict(
            {name: dict(values) for name, values in self.metrics.get("baselines", {}).items()}, orient="index"
        )
        frame.index.name = "baseline"
        return frame

    def __str__(self) -> str:
        """The table ``wsd evaluate`` prints: each metric, mean ± std over the seeds, beside the baselines."""
        return format_table(self.metrics)


def evaluate_job(
    config: Config, progress: bool = True, overwrite: bool = False, executor: Executor | str | None = None
) -> EvaluationResult:
    """``wsd evaluate`` of a resolved configuration: score it, then, with an output folder, record it there.

    Parameters
    ----------
    config : dict
        A configuration resolved for ``evaluate`` (:func:`wsd.config.resolve_config`).
    progress : bool
        Show progress bars.
    overwrite : bool
        Replace the files of an evaluation of another configuration in the output folder.
    executor : Executor or {"serial", "processes", "dask"}, optional
        Runs the per-target fits: an executor used as it is, or one made here (by its name, or a Dask one where
        ``[execution]`` names a scheduler or workers), started and stopped here; default: this process.

    Returns
    -------
    EvaluationResult

    Raises
    ------
    ConfigError
        For bad sense options or a report without an output folder, before any work.
    """
    evaluation = evaluation_config(config)
    make_inducer(evaluation.senses)  # bad options fail before any work
    out, report = config["output"]["out"], config["output"]["report"]
    if report and not out:
        raise ConfigError("--report needs --out (the folder the report is written into)")
    started = config_executor(config, executor)
    with started or contextlib.nullcontext():  # one cluster for every seed
        metrics = evaluate(
            evaluation,
            out=out,
            map_function=executor if isinstance(executor, Executor) else started,
            progress=progress,
            overwrite=overwrite,
            offline=True if config["embedding"]["offline"] else None,
        )
    if not out:
        return EvaluationResult(metrics)
    write_config(out, config, "evaluate")
    page = None
    if report:
        from wsd.report import write_report

        page = write_report(out)
    return EvaluationResult(metrics, Path(out), None if page is None else Path(page))


def evaluate_dataset(
    dataset: Dataset | PairDataset,
    data: str | os.PathLike[str] | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    evaluation: EvaluationOptions | None = None,
    embedding: EmbeddingOptions | None = None,
    senses: SenseOptions | None = None,
    change: ChangeOptions | None = None,
    execution: ExecutionOptions | None = None,
    report: bool = False,
    progress: bool = True,
    overwrite: bool = False,
    **settings: Any,
) -> EvaluationResult:
    """Embed, induce senses and score a labelled dataset over seeds: what ``wsd evaluate --dataset DATASET`` runs.

    The arguments are resolved as the command's flags are (a field left at its default is "not given": the
    recipe's value, else the default), and the same job runs (:func:`evaluate_job`), so the same settings give the
    same scores and, with ``out``, the same files: ``metrics.json``, ``per_target.csv``, the system keys, ``run/``,
    ``senses/``, ``config.toml`` (``wsd evaluate --config OUT/config.toml`` runs it again) and with ``report`` the
    report.

    Parameters
    ----------
    dataset : {"semeval2013", "semeval2010", "russe2018", "generic", "wug", "wic"}
        The dataset and its metric family (``--dataset``).
    data : path, optional
        Its folder or file (``--data``; generic: a ``.tsv`` or ``.jsonl`` file).
    data_dir : path, optional
        Where ``data`` is not given: the folder holding the datasets, laid out as ``../shared/datasets``
        (``--data-dir``; default ``$WSD_DATA_DIR``; :func:`wsd.schema.data_location`).
    out : path, optional
        The output folder (``--out``); nothing is written without it.
    evaluation : EvaluationOptions, optional
        How the dataset is scored (:class:`wsd.options.EvaluationOptions`: ``targets``, ``seeds``, ``graded``,
        ``min_weight``, ``top``, ``split``, ``gold_key``, ``dev``, ``cache_dir``; unset ones: the recipe's).
    embedding : EmbeddingOptions, optional
        How occurrences become vectors (unset fields: the recipe's, e.g. its context vector).
    senses : SenseOptions, optional
        The recipe and the inducer's parameters (unset ones: the recipe's). Seeds are ``0 .. seeds - 1``, so its
        ``seed`` is not an evaluation setting. Without it or a ``recipe=`` keyword, a model built by a ``wsd tune``
        recipe that ships a sense recipe (``model="wsd:sense-minilm"``) brings it; a recipe given either way wins.
    change : ChangeOptions, optional
        ``wug``: the change score (``measure``) and the binary rule (``binary_k``, ``binary_n``).
    execution : ExecutionOptions, optional
        Where the per-target fits run: ``executor`` (an :class:`~wsd.executors.Executor` used as it is), or a
        Dask ``scheduler`` or local ``workers``.
    report : bool
        Write the report into ``out`` (``--report``).
    progress : bool
        Show progress bars.
    overwrite : bool
        Replace the files of an evaluation of another configuration in ``out``.
    **settings
        Fields of :class:`~wsd.options.EvaluationOptions`, :class:`~wsd.options.EmbeddingOptions` or
        :class:`~wsd.options.SenseOptions` by name (``seeds=3``, ``targets="add.v,bank.n"``, ``layers="last"``,
        ``method="ward"``, ``k=3``), applied on top of the objects.

    Returns
    -------
    EvaluationResult
        ``metrics`` (the ``metrics.json`` document), ``scores`` (per target and overall), ``baselines``;
        ``str(result)`` is the table ``wsd evaluate`` prints.

    Raises
    ------
    ConfigError
        For a value that is not allowed, or a setting the evaluation does not use (naming it), before any work.
    TypeError
        For a keyword that is no setting (naming the closest).

    Examples
    --------
    >>> result = evaluate_dataset("generic", "data/demo/labelled.tsv", targets="bank", seeds=2)  # doctest: +SKIP
    >>> result.scores[["ari", "nmi"]]  # doctest: +SKIP
    >>> evaluate_dataset("semeval2010", data_dir="../shared/datasets", layers="last", method="ward")  # doctest: +SKIP
    """
    objects, keywords = route_settings(
        "evaluate_dataset()",
        settings,
        {
            "evaluation": (EvaluationOptions, evaluation),
            "embedding": (EmbeddingOptions, embedding),
            "senses": (SenseOptions, senses),
        },
    )
    flags: dict[str, Any] = {"evaluation.dataset": dataset, "evaluation.data": data_location(data, data_dir)}
    flags |= {"output.out": _plain(out), "output.report": report or None}
    for section, given in (*objects.items(), ("change", change), ("execution", execution)):
        flags |= {
            f"{section}.{key}": _plain(value) for key, value in _changed_fields(given).items() if key != "executor"
        }
    if senses is not None or "recipe" in keywords:  # stated: it wins over the sense recipe a tuned model ships with
        flags["senses.recipe"] = objects["senses"].recipe
    _check_used(flags)
    config = resolve_config("evaluate", flags=flags)
    executor = execution.executor if execution is not None else None
    return evaluate_job(config, progress=progress, overwrite=overwrite, executor=executor)


def _plain(value: Any) -> Any:
    """A path as the text a flag gives; anything else as it is."""
    return os.fspath(value) if isinstance(value, os.PathLike) else value


def _changed_fields(options: Any) -> dict[str, Any]:
    """The fields of an option object that differ from its class's defaults (none for None)."""
    if options is None:
        return {}
    defaults = type(options)()
    return {
        field.name: getattr(options, field.name)
        for field in dataclasses.fields(options)
        if getattr(options, field.name) != getattr(defaults, field.name)
    }


def _check_used(flags: Mapping[str, Any]) -> None:
    """Refuse a setting given that ``wsd evaluate`` does not use (it would be left out without a word)."""
    used = default_config("evaluate")
    for name, value in flags.items():
        section, key = name.split(".", 1)
        if value is not None and key not in used.get(section, {}):
            hint = " (the seeds are 0 .. seeds - 1: give seeds=N)" if name == "senses.seed" else ""
            raise ConfigError(f"{name}: the evaluation does not use this setting{hint}")
