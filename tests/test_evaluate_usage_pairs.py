"""``wsd evaluate --dataset wug`` → ``usage_pairs``: how the vectors' cosines follow the human usage-pair judgments."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from helpers import CHANGE_SENSES, change_wug_config, change_wug_vectors, make_change_wug

from wsd.cli import main
from wsd.evaluate.datasets import load_dataset
from wsd.evaluate.metrics.usage_pairs import pair_cosines
from wsd.io.layout import METRICS_FILE, REPORT_MARKDOWN
from wsd.workflows.benchmark import evaluate
from wsd.workflows.results import format_table
from wsd.workflows.usage_pairs import usage_pair_agreement


def _judge(root: Path, word: str, rule, name: str = "judgments.csv") -> None:
    """Judge every pair of ``word``'s uses by ``rule(sense_a, sense_b)``, twice: the median is the rule's."""
    occurrences = load_dataset("wug", root).occurrences
    mine = occurrences[occurrences["target"] == word]
    senses = dict(zip(mine["id"], _senses(word, mine["id"]), strict=True))
    lines = ["identifier1\tidentifier2\tannotator\tjudgment"]
    for a, b in itertools.combinations(sorted(senses), 2):
        value = rule(senses[a], senses[b])
        lines += [f"{a}\t{b}\tA\t{value}", f"{b}\t{a}\tB\t{value}", f"{a}\t{b}\tC\t0"]  # 0: dropped
    (root / "data" / word / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _senses(word: str, ids) -> list[int]:
    out = []
    for ident in ids:
        period, i = ident.split("_")[1:]
        out.append(CHANGE_SENSES[word][0 if period == "1" else 1][int(i)])
    return out


def test_vectors_that_follow_the_senses_follow_judgments_made_from_them(tmp_path: Path) -> None:
    root = make_change_wug(tmp_path / "wug")
    for word in ("stable", "half"):  # "swap" has no judgments file
        _judge(root, word, lambda a, b: 4 if a == b else 1)
    occurrences = load_dataset("wug", root).occurrences
    entry = usage_pair_agreement(root, occurrences, change_wug_vectors(occurrences))
    # two-valued judgments, perfectly separated by the cosine: the highest ρ ties allow (about 0.86)
    assert entry["words"] == 2 and 0.8 < entry["spearman_words"] < 1.0 and entry["spearman_pooled"] > 0.8
    assert entry["pairs"] == 2 * 66  # 12 uses: every one of the 66 pairs, once however often it was judged
    assert entry["without"] == {"swap": "no judgments file"}
    assert set(entry["per_word"]) == {"stable", "half"} and entry["per_word"]["half"]["pairs"] == 66
    assert np.mean([w["spearman"] for w in entry["per_word"].values()]) == pytest.approx(entry["spearman_words"])
    # judgments that contradict the senses give a negative ρ
    _judge(root, "stable", lambda a, b: 1 if a == b else 4)
    contradicted = usage_pair_agreement(root, occurrences, change_wug_vectors(occurrences))
    assert contradicted["spearman_words"] == pytest.approx(0.0, abs=0.05)  # +0.86 and -0.86
    assert contradicted["spearman_pooled"] < 0.0


def test_a_word_whose_judgments_are_all_alike_has_no_rho_and_says_why(tmp_path: Path) -> None:
    root = make_change_wug(tmp_path / "wug")
    _judge(root, "stable", lambda a, b: 3)
    occurrences = load_dataset("wug", root).occurrences
    entry = usage_pair_agreement(root, occurrences, change_wug_vectors(occurrences))
    assert entry["words"] == 0 and entry["spearman_words"] is None and entry["spearman_pooled"] is None
    assert entry["without"]["stable"] == "ρ undefined (a side constant)"


def test_without_any_judgments_it_is_not_measured_and_says_so(tmp_path: Path) -> None:
    root = make_change_wug(tmp_path / "wug")
    occurrences = load_dataset("wug", root).occurrences
    entry = usage_pair_agreement(root, occurrences, change_wug_vectors(occurrences))
    assert entry["reason"] == f"no judgments file in {root / 'data'}" and "words" not in entry
    assert format_table({"overall": {"ari": 0.5}, "usage_pairs": entry}).endswith(
        f"usage pairs: not measured (no judgments file in {root / 'data'})"
    )


def test_a_malformed_judgments_file_is_a_warning_naming_it_and_the_evaluation_goes_on(tmp_path: Path) -> None:
    root = make_change_wug(tmp_path / "wug")
    _judge(root, "half", lambda a, b: 4 if a == b else 1)
    bad = root / "data" / "stable" / "judgments.csv"
    bad.write_text("identifier1\tidentifier2\tjudgment\nstable_1_0\tstable_1_1\tseven\n", encoding="utf-8")
    occurrences = load_dataset("wug", root).occurrences
    with pytest.warns(UserWarning, match=r"usage-pair agreement not measured: .*judgments\.csv:2: judgment 'seven'"):
        result = evaluate(change_wug_config(root), vectors=change_wug_vectors(occurrences), progress=False)
    assert "judgments.csv:2" in result["usage_pairs"]["reason"]
    assert result["overall"]["ari"] == pytest.approx(1.0)  # the other scores do not need the judgments


def test_the_cli_writes_it_to_metrics_json_and_prints_it(tmp_path: Path, capsys) -> None:
    root = make_change_wug(tmp_path / "wug")
    for word in CHANGE_SENSES:
        _judge(root, word, lambda a, b: 4 if a == b else 1)
    out = tmp_path / "out"
    code = main(["evaluate", "--dataset", "wug", "--data", str(root), "--out", str(out), "--report", "--no-progress"])
    assert code == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    document = json.loads((out / METRICS_FILE).read_text(encoding="utf-8"))
    entry = document["usage_pairs"]
    assert entry["words"] == 3 and entry["pairs"] == 3 * 66 and entry["without"] == {}
    assert -1.0 <= entry["spearman_words"] <= 1.0
    assert f"Spearman ρ {entry['spearman_words']:.3f} (mean over 3 words" in printed
    assert list(document)[-2:] == ["usage_pairs", "versions"]
    # the report's evaluation section gives it too
    page = (out / REPORT_MARKDOWN).read_text(encoding="utf-8")
    assert f"Usage pairs: cosine against the median human judgment, Spearman ρ {entry['spearman_words']:.3f}" in page


def test_pair_cosines_of_a_zero_vector_is_zero_not_nan() -> None:
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    assert pair_cosines(X, np.array([0, 1]), np.array([1, 2])).tolist() == pytest.approx([0.0, 1.0])
