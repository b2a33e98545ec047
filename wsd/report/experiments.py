"""Reading experiment results (layer ablation, pooling, methods): JSON files of scores per setting.

An experiment file looks like::

    {"experiment": "layers", "dataset": "semeval2013", "metric": "avg", "command": "...",
     "rows": [{"setting": "layer 3", "layers": "3", "pooling": "mean", "method": "kmeans",
               "overall": {"fnmi": 0.10, "fbc_f": 0.55, "avg": 0.24}, "overall_std": {...}}, ...],
     "baselines": {"one-sense": {...}, "one-per-instance": {...}, "random": {...}},
     "published": {"PolyLM-large": {"fnmi": 0.237, "fbc_f": 0.667, "avg": 0.397}}}

``rows`` keep their order (for ``layers`` it is the x axis of the plot); ``baselines`` and ``published``
are optional.

>>> experiments = load_experiments("experiments/results/ablate")   # doctest: +SKIP
>>> [e.name for e in experiments]                            # doctest: +SKIP
['layers', 'methods']
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wsd.errors import InputError
from wsd.report.data import score_names

LINE_EXPERIMENTS = ("layers",)
"""Experiments whose settings are ordered (plotted as a line); every other kind is a bar chart."""


@dataclass
class Experiment:
    """One experiment result file.

    Attributes
    ----------
    name : str
        The kind of experiment (``layers``, ``pooling``, ``methods``, ...).
    dataset : str
        The benchmark the scores come from.
    metric : str
        The score that is plotted.
    rows : list of dict
        One per setting, in order: ``setting`` (the label), ``overall`` (scores), optional ``overall_std``.
    baselines, published : dict
        Name → scores of the trivial baselines and of published systems.
    command : str
        The command that produced the file.
    source : Path
        The file.
    """

    name: str
    dataset: str
    metric: str
    rows: list[dict[str, Any]]
    baselines: dict[str, dict[str, Any]] = field(default_factory=dict)
    published: dict[str, dict[str, Any]] = field(default_factory=dict)
    command: str = ""
    source: Path = Path()

    @property
    def variant(self) -> str:
        """What sets this file apart from others of the same experiment and dataset: the suffix of its name
        after ``<experiment>-<dataset>`` (``layers-semeval2013-textbook.json`` → ``textbook``), else ``""``."""
        prefix = f"{self.name}-{self.dataset}" if self.dataset else self.name
        stem = self.source.stem
        return stem[len(prefix) :].lstrip("-") if stem.startswith(prefix) else ""

    @property
    def label(self) -> str:
        """The experiment's name with its variant, for titles: ``layers, textbook``."""
        return f"{self.name}, {self.variant}" if self.variant else self.name

    @property
    def kind(self) -> str:
        """``line`` for ordered settings (layer ablation), else ``bar``."""
        return "line" if self.name in LINE_EXPERIMENTS else "bar"

    @property
    def settings(self) -> list[str]:
        """The label of every row."""
        return [str(row["setting"]) for row in self.rows]

    @property
    def metrics(self) -> list[str]:
        """Every score name found in the rows, in order of first appearance."""
        names: list[str] = []
        for row in self.rows:
            names += [name for name in score_names(row["overall"]) if name not in names]
        return names

    def values(self, metric: str | None = None) -> list[float]:
        """The score ``metric`` (default: the experiment's metric) of every row; NaN where missing.

        Parameters
        ----------
        metric : str, optional
            A score name of the rows (default: :attr:`metric`).

        Returns
        -------
        list of float
            One value per row, in row order.
        """
        return [_float(row["overall"].get(metric or self.metric)) for row in self.rows]

    def errors(self, metric: str | None = None) -> list[float]:
        """The standard deviation over seeds of every row's score; 0 where not given.

        Parameters
        ----------
        metric : str, optional
            As for :meth:`values`.

        Returns
        -------
        list of float
            One value per row, from its ``overall_std``; 0.0 where missing or NaN.
        """
        stds = [_float((row.get("overall_std") or {}).get(metric or self.metric)) for row in self.rows]
        return [0.0 if value != value else value for value in stds]


def _float(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return float("nan")


def read_experiment(path: str | os.PathLike[str]) -> Experiment:
    """Read and check one experiment file.

    Parameters
    ----------
    path : str or os.PathLike
        A JSON file in the format of the module docstring.

    Returns
    -------
    Experiment
        The experiment; its metric is the file's ``metric``, else ``avg`` where rows have it, else the
        first score of the rows.

    Raises
    ------
    InputError
        Naming the file and the first problem found: unreadable or invalid JSON, no ``experiment`` or
        ``rows``, no rows, a row without ``overall`` or ``setting``, malformed ``baselines``/``published``,
        or a ``metric`` that no row has.

    Examples
    --------
    >>> read_experiment("tests/fixtures/report/experiment_layers.json").kind   # doctest: +SKIP
    'line'
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno})") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot read the experiment file ({exc.strerror})") from exc
    if not is_experiment(data):
        raise InputError(f"{path}: not an experiment result (needs 'experiment' and a list of 'rows')")
    rows = data["rows"]
    if not rows:
        raise InputError(f"{path}: the experiment has no rows")
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not isinstance(row.get("overall"), dict):
            raise InputError(f"{path}: row {number} has no 'overall' scores")
        if "setting" not in row:
            raise InputError(f"{path}: row {number} has no 'setting' label")
    for section in ("baselines", "published"):
        value = data.get(section) or {}
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            raise InputError(f"{path}: {section!r} must map names to score dictionaries")
    metric = data.get("metric")
    available = [name for row in rows for name in score_names(row["overall"])]
    if metric is None:
        metric = "avg" if "avg" in available else (available[0] if available else "")
    if metric not in available:
        raise InputError(f"{path}: no row has the metric {metric!r} (rows have: {', '.join(dict.fromkeys(available))})")
    return Experiment(
        name=str(data["experiment"]),
        dataset=str(data.get("dataset", "")),
        metric=str(metric),
        rows=rows,
        baselines=data.get("baselines") or {},
        published=data.get("published") or {},
        command=str(data.get("command", "")),
        source=path,
    )


def is_experiment(data: Any) -> bool:
    """Whether parsed JSON looks like an experiment result (``experiment`` and a list of ``rows``).

    Parameters
    ----------
    data : Any
        Parsed JSON.

    Returns
    -------
    bool
        Whether it is a dict with an ``experiment`` key and a list of ``rows``.

    Examples
    --------
    >>> is_experiment({"experiment": "layers", "rows": []}), is_experiment({"overall": {}})
    (True, False)
    """
    return isinstance(data, dict) and "experiment" in data and isinstance(data.get("rows"), list)


def experiment_files(path: str | os.PathLike[str]) -> list[Path]:
    """The experiment result files of ``path``: the file itself, or the ``*.json`` experiments of a folder.

    JSON files in the folder that are not experiment results are skipped.

    Parameters
    ----------
    path : str or os.PathLike
        A result file, or a folder of them.

    Returns
    -------
    list of Path
        ``[path]`` for a file (not checked here); else the folder's experiment files, sorted by name.
    """
    path = Path(path)
    if path.is_file():
        return [path]
    files = []
    for candidate in sorted(path.glob("*.json")):
        try:
            data = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if is_experiment(data):
            files.append(candidate)
    return files


def load_experiments(path: str | os.PathLike[str]) -> list[Experiment]:
    """Every experiment of a result file or folder, in file-name order.

    Parameters
    ----------
    path : str or os.PathLike
        As for :func:`experiment_files`.

    Returns
    -------
    list of Experiment
        One per file (see :func:`read_experiment`).

    Raises
    ------
    InputError
        When ``path`` does not exist or holds no experiment result, or a file is malformed.

    Examples
    --------
    >>> load_experiments("experiments/results/ablate")   # doctest: +SKIP
    [Experiment(name='layers', ...), ...]
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    files = experiment_files(path)
    if not files:
        raise InputError(f"{path}: no experiment result files (*.json with 'experiment' and 'rows')")
    return [read_experiment(file) for file in files]
