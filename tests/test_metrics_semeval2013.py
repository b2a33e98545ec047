"""SemEval-2013 FNMI / Fuzzy B-Cubed: parity with every row the official Java scorers printed."""

from __future__ import annotations

import csv
import math
import re
import warnings
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from wsd.errors import InputError
from wsd.evaluate.keys import read_key
from wsd.evaluate.metrics.semeval2013 import fuzzy_bcubed, fuzzy_nmi, score_semeval2013

TOLERANCE = 1e-9
TASK = "semeval2013-task13"


@cache
def _key(path: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Sapienza system-2 repeats 14 instance ids (last wins, as officially)
        return read_key(path)


@pytest.fixture(scope="module")
def task_dir(datasets_dir) -> Path:
    return datasets_dir / TASK


@pytest.fixture(scope="module")
def expected(task_dir) -> dict[tuple[str, str], list[dict]]:
    rows: dict[tuple[str, str], list[dict]] = defaultdict(list)
    with open(task_dir / "scorer-reference" / "expected.tsv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            rows[(row["gold"], row["system"])].append(row)
    return rows


def test_reference_covers_every_official_key(expected, task_dir):
    systems = {system for _, system in expected}
    on_disk = {
        str(p.relative_to(task_dir))
        for folder in ("keys/baselines", "keys/systems", "scorer-reference/keys")
        for p in (task_dir / folder).rglob("*.key")
    }
    assert on_disk <= systems
    assert sum(len(rows) for rows in expected.values()) > 5900


@pytest.mark.slow  # every system output of the task scored (about 30 s)
def test_full_parity_with_official_scorer(expected, task_dir):
    """Every per-word and "all" value of expected.tsv (both golds, all keys) within 1e-9."""
    mismatches, checked = [], 0
    for (gold_path, system_path), rows in sorted(expected.items()):
        if any(row["term"] == "ERROR" for row in rows):
            continue
        result = score_semeval2013(_key(str(task_dir / gold_path)), _key(str(task_dir / system_path)))
        for row in rows:
            term = row["term"]
            scores = result["overall"] if term == "all" else result["per_target"][term]
            if row["metric"] == "fnmi":
                pairs = [("fnmi", float(row["value"]))]
            else:
                pairs = [
                    ("fbc_p", float(row["precision"])),
                    ("fbc_r", float(row["recall"])),
                    ("fbc_f", float(row["value"])),
                ]
            for name, want in pairs:
                checked += 1
                if not abs(scores[name] - want) <= TOLERANCE:
                    mismatches.append((gold_path, system_path, term, name, scores[name], want))
        targets = {row["term"] for row in rows} - {"all"}
        assert set(result["per_target"]) == targets
        overall = result["overall"]
        assert overall["avg"] == pytest.approx(math.sqrt(overall["fnmi"] * overall["fbc_f"]))
    assert not mismatches[:10], f"{len(mismatches)} of {checked} values differ"
    assert checked > 11000


def test_malformed_official_keys_are_rejected_with_their_line(expected, task_dir):
    errors = {system: row["value"] for (_, system), rows in expected.items() for row in rows if row["term"] == "ERROR"}
    assert len(errors) == 2
    for system, message in errors.items():
        line = re.search(r"Malformed sense description on line (\d+)", message).group(1)
        with pytest.raises(InputError, match=rf"{re.escape(Path(system).name)}: .*on line {line}\b"):
            read_key(task_dir / system)


def test_gold_against_itself_scores_below_one_like_the_official_scorer(task_dir):
    gold = _key(str(task_dir / "keys" / "gold" / "all.key"))
    overall = score_semeval2013(gold, gold)["overall"]
    assert overall["fnmi"] == pytest.approx(1.0)
    assert round(overall["fbc_f"], 4) == 0.9917  # instances alone in their gold sense score 0


def test_restrict_to_gold_drops_system_only_instances(task_dir):
    gold = _key(str(task_dir / "keys" / "gold" / "all.singlesense.key"))
    system = _key(str(task_dir / "keys" / "systems" / "AI-KU" / "base" / "y-22-cluster-test.key"))
    official = score_semeval2013(gold, system)["overall"]
    restricted = score_semeval2013(gold, system, restrict_to_gold=True)["overall"]
    filtered = {t: {i: s for i, s in system[t].items() if i in gold[t]} for t in gold}
    assert restricted == score_semeval2013(gold, filtered)["overall"]
    assert restricted["fbc_r"] > official["fbc_r"]


def _hard(labels: dict[str, str]) -> dict[str, dict[str, float]]:
    return {instance: {label: 1.0} for instance, label in labels.items()}


def test_hand_computed_fuzzy_bcubed_and_missing_answers():
    gold = _hard({"i1": "a", "i2": "a", "i3": "b", "i4": "b"})
    # One cluster for all: precision 1, recall 1/3 (each item's 3 partners, one right).
    assert fuzzy_bcubed(gold, _hard(dict.fromkeys(gold, "x"))) == pytest.approx((1.0, 1 / 3))
    # i4 unanswered: i3 loses its partner's agreement, i4 scores 0 in both.
    precision, recall = fuzzy_bcubed(gold, _hard({"i1": "x", "i2": "x", "i3": "y"}))
    assert precision == pytest.approx(0.5)
    assert recall == pytest.approx(0.5)
    # Graded: agreement of shared senses is 1 - |w1 - w2|.
    graded = {"i1": {"x": 1.0, "y": 0.5}, "i2": {"x": 1.0}, "i3": {"z": 1.0}, "i4": {"z": 1.0}}
    precision, recall = fuzzy_bcubed(gold, graded)
    assert precision == pytest.approx(1.0)
    assert recall == pytest.approx(1.0)


def test_fuzzy_nmi_extremes():
    gold = _hard({"i1": "a", "i2": "a", "i3": "b", "i4": "b"})
    assert fuzzy_nmi(gold, _hard({"i1": "x", "i2": "x", "i3": "y", "i4": "y"})) == pytest.approx(1.0)
    assert fuzzy_nmi(gold, _hard(dict.fromkeys(gold, "x"))) == 0.0
    assert math.isnan(fuzzy_nmi(_hard(dict.fromkeys(gold, "a")), _hard(dict.fromkeys(gold, "x"))))


def test_targets_the_system_skips_score_zero():
    gold = {"a.n": _hard({"i1": "s", "i2": "s"}), "b.n": _hard({"j1": "s", "j2": "t"})}
    result = score_semeval2013(gold, {"a.n": _hard({"i1": "x", "i2": "x"})})
    assert result["per_target"]["b.n"] == {"fnmi": 0.0, "fbc_p": 0.0, "fbc_r": 0.0, "fbc_f": 0.0, "avg": 0.0}
    assert result["overall"]["fbc_p"] == pytest.approx(0.5)
