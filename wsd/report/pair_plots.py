"""The figures of a usage-similarity report (``wsd evaluate --dataset wic``): cosine distributions and the ROC curve.

Drawn like every report figure (:mod:`wsd.report.drawing`: :func:`~wsd.report.drawing.styled`, written by
:func:`~wsd.report.drawing.save_figure`), sized for a paper's column. Each function takes plain arrays, writes
one PNG and returns the characters no installed font could draw (``missing_glyphs``); none reads files.

>>> cosine_distributions(np.array([0.8, 0.9]), np.array([0.2, 0.4]), [0.5], "dev", Path("c.png"))  # doctest: +SKIP
set()
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wsd.report.drawing import GREY, LIGHT_GREY, new_figure, palette, save_figure, styled

#: Fewest and most bins of the cosine histograms (about the square root of the pairs in between).
MIN_BINS, MAX_BINS = 10, 40
#: Colours of the same-sense and the different-sense pairs (the first two of :func:`wsd.report.drawing.palette`).
SAME_COLOUR, DIFFERENT_COLOUR = palette(2)
#: The colour of the threshold lines and of the operating point on the ROC curve.
THRESHOLD_COLOUR = "#333333"


def histogram_edges(values: np.ndarray) -> np.ndarray:
    """Shared bin edges for the cosine histograms: about √n bins (within 10–40) over the values' range.

    Parameters
    ----------
    values : ndarray
        Every cosine drawn (both groups).

    Returns
    -------
    ndarray
        The bin edges, increasing (a range of width 0.02 around a single value).

    Examples
    --------
    >>> len(histogram_edges(np.linspace(0.0, 1.0, 100))) - 1
    10
    >>> histogram_edges(np.array([0.5, 0.5]))[[0, -1]].round(2).tolist()
    [0.49, 0.51]
    """
    values = np.asarray(values, dtype=np.float64)
    low, high = (float(values.min()), float(values.max())) if len(values) else (0.0, 1.0)
    if high - low < 1e-9:
        low, high = low - 0.01, high + 0.01
    bins = int(np.clip(round(np.sqrt(len(values))), MIN_BINS, MAX_BINS))
    return np.linspace(low, high, bins + 1)


@styled
def cosine_distributions(
    same: np.ndarray,
    different: np.ndarray,
    thresholds: Sequence[float],
    threshold_from: str,
    path: Path,
) -> set[str]:
    """Histograms (as densities) of the cosines of same-sense and different-sense pairs, the threshold(s) marked.

    Parameters
    ----------
    same, different : ndarray
        The cosines of the pairs labelled "same sense" and "different senses".
    thresholds : sequence of float
        The dev threshold, or the threshold of each lemma fold (each drawn as a dashed line).
    threshold_from : {"dev", "lemma-cv"}
        Where the thresholds were chosen (for the legend).
    path : Path
        Where to write the PNG.

    Returns
    -------
    missing_glyphs : set of str
    """
    same, different = np.asarray(same, dtype=np.float64), np.asarray(different, dtype=np.float64)
    edges = histogram_edges(np.concatenate([same, different, np.asarray(thresholds, dtype=np.float64)])).tolist()
    figure = new_figure(4.6, 3.0)
    ax = figure.subplots()
    for values, colour, name in ((same, SAME_COLOUR, "same sense"), (different, DIFFERENT_COLOUR, "different senses")):
        if not len(values):
            continue
        label = f"{name} (n = {len(values):,}, median {np.median(values):.2f})"
        ax.hist(values, bins=edges, density=True, color=colour, alpha=0.35, label=label)
        ax.hist(values, bins=edges, density=True, color=colour, histtype="step", linewidth=1.2)
    if threshold_from == "dev":
        names = [f"threshold {thresholds[0]:.3f} (dev)"] if thresholds else []
    else:
        shown = f"{min(thresholds):.3f}–{max(thresholds):.3f}" if len(set(thresholds)) > 1 else f"{thresholds[0]:.3f}"
        names = [f"thresholds of {len(thresholds)} lemma folds ({shown})"] if thresholds else []
    for index, threshold in enumerate(thresholds):
        ax.axvline(
            threshold,
            color=THRESHOLD_COLOUR,
            linestyle="--",
            linewidth=1.0,
            label=names[0] if index == 0 and names else None,
        )
    ax.set_xlabel("cosine of the two uses' vectors")
    ax.set_ylabel("density")
    ax.set_title("Cosine of same-sense and different-sense pairs")
    ax.grid(axis="y", color=LIGHT_GREY, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), frameon=False)  # below: never over the bars
    return save_figure(figure, path)


@styled
def roc_curve(
    scores: np.ndarray,
    labels: np.ndarray,
    auc: float,
    auc_interval: Sequence[float] | None,
    predicted: np.ndarray,
    path: Path,
) -> set[str]:
    """The ROC curve of the cosine against the labels, with its AUC and the operating point of the threshold(s).

    Parameters
    ----------
    scores : ndarray of shape (m,)
        The cosine of each pair.
    labels : ndarray of shape (m,)
        1 for a same-sense pair, 0 otherwise (both must occur).
    auc : float
        The area under the curve (``metrics.json``'s ``auc``).
    auc_interval : [low, high], optional
        Its 95% bootstrap interval.
    predicted : ndarray of shape (m,)
        The label each pair was given by its threshold: the point (false positive rate, true positive rate) of
        these predictions is marked.
    path : Path
        Where to write the PNG.

    Returns
    -------
    missing_glyphs : set of str
    """
    from sklearn.metrics import roc_curve as sklearn_roc_curve

    labels = np.asarray(labels).astype(bool)
    predicted = np.asarray(predicted).astype(bool)
    false_positive, true_positive, _ = sklearn_roc_curve(labels, np.asarray(scores, dtype=np.float64))
    figure = new_figure(3.6, 3.4)
    ax = figure.subplots()
    ax.plot([0, 1], [0, 1], color=GREY, linestyle=":", linewidth=1.0, label="chance (AUC 0.5)")
    interval = f" [{auc_interval[0]:.3f}, {auc_interval[1]:.3f}]" if auc_interval else ""
    ax.plot(false_positive, true_positive, color=SAME_COLOUR, linewidth=1.6, label=f"cosine: AUC {auc:.3f}{interval}")
    point = (float(predicted[~labels].mean()), float(predicted[labels].mean()))
    ax.plot(*point, marker="o", color=THRESHOLD_COLOUR, linestyle="none", markersize=5, label="cosine ≥ threshold")
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.set_title("ROC curve")
    ax.grid(color=LIGHT_GREY, linewidth=0.6)
    ax.set_axisbelow(True)
    ax.legend(loc="lower right", frameon=False)
    return save_figure(figure, path)
