"""``wic:`` as a training source: every WiC-family format and folder, self-pairs and repeats, cross-lingual pairs,
AM2iCo, exclusion, the model card's counts, bad input, and every shared file as shipped."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from wsd.errors import InputError
from wsd.tune import wic
from wsd.tune.card import language_counts, model_card
from wsd.tune.sources import check_distinct_sources, exclude_sources, read_source, source_lemmas

AM2ICO_HEAD = "context1\tcontext2\tlabel"


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _mclwic(path: Path, items: list[dict], tags: list[str] | None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    if tags is not None:
        gold = [{"id": item["id"], "tag": tag} for item, tag in zip(items, tags, strict=True)]
        wic.gold_path(path).write_text(json.dumps(gold), encoding="utf-8")
    return path


def _item(ident: str, lemma: str, first: str, second: str, ranges1: str, ranges2: str) -> dict:
    return {"id": ident, "lemma": lemma, "pos": "NOUN", "sentence1": first, "sentence2": second,
            "ranges1": ranges1, "ranges2": ranges2}  # fmt: skip


def _spans(pairset) -> list[tuple[str, str, str, float]]:
    wide = pairset.wide()
    return [(r.lemma, r.text_1[r.start_1 : r.end_1], r.text_2[r.start_2 : r.end_2], r.label) for r in wide.itertuples()]


def _crosslingual(folder: Path) -> Path:
    items = [
        _item("test.en-ru.0", "lock", "Turn the lock .", "Открой замок .", "9-13", "7-12"),
        _item("test.en-ru.1", "lock", "A lock of hair .", "Старый замок .", "2-6", "7-12"),
    ]
    return _mclwic(folder / "test.en-ru.data", items, ["T", "F"])


def _am2ico(path: Path, rows: list[str] | None = None) -> Path:
    rows = rows or [
        "Ein  <word>Schloss</word> aus Eisen .\tThe <word>Lock</word> is old .\tT",
        "Das <word> Schloss </word> am See .\tA <word>lock</word> of hair .\tF",
    ]
    return _write(path, [AM2ICO_HEAD, *rows])


# ----------------------------------------------------------------------------------------------------------
# formats


def test_crosslingual_mclwic_pairs_are_keyed_by_the_english_lemma(tmp_path: Path) -> None:
    pairset = wic.load(_crosslingual(tmp_path), name="wic:x")
    assert _spans(pairset) == [("lock", "lock", "замок", 1.0), ("lock", "lock", "замок", 0.0)]
    assert set(pairset.uses["lemma"]) == {"lock"} and wic.lemmas(tmp_path / "test.en-ru.data") == {"lock"}


def test_am2ico_tags_removed_and_english_word_is_the_lemma(tmp_path: Path) -> None:
    pairset = wic.load(_am2ico(tmp_path / "de" / "dev.tsv"), name="wic:a")
    assert _spans(pairset) == [("lock", "Schloss", "Lock", 1.0), ("lock", "Schloss", "lock", 0.0)]
    assert not pairset.uses["text"].str.contains("<word>|</word>").any()
    assert list(pairset.uses["text"])[:2] == ["Ein  Schloss aus Eisen .", "The Lock is old ."]
    assert wic.lemmas(tmp_path / "de" / "dev.tsv") == {"lock"}
    assert wic.is_am2ico(tmp_path / "de" / "dev.tsv") and wic.language("wic:am2ico/de/dev.tsv") == "en-de"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("mcl-wic/test.en-ru.data", "en-ru"),
        ("mcl-wic/dev.fr-fr.data", "fr"),
        ("wic/train/train.data.txt", "en"),
        ("am2ico/ru/test.tsv", "en-ru"),
        ("xlwic/de_test_data.txt", "de"),
        ("notes.md", None),
    ],
)
def test_the_language_of_a_file_comes_from_its_name(name: str, expected: str | None) -> None:
    assert wic.language(name) == expected


# ----------------------------------------------------------------------------------------------------------
# self-pairs and repeats


def test_self_pairs_and_repeats_are_skipped_with_one_warning(tmp_path: Path) -> None:
    data = _write(
        tmp_path / "train.data.txt",
        [
            "bank\tN\t1-1\tthe bank .\tthe bank .",  # a use with itself
            "bank\tN\t1-1\tthe bank .\ta bank loan",
            "bank\tN\t1-1\ta bank loan\tthe bank .",  # the same pair, sides swapped
            "bank\tN\t0-0\tbank it\tbank it",  # another self-pair
            "bank\tN\t1-1\tthe bank .\ta bank loan",  # again
        ],
    )
    _write(tmp_path / "train.gold.txt", ["T", "F", "F", "T", "F"])
    with pytest.warns(UserWarning, match=r"skipped 2 pair\(s\) of a use with itself and 2 repeated") as caught:
        pairset = wic.load(data, name="wic:t")
    assert len(caught) == 1 and len(pairset) == 1 and len(pairset.uses) == 2
    assert pairset.stats["wic:t"] | {} == {
        "pairs": 1,
        "same": 0,
        "different": 1,
        "uses": 2,
        "self_pairs_skipped": 2,
        "repeats_skipped": 2,
    }


def test_a_repeat_with_another_label_is_an_error(tmp_path: Path) -> None:
    data = _write(tmp_path / "train.data.txt", ["bank\tN\t1-1\tthe bank .\ta bank loan"] * 2)
    _write(tmp_path / "train.gold.txt", ["T", "F"])
    with pytest.raises(InputError, match=r"train\.data\.txt: pair 2 repeats pair 1 .* with another label"):
        wic.load(data)


def test_a_clean_file_gives_no_warning(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(wic.load(_crosslingual(tmp_path))) == 2


# ----------------------------------------------------------------------------------------------------------
# folders


def _folder(root: Path) -> Path:
    _crosslingual(root / "test" / "crosslingual")
    items = [_item("dev.fr-fr.0", "avocat", "Un avocat mûr", "Un avocat plaide", "3-9", "3-9")]
    _mclwic(root / "dev" / "dev.fr-fr.data", items, ["F"])
    _mclwic(root / "dev" / "dev.ru-ru.data", [_item("d.0", "замок", "замок", "замок стоит", "0-5", "0-5")], None)
    _write(root / "README.txt", ["not data"])
    _am2ico(root / "am2ico" / "de" / "dev.tsv")
    return root


def test_a_folder_reads_every_labelled_file_and_warns_once_for_those_without_gold(tmp_path: Path) -> None:
    root = _folder(tmp_path / "wic")
    with pytest.warns(UserWarning, match=r"skipped 1 data file\(s\) whose gold file is missing") as caught:
        pairset = read_source(f"wic:{root}")
    assert len(caught) == 1
    assert pairset.sources == [
        f"wic:{root}/am2ico/de/dev.tsv",
        f"wic:{root}/dev/dev.fr-fr.data",
        f"wic:{root}/test/crosslingual/test.en-ru.data",
    ]
    assert pairset.counts()["pairs"].tolist() == [2, 1, 2]
    # the lemmas of a folder take the data files without gold too
    assert wic.lemmas(root) == {"lock", "avocat", "замок"}


def test_a_folder_without_gold_is_an_error(tmp_path: Path) -> None:
    _mclwic(tmp_path / "dev.ru-ru.data", [_item("d.0", "x", "x", "x y", "0-1", "0-1")], None)
    with pytest.raises(InputError, match=r"no WiC data file with its gold file in this folder \(1 data file"):
        wic.load(tmp_path)
    (tmp_path / "dev.ru-ru.data").unlink()
    with pytest.raises(InputError, match="no WiC data file"):
        wic.lemmas(tmp_path)


def test_a_gold_file_with_a_folder_is_an_error(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    with pytest.raises(InputError, match="gold file is given for a folder"):
        wic.load(root, gold=root / "x.gold")


def test_exclusion_drops_crosslingual_and_am2ico_lemmas(tmp_path: Path) -> None:
    root = _folder(tmp_path / "wic")
    with pytest.warns(UserWarning):
        pairset = read_source(f"wic:{root}")
    assert source_lemmas(f"wic:{root / 'am2ico'}") == {"lock"}
    kept = exclude_sources(pairset, [f"wic:{root / 'test'}"])
    assert set(kept.pairs["lemma"]) == {"avocat"} and set(pairset.without_lemmas(["Lock"]).pairs["lemma"]) == {"avocat"}


# ----------------------------------------------------------------------------------------------------------
# the model card


def test_the_card_counts_pairs_per_file_and_language_and_the_skipped_pairs(tmp_path: Path) -> None:
    sources = [
        {"name": "wic:d/test.en-ru.data", "counts": {"pairs": 999}, "lemmas": ["lock"], "read": {"repeats_skipped": 1}},
        {"name": "wic:d/dev.en-en.data", "counts": {"pairs": 10}, "lemmas": ["a"]},
        {"name": "wic:w/train.data.txt", "counts": {"pairs": 5}, "lemmas": ["b"]},
        {"name": "wic:a/de/dev.tsv", "counts": {"pairs": 4}, "lemmas": ["c"]},
        {"name": "wug:x", "counts": {"pairs": 7}, "lemmas": ["d"]},
    ]
    assert language_counts(sources) == {
        "en": {"files": 2, "pairs": 15},
        "en-de": {"files": 1, "pairs": 4},
        "en-ru": {"files": 1, "pairs": 999},
    }
    facts = {"base_model": {"name": "m"}, "config": {"options": {}}, "sources": sources}
    card = model_card(facts)
    assert "| en-ru | 1 | 999 |" in card and "| en | 2 | 15 |" in card
    assert "| `wic:d/test.en-ru.data` | 0 | 0 | 999 |" in card
    assert "`wic:d/test.en-ru.data` as read: 0 pair(s) of a use with itself and 1 repeated pair(s) skipped" in card


# ----------------------------------------------------------------------------------------------------------
# bad input: one line each


def _bad_am2ico(tmp_path: Path, row: str) -> Path:
    return _am2ico(tmp_path / "dev.tsv", [row])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda d: (_write(d / "train.data.txt", ["a\tN\t0-0\ta\ta b"] * 2), _write(d / "train.gold.txt", ["T"]))[0],
            r"train\.gold\.txt: 1 gold labels for 2 data lines",
        ),
        (
            lambda d: _mclwic(d / "dev.en-en.data", [_item("d.0", "x", "x", "x y", "0-1", "0-1")], ["maybe"]),
            r"dev\.en-en\.gold: item 1: gold label 'maybe' is not T/F",
        ),
        (
            lambda d: _mclwic(d / "dev.en-en.data", [_item("d.0", "x", "x", "x y", "0-1", "0-9")], ["T"]),
            r"dev\.en-en\.data: item 1 \(id 'd\.0'\): target span 0-9 lies outside the sentence",
        ),
        (lambda d: _bad_am2ico(d, "Ein Schloss .\tThe <word>lock</word> .\tT"), r"dev\.tsv:2: context1 has 0 <word>"),
        (
            lambda d: _bad_am2ico(d, "<word>Ein</word> <word>Schloss</word>\tThe <word>lock</word> .\tT"),
            r"dev\.tsv:2: context1 has 2 <word>",
        ),
        (lambda d: _bad_am2ico(d, "<word>Ein</word>\t<word> </word> x\tT"), r"dev\.tsv:2: context2 tags an empty word"),
        (lambda d: _bad_am2ico(d, "<word>Ein</word>\t<word>a</word>\tX"), r"dev\.tsv:2: gold label 'X' is not T/F"),
        (lambda d: _bad_am2ico(d, "<word>Ein</word>\t<word>a</word>"), r"dev\.tsv:2: 2 tab-separated fields"),
        (lambda d: _write(d / "dev.tsv", [AM2ICO_HEAD]), r"dev\.tsv: empty AM2iCo file"),
        (lambda d: _write(d / "train.data.txt", []), r"train\.data\.txt: empty WiC data file"),
        (lambda d: _write(d / "dev.en-en.data", ["[]"]), r"dev\.en-en\.data: empty MCL-WiC data file"),
    ],
)
def test_bad_input_is_one_line_naming_file_and_line(tmp_path: Path, make, message: str) -> None:
    file = make(tmp_path)
    with pytest.raises(InputError, match=message) as caught:
        wic.load(file)
    assert "\n" not in str(caught.value)


def test_bad_input_exits_2_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from wsd.cli import main

    _write(tmp_path / "empty" / "notes.txt", ["nothing"])
    code = main(["tune", "--train", f"wic:{tmp_path / 'empty'}", "--out", str(tmp_path / "out"), "--no-progress"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no WiC data file with its gold file" in err[0]


# ----------------------------------------------------------------------------------------------------------
# the shared data, as shipped

#: Pairs as loaded per shared file: 1,000 a file unless named here (the files' own line or item counts, less
#: the self-pairs and repeats that the reader skips).
SHARED_PAIRS = {
    "wic/train/train.data.txt": 5428 - 3 - 1,  # 3 self-pairs (lines 163, 535, 4552), line 3376 repeats 2139 swapped
    "wic/dev/dev.data.txt": 638,
    "mcl-wic/training/training.en-en.data": 8000,
    "mcl-wic/test/crosslingual/test.en-ru.data": 1000 - 1,  # id 499 repeats an earlier pair
    "am2ico/de/dev.tsv": 500,
    "am2ico/de/dev_larger.tsv": 5000,
    "am2ico/ru/dev.tsv": 500,
}
SHARED_FILES = [
    *("wic/train/train.data.txt", "wic/dev/dev.data.txt", "mcl-wic/training/training.en-en.data"),
    *(f"mcl-wic/dev/multilingual/dev.{x}-{x}.data" for x in ("ar", "en", "fr", "ru", "zh")),
    *(f"mcl-wic/test/crosslingual/test.en-{x}.data" for x in ("ar", "fr", "ru", "zh")),
    *(f"mcl-wic/test/multilingual/test.{x}-{x}.data" for x in ("ar", "fr", "zh")),
    *(f"am2ico/{x}" for x in ("de/dev.tsv", "de/dev_larger.tsv", "de/test.tsv", "ru/dev.tsv", "ru/test.tsv")),
]


def test_every_shared_wic_file_loads_with_the_expected_pairs(datasets_dir: Path) -> None:
    found: dict[str, int] = {}
    for folder in ("wic", "mcl-wic", "am2ico"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pairset = wic.load(datasets_dir / folder, name=f"wic:{folder}")
        counts = pairset.counts().set_index("source")["pairs"]
        found |= {source.removeprefix("wic:"): int(n) for source, n in counts.items()}
    assert sorted(found) == sorted(SHARED_FILES)
    assert found == {name: SHARED_PAIRS.get(name, 1000) for name in SHARED_FILES}
    with pytest.warns(UserWarning, match=r"skipped 3 pair\(s\) of a use with itself and 1 repeated"):
        wic.load(datasets_dir / "wic" / "train" / "train.data.txt")
    crosslingual = wic.load(datasets_dir / "mcl-wic/test/crosslingual/test.en-zh.data")
    assert crosslingual.uses["lemma"].str.fullmatch(r"[a-z .'-]+").all()  # keyed by the English lemma


@pytest.mark.slow  # trains an encoder (1 step)
def test_a_tuned_model_card_counts_the_folder_per_file_and_language(tmp_path: Path) -> None:
    from wsd.io.layout import TUNE_FILE
    from wsd.tune import TuneOptions, tune_encoder

    root = _folder(tmp_path / "wic")
    _mclwic(root / "dev" / "dev.ru-ru.data", [_item("d.0", "замок", "замок", "замок стоит", "0-5", "0-5")], ["T"])
    rows = ["bank\tN\t1-1\tthe bank .\ta bank loan", "bank\tN\t1-1\ta bank loan\tthe bank ."]
    _write(root / "wic" / "train.data.txt", rows)
    _write(root / "wic" / "train.gold.txt", ["F", "F"])
    options = TuneOptions(max_steps=1, batch_uses=4, progress=False, validation_fraction=0.0, device="cpu")
    unreadable = pytest.warns(UserWarning, match=r"1 of 6 targets \(замок\) are split by all-MiniLM-L6-v2")
    with unreadable, pytest.warns(UserWarning, match="1 repeated pair"):
        result = tune_encoder([f"wic:{root}"], tmp_path / "model", options=options)
    facts = json.loads((result.out / TUNE_FILE).read_text(encoding="utf-8"))
    read = {source["name"].removeprefix(f"wic:{root}/"): source["read"] for source in facts["sources"]}
    assert read["wic/train.data.txt"]["repeats_skipped"] == 1 and len(read) == 5
    card = (result.out / "README.md").read_text(encoding="utf-8")
    for row in ("| en | 1 | 1 |", "| en-de | 1 | 2 |", "| en-ru | 1 | 2 |", "| fr | 1 | 1 |", "| ru | 1 | 1 |"):
        assert row in card
    assert "train.data.txt` as read: 0 pair(s) of a use with itself and 1 repeated pair(s) skipped" in card


def test_a_file_inside_a_wic_folder_given_as_well_is_refused_under_any_spelling(tmp_path):
    folder = tmp_path / "wic"
    (folder / "train").mkdir(parents=True)
    data = folder / "train" / "train.data.txt"
    data.write_text("bank\tN\t1-1\tthe bank rose\tthe bank fell\n", encoding="utf-8")
    (folder / "train" / "train.gold.txt").write_text("T\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(data)
    for spelling in (str(data), f"{tmp_path}/wic/../wic/train/train.data.txt", str(link), str(folder / "train")):
        with pytest.raises(InputError, match="lies inside wic:"):
            check_distinct_sources([f"wic:{folder}", f"wic:{spelling}"])
    check_distinct_sources([f"wic:{folder / 'train'}", f"wordnet:{tmp_path}"])  # a folder above it, not a wic: one


#: Ordinary English words, each one piece of MiniLM's vocabulary.
ENGLISH_WORDS = """bank bat cell mouse plant lock key spring match light fair ring bark pitch rock seal watch train case
point line state power interest party order court house"""


@pytest.mark.slow  # trains an encoder (1 step)
def test_tuning_the_english_base_on_another_script_warns_as_embed_does(tmp_path: Path, recwarn, capsys) -> None:
    import pandas as pd

    from wsd.cli import main
    from wsd.embed.encoder import Encoder
    from wsd.tune.api import warn_unreadable_words

    encoder = Encoder(device="cpu", precision="fp32")  # the bundled English MiniLM
    english = pd.DataFrame({"text": ["Turn the lock ."], "start": [9], "end": [13]})
    assert warn_unreadable_words(encoder, english) == {} and not recwarn.list
    crosslingual = pd.DataFrame({"text": ["Turn the lock .", "Открой замок ."], "start": [9, 7], "end": [13, 12]})
    with pytest.warns(UserWarning, match=r"1 of 2 targets \(замок\) are split by .*multilingual"):
        assert set(warn_unreadable_words(encoder, crosslingual)) == {"замок"}
    # a few odd English words among many are no other script: no warning
    common = ENGLISH_WORDS.split()
    odd = pd.DataFrame({"text": [*common, "zizz"], "start": 0, "end": [len(w) for w in [*common, "zizz"]]})
    assert warn_unreadable_words(encoder, odd) == {} and not recwarn.list
    # and `wsd tune` says it before training (one step on the en-ru pairs)
    data = _crosslingual(tmp_path / "mcl")
    argv = ["tune", "--train", f"wic:{data}", "--out", str(tmp_path / "tuned"), "--max-steps", "1"]
    argv += ["--batch-uses", "4", "--device", "cpu", "--no-progress", "--validation-fraction", "0"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "1 of 2 targets (замок) are split by all-MiniLM-L6-v2" in err and "multilingual" in err
