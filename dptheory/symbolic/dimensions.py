"""Dimensional analysis of statements, in the base dimensions [F] (loss) and [w] (parameter).

Rules: terms of a sum, the two sides of a relation and the arguments of Max/Min share one
dimension; arguments of log/exp/trigonometric functions and exponents are dimensionless;
a product multiplies dimensions. Each violation is reported with the offending
subexpression and the dimensions found.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
from sympy.core.relational import Relational

from dptheory.symbolic import units as U
from dptheory.symbolic.memo import simplify
from dptheory.symbolic.symbols import registered


@dataclass(frozen=True)
class DimensionIssue:
    """One dimensional inconsistency: where it is (``bound``, ``setting T``, a hypothesis)
    and what disagrees; ``pair`` holds the two dimensions that should agree, when the issue
    is such a mismatch.
    """

    where: str           # "bound", "setting T", "hypothesis 'eps-condition'", ...
    message: str
    # the two dimensions that should agree (None: not a mismatch of two dimensions, e.g. a
    # symbol without a registered dimension)
    pair: tuple[sp.Expr, sp.Expr] | None = None

    def as_dict(self) -> dict[str, str]:
        """``where`` and ``message`` as a JSON dict (the dimensions are left out)."""
        return {"where": self.where, "message": self.message}


class _Msg(str):
    """An issue message that remembers the two dimensions that disagree."""

    pair: tuple[sp.Expr, sp.Expr] | None = None


def _msg(text: str, a: sp.Expr | None = None, b: sp.Expr | None = None) -> _Msg:
    m = _Msg(text)
    m.pair = (sp.sympify(a), sp.sympify(b)) if a is not None else None
    return m


class _Inconsistent(Exception):
    pass


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    return simplify(a / b) == 1


def dimension(expr: sp.Basic, issues: list[str] | None = None,
              normalized: dict | None = None) -> sp.Expr:
    """Dimension of ``expr``; inconsistencies are appended to ``issues`` (if given) and the
    first term's dimension is carried on, so one pass reports every violation."""
    issues = [] if issues is None else issues
    return _dim(sp.sympify(expr), _units(normalized), issues, set())


#: ``{(registry size, normalisation): {symbol: unit}}``. The registry only grows (a symbol
#: registered twice must keep its unit), so its size identifies its content; caching saves
#: re-substituting every registered unit on each call (tens of thousands of SymPy ``subs``
#: per verification otherwise).
_UNITS: dict[tuple, dict] = {}


def _units(normalized: dict | None) -> dict:
    reg = registered()
    norm = tuple(sorted(((sp.sympify(k), sp.sympify(v)) for k, v in normalized.items()),
                        key=str)) if normalized else ()
    key = (len(reg), norm)
    units = _UNITS.get(key)
    if units is None:
        units = {info.symbol: info.unit for info in reg.values()}
        if normalized:
            units = {k: sp.sympify(v).subs(normalized) for k, v in units.items()}
        _UNITS[key] = units
    return units


def _dim(e: sp.Basic, units: dict, issues: list[str], bound: set) -> sp.Expr:
    if e.is_number or isinstance(e, sp.logic.boolalg.BooleanAtom):
        return U.ONE
    if isinstance(e, sp.Symbol):
        if e in units:
            return units[e]
        if e in bound or e.name.startswith(("log(", "polylog_", "_")) or e.is_integer:
            return U.ONE            # summation indices, polylog placeholders
        issues.append(f"symbol {e} has no registered dimension")
        return U.ONE
    if isinstance(e, (sp.Sum, sp.Product)):
        inner_bound = bound | {lim[0] for lim in e.limits}
        for lim in e.limits:
            for x in lim[1:]:
                _dim(x, units, issues, inner_bound)
        d = _dim(e.function, units, issues, inner_bound)
        return d if isinstance(e, sp.Sum) else d  # products of dimensional terms: rare
    if isinstance(e, sp.Add) or isinstance(e, (sp.Max, sp.Min)):
        # a literal 0 has every dimension (max(0, -lambda), x - 0)
        dims = [(a, _dim(a, units, issues, bound)) for a in e.args if not a.is_zero]
        if not dims:
            return U.ONE
        first = dims[0][1]
        for a, d in dims[1:]:
            if not _same(d, first):
                kind = "terms of a sum" if isinstance(e, sp.Add) else f"arguments of {type(e).__name__}"
                issues.append(_msg(f"{kind} differ: {sp.sstr(dims[0][0])} is [{first}] but "
                                   f"{sp.sstr(a)} is [{d}]", first, d))
        return first
    if isinstance(e, sp.Mul):
        out = U.ONE
        for a in e.args:
            out = out * _dim(a, units, issues, bound)
        return sp.powsimp(out)
    if isinstance(e, sp.Pow):
        de = _dim(e.exp, units, issues, bound)
        if not _same(de, U.ONE):
            issues.append(_msg(f"exponent {sp.sstr(e.exp)} of {sp.sstr(e)} is [{de}], not "
                               "dimensionless", de, U.ONE))
        db = _dim(e.base, units, issues, bound)
        if _same(db, U.ONE):
            return U.ONE
        if e.exp.is_number:
            return sp.powsimp(db ** e.exp)
        issues.append(f"symbolic power of a dimensional base: {sp.sstr(e)} (base [{db}])")
        return U.ONE
    if isinstance(e, sp.Abs):
        return _dim(e.args[0], units, issues, bound)
    if isinstance(e, sp.Piecewise):
        dims = []
        for value, cond in e.args:
            dims.append((value, _dim(value, units, issues, bound)))
            _dim(cond, units, issues, bound)
        first = dims[0][1]
        for a, d in dims[1:]:
            if not _same(d, first):
                issues.append(_msg(f"branches of Piecewise differ: [{first}] vs {sp.sstr(a)} [{d}]",
                                   first, d))
        return first
    if isinstance(e, Relational):
        dl = _dim(e.lhs, units, issues, bound)
        dr = _dim(e.rhs, units, issues, bound)
        if not (e.lhs.is_zero or e.rhs.is_zero or _same(dl, dr)):
            issues.append(_msg(f"sides of {sp.sstr(e)} differ: [{dl}] vs [{dr}]", dl, dr))
        return U.ONE
    if isinstance(e, sp.logic.boolalg.BooleanFunction):
        for a in e.args:
            _dim(a, units, issues, bound)
        return U.ONE
    if isinstance(e, (sp.floor, sp.ceiling)):
        d = _dim(e.args[0], units, issues, bound)
        if not _same(d, U.ONE):
            issues.append(_msg(f"argument of {type(e).__name__} is [{d}], not dimensionless",
                               d, U.ONE))
        return U.ONE
    if isinstance(e, sp.Function):      # log, exp, sin, cosh, ...: dimensionless arguments
        for a in e.args:
            d = _dim(a, units, issues, bound)
            if not _same(d, U.ONE):
                issues.append(_msg(f"argument of {type(e).__name__} in {sp.sstr(e)} is [{d}], "
                                   "not dimensionless", d, U.ONE))
        return U.ONE
    if isinstance(e, (sp.Tuple, sp.MatrixBase)):
        for a in e:
            _dim(a, units, issues, bound)
        return U.ONE
    issues.append(f"cannot analyse {type(e).__name__}: {sp.sstr(e)}")
    return U.ONE


def _exponents(dim: sp.Expr) -> tuple[sp.Rational, sp.Rational]:
    """(a, b) with dim = F^a W^b."""
    dim = sp.powsimp(sp.sympify(dim), force=True)
    a = sp.Integer(0)
    b = sp.Integer(0)
    for f in sp.Mul.make_args(dim):
        base, exp = f.as_base_exp()
        if base == U.F:
            a += exp
        elif base == U.W:
            b += exp
    return a, b


def absorbed_by(gap: sp.Expr, hidden: tuple) -> bool:
    """Whether some product of powers of the ``hidden`` constants has dimension ``gap``."""
    target = sp.Matrix(_exponents(gap))
    if all(x == 0 for x in target):
        return True
    cols = [sp.Matrix(_exponents(dimension(h))) for h in hidden]
    cols = [c for c in cols if any(x != 0 for x in c)]
    if not cols:
        return False
    A = sp.Matrix.hstack(*cols)
    return A.rank() == sp.Matrix.hstack(A, target).rank()


def check_dimensions(item, normalized: dict | None = None) -> list[DimensionIssue]:
    """Every dimensional inconsistency in an item's bound, settings, hypotheses, relations
    and expressions (rates drop constants by design and are only checked internally).

    ``normalized`` fixes units a paper normalises (zhang2021's |f| <= 1 fixes [F]:
    ``{F: 1}``). A bound stated up to hidden constants (``item.hidden``) is consistent with
    the measured quantity when some power product of the hidden constants bridges the gap.
    """
    out: list[DimensionIssue] = []
    norm = dict(normalized or {})

    def fix(d: sp.Expr) -> sp.Expr:
        return sp.sympify(d).subs(norm) if norm else d

    def run(where: str, expr: sp.Basic) -> sp.Expr:
        issues: list[str] = []
        d = dimension(expr, issues, normalized=norm)
        out.extend(DimensionIssue(where, str(m), getattr(m, "pair", None)) for m in issues)
        return d

    if item.bound is not None:
        d = run("bound", item.bound)
        if item.measured_unit is not None and not _same(fix(d), fix(item.measured_unit)):
            gap = sp.powsimp(fix(item.measured_unit) / fix(d), force=True)
            if not (item.hidden and absorbed_by(gap, tuple(item.hidden))):
                out.append(DimensionIssue("bound", f"bound is [{d}] but the measured quantity "
                                          f"({item.measured}) is [{item.measured_unit}]",
                                          (fix(d), fix(item.measured_unit))))
    if item.rate is not None:
        run("rate", item.rate)
    for sym, rhs in item.settings.items():
        d = run(f"setting {sym}", rhs)
        ds = dimension(sym)
        if not _same(fix(d), fix(ds)):
            out.append(DimensionIssue(f"setting {sym}", f"{sym} is [{ds}] but its setting "
                                      f"{sp.sstr(rhs)} is [{d}]", (fix(ds), fix(d))))
    for label, rel in item.hypotheses:
        run(f"hypothesis '{label}'", rel)
    for name, rel in item.relations.items():
        run(f"relation '{name}'", rel)
    for name, expr in item.expressions.items():
        run(f"expression '{name}'", expr)
    return out


# ------------------------------------------------------------------ unit choices
def unit_choices(issues: list[DimensionIssue]) -> list[str]:
    """The unit choices under which every issue disappears.

    Fixing units relates the two base dimensions: ``F = 1`` (loss values are pure numbers,
    e.g. ``|f| <= 1``), ``W = 1`` (parameters are pure numbers, e.g. a step ``eta =
    1/sqrt(NT)``), or ``F = W**k`` (e.g. ``k = 2``: a step size, a smoothness or a PL
    constant is a pure number). A mismatch ``F^a1 W^b1`` vs ``F^a2 W^b2`` vanishes under
    ``F = 1`` iff ``b1 = b2``, under ``W = 1`` iff ``a1 = a2``, and under ``F = W**k`` iff
    ``(a1 - a2) k + (b1 - b2) = 0``. Returns the choices that clear every issue (empty if
    none does, or if an issue is not a mismatch of two dimensions).
    """
    pairs = [i.pair for i in issues]
    if not pairs or any(p is None for p in pairs):
        return []
    diffs = []
    for a, b in pairs:
        (a1, b1), (a2, b2) = _exponents(a), _exponents(b)
        diffs.append((a1 - a2, b1 - b2))
    out = []
    if all(db == 0 for _, db in diffs):
        out.append("F = 1 (loss values are pure numbers)")
    if all(da == 0 for da, _ in diffs):
        out.append("W = 1 (parameters are pure numbers)")
    ks = {sp.Rational(-db, da) for da, db in diffs if da != 0}
    if len(ks) == 1 and all(db == 0 for da, db in diffs if da == 0):
        k = ks.pop()
        if k != 0:
            out.append(f"F = W**{k} (e.g. a quantity of dimension F/W**{k} is a pure number)")
    return out
