"""The stage commands end to end: cluster, predict, evaluate, score, run and demo (on small inputs)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.cli import main
from wsd.errors import ModelError
from wsd.io.run_reader import load_run
from wsd.senses.stage import cluster_run, predict_run
from wsd.workflows.embedding import embed_corpus

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory, encoder):
    """The demo corpus embedded once (fp32) for this module."""
    out = tmp_path_factory.mktemp("demo") / "run"
    forms = DEMO_DIR / "forms.tsv"
    embed_corpus(DEMO_DIR / "corpus.txt", "mouse,bank,bat", out, forms=forms, encoder=encoder, progress=False)
    return out


def test_cluster_writes_labels_cards_and_a_model(demo_run, tmp_path, capsys):
    out = tmp_path / "senses"
    code = main(["cluster", "--run", str(demo_run), "--out", str(out), "--method", "agglomerative", "--k", "2"])
    assert code == 0
    assert "senses of 3 targets" in capsys.readouterr().out
    labels = pd.read_parquet(out / "labels.parquet")
    occurrences, _ = load_run(demo_run)
    assert labels["id"].tolist() == occurrences["id"].tolist()
    assert set(labels["sense"]) == {0, 1}
    assert np.allclose([sum(m) for m in labels["memberships"]], 1.0)
    cards = pd.read_parquet(out / "senses.parquet")
    assert set(cards["target"]) == {"mouse", "bank", "bat"} and len(cards) == 6
    assert "mouse" in (out / "senses.md").read_text(encoding="utf-8")
    meta = json.loads((out / "meta.json").read_text())
    assert meta["inducer"]["method"] == "agglomerative" and meta["senses"] == {"mouse": 2, "bank": 2, "bat": 2}


def test_bank_senses_are_recovered_on_the_demo_corpus(demo_run, tmp_path):
    from sklearn.metrics import adjusted_rand_score

    from wsd.senses import SenseInducer

    out = cluster_run(demo_run, tmp_path / "senses", inducer=SenseInducer(method="agglomerative", k=2))
    labels = pd.read_parquet(out / "labels.parquet")
    gold = pd.read_csv(DEMO_DIR / "labelled.tsv", sep="\t", quoting=3, dtype=str, keep_default_na=False)
    occurrences, _ = load_run(demo_run)
    line = occurrences["doc_id"].str.rsplit(":", n=1).str[1]
    key = line + ":" + (occurrences["doc_start"] + occurrences["start"]).astype(str)
    gold_key = gold["id"].str.split(".").str[1] + ":" + gold["start"]
    senses = dict(zip(gold_key, gold["sense"], strict=True))
    bank = (occurrences["target"] == "bank").to_numpy()
    assert adjusted_rand_score([senses[k] for k in key[bank]], labels["sense"][bank]) > 0.5


def test_predict_reuses_senses_and_refuses_other_vectors(demo_run, tmp_path, encoder):
    from wsd.senses import SenseInducer

    senses = cluster_run(demo_run, tmp_path / "senses", inducer=SenseInducer(method="kmeans", k=2))
    predicted = pd.read_parquet(predict_run(senses, demo_run, tmp_path / "predicted.parquet"))
    fitted = pd.read_parquet(senses / "labels.parquet")
    assert predicted["sense"].tolist() == fitted["sense"].tolist()
    other = embed_corpus(
        DEMO_DIR / "corpus.txt", "bank", tmp_path / "other", encoder=encoder, layers="last", progress=False
    )
    with pytest.raises(ModelError, match="layers"):
        predict_run(senses, other)


def test_evaluate_generic_writes_valid_metrics(tmp_path, capsys):
    out = tmp_path / "eval"
    args = ["evaluate", "--dataset", "generic", "--data", str(DEMO_DIR / "labelled.tsv"), "--targets", "bank,cell"]
    code = main([*args, "--seeds", "2", "--out", str(out), "--no-progress", "--precision", "fp32"])
    assert code == 0
    table = capsys.readouterr().out
    assert "ari" in table and "one-sense" in table
    metrics = json.loads((out / "metrics.json").read_text())
    assert {"dataset", "config", "overall", "per_target", "baselines", "versions"} <= set(metrics)
    for name in ("ari", "nmi", "v_measure", "paired_f", "bcubed_f", "fnmi", "fbc_f"):
        assert 0.0 <= metrics["overall"][name] <= 1.0 or name == "ari"
    assert set(metrics["per_target"]) == {"bank", "cell"}
    assert len(metrics["seeds"]) == 2 and metrics["config"]["seeds"] == 2
    assert metrics["overall"]["ari"] > metrics["baselines"]["random"]["ari"]
    assert (out / "system.seed0.key").is_file() and (out / "system.seed1.key").is_file()
    assert pd.read_csv(out / "per_target.csv")["target"].tolist() == ["bank", "cell"]
    occurrences, vectors = load_run(out / "run")
    assert len(occurrences) == vectors.shape[0] == metrics["n_instances"]
    assert metrics["config"]["graded"] is True, "the default recipe writes graded keys"
    assert metrics["config"]["embedding"]["context_vector"] == "20:last:0.5"

    hard = tmp_path / "hard"
    code = main([*args, "--out", str(hard), "--no-progress", "--precision", "fp32", "--no-graded"])
    assert code == 0
    assert json.loads((hard / "metrics.json").read_text())["config"]["graded"] is False
    assert "/" not in (hard / "system.seed0.key").read_text(), "hard labels: one sense per line, no weights"


@pytest.mark.usefixtures("datasets_dir")
def test_evaluate_semeval2013_slice_end_to_end(datasets_dir, tmp_path, capsys):
    out = tmp_path / "eval13"
    code = main(
        ["evaluate", "--dataset", "semeval2013", "--data-dir", str(datasets_dir), "--targets", "add.v,board.n",
         "--out", str(out), "--no-progress", "--graded"]
    )  # fmt: skip
    assert code == 0
    metrics = json.loads((out / "metrics.json").read_text())
    assert set(metrics["overall"]) >= {"fnmi", "fbc_p", "fbc_r", "fbc_f", "avg"}
    avg = metrics["overall"]["avg"]
    assert avg == pytest.approx(np.sqrt(metrics["overall"]["fnmi"] * metrics["overall"]["fbc_f"]))
    assert metrics["config"]["graded"] is True
    assert "/" in (out / "system.seed0.key").read_text().splitlines()[0]


def test_score_command_reproduces_a_published_row(datasets_dir, capsys):
    keys = datasets_dir / "semeval2013-task13" / "keys"
    system = next((keys / "systems" / "AI-KU" / "base").glob("*.key"))
    code = main(["score", "--dataset", "semeval2013", "--gold", str(keys / "gold" / "all.key"),
                 "--system", str(system), "--format", "json"])  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    # AI-KU (base) in the task paper: FNMI 6.5, FBC 39.0, AVG 15.9
    assert round(100 * result["overall"]["fnmi"], 1) == 6.5
    assert round(100 * result["overall"]["fbc_f"], 1) == 39.0
    assert round(100 * result["overall"]["avg"], 1) == 15.9
    assert set(result["baselines"]) == {"one-sense", "one-per-instance", "random"}


def test_score_rejects_a_malformed_key_with_its_line(datasets_dir, tmp_path, capsys):
    gold = datasets_dir / "semeval2013-task13" / "keys" / "gold" / "all.key"
    bad = tmp_path / "bad.key"
    bad.write_text("add.v add.v.1 add%2:32:01::/4\nadd.v add.v.2\n", encoding="utf-8")
    code = main(["score", "--dataset", "semeval2013", "--gold", str(gold), "--system", str(bad)])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.key" in err[0] and "line 2" in err[0]


@pytest.mark.slow  # the whole demo (embed, cluster, evaluate); the fast lane keeps the textbook run below
def test_run_and_demo_commands(tmp_path, capsys):
    code = main(["demo", "--out", str(tmp_path / "demo"), "--no-progress"])
    assert code == 0
    captured = capsys.readouterr()
    printed = captured.out
    for target in ("mouse", "bank", "plant", "bat", "cell", "замок", "лук", "ключ", "шагать"):
        assert target in printed
    # the Russian words the English model cannot read are the demo's lesson, in its summary, not a warning
    assert "Why some rows score near 0" in printed and "4 of 9 targets (замок, лук, ключ, шагать)" in printed
    assert "[UNK]" not in captured.err, captured.err
    metrics = json.loads((tmp_path / "demo" / "metrics.json").read_text())
    assert metrics["n_instances"] == 351
    assert metrics["overall"]["ari"] > metrics["baselines"]["random"]["ari"] + 0.1
    gold = pd.read_parquet(tmp_path / "demo" / "gold.parquet")
    assert (gold["sense"] != "").sum() == 351
    run_meta = json.loads((tmp_path / "demo" / "run" / "meta.json").read_text())
    assert run_meta["embedding"]["context_vector"] == "20:last:0.5", "the demo runs the default recipe"
    senses_meta = json.loads((tmp_path / "demo" / "senses" / "meta.json").read_text())
    assert senses_meta["inducer"]["method"] == "ward" and senses_meta["inducer"]["center_forms"] == 0.5


def test_run_with_the_textbook_recipe_has_no_context_vector(tmp_path, capsys):
    argv = ["run", "--corpus", str(DEMO_DIR / "corpus.txt"), "--targets", "mouse:mice", "--out", str(tmp_path)]
    assert main([*argv, "--recipe", "textbook", "--precision", "fp32", "--no-progress"]) == 0
    assert "mouse" in capsys.readouterr().out
    run_meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert "context_vector" not in run_meta["embedding"] and run_meta["embedding"]["dim"] == 384
    assert json.loads((tmp_path / "senses" / "meta.json").read_text())["inducer"]["method"] == "kmeans"


def test_bad_sense_options_fail_before_any_work(tmp_path, capsys):
    code = main(["cluster", "--run", str(tmp_path), "--method", "hdbscan", "--k", "3"])
    assert code == 2
    assert "hdbscan" in capsys.readouterr().err
    code = main(["evaluate", "--dataset", "generic", "--data", str(tmp_path / "missing.tsv")])
    assert code == 2
    assert "missing.tsv" in capsys.readouterr().err
