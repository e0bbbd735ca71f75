"""Dimensional analysis and hypotheses-at-settings on hand-built items."""

import sympy as sp

from dptheory.symbolic import S, Theorem, units as U
from dptheory.symbolic.dimensions import check_dimensions, dimension
from dptheory.symbolic.hypotheses import hypotheses_at_settings

n, d, eps, delta, T = S.n, S.d, S.eps, S.delta, S.T


def test_dimensions_of_shared_symbols():
    # G^2/mu: ([F]/[w])^2 / ([F]/[w]^2) = [F]  (a loss value), by hand.
    assert sp.simplify(dimension(S.G**2 / S.mu) - U.F) == 0
    # eta * G: ([w]^2/[F]) ([F]/[w]) = [w]
    assert sp.simplify(dimension(S.eta * S.G) - U.W) == 0
    assert dimension(sp.log(n * eps)) == 1


def test_inconsistent_sum_and_log_argument_are_reported():
    issues = []
    dimension(S.G + S.beta, issues)
    assert issues and "terms of a sum differ" in issues[0]
    issues = []
    dimension(sp.log(S.G), issues)
    assert issues and "not dimensionless" in issues[0]


def test_check_dimensions_of_item():
    # An excess-risk bound G^2 d/(mu n^2 eps^2) is [F]: consistent; a setting eta = 1/sqrt(nT)
    # gives a dimensionless value to a step of dimension [w]^2/[F]: reported.
    th = Theorem("t.a", "t", "theorem", "a", bound=S.G**2 * d / (S.mu * n**2 * eps**2),
                 measured_unit=U.LOSS, settings={S.eta: 1 / sp.sqrt(n * T)})
    issues = check_dimensions(th)
    assert [i.where for i in issues] == ["setting eta"]
    th = Theorem("t.b", "t", "theorem", "b", bound=S.G * d / n, measured_unit=U.LOSS)
    assert [i.where for i in check_dimensions(th)] == ["bound"]


def test_hypotheses_at_settings_classification():
    # alpha = 1/n at the settings makes "alpha >= 1/n" an identity (symbolic); "alpha >= 2/n"
    # then never holds; "delta >= exp(-eps)" holds only in part of the domain.
    th = Theorem("t.h", "t", "theorem", "h", settings={S.alpha_m: 1 / n},
                 hypotheses=(("a", S.alpha_m >= 1 / n), ("b", S.alpha_m >= 2 / n),
                             ("c", delta >= sp.exp(-eps)), ("d", eps <= eps * n)))
    got = {h.label: h for h in hypotheses_at_settings(th)}
    assert got["a"].status == "always" and got["a"].method == "symbolic"
    assert got["b"].status == "never"
    assert got["c"].status == "regime" and got["c"].counterexample is not None
    # delta < exp(-eps) at the counterexample, checked independently:
    ce = got["c"].counterexample
    assert ce["delta"] < sp.exp(-ce["eps"])
    assert got["d"].status == "always"
