"""Certification of an objective's declared constants: random probes + adversarial search.

For every declared assumption, :func:`certify` evaluates a *violation ratio*
(measured / declared, <= 1 when the inequality holds) at random points (inside the declared
ball ``||w|| <= domain_radius``, or ``||w|| <= sample_radius`` when the constants hold
everywhere) and then maximises it with L-BFGS-B (batched forward-difference gradients,
points mapped back into the ball) from the best random starts. The worst ratio found is
reported; a check is *certified* when it is <= 1 + tol, *violated* otherwise, *unchecked*
for structural assumptions (TwiceDifferentiable) and types without a test.

It uses only the public :class:`~dptheory_simulations.objectives.base.Objective` interface, so it
works on users' own objectives.

Ratios (scope per-sample: max over the samples; empirical: on F):

=========================  ===============================================================
Lipschitz / BoundedGrad.   ||grad f_i(w)|| / G
BoundedLoss                |f_i(w)| / bound
Smooth                     ||grad f_i(w) - grad f_i(w')|| / (beta ||w - w'||), and
                           ||hess f_i(w)||_2 / beta when Hessians exist
HessianLipschitz           ||hess f_i(w) - hess f_i(w')||_2 / (rho ||w - w'||)
GeneralizedSmooth          ||grad f_i(w) - grad f_i(w')|| / ((L0 + L1 ||grad f_i(w)||)||w - w'||),
                           with ||w - w'|| <= 1/L1 in the restricted reading
StronglyConvex             mu ||w - w'||^2 / <grad f_i(w) - grad f_i(w'), w - w'>
Convex                     1 + max(0, -<grad f_i(w) - grad f_i(w'), w - w'> / ||w - w'||^2)
PL                         2 mu (F(w) - F_low) / ||grad F(w)||^2      (F_low: certified lower
WeaklyQuasiConvex          theta (F(w) - F_low) / <grad F(w), w - w*>  bound of min F)
AffineDeviation            ||grad f_i - grad F|| / (tau0 + tau1 ||grad F||)
BoundedVariance            sqrt(mean_i ||grad f_i - grad F||^2) / sigma
BoundedMinimizer           ||w_hat|| / D
BoundedBelow               (F(0) - F_low) / gap
=========================  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from scipy.optimize import minimize

from dptheory.symbolic.assumptions import (PL, AffineDeviation, Assumption, BoundedBelow,
                                           BoundedGradient, BoundedLoss, BoundedMinimizer,
                                           BoundedVariance, Convex, GeneralizedSmooth,
                                           HessianLipschitz, Lipschitz, Smooth, StronglyConvex,
                                           WeaklyQuasiConvex)

from .base import Dataset, Objective

__all__ = ["CheckResult", "CertificationReport", "certify"]

_BIG = 1e12          # ratio reported for an outright sign violation (e.g. negative curvature)


@dataclass(frozen=True)
class CheckResult:
    """The certification of one declared assumption: ``status`` (certified, violated or
    unchecked), the worst violation ratio found (measured / declared; nan when unchecked),
    the points or pairs attaining it, the number of evaluations and a note.
    """

    assumption: Assumption
    status: str                       # certified | violated | unchecked
    worst_ratio: float                # measured / declared (nan when unchecked)
    witness: tuple[np.ndarray, ...] = ()
    evaluations: int = 0
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (a nan ratio becomes None, the witnesses lists)."""
        return {"assumption": self.assumption.as_dict(), "status": self.status,
                "worst_ratio": None if np.isnan(self.worst_ratio) else float(self.worst_ratio),
                "witness": [w.tolist() for w in self.witness], "evaluations": self.evaluations,
                "detail": self.detail}


@dataclass(frozen=True)
class CertificationReport:
    """The certification of an objective on a dataset of ``n`` samples: one
    :class:`CheckResult` per declared assumption, a ratio above 1 + ``tol`` being a violation.
    """

    objective: str
    n: int
    tol: float
    results: tuple[CheckResult, ...] = field(default_factory=tuple)

    @property
    def certified(self) -> bool:
        """True when no declared inequality was found violated."""
        return all(r.status != "violated" for r in self.results)

    @property
    def violations(self) -> tuple[CheckResult, ...]:
        """The checks found violated."""
        return tuple(r for r in self.results if r.status == "violated")

    def ratio(self, name: str) -> float:
        """Worst ratio of the first check of assumption type ``name`` (e.g. "Lipschitz")."""
        for r in self.results:
            if r.assumption.name == name:
                return r.worst_ratio
        raise ValueError(f"no {name} check in this report; have "
                         f"{[r.assumption.name for r in self.results]}")

    def describe(self) -> str:
        """One line with the overall verdict, then one per check: status, worst ratio and the
        assumption."""
        head = f"{self.objective} (n={self.n}): {'CERTIFIED' if self.certified else 'VIOLATED'}"
        lines = [head]
        for r in self.results:
            ratio = "-" if np.isnan(r.worst_ratio) else f"{r.worst_ratio:.6g}"
            lines.append(f"  {r.status:<10} worst ratio {ratio:>12}  {r.assumption.describe()}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready report, with the overall verdict."""
        return {"objective": self.objective, "n": self.n, "tol": self.tol,
                "certified": self.certified, "results": [r.as_dict() for r in self.results]}


# ---------------------------------------------------------------------------------- probes
@dataclass
class _Probe:
    """ratio(P) for points P of shape (m, k, d); k = 1 (points) or 2 (pairs)."""
    k: int
    ratio: Callable[[np.ndarray], np.ndarray]
    max_step: float = np.inf


def _norm(a: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.linalg.norm(a, axis=axis)


def _spec(a: np.ndarray) -> np.ndarray:
    """Spectral norms over the last two axes (symmetrised)."""
    a = 0.5 * (a + np.swapaxes(a, -1, -2))
    return np.max(np.abs(np.linalg.eigvalsh(a)), axis=-1)


class _Ctx:
    def __init__(self, obj: Objective, data: Dataset) -> None:
        self.obj, self.data = obj, data
        self.X, self.y = data.X, data.y
        self._min: Any = None

    @property
    def minimum(self) -> Any:
        if self._min is None:
            self._min = self.obj.minimum(self.data)
        return self._min

    def grads(self, W: np.ndarray, scope: str) -> np.ndarray:
        """(m, n, d) per-sample or (m, 1, d) empirical gradients."""
        if scope == "empirical":
            return np.asarray(self.obj.grad_F(W, self.data))[:, None, :]
        return np.asarray(self.obj.grad(W, self.X, self.y))

    def losses(self, W: np.ndarray, scope: str) -> np.ndarray:
        if scope == "empirical":
            return np.asarray(self.obj.F(W, self.data))[:, None]
        return np.asarray(self.obj.loss(W, self.X, self.y))

    def hessians(self, W: np.ndarray, scope: str) -> np.ndarray:
        if scope == "empirical":
            return np.asarray(self.obj.hess_F(W, self.data))[:, None]
        return np.asarray(self.obj.hess(W, self.X, self.y))


def _has_hessian(obj: Objective) -> bool:
    flag = getattr(obj, "has_hessian", None)
    if flag is not None:
        return bool(flag)
    try:
        obj.hess(np.zeros(obj.d), np.zeros((1, obj.d)), np.zeros(1))
        return True
    except (NotImplementedError, ValueError):
        return False


def _probes(a: Assumption, ctx: _Ctx) -> list[_Probe] | str:
    """Probes for assumption ``a``, or a string saying why it is unchecked."""
    c = {k: float(v) for k, v in a.constants.items() if not isinstance(v, bool)}
    scope = "empirical" if a.scope == "empirical" else "per-sample"
    obj = ctx.obj

    if isinstance(a, (Lipschitz, BoundedGradient)):
        G = c["G"]
        return [_Probe(1, lambda P: _norm(ctx.grads(P[:, 0], scope)).max(axis=1) / G)]
    if isinstance(a, BoundedLoss):
        B = c["bound"]
        return [_Probe(1, lambda P: np.abs(ctx.losses(P[:, 0], scope)).max(axis=1) / B)]
    if isinstance(a, Smooth):
        beta = c["beta"]

        def pair(P: np.ndarray) -> np.ndarray:
            dg = ctx.grads(P[:, 0], scope) - ctx.grads(P[:, 1], scope)
            return _norm(dg).max(axis=1) / (beta * _norm(P[:, 0] - P[:, 1]))
        probes = [_Probe(2, pair)]
        if _has_hessian(obj):
            probes.append(_Probe(1, lambda P: _spec(ctx.hessians(P[:, 0], scope)).max(axis=1)
                                 / beta))
        return probes
    if isinstance(a, HessianLipschitz):
        if not _has_hessian(obj):
            return "objective provides no Hessian"
        rho = c["rho"]

        def hpair(P: np.ndarray) -> np.ndarray:
            dH = ctx.hessians(P[:, 0], scope) - ctx.hessians(P[:, 1], scope)
            return _spec(dH).max(axis=1) / (rho * _norm(P[:, 0] - P[:, 1]))
        return [_Probe(2, hpair)]
    if isinstance(a, GeneralizedSmooth):
        L0, L1 = c["L0"], c["L1"]

        def gpair(P: np.ndarray) -> np.ndarray:
            g0 = ctx.grads(P[:, 0], scope)
            dg = g0 - ctx.grads(P[:, 1], scope)
            den = (L0 + L1 * _norm(g0)) * _norm(P[:, 0] - P[:, 1])[:, None]
            return (_norm(dg) / den).max(axis=1)
        return [_Probe(2, gpair, max_step=1.0 / L1 if a.restricted else np.inf)]
    if isinstance(a, (StronglyConvex, Convex)):
        mu = c.get("mu", 0.0)

        def cpair(P: np.ndarray) -> np.ndarray:
            dw = P[:, 0] - P[:, 1]
            dg = ctx.grads(P[:, 0], scope) - ctx.grads(P[:, 1], scope)
            curv = (np.einsum("mnd,md->mn", dg, dw) / np.sum(dw * dw, axis=1)[:, None]).min(axis=1)
            if isinstance(a, Convex):
                return 1.0 + np.maximum(0.0, -curv)
            return np.where(curv > 0, mu / np.where(curv > 0, curv, 1.0), _BIG)
        return [_Probe(2, cpair)]
    if isinstance(a, (PL, WeaklyQuasiConvex)):
        m = ctx.minimum
        f_low = float(m.lower)
        if not np.isfinite(f_low):
            return "no certified lower bound of min F"
        thresh = 1e-10 * max(1.0, abs(f_low))
        if isinstance(a, PL):
            mu = c["mu"]

            def pl(P: np.ndarray) -> np.ndarray:
                W = P[:, 0]
                gap = np.asarray(obj.F(W, ctx.data)) - f_low
                g2 = np.sum(np.asarray(obj.grad_F(W, ctx.data)) ** 2, axis=1)
                r = 2 * mu * gap / np.maximum(g2, 1e-300)
                return np.where(gap > thresh, r, 0.0)
            return [_Probe(1, pl)]
        if m.w is None:
            return "minimum() gives no minimiser w*"
        theta, w_star = c["theta"], np.asarray(m.w, dtype=np.float64)

        def wqc(P: np.ndarray) -> np.ndarray:
            W = P[:, 0]
            gap = np.asarray(obj.F(W, ctx.data)) - f_low
            inner = np.sum(np.asarray(obj.grad_F(W, ctx.data)) * (W - w_star), axis=1)
            r = np.where(inner > 0, theta * gap / np.where(inner > 0, inner, 1.0), _BIG)
            return np.where(gap > thresh, r, 0.0)
        return [_Probe(1, wqc)]
    if isinstance(a, (AffineDeviation, BoundedVariance)):
        def dev(P: np.ndarray) -> np.ndarray:
            W = P[:, 0]
            g = np.asarray(obj.grad(W, ctx.X, ctx.y))
            gb = g.mean(axis=1)
            e = _norm(g - gb[:, None, :])
            if isinstance(a, BoundedVariance):
                return np.sqrt(np.mean(e ** 2, axis=1)) / c["sigma"]
            return e.max(axis=1) / (c["tau0"] + c["tau1"] * _norm(gb))
        return [_Probe(1, dev)]
    if isinstance(a, BoundedMinimizer):
        m = ctx.minimum
        if m.w is None:
            return "minimum() gives no minimiser"
        return [_Probe(0, lambda P: np.array([_norm(np.asarray(m.w)) / c["D"]]))]
    if isinstance(a, BoundedBelow):
        f0 = float(obj.F(np.zeros(obj.d), ctx.data))
        return [_Probe(0, lambda P: np.array([(f0 - float(ctx.minimum.lower)) / c["gap"]]))]
    return f"no numerical test for {a.name} (structural)"


# ---------------------------------------------------------------------------------- sampling
def _project(W: np.ndarray, R: float) -> np.ndarray:
    nrm = _norm(W)[..., None]
    return W * np.minimum(1.0, R / np.maximum(nrm, 1e-300))


def _sample_points(m: int, d: int, R: float, special: np.ndarray,
                   rng: np.random.Generator) -> np.ndarray:
    u = rng.standard_normal((m, d))
    u /= _norm(u)[:, None]
    kind = rng.random(m)
    radius = np.where(kind < 0.2, R * rng.uniform(0.9, 1.0, m), R * rng.random(m) ** (1.0 / d))
    P = u * radius[:, None]
    if len(special):
        near = kind > 0.7
        centre = special[rng.integers(len(special), size=m)]
        scale = R * 10.0 ** rng.uniform(-3, np.log10(0.5), m)
        Q = centre + rng.standard_normal((m, d)) * scale[:, None] / np.sqrt(d)
        P = np.where(near[:, None], Q, P)
    return _project(P, R)


def _sample(probe: _Probe, m: int, d: int, R: float, special: np.ndarray,
            rng: np.random.Generator) -> np.ndarray:
    P = _sample_points(m, d, R, special, rng)
    if probe.k == 1:
        return P[:, None, :]
    u = rng.standard_normal((m, d))
    u /= _norm(u)[:, None]
    step = R * 10.0 ** rng.uniform(-4, np.log10(2.0), m)
    step = np.minimum(step, probe.max_step)
    far = rng.random(m) < 0.25                       # some independent pairs
    Q = np.where(far[:, None], _sample_points(m, d, R, special, rng), P + u * step[:, None])
    Q = _clip_step(P, Q, probe.max_step)
    Q = _project(Q, R)
    same = _norm(P - Q) == 0
    Q[same] = _project(P[same] + 1e-3 * R * u[same], R)
    return np.stack([P, Q], axis=1)


def _clip_step(P: np.ndarray, Q: np.ndarray, max_step: float) -> np.ndarray:
    if not np.isfinite(max_step):
        return Q
    v = Q - P
    return P + v * np.minimum(1.0, max_step / np.maximum(_norm(v), 1e-300))[:, None]


def _evaluate(probe: _Probe, P: np.ndarray, chunk: int = 64) -> np.ndarray:
    out = []
    for s in range(0, len(P), chunk):
        with np.errstate(all="ignore"):
            r = np.asarray(probe.ratio(P[s:s + chunk]), dtype=np.float64)
        out.append(np.where(np.isnan(r), -np.inf, r))
    return np.concatenate(out)


def _decode(z: np.ndarray, probe: _Probe, d: int, R: float) -> np.ndarray:
    """Free variables (m, k*d) -> feasible points (m, k, d) (in the ball, step-limited)."""
    Z = z.reshape(len(z), probe.k, d)
    P = _project(Z[:, 0], R)
    if probe.k == 1:
        return P[:, None, :]
    Q = _project(_clip_step(P, P + Z[:, 1], probe.max_step), R)
    return np.stack([P, Q], axis=1)


def _adversarial(probe: _Probe, start: np.ndarray, d: int, R: float,
                 maxiter: int) -> tuple[float, np.ndarray, int]:
    z0 = start[0].copy() if probe.k == 1 else np.concatenate([start[0], start[1] - start[0]])
    dim = len(z0)
    count = [0]
    h = 1e-7 * max(1.0, R)

    def fg(z: np.ndarray) -> tuple[float, np.ndarray]:
        Z = np.vstack([z, z + h * np.eye(dim)])
        r = _evaluate(probe, _decode(Z, probe, d, R))
        count[0] += len(Z)
        r = np.where(np.isfinite(r), r, np.where(r > 0, _BIG, -_BIG))
        r = np.minimum(r, _BIG)
        return -float(r[0]), -(r[1:] - r[0]) / h

    try:
        res = minimize(fg, z0, jac=True, method="L-BFGS-B", options={"maxiter": maxiter})
        z = res.x
    except (ValueError, FloatingPointError, np.linalg.LinAlgError):
        z = z0
    P = _decode(z[None], probe, d, R)
    return float(_evaluate(probe, P)[0]), P[0], count[0]


def certify(objective: Objective, data: Dataset, *, samples: int = 256, seed: int = 0,
            starts: int = 3, maxiter: int = 40, tol: float = 1e-6,
            assumptions: tuple[Assumption, ...] | None = None,
            radius: float | None = None) -> CertificationReport:
    """Check every declared inequality of ``objective`` on ``data``.

    ``samples`` random points (or pairs) per probe, then L-BFGS-B from the ``starts`` best,
    ``maxiter`` iterations each. ``assumptions`` overrides ``objective.assumptions(data)``
    (e.g. to test a user's claimed constant); ``radius`` overrides the sampling ball when the
    objective declares no ``domain_radius``. Returns a :class:`CertificationReport`.
    """
    if not isinstance(objective, Objective):
        raise ValueError(f"objective must implement the Objective interface, got "
                         f"{type(objective).__name__}")
    if not isinstance(data, Dataset):
        raise ValueError(f"data must be a Dataset, got {type(data).__name__}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    if isinstance(starts, bool) or not isinstance(starts, (int, np.integer)) or starts < 0:
        raise ValueError(f"starts must be a non-negative integer, got {starts!r}")
    if not (isinstance(tol, (int, float)) and tol >= 0):
        raise ValueError(f"tol must be >= 0, got {tol!r}")
    d = objective.d
    dom = getattr(objective, "domain_radius", None)
    R = float(dom if dom is not None else (radius if radius is not None
                                           else getattr(objective, "sample_radius", 3.0)))
    if not (np.isfinite(R) and R > 0):
        raise ValueError(f"radius must be finite and > 0, got {R}")
    declared = tuple(objective.assumptions(data)) if assumptions is None else tuple(assumptions)
    ctx = _Ctx(objective, data)
    special_fn = getattr(objective, "special_points", None)
    special = np.empty((0, d))
    if special_fn is not None:
        try:
            special = _project(np.atleast_2d(np.asarray(special_fn(data), dtype=float)), R)
        except (ValueError, NotImplementedError):
            pass
    if special.size == 0:
        special = np.empty((0, d))
    rng = np.random.default_rng(seed)
    results = []
    for a in declared:
        probes = _probes(a, ctx)
        if isinstance(probes, str):
            results.append(CheckResult(a, "unchecked", float("nan"), detail=probes))
            continue
        worst, witness, evals = -np.inf, (), 0
        for probe in probes:
            if probe.k == 0:
                r = float(probe.ratio(np.empty((1, 0, d)))[0])
                evals += 1
                if r > worst:
                    worst, witness = r, ()
                continue
            P = _sample(probe, samples, d, R, special, rng)
            r = _evaluate(probe, P)
            evals += len(P)
            order = np.argsort(-r)
            if r[order[0]] > worst:
                worst, witness = float(r[order[0]]), tuple(P[order[0]])
            for i in order[:starts]:
                ra, Pa, cnt = _adversarial(probe, P[i], d, R, maxiter)
                evals += cnt
                if ra > worst:
                    worst, witness = ra, tuple(Pa)
        status = "certified" if worst <= 1.0 + tol else "violated"
        detail = "" if a.scope != "population" else "population scope checked on the given data"
        results.append(CheckResult(a, status, float(worst), witness, evals, detail))
    return CertificationReport(getattr(objective, "name", type(objective).__name__), data.n,
                               float(tol), tuple(results))
