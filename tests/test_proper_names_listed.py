"""Likely proper names without a lemmatizer (issue 41, item 4): matching ignores case, so *state* finds *State*
(Secretary of State, the State of Georgia); the scan counts them per target, warns with their share where it is
at least ``WARN_SHARE``, and ``--keep-proper`` / ``--no-proper`` decide, as with a lemmatizer."""

from __future__ import annotations

import warnings
from pathlib import Path

from wsd.cli import main
from wsd.corpus.proper import WARN_SHARE, proper_message, warn_proper
from wsd.corpus.scan import ScanStats, build_scan_options, iter_occurrence_chunks
from wsd.io.run_reader import load_run, read_meta

#: state: 3 of 4 uses are capitalised mid-sentence; power: 1 of 21 (under WARN_SHARE).
CORPUS = (
    "The Secretary of State spoke. The State of Georgia agreed with the State Department.\n"
    "The state of the art is high.\n"
    "Water Power is a title. " + " ".join(["The power failed."] * 20) + "\n"
)


def _scan(corpus: Path, targets: str, **options) -> tuple[list[str], ScanStats, list[str]]:
    stats = ScanStats()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = list(iter_occurrence_chunks(corpus, build_scan_options(targets, **options), stats=stats))
    return [form for chunk in chunks for form in chunk["form"]], stats, [str(w.message) for w in caught]


def test_without_a_lemmatizer_the_share_is_warned_about_per_target(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    forms, stats, said = _scan(corpus, "state,power")
    assert forms.count("State") == 3 and forms.count("Power") == 1, "kept by default"
    assert stats.proper_table() == {"state": {"State": 3}, "power": {"Power": 1}}, "both counted"
    assert [m for m in said if "capitalised" in m] == [
        "state: 3 of 4 uses (75%) are capitalised mid-sentence (State 3): likely proper names; "
        "--no-proper drops them, --keep-proper keeps them without this warning"
    ], "power's 1 of 21 (5%) is under the share that warns"


def test_without_a_lemmatizer_drop_and_keep(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    forms, stats, said = _scan(corpus, "state", proper="drop")
    assert forms == ["state"] and stats.proper_table() == {"state": {"State": 3}}
    assert not [m for m in said if "capitalised" in m]
    forms, stats, said = _scan(corpus, "state", proper="keep")
    assert len(forms) == 4 and stats.proper_table() == {"state": {"State": 3}}, "counted for the run's summary"
    assert not [m for m in said if "capitalised" in m]


def test_the_share_that_warns() -> None:
    uses = {"power": 100}
    below = {"power": {"Power": int(100 * WARN_SHARE) - 1}}
    at = {"power": {"Power": int(100 * WARN_SHARE)}}
    assert proper_message(below, uses) == ""
    assert proper_message(at, uses).startswith("power: 5 of 100 uses (5%) are capitalised mid-sentence (Power 5)")
    assert proper_message(below, uses, min_share=0.0) != ""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert warn_proper(at, uses, "keep") == "" and warn_proper(at, uses, "drop") == ""
        assert warn_proper(at, uses, "warn").startswith("power: 5 of 100")
    assert len(caught) == 1


def test_wsd_embed_warns_without_a_lemmatizer_and_no_proper_drops(tmp_path: Path, capsys) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    argv = ["embed", "--corpus", str(corpus), "--targets", "state", "--no-progress", "--context-vector", "none"]
    assert main([*argv, "--out", str(tmp_path / "kept")]) == 0
    err = capsys.readouterr().err
    assert "wsd: warning: state: 3 of 4 uses (75%) are capitalised mid-sentence (State 3)" in err
    assert read_meta(tmp_path / "kept")["scan"]["proper"] == {"state": {"State": 3}}
    assert main([*argv, "--no-proper", "--out", str(tmp_path / "dropped")]) == 0
    assert "capitalised" not in capsys.readouterr().err
    occurrences, vectors = load_run(tmp_path / "dropped")
    assert occurrences["form"].tolist() == ["state"] and len(vectors) == 1
