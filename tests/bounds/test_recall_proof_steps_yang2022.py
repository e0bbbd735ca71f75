"""yang2022 Lemma A.2's (12) against an exact one-step expectation (recall, proof steps)."""

from __future__ import annotations

import math

from scipy import integrate, stats

from dptheory_bounds.checks.recall_proof_steps_yang2022 import (expected_f_gaussian,
                                                                restricted_smoothness_slack,
                                                                yang2022_lemmaA2_step)


def test_expected_f_matches_an_independent_quadrature():
    for s in (0.5, 1.0, 4.0):
        tail, _ = integrate.quad(lambda z: (s * z - 1) ** 3 * stats.norm.pdf(z), 1 / s, math.inf)
        assert math.isclose(float(expected_f_gaussian(s)), s * s / 2 + 2 * tail / 3,
                            rel_tol=1e-9)
    # s = 1: E(|Z| - 1)_+^3 = 2 int_1^oo (z-1)^3 phi(z) dz = 0.1826 > 0 (excess = that / 3)
    assert float(expected_f_gaussian(1.0)) - 0.5 > 0.06


def test_objective_is_restricted_but_not_globally_generalized_smooth():
    assert restricted_smoothness_slack() <= 1e-12            # (L0, L1) = (1, 2), |w-w'| <= 1/2
    # global reading (G) fails: f'(3) - f'(0) = 3 + 4 = 7 > (1 + 2 |f'(0)|) * 3 = 3
    assert 3 + (3 - 1) ** 2 > 3


def test_lemmaA2_refuted_for_gaussian_and_holds_for_bounded_step():
    res = yang2022_lemmaA2_step()
    assert res.verdict == "refuted" and res.severity == "proof"
    assert all(r["excess"] > 0 for r in res.evidence["rows"])
    # planted: Rademacher step of the same variance inside the radius: (12) holds (equality)
    assert yang2022_lemmaA2_step("bounded").verdict == "supported"
