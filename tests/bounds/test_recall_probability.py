"""Probability terms against 1 (recall, item 6)."""

from __future__ import annotations

import sympy as sp

from dptheory import registry
from dptheory_bounds.checks.recall_probability import (CHECKS, ITEMS, PROBABILITY_EXPRESSIONS,
                                                       ROOT)


def test_every_item_with_a_success_probability_is_checked():
    declared = {k for k, v in registry.items().items()
                if any(e in v.expressions for e in PROBABILITY_EXPRESSIONS)}
    assert declared == set(ITEMS)


def test_wang2020_success_probability_is_nonpositive_at_p_1():
    for check in CHECKS:
        res = check.run()
        assert res.verdict == "refuted" and res.root == ROOT
        # independent: at p = 1, p^c = 1 and T = 6 Delta sqrt(rho)/alpha^1.5 = 6000 at
        # alpha = 1/100, Delta = rho = 1, so 1 - k zeta - T <= 1 - 6000 < 0
        assert sp.Rational(res.evidence["corner_value"]) < 1 - 6000 + 1
        assert res.evidence["T_at_corner_point"] == "6000"


def test_a_probability_that_stays_positive_is_not_refuted(monkeypatch):
    """Planted: a success probability 1 - zeta/2 (never <= 0) must not be refuted."""
    from dptheory_bounds.checks import recall_probability as m
    item = registry.get("wang2020.thm2")
    zeta = next(s for s in item.expressions["p_success"].free_symbols if str(s) == "w20_zeta")
    planted = type(item).__new__(type(item))
    object.__setattr__(planted, "__dict__", dict(item.__dict__))
    object.__setattr__(planted, "expressions", {"p_success": 1 - zeta / 2})
    monkeypatch.setattr(m.registry, "get", lambda _id: planted)
    assert m._probability_check("wang2020.thm2").verdict == "inconclusive"
