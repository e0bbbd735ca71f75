"""One quantity, one expression (recall, item 5)."""

from __future__ import annotations

import sympy as sp

from dptheory_bounds.checks.recall_restatements import (CHECKS, RESTATEMENTS, Restatement,
                                                        _restatement_check)


def test_zhang2021_restates_p1_p2_differently_under_one_root():
    res = {c.id: c.run() for c in CHECKS}
    bad = {k: r for k, r in res.items() if r.verdict == "refuted"}
    assert set(bad) == {"zhang2021.remark6:restated-P-1", "zhang2021.remark6:restated-P-2",
                        "zhang2021.remark6:restated-P-2-l1",
                        "tran2022.abstract:restated-abstract-thm9-full",
                        "tran2022.sec4.claims:restated-DPSRM-factor",
                        "zhang2017.table1:restated-table1-thm5",
                        "zhang2021.remark3:restated-zhang2017-c"}
    assert {bad[k].root for k in bad if k.startswith("zhang2021.remark6")} == {
        "zhang2021:P-1-P-2-quoted-twice"}
    # independent: sqrt(log(nd)/sqrt(n eps)) / (sqrt(log(nd))/sqrt(n eps)) = (n eps)^(1/4)
    n, e = sp.symbols("n eps", positive=True)
    assert sp.simplify(sp.sqrt(sp.log(n) / sp.sqrt(n * e)) / (sp.sqrt(sp.log(n)) / sp.sqrt(n * e))
                       - (n * e) ** sp.Rational(1, 4)) == 0
    assert res["tran2022.intro.RRSGD:restated-RRSGD"].verdict == "supported"
    assert res["wang2020.intro.wang2019a:restated-wang2019a"].verdict == "inconclusive"


def test_planted_restatement_with_another_exponent_is_refuted():
    # tran2022.thm9's private term (d^(1/3)/(eps N)^(2/3)) against itself squared: the ratio
    # (eps N)^(2/3)/d^(1/3) depends on n, d, eps
    r = Restatement("planted", "planted", ("tran2022.abstract", "rate"),
                    ("tran2022.thm9", "rate_private"), power_b=sp.Rational(2), root="x")
    assert _restatement_check(r).verdict == "refuted"


def test_every_restatement_names_two_statements():
    assert all(r.a != r.b for r in RESTATEMENTS)


def test_tran2022_headline_drops_theorem_9s_one_over_sqrt_n():
    res = {c.id: c.run() for c in CHECKS}["tran2022.abstract:restated-abstract-thm9-full"]
    assert res.verdict == "refuted" and res.severity == "rate"
    # independent: at d = 10, eps = 1, N = 1e6 Theorem 9's rate d^(1/3)/(eps N)^(2/3) + N^(-1/2)
    # is 1e-3 + 2.15e-4, 4.6x the headline 2.15e-4
    head = 10 ** (1 / 3) / 1e6 ** (2 / 3)
    assert abs((head + 1e6 ** -0.5) / head - 5.64) < 0.01   # (1 + 4.64) x


def test_tran2022_dpsrm_factor_is_a_quarter_power_not_log():
    res = {c.id: c.run() for c in CHECKS}["tran2022.sec4.claims:restated-DPSRM-factor"]
    assert res.verdict == "refuted" and res.severity == "notation"
    # independent: RRSGD (d log(n/delta) log(1/delta))^(1/4)/sqrt(eps N) over DP-SRM
    # (d log(1/delta))^(1/4)/sqrt(eps N) is log(n/delta)^(1/4); Sec. 4 says log(n/delta):
    # the ratio of the two is log(n/delta)^(3/4)
    assert res.evidence["ratio_a_over_b"] == "log(n/delta)**(3/4)"


def test_zhang2017_table1_nonconvex_cell_vs_theorem5():
    res = {c.id: c.run() for c in CHECKS}["zhang2017.table1:restated-table1-thm5"]
    assert res.verdict == "refuted" and res.severity == "notation"
    # independent: log(n/delta)/sqrt(log(n/delta) log(1/delta)) = sqrt(log(n/delta)/log(1/delta))
    n, dl = sp.symbols("n delta", positive=True)
    got = sp.sympify(res.evidence["ratio_a_over_b"], locals={"n": n, "delta": dl})
    want = sp.log(n / dl) / sp.sqrt(sp.log(n / dl) * sp.log(1 / dl))
    assert sp.simplify(got.subs({n: 10 ** 9, dl: sp.Rational(1, 100)})
                       - want.subs({n: 10 ** 9, dl: sp.Rational(1, 100)})) == 0
    assert abs(float(want.subs({n: 10 ** 9, dl: sp.Rational(1, 100)})) - 2.35) < 0.01


def test_zhang2021_quotes_zhang2017_with_an_undefined_c():
    r = next(c for c in CHECKS if c.id == "zhang2021.remark3:restated-zhang2017-c").run()
    assert r.verdict == "refuted" and r.severity == "notation"
    # independent: (d log(1/delta)/(n^2 c^2)) / (d log(1/delta)/(n^2 eps^2)) at c = 1 is eps^2
    d, n, e, dl = sp.symbols("d n eps delta", positive=True)
    want = sp.simplify((d * sp.log(1 / dl) / n**2) / (d * sp.log(1 / dl) / (n**2 * e**2)))
    assert sp.simplify(sp.sympify(r.evidence["ratio_a_over_b"],
                                  locals={"eps": e}) - want) == 0
    # planted: the same quote against itself (c read as eps) is supported
    planted = Restatement("planted-c", "planted", ("zhang2021.remark3", "rate"),
                          ("zhang2021.remark3", "rate"))
    assert _restatement_check(planted).verdict == "supported"
