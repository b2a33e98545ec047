"""Training sources of ``wsd tune``: each reader on small hand-made files, the shared data, and every bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import make_wordnet_with_examples, write_lines, write_wug, wug_use

from wsd.errors import ConfigError, InputError
from wsd.tune import senses, wic, wordnet, wug
from wsd.tune.pairs import PairSet, concat, exclude_lemmas, normalize_lemma, sense_pairs
from wsd.tune.sources import SOURCE_KINDS, exclude_sources, parse_source, read_source, read_sources, source_lemmas


def _pairs(pairset: PairSet) -> set[tuple[str, str, float]]:
    """Pairs as (smaller raw id, larger raw id, label), the source prefix dropped."""
    raw = [
        (a.partition("#")[2], b.partition("#")[2], y)
        for a, b, y in pairset.pairs[["use_id_1", "use_id_2", "label"]].to_numpy()
    ]
    return {(min(a, b), max(a, b), float(y)) for a, b, y in raw}


# ----------------------------------------------------------------------------------------------------------
# lemmas and the pair set


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("part_nn", "part"),
        ("part.n", "part"),
        ("Part", "part"),
        ("add.v", "add"),
        ("circle_vb", "circle"),
        ("ice_cream", "ice cream"),
        ("take a  breath", "take a breath"),
        ("замок", "замок"),
        ("e.coli", "e.coli"),
    ],
)
def test_lemmas_are_compared_without_pos_tag_and_case(given: str, expected: str) -> None:
    assert normalize_lemma(given) == expected


def test_an_empty_lemma_is_an_error() -> None:
    with pytest.raises(InputError, match="empty"):
        normalize_lemma("  ")


def _tiny(source: str = "s", label: float = 1.0, kind: str = "binary", second: str = "s#2") -> PairSet:
    uses = pd.DataFrame(
        {
            "use_id": ["s#1", "s#2"],
            "lemma": ["bank", "bank"],
            "text": ["a bank", "the bank"],
            "start": [2, 4],
            "end": [6, 8],
            "source": [source, source],
        }
    )
    pairs = pd.DataFrame(
        {
            "use_id_1": ["s#1"],
            "use_id_2": [second],
            "lemma": ["bank"],
            "label": [label],
            "kind": [kind],
            "source": [source],
        }
    )
    return PairSet(uses, pairs, {source: {"pairs": 1}})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"label": 5.0, "kind": "graded"}, "out of range"),
        ({"label": 0.5}, "out of range"),
        ({"kind": "ranked"}, "label kind"),
        ({"second": "s#9"}, "not a use"),
        ({"second": "s#1"}, "itself"),
    ],
)
def test_a_pair_set_refuses_bad_rows(options: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        _tiny(**options)


def test_wide_table_has_both_sides() -> None:
    row = _tiny().wide().iloc[0]
    assert (row["text_1"][row["start_1"] : row["end_1"]], row["text_2"][row["start_2"] : row["end_2"]]) == (
        "bank",
        "bank",
    )


def test_sense_pairs_all_or_a_balanced_seeded_sample() -> None:
    senses_ = np.array(["a"] * 10 + ["b"] * 10)
    same = senses_[:, None] == senses_[None, :]
    first, second, label = sense_pairs(same, "bank", max_pairs=None, random_state=0)
    assert len(first) == 190 and label.sum() == 90
    first, second, label = sense_pairs(same, "bank", max_pairs=40, random_state=0)
    assert len(first) == 40 and label.sum() == 20 and (first < second).all()
    assert len(set(zip(first.tolist(), second.tolist(), strict=True))) == 40
    again = sense_pairs(same, "bank", max_pairs=40, random_state=0)
    other = sense_pairs(same, "bank", max_pairs=40, random_state=1)
    assert np.array_equal(first, again[0]) and not np.array_equal(first, other[0])
    with pytest.raises(ConfigError):
        sense_pairs(same, "bank", max_pairs=0, random_state=0)


# ----------------------------------------------------------------------------------------------------------
# wug:


def make_median_wug(root: Path) -> Path:
    uses = {
        "mouse_nn": [
            wug_use("mouse", "1", "m1", 'the "mouse" ran', "5:10"),
            wug_use("mouse", "1", "m2", "a mouse in it", "2:7"),
            wug_use("mouse", "2", "m3", "click the mouse", "10:15"),
            wug_use("mouse", "2", "m4", "a mouse pad", "2:7"),
        ],
        "bank_nn": [
            wug_use("bank", "1", "b1", "the bank of the river", "4:8"),
            wug_use("bank", "2", "b2", "the bank lent", "4:8"),
        ],
    }
    judgments = {
        # m1-m2 judged 4 and 3 (once in each order) and 4: median 4; m1-m3 only "cannot decide": left out;
        # m3-m4 judged 1, 0, 2: the 0 dropped, median 1.5; m2-m3 judged 2
        "mouse_nn": [
            "m1\tm2\tA\t4",
            "m2\tm1\tB\t3",
            "m1\tm2\tC\t4",
            "m1\tm3\tA\t0",
            "m3\tm1\tB\t0",
            "m3\tm4\tA\t1",
            "m4\tm3\tB\t0",
            "m3\tm4\tC\t2",
            "m2\tm3\tA\t2",
        ],
        "bank_nn": ["b1\tb2\tA\t1"],
    }
    return write_wug(root, uses, judgments=judgments)


def test_wug_pairs_are_medians_without_cannot_decide(tmp_path: Path) -> None:
    pairset = wug.load(make_median_wug(tmp_path / "wug"), name="wug:x")
    assert _pairs(pairset) == {("m1", "m2", 4.0), ("m3", "m4", 1.5), ("m2", "m3", 2.0), ("b1", "b2", 1.0)}
    assert set(pairset.pairs["kind"]) == {"graded"} and pairset.lemmas == ["bank", "mouse"]
    assert sorted(pairset.uses["use_id"]) == ["wug:x#b1", "wug:x#b2", "wug:x#m1", "wug:x#m2", "wug:x#m3", "wug:x#m4"]
    use = pairset.uses.set_index("use_id").loc["wug:x#m1"]
    assert use["text"][use["start"] : use["end"]] == "mouse"
    stats = pairset.stats["wug:x"]
    assert (stats["judgments"], stats["zero_judgments"], stats["judged_pairs"], stats["undecided_pairs"]) == (
        10,
        3,
        5,
        1,
    )
    assert stats["pairs"] == 4


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (None, "no judgments.csv"),
        ([], "empty WUG judgments file"),
        (["identifier1\tidentifier2\tjudgment"], "no judgments"),
        (["identifier1\tidentifier2\tjudgment", "b1\tb2\tx"], r"judgments.csv:2: judgment 'x' is not a number"),
        (["identifier1\tidentifier2\tjudgment", "b1\tb2\t5"], "not on the scale"),
        (["identifier1\tidentifier2\tjudgment", "b1\tzz\t1"], "'zz' is not a use"),
        (["identifier1\tidentifier2\tjudgment", "b1\tb1\t4"], "against itself"),
        (["identifier1\tidentifier2\tscore", "b1\tb2\t4"], "missing column"),
        (["identifier1\tidentifier2\tjudgment", "b1\tb2"], "judgments.csv:2: 2 tab-separated fields"),
    ],
)
def test_bad_wug_judgments_are_one_clear_error(tmp_path: Path, lines: list[str] | None, message: str) -> None:
    root = make_median_wug(tmp_path / "wug")
    file = root / "data" / "bank_nn" / "judgments.csv"
    file.unlink()
    if lines is not None:
        file.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    with pytest.raises(InputError, match=message) as error:
        wug.load(root)
    assert "bank_nn" in str(error.value)


# ----------------------------------------------------------------------------------------------------------
# wic:


def test_wic_token_indices_and_gold_beside(tmp_path: Path) -> None:
    data = write_lines(
        tmp_path / "train.data.txt",
        ["bank\tN\t3-1\tHe sat on bank .\tThe bank lent money .", "run\tV\t1-0\tI run fast\tRunning late"],
    )
    write_lines(tmp_path / "train.gold.txt", ["F", "T"])
    pairset = wic.load(data, name="wic:t")
    wide = pairset.wide()
    spans = [(r.text_1[r.start_1 : r.end_1], r.text_2[r.start_2 : r.end_2], r.label) for r in wide.itertuples()]
    assert spans == [("bank", "bank", 0.0), ("run", "Running", 1.0)]
    assert list(wide["lemma"]) == ["bank", "run"] and set(wide["kind"]) == {"binary"}
    assert pairset.stats["wic:t"] == {
        "pairs": 2,
        "same": 1,
        "different": 1,
        "uses": 4,
        "self_pairs_skipped": 0,
        "repeats_skipped": 0,
    }


def test_xlwic_char_offsets_label_inline_or_in_gold(tmp_path: Path) -> None:
    rows = ["Bank\tN\t0\t4\t4\t8\tBank closed\tThe bank\t1", "Bank\tN\t0\t4\t4\t8\tBank closed\tRiver bank\t0"]
    pairset = wic.load(write_lines(tmp_path / "de_train.txt", rows))
    assert list(pairset.pairs["label"]) == [1.0, 0.0]
    assert len(pairset.uses) == 3  # "Bank closed" recurs: one use
    test = write_lines(tmp_path / "de_test_data.txt", [row.rpartition("\t")[0] for row in rows])
    write_lines(tmp_path / "de_test_gold.txt", ["0", "1"])
    assert list(wic.load(test).pairs["label"]) == [0.0, 1.0]


def test_mclwic_json_with_ranges_or_offsets(tmp_path: Path) -> None:
    items = [
        {
            "id": "t.0",
            "lemma": "play",
            "pos": "NOUN",
            "sentence1": "a key play",
            "sentence2": "a musical play",
            "start1": "6",
            "end1": "10",
            "start2": "10",
            "end2": "14",
        },
        {
            "id": "t.1",
            "lemma": "play",
            "pos": "NOUN",
            "sentence1": "the play",
            "sentence2": "play it",
            "ranges1": "4-8",
            "ranges2": "0-4",
        },
    ]
    data = tmp_path / "training.en-en.data"
    data.write_text(json.dumps(items), encoding="utf-8")
    (tmp_path / "training.en-en.gold").write_text(json.dumps([{"id": "t.1", "tag": "T"}, {"id": "t.0", "tag": "F"}]))
    wide = wic.load(data).wide()
    assert [(r.text_1[r.start_1 : r.end_1], r.text_2[r.start_2 : r.end_2], r.label) for r in wide.itertuples()] == [
        ("play", "play", 0.0),
        ("play", "play", 1.0),
    ]


@pytest.mark.parametrize(
    ("data", "gold", "message"),
    [
        (["bank\tN\t0-0\ta\tb"], None, "no gold file beside it"),
        (["bank\tN\t0-0\ta\tb", "bank\tN\t0-0\tc\td"], ["T"], "1 gold labels for 2 data lines"),
        (["bank\tN\t0-0\ta\tb"], ["maybe"], r"train.gold.txt:1: gold label 'maybe'"),
        (["bank\tN\t0-4\tbank\tthe bank"], ["T"], r"train.data.txt:1: token index 4 is past"),
        (["bank\tN\t0-1\tbank\tthe bank", "bank\tN\t0-1\tbank"], ["T", "T"], r"train.data.txt:2: 4 tab-separated"),
        (["bank\tN\t1\tbank\tthe bank"], ["T"], "not 'i-j'"),
        (["bank\tN\t0\t9\t0\t4\tbank\tbank\t1"], None, "outside the sentence"),
        ([], None, "empty WiC data file"),
    ],
)
def test_bad_wic_files_are_one_clear_error(
    tmp_path: Path, data: list[str], gold: list[str] | None, message: str
) -> None:
    file = tmp_path / "train.data.txt"
    file.write_text("".join(f"{line}\n" for line in data), encoding="utf-8")
    if gold is not None:
        write_lines(tmp_path / "train.gold.txt", gold)
    with pytest.raises(InputError, match=message):
        wic.load(file)


def test_mclwic_without_gold_is_an_error(tmp_path: Path) -> None:
    data = tmp_path / "dev.en-en.data"
    data.write_text(
        json.dumps(
            [{"id": "d.0", "lemma": "x", "sentence1": "x", "sentence2": "x y", "ranges1": "0-1", "ranges2": "0-1"}]
        ),
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"dev\.en-en\.gold not found"):
        wic.load(data)


# ----------------------------------------------------------------------------------------------------------
# sense datasets


def test_sense_dataset_pairs_share_the_top_sense(tmp_path: Path) -> None:
    rows = [
        "id\ttarget\ttext\tstart\tend\tsense",
        "a1\tadd.v\tadd it\t0\t3\ts1/4 s2/2",
        "a2\tadd.v\tto add\t3\t6\ts1",
        "a3\tadd.v\tadd up\t0\t3\ts2",
        "a4\tadd.v\tadd more\t0\t3\ts2/1 s3/1",
        "a5\tadd.v\tadd\t0\t3\t",
        "b1\tbank.n\tbank\t0\t4\tb1",
    ]
    pairset = senses.load("generic", write_lines(tmp_path / "senses.tsv", rows), name="generic:s")
    assert _pairs(pairset) == {
        ("a1", "a2", 1.0),
        ("a1", "a3", 0.0),
        ("a1", "a4", 0.0),
        ("a2", "a3", 0.0),
        ("a2", "a4", 0.0),
        ("a3", "a4", 1.0),
    }
    assert pairset.lemmas == ["add"]
    stats = pairset.stats["generic:s"]
    assert (stats["uses"], stats["unlabelled"], stats["paired_uses"], stats["pairs"]) == (5, 1, 4, 6)


def test_sense_dataset_caps_pairs_per_target(tmp_path: Path) -> None:
    rows = ["id\ttarget\ttext\tstart\tend\tsense"] + [f"u{i}\tbank\tbank\t0\t4\ts{i % 3}" for i in range(30)]
    pairset = senses.load("generic", write_lines(tmp_path / "many.tsv", rows), max_pairs_per_lemma=50)
    assert len(pairset) == 50 and pairset.counts()["same"].item() == 25


def test_sense_dataset_without_gold_is_an_error(tmp_path: Path) -> None:
    file = write_lines(
        tmp_path / "plain.tsv", ["id\ttarget\ttext\tstart\tend", "a\tbank\tbank\t0\t4", "b\tbank\tbank\t0\t4"]
    )
    with pytest.raises(InputError, match="no gold senses"):
        senses.load("generic", file)


# ----------------------------------------------------------------------------------------------------------
# wordnet:


#: Per data file, each synset's line after ``offset lex_filenum ss_type``: ``w_cnt word lex_id ... p_cnt ... | gloss``.
def test_wordnet_database_lines_parse() -> None:
    line = (
        "00001740 29 v 04 breathe 0 take_a_breath 0 respire 0 suspire 3 001 * 00005041 v 0000 02 + 02 00 + 08 00 "
        '| draw air into, and expel out of, the lungs; "I can breathe better when the air is clean"; '
        '"The patient is respiring"'
    )
    synset = wordnet.parse_line(line, "data.verb:30")
    assert synset.words == ("breathe", "take a breath", "respire", "suspire")
    assert synset.definition == "draw air into, and expel out of, the lungs"
    assert synset.examples == ("I can breathe better when the air is clean", "The patient is respiring")


def test_wordnet_examples_and_glosses_make_pairs(tmp_path: Path) -> None:
    root = make_wordnet_with_examples(tmp_path / "wn")
    assert [s.key for s in wordnet.read_synsets(root)][:1] == ["00000085-n"]
    pairset = wordnet.load(root, name="wordnet:w")
    stats = pairset.stats["wordnet:w"]
    # 10 examples; "no word of it here" names no word of its synset
    assert (stats["examples"], stats["examples_located"], stats["examples_unlocated"]) == (10, 9, 1)
    # only noun "bank" has two senses with located examples: 4 example uses + 2 gloss uses
    assert (stats["words"], stats["example_uses"], stats["gloss_uses"]) == (1, 4, 2)
    assert pairset.lemmas == ["bank"] and len(pairset) == 15 and pairset.counts()["same"].item() == 6
    texts = {row.text: row.text[row.start : row.end] for row in pairset.uses.itertuples()}
    assert texts["he sat on the banks of the river"] == "banks"
    assert texts["bank: sloping land beside water"] == "bank"
    same = {frozenset((a.text_1, a.text_2)) for a in pairset.wide().itertuples() if a.label == 1}
    assert frozenset(("he cashed a check at the bank", "bank: a financial institution")) in same
    every = wordnet.load(root, min_senses=1)  # an example and its gloss are a pair even for one sense
    assert every.lemmas == ["bank", "goose", "mouse", "ready to hand", "take a breath"]
    assert wordnet.load(root, min_senses=1, glosses=False).lemmas == ["bank"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"offset_shift": 3}, "is not the line's byte offset"),
        ({"corrupt": "00099999 05 n zz bank"}, "malformed WordNet"),
    ],
)
def test_bad_wordnet_files_are_one_clear_error(tmp_path: Path, options: dict, message: str) -> None:
    with pytest.raises(InputError, match=message) as error:
        wordnet.load(make_wordnet_with_examples(tmp_path / "wn", **options))
    assert "data.noun:" in str(error.value)


def test_wordnet_without_a_data_file_is_an_error(tmp_path: Path) -> None:
    root = make_wordnet_with_examples(tmp_path / "wn")
    (root / "data.adv").unlink()
    with pytest.raises(InputError, match=r"data\.adv"):
        wordnet.load(root)


# ----------------------------------------------------------------------------------------------------------
# read_source, exclusion


def test_read_source_by_kind_and_concatenation(tmp_path: Path) -> None:
    spec_wug = f"wug:{make_median_wug(tmp_path / 'wug')}"
    spec_wn = f"wordnet:{make_wordnet_with_examples(tmp_path / 'wn')}"
    both = read_sources([spec_wug, spec_wn])
    assert both.sources == [spec_wug, spec_wn]
    assert both.counts()[["lemmas", "pairs", "graded", "same"]].to_numpy().tolist() == [[2, 4, 4, 0], [1, 15, 0, 6]]
    assert both.lemmas == ["bank", "mouse"]
    assert len(both.lemma_counts()) == 3
    with pytest.raises(InputError, match="given twice"):
        concat([read_source(spec_wug), read_source(spec_wug)])


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("nowhere", ConfigError, "not KIND:PATH"),
        ("corpus:/tmp", ConfigError, "unknown training source kind 'corpus'"),
        ("wug:/no/such/folder", InputError, "not found"),
    ],
)
def test_bad_source_specs(spec: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        read_source(spec)
    assert "wordnet" in SOURCE_KINDS and parse_source("wic:.")[0] == "wic"


def test_exclusion_by_lemma_and_by_dataset(tmp_path: Path) -> None:
    pairset = read_sources(
        [f"wug:{make_median_wug(tmp_path / 'wug')}", f"wordnet:{make_wordnet_with_examples(tmp_path / 'wn')}"]
    )
    assert exclude_lemmas(pairset, ["Mouse.n"]).lemmas == ["bank"]
    without_bank = exclude_lemmas(pairset, ["bank_nn"])
    assert without_bank.lemmas == ["mouse"] and without_bank.sources == [pairset.sources[0]]
    assert set(without_bank.uses["lemma"]) == {"mouse"}
    with pytest.raises(ConfigError, match="leaves no pair to train on"):
        exclude_lemmas(pairset, ["bank", "mouse_nn"])
    other = write_lines(tmp_path / "eval.tsv", ["id\ttarget\ttext\tstart\tend\tsense", "x\tmouse.n\tmouse\t0\t5\ts"])
    assert source_lemmas(f"generic:{other}") == {"mouse"}
    assert exclude_sources(pairset, [f"generic:{other}"]).lemmas == ["bank"]
    assert source_lemmas(f"wug:{tmp_path / 'wug'}") == {"bank", "mouse"}


# ----------------------------------------------------------------------------------------------------------
# the shared data


@pytest.mark.datasets
def test_dwug_en_judged_pairs(datasets_dir: Path) -> None:
    pairset = read_source(f"wug:{datasets_dir / 'lscd' / 'dwug_en'}")
    stats = next(iter(pairset.stats.values()))
    assert (stats["words"], stats["uses"], stats["judgments"], stats["zero_judgments"]) == (46, 9107, 68887, 3015)
    assert (stats["judged_pairs"], stats["undecided_pairs"], stats["pairs"]) == (45448, 1664, 43784)
    assert len(pairset.uses) == 9071 and len(pairset.lemmas) == 46 and "part" in pairset.lemmas
    labels = pairset.pairs["label"]
    assert labels.between(1, 4).all() and not (labels == 0).any() and set(labels * 2 % 1) == {0.0}
    assert (labels % 1 == 0.5).sum() > 0


@pytest.mark.datasets
@pytest.mark.parametrize(
    "folder", ["nordiachange/subset1", "nordiachange/subset2", "rusemshift/rusemshift_1", "rusemshift/rusemshift_2"]
)
def test_other_wug_sets_read(datasets_dir: Path, folder: str) -> None:
    pairset = read_source(f"wug:{datasets_dir / 'lscd' / folder}")
    assert len(pairset) > 1000 and pairset.pairs["label"].between(1, 4).all()


@pytest.mark.datasets
@pytest.mark.slow
def test_wordnet_examples_located(datasets_dir: Path) -> None:
    pairset = wordnet.load(datasets_dir / "wordnet-3.0")
    stats = next(iter(pairset.stats.values()))
    assert (stats["synsets"], stats["examples"]) == (117659, 48239)
    assert stats["examples_located"] == 47431 and stats["examples_unlocated"] == 808
    examples = pairset.uses.loc[~pairset.uses["use_id"].str.contains(".gloss.", regex=False)]
    per_lemma = examples.groupby("lemma").size()
    assert (per_lemma["bank"], per_lemma["part"], per_lemma["break"]) == (15, 12, 77)
    assert set(pairset.pairs["label"]) == {0.0, 1.0}


@pytest.mark.datasets
def test_sense_datasets_read_as_pairs(datasets_dir: Path) -> None:
    pairset = read_source(f"semeval2013:{datasets_dir}")
    stats = next(iter(pairset.stats.values()))
    assert (stats["targets"], stats["uses"], stats["pairs"]) == (50, 4664, 48897)
    assert exclude_sources(pairset, [f"semeval2010:{datasets_dir}"]).lemmas == sorted(
        set(pairset.lemmas) - source_lemmas(f"semeval2010:{datasets_dir}")
    )
