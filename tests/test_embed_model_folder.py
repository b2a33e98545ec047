"""Broken model folders, each built from the bundled model's files: one clear ModelError naming the folder."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from wsd.errors import ModelError


def _copy_bundled(folder: Path) -> Path:
    from wsd.embed.models import bundled_model_path

    shutil.copytree(bundled_model_path(), folder)
    return folder


def _edit_config(folder: Path, **changes: object) -> None:
    path = folder / "config.json"
    path.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8")) | changes), encoding="utf-8")


def _no_tokenizer(folder: Path) -> None:
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        (folder / name).unlink()


def _tiny_vocabulary(folder: Path) -> None:
    (folder / "tokenizer.json").unlink()
    (folder / "vocab.txt").write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nbank\n", encoding="utf-8")


def _truncate(name: str) -> Callable[[Path], None]:
    def truncate(folder: Path) -> None:
        path = folder / name
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])

    return truncate


def _truncated_bin(folder: Path) -> None:
    import torch
    from safetensors.torch import load_file

    weights = load_file(folder / "model.safetensors")
    (folder / "model.safetensors").unlink()
    torch.save(weights, folder / "pytorch_model.bin")
    _truncate("pytorch_model.bin")(folder)


def _replace_folder_with_file(folder: Path) -> None:
    shutil.rmtree(folder)
    folder.write_text("not a model", encoding="utf-8")


def _empty(folder: Path) -> None:
    shutil.rmtree(folder)
    folder.mkdir()


def _config_bytes(data: bytes) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        (folder / "config.json").write_bytes(data)

    return write


CASES: list[tuple[str, Callable[[Path], None], str]] = [
    ("no tokenizer files", _no_tokenizer, r"has no tokenizer files"),
    ("a 6-token vocabulary", _tiny_vocabulary, r"has only 6 tokens.*\[UNK\]"),
    ("truncated safetensors", _truncate("model.safetensors"), r"weights file .*model\.safetensors is damaged"),
    ("truncated pytorch_model.bin", _truncated_bin, r"its weights file is damaged"),
    ("no weights", lambda f: (f / "model.safetensors").unlink(), r"has no weights"),
    ("hidden_size 768 for 384-wide weights", lambda f: _edit_config(f, hidden_size=768), r"hidden_size 768 .* 384"),
    ("hidden_size not a multiple of the heads", lambda f: _edit_config(f, hidden_size=512), r"hidden_size 512 .* 384"),
    ("more layers than the weights hold", lambda f: _edit_config(f, num_hidden_layers=8), r"lack \d+ parameters"),
    ("wider feed-forward than the weights", lambda f: _edit_config(f, intermediate_size=2048), r"do not match"),
    ("a file, not a folder", _replace_folder_with_file, r"is a file, not a model folder"),
    ("an empty folder", _empty, r"is empty"),
    ("no config.json", lambda f: (f / "config.json").unlink(), r"no config\.json"),
    ("config.json not JSON", _config_bytes(b"{hidden_size: 384"), r"config\.json is not valid JSON \(line 1"),
    ("config.json not UTF-8", _config_bytes(b'{"model_type": "bert\xff"}'), r"config\.json is not UTF-8"),
    ("config.json a list", _config_bytes(b"[1, 2]"), r"config\.json holds a JSON list"),
]


@pytest.mark.parametrize(("label", "damage", "message"), CASES, ids=[case[0] for case in CASES])
def test_a_broken_model_folder_is_one_clear_error_naming_it(tmp_path, label, damage, message):
    from wsd.embed.encoder import Encoder

    folder = _copy_bundled(tmp_path / "model")
    damage(folder)
    with pytest.raises(ModelError, match=message) as caught:
        Encoder(model=str(folder), precision="fp32", device="cpu")
    text = str(caught.value)
    assert len(text.splitlines()) == 1, text
    assert str(folder) in text, text


def test_an_intact_copy_of_the_bundled_model_loads(tmp_path, encoder):
    from wsd.embed.encoder import Encoder

    folder = _copy_bundled(tmp_path / "model")
    copy = Encoder(model=str(folder), precision="fp32", device="cpu")
    assert copy.loaded.revision is None and copy.dim == encoder.dim
    # the same model in another folder is the same model: runs and sense models made with one accept the other
    assert copy.loaded.fingerprint == encoder.loaded.fingerprint


def test_the_fingerprint_changes_with_what_the_model_computes(tmp_path, encoder):
    from wsd.embed.encoder import Encoder

    folder = _copy_bundled(tmp_path / "model")
    _edit_config(folder, layer_norm_eps=1e-5)  # a setting that changes the vectors
    changed = Encoder(model=str(folder), precision="fp32", device="cpu")
    assert changed.loaded.fingerprint != encoder.loaded.fingerprint


def test_read_model_config_reads_what_is_at_hand_and_nothing_else(tmp_path, monkeypatch):
    """A folder's, the bundled model's, a cached Hub model's ``config.json``; None for a model found nowhere, a Hub
    name not in the cache, an empty, truncated, non-UTF-8 or non-object ``config.json`` (loading names those)."""
    from wsd.embed.models import read_model_config

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert read_model_config(None)["model_type"] == "bert"
    folder = _copy_bundled(tmp_path / "model")
    _edit_config(folder, model_type="mpnet")
    assert read_model_config(str(folder))["model_type"] == "mpnet"
    assert read_model_config(str(tmp_path / "nowhere")) is None
    assert read_model_config("someone/not-cached") is None
    for content in (b"", b'{"model_type": "be', b"\xff\xfe{}", b"[1, 2]"):
        (folder / "config.json").write_bytes(content)
        assert read_model_config(str(folder)) is None
