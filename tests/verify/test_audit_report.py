"""The report's audit table: what the adversary saw and the measured power (the planted
twin's lower bound against the claim, caught or not); no audit supported without a caught
twin."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from dptheory.verify.audit import evaluate_recipe
from dptheory.verify.report import audit_rows, audit_table


def _result(mu: float, seed: int, n: int = 8000) -> dict:
    """A Gaussian release N(mu, 1) vs N(0, 1): true eps from mu alone."""
    rng = np.random.default_rng(seed)
    return {"scores_in": list(rng.standard_normal(n) + mu), "scores_out": list(rng.standard_normal(n)),
            "epsilon_claimed": 1.0, "delta": 1e-3, "algorithm": "toy",
            "adversary": "the final iterate only (toy)", "epsilon_twin": 2.0}


def _verdict(pooled: dict) -> SimpleNamespace:
    chk = evaluate_recipe(None, pooled)
    return SimpleNamespace(id="toy.thm1:audit-quick-toy", item="toy.thm1", check="audit",
                           verdict=chk.verdict, evidence=chk.evidence)


def test_table_says_what_the_adversary_saw_and_whether_the_twin_was_caught():
    # mu = 1.5: the Gaussian mechanism's eps at delta = 1e-3 is about 3.3 > 2 x the claim, so
    # 8000 runs catch it; the audited release (mu = 0) is private
    caught = _verdict({"paper": _result(0.0, 1), "twin": _result(1.5, 2)})
    blind = _verdict({"paper": _result(0.0, 3), "twin": _result(0.0, 4)})
    alone = _verdict({"paper": _result(0.0, 5)})
    assert (caught.verdict, blind.verdict, alone.verdict) == \
        ("supported", "inconclusive", "inconclusive")
    rows = audit_rows([caught, blind, alone, SimpleNamespace(check="bound")])
    assert [r["twin_caught"] for r in rows] == [True, False, None]
    assert rows[0]["twin_lower_over_claim"] > 1 >= rows[1]["twin_lower_over_claim"]
    assert all(r["adversary"] == "the final iterate only (toy)" for r in rows)
    # never supported without a caught twin
    assert all(r["twin_caught"] is True for r in rows if r["verdict"] == "supported")
    lines = audit_table([caught, blind, alone])
    assert len(lines) == 2 + 3
    assert "| yes |" in lines[2] and "| **no** |" in lines[3] and "| no twin |" in lines[4]
    assert "the final iterate only |" in lines[2]
    assert audit_table([SimpleNamespace(check="bound")]) == []
