"""No split from a handful of uses (issue 41, item 3): ``min_split_uses`` keeps a word with fewer uses in one
sense, and the outputs a reader reads (a warning, ``meta.json``, ``senses.parquet``'s note, ``senses.md``) say why."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs

from wsd.cli import main
from wsd.senses import SenseInducer
from wsd.senses.model import SenseModel
from wsd.senses.recipes import MIN_SPLIT_USES, recipe
from wsd.senses.stage import (
    FEW_USES_SPLIT,
    few_uses_split_reasons,
    fit_senses,
    one_sense_reasons,
    warn_one_sense,
    write_senses,
)


def _blobs(n: int, seed: int = 0) -> np.ndarray:
    """``n`` points in two far-apart blobs: any clusterer splits them in two when allowed to."""
    X, _ = make_blobs(n, centers=[[0.0] * 4, [10.0] * 4], cluster_std=0.3, n_features=4, random_state=seed)
    return X


def test_fewer_uses_than_the_floor_keep_one_sense_and_say_why() -> None:
    inducer = SenseInducer(method="ward", min_split_uses=20).fit(_blobs(5))
    assert inducer.n_senses_ == 1 and set(inducer.labels_) == {0}
    assert inducer.one_sense_reason_ == "5 uses, fewer than the 20 a split needs (min_split_uses)"
    assert inducer.k_scores_ == {}, "nothing was clustered"
    split = SenseInducer(method="ward", min_split_uses=20).fit(_blobs(20))
    assert split.n_senses_ == 2 and split.one_sense_reason_ == "", "at the floor a word is split"
    assert SenseInducer(method="ward").fit(_blobs(5)).n_senses_ == 2, "0, the estimator's default: no floor"
    two = SenseInducer(method="ward", min_split_uses=20).fit(_blobs(2))
    assert two.n_senses_ == 1 and two.one_sense_reason_.startswith("2 uses"), "two uses were two senses before"


def test_the_floor_applies_only_where_k_is_chosen() -> None:
    fixed = SenseInducer(method="ward", k=2, min_split_uses=20).fit(_blobs(6))
    assert fixed.n_senses_ == 2 and fixed.one_sense_reason_ == "", "a fixed k is what the user asked for"
    baseline = SenseInducer(method="one-per-instance", min_split_uses=20).fit(_blobs(4))
    assert baseline.n_senses_ == 4 and baseline.one_sense_reason_ == ""


@pytest.mark.parametrize("bad", [-1, 2.5, "20", True])
def test_a_bad_floor_is_a_config_error(bad) -> None:
    from wsd.errors import ConfigError

    with pytest.raises(ConfigError, match="min_split_uses"):
        SenseInducer(method="ward", min_split_uses=bad).fit(_blobs(10))


def test_a_weak_split_says_so() -> None:
    one_blob = np.random.default_rng(0).normal(size=(60, 4))
    inducer = SenseInducer(method="ward", one_sense_below=0.5).fit(one_blob)
    assert inducer.n_senses_ == 1
    assert inducer.one_sense_reason_.startswith("weak split: the best silhouette, 0.")
    assert inducer.one_sense_reason_.endswith("is below 0.5 (one_sense_below)")


def test_the_default_recipe_has_the_floor_and_the_textbook_none() -> None:
    assert recipe("default")["min_split_uses"] == MIN_SPLIT_USES >= 2
    assert "min_split_uses" not in recipe("textbook")


def _table(sizes: dict[str, int]) -> tuple[pd.DataFrame, np.ndarray]:
    rows, blocks = [], []
    for index, (target, n) in enumerate(sizes.items()):
        blocks.append(_blobs(n, seed=index))
        for i in range(n):
            text = f"the {target} number {i} of {'rivers' if i % 2 else 'money'}"
            rows.append({"id": f"{target}{i}", "target": target, "form": target, "text": text, "start": 4,
                         "end": 4 + len(target), "doc_id": f"d{index}", "doc_start": i})  # fmt: skip
    return pd.DataFrame(rows), np.vstack(blocks)


def test_the_outputs_say_why_a_word_kept_one_sense(tmp_path: Path) -> None:
    occurrences, X = _table({"virus": 5, "bank": FEW_USES_SPLIT})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model, _, proba = fit_senses(occurrences, X, SenseInducer(method="ward", min_split_uses=20))
    assert [str(w.message) for w in caught if "one sense" in str(w.message)] == [
        "1 target(s) kept one sense: virus: 5 uses, fewer than the 20 a split needs (min_split_uses); "
        "--min-split-uses 0 would split them"
    ]
    assert one_sense_reasons(model) == {"virus": "5 uses, fewer than the 20 a split needs (min_split_uses)"}
    write_senses(tmp_path, occurrences, X, model, proba)
    meta = json.loads((tmp_path / "meta.json").read_text(encoding="utf-8"))
    assert meta["one_sense"] == {"virus": "5 uses, fewer than the 20 a split needs (min_split_uses)"}
    assert meta["senses"] == {"virus": 1, "bank": 2}
    table = pd.read_parquet(tmp_path / "senses.parquet")
    assert table.loc[table["target"] == "virus", "note"].tolist() == [meta["one_sense"]["virus"]]
    assert set(table.loc[table["target"] == "bank", "note"]) == {""}
    markdown = (tmp_path / "senses.md").read_text(encoding="utf-8")
    assert "## virus\n\nOne sense: 5 uses, fewer than the 20 a split needs (min_split_uses).\n" in markdown
    assert "## bank\n\n| sense |" in markdown
    loaded = SenseModel.load(tmp_path / "model")
    assert one_sense_reasons(loaded) == one_sense_reasons(model), "the reason is saved with the model"


def test_a_word_split_on_few_uses_says_why_and_how_to_keep_it_one_sense(tmp_path: Path) -> None:
    occurrences, X = _table({"cell": 12, "bank": FEW_USES_SPLIT})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model, _, proba = fit_senses(occurrences, X, SenseInducer(method="ward", min_split_uses=8))
    reasons = few_uses_split_reasons(model)
    assert list(reasons) == ["cell"], f"{FEW_USES_SPLIT} uses and more: no reason"
    score = model.inducers_["cell"].k_scores_[2]
    assert reasons["cell"].startswith(
        f"2 senses from 12 uses: at least the 8 a split needs (min_split_uses), and the best silhouette, "
        f"{score:.3g}, is at k=2; below {FEW_USES_SPLIT} uses a split beat one sense on SemEval words, not on DWUG EN"
    )
    assert reasons["cell"].endswith("--min-split-uses 13 keeps it one sense")
    assert not [w for w in caught if "few uses" in str(w.message)], "said in the outputs, not warned"
    write_senses(tmp_path, occurrences, X, model, proba)
    meta = json.loads((tmp_path / "meta.json").read_text(encoding="utf-8"))
    assert meta["few_uses_split"] == reasons and meta["one_sense"] == {}
    table = pd.read_parquet(tmp_path / "senses.parquet")
    assert table.loc[table["target"] == "cell", "note"].tolist() == [reasons["cell"]] * 2
    markdown = (tmp_path / "senses.md").read_text(encoding="utf-8")
    assert f"## cell\n\nSplit: {reasons['cell']}.\n" in markdown and "## bank\n\n| sense |" in markdown
    # with the floor above its uses, the same word keeps one sense
    kept = SenseInducer(method="ward", min_split_uses=13).fit(X[:12])
    assert kept.n_senses_ == 1 and kept.one_sense_reason_.startswith("12 uses, fewer than the 13")


def test_the_warning_names_five_and_counts_the_rest() -> None:
    reasons = {f"w{i}": f"{i + 2} uses, fewer than the 20 a split needs (min_split_uses)" for i in range(7)}
    reasons["z"] = "weak split: the best silhouette, 0.01 (k=2), is below 0.02 (one_sense_below)"
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        message = warn_one_sense(reasons)
    assert message.startswith("8 target(s) kept one sense: w0: 2 uses")
    assert "; and 3 more (meta.json); --min-split-uses 0 and no --one-sense-below would split them" in message
    assert warn_one_sense({}) == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--min-split-uses", "-1"], "--min-split-uses: expected a number ≥ 0, got -1"),
        (["--min-split-uses", "few"], "--min-split-uses"),
        (["--set", "senses.min_split_uses=-3"], "senses.min_split_uses"),
    ],
)
def test_a_bad_floor_on_the_command_line_is_one_line_and_exit_2(tmp_path: Path, capsys, argv, message) -> None:
    try:
        code = main(["cluster", "--run", str(tmp_path / "missing"), *argv])
    except SystemExit as exit:  # argparse's own check
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_the_report_gives_the_reason_among_the_words_facts(tmp_path: Path) -> None:
    from wsd.io.run_store import write_run
    from wsd.report import write_report

    occurrences, X = _table({"virus": 5, "bank": FEW_USES_SPLIT, "cell": 12})
    run = tmp_path / "run"
    write_run(run, occurrences, X.astype(np.float32), {"config": {"corpus": "synthetic.txt"}})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, _, proba = fit_senses(occurrences, X.astype(np.float32), SenseInducer(method="ward", min_split_uses=8))
    write_senses(run / "senses", occurrences, X.astype(np.float32), model, proba)
    html = write_report(run).read_text(encoding="utf-8")
    assert "one sense: 5 uses, fewer than the 8 a split needs (min_split_uses)" in html
    assert html.count("one sense: ") == 1, "bank was split: no reason"
    assert "split on few uses: 2 senses from 12 uses: at least the 8 a split needs" in html
    assert html.count("split on few uses: ") == 1, "bank has enough uses: no reason"
