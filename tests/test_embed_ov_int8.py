"""int8 with OpenVINO (issue 42, part 2): the converted model quantised with NNCF, cached beside it, refused in one line
where it cannot run.

The quantisation measures a handful of calibration windows here (:data:`wsd.embed.ov_int8.CALIBRATION_WINDOWS` is
lowered for this module), so that it takes seconds; its quality at the real setting is measured in
``experiments/results/int8_quality/``. The tests need ``nncf`` (``make setup`` installs it) and skip without it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

from wsd.cli import main
from wsd.embed import ov_int8, ov_runtime
from wsd.errors import ConfigError

pytestmark = pytest.mark.slow  # quantising the bundled model takes seconds

HAS_NNCF = importlib.util.find_spec("nncf") is not None and ov_runtime.openvino_installed()
needs_nncf = pytest.mark.skipif(not HAS_NNCF, reason="the optional nncf package (pip install 'wsd[int8]') is missing")

#: Calibration windows of the tests: few, so that a quantisation takes seconds.
FEW_WINDOWS = 6
TEXTS = [
    "The bank raised its rates again.",
    "She sat on the bank of the river and watched the water.",
    "Click the left mouse button twice.",
    "A small brown mouse slipped through a crack in the wall.",
]
SPANS = [(4, 8), (15, 19), (15, 20), (14, 19)]


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)


@pytest.fixture(scope="module")
def few_windows():
    """Quantise on :data:`FEW_WINDOWS` windows while this module runs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ov_int8, "CALIBRATION_WINDOWS", FEW_WINDOWS)
        yield


@pytest.fixture(scope="module")
def int8_encoder(few_windows):
    if not HAS_NNCF:
        pytest.skip("the optional nncf package is missing")
    from wsd.embed.encoder import Encoder

    encoder = Encoder(runtime="openvino", precision="int8", device="cpu")
    encoder.embed_spans(TEXTS[:1], SPANS[:1])  # converts (once per session) and quantises
    return encoder


def _int8_files(encoder) -> list[Path]:
    forward = encoder.loaded.forward
    return sorted(Path(os.environ["WSD_OPENVINO_CACHE"]).glob(f"{forward.key}-*-int8-{forward.calibration}.ir.*"))


# ------------------------------------------------------------------------------------------ building and the cache
@needs_nncf
def test_int8_model_is_quantised_once_and_cached_beside_the_fp32_conversion(int8_encoder):
    loaded = int8_encoder.loaded
    assert (loaded.runtime, loaded.precision) == ("openvino", "int8")
    assert loaded.forward.quantised == 1
    assert len(loaded.forward.windows) == FEW_WINDOWS
    names = [path.name for path in _int8_files(int8_encoder)]
    stem = f"{loaded.forward.key}-3-4-5-6-int8-{loaded.forward.calibration}"
    assert names == [f"{stem}.ir.bin", f"{stem}.ir.json", f"{stem}.ir.xml"]
    description = json.loads((Path(os.environ["WSD_OPENVINO_CACHE"]) / f"{stem}.ir.json").read_text("utf-8"))
    assert description["precision"] == "int8" and description["calibration_windows"] == FEW_WINDOWS
    fp32 = Path(os.environ["WSD_OPENVINO_CACHE"]) / f"{loaded.forward.key}-3-4-5-6.ir.xml"
    assert fp32.is_file()  # the fp32 conversion it was quantised from, kept beside it
    xml = (Path(os.environ["WSD_OPENVINO_CACHE"]) / f"{stem}.ir.xml").read_text("utf-8")
    assert "FakeQuantize" in xml or "FakeConvert" in xml  # quantised, not a copy of the fp32 model


@needs_nncf
def test_a_second_encoder_reuses_the_cached_int8_model(int8_encoder):
    from wsd.embed.encoder import Encoder

    first = int8_encoder.embed_spans(TEXTS, SPANS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = Encoder(runtime="openvino", precision="int8", device="cpu")
        vectors = again.embed_spans(TEXTS, SPANS)
    assert again.loaded.forward.quantised == 0 and again.loaded.forward.converted == 0
    np.testing.assert_array_equal(vectors, first)


@needs_nncf
def test_other_calibration_windows_make_another_entry(int8_encoder):
    loaded = int8_encoder.loaded
    windows = ov_int8.calibration_windows(loaded.backend, loaded.prefix_ids, loaded.suffix_ids, 64, limit=FEW_WINDOWS)
    assert ov_int8.calibration_identity(windows) == loaded.forward.calibration
    other = ov_int8.calibration_windows(loaded.backend, loaded.prefix_ids, loaded.suffix_ids, 64, TEXTS)
    assert ov_int8.calibration_identity(other) != loaded.forward.calibration


@needs_nncf
def test_int8_vectors_stay_close_to_fp32(int8_encoder):
    """A loose floor (six calibration windows here); the real figures are on the results page."""
    from wsd.embed.encoder import Encoder

    fp32 = Encoder(runtime="openvino", precision="fp32", device="cpu").embed_spans(TEXTS, SPANS)
    int8 = int8_encoder.embed_spans(TEXTS, SPANS)
    assert int8.shape == fp32.shape and np.isfinite(int8).all()
    assert cosine(int8, fp32).min() > 0.95
    assert not np.allclose(int8, fp32, atol=1e-4)  # it does compute in int8


@needs_nncf
@pytest.mark.parametrize("damage", ["weights", "description"])
def test_a_damaged_int8_entry_is_quantised_again_with_one_warning(int8_encoder, damage):
    from wsd.embed.encoder import Encoder

    reference = int8_encoder.embed_spans(TEXTS, SPANS)
    files = {path.suffix: path for path in _int8_files(int8_encoder)}
    if damage == "weights":
        with open(files[".bin"], "r+b") as handle:  # same size, other bytes
            handle.seek(files[".bin"].stat().st_size // 2)
            handle.write(b"\xff" * 64)
    else:  # the description edited to vouch for other weights
        text = files[".json"].read_text("utf-8")
        files[".json"].write_text(json.dumps({**json.loads(text), "bin_sha256": "0" * 64}), encoding="utf-8")
    again = Encoder(runtime="openvino", precision="int8", device="cpu")
    with pytest.warns(UserWarning, match="damaged OpenVINO cache entry .*int8.*; quantising the model again") as found:
        vectors = again.embed_spans(TEXTS, SPANS)
    assert len([w for w in found if "damaged" in str(w.message)]) == 1
    assert again.loaded.forward.quantised == 1 and again.loaded.forward.converted == 0
    np.testing.assert_allclose(vectors, reference, rtol=1e-4, atol=1e-4)  # NNCF is deterministic
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rebuilt: the next encoder uses it without a word
        third = Encoder(runtime="openvino", precision="int8", device="cpu")
        third.embed_spans(TEXTS, SPANS)
    assert third.loaded.forward.quantised == 0


@needs_nncf
def test_quantising_prints_one_line_and_nothing_on_stdout(int8_encoder, capfd):
    """NNCF's progress bars and INFO log stay quiet; wsd says once, on standard error, what it is doing."""
    from wsd.embed.encoder import Encoder

    for path in _int8_files(int8_encoder):
        path.unlink()
    capfd.readouterr()
    Encoder(runtime="openvino", precision="int8", device="cpu").embed_spans(TEXTS[:1], SPANS[:1])
    out, err = capfd.readouterr()
    assert out == ""
    assert [line for line in err.splitlines() if line.strip()] == [
        f"quantising the model to int8 with NNCF on {FEW_WINDOWS} calibration windows (once per model; cached in "
        f"{os.environ['WSD_OPENVINO_CACHE']})"
    ]


# ------------------------------------------------------------------------------------------ recorded, refused
@needs_nncf
def test_wsd_embed_records_openvino_int8_and_a_resumed_run_keeps_it(int8_encoder, tmp_path, monkeypatch):
    from wsd.embed import calibration

    corpus = tmp_path / "c.txt"
    corpus.write_text("The mouse ran.\nA mouse and a keyboard.\n", encoding="utf-8")
    out = tmp_path / "run"
    args = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(out), "--no-progress"]
    assert main([*args, "--runtime", "openvino", "--precision", "int8"]) == 0
    embedding = json.loads((out / "meta.json").read_text("utf-8"))["embedding"]
    assert (embedding["runtime"], embedding["precision"]) == ("openvino", "int8")
    assert embedding["quantisation"] == f"nncf:{int8_encoder.loaded.forward.calibration}"
    # resumed with the defaults (auto measures on a CPU): the run keeps its runtime and precision, measuring nothing
    monkeypatch.delenv(calibration.CALIBRATION_ENV, raising=False)
    monkeypatch.setattr(calibration, "auto_choice", lambda *a, **k: pytest.fail("measured for a resumed run"))
    assert main(args) == 0
    assert json.loads((out / "meta.json").read_text("utf-8"))["embedding"] == embedding


def _refused(tmp_path: Path, capsys, *flags: str) -> str:
    corpus = tmp_path / "c.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    args = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(tmp_path / "run"), *flags]
    code = main([*args, "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "run" / "meta.json").exists()
    return err


def test_int8_without_nncf_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(ov_runtime, "nncf_installed", lambda: False)
    err = _refused(tmp_path, capsys, "--runtime", "openvino", "--precision", "int8")
    assert "needs the nncf package" in err and "pip install" in err


def test_int8_on_a_gpu_is_one_line_exit_2(tmp_path, capsys):
    err = _refused(tmp_path, capsys, "--runtime", "openvino", "--precision", "int8", "--device", "cuda")
    assert "CPU only" in err


def test_int8_with_pytorch_is_one_line_exit_2(tmp_path, capsys):
    """PyTorch's dynamic int8 was dropped (its quality, experiments/results/int8_quality): int8 is OpenVINO's."""
    err = _refused(tmp_path, capsys, "--runtime", "torch", "--precision", "int8")
    assert "runtime openvino" in err and "PyTorch" in err


def test_auto_runs_int8_with_openvino_on_the_cpu(monkeypatch):
    import torch

    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)  # a GPU is present: int8 is the CPU's anyway
    assert ov_runtime.resolve_runtime("auto", None, "int8") == "openvino"
    assert ov_runtime.resolve_runtime(None, "cpu", "int8") == "openvino"
    assert ov_runtime.resolve_runtime("auto", "cuda", "int8") == "torch"  # which refuses it in one line
    monkeypatch.setattr(ov_runtime, "openvino_installed", lambda: False)
    assert ov_runtime.resolve_runtime("auto", None, "int8") == "torch"


def test_int8_is_asked_for_by_name_only_and_a_run_made_with_it_resumes(monkeypatch):
    from wsd.embed import calibration

    monkeypatch.setattr(ov_runtime, "nncf_installed", lambda: True)
    assert calibration.OPENVINO_INT8 in calibration.runnable(openvino=True, torch_bf16=False)
    assert calibration.OPENVINO_INT8 not in calibration.runnable(openvino=False, torch_bf16=False)
    chosen_by_auto = calibration.candidates(openvino=True, openvino_bf16=True, torch_bf16=True)
    assert (calibration.OPENVINO_INT8 in chosen_by_auto) == (calibration.OPENVINO_INT8_EXCLUDED is None)
    assert all(candidate.runtime != "torch" or candidate.precision != "int8" for candidate in chosen_by_auto)


def test_int8_is_refused_by_name_where_nncf_is_missing(monkeypatch):
    monkeypatch.setattr(ov_runtime, "nncf_installed", lambda: False)
    with pytest.raises(ConfigError, match="needs the nncf package"):
        ov_runtime.resolve_openvino_precision("int8")
    assert ov_runtime.resolve_openvino_precision("fp32") == "fp32"  # the other precisions need no NNCF


def test_the_quality_gate_of_the_experiment_holds_both_ways():
    """experiments/int8_quality.py: AVG within 0.3 points (scores are fractions) and ρ within 0.01, either way."""
    from experiments import int8_quality as experiment

    def measured(avg13: float, avg10: float, rho: float) -> dict:
        row = {"semeval2013": {"avg": avg13}, "semeval2010": {"avg": avg10}, "dwug_en": {"graded_spearman": rho}}
        return {name: {"overall": scores} for name, scores in row.items()}

    fp32, close, far = measured(0.316, 0.420, 0.369), measured(0.3135, 0.4225, 0.360), measured(0.316, 0.4265, 0.369)
    datasets = {name: {experiment.REFERENCE: fp32[name], "close": close[name], "far": far[name]} for name in fp32}
    assert experiment.gate(datasets, "close")["passes"]
    verdict = experiment.gate(datasets, "far")
    assert not verdict["passes"] and not verdict["checks"]["semeval2010"]["holds"]  # +0.65 points
    assert not experiment.gate({"semeval2013": datasets["semeval2013"]}, "close")["complete"]
