"""experiments/tune.py and experiments/bench_tune.py: folds, pooled figures, the two loops' scores, the pages."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from experiments.bench_tune import _scores
from experiments.bench_tune import markdown as bench_markdown
from experiments.tune import MEASURES, bootstrap_difference, lemma_folds, markdown, pooled


def test_lemma_folds_are_disjoint_cover_every_word_and_follow_the_seed() -> None:
    words = [f"w{i}" for i in range(46)]
    folds = lemma_folds(words, 4, seed=0)
    assert sorted(w for fold in folds for w in fold) == sorted(words)
    assert sorted(len(fold) for fold in folds) == [11, 11, 12, 12]
    assert lemma_folds(words, 4, seed=0) == folds
    assert lemma_folds(words, 4, seed=1) != folds


def _figures(values: dict[str, float], clustered: int = 10) -> dict[str, dict[str, float]]:
    return {
        word: {m: value for m in MEASURES}
        | {"ari": value, "ari_one_sense": 0.0, "n_clustered": clustered, "n_senses": 2}
        for word, value in values.items()
    }


def test_pooled_ari_is_missing_without_gold_clusters() -> None:
    summary = pooled(_figures({"a": 1.0, "b": 2.0, "c": 3.0}, clustered=0), {"a": 0.1, "b": 0.2, "c": 0.3})
    assert math.isnan(summary["ari"]) and math.isnan(summary["ari_one_sense"])
    assert summary["rho_prt"] == pytest.approx(1.0)


def test_pooled_rho_is_over_all_words_and_ari_weighted_by_clustered_uses(monkeypatch) -> None:
    monkeypatch.setattr("experiments.tune.N_BOOTSTRAP", 200)  # the page's 1,000 resamples are not the point
    gold = {"a": 0.1, "b": 0.2, "c": 0.3, "d": 0.4}
    figures = _figures({"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0})
    figures["d"]["n_clustered"] = 30
    summary = pooled(figures, gold)
    assert summary["rho_prt"] == pytest.approx(1.0)
    assert summary["ari"] == pytest.approx((1 + 2 + 3) * 10 / 60 + 4 * 30 / 60)
    reversed_figures = _figures({"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0})
    assert pooled(reversed_figures, gold)["rho_apd"] == pytest.approx(-1.0)
    intervals = bootstrap_difference(figures, reversed_figures, gold, seed=0)
    low, high = intervals["rho_prt_difference"]
    assert 0 < low <= high <= 2.0


def test_the_naive_loop_and_wsd_tune_score_the_same_cosines() -> None:
    """Encoding each side separately and each distinct use once give the same pair cosines (eval mode)."""
    from wsd.embed.encoder import Encoder
    from wsd.tune.forward import SpanEncoder

    uses = pd.DataFrame(
        {
            "text": ["the bank of the river", "a bank loan", "she sat on the bank", "the bank closed"],
            "start": [4, 2, 15, 4],
            "end": [8, 6, 19, 8],
        }
    )
    span = SpanEncoder(Encoder(None, precision="fp32"))
    span.model.eval()
    first, second = np.array([0, 0, 1, 2]), np.array([1, 2, 3, 3])
    naive = _scores(span, uses, first, second, naive=True).detach().numpy()
    once = _scores(span, uses, first, second, naive=False).detach().numpy()
    np.testing.assert_allclose(naive, once, atol=1e-5)
    assert not np.allclose(naive, naive[0])


def test_the_pages_show_their_figures() -> None:
    interval = {f"rho_{m}{s}": [0.1, 0.5] for m in MEASURES for s in ("", "_untuned", "_difference")}
    row = {f"rho_{m}": 0.3 for m in MEASURES} | {"ari": 0.15, "ari_one_sense": 0.13, "mean_senses": 2.0}
    training = {"steps": 300, "pairs": 100, "seconds": 90.0, "final_loss": 7.0, "training_lemmas": 3}
    results = {
        "command": "python -m experiments.tune",
        "machine": "test",
        "date": "2026-12-03",
        "steps": 300,
        "seed": 0,
        "dwug_kfold": {
            "gold": "change_graded",
            "words": 46,
            "folds": [{"fold": 0, "words": ["a", "b"], "training": training}],
            "tuned": row | {"rho_prt": 0.45},
            "untuned": row,
            "intervals": interval,
        },
        "semeval_unseen": {
            "training": training | {"excluded_lemmas": 150},
            "datasets": {
                "semeval2013": {
                    "untuned": {"fnmi": 0.1, "fbc_f": 0.5, "avg": 0.32},
                    "tuned": {"fnmi": 0.1, "fbc_f": 0.5, "avg": 0.33},
                    "training_overlap": [],
                }
            },
        },
    }
    results["wug_multilingual"] = {
        "model": "multilingual-e5-small-q4",
        "groups": {
            "russian": {
                "training": training,
                "trained_on": ["dwug_en", "nordiachange1"],
                "datasets": {
                    "rusemshift1": {
                        "words": 71,
                        "tuned": row | {"rho_prt": 0.2, "ari": math.nan},
                        "untuned": row | {"ari": math.nan},
                        "intervals": interval,
                    }
                },
            }
        },
    }
    sem = {"fnmi": 0.1, "fbc_f": 0.5, "avg": 0.32}
    sem10 = {"paired_f": 0.6, "v_measure": 0.3, "avg": 0.42, "supervised_recall": 0.7}
    frozen_run = {"training": training, "datasets": {}}
    results["semeval_frozen"] = {
        "untuned": {"semeval2013": sem, "semeval2010": sem10},
        "runs": {
            str(n): frozen_run
            | {
                "datasets": {
                    "semeval2013": {"tuned": sem | {"avg": 0.33 + n / 100}, "training_overlap": []},
                    "semeval2010": {"tuned": sem10 | {"avg": 0.44 - n / 100}, "training_overlap": []},
                }
            }
            for n in (0, 2)
        },
        "chosen": 0,
        "machine": "another machine",
    }
    frozen_runs = results["semeval_frozen"]["runs"]
    results["semeval_context"] = {
        "untuned": results["semeval_frozen"]["untuned"],
        "runs": {"target vector": frozen_runs["0"], "target + context vector": frozen_runs["2"]},
        "chosen": "target + context vector",
    }
    trained_on_2010 = {
        "semeval2013": frozen_runs["2"]["datasets"]["semeval2013"],
        "semeval2010": frozen_runs["2"]["datasets"]["semeval2010"] | {"training_overlap": ["a", "b", "c"]},
    }
    results["semeval_sources"] = {
        "untuned": results["semeval_frozen"]["untuned"],
        "runs": {
            "WordNet": frozen_runs["0"],
            "WordNet + SemEval-2010 keys": frozen_run | {"datasets": trained_on_2010},
        },
        "chosen": "WordNet",
    }
    results["semeval_seeds"] = {
        "untuned": results["semeval_frozen"]["untuned"],
        "runs": {"seed 0": frozen_runs["0"], "seed 1": frozen_runs["2"]},
        "chosen": "seed 0",
    }
    results["dwug_seeds"] = {
        "gold": "change_graded",
        "words": 46,
        "untuned": row,
        "runs": {
            str(n): {"training": training, "tuned": row | {"rho_prt": 0.4 + n / 100}, "intervals": interval}
            for n in (0, 1)
        },
    }
    averaged = {"seconds": None, "averaged": ["a", "b"], "weights": None}
    soup_label, wise_label = "soup of seeds 0, 1, 2", "WiSE-FT: 0.5 untuned + 0.5 seed 0"
    results["dwug_soups"] = results["dwug_seeds"] | {
        "runs": {f"seed {n}": run for n, run in results["dwug_seeds"]["runs"].items()}
        | {soup_label: {"training": averaged, "tuned": row | {"rho_prt": 0.42}, "intervals": interval}},
    }
    soup_run = frozen_runs["0"] | {"training": averaged}
    results["semeval_soups"] = results["semeval_seeds"] | {
        "runs": results["semeval_seeds"]["runs"] | {soup_label: soup_run, wise_label: soup_run}
    }
    results["dwug_wordnet_only_mpnet"] = results["dwug_kfold"]
    results["dwug_wordnet_distill_long"] = results["dwug_kfold"]
    results["dwug_wic"] = results["dwug_wic_only"] = results["dwug_kfold"]
    results["semeval_wic"] = {
        "untuned": results["semeval_frozen"]["untuned"],
        "runs": {"WordNet": frozen_runs["0"], "WordNet + WiC + MCL-WiC en-en": frozen_runs["2"]},
        "chosen": "WordNet + WiC + MCL-WiC en-en",
    }
    page = markdown(results)
    assert (
        "## DWUG EN, never seen: one model tuned on WordNet; WiC train; MCL-WiC en-en training (46 words; 300 steps; "
        "WordNet and the Word-in-Context pairs)" in page
    )
    wic_section = page[page.index("## SemEval-2013 and SemEval-2010 from Word-in-Context pairs") :]
    assert "| WordNet | 90 | 10.00 | 50.00 | 33.00 |" in wic_section  # beside the WordNet-only row, none chosen
    assert "| WordNet + WiC + MCL-WiC en-en | 90 | 10.00 | 50.00 | 35.00 |" in wic_section
    assert "## DWUG EN, never seen: one model tuned on WordNet (46 words; 300 steps; all-mpnet-base-v2)" in page
    assert "The untuned row is all-mpnet-base-v2 scored the same way" in page
    assert "(46 words; 1500 steps; distilled from all-mpnet-base-v2)" in page
    assert f"| {soup_label} | 0.420 | +0.120 [+0.100, +0.500] | 0.300 |" in page
    assert "(mean 0.405; untuned 0.300; issue 23's target 0.55); soup of seeds 0, 1, 2 0.420." in page
    assert f"| {wise_label} | – (no training) | 10.00 | 50.00 | 33.00 |" in page
    assert f"(spread 2.00; mean 34.00, untuned 32.00); {soup_label} 33.00; {wise_label} 33.00" in page
    assert "| seed 1 | 0.410 | +0.110 [+0.100, +0.500] | 0.300 |" in page
    assert "ρ PRT over the seeds: 0.400 to 0.410 (mean 0.405; untuned 0.300; issue 23's target 0.55)." in page
    assert "- semeval2013 AVG over the seeds: 33.00 to 35.00 (spread 2.00; mean 34.00, untuned 32.00)" in page
    assert "| WordNet + SemEval-2010 keys | 90 | 10.00 | 50.00 | 35.00 |" in page
    assert "| semeval2013: none; semeval2010: 3 lemmas |" in page  # the overlap of a task it trained on, counted
    assert "| target + context vector | 90 | 10.00 | 50.00 | 35.00 |" in page  # a comparison: no row is "chosen"
    assert "(`--context-vector 20:last:0.5`, fixed before any figure)" in page
    machines = (
        "dwug_kfold, dwug_wordnet_only_mpnet, dwug_wordnet_distill_long, dwug_wic, dwug_wic_only, semeval_unseen, "
        "semeval_context, "
        "semeval_sources, semeval_wic, semeval_seeds, dwug_seeds, semeval_soups, dwug_soups, wug_multilingual"
    )
    machines += ": test"
    assert f"- Machines: {machines}; semeval_frozen: another" in page
    assert "| untuned | – | 10.00 | 50.00 | 32.00 | 60.00 | 30.00 | 42.00 | 70.00 | – |" in page
    assert "| 0 (chosen) | 90 | 10.00 | 50.00 | 33.00 | 60.00 | 30.00 | 44.00 | 70.00 | none |" in page
    assert "| 2 | 90 | 10.00 | 50.00 | 35.00 | 60.00 | 30.00 | 42.00 | 70.00 | none |" in page
    assert "N = 0 has the best SemEval-2010 AVG" in page
    assert "| rusemshift1 (71 words) | tuned | 0.200 [0.10, 0.50]" in page
    assert "- rusemshift1: ρ PRT -0.100 [+0.100, +0.500]" in page
    assert "| rusemshift1 | dwug_en, nordiachange1 | 300 | 100 | 90 | 7.00 |" in page
    assert "| – | 13.0 |" in page  # no gold clusters: ARI shown as missing, not as 0
    assert "| tuned | 0.450 [0.10, 0.50]" in page
    assert "- ρ PRT: +0.150 [+0.100, +0.500]" in page
    assert "| semeval2013 | avg | 32.00 | 33.00 | +1.00 | none |" in page
    loop = {
        "pairs_per_second": 10.0,
        "uses_encoded": 20,
        "pairs": 10,
        "seconds_per_step": 1.5,
        "forward_share": 0.4,
        "backward_share": 0.6,
        "flop_per_second": 5e10,
        "share_of_peak": 0.5,
        "epoch_seconds": 600.0,
        "validation": {"loss": 7.0, "rho": 0.3},
    }
    bench = {
        "command": "python -m experiments.bench_tune",
        "machine": "test",
        "threads": 2,
        "peak_flop_per_second": 1e11,
        "date": "2026-12-03",
        "training_lemmas": 36,
        "training_pairs": 1000,
        "validation": {"lemmas": 10, "pairs": 1000, "start": {"loss": 8.0, "rho": 0.2}},
        "loops": {"naive": loop, "wsd tune": loop | {"pairs_per_second": 40.0}},
        "speedup": 4.0,
    }
    page = bench_markdown(bench)
    assert "**Speed-up: 4.00× the naive loop's pairs per second**" in page
    assert "| wsd tune | 40.0 | 2.00 | 1.50 | 40% | 60% | 50 | 50% | 10 min | 7.000 | 0.300 |" in page
    assert not math.isnan(bench["speedup"])


def _fake_shared(root, monkeypatch):
    """A shared folder with a two-file WordNet index and a small dated corpus (the SOTU cell's inputs)."""
    import gzip
    import json

    import experiments.tune as cell

    wordnet = root / "datasets" / cell.WORDNET
    wordnet.mkdir(parents=True)
    (wordnet / "index.noun").write_text(
        "  1 This software and database is being provided\n"
        "bank n 10 5 @ ~ #m %p + 10 0 09213565 08420278\n"
        "plant n 4 3 @ ~ + 4 2 00017222 03956922\n"
        "word n 10 3 @ ~ + 10 5 06286395 07140348\n"
        "ice_cream n 1 1 @ 1 0 07614500\n"
        "cell n 7 3 @ ~ + 7 3 00006484 02991555\n",
        encoding="utf-8",
    )
    (wordnet / "index.verb").write_text("plant v 6 2 @ ~ 6 1 01567275\nbank v 8 2 @ ~ 8 0 02343595\n")
    corpora = root / "corpora"
    corpora.mkdir()
    texts = [
        "The bank raised its rates. A word to the wise. The plant closed.",
        "They plant trees by the bank. Each word counts. The plants grew.",
        "A cell divides. The banks failed. The word was given.",
    ]
    lines = [json.dumps({"year": 1900 + n, "text": text}) for n, text in enumerate(texts)]
    with gzip.open(corpora / "sotu.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    monkeypatch.setattr(cell, "SOTU_MIN_USES", 3)
    monkeypatch.setattr(cell, "SOTU_LEMMAS", 1)
    return root / "datasets"


def test_the_sotu_cell_draws_polysemous_lemmas_found_often_enough_and_never_a_dwug_lemma(tmp_path, monkeypatch):
    import experiments.tune as cell
    from wsd.tune.sources import read_source

    data_dir = _fake_shared(tmp_path / "shared", monkeypatch)
    assert cell.polysemous_lemmas(data_dir / cell.WORDNET, 3) == ["bank", "cell", "plant", "word"]
    work = tmp_path / "work"
    work.mkdir()
    # bank, plant and word have 3 uses each (inflected forms found); word_nn is a DWUG lemma; cell has 1 use
    path = cell.sotu_uses(work, data_dir, {"word_nn"}, seed=0)
    pairset = read_source(f"uses:{path}")
    assert pairset.lemmas in (["bank"], ["plant"]) and len(pairset.uses) == 3 and len(pairset) == 3
    assert cell.sotu_uses(work, data_dir, {"word_nn"}, seed=0) == path  # written once
    assert not list(work.glob("*.partial*"))


def test_semeval_variants_train_each_rows_own_sources_and_exclude_the_semeval_lemmas(tmp_path, monkeypatch):
    import experiments.tune as cell

    work, data_dir = tmp_path / "work", tmp_path / "datasets"
    work.mkdir()
    (work / cell.SOTU_FILE).write_text("id\ttarget\ttext\tstart\tend\n", encoding="utf-8")  # drawn before
    (tmp_path / "mpnet").mkdir()
    (tmp_path / "mpnet" / "config.json").write_text("{}", encoding="utf-8")
    calls = []

    def fake_tune(out, train, *, steps, seed, options=None, **selection):
        calls.append({"folder": out.name, "train": list(train), "options": options, **selection})
        facts = {"training": {k: 0 for k in ("steps", "seconds", "final_loss", "best_step", "stopped_early")}}
        facts["training"] |= {"precision": "fp32", "machine": "m"}
        return facts | {"config": {"pairs": 1}, "training_lemmas": [], "validation_lemmas": [], "excluded_lemmas": []}

    scores = {"semeval2013": 0.3, "semeval2010": 0.4}
    monkeypatch.setattr(cell, "tune", fake_tune)
    monkeypatch.setattr(cell, "evaluate", lambda name, *_: {"overall": {"avg": scores[name]}, "training_overlap": []})
    result = cell.semeval_sotu_distill(work, data_dir, 300, 0, tmp_path / "mpnet")
    wordnet, distill, sotu = calls
    assert wordnet["train"] == distill["train"] == [f"wordnet:{data_dir / cell.WORDNET}"]
    assert sotu["train"] == [f"uses:{work / cell.SOTU_FILE}"] and sotu["folder"] == "sotu-no-semeval-distill"
    assert sotu["options"] == {"teacher": str(tmp_path / "mpnet"), "max_steps": cell.SOTU_STEPS}
    expected = [f"{name}:{data_dir / folder}" for name, folder in cell.SEMEVAL.items()]
    assert all(call["exclude"] == expected for call in calls)  # no row ever sees a SemEval lemma
    assert [run["trained_on"] for run in result["runs"].values()] == [["wordnet"], ["wordnet"], ["sotu"]]
    assert cell.Variant(*("f", None, ("semeval2010",))).sources == ("wordnet",)  # old 3-tuples keep their meaning


def test_the_multilingual_cells_train_the_other_wug_sets_and_their_extra_sources(tmp_path, monkeypatch):
    import experiments.tune as cell

    model, data_dir = tmp_path / "e5", tmp_path / "datasets"
    model.mkdir()
    (model / "config.json").write_text("{}", encoding="utf-8")
    calls = []

    def stop_after_training(out, train, *, steps, seed, options=None, **selection):
        calls.append({"folder": out.name, "train": list(train), "seed": seed, **selection})
        raise StopIteration  # the call is what is checked; nothing is scored

    monkeypatch.setattr(cell, "tune", stop_after_training)
    for name in (
        "wug_multilingual",
        "wug_multilingual_more",
        "wug_multilingual_more_seed1",
        "wug_multilingual_more_seed2",
    ):
        with pytest.raises(StopIteration):
            cell.wug_multilingual(tmp_path / "work", data_dir, 300, 0, model, name)
    plain, more, more_seed1, more_seed2 = calls
    assert [c["seed"] for c in calls] == [0, 0, 1, 2]  # only the seed cells train with another seed
    assert more_seed1["folder"] == "multilingual-more-seed1-norwegian"  # its own model, not the first seed's
    assert more_seed2["folder"] == "multilingual-more-seed2-norwegian"
    for other in (more_seed1, more_seed2):
        assert {k: v for k, v in other.items() if k not in ("seed", "folder")} == {
            k: v for k, v in more.items() if k not in ("seed", "folder")
        }
    assert plain["folder"] == "multilingual-norwegian" and more["folder"] == "multilingual-more-norwegian"
    assert more["train"] == [*plain["train"], f"wordnet:{data_dir / cell.WORDNET}"]  # the WUG sets, then WordNet
    assert more["exclude"] == plain["exclude"] and len(plain["exclude"]) == 2  # NorDiaChange 1 and 2 never seen
    assert all("nordiachange" not in source for source in more["train"])
    assert cell.MULTILINGUAL_MORE["russian"]["extra"] == ("wordnet", "russe2018")


def test_the_mpnet_seed_cell_trains_its_own_model_with_its_seed_and_keeps_the_untuned_evaluation(tmp_path, monkeypatch):
    import experiments.tune as cell

    base, data_dir = tmp_path / "all-mpnet-base-v2", tmp_path / "datasets"
    base.mkdir()
    (base / "config.json").write_text("{}", encoding="utf-8")
    trained, evaluated = [], []

    def fake_tune(out, train, *, steps, seed, options=None, **selection):
        trained.append((out.name, seed, options["model"]))
        return {"training": {}}

    def fake_evaluate(name, data_dir, model, out):
        evaluated.append((model, out.name))
        return {"overall": {"avg": 0.3}, "training_overlap": []}

    monkeypatch.setattr(cell, "tune", fake_tune)
    monkeypatch.setattr(cell, "training_summary", lambda facts: {})
    monkeypatch.setattr(cell, "evaluate", fake_evaluate)
    first = cell.semeval_unseen(tmp_path, data_dir, 300, 0, base=base)
    second = cell.semeval_unseen(tmp_path, data_dir, 300, 0, base=base, training_seed=1)
    assert trained == [
        ("all-mpnet-base-v2-wordnet-no-semeval", 0, str(base)),
        ("all-mpnet-base-v2-wordnet-no-semeval-seed1", 1, str(base)),
    ]
    assert [first["training_seed"], second["training_seed"]] == [0, 1]
    # both score SemEval-2013 only, each beside the same untuned evaluation; the tuned ones apart
    assert [out for _, out in evaluated] == [
        "eval-semeval2013-all-mpnet-base-v2-untuned",
        "eval-semeval2013-all-mpnet-base-v2-tuned",
        "eval-semeval2013-all-mpnet-base-v2-untuned",
        "eval-semeval2013-all-mpnet-base-v2-tuned-seed1",
    ]


def test_the_wic_cells_add_only_the_word_in_context_files_to_their_wordnet_only_counterparts(tmp_path, monkeypatch):
    """``dwug_wic`` / ``semeval_wic`` train as ``dwug_wordnet_only`` / ``semeval_sources``' WordNet row, plus the
    WiC and MCL-WiC en-en training files, with the same exclusions, steps and options (nothing is trained)."""
    import experiments.tune as cell

    data_dir = tmp_path / "datasets"
    gold = {"attack_nn": 0.1, "plane_nn": 0.2, "word_nn": 0.3}
    calls = []

    def fake_tune(out, train, *, steps, seed, options=None, **selection):
        calls.append({"folder": out.name, "train": list(train), "steps": steps, "seed": seed, "options": options})
        calls[-1] |= selection
        if out.name.startswith("dwug"):
            raise StopIteration  # the DWUG call is what is checked; nothing is scored
        facts = {"training": {k: 0 for k in ("steps", "seconds", "final_loss", "best_step", "stopped_early")}}
        facts["training"] |= {"precision": "fp32", "machine": "m"}
        return facts | {"config": {"pairs": 1}, "training_lemmas": [], "validation_lemmas": [], "excluded_lemmas": []}

    monkeypatch.setattr(cell, "tune", fake_tune)
    monkeypatch.setattr(cell, "_dwug_gold", lambda data_dir: (None, gold, "change_graded"))
    monkeypatch.setattr(cell, "word_figures", lambda bundle, words, model: {w: {} for w in words})
    monkeypatch.setattr(cell, "pooled", lambda figures, gold: {})
    for name in ("dwug_wordnet_only", "dwug_wic", "dwug_wic_only"):
        with pytest.raises(StopIteration):
            cell.dwug_kfold(tmp_path / "work", data_dir, 4, 300, 0, name)
    wordnet_only, wic, wic_only = calls
    wic_files = [
        f"wic:{data_dir / 'wic' / 'train' / 'train.data.txt'}",
        f"wic:{data_dir / 'mcl-wic' / 'training' / 'training.en-en.data'}",
    ]
    assert wordnet_only["train"] == [f"wordnet:{data_dir / cell.WORDNET}"]
    assert wic["train"] == [*wordnet_only["train"], *wic_files]
    assert wic["exclude_lemmas"] == sorted(gold)  # every DWUG EN lemma, from all three sources
    assert {k: v for k, v in wic.items() if k not in ("folder", "train")} == {
        k: v for k, v in wordnet_only.items() if k not in ("folder", "train")
    }
    assert wic["folder"] == "dwug-wordnet-wic" != wordnet_only["folder"]
    assert wic_only["train"] == wic_files and wic_only["folder"] == "dwug-wic-only"
    assert {k: v for k, v in wic_only.items() if k not in ("folder", "train")} == {
        k: v for k, v in wordnet_only.items() if k not in ("folder", "train")
    }
    assert cell.DWUG_VARIANTS["dwug_wic"].options is None and cell.DWUG_VARIANTS["dwug_wic"].one_model

    calls.clear()
    scores = {"semeval2013": 0.3, "semeval2010": 0.4}
    monkeypatch.setattr(cell, "evaluate", lambda name, *_: {"overall": {"avg": scores[name]}, "training_overlap": []})
    result = cell.semeval_wic(tmp_path / "work", data_dir, 300, 0)
    wordnet, semeval_wic, semeval_wic_only = calls
    assert wordnet["folder"] == "wordnet-no-semeval" and wordnet["train"] == wordnet_only["train"]
    assert semeval_wic["train"] == [*wordnet["train"], *wic_files]
    expected = [f"{name}:{data_dir / folder}" for name, folder in cell.SEMEVAL.items()]
    assert wordnet["exclude"] == semeval_wic["exclude"] == expected  # neither SemEval task's lemmas, in any source
    assert semeval_wic_only["train"] == wic_files and semeval_wic_only["exclude"] == expected
    assert wordnet["options"] is semeval_wic["options"] is semeval_wic_only["options"] is None
    assert semeval_wic["steps"] == semeval_wic_only["steps"] == 300
    assert [run["trained_on"] for run in result["runs"].values()] == [
        ["wordnet"],
        ["wordnet", "wic", "mcl_wic_en"],
        ["wic", "mcl_wic_en"],
    ]
    assert {"dwug_wic", "dwug_wic_only", "semeval_wic"} <= set(cell.CELLS) and "semeval_wic" in cell.SIMPLE_CELLS


def test_the_wic_cells_read_english_training_files_only(datasets_dir) -> None:
    import experiments.tune as cell
    from wsd.tune import wic

    for path in cell.WIC_SOURCES.values():
        assert (datasets_dir / path).is_file() and wic.gold_path(datasets_dir / path).is_file()
        assert wic.language(path) == "en" and "train" in path.name and not {"dev", "test"} & set(path.parts)
