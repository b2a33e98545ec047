"""The forward pass's runtime (``--runtime torch|openvino|auto``): plumbing, errors, the OpenVINO conversion cache.

The OpenVINO tests need the optional ``openvino`` package and skip, saying so, where it is not installed; the
conversion happens once per test session (a few seconds), in the session's own cache folder.
"""

from __future__ import annotations

import importlib.util
import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from wsd import config as wsd_config
from wsd.cli import main
from wsd.embed import ov_runtime
from wsd.embed.layers import parse_layers
from wsd.embed.pooling import pool_pieces
from wsd.errors import ConfigError
from wsd.schema import DEFAULT_RUNTIME, POOLINGS, RUNTIMES

pytestmark = pytest.mark.slow  # the slow lane: OpenVINO conversion

HAS_OPENVINO = importlib.util.find_spec("openvino") is not None
needs_openvino = pytest.mark.skipif(not HAS_OPENVINO, reason="the optional openvino package is not installed")

TEXTS = [
    "The bank raised its rates again.",
    "She sat on the bank of the river and watched the water.",
    "Click the left mouse button twice.",
    "Crème brûlée at the café — naïve 'quotes' and émigrés.",
    "Надо шагать by the bank.",
]
SPANS = [(4, 8), (15, 19), (15, 20), (0, 5), (18, 22)]


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


# ------------------------------------------------------------------------------------------ plumbing, errors
def test_runtime_choices_agree_between_config_and_embed():
    setting = next(s for s in wsd_config.SETTINGS if s.name == "embedding.runtime")
    assert setting.choices == RUNTIMES
    assert setting.default == DEFAULT_RUNTIME == "auto"  # OpenVINO on a CPU (issue 24 item 6)
    assert "runtime" in wsd_config.EMBEDDING_KEYS


@pytest.mark.parametrize(
    ("runtime", "device", "message"),
    [
        ("onnx", None, "unknown runtime 'onnx'"),
        ("openvino", "cuda", "runs on the CPU only"),
    ],
)
def test_bad_runtime_is_a_config_error(runtime, device, message):
    with pytest.raises(ConfigError, match=message):
        ov_runtime.resolve_runtime(runtime, device)


def test_missing_openvino_package(monkeypatch):
    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: False)
    with pytest.raises(ConfigError, match=r"needs the openvino package.*pip install"):
        ov_runtime.resolve_runtime("openvino", None)
    assert ov_runtime.resolve_runtime("auto", None) == "torch"  # auto falls back
    assert ov_runtime.resolve_runtime(None, None) == "torch"


def test_auto_takes_openvino_on_a_cpu_when_installed(monkeypatch):
    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: True)
    assert ov_runtime.resolve_runtime("auto", "cpu") == "openvino"
    assert ov_runtime.resolve_runtime("auto", "cuda:0") == "torch"


def test_the_default_runtime_is_openvino_on_a_cpu_and_torch_on_a_gpu(monkeypatch):
    import torch

    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: True)
    monkeypatch.setattr(ov_runtime, "no_gpu_driver", lambda: False)  # a driver: torch is asked
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert ov_runtime.resolve_runtime(None, None) == "openvino"
    assert ov_runtime.resolve_runtime(None, "auto", "fp32") == "openvino"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert ov_runtime.resolve_runtime(None, None) == "torch"


def test_without_a_gpu_driver_the_default_runtime_does_not_ask_torch(monkeypatch, tmp_path):
    import torch

    def asked():
        raise AssertionError("torch was asked for a GPU")

    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_available", asked)
    monkeypatch.setattr(ov_runtime.sys, "platform", "linux")
    monkeypatch.setattr(ov_runtime, "GPU_DRIVER_PATHS", (str(tmp_path / "nvidiactl"),))
    assert ov_runtime.no_gpu_driver()
    assert ov_runtime.resolve_runtime(None, None) == "openvino"
    (tmp_path / "nvidiactl").touch()  # a driver's device node: the answer is torch's
    assert not ov_runtime.no_gpu_driver()
    with pytest.raises(AssertionError, match="torch was asked"):
        ov_runtime.resolve_runtime(None, None)
    monkeypatch.setattr(ov_runtime.sys, "platform", "win32")  # no device nodes to read: torch is asked
    (tmp_path / "nvidiactl").unlink()
    assert not ov_runtime.no_gpu_driver()


def test_the_default_runtime_is_chosen_without_importing_torch_where_there_is_no_gpu_driver():
    import subprocess
    import sys

    if not ov_runtime.no_gpu_driver():
        pytest.skip("this machine has a GPU driver (or is not Linux): torch must be asked")
    code = "import sys; from wsd.embed.ov_runtime import resolve_runtime; r = resolve_runtime(None); "
    code += "print(r, 'torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["openvino" if ov_runtime.openvino_installed() else "torch", "False"]


@pytest.mark.parametrize("precision", ["fp16"])  # int8 is OpenVINO's: tests/test_embed_ov_int8.py
def test_auto_leaves_torch_only_precisions_to_torch(monkeypatch, precision):
    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: True)
    assert ov_runtime.resolve_runtime("auto", "cpu", precision) == "torch"
    assert ov_runtime.resolve_runtime(None, None, precision) == "torch"
    with pytest.raises(ConfigError, match="not available with runtime openvino"):
        ov_runtime.resolve_openvino_precision(precision)  # asked for by name, OpenVINO still refuses it


@pytest.mark.parametrize("precision", ["fp16"])
def test_openvino_refuses_torch_only_precisions(precision):
    with pytest.raises(ConfigError, match="not available with runtime openvino"):
        ov_runtime.resolve_openvino_precision(precision)


def test_cli_runtime_openvino_without_the_package_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: False)
    corpus = tmp_path / "c.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    args = ["embed", "--corpus", corpus, "--targets", "mouse", "--out", tmp_path / "run", "--runtime", "openvino"]
    code = main([str(a) for a in [*args, "--no-progress"]])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and "openvino package" in err and "Traceback" not in err
    assert not (tmp_path / "run" / "meta.json").exists()


def test_cli_bad_runtime_value_is_refused(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(tmp_path / "r"), "--runtime", "tpu"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'tpu'" in capsys.readouterr().err


def test_config_file_runtime_is_typed_and_checked(tmp_path, capsys):
    study = tmp_path / "study.toml"
    study.write_text('[embedding]\nruntime = "tensorrt"\n', encoding="utf-8")
    code = main(["config", "validate", str(study)])
    assert code == 2
    assert "embedding.runtime" in capsys.readouterr().err


def test_evaluation_config_carries_the_runtime():
    options = wsd_config.build_evaluation_config(dataset="generic", data="x.tsv", runtime="openvino")
    assert options.embedding.runtime == "openvino"
    assert options.embedding.encoder_kwargs()["runtime"] == "openvino"


def test_torch_identity_has_no_runtime_key(encoder, torch_encoder):
    """A PyTorch run records what it always recorded (old runs and cache entries stay valid)."""
    assert torch_encoder.loaded.runtime == "torch"
    assert "runtime" not in torch_encoder.identity().embedding_meta()
    assert "runtime" not in torch_encoder.identity().run_config()
    assert encoder.identity().run_config().get("runtime", "torch") == encoder.loaded.runtime


def test_a_run_embedded_by_torch_before_the_default_changed_says_how_to_resume(tmp_path, capsys):
    """OpenVINO became the default; an output folder PyTorch embedded is refused with the flag that resumes it."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The mouse ran.\nA mouse and a keyboard.\n", encoding="utf-8")
    out = tmp_path / "run"
    common = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(out), "--no-progress"]
    assert main([*common, "--runtime", "torch"]) == 0
    vectors = (out / "vectors.npy").read_bytes() if (out / "vectors.npy").is_file() else None
    capsys.readouterr()
    assert main([*common, "--runtime", "openvino"]) == 2
    err = capsys.readouterr().err
    assert "different configuration" in err and "add --runtime torch to resume it" in err
    if vectors is not None:
        assert (out / "vectors.npy").read_bytes() == vectors  # nothing was touched
    assert main([*common, "--runtime", "torch"]) == 0  # the hint's command resumes it


# ------------------------------------------------------------------------------------------ numpy pooling
@pytest.mark.parametrize("pooling", POOLINGS)
def test_pool_pieces_matches_a_loop(pooling):
    rng = np.random.default_rng(0)
    sizes = np.array([1, 3, 2, 5])
    pieces = rng.standard_normal((sizes.sum(), 4)).astype(np.float32)
    segment = np.repeat(np.arange(len(sizes)), sizes)
    pooled = pool_pieces(pieces, segment, len(sizes), pooling)
    ops = {
        "mean": lambda p: p.mean(0),
        "sum": lambda p: p.sum(0),
        "max": lambda p: p.max(0),
        "first": lambda p: p[0],
        "last": lambda p: p[-1],
        "first-last": lambda p: np.concatenate([p[0], p[-1]]),
    }
    expected = np.stack([ops[pooling](pieces[segment == i]) for i in range(len(sizes))])
    np.testing.assert_allclose(pooled, expected, rtol=1e-6)


def test_combine_tokens_concat_and_mean():
    states = [np.full((2, 3), 1.0), np.full((2, 3), 3.0)]
    assert parse_layers("concat:-2,-1").combine_tokens(states).shape == (2, 6)
    assert parse_layers("mean:-2,-1").combine_tokens(states)[0, 0] == 2.0


# ------------------------------------------------------------------------------------------ OpenVINO
@pytest.fixture(scope="module")
def torch_encoder():
    """The PyTorch fp32 reference (the shared ``encoder`` fixture runs the default runtime, OpenVINO on a CPU)."""
    from wsd.embed.encoder import Encoder

    return Encoder(precision="fp32", device="cpu", runtime="torch")


@pytest.fixture(scope="module")
def ov_encoder():
    if not HAS_OPENVINO:
        pytest.skip("the optional openvino package is not installed")
    from wsd.embed.encoder import Encoder

    encoder = Encoder(runtime="openvino")
    encoder.embed_spans(TEXTS[:1], SPANS[:1])  # converts (once per session) and compiles
    return encoder


@needs_openvino
def test_openvino_vectors_match_torch_fp32(ov_encoder, torch_encoder):
    for layers in ("sum-last-4", "last", "mean-all"):
        ours = ov_encoder.embed_spans(TEXTS, SPANS, layers=layers)
        reference = torch_encoder.embed_spans(TEXTS, SPANS, layers=layers)
        assert cosine(ours, reference).min() >= 0.999, layers


@needs_openvino
@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_openvino_compiles_every_precision_on_any_cpu(ov_encoder, torch_encoder, precision):
    """Each precision is passed to OpenVINO as its own hint spells it (``fp32`` is ``f32`` there), whatever the
    CPU: on one without native bf16 the bf16 hint is accepted too. Same converted model, compiled again."""
    built = ov_encoder.loaded.forward
    forward = ov_runtime.OpenVinoForward(built.cache_dir, built.key, precision, torch_model=_no_conversion, threads=1)
    request, problems = forward._compile(parse_layers("sum-last-4").resolve(6))
    assert problems == [] and forward.converted == 0
    assert request is not None


def _no_conversion():
    raise AssertionError("the model was converted again: the cache entry should have been reused")


@needs_openvino
def test_openvino_static_and_context_vectors(ov_encoder, torch_encoder):
    np.testing.assert_allclose(
        ov_encoder.embed_spans(TEXTS, SPANS, layers="static"), torch_encoder.embed_spans(TEXTS, SPANS, layers="static")
    )
    ours = ov_encoder.with_options(context_vector="5").embed_spans(TEXTS, SPANS)
    reference = torch_encoder.with_options(context_vector="5").embed_spans(TEXTS, SPANS)
    assert ours.shape == reference.shape == (len(TEXTS), 768)
    assert cosine(ours, reference).min() >= 0.999


@needs_openvino
def test_openvino_identity_names_its_runtime(ov_encoder, torch_encoder):
    meta = ov_encoder.identity().embedding_meta()
    assert meta["runtime"] == "openvino"
    assert meta["model_fingerprint"] == torch_encoder.loaded.fingerprint
    assert {k: v for k, v in meta.items() if k not in ("runtime", "precision")} == {
        k: v for k, v in torch_encoder.identity().embedding_meta().items() if k != "precision"
    }


@needs_openvino
def test_cached_tokenizer_tokenises_as_transformers(ov_encoder, torch_encoder):
    """The warm path's tokenizer (rebuilt from the cache entry, no transformers) splits exactly as the model's."""
    ours, theirs = ov_encoder.loaded.backend, torch_encoder.loaded.backend
    for text in [*TEXTS, "", "   ", "don't STOP-believing!!", "日本語のテキスト", "a" * 600]:
        a, b = ours.encode(text, add_special_tokens=False), theirs.encode(text, add_special_tokens=False)
        assert a.ids == b.ids and a.offsets == b.offsets, text
    loaded = ov_encoder.loaded
    assert (loaded.prefix_ids, loaded.suffix_ids, loaded.max_length, loaded.pad_id) == (
        torch_encoder.loaded.prefix_ids,
        torch_encoder.loaded.suffix_ids,
        torch_encoder.loaded.max_length,
        torch_encoder.loaded.pad_id,
    )


@needs_openvino
def test_warm_cache_loads_without_torch_and_converts_nothing(ov_encoder):
    from wsd.embed.encoder import Encoder

    again = Encoder(runtime="openvino")
    vectors = again.embed_spans(TEXTS, SPANS)
    assert again.loaded.forward.converted == 0
    assert again.loaded._parts is None  # neither transformers' tokenizer nor the PyTorch model was loaded
    np.testing.assert_allclose(vectors, ov_encoder.embed_spans(TEXTS, SPANS), rtol=1e-5, atol=1e-6)


@needs_openvino
def test_a_warm_process_imports_neither_torch_nor_transformers(ov_encoder, tmp_path):
    import subprocess
    import sys

    code = (
        "import sys, wsd; e = wsd.Encoder(runtime='openvino'); e.embed_spans(['A bank.'], [(2, 6)]); "
        "print(sorted(m for m in ('torch', 'transformers', 'sklearn') if m in sys.modules))"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert result.stdout.strip().splitlines()[-1] == "[]"


def _entries(suffix: str) -> list[Path]:
    return sorted(Path(os.environ["WSD_OPENVINO_CACHE"]).glob("*" + suffix))


@needs_openvino
def test_damaged_ir_is_rebuilt_with_a_warning(ov_encoder):
    from wsd.embed.encoder import Encoder
    from wsd.io.layout import OPENVINO_IR_WEIGHTS

    reference = ov_encoder.embed_spans(TEXTS, SPANS)
    (weights,) = [
        p for p in _entries(OPENVINO_IR_WEIGHTS) if p.name == f"{ov_encoder.loaded.forward.key}-3-4-5-6.ir.bin"
    ]
    with open(weights, "r+b") as handle:  # flip bytes in the middle: same size, wrong content
        handle.seek(weights.stat().st_size // 2)
        handle.write(b"\xff" * 64)
    again = Encoder(runtime="openvino")
    with pytest.warns(UserWarning, match="damaged OpenVINO cache entry .*does not match its checksum"):
        vectors = again.embed_spans(TEXTS, SPANS)
    assert again.loaded.forward.converted == 1
    np.testing.assert_allclose(vectors, reference, rtol=1e-5, atol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rebuilt: the next process uses it without a word
        third = Encoder(runtime="openvino")
        third.embed_spans(TEXTS, SPANS)
    assert third.loaded.forward.converted == 0


def _edited(text: str, **changes) -> str:
    """A cache entry's JSON with some values changed (still valid JSON, every key present)."""
    import json

    return json.dumps({**json.loads(text), **changes})


@needs_openvino
@pytest.mark.parametrize("damage", ["truncated", "not json", "missing key", "edited", "no checksum"])
def test_damaged_model_entry_is_rebuilt_with_a_warning(ov_encoder, damage):
    """Issue 26, finding 10: an edited ``*.model.json`` (tokenizer settings, special ids) was used without a
    word. Every change to it now fails its checksum: it is rebuilt, with a warning naming it."""
    import json

    from wsd.embed.encoder import Encoder
    from wsd.io.layout import OPENVINO_MODEL_ENTRY

    # the bundled model's entry (the session's cache holds others: OpenVINO is the default runtime on a CPU)
    (entry,) = [
        p for p in _entries(OPENVINO_MODEL_ENTRY) if p.name == ov_encoder.loaded.forward.key + OPENVINO_MODEL_ENTRY
    ]
    text = entry.read_text(encoding="utf-8")
    bodies = {
        "truncated": text[: len(text) // 2],
        "not json": "\x00\x01",
        "missing key": '{"format": 1}',
        "edited": _edited(text, suffix_ids=[json.loads(text)["pad_id"]]),
        "no checksum": json.dumps({k: v for k, v in json.loads(text).items() if k != "sha256"}),
    }
    entry.write_text(bodies[damage], encoding="utf-8")
    with pytest.warns(UserWarning, match=f"damaged OpenVINO cache entry {re.escape(str(entry))}"):
        again = Encoder(runtime="openvino")
    assert again.loaded.fingerprint == ov_encoder.loaded.fingerprint
    assert entry.read_text(encoding="utf-8") == text  # rebuilt, identical
    assert cosine(again.embed_spans(TEXTS, SPANS), ov_encoder.embed_spans(TEXTS, SPANS)).min() > 0.99999


@needs_openvino
def test_edited_ir_description_is_rebuilt_with_a_warning(ov_encoder):
    """The ``.ir.json`` beside a converted model is covered too: edited to vouch for another ``.ir.xml``, it
    fails its own checksum, and the entry is converted again."""
    import json

    from wsd.embed.encoder import Encoder
    from wsd.io.layout import OPENVINO_IR_ENTRY

    name = f"{ov_encoder.loaded.forward.key}-3-4-5-6"
    (description,) = [p for p in _entries(OPENVINO_IR_ENTRY) if p.name == name + OPENVINO_IR_ENTRY]
    xml = description.with_name(name + ".ir.xml")
    xml.write_text(xml.read_text(encoding="utf-8") + "\n<!-- edited -->\n", encoding="utf-8")
    from wsd.io.manifest import file_sha256

    description.write_text(_edited(description.read_text(encoding="utf-8"), xml_sha256=file_sha256(xml)))
    again = Encoder(runtime="openvino")
    with pytest.warns(UserWarning, match="damaged OpenVINO cache entry .*does not match its checksum"):
        again.embed_spans(TEXTS, SPANS)
    assert again.loaded.forward.converted == 1
    assert "edited" not in xml.read_text(encoding="utf-8")
    assert json.loads(description.read_text(encoding="utf-8"))["xml_sha256"] == file_sha256(xml)


@needs_openvino
def test_unwritable_cache_is_one_clear_error(tmp_path, monkeypatch):
    from wsd.embed.encoder import Encoder
    from wsd.errors import ModelError

    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x", encoding="utf-8")
    monkeypatch.setenv("WSD_OPENVINO_CACHE", str(blocked / "cache"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the model entry cannot be written either: a warning
        encoder = Encoder(runtime="openvino")
    with pytest.raises(ModelError, match="WSD_OPENVINO_CACHE"):
        encoder.embed_spans(TEXTS[:1], SPANS[:1])


@needs_openvino
def test_embed_stream_reports_forward_and_compile_time(ov_encoder):
    import pandas as pd

    table = pd.DataFrame({"text": TEXTS, "start": [s for s, _ in SPANS], "end": [e for _, e in SPANS]})
    timings: dict[str, float] = {}
    list(ov_encoder.embed_stream([table], timings=timings))
    assert timings["forward_s"] > 0 and timings["forward_s"] <= timings["encode_s"]
    assert timings["compile_s"] == 0.0  # compiled already


def test_locale_kept_puts_the_locale_back_and_serialises_the_calls():
    import locale
    import threading

    before = locale.setlocale(locale.LC_ALL)
    with ov_runtime.locale_kept():
        locale.setlocale(locale.LC_ALL, "C")  # what OpenVINO does while it compiles
        assert not ov_runtime._OPENVINO_LOCALE.acquire(blocking=False)  # another thread's call waits
    assert locale.setlocale(locale.LC_ALL) == before
    with pytest.raises(RuntimeError), ov_runtime.locale_kept():
        locale.setlocale(locale.LC_ALL, "C")
        raise RuntimeError("compile failed")
    assert locale.setlocale(locale.LC_ALL) == before
    assert ov_runtime._OPENVINO_LOCALE.acquire(blocking=False)  # released, errors too
    ov_runtime._OPENVINO_LOCALE.release()
    assert isinstance(ov_runtime._OPENVINO_LOCALE, type(threading.Lock()))


@needs_openvino
def test_a_stream_that_ends_early_leaves_no_compilation_running(tmp_path, monkeypatch):
    """OpenVINO holds the process's locale at "C" while it compiles: a compilation started for a stream that
    yields nothing (no occurrence) or fails must be finished when the call returns, and the locale as it was."""
    import locale
    import threading

    from wsd.embed.encoder import Encoder

    before = locale.setlocale(locale.LC_ALL)
    encoder = Encoder(runtime="openvino")
    forward = encoder.loaded.forward
    encoder.embed_spans(TEXTS[:1], SPANS[:1])  # the conversion is cached: the next stream compiles in a thread
    forward._requests.clear()
    started = threading.Event()
    compile_now = forward._compile

    def slow_compile(layers):
        started.set()
        threading.Event().wait(0.5)  # still compiling when the stream has nothing more to give
        return compile_now(layers)

    monkeypatch.setattr(forward, "_compile", slow_compile)
    assert list(encoder.embed_stream([])) == []
    assert started.is_set()
    assert not [t for t in threading.enumerate() if t.name.startswith("wsd-compile")]
    assert all(future.done() for future in forward._pending.values())
    assert locale.setlocale(locale.LC_ALL) == before
    with pytest.raises(ValueError, match="broken corpus"):
        forward._requests.clear()
        forward._pending.clear()

        def broken():
            raise ValueError("broken corpus")
            yield

        list(encoder.embed_stream(broken()))
    assert not [t for t in threading.enumerate() if t.name.startswith("wsd-compile")]
    assert locale.setlocale(locale.LC_ALL) == before


@needs_openvino
def test_a_conversion_prints_nothing_from_transformers(ov_encoder):
    """Tracing the model reads every attribute, and transformers then logs a note on an encoder's unused loss
    setting (``loss_type=None ... ForCausalLMLoss``): wsd converts inside quiet_transformers, so the user sees
    none of it, and the transformers logger's level is as it was afterwards."""
    import logging

    from transformers.utils import logging as hf_logging

    clear = getattr(getattr(hf_logging.logging.Logger, "warning_once", None), "cache_clear", None)
    if clear is not None:
        clear()  # a note already logged once in this process would otherwise stay silent whatever wsd does
    logger = logging.getLogger("transformers")
    level = logger.level
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logger.addHandler(handler)
    try:
        before = ov_encoder.loaded.forward.converted
        ov_encoder.embed_spans(TEXTS[:2], SPANS[:2], layers="mean:1,2")  # a layer set converted nowhere else
    finally:
        logger.removeHandler(handler)
    assert ov_encoder.loaded.forward.converted == before + 1
    assert [r.getMessage() for r in records] == []
    assert logger.level == level
