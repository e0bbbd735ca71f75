"""Run the cells of a sweep in parallel, locally (joblib/loky) or on a Dask cluster.

A *cell* is a dict of JSON parameters (recipe id, sweep value, replicate block, seed, ...);
its key is :func:`dptheory.store.cell_key`. :func:`run_cells` maps a picklable top-level
function over the cells and streams each result back as soon as it finishes; with a
:class:`~dptheory.store.Store` every result is committed at once, so a crash (even SIGKILL)
loses at most the cells in flight, and calling :func:`run_cells` again with the same
``run_id`` computes only the cells that are not finished (``Store.pending``).

Randomness never depends on the worker count, the scheduler or the order of completion:
each cell carries its own seed. :func:`cell_seed` derives it from a base seed and the
cell's key as ``SeedSequence(base_seed, spawn_key=<sha256 of the key as 32-bit words>)``
(a stable hash: Python's ``hash()`` is salted per process and must never be used), and
:func:`seed_cells` adds it to cells that have none.

Local workers (loky processes) watch the process that started the sweep from the moment
they start (loky's initializer) and exit once it is dead, so a SIGKILLed ``dptheory
verify`` leaves no orphan computing on (:func:`_watch_parent`): a busy worker within 0.1 s
of the look that sees the death (0.09-0.16 s measured on 2 loaded cores), a worker still
starting up once it has imported its modules (2.0-2.4 s measured; see
benchmarks/bench_orphan_exit.py).

Results come back as they would from the store (JSON round-trip: float64 exact, tuples as
lists, numpy arrays kept as arrays), whether computed now or read from an earlier attempt,
so a resumed run returns exactly what an uninterrupted one does.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import pickle
import socket
import sys
import threading
import time
import traceback
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence
from urllib.parse import urlsplit

import numpy as np

from dptheory.store import Store, cell_key, dumps, loads

__all__ = ["CellResults", "cell_seed", "seed_cells", "run_cells"]


# ---------------------------------------------------------------------------- seeding
def _key_words(key: str) -> tuple[int, ...]:
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return tuple(int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4))


def cell_seed(base_seed: int, key: str | Mapping[str, Any]) -> int:
    """The seed of a cell: an int in [0, 2**63) from ``SeedSequence(base_seed, spawn_key=h)``,
    ``h`` the SHA-256 of the cell key read as eight 32-bit words.

    ``key`` is a cell key (string) or the cell's parameters (a mapping, keyed with
    :func:`cell_key`). The result is the same on every machine, process and Python version.
    """
    if isinstance(base_seed, bool) or not isinstance(base_seed, (int, np.integer)) or base_seed < 0:
        raise ValueError(f"base_seed must be a non-negative integer, got {base_seed!r}")
    if isinstance(key, Mapping):
        key = cell_key(key)
    if not isinstance(key, str):
        raise ValueError(f"key must be a cell key (str) or a mapping, got {type(key).__name__}")
    ss = np.random.SeedSequence(int(base_seed), spawn_key=_key_words(key))
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def seed_cells(cells: Iterable[Mapping[str, Any]], base_seed: int,
               field: str = "seed") -> list[dict[str, Any]]:
    """Copies of ``cells`` in which each cell without ``field`` gets
    ``cell_seed(base_seed, <key of the cell without it>)``."""
    out = []
    for cell in cells:
        cell = dict(cell)
        if field not in cell:
            cell[field] = cell_seed(base_seed, cell_key(cell))
        out.append(cell)
    return out


# ---------------------------------------------------------------------------- workers
def _run_one(func: Callable[[dict[str, Any]], Any], cell: Mapping[str, Any],
             key: str) -> tuple[str, bool, Any, float, float]:
    """Runs in the worker: ``(key, ok, JSON text | error payload, wall time, CPU time)``.

    The result is encoded to JSON in the worker, so what travels back and what is stored are
    the same text whatever the backend. The CPU time is the worker process's (all its
    threads), so it measures the cell's work whatever else loads the machine.
    """
    start, cpu = time.perf_counter(), time.process_time()
    try:
        text = dumps(func(dict(cell)))
        return key, True, text, time.perf_counter() - start, time.process_time() - cpu
    except Exception as exc:  # reported to the caller with the cell that raised it
        payload = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        try:
            payload["exception"] = pickle.loads(pickle.dumps(exc))
        except Exception:
            pass
        return key, False, payload, time.perf_counter() - start, time.process_time() - cpu


# -- no orphans: a local worker exits when the process that started the sweep dies ---------
_WATCH_INTERVAL = 0.1      # seconds between two looks at the parent
_watching: int | None = None


def fork_available() -> bool:
    """Whether this process can fork workers that inherit its state (Linux, ``fork`` start
    method): the beside process of ``verify`` and the report's figure processes need it."""
    import multiprocessing
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _parent_gone(parent_pid: int, ppid_at_start: int) -> bool:
    if os.getppid() != ppid_at_start:            # reparented: the parent has died
        return True
    try:
        os.kill(parent_pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:                      # alive, owned by someone else
        return False
    return False


def _watch_parent(parent_pid: int) -> None:
    """Start (once per worker process) a daemon thread that ends the process as soon as
    ``parent_pid`` is gone: a SIGKILLed ``dptheory verify`` leaves no worker computing on."""
    global _watching
    if _watching == parent_pid or os.getpid() == parent_pid:
        return
    _watching = parent_pid
    ppid_at_start = os.getppid()

    def watch() -> None:
        while not _parent_gone(parent_pid, ppid_at_start):
            time.sleep(_WATCH_INTERVAL)
        os._exit(1)   # no cleanup: the results of an orphan have nowhere to go

    threading.Thread(target=watch, name="dptheory-parent-watch", daemon=True).start()


def _init_worker(parent_pid: int, path: tuple[str, ...]) -> None:
    """loky's initializer: the parent's ``sys.path`` (entries this worker lacks, in the
    parent's order before its own), then :func:`_watch_parent`."""
    sys.path[:] = list(path) + [p for p in sys.path if p not in path]
    importlib.invalidate_caches()
    _watch_parent(parent_pid)


def _run_in_worker(parent_pid: int, func: Callable[[dict[str, Any]], Any],
                   cell: Mapping[str, Any], key: str) -> tuple[str, bool, Any, float, float]:
    """:func:`_run_one` in a local worker process, watched by :func:`_watch_parent`."""
    _watch_parent(parent_pid)
    return _run_one(func, cell, key)


def _serial(func: Callable, todo: Sequence[tuple[dict, str]]) -> Iterator[tuple]:
    for cell, key in todo:
        yield _run_one(func, cell, key)


def _joblib(func: Callable, todo: Sequence[tuple[dict, str]], n_jobs: int) -> Iterator[tuple]:
    from joblib import Parallel, delayed, parallel_config
    parent = os.getpid()
    # the watch starts when a worker starts (loky's initializer), not at its first task: a
    # worker still waiting for work when the parent is killed exits too
    # the workers also take this process's sys.path: loky reuses its workers across calls
    # while the initializer's arguments are unchanged, and a worker started before a path
    # was added (a plugin's directory, a notebook's sys.path.insert) could not import the
    # cells' functions; a changed path gives new arguments, so new workers
    with parallel_config(backend="loky", initializer=_init_worker,
                         initargs=(parent, tuple(sys.path))):
        parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        gen = parallel(delayed(_run_in_worker)(parent, func, cell, key) for cell, key in todo)
    try:
        yield from gen
    finally:
        close = getattr(gen, "close", None)
        if close is not None:
            close()


def _check_reachable(address: str, timeout: float) -> None:
    parts = urlsplit(address)
    if parts.scheme not in ("tcp", "tls") or not parts.hostname or parts.port is None:
        return   # other protocols (inproc://, ucx://, ...) are left to distributed
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(f"cannot reach Dask scheduler at {address}: {exc}") from None


def _dask_client(address: str, timeout: float) -> Any:
    if not isinstance(address, str) or "://" not in address:
        raise ValueError(f"scheduler must be an address such as tcp://127.0.0.1:8786, got {address!r}")
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("scheduler given but dask.distributed is not installed; "
                         "install the extra: pip install 'dptheory[dask]'") from None
    _check_reachable(address, timeout)
    # Client's own timeout does not bound the handshake with a peer that accepts the TCP
    # connection but never answers, so the connection is made in a thread with a deadline.
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = Client(address, timeout=timeout, set_as_default=False)
        except BaseException as exc:  # noqa: BLE001 - reported to the caller below
            box["error"] = exc
        if box.get("abandoned") and "client" in box:
            box["client"].close()

    thread = threading.Thread(target=connect, name="dptheory-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 1.0)
    if thread.is_alive():
        box["abandoned"] = True
        raise ValueError(f"cannot reach Dask scheduler at {address}: no handshake within "
                         f"{timeout:g} s (is it a Dask scheduler?)")
    if "error" in box:   # refused, timed out, or something that is not a scheduler
        exc = box["error"]
        raise ValueError(f"cannot reach Dask scheduler at {address}: "
                         f"{type(exc).__name__}: {exc}") from None
    return box["client"]


def _dask(client: Any, func: Callable, todo: Sequence[tuple[dict, str]]) -> Iterator[tuple]:
    from distributed import as_completed
    futures = [client.submit(_run_one, func, cell, key, pure=False) for cell, key in todo]
    try:
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.cancel([f for f in futures if not f.done()])


# ---------------------------------------------------------------------------- driver
class CellResults(dict):
    """``{cell key: result}`` in the order of the cells, plus ``run_id`` (None without a
    store) and ``computed``: the keys computed by this call (the others came from the store)."""

    run_id: str | None
    computed: list[str]


def _progress_bar(total: int, initial: int, progress: bool, desc: str) -> Any:
    from dptheory.progress import bar
    return bar(total=total, initial=initial, desc=desc, unit="cell", show=bool(progress))


def run_cells(func: Callable[[dict[str, Any]], Any], cells: Iterable[Mapping[str, Any]], *,
              store: Store | None = None, run_id: str | None = None, n_jobs: int = -1,
              scheduler: str | None = None, progress: bool = True,
              base_seed: int | None = None, command: str = "",
              connect_timeout: float = 5.0) -> CellResults:
    """Map ``func`` over ``cells`` and return ``{cell key: result}``.

    ``func(cell) -> result`` must be a picklable top-level function (or a
    ``functools.partial`` of one) whose result is JSON-storable (see
    :func:`dptheory.store.dumps`); it must draw its randomness from the cell's seed only.

    * ``store`` / ``run_id``: with a store, each result is committed as soon as it arrives;
      a run id already in the store is resumed (only ``Store.pending`` cells are computed),
      a new or missing one is created. ``run_id`` without ``store`` is an error.
    * ``n_jobs``: joblib (loky processes) workers, ``-1`` for all cores; ``1`` runs serially
      in this process. Ignored with ``scheduler``.
    * ``scheduler``: address of a Dask distributed scheduler (``tcp://host:8786``); an
      unreachable one raises ``ValueError`` within ``connect_timeout`` seconds.
    * ``base_seed``: when given, cells without a ``seed`` get ``cell_seed(base_seed, key)``
      (:func:`seed_cells`) before keying.
    * ``progress``: a ``tqdm.auto`` bar, shown in a notebook or when stderr is a terminal.

    With a store and more than one worker, cells timed by an earlier run of the store (any
    run id) are started longest first, after the cells never timed; the order changes no
    result.

    When a cell raises, the error is stored as that cell's row (status ``error``, retried on
    resume), the run is marked ``failed`` and the exception is re-raised; cells finished
    before it stay stored. The results are identical for every backend and worker count.
    """
    if not callable(func):
        raise ValueError(f"func must be callable, got {type(func).__name__}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer (-1 for all cores), got {n_jobs!r}")
    if not (isinstance(connect_timeout, (int, float)) and 0 < connect_timeout <= 60):
        raise ValueError(f"connect_timeout must be in (0, 60] seconds, got {connect_timeout!r}")
    if run_id is not None and store is None:
        raise ValueError("run_id needs a store: pass store=Store(path)")
    if store is not None and not isinstance(store, Store):
        raise ValueError(f"store must be a dptheory.store.Store, got {type(store).__name__}")
    cells = [dict(c) if isinstance(c, Mapping) else c for c in cells]
    for i, c in enumerate(cells):
        if not isinstance(c, dict):
            raise ValueError(f"cells[{i}] must be a mapping of parameters, got {type(c).__name__}")
    if base_seed is not None:
        cells = seed_cells(cells, base_seed)
    keys = [cell_key(c) for c in cells]
    seen: set[str] = set()
    for k in keys:
        if k in seen:
            raise ValueError(f"cells must be distinct; duplicate cell {k}")
        seen.add(k)

    client = _dask_client(scheduler, float(connect_timeout)) if scheduler is not None else None
    try:
        done: dict[str, Any] = {}
        if store is not None:
            name = getattr(func, "__qualname__", None) or getattr(getattr(func, "func", None),
                                                                  "__qualname__", repr(func))
            run_id = store.new_run(command, {"func": name, "n_cells": len(cells)}, run_id)
            done = store.results(run_id, keys)
        todo = [(c, k) for c, k in zip(cells, keys) if k not in done]
        if store is not None and n_jobs != 1:
            todo = _longest_first(todo, store.cell_times(k for _, k in todo))
        computed: list[str] = []
        if todo:
            if client is not None:
                stream = _dask(client, func, todo)
            elif n_jobs == 1 or len(todo) == 1:
                stream = _serial(func, todo)
            else:
                stream = _joblib(func, todo, int(n_jobs))
            bar = _progress_bar(len(cells), len(done), progress, run_id or "cells")
            try:
                for key, ok, payload, wall, cpu in stream:
                    if not ok:
                        _fail(store, run_id, key, payload, wall, cpu)
                    if store is not None:
                        store.put(run_id, key, payload, wall_time=wall, cpu_time=cpu,
                                  encoded=True)
                    done[key] = loads(payload)
                    computed.append(key)
                    bar.update(1)
            except KeyboardInterrupt:
                if store is not None:
                    store.set_status(run_id, "interrupted")
                raise
            finally:
                bar.close()
                close = getattr(stream, "close", None)
                if close is not None:
                    close()
        if store is not None:
            store.set_status(run_id, "done")
    finally:
        if client is not None:
            client.close()
    out = CellResults((k, done[k]) for k in keys)
    out.run_id = run_id
    out.computed = computed
    return out


def _longest_first(todo: list[tuple[dict, str]],
                   seconds: Mapping[str, float]) -> list[tuple[dict, str]]:
    """``todo`` with the cells of known cost (from earlier runs in the store) longest first,
    after the cells never timed (which keep their order): the last cells to start are the
    short ones, so no worker is left computing a long cell while the others idle. Only the
    order of work changes; every cell draws on its own seed."""
    unknown = [t for t in todo if t[1] not in seconds]
    known = sorted((t for t in todo if t[1] in seconds), key=lambda t: -seconds[t[1]])
    return unknown + known


def _fail(store: Store | None, run_id: str | None, key: str, payload: dict, wall: float,
          cpu: float) -> None:
    exc = payload.pop("exception", None)
    if store is not None:
        store.put(run_id, key, payload, wall_time=wall, cpu_time=cpu, status="error")
        store.set_status(run_id, "failed")
    note = f"in cell {key}"
    if isinstance(exc, BaseException):
        if hasattr(exc, "add_note"):
            exc.add_note(note)
        raise exc
    raise RuntimeError(f"{payload['error']} ({note})\n{payload['traceback']}")
