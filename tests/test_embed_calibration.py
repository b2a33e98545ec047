"""`auto` decides by measuring (issue 42): the calibration of runtime and precision, on a fake clock.

Every test here injects the clock and the candidates' forward passes (nothing is timed for real, no model is
loaded), so the tests are fast and give the same answer on any machine and under any load. tests/conftest.py
turns the calibration off for the rest of the suite (``WSD_CALIBRATION=off``); the tests that need it on say so.
"""

from __future__ import annotations

import itertools
import json
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from wsd.cli import main
from wsd.embed import calibration, calibration_cache
from wsd.embed.batching import batch_sizes
from wsd.embed.calibration import REFERENCE, Candidate, Measurement, auto_choice, measure, pick
from wsd.errors import ConfigError, WsdError
from wsd.options import EmbeddingOptions

OV_FP32 = Candidate("openvino", "fp32")
OV_BF16 = Candidate("openvino", "bf16")
TORCH_INT8 = Candidate("torch", "int8")
CANDIDATES = (OV_FP32, OV_BF16, REFERENCE, TORCH_INT8)
MACHINE = {"cpu": "test CPU", "usable_cores": 2, "torch": "1.0", "openvino": "1.0"}


class FakeClock:
    """A clock that moves only when a fake forward pass says how long it took."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeRuntimes:
    """The candidates' forward passes: each call costs its seconds on the fake clock and returns the vectors of the
    windows given (rows of ``vectors[candidate]``, a row per window of ``windows``, the demo's by default)."""

    def __init__(
        self,
        seconds: dict[Candidate, float],
        disagreeing: tuple[Candidate, ...] = (),
        windows: calibration.Windows | None = None,
    ) -> None:
        windows = calibration.demo_windows() if windows is None else windows
        self.rows = {
            (text, start): row for row, (text, start) in enumerate(zip(windows.texts, windows.spans[:, 0], strict=True))
        }
        rng = np.random.default_rng(0)
        reference = rng.normal(size=(len(windows), 16))
        self.clock = FakeClock()
        self.seconds = seconds
        self.vectors = {}
        for candidate in seconds:
            noise = rng.normal(scale=1.0 if candidate in disagreeing else 1e-3, size=reference.shape)
            self.vectors[candidate] = reference + noise
        self.prepared: list[Candidate] = []
        self.embedded: list[tuple[Candidate, int]] = []  # (candidate, windows) of every call

    def prepare(self, candidate: Candidate):
        self.prepared.append(candidate)

        def run(windows: calibration.Windows) -> np.ndarray:
            self.clock.now += self.seconds[candidate]
            self.embedded.append((candidate, len(windows)))
            rows = [self.rows[text, start] for text, start in zip(windows.texts, windows.spans[:, 0], strict=True)]
            return self.vectors[candidate][rows]

        return run

    def compared_in_full(self) -> set[Candidate]:
        """The candidates that embedded the windows left after the warm-up and timed ones."""
        return {candidate for candidate, n in self.embedded if n == _sizes(len(self.rows))[2]}


def _sizes(n: int) -> tuple[int, int, int]:
    """How many of ``n`` windows the calibration warms up on, times, and embeds to compare in full."""
    warm, timed, rest = calibration.split_rows(np.zeros(n))
    return len(warm), len(timed), len(rest)


def choose(runtimes: FakeRuntimes, tmp_path, **extra):
    """``auto_choice`` on the fake runtimes, cached in ``tmp_path``, silent."""
    kwargs = {
        "cache_dir": tmp_path,
        "among": tuple(runtimes.seconds),
        "prepare": runtimes.prepare,
        "fingerprint": MACHINE,
        "timer": runtimes.clock,
        "announce": None,
    }
    return auto_choice(**(kwargs | extra))


@pytest.fixture
def measuring(monkeypatch):
    """The calibration turned on (the suite turns it off)."""
    monkeypatch.delenv(calibration.CALIBRATION_ENV, raising=False)


def test_the_fastest_agreeing_candidate_wins(tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 2.0, OV_BF16: 1.0, REFERENCE: 3.0, TORCH_INT8: 1.5})
    chosen = choose(runtimes, tmp_path)
    assert (chosen.runtime, chosen.precision, chosen.fresh) == ("openvino", "bf16", True)
    assert runtimes.prepared[0] == REFERENCE, "the reference runs first: the others are compared with it"
    assert {m["runtime"] + " " + m["precision"]: m["seconds"] for m in chosen.measurements} == {
        "openvino fp32": 2.0,
        "openvino bf16": 1.0,
        "torch fp32": 3.0,
        "torch int8": 1.5,
    }
    assert {(m["runtime"], m["precision"]) for m in chosen.measurements if m["agrees"]} == {
        ("openvino", "bf16"),
        ("torch", "fp32"),
    }, "the slower ones were never compared in full, so they do not count as agreeing"
    assert runtimes.compared_in_full() == {REFERENCE, OV_BF16}
    assert "openvino fp32 2.000 s (slower: not compared in full)" in chosen.describe()


def test_a_fast_candidate_whose_vectors_disagree_is_excluded(tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 2.0, REFERENCE: 3.0, TORCH_INT8: 0.5}, disagreeing=(TORCH_INT8,))
    chosen = choose(runtimes, tmp_path)
    assert chosen.choice == "openvino fp32"
    int8 = next(m for m in chosen.measurements if m["precision"] == "int8")
    assert not int8["agrees"] and int8["min_cosine"] < calibration.MIN_COSINE
    assert "torch int8 excluded (cosine" in chosen.describe()


def test_an_earlier_candidate_within_the_margin_is_preferred() -> None:
    found = [Measurement(OV_FP32, 1.0, 1.0), Measurement(REFERENCE, 0.97, 1.0), Measurement(TORCH_INT8, 0.5, 0.9)]
    assert pick(found) == OV_FP32
    assert pick(found, margin=0.0) == REFERENCE


def test_a_candidate_that_cannot_run_is_excluded_but_the_reference_must_run() -> None:
    runtimes = FakeRuntimes({OV_FP32: 1.0, REFERENCE: 2.0})

    def prepare(candidate):
        if candidate == OV_FP32:
            raise ConfigError("runtime openvino needs the openvino package")
        return runtimes.prepare(candidate)

    windows = calibration.demo_windows()
    found = measure([OV_FP32, REFERENCE], prepare, windows, timer=runtimes.clock)
    assert found[0].problem == "runtime openvino needs the openvino package" and not found[0].agrees
    assert pick(found) == REFERENCE

    def broken(candidate):
        raise RuntimeError("no model")

    with pytest.raises(RuntimeError, match="no model"):
        measure([OV_FP32, REFERENCE], broken, windows, timer=runtimes.clock)
    with pytest.raises(WsdError, match="needs torch fp32"):
        measure([OV_FP32], runtimes.prepare, windows, timer=runtimes.clock)


def test_the_cache_is_reused_and_keyed_by_the_machine(tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 2.0, REFERENCE: 1.0})
    first = choose(runtimes, tmp_path)
    assert first.fresh and first.path.is_file() and first.path.parent == tmp_path
    measured = len(runtimes.prepared)
    again = choose(runtimes, tmp_path)
    assert (again.choice, again.fresh, again.path) == (first.choice, False, first.path)
    assert len(runtimes.prepared) == measured, "read from the cache: nothing measured"
    other = choose(runtimes, tmp_path, fingerprint=MACHINE | {"usable_cores": 16})
    assert other.fresh and other.path != first.path, "another machine measures again"
    assert len(runtimes.prepared) == 2 * measured
    forced = choose(runtimes, tmp_path, recalibrate=True)
    assert forced.fresh and forced.path == first.path and len(runtimes.prepared) == 3 * measured


def test_measuring_loads_each_candidate_as_an_encoder_on_the_demo(tmp_path) -> None:
    made: list[dict] = []
    embedded: list[int] = []

    class FakeEncoder:
        def __init__(self, model, **settings) -> None:
            made.append(settings)

        def embed_spans(self, texts, spans) -> np.ndarray:
            assert len(texts) == len(spans)
            embedded.append(len(texts))
            return np.ones((len(texts), 4))

    lines: list[str] = []
    kwargs = {"among": (OV_FP32, REFERENCE), "cache_dir": tmp_path, "fingerprint": MACHINE, "timer": FakeClock()}
    chosen = auto_choice(make_encoder=FakeEncoder, announce=lines.append, **kwargs)
    assert [(m["runtime"], m["precision"]) for m in made] == [("torch", "fp32"), ("openvino", "fp32")]
    assert {(m["device"], m["layers"], m["context_vector"]) for m in made} == {("cpu", "sum-last-4", "20:last:0.5")}
    every = len(calibration.demo_windows())
    warmup, timed, rest = _sizes(every)
    assert (warmup, timed, rest) == (31, 64, 256), "whole batches of 32: the shortest warms up, two are timed"
    assert chosen.windows == {"source": "demo", "occurrences": every, "timed": timed, "warmup": warmup}
    tried = [warmup, *[timed] * calibration.REPEATS]
    assert embedded == [*tried, *tried, rest, rest], (
        "each candidate warmed up and timed on a few uses; the rest of the uses embedded once, only to compare"
    )
    assert chosen.choice == "openvino fp32", "a tie goes to the earlier candidate"
    assert len(lines) == 2 and lines[1].startswith("auto runtime and precision for all-MiniLM-L6-v2")
    assert auto_choice(make_encoder=FakeEncoder, announce=lines.append, **kwargs).fresh is False
    assert len(lines) == 2, "nothing said when the cache answers"


def test_the_entry_holds_the_fingerprint_and_a_checksum(tmp_path) -> None:
    chosen = choose(FakeRuntimes({OV_FP32: 2.0, REFERENCE: 1.0}), tmp_path)
    entry = json.loads(chosen.path.read_text(encoding="utf-8"))
    assert entry["fingerprint"]["cpu"] == "test CPU" and entry["fingerprint"]["model"]["name"] == "all-MiniLM-L6-v2"
    assert (entry["runtime"], entry["precision"]) == ("torch", "fp32")
    assert entry["sha256"] == calibration_cache.content_checksum(entry)
    assert [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name] == [], "written atomically"


def _tampered(entry: dict) -> dict:
    """An edit that keeps the checksum valid: a runtime the measurement excluded is made the choice."""
    entry = entry | {"runtime": "torch", "precision": "int8"}
    return entry | {"sha256": calibration_cache.content_checksum(entry)}


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda text: text[: len(text) // 2], "damaged calibration cache entry"),
        (lambda text: text.replace('"openvino"', '"torch"', 1), "does not match its checksum"),
        (lambda text: json.dumps(_tampered(json.loads(text))), "not an agreeing candidate"),
        (lambda text: "[1, 2]", "not a JSON object"),
    ],
    ids=["truncated", "edited", "tampered", "not-an-object"],
)
def test_a_damaged_or_tampered_entry_is_measured_again_with_one_warning(tmp_path, damage, problem) -> None:
    runtimes = FakeRuntimes({OV_FP32: 1.0, REFERENCE: 2.0, TORCH_INT8: 0.5}, disagreeing=(TORCH_INT8,))
    first = choose(runtimes, tmp_path)
    assert first.choice == "openvino fp32"
    first.path.write_text(damage(first.path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.warns(UserWarning, match=problem) as caught:
        rebuilt = choose(runtimes, tmp_path)
    assert len(caught) == 1
    assert rebuilt.fresh and rebuilt.choice == "openvino fp32"
    assert choose(runtimes, tmp_path).fresh is False, "the rebuilt entry is trusted again"


def test_an_entry_of_another_fingerprint_under_this_name_is_not_trusted(tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 1.0, REFERENCE: 2.0})
    first = choose(runtimes, tmp_path)
    entry = json.loads(first.path.read_text(encoding="utf-8"))
    entry["fingerprint"]["cpu"] = "another CPU"
    entry["sha256"] = calibration_cache.content_checksum(entry)
    first.path.write_text(json.dumps(entry), encoding="utf-8")
    with pytest.warns(UserWarning, match="another machine or model"):
        assert choose(runtimes, tmp_path).fresh


def test_only_auto_and_auto_on_a_cpu_is_calibrated(measuring, monkeypatch) -> None:
    assert calibration.applies("auto", "auto", "cpu") and calibration.applies(None, "auto", "cpu:0")
    assert not calibration.applies("openvino", "auto", "cpu")
    assert not calibration.applies("auto", "bf16", "cpu")
    assert not calibration.applies("auto", "auto", "cuda")
    monkeypatch.setenv(calibration.CALIBRATION_ENV, "off")
    assert not calibration.applies("auto", "auto", "cpu")


def _fake_loader(calls):
    """A ``load_encoder`` that loads nothing: what the encoder was asked to run with is recorded."""

    def load(model, device=None, precision="auto", max_length=None, offline=None, runtime=None):
        calls.append((runtime, precision))
        return SimpleNamespace(
            name="fake",
            fingerprint="f",
            revision=None,
            device=SimpleNamespace(type="cpu"),
            num_layers=6,
            hidden_size=8,
            max_length=128,
            precision=precision,
            runtime=runtime,
            quantisation=None,
        )

    return load


def test_the_encoder_runs_what_auto_measured_and_records_it(measuring, monkeypatch, tmp_path) -> None:
    from wsd.embed import encoder as encoder_module

    chosen = calibration.Calibration("torch", "fp32", "fake", tmp_path / "x.json", "2026-01-01T00:00:00Z", ())
    asked = []
    monkeypatch.setattr(calibration, "auto_choice", lambda model, **kwargs: asked.append(model) or chosen)
    loads: list = []
    monkeypatch.setattr(encoder_module, "load_encoder", _fake_loader(loads))
    encoder = encoder_module.Encoder(device="cpu")
    assert loads == [("torch", "fp32")] and encoder.calibration is chosen
    identity = encoder.identity()
    assert "calibrated" not in identity.run_config() and "calibrated" not in identity.embedding_meta(), (
        "how the runtime was chosen is no part of the vectors' identity: a resumed run compares what it computes with"
    )
    assert encoder.with_options(layers="last").calibration is chosen


@pytest.mark.parametrize(
    "explicit", [{"precision": "fp32"}, {"runtime": "openvino"}, {"runtime": "torch", "precision": "int8"}]
)
def test_an_explicit_runtime_or_precision_wins_over_the_calibration(measuring, monkeypatch, explicit) -> None:
    from wsd.embed import encoder as encoder_module

    def never(*args, **kwargs):
        raise AssertionError("calibrated despite an explicit choice")

    monkeypatch.setattr(calibration, "auto_choice", never)
    loads: list = []
    monkeypatch.setattr(encoder_module, "load_encoder", _fake_loader(loads))
    encoder = encoder_module.Encoder(device="cpu", **explicit)
    assert loads == [(explicit.get("runtime"), explicit.get("precision", "auto"))]
    assert encoder.calibration is None and "calibrated" not in encoder.identity().run_config()


def test_recalibrate_measures_again_and_refuses_an_explicit_choice(measuring, tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 1.0, REFERENCE: 2.0})
    kwargs = {
        "among": tuple(runtimes.seconds),
        "prepare": runtimes.prepare,
        "fingerprint": MACHINE,
        "timer": runtimes.clock,
        "announce": None,
    }
    first = calibration.recalibrate(EmbeddingOptions(), cache_dir=tmp_path, **kwargs)
    again = calibration.recalibrate(EmbeddingOptions(), cache_dir=tmp_path, **kwargs)
    assert first.fresh and again.fresh and again.path == first.path
    for explicit in ({"precision": "fp32"}, {"runtime": "torch"}, {"device": "cuda"}):
        with pytest.raises(ConfigError, match="cannot be combined with"):
            calibration.recalibrate(EmbeddingOptions(**explicit), cache_dir=tmp_path, **kwargs)


@pytest.mark.parametrize(
    ("flags", "named"),
    [(["--precision", "fp32"], "--precision fp32"), (["--runtime", "torch"], "--runtime torch")],
)
def test_the_cli_refuses_recalibrate_with_an_explicit_choice(measuring, tmp_path, capsys, flags, named) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    out = tmp_path / "run"
    argv = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(out), "--recalibrate", *flags]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("wsd embed: error: --recalibrate") and named in err
    assert not out.exists()


def test_the_cli_refuses_recalibrate_where_calibration_is_off(tmp_path, capsys) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    argv = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(tmp_path / "run"), "--recalibrate"]
    assert main(argv) == 2
    assert "the calibration is turned off" in capsys.readouterr().err


def test_config_show_names_what_auto_chose_here(measuring, monkeypatch, tmp_path, capsys) -> None:
    from wsd import machine

    monkeypatch.setenv(calibration_cache.CACHE_ENV, str(tmp_path))
    assert main(["config", "show", "--command", "embed"]) == 0
    assert "auto runtime and precision on this machine: not measured yet" in capsys.readouterr().out
    runtimes = FakeRuntimes({OV_FP32: 1.0, REFERENCE: 2.0})
    choose(runtimes, tmp_path, fingerprint=machine.fingerprint())
    assert main(["config", "show", "--command", "embed"]) == 0
    shown = capsys.readouterr().out
    assert "for all-MiniLM-L6-v2: openvino fp32 (measured" in shown and "--recalibrate" in shown
    assert main(["config", "show", "--command", "cluster"]) == 0
    assert "auto runtime" not in capsys.readouterr().out, "only where there is an [embedding] section"


def test_the_fingerprint_names_what_decides_the_speed(monkeypatch) -> None:
    from wsd import machine

    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    found = machine.fingerprint()
    assert {"cpu", "cpu_flags", "native_bf16", "usable_cores", "torch", "openvino"} <= set(found)
    assert found["omp_num_threads"] == "3" and found["torch"] == machine.library_version("torch")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert machine.fingerprint() != found, "another thread count measures again"


def test_an_entry_of_an_older_format_is_measured_again_without_a_warning(tmp_path, monkeypatch) -> None:
    runtimes = FakeRuntimes({OV_FP32: 1.0, REFERENCE: 2.0})
    with monkeypatch.context() as patch:
        patch.setattr(calibration, "FORMAT", 1)
        patch.setattr(calibration_cache, "FORMAT", 1)
        old = choose(runtimes, tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = choose(runtimes, tmp_path)
    assert new.fresh and new.path != old.path, "the format is part of the key: an older entry is never read"
    assert json.loads(new.path.read_text(encoding="utf-8"))["format"] == calibration_cache.FORMAT == 2


# ------------------------------------------- only the candidates that could be chosen are compared in full
TORCH_BF16 = Candidate("torch", "bf16")


def _counting(calls: list) -> calibration.Agreement:
    """An agreement that always agrees and records each summary it makes."""
    return calibration.Agreement("same k", "k", lambda vectors, windows: calls.append(len(vectors)) or {"w": 1})


def test_where_the_reference_is_fastest_nothing_is_compared_in_full(tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 2.0, OV_BF16: 1.5, REFERENCE: 1.0})
    summaries: list = []
    chosen = choose(runtimes, tmp_path, agreement=_counting(summaries))
    assert chosen.choice == "torch fp32" and chosen.checks == ("cosine", "same k")
    assert runtimes.compared_in_full() == set() and summaries == [], "no rest of the uses embedded, no k found"
    assert "openvino fp32 2.000 s (slower: not compared in full)" in chosen.describe()
    assert {c for c, n in runtimes.embedded} == {OV_FP32, OV_BF16, REFERENCE}, "all were timed"


def test_an_earlier_candidate_within_the_margin_of_the_fastest_is_compared_too(tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 1.03, OV_BF16: 1.0, REFERENCE: 2.0})
    summaries: list = []
    chosen = choose(runtimes, tmp_path, agreement=_counting(summaries))
    assert chosen.choice == "openvino fp32"
    assert runtimes.compared_in_full() == {REFERENCE, OV_BF16, OV_FP32}
    every = len(calibration.demo_windows())
    assert summaries == [every] * 3, "the reference's number of senses found once, each compared candidate's once"


def test_a_candidate_that_fails_on_the_rest_of_the_uses_is_excluded(tmp_path) -> None:
    runtimes = FakeRuntimes({OV_FP32: 1.0, OV_BF16: 0.5, REFERENCE: 2.0})
    rest = _sizes(len(calibration.demo_windows()))[2]

    def prepare(candidate):
        run = runtimes.prepare(candidate)

        def failing(windows):
            if candidate == OV_BF16 and len(windows) == rest:
                raise RuntimeError("out of memory\nmore")
            return run(windows)

        return failing

    chosen = choose(runtimes, tmp_path, prepare=prepare)
    assert chosen.choice == "openvino fp32"
    assert "openvino bf16 excluded (out of memory)" in chosen.describe()


def test_the_reference_must_give_finite_vectors() -> None:
    def prepare(candidate):
        return lambda windows: np.full((len(windows), 4), np.nan)

    with pytest.raises(
        WsdError, match="torch fp32, the reference of the calibration, gave vectors that are not finite"
    ):
        measure([REFERENCE], prepare, calibration.demo_windows(), timer=FakeClock())


@pytest.mark.parametrize("seed", range(30))
def test_comparing_only_the_contenders_chooses_what_comparing_all_would(seed) -> None:
    rng = np.random.default_rng(seed)
    among = (OV_FP32, OV_BF16, REFERENCE, TORCH_BF16)
    runtimes = FakeRuntimes({c: float(rng.choice([1.0, 1.03, 1.5, 2.0])) for c in among})
    base = runtimes.vectors[REFERENCE]
    _, timed, rest = calibration.split_rows(calibration.window_lengths(lambda w: None, calibration.demo_windows()))
    flaws = {REFERENCE: "none"}
    for candidate in (OV_FP32, OV_BF16, TORCH_BF16):
        flaws[candidate] = str(rng.choice(["none", "cosine on the timed uses", "cosine on the rest", "k"]))
        vectors = base + rng.normal(0, 1e-3, base.shape)
        if flaws[candidate] == "cosine on the timed uses":
            vectors[timed] += rng.normal(0, 1.0, (len(timed), base.shape[1]))
        elif flaws[candidate] == "cosine on the rest":
            vectors[rest] += rng.normal(0, 1.0, (len(rest), base.shape[1]))
        elif flaws[candidate] == "k":
            vectors[rest, -1] += 0.1  # the cosine holds (0.99 or more), the summary moves
        runtimes.vectors[candidate] = vectors
    moved = calibration.Agreement("same k", "k", lambda v, w: {"w": bool(np.abs(v[:, -1] - base[:, -1]).max() > 0.05)})
    found = measure(among, runtimes.prepare, calibration.demo_windows(), timer=runtimes.clock, agreement=moved)
    agreeing = [Measurement(c, runtimes.seconds[c], 1.0) for c in among if flaws[c] == "none"]
    assert pick(found) == pick(agreeing), flaws
    could_win = {c for c in among if runtimes.seconds[c] <= runtimes.seconds[REFERENCE] * 1.05}
    assert runtimes.compared_in_full() <= could_win
    assert not any(flaws[c] == "cosine on the timed uses" for c in runtimes.compared_in_full())
    assert {m.candidate for m in found if m.agrees} <= {c for c in among if flaws[c] == "none"}


def test_the_windows_are_split_in_whole_batches_of_the_encoders_length_order() -> None:
    lengths = np.random.default_rng(0).integers(5, 90, size=351)
    warm, timed, rest = calibration.split_rows(lengths, batch=32, timed=64, warmup=32)
    assert sorted([*warm, *timed, *rest]) == list(range(351))
    assert (len(warm), len(timed), len(rest)) == (31, 64, 256)

    def batches(rows):  # in the encoder's length order: longest first, ties in order, 32 a batch
        ordered = rows[np.argsort(-lengths[rows], kind="stable")]
        return [frozenset(ordered[i : i + 32].tolist()) for i in range(0, len(ordered), 32)]

    whole = batches(np.arange(351))
    assert set(batches(warm) + batches(timed) + batches(rest)) == set(whole), "no batch of a part pads more"
    for part in (warm, timed, rest):  # the encoder's own cuts of a part (issue 42) pad no more than whole batches
        ordered = lengths[part][np.argsort(-lengths[part], kind="stable")]
        cuts = np.cumsum([0, *batch_sizes(ordered, 32)])
        padded = sum((end - begin) * ordered[begin] for begin, end in itertools.pairwise(cuts))
        assert padded <= sum(len(b) * lengths[list(b)].max() for b in batches(part))
    assert lengths[warm].max() <= lengths[timed].min(), "the shortest batch warms up"
    assert lengths[timed].max() < lengths.max(), "the timed batches are neither the longest nor the shortest"
    assert [len(part) for part in calibration.split_rows(lengths[:20])] == [0, 20, 0], "one batch: timed, no warm-up"


def test_an_encoders_run_tells_each_windows_length_in_its_tokens() -> None:
    class Backend:
        def encode_batch(self, texts, add_special_tokens=True):
            assert add_special_tokens is False
            return [SimpleNamespace(ids=text.split()) for text in texts]

    encoder = SimpleNamespace(batch_size=8, loaded=SimpleNamespace(backend=Backend()))
    windows = calibration.Windows(("a b c", "a"), np.array([[0, 1], [0, 1]]), ("a", "a"))
    run = calibration.EncoderRun(encoder)
    assert run.batch_size == 8 and calibration.window_lengths(run, windows).tolist() == [3, 1]
    assert calibration.window_lengths(lambda w: None, windows).tolist() == [5, 1], "else their characters"


# ------------------------------------------------- the same k on the demo words (the check of the corpus jobs)
def _two_words(uses: int = 20) -> calibration.Windows:
    """Windows of two words, ``uses`` each."""
    texts = tuple(f"the bank {i}" for i in range(uses)) + tuple(f"the bat {i}" for i in range(uses))
    spans = np.array([[4, 8]] * uses + [[4, 7]] * uses)
    return calibration.Windows(texts, spans, ("bank",) * uses + ("bat",) * uses)


def _senses(windows: calibration.Windows, k: dict[str, int], seed: int = 0) -> np.ndarray:
    """Vectors with ``k[word]`` tight groups for each word, on top of one large shared direction: the groups are
    clear to the clustering, yet every row's cosine with the same row of other groups stays above 0.99."""
    rng = np.random.default_rng(seed)
    targets = np.asarray(windows.targets)
    vectors = np.full((len(windows), 16), 10.0)
    for word, groups in k.items():
        rows = np.flatnonzero(targets == word)
        vectors[rows, np.arange(len(rows)) % groups] += 1.0
    return vectors + rng.normal(0, 0.01, vectors.shape)


def test_a_candidate_that_agrees_on_cosine_but_changes_k_is_excluded(tmp_path) -> None:
    from wsd.workflows.calibration import SAME_SENSES

    windows = _two_words()
    runtimes = FakeRuntimes({OV_FP32: 1.0, OV_BF16: 0.5, REFERENCE: 2.0}, windows=windows)
    reference = _senses(windows, {"bank": 2, "bat": 2})
    runtimes.vectors = {
        REFERENCE: reference,
        OV_FP32: _senses(windows, {"bank": 2, "bat": 2}, seed=1),
        OV_BF16: _senses(windows, {"bank": 2, "bat": 3}, seed=2),  # fastest, cosine fine, another k for bat
    }
    plain = choose(runtimes, tmp_path / "cosine-only", windows=windows)
    assert plain.choice == "openvino bf16" and plain.checks == ("cosine",), "the cosine alone lets it through"
    chosen = choose(runtimes, tmp_path, windows=windows, agreement=SAME_SENSES)
    assert chosen.choice == "openvino fp32" and chosen.checks == ("cosine", "same k")
    bf16 = next(m for m in chosen.measurements if m["precision"] == "bf16")
    assert bf16["min_cosine"] >= calibration.MIN_COSINE and not bf16["agrees"]
    assert bf16["disagreement"] == "another k: bat 3, fp32 2"
    assert "openvino bf16 excluded (another k: bat 3, fp32 2)" in chosen.describe()
    fp32 = next(m for m in chosen.measurements if m["runtime"] == "openvino" and m["precision"] == "fp32")
    assert fp32["agrees"] and fp32["checked"], "the fastest failed in full, so the next fastest was compared"


def test_an_entry_measured_without_the_k_check_is_measured_again_when_it_is_asked_for(tmp_path) -> None:
    from wsd.workflows.calibration import SAME_SENSES

    windows = _two_words()
    runtimes = FakeRuntimes({OV_BF16: 0.5, REFERENCE: 2.0}, windows=windows)
    runtimes.vectors = {
        REFERENCE: _senses(windows, {"bank": 2, "bat": 2}),
        OV_BF16: _senses(windows, {"bank": 3, "bat": 2}, seed=1),
    }
    assert choose(runtimes, tmp_path, windows=windows).choice == "openvino bf16"  # wsd.Encoder alone: cosine
    measured = len(runtimes.prepared)
    checked = choose(runtimes, tmp_path, windows=windows, agreement=SAME_SENSES)
    assert checked.fresh and checked.choice == "torch fp32" and len(runtimes.prepared) == 2 * measured
    again = choose(runtimes, tmp_path, windows=windows, agreement=SAME_SENSES)
    assert not again.fresh and again.choice == "torch fp32" and len(runtimes.prepared) == 2 * measured
    assert choose(runtimes, tmp_path, windows=windows).checks == ("cosine", "same k"), "more checks serve everyone"


def test_the_demo_windows_hold_every_use_of_each_demo_word() -> None:
    windows = calibration.demo_windows()
    counts = {word: windows.targets.count(word) for word in dict.fromkeys(windows.targets)}
    assert min(counts.values()) >= 8 and counts["mouse"] > 40, "enough uses for a word's number of senses"
    assert windows.forms[:1] == ("mouse",) and len(windows.evenly(calibration.TIMED_OCCURRENCES)) == 64


# ----------------------------------------------- a resumed run keeps its recorded runtime and precision (item 5)
def _winner(runtime: str, precision: str, tmp_path) -> calibration.Calibration:
    return calibration.Calibration(
        runtime, precision, "all-MiniLM-L6-v2", tmp_path / "entry.json", "2026-01-01T00:00:00Z", (),
        checks=("cosine", "same k"),
    )  # fmt: skip


@pytest.fixture
def embed_job(measuring, monkeypatch, tmp_path):
    """``wsd embed`` of a two-line corpus, ``auto`` choosing what ``winners[-1]`` says (nothing timed)."""
    from wsd.workflows.calibration import SAME_SENSES

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The mouse ran.\nA mouse hid behind the flour.\n", encoding="utf-8")
    job = SimpleNamespace(out=tmp_path / "run", winners=[], asked=[])
    job.argv = ["embed", "--corpus", str(corpus), "--targets", "mouse", "--out", str(job.out), "--no-progress"]

    def auto_choice(model, **kwargs):
        assert kwargs["agreement"] is SAME_SENSES, "the corpus jobs check the number of senses"
        job.asked.append(job.winners[-1].choice)
        return job.winners[-1]

    monkeypatch.setattr(calibration, "auto_choice", auto_choice)
    return job


def _interrupted(monkeypatch, argv) -> None:
    """Run ``argv`` and interrupt it before the run is finished (its shards done, the run not complete)."""
    from wsd.io.run_store import RunStore

    def stop(self, *args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(RunStore, "finish", stop)
        assert main(argv) != 0  # "interrupted; run the same command again to resume"


def test_a_resumed_run_keeps_its_runtime_and_precision_after_a_new_measurement(embed_job, monkeypatch, capsys):
    from wsd.io.run_reader import read_meta

    embed_job.winners.append(_winner("torch", "fp32", embed_job.out.parent))
    _interrupted(monkeypatch, embed_job.argv)
    assert read_meta(embed_job.out)["calibration"]["checks"] == ["cosine", "same k"]
    embed_job.winners.append(_winner("torch", "bf16", embed_job.out.parent))  # the cache now says otherwise
    capsys.readouterr()
    assert read_meta(embed_job.out)["status"] != "complete"
    assert main(embed_job.argv) == 0, "resumed, not refused as another configuration"
    assert embed_job.asked == ["torch fp32"], "a resumed run is not measured again: it keeps what it recorded"
    meta = read_meta(embed_job.out)
    assert meta["status"] == "complete" and meta["embedding"]["precision"] == "fp32"
    assert "calibrated" not in meta["config"]["embed"], "how auto chose is no part of the configuration"
    assert meta["calibration"] == _winner("torch", "fp32", embed_job.out.parent).record()
    assert "torch fp32 (measured: auto)" in capsys.readouterr().out
    assert main([*embed_job.argv, "--overwrite"]) == 0
    assert embed_job.asked == ["torch fp32", "torch bf16"], "replacing the run measures (reads) anew"
    assert read_meta(embed_job.out)["embedding"]["precision"] == "bf16"


def test_a_resumed_run_this_machine_cannot_compute_alike_is_refused_in_one_line(embed_job, monkeypatch, capsys):
    embed_job.winners.append(_winner("torch", "bf16", embed_job.out.parent))
    _interrupted(monkeypatch, embed_job.argv)
    monkeypatch.setattr(calibration, "candidates", lambda **kwargs: (REFERENCE,))  # bf16 is not computed alike here
    capsys.readouterr()
    assert main(embed_job.argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "was embedded with torch bf16, which this machine does not compute alike" in err
    assert "--runtime torch --precision bf16" in err and "--overwrite" in err
    assert embed_job.asked == ["torch bf16"]


@pytest.mark.parametrize(
    ("flags", "named"),
    [(["--precision", "fp32"], "--precision fp32"), (["--runtime", "openvino"], "--runtime openvino")],
)
def test_wsd_run_refuses_recalibrate_with_an_explicit_choice(measuring, tmp_path, capsys, flags, named) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = ["run", "--corpus", str(corpus), "--targets", "mouse", "--out", str(out), "--recalibrate", *flags]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("wsd run: error: --recalibrate") and named in err
    assert not out.exists()


def test_wsd_run_refuses_recalibrate_where_calibration_is_off(tmp_path, capsys) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    argv = ["run", "--corpus", str(corpus), "--targets", "mouse", "--out", str(tmp_path / "out"), "--recalibrate"]
    assert main(argv) == 2
    assert "the calibration is turned off" in capsys.readouterr().err


def test_wsd_run_recalibrate_measures_with_the_k_check(measuring, monkeypatch, tmp_path) -> None:
    from wsd.workflows import calibration as job_calibration
    from wsd.workflows.calibration import SAME_SENSES

    asked: list = []

    def recalibrate(options, make_encoder, **measuring):
        asked.append((options.runtime, options.precision, measuring))
        raise ConfigError("measured")  # stop before the job

    monkeypatch.setattr(job_calibration.calibration, "recalibrate", recalibrate)
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The mouse ran.\n", encoding="utf-8")
    argv = ["run", "--corpus", str(corpus), "--targets", "mouse", "--out", str(tmp_path / "out"), "--recalibrate"]
    assert main(argv) == 2
    assert asked == [("auto", "auto", {"agreement": SAME_SENSES})]


# --------------------------------------------- wsd.load / wsd predict: the run's encoder as it was (item 4)
def test_the_encoder_of_a_run_is_rebuilt_with_its_runtime_and_precision_never_measured(measuring, monkeypatch):
    from wsd.embed import encoder as encoder_module
    from wsd.workflows.naming import encoder_from_meta

    def never(*args, **kwargs):
        raise AssertionError("measured again")

    monkeypatch.setattr(calibration, "auto_choice", never)
    loads: list = []
    monkeypatch.setattr(encoder_module, "load_encoder", _fake_loader(loads))
    embedding = {"model": "all-MiniLM-L6-v2", "layers": "sum-last-4", "pooling": "mean", "precision": "fp32"}
    encoder_from_meta(embedding | {"runtime": "openvino"}, device="cpu")
    encoder_from_meta(embedding, batch_size=8)  # a run of PyTorch records no runtime
    encoder_from_meta(embedding | {"precision": "bf16"}, precision="fp32")  # a precision given wins
    assert loads == [("openvino", "fp32"), ("torch", "fp32"), ("torch", "fp32")]
