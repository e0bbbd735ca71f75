"""Dimensional issues are decided at scaled constants (issue: errors hidden by constants
equal to 1): every item whose statement is consistent only under an undeclared unit choice
has a check that evaluates it at constants far from 1, and remark (3) after zhang2017's
Theorem 3 fails along the loss scale."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dptheory import registry
from dptheory_bounds.checks.recall_dimensions import (DIMENSION_DECIDERS, DimensionDecider,
                                                      dimension_issues, thm3_remarks_row,
                                                      undecided_dimensions,
                                                      zhang2017_thm3_remarks_scale)


def _check_ids() -> set[str]:
    return {c.id for c in registry.checks()}


def test_every_dimensional_issue_has_a_registered_decider():
    assert undecided_dimensions(registry.items(), _check_ids()) == []


def test_a_missing_or_dangling_decider_is_caught():
    table = {k: v for k, v in DIMENSION_DECIDERS.items() if k != "zhang2017.thm6"}
    table["zhang2017.thm1"] = DimensionDecider(("zhang2017.thm1:nope",), "c: 4", "planted")
    problems = undecided_dimensions(registry.items(), _check_ids(), table)
    assert "zhang2017.thm6: dimensional issue without a decider" in problems
    assert "zhang2017.thm1: decider of an item without a dimensional issue" in problems
    assert "zhang2017.thm1: decider check zhang2017.thm1:nope is not registered" in problems


@pytest.mark.parametrize("item_id", sorted(DIMENSION_DECIDERS))
def test_each_decider_decides_at_constants_far_from_1(item_id):
    """The decider's verdict is a decision (not inconclusive) and it varied a constant to
    1/4 or below, or 4 or above."""
    assert dimension_issues(registry.get(item_id))
    by_id = {c.id: c for c in registry.checks()}
    for cid in DIMENSION_DECIDERS[item_id].checks:
        res = by_id[cid].run()
        assert res.verdict in ("refuted", "supported"), (cid, res.summary)
        varied = " ".join(res.evidence["constants_varied"])
        assert any(x in varied for x in ("1/4", "0.25", "100", "1e4", "1e6", " 4", " 10")), varied


def _independent_quantile(c: float, n=1000, eps=1.0, delta=1e-3, gam=0.1, d=1, R=1.0):
    """Remark (3)'s instance from the paper's text, recomputed by sampling: mu as printed,
    Theorem 2's Delta on f + (mu/2) w^2 with L' = c + 2 mu D (D = R = 1), the Gaussian of
    Algorithm 1, the excess c h(z); the (1 - gamma) sample quantile of 10^6 draws."""
    L = beta = c
    mu = math.sqrt(2) * math.sqrt(L) * (beta * d) ** 0.25 / (math.sqrt(n * eps * gam) * R)
    Lp, bp = L + 2 * mu * R, beta + mu
    Delta = 5 * Lp * (1 + bp / mu) / (n * bp)
    var = 4 * math.log(2 / delta) * Delta ** 2 / (2 * eps ** 2)   # density exp(-z^2/(2 var))
    z = np.random.default_rng(7).normal(0.0, math.sqrt(var), 10 ** 6)
    r = np.abs(z)
    h = np.where(r <= 1, r * r / 2, r - 0.5)
    return float(np.quantile(c * h, 1 - gam)), L ** 0.5 * (beta * d) ** 0.25 * R / math.sqrt(n * eps * gam)


@pytest.mark.parametrize("c", [1.0, 1e6])
def test_thm3_remarks_quantile_matches_sampling(c):
    row = thm3_remarks_row(c)
    q, rate = _independent_quantile(c)
    assert row["excess_quantile[L'=L+2muD]"] == pytest.approx(q, rel=0.01)
    assert row["printed_rate"] == pytest.approx(rate, rel=1e-5)   # 6 significant digits
    # the reconstructed .reg bound at the printed mu is sqrt(2) times the printed rate
    assert row["reg_bound_at_printed_mu"] == pytest.approx(math.sqrt(2) * rate, rel=1e-5)
    assert row["excess_quantile_analytic_lower"] <= min(
        row["excess_quantile[L'=L+2muD]"], row["excess_quantile[L'=L]"])


def test_thm3_remarks_refuted_along_the_loss_scale():
    res = zhang2017_thm3_remarks_scale()
    assert res.verdict == "refuted"
    assert res.severity == "rate" and res.root == "zhang2017.thm2.gen:loss-scale"
    rows = {(r["c"], r["a"]): r for r in res.evidence["rows"]}
    # the claim holds at c = 1 with constant 1 and fails far from it
    assert rows[(1.0, 1.0)]["ratio"] < 1 < rows[(1e6, 1.0)]["ratio_analytic_lower"]
    # invariance under w -> a w (the claim is consistent in [w])
    for a in (0.25, 4.0):
        assert rows[(1.0, a)]["ratio"] == pytest.approx(rows[(1.0, 1.0)]["ratio"], rel=1e-5)
    # the proof's exponent: the certified ratio grows as c^(1/2) asymptotically
    assert res.evidence["slopes_certified_ratio_in_c"]["1e4..1e6"] == pytest.approx(0.5, abs=0.06)


def test_thm3_remarks_planted_claims():
    # a claim that grows like the excess (c^(5/4) here, the noise grows as c^(1/4) at the
    # printed mu) is supported; one short by c^(1/4) is refuted
    assert zhang2017_thm3_remarks_scale(lambda e: 10 * e["G"] ** 1.25).verdict == "supported"
    assert zhang2017_thm3_remarks_scale(lambda e: 10 * e["G"]).verdict == "refuted"
