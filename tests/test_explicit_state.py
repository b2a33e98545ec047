"""Hidden state made explicit: caches bounded and locked, warnings that keep their class across processes,
no process-wide replacement of ``warnings.showwarning``, and the forward-pass protocol of both runtimes."""

from __future__ import annotations

import functools
import pickle
import threading
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from wsd import executors
from wsd.corpus import metadata
from wsd.senses import clusterers


# ------------------------------------------------------------------------------------------------ warnings
def _across_processes(func, item):
    """What a worker process sends back for ``func(item)``, after the trip through pickle."""
    return pickle.loads(pickle.dumps(executors._call_capturing_warnings(func, item)))


def test_a_warning_from_a_worker_keeps_its_class():
    outcome = _across_processes(functools.partial(warnings.warn, category=ConvergenceWarning), "did not converge")
    with pytest.warns(ConvergenceWarning, match="did not converge") as caught:
        executors._rewarn(outcome)
    assert [w.category for w in caught] == [ConvergenceWarning], "raised once, as scikit-learn's class"


# the worker, played in this process: its DeprecationWarning is attributed to wsd.executors (the partial has no frame
# of its own), which the suite's filter for wsd's own warnings (pyproject.toml) would make an error
@pytest.mark.filterwarnings("always::DeprecationWarning")
def test_a_warning_class_that_cannot_be_imported_falls_back_to_its_nearest_importable_base():
    class Local(DeprecationWarning):  # defined in a function: no process can import it by name
        pass

    outcome = _across_processes(functools.partial(warnings.warn, category=Local), "old")
    with pytest.warns(DeprecationWarning, match="old") as caught:
        executors._rewarn(outcome)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert executors._warning_class(["no_such_module_xyz:Gone"]) is UserWarning, "nothing importable: UserWarning"
    assert executors._warning_class(["builtins:len"]) is UserWarning, "not a warning class: UserWarning"


def test_capturing_a_task_warnings_leaves_the_process_handler_alone():
    before = warnings.showwarning
    result, captured = executors._call_capturing_warnings(functools.partial(warnings.warn, stacklevel=1), "careful")
    assert result is None and [message for _, message in captured] == ["careful"]
    assert warnings.showwarning is before, "warnings.showwarning is put back when the task ends"

    def failing(_):
        warnings.warn("first", stacklevel=1)
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        executors._call_capturing_warnings(failing, None)
    assert warnings.showwarning is before, "also when the task raises"


def test_a_task_captures_only_its_own_thread_warnings_and_other_threads_warn_as_before():
    started, release = threading.Event(), threading.Event()
    outside: list[str] = []

    def task(_):
        warnings.warn("inside", stacklevel=1)
        started.set()
        release.wait(10)
        return "done"

    def shown(message, category, filename, lineno, file=None, line=None):
        outside.append(str(message))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = shown
        holder: list = []
        worker = threading.Thread(target=lambda: holder.append(executors._call_capturing_warnings(task, None)))
        worker.start()
        assert started.wait(10)
        warnings.warn("elsewhere", stacklevel=1)  # this thread runs no task: its handler shows it
        release.set()
        worker.join(10)
        assert warnings.showwarning is shown, "the handler in place before the task is back"
    assert outside == ["elsewhere"]
    result, captured = holder[0]
    assert result == "done" and [message for _, message in captured] == ["inside"]


# ------------------------------------------------------------------------------------------------ caches
def test_ward_trees_are_kept_per_matrix_up_to_a_bound(monkeypatch):
    import sklearn.cluster

    built = []
    real = sklearn.cluster.ward_tree

    def counting(X, *args, **kwargs):
        built.append(len(X))
        return real(X, *args, **kwargs)

    monkeypatch.setattr(sklearn.cluster, "ward_tree", counting)
    rng = np.random.default_rng(0)
    a, b, c = (rng.normal(size=(n, 3)) for n in (5, 6, 7))
    cache = clusterers.WardTreeCache(maxsize=2)
    first = clusterers.ward_tree_of(a, cache=cache)
    clusterers.ward_tree_of(b, cache=cache)
    again = clusterers.ward_tree_of(a, cache=cache)  # two words clustered in turn: both trees kept
    assert built == [5, 6] and again is first
    clusterers.ward_tree_of(c, cache=cache)  # b is the least recently used: dropped
    clusterers.ward_tree_of(b, cache=cache)
    assert built == [5, 6, 7, 6] and len(cache) == 2
    assert isinstance(clusterers.WARD_TREES, clusterers.WardTreeCache), "the shared default is bounded too"


def test_ward_trees_are_safe_to_build_from_many_threads():
    rng = np.random.default_rng(1)
    matrices = [rng.normal(size=(8 + i % 5, 3)) for i in range(40)]
    expected = [clusterers.WardTreeCache().tree(X) for X in matrices]
    cache = clusterers.WardTreeCache(maxsize=3)
    results: list = [None] * len(matrices)
    errors: list = []
    barrier = threading.Barrier(8)

    def work(start):
        barrier.wait()
        try:
            for i in range(start, len(matrices), 8):
                results[i] = clusterers.ward_tree_of(matrices[i], cache=cache)
        except Exception as error:  # pragma: no cover - what the test is for
            errors.append(error)

    threads = [threading.Thread(target=work, args=(start,)) for start in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    for got, want in zip(results, expected, strict=True):
        assert np.array_equal(got[0], want[0]) and got[1] == want[1]
    assert len(cache) <= 3


def test_the_path_regex_cache_is_bounded():
    metadata._compiled.cache_clear()
    for i in range(metadata.REGEX_CACHE_SIZE + 50):
        assert metadata._compiled(rf"^(?P<year>\d{{4}})/{i}").pattern.endswith(f"/{i}")
    assert metadata._compiled.cache_info().currsize == metadata.REGEX_CACHE_SIZE
    assert metadata._compiled("(a)") is metadata._compiled("(a)"), "a regex is compiled once"


# ------------------------------------------------------------------------------------------------ protocol
def test_both_forward_runtimes_follow_the_forward_pass_protocol(tmp_path):
    from wsd.embed.forward import ForwardPass
    from wsd.embed.models import TorchForward, torch_device
    from wsd.embed.ov_runtime import OpenVinoForward

    torch_forward = TorchForward(None, torch_device("cpu"), "fp32", 6)
    openvino_forward = OpenVinoForward(tmp_path, "key", "fp32", lambda: None, threads=1)
    for forward in (torch_forward, openvino_forward):
        assert isinstance(forward, ForwardPass)
        assert forward.seconds == 0.0 and forward.compile_s == 0.0
        with forward.session():
            pass
    assert (torch_forward.name, openvino_forward.name) == ("torch", "openvino")
    assert not isinstance(object(), ForwardPass)
