"""Lemma hypotheses at the theorem's settings (recall, item 4)."""

from __future__ import annotations

import math

from dptheory_bounds.checks.recall_lemma_hypotheses import CHECKS


def test_tran2022_thm9_lemma7_gamma_outside_hypotheses_where_bound_binds():
    res = CHECKS[0].run()
    assert res.verdict == "refuted" and res.severity == "notation"
    for h in res.evidence["non_vacuous_points_with_gamma_above_half"]:
        # independent: gamma = eta N = sqrt(N/T) with T = N^(7/3) eps^(4/3)/d^(2/3)
        T = h["N"] ** (7 / 3) * h["eps"] ** (4 / 3) / h["d"] ** (2 / 3)
        assert math.isclose(h["T"], T, rel_tol=1e-9)
        assert math.sqrt(h["N"] / T) > 0.5 and math.isclose(h["gamma"], math.sqrt(h["N"] / T))
        # the bound's K-free terms alone: 6G/sqrt(N) + 12 L d^(1/3)/(eps N)^(2/3) < bound < 1
        assert 6 / math.sqrt(h["N"]) < h["bound"] < 1
        assert h["delta"] >= 0.9999
