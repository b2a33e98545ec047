"""How ``auto`` chooses the runtime and precision on a CPU: by measuring them, once per model and machine.

With ``runtime="auto"`` and ``precision="auto"`` on a CPU (the defaults), the first :class:`wsd.Encoder` of a
model on a machine times every candidate (:func:`candidates`: OpenVINO fp32, OpenVINO bf16 and PyTorch bf16 where
the CPU computes bf16, PyTorch fp32; OpenVINO int8 is asked for by name only, :data:`OPENVINO_INT8_EXCLUDED`) on
the same few real windows, taken from the bundled demo's labelled occurrences (:func:`demo_windows`), and keeps the
fastest candidate whose vectors agree with PyTorch fp32's on every labelled occurrence (:data:`MIN_COSINE` or more
for each; :func:`pick`). Only the candidates whose time could make them the choice are compared on every
occurrence, the fastest first (:func:`measure`). The answer is cached,
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
from wsd.io.meta_types import CalibrationRecord
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
#: Timed runs of each candidate over the timed windows (after the untimed warm-up); the fastest counts. The first
#: timed run's vectors are kept: they are part of those compared.
REPEATS = 2
#: Occurrences of the bundled demo that are timed: two batches of 32 (the CPU batch size) of middling length
#: (:func:`split_rows`), few enough that the calibration stays short. The vectors compared are those of every labelled
#: occurrence (:func:`demo_windows`), so that each demo word has the uses its number of senses is found from; the
#: rest of them are embedded only for a candidate that could be chosen (:func:`measure`).
TIMED_OCCURRENCES = 64
#: Occurrences embedded untimed before the timed runs: one batch of 32 (the shortest windows), which absorbs
#: what a first call costs (an OpenVINO conversion and compilation, PyTorch's first kernels).
WARMUP_OCCURRENCES = 32
#: The windows a batch, as :class:`wsd.Encoder` cuts them on a CPU (its ``DEFAULT_BATCH_SIZE``): the calibration
#: warms up on, times and compares whole batches (:func:`split_rows`); an encoder's own size is used where given.
BATCH = 32
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
        return self if len(self) <= limit else self.take(evenly_rows(len(self), limit))

    def take(self, rows: np.ndarray) -> Windows:
        """The occurrences at ``rows``, in that order.

        Parameters
        ----------
        rows : ndarray of int
            Row numbers.

        Returns
        -------
        Windows

        Examples
        --------
        >>> demo_windows().take(np.array([2, 0])).targets
        ('mouse', 'mouse')
        """
        rows = np.asarray(rows, dtype=np.int64)
        return Windows(tuple(self.texts[i] for i in rows), self.spans[rows], tuple(self.targets[i] for i in rows))


def evenly_rows(n: int, limit: int) -> np.ndarray:
    """At most ``limit`` row numbers out of ``n``, spread evenly (the first and the last among them).

    Parameters
    ----------
    n : int
        How many rows there are.
    limit : int
        The most rows kept.

    Returns
    -------
    ndarray of int
        Ascending.

    Examples
    --------
    >>> evenly_rows(10, 4).tolist(), evenly_rows(3, 8).tolist(), evenly_rows(5, 0).tolist()
    ([0, 3, 6, 9], [0, 1, 2], [])
    """
    if n <= limit:
        return np.arange(n, dtype=np.int64)
    if limit <= 0:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.linspace(0, n - 1, limit).astype(np.int64))


def split_rows(
    lengths: np.ndarray, *, batch: int = BATCH, timed: int = TIMED_OCCURRENCES, warmup: int = WARMUP_OCCURRENCES
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows a calibration warms up on, times, and embeds only to compare a candidate in full: whole batches.

    The windows are cut in the encoder's length order (longest first, ties in order), ``batch`` a batch, so that
    each part holds windows of the lengths a run of all of them batches together; the encoder may cut a part's
    batches further where padding would cost most (:func:`wsd.embed.batching.batch_sizes`), never padding more.
    The shortest batch warms up; ``timed`` windows' worth of batches are timed, each at the middle of an equal
    share of the others (for two: a quarter and three quarters of the way down the order, a longer and a shorter
    batch); the other batches are the rest.

    Parameters
    ----------
    lengths : ndarray of int
        Each window's length (in the model's tokens, or a stand-in such as characters).
    batch : int
        The windows a batch (:data:`BATCH`, the CPU batch size of :class:`wsd.Encoder`).
    timed : int
        The windows timed (:data:`TIMED_OCCURRENCES`), in whole batches.
    warmup : int
        The windows embedded untimed first (:data:`WARMUP_OCCURRENCES`), in whole batches; none where there is
        a single batch.

    Returns
    -------
    (warm-up, timed, rest) : three ndarrays of int
        Disjoint, ascending, together every row.

    Examples
    --------
    >>> [part.tolist() for part in split_rows(np.array([5, 1, 4, 2, 3, 6, 7, 9]), batch=2, timed=2, warmup=2)]
    [[1, 3], [0, 5], [2, 4, 6, 7]]
    """
    batch = max(int(batch), 1)
    order = np.argsort(-np.asarray(lengths), kind="stable")
    batches = [order[begin : begin + batch] for begin in range(0, len(order), batch)]
    warm = min(-(-warmup // batch), len(batches) - 1) if batches else 0
    others = len(batches) - warm
    wanted = min(max(-(-timed // batch), 1), others)
    chosen = set(((np.arange(wanted) + 0.5) * others / wanted).astype(np.int64).tolist())
    empty = np.zeros(0, dtype=np.int64)
    parts = (
        batches[others:],
        [b for i, b in enumerate(batches[:others]) if i in chosen],
        [b for i, b in enumerate(batches[:others]) if i not in chosen],
    )
    warm_rows, timed_rows, rest_rows = (np.sort(np.concatenate(part)) if part else empty for part in parts)
    return warm_rows, timed_rows, rest_rows


def window_lengths(run: Callable[[Windows], np.ndarray], windows: Windows) -> np.ndarray:
    """Each window's length in the model's tokens where ``run`` knows it (``run.lengths``), else in characters.

    Parameters
    ----------
    run : callable
        What embeds windows with a loaded candidate (:data:`Prepare`); an encoder's has ``lengths``.
    windows : Windows
        The windows.

    Returns
    -------
    ndarray of int

    Examples
    --------
    >>> window_lengths(lambda windows: None, Windows(("A bank.",), np.array([[2, 6]]), ("bank",))).tolist()
    [7]
    """
    measured = getattr(run, "lengths", None)
    if callable(measured):
        with contextlib.suppress(*CANDIDATE_ERRORS, AttributeError, TypeError):  # a run that cannot tell
            found = np.asarray(measured(windows), dtype=np.int64)
            if found.shape == (len(windows),):
                return found
    return np.fromiter((len(text) for text in windows.texts), dtype=np.int64, count=len(windows))


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
        The least cosine, over the occurrences compared, between its vectors and :data:`REFERENCE`'s.
    problem : str or None
        Why it could not run (one line), None when it ran.
    disagreement : str or None
        Why its vectors fail an :class:`Agreement` (one phrase), None where they pass or none was asked for.
    checked : bool
        Whether its vectors were compared on every occurrence (and given to the :class:`Agreement`). False where
        they were compared on the warm-up and timed occurrences only: it failed there, or its time could not
        make it the choice (:func:`measure`), so it does not count as agreeing.

    Examples
    --------
    >>> Measurement(Candidate("torch", "bf16"), 0.5, 0.97).agrees
    False
    >>> Measurement(Candidate("torch", "bf16"), 0.5, 0.999, checked=False).agrees
    False
    """

    candidate: Candidate
    seconds: float | None
    min_cosine: float | None
    problem: str | None = None
    disagreement: str | None = None
    checked: bool = True

    @property
    def cosine_holds(self) -> bool:
        """Whether its least cosine (over the occurrences compared so far) is :data:`MIN_COSINE` or more.

        Returns
        -------
        bool
        """
        return self.problem is None and self.min_cosine is not None and self.min_cosine >= MIN_COSINE

    @property
    def agrees(self) -> bool:
        """Whether it ran and its vectors agree with the reference on every occurrence (cosine ≥ :data:`MIN_COSINE`,
        and every :class:`Agreement` asked for).

        Returns
        -------
        bool
        """
        return self.checked and self.cosine_holds and self.disagreement is None

    def to_dict(self) -> dict[str, Any]:
        """The measurement as JSON-ready data (what a cache entry lists).

        Returns
        -------
        dict
            ``runtime``, ``precision``, ``seconds``, ``min_cosine``, ``agrees``, ``problem``, ``disagreement``,
            ``checked``.
        """
        return asdict(self.candidate) | {
            "seconds": self.seconds,
            "min_cosine": self.min_cosine,
            "agrees": self.agrees,
            "problem": self.problem,
            "disagreement": self.disagreement,
            "checked": self.checked,
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
        checked = bool(found.get("checked", True))
        return cls(
            candidate, found["seconds"], found["min_cosine"], found["problem"], found.get("disagreement"), checked
        )

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
        >>> Measurement(Candidate("torch", "bf16"), 0.5, 0.999, checked=False).describe()
        'torch bf16 0.500 s (slower: not compared in full)'
        """
        if self.problem is not None:
            return f"{self.candidate.name} excluded ({self.problem})"
        if self.min_cosine is None or self.min_cosine < MIN_COSINE:
            return f"{self.candidate.name} excluded (cosine {self.min_cosine:.3f} < {MIN_COSINE})"
        if self.disagreement is not None:
            return f"{self.candidate.name} excluded ({self.disagreement})"
        unchecked = "" if self.checked else " (slower: not compared in full)"
        return f"{self.candidate.name} {self.seconds:.3f} s{unchecked}"


#: Makes one candidate ready (loads the model with its runtime and precision) and returns what embeds
#: :class:`Windows` with it (their vectors, a row per occurrence); :func:`measure` times the returned callable only.
#: It may also tell each window's length (``lengths(windows)``) and its ``batch_size``, as :class:`EncoderRun`
#: does, so that the calibration cuts the windows into the batches the encoder forms.
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


@dataclass
class _Trial:
    """A candidate loaded, warmed up and timed (:func:`measure`): the vectors of the warm-up and timed windows,
    and what embeds the rest when it is compared in full."""

    seconds: float
    first: np.ndarray
    run: Callable[[Windows], np.ndarray]


def _trial(run: Callable[[Windows], np.ndarray], warm: Windows, timed: Windows, timer: Callable[[], float],
           repeats: int) -> _Trial:  # fmt: skip
    """Embed the warm-up windows untimed (the timed ones where there are none), then the timed ones ``repeats``
    times under ``timer``; the first vectors of each are kept."""
    kept = [_rows(run(warm if len(warm) else timed), len(warm) or len(timed))]
    times = []
    for repeat in range(repeats):
        clock = timer()
        vectors = run(timed)
        times.append(timer() - clock)
        if repeat == 0 and len(warm):
            kept.append(_rows(vectors, len(timed)))
    if len({part.shape[1:] for part in kept}) != 1:
        raise WsdError(f"vectors of shapes {' and '.join(str(part.shape) for part in kept)}")
    return _Trial(float(min(times)), np.concatenate(kept), run)


def _rows(vectors: Any, n: int) -> np.ndarray:
    """``vectors`` as an array of ``n`` rows (a WsdError where it is not)."""
    found = np.asarray(vectors)
    if found.ndim != 2 or len(found) != n:
        raise WsdError(f"vectors of shape {found.shape} for {n} windows")
    return found


def _shape_problem(vectors: np.ndarray, shape: tuple[int, ...]) -> str | None:
    """Why ``vectors`` cannot be compared with vectors of ``shape`` (one phrase), or None."""
    if vectors.shape != shape or not np.isfinite(vectors).all():
        return f"vectors of shape {vectors.shape}, not finite or not {shape}"
    return None


def _least_cosine(vectors: np.ndarray, reference: np.ndarray) -> float:
    """The least :func:`row_cosines` of two sets of vectors (1 where there are no rows), to six decimals."""
    return round(float(row_cosines(vectors, reference).min()) if len(vectors) else 1.0, 6)


def measure(
    among: Sequence[Candidate],
    prepare: Prepare,
    windows: Windows,
    *,
    timer: Callable[[], float] = time.perf_counter,
    repeats: int = REPEATS,
    timed: int = TIMED_OCCURRENCES,
    warmup: int = WARMUP_OCCURRENCES,
    agreement: Agreement | None = None,
    margin: float = PREFERENCE_MARGIN,
) -> list[Measurement]:
    """Time each candidate on a few windows, and compare in full only those that could be chosen.

    The windows are split into whole batches in the encoder's length order (:func:`split_rows`, with the
    reference's :func:`window_lengths` and ``batch_size``): ``warmup`` embedded untimed, ``timed`` embedded
    ``repeats`` times under ``timer`` (a time is the fastest run), the rest. :data:`REFERENCE` is tried first,
    then every other candidate in turn: loaded (not timed), warmed up, timed, its vectors of the warm-up and timed
    windows compared with the reference's (a cosine below :data:`MIN_COSINE` excludes it at once). A candidate slower
    than the reference by more than ``margin`` can never be chosen (:func:`pick`) and is released; the others
    stay loaded. Then the candidates are compared in full, each at most once, in the order that decides the
    choice: the fastest of those still hopeful, then the one :func:`pick` would prefer within ``margin`` of it,
    until both are compared and pass. Comparing in full embeds the rest of the windows (the reference's once) and
    checks the cosine of every occurrence and ``agreement`` (the reference's summary made once). So
    :func:`pick` over the result chooses what it would choose had every candidate been compared in full, while
    a candidate that cannot win costs a warm-up and the timed runs only (``checked`` False). A candidate that
    fails to load or run is excluded with the reason; the reference must run.

    Parameters
    ----------
    among : sequence of Candidate
        The candidates in the order of preference (:func:`candidates`); :data:`REFERENCE` among them.
    prepare : callable
        ``prepare(candidate)`` returns a callable that embeds :class:`Windows` and returns their vectors, a
        row per window (:data:`Prepare`).
    windows : Windows
        The occurrences (:func:`demo_windows`).
    timer : callable
        Seconds as a float (``time.perf_counter``; a fake clock in the tests).
    repeats : int
        Timed runs of each candidate (1 or more).
    timed : int
        How many of the windows are timed (:data:`TIMED_OCCURRENCES`).
    warmup : int
        How many of the others are embedded untimed first (:data:`WARMUP_OCCURRENCES`).
    agreement : Agreement, optional
        A further check of the vectors compared in full (the same number of senses:
        :mod:`wsd.workflows.calibration`).
    margin : float
        As :func:`pick` takes it.

    Returns
    -------
    list of Measurement
        In the order of ``among``.

    Raises
    ------
    WsdError
        When :data:`REFERENCE` is not ``among`` (nothing to compare with), or its vectors are not finite.

    Examples
    --------
    >>> windows = demo_windows().evenly(2)
    >>> embed = lambda candidate: lambda windows: np.ones((len(windows), 3))
    >>> [m.describe() for m in measure([REFERENCE], embed, windows, timer=iter(range(9)).__next__)]
    ['torch fp32 1.000 s']
    """
    if REFERENCE not in among:
        raise WsdError(f"the calibration needs {REFERENCE.name} among its candidates, to compare the others with")
    run = prepare(REFERENCE)
    batch = int(getattr(run, "batch_size", BATCH))
    split = split_rows(window_lengths(run, windows), batch=batch, timed=timed, warmup=warmup)
    warm_rows, timed_rows, rest_rows = split
    first_rows = np.concatenate([warm_rows, timed_rows])
    warm, rest, timed_windows = windows.take(warm_rows), windows.take(rest_rows), windows.take(timed_rows)
    trials: dict[Candidate, _Trial] = {REFERENCE: _trial(run, warm, timed_windows, timer, repeats)}
    del run
    reference = trials[REFERENCE].first
    if not np.isfinite(reference).all():
        raise WsdError(f"{REFERENCE.name}, the reference of the calibration, gave vectors that are not finite")

    def time_it(candidate: Candidate) -> Measurement:
        try:
            trial = _trial(prepare(candidate), warm, timed_windows, timer, repeats)
        except CANDIDATE_ERRORS as error:
            return Measurement(candidate, None, None, _first_line(error), checked=False)
        if (problem := _shape_problem(trial.first, reference.shape)) is not None:
            return Measurement(candidate, None, None, problem, checked=False)
        timed = Measurement(candidate, trial.seconds, _least_cosine(trial.first, reference), checked=False)
        if timed.cosine_holds and trial.seconds <= trials[REFERENCE].seconds * (1 + margin):
            trials[candidate] = trial  # it may be chosen: kept loaded until it is compared in full
        return timed

    found = {REFERENCE: Measurement(REFERENCE, trials[REFERENCE].seconds, 1.0)}
    for candidate in (c for c in among if c != REFERENCE):
        found[candidate] = time_it(candidate)

    whole: dict[Candidate, np.ndarray] = {}  # every window's vectors, of the candidates compared in full

    def every_window(candidate: Candidate) -> np.ndarray:
        trial = trials.pop(candidate)
        more = _rows(trial.run(rest), len(rest)) if len(rest) else trial.first[:0]
        if more.shape[1:] != trial.first.shape[1:]:
            raise WsdError(f"vectors of shape {more.shape}, not {(len(rest), *trial.first.shape[1:])}")
        vectors = np.empty((len(windows), *trial.first.shape[1:]), dtype=np.result_type(trial.first, more))
        vectors[first_rows], vectors[rest_rows] = trial.first, more
        return vectors

    def compare_in_full(candidate: Candidate) -> Measurement:
        if REFERENCE not in whole:
            whole[REFERENCE] = every_window(REFERENCE)  # the reference must run: its errors are not caught
        try:
            vectors = every_window(candidate)
        except CANDIDATE_ERRORS as error:
            return Measurement(candidate, None, None, _first_line(error))
        if (problem := _shape_problem(vectors, whole[REFERENCE].shape)) is not None:
            return Measurement(candidate, None, None, problem)
        cosine = _least_cosine(vectors, whole[REFERENCE])
        disagreement = None
        if agreement is not None and cosine >= MIN_COSINE:
            if "expected" not in summaries:
                summaries["expected"] = agreement.summarize(whole[REFERENCE], windows)
            disagreement = agreement.disagreement(agreement.summarize(vectors, windows), summaries["expected"])
        return Measurement(candidate, found[candidate].seconds, cosine, disagreement=disagreement)

    summaries: dict[str, Mapping[str, Any]] = {}  # the reference's summary (agreement), made when first needed
    while True:
        hopeful = [found[c] for c in among if found[c].cosine_holds and found[c].disagreement is None]
        deciding = (min(hopeful, key=_seconds), _preferred(hopeful, margin))
        unchecked = next((m.candidate for m in deciding if not m.checked), None)
        if unchecked is None:
            break
        found[unchecked] = compare_in_full(unchecked)
    trials.clear()  # release the candidates still loaded
    return [found[candidate] for candidate in among]


def _seconds(measurement: Measurement) -> float:
    """A measurement's time (infinite where it has none)."""
    return measurement.seconds if measurement.seconds is not None else float("inf")


def _preferred(measurements: Sequence[Measurement], margin: float) -> Measurement:
    """The first of ``measurements`` whose time is within ``margin`` of the fastest's."""
    fastest = min(_seconds(m) for m in measurements)
    return next(m for m in measurements if _seconds(m) <= fastest * (1 + margin))


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
    return _preferred(agreeing, margin).candidate


@dataclass(frozen=True)
class Calibration:
    """What ``auto`` chose for a model on this machine, and how it knows.

    Parameters
    ----------
    runtime, precision : str
        The choice, as a :class:`Candidate` names it.
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
        What was embedded: ``source``, ``occurrences`` (compared in full, for the candidates that could be
        chosen), ``timed`` and ``warmup`` (:func:`split_rows`).
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

    def record(self) -> CalibrationRecord:
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
        return EncoderRun(encoder)

    return prepare


class EncoderRun:
    """What embeds :class:`Windows` with a loaded encoder (:func:`encoder_prepare`), and what it knows of them.

    Parameters
    ----------
    encoder : wsd.Encoder
        The encoder of one candidate.

    Attributes
    ----------
    batch_size : int
        The windows a batch of the encoder (:func:`split_rows` cuts them alike).
    """

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder
        self.batch_size = int(getattr(encoder, "batch_size", BATCH))

    def __call__(self, windows: Windows) -> np.ndarray:
        """The vectors of ``windows``, a row each.

        Parameters
        ----------
        windows : Windows

        Returns
        -------
        ndarray of shape (len(windows), d)
        """
        with _torch_notes_muted():
            return np.asarray(self.encoder.embed_spans(list(windows.texts), windows.spans))

    def lengths(self, windows: Windows) -> np.ndarray:
        """Each window's text length in the encoder's tokens (what orders its batches), special tokens left out.

        Parameters
        ----------
        windows : Windows

        Returns
        -------
        ndarray of int
        """
        encoded = self.encoder.loaded.backend.encode_batch(list(windows.texts), add_special_tokens=False)
        return np.fromiter((len(found.ids) for found in encoded), dtype=np.int64, count=len(windows))


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
        warmup, timed = (len(rows) for rows in split_rows(np.zeros(len(windows)))[:2])  # sizes: of the count only
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
            windows={"source": source, "occurrences": len(windows), "timed": timed, "warmup": warmup},
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
        make_encoder=make_encoder, recalibrate=True, cache_dir=cache_dir, **loading_of(options), **measuring
    )


def loading_of(options: EmbeddingOptions) -> dict[str, Any]:
    """The model and how to load it, as :func:`auto_choice` takes them, from embedding options.

    ``offline`` as :meth:`wsd.Encoder.from_options` reads it (False: as the environment says).

    Parameters
    ----------
    options : EmbeddingOptions
        The embedding options of a job.

    Returns
    -------
    dict
        ``model``, ``offline`` and ``max_length``.

    Examples
    --------
    >>> from wsd.options import EmbeddingOptions
    >>> loading_of(EmbeddingOptions(max_length=128))["offline"] is None
    True
    """
    return {"model": options.model, "offline": True if options.offline else None, "max_length": options.max_length}


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
