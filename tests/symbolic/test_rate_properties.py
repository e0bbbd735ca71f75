"""Property tests of the rate algebra (Hypothesis), against independent numeric slopes."""

import math

import sympy as sp
from hypothesis import given, settings, strategies as st

from dptheory.symbolic import S
from dptheory.symbolic.derive import compare, exponent

n, d, eps = S.n, S.d, S.eps
rational = st.fractions(min_value=-3, max_value=3, max_denominator=4).map(sp.Rational)
coeff = st.integers(min_value=1, max_value=50)
monomial = st.tuples(coeff, rational, rational).map(lambda t: t[0] * n**t[1] * d**t[2])
posynomial = st.lists(monomial, min_size=1, max_size=3).map(lambda ms: sp.Add(*ms))
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None)


def numeric_slope(expr, dval=7.0):
    """Log-log slope in n between n = 1e40 and 1e80 (independent of the rate algebra)."""
    f = sp.lambdify(n, expr.subs(d, dval), "mpmath")
    import mpmath
    with mpmath.workdps(60):   # local: a global setting leaks into other tests
        a, b = mpmath.mpf(10)**40, mpmath.mpf(10)**80
        return float((mpmath.log(f(b)) - mpmath.log(f(a))) / (mpmath.log(b) - mpmath.log(a)))


@SETTINGS
@given(posynomial, posynomial)
def test_exponent_of_product_is_sum(a, b):
    ea = exponent(a, n, fixed={d: 7})
    eb = exponent(b, n, fixed={d: 7})
    assert exponent(a * b, n, fixed={d: 7}) == ea + eb


@SETTINGS
@given(posynomial)
def test_exponent_matches_numeric_slope(a):
    # Slopes differ from the exponent by O(log(coeff ratio)/log(n)) <= ~0.05 at n = 1e40..1e80.
    assert abs(float(exponent(a, n, fixed={d: 7})) - numeric_slope(a)) < 0.05


@SETTINGS
@given(posynomial, posynomial)
def test_compare_is_antisymmetric(a, b):
    g = {n: 1, d: 1}
    ab = compare(a, b, vary=n, growing=g, names=("a", "b"))
    ba = compare(b, a, vary=n, growing=g, names=("b", "a"))
    assert sp.sympify(ab.ratio_exponent) == -sp.sympify(ba.ratio_exponent)
    key = lambda c: sorted((r["better"], sp.simplify(sp.sympify(r["when"]))) for r in c.regimes)
    assert [(x, sp.srepr(y)) for x, y in key(ab)] == [(x, sp.srepr(y)) for x, y in key(ba)]


@SETTINGS
@given(posynomial, posynomial)
def test_numeric_crossover_is_where_both_sides_are_equal(a, b):
    c = compare(a, b, vary=n, growing={n: 1, d: 1}, fixed={d: 7})
    for eq in c.crossover:
        point = float(sp.sympify(eq).rhs)
        va, vb = float(a.subs({d: 7, n: point})), float(b.subs({d: 7, n: point}))
        assert math.isclose(va, vb, rel_tol=1e-8)
