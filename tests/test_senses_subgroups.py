"""What a sense contains (issue 41, item 2): examples across it, a sub-group flag, keywords without padding."""

from __future__ import annotations

import numpy as np
import pandas as pd

from wsd.senses.describe import describe_senses, distinguishing_words, senses_to_markdown
from wsd.senses.subgroups import SUBGROUP_MIN_MEMBERS, spread_examples, subgroup_test


def _two_meanings(n: int = 60, dim: int = 24, gap: float = 4.0, seed: int = 0) -> np.ndarray:
    """``n`` vectors: a dense majority (two thirds) and a minority ``gap`` apart along one direction."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, dim)) + 10.0 * np.eye(dim)[0]
    X[2 * n // 3 :] += gap * np.eye(dim)[1] * 2
    return X


def test_examples_come_from_every_part_of_a_sense_not_only_its_densest_one() -> None:
    X = _two_meanings()
    chosen = spread_examples(X, np.arange(len(X)), 3)
    assert len(set(chosen.tolist())) == 3
    assert (chosen >= 40).any() and (chosen < 40).any()  # the minority meaning is shown too
    centre = (X / np.linalg.norm(X, axis=1, keepdims=True)).mean(axis=0)
    assert chosen[0] == int(np.argmax((X / np.linalg.norm(X, axis=1, keepdims=True)) @ centre))  # typical first
    assert spread_examples(X, np.arange(4), 5).tolist() == [0, 1, 2, 3]


def test_a_sense_of_two_groups_is_flagged_and_one_group_is_not() -> None:
    two = _two_meanings(n=90)
    one = _two_meanings(n=90, gap=0.0)
    assert subgroup_test(two, np.arange(90)).flagged
    assert not subgroup_test(one, np.arange(90)).flagged
    assert subgroup_test(two, np.arange(90)).score > subgroup_test(one, np.arange(90)).score
    few = subgroup_test(two, np.arange(SUBGROUP_MIN_MEMBERS - 1))
    assert not few.flagged and np.isnan(few.score)  # too few uses to say


def test_the_flag_reaches_the_senses_table_and_senses_md() -> None:
    X = np.vstack([_two_meanings(n=60), _two_meanings(n=60, gap=0.0, seed=1) + 10.0 * np.eye(24)[5]])
    occurrences = pd.DataFrame({"id": [f"o{i}" for i in range(120)], "target": "bank", "form": "bank",
                                "text": ["the bank"] * 120, "start": 4, "end": 8})  # fmt: skip
    labels = np.repeat([0, 1], 60)
    table = describe_senses(occurrences, X, labels, n_examples=3)
    assert table["subgroups"].tolist() == [True, False]
    assert table.loc[0, "subgroup_score"] > table.loc[1, "subgroup_score"]
    page = senses_to_markdown(table)
    assert page.count("its uses form sub-groups") == 1


def test_keywords_are_never_padded_with_words_seen_once() -> None:
    # a small sense (6 uses) beside a large one: each small use has words of its own, seen once and tied
    small = [f"a tiny {{}} ran past the {w} quietly" for w in ("wrist", "bank", "account", "stopped", "table", "chair")]
    small = [t.replace("quietly", "cheese") if i % 2 else t for i, t in enumerate(small)]  # cheese: 3 of 6
    small = [t.replace("tiny", "tiny") for t in small]  # tiny: all 6
    large = [f"click the left {{}} button on screen {i}" for i in range(40)]
    texts = [t.format("mouse") for t in small + large]
    occurrences = pd.DataFrame({"id": [f"m{i}" for i in range(len(texts))], "target": "mouse", "form": "mouse",
                                "text": texts, "start": [t.index("mouse") for t in texts]})  # fmt: skip
    occurrences["end"] = occurrences["start"] + 5
    labels = np.array([0] * len(small) + [1] * len(large))
    table = describe_senses(occurrences, None, labels, n_keywords=10)
    animal = table.loc[0, "keywords"]
    assert "tiny" in animal and "cheese" in animal and "ran" in animal
    assert not set(animal) & {"wrist", "bank", "account", "stopped", "table", "chair"}
    assert len(animal) < 10  # fewer than asked rather than padded


def test_distinguishing_words_need_two_contexts_and_a_fisher_test() -> None:
    in_contexts = np.array([[1.0, 2.0, 2.0], [0.0, 0.0, 20.0]])
    result = distinguishing_words(in_contexts, np.array([4, 40]))
    assert result[0].tolist() == [False, True, False]  # once: never; twice here, 20 times among 40 others: no
    assert distinguishing_words(np.array([[1.0, 3.0]]), np.array([5])).tolist() == [[False, True]]  # one sense
