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

Nothing read is trusted blindly. Each cell carries a SHA-256 that covers every field a
verdict depends on: the run id, the cell key (recipe, point, seed, ...), the status and the
result text (:func:`checksum`), checked on every read. So an edited result, a bit flip, a
truncated text, and two rows whose (result, checksum) pairs were swapped all fail it. A cell
that fails (or that has no checksum or only the result-only checksum of older versions)
counts as not finished, so it is recomputed, and the event is recorded in the ``events``
table (:meth:`Store.events`). Text that is not valid UTF-8 is read byte for byte
(``surrogateescape``), so it fails its own cell's checksum without making the others
unreadable. Findings rows carry the same kind of checksum over all their columns; one that
fails is left out of :meth:`Store.findings` and reported, never shown. The checksum detects
corruption and mix-ups, not a forger who recomputes it: it is not keyed. Opening a file
runs ``PRAGMA integrity_check``. A file that is damaged, not a database, read-only, or on a full disk
raises :class:`~dptheory.errors.StoreError` with one line naming the file and the remedy:
``dptheory store check FILE`` says what is wrong, ``dptheory store repair FILE`` moves the
damaged file aside and keeps every cell that still verifies (:func:`repair`).
"""

from __future__ import annotations

import hashlib
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

from dptheory.errors import StoreError
from dptheory.verify.verdict import Finding

__all__ = ["Store", "cell_key", "checksum", "dumps", "loads", "repair"]

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
    cpu_time  REAL,
    finished  TEXT,
    attempts  INTEGER NOT NULL DEFAULT 1,
    checksum  TEXT,
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
    grading   TEXT NOT NULL DEFAULT '{}',
    checksum  TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id   TEXT,
    key      TEXT,
    kind     TEXT NOT NULL,
    detail   TEXT NOT NULL DEFAULT '',
    created  TEXT NOT NULL
);
"""

# Columns added after the first release: (table, column, declaration) added to older files.
_MIGRATIONS = (("cells", "checksum", "TEXT"),
               ("findings", "grading", "TEXT NOT NULL DEFAULT '{}'"),
               ("findings", "checksum", "TEXT"),
               ("cells", "cpu_time", "REAL"))

# The columns of a findings row that its checksum covers, in this order.
_FINDING_FIELDS = ("run_id", "item", "check_id", "summary", "evidence", "reproduce", "created",
                   "grading")

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
    """Decode text written by :func:`dumps` (tagged arrays become numpy arrays)."""
    return json.loads(text, object_hook=_decode_hook)


#: cell entries that say *where* the code computing a cell lives, not *what* it computes:
#: left out of the key, so moving a cell function to another module keeps stores resuming
ROUTING_KEYS = frozenset({"cell_fn"})


def cell_key(cell: Mapping[str, Any]) -> str:
    """The canonical key of a cell: its parameters as sorted, compact JSON.

    The key names the cell in the store, so it must not depend on dict order, on whether a
    number is a numpy scalar or a Python one, on the worker that computes it, or on the
    module its cell function lives in (:data:`ROUTING_KEYS` are left out).
    """
    if not isinstance(cell, Mapping):
        raise ValueError(f"cell must be a mapping of parameters, got {type(cell).__name__}")
    try:
        return dumps({k: v for k, v in cell.items() if k not in ROUTING_KEYS})
    except TypeError as exc:
        raise ValueError(f"cell parameters must be JSON values: {exc}") from None


def _raw(text: str) -> bytes:
    """The bytes of stored text as they are in the file (undecodable bytes were kept as
    surrogates by :func:`_decode`)."""
    return text.encode("utf-8", "surrogateescape")


def _decode(raw: bytes) -> str:
    """SQLite text to ``str`` without ever failing: invalid UTF-8 (a flipped bit) becomes
    surrogates, so the damage stays in its row, where the checksum catches it."""
    return raw.decode("utf-8", "surrogateescape")


def _printable(text: Any) -> Any:
    """``text`` with undecodable bytes replaced, so that it can be written back (events) and
    shown (JSON); a blob (damaged text) becomes text too."""
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode("utf-8", "replace")
    return _raw(text).decode("utf-8", "replace") if isinstance(text, str) else text


def checksum(*fields: Any) -> str:
    """SHA-256 (hex) of a sequence of stored fields, stored beside them and checked on read.

    A cell's checksum covers ``(run_id, key, status, result)``, a finding's all its columns.
    Each field is framed by its type and length, so no two different sequences share an
    input: moving text from one field or row to another, or a value read back with another
    type (a damaged record can turn text into a blob or a number), changes the sum.
    """
    h = hashlib.sha256(b"dptheory-store-v2")
    for f in fields:
        if f is None:
            h.update(b"N")
            continue
        tag, raw = ((b"S", _raw(f)) if isinstance(f, str) else
                    (b"B", bytes(f)) if isinstance(f, (bytes, bytearray, memoryview)) else
                    (b"V", repr(f).encode()))
        h.update(tag + b"%d:" % len(raw) + raw)
    return h.hexdigest()


def _legacy_checksum(text: str) -> str:
    """The checksum of stores written before it covered the cell key: the result text's."""
    return hashlib.sha256(_raw(text)).hexdigest()


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
                 retry_for: float = 120.0, read_only: bool = False):
        if busy_timeout <= 0 or retry_for <= 0:
            raise ValueError(f"busy_timeout and retry_for must be > 0, got {busy_timeout}, {retry_for}")
        self.path = Path(path)
        if str(path) != ":memory:" and self.path.parent and not self.path.parent.exists():
            raise ValueError(f"path: directory {self.path.parent} does not exist")
        if self.path.is_dir():
            raise StoreError(f"store {self.path} is a directory; give the path of a file "
                             "(e.g. DIR/results.sqlite)")
        if read_only and not self.path.is_file():
            raise StoreError(f"store {self.path} " + ("is not a regular file (a device or FIFO)"
                                                      if self.path.exists() else "does not exist"))
        self.busy_timeout = float(busy_timeout)
        self.retry_for = float(retry_for)
        self.read_only = bool(read_only)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._reported: set[tuple[str, str]] = set()
        self.integrity_events: list[dict[str, Any]] = []
        self._connect()

    # -- connection -----------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                if self.read_only:
                    conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                           timeout=self.busy_timeout, isolation_level=None,
                                           check_same_thread=False)
                else:
                    conn = sqlite3.connect(str(self.path), timeout=self.busy_timeout,
                                           isolation_level=None, check_same_thread=False)
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            conn.text_factory = _decode      # a bad byte damages its row, not the store
            self._conn = conn
            try:
                if not self.read_only:
                    self._retry(lambda: conn.execute("PRAGMA journal_mode=WAL").fetchone())
                conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
                # WAL + NORMAL: a committed cell survives a crash of the process (SIGKILL).
                conn.execute("PRAGMA synchronous=NORMAL")
                problems = self._integrity(conn)
                if problems:
                    raise StoreError(self._damaged(f"integrity check: {problems[0]}"))
                if not self.read_only:
                    self._retry(lambda: conn.executescript(_SCHEMA))
                    self._migrate(conn)
            except BaseException as exc:
                conn.close()
                self._conn = None
                if isinstance(exc, (sqlite3.Error, UnicodeDecodeError)):
                    raise self._error(exc) from None
                raise
        return self._conn

    @staticmethod
    def _integrity(conn: sqlite3.Connection) -> list[str]:
        """The problems ``PRAGMA integrity_check`` reports (empty when the file is sound)."""
        rows = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
        return [] if rows == ["ok"] else rows

    def _migrate(self, conn: sqlite3.Connection) -> None:
        for table, column, decl in _MIGRATIONS:
            have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self._retry(lambda: conn.execute(
                    f"ALTER TABLE {table} ADD COLUMN {column} {decl}"))

    def _columns(self, table: str) -> set[str]:
        return {r[1] for r in self._read(f"PRAGMA table_info({table})")}

    def _damaged(self, what: str) -> str:
        return (f"store {self.path} is damaged ({what}); run `dptheory store check {self.path}` "
                f"to see what is wrong, or `dptheory store repair {self.path}` to move it aside "
                "and keep the cells that still verify (the others are recomputed)")

    def _error(self, exc: sqlite3.Error | UnicodeDecodeError) -> StoreError:
        """One line naming the file and the remedy for an SQLite error."""
        if isinstance(exc, UnicodeDecodeError):   # SQLite's own text (schema, message) damaged
            return StoreError(self._damaged("text of the file's structure is not valid UTF-8"))
        msg = str(exc).lower()
        if "readonly" in msg or "read-only" in msg:
            text = (f"store {self.path} is read-only ({exc}); make it writable or write the "
                    "results elsewhere (--out / --store)")
        elif "full" in msg or "disk i/o" in msg:
            text = (f"cannot write store {self.path} ({exc}): the disk is full or failing; "
                    "free space or write the results elsewhere (--out / --store)")
        elif "not a database" in msg or "malformed" in msg or "corrupt" in msg:
            text = self._damaged(str(exc))
        elif "unable to open" in msg:
            text = (f"cannot open store {self.path} ({exc}); check that its folder exists "
                    "and is writable, or give another path (--out / --store)")
        elif "locked" in msg or "busy" in msg:
            text = (f"store {self.path} stayed locked by another process for over "
                    f"{self.retry_for:g} s ({exc}); wait for it to finish or use another path")
        else:
            text = (f"store {self.path} cannot be used ({type(exc).__name__}: {exc}); run "
                    f"`dptheory store check {self.path}`")
        return StoreError(text)

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
        if self.read_only:
            raise StoreError(f"store {self.path} was opened read-only")
        with self._lock:
            conn = self._connect()

            def tx() -> T:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    out = statements(conn)
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
                return out
            try:
                return self._retry(tx)
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                raise self._error(exc) from None

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._lock:
            conn = self._connect()
            try:
                return self._retry(lambda: conn.execute(sql, params).fetchall())
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                raise self._error(exc) from None

    def close(self) -> None:
        """Close the connection (a later use reconnects)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "busy_timeout": self.busy_timeout, "retry_for": self.retry_for,
                "read_only": self.read_only}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.read_only = state.get("read_only", False)
        self._lock = threading.RLock()
        self._conn = None
        self._reported = set()
        self.integrity_events = []

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
        """Set the status of an existing run (one of :data:`RUN_STATUSES`)."""
        if status not in RUN_STATUSES:
            raise ValueError(f"status must be one of {RUN_STATUSES}, got {status!r}")
        self._require_run(run_id)
        self._write(lambda c: c.execute("UPDATE runs SET status=? WHERE id=?", (status, run_id)))

    def run(self, run_id: str) -> dict[str, Any]:
        """One run as a dict (id, created, command, config, status); ``ValueError`` if absent."""
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
        try:    # a run's configuration is a record for people; no verdict reads it
            config = loads(row[3])
        except (TypeError, ValueError):
            config = {"unreadable": _printable(str(row[3]))}
        return {"id": row[0], "created": row[1], "command": row[2], "config": config,
                "status": row[4]}

    def _require_run(self, run_id: str) -> None:
        if not self._read("SELECT 1 FROM runs WHERE id=?", (run_id,)):
            raise ValueError(f"run_id: no run {run_id!r} in {self.path}")

    # -- cells ------------------------------------------------------------------------
    def put(self, run_id: str, key: str, result: Any, *, wall_time: float | None = None,
            status: str = "done", encoded: bool = False, cpu_time: float | None = None) -> None:
        """Write one cell with its checksum (over run id, key, status and result) and commit
        at once. ``encoded``: ``result`` is already JSON text. ``wall_time`` and ``cpu_time``
        are the seconds the cell took in its worker (CPU time of the worker process: on a
        shared machine it measures the work, where wall time also measures the load).

        Writing a cell again replaces it and increments its ``attempts`` count.
        """
        if status not in CELL_STATUSES:
            raise ValueError(f"status must be one of {CELL_STATUSES}, got {status!r}")
        text = result if encoded else dumps(result)
        self._write(lambda c: c.execute(
            "INSERT INTO cells (run_id, key, status, result, wall_time, cpu_time, finished, "
            "attempts, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT(run_id, key) "
            "DO UPDATE SET status=excluded.status, result=excluded.result, "
            "wall_time=excluded.wall_time, cpu_time=excluded.cpu_time, "
            "finished=excluded.finished, attempts=cells.attempts + 1, "
            "checksum=excluded.checksum",
            (run_id, key, status, text, wall_time, cpu_time, _now(),
             checksum(run_id, key, status, text))))

    def _done_rows(self, run_id: str, key: str | None = None) -> list[tuple[str, str]]:
        """``(key, result text)`` of the finished cells that pass their checksum, in key
        order; the others are reported (:meth:`events`) and left out, so they count as not
        finished and are recomputed."""
        digest = "checksum" if "checksum" in self._columns("cells") else "NULL"
        sql = f"SELECT key, result, {digest} FROM cells WHERE run_id=? AND status='done'"
        params: tuple = (run_id,)
        if key is not None:
            sql += " AND key=?"
            params += (key,)
        good, bad = [], []
        for k, text, stored in self._read(sql + " ORDER BY key", params):
            problem = _cell_problem(run_id, k, "done", text, stored)
            if problem is None:
                good.append((k, text))
            else:
                bad.append((k, problem))
        if bad:
            self._report(run_id, bad)
        return good

    def _report(self, run_id: str | None, bad: list[tuple[str, str]]) -> None:
        new = [(k, kind) for k, kind in bad if (run_id, k) not in self._reported]
        if not new:
            return
        self._reported.update((run_id, k) for k, _ in new)
        rows = [(_printable(run_id), _printable(k), kind, _EVENT_DETAILS[kind], _now())
                for k, kind in new]
        self.integrity_events.extend({"run_id": r, "key": k, "kind": kind, "detail": dt}
                                     for r, k, kind, dt, _ in rows)
        if not self.read_only:
            self._write(lambda c: c.executemany(
                "INSERT INTO events (run_id, key, kind, detail, created) VALUES (?, ?, ?, ?, ?)",
                rows))

    def events(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Integrity events, oldest first: cells whose stored result failed its checksum
        (recomputed), findings rows that failed theirs (left out), repairs."""
        if "kind" not in self._columns("events"):
            return list(self.integrity_events)
        sql = "SELECT run_id, key, kind, detail, created FROM events"
        params: tuple = ()
        if run_id is not None:
            sql += " WHERE run_id=?"
            params = (run_id,)
        return [{"run_id": r, "key": k, "kind": kind, "detail": dt, "created": c}
                for r, k, kind, dt, c in self._read(sql + " ORDER BY id", params)]

    def get(self, run_id: str, key: str) -> Any:
        """The result of a finished cell; ``KeyError`` when it is not finished (or its
        stored result fails its checksum)."""
        rows = self._done_rows(run_id, key)
        if not rows:
            raise KeyError(key)
        return loads(rows[0][1])

    def results(self, run_id: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """``{key: result}`` of the finished cells of a run: all of them in key order, or
        those among ``keys`` in the order of ``keys``. Cells failing their checksum are left
        out (and reported)."""
        rows = self._done_rows(run_id)
        if keys is None:
            return {k: loads(r) for k, r in rows}
        texts = dict(rows)
        return {k: loads(texts[k]) for k in keys if k in texts}

    def cells(self, run_id: str) -> list[dict[str, Any]]:
        """Every cell row of a run (key, status, wall time, CPU time, finished, attempts), by
        finish time; ``cpu_time`` is None for cells stored before it was recorded."""
        cpu = "cpu_time" if "cpu_time" in self._columns("cells") else "NULL"
        rows = self._read(f"SELECT key, status, wall_time, {cpu}, finished, attempts FROM cells "
                          "WHERE run_id=? ORDER BY finished, key", (run_id,))
        return [{"key": k, "status": s, "wall_time": w, "cpu_time": c, "finished": f,
                 "attempts": a} for k, s, w, c, f, a in rows]

    def cell_times(self, keys: Iterable[str] | None = None) -> dict[str, float]:
        """The CPU seconds (wall seconds where no CPU time was stored) of finished cells, by
        key, over every run of the store (the latest finished row of a key wins); ``keys``
        restricts the answer. Used to schedule the longest cells first."""
        cpu = "cpu_time" if "cpu_time" in self._columns("cells") else "NULL"
        rows = self._read(f"SELECT key, COALESCE({cpu}, wall_time) FROM cells WHERE "
                          "status='done' ORDER BY finished")
        want = None if keys is None else set(keys)
        return {k: float(t) for k, t in rows
                if t is not None and (want is None or k in want)}

    def finished(self, run_id: str) -> set[str]:
        """The keys of the run's finished cells whose stored result passes its checksum."""
        return {k for k, _ in self._done_rows(run_id)}

    def pending(self, run_id: str, keys: Iterable[str]) -> list[str]:
        """The keys (in the given order) that have no finished result in this run."""
        done = self.finished(run_id)
        return [k for k in keys if k not in done]

    # -- findings ---------------------------------------------------------------------
    def add_finding(self, finding: Finding, run_id: str | None = None) -> int:
        """Store a finding (optionally tied to a run) with the checksum of its row; returns
        its row id. Rows of the same run, item and check that fail their checksum (damaged,
        or written by an older version without one) are replaced."""
        if not isinstance(finding, Finding):
            raise ValueError(f"finding must be a Finding, got {type(finding).__name__}")
        values = (run_id, finding.id, finding.check, finding.summary,
                  dumps(finding.evidence, strict=False), finding.reproduce, _now(),
                  dumps({"severity": finding.severity, "consequence": finding.consequence,
                         "root": finding.root, "provenance": finding.provenance,
                         "also": list(finding.also)}, strict=False))

        def tx(c: sqlite3.Connection) -> int:
            stale = [row[0] for row in c.execute(
                f"SELECT id, {', '.join(_FINDING_FIELDS)}, checksum FROM findings "
                "WHERE run_id IS ? AND item=? AND check_id=?", values[:3])
                if row[-1] != checksum(*row[1:-1])]
            c.executemany("DELETE FROM findings WHERE id=?", [(i,) for i in stale])
            cur = c.execute(
                f"INSERT INTO findings ({', '.join(_FINDING_FIELDS)}, checksum) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*values, checksum(*values)))
            return int(cur.lastrowid)
        return self._write(tx)

    def _finding_rows(self, run_id: str | None = None) -> list[tuple]:
        """The findings rows (columns :data:`_FINDING_FIELDS`) that pass their checksum,
        oldest first; the others are reported (:meth:`events`) and left out."""
        have = self._columns("findings")
        if "grading" not in have:       # first release: no grading, no checksum
            fields = ", ".join(f if f != "grading" else "NULL" for f in _FINDING_FIELDS)
        else:
            fields = ", ".join(_FINDING_FIELDS)
        digest = "checksum" if "checksum" in have else "NULL"
        sql = f"SELECT id, {fields}, {digest} FROM findings"
        params: tuple = ()
        if run_id is not None:
            sql += " WHERE run_id=?"
            params = (run_id,)
        good, bad = [], []
        for row_id, *fields_, stored in self._read(sql + " ORDER BY id", params):
            if stored is not None and stored == checksum(*fields_):
                good.append(tuple(fields_))
            else:
                kind = "finding-no-checksum" if stored is None else "finding-checksum-mismatch"
                bad.append((fields_[0], f"findings row {row_id}", kind))
        for rid, where, kind in bad:
            self._report(rid, [(where, kind)])
        return good

    def findings(self, run_id: str | None = None) -> list[dict[str, Any]]:
        """Findings of all runs (or of one), oldest first: ``Finding.as_dict()`` plus
        ``run_id`` and ``created``. Only rows that pass their checksum are returned; the
        others (edited, damaged, or stored by an older version without a checksum) are
        reported as events (:meth:`events`, and ``integrity_events`` on a read-only
        store); ``dptheory verify`` stores them again."""
        out = []
        for rid, item, check, summary, ev, rep, created, grading in self._finding_rows(run_id):
            g = loads(grading) or {}
            out.append(Finding(item, check, summary, loads(ev), rep, g["severity"],
                               g.get("consequence", ""), g.get("root", ""),
                               g.get("provenance", "printed"), tuple(g.get("also", ())))
                       .as_dict() | {"run_id": rid, "created": created})
        return out


def _cell_problem(run_id: str, key: str, status: str, text: Any, stored: Any) -> str | None:
    """None when a cell row passes its checksum, else the kind of event it is."""
    if not isinstance(text, str) or not isinstance(stored, str):
        return "no-checksum" if stored is None else "checksum-mismatch"
    if stored == checksum(run_id, key, status, text):
        return None
    if stored == _legacy_checksum(text):
        return "old-checksum"
    return "checksum-mismatch"


_EVENT_DETAILS = {
    "checksum-mismatch": "stored result does not match its checksum; recomputed",
    "no-checksum": "stored result has no checksum (older store); recomputed",
    "old-checksum": "stored result has the older checksum, which did not cover the cell "
                    "key; recomputed",
    "finding-checksum-mismatch": "stored finding does not match its checksum; left out",
    "finding-no-checksum": "stored finding has no checksum (older store); left out until "
                           "`dptheory verify` stores it again",
}


# ---------------------------------------------------------------------------- check / repair
def _companions(path: Path) -> list[Path]:
    """The file and its WAL and shared-memory companions."""
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def check(path: str | os.PathLike[str]) -> dict[str, Any]:
    """What is wrong with a store file, read-only: ``{"path", "ok", "problem", "runs",
    "cells", "bad_cells", "bad_findings", "events"}``. ``problem`` is None for a sound file;
    ``bad_cells`` lists the finished cells that fail their checksum (or have none),
    ``bad_findings`` the findings rows that do."""
    path = Path(path)
    out: dict[str, Any] = {"path": str(path), "ok": False, "problem": None, "runs": 0,
                           "cells": 0, "bad_cells": [], "bad_findings": [], "events": 0}
    try:
        store = Store(path, read_only=True)
    except StoreError as exc:
        out["problem"] = str(exc)
        return out
    with store:
        try:
            runs = store.runs()
            out["runs"] = len(runs)
            for run in runs:
                out["cells"] += sum(run["cells"].values())
                store._done_rows(run["id"])
            store._finding_rows()
            bad = [{"run_id": e["run_id"], "key": e["key"], "kind": e["kind"]}
                   for e in store.integrity_events]
            out["bad_cells"] = [b for b in bad if not b["kind"].startswith("finding-")]
            out["bad_findings"] = [b for b in bad if b["kind"].startswith("finding-")]
            out["events"] = len(store.events())
        except StoreError as exc:
            out["problem"] = str(exc)
            return out
    out["ok"] = not out["bad_cells"] and not out["bad_findings"]
    problems = []
    if out["bad_cells"]:
        problems.append(f"{len(out['bad_cells'])} finished cells fail their checksum; they "
                        "are recomputed on the next run (or dropped by `dptheory store repair`)")
    if out["bad_findings"]:
        problems.append(f"{len(out['bad_findings'])} findings rows fail their checksum; they "
                        "are not shown, and `dptheory verify` stores them again")
    if problems:
        out["problem"] = "; ".join(problems)
    return out


def _salvage(source: Path) -> tuple[list[tuple], list[tuple], list[tuple], int]:
    """Runs, cells that pass their checksum, findings that pass theirs, all read from
    ``source`` row by row, and the number of cell and findings rows left behind."""
    runs: list[tuple] = []
    cells: list[tuple] = []
    findings: list[tuple] = []
    dropped = 0
    try:
        conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return runs, cells, findings, dropped
    conn.text_factory = _decode        # an undecodable row is dropped, not the rest
    try:
        queries = {
            "runs": "SELECT id, created, command, config, status FROM runs",
            "cells": "SELECT run_id, key, status, result, wall_time, finished, attempts, "
                     "checksum FROM cells WHERE status='done'",
            "findings": f"SELECT {', '.join(_FINDING_FIELDS)}, checksum FROM findings",
        }
        keep = {
            "runs": lambda row: True,
            "cells": lambda row: _cell_problem(row[0], row[1], row[2], row[3], row[7]) is None,
            "findings": lambda row: row[-1] is not None and row[-1] == checksum(*row[:-1]),
        }
        for name, sql in queries.items():
            target = {"runs": runs, "cells": cells, "findings": findings}[name]
            try:
                cursor = conn.execute(sql)
                while True:   # row by row: a damaged page ends the table, not the salvage
                    row = cursor.fetchone()
                    if row is None:
                        break
                    if keep[name](row):
                        target.append(tuple(_printable(v) for v in row))
                    elif name != "runs":
                        dropped += 1
            except sqlite3.Error:
                continue
    finally:
        conn.close()
    return runs, cells, findings, dropped


def repair(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Move a store aside (``FILE.damaged-<UTC time>``, with its WAL files) and write a new
    one at ``path`` holding every run, every finished cell and every finding that still
    passes its checksum. Cells left behind are recomputed by the next run, findings stored
    again by the next ``dptheory verify``. Returns ``{"path", "moved_to", "runs",
    "cells_kept", "findings", "dropped"}`` (``dropped``: readable cell and findings rows
    that failed their checksum)."""
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"store {path} does not exist (nothing to repair)")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    try:
        for src, dst in zip(_companions(path), _companions(aside)):
            if src.exists():
                src.rename(dst)
    except OSError as exc:
        raise StoreError(f"cannot move store {path} aside ({exc.strerror}); check the folder "
                         "is writable") from None
    runs, cells, findings, dropped = _salvage(aside)
    with Store(path) as fresh:
        def tx(c: sqlite3.Connection) -> None:
            c.executemany("INSERT OR IGNORE INTO runs (id, created, command, config, status) "
                          "VALUES (?, ?, ?, ?, ?)", runs)
            c.executemany("INSERT OR IGNORE INTO cells (run_id, key, status, result, wall_time, "
                          "finished, attempts, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", cells)
            c.executemany(f"INSERT INTO findings ({', '.join(_FINDING_FIELDS)}, checksum) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", findings)
            c.execute("INSERT INTO events (run_id, key, kind, detail, created) "
                      "VALUES (NULL, NULL, 'repair', ?, ?)",
                      (f"moved the damaged file to {aside.name}; kept {len(cells)} cells and "
                       f"{len(findings)} findings; dropped {dropped} rows that failed their "
                       "checksum", _now()))
        fresh._write(tx)
    return {"path": str(path), "moved_to": str(aside), "runs": len(runs),
            "cells_kept": len(cells), "findings": len(findings), "dropped": dropped}
