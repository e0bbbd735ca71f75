"""The rate algebra on hand-derived examples (expectations derived on paper, in comments)."""

import sympy as sp

from dptheory.symbolic import S, Theorem, units as U
from dptheory.symbolic.derive import compare, derive, exponent

n, d, eps, delta, T = S.n, S.d, S.eps, S.delta, S.T
half, third = sp.Rational(1, 2), sp.Rational(1, 3)


def _thm9():
    # tran2022 Theorem 9 as printed (tran2022, Theorem 9), written independently here.
    K = 16 * sp.log(T, 2) * sp.log(1 / delta)
    R, G, L = S.Fgap, S.G, S.beta
    bound = ((sp.Rational(3, 2) * R + 24 * K * (G + 2 * L) + 12 * L) * d**third / (eps * n)**(2 * third)
             + 6 * G / sp.sqrt(n) + 36 * G * K * sp.sqrt(d) / (eps * n) + 9 * K * L * sp.sqrt(d) / (eps * n))
    rate = d**third / (eps * n)**(2 * third) + 1 / sp.sqrt(n)
    T9 = n**sp.Rational(7, 3) * eps**sp.Rational(4, 3) / d**sp.Rational(2, 3)
    return Theorem("test.thm9", "t", "theorem", "Thm 9", bound=bound, rate=rate, settings={T: T9},
                   rate_notation="Otilde", measured_unit=U.GRAD)


def test_thm9_agrees_when_sqrt_d_below_eps_n():
    # By hand: the settings leave T only inside logs, so the bound is
    # Theta(d^(1/3)/(eps n)^(2/3) + 1/sqrt(n) + sqrt(d)/(eps n)) up to polylogs. The last term
    # is below the first iff d^(1/6) <= (eps n)^(1/3) iff sqrt(d) <= eps n; below 1/sqrt(n)
    # iff sqrt(d) <= eps sqrt(n), which implies the former. Regime: sqrt(d) <= eps n.
    r = derive(_thm9())
    assert r.verdict == "agrees-in-regime"
    assert sp.simplify(r.regime.lhs - sp.sqrt(d)) == 0
    assert sp.simplify(r.regime.rhs - eps * n) == 0
    # Outside the regime the sqrt(d)/(eps n) term leads: d-exponent 1/2 vs the stated 1/3.
    assert r.exponent_difference["d"]["derived"] == "1/2"
    assert r.exponent_difference["d"]["stated"] == "1/3"
    assert "log(1/delta)" in r.polylog_derived


def test_disagreeing_rate_reports_exponent_difference():
    # bound 1/sqrt(n) + d/n with stated rate 1/n: leading n-exponent -1/2 vs -1 everywhere.
    th = Theorem("test.x", "t", "theorem", "x", bound=1 / sp.sqrt(n) + d / n, rate=1 / n)
    r = derive(th)
    assert r.verdict == "disagrees"
    assert r.exponent_difference["n"]["difference"] == "1/2"


def test_agrees_everywhere_and_not_derivable():
    th = Theorem("test.y", "t", "theorem", "y", bound=3 * d / n + 1 / n**2, rate=d / n)
    assert derive(th).verdict == "agrees"
    th = Theorem("test.z", "t", "theorem", "z", bound=1 / (d / n + n / d), rate=n / d)
    r = derive(th)
    assert r.verdict == "not-derivable" and "negative power" in r.reason
    assert derive(Theorem("test.w", "t", "theorem", "w", rate=1 / n)).verdict == "not-derivable"


def test_implicit_setting_through_log():
    # T = eps n^2 / log2(T): log2 T is a polylog, so T ~ eps n^2 and sqrt(1/T) ~ n^-1 eps^-1/2.
    th = Theorem("test.imp", "t", "theorem", "imp", bound=1 / sp.sqrt(T),
                 rate=1 / (n * sp.sqrt(eps)), settings={T: eps * n**2 / sp.log(T, 2)})
    assert derive(th).verdict == "agrees"


def test_stated_constant_powers_are_compared():
    # The rate names G^2; the derived leading term carries G^4/3 -> reported.
    th = Theorem("test.c", "t", "theorem", "c", bound=S.G**sp.Rational(4, 3) * d / n,
                 rate=S.G**2 * d / n)
    r = derive(th)
    assert r.verdict == "agrees" and r.constants and "G" in r.constants[0]


def test_exponent_with_scaled_and_fixed():
    rate = d**third / (eps * n)**(2 * third) + 1 / sp.sqrt(n)
    assert exponent(rate, n, fixed={d: 100, eps: 1}) == -half
    # d = n: d^(1/3) n^(-2/3) = n^(1/3 - 2/3) = n^(-1/3) dominates n^(-1/2).
    assert exponent(rate, n, scaled={d: n}, fixed={eps: 1}) == -third
    # d = n^3: n^(1 - 2/3) = n^(1/3): the rate grows.
    assert exponent(rate, n, scaled={d: n**3}, fixed={eps: 1}) == third


def test_compare_tran2022_thm9_thm6_turns_at_sqrt_d_eq_eps_n():
    rate9 = d**third / (eps * n)**(2 * third) + 1 / sp.sqrt(n)
    rate6 = d**sp.Rational(1, 4) / sp.sqrt(eps * n) + 1 / sp.sqrt(n)
    c = compare(rate9, rate6, vary=n, growing={n: 1, d: 1, eps: -1}, names=("a", "b"))
    # By hand: rate9/rate6 ~ d^(1/12)/(eps n)^(1/6) < 1 iff sqrt(d) < eps n.
    whens = {r["better"]: r["when"] for r in c.regimes}
    assert whens == {"a": "sqrt(d) < eps*n", "b": "eps*n < sqrt(d)"}
    assert c.crossover == ["Eq(sqrt(d), eps*n)"]
    # d = 100, eps = 1: the full expressions cross where 100^(1/3) n^(-2/3) = 100^(1/4) n^(-1/2),
    # i.e. n^(1/6) = 100^(1/12), n = 10.
    c = compare(rate9, rate6, vary=n, growing={n: 1, d: 1, eps: -1}, fixed={d: 100, eps: 1})
    assert len(c.crossover) == 1
    assert abs(float(sp.sympify(c.crossover[0]).rhs) - 10) < 1e-9
    assert [r["better"] for r in c.regimes] == ["b", "a"]      # rate6 below n = 10, rate9 above
