"""One quantity, one expression (recall, item 5)."""

from __future__ import annotations

import sympy as sp

from dptheory_bounds.checks.recall_restatements import (CHECKS, RESTATEMENTS, Restatement,
                                                        _restatement_check)


def test_zhang2021_restates_p1_p2_differently_under_one_root():
    res = {c.id: c.run() for c in CHECKS}
    bad = {k: r for k, r in res.items() if r.verdict == "refuted"}
    assert set(bad) == {"zhang2021.remark6:restated-P-1", "zhang2021.remark6:restated-P-2",
                        "zhang2021.remark6:restated-P-2-l1"}
    assert {r.root for r in bad.values()} == {"zhang2021:P-1-P-2-quoted-twice"}
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
