"""Bounded memory per document: long lines read in pieces, joined into blocks that give the same occurrences."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from wsd.corpus.documents import iter_documents
from wsd.corpus.scan import build_scan_options, iter_occurrence_chunks, scan
from wsd.corpus.shards import iter_shard_documents, plan_shards
from wsd.io import textfiles

WORDS = ["the", "old", "river", "ran", "near", "a", "small", "green", "field", "and", "over", "the", "hill", "while"]


def _text(sentences: int, punctuation: bool = True, seed: int = 0) -> str:
    """Random sentences with mouse and a capitalised Mice among them (kept: ``proper="keep"`` in the scans)."""
    parts = []
    for i in range(sentences):
        words = [WORDS[(i * 7 + k * 3 + seed) % len(WORDS)] for k in range(5 + i % 23)]
        if i % 3 == 0:
            words.insert(i % len(words), "mouse" if i % 2 else "Mice")
        if i % 5 == 0:
            words.insert(1, "bank")
        parts.append(" ".join(words) + ("." if punctuation else ""))
    return " ".join(parts)


@pytest.mark.parametrize("context", ["sentence", "window"])
@pytest.mark.parametrize("punctuation", [True, False])
def test_a_line_read_in_pieces_gives_the_occurrences_of_the_whole_line(tmp_path, monkeypatch, context, punctuation):
    path = tmp_path / "long.txt"
    path.write_text("a mouse first\n" + _text(3000, punctuation) + "\nthe bank last\n", encoding="utf-8")
    whole = scan(path, "mouse:mice,bank", context=context, context_chars=60, proper="keep")
    monkeypatch.setattr(textfiles, "LINE_PIECE_BYTES", 3000)
    pieces = list(iter_documents(path))
    assert sum(d.more for d in pieces) > 20, "the long line came in pieces"
    cut = scan(path, "mouse:mice,bank", context=context, context_chars=60, proper="keep")
    pd.testing.assert_frame_equal(cut, whole)


def test_a_long_line_has_the_contexts_of_its_sentences_in_lines(tmp_path, monkeypatch):
    sentences = _text(2000).replace(". ", ".\n")
    (tmp_path / "lines.txt").write_text(sentences + "\n", encoding="utf-8")
    (tmp_path / "long.txt").write_text(sentences.replace("\n", " ") + "\n", encoding="utf-8")
    monkeypatch.setattr(textfiles, "LINE_PIECE_BYTES", 2000)
    in_lines = scan(tmp_path / "lines.txt", "mouse:mice,bank", proper="keep")
    in_one = scan(tmp_path / "long.txt", "mouse:mice,bank", proper="keep")
    columns = ["target", "form", "text", "start", "end"]
    pd.testing.assert_frame_equal(in_one[columns], in_lines[columns])
    assert in_one["doc_id"].nunique() == 1


def test_chunks_come_inside_a_long_line(tmp_path, monkeypatch):
    """Progress (chunks of occurrences, which the progress bar counts) advances inside one long line."""
    path = tmp_path / "long.txt"
    path.write_text(_text(3000) + "\n", encoding="utf-8")
    monkeypatch.setattr(textfiles, "LINE_PIECE_BYTES", 4000)
    options = build_scan_options("mouse:mice,bank", proper="keep")
    chunks = list(iter_occurrence_chunks(path, options, chunk_size=50))
    assert len(chunks) > 5
    assert max(len(c) for c in chunks) < 200


def test_a_file_with_lone_cr_line_ends_has_one_document_per_line(tmp_path):
    path = tmp_path / "mac.txt"
    path.write_bytes(b"a mouse here\rthe bank there\r\rmice again\r")
    documents = list(iter_documents(path))
    assert [(d.doc_id, d.text) for d in documents] == [
        ("mac.txt:1", "a mouse here"),
        ("mac.txt:2", "the bank there"),
        ("mac.txt:4", "mice again"),
    ]


def test_lone_cr_lines_keep_their_numbers_in_byte_ranges(tmp_path):
    lines = [f"line {i} a mouse" for i in range(200)]
    raw = b"".join(
        line.encode() + (b"\r" if i % 3 == 0 else b"\r\n" if i % 3 == 1 else b"\n") for i, line in enumerate(lines)
    )
    (tmp_path / "mixed.txt").write_bytes(raw)
    expected = list(iter_documents(tmp_path))
    assert len(expected) == 200
    shards = plan_shards(tmp_path, shard_bytes=300)
    assert len(shards) > 5
    assert [d for shard in shards for d in iter_shard_documents(shard)] == expected


PEAK = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from wsd.corpus.scan import build_scan_options, iter_occurrence_chunks
    words = "the old river ran near a small green field and over the hill".split()
    unit = (" ".join(words) + " ") * 20
    path = Path(sys.argv[1])
    with open(path, "w") as handle:
        for _ in range(int(sys.argv[2])):
            handle.write(unit * 99 + "a mouse sat there ")
        handle.write("\\n")
    options = build_scan_options("mouse", context=sys.argv[3])
    rows = sum(len(chunk) for chunk in iter_occurrence_chunks(path, options))
    hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(rows, int(hwm.split()[1]) // 1024)
    """
)


def _peak(tmp_path: Path, blocks: int, context: str) -> tuple[int, int]:
    path = tmp_path / f"long-{blocks}.txt"
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(path), str(blocks), context], capture_output=True, text=True, check=True
    )
    path.unlink()
    rows, mib = done.stdout.split()
    return int(rows), int(mib)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmHWM needs Linux")
@pytest.mark.parametrize(
    "context",
    [pytest.param("sentence", marks=pytest.mark.slow), "window"],  # 15 and 60 MB lines: the slow lane
)
def test_peak_memory_does_not_grow_with_line_length(tmp_path, context):
    """A 15 MB and a 60 MB line (100 KB blocks, one target each): the peak grows by far less than the line."""
    small_rows, small_mib = _peak(tmp_path, 150, context)
    large_rows, large_mib = _peak(tmp_path, 600, context)
    assert (small_rows, large_rows) == (150, 600)
    assert large_mib - small_mib < 20, f"peak {small_mib} MiB -> {large_mib} MiB for a line 4x as long"


def test_dense_targets_in_a_long_line_are_cut_with_a_warning(tmp_path, monkeypatch):
    from wsd.corpus import blocks

    path = tmp_path / "dense.txt"
    path.write_text("a mouse ran " * 20000 + "\n", encoding="utf-8")
    monkeypatch.setattr(textfiles, "LINE_PIECE_BYTES", 4000)
    monkeypatch.setattr(blocks, "HARD_CHARS", 20000)
    with pytest.warns(UserWarning, match=r"dense\.txt:1: a line of more than 20,000 characters .* contexts may be"):
        found = scan(path, "mouse", context="window", context_chars=1000)
    assert len(found) == 20000
    assert found["id"].is_unique


def _random_text(words: int, seed: int = 0) -> str:
    import random

    rng = random.Random(seed)
    vocabulary = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(5000)
    ]
    return " ".join("mouse." if i % 997 == 0 else rng.choice(vocabulary) for i in range(words))


@pytest.mark.parametrize("name", ["long.txt", "long.txt.gz"])
@pytest.mark.parametrize("shard_bytes", [10**9, 40_000])
def test_bytes_read_are_told_inside_a_long_line(tmp_path, monkeypatch, name, shard_bytes):
    """A progress bar fed by on_bytes moves while a long line is read, before the line ends."""
    import gzip

    raw = ("a mouse first\n" + _random_text(60_000) + "\nthe mouse last\n").encode()
    path = tmp_path / name
    path.write_bytes(gzip.compress(raw) if name.endswith(".gz") else raw)
    monkeypatch.setattr(textfiles, "LINE_PIECE_BYTES", 5000)
    shards = plan_shards(tmp_path, shard_bytes=shard_bytes)
    told: list[int] = []
    during_line: list[int] = []  # bytes told when each piece of the long line (but its last) came
    for shard in shards:
        for document in iter_shard_documents(shard, on_bytes=told.append):
            if document.more:
                during_line.append(sum(told))
    assert len(during_line) > 20, "the long line came in pieces"
    assert len(set(during_line)) > 5, "the bytes told grew while the line was read"
    assert 0 < during_line[0] < during_line[-1] <= path.stat().st_size
    if name == "long.txt":  # (a gzip stream reads its compressed input well ahead)
        assert during_line[-1] < path.stat().st_size
    assert sum(told) == path.stat().st_size == sum(shard.size for shard in shards)


@pytest.mark.slow  # embeds a long line with the bundled encoder
def test_the_reading_bar_of_an_embedding_moves_inside_a_long_line(tmp_path, monkeypatch, encoder):
    import wsd.workflows.embedding as embedding

    bars = {}

    class Recorder:
        def __init__(self, total=None, desc="", **_):
            self.total, self.updates = total, []
            bars[desc] = self

        def update(self, n=1):
            self.updates.append(n)

        def close(self):
            pass

    path = tmp_path / "corpus" / "long.txt"
    path.parent.mkdir()
    path.write_text(_random_text(40_000) + "\n", encoding="utf-8")
    monkeypatch.setattr(textfiles, "LINE_PIECE_BYTES", 5000)
    monkeypatch.setattr(embedding, "tqdm", Recorder)
    embedding.embed_corpus(path.parent, "mouse", tmp_path / "run", encoder=encoder, progress=True)
    reading = bars["reading"]
    assert reading.total == path.stat().st_size == sum(reading.updates)
    assert len(reading.updates) > 10, "the bar moved many times within the one line"
