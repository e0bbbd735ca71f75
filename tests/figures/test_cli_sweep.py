"""``dptheory sweep``: the API's engine, seeds and store from the command line; bad input
exits 2 with one line."""

from __future__ import annotations

import csv
import json

import pytest

import dptheory
from dptheory.cli import main

GRID = ["zhang2017.alg1", "--objective", "logistic-ridge", "--objective-param", "d=3",
        "--vary", "n=64,128", "--vary", "eps=0.5,1", "--fixed", "delta=0", "--reps", "3",
        "--theorem", "zhang2017.thm2.eps"]


def test_cli_sweep_same_numbers_as_api(tmp_path, capsys):
    out_csv, out_pdf = tmp_path / "s.csv", tmp_path / "s.pdf"
    store = tmp_path / "s.sqlite"
    assert main(["sweep", *GRID, "--csv", str(out_csv), "--plot", str(out_pdf),
                 "--store", str(store), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["computed"] == 4 and len(data["summary"]) == 4
    assert out_pdf.read_bytes().startswith(b"%PDF")
    rows = list(csv.DictReader(out_csv.open()))
    # the API with eps given as integers and floats: one seed per point, the same numbers,
    # and every cell resumed from the command's store
    api = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}),
                         {"n": [64, 128], "eps": [0.5, 1]}, reps=3, fixed={"delta": 0},
                         theorem="zhang2017.thm2.eps", store=store, progress=False)
    assert api.computed == 0
    assert [float(r["excess_risk"]) for r in rows] == [r["excess_risk"] for r in api.records]
    for row, s in zip(api.summary(), data["summary"]):
        assert s["mean"] == pytest.approx(row["mean"], rel=1e-12)
        assert s["ci_low"] <= s["mean"] <= s["ci_high"] and s["bound"] == row["bound"]


@pytest.mark.parametrize("argv, words", [
    (["--vary", "n=1"], "n must be an integer >= 2"),
    (["--vary", "n=64", "--plot", "x.jpg"], "--plot must end in"),
    (["--vary", "n=64", "--csv", "/no/such/dir/x.csv"], "does not exist"),
    (["--vary", "foo=1"], "--vary 'foo' is neither"),
    (["--vary", "n"], "--vary takes NAME=V1,V2"),
    (["--vary", "n=64", "--fixed", "n=64"], "both varied"),
    (["--vary", "n=64", "--reps", "0"], "--reps must be >= 1"),
    (["--vary", "n=64", "--fixed", "eps=1", "--fixed", "delta=1e-5", "--reps", "1",
      "--theorem", "tran2022.thm9"], "--at Fgap=..."),
])
def test_cli_sweep_bad_input_exits_2_with_one_line(argv, words, capsys):
    code = main(["sweep", "zhang2017.alg1", "--objective", "logistic-ridge", *argv])
    err = capsys.readouterr().err.strip()
    assert code == 2 and words in err and len(err.splitlines()) == 1, err


# --------------------------------------------------------------- the theorem's privacy model
# A bound for the eps-DP run drawn over the (eps, delta) run (Gaussian noise) compares two
# algorithms: the overlay once showed means of 11.2 above a "bound" of 1.76 that way.
def test_eps_dp_theorem_sets_delta_zero_when_unset():
    unset = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64]}, reps=3,
                           fixed={"eps": 1.0}, theorem="zhang2017.thm2.eps", progress=False)
    zero = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64]}, reps=3,
                          fixed={"eps": 1.0, "delta": 0}, theorem="zhang2017.thm2.eps",
                          progress=False)
    # the same key, hence the same seed and numbers as an explicit delta = 0
    assert [r["excess_risk"] for r in unset.records] == [r["excess_risk"] for r in zero.records]
    assert "delta = 0" in unset.settings["privacy_model"]
    without = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64]}, reps=3,
                             fixed={"eps": 1.0}, progress=False)
    # and not the numbers of the default (eps, delta = 1e-5) run
    assert [r["excess_risk"] for r in without.records] != [r["excess_risk"] for r in unset.records]


@pytest.mark.parametrize("theorem, delta, words", [
    ("zhang2017.thm2.eps", 1e-5, "eps-DP run (delta = 0)"),
    ("zhang2017.thm3.eps", 1e-5, "eps-DP run (delta = 0)"),
    ("zhang2017.thm2.approx", 0, "(eps, delta)-DP run (delta > 0)"),
])
def test_theorem_privacy_model_against_the_run_is_one_line(theorem, delta, words, capsys):
    argv = ["sweep", "zhang2017.alg1", "--objective", "logistic-ridge", "--vary", "n=64",
            "--fixed", f"delta={delta}", "--reps", "2", "--theorem", theorem]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and theorem in err[0]


def test_privacy_model_declared_or_inferred():
    import sympy as sp

    from dptheory import catalog
    from dptheory.symbolic.symbols import S
    from dptheory.symbolic.theorem import Theorem
    assert catalog.get("zhang2017.thm2.eps").privacy_model() == "eps-DP"
    assert catalog.get("zhang2017.thm2.approx").privacy_model() == "(eps,delta)-DP"
    # undeclared: a delta in the bound means the statement is about a delta > 0 run
    t = Theorem(id="x.t", title="t", kind="theorem", source="s", bound=sp.log(1 / S.delta) / S.n)
    assert t.privacy_model() == "(eps,delta)-DP"
    assert Theorem(id="x.u", title="u", kind="theorem", source="s",
                   bound=1 / S.n).privacy_model() == ""
    with pytest.raises(ValueError, match="privacy must be one of"):
        Theorem(id="x.v", title="v", kind="theorem", source="s", privacy="pure")
