"""The metadata files wsd writes have the types wsd.io.meta_types declares, and their readers refuse other types.

Every writer is run for real (a corpus run embedded with the bundled model, its senses with a request and names, its
change folder; a dataset's run) and what it wrote is checked with ``strict=True``: a key that its TypedDict does not
declare, or a value of another type, fails the test. The readers are given tampered files and must answer with one
:class:`InputError` line naming the entry.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from wsd.change.stage import change_run, read_change_meta
from wsd.errors import InputError
from wsd.io.layout import CHANGE_DIR, CHANGE_JSON, META_FILE, SENSES_DIR
from wsd.io.meta_types import (
    CalibrationRecord,
    ChangeMeta,
    EmbedConfig,
    RunMeta,
    SensesMeta,
    VectorMeta,
    shape_problem,
)
from wsd.io.run_reader import load_run, read_meta, read_senses_meta
from wsd.io.run_store import write_run
from wsd.senses.inducer import SenseInducer
from wsd.senses.naming import Naming
from wsd.senses.stage import cluster_run
from wsd.workflows.embedding import embed_corpus


def _stub_namer(occurrences: pd.DataFrame, X: np.ndarray, embedding: Any) -> Naming:
    """Names every occurrence ``bank.n.01`` (what an inventory's namer gives, without an inventory)."""
    frame = pd.DataFrame(
        {"synset": "bank.n.01", "nearest": "bank.n.01", "similarity": 0.9, "margin": 0.2}, index=range(len(occurrences))
    )
    meta = {"parameters": {"representation": "examples"}, "senses_per_target": {"bank": 1}, "inventory": "stub"}
    return Naming(frame, {"bank.n.01": "sloping land"}, meta)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory, encoder: Any) -> Path:
    """A corpus run with a ``year`` column (``wsd embed``), its senses (``wsd cluster``, named), its change folder."""
    root = tmp_path_factory.mktemp("meta")
    lines = [
        {"text": f"Line {i}: the mouse ran past the bank of the river.", "year": 1900 + 100 * (i % 2)}
        for i in range(12)
    ]
    corpus = root / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    run = embed_corpus(corpus, "mouse,bank", root / "run", meta="year", encoder=encoder, progress=False)
    cluster_run(
        run,
        inducer=SenseInducer(method="kmeans", k=2, random_state=0),
        request={"scan": {"targets": ["mouse", "bank"]}},
        namer=_stub_namer,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few uses a slice: warned, and measured all the same
        change_run(run, by="year", min_uses=2, measure="jsd")
    return run


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_corpus_run_writes_only_what_run_meta_declares(written: Path) -> None:
    meta = _json(written / META_FILE)
    assert {"config", "embedding", "scan", "execution", "shards", "checksums", "metadata_columns", "timings"} <= set(
        meta
    )
    assert shape_problem(meta, RunMeta, strict=True) is None
    assert read_meta(written) == meta  # the reader takes it as it is


def test_a_senses_folder_writes_only_what_senses_meta_declares(written: Path) -> None:
    meta = _json(written / SENSES_DIR / META_FILE)
    assert {"run", "run_fingerprint", "request", "naming", "one_sense", "checksums"} <= set(meta)
    assert shape_problem(meta, SensesMeta, strict=True) is None
    assert read_senses_meta(written / SENSES_DIR) == meta


def test_a_change_folder_writes_only_what_change_meta_declares(written: Path) -> None:
    document = _json(written / CHANGE_DIR / CHANGE_JSON)
    assert {"config", "run_fingerprint", "ranking", "binary", "bootstrap", "sense_shift_test"} <= set(document)
    assert shape_problem(document, ChangeMeta, strict=True) is None
    assert read_change_meta(written / CHANGE_DIR) == document


def test_a_datasets_run_and_the_identity_views_are_declared(tmp_path: Path, encoder: Any) -> None:
    identity = encoder.identity()
    assert shape_problem(identity.embedding_meta(), VectorMeta, strict=True) is None
    assert shape_problem(identity.run_config(), EmbedConfig, strict=True) is None
    occurrences = pd.DataFrame({"id": ["a", "b"], "target": ["bank", "bank"]})
    config = {"dataset": "generic", "data": "valid.tsv"}
    run = write_run(
        tmp_path / "run", occurrences, np.ones((2, 3)), {"config": config, "embedding": identity.embedding_meta()}
    )
    assert shape_problem(_json(run / META_FILE), RunMeta, strict=True) is None


def test_the_calibration_record_is_declared() -> None:
    from wsd.embed.calibration import Calibration

    record = Calibration("torch", "fp32", "m", Path("x.json"), "2026-01-01T00:00:00Z", ()).record()
    assert shape_problem(record, CalibrationRecord, strict=True) is None


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({"notes": "mine"}, "notes is no key of RunMeta"),
        ({"config": {"embed": {"batch": 8}}}, "config.embed.batch is no key of EmbedConfig"),
        ({"checksums": {"vectors.npy": {"size": 3, "md5": "x"}}}, "checksums.vectors.npy.md5 is no key of FileRecord"),
    ],
)
def test_strict_names_a_key_a_writer_added_without_declaring_it(value: dict[str, Any], problem: str) -> None:
    assert shape_problem(value, RunMeta, strict=True) == problem
    assert shape_problem(value, RunMeta) is None  # a reader leaves it alone (a key of an older wsd)


def _tampered_run(written: Path, tmp_path: Path, **entries: Any) -> Path:
    run = write_run(tmp_path / "run", *load_run(written), {"config": {"made": "by hand"}})
    meta = _json(run / META_FILE)
    meta.update(entries)
    (run / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    return run


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"scan": {"occurrences": {"bank": "12"}}}, "scan.occurrences.bank must be a whole number, not '12'"),
        ({"status": "done"}, "status must be one of 'complete', 'running', not 'done'"),
        ({"timings": [1.0]}, "timings must be a JSON object, not a list"),
        ({"config": {"embed": {"window_tokens": "all"}}}, "config.embed.window_tokens must be a whole number or null"),
    ],
)
def test_a_run_meta_of_another_type_is_one_error_line(
    written: Path, tmp_path: Path, entries: dict[str, Any], message: str
) -> None:
    run = _tampered_run(written, tmp_path, **entries)
    for read in (read_meta, load_run):
        with pytest.raises(InputError, match=message) as error:
            read(run)
        assert str(error.value).startswith(f"{run / META_FILE}: ") and "\n" not in str(error.value)


def test_the_cli_answers_a_tampered_run_with_one_line(
    written: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from wsd.cli import main

    run = _tampered_run(written, tmp_path, scan={"documents": "twelve"})
    assert main(["cluster", "--run", str(run), "--method", "kmeans", "--k", "2"]) == 2
    err = capsys.readouterr().err
    assert "scan.documents must be a whole number, not 'twelve'" in err and "Traceback" not in err


def test_a_senses_meta_of_another_type_is_one_error_line(written: Path, tmp_path: Path) -> None:
    folder = tmp_path / "senses"
    folder.mkdir()
    (folder / META_FILE).write_text(json.dumps({"one_sense": ["bank"]}), encoding="utf-8")
    with pytest.raises(InputError, match=r"one_sense must be a JSON object, not a list; the senses folder is damaged"):
        read_senses_meta(folder)
    assert read_senses_meta(tmp_path) == {}  # no meta.json: nothing recorded


def test_a_change_json_of_another_type_is_one_error_line(written: Path, tmp_path: Path) -> None:
    document = _json(written / CHANGE_DIR / CHANGE_JSON) | {"binary": [2, 5]}
    (tmp_path / CHANGE_JSON).write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputError, match=r"damaged change folder \(change\.json: binary must be a JSON object"):
        read_change_meta(tmp_path)


def test_an_old_run_without_the_later_keys_still_loads(written: Path, tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", *load_run(written), {})
    meta = _json(run / META_FILE)
    for key in ("format", "status", "created", "versions", "vector_dtype"):  # as a run of an early wsd has it
        meta.pop(key)
    (run / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    occurrences, X = load_run(run)
    assert len(occurrences) == len(X) == 24
