"""Issue 10's symbolic rules on constructed items; expectations derived by hand in comments."""

import sympy as sp

from dptheory.symbolic import S, Theorem, units as U
from dptheory.symbolic.derive import derive
from dptheory.symbolic.dimensions import check_dimensions, unit_choices
from dptheory.symbolic.hypotheses import regime_report
from dptheory.verify.checks import derivation_check
from dptheory.verify.verdict import Finding, merge_findings

n, d, eps, alpha = S.n, S.d, S.eps, sp.Symbol("alpha", positive=True)


def test_loose_sufficient_condition_agrees():
    # A sufficient sample size n >= c1 sqrt(d)/alpha^(7/4) + c2 d/alpha^(5/4) (the derived
    # one), stated as n = O(d/alpha^(7/4)) with alpha -> 0 and d growing: each derived term
    # is at most the stated one (sqrt(d) <= d, alpha^-5/4 <= alpha^-7/4), and smaller
    # somewhere, so the stated rate is valid but loose: agrees-loose, supported.
    th = Theorem("test.suff", "t", "theorem", "x",
                 bound=sp.sqrt(d) / alpha**sp.Rational(7, 4) + d / alpha**sp.Rational(5, 4),
                 rate=d / alpha**sp.Rational(7, 4), direction="lower",
                 scaling={alpha: -1, d: 1})
    r = derive(th)
    assert r.verdict == "agrees-loose" and r.comparison == "derived <= stated"
    assert derivation_check(r).verdict == "supported"


def test_stronger_than_its_bound_is_refuted_as_rate():
    # bound 1/sqrt(n), stated 1/n: derived exceeds stated for every n -> disagrees.
    th = Theorem("test.strong", "t", "theorem", "x", bound=1 / sp.sqrt(n), rate=1 / n)
    res = derivation_check(derive(th))
    assert res.verdict == "refuted" and res.severity == "rate"


def test_unit_choices():
    # eta is a step of a normalized update ([W]); a setting eta = 1/sqrt(n T) makes it a
    # pure number: consistent iff W = 1 (not F = 1, not F = W^k for a finite k != 0).
    th = Theorem("test.units", "t", "algorithm", "x", settings={S.eta_n: 1 / sp.sqrt(n * S.T)})
    issues = check_dimensions(th)
    assert issues and unit_choices(issues) == ["W = 1 (parameters are pure numbers)"]
    # with that convention declared there is nothing left
    assert not check_dimensions(th, {U.W: 1})
    # a smoothness constant ([F/W^2]) bounding a pure number: consistent iff F/W^2 is a pure
    # number: the pair (F/W^2, 1) gives (a1 - a2) k + (b1 - b2) = k - 2 = 0, so F = W^2 only
    th2 = Theorem("test.units2", "t", "lemma", "x", bound=S.beta, measured_unit=U.ONE)
    ch = unit_choices(check_dimensions(th2))
    assert len(ch) == 1 and ch[0].startswith("F = W**2")
    # [F] + [F/W^2] in a bound of a quantity of dimension [F^2/W^2]: the sum needs W = 1
    # (same F power), the comparison [F] vs [F^2/W^2] needs -k + 2 = 0, k = 2: no single
    # choice clears both (together they would fix every unit)
    th3 = Theorem("test.units3", "t", "lemma", "x", bound=S.Fgap + S.beta,
                  measured_unit=U.F ** 2 / U.W ** 2)
    assert check_dimensions(th3) and unit_choices(check_dimensions(th3)) == []


def test_regime_report_witness_and_negative_bound():
    # hypothesis x <= 2 with the bound 1 - x for a nonnegative quantity: every x in (1, 2]
    # satisfies the hypothesis and makes the bound negative: a certified counterexample
    x = sp.Symbol("x_test", positive=True)
    th = Theorem("test.neg", "t", "lemma", "x", hypotheses=(("x <= 2", sp.Le(x, 2)),),
                 bound=1 - x, trivial=sp.Integer(5))
    rep = regime_report(th, samples=200)
    assert rep.satisfiable == "witness" and rep.witness["x_test"] <= 2
    assert rep.negative is not None and rep.negative["negative"]
    assert 1 < rep.negative["point"]["x_test"] <= 2
    assert rep.nonvacuous == "witness"             # 1 - x < 5 everywhere
    # a bound always above its trivial range: vacuous on every sampled point
    th2 = Theorem("test.vac", "t", "lemma", "x", hypotheses=(("x <= 2", sp.Le(x, 2)),),
                  bound=10 + x, trivial=sp.Integer(5))
    rep2 = regime_report(th2, samples=200)
    assert rep2.nonvacuous == "none-found" and rep2.vacuous_fraction == 1.0


def test_findings_merge_by_root_cause():
    f = lambda i, c, sev, root: Finding(i, c, "s", {}, severity=sev, root=root)  # noqa: E731
    merged = merge_findings([f("p.a", "p.a:x", "notation", "leaf"),
                             f("p.a", "p.a:y", "bound", "leaf"),
                             f("p.b", "p.b:z", "proof", "")])
    assert len(merged) == 2
    head = merged[0]
    assert head.severity == "bound" and head.also == ("p.a:x",)   # the most severe stands
    assert merged[1].id == "p.b"
