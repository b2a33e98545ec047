"""wsd.load(senses).predict(texts, target=...): the senses of sentences in one call; wsd predict --text; and the
text and keywords in predicted.parquet (issue 25, item 7)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import wsd
from wsd.cli import main
from wsd.senses.inducer import SenseInducer
from wsd.senses.stage import cluster_run, predict_run
from wsd.workflows.embedding import embed_corpus
from wsd.workflows.tagger import PREDICTION_COLUMNS

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"
TEXTS = ["The mouse ran under the table and ate the cheese.", "Move the mouse and click the left button."]


@pytest.fixture(scope="module")
def mouse_senses(tmp_path_factory, encoder) -> Path:
    out = tmp_path_factory.mktemp("tagger")
    run = embed_corpus(DEMO_DIR / "corpus.txt", "mouse:mice", out / "run", encoder=encoder, progress=False)
    return cluster_run(run, out / "senses", inducer=SenseInducer(k=2, random_state=0))


def test_load_predicts_the_senses_of_sentences(mouse_senses: Path, encoder) -> None:
    tagger = wsd.load(mouse_senses, encoder=encoder)
    frame = tagger.predict(TEXTS, target="mouse")
    assert list(frame.columns) == list(PREDICTION_COLUMNS)
    assert frame["text_id"].tolist() == [0, 1] and frame["text"].tolist() == TEXTS
    assert frame["form"].tolist() == ["mouse", "mouse"]
    assert all(len(p) == 2 for p in frame["probabilities"]) and set(frame["sense"]) <= {0, 1}
    assert np.allclose([sum(p) for p in frame["probabilities"]], 1.0)
    assert (frame["probability"] == [max(p) for p in frame["probabilities"]]).all()
    # each row carries its sense's keywords (empty where no word distinguishes the sense: issue 41, no padding)
    expected = [tagger.keywords.get(("mouse", int(sense)), "") for sense in frame["sense"]]
    assert frame["keywords"].tolist() == expected and all(isinstance(k, str) for k in expected)
    by_span = tagger.predict(TEXTS, target="mouse", spans=[(4, 9), (9, 14)])
    assert by_span["sense"].tolist() == frame["sense"].tolist()


def test_load_finds_forms_of_the_run_and_loads_the_encoder_itself(mouse_senses: Path) -> None:
    tagger = wsd.load(mouse_senses.parent)  # the output folder; the encoder named in the senses' metadata
    frame = tagger.predict("Two mice hid in the barn.")  # the only target; a form from the run's scan
    assert frame["form"].tolist() == ["mice"] and frame["target"].tolist() == ["mouse"]
    with pytest.raises(wsd.WsdError, match="not one of the senses' targets"):
        tagger.predict("a bank", target="bank")


def test_sense_model_takes_the_encoder_identity_as_it_comes(mouse_senses: Path, encoder) -> None:
    from wsd.senses.model import SenseModel

    model = SenseModel.load(mouse_senses / "model")
    occurrences = pd.DataFrame({"target": ["mouse"], "form": ["mouse"], "text": [TEXTS[0]], "start": [4], "end": [9]})
    X = encoder.embed_occurrences(occurrences)
    labels = model.predict(occurrences, X, embedding_meta=encoder.identity())
    assert labels.shape == (1,)


def test_cli_predict_text_prints_the_senses(mouse_senses: Path, capsys) -> None:
    argv = ["predict", "--senses", str(mouse_senses), "--target", "mouse", "--text", TEXTS[0], "--text", TEXTS[1]]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "[0] mouse." in out and "[1] mouse." in out and "[[mouse]]" in out and "p=" in out
    assert main(["predict", "--senses", str(mouse_senses)]) == 2
    assert "give --run RUN" in capsys.readouterr().err


def test_predicted_parquet_carries_text_and_keywords(mouse_senses: Path, tmp_path: Path) -> None:
    run = mouse_senses.parent / "run"
    table = pd.read_parquet(predict_run(mouse_senses, run, tmp_path / "p.parquet"))
    occurrences, _ = wsd.load_run(run)
    assert table["text"].tolist() == occurrences["text"].astype(str).tolist()
    senses = pd.read_parquet(mouse_senses / "senses.parquet")
    first = senses.set_index("sense").loc[table["sense"].iloc[0], "keywords"]
    assert table["keywords"].iloc[0] == ", ".join(first)
