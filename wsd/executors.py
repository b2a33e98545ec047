"""Where units of work run: here, on a local pool of processes, or on a Dask cluster — one interface.

Every stage that repeats one job over many items (the embedding driver over corpus shards, the sense stage
over target words) hands a module-level function and its items to an :class:`Executor`:

* :class:`SerialExecutor` — one item after another in this process (the default; no extra dependency);
* :class:`LocalProcessExecutor` — a pool of ``workers`` processes on this machine;
* :class:`DaskExecutor` — the workers of a Dask cluster (an existing one at ``scheduler``, or a local one of
  ``workers`` processes); Dask is imported only when this executor is used.

An executor maps a function over items and yields the results as they complete (:meth:`Executor.imap`), or
returns them in input order (:meth:`Executor.map`, also what calling the executor does, so an executor is a
:data:`MapFunction`). The first error of an item stops the map and is raised here. Warnings raised by the
function in another process come back with its result and are raised again here. A worker process keeps the
objects it loaded (encoders, matchers) for its later items: :func:`cached`.

>>> with make_executor(workers=2) as executor:        # doctest: +SKIP
...     executor.map(len, ["mouse", "bank"])
[5, 4]
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import multiprocessing
import os
import sys
import threading
import uuid
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent import futures as cf
from typing import Any

from tqdm.auto import tqdm

from wsd.errors import ConfigError

#: ``map_function(func, items) -> results in input order``, like ``list(map(func, items))``.
MapFunction = Callable[[Callable[[Any], Any], list[Any]], list[Any]]

DEFAULT_RETRIES = 3
CONNECT_TIMEOUT = "30s"
CACHE_SIZE = 2  # objects of one kind a process keeps (e.g. encoders); an older one is dropped for a new one
EXECUTORS = ("serial", "processes", "dask")


# ------------------------------------------------------------------------------------------------ interface
class Executor:
    """Runs a function over items; the base of every executor.

    Use it as a context manager to keep its workers (a process pool, a Dask client) for several maps;
    without ``with``, each map starts and stops them. Subclasses implement :meth:`_run`.

    Attributes
    ----------
    in_process : bool
        True when items run in this process (objects such as a loaded encoder can be shared with them).
    name : str
        ``serial``, ``processes`` or ``dask`` (recorded in a run's metadata).
    """

    in_process = False
    name = "executor"

    def __init__(self) -> None:
        self._depth = 0

    def __enter__(self) -> Executor:
        if self._depth == 0:
            self._start()
        self._depth += 1
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._stop()

    def _start(self) -> None:
        """Acquire the workers (a pool, a client)."""

    def _stop(self) -> None:
        """Release what :meth:`_start` acquired."""

    @property
    def workers(self) -> int:
        """Number of workers items run on (1 for the serial executor).

        Returns
        -------
        int
        """
        return 1

    def imap(
        self, func: Callable[[Any], Any], items: Iterable[Any], *, progress: str | None = None, total: int | None = None
    ) -> Iterator[tuple[int, Any]]:
        """``(position, func(item))`` for every item, in the order they complete.

        Parameters
        ----------
        func : callable
            A function of one item; for the process and Dask executors it must be picklable (a module-level
            function or a ``functools.partial`` of one).
        items : iterable
            The items; each travels with its task, so keep them small.
        progress : str, optional
            Unit name of a progress bar (none when None).
        total : int, optional
            The bar's total when more items were done before (default: the number of items).

        Returns
        -------
        iterator of (int, object)
            Positions in ``items`` and results. The first item that raises stops the map: the others are
            cancelled and its exception is raised here.
        """
        items = list(items)
        count = len(items) if total is None else total
        bar = tqdm(total=count, initial=count - len(items), unit=progress or "item", disable=progress is None)
        try:
            with self:
                for position, result in self._run(func, items):
                    bar.update()
                    yield position, result
        finally:
            bar.close()

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], *, progress: str | None = None) -> list[Any]:
        """``[func(item) for item in items]``, run by this executor; results in input order.

        Parameters
        ----------
        func : callable
            A function of one item (picklable for the process and Dask executors).
        items : iterable
            The items.
        progress : str, optional
            Unit name of a progress bar (none when None).

        Returns
        -------
        list
            The results, in the order of ``items``.
        """
        items = list(items)
        results: list[Any] = [None] * len(items)
        for position, result in self.imap(func, items, progress=progress):
            results[position] = result
        return results

    def __call__(self, func: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        """The executor as a :data:`MapFunction`: :meth:`map` without a progress bar.

        Parameters
        ----------
        func : callable
            A function of one item.
        items : iterable
            The items.

        Returns
        -------
        list
            The results, in input order.
        """
        return self.map(func, items)

    def _run(self, func: Callable[[Any], Any], items: list[Any]) -> Iterator[tuple[int, Any]]:
        raise NotImplementedError


class SerialExecutor(Executor):
    """Items one after another in this process (no pool, no extra dependency).

    Examples
    --------
    >>> SerialExecutor().map(len, ["mouse", "bank"])
    [5, 4]
    """

    in_process = True
    name = "serial"

    def _run(self, func: Callable[[Any], Any], items: list[Any]) -> Iterator[tuple[int, Any]]:
        for position, item in enumerate(items):
            yield position, func(item)


class LocalProcessExecutor(Executor):
    """A pool of worker processes on this machine (started fresh: ``spawn``, so no state is inherited).

    Parameters
    ----------
    workers : int, optional
        Worker processes (default: one per core).
    threads_per_worker : int
        Math threads of each worker (PyTorch, BLAS), so that the workers together use the cores once.

    Examples
    --------
    >>> with LocalProcessExecutor(workers=2) as executor:   # doctest: +SKIP
    ...     executor.map(len, ["mouse", "bank"])
    [5, 4]
    """

    name = "processes"

    def __init__(self, workers: int | None = None, threads_per_worker: int = 1) -> None:
        super().__init__()
        _check_counts(workers, threads_per_worker)
        self.count = workers if workers is not None else max(1, (os.cpu_count() or 1) // threads_per_worker)
        self.threads_per_worker = threads_per_worker
        self._pool: cf.ProcessPoolExecutor | None = None

    @property
    def workers(self) -> int:
        """Number of worker processes.

        Returns
        -------
        int
        """
        return self.count

    def _start(self) -> None:
        self._pool = cf.ProcessPoolExecutor(
            max_workers=self.count,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_pool_worker,
            initargs=(self.threads_per_worker,),
        )

    def _stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _run(self, func: Callable[[Any], Any], items: list[Any]) -> Iterator[tuple[int, Any]]:
        assert self._pool is not None
        task = functools.partial(_call_capturing_warnings, func)
        pending = {self._pool.submit(task, item): position for position, item in enumerate(items)}
        try:
            for future in cf.as_completed(pending):
                yield pending[future], _rewarn(future.result())
        finally:
            for future in pending:
                future.cancel()


class DaskExecutor(Executor):
    """The workers of a Dask cluster: a running one at ``scheduler``, or a local one of ``workers`` processes.

    Parameters
    ----------
    scheduler : str or distributed.Client, optional
        Address of a running scheduler (``tcp://host:8786``) or a client (used as it is, never closed).
    workers : int, optional
        Processes of a local cluster started for the executor (default: one per core).
    threads_per_worker : int
        Threads of each local worker.
    retries : int
        How many times a failed task is tried again (on another worker when one was lost).

    Examples
    --------
    >>> with DaskExecutor(scheduler="tcp://head-node:8786") as executor:   # doctest: +SKIP
    ...     executor.map(len, ["mouse", "bank"])
    [5, 4]
    """

    name = "dask"

    def __init__(
        self,
        scheduler: str | Any | None = None,
        workers: int | None = None,
        threads_per_worker: int = 1,
        retries: int = DEFAULT_RETRIES,
    ) -> None:
        super().__init__()
        if scheduler is not None and workers is not None:
            raise ConfigError("give either a scheduler address (an existing cluster) or a number of local workers")
        _check_counts(workers, threads_per_worker)
        if retries < 0:
            raise ConfigError(f"retries must be at least 0, not {retries}")
        self.scheduler = scheduler
        self.count = workers
        self.threads_per_worker = threads_per_worker
        self.retries = retries
        self.client: Any = None
        self._stack: contextlib.ExitStack | None = None

    @property
    def workers(self) -> int:
        """Number of workers of the cluster (0 before it is started).

        Returns
        -------
        int
        """
        if self.client is None:
            return 0
        return len(self.client.scheduler_info().get("workers", {}))

    def _start(self) -> None:
        self._stack = contextlib.ExitStack()
        self.client = self._stack.enter_context(open_client(self.scheduler, self.count, self.threads_per_worker))

    def _stop(self) -> None:
        if self._stack is not None:
            self._stack.close()
        self._stack, self.client = None, None

    def _run(self, func: Callable[[Any], Any], items: list[Any]) -> Iterator[tuple[int, Any]]:
        distributed = require_dask()
        token = uuid.uuid4().hex[:8]
        name = getattr(func, "__name__", None) or getattr(getattr(func, "func", None), "__name__", "task")
        task = functools.partial(_call_capturing_warnings, func)
        pending = {}
        for position, item in enumerate(items):
            key = f"wsd-{name}-{position:05d}-{token}"
            pending[self.client.submit(task, item, key=key, retries=self.retries, pure=False)] = position
        try:
            for future in distributed.as_completed(pending):
                yield pending[future], _rewarn(future.result())
        finally:
            self.client.cancel(list(pending))


def make_executor(
    executor: Executor | str | None = None,
    *,
    scheduler: str | Any | None = None,
    workers: int | None = None,
    threads_per_worker: int = 1,
    retries: int = DEFAULT_RETRIES,
) -> Executor:
    """The executor a stage was asked for.

    Parameters
    ----------
    executor : Executor or {"serial", "processes", "dask"}, optional
        An executor (used as it is), or its name. Default: ``dask`` when ``scheduler`` or ``workers`` is
        given (the command line's ``--scheduler``/``--workers``), else ``serial``.
    scheduler, workers, threads_per_worker, retries
        Options of :class:`DaskExecutor` (``workers`` and ``threads_per_worker`` also of
        :class:`LocalProcessExecutor`).

    Returns
    -------
    Executor

    Examples
    --------
    >>> make_executor().name
    'serial'
    >>> make_executor("processes", workers=2).workers
    2
    """
    if isinstance(executor, Executor):
        if scheduler is not None or workers is not None:
            raise ConfigError("give either an executor or scheduler/workers, not both")
        return executor
    if executor is None:
        executor = "dask" if scheduler is not None or workers is not None else "serial"
    if executor == "serial":
        if scheduler is not None or workers is not None:
            raise ConfigError("the serial executor runs in this process: it takes no scheduler or workers")
        return SerialExecutor()
    if executor == "processes":
        if scheduler is not None:
            raise ConfigError("the processes executor runs on this machine: give workers, not a scheduler")
        return LocalProcessExecutor(workers, threads_per_worker)
    if executor == "dask":
        return DaskExecutor(scheduler, workers, threads_per_worker, retries)
    raise ConfigError(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")


def _check_counts(workers: int | None, threads_per_worker: int) -> None:
    if workers is not None and workers < 1:
        raise ConfigError(f"workers must be at least 1, not {workers}")
    if threads_per_worker < 1:
        raise ConfigError(f"threads_per_worker must be at least 1, not {threads_per_worker}")


# ------------------------------------------------------------------------------------------------ Dask
def require_dask() -> Any:
    """The ``distributed`` module, or a :class:`ConfigError` saying how to install it.

    Returns
    -------
    module
    """
    try:
        import distributed
    except ImportError as exc:
        raise ConfigError("the Dask executor needs Dask: pip install 'wsd[dist]' (dask[distributed])") from exc
    return distributed


@contextlib.contextmanager
def open_client(
    scheduler: str | Any | None = None, workers: int | None = None, threads_per_worker: int = 1
) -> Iterator[Any]:
    """A Dask client for the duration of a ``with`` block.

    Parameters
    ----------
    scheduler : str or distributed.Client, optional
        Address of a running scheduler (``tcp://host:8786``), or a client (used as it is, not closed).
    workers : int, optional
        Without ``scheduler``: processes of the ``LocalCluster`` started (default: one per core) and shut
        down at the end.
    threads_per_worker : int
        Threads of each local worker.

    Returns
    -------
    context manager yielding a distributed.Client

    Examples
    --------
    >>> with open_client(workers=2) as client:   # doctest: +SKIP
    ...     client.submit(sum, [1, 2]).result()
    3
    """
    distributed = require_dask()
    if scheduler is not None and workers is not None:
        raise ConfigError("give either a scheduler address (an existing cluster) or a number of local workers")
    _check_counts(workers, threads_per_worker)
    if scheduler is not None and not isinstance(scheduler, str):
        yield scheduler
        return
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise ConfigError(f"cannot connect to the Dask scheduler at {scheduler}: {exc}") from exc
        with client:
            yield client
        return
    count = workers if workers is not None else max(1, (os.cpu_count() or 1) // threads_per_worker)
    with local_worker_environment():
        cluster = distributed.LocalCluster(
            n_workers=count, threads_per_worker=threads_per_worker, processes=True, dashboard_address=None
        )
    with cluster, distributed.Client(cluster) as client:
        yield client


def local_worker_environment() -> contextlib.AbstractContextManager:
    """Dask settings under which to start worker processes for wsd (a context manager).

    Dask starts each worker process with ``MALLOC_TRIM_THRESHOLD_=65536``, which turns off glibc's adaptive
    mmap threshold: PyTorch's large CPU buffers are then mapped and unmapped at every forward pass, and
    embedding is about a third slower (measured in
    ``experiments/results/bench_distributed/bench_distributed.md``). Workers
    started under this context go without it; Dask's ``OMP_NUM_THREADS=1`` (one math thread per worker
    thread) stays. For workers started by hand, see the docs page Dask (``docs/dask.md``: ``pre-spawn-environ``
    in the Dask config).

    Returns
    -------
    context manager
    """
    require_dask()
    import dask

    return dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})


# ------------------------------------------------------------------------------------------------ in workers
_CACHE: dict[str, Any] = {}
_CACHE_LOCK = threading.RLock()
_LOADS: Counter = Counter()
_CAPTURE = threading.local()


def cached(kind: str, config: Mapping[str, Any], build: Callable[[], Any]) -> Any:
    """The object of ``kind`` built from ``config``: built once per process, reused by its later tasks.

    At most :data:`CACHE_SIZE` objects of a kind are kept (the oldest is dropped for a new one).

    Parameters
    ----------
    kind : str
        What is cached (``encoder``, ``matcher``).
    config : mapping
        JSON-ready options that identify the object.
    build : callable
        Makes the object when it is not cached.

    Returns
    -------
    object
    """
    key = kind + ":" + json.dumps(config, sort_keys=True, default=str)
    with _CACHE_LOCK:
        if key not in _CACHE:
            same_kind = [k for k in _CACHE if k.startswith(kind + ":")]
            for old in same_kind[: max(0, len(same_kind) - CACHE_SIZE + 1)]:
                del _CACHE[old]
            _CACHE[key] = build()
            _LOADS[kind] += 1
        return _CACHE[key]


def cache_info() -> dict[str, int]:
    """How many objects of each kind this process has built with :func:`cached` (run it on the workers).

    Returns
    -------
    dict
        ``{kind: count}``, e.g. ``{"encoder": 1, "matcher": 1}``.

    Examples
    --------
    >>> client.run(cache_info)   # doctest: +SKIP
    {'tcp://127.0.0.1:40001': {'encoder': 1, 'matcher': 1}, ...}
    """
    with _CACHE_LOCK:
        return dict(_LOADS)


def _init_pool_worker(threads: int) -> None:
    """Initializer of a local pool's process: its math libraries use ``threads`` threads."""
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[name] = str(threads)
    torch = sys.modules.get("torch")  # already imported by the parent's main module: set it directly
    if torch is not None:
        torch.set_num_threads(threads)


#: A warning a task raised, as it travels back: the ``module:qualname`` of its class and of the class's
#: :class:`Warning` bases (the most specific first; classes defined inside a function left out), and its message.
CapturedWarning = tuple[tuple[str, ...], str]


class _WarningRouter:
    """Sends a warning raised in a thread that runs a task to that task's list; any other goes where it went.

    It is ``warnings.showwarning`` only while some task runs (counted across threads, under a lock): the first
    task to start installs it, the last to end puts the handler that was there before back, so the process's
    warning handling is never replaced for longer than its tasks run.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tasks = 0
        self._previous: Callable[..., Any] = warnings.showwarning
        self._hook: Callable[..., Any] = self._show  # one bound method, so that it can be recognised by identity

    def _show(self, message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        records = getattr(_CAPTURE, "records", None)
        if records is None:  # a thread that runs no task (or a task's own helper without carry_warning_capture)
            self._previous(message, category, *args, **kwargs)
            return
        records.append((_class_names(category), str(message)))

    @contextlib.contextmanager
    def capturing(self) -> Iterator[list[CapturedWarning]]:
        """Collect the warnings this thread raises inside the ``with`` block into the list it yields."""
        with self._lock:
            if self._tasks == 0 and warnings.showwarning is not self._hook:  # (a catch_warnings may put it back)
                self._previous = warnings.showwarning
                warnings.showwarning = self._hook
            self._tasks += 1
        outer = getattr(_CAPTURE, "records", None)
        records: list[CapturedWarning] = []
        _CAPTURE.records = records
        try:
            yield records
        finally:
            _CAPTURE.records = outer
            with self._lock:
                self._tasks -= 1
                if self._tasks == 0 and warnings.showwarning is self._hook:  # one set later by others stays
                    warnings.showwarning = self._previous


_ROUTER = _WarningRouter()


def _class_names(category: type[Warning]) -> tuple[str, ...]:
    """Where ``category`` and its warning bases can be imported from, as ``module:qualname``, most specific first."""
    return tuple(
        f"{cls.__module__}:{cls.__qualname__}"
        for cls in category.__mro__
        if issubclass(cls, Warning) and "<locals>" not in cls.__qualname__
    )


def _warning_class(names: Iterable[str]) -> type[Warning]:
    """The first of ``names`` (``module:qualname``) that imports as a warning class; :class:`UserWarning` if none."""
    for name in names:
        module_name, _, qualname = name.partition(":")
        try:
            found: Any = sys.modules.get(module_name) or importlib.import_module(module_name)
            for part in qualname.split("."):
                found = getattr(found, part)
        except Exception:  # a module this process cannot import (another environment on a cluster's worker)
            continue
        if isinstance(found, type) and issubclass(found, Warning):
            return found
    return UserWarning


def _call_capturing_warnings(func: Callable[[Any], Any], item: Any) -> tuple[Any, list[CapturedWarning]]:
    """Run ``func(item)`` in a worker; return its result with the warnings it raised."""
    with _ROUTER.capturing() as captured:
        result = func(item)
    return result, captured


def carry_warning_capture(items: Iterable[Any]) -> Iterator[Any]:
    """``items``, advanced in any thread as if in this one: warnings go where this thread's would go.

    A task that hands an iterator to a helper thread (to read ahead) wraps it with this, so that warnings
    raised while reading still come back to the caller with the task's result.

    Parameters
    ----------
    items : iterable
        Items produced lazily (e.g. a generator that reads a corpus).

    Returns
    -------
    iterator
        The same items.
    """
    records = getattr(_CAPTURE, "records", None)
    iterator = iter(items)
    if records is None:
        return iterator

    def carried() -> Iterator[Any]:
        while True:
            previous = getattr(_CAPTURE, "records", None)
            _CAPTURE.records = records
            try:
                item = next(iterator)
            except StopIteration:
                return
            finally:
                _CAPTURE.records = previous
            yield item

    return carried()


def _rewarn(outcome: tuple[Any, list[CapturedWarning]]) -> Any:
    """Raise here the warnings a worker captured, each with its class; return its result."""
    result, captured = outcome
    for names, message in captured:
        warnings.warn(message, _warning_class(names), 2)
    return result
