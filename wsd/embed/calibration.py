"""How ``auto`` chooses the runtime and precision on a CPU: by measuring them, once per model and machine.

With ``runtime="auto"`` and ``precision="auto"`` on a CPU (the defaults), the first :class:`wsd.Encoder` of a
model on a machine times every candidate (:func:`candidates`: OpenVINO fp32, OpenVINO bf16 and PyTorch bf16 where
the CPU computes bf16, PyTorch fp32; OpenVINO int8 is asked for by name only, :data:`OPENVINO_INT8_EXCLUDED`) on
the same real windows, the bundled demo's
labelled occurrences (:func:`demo_windows`), and keeps the fastest candidate whose vectors agree with PyTorch
fp32's (:data:`MIN_COSINE` or more for every occurrence; :func:`measure`, :func:`pick`). The answer is cached,
with the machine's fingerprint and the model's identity, in ``$WSD_CALIBRATION_CACHE`` (by default
``~/.cache/wsd/calibration``; :mod:`wsd.embed.calibration_cache`), so every later encoder of that model on that
machine reads it instead of measuring. A cache entry that is damaged or edited (its checksum, fingerprint or answer do
not hold) is measured again, with one warning; it is never trusted.

A layer above may add a check of its own (an :class:`Agreement`): the corpus jobs
(:mod:`wsd.workflows.calibration`) also require the same number of senses on every demo word, by clustering the
candidate's vectors and the reference's with the default recipe (``wsd.embed`` does not import the senses stage, so
the check is given to :func:`auto_choice`, not made here). A cache entry names the checks it passed; one that lacks a
check asked for is measured again.

What is not measured: start-up (importing a runtime, loading and compiling the model).

An explicit ``runtime`` or ``precision`` is used as given and never calibrated; ``$WSD_CALIBRATION=off`` makes
``auto`` follow the fixed rule it followed before (OpenVINO, bf16 where the CPU has native bf16, else fp32),
which the test suite sets so that its results do not depend on timing.

>>> pick([Measurement(Candidate("torch", "fp32"), 2.0, 1.0), Measurement(Candidate("openvino", "fp32"), 1.0, 1.0)])
Candidate(runtime='openvino', precision='fp32')
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import os
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from wsd import machine
from wsd.embed.calibration_cache import (
    FORMAT,
    default_cache_dir,
    entry_path,
    model_identity,
    one_at_a_time,
    read_entry,
    write_entry,
)
from wsd.errors import ConfigError, WsdError
from wsd.io.layout import CALIBRATION_LOCK
from wsd.schema import DEFAULT_CONTEXT_VECTOR, DEFAULT_LAYERS, is_off

if TYPE_CHECKING:
    from wsd.options import EmbeddingOptions

#: The environment variable that turns the calibration off (``off``, ``no``, ``none``): ``auto`` then follows the
#: fixed rule (the test suite sets it).
CALIBRATION_ENV = "WSD_CALIBRATION"
#: The least cosine, for every occurrence, between a candidate's vectors and PyTorch fp32's: below it the
#: candidate is excluded whatever its speed.
MIN_COSINE = 0.99
#: A candidate must be this much faster (a fraction of the time) than one listed before it in :func:`candidates`
#: to be chosen over it: timings move by a few percent from run to run, and the earlier candidates start faster
#: (OpenVINO imports neither PyTorch nor ``transformers``) and round less. A choice, not a measurement.
PREFERENCE_MARGIN = 0.05
#: Timed runs of each candidate over the windows (after one untimed run, whose vectors are compared); the
#: fastest counts.
REPEATS = 2
#: Occurrences of the bundled demo that are timed, taken evenly from its labelled ones: two batches of 32 (the CPU
#: batch size), few enough that the calibration stays short. The vectors compared are those of every labelled
#: occurrence (:func:`demo_windows`, one untimed run), so that each demo word has the uses its number of senses
#: is found from.
TIMED_OCCURRENCES = 64
#: The check every measurement makes (:data:`MIN_COSINE` per occurrence), as a cache entry names it.
COSINE_CHECK = "cosine"
#: The demo's labelled occurrences (``id target text start end sense``), beside this room.
DEMO_LABELLED = Path(__file__).resolve().parents[1] / "demo_data" / "labelled.tsv"
#: What errors exclude a candidate instead of stopping the calibration (a runtime that cannot load or compile the
#: model here, a precision the CPU refuses).
CANDIDATE_ERRORS: tuple[type[BaseException], ...] = (WsdError, RuntimeError, OSError, ValueError, ImportError)


@dataclass(frozen=True)
class Candidate:
    """A runtime and a precision that ``auto`` may choose.

    Parameters
    ----------
    runtime : str
        ``openvino`` or ``torch``.
    precision : str
        ``fp32``, ``bf16`` or ``int8``.

    Examples
    --------
    >>> Candidate("openvino", "bf16").name
    'openvino bf16'
    """

    runtime: str
    precision: str

    @property
    def name(self) -> str:
        """``"<runtime> <precision>"``.

        Returns
        -------
        str
        """
        return f"{self.runtime} {self.precision}"


#: The candidate every other one is compared with: the plain PyTorch forward pass in fp32.
REFERENCE = Candidate("torch", "fp32")
#: int8 with OpenVINO (the model quantised with NNCF, :mod:`wsd.embed.ov_int8`): asked for by name only.
OPENVINO_INT8 = Candidate("openvino", "int8")
#: Why :data:`OPENVINO_INT8` is no candidate of ``auto`` (None would make it one, listed last). Issue 42's gate:
#: SemEval-2013 and SemEval-2010 AVG within 0.3 points of fp32 and DWUG EN rho within 0.01. Measured in
#: experiments/results/int8_quality/int8_quality.md (python -m experiments.int8_quality): its vectors stay close
#: (cosine >= 0.98 per occurrence) but the number of senses flips on near-ties and the scores move beyond the gate,
#: and so they do with the six matrix products after the GELU left in float.
OPENVINO_INT8_EXCLUDED: str | None = (
    "SemEval-2010 AVG moved by +0.62 points and DWUG EN rho by +0.014 against fp32, beyond issue 42's gate "
    "(0.3 and 0.01; experiments/results/int8_quality/int8_quality.md)"
)


@dataclass(frozen=True, eq=False)  # an array field: compared by identity
class Windows:
    """The occurrences a calibration embeds: texts, each occurrence's character span, and its target word.

    Parameters
    ----------
    texts : tuple of str
        The text of each occurrence.
    spans : ndarray of shape (n, 2)
        The character span of each occurrence in its text.
    targets : tuple of str
        The target word of each occurrence (what an :class:`Agreement` groups the rows by).

    Examples
    --------
    >>> windows = Windows(("A bank.", "The bat flew."), np.array([[2, 6], [4, 7]]), ("bank", "bat"))
    >>> len(windows), windows.forms
    (2, ('bank', 'bat'))
    """

    texts: tuple[str, ...]
    spans: np.ndarray
    targets: tuple[str, ...]

    def __len__(self) -> int:
        """The number of occurrences.

        Returns
        -------
        int
        """
        return len(self.texts)

    @property
    def forms(self) -> tuple[str, ...]:
        """Each occurrence's surface form (its span of its text).

        Returns
        -------
        tuple of str
        """
        return tuple(text[start:end] for text, (start, end) in zip(self.texts, self.spans.tolist(), strict=True))

    def evenly(self, limit: int) -> Windows:
        """At most ``limit`` of the occurrences, taken evenly (the first and the last among them).

        Parameters
        ----------
        limit : int
            The most occurrences kept.

        Returns
        -------
        Windows

        Examples
        --------
        >>> len(demo_windows().evenly(8))
        8
        """
        if len(self) <= limit:
            return self
        rows = np.unique(np.linspace(0, len(self) - 1, limit).astype(np.int64))
        return Windows(tuple(self.texts[i] for i in rows), self.spans[rows], tuple(self.targets[i] for i in rows))


@dataclass(frozen=True)
class Agreement:
    """A check, besides the cosine, that a candidate's vectors must pass to be chosen (given by a layer above).

    The check summarises the vectors of the windows, a value per word (the number of senses of each demo word), and
    a candidate agrees where its summary is :data:`REFERENCE`'s; the reference is summarised once.

    Parameters
    ----------
    name : str
        What a cache entry records of it (in ``checks``): an entry measured without it is measured again.
    quantity : str
        What the summary counts, as a disagreement names it (``k``).
    summarize : callable
        ``summarize(vectors, windows)``: a value per word of :class:`Windows` from their vectors.

    Examples
    --------
    >>> windows = Windows(("A bank.", "The bat."), np.array([[2, 6], [4, 7]]), ("bank", "bat"))
    >>> rows = Agreement("same rows", "rows", lambda vectors, windows: {"bank": len(vectors)})
    >>> rows.disagreement(rows.summarize(np.ones((3, 2)), windows), {"bank": 2})
    'another rows: bank 3, fp32 2'
    """

    name: str
    quantity: str
    summarize: Callable[[np.ndarray, Windows], Mapping[str, Any]]

    def disagreement(self, found: Mapping[str, Any], expected: Mapping[str, Any]) -> str | None:
        """How a candidate's summary differs from the reference's (one phrase), or None where it does not.

        Parameters
        ----------
        found : mapping
            The candidate's summary.
        expected : mapping
            :data:`REFERENCE`'s.

        Returns
        -------
        str or None
            ``another k: cell 3, fp32 2; bat 2, fp32 3`` (the words whose value differs, in ``found``'s order).
        """
        moved = [f"{word} {value}, {REFERENCE.precision} {expected.get(word)}" for word, value in found.items()
                 if value != expected.get(word)]  # fmt: skip
        return f"another {self.quantity}: {'; '.join(moved)}" if moved else None


def candidates(
    *, openvino: bool | None = None, openvino_bf16: bool | None = None, torch_bf16: bool | None = None
) -> tuple[Candidate, ...]:
    """The runtimes and precisions ``auto`` chooses among on this CPU, the preferred first.

    Parameters
    ----------
    openvino : bool, optional
        Whether OpenVINO is installed (None: :func:`wsd.embed.ov_runtime.openvino_installed`).
    openvino_bf16 : bool, optional
        Whether OpenVINO computes bf16 here (None: the CPU has native bf16, :func:`wsd.machine.native_bf16_flags`).
    torch_bf16 : bool, optional
        Whether PyTorch computes bf16 here (None: :func:`wsd.machine.fast_bf16`).

    Returns
    -------
    tuple of Candidate
        OpenVINO fp32, OpenVINO bf16, PyTorch fp32, PyTorch bf16, those that can run here; :data:`REFERENCE` is
        always one. OpenVINO int8 is none of them (:data:`OPENVINO_INT8_EXCLUDED`).

    Examples
    --------
    >>> [c.name for c in candidates(openvino=True, openvino_bf16=False, torch_bf16=False)]
    ['openvino fp32', 'torch fp32']
    """
    if openvino is None:
        from wsd.embed.ov_runtime import openvino_installed

        openvino = openvino_installed()
    if openvino_bf16 is None:
        openvino_bf16 = bool(machine.native_bf16_flags())
    if torch_bf16 is None:
        torch_bf16 = machine.fast_bf16()
    possible = {
        Candidate("openvino", "fp32"): openvino,
        Candidate("openvino", "bf16"): openvino and openvino_bf16,
        REFERENCE: True,
        Candidate("torch", "bf16"): torch_bf16,
        OPENVINO_INT8: openvino and OPENVINO_INT8_EXCLUDED is None and _nncf_installed(),
    }
    return tuple(candidate for candidate, runs in possible.items() if runs)


def _nncf_installed() -> bool:
    from wsd.embed.ov_runtime import nncf_installed

    return nncf_installed()


def runnable(*, openvino: bool | None = None, torch_bf16: bool | None = None) -> tuple[Candidate, ...]:
    """The runtimes and precisions a run embedded on this CPU may be resumed with: :func:`candidates`, and those
    given by name only (OpenVINO int8, where NNCF is installed).

    Parameters
    ----------
    openvino : bool, optional
        Whether OpenVINO is installed (None: :func:`wsd.embed.ov_runtime.openvino_installed`).
    torch_bf16 : bool, optional
        As :func:`candidates` takes it.

    Returns
    -------
    tuple of Candidate

    Examples
    --------
    >>> Candidate("openvino", "int8") in runnable(openvino=True)  # doctest: +SKIP
    True
    """
    if openvino is None:
        from wsd.embed.ov_runtime import openvino_installed

        openvino = openvino_installed()
    found = candidates(openvino=openvino, torch_bf16=torch_bf16)
    return found + ((OPENVINO_INT8,) if openvino and _nncf_installed() and OPENVINO_INT8 not in found else ())


@dataclass(frozen=True)
class Measurement:
    """What the calibration found of one candidate.

    Parameters
    ----------
    candidate : Candidate
        The runtime and precision.
    seconds : float or None
        The fastest of the timed runs over the windows (None when it could not run).
    min_cosine : float or None
        The least cosine, over the occurrences, between its vectors and :data:`REFERENCE`'s.
    problem : str or None
        Why it could not run (one line), None when it ran.
    disagreement : str or None
        Why its vectors fail an :class:`Agreement` (one phrase), None where they pass or none was asked for.

    Examples
    --------
    >>> Measurement(Candidate("torch", "bf16"), 0.5, 0.97).agrees
    False
    """

    candidate: Candidate
    seconds: float | None
    min_cosine: float | None
    problem: str | None = None
    disagreement: str | None = None

    @property
    def agrees(self) -> bool:
        """Whether it ran and its vectors agree with the reference (cosine ≥ :data:`MIN_COSINE` everywhere, and
        every :class:`Agreement` asked for).

        Returns
        -------
        bool
        """
        cosine_holds = self.min_cosine is not None and self.min_cosine >= MIN_COSINE
        return self.problem is None and cosine_holds and self.disagreement is None

    def to_dict(self) -> dict[str, Any]:
        """The measurement as JSON-ready data (what a cache entry lists).

        Returns
        -------
        dict
            ``runtime``, ``precision``, ``seconds``, ``min_cosine``, ``agrees``, ``problem``, ``disagreement``.
        """
        return asdict(self.candidate) | {
            "seconds": self.seconds,
            "min_cosine": self.min_cosine,
            "agrees": self.agrees,
            "problem": self.problem,
            "disagreement": self.disagreement,
        }

    @classmethod
    def from_dict(cls, found: Mapping[str, Any]) -> Measurement:
        """The measurement :meth:`to_dict` wrote (a cache entry's ``candidates``).

        Parameters
        ----------
        found : mapping
            As :meth:`to_dict` returns it.

        Returns
        -------
        Measurement

        Examples
        --------
        >>> bf16 = Measurement(Candidate("torch", "bf16"), 0.5, 0.999, disagreement="another k")
        >>> Measurement.from_dict(bf16.to_dict()) == bf16
        True
        """
        candidate = Candidate(str(found["runtime"]), str(found["precision"]))
        return cls(candidate, found["seconds"], found["min_cosine"], found["problem"], found.get("disagreement"))

    def describe(self) -> str:
        """One phrase: the candidate and its time, or why it is excluded.

        Returns
        -------
        str

        Examples
        --------
        >>> Measurement(Candidate("openvino", "bf16"), 0.5, 0.97).describe()
        'openvino bf16 excluded (cosine 0.970 < 0.99)'
        >>> Measurement(Candidate("torch", "bf16"), 0.5, 0.999, disagreement="k of cell 3, fp32 2").describe()
        'torch bf16 excluded (k of cell 3, fp32 2)'
        """
        if self.problem is not None:
            return f"{self.candidate.name} excluded ({self.problem})"
        if self.min_cosine is None or self.min_cosine < MIN_COSINE:
            return f"{self.candidate.name} excluded (cosine {self.min_cosine:.3f} < {MIN_COSINE})"
        if self.disagreement is not None:
            return f"{self.candidate.name} excluded ({self.disagreement})"
        return f"{self.candidate.name} {self.seconds:.3f} s"


#: Makes one candidate ready (loads the model with its runtime and precision) and returns what embeds
#: :class:`Windows` with it (their vectors, a row per occurrence); :func:`measure` times the returned callable only.
Prepare = Callable[[Candidate], Callable[[Windows], np.ndarray]]


def row_cosines(vectors: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """The cosine of each row of ``vectors`` with the same row of ``reference``.

    Parameters
    ----------
    vectors, reference : ndarray of shape (n, d)
        Two sets of vectors of the same occurrences.

    Returns
    -------
    ndarray of shape (n,)
        A row of zeros where either row is zero.

    Examples
    --------
    >>> row_cosines(np.array([[1.0, 0.0], [0.0, 2.0]]), np.array([[2.0, 0.0], [1.0, 0.0]])).tolist()
    [1.0, 0.0]
    """
    a, b = np.asarray(vectors, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    dots = np.einsum("ij,ij->i", a, b)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


def measure(
    among: Sequence[Candidate],
    prepare: Prepare,
    windows: Windows,
    *,
    timer: Callable[[], float] = time.perf_counter,
    repeats: int = REPEATS,
    timed: int = TIMED_OCCURRENCES,
    agreement: Agreement | None = None,
) -> list[Measurement]:
    """Time each candidate over the same windows and compare its vectors with :data:`REFERENCE`'s.

    The reference runs first. Each candidate is prepared (not timed) and run once untimed over every window (its
    vectors are the ones compared; the run also warms the runtime). A candidate whose vectors pass the cosine is
    then given to ``agreement``, if any; one whose vectors fail either is excluded without being timed. The
    others run ``repeats`` times under ``timer`` over ``timed`` of the windows (:meth:`Windows.evenly`); a time
    is the fastest run. A candidate that fails to load or run is excluded with the reason; the reference must
    run.

    Parameters
    ----------
    among : sequence of Candidate
        The candidates (:func:`candidates`); :data:`REFERENCE` among them.
    prepare : callable
        ``prepare(candidate)`` returns a callable that embeds :class:`Windows` and returns their vectors
        (:data:`Prepare`); it is released before the next candidate is prepared.
    windows : Windows
        The occurrences embedded (:func:`demo_windows`).
    timer : callable
        Seconds as a float (``time.perf_counter``; a fake clock in the tests).
    repeats : int
        Timed runs of each candidate.
    timed : int
        How many of the windows the timed runs embed (:data:`TIMED_OCCURRENCES`).
    agreement : Agreement, optional
        A further check of the compared vectors (the same number of senses: :mod:`wsd.workflows.calibration`).

    Returns
    -------
    list of Measurement
        In the order of ``among``.

    Raises
    ------
    WsdError
        When :data:`REFERENCE` is not ``among`` (nothing to compare with).

    Examples
    --------
    >>> windows = demo_windows().evenly(2)
    >>> embed = lambda candidate: lambda windows: np.ones((len(windows), 3))
    >>> [m.describe() for m in measure([REFERENCE], embed, windows, timer=iter(range(9)).__next__)]
    ['torch fp32 1.000 s']
    """
    if REFERENCE not in among:
        raise WsdError(f"the calibration needs {REFERENCE.name} among its candidates, to compare the others with")
    order = [REFERENCE, *(c for c in among if c != REFERENCE)]
    timed_windows = windows.evenly(timed)
    reference: np.ndarray | None = None
    expected: Mapping[str, Any] | None = None  # the reference's summary (agreement), made when first needed
    found: dict[Candidate, Measurement] = {}
    for candidate in order:
        try:
            run = prepare(candidate)
            vectors = np.asarray(run(windows))
            if reference is None:
                reference = vectors
            if vectors.shape != reference.shape or not np.isfinite(vectors).all():
                problem = f"vectors of shape {vectors.shape}, not finite or not {reference.shape}"
                found[candidate] = Measurement(candidate, None, None, problem)
                continue
            cosine = round(float(row_cosines(vectors, reference).min()) if len(vectors) else 1.0, 6)
            disagreement = None
            if agreement is not None and candidate != REFERENCE and cosine >= MIN_COSINE:
                if expected is None:
                    expected = agreement.summarize(reference, windows)
                disagreement = agreement.disagreement(agreement.summarize(vectors, windows), expected)
            if cosine < MIN_COSINE or disagreement is not None:
                # excluded by its vectors: not worth timing
                found[candidate] = Measurement(candidate, None, cosine, disagreement=disagreement)
                continue
            times = []
            for _ in range(repeats):
                clock = timer()
                run(timed_windows)
                times.append(timer() - clock)
            del run
        except CANDIDATE_ERRORS as error:
            if candidate == REFERENCE:
                raise
            found[candidate] = Measurement(candidate, None, None, _first_line(error))
            continue
        found[candidate] = Measurement(candidate, float(min(times)), cosine, disagreement=disagreement)
    return [found[candidate] for candidate in among]


def pick(measurements: Sequence[Measurement], margin: float = PREFERENCE_MARGIN) -> Candidate:
    """The candidate ``auto`` chooses: the fastest that agrees, unless an earlier one is within ``margin`` of it.

    Parameters
    ----------
    measurements : sequence of Measurement
        In the order of preference (:func:`candidates`).
    margin : float
        A later candidate must be faster than an earlier one by more than this fraction of the earlier one's
        time to be chosen over it (:data:`PREFERENCE_MARGIN`).

    Returns
    -------
    Candidate

    Raises
    ------
    WsdError
        When no candidate agrees with the reference (the reference itself always does).

    Examples
    --------
    >>> fp32, bf16 = Candidate("torch", "fp32"), Candidate("torch", "bf16")
    >>> pick([Measurement(fp32, 1.0, 1.0), Measurement(bf16, 0.97, 0.999)]).name  # within the margin
    'torch fp32'
    >>> pick([Measurement(fp32, 1.0, 1.0), Measurement(bf16, 0.5, 0.98)]).name    # fast, but disagrees
    'torch fp32'
    """
    agreeing = [m for m in measurements if m.agrees and m.seconds is not None]
    if not agreeing:
        raise WsdError("no runtime and precision gave vectors that agree with PyTorch fp32's")
    fastest = min(m.seconds for m in agreeing if m.seconds is not None)
    return next(m.candidate for m in agreeing if m.seconds is not None and m.seconds <= fastest * (1 + margin))


@dataclass(frozen=True)
class Calibration:
    """What ``auto`` chose for a model on this machine, and how it knows.

    Parameters
    ----------
    runtime : str
        ``openvino`` or ``torch``.
    precision : str
        ``fp32``, ``bf16`` or ``int8``.
    model : str
        The model's display name.
    path : Path
        The cache entry that holds the measurement.
    measured_at : str
        When it was measured (ISO 8601, UTC).
    measurements : tuple of dict
        Each candidate's :meth:`Measurement.to_dict`.
    fresh : bool
        True when this process measured it, False when it was read from the cache.
    windows : dict
        What was embedded: ``source``, ``occurrences`` (compared) and ``timed``.
    checks : tuple of str
        The checks the choice passed: :data:`COSINE_CHECK` and the name of each :class:`Agreement` asked for.

    Examples
    --------
    >>> Calibration("openvino", "fp32", "m", Path("x.json"), "2026-01-01T00:00:00Z", ()).choice
    'openvino fp32'
    """

    runtime: str
    precision: str
    model: str
    path: Path
    measured_at: str
    measurements: tuple[dict[str, Any], ...]
    fresh: bool = False
    windows: dict[str, Any] = field(default_factory=dict)
    checks: tuple[str, ...] = (COSINE_CHECK,)

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any], path: Path) -> Calibration:
        """The calibration a checked cache entry holds (:func:`~wsd.embed.calibration_cache.read_entry`).

        Parameters
        ----------
        entry : mapping
            The entry.
        path : Path
            Where it lies.

        Returns
        -------
        Calibration
            With ``fresh`` False.
        """
        return cls(
            runtime=str(entry["runtime"]),
            precision=str(entry["precision"]),
            model=str(entry["model"]),
            path=path,
            measured_at=str(entry["measured_at"]),
            measurements=tuple(dict(m) for m in entry["candidates"]),
            windows=dict(entry.get("windows") or {}),
            checks=tuple(str(name) for name in entry.get("checks") or (COSINE_CHECK,)),
        )

    def entry(self) -> dict[str, Any]:
        """What a cache entry stores of it (:func:`~wsd.embed.calibration_cache.write_entry` adds the rest).

        Returns
        -------
        dict
        """
        return {
            "model": self.model,
            "runtime": self.runtime,
            "precision": self.precision,
            "measured_at": self.measured_at,
            "min_cosine": MIN_COSINE,
            "checks": list(self.checks),
            "windows": self.windows,
            "candidates": list(self.measurements),
        }

    def record(self) -> dict[str, Any]:
        """What a run records of the choice in its ``meta.json`` (``calibration``): not part of its configuration.

        Returns
        -------
        dict
            ``runtime``, ``precision``, ``measured_at``, ``checks`` and ``cache`` (the entry's path).

        Examples
        --------
        >>> Calibration("torch", "fp32", "m", Path("x.json"), "2026-01-01T00:00:00Z", ()).record()["checks"]
        ['cosine']
        """
        return {
            "runtime": self.runtime,
            "precision": self.precision,
            "measured_at": self.measured_at,
            "checks": list(self.checks),
            "cache": str(self.path),
        }

    @property
    def choice(self) -> str:
        """``"<runtime> <precision>"``.

        Returns
        -------
        str
        """
        return f"{self.runtime} {self.precision}"

    def describe(self) -> str:
        """One line: the choice, each candidate's time or why it was excluded, and where it is cached.

        Returns
        -------
        str
        """
        found = [Measurement.from_dict(m) for m in self.measurements]
        how = "measured now" if self.fresh else f"measured {self.measured_at}"
        return (
            f"auto runtime and precision for {self.model} on this machine: {self.choice} ({how}; "
            f"{', '.join(m.describe() for m in found)}; {self.path})"
        )


def enabled() -> bool:
    """Whether ``auto`` measures (False where ``$WSD_CALIBRATION`` is ``off``, ``no`` or ``none``).

    Returns
    -------
    bool
    """
    value = os.environ.get(CALIBRATION_ENV)
    return value is None or not is_off(value)


def applies(runtime: str | None, precision: str, device: Any) -> bool:
    """Whether an encoder with these settings is calibrated: both ``auto``, on a CPU, calibration not turned off.

    Parameters
    ----------
    runtime : str or None
        The runtime asked for (None: ``auto``).
    precision : str
        The precision asked for.
    device : str or None
        The device asked for (None/``auto``: the CPU unless a CUDA GPU is present).

    Returns
    -------
    bool

    Examples
    --------
    >>> applies("torch", "auto", "cpu"), applies("auto", "fp32", "cpu"), applies("auto", "auto", "cuda")
    (False, False, False)
    """
    if runtime not in (None, "auto") or precision != "auto" or not enabled():
        return False
    if device is not None and str(device) != "auto":
        return str(device).split(":")[0] == "cpu"
    from wsd.embed.ov_runtime import no_gpu_driver

    if no_gpu_driver():
        return True
    import torch

    return not torch.cuda.is_available()


def demo_windows() -> Windows:
    """The occurrences the calibration embeds: every labelled one of the bundled demo (real sentences, real targets).

    Every use of each demo word is there, so that a word's number of senses can be found from them (an
    :class:`Agreement`); the timed runs take :data:`TIMED_OCCURRENCES` of them (:meth:`Windows.evenly`).

    Returns
    -------
    Windows
        In the order of ``wsd/demo_data/labelled.tsv``.

    Examples
    --------
    >>> windows = demo_windows()
    >>> len(windows) > 300, windows.spans.shape[1], windows.targets[0], windows.forms[0]
    (True, 2, 'mouse', 'mouse')
    """
    with DEMO_LABELLED.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    spans = np.array([[int(r["start"]), int(r["end"])] for r in rows], dtype=np.int64).reshape(-1, 2)
    return Windows(tuple(r["text"] for r in rows), spans, tuple(r["target"] for r in rows))


def encoder_prepare(
    make_encoder: Callable[..., Any],
    model: str | os.PathLike[str] | None,
    *,
    offline: bool | None = None,
    max_length: int | None = None,
) -> Prepare:
    """The :data:`Prepare` of real encoders: each candidate loaded as an encoder on the CPU.

    The vectors are those of ``wsd embed``'s defaults (:data:`wsd.schema.DEFAULT_LAYERS` with the default
    context vector), so the OpenVINO conversion made here is the one the default run uses.

    Parameters
    ----------
    make_encoder : callable
        :class:`wsd.Encoder` (given by the caller: the encoder module imports this one, not the reverse).
    model : str or path, optional
        The model, as :class:`wsd.Encoder` takes it.
    offline : bool, optional
        As :class:`wsd.Encoder` takes it.
    max_length : int, optional
        As :class:`wsd.Encoder` takes it.

    Returns
    -------
    callable
        ``prepare(candidate)`` -> a callable returning the vectors of :class:`Windows`.
    """

    def prepare(candidate: Candidate) -> Callable[[Windows], np.ndarray]:
        with _torch_notes_muted():
            encoder = make_encoder(
                model,
                layers=DEFAULT_LAYERS,
                device="cpu",
                precision=candidate.precision,
                runtime=candidate.runtime,
                max_length=max_length,
                context_vector=DEFAULT_CONTEXT_VECTOR,
                offline=offline,
            )

        def run(windows: Windows) -> np.ndarray:
            with _torch_notes_muted():
                return np.asarray(encoder.embed_spans(list(windows.texts), windows.spans))

        return run

    return prepare


@contextlib.contextmanager
def _torch_notes_muted() -> Iterator[None]:
    """Mute PyTorch's own UserWarnings (deprecation notes of its kernels) while a candidate is tried: they concern
    a candidate the user did not ask for. wsd's warnings pass."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module=r"torch(\.|$)")
        yield


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def auto_choice(
    model: str | os.PathLike[str] | None = None,
    *,
    make_encoder: Callable[..., Any] | None = None,
    offline: bool | None = None,
    max_length: int | None = None,
    recalibrate: bool = False,
    cache_dir: str | os.PathLike[str] | None = None,
    among: Sequence[Candidate] | None = None,
    prepare: Prepare | None = None,
    windows: Windows | None = None,
    agreement: Agreement | None = None,
    fingerprint: Mapping[str, Any] | None = None,
    timer: Callable[[], float] = time.perf_counter,
    announce: Callable[[str], None] | None = _stderr,
) -> Calibration:
    """The runtime and precision ``auto`` runs ``model`` with on this machine: cached, else measured now.

    A cached answer is used when its entry holds (:func:`~wsd.embed.calibration_cache.read_entry`) and it passed
    ``agreement``'s check (its ``checks`` name it); else the candidates are measured and the entry written anew.

    Parameters
    ----------
    model : str or path, optional
        The model, as :class:`wsd.Encoder` takes it (None: the bundled one).
    make_encoder : callable, optional
        :class:`wsd.Encoder`, which loads each candidate to measure it on :func:`demo_windows`
        (:func:`encoder_prepare`); needed unless ``prepare`` is given.
    offline : bool, optional
        As :class:`wsd.Encoder` takes it (loading the candidates).
    max_length : int, optional
        As :class:`wsd.Encoder` takes it.
    recalibrate : bool
        Measure again even where the cache holds an answer (``wsd embed --recalibrate``).
    cache_dir : str or path, optional
        The cache folder (None: :func:`~wsd.embed.calibration_cache.default_cache_dir`).
    among : sequence of Candidate, optional
        The candidates (None: :func:`candidates`).
    prepare : callable, optional
        Loads a candidate and returns what embeds the windows (:data:`Prepare`; the tests give fakes).
    windows : Windows, optional
        The occurrences embedded (None: :func:`demo_windows`).
    agreement : Agreement, optional
        A check the chosen candidate's vectors must also pass (:func:`measure`); the corpus jobs give the same
        number of senses on the demo words (:data:`wsd.workflows.calibration.SAME_SENSES`).
    fingerprint : mapping, optional
        The machine's fingerprint (None: :func:`wsd.machine.fingerprint`); the model's identity is added to it.
    timer : callable
        The clock (:func:`measure`).
    announce : callable, optional
        Receives one line when a measurement starts and one with its result (None: silent); by default they
        go to standard error.

    Returns
    -------
    Calibration

    Raises
    ------
    WsdError
        Where something must be measured but neither ``make_encoder`` nor ``prepare`` is given.

    Examples
    --------
    >>> from wsd import Encoder
    >>> auto_choice(make_encoder=Encoder).choice    # doctest: +SKIP
    'openvino fp32'
    """
    from wsd.embed.models import model_source

    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    # an entry is checked against every candidate the fingerprint allows (no torch import to ask about bf16: the
    # fingerprint holds the CPU flags and the torch version that decide it); measuring asks
    allowed = tuple(among) if among is not None else candidates(torch_bf16=True)
    name = model_source(model).name
    machine_key = dict(fingerprint) if fingerprint is not None else machine.fingerprint()
    identity = model_identity(model)
    key = machine_key | {"model": identity, "format": FORMAT}
    with one_at_a_time(entry_path(key, folder, CALIBRATION_LOCK)):
        if identity is not None and not recalibrate:
            entry = read_entry(entry_path(key, folder), key, [(c.runtime, c.precision) for c in allowed])
            cached = Calibration.from_entry(entry, entry_path(key, folder)) if entry is not None else None
            if cached is not None and (agreement is None or agreement.name in cached.checks):
                return cached
        if announce is not None:
            announce(f"measuring the runtimes and precisions of {name} on this machine (once per model and machine)")
        source = "demo" if windows is None else "given"
        windows = demo_windows() if windows is None else windows
        if prepare is None:
            if make_encoder is None:
                raise WsdError("auto_choice() needs make_encoder (wsd.Encoder) or prepare to measure")
            prepare = encoder_prepare(make_encoder, model, offline=offline, max_length=max_length)
        among = tuple(among) if among is not None else candidates()
        measurements = measure(among, prepare, windows, timer=timer, agreement=agreement)
        chosen = pick(measurements)
        if identity is None:  # a Hub model downloaded by the first candidate: now it has a folder
            key = machine_key | {"model": model_identity(model), "format": FORMAT}
        calibration = Calibration(
            runtime=chosen.runtime,
            precision=chosen.precision,
            model=name,
            path=entry_path(key, folder),
            measured_at=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            measurements=tuple(m.to_dict() for m in measurements),
            fresh=True,
            windows={"source": source, "occurrences": len(windows), "timed": len(windows.evenly(TIMED_OCCURRENCES))},
            checks=(COSINE_CHECK, *((agreement.name,) if agreement is not None else ())),
        )
        write_entry(calibration.path, key, calibration.entry())
    if announce is not None:
        announce(calibration.describe())
    return calibration


def recalibrate(
    options: EmbeddingOptions,
    make_encoder: Callable[..., Any] | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    **measuring: Any,
) -> Calibration:
    """Measure again what ``auto`` runs a model with on this machine (``wsd embed --recalibrate``).

    Parameters
    ----------
    options : EmbeddingOptions
        The embedding options of the run (``model``, ``offline``, ``max_length``; ``runtime``, ``precision``
        and ``device`` must leave the choice to ``auto`` on the CPU).
    make_encoder : callable, optional
        :class:`wsd.Encoder` (see :func:`auto_choice`).
    cache_dir : str or path, optional
        The cache folder (None: :func:`~wsd.embed.calibration_cache.default_cache_dir`).
    **measuring
        Passed to :func:`auto_choice` (``agreement``, ``among``, ``prepare``, ``windows``, ``fingerprint``,
        ``timer``, ``announce``).

    Returns
    -------
    Calibration
        The new measurement, written to the cache.

    Raises
    ------
    ConfigError
        Where the runtime or precision is given explicitly, the device is not the CPU, or the calibration is
        turned off (``$WSD_CALIBRATION``): there is nothing for ``auto`` to choose then.

    Examples
    --------
    >>> from wsd.options import EmbeddingOptions
    >>> recalibrate(EmbeddingOptions(precision="fp32"))
    Traceback (most recent call last):
    ...
    wsd.errors.ConfigError: --recalibrate measures what --runtime auto and --precision auto choose on the CPU; \
it cannot be combined with --precision fp32 (drop --recalibrate, or the explicit choice)
    """
    given = [
        f"--{name} {value}"
        for name, value in (("runtime", options.runtime), ("precision", options.precision))
        if value not in (None, "auto")
    ]
    if options.device not in (None, "auto") and str(options.device).split(":")[0] != "cpu":
        given.append(f"--device {options.device}")
    if given:
        raise ConfigError(
            "--recalibrate measures what --runtime auto and --precision auto choose on the CPU; it cannot be "
            f"combined with {' and '.join(given)} (drop --recalibrate, or the explicit choice)"
        )
    if not enabled():
        raise ConfigError(f"--recalibrate: the calibration is turned off here (${CALIBRATION_ENV}); unset it first")
    return auto_choice(
        options.model,
        make_encoder=make_encoder,
        offline=True if options.offline else None,
        max_length=options.max_length,
        recalibrate=True,
        cache_dir=cache_dir,
        **measuring,
    )


def cached_choice(
    model: str | os.PathLike[str] | None = None, *, cache_dir: str | os.PathLike[str] | None = None
) -> Calibration | None:
    """What ``auto`` would read from the cache for ``model`` on this machine, without measuring or loading it.

    Parameters
    ----------
    model : str or path, optional
        The model (None: the bundled one).
    cache_dir : str or path, optional
        The cache folder (None: :func:`~wsd.embed.calibration_cache.default_cache_dir`).

    Returns
    -------
    Calibration or None
        None when nothing is cached for this model and machine (or the entry is damaged: then with a warning).
    """
    identity = model_identity(model)
    if identity is None:
        return None
    folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    key = machine.fingerprint() | {"model": identity, "format": FORMAT}
    path = entry_path(key, folder)
    entry = read_entry(path, key, [(c.runtime, c.precision) for c in candidates(torch_bf16=True)])
    return Calibration.from_entry(entry, path) if entry is not None else None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
