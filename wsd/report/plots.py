"""The report's figures as PNG files, drawn with matplotlib's Agg renderer (no display, no pyplot state).

Drawn with the fonts, colours and label placement of :mod:`wsd.report.drawing`. Every function takes plain arrays
and dictionaries and writes one PNG to ``path``; none reads files. Each returns the characters of its labels that no
installed font could draw (``missing_glyphs``), so that the report can say which labels lost them.

>>> path = sense_map(np.zeros((3, 2)), np.array([0, 0, 1]), {0: "0", 1: "1"}, None,
...                  ("PC 1", "PC 2"), "bank", Path("map.png"))              # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd

from wsd.report.content import plural
from wsd.report.drawing import (
    GREY,
    LIGHT_GREY,
    MAX_LABEL_CHARS,
    fit_tick_labels,
    legend_below,
    new_figure,
    palette,
    save_figure,
    shorten,
    styled,
    widen_for_legend,
)
from wsd.report.experiments import Experiment

SYSTEM_COLOUR = "#1f77b4"
MAX_LEGEND_ENTRIES = 12
MAX_CONFUSION_ROWS = 20
BASELINE_STYLES: dict[str, tuple[str, str]] = {
    "one-sense": ("#555555", "--"),
    "one-per-instance": ("#8c564b", "-."),
    "random": ("#999999", ":"),
}
PUBLISHED_COLOURS: tuple[str, ...] = ("#9467bd", "#e377c2", "#17becf", "#bcbd22", "#2ca02c")


def sense_colour(sense: int, n_senses: int) -> str:
    """The colour of induced sense ``sense`` of a target with ``n_senses`` senses (grey if unassigned).

    Parameters
    ----------
    sense : int
        The induced sense (negative: unassigned).
    n_senses : int
        The target's number of senses (chooses the palette).

    Returns
    -------
    str
        A colour as ``#rrggbb``.
    """
    return GREY if sense < 0 else palette(max(n_senses, sense + 1))[sense]


def _marker_size(n: int) -> float:
    return float(np.clip(1800.0 / max(n, 1), 5.0, 36.0))


def _scatter_groups(
    ax: Any, points: np.ndarray, groups: list[tuple[str, np.ndarray, str]], size: float, title: str, axes: Sequence[str]
) -> None:
    for label, mask, colour in groups:
        if mask.any():
            ax.scatter(
                points[mask, 0],
                points[mask, 1],
                s=size,
                c=colour,
                label=label,
                alpha=0.85,
                linewidths=0.3,
                edgecolors="white",
            )
    _frame_map(ax, title, axes)
    legend_below(ax, sum(1 for _, mask, _ in groups if mask.any()))


def _frame_map(ax: Any, title: str, axes: Sequence[str]) -> None:
    """Title, axis names and a light frame on all four sides of a 2-D map (projected axes: no ticks)."""
    ax.set_title(title)
    ax.set_xlabel(axes[0])
    ax.set_ylabel(axes[1])
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(True)
        ax.spines[side].set_color(LIGHT_GREY)


def induced_groups(induced: np.ndarray, names: Mapping[int, str], n_senses: int) -> list[tuple[str, np.ndarray, str]]:
    """Scatter groups (legend label, row mask, colour) of induced senses; unassigned rows last, in grey.

    Parameters
    ----------
    induced : numpy.ndarray of int
        Induced sense per point (negative: unassigned).
    names : mapping of int to str
        Legend label of each sense (default: its number).
    n_senses : int
        The target's number of senses.

    Returns
    -------
    list of (str, numpy.ndarray of bool, str)
        One group per sense, then senses beyond ``n_senses``, then the unassigned points.
    """
    groups = [(names.get(int(s), str(s)), induced == s, sense_colour(int(s), n_senses)) for s in range(n_senses)]
    groups += [
        (names.get(int(s), str(s)), induced == s, sense_colour(int(s), n_senses))
        for s in np.unique(induced)
        if s >= n_senses
    ]
    if (induced < 0).any():
        groups.append((f"unassigned ({int((induced < 0).sum())})", induced < 0, GREY))
    return groups


def gold_groups(gold: np.ndarray) -> list[tuple[str, np.ndarray, str]]:
    """Scatter groups of gold senses, most frequent first; the rarest pooled as *other*, unlabelled in light grey.

    Parameters
    ----------
    gold : numpy.ndarray of str
        Top gold sense per point (``""``: unlabelled).

    Returns
    -------
    list of (str, numpy.ndarray of bool, str)
        Legend label (with counts), row mask and colour: unlabelled points first, then at most
        ``MAX_LEGEND_ENTRIES`` senses (the rest pooled as *other*).
    """
    labelled = gold[gold != ""]
    counts = pd.Series(labelled, dtype=object).value_counts(sort=True)
    shown = list(counts.index[: MAX_LEGEND_ENTRIES - 1]) if len(counts) > MAX_LEGEND_ENTRIES else list(counts.index)
    colours = palette(len(shown))
    groups: list[tuple[str, np.ndarray, str]] = []
    if (gold == "").any():
        groups.append((f"unlabelled ({int((gold == '').sum())})", gold == "", LIGHT_GREY))
    for sense, colour in zip(shown, colours, strict=True):
        groups.append((f"{shorten(sense)} ({int(counts[sense])})", gold == sense, colour))
    rest = (gold != "") & ~np.isin(gold, shown)
    if rest.any():
        groups.append((f"other: {len(counts) - len(shown)} senses ({int(rest.sum())})", rest, GREY))
    return groups


@styled
def sense_map(
    points: np.ndarray,
    induced: np.ndarray,
    names: Mapping[int, str],
    gold: np.ndarray | None,
    axes: Sequence[str],
    target: str,
    path: Path,
    n_senses: int | None = None,
) -> set[str]:
    """The 2-D map of a target's occurrences coloured by induced sense, and beside it by gold sense.

    Parameters
    ----------
    points : ndarray (m, 2)
        Projected occurrences.
    induced : ndarray of int (m,)
        Induced sense per point (-1: unassigned); colours follow :func:`sense_colour`.
    names : mapping
        Legend label of each induced sense.
    gold : ndarray of str (m,) or None
        Top gold sense per point (``""``: unlabelled); no second panel when None or all blank.
    axes : (str, str)
        Axis names (from :func:`wsd.report.projection.project`).
    target : str
        For the titles.
    path : Path
        The PNG to write.
    n_senses : int, optional
        Senses of the target (default: the largest label + 1).

    Returns
    -------
    missing_glyphs : set of str
    """
    induced = np.asarray(induced, dtype=np.int64)
    n_senses = int(induced.max(initial=-1) + 1) if n_senses is None else int(n_senses)
    with_gold = gold is not None and bool((np.asarray(gold) != "").any())
    figure = new_figure(10.4 if with_gold else 5.4, 5.6)
    panels = figure.subplots(1, 2 if with_gold else 1, squeeze=False)[0]
    size = _marker_size(len(points))
    _scatter_groups(
        panels[0],
        points,
        induced_groups(induced, names, n_senses),
        size,
        f"{target}: {plural(n_senses, 'induced sense')}",
        axes,
    )
    if with_gold:
        gold = np.asarray(gold, dtype=object)
        n_gold = len(set(gold[gold != ""]))
        _scatter_groups(panels[1], points, gold_groups(gold), size, f"{target}: {plural(n_gold, 'gold sense')}", axes)
    return save_figure(figure, path)


@styled
def confusion_heatmap(gold: np.ndarray, induced: np.ndarray, target: str, path: Path) -> set[str]:
    """Gold × induced counts of a target's labelled occurrences; colour = the share of each gold sense.

    Rows are gold senses (most frequent first; beyond 20 pooled as *other*), columns induced senses.

    Parameters
    ----------
    gold : numpy.ndarray of str
        Top gold sense per occurrence (``""``: unlabelled, left out).
    induced : numpy.ndarray of int
        Induced sense per occurrence (negative: ``unassigned`` column).
    target : str
        For the title.
    path : Path
        The PNG to write.

    Returns
    -------
    missing_glyphs : set of str
    """
    gold = np.asarray(gold, dtype=object)
    induced = np.asarray(induced, dtype=np.int64)
    mask = gold != ""
    table = pd.crosstab(pd.Series(gold[mask], name="gold"), pd.Series(induced[mask], name="induced"))
    table = table.loc[table.sum(axis=1).sort_values(ascending=False, kind="stable").index]
    if len(table) > MAX_CONFUSION_ROWS:
        head = table.iloc[: MAX_CONFUSION_ROWS - 1]
        other = table.iloc[MAX_CONFUSION_ROWS - 1 :].sum(axis=0).rename(f"other ({len(table) - len(head)} senses)")
        table = pd.concat([head, other.to_frame().T])
    counts = table.to_numpy()
    shares = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    columns = ["unassigned" if c < 0 else str(c) for c in table.columns]
    rows = [shorten(r) for r in table.index]
    figure = new_figure(max(3.6, 1.6 + 0.55 * len(columns)), max(2.0, 0.9 + 0.32 * len(rows)))
    ax = figure.subplots()
    ax.imshow(shares, cmap="Blues", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(columns)), columns)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel("induced sense")
    ax.set_ylabel("gold sense")
    ax.set_title(f"{target}: gold × induced ({int(counts.sum())} labelled)")
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.tick_params(length=0)
    if counts.size <= 400:
        for (row, column), value in np.ndenumerate(counts):
            if value:
                colour = "white" if shares[row, column] > 0.6 else "#222222"
                ax.text(column, row, str(int(value)), ha="center", va="center", color=colour, fontsize=8)
    return save_figure(figure, path)


def _bar_labels(
    ax: Any, bars: Any, values: Sequence[float], errors: Sequence[float] | None = None, fontsize: float = 7
) -> None:
    """Write each bar's value above it (above its error bar, if any); ``n/a`` for a missing value."""
    for index, (bar, value) in enumerate(zip(bars, values, strict=True)):
        label = "n/a" if not math.isfinite(value) else f"{value:.3f}"
        height = bar.get_height() if math.isfinite(value) else 0.0
        error = errors[index] if errors is not None and math.isfinite(errors[index]) else 0.0
        ax.annotate(
            label,
            (bar.get_x() + bar.get_width() / 2, height + error if height >= 0 else height - error),
            xytext=(0, 2 if height >= 0 else -9),
            textcoords="offset points",
            ha="center",
            fontsize=fontsize,
        )


@styled
def per_target_scores(per_target: Mapping[str, Mapping[str, Any]], metrics: Sequence[str], path: Path) -> set[str]:
    """Horizontal grouped bars: each target's scores (one colour per metric), targets top to bottom.

    Parameters
    ----------
    per_target : mapping of str to mapping
        Target -> score name -> value (missing values drawn as 0).
    metrics : sequence of str
        The scores to draw.
    path : Path
        The PNG to write.

    Returns
    -------
    missing_glyphs : set of str
    """
    targets = list(per_target)
    metrics = list(metrics)
    colours = palette(len(metrics))
    figure = new_figure(7.0, max(2.2, 1.0 + 0.22 * len(targets) * max(len(metrics), 1) ** 0.5 + 0.1 * len(metrics)))
    ax = figure.subplots()
    height = 0.8 / max(len(metrics), 1)
    positions = np.arange(len(targets))
    low = 0.0
    for index, (metric, colour) in enumerate(zip(metrics, colours, strict=True)):
        values = np.array([_value(per_target[t].get(metric)) for t in targets])
        low = min(low, float(np.nanmin(values, initial=0.0)))
        ax.barh(positions + index * height, np.nan_to_num(values), height=height, color=colour, label=metric)
    ax.set_yticks(positions + height * (len(metrics) - 1) / 2, [shorten(t, 24) for t in targets])
    ax.invert_yaxis()
    ax.set_xlim(min(low * 1.1, 0.0), 1.0)
    ax.axvline(0.0, color="#444444", linewidth=0.6)
    ax.set_xlabel("score")
    ax.set_title("Scores per target word")
    ax.grid(axis="x", color=LIGHT_GREY, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return save_figure(figure, path)


@styled
def scores_vs_baselines(
    overall: Mapping[str, Any],
    baselines: Mapping[str, Mapping[str, Any]],
    metrics: Sequence[str],
    path: Path,
    overall_std: Mapping[str, Any] | None = None,
) -> set[str]:
    """Grouped bars per metric: the system (with its std over seeds) beside each trivial baseline.

    Parameters
    ----------
    overall : mapping of str to float
        The system's scores.
    baselines : mapping of str to mapping
        Baseline name -> scores.
    metrics : sequence of str
        The scores to draw.
    path : Path
        The PNG to write.
    overall_std : mapping of str to float, optional
        Standard deviation over seeds of the system's scores (error bars).

    Returns
    -------
    missing_glyphs : set of str
    """
    metrics = list(metrics)
    names = ["wsd", *baselines]
    colours = [SYSTEM_COLOUR, *[BASELINE_STYLES.get(b, (GREY, "-"))[0] for b in baselines]]
    figure = new_figure(max(4.8, 1.4 + 1.3 * len(metrics) * len(names) / 3), 3.4)
    ax = figure.subplots()
    width = 0.8 / len(names)
    positions = np.arange(len(metrics))
    top = 0.0
    for index, (name, colour) in enumerate(zip(names, colours, strict=True)):
        source = overall if name == "wsd" else baselines[name]
        values = [_value(source.get(m)) for m in metrics]
        errors = [_value((overall_std or {}).get(m)) if name == "wsd" else 0.0 for m in metrics]
        bars = ax.bar(
            positions + index * width,
            np.nan_to_num(values),
            width=width,
            color=colour,
            alpha=1.0 if name == "wsd" else 0.75,
            label=name,
            yerr=np.nan_to_num(errors) if name == "wsd" and any(e > 0 for e in np.nan_to_num(errors)) else None,
            capsize=3,
        )
        _bar_labels(ax, bars, values, errors if name == "wsd" else None, fontsize=6.5)
        top = max(top, float(np.nanmax(np.array(values, dtype=float), initial=0.0)))
    ax.set_xticks(positions + width * (len(names) - 1) / 2, metrics)
    ax.set_ylim(min(0.0, ax.get_ylim()[0]), max(top * 1.15, 0.05))
    ax.set_ylabel("score")
    ax.set_title("Overall scores and trivial baselines")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.grid(axis="y", color=LIGHT_GREY, linewidth=0.6)
    ax.set_axisbelow(True)
    return save_figure(figure, path)


def _value(value: Any) -> float:
    if isinstance(value, (int, float, np.floating, np.integer)) and not isinstance(value, bool):
        return float(value)
    return math.nan


def _reference_lines(ax: Any, experiment: Experiment) -> None:
    """Horizontal lines for the baselines and published systems, labelled with their value."""
    for name, scores in experiment.baselines.items():
        value = _value(scores.get(experiment.metric))
        if math.isfinite(value):
            colour, line = BASELINE_STYLES.get(name, (GREY, "--"))
            label = f"{name} (baseline): {value:.3f}"
            ax.axhline(value, color=colour, linestyle=line, linewidth=1.2, label=label, zorder=3)
    for index, (name, scores) in enumerate(experiment.published.items()):
        value = _value(scores.get(experiment.metric))
        if math.isfinite(value):
            colour = PUBLISHED_COLOURS[index % len(PUBLISHED_COLOURS)]
            label = f"{name} (published): {value:.3f}"
            ax.axhline(value, color=colour, linestyle=(0, (1, 1)), linewidth=1.4, label=label, zorder=3)


@styled
def experiment_plot(experiment: Experiment, path: Path) -> set[str]:
    """An experiment's score per setting: a line for ordered settings (layers), else bars; baselines marked.

    The settings are on the x axis in file order, the experiment's ``metric`` on the y axis with the std
    over seeds as error bars; the trivial baselines (and published systems) are horizontal lines.

    Parameters
    ----------
    experiment : Experiment
        The experiment result.
    path : Path
        The PNG to write.

    Returns
    -------
    missing_glyphs : set of str
    """
    settings = experiment.settings
    values = np.array(experiment.values(), dtype=float)
    errors = np.array(experiment.errors(), dtype=float)
    positions = np.arange(len(settings))
    figure = new_figure(max(7.2, 4.2 + 0.6 * len(settings)), 3.9)
    ax = figure.subplots()
    errors = np.where(errors > 0, errors, np.nan)
    show_errors = bool(np.isfinite(errors).any())
    if experiment.kind == "line":
        ax.errorbar(
            positions,
            values,
            yerr=errors if show_errors else None,
            color=SYSTEM_COLOUR,
            marker="o",
            markersize=5,
            linewidth=1.8,
            capsize=3,
            label=f"wsd ({experiment.metric})",
        )
        if np.isfinite(values).any():
            best = int(np.nanargmax(values))
            ax.annotate(
                f"best {values[best]:.3f}",
                (best, values[best]),
                xytext=(0, 8),
                textcoords="offset points",
                ha="center",
                fontsize=8,
                color=SYSTEM_COLOUR,
            )
    else:
        bars = ax.bar(
            positions,
            np.nan_to_num(values),
            width=0.65,
            color=SYSTEM_COLOUR,
            yerr=errors if show_errors else None,
            capsize=3,
            label=f"wsd ({experiment.metric})",
        )
        _bar_labels(ax, bars, list(values), list(errors) if show_errors else None)
    _reference_lines(ax, experiment)
    long_labels = len(settings) * max((len(s) for s in settings), default=0) > 60
    ax.set_xticks(
        positions,
        [shorten(s, 24) for s in settings],
        rotation=30 if long_labels else 0,
        ha="right" if long_labels else "center",
    )
    ax.set_xlim(-0.6, len(settings) - 0.4)
    ax.set_xlabel(
        {"layers": "layer", "pooling": "subword pooling", "methods": "clustering method"}.get(
            experiment.name, "setting"
        )
    )
    ax.set_ylabel(experiment.metric)
    low, high = ax.get_ylim()
    finite = values[np.isfinite(values)]
    ax.set_ylim(min(0.0, low), max(high, float(finite.max(initial=0.0)) * 1.12, 0.05))
    dataset = f" on {experiment.dataset}" if experiment.dataset else ""
    ax.set_title(f"{experiment.label}{dataset}: {experiment.metric} per setting")
    ax.grid(axis="y", color=LIGHT_GREY, linewidth=0.6)
    ax.set_axisbelow(True)
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: not labels[i].startswith("wsd"))
    ax.legend(
        [handles[i] for i in order],
        [labels[i] for i in order],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        frameon=False,
    )
    return save_figure(figure, path)


#: More slices than this are drawn as stacked areas over the slices instead of stacked bars.
MAX_BAR_SLICES = 8


@styled
def sense_proportions(
    proportions: np.ndarray,
    slices: Sequence[str],
    names: Sequence[str],
    colours: Sequence[str],
    target: str,
    path: Path,
    uses: Sequence[int] | None = None,
) -> set[str]:
    """A target's sense proportions per slice: stacked bars, or stacked areas for many slices.

    Parameters
    ----------
    proportions : numpy.ndarray of shape (n_slices, n_senses)
        Each slice's share of each sense (rows sum to 1; a slice without uses is a row of zeros).
    slices : sequence of str
        The slice labels, in order.
    names : sequence of str
        The senses' legend names (``mouse.0 (computer, click)``).
    colours : sequence of str
        The senses' colours.
    target : str
        For the title.
    path : Path
        The PNG to write.
    uses : sequence of int, optional
        Uses with a sense per slice (shown under the slice labels).

    Returns
    -------
    missing_glyphs : set of str
    """
    values = np.asarray(proportions, dtype=np.float64)
    names_shown = [shorten(str(s), MAX_LABEL_CHARS) for s in slices]
    counts = [f"({count})" for count in uses] if uses is not None else [""] * len(slices)
    labels = [f"{label}\n{count}".strip() for label, count in zip(names_shown, counts, strict=True)]
    upright = [f"{label} {count}".strip() for label, count in zip(names_shown, counts, strict=True)]
    many = len(slices) > MAX_BAR_SLICES
    width = max(3.2, min(9.5, 1.6 + 0.5 * len(slices)))  # the plot's own width; the legend's is added below
    figure = new_figure(width, 3.4)
    ax = figure.subplots()
    positions = np.arange(len(slices))
    if many:
        ax.stackplot(positions, values.T, colors=list(colours), labels=[shorten(n) for n in names], alpha=0.9)
        ax.set_xlim(0, max(len(slices) - 1, 1))
    else:
        bottom = np.zeros(len(slices))
        for column, (name, colour) in enumerate(zip(names, colours, strict=True)):
            ax.bar(positions, values[:, column], 0.7, bottom=bottom, color=colour, label=shorten(name))
            bottom += values[:, column]
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of the slice's uses")
    ax.set_title(f"{target}: senses per slice")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    legend = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
    widen_for_legend(figure, legend, width)
    fit_tick_labels(ax, positions, labels, vertical_labels=upright)
    return save_figure(figure, path)


@styled
def change_timeline(
    steps: Sequence[int],
    pairs: Sequence[str],
    scores: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    n_steps: int,
    measure: str,
    target: str,
    path: Path,
) -> set[str]:
    """A target's change from each slice to the next: the score with its bootstrap interval, step by step.

    Parameters
    ----------
    steps : sequence of int
        The measured steps (1 for the first slice against the second, ...); unmeasured steps are gaps.
    pairs : sequence of str
        Their labels (``1900→1910``).
    scores, lows, highs : sequence of float
        The change score of each step and its interval's ends.
    n_steps : int
        How many steps the slices make (one fewer than the slices).
    measure : str
        The score's name, for the axis.
    target : str
        For the title.
    path : Path
        The PNG to write (atomically).

    Returns
    -------
    missing_glyphs : set of str
    """
    x = np.asarray(steps, dtype=np.float64)
    y = np.asarray(scores, dtype=np.float64)
    below = y - np.asarray(lows, dtype=np.float64)
    above = np.asarray(highs, dtype=np.float64) - y
    figure = new_figure(max(4.2, min(11.0, 2.4 + 0.45 * n_steps)), 3.2)
    ax = figure.subplots()
    ax.errorbar(x, y, yerr=np.vstack([below, above]), fmt="o-", color=palette(1)[0], capsize=3, markersize=4)
    ax.set_xlim(0.5, max(n_steps, 1) + 0.5)
    ax.set_ylim(bottom=0)
    ax.set_ylabel(f"{measure}, slice to the next")
    ax.set_title(f"{target}: change from each slice to the next")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    shown = [str(p) for p in pairs]
    fit_tick_labels(
        ax, x, [p.replace("→", "\n→ ", 1) for p in shown], vertical_labels=[p.replace("→", " → ") for p in shown]
    )
    return save_figure(figure, path)


@styled
def slice_map(
    points: np.ndarray,
    slices: np.ndarray,
    order: Sequence[str],
    axes: Sequence[str],
    target: str,
    by: str,
    path: Path,
) -> set[str]:
    """The 2-D map of a target's occurrences coloured by slice (earliest dark, latest light), with a colour bar.

    Parameters
    ----------
    points : ndarray (m, 2)
        Projected occurrences (the same as on the sense map).
    slices : ndarray of object (m,)
        The slice of each point (None: in no slice, drawn in light grey).
    order : sequence of str
        The slices, earliest first (the colour bar's labels, thinned so that they never collide).
    axes : (str, str)
        Axis names.
    target : str
        For the title.
    by : str
        What the slices are of (the colour bar's label).
    path : Path
        The PNG to write.

    Returns
    -------
    missing_glyphs : set of str
    """
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import BoundaryNorm, ListedColormap

    order = [str(s) for s in order]
    index = {label: number for number, label in enumerate(order)}
    codes = np.array([index.get(str(s), -1) if s is not None else -1 for s in slices], dtype=np.int64)
    n = max(len(order), 1)
    colours = matplotlib.colormaps["viridis"](np.linspace(0.0, 0.92, n))
    cmap, norm = ListedColormap(colours), BoundaryNorm(np.arange(n + 1) - 0.5, n)
    figure = new_figure(6.6, 5.6)
    ax = figure.subplots()
    size = _marker_size(len(points))
    outside = codes < 0
    if outside.any():
        ax.scatter(points[outside, 0], points[outside, 1], s=size, c=LIGHT_GREY, linewidths=0, label="in no slice")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), frameon=False, markerscale=1.6)
    inside = ~outside
    ax.scatter(
        points[inside, 0], points[inside, 1], s=size, c=codes[inside], cmap=cmap, norm=norm, alpha=0.85,
        linewidths=0.3, edgecolors="white",
    )  # fmt: skip
    _frame_map(ax, f"{target}: occurrences by {by}", axes)
    bar = figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, fraction=0.05, pad=0.02)
    bar.set_label(by)
    bar.ax.tick_params(length=2)
    bar.ax.minorticks_off()
    fit_tick_labels(bar.ax, range(len(order)), [shorten(s) for s in order], axis="y")
    return save_figure(figure, path)
