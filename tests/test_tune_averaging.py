"""``wsd tune --average``: weight averages of encoders (model soups, WiSE-FT), their facts, and the refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from wsd.cli import main
from wsd.embed.models import bundled_model_path
from wsd.errors import ConfigError
from wsd.io.layout import MODEL_CARD, TUNE_FILE
from wsd.tune.averaging import average_encoders, average_state, mixing_weights
from wsd.tune.card import training_overlap

#: The tensor the fake tuned models shift (a LayerNorm weight of the last layer).
SHIFTED = "encoder.layer.5.output.LayerNorm.weight"


def _model_folder(folder: Path, shift: float, facts: dict | None) -> Path:
    """A copy of the bundled model with ``SHIFTED`` moved by ``shift``, and ``facts`` as its wsd_tune.json."""
    folder.mkdir(parents=True)
    for item in bundled_model_path().iterdir():
        if item.is_dir():
            shutil.copytree(item, folder / item.name)
        elif item.name not in ("README.md", "model.safetensors"):
            shutil.copyfile(item, folder / item.name)
    state = load_file(bundled_model_path() / "model.safetensors")
    key = next(k for k in state if k.endswith(SHIFTED))
    state[key] = state[key] + shift
    save_file(state, folder / "model.safetensors", metadata={"format": "pt"})
    if facts is not None:
        (folder / TUNE_FILE).write_text(json.dumps(facts), encoding="utf-8")
    return folder


def _facts(lemmas: list[str], validation: list[str] = (), markers: bool = False) -> dict:
    options = {"layers": "sum-last-4", "pooling": "mean", "window_tokens": None, "markers": markers}
    source = {
        "name": "wordnet:x",
        "counts": dict.fromkeys(("lemmas", "uses", "pairs", "graded", "same", "different"), 1),
    }
    return {
        "format": "wsd-tune/1",
        "config": {"options": options | {"context_vector": None}},
        "base_model": {"name": "all-MiniLM-L6-v2", "fingerprint": "36e6ae3c05a39d05"},
        "sources": [source | {"lemmas": lemmas}],
        "training_lemmas": lemmas,
        "validation_lemmas": list(validation),
        "excluded_lemmas": ["part"],
    }


@pytest.fixture(scope="module")
def tuned(tmp_path_factory) -> dict[str, Path]:
    """Two fake tuned models (shifted by 1 and 3) with their own training lemmas, and one tuned for markers."""
    root = tmp_path_factory.mktemp("ingredients")
    return {
        "a": _model_folder(root / "a", 1.0, _facts(["bank", "mouse"], ["cell"])),
        "b": _model_folder(root / "b", 3.0, _facts(["plant"])),
        "markers": _model_folder(root / "markers", 2.0, _facts(["bank"], markers=True)),
    }


def _shifted(folder: Path) -> torch.Tensor:
    state = load_file(folder / "model.safetensors")
    return state[next(k for k in state if k.endswith(SHIFTED))]


def test_mixing_weights_are_normalised_and_checked():
    assert mixing_weights(3, None) == pytest.approx([1 / 3] * 3)
    assert mixing_weights(2, [1, 3]) == [0.25, 0.75]
    for count, weights, message in (
        (1, None, "at least two models"),
        (2, [1.0], "1 weights for 2 models"),
        (2, [1.0, -1.0], "non-negative"),
        (2, [0.0, 0.0], "not all zero"),
        (2, [float("nan"), 1.0], "finite"),
    ):
        with pytest.raises(ConfigError, match=message):
            mixing_weights(count, weights)


def test_average_state_is_the_weighted_mean_and_keeps_integer_buffers():
    a = {"w": torch.tensor([0.0, 2.0]), "ids": torch.tensor([0, 1, 2])}
    b = {"w": torch.tensor([4.0, 2.0]), "ids": torch.tensor([0, 1, 2])}
    mean = average_state([a, b], [0.25, 0.75], ["a", "b"])
    assert torch.allclose(mean["w"], torch.tensor([3.0, 2.0]))
    assert torch.equal(mean["ids"], a["ids"]) and mean["ids"].dtype == torch.int64
    with pytest.raises(ConfigError, match="the buffer ids differs"):
        average_state([a, {**b, "ids": torch.tensor([0, 1, 3])}], [0.5, 0.5], ["a", "b"])
    with pytest.raises(ConfigError, match="shape"):
        average_state([a, {**b, "w": torch.zeros(3)}], [0.5, 0.5], ["a", "b"])
    with pytest.raises(ConfigError, match="differ in names"):
        average_state([a, {"w": b["w"]}], [0.5, 0.5], ["a", "b"])


def test_a_soup_is_the_mean_of_the_weights_and_keeps_every_training_lemma(tuned, tmp_path):
    out = tmp_path / "soup"
    result = average_encoders([tuned["a"], tuned["b"]], out)
    base = _shifted(bundled_model_path())
    assert torch.allclose(_shifted(out), base + 2.0, atol=1e-5)  # (1 + 3) / 2
    facts = json.loads((out / TUNE_FILE).read_text(encoding="utf-8"))
    assert facts == result.facts | {} and facts["training_lemmas"] == ["bank", "mouse", "plant"]
    assert facts["validation_lemmas"] == ["cell"] and facts["excluded_lemmas"] == ["part"]
    assert [row["weight"] for row in facts["average"]] == [0.5, 0.5]
    assert facts["config"]["word_vectors"]["layers"] == "sum-last-4"
    with pytest.warns(UserWarning, match="tuned on 3 of the evaluated lemmas"):
        assert training_overlap(str(out), ["Plant", "cell.n", "bank_nn", "tree"]) == ["bank", "cell", "plant"]
    card = (out / MODEL_CARD).read_text(encoding="utf-8")
    assert "An average of 2 encoders" in card and f"| `{tuned['b']}` | 0.5000 | yes |" in card
    assert "averaged 2 encoders" in result.summary()


@pytest.mark.slow  # converts the averaged folder to OpenVINO
def test_wise_ft_interpolates_the_base_model_and_the_folder_loads_everywhere(tuned, tmp_path):
    out = tmp_path / "wise"
    average_encoders([None, tuned["b"]], out, weights=[0.25, 0.75])
    assert torch.allclose(_shifted(out), _shifted(bundled_model_path()) + 2.25, atol=1e-5)
    facts = json.loads((out / TUNE_FILE).read_text(encoding="utf-8"))
    assert [row["tuned"] for row in facts["average"]] == [False, True] and facts["average"][0]["location"] == "bundled"
    assert facts["training_lemmas"] == ["plant"]
    from transformers import AutoModel

    from wsd.embed.encoder import Encoder

    model = AutoModel.from_pretrained(out)
    weight = dict(model.named_parameters())[SHIFTED]
    assert torch.allclose(weight, _shifted(out))
    vectors = Encoder(str(out), device="cpu", precision="fp32").embed_spans(["the bank of the river"], [(4, 8)])
    assert vectors.shape == (1, 384)


def test_averages_that_make_no_sense_are_refused(tuned, tmp_path):
    with pytest.raises(ConfigError, match="different word vectors \\(markers False vs True\\)"):
        average_encoders([tuned["a"], tuned["markers"]], tmp_path / "x")
    from transformers import BertConfig, BertModel

    small = tmp_path / "small"
    config = BertConfig(
        vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37
    )
    BertModel(config).save_pretrained(small)
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        if (bundled_model_path() / name).is_file():
            shutil.copyfile(bundled_model_path() / name, small / name)
    with pytest.raises(ConfigError, match="cannot average"):
        average_encoders([tuned["a"], small], tmp_path / "y")
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_the_cli_averages_and_refuses_in_one_line(tuned, tmp_path, capsys):
    out = tmp_path / "soup"
    args = ["tune", "--average", str(tuned["a"]), "--average", str(tuned["b"]), "--out", str(out)]
    assert main([*args, "--average-weights", "1,3"]) == 0
    assert "averaged 2 encoders" in capsys.readouterr().out
    assert torch.allclose(_shifted(out), _shifted(bundled_model_path()) + 2.5, atol=1e-5)
    before = (tuned["a"] / "model.safetensors").read_bytes()
    for extra, message in (
        (["--average-weights", "1,x"], "--average-weights takes numbers"),
        (["--average-weights", "1"], "1 weights for 2 models"),
        (["--lr", "1e-4"], "--average does not train: --lr would have no effect"),
        (["--exclude-lemmas", "bank"], "--exclude-lemmas would have no effect"),
        (["--train", "wordnet:x"], "without --train"),
        ([], "different configuration"),  # the same folder, other weights: not without --overwrite
    ):
        assert main([*args, *extra]) == 2, extra
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (extra, err)
    into_input = ["tune", "--average", str(tuned["a"]), "--average", str(tuned["b"]), "--out", str(tuned["a"])]
    assert main(into_input) == 2
    assert "choose an --out outside every input" in capsys.readouterr().err
    assert (tuned["a"] / "model.safetensors").read_bytes() == before
    (tmp_path / "notes.txt").write_text("not a model", encoding="utf-8")
    for other in (tmp_path / "notes.txt", tmp_path / "absent"):
        assert main(["tune", "--average", str(tuned["a"]), "--average", str(other), "--out", str(tmp_path / "f")]) == 2
        err = capsys.readouterr().err
        assert str(other) in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "f").exists()
    assert main(["tune", "--average", str(tuned["a"]), "--out", str(tmp_path / "one")]) == 2
    assert "at least two models" in capsys.readouterr().err
    assert main([*args, "--overwrite"]) == 0
    assert torch.allclose(_shifted(out), _shifted(bundled_model_path()) + 2.0, atol=1e-5)
