"""Data in, from anywhere: files, arrays and the papers' datasets, with recorded preprocessing.

* :mod:`.tables` reads CSV (plain, .gz, .zip), NPZ and Parquet files, or arrays, into a
  :class:`~.tables.Table` of named columns;
* :mod:`.prepare` turns a table into training (and test) :class:`Dataset`\\ s by explicit,
  recorded steps (:class:`~.prepare.Preprocessing`);
* :mod:`.named` reads the papers' datasets from the registry packages that ship them.

:func:`load` takes any of these by one name: a named dataset (``"credit"``), a named
dataset with user files (``"bank=/path/bank-full.csv"``), or a file path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .named import NAMED, DataPackageMissing, NamedDataset, install_command, load_named
from .prepare import Prepared, Preprocessing, prepare
from .tables import Table, from_arrays, read_csv, read_npz, read_parquet, read_table

__all__ = ["load", "load_arrays", "NAMED", "DataPackageMissing", "NamedDataset",
           "install_command", "load_named", "Prepared", "Preprocessing", "prepare", "Table",
           "from_arrays", "read_csv", "read_npz", "read_parquet", "read_table"]


def load(source: str | Path, *, target: str | None = None, **spec: Any) -> Prepared:
    """Data from a named dataset, ``NAME=PATH[,PATH]`` (a named dataset read from user
    files) or a file path; ``spec`` are :class:`Preprocessing` fields.

    A file needs ``target`` (its target column); a named dataset has a default target.
    """
    text = str(source)
    name, _, rest = text.partition("=")
    if name in NAMED:
        paths = [p for p in rest.split(",") if p] if rest else None
        return load_named(name, paths, target=target, **spec)
    if text in ("", "-"):
        raise ValueError("data must be a dataset name or a file path, got an empty value")
    path = Path(text)
    if not path.exists():
        raise ValueError(f"data {text!r} is neither a named dataset ({', '.join(sorted(NAMED))})"
                         " nor an existing file")
    if target is None:
        raise ValueError(f"a data file needs its target column: give target (--target COLUMN)"
                         f" for {text!r}")
    table = read_table(path)
    return prepare(table, Preprocessing(target=target, **spec), name=path.name)


def load_arrays(X: Any, y: Any, *, names: Any = None, **spec: Any) -> Prepared:
    """Prepare arrays ``X`` (n, d) and ``y`` (n,) with the recorded steps of ``spec``."""
    return prepare(from_arrays(X, y, names=names), Preprocessing(target="y", **spec),
                   name="arrays")
