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
    label: str
    printed: str
    at_settings: str
    status: str            # always | never | regime | satisfiable (an equation) | unknown
    method: str            # symbolic | sampled
    fraction: float | None = None
    regime: str | None = None
    counterexample: dict[str, float] | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _explicit_settings(item) -> dict[sp.Symbol, sp.Expr]:
    return {s: e for s, e in item.settings.items() if s not in sp.sympify(e).free_symbols}


def substitute(rel: sp.Basic, settings: dict, rounds: int = 10) -> sp.Basic:
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
            return 10 ** rng.uniform(math.log10(hi) - 12, math.log10(hi) - 1e-9) * (1 if hi else 1)
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
