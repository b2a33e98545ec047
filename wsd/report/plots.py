"""The report's figures as PNG files, drawn with matplotlib's Agg renderer (no display, no pyplot state).

Text is set in DejaVu Sans, which ships with matplotlib and covers Latin, Greek and Cyrillic; other installed
fonts (Noto, for other scripts) are added as fallbacks when present. Every function takes plain arrays and
dictionaries and writes one PNG; none reads files.

>>> path = sense_map(np.zeros((3, 2)), np.array([0, 0, 1]), {0: "0", 1: "1"}, None,
...                  ("PC 1", "PC 2"), "bank", Path("map.png"))              # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from wsd.io.store import atomic_write
from wsd.report.content import plural
from wsd.report.experiments import Experiment

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

BASE_FONT = "DejaVu Sans"
FALLBACK_FONTS: tuple[str, ...] = (
    "Noto Sans",
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "Noto Sans Arabic",
    "Noto Sans Hebrew",
    "Noto Sans Devanagari",
    "Noto Sans Thai",
    "Noto Sans Georgian",
    "Noto Sans Armenian",
)
DPI = 110
GREY = "#b0b0b0"
LIGHT_GREY = "#dedede"
SYSTEM_COLOUR = "#1f77b4"
MAX_LEGEND_ENTRIES = 12
MAX_CONFUSION_ROWS = 20
MAX_LABEL_CHARS = 32
BASELINE_STYLES: dict[str, tuple[str, str]] = {
    "one-sense": ("#555555", "--"),
    "one-per-instance": ("#8c564b", "-."),
    "random": ("#999999", ":"),
}
PUBLISHED_COLOURS: tuple[str, ...] = ("#9467bd", "#e377c2", "#17becf", "#bcbd22", "#2ca02c")
_MISSING_GLYPH = re.compile(r"Glyph (\d+) .*missing from")


@lru_cache(maxsize=1)
def font_families() -> tuple[str, ...]:
    """DejaVu Sans followed by the fallback fonts that are installed (matplotlib uses them per glyph).

    Returns
    -------
    tuple of str
        Font family names, :data:`BASE_FONT` first (looked up once per process).
    """
    from matplotlib import font_manager

    installed = {entry.name for entry in font_manager.fontManager.ttflist}
    return (BASE_FONT, *[name for name in FALLBACK_FONTS if name in installed])


def style() -> dict[RcKeyType, Any]:
    """The rcParams every figure is drawn with.

    Returns
    -------
    dict
        matplotlib rcParams: fonts (:func:`font_families`), sizes, spines.
    """
    return {
        "font.family": "sans-serif",
        "font.sans-serif": list(font_families()),
        "font.size": 9,
        "axes.titlesize": 10,
        "axes.titleweight": "bold",
        "axes.labelsize": 9,
        "legend.fontsize": 8,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.unicode_minus": True,
    }


def font_covers(text: str, family: str = BASE_FONT) -> bool:
    """Whether the font file that matplotlib picks for ``family`` has a glyph for every character of ``text``.

    Parameters
    ----------
    text : str
        The text to draw (white space is not checked).
    family : str
        A font family name.

    Returns
    -------
    bool
        True when the font has every glyph.

    Examples
    --------
    >>> font_covers("Замок mouse")
    True
    """
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    path = font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
    charmap = FT2Font(path).get_charmap()
    return all(ord(char) in charmap for char in text if not char.isspace())


def palette(n: int) -> list[str]:
    """``n`` distinct colours (hex): tab10 up to ten, tab20 beyond (repeating after twenty).

    Parameters
    ----------
    n : int
        How many colours.

    Returns
    -------
    list of str
        ``n`` colours as ``#rrggbb``.

    Examples
    --------
    >>> palette(2)
    ['#1f77b4', '#ff7f0e']
    """
    from matplotlib.colors import to_hex

    colormap = matplotlib.colormaps["tab10" if n <= 10 else "tab20"]  # lists of colours: an int picks one
    return [to_hex(colormap(i % colormap.N)) for i in range(n)]


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


def shorten(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis.

    Parameters
    ----------
    text : str
        A label (turned into ``str`` first).
    limit : int
        Maximum length, the ellipsis included.

    Returns
    -------
    str
        ``text`` itself when short enough, else its first ``limit - 1`` characters and ``…``.

    Examples
    --------
    >>> shorten("abcdefghij", 6)
    'abcde…'
    """
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def save_figure(figure: Figure, path: Path) -> set[str]:
    """Write ``figure`` as PNG, atomically; return the characters no installed font could draw (normally none).

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure.
    path : Path
        The PNG file (its folder is created if needed).

    Returns
    -------
    set of str
        Characters whose glyph was missing; other warnings are passed on.
    """
    options: dict[str, Any] = {
        "format": "png",
        "dpi": DPI,
        "bbox_inches": "tight",
        "pad_inches": 0.12,
        "metadata": {"Software": None},
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        atomic_write(path, lambda tmp: figure.savefig(tmp, **options))
    missing: set[str] = set()
    for warning in caught:
        match = _MISSING_GLYPH.search(str(warning.message))
        if match:
            missing.add(chr(int(match.group(1))))
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return missing


def styled(function: Callable[..., set[str]]) -> Callable[..., set[str]]:
    """Run a plotting function entirely under :func:`style` (artists read rcParams when created and drawn).

    Parameters
    ----------
    function : callable
        A plotting function that returns the missing glyphs (see :func:`save_figure`).

    Returns
    -------
    callable
        The same function, run inside ``matplotlib.rc_context(style())``.
    """

    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> set[str]:
        with matplotlib.rc_context(style()):
            return function(*args, **kwargs)

    return wrapper


def _figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def _marker_size(n: int) -> float:
    return float(np.clip(1800.0 / max(n, 1), 5.0, 36.0))


#: The least room between two neighbouring tick labels, in points.
TICK_GAP_PT = 2.0


def _renderer(figure: Figure) -> Any:
    """The Agg renderer of ``figure`` (a canvas is attached to a bare ``Figure`` first)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = figure.canvas
    if not isinstance(canvas, FigureCanvasAgg):
        canvas = FigureCanvasAgg(figure)
    return canvas.get_renderer()


def _tick_texts(ax: Any, axis: str) -> list[Any]:
    """The tick labels of one axis that are drawn and say something, in tick order."""
    ticks = ax.xaxis.get_major_ticks() if axis == "x" else ax.yaxis.get_major_ticks()
    return [t.label1 for t in ticks if t.label1.get_visible() and t.label1.get_text().strip()]


def crowded_labels(figure: Figure) -> list[tuple[str, str]]:
    """Neighbouring tick labels that overlap or come closer than :data:`TICK_GAP_PT`, on every axis of ``figure``.

    The figure is laid out (drawn without rendering) first; colour bars are axes too.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure.

    Returns
    -------
    list of (str, str)
        The texts of each pair of labels that collide (empty when every label stands clear).

    Examples
    --------
    >>> figure = Figure(figsize=(1.0, 1.0))
    >>> figure.subplots().set_xticks([0, 1], ["a long label", "another long one"])
    [...]
    >>> crowded_labels(figure)
    [('a long label', 'another long one')]
    """
    figure.draw_without_rendering()
    return [pair for ax in figure.axes for axis in ("x", "y") for pair in _collisions(ax, axis)]


def _collisions(ax: Any, axis: str) -> list[tuple[str, str]]:
    """Neighbouring tick labels of one axis closer than :data:`TICK_GAP_PT` (the figure laid out already)."""
    renderer = _renderer(ax.figure)
    gap = TICK_GAP_PT * ax.figure.dpi / 72.0
    boxes = [(text.get_text(), text.get_window_extent(renderer)) for text in _tick_texts(ax, axis)]
    boxes.sort(key=lambda item: item[1].x0 if axis == "x" else item[1].y0)
    return [
        (first, second)
        for (first, a), (second, b) in itertools.pairwise(boxes)
        if ((b.x0 < a.x1 + gap) if axis == "x" else (b.y0 < a.y1 + gap))
    ]


def fit_tick_labels(
    ax: Any,
    positions: Sequence[float] | np.ndarray,
    labels: Sequence[str],
    axis: str = "x",
    vertical_labels: Sequence[str] | None = None,
) -> int:
    """Label the ticks at ``positions`` so that no two labels collide, however many there are.

    On the x axis the labels are set horizontally when they all fit, else upright (``vertical_labels``, one line
    each); when even those collide, every k-th is kept (the smallest k that fits, measured on the laid-out figure).
    On the y axis only the thinning applies.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes (a colour bar's too).
    positions : sequence of float
        Where the ticks are, in data coordinates.
    labels : sequence of str
        Their labels (may hold line breaks).
    axis : {"x", "y"}
        Which axis.
    vertical_labels : sequence of str, optional
        The labels to set upright (default ``labels``).

    Returns
    -------
    int
        The step k: every k-th label is shown (1: all).
    """
    positions, labels = list(positions), list(labels)
    options: list[tuple[list[str], int]] = [(labels, 0)]
    if axis == "x":
        options.append((list(vertical_labels) if vertical_labels is not None else labels, 90))
    set_ticks = ax.set_xticks if axis == "x" else ax.set_yticks
    step = 1
    for number, (texts, rotation) in enumerate(options):
        last = number == len(options) - 1
        step = 1
        while step <= max(len(positions), 1):
            kwargs = {"rotation": rotation, "ha": "center", "va": "top"} if axis == "x" else {}
            set_ticks(positions[::step], texts[::step], **kwargs)
            if not _axis_crowded(ax, axis):
                return step
            if not last:
                break  # upright labels before fewer labels
            step = max(step + 1, _step_needed(ax, axis, step))
    return step


def _axis_crowded(ax: Any, axis: str) -> bool:
    ax.figure.draw_without_rendering()
    return bool(_collisions(ax, axis))


def _step_needed(ax: Any, axis: str, step: int) -> int:
    """The thinning that the measured label sizes and tick spacing ask for (at least ``step``)."""
    renderer = _renderer(ax.figure)
    gap = TICK_GAP_PT * ax.figure.dpi / 72.0
    texts = _tick_texts(ax, axis)
    if len(texts) < 2:
        return step
    boxes = [text.get_window_extent(renderer) for text in texts]
    sizes = [box.width if axis == "x" else box.height for box in boxes]
    centres = sorted((box.x0 + box.x1) / 2 if axis == "x" else (box.y0 + box.y1) / 2 for box in boxes)
    spacing = min(b - a for a, b in itertools.pairwise(centres)) / step  # between neighbouring ticks
    return max(step, math.ceil((max(sizes) + gap) / max(spacing, 1e-9)))


def _legend_below(ax: Any, entries: int) -> None:
    if entries:
        ax.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, -0.07),
            ncol=1 if entries > 6 else min(2, entries),
            frameon=False,
            markerscale=1.6,
            handletextpad=0.3,
            columnspacing=1.0,
        )


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
    ax.set_title(title)
    ax.set_xlabel(axes[0])
    ax.set_ylabel(axes[1])
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ("top", "right"):
        ax.spines[side].set_visible(True)
        ax.spines[side].set_color(LIGHT_GREY)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(LIGHT_GREY)
    _legend_below(ax, sum(1 for _, mask, _ in groups if mask.any()))


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
    set of str
        Characters no installed font could draw.
    """
    induced = np.asarray(induced, dtype=np.int64)
    n_senses = int(induced.max(initial=-1) + 1) if n_senses is None else int(n_senses)
    with_gold = gold is not None and bool((np.asarray(gold) != "").any())
    figure = _figure(10.4 if with_gold else 5.4, 5.6)
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
    set of str
        Characters no installed font could draw.
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
    figure = _figure(max(3.6, 1.6 + 0.55 * len(columns)), max(2.0, 0.9 + 0.32 * len(rows)))
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
    set of str
        Characters no installed font could draw.
    """
    targets = list(per_target)
    metrics = list(metrics)
    colours = palette(len(metrics))
    figure = _figure(7.0, max(2.2, 1.0 + 0.22 * len(targets) * max(len(metrics), 1) ** 0.5 + 0.1 * len(metrics)))
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
    set of str
        Characters no installed font could draw.
    """
    metrics = list(metrics)
    names = ["wsd", *baselines]
    colours = [SYSTEM_COLOUR, *[BASELINE_STYLES.get(b, (GREY, "-"))[0] for b in baselines]]
    figure = _figure(max(4.8, 1.4 + 1.3 * len(metrics) * len(names) / 3), 3.4)
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
    set of str
        Characters no installed font could draw.
    """
    settings = experiment.settings
    values = np.array(experiment.values(), dtype=float)
    errors = np.array(experiment.errors(), dtype=float)
    positions = np.arange(len(settings))
    figure = _figure(max(7.2, 4.2 + 0.6 * len(settings)), 3.9)
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
    set of str
        Characters no installed font could draw.
    """
    values = np.asarray(proportions, dtype=np.float64)
    names_shown = [shorten(str(s), MAX_LABEL_CHARS) for s in slices]
    counts = [f"({count})" for count in uses] if uses is not None else [""] * len(slices)
    labels = [f"{label}\n{count}".strip() for label, count in zip(names_shown, counts, strict=True)]
    upright = [f"{label} {count}".strip() for label, count in zip(names_shown, counts, strict=True)]
    many = len(slices) > MAX_BAR_SLICES
    width = max(3.2, min(9.5, 1.6 + 0.5 * len(slices)))  # the plot's own width; the legend's is added below
    figure = _figure(width, 3.4)
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
    _widen_for(figure, legend, width)
    fit_tick_labels(ax, positions, labels, vertical_labels=upright)
    return save_figure(figure, path)


def _widen_for(figure: Figure, legend: Any, width: float) -> None:
    """Widen ``figure`` by what its legend beside the plot takes, so the plot keeps ``width`` inches."""
    figure.draw_without_rendering()
    taken = legend.get_window_extent(_renderer(figure)).width / figure.dpi
    figure.set_size_inches(width + taken + 0.1, figure.get_size_inches()[1])


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
    set of str
        Characters no installed font could draw.
    """
    x = np.asarray(steps, dtype=np.float64)
    y = np.asarray(scores, dtype=np.float64)
    below = y - np.asarray(lows, dtype=np.float64)
    above = np.asarray(highs, dtype=np.float64) - y
    figure = _figure(max(4.2, min(11.0, 2.4 + 0.45 * n_steps)), 3.2)
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
    set of str
        Characters no installed font could draw.
    """
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import BoundaryNorm, ListedColormap

    order = [str(s) for s in order]
    index = {label: number for number, label in enumerate(order)}
    codes = np.array([index.get(str(s), -1) if s is not None else -1 for s in slices], dtype=np.int64)
    n = max(len(order), 1)
    colours = matplotlib.colormaps["viridis"](np.linspace(0.0, 0.92, n))
    cmap, norm = ListedColormap(colours), BoundaryNorm(np.arange(n + 1) - 0.5, n)
    figure = _figure(6.6, 5.6)
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
    ax.set_title(f"{target}: occurrences by {by}")
    ax.set_xlabel(axes[0])
    ax.set_ylabel(axes[1])
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(True)
        ax.spines[side].set_color(LIGHT_GREY)
    bar = figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, fraction=0.05, pad=0.02)
    bar.set_label(by)
    bar.ax.tick_params(length=2)
    bar.ax.minorticks_off()
    fit_tick_labels(bar.ax, range(len(order)), [shorten(s) for s in order], axis="y")
    return save_figure(figure, path)
