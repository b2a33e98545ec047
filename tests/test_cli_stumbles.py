"""The small stumbles of a new user (issue 14), each kept from coming back."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.cli import build_parser, main
from wsd.evaluate.gold_match import explain_unmatched
from wsd.workflows.embedding import embed_corpus
from wsd.workflows.results import format_table
from wsd.workflows.run import format_summary

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"
FIXTURES = Path(__file__).parent / "fixtures" / "report"


@pytest.fixture(scope="module")
def bank_run(tmp_path_factory, encoder):
    out = tmp_path_factory.mktemp("stumbles") / "run"
    embed_corpus(DEMO_DIR / "corpus.txt", "bank:banks", out, encoder=encoder, progress=False)
    return out


def test_layers_accepts_a_negative_list_as_the_readme_writes_it() -> None:
    for command in ("embed", "run"):
        args = build_parser().parse_args([command, "--corpus", "c", "--targets", "t", "--layers", "-4,-3,-2,-1"])
        assert args.layers == "-4,-3,-2,-1"
    assert build_parser().parse_args(["embed", "--layers", "-1"]).layers == "-1"


def test_run_and_demo_print_percentages() -> None:
    scores = {"ari": 0.5, "nmi": 0.25, "v_measure": 0.25, "paired_f": 0.75, "bcubed_f": 0.5, "fnmi": 0.1, "fbc_f": 0.2}
    summary = {
        "occurrences": {"bank": 47},
        "senses": {"bank": 2},
        "run": "r",
        "senses_dir": "s",
        "metrics": {"overall": scores, "per_target": {"bank": {"ari": 0.5}}, "baselines": {"random": scores}},
    }
    text = format_summary(summary)
    assert "ARI %" in text and "50.0" in text
    assert "score (%)" in text and "75.00" in text and "0.750" not in text


def test_score_on_one_key_prints_no_mean_and_std() -> None:
    one = {"overall": {"ari": 0.5}, "overall_std": {"ari": 0.0}, "seeds": [{"ari": 0.5}], "baselines": {}}
    text = format_table(one)
    assert "±" not in text and "seed" not in text and "50.00" in text
    two = one | {"seeds": [{"ari": 0.4}, {"ari": 0.6}], "overall_std": {"ari": 0.1}}
    assert "mean ± std, 2 seeds" in format_table(two) and "50.00 ± 10.00" in format_table(two)


def test_cluster_shows_progress_over_targets(bank_run, tmp_path, capsys) -> None:
    assert main(["cluster", "--run", str(bank_run), "--out", str(tmp_path / "s"), "--k", "2"]) == 0
    assert "target" in capsys.readouterr().err
    assert main(["cluster", "--run", str(bank_run), "--out", str(tmp_path / "q"), "--k", "2", "--no-progress"]) == 0
    assert "target" not in capsys.readouterr().err


def test_report_never_writes_into_experiment_results(tmp_path, capsys) -> None:
    results = tmp_path / "results"
    shutil.copytree(FIXTURES, results)
    before = sorted(p.name for p in results.rglob("*"))
    assert main(["report", "--run", str(results)]) == 2
    assert "give --out" in capsys.readouterr().err
    assert main(["report", "--run", str(results / "experiment_layers.json")]) == 2
    assert sorted(p.name for p in results.rglob("*")) == before
    assert main(["report", "--run", str(results), "--out", str(tmp_path / "report")]) == 0
    assert (tmp_path / "report" / "report.html").is_file()
    assert sorted(p.name for p in results.rglob("*")) == before


def test_context_vector_error_names_context_vector(tmp_path, capsys) -> None:
    argv = ["embed", "--corpus", str(DEMO_DIR / "corpus.txt"), "--targets", "bank", "--out", str(tmp_path / "r")]
    assert main([*argv, "--context-vector", "20:bogus"]) == 2
    err = capsys.readouterr().err
    assert "--context-vector '20:bogus'" in err and "--layers" not in err


def test_predict_skip_unknown_warns_once(bank_run, tmp_path, capsys, encoder) -> None:
    senses = tmp_path / "senses"
    assert main(["cluster", "--run", str(bank_run), "--out", str(senses), "--k", "2", "--no-progress"]) == 0
    other = embed_corpus(DEMO_DIR / "corpus.txt", "bank:banks,bat:bats", tmp_path / "other", encoder=encoder)
    capsys.readouterr()
    out = tmp_path / "predicted.parquet"
    assert main(["predict", "--senses", str(senses), "--run", str(other), "--out", str(out), "--skip-unknown"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "bat" in warnings[0]


def test_gold_rows_that_match_nothing_are_explained() -> None:
    occurrences = pd.DataFrame(
        {"target": ["bank", "bank"], "text": ["The bank is open.", "A river bank."], "start": [4, 8], "end": [8, 12]}
    )
    labelled = pd.DataFrame(
        {
            "target": ["bank", "bat", "bat", "bank", "bank"],
            "text": ["The bank is open.", "A bat.", "Bats fly.", "Not in the corpus bank.", "A river bank."],
            "start": [4, 2, 0, 18, 2],
            "end": [8, 5, 4, 22, 7],
            "sense": ["bank.finance", "bat.animal", "bat.animal", "bank.river", "bank.river"],
        }
    )
    assert explain_unmatched(occurrences, labelled) == (
        "2 name targets not scanned, 1 lies in a text not found in the corpus, 1 has a span that matches no occurrence"
    )


def test_run_gold_warning_says_why_rows_did_not_match(tmp_path, capsys) -> None:
    gold = tmp_path / "gold.tsv"
    labelled = pd.read_csv(DEMO_DIR / "labelled.tsv", sep="\t", dtype=str, keep_default_na=False, quoting=3)
    first_bank = labelled.index[labelled["target"] == "bank"][0]
    labelled.loc[first_bank, "text"] = labelled.loc[first_bank, "text"][:-1] + "!"  # a text not in the corpus
    labelled.loc[labelled["target"] == "bat", "target"] = "bat.n"  # bat's gold spelt otherwise: bat has none
    labelled.to_csv(gold, sep="\t", index=False, quoting=3)
    argv = ["run", "--corpus", str(DEMO_DIR / "corpus.txt"), "--targets", "bank:banks,bat:bats", "--gold", str(gold)]
    assert main([*argv, "--out", str(tmp_path / "out"), "--precision", "fp32", "--no-progress"]) == 0
    captured = capsys.readouterr()
    # the gold rows of targets not scanned are out of the job, not a mismatch: only bank's 47 count
    assert "only 46 of 47 labelled occurrences of the scanned targets match" in captured.err
    assert "in the corpus: 1 lies in a text not found in the corpus\n" in captured.err  # nothing of other targets
    # a scanned target with no gold while the gold names targets not scanned: maybe spelt otherwise there
    assert "no labelled occurrence of bat; its 304 other row(s) name targets not scanned: bat.n, cell" in captured.err
    assert "scored on the 46 labelled occurrences of these targets; the gold's 304 of other targets" in captured.out


def test_progress_bar_counts_each_occurrence_once_with_context_vectors(encoder, monkeypatch) -> None:
    import wsd.embed.encoder as module

    bars = []

    class Recorder:
        def __init__(self, total=None, **_):
            self.total, self.done = total, 0
            bars.append(self)

        def update(self, n=1):
            self.done += n

        def close(self):
            pass

    monkeypatch.setattr(module, "tqdm", Recorder)
    texts = ["The bank raised its rates.", "We sat on the bank of the river.", "A bank and a bank."]
    spans = [(4, 8), (14, 18), (2, 6)]
    vectors = encoder.with_options(context_vector="20:last:0.5").embed_spans(texts, spans, progress=True)
    assert vectors.shape[0] == 3
    assert [(bar.total, bar.done) for bar in bars] == [(3, 3)]
    assert np.isfinite(vectors).all()
