"""Issue 39 on ``wsd tune``'s inputs: outputs over the models, weights beyond floats, MCL-WiC ids and lemmas, one
source under two spellings, non-ASCII digits as indices, out-of-range seeds, and a model that fails to load.

Each case is refused in one line (exit 2 on the command line) before anything is written, or leaves nothing
behind; every test here failed before its fix.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch
from helpers import make_judged_wug

from wsd.cli import main
from wsd.errors import ConfigError, InputError
from wsd.options import TuneOptions
from wsd.tune import wic
from wsd.tune.averaging import average_state, mixing_weights
from wsd.tune.sources import read_sources


@pytest.fixture()
def no_model(monkeypatch):
    """Loading an encoder fails the test: every refusal here must come before a model loads."""
    from wsd.embed.encoder import Encoder

    def refuse(*args, **kwargs):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(Encoder, "__init__", refuse)


def _refused(capsys, *argv: str) -> str:
    code = main(["tune", *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def _argparse_refused(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(["tune", *argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _fake_model(folder: Path) -> Path:
    """A folder that stands for a model (never loaded: the refusals come first)."""
    folder.mkdir(parents=True)
    (folder / "config.json").write_text('{"num_hidden_layers": 6}', encoding="utf-8")
    (folder / "model.safetensors").write_bytes(b"weights of the user")
    return folder


# ---------------------------------------------------------------------------------------- 1. --out and the models
@pytest.mark.parametrize("option", ["--model", "--teacher"])
@pytest.mark.parametrize("overwrite", [False, True])
def test_an_out_that_is_inside_or_around_the_model_or_teacher_is_refused(tmp_path, capsys, no_model, option, overwrite):
    wug = make_judged_wug(tmp_path / "wug")
    model = _fake_model(tmp_path / "models" / "base")
    before = _snapshot(tmp_path / "models")
    extra = ["--overwrite"] if overwrite else []
    for out, relation in ((model, "is the"), (model / "tuned", "lies inside the"), (model.parent, "contains the")):
        err = _refused(capsys, "--train", f"wug:{wug}", option, str(model), "--out", str(out), *extra)
        assert f"--out {out} {relation} {option} input {model}" in err
    assert _snapshot(tmp_path / "models") == before and not (model / "tuned").exists()


def test_a_hub_name_as_model_is_not_a_path(tmp_path, capsys, monkeypatch):
    """``--model org/name`` with ``--out org``: a Hub name is no input folder, so ``org`` does not contain it; the
    model fails to load (offline, not cached), and the output folder the command made is gone again (case 7)."""
    monkeypatch.chdir(tmp_path)
    wug = make_judged_wug(tmp_path / "wug")
    err = _refused(capsys, "--train", f"wug:{wug}", "--model", "nobody/no-model", "--out", "nobody")
    assert "'nobody/no-model'" in err and "input" not in err and "Hugging Face cache" in err
    assert not (tmp_path / "nobody").exists()


@pytest.mark.parametrize("option", ["--model", "--teacher"])
def test_an_out_that_would_take_the_place_of_a_hub_name_is_refused(tmp_path, capsys, no_model, monkeypatch, option):
    """``--out org/name`` would make a folder that ``--model org/name`` then names instead of the Hub model."""
    monkeypatch.chdir(tmp_path)
    wug = make_judged_wug(tmp_path / "wug")
    for out in ("nobody/no-model", "nobody/no-model/tuned"):
        err = _refused(capsys, "--train", f"wug:{wug}", option, "nobody/no-model", "--out", out)
        assert f"--out {out} would make the folder nobody/no-model, which {option} nobody/no-model" in err
    assert not (tmp_path / "nobody").exists()


# ---------------------------------------------------------------------------------------- 2. averaging weights
def test_huge_weights_are_normalised_without_overflow():
    assert mixing_weights(2, [1e308, 1e308]) == [0.5, 0.5]
    assert mixing_weights(3, [1e308, 1e308, 0.0]) == [0.5, 0.5, 0.0]
    assert mixing_weights(2, [5e-324, 5e-324]) == [0.5, 0.5]
    for weights, message in (
        ([float("inf"), 1.0], "finite"),
        ([1e-320, 1e300], "too small next to"),
        ([0.0, -0.0], "not all zero"),
    ):
        with pytest.raises(ConfigError, match=message):
            mixing_weights(2, weights)


def test_an_average_that_is_not_finite_is_refused():
    a = {"encoder.w": torch.tensor([0.0, float("nan")])}
    b = {"encoder.w": torch.tensor([1.0, 1.0])}
    with pytest.raises(ConfigError, match=r"encoder\.w .*not finite.*\ba\b"):
        average_state([a, b], [0.5, 0.5], ["a", "b"])


def test_the_cli_averages_huge_weights_into_the_mean(tmp_path, capsys):
    """``--average-weights 1e308,1e308`` made an all-zero model (exit 0); now the mean of the two (here one model)."""
    from safetensors.torch import load_file

    from wsd.embed.models import bundled_model_path

    out = tmp_path / "soup"
    argv = ["tune", "--average", "default", "--average", "default", "--average-weights", "1e308,1e308"]
    assert main([*argv, "--out", str(out)]) == 0, capsys.readouterr().err
    base, mean = load_file(bundled_model_path() / "model.safetensors"), load_file(out / "model.safetensors")
    for name in ("encoder.layer.5.output.LayerNorm.weight", "embeddings.word_embeddings.weight"):
        shifted = next(mean[k] for k in mean if k.endswith(name))
        assert shifted.abs().max() > 0 and torch.allclose(shifted, next(base[k] for k in base if k.endswith(name)))
    facts = json.loads((out / "wsd_tune.json").read_text(encoding="utf-8"))
    assert [row["weight"] for row in facts["average"]] == [0.5, 0.5]
    other = tmp_path / "other"
    err = _refused(capsys, *argv[1:5], "--average-weights", "1e309,1", "--out", str(other))
    assert "finite" in err and not other.exists()


# ---------------------------------------------------------------------------------------- 3. MCL-WiC
def _mclwic(folder: Path, items: list[dict], tags: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "training.en-en.data"
    data.write_text(json.dumps(items), encoding="utf-8")
    (folder / "training.en-en.gold").write_text(json.dumps(tags), encoding="utf-8")
    return data


def _item(ident: str, lemma: object = "play", first: str = "a key play", second: str = "a musical play") -> dict:
    return {
        "id": ident,
        "lemma": lemma,
        "sentence1": first,
        "sentence2": second,
        "ranges1": f"{len(first) - 4}-{len(first)}",
        "ranges2": f"{len(second) - 4}-{len(second)}",
    }


def test_a_gold_id_given_twice_with_other_tags_is_an_error(tmp_path):
    tags = [{"id": "t.0", "tag": "T"}, {"id": "t.1", "tag": "F"}, {"id": "t.0", "tag": "F"}]
    data = _mclwic(tmp_path, [_item("t.0"), _item("t.1", second="the play")], tags)
    with pytest.raises(InputError, match=r"training\.en-en\.gold: item 3: id 't\.0' .*item 1"):
        wic.load(data)
    # the same tag twice says nothing new: read as once
    _mclwic(tmp_path, [_item("t.0"), _item("t.1", second="the play")], [*tags[:2], {"id": "t.0", "tag": "T"}])
    assert list(wic.load(data).pairs["label"]) == [1.0, 0.0]


def test_a_data_id_given_twice_is_an_error(tmp_path):
    """Two pairs under one id would share the ids of their uses (one use standing for two)."""
    data = _mclwic(tmp_path, [_item("t.0"), _item("t.0", second="the play")], [{"id": "t.0", "tag": "T"}])
    with pytest.raises(InputError, match=r"training\.en-en\.data: item 2: id 't\.0' is given twice \(item 1\)"):
        wic.load(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"lemma": None}, "item 1 \\(id 't.0'\\): lemma null is not a string"),
        ({"lemma": 5}, "item 1 \\(id 't.0'\\): lemma 5 is not a string"),
        ({"lemma": ["play"]}, "item 1 \\(id 't.0'\\): lemma \\[\"play\"\\] is not a string"),
        ({"sentence1": None}, "item 1 \\(id 't.0'\\): sentence1 null is not a string"),
        ({"id": None}, "item 1: id null is neither a string nor a whole number"),
        ({"id": {"a": 1}}, "item 1: id .* is neither a string nor a whole number"),
    ],
)
def test_mclwic_fields_of_another_type_are_an_error(tmp_path, change, message):
    item = _item("t.0") | change
    data = _mclwic(tmp_path, [item], [{"id": "t.0", "tag": "T"}])
    with pytest.raises(InputError, match=f"training\\.en-en\\.data: {message}"):
        wic.load(data)
    if "lemma" in change:  # --exclude reads the lemmas alone
        with pytest.raises(InputError, match=message):
            wic.lemmas(data)


# ---------------------------------------------------------------------------------------- 4. one source, two names
def test_one_source_under_two_spellings_or_a_link_is_refused(tmp_path, capsys, no_model, monkeypatch):
    monkeypatch.chdir(tmp_path)
    wug = make_judged_wug(tmp_path / "data" / "wug")
    (tmp_path / "link").symlink_to(tmp_path / "data")
    (tmp_path / "other").mkdir()
    for second in ("other/../data/wug", str(wug), "link/wug", "./data/wug/"):
        err = _refused(capsys, "--train", "wug:data/wug", "--train", f"wug:{second}", "--out", "out")
        assert f"--train wug:{second} is the same data as wug:data/wug" in err
    assert not (tmp_path / "out").exists()


def test_one_file_under_two_kinds_is_the_same_source(tmp_path):
    rows = ["id\ttarget\ttext\tstart\tend\tsense", "x\tmouse\tmouse\t0\t5\ts", "y\tmouse\tmouse here\t0\t5\tt"]
    file = tmp_path / "senses.tsv"
    file.write_text("".join(f"{row}\n" for row in rows), encoding="utf-8")
    os.symlink(file, tmp_path / "again.tsv")
    with pytest.raises(InputError, match="is the same data as"):
        read_sources([f"generic:{file}", f"uses:{tmp_path / 'again.tsv'}"])


def test_one_folder_under_two_kinds_holds_two_datasets(tmp_path):
    """A folder of datasets is read by kind (``semeval2013:DIR``, ``semeval2010:DIR``): not the same source."""
    from wsd.tune.sources import check_distinct_sources

    check_distinct_sources([f"semeval2013:{tmp_path}", f"semeval2010:{tmp_path}"])
    with pytest.raises(InputError, match="is the same data as"):
        check_distinct_sources([f"semeval2013:{tmp_path}", f"semeval2013:{tmp_path}/."])


# ---------------------------------------------------------------------------------------- 5. non-ASCII digits
@pytest.mark.parametrize("indices", ["²-1", "0-٣", "１-0", "0-1²"])
def test_a_wic_token_index_of_other_digits_is_one_error(tmp_path, indices):
    data = tmp_path / "train.data.txt"
    data.write_text(f"bank\tN\t{indices}\tbank of it here\tthe bank lent it\n", encoding="utf-8")
    (tmp_path / "train.gold.txt").write_text("T\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"train\.data\.txt:1: token index '.+' is not a number"):
        wic.load(data)


def test_mclwic_ranges_of_other_digits_are_one_error(tmp_path):
    item = _item("t.0") | {"ranges1": "٦-١٠"}
    data = _mclwic(tmp_path, [item], [{"id": "t.0", "tag": "T"}])
    with pytest.raises(InputError, match="ranges '٦-١٠' are not 'start-end"):
        wic.load(data)


@pytest.mark.parametrize("span", ["²:4", "0:٤", "0:4²"])
def test_a_wug_target_index_of_other_digits_is_one_error(tmp_path, span):
    from wsd.evaluate.datasets.wug import _span

    with pytest.raises(InputError, match=f"x.csv:3: indexes_target_token '{span}' is not 'start:end'"):
        _span(span, "bank of the river", "x.csv:3")
    wug = make_judged_wug(tmp_path / "wug")
    uses = wug / "data" / "bank_nn" / "uses.csv"
    lines = uses.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace("\t0:4\t", f"\t{span}\t")
    uses.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"uses\.csv:2: indexes_target_token"):
        read_sources([f"wug:{wug}"])


# ---------------------------------------------------------------------------------------- 6. integer options
def test_a_seed_numpy_cannot_take_is_refused_before_anything(tmp_path, capsys, no_model):
    base = ["--train", f"wug:{make_judged_wug(tmp_path / 'wug')}", "--out", str(tmp_path / "out")]
    assert "--seed: expected a number ≥ 0, got -1" in _argparse_refused(capsys, *base, "--seed", "-1")
    assert "--seed: expected a number ≤ 4294967295" in _argparse_refused(capsys, *base, "--seed", str(2**32))
    assert "--seed: expected a number ≤ 4294967295" in _argparse_refused(capsys, *base, "--seed", "9" * 30)
    assert "tune.seed must be at least 0, not -1" in _refused(capsys, *base, "--set", "tune.seed=-1")
    assert "tune.seed must be at most 4294967295" in _refused(capsys, *base, "--set", f"tune.seed={2**32}")
    assert not (tmp_path / "out").exists()
    assert TuneOptions(seed=2**32 - 1).seed == 2**32 - 1
    for seed, message in ((-1, "at least 0"), (2**32, "at most 4294967295")):
        with pytest.raises(ConfigError, match=f"tune option seed: must be {message}"):
            TuneOptions(seed=seed)


@pytest.mark.parametrize("command", ["cluster", "run", "report"])
def test_the_seed_of_other_commands_has_the_same_range(tmp_path, capsys, command):
    """A seed outside 0 to 2**32 - 1 went unchecked to numpy and scikit-learn, which refuse it; now the parser
    (and the configuration) refuse it in one line."""
    for value, message in (("-1", "expected a number ≥ 0, got -1"), (str(2**32), "expected a number ≤ 4294967295")):
        with pytest.raises(SystemExit) as exited:
            main([command, "--seed", value])
        assert exited.value.code == 2
        err = capsys.readouterr().err.strip()
        assert f"--seed: {message}" in err and len(err.splitlines()) == 1, err
    if command == "cluster":  # a setting of the configuration too (report's seed is a flag only)
        code = main([command, "--run", str(tmp_path / "run"), "--set", f"senses.seed={2**32}"])
        err = capsys.readouterr().err.strip()
        assert code == 2 and "senses.seed must be at most 4294967295" in err, err


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--lr", "nan", "tune.lr must be a number, not the number NaN"),
        ("--lr", "inf", "tune.lr must be a number, not the number Infinity"),
        ("--lr", "-1", "tune option lr: must be above 0 and finite, not -1.0"),
        ("--scale", "inf", "tune.scale must be a number, not the number Infinity"),
        ("--margin", "1e999", "tune.margin must be a number, not the number Infinity"),
        ("--warmup-fraction", "nan", "tune.warmup_fraction must be a number, not the number NaN"),
    ],
)
def test_float_options_that_are_not_finite_are_refused(tmp_path, capsys, no_model, flag, value, message):
    base = ["--train", f"wug:{make_judged_wug(tmp_path / 'wug')}", "--out", str(tmp_path / "out")]
    assert message in _refused(capsys, *base, flag, value)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["lr", "scale", "margin"])
@pytest.mark.parametrize("value", [float("inf"), float("nan"), -1.0])
def test_tune_options_refuse_what_is_not_a_finite_positive_number(name, value):
    """The command line's configuration refuses NaN and infinity; the library's TuneOptions did not."""
    with pytest.raises(ConfigError, match=f"tune option {name}: must be above 0 and finite, not {value}"):
        TuneOptions(**{name: value})


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--epochs", "0", "--epochs: expected a number ≥ 1, got 0"),
        ("--epochs", "1000000000", "--epochs: expected a number ≤ 1000, got 1000000000"),
        ("--batch-uses", "0", "--batch-uses: expected a number ≥ 2, got 0"),
        ("--max-steps", "-5", "--max-steps: expected a number ≥ 1, got -5"),
        ("--eval-steps", "0", "--eval-steps: expected a number ≥ 1, got 0"),
        ("--checkpoint-steps", "0", "--checkpoint-steps: expected a number ≥ 1, got 0"),
        ("--validation-max-pairs", "0", "--validation-max-pairs: expected a number ≥ 1, got 0"),
        ("--window-tokens", "-1", "--window-tokens: expected a number ≥ 0, got -1"),
        ("--patience", "0", "--patience: expected a number ≥ 1, got 0"),
    ],
)
def test_integer_options_out_of_range_are_refused_by_the_parser(tmp_path, capsys, no_model, flag, value, message):
    base = ["--train", f"wug:{make_judged_wug(tmp_path / 'wug')}", "--out", str(tmp_path / "out")]
    assert message in _argparse_refused(capsys, *base, flag, value)
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------------------- 7. a model that fails
def test_a_model_that_does_not_load_leaves_no_output(tmp_path, capsys):
    wug = make_judged_wug(tmp_path / "wug")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("not a model", encoding="utf-8")
    for model, message in ((notes, "no config.json"), (tmp_path / "absent", "not found")):
        out = tmp_path / "out"
        err = _refused(capsys, "--train", f"wug:{wug}", "--model", str(model), "--out", str(out))
        assert message in err and str(model) in err
        assert not out.exists()
    # an empty folder of the user's stays as it was: empty, and the user's
    empty = tmp_path / "empty"
    empty.mkdir()
    _refused(capsys, "--train", f"wug:{wug}", "--model", "nobody/no-model", "--out", str(empty))
    assert empty.is_dir() and not any(empty.iterdir())
