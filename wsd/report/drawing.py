"""How every report figure is drawn: fonts, style, colours, labels that never collide, and the PNG write.

Text is set in DejaVu Sans, which ships with matplotlib and covers Latin, Greek and Cyrillic; other installed
fonts (Noto, for other scripts) are added as fallbacks when present, and a character no font could draw is
reported by :func:`save_figure`. Tick labels are placed by measuring them on the laid-out figure
(:func:`fit_tick_labels`), so that however many there are, no two overlap. The figures themselves are in
:mod:`wsd.report.plots` and :mod:`wsd.report.pair_plots`.

>>> shorten("a sense name longer than a legend can hold")
'a sense name longer than a lege…'
"""

from __future__ import annotations

import itertools
import math
import re
import warnings
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from wsd.io.atomic import atomic_write

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
MAX_LABEL_CHARS = 32
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


#: White space kept around what a figure draws when it is saved, in inches.
PAD_INCHES = 0.12


def save_figure(figure: Figure, path: Path) -> set[str]:
    """Write ``figure`` as PNG, atomically; return the characters no installed font could draw (normally none).

    The PNG is cropped to what the figure draws, with :data:`PAD_INCHES` around it (matplotlib's
    ``bbox_inches="tight"``). A figure is laid out once for it, and not at all when it is laid out already and
    unchanged since (matplotlib marks such a figure not ``stale``; :func:`fit_tick_labels` leaves it so).

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
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        atomic_write(path, lambda tmp: _print_png(figure, tmp))
    missing: set[str] = set()
    for warning in caught:
        match = _MISSING_GLYPH.search(str(warning.message))
        if match:
            missing.add(chr(int(match.group(1))))
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return missing


def _print_png(figure: Figure, target: Any) -> None:
    """Print ``figure`` as PNG to ``target``, cropped like ``bbox_inches="tight"``, laying it out only if stale.

    ``savefig`` draws a figure that has a layout engine (or is cropped ``"tight"``) once more before printing
    it; here the crop is the same tight box, padded by :data:`PAD_INCHES`, and the engine is set aside while the
    laid-out figure is printed.
    """
    if figure.stale:
        figure.draw_without_rendering()
    crop = figure.get_tightbbox().padded(PAD_INCHES)  # in inches, measured by the figure's own renderer
    engine = figure.get_layout_engine()
    if engine is not None:
        with matplotlib.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
            figure.set_layout_engine(None)  # no engine at all (rcParams would pick one): printed without a draw first
    try:
        figure.savefig(target, format="png", dpi=DPI, bbox_inches=crop, metadata={"Software": None})
    finally:
        if engine is not None:
            figure.set_layout_engine(engine)


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


def new_figure(width: float, height: float) -> Figure:
    """A bare figure of ``width`` by ``height`` inches at :data:`DPI`, laid out by matplotlib's constrained layout.

    Parameters
    ----------
    width, height : float
        Its size in inches.

    Returns
    -------
    matplotlib.figure.Figure
    """
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


#: The least room between two neighbouring tick labels, in points.
TICK_GAP_PT = 2.0


def _renderer(figure: Figure) -> Any:
    """The Agg renderer of ``figure`` (a canvas is attached to a bare ``Figure`` first)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = figure.canvas
    if not isinstance(canvas, FigureCanvasAgg):
        canvas = FigureCanvasAgg(figure)
    return canvas.get_renderer()


def _tick_rows(ax: Any, axis: str) -> list[list[Any]]:
    """The tick labels of one axis that are drawn and say something, in tick order: one row per side of the axis
    (``label1`` below or left; ``label2`` above or right, where a vertical colour bar has its labels)."""
    ticks = ax.xaxis.get_major_ticks() if axis == "x" else ax.yaxis.get_major_ticks()
    rows = ([t.label1 for t in ticks], [t.label2 for t in ticks])
    return [[text for text in row if text.get_visible() and text.get_text().strip()] for row in rows]


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
    pairs = []
    for row in _tick_rows(ax, axis):
        boxes = [(text.get_text(), text.get_window_extent(renderer)) for text in row]
        boxes.sort(key=lambda item: item[1].x0 if axis == "x" else item[1].y0)
        pairs += [
            (first, second)
            for (first, a), (second, b) in itertools.pairwise(boxes)
            if ((b.x0 < a.x1 + gap) if axis == "x" else (b.y0 < a.y1 + gap))
        ]
    return pairs


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
    On the y axis only the thinning applies. A choice whose labels are too big for their spacing even if the axis
    took the whole figure is passed over without laying the figure out; the figure is left laid out with the
    labels chosen (:func:`save_figure` prints it as it stands).

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
            if _crowded_however_laid_out(ax, axis):  # known without laying the figure out
                if not last:
                    break
                step += 1
                continue
            if not _axis_crowded(ax, axis):
                return step
            if not last:
                break  # upright labels before fewer labels
            step = max(step + 1, _step_needed(ax, axis, step))
    return step


def _axis_crowded(ax: Any, axis: str) -> bool:
    ax.figure.draw_without_rendering()
    return bool(_collisions(ax, axis))


def _crowded_however_laid_out(ax: Any, axis: str) -> bool:
    """Whether two neighbouring tick labels of one axis collide wherever the layout puts the axis (no drawing).

    A label's size does not depend on the layout, and the axis is at most as long as the figure: two neighbours
    collide for sure when the smaller of them, with :data:`TICK_GAP_PT`, is longer than their ticks' distance on
    an axis that spanned the whole figure (each label is aligned on its tick alike, so their boxes are then
    closer than the gap).
    """
    renderer = _renderer(ax.figure)
    gap = TICK_GAP_PT * ax.figure.dpi / 72.0
    along = ax.xaxis if axis == "x" else ax.yaxis
    scale = along.get_transform()  # linear, log, ...: data to the axis' own linear coordinates
    low, high = scale.transform(np.asarray(along.get_view_interval(), dtype=np.float64))
    length = ax.figure.bbox.width if axis == "x" else ax.figure.bbox.height
    per_unit = length / max(abs(float(high) - float(low)), 1e-300)  # pixels per unit, at most
    locations = scale.transform(np.asarray(along.get_majorticklocs(), dtype=np.float64))
    ticks = along.get_major_ticks(len(locations))
    for side in ("label1", "label2"):
        placed = []
        for location, tick in zip(locations, ticks, strict=True):
            text = getattr(tick, side)
            if text.get_visible() and text.get_text().strip():
                box = text.get_window_extent(renderer)
                placed.append((float(location), box.width if axis == "x" else box.height))
        placed.sort()
        if any(min(a, b) + gap > (q - p) * per_unit for (p, a), (q, b) in itertools.pairwise(placed)):
            return True
    return False


def _step_needed(ax: Any, axis: str, step: int) -> int:
    """The thinning that the measured label sizes and tick spacing ask for (at least ``step``; laid out already)."""
    renderer = _renderer(ax.figure)
    gap = TICK_GAP_PT * ax.figure.dpi / 72.0
    needed = step
    for texts in _tick_rows(ax, axis):
        if len(texts) < 2:
            continue
        boxes = [text.get_window_extent(renderer) for text in texts]
        sizes = [box.width if axis == "x" else box.height for box in boxes]
        centres = sorted((box.x0 + box.x1) / 2 if axis == "x" else (box.y0 + box.y1) / 2 for box in boxes)
        spacing = min(b - a for a, b in itertools.pairwise(centres)) / step  # between neighbouring ticks
        needed = max(needed, math.ceil((max(sizes) + gap) / max(spacing, 1e-9)))
    return needed


def legend_below(ax: Any, entries: int) -> None:
    """A legend of ``entries`` entries under the axes, in one or two columns (none when there are no entries).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes whose labelled artists the legend lists.
    entries : int
        How many entries it will have.
    """
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


def widen_for_legend(figure: Figure, legend: Any, width: float) -> None:
    """Widen ``figure`` by what its legend beside the plot takes, so the plot keeps ``width`` inches.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure.
    legend : matplotlib.legend.Legend
        Its legend, placed beside the axes.
    width : float
        The width the plot itself should keep, in inches.
    """
    # the legend's width is that of its texts and handles: measured without laying the figure out
    taken = legend.get_window_extent(_renderer(figure)).width / figure.dpi
    figure.set_size_inches(width + taken + 0.1, figure.get_size_inches()[1])
