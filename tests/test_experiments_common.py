"""The experiment scripts' shared code: benchmark names, SemEval-2013 halves, tables and result files."""

from __future__ import annotations

import json
import sys
import types

import pytest

from experiments import ablate, common
from wsd import machine


def test_benchmark_names_and_groups_resolve_in_order() -> None:
    names = [b.name for b in common.resolve_benchmarks("semeval2010,russe,semeval2010")]
    assert names == ["semeval2010", "russe-wiki-wiki", "russe-bts-rnc", "russe-active-dict"]
    assert common.BENCHMARKS["russe-bts-rnc"].options == {"splits": "bts-rnc/train"}
    assert common.BENCHMARKS["semeval2013"].published["PolyLM-large"]["avg"] == pytest.approx(0.397)
    with pytest.raises(SystemExit, match="unknown dataset"):
        common.resolve_benchmarks("semeval2015")


def test_semeval2013_halves_follow_the_official_aggregation() -> None:
    per_target = {
        "a.n": {"fnmi": 0.2, "fbc_p": 0.8, "fbc_r": 0.4},
        "b.n": {"fnmi": 0.1, "fbc_p": 0.6, "fbc_r": 0.6},
        "c.v": {"fnmi": 0.4, "fbc_p": 0.4, "fbc_r": 0.8},
    }
    halves = ablate.semeval2013_halves(per_target)
    assert halves["dev"]["fnmi"] == pytest.approx(0.3)  # a.n and c.v
    assert halves["dev"]["fbc_f"] == pytest.approx(0.6)  # F of P = R = 0.6
    assert halves["test"]["avg"] == pytest.approx((0.1 * 0.6) ** 0.5)


def test_settings_vary_one_thing_of_the_recipe() -> None:
    layers = ablate.layer_settings("default", 6)
    assert [s.embedding["layers"] for s in layers][-4:] == ["sum-last-4", "concat-last-4", "mean-all", "static"]
    assert len(layers) == 11 and all(s.senses["method"] == "ward" for s in layers)
    methods = ablate.method_settings("textbook")
    assert {s.senses["method"] for s in methods} >= {"kmeans", "ward", "agglomerative", "gmm", "hdbscan"}
    quality = ablate.quality_settings()
    notes = [s.note for s in quality]
    assert notes[:2] == ["baseline", "default"] and "direction" in notes
    assert quality[0].embedding["context_vector"] is None and quality[0].output["graded"] is False


def test_results_files_have_the_fixed_structure(tmp_path) -> None:
    benchmark = common.BENCHMARKS["semeval2013"]
    row = common.Row(
        "layer 3",
        "3",
        "mean",
        "kmeans",
        "silhouette",
        {"fnmi": 0.1, "fbc_f": 0.5, "avg": 0.2236},
        {"fnmi": 0.01, "fbc_f": 0.02, "avg": 0.015},
    )
    baselines = {"one-sense": {"fnmi": 0.0, "fbc_f": 0.62, "avg": 0.0}}
    table = common.markdown_table([row], baselines, benchmark.published, benchmark.columns, "avg", 3)
    assert "| layer 3 | 3 | mean | kmeans | silhouette | 10.0 ± 1.0 | 50.0 ± 2.0 | **22.4 ± 1.5** |" in table
    assert "*published: PolyLM-large*" in table and "*baseline: one-sense*" in table
    md, js = common.write_results("layers-x", "layers", benchmark, [row], baselines, "python x", table, tmp_path)
    data = json.loads(js.read_text(encoding="utf-8"))
    assert set(data) == {"experiment", "dataset", "metric", "command", "rows", "baselines", "published"}
    assert data["rows"][0]["setting"] == "layer 3" and data["rows"][0]["overall"]["avg"] == pytest.approx(0.2236)
    assert md.read_text(encoding="utf-8").startswith("| setting")


def test_the_command_line_is_the_module_run(monkeypatch) -> None:
    main = types.ModuleType("__main__")
    main.__spec__ = types.SimpleNamespace(name="experiments.ablate")
    monkeypatch.setitem(sys.modules, "__main__", main)
    monkeypatch.setattr(sys, "argv", ["/repo/experiments/ablate.py", "layers", "--dataset", "semeval2013,russe"])
    assert common.command_line() == "python -m experiments.ablate layers --dataset semeval2013,russe"
    main.__spec__ = None
    monkeypatch.setattr(sys, "argv", [str(common.HERE / "ablate.py"), "quality", "--model", "a b"])
    assert common.command_line() == "python experiments/ablate.py quality --model 'a b'"


def test_results_headers_describe_the_machine() -> None:
    lines = common.header_lines("python -m experiments.ablate layers", 3, None)
    assert lines[0] == "- Command: `python -m experiments.ablate layers`"
    assert f"machine: {machine.describe()};" in lines[1]


def test_rewrite_page_writes_the_page_from_its_figures_and_refuses_a_missing_or_damaged_file(tmp_path, capsys):
    """``--markdown-only`` of every experiment: the page from the JSON; no JSON, a damaged one or one that holds
    no object is one line and exit 2, never a traceback."""
    import argparse

    from experiments.common import rewrite_page

    parser = argparse.ArgumentParser(prog="python -m experiments.x")
    figures, page = tmp_path / "x.json", tmp_path / "pages" / "x.md"
    for content, message in ((None, "no results yet"), ('{"avg": 3', "cannot be read"), ("[1]", "holds no results")):
        if content is not None:
            figures.write_text(content, encoding="utf-8")
        with pytest.raises(SystemExit) as exited:
            rewrite_page(parser, figures, page, lambda results: "unused")
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert "--markdown-only: " in err and message in err and str(figures) in err and "Traceback" not in err
        assert not page.exists()
    figures.write_text('{"avg": 31.62}', encoding="utf-8")
    assert rewrite_page(parser, figures, page, lambda results: f"AVG {results['avg']}\n") == 0
    assert page.read_text(encoding="utf-8") == "AVG 31.62\n"
