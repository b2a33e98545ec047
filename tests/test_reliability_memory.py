"""Memory bounded per document (issue 39): a line with thousands of uses is embedded in bounded batches and parts.

A line without sentence breaks and with a use every few characters put thousands of occurrences in the windows
of one batch, and every occurrence's context span (±20 tokens) was gathered piece by piece: memory grew with
occurrences × window (a 30 KB line with 5,000 uses: 3.2 GB). Now each batch gathers every token once and pools
its occurrences in groups of a bounded number of pieces, and a document with more uses than a chunk is
scanned, stored and embedded in parts (experiments/results/bench_line_memory/bench_line_memory.md measures the
whole process at 1k, 10k and 100k uses). Every test here failed before that, but the one that ordinary chunking
is unchanged.
"""

from __future__ import annotations

import itertools
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import wsd
from wsd.cli import main
from wsd.corpus.scan import SPLIT_INSIDE_CHUNKS, build_scan_options, iter_occurrence_chunks, scan
from wsd.embed import windows
from wsd.errors import InputError
from wsd.io.run_reader import read_meta
from wsd.senses.inducer import SenseInducer
from wsd.senses.stage import cluster_run
from wsd.workflows.embedding import embed_corpus
from wsd.workflows.tagger import MAX_TEXT_CHARS, SenseTagger

DEMO_DIR = Path(__file__).resolve().parents[1] / "data" / "demo"
#: One line, no sentence break, a use every 6 characters: each window of the bundled model holds ~170 uses.
DENSE_USES = 4000
#: Traced memory (numpy arrays and Python objects) of embedding the dense line: about 1.5 GB before the fix,
#: under 250 MB after (the batch's distinct tokens: 32 windows x 512 tokens x 384 x 4 layers x 4 bytes = 100 MB,
#: plus pooling groups of PIECES_PER_POOL pieces); the bound depends on the batch and window, not on the uses.
TRACED_BOUND = 400 * 2**20


def _dense_line(uses: int) -> str:
    return " ".join(["mouse"] * uses)


@pytest.fixture(scope="module")
def dense(tmp_path_factory, encoder) -> dict:
    """The dense line embedded once with the default recipe's context vector: vectors, traced peak, gathers."""
    corpus = tmp_path_factory.mktemp("dense") / "line.txt"
    corpus.write_text(_dense_line(DENSE_USES) + "\n", encoding="utf-8")
    occurrences = scan(corpus, "mouse")
    contextual = encoder.with_options(context_vector="20:last:0.5")
    forward = contextual.loaded.forward
    original = forward.pieces
    gathers: list[tuple[int, int]] = []

    def recording(input_ids, mask, needed, rows, cols):
        gathers.append((len(rows), int(input_ids.size)))
        return original(input_ids, mask, needed, rows, cols)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(forward, "pieces", recording)
        tracemalloc.start()
        try:
            vectors = contextual.embed_occurrences(occurrences)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    return {"occurrences": occurrences, "vectors": vectors, "peak": peak, "gathers": gathers, "encoder": contextual}


def test_a_batch_gathers_each_token_at_most_once(dense) -> None:
    assert len(dense["occurrences"]) == DENSE_USES
    assert dense["gathers"], "the forward pass ran"
    # before: every piece of every occurrence's context span, 170 uses x 41 tokens a window (~40x the window)
    assert all(rows <= tokens for rows, tokens in dense["gathers"]), dense["gathers"]


def test_peak_memory_of_a_dense_line_is_bounded_by_the_batch(dense) -> None:
    assert dense["peak"] < TRACED_BOUND, f"{dense['peak'] / 2**20:.0f} MiB traced"


def test_pooling_in_groups_gives_the_same_vectors(dense, monkeypatch) -> None:
    encoder, occurrences, vectors = dense["encoder"], dense["occurrences"], dense["vectors"]
    # an occurrence in a batch of its own has the same window: the same vector up to the rounding of padding
    picked = list(range(0, DENSE_USES, 401))
    alone = np.vstack([encoder.embed_occurrences(occurrences.iloc[[i]]) for i in picked])
    cosine = np.sum(alone * vectors[picked], axis=1) / (
        np.linalg.norm(alone, axis=1) * np.linalg.norm(vectors[picked], axis=1)
    )
    assert cosine.min() > 0.9999
    first = occurrences.iloc[:600]
    in_one_group = encoder.embed_occurrences(first)
    monkeypatch.setattr(windows, "PIECES_PER_POOL", 7)  # hundreds of small groups: bit for bit the same vectors
    np.testing.assert_array_equal(encoder.embed_occurrences(first), in_one_group)


def test_piece_groups_cut_between_occurrences() -> None:
    assert windows.piece_groups(np.array([3, 3, 3, 3]), 6).tolist() == [0, 2, 4]
    assert windows.piece_groups(np.array([1] * 10), 4).tolist() == [0, 4, 8, 10]
    assert windows.piece_groups(np.array([40, 1, 1]), 4).tolist() == [0, 1, 3]
    assert windows.piece_groups(np.array([5, 5]), None).tolist() == [0, 2]


def test_a_document_with_more_uses_than_a_chunk_is_cut_between_its_passages(tmp_path: Path) -> None:
    corpus = tmp_path / "line.txt"
    corpus.write_text("a mouse first\n" + _dense_line(3000) + "\nthe mouse last\n", encoding="utf-8")
    options = build_scan_options("mouse")
    chunks = list(iter_occurrence_chunks(corpus, options, chunk_size=100))
    sizes = [len(chunk) for chunk in chunks]
    assert sum(sizes) == 3002 and len(chunks) >= 9  # before: one chunk of 3,001 rows, then the last line
    assert max(sizes) <= 2 * SPLIT_INSIDE_CHUNKS * 100
    for before, after in itertools.pairwise(chunks):  # each cut between two passages
        assert tuple(before.iloc[-1][["doc_id", "doc_start"]]) != tuple(after.iloc[0][["doc_id", "doc_start"]])
    pd.testing.assert_frame_equal(pd.concat(chunks, ignore_index=True), scan(corpus, "mouse"))


def test_an_ordinary_corpus_is_chunked_at_document_ends_as_before() -> None:
    chunks = list(iter_occurrence_chunks(DEMO_DIR / "corpus.txt", build_scan_options("mouse:mice,bank"), chunk_size=7))
    ends = [chunk["doc_id"].iloc[-1] for chunk in chunks[:-1]]
    starts = [chunk["doc_id"].iloc[0] for chunk in chunks[1:]]
    assert all(end != start for end, start in zip(ends, starts, strict=True))  # no document in two chunks
    assert all(len(chunk) >= 7 for chunk in chunks[:-1])


def test_a_line_with_more_uses_than_a_chunk_is_stored_in_parts(tmp_path: Path, encoder) -> None:
    corpus = tmp_path / "line.txt"
    corpus.write_text(_dense_line(1500) + "\n", encoding="utf-8")
    run = embed_corpus(corpus, "mouse", tmp_path / "run", encoder=encoder, chunk_size=100, progress=False)
    occurrences, X = wsd.load_run(run)
    assert len(occurrences) == 1500
    sizes = read_meta(run)["scan"]["part_sizes"]
    assert len(sizes) > 3 and max(sizes) <= 2 * SPLIT_INSIDE_CHUNKS * 100  # before: one part of 1,500 rows
    expected = encoder.embed_occurrences(scan(corpus, "mouse"))
    cosine = np.sum(X.astype(np.float64) * expected, axis=1) / (
        np.linalg.norm(X.astype(np.float64), axis=1) * np.linalg.norm(expected, axis=1)
    )
    assert cosine.min() > 0.999  # float16 storage, the same windows batched per part


@pytest.fixture(scope="module")
def mouse_senses(tmp_path_factory, encoder) -> Path:
    out = tmp_path_factory.mktemp("memory-tagger")
    run = embed_corpus(DEMO_DIR / "corpus.txt", "mouse:mice", out / "run", encoder=encoder, progress=False)
    return cluster_run(run, out / "senses", inducer=SenseInducer(k=2, random_state=0))


def test_text_above_the_limit_is_refused_in_one_line(mouse_senses: Path, encoder, capsys) -> None:
    tagger = SenseTagger(model=None, encoder=None)  # refused before the model or the encoder is asked anything
    too_long = _dense_line(MAX_TEXT_CHARS // 6 + 1)
    assert len(too_long) > MAX_TEXT_CHARS
    with pytest.raises(InputError, match=f"more than the {MAX_TEXT_CHARS:,} tagged in one call"):
        tagger.predict(too_long, target="mouse")
    assert main(["predict", "--senses", str(mouse_senses), "--target", "mouse", "--text", too_long]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{MAX_TEXT_CHARS:,}" in err
    frame = wsd.load(mouse_senses, encoder=encoder).predict(_dense_line(50), target="mouse")
    assert len(frame) == 50


def test_the_help_of_text_states_the_limit(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["predict", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"at most {MAX_TEXT_CHARS:,} characters in all" in help_text
