"""Tables of named columns read from CSV, NPZ, Parquet or arrays, before any preprocessing.

A :class:`Table` holds each column as a 1-D array: float64 for numeric columns (missing
values are NaN) and ``object`` arrays of ``str`` for text columns (missing values are
``None``). A text column whose every present value parses as a number is numeric. What the
file held is kept in ``source`` (path, format, SHA-256 of the bytes read, row count), so a
prepared dataset records where it came from.

Readers:

* :func:`read_csv` — comma, semicolon or tab separated (sniffed from the first line unless
  given), with or without a header row (``names=``), plain, ``.gz`` or a ``.zip`` holding one
  file; values are stripped of spaces and quotes.
* :func:`read_npz` — ``numpy.savez`` archives: either ``X`` (n, d) and ``y`` (n,), or one
  1-D array per column.
* :func:`read_parquet` — needs ``pyarrow`` (optional: ``pip install pyarrow``).
* :func:`from_arrays` — ``X`` (n, d) and ``y`` (n,) with optional feature names.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import os
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

__all__ = ["Table", "MISSING_TOKENS", "read_table", "read_csv", "read_npz", "read_parquet",
           "from_arrays"]

# The longest cell read from a text file: the csv module's default field limit. A longer
# cell is almost always a quote left open that swallowed the rest of the file.
MAX_CELL = 131072

# Tokens read as a missing value in text files (after stripping spaces and quotes).
MISSING_TOKENS = frozenset({"", "?", "NA", "N/A", "NaN", "nan", "NULL", "null", "None"})

FORMATS = ("csv", "npz", "parquet")


@dataclass
class Table:
    """Named columns of equal length: float64 (NaN = missing) or object arrays of str
    (None = missing)."""

    columns: dict[str, np.ndarray]
    source: dict[str, Any] = field(default_factory=dict)
    lines: np.ndarray | None = None
    """The line of the file each row starts on (1-based; text files only), for messages."""

    def __post_init__(self) -> None:
        if not self.columns:
            raise ValueError("a table needs at least one column, got none")
        lengths = {name: len(col) for name, col in self.columns.items()}
        if len(set(lengths.values())) != 1:
            raise ValueError(f"columns must have equal lengths, got {lengths}")
        if self.n_rows == 0:
            where = self.source.get("path", "the table")
            raise ValueError(f"{where} has no data rows")
        if self.lines is not None and len(self.lines) != self.n_rows:
            raise ValueError(f"lines must give one line per row ({self.n_rows}), "
                             f"got {len(self.lines)}")

    @property
    def names(self) -> list[str]:
        """The column names, in order."""
        return list(self.columns)

    @property
    def n_rows(self) -> int:
        """The number of rows."""
        return len(next(iter(self.columns.values())))

    def column(self, name: str) -> np.ndarray:
        """The column ``name``; an unknown name raises ValueError listing the columns."""
        if name not in self.columns:
            raise ValueError(f"unknown column {name!r}; the columns are {_listing(self.names)}")
        return self.columns[name]

    def is_numeric(self, name: str) -> bool:
        """Whether column ``name`` is numeric (float64) rather than text."""
        return self.column(name).dtype == np.float64

    def missing(self, name: str) -> np.ndarray:
        """Boolean mask of the missing values of column ``name``."""
        col = self.column(name)
        if col.dtype == np.float64:
            return np.isnan(col)
        return np.array([v is None for v in col], dtype=bool)

    def take(self, rows: np.ndarray) -> "Table":
        """The rows ``rows`` (indices or a boolean mask) of every column."""
        return Table({k: v[rows] for k, v in self.columns.items()}, dict(self.source),
                     None if self.lines is None else self.lines[rows])

    def where(self, row: int) -> str:
        """Where row ``row`` (0-based) is, for a message: the file, and its line in a text
        file or its row number otherwise."""
        place = (f"line {int(self.lines[row])}" if self.lines is not None
                 else f"row {row + 1}")
        path = self.source.get("path")
        return f"{path}, {place}" if path else place


def _listing(names: Sequence[str], limit: int = 40) -> str:
    shown = ", ".join(repr(n) for n in names[:limit])
    return f"[{shown}{', ...' if len(names) > limit else ''}] ({len(names)} columns)"


def _typed(values: Sequence[str | None]) -> np.ndarray:
    """float64 when every present value parses as a number, else an object array of str."""
    out = np.empty(len(values), dtype=np.float64)
    try:
        for i, v in enumerate(values):
            out[i] = np.nan if v is None else float(v)
    except ValueError:
        return np.array(values, dtype=object)
    if np.any(np.isinf(out)):                 # "inf" parses but is no usable feature value
        return np.array(values, dtype=object)
    return out


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_bytes(path: Path) -> tuple[bytes, str]:
    """The file's bytes (the single member of a .zip, decompressed .gz) and the member name."""
    raw = path.read_bytes()
    if path.suffix == ".zip":
        try:
            with zipfile.ZipFile(io.BytesIO(raw)) as zf:
                members = [m for m in zf.namelist() if not m.endswith("/")]
                if len(members) != 1:
                    raise ValueError(f"{path}: a .zip must hold exactly one file, got {members}")
                return zf.read(members[0]), members[0]
        except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as exc:
            raise ValueError(f"{path}: not a complete .zip archive ({exc or type(exc).__name__}"
                             "); is the file truncated?") from None
    if path.suffix == ".gz":
        try:
            return gzip.decompress(raw), path.stem
        except (EOFError, OSError, zlib.error) as exc:   # truncated, or not gzip at all
            raise ValueError(f"{path}: not a complete gzip file ({exc or type(exc).__name__}"
                             "); is the file truncated?") from None
    return raw, path.name


def _check_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    if not p.exists():
        raise ValueError(f"data file {str(p)!r} does not exist")
    if p.is_dir():
        raise ValueError(f"data file {str(p)!r} is a directory; give a file")
    if not p.is_file():    # reading a FIFO or a device would block or never end
        raise ValueError(f"data file {str(p)!r} is not a regular file (a FIFO, device or "
                         "socket); give a file")
    return p


def read_csv(path: str | os.PathLike[str], *, delimiter: str | None = None,
             names: Sequence[str] | None = None, missing: Iterable[str] = MISSING_TOKENS,
             encoding: str = "utf-8") -> Table:
    """Read a delimited text file into a :class:`Table`.

    Parameters
    ----------
    path : path of a ``.csv``/``.data``/``.txt`` file, optionally ``.gz``, or a ``.zip``
        holding one such file.
    delimiter : ``","``, ``";"`` or ``"\\t"``; default: the one of these most frequent in the
        first line.
    names : column names for a file without a header row (default: the first row is the
        header).
    missing : tokens read as missing values.
    """
    p = _check_path(path)
    raw, member = _read_bytes(p)
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p}: not a {encoding} text file ({exc.reason} at byte "
                         f"{exc.start}); is it a CSV file?") from None
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ValueError(f"data file {str(p)!r} is empty")
    if delimiter is None:
        delimiter = max((",", ";", "\t"), key=lines[0].count)
    rows, starts = _parse(p, lines, delimiter, names)
    if names is None:
        header, body, starts = [h.strip() for h in rows[0]], rows[1:], starts[1:]
    else:
        header, body = list(names), rows
    if len(set(header)) != len(header) or any(not h for h in header):
        shown = [h if len(h) <= 40 else h[:40] + "..." for h in header[:40]]
        raise ValueError(f"{p}: column names must be non-empty and distinct, got {shown}")
    keep = [i for i, r in enumerate(body) if any(c.strip() for c in r)]
    body, starts = [body[i] for i in keep], [starts[i] for i in keep]
    if not body:
        raise ValueError(f"data file {str(p)!r} has a header but no data rows")
    width = len(header)
    for r, line in zip(body, starts):
        if len(r) != width:
            raise ValueError(f"{p}: line {line} has {len(r)} fields, the header has {width}")
    miss = frozenset(missing)
    cols: dict[str, np.ndarray] = {}
    for j, name in enumerate(header):
        vals = [r[j].strip().strip('"').strip() for r in body]
        cols[name] = _typed([None if v in miss else v for v in vals])
    return Table(cols, {"path": str(p), "member": member, "format": "csv",
                        "sha256": _sha256(raw), "rows": len(body)}, np.array(starts))


def _parse(p: Path, lines: list[str], delimiter: str,
           names: Sequence[str] | None) -> tuple[list[list[str]], list[int]]:
    """The rows of a delimited text and the line each starts on; a parser error or a cell
    over :data:`MAX_CELL` characters is one ValueError naming the file, line and column
    (``names``: the column names of a file without a header row)."""
    reader = csv.reader(lines, delimiter=delimiter, skipinitialspace=True)
    rows, starts = [], []
    limit = csv.field_size_limit()
    # the length check below names the line and column; the csv module's would name neither
    csv.field_size_limit(max(limit, max(map(len, lines)) + 1, sum(map(len, lines)) + 1))
    try:
        while True:
            start = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                raise ValueError(f"{p}, line {reader.line_num}: cannot parse ({exc})") from None
            for j, cell in enumerate(row):
                if len(cell) > MAX_CELL:
                    header = names if names is not None else (rows[0] if rows else ())
                    name = f" ({header[j].strip()[:40]!r})" if j < len(header) else ""
                    raise ValueError(f"{p}, line {start}, column {j + 1}{name}: a cell of "
                                     f"{len(cell)} characters (at most {MAX_CELL}); is a quote "
                                     "left open?")
            rows.append(row)
            starts.append(start)
    finally:
        csv.field_size_limit(limit)
    return rows, starts


def read_npz(path: str | os.PathLike[str]) -> Table:
    """Read a ``numpy.savez`` archive: ``X`` (n, d) and ``y`` (n,) (columns ``x0..``, ``y``),
    or one 1-D array per column. Object arrays are refused (they would need pickle)."""
    p = _check_path(path)
    raw = p.read_bytes()
    if not raw.startswith(b"PK"):              # every .npz is a zip archive
        raise ValueError(f"{p}: not a NumPy .npz archive")
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except ValueError as exc:
        raise ValueError(f"{p}: cannot read as .npz without pickle ({exc})") from None
    except (OSError, zipfile.BadZipFile, EOFError):
        raise ValueError(f"{p}: not a NumPy .npz archive") from None
    if not arrays:
        raise ValueError(f"data file {str(p)!r} is an empty .npz archive")
    if "X" in arrays and arrays["X"].ndim == 2:
        X = arrays.pop("X")
        cols = {f"x{j}": X[:, j] for j in range(X.shape[1])}
        cols.update(arrays)
    else:
        cols = arrays
    bad = {k: v.shape for k, v in cols.items() if v.ndim != 1}
    if bad:
        raise ValueError(f"{p}: every array must be 1-D (one column) besides X (n, d), got {bad}")
    table = Table({k: _column(v) for k, v in cols.items()},
                  {"path": str(p), "format": "npz", "sha256": _sha256(raw)})
    table.source["rows"] = table.n_rows
    return table


def _column(v: np.ndarray) -> np.ndarray:
    """A column from an array: numbers (bool, int, float) to float64, text to str objects."""
    if v.dtype.kind in "biuf":
        return np.asarray(v, dtype=np.float64)
    if v.dtype.kind in "US":
        vals = [str(x) for x in v.astype(str)]
        return _typed([None if x in MISSING_TOKENS else x for x in vals])
    raise ValueError(f"unsupported column dtype {v.dtype} (numbers or text only)")


def read_parquet(path: str | os.PathLike[str]) -> Table:
    """Read a Parquet file (needs ``pyarrow``; ``pip install pyarrow``)."""
    p = _check_path(path)
    try:
        import pyarrow.parquet as pq  # noqa: PLC0415 - optional, heavy: imported on use
    except ImportError:
        raise ValueError("reading Parquet needs pyarrow: pip install pyarrow "
                         "(or convert the file to CSV or NPZ)") from None
    raw = p.read_bytes()
    try:
        tbl = pq.read_table(io.BytesIO(raw))
    except Exception as exc:  # noqa: BLE001 - pyarrow raises its own error types
        raise ValueError(f"{p}: cannot read as Parquet ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
    cols = {}
    for name in tbl.column_names:
        values = tbl.column(name).to_pylist()
        if all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))
               or isinstance(v, bool) for v in values):
            cols[name] = np.array([np.nan if v is None else float(v) for v in values])
        else:
            cols[name] = _typed([None if v is None or str(v).strip() in MISSING_TOKENS
                                 else str(v).strip() for v in values])
    table = Table(cols, {"path": str(p), "format": "parquet", "sha256": _sha256(raw)})
    table.source["rows"] = table.n_rows
    return table


def read_table(path: str | os.PathLike[str], *, format: str | None = None,
               **kwargs: Any) -> Table:
    """Read ``path`` by its format: ``format`` or the suffix (``.npz``, ``.parquet``/``.pq``,
    anything else as delimited text)."""
    p = Path(path)
    if format is None:
        suffix = p.suffix.lower()
        format = {".npz": "npz", ".parquet": "parquet", ".pq": "parquet"}.get(suffix, "csv")
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {format!r}")
    reader = {"csv": read_csv, "npz": read_npz, "parquet": read_parquet}[format]
    return reader(p, **kwargs)


def from_arrays(X: Any, y: Any, *, names: Sequence[str] | None = None,
                target: str = "y") -> Table:
    """A table from features ``X`` (n, d) and targets ``y`` (n,); columns ``names`` (default
    ``x0..x{d-1}``) and ``target``."""
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array of shape (n, d), got shape {X.shape}")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}")
    names = [f"x{j}" for j in range(X.shape[1])] if names is None else list(names)
    if len(names) != X.shape[1] or target in names or len(set(names)) != len(names):
        raise ValueError(f"names must be {X.shape[1]} distinct column names other than "
                         f"{target!r}, got {names}")
    cols = {name: _column(X[:, j]) for j, name in enumerate(names)}
    cols[target] = _column(y)
    return Table(cols, {"format": "arrays", "rows": int(X.shape[0])})
