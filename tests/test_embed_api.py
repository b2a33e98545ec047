"""The encoder's narrow API: embed_stream, with_options, identity, model_inputs, rewrite_plan, quiet loading."""

from __future__ import annotations

import ast
import itertools
import logging
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

from wsd.embed.encoder import Encoder
from wsd.errors import ConfigError, InputError

TEXTS = [
    "A small brown mouse slipped through a crack in the pantry wall.",
    "Click the left mouse button twice to open the file.",
    "We sat on the bank of the river and watched the boats.",
    "The bank raised its interest rates again this spring.",
    "The mouse and the bank: a mouse ran past the bank at dawn.",
    "Bats sleep in the cave by day.",
    "He swung the bat and hit the ball over the fence.",
]


def occurrence_table(words: tuple[str, ...] = ("mouse", "bank", "bat")) -> pd.DataFrame:
    """Every occurrence of ``words`` in TEXTS (several per text in places)."""
    rows = []
    for text in TEXTS:
        for word in words:
            start = text.find(word)
            while start >= 0:
                rows.append({"text": text, "start": start, "end": start + len(word)})
                start = text.find(word, start + 1)
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return occurrence_table()


@pytest.fixture(scope="module")
def context_encoder(encoder):
    return encoder.with_options(context_vector="3")


def chunks_of(table: pd.DataFrame, sizes: list[int]) -> list[pd.DataFrame]:
    bounds = np.cumsum([0, *sizes])
    assert bounds[-1] == len(table)
    return [table.iloc[a:b].reset_index(drop=True) for a, b in itertools.pairwise(bounds)]


# ------------------------------------------------------------------------------------------ embed_stream
@pytest.mark.parametrize("which", ["plain", "context"])
def test_stream_gives_each_chunks_vectors_in_order(encoder, context_encoder, table, which) -> None:
    model = encoder if which == "plain" else context_encoder
    chunks = chunks_of(table, [3, 1, len(table) - 6, 2])
    streamed = list(model.embed_stream(iter(chunks)))
    assert [len(v) for v in streamed] == [len(c) for c in chunks]
    for vectors, chunk in zip(streamed, chunks, strict=True):
        assert vectors.dtype == np.float32 and vectors.shape[1] == model.dim
        np.testing.assert_array_equal(vectors, model.embed_occurrences(chunk))
    together = model.embed_occurrences(table)
    np.testing.assert_allclose(np.concatenate(streamed), together, rtol=1e-5, atol=1e-5)


def test_stream_hands_freed_memory_back_after_each_chunk(encoder, table, monkeypatch) -> None:
    import ctypes

    import wsd.embed.encoder as module

    has_trim = hasattr(ctypes.CDLL(None), "malloc_trim")
    assert module.release_freed_memory() is has_trim  # glibc: malloc_trim; elsewhere nothing, and no error
    calls: list[str] = []
    monkeypatch.setattr(module, "release_freed_memory", lambda: calls.append(threading.current_thread().name))
    chunks = chunks_of(table, [3, len(table) - 3])
    streamed = list(encoder.embed_stream(chunks))
    assert calls == ["MainThread", "MainThread"]  # once per chunk, by the thread that ran the model
    for vectors, chunk in zip(streamed, chunks, strict=True):
        np.testing.assert_array_equal(vectors, encoder.embed_occurrences(chunk))


def test_stream_uses_the_encoders_own_layers_and_pooling(encoder, table) -> None:
    first_last = encoder.with_options(layers="last", pooling="first-last")
    (streamed,) = first_last.embed_stream([table])
    np.testing.assert_array_equal(streamed, encoder.embed_occurrences(table, layers="last", pooling="first-last"))


def test_an_empty_chunk_gives_an_empty_array(encoder, context_encoder, table) -> None:
    empty = table.iloc[:0]
    for model in (encoder, context_encoder):
        streamed = list(model.embed_stream([table.iloc[:2], empty, table.iloc[2:4]]))
        assert [v.shape for v in streamed] == [(2, model.dim), (0, model.dim), (2, model.dim)]
        assert streamed[1].dtype == np.float32
    assert list(encoder.embed_stream([])) == []


def test_the_next_chunk_is_pulled_and_planned_in_one_helper_thread_one_ahead(encoder, table) -> None:
    chunks = chunks_of(table, [2, 2, 2, len(table) - 6])
    pulled: list[int] = []
    threads: set[str] = set()

    def source():
        for index, chunk in enumerate(chunks):
            pulled.append(index)
            threads.add(threading.current_thread().name)
            yield chunk

    stream = encoder.embed_stream(source())
    next(stream)
    assert len(pulled) <= 2, "at most one chunk ahead of the one being encoded"
    rest = list(stream)
    assert len(rest) == 3 and pulled == [0, 1, 2, 3]
    assert threading.current_thread().name not in threads, "chunks are pulled in the helper thread"


def test_timings_add_up_in_the_given_dict(encoder, table) -> None:
    timings = {"tokenize_s": 1.0, "write_s": 2.0}
    list(encoder.embed_stream(chunks_of(table, [4, len(table) - 4]), timings=timings))
    assert timings["tokenize_s"] > 1.0 and timings["encode_s"] > 0 and timings["write_s"] == 2.0


def test_errors_in_the_helper_thread_reach_the_caller(encoder, table) -> None:
    def failing():
        yield table.iloc[:2]
        raise OSError("disk gone")

    stream = encoder.embed_stream(failing())
    assert next(stream).shape[0] == 2
    with pytest.raises(OSError, match="disk gone"):
        next(stream)
    bad = pd.DataFrame({"text": ["a bank"], "start": [1], "end": [2]})
    with pytest.raises(InputError, match="covers no subword token"):
        list(encoder.embed_stream([table.iloc[:2], bad]))


# ------------------------------------------------------------------------------------------ with_options
def test_with_options_shares_the_model_and_leaves_the_original_alone(encoder, table) -> None:
    other = encoder.with_options(context_vector="3", layers="last", batch_size=3)
    assert other.loaded is encoder.loaded
    assert other.layers.name == "last" and other.batch_size == 3 and other.context_vector.name == "3:last:0.5"
    assert encoder.layers.name == "sum-last-4" and encoder.context_vector is None and encoder.batch_size == 32
    assert other.with_options(context_vector=None).context_vector is None
    assert encoder.with_options(batch_size=None).batch_size == 32, "None: the device's default"
    loaded_anew = Encoder(precision="fp32", device="cpu", context_vector="3", layers="last", batch_size=3)
    np.testing.assert_array_equal(other.embed_occurrences(table), loaded_anew.embed_occurrences(table))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"precision": "bf16"}, "cannot change precision"),
        ({"model": "x"}, "cannot change model"),
        ({"batch_size": 0}, "at least 1"),
        ({"layers": "99"}, "does not exist"),
        ({"pooling": "median"}, "unknown subword pooling"),
        ({"context_vector": "ten"}, "whole number"),
    ],
)
def test_with_options_refuses_what_it_cannot_change(encoder, changes, message) -> None:
    with pytest.raises(ConfigError, match=message):
        encoder.with_options(**changes)


def test_settings_are_read_only(encoder) -> None:
    with pytest.raises(AttributeError):
        encoder.batch_size = 2


# ------------------------------------------------------------------------------------------ identity
def test_identity_gives_the_vector_metadata_and_the_run_configuration(encoder, context_encoder) -> None:
    identity = encoder.identity()
    settings = {
        "model": "all-MiniLM-L6-v2",
        "model_fingerprint": encoder.loaded.fingerprint,
        "layers": "sum-last-4",
        "pooling": "mean",
        "max_length": 512,
        "window_tokens": None,
        "precision": "fp32",
    }
    # the default runtime on a CPU is OpenVINO (issue 24); a PyTorch encoder records no runtime key
    settings |= {} if encoder.loaded.runtime == "torch" else {"runtime": encoder.loaded.runtime}
    assert encoder.loaded.runtime == "openvino"
    assert identity.embedding_meta() == settings | {"dim": 384}
    assert identity.run_config() == settings | {"context_vector": None, "batch_size": 32}
    assert identity.to_dict() == settings | {"context_vector": None, "batch_size": 32, "dim": 384}
    with_context = context_encoder.identity("last", "first-last")
    assert with_context.embedding_meta() == settings | {
        "layers": "last",
        "pooling": "first-last",
        "dim": 2 * 384 + 384,
        "context_vector": "3:last:0.5",
    }
    assert with_context.run_config()["context_vector"] == "3:last:0.5"
    with pytest.raises(ConfigError, match="does not exist"):
        encoder.identity("12")


# ------------------------------------------------------------------------------------------ model_inputs, rewrite_plan
def test_model_inputs_are_the_unique_windows_longest_first_in_batches(encoder, table) -> None:
    small = encoder.with_options(batch_size=2)
    batches = small.model_inputs(table["text"].tolist(), table[["start", "end"]].to_numpy())
    lengths = [int(n) for _, mask in batches for n in mask.sum(1)]
    assert len(lengths) == table["text"].nunique() and lengths == sorted(lengths, reverse=True)
    assert all(len(ids) <= 2 and ids.dtype == torch.int64 for ids, _ in batches)
    cls, sep = encoder.loaded.tokenizer.cls_token_id, encoder.loaded.tokenizer.sep_token_id
    ids, mask = batches[0]
    assert ids[0, 0] == cls and ids[0, int(mask[0].sum()) - 1] == sep
    expected = encoder.loaded.tokenizer(TEXTS[4])["input_ids"]
    rows = [row[: int(m.sum())].tolist() for ids, mask in batches for row, m in zip(ids, mask, strict=True)]
    assert expected in rows


def test_rewrite_plan_must_keep_one_row_per_occurrence(encoder, table) -> None:
    from wsd.embed.windows import WindowPlan

    def drop_last(plan: WindowPlan) -> WindowPlan:
        return WindowPlan(plan.windows, plan.window_of[:-1], plan.piece_start[:-1], plan.piece_end[:-1])

    with pytest.raises(ConfigError, match="rewrite_plan returned"):
        encoder.embed_configs(table["text"].tolist(), table[["start", "end"]].to_numpy(), [("last", "mean")],
                              rewrite_plan=drop_last)  # fmt: skip


# ------------------------------------------------------------------------------------------ side effects, imports
def test_loading_leaves_transformers_logging_as_it_was() -> None:
    from transformers.utils import logging as hf_logging

    from wsd.embed.models import load_encoder, quiet_transformers

    logger = logging.getLogger("transformers")
    before_level, before_verbosity = logger.level, hf_logging.get_verbosity()
    before_bars = hf_logging.is_progress_bar_enabled()
    logger.setLevel(logging.INFO)
    try:
        load_encoder(precision="fp32", device="cpu")
        assert logger.level == logging.INFO and hf_logging.get_verbosity() == logging.INFO
        assert hf_logging.is_progress_bar_enabled() == before_bars
        with quiet_transformers(), quiet_transformers():
            assert logger.level == logging.ERROR
        assert logger.level == logging.INFO
    finally:
        logger.setLevel(before_level)
    assert hf_logging.get_verbosity() == before_verbosity


def test_no_embed_module_imports_a_module_that_imports_it_back() -> None:
    folder = Path(__file__).resolve().parents[1] / "wsd" / "embed"
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("wsd.embed."):
                names.add(node.module.rsplit(".", 1)[1])
            elif isinstance(node, ast.Import):
                names |= {a.name.rsplit(".", 1)[1] for a in node.names if a.name.startswith("wsd.embed.")}
        graph[path.stem] = names

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for name in graph.get(start, ()):
            if name == goal or (name not in seen and reaches(name, goal, seen | {name})):
                return True
        return False

    assert not [name for name in graph if reaches(name, name, set())]
    assert graph["context"] <= {"layers", "windows"}, "context.py holds the spec and pure maths only"
