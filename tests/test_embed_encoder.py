"""The encoder: contextual vs static vectors, subword pooling, layer combination, long texts, windows.

Every reference value is computed here independently with ``transformers`` directly (the high-level tokenizer
call with offsets and a plain forward pass), not with wsd's own code path.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from wsd.embed.layers import parse_layers
from wsd.errors import ConfigError, InputError, ModelError
from wsd.schema import POOLINGS


def reference_states(encoder, text: str, start: int, end: int):
    """(hidden_states, piece indices) for one text from a plain transformers call."""
    tokenizer, model = encoder.loaded.tokenizer, encoder.loaded.model
    batch = tokenizer(text, return_offsets_mapping=True, return_tensors="pt")
    offsets = batch.pop("offset_mapping")[0].tolist()
    pieces = [i for i, (a, b) in enumerate(offsets) if b > a and a < end and b > start]
    with torch.no_grad():
        states = model(**batch, output_hidden_states=True).hidden_states
    return states, pieces


def reference_pool(pieces: torch.Tensor, pooling: str) -> torch.Tensor:
    return {
        "mean": lambda p: p.mean(0),
        "sum": lambda p: p.sum(0),
        "first": lambda p: p[0],
        "last": lambda p: p[-1],
        "first-last": lambda p: torch.cat([p[0], p[-1]]),
        "max": lambda p: p.max(0).values,
    }[pooling](pieces)


def plan_of(encoder, texts, spans):
    """The window plan the encoder chooses (seen through ``rewrite_plan``; static vectors: no forward pass)."""
    seen = []
    encoder.embed_configs(texts, spans, [("static", "mean")], rewrite_plan=lambda plan: seen.append(plan) or plan)
    return seen[0]


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_same_word_two_contexts_differs_but_static_is_identical(encoder):
    texts = ["I deposited money at the bank.", "We sat on the bank of the river."]
    spans = [(25, 29), (14, 18)]
    contextual = encoder.embed_spans(texts, spans)
    assert contextual.shape == (2, 384) and contextual.dtype == np.float32
    assert cosine(contextual[0], contextual[1]) < 0.99
    static = encoder.embed_spans(texts, spans, layers="static")
    np.testing.assert_array_equal(static[0], static[1])
    table = encoder.loaded.model.get_input_embeddings().weight
    bank_id = encoder.loaded.tokenizer.convert_tokens_to_ids("bank")
    np.testing.assert_allclose(static[0], table[bank_id].detach().numpy(), rtol=1e-6)


@pytest.mark.parametrize("pooling", POOLINGS)
def test_split_word_gives_one_vector_equal_to_pooled_pieces(encoder, pooling):
    text = "Солдаты должны шагать в ногу."
    start = text.index("шагать")
    states, pieces = reference_states(encoder, text, start, start + 6)
    assert len(pieces) > 1, "the uncased English vocabulary splits this Russian word"
    vector = encoder.embed_spans([text], [(start, start + 6)], pooling=pooling)
    assert vector.shape[0] == 1
    expected = reference_pool(torch.stack(states[-4:]).sum(0)[0, pieces], pooling).numpy()
    np.testing.assert_allclose(vector[0], expected, rtol=1e-4, atol=1e-4)


def test_sum_last_four_equals_stacked_hidden_states(encoder):
    text = "The committee will table the motion after the unbelievably long debate."
    start = text.index("unbelievably")
    end = start + len("unbelievably")
    states, pieces = reference_states(encoder, text, start, end)
    expected = torch.stack(states[-4:]).sum(0)[0, pieces].mean(0).numpy()
    np.testing.assert_allclose(encoder.embed_spans([text], [(start, end)])[0], expected, rtol=1e-4, atol=1e-4)


@pytest.fixture(scope="module")
def torch_encoder():
    """The bundled encoder in fp32 on PyTorch (the shared ``encoder`` runs the default runtime, OpenVINO on a CPU)."""
    from wsd.embed.encoder import Encoder

    return Encoder(precision="fp32", device="cpu", runtime="torch")


#: Layer specifications and how each combines the hidden states (embeddings output first).
LAYER_SPECS = [
    ("last", lambda s: s[-1]),
    ("mean-last-4", lambda s: torch.stack(s[-4:]).mean(0)),
    ("concat-last-4", lambda s: torch.cat(s[-4:], dim=-1)),
    ("mean-all", lambda s: torch.stack(s).mean(0)),
    ("0", lambda s: s[0]),
    ("3", lambda s: s[3]),
    ("-2,-1", lambda s: s[-2] + s[-1]),
]
LAYER_TEXT, LAYER_SPAN = "A bat flew out of the cave at dusk.", (2, 5)


@pytest.mark.parametrize(("spec", "combine"), LAYER_SPECS)
def test_layer_specs_match_hidden_states(torch_encoder, spec, combine):
    states, pieces = reference_states(torch_encoder, LAYER_TEXT, *LAYER_SPAN)
    expected = combine(states)[0, pieces].mean(0).numpy()
    got = torch_encoder.embed_spans([LAYER_TEXT], [LAYER_SPAN], layers=spec)[0]
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.slow  # converts the model to OpenVINO (once, for all the layers the specifications need together)
def test_layer_specs_match_hidden_states_on_the_default_runtime(encoder):
    """The same on the default runtime (OpenVINO on a CPU), every spec from one pass: ``embed_spans`` is
    ``embed_configs`` of one config, and each set of layers would be a conversion of its own."""
    states, pieces = reference_states(encoder, LAYER_TEXT, *LAYER_SPAN)
    configs = [(spec, "mean") for spec, _ in LAYER_SPECS]
    for (spec, combine), got in zip(
        LAYER_SPECS, encoder.embed_configs([LAYER_TEXT], [LAYER_SPAN], configs), strict=True
    ):
        expected = combine(states)[0, pieces].mean(0).numpy()
        np.testing.assert_allclose(got[0], expected, rtol=1e-4, atol=1e-4, err_msg=spec)


def test_mouse_senses_are_closer_within_than_across(encoder):
    animal = [
        "The mouse ran into its hole in the wall.",
        "The cat chased a little grey mouse across the barn.",
        "A field mouse nibbled the seeds in the garden.",
        "The owl swooped down and caught a mouse.",
    ]
    device = [
        "Click the left mouse button twice to open the file.",
        "Plug the wireless mouse into the USB port of your laptop.",
        "Move the mouse pointer over the icon on the screen.",
        "My computer mouse stopped working after the update.",
    ]
    texts = animal + device
    spans = [(t.index("mouse"), t.index("mouse") + 5) for t in texts]
    vectors = encoder.embed_spans(texts, spans)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    similarity = unit @ unit.T
    labels = np.array([0] * 4 + [1] * 4)
    same = labels[:, None] == labels[None, :]
    off_diagonal = ~np.eye(8, dtype=bool)
    within = similarity[same & off_diagonal].mean()
    across = similarity[~same].mean()
    assert within > across + 0.02
    np.fill_diagonal(similarity, -1)
    assert (labels[similarity.argmax(1)] == labels).all()


def test_target_deep_in_a_long_document_gets_a_window_that_contains_it(encoder):
    words = ["river", "stone", "green", "table", "light", "music", "paper", "house"]
    filler = " ".join(words[i % len(words)] for i in range(6000))
    text = filler[:20000] + " mouse " + filler[:8000]
    start = text.index(" mouse ") + 1
    assert start > 20000
    plan = plan_of(encoder, [text], [(start, start + 5)])
    window = plan.windows[plan.window_of[0]]
    pieces = window[plan.piece_start[0] : plan.piece_end[0]]
    assert encoder.loaded.tokenizer.convert_ids_to_tokens(pieces.tolist()) == ["mouse"]
    budget = encoder.loaded.max_length - 2
    assert len(window) == budget
    assert abs(plan.piece_start[0] - budget // 2) <= 1, "the window is centred on the target"
    # reference: the same centred window cut from a plain tokenisation of the whole text
    tokenizer, model = encoder.loaded.tokenizer, encoder.loaded.model
    encoded = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    offsets = encoded["offset_mapping"]
    position = next(i for i, (a, b) in enumerate(offsets) if a == start)
    lo = position - budget // 2
    ids = [tokenizer.cls_token_id, *encoded["input_ids"][lo : lo + budget], tokenizer.sep_token_id]
    with torch.no_grad():
        states = model(input_ids=torch.tensor([ids]), output_hidden_states=True).hidden_states
    expected = torch.stack(states[-4:]).sum(0)[0, 1 + position - lo].numpy()
    np.testing.assert_allclose(encoder.embed_spans([text], [(start, start + 5)])[0], expected, rtol=1e-4, atol=1e-4)


def test_several_targets_in_one_text_share_one_window(encoder):
    text = "The mouse sat by the bank while another mouse watched."
    spans = [(4, 9), (21, 25), (40, 45)]
    plan = plan_of(encoder, [text] * 3, spans)
    assert len(plan.windows) == 1
    together = encoder.embed_spans([text] * 3, spans)
    alone = np.stack([encoder.embed_spans([text], [s])[0] for s in spans])
    np.testing.assert_allclose(together, alone, rtol=1e-4, atol=1e-4)


def test_long_text_targets_share_windows_only_when_well_inside(encoder):
    words = ["river", "stone", "green", "table", "light", "music", "paper", "house", "cloud"]
    text = " ".join(words[(i * 7) % len(words)] + words[i % 4] for i in range(2000))
    starts = [text.index(" ", n) + 1 for n in (0, 200, 8000, 20000)]
    spans = [(s, text.index(" ", s)) for s in starts]
    plan = plan_of(encoder, [text] * 4, spans)
    assert plan.window_of[0] == plan.window_of[1], "a target well inside the first window shares it"
    assert len({int(w) for w in plan.window_of}) == 3
    for i in range(4):
        assert 0 <= plan.piece_start[i] < plan.piece_end[i] <= len(plan.windows[plan.window_of[i]])


def test_window_tokens_limits_context_either_side(encoder):
    text = " ".join(["alpha"] * 100 + ["mouse"] + ["omega"] * 100)
    start = text.index("mouse")
    plan = plan_of(encoder.with_options(window_tokens=5), [text], [(start, start + 5)])
    assert encoder.window_tokens is None, "with_options leaves the encoder as it was"
    assert len(plan.windows[0]) == 11 and plan.piece_start[0] == 5


def test_order_is_restored_after_length_sorting(encoder):
    texts = ["bank"] + ["a " * n + "bank of the river" for n in (40, 3, 17, 60)] + ["the bank"]
    spans = [(t.index("bank"), t.index("bank") + 4) for t in texts]
    batched = encoder.with_options(batch_size=2).embed_spans(texts, spans)
    one_by_one = np.stack([encoder.embed_spans([t], [s])[0] for t, s in zip(texts, spans, strict=True)])
    np.testing.assert_allclose(batched, one_by_one, rtol=1e-4, atol=1e-4)


def test_several_configs_from_one_pass_equal_separate_calls(encoder):
    texts = ["A plant grows in the pot.", "The plant closed its factory gates."]
    spans = [(2, 7), (4, 9)]
    last, static = encoder.embed_configs(texts, spans, [("last", "first"), ("static", "mean")])
    np.testing.assert_allclose(last, encoder.embed_spans(texts, spans, layers="last", pooling="first"), rtol=1e-5)
    np.testing.assert_allclose(static, encoder.embed_spans(texts, spans, layers="static"), rtol=1e-6)


def test_bf16_vectors_stay_close_to_fp32(encoder):
    from wsd.embed.encoder import Encoder

    fast = Encoder(precision="bf16", device="cpu")
    texts = ["The cell divided twice.", "He spent a night in a prison cell.", "Charge your cell phone."]
    spans = [(t.index("cell"), t.index("cell") + 4) for t in texts]
    low, full = fast.embed_spans(texts, spans), encoder.embed_spans(texts, spans)
    cosines = (low * full).sum(1) / np.linalg.norm(low, axis=1) / np.linalg.norm(full, axis=1)
    assert cosines.min() > 0.999


def test_bad_arguments_are_clear_errors(encoder):
    with pytest.raises(ConfigError, match="layer 12 does not exist"):
        encoder.embed_spans(["a bank"], [(2, 6)], layers="12")
    with pytest.raises(ConfigError, match="unknown subword pooling"):
        encoder.embed_spans(["a bank"], [(2, 6)], pooling="median")
    with pytest.raises(ConfigError, match="not understood"):
        parse_layers("last-four")
    with pytest.raises(InputError, match="covers no subword token"):
        encoder.embed_spans(["a bank"], [(1, 2)])
    with pytest.raises(ConfigError, match="one span per text"):
        encoder.embed_spans(["a bank", "b"], [(2, 6)])


def test_missing_model_is_a_clear_error_not_a_hang(tmp_path):
    from wsd.embed.encoder import Encoder

    with pytest.raises(ModelError, match="not found"):
        Encoder(model=str(tmp_path / "nowhere"))
    with pytest.raises(ModelError, match="Hugging Face cache"):
        Encoder(model="no-such-org/no-such-model-xyz")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match=r"no config\.json"):
        Encoder(model=str(tmp_path / "empty"))


def test_model_given_as_a_local_path_works(encoder):
    from wsd.embed.encoder import Encoder
    from wsd.embed.models import bundled_model_path

    by_path = Encoder(model=str(bundled_model_path()), precision="fp32", device="cpu")
    assert by_path.loaded.fingerprint == encoder.loaded.fingerprint
    np.testing.assert_allclose(
        by_path.embed_spans(["a bank"], [(2, 6)]), encoder.embed_spans(["a bank"], [(2, 6)]), rtol=1e-6
    )
