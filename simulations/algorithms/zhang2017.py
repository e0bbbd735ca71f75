"""Simulators of zhang2017 — Zhang, Zheng, Mou, Wang, *Efficient Private ERM for Smooth
Objectives*, IJCAI 2017 — and of the Bassily-Smith-Thakurta 2014 baseline it compares with.

=====================  ==========================================================  ============
id                     algorithm                                                   theorem
=====================  ==========================================================  ============
``zhang2017.alg1``     output-perturbation full gradient descent (Algorithm 1)     Thm 2 / 3
``zhang2017.alg2``     random round private SGD, RRPSGD (Algorithm 2)              Thm 5
``zhang2017.bst14``    Bassily-Smith-Thakurta 2014 private SGD, minibatch m = 50   Table 1 [1]
=====================  ==========================================================  ============

The paper's noise calibration is read from the catalog (:mod:`dptheory_bounds.zhang2017`, items
``zhang2017.alg1``, ``zhang2017.alg2``, ``zhang2017.thm4``); ``calibration="tight"`` takes
the smallest noise that the numeric accountant certifies instead:

* Algorithm 1, delta > 0: the exact Gaussian privacy curve with sensitivity Delta (analytic
  Gaussian mechanism, Balle & Wang 2018). delta = 0: the l2-Laplace (K-norm) mechanism is
  exactly eps-DP at scale Delta/eps, so both calibrations coincide.
* RRPSGD and BST14: RDP of ``steps`` compositions of the sampled Gaussian with rate q (1/n,
  resp. m/n), converted with the improved conversion. One index drawn uniformly per step
  is a uniform subset of size 1, a fixed-size sample; the primary ("tight") number uses the
  Poisson-subsampled Gaussian at the same rate as the usual approximation (as the brief
  asks), with the substitution shift 2L (2L/m for a minibatch mean) as sensitivity, so the
  noise multiplier is s/(2L) (s m/(2L)). The rigorous fixed-size / substitution bound of
  Wang, Balle, Kasiviswanathan 2019 is reported beside it (``epsilon_fixed_size``).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Sequence

import numpy as np
from scipy import optimize

import dptheory_bounds.zhang2017 as catalog
from dptheory.budget import check_steps
from dptheory.privacy import (GaussianEvent, advanced_composition_dwork_roth, amplify_zhang2017,
                              analytic_gaussian_sigma, classic_gaussian_sigma, gaussian_delta,
                              gaussian_epsilon, get_epsilon, get_noise_multiplier)
from dptheory.privacy.samplers import l2_laplace
from dptheory.symbolic.assumptions import (BoundedMinimizer, Convex, Lipschitz, Smooth,
                                           StronglyConvex)

from .base import check_int as _pos_int, check_positive as _pos_float, check_w0 as _w0
from .base import sampled_steps, two_sided
from .base import (Algorithm, Recorder, ReplicateStreams, RunResult, Timer, block_steps,
                   check_assumptions, check_calibration, check_privacy, check_reps, metrics_at)

__all__ = ["ALGORITHMS", "ALG1", "ALG2", "BST14", "run_alg1", "run_alg2", "run_bst14",
           "bst14_paper_sigma"]

_ITEMS = {item.id: item for item in catalog.ITEMS}
SETTINGS = ("auto", "strongly-convex", "convex")


# ---------------------------------------------------------------------------- helpers
def _catalog(item_id: str, name: str, values: dict[str, float]) -> float:
    """A named expression of a catalog item at ``values`` (settings not applied)."""
    return float(_ITEMS[item_id].evaluate(name, values, apply_settings=False))


def _assumption(objective: Any, data: Any, kind: type) -> Any:
    for a in objective.assumptions(data):
        if type(a) is kind:
            return a
    return None


def _const(objective: Any, data: Any, kind: type, attr: str) -> float:
    a = _assumption(objective, data, kind)
    if a is None:
        raise ValueError(f"objective {objective.name!r} does not declare {kind.__name__}")
    return float(getattr(a, attr))


def _check_convexity(objective: Any, data: Any, algorithm_id: str, theorem: str) -> None:
    if _assumption(objective, data, Convex) is None and \
            _assumption(objective, data, StronglyConvex) is None:
        raise ValueError(f"objective {objective.name!r} declares neither Convex nor "
                         f"StronglyConvex, which {theorem} assumes ({algorithm_id})")


def _check_setting(setting: Any, objective: Any, data: Any) -> str:
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    sc = _assumption(objective, data, StronglyConvex) is not None
    if setting == "auto":
        return "strongly-convex" if sc else "convex"
    if setting == "strongly-convex" and not sc:
        raise ValueError(f"setting='strongly-convex' needs StronglyConvex, which objective "
                         f"{objective.name!r} does not declare")
    return setting








def _ceil_T(value: float) -> int:
    """Theta(.) of a printed T encoded with constant 1, rounded up, at least 1."""
    return max(1, int(math.ceil(value - 1e-9))) if math.isfinite(value) else 1


@functools.lru_cache(maxsize=256)
def _poisson_eps(multiplier: float, delta: float, q: float, steps: int) -> float:
    return float(get_epsilon(noise_multiplier=multiplier, target_delta=delta, sample_rate=q,
                             steps=steps, sampling="poisson"))


@functools.lru_cache(maxsize=256)
def _fixed_size_eps(multiplier: float, delta: float, q: float, steps: int) -> float:
    return float(get_epsilon(noise_multiplier=multiplier, target_delta=delta, sample_rate=q,
                             steps=steps, sampling="fixed-size"))


@functools.lru_cache(maxsize=256)
def _poisson_multiplier(eps: float, delta: float, q: float, steps: int) -> float:
    return float(get_noise_multiplier(target_epsilon=eps, target_delta=delta, sample_rate=q,
                                      steps=steps, sampling="poisson"))


def _sampled_tight(s: float, shift: float, delta: float, q: float, steps: int,
                   fixed_size: bool) -> dict[str, Any]:
    """Tight accounting of ``steps`` sampled Gaussian steps with std s and shift bound."""
    route = ("RDP of the Poisson-subsampled Gaussian (rate q = {q:.4g}, {steps} steps, "
             "noise multiplier s/shift with the substitution shift {shift:.4g}; sampling a "
             "fixed-size batch approximated as Poisson), improved conversion"
             ).format(q=q, steps=steps, shift=shift)
    if s <= 0:
        return {"epsilon": math.inf, "route": route, "epsilon_fixed_size": math.inf}
    out: dict[str, Any] = {"epsilon": _poisson_eps(s / shift, delta, q, steps), "route": route,
                           "noise_multiplier": s / shift}
    # the mechanism as run: a fixed-size batch (with replacement across steps), replace-one
    out.update(two_sided(sampled_steps(q, s / shift, steps), delta))
    if fixed_size:
        out["epsilon_fixed_size"] = _fixed_size_eps(s / shift, delta, q, steps)
        out["route_fixed_size"] = ("RDP upper bound for a fixed-size sample without replacement,"
                                   " substitution neighbours (Wang-Balle-Kasiviswanathan 2019 "
                                   "Thms 9, 27), improved conversion")
    return out


# ---------------------------------------------------------------------------- Algorithm 1
def run_alg1(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
             seed: int = 0, calibration: str = "paper", record: int | None = None,
             first_replicate: int = 0, setting: str = "auto", T: int | None = None,
             eta: float | None = None, Delta: float | None = None, w0: Any = None,
             noise_scale: float | None = None) -> RunResult:
    r"""Output Perturbation Full Gradient Descent (zhang2017 Algorithm 1).

    Algorithm
    ---------
    ``w_{t+1} = w_t - (eta/n) sum_i grad f(w_t, xi_i)`` for t = 0..T-1 from ``w0`` (default
    0); then ``w_priv = w_T + z`` with z drawn once per replicate:

    * delta = 0 (eps-DP): density proportional to exp(-eps ||z||_2 / Delta), i.e. a uniform
      direction times a radius ~ Gamma(d, Delta/eps)
      (:func:`dptheory.privacy.samplers.l2_laplace`);
    * delta > 0: density proportional to exp(-eps^2 ||z||^2 / (4 log(2/delta) Delta^2)),
      i.e. N(0, s^2 I) with s^2 = 2 log(2/delta) Delta^2 / eps^2 (catalog ``s2_gaussian``).

    Settings (catalog item ``zhang2017.alg1``; ``setting="auto"`` picks Theorem 2 when the
    objective declares StronglyConvex, else Theorem 3):

    * Theorem 2 (strongly convex): eta = 1/(mu+beta), Delta = 5L(1+beta/mu)/(n beta),
      T = ceil(((mu^2+beta^2)/(mu beta)) log(mu^2 n^2 eps^2 D^2/(L^2 d^2))) for delta = 0,
      with d log(1/delta) in place of d^2 for delta > 0.
    * Theorem 3 (convex): eta = 1/beta, T = ceil((beta^2 n^2 eps^2 D^2/(L^2 d^2))^(1/3))
      (d log(1/delta) for delta > 0), Delta = 3 L T/(beta n).

    The Theta(.) of T is taken with constant 1, rounded up, and at least 1 (the printed log
    is negative when L d > mu n eps D). L, beta, mu, D are the objective's certified
    ``Lipschitz.G``, ``Smooth.beta``, ``StronglyConvex.mu`` and ``BoundedMinimizer.D``.
    Overrides: ``T``, ``eta`` (Delta then follows Lemma 2, 3 LT eta/n, which needs
    eta <= 1/beta, or Lemma 3, which needs eta <= 1/(mu+beta)), ``Delta``, and
    ``noise_scale`` (Gaussian std s, or l2-Laplace scale Delta/eps; 0 gives non-private GD).

    Gradient descent is deterministic, so it is run once and shared by all replicates; only
    the output noise differs per replicate (normals from the replicate streams, the
    l2-Laplace law from the replicate's own generator).

    Guarantee
    ---------
    Privacy: Theorem 1 (``zhang2017.thm1``). Utility: ``zhang2017.thm2`` / ``zhang2017.thm3``
    (excess empirical risk). The paper route says (eps, delta); the tight route is the exact
    Gaussian curve at sensitivity Delta (for delta = 0 the K-norm mechanism is exactly
    Delta/scale-DP). ``privacy["paper"]["exact_delta"]`` is the delta the exact curve gives
    at the paper's eps: above delta at large eps (the catalog finding on Theorem 1).

    Reference
    ---------
    zhang2017, Algorithm 1 (Sec. 3.1), Theorems 1-3, Lemmas 2, 3, 6, 7.
    """
    eps, delta = check_privacy(eps, delta, allow_zero_delta=True)
    reps = check_reps(reps)
    calibration = check_calibration(calibration)
    check_assumptions(ALG1, objective, data)
    _check_convexity(objective, data, ALG1.id, "zhang2017.thm2/thm3")
    setting = _check_setting(setting, objective, data)
    n, d = data.n, data.d
    L = _const(objective, data, Lipschitz, "G")
    beta = _const(objective, data, Smooth, "beta")
    D = _const(objective, data, BoundedMinimizer, "D")
    vals: dict[str, float] = {"n": n, "d": d, "eps": eps, "G": L, "beta": beta, "D": D}
    if delta > 0:
        vals["delta"] = delta
    branch = "eps" if delta == 0 else "approx"
    it = "zhang2017.alg1"
    if setting == "strongly-convex":
        mu = _const(objective, data, StronglyConvex, "mu")
        vals["mu"] = mu
        eta_set = _catalog(it, "eta_thm2", vals)
        T_set = _ceil_T(_catalog(it, f"T_thm2_{branch}", vals))
        theorem = "zhang2017.thm2"
    else:
        mu = None
        eta_set = _catalog(it, "eta_thm3", vals)
        T_set = _ceil_T(_catalog(it, f"T_thm3_{branch}", vals))
        theorem = "zhang2017.thm3"
    T = check_steps(T_set if T is None else _pos_int("T", T))
    eta = eta_set if eta is None else _pos_float("eta", eta)
    if Delta is None:
        if setting == "strongly-convex":
            if eta > 1 / (mu + beta) * (1 + 1e-12):
                raise ValueError(f"eta must be <= 1/(mu+beta) = {1 / (mu + beta):.6g} for "
                                 f"Lemma 3's sensitivity, got {eta}; give Delta explicitly")
            Delta = _catalog(it, "Dsens_thm2", vals)
        else:
            if eta > 1 / beta * (1 + 1e-12):
                raise ValueError(f"eta must be <= 1/beta = {1 / beta:.6g} for Lemma 2's "
                                 f"sensitivity, got {eta}; give Delta explicitly")
            Delta = 3 * L * T * eta / n          # Lemma 2; = Dsens_thm3 at eta = 1/beta
            if eta == eta_set:
                Delta = _catalog(it, "Dsens_thm3", {**vals, "T": T})
    Delta = _pos_float("Delta", Delta)
    vals["Dsens"] = Delta

    # ---- noise calibration
    if delta == 0:
        scale_paper = _catalog(it, "laplace_radius_scale", vals)          # Delta/eps
        scale = scale_paper                                               # already exact
        law = "l2-Laplace"
    else:
        scale_paper = math.sqrt(_catalog(it, "s2_gaussian", vals))
        scale = scale_paper if calibration == "paper" else analytic_gaussian_sigma(eps, delta, Delta)
        law = "gaussian"
    if noise_scale is not None:
        scale = _pos_float("noise_scale", noise_scale, allow_zero=True)

    w0v = _w0(w0, d)
    rec = Recorder(record)
    streams = ReplicateStreams(seed, reps, first_replicate)
    with Timer() as timer:
        w = w0v[None, :].copy()
        rec(0, w)
        for t in range(T):
            w = w - eta * objective.grad_F(w, data)
            rec(t + 1, w)
        wT = np.repeat(w, reps, axis=0)
        if law == "gaussian":
            z = streams.normal(d) * scale
        elif scale > 0:
            z = np.concatenate([l2_laplace(g, 1, d, scale) for g in streams.aux])
        else:
            z = np.zeros((reps, d))
        W = wT + z
    with Timer() as metric_timer:
        metrics = metrics_at(objective, data, W)
        Fmin = objective.minimum(data).value
        metrics["excess_risk_wT"] = np.full(reps, float(objective.F(w[0], data)) - Fmin)
        metrics["in_domain"] = np.asarray(objective.in_domain(W), dtype=float)

    # ---- privacy
    if law == "gaussian":
        if scale > 0:
            eps_paper = eps if scale == scale_paper else \
                math.sqrt(2 * math.log(2 / delta)) * Delta / scale
            exact_delta = float(gaussian_delta(eps_paper, sigma=scale, sensitivity=Delta))
            eps_tight = gaussian_epsilon(delta, sigma=scale, sensitivity=Delta)
        else:
            eps_paper, exact_delta, eps_tight = math.inf, 1.0, math.inf
        paper = {"epsilon": eps_paper, "delta": delta,
                 "route": "Gaussian output perturbation, s = sqrt(2 log(2/delta)) Delta/eps "
                          "(Thm 1 via Lemma 1, Delta from Lemma 3 / Lemma 2)",
                 "exact_delta": exact_delta, "holds_on_exact_curve": exact_delta <= delta}
        tight = {"epsilon": eps_tight, "delta": delta,
                 "route": "exact Gaussian privacy curve at sensitivity Delta (Balle-Wang 2018)"}
        if scale > 0:
            tight.update(two_sided(GaussianEvent(scale / Delta), delta, relation="replace-one"))
        noise = {"s": scale, "s_paper": scale_paper, "Delta": Delta}
    else:
        eps_k = Delta / scale if scale > 0 else math.inf
        paper = {"epsilon": eps_k, "delta": 0.0,
                 "route": "l2-Laplace (K-norm) output perturbation at scale Delta/eps (Thm 1)"}
        tight = {"epsilon": eps_k, "delta": 0.0,
                 "route": "l2-Laplace mechanism: privacy loss <= ||shift||/scale <= Delta/scale "
                          "(exact)"}
        if scale > 0:                  # pure DP: the loss Delta/scale is approached in the tail
            tight.update({"epsilon_lower": eps_k, "epsilon_upper": eps_k, "certified": "both",
                          "interval_method": "l2-Laplace: pure eps = Delta/scale, attained in "
                                             "the limit along the shift", "relation": "replace-one"})
        noise = {"laplace_scale": scale, "laplace_scale_paper": scale_paper, "Delta": Delta}
    params = {"setting": setting, "theorem": theorem, "T": T, "T_setting": T_set, "eta": eta,
              "Delta": Delta, "L": L, "beta": beta, "mu": mu, "D": D, "noise_law": law,
              "w0": w0v, "n": n, "d": d, "calibration": calibration,
              "ball_2D_within_domain": (objective.domain_radius is None
                                        or 2 * D <= objective.domain_radius)}
    return RunResult(algorithm=ALG1.id, w=W, metrics=metrics,
                     privacy={"paper": paper, "tight": tight}, noise=noise, params=params,
                     grad_evals=float(n * T), wall_time=timer.elapsed,
                     trajectory=_traj(rec, reps), seed=seed, first_replicate=first_replicate,
                     metric_time=metric_timer.elapsed, cpu_time=timer.cpu)


def _traj(rec: Recorder, reps: int) -> dict[str, np.ndarray] | None:
    out = rec.result()
    if out is not None and out["w"].ndim == 3 and out["w"].shape[0] == 1:
        out["w"] = np.repeat(out["w"], reps, axis=0)
    return out


# ---------------------------------------------------------------------------- Algorithm 2
def _random_rounds(streams: ReplicateStreams, weights: np.ndarray) -> np.ndarray:
    """R in {1..K} with P(R = k+1) proportional to weights[k], one per replicate (up front)."""
    cdf = np.cumsum(weights)
    cdf = cdf / cdf[-1]
    u = streams.uniform(1)[:, 0]
    return np.minimum(np.searchsorted(cdf, u, side="right"), len(weights) - 1) + 1


def run_alg2(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
             seed: int = 0, calibration: str = "paper", record: int | None = None,
             first_replicate: int = 0, eta: float | Sequence[float] | None = None,
             rounds: int | None = None, w0: Any = None, noise_scale: float | None = None,
             fixed_size_check: bool = True) -> RunResult:
    r"""Random Round Private SGD, RRPSGD (zhang2017 Algorithm 2).

    Algorithm
    ---------
    Draw R from P over [K] (K = n^2 as printed), P(R = k+1) = (2 eta_k - beta eta_k^2) /
    sum_r (2 eta_r - beta eta_r^2); for t = 0..R-1: xi uniform over S (independently at
    every step, i.e. with replacement across steps), z_t ~ N(0, s^2 I_d),
    ``w_{t+1} = w_t - eta_t (grad f(w_t, xi) + z_t)``; output ``w_priv = w_R``.

    * Noise (catalog ``zhang2017.alg2`` ``s2_rr``): s^2 = 4 L^2 log(3n/delta) log(2/delta)/
      eps^2 (the printed density exp(-eps^2 ||z||^2/(8 L^2 log(3n/delta) log(2/delta)))).
    * Step (Theorem 5): eta_k = min{1/beta, D_F/(sigma n)}, sigma^2 = 4L^2 + d s^2 (the
      catalog's sigma^2 of Theorem 5 at the paper noise), D_F = sqrt(2(F(w0) - F*)/beta) with
      F* = ``objective.minimum(data).value``. The step is constant, so P is uniform on
      {1..K}. D_F depends on the data (catalog note on Theorem 4): the simulator uses it as
      printed, and the privacy accounting, like the paper's, ignores it.
    * R is drawn per replicate up front and w_R is kept when step R is reached; all
      replicates step in lockstep to max R (later steps of a replicate are never used).
    * Cost is O(K d) per replicate with K = n^2; ``rounds`` overrides K (a documented
      deviation for large n; P and the accounting then use ``rounds``).

    Overrides: ``eta`` (a constant in (0, 2/beta) or a sequence of K such values),
    ``rounds``, ``w0`` (default 0), ``noise_scale`` (s; 0 gives non-private random-round SGD).

    Guarantee
    ---------
    Privacy: Theorem 4 (``zhang2017.thm4``) claims (eps, delta)-DP for eps in (0, 1]. The
    tight route accounts all K steps (R <= K is public and independent of the data): RDP of
    the sampled Gaussian at rate 1/n, noise multiplier s/(2L) (substitution shift 2L).
    Utility: Theorem 5 (``zhang2017.thm5``), E ||grad F(w_R)||^2.

    Reference
    ---------
    zhang2017, Algorithm 2 (Sec. 3.2), Theorems 4, 5; Ghadimi & Lan 2013 (Lemmas 11, 12).
    """
    eps, delta = check_privacy(eps, delta)
    reps = check_reps(reps)
    calibration = check_calibration(calibration)
    check_assumptions(ALG2, objective, data)
    n, d = data.n, data.d
    L = _const(objective, data, Lipschitz, "G")
    beta = _const(objective, data, Smooth, "beta")
    K = check_steps(n * n if rounds is None else _pos_int("rounds", rounds), "K")
    vals = {"n": n, "d": d, "eps": eps, "delta": delta, "G": L, "beta": beta}
    s_paper = math.sqrt(_catalog("zhang2017.alg2", "s2_rr", vals))
    if calibration == "paper":
        s = s_paper
    else:
        s = _poisson_multiplier(eps, delta, 1.0 / n, K) * 2 * L
    if noise_scale is not None:
        s = _pos_float("noise_scale", noise_scale, allow_zero=True)
    sigma = math.sqrt(4 * L ** 2 + d * s ** 2)               # Theorem 5's oracle sigma
    w0v = _w0(w0, d)
    F_star = objective.minimum(data).value
    gap = max(float(objective.F(w0v, data)) - F_star, 0.0)
    DF = math.sqrt(2 * gap / beta)
    if eta is None:
        eta_sched = np.full(K, min(1 / beta, DF / (sigma * n)))
        if eta_sched[0] <= 0:
            raise ValueError("eta = min{1/beta, D_F/(sigma n)} is 0 because F(w0) = F*; "
                             "give eta explicitly")
    else:
        e = np.asarray(eta, dtype=np.float64)
        if e.ndim == 0:
            e = np.full(K, float(e))
        if e.shape != (K,) or not np.all(np.isfinite(e)) or np.any(e <= 0) or \
                np.any(e >= 2 / beta):
            raise ValueError(f"eta must be a number or a sequence of {K} numbers in "
                             f"(0, 2/beta) = (0, {2 / beta:.6g})")
        eta_sched = e
    weights = 2 * eta_sched - beta * eta_sched ** 2

    rec = Recorder(record)
    streams = ReplicateStreams(seed, reps, first_replicate)
    with Timer() as timer:
        R = _random_rounds(streams, weights)
        W = np.repeat(w0v[None, :], reps, axis=0)
        out = W.copy()
        rec(0, W)
        rounds = int(R.max())
        # the sample indices and noise of a block of steps drawn at once (= step by step)
        block = block_steps(rounds, reps, 1 + d)
        grad_mean = objective.batch_grad_mean_kernel(data, reps, 1)
        for t in range(rounds):
            k = t % block
            if k == 0:
                kb = min(block, rounds - t)          # not K: params report K = n^2
                idx_blk = streams.indices(n, kb)[:, :, None]       # (reps, kb, 1)
                z_blk = streams.normal(kb, d) * s
            G = grad_mean(W, idx_blk[:, k])                        # one sample
            W = W - eta_sched[t] * (G + z_blk[:, k])
            hit = R == t + 1
            if hit.any():
                out[hit] = W[hit]
            rec(t + 1, W)
    with Timer() as metric_timer:
        metrics = metrics_at(objective, data, out)
        metrics["R"] = R.astype(float)
        metrics["in_domain"] = np.asarray(objective.in_domain(out), dtype=float)

    # ---- privacy
    if s > 0:
        eps_paper = eps if s == s_paper else \
            2 * L * math.sqrt(math.log(3 * n / delta) * math.log(2 / delta)) / s
    else:
        eps_paper = math.inf
    paper: dict[str, Any] = {
        "epsilon": eps_paper, "delta": delta,
        "route": "Thm 4: per-step privacy loss bound ('by [13]'), Lemma 9 amplification "
                 "alpha = 1/n, Lemma 10 strong composition with delta' = delta/2, T = R <= n^2",
        "hypothesis_eps_le_1": eps_paper <= 1}
    if s > 0 and math.isfinite(eps_paper):
        v = {"n": n, "delta": delta, "eps": eps_paper, "G": L}
        paper["eps_chain_lemma10_printed"] = _catalog("zhang2017.thm4",
                                                      "eps_comp_printed_lemma10", v)
        paper["eps_chain_dwork_roth"] = _catalog("zhang2017.thm4", "eps_comp_dwork_roth", v)
    tight = {"delta": delta, **_sampled_tight(s, 2 * L, delta, 1.0 / n, K, fixed_size_check)}
    params = {"K": K, "eta": float(eta_sched[0]) if np.all(eta_sched == eta_sched[0])
              else eta_sched, "sigma": sigma, "D_F": DF, "F_star": F_star, "L": L,
              "beta": beta, "w0": w0v, "R": R, "n": n, "d": d, "calibration": calibration,
              "P": "uniform on {1..K}" if np.all(weights == weights[0]) else "weighted"}
    return RunResult(algorithm=ALG2.id, w=out, metrics=metrics,
                     privacy={"paper": paper, "tight": tight},
                     noise={"s": s, "s_paper": s_paper}, params=params,
                     grad_evals=float(R.mean()), wall_time=timer.elapsed,
                     trajectory=rec.result(), seed=seed, first_replicate=first_replicate,
                     metric_time=metric_timer.elapsed, cpu_time=timer.cpu)


# ---------------------------------------------------------------------------- BST14
def bst14_paper_sigma(eps: float, delta: float, *, n: int, m: int, T: int,
                      L: float) -> dict[str, float]:
    """Noise std of the minibatch BST14 baseline by the advanced-composition route.

    Per step: the Gaussian mechanism on the minibatch mean gradient (substitution
    sensitivity 2L/m) is (eps_step, delta_step)-DP with the classic calibration
    s = sqrt(2 log(1.25/delta_step)) (2L/m)/eps_step; sampling m of n gives
    (2 q eps_step, q delta_step) (amplification lemma, zhang2017 Lemma 9, q = m/n); T steps
    compose by Dwork-Roth Thm 3.20 with delta' = delta/2, and delta_step = delta/(2 T q) so
    that T q delta_step + delta' = delta. eps_step solves the composed eps = ``eps``.
    """
    q = m / n
    dp = delta / 2
    delta_step = delta / (2 * T * q)

    def composed(e_amp: float) -> float:
        return advanced_composition_dwork_roth(e_amp, T, dp)[0] - eps

    # the bracket spans up to 600 decades (eps up to 1.8e308): Brent's bisection steps need
    # about 1100 iterations there, more than scipy's default 100
    e_amp = optimize.brentq(composed, 1e-300, eps, xtol=1e-300, rtol=1e-13, maxiter=3000) \
        if composed(eps) > 0 else eps
    eps_step = e_amp / (2 * q)
    assert abs(amplify_zhang2017(eps_step, delta_step, q)[0] - e_amp) <= 1e-12 * e_amp
    s = classic_gaussian_sigma(eps_step, min(delta_step, 0.999999), 2 * L / m)
    return {"s": s, "eps_step": eps_step, "delta_step": delta_step, "eps_amplified": e_amp}


def run_bst14(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
              seed: int = 0, calibration: str = "paper", record: int | None = None,
              first_replicate: int = 0, m: int | None = None, T: int | None = None,
              setting: str = "auto", radius: float | None = None, w0: Any = None,
              noise_scale: float | None = None, fixed_size_check: bool = True,
              transcript: list | None = None) -> RunResult:
    r"""Private SGD of Bassily, Smith, Thakurta 2014 ([1] of zhang2017), minibatch version.

    Algorithm
    ---------
    The standard noisy projected SGD of [1] as zhang2017 describes its experiments
    ("a mini-batch version of SGD in [1] with batch size m = 50 ... a natural implication of
    amplification lemma"): for t = 1..T, draw a batch B_t of m indices uniformly without
    replacement (independently per step), ``w_t = Pi_C(w_{t-1} - eta_t (mean_{i in B_t}
    grad f(w_{t-1}, xi_i) + z_t))`` with z_t ~ N(0, s^2 I_d), C the ball of radius
    ``radius`` (default the objective's ``domain_radius``, where its Lipschitz constant
    holds); output the last iterate w_T.

    * T = ceil(n^2/m): [1] runs n^2 single-sample steps; the minibatch version keeps the n^2
      gradient evaluations (q sqrt(T) = sqrt(m), so the per-step privacy is unchanged in
      order and the noise on the mean is sqrt(m) times smaller than on one sample).
    * Steps as in [1]: strongly convex eta_t = 1/(mu t) (the last-iterate analysis of
      Shamir-Zhang used by [1]); convex eta_t = ||C|| / sqrt(t (L^2 + d s^2)) with
      ||C|| = 2 radius (the diameter), i.e. [1]'s eta(t) = ||C||/sqrt(t (n^2 L^2 + d sigma^2))
      for the sum objective rewritten for the mean.
    * Noise (paper route): [1]'s printed constant (sigma^2 = 32 L^2 n^2 log(n/delta)
      log(1/delta)/eps^2 for the sum objective, as we recall [1]) is not in the seed papers;
      it is recomputed by the same route, see :func:`bst14_paper_sigma`. For m = 1,
      T = n^2 it gives about 64 L^2 log(2.5 n/delta) log(2/delta)/eps^2 per sample.

    Overrides: ``m`` (default min(50, n)), ``T``, ``setting``, ``radius``, ``w0`` (default
    0), ``noise_scale``. ``transcript``: a list to which every step appends its iterate
    ``w`` and its noisy gradient ``release`` (before the projection: the transcript the
    privacy proof composes), for the transcript audit.

    Guarantee
    ---------
    Privacy: Gaussian mechanism + amplification (zhang2017 Lemma 9) + advanced composition
    (Dwork-Roth 3.20); tight: RDP of T sampled Gaussian steps, rate m/n, multiplier
    s m/(2L). Utility: the Bassily column of ``zhang2017.table1``.

    Reference
    ---------
    Bassily, Smith, Thakurta, FOCS 2014, Algorithm 1 (noisy SGD); zhang2017 Sec. 4.
    """
    eps, delta = check_privacy(eps, delta)
    reps = check_reps(reps)
    calibration = check_calibration(calibration)
    check_assumptions(BST14, objective, data)
    _check_convexity(objective, data, BST14.id, "Bassily et al. [1]")
    setting = _check_setting(setting, objective, data)
    n, d = data.n, data.d
    m = min(50, n) if m is None else _pos_int("m", m)
    if m > n:
        raise ValueError(f"m must be <= n = {n}, got {m}")
    q = m / n
    T = check_steps(int(math.ceil(n * n / m)) if T is None else _pos_int("T", T))
    L = _const(objective, data, Lipschitz, "G")
    if radius is None:
        if objective.domain_radius is None:
            raise ValueError("radius must be given: the objective has no domain_radius")
        radius = objective.domain_radius
    radius = _pos_float("radius", radius)
    D = _const(objective, data, BoundedMinimizer, "D")
    mu = _const(objective, data, StronglyConvex, "mu") if setting == "strongly-convex" else None

    route = bst14_paper_sigma(eps, delta, n=n, m=m, T=T, L=L)
    s_paper = route["s"]
    if calibration == "paper":
        s = s_paper
    else:
        s = _poisson_multiplier(eps, delta, q, T) * 2 * L / m
    if noise_scale is not None:
        s = _pos_float("noise_scale", noise_scale, allow_zero=True)
    diam = 2 * radius
    w0v = _w0(w0, d)
    if np.linalg.norm(w0v) > radius:
        raise ValueError(f"w0 must lie in the ball of radius {radius}")

    rec = Recorder(record)
    streams = ReplicateStreams(seed, reps, first_replicate)
    with Timer() as timer:
        W = np.repeat(w0v[None, :], reps, axis=0)
        rec(0, W)
        # the mini-batches and noise of a block of steps drawn at once (= step by step)
        block = block_steps(T, reps, m + d)
        for t in range(1, T + 1):
            k = (t - 1) % block
            if k == 0:
                K = min(block, T - t + 1)
                idx_blk = streams.subsets(n, m, steps=K)
                z_blk = streams.normal(K, d) * s
                ts = np.arange(t, t + K, dtype=np.float64)
                eta_blk = 1 / (mu * ts) if mu is not None else \
                    diam / np.sqrt(ts * (L ** 2 + d * s ** 2))
            G = objective.batch_grad_mean(W, data, idx_blk[:, k])
            if transcript is not None:
                transcript.append({"w": W.copy(), "release": G + z_blk[:, k]})
            W = W - eta_blk[k] * (G + z_blk[:, k])
            nrm = np.sqrt(np.einsum("rd,rd->r", W, W))[:, None]
            W = W * np.minimum(1.0, radius / np.maximum(nrm, 1e-300))   # projection onto C
            rec(t, W)
    with Timer() as metric_timer:
        metrics = metrics_at(objective, data, W)

    if s > 0:
        if s == s_paper:
            eps_paper = eps
        else:                                   # invert the (monotone) paper route in eps
            def gap(e: float) -> float:
                return math.log(bst14_paper_sigma(e, delta, n=n, m=m, T=T, L=L)["s"] / s)
            lo, hi = eps, eps
            while gap(lo) < 0:
                lo /= 2
            while gap(hi) > 0:
                hi *= 2
            eps_paper = optimize.brentq(gap, lo, hi, rtol=1e-10) if lo < hi else eps
    else:
        eps_paper = math.inf
    paper = {"epsilon": eps_paper, "delta": delta,
             "route": "classic Gaussian per step, amplification (2q eps, q delta) (Lemma 9), "
                      "Dwork-Roth advanced composition over T steps with delta' = delta/2",
             "eps_step": route["eps_step"], "delta_step": route["delta_step"],
             "classic_gaussian_in_range": route["eps_step"] < 1}
    tight = {"delta": delta, **_sampled_tight(s, 2 * L / m, delta, q, T, fixed_size_check)}
    params = {"m": m, "q": q, "T": T, "setting": setting, "radius": radius, "L": L, "mu": mu,
              "D": D, "minimizer_in_C": D <= radius, "w0": w0v, "n": n, "d": d,
              "step": "1/(mu t)" if mu is not None else "||C||/sqrt(t (L^2 + d s^2))",
              "calibration": calibration}
    return RunResult(algorithm=BST14.id, w=W, metrics=metrics,
                     privacy={"paper": paper, "tight": tight},
                     noise={"s": s, "s_paper": s_paper}, params=params,
                     grad_evals=float(m * T), wall_time=timer.elapsed,
                     trajectory=rec.result(), seed=seed, first_replicate=first_replicate,
                     metric_time=metric_timer.elapsed, cpu_time=timer.cpu)


# ---------------------------------------------------------------------------- registry
ALG1 = Algorithm(
    id="zhang2017.alg1", paper="zhang2017", title="Output Perturbation Full Gradient Descent",
    run=run_alg1, theorem="zhang2017.thm2", privacy_theorem="zhang2017.thm1",
    requires=(Smooth, Lipschitz, BoundedMinimizer),
    notes="Theorem 2 when the objective declares StronglyConvex, else Theorem 3 (convex); "
          "run() also requires Convex or StronglyConvex (a disjunction `requires` cannot "
          "express). delta = 0 gives the eps-DP l2-Laplace branch.")
ALG2 = Algorithm(
    id="zhang2017.alg2", paper="zhang2017", title="Random Round Private SGD (RRPSGD)",
    run=run_alg2, theorem="zhang2017.thm5", privacy_theorem="zhang2017.thm4",
    requires=(Lipschitz, Smooth),
    notes="R uniform on {1..n^2} (constant step); cost O(n^2 d); D_F from objective.minimum.")
BST14 = Algorithm(
    id="zhang2017.bst14", paper="zhang2017", title="Bassily-Smith-Thakurta 2014 private SGD "
    "(minibatch m = 50)", run=run_bst14, theorem="zhang2017.table1",
    privacy_theorem="zhang2017.lemma10", requires=(Lipschitz, BoundedMinimizer),
    baseline=True,
    notes="Projected noisy SGD on the ball where L holds; T = n^2/m; noise by Gaussian + "
          "amplification + advanced composition. run() also requires Convex or StronglyConvex.")

ALGORITHMS: list[Algorithm] = [ALG1, ALG2, BST14]
