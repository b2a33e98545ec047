"""``wsd tune`` on the command line: every bad input is one line and exit 2 before a model loads; a tiny real run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import make_judged_wug, write_lines

from wsd.cli import main


@pytest.fixture()
def no_model(monkeypatch):
    """Loading an encoder fails the test: every refusal must come before the model loads."""
    from wsd.embed.encoder import Encoder

    def refuse(*args, **kwargs):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(Encoder, "__init__", refuse)


def _refused(capsys, *argv: str) -> str:
    code = main(["tune", *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def _argparse_refused(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(["tune", *argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    return err


def test_bad_sources_are_one_line_and_exit_2(tmp_path, capsys, no_model):
    wug = make_judged_wug(tmp_path / "wug")
    out = str(tmp_path / "out")
    assert "not found" in _refused(capsys, "--train", f"wug:{tmp_path / 'nowhere'}", "--out", out)
    assert "unknown training source kind 'wog'" in _refused(capsys, "--train", f"wog:{wug}", "--out", out)
    assert "is not KIND:PATH" in _refused(capsys, "--train", str(wug), "--out", out)
    assert "is not KIND:PATH" in _refused(capsys, "--train", "wug:", "--out", out)
    assert "--train is required" in _refused(capsys, "--out", out)
    # a bad --exclude source is refused as well
    assert "not found" in _refused(capsys, "--train", f"wug:{wug}", "--exclude", "wug:nowhere", "--out", out)
    assert not Path(out).exists()


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "empty WUG judgments file"),
        (["identifier1\tidentifier2\tjudgment", "bank00\tbank01\tx"], "judgment 'x' is not a number"),
        (["identifier1\tidentifier2\tjudgment", "bank00\tbank01"], "2 tab-separated fields"),
    ],
)
def test_an_empty_or_malformed_judgments_file(tmp_path, capsys, no_model, lines, message):
    wug = make_judged_wug(tmp_path / "wug")
    write_lines(wug / "data" / "bank_nn" / "judgments.csv", lines)
    err = _refused(capsys, "--train", f"wug:{wug}", "--out", str(tmp_path / "out"))
    assert message in err and "bank_nn" in err


def test_a_wic_file_without_its_gold(tmp_path, capsys, no_model):
    data = write_lines(tmp_path / "wic" / "train.data.txt", ["bank\tN\t0-1\tbank of it\tthe bank lent"])
    assert "no gold file beside it" in _refused(capsys, "--train", f"wic:{data}", "--out", str(tmp_path / "out"))


def test_excluding_every_lemma_leaves_nothing_to_train(tmp_path, capsys, no_model):
    wug = make_judged_wug(tmp_path / "wug")
    lemmas = write_lines(tmp_path / "held-out.txt", ["Bank.n", "", "mouse_nn", "BAT"])
    for given in ("bank,mouse,bat", f"@{lemmas}"):
        err = _refused(capsys, "--train", f"wug:{wug}", "--exclude-lemmas", given, "--out", str(tmp_path / "out"))
        assert "leaves no pair to train on" in err
    # --exclude with the same dataset drops every lemma too
    err = _refused(capsys, "--train", f"wug:{wug}", "--exclude", f"wug:{wug}", "--out", str(tmp_path / "out"))
    assert "leaves no pair to train on" in err


def test_a_lemma_file_that_is_empty_or_missing(tmp_path, capsys, no_model):
    wug = make_judged_wug(tmp_path / "wug")
    empty = write_lines(tmp_path / "empty.txt", ["", "  "])
    base = ["--train", f"wug:{wug}", "--out", str(tmp_path / "out")]
    assert "holds no lemma" in _refused(capsys, *base, "--exclude-lemmas", f"@{empty}")
    assert "not found" in _refused(capsys, *base, "--exclude-lemmas", f"@{tmp_path / 'none.txt'}")
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9\n")
    assert "not UTF-8" in _refused(capsys, *base, "--exclude-lemmas", f"@{tmp_path / 'latin1.txt'}")


def test_an_out_of_other_files_or_overlapping_a_source_is_refused(tmp_path, capsys, no_model):
    wug = make_judged_wug(tmp_path / "wug")
    mine = write_lines(tmp_path / "mine" / "notes.txt", ["keep me"])
    assert "other files" in _refused(capsys, "--train", f"wug:{wug}", "--out", str(mine.parent))
    assert mine.read_text(encoding="utf-8") == "keep me\n"
    for out, relation in ((wug, "is the"), (wug / "model", "lies inside the"), (tmp_path, "contains the")):
        err = _refused(capsys, "--train", f"wug:{wug}", "--out", str(out))
        assert f"{relation} --train wug:{wug} input" in err
    err = _refused(capsys, "--train", f"wug:{wug}", "--exclude", f"wug:{wug}", "--out", str(wug / "data"))
    assert "lies inside the --train" in err
    assert not (wug / "model").exists()


def test_bad_option_values_are_refused_by_the_parser(tmp_path, capsys, no_model):
    base = ["--train", f"wug:{make_judged_wug(tmp_path / 'wug')}", "--out", str(tmp_path / "out")]
    assert "--epochs: expected a number ≥ 1, got 0" in _argparse_refused(capsys, *base, "--epochs", "0")
    assert "--loss: invalid choice: 'triplet'" in _argparse_refused(capsys, *base, "--loss", "triplet")
    assert "--batch-uses: expected a number ≥ 2" in _argparse_refused(capsys, *base, "--batch-uses", "1")
    # checks only TuneOptions makes are one line too, from --set and the [tune] section of --config alike
    assert "tune option lr: must be above 0" in _refused(capsys, *base, "--lr", "0")
    assert "--freeze-layers: expected a number ≥ 0" in _argparse_refused(capsys, *base, "--freeze-layers", "-1")
    assert "TOKENS must be a whole number or 'all', not 'x'" in _refused(capsys, *base, "--context-vector", "x:last")
    assert "--freeze-layers 6 leaves nothing to train: the model has 6 layers (freeze at most 5)" in _refused(
        capsys, *base, "--freeze-layers", "6"
    )
    assert "tune.epochs must be at least 1" in _refused(capsys, *base, "--set", "tune.epochs=0")
    config = write_lines(tmp_path / "tune.toml", ["[tune]", 'loss = "triplet"'])
    assert "tune.loss must be one of cosent, contrastive, auto" in _refused(capsys, *base, "--config", str(config))
    assert not (tmp_path / "out").exists()


def test_a_config_file_gives_the_sources_and_options(tmp_path, capsys, monkeypatch):
    """The [tune] section and --set reach tune_encoder as its arguments (training itself replaced)."""
    import wsd.tune.api

    seen = {}

    def fake(train, out, **kwargs):
        seen.update(train=train, out=out, **kwargs)
        raise wsd.tune.api.ConfigError("stop here")

    monkeypatch.setattr(wsd.tune.api, "tune_encoder", fake)
    wug = make_judged_wug(tmp_path / "wug")
    config = write_lines(
        tmp_path / "tune.toml",
        ["[tune]", f'train = ["wug:{wug}"]', 'exclude_lemmas = ["bat"]', "epochs = 3", "[output]", 'out = "m"'],
    )
    assert "stop here" in _refused(capsys, "--config", str(config), "--set", "tune.seed=7", "--no-progress")
    options = seen["options"]
    assert seen["train"] == [f"wug:{wug}"] and seen["out"] == "m" and seen["exclude_lemmas"] == ["bat"]
    assert (options.epochs, options.seed, options.progress, options.lr) == (3, 7, False, 2e-5)


def test_help_lists_tune_and_its_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "tune" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["tune", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "passes over the training pairs (default: 1)" in text and "(default: 2e-05)" in text


@pytest.mark.slow  # trains an encoder (2 steps), converts the new folder to OpenVINO
def test_a_tiny_run_trains_and_the_folder_loads(tmp_path, capsys):
    """Really trains (2 steps of 4 uses on a hand-made WUG folder); the summary names what a user needs."""
    import numpy as np

    from wsd.embed.encoder import Encoder

    wug = make_judged_wug(tmp_path / "wug")
    out = tmp_path / "tuned"
    argv = ["tune", "--train", f"wug:{wug}", "--out", str(out), "--validation-lemmas", "bat"]
    argv += ["--max-steps", "2", "--batch-uses", "4", "--lr", "1e-4", "--device", "cpu", "--no-progress"]
    assert main(argv) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    facts = json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))
    assert facts["training"]["steps"] == 2 and facts["validation_lemmas"] == ["bat"]
    assert facts["training_lemmas"] == ["bank", "mouse"]
    assert f"tuned all-MiniLM-L6-v2 on wug:{wug} (12 pairs)" in printed
    assert "2 steps, 1 of 1 epochs done, in " in printed
    assert "validation on 1 held-out lemma (6 pairs), step 0 → 2: score " in printed and "graded ρ" in printed
    assert f"model folder {out} (model card {out / 'README.md'}" in printed
    vectors = Encoder(model=str(out), device="cpu", precision="fp32").embed_spans(["the bank lent money"], [(4, 8)])
    assert vectors.shape == (1, 384) and np.isfinite(vectors).all()
    # the finished model is never trained over by another configuration without --overwrite
    weights = (out / "model.safetensors").read_bytes()
    assert main([*argv, "--seed", "3"]) == 2
    assert "different configuration (options.seed" in capsys.readouterr().err
    assert (out / "model.safetensors").read_bytes() == weights
    # --overwrite on a base that passes the folder check but cannot load (its config.json from another model):
    # the load fails before the claim would remove the finished model, which stays as it was
    import shutil

    from wsd.embed.models import bundled_model_path

    broken = tmp_path / "broken-base"
    shutil.copytree(bundled_model_path(), broken)
    config = json.loads((broken / "config.json").read_text(encoding="utf-8"))
    (broken / "config.json").write_text(json.dumps(config | {"intermediate_size": 999}), encoding="utf-8")
    assert main([*argv, "--model", str(broken), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert "do not match its config.json" in err and "Traceback" not in err
    assert (out / "model.safetensors").read_bytes() == weights
    assert json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))["training"]["steps"] == 2
