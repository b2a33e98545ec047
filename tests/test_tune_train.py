"""Training an encoder (wsd.tune): torch pooling equals inference, losses, batches, training, resume, the folder."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pandas as pd
import pytest
import torch

from wsd.embed.encoder import Encoder
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import pool_pieces as numpy_pool
from wsd.errors import ConfigError
from wsd.io.outputs import OutputRefused
from wsd.schema import POOLINGS
from wsd.tune import PairSet, TuneOptions, tune_encoder
from wsd.tune.batches import PairIndex
from wsd.tune.forward import SpanEncoder, combine_layers, length_groups, mark_targets, pool_pieces
from wsd.tune.losses import contrastive_loss, cosent_loss, pair_loss
from wsd.tune.options import training_options
from wsd.tune.train import train

pytestmark = pytest.mark.slow  # the slow lane: trains an encoder

#: Two senses of three words, three uses each: every pair of uses of a word is labelled same (1) or different (0).
SENSES = {
    "bank": [
        ["She sat on the bank of the river.", "The river bank was muddy.", "Reeds grew along the bank."],
        ["He deposited cash at the bank.", "The bank raised its interest rates.", "She works at a bank downtown."],
    ],
    "mouse": [
        ["A mouse ran under the table.", "The cat caught a mouse.", "A small mouse ate the cheese."],
        ["Click the mouse twice.", "My mouse needs a new battery.", "Move the mouse to the icon."],
    ],
    "bat": [
        ["A bat flew out of the cave.", "The bat hunts insects at night.", "A bat hung from the roof."],
        ["He swung the bat hard.", "The cricket bat was made of willow.", "She bought a new baseball bat."],
    ],
}


def toy_pairs(kind: str = "binary", source: str = "toy") -> PairSet:
    """The hand-made pair set: binary labels, or graded ones (4 same sense, 1 different)."""
    uses, pairs = [], []
    for lemma, senses in SENSES.items():
        ids = []
        for sense, texts in enumerate(senses):
            for k, text in enumerate(texts):
                start = text.lower().index(lemma)
                uid = f"{source}#{lemma}-{sense}-{k}"
                row = {"use_id": uid, "lemma": lemma, "text": text, "start": start, "end": start + len(lemma)}
                uses.append(row | {"source": source})
                ids.append((uid, sense))
        for (a, sa), (b, sb) in itertools.combinations(ids, 2):
            same = sa == sb
            label = float(same) if kind == "binary" else (4.0 if same else 1.0)
            pairs.append({"use_id_1": a, "use_id_2": b, "lemma": lemma, "label": label, "kind": kind, "source": source})
    return PairSet(pd.DataFrame(uses), pd.DataFrame(pairs))


@pytest.fixture(scope="module")
def encoder():
    return Encoder(precision="fp32", device="cpu")


# ----------------------------------------------------------------------------------------------- torch == numpy


@pytest.mark.parametrize("pooling", POOLINGS)
def test_torch_pooling_equals_the_numpy_pooling_of_inference(pooling):
    rng = np.random.default_rng(0)
    pieces = rng.normal(size=(7, 3)).astype(np.float32)
    segment = np.array([0, 0, 0, 1, 2, 2, 3])
    expected = numpy_pool(pieces, segment, 4, pooling)
    got = pool_pieces(torch.from_numpy(pieces), torch.from_numpy(segment), 4, pooling).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("spec", ["sum-last-4", "mean-last-4", "concat:-2,-1", "last"])
def test_torch_layer_combination_equals_inference(spec):
    layers = parse_layers(spec)
    states = [np.random.default_rng(i).normal(size=(5, 4)).astype(np.float32) for i in range(len(layers.indices))]
    expected = layers.combine_tokens(states)
    got = combine_layers([torch.from_numpy(s) for s in states], layers).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    ("layers", "pooling", "context"),
    [
        ("sum-last-4", "mean", None),
        ("last", "first-last", None),
        ("mean-all", "max", None),
        ("sum-last-4", "mean", "20:last:0.5"),  # the default recipe's vectors
        ("last", "first", "2:-2,-1:0.7"),
    ],
)
def test_span_encoder_on_the_untuned_model_equals_embed_spans(encoder, layers, pooling, context):
    """The vectors training computes (with autograd) are the vectors inference computes, for the same windows."""
    uses = toy_pairs().uses
    texts = [*uses["text"], "A long text " * 5 + "where the bank stands far from its start."]
    spans = np.vstack([uses[["start", "end"]].to_numpy(), [[len(texts[-1]) - 27, len(texts[-1]) - 23]]])
    configured = encoder.with_options(layers=layers, pooling=pooling, window_tokens=6, context_vector=context)
    expected = configured.embed_spans(texts, spans)
    got = SpanEncoder(configured).encode(texts, spans, batch_windows=5)
    assert got.requires_grad  # the same computation, differentiable
    np.testing.assert_allclose(got.detach().numpy(), expected, atol=1e-5, rtol=1e-4)


def test_length_groups_cost_the_fewest_padded_tokens():
    lengths = np.array([200, 190, 60, 55, 50, 12, 10, 9, 8])
    groups = length_groups(lengths, group_cost=0, max_groups=3)
    assert groups == [2, 3, 4]  # 2×200 + 3×60 + 4×12 = 628 padded tokens; one batch: 9×200 = 1800
    assert length_groups(lengths, group_cost=10_000) == [9]  # a pass dearer than any padding saved: one batch
    assert length_groups(np.full(5, 40)) == [5] and length_groups(np.array([], dtype=np.int64)) == []
    assert sum(length_groups(lengths, group_cost=0)) == 9
    assert len(length_groups(lengths, group_cost=0, max_groups=2)) == 2


def test_length_groups_give_the_one_batch_vectors_loss_and_gradients(encoder):
    """Windows of very different lengths run in several passes give what one padded batch gives (to rounding)."""
    uses = toy_pairs().uses
    long = "Along the quiet road past the old mill and the school " * 6 + "the bank stood by the river."
    texts = [*uses["text"], long]
    spans = np.vstack([uses[["start", "end"]].to_numpy(), [[long.index("bank"), long.index("bank") + 4]]])
    first, second = torch.tensor([0, 3, 6, 9, 18]), torch.tensor([1, 4, 16, 12, 0])
    labels = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0])
    model = encoder.loaded.model
    grouped, single = SpanEncoder(encoder), SpanEncoder(encoder, group_lengths=False)
    plan = encoder._plan(texts, spans)
    assert len(grouped.batch_sizes(plan)) > 1 and single.batch_sizes(plan) == [len(plan.windows)]
    results = []
    model.eval()  # no dropout: the same computation either way
    for span in (grouped, single):
        vectors = span.encode(texts, spans)
        unit = torch.nn.functional.normalize(vectors, dim=1)
        loss = pair_loss((unit[first] * unit[second]).sum(1), labels, "binary", "cosent", scale=20.0)
        model.zero_grad(set_to_none=True)
        loss.backward()
        gradient = model.encoder.layer[5].output.dense.weight.grad.clone()
        results.append((vectors.detach(), loss.detach(), gradient))
    model.zero_grad(set_to_none=True)
    (vectors, loss, gradient), (vectors_one, loss_one, gradient_one) = results
    np.testing.assert_allclose(vectors.numpy(), vectors_one.numpy(), atol=1e-5, rtol=1e-4)
    assert float(loss) == pytest.approx(float(loss_one), rel=1e-5)
    np.testing.assert_allclose(gradient.numpy(), gradient_one.numpy(), atol=1e-6, rtol=1e-3)
    assert float(gradient.abs().max()) > 0


def test_markers_surround_the_target_and_keep_its_span():
    texts, spans = mark_targets(["a bank here", "bank"], np.array([[2, 6], [0, 4]]))
    assert [t[s:e] for t, (s, e) in zip(texts, spans, strict=True)] == ["bank", "bank"]
    assert texts[1] == "<t> bank </t>"


# ----------------------------------------------------------------------------------------------- losses


def test_cosent_exact_values_and_equal_labels_impose_nothing():
    scores = torch.tensor([0.9, 0.5, 0.1])
    labels = torch.tensor([4.0, 2.0, 1.0])
    # pairs (i, j) with y_i > y_j: (0,1), (0,2), (1,2); terms s_j - s_i: -0.4, -0.8, -0.4 (scale 1)
    expected = math.log(1 + 2 * math.exp(-0.4) + math.exp(-0.8))
    assert float(cosent_loss(scores, labels, scale=1.0)) == pytest.approx(expected, rel=1e-6)
    # wrongly ordered: the loss is larger
    assert float(cosent_loss(scores.flip(0), labels, scale=1.0)) > expected
    # equal labels: only log(1 + 0) and no gradient pull
    tied = torch.tensor([0.2, 0.7], requires_grad=True)
    loss = cosent_loss(tied, torch.tensor([3.0, 3.0]), scale=20.0)
    loss.backward()
    assert float(loss.detach()) == 0.0
    assert torch.equal(tied.grad, torch.zeros(2))
    # a perfectly ordered batch with a large scale: close to zero, with a vanishing gradient
    ordered = torch.tensor([0.9, 0.1], requires_grad=True)
    loss = cosent_loss(ordered, torch.tensor([4.0, 1.0]), scale=50.0)
    loss.backward()
    assert float(loss.detach()) == pytest.approx(math.log1p(math.exp(-40.0)), abs=1e-12)
    assert float(ordered.grad.abs().max()) < 1e-15


def test_contrastive_exact_values_and_the_auto_choice():
    scores = torch.tensor([0.8, 0.9, 0.2])
    labels = torch.tensor([1.0, 0.0, 0.0])
    # same: d=0.2 → 0.04; different: d=0.1 → (0.5-0.1)² = 0.16; different: d=0.8 → past the margin, 0
    assert float(contrastive_loss(scores, labels, margin=0.5)) == pytest.approx(0.5 * (0.04 + 0.16) / 3)
    assert float(pair_loss(scores, labels, "binary", "auto")) == pytest.approx(float(contrastive_loss(scores, labels)))
    graded = torch.tensor([4.0, 1.0, 1.0])
    assert float(pair_loss(scores, graded, "graded", "auto")) == pytest.approx(float(cosent_loss(scores, graded)))
    # graded labels given to the contrastive loss: ≥ 3 same, ≤ 2 different, 2.5 left out
    halves = torch.tensor([4.0, 2.5, 1.0])
    expected = float(contrastive_loss(scores[[0, 2]], torch.tensor([1.0, 0.0])))
    assert float(pair_loss(scores, halves, "graded", "contrastive")) == pytest.approx(expected)
    with pytest.raises(ConfigError):
        pair_loss(scores, labels, "binary", "triplet")


# ----------------------------------------------------------------------------------------------- batches


def test_batches_are_grouped_by_lemma_score_every_pair_and_follow_the_seed():
    pairset = toy_pairs()
    index = PairIndex(pairset)
    batches = index.epoch(seed=3, epoch=0, batch_uses=4)
    lemmas = pairset.uses["lemma"].to_numpy()
    scored = set()
    for batch in batches:
        assert len(batch.uses) <= 4 and len(set(batch.uses.tolist())) == len(batch.uses)  # each use once
        for a, b in zip(batch.first, batch.second, strict=True):
            u, v = batch.uses[a], batch.uses[b]
            assert lemmas[u] == lemmas[v]
            scored.add((min(u, v), max(u, v)))
    expected = {(min(a, b), max(a, b)) for a, b in zip(index.use_1, index.use_2, strict=True)}
    assert scored == expected  # every labelled pair at least once an epoch
    again = index.epoch(seed=3, epoch=0, batch_uses=4)
    assert [b.uses.tolist() for b in again] == [b.uses.tolist() for b in batches]
    other = index.epoch(seed=3, epoch=1, batch_uses=4)
    assert [b.uses.tolist() for b in other] != [b.uses.tolist() for b in batches]


def test_a_batch_scores_every_labelled_pair_among_its_uses():
    index = PairIndex(toy_pairs())
    (batch, *_) = [b for b in index.epoch(seed=0, epoch=0, batch_uses=6) if len(b.uses) == 6]
    # 6 uses of one lemma, all pairs labelled: 15 pairs from one forward pass of 6 uses
    assert len(batch.labels) == 15


# ----------------------------------------------------------------------------------------------- training


def test_the_loss_goes_down_on_a_toy_set(encoder, tmp_path):
    pairset = toy_pairs()
    model_before = {k: v.clone() for k, v in encoder.loaded.model.state_dict().items()}
    span = SpanEncoder(encoder)
    options = TuneOptions(epochs=4, batch_uses=6, lr=1e-4, warmup_fraction=0.0, progress=False, seed=1)
    losses = []
    try:
        outcome = train(span, pairset, None, options, tmp_path / "ckpt", {}, on_step=lambda s, v: losses.append(v))
    finally:
        tuned = {k: v.clone() for k, v in encoder.loaded.model.state_dict().items()}
        encoder.loaded.model.load_state_dict(model_before)  # the module's encoder stays untuned
    assert outcome.state.step == len(losses) > 8
    per_epoch = np.array(losses).reshape(4, -1).mean(1)
    assert per_epoch[-1] < 0.7 * per_epoch[0]
    assert any(not torch.equal(tuned[k], model_before[k]) for k in model_before)


def test_frozen_layers_keep_their_weights_and_the_layers_above_them_train(encoder, tmp_path):
    model = encoder.loaded.model
    before = {k: v.clone() for k, v in model.state_dict().items()}
    options = TuneOptions(freeze_layers=2, batch_uses=6, max_steps=3, lr=1e-3, progress=False, seed=1)
    try:
        train(SpanEncoder(encoder), toy_pairs(), None, options, tmp_path / "ckpt", {})
        after = {k: v.clone() for k, v in model.state_dict().items()}
        trainable = {name for name, weight in model.named_parameters() if weight.requires_grad}
    finally:
        model.load_state_dict(before)  # the module's encoder stays untuned
        for weight in model.parameters():
            weight.requires_grad_(True)
    changed = {k for k in before if not torch.equal(before[k], after[k])}
    assert not any(k.startswith(("embeddings.", "encoder.layer.0.", "encoder.layer.1.")) for k in changed)
    assert any(k.startswith("encoder.layer.5.") for k in changed) and any(
        k.startswith("encoder.layer.2.") for k in changed
    )
    assert not any(k.startswith(("embeddings.", "encoder.layer.0.", "encoder.layer.1.")) for k in trainable)


def test_training_the_default_recipes_vector_moves_the_context_layer_too(encoder, tmp_path):
    model = encoder.loaded.model
    before = {k: v.clone() for k, v in model.state_dict().items()}
    options = TuneOptions(context_vector="20:last:0.5", batch_uses=6, max_steps=2, lr=1e-3, progress=False)
    assert options.context_vector == "20:last:0.5" and TuneOptions(context_vector="none").context_vector is None
    span = SpanEncoder(encoder.with_options(context_vector=options.context_vector))
    losses = []
    try:
        train(span, toy_pairs(), None, options, tmp_path / "ckpt", {}, on_step=lambda s, v: losses.append(v))
        after = {k: v.clone() for k, v in model.state_dict().items()}
    finally:
        model.load_state_dict(before)  # the module's encoder stays untuned
    assert len(losses) == 2 and all(math.isfinite(v) for v in losses)
    assert not torch.equal(before["encoder.layer.5.output.dense.weight"], after["encoder.layer.5.output.dense.weight"])


def test_freezing_every_layer_is_refused_and_the_count_of_frozen_weights_is_right(encoder):
    from wsd.tune.freezing import freeze_lower_layers, layer_stack

    model = encoder.loaded.model
    assert len(layer_stack(model)) == 6
    with pytest.raises(ConfigError, match="leaves nothing to train: the model has 6 layers"):
        freeze_lower_layers(model, 6)
    assert freeze_lower_layers(model, 0) == 0 and all(w.requires_grad for w in model.parameters())
    try:
        expected = sum(w.numel() for w in model.embeddings.parameters())
        expected += sum(w.numel() for w in model.encoder.layer[0].parameters())
        assert freeze_lower_layers(model, 1) == expected
        assert not model.encoder.layer[0].attention.self.query.weight.requires_grad
        assert model.encoder.layer[1].attention.self.query.weight.requires_grad
    finally:
        for weight in model.parameters():
            weight.requires_grad_(True)


# ----------------------------------------------------------------------------------------------- the model folder

FAST = {"batch_uses": 6, "max_steps": 3, "lr": 1e-4, "progress": False, "checkpoint_steps": 1}


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    """One short run with validation on `bat`: the folder the tests below read."""
    out = tmp_path_factory.mktemp("tuned") / "model"
    options = TuneOptions(validation_lemmas=("bat_nn",), epochs=2, **FAST)
    result = tune_encoder([toy_pairs(), toy_pairs("graded", "toy2")], out, exclude_lemmas=["Mouse"], options=options)
    return result


def test_the_folder_loads_in_wsd_transformers_and_sentence_transformers(tuned, encoder):
    from transformers import AutoModel, AutoTokenizer

    out = tuned.out
    texts, spans = ["The bank was closed."], [(4, 8)]
    vectors = Encoder(model=str(out), precision="fp32", device="cpu").embed_spans(texts, spans)
    assert vectors.shape == (1, 384) and np.isfinite(vectors).all()
    model = AutoModel.from_pretrained(out)
    assert (
        AutoTokenizer.from_pretrained(out)("bank")["input_ids"][1] == encoder.loaded.tokenizer("bank")["input_ids"][1]
    )
    assert model.config.hidden_size == 384
    st = pytest.importorskip("sentence_transformers")
    assert st.SentenceTransformer(str(out), device="cpu").encode(["The bank was closed."]).shape == (1, 384)
    assert not (out / "checkpoint").exists()


def test_the_model_card_and_facts_record_the_run(tuned, encoder):
    facts = json.loads((tuned.out / "wsd_tune.json").read_text(encoding="utf-8"))
    assert facts["training_lemmas"] == ["bank"]  # mouse excluded, bat held out (both given in other spellings)
    assert facts["validation_lemmas"] == ["bat"] and facts["excluded_lemmas"] == ["mouse"]
    assert facts["base_model"]["fingerprint"] == encoder.loaded.fingerprint
    assert [s["name"] for s in facts["sources"]] == ["toy", "toy2"]
    assert facts["sources"][0]["counts"] == {
        "lemmas": 1, "uses": 6, "pairs": 15, "graded": 0, "same": 6, "different": 9, "unlabelled": 0
    }  # fmt: skip
    assert facts["training"]["loss"] == {"binary": "contrastive", "graded": "cosent"}
    assert facts["training"]["steps"] == 3
    history = facts["validation"]["history"]
    assert history[0]["when"] == "before" and history[0]["step"] == 0 and history[-1]["step"] == 3
    assert history[0]["binary_auc"] is not None and history[0]["graded_spearman"] is not None
    card = (tuned.out / "README.md").read_text(encoding="utf-8")
    for needle in (
        "all-MiniLM-L6-v2",
        facts["base_model"]["fingerprint"],
        "| `toy` | 1 | 6 | 15 | 0 | 6 | 9 |",
        "validation lemmas (held out, never trained on): bat",
        "excluded lemmas: mouse",
        "binary: contrastive",
        "seed: 0, lr: 0.0001",
        "layers: `sum-last-4`, subword pooling: `mean`",
        "| before | 0 |",
    ):
        assert needle in card


def test_resume_gives_the_weights_of_an_uninterrupted_run_and_runs_are_deterministic(tmp_path):
    from safetensors.numpy import load_file

    options = TuneOptions(validation_fraction=0.0, **FAST)
    first = tune_encoder([toy_pairs()], tmp_path / "a", options=options)

    def interrupt(step, loss):
        if step == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune_encoder([toy_pairs()], tmp_path / "b", options=options, on_step=interrupt)
    assert (tmp_path / "b" / "checkpoint" / "state.pt").is_file()
    assert not (tmp_path / "b" / "model.safetensors").exists()
    resumed = tune_encoder([toy_pairs()], tmp_path / "b", options=options)
    assert resumed.facts["training"]["steps"] == first.facts["training"]["steps"] == 3
    a, b = load_file(first.out / "model.safetensors"), load_file(resumed.out / "model.safetensors")
    assert a.keys() == b.keys()
    assert all(np.array_equal(a[k], b[k]) for k in a)
    base = load_file(_bundled() / "model.safetensors")
    shared = [k for k in a if k in base]
    assert shared and any(not np.array_equal(a[k], base[k]) for k in shared)  # training changed the weights


def _bundled():
    from wsd.embed.models import bundled_model_path

    return bundled_model_path()


# ----------------------------------------------------------------------------------------------- refusals


def test_an_out_that_holds_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputRefused, match="other files"):
        tune_encoder([toy_pairs()], tmp_path, options=TuneOptions(**FAST))
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_model_folder_of_another_configuration_is_refused(tuned):
    with pytest.raises(OutputRefused, match="different configuration"):
        tune_encoder([toy_pairs()], tuned.out, options=TuneOptions(**FAST))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"loss": "triplet"}, "loss: 'triplet' is not one of cosent, contrastive, auto"),
        ({"epochs": 0}, "epochs: must be at least 1"),
        ({"device": "tpu"}, "device: 'tpu' is not one of"),
        ({"batch_uses": 1}, "a pair needs 2 uses"),
        ({"lr": 0}, "lr: must be above 0"),
        ({"layers": "static"}, "no context to train"),
        ({"pooling": "median"}, "unknown subword pooling"),
        ({"epochs": "2"}, "epochs: '2' is not a int"),
        ({"markers": 1}, "markers: 1 is not a bool"),
        ({"freeze_layers": -1}, "freeze_layers: must be at least 0"),
        ({"context_vector": "x:last"}, "TOKENS must be a whole number or 'all'"),
    ],
)
def test_bad_options_are_one_clear_config_error(changes, message):
    """Types, choices and ranges are checked by TuneOptions; layers, pooling and context vector when training starts
    (by the encoder's parsers)."""
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        training_options(TuneOptions(**changes))


def test_the_encoders_parsers_check_only_when_training_starts():
    assert TuneOptions(pooling="first_last").pooling == "first_last"
    assert training_options(TuneOptions(pooling="first_last")).pooling == "first-last"
    assert training_options(TuneOptions(context_vector="20:last")).context_vector == "20:last:0.5"
    assert TuneOptions().layers == "sum-last-4" and TuneOptions().pooling == "mean" and TuneOptions().lr == 2e-5


def test_excluding_every_lemma_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="leaves no pair to train on"):
        tune_encoder([toy_pairs()], tmp_path / "m", exclude_lemmas=["bank", "mouse.n", "BAT"])
    with pytest.raises(ConfigError, match="no training source"):
        tune_encoder([], tmp_path / "m")
    with pytest.raises(ConfigError, match="have no training pairs"):
        tune_encoder([toy_pairs()], tmp_path / "m", options=TuneOptions(validation_lemmas=("cat",)))
    assert not (tmp_path / "m").exists()


def test_a_configuration_written_before_an_option_existed_is_the_same_configuration():
    """A folder or checkpoint of an earlier wsd lacks the options added since: they read as their defaults."""
    from wsd.io.outputs import differences
    from wsd.tune.options import with_later_defaults

    options = {key: value for key, value in TuneOptions().to_dict().items() if key != "progress"}
    new = {"options": options, "sources": ["toy"]}
    old = {
        "options": {k: v for k, v in options.items() if k not in ("freeze_layers", "context_vector")},
        "sources": ["toy"],
    }
    assert list(differences(old, new))  # compared as written, the earlier folder would be refused
    assert list(differences(with_later_defaults(old), new)) == []
    changed = {**old, "options": {**old["options"], "lr": 1.0}}
    assert list(differences(with_later_defaults(changed), new)) == ["options.lr: 1.0 → 2e-05"]
    assert with_later_defaults(None) is None and with_later_defaults({"sources": []}) == {"sources": []}
