"""Privacy verdicts by logic (dptheory.verify.privacy) on constructed cases.

Expected verdicts follow from the definitions by hand: a claim is violated only when a
certified lower end exceeds it; a route that gives more than the claim while the lower end
does not is a proof finding; a claim inside the interval is undecided.
"""

from __future__ import annotations

import pytest

from dptheory.verify.privacy import classify, grid_verdict

POWER = {"statement": "constructed"}


def _verdict(points):
    return grid_verdict(points, item="x.thm1", claim="the claim", describe=lambda p: p["name"],
                        consequence_violation="violated", consequence_route="route only",
                        power=POWER)


@pytest.mark.parametrize("claim,lo,hi,route,expected", [
    (1.0, 1.2, 1.3, None, "violation"),
    (1.0, 1.2, 1.3, 5.0, "violation"),
    (1.0, 0.8, 0.9, 1.5, "route-failure"),        # proof gap only: the guarantee holds
    (1.0, 0.9, 1.1, 1.5, "route-failure"),
    (1.0, 0.8, 0.9, 0.95, "holds"),
    (1.0, 0.8, 0.9, None, "holds"),
    (1.0, 0.9, 1.1, 1.0, "undecided"),
])
def test_classify(claim, lo, hi, route, expected):
    assert classify(claim, lo, hi, route) == expected


def test_lower_above_upper_is_an_error():
    with pytest.raises(ValueError, match="lower end"):
        classify(1.0, 2.0, 1.0)


def test_route_failure_is_not_reported_as_a_violation():
    pts = [{"name": "a", "claimed": 1.0, "eps_lower": 0.7, "eps_upper": 0.75, "route": 1.4},
           {"name": "b", "claimed": 1.0, "eps_lower": 0.5, "eps_upper": 0.5, "route": 0.9}]
    r = _verdict(pts)
    assert r.verdict == "refuted" and r.severity == "proof"
    assert r.evidence["violations"] == [] and len(r.evidence["route_failures"]) == 1
    assert "route does not give eps" in r.summary and "[0.7, 0.75]" in r.summary


def test_a_real_violation_is_quoted_even_when_route_failures_come_first():
    pts = [{"name": "route-only", "claimed": 0.5, "eps_lower": 0.2, "eps_upper": 0.3,
            "route": 2.0},
           {"name": "real", "claimed": 1.0, "eps_lower": 1.5, "eps_upper": 1.6, "route": 3.0}]
    r = _verdict(pts)
    assert r.verdict == "refuted" and r.severity == "privacy"
    assert r.evidence["minimal_counterexample"]["name"] == "real"
    assert "real" in r.summary and "route-only" not in r.summary


def test_supported_and_inconclusive():
    ok = _verdict([{"name": "a", "claimed": 1.0, "eps_lower": 0.5, "eps_upper": 0.6}])
    assert ok.verdict == "supported" and ok.power == POWER
    und = _verdict([{"name": "a", "claimed": 1.0, "eps_lower": 0.5, "eps_upper": 1.6}])
    assert und.verdict == "inconclusive" and "contains the claim" in und.summary
