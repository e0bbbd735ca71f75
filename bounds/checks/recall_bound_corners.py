"""Bounds at the corners of their theorem's domain: an upper bound on a non-negative quantity
that is undefined, or negative, at a point the theorem's hypotheses admit.

:data:`ITEMS` names, for each such theorem, the corner (a symbol set to the end of its
admitted range: a count at 0, a parameter at 0), a witness point at which every hypothesis
of the theorem holds exactly (settings applied), and the floor of the measured quantity
(uniform stability, a risk gap: >= 0). The check decides, exactly (SymPy):

* the printed bound is not a finite real number at the witness (a division by zero, a
  logarithm of infinity): the statement says nothing at a point it covers. Its one-sided
  limit towards the corner (from the admitted side) is then computed: a limit below the
  floor is a bound that is false in every reading that gives it a value.
  ``refuted``, graded ``hypothesis`` (a condition excluding the corner is missing).
* a finite value below the floor: ``refuted``, graded ``bound``.
* a finite value at or above the floor: ``supported`` (the planted corner of
  tests/bounds/test_recall_bound_corners.py, where the bound is finite, is).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from dptheory import registry
from dptheory.verify import Check, CheckResult

#: theorem -> the corner of its domain, a witness point inside its hypotheses, the floor of
#: the measured quantity and why the corner is admitted.
ITEMS: dict[str, dict[str, Any]] = {
    "zhang2021.thm3.3": {
        "corner": ("tMon0", 0),
        "witness": {"n": 1000, "eps": 1, "delta": sp.Rational(1, 10**5), "d": 1, "G": 1,
                    "theta": 1, "mu": 1, "beta": 1, "B": 10, "z21_c4": 1, "z21_c2": 1,
                    "z21_T0": 64, "varrho": sp.Rational(1, 2),
                    "z21_eta0": sp.Rational(1, 64), "piN": 100},
        "floor": 0,
        "floor_reason": "alpha bounds sup_z E[f(A(S), z) - f(A(S'), z)] over all neighbouring "
                        "(S, S'); swapping S and S' makes the larger of the two >= 0",
        "admitted": "Theorem 3.3 takes Theorem 3.2's settings, which admit t0_Mon = 0 "
                    "(momentum always off, the special case of Remark 4 and the DPageS of "
                    "Sec. 4): t^K_Mon = 2^K t0_Mon = 0",
        "root": "zhang2021.thm3.3:momentum-off-corner",
        # t_Mon is an integer: the limit towards 0 is recorded, not stated as a reading
        "integer": True,
        "consequence": "Theorem 3.3 (and Theorem 3.4, which uses it) says nothing for "
                       "momentum always off: its first term has log(1 + 1/(varrho t^K_Mon)), "
                       "undefined at t^K_Mon = 0 (and +infinity as varrho -> 0 at "
                       "t^K_Mon >= 1); it needs t0_Mon >= 1 and varrho > 0, "
                       "or a separate momentum-off formula",
    },
}


def _by_name(expr: sp.Expr) -> dict[str, sp.Symbol]:
    return {str(s): s for s in expr.free_symbols}


def _hypotheses_hold(theorem: Any, values: dict[sp.Symbol, Any]) -> list[str]:
    """The hypotheses of ``theorem`` (settings applied) that fail at ``values``."""
    failed = []
    for text, rel in theorem.hypotheses:
        if not isinstance(rel, sp.Basic) or isinstance(rel, sp.logic.boolalg.BooleanAtom):
            continue
        r = rel.subs(theorem.settings).subs(values)
        if isinstance(r, sp.Eq):
            ok = sp.simplify(r.lhs - r.rhs) == 0
        else:
            r = sp.simplify(r)
            if not isinstance(r, sp.logic.boolalg.BooleanAtom):
                r = r.func(*(sp.N(a, 30) for a in r.args))
            ok = bool(r)
        if not ok:
            failed.append(text)
    return failed


def bound_at_corner(theorem_id: str, spec: dict[str, Any] | None = None) -> CheckResult:
    """Decide whether the bound of ``theorem_id`` is undefined or below its quantity's floor
    at the corner of :data:`ITEMS` (or ``spec``), at a witness point inside its hypotheses."""
    spec = spec or ITEMS[theorem_id]
    theorem = registry.get(theorem_id)
    bound = theorem.bound.subs(theorem.settings)
    names = {**_by_name(bound), **{str(s): s for _, r in theorem.hypotheses
                                   if isinstance(r, sp.Basic) for s in r.free_symbols}}
    cname, cval = spec["corner"]
    corner_sym = names[cname]
    values = {names[k]: sp.nsimplify(v) for k, v in spec["witness"].items() if k in names}
    values[corner_sym] = cval
    failed = _hypotheses_hold(theorem, values)
    ev: dict[str, Any] = {"corner": f"{cname} = {cval}", "admitted": spec["admitted"],
                          "witness": {str(k): str(v) for k, v in values.items()},
                          "hypotheses_failing_at_witness": failed,
                          "floor": spec["floor"], "floor_reason": spec["floor_reason"]}
    if failed:
        return CheckResult("inconclusive", f"{theorem_id}: the witness point violates "
                           f"{failed}: the corner is not shown admitted", ev,
                           claim="hypotheses")
    rest = {k: v for k, v in values.items() if k is not corner_sym}
    at = sp.simplify(bound.subs(rest))          # a function of the corner symbol only
    value = at.subs(corner_sym, cval)
    ev["bound_near_corner"] = sp.sstr(at)
    ev["bound_at_corner"] = sp.sstr(value)
    finite = value.is_finite and value.is_real
    if finite:
        x = sp.N(value, 30)
        ev["bound_value"] = float(x)
        if x < spec["floor"]:
            return CheckResult(
                "refuted", f"{theorem_id}: the bound is {float(x):.6g} < {spec['floor']} at "
                f"{cname} = {cval}, a point it admits ({spec['admitted']})", ev,
                claim="upper-bound", severity="bound",
                root=spec.get("root", f"{theorem_id}:corner"),
                consequence=spec.get("consequence", "a condition excluding the corner is "
                                                    "missing"))
        return CheckResult(
            "supported", f"{theorem_id}: the bound is a finite {float(x):.6g} >= "
            f"{spec['floor']} at {cname} = {cval}", ev, claim="upper-bound",
            power={"statement": "exact: an undefined value or one below the floor at the "
                                "corner would be refuted (tests/bounds/"
                                "test_recall_bound_corners.py plants one)"})
    lim = sp.limit(at, corner_sym, cval, dir="+")
    ev["one_sided_limit"] = sp.sstr(lim)
    below = lim == -sp.oo or (lim.is_real and bool(lim < spec["floor"]))
    return CheckResult(
        "refuted", f"{theorem_id}: the bound is undefined "
        f"({'a division by zero' if value.has(sp.zoo) else sp.sstr(value)}) at {cname} = "
        f"{cval}, a point it admits ({spec['admitted']})"
        + ("" if spec.get("integer") else
           f"; its limit towards the corner is {sp.sstr(lim)}"
           f"{' < ' + str(spec['floor']) + ' (false in that reading)' if below else ''}")
        + f" (witness {ev['witness']})", ev, claim="hypotheses", severity="hypothesis",
        root=spec.get("root", f"{theorem_id}:corner"),
        consequence=spec.get("consequence", "a condition excluding the corner is missing"))


CHECKS: list[Check] = [
    Check.of(theorem_id, "bound-at-corner", "property",
             (lambda theorem_id=theorem_id: bound_at_corner(theorem_id)),
             "the printed bound at a corner of the theorem's domain (undefined, or below the "
             "measured quantity's floor)")
    for theorem_id in ITEMS]

__all__ = ["CHECKS", "ITEMS", "bound_at_corner"]
