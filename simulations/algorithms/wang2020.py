"""Simulators of wang2020 (Wang & Xu, ECML-PKDD 2020): DP-TR, DP-STR and the DP-GD baseline.

Reference: D. Wang, J. Xu, "Escaping Saddle Points of Empirical Risk Privately and Scalably
via DP-Trust Region Method", ECML-PKDD 2020, Algorithms 1 and 2; catalog
``bounds/wang2020.py`` (items ``wang2020.alg1``, ``wang2020.alg2``, ``wang2020.thm1``-``thm4``).

Common choices (the printed text leaves them open):

* ``w0`` defaults to the origin; ``alpha`` defaults to 0.1, the value of the paper's
  experiments (Sec. 5); the theorems take alpha as an input.
* Theorem 2/4 settings, evaluated from the catalog: r = sqrt(alpha/rho),
  T = ceil(6 sqrt(rho) Delta / alpha^1.5) (at least 1) with Delta = F(w0) - min F, min F from
  ``objective.minimum(data)`` (its best value when the minimum is not exact, so Delta is then a
  lower estimate). Because T enters the noise variances, **the noise scale is data-dependent**
  as printed (catalog notes to wang2020.thm1/thm3): kept as printed and flagged in
  ``params["T_data_dependent"]``; pass ``T`` (or ``Delta``) to use a public value.
* The constants G, M, rho are the objective's certified ones (Lipschitz, Smooth,
  HessianLipschitz). Where a family declares them on a ball only, the iterates are not
  projected (the paper does not project).
* ``sigma`` / ``sigma_H`` override the calibrated noise stds (0 gives the non-private method);
  the privacy report is then computed for the noise actually used.
* Randomness: gradient noise and subsets from :class:`ReplicateStreams`; the Hessian noise
  matrices come from :func:`dptheory.privacy.samplers.symmetric_gaussian_matrices` fed by one
  child generator per replicate, spawned from that replicate's stream (``Generator.spawn``),
  so they do not shift the other draws and results stay batching-invariant.

Privacy routes
--------------
*Hessian sensitivity (derived).* The mechanism releases the upper triangle u(A) (diagonal
included) of A = grad^2 L(w, D) plus i.i.d. N(0, sigma_2^2) entries (the lower triangle is a
copy). For substitution neighbours A - A' = D/n with D = grad^2 l(w, x) - grad^2 l(w, x'),
||D||_2 <= 2M, and ||u(D)||_2^2 = (||D||_F^2 + sum_i D_ii^2)/2 <= ||D||_F^2 <= p ||D||_2^2, so
Delta_H = 2 sqrt(p) M / n; it is attained by Hessians +M I and -M I (D = 2M I). The gradient
sensitivity is 2G/n. Both are the catalog's ``wang2020.thm1`` ``sensitivity_*``.

*DP-TR and DP-GD, paper route* (wang2020.thm1, Lemmas 3-5): each step is two Gaussian
mechanisms of zCDP Delta^2/(2 sigma^2); over T steps rho_z = T (Delta_g^2/(2 sigma^2) +
Delta_H^2/(2 sigma_2^2)) (= phi at the printed variances), converted by Lemma 3:
eps = rho_z + 2 sqrt(rho_z ln(1/delta)) (exactly eps at the printed calibration).
*Tight*: the same composition is exactly alpha rho_z RDP at every order alpha; converted by
the improved conversion (Balle et al. 2020 Thm 21) minimised over a fine order grid.
``calibration="tight"``: the largest rho_z whose improved conversion is <= eps, split equally
between the two mechanisms (sigma^2 = T Delta_g^2 / rho_z, sigma_2^2 = T Delta_H^2 / rho_z,
i.e. phi replaced by rho_z).

*DP-STR, paper route* (wang2020.thm3 as reconstructed in the catalog): per step, Def. 3
inverted with delta0 = delta/(4T) (eps0 = sqrt(2 ln(1.25/delta0)) Delta_sub / sigma with
Delta_sub = 2G/|S| or 2 sqrt(p) M/|T|), Lemma 2 amplification 2 (m/n) eps0, then advanced
composition of the 2T mechanisms with delta' = delta/2. At the printed variances the route
gives about eps sqrt(T+1)/2 > eps (the gradient variance lacks a factor T): reported as
``privacy["paper"]["epsilon_route"]`` next to the claimed eps. *Tight*: RDP of the fixed-size
(without replacement, substitution) subsampled Gaussian (Wang, Balle, Kasiviswanathan 2019,
``rdp_fixed_size_gaussian``) for each mechanism with noise multipliers sigma |S|/(2G) and
sigma_2 |T|/(2 sqrt(p) M), composed over T steps, improved conversion.
``calibration="tight"``: one common noise multiplier for both mechanisms, found by bisection.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dptheory_bounds import wang2020 as catalog
from dptheory.budget import check_steps
from dptheory.privacy import (DEFAULT_ORDERS, ComposedEvent, GaussianEvent, SelfComposedEvent,
                              eps_from_rdp_improved, rdp_fixed_size_gaussian, zcdp_to_dp)
from dptheory.privacy.calibrate import FIXED_SIZE_ORDERS, smallest_noise
from dptheory.privacy.samplers import symmetric_gaussian_matrices
from dptheory.symbolic.assumptions import HessianLipschitz, Lipschitz, Smooth

from .base import check_positive as _positive, check_int as _count, check_w0 as _w0
from .base import sampled_steps, two_sided
from .base import (Algorithm, Recorder, ReplicateStreams, RunResult, Timer, check_assumptions,
                   check_calibration, check_privacy, check_reps, metrics_at)
from .trs import solve_trs

__all__ = ["ALGORITHMS", "run_alg1", "run_alg2", "run_dpgd", "eps_tight_full_batch",
           "eps_tight_str", "eps_paper_str"]

_ITEMS = {item.id: item for item in catalog.ITEMS}
REQUIRES = (Lipschitz, Smooth, HessianLipschitz)
DEFAULT_ALPHA = 0.1
DEFAULT_ZETA = 0.1
# fine grid: the full-batch composition is linear RDP, so a dense grid is cheap and tight
_ORDERS = np.unique(np.concatenate([np.asarray(DEFAULT_ORDERS),
                                    np.geomspace(1.0005, 1e6, 4000)]))


# ---------------------------------------------------------------------------- helpers
def _cat(item_id: str, what: str, values: dict) -> float:
    """Evaluate a catalog expression (the paper's formula, not re-typed here)."""
    return _ITEMS[item_id].evaluate(what, values, apply_settings=False)


def _constants(objective: Any, data: Any) -> tuple[float, float, float]:
    found: dict[type, float] = {}
    for a in objective.assumptions(data):
        if isinstance(a, Lipschitz):
            found.setdefault(Lipschitz, float(a.G))
        elif isinstance(a, Smooth):
            found.setdefault(Smooth, float(a.beta))
        elif isinstance(a, HessianLipschitz):
            found.setdefault(HessianLipschitz, float(a.rho))
    return found[Lipschitz], found[Smooth], found[HessianLipschitz]








def _setup(algorithm: Algorithm, objective: Any, data: Any, eps: Any, delta: Any, reps: Any,
           calibration: str, alpha: Any, w0: Any, Delta: Any) -> dict[str, Any]:
    """Validation and the Theorem 2 quantities shared by the three algorithms."""
    eps, delta = check_privacy(eps, delta)
    check_reps(reps)
    check_calibration(calibration)
    check_assumptions(algorithm, objective, data)
    if not objective.has_hessian:
        raise ValueError(f"objective {objective.name!r} provides no Hessians, which "
                         f"{algorithm.id} needs")
    G, M, rho = _constants(objective, data)
    alpha = _positive("alpha", alpha)
    if np.ndim(w0) == 2:
        w0 = _starts(algorithm, objective, data, w0, reps, Delta)
        F0 = float(np.max(objective.F(w0, data)))
    else:
        w0 = _w0(w0, objective.d)
        F0 = float(objective.F(w0, data))
    if Delta is None:
        m = objective.minimum(data)
        Delta, exact = F0 - m.value, bool(m.exact)
    else:
        Delta, exact = _positive("Delta", Delta, allow_zero=True), True
    return {"eps": eps, "delta": delta, "G": G, "M": M, "rho": rho, "alpha": alpha, "w0": w0,
            "Delta": float(Delta), "Delta_exact_min": exact, "F_w0": F0,
            "n": data.n, "d": objective.d}


def _starts(algorithm: Algorithm, objective: Any, data: Any, w0: Any, reps: int,
            Delta: Any) -> np.ndarray:
    """One start per replicate (``w0`` of shape (reps, d)), DP-TR only. Theorem 2's T (and
    through it the noise) is set from Delta, so the replicates share it: ``Delta`` must be
    given, a common bound with F(w0_k) - min F <= Delta for every start k (checked)."""
    if algorithm.id != "wang2020.alg1":
        raise ValueError(f"w0 of shape (reps, d) is supported by wang2020.alg1 only, not "
                         f"{algorithm.id}")
    W0 = np.asarray(w0, dtype=np.float64)
    if W0.shape != (reps, objective.d) or not np.all(np.isfinite(W0)):
        raise ValueError(f"w0 must be a finite array of shape ({objective.d},) or ({reps}, "
                         f"{objective.d}), got shape {W0.shape}")
    if Delta is None:
        raise ValueError("w0 with one start per replicate needs Delta, a common bound on "
                         "F(w0) - min F (Theorem 2's T and the noise are set from it)")
    gap = float(np.max(objective.F(W0, data))) - float(objective.minimum(data).value)
    if gap > float(Delta) * (1 + 1e-12) + 1e-12:
        raise ValueError(f"Delta must bound F(w0) - min F for every start: got Delta = "
                         f"{float(Delta):.6g} < {gap:.6g}")
    return W0.copy()


def _symbols(s: dict[str, Any], **extra: float) -> dict:
    c = catalog
    vals = {c.n: s["n"], c.p: s["d"], c.eps: s["eps"], c.delta: s["delta"], c.G: s["G"],
            c.M: s["M"], c.rho: s["rho"], c.alpha: s["alpha"], c.Delta: max(s["Delta"], 0.0)}
    for k, v in extra.items():
        vals[getattr(c, k)] = v
    return vals


def _T_and_r(s: dict[str, Any], item: str, T: Any, r: Any) -> tuple[int, float, float]:
    """Theorem 2/4 settings from the catalog: T = ceil(6 sqrt(rho) Delta/alpha^1.5), r."""
    T_set = _cat(item, "T", _symbols(s)) if s["Delta"] > 0 else 0.0
    T = check_steps(max(1, math.ceil(T_set - 1e-9)) if T is None else _count("T", T))
    r = _cat(item, "r", _symbols(s)) if r is None else _positive("r", r)
    return T, r, T_set


def _noise_std(name: str, value: Any) -> float | None:
    return None if value is None else _positive(name, value, allow_zero=True)


def _hess_noise(gens: list[np.random.Generator], active: np.ndarray, d: int,
                sigma_H: float) -> np.ndarray:
    """H_k of Algorithm 1 step 4 for the active replicates (wang2020's symmetric Gaussian),
    each from its replicate's generator, in one pass (one sampler call per replicate cost 2/3
    of a Remark 1 cell); no active replicate: shape (0, d, d)."""
    return symmetric_gaussian_matrices([gens[i] for i in np.flatnonzero(active)], d, sigma_H)


def _child_gens(streams: ReplicateStreams) -> list[np.random.Generator]:
    return [g.spawn(1)[0] for g in streams.aux]


# ---------------------------------------------------------------------------- privacy
def _eps_linear_rdp(rho_z: float, delta: float) -> float:
    """Improved conversion of alpha -> alpha rho_z RDP (rho_z-zCDP with equality)."""
    if not math.isfinite(rho_z):
        return math.inf
    return eps_from_rdp_improved(_ORDERS, _ORDERS * rho_z, delta)[0]


def eps_tight_full_batch(sigma: float, sigma_H: float, T: int, n: int, d: int, G: float,
                         M: float, delta: float) -> tuple[float, float]:
    """(eps_tight, rho_z) of T full-batch noisy gradients + T noisy Hessians (DP-TR, DP-GD)."""
    Dg = 2 * G / n
    DH = 2 * math.sqrt(d) * M / n
    if sigma == 0 or sigma_H == 0:
        return math.inf, math.inf
    rho_z = T * (Dg ** 2 / (2 * sigma ** 2) + DH ** 2 / (2 * sigma_H ** 2))
    return _eps_linear_rdp(rho_z, delta), rho_z


def _rho_for_eps(eps: float, delta: float) -> float:
    """Largest rho_z with improved-conversion eps(rho_z) <= eps (bisection, log scale)."""
    lo, hi = 1e-12, 1.0
    while _eps_linear_rdp(hi, delta) <= eps:
        lo, hi = hi, hi * 4
    while _eps_linear_rdp(lo, delta) > eps:
        lo /= 4
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        if _eps_linear_rdp(mid, delta) <= eps:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1 + 1e-10:
            break
    return lo


def _fs_rdp(q: float, z: float) -> np.ndarray:
    return np.asarray(rdp_fixed_size_gaussian(FIXED_SIZE_ORDERS, q=q, sigma=z))


def eps_tight_str(sigma: float, sigma_H: float, T: int, n: int, d: int, G: float, M: float,
                  S: int, Tz: int, delta: float) -> float:
    """eps of DP-STR by RDP of the fixed-size subsampled Gaussian (substitution), improved
    conversion: gradient rate |S|/n, multiplier sigma|S|/(2G); Hessian rate |T|/n,
    multiplier sigma_H|T|/(2 sqrt(d) M)."""
    if sigma == 0 or sigma_H == 0:
        return math.inf
    zg = sigma * S / (2 * G)
    zh = sigma_H * Tz / (2 * math.sqrt(d) * M)
    rdp = T * (_fs_rdp(S / n, zg) + _fs_rdp(Tz / n, zh))
    return eps_from_rdp_improved(FIXED_SIZE_ORDERS, rdp, delta)[0]


def eps_paper_str(sigma: float, sigma_H: float, T: int, n: int, d: int, G: float, M: float,
                  eps_unused: float, delta: float) -> float:
    """wang2020.thm3's route for the noise actually used (see the module docstring).

    Per mechanism: eps0 = sqrt(2 ln(1.25/delta0)) Delta_sub/sigma (Def. 3, delta0 =
    delta/(4T)), amplified to 2 (m/n) eps0 (Lemma 2) = 4 G sqrt(2 ln(1.25/delta0))/(n sigma)
    for the gradient (m cancels); advanced composition of the 2T mechanisms, delta' = delta/2.
    """
    if sigma == 0 or sigma_H == 0:
        return math.inf
    d0 = delta / (4 * T)
    c = math.sqrt(2 * math.log(1.25 / d0))
    eg = 4 * G * c / (n * sigma)
    eh = 4 * math.sqrt(d) * M * c / (n * sigma_H)
    return (math.sqrt(2 * math.log(2 / delta) * T * (eg ** 2 + eh ** 2))
            + T * (eg * math.expm1(eg) + eh * math.expm1(eh)))


def _z_for_eps_str(eps: float, delta: float, T: int, n: int, S: int, Tz: int) -> float:
    """Smallest common noise multiplier z (to rel. 1e-4) with tight DP-STR eps <= eps."""
    def e(z: float) -> float:
        rdp = T * (_fs_rdp(S / n, z) + _fs_rdp(Tz / n, z))
        return eps_from_rdp_improved(FIXED_SIZE_ORDERS, rdp, delta)[0]
    try:
        return smallest_noise(e, eps, rtol=1e-4, lowest=1e-4)
    except ValueError:
        raise ValueError(f"eps = {eps} is not reachable by DP-STR (noise multiplier > 1e7)") from None


# ---------------------------------------------------------------------------- the loop
def _trust_region_loop(objective: Any, data: Any, s: dict[str, Any], *, reps: int, seed: int,
                       first_replicate: int, record: Any, T: int, r: float, sigma: float,
                       sigma_H: float, sizes: tuple[int, int] | None,
                       transcript: list | None = None
                       ) -> tuple[np.ndarray, dict[str, np.ndarray], Recorder]:
    """Algorithms 1 (sizes None: full data) and 2 (sizes = (|S|, |T|)), all replicates.

    ``transcript``: when a list, every step appends what it releases to the trust-region
    solver, the privacy proof's transcript (Theorems 1 and 3 compose these): ``active``
    (replicates still running), ``w`` (their iterate), ``grad`` and ``hess`` (the noisy
    gradient and Hessian)."""
    d, n = s["d"], s["n"]
    thr = math.sqrt(s["alpha"] * s["rho"])
    streams = ReplicateStreams(seed, reps, first_replicate)
    hgens = _child_gens(streams)
    rec = Recorder(record)
    W = np.tile(s["w0"], (reps, 1)) if np.ndim(s["w0"]) == 1 else s["w0"].copy()
    rec(0, W)
    stopped = np.zeros(reps, dtype=bool)
    iters = np.full(reps, T, dtype=np.int64)
    lam_last = np.full(reps, np.nan)
    for k in range(T):
        act = ~stopped
        if sizes is not None:                       # step 2: two independent uniform subsets
            S_idx = streams.subsets(n, sizes[0])
            T_idx = streams.subsets(n, sizes[1])
        e = sigma * streams.normal(d)               # e_k ~ N(0, sigma^2 I_d)
        Wa = W[act]
        if sizes is None:
            g = objective.grad_F(Wa, data)
            H = objective.hess_F(Wa, data)
        else:
            g = objective.batch_grad_mean(Wa, data, S_idx[act])               # eq. (6)
            H = objective.batch_hess_mean(Wa, data, T_idx[act])               # eq. (7)
        g_t = g + e[act]
        H_t = H + _hess_noise(hgens, act, d, sigma_H)
        if transcript is not None:
            transcript.append({"active": act.copy(), "w": Wa.copy(), "grad": g_t.copy(),
                               "hess": H_t.copy()})
        h, lam = solve_trs(g_t, H_t, r)             # step 5
        W[act] = Wa + h                             # step 6
        lam_last[act] = lam
        stop_now = np.zeros(reps, dtype=bool)
        stop_now[act] = lam <= thr                  # step 7: output w^{k+1}
        iters[stop_now] = k + 1
        stopped |= stop_now
        rec(k + 1, W)
        if stopped.all():
            break
    return W, {"stopped": stopped.astype(float), "iterations": iters.astype(float),
               "lambda_dual": lam_last}, rec


def _privacy_full(s: dict[str, Any], sigma: float, sigma_H: float, T: int,
                  claimed: bool) -> dict[str, dict[str, Any]]:
    Dg = _cat("wang2020.thm1", "sensitivity_grad", _symbols(s))
    DH = _cat("wang2020.thm1", "sensitivity_hess", _symbols(s))
    eps_t, rho_z = eps_tight_full_batch(sigma, sigma_H, T, s["n"], s["d"], s["G"], s["M"],
                                        s["delta"])
    route = math.inf if not math.isfinite(rho_z) else zcdp_to_dp(rho_z, s["delta"])
    return {"paper": {"epsilon": s["eps"] if claimed else route, "epsilon_route": route,
                      "claimed": s["eps"] if claimed else None, "delta": s["delta"],
                      "rho_zcdp": rho_z, "sensitivity_grad": Dg, "sensitivity_hess": DH,
                      "route": "zCDP: Gaussian Delta^2/(2 sigma^2) per mechanism (Lemma 4), "
                               "composition over T steps (Lemma 5), Lemma 3 conversion "
                               "(wang2020.thm1)"},
            "tight": {"epsilon": eps_t, "delta": s["delta"], "rho_zcdp": rho_z,
                      "route": "exact RDP alpha*rho_z of the 2T composed Gaussians, improved "
                               "conversion (Balle et al. 2020 Thm 21)",
                      **_interval_full(sigma, sigma_H, T, Dg, DH, s["delta"])}}


def _interval_full(sigma: float, sigma_H: float, T: int, Dg: float, DH: float,
                   delta: float) -> dict[str, Any]:
    """Two-sided eps of T noisy full gradients and T noisy Hessians (sensitivities attained
    by records with gradients +-G and Hessians +-M I)."""
    if sigma == 0 or sigma_H == 0:
        return {}
    return two_sided(ComposedEvent((SelfComposedEvent(GaussianEvent(sigma / Dg), T),
                                    SelfComposedEvent(GaussianEvent(sigma_H / DH), T))),
                     delta, relation="replace-one")


def _finish(alg_id: str, objective: Any, data: Any, s: dict[str, Any], W: np.ndarray,
            extra: dict[str, np.ndarray], privacy: dict, noise: dict, params: dict,
            grad_evals: float, timer: Timer, rec: Recorder, seed: int,
            first_replicate: int) -> RunResult:
    with Timer() as metric_timer:
        metrics = metrics_at(objective, data, W, second_order=True, alpha=s["alpha"],
                             rho=s["rho"])
        # where the constants are certified on a ball only: is the output inside it?
        metrics["in_domain"] = np.atleast_1d(objective.in_domain(W)).astype(float)
    metrics.update(extra)
    return RunResult(algorithm=alg_id, w=W, metrics=metrics, privacy=privacy, noise=noise,
                     params=params, grad_evals=grad_evals, wall_time=timer.elapsed,
                     trajectory=rec.result(), seed=seed, first_replicate=first_replicate,
                     metric_time=metric_timer.elapsed, cpu_time=timer.cpu)


def _base_params(s: dict[str, Any], calibration: str, T: int, T_set: float, r: float,
                 T_given: bool) -> dict[str, Any]:
    return {"alpha": s["alpha"], "T": T, "T_setting": T_set, "r": r, "w0": s["w0"].copy(),
            "Delta": s["Delta"], "Delta_exact_min": s["Delta_exact_min"], "F_w0": s["F_w0"],
            "G": s["G"], "M": s["M"], "rho": s["rho"], "eps": s["eps"], "delta": s["delta"],
            "n": s["n"], "d": s["d"], "calibration": calibration,
            "stop_threshold": math.sqrt(s["alpha"] * s["rho"]),
            "T_data_dependent": not T_given,
            "T_note": ("T = ceil(6 sqrt(rho) Delta/alpha^1.5) with Delta = F(w0) - min F "
                       "computed from the data: the noise variances (proportional to T) are "
                       "data-dependent as printed" if not T_given else "T given explicitly")}


# ---------------------------------------------------------------------------- Algorithm 1
def run_alg1(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
             seed: int = 0, calibration: str = "paper", record: int | None = None,
             first_replicate: int = 0, alpha: float = DEFAULT_ALPHA, T: int | None = None,
             r: float | None = None, w0: Any = None, Delta: float | None = None,
             sigma: float | None = None, sigma_H: float | None = None,
             transcript: list | None = None) -> RunResult:
    """DP-TR (wang2020 Algorithm 1).

    Algorithm::

        phi = (sqrt(eps + ln(1/delta)) - sqrt(ln(1/delta)))^2
        for k = 0..T-1:
            g~ = grad L(w^k, D) + e_k,     e_k ~ N(0, sigma^2 I),  sigma^2 = 4 G^2 T/(n^2 phi)
            H~ = hess L(w^k, D) + H_k,     H_k symmetric, upper triangle i.i.d. N(0, sigma_2^2),
                                           sigma_2^2 = 4 p M^2 T/(n^2 phi)
            (h^k, lam^k) = argmin_{||h|| <= r} <g~, h> + h^T H~ h/2   (exact TRS, trs.solve_trs)
            w^{k+1} = w^k + h^k
            if lam^k <= sqrt(alpha rho): output w^{k+1} and stop
        output w^T (no stop: the printed pseudocode has no output line; we return the last
        iterate and report ``metrics["stopped"] = 0``)

    Guarantee: wang2020.thm2 (O(alpha)-SOSP w.h.p. when n satisfies (5)); privacy
    wang2020.thm1 (zCDP route). Settings r = sqrt(alpha/rho), T = 6 sqrt(rho) Delta/alpha^1.5
    (Theorem 2; T is data-dependent through Delta, kept as printed). The variances are the
    catalog's ``wang2020.alg1`` expressions ``sigma2``, ``sigma2_H``.

    Reference: Wang & Xu 2020, Algorithm 1 (DP-TR).

    ``metrics`` adds ``stopped`` (1 if the dual test fired), ``iterations`` (k+1 at the stop,
    else T) and ``lambda_dual`` (last lam^k).
    ``transcript``: a list to which every step appends its noisy gradient and Hessian (the
    transcript the privacy proof composes, for the transcript audit).
    ``w0``: one start of shape (d,) for every replicate, or one per replicate, shape
    (reps, d), with ``Delta`` given: a common bound on F(w0) - min F over the starts, from
    which T and the noise are set (Theorem 2 holds with any Delta >= F(w0) - min F).
    """
    s = _setup(ALG1, objective, data, eps, delta, reps, calibration, alpha, w0, Delta)
    T_given = T is not None or Delta is not None
    T, r, T_set = _T_and_r(s, "wang2020.alg1", T, r)
    sig_o, sigH_o = _noise_std("sigma", sigma), _noise_std("sigma_H", sigma_H)
    vals = _symbols(s, T=T)
    phi = _cat("wang2020.alg1", "phi", vals)
    if calibration == "paper":
        sigma2 = _cat("wang2020.alg1", "sigma2", vals)
        sigma2_H = _cat("wang2020.alg1", "sigma2_H", vals)
        rho_cal = phi
    else:
        rho_cal = _rho_for_eps(s["eps"], s["delta"])
        sigma2 = T * (2 * s["G"] / s["n"]) ** 2 / rho_cal
        sigma2_H = T * (2 * math.sqrt(s["d"]) * s["M"] / s["n"]) ** 2 / rho_cal
    sd = math.sqrt(sigma2) if sig_o is None else sig_o
    sdH = math.sqrt(sigma2_H) if sigH_o is None else sigH_o
    claimed = sig_o is None and sigH_o is None
    with Timer() as timer:
        W, extra, rec = _trust_region_loop(objective, data, s, reps=reps, seed=seed,
                                           first_replicate=first_replicate, record=record,
                                           T=T, r=r, sigma=sd, sigma_H=sdH, sizes=None,
                                           transcript=transcript)
    privacy = _privacy_full(s, sd, sdH, T, claimed)
    params = _base_params(s, calibration, T, T_set, r, T_given)
    params.update({"phi": phi, "rho_zcdp_calibrated": rho_cal,
                   "hess_evals_per_iteration": s["n"]})
    noise = {"sigma": sd, "sigma_H": sdH, "sigma2": sd ** 2, "sigma2_H": sdH ** 2}
    return _finish(ALG1.id, objective, data, s, W, extra, privacy, noise, params,
                   float(extra["iterations"].mean() * s["n"]), timer, rec, seed, first_replicate)


# ---------------------------------------------------------------------------- Algorithm 2
def run_alg2(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
             seed: int = 0, calibration: str = "paper", record: int | None = None,
             first_replicate: int = 0, alpha: float = DEFAULT_ALPHA, T: int | None = None,
             r: float | None = None, w0: Any = None, Delta: float | None = None,
             S_size: int | None = None, T_size: int | None = None, zeta: float = DEFAULT_ZETA,
             sigma: float | None = None, sigma_H: float | None = None,
             transcript: list | None = None) -> RunResult:
    """DP-STR (wang2020 Algorithm 2).

    Algorithm::

        for k = 0..T-1:
            draw S, T_k subset [n] uniformly, independently, fixed sizes |S|, |T| (no replacement)
            g~ = (1/|S|) sum_{i in S} grad l(w^k, x_i) + e_k,
                 sigma^2 = 256 G^2 ln(5T/delta) ln(2/delta)/(n^2 eps^2)            (as printed)
            H~ = (1/|T|) sum_{i in T_k} hess l(w^k, x_i) + H_k,
                 sigma_2^2 = 256 p M^2 T ln(2/delta) ln(5T/delta)/(n^2 eps^2)
            TRS, update and dual stopping test as in Algorithm 1; output w^T if never stopped.

    Guarantee: wang2020.thm4; privacy wang2020.thm3 (the printed gradient variance lacks a
    factor T: the paper's own route gives ~eps sqrt(T+1)/2, see the catalog and
    ``privacy["paper"]["epsilon_route"]``).

    Defaults (Theorem 4 with the Omega constant taken as 1): |S| = ceil(G^2 ln(p/zeta)/alpha^2),
    |T| = ceil(M^2 ln(p/zeta)/(alpha rho)), zeta = 0.1, each clipped to [1, n] (the subsets
    live in [n]; ``params["S_size_clipped"]`` says when the theorem's size exceeded n).

    Reference: Wang & Xu 2020, Algorithm 2 (DP-STR).

    ``transcript``: as for :func:`run_alg1`.
    """
    s = _setup(ALG2, objective, data, eps, delta, reps, calibration, alpha, w0, Delta)
    T_given = T is not None or Delta is not None
    T, r, T_set = _T_and_r(s, "wang2020.alg2", T, r)
    zeta = _positive("zeta", zeta)
    if not zeta < 1:
        raise ValueError(f"zeta must be in (0, 1), got {zeta}")
    n = s["n"]
    S_th = _cat("wang2020.alg2", "Ssz", _symbols(s, zeta=zeta))
    T_th = _cat("wang2020.alg2", "Tsz", _symbols(s, zeta=zeta))
    S = min(n, max(1, math.ceil(S_th))) if S_size is None else _count("S_size", S_size, 1, n)
    Tz = min(n, max(1, math.ceil(T_th))) if T_size is None else _count("T_size", T_size, 1, n)
    sig_o, sigH_o = _noise_std("sigma", sigma), _noise_std("sigma_H", sigma_H)
    vals = _symbols(s, T=T, Ssz=S, Tsz=Tz)
    d, G, M, delta_ = s["d"], s["G"], s["M"], s["delta"]
    if calibration == "paper":
        sigma2 = _cat("wang2020.alg2", "sigma2", vals)
        sigma2_H = _cat("wang2020.alg2", "sigma2_H", vals)
        z_cal = None
    else:
        z_cal = _z_for_eps_str(s["eps"], delta_, T, n, S, Tz)
        sigma2 = (z_cal * 2 * G / S) ** 2
        sigma2_H = (z_cal * 2 * math.sqrt(d) * M / Tz) ** 2
    sd = math.sqrt(sigma2) if sig_o is None else sig_o
    sdH = math.sqrt(sigma2_H) if sigH_o is None else sigH_o
    claimed = sig_o is None and sigH_o is None
    with Timer() as timer:
        W, extra, rec = _trust_region_loop(objective, data, s, reps=reps, seed=seed,
                                           first_replicate=first_replicate, record=record,
                                           T=T, r=r, sigma=sd, sigma_H=sdH, sizes=(S, Tz),
                                           transcript=transcript)
    route = eps_paper_str(sd, sdH, T, n, d, G, M, s["eps"], delta_)
    eps_t = eps_tight_str(sd, sdH, T, n, d, G, M, S, Tz, delta_)
    privacy = {"paper": {"epsilon": s["eps"] if claimed else route, "epsilon_route": route,
                         "claimed": s["eps"] if claimed else None, "delta": delta_,
                         "thm3_hypotheses": bool(s["eps"] < 1),
                         "route": "Def. 3 with delta0 = delta/(4T), Lemma 2 amplification "
                                  "(2 gamma eps0), advanced composition of 2T mechanisms with "
                                  "delta' = delta/2 (wang2020.thm3 as reconstructed)"},
               "tight": {"epsilon": eps_t, "delta": delta_,
                         "route": "RDP of the fixed-size (without replacement, substitution) "
                                  "subsampled Gaussian (WBK 2019), composed over T steps for "
                                  "both mechanisms, improved conversion"}}
    if sd > 0 and sdH > 0:
        privacy["tight"].update(two_sided(ComposedEvent((
            sampled_steps(S / n, sd * S / (2 * G), T),
            sampled_steps(Tz / n, sdH * Tz / (2 * math.sqrt(d) * M), T))), delta_,
            relation="replace-one"))
    params = _base_params(s, calibration, T, T_set, r, T_given)
    params.update({"S_size": S, "T_size": Tz, "S_size_theorem": S_th, "T_size_theorem": T_th,
                   "S_size_clipped": S_size is None and S_th > n,
                   "T_size_clipped": T_size is None and T_th > n, "zeta": zeta,
                   "noise_multiplier_calibrated": z_cal,
                   "noise_multiplier_grad": sd * S / (2 * G),
                   "noise_multiplier_hess": sdH * Tz / (2 * math.sqrt(d) * M),
                   "hess_evals_per_iteration": Tz})
    noise = {"sigma": sd, "sigma_H": sdH, "sigma2": sd ** 2, "sigma2_H": sdH ** 2}
    return _finish(ALG2.id, objective, data, s, W, extra, privacy, noise, params,
                   float(extra["iterations"].mean() * S), timer, rec, seed, first_replicate)


# ---------------------------------------------------------------------------- DP-GD baseline
def run_dpgd(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1,
             seed: int = 0, calibration: str = "paper", record: int | None = None,
             first_replicate: int = 0, alpha: float = DEFAULT_ALPHA, T: int | None = None,
             eta: float | None = None, w0: Any = None, Delta: float | None = None,
             radius: float | None = None, sigma: float | None = None,
             sigma_H: float | None = None) -> RunResult:
    """DP-GD with private alpha-SOSP selection: the baseline [28] (Wang, Chen, Xu, ICML 2019)
    of wang2020's experiments.

    Its pseudocode is not in wang2020; Remark 2 describes it as two routines, "the
    Differentially Private Gradient Descent method and ... the procedure of selecting an
    alpha-SOSP" that "needs to calculate the whole Hessian matrix and verify some conditions
    as stopping criteria". Implemented (the standard form, same privacy route as DP-TR)::

        for t = 0..T-1:
            g~_t = grad L(w_t, D) + z_t,   z_t ~ N(0, sigma^2 I),    sigma^2 = 4 G^2 T/(n^2 phi)
            H~_t = hess L(w_t, D) + H_t,   H_t symmetric Gaussian,   sigma_2^2 = 4 p M^2 T/(n^2 phi)
            if ||g~_t|| <= alpha and lambda_min(H~_t) >= -sqrt(rho alpha): output w_t, stop
            w_{t+1} = Proj_R(w_t - eta g~_t)
        output w_T (``metrics["stopped"] = 0``)

    The 2T releases are the same Gaussian mechanisms as DP-TR's (sensitivities 2G/n and
    2 sqrt(p) M/n), so the noise is calibrated by the same zCDP route (phi split equally) and
    the same tight accountant. Choices: eta = 1/M; T = ceil(2 M Delta/alpha^2) (at least 1),
    the gradient-descent count ([28]'s T = O~(1/alpha^2)): with eta = 1/M every step with
    ||grad L|| > alpha decreases L by >= alpha^2/(2M) without noise. Overridable.
    Proj_R is the projection onto the ball ||w|| <= R, R = ``radius`` defaulting to the
    objective's ``domain_radius`` (the ball on which G, M, rho are certified; no projection
    when the family's constants hold everywhere or ``radius=inf``): noisy gradient steps of
    length eta sigma sqrt(p) otherwise leave the region where the constants (and so the
    privacy analysis) hold, and diverge on quartic families. Projection is post-processing.

    Guarantee: [28] (wang2020.related, n_28; wang2020.remark1: n >= p sqrt(ln 1/delta)/
    (alpha^2 eps) for an O(alpha)-SOSP); privacy as wang2020.thm1's route.
    Reference: Wang, Chen, Xu 2019, "Differentially private empirical risk minimization with
    non-convex loss functions", cited as [28] in wang2020 (Sec. 5 baseline, Remark 2).
    """
    s = _setup(DPGD, objective, data, eps, delta, reps, calibration, alpha, w0, Delta)
    T_given = T is not None or Delta is not None
    T_set = 2 * s["M"] * max(s["Delta"], 0.0) / s["alpha"] ** 2
    T = check_steps(max(1, math.ceil(T_set - 1e-9)) if T is None else _count("T", T))
    eta = 1.0 / s["M"] if eta is None else _positive("eta", eta)
    if radius is None:
        radius = objective.domain_radius if objective.domain_radius is not None else math.inf
    elif not (isinstance(radius, (int, float, np.integer, np.floating)) and radius > 0):
        raise ValueError(f"radius must be > 0 (inf for no projection), got {radius!r}")
    radius = float(radius)
    sig_o, sigH_o = _noise_std("sigma", sigma), _noise_std("sigma_H", sigma_H)
    vals = _symbols(s, T=T)
    phi = _cat("wang2020.alg1", "phi", vals)
    if calibration == "paper":
        rho_cal = phi
        sigma2 = _cat("wang2020.alg1", "sigma2", vals)
        sigma2_H = _cat("wang2020.alg1", "sigma2_H", vals)
    else:
        rho_cal = _rho_for_eps(s["eps"], s["delta"])
        sigma2 = T * (2 * s["G"] / s["n"]) ** 2 / rho_cal
        sigma2_H = T * (2 * math.sqrt(s["d"]) * s["M"] / s["n"]) ** 2 / rho_cal
    sd = math.sqrt(sigma2) if sig_o is None else sig_o
    sdH = math.sqrt(sigma2_H) if sigH_o is None else sigH_o
    claimed = sig_o is None and sigH_o is None
    d, alpha_, thr = s["d"], s["alpha"], math.sqrt(s["alpha"] * s["rho"])
    with Timer() as timer:
        streams = ReplicateStreams(seed, reps, first_replicate)
        hgens = _child_gens(streams)
        rec = Recorder(record)
        W = np.tile(s["w0"], (reps, 1)) if np.ndim(s["w0"]) == 1 else s["w0"].copy()
        rec(0, W)
        stopped = np.zeros(reps, dtype=bool)
        iters = np.full(reps, T, dtype=np.int64)
        for t in range(T):
            act = ~stopped
            z = sd * streams.normal(d)
            Wa = W[act]
            g_t = objective.grad_F(Wa, data) + z[act]
            H_t = objective.hess_F(Wa, data) + _hess_noise(hgens, act, d, sdH)
            lmin = np.linalg.eigvalsh(H_t)[:, 0]
            ok = (np.linalg.norm(g_t, axis=1) <= alpha_) & (lmin >= -thr)
            stop_now = np.zeros(reps, dtype=bool)
            stop_now[act] = ok
            iters[stop_now] = t                     # w_t is output: t gradient steps taken
            stopped |= stop_now
            move = act & ~stop_now
            W_new = W[move] - eta * g_t[~ok]
            if math.isfinite(radius):
                nrm = np.linalg.norm(W_new, axis=1, keepdims=True)
                W_new *= np.minimum(1.0, radius / np.maximum(nrm, 1e-300))
            W[move] = W_new
            rec(t + 1, W)
            if stopped.all():
                break
    privacy = _privacy_full(s, sd, sdH, T, claimed)
    params = _base_params(s, calibration, T, T_set, float("nan"), T_given)
    params.pop("r")
    params.update({"eta": eta, "radius": radius, "phi": phi, "rho_zcdp_calibrated": rho_cal,
                   "T_rule": "ceil(2 M Delta / alpha^2)", "hess_evals_per_iteration": s["n"]})
    params["T_note"] = params["T_note"].replace("6 sqrt(rho) Delta/alpha^1.5", "2 M Delta/alpha^2")
    noise = {"sigma": sd, "sigma_H": sdH, "sigma2": sd ** 2, "sigma2_H": sdH ** 2}
    # gradients are evaluated at every visited point, including the output one
    evals = float(np.minimum(iters + 1, T).mean() * s["n"])
    return _finish(DPGD.id, objective, data, s, W,
                   {"stopped": stopped.astype(float), "iterations": iters.astype(float)},
                   privacy, noise, params, evals, timer, rec, seed, first_replicate)


ALG1 = Algorithm(id="wang2020.alg1", paper="wang2020", title="DP-TR (Algorithm 1)",
                 run=run_alg1, theorem="wang2020.thm2", privacy_theorem="wang2020.thm1",
                 requires=REQUIRES,
                 notes="full gradient + full Hessian with Gaussian noise, exact TRS, dual "
                       "stopping rule lambda <= sqrt(alpha rho)")
ALG2 = Algorithm(id="wang2020.alg2", paper="wang2020", title="DP-STR (Algorithm 2)",
                 run=run_alg2, theorem="wang2020.thm4", privacy_theorem="wang2020.thm3",
                 requires=REQUIRES,
                 notes="fixed-size uniform subsamples S, T without replacement, fresh per step")
DPGD = Algorithm(id="wang2020.dpgd", paper="wang2020",
                 title="DP-GD with private SOSP selection ([28], baseline)",
                 run=run_dpgd, theorem="wang2020.related",
                 privacy_theorem="wang2020.thm1", requires=REQUIRES, baseline=True,
                 notes="noisy full-gradient descent, eta = 1/M, T = ceil(2 M Delta/alpha^2), "
                       "stops at the first w_t passing the noisy gradient/Hessian test")

ALGORITHMS: list[Algorithm] = [ALG1, ALG2, DPGD]
