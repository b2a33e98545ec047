"""Ownership by manifest (issue 26): wsd removes or replaces only files its manifests list and that are unchanged.

Each reproduction of the issue's findings 1, 2, 3 and 6 (and the failed empty-corpus run) is a test here; a
property test seeds wsd folders with files of the user's under wsd's own names and checks that every one of
them survives claiming and ``--overwrite``, byte for byte.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import warnings
from pathlib import Path

import pytest
from helpers import synthetic_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wsd.cli import main
from wsd.corpus.documents import corpus_files
from wsd.io import manifest
from wsd.io.atomic import WriteFailed, atomic_write
from wsd.io.layout import MANIFEST_FILE
from wsd.io.outputs import OutputRefused, check_disjoint, claim_folder, inspect, remove_wsd_files, session

LINES = ["The bank raised its rate.", "We sat on the bank of the river.", "The mouse ran.", "A bank and a mouse."]

#: Names wsd writes, at the places a user might put files of their own under them.
WSD_NAMES = [
    "run/corpus.jsonl",
    "run/train.sh",
    "run/meta.json",
    "run/parts/occ-00000-00000.parquet",
    "senses/annotations.tsv",
    "senses/meta.json",
    "senses/model/sense_model.json",
    "change/counts.csv",
    "config.toml",
    "meta.json",
    "metrics.json",
    "report.md",
    "report_figures/my_plot.png",
    "parts/shards.json",
    "notes.txt",
]


def corpus_file(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


def senses_of(run: Path, out: Path) -> Path:
    assert main(["cluster", "--run", str(run), "--method", "kmeans", "--k", "2", "--out", str(out)]) == 0
    return out


def snapshot(path: Path) -> dict[str, bytes | None]:
    """Every file under ``path`` with its bytes (folders as None)."""
    return {str(p.relative_to(path)): p.read_bytes() if p.is_file() else None for p in sorted(path.rglob("*"))}


def _write(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def wsd_output(out: Path) -> Path:
    """An output folder as wsd writes it: OUT, OUT/run, OUT/senses, OUT/change, each with its manifest."""
    with session():
        claim_folder(out, "output")
        for sub, kind, files in (
            ("run", "run", ["meta.json", "parts/occ-00000-00000.parquet"]),
            ("senses", "senses", ["meta.json", "labels.parquet"]),
            ("change", "change", ["change.json", "counts.csv"]),
        ):
            claim_folder(out / sub, kind)
            for name in files:
                _write(out / sub / name, f"wsd's {sub}/{name}")
        for name in ("metrics.json", "config.toml", "report.md", "report_figures/a.png"):
            _write(out / name, f"wsd's {name}")
    return out


def _user_files(root: Path) -> dict[Path, bytes]:
    """Every file under ``root`` that is not wsd's (not listed-and-unchanged, not bookkeeping)."""
    found = {}
    for path in root.rglob("*"):
        if path.is_file() and path.name not in (MANIFEST_FILE, "wsd.lock") and manifest.status(path) != "match":
            found[path] = path.read_bytes()
    return found


# ---------------------------------------------------------------------------------------------- finding 1
def test_overwrite_never_deletes_the_corpus_inside_out(tmp_path: Path, capsys) -> None:
    corpus = corpus_file(tmp_path / "P" / "run" / "corpus.txt")
    argv = ["run", "--corpus", str(corpus), "--targets", "mouse", "--out", str(tmp_path / "P"), "--overwrite"]
    before = corpus.read_bytes()
    assert main([*argv, "--no-progress"]) == 2
    assert "contains the --corpus input" in capsys.readouterr().err
    assert corpus.read_bytes() == before


def test_overwrite_keeps_user_files_inside_wsd_folders(tmp_path: Path) -> None:
    out = wsd_output(tmp_path / "P")
    (out / "run" / "train.sh").write_text("#!/bin/sh\n")
    (out / "senses" / "annotations.tsv").write_text("a\tweek\tof\twork\n")
    with pytest.raises(OutputRefused, match=r"annotations\.tsv \(not written by wsd\).*and 1 more"):
        claim_folder(out, "run", overwrite=True)
    assert (out / "run" / "train.sh").read_text() == "#!/bin/sh\n"
    assert (out / "senses" / "annotations.tsv").read_text() == "a\tweek\tof\twork\n"
    assert (out / "run" / "meta.json").exists()  # nothing was removed


def test_overwrite_keeps_a_wsd_file_the_user_edited(tmp_path: Path) -> None:
    out = wsd_output(tmp_path / "P")
    (out / "senses" / "meta.json").write_text("edited by hand")
    with pytest.raises(OutputRefused, match=r"senses/meta\.json \(a file wsd wrote, changed since\)"):
        remove_wsd_files(out)
    assert (out / "senses" / "meta.json").read_text() == "edited by hand"


def test_overwrite_removes_wsd_files_and_the_folders_it_made(tmp_path: Path) -> None:
    out = wsd_output(tmp_path / "P")
    assert claim_folder(out, "run", overwrite=True) == "create"
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST_FILE]
    assert inspect(out).kind == "run"


# ---------------------------------------------------------------------------------------------- finding 2
def test_a_users_config_toml_is_not_a_wsd_folder(tmp_path: Path, capsys) -> None:
    corpus = corpus_file(tmp_path / "c.txt")
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "config.toml").write_text('[tool]\nname="mine"\n')
    for extra in ([], ["--overwrite"]):
        assert main(["run", "--corpus", str(corpus), "--targets", "mouse", "--out", str(proj), *extra]) == 2
        assert "not even with --overwrite" in capsys.readouterr().err
    assert sorted(p.name for p in proj.iterdir()) == ["config.toml"]
    assert (proj / "config.toml").read_text() == '[tool]\nname="mine"\n'


def test_report_never_replaces_a_users_report(tmp_path: Path, capsys) -> None:
    run = synthetic_run(tmp_path / "R" / "run", per_target=6, dim=4)
    senses_of(run, tmp_path / "R" / "senses")
    notes = tmp_path / "notes"
    (notes / "report_figures").mkdir(parents=True)
    (notes / "report.md").write_text("my report")
    (notes / "report_figures" / "my_plot.png").write_bytes(b"my plot")
    before = snapshot(notes)
    for extra in ([], ["--overwrite"]):
        assert main(["report", "--run", str(tmp_path / "R"), "--out", str(notes), *extra]) == 2
    assert snapshot(notes) == before
    assert "folder of other files" in capsys.readouterr().err


def test_a_user_file_under_a_wsd_name_inside_a_wsd_folder_is_not_replaced(tmp_path: Path) -> None:
    out = wsd_output(tmp_path / "P")
    (out / "gold.parquet").write_text("the user's")
    with pytest.raises(WriteFailed, match="not a file wsd wrote"):
        _write(out / "gold.parquet", "wsd's")
    assert (out / "gold.parquet").read_text() == "the user's"


def test_old_outputs_without_a_manifest_get_a_migration_line(tmp_path: Path) -> None:
    old = tmp_path / "old"
    (old / "run").mkdir(parents=True)
    (old / "run" / "meta.json").write_text(json.dumps({"format": "wsd-run/1", "config": {}}))
    (old / "metrics.json").write_text("{}")
    before = snapshot(old)
    for overwrite in (False, True):
        with pytest.raises(OutputRefused, match=r"written before manifests.*it is not touched"):
            claim_folder(old, "output", overwrite=overwrite)
    assert snapshot(old) == before


# ---------------------------------------------------------------------------------------------- finding 3
@pytest.mark.parametrize(
    "argv, message",
    [
        (["change", "--run", "{X}/run", "--by", "year", "--out", "{X}", "--overwrite"], "contains the --run input"),
        (["cluster", "--run", "{X}/run", "--out", "{X}", "--overwrite"], "contains the --run input"),
        (
            ["change", "--run", "{X}/run", "--senses", "{X}/senses", "--by", "year", "--out", "{X}/senses"],
            "is the --senses input",
        ),
        (["report", "--run", "{X}", "--out", "{X}/senses", "--overwrite"], "lies inside the --run input"),
        (["cluster", "--run", "{X}/run", "--out", "{X}/run/mine"], "lies inside the --run input"),
    ],
    ids=["change-out-parent", "cluster-out-parent", "change-out-senses", "report-out-senses", "cluster-inside-run"],
)
def test_no_command_writes_into_its_inputs(tmp_path: Path, argv: list[str], message: str, capsys) -> None:
    X = tmp_path / "X"
    run = synthetic_run(X / "run", per_target=6, dim=4)
    senses_of(run, X / "senses")
    before = snapshot(X)
    capsys.readouterr()
    assert main([part.format(X=X) for part in argv]) == 2
    assert message in capsys.readouterr().err
    assert snapshot(X) == before


def test_check_disjoint_follows_links_and_both_directions(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "link").symlink_to(data, target_is_directory=True)
    with pytest.raises(OutputRefused, match="is the --data input"):
        check_disjoint(tmp_path / "link", {"--data": data})
    with pytest.raises(OutputRefused, match="lies inside the --data input"):
        check_disjoint(tmp_path / "link" / "out", {"--data": data})
    with pytest.raises(OutputRefused, match="contains the --data input"):
        check_disjoint(tmp_path, {"--data": tmp_path / "link"})
    check_disjoint(tmp_path / "elsewhere", {"--data": data, "--none": None})
    check_disjoint(data / "senses", {"--run": data}, allowed=[data / "senses"])


# ---------------------------------------------------------------------------------------------- finding 6
def test_scans_skip_wsd_folders_inside_the_corpus_and_say_so_once(tmp_path: Path) -> None:
    corpus = tmp_path / "sp"
    corpus.mkdir()
    corpus_file(corpus / "a.txt")
    before = corpus_files(corpus)
    run = synthetic_run(corpus / "runA", per_target=6, dim=4)  # an earlier run inside the corpus folder
    (run / "notes.txt").write_text("bank bank bank")
    manifest.start(corpus / "runB" / "change", "change")
    (corpus / "runB" / "change" / "counts.csv").write_text("target,count\nbank,3\n")
    with pytest.warns(UserWarning, match=r"2 folder\(s\) of wsd output in the corpus folder skipped") as caught:
        assert corpus_files(corpus) == before
    assert len([w for w in caught if "skipped" in str(w.message)]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert corpus_files(corpus) == before  # said once


# ---------------------------------------------------------------------------------------------- failed runs
@pytest.mark.slow
def test_a_failed_empty_corpus_run_does_not_block_the_corrected_command(tmp_path: Path, capsys) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    good = corpus_file(tmp_path / "good.txt")
    out = tmp_path / "o"
    base = ["embed", "--targets", "bank", "--out", str(out), "--no-progress"]
    assert main([*base, "--corpus", str(empty)]) == 2
    assert not out.exists()
    assert main([*base, "--targets", "zzz", "--corpus", str(good)]) == 2  # a target never found
    assert not out.exists()
    assert main([*base, "--corpus", str(good)]) == 0, capsys.readouterr().err
    assert json.loads((out / "meta.json").read_text())["n_occurrences"] == 3


def test_a_folder_a_failed_command_left_blank_is_reused(tmp_path: Path) -> None:
    out = tmp_path / "o"
    manifest.start(out, "run")  # what a command killed right after its claim leaves
    assert inspect(out).blank
    assert claim_folder(out, "senses", config={"a": 1}) == "create"
    assert manifest.read(out).kind == "senses"


# ---------------------------------------------------------------------------------------------- property
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=st.sets(st.sampled_from(WSD_NAMES), min_size=1, max_size=6),
    content=st.binary(min_size=0, max_size=40),
    kind=st.sampled_from(["run", "senses", "output", "change", "report"]),
    overwrite=st.booleans(),
    config=st.sampled_from([None, {"other": 1}]),
)
def test_every_user_file_survives_claim_and_overwrite(names, content, kind, overwrite, config) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        out = wsd_output(root / "OUT")
        plain = root / "PLAIN"  # the same names in a folder of the user's, without a manifest
        for name in names:
            for base in (out, plain):
                (base / name).parent.mkdir(parents=True, exist_ok=True)
                (base / name).write_bytes(content + b" (user)")
        users = _user_files(out) | _user_files(plain)
        assert users
        for target in (out, plain, out / "run", out / "senses"):
            with contextlib.suppress(OutputRefused):
                claim_folder(target, kind, config=config, overwrite=overwrite)
        for path, data in users.items():
            assert path.is_file() and path.read_bytes() == data, path


def test_an_unfinished_senses_folder_of_a_killed_command_is_redone_without_overwrite(tmp_path: Path) -> None:
    folder = tmp_path / "senses"
    assert claim_folder(folder, "senses", config={"k": 2}) == "create"
    _write(folder / "labels.parquet", "half of what cluster writes")  # killed before its meta.json
    assert claim_folder(folder, "senses", config={"k": 2}) == "create"
    assert not (folder / "labels.parquet").exists()
    _write(folder / "labels.parquet", "again")
    (folder / "notes.txt").write_text("the user's")
    with pytest.raises(OutputRefused, match=r"notes\.txt"):
        claim_folder(folder, "senses", config={"k": 2})
    assert (folder / "notes.txt").read_text() == "the user's" and (folder / "labels.parquet").exists()


def test_a_senses_folder_killed_after_its_model_was_saved_is_still_unfinished(tmp_path: Path) -> None:
    from wsd.io.layout import MODEL_DIR, SENSE_MODEL_FILE
    from wsd.io.manifest import start

    folder = tmp_path / "senses"
    assert claim_folder(folder, "senses", config={"k": 2}) == "create"
    start(folder / MODEL_DIR, "model")
    _write(folder / MODEL_DIR / SENSE_MODEL_FILE, "{}")  # the model is saved, meta.json is not yet written
    assert claim_folder(folder, "senses", config={"k": 2}) == "create"  # redone: its meta.json alone finishes it
    assert not (folder / MODEL_DIR / SENSE_MODEL_FILE).exists()
