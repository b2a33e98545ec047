"""Staged (``wsd embed`` + ``wsd cluster``) and one-shot (``wsd run``) runs store the same vectors and find the
same senses (issue 25, item 5); a sense model used on vectors of other options names the option that fixes it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.cli import main
from wsd.io.layout import LABELS_FILE, RUN_DIR, SENSES_DIR
from wsd.io.run_reader import load_run, read_meta
from wsd.io.run_store import write_run
from wsd.senses.mismatch import embedding_mismatch
from wsd.workflows.demo import demo_data_dir

TARGETS = "mouse,bank"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demo's *mouse* and *bank*, embedded and clustered in two steps (``staged``) and in one (``out``)."""
    data = demo_data_dir()
    root = tmp_path_factory.mktemp("staged")
    common = ["--corpus", str(data / "corpus.txt"), "--targets", TARGETS, "--forms", str(data / "forms.tsv")]
    staged = root / "staged"
    assert main(["embed", *common, "--out", str(staged), "--no-progress"]) == 0
    assert main(["cluster", "--run", str(staged), "--no-progress"]) == 0
    out = root / "out"
    assert main(["run", *common, "--out", str(out), "--no-progress"]) == 0
    return staged, out


def test_embed_stores_the_vectors_wsd_run_stores(runs: tuple[Path, Path]) -> None:
    staged, out = runs
    assert read_meta(staged)["embedding"] == read_meta(out / RUN_DIR)["embedding"]
    assert read_meta(staged)["embedding"]["context_vector"] == "20:last:0.5"
    occurrences, vectors = load_run(staged)
    one_shot, one_shot_vectors = load_run(out / RUN_DIR)
    assert occurrences["id"].tolist() == one_shot["id"].tolist()
    np.testing.assert_allclose(np.asarray(vectors, np.float32), np.asarray(one_shot_vectors, np.float32), atol=2e-3)


def test_cluster_of_embed_finds_the_senses_of_wsd_run(runs: tuple[Path, Path]) -> None:
    staged, out = runs
    labels = pd.read_parquet(staged / SENSES_DIR / LABELS_FILE)
    one_shot = pd.read_parquet(out / SENSES_DIR / LABELS_FILE)
    assert labels["id"].tolist() == one_shot["id"].tolist()
    assert labels["sense"].tolist() == one_shot["sense"].tolist()
    assert labels.groupby("target")["sense"].nunique().min() >= 2


def test_predict_with_the_senses_of_wsd_run_on_a_staged_run(runs: tuple[Path, Path], tmp_path: Path, capsys) -> None:
    staged, out = runs
    code = main(["predict", "--senses", str(out / SENSES_DIR), "--run", str(staged), "--out", str(tmp_path / "p")])
    assert code == 0, capsys.readouterr().err


def test_predict_on_vectors_without_the_context_vector_names_the_option(
    runs: tuple[Path, Path], tmp_path: Path, capsys
) -> None:
    """The issue's case: senses of ``wsd run`` (768 dims) on a run of the word vectors alone (384)."""
    _, out = runs
    occurrences, vectors = load_run(out / RUN_DIR)
    embedding = {key: value for key, value in read_meta(out / RUN_DIR)["embedding"].items() if key != "context_vector"}
    plain = write_run(
        tmp_path / "plain", occurrences, np.asarray(vectors)[:, :384], {"embedding": embedding | {"dim": 384}}
    )
    code = main(["predict", "--senses", str(out / SENSES_DIR), "--run", str(plain), "--out", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "field 'context_vector' is '20:last:0.5' in the sense model but '<missing>'" in err
    assert "field 'dim' is 768 in the sense model but 384" in err
    assert "made with --context-vector 20:last:0.5: embed the run with the same option" in err


def test_the_mismatch_names_every_option_and_none_for_an_absent_context_vector() -> None:
    model = {"model": "m", "layers": "last", "pooling": "mean", "dim": 384}
    vectors = model | {"layers": "sum-last-4", "context_vector": "5", "dim": 768}
    message = embedding_mismatch(model, vectors)
    assert (
        message is not None and "--context-vector none, --layers last: embed the run with the same options" in message
    )
    assert embedding_mismatch(model, model | {"precision": "bf16"}, ["precision"]) is None
    only_dim = embedding_mismatch(model, model | {"dim": 100})
    assert only_dim is not None and "the settings in the senses' meta.json" in only_dim
