"""One configuration for every command: --config, --set, config.toml in every output folder, wsd config."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wsd.cli import main
from wsd.io.layout import CONFIG_FILE, LABELS_FILE, RUN_DIR, SENSES_DIR
from wsd.io.run_reader import load_run

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"


def test_run_config_toml_reproduces_the_run(tmp_path, capsys, monkeypatch) -> None:
    first = tmp_path / "first"
    argv = ["run", "--corpus", str(DEMO_DIR / "corpus.txt"), "--targets", "bank:banks,bat:bats", "--out", str(first)]
    assert main([*argv, "--precision", "fp32", "--set", "senses.method=kmeans", "--no-progress"]) == 0
    recorded = tomllib.loads((first / CONFIG_FILE).read_text(encoding="utf-8"))
    assert recorded["senses"]["method"] == "kmeans" and recorded["embedding"]["precision"] == "fp32"
    assert recorded["scan"]["corpus"] == str((DEMO_DIR / "corpus.txt").resolve())
    assert recorded["output"]["out"] == str(first.resolve())

    monkeypatch.chdir(tmp_path)  # the recorded paths are absolute: it runs from anywhere
    second = tmp_path / "second"
    assert main(["run", "--config", str(first / CONFIG_FILE), "--out", str(second), "--no-progress"]) == 0
    capsys.readouterr()
    for folder in (first, second):
        assert (folder / SENSES_DIR / LABELS_FILE).is_file()
    labels = [pd.read_parquet(f / SENSES_DIR / LABELS_FILE) for f in (first, second)]
    pd.testing.assert_frame_equal(labels[0], labels[1])
    (occ_a, vec_a), (occ_b, vec_b) = load_run(first / RUN_DIR), load_run(second / RUN_DIR)
    pd.testing.assert_frame_equal(occ_a, occ_b)
    assert np.array_equal(np.asarray(vec_a), np.asarray(vec_b))
    again = tomllib.loads((second / CONFIG_FILE).read_text(encoding="utf-8"))
    assert again == recorded | {"output": recorded["output"] | {"out": str(second.resolve())}}


def test_embed_and_cluster_record_their_configuration(tmp_path, capsys) -> None:
    config = tmp_path / "job.toml"
    config.write_text(
        f"""
[scan]
corpus = "{(DEMO_DIR / "corpus.txt").as_posix()}"
targets = "bank"

[embedding]
precision = "fp32"
layers = "last"

[senses]
method = "agglomerative"
k = 2

[output]
examples = 3
""",
        encoding="utf-8",
    )
    run = tmp_path / "run"
    assert main(["embed", "--config", str(config), "--out", str(run), "--no-progress"]) == 0
    embedded = tomllib.loads((run / CONFIG_FILE).read_text(encoding="utf-8"))
    assert embedded["embedding"]["layers"] == "last" and "senses" not in embedded
    assert main(["cluster", "--config", str(config), "--run", str(run), "--no-progress"]) == 0
    clustered = tomllib.loads((run / SENSES_DIR / CONFIG_FILE).read_text(encoding="utf-8"))
    assert clustered["senses"]["method"] == "agglomerative" and clustered["senses"]["k"] == 2
    assert clustered["output"]["examples"] == 3 and clustered["senses"]["run"] == str(run.resolve())
    assert "senses of 1 targets (bank: 2)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[evaluation]\ngraded = "false"\n', 'evaluation.graded must be true or false, not the string "false"'),
        ('[evaluation]\nseeds = "3"\n', 'evaluation.seeds must be a whole number, not the string "3"'),
        ('[senses]\nmethd = "ward"\n', "unknown key 'methd' in [senses] (valid keys: run, recipe, seed, method"),
    ],
)
def test_bad_config_files_exit_2_naming_the_key(tmp_path, capsys, content, message) -> None:
    config = tmp_path / "eval.toml"
    config.write_text(content, encoding="utf-8")
    assert main(["evaluate", "--config", str(config), "--dataset", "generic", "--data", "x.tsv"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("wsd evaluate: error: ") and message in err[0]
    assert main(["config", "validate", str(config)]) == 2
    assert message in capsys.readouterr().err


def test_set_of_a_setting_the_command_does_not_use_is_an_error(tmp_path, capsys) -> None:
    argv = ["embed", "--corpus", str(DEMO_DIR / "corpus.txt"), "--targets", "bank", "--out", str(tmp_path / "r")]
    assert main([*argv, "--set", "senses.method=kmeans"]) == 2
    assert "senses.method: wsd embed does not use this setting" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_config_show_prints_valid_toml_defaults(tmp_path, capsys) -> None:
    assert main(["config", "show", "--command", "run"]) == 0
    text = capsys.readouterr().out
    defaults = tomllib.loads(text)
    assert set(defaults) == {"scan", "embedding", "senses", "evaluation", "output", "change"}
    assert defaults["senses"]["method"] == "ward" and defaults["embedding"]["context_vector"] == "20:last:0.5"
    assert "# corpus is not set" in text
    saved = tmp_path / "run.toml"
    saved.write_text(text, encoding="utf-8")
    assert main(["config", "validate", str(saved), "--command", "run"]) == 0
    assert "valid" in capsys.readouterr().out
    assert main(["config", "show"]) == 0
    assert set(tomllib.loads(capsys.readouterr().out)) == {
        "scan",
        "embedding",
        "senses",
        "evaluation",
        "output",
        "execution",
        "change",
        "tune",
    }


def test_the_docs_example_is_a_valid_configuration(tmp_path, capsys) -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text(encoding="utf-8")
    example = page.split("```toml\n", 1)[1].split("```", 1)[0]
    study = tmp_path / "study.toml"
    study.write_text(example, encoding="utf-8")
    for command in ("embed", "cluster", "run", "evaluate"):
        assert main(["config", "validate", str(study), "--command", command]) == 0, capsys.readouterr().err
    settings = tomllib.loads(example)
    assert settings["senses"]["k_range"] == [2, 5] and settings["output"]["out"] == "runs/study"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--one-sense-below", "low"], "--one-sense-below: invalid float value: 'low'"),
        (["--one-sense-below", "nan"], "senses.one_sense_below"),
        (["--set", 'senses.one_sense_below="0.1"'], "senses.one_sense_below"),
        (["--one-sense-below", "0.1", "--method", "gmm", "--selection", "bic"], "start k_range at 1"),
    ],
)
def test_bad_one_sense_threshold_exits_2_naming_it(tmp_path, capsys, argv, message) -> None:
    try:
        code = main(["evaluate", "--dataset", "generic", "--data", str(tmp_path / "x.tsv"), *argv])
    except SystemExit as exit:  # argparse's own type check
        code = exit.code
    assert code == 2
    assert message in capsys.readouterr().err
