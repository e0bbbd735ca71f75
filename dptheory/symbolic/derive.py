"""Derivation of a theorem's rate from its explicit bound, and comparison of rates.

``derive(item)``: substitute the settings into the explicit bound, keep the leading terms
under the item's scaling, and compare with the stated rate. Verdicts:

* ``agrees`` — same leading exponents everywhere on the scaling cone;
* ``agrees-loose`` — the derived rate is at most the stated one everywhere, and smaller
  somewhere: the stated rate is valid but loose (smaller is stronger: an error rate, a
  sufficient sample size);
* ``agrees-in-regime`` — the derived rate is at most the stated one only in a region, given
  as a SymPy relation (e.g. ``sqrt(d) <= eps*n``); outside it the stated rate does not
  follow from the bound;
* ``disagrees`` — the derived rate exceeds the stated one everywhere: the statement is
  stronger than its own bound gives; ``exponent_difference`` gives, per variable, the
  derived and stated exponents;
* ``not-derivable`` — with the reason (no bound or rate, circular settings, a form outside
  the monomial calculus).

Polylog factors (logs of growing quantities, log 1/delta, log T) are tracked separately and
reported; they do not change the verdict.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from typing import Any, Mapping

import sympy as sp

from dptheory.symbolic.asymptotics import (ExponentialGrowth, NotDerivable, Scaling, Term,
                                           exponent_along, leading_terms, polylog_symbols)
from dptheory.symbolic.memo import simplify
from dptheory.symbolic.regimes import max_le, max_lt, and_regimes
from dptheory.symbolic.symbols import S
from dptheory.symbolic.theorem import Theorem

VERDICTS = ("agrees", "agrees-loose", "agrees-in-regime", "disagrees", "not-derivable")
# Quantities whose logarithms count as polylog factors even when they are not scaled.
POLYLOG_SYMBOLS = (S.delta, S.T)


@dataclass
class Derivation:
    id: str
    verdict: str
    stated: str = ""
    derived: str = ""
    regime: sp.Basic | None = None
    exponent_difference: dict[str, dict[str, str]] = field(default_factory=dict)
    polylog_stated: list[str] = field(default_factory=list)
    polylog_derived: list[str] = field(default_factory=list)
    constants: list[str] = field(default_factory=list)     # named constants whose powers differ
    comparison: str = ""        # derived <= stated | derived >= stated | neither (everywhere)
    reason: str = ""
    substituted: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "verdict": self.verdict, "stated": self.stated,
                "derived": self.derived,
                "regime": None if self.regime is None else sp.sstr(self.regime),
                "exponent_difference": self.exponent_difference,
                "polylog_stated": self.polylog_stated, "polylog_derived": self.polylog_derived,
                "constants": self.constants, "comparison": self.comparison,
                "reason": self.reason}


def scaling_of(item: Theorem) -> Scaling:
    return Scaling(item.growing, POLYLOG_SYMBOLS, small_symbols=(S.delta,))


def substitute_settings(expr: sp.Basic, settings: Mapping[sp.Symbol, sp.Expr],
                        sc: Scaling | None = None, rounds: int = 10) -> sp.Basic:
    """Apply settings until none of their symbols remains.

    An implicit setting (its own symbol inside a log on the right, T = eps n^2 / log2 T)
    is made explicit by reading that log as a polylog factor. A setting whose symbol stays
    on its own right-hand side outside a log is circular: ``NotDerivable``.
    """
    sc = sc or Scaling({S.n: 1}, POLYLOG_SYMBOLS)
    explicit: dict[sp.Symbol, sp.Expr] = {}
    for sym, rhs in settings.items():
        rhs = sp.sympify(rhs)
        if sym in rhs.free_symbols:
            rhs = rhs.replace(lambda e: isinstance(e, sp.log) and sym in e.free_symbols,
                              lambda e: sp.Symbol(f"log({sp.sstr(e.args[0])})", positive=True))
            if sym in rhs.free_symbols:
                raise NotDerivable(f"setting {sym} = {settings[sym]} is circular")
        explicit[sym] = rhs
    out = sp.sympify(expr)
    for _ in range(rounds):
        new = out.subs(explicit)
        if new == out:
            return new
        out = new
    raise NotDerivable("settings do not resolve (cyclic dependencies)")


def _fmt_terms(terms: list[Term], sc: Scaling) -> str:
    return " + ".join(sp.sstr(t.monomial(sc.variables)) for t in terms)


def _named_constant_mismatch(derived: list[Term], stated: list[Term], sc: Scaling,
                             named: set[sp.Symbol]) -> list[str]:
    """Constants the stated rate names whose power differs in the matching derived term."""
    out = []
    for s in stated:
        for t in derived:
            if any(simplify(a - b) != 0 for a, b in zip(s.exps, t.exps)):
                continue
            ratio = sp.powsimp(t.coeff / s.coeff, force=True)
            for c in sorted(named, key=str):
                e_t = _power_of(t.coeff, c)
                e_s = _power_of(s.coeff, c)
                if e_t is not None and e_s is not None and simplify(e_t - e_s) != 0:
                    out.append(f"{c}: derived power {e_t}, stated power {e_s} "
                               f"(term {sp.sstr(s.monomial(sc.variables))}; ratio {ratio})")
    return out


def _power_of(expr: sp.Expr, c: sp.Symbol) -> sp.Expr | None:
    """Exponent of c in a product (None if c enters additively)."""
    expr = sp.powsimp(expr, force=True)
    total = sp.Integer(0)
    for f in sp.Mul.make_args(expr):
        if c not in f.free_symbols:
            continue
        if f == c:
            total += 1
        elif isinstance(f, sp.Pow) and f.base == c and c not in f.exp.free_symbols:
            total += f.exp
        else:
            return None
    return total


def derive(item: Theorem) -> Derivation:
    """The derivation verdict of ``item`` (see the module docstring).

    Computed once per item per process: a Theorem is immutable and hashes by identity, so a
    repeated call (``verify`` derives each item for its check and again for the findings)
    returns a copy of the first result.
    """
    return copy.copy(_derive_once(item))


@functools.lru_cache(maxsize=None)
def _derive_once(item: Theorem) -> Derivation:
    if item.bound is None or item.rate is None:
        missing = "explicit bound" if item.bound is None else "stated rate"
        return Derivation(item.id, "not-derivable", reason=f"no {missing}")
    sc = scaling_of(item)
    stated_expr = item.rate
    try:
        substituted = substitute_settings(item.bound, item.settings, sc)
        stated = leading_terms(stated_expr, sc)
        derived = leading_terms(substituted, sc)
    except ExponentialGrowth as exc:
        # A stated power rate cannot match a bound that grows faster than every power.
        return Derivation(item.id, "disagrees", stated=sp.sstr(item.rate),
                          derived="an exponentially growing expression",
                          comparison="derived >= stated",
                          reason=str(exc))
    except NotDerivable as exc:
        return Derivation(item.id, "not-derivable", stated=sp.sstr(item.rate), reason=str(exc))
    d = Derivation(item.id, "agrees", stated=_fmt_terms(stated, sc), derived=_fmt_terms(derived, sc),
                   substituted=sp.sstr(substituted))
    d.polylog_stated = sorted({str(s) for t in stated for s in polylog_symbols(t)})
    d.polylog_derived = sorted({str(s) for t in derived for s in polylog_symbols(t)})
    growing = set(sc.variables)
    named = {s for s in item.rate.free_symbols if s not in growing and s not in POLYLOG_SYMBOLS}
    d.constants = _named_constant_mismatch(derived, stated, sc, named)
    try:
        up = max_le(derived, stated, sc)       # derived <= stated
        down = max_le(stated, derived, sc)     # stated <= derived
        both = and_regimes(up, down)
    except Exception as exc:  # LP on symbolic exponents that cannot be evaluated
        d.verdict, d.reason = "not-derivable", f"regime computation failed: {exc}"
        return d
    d.comparison = ("derived = stated" if both.everywhere else
                    "derived <= stated" if up.everywhere else
                    "derived >= stated" if down.everywhere else "neither dominates")
    if any(not e.is_number for t in derived + stated for e in t.exps):
        d.reason = "exponents depend on the constants; regimes are those of generic constants"
    if both.everywhere:
        d.verdict, d.regime = "agrees", sp.true
    elif up.everywhere:
        d.verdict, d.regime = "agrees-loose", sp.true
    elif not up.empty:
        d.verdict, d.regime = "agrees-in-regime", up.relation()
    else:
        d.verdict = "disagrees"
    for v in sc.variables:
        e_der = exponent_along(derived, sc, v)
        e_st = exponent_along(stated, sc, v)
        d.exponent_difference[str(v)] = {"derived": sp.sstr(e_der), "stated": sp.sstr(e_st),
                                         "difference": sp.sstr(simplify(e_der - e_st))}
    return d


# --- exponents and comparison ------------------------------------------------------------
def exponent(expr: sp.Basic, variable: sp.Symbol, *, fixed: Mapping[sp.Symbol, float] | None = None,
             scaled: Mapping[sp.Symbol, sp.Expr] | None = None, direction: int = 1) -> sp.Expr:
    """Exponent of ``expr`` in ``variable`` with others fixed (numbers) or scaled as powers
    of it (``scaled={d: n**b}``); logs are polylog and do not count."""
    expr = sp.sympify(expr)
    if scaled:
        expr = expr.subs(scaled)
    if fixed:
        expr = expr.subs(fixed)
    sc = Scaling({variable: direction}, POLYLOG_SYMBOLS, small_symbols=(S.delta,))
    terms = leading_terms(expr, sc)
    return exponent_along(terms, sc, variable)


@dataclass
class Comparison:
    a: str
    b: str
    vary: str
    exponent_a: str
    exponent_b: str
    ratio_exponent: str
    crossover: list[str]
    regimes: list[dict[str, str]]
    leading_a: str
    leading_b: str

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def compare(a: sp.Basic, b: sp.Basic, *, vary: sp.Symbol, growing: Mapping[sp.Symbol, int],
            fixed: Mapping[sp.Symbol, float] | None = None, names: tuple[str, str] = ("a", "b")
            ) -> Comparison:
    """Compare two rates: exponents along ``vary``, where each is smaller, and the crossover.

    ``growing`` gives the scaling of the variables left free (``fixed`` ones are numbers).
    Smaller is better (rates of error).
    """
    fixed = dict(fixed or {})
    a = sp.sympify(a).subs(fixed)
    b = sp.sympify(b).subs(fixed)
    grow = {v: s for v, s in growing.items() if v not in fixed}
    if vary not in grow:
        grow = {vary: 1, **grow}
    sc = Scaling(grow, POLYLOG_SYMBOLS, small_symbols=(S.delta,))
    A = leading_terms(a, sc)
    B = leading_terms(b, sc)
    ea, eb = exponent_along(A, sc, vary), exponent_along(B, sc, vary)
    a_better = max_lt(A, B, sc)
    b_better = max_lt(B, A, sc)
    regimes = []
    for name, reg in ((names[0], a_better), (names[1], b_better)):
        if not reg.empty:
            regimes.append({"better": name, "when": sp.sstr(reg.relation(strict=True))})
    crossover = _crossover(A, B, sc, a_better, b_better, fixed)
    if len(sc.variables) == 1 and not (a.free_symbols | b.free_symbols) - {vary}:
        # One free variable and numbers elsewhere: also the finite crossovers of the full
        # expressions (where the constants decide), found on a log grid + brentq.
        finite, finite_regimes = numeric_crossovers(a, b, vary, names)
        exact = []
        for c in crossover:
            try:
                exact.append(float(sp.sympify(c.split(",", 1)[1].rstrip(")"))))
            except (TypeError, ValueError, sp.SympifyError):
                pass
        for c in finite:
            value = float(c.split(",", 1)[1].rstrip(")"))
            if not any(abs(value - e) <= 1e-9 * abs(e) for e in exact):
                crossover.append(c)
        if not regimes:
            regimes = finite_regimes
        else:
            regimes += finite_regimes
    return Comparison(names[0], names[1], str(vary), sp.sstr(ea), sp.sstr(eb),
                      sp.sstr(simplify(ea - eb)), crossover, regimes,
                      _fmt_terms(A, sc), _fmt_terms(B, sc))


def _crossover(A: list[Term], B: list[Term], sc: Scaling, a_better: Any, b_better: Any,
               fixed: Mapping[sp.Symbol, float]) -> list[str]:
    """Boundaries between the regimes: equalities of the atoms that separate them."""
    out: list[str] = []
    seen = set()
    for reg in (a_better, b_better):
        for conj in reg.disjuncts:
            for at in conj:
                rel = at.relation(sc)
                if rel in (sp.true, sp.false):
                    continue
                eq = sp.Eq(rel.lhs, rel.rhs, evaluate=False)
                if len(sc.variables) == 1:
                    # one free variable: the crossover is a number, including the constants
                    v = sc.variables[0]
                    p = next((t for t in A + B if tuple(t.exps) == tuple(at.lhs)), None)
                    q = next((t for t in A + B if tuple(t.exps) == tuple(at.rhs)), None)
                    if p is not None and q is not None:
                        sol = sp.solve(sp.Eq(p.expr(sc.variables), q.expr(sc.variables)), v)
                        sol = [s for s in sol if s.is_real is not False]
                        if sol:
                            eq = sp.Eq(v, sp.nsimplify(sol[0]) if not sol[0].free_symbols
                                       else sol[0])
                key = sp.sstr(eq) if not isinstance(eq, sp.Eq) else \
                    "|".join(sorted([sp.sstr(eq.lhs), sp.sstr(eq.rhs)]))
                if key not in seen:
                    seen.add(key)
                    out.append(sp.sstr(eq))
    return out


def numeric_crossovers(a: sp.Expr, b: sp.Expr, v: sp.Symbol, names: tuple[str, str],
                       lo: float = 1.0, hi: float = 1e12) -> tuple[list[str], list[dict[str, str]]]:
    """Roots of log a - log b in v on [lo, hi] and the intervals where each side is smaller."""
    import numpy as np
    from scipy.optimize import brentq

    f = sp.lambdify(v, sp.log(a) - sp.log(b), "numpy")
    grid = np.logspace(np.log10(lo), np.log10(hi), 400)
    with np.errstate(all="ignore"):
        vals = np.array([float(f(x)) for x in grid])
    roots: list[float] = []
    for x0, x1, f0, f1 in zip(grid[:-1], grid[1:], vals[:-1], vals[1:]):
        if np.isfinite(f0) and np.isfinite(f1) and f0 * f1 < 0:
            roots.append(brentq(lambda x: float(f(x)), x0, x1, xtol=1e-12 * x1))
    edges = [lo, *roots, hi]
    regimes = []
    for x0, x1 in zip(edges[:-1], edges[1:]):
        mid = float(np.sqrt(x0 * x1))
        val = float(f(mid))
        if val == 0:
            continue
        better = names[0] if val < 0 else names[1]
        regimes.append({"better": better,
                        "when": f"{x0:.6g} < {v} < {x1:.6g}" if x1 < hi else f"{v} > {x0:.6g}"})
    return [f"Eq({v}, {r!r})" for r in roots], regimes


def regime_map(a: sp.Expr, b: sp.Expr, x: tuple[sp.Symbol, float, float],
               y: tuple[sp.Symbol, float, float], fixed: Mapping[sp.Symbol, float] | None = None,
               resolution: int = 120) -> dict[str, Any]:
    """Numeric regime map: log10(a/b) on a log-spaced grid of two variables (the full
    expressions, constants included). Negative values: ``a`` is smaller (better)."""
    import numpy as np

    fixed = dict(fixed or {})
    (xs, x0, x1), (ys, y0, y1) = x, y
    if not (0 < x0 < x1 and 0 < y0 < y1):
        raise ValueError("regime_map ranges must satisfy 0 < lo < hi")
    ratio = (sp.log(sp.sympify(a)) - sp.log(sp.sympify(b))).subs(fixed) / sp.log(10)
    left = ratio.free_symbols - {xs, ys}
    if left:
        raise ValueError(f"regime_map needs values for {sorted(map(str, left))} (use fixed=)")
    f = sp.lambdify((xs, ys), ratio, "numpy")
    X, Y = np.meshgrid(np.logspace(np.log10(x0), np.log10(x1), resolution),
                       np.logspace(np.log10(y0), np.log10(y1), resolution))
    with np.errstate(all="ignore"):
        Z = np.asarray(f(X, Y), dtype=float) * np.ones_like(X)
    return {"x": X, "y": Y, "log10_ratio": Z, "x_name": str(xs), "y_name": str(ys)}
