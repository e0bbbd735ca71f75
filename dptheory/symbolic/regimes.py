"""Regimes: Boolean combinations of monomial inequalities on the scaling cone.

An *atom* ``p <= q`` between two monomials is the half-space ``<a, t> <= 0`` of the scale
coordinates t >= 0 (a = signed exponent difference). A regime is a disjunction of
conjunctions of atoms (DNF). Feasibility, implication and coverage are decided exactly by
small linear programs on the cone (interior points only: a regime that holds only on a
boundary, e.g. exactly d = n, is empty).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import sympy as sp
from scipy.optimize import linprog

from dptheory.symbolic.asymptotics import Scaling, Term
from dptheory.symbolic.memo import simplify
from dptheory.symbolic.symbols import registered

_TOL = 1e-9


@dataclass(frozen=True)
class Atom:
    """lhs <= rhs for two monomials (lhs/rhs exponent vectors over the scaling variables)."""

    lhs: tuple[sp.Expr, ...]
    rhs: tuple[sp.Expr, ...]

    def vector(self, sc: Scaling) -> np.ndarray:
        """The signed exponent difference a of lhs - rhs: the atom is ``<a, t> <= 0``."""
        diff = [(a - b) * s for a, b, s in zip(self.lhs, self.rhs, sc.signs)]
        return np.array([_numeric(e) for e in diff], dtype=float)

    def relation(self, sc: Scaling, strict: bool = False) -> sp.Basic:
        """The atom as a SymPy relation between monomials of the scaling's variables
        (``<`` with ``strict``), scaled where it can be so the first nonzero exponent is +-1."""
        diff = [sp.nsimplify(simplify(a - b)) for a, b in zip(self.lhs, self.rhs)]
        nonzero = [e for e in diff if e != 0]
        if not nonzero:
            return sp.true
        # Normalise: exponent of the first variable (usually n) to +-1; a symbolic exponent
        # (depending on constants) is divided out when all exponents are proportional to it.
        first = next(e for e in diff if e != 0)
        scale = abs(first) if first.is_number else 1
        if not first.is_number:
            ratios = [simplify(e / first) for e in diff]
            if all(r.is_number for r in ratios) and _numeric(first) != 0:
                scale = first if _numeric(first) > 0 else -first
                diff = [simplify(e / scale) for e in diff]
                scale = 1
        left = sp.Mul(*[v ** (e / scale) for v, e in zip(sc.variables, diff) if _positive(e)])
        right = sp.Mul(*[v ** (-e / scale) for v, e in zip(sc.variables, diff) if not _positive(e)
                         and e != 0])
        return sp.StrictLessThan(left, right, evaluate=False) if strict else \
            sp.LessThan(left, right, evaluate=False)


def _positive(e: sp.Expr) -> bool:
    return bool(_numeric(e) > 0)


def _generic_constants() -> dict[sp.Symbol, float]:
    """Generic values of the constants: each symbol's example times a distinct factor, so no
    two constants coincide by accident (mu = beta would turn a strict exponent gap into a tie)."""
    infos = sorted(registered().values(), key=lambda i: i.symbol.name)
    return {info.symbol: info.example * (1.0 + 0.0731 * ((7 * i) % 11 + 1))
            for i, info in enumerate(infos)}


def _numeric(e: sp.Expr) -> float:
    """A number for an exponent; exponents that depend on constants are evaluated at generic
    constant values (regimes are then those of a generic instance)."""
    e = sp.sympify(e)
    if e.is_number:
        return float(e)
    return float(sp.N(e.subs(_generic_constants())))


def atom(p: Term, q: Term) -> Atom:
    """The atom ``p <= q`` of two terms (their exponent vectors; coefficients dropped)."""
    return Atom(p.exps, q.exps)


def _lp_interior(le: Sequence[np.ndarray], gt: Sequence[np.ndarray], k: int) -> bool:
    """Is {t >= 0 : a.t <= 0 (a in le), a.t >= 0 (a in gt)} of nonempty interior?"""
    # variables (t_1..t_k, s); maximise s.
    c = np.zeros(k + 1)
    c[-1] = -1.0
    rows, rhs = [], []
    for a in le:
        rows.append(np.append(a, 1.0)); rhs.append(0.0)
    for a in gt:
        rows.append(np.append(-a, 1.0)); rhs.append(0.0)
    for i in range(k):           # t_i >= s  (interior of the orthant)
        r = np.zeros(k + 1); r[i] = -1.0; r[-1] = 1.0
        rows.append(r); rhs.append(0.0)
    a_eq = np.append(np.ones(k), 0.0)[None, :]
    res = linprog(c, A_ub=np.array(rows) if rows else None, b_ub=np.array(rhs) if rhs else None,
                  A_eq=a_eq, b_eq=[1.0], bounds=[(0, None)] * k + [(None, 1.0)], method="highs")
    return bool(res.status == 0 and -res.fun > _TOL)


class Regime:
    """A DNF of atoms over a scaling: a list of conjunctions (lists of atoms). An empty
    conjunction holds everywhere; an empty list of conjunctions, nowhere."""

    def __init__(self, disjuncts: list[list[Atom]], sc: Scaling):
        self.sc = sc
        self.disjuncts = disjuncts

    @property
    def k(self) -> int:
        """The number of scaling variables."""
        return len(self.sc.variables)

    def _feasible(self, conj: list[Atom], negated: Sequence[Atom] = ()) -> bool:
        return _lp_interior([a.vector(self.sc) for a in conj],
                            [a.vector(self.sc) for a in negated], self.k)

    def simplify(self) -> "Regime":
        """An equivalent regime with fewer atoms: always-true atoms, conjunctions of empty
        interior, atoms implied by the rest of their conjunction and conjunctions contained in
        another one are dropped."""
        sc = self.sc
        out: list[list[Atom]] = []
        for conj in self.disjuncts:
            conj = [a for a in conj if not np.all(a.vector(sc) <= _TOL)]   # always-true atoms
            if not self._feasible(conj):
                continue
            # drop atoms implied by the others
            kept = list(conj)
            for a in list(kept):
                others = [b for b in kept if b is not a]
                if not self._feasible(others, [a]):
                    kept.remove(a)
            out.append(kept)
        # drop disjuncts contained in another one
        final: list[list[Atom]] = []
        for i, c in enumerate(out):
            contained = False
            for j, other in enumerate(out):
                if i == j:
                    continue
                # c subset of other  <=>  c and not(atom of other) infeasible for each atom
                if all(not self._feasible(c, [b]) for b in other) and \
                        (j < i or not all(not self._feasible(other, [b]) for b in c)):
                    contained = True
                    break
            if not contained:
                final.append(c)
        return Regime(final, sc)

    @property
    def empty(self) -> bool:
        """True when no conjunction is left (the regime holds nowhere)."""
        return not self.disjuncts

    @property
    def everywhere(self) -> bool:
        """True iff the complement has empty interior."""
        if any(not c for c in self.disjuncts):
            return True
        # complement = AND over disjuncts of OR over negated atoms; check every choice.
        import itertools
        for choice in itertools.product(*self.disjuncts):
            if _lp_interior([], [a.vector(self.sc) for a in choice], self.k):
                return False
        return bool(self.disjuncts)

    def relation(self, strict: bool = False) -> sp.Basic:
        """The regime as a SymPy Boolean of monomial relations (``true`` everywhere, ``false``
        when empty)."""
        if self.everywhere:
            return sp.true
        if self.empty:
            return sp.false
        parts = [sp.And(*[a.relation(self.sc, strict) for a in c]) for c in self.disjuncts]
        return sp.Or(*parts)


def max_le(P: list[Term], Q: list[Term], sc: Scaling, strict: bool = False) -> Regime:
    """Region where max(P) <= max(Q):  AND_p OR_q (p <= q), as a DNF."""
    import itertools
    clauses = []
    for p in P:
        clause = [atom(p, q) for q in Q]
        if any(np.all(a.vector(sc) <= _TOL) for a in clause):
            continue                 # p is below some q everywhere: the clause always holds
        clauses.append(clause)
    disjuncts = [list(choice) for choice in itertools.product(*clauses)]
    return Regime(disjuncts, sc).simplify()


def max_lt(P: list[Term], Q: list[Term], sc: Scaling) -> Regime:
    """Region where max(P) < max(Q): OR_q AND_p (p < q), q not among P's exponents."""
    disjuncts = []
    for q in Q:
        conj = [atom(p, q) for p in P]
        if any(tuple(p.exps) == tuple(q.exps) for p in P):
            continue
        disjuncts.append(conj)
    return Regime(disjuncts, sc).simplify()


def and_regimes(a: Regime, b: Regime) -> Regime:
    """The intersection of two regimes over the same scaling, simplified."""
    return Regime([x + y for x in a.disjuncts for y in b.disjuncts], a.sc).simplify()
