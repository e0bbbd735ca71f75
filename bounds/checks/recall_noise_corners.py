"""Noise at the corners of the domain: a privacy theorem whose algorithm adds noise that
vanishes, or is not a real number, at a point the theorem's hypotheses admit.

:data:`ITEMS` names, for each privacy theorem, the noise variances of the releases its
proof composes (catalog expressions), the corner of the domain to examine (the smallest
data set, one step, the largest delta the statement allows) and why the theorem admits it.
The check substitutes the theorem's own noise setting (its sigma) and the corner, then
decides exactly:

* every variance is identically 0 there: the algorithm is a deterministic function of the
  data. A deterministic algorithm whose output depends on a record is not (eps, delta)-DP
  for any eps and any delta < 1 (the event "the output equals A(D)" has probability 1 on D
  and 0 on a neighbour D' with A(D') != A(D)); ``witness`` names such a pair. ``refuted``,
  graded ``hypothesis``: a condition excluding the corner is missing.
* some variance is not a real number there (a square root of log(1/delta) < 0): the
  algorithm is undefined at a point the statement covers. ``refuted``, graded ``notation``
  (the statement's domain is wider than its algorithm's).
* every variance is a positive real at the corner for every value of the remaining
  symbols (checked on a grid of positive values): ``supported`` — the same computation
  refutes the planted zero-noise variant of each item (tests/bounds).
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy as sp

from dptheory import registry
from dptheory.verify import Check, CheckResult

#: privacy theorem -> where its noise variances live, the corner, and why it is admitted.
ITEMS: dict[str, dict[str, Any]] = {
    "tran2022.thm8": {
        "noise_item": "tran2022.alg2",
        "variances": ("var_G_le2N", "var_G_gt2N", "var_r", "var_Delta"),
        "corner": {"n": 1},
        "admitted": "Theorem 8 assumes only alpha >= 1/N and f G-Lipschitz, L-smooth: "
                    "N = 1 with alpha = 1 is admitted, and Algorithm 2 sets "
                    "V_{<=2N} = 3 log2 N and V_{>2N} = 4 (T/N) log2 N, both 0 at N = 1",
        "witness": "N = 1, f(w, x) = x w on R with x in {-1, +1} (G = 1, L = 0), alpha = 1: "
                   "with every noise 0, m_hat_1 = alpha x and w_2 = w_1 - eta sign(x), so the "
                   "neighbours {+1} and {-1} give outputs 2 eta apart with probability 1",
        "root": "tran2022.thm8:zero-noise-at-N=1",
        "consequence": "Theorem 8 (its RDP and its (eps, delta) statement) is false at N = 1; "
                       "it needs N >= 2 (or V with log2 N + 1). A corner: N >= 2 is every real "
                       "data set",
    },
    "tran2022.thm4": {
        "noise_item": "tran2022.alg1", "variances": ("node_var",),
        "corner": {"n": 1, "T": 1, "Rtree": 1},
        "admitted": "Theorem 4 assumes f G-Lipschitz; N = 1, T = 1 and a one-level tree "
                    "are admitted",
    },
    "wang2020.thm1": {
        "noise_item": "wang2020.thm1", "variances": ("sigma2", "sigma2_H"),
        "corner": {"delta": 2},
        "admitted": "Theorem 1 says 'for any eps, delta > 0'; delta = 2 is admitted (the "
                    "(eps, delta) statement is trivial there, but Algorithm 1 must be defined)",
        "root": "wang2020.thm1:any-delta-undefined-noise",
        "consequence": "Algorithm 1's noise sqrt(eps + log(1/delta)) - sqrt(log(1/delta)) is "
                       "not real for delta > 1: the statement's 'any delta > 0' should read "
                       "0 < delta < 1 (cosmetic: DP with delta >= 1 is trivial)",
    },
    "wang2020.thm3": {
        "noise_item": "wang2020.thm3", "variances": ("sigma2", "sigma2_H"),
        "corner": {"T": 1},
        "admitted": "Theorem 3 admits any T >= 1",
    },
}

#: values the remaining symbols take when a variance is checked positive: delta in (0, 1),
#: counts at their smallest, eps small to large; points the theorem's hypotheses exclude
#: are skipped
GRID: dict[str, tuple[Any, ...]] = {
    "delta": (sp.Rational(1, 10**5), sp.Rational(1, 10), sp.Rational(1, 2)),
    "eps": (sp.Rational(1, 10), sp.Rational(9, 10), 5),
    "n": (1, 2, 100), "T": (1, 2, 100), "d": (1, 2, 100),
}
OTHER = (sp.Rational(1, 10), 1, 3)      # any other positive symbol (G, L, alpha, ...)


def _by_name(exprs: list[sp.Expr]) -> dict[str, sp.Symbol]:
    return {str(s): s for e in exprs for s in e.free_symbols}


def noise_at_corner(theorem_id: str, spec: dict[str, Any] | None = None) -> CheckResult:
    """Decide whether the noise of ``theorem_id``'s algorithm vanishes (or is not real) at
    the corner of :data:`ITEMS` (or ``spec``), at the theorem's own sigma setting."""
    spec = spec or ITEMS[theorem_id]
    theorem = registry.get(theorem_id)
    source = registry.get(spec["noise_item"])
    raw = {k: source.expressions[k] for k in spec["variances"]}
    # the privacy theorem's own noise setting (sigma), not a utility theorem's step counts
    at = {k: sp.sympify(v).subs(theorem.settings) for k, v in raw.items()}
    names = _by_name(list(at.values()))
    corner = {names[k]: v for k, v in spec["corner"].items() if k in names}
    values = {k: v.subs(corner) for k, v in at.items()}
    ev: dict[str, Any] = {"noise_item": spec["noise_item"], "corner": spec["corner"],
                          "admitted": spec["admitted"],
                          "variances": {k: sp.sstr(v) for k, v in raw.items()},
                          "at_corner": {k: sp.sstr(v) for k, v in values.items()}}
    if all(sp.simplify(v) == 0 for v in values.values()):
        ev["witness"] = spec.get("witness", "")
        return CheckResult(
            "refuted", f"{theorem_id}: every noise variance of {spec['noise_item']} is 0 at "
            f"{_corner_text(spec)}, a point the theorem admits ({spec['admitted']}): the "
            "algorithm is deterministic there, and a deterministic algorithm whose output "
            "depends on a record is not (eps, delta)-DP for any delta < 1; "
            f"witness: {spec.get('witness', '')}", ev, claim="privacy", severity="hypothesis",
            root=spec.get("root", f"{theorem_id}:zero-noise"),
            consequence=spec.get("consequence", "a hypothesis excluding this corner is missing from the statement"))
    free = sorted({s for v in values.values() for s in v.free_symbols}, key=str)
    bad: list[tuple[str, dict[str, str], str]] = []
    hypotheses = [rel for _, rel in theorem.hypotheses if isinstance(rel, sp.Basic)
                  and not isinstance(rel, sp.logic.boolalg.BooleanAtom)]
    tried = 0
    for point in itertools.product(*(GRID.get(str(s), OTHER) for s in free)):
        sub = dict(zip(free, point))
        if not all(bool(h.subs(corner).subs(sub)) for h in hypotheses):
            continue
        tried += 1
        for k, v in values.items():
            x = sp.N(v.subs(sub), 30, chop=True)
            if not (x.is_real and x > 0):
                bad.append((k, {str(s): str(p) for s, p in sub.items()}, sp.sstr(x)))
                break
        if bad:
            break
    if bad:
        name, point, value = bad[0]
        ev["not_positive_real"] = {"variance": name, "at": point, "value": value}
        return CheckResult(
            "refuted", f"{theorem_id}: the noise variance {name} of {spec['noise_item']} is "
            f"{value} (not a positive real) at {_corner_text(spec)} and {point}, a point the "
            f"theorem admits ({spec['admitted']}): the algorithm is undefined there",
            ev, claim="privacy", severity="notation",
            root=spec.get("root", f"{theorem_id}:noise-undefined"),
            consequence=spec.get("consequence", "a hypothesis excluding this corner is missing from the statement"))
    return CheckResult(
        "supported", f"{theorem_id}: every noise variance of {spec['noise_item']} is a positive "
        f"real at {_corner_text(spec)} ({tried} grid points of {[str(s) for s in free]} "
        "inside the theorem's hypotheses)", ev, claim="privacy",
        power={"statement": "exact: a variance identically 0 at the corner, or not a positive "
                            "real at a grid point, would be refuted (the planted zero-noise "
                            "variant is, in tests/bounds/test_recall_noise_corners.py)"})


def _corner_text(spec: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in spec["corner"].items())


CHECKS: list[Check] = [
    Check.of(theorem_id, "noise-at-corner", "property",
             (lambda theorem_id=theorem_id: noise_at_corner(theorem_id)),
             "the noise the theorem's algorithm adds, at a corner of the theorem's domain "
             "(zero noise or an undefined noise there)")
    for theorem_id in ITEMS]

__all__ = ["CHECKS", "GRID", "ITEMS", "noise_at_corner"]
