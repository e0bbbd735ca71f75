"""Each check's pass / fail / inconclusive on constructed data."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from dptheory.verify.checks import (bound_check, derivation_check, sensitivity_check,
                                    slope_check, stability_check)
from dptheory.verify.verdict import CheckResult


def _ok(result: CheckResult, verdict: str) -> CheckResult:
    assert isinstance(result, CheckResult)
    assert result.verdict == verdict, result.summary
    json.dumps(result.evidence, allow_nan=True)          # evidence is plain JSON
    return result


# ---------------------------------------------------------------------------- bound
@pytest.fixture
def around_one():
    return np.random.default_rng(0).normal(1.0, 0.1, 50)     # mean ~1, half-width ~0.03


def test_bound_check_upper(around_one):
    r = _ok(bound_check(around_one, 2.0, quantity="excess_risk"), "pass")
    assert r.evidence["high"] <= 2.0 and r.evidence["bound"] == 2.0
    assert r.evidence["mean_over_bound"] == pytest.approx(around_one.mean() / 2)
    r = _ok(bound_check(around_one, 0.5), "fail")
    assert r.evidence["low"] > 0.5
    _ok(bound_check(around_one, float(around_one.mean())), "inconclusive")
    _ok(bound_check(around_one, float("inf")), "pass")
    _ok(bound_check([0.3], 1.0), "inconclusive")                 # one replicate: no interval
    _ok(bound_check(around_one, 2.0, method="bootstrap"), "pass")


def test_bound_check_lower(around_one):
    _ok(bound_check(around_one, 0.5, direction="lower"), "pass")
    _ok(bound_check(around_one, 2.0, direction="lower"), "fail")
    _ok(bound_check(around_one, float(around_one.mean()), direction="lower"), "inconclusive")


def test_bound_check_confidence_matters():
    x = np.random.default_rng(1).normal(1.0, 0.2, 30)
    c50 = bound_check(x, 1.0, confidence=0.5).evidence
    c99 = bound_check(x, 1.0, confidence=0.99).evidence
    assert c99["high"] - c99["low"] > c50["high"] - c50["low"]
    assert c99["low"] < c50["low"] <= c50["mean"] <= c50["high"] < c99["high"]


def test_bound_check_rejects_bad_input(around_one):
    with pytest.raises(ValueError, match="bound"):
        bound_check(around_one, float("nan"))
    with pytest.raises(ValueError, match="direction"):
        bound_check(around_one, 1.0, direction="both")
    with pytest.raises(ValueError, match="finite"):
        bound_check([1.0, float("inf")], 1.0)


# ---------------------------------------------------------------------------- slope
XS = [100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0]


def _power_law(slope, noise, reps, seed=0):
    rng = np.random.default_rng(seed)
    return [2.0 * x ** slope * rng.lognormal(0.0, noise, reps) for x in XS]


def test_slope_check_two_sided():
    tight = _power_law(-0.5, 0.1, 40)
    r = _ok(slope_check(XS, tight, -0.5), "pass")
    assert r.evidence["low"] <= -0.5 <= r.evidence["high"] and r.evidence["distance"] == 0.0
    _ok(slope_check(XS, tight, -0.6), "pass")                  # within the 0.15 tolerance
    r = _ok(slope_check(XS, tight, -1.0), "fail")
    assert r.evidence["distance"] > r.evidence["tolerance"]
    _ok(slope_check(XS, tight, -1.0, tolerance=0.6), "pass")
    noisy = _power_law(-0.5, 2.0, 3, seed=2)                    # wide interval
    r = slope_check(XS, noisy, -0.5, tolerance=0.5)
    assert r.evidence["width"] > 0.5
    _ok(r, "inconclusive")


def test_slope_check_polylog_is_absorbed_by_tolerance():
    # y = log(x) / sqrt(x): the fitted slope is about -0.5 + 1/log(x) ~ -0.33 over this sweep
    samples = [[np.log(x) / np.sqrt(x)] * 3 for x in XS]
    _ok(slope_check(XS, samples, -0.5, tolerance=0.05), "fail")
    _ok(slope_check(XS, samples, -0.5, tolerance=0.25), "pass")


def test_slope_check_one_sided():
    faster = _power_law(-1.0, 0.1, 40)
    _ok(slope_check(XS, faster, -0.5, direction="upper"), "pass")   # bound holds, not tight
    _ok(slope_check(XS, faster, -0.5), "fail")                      # but not the claimed rate
    _ok(slope_check(XS, faster, -1.5, direction="upper"), "fail")
    _ok(slope_check(XS, faster, -1.5, direction="lower"), "pass")
    _ok(slope_check(XS, faster, -0.5, direction="lower"), "fail")
    noisy = _power_law(-0.5, 2.0, 3, seed=2)
    _ok(slope_check(XS, noisy, -0.5, direction="upper"), "inconclusive")


def test_slope_check_rejects_bad_input():
    s = _power_law(-0.5, 0.1, 5)
    with pytest.raises(ValueError, match="tolerance"):
        slope_check(XS, s, -0.5, tolerance=-0.1)
    with pytest.raises(ValueError, match="direction"):
        slope_check(XS, s, -0.5, direction="up")
    with pytest.raises(ValueError, match="expected_slope"):
        slope_check(XS, s, float("nan"))


# ---------------------------------------------------------------------------- sensitivity
def test_sensitivity_check():
    r = _ok(sensitivity_check([0.5, 1.0, 1.0 + 1e-12], 1.0), "pass")   # float round-off
    assert r.evidence["n_examples"] == 3 and r.evidence["worst_index"] == 2
    examples = [{"i": 0, "x": np.array([0.0, 1.0])}, {"i": 1, "x": np.array([3.0, 4.0])}]
    r = _ok(sensitivity_check([0.5, 1.1], 1.0, examples=examples), "fail")
    assert r.evidence["worst_example"] == {"i": 1, "x": [3.0, 4.0]}
    assert r.evidence["excess"] == pytest.approx(0.1) and r.evidence["ratio"] == pytest.approx(1.1)
    r = _ok(sensitivity_check(2.0, 1.0, example="S, S' differing in row 7"), "fail")
    assert r.evidence["worst_example"] == "S, S' differing in row 7"
    r = _ok(sensitivity_check(2.0, 1.0, worst={"row": 7}), "fail")
    assert r.evidence["worst_example"] == {"row": 7}
    _ok(sensitivity_check(1.0 + 2e-9, 1.0), "fail")
    _ok(sensitivity_check(1.0 + 2e-9, 1.0, rtol=1e-8), "pass")
    _ok(sensitivity_check([], 1.0), "inconclusive")
    with pytest.raises(ValueError, match="NaN"):
        sensitivity_check([float("nan")], 1.0)
    with pytest.raises(ValueError, match="align"):
        sensitivity_check([1.0, 2.0], 3.0, examples=[1])


# ---------------------------------------------------------------------------- stability
def test_stability_check():
    rng = np.random.default_rng(4)
    pairs = rng.normal(0.1, 0.01, (5, 40))
    r = _ok(stability_check(pairs, 0.2), "pass")
    assert r.evidence["n_pairs"] == 5
    assert r.evidence["per_pair_confidence"] == pytest.approx(1 - 0.05 / 5)
    bad = pairs.copy()
    bad[3] += 0.4
    r = _ok(stability_check(bad, 0.2), "fail")
    assert r.evidence["worst_pair"] == 3 and r.evidence["worst"]["low"] > 0.2
    _ok(stability_check(pairs, float(pairs[0].mean())), "inconclusive")
    _ok(stability_check(list(pairs[0]), 0.2), "pass")                        # one pair, 1-d
    ragged = [list(pairs[0][:10]), list(pairs[1])]
    _ok(stability_check(ragged, 0.2, confidence=0.9), "pass")


def test_stability_bonferroni_makes_it_more_cautious():
    rng = np.random.default_rng(5)
    pairs = rng.normal(0.1, 0.05, (50, 10))
    one = stability_check(pairs[:1], 0.15)
    many = stability_check(pairs, 0.15)
    assert many.evidence["pairs"][0]["high"] > one.evidence["pairs"][0]["high"]


# ---------------------------------------------------------------------------- derivation
def test_derivation_check_maps_verdicts():
    from dptheory.symbolic.derive import Derivation
    n, d, eps = sp.symbols("n d eps", positive=True)
    _ok(derivation_check(Derivation("p.thm1", "agrees", stated="sqrt(d)/(eps*n)",
                                    derived="sqrt(d)/(eps*n)", regime=sp.true)), "pass")
    r = _ok(derivation_check(Derivation("p.thm2", "agrees-in-regime", regime=sp.Le(d, (eps * n) ** 2))),
            "pass")
    assert r.evidence["regime"] == "d <= eps**2*n**2" and "only when" in r.summary
    r = _ok(derivation_check(Derivation("p.thm3", "disagrees", stated="1/n", derived="1/sqrt(n)")),
            "fail")
    assert "disagree" in r.summary and r.evidence["derived"] == "1/sqrt(n)"
    r = _ok(derivation_check({"id": "p.thm4", "verdict": "not-derivable", "reason": "no rate"}),
            "inconclusive")
    assert "no rate" in r.summary
    with pytest.raises(ValueError, match="verdict"):
        derivation_check({"verdict": "maybe"})
    with pytest.raises(ValueError, match="Derivation"):
        derivation_check(3)
