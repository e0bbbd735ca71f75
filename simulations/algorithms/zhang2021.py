"""zhang2021 — DP-EMSGD and DPageEM (Zhang, Ma, Lou, Xiong, IJCAI 2021) and the baselines of
its experiments, vectorised over replicates.

Algorithms
----------
=============================  ===========================================================
id                             what
=============================  ===========================================================
``zhang2021.alg2``             DP-EMSGD: one stage, early momentum, output uniform iterate
``zhang2021.alg1``             DPageEM: K stages, eta^k = 2^-k eta0, T^k = 2^k T0,
                               t^k_Mon = 2^k t0_Mon, stage output = next stage's start
``zhang2021.dpages``           DPageS: DPageEM with t0_Mon = 0 (momentum always off)
``zhang2021.nonpri-sgd-stage`` non-private stagewise SGD (DPageS with pi = 0)
``zhang2021.dpsgd-const``      DP-SGD, constant step, last iterate
``zhang2021.dpsgd-c-t``        DP-SGD, step c/t
``zhang2021.dpsgd-c-sqrt-t``   DP-SGD, step c/sqrt(t)
``zhang2021.dpsgdm-const``     DP momentum SGD (heavy ball at every step), constant step
``zhang2021.dpsgdem-const``    DP early-momentum SGD, constant step, last iterate
=============================  ===========================================================

Privacy (all private variants)
------------------------------
Every step adds xi_t ~ N(0, pi^2 I_d) to the AVERAGE of B per-sample gradients of a fresh
uniform size-B subset drawn without replacement (Sec. 3.2, Balle et al. 2018, q = B/n).
Substitution neighbours (Def. 2.1) and L-Lipschitz losses give sensitivity 2L/B.

* ``paper`` route: eq. (4) of Thm 3.1, pi^2 = c2^2 (sum_k T^k) L^2 log(1/delta)/(n^2 eps^2),
  evaluated from the catalog (``dptheory_bounds.zhang2021``: ``alg1``'s ``piN2_eq4``; for one stage
  and the baselines the same relation with T total steps, ``thm2.1.corrected``). The
  constant c2 is not given in the paper. Default ``c2=None``: the smallest c2 for which
  eq. (4)'s pi is (eps, delta)-DP by the tight accountant at the given setting (n, B, total
  steps, eps, delta), i.e. c2* = pi_tight / pi_eq4(c2 = 1). Pass a number (e.g. ``c2=1``) to
  use a fixed constant; then ``privacy["tight"]["epsilon"]`` shows what it really buys.
  The paper-route epsilon of a noise pi inverts eq. (4): eps = c2 L sqrt(T log(1/delta))/(n pi).
* ``tight`` route: RDP of the fixed-size subsampled Gaussian under substitution (Wang, Balle,
  Kasiviswanathan 2019, Thm 9 + 27; ``dptheory.privacy.rdp_fixed_size_gaussian``) with
  noise multiplier pi B / (2L), composed over all steps, improved RDP -> DP conversion.
  The stage structure and the random output are post-processing.

Choices where the printed text is ambiguous (see each docstring)
---------------------------------------------------------------
* Indices of Alg. 2: the printed update w_{t+1} = w_t - ... + rho_t (w_t - w_{t-1}) for
  t = 1..T with inputs (w_0, w_{-1}) is off by one; step t here maps (w_{t-1}, w_{t-2}) to
  w_t, so T steps produce w_1..w_T, the set the output is drawn from, and rho_t = varrho
  exactly for steps t = 1..t_Mon (the printed switch).
* Alg. 1 line 2 passes (w^{k-1}, w^{k-1}): momentum restarts at zero every stage, and the
  next stage starts from the stage's OUTPUT w_O (a uniformly sampled iterate).
* Utility assumptions: Thm 3.2 needs Lipschitz, Smooth, BoundedVariance, PL and one-point
  WeaklyQuasiConvex. BoundedVariance is implied by Lipschitz with sigma <= L
  (E_i||g_i - mean g||^2 <= E_i||g_i||^2 <= L^2), so ``requires`` lists the other four and
  sigma defaults to the declared BoundedVariance constant, else to L.
* The Lipschitz constant of the objective families holds on a ball (``domain_radius``);
  the printed algorithm has no projection. ``metrics["left_domain"]`` flags replicates
  whose trajectory left that ball (where the sensitivity 2L/B is no longer certified).
  ``clip=C`` optionally clips per-sample gradients at C (then L := C in both routes);
  ``clip=inf`` is the unclipped algorithm.

Reference: Q. Zhang, J. Ma, J. Lou, L. Xiong, *Private Stochastic Non-convex Optimization with
Improved Utility Rates*, IJCAI 2021, Algorithms 1-2, Theorems 3.1-3.2, Sec. 4.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import sympy as sp

from dptheory_bounds import zhang2021 as _cat
from dptheory.budget import check_steps
from dptheory.privacy import get_epsilon, get_noise_multiplier
from dptheory.symbolic.assumptions import (BoundedVariance, Lipschitz, PL, Smooth,
                                           WeaklyQuasiConvex)
from dptheory_simulations.algorithms.base import sampled_steps, two_sided
from dptheory_simulations.algorithms.base import check_int as _int_param
from dptheory_simulations.algorithms.base import (Algorithm, Recorder, ReplicateStreams, RunResult, Timer,
                                         check_calibration, check_privacy, check_reps,
                                         block_steps, clip_factors, metrics_at,
                                         weighted_batch_sum)

PAPER = "zhang2021"
UTILITY_THEOREM = "zhang2021.thm3.2"
PRIVACY_THEOREM = "zhang2021.thm3.1"
#: What Thm 3.2 assumes; BoundedVariance is implied by Lipschitz (sigma <= L), see module doc.
THEOREM_ASSUMPTIONS = (Lipschitz, Smooth, BoundedVariance, PL, WeaklyQuasiConvex)
REQUIRES = (Lipschitz, Smooth, PL, WeaklyQuasiConvex)

PAPER_ROUTE = ("moments accountant as printed: eq. (4) of Thm 3.1 (pi^2 = c2^2 sum_k T^k L^2 "
               "log(1/delta)/(n^2 eps^2)), eps = c2 L sqrt(T log(1/delta))/(n pi)")
TIGHT_ROUTE = ("RDP of the fixed-size (without replacement) subsampled Gaussian, substitution, "
               "sensitivity 2L/B on the averaged gradient (Wang-Balle-Kasiviswanathan 2019 "
               "Thm 9+27), composed over all steps, improved conversion")

# ------------------------------------------------------------------ catalog expressions
_ITEMS = {it.id: it for it in _cat.ITEMS}
_ALG1, _THM21C, _THM32 = (_ITEMS["zhang2021.alg1"], _ITEMS["zhang2021.thm2.1.corrected"],
                          _ITEMS["zhang2021.thm3.2"])
_S = _cat
#: eq. (4) as a function of the stage schedule (catalog: alg1.expressions["piN2_eq4"])
_PI2_EQ4 = sp.lambdify((_S.n, _S.eps, _S.delta, _S.L, _S.c2, _S.K, _S.T0),
                       _ALG1.expressions["piN2_eq4"], "math")
#: eq. (4) with T total steps (catalog: thm2.1.corrected, relation "noise", right side)
_PI_T = sp.lambdify((_S.n, _S.eps, _S.delta, _S.L, _S.c2, _S.T),
                    _THM21C.relations["noise"].rhs, "math")
#: K of Thm 3.2 (catalog: thm3.2.settings[K]) and the effective stage length X
_K_SET = sp.lambdify((_S.n, _S.eps, _S.delta, _S.L, _S.d, _S.mu, _S.theta),
                     _THM32.settings[_S.K], "math")
_X = sp.lambdify((_S.T0, _S.tMon0, _S.varrho), _THM32.expressions["X"], "math")


def pi_eq4(*, n: int, eps: float, delta: float, L: float, c2: float, T: int) -> float:
    """eq. (4)'s noise std pi for T total steps (catalog ``thm2.1.corrected``)."""
    return float(_PI_T(n, eps, delta, L, c2, T))


def pi_eq4_stages(*, n: int, eps: float, delta: float, L: float, c2: float, K: int,
                  T0: int) -> float:
    """eq. (4)'s pi for DPageEM's schedule, sum_k T^k = 2 T0 (2^K - 1) (catalog ``alg1``)."""
    return float(math.sqrt(_PI2_EQ4(n, eps, delta, L, c2, K, T0)))


@functools.lru_cache(maxsize=512)
def eps_tight(pi: float, *, L: float, B: int, n: int, steps: int, delta: float) -> float:
    """epsilon of ``steps`` fixed-size-subsampled Gaussian steps with std pi on the mean of B
    per-sample gradients of norm <= L (substitution: sensitivity 2L/B)."""
    if pi <= 0:
        return math.inf
    return float(get_epsilon(noise_multiplier=pi * B / (2.0 * L), target_delta=delta,
                             sample_rate=B / n, steps=steps, sampling="fixed-size"))


@functools.lru_cache(maxsize=512)
def pi_tight(*, eps: float, delta: float, L: float, B: int, n: int, steps: int) -> float:
    """Smallest std pi (rtol 1e-5) with eps_tight(pi) <= eps."""
    z = get_noise_multiplier(target_epsilon=eps, target_delta=delta, sample_rate=B / n,
                             steps=steps, sampling="fixed-size")
    return float(z * 2.0 * L / B)


# ------------------------------------------------------------------ validation helpers


def _real_param(name: str, v: Any, *, lo: float = 0.0, lo_open: bool = True,
                hi: float | None = None, hi_open: bool = True, allow_inf: bool = False) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {v!r}") from None
    if isinstance(v, bool) or math.isnan(x) or (math.isinf(x) and not allow_inf):
        raise ValueError(f"{name} must be a finite real number, got {v!r}")
    bad = (x <= lo if lo_open else x < lo) or \
        (hi is not None and (x >= hi if hi_open else x > hi))
    if bad:
        left = "(" if lo_open else "["
        right = ("]" if not hi_open else ")") if hi is not None else ")"
        raise ValueError(f"{name} must be in {left}{lo}, {hi if hi is not None else 'inf'}{right}, "
                         f"got {v!r}")
    return x


def constants(objective: Any, data: Any) -> dict[str, float]:
    """Certified constants L (=G), beta, mu, theta, sigma of ``objective`` on ``data``.

    Missing ones are NaN; sigma falls back to L (Lipschitz implies sigma <= L)."""
    out = {"L": math.nan, "beta": math.nan, "mu": math.nan, "theta": math.nan,
           "sigma": math.nan}
    for a in objective.assumptions(data):
        if isinstance(a, Lipschitz):
            out["L"] = float(a.G)
        elif isinstance(a, Smooth):
            out["beta"] = float(a.beta)
        elif isinstance(a, PL):
            out["mu"] = float(a.mu)
        elif isinstance(a, WeaklyQuasiConvex):
            out["theta"] = float(a.theta)
        elif isinstance(a, BoundedVariance):
            out["sigma"] = float(a.sigma)
    if math.isnan(out["sigma"]):
        out["sigma"] = out["L"]
    return out


def _need(c: dict[str, float], names: tuple[str, ...], objective: Any, what: str) -> None:
    missing = [k for k in names if not np.isfinite(c[k])]
    if missing:
        raise ValueError(f"objective {objective.name!r} declares no constant {', '.join(missing)} "
                         f"needed for the default {what}; pass it explicitly")


def _w0(w0: Any, reps: int, d: int) -> np.ndarray:
    if w0 is None:
        return np.zeros((reps, d))
    W = np.asarray(w0, dtype=np.float64)
    if W.shape == (d,):
        return np.broadcast_to(W, (reps, d)).copy()
    if W.shape == (reps, d):
        return W.copy()
    raise ValueError(f"w0 must have shape ({d},) or ({reps}, {d}), got {W.shape}")


# ------------------------------------------------------------------ the engine
@dataclass(frozen=True)
class Stage:
    """One call of DP-EMSGD: T steps, step size eta(t) (t = 1..T, local), momentum varrho on
    for t <= t_mon; output ``"uniform"`` (w_O uniform over w_1..w_T) or ``"last"``."""

    T: int
    t_mon: int
    eta: Callable[[int], float]
    varrho: float
    output: str = "uniform"


def run_stages(objective: Any, data: Any, stages: list[Stage], *, pi: float, B: int,
               W0: np.ndarray, streams: ReplicateStreams, recorder: Recorder | None = None,
               clip: float | None = None, Wm1: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Run the stages in sequence, all replicates at once; returns (output, left_domain).

    Each stage restarts momentum (previous point = start point, Alg. 1 line 2; ``Wm1``
    overrides w_{-1} of the first stage, Alg. 2's input) and starts
    from the previous stage's output. Per step: a fresh uniform size-B subset without
    replacement, the mean of its per-sample gradients (clipped at ``clip`` if given),
    N(0, pi^2 I_d) noise (not drawn when pi = 0), and the heavy-ball update.
    """
    n, d = data.n, objective.d
    W = W0.copy()
    radius = objective.domain_radius
    left = np.zeros(W.shape[0], dtype=bool)
    if radius is not None:
        left |= np.linalg.norm(W, axis=1) > radius * (1 + 1e-12)
    t_glob = 0
    # a divergent run overflows on the way; it is reported once, below, as a ValueError
    with np.errstate(over="ignore", invalid="ignore"):
        for s_i, st in enumerate(stages):
            W_prev = Wm1.copy() if (s_i == 0 and Wm1 is not None) else W.copy()
            if st.output == "uniform":
                # index of w_O drawn up front; keep the iterate when reached (O(reps d) memory)
                O = 1 + np.minimum((streams.uniform(1)[:, 0] * st.T).astype(np.int64), st.T - 1)
                keep = W.copy()
            # subsets and noise of a block of steps drawn at once (equal to one step at a time)
            block = block_steps(st.T, W.shape[0], B + d)
            for t in range(1, st.T + 1):
                k = (t - 1) % block
                if k == 0:
                    K = min(block, st.T - t + 1)
                    idx_blk = streams.subsets(n, B, steps=K)
                    xi_blk = streams.normal(K, d) if pi > 0 else None
                idx = idx_blk[:, k]
                if clip is None:
                    gbar = objective.batch_grad_mean(W, data, idx)
                else:
                    g = objective.batch_grad(W, data, idx)
                    gbar = weighted_batch_sum(g, clip_factors(g, clip)) / B
                if xi_blk is not None:
                    gbar += pi * xi_blk[:, k]
                rho_t = st.varrho if t <= st.t_mon else 0.0
                W_new = W - st.eta(t) * gbar
                if rho_t:
                    W_new += rho_t * (W - W_prev)
                W_prev, W = W, W_new
                if st.output == "uniform":
                    hit = O == t
                    if hit.any():
                        keep[hit] = W[hit]
                if radius is not None:
                    left |= np.linalg.norm(W, axis=1) > radius * (1 + 1e-12)
                t_glob += 1
                if recorder is not None:
                    recorder(t_glob, W)
            if st.output == "uniform":
                W = keep
    if not np.all(np.isfinite(W)):
        raise ValueError("iterates diverged (non-finite values); reduce the step size eta")
    return W, left


# ------------------------------------------------------------------ defaults of Thm 3.2
def theorem_defaults(objective: Any, data: Any, *, eps: float, delta: float,
                     varrho: float = 0.5, c4: float = 1.0, tmon_frac: float = 0.5
                     ) -> dict[str, Any]:
    """Settings of Thm 3.2 from the objective's certified constants.

    * eta0 = theta (1-varrho)^2 / (2 beta) (the hypothesis eta0 <= max{theta(1-varrho)^2/
      (2 beta), 1}; the dimensionally consistent branch), then T0, t0_Mon = round(tmon_frac
      T0) as the smallest integers with eta0 X >= 1/(c4 theta mu), X = (T0 - t0_Mon) +
      t0_Mon/(2(1-varrho)), and eta0 is lowered to make eta0 X = 1/(c4 theta mu) exact.
    * K = max(1, ceil(log2(n^2 eps^2 theta^2 mu/(d L^2 log(1/delta))))) (Thm 3.2, K = Omega(.)).
    * B = ceil(sqrt(n)) (not given in our text: a conventional choice).
    Conventional values (paper's supplement not available): varrho = 0.5, c4 = 1 (middle of
    (0, 2)), tmon_frac = 0.5.
    """
    c = constants(objective, data)
    _need(c, ("L", "beta", "mu", "theta"), objective, "Thm 3.2 settings")
    n, d = data.n, objective.d
    eta0 = c["theta"] * (1 - varrho) ** 2 / (2 * c["beta"])
    target = 1.0 / (c4 * c["theta"] * c["mu"])
    per_T0 = (1 - tmon_frac) + tmon_frac / (2 * (1 - varrho))
    T0 = max(1, math.ceil(target / eta0 / per_T0))
    tmon0 = int(round(tmon_frac * T0))
    X = _X(T0, tmon0, varrho)
    while eta0 * X < target:           # rounding of t0_Mon can leave X short
        T0 += 1
        tmon0 = int(round(tmon_frac * T0))
        X = _X(T0, tmon0, varrho)
    eta0 = target / X
    arg = _K_SET(n, eps, delta, c["L"], d, c["mu"], c["theta"])
    K = max(1, math.ceil(arg)) if np.isfinite(arg) else 1
    B = min(n, max(1, math.ceil(math.sqrt(n))))
    return {"eta0": float(eta0), "T0": int(T0), "tMon0": int(tmon0), "K": int(K), "B": int(B),
            "varrho": float(varrho), "c4": float(c4), "X": float(X), **c}


# ------------------------------------------------------------------ privacy helpers
def _calibrate(*, calibration: str, pi: float | None, c2: float | None, eps: float,
               delta: float, L: float, B: int, n: int, steps: int,
               pi1: float) -> tuple[float, float, dict[str, dict[str, Any]], dict[str, str]]:
    """(pi used, c2 used, privacy dict, rules). ``pi1`` = eq. (4)'s pi at c2 = 1."""
    kw = dict(eps=eps, delta=delta, L=L, B=B, n=n, steps=steps)
    if c2 is None:
        c2 = pi_tight(**kw) / pi1
        c2_rule = "c2* = smallest c2 for which eq. (4) is private by the tight accountant"
    else:
        c2_rule = "given"
    if pi is not None:
        noise_rule = "explicit pi"
    elif calibration == "tight":
        pi, noise_rule = pi_tight(**kw), "tight accountant (smallest pi with eps_tight <= eps)"
    else:
        pi, noise_rule = c2 * pi1, "eq. (4) of Thm 3.1 with equality"
    eps_paper = math.inf if pi == 0 else c2 * pi1 * eps / pi   # invert eq. (4): pi ∝ 1/eps
    privacy = {"paper": {"epsilon": eps_paper, "delta": delta, "route": PAPER_ROUTE, "c2": c2},
               "tight": {"epsilon": eps_tight(float(pi), L=L, B=B, n=n, steps=steps,
                                              delta=delta),
                         "delta": delta, "route": TIGHT_ROUTE}}
    if pi > 0:                         # the mechanism as run: sensitivity 2L/B on the mean
        privacy["tight"].update(two_sided(sampled_steps(B / n, pi * B / (2.0 * L), steps),
                                          delta))
    return float(pi), float(c2), privacy, {"c2_rule": c2_rule, "noise_rule": noise_rule}


def _common(objective: Any, data: Any, eps: Any, delta: Any, reps: Any, calibration: str,
            private: bool = True) -> tuple[float, float, int]:
    reps = check_reps(reps)
    calibration = check_calibration(calibration)
    if private or eps is not None or delta is not None:
        eps, delta = check_privacy(eps, delta)
    objective._check_data(data)
    return eps, delta, reps


def _check_clip_pi(clip: Any, pi: Any) -> tuple[float | None, float | None]:
    if clip is not None:
        clip = _real_param("clip", clip, allow_inf=True)
        if math.isinf(clip):
            clip = None                # C = inf: no clipping (the printed algorithm)
    if pi is not None:
        pi = _real_param("pi", pi, lo_open=False)
    return clip, pi


def _finish(alg_id: str, objective: Any, data: Any, W: np.ndarray, left: np.ndarray,
            privacy: dict, noise: dict, params: dict, steps: int, B: int, timer: Timer,
            recorder: Recorder, seed: int, first_replicate: int) -> RunResult:
    with Timer() as metric_timer:
        metrics = metrics_at(objective, data, W)
    metrics["left_domain"] = left.astype(float)
    return RunResult(algorithm=alg_id, w=W, metrics=metrics, privacy=privacy, noise=noise,
                     params=params, grad_evals=float(B * steps), wall_time=timer.elapsed,
                     trajectory=recorder.result(), seed=seed, first_replicate=first_replicate,
                     metric_time=metric_timer.elapsed, cpu_time=timer.cpu)


# ------------------------------------------------------------------ Algorithm 1 (+ DPageS)
def _run_stagewise(alg_id: str, objective: Any, data: Any, *, eps: Any, delta: Any,
                   reps: int, seed: int, calibration: str, record: int | None,
                   first_replicate: int, private: bool, force_tmon0: int | None,
                   eta0: float | None, T0: int | None, tMon0: int | None, K: int | None,
                   B: int | None, varrho: float, c4: float, tmon_frac: float,
                   c2: float | None, pi: float | None, clip: float | None, w0: Any
                   ) -> RunResult:
    with Timer() as timer:
        eps, delta, reps = _common(objective, data, eps, delta, reps, calibration, private)
        varrho = _real_param("varrho", varrho, lo_open=False, hi=1.0)
        c4 = _real_param("c4", c4, hi=2.0)
        tmon_frac = _real_param("tmon_frac", tmon_frac, lo_open=False, hi=1.0, hi_open=False)
        clip, pi = _check_clip_pi(clip, pi)
        if c2 is not None:
            c2 = _real_param("c2", c2)
        n, d = data.n, objective.d
        need_defaults = any(v is None for v in (eta0, T0, K, B)) or \
            (tMon0 is None and force_tmon0 is None)
        dflt = theorem_defaults(objective, data, eps=eps if eps is not None else 1.0,
                                delta=delta if delta is not None else 1e-5, varrho=varrho,
                                c4=c4, tmon_frac=tmon_frac) if need_defaults else {}
        eta0 = _real_param("eta0", dflt["eta0"] if eta0 is None else eta0)
        T0 = _int_param("T0", dflt["T0"] if T0 is None else T0, 1)
        K = _int_param("K", dflt["K"] if K is None else K, 1)
        B = _int_param("B", dflt["B"] if B is None else B, 1, n)
        if force_tmon0 is not None:
            if tMon0 not in (None, force_tmon0):
                raise ValueError(f"tMon0 must be {force_tmon0} for {alg_id}, got {tMon0!r}")
            tMon0 = force_tmon0
        elif tMon0 is None:
            tMon0 = int(round(tmon_frac * T0))
        tMon0 = _int_param("tMon0", tMon0, 0, T0)
        c = constants(objective, data)
        L = clip if clip is not None else c["L"]
        steps = check_steps(2 * T0 * (2 ** K - 1))          # sum_k T^k (catalog alg1 total_iters)
        params: dict[str, Any] = {"eta0": eta0, "T0": T0, "tMon0": tMon0, "K": K, "B": B,
                                  "varrho": varrho, "c4": c4, "clip": clip, "L": L,
                                  "total_steps": steps, "calibration": calibration,
                                  "sampling": "uniform without replacement, fresh each step",
                                  "output": "w^K = last stage's uniformly sampled iterate",
                                  "eta_k": [eta0 * 2.0 ** -k for k in range(1, K + 1)],
                                  "T_k": [T0 * 2 ** k for k in range(1, K + 1)],
                                  "tMon_k": [tMon0 * 2 ** k for k in range(1, K + 1)]}
        if private:
            if not np.isfinite(L):
                raise ValueError(f"objective {objective.name!r} declares no Lipschitz constant; "
                                 "pass clip=C to bound the sensitivity")
            pi1 = pi_eq4_stages(n=n, eps=eps, delta=delta, L=L, c2=1.0, K=K, T0=T0)
            pi, c2, privacy, rules = _calibrate(calibration=calibration, pi=pi, c2=c2,
                                                eps=eps, delta=delta, L=L, B=B, n=n,
                                                steps=steps, pi1=pi1)
            params.update({"c2": c2, **rules, "pi_eq4_c2_1": pi1,
                           # side condition of Thm 3.1: eps < c1 (B/n)^2 sum_k T^k
                           "eps_condition_rhs_over_c1": (B / n) ** 2 * steps})
        else:
            pi = 0.0
            privacy = {"paper": {"epsilon": math.inf, "delta": delta, "route": "non-private"},
                       "tight": {"epsilon": math.inf, "delta": delta, "route": "non-private"}}
        stages = [Stage(T=T0 * 2 ** k, t_mon=tMon0 * 2 ** k,
                        eta=(lambda t, e=eta0 * 2.0 ** -k: e), varrho=varrho)
                  for k in range(1, K + 1)]
        streams = ReplicateStreams(seed, reps, first_replicate)
        recorder = Recorder(record)
        W, left = run_stages(objective, data, stages, pi=pi, B=B, W0=_w0(w0, reps, d),
                             streams=streams, recorder=recorder, clip=clip)
    return _finish(alg_id, objective, data, W, left, privacy,
                   {"pi": pi, "noise_std_per_coordinate": pi, "noise_variance": pi ** 2},
                   params, steps, B, timer, recorder, seed, first_replicate)


def dpageem(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
            seed: int = 0, calibration: str = "paper", record: int | None = None,
            first_replicate: int = 0, eta0: float | None = None, T0: int | None = None,
            tMon0: int | None = None, K: int | None = None, B: int | None = None,
            varrho: float = 0.5, c4: float = 1.0, tmon_frac: float = 0.5,
            c2: float | None = None, pi: float | None = None, clip: float | None = None,
            w0: Any = None) -> RunResult:
    """DPageEM — stagewise DP-SGD with early momentum.

    Algorithm (Alg. 1, schedules of Thm 3.2)::

        for k = 1..K:  w^k = DP-EMSGD(F_S, w^{k-1}, w^{k-1}, eta^k, T^k, t^k_Mon, varrho)
            eta^k = 2^-k eta0,  T^k = 2^k T0,  t^k_Mon = 2^k t0_Mon
        output w^K
        noise: pi^2 = c2^2 (sum_k T^k) L^2 log(1/delta)/(n^2 eps^2)   (eq. (4))

    Each DP-EMSGD stage: see :func:`dp_emsgd`; its output w_O (uniform over the stage's
    iterates) is the next stage's start, and momentum restarts (w_{-1} = w_0).

    Guarantee: privacy zhang2021.thm3.1; excess empirical risk zhang2021.thm3.2.

    Defaults: :func:`theorem_defaults` (eta0, T0, t0_Mon, K, B from the certified L, beta,
    mu, theta). ``c2=None``: smallest c2 making eq. (4) private by the tight accountant.
    ``pi`` overrides the noise std (e.g. 0 for the non-private twin); ``clip=C`` clips
    per-sample gradients (L := C); ``w0`` the start point (default 0).

    Reference: Zhang, Ma, Lou, Xiong, IJCAI 2021, Algorithm 1.
    """
    return _run_stagewise("zhang2021.alg1", objective, data, eps=eps, delta=delta, reps=reps,
                          seed=seed, calibration=calibration, record=record,
                          first_replicate=first_replicate, private=True, force_tmon0=None,
                          eta0=eta0, T0=T0, tMon0=tMon0, K=K, B=B, varrho=varrho, c4=c4,
                          tmon_frac=tmon_frac, c2=c2, pi=pi, clip=clip, w0=w0)


def dpages(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
           seed: int = 0, calibration: str = "paper", record: int | None = None,
           first_replicate: int = 0, eta0: float | None = None, T0: int | None = None,
           tMon0: int | None = None, K: int | None = None, B: int | None = None,
           varrho: float = 0.5, c4: float = 1.0, c2: float | None = None,
           pi: float | None = None, clip: float | None = None, w0: Any = None) -> RunResult:
    """DPageS — DPageEM with momentum always off (t0_Mon = 0), the paper's named variant.

    Algorithm: :func:`dpageem` with t^k_Mon = 0 (stagewise DP-SGD, eta^k = 2^-k eta0,
    T^k = 2^k T0, stage output uniform, eq. (4) noise). Defaults of eta0 and T0 as for
    DPageEM with t0_Mon = 0 (so eta0 T0 = 1/(c4 theta mu)).

    Guarantee: zhang2021.thm3.2 with t0_Mon = 0 (Remark 4). Reference: Sec. 4 (DPageS).
    """
    return _run_stagewise("zhang2021.dpages", objective, data, eps=eps, delta=delta,
                          reps=reps, seed=seed, calibration=calibration, record=record,
                          first_replicate=first_replicate, private=True, force_tmon0=0,
                          eta0=eta0, T0=T0, tMon0=tMon0, K=K, B=B, varrho=varrho, c4=c4,
                          tmon_frac=0.0, c2=c2, pi=pi, clip=clip, w0=w0)


def nonprivate_sgd_stage(objective: Any, data: Any, *, eps: float | None = None,
                         delta: float | None = None, reps: int = 1, seed: int = 0,
                         calibration: str = "paper", record: int | None = None,
                         first_replicate: int = 0, eta0: float | None = None,
                         T0: int | None = None, K: int | None = None, B: int | None = None,
                         c4: float = 1.0, clip: float | None = None,
                         w0: Any = None) -> RunResult:
    """nonpri-SGD-stage — non-private stagewise minibatch SGD (the paper's baseline).

    Algorithm: DPageS with pi = 0 (eta^k = 2^-k eta0, T^k = 2^k T0, uniform minibatches of
    size B without replacement, no momentum, stage output uniform over its iterates).
    The exact stagewise pseudocode of the baseline is not printed; this is the paper's
    stagewise schedule without noise and momentum. ``eps``/``delta`` are ignored except
    for the default K of Thm 3.2 (eps = 1, delta = 1e-5 when not given).

    Reference: Sec. 4, "nonpri-SGD-stage".
    """
    return _run_stagewise("zhang2021.nonpri-sgd-stage", objective, data, eps=eps,
                          delta=delta, reps=reps, seed=seed, calibration=calibration,
                          record=record, first_replicate=first_replicate, private=False,
                          force_tmon0=0, eta0=eta0, T0=T0, tMon0=None, K=K, B=B, varrho=0.0,
                          c4=c4, tmon_frac=0.0, c2=None, pi=None, clip=clip, w0=w0)


# ------------------------------------------------------------------ Algorithm 2 and
# single-stage baselines
def step_schedule(schedule: str, eta: float) -> Callable[[int], float]:
    """eta_t (t = 1..T) of a single-stage run: ``const`` eta, ``c/t`` eta/t, ``c/sqrt(t)``
    eta/sqrt(t) (Sec. 4's baselines; the transcript audit reads the steps from here too)."""
    if schedule == "const":
        return lambda t: eta
    if schedule == "c/t":
        return lambda t: eta / t
    if schedule == "c/sqrt(t)":
        return lambda t: eta / math.sqrt(t)
    raise ValueError(f"schedule must be const, c/t or c/sqrt(t), got {schedule!r}")


def _run_single(alg_id: str, objective: Any, data: Any, *, eps: Any, delta: Any, reps: int,
                seed: int, calibration: str, record: int | None, first_replicate: int,
                schedule: str, output: str, eta: float | None, T: int | None,
                tMon: int | None, B: int | None, varrho: float, c2: float | None,
                pi: float | None, clip: float | None, w0: Any, w_minus1: Any = None,
                tmon_rule: str = "given") -> RunResult:
    with Timer() as timer:
        eps, delta, reps = _common(objective, data, eps, delta, reps, calibration)
        varrho = _real_param("varrho", varrho, lo_open=False, hi=1.0)
        clip, pi = _check_clip_pi(clip, pi)
        if c2 is not None:
            c2 = _real_param("c2", c2)
        n, d = data.n, objective.d
        dflt: dict[str, Any] = {}
        if any(v is None for v in (eta, T, B)):
            # stage k = 1 of DPageEM at Thm 3.2's settings: eta^1 = eta0/2, T^1 = 2 T0
            dflt = theorem_defaults(objective, data, eps=eps, delta=delta, varrho=varrho)
        eta = _real_param("eta", dflt["eta0"] / 2 if eta is None else eta)
        T = check_steps(_int_param("T", 2 * dflt["T0"] if T is None else T, 1))
        B = _int_param("B", dflt["B"] if B is None else B, 1, n)
        if tmon_rule == "all":
            if tMon not in (None, T):
                raise ValueError(f"tMon must be T = {T} for {alg_id} (momentum at every step), "
                                 f"got {tMon!r}")
            tMon = T
        elif tmon_rule == "none":
            tMon = 0
        elif tMon is None:
            tMon = int(round(0.5 * T))         # t_Mon / T = t0_Mon / T0 = 1/2 as in DPageEM
        tMon = _int_param("tMon", tMon, 0, T)
        c = constants(objective, data)
        L = clip if clip is not None else c["L"]
        if not np.isfinite(L):
            raise ValueError(f"objective {objective.name!r} declares no Lipschitz constant; "
                             "pass clip=C to bound the sensitivity")
        pi1 = pi_eq4(n=n, eps=eps, delta=delta, L=L, c2=1.0, T=T)
        pi, c2, privacy, rules = _calibrate(calibration=calibration, pi=pi, c2=c2, eps=eps,
                                            delta=delta, L=L, B=B, n=n, steps=T, pi1=pi1)
        step = step_schedule(schedule, eta)
        W0 = _w0(w0, reps, d)
        stages = [Stage(T=T, t_mon=tMon, eta=step, varrho=varrho, output=output)]
        streams = ReplicateStreams(seed, reps, first_replicate)
        recorder = Recorder(record)
        Wm1 = None if w_minus1 is None else _w0(w_minus1, reps, d)
        W, left = run_stages(objective, data, stages, pi=pi, B=B, W0=W0, streams=streams,
                             recorder=recorder, clip=clip, Wm1=Wm1)
        params = {"eta": eta, "schedule": schedule, "T": T, "tMon": tMon, "B": B,
                  "varrho": varrho, "clip": clip, "L": L, "c2": c2, **rules,
                  "pi_eq4_c2_1": pi1, "calibration": calibration, "total_steps": T,
                  "sampling": "uniform without replacement, fresh each step",
                  "output": "uniform over w_1..w_T" if output == "uniform" else "last iterate w_T",
                  "eps_condition_rhs_over_c1": (B / n) ** 2 * T}
    return _finish(alg_id, objective, data, W, left, privacy,
                   {"pi": pi, "noise_std_per_coordinate": pi, "noise_variance": pi ** 2},
                   params, T, B, timer, recorder, seed, first_replicate)


def dp_emsgd(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
             seed: int = 0, calibration: str = "paper", record: int | None = None,
             first_replicate: int = 0, eta: float | None = None, T: int | None = None,
             tMon: int | None = None, B: int | None = None, varrho: float = 0.5,
             c2: float | None = None, pi: float | None = None, clip: float | None = None,
             w0: Any = None, w_minus1: Any = None) -> RunResult:
    """DP-EMSGD — one stage of DPageEM (differentially private early-momentum SGD).

    Algorithm (Alg. 2, printed indices shifted by one, see module doc)::

        for t = 1..T:
            I_t uniform subset of {1..n}, |I_t| = B (without replacement, fresh each t)
            xi_t ~ N(0, pi^2 I_d)
            w_t = w_{t-1} - eta (1/B sum_{i in I_t} grad f(w_{t-1}, z_i) + xi_t)
                  + varrho_t (w_{t-1} - w_{t-2}),   varrho_t = varrho * [t <= t_Mon]
        output w_O uniform from w_1..w_T
        noise: eq. (4) with one stage, pi^2 = c2^2 T L^2 log(1/delta)/(n^2 eps^2)

    Guarantee: a stage of zhang2021.thm3.2 (privacy thm3.1 with sum_k T^k = T).

    Defaults: stage k = 1 of DPageEM at Thm 3.2's settings (eta = eta0/2, T = 2 T0,
    t_Mon = 2 t0_Mon). ``w_minus1`` is w_{-1} (default w_0: no initial momentum, as Alg. 1
    calls it). ``c2``, ``pi``, ``clip``, ``w0`` as in :func:`dpageem`.

    Reference: Zhang, Ma, Lou, Xiong, IJCAI 2021, Algorithm 2.
    """
    return _run_single("zhang2021.alg2", objective, data, eps=eps, delta=delta, reps=reps,
                       seed=seed, calibration=calibration, record=record,
                       first_replicate=first_replicate, schedule="const", output="uniform",
                       eta=eta, T=T, tMon=tMon, B=B, varrho=varrho, c2=c2, pi=pi, clip=clip,
                       w0=w0, w_minus1=w_minus1)


def _baseline(alg_id: str, schedule: str, tmon_rule: str, doc: str) -> Callable[..., RunResult]:
    def run(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
            seed: int = 0, calibration: str = "paper", record: int | None = None,
            first_replicate: int = 0, eta: float | None = None, T: int | None = None,
            tMon: int | None = None, B: int | None = None, varrho: float = 0.5,
            c2: float | None = None, pi: float | None = None, clip: float | None = None,
            w0: Any = None) -> RunResult:
        if tmon_rule == "none" and tMon not in (None, 0):
            raise ValueError(f"tMon must be 0 for {alg_id} (no momentum), got {tMon!r}")
        return _run_single(alg_id, objective, data, eps=eps, delta=delta, reps=reps, seed=seed,
                           calibration=calibration, record=record,
                           first_replicate=first_replicate, schedule=schedule, output="last",
                           eta=eta, T=T, tMon=tMon, B=B,
                           varrho=0.0 if tmon_rule == "none" else varrho, c2=c2, pi=pi,
                           clip=clip, w0=w0, tmon_rule=tmon_rule)
    run.__name__ = alg_id.split(".")[1].replace("-", "_")
    run.__doc__ = doc
    return run


_BASE_DOC = """

    Common to the DP baselines (the paper names them in Sec. 4; their pseudocode is not
    printed, so the standard algorithm is used with DPageEM's privacy route): T steps, each
    on a fresh uniform size-B subset without replacement, N(0, pi^2 I_d) noise on the
    averaged gradient with pi from eq. (4) with sum_k T^k := T (or the tight accountant),
    output the LAST iterate (standard for DP-SGD; the experiments plot the running model).
    Defaults: eta = eta0/2 and T = 2 T0 of Thm 3.2's settings (DPageEM's first stage), B as
    DPageEM. Guarantee: none in the paper (baseline). Reference: Sec. 4.
    """
dpsgd_const = _baseline("zhang2021.dpsgd-const", "const", "none",
                        "DP-SGD-const — w_t = w_{t-1} - eta (gbar_t + xi_t), constant eta." + _BASE_DOC)
dpsgd_c_t = _baseline("zhang2021.dpsgd-c-t", "c/t", "none",
                      "DP-SGD-c/t — step eta_t = c/t with c = ``eta``." + _BASE_DOC)
dpsgd_c_sqrt_t = _baseline("zhang2021.dpsgd-c-sqrt-t", "c/sqrt(t)", "none",
                           "DP-SGD-c/sqrt(t) — step eta_t = c/sqrt(t) with c = ``eta``." + _BASE_DOC)
dpsgdm_const = _baseline("zhang2021.dpsgdm-const", "const", "all",
                         "DP-SGDM-const — heavy ball at every step: w_t = w_{t-1} - eta (gbar_t "
                         "+ xi_t) + varrho (w_{t-1} - w_{t-2}), t_Mon = T." + _BASE_DOC)
dpsgdem_const = _baseline("zhang2021.dpsgdem-const", "const", "given",
                          "DP-SGDEM-const — early momentum (varrho for t <= t_Mon, default "
                          "t_Mon = T/2), constant step, one stage." + _BASE_DOC)


# ------------------------------------------------------------------ registry
def _alg(id_: str, title: str, run: Callable[..., RunResult], *, baseline: bool = False,
         private: bool = True, requires: tuple = REQUIRES, theorem: str = UTILITY_THEOREM,
         notes: str = "") -> Algorithm:
    return Algorithm(id=id_, paper=PAPER, title=title, run=run, theorem=theorem,
                     privacy_theorem=PRIVACY_THEOREM if private else "", requires=requires,
                     private=private, baseline=baseline, notes=notes)


_BASE_NOTE = ("no utility theorem; requires Lipschitz for the sensitivity 2L/B (or pass clip); "
              "default eta, T, B need Thm 3.2's constants (Smooth, PL, WeaklyQuasiConvex)")
ALGORITHMS: list[Algorithm] = [
    _alg("zhang2021.alg2", "DP-EMSGD (one stage of DPageEM)", dp_emsgd),
    _alg("zhang2021.alg1", "DPageEM (stagewise DP-SGD with early momentum)", dpageem),
    _alg("zhang2021.dpages", "DPageS (DPageEM with t0_Mon = 0)", dpages, baseline=True,
         notes="Thm 3.2 with t0_Mon = 0 (Remark 4)"),
    _alg("zhang2021.nonpri-sgd-stage", "non-private stagewise SGD", nonprivate_sgd_stage,
         baseline=True, private=False, theorem="", requires=(),
         notes="default eta0, T0, K, B need Thm 3.2's constants (Smooth, PL, "
               "WeaklyQuasiConvex)"),
    _alg("zhang2021.dpsgd-const", "DP-SGD, constant step", dpsgd_const, baseline=True,
         theorem="", requires=(Lipschitz,), notes=_BASE_NOTE),
    _alg("zhang2021.dpsgd-c-t", "DP-SGD, step c/t", dpsgd_c_t, baseline=True, theorem="",
         requires=(Lipschitz,), notes=_BASE_NOTE),
    _alg("zhang2021.dpsgd-c-sqrt-t", "DP-SGD, step c/sqrt(t)", dpsgd_c_sqrt_t, baseline=True,
         theorem="", requires=(Lipschitz,), notes=_BASE_NOTE),
    _alg("zhang2021.dpsgdm-const", "DP momentum SGD, constant step", dpsgdm_const,
         baseline=True, theorem="", requires=(Lipschitz,), notes=_BASE_NOTE),
    _alg("zhang2021.dpsgdem-const", "DP early-momentum SGD, constant step", dpsgdem_const,
         baseline=True, theorem="", requires=(Lipschitz,), notes=_BASE_NOTE),
]

__all__ = ["ALGORITHMS", "dpageem", "dp_emsgd", "dpages", "nonprivate_sgd_stage",
           "dpsgd_const", "dpsgd_c_t", "dpsgd_c_sqrt_t", "dpsgdm_const", "dpsgdem_const",
           "pi_eq4", "pi_eq4_stages", "eps_tight", "pi_tight", "theorem_defaults", "constants",
           "run_stages", "Stage", "THEOREM_ASSUMPTIONS", "REQUIRES"]
