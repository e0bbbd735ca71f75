"""Transcript audits: the membership test on every noisy release the privacy proof composes
(issue 21, items 3-4).

The privacy proofs of the gradient methods audited here bound the *transcript*: the T noisy
gradients g~_t = m_t(D) + N(0, s^2 I), composed by the accountant, of which the iterates are
post-processing. An adversary who sees the iterates w_1..w_T and knows the algorithm and
its public hyperparameters recovers each release from them (``releases``), and the
Neyman-Pearson test of D_in against D_out is the log-likelihood ratio of the releases given
the past,

    LLR = sum_t [ -||g~_t - m_t(D_in)||^2 + ||g~_t - m_t(D_out)||^2 ] / (2 s_t^2)
        = sum_t < Delta_t, g~_t - (m_t(D_in) + m_t(D_out))/2 > / s_t^2,

with Delta_t = m_t(D_in) - m_t(D_out) the difference of the released means at the same past
(Dong, Roth and Su 2022, Gaussian differential privacy: the composition of Gaussian
mechanisms of shifts ||Delta_t||/s_t is mu-GDP with mu^2 = sum_t ||Delta_t||^2/s_t^2, and
the LLR is the optimal test). Where a stage restarts from a uniformly sampled iterate (zhang2021
Algorithm 1) the adversary does not see the index: the likelihood of the next stage is the
mixture over the candidate restart points (exact for what is seen).

The score is a function of the released iterates only, so the certified lower bound of
:func:`dptheory.verify.audit.epsilon_lower_bound` over it is valid whatever its distribution;
the Gaussian model only makes it the optimal score.

**Canaries** (:func:`transcript_canary`): records whose clipped (or normalised) per-sample
gradients are opposite and at the full bound everywhere the iterates go: the candidate
records of :func:`.audits.candidate_records` plus the same records with labels and features
scaled by ``CANARY_SCALE`` (so the raw gradient is far beyond the clipping threshold and the
clipped one is constant along the path); the pair with the largest clipped/normalised
difference at w0 wins. Then ||Delta_t|| = 2C/B (clipping) or -> 2/B' (normalisation), the
sensitivity the proofs assume, at every step.

**tran2022** (Algorithms 1 and 2): the releases the proofs of Theorems 4 and 8 compose are
the noisy tree nodes, given the permutations (the node counts hold for every permutation);
the simulators hand them over (``transcript``), with the permutations. On the audit-only
linear loss ``linear-score`` (f = b <a, w>, other records b = 0, canaries (X e1, +-1)) each
node's shift is a known function of the canary's positions, so the transcript's exact eps is
that of the mixture of Gaussian curves over the released positions (``mu_law``,
:func:`mixture_epsilon`), and the twin is scaled to that mixture.

**Planted twin**: the same simulator with its noise parameter multiplied by
mu_paper / mu_target, where mu_paper = sqrt(sum_t max||Delta_t||^2 / s_t^2) is the GDP
parameter of the paper-calibrated transcript on this canary and mu_target the GDP parameter
whose exact eps at the claimed delta is ``POWER_FACTOR`` x the claim
(:func:`dptheory.verify.audit.gdp_mu`). With the canary saturated ||Delta_t|| is the same at
every step (the cell reports min and max), so the twin's transcript has that eps exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from dptheory_simulations.algorithms.zhang2021 import step_schedule

#: labels and features of the candidate canaries are also tried at this multiple: far beyond
#: any clipping threshold, so the clipped gradient of the canary is constant along the path
CANARY_SCALE = 1e3


# ------------------------------------------------------------------------ audit-only loss
def _linear_score_class() -> type:
    from dptheory.symbolic.assumptions import (BoundedGradient, BoundedLoss, Lipschitz,
                                               Smooth, TwiceDifferentiable)
    from dptheory_simulations.objectives.base import (Minimum, ball_note, check_positive,
                                                      round_up)
    from dptheory_simulations.objectives.data import uniform_ball
    from dptheory_simulations.objectives.linear import LinearModelObjective

    class LinearScore(LinearModelObjective):
        """Audit-only loss f(w, (a, b)) = b <a, w> (a gradient canary, Nasr et al. 2023): the
        per-sample gradient b a does not depend on w.

        * Lipschitz / bounded gradient (everywhere): G = max_i |b_i| ||a_i||.
        * Smooth: the Hessian is 0 (declared at 1e-12, assumptions take positive constants).
        * Bounded loss on ||w|| <= R: R G; minimum on that ball -R ||mean_i b_i a_i||.
        ``make_data`` draws features in the unit ball and labels 0: every record but a
        canary has gradient 0.
        """

        name = "linear-score"

        def __init__(self, d: int = 3, R: float = 10.0) -> None:
            super().__init__(d)
            self.R = check_positive("R", R)
            self.domain_radius = self.R

        def params(self) -> dict[str, Any]:
            """The family's parameters: d and R."""
            return {"d": self.d, "R": self.R}

        def _phi(self, z, y):
            return y * z, y + 0.0 * z, 0.0 * z

        def _dphi(self, z, y):
            return y + 0.0 * z

        def make_data(self, n: int, rng: Any = None) -> Any:
            """n records: features uniform in the unit ball, labels 0 (zero gradients)."""
            from dptheory_simulations.objectives import Dataset
            from dptheory_simulations.objectives.base import as_rng, check_n
            n = check_n(n)
            return Dataset(uniform_ball(n, self.d, as_rng(rng)), np.zeros(n))

        def assumptions(self, data: Any) -> tuple:
            """Lipschitz and BoundedGradient G = max |b_i| ||a_i|| (everywhere), Smooth
            (Hessian 0), BoundedLoss R G on ||w|| <= R, twice differentiable."""
            data = self._check_data(data)
            G = float(np.max(np.abs(data.y) * np.linalg.norm(data.X, axis=1)))
            G = max(G, 1e-12)
            return (Lipschitz(round_up(G, 6)), BoundedGradient(round_up(G, 6)), Smooth(1e-12),
                    BoundedLoss(round_up(self.R * G, 6), note=ball_note(self.R)),
                    TwiceDifferentiable())

        def minimum(self, data: Any) -> Any:
            """Exact on ||w|| <= R: -R ||mean_i b_i a_i||."""
            data = self._check_data(data)
            v = (data.y[:, None] * data.X).mean(axis=0)
            nv = float(np.linalg.norm(v))
            w = -self.R * v / nv if nv > 0 else np.zeros(self.d)
            return Minimum(-self.R * nv, True, -self.R * nv, w, "exact on the ball")

    return LinearScore


def audit_objective(name: str, **params: Any) -> Any:
    """The objective of a transcript audit: ``linear-score`` (audit-only, see
    ``_linear_score_class``) or a registered family."""
    if name == "linear-score":
        return _linear_score_class()(**params)
    from dptheory_simulations.objectives import get as get_obj
    return get_obj(name, **params)


# ------------------------------------------------------------------------ release maps
def _full_batch(data: Any) -> np.ndarray:
    return np.arange(data.n)[None, :]


def clipped_mean(obj: Any, data: Any, W: np.ndarray, *, clip: float, B: int) -> np.ndarray:
    """Mean of the per-sample gradients clipped at ``clip`` over the full batch, divided by
    ``B`` (zhang2021 Alg. 1-2 with per-sample clipping, the mean of the noisy step)."""
    from dptheory_simulations.algorithms.base import clip_factors, weighted_batch_sum
    G = obj.batch_grad(W, data, np.broadcast_to(_full_batch(data), (W.shape[0], data.n)))
    return weighted_batch_sum(G, clip_factors(G, clip)) / B


def normalised_sum(obj: Any, data: Any, W: np.ndarray, *, r: float) -> np.ndarray:
    """Sum of normalised per-sample gradients g/(||g|| + r) over the full batch (yang2022
    eq. (3), the mean of DP-NSGD's noisy sum)."""
    from dptheory_simulations.algorithms.base import normalize_factors, weighted_batch_sum
    G = obj.batch_grad(W, data, np.broadcast_to(_full_batch(data), (W.shape[0], data.n)))
    return weighted_batch_sum(G, normalize_factors(G, r))


@dataclass(frozen=True)
class Stage:
    """One run of heavy-ball steps w_t = w_{t-1} - eta_t g~_t + rho_t (w_{t-1} - w_{t-2}),
    rho_t = varrho for t <= t_mon (zhang2021 Alg. 2, indices as in the simulator); ``eta``
    holds the steps eta_1..eta_T."""

    T: int
    eta: tuple[float, ...]
    t_mon: int
    varrho: float


def _loglik_stage(mean: Callable[[np.ndarray], np.ndarray], start: np.ndarray,
                  W: np.ndarray, st: Stage, s: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """Gaussian log-likelihood (up to a constant common to every dataset) of one stage's
    releases recovered from its iterates W (reps, T, d) started at ``start``; also the pasts
    at which the releases were taken."""
    prev2, prev = start, start
    ll = np.zeros(W.shape[0])
    pasts = []
    for t in range(st.T):
        rho = st.varrho if t + 1 <= st.t_mon else 0.0
        y = (prev + rho * (prev - prev2) - W[:, t]) / st.eta[t]      # the noisy gradient
        ll -= np.sum((y - mean(prev)) ** 2, axis=1) / (2 * s * s)
        pasts.append(prev)
        prev2, prev = prev, W[:, t]
    return ll, pasts


def heavy_ball_loglik(mean: Callable[[np.ndarray], np.ndarray], w0: np.ndarray,
                      W: np.ndarray, stages: list[Stage], s: float
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Log-likelihood of the iterates W (reps, sum T^k, d) of stagewise heavy-ball DP-SGD,
    each stage after the first restarting from a uniformly drawn iterate of the previous
    one (the mixture over the unseen index); returns it and every iterate at which a release
    may have been taken (for the range of ||Delta_t||)."""
    ll = np.zeros(W.shape[0])
    pts = [w0]
    start = [w0]
    i = 0
    for st in stages:
        Ws = W[:, i:i + st.T]
        per = [_loglik_stage(mean, c, Ws, st, s) for c in start]
        lls = np.stack([p[0] for p in per])                        # (candidates, reps)
        mx = lls.max(axis=0)
        ll += mx + np.log(np.exp(lls - mx).sum(axis=0)) - math.log(len(start))
        pts.extend(Ws[:, t] for t in range(st.T))
        start = [Ws[:, t] for t in range(st.T)]                    # next stage: w_O uniform
        i += st.T
    return ll, np.concatenate([np.broadcast_to(p, W[:, 0].shape) for p in pts])


# ------------------------------------------------------------------------ per algorithm
@dataclass(frozen=True)
class TranscriptModel:
    """How the transcript of one algorithm is read from a run (see the module docstring).

    ``sees``: what the adversary sees; ``output``: whether that is the algorithm's output
    itself (then a lower bound above the claim refutes the privacy claim; otherwise it
    refutes the proof's transcript claim); ``transform``: "clip", "normalise", "raw" or
    "saturate" (the per-sample map whose bound the proof uses, or a loss whose slope
    saturates at large labels, for the canary search); ``score(obj, d_in,
    d_out, res, releases)``: the LLR of each run and the range of its transcript's GDP mu
    (:func:`_from_iterates` for releases read from the iterates); ``hook``: the simulator
    hands the releases over (its ``transcript`` argument) instead; ``noise_keys``: the
    noise parameters the twin scales (all in proportion).
    """

    sees: str
    output: bool
    transform: str
    score: Callable[..., dict[str, Any]]
    hook: bool = False
    noise_keys: tuple[str, ...] = ()
    #: optional ``(obj, d_in, d_out, res) -> (weights, mus)``: the exact law of the
    #: transcript's GDP mu over the algorithm's public randomness when that randomness is
    #: released with the transcript (the permutations of tran2022): the transcript's exact
    #: eps is then that of the mixture (:func:`mixture_epsilon`), and the twin is scaled to it
    mu_law: Callable[..., tuple[np.ndarray, np.ndarray]] | None = None
    #: optional ``(obj, data0) -> canary dict`` replacing :func:`transcript_canary`
    canary: Callable[..., dict[str, Any]] | None = None


#: zhang2021's stagewise algorithms (restarts from a uniformly drawn iterate)
_STAGEWISE = ("zhang2021.alg1", "zhang2021.dpages")
#: zhang2021's single-stage algorithms: Algorithm 2 and the DP-SGD baselines of Sec. 4
_SINGLE = ("zhang2021.alg2", "zhang2021.dpsgd-const", "zhang2021.dpsgd-c-t",
           "zhang2021.dpsgd-c-sqrt-t", "zhang2021.dpsgdm-const", "zhang2021.dpsgdem-const")


def _zhang2021(alg_id: str) -> Callable[..., tuple[np.ndarray, np.ndarray, float, int]]:
    def loglik(obj: Any, data: Any, res: Any) -> tuple[np.ndarray, np.ndarray, float, int]:
        p = res.params
        if p["B"] != data.n or p.get("clip") is None:
            raise ValueError(f"the transcript audit of {alg_id} needs full batches (B = n) "
                             "and per-sample clipping (clip = C)")
        if alg_id not in _STAGEWISE:            # one stage: Algorithm 2 and the baselines
            T = int(p["T"])
            step = step_schedule(p.get("schedule", "const"), float(p["eta"]))  # the simulator's
            stages = [Stage(T, tuple(step(t) for t in range(1, T + 1)), int(p["tMon"]),
                            float(p["varrho"]))]
        else:
            stages = [Stage(int(T), (float(e),) * int(T), int(m), float(p["varrho"]))
                      for T, e, m in zip(p["T_k"], p["eta_k"], p["tMon_k"])]
        W = res.trajectory["w"]
        w0 = np.zeros_like(W[:, 0])

        def mean(X: np.ndarray) -> np.ndarray:
            return clipped_mean(obj, data, X, clip=float(p["clip"]), B=int(p["B"]))
        s = float(res.noise["pi"])
        ll, pts = heavy_ball_loglik(mean, w0, W, stages, s)
        return ll, pts, s, sum(st.T for st in stages)
    return loglik


def _yang2022_alg1(obj: Any, data: Any, res: Any) -> tuple[np.ndarray, np.ndarray, float, int]:
    p = res.params
    if p["B"] != data.n:
        raise ValueError("the transcript audit of yang2022.alg1 needs full batches (B = N)")
    W = res.trajectory["w"]                                        # w_0..w_T
    s = float(res.noise["noise_std_sum"])
    eta, B, r = float(p["eta"]), int(p["B"]), float(p["r"])
    ll = np.zeros(W.shape[0])
    for t in range(int(p["T"])):
        y = (W[:, t] - W[:, t + 1]) * B / eta                      # the noisy sum
        ll -= np.sum((y - normalised_sum(obj, data, W[:, t], r=r)) ** 2, axis=1) / (2 * s * s)
    pts = W[:, :-1].reshape(-1, W.shape[2])
    return ll, pts, s, int(p["T"])


def _wang2020_dpgd(obj: Any, data: Any, res: Any) -> tuple[np.ndarray, np.ndarray, float, int]:
    p = res.params
    if math.isfinite(float(p.get("radius", math.inf))):
        raise ValueError("the transcript audit of wang2020.dpgd needs radius = inf (a "
                         "projected step does not show its noisy gradient)")
    W = res.trajectory["w"]                                        # w_0..w_T
    s, eta = float(res.noise["sigma"]), float(p["eta"])
    ll = np.zeros(W.shape[0])
    moved = np.ones(W.shape[0], dtype=bool)
    for t in range(W.shape[1] - 1):
        # a stopped run stays put (the noisy test passed): nothing more is released; the
        # stop event itself is left out of the score (still a valid score)
        moved &= np.any(W[:, t + 1] != W[:, t], axis=1)
        y = (W[:, t] - W[:, t + 1]) / eta                          # the noisy gradient
        ll -= np.where(moved, np.sum((y - obj.grad_F(W[:, t], data)) ** 2, axis=1), 0.0) \
            / (2 * s * s)
    pts = W[:, :-1].reshape(-1, W.shape[2])
    return ll, pts, s, int(p["T"])


def _from_iterates(loglik: Callable[..., tuple[np.ndarray, np.ndarray, float, int]],
                   transform: str) -> Callable[..., dict[str, Any]]:
    """A ``score`` from a log-likelihood of the iterates: the LLR, and mu from the range of
    ||Delta_t|| over every past the runs visited (sqrt(T) max ||Delta_t|| / s bounds it)."""
    def score(obj: Any, d_in: Any, d_out: Any, res: Any, releases: Any) -> dict[str, Any]:
        l_in, pts, s, T = loglik(obj, d_in, res)
        l_out = loglik(obj, d_out, res)[0]
        p = res.params
        if transform == "clip":
            def m(d):
                return clipped_mean(obj, d, pts, clip=float(p["clip"]), B=int(p["B"]))
        elif transform == "normalise":
            def m(d):
                return normalised_sum(obj, d, pts, r=float(p["r"]))
        else:
            def m(d):
                return obj.grad_F(pts, d)
        dn = np.linalg.norm(m(d_in) - m(d_out), axis=1)
        return {"llr": l_in - l_out, "mu": (math.sqrt(T) * float(dn.min()) / s,
                                            math.sqrt(T) * float(dn.max()) / s),
                "steps": T, "std": s}
    return score


def _gauss_llr(y: np.ndarray, m_in: np.ndarray, m_out: np.ndarray,
               s: float) -> tuple[np.ndarray, np.ndarray]:
    """Per run: log N(y; m_in, s^2 I) - log N(y; m_out, s^2 I) over the last axis, and the
    squared shift ||m_in - m_out||^2 / s^2."""
    llr = (np.sum((y - m_out) ** 2, axis=-1) - np.sum((y - m_in) ** 2, axis=-1)) / (2 * s * s)
    return llr, np.sum((m_in - m_out) ** 2, axis=-1) / (s * s)


def _wang2020_tr(obj: Any, d_in: Any, d_out: Any, res: Any,
                 releases: list[dict[str, np.ndarray]]) -> dict[str, Any]:
    """DP-TR / DP-STR: each step releases g~ = grad L(w, D) + N(0, sigma^2 I) and the upper
    triangle (diagonal included) of H~ = hess L(w, D) + N(0, sigma_H^2) entries (wang2020
    Algorithm 1, steps 3-4); full data (Algorithm 2 with |S| = |T| = n)."""
    p = res.params
    if "S_size" in p and (p["S_size"] != d_in.n or p["T_size"] != d_in.n):
        raise ValueError("the transcript audit of wang2020.alg2 needs S_size = T_size = n "
                         "(full data: each release is then a Gaussian mechanism)")
    s, sH = float(res.noise["sigma"]), float(res.noise["sigma_H"])
    reps = res.w.shape[0]
    iu = np.triu_indices(obj.d)
    llr, mu2 = np.zeros(reps), np.zeros(reps)
    for st in releases:
        act, w = st["active"], st["w"]
        a, b = _gauss_llr(st["grad"], obj.grad_F(w, d_in), obj.grad_F(w, d_out), s)
        Hi, Ho = obj.hess_F(w, d_in), obj.hess_F(w, d_out)
        c, e = _gauss_llr(st["hess"][:, iu[0], iu[1]], Hi[:, iu[0], iu[1]],
                          Ho[:, iu[0], iu[1]], sH)
        llr[act] += a + c
        mu2[act] += b + e
    mu = np.sqrt(mu2)
    return {"llr": llr, "mu": (float(mu.min()), float(mu.max())), "steps": len(releases),
            "std": s}


def _bst14(obj: Any, d_in: Any, d_out: Any, res: Any,
           releases: list[dict[str, np.ndarray]]) -> dict[str, Any]:
    """Bassily-Smith-Thakurta noisy SGD: each step releases the mean gradient of its batch
    plus N(0, s^2 I) before projecting (zhang2017's baseline [1]); full batches (m = n)."""
    if int(res.params["m"]) != d_in.n:
        raise ValueError("the transcript audit of zhang2017.bst14 needs m = n (full batches: "
                         "each release is then a Gaussian mechanism)")
    s = float(res.noise["s"])
    llr, mu2 = np.zeros(res.w.shape[0]), np.zeros(res.w.shape[0])
    for st in releases:
        a, b = _gauss_llr(st["release"], obj.grad_F(st["w"], d_in),
                          obj.grad_F(st["w"], d_out), s)
        llr += a
        mu2 += b
    mu = np.sqrt(mu2)
    return {"llr": llr, "mu": (float(mu.min()), float(mu.max())), "steps": len(releases),
            "std": s}


def _tran2022_means(obj: Any, data: Any, rel: dict[str, Any]) -> dict[tuple[int, int], np.ndarray]:
    """Means of tran2022's nodes on ``data`` given the past: Algorithm 1's f_[y,z] = alpha
    sum_{t=y}^{z} (1-alpha)^{z-t} grad f(w_t, x_{pi(t)}) at the run's iterates w_t (functions
    of the nodes released before t), or Algorithm 2's F^G_[y,z] = sum_{i=y}^{z}
    (1-alpha)^{z-i} grad f(u_{q_i}, x_{pi(i)}) at its anchors (``rel["anchor"]``), with the
    permutations (released, data-independent)."""
    alg2 = "anchor" in rel
    perm, W, alpha = rel["perm"], rel["anchor" if alg2 else "w"], float(rel["alpha"])
    lead = 1.0 if alg2 else alpha
    N, T = perm.shape[2], int(rel["T"])
    g = np.empty_like(W)
    for t in range(1, T + 1):
        q, i = divmod(t - 1, N)
        g[:, t - 1] = obj.batch_grad(W[:, t - 1], data, perm[:, q, i][:, None])[:, 0, :]
    out = {}
    for key, (y, z) in rel["intervals"].items():
        wts = lead * (1.0 - alpha) ** (z - np.arange(y, z + 1))
        out[key] = np.tensordot(wts, g[:, y - 1:z], axes=(0, 1))
    return out


def _tran2022_alg1(obj: Any, d_in: Any, d_out: Any, res: Any,
                   releases: list[dict[str, Any]]) -> dict[str, Any]:
    """tran2022 Algorithm 1: every noisy tree node of levels < R and the permutations (handed
    over by the simulator); the exact LLR given the permutations and the past (Gaussian node
    noise of std ``node_std``, Algorithm 1's 16 alpha^2 G^2 sigma^2 V)."""
    rel = releases[0]
    s = float(rel.get("node_std", 0.0))
    std = rel.get("std", {})                       # Algorithm 2: a std per node
    m_in, m_out = _tran2022_means(obj, d_in, rel), _tran2022_means(obj, d_out, rel)
    llr, mu2 = np.zeros(res.w.shape[0]), np.zeros(res.w.shape[0])
    for key, y in rel["nodes"].items():
        a, b = _gauss_llr(y, m_in[key], m_out[key], std.get(key, s))
        llr += a
        mu2 += b
    mu = np.sqrt(mu2)
    return {"llr": llr, "mu": (float(mu.min()), float(mu.max())), "steps": int(rel["T"]),
            "std": s if not std else min(std.values()), "mu_runs": mu}


#: largest number of canary-position combinations :func:`_tran2022_mu_law` enumerates
MAX_POSITIONS = 100_000


def _tran2022_mu_law(obj: Any, d_in: Any, d_out: Any, res: Any) -> tuple[np.ndarray, np.ndarray]:
    """Exact law of the GDP mu of Algorithm 1's node transcript given the permutations, when
    the canary's gradient difference c = ||grad f(w, z_in) - grad f(w, z_out)|| does not
    depend on w (checked): the canary (the last record) sits at a uniform position of each
    epoch's permutation, independently (absent from a last, short epoch when its position is
    past T); a node [y, z] then shifts by alpha c sum_{its occurrences p in [y, z]}
    (1-alpha)^{z-p}, and mu^2 = sum over nodes of levels < R of shift^2 / node_std^2."""
    import itertools
    p = res.params
    alg2 = "gamma" in p
    N, T, alpha = int(p["N"]), int(p["T"]), float(p["alpha"])
    if alg2:   # G-nodes of levels <= floor(log2 N), std by the node's end (run_alg2)
        R, lead = min(N.bit_length() - 1, T.bit_length() - 1) + 1, 1.0
        le, gt = float(res.noise["std_G_le2N"]), float(res.noise["std_G_gt2N"])
    else:
        R, lead = int(p["depth"]), alpha
        le = gt = float(res.noise["node_std"])
    idx = np.array([[d_in.n - 1]])
    pts = np.vstack([np.zeros(obj.d), res.w])
    c_all = np.linalg.norm(obj.batch_grad(pts, d_in, np.repeat(idx, len(pts), 0))[:, 0]
                           - obj.batch_grad(pts, d_out, np.repeat(idx, len(pts), 0))[:, 0],
                           axis=1)
    c = float(c_all[0])
    if not np.allclose(c_all, c, rtol=1e-12, atol=0.0):
        raise ValueError("the exact mu law needs a canary whose gradient difference does not "
                         "depend on w (a linear loss, e.g. 'linear-score')")
    epochs = [(q * N, min(N, T - q * N)) for q in range(T // N + 1) if T - q * N > 0]
    if N ** len(epochs) > MAX_POSITIONS:
        raise ValueError(f"the exact mu law enumerates N^epochs = {N}^{len(epochs)} > "
                         f"{MAX_POSITIONS} canary positions: use T <= {MAX_POSITIONS} // N epochs")
    nodes = [(a * (1 << b) + 1, (a + 1) << b) for b in range(min(R, T.bit_length()))
             for a in range(T >> b)]
    mus = []
    for pos in itertools.product(range(1, N + 1), repeat=len(epochs)):
        occ = np.array([st + k for (st, L), k in zip(epochs, pos) if k <= L])
        mu2 = 0.0
        for y, z in nodes:
            o = occ[(occ >= y) & (occ <= z)]
            mu2 += (lead * c * float(np.sum((1.0 - alpha) ** (z - o))) / (le if z <= 2 * N
                                                                           else gt)) ** 2
        mus.append(math.sqrt(mu2))
    mus_a = np.array(mus)
    return np.full(mus_a.size, 1.0 / mus_a.size), mus_a


def mixture_delta(weights: np.ndarray, mus: np.ndarray, eps: float) -> float:
    """delta(eps) of a transcript that is mu_k-GDP with probability w_k, the index k released
    with it (the average of the Gaussian curves Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2),
    Balle and Wang 2018: the hockey-stick divergence of a mixture over a seen component)."""
    from dptheory.privacy.gaussian import gaussian_delta
    # mu-GDP is the Gaussian mechanism at sensitivity 1, sigma = 1/mu: the library's curve
    # (in log space, no cancellation at large eps), once per distinct mu
    vals, inv = np.unique(np.asarray(mus, dtype=float), return_inverse=True)
    d = np.array([gaussian_delta(eps, sigma=1.0 / v) if v > 0 else 0.0 for v in vals])
    return float(np.dot(weights, d[inv]))


def mixture_epsilon(weights: np.ndarray, mus: np.ndarray, delta: float) -> float:
    """The smallest eps with :func:`mixture_delta` <= delta (exact eps of the mixture)."""
    from scipy import optimize
    if mixture_delta(weights, mus, 0.0) <= delta:
        return 0.0
    hi = 1.0
    while mixture_delta(weights, mus, hi) > delta:
        hi *= 2.0
    return float(optimize.brentq(lambda e: mixture_delta(weights, mus, e) - delta, 0.0, hi,
                                 xtol=1e-12))


def linear_score_canary(obj: Any, data0: Any) -> dict[str, Any]:
    """The gradient canary of :class:`LinearScore`: (X e1, +1) against (X e1, -1), X the
    largest feature norm of the data: gradients +-X e1 at every w, at the full bound G = X
    apart by 2G (the sensitivity 2 alpha G (1-alpha)^(z-p) per occurrence of Prop. 13's
    step 1)."""
    X = float(np.max(np.linalg.norm(data0.X, axis=1)))
    x = np.zeros(obj.d)
    x[0] = X
    return {"x_in": x, "y_in": 1.0, "x_out": x.copy(), "y_out": -1.0, "influence": 2 * X,
            "candidates": 2}


_ZS = ("the transcript of the noisy clipped gradients, T = {T} (every iterate w_1..w_T; "
       "stage restart indices unseen)")
MODELS: dict[str, TranscriptModel] = {
    **{a: TranscriptModel(_ZS, False, "clip", _from_iterates(_zhang2021(a), "clip"))
       for a in _STAGEWISE + _SINGLE},
    # yang2022's Algorithm 1 outputs w_0..w_T (catalog yang2022.alg1): the transcript is the
    # output
    "yang2022.alg1": TranscriptModel(
        "the noisy normalised gradient sums, T = {T} (every iterate w_0..w_T, the output)", True,
        "normalise", _from_iterates(_yang2022_alg1, "normalise")),
    # DP-GD's noisy Hessians only decide when to stop and are not released: the adversary
    # sees the noisy gradients (the stop test's Hessian part is not scored)
    "wang2020.dpgd": TranscriptModel(
        "the noisy full gradients, T = {T} (every iterate w_0..w_T; the noisy Hessians of the "
        "stop test are not seen)", False, "raw", _from_iterates(_wang2020_dpgd, "raw")),
    # the trust-region step hides its noisy gradient and Hessian: the simulator hands them over
    **{a: TranscriptModel(
        "the transcript of the noisy gradients and noisy Hessians the trust-region steps "
        "use, T = {T} (not the output)", False, "raw", _wang2020_tr, hook=True,
        noise_keys=("sigma_H",)) for a in ("wang2020.alg1", "wang2020.alg2")},
    # projected steps hide the noisy gradient: the simulator hands it over
    # tran2022 Algorithm 1 outputs w_1..w_T, which show only the direction of each m_hat_t:
    # the noisy nodes are not output. Theorem 4's proof composes every node of levels < R
    # given the permutations (its node count V holds for every permutation), so the adversary
    # sees the nodes and the permutations; the simulator hands them over
    "tran2022.alg1": TranscriptModel(
        "the transcript of every noisy tree node f_[y,z] + zeta_[y,z] of levels < R and the "
        "permutations, T = {T} (not the output: the iterates show only m_hat_t/||m_hat_t||)",
        False, "raw", _tran2022_alg1, hook=True, mu_law=_tran2022_mu_law,
        canary=linear_score_canary),
    # tran2022 Algorithm 2: the G-, r- and Delta-nodes; on the linear loss the r-nodes
    # (grad f(w_i, x) - grad f(u_q, x)) and Delta-nodes (grad f(u_q, x) - grad f(u_{q-1}, x))
    # are 0 for every record on both neighbours, so the LLR is that of the G-nodes the
    # reconstruction reads (levels <= floor(log2 N)), handed over with the permutations
    "tran2022.alg2": TranscriptModel(
        "the transcript of the noisy G-nodes F^G_[y,z] + zeta^G (levels <= floor(log2 N)) and the "
        "permutations, T = {T}; r- and Delta-nodes carry no shift on this linear-loss canary "
        "(not the output)",
        False, "raw", _tran2022_alg1, hook=True, mu_law=_tran2022_mu_law,
        canary=linear_score_canary),
    "zhang2017.bst14": TranscriptModel(
        "the transcript of the noisy gradients before projection, T = {T} (not the output)", False,
        "saturate", _bst14, hook=True),
}


# ------------------------------------------------------------------------ canary
def transcript_canary(obj: Any, data0: Any, w0: np.ndarray, *, transform: str,
                      bound: float, seed: int) -> dict[str, Any]:
    """The canary pair whose transformed per-sample gradients (clipped at ``bound`` or
    normalised with ``r = bound``) differ most at w0, among the candidates of
    :func:`.audits.candidate_records` and the same with labels or features scaled by
    :data:`CANARY_SCALE` (saturated: constant along the path)."""
    from .audit_parts import candidate_records
    X, y = candidate_records(obj, data0, seed)
    if transform in ("clip", "normalise"):  # a saturating map: scaled candidates saturate it
        X, y = np.concatenate([X, X, CANARY_SCALE * X]), np.concatenate([y, CANARY_SCALE * y, y])
    elif transform == "saturate":           # a loss whose slope saturates (Huber): labels only
        X, y = np.concatenate([X, X]), np.concatenate([y, CANARY_SCALE * y])
    Xc, yc = X, y
    g = np.asarray(obj.grad(w0, Xc, yc))
    nrm = np.linalg.norm(g, axis=1, keepdims=True)
    if transform == "clip":
        gt = g * np.minimum(1.0, bound / np.maximum(nrm, 1e-300))
    elif transform == "normalise":
        gt = g / (nrm + bound)
    elif transform in ("raw", "saturate"):
        gt = g
    else:
        raise ValueError("transform must be 'clip', 'normalise', 'raw' or 'saturate', got "
                         f"{transform!r}")
    diff = np.linalg.norm(gt[:, None, :] - gt[None, :, :], axis=-1)
    score = diff
    if transform == "saturate":
        # ties (both slopes saturated at w0) go to the largest labels: saturated on the path
        ay = np.abs(yc) / (1.0 + np.max(np.abs(yc)))
        score = diff + 1e-6 * np.max(diff) * (ay[:, None] + ay[None, :])
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    return {"x_in": Xc[i], "y_in": float(yc[i]), "x_out": Xc[j], "y_out": float(yc[j]),
            "influence": float(diff[i, j]), "candidates": int(Xc.shape[0])}


# ------------------------------------------------------------------------ the cell
def transcript_scores(alg: Any, obj: Any, d_in: Any, d_out: Any, model: TranscriptModel,
                      common: dict[str, Any], *, reps: int, seed: int, first: int,
                      offset: int) -> dict[str, Any]:
    """LLR scores of runs on D_in (replicates first..) and D_out (offset + first..), and the
    range of the transcripts' GDP mu over those runs."""
    out: dict[str, Any] = {"mu": (math.inf, 0.0)}
    for side, data, fr in (("in", d_in, first), ("out", d_out, offset + first)):
        releases: list = []
        kw = {"transcript": releases} if model.hook else {"record": 1}
        res = alg(obj, data, reps=reps, seed=seed, first_replicate=fr, **kw, **common)
        sc = model.score(obj, d_in, d_out, res, releases)
        out[side] = sc["llr"]
        out["mu"] = (min(out["mu"][0], sc["mu"][0]), max(out["mu"][1], sc["mu"][1]))
        out["s"], out["T"], out["res_" + side] = sc["std"], sc["steps"], res
    return out


def transcript_cell(cell: dict[str, Any], *, offset: int) -> dict[str, Any]:
    """The transcript audit of one block (check ``audit``; see the module docstring).

    Point ``calibration = "twin"``: the noise parameter ``cell["noise_param"]`` multiplied
    by mu_paper / mu_target, mu_paper measured on a pilot of the paper-calibrated runs
    (replicates of their own), so the twin's transcript has exact eps POWER_FACTOR x the
    claim.
    """
    from dptheory.verify.audit import POWER_FACTOR, gdp_epsilon, gdp_mu
    from dptheory_simulations.algorithms import get as get_alg
    from dptheory_simulations.objectives import Dataset

    from .audit_parts import (_NOISE_KEYS, OPEN_CONSTANTS, _calibration, _close, _num,
                              _open_choice, accountant_keys, differing_params)
    alg_id = cell["algorithm"]
    if alg_id not in MODELS:
        raise ValueError(f"no transcript model for {alg_id!r}; known: {sorted(MODELS)}")
    model = MODELS[alg_id]
    alg = get_alg(alg_id)
    obj = audit_objective(cell["objective"], **cell.get("objective_params", {}))
    params = dict(cell.get("params", {}))
    data0 = obj.make_data(int(cell["n"]) - 1, int(cell.get("data_seed", 0)))
    w0 = np.zeros(obj.d)
    bound = float(params.get({"clip": "clip", "normalise": "r"}.get(model.transform, ""),
                             math.inf))
    if model.canary is not None:
        can = model.canary(obj, data0)
    else:
        can = transcript_canary(obj, data0, w0, transform=model.transform, bound=bound,
                                seed=int(cell.get("data_seed", 0)))
    d_in = Dataset(np.vstack([data0.X, can["x_in"]]), np.append(data0.y, can["y_in"]))
    d_out = Dataset(np.vstack([data0.X, can["x_out"]]), np.append(data0.y, can["y_out"]))
    cal = _calibration(cell)
    eps, delta = float(cell["eps"]), float(cell["delta"])
    reps, seed, fr = int(cell["reps"]), int(cell["seed"]), int(cell.get("first_replicate", 0))
    common = dict(eps=eps, delta=delta, calibration="paper" if cal == "twin" else cal,
                  **params)
    key = cell["noise_param"]
    twin_how, mu_target = None, None
    if cal == "twin":
        pilot = transcript_scores(alg, obj, d_in, d_out, model, common, reps=PILOT,
                                  seed=seed, first=4 * offset, offset=offset)
        mu_paper = pilot["mu"][1]
        mu_target = gdp_mu(POWER_FACTOR * eps, delta)
        factor = mu_paper / mu_target
        if model.mu_law is not None:
            # the exact mixture over the released permutations: scale all mu by 1/factor
            lw, lm = model.mu_law(obj, d_in, d_out, pilot["res_out"])
            factor = _mixture_factor(lw, lm, POWER_FACTOR * eps, delta)
        noise = pilot["res_out"].noise
        for k in (key, *model.noise_keys):
            # the run's name of the calibrated value (noise_scale -> s)
            v = next(float(noise[x]) for x in _NOISE_KEYS.get(k, (k,)) if x in noise)
            common[k] = v * factor
        twin_how = (f"noise {', '.join((key, *model.noise_keys))} x {factor:.4g}: "
                    + (f"the transcript's GDP mu {mu_paper:.4g} -> {mu_target:.4g}"
                       if model.mu_law is None else
                       "every position's GDP mu divided by it, the mixture over the released "
                       "permutations")
                    + f" (exact eps {POWER_FACTOR * eps:g} at delta = {delta:g})")
    sc = transcript_scores(alg, obj, d_in, d_out, model, common, reps=reps, seed=seed,
                           first=fr, offset=offset)
    r_in, r_out = sc["res_in"], sc["res_out"]
    priv = r_out.privacy
    mu_lo, mu_hi = sc["mu"]
    sees = model.sees.format(T=sc["T"])
    eps_tr = [gdp_epsilon(mu_lo, delta), gdp_epsilon(mu_hi, delta)]
    law: dict[str, Any] = {}
    if model.mu_law is not None:
        lw, lm = model.mu_law(obj, d_in, d_out, r_out)
        e_mix = mixture_epsilon(lw, lm, delta)
        eps_tr = [e_mix, e_mix]
        law = {"epsilon_transcript_worst_position": gdp_epsilon(float(lm.max()), delta),
               "mu_law": {"positions": int(lm.size), "min": float(lm.min()),
                          "max": float(lm.max())}}
    open_c = {k: float(r_out.params[k]) for k in OPEN_CONSTANTS.get(alg_id, ())
              if _num(r_out.params.get(k)) is not None}
    return {"scores_in": [float(v) for v in sc["in"]],
            "scores_out": [float(v) for v in sc["out"]],
            "epsilon_claimed": eps, **accountant_keys(priv),
            # exact eps of the transcript on this canary (Gaussian DP composition): between
            # the values at the smallest and the largest ||Delta_t|| met
            "mu_transcript": [mu_lo, mu_hi],
            "epsilon_transcript": eps_tr, **law,
            "noise_std": sc["s"], "steps": sc["T"],
            "epsilon_twin": eps_tr[1] if cal == "twin" else None,
            "twin_calibration": twin_how,
            "delta": delta, "algorithm": alg_id, "calibration": cal, "bug": "",
            "calibration_data_independent": _close(r_in.privacy, r_out.privacy),
            "data_dependent_params": differing_params(r_in.params, r_out.params),
            "open_constants": open_c if cal != "twin" else {},
            "open_constants_choice": _open_choice(cell) if open_c and cal != "twin" else "",
            "adversary": f"{sees}; score: Neyman-Pearson log-likelihood ratio of the releases "
                         "given the past (replace-one canary pair at the full sensitivity, "
                         "w0 = 0)",
            "sees": sees, "release": "output" if model.output else "transcript",
            "canary": {"x_in": [float(v) for v in can["x_in"]], "y_in": can["y_in"],
                       "x_out": [float(v) for v in can["x_out"]], "y_out": can["y_out"],
                       "influence": can["influence"], "candidates": can["candidates"]}}


def _mixture_factor(weights: np.ndarray, mus: np.ndarray, target: float, delta: float) -> float:
    """The factor f with :func:`mixture_epsilon` (weights, mus / f) = ``target`` (the noise
    multiplier that gives the mixture exactly eps = target)."""
    from scipy import optimize
    def gap(lf: float) -> float:
        return mixture_epsilon(weights, mus / math.exp(lf), delta) - target
    lo, hi = -1.0, 1.0
    while gap(lo) < 0:
        lo -= 1.0
    while gap(hi) > 0:
        hi += 1.0
    return math.exp(optimize.brentq(gap, lo, hi, xtol=1e-12))


#: pilot runs (paper calibration) that measure the transcript's mu for the twin
PILOT = 64
