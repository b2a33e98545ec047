"""The manifest of wsd's folders: what it records, how it reads back, what proves a file is wsd's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from wsd.io.atomic import atomic_write
from wsd.io.layout import MANIFEST_FILE
from wsd.io.manifest import (
    MANIFEST_FORMAT,
    ManifestError,
    file_sha256,
    forget,
    has_manifest,
    owner,
    read,
    start,
    status,
)


def test_start_writes_a_header_once(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    start(folder, "run")
    start(folder, "senses")  # an existing manifest is kept as it is
    lines = [line for line in (folder / MANIFEST_FILE).read_text(encoding="utf-8").splitlines() if line]
    assert len(lines) == 1
    header = json.loads(lines[0])
    assert header["format"] == MANIFEST_FORMAT and header["kind"] == "run" and header["pid"] == os.getpid()
    manifest = read(folder)
    assert manifest is not None and manifest.kind == "run" and manifest.entries == {}


def test_atomic_write_records_size_and_checksum_in_the_nearest_manifest(tmp_path: Path) -> None:
    start(tmp_path / "out", "output")
    start(tmp_path / "out" / "run", "run")
    part = tmp_path / "out" / "run" / "parts" / "occ-00000-00000.parquet"
    atomic_write(part, lambda tmp: tmp.write_bytes(b"part bytes"))
    metrics = tmp_path / "out" / "metrics.json"
    atomic_write(metrics, lambda tmp: tmp.write_text("{}", encoding="utf-8"))
    run = read(tmp_path / "out" / "run")
    out = read(tmp_path / "out")
    assert run is not None and out is not None
    assert set(run.entries) == {"parts/occ-00000-00000.parquet"}
    assert run.entries["parts/occ-00000-00000.parquet"].size == len(b"part bytes")
    assert run.entries["parts/occ-00000-00000.parquet"].sha256 == file_sha256(part)
    assert set(out.entries) == {"metrics.json"}
    assert owner(part) == (tmp_path / "out" / "run").absolute()


def test_a_file_outside_any_wsd_folder_is_not_recorded(tmp_path: Path) -> None:
    target = tmp_path / "plain" / "a.txt"
    atomic_write(target, lambda tmp: tmp.write_text("x", encoding="utf-8"))
    assert not has_manifest(tmp_path / "plain")
    assert status(target) == "unknown"


def test_status_tells_match_changed_missing_unknown(tmp_path: Path) -> None:
    start(tmp_path, "report")
    mine = tmp_path / "report.md"
    atomic_write(mine, lambda tmp: tmp.write_text("wsd wrote this", encoding="utf-8"))
    users = tmp_path / "notes.md"
    users.write_text("the user's", encoding="utf-8")
    assert status(mine) == "match"
    assert status(users) == "unknown"
    mine.write_text("wsd wrote thiS", encoding="utf-8")  # same size, other bytes
    assert status(mine) == "changed"
    mine.unlink()
    assert status(mine) == "missing"


def test_forget_and_rewrite(tmp_path: Path) -> None:
    start(tmp_path, "run")
    target = tmp_path / "meta.json"
    atomic_write(target, lambda tmp: tmp.write_text("1", encoding="utf-8"))
    target.unlink()  # forget records a removal
    forget(target)
    manifest = read(tmp_path)
    assert manifest is not None and "meta.json" not in manifest.entries
    atomic_write(target, lambda tmp: tmp.write_text("22", encoding="utf-8"))
    manifest = read(tmp_path)
    assert manifest is not None and manifest.entries["meta.json"].size == 2


def test_a_line_cut_short_is_skipped(tmp_path: Path) -> None:
    start(tmp_path, "run")
    target = tmp_path / "a.npy"
    atomic_write(target, lambda tmp: tmp.write_bytes(b"abc"))
    with open(tmp_path / MANIFEST_FILE, "ab") as handle:
        handle.write(b'{"path": "b.npy", "size": 3, "sha2')  # a process killed mid-append
    manifest = read(tmp_path)
    assert manifest is not None and set(manifest.entries) == {"a.npy"}
    later = tmp_path / "c.npy"
    atomic_write(later, lambda tmp: tmp.write_bytes(b"cde"))  # the next line is not swallowed by the cut one
    manifest = read(tmp_path)
    assert manifest is not None and set(manifest.entries) == {"a.npy", "c.npy"}
    assert status(later) == "match"


def test_a_file_of_the_manifests_name_that_is_not_one_is_refused(tmp_path: Path) -> None:
    (tmp_path / MANIFEST_FILE).write_text("my own notes\n", encoding="utf-8")
    with pytest.raises(ManifestError, match="not a wsd manifest"):
        read(tmp_path)


def test_remove_listed_keeps_what_wsd_did_not_write(tmp_path: Path) -> None:
    from wsd.io.manifest import remove_listed

    start(tmp_path, "run")
    parts = tmp_path / "parts"
    for name in ("occ-1.parquet", "vec-1.npy"):
        atomic_write(parts / name, lambda tmp: tmp.write_bytes(b"wsd's part"))
    (parts / "notes.txt").write_text("the user's", encoding="utf-8")
    atomic_write(parts / "sub" / "edited.bin", lambda tmp: tmp.write_bytes(b"1234"))
    (parts / "sub" / "edited.bin").write_bytes(b"123456")  # changed since: not wsd's any more
    kept = remove_listed(parts)
    assert sorted(path.name for path in kept) == ["edited.bin", "notes.txt"]
    assert sorted(p.name for p in parts.rglob("*")) == ["edited.bin", "notes.txt", "sub"]
    manifest = read(tmp_path)
    assert manifest is not None and not any(name.startswith("parts/occ") for name in manifest.entries)
    (parts / "notes.txt").unlink()
    (parts / "sub" / "edited.bin").unlink()
    assert remove_listed(parts) == [] and not parts.exists()
