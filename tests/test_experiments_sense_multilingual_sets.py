"""experiments/sense_multilingual_sets.py: one variant per left-out set, its page, and its refusals."""

from __future__ import annotations

from typing import Any

import pytest

from experiments.sense_multilingual_sets import SETS, main, merge, page


def _row(tuned: float, low: float) -> dict[str, Any]:
    figures = {"rho_prt": tuned, "rho_apd": 0.6, "rho_jsd": 0.1}
    return {
        "words": 40,
        "tuned": figures,
        "untuned": {"rho_prt": 0.371, "rho_apd": 0.344, "rho_jsd": 0.05},
        "intervals": {f"{key}_difference": [low, 0.3] for key in figures},
    }


def test_the_page_names_each_left_out_set_its_seeds_and_the_machine_s_own_arithmetic() -> None:
    training = {"steps": 1000, "seconds": 2300.4, "precision": "fp32", "machine": "2 cores", "arithmetic": {}}
    training["arithmetic"] = {"portable": False}
    results = {
        "command": "python -m experiments.sense_multilingual_sets --sets nordiachange2",
        "machine": "2 cores",
        "date": "2026-12-07",
        "model": "multilingual-e5-small-q4",
        "seeds": [0],
        "runs": {
            "nordiachange2-seed0": {
                "group": "nordiachange2",
                "seed": 0,
                "training": training,
                "sets": {"nordiachange2": _row(0.55, 0.02)},
            }
        },
    }
    text = page(results)
    assert text.startswith("# sense-multilingual on each WUG set, trained without that set alone (issue 40)")
    assert "finished: nordiachange2 seeds 0; rusemshift2 seeds none;" in text
    assert "| nordiachange2 (40 words) | PRT | 0.371 | seed 0: 0.550 (+0.179 [+0.020, +0.300]) | 0.550 |" in text
    assert "- nordiachange2-seed0: 1000 steps, 2300 s, fp32, 2 cores, the machine's own arithmetic" in text


def test_a_later_run_keeps_the_committed_runs_of_other_sets_in_the_protocol_s_order() -> None:
    old = {"command": "a", "model": "m", "seeds": [0, 1], "runs": {}}
    for name in reversed(SETS):
        old["runs"][f"{name}-seed0"] = {"group": name, "seed": 0}
    new = {
        "command": "a",
        "model": "m",
        "seeds": [1],
        "runs": {"rusemshift2-seed1": {"group": "rusemshift2", "seed": 1}},
    }
    merged = merge(old, new)
    assert list(merged["runs"])[:3] == ["nordiachange2-seed0", "rusemshift2-seed0", "rusemshift2-seed1"]
    assert merged["command"] == "a"
    assert merged["seeds"] == [0, 1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sets", "nordiachange3"], "--sets: nordiachange3; choose from nordiachange2"),
        (["--sets", " , "], "--sets: none given"),
        (["--seeds", "one"], "--seeds: 'one' is not a comma-separated list of integers"),
        (["--seeds", ","], "--seeds: none given"),
    ],
)
def test_bad_arguments_are_one_usage_line_and_exit_2(tmp_path, capsys, argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--model", str(tmp_path), "--work", str(tmp_path / "work")])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "work").exists()


def test_a_folder_without_an_encoder_is_refused_before_any_work(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--model", str(tmp_path), "--work", str(tmp_path / "work")])
    assert stopped.value.code == 2
    assert f"--model: no encoder in {tmp_path}" in capsys.readouterr().err
    assert not (tmp_path / "work").exists()


def test_a_variant_leaves_out_its_set_alone_keeps_the_sibling_and_trains_in_the_machine_s_arithmetic(
    tmp_path, monkeypatch
) -> None:
    import experiments.tune as cells
    from experiments.sense_multilingual_sets import train

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(
        cells,
        "tune",
        lambda folder, sources, **kwargs: calls.append({"folder": folder, "sources": sources, **kwargs}) or {},
    )
    from wsd.tune.recipes import RECIPES

    for source in RECIPES["sense-multilingual"].sources:  # the recipe's data folder, as laid out in ../shared
        (tmp_path / source.path).mkdir(parents=True)
    folder, _ = train(tmp_path / "work", tmp_path, tmp_path / "e5", "nordiachange2", 2)
    (call,) = calls
    assert folder == call["folder"] == tmp_path / "work" / "nordiachange2-out-seed2"
    assert call["exclude"] == [f"wug:{tmp_path / 'lscd/nordiachange/subset2'}"]  # the set and its lemmas
    assert f"wug:{tmp_path / 'lscd/nordiachange/subset1'}" in call["sources"]  # the sibling set trains
    assert not any("subset2" in source for source in call["sources"])
    assert len(call["sources"]) == 6  # the recipe's seven sources less the one set
    assert call["steps"] == 1000 and call["seed"] == 2
    assert call["options"]["portable"] is False and call["options"]["precision"] == "fp32"
    assert call["options"]["model"] == str(tmp_path / "e5") and call["options"]["seed"] == 2


def test_a_first_page_orders_its_runs_as_the_protocol_does() -> None:
    new = {"command": "b", "model": "m", "seeds": [0], "runs": {}}
    for name in reversed(SETS):
        new["runs"][f"{name}-seed0"] = {"group": name, "seed": 0}
    assert list(merge(None, new)["runs"]) == [f"{name}-seed0" for name in SETS]
