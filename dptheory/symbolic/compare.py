"""Comparison of two rates: exponents, regimes (where each is smaller) and crossovers.

Smaller is better (rates of error, sample sizes). Three modes, by what is left free once
``fixed`` is substituted:

* **Symbolic** (another growing variable, d or eps, left free): the leading terms under the
  scaling (n, d grow, eps shrinks, ...) and the regimes as Boolean combinations of monomial
  inequalities, decided exactly by linear programs on the scaling cone
  (:mod:`dptheory.symbolic.regimes`). These are asymptotic statements up to constant
  factors (the result's ``scope`` says so), true for every value of the constants. With
  values fixed (``fixed=``), each boundary keeps the terms' constants (``n = 1.764e14
  d^8``, not ``n = d^8``).
* **Parametric** (only ``vary`` and constants such as G, mu, theta left free): the full
  expressions; each statement holds for every admissible value of the constants, or is
  the condition itself. The difference of the two rates is a sum of powers of ``vary``
  whose coefficients depend on the constants; when every coefficient's sign is proved, the
  generalized Descartes rule of signs gives "no crossover" or "exactly one crossover" for
  all values at once. An example at one admissible value (constants 1, delta 1e-5) is
  added, labelled as such.
* **Numeric** (only ``vary`` left free once ``fixed`` is substituted): the *full*
  expressions, constants and polylog factors included, compared on the whole positive axis
  ``(1e-300, 1e300)``. A crossover is exact when both sides are single monomials, else
  bracketed by a log-space grid and refined by bisection to about 1e-15 relative, at 30
  significant digits (mpmath), so values far beyond float range cause no overflow. For
  sums of monomials the generalized Descartes rule of signs bounds the number of positive
  crossovers; when the bound is reached the list is complete, and the result says so.

With ``vacuity=True`` (upper bounds of an error, normalised so that hidden constants are
1), a rate at or above 1 says nothing. In numeric mode, regimes note where *both* rates are
at least 1. In symbolic mode the same is read asymptotically: a rate is vacuous where it
does not tend to 0, and the readable form of a regime drops the inequalities that always
hold where both rates tend to 0 (``1 < d^(5/2) eps n`` when both rates need ``eps n >>
sqrt(d)`` to decay).

Regimes are stated as readable inequalities, solved for ``vary`` where possible
(:func:`plain`, :func:`isolate`); the SymPy forms are kept beside them for ``--json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import sympy as sp

from dptheory.symbolic.asymptotics import Scaling, Term, exponent_along, leading_terms, power_of
from dptheory.symbolic.memo import simplify
from dptheory.symbolic.regimes import Atom, Regime, max_lt
from dptheory.symbolic.symbols import S

__all__ = ["Comparison", "Ranking", "compare", "rank", "numeric_crossovers", "regime_map",
           "plain", "isolate",
           "SEARCH_RANGE"]

#: The part of the positive axis a numeric crossover search covers.
SEARCH_RANGE = (1e-300, 1e300)
_GRID = 2401            # log-grid points over SEARCH_RANGE: 0.25 decades apart
_DPS = 30               # mpmath digits for the numeric comparison
_POLYLOG = (S.delta, S.T)


# ----------------------------------------------------------------------------- text
def _round_floats(e: sp.Basic, digits: int = 4) -> sp.Basic:
    return e.xreplace({f: (sp.Integer(int(f)) if float(f) == int(f) and abs(f) < 1e6 else sp.Float(f, digits))
                       for f in e.atoms(sp.Float)})


_OPS = {sp.StrictLessThan: "<", sp.LessThan: "<=", sp.StrictGreaterThan: ">",
        sp.GreaterThan: ">=", sp.Equality: "=", sp.Unequality: "!="}


def plain(e: Any) -> str:
    """A readable one-line form of a SymPy expression or relation.

    ``**`` becomes ``^``, ``&``/``|`` become ``and``/``or``, ``Eq(a, b)`` becomes ``a = b``
    and floats keep 4 significant digits.

    Parameters
    ----------
    e : sympy expression, relation or Boolean (or anything ``sympify`` reads)

    Returns
    -------
    str

    Examples
    --------
    >>> import sympy as sp
    >>> n, d, eps = sp.symbols("n d eps", positive=True)
    >>> plain(sp.And(sp.sqrt(d) < eps * n, n < 10**20.3))
    'n < 1.995e+20 and sqrt(d) < eps*n'
    >>> plain(sp.Eq(n, 2.01**14 * d**8, evaluate=False))
    'n = 1.757e+4*d^8'
    """
    e = sp.sympify(e)
    if e is sp.true:
        return "always"
    if e is sp.false:
        return "never"
    if isinstance(e, sp.And):
        return " and ".join(plain(a) for a in e.args)
    if isinstance(e, sp.Or):
        return " or ".join(f"({plain(a)})" if isinstance(a, sp.And) else plain(a) for a in e.args)
    for kind, op in _OPS.items():
        if isinstance(e, kind):
            return f"{plain(e.lhs)} {op} {plain(e.rhs)}"
    return sp.sstr(_round_floats(e)).replace("**", "^")


def isolate(lhs: sp.Expr, rhs: sp.Expr, v: sp.Symbol, op: str = "<") -> sp.Basic:
    """``lhs op rhs`` (``op`` in ``<``, ``<=``, ``=``) solved for ``v`` when both sides are
    products of powers (all symbols positive); otherwise the relation as given.

    Examples
    --------
    >>> import sympy as sp
    >>> n, d, eps = sp.symbols("n d eps", positive=True)
    >>> isolate(sp.sqrt(d), eps * n, n)
    n > sqrt(d)/eps
    >>> isolate(n**sp.Rational(-1, 2), 27.9 * n**sp.Rational(-4, 7), n, "=")
    Eq(n, 1.73...e+20)
    """
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    build = {"<": sp.StrictLessThan, "<=": sp.LessThan,
             "=": lambda a, b: sp.Eq(a, b, evaluate=False)}[op]
    r = sp.powsimp(lhs / rhs, force=True)
    k = power_of(r, v)
    if k is None or k == 0 or not k.is_number:
        return build(lhs, rhs)
    c = sp.powsimp(r / v**k, force=True)
    if v in c.free_symbols:
        return build(lhs, rhs)
    bound = sp.powsimp(c ** (-1 / k), force=True)        # c v^k < 1  <=>  v^k < 1/c
    if not bound.free_symbols:
        bound = sp.Float(sp.N(bound, 17), 17)
    if op == "=":
        return sp.Eq(v, bound, evaluate=False)
    if k > 0:
        return sp.StrictLessThan(v, bound) if op == "<" else sp.LessThan(v, bound)
    return sp.StrictGreaterThan(v, bound) if op == "<" else sp.GreaterThan(v, bound)


# ----------------------------------------------------------------------------- result
@dataclass
class Comparison:
    """Two rates compared along ``vary``: what :func:`compare` returns.

    Attributes
    ----------
    a, b : names of the two rates.
    vary : the variable that grows.
    exponent_a, exponent_b, ratio_exponent : exponents in ``vary`` (SymPy strings).
    crossover : the boundaries as SymPy equations (strings).
    regimes : one dict per side that is better somewhere: ``better``, ``when`` (the exact
        region, SymPy), ``text`` (readable, atoms that always hold where both rates are
        non-vacuous dropped), ``parts`` (per disjunct: ``text``, ``when``, ``vacuous``:
        ``"both"``, the name of the one vacuous rate, or ``""``); numeric mode adds
        ``interval`` and ``vacuous_intervals``.
    leading_a, leading_b : the compared forms (leading terms, or the full expressions in
        numeric mode).
    crossovers : per crossover ``equation`` (SymPy), ``text``, ``value`` (numeric), ``method``
        (``exact``, ``bracketed`` or ``symbolic``), ``bracket``.
    complete : numeric mode: whether every crossover on the search range was found, and why.
    warnings : e.g. different measured quantities or units (set by the caller).
    mode : ``"numeric"`` (only ``vary`` free), ``"parametric"`` (``vary`` and constants
        such as G, mu free: every statement holds for every admissible value of the
        constants, or says for which) or ``"symbolic"`` (another growing variable free:
        leading terms on the scaling cone, asymptotic and up to constant factors).
    fixed : the values substituted first.
    expression_a, expression_b : the compared rates in full (every term), readable.
    constants : the free symbols other than the growing ones (parametric and symbolic modes).
    scope : for which values of the constants, and in which sense, the regimes hold.
    example : parametric mode: the numeric comparison at one admissible value of the
        constants (``at``, ``regimes``, ``crossovers``), an illustration, not a statement
        for every value.
    """

    a: str
    b: str
    vary: str
    exponent_a: str
    exponent_b: str
    ratio_exponent: str
    crossover: list[str]
    regimes: list[dict[str, Any]]
    leading_a: str
    leading_b: str
    crossovers: list[dict[str, Any]] = field(default_factory=list)
    complete: str = ""
    warnings: list[str] = field(default_factory=list)
    mode: str = "symbolic"
    fixed: dict[str, float] = field(default_factory=dict)
    expressions: tuple[Any, Any] | None = field(default=None, repr=False)
    expression_a: str = ""
    expression_b: str = ""
    constants: list[str] = field(default_factory=list)
    scope: str = ""
    example: dict[str, Any] = field(default_factory=dict)
    #: how figures name ``a`` and ``b`` (the catalog sets paper and theorem number); the
    #: names themselves when None
    labels: tuple[str, str] | None = field(default=None, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (SymPy forms as strings; the expressions themselves dropped)."""
        out = {k: v for k, v in self.__dict__.items() if k not in ("expressions", "labels")}
        return out

    # -- text ------------------------------------------------------------------------
    def lines(self) -> list[str]:
        """The readable report, one line per fact (what ``str()`` joins)."""
        out = [f"warning: {w}" for w in self.warnings]
        for name, full, lead, e in ((self.a, self.expression_a, self.leading_a, self.exponent_a),
                                    (self.b, self.expression_b, self.leading_b, self.exponent_b)):
            full = full or lead
            same = sorted(full.split(" + ")) == sorted(lead.split(" + "))
            extra = "" if same else f"; leading: {lead}"
            out.append(f"{name}: {full}   (exponent in {self.vary}: {e}{extra})")
        out.append(f"ratio exponent: {self.ratio_exponent}")
        if self.scope:
            out.append(self.scope)
        for r in self.regimes:
            for p in r.get("parts", [r]):
                out.append(f"{r['better']} is better {p['text']}")
        if not self.regimes:
            out.append("same order everywhere")
        if self.crossovers:
            out.append("crossover: " + "; ".join(c["text"] for c in self.crossovers))
        if self.complete:
            out.append(self.complete)
        if self.example:
            ex = self.example
            out.append(f"for example at {ex['text']} (one admissible choice, an illustration):")
            out += [f"  {r['better']} is better {r['text']}" for r in ex["regimes"]]
            if ex["crossovers"]:
                out.append("  crossover: " + "; ".join(c["text"] for c in ex["crossovers"]))
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        from html import escape
        rows = "".join(f"<tr><td>{escape(r['better'])}</td><td>{escape(p['text'])}</td></tr>"
                       for r in self.regimes for p in r.get("parts", [r]))
        cross = "; ".join(escape(c["text"]) for c in self.crossovers) or "none"
        warn = "".join(f"<p><b>warning:</b> {escape(w)}</p>" for w in self.warnings)
        scope = f"<p>{escape(self.scope)}</p>" if self.scope else ""
        example = ""
        if self.example:
            ex = self.example
            items = "".join(f"<li>{escape(r['better'])} is better {escape(r['text'])}</li>"
                            for r in ex["regimes"])
            example = (f"<p>for example at {escape(ex['text'])} (one admissible choice, an "
                      f"illustration):</p><ul>{items}</ul>")
        return (f"{warn}<p><code>{escape(self.a)}</code>: "
                f"{escape(self.expression_a or self.leading_a)} "
                f"(exponent in {escape(self.vary)}: {escape(self.exponent_a)})<br>"
                f"<code>{escape(self.b)}</code>: {escape(self.expression_b or self.leading_b)} "
                f"(exponent in {escape(self.vary)}: {escape(self.exponent_b)})</p>{scope}"
                f"<table><tr><th>better</th><th>when</th></tr>{rows}</table>"
                f"<p>crossover: {cross}</p>{example}")

    # -- figure ----------------------------------------------------------------------
    def plot(self, ax: Any = None, *, y: str | None = None,
             x_range: tuple[float, float] | None = None,
             y_range: tuple[float, float] = (1.0, 1e4)) -> Any:
        """Draw the comparison on ``ax`` (a new Figure's Axes when None) and return the Axes.

        Numeric mode: both rates against ``vary`` on log-log axes, crossovers marked.
        Parametric mode: the same at the example's values of the constants (labelled).
        Symbolic mode: the regime map, log10(a/b) over ``vary`` and ``y`` (another free
        variable; every other one must have been fixed). The matplotlib backend is never
        changed (no pyplot).

        Parameters
        ----------
        ax : matplotlib Axes, optional
        y : name of the second axis of a regime map (default: the other free variable).
        x_range, y_range : plotted ranges (default x: around the crossovers, or 1e2..1e8).

        Returns
        -------
        matplotlib.axes.Axes
        """
        from dptheory.plotting import new_axes, rates_figure, regime_map_figure
        from dptheory.symbolic.symbols import lookup
        if self.expressions is None:
            raise ValueError("this comparison carries no expressions to plot")
        a, b = self.expressions
        fixed = {lookup(k): v for k, v in self.fixed.items()}
        v = lookup(self.vary)
        crossovers = self.crossovers
        if self.mode == "parametric":          # drawn at the example's values of the constants
            at = {lookup(k): x for k, x in self.example["at"].items()}
            a, b = sp.sympify(a).subs(at), sp.sympify(b).subs(at)
            crossovers = self.example["crossovers"]
        if x_range is None:
            xs = [c["value"] for c in crossovers if c.get("value")]
            x_range = (min(xs) / 1e3, max(xs) * 1e3) if xs else (1e2, 1e8)
        la, lb = self.labels or (self.a, self.b)
        if self.mode == "parametric":
            marks = [c["value"] for c in crossovers if c.get("value")]
            return rates_figure(a, b, v, x_range, (f"{la} ({self.example['text']})",
                                                   f"{lb} ({self.example['text']})"),
                                marks, new_axes(ax))
        ax = new_axes(ax)
        if self.mode == "numeric":
            return rates_figure(a, b, v, x_range, (la, lb),
                                [c["value"] for c in self.crossovers if c.get("value")], ax)
        free = sorted((sp.sympify(a).free_symbols | sp.sympify(b).free_symbols) - set(fixed) - {v},
                      key=str)
        ysym = lookup(y) if y else (free[0] if free else None)
        if ysym is None:
            raise ValueError("a regime map needs a second free variable (y=)")
        grid = regime_map(a, b, (v, *x_range), (ysym, *y_range), fixed)
        return regime_map_figure(grid, (la, lb), ax=ax)


# ----------------------------------------------------------------------------- numeric
def _log_function(expr: sp.Expr, v: sp.Symbol) -> Callable[[Any], Any]:
    """t -> log(expr at v = e^t) in mpmath (nan where expr is not a positive real)."""
    import mpmath
    f = sp.lambdify(v, expr, modules="mpmath")

    def g(t: Any) -> Any:
        try:
            val = f(mpmath.exp(t))
        except (ZeroDivisionError, ValueError, OverflowError):
            return mpmath.nan
        if isinstance(val, mpmath.mpc):
            if abs(val.imag) > 1e-20 * abs(val.real):
                return mpmath.nan
            val = val.real
        val = mpmath.mpf(val)
        return mpmath.log(val) if val > 0 else mpmath.nan
    return g


def _roots(h: Callable[[Any], Any], ts: Sequence[Any], hs: Sequence[Any]) -> list[tuple[Any, Any, Any]]:
    """Sign changes of h on the grid, refined by bisection: (root, lo, hi) in t."""
    import mpmath
    out = []
    for i in range(len(ts) - 1):
        h0, h1 = hs[i], hs[i + 1]
        if mpmath.isnan(h0) or mpmath.isnan(h1):
            continue
        if h0 == 0:
            out.append((ts[i], ts[i], ts[i]))
            continue
        if h0 * h1 < 0:
            lo, hi = ts[i], ts[i + 1]
            for _ in range(90):          # width 0.58 / 2^90: far below float resolution
                mid = (lo + hi) / 2
                hm = h(mid)
                if mpmath.isnan(hm):
                    break
                if (hm < 0) == (h0 < 0):
                    lo = mid
                else:
                    hi = mid
            out.append(((lo + hi) / 2, lo, hi))
    if hs and not mpmath.isnan(hs[-1]) and hs[-1] == 0:
        out.append((ts[-1], ts[-1], ts[-1]))
    return out


def _monomials(expr: sp.Expr, v: sp.Symbol, numeric: bool = True) -> dict[sp.Expr, sp.Expr] | None:
    """``{exponent: coefficient}`` when expr is a sum of multiples of powers of v (numeric
    multiples, or with ``numeric=False`` any factors free of v), else None."""
    out: dict[sp.Expr, sp.Expr] = {}
    for term in sp.Add.make_args(sp.expand(sp.powsimp(expr, force=True), power_base=True,
                                           mul=True, multinomial=True, log=False)):
        c, rest = term.as_independent(v, as_Add=False)
        if numeric and not c.is_number:
            return None
        k = sp.Integer(0) if rest == 1 else power_of(rest, v)
        if k is None or not k.is_number:
            return None
        out[k] = out.get(k, sp.Integer(0)) + c
    return out


def _descartes_bound(a: sp.Expr, b: sp.Expr, v: sp.Symbol) -> int | None:
    """Upper bound on the positive roots of a - b (generalized Descartes rule of signs:
    the sign changes of the coefficients ordered by exponent), or None if a, b are not
    sums of powers of v."""
    ma, mb = _monomials(a, v), _monomials(b, v)
    if ma is None or mb is None:
        return None
    diff = dict(ma)
    for k, c in mb.items():
        diff[k] = diff.get(k, sp.Integer(0)) - c
    signs = [sp.sign(sp.N(diff[k], 30)) for k in sorted(diff, key=lambda e: float(e))]
    signs = [s for s in signs if s != 0]
    return sum(1 for s, t in zip(signs, signs[1:]) if s != t)


def _exact_crossover(a: sp.Expr, b: sp.Expr, v: sp.Symbol) -> sp.Expr | None:
    """The crossover of two single monomials c_a v^e_a = c_b v^e_b, exactly."""
    ma, mb = _monomials(a, v), _monomials(b, v)
    if not ma or not mb or len(ma) != 1 or len(mb) != 1:
        return None
    (ea, ca), (eb, cb) = next(iter(ma.items())), next(iter(mb.items()))
    if ea == eb or not (ca.is_positive and cb.is_positive):
        return None
    return (cb / ca) ** (1 / (ea - eb))


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def numeric_crossovers(a: sp.Expr, b: sp.Expr, v: sp.Symbol, names: tuple[str, str] = ("a", "b"),
                       lo: float = SEARCH_RANGE[0], hi: float = SEARCH_RANGE[1],
                       vacuity: bool = False, domain_lo: float | None = None) -> dict[str, Any]:
    """Crossovers and regimes of two expressions of one variable ``v`` on ``(lo, hi)``.

    Parameters
    ----------
    a, b : positive SymPy expressions whose only free symbol is ``v``.
    v : the variable.
    names : names of a and b in the regimes.
    lo, hi : the search range (default the whole float range, 1e-300 to 1e300).
    vacuity : also mark where both are >= 1 (vacuous error bounds with constants 1).
    domain_lo : the smallest value ``v`` can take (1 for a sample size): crossovers and
        regimes below it are left out (the search still covers the whole range, so the
        completeness statement counts them).

    Returns
    -------
    dict
        ``crossovers`` (each ``value``, ``equation``, ``text``, ``method``, ``bracket``),
        ``regimes`` (each ``better``, ``interval``, ``when``, ``text``, ``vacuous_intervals``)
        and ``complete`` (whether every crossover in the range was found, and why).

    Examples
    --------
    >>> import sympy as sp
    >>> n = sp.Symbol("n", positive=True)
    >>> r = numeric_crossovers(100**sp.Rational(1, 3) * n**sp.Rational(-2, 3),
    ...                        100**sp.Rational(1, 4) * n**sp.Rational(-1, 2), n)
    >>> [c["text"] for c in r["crossovers"]], r["crossovers"][0]["method"]
    (['n = 10'], 'exact')
    >>> [(x["better"], x["text"]) for x in r["regimes"]]
    [('b', 'when n < 10'), ('a', 'when n > 10')]
    """
    import mpmath
    if not (0 < lo < hi):
        raise ValueError(f"the search range must satisfy 0 < lo < hi, got ({lo}, {hi})")
    a, b = sp.sympify(a), sp.sympify(b)
    left = (a.free_symbols | b.free_symbols) - {v}
    if left:
        raise ValueError(f"numeric comparison needs values for {sorted(map(str, left))}")
    with mpmath.workdps(_DPS):
        fa, fb = _log_function(a, v), _log_function(b, v)

        def h(t: Any) -> Any:
            return fa(t) - fb(t)
        t0, t1 = mpmath.log(lo), mpmath.log(hi)
        ts = [t0 + (t1 - t0) * i / (_GRID - 1) for i in range(_GRID)]
        la, lb = [fa(t) for t in ts], [fb(t) for t in ts]
        hs = [x - y for x, y in zip(la, lb)]
        roots = _roots(h, ts, hs)
        exact = _exact_crossover(a, b, v)
        dlo = lo if domain_lo is None else max(lo, float(domain_lo))
        shown = [r for r in roots if float(mpmath.exp(r[0])) >= dlo]
        crossovers = []
        for t, rlo, rhi in shown:
            value = float(mpmath.exp(t))
            method, bracket = "bracketed", [float(mpmath.exp(rlo)), float(mpmath.exp(rhi))]
            if exact is not None:
                value, method, bracket = float(sp.N(exact, 20)), "exact", None
            eq = sp.Eq(v, sp.Float(value, 15), evaluate=False)
            crossovers.append({"value": value, "equation": sp.sstr(eq),
                               "text": f"{v} = {_fmt(value)}", "method": method,
                               "bracket": bracket})
        # completeness: the Descartes bound for sums of powers, else the grid spacing
        bound = _descartes_bound(a, b, v)
        step = float((t1 - t0) / (_GRID - 1)) / 2.302585092994046
        if bound is not None and len(roots) >= bound:
            complete = (f"all crossovers on ({lo:g}, {hi:g}) found: their number equals the "
                        f"bound of the (generalized) Descartes rule of signs, {bound}")
            if len(shown) < len(roots):
                complete += (f"; {len(roots) - len(shown)} of them below the smallest value of "
                             f"{v} ({dlo:g}) left out")
        elif bound is not None:
            complete = (f"{len(roots)} crossovers found on ({lo:g}, {hi:g}); the Descartes rule "
                        f"allows up to {bound} (others lie outside the range, or two within "
                        f"{step:.2g} decades of each other)")
        else:
            complete = (f"crossovers searched on a log grid of {_GRID} points over ({lo:g}, "
                        f"{hi:g}) and refined by bisection; two crossovers within {step:.2g} "
                        "decades of each other could be missed")
        # regimes: between crossovers; vacuity between the points where a rate crosses 1
        cuts = sorted({float(mpmath.exp(t)) for t, _, _ in shown})
        vac_cuts = sorted({float(mpmath.exp(t)) for f, vals in ((fa, la), (fb, lb))
                           for t, _, _ in _roots(f, ts, vals)}) if vacuity else []
        edges = [dlo, *cuts, hi]
        regimes = []
        for x0, x1 in zip(edges[:-1], edges[1:]):
            mid = (mpmath.log(x0) + mpmath.log(x1)) / 2
            hm = h(mid)
            if mpmath.isnan(hm) or hm == 0:
                continue
            better = names[0] if hm < 0 else names[1]
            vac = []
            if vacuity:
                sub = [x0, *[c for c in vac_cuts if x0 < c < x1], x1]
                for y0, y1 in zip(sub[:-1], sub[1:]):
                    m = (mpmath.log(y0) + mpmath.log(y1)) / 2
                    if fa(m) >= 0 and fb(m) >= 0:
                        if vac and vac[-1][1] == y0:
                            vac[-1][1] = y1
                        else:
                            vac.append([y0, y1])
            regimes.append(_interval_regime(v, better, x0, x1, dlo, hi, vac))
    return {"crossovers": crossovers, "regimes": regimes, "complete": complete}


def _interval_text(v: sp.Symbol, x0: float, x1: float, lo: float, hi: float) -> tuple[str, sp.Basic]:
    if x0 <= lo and x1 >= hi:
        return "everywhere", sp.true
    if x0 <= lo:
        return f"{v} < {_fmt(x1)}", sp.StrictLessThan(v, sp.Float(x1, 15))
    if x1 >= hi:
        return f"{v} > {_fmt(x0)}", sp.StrictGreaterThan(v, sp.Float(x0, 15))
    return (f"{_fmt(x0)} < {v} < {_fmt(x1)}",
            sp.And(sp.StrictGreaterThan(v, sp.Float(x0, 15)), sp.StrictLessThan(v, sp.Float(x1, 15))))


def _interval_regime(v: sp.Symbol, better: str, x0: float, x1: float, lo: float, hi: float,
                     vac: list[list[float]]) -> dict[str, Any]:
    text, rel = _interval_text(v, x0, x1, lo, hi)
    note = ""
    if vac:
        if len(vac) == 1 and vac[0][0] <= x0 and vac[0][1] >= x1:
            note = " (both rates >= 1 there: vacuous)"
        else:
            where = ", ".join(_interval_text(v, y0, y1, lo, hi)[0] for y0, y1 in vac)
            note = f" (both rates >= 1, vacuous, for {where})"
    text = "when " + text if text != "everywhere" else text
    part = {"text": text + note, "when": sp.sstr(rel),
            "vacuous": "both" if note.endswith("vacuous)") else ""}
    return {"better": better, "interval": [x0, x1], "when": sp.sstr(rel), "text": text + note,
            "vacuous_intervals": vac, "parts": [part]}


# ----------------------------------------------------------------------------- parametric
def _exact_sign(e: sp.Expr) -> int | None:
    """+1, -1 or 0 when SymPy proves the sign of ``e`` for every admissible value of its
    symbols (all positive; delta in (0, 1)), else None. Never sampled: a statement for every
    value of the constants rests on this."""
    x = sp.Dummy("x", positive=True)
    e = sp.sympify(e).subs(S.delta, 1 / (1 + x))       # delta in (0, 1): log(1/delta) > 0
    for form in (e, sp.factor(e), simplify(e)):
        if form.is_zero:
            return 0
        if form.is_positive:
            return 1
        if form.is_negative:
            return -1
    return None


def _same_power(a: sp.Expr, b: sp.Expr, v: sp.Symbol) -> sp.Expr | None:
    """a / b when both are one multiple of the same power of v (the ratio is then free of
    v), else None."""
    ma, mb = _monomials(a, v, numeric=False), _monomials(b, v, numeric=False)
    if not ma or not mb or len(ma) != 1 or set(ma) != set(mb):
        return None
    (k, ca), = ma.items()
    return sp.powsimp(simplify(ca / mb[k]), force=True)


def _sign_pattern(a: sp.Expr, b: sp.Expr, v: sp.Symbol) -> tuple[list[int] | None, str]:
    """The signs of the coefficients of a - b as a sum of powers of v, by increasing
    exponent, when each is proved for every admissible value of the constants; else
    (None, why)."""
    ma, mb = _monomials(a, v, numeric=False), _monomials(b, v, numeric=False)
    if ma is None or mb is None:
        return None, f"the rates are not sums of powers of {v}"
    diff = dict(ma)
    for k, c in mb.items():
        diff[k] = diff.get(k, sp.Integer(0)) - c
    if not all(k.is_number for k in diff):
        return None, "an exponent depends on the constants"
    signs = []
    for k in sorted(diff, key=float):
        sg = _exact_sign(diff[k])
        if sg is None:
            return None, (f"the sign of the coefficient of {v}^({k}) in the difference, "
                          f"{plain(diff[k])}, depends on the constants")
        if sg:
            signs.append(sg)
    return signs, ""


def _reference_values(consts: Sequence[sp.Symbol]) -> dict[sp.Symbol, float]:
    """One admissible value per constant: 1 where its domain allows it, else its registered
    example (delta = 1e-5)."""
    from dptheory.symbolic.symbols import registered
    reg = registered()
    out = {}
    for c in consts:
        info = reg.get(c.name)
        ok_one = info is None or info.domain in ("> 0", ">= 0", "(0, 1]", "integer >= 1")
        out[c] = 1.0 if ok_one else float(info.example)
    return out


def _values_text(values: Mapping[sp.Symbol, float]) -> str:
    """``G = mu = theta = 1`` (equal values grouped), ``, `` between groups."""
    groups: dict[float, list[str]] = {}
    for k, x in values.items():
        groups.setdefault(x, []).append(str(k))
    return ", ".join(" = ".join(names) + f" = {_fmt(x)}" for x, names in groups.items())


def _parametric(a: sp.Expr, b: sp.Expr, vary: sp.Symbol, consts: set[sp.Symbol],
                names: tuple[str, str], vacuity: bool) -> dict[str, Any]:
    """Regimes of a and b along ``vary`` when the only other free symbols are constants:
    stated for every admissible value of the constants, or as the condition itself.

    The difference a - b is a sum of powers of vary whose coefficients depend on the
    constants. When the sign of every coefficient is proved (for all positive constants),
    the generalized Descartes rule of signs bounds the positive roots by the sign changes:
    none means one rate is smaller everywhere, one means exactly one crossover (the signs
    at 0+ and at infinity differ), for every admissible value. Otherwise the regime is the
    condition a < b itself. An example at one admissible value of the constants is added.
    """
    consts_sorted = sorted(consts, key=str)
    cnames = ", ".join(map(str, consts_sorted))
    every = f"for every admissible {cnames}"
    signs, why = _sign_pattern(a, b, vary)
    star = f"{vary}*"
    lt_a, lt_b = sp.StrictLessThan(a, b), sp.StrictLessThan(b, a)
    regimes, crossovers, complete = [], [], ""

    def regime(better: str, text: str, when: sp.Basic) -> dict[str, Any]:
        part = {"text": text, "when": sp.sstr(when), "vacuous": ""}
        return {"better": better, "when": sp.sstr(when), "text": text, "parts": [part],
                "for_all_constants": True}

    if signs is not None and len(set(signs)) <= 1:
        if signs:
            better = names[1] if signs[0] > 0 else names[0]
            regimes.append(regime(better, f"for every {vary} > 0, {every} (the difference's "
                                  "coefficients all have one sign)", lt_b if signs[0] > 0 else lt_a))
        complete = f"no crossover {every}"
    elif signs is not None and sum(1 for s, t in zip(signs, signs[1:]) if s != t) == 1:
        low, high = (names[0], names[1]) if signs[0] < 0 else (names[1], names[0])
        closed = isolate(a, b, vary, "=")
        if isinstance(closed, sp.Equality) and closed.lhs == vary:
            root = plain(closed.rhs)
            text = f"{star} = {root}"
        else:
            text = f"{star} = the one positive root of {plain(a)} = {plain(b)}"
        rel_low, rel_high = (lt_a, lt_b) if signs[0] < 0 else (lt_b, lt_a)
        regimes.append(regime(low, f"when {vary} < {star}, {every}", rel_low))
        regimes.append(regime(high, f"when {vary} > {star}, {every}", rel_high))
        crossovers.append({"equation": sp.sstr(sp.Eq(a, b, evaluate=False)), "text": text,
                           "value": None, "method": "parametric", "bracket": None})
        complete = (f"exactly one crossover {every}: the coefficients of the difference, by "
                    "increasing exponent, change sign once (generalized Descartes rule of "
                    f"signs), and its sign at {vary} -> 0 differs from its sign as {vary} grows")
    elif (ratio := _same_power(a, b, vary)) is not None:
        # one power of vary on both sides: the order depends on the constants only
        for better, rel in ((names[0], sp.StrictLessThan(ratio, 1)),
                            (names[1], sp.StrictGreaterThan(ratio, 1))):
            r = regime(better, f"for every {vary} > 0 when {plain(rel)} (a condition on "
                       f"{cnames} only)", rel)
            r["for_all_constants"] = False
            regimes.append(r)
        complete = (f"no crossover in {vary}: both rates are multiples of the same power of "
                    f"{vary}, so which is smaller depends on {cnames} only")
    else:
        changes = "" if signs is None else \
            f" (up to {sum(1 for s, t in zip(signs, signs[1:]) if s != t)} crossovers)"
        reason = why or f"the number of crossovers{changes} depends on {cnames}"
        for better, rel in ((names[0], lt_a), (names[1], lt_b)):
            r = regime(better, f"when {plain(rel)}: which {vary} depends on {cnames}", rel)
            r["for_all_constants"] = False
            regimes.append(r)
        crossovers.append({"equation": sp.sstr(sp.Eq(a, b, evaluate=False)),
                           "text": f"{plain(a)} = {plain(b)}", "value": None,
                           "method": "parametric", "bracket": None})
        complete = f"not decided {every}: {reason}"
    ref = _reference_values(consts_sorted)
    ex = numeric_crossovers(a.subs(ref), b.subs(ref), vary, names, vacuity=vacuity,
                            domain_lo=1.0 if vary.is_integer else None)
    example = {"at": {str(k): x for k, x in ref.items()}, "text": _values_text(ref),
               "regimes": ex["regimes"], "crossovers": ex["crossovers"], "complete": ex["complete"]}
    scope = (f"free constants {cnames}: each statement below holds {every} unless it says "
             "otherwise")
    return {"regimes": regimes, "crossovers": crossovers, "complete": complete,
            "example": example, "scope": scope, "constants": [str(c) for c in consts_sorted]}


# ----------------------------------------------------------------------------- symbolic
def _term_map(terms: Sequence[Term]) -> dict[tuple, Term]:
    return {tuple(t.exps): t for t in terms}


def _atom_relation(at: Atom, sc: Scaling, terms: dict[tuple, Term], v: sp.Symbol,
                   with_constants: bool, op: str = "<") -> sp.Basic:
    """An atom as a readable relation, solved for v: with the terms' constants when values
    were fixed (numbers decide), else between bare monomials (up to constants)."""
    if with_constants and tuple(at.lhs) in terms and tuple(at.rhs) in terms:
        lhs, rhs = terms[tuple(at.lhs)].expr(sc.variables), terms[tuple(at.rhs)].expr(sc.variables)
        lhs, rhs = _unplaceholder(lhs), _unplaceholder(rhs)
    else:
        rel = at.relation(sc, strict=True)
        if rel in (sp.true, sp.false):
            return rel
        lhs, rhs = rel.lhs, rel.rhs
    return isolate(lhs, rhs, v, op)


def _unplaceholder(e: sp.Expr) -> sp.Expr:
    """Polylog placeholders (symbols named log(...)) back to logs, for reading."""
    rep = {}
    for s in e.free_symbols:
        if s.name.startswith("log("):
            try:
                rep[s] = sp.log(sp.sympify(s.name[4:-1], locals={x.name: x for x in
                                                                  S.__dict__.values()}))
            except (sp.SympifyError, SyntaxError):
                pass
    return e.xreplace(rep) if rep else e


def _symbolic_regimes(name: str, reg: Regime, sc: Scaling, terms: dict[tuple, Term],
                      v: sp.Symbol, names: tuple[str, str], domain: tuple[list[Atom], list[Atom]] | None,
                      with_constants: bool) -> dict[str, Any]:
    parts = []
    for conj in reg.disjuncts:
        exact = sp.And(*[a.relation(sc, strict=True) for a in conj])
        vacuous, kept = "", list(conj)
        if domain is not None:
            va, vb = domain
            ok_a, ok_b = reg._feasible(conj + va), reg._feasible(conj + vb)
            if not ok_a and not ok_b:
                vacuous = "both"
            elif not ok_a or not ok_b:
                vacuous = names[0] if not ok_a else names[1]
            elif reg._feasible(conj + va + vb):
                # atoms that hold wherever both rates are non-vacuous and the others hold
                kept = [at for at in conj
                        if reg._feasible([b for b in conj if b is not at] + va + vb, [at])]
        rels = [_atom_relation(at, sc, terms, v, with_constants) for at in kept]
        # the vacuity atoms are "term <= 1" on the scaling cone: a term that does not decay
        text = ("when " + plain(sp.And(*rels))) if rels else "wherever both rates tend to 0"
        if vacuous == "both":
            text += " (neither rate tends to 0 there: vacuous)"
        elif vacuous:
            text += f" ({vacuous} does not tend to 0 there: vacuous)"
        parts.append({"text": text, "when": sp.sstr(exact), "vacuous": vacuous,
                      "when_in_domain": sp.sstr(sp.And(*[a.relation(sc, strict=True) for a in kept]))})
    return {"better": name, "when": sp.sstr(reg.relation(strict=True)),
            "text": " or ".join(p["text"] for p in parts), "parts": parts}


def compare(a: sp.Basic, b: sp.Basic, *, vary: sp.Symbol, growing: Mapping[sp.Symbol, int],
            fixed: Mapping[sp.Symbol, float] | None = None, names: tuple[str, str] = ("a", "b"),
            vacuity: bool = False) -> Comparison:
    """Compare two rates along ``vary``: exponents, where each is smaller, the crossovers.

    Parameters
    ----------
    a, b : SymPy expressions (positive), smaller is better.
    vary : the variable that grows.
    growing : scaling of the variables left free, ``{symbol: +1 (grows) | -1 (shrinks)}``.
    fixed : values substituted first. When only ``vary`` is left, the comparison is numeric
        on the full expressions; when only ``vary`` and constants are left, parametric (see
        the module docstring).
    names : names of a and b.
    vacuity : a and b are error bounds with constants normalised to 1: note where both are
        >= 1 (vacuous) and drop inequalities that always hold where both are below 1.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import sympy as sp
    >>> from dptheory.symbolic import S
    >>> rate9 = S.d**sp.Rational(1, 3) / (S.eps * S.n)**sp.Rational(2, 3) + 1 / sp.sqrt(S.n)
    >>> rate6 = S.d**sp.Rational(1, 4) / sp.sqrt(S.eps * S.n)
    >>> c = compare(rate9, rate6, vary=S.n, growing={S.n: 1, S.d: 1, S.eps: -1},
    ...             names=("thm9", "thm6"), vacuity=True)
    >>> print("\\n".join(c.lines()[3:]))
    regimes compare the leading terms as n grows, d grows, eps shrinks: asymptotic statements, up to constant factors
    thm9 is better wherever both rates tend to 0
    thm6 is better when n < sqrt(d)/eps (neither rate tends to 0 there: vacuous)
    crossover: n = sqrt(d)/eps

    With only constants left free besides ``vary``, the statements hold for all of their
    values (here: one crossover for every G, mu > 0):

    >>> c = compare(S.G**2 / (S.mu * S.n**2), 1 / sp.sqrt(S.n), vary=S.n,
    ...             growing={S.n: 1}, names=("b", "a"))
    >>> print("\\n".join(c.lines()[4:7]))
    a is better when n < n*, for every admissible G, mu
    b is better when n > n*, for every admissible G, mu
    crossover: n* = G^(4/3)/mu^(2/3)
    """
    fixed = dict(fixed or {})
    a = sp.sympify(a).subs(fixed)
    b = sp.sympify(b).subs(fixed)
    fixed_names = {str(k): float(v) for k, v in fixed.items()}
    grow = {v: s for v, s in growing.items() if v not in fixed}
    if vary not in grow:
        grow = {vary: 1, **grow}
    free = (a.free_symbols | b.free_symbols) - {vary}
    sc = Scaling(grow, _POLYLOG, small_symbols=(S.delta,))
    A, B = leading_terms(a, sc), leading_terms(b, sc)
    ea, eb = exponent_along(A, sc, vary), exponent_along(B, sc, vary)
    exps = (sp.sstr(ea), sp.sstr(eb), sp.sstr(simplify(ea - eb)))
    full = {"expression_a": plain(a), "expression_b": plain(b)}
    if not free:
        num = numeric_crossovers(a, b, vary, names, vacuity=vacuity,
                                 domain_lo=1.0 if vary.is_integer else None)
        return Comparison(names[0], names[1], str(vary), *exps,
                          [c["equation"] for c in num["crossovers"]], num["regimes"],
                          plain(a), plain(b), num["crossovers"], num["complete"],
                          mode="numeric", fixed=fixed_names, expressions=(a, b), **full)
    lead_a, lead_b = (" + ".join(plain(t.monomial(sc.variables) if not fixed else
                                       _unplaceholder(t.expr(sc.variables))) for t in T)
                      for T in (A, B))
    if not free & set(grow):
        # only constants (G, mu, ...) besides vary: exact statements for all of their values
        par = _parametric(a, b, vary, free, names, vacuity)
        return Comparison(names[0], names[1], str(vary), *exps,
                          [c["equation"] for c in par["crossovers"]], par["regimes"],
                          lead_a, lead_b, par["crossovers"], par["complete"], mode="parametric",
                          fixed=fixed_names, expressions=(a, b), constants=par["constants"],
                          scope=par["scope"], example=par["example"], **full)
    terms = _term_map(A + B)
    domain = None
    if vacuity:
        one = tuple(sp.Integer(0) for _ in sc.variables)
        domain = ([Atom(t.exps, one) for t in A], [Atom(t.exps, one) for t in B])
    regimes = []
    better = (max_lt(A, B, sc), max_lt(B, A, sc))
    for name, reg in zip(names, better):
        if not reg.empty:
            regimes.append(_symbolic_regimes(name, reg, sc, terms, vary, names, domain,
                                             with_constants=bool(fixed)))
    crossover, crossovers, seen = [], [], set()
    for reg in better:
        for conj in reg.disjuncts:
            for at in conj:
                rel = at.relation(sc)
                if rel in (sp.true, sp.false):
                    continue
                key = frozenset([sp.sstr(rel.lhs), sp.sstr(rel.rhs)])
                if key in seen:
                    continue
                seen.add(key)
                eq = _atom_relation(at, sc, terms, vary, bool(fixed), "=")
                machine = eq if bool(fixed) else sp.Eq(rel.lhs, rel.rhs, evaluate=False)
                crossover.append(sp.sstr(machine))
                crossovers.append({"equation": sp.sstr(machine), "text": plain(eq),
                                   "value": None, "method": "symbolic", "bracket": None})
    consts = sorted(free - set(grow), key=str)
    moving = ", ".join(f"{g} {'grows' if s_ > 0 else 'shrinks'}" for g, s_ in grow.items()
                       if g in free | {vary})
    scope = (f"regimes compare the leading terms as {moving}: asymptotic statements, up to "
             "constant factors" + (f", for every admissible {', '.join(map(str, consts))}"
                                   if consts else ""))
    return Comparison(names[0], names[1], str(vary), *exps, crossover, regimes, lead_a, lead_b,
                      crossovers, mode="symbolic", fixed=fixed_names, expressions=(a, b),
                      constants=[str(c) for c in consts], scope=scope, **full)


# ----------------------------------------------------------------------------- ranking
@dataclass
class Ranking:
    """Several rates ranked along ``vary`` (smaller is better): what :func:`rank` returns.

    Attributes
    ----------
    names : the rates' names, in the order given.
    vary : the variable that grows.
    mode : the mode of the pairwise comparisons (``numeric``, ``parametric``, ``symbolic``).
    expressions : per name, the full rate (readable) and its exponent in ``vary``.
    order : numeric mode: per interval of ``vary`` between crossovers, ``interval``, ``text``
        and ``order`` (names, best first; ``=`` joins names equal there). Parametric mode:
        the same at the example's values of the constants (``example_at``).
    asymptotic : the order as ``vary`` alone grows, by exponent (best first; names with equal
        exponents grouped): it holds for every value of the constants and of the other
        variables once ``vary`` is large enough.
    unranked : names whose exponent depends on the constants (left out of ``asymptotic``).
    pairwise : every pair's :class:`Comparison`, each with its regimes and crossovers.
    warnings : warnings of the pairs (different quantities or units) and of the values.
    """

    names: tuple[str, ...]
    vary: str
    mode: str
    expressions: dict[str, dict[str, str]]
    order: list[dict[str, Any]]
    asymptotic: list[list[str]]
    pairwise: list[Comparison]
    warnings: list[str] = field(default_factory=list)
    example_at: str = ""
    unranked: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (each pair as :meth:`Comparison.as_dict`)."""
        out = {k: v for k, v in self.__dict__.items() if k != "pairwise"}
        out["pairwise"] = [c.as_dict() for c in self.pairwise]
        return out

    def lines(self) -> list[str]:
        """The readable report: the rates, the ranking, then each pair's regimes."""
        out = [f"warning: {w}" for w in self.warnings]
        out += [f"{k}: {e['expression']}   (exponent in {self.vary}: {e['exponent']})"
                for k, e in self.expressions.items()]
        groups = [g[0] if len(g) == 1 else "{" + ", ".join(g) + "} (same exponent)"
                  for g in self.asymptotic]
        out.append(f"as {self.vary} grows (every value of the other symbols, {self.vary} large "
                   "enough): " + " < ".join(groups))
        if self.unranked:
            out.append(f"  not ranked (exponent depends on the constants): "
                       f"{', '.join(self.unranked)}")
        if self.order:
            where = f" at {self.example_at} (an illustration)" if self.example_at else ""
            out.append(f"ranking, best first{where}:")
            out += [f"  {r['text']}: {' < '.join(r['order'])}" for r in self.order]
        for c in self.pairwise:
            out.append(f"-- {c.a} vs {c.b}")
            heads = (f"{c.a}: ", f"{c.b}: ", "ratio exponent:")
            out += [f"   {line}" for line in c.lines() if not line.startswith(heads)]
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        from html import escape
        return "<pre>" + escape(str(self)) + "</pre>"


def _order_at(exprs: Sequence[sp.Expr], names: Sequence[str], v: sp.Symbol, x: Any) -> list[str]:
    """The names sorted by the value of their rate at v = x (mpmath), ties joined by ``=``."""
    import mpmath
    vals = []
    for e, name in zip(exprs, names):
        val = sp.lambdify(v, e, modules="mpmath")(mpmath.mpf(x))
        vals.append((mpmath.mpf(mpmath.re(val)), name))
    vals.sort(key=lambda t: t[0])
    groups: list[list[Any]] = []
    for val, name in vals:
        if groups and mpmath.almosteq(groups[-1][0], val, rel_eps=mpmath.mpf(10) ** (-20), abs_eps=0):
            groups[-1][1].append(name)
        else:
            groups.append([val, [name]])
    return [" = ".join(g[1]) for g in groups]


def _interval_order(exprs: Sequence[sp.Expr], names: Sequence[str], v: sp.Symbol,
                    cuts: Sequence[float], lo: float) -> list[dict[str, Any]]:
    """The order of the rates on each interval between the sorted crossovers ``cuts``."""
    import mpmath
    hi = SEARCH_RANGE[1]
    edges = [lo, *[c for c in cuts if c > lo], hi]
    out = []
    with mpmath.workdps(_DPS):
        for x0, x1 in zip(edges[:-1], edges[1:]):
            mid = mpmath.exp((mpmath.log(x0) + mpmath.log(x1)) / 2)
            text, _ = _interval_text(v, x0, x1, lo, hi)
            out.append({"interval": [x0, x1], "text": text,
                        "order": _order_at(exprs, names, v, mid)})
    return out


def rank(exprs: Sequence[sp.Basic], pairwise: Sequence[Comparison], *, vary: sp.Symbol,
         growing: Mapping[sp.Symbol, int], fixed: Mapping[sp.Symbol, float] | None = None,
         names: Sequence[str], warnings: Sequence[str] = ()) -> Ranking:
    """Rank several rates along ``vary`` from their pairwise comparisons.

    The order as ``vary`` alone grows is by exponent (exact: a smaller exponent wins for
    every value of the constants once ``vary`` is large enough). With only ``vary`` left
    free (numeric mode), the rates are also ordered on every interval between the pairwise
    crossovers (between two consecutive crossovers no pair changes order); in parametric
    mode the same is done at the example's values of the constants, labelled as such.

    Parameters
    ----------
    exprs : the rates (SymPy), in the order of ``names``.
    pairwise : :func:`compare` of every pair ``i < j``, in that order.
    vary, growing, fixed : as for :func:`compare`.
    names : the rates' names.
    warnings : warnings that concern all pairs (values that have no effect).

    Returns
    -------
    Ranking

    Examples
    --------
    >>> import sympy as sp
    >>> n = sp.Symbol("n", positive=True)
    >>> rates, names = [1 / sp.sqrt(n), 10 / n, 100 / n**2], ("a", "b", "c")
    >>> pairs = [compare(rates[i], rates[j], vary=n, growing={n: 1}, names=(names[i], names[j]))
    ...          for i in range(3) for j in range(i + 1, 3)]
    >>> r = rank(rates, pairs, vary=n, growing={n: 1}, names=names)
    >>> r.asymptotic
    [['c'], ['b'], ['a']]
    >>> for o in r.order:               # pairwise crossovers at n = 10, 100^(2/3), 100
    ...     print(o["text"], o["order"])
    n < 10 ['a', 'b', 'c']
    10 < n < 21.5443 ['a', 'c', 'b']
    21.5443 < n < 100 ['c', 'a', 'b']
    n > 100 ['c', 'b', 'a']
    """
    fixed = dict(fixed or {})
    subs = [sp.sympify(e).subs(fixed) for e in exprs]
    grow = {v: s for v, s in growing.items() if v not in fixed}
    direction = grow.get(vary, 1)
    free = set().union(*(e.free_symbols for e in subs)) - {vary}
    mode = "numeric" if not free else ("parametric" if not free & set(grow) else "symbolic")
    expressions = {name: {"expression": plain(e), "exponent": ""} for name, e in zip(names, subs)}
    for c in pairwise:
        expressions[c.a]["exponent"] = c.exponent_a
        expressions[c.b]["exponent"] = c.exponent_b
    # as vary grows: smaller exponent (times the direction) first; equal exponents grouped
    by_exp: dict[sp.Expr, list[str]] = {}
    unranked = []
    for name in names:
        e = sp.sympify(expressions[name]["exponent"])
        if e.is_number:
            by_exp.setdefault(e * direction, []).append(name)
        else:
            unranked.append(name)
    asymptotic = [by_exp[k] for k in sorted(by_exp, key=float)]
    order, example_at = [], ""
    lo = 1.0 if vary.is_integer else SEARCH_RANGE[0]
    if mode == "numeric":
        cuts = sorted({c["value"] for p in pairwise for c in p.crossovers if c.get("value")})
        order = _interval_order(subs, names, vary, cuts, lo)
    elif mode == "parametric":
        at = _reference_values(sorted(free, key=str))
        example_at = _values_text(at)
        ref = [e.subs(at) for e in subs]
        cuts = {c["value"] for i in range(len(ref)) for j in range(i + 1, len(ref))
                for c in numeric_crossovers(ref[i], ref[j], vary, domain_lo=lo)["crossovers"]}
        order = _interval_order(ref, names, vary, sorted(cuts), lo)
    all_warnings = list(dict.fromkeys([*warnings, *(w for p in pairwise for w in p.warnings)]))
    return Ranking(tuple(names), str(vary), mode, expressions, order, asymptotic,
                   list(pairwise), all_warnings, example_at, unranked)


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
