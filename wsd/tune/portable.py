"""Portable training arithmetic: the same weights on every x86-64 CPU with AVX2, whatever else it has.

fp32 training is deterministic on one machine, yet the same run on another CPU kind rounds differently and ends
in other weights (the ``sense-minilm`` recipe scored DWUG EN ρ PRT 0.542 when built on an AMD EPYC with AVX2, 0.567
on an Intel Xeon with AMX). Four things choose the rounding, and ``--portable`` pins each:

- **ATen's vectorised kernels** (layer norm, softmax, GELU, the optimizer) are picked by the CPU: AVX2 or
  AVX-512. ``ATEN_CPU_CAPABILITY=avx2`` picks the AVX2 ones everywhere.
- **MKL's matrix products** dispatch by CPU model and vendor. ``MKL_CBWR=COMPATIBLE`` is its conditional
  numerical reproducibility on the branch Intel documents for Intel and non-Intel CPUs alike (the AVX2 branch
  holds on Intel CPUs only).
- **oneDNN's kernels**, which PyTorch uses for some fp32 operations, pick their own code by CPU: turned off
  (``torch.backends.mkldnn.enabled = False``) for the run.
- **The threads**: parallel reductions split their sums by thread count. :data:`PORTABLE_THREADS` threads,
  whatever the cores (2 is what CI and a laptop have; more cores then sit idle).

Measured on an Intel Xeon with AMX (``tests/test_tune_portable.py`` checks it on every machine it runs on): with
these settings, three training steps end in the same weights, bit for bit, whether MKL and oneDNN may use
AVX-512 and AMX or are held to AVX2 (``MKL_ENABLE_INSTRUCTIONS``, ``ONEDNN_MAX_CPU_ISA``: what an AVX2-only CPU
offers them); without them each of those restrictions, ATen's kernel choice and the thread count each change
the weights. MKL and ATen read their settings when they start, so a portable run trains in a fresh process
(:func:`run_portably`) started with :data:`PORTABLE_ENVIRONMENT`; a process already so started trains in place.
A CPU without AVX2, or not x86 (an ARM laptop), cannot run these kernels: its run says so, and its model is the
same only on machines of its kind. GPUs are not covered (``--portable`` trains on the CPU).

>>> sorted(PORTABLE_ENVIRONMENT)
['ATEN_CPU_CAPABILITY', 'MKL_CBWR', 'MKL_NUM_THREADS', 'OMP_NUM_THREADS']
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, cast

#: Threads of a portable run, whatever the machine's cores.
PORTABLE_THREADS = 2
#: What a portable run's process starts with (read by ATen, MKL and OpenMP when they start).
PORTABLE_ENVIRONMENT: Mapping[str, str] = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_CBWR": "COMPATIBLE",
    "OMP_NUM_THREADS": str(PORTABLE_THREADS),
    "MKL_NUM_THREADS": str(PORTABLE_THREADS),
}
#: The environment variable that tells the portable process which file descriptor its answer goes to.
ANSWER_FD = "WSD_PORTABLE_ANSWER_FD"
#: The ATen capability a portable run must find (``torch.backends.cpu.get_cpu_capability()``).
PORTABLE_CAPABILITY = "AVX2"


def started_portable(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this process was started with :data:`PORTABLE_ENVIRONMENT`.

    Parameters
    ----------
    environ : mapping, optional
        The environment (default: ``os.environ``).

    Returns
    -------
    bool

    Examples
    --------
    >>> started_portable({}), started_portable(dict(PORTABLE_ENVIRONMENT))
    (False, True)
    """
    environ = os.environ if environ is None else environ
    return all(environ.get(name) == value for name, value in PORTABLE_ENVIRONMENT.items())


@contextmanager
def portable_arithmetic() -> Iterator[dict[str, Any]]:
    """Run the block with oneDNN off and :data:`PORTABLE_THREADS` threads; yield what the run records.

    Called in a process :func:`started_portable`. The record (``wsd_tune.json`` → ``training.arithmetic``) says
    whether the arithmetic is the portable one: ``capability`` is ATen's kernel set, and a CPU that cannot run
    the AVX2 kernels gets ``portable: False`` with the reason.

    Yields
    ------
    dict
        ``portable``, ``capability``, ``threads``, ``onednn``, ``mkl_cbwr`` (and ``reason`` when not portable).
    """
    import torch

    capability = torch.backends.cpu.get_cpu_capability()
    threads = torch.get_num_threads()
    torch.set_num_threads(PORTABLE_THREADS)
    record: dict[str, Any] = {
        "portable": capability == PORTABLE_CAPABILITY and started_portable(),
        "capability": capability,
        "threads": PORTABLE_THREADS,
        "onednn": False,
        "mkl_cbwr": os.environ.get("MKL_CBWR"),
    }
    if capability != PORTABLE_CAPABILITY:
        record["reason"] = (
            f"this CPU runs PyTorch's {capability} kernels, not the AVX2 ones: the model is the same only on "
            "machines of this kind"
        )
    # set_flags touches only what it is given (the flags() context also sets TF32, which warns on a CPU)
    onednn = torch.backends.mkldnn.set_flags(_enabled=False, _fp32_precision=None)[0]
    try:
        yield record
    finally:
        torch.backends.mkldnn.set_flags(_enabled=onednn, _fp32_precision=None)
        torch.set_num_threads(threads)


def arithmetic_record() -> dict[str, Any]:
    """What a run that is not portable records: ATen's kernel set and the threads.

    Returns
    -------
    dict
        ``portable`` (False), ``capability``, ``threads``, ``onednn``.
    """
    import torch

    return {
        "portable": False,
        "capability": torch.backends.cpu.get_cpu_capability(),
        "threads": torch.get_num_threads(),
        "onednn": bool(torch.backends.mkldnn.enabled),
    }


def serve() -> None:
    """The portable process's entry point: read a job from standard input, run it, answer on the answer pipe.

    The job (the caller's ``sys.path``, then the function and its arguments) comes pickled from
    :func:`run_portably`, the caller that started this process, over a pipe; the answer (``("done", result)`` or
    what it raised) goes back pickled on the file descriptor named by ``$WSD_PORTABLE_ANSWER_FD``. Nothing is read
    from disk.
    """
    import pickle

    from wsd.errors import WsdError

    sys.path[:] = pickle.load(sys.stdin.buffer)  # first: the job's module is found where the caller found it
    answer: tuple[Any, ...]
    try:
        job, args, kwargs = pickle.load(sys.stdin.buffer)
        answer = ("done", job(*args, **kwargs))
    except KeyboardInterrupt as exc:  # TrainingInterrupted among them: its message says what was saved
        answer = ("interrupted", type(exc).__name__, str(exc))
    except WsdError as exc:
        answer = ("error", type(exc).__module__, type(exc).__qualname__, str(exc))
    except BaseException:  # anything else: its traceback crosses into the caller's error
        answer = ("failed", traceback.format_exc())
    with os.fdopen(int(os.environ[ANSWER_FD]), "wb") as channel:
        pickle.dump(answer, channel)


def run_portably(job: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``job(*args, **kwargs)`` in a fresh Python process started with :data:`PORTABLE_ENVIRONMENT`; its result.

    The process inherits the caller's environment with :data:`PORTABLE_ENVIRONMENT` added, its ``sys.path``, and
    its standard output and error (a progress bar shows as usual). It runs :func:`serve`, not the caller's main
    module, so a script need not guard its top level. ``job`` (a module-level function), its arguments and its
    result cross between the processes over pipes. Ctrl-C reaches the process too (it is passed on when only the
    caller got it): the job stops as it does on Ctrl-C (training saves a checkpoint), and the caller raises what
    it raised.

    Parameters
    ----------
    job : callable
        What to run (e.g. :func:`wsd.tune.api.tune_encoder`).
    *args, **kwargs
        Its arguments.

    Returns
    -------
    Any
        What ``job`` returned.

    Raises
    ------
    WsdError
        The error ``job`` raised (the same class, the same message).
    KeyboardInterrupt
        When the job was interrupted (:class:`wsd.tune.train.TrainingInterrupted` for a training run).
    RuntimeError
        When it failed otherwise, with its traceback, or the process ended without an answer.
    """
    import pickle
    import subprocess

    reader, writer = os.pipe()
    environment = {**os.environ, **PORTABLE_ENVIRONMENT, ANSWER_FD: str(writer)}
    command = [sys.executable, "-c", "from wsd.tune.portable import serve; serve()"]
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, env=environment, pass_fds=(writer,))
    finally:
        os.close(writer)
    with os.fdopen(reader, "rb") as channel:
        try:
            try:
                with cast(IO[bytes], process.stdin) as job_pipe:
                    pickle.dump(list(sys.path), job_pipe)
                    pickle.dump((job, args, kwargs), job_pipe)
            except BrokenPipeError:  # the process died before it read its job: its exit code says so below
                pass
            answer = _read_answer(channel)
        except KeyboardInterrupt:  # the terminal's Ctrl-C reached both; one sent to this process only is passed on
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
            answer = _answer_after_interrupt(channel)
        finally:
            exitcode = process.wait()
    return _unpack(answer, exitcode)


def _read_answer(channel: Any) -> Any:
    """The pickled answer on the pipe, or None when the process closed it without one (it died)."""
    import pickle

    try:
        return pickle.load(channel)
    except EOFError:
        return None


def _answer_after_interrupt(channel: Any) -> Any:
    """Wait for the interrupted process's answer (it saves a checkpoint first); a second Ctrl-C stops waiting."""
    try:
        return _read_answer(channel) or ("interrupted", "KeyboardInterrupt", "")
    except KeyboardInterrupt:
        return ("interrupted", "KeyboardInterrupt", "")


def _unpack(answer: Any, exitcode: int | None) -> Any:
    """The job's result, or what it raised, raised here."""
    if answer is None:
        raise RuntimeError(f"the portable training process ended without an answer (exit code {exitcode})")
    kind = answer[0]
    if kind == "done":
        return answer[1]
    if kind == "interrupted":
        from wsd.tune.train import TrainingInterrupted

        raise TrainingInterrupted(answer[2]) if answer[1] == "TrainingInterrupted" else KeyboardInterrupt()
    if kind == "error":
        raise _wsd_error(answer[1], answer[2], answer[3])
    raise RuntimeError(f"the portable training process failed:\n{answer[1]}")


def _wsd_error(module: str, name: str, message: str) -> Exception:
    """The wsd error class ``module.name`` with ``message`` (a ConfigError where the class is not wsd's own)."""
    import importlib

    from wsd.errors import ConfigError, WsdError

    found: Any = None
    if module == "wsd" or module.startswith("wsd."):
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:
            found = None
    if isinstance(found, type) and issubclass(found, WsdError):
        try:
            return found(message)
        except TypeError:  # a class whose constructor takes more than the message
            pass
    return ConfigError(message)
