"""experiments/sense_mpnet.py: its page puts each tuned MPNet beside the untuned one, with every interval."""

from __future__ import annotations

from typing import Any

import pytest

from experiments.sense_mpnet import DWUG_MEASURES, SEMEVAL, main, markdown


def _measures(semeval2013: float, rho_prt: float) -> dict[str, Any]:
    return {
        "semeval": {"semeval2013": {"avg": semeval2013}, "semeval2010": {"avg": 0.44}},
        "dwug": {
            "pooled": {"rho_prt": rho_prt, "rho_apd": 0.6, "rho_jsd": 0.3, "ari": 0.2, "ari_one_sense": 0.134},
        },
        "dev": {"WiC dev": {"accuracy": 0.65, "auc": 0.7}, "MCL-WiC dev en-en": {"accuracy": 0.8, "auc": 0.88}},
    }


def test_the_page_gives_the_tuned_model_its_intervals_beside_the_untuned_one() -> None:
    results = {
        "command": "python -m experiments.sense_mpnet --model m",
        "machine": "2 cores",
        "date": "2026-12-07",
        "model": "all-mpnet-base-v2",
        "seeds": [0],
        "untuned": _measures(0.3646, 0.477),
        "models": {
            "seed 0": {
                "training": {"steps": 732, "seconds": 1200.4, "precision": "bf16", "pairs": 13201},
                "measures": _measures(0.3812, 0.61),
                "semeval_intervals": {dataset: [-0.5, 2.25] for dataset in SEMEVAL},
                "dwug_intervals": {f"{m}_difference": [0.01, 0.3] for m in DWUG_MEASURES},
            }
        },
    }
    page = markdown(results)
    assert "| untuned MPNet | – | 36.46 | 44.00 | 0.477 | 0.600 | 0.300 | 20.0 (13.4) | 0.650 / 0.700 |" in page
    assert "| seed 0 | 732 | 38.12 [-0.50, +2.25] | 44.00 [-0.50, +2.25] | 0.610 [+0.010, +0.300] |" in page
    assert "| WiC dev | MCL-WiC dev en-en |" in page
    assert "- seed 0: 732 steps in 1200 s, bf16, 13201 pairs" in page


def test_a_folder_without_a_model_is_refused_before_any_work(tmp_path) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--model", str(tmp_path), "--work", str(tmp_path / "work")])
    assert stopped.value.code == 2
    assert not (tmp_path / "work").exists()


def test_the_page_names_the_wordnet_rows_and_their_seeds_only_when_they_ran() -> None:
    row = {
        "training": {"steps": 300, "seconds": 2447.2, "precision": "fp32", "pairs": 220730},
        "measures": _measures(0.3686, 0.539),
        "semeval_intervals": {dataset: [-1.0, 2.5] for dataset in SEMEVAL},
        "dwug_intervals": {f"{m}_difference": [-0.02, 0.16] for m in DWUG_MEASURES},
    }
    results = {
        "command": "python -m experiments.sense_mpnet --model m --seeds 0 --wordnet-seeds 0",
        "machine": "2 cores",
        "date": "2026-12-07",
        "model": "all-mpnet-base-v2",
        "seeds": [0],
        "untuned": _measures(0.3623, 0.474),
        "models": {"WordNet seed 0": row},
    }
    without = markdown(results)
    assert "WordNet seeds" not in without and "`wordnet` mix" not in without
    page = markdown(results | {"wordnet_seeds": [0]})
    assert "; seeds 0; WordNet seeds 0" in page
    assert "Rows `WordNet seed N`" in page
    assert "| WordNet seed 0 | 300 | 36.86 [-1.00, +2.50] |" in page
    assert "- WordNet seed 0: 300 steps in 2447 s, fp32, 220730 pairs" in page


def test_the_wordnet_and_wise_options_parse_into_seeds_and_absent_ones_into_no_seeds(tmp_path, monkeypatch) -> None:
    import experiments.sense_mpnet as module

    calls: list[tuple[list[int], list[int], list[int]]] = []

    def record(work, data, model, seeds, wordnet, wise) -> None:
        calls.append((seeds, wordnet, wise))

    monkeypatch.setattr(module, "run", record)
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    assert main(["--model", str(tmp_path), "--seeds", "0,1", "--wordnet-seeds", "0", "--wise-seeds", "0,1"]) == 0
    assert main(["--model", str(tmp_path)]) == 0
    assert calls == [([0, 1], [0], [0, 1]), ([0], [], [])]


def test_a_wise_row_says_it_is_a_weight_average_of_which_seed() -> None:
    row = {
        "training": {"steps": 732, "seconds": 1200.4, "precision": "bf16", "pairs": 13201},
        "measures": _measures(0.3790, 0.6),
        "semeval_intervals": {dataset: [-1.0, 2.5] for dataset in SEMEVAL},
        "dwug_intervals": {f"{m}_difference": [-0.02, 0.16] for m in DWUG_MEASURES},
    }
    wise = dict(row, training=row["training"] | {"averaged": "0.25 untuned + 0.75 seed 1"})
    results = {
        "command": "python -m experiments.sense_mpnet --model m --seeds 1 --wise-seeds 1",
        "machine": "2 cores",
        "date": "2026-12-07",
        "model": "all-mpnet-base-v2",
        "seeds": [1],
        "wise_seeds": [1],
        "untuned": _measures(0.3623, 0.474),
        "models": {"seed 1": row, "WiSE-FT 0.75 seed 1": wise},
    }
    page = markdown(results)
    assert "; seeds 1; WiSE-FT seeds 1" in page
    assert "Rows `WiSE-FT 0.75 seed N`" in page
    assert "| WiSE-FT 0.75 seed 1 | 732 | 37.90 [-1.00, +2.50] |" in page
    assert (
        "- WiSE-FT 0.75 seed 1: 0.25 untuned + 0.75 seed 1 (weights averaged; seed 1: 732 steps in 1200 s, bf16, "
        "13201 pairs)" in page
    )


def test_a_wise_seed_averages_the_untuned_model_with_the_word_in_context_seed_it_built(tmp_path, monkeypatch) -> None:
    import experiments.sense_minilm as minilm
    import experiments.sense_minilm_seeds as seeds_module
    import experiments.sense_mpnet as module
    import experiments.tune as cells

    monkeypatch.setattr(module, "RESULTS_JSON", tmp_path / "r.json")
    monkeypatch.setattr(module, "RESULTS_MD", tmp_path / "r.md")
    monkeypatch.setattr(minilm, "lemma_lists", lambda data, seed: (["bank"], ["mouse"]))
    monkeypatch.setattr(cells, "_dwug_gold", lambda data: (None, {"w": 0.5}, "change_graded"))
    trained: list[tuple[int, str]] = []
    averaged: list[tuple[object, list[str], tuple[float, ...]]] = []
    measured: list[tuple[str, str]] = []

    def train_seed(work, data, seed, excluded, model, mix):
        trained.append((seed, mix))
        assert excluded == ["bank", "mouse"]
        return work / f"{mix}-seed{seed}", {"steps": 732, "seconds": 1.0, "precision": "bf16", "pairs": 9}

    def measures(work, data, model, name, seed):
        measured.append((name, model))
        found = _measures(0.37, 0.6)
        found["dwug"]["per_word"] = {}
        return found

    monkeypatch.setattr(seeds_module, "train_seed", train_seed)
    monkeypatch.setattr(minilm, "measures", measures)
    monkeypatch.setattr(cells, "_average", lambda folder, models, weights: averaged.append((folder, models, weights)))
    monkeypatch.setattr(
        cells, "bootstrap_difference", lambda *args: {f"{m}_difference": [0.0, 0.1] for m in DWUG_MEASURES}
    )
    monkeypatch.setattr(cells, "semeval_interval", lambda *args: [0.0, 0.0])
    model = tmp_path / "mpnet"
    results = module.run(tmp_path, tmp_path, model, [1], None, [1])
    assert trained == [(1, "wic"), (1, "wic")]  # the Word-in-Context seed, then the same (built) seed for the average
    assert averaged == [(tmp_path / "wise-seed1", [str(model), str(tmp_path / "wic-seed1")], (0.25, 0.75))]
    assert measured == [
        ("untuned", str(model)),
        ("seed1", str(tmp_path / "wic-seed1")),
        ("wise-seed1", str(tmp_path / "wise-seed1")),
    ]
    assert results["models"]["WiSE-FT 0.75 seed 1"]["training"]["averaged"] == "0.25 untuned + 0.75 seed 1"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seeds", "0,x"], "--seeds: '0,x' is not a comma-separated list of integers"),
        (["--seeds", ","], "--seeds: none given"),
        (["--seeds", "0", "--wise-seeds", "0,2"], "--wise-seeds 2: a WiSE-FT seed's own row is scored too"),
    ],
)
def test_bad_seed_lists_are_one_usage_line_and_exit_2(tmp_path, capsys, argv: list[str], message: str) -> None:
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        main(["--model", str(tmp_path), "--work", str(tmp_path / "work"), *argv])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "work").exists()
