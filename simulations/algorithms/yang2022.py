"""yang2022 — DP-NSGD (Algorithm 1) and DP-SGD under (L0, L1)-generalized smoothness.

Reference: X. Yang, H. Zhang, W. Chen, T.-Y. Liu, *Normalized/Clipped SGD with Perturbation
for Differentially Private Non-Convex Optimization*, arXiv 2206.13033 (2022); catalog part V
(``yang2022.eq2``, ``eq3``, ``alg1``, ``lemma3.1``, ``thm3.2``, ``thm3.4``). Every formula of
that paper is stripped in our copy: the pseudocode, the step sizes (4)/(8) and the noise of
Lemma 3.1 are the catalog's *reconstructions*, taken here from :mod:`dptheory_bounds.yang2022`.

Algorithm (both, one step t = 0..T-1, all replicates at once)
    S_t: B indices drawn uniformly *without replacement* (fresh each step)
    g_i = grad l(w_t, z_i) for i in S_t
    DP-NSGD (Alg. 1, eq. (3)):  g_hat_i = g_i / (||g_i|| + r),       noise std on the sum: sigma
    DP-SGD  (eq. (2)):          g_hat_i = g_i * min{1, C/||g_i||},  noise std on the sum: sigma C
    w_{t+1} = w_t - (eta/B) (sum_i g_hat_i + std * xi_t),  xi_t ~ N(0, I_d)
    output: w_0..w_T; reported: the last iterate ``w`` = w_T and min_{0<=t<T} ||grad F(w_t)||.

Guarantee
    Utility: ``yang2022.thm3.2`` (DP-NSGD), ``yang2022.thm3.4`` (DP-SGD); both need
    GeneralizedSmooth(L0, L1) and AffineDeviation(tau0, tau1) (Assumptions 2.1-2.2).
    Privacy: ``yang2022.lemma3.1``: sigma >= c2 B sqrt(T log(1/delta))/(N eps), for
    eps < c1 B^2 T/N^2, with absolute constants c1, c2 that are unknown (stripped).

Choices where the text is ambiguous (all recorded in ``RunResult.params``)
    * Step sizes: (4) eta = sqrt(D_f/(T L0 (1 + sigma^2 d/B^2))) and (8) = (4)/C are Theta(.)
      forms; the unknown constant is set to 1. D_f = F(w0) - (certified lower bound of min F),
      i.e. an upper bound on the gap.
    * c2 of Lemma 3.1: default ``c2="tight"`` = the smallest c2 for which the formula is
      (eps, delta)-DP by the tight accountant at this (N, B, T, delta) -- the accountant is RDP
      of the fixed-size (without replacement) subsampled Gaussian under substitution (Wang,
      Balle, Kasiviswanathan 2019), improved RDP->DP conversion. A numeric ``c2`` (e.g. the
      conventional 1) is used as given; its eps by the accountant is reported (c2 = 1
      under-noises: eps_tight ~ 6-7 at eps = 1, see the tests).
    * Sensitivity under substitution: ||g_hat|| < 1 for normalisation, so replacing one
      record moves the sum by < 2; for clipping by <= 2C. The accountant's noise multiplier
      is therefore sigma/2 in both cases.
    * c1 (the eps-condition eps < c1 B^2 T/N^2) is set to 1; whether it holds is reported.
    * Defaults: B = max(1, floor(N/10)) (q <= 0.1, the range of Prop. E.3); T = the smallest
      integer with eps < c1 B^2 T/N^2 (the theorems ask "T large enough", Cor. 3.3/3.5 take
      T -> oo); C = 2 tau0/(1 - tau1) (the threshold of Lemma A.5); r = 2 tau0/(1 - tau1)
      = M, mirroring C (Thm 3.2 allows any r > 0). If tau0 = 0 then C = r = 1.
    * Utility readings (catalog ``yang2022.setup``): ``min_grad_norm`` is min_{0<=t<T}
      ||grad F(w_t)|| per replicate (its mean is E min_t); min_t E is defined across
      replicates, so it is computed after pooling batches: :func:`min_t_mean_grad_norm`
      of the runs (each keeps ``series["grad_norm"]``, (reps, T+1)). ||grad F|| is the exact
      empirical gradient (no per-sample tensor); these monitor evaluations are not in
      ``grad_evals`` and their time is ``metric_time``, not ``wall_time``.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from dptheory_bounds import yang2022 as Y
from dptheory.budget import check_steps
from dptheory.privacy import get_epsilon, get_noise_multiplier
from dptheory.symbolic.assumptions import AffineDeviation, GeneralizedSmooth

from .base import check_int as _int_param
from .base import sampled_steps, two_sided
from .base import (Algorithm, Recorder, ReplicateStreams, RunResult, Timer, check_assumptions,
                   block_steps, check_calibration, check_privacy, check_reps, clip_factors,
                   metrics_at, normalize_factors, weighted_batch_sum)

_ITEMS = {t.id: t for t in Y.ITEMS}
LEMMA31 = _ITEMS["yang2022.lemma3.1"]
THM32 = _ITEMS["yang2022.thm3.2"]
THM34 = _ITEMS["yang2022.thm3.4"]

TIGHT_ROUTE = ("RDP of the fixed-size (without replacement) subsampled Gaussian under "
               "substitution (WBK19 Thm 9/27), T-fold composition, improved RDP->DP conversion")


# ---------------------------------------------------------------------------- accountant
@functools.lru_cache(maxsize=256)
def _eps_tight(noise_multiplier: float, q: float, T: int, delta: float) -> float:
    if noise_multiplier <= 0:
        return math.inf
    return float(get_epsilon(noise_multiplier=noise_multiplier, target_delta=delta,
                             sample_rate=q, steps=T, sampling="fixed-size"))


@functools.lru_cache(maxsize=256)
def _multiplier_tight(eps: float, q: float, T: int, delta: float) -> float:
    return float(get_noise_multiplier(target_epsilon=eps, target_delta=delta, sample_rate=q,
                                      steps=T, sampling="fixed-size"))


def sigma_lemma31(c2: float, *, N: int, B: int, T: int, eps: float, delta: float) -> float:
    """Lemma 3.1's sigma = c2 B sqrt(T log(1/delta))/(N eps), evaluated from the catalog."""
    return float(LEMMA31.evaluate("bound", {"y22_c2": c2, "B": B, "T": T, "delta": delta,
                                            "n": N, "eps": eps}))


def sigma_tight(*, N: int, B: int, T: int, eps: float, delta: float) -> float:
    """Smallest sigma (to 1e-5 rel.) that the tight accountant certifies (eps, delta)-DP.

    sigma multiplies a sensitivity-2 sum (normalisation) or sigma C a sensitivity-2C sum
    (clipping), so the accountant's noise multiplier is sigma/2 in both cases.
    """
    return 2.0 * _multiplier_tight(float(eps), B / N, int(T), float(delta))


def eps_tight(sigma: float, *, N: int, B: int, T: int, delta: float) -> float:
    """eps of T steps with multiplier sigma by the tight accountant (inf for sigma = 0)."""
    return _eps_tight(float(sigma) / 2.0, B / N, int(T), float(delta))


# ---------------------------------------------------------------------------- validation


def _pos_param(name: str, value: Any, *, allow_inf: bool = False, allow_zero: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    ok = (v > 0 or (allow_zero and v == 0)) and (np.isfinite(v) or (allow_inf and v == math.inf))
    if not ok:
        rel = ">= 0" if allow_zero else "> 0"
        fin = " (inf allowed)" if allow_inf else " and finite"
        raise ValueError(f"{name} must be {rel}{fin}, got {value!r}")
    return v


def _constants(objective: Any, data: Any) -> tuple[float, float, float, float]:
    """(L0, L1, tau0, tau1) from the objective's certified assumptions."""
    have = {type(a): a for a in objective.assumptions(data)}
    gs, ad = have[GeneralizedSmooth], have[AffineDeviation]
    tau1 = float(ad.tau1)
    if not 0 <= tau1 < 1:
        raise ValueError(f"AffineDeviation tau1 must be in [0, 1) (yang2022 Assumption 2.2), "
                         f"got {tau1}")
    return float(gs.L0), float(gs.L1), float(ad.tau0), tau1


# ---------------------------------------------------------------------------- the runner
def _run(kind: str, objective: Any, data: Any, *, eps: float, delta: float, reps: int,
         seed: int, calibration: str, record: int | None, first_replicate: int,
         T: int | None, B: int | None, eta: float | None, sigma: float | None,
         C: float | None, r: float | None, c2: float | str, c1: float,
         w0: Any) -> RunResult:
    eps, delta = check_privacy(eps, delta)
    reps = check_reps(reps)
    calibration = check_calibration(calibration)
    first_replicate = _int_param("first_replicate", first_replicate, 0)
    check_assumptions(ALGORITHMS_BY_ID[f"yang2022.{kind}"], objective, data)
    rec = Recorder(record)
    metric_timer = Timer()
    with Timer() as timer:
        N, d = data.n, objective.d
        L0, L1, tau0, tau1 = _constants(objective, data)
        M = 2 * tau0 / (1 - tau1)
        c1 = _pos_param("c1", c1)
        B = max(1, N // 10) if B is None else _int_param("B", B, 1, N)
        q = B / N
        # smallest T with eps < c1 B^2 T/N^2 (N*N/(B*B) first: exact for B | N)
        T = (math.floor(eps * N * N / (c1 * B * B)) + 1) if T is None else _int_param("T", T, 1)
        check_steps(T)
        W0 = np.zeros(d) if w0 is None else np.asarray(w0, dtype=np.float64)
        if W0.shape != (d,) or not np.all(np.isfinite(W0)):
            raise ValueError(f"w0 must be a finite vector of shape ({d},), got shape {W0.shape}")
        if kind == "alg1":
            r = (M if M > 0 else 1.0) if r is None else _pos_param("r", r)
            scale = 1.0
        else:
            C = (M if M > 0 else 1.0) if C is None else _pos_param("C", C, allow_inf=True)
            scale = C                                      # noise sigma C, sensitivity 2C

        # --- noise: Lemma 3.1 (paper) or the tight accountant
        eta = None if eta is None else _pos_param("eta", eta)         # validate before
        sigma = None if sigma is None else _pos_param("sigma", sigma, allow_zero=True)
        if scale == math.inf and sigma != 0:
            raise ValueError("C = inf requires sigma = 0 (the noise std sigma*C would be "
                             "infinite); pass sigma=0")
        if isinstance(c2, str):                                       # the accountant runs
            if c2 != "tight":
                raise ValueError(f"c2 must be > 0 or 'tight', got {c2!r}")
            # the smallest c2 that the tight accountant certifies; skipped when unused
            c2_val = math.nan if sigma is not None and sigma == 0 else \
                sigma_tight(N=N, B=B, T=T, eps=eps, delta=delta) / \
                sigma_lemma31(1.0, N=N, B=B, T=T, eps=eps, delta=delta)
        else:
            c2_val = _pos_param("c2", c2)
        if sigma is not None:
            sig = sigma
            source = "given"
        elif calibration == "paper":
            sig = sigma_lemma31(c2_val, N=N, B=B, T=T, eps=eps, delta=delta)
            source = "Lemma 3.1"
        else:
            sig = sigma_tight(N=N, B=B, T=T, eps=eps, delta=delta)
            source = "tight accountant"
        std_sum = sig * scale if sig > 0 else 0.0

        # --- step size: (4) for DP-NSGD, (8) = (4)/C for DP-SGD, unknown constant = 1
        F0 = float(objective.F(W0, data))
        with metric_timer:                                 # a minimiser search
            Df = F0 - float(objective.minimum(data).lower)
        if eta is None:
            if kind == "dpsgd" and C == math.inf:
                raise ValueError("eta must be given when C = inf ((8) = (4)/C vanishes)")
            if not Df > 0:
                raise ValueError(f"D_f = F(w0) - F* must be > 0 for the step size (4)/(8), "
                                 f"got {Df}; pass eta explicitly")
            vals = {"Fgap": Df, "T": T, "L0": L0, "sigma": sig, "d": d, "B": B}
            eta_val = float(THM32.evaluate("eta4", vals)) if kind == "alg1" else \
                float(THM34.evaluate("eta8", {**vals, "C": C}))
            eta_source = "(4), constant 1" if kind == "alg1" else "(8), constant 1"
        else:
            eta_val = eta
            eta_source = "given"

        # --- the loop: one Python loop over steps drives all replicates; subsets and noise
        # of a block of steps are drawn at once (equal to one step at a time)
        streams = ReplicateStreams(seed, reps, first_replicate)
        W = np.tile(W0, (reps, 1))
        gn_all = np.empty((reps, T + 1))                   # ||grad F(w_t)||, t = 0..T
        block = block_steps(T, reps, B + d)
        with np.errstate(over="ignore", invalid="ignore"):
            for t in range(T + 1):
                if not np.all(np.isfinite(W)):
                    raise ValueError(f"iterates became non-finite at step {t}; eta = {eta_val:g} "
                                     "is too large for this objective")
                with metric_timer:                         # the progress monitor
                    gn_all[:, t] = np.atleast_1d(objective.grad_norm(W, data))
                rec(t, W)
                if t == T:
                    break
                k = t % block
                if k == 0:
                    K = min(block, T - t)
                    idx_blk = streams.subsets(N, B, steps=K)
                    xi_blk = streams.normal(K, d)          # drawn even when sigma = 0
                G = objective.batch_grad(W, data, idx_blk[:, k])   # (reps, B, d)
                f = normalize_factors(G, r) if kind == "alg1" else clip_factors(G, C)
                W = W - (eta_val / B) * (weighted_batch_sum(G, f) + std_sum * xi_blk[:, k])

    inside, inside_cpu = metric_timer.elapsed, metric_timer.cpu   # metric time within timer
    with metric_timer:
        metrics = metrics_at(objective, data, W)
    gn_run = gn_all[:, :T]                                 # min over 0 <= t < T
    metrics["min_grad_norm"] = gn_run.min(axis=1)
    metrics["argmin_t"] = gn_run.argmin(axis=1).astype(float)

    # --- privacy: the paper's route and the tight accountant for the noise actually used
    cond_rhs = c1 * B * B * T / (N * N)
    eps_paper = math.inf if sig == 0 else \
        c2_val * B * math.sqrt(T * math.log(1 / delta)) / (N * sig)
    eps_acc = eps_tight(sig, N=N, B=B, T=T, delta=delta) if std_sum > 0 else math.inf
    privacy = {
        "paper": {"epsilon": eps_paper, "delta": delta,
                  "route": "Lemma 3.1 (Abadi-form sigma = c2 B sqrt(T log(1/delta))/(N eps); "
                           "Prop. E.3 amplification + RDP composition), "
                           f"c2 = {c2_val:.6g}, c1 = {c1:g}",
                  "c2": c2_val, "c1": c1,
                  "eps_condition_holds": bool(eps_paper < cond_rhs)},
        "tight": {"epsilon": eps_acc, "delta": delta, "route": TIGHT_ROUTE,
                  "sensitivity": 2.0 * scale, "noise_multiplier": sig / 2.0},
    }
    if std_sum > 0:
        privacy["tight"].update(two_sided(sampled_steps(B / N, sig / 2.0, T), delta))
    noise = {"sigma": sig, "noise_std_sum": std_sum, "step_noise_std": eta_val * std_sum / B,
             "sensitivity": 2.0 * scale, "accountant_multiplier": sig / 2.0}
    params: dict[str, Any] = {
        "T": T, "B": B, "q": q, "eta": eta_val, "eta_source": eta_source,
        "sigma": sig, "sigma_source": source, "c2": c2_val,
        "c2_choice": c2 if isinstance(c2, str) else "given", "c1": c1,
        "L0": L0, "L1": L1, "tau0": tau0, "tau1": tau1, "M": M, "D_f": Df, "F0": F0,
        "w0": W0, "sampling": "uniform without replacement, fresh each step",
        "monitor_grad_evals": N * (T + 1), "eps_target": eps,
    }
    if kind == "alg1":
        params["r"] = r
    else:
        params["C"] = C
    traj = rec.result()
    if traj is not None:
        traj["grad_norm"] = gn_all[:, ::rec.every]
    # the monitor and the minimum ran inside the algorithm's timer: metric time, not its own
    return RunResult(algorithm=f"yang2022.{kind}", w=W, metrics=metrics, privacy=privacy,
                     noise=noise, params=params, grad_evals=float(B * T),
                     wall_time=timer.elapsed - inside, trajectory=traj, seed=seed,
                     first_replicate=first_replicate, metric_time=metric_timer.elapsed,
                     cpu_time=timer.cpu - inside_cpu,
                     series={"grad_norm": gn_all})


def min_t_mean_grad_norm(*results: RunResult) -> tuple[float, int]:
    """(min_{0<=t<T} E||grad F(w_t)||, argmin t) with E the mean over every replicate of
    ``results`` (batches of one setting, pooled in replicate order).

    Defined across replicates, so computed after pooling: the same value whatever the
    batching (``RunResult.series["grad_norm"]`` holds each replicate's ||grad F(w_t)||).
    """
    if not results:
        raise ValueError("results must hold at least one RunResult")
    runs = sorted(results, key=lambda r: r.first_replicate)
    if any(r.series is None or "grad_norm" not in r.series for r in runs):
        raise ValueError("results must be yang2022 runs (series['grad_norm'] missing)")
    steps = {r.series["grad_norm"].shape[1] for r in runs}
    if len(steps) != 1:
        raise ValueError(f"results must share T, got {sorted(s - 1 for s in steps)}")
    mean = np.concatenate([r.series["grad_norm"] for r in runs], axis=0)[:, :-1].mean(axis=0)
    t = int(np.argmin(mean))
    return float(mean[t]), t


def run_alg1(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
             seed: int = 0, calibration: str = "paper", record: int | None = None,
             first_replicate: int = 0, T: int | None = None, B: int | None = None,
             eta: float | None = None, sigma: float | None = None, r: float | None = None,
             c2: float | str = "tight", c1: float = 1.0, w0: Any = None) -> RunResult:
    """DP-NSGD, yang2022 Algorithm 1 (reconstructed; see the module docstring).

    Algorithm: S_t uniform without replacement, |S_t| = B; w_{t+1} = w_t - (eta/B)
    (sum_{i in S_t} g_i/(||g_i|| + r) + sigma xi_t), xi_t ~ N(0, I_d).
    Guarantee: ``yang2022.thm3.2`` (utility), ``yang2022.lemma3.1`` (privacy).
    Reference: arXiv 2206.13033, Algorithm 1 and eq. (3); eta from (4), sigma from Lemma 3.1.
    ``sigma`` overrides the calibration (``sigma=0`` gives normalized minibatch SGD).
    """
    return _run("alg1", objective, data, eps=eps, delta=delta, reps=reps, seed=seed,
                calibration=calibration, record=record, first_replicate=first_replicate,
                T=T, B=B, eta=eta, sigma=sigma, C=None, r=r, c2=c2, c1=c1, w0=w0)


def run_dpsgd(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
              seed: int = 0, calibration: str = "paper", record: int | None = None,
              first_replicate: int = 0, T: int | None = None, B: int | None = None,
              eta: float | None = None, sigma: float | None = None, C: float | None = None,
              c2: float | str = "tight", c1: float = 1.0, w0: Any = None) -> RunResult:
    """DP-SGD with per-sample clipping as analysed by yang2022 (eq. (2), Theorem 3.4).

    Algorithm: Algorithm 1 with g_i/(||g_i|| + r) replaced by g_i min{1, C/||g_i||} and
    sigma by sigma C (the paper's own description of DP-SGD); same sampling (uniform
    without replacement), so the privacy route is Lemma 3.1 with sensitivity 2C.
    Guarantee: ``yang2022.thm3.4`` (needs C >= 2 tau0/(1 - tau1)), ``yang2022.lemma3.1``.
    Reference: arXiv 2206.13033, eq. (2); eta from (8) = (4)/C.
    ``C = inf`` (no clipping) requires ``sigma=0`` and an explicit ``eta``: minibatch SGD.
    """
    return _run("dpsgd", objective, data, eps=eps, delta=delta, reps=reps, seed=seed,
                calibration=calibration, record=record, first_replicate=first_replicate,
                T=T, B=B, eta=eta, sigma=sigma, C=C, r=None, c2=c2, c1=c1, w0=w0)


ALGORITHMS: list[Algorithm] = [
    Algorithm(id="yang2022.alg1", paper="yang2022", title="DP-NSGD (Algorithm 1)",
              run=run_alg1, theorem="yang2022.thm3.2", privacy_theorem="yang2022.lemma3.1",
              requires=(GeneralizedSmooth, AffineDeviation),
              notes="reconstructed pseudocode; eta (4) and sigma (Lemma 3.1) with unknown "
                    "constants: eta's set to 1, c2 by the tight accountant by default"),
    Algorithm(id="yang2022.dpsgd", paper="yang2022", title="DP-SGD with per-sample clipping",
              run=run_dpsgd, theorem="yang2022.thm3.4", privacy_theorem="yang2022.lemma3.1",
              requires=(GeneralizedSmooth, AffineDeviation),
              notes="the paper's DP-SGD (eq. (2)), analysed by its own Theorem 3.4"),
]
ALGORITHMS_BY_ID = {a.id: a for a in ALGORITHMS}

__all__ = ["ALGORITHMS", "run_alg1", "run_dpsgd", "sigma_lemma31", "sigma_tight", "eps_tight",
           "min_t_mean_grad_norm"]
