"""Hypotheses at the settings: what each printed condition becomes once the theorem's
parameter choices are substituted, as a condition on n, d, eps, delta and the constants.

Each is classified as ``always`` (holds wherever the symbols' domains allow), ``never``
(can never hold: the theorem then says nothing), ``regime`` (holds in part of the domain;
with the asymptotic regime as a relation when the condition is monomial) or ``unknown``.
SymPy decides it when it can ("symbolic"); otherwise it is decided on a fixed-seed sample of
the domain ("sampled"), which is evidence, not proof, and is labelled so.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from typing import Any

import sympy as sp

from dptheory.symbolic.asymptotics import NotDerivable, leading_terms
from dptheory.symbolic.memo import simplify
from dptheory.symbolic.numeric import CompiledSettings
from dptheory.symbolic.regimes import max_le
from dptheory.symbolic.symbols import registered

SAMPLES = 400


@dataclass
class HypothesisReport:
    """One printed hypothesis at the settings: its text, what it becomes with the explicit
    settings substituted, its ``status`` (always, never, regime, satisfiable for an equation,
    unknown) and how that was decided (``symbolic``, or ``sampled``: evidence, not proof),
    with the sampled fraction where it holds, the asymptotic regime and a counterexample.
    """

    label: str
    printed: str
    at_settings: str
    status: str            # always | never | regime | satisfiable (an equation) | unknown
    method: str            # symbolic | sampled
    fraction: float | None = None
    regime: str | None = None
    counterexample: dict[str, float] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The report's fields as a dict."""
        return dict(self.__dict__)


def _explicit_settings(item) -> dict[sp.Symbol, sp.Expr]:
    return {s: e for s, e in item.settings.items() if s not in sp.sympify(e).free_symbols}


def substitute(rel: sp.Basic, settings: dict, rounds: int = 10) -> sp.Basic:
    """``rel`` with ``settings`` substituted repeatedly (a setting may refer to another), at
    most ``rounds`` times or until nothing changes."""
    out = rel
    for _ in range(rounds):
        new = out.subs(settings)
        if new == out:
            break
        out = new
    return out


_INTERVAL = re.compile(r"^\s*([\(\[])\s*([-\d.e]+)\s*,\s*([-\d.e]+)\s*([\)\]])\s*$")


def sample_value(symbol: sp.Symbol, rng: random.Random) -> float:
    """A random value of ``symbol`` in its registered domain (log-uniform around its example)."""
    regs = registered()
    info = regs.get(symbol.name)
    if info is None:
        return 10 ** rng.uniform(-2, 2)
    m = _INTERVAL.match(info.domain)
    if m:
        lo, hi = float(m.group(2)), float(m.group(3))
        if lo == 0 and m.group(1) == "(":      # (0, 1): log-uniform toward 0
            return 10 ** rng.uniform(math.log10(hi) - 12, math.log10(hi) - 1e-9)
        return lo + (hi - lo) * rng.uniform(0.0, 0.999)
    # Scale-free quantities: log-uniform over eight decades around the example, so a
    # condition that needs a small step or a large n is not judged "never" by a narrow sample.
    x = info.example * 10 ** rng.uniform(-4, 4)
    nums = re.findall(r"[-\d.]+", info.domain)
    lower = float(nums[0]) if nums and (">" in info.domain) else 0.0
    if symbol.is_integer:
        x = max(math.ceil(lower) if ">=" in info.domain else math.floor(lower) + 1, round(x))
    elif "> 1" in info.domain:
        x = 1 + x
    return float(x)


def _numeric_truth(rel: sp.Basic, item, rng: random.Random) -> tuple[float, dict | None]:
    """Fraction of sampled points of the domain where ``rel`` holds (and one counterexample)."""
    implicit = {s: e for s, e in item.settings.items() if s not in _explicit_settings(item)}
    free = rel.free_symbols | set().union(*[sp.sympify(e).free_symbols for e in implicit.values()])
    symbols = sorted(free - set(implicit), key=str)
    args = sorted(free | set(implicit), key=str)
    try:
        test = sp.lambdify(args, rel, "math")
    except Exception:  # noqa: BLE001 - a form lambdify cannot print: undecidable by sampling
        return float("nan"), None
    resolve = CompiledSettings(implicit, symbols) if implicit else None
    holds = total = 0
    counter = None
    for _ in range(SAMPLES):
        values = {s: sample_value(s, rng) for s in symbols}
        try:
            env = resolve(values) if resolve else values
            truth = bool(test(*[env[a] for a in args]))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            continue
        total += 1
        if truth:
            holds += 1
        elif counter is None:
            counter = {str(k): v for k, v in env.items()}
    if total == 0:
        return float("nan"), None
    return holds / total, counter


def hypotheses_at_settings(item) -> list[HypothesisReport]:
    """A :class:`HypothesisReport` for each of ``item``'s hypotheses at its explicit
    settings: decided symbolically when SymPy simplifies it to true or false, an equation
    judged by whether it can be solved for a parameter, otherwise sampled on the domain
    (with the asymptotic regime of an inequality when its sides are sums of monomials)."""
    from dptheory.symbolic.derive import scaling_of

    reports = []
    explicit = _explicit_settings(item)
    rng = random.Random(20261122)
    for label, rel in item.hypotheses:
        at = substitute(rel, explicit)
        simplified = at
        try:
            simplified = simplify(at)
        except Exception:  # SymPy may fail on Piecewise/Sum; the sample decides then
            pass
        if simplified is sp.true or simplified is sp.false:
            status = "always" if simplified is sp.true else "never"
            reports.append(HypothesisReport(label, sp.sstr(rel), sp.sstr(at), status, "symbolic"))
            continue
        if isinstance(at, sp.Eq):
            # An equation is a constraint that defines a parameter: judge solvability, not
            # the (measure-zero) chance that random values satisfy it.
            growing = set(item.growing)
            for sym in sorted(at.free_symbols - growing, key=str):
                try:
                    sols = sp.solve(at, sym)
                except (NotImplementedError, ValueError):
                    continue
                if sols:
                    reports.append(HypothesisReport(
                        label, sp.sstr(rel), sp.sstr(at), "satisfiable", "symbolic",
                        regime=f"solvable for {sym}: {sym} = {sp.sstr(sols[0])}"))
                    break
            else:
                reports.append(HypothesisReport(label, sp.sstr(rel), sp.sstr(at), "unknown",
                                                "symbolic"))
            continue
        frac, counter = _numeric_truth(at, item, rng)
        if math.isnan(frac):
            reports.append(HypothesisReport(label, sp.sstr(rel), sp.sstr(at), "unknown", "sampled"))
            continue
        status = "always" if frac == 1 else ("never" if frac == 0 else "regime")
        report = HypothesisReport(label, sp.sstr(rel), sp.sstr(simplified), status, "sampled",
                                  fraction=round(frac, 4),
                                  counterexample=counter if status != "always" else None)
        if isinstance(at, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan)):
            lo, hi = (at.lhs, at.rhs) if isinstance(at, (sp.LessThan, sp.StrictLessThan)) \
                else (at.rhs, at.lhs)
            try:
                sc = scaling_of(item)
                reg = max_le(leading_terms(lo, sc), leading_terms(hi, sc), sc)
                report.regime = sp.sstr(reg.relation())
            except (NotDerivable, ValueError):
                pass
        reports.append(report)
    return reports


# ------------------------------------------------------------------ the claimed regime
@dataclass
class RegimeReport:
    """Can the theorem's hypotheses hold together at its settings, and does its bound say
    anything there?

    ``satisfiable``: ``witness`` (a sampled point where every hypothesis holds, checked
    again in exact arithmetic: a proof), ``none-found`` (sampling found none: evidence, not
    proof) or ``no-hypotheses``. ``nonvacuous``: ``witness`` (a point of the regime where the
    bound is below the item's trivial range), ``none-found``, or ``unknown`` (no trivial
    range declared). ``negative``: a point of the regime where the bound of a nonnegative
    quantity is negative or not real: a certified counterexample (the theorem would claim
    a nonnegative quantity is below a negative number, e.g. when a ``max`` in a hypothesis
    admits a step that should have been excluded by a ``min``).
    """

    satisfiable: str
    witness: dict[str, float] | None = None
    fraction: float | None = None
    nonvacuous: str = "unknown"
    nonvacuous_witness: dict[str, float] | None = None
    vacuous_fraction: float | None = None
    negative: dict[str, Any] | None = None
    method: str = "sampled"

    def as_dict(self) -> dict[str, Any]:
        """The report's fields as a dict."""
        return dict(self.__dict__)


def _equation_settings(item) -> dict[sp.Symbol, sp.Expr]:
    """Equations among the hypotheses, solved for a parameter the settings leave free (they
    define it, e.g. eta0 X = 1/(c4 theta mu)); used as settings when sampling the regime."""
    out: dict[sp.Symbol, sp.Expr] = {}
    growing = set(item.growing)
    for _, rel in item.hypotheses:
        if not isinstance(rel, sp.Eq):
            continue
        for sym in sorted(rel.free_symbols - growing - set(item.settings) - set(out), key=str):
            try:
                sols = [s for s in sp.solve(rel, sym) if s.is_real is not False]
            except (NotImplementedError, ValueError):
                continue
            if sols:
                out[sym] = sols[0]
                break
    return out


def regime_report(item, samples: int = SAMPLES, seed: int = 20261123) -> RegimeReport:
    """Sample the item's domain at its settings: a joint witness of the hypotheses, a point
    where the bound is non-vacuous, and a point where the bound is negative (see
    :class:`RegimeReport`). Candidates found in floating point are re-checked exactly."""
    hyps = [rel for _, rel in item.hypotheses if not isinstance(rel, sp.Eq)]
    settings = {**_equation_settings(item), **item.settings}
    targets = [e for e in (item.bound, item.trivial) if e is not None]
    if not hyps and item.bound is None:
        return RegimeReport("no-hypotheses", method="none")
    free = set().union(*[r.free_symbols for r in hyps], *[e.free_symbols for e in targets],
                       *[sp.sympify(e).free_symbols for e in settings.values()])
    inputs = sorted(free - set(settings), key=str)
    args = sorted(free | set(settings), key=str)
    try:
        resolve = CompiledSettings(settings, inputs) if settings else None
        tests = [sp.lambdify(args, r, "math") for r in hyps]
        f_bound = sp.lambdify(args, item.bound, "math") if item.bound is not None else None
        f_triv = sp.lambdify(args, item.trivial, "math") if item.trivial is not None else None
    except Exception:  # noqa: BLE001 - forms lambdify cannot print: nothing to sample
        return RegimeReport("none-found", method="unsupported form")
    rng = random.Random(seed)
    n_ok = total = n_vac = n_live = 0
    rep = RegimeReport("none-found" if hyps else "no-hypotheses")
    integer_set = [s for s in settings if s.is_integer]
    for _ in range(samples):
        values = {s: sample_value(s, rng) for s in inputs}
        try:
            env = resolve(values) if resolve else values
            # a setting that makes a count (T, K) smaller than 1 is outside its domain
            if any(not env[s] >= 1 for s in integer_set):
                continue
            vec = [env[a] for a in args]
            truth = all(bool(t(*vec)) for t in tests)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            continue
        total += 1
        if not truth:
            continue
        n_ok += 1
        point = {str(k): float(v) for k, v in env.items()}
        if rep.witness is None and hyps and _exact_truth(hyps, args, vec):
            rep.satisfiable, rep.witness = "witness", point
        if f_bound is None:
            continue
        candidate = False
        try:
            b = float(f_bound(*vec))
            candidate = b < 0
        except ValueError:                   # math domain error: not real here?
            b, candidate = math.nan, True
        except (TypeError, ZeroDivisionError, OverflowError):
            b = math.nan
        if candidate and rep.negative is None and item.direction == "upper" \
                and (not hyps or _exact_truth(hyps, args, vec)):
            exact = _exact_value(item.bound, args, vec)
            if exact is not None and (exact.get("negative") or exact.get("not_real")):
                rep.negative = {"point": point, **exact}
        if f_triv is not None and math.isfinite(b):
            try:
                t = float(f_triv(*vec))
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                continue
            n_live += 1
            if b >= t:
                n_vac += 1
            elif rep.nonvacuous_witness is None:
                rep.nonvacuous, rep.nonvacuous_witness = "witness", point
    rep.fraction = round(n_ok / total, 4) if total else None
    if f_triv is not None:
        rep.vacuous_fraction = round(n_vac / n_live, 4) if n_live else None
        if rep.nonvacuous != "witness":
            rep.nonvacuous = "none-found"
    return rep


_DPS = 50      # digits for the re-check of candidates (mpmath)


def _exact_truth(rels: list[sp.Basic], args: list[sp.Symbol], vec: list[float]) -> bool:
    """Every relation holds at the point, re-evaluated with 50-digit mpmath (so a float
    rounding at the boundary does not make a witness)."""
    import mpmath
    with mpmath.workdps(_DPS):
        x = [mpmath.mpf(v) for v in vec]
        for r in rels:
            if r is sp.true:
                continue
            try:
                if not bool(sp.lambdify(args, r, "mpmath")(*x)):
                    return False
            except TypeError:          # integer forms (range, floor of a sum bound): floats
                try:
                    if not bool(sp.lambdify(args, r, "math")(*vec)):
                        return False
                except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                    return False
            except (ValueError, ZeroDivisionError, OverflowError):
                return False
    return True


def _exact_value(expr: sp.Expr, args: list[sp.Symbol], vec: list[float]) -> dict[str, Any] | None:
    """The bound at the point with 50-digit mpmath: negative, or not real."""
    import mpmath
    with mpmath.workdps(_DPS):
        try:
            v = sp.lambdify(args, expr, "mpmath")(*[mpmath.mpf(x) for x in vec])
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return None
        if isinstance(v, mpmath.mpc) and abs(v.imag) > mpmath.mpf(10) ** (-30) * max(1, abs(v.real)):
            return {"bound": str(v), "not_real": True}
        v = mpmath.re(v)
        return {"bound": float(v), "negative": bool(v < 0)}
