"""Experiment results (layer ablation, methods, pooling) read from JSON and reported as plots and tables."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from wsd.errors import InputError
from wsd.report import load_experiments, write_report
from wsd.report.experiments import read_experiment

FIXTURES = Path(__file__).parent / "fixtures" / "report"


class _Figures(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.figures: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "figure":
            self.figures.append(attributes.get("class") or "")
        if tag == "img":
            self.images.append(attributes.get("src") or "")


def _figures(path: Path) -> _Figures:
    parser = _Figures()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_read_the_fixture_experiments():
    layers = read_experiment(FIXTURES / "experiment_layers.json")
    assert layers.name == "layers" and layers.metric == "avg" and layers.dataset == "semeval2013"
    assert layers.settings[:2] == ["layer 0", "layer 1"]
    assert layers.values()[3] == pytest.approx(0.237)
    assert layers.errors()[3] == pytest.approx(0.010)
    assert set(layers.baselines) == {"one-sense", "one-per-instance", "random"}
    assert layers.metrics == ["fnmi", "fbc_f", "avg"]
    methods = read_experiment(FIXTURES / "experiment_methods.json")
    assert methods.errors()[3] == 0.0  # a row without overall_std


def test_folder_report_has_one_plot_and_table_per_experiment(tmp_path):
    folder = tmp_path / "results"
    shutil.copytree(FIXTURES, folder)
    (folder / "notes.json").write_text('{"not": "an experiment"}', encoding="utf-8")
    html = write_report(folder)
    assert html == folder / "report.html"
    parsed = _figures(html)
    assert parsed.figures == ["experiment", "experiment"]
    assert all(src.startswith("data:image/png;base64,") for src in parsed.images)
    page = html.read_text(encoding="utf-8")
    assert "Experiment: layers (semeval2013)" in page and "Experiment: methods (russe2018)" in page
    assert "layer 3" in page and "0.237 ± 0.010" in page
    assert "PolyLM-large (published)" in page
    assert "замок-test (кириллица)" in page
    assert sorted(p.name for p in (folder / "report_figures").iterdir()) == [
        "experiment-01-layers.png",
        "experiment-02-methods.png",
    ]
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    assert "report_figures/experiment-01-layers.png" in markdown


def test_single_file_report_goes_beside_it(tmp_path):
    source = tmp_path / "layers.json"
    shutil.copy(FIXTURES / "experiment_layers.json", source)
    html = write_report(source)
    assert html == tmp_path / "layers-report" / "report.html"
    assert _figures(html).figures == ["experiment"]


def test_experiments_added_to_a_run_report(tmp_path):
    from test_report_run import make_evaluate_out

    out = make_evaluate_out(tmp_path / "out")
    html = write_report(out, experiments=[FIXTURES / "experiment_methods.json"])
    figures = _figures(html).figures
    assert figures.count("experiment") == 1 and "sense-map" in figures


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ('{"experiment": "layers", "rows": []}', "no rows"),
        ('{"experiment": "layers", "rows": [{"setting": "a"}]}', "row 1 has no 'overall'"),
        ('{"experiment": "layers", "rows": [{"overall": {"avg": 1}}]}', "row 1 has no 'setting'"),
        ('{"experiment": "x", "metric": "ari", "rows": [{"setting": "a", "overall": {"avg": 1}}]}', "metric 'ari'"),
    ],
)
def test_bad_experiment_files_are_input_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as error:
        read_experiment(path)
    assert str(path) in str(error.value)


def test_a_folder_without_experiments(tmp_path):
    (tmp_path / "other.json").write_text(json.dumps({"a": 1}), encoding="utf-8")
    with pytest.raises(InputError, match="no experiment result files"):
        load_experiments(tmp_path)


def test_a_variant_of_an_experiment_is_named_in_its_title(tmp_path):
    shutil.copy(FIXTURES / "experiment_layers.json", tmp_path / "layers-semeval2013-textbook.json")
    variant = read_experiment(tmp_path / "layers-semeval2013-textbook.json")
    assert variant.variant == "textbook" and variant.label == "layers, textbook"
    assert read_experiment(FIXTURES / "experiment_layers.json").label == "layers", "fixture names carry no variant"
    page = write_report(tmp_path).read_text(encoding="utf-8")
    assert "Experiment: layers, textbook (semeval2013)" in page


def test_the_repository_results_read_and_name_their_module_command():
    results = Path(__file__).resolve().parents[1] / "experiments" / "results"
    experiments = load_experiments(results / "ablate") + load_experiments(results / "usage_similarity")
    assert len(experiments) >= 20
    for experiment in experiments:
        assert experiment.command.startswith("python -m experiments."), experiment.source
    for page in results.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "python experiments/" not in text, f"{page} runs a script by its path (use python -m experiments.X)"
