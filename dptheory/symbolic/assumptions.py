"""Assumption types shared by theorems (what they need) and objectives (what they satisfy).

An assumption carries its constants as SymPy expressions (symbols in a theorem, numbers on a
certified objective). ``satisfies(theorem_assumption)`` decides whether a concrete assumption
(e.g. an objective's ``Lipschitz(2.0)``) meets a theorem's (``Lipschitz(G)``): the types must
match; a theorem's symbolic constant is then instantiated by the objective's number.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import sympy as sp


@dataclass(frozen=True)
class Assumption:
    """Base class. Subclasses declare their constants as dataclass fields."""

    scope: str = field(default="per-sample", kw_only=True)   # per-sample | empirical | population
    note: str = field(default="", kw_only=True)              # e.g. "on the ball ||w|| <= 2D"

    @property
    def name(self) -> str:
        """The assumption's short name (``"Lipschitz"``, ``"Smooth"``, ...)."""
        return type(self).__name__

    @property
    def constants(self) -> dict[str, Any]:
        """The assumption's constants, ``{field: value}`` (e.g. ``{"G": G}`` for a Lipschitz
        loss)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("scope", "note")}

    def describe(self) -> str:
        """A one-line statement of the assumption with its constants."""
        args = ", ".join(f"{k}={_fmt(v)}" for k, v in self.constants.items())
        extra = f" [{self.scope}]" if self.scope != "per-sample" else ""
        note = f" ({self.note})" if self.note else ""
        return f"{self.name}({args}){extra}{note}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields: name, constants, scope, note."""
        return {"name": self.name, "constants": {k: _fmt(v) for k, v in self.constants.items()},
                "scope": self.scope, "note": self.note}

    def binding(self, concrete: "Assumption") -> dict[sp.Symbol, Any]:
        """Map this (symbolic) assumption's constants to the concrete one's values."""
        if type(concrete) is not type(self):
            raise ValueError(f"cannot bind {self.name} to {concrete.name}")
        out: dict[sp.Symbol, Any] = {}
        for key, value in self.constants.items():
            if isinstance(value, sp.Symbol):
                out[value] = concrete.constants[key]
        return out


def _fmt(value: Any) -> str:
    return sp.sstr(value) if isinstance(value, sp.Basic) else str(value)


def _c(value: Any) -> Any:
    return sp.sympify(value) if isinstance(value, (str, int)) else value


@dataclass(frozen=True)
class BoundedLoss(Assumption):
    """|f(w, z)| <= bound (zhang2021 Sec. 2.1)."""
    bound: Any = 1


@dataclass(frozen=True)
class Lipschitz(Assumption):
    """|f(w,z) - f(w',z)| <= G ||w - w'|| (equivalently ||grad f|| <= G)."""
    G: Any


@dataclass(frozen=True)
class Smooth(Assumption):
    """||grad f(w) - grad f(w')|| <= beta ||w - w'||."""
    beta: Any


@dataclass(frozen=True)
class Convex(Assumption):
    """f(., z) convex."""


@dataclass(frozen=True)
class StronglyConvex(Assumption):
    """f(., z) mu-strongly convex."""
    mu: Any


@dataclass(frozen=True)
class PL(Assumption):
    """2 mu (F(w) - min F) <= ||grad F(w)||^2 (Polyak-Lojasiewicz)."""
    mu: Any


@dataclass(frozen=True)
class WeaklyQuasiConvex(Assumption):
    """<grad F(w), w - w*> >= theta (F(w) - F(w*)) (one-point weak quasi-convexity)."""
    theta: Any


@dataclass(frozen=True)
class HessianLipschitz(Assumption):
    """||hess f(w) - hess f(w')||_2 <= rho ||w - w'||."""
    rho: Any


@dataclass(frozen=True)
class GeneralizedSmooth(Assumption):
    """||grad f(w) - grad f(w')|| <= (L0 + L1 ||grad f(w)||) ||w - w'|| (yang2022 Def. 2.2)."""
    L0: Any
    L1: Any
    restricted: bool = True     # reading (R): only for ||w - w'|| <= 1/L1


@dataclass(frozen=True)
class BoundedVariance(Assumption):
    """E_i ||grad f_i(w) - grad F(w)||^2 <= sigma^2."""
    sigma: Any


@dataclass(frozen=True)
class AffineDeviation(Assumption):
    """||grad f_i(w) - grad F(w)|| <= tau0 + tau1 ||grad F(w)|| almost surely (yang2022 A2.2)."""
    tau0: Any
    tau1: Any


@dataclass(frozen=True)
class BoundedBelow(Assumption):
    """F bounded below; gap = F(w0) - inf F <= Fgap."""
    gap: Any


@dataclass(frozen=True)
class BoundedMinimizer(Assumption):
    """||w_hat|| <= D for the empirical minimizer w_hat."""
    D: Any


@dataclass(frozen=True)
class BoundedGradient(Assumption):
    """||grad f(w, z)|| <= G for all w, z (tran2022's 'G-Lipschitz')."""
    G: Any


@dataclass(frozen=True)
class TwiceDifferentiable(Assumption):
    """f(., z) twice continuously differentiable."""


def satisfies(have: "list[Assumption] | tuple[Assumption, ...]", need: Assumption) -> bool:
    """Whether one of ``have`` is of the type of ``need`` (constants are instantiated, not compared)."""
    return any(type(h) is type(need) for h in have)


__all__ = ["Assumption", "BoundedLoss", "Lipschitz", "Smooth", "Convex", "StronglyConvex", "PL",
           "WeaklyQuasiConvex", "HessianLipschitz", "GeneralizedSmooth", "BoundedVariance",
           "AffineDeviation", "BoundedBelow", "BoundedMinimizer", "BoundedGradient",
           "TwiceDifferentiable", "satisfies"]
