"""CLI: dptheory account | calibrate | routes."""

from __future__ import annotations

import json
import math

import pytest

from dptheory.cli import main


def run_json(capsys, argv):
    code = main(argv + ["--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_account_plain_gaussian_closed_form(capsys):
    # T plain Gaussian steps with Mironov's conversion at a single order z:
    # eps = z T/(2 s^2) + log(1/delta)/(z-1)
    d = run_json(capsys, ["account", "--noise-multiplier", "2", "--steps", "5", "--delta", "1e-5",
                          "--orders", "9", "--conversion", "mironov"])
    assert d["epsilon"] == pytest.approx(9 * 5 / 8 + math.log(1e5) / 8)
    assert d["order"] == 9


def test_account_subsampled_against_dp_accounting(capsys):
    dpa = pytest.importorskip("dp_accounting")
    orders = [2, 4, 8, 16, 32, 64]
    d = run_json(capsys, ["account", "--noise-multiplier", "1.1", "--sample-rate", "0.01",
                          "--steps", "1000", "--delta", "1e-5", "--orders"]
                 + [str(o) for o in orders])
    acc = dpa.rdp.RdpAccountant(orders)
    acc.compose(dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)),
                                        1000))
    assert d["epsilon"] == pytest.approx(acc.get_epsilon(1e-5), rel=1e-9)
    assert {"epsilon", "order", "delta"} <= set(d)


def test_account_text_and_fixed_size(capsys):
    assert main(["account", "--noise-multiplier", "1.0", "--sample-rate", "0.02", "--steps",
                 "100", "--delta", "1e-5", "--sampling", "fixed-size", "--orders", "2", "4",
                 "8"]) == 0
    assert "fixed-size" in capsys.readouterr().out


def test_calibrate(capsys):
    d = run_json(capsys, ["calibrate", "--target-epsilon", "2", "--target-delta", "1e-5",
                          "--sample-rate", "0.01", "--epochs", "3"])
    assert {"noise_multiplier", "epsilon"} <= set(d)
    assert d["epsilon"] <= 2.0 and d["epsilon"] > 1.99


def test_account_tight_both_ends_and_method(capsys):
    # T plain Gaussian steps at sigma: exactly one Gaussian at sigma/sqrt(T); both ends equal
    # the exact curve (Balle-Wang), here solved with scipy
    from scipy import optimize, stats
    d = run_json(capsys, ["account", "--noise-multiplier", "2", "--steps", "4", "--delta",
                          "1e-5", "--tight"])
    mu = math.sqrt(4) / 2
    ref = optimize.brentq(lambda e: stats.norm.cdf(mu / 2 - e / mu)
                          - math.exp(e) * stats.norm.cdf(-mu / 2 - e / mu) - 1e-5, 0, 50)
    assert d["epsilon_lower"] == pytest.approx(ref, rel=1e-6)
    assert d["epsilon_upper"] == pytest.approx(ref, rel=1e-6)
    assert d["accountant"] == "tight" and "exact Gaussian" in d["method"]
    sub = run_json(capsys, ["account", "--noise-multiplier", "1.1", "--sample-rate", "0.01",
                            "--steps", "300", "--delta", "1e-5", "--tight"])
    rdp = run_json(capsys, ["account", "--noise-multiplier", "1.1", "--sample-rate", "0.01",
                            "--steps", "300", "--delta", "1e-5"])
    assert sub["epsilon_lower"] <= sub["epsilon_upper"] <= rdp["epsilon"]
    assert main(["account", "--noise-multiplier", "1.1", "--sample-rate", "0.01", "--steps",
                 "300", "--delta", "1e-5", "--tight"]) == 0
    out = capsys.readouterr().out
    assert "true eps in [" in out and "upper:" in out and "lower:" in out


def test_calibrate_tight_saves_noise(capsys):
    d = run_json(capsys, ["calibrate", "--target-epsilon", "2", "--target-delta", "1e-5",
                          "--sample-rate", "0.01", "--steps", "100", "--accountant", "tight"])
    assert d["epsilon"] <= 2.0
    assert d["noise_multiplier"] < d["noise_multiplier_rdp"] and 0 < d["saving"] < 1


def test_routes(capsys):
    rows = run_json(capsys, ["routes", "--noise-multiplier", "1.1", "--sample-rate", "0.01",
                             "--steps", "1000", "--delta", "1e-5"])
    assert isinstance(rows, list) and len(rows) >= 8
    assert all({"route", "epsilon", "delta", "note"} <= set(r) for r in rows)
    by = {r["route"]: r for r in rows}
    assert by["rdp/poisson/improved"]["epsilon"] < by["rdp/poisson/mironov"]["epsilon"]
    for sampling in ("poisson", "fixed-size"):
        t = by[f"tight/{sampling}"]
        assert t["epsilon_lower"] <= t["epsilon"] <= by[f"rdp/{sampling}/improved"]["epsilon"]
    # zCDP without amplification: rho = T/(2 s^2), eps = rho + 2 sqrt(rho L)
    rho = 1000 / (2 * 1.1 ** 2)
    assert by["zcdp/no-amplification"]["epsilon"] == pytest.approx(
        rho + 2 * math.sqrt(rho * math.log(1e5)))
    assert by["classic-gaussian/per-step"]["epsilon"] == pytest.approx(
        math.sqrt(2 * math.log(1.25e5)) / 1.1)
    assert main(["routes", "--noise-multiplier", "1.1", "--sample-rate", "0.01", "--steps",
                 "1000", "--delta", "1e-5"]) == 0
    assert "advanced-composition/wang2020" in capsys.readouterr().out


@pytest.mark.parametrize("argv,msg", [
    (["account", "--noise-multiplier", "-1", "--steps", "3", "--delta", "1e-5"], "noise_multiplier"),
    (["account", "--noise-multiplier", "1", "--steps", "3", "--delta", "1.5"], "delta must be in (0, 1)"),
    (["account", "--noise-multiplier", "1", "--steps", "0", "--delta", "1e-5"], "steps must be"),
    (["account", "--noise-multiplier", "1", "--sample-rate", "2", "--steps", "3", "--delta", "1e-5"],
     "sample_rate must be in (0, 1]"),
    (["account", "--noise-multiplier", "1", "--steps", "3", "--delta", "1e-5", "--orders", "0.5"],
     "orders must be"),
    (["calibrate", "--target-epsilon", "0", "--target-delta", "1e-5", "--sample-rate", "0.1",
      "--steps", "10"], "target_epsilon"),
    (["routes", "--noise-multiplier", "1", "--sample-rate", "0", "--steps", "10", "--delta", "1e-5"],
     "sample_rate"),
    (["account", "--noise-multiplier", "1", "--steps", "3", "--delta", "1e-5", "--tight",
      "--orders", "4"], "--orders and --conversion belong to the RDP route"),
    (["account", "--noise-multiplier", "1", "--sample-rate", "0.1", "--steps", "3", "--delta",
      "1e-5", "--relation", "replace-one"], "--relation replace-one needs --tight"),
    (["account", "--noise-multiplier", "1", "--sample-rate", "0.1", "--steps", "3", "--delta",
      "1e-5", "--tight", "--sampling", "fixed-size", "--relation", "add-remove"],
     "fixed-size sampling needs relation='replace-one'"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, msg):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["calibrate", "--target-epsilon", "1", "--target-delta", "1e-5", "--sample-rate",
              "0.1", "--steps", "3", "--epochs", "2"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["account", "--steps", "3", "--delta", "1e-5"])
    assert exc.value.code == 2
