"""The part of ``dptheory verify`` that needs no simulation cell, computed beside the cells.

The symbolic verdicts (derivations and the registered property checks), the hypothesis and
dimension checks of the catalog (:func:`symbolic_part`) and the ideal power of each audit
(:func:`dptheory.verify.audit.audit_power`, a fixed-seed Monte Carlo; :func:`audit_powers`)
depend on the catalog and the recipes only, never on a cell's result. When the cells run in
other processes (local workers or a Dask cluster) the process that drives them mostly waits,
so :class:`Beside` computes this part in one forked process at the same time: on two cores the
serial tail of a run shrinks to judging the cells and writing the report. With ``--jobs 1``,
or where ``fork`` is not available, the same functions run in this process when their
result is asked for, as before. The functions and their inputs are the same either way, so
are the results.

The forked process watches the process that started it and exits once it is gone (as the
local cell workers do, :mod:`dptheory.parallel`), so a killed ``dptheory verify`` leaves no
orphan computing on.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from dptheory.parallel import _watch_parent, fork_available
from dptheory.verify.recipe import Recipe
from dptheory.verify.verdict import Finding

__all__ = ["SymbolicPart", "symbolic_part", "power_keys", "audit_powers", "Beside"]


@dataclass
class SymbolicPart:
    """What :func:`symbolic_part` computes: the verdicts of the derivations and property
    checks (``dptheory.verify.engine.Verdict``), the hypothesis and dimension findings, the
    notes of the symbolic checks that could not decide, and the CPU seconds it took (in the
    process that computed it)."""

    verdicts: list[Any]
    findings: list[Finding] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    cpu: float = 0.0


def symbolic_part(only: list[str] | None,
                  symbolic_verdicts: Callable[[list[str] | None], list[Any]]) -> SymbolicPart:
    """The symbolic verdicts of the run (``symbolic_verdicts(only)``: the engine's
    :func:`dptheory.verify.engine.symbolic_verdicts`, passed in so this module does not
    import the engine) and the hypothesis and dimension checks of the selected items
    (:func:`dptheory.verify.findings.symbolic_results`): findings and notes."""
    from dptheory import registry
    from dptheory.verify.findings import symbolic_results
    start = time.process_time()
    verdicts = symbolic_verdicts(only)
    items = registry.items()
    sel = [items[i] for i in only if i in items] if only else list(items.values())
    part = SymbolicPart(verdicts)
    for f_or_note in symbolic_results(sel):
        if isinstance(f_or_note, Finding):
            part.findings.append(f_or_note)
        else:
            part.notes.append(f_or_note)
    part.cpu = time.process_time() - start
    return part


def power_keys(chosen: Iterable[Recipe], full: bool) -> list[tuple]:
    """The :func:`~dptheory.verify.audit.power_key` of every audit recipe's ideal power as its
    verdict will ask for it: the pooled run counts (the recipe's replicates per point, on
    each side) at its claimed eps and delta. A key that misses (a cell reporting other
    counts) costs only time: the verdict then computes its power itself."""
    from dptheory.verify.audit import power_key
    keys = []
    for r in chosen:
        eps, delta = r.fixed.get("eps"), r.fixed.get("delta")
        if r.check != "audit" or eps is None or delta is None:
            continue
        n = r.total_reps(full)
        key = power_key(n, n, float(delta), float(eps))
        if key not in keys:
            keys.append(key)
    return keys


def audit_powers(keys: list[tuple]) -> tuple[dict[tuple, dict[str, Any]], float]:
    """``({key: audit_power(*key)}, CPU seconds)`` for the keys of :func:`power_keys`."""
    from dptheory.verify.audit import power_of_key
    start = time.process_time()
    out = {k: power_of_key(k) for k in keys}
    return out, time.process_time() - start


def _child(conn: Any, parent: int, jobs: list[tuple[Callable, tuple]]) -> None:
    """Runs in the forked process: each job in order, its result (or its error) sent back."""
    _watch_parent(parent)
    for fn, args in jobs:
        try:
            conn.send(("ok", fn(*args)))
        except BaseException as exc:  # noqa: BLE001 - the parent recomputes and raises
            try:
                conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
            except Exception:  # noqa: BLE001 - the pipe is gone: nothing left to tell
                return
    conn.close()


class Beside:
    """Jobs ``(fn, args)`` computed in one forked process while this one drives the cells
    (``parallel=True`` and ``fork`` available), else in this process on demand.

    :meth:`result` returns job ``i``'s result, in submission order; a job the forked process
    could not deliver (it died, or its result does not pickle) is computed here instead, so
    an error of the job itself is raised here as it would have been. :meth:`close` ends the
    forked process (at once if it is still computing)."""

    def __init__(self, jobs: list[tuple[Callable, tuple]], *, parallel: bool) -> None:
        self._jobs = list(jobs)
        self._done: dict[int, Any] = {}
        self._next = 0                     # index of the next message from the child
        self._proc = self._conn = None
        self.forked = bool(parallel and self._jobs and fork_available())
        if self.forked:
            ctx = multiprocessing.get_context("fork")
            self._conn, child_end = ctx.Pipe(duplex=False)
            self._proc = ctx.Process(target=_child, args=(child_end, os.getpid(), self._jobs),
                                     name="dptheory-beside", daemon=True)
            self._proc.start()
            child_end.close()

    def result(self, i: int) -> Any:
        """Job ``i``'s result (waits for the forked process, or computes it here)."""
        while i not in self._done and self._conn is not None and self._next <= i:
            try:
                status, value = self._conn.recv()
            except (EOFError, OSError):         # the child is gone: the rest is computed here
                self.close()
                break
            except Exception:  # noqa: BLE001 - an unpicklable result: computed here
                self.close()
                break
            if status == "ok":
                self._done[self._next] = value
            self._next += 1
        if i not in self._done:
            fn, args = self._jobs[i]
            self._done[i] = fn(*args)
        return self._done[i]

    def close(self) -> None:
        """End the forked process (terminated if it is still computing)."""
        if self._proc is not None:
            if self._proc.is_alive():
                self._proc.terminate()
            self._proc.join()
            self._proc = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
