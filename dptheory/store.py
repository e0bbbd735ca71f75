"""The results store: runs, finished cells and findings in one SQLite file (WAL mode).

A *run* is one invocation of a sweep (command line, configuration, status). A *cell* is one
unit of work of a run, named by its *key*: the canonical JSON of the cell's parameters
(recipe id, sweep value, replicate block, seed, ...), see :func:`cell_key`. Each finished
cell is written and committed at once, so an interrupted run loses at most the cells that
were in flight; :meth:`Store.pending` gives the keys still to compute, which is how a run
resumes without recomputing anything.

Results are stored as JSON text that round-trips float64 exactly: Python's ``json`` writes
floats with ``repr`` (shortest exact form), NaN and infinities as ``NaN``/``Infinity``, and
numpy arrays as tagged lists (``{"__ndarray__": [...], "dtype": "float64", "shape": [...]}``)
that decode back to arrays of the same dtype and shape. See :func:`dumps` and :func:`loads`.

Several processes may write to the same file at once: the database is in WAL mode, every
connection waits on a busy timeout, and every write transaction (``BEGIN IMMEDIATE``) is
retried with back-off while the database is locked.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

import numpy as np

from dptheory.verify.verdict import Finding

__all__ = ["Store", "cell_key", "dumps", "loads"]

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id       TEXT PRIMARY KEY,
    created  TEXT NOT NULL,
    command  TEXT NOT NULL DEFAULT '',
    config   TEXT NOT NULL DEFAULT '{}',
    status   TEXT NOT NULL DEFAULT 'running'
);
CREATE TABLE IF NOT EXISTS cells (
    run_id    TEXT NOT NULL REFERENCES runs(id),
    key       TEXT NOT NULL,
    status    TEXT NOT NULL,
    result    TEXT,
    wall_time REAL,
    finished  TEXT,
    attempts  INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (run_id, key)
);
CREATE TABLE IF NOT EXISTS findings (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id    TEXT,
    item      TEXT NOT NULL,
    check_id  TEXT NOT NULL,
    summary   TEXT NOT NULL,
    evidence  TEXT NOT NULL,
    reproduce TEXT NOT NULL DEFAULT '',
    created   TEXT NOT NULL,
    grading   TEXT NOT NULL DEFAULT '{}'
);
"""

RUN_STATUSES = ("running", "done", "failed", "interrupted")
CELL_STATUSES = ("done", "error")


# ---------------------------------------------------------------------------- JSON
def _encode(obj: Any, *, strict: bool) -> Any:
    """Plain JSON values; arrays tagged so they decode to arrays of the same dtype/shape."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, (int, float)):
        return obj
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind not in "biuf":
            if strict:
                raise TypeError(f"cannot store an array of dtype {obj.dtype} exactly")
            return obj.tolist()
        return {"__ndarray__": obj.tolist(), "dtype": obj.dtype.str, "shape": list(obj.shape)}
    if isinstance(obj, np.generic):
        return _encode(obj.item(), strict=strict)
    if isinstance(obj, Mapping):
        out = {}
        for k, v in obj.items():
            if not isinstance(k, str):
                if strict:   # JSON keys are strings: {1: x} would come back as {"1": x}
                    raise TypeError(f"dictionary keys must be strings, got {k!r}")
                k = str(k)
            out[k] = _encode(v, strict=strict)
        return out
    if isinstance(obj, (list, tuple)):
        return [_encode(v, strict=strict) for v in obj]
    if strict:
        raise TypeError(f"cannot store a value of type {type(obj).__name__} as JSON exactly: {obj!r}")
    return str(obj)


def _decode_hook(d: dict) -> Any:
    if "__ndarray__" in d and "dtype" in d:
        return np.array(d["__ndarray__"], dtype=np.dtype(d["dtype"])).reshape(d["shape"])
    return d


def dumps(obj: Any, *, strict: bool = True) -> str:
    """JSON text of ``obj`` that :func:`loads` turns back into an equal value.

    Floats round-trip exactly (``repr``), NaN and infinities are allowed, tuples become
    lists, numpy scalars become Python numbers and numeric numpy arrays are tagged. With
    ``strict`` a value that cannot round-trip raises ``TypeError``; otherwise it is
    stored as ``str(value)`` (used for findings' evidence).
    """
    return json.dumps(_encode(obj, strict=strict), allow_nan=True, sort_keys=True,
                      separators=(",", ":"))


def loads(text: str) -> Any:
    return json.loads(text, object_hook=_decode_hook)


def cell_key(cell: Mapping[str, Any]) -> str:
    """The canonical key of a cell: its parameters as sorted, compact JSON.

    The key names the cell in the store, so it must not depend on dict order, on whether a
    number is a numpy scalar or a Python one, or on the worker that computes it.
    """
    if not isinstance(cell, Mapping):
        raise ValueError(f"cell must be a mapping of parameters, got {type(cell).__name__}")
    try:
        return dumps(dict(cell))
    except TypeError as exc:
        raise ValueError(f"cell parameters must be JSON values: {exc}") from None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


# ---------------------------------------------------------------------------- store
class Store:
    """Results store on one SQLite file.

    ``Store(path)`` creates the file and its tables when missing. One instance holds one
    connection (guarded by a lock, so threads may share it); pickling an instance keeps only
    the path and the timeouts, and the copy reconnects on first use. Use it as a context
    manager or call :meth:`close`.

    ``busy_timeout`` is how long one statement waits for a lock; ``retry_for`` is how long a
    write transaction is retried in total before the error is raised.
    """

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout: float = 30.0,
                 retry_for: float = 120.0):
        if busy_timeout <= 0 or retry_for <= 0:
            raise ValueError(f"busy_timeout and retry_for must be > 0, got {busy_timeout}, {retry_for}")
        self.path = Path(path)
        if str(path) != ":memory:" and self.path.parent and not self.path.parent.exists():
            raise ValueError(f"path: directory {self.path.parent} does not exist")
        self.busy_timeout = float(busy_timeout)
        self.retry_for = float(retry_for)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._connect()

    # -- connection -----------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(str(self.path), timeout=self.busy_timeout,
                                   isolation_level=None, check_same_thread=False)
            self._conn = conn
            try:
                self._retry(lambda: conn.execute("PRAGMA journal_mode=WAL").fetchone())
                conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
                # WAL + NORMAL: a committed cell survives a crash of the process (SIGKILL).
                conn.execute("PRAGMA synchronous=NORMAL")
                self._retry(lambda: conn.executescript(_SCHEMA))
                cols = {r[1] for r in conn.execute("PRAGMA table_info(findings)")}
                if "grading" not in cols:      # a store written before findings were graded
                    self._retry(lambda: conn.execute(
                        "ALTER TABLE findings ADD COLUMN grading TEXT NOT NULL DEFAULT '{}'"))
            except BaseException:
                conn.close()
                self._conn = None
                raise
        return self._conn

    def _retry(self, op: Callable[[], T]) -> T:
        deadline = time.monotonic() + self.retry_for
        delay = 0.005
        while True:
            try:
                return op()
            except sqlite3.OperationalError as exc:
                msg = str(exc).lower()
                if ("locked" not in msg and "busy" not in msg) or time.monotonic() > deadline:
                    raise
                time.sleep(delay * (1 + secrets.randbelow(100) / 100))
                delay = min(delay * 2, 0.25)

    def _write(self, statements: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``statements`` in one ``BEGIN IMMEDIATE`` transaction, retried while locked."""
        with self._lock:
            conn = self._connect()

            def tx() -> T:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    out = statements(conn)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
                return out
            return self._retry(tx)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._lock:
            conn = self._connect()
            return self._retry(lambda: conn.execute(sql, params).fetchall())

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "busy_timeout": self.busy_timeout, "retry_for": self.retry_for}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()
        self._conn = None

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    # -- runs -------------------------------------------------------------------------
    def new_run(self, command: str = "", config: Mapping[str, Any] | None = None,
                run_id: str | None = None) -> str:
        """Create a run (status ``running``) and return its id.

        With an existing ``run_id`` the run is resumed: its status goes back to ``running``
        and its command and configuration are kept.
        """
        if run_id is None:
            run_id = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)
        if not isinstance(run_id, str) or not run_id:
            raise ValueError(f"run_id must be a non-empty string, got {run_id!r}")
        cfg = dumps(dict(config or {}), strict=False)

        def tx(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO runs (id, created, command, config, status) "
                         "VALUES (?, ?, ?, ?, 'running') "
                         "ON CONFLICT(id) DO UPDATE SET status='running'",
                         (run_id, _now(), command, cfg))
        self._write(tx)
        return run_id

    def set_status(self, run_id: str, status: str) -> None:
        if status not in RUN_STATUSES:
            raise ValueError(f"status must be one of {RUN_STATUSES}, got {status!r}")
        self._require_run(run_id)
        self._write(lambda c: c.execute("UPDATE runs SET status=? WHERE id=?", (status, run_id)))

    def run(self, run_id: str) -> dict[str, Any]:
        rows = self._read("SELECT id, created, command, config, status FROM runs WHERE id=?",
                          (run_id,))
        if not rows:
            raise ValueError(f"run_id: no run {run_id!r} in {self.path}")
        return self._run_dict(rows[0])

    def runs(self) -> list[dict[str, Any]]:
        """All runs, oldest first, with their cell counts by status."""
        rows = self._read("SELECT id, created, command, config, status FROM runs "
                          "ORDER BY created, id")
        counts: dict[str, dict[str, int]] = {}
        for run_id, status, count in self._read(
                "SELECT run_id, status, COUNT(*) FROM cells GROUP BY run_id, status"):
            counts.setdefault(run_id, {})[status] = count
        return [self._run_dict(r) | {"cells": counts.get(r[0], {})} for r in rows]

    @staticmethod
    def _run_dict(row: tuple) -> dict[str, Any]:
        return {"id": row[0], "created": row[1], "command": row[2], "config": loads(row[3]),
                "status": row[4]}

    def _require_run(self, run_id: str) -> None:
        if not self._read("SELECT 1 FROM runs WHERE id=?", (run_id,)):
            raise ValueError(f"run_id: no run {run_id!r} in {self.path}")

    # -- cells ------------------------------------------------------------------------
    def put(self, run_id: str, key: str, result: Any, *, wall_time: float | None = None,
            status: str = "done", encoded: bool = False) -> None:
        """Write one cell and commit at once. ``encoded``: ``result`` is already JSON text.

        Writing a cell again replaces it and increments its ``attempts`` count.
        """
        if status not in CELL_STATUSES:
            raise ValueError(f"status must be one of {CELL_STATUSES}, got {status!r}")
        text = result if encoded else dumps(result)
        self._write(lambda c: c.execute(
            "INSERT INTO cells (run_id, key, status, result, wall_time, finished, attempts) "
            "VALUES (?, ?, ?, ?, ?, ?, 1) ON CONFLICT(run_id, key) DO UPDATE SET "
            "status=excluded.status, result=excluded.result, wall_time=excluded.wall_time, "
            "finished=excluded.finished, attempts=cells.attempts + 1",
            (run_id, key, status, text, wall_time, _now())))

    def get(self, run_id: str, key: str) -> Any:
        """The result of a finished cell; ``KeyError`` when it is not finished."""
        rows = self._read("SELECT result FROM cells WHERE run_id=? AND key=? AND status='done'",
                          (run_id, key))
        if not rows:
            raise KeyError(key)
        return loads(rows[0][0])

    def results(self, run_id: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """``{key: result}`` of the finished cells of a run: all of them in key order, or
        those among ``keys`` in the order of ``keys``."""
        rows = self._read("SELECT key, result FROM cells WHERE run_id=? AND status='done' "
                          "ORDER BY key", (run_id,))
        if keys is None:
            return {k: loads(r) for k, r in rows}
        texts = dict(rows)
        return {k: loads(texts[k]) for k in keys if k in texts}

    def cells(self, run_id: str) -> list[dict[str, Any]]:
        """Every cell row of a run (key, status, wall time, finished, attempts), by finish time."""
        rows = self._read("SELECT key, status, wall_time, finished, attempts FROM cells "
                          "WHERE run_id=? ORDER BY finished, key", (run_id,))
        return [{"key": k, "status": s, "wall_time": w, "finished": f, "attempts": a}
                for k, s, w, f, a in rows]

    def finished(self, run_id: str) -> set[str]:
        return {k for (k,) in self._read(
            "SELECT key FROM cells WHERE run_id=? AND status='done'", (run_id,))}

    def pending(self, run_id: str, keys: Iterable[str]) -> list[str]:
        """The keys (in the given order) that have no finished result in this run."""
        done = self.finished(run_id)
        return [k for k in keys if k not in done]

    # -- findings ---------------------------------------------------------------------
    def add_finding(self, finding: Finding, run_id: str | None = None) -> int:
        """Store a finding (optionally tied to a run); returns its row id."""
        if not isinstance(finding, Finding):
            raise ValueError(f"finding must be a Finding, got {type(finding).__name__}")

        def tx(c: sqlite3.Connection) -> int:
            cur = c.execute(
                "INSERT INTO findings (run_id, item, check_id, summary, evidence, reproduce, "
                "created, grading) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, finding.id, finding.check, finding.summary,
                 dumps(finding.evidence, strict=False), finding.reproduce, _now(),
                 dumps({"severity": finding.severity, "consequence": finding.consequence,
                        "root": finding.root, "provenance": finding.provenance,
                        "also": list(finding.also)}, strict=False)))
            return int(cur.lastrowid)
        return self._write(tx)

    def findings(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Findings of all runs (or of one), oldest first: ``Finding.as_dict()`` plus
        ``run_id`` and ``created``."""
        sql = ("SELECT run_id, item, check_id, summary, evidence, reproduce, created, grading "
               "FROM findings")
        params: tuple = ()
        if run_id is not None:
            sql += " WHERE run_id=?"
            params = (run_id,)
        rows = self._read(sql + " ORDER BY id", params)
        out = []
        for rid, item, check, summary, ev, rep, created, grading in rows:
            g = loads(grading) or {}
            if g.get("severity") is None:       # stored before findings were graded
                continue
            out.append(Finding(item, check, summary, loads(ev), rep, g["severity"],
                               g.get("consequence", ""), g.get("root", ""),
                               g.get("provenance", "printed"), tuple(g.get("also", ())))
                       .as_dict() | {"run_id": rid, "created": created})
        return out

