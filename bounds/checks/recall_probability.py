"""Probability terms against 1: a high-probability statement whose success probability is
<= 0 at the theorem's own settings says nothing there.

Every catalog item that states a success probability declares it as the expression
``p_success`` (:data:`PROBABILITY_EXPRESSIONS`); ``tests/bounds/test_recall_probability.py``
checks that :data:`ITEMS` lists every such item. The check substitutes the settings and
decides, exactly:

* at the corner ``d = 1`` (admissible whenever the dimension is a free parameter) whether the
  probability is <= 0 whatever the theorem's unnamed constants (``hidden``, existential
  "for some universal constant c") and the other parameters are, and
* the region of the growing parameter (``alpha`` here) where it is <= 0 for every ``d`` and
  every value of the hidden constants (solved symbolically).

A probability <= 0 on an admissible part of the domain is a ``hypothesis`` finding (a
condition is missing, as for a bound that is negative in its regime); a probability in (0, 1]
everywhere is reported as not vacuous.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from dptheory import registry
from dptheory.symbolic.symbols import S
from dptheory.verify import Check, CheckResult

PROBABILITY_EXPRESSIONS = ("p_success",)

#: The items with a stated success probability, with the theorem's unnamed constants
#: (quantified "for some") and the point at which the corner is evaluated.
ITEMS: dict[str, dict[str, Any]] = {
    "wang2020.thm2": {"hidden": ("w20_c",), "grow": "alpha",
                      "point": {"alpha": sp.Rational(1, 100), "Fgap": 1, "rho": 1,
                                "w20_zeta": sp.Rational(1, 10)}},
    "wang2020.thm4": {"hidden": ("w20_c",), "grow": "alpha",
                      "point": {"alpha": sp.Rational(1, 100), "Fgap": 1, "rho": 1,
                                "w20_zeta": sp.Rational(1, 10)}},
}

ROOT = "wang2020:success-probability-T-over-p^c"


def _by_name(expr: sp.Expr) -> dict[str, sp.Symbol]:
    return {str(s): s for s in expr.free_symbols}


def _probability_check(item_id: str) -> CheckResult:
    spec = ITEMS[item_id]
    item = registry.get(item_id)
    p = item.expressions["p_success"]
    at = p.subs(item.settings)
    names = _by_name(at)
    hidden = [names[h] for h in spec["hidden"] if h in names]
    corner = sp.simplify(at.subs(S.d, 1))
    corner_free_of_hidden = not (set(hidden) & corner.free_symbols)
    point = {names[k]: v for k, v in spec["point"].items() if k in names}
    corner_value = corner.subs(point)
    # the iteration count at the corner point (the algorithm runs ceil(T) >= 1 iterations)
    T_value = item.settings.get(S.T, S.T).subs(point) if S.T in item.settings else None
    grow = names.get(spec["grow"])
    region = None
    if grow is not None:
        sol = sp.solve(sp.Eq(at, 0), grow)
        region = [sp.sstr(sp.simplify(r)) for r in sol if not r.has(sp.I)]
    ev = {"p_success": sp.sstr(p), "at_settings": sp.sstr(at),
          "corner_d=1": sp.sstr(corner), "corner_free_of_hidden_constants": corner_free_of_hidden,
          "corner_point": {str(k): str(v) for k, v in point.items()},
          "corner_value": str(corner_value), "T_at_corner_point": str(T_value),
          "hidden_constants": [str(h) for h in hidden],
          f"{spec['grow']}_where_p_success_=_0 (every d, every hidden constant)": region,
          "reading": "at d = 1, d**c = 1 for every c > 0, so the success probability is "
                     "1 - (zeta terms) - T <= -zeta < 0 as soon as the algorithm runs T >= 1 "
                     "iterations; for any d and any c it is <= 0 for alpha up to the root above "
                     "(T grows as alpha^-1.5)"}
    vacuous = corner_free_of_hidden and corner_value.is_number and bool(corner_value <= 0)
    if not vacuous:
        return CheckResult("inconclusive", f"{item_id}: the success probability is not shown "
                           "<= 0 at the corner", ev, claim="hypotheses")
    return CheckResult(
        "refuted", f"{item_id}: the success probability {sp.sstr(p)} is <= 0 at its own "
        f"settings: at p = d = 1 it is {sp.sstr(corner)} = {float(corner_value):.4g} at "
        f"{ev['corner_point']} (T = {float(T_value):.4g}) whatever the universal constant c, "
        f"and for every p and c it is <= 0 for {spec['grow']} <= {region[0] if region else '?'}",
        ev, claim="hypotheses", severity="hypothesis", root=ROOT,
        consequence="the high-probability guarantee says nothing at p = 1 for any alpha, nor at "
        "small alpha for any p: a condition (T < p^c, i.e. alpha above a threshold depending on "
        "the unnamed constant c) is missing")


CHECKS: list[Check] = [
    Check.of(item_id, "success-probability", "property",
             (lambda item_id=item_id: _probability_check(item_id)),
             "the stated success probability against 0 at the settings (d = 1 corner, "
             "symbolic region in alpha)")
    for item_id in ITEMS]

__all__ = ["CHECKS", "ITEMS", "PROBABILITY_EXPRESSIONS", "ROOT"]
