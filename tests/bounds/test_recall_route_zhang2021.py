"""zhang2021 Theorem 3.4: the rate does not follow from the route the paper names
(bounds/checks/recall_corrected.py, ``zhang2021.thm3.4:route-rate``). The lower bound over
every K is recomputed here by hand from the printed Theorem 3.3 (plain floats)."""

from __future__ import annotations

import math

import sympy as sp

from dptheory_bounds.checks.recall_corrected import _zhang2021_thm34_route


def _hand_lower_bound(n: float) -> float:
    """min over x = 2^K, K >= 1, of F0gap/x + (2 L^2/(c4 theta mu n)) (x T0)^q
    e^{2 varrho (x t0 - 1)} (log(1 + 1/(2 varrho)) - log(1 + 1/(varrho x t0))/2) at
    L = theta = mu = beta = F0gap = t0 = 1, c4 = 3/2, varrho = 1/2, T0 = 6 (two of the
    route's non-negative terms)."""
    q = (1 - 1 / n) / 1.5
    best = math.inf
    for K in range(1, 400):
        x = 2.0 ** K
        if x > 512:
            break               # e^{x - 1} > 1e221: the term alone is far above 1
        t1 = (2 / (1.5 * n)) * (x * 6) ** q * math.exp(x - 1) * (
            math.log(2) - math.log(1 + 2 / x) / 2)
        best = min(best, 1 / x + t1)
    return best


def test_route_over_every_K_stays_far_above_the_printed_rate():
    r = _zhang2021_thm34_route()
    assert r.verdict == "refuted" and r.severity == "proof"
    assert r.evidence["hypotheses_failing"] == []
    for row in r.evidence["rows"]:
        n = float(row["n"])
        hand = _hand_lower_bound(n)
        # the route (all terms) is at least the two terms recomputed here, and the
        # analytic bound is below both
        assert row["route_min_over_K"] >= hand * (1 - 1e-9)
        assert row["analytic_lower_bound_every_K"] <= hand
        assert hand / math.sqrt(1 / n) > 100      # printed rate sqrt(1/(theta mu n))


def test_planted_trivial_rate_is_not_refuted():
    """Against an O(1) rate the route is fine: the ratio does not grow."""
    r = _zhang2021_thm34_route(rate_override=sp.Integer(1))
    assert r.verdict == "inconclusive"
