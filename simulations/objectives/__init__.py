"""Objective families with certified constants.

``FAMILIES`` maps a family name to its factory (the class); ``get(name, **params)``
instantiates one. Each family declares its assumptions with numeric constants derived in its
docstring; :func:`certify` checks them numerically.

=========================  ==================================================================
pl-nonconvex               (a)+(e) h(u) = u^2 + 3 sin^2 u on a realizable linear model: PL,
                           one-point theta-weakly quasi-convex with theta < 1, non-convex;
                           n <= d (wide design)
pl-nonconvex-tall          the same loss on a tall design (n >= d, a shared feature): PL with
                           mu = theta^2 lambda_min/2, non-convex by construction
strict-saddle              (b) w1^2/2 + sum (w_j^4/4 - w_j^2/2) + <x, w>: exact saddles/minima
cosh-generalized-smooth    (c) sum cosh(w_j) + <x, w>: (L0, L1)-smooth, affine deviation
tilted-quadratic           ||w||^2/2 + <x, w>: mu = beta = 1 exactly (bounds on E||z||^2 bind)
logistic-ridge             (d) zhang2017 ridge logistic regression
huber-ridge                (d) zhang2017 ridge Huber regression
logistic-nonconvex-reg     (f) wang2020 logistic + sum lam w^2/(1 + w^2)
sigmoid-l2                 (f) wang2020 sigmoid loss + (lam/2)||w||^2 (as printed)
robust-regression          (f) tran2022 log(1 + (<a, w> - b)^2/2)
=========================  ==================================================================
"""

from __future__ import annotations

from typing import Any, Callable

from .base import Dataset, Minimum, Objective, ReplicatedDataset
from .certify import CertificationReport, CheckResult, certify
from .erm import HuberRidge, LogisticRidge
from .papers import LogisticNonconvexReg, RobustRegression, SigmoidL2
from .pl import PLNonconvex, PLNonconvexTall
from .separable import CoshGeneralizedSmooth, StrictSaddle, TiltedQuadratic

FAMILIES: dict[str, Callable[..., Objective]] = {
    PLNonconvex.name: PLNonconvex,
    PLNonconvexTall.name: PLNonconvexTall,
    StrictSaddle.name: StrictSaddle,
    CoshGeneralizedSmooth.name: CoshGeneralizedSmooth,
    TiltedQuadratic.name: TiltedQuadratic,
    LogisticRidge.name: LogisticRidge,
    HuberRidge.name: HuberRidge,
    LogisticNonconvexReg.name: LogisticNonconvexReg,
    SigmoidL2.name: SigmoidL2,
    RobustRegression.name: RobustRegression,
}

# Default small datasets for listings: n per family (pl-nonconvex needs n <= d).
DEFAULT_N: dict[str, int] = {name: 20 for name in FAMILIES}
DEFAULT_N[PLNonconvex.name] = 10


def get(name: str, **params: Any) -> Objective:
    """Instantiate family ``name`` with ``params``; unknown names raise ValueError."""
    if name not in FAMILIES:
        raise ValueError(f"unknown objective {name!r}; choose from {sorted(FAMILIES)}")
    return FAMILIES[name](**params)


__all__ = ["FAMILIES", "DEFAULT_N", "get", "Objective", "Dataset", "ReplicatedDataset", "Minimum", "certify",
           "CertificationReport", "CheckResult", "PLNonconvex", "PLNonconvexTall", "StrictSaddle",
           "CoshGeneralizedSmooth", "TiltedQuadratic", "LogisticRidge", "HuberRidge", "LogisticNonconvexReg",
           "SigmoidL2", "RobustRegression"]
