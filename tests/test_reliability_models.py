"""A ``--model`` that does not load leaves no half-made output folder (issue 39), whichever command writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from wsd.cli import main

DEMO_CORPUS = Path(__file__).resolve().parents[1] / "data" / "demo" / "corpus.txt"


@pytest.fixture
def broken_model(tmp_path: Path) -> Path:
    """A folder that looks like a model folder but whose config is not JSON."""
    folder = tmp_path / "not-a-model"
    folder.mkdir()
    (folder / "config.json").write_text("hi\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("command", ["embed", "run"])
def test_a_model_that_does_not_load_leaves_no_output_folder(
    tmp_path: Path, broken_model: Path, command: str, capsys
) -> None:
    out = tmp_path / "out"
    code = main(
        [command, "--corpus", str(DEMO_CORPUS), "--targets", "mouse", "--model", str(broken_model), "--out", str(out)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "config.json" in err and "Traceback" not in err
    assert not out.exists(), sorted(p.name for p in out.rglob("*"))


def test_an_empty_folder_given_as_out_stays_as_it_was(tmp_path: Path, broken_model: Path, capsys) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    code = main(
        ["embed", "--corpus", str(DEMO_CORPUS), "--targets", "mouse", "--model", str(broken_model), "--out", str(out)]
    )
    assert code == 2 and "config.json" in capsys.readouterr().err
    assert out.is_dir() and not any(out.iterdir())


def test_tune_encoder_from_python_takes_back_its_folder_when_the_model_does_not_load(tmp_path: Path, broken_model):
    from wsd.errors import ModelError
    from wsd.tune import TuneOptions, tune_encoder

    wic = tmp_path / "train.data.txt"
    wic.write_text("bank\tN\t1-1\tthe bank rose\tthe bank fell\nbat\tN\t1-1\ta bat flew\ta bat hit\n", encoding="utf-8")
    (tmp_path / "train.gold.txt").write_text("T\nF\n", encoding="utf-8")
    out = tmp_path / "tuned"
    with pytest.raises(ModelError):  # no CLI session around it: tune_encoder holds its own
        tune_encoder(f"wic:{wic}", out, options=TuneOptions(model=str(broken_model), validation_fraction=0.0))
    assert not out.exists(), sorted(p.name for p in out.rglob("*"))
