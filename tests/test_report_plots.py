"""The report's figures: readable Cyrillic, non-blank PNGs, legends that stay small."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from matplotlib import image as mpimg
from matplotlib.figure import Figure

from wsd.report import drawing, plots
from wsd.report.experiments import read_experiment

FIXTURES = Path(__file__).parent / "fixtures" / "report"


def _pixels(path: Path) -> np.ndarray:
    image = mpimg.imread(path)
    assert image.ndim == 3 and image.shape[0] > 100 and image.shape[1] > 100
    return image[..., :3]


def _not_blank(path: Path) -> bool:
    pixels = _pixels(path)
    return float(pixels.std()) > 0.05 and float((pixels.mean(axis=2) < 0.5).mean()) > 0.001


def test_the_text_font_covers_cyrillic():
    assert drawing.font_families()[0] == "DejaVu Sans"
    assert drawing.font_covers("ЗамокЛукКлючШагатьёЁщЩ mouse")


def test_cyrillic_labels_render_without_missing_glyphs(tmp_path):
    rng = np.random.default_rng(0)
    points = rng.normal(size=(40, 2))
    induced = np.repeat([0, 1], 20)
    gold = np.array(["замок.крепость"] * 25 + ["замок.запор"] * 10 + [""] * 5, dtype=object)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph would be reported as a warning by matplotlib
        missing = plots.sense_map(
            points,
            induced,
            {0: "0: крепость, стены (20)", 1: "1: ключ, дверь (20)"},
            gold,
            ("PC 1", "PC 2"),
            "замок",
            tmp_path / "map.png",
        )
        missing |= plots.confusion_heatmap(gold, induced, "замок", tmp_path / "confusion.png")
    assert missing == set()
    assert _not_blank(tmp_path / "map.png") and _not_blank(tmp_path / "confusion.png")
    # two panels (induced, gold) make the map wider than tall
    height, width, _ = mpimg.imread(tmp_path / "map.png").shape
    assert width > 1.5 * height


def test_characters_without_a_font_are_reported_not_silently_dropped(tmp_path):
    if len(drawing.font_families()) > 1:  # a fallback font may draw them; nothing to report then
        return
    missing = plots.confusion_heatmap(
        np.array(["象", "象", "b"], dtype=object), np.array([0, 1, 1]), "x", tmp_path / "c.png"
    )
    assert missing == {"象"}


def test_gold_legend_pools_rare_senses_into_other():
    gold = np.array([f"s{i}" for i in range(30) for _ in range(i + 1)] + [""] * 3, dtype=object)
    groups = plots.gold_groups(gold)
    labels = [label for label, _, _ in groups]
    assert len(groups) == plots.MAX_LEGEND_ENTRIES + 1  # unlabelled + 11 senses + other
    assert labels[0] == "unlabelled (3)" and labels[1] == "s29 (30)"
    assert labels[-1].startswith("other: 19 senses")
    assert sum(int(mask.sum()) for _, mask, _ in groups) == len(gold)


def test_induced_colours_match_the_cards():
    groups = plots.induced_groups(np.array([0, 1, 2, -1]), {0: "a", 1: "b", 2: "c"}, 3)
    assert [colour for _, _, colour in groups] == [plots.sense_colour(s, 3) for s in (0, 1, 2)] + [drawing.GREY]


def test_experiment_plots_line_and_bars(tmp_path):
    layers = read_experiment(FIXTURES / "experiment_layers.json")
    methods = read_experiment(FIXTURES / "experiment_methods.json")
    assert (layers.kind, methods.kind) == ("line", "bar")
    assert plots.experiment_plot(layers, tmp_path / "layers.png") == set()
    assert plots.experiment_plot(methods, tmp_path / "methods.png") == set()
    assert _not_blank(tmp_path / "layers.png") and _not_blank(tmp_path / "methods.png")


def test_score_charts_tolerate_missing_values(tmp_path):
    overall = {"ari": 0.3, "nmi": 0.4}
    baselines = {"one-sense": {"ari": 0.0, "nmi": float("nan")}, "random": {"ari": 0.01}}
    plots.scores_vs_baselines(overall, baselines, ["ari", "nmi"], tmp_path / "a.png", {"ari": 0.02})
    per_target = {"лук": {"ari": -0.1, "nmi": 0.2}, "bank": {"ari": 1.0}}
    plots.per_target_scores(per_target, ["ari", "nmi"], tmp_path / "b.png")
    assert _not_blank(tmp_path / "a.png") and _not_blank(tmp_path / "b.png")


def test_a_failed_figure_write_keeps_the_old_png_and_leaves_nothing_behind(tmp_path, monkeypatch):
    """A figure is written through a temporary file: a write that fails half-way (disk full) is one clear error,
    the PNG already there is kept whole, and no temporary file is left in the folder."""
    from matplotlib.figure import Figure

    from wsd.io.atomic import WriteFailed

    path = tmp_path / "plots" / "senses.png"
    figure = Figure()
    figure.add_subplot().plot([0, 1], [1, 0])
    assert drawing.save_figure(figure, path) == set()
    before = path.read_bytes()
    assert before.startswith(b"\x89PNG")

    def half_then_full(target, **options):
        Path(target).write_bytes(b"\x89PNG half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(figure, "savefig", half_then_full)
    with pytest.raises(WriteFailed, match=r"senses\.png.*No space left on device"):
        drawing.save_figure(figure, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["senses.png"]


def _figure_with_colour_bar() -> Figure:
    figure = drawing.new_figure(4.0, 3.0)
    ax = figure.subplots()
    image = ax.imshow(np.arange(12.0).reshape(3, 4))
    figure.colorbar(image, ax=ax, label="value")
    ax.set_title("замок: a title")
    return figure


def test_a_saved_figure_is_matplotlibs_tight_crop_pixel_for_pixel(tmp_path):
    drawing.save_figure(_figure_with_colour_bar(), tmp_path / "ours.png")
    _figure_with_colour_bar().savefig(
        tmp_path / "theirs.png", format="png", dpi=drawing.DPI, bbox_inches="tight",
        pad_inches=drawing.PAD_INCHES, metadata={"Software": None},
    )  # fmt: skip
    ours, theirs = mpimg.imread(tmp_path / "ours.png"), mpimg.imread(tmp_path / "theirs.png")
    assert ours.shape == theirs.shape and (ours == theirs).all()


def test_a_figure_laid_out_by_the_label_fit_is_saved_without_a_second_layout(tmp_path, monkeypatch):
    figure = drawing.new_figure(3.0, 2.5)
    ax = figure.subplots()
    ax.plot(range(5))
    drawing.fit_tick_labels(ax, range(5), [f"tick {i}" for i in range(5)])
    draws: list[int] = []
    draw = figure.draw
    monkeypatch.setattr(figure, "draw", lambda renderer: draws.append(1) or draw(renderer))
    drawing.save_figure(figure, tmp_path / "a.png")
    assert len(draws) == 1  # the print only
    ax.set_title("changed since")  # stale again: laid out once more before the print
    drawing.save_figure(figure, tmp_path / "b.png")
    assert len(draws) == 3 and figure.get_layout_engine() is not None


def test_colour_bar_labels_are_measured_and_thinned():
    figure = drawing.new_figure(4.0, 3.0)
    ax = figure.subplots()
    image = ax.imshow(np.arange(60.0).reshape(6, 10))
    bar = figure.colorbar(image, ax=ax)
    labels = [f"{1790 + 10 * i}:{1799 + 10 * i}" for i in range(60)]
    bar.set_ticks(np.linspace(0, 59, 60), labels=labels)
    assert drawing.crowded_labels(figure)  # a vertical bar's labels are on its right (label2): measured too
    step = drawing.fit_tick_labels(bar.ax, np.linspace(0, 59, 60), labels, axis="y")
    assert step > 1 and drawing.crowded_labels(figure) == []


def test_labels_crowded_however_laid_out_are_crowded_once_laid_out():
    """The arithmetic that passes over a choice without a layout never rejects labels that would have fit."""
    verdicts = []
    for n, rotation, width in [(4, 0, 4.0), (8, 0, 4.0), (12, 0, 9.0), (20, 90, 3.0), (20, 90, 8.0), (60, 90, 5.0)]:
        figure = drawing.new_figure(width, 2.5)
        ax = figure.subplots()
        ax.bar(range(n), np.ones(n))
        ax.set_xticks(range(n), [f"1790:1799 ({i})" for i in range(n)], rotation=rotation, ha="center", va="top")
        surely = drawing._crowded_however_laid_out(ax, "x")
        verdicts.append(surely)
        if surely:
            assert drawing.crowded_labels(figure), (n, rotation, width)
    assert True in verdicts and False in verdicts
