"""Reports of a run sliced into many slices: examples cited by metadata and per slice, maps by slice, and figures
whose slice labels and legends never collide (measured on matplotlib's laid-out text), checked in a browser too.

The fixture is synthetic: two targets, 26 decades of a ``year`` metadata column (``--bin-width 10``), a
``president`` column, 312 occurrences with ids shaped like a corpus scan's (``sotu.jsonl.gz:116@1012``).
"""

from __future__ import annotations

import itertools
import re
import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib import image as mpimg

from wsd.change.stage import change_run
from wsd.io.layout import FIGURES_DIR, REPORT_MARKDOWN, SENSES_DIR
from wsd.io.run_store import write_run
from wsd.report import drawing, load_run_data, plots, write_report
from wsd.senses.inducer import SenseInducer
from wsd.senses.stage import fit_senses, write_senses

PRESIDENTS = ("Washington", "Adams", "Jefferson", "Madison", "Monroe", "Lincoln")
N_SLICES = 26
SLICES = [f"{1790 + 10 * s}:{1799 + 10 * s}" for s in range(N_SLICES)]


def make_sliced_run(root: Path, per_slice: int = 6) -> Path:
    """``power`` (3 senses) and ``bank`` (2 senses), ``per_slice`` uses in each decade from the 1790s on."""
    rng = np.random.default_rng(0)
    rows, vectors = [], []
    words = {"power": ("political", "electric", "nuclear"), "bank": ("river", "money")}
    for t, (target, senses) in enumerate(words.items()):
        for s in range(N_SLICES):
            for i in range(per_slice):
                sense = (i + s) % len(senses)
                year = 1790 + 10 * s + i
                text = f"In {year} the {target} of the {senses[sense]} kind was discussed at length."
                start, doc = text.index(target), f"sotu.jsonl.gz:{t * 10000 + s * 100 + i}"
                rows.append(
                    {"id": f"{doc}@{1000 + start}", "target": target, "form": target, "text": text, "start": start,
                     "end": start + len(target), "doc_id": doc, "doc_start": 1000, "year": year,
                     "president": PRESIDENTS[(s + i) % len(PRESIDENTS)]}
                )  # fmt: skip
                vector = np.zeros(8)
                vector[3 * t + sense] = 5.0
                vectors.append(vector + rng.normal(scale=0.3, size=8))
    occurrences, X = pd.DataFrame(rows), np.array(vectors, dtype=np.float32)
    run = write_run(root / "run", occurrences, X, {"config": {}})
    model, _, proba = fit_senses(occurrences, X, SenseInducer(method="kmeans", k=3, random_state=0))
    write_senses(root / SENSES_DIR, occurrences, X, model, proba)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        change_run(run, root / SENSES_DIR, root / "change", by="year", bin_width=10, min_uses=3)
    return root


@pytest.fixture(scope="module")
def sliced_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    out = make_sliced_run(tmp_path_factory.mktemp("sliced") / "out")
    return out, write_report(out)


class _Cards(HTMLParser):
    """Per sense card: the citations of its examples, and the slices of its examples per slice."""

    def __init__(self) -> None:
        super().__init__()
        self.card: tuple[str, int] | None = None
        self.cites: dict[tuple[str, int], list[str]] = {}
        self.slices: dict[tuple[str, int], list[str]] = {}
        self.figures: list[tuple[str, str]] = []
        self._in_cite = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section" and a.get("class") == "sense-card":
            self.card = (str(a["data-target"]), int(str(a["data-sense"])))
            self.cites[self.card], self.slices[self.card] = [], []
        elif tag == "figure":
            self.figures.append((str(a.get("class")), str(a.get("data-target"))))
        elif tag == "li" and self.card is not None and a.get("data-slice"):
            self.slices[self.card].append(str(a["data-slice"]))
        elif tag == "span" and a.get("class") == "cite":
            self._in_cite = True

    def handle_data(self, data: str) -> None:
        if self._in_cite and self.card is not None:
            self.cites[self.card].append(data)
            self._in_cite = False


def _cards(page: str) -> _Cards:
    parser = _Cards()
    parser.feed(page)
    return parser


def test_examples_are_cited_by_their_metadata_not_by_file_offsets(sliced_report: tuple[Path, Path]) -> None:
    out, html = sliced_report
    page = _cards(html.read_text(encoding="utf-8"))
    assert page.cites, "no sense card"
    for card, cites in page.cites.items():
        assert cites, f"{card}: no cited example"
        assert all(re.fullmatch(r"year 1[789]\d\d · president [A-Z][a-z]+|year 20\d\d · president [A-Z][a-z]+", c)
                   for c in cites), cites  # fmt: skip
    markdown = (out / REPORT_MARKDOWN).read_text(encoding="utf-8")
    examples = [line for line in markdown.splitlines() if re.match(r"(\d+\.|-) .*\*\*(power|bank)\*\*", line)]
    assert examples and all("year " in line and "sotu.jsonl.gz" not in line for line in examples)
    assert re.search(r'<li title="sotu\.jsonl\.gz:\d+@\d+"', html.read_text(encoding="utf-8"))  # the id: a tooltip


def test_each_sense_has_an_example_from_each_of_its_slices(sliced_report: tuple[Path, Path]) -> None:
    out, html = sliced_report
    data = load_run_data(out)
    assert data.slices is not None and data.change is not None and data.change.slices == SLICES
    page = _cards(html.read_text(encoding="utf-8"))
    for (target, sense), shown in page.slices.items():
        rows = data.rows_of(target)
        present = set(data.slices[rows[data.labels[rows] == sense]])
        assert shown == [s for s in SLICES if s in present], (target, sense)  # each slice it has, in order
    markdown = (out / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert "Examples per slice (in 26 of 26 slices):" in markdown or "Examples per slice (in " in markdown
    assert re.search(r"^- \*\*1790:1799\*\* \\\[year 179\d · president \w+\\\] In 179\d the \*\*", markdown, re.M)


def test_maps_are_also_coloured_by_slice(sliced_report: tuple[Path, Path]) -> None:
    out, html = sliced_report
    page = _cards(html.read_text(encoding="utf-8"))
    assert ("slice-map", "power") in page.figures and ("slice-map", "bank") in page.figures
    assert {p.name for p in (out / FIGURES_DIR).glob("map-slices-*.png")} == {
        "map-slices-001-power.png",
        "map-slices-002-bank.png",
    }


def _captured(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    figures: list[Any] = []
    save = plots.save_figure

    def keep(figure: Any, path: Path) -> set[str]:
        figures.append(figure)
        return save(figure, path)

    monkeypatch.setattr(plots, "save_figure", keep)
    return figures


def _labels(ax: Any, axis: str = "x") -> list[str]:
    ticks = ax.xaxis.get_major_ticks() if axis == "x" else ax.yaxis.get_major_ticks()
    texts = [t.label1 for t in ticks] + [t.label2 for t in ticks]  # a vertical colour bar labels its right side
    return [text.get_text() for text in texts if text.get_visible() and text.get_text()]


@pytest.mark.parametrize("n_slices", [3, 24, 30, 60])
def test_slice_labels_and_legends_never_collide(n_slices: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figures = _captured(monkeypatch)
    slices = [f"{1790 + 100 * s}:{1889 + 100 * s}" if n_slices == 3 else f"{1790 + 10 * s}:{1799 + 10 * s}"
              for s in range(n_slices)]  # fmt: skip
    names = ["0: government, constitution (1234)", "1: electric, nuclear (87)", "2: congress, executive (901)"]
    shares = np.tile([0.5, 0.3, 0.2], (n_slices, 1))
    colours = drawing.palette(3)
    plots.sense_proportions(shares, slices, names, colours, "power", tmp_path / "p.png", uses=[12] * n_slices)
    pairs = [f"{a}→{b}" for a, b in itertools.pairwise(slices)]
    steps = list(range(1, n_slices))
    plots.change_timeline(steps, pairs, [0.1] * len(steps), [0.0] * len(steps), [0.2] * len(steps),
                          n_slices - 1, "jsd", "power", tmp_path / "t.png")  # fmt: skip
    rng = np.random.default_rng(0)
    plots.slice_map(rng.normal(size=(200, 2)), np.array([slices[i % n_slices] for i in range(200)], dtype=object),
                    slices, ("PC 1", "PC 2"), "power", "year", tmp_path / "m.png")  # fmt: skip
    assert len(figures) == 3
    for figure in figures:
        assert drawing.crowded_labels(figure) == [], "tick labels run into each other"
    proportions, timeline, slice_map = figures
    shown = _labels(proportions.axes[0])
    assert shown[0] == f"{slices[0]}\n(12)" or shown[0] == f"{slices[0]} (12)"  # whole labels, with the counts
    assert all(label.split()[0] in slices for label in shown)
    assert len(shown) >= min(n_slices, 12)
    assert all("…" not in label for label in _labels(timeline.axes[0]))  # never cut: "1790:1799→1800:…"
    bar_labels = _labels(slice_map.axes[1], "y")
    assert bar_labels and all(label in slices for label in bar_labels)
    renderer = proportions.canvas.get_renderer()
    ax = proportions.axes[0]
    legend = ax.get_legend().get_window_extent(renderer)
    assert legend.x0 >= ax.get_window_extent(renderer).x1  # beside the plot, not over it
    assert legend.x1 <= proportions.bbox.x1 and legend.y0 >= 0  # inside the figure
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [drawing.shorten(n) for n in names]
    plot_width = ax.get_window_extent(renderer).width / proportions.dpi
    assert plot_width > 2.0, f"the legend squeezed the plot to {plot_width:.1f} in"


@pytest.mark.slow
def test_a_browser_shows_the_sliced_report(sliced_report: tuple[Path, Path], tmp_path: Path) -> None:
    from test_report_demo import _browser, _run_browser

    browser = _browser()
    _, html = sliced_report
    screenshot = tmp_path / "sliced.png"
    url = html.resolve().as_uri()
    _run_browser(browser, tmp_path / "profile", f"--screenshot={screenshot}", "--window-size=1280,3000", url)
    pixels = mpimg.imread(screenshot)[..., :3]
    assert pixels.shape[:2] == (3000, 1280) and float(pixels.std()) > 0.05
    assert float((pixels.max(axis=2) - pixels.min(axis=2) > 0.3).mean()) > 0.005, "no figure on the screenshot"
    dom = _run_browser(browser, tmp_path / "profile", "--dump-dom", url).stdout
    page = _cards(dom)
    assert ("slice-map", "power") in page.figures
    assert max(len(s) for s in page.slices.values()) == N_SLICES
    assert all(c.startswith("year ") for cites in page.cites.values() for c in cites)
