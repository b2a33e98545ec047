"""Adversarial CLI cases on the output and state side (issue 13): one row per hostile situation.

Each row builds a hostile state in ``tmp_path`` (a folder of someone's files, a damaged run, a tampered sense
model, a full disk, ...), runs one ``wsd`` command line in-process through :func:`wsd.cli.main`, and checks:
the exit code; a substring of the one-line message; that no traceback was printed; that what must be left
alone is byte-identical afterwards; and that no temporary file was left behind. Only the rows that need it
embed (with the bundled model, on a corpus of a few lines); the others use a synthetic run.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from helpers import synthetic_run

from wsd.cli import main
from wsd.io import manifest
from wsd.io.layout import META_FILE, MODEL_DIR, OCCURRENCES_FILE, SENSE_MODEL_FILE, VECTORS_FILE

CORPUS_LINES = [
    "The bank raised its interest rate again.",
    "We sat on the bank of the river and watched the water.",
    "She opened an account at the bank downtown.",
    "Fish gathered near the muddy bank of the stream.",
    "The mouse ran under the table.",
    "Click the left mouse button twice.",
]


# ---------------------------------------------------------------------------------------------- hostile states
def senses_of(run: Path, out: Path | None = None) -> Path:
    """The senses folder of a synthetic run, made as ``wsd cluster --method kmeans --k 2`` makes it."""
    argv = ["cluster", "--run", str(run), "--method", "kmeans", "--k", "2"]
    assert main(argv + (["--out", str(out)] if out is not None else [])) == 0
    return out if out is not None else run / "senses"


def user_folder(path: Path) -> Path:
    """A folder of someone's own files, two of them with wsd's names."""
    path.mkdir(parents=True)
    (path / META_FILE).write_text('{"my": "notes"}', encoding="utf-8")
    np.save(path / VECTORS_FILE, np.arange(6.0))
    (path / "notes.txt").write_text("precious", encoding="utf-8")
    return path


def user_file(path: Path) -> Path:
    path.write_text("someone's file\n", encoding="utf-8")
    return path


def corpus_file(path: Path) -> Path:
    path.write_text("\n".join(CORPUS_LINES) + "\n", encoding="utf-8")
    return path


def model_json(senses: Path) -> Path:
    return senses / MODEL_DIR / SENSE_MODEL_FILE


def tamper_model(senses: Path, change: Callable[[dict], object]) -> None:
    path = model_json(senses)
    document = json.loads(path.read_text(encoding="utf-8"))
    result = change(document)
    path.write_text(json.dumps(document if result is None else result), encoding="utf-8")


def replace_array(senses: Path, name: str, array: np.ndarray, allow_pickle: bool = False) -> None:
    np.save(senses / MODEL_DIR / "senses" / "00000" / f"{name}.npy", array, allow_pickle=allow_pickle)


def disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Parquet write fails half-way with ENOSPC (a partial temporary file is on disk)."""
    import wsd.io.writers

    def failing(table, where, *args, **kwargs):
        if hasattr(where, "write"):  # a file handle (wsd hashes what it writes)
            where.write(b"PAR1 half a file")
        else:
            Path(where).write_bytes(b"PAR1 half a file")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(wsd.io.writers.pq, "write_table", failing)


# ---------------------------------------------------------------------------------------------- the table
@dataclass
class Case:
    """One row: set up ``paths`` in tmp_path, run ``argv`` (``{name}`` filled from paths), check the outcome."""

    id: str
    setup: Callable[[Path], dict[str, Path]]
    argv: list[str]
    code: int
    message: str
    unchanged: tuple[str, ...] = ()
    patch: Callable[[pytest.MonkeyPatch], None] | None = None
    after: Callable[[dict[str, Path]], None] | None = None
    marks: tuple = field(default_factory=tuple)


def _run_with(fn: Callable[[Path], dict[str, Path]]) -> Callable[[Path], dict[str, Path]]:
    """Setup: a synthetic run at tmp/run, then ``fn`` (given tmp) adds more paths."""

    def setup(tmp: Path) -> dict[str, Path]:
        paths = {"run": synthetic_run(tmp / "run")}
        paths.update(fn(tmp) or {})
        return paths

    return setup


def _with_senses(fn: Callable[[Path], dict[str, Path]] | None = None) -> Callable[[Path], dict[str, Path]]:
    """Setup: a synthetic run at tmp/run with senses at tmp/run/senses, then ``fn``."""

    def setup(tmp: Path) -> dict[str, Path]:
        run = synthetic_run(tmp / "run")
        paths = {"run": run, "senses": senses_of(run), "run2": synthetic_run(tmp / "run2", seed=1)}
        paths.update((fn(tmp) if fn else None) or {})
        return paths

    return setup


def _damaged_run(damage: Callable[[Path], None]) -> Callable[[Path], dict[str, Path]]:
    def setup(tmp: Path) -> dict[str, Path]:
        run = synthetic_run(tmp / "run")
        damage(run)
        return {"run": run}

    return setup


def _damaged_model(damage: Callable[[Path], None]) -> Callable[[Path], dict[str, Path]]:
    def setup(tmp: Path) -> dict[str, Path]:
        run = synthetic_run(tmp / "run")
        senses = senses_of(run)
        damage(senses)
        return {"run": run, "senses": senses}

    return setup


def _evaluation_output(tmp: Path) -> dict[str, Path]:
    """What `wsd evaluate --out` leaves: metrics.json, per_target.csv, run/, senses/."""
    out = tmp / "evaluation"
    run = synthetic_run(out / "run")
    senses_of(run, out / "senses")
    manifest.start(out, "output")
    (out / "metrics.json").write_text(json.dumps({"dataset": "generic", "config": {"seeds": 1}}), encoding="utf-8")
    (out / "per_target.csv").write_text("target,ari\nbank,0.5\n", encoding="utf-8")
    manifest.record(out / "metrics.json")
    manifest.record(out / "per_target.csv")
    return {"out": out}


def _truncate(path: Path, keep: int = 40) -> None:
    path.write_bytes(path.read_bytes()[:keep])


def _set_meta(run: Path, **entries: object) -> None:
    meta = json.loads((run / META_FILE).read_text(encoding="utf-8"))
    meta.update(entries)
    (run / META_FILE).write_text(json.dumps(meta), encoding="utf-8")


EMBED = ["embed", "--corpus", "{corpus}", "--targets", "bank,mouse", "--no-progress"]
CLUSTER = ["cluster", "--run", "{run}", "--method", "kmeans", "--k", "2"]
PREDICT = ["predict", "--senses", "{senses}", "--run", "{run}"]
SCORE = ["score", "--dataset", "generic"]
EVALUATE = ["evaluate", "--dataset", "generic", "--data", "{data}", "--no-progress", "--method", "kmeans"]
RUN = ["run", "--corpus", "{corpus}", "--targets", "bank,mouse", "--no-progress"]


def _corpus_and(fn: Callable[[Path], dict[str, Path]]) -> Callable[[Path], dict[str, Path]]:
    def setup(tmp: Path) -> dict[str, Path]:
        return {"corpus": corpus_file(tmp / "corpus.txt"), **fn(tmp)}

    return setup


def _labelled(fn: Callable[[Path], dict[str, Path]]) -> Callable[[Path], dict[str, Path]]:
    def setup(tmp: Path) -> dict[str, Path]:
        data = Path(__file__).resolve().parents[1] / "fixtures" / "datasets" / "valid.tsv"
        return {"data": data, **fn(tmp)}

    return setup


def _key(tmp: Path) -> dict[str, Path]:
    key = tmp / "gold.key"
    key.write_text("bank.n bank.1 bank.n.1\n", encoding="utf-8")
    folder = tmp / "keys"
    folder.mkdir()
    return {"key": key, "folder": folder}


def _no_predicted(paths: dict[str, Path]) -> None:
    assert not (paths["run"] / "predicted.parquet").exists()


CASES = [
    # ---- embed --out: never into someone else's folder, a file, or a wsd folder of another kind
    Case(
        "embed-out-user-folder",
        _corpus_and(lambda t: {"out": user_folder(t / "mine")}),
        [*EMBED, "--out", "{out}"],
        2,
        "a folder of other files",
        ("out",),
    ),
    Case(
        "embed-out-evaluation-folder",
        _corpus_and(_evaluation_output),
        [*EMBED, "--out", "{out}"],
        2,
        "a wsd output folder",
        ("out",),
    ),
    Case(
        "embed-out-evaluation-run",
        _corpus_and(lambda t: {"out": _evaluation_output(t)["out"] / "run"}),
        [*EMBED, "--out", "{out}"],
        2,
        "different configuration",
        ("out",),
    ),
    Case(
        "embed-out-senses-folder",
        _corpus_and(lambda t: {"out": senses_of(synthetic_run(t / "r"), t / "s")}),
        [*EMBED, "--out", "{out}"],
        2,
        "senses folder",
        ("out",),
    ),
    Case(
        "embed-out-is-a-file",
        _corpus_and(lambda t: {"out": user_file(t / "out")}),
        [*EMBED, "--out", "{out}"],
        2,
        "is an existing file",
        ("out",),
    ),
    Case(
        "embed-out-under-a-file",
        _corpus_and(lambda t: {"out": user_file(t / "f") / "run"}),
        [*EMBED, "--out", "{out}"],
        2,
        "is a file, so the folder cannot be made",
    ),
    Case(
        "embed-disk-full",
        _corpus_and(lambda t: {"out": t / "run"}),
        [*EMBED, "--out", "{out}"],
        2,
        "No space left on device",
        patch=disk_full,
    ),
    # ---- cluster --out
    Case(
        "cluster-out-is-the-run",
        _run_with(lambda t: {}),
        [*CLUSTER, "--out", "{run}"],
        2,
        "is the --run input",
        ("run",),
    ),
    Case(
        "cluster-out-is-the-run-overwrite",
        _run_with(lambda t: {}),
        [*CLUSTER, "--out", "{run}", "--overwrite"],
        2,
        "is the --run input",
        ("run",),
    ),
    Case(
        "cluster-out-user-folder",
        _run_with(lambda t: {"out": user_folder(t / "mine")}),
        [*CLUSTER, "--out", "{out}"],
        2,
        "a folder of other files",
        ("out", "run"),
    ),
    Case(
        "cluster-out-is-a-file",
        _run_with(lambda t: {"out": user_file(t / "out")}),
        [*CLUSTER, "--out", "{out}"],
        2,
        "is an existing file",
        ("out",),
    ),
    Case(
        "cluster-out-another-run",
        _run_with(lambda t: {"out": synthetic_run(t / "other", seed=3)}),
        [*CLUSTER, "--out", "{out}"],
        2,
        "a wsd run",
        ("out",),
    ),
    Case(
        "cluster-senses-other-configuration",
        _with_senses(),
        ["cluster", "--run", "{run}", "--method", "ward", "--k", "3"],
        2,
        "inducer.k: 2 → 3",
        ("senses",),
    ),
    Case("cluster-senses-same-configuration", _with_senses(), CLUSTER, 0, "senses of 2 targets"),
    Case(
        "cluster-senses-other-configuration-overwrite",
        _with_senses(),
        ["cluster", "--run", "{run}", "--method", "ward", "--k", "3", "--overwrite"],
        0,
        "senses of 2 targets",
    ),
    Case(
        "cluster-out-user-folder-overwrite-keeps-their-files",
        _run_with(lambda t: {"out": user_folder(t / "mine"), "notes": t / "mine" / "notes.txt"}),
        [*CLUSTER, "--out", "{out}", "--overwrite"],
        2,
        "not even with --overwrite",
        ("out", "notes"),
    ),
    # ---- damaged run folders (read by cluster and predict)
    Case(
        "run-meta-is-a-list",
        _damaged_run(lambda r: (r / META_FILE).write_text("[1, 2]")),
        CLUSTER,
        2,
        "expected a JSON object",
    ),
    Case(
        "run-meta-not-utf8",
        _damaged_run(lambda r: (r / META_FILE).write_bytes(b'{"a": "\xff\xfe"}')),
        CLUSTER,
        2,
        "not UTF-8",
    ),
    Case(
        "run-meta-bad-json",
        _damaged_run(lambda r: (r / META_FILE).write_text('{"format": ')),
        CLUSTER,
        2,
        "not valid JSON",
    ),
    Case(
        "run-meta-bad-dtype",
        _damaged_run(lambda r: _set_meta(r, vector_dtype="int8")),
        CLUSTER,
        2,
        "vector_dtype must be",
    ),
    Case(
        "run-meta-bad-count",
        _damaged_run(lambda r: _set_meta(r, n_occurrences="many")),
        CLUSTER,
        2,
        "n_occurrences must be",
    ),
    Case(
        "run-truncated-parquet",
        _damaged_run(lambda r: _truncate(r / OCCURRENCES_FILE)),
        CLUSTER,
        2,
        "occurrences.parquet: 40 bytes where",
    ),
    Case(
        "run-vectors-object-dtype",
        _damaged_run(lambda r: np.save(r / VECTORS_FILE, np.array([{"a": 1}] * 24, dtype=object))),
        CLUSTER,
        2,
        "vectors.npy: 332 bytes where",
    ),
    Case(
        "run-vectors-truncated",
        _damaged_run(lambda r: _truncate(r / VECTORS_FILE, 200)),
        CLUSTER,
        2,
        "vectors.npy: 200 bytes where",
    ),
    Case(
        "run-vectors-strings",
        _damaged_run(lambda r: np.save(r / VECTORS_FILE, np.array([["x"] * 8] * 24))),
        CLUSTER,
        2,
        "vectors.npy: 896 bytes where",
    ),
    Case(
        "run-vectors-1d",
        _damaged_run(lambda r: np.save(r / VECTORS_FILE, np.zeros(24, dtype=np.float16))),
        CLUSTER,
        2,
        "vectors.npy: 176 bytes where",
    ),
    Case(
        "run-vectors-row-count",
        _damaged_run(lambda r: np.save(r / VECTORS_FILE, np.zeros((5, 8), np.float16))),
        CLUSTER,
        2,
        "vectors.npy: 208 bytes where",
    ),
    Case(
        "run-vectors-nan",
        _damaged_run(lambda r: np.save(r / VECTORS_FILE, np.full((24, 8), np.nan, np.float16))),
        CLUSTER,
        2,
        "vectors.npy: its bytes do not match the checksum",
    ),
    Case("run-is-a-file", lambda t: {"run": user_file(t / "run")}, CLUSTER, 2, "is a file, not a wsd run"),
    Case("run-missing", lambda t: {"run": t / "nothing"}, CLUSTER, 2, "not a wsd run directory"),
    # ---- questionable: clamped values get a warning
    Case(
        "cluster-k-clamped",
        _run_with(lambda t: {}),
        ["cluster", "--run", "{run}", "--method", "kmeans", "--k", "1000"],
        0,
        "k=1000 is more than the occurrences",
    ),
    Case(
        "cluster-pca-clamped",
        _run_with(lambda t: {}),
        [*CLUSTER, "--pca", "10000"],
        0,
        "pca=10000 is more than the data allow",
    ),
    # ---- predict --out
    Case(
        "predict-out-is-a-folder",
        _with_senses(lambda t: {"out": user_folder(t / "mine")}),
        [*PREDICT, "--out", "{out}"],
        2,
        "is an existing folder, not a file",
        ("out",),
    ),
    Case(
        "predict-out-user-file",
        _with_senses(lambda t: {"out": user_file(t / "mine.parquet")}),
        [*PREDICT, "--out", "{out}"],
        2,
        "wsd did not write",
        ("out",),
    ),
    Case(
        "predict-out-user-file-overwrite",
        _with_senses(lambda t: {"out": user_file(t / "mine.parquet")}),
        [*PREDICT, "--out", "{out}", "--overwrite"],
        0,
        "predicted senses written",
    ),
    Case(
        "predict-out-its-own-file-again",
        _with_senses(lambda t: {"out": t / "p.parquet"}),
        [*PREDICT, "--out", "{out}"],
        0,
        "predicted senses written",
        after=lambda p: (
            main(["predict", "--senses", str(p["senses"]), "--run", str(p["run"]), "--out", str(p["out"])]) == 0
            or pytest.fail("second predict refused")
        ),
    ),
    Case(
        "predict-disk-full", _with_senses(), PREDICT, 2, "No space left on device", patch=disk_full, after=_no_predicted
    ),
    Case("cluster-disk-full", _run_with(lambda t: {}), CLUSTER, 2, "No space left on device", patch=disk_full),
    # ---- tampered sense models
    Case(
        "model-json-is-a-list",
        _damaged_model(lambda s: model_json(s).write_text("[]")),
        PREDICT,
        2,
        "expected a JSON object",
    ),
    Case(
        "model-n-rows-huge",
        _damaged_model(lambda s: tamper_model(s, lambda d: d.update(n_rows=10**15))),
        PREDICT,
        2,
        "n_rows is 1000000000000000",
    ),
    Case(
        "model-n-rows-float",
        _damaged_model(lambda s: tamper_model(s, lambda d: d.update(n_rows=1e15))),
        PREDICT,
        2,
        "field 'n_rows' must be a int",
    ),
    Case(
        "model-dim-string",
        _damaged_model(lambda s: tamper_model(s, lambda d: d.update(dim="eight"))),
        PREDICT,
        2,
        "field 'dim' must be a int",
    ),
    Case(
        "model-targets-not-list",
        _damaged_model(lambda s: tamper_model(s, lambda d: d.update(targets={}))),
        PREDICT,
        2,
        "field 'targets' must be a list",
    ),
    Case(
        "model-folder-traversal",
        _damaged_model(lambda s: tamper_model(s, lambda d: d["targets"][0].update(folder="../../.."))),
        PREDICT,
        2,
        "points outside the model folder",
    ),
    Case(
        "model-folder-absolute",
        _damaged_model(lambda s: tamper_model(s, lambda d: d["targets"][0].update(folder="/etc"))),
        PREDICT,
        2,
        "must be a path relative",
    ),
    Case(
        "model-array-name-traversal",
        _damaged_model(lambda s: tamper_model(s, lambda d: d["targets"][0]["arrays"].append("../../x"))),
        PREDICT,
        2,
        "arrays must be a list of plain names",
    ),
    Case("model-symlink-out", _damaged_model(lambda s: _symlink_out(s)), PREDICT, 2, "points outside the model folder"),
    Case(
        "model-centres-nan",
        _damaged_model(lambda s: replace_array(s, "cluster_centers", np.full((2, 8), np.nan))),
        PREDICT,
        2,
        "NaN or infinite",
        after=_no_predicted,
    ),
    Case(
        "model-centres-wrong-shape",
        _damaged_model(lambda s: replace_array(s, "cluster_centers", np.zeros((2, 3)))),
        PREDICT,
        2,
        "cluster_centers has shape",
    ),
    Case(
        "model-centres-object-dtype",
        _damaged_model(lambda s: replace_array(s, "cluster_centers", np.array([None, 1]), True)),
        PREDICT,
        2,
        "cannot read cluster_centers.npy",
    ),
    Case(
        "model-centres-strings",
        _damaged_model(lambda s: replace_array(s, "cluster_centers", np.array([["a"] * 8] * 2))),
        PREDICT,
        2,
        "malformed saved state",
    ),
    Case(
        "model-state-bad-scalar",
        _damaged_model(lambda s: tamper_model(s, lambda d: d["targets"][0]["state"].update(n_senses="two"))),
        PREDICT,
        2,
        "malformed saved state",
    ),
    Case(
        "model-truncated-array",
        _damaged_model(lambda s: _truncate(s / MODEL_DIR / "senses" / "00000" / "labels.npy", 30)),
        PREDICT,
        2,
        "cannot read labels.npy",
    ),
    # ---- evaluate --out / --cache-dir
    Case(
        "evaluate-out-user-folder",
        _labelled(lambda t: {"out": user_folder(t / "mine")}),
        [*EVALUATE, "--out", "{out}"],
        2,
        "a folder of other files",
        ("out",),
    ),
    Case(
        "evaluate-out-is-a-file",
        _labelled(lambda t: {"out": user_file(t / "out")}),
        [*EVALUATE, "--out", "{out}"],
        2,
        "is an existing file",
        ("out",),
    ),
    Case(
        "evaluate-out-other-configuration",
        _labelled(_evaluation_output),
        [*EVALUATE, "--out", "{out}"],
        2,
        "different configuration",
        ("out",),
    ),
    Case(
        "evaluate-cache-dir-is-a-file",
        _labelled(lambda t: {"cache": user_file(t / "cache")}),
        [*EVALUATE, "--cache-dir", "{cache}"],
        2,
        "--cache-dir",
        ("cache",),
    ),
    # ---- score
    Case(
        "score-system-is-a-folder", _key, [*SCORE, "--gold", "{key}", "--system", "{folder}"], 2, "--system", ("key",)
    ),
    Case("score-gold-is-a-folder", _key, [*SCORE, "--gold", "{folder}", "--system", "{key}"], 2, "--gold"),
    # ---- report --out
    Case(
        "report-out-user-folder",
        _with_senses(lambda t: {"out": user_folder(t / "mine")}),
        ["report", "--run", "{run}", "--out", "{out}"],
        2,
        "a folder of other files",
        ("out",),
    ),
    Case(
        "report-out-is-a-file",
        _with_senses(lambda t: {"out": user_file(t / "out")}),
        ["report", "--run", "{run}", "--out", "{out}"],
        2,
        "is an existing file",
        ("out",),
    ),
    # ---- run / demo --out
    Case(
        "run-out-user-folder",
        _corpus_and(lambda t: {"out": user_folder(t / "mine")}),
        [*RUN, "--out", "{out}"],
        2,
        "a folder of other files",
        ("out",),
    ),
    Case(
        "run-out-is-a-file",
        _corpus_and(lambda t: {"out": user_file(t / "out")}),
        [*RUN, "--out", "{out}"],
        2,
        "is an existing file",
        ("out",),
    ),
    Case(
        "run-out-a-run",
        _corpus_and(lambda t: {"out": synthetic_run(t / "r")}),
        [*RUN, "--out", "{out}"],
        2,
        "a wsd run",
        ("out",),
    ),
    Case(
        "demo-out-user-folder",
        lambda t: {"out": user_folder(t / "mine")},
        ["demo", "--out", "{out}"],
        2,
        "a folder of other files",
        ("out",),
    ),
    Case(
        "demo-out-is-a-file",
        lambda t: {"out": user_file(t / "out")},
        ["demo", "--out", "{out}"],
        2,
        "is an existing file",
        ("out",),
    ),
]


def _symlink_out(senses: Path) -> None:
    """The first target's folder becomes a link to a folder outside the model (with the same files)."""
    import shutil

    folder = senses / MODEL_DIR / "senses" / "00000"
    outside = senses.parent.parent / "outside"
    shutil.copytree(folder, outside)
    shutil.rmtree(folder)
    folder.symlink_to(outside, target_is_directory=True)


def snapshot(path: Path) -> object:
    """Everything about ``path`` that must not change: a file's bytes, a folder's files and their bytes."""
    if path.is_file():
        return path.read_bytes()
    if path.is_dir():
        return {str(p.relative_to(path)): p.read_bytes() if p.is_file() else None for p in sorted(path.rglob("*"))}
    return None


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_cli_output_case(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    paths = case.setup(tmp_path)
    before = {name: snapshot(paths[name]) for name in case.unchanged}
    argv = [part.format(**{k: str(v) for k, v in paths.items()}) for part in case.argv]
    capsys.readouterr()
    with monkeypatch.context() as patched:
        if case.patch is not None:
            case.patch(patched)
        code = main(argv)
    captured = capsys.readouterr()
    stderr = captured.err
    assert code == case.code, (argv, captured.out, stderr)
    assert case.message in captured.out + stderr, (argv, captured.out, stderr)
    assert "Traceback" not in stderr
    if case.code == 2:
        errors = [line for line in stderr.splitlines() if ": error: " in line]
        assert len(errors) == 1 and case.message in errors[0], stderr
    for name in case.unchanged:
        assert snapshot(paths[name]) == before[name], f"{name} changed"
    leftovers = [p for p in tmp_path.rglob("*") if ".tmp-" in p.name]
    assert not leftovers, leftovers
    if case.after is not None:
        case.after(paths)


# ---------------------------------------------------------------------------------------------- cases that embed
def test_embed_out_inside_the_corpus_folder_is_refused(tmp_path: Path, capsys) -> None:
    # --out may not lie inside an input (issue 26); the corpus is left as it was
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    corpus_file(corpus / "a.txt")
    out = corpus / "runs" / "x"
    argv = ["embed", "--corpus", str(corpus), "--targets", "bank,mouse", "--out", str(out), "--no-progress"]
    assert main(argv) == 2
    assert "lies inside the --corpus input" in capsys.readouterr().err
    assert sorted(p.name for p in corpus.iterdir()) == ["a.txt"]


def test_embed_overwrite_keeps_the_users_other_files(tmp_path: Path, capsys) -> None:
    corpus = corpus_file(tmp_path / "corpus.txt")
    out = user_folder(tmp_path / "mine")
    before = snapshot(out)
    argv = ["embed", "--corpus", str(corpus), "--targets", "bank", "--out", str(out), "--no-progress"]
    assert main(argv) == 2
    assert main([*argv, "--overwrite"]) == 2  # a folder without a manifest is never wsd's, --overwrite or not
    assert "not even with --overwrite" in capsys.readouterr().err
    assert snapshot(out) == before


def test_embed_different_configuration_names_the_setting(tmp_path: Path, capsys) -> None:
    corpus = corpus_file(tmp_path / "corpus.txt")
    out = tmp_path / "run"
    base = ["embed", "--corpus", str(corpus), "--out", str(out), "--no-progress"]
    assert main([*base, "--targets", "bank"]) == 0
    capsys.readouterr()
    assert main([*base, "--targets", "mouse"]) == 2
    error = capsys.readouterr().err.strip()
    assert "different configuration" in error and "config.scan.targets" in error and "--overwrite" in error
    assert main([*base, "--targets", "mouse", "--overwrite"]) == 0


# ---------------------------------------------------------------------------------------------- last line
def test_unexpected_error_is_one_line_exit_1_and_debug_shows_it(tmp_path: Path, monkeypatch, capsys) -> None:
    import wsd.cli.score

    def broken(args):
        raise RuntimeError("something nobody checked")

    monkeypatch.setattr(wsd.cli.score, "command_score", broken)
    key = user_file(tmp_path / "k")
    argv = ["score", "--dataset", "generic", "--gold", str(key), "--system", str(key)]
    assert main(argv) == 1
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "RuntimeError: something nobody checked" in error[0] and "--debug" in error[0]
    with pytest.raises(RuntimeError):
        main([*argv, "--debug"])


def test_evaluate_reuses_its_folder_refuses_another_configuration(tmp_path: Path, capsys) -> None:
    data = Path(__file__).resolve().parents[1] / "fixtures" / "datasets" / "valid.tsv"
    out = tmp_path / "eval"
    base = ["evaluate", "--dataset", "generic", "--data", str(data), "--out", str(out), "--no-progress"]
    assert main([*base, "--method", "kmeans", "--k", "2"]) == 0
    assert main([*base, "--method", "kmeans", "--k", "2", "--cache-dir", str(tmp_path / "c")]) == 0
    metrics = (out / "metrics.json").read_bytes()
    capsys.readouterr()
    assert main([*base, "--method", "kmeans", "--k", "3"]) == 2
    assert "senses.k: 2 → 3" in capsys.readouterr().err
    assert (out / "metrics.json").read_bytes() == metrics


def test_evaluate_again_from_its_config_toml_reuses_its_folder(tmp_path: Path, monkeypatch, capsys) -> None:
    # data named by a relative path through a link (as data/demo/labelled.tsv); config.toml records the
    # file's absolute path: the same data, so `--config OUT/config.toml` reuses OUT (the README's command)
    data = Path(__file__).resolve().parents[1] / "fixtures" / "datasets" / "valid.tsv"
    (tmp_path / "link").symlink_to(data.parent, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    base = ["evaluate", "--dataset", "generic", "--data", f"link/{data.name}", "--out", "eval", "--no-progress"]
    assert main([*base, "--method", "kmeans", "--k", "2"]) == 0
    metrics = json.loads((tmp_path / "eval" / "metrics.json").read_text())
    capsys.readouterr()
    assert main(["evaluate", "--config", "eval/config.toml", "--no-progress"]) == 0, capsys.readouterr().err
    again = json.loads((tmp_path / "eval" / "metrics.json").read_text())
    assert again["overall"] == metrics["overall"]
