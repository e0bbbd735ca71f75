"""Verdicts of privacy claims by their logic (issue 11).

A printed (eps, delta) claim is false only when the mechanism's *true* epsilon exceeds it.
Every accounting route (an RDP conversion, advanced composition, a paper's proof) gives an
*upper* bound, so a route that gives more than the claim breaks the proof, not necessarily
the guarantee. Each tested point is therefore classified with a certified two-sided epsilon
``[lower, upper]`` and, where the claim has one, the epsilon its route gives:

``violation``      lower > claim: the guarantee is false (a certified counterexample);
``route-failure``  the route gives more than the claim but lower <= claim: the proof does
                   not give the claim; the true epsilon is in [lower, upper];
``holds``          upper <= claim and the route (if any) gives the claim;
``undecided``      lower <= claim < upper, and the route gives the claim.

:func:`grid_verdict` turns the classified points of a check into a
:class:`~dptheory.verify.verdict.CheckResult`: ``refuted`` (severity ``privacy`` by
default) quoting a real violation when there is one; ``refuted`` with severity ``proof``
and the summary "the claim's route does not give eps; the true eps is in [a, b]" when only
routes fail; ``supported`` with its power when every point holds; ``inconclusive``
otherwise.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from dptheory.verify.verdict import CheckResult

__all__ = ["CLASSES", "classify", "grid_verdict"]

CLASSES = ("violation", "route-failure", "holds", "undecided")
#: relative slack below which a difference is rounding, not a finding
REL_TOL = 1e-9


def classify(claim: float, lower: float, upper: float, route: float | None = None) -> str:
    """Class of one point (see the module docstring)."""
    if lower > upper * (1 + REL_TOL) + 1e-12:
        raise ValueError(f"lower end {lower} exceeds upper end {upper}")
    if lower > claim * (1 + REL_TOL):
        return "violation"
    if route is not None and route > claim * (1 + REL_TOL):
        return "route-failure"
    if upper <= claim * (1 + REL_TOL):
        return "holds"
    return "undecided"


def _interval(p: Mapping[str, Any]) -> str:
    return f"[{p['eps_lower']:.4g}, {p['eps_upper']:.4g}]"


def grid_verdict(points: Iterable[dict[str, Any]], *, item: str, claim: str,
                 describe: Any, consequence_violation: str, consequence_route: str,
                 power: dict[str, Any], severity: str = "privacy", root: str = "",
                 evidence: dict[str, Any] | None = None,
                 key: Any = None) -> CheckResult:
    """Verdict of a grid of classified points.

    Each point is a dict with ``claimed``, ``eps_lower``, ``eps_upper``, optional
    ``route`` and the grid coordinates; ``class`` is added. ``describe(point)`` renders a
    point's coordinates for the summary; ``key`` orders points to pick the example quoted
    (default: the smallest claimed epsilon). ``power`` is the supported verdict's power
    (``{"statement": ...}``, with a planted wrong claim where there is one).
    """
    pts = []
    for p in points:
        p = dict(p)
        p["class"] = classify(p["claimed"], p["eps_lower"], p["eps_upper"], p.get("route"))
        pts.append(p)
    if not pts:
        raise ValueError("grid_verdict needs at least one point")
    order = key or (lambda p: p["claimed"])
    by = {c: sorted((p for p in pts if p["class"] == c), key=order) for c in CLASSES}
    ev: dict[str, Any] = dict(evidence or {})
    ev.update({"claim": claim, "n_points": len(pts),
               "counts": {c: len(by[c]) for c in CLASSES},
               "violations": by["violation"], "route_failures": by["route-failure"],
               "undecided": by["undecided"], "points": pts})
    n = len(pts)
    for cls, severity_, consequence, rt in (
            ("violation", severity, consequence_violation, f"{item}:privacy"),
            ("route-failure", "proof", consequence_route, f"{item}:route")):
        if not by[cls]:
            continue
        ex = by[cls][0]
        ev["minimal_counterexample"] = ex
        if cls == "violation":
            summary = (f"{item}: {claim} is false at {len(by[cls])}/{n} points (certified: the "
                       f"true eps exceeds the claim); e.g. {describe(ex)}: claimed eps "
                       f"{ex['claimed']:.4g}, true eps in {_interval(ex)}; "
                       f"{len(by['route-failure'])} more points are route failures only")
        else:
            summary = (f"{item}: the claim's route does not give eps at {len(by[cls])}/{n} "
                       f"points; the true eps is in {_interval(ex)} (e.g. {describe(ex)}: route "
                       f"gives {ex['route']:.4g}, claimed {ex['claimed']:.4g}); no point "
                       f"violates the claim")
        return CheckResult("refuted", summary, ev, claim="privacy", severity=severity_,
                           consequence=consequence, power=power, root=root or rt)
    if by["undecided"]:
        ex = by["undecided"][0]
        return CheckResult(
            "inconclusive",
            f"{item}: {claim} cannot be decided at {len(by['undecided'])}/{n} points: the "
            f"true eps interval contains the claim (e.g. {describe(ex)}: claimed "
            f"{ex['claimed']:.4g}, true eps in {_interval(ex)})", ev, claim="privacy",
            power=power)
    return CheckResult("supported", f"{item}: {claim} holds at all {n} points (certified "
                       "upper ends within the claim)", ev, claim="privacy", power=power)
