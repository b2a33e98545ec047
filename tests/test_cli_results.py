"""One layout and one results document: every command writes the same names and the same metrics.json keys."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.cli import main
from wsd.evaluate.keys import key_from_occurrences, write_key
from wsd.io import layout
from wsd.io.run_reader import load_run
from wsd.senses.stage import cluster_run
from wsd.workflows.embedding import embed_corpus
from wsd.workflows.results import OPTIONAL_KEYS, REQUIRED_KEYS

REPO = Path(__file__).resolve().parents[1]
DEMO_DIR = REPO / "data" / "demo"


def test_every_command_writes_the_same_metrics_keys(tmp_path, capsys):
    labelled = str(DEMO_DIR / "labelled.tsv")
    evaluation = tmp_path / "eval"
    common = ["--no-progress", "--precision", "fp32"]
    args = ["evaluate", "--dataset", "generic", "--data", labelled, "--targets", "bank", "--out", str(evaluation)]
    assert main([*args, *common]) == 0
    job = tmp_path / "job"
    args = ["run", "--corpus", str(DEMO_DIR / "corpus.txt"), "--targets", "bank", "--gold", labelled]
    assert main([*args, "--out", str(job), *common]) == 0
    occurrences, _ = load_run(evaluation / layout.RUN_DIR)
    gold = tmp_path / "gold.key"
    write_key(key_from_occurrences(occurrences), gold)
    capsys.readouterr()
    system = evaluation / layout.system_key_name(0)
    args = ["score", "--dataset", "generic", "--gold", str(gold), "--system", str(system)]
    assert main([*args, "--format", "json"]) == 0
    documents = {
        "evaluate": json.loads((evaluation / layout.METRICS_FILE).read_text()),
        "run": json.loads((job / layout.METRICS_FILE).read_text()),
        "score": json.loads(capsys.readouterr().out),
    }
    for command, document in documents.items():
        required = [key for key in document if key not in OPTIONAL_KEYS]
        assert required == list(REQUIRED_KEYS), f"{command}: the keys of every metrics.json, in the same order"
        assert set(document["baselines"]) == {"one-sense", "one-per-instance", "random"}
        assert document["n_targets"] == 1 and document["n_instances"] > 10
    assert {"embedding", "dataset_stats"} <= set(documents["evaluate"]), "optional keys where they apply"
    assert "embedding" in documents["run"] and "embedding" not in documents["score"]
    assert documents["score"]["overall"] == pytest.approx(documents["evaluate"]["overall"])
    assert documents["evaluate"]["n_instances"] == documents["score"]["n_instances"]


def test_the_store_and_the_senses_stage_write_the_layout_names(tmp_path, encoder):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"The mouse {i} ran to the bank.\n" for i in range(30)), encoding="utf-8")
    sharded = embed_corpus(
        corpus, "mouse,bank", tmp_path / "sharded", encoder=encoder, chunk_size=16, consolidate=False, progress=False
    )
    parts = sharded / layout.PARTS_DIR
    names = {path.name for path in parts.iterdir()}
    expected = {layout.PLAN_FILE, layout.marker_name(0)}
    expected |= {layout.part_name(kind, 0, chunk) for kind in ("occ", "vec", "sum") for chunk in range(4)}
    assert names == expected
    run = embed_corpus(corpus, "mouse,bank", tmp_path / "run", encoder=encoder, chunk_size=16, progress=False)
    assert {path.name for path in run.iterdir()} == {
        layout.META_FILE,
        layout.OCCURRENCES_FILE,
        layout.VECTORS_FILE,
        layout.MANIFEST_FILE,
    }
    occurrences, vectors = load_run(run)
    sharded_occurrences, sharded_vectors = load_run(sharded)
    pd.testing.assert_frame_equal(occurrences, sharded_occurrences)
    np.testing.assert_array_equal(np.asarray(vectors), sharded_vectors)

    from wsd.senses import SenseInducer

    senses = cluster_run(run, inducer=SenseInducer(method="kmeans", k=2))
    assert senses == run / layout.SENSES_DIR
    assert {path.name for path in senses.iterdir()} == {
        layout.MODEL_DIR,
        layout.LABELS_FILE,
        layout.SENSES_FILE,
        layout.SENSES_MARKDOWN,
        layout.META_FILE,
        layout.MANIFEST_FILE,
    }


def test_layout_names_are_written_once():
    """No module but wsd/io/layout.py spells a layout file name as a string literal."""
    names = [
        value
        for name, value in vars(layout).items()
        if name.isupper() and isinstance(value, str) and "." in value and name != "PART_SUFFIXES"
    ]
    names.append(layout.FIGURES_DIR)
    assert "metrics.json" in names and "report_figures" in names
    pattern = re.compile("|".join(rf"[\"']{re.escape(name)}[\"']" for name in names))
    offenders = [
        f"{path.relative_to(REPO)}: {match.group()}"
        for path in sorted((REPO / "wsd").rglob("*.py"))
        if path.name != "layout.py"
        for match in pattern.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
