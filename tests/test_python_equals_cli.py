"""Python and the command line give the same answers: the same vectors and the same senses for the same corpus.

``wsd embed`` + ``wsd cluster`` with their defaults, against :func:`wsd.embed_corpus` with its defaults and
:func:`wsd.senses.stage.cluster_run` with :meth:`wsd.SenseInducer.from_recipe` (issue 43, item 7).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import wsd
from wsd.cli import main
from wsd.io.layout import LABELS_FILE
from wsd.schema import DEFAULT_CONTEXT_VECTOR
from wsd.senses.stage import cluster_run

CORPUS = Path(__file__).resolve().parents[1] / "data" / "demo" / "corpus.txt"
TARGETS = "mouse:mice,bank"
#: Both sides load the bundled encoder the same way (fp32 on the CPU: exact comparisons on any machine).
ENCODER = {"precision": "fp32", "device": "cpu"}


def _labels(senses: Path) -> pd.DataFrame:
    return pd.read_parquet(senses / LABELS_FILE).sort_values("id").reset_index(drop=True)


@pytest.mark.slow  # two encoder loads and two embeddings of the demo corpus: about 15 s
def test_python_and_the_cli_give_the_same_vectors_and_senses(tmp_path):
    cli_run, cli_senses = tmp_path / "cli-run", tmp_path / "cli-senses"
    encoder_flags = [f"--{name}={value}" for name, value in ENCODER.items()]
    embed = ["embed", "--corpus", str(CORPUS), "--targets", TARGETS, "--out", str(cli_run), *encoder_flags]
    assert main([*embed, "--no-progress"]) == 0
    assert main(["cluster", "--run", str(cli_run), "--out", str(cli_senses), "--no-progress"]) == 0

    py_run = wsd.embed_corpus(CORPUS, TARGETS, tmp_path / "py-run", progress=False, **ENCODER)
    py_senses = cluster_run(py_run, tmp_path / "py-senses", inducer=wsd.SenseInducer.from_recipe())

    cli_occurrences, cli_vectors = wsd.load_run(cli_run)
    py_occurrences, py_vectors = wsd.load_run(py_run)
    assert cli_vectors.shape == py_vectors.shape
    assert cli_vectors.shape[1] == 768  # the default recipe's context vector beside the word's own 384 dimensions
    assert py_occurrences["id"].tolist() == cli_occurrences["id"].tolist()
    np.testing.assert_allclose(py_vectors, cli_vectors, rtol=1e-5, atol=1e-6)

    cli_labels, py_labels = _labels(cli_senses), _labels(py_senses)
    assert set(cli_labels["target"]) == {"mouse", "bank"}
    assert cli_labels["id"].tolist() == py_labels["id"].tolist()
    assert cli_labels["sense"].tolist() == py_labels["sense"].tolist()
    np.testing.assert_allclose(np.stack(py_labels["memberships"]), np.stack(cli_labels["memberships"]), atol=1e-6)
    assert cli_labels.groupby("target")["sense"].nunique().min() >= 2  # the default recipe splits both words


def test_the_python_default_context_vector_is_the_recipes():
    from wsd.senses.recipes import embedding_recipe, recipe

    assert embedding_recipe("default")["context_vector"] == DEFAULT_CONTEXT_VECTOR
    assert (
        wsd.SenseInducer.from_recipe().get_params()
        == wsd.SenseInducer(**recipe("default"), random_state=0).get_params()
    )
