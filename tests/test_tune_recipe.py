"""``wsd tune --recipe``: a named tuned encoder built once into wsd's model cache and loaded as ``wsd:NAME``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from helpers import make_wordnet_with_examples

from wsd.cli import main
from wsd.embed.built_models import built_model_folder, recipe_folder
from wsd.errors import ConfigError, ModelError
from wsd.options import TuneOptions
from wsd.schema import TUNE_RECIPES
from wsd.tune import recipes


@pytest.fixture()
def caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model cache and no data folder in the environment."""
    monkeypatch.setenv("WSD_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.delenv("WSD_DATA_DIR", raising=False)
    return tmp_path


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def test_the_schema_and_the_recipes_name_the_same_recipes() -> None:
    assert tuple(recipes.RECIPES) == TUNE_RECIPES == ("sense-minilm", "sense-mpnet", "sense-multilingual")
    assert recipes.resolve_recipe("sense-minilm").kinds == ("wic",)
    assert recipes.resolve_recipe("sense-multilingual").kinds == ("wic", "wug")
    choices = "sense-minilm, sense-mpnet, sense-multilingual"
    with pytest.raises(ConfigError, match=f"unknown tuning recipe 'nope'; choose from {choices}"):
        recipes.resolve_recipe("nope")


def test_sense_minilm_never_trains_on_a_benchmark_lemma() -> None:
    """The shipped list is the one experiments/sense_minilm.py wrote (the model built is the model scored)."""
    excluded = recipes.recipe_excluded_lemmas(recipes.resolve_recipe("sense-minilm"))
    assert {"part", "bank", "add", "wait", "edge", "gas", "rally"} <= set(excluded)
    assert excluded == sorted(set(excluded)) and all(lemma == lemma.strip() for lemma in excluded)
    written = Path(__file__).parents[1] / "experiments/results/sense_minilm/sense_minilm_excluded_lemmas.txt"
    assert excluded == written.read_text(encoding="utf-8").split()
    assert recipes.recipe_excluded_lemmas(recipes.resolve_recipe("sense-multilingual")) == []


def test_a_model_never_built_or_unknown_is_one_line_naming_the_command(caches: Path, capsys) -> None:
    with pytest.raises(ModelError, match=r"not built yet .*`wsd tune --recipe sense-minilm`"):
        built_model_folder("wsd:sense-minilm")
    with pytest.raises(ModelError, match="wsd:NAME names a tuning recipe, one of sense-minilm"):
        built_model_folder("wsd:nope")
    for name in ("sense-mpnet", "sense-multilingual"):  # on the user's base: the command names it
        with pytest.raises(ModelError, match=f"build it once with `wsd tune --recipe {name} --model BASE`"):
            built_model_folder(f"wsd:{name}")
    err = _refused(capsys, "embed", "--corpus", "data/demo/corpus.jsonl", "--targets", "mouse", "--model",
                   "wsd:sense-minilm", "--out", str(caches / "run"))  # fmt: skip
    assert "build it once with `wsd tune --recipe sense-minilm`" in err
    assert not (caches / "run" / "vectors.npy").exists()


def test_the_recipe_refuses_options_that_contradict_it(caches: Path, capsys) -> None:
    wordnet = make_wordnet_with_examples(caches / "wordnet")
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--max-steps", "5", "--train", f"wordnet:{wordnet}")
    assert "--recipe sense-minilm fixes --max-steps to 1000; drop --max-steps 5" in err
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--train", f"wug:{wordnet}")
    assert f"--recipe sense-minilm trains on wic: sources only, not wug:{wordnet}" in err
    err = _refused(
        capsys, "tune", "--train", f"wordnet:{wordnet}", "--data-dir", str(caches), "--out", str(caches / "m")
    )
    assert "--data-dir is where --recipe finds its datasets; without --recipe name each with --train" in err
    assert not (caches / "m").exists()
    err = _refused(capsys, "tune", "--recipe", "sense-multilingual", "--data-dir", str(caches))
    assert "--recipe sense-multilingual tunes the encoder you name: give --model BASE" in err
    with pytest.raises(SystemExit):
        main(["tune", "--recipe", "nope"])
    assert "invalid choice: 'nope'" in capsys.readouterr().err


def test_without_its_data_the_recipe_says_where_it_looked(caches: Path, capsys) -> None:
    err = _refused(capsys, "tune", "--recipe", "sense-minilm")
    assert "--recipe sense-minilm needs wic/train/train.data.txt, mcl-wic/training/training.en-en.data" in err
    assert "no data folder (give --data-dir DIR or set WSD_DATA_DIR)" in err
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--data-dir", str(caches / "nowhere"))
    assert f"looked in the data folder {caches / 'nowhere'}" in err


def _data_folder(root: Path) -> Path:
    """A data folder laid out as ../shared/datasets, with a tiny WiC train and MCL-WiC en-en training."""
    wic = root / "wic" / "train"
    wic.mkdir(parents=True)
    rows = [
        ("plant", "N", "1-1", "the plant grew tall", "a plant needs water", "T"),
        ("plant", "N", "1-1", "the plant grew tall", "the plant closed down", "F"),
        ("plant", "N", "1-3", "a plant needs water", "workers at the plant struck", "F"),
        ("bank", "N", "1-1", "the bank lent money", "the bank of the river", "F"),
    ]
    (wic / "train.data.txt").write_text("".join("\t".join(row[:5]) + "\n" for row in rows), encoding="utf-8")
    (wic / "train.gold.txt").write_text("".join(row[5] + "\n" for row in rows), encoding="utf-8")
    mcl = root / "mcl-wic" / "training"
    mcl.mkdir(parents=True)
    items = [
        {"id": "training.en-en.0", "lemma": "crane", "pos": "NOUN", "sentence1": "a crane lifted the beam",
         "sentence2": "a crane stood in the marsh", "start1": 2, "end1": 7, "start2": 2, "end2": 7},
        {"id": "training.en-en.1", "lemma": "crane", "pos": "NOUN", "sentence1": "the crane lifted steel",
         "sentence2": "a crane lifted the beam", "start1": 4, "end1": 9, "start2": 2, "end2": 7},
    ]  # fmt: skip
    (mcl / "training.en-en.data").write_text(json.dumps(items), encoding="utf-8")
    gold = [{"id": "training.en-en.0", "tag": "F"}, {"id": "training.en-en.1", "tag": "T"}]
    (mcl / "training.en-en.gold").write_text(json.dumps(gold), encoding="utf-8")
    return root


@pytest.mark.slow  # trains an encoder by the recipe, twice
def test_the_recipe_builds_into_the_cache_and_loads_as_wsd_name(
    caches: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """A real build on tiny sources (one epoch of a few steps) found through $WSD_DATA_DIR; ``--model
    wsd:sense-minilm`` then loads it; built again elsewhere, it is the same model, bit for bit."""
    from wsd.embed.encoder import Encoder

    data = _data_folder(caches / "datasets")
    monkeypatch.setenv("WSD_DATA_DIR", str(data))
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    folder = recipe_folder("sense-minilm")
    assert folder == caches / "models" / "sense-minilm"
    assert "load it anywhere with --model wsd:sense-minilm" in printed
    # version 2: trained beside the folder, then 0.25 untuned + 0.75 trained, stamped with the recipe
    stamp = json.loads((folder / "wsd_tune.json").read_text(encoding="utf-8"))
    sources = [
        f"wic:{data / 'wic' / 'train' / 'train.data.txt'}",
        f"wic:{data / 'mcl-wic' / 'training' / 'training.en-en.data'}",
    ]
    assert stamp["recipe"] == {
        "name": "sense-minilm",
        "version": 2,
        "senses": "sense-minilm",
        "wise_weight": 0.75,
        "sources": sources,
    }
    assert [(row["location"], row["weight"]) for row in stamp["average"]] == [
        ("bundled", 0.25),
        (str(caches / "models" / "sense-minilm.trained"), 0.75),
    ]
    assert stamp["training_lemmas"] == ["crane", "plant"]  # the leakage guard still sees what the average learnt
    assert "Built by `wsd tune --recipe sense-minilm` (version 2)" in (folder / "README.md").read_text(encoding="utf-8")
    trained_folder = caches / "models" / "sense-minilm.trained"
    facts = json.loads((trained_folder / "wsd_tune.json").read_text(encoding="utf-8"))
    options = facts["config"]["options"]
    assert (options["max_steps"], options["seed"], options["validation_fraction"]) == (1000, 0, 0.0)
    assert facts["given_sources"] == [
        f"wic:{data / 'wic' / 'train' / 'train.data.txt'}",
        f"wic:{data / 'mcl-wic' / 'training' / 'training.en-en.data'}",
    ]
    assert facts["training"]["precision"] == "fp32"
    # the shipped list reaches the training: a benchmark lemma (bank) is left out
    assert facts["config"]["excluded_lemmas"] == ["bank"] and facts["training_lemmas"] == ["crane", "plant"]
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
    # built a second time, into another folder, from a copy of the data elsewhere named by --data-dir: the same
    # weights (nothing depends on where the data lies)
    monkeypatch.delenv("WSD_DATA_DIR")
    again, copy = caches / "again", caches / "elsewhere" / "data"
    shutil.copytree(data, copy)
    argv = ["tune", "--recipe", "sense-minilm", "--data-dir", str(copy), "--out", str(again), "--no-progress"]
    assert main([*argv, "--device", "cpu"]) == 0, capsys.readouterr().err
    assert (again / "model.safetensors").read_bytes() == weights
    assert (again.with_name("again.trained") / "model.safetensors").read_bytes() == (
        trained_folder / "model.safetensors"
    ).read_bytes()
    # the shipped sense recipe follows the model into wsd evaluate and wsd run, unless --recipe is given
    from wsd.config import resolve_config

    for model in ("wsd:sense-minilm", str(again)):
        config = resolve_config("evaluate", flags={"embedding.model": model})
        assert (config["senses"]["recipe"], config["senses"]["temperature"]) == ("sense-minilm", 0.08)
        assert config["embedding"]["context_vector"] == "20:last:0.3"
    chosen = resolve_config("run", flags={"embedding.model": "wsd:sense-minilm", "senses.recipe": "default"})
    assert chosen["senses"]["recipe"] == "default" and chosen["embedding"]["context_vector"] == "20:last:0.5"
    # and into the Python API: an evaluation's configuration and a corpus run
    from wsd.config import build_evaluation_config
    from wsd.options import EmbeddingOptions
    from wsd.workflows.pipeline import induce_corpus

    evaluation = build_evaluation_config(model="wsd:sense-minilm")
    assert (evaluation.senses["temperature"], evaluation.embedding.context_vector) == (0.08, "20:last:0.3")
    assert build_evaluation_config(model="wsd:sense-minilm", recipe="default").senses["temperature"] == 0.04
    embedding = EmbeddingOptions(model="wsd:sense-minilm", device="cpu", runtime="torch", precision="fp32")
    induce_corpus("data/demo/corpus.txt", "mouse", caches / "run", embedding=embedding)
    senses_meta = json.loads((caches / "run" / "senses" / "meta.json").read_text(encoding="utf-8"))
    assert '"temperature": 0.08' in json.dumps(senses_meta) and '"20:last:0.3"' in json.dumps(senses_meta)
    assert resolve_config("cluster", flags={"senses.run": str(caches / "run" / "run")})["senses"]["temperature"] == 0.08
    from wsd.workflows.embedding import embed_corpus  # the Python wsd embed stores the shipped context vector too

    embed_corpus("data/demo/corpus.txt", "mouse", caches / "embedded", embedding=embedding)
    embedded = json.loads((caches / "embedded" / "meta.json").read_text(encoding="utf-8"))["embedding"]
    assert embedded["context_vector"] == "20:last:0.3"
    # the model's own card says it is built: a changed trained part beside it does not unmake it
    facts_file = trained_folder / "wsd_tune.json"
    trained_weights, trained_card = ((trained_folder / n).read_bytes() for n in ("model.safetensors", "wsd_tune.json"))
    facts["config"]["options"]["seed"] = 7
    facts_file.write_text(json.dumps(facts), encoding="utf-8")
    monkeypatch.setenv("WSD_DATA_DIR", str(data))
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 0
    assert "is built already in" in capsys.readouterr().out
    # without the model, a trained part of another configuration is not taken for the recipe's: refused, and kept
    shutil.rmtree(folder)
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 2
    assert "different configuration" in capsys.readouterr().err
    assert (trained_folder / "model.safetensors").read_bytes() == trained_weights
    # an average interrupted after training is made again from the trained part, without training
    facts_file.write_bytes(trained_card)  # as wsd wrote it
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 0
    assert "the trained part of recipe sense-minilm is built already" in capsys.readouterr().out
    assert (folder / "model.safetensors").read_bytes() == weights
    # a model of version 1 (the trained mix alone, as wsd wrote it) is refused, then rebuilt by --overwrite
    shutil.rmtree(folder)
    shutil.copytree(trained_folder, folder)
    with pytest.raises(ModelError, match="built by version 1"):
        built_model_folder("wsd:sense-minilm")
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu", "--overwrite"]) == 0
    assert built_model_folder("wsd:sense-minilm") == folder
    assert (folder / "model.safetensors").read_bytes() == weights
    # where nothing lies beside it, the version-1 model is moved there as the trained part: upgraded without training
    trained_weights = (trained_folder / "model.safetensors").read_bytes()
    shutil.rmtree(folder)
    trained_folder.rename(folder)
    capsys.readouterr()
    assert main(["tune", "--recipe", "sense-minilm", "--no-progress", "--device", "cpu"]) == 0
    printed = capsys.readouterr().out
    assert "held the trained model of an earlier version of recipe sense-minilm" in printed
    assert "is built already in" in printed and "steps" not in printed  # averaged, not trained
    assert (trained_folder / "model.safetensors").read_bytes() == trained_weights
    assert (folder / "model.safetensors").read_bytes() == weights
    assert built_model_folder("wsd:sense-minilm") == folder


def _version_one_model(folder: Path) -> None:
    """A model folder as version 1 of ``sense-minilm`` left it: a trained model whose card has no recipe stamp."""
    folder.mkdir(parents=True)
    (folder / "wsd_tune.json").write_text(json.dumps({"config": {"options": {"seed": 0}}}), encoding="utf-8")
    (folder / "model.safetensors").write_bytes(b"weights of version 1")


def test_a_model_of_an_older_recipe_version_is_refused_until_rebuilt(caches: Path, capsys) -> None:
    """``wsd:sense-minilm`` built by version 1 (the trained mix alone) is not silently taken for version 2's
    average: loading it names the rebuild command, and a build over it is refused before any training."""
    folder = caches / "models" / "sense-minilm"
    _version_one_model(folder)
    with pytest.raises(ModelError, match=r"built by version 1 of the recipe.*`wsd tune --recipe sense-minilm`"):
        built_model_folder("wsd:sense-minilm")
    data = _data_folder(caches / "datasets")
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--data-dir", str(data), "--no-progress")
    assert f"{folder} holds another model (an older version of it, or another model): give --overwrite" in err
    assert not (caches / "models" / "sense-minilm.trained").exists()  # refused before training
    assert (folder / "model.safetensors").read_bytes() == b"weights of version 1"
    card = json.loads((folder / "wsd_tune.json").read_text(encoding="utf-8"))
    (folder / "wsd_tune.json").write_text(
        json.dumps(card | {"recipe": {"name": "sense-minilm", "version": 7}}), encoding="utf-8"
    )
    with pytest.raises(ModelError, match="built by version 7 of the recipe"):
        built_model_folder("wsd:sense-minilm")
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--data-dir", str(data), "--no-progress")
    assert "holds another model (version 7 of this recipe)" in err
    (folder / "wsd_tune.json").write_text('{"recipe": {"vers', encoding="utf-8")  # truncated
    with pytest.raises(ModelError, match=r"wsd_tune.json cannot be read .*--recipe sense-minilm --overwrite`"):
        built_model_folder("wsd:sense-minilm")
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--data-dir", str(data), "--no-progress")
    assert "holds another model (an older version of it, or another model)" in err
    err = _refused(capsys, "tune", "--recipe", "sense-minilm", "--data-dir", str(data), "--out", "/", "--no-progress")
    assert "--out /: recipe sense-minilm needs a folder with a name" in err


def test_a_model_folder_naming_an_unknown_sense_recipe_is_one_line(tmp_path: Path, capsys) -> None:
    """A card from a newer wsd, or tampered: its sense recipe is not guessed, and no traceback follows."""
    from wsd.io.recipe_stamp import shipped_sense_recipe

    folder = tmp_path / "tuned"
    folder.mkdir()
    (folder / "wsd_tune.json").write_text(json.dumps({"recipe": {"senses": "fancy"}}), encoding="utf-8")
    with pytest.raises(ModelError, match="names the sense recipe 'fancy', which this wsd does not know"):
        shipped_sense_recipe(str(folder))
    err = _refused(capsys, "evaluate", "--dataset", "semeval2013", "--model", str(folder), "--data-dir",
                   str(tmp_path / "data"), "--out", str(tmp_path / "out"), "--no-progress")  # fmt: skip
    assert "'fancy'" in err and not (tmp_path / "out").exists()
    (folder / "wsd_tune.json").write_text(json.dumps({"recipe": {"senses": "sense-minilm"}}), encoding="utf-8")
    assert shipped_sense_recipe(folder) == shipped_sense_recipe(str(folder)) == "sense-minilm"  # a path too
    (folder / "wsd_tune.json").write_text("[1, 2]", encoding="utf-8")  # no stamp to read: the default recipe
    assert shipped_sense_recipe(str(folder)) is None
    assert shipped_sense_recipe("wsd:sense-multilingual") is None and shipped_sense_recipe(None) is None


def test_a_train_source_replaces_the_recipes_sources_of_its_kind(tmp_path: Path) -> None:
    recipe = recipes.resolve_recipe("sense-multilingual")
    data = tmp_path / "datasets"
    for source in recipe.sources:
        (data / source.path).mkdir(parents=True)
    found = recipes.recipe_sources(recipe, data, ["wic:mine.tsv"])
    assert found[0] == "wic:mine.tsv" and sum(spec.startswith("wic:") for spec in found) == 1
    assert [spec for spec in found if spec.startswith("wug:")] == [
        f"wug:{data / 'lscd/nordiachange/subset1'}",
        f"wug:{data / 'lscd/nordiachange/subset2'}",
        f"wug:{data / 'lscd/rusemshift/rusemshift_1'}",
        f"wug:{data / 'lscd/rusemshift/rusemshift_2'}",
    ]


def test_evaluate_finds_its_dataset_in_the_same_data_folder(tmp_path: Path, monkeypatch, capsys) -> None:
    """``$WSD_DATA_DIR`` is the data folder of ``wsd evaluate`` too (``--data-dir`` and ``--data`` win)."""
    monkeypatch.setenv("WSD_DATA_DIR", str(tmp_path / "nowhere"))
    err = _refused(capsys, "evaluate", "--dataset", "semeval2013", "--out", str(tmp_path / "o"), "--no-progress")
    assert f"{tmp_path / 'nowhere'}: not a semeval2013-task13 folder" in err
    err = _refused(capsys, "evaluate", "--dataset", "semeval2013", "--data-dir", str(tmp_path / "given"),
                   "--out", str(tmp_path / "o"), "--no-progress")  # fmt: skip
    assert f"{tmp_path / 'given'}: not a semeval2013-task13 folder" in err


def test_the_multilingual_recipe_bounds_each_uses_context() -> None:
    """Paragraph-long WUG usages padded to 512 tokens took a run to 18 GiB: the recipe keeps 128 tokens either side,
    and a contradicting ``--window-tokens`` is refused rather than silently building another model."""
    recipe = recipes.resolve_recipe("sense-multilingual")
    options = recipes.recipe_options(recipe, TuneOptions(model="base"))
    assert options.window_tokens == recipes.MULTILINGUAL_WINDOW_TOKENS == 128 and options.model == "base"
    with pytest.raises(ConfigError, match="fixes --window-tokens to 128"):
        recipes.recipe_options(recipe, TuneOptions(model="base", window_tokens=256))
    with pytest.raises(ConfigError, match="give --model BASE"):
        recipes.recipe_options(recipe, TuneOptions())


def test_a_recipe_fixes_only_options_of_their_types() -> None:
    """A recipe's settings are TuneOptions fields, checked when the recipe is made (a typo fails on import)."""
    with pytest.raises(TypeError, match="max_step"):
        recipes.TuneRecipe("x", "x", (), {"max_step": 10})
    with pytest.raises(ConfigError, match="loss: 'cosine' is not one of"):
        recipes.TuneRecipe("x", "x", (), {"loss": "cosine"})


def test_clustering_a_run_of_a_recipes_model_takes_its_sense_recipe(tmp_path: Path) -> None:
    """``wsd cluster --run RUN`` reads which model embedded the run: a run of ``wsd:sense-minilm`` is clustered by
    the recipe made for it (as ``wsd run`` clustered it), unless ``--recipe`` says otherwise; a run it cannot
    read is left to the command, which names what is wrong with it."""
    from wsd.config import resolve_config

    run = tmp_path / "run"
    run.mkdir()
    embedded = {"model": "wsd:sense-minilm", "context_vector": "20:last:0.3"}
    (run / "meta.json").write_text(json.dumps({"embedding": embedded}), encoding="utf-8")
    assert resolve_config("cluster", flags={"senses.run": str(run)})["senses"]["recipe"] == "sense-minilm"
    given = resolve_config("cluster", flags={"senses.run": str(run), "senses.recipe": "textbook"})
    assert given["senses"]["recipe"] == "textbook"
    # a run of that model embedded with another context vector (--recipe default) keeps the default
    embedded = {"model": "wsd:sense-minilm", "context_vector": "20:last:0.5"}
    (run / "meta.json").write_text(json.dumps({"embedding": embedded}), encoding="utf-8")
    assert resolve_config("cluster", flags={"senses.run": str(run)})["senses"]["recipe"] == "default"
    (run / "meta.json").write_text(json.dumps({"embedding": {"model": None}}), encoding="utf-8")
    assert resolve_config("cluster", flags={"senses.run": str(run)})["senses"]["temperature"] == 0.04
    (run / "meta.json").write_text("{trunc", encoding="utf-8")
    assert resolve_config("cluster", flags={"senses.run": str(run)})["senses"]["recipe"] == "default"
    assert resolve_config("cluster", flags={"senses.run": str(tmp_path / "none")})["senses"]["recipe"] == "default"


def test_a_recipe_stated_anywhere_wins_over_the_one_a_model_ships(tmp_path: Path, monkeypatch) -> None:
    """A flag, a configuration file, ``--set``, a ``recipe=`` keyword or a SenseOptions of the Python API each
    keep their recipe; ``wsd embed`` of the model stores the shipped recipe's context vector, as ``wsd run`` does."""
    from wsd.config import resolve_config
    from wsd.options import SenseOptions
    from wsd.workflows import evaluation

    model = {"embedding.model": "wsd:sense-minilm"}
    assert resolve_config("run", flags=model)["senses"]["recipe"] == "sense-minilm"
    assert resolve_config("run", {"senses": {"recipe": "default"}}, model)["senses"]["recipe"] == "default"
    assert resolve_config("run", flags=model, overrides=["senses.recipe=textbook"])["senses"]["recipe"] == "textbook"
    assert resolve_config("embed", flags=model)["embedding"]["context_vector"] == "20:last:0.3"
    assert resolve_config("embed")["embedding"]["context_vector"] == "20:last:0.5"
    seen: list[str] = []
    monkeypatch.setattr(evaluation, "evaluate_job", lambda config, **_: seen.append(config["senses"]["recipe"]))
    for given in ({}, {"recipe": "default"}, {"senses": SenseOptions(recipe="default")}, {"senses": SenseOptions()}):
        evaluation.evaluate_dataset("semeval2013", data_dir=str(tmp_path), model="wsd:sense-minilm", **given)
    assert seen == ["sense-minilm", "default", "default", "default"]


def test_a_recipe_build_is_stamped_and_another_version_is_not_taken_for_it(tmp_path: Path) -> None:
    """Every recipe's model records the recipe (name, version, sources): a later version of a recipe that does not
    average (as ``sense-multilingual``) is then told apart from this one; a model from before stamps counts as
    version 1."""
    from wsd.cli.tune import _built_by_recipe
    from wsd.tune.api import tune_encoder

    recipe = recipes.resolve_recipe("sense-multilingual")
    folder, train = tmp_path / "model", ["wic:a.tsv", "wug:b"]
    folder.mkdir()
    card = {
        "config": {"options": dict(recipe.settings), "sources": []},
        "given_sources": train,
        "base_model": {"name": "base"},
    }
    (folder / "wsd_tune.json").write_text(json.dumps(card), encoding="utf-8")
    assert _built_by_recipe(folder, "sense-multilingual", train, "base")  # before stamps: version 1, this one
    assert not _built_by_recipe(folder, "sense-multilingual", ["wic:a.tsv"], "base")
    for version, built in ((1, True), (2, False)):
        stamp = recipe.stamp() | {"version": version, "sources": train}
        (folder / "wsd_tune.json").write_text(json.dumps(card | {"recipe": stamp}), encoding="utf-8")
        assert _built_by_recipe(folder, "sense-multilingual", train, "base") is built
    # tune_encoder writes the stamp it is given
    data = _data_folder(tmp_path / "datasets")
    source = f"wic:{data / 'wic' / 'train' / 'train.data.txt'}"
    options = TuneOptions(max_steps=1, validation_fraction=0.0, progress=False, device="cpu", portable=False)
    stamp = recipe.stamp() | {"sources": [source]}
    tune_encoder([source], tmp_path / "stamped", options=options, recipe=stamp)
    facts = json.loads((tmp_path / "stamped" / "wsd_tune.json").read_text(encoding="utf-8"))
    assert facts["recipe"] == stamp


def test_what_would_refuse_the_average_is_refused_before_any_training(caches: Path, capsys) -> None:
    """A file, a folder of someone's files, another recipe's model or this recipe's model from other sources at
    the averaging recipe's folder: each refused in one line before ``OUT.trained`` exists (it used to surface
    only when the average was written, after the training); a user's ``--out`` is never moved."""
    from wsd.cli.tune import _averages, _trained_folder

    data = _data_folder(caches / "datasets")
    argv = ["tune", "--recipe", "sense-minilm", "--data-dir", str(data), "--no-progress"]
    target = caches / "mine"
    target.write_text("a file", encoding="utf-8")
    assert "is a file: recipe sense-minilm writes a model folder there" in _refused(capsys, *argv, "--out", str(target))
    target.unlink()
    target.mkdir()
    (target / "notes.txt").write_text("mine", encoding="utf-8")
    for extra in ([], ["--overwrite"]):
        err = _refused(capsys, *argv, "--out", str(target), *extra)
        assert f"{target} holds files but no model (no wsd_tune.json)" in err
    (target / "notes.txt").unlink()
    card = {"config": {"options": {}, "sources": []}, "recipe": {"name": "sense-multilingual", "version": 1}}
    (target / "wsd_tune.json").write_text(json.dumps(card), encoding="utf-8")
    err = _refused(capsys, *argv, "--out", str(target))
    assert "holds another model (an older version of it, or another model)" in err
    card["recipe"] = recipes.resolve_recipe("sense-minilm").stamp() | {"sources": ["wic:elsewhere.tsv"]}
    (target / "wsd_tune.json").write_text(json.dumps(card), encoding="utf-8")
    err = _refused(capsys, *argv, "--out", str(target))
    assert "holds this recipe's model from other sources (wic:elsewhere.tsv): give --overwrite" in err
    assert not (caches / "mine.trained").exists() and (target / "wsd_tune.json").is_file()
    # a later version's model is not rebuilt by the command that upgrades an earlier one
    folder = caches / "models" / "sense-minilm"
    folder.mkdir(parents=True)
    later = {"recipe": {"name": "sense-minilm", "version": 9}}
    (folder / "wsd_tune.json").write_text(json.dumps(later), encoding="utf-8")
    with pytest.raises(ModelError, match=r"built by version 9 of the recipe, a later wsd's.*update wsd"):
        built_model_folder("wsd:sense-minilm")
    # only an averaging recipe trains beside its folder, whatever the spelling of --out
    assert _averages("sense-minilm") and not _averages("sense-multilingual")
    for spelling in ("./x", "x/", "x"):
        assert _trained_folder("sense-multilingual", Path(spelling)) == Path(spelling)
        assert _trained_folder("sense-minilm", Path(spelling)) == Path("x").resolve().with_name("x.trained")


def test_a_model_folder_of_a_users_out_is_never_moved_to_upgrade_it(caches: Path, capsys) -> None:
    """The upgrade of a version-1 model moves only wsd's own cache folder of the recipe; a model at a user's
    ``--out`` (which may hold their other files) stays where it is, and the build is refused."""
    from wsd.cli.tune import _upgrade_earlier_build

    data = _data_folder(caches / "datasets")
    sources = [f"wic:{data / 'wic/train/train.data.txt'}", f"wic:{data / 'mcl-wic/training/training.en-en.data'}"]
    settings = dict(recipes.resolve_recipe("sense-minilm").settings)
    card = {"config": {"options": settings, "sources": []}, "given_sources": sources}
    for folder in (caches / "mine", caches / "models" / "sense-minilm"):
        folder.mkdir(parents=True)
        (folder / "wsd_tune.json").write_text(json.dumps(card), encoding="utf-8")
        _upgrade_earlier_build("sense-minilm", folder, folder.with_name(folder.name + ".trained"), sources, None)
    assert (caches / "mine" / "wsd_tune.json").is_file() and not (caches / "mine.trained").exists()
    assert (caches / "models" / "sense-minilm.trained" / "wsd_tune.json").is_file()
    assert not (caches / "models" / "sense-minilm").exists()


def test_the_shipped_recipe_is_for_its_own_vectors_only(tmp_path: Path) -> None:
    """Vectors embedded with another context vector keep the default recipe, so wsd run and wsd cluster of the
    same run agree; a recipe in a file's senses table is a stated recipe too."""
    from wsd.config import build_evaluation_config, resolve_config

    model = {"embedding.model": "wsd:sense-minilm"}
    for context, recipe in (("20:last:0.5", "default"), ("none", "default"), ("20:last:0.3", "sense-minilm")):
        flags = model | {"embedding.context_vector": context}
        assert resolve_config("run", flags=flags)["senses"]["recipe"] == recipe, context
        assert build_evaluation_config(model="wsd:sense-minilm", context_vector=context).senses["temperature"] == (
            0.08 if recipe == "sense-minilm" else 0.04
        )
    stated = build_evaluation_config({"senses": {"recipe": "default"}}, model="wsd:sense-minilm")
    assert (stated.senses["temperature"], stated.embedding.context_vector) == (0.04, "20:last:0.5")


def test_the_model_card_says_which_recipe_built_the_model_and_what_it_ships() -> None:
    from wsd.tune.card import model_card

    facts = {"base_model": {"name": "m", "fingerprint": "f"}, "config": {"options": {}}, "sources": [],
             "training_lemmas": [], "validation_lemmas": [], "excluded_lemmas": [], "training": {},
             "validation": {}}  # fmt: skip
    assert "## Recipe" not in model_card(facts)
    stamp = recipes.resolve_recipe("sense-multilingual").stamp()
    card = model_card(facts | {"recipe": stamp})
    assert "Built by `wsd tune --recipe sense-multilingual` (version 1)" in card
    assert "WiSE-FT" not in card and "ships the sense recipe" not in card
    stamp = recipes.resolve_recipe("sense-minilm").stamp()
    card = model_card(facts | {"recipe": stamp})
    assert "0.25 base + 0.75 trained (WiSE-FT)" in card
    assert "It ships the sense recipe `sense-minilm`" in card


@pytest.mark.slow  # trains an encoder by the recipe, on tiny sources
def test_sense_mpnet_builds_on_the_base_given_and_ships_its_own_sense_recipe(caches: Path, capsys) -> None:
    """``sense-mpnet`` is ``sense-minilm``'s training and average on ``--model BASE`` (the bundled MiniLM stands in
    for all-mpnet-base-v2 here), with its own sense recipe; a model built on one base is not taken for another."""
    from wsd.config import resolve_config
    from wsd.embed.models import bundled_model_path
    from wsd.io.recipe_stamp import read_tune_card, shipped_sense_recipe

    data = _data_folder(caches / "datasets")
    argv = ["tune", "--recipe", "sense-mpnet", "--data-dir", str(data), "--no-progress", "--device", "cpu"]
    err = _refused(capsys, *argv)
    assert "--recipe sense-mpnet tunes the encoder you name: give --model BASE" in err
    assert "sentence-transformers/all-mpnet-base-v2" in err
    base = caches / "base"
    base.symlink_to(bundled_model_path(), target_is_directory=True)
    assert main([*argv, "--model", str(base)]) == 0
    printed = capsys.readouterr()
    assert "load it anywhere with --model wsd:sense-mpnet" in printed.out
    # a base of another kind than the recipe was measured on is trained, with a warning saying so
    assert f"--recipe sense-mpnet was measured on a base of type mpnet; --model {base} is of type bert" in printed.err
    folder = recipe_folder("sense-mpnet")
    card = read_tune_card(folder)
    assert {key: card["recipe"][key] for key in ("name", "version", "senses", "wise_weight")} == {
        "name": "sense-mpnet",
        "version": 1,
        "senses": "sense-mpnet",
        "wise_weight": 0.75,
    }
    assert [row["weight"] for row in card["average"]] == [0.25, 0.75]
    trained = read_tune_card(folder.with_name("sense-mpnet.trained"))
    assert trained["base_model"]["name"] == str(base)
    assert trained["config"]["excluded_lemmas"] == ["bank"]  # sense-minilm's lemma list
    # its sense recipe: sense-minilm's context vector and temperature, keys of the senses above 0.1
    assert shipped_sense_recipe("wsd:sense-mpnet") == "sense-mpnet"
    config = resolve_config("evaluate", flags={"embedding.model": "wsd:sense-mpnet"})
    assert (config["senses"]["recipe"], config["senses"]["temperature"]) == ("sense-mpnet", 0.08)
    assert config["embedding"]["context_vector"] == "20:last:0.3"
    assert (config["evaluation"]["min_weight"], config["evaluation"]["top"]) == (0.1, 2)
    # the same base written another way (the folder the link points to): built already, nothing trained
    weights = (folder / "model.safetensors").read_bytes()
    assert main([*argv, "--model", str(bundled_model_path())]) == 0
    assert "is built already in" in capsys.readouterr().out
    # another folder (here a copy: compared by name and folder, not by contents): refused before any training, the
    # model kept; so is a trained part built on another base, with nothing beside it
    other = caches / "other"
    shutil.copytree(bundled_model_path(), other)
    err = _refused_after_warning(capsys, *argv, "--model", str(other))
    assert f"{folder} holds a model built on another base ({base}; bases are compared by name and by the folder" in err
    assert (folder / "model.safetensors").read_bytes() == weights
    shutil.rmtree(folder)
    err = _refused_after_warning(capsys, *argv, "--model", str(other))
    assert f"{folder.with_name('sense-mpnet.trained')} holds a model built on another base" in err
    assert not folder.exists()
    # a base found nowhere is not compared with the one built: the training says it is missing
    assert main([*argv, "--model", str(caches / "no-such-base")]) == 2
    err = capsys.readouterr().err
    assert "another base" not in err and "no-such-base" in err and "Traceback" not in err


def _refused_after_warning(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """A refusal (exit 2, one line), after the warning of a base of another kind where Python shows it (once for
    the same message in a process)."""
    assert main(list(argv)) == 2
    *warned, refused = capsys.readouterr().err.strip().splitlines()
    assert all("measured on a base of type mpnet" in line for line in warned) and len(warned) <= 1
    assert refused.startswith("wsd tune: error: ") and "Traceback" not in refused
    return refused


def test_bases_are_compared_for_the_recipes_own_model_by_name_and_folder(tmp_path: Path) -> None:
    """``_check_base`` refuses this recipe's model (or a trained part) built on another base, before any training;
    the same base reached through a link passes, another recipe's model is left to the checks that name it, a base
    found nowhere is not compared (the training says it is missing), and ``--overwrite`` passes."""
    from wsd.cli.tune import _check_base

    base, folder = tmp_path / "base", tmp_path / "model"
    base.mkdir()
    folder.mkdir()
    (tmp_path / "link").symlink_to(base, target_is_directory=True)

    def card(name: str, recipe: str | None) -> None:
        stamp = {"recipe": {"name": recipe, "version": 1}} if recipe else {}
        (folder / "wsd_tune.json").write_text(json.dumps({"base_model": {"name": name}} | stamp), encoding="utf-8")

    card(str(tmp_path / "elsewhere"), "sense-multilingual")
    with pytest.raises(ConfigError, match=r"model holds a model built on another base \(.*elsewhere; bases are"):
        _check_base("sense-multilingual", folder, str(base), overwrite=False)
    _check_base("sense-multilingual", folder, str(base), overwrite=True)
    _check_base("sense-multilingual", folder, str(tmp_path / "nowhere"), overwrite=False)
    _check_base("sense-minilm", folder, str(base), overwrite=False)  # on the bundled model: no base to compare
    card(str(base), "sense-multilingual")
    _check_base("sense-multilingual", folder, str(tmp_path / "link"), overwrite=False)  # the same folder
    card(str(tmp_path / "elsewhere"), "sense-mpnet")  # another recipe's model
    _check_base("sense-multilingual", folder, str(base), overwrite=False)
    card(str(tmp_path / "elsewhere"), None)  # a trained part records no recipe
    _check_base("sense-mpnet", folder, str(base), overwrite=False)
    with pytest.raises(ConfigError, match="built on another base"):
        _check_base("sense-mpnet", folder, str(base), overwrite=False, trained=True)
