"""zhang2017 Theorem 5's O-rate decided by certified envelopes (``rrpsgd_envelope``): the
closed forms against the recursions they sum, the sandwich against the simulator, and the
algorithm's reported K."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dptheory.stats import one_sided_limits
from dptheory.verify import checks as C
from dptheory_simulations.algorithms import get as get_algorithm
from dptheory_simulations.experiments import zhang2017 as z
from dptheory_simulations.objectives import get as get_objective

R = {r.id: r for r in z.RECIPES}["zhang2017.thm5:slope-n"]


def _cell(n: int, reps: int, seed: int = 5) -> dict:
    return {"recipe": R.id, "point": {"n": n}, "block": 0, "first_replicate": 0, "reps": reps,
            "seed": seed, **R.fixed}


@pytest.mark.parametrize("eta,K", [(0.05, 40), (0.3, 7), (1e-3, 2000)])
def test_closed_forms_sum_the_recursions(eta, K):
    """U and L are the per-step recursions of the derivation summed over t = 1..K by hand."""
    beta, mu, X, d, s2, a0 = 1.5, 0.2, 0.8, 3, 2.0, 0.7
    lo, up = z._rrpsgd_envelope_at(K=K, eta=eta, s2=s2, a0=a0, X=X, mu=mu, beta=beta, d=d)
    su2 = X * X + d * s2
    c = 1 - beta * eta / 2
    # upper: sum_t g_t <= (a_1 - a_{K+1})/(eta c) + K beta eta su2/(2c), a_1 <= a0 + beta eta^2 su2/2
    a1 = a0 + beta * eta * eta * su2 / 2
    assert up == pytest.approx((a1 / (eta * c) + K * beta * eta * su2 / (2 * c)) / K, rel=1e-12)
    # lower: e_{t+1} = (1 - eta beta)^2 e_t + eta^2 d s^2 from e_0 = 0, g_t >= mu^2 e_t
    e, total = 0.0, 0.0
    for _ in range(K):
        e = (1 - eta * beta) ** 2 * e + eta * eta * d * s2
        total += mu * mu * e
    # K float64 steps of the recursion, each adding O(eps) relative: K eps <= 2000 x 2.2e-16
    # = 4.4e-13 (measured 1.4e-14); the closed form uses 1 - q = eta beta (2 - eta beta)
    # directly, without cancellation
    assert lo == pytest.approx(total / K, rel=1e-12)


def test_envelopes_need_eta_beta_at_most_one():
    with pytest.raises(ValueError, match="eta beta <= 1"):
        z._rrpsgd_envelope_at(K=3, eta=2.0, s2=1.0, a0=1.0, X=1.0, mu=0.1, beta=1.0, d=1)


def test_simulated_mean_lies_in_the_envelope():
    """512 runs of RRPSGD at n = 16: the mean of ||grad F(w_R)||^2 (two-sided 99.9%) lies
    within the certified [L, U] of the run."""
    out = z.rrpsgd_envelope(_cell(16, 512))
    lo, hi = one_sided_limits(out["samples"], 0.9995)
    env = out["envelope_here"]
    assert env["lower"] <= hi and lo <= env["upper"]
    assert 0 < env["lower"] < env["upper"]


def test_envelope_decides_the_printed_rate_and_catches_a_planted_one():
    """Over n = 1e4 .. 1e9 both envelopes decay at about -1 + 1/(2 log(3n/delta)): the printed
    n^-1 (with its sqrt(log) polylog) is supported, and a claim 0.5 steeper (n^-1.5) is refuted
    by the lower envelope."""
    out = z.rrpsgd_envelope(_cell(32, 4))
    e = out["envelope"]
    ok = C.envelope_rate_check(e["xs"], e["lower"], e["upper"], -1.0, tolerance=0.15,
                               polylog=True)
    assert ok.verdict == "supported"
    bad = C.envelope_rate_check(e["xs"], e["lower"], e["upper"], -1.5, tolerance=0.15,
                                polylog=True)
    assert bad.verdict == "refuted"
    s_l = math.log(e["lower"][-1] / e["lower"][-2]) / math.log(10)
    assert s_l == pytest.approx(-1 + 1 / (2 * math.log(3e9 / 1e-5)), abs=0.01)


def test_envelope_needs_ridge_logistic():
    with pytest.raises(ValueError, match="logistic-ridge"):
        z.rrpsgd_envelope({**_cell(16, 2), "family": "huber-ridge",
                           "objective_params": {"d": 3}})


def test_alg2_reports_K_n_squared_with_few_replicates():
    """params['K'] is n^2 even when every replicate's R stops early (a loop variable used to
    overwrite it with the last block's length)."""
    obj = get_objective("logistic-ridge", d=2, mu=0.1)
    data = obj.make_data(16, 0)
    r = get_algorithm("zhang2017.alg2")(obj, data, eps=1.0, delta=1e-5, reps=1, seed=3)
    assert r.params["K"] == 256
    assert int(np.max(r.params["R"])) <= 256


def test_envelope_needs_a_certified_lower_bound_on_min_F(monkeypatch):
    """a_0 = F(w0) - F* enters the upper envelope: with only the best value found (>= F*),
    a_0 would be too small, so the cell refuses instead of falling back to it."""
    from dptheory_simulations.objectives import Minimum
    from dptheory_simulations.objectives.erm import LogisticRidge
    real = LogisticRidge.minimum
    calls = {"n": 0}

    def no_lower(self, data):
        m = real(self, data)
        calls["n"] += 1
        return Minimum(m.value, False, None, m.w, "best value found only")
    monkeypatch.setattr(LogisticRidge, "minimum", no_lower)
    with pytest.raises(ValueError, match="certified lower bound"):
        z.rrpsgd_envelope(_cell(16, 2))
    assert calls["n"] >= 1
