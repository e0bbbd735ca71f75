"""Exact first and second moments of linear-gradient methods (issue 23, item 1).

On a quadratic empirical risk F(w) = (1/n) sum_i f(w, x_i) with per-record gradients
``grad f(w, x_i) = H w + x_i`` (e.g. the ``tilted-quadratic`` family: H = I), the error
e_t = w_t - w*, w* = -H^{-1} x_bar, of

* GD: e_{t+1} = (I - eta H) e_t, so e_T = (I - eta H)^T e_0 (deterministic);
* SGD with one record drawn uniformly *with* replacement: e_{t+1} = (I - eta H) e_t -
  eta (x_{i_t} - x_bar); the noise has mean 0 and is independent of e_t, so
  E e_T = (I - eta H)^T e_0 and, for H = h I,
  E||e_T||^2 = q^{2T} ||e_0||^2 + eta^2 V (1 - q^{2T})/(1 - q^2), q = 1 - eta h,
  V = (1/n) sum_i ||x_i - x_bar||^2;
* minibatch SGD with B records drawn *without* replacement (each step): the batch mean's
  variance is the finite-population V/B (n - B)/(n - 1), in place of V;
* output perturbation w_priv = w_T + z with E z = 0, E||z||^2 = m (isotropic):
  E F(w_priv) - F* = (1/2) e_T^T H e_T + (1/2)(m/d) tr H (exact: F is quadratic);
  m = d sigma^2 for a Gaussian, m = d (d + 1) s^2 for the l2-Laplace law
  p(z) ~ exp(-||z||/s) (||z|| ~ Gamma(d, s): E||z||^2 = d(d+1) s^2).

Everything is closed form in n and T: no sampling error at any n, T (1e5 - 1e9).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["gd_error", "sgd_error_sq", "noise_second_moment", "output_perturbation_excess",
           "finite_population_variance"]


def _step(eta: float, h: float) -> float:
    if not (math.isfinite(eta) and eta > 0 and math.isfinite(h) and h > 0):
        raise ValueError(f"eta and h must be finite and > 0, got eta={eta}, h={h}")
    q = 1 - eta * h
    if abs(q) >= 1:
        raise ValueError(f"need |1 - eta h| < 1 (eta < 2/h), got eta={eta}, h={h}")
    return q


def gd_error(e0: np.ndarray, eta: float, h: float, T: int) -> np.ndarray:
    """e_T = (1 - eta h)^T e_0 of GD on a quadratic with Hessian h I."""
    if int(T) < 0:
        raise ValueError(f"T must be >= 0, got {T}")
    return _step(eta, h) ** int(T) * np.asarray(e0, dtype=float)


def finite_population_variance(V: float, n: int, B: int) -> float:
    """Variance (trace) of the mean of B of n records drawn without replacement, whose
    population variance is V: V/B (n - B)/(n - 1)."""
    if not (1 <= int(B) <= int(n)):
        raise ValueError(f"need 1 <= B <= n, got B={B}, n={n}")
    if int(n) == 1:
        return 0.0
    return V / B * (n - B) / (n - 1)


def sgd_error_sq(e0_sq: float, V: float, eta: float, h: float, T: int, *, n: int | None = None,
                 B: int = 1, replace: bool = True) -> float:
    """E||e_T||^2 of SGD (batch B; with or without replacement within a batch) on a
    quadratic with Hessian h I, from ||e_0||^2 = ``e0_sq`` (module docstring)."""
    q = _step(eta, h)
    if int(T) < 0 or V < 0 or e0_sq < 0:
        raise ValueError(f"need T >= 0, V >= 0, e0_sq >= 0; got {T}, {V}, {e0_sq}")
    if replace:
        v = V / int(B)
    else:
        if n is None:
            raise ValueError("n is needed for sampling without replacement")
        v = finite_population_variance(V, int(n), int(B))
    q2T = q ** (2 * int(T))
    return q2T * e0_sq + eta * eta * v * (1 - q2T) / (1 - q * q)


def noise_second_moment(law: str, d: int, scale: float) -> float:
    """E||z||^2: ``gaussian`` (scale = sigma per coordinate): d sigma^2; ``l2-laplace``
    (density ~ exp(-||z||/scale)): d (d + 1) scale^2."""
    if int(d) < 1 or not (math.isfinite(scale) and scale >= 0):
        raise ValueError(f"need d >= 1 and a finite scale >= 0, got d={d}, scale={scale}")
    if law == "gaussian":
        return d * scale * scale
    if law == "l2-laplace":
        return d * (d + 1) * scale * scale
    raise ValueError(f"law must be 'gaussian' or 'l2-laplace', got {law!r}")


def output_perturbation_excess(eT: np.ndarray, h: float, noise_sq: float) -> float:
    """E F(w_T + z) - F* = (h/2)||e_T||^2 + (h/2) E||z||^2 on a quadratic with Hessian h I
    and zero-mean noise z."""
    eT = np.asarray(eT, dtype=float)
    return 0.5 * h * float(eT @ eT) + 0.5 * h * float(noise_sq)


# ============================================================================ DPageEM (zhang2021)
# Heavy ball on a quadratic whose every record has Hessian h I (f(w, x_i) = (h/2)||w||^2 +
# <x_i, w>), error e = w - w*:
#     e_t = (1 + rho_t - eta h) e_{t-1} - rho_t e_{t-2} - eta nu_t,
#     nu_t = zeta_t + pi xi_t,
# zeta_t the batch mean of x_i - x_bar (B of n without replacement: E zeta = 0, E||zeta||^2 =
# V/B (n - B)/(n - 1)) and xi_t ~ N(0, I_d); nu_t is independent of the past and of the stage
# start. Every coefficient is a scalar times I, so the traces X_t = (E||e_t||^2,
# E<e_t, e_{t-1}>, E||e_{t-1}||^2) follow an exact affine recursion X_t = M X_{t-1} + c,
# c = (eta^2 q, 0, 0), q = E||nu_t||^2; a stage starts at (S, S, S) (momentum restart:
# w_{-1} = w_0) and its output w_O, O uniform on 1..T and independent, has E||e_O||^2 =
# (1/T) sum_t X_t[0]. Segments of constant coefficients (momentum on, then off) are summed
# by repeated squaring of an augmented matrix: exact at any T in O(log T).


def _affine_segment(M: np.ndarray, c: np.ndarray, X0: np.ndarray, m: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(X_m, sum_{t=1}^m X_t) of X_t = M X_{t-1} + c (m >= 0), by squaring the augmented
    map Y = (X, 1, S) -> (M X + c, 1, S + M X + c)."""
    k = X0.size
    A = np.zeros((2 * k + 1, 2 * k + 1))
    A[:k, :k] = M
    A[:k, k] = c
    A[k, k] = 1.0
    A[k + 1:, :k] = M
    A[k + 1:, k] = c
    A[k + 1:, k + 1:] = np.eye(k)
    P = np.eye(2 * k + 1)
    m = int(m)
    while m:
        if m & 1:
            P = A @ P
        A = A @ A
        m >>= 1
    Y = P @ np.concatenate([X0, [1.0], np.zeros(k)])
    return Y[:k], Y[k + 1:]


def _hb_matrix(eta: float, h: float, rho: float) -> np.ndarray:
    a = 1.0 + rho - eta * h
    return np.array([[a * a, -2 * a * rho, rho * rho], [a, -rho, 0.0], [1.0, 0.0, 0.0]])


def dpageem_stage_second_moment(S0: float, *, eta: float, h: float, T: int, t_mon: int,
                                varrho: float, q: float) -> float:
    """E||e_O||^2 after one DP-EMSGD stage from a start with E||e_0||^2 = ``S0``: T steps of
    step ``eta``, momentum ``varrho`` on for steps 1..t_mon, per-step noise E||nu||^2 = q,
    output O uniform on 1..T (zhang2021, Algorithm 2; see the section comment)."""
    if not (0 <= int(t_mon) <= int(T)) or int(T) < 1:
        raise ValueError(f"need 1 <= T and 0 <= t_mon <= T, got T={T}, t_mon={t_mon}")
    if not (0 <= varrho < 1) or q < 0 or S0 < 0:
        raise ValueError(f"need 0 <= varrho < 1, q >= 0, S0 >= 0; got {varrho}, {q}, {S0}")
    _step(eta, h)
    c = np.array([eta * eta * q, 0.0, 0.0])
    X = np.full(3, float(S0))
    X, tot = _affine_segment(_hb_matrix(eta, h, varrho), c, X, int(t_mon))
    X, tot2 = _affine_segment(_hb_matrix(eta, h, 0.0), c, X, int(T) - int(t_mon))
    return float((tot[0] + tot2[0]) / int(T))


def dpageem_excess(*, e0_sq: float, h: float, eta0: float, T0: int, tMon0: int, K: int,
                   varrho: float, pi: float, d: int, V: float, n: int, B: int) -> float:
    """Exact E F(w^K) - F* = (h/2) E||w^K - w*||^2 of DPageEM (zhang2021, Algorithm 1:
    stage k = 1..K with eta^k = 2^-k eta0, T^k = 2^k T0, t^k_Mon = 2^k t0_Mon, momentum
    restarted each stage, the stage output the next start) on a quadratic with per-record
    Hessian h I, from ||w_0 - w*||^2 = ``e0_sq``; N(0, pi^2 I_d) noise on the batch mean of B
    of n records drawn without replacement, records' spread V = (1/n) sum ||x_i - x_bar||^2."""
    q = finite_population_variance(V, n, B) + d * pi * pi
    S = float(e0_sq)
    for k in range(1, int(K) + 1):
        S = dpageem_stage_second_moment(S, eta=eta0 * 2.0 ** -k, h=h, T=T0 * 2 ** k,
                                        t_mon=tMon0 * 2 ** k, varrho=varrho, q=q)
    return 0.5 * h * S


def _hb_noise_sup(eta: float, h: float, varrho: float, t_mon: int = 1) -> float:
    """sup_t sum_s c_{t,s}^2 of one stage's own noise: the stationary second moment of the
    heavy-ball segment (unit noise, zero start; nondecreasing in t) plus that of the
    momentum-free tail, which only contracts what the momentum segment left. A stage with
    no momentum step (``t_mon = 0``, DPageS) has no heavy-ball segment."""
    M = _hb_matrix(eta, h, varrho)
    on = (np.linalg.solve(np.eye(3) - M, np.array([eta * eta, 0.0, 0.0]))[0]
          if int(t_mon) > 0 else 0.0)
    q = 1.0 - eta * h
    return float(on + eta * eta / (1.0 - q * q))


def _hb_start_gain(eta: float, h: float, varrho: float, t_mon: int) -> float:
    """sup_t |a_t| of one stage, a_t the response to the restart state (1, 1): 1 for real
    heavy-ball roots (then a_t = lambda2 a_{t-1} + lambda1^t (1 - lambda2) in [0, 1]),
    else by iterating the t_mon momentum steps (the momentum-free tail multiplies by
    |1 - eta h| <= 1)."""
    a = 1.0 + varrho - eta * h
    if a * a >= 4.0 * varrho and a > 0:
        return 1.0
    if int(t_mon) > 2_000_000:
        raise ValueError(f"complex heavy-ball roots over t_mon={t_mon} steps: too long to "
                         "bound the start gain by iteration")
    z, zp, top = 1.0, 1.0, 1.0
    for _ in range(int(t_mon)):
        z, zp = a * z - varrho * zp, z
        top = max(top, abs(z))
    return top


def dpageem_leave_probability(*, radius: float, w_star_norm: float, h: float, eta0: float,
                              T0: int, tMon0: int, K: int, varrho: float, pi: float, d: int,
                              zeta_max: float) -> float:
    """Certified upper bound on P(some iterate of DPageEM leaves ||w|| <= ``radius``) on the
    quadratic of :func:`dpageem_excess`, from w_0 = 0 (so ||e_0|| = ||w*||).

    Conditional on the output indices O, e_t = a_t e_start + sum_s C_{t,s} (zeta_s + pi xi_s)
    in each stage, with scalar coefficients, |a_t| <= A_k (:func:`_hb_start_gain`) and
    sum_s C_{t,s}^2 <= Vbar_k over all earlier steps (Vbar_k = A_k^2 Vbar_{k-1} + the
    stage's own :func:`_hb_noise_sup`). So ||w_t|| <= ||w*|| + (prod A) ||e_0|| + ||G|| + ||Z||
    with G ~ N(0, pi^2 v I_d), v <= Vbar_k (chi-square tail), and Z a sum of independent
    zero-mean increments of norm <= |C_{t,s}| zeta_max (Pinelis 1994: P(||Z|| >= r) <=
    2 exp(-r^2/(2 zeta_max^2 Vbar_k))). The slack is split evenly between G and Z; a union
    bound over the 2^k T0 steps of each stage k.
    """
    from scipy.stats import chi2  # noqa: PLC0415
    total, vbar, gain = 0.0, 0.0, 1.0
    for k in range(1, int(K) + 1):
        eta = eta0 * 2.0 ** -k
        A = _hb_start_gain(eta, h, varrho, tMon0 * 2 ** k)
        gain *= A
        vbar = A * A * vbar + _hb_noise_sup(eta, h, varrho, tMon0 * 2 ** k)
        r = radius - w_star_norm - gain * w_star_norm
        if r <= 0:
            return 1.0
        p_g = chi2.sf((r / 2) ** 2 / (pi * pi * vbar), d) if pi > 0 else 0.0
        p_z = 2.0 * math.exp(-(r / 2) ** 2 / (2.0 * zeta_max ** 2 * vbar)) if zeta_max > 0 else 0.0
        total += T0 * 2 ** k * (p_g + p_z)
    return float(min(1.0, total))


# ============================================================================ coupled DPageEM
# Uniform stability on the same quadratic (zhang2021, Theorem 3.3): runs on S and S' (record
# i replaced, delta = x_i - x'_i) share batches, noise and output indices, so their
# difference is D_t = d_t delta with a scalar d_t driven only by I_t = 1[i in batch t]:
#     d_t = (1 + rho_t - eta h) d_{t-1} - rho_t d_{t-2} - eta I_t / B,   d_0 = d_{-1} = 0,
# and the run on S' has u_t = <e'_t, delta> with the same coefficients, driven by
# -eta <nu'_t, delta>. Per step (I_t, <zeta'_t, delta>, <xi_t, delta>) is independent of the
# past, with E I = B/n, E I^2 = B/n, E <zeta', delta> = 0, E[I <zeta', delta>] =
# (1/n) <x'_i - x_bar', delta> (n - B)/(n - 1) (given i in the batch, each other record is
# one of the n - 1 others uniformly), E <zeta', delta>^2 = ||delta||-projected finite-
# population variance, E <xi, delta>^2 = ||delta||^2, xi independent of the rest. With
# s = (d_t, d_{t-1}, u_t, u_{t-1}, 1), s_t = (A + b_t e^T) s_{t-1}, so P = E[s s^T] follows
# the exact linear map P -> A P A^T + A P e E[b]^T + E[b] e^T P A^T + E[b b^T] (e^T P e = 1).


def _coupled_map(eta: float, h: float, rho: float, *, p_in: float, B: int, c_iz: float,
                 var_z: float, var_xi: float) -> np.ndarray:
    a = 1.0 + rho - eta * h
    A = np.array([[a, -rho, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, a, -rho, 0], [0, 0, 1, 0, 0],
                  [0, 0, 0, 0, 1]], dtype=float)
    bbar = np.array([-eta * p_in / B, 0, 0, 0, 0])
    Q = np.zeros((5, 5))
    Q[0, 0] = eta * eta * p_in / (B * B)
    Q[0, 2] = Q[2, 0] = eta * eta * c_iz / B
    Q[2, 2] = eta * eta * (var_z + var_xi)
    e = np.zeros(5)
    e[4] = 1.0
    L = np.zeros((25, 25))
    for j in range(25):
        P = np.zeros(25)
        P[j] = 1.0
        P = P.reshape(5, 5)
        Pn = A @ P @ A.T + np.outer(A @ P @ e, bbar) + np.outer(bbar, e @ P @ A.T) + Q * P[4, 4]
        L[:, j] = Pn.ravel()
    return L


def dpageem_coupled_moments(*, u0: float, h: float, eta0: float, T0: int, tMon0: int, K: int,
                            varrho: float, pi: float, n: int, B: int, c_iz: float, var_z: float,
                            delta_sq: float) -> dict[str, float]:
    """Exact (E d, E d^2, E d u) at DPageEM's output (zhang2021, Algorithm 1, stages as in
    :func:`dpageem_excess`) for the coupled runs of the section comment: D = d delta is the
    difference of the outputs on S and S', u = <w'^K - w*', delta>; ``u0`` = <w_0 - w*',
    delta>, ``c_iz`` = E[I <zeta', delta>] B/B (the correlation (1/n)<x'_i - x_bar', delta>
    (n - B)/(n - 1)), ``var_z`` = E <zeta', delta>^2, ``delta_sq`` = ||delta||^2."""
    if not (1 <= int(B) <= int(n)) or int(K) < 1 or int(T0) < 1 or not (0 <= int(tMon0) <= int(T0)):
        raise ValueError(f"need 1 <= B <= n, K >= 1, 0 <= tMon0 <= T0; got B={B}, n={n}, "
                         f"K={K}, T0={T0}, tMon0={tMon0}")
    s0 = np.array([0.0, 0.0, u0, u0, 1.0])
    P = np.outer(s0, s0)
    R = np.zeros((5, 5))                       # momentum restart: (d, d, u, u, 1)
    R[0, 0] = R[1, 0] = R[2, 2] = R[3, 2] = R[4, 4] = 1.0
    zero = np.zeros(25)
    for k in range(1, int(K) + 1):
        eta = eta0 * 2.0 ** -k
        _step(eta, h)
        T, tm = int(T0) * 2 ** k, int(tMon0) * 2 ** k
        kw = dict(p_in=B / n, B=int(B), c_iz=c_iz, var_z=var_z, var_xi=pi * pi * delta_sq)
        X = P.ravel()
        X, tot = _affine_segment(_coupled_map(eta, h, varrho, **kw), zero, X, tm)
        X, tot2 = _affine_segment(_coupled_map(eta, h, 0.0, **kw), zero, X, T - tm)
        PO = ((tot + tot2) / T).reshape(5, 5)
        P = R @ PO @ R.T
    return {"Ed": float(P[0, 4]), "Ed2": float(P[0, 0]), "Edu": float(P[0, 2])}


def dpageem_coupled_gap(X: np.ndarray, Xp: np.ndarray, *, r: float, h: float, eta0: float,
                        T0: int, tMon0: int, K: int, varrho: float, pi: float, B: int
                        ) -> tuple[float, dict[str, float]]:
    """Exact sup_{||x_z|| <= r} E[f(w_S, z) - f(w_S', z)] of DPageEM's coupled runs (shared
    batches, noise, output indices; zhang2021, Theorem 3.3's quantity) on the quadratic
    f(w, x) = (h/2)||w||^2 + <x, w> with h = 1, from w_0 = 0; S = ``X``, S' = ``Xp`` differ
    in exactly one row. With D = d delta: E<w_S', D> + E||D||^2/2 + r ||E D|| (the sup over
    z of the linear term <x_z, E D>); returns (gap, moments)."""
    X, Xp = np.asarray(X, dtype=float), np.asarray(Xp, dtype=float)
    diff = np.flatnonzero(np.any(X != Xp, axis=1))
    if X.shape != Xp.shape or diff.size != 1:
        raise ValueError("X and Xp must have the same shape and differ in exactly one row")
    if h != 1.0:
        raise ValueError(f"h must be 1 (w* = -x_bar), got {h}")
    i, n = int(diff[0]), X.shape[0]
    dv = X[i] - Xp[i]
    xbp = Xp.mean(axis=0)
    proj = (Xp - xbp) @ dv
    fp = (n - B) / (n - 1) if n > 1 else 0.0
    m = dpageem_coupled_moments(u0=float(xbp @ dv), h=h, eta0=eta0, T0=T0, tMon0=tMon0, K=K,
                                varrho=varrho, pi=pi, n=n, B=B, c_iz=float(proj[i]) / n * fp,
                                var_z=float(np.mean(proj ** 2)) / B * fp, delta_sq=float(dv @ dv))
    dn = float(np.linalg.norm(dv))
    # E<w_S', D> = E[d u] + E[d] <w*', delta>, w*' = -x_bar'
    gap = m["Edu"] - m["Ed"] * float(xbp @ dv) + 0.5 * m["Ed2"] * dn * dn + r * abs(m["Ed"]) * dn
    return float(gap), m
