"""Leading terms of positive expressions under a power scaling.

Every growing quantity g is a power of its own scale, log g = s_g t_g with t_g >= 0 and
s_g = +1 (g grows: n, d) or -1 (g shrinks: eps, alpha). A monomial prod g^e_g then has
log-size <e * s, t>, linear in t, so a sum of monomials has the size of the *max* of linear
forms. Constants (fixed problem constants, numbers) are kept as a
coefficient; logarithms of growing quantities and of 1/delta are the separately tracked
*polylog* part.

:func:`leading_terms` turns an expression into a list of :class:`Term` whose sum is
Theta-equivalent to it (same size up to constants and polylogs); it raises
:class:`NotDerivable` with the reason when the expression leaves that class (competing terms
in a denominator, exponential growth, cancellation of leading terms, ...).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import sympy as sp

from dptheory.symbolic.memo import simplify


class NotDerivable(Exception):
    """The expression is not a sum of monomials under the scaling (reason in the message)."""


class ExponentialGrowth(NotDerivable):
    """The expression grows faster than any power (an exp of a growing quantity)."""


class _Negligible(Exception):
    """A summand that decays faster than any power (exp(-growing)); dropped from sums."""


@dataclass(frozen=True)
class Term:
    """coeff * polylog * prod_g g**exps[g], with exps over the scaling's variables."""

    exps: tuple[sp.Expr, ...]
    coeff: sp.Expr = sp.Integer(1)
    polylog: sp.Expr = sp.Integer(1)

    def monomial(self, variables: Sequence[sp.Symbol]) -> sp.Expr:
        """prod_g g**exps[g] over ``variables`` (the scaling's, in order)."""
        return sp.Mul(*[v**e for v, e in zip(variables, self.exps)])

    def expr(self, variables: Sequence[sp.Symbol]) -> sp.Expr:
        """The whole term, coeff * polylog * monomial, as a SymPy expression."""
        return self.coeff * self.polylog * self.monomial(variables)


class Scaling:
    """The growing variables of a theorem and their directions."""

    def __init__(self, growing: Mapping[sp.Symbol, int], polylog_symbols: Iterable[sp.Symbol] = (),
                 small_symbols: Iterable[sp.Symbol] = ()):
        if not growing:
            raise ValueError("scaling needs at least one growing variable")
        for g, s in growing.items():
            if s not in (1, -1):
                raise ValueError(f"direction of {g} must be +1 or -1, got {s}")
        self.variables: tuple[sp.Symbol, ...] = tuple(growing)
        self.signs: tuple[int, ...] = tuple(growing[v] for v in self.variables)
        # Symbols whose logarithms are polylog factors (besides the growing variables).
        self.log_symbols = set(self.variables) | set(polylog_symbols)
        # Symbols known to lie in (0, 1) (delta): log(x) of them is -log(1/x) < 0.
        self.small = set(small_symbols)

    def index(self, v: sp.Symbol) -> int:
        """Position of the growing variable ``v`` in :attr:`variables`."""
        return self.variables.index(v)

    def is_growing(self, expr: sp.Basic) -> bool:
        """Whether ``expr`` involves a growing variable."""
        return bool(expr.free_symbols & set(self.variables))

    def signed(self, exps: Sequence[sp.Expr]) -> tuple[sp.Expr, ...]:
        """Exponents in the scale coordinates t (log g = s_g t_g)."""
        return tuple(e * s for e, s in zip(exps, self.signs))


# --- sign decisions -------------------------------------------------------------------
_SAMPLES = 64


def sign(expr: sp.Expr) -> int | None:
    """+1, 0, -1 if the sign of ``expr`` is the same for all positive constants, else None.

    Exact when SymPy decides it; otherwise decided on random positive values of the
    constants (log-uniform over six decades, fixed seed): a sign that changes on the
    samples gives None ("depends on the constants").
    """
    expr = sp.sympify(expr)
    if expr.is_number:
        v = float(sp.N(expr))
        return 0 if v == 0 else (1 if v > 0 else -1)
    # Cheap first: the assumptions system decides products/powers of positive symbols.
    if expr.is_positive:
        return 1
    if expr.is_negative:
        return -1
    simplified = simplify(expr)
    if simplified.is_zero:
        return 0
    if simplified.is_positive:
        return 1
    if simplified.is_negative:
        return -1
    symbols = sorted(simplified.free_symbols, key=str)
    rng = random.Random(12345)
    f = sp.lambdify(symbols, simplified, "math", dummify=True)
    seen = set()
    for _ in range(_SAMPLES):
        vals = [10 ** rng.uniform(-3, 3) for _ in symbols]
        try:
            v = f(*vals)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            continue   # outside the real domain of the expression at this sample
        seen.add(0 if v == 0 else (1 if v > 0 else -1))
    if len(seen) == 1:
        return seen.pop()
    return None


# --- the expansion --------------------------------------------------------------------
def _log_to_polylog(expr: sp.Basic, scaling: Scaling) -> sp.Basic:
    """Replace log(x) of growing (or polylog-tracked) x by a positive placeholder symbol."""

    def is_tracked(e: sp.Basic) -> bool:
        return isinstance(e, sp.log) and bool(e.free_symbols & scaling.log_symbols)

    def placeholder(e: sp.Basic) -> sp.Expr:
        arg = e.args[0]
        if arg.free_symbols & scaling.small:
            # split off the logs of the small symbols so their sign is explicit
            parts = sp.expand_log(sp.log(arg), force=True)
            if parts != e:
                return sp.Add(*[placeholder(p) if isinstance(p, sp.log) else
                                p.replace(is_tracked, placeholder)
                                for p in sp.Add.make_args(parts)])
            if arg in scaling.small:
                return -sp.Symbol(f"log(1/{sp.sstr(arg)})", positive=True)
        return sp.Symbol(f"log({sp.sstr(arg)})", positive=True)

    return expr.replace(is_tracked, placeholder)


def _exp_to_powers(expr: sp.Basic) -> sp.Basic:
    """exp(c log X + r) -> X**c exp(r); b**e with constant b -> exp(e log b) first."""

    def rewrite_exp(e: sp.Basic) -> sp.Basic:
        arg = sp.expand(sp.expand_log(e.args[0], force=True))
        factor, rest = sp.Integer(1), []
        for term in sp.Add.make_args(arg):
            coeff, logs = sp.Integer(1), []
            for f in sp.Mul.make_args(term):
                if isinstance(f, sp.log):
                    logs.append(f)
                else:
                    coeff = coeff * f
            if len(logs) == 1:
                factor *= logs[0].args[0] ** coeff
            else:
                rest.append(term)
        return factor * sp.exp(sp.Add(*rest))

    expr = expr.replace(lambda e: isinstance(e, sp.Pow) and e.base.is_number and not e.exp.is_number
                        and e.base.is_positive,
                        lambda e: sp.exp(e.exp * sp.log(e.base)))
    return expr.replace(lambda e: isinstance(e, sp.exp), rewrite_exp)


def prepare(expr: sp.Basic, scaling: Scaling) -> sp.Basic:
    """Exponentials of logs to powers, then logs to polylog placeholders."""
    return _log_to_polylog(_exp_to_powers(sp.sympify(expr)), scaling)


def leading_terms(expr: sp.Basic, scaling: Scaling, *, prepared: bool = False) -> list[Term]:
    """Terms whose sum is Theta-equivalent to ``expr`` (positive) under ``scaling``."""
    if not prepared:
        expr = prepare(expr, scaling)
    try:
        terms = _terms(sp.sympify(expr), scaling)
    except _Negligible as exc:
        raise NotDerivable(f"decays faster than any power: {exc}") from None
    return prune(terms, scaling)


def polylog_symbols(t: Term) -> set[sp.Symbol]:
    """The polylog placeholders a term carries (in its polylog part or inside its coefficient)."""
    return {s for s in (t.coeff * t.polylog).free_symbols if _is_polylog(s)}


def _is_polylog(s: sp.Basic) -> bool:
    return isinstance(s, sp.Symbol) and s.name.startswith(("log(", "polylog_"))


def _split_constant(expr: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(coefficient, polylog part) of a factor free of growing variables."""
    polys = [s for s in expr.free_symbols if _is_polylog(s)]
    if not polys:
        return expr, sp.Integer(1)
    poly, coeff = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(expr):
        if f.free_symbols and all(_is_polylog(s) for s in f.free_symbols):
            poly *= f
        else:
            coeff *= f
    return coeff, poly


def _terms(expr: sp.Expr, sc: Scaling) -> list[Term]:
    try:
        return _terms_structural(expr, sc)
    except ExponentialGrowth:
        raise
    except NotDerivable:
        moving = expr.free_symbols & set(sc.variables)
        if len(moving) != 1:
            raise
        # One growing variable: the leading term by limits (handles cancellations such as
        # 1 - exp(-2/d) ~ 2/d that the structural rules cannot see).
        term = _single_variable_term(expr, moving.pop(), sc)
        if term is None:
            raise
        return [term]


def _single_variable_term(expr: sp.Expr, v: sp.Symbol, sc: Scaling) -> Term | None:
    y = sp.Symbol("_y", positive=True)
    s = sc.signs[sc.index(v)]
    f = expr.subs(v, y if s == 1 else 1 / y)
    try:
        k = sp.limit(sp.log(f) / sp.log(y), y, sp.oo)
        if not (k.is_real and k.is_finite):
            return None
        c = sp.limit(f / y**k, y, sp.oo)
    except (NotImplementedError, ValueError, TypeError):
        return None
    if not (c.is_finite and c.is_positive):
        return None
    exps = [sp.Integer(0)] * len(sc.variables)
    exps[sc.index(v)] = k * s
    coeff, poly = _split_constant(c)
    return Term(tuple(exps), coeff, poly)


def _terms_structural(expr: sp.Expr, sc: Scaling) -> list[Term]:
    zero = tuple(sp.Integer(0) for _ in sc.variables)
    if not sc.is_growing(expr):
        coeff, poly = _split_constant(expr)
        return [Term(zero, coeff, poly)]
    if isinstance(expr, sp.Symbol):
        exps = list(zero)
        exps[sc.index(expr)] = sp.Integer(1)
        return [Term(tuple(exps))]
    if isinstance(expr, sp.Add):
        groups = []
        for a in expr.args:
            try:
                groups.append(_terms(a, sc))
            except _Negligible:
                continue        # exp(-growing): smaller than every power
        if not groups:
            raise _Negligible(str(expr))
        return _add(groups, sc)
    if isinstance(expr, sp.Mul):
        out = [Term(zero)]
        for a in expr.args:
            out = [_mul(x, y) for x in out for y in _terms(a, sc)]
        return _combine(out)
    if isinstance(expr, sp.Pow):
        p = expr.exp
        if sc.is_growing(p):
            p = _limit_exponent(p, expr, sc)
        base = prune(_terms(expr.base, sc), sc)
        if len(base) == 1:
            return [_pow(base[0], p)]
        s = sign(p)
        if s == 1:        # (sum a_i)^p ~ sum a_i^p for p > 0
            return [_pow(t, p) for t in base]
        raise NotDerivable(f"a sum of competing terms raised to a negative power in {expr}")
    if isinstance(expr, sp.Max):
        return _combine([t for a in expr.args for t in _terms(a, sc)])
    if isinstance(expr, sp.Min):
        options = [prune(_terms(a, sc), sc) for a in expr.args]
        # min(A, B) = the one that is smaller everywhere on the scaling cone, if any.
        for cand in options:
            if all(_everywhere_le(cand, other, sc) for other in options):
                return cand
        raise NotDerivable(f"no argument of {expr} is smallest on the whole scaling cone")
    if isinstance(expr, sp.exp):
        # exp(u) with a positive summand of u that grows somewhere on the cone grows faster
        # than any power there (e.g. exp(c n^2/d) where n^2/d -> oo).
        for part in sp.Add.make_args(sp.expand(expr.args[0])):
            if not sc.is_growing(part) or sign(part) != 1:
                continue
            try:
                grows = [t for t in _terms(part, sc)
                         if any(_numeric_sign(e * s) > 0 for e, s in zip(t.exps, sc.signs))]
            except NotDerivable:
                grows = []
            if grows:
                raise ExponentialGrowth(
                    f"exp of {sp.sstr(part)}, which grows where "
                    f"{sp.sstr(grows[0].monomial(sc.variables))} -> oo: {sp.sstr(expr)}")
        try:
            neg = prune(_terms(-expr.args[0], sc), sc)
        except NotDerivable:
            neg = None
        if neg is not None and all(any(_numeric_sign(e * s) > 0 for e, s in zip(t.exps, sc.signs))
                                   for t in neg):
            raise _Negligible(str(expr))
        raise NotDerivable(f"exponential of a growing quantity: {expr}")
    raise NotDerivable(f"unsupported form {type(expr).__name__}: {expr}")


def _limit_exponent(p: sp.Expr, expr: sp.Expr, sc: Scaling) -> sp.Expr:
    """An exponent that depends on growing variables but tends to a constant p_inf fast
    enough: b**p = b**p_inf * b**(p - p_inf), and when p - p_inf decays polynomially while
    log b is polylogarithmic, the second factor tends to 1 everywhere inside the cone
    (e.g. T**(c (1 - 1/n)))."""
    p_inf = p
    for v, s in zip(sc.variables, sc.signs):
        if v in p_inf.free_symbols:
            p_inf = sp.limit(p_inf, v, sp.oo if s == 1 else 0)
    if sc.is_growing(p_inf) or not p_inf.is_finite:
        raise NotDerivable(f"growing exponent in {expr}")
    rest = simplify(p - p_inf)
    if rest != 0:
        for t in prune(_terms(rest if sign(rest) != -1 else -rest, sc), sc):
            signed = [_sign_or_none(e * s) for e, s in zip(t.exps, sc.signs)]
            if any(x is None or x > 0 for x in signed) or not any(x == -1 for x in signed):
                raise NotDerivable(f"growing exponent in {expr}")
    return p_inf


def _sign_or_none(e: sp.Expr) -> int | None:
    return sign(e)


def _numeric_sign(e: sp.Expr) -> int:
    sg = sign(e)
    return 0 if sg is None else sg


def _mul(a: Term, b: Term) -> Term:
    return Term(tuple(x + y for x, y in zip(a.exps, b.exps)), a.coeff * b.coeff,
                a.polylog * b.polylog)


def _pow(a: Term, p: sp.Expr) -> Term:
    return Term(tuple(_simplify_exponent(e * p) for e in a.exps), sp.powsimp(a.coeff ** p, force=True),
                a.polylog ** p)


def _simplify_exponent(e: sp.Expr) -> sp.Expr:
    return e if e.is_number else simplify(e)


def _key(t: Term) -> tuple:
    return tuple(e if e.is_number else simplify(e) for e in t.exps)


def _combine(terms: list[Term]) -> list[Term]:
    """Merge terms with the same exponents by adding coefficients (same polylog order)."""
    groups: dict[tuple, list[Term]] = {}
    for t in terms:
        groups.setdefault(_key(t), []).append(t)
    out = []
    for key, ts in groups.items():
        if len(ts) == 1:
            out.append(ts[0])
            continue
        total = sp.Add(*[t.coeff * t.polylog for t in ts])
        if not total.is_positive:
            total = simplify(total)
        if total == 0:
            continue
        coeff, poly = _split_constant(total)
        out.append(Term(key, coeff, poly))
    return out


def _add(groups: list[list[Term]], sc: Scaling) -> list[Term]:
    terms = _combine([t for g in groups for t in g])
    positive, negative = [], []
    for t in terms:
        s = sign(t.coeff * t.polylog)
        if s == -1:
            negative.append(t)
        else:
            positive.append(t)
    for t in negative:
        # A subtracted term must be strictly smaller than a positive one everywhere.
        if not any(_strictly_dominated(t, p, sc) for p in positive):
            raise NotDerivable("a subtracted term is not dominated by a positive term "
                               f"(possible cancellation): {t.expr(sc.variables)}")
    if not positive:
        raise NotDerivable("expression is not positive")
    return positive


def _le_componentwise(a: Term, b: Term, sc: Scaling) -> bool | None:
    """a <= b on the whole cone (componentwise in scale coordinates)."""
    result = True
    for ea, eb, s in zip(a.exps, b.exps, sc.signs):
        sg = sign((ea - eb) * s)
        if sg is None:
            return None
        if sg == 1:
            result = False
    return result


def _strictly_dominated(a: Term, b: Term, sc: Scaling) -> bool:
    le = _le_componentwise(a, b, sc)
    return bool(le) and _key(a) != _key(b)


def _everywhere_le(a_terms: list[Term], b_terms: list[Term], sc: Scaling) -> bool:
    """max(a) <= max(b) on the whole cone (sufficient: each a below some b componentwise)."""
    return all(any(_le_componentwise(a, b, sc) for b in b_terms) for a in a_terms)


def prune(terms: list[Term], sc: Scaling) -> list[Term]:
    """Drop terms dominated everywhere by another term (keep one of equal ones)."""
    terms = _combine(terms)
    keep: list[Term] = []
    for i, t in enumerate(terms):
        dominated = False
        for j, u in enumerate(terms):
            if i == j:
                continue
            if _le_componentwise(t, u, sc) and (_key(t) != _key(u)):
                dominated = True
                break
        if not dominated:
            keep.append(t)
    return keep


def exponent_along(terms: list[Term], sc: Scaling, variable: sp.Symbol) -> sp.Expr:
    """Exponent of ``variable`` of the sum when only it moves (others fixed)."""
    i = sc.index(variable)
    values = [t.exps[i] for t in terms]
    # the largest size along g: max of e*s, reported back in g's own power
    s = sc.signs[i]
    best = values[0]
    for v in values[1:]:
        sg = sign((v - best) * s)
        if sg is None:
            return sp.Max(*[v * s for v in values]) * s
        if sg == 1:
            best = v
    return best


def term_products(*lists: list[Term]) -> list[Term]:
    """The terms of a product of sums: one product term for each choice of one term from
    every list."""
    return [_reduce_mul(combo) for combo in itertools.product(*lists)]


def _reduce_mul(terms: Sequence[Term]) -> Term:
    out = terms[0]
    for t in terms[1:]:
        out = _mul(out, t)
    return out


def power_of(expr: sp.Expr, c: sp.Symbol) -> sp.Expr | None:
    """Exponent of ``c`` in a product (None if ``c`` enters additively, or with an exponent
    that depends on ``c``).

    Examples
    --------
    >>> import sympy as sp
    >>> c, x = sp.symbols("c x", positive=True)
    >>> power_of(3 * c**2 * x / sp.sqrt(c), c), power_of(c + x, c)
    (3/2, None)
    """
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
