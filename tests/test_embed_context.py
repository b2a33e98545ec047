"""Target + context vectors: the specification, the doubled plan, and vectors checked against transformers."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from wsd.embed.cache import embed_cached
from wsd.embed.context import combine, context_plan, parse_context
from wsd.embed.windows import WindowPlan
from wsd.errors import ConfigError

TEXTS = ["I deposited my money at the bank this morning before work.", "We sat on the bank of the river."]
SPANS = [(29, 33), (14, 18)]


@pytest.fixture(scope="module")
def context_encoder(encoder):
    """The bundled encoder (fp32) with a ±3-token context vector from the last layer, weight 0.5."""
    return encoder.with_options(context_vector="3")


def test_specifications_parse_to_a_canonical_name() -> None:
    assert parse_context(None) is None and parse_context("none") is None and parse_context(" Off ") is None
    assert parse_context("10").name == "10:last:0.5"
    assert parse_context("all:sum-last-4:1").name == "all:sum-last-4:1"
    assert parse_context("5:mean:-2,-1:0.25").name == "5:mean:-2,-1:0.25"
    assert parse_context("5:mean:-2,-1").layers.name == "mean:-2,-1"


@pytest.mark.parametrize(
    ("spec", "message"),
    [("ten", "whole number"), ("-1", "≥ 0"), ("3:last:0", "positive"), ("3:static", "static"), ("3:99", "99")],
)
def test_bad_specifications_are_config_errors(spec: str, message: str, encoder) -> None:
    with pytest.raises(ConfigError, match=message):
        parsed = parse_context(spec)
        parsed.layers.resolve(encoder.loaded.num_layers)


def test_context_plan_shares_windows_and_clips_to_them() -> None:
    plan = WindowPlan([np.arange(6), np.arange(10)], np.array([0, 1]), np.array([1, 7]), np.array([2, 9]))
    doubled = context_plan(plan, 2)
    assert doubled.windows is plan.windows
    assert doubled.window_of.tolist() == [0, 1, 0, 1]
    assert doubled.piece_start.tolist() == [1, 7, 0, 5]
    assert doubled.piece_end.tolist() == [2, 9, 4, 10]
    whole = context_plan(plan, None)
    assert whole.piece_start.tolist()[2:] == [0, 0] and whole.piece_end.tolist()[2:] == [6, 10]


def test_combine_normalises_each_part_and_weights_the_context() -> None:
    out = combine(np.array([[3.0, 4.0], [0.0, 0.0]]), np.array([[0.0, 5.0], [2.0, 0.0]]), 0.5)
    np.testing.assert_allclose(out, [[0.6, 0.8, 0.0, 0.5], [0.0, 0.0, 0.5, 0.0]], rtol=1e-6)


def test_vectors_match_a_plain_transformers_computation(encoder, context_encoder) -> None:
    vectors = context_encoder.embed_spans(TEXTS, SPANS)
    assert vectors.shape == (2, 768)
    target = encoder.embed_spans(TEXTS, SPANS)
    np.testing.assert_allclose(vectors[:, :384], target / np.linalg.norm(target, axis=1, keepdims=True), atol=1e-5)
    tokenizer, model = encoder.loaded.tokenizer, encoder.loaded.model
    for row, (text, (start, end)) in enumerate(zip(TEXTS, SPANS, strict=True)):
        batch = tokenizer(text, return_offsets_mapping=True, return_tensors="pt")
        offsets = batch.pop("offset_mapping")[0].tolist()
        pieces = [i for i, (a, b) in enumerate(offsets) if b > a and a < end and b > start]
        content = [i for i, (a, b) in enumerate(offsets) if b > a]  # no [CLS]/[SEP]
        low = max(pieces[0] - 3, content[0])
        high = min(pieces[-1] + 3, content[-1])
        with torch.no_grad():
            last = model(**batch).last_hidden_state[0]
        expected = last[low : high + 1].mean(0).numpy()
        np.testing.assert_allclose(vectors[row, 384:], 0.5 * expected / np.linalg.norm(expected), atol=1e-5)


def test_metadata_names_the_context_and_the_cache_keeps_them_apart(encoder, context_encoder, tmp_path) -> None:
    import pandas as pd

    assert "context_vector" not in encoder.identity().embedding_meta()
    meta = context_encoder.identity().embedding_meta()
    assert meta["context_vector"] == "3:last:0.5" and meta["dim"] == 768 == context_encoder.dim
    starts, ends = zip(*SPANS, strict=True)
    table = pd.DataFrame({"id": ["a", "b"], "text": TEXTS, "start": starts, "end": ends})
    (plain,) = embed_cached(encoder, table, [("sum-last-4", "mean")], cache_dir=tmp_path)
    (both,) = embed_cached(context_encoder, table, [("sum-last-4", "mean")], cache_dir=tmp_path)
    assert plain.shape == (2, 384) and both.shape == (2, 768)
    assert len(list(tmp_path.glob("*.npy"))) == 2
    (again,) = embed_cached(context_encoder, table, [("sum-last-4", "mean")], cache_dir=tmp_path)
    np.testing.assert_array_equal(again, both)


def test_several_layer_settings_share_one_context(context_encoder) -> None:
    last, static = context_encoder.embed_configs(TEXTS, SPANS, [("last", "mean"), ("static", "mean")])
    np.testing.assert_allclose(last[:, 384:], static[:, 384:], atol=1e-6)
    assert not np.allclose(last[:, :384], static[:, :384])


def test_a_stored_run_holds_the_context_vectors_and_records_them(context_encoder, tmp_path) -> None:
    from wsd.io.run_reader import load_run, read_meta
    from wsd.workflows.embedding import embed_corpus

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    run = embed_corpus(corpus, "bank", tmp_path / "run", encoder=context_encoder, progress=False)
    occurrences, stored = load_run(run)
    expected = context_encoder.embed_occurrences(occurrences)
    assert stored.shape == (2, 768)
    np.testing.assert_allclose(np.asarray(stored, dtype=np.float32), expected, atol=2e-3)  # float16 storage
    meta = read_meta(run)
    assert meta["embedding"]["context_vector"] == "3:last:0.5"
    assert meta["config"]["embed"]["context_vector"] == "3:last:0.5", "part of the run's identity (resume)"
