"""Exact solver of the trust-region subproblem (TRS), vectorised over replicates.

Problem (wang2020 eq. (3), Algorithm 1 step 5):

    h* = argmin_{||h||_2 <= r}  m(h) = <g, h> + (1/2) h^T H h,        H symmetric.

Global optimality (Conn, Gould, Toint 2000, Thm 7.2.1; wang2020 Lemma 6 with H + lam I
positive *semi*-definite): h* is a global minimiser iff for some lam >= 0

    (H + lam I) h* = -g,   H + lam I >= 0,   lam (||h*|| - r) = 0.

Algorithm (per replicate, dense, O(d^3)):

1. Eigendecompose H = V diag(l_1 <= ... <= l_d) V^T, c = V^T g, gaps d_i = l_i - l_1 >= 0.
   Work with the shifted variable mu = lam + l_1 >= max(l_1, 0), in which
   ||h(mu)||^2 = sum_i c_i^2 / (d_i + mu)^2; the shift keeps full relative precision when
   the root is within rounding of -l_1 (near-hard case).
2. Interior: l_1 > 0 and ||H^{-1} g|| <= r  ->  h = -H^{-1} g, lam = 0.
3. Hard case: l_1 <= 0, every c_i with d_i = 0 is exactly 0, and the norm of the remaining
   components at mu = 0 is < r  ->  lam = -l_1, h = -sum_{d_i>0} c_i/d_i v_i + tau v_1 with
   tau = sqrt(r^2 - ||.||^2) >= 0 so that ||h|| = r (the sign of tau is immaterial: m is even
   in tau).
4. Boundary: otherwise the secular equation psi(mu) = 1/||h(mu)|| - 1/r = 0 has a unique root
   in (mu_lo, mu_hi] with mu_lo = max(l_1, 0, max_i |c_i|/r - d_i) and mu_hi = ||g||/r.
   1/||h(mu)|| is concave and increasing, so Newton's method started left of the root
   increases monotonically to it (More & Sorensen 1983); it is safeguarded by the bracket
   (bisection, geometric when the bracket spans decades) and stopped at relative accuracy
   ~ 1e-15.

Near-hard cases (c_1 tiny but non-zero) need no threshold: in the shifted variable the root
mu* ~ |c_1| / sqrt(r^2 - ||h_rest||^2) is representable and h_1 = -c_1/mu* tends to the
hard-case component continuously.

Reference: wang2020 (Wang & Xu, ECML-PKDD 2020), eq. (3) and Lemma 6 (the exact
trust-region subproblem the simulation needs).
"""

from __future__ import annotations

import numpy as np

__all__ = ["solve_trs", "trs_model"]


def trs_model(g: np.ndarray, H: np.ndarray, h: np.ndarray) -> np.ndarray:
    """m(h) = <g, h> + h^T H h / 2, vectorised over a leading replicate axis."""
    return np.einsum("...i,...i->...", g, h) + 0.5 * np.einsum("...i,...ij,...j->...", h, H, h)


def _check(g: np.ndarray, H: np.ndarray, r: np.ndarray | float
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    g = np.asarray(g, dtype=np.float64)
    H = np.asarray(H, dtype=np.float64)
    single = g.ndim == 1
    if single:
        g, H = g[None], H[None] if H.ndim == 2 else H
    if g.ndim != 2:
        raise ValueError(f"g must have shape (d,) or (reps, d), got {g.shape}")
    reps, d = g.shape
    if H.shape != (reps, d, d):
        raise ValueError(f"H must have shape ({d}, {d}) or ({reps}, {d}, {d}), got {H.shape}")
    if not (np.all(np.isfinite(g)) and np.all(np.isfinite(H))):
        raise ValueError("g and H must be finite (no NaN or inf)")
    if not np.allclose(H, np.swapaxes(H, -1, -2), rtol=1e-10, atol=1e-12 * max(1.0, np.abs(H).max())):
        raise ValueError("H must be symmetric")
    r = np.broadcast_to(np.asarray(r, dtype=np.float64), (reps,)).copy()
    if not np.all(np.isfinite(r) & (r > 0)):
        raise ValueError(f"r must be finite and > 0, got {r if r.size > 1 else r[0]}")
    return g, 0.5 * (H + np.swapaxes(H, -1, -2)), r, single


def _norm_sq(c2: np.ndarray, gaps: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """sum_i c_i^2/(d_i + mu)^2 with 0/0 := 0 (components with c_i = 0 contribute nothing)."""
    den = gaps + mu[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(c2 > 0, c2 / den ** 2, 0.0)
    return t.sum(axis=1)


def solve_trs(g: np.ndarray, H: np.ndarray, r: np.ndarray | float,
              *, max_iter: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Global minimiser h of <g,h> + h^T H h/2 over ||h|| <= r and its multiplier lam.

    ``g`` (reps, d) or (d,); ``H`` (reps, d, d) or (d, d) symmetric; ``r`` > 0 scalar or
    (reps,). Returns ``(h, lam)`` of shapes (reps, d), (reps,) (or (d,), () for single
    inputs) satisfying (H + lam I) h = -g, H + lam I >= 0, lam >= 0, lam (||h|| - r) = 0 up to
    rounding. See the module docstring for the method.
    """
    g, H, r, single = _check(g, H, r)
    reps, d = g.shape
    evals, V = np.linalg.eigh(H)
    l1 = evals[:, 0]
    gaps = np.maximum(evals - l1[:, None], 0.0)     # exact 0 for the bottom eigenvalue
    c = np.einsum("rji,rj->ri", V, g)               # c = V^T g
    c2 = c * c
    r2 = r * r
    mu = np.zeros(reps)
    coef = np.zeros((reps, d))                      # h = V coef
    done = np.zeros(reps, dtype=bool)

    # --- interior: H positive definite and the Newton step fits
    inner = (l1 > 0) & (_norm_sq(c2, gaps, np.maximum(l1, 0.0)) <= r2)  # ||H^{-1} g||^2
    mu[inner] = l1[inner]
    coef[inner] = -c[inner] / (gaps[inner] + l1[inner, None])               # d_i + l_1 = l_i
    done |= inner

    # --- hard case: bottom components of g exactly zero, remainder strictly inside at mu = 0
    bottom = gaps == 0.0
    hard_cand = (~done) & (l1 <= 0) & ~np.any(bottom & (c2 > 0), axis=1)
    if np.any(hard_cand):
        with np.errstate(divide="ignore", invalid="ignore"):
            rest = np.where(bottom, 0.0, c2 / np.where(bottom, 1.0, gaps) ** 2).sum(axis=1)
        hard = hard_cand & (rest < r2)
        for i in np.flatnonzero(hard):
            coef[i] = np.where(bottom[i], 0.0, -c[i] / np.where(bottom[i], 1.0, gaps[i]))
            coef[i, 0] = np.sqrt(max(r2[i] - rest[i], 0.0))   # bottom eigenvector v_1
            mu[i] = 0.0
        done |= hard

    # --- boundary: safeguarded Newton on psi(mu) = 1/||h(mu)|| - 1/r
    todo = ~done
    if np.any(todo):
        idx = np.flatnonzero(todo)
        cc, gg, rr = c2[idx], gaps[idx], r[idx]
        absc = np.sqrt(cc)
        lo = np.maximum(np.maximum(l1[idx], 0.0), np.max(absc / rr[:, None] - gg, axis=1))
        hi = np.sqrt(cc.sum(axis=1)) / rr
        hi = np.maximum(hi, lo)
        # start at lo, where ||h|| >= r: the poles of ||h(mu)|| sit at mu = -d_i <= 0 and lo > 0
        # whenever a bottom component of g is non-zero, so ||h(lo)|| is finite
        x = lo.copy()
        active = np.ones(len(idx), dtype=bool)
        for _ in range(max_iter):
            if not np.any(active):
                break
            a = np.flatnonzero(active)
            xa = x[a]
            den = gg[a] + xa[:, None]
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                s2 = np.where(cc[a] > 0, cc[a] / den ** 2, 0.0).sum(axis=1)
                s3 = np.where(cc[a] > 0, cc[a] / den ** 3, 0.0).sum(axis=1)
                nrm = np.sqrt(s2)
                psi = 1.0 / nrm - 1.0 / rr[a]
            # bracket update from the sign of psi (psi < 0: left of the root)
            left = psi < 0
            lo[a] = np.where(left, np.maximum(lo[a], xa), lo[a])
            hi[a] = np.where(left, hi[a], np.minimum(hi[a], xa))
            conv = (np.abs(nrm - rr[a]) <= 4e-16 * rr[a]) | (hi[a] - lo[a] <= 2e-16 * hi[a])
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                dpsi = s3 / nrm ** 3                 # psi'(mu) = (sum c^2/(d+mu)^3)/||h||^3
                newton = xa - psi / dpsi
            ok = np.isfinite(newton) & (newton > lo[a]) & (newton < hi[a])
            geo = (lo[a] > 0) & (hi[a] > 4 * lo[a])
            bis = np.where(geo, np.sqrt(lo[a] * np.where(geo, hi[a], 1.0)), 0.5 * (lo[a] + hi[a]))
            x[a] = np.where(conv, xa, np.where(ok, newton, bis))
            active[a[conv]] = False
        mu[idx] = x
        den = gg + x[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            coef[idx] = np.where(cc > 0, -c[idx] / den, 0.0)

    h = np.einsum("rij,rj->ri", V, coef)
    lam = np.maximum(mu - l1, 0.0)
    if single:
        return h[0], lam[0]
    return h, lam
