"""Every check dptheory runs on yang2022 (clipped and normalized DP-SGD under generalized
(L0, L1)-smoothness: DP-NSGD, Algorithm 1, and DP-SGD with clipping), in one place.

* **Utility** — min_t ||grad f(w_t)|| against the n-rates of Corollaries 3.3 and 3.5 (no
  r-sweep of Theorem 3.2: it cannot fail, see the note above ``_LAW``); the first-order
  Lemmas A.3 (normalization) and A.5 (clipping) as lower bounds, from their exact
  expectations.
* **Sensitivity** — Lemma 3.1: the sums of clipped and of normalized per-sample gradients.
* **Audits** — DP-NSGD and DP-SGD (:data:`AUDITS`).
* **Hyper-parameters** — the reconstructed step size and dptheory's r, C, M
  (:data:`HYPERPARAMETERS`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dptheory.verify.recipe import Recipe
from dptheory_simulations.objectives import Dataset
from dptheory_simulations.objectives import get as get_objective

from .audits import audit_recipes
from .cells import (catalog_bound, floats, scaled_variant,
                    objective_and_data, param, replicate_rng,
                    run_algorithm, scalar_params, utility_recipe)
from .sensitivity import (SEARCH_QUICK, certified_result, evaluate_item, lipschitz, per_step_cell,
                          per_step_value, sensitivity_recipe, sub_seed)

MODULE = __name__


# ============================================================================ cells
def min_grad(cell: dict) -> dict:
    """DP-NSGD / DP-SGD (yang2022) on a generalized-smooth family: min_t ||grad f(w_t)||.

    ``samples``: per replicate, min over t < T of ||grad f(w_t)|| (E min_t <= min_t E, so the
    mean is a lower estimate of the corollaries' min_t E||grad f(w_t)||), or with
    ``estimate = "last"`` ||grad f(w_{T-1})|| (an upper estimate: min_t E <= E at t = T-1),
    or with ``estimate = "window"`` the mean over the second half of the run
    (:func:`window_mean`, an upper estimate of far smaller spread; the per-run minima, the
    lower estimate, then come as ``lower_samples``).
    Data: :func:`_data`; T: :func:`_steps`. The corollaries'
    explicit bounds hide k1..k3, so ``bound`` is None; ``rate`` is the printed rate at this
    instance (c2 of the run).
    """
    n = int(param(cell, "n"))
    obj, data = _data(cell, n)
    kw: dict[str, Any] = {"T": _steps(cell, n), "c2": cell.get("c2", "tight")}
    if cell.get("B") is not None:
        kw["B"] = int(cell["B"])
    if cell.get("w0") is not None:
        kw["w0"] = np.full(data.d, float(cell["w0"]))
    r = param(cell, "r")
    if r is not None:
        kw["r"] = float(r)
    res = run_algorithm(cell, cell["algorithm"], obj, data, **kw)
    p = res.params
    vals = {"n": n, "d": data.d, "eps": float(cell["eps"]), "delta": float(cell["delta"]),
            "Fgap": float(p["D_f"]), "L0": float(p["L0"]), "y22_c2": float(p["c2"]),
            "tau0": float(p["tau0"]), "tau1": float(p["tau1"]), "B": int(p["B"]),
            "T": int(p["T"])}
    if cell["algorithm"] == "yang2022.alg1":
        vals["r"] = float(p["r"])
    else:
        vals["C"] = float(p["C"])
    # min over 0 <= t < T includes t = 0: the quantity never exceeds ||grad f(w0)||
    w0 = np.asarray(p["w0"], dtype=float).reshape(-1, data.d)[0]
    start = float(obj.grad_norm(w0, data))
    out: dict[str, Any] = {}
    # the envelope is for records uniform in the ball (constant records: ||grad F(0)|| = 1)
    if cell["family"] == "cosh-generalized-smooth" and not np.any(w0) and cell.get("records") is None:
        out["start_envelope"] = start_envelope(n, data.d, float(obj.x_radius))
    # estimate "last": ||grad F(w_{T-1})|| per replicate, whose mean E||grad F(w_{T-1})|| is
    # at least min_{t<T} E||grad F(w_t)||: an upper estimate of the corollaries' quantity;
    # "window": the same for the mean over the fixed window W (:func:`window_mean`)
    est = cell.get("estimate", "min")
    T = int(p["T"])
    if est == "min":
        samples = res.metrics["min_grad_norm"]
    elif est == "last":
        samples = res.series["grad_norm"][:, T - 1]
    elif est == "window":
        samples = window_mean(res.series["grad_norm"], T)
        # E min_t, the lower estimate of the same runs, as evidence beside the upper one
        out["lower_samples"] = floats(res.metrics["min_grad_norm"])
    else:
        raise ValueError(f"estimate must be 'min', 'last' or 'window', got {est!r}")
    return {**out, "samples": floats(samples), "bound": None,
            "trivial": start, "trivial_source": "min_t includes t = 0: <= ||grad f(w0)||",
            "rate": catalog_bound(cell["item"], vals, what="rate"),
            "grad_norm_last": floats(res.metrics["grad_norm"]),
            "noise_term": float(p["sigma"]) ** 2 * data.d / int(p["B"]) ** 2,
            "params": scalar_params(p), "eps_tight": float(res.privacy["tight"]["epsilon"])}


def window_mean(grad_norm: np.ndarray, T: int) -> np.ndarray:
    """Per replicate, the mean of ||grad f(w_t)|| over the window W = {floor(T/2), ..., T-1}.

    W depends on T only (it is fixed before the run), so by linearity the replicates' mean
    estimates (1/|W|) sum_{t in W} E||grad f(w_t)||, which is at least min_{t in W}
    E||grad f(w_t)|| >= min_{0 <= t < T} E||grad f(w_t)||: an *upper* estimate of the
    quantity that yang2022's Corollaries 3.3 and 3.5 bound (catalog ``yang2022.setup``). It
    is unbiased for the window mean, and averaging over the |W| = T - floor(T/2) steps of
    each run gives it a far smaller spread than the single step t = T-1 (``"last"``). The
    second half of the run excludes the transient from w0 once the horizon eta T is long.

    Parameters
    ----------
    grad_norm : (reps, T+1) array of ||grad f(w_t)||, t = 0..T (``series["grad_norm"]``).
    T : the number of steps.
    """
    g = np.asarray(grad_norm, dtype=float)
    if g.ndim != 2 or g.shape[1] < T or T < 1:
        raise ValueError(f"grad_norm must be (reps, >= T) with T >= 1, got shape {g.shape}, T = {T}")
    return g[:, T // 2:T].mean(axis=1)


def _data(cell: dict, n: int) -> tuple[Any, Dataset]:
    """The cell's objective and N records: i.i.d. from the family (default) or, with
    ``records = "constant"``, N copies of x = e_1 (||x|| = 1; exact in floating point, so
    x_bar = x and the certified tau0 is exactly 0, not a rounding residue). Constant
    records give tau0 = max_i ||x_i - x_bar|| = 0, so x_nv(r) = 0 and M = 0 in Corollary 3.3
    (the bound is the pure N^-1/2 rate, the algorithms then take r = C = 1), and
    ||grad F(0)|| = ||x|| = 1 at every N (the start does not meet the rate)."""
    if cell.get("records") is None:
        return objective_and_data(cell, n)
    if cell["records"] != "constant":
        raise ValueError(f"records must be 'constant' or absent, got {cell['records']!r}")
    obj, _ = objective_and_data(cell, 1)
    x = np.zeros(obj.d)
    x[0] = 1.0
    return obj, Dataset(np.tile(x, (n, 1)), np.zeros(n))


def _steps(cell: dict, n: int) -> int:
    """T: ``T`` fixed, or with ``T_per_n2 = k`` the larger of ``T`` and ceil(k N^2), so that the
    noise term sigma^2 d/B^2 = c2^2 T d log(1/delta)/(N^2 eps^2) of (4)/(8) stays fixed as N
    grows (k = 1/128: about 10 at eps = 1, delta = 1e-5, d = 5, c2 = 4.8): the runs stay in the
    noise-dominated regime that the corollaries' T -> oo limit describes."""
    T = int(cell["T"])
    k = cell.get("T_per_n2")
    return T if k is None else max(T, int(np.ceil(float(k) * n * n)))


def start_envelope(n: int, d: int, x_radius: float) -> dict[str, Any]:
    """A certified bound, the same for every algorithm, on the mean over data sets of
    min_t E||grad f(w_t)|| from w0 = 0 on ``cosh-generalized-smooth``.

    The min over t includes t = 0, so the quantity is at most ||grad F_S(0)|| = ||x_bar||
    (f = sum_j cosh(w_j) + <x, w>, sinh(0) = 0). The records are i.i.d. uniform in the ball
    of radius X (mean 0, E||x||^2 = X^2 d/(d + 2)), so E||x_bar||^2 = X^2 d/((d + 2) N) and
    by Jensen E||x_bar|| <= X sqrt(d/((d + 2) N)): exponent -1/2 in N, exactly.
    """
    return {"value": x_radius * float(np.sqrt(d / ((d + 2) * n))),
            "derivation": f"min_t <= ||grad F_S(0)|| = ||x_bar||, E||x_bar|| <= X sqrt(d/((d+2) N)) "
                          f"(x_i i.i.d. uniform in the ball of radius X = {x_radius:g}, d = {d})"}


def first_order_exact(lemma: str, law: str, x: float, tau0: float, tau1: float, d: int = 3, *,
                      r: float | None = None, C: float | None = None) -> tuple[float, float, str]:
    """The exact E<grad f, phi(g)> of :func:`first_order`'s law (yang2022 Lemmas A.3, A.5).

    With grad f = x e_1 and g = grad f + s a u (a = tau0 + tau1 x, s = +-1 equiprobable):
    <grad f, phi(g)> = x (x + a t) w(||g||) with t = s u_1, ||g||^2 = x^2 + a^2 + 2 a x t and
    w(m) = 1/(m + r) (normalization, A.3) or min(1, C/m) (clipping, A.5).

    * ``law="collinear"`` (u = e_1): t = +-1 equiprobable, a two-point law, summed exactly;
    * ``law="sphere"`` (u uniform on S^{d-1}): t = s u_1 has the law of u_1, density
      proportional to (1 - t^2)^((d-3)/2) on [-1, 1] (uniform for d = 3); with t = cos(theta)
      the expectation is int_0^pi F(cos theta) sin(theta)^(d-2) dtheta / Z_d,
      Z_d = sqrt(pi) Gamma((d-1)/2)/Gamma(d/2), by adaptive quadrature (scipy ``quad``, split
      at the clipping kink ||g|| = C), whose error estimate is returned;
    * clipping with x + a <= C (every draw has ||g|| <= x + a <= C, none is clipped): E<grad
      f, g> = x^2 + x a E[t] = x^2 exactly, both laws.

    Returns
    -------
    (value, error, derivation): ``error`` bounds |value - E| (quadrature estimate plus float
    rounding); ``derivation`` says which case applies.
    """
    from scipy.integrate import quad  # noqa: PLC0415
    from scipy.special import gammaln  # noqa: PLC0415

    if lemma not in ("A.3", "A.5"):
        raise ValueError(f"lemma must be 'A.3' or 'A.5', got {lemma!r}")
    if law not in ("collinear", "sphere"):
        raise ValueError(f"law must be 'collinear' or 'sphere', got {law!r}")
    for name, v in (("x", x), ("tau0", tau0), ("tau1", tau1)):
        if not (np.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {v}")
    if int(d) < 2:
        raise ValueError(f"d must be >= 2, got {d}")
    scale = float(r) if lemma == "A.3" else float(C)        # type: ignore[arg-type]
    if not (np.isfinite(scale) and scale > 0):
        raise ValueError(f"{'r' if lemma == 'A.3' else 'C'} must be a finite number > 0, got {scale}")
    a = tau0 + tau1 * x
    rounding = 1e-15 * (x * (x + a) + 1.0)
    if lemma == "A.5" and x + a <= scale:
        return x * x, rounding, (f"exact: no draw is clipped (||g|| <= x + tau0 + tau1 x = "
                                 f"{x + a:g} <= C = {scale:g}), so E<grad f, g> = x^2 + x E[xi_1] "
                                 f"= x^2 = {x * x:g}")

    def F(t: float) -> float:
        m = float(np.sqrt(max(0.0, x * x + a * a + 2.0 * a * x * t)))
        if m == 0.0:
            return 0.0                                     # g = 0: phi(g) = 0
        w = 1.0 / (m + scale) if lemma == "A.3" else min(1.0, scale / m)
        return x * (x + a * t) * w

    phi = "g/(||g|| + r)" if lemma == "A.3" else "clip_C(g)"
    if law == "collinear":
        value = 0.5 * (F(1.0) + F(-1.0))
        return value, rounding, (f"exact: two-point law g = (x +- a) e_1, a = tau0 + tau1 x = "
                                 f"{a:g}: E<grad f, {phi}> = (F(1) + F(-1))/2 = {value:.12g}")
    k = int(d) - 2
    Z = float(np.exp(0.5 * np.log(np.pi) + gammaln((d - 1) / 2) - gammaln(d / 2)))
    points = None
    if lemma == "A.5":
        t_kink = (scale ** 2 - x * x - a * a) / (2.0 * a * x)
        if -1.0 < t_kink < 1.0:
            points = [float(np.arccos(t_kink))]
    val, err = quad(lambda th: F(float(np.cos(th))) * np.sin(th) ** k, 0.0, float(np.pi),
                    points=points, epsabs=1e-13, epsrel=1e-13, limit=200)
    value, error = val / Z, err / Z + rounding
    return value, error, (f"exact: u_1 of u uniform on S^{d - 1} has density proportional to "
                          f"(1 - t^2)^(({d} - 3)/2); E<grad f, {phi}> = int_0^pi F(cos th) "
                          f"sin(th)^{k} dth / Z_{d} = {value:.12g} (adaptive quadrature, error "
                          f"<= {error:.2g}), a = tau0 + tau1 x = {a:g}")


def first_order(cell: dict) -> dict:
    """The first-order lower bounds (yang2022 Lemmas A.3 and A.5), decided exactly.

    grad f = x e_1 and g = grad f + xi with xi = s (tau0 + tau1 x) u, s = +-1 equiprobable,
    u = e_1 (``law="collinear"``, the adversarial direction) or u uniform on the sphere
    (``law="sphere"``): E xi = 0 and ||xi|| <= tau0 + tau1 ||grad f|| a.s. (A2.2), with
    phi(g) = g/(||g|| + r) (A.3) or clip_C(g) (A.5). ``exact`` is E<grad f, phi(g)> of
    :func:`first_order_exact` (the engine judges it with
    :func:`dptheory.verify.checks.exact_check`), ``bound`` = h(x) (h16 / hC20), and
    ``direction`` = "lower": the lemma is E<grad f, phi(g)> >= h(x). ``samples`` is a Monte
    Carlo of the same law (per replicate, the mean over ``draws``), kept as a cross-check of
    the exact value (its mean is quoted in ``derivation``). Where the quadrature error
    cannot separate the value from the bound, ``exact`` is left out and the Monte Carlo
    decides.
    """
    x = float(param(cell, "x"))
    tau0, tau1 = float(cell["tau0"]), float(cell["tau1"])
    d, draws, reps = int(cell.get("d", 3)), int(cell["draws"]), int(cell["reps"])
    a = tau0 + tau1 * x
    gf = np.zeros(d)
    gf[0] = x
    out = np.empty(reps)
    for r in range(reps):
        rng = replicate_rng(cell, r, 2)
        s = np.where(rng.random(draws) < 0.5, -1.0, 1.0)
        if cell["law"] == "collinear":
            U = np.zeros((draws, d))
            U[:, 0] = 1.0
        else:
            U = rng.standard_normal((draws, d))
            U /= np.linalg.norm(U, axis=1, keepdims=True)
        g = gf[None, :] + (s * a)[:, None] * U
        ng = np.linalg.norm(g, axis=1)
        if cell["lemma"] == "A.3":
            phi = g / (ng + float(cell["r"]))[:, None]
        else:
            C = float(cell["C"])
            phi = g * np.minimum(1.0, C / np.where(ng > 0, ng, 1.0))[:, None]
        out[r] = float(np.mean(phi @ gf))
    if cell["lemma"] == "A.3":
        h = catalog_bound("yang2022.lemmaA.3", {"y22_x": x, "tau0": tau0, "tau1": tau1,
                                                "r": float(cell["r"])}, what="h16")
    else:
        h = catalog_bound("yang2022.lemmaA.5", {"y22_x": x, "tau0": tau0, "tau1": tau1,
                                                "C": float(cell["C"])}, what="hC20")
    value, error, how = first_order_exact(cell["lemma"], cell["law"], x, tau0, tau1, d,
                                          r=float(cell["r"]), C=float(cell["C"]))
    # a lower bound: <grad f, phi(g)> >= -||grad f|| ||phi(g)|| >= -x (normalised: ||phi||
    # < 1) or -x C (clipped) is the smallest value the quantity can take
    phi_max = 1.0 if cell["lemma"] == "A.3" else float(cell["C"])
    res = {"samples": floats(out), "bound": h, "direction": "lower",
           "trivial": -x * phi_max, "trivial_source": "<grad f, phi(g)> >= -x ||phi(g)||",
           "constants": {"tau0": tau0, "tau1": tau1}}
    # exact_check allows float rounding of 1e-9 |bound|; the value decides only when its
    # error cannot move it across the bound (equality, x + a <= C, has error ~1e-15)
    if error <= 1e-10 * max(1.0, abs(h)) or abs(value - h) > 2 * error:
        se = float(np.std(out, ddof=1) / np.sqrt(reps)) if reps > 1 else float("nan")
        res.update({"exact": value, "exact_error": error,
                    "derivation": f"{how}; Monte Carlo of the same law (this block, {reps} x "
                                  f"{draws} draws): mean {np.mean(out):.6g} (s.e. {se:.2g})"})
    return res


# ============================================================================ recipes
_CS = {"family": "cosh-generalized-smooth", "objective_params": {"d": 5}}

_PHI = {"A.3": "normalization g/(||g||+r), r = 1",
        "A.5": "clipping at C = 4 = 2 tau0/(1 - tau1)"}

#: the upper estimate of the ``:slope-n`` checks (:func:`window_mean`)
_UPPER = ("min_{t<T} E ||grad f(w_t)|| <= (1/|W|) sum_{t in W} E ||grad f(w_t)|| for the window "
          "W = {floor(T/2), ..., T-1} of the second half of the run, fixed by T before the run: "
          "the replicates' mean of the per-run window averages bounds the minimum over t of "
          "the mean from above")

def _constant(w0: float) -> str:
    """The description of the tau0 = 0 instance of the ``:slope-n`` sweeps, from w0 = w0 * 1."""
    start = {2.0: "||grad F(w0)|| = 8.6 and D_f = 16.3", 3.0: "||grad F(w0)|| = 22.9 and D_f = 48.8"}
    return ("on cosh-generalized-smooth d = 5 with every record equal to e_1 (tau0 = tau1 = 0 "
            "certified, so x_nv(r) = 0 and M = 0: the corollary's bound is the pure N^-1/2 "
            f"rate, and the algorithms take r = C = 1), from w0 = ({w0:g}, ..., {w0:g}) where "
            f"{start[w0]} at every N (the start does not meet the rate), sigma of Lemma 3.1 "
            "with the accountant's c2 (about 4.8), B = N/10, T = ceil(N^2/128) so that "
            "sigma^2 d/B^2 is about 10 at every N (the corollaries' T -> oo regime: T grows with "
            "N as the noise term requires)")


#: the start of the ``:slope-n`` sweeps. The horizon of (4)/(8) at T = N^2/128 is eta T =
#: N sqrt(D_f/(128 L0 (1 + sigma^2 d/B^2))), about N sqrt(D_f/L0)/37.5: from w0 = 0 (D_f =
#: 0.47) it is 0.01 N, so the transient from the start fills most of the run below N ~ 800;
#: from w0 = (3, ..., 3) (D_f = 48.8, ||w0 - w*|| = 7.1 travelled at the clipped or
#: normalised unit speed) it is 0.1 N, 39 at N = 400, and the second half of the run is past
#: the transient (measured: the per-time means at T/2, 3T/4 and T - 1 agree within their
#: noise from N = 400). DP-NSGD starts at w0 = (2, ..., 2) (D_f = 16.3, eta T = 0.057 N,
#: 22 at N = 400, past the transient by T/2 as well): its level is 0.76 times lower, and
#: the level is what keeps its slope off -1/2 (see _NSGD_UNDECIDED)
_W0 = 3.0

#: where the DP-NSGD sweep decides (measured, quick sizes, 64 runs per point)
_NSGD_UNDECIDED = (
    "DP-NSGD's window mean decays faster than N^-1/2 but its slope still drifts at the quick "
    "sizes: from w0 = 2, 0.375, 0.243, 0.165 at N = 400, 800, 1600 (slopes -0.62, -0.56; 64 "
    "runs per point; from w0 = 3, -0.65, -0.58). The normalisation g/(||g|| + r) slows the "
    "drift by the factor 1 + ||g||, so the level L solves about L^2 ~ (1 + L)/N and the local "
    "slope is -1/(2 - L/(1 + L)): -1/2 only as L -> 0. --full decides it at N = 800, 1600, "
    "3200 (measured: 0.243, 0.165, 0.113, slopes -0.56, -0.54, their difference within "
    "[-0.02, 0.06]: supported, about 200 s)")

# Corollary 3.3 has no N-sweep on data with tau0 > 0 (records uniform in a ball): there the
# printed bound O(sqrt(M + r) (...)^1/4) + O(x_nv(r)) keeps the constant x_nv(r) =
# Theta(tau0/2) at r = M, so its N-exponent is 0, an O(1) claim. Every algorithm meets it on
# a fixed instance: min_{t<T} E||grad f(w_t)|| <= ||grad F(w0)|| = ||sinh(w0) + x_bar||, which
# is bounded in N (||x_bar|| <= X): such a sweep cannot fail (vacuous by construction). The
# N^-1/2 part is checked where x_nv = 0 (yang2022.cor3.3:slope-n, tau0 = 0).
#
# Theorem 3.2 has no r-sweep either (removed as ill-posed, like the sweep above): (5) is an
# upper bound whose decaying term grows as sqrt(M + r) in r (k2 > 0, and (4)'s eta, D_f and
# w0 do not depend on r), while the measured min_{t<T} E||grad f(w_t)|| includes t = 0 and so
# never exceeds ||grad F(w0)||, the same at every r. A quantity bounded in r meets an
# O(r^1/2) upper bound on every instance: a slope in r can never refute it, and a slope
# within the claim says nothing about the algorithm (the --full run was vacuous: slope
# -0.03 over r = 8..128 at N = 400 against the start's exact slope 0).


_LAW = {"collinear": "= e_1 (collinear with grad f, adversarial)",
        "sphere": "uniform on the sphere"}


def _corollary(item: str, alg: str, eq: str, w0: float, undecided: str = "") -> Recipe:
    """The N-sweep of one corollary on the tau0 = 0 instance, judged on the window mean of
    :func:`window_mean` (an upper estimate of min_t E: a stable slope within the claim
    supports it; a shallower one cannot refute it). The cells also keep the per-run minima
    (E min_t, a lower estimate) as ``lower_samples``."""
    fixed = {**_CS, "T": 1, "T_per_n2": 1.0 / 128, "records": "constant", "eps": 1.0,
             "delta": 1e-5, "algorithm": alg, "item": item, "w0": w0, "estimate": "window"}
    what = f"{'DP-NSGD' if alg == 'yang2022.alg1' else 'DP-SGD with clipping'} (eta of {eq}) "
    # constant records: every data set is the same N copies of e_1, so one data set (the
    # replicates differ by their noise and batches only). The cost grows as N^2 (T) times
    # N/10 (B): N = 1600 is about 12 s for 32 runs, N = 3200 about 2 minutes for 64.
    return utility_recipe(
        id=f"{item}:slope-n", item=item, check="slope", cell=f"{MODULE}:min_grad",
        sweep={"n": [400, 800, 1600]}, sweep_full={"n": [800, 1600, 3200]},
        reps=32, block=32, reps_full=64, datasets=1, datasets_full=1,
        expected_slope=-0.5, tolerance=0.15, extend={"factor": 2, "quick": 0, "full": 0},
        fixed=fixed, metric="E mean_{t in W} ||grad f(w_t)||", upper_estimate=_UPPER,
        undecided=undecided,
        constants_note="the check is the N-exponent of an O-rate, and a scale of the loss "
                       "(L0, the gradients and the threshold C times c) changes the bound's "
                       "factor, not its exponent in N, because O(.) absorbs constant factors; "
                       "the explicit bounds whose constants could be dropped are run at "
                       "scales 1/4 and 4 (yang2022.lemmaA.3/A.5)",
        description=f"{what}{_constant(w0)}: the mean of ||grad f(w_t)|| over the second half "
                    "of the run vs N (an upper estimate of min_{t<T} E||grad f(w_t)||), "
                    "printed rate N^-1/2 (no log of N), tolerance 0.15.")


RECIPES: list[Recipe] = [
    _corollary("yang2022.cor3.3", "yang2022.alg1", "(4)", 2.0, _NSGD_UNDECIDED),
    _corollary("yang2022.cor3.5", "yang2022.dpsgd", "(8)", _W0),
    # Corollary 3.5 on records uniform in the ball (tau0 > 0, C = 2 tau0/(1 - tau1) of Lemma
    # A.5), from the same start and at the same T(N). Full only: the three data sets per
    # point (they differ here) need about 100 runs per point at N = 1600 to show the slopes
    # stable, about 50 s; the quick sweeps' sizes cannot. Corollary 3.3 has no such check:
    # see the note above _LAW.
    utility_recipe(id="yang2022.cor3.5:slope-n-ball", item="yang2022.cor3.5", check="slope",
                   cell=f"{MODULE}:min_grad", sweep={"n": [400, 800, 1600]}, quick=False,
                   fixed={**_CS, "T": 1, "T_per_n2": 1.0 / 128, "eps": 1.0, "delta": 1e-5,
                          "algorithm": "yang2022.dpsgd", "item": "yang2022.cor3.5",
                          "w0": _W0, "estimate": "window"},
                   reps=32, block=32, datasets=3, datasets_full=3,
                   expected_slope=-0.5, tolerance=0.15, upper_estimate=_UPPER,
                   extend={"factor": 2, "quick": 0, "full": 0},
                   metric="E mean_{t in W} ||grad f(w_t)||",
                   description="As yang2022.cor3.5:slope-n but on records uniform in the ball of "
                               "radius 1 (tau0 = max_i ||x_i - x_bar|| > 0, about 1.03, so C = "
                               "2 tau0 is the threshold of Lemma A.5), T = ceil(N^2/128), "
                               "from w0 = (3, ..., 3). Printed rate N^-1/2, tolerance 0.15."),
    *(_FIRST_ORDER := [utility_recipe(id=f"yang2022.lemma{lem}:bound-x-{law}", item=f"yang2022.lemma{lem}", check="bound",
                     cell=f"{MODULE}:first_order",
                     sweep={"x": xs}, sweep_full={"x": xs + [32.0]},
                     fixed={"lemma": lem, "law": law, "tau0": 1.0, "tau1": 0.5, "r": 1.0, "C": 4.0,
                            "d": 3, "draws": 512}, reps=16, block=16, reps_full=64,
                     metric="E<grad f, phi(g)>",
                     description=f"Lemma {lem} ({_PHI[lem]}) under A2.2 with tau0 = 1, tau1 = 0.5: "
                                 f"noise s (tau0 + tau1 x) u, s = +-1, u {_LAW[law]}. "
                                 "A LOWER bound (direction 'lower'), decided by the exact "
                                 "E<grad f, phi(g)> (two-point law, or a 1-D integral over u_1 by "
                                 "quadrature), bound h(x); a Monte Carlo of the same law (mean of 512 "
                                 "draws per replicate) is kept beside it as a cross-check."
                                 + ("" if lem == "A.3" else " x starts above (C - tau0)/(1 + tau1) = 2: "
                                    "below it no draw is clipped and E<grad f, g> = x^2 = h_C(x) is an "
                                    "identity (equality holds; it says nothing about clipping)."))
      for lem, xs in (("A.3", [0.25, 1.0, 2.0, 4.0, 8.0]), ("A.5", [3.0, 4.0, 8.0, 16.0]))
      for law in ("collinear", "sphere")]),
    # issue 22: the same check at gradient scale c = 1/4 and 4 (a loss scaled by c scales
    # grad f, tau0, r and C by c and leaves tau1): a printed h that is not of degree 1 in
    # (x, tau0, r or C) shows here, invisible at tau0 = r = 1. x is a gradient norm, so the
    # full sweep is scaled too (scaled_variant's sweep_full): unscaled, the scale-4
    # Lemma A.5 sweep ran x = 3, 4, 8 <= (C - tau0)/(1 + tau1) = 8, where no draw is clipped
    *[scaled_variant(r, f"scale-{tag}", f"gradient scale c = {c:g}: x, tau0, r and C times c "
                     "(tau1 is a ratio and stays 0.5).",
                     fixed={"tau0": c, "r": c, "C": 4.0 * c},
                     sweep={"x": [c * x for x in r.points()]},
                     sweep_full={"x": [c * x for x in r.points(True)]})
      for r in _FIRST_ORDER for tag, c in (("quarter", 0.25), ("4", 4.0))],
    sensitivity_recipe("yang2022.lemma3.1:clip-sensitivity", "yang2022.lemma3.1", f"{MODULE}:per_step_sensitivity",
                       {"C": [0.1, 0.5]},
                       {"kind": "clip", "n": 32, "family": "robust-regression", "family_params": {"d": 5},
                        **SEARCH_QUICK}, {"C": [0.05, 0.1, 0.3, 0.5, 1.0]},
                       "||sum clip_C(g_i) - sum clip_C(g'_i)||",
                       "Sum of clipped per-sample gradients under substitution vs 2C.",
                       constants_note="the claim (sensitivity 2C) depends on no constant of the "
                       "loss because a clipped vector has norm <= C whatever the gradients (one "
                       "term of the sum changes); the threshold C, in the gradients' units, is "
                       "swept at 0.1 (<= 1/4) and 0.5"),
    sensitivity_recipe("yang2022.lemma3.1:normalize-sensitivity", "yang2022.lemma3.1", f"{MODULE}:per_step_sensitivity",
                       {"r": [0.01, 0.1]},
                       {"kind": "normalize", "n": 32, "family": "robust-regression", "family_params": {"d": 5},
                        **SEARCH_QUICK}, {"r": [0.001, 0.01, 0.1, 1.0]},
                       "||sum g_i/(||g_i||+r) - sum g'_i/(||g'_i||+r)||",
                       "Sum of normalized per-sample gradients under substitution vs 2.",
                       constants_note="the claim (sensitivity 2) depends on no constant of the "
                       "loss because g/(||g|| + r) has norm < 1 whatever the gradient g (one term "
                       "of the sum changes); r, in the gradients' units, is swept at 0.01 and 0.1"),
]


# ============================================================================ per-step sensitivity
def per_step_bound(kind: str, obj: Any, data: Dataset, cell: dict[str, Any],
                   record: tuple[np.ndarray, float] | None) -> float:
    """Lemma 3.1's claimed sensitivity of one step: 2C for the sum of clipped per-sample
    gradients (``kind="clip"``), 2 for the sum of normalized ones (``"normalize"``)."""
    if kind == "clip":
        return evaluate_item("yang2022.lemma3.1", "clip", C=float(cell["C"]))
    if kind == "normalize":
        return evaluate_item("yang2022.lemma3.1", "normalize")
    raise ValueError(f"kind must be clip or normalize for yang2022, got {kind!r}")


def per_sample_map_sup(kind: str, G: float, *, r: float | None = None,
                       C: float | None = None) -> float:
    """The supremum of ``||phi(g) - phi(g')||`` over ``||g||, ||g'|| <= G``: the change of
    Lemma 3.1's sum ``sum_i phi(g_i)`` when one record is replaced (the other terms are
    equal), for phi(g) = g/(||g|| + r) (``kind="normalize"``) or clip_C(g) (``"clip"``).

    ``||phi(g) - phi(g')|| <= ||phi(g)|| + ||phi(g')||``, and ``||phi(g)||`` is
    ``||g||/(||g|| + r)`` or ``min(||g||, C)``, both nondecreasing in ``||g||``: the supremum is
    ``2G/(G + r)`` or ``2 min(G, C)``, attained by antipodal g' = -g of norm G (equality in
    the triangle inequality). Both are at most Lemma 3.1's 2 and 2C.
    """
    if not (np.isfinite(G) and G >= 0):
        raise ValueError(f"G must be a finite number >= 0, got {G}")
    if kind == "normalize":
        if r is None or not (np.isfinite(r) and r > 0):
            raise ValueError(f"r must be a finite number > 0, got {r}")
        return 2.0 * G / (G + r)
    if kind == "clip":
        if C is None or not (np.isfinite(C) and C > 0):
            raise ValueError(f"C must be a finite number > 0, got {C}")
        return 2.0 * min(G, C)
    raise ValueError(f"kind must be clip or normalize, got {kind!r}")


#: robust regression phi(u) = log(1 + u^2/2): |phi'(u)| = 2|u|/(2 + u^2) is largest, 1/sqrt 2,
#: at u = +-sqrt 2, so ||grad f|| = |phi'| ||x|| <= X/sqrt 2 = G, attained there
_U0 = float(np.sqrt(2.0))


def _antipodal_canary(data: Dataset) -> dict[str, Any]:
    """Robust regression: a query point w and a replacing record z' whose per-sample
    gradients are antipodal at the largest norm G = X/sqrt 2. Record i is the one of largest
    norm (||x_i|| = X = max norm of S, so S' keeps S's feature ball and certified G); w =
    (y_i + e) x_i/X^2 puts its residual at e = s sqrt 2, and z' = (x_i, y_i + 2e) has
    residual -e, so grad f(w, z') = -grad f(w, z_i). The sign s = -sign(y_i) keeps ||w|| =
    (sqrt 2 - |y_i|)/X small. The label y_i + 2e lies outside S's label range (|y'| >= sqrt 2
    is needed: |y' - y_i| = 2 sqrt 2): Lemma 3.1 holds for every pair of neighbouring data
    sets, and G does not depend on the labels."""
    i = int(np.argmax(np.linalg.norm(data.X, axis=1)))
    x = np.asarray(data.X[i], dtype=float)
    X = float(np.linalg.norm(x))
    yi = float(data.y[i])
    e = -_U0 if yi >= 0 else _U0
    return {"i": i, "x": x, "y": yi + 2.0 * e, "w": (yi + e) * x / X ** 2}


def per_step_sensitivity(cell: dict[str, Any]) -> dict[str, Any]:
    """Lemma 3.1 (clip | normalize) decided on robust regression: the search of
    :func:`.sensitivity.per_step_cell`, the antipodal canary of :func:`_antipodal_canary`
    (the supremum attained) and the certified supremum :func:`per_sample_map_sup` at the
    certified G = X/sqrt 2 of the data set (``certified_sup`` of
    :func:`dptheory.verify.checks.sup_check`)."""
    kind = cell["kind"]
    merged = {**cell, **cell["point"]}
    family = merged.get("family")
    if family != "robust-regression":
        raise ValueError(f"the canary is built for family 'robust-regression' only, got {family!r}")
    out = per_step_cell(cell, per_step_bound)
    n = int(merged.get("n", 50))
    obj = get_objective(family, **cell.get("family_params", {}))
    data = obj.make_data(n, sub_seed(cell, 0, 0))
    cand = _antipodal_canary(data)
    if np.linalg.norm(cand["w"]) > obj.domain_radius:
        raise ValueError(f"the canary's w leaves the domain ball of radius {obj.domain_radius:g}")
    consts = {k: float(merged[k]) for k in ("r", "C") if k in merged}

    def sup(ds: Dataset) -> tuple[float, float]:
        G = lipschitz(obj, ds)
        return G, per_sample_map_sup(kind, G, **consts)

    G, U = sup(data)
    best = out["worst"]
    j = int(best["dataset"])
    U_search = U if j == 0 else sup(obj.make_data(n, sub_seed(cell, j, 0)))[1]
    phi = ("g/(||g|| + r), ||phi(g)|| = ||g||/(||g|| + r)" if kind == "normalize"
           else "clip_C(g), ||phi(g)|| = min(||g||, C)")
    closed = "2G/(G + r)" if kind == "normalize" else "2 min(G, C)"
    derivation = (f"S and S' differ in one record, so the sums differ in one term: "
                  f"||phi(g_i) - phi(g'_i)|| <= ||phi(g_i)|| + ||phi(g'_i)|| with phi(g) = {phi} "
                  f"nondecreasing in ||g|| <= G = X/sqrt 2 (robust regression, any label): "
                  f"sup = {closed} = {U:.6g} at G = {G:.6g}"
                  + "".join(f", {k} = {v:g}" for k, v in consts.items())
                  + "; attained by antipodal gradients of norm G (record of norm X at "
                  "residual +-sqrt 2, z' = the same features at residual -+sqrt 2)")
    canary = {"index": cand["i"], "x": cand["x"].tolist(), "y": cand["y"],
              "w": cand["w"].tolist(), "measured": per_step_value(kind, obj, data, cand, merged),
              "bound": per_step_bound(kind, obj, data, merged, None), "G": G, "kind": kind,
              "family": family, "n": n, **consts}
    return certified_result(out, canary, U, U_search, derivation)


# ============================================================================ audits
_COSH = ("cosh-generalized-smooth", {"d": 3})
#: algorithm -> audit setup (see :func:`.audits.audit_recipes`)
AUDITS: dict[str, dict[str, Any]] = {
    # DP-NSGD outputs every iterate: audited on that transcript (:mod:`.transcripts`), full
    # batches, r = 1 given (the default r = 2 tau0 depends on the data), canaries with
    # features +-10^3 e_j whose normalised gradients are +-e_j to 10^-3 (sensitivity -> 2)
    "yang2022.alg1": dict(obj=_COSH, n=32, quick={"T": 3, "B": 32, "eta": 0.1, "r": 1.0},
                          full={"T": 1, "B": 32, "eta": 0.1, "r": 1.0}, noise="sigma",
                          transcript=True,
                          constants_note="the privacy claim depends on no constant of the loss "
                          "because a normalised term g/(||g|| + r) has norm < 1 whatever the "
                          "loss and r (sensitivity 2 of the sum) and the noise std sigma of "
                          "Lemma 3.1 has no constant of the loss (checked in the tests)"),
    "yang2022.dpsgd": dict(obj=_COSH, n=32, quick={"T": 3, "B": 32, "eta": 0.1, "C": 1.0},
                           full={"T": 1, "B": 32, "eta": 0.1, "C": 1.0}, noise="sigma",
                           constants_note="the privacy claim depends on no constant of the "
                           "loss and not on C because the clipped sum (sensitivity 2C) gets "
                           "noise of std sigma C (eq. (2)): the release is C times that of "
                           "clipping at 1, so the multiplier is sigma/2 for every loss and C; "
                           "sigma of Lemma 3.1 has no constant of the loss (checked in the "
                           "tests)"),
}
AUDIT_CLAIMS: dict[str, tuple[float, float]] = {}
RECIPES += audit_recipes(AUDITS, AUDIT_CLAIMS)

# ============================================================================ hyper-parameters
#: (algorithm id or paper, parameter) -> (formula, provenance, what it feeds)
HYPERPARAMETERS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("yang2022", "eta"): ("(4)/(8): eta = sqrt(D_f/(T L0 (1 + sigma^2 d/B^2))), D_f = F(w0) - "
                          "inf F (reconstructed: the paper's formulas are stripped)",
                          "reconstructed", "eta"),
    ("yang2022", "D_f"): ("D_f = F(w0) - (certified lower bound of min F)", "reconstructed",
                          "eta"),
    ("yang2022", "r"): ("r = 2 tau0/(1 - tau1), tau0 of the data (dptheory's choice, "
                        "mirroring C)", "dptheory", "the normalisation"),
    ("yang2022", "C"): ("C = 2 tau0/(1 - tau1) (threshold of Lemma A.5), tau0 of the data",
                        "reconstructed", "the clipping"),
    ("yang2022", "M"): ("M = 2 tau0/(1 - tau1)", "dptheory", "r and C"),
    ("yang2022", "tau0"): ("tau0 = affine-deviation constant certified on the data",
                           "dptheory", "r and C"),
}
