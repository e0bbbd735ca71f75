"""Certified worst cases of gradient descent by performance estimation (issue 23, item 2).

Performance estimation (Drori and Teboulle 2014; Taylor, Hendrickx and Glineur 2017) turns
"the largest f(x_T) - f* over every function of a class, from every start with
||x_0 - x*|| <= D" into a small semidefinite program whose value is that worst case
(tight: interpolation conditions). PEPit (Goujaud, Moucer, Glineur, Hendrickx, Taylor,
Dieuleveut) builds the program; it is an optional dependency
(``pip install 'dptheory[pep]'``, with cvxpy's default SDP solver).

:func:`gd_worst_case` is the worst case of T steps of GD with step ``eta`` on the class of
mu-strongly convex (mu = 0: convex), beta-smooth functions, per unit D^2.
:func:`pep_bound_check` compares it with a printed bound (zhang2017 Lemmas 5 and 8):
below the bound it is ``supported`` with its tightness (worst / bound); above it, the SDP
value alone (solver tolerance ~1e-7 relative) is not a proof, so the check is
``inconclusive`` until the worst-case function is rebuilt and checked in exact arithmetic
(not implemented here: no refutation is ever issued from the SDP value).
"""

from __future__ import annotations

import math

from dptheory.verify.verdict import CheckResult

__all__ = ["gd_worst_case", "pep_bound_check", "PEP_RTOL", "available"]

#: relative accuracy of the SDP value trusted for a `supported` (a worst case within this of
#: the bound decides nothing)
PEP_RTOL = 1e-5


def available() -> bool:
    """Whether PEPit (and an SDP solver through cvxpy) can be imported."""
    try:
        import PEPit  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def gd_worst_case(mu: float, beta: float, eta: float, T: int) -> float:
    """max (f(x_T) - f*) / ||x_0 - x*||^2 over mu-strongly convex (convex if mu = 0),
    beta-smooth f and GD x_{t+1} = x_t - eta grad f(x_t) (PEPit's SDP value).

    Raises ImportError (with the install hint) when PEPit is missing, ValueError on bad
    parameters.
    """
    if not (math.isfinite(beta) and beta > 0 and math.isfinite(mu) and 0 <= mu < beta):
        raise ValueError(f"need 0 <= mu < beta < inf, got mu={mu}, beta={beta}")
    if not (math.isfinite(eta) and eta > 0) or int(T) < 1:
        raise ValueError(f"need eta > 0 and T >= 1, got eta={eta}, T={T}")
    try:
        from PEPit import PEP  # noqa: PLC0415
        from PEPit.functions import (SmoothConvexFunction,  # noqa: PLC0415
                                     SmoothStronglyConvexFunction)
    except ImportError as e:
        raise ImportError("PEPit is not installed: pip install 'dptheory[pep]'") from e
    problem = PEP()
    f = (problem.declare_function(SmoothStronglyConvexFunction, mu=mu, L=beta) if mu > 0
         else problem.declare_function(SmoothConvexFunction, L=beta))
    xs = f.stationary_point()
    fs = f(xs)
    x = problem.set_initial_point()
    problem.set_initial_condition((x - xs) ** 2 <= 1)
    for _ in range(int(T)):
        x = x - eta * f.gradient(x)
    problem.set_performance_metric(f(x) - fs)
    return float(problem.solve(verbose=0))


def pep_bound_check(worst: float, bound: float, *, what: str) -> CheckResult:
    """A printed worst-case bound against the PEP worst case (both per unit D^2).

    supported — ``worst <= bound (1 - PEP_RTOL)``: every function of the class obeys the
    bound (the SDP value is the class's worst case), with tightness worst/bound; the
    planted bound ``worst / 2`` would exceed nothing and is caught.
    inconclusive — otherwise (no refutation from an SDP value, module docstring).
    """
    if not (math.isfinite(worst) and math.isfinite(bound) and bound > 0):
        raise ValueError(f"worst and bound must be finite, bound > 0; got {worst}, {bound}")
    ev = {"worst": worst, "bound": bound, "tightness": worst / bound, "pep_rtol": PEP_RTOL}
    if worst <= bound * (1 - PEP_RTOL):
        power = {"statement": f"the PEP worst case {worst:.6g} is the class's largest value: a "
                              f"claimed bound below it would be flagged",
                 "selftest": {"planted": f"bound {worst / 2:.6g}", "caught": True}}
        return CheckResult("supported", f"{what}: PEP worst case {worst:.6g} <= bound "
                           f"{bound:.6g} (tightness {worst / bound:.4g})", {**ev, "power": power},
                           claim="upper-bound", power=power)
    return CheckResult("inconclusive", f"{what}: PEP worst case {worst:.6g} vs bound "
                       f"{bound:.6g}: above or within the solver's accuracy; not a refutation "
                       "until the worst-case function is rebuilt in exact arithmetic", ev,
                       claim="upper-bound")
