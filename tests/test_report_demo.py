"""The report of the bundled demo corpus: checked structurally, then rendered by a real headless browser.

The browser test needs Debian's ``chromium`` (``.ci/install-chromium`` installs it in CI); where no browser
is installed it is skipped with the reason. ``WSD_CHROMIUM`` names another binary.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib import image as mpimg

from wsd.corpus.targets import read_forms_file
from wsd.workflows.demo import demo_data_dir
from wsd.workflows.pipeline import induce_corpus

pytestmark = pytest.mark.slow  # the slow lane: the whole demo and a headless browser

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
BROWSER_TIMEOUT_S = 120


class _Page(HTMLParser):
    """The hooks of a report page: target sections, sense maps (with their image), sense cards, examples."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.maps: list[str] = []
        self.map_images: list[str] = []
        self.cards: list[tuple[str, int]] = []
        self.examples: dict[tuple[str, int], int] = {}
        self._figure: str | None = None
        self._card: tuple[str, int] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        css = a.get("class") or ""
        if tag == "section" and css == "target":
            self.sections.append(a["data-target"])
        elif tag == "figure" and css == "sense-map":
            self.maps.append(a["data-target"])
            self._figure = a["data-target"]
        elif tag == "img" and self._figure is not None:
            if (a.get("src") or "").startswith("data:image/png;base64,"):
                self.map_images.append(self._figure)
            self._figure = None
        elif tag == "section" and css == "sense-card":
            self._card = (a["data-target"], int(a["data-sense"]))
            self.cards.append(self._card)
            self.examples[self._card] = 0
        elif tag == "li" and self._card is not None:
            self.examples[self._card] += 1


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory, encoder):
    folder = demo_data_dir()
    out = tmp_path_factory.mktemp("demo-report")
    # the demo keeps its Russian targets to show what an English-only model does with them: it says so
    with pytest.warns(UserWarning, match=r"4 of 9 targets \(замок, лук, ключ, шагать\) are split by"):
        summary = induce_corpus(
            folder / "corpus.txt",
            list(read_forms_file(folder / "forms.tsv")),
            out,
            forms=folder / "forms.tsv",
            gold=folder / "labelled.tsv",
            progress=False,
            report=True,
            encoder=encoder,
        )
    html = Path(summary["report"])
    assert html == out / "report.html"
    return html, summary


@pytest.fixture(scope="module")
def targets() -> list[str]:
    return list(read_forms_file(demo_data_dir() / "forms.tsv"))


def test_demo_report_has_a_map_and_cards_for_every_target(demo_report, targets):
    html, summary = demo_report
    page = _parse(html.read_text(encoding="utf-8"))
    assert page.sections == targets
    assert page.maps == targets and page.map_images == targets
    for target in targets:
        cards = [sense for t, sense in page.cards if t == target]
        assert cards == list(range(summary["senses"][target]))
    table = pd.read_parquet(html.parent / "senses" / "senses.parquet")
    sizes = {(row.target, int(row.sense)): int(row.size) for row in table.itertuples(index=False)}
    for card, count in page.examples.items():
        assert count == min(5, sizes[card])
    assert (html.parent / "report.md").is_file()
    figures = sorted(p.name for p in (html.parent / "report_figures").glob("*.png"))
    assert len([f for f in figures if f.startswith("map-")]) == len(targets)
    assert len([f for f in figures if f.startswith("confusion-")]) == len(targets)
    assert {"scores-overall.png", "scores-per-target.png"} <= set(figures)


def _browser() -> str:
    candidates = [os.environ["WSD_CHROMIUM"]] if os.environ.get("WSD_CHROMIUM") else list(BROWSERS)
    for name in candidates:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(f"no headless browser found (looked for {', '.join(candidates)}); .ci/install-chromium installs one")


def _run_browser(browser: str, profile: Path, *arguments: str) -> subprocess.CompletedProcess:
    command = [browser, *BROWSER_FLAGS, f"--user-data-dir={profile}", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=BROWSER_TIMEOUT_S, check=False)
    assert result.returncode == 0, f"{' '.join(command)} failed ({result.returncode}): {result.stderr[-2000:]}"
    return result


def test_a_real_browser_renders_the_demo_report(demo_report, targets, tmp_path):
    browser = _browser()
    html, _ = demo_report
    url = html.resolve().as_uri()
    screenshot = tmp_path / "report.png"
    _run_browser(browser, tmp_path / "profile", f"--screenshot={screenshot}", "--window-size=1280,2000", url)
    pixels = mpimg.imread(screenshot)[..., :3]
    assert pixels.shape[:2] == (2000, 1280)
    assert float(pixels.std()) > 0.05, "the screenshot is blank"
    dark = float((pixels.mean(axis=2) < 0.5).mean())
    colourful = float((pixels.max(axis=2) - pixels.min(axis=2) > 0.3).mean())
    assert dark > 0.002, f"hardly any text on the screenshot ({dark:.4f} of the pixels are dark)"
    assert colourful > 0.005, f"no figure visible on the screenshot ({colourful:.4f} of the pixels are colourful)"

    dom = _run_browser(browser, tmp_path / "profile", "--dump-dom", url).stdout
    page = _parse(dom)
    assert sorted({t for t, _ in page.cards}) == sorted(targets), "a target's sense cards are missing in the DOM"
    assert page.map_images == targets
    assert np.all([page.examples[card] >= 1 for card in page.cards])
