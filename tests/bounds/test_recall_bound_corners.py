"""Bounds at the corners of their theorem's domain (bounds/checks/recall_bound_corners.py):
zhang2021 Theorem 3.3's alpha at t0_Mon = 0 (momentum always off), with the expected
behaviour computed here from the printed formula by hand (mpmath)."""

from __future__ import annotations

import mpmath as mp

from dptheory import registry
from dptheory_bounds.checks.recall_bound_corners import ITEMS, bound_at_corner


def _first_term_by_hand(t_mon_K: mp.mpf, varrho: mp.mpf = mp.mpf(1) / 2) -> mp.mpf:
    """Theorem 3.3's first term without its positive prefactor 2 L^2 (T^K)^q/(c4 theta mu n):
    e^{2 varrho (t - 1)} (log(1 + 1/(2 varrho)) - log(1 + 1/(varrho t))/2)."""
    return mp.exp(2 * varrho * (t_mon_K - 1)) * (mp.log(1 + 1 / (2 * varrho))
                                                 - mp.log(1 + 1 / (varrho * t_mon_K)) / 2)


def test_printed_first_term_tends_to_minus_infinity_at_momentum_off():
    vals = [_first_term_by_hand(mp.mpf(10) ** -k) for k in (2, 10, 100, 1000)]
    assert all(a > b for a, b in zip(vals, vals[1:]))
    assert vals[-1] < -400           # ~ -(1/2) log(1/(varrho t)) e^{-1} = -423 at t = 1e-1000
    # every other term of alpha is finite at t = 0, so alpha itself -> -infinity
    try:
        _first_term_by_hand(mp.mpf(0))
        defined = True
    except ZeroDivisionError:
        defined = False
    assert not defined


def test_thm33_refuted_at_momentum_off_with_limit_minus_infinity():
    r = bound_at_corner("zhang2021.thm3.3")
    assert r.verdict == "refuted" and r.severity == "hypothesis"
    assert r.evidence["hypotheses_failing_at_witness"] == []
    assert r.evidence["one_sided_limit"] == "-oo"


def test_planted_corner_where_the_bound_is_finite_is_supported():
    spec = {**ITEMS["zhang2021.thm3.3"], "corner": ("tMon0", 1)}
    r = bound_at_corner("zhang2021.thm3.3", spec)
    assert r.verdict == "supported"
    assert r.evidence["bound_value"] > 0


def test_a_witness_outside_the_hypotheses_is_not_a_finding():
    spec = dict(ITEMS["zhang2021.thm3.3"])
    spec["witness"] = {**spec["witness"], "z21_c4": 3}          # violates 0 < c4 < 2
    r = bound_at_corner("zhang2021.thm3.3", spec)
    assert r.verdict == "inconclusive"


def test_every_listed_theorem_is_in_the_catalog_with_a_bound():
    for theorem_id in ITEMS:
        assert registry.get(theorem_id).bound is not None
