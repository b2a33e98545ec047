"""``wsd tune --recipe``: a named tuned encoder built once into wsd's model cache and loaded as ``wsd:NAME``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_tune_sources import make_wordnet

from wsd.cli import main
from wsd.embed.built_models import built_model_folder, recipe_folder
from wsd.errors import ConfigError, ModelError
from wsd.schema import TUNE_RECIPES
from wsd.tune import recipes


@pytest.fixture()
def caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model cache and no WordNet anywhere this machine might have one."""
    monkeypatch.setenv("WSD_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.delenv("WNHOME", raising=False)
    monkeypatch.setattr(recipes, "_wordnet_candidates", lambda: [tmp_path / "nowhere" / "wordnet"])
    return tmp_path


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def test_the_schema_and_the_recipes_name_the_same_recipes() -> None:
    assert tuple(recipes.RECIPES) == TUNE_RECIPES == ("sense-minilm",)
    assert recipes.resolve_recipe("sense-minilm").source_kind == "wordnet"
    with pytest.raises(ConfigError, match="unknown tuning recipe 'nope'; choose from sense-minilm"):
        recipes.resolve_recipe("nope")


def test_a_model_never_built_or_unknown_is_one_line_naming_the_command(caches: Path, capsys) -> None:
    with pytest.raises(ModelError, match=r"not built yet .*`wsd tune --recipe sense-minilm`"):
        built_model_folder("wsd:sense-minilm")
    with pytest.raises(ModelError, match="wsd:NAME names a tuning recipe, one of sense-minilm"):
        built_model_folder("wsd:nope")
    err = _refused(capsys, "embed", "--corpus", "data/demo/corpus.jsonl", "--targets", "mouse", "--model",
                   "wsd:sense-minilm", "--out", str(caches / "run"))  # fmt: skip
    assert "build it once with `wsd tune --recipe sense-minilm`" in err
    assert not (caches / "run" / "vectors.npy").exists()


def test_the_recipe_refuses_options_that_contradict_it(caches: Path, capsys) -> None:
    wordnet = make_wordnet(caches / "wordnet")
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--max-steps", "5", "--train", f"wordnet:{wordnet}")
    assert "--recipe sense-minilm fixes --max-steps to 300; drop --max-steps 5" in err
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--train", f"wug:{wordnet}")
    assert "trains on wordnet:DIR only" in err
    with pytest.raises(SystemExit):
        main(["tune", "--recipe", "nope"])
    assert "invalid choice: 'nope'" in capsys.readouterr().err


def test_without_wordnet_the_recipe_says_where_it_looked(caches: Path, capsys) -> None:
    err = _refused(capsys, "tune", "--recipe", "sense-minilm")
    assert "WordNet 3.0 was not found (looked in " in err and "apt install wordnet-base" in err


def test_wordnet_is_found_in_wnhome_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "WordNet-3.0"
    make_wordnet(home / "dict")
    monkeypatch.setenv("WNHOME", str(home))
    assert recipes.find_wordnet() == home / "dict"
    (home / "dict" / "data.verb").unlink()  # a folder without the verbs is no WordNet: the next place is tried
    assert recipes.find_wordnet() != home / "dict" if Path("/usr/share/wordnet/data.verb").is_file() else True


def test_the_recipe_builds_into_the_cache_and_loads_as_wsd_name(
    caches: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """A real build on a tiny WordNet (one epoch of a few steps); ``--model wsd:sense-minilm`` then loads it."""
    from wsd.embed.encoder import Encoder

    monkeypatch.setenv("WNHOME", str(make_wordnet(caches / "wn")))
    monkeypatch.setattr(recipes, "_wordnet_candidates", lambda: [caches / "wn"])
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    folder = recipe_folder("sense-minilm")
    assert folder == caches / "models" / "sense-minilm"
    assert "load it anywhere with --model wsd:sense-minilm" in printed
    facts = json.loads((folder / "wsd_tune.json").read_text(encoding="utf-8"))
    options = facts["config"]["options"]
    assert (options["max_steps"], options["seed"], options["validation_fraction"]) == (300, 0, 0.0)
    assert facts["config"]["sources"] == [f"wordnet:{caches / 'wn'}"] and facts["training"]["precision"] == "fp32"
    assert built_model_folder("wsd:sense-minilm") == folder
    encoder = Encoder(model="wsd:sense-minilm", device="cpu", precision="fp32", runtime="torch")
    vectors = encoder.embed_spans(["the bank lent money"], [(4, 8)])
    assert encoder.loaded.name == "wsd:sense-minilm"
    assert vectors.shape == (1, 384) and np.isfinite(vectors).all()
    # asked again: built already, nothing trained, the folder kept as it is
    weights = (folder / "model.safetensors").read_bytes()
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 0
    assert "is built already in" in capsys.readouterr().out
    assert (folder / "model.safetensors").read_bytes() == weights
    # a folder holding another tuned model is not taken for the recipe's: it is refused, and kept
    facts_file = folder / "wsd_tune.json"
    facts["config"]["options"]["seed"] = 7
    facts_file.write_text(json.dumps(facts), encoding="utf-8")
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 2
    assert "different configuration" in capsys.readouterr().err
    assert (folder / "model.safetensors").read_bytes() == weights
