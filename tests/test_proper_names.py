"""Likely proper names (issue 25): a lemmatizer maps *States* onto *state* and *Лука* onto *лук*; the scan counts
them, warns once with the counts, and ``--keep-proper`` / ``--no-proper`` decides."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from wsd.cli import main
from wsd.corpus.matcher import Match
from wsd.corpus.proper import at_sentence_start, is_capitalised, likely_proper
from wsd.corpus.scan import ScanOptions, ScanStats, build_scan_options, iter_occurrence_chunks, scan
from wsd.errors import ConfigError
from wsd.io.run_reader import load_run, read_meta

pytest.importorskip("simplemma")

ENGLISH = (
    "The United States signed the treaty. States differ in size.\n"
    "In the States, the state of the art is high.\n"
    "Two states agree; the State Department does not.\n"
)
#: Every use of state in ENGLISH, in order, and which of them are capitalised mid-sentence.
FORMS = ["States", "States", "States", "state", "states", "State"]
PROPER = [True, False, True, False, False, True]
RUSSIAN = "Лука пришёл домой. Вчера Лука купил лук. Много лука на рынке.\n"


@pytest.fixture()
def english(tmp_path: Path) -> Path:
    path = tmp_path / "en.txt"
    path.write_text(ENGLISH, encoding="utf-8")
    return path


def _scan(corpus: Path, targets: str, **options) -> tuple[list[str], ScanStats, list[str]]:
    """The forms found, the scan's stats and the warnings it gave."""
    stats = ScanStats()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = list(iter_occurrence_chunks(corpus, build_scan_options(targets, **options), stats=stats))
    forms = [form for chunk in chunks for form in chunk["form"]]
    return forms, stats, [str(w.message) for w in caught]


def test_capitals_and_sentence_starts() -> None:
    assert is_capitalised("States") and is_capitalised("Лука")
    assert not is_capitalised("states") and not is_capitalised("STATES") and not is_capitalised("")
    assert at_sentence_start("States differ", 0)
    assert at_sentence_start("Yes. States differ", 5) and at_sentence_start("Yes?\n«States»", 6)
    assert at_sentence_start("a line\nStates", 7)
    assert not at_sentence_start("the United States", 11) and not at_sentence_start("In the States, x", 7)
    assert not at_sentence_start("States", 0, open_start=True), "a block whose sentence began before it"
    text = "the United States"
    assert likely_proper(text, Match(11, 17, "States", "state"))
    assert not likely_proper(text, Match(11, 17, "States", "state"), listed={"States"}), "a form the user listed"
    assert not likely_proper(text, Match(11, 17, "States", "States")), "a capitalised target"


def test_the_scan_counts_them_and_warns_once_by_default(english: Path) -> None:
    forms, stats, said = _scan(english, "state", lemmatizer="simplemma")
    assert forms == FORMS, "kept by default"
    assert stats.proper_table() == {"state": {"States": 2, "State": 1}}
    proper = [m for m in said if "capitalised mid-sentence" in m]
    assert proper == [
        "state: 3 of 6 uses (50%) are capitalised mid-sentence (States 2, State 1): likely proper names; "
        "--no-proper drops them, --keep-proper keeps them without this warning"
    ]


def test_keep_keeps_them_silently_and_drop_leaves_them_out(english: Path) -> None:
    forms, stats, said = _scan(english, "state", lemmatizer="simplemma", proper="keep")
    assert forms == FORMS and stats.proper_table() == {"state": {"States": 2, "State": 1}}
    assert not [m for m in said if "capitalised" in m]
    forms, stats, said = _scan(english, "state", lemmatizer="simplemma", proper="drop")
    assert forms == [form for form, proper in zip(FORMS, PROPER, strict=True) if not proper]
    assert stats.proper_table() == {"state": {"States": 2, "State": 1}}, "what was dropped is counted"
    assert not [m for m in said if "capitalised" in m]
    table = scan(english, "state", lemmatizer="simplemma", proper="drop")
    assert "United States" not in " ".join(table["text"]), "never in the occurrence table, never embedded"


def test_listed_forms_without_a_lemmatizer_are_counted_and_warned_about(english: Path) -> None:
    forms, stats, said = _scan(english, "state:states")  # matched ignoring case: States and State are found
    assert forms == FORMS and stats.proper_table() == {"state": {"States": 2, "State": 1}}
    assert [m for m in said if "capitalised" in m] == [
        "state: 3 of 6 uses (50%) are capitalised mid-sentence (States 2, State 1): likely proper names; "
        "--no-proper drops them, --keep-proper keeps them without this warning"
    ]
    forms, _, _ = _scan(english, "state:states", proper="drop")  # asked for: the same rule
    assert forms == [form for form, proper in zip(FORMS, PROPER, strict=True) if not proper]
    forms, stats, _ = _scan(english, "state:States", case_sensitive=True, lemmatizer="simplemma", proper="drop")
    assert forms.count("States") == 3 and stats.proper_table() == {"state": {"State": 1}}, "listed with a capital"


def test_russian_name_and_onion(tmp_path: Path) -> None:
    corpus = tmp_path / "ru.txt"
    corpus.write_text(RUSSIAN, encoding="utf-8")
    forms, stats, said = _scan(corpus, "лук", lemmatizer="simplemma")
    assert forms == ["Лука", "Лука", "лук", "лука"], "simplemma maps the name onto the onion"
    assert stats.proper_table() == {"лук": {"Лука": 1}}, "only the one mid-sentence"
    assert any(m.startswith("лук: 1 of 4 uses (25%) are capitalised mid-sentence (Лука 1)") for m in said)
    forms, _, _ = _scan(corpus, "лук", lemmatizer="simplemma", proper="drop")
    assert forms == ["Лука", "лук", "лука"]


def test_only_dropping_enters_the_scan_identity() -> None:
    def options(**settings) -> ScanOptions:
        return build_scan_options({"state": ["state"]}, lemmatizer="simplemma", **settings)

    assert "proper" not in options().to_dict(), "runs made before the option keep their identity"
    assert options(proper="keep").to_dict() == options().to_dict(), "same occurrences"
    dropped = options(proper="drop").to_dict()
    assert dropped["proper"] == "drop" and ScanOptions.from_dict(dropped).proper == "drop"
    with pytest.raises(ConfigError, match="proper must be one of warn, keep, drop"):
        options(proper="maybe")


def _embed(corpus: Path, out: Path, *flags: str, capsys) -> tuple[int, str]:
    argv = ["embed", "--corpus", str(corpus), "--targets", "state", "--out", str(out), "--lemmatizer", "simplemma"]
    argv += ["--no-progress", "--context-vector", "none", *flags]
    code = main(argv)
    return code, capsys.readouterr().err


def test_the_flags_on_the_command_line(english: Path, tmp_path: Path, capsys) -> None:
    dropped = tmp_path / "dropped"
    code, err = _embed(english, dropped, "--no-proper", capsys=capsys)
    assert code == 0 and "capitalised" not in err
    occurrences, vectors = load_run(dropped)
    assert occurrences["form"].tolist() == ["States", "state", "states"] and len(vectors) == 3
    meta = read_meta(dropped)
    assert meta["scan"]["proper"] == {"state": {"States": 2, "State": 1}}
    assert meta["config"]["scan"]["proper"] == "drop"
    code, err = _embed(english, dropped, capsys=capsys)  # the default keeps them: another scan
    assert code == 2 and "different configuration" in err and "proper" in err

    kept = tmp_path / "kept"
    code, err = _embed(english, kept, capsys=capsys)
    assert code == 0 and "wsd: warning: state: 3 of 6 uses (50%) are capitalised mid-sentence" in err
    assert len(load_run(kept)[0]) == 6 and read_meta(kept)["scan"]["proper"] == {"state": {"States": 2, "State": 1}}
    config = (kept / "config.toml").read_text(encoding="utf-8")
    assert 'proper = "warn"' in config
    code, err = _embed(english, kept, "--keep-proper", capsys=capsys)  # the same occurrences: the run is reused
    assert code == 0 and "capitalised" not in err
    assert json.loads((kept / "meta.json").read_text())["status"] == "complete"
    code, err = _embed(english, kept, capsys=capsys)  # reused again, and the default warns again
    assert code == 0 and "3 of 6 uses (50%) are capitalised" in err


def test_the_run_summary_counts_them(english: Path, tmp_path: Path, capsys) -> None:
    """`wsd run` prints, per target, how many of its uses are likely proper names (or how many were dropped)."""
    from wsd.workflows.run import format_summary

    base = {"occurrences": {"state": 6, "bank": 4}, "senses": {"state": 2, "bank": 2}, "run": "r", "senses_dir": "s"}
    kept = format_summary(base | {"proper": {"state": 3}, "proper_policy": "warn"})
    header, state, bank = kept.splitlines()[:3]
    assert "of them names" in header
    assert state.split() == ["state", "6", "3", "2"] and bank.split() == ["bank", "4", "0", "2"]
    assert "--no-proper drops them" in kept
    dropped = format_summary(base | {"proper": {"state": 3}, "proper_policy": "drop"})
    assert "names dropped" in dropped.splitlines()[0] and "--no-proper drops them" not in dropped
    assert "names" not in format_summary(base | {"proper": {}, "proper_policy": "warn"})  # none met: no column

    argv = ["run", "--corpus", str(english), "--targets", "state", "--lemmatizer", "simplemma", "--no-progress"]
    assert main([*argv, "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("state"))
    assert "of them names" in out and row.split()[:3] == ["state", "6", "3"]
