"""Bank Marketing and Wine Quality have no offline source: they run from the user's files
(``--data bank=PATH``, ``--data wine=RED,WHITE``), end to end through ``dptheory run`` and
``dptheory reproduce zhang2017.table3``, on generated files in the UCI layouts."""

from __future__ import annotations

import json

import pytest

from dptheory import cli

from .datasets.fixtures import BANK_LEVELS, BANK_NUMERIC, bank_csv, wine_csv


@pytest.fixture
def files(tmp_path):
    bank = tmp_path / "bank-full.csv"
    bank.write_text(bank_csv(n=150))
    red, white = tmp_path / "winequality-red.csv", tmp_path / "winequality-white.csv"
    red.write_text(wine_csv(n=70, seed=1))
    white.write_text(wine_csv(n=80, seed=2))
    return bank, red, white


def _cli(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _run_alg1(capsys, data: str, objective: str, mu: str) -> dict:
    """``dptheory run zhang2017.alg1 --data DATA`` with the given objective; its JSON."""
    code, out, err = _cli(capsys, "run", "zhang2017.alg1", "--data", data, "--objective",
                          objective, "--objective-param", f"mu={mu}", "--eps", "1",
                          "--delta", "1e-3", "--reps", "2", "--json")
    assert code == 0, err
    return json.loads(out)


def test_run_on_the_bank_file(capsys, files):
    bank, _, _ = files
    res = _run_alg1(capsys, f"bank={bank}", "logistic-ridge", "0.1")
    # 7 numeric columns kept, each of the 9 categorical columns one-hot over its levels
    assert res["n"] == 150
    assert res["d"] == len(BANK_NUMERIC) + sum(len(v) for v in BANK_LEVELS.values())
    assert res["data"]["source"]["dataset"] == "bank"
    assert "job=blue-collar" in res["data"]["features"]


def test_run_on_the_wine_files(capsys, files):
    _, red, white = files
    res = _run_alg1(capsys, f"wine={red},{white}", "huber-ridge", "0.5")
    assert res["n"] == 150 and res["d"] == 12           # 11 measurements + the 'red' flag
    assert res["data"]["source"]["dataset"] == "wine"


def test_reproduce_table3_on_bank_and_wine_files(capsys, tmp_path, files):
    bank, red, white = files
    code, out, err = _cli(capsys, "reproduce", "zhang2017.table3", "--quick",
                          "--datasets", "bank,wine", "--data", f"bank={bank}",
                          "--data", f"wine={red},{white}", "--subsample", "120", "--reps", "2",
                          "--out", str(tmp_path / "o"), "--no-figure", "--json")
    assert code == 0, err
    rep = json.loads(out)
    assert rep["cells_computed"] == 32                  # 2 datasets x 2 mu x 4 eps x 2 algs
    rows = {(r["dataset"], r["mu"], r["eps"]): r for r in rep["rows"]}
    assert {k[0] for k in rows} == {"bank", "wine"} and len(rows) == 16
    assert all(r["n"] == 120 and r["ours_error"] >= 0 and r["bassily_error"] >= 0
               for r in rows.values())
    # the paper's numbers sit beside ours (zhang2017 Table 3: WINE, mu = 0, eps = 0.1)
    assert rows[("wine", 0.0, 0.1)]["paper_ours_error"] == 0.6061
    assert rows[("bank", 0.1, 2.0)]["paper_ours_error"] is not None
