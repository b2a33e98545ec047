"""Run reports from a synthetic `wsd evaluate`-style output: loading, gold handling, HTML and Markdown content."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.errors import ConfigError, InputError
from wsd.io.run_store import write_run
from wsd.io.writers import write_json
from wsd.report import load_run_data, write_report
from wsd.report.data import align_column, headline_metrics, top_senses
from wsd.senses.inducer import SenseInducer
from wsd.senses.stage import fit_senses, write_senses

HOSTILE = '<b>&"x"'
TARGETS = ("bank", "замок", HOSTILE)
PER_TARGET = 30


def _occurrences() -> tuple[pd.DataFrame, np.ndarray]:
    """Two well-separated groups per target; graded, plain and missing gold labels."""
    rng = np.random.default_rng(0)
    rows, vectors = [], []
    for t_index, target in enumerate(TARGETS):
        for i in range(PER_TARGET):
            group = i % 2
            before = f"context {i} with | pipe and <tag> before the "
            text = f"{before}{target} and after it, group {group}."
            if i % 10 == 9:
                sense = ""
            elif i % 3 == 0:
                sense = f"{target}.s{group}/0.8 {target}.s{1 - group}/0.2"
            else:
                sense = f"{target}.s{group}"
            rows.append(
                {
                    "id": f"{t_index}.{i}",
                    "target": target,
                    "form": target,
                    "text": text,
                    "start": len(before),
                    "end": len(before) + len(target),
                    "doc_id": f"d{t_index}",
                    "doc_start": 0,
                    "sense": sense,
                }
            )
            centre = np.zeros(6)
            centre[group] = 8.0
            vectors.append(centre + rng.normal(scale=0.5, size=6))
    return pd.DataFrame(rows), np.array(vectors, dtype=np.float32)


def make_evaluate_out(root: Path) -> Path:
    """A folder laid out like `wsd evaluate --out`: run/ (gold in the sense column), senses/, metrics.json."""
    occurrences, X = _occurrences()
    write_run(root / "run", occurrences, X, {"config": {"dataset": "semeval2013", "data": "synthetic"}})
    model, _, proba = fit_senses(occurrences, X, SenseInducer(k=2, random_state=0))
    write_senses(root / "senses", occurrences, X, model, proba, {"seed": 0})
    scores = {"fnmi": 0.5, "fbc_f": 0.8, "fbc_p": 0.9, "fbc_r": 0.7, "avg": 0.63}
    write_json(
        root / "metrics.json",
        {
            "dataset": "semeval2013",
            "config": {},
            "overall": scores,
            "overall_std": {k: 0.01 for k in scores},
            "per_target": {t: dict(scores, n_instances=PER_TARGET) for t in TARGETS},
            "baselines": {"one-sense": dict.fromkeys(scores, 0.1), "random": dict.fromkeys(scores, float("nan"))},
            "seeds": [scores, scores],
        },
    )
    return root


@pytest.fixture(scope="module")
def evaluate_out(tmp_path_factory) -> Path:
    return make_evaluate_out(tmp_path_factory.mktemp("evaluate-out"))


@pytest.fixture(scope="module")
def report(evaluate_out: Path) -> Path:
    return write_report(evaluate_out)


class _Collector(HTMLParser):
    """Every start tag with its attributes, and the page's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8"))
    return collector


def test_load_run_data_aligns_labels_and_takes_the_top_gold_sense(evaluate_out):
    data = load_run_data(evaluate_out)
    assert data.targets == list(TARGETS)
    assert len(data.labels) == len(data.occurrences) == 3 * PER_TARGET
    assert data.has_gold and data.dataset == "semeval2013"
    first = data.occurrences.index[data.occurrences["id"] == "0.0"][0]
    assert data.occurrences.at[first, "sense"] == "bank.s0/0.8 bank.s1/0.2"
    assert data.gold[first] == "bank.s0"
    assert (data.gold == "").sum() == 3 * (PER_TARGET // 10)
    # two clean groups: each induced sense holds exactly one gold group
    for target in TARGETS:
        rows = data.rows_of(target)
        groups = np.arange(PER_TARGET) % 2
        assert len(set(zip(data.labels[rows], groups, strict=True))) == 2


def test_labels_are_matched_by_id_when_the_label_table_is_reordered(evaluate_out, tmp_path):
    labels = pd.read_parquet(evaluate_out / "senses" / "labels.parquet")
    shuffled = labels.sample(frac=1.0, random_state=1).iloc[:-1]  # reordered, one row missing
    occurrences = pd.read_parquet(evaluate_out / "run" / "occurrences.parquet")
    aligned = align_column(occurrences, shuffled, "sense", -1, "labels").astype(int)
    expected = labels["sense"].to_numpy().copy()
    dropped = labels.index.difference(shuffled.index)
    expected[dropped] = -1
    np.testing.assert_array_equal(aligned, expected)


def test_top_senses_follow_the_official_weights():
    values = np.array(["a/0.2 b/0.9", "a b/0.5", "c", "", None], dtype=object)
    assert top_senses(values).tolist() == ["b", "a", "c", "", ""]
    with pytest.raises(InputError, match="gold"):
        top_senses(np.array(["a/-1"], dtype=object), "gold")


def test_headline_metrics_per_dataset():
    assert headline_metrics("semeval2010", {"paired_f": 1, "v_measure": 1, "avg": 1, "n_instances": 3}) == [
        "paired_f",
        "v_measure",
        "avg",
    ]
    assert headline_metrics("unknown", {"x": 1.0, "n_instances": 2}) == ["x"]


def test_every_target_has_a_section_a_map_a_confusion_heatmap_and_cards(report):
    collector = _parse(report)
    sections = [a["data-target"] for tag, a in collector.tags if tag == "section" and a.get("class") == "target"]
    maps = [a["data-target"] for tag, a in collector.tags if tag == "figure" and a.get("class") == "sense-map"]
    heatmaps = [a["data-target"] for tag, a in collector.tags if tag == "figure" and a.get("class") == "confusion"]
    cards = [(a["data-target"], a["data-sense"]) for tag, a in collector.tags if a.get("class") == "sense-card"]
    assert sections == maps == heatmaps == list(TARGETS)
    assert sorted(cards) == sorted((t, s) for t in TARGETS for s in ("0", "1"))


def test_report_is_self_contained_and_escapes_text(report):
    page = report.read_text(encoding="utf-8")
    collector = _parse(report)
    assert "<script" not in page.lower() and "<link" not in page.lower()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|file:)""", page, re.IGNORECASE)
    images = [a["src"] for tag, a in collector.tags if tag == "img"]
    assert len(images) >= 2 * len(TARGETS) + 2  # maps, heatmaps, overall and per-target scores
    for source in images:
        assert source.startswith("data:image/png;base64,")
        assert base64.b64decode(source.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    # the hostile target name never appears unescaped; its text and attribute values round-trip
    assert HOSTILE not in page
    assert "&lt;b&gt;&amp;&quot;x&quot;" in page
    assert any(a.get("data-target") == HOSTILE for _, a in collector.tags)
    assert "<tag>" not in page and "&lt;tag&gt;" in page


def test_cards_highlight_the_target_and_show_keywords_and_gold(report):
    page = report.read_text(encoding="utf-8")
    assert '<mark class="target-word">замок</mark>' in page
    assert page.count('<ol class="examples">') == 2 * len(TARGETS)
    assert page.count('<p class="gold">') == 2 * len(TARGETS)
    assert "bank.s0" in page


def test_summary_and_evaluation_tables(report):
    text = " ".join(_parse(report).text)
    assert "Summary" in text and "Evaluation" in text
    assert "0.630 ± 0.010" in text  # avg with its std over seeds
    assert "wsd (mean ± std, 2 seeds)" in text
    assert "–" in text  # the NaN baseline is shown as missing, not as "nan"
    assert "nan" not in text.lower().split()


def test_markdown_report_links_existing_figures_and_escapes_pipes(report):
    markdown = (report.parent / "report.md").read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", markdown)
    assert len(links) >= 2 * len(TARGETS)
    for link in links:
        assert not Path(link).is_absolute() and (report.parent / link).is_file()
    assert "**замок**" in markdown
    assert "with \\| pipe" in markdown
    for target in TARGETS[:2]:
        assert f"## {target}" in markdown


def test_report_dir_option_and_stale_figures_are_removed(evaluate_out, tmp_path):
    from wsd.io.atomic import atomic_write

    destination = tmp_path / "elsewhere"
    write_report(evaluate_out, destination, max_points=20, n_examples=3)
    stale = destination / "report_figures" / "map-999-old.png"  # a figure an earlier wsd report wrote
    atomic_write(stale, lambda tmp: tmp.write_bytes(b"old"))
    mine = destination / "report_figures" / "my_plot.png"  # the user's: never removed (issue 26)
    mine.write_bytes(b"mine")
    html = write_report(evaluate_out, destination, projection="tsne", max_points=20, n_examples=3)
    assert html == destination / "report.html" and html.is_file()
    assert not stale.exists() and mine.read_bytes() == b"mine"
    page = html.read_text(encoding="utf-8")
    assert "t-SNE map" in page
    assert "random sample of 20 of the 30 occurrences" in page
    assert page.count("<li title=") == 3 * 2 * len(TARGETS)


def test_reports_are_deterministic(evaluate_out, tmp_path):
    first = write_report(evaluate_out, tmp_path / "a", projection="tsne")
    second = write_report(evaluate_out, tmp_path / "b", projection="tsne")
    assert first.read_bytes() == second.read_bytes()
    assert (tmp_path / "a" / "report.md").read_bytes() == (tmp_path / "b" / "report.md").read_bytes()


def test_a_clustered_embed_run_is_reported_without_gold(tmp_path):
    occurrences, X = _occurrences()
    occurrences = occurrences.drop(columns="sense")
    write_run(tmp_path / "runs" / "x", occurrences, X, {"config": {"corpus": "synthetic.txt"}})
    model, _, proba = fit_senses(occurrences, X, SenseInducer(k=2, random_state=0))
    write_senses(tmp_path / "runs" / "x" / "senses", occurrences, X, model, proba)
    html = write_report(tmp_path / "runs" / "x")
    collector = _parse(html)
    assert [a.get("class") for tag, a in collector.tags if tag == "figure"].count("sense-map") == len(TARGETS)
    assert not any(a.get("class") == "confusion" for _, a in collector.tags)
    assert "Evaluation" not in " ".join(collector.text)


def test_clear_errors_for_bad_folders_and_options(tmp_path, evaluate_out):
    with pytest.raises(InputError, match="no such file or folder"):
        write_report(tmp_path / "missing")
    with pytest.raises(InputError, match="holds no run"):
        write_report(tmp_path)
    run_only = tmp_path / "run-only"
    occurrences, X = _occurrences()
    write_run(run_only / "run", occurrences, X, {})
    with pytest.raises(InputError, match="wsd cluster"):
        write_report(run_only)
    with pytest.raises(ConfigError, match="projection"):
        write_report(evaluate_out, tmp_path / "r", projection="mds")
    with pytest.raises(ConfigError, match="n_examples"):
        write_report(evaluate_out, tmp_path / "r", n_examples=9)
    (tmp_path / "bad").mkdir()
    write_run(tmp_path / "bad" / "run", occurrences, X, {})
    (tmp_path / "bad" / "senses").mkdir()
    pd.DataFrame({"id": ["x"], "target": ["bank"], "sense": [0]}).to_parquet(tmp_path / "bad/senses/labels.parquet")
    pd.DataFrame({"target": ["bank"]}).to_parquet(tmp_path / "bad" / "senses" / "senses.parquet")
    (tmp_path / "bad" / "metrics.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match=r"metrics.json: not valid JSON \(line 1\)"):
        write_report(tmp_path / "bad")
