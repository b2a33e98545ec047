"""experiments/encoder_recipe: the grid, the context reweighting, the halves' pooling and the page (no dataset)."""

from __future__ import annotations

import numpy as np
import pytest

from experiments.ablate import semeval2013_halves
from experiments.common import context_reweighted
from experiments.encoder_recipe import (
    DEFAULT_SETTING,
    FAMILIES,
    GRID,
    Setting,
    bootstrap_difference,
    halves,
    main,
    markdown,
    semeval2013_avg,
    tuned_model,
)
from wsd.senses.recipes import DEFAULT, DEFAULT_EMBEDDING, DEFAULT_OUTPUT


def test_the_grid_starts_with_the_default_recipe_and_holds_each_setting_once():
    assert GRID[0] == DEFAULT_SETTING
    assert DEFAULT_SETTING.temperature == DEFAULT["temperature"]
    assert DEFAULT_SETTING.min_weight == DEFAULT_OUTPUT["min_weight"]
    assert DEFAULT_SETTING.top == DEFAULT_OUTPUT["top"]
    assert str(DEFAULT_EMBEDDING["context_vector"]).endswith(f":{DEFAULT_SETTING.context_weight:g}")
    assert len(set(GRID)) == len(GRID) == 72


def test_reweighting_scales_only_the_context_half():
    vectors = np.hstack([np.ones((3, 4)), np.full((3, 4), 0.5)]).astype(np.float32)
    out = context_reweighted(vectors, 0.7, 0.5)
    np.testing.assert_allclose(out[:, :4], 1.0)
    np.testing.assert_allclose(out[:, 4:], 0.7)
    np.testing.assert_allclose(vectors[:, 4:], 0.5)  # the input is left as it was


def _per_target(seed: int) -> dict[str, dict[str, float]]:
    rng = np.random.default_rng(seed)
    return {
        f"w{i:02d}": {"fnmi": float(rng.uniform(0.05, 0.3)), "fbc_p": float(rng.uniform(0.5, 0.9)),
                      "fbc_r": float(rng.uniform(0.3, 0.7))}
        for i in range(10)
    }  # fmt: skip


def test_halves_and_their_pooling_agree_with_the_ablation_study():
    per_target = _per_target(0)
    split = halves(per_target)
    assert split["dev"] == ["w00", "w02", "w04", "w06", "w08"]
    reference = semeval2013_halves(per_target)
    for half, words in split.items():
        assert semeval2013_avg(per_target, words) == pytest.approx(reference[half]["avg"])


def test_the_bootstrap_interval_of_a_model_against_itself_is_zero_and_brackets_a_real_difference():
    per_target = _per_target(1)
    words = sorted(per_target)
    assert bootstrap_difference(per_target, per_target, words, 0) == [0.0, 0.0]
    better = {w: dict(s, fnmi=s["fnmi"] + 0.05) for w, s in per_target.items()}
    low, high = bootstrap_difference(better, per_target, words, 0)
    delta = 100 * (semeval2013_avg(better, words) - semeval2013_avg(per_target, words))
    assert 0 < low < delta < high


def test_the_page_shows_each_encoders_default_and_chosen_rows_and_the_held_out_difference():
    def row(setting: Setting, test: float) -> dict:
        return {"setting": setting._asdict(), "choice": 0.36, "semeval2010": 0.42,
                "semeval2013": {"dev": 0.30, "test": test, "all": 0.31}}  # fmt: skip

    other = Setting(0.3, "auto", 0.1, 3)
    results = {
        "command": "python -m experiments.encoder_recipe",
        "machine": "test machine",
        "date": "2026-12-07",
        "grid": [s._asdict() for s in GRID],
        "encoders": {
            "untuned": {
                "label": "untuned MiniLM",
                "primary": True,
                "rows": [row(DEFAULT_SETTING, 0.32) | {"per_target_2013": _per_target(2)}],
                "chosen": 0,
            },
            "tuned": {
                "label": "tuned",
                "primary": False,
                "rows": [row(DEFAULT_SETTING, 0.30), row(other, 0.335)],
                "chosen": 1,
                "test_interval": {"default": [-3.0, -1.0], "chosen": [0.5, 2.5]},
            },
        },
    }
    page = markdown(results)
    assert "| tuned *(record)* | its own | ctx 0.3, T auto, > 0.1, ≤ 3 |" in page
    assert "**33.50**" in page
    assert "| tuned | -2.00 [-3.00, -1.00] | +1.50 [+0.50, +2.50] |" in page
    assert "the 5 SemEval-2013 words at odd alphabetical positions" in page


def test_the_mpnet_family_reads_sense_mpnets_work_and_writes_its_own_page(tmp_path):
    minilm, mpnet = FAMILIES["minilm"], FAMILIES["mpnet"]
    assert mpnet.results_json != minilm.results_json  # the MiniLM page is not overwritten
    assert mpnet.results_json.parent == minilm.results_json.parent
    assert mpnet.dwug[0] == "untuned" and minilm.dwug[0] == "untuned"  # the read-out's base row comes first
    assert tuned_model(tmp_path, mpnet, "wic_seed1") == str(tmp_path / "experiments-sense-mpnet" / "wic-seed1")
    assert tuned_model(tmp_path, minilm, "inventory_seed0") == str(
        tmp_path / "experiments-sense-minilm-inventory" / "wise_wic_075-seed0"
    )
    # the stored vectors of sense_mpnet.py: eval-<dataset>-<name>, one name per encoder
    names = ["untuned", "seed0", "seed1", "wordnet-seed0", "wise-seed0", "wise-seed1", "seed2", "wise-seed2"]
    assert [e.name for e in mpnet.encoders.values()] == names
    assert tuned_model(tmp_path, mpnet, "wordnet_seed0").endswith("experiments-sense-mpnet/wordnet-seed0")
    assert tuned_model(tmp_path, mpnet, "wise_seed1").endswith("experiments-sense-mpnet/wise-seed1")


def test_main_writes_each_family_to_its_own_page_and_refuses_a_model_of_another_family(tmp_path, monkeypatch):
    import experiments.encoder_recipe as module

    written: list[tuple[str, str]] = []
    monkeypatch.setattr(module, "save_page", lambda results, json_file, md_file, page: written.append(
        (results["title"], md_file.name)))  # fmt: skip
    stored = tmp_path / "encoder_recipe-mpnet.json"
    stored.write_text('{"encoders": {}}', encoding="utf-8")  # an older JSON: no title
    families = {"minilm": FAMILIES["minilm"], "mpnet": FAMILIES["mpnet"]._replace(results_json=stored)}
    monkeypatch.setattr(module, "FAMILIES", families)
    assert main(["--family", "mpnet", "--markdown-only"]) == 0
    assert written == [(FAMILIES["mpnet"].title, "encoder_recipe-mpnet.md")]
    for argv in (["--family", "mpnet"], ["--family", "minilm", "--mpnet-model", str(tmp_path)]):
        with pytest.raises(SystemExit) as stopped:
            main(argv)
        assert stopped.value.code == 2
    assert len(written) == 1  # nothing ran or was written for the refused command lines


def test_a_cached_dwug_read_out_is_reused_only_for_the_same_untuned_encoder(tmp_path, monkeypatch):
    import json
    import shutil

    import experiments.encoder_recipe as module

    stored = tmp_path / "encoder_recipe-mpnet.json"
    shutil.copyfile(FAMILIES["mpnet"].results_json, stored)  # measured: every encoder is kept, none measured again
    earlier = json.loads(stored.read_text(encoding="utf-8"))
    earlier["base_model"] = "mpnet-a"
    stored.write_text(json.dumps(earlier), encoding="utf-8")
    measured = {key: e for key, e in FAMILIES["mpnet"].encoders.items() if key in earlier["encoders"]}
    family = FAMILIES["mpnet"]._replace(results_json=stored, encoders=measured, dwug=tuple(measured))
    calls: list[str | None] = []
    monkeypatch.setattr(module, "measure_encoder", lambda *args: pytest.fail("measured again"))
    monkeypatch.setattr(module, "dwug_readout", lambda *args: calls.append(args[-1]) or {"fresh": True})
    assert module.run(tmp_path, tmp_path, 0, family, "mpnet-a")["dwug"] == earlier["dwug"]
    assert module.run(tmp_path, tmp_path, 0, family, "mpnet-b")["dwug"] == {"fresh": True}
    assert calls == ["mpnet-b"]


def test_an_encoder_without_stored_vectors_stops_with_one_line_naming_where_its_command_is(tmp_path):
    from experiments.encoder_recipe import MPNET_ENCODERS, stored_vectors

    with pytest.raises(SystemExit) as stopped:
        stored_vectors(tmp_path, MPNET_ENCODERS["wise_seed2"], "semeval2013", tmp_path)
    message = str(stopped.value.code)
    assert message.startswith(f"{tmp_path}/experiments-sense-mpnet/eval-semeval2013-wise-seed2/run: no stored vectors")
    assert "experiments/sense_mpnet.py: its docstring gives the command" in message


def test_the_page_gives_the_mean_over_an_encoder_s_seeds_each_with_its_own_recipe() -> None:
    from experiments.encoder_recipe import seed_means

    def found(label: str, own: float) -> dict:
        rows = [{"semeval2013": {"test": 0.30, "all": 0.30}}, {"semeval2013": {"test": own, "all": own + 0.01}}]
        return {"label": label, "chosen": 1, "rows": rows}

    encoders = {
        "untuned": found("untuned MPNet", 0.3781),
        "a": found("MPNet, WiSE-FT 0.75 seed 0", 0.3749),
        "b": found("MPNet, WiSE-FT 0.75 seed 1", 0.3893),
        "c": found("MPNet, WordNet seed 0", 0.3673),  # one seed: no mean
        "d": found("second choice (WiSE-FT 0.75), seed 2", 0.33),
        "e": found("second choice (WiSE-FT 0.75), seed 0", 0.32),
    }
    lines = seed_means({"encoders": encoders})
    assert "| MPNet, WiSE-FT 0.75 | 0, 1 | 38.21 | 39.21 |" in lines
    assert "| second choice (WiSE-FT 0.75) | 2, 0 | 32.50 | 33.50 |" in lines
    assert not any("WordNet" in line or "untuned" in line for line in lines)
    assert seed_means({"encoders": {"untuned": encoders["untuned"], "c": encoders["c"]}}) == []
