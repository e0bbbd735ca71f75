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
                                           exponent_along, leading_terms, polylog_symbols,
                                           power_of)
from dptheory.symbolic.memo import simplify
from dptheory.symbolic.regimes import max_le, and_regimes
from dptheory.symbolic.symbols import S
from dptheory.symbolic.theorem import Theorem

VERDICTS = ("agrees", "agrees-loose", "agrees-in-regime", "disagrees", "not-derivable")
# Quantities whose logarithms count as polylog factors even when they are not scaled.
POLYLOG_SYMBOLS = (S.delta, S.T)


@dataclass
class Derivation:
    """The result of ``derive`` for one item: the explicit bound with the settings
    substituted, compared with the stated rate (verdict, regime, exponent difference)."""
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
        """JSON-ready fields (SymPy forms as strings)."""
        return {"id": self.id, "verdict": self.verdict, "stated": self.stated,
                "derived": self.derived,
                "regime": None if self.regime is None else sp.sstr(self.regime),
                "exponent_difference": self.exponent_difference,
                "polylog_stated": self.polylog_stated, "polylog_derived": self.polylog_derived,
                "constants": self.constants, "comparison": self.comparison,
                "reason": self.reason}


def scaling_of(item: Theorem) -> Scaling:
    """The item's growing quantities (``Theorem.growing``) as the asymptotics expect them."""
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
                e_t = power_of(t.coeff, c)
                e_s = power_of(s.coeff, c)
                if e_t is not None and e_s is not None and simplify(e_t - e_s) != 0:
                    out.append(f"{c}: derived power {e_t}, stated power {e_s} "
                               f"(term {sp.sstr(s.monomial(sc.variables))}; ratio {ratio})")
    return out


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


def __getattr__(name: str) -> Any:
    # compare() and regime_map() moved to dptheory.symbolic.compare (which must not import
    # this module); these names stay importable from here
    if name in ("compare", "Comparison", "numeric_crossovers", "regime_map"):
        from dptheory.symbolic import compare as _compare
        return getattr(_compare, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
