"""Every check dptheory runs on tran2022 (tree-aggregated DP normalized SGD with momentum:
Algorithm 1, and the sensitivity-reduced Algorithm 2), in one place.

* **Utility** — E||grad F(w_hat)|| against Theorems 6 and 9 (bound and n-slope), the
  corrected R term of Theorem 6, the pathwise descent Lemma 5 and the tree-noise Lemma 7.
* **Sensitivity** — tree-node sensitivities of Algorithm 1's gradient streams against
  Proposition 13 and Theorem 4's 4 alpha G.
* **Audits** — Algorithms 1 and 2 (:data:`AUDITS`), Algorithm 1 at Theorem 4's printed
  range delta >= e^-eps (:data:`AUDIT_CLAIMS`).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from dptheory import registry
from dptheory.verify.recipe import Recipe
from dptheory_simulations.algorithms.base import ReplicateStreams
from dptheory_simulations.objectives import Dataset
from dptheory_simulations.objectives import get as get_objective

from .audits import audit_recipes
from .cells import (catalog_bound, constants, floats, fmin_upper, objective_and_data, param,
                    run_algorithm, scalar_params, scaled_variant, utility_recipe)
from .sensitivity import (NeighbourSpace, certified_result, evaluate_item, label_space, lipschitz,
                          record_json, replace_record, score_key, search_kw,
                          search_neighbours, sensitivity_recipe, sub_seed)

MODULE = __name__


# ============================================================================ cells
def grad_norm(cell: dict) -> dict:
    """Algorithm 1 / 2 of tran2022 on a smooth family: E||grad F(w_hat)|| vs Thm 6 / 9.

    ``samples``: per replicate, the exact expectation over the uniformly drawn output index,
    (1/T) sum_t ||grad F(w_t)|| (``average=True``): an unbiased, lower-variance estimate of
    E||grad F(w_hat)||; with ``average_samples`` k in the cell, its unbiased estimate from a
    systematic sample of about k steps per replicate (Algorithm 1's ``average_samples``).
    Bound at the certified G (BoundedGradient), L (Smooth), R = F(w_1) - min F (w_1 = 0;
    min F by its best value found, so R is not overestimated) and the T the algorithm ran.
    """
    n = int(param(cell, "n"))
    obj, data = objective_and_data(cell, n)
    # average_samples (Algorithm 1 only): the average over the output index from a systematic
    # sample of about that many steps per replicate, unbiased (see run_alg1): the exact
    # average costs O(T N), most of a run's time at the Theorem 6 sizes
    extra = {"average_samples": int(cell["average_samples"])} if "average_samples" in cell else {}
    res = run_algorithm(cell, cell["algorithm"], obj, data, average=True, **extra)
    c = constants(obj, data)
    p = res.params
    Fgap = float(obj.F(np.zeros(data.d), data)) - fmin_upper(obj, data)
    vals = {"n": n, "d": data.d, "eps": float(cell["eps"]), "delta": float(cell["delta"]),
            "G": c["G_grad"], "beta": c["beta"], "Fgap": Fgap, "T": int(p["T"])}
    return {"samples": floats(res.metrics["grad_norm_avg"]),
            "bound": catalog_bound(cell["item"], vals),
            "trivial": c["G_grad"], "trivial_source": "||grad F|| <= G (BoundedGradient)",
            "grad_norm_output": floats(res.metrics["grad_norm"]),
            "params": scalar_params(p), "Fgap": Fgap,
            "eps_tight": float(res.privacy["tight"]["epsilon"])}


def lemma5_path(cell: dict) -> dict:
    """Lemma 5 pathwise: normalized SGD w_{t+1} = w_t - eta m_hat_t/||m_hat_t|| with an
    arbitrary m_hat_t (a per-sample gradient, or with ``full_gradient`` the full gradient,
    plus N(0, s^2 I) noise).

    Per replicate: LHS = (1/T) sum_{t=1}^T ||grad F(w_t)|| (= E over a uniform output index),
    RHS = Lemma 5 at R := F(w_1) - F(w_{T+1}) and errbar := (1/T) sum_t ||m_hat_t -
    grad F(w_t)|| of that path. ``samples`` = LHS/RHS, ``bound`` = 1.
    """
    T = int(param(cell, "T"))
    n = int(cell["n"])
    obj, data = objective_and_data(cell, n)
    c = constants(obj, data)
    reps, d = int(cell["reps"]), data.d
    eta, s = float(cell["eta"]), float(cell["noise"])
    streams = ReplicateStreams(int(cell["seed"]), reps, int(cell["first_replicate"]))
    W = np.zeros((reps, d))
    F1 = np.atleast_1d(obj.F(W, data))
    lhs = np.zeros(reps)
    err = np.zeros(reps)
    for _ in range(T):
        gF = obj.grad_F(W, data)
        lhs += np.linalg.norm(gF, axis=1)
        idx = streams.indices(n, 1)
        base = gF if cell.get("full_gradient") else obj.batch_grad(W, data, idx)[:, 0, :]
        m_hat = base + s * streams.normal(d)
        err += np.linalg.norm(m_hat - gF, axis=1)
        nrm = np.linalg.norm(m_hat, axis=1, keepdims=True)
        W = W - eta * np.where(nrm > 0, m_hat / np.where(nrm > 0, nrm, 1.0), 0.0)
    FT1 = np.atleast_1d(obj.F(W, data))
    lhs, err = lhs / T, err / T
    rhs = np.array([catalog_bound("tran2022.lemma5", {"Fgap": float(F1[r] - FT1[r]), "T": T,
                                                      "eta_n": eta, "beta": c["beta"],
                                                      "tr22_errbar": float(err[r])})
                    for r in range(reps)])
    G = c.get("G_grad", c.get("G"))
    return {"samples": floats(lhs / rhs), "bound": 1.0, "lhs": floats(lhs),
            "rhs": floats(rhs), "max_ratio": float(np.max(lhs / rhs)),
            "trivial": float(np.max(G / rhs)),
            "trivial_source": "per replicate, LHS <= G (BoundedGradient), so LHS/RHS <= G/RHS",
            "params": {"T": T, "eta": eta, "noise": s, "L": c["beta"]}}


class _ZeroGradients:
    """A view of an objective whose per-sample gradients are all 0 (constants unchanged).

    Algorithm 2 run on it has m_t = 0 for every t, so its m_hat_t is exactly the privacy
    noise m_hat_t - m_t, with the node variances of the underlying objective's G, L.
    """

    def __init__(self, base: Any) -> None:
        self._base = base

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def batch_grad(self, W: Any, data: Any, idx: Any) -> np.ndarray:
        W, idx = np.asarray(W), np.asarray(idx)
        return np.zeros((W.shape[0], idx.shape[1], W.shape[1]))


def lemma7_noise(cell: dict) -> dict:
    """Noise-only Monte Carlo of Algorithm 2: ||m_hat_t - m_t|| at t = T vs Lemma 7.

    Run on :class:`_ZeroGradients` (so m_t = 0 and m_hat_t is the noise alone) with the
    Theorem 9 settings (T, eta, alpha, gamma = eta N) and the paper's node variances. The
    bound is Lemma 7 at the certified G, L and the run's alpha, eta, T.
    """
    n = int(param(cell, "n"))
    base, data = objective_and_data(cell, n)
    obj = _ZeroGradients(base)
    res = run_algorithm(cell, "tran2022.alg2", obj, data, record=1)
    c = constants(base, data)
    p = res.params
    mh = np.asarray(res.trajectory["m_hat"])            # (reps, T, d)
    norms = np.linalg.norm(mh, axis=2)
    vals = {"n": n, "d": data.d, "eps": float(cell["eps"]), "delta": float(cell["delta"]),
            "G": c["G_grad"], "beta": c["beta"], "alpha_m": float(p["alpha"]),
            "eta_n": float(p["eta"]), "T": int(p["T"])}
    return {"samples": floats(norms[:, -1]), "bound": catalog_bound("tran2022.lemma7", vals),
            "max_t_norm": floats(norms.max(axis=1)), "mean_t_norm": floats(norms.mean(axis=1)),
            "params": scalar_params(p), "gamma_le_half": bool(p["gamma"] <= 0.5),
            "alpha_ge_1_over_N": bool(p["alpha"] >= 1.0 / n)}


def dyadic_nodes(zmax: int) -> list[tuple[int, int]]:
    """Every dyadic node [a 2^b + 1, (a+1) 2^b] (1-based) with z <= zmax."""
    out = []
    b = 0
    while (1 << b) <= zmax:
        size = 1 << b
        out += [(a * size + 1, (a + 1) * size) for a in range(zmax // size)]
        b += 1
    return out


def node_differences(gD: np.ndarray, gP: np.ndarray, alpha: float,
                     nodes: list[tuple[int, int]]) -> np.ndarray:
    """||f_[y,z](D) - f_[y,z](D')|| for each node, f_[y,z] = alpha sum_{t=y}^z (1-alpha)^{z-t} g_t
    (``gD``, ``gP``: (T, d) gradient streams, row t-1 = step t)."""
    diff = gD - gP
    out = np.empty(len(nodes))
    for k, (y, z) in enumerate(nodes):
        wts = alpha * (1.0 - alpha) ** (z - np.arange(y, z + 1))
        out[k] = float(np.linalg.norm(wts @ diff[y - 1:z]))
    return out


def _alg1_streams(seed: int, first_replicate: int, N: int, T: int, d: int, alpha: float,
                  node_std: float, depth: int) -> tuple[list[np.ndarray], np.ndarray]:
    """The permutations and the node-noise sequence NOISE_1..NOISE_T of ``tran2022.alg1`` for
    one replicate, drawn exactly as ``run_alg1`` draws them (stream order: node keys, output
    index, one permutation per epoch). Both are data-independent, so D and D' share them."""
    from dptheory.privacy.tree import OnlineTreeAggregator
    from dptheory_simulations.algorithms.base import ReplicateStreams
    from dptheory_simulations.algorithms.tran2022 import _FAM_ALG1, KeyedNormals, _node_keys
    streams = ReplicateStreams(int(seed), 1, int(first_replicate))
    keyed = KeyedNormals(_node_keys(streams), d, _FAM_ALG1)
    streams.uniform(1)                                   # the output index tau
    perms = [streams.permutations(N)[0] for _ in range(T // N + 1)]
    agg = OnlineTreeAggregator(d, T, alpha, node_std, None, 1, depth=depth,
                               node_noise=lambda b, a: node_std * keyed(b, a))
    noise = np.stack([agg.step()[0] for _ in range(T)])
    return perms, noise


def alg1_gradients(obj: Any, X: np.ndarray, y: np.ndarray, perms: list[np.ndarray],
                   noise: np.ndarray, T: int, eta: float, alpha: float,
                   at: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 1's recursion (w_1 = 0); returns (gradients g_t (T, d), iterates w_t (T, d)).
    With ``at`` (T, d) the gradients are taken at those iterates instead (fixed trajectory)."""
    N, d = X.shape[0], obj.d
    w = np.zeros((1, d))
    m = np.zeros(d)
    gs = np.empty((T, d))
    ws = np.empty((T, d))
    for t in range(1, T + 1):
        q, i = divmod(t - 1, N)
        j = int(perms[q][i])
        wt = w if at is None else at[t - 1][None, :]
        ws[t - 1] = wt[0]
        g = obj._grad(wt, X[j:j + 1], y[j:j + 1])[0, 0]
        gs[t - 1] = g
        if at is None:
            m = (1.0 - alpha) * m + alpha * g
            mh = m + noise[t - 1]
            nrm = float(np.linalg.norm(mh))
            if nrm > 0:
                w = w - eta * mh / nrm
    return gs, ws


def _alg1_schedule(cell: dict[str, Any], N: int) -> tuple[int, float, float]:
    """(T, alpha, eta) of the node-sensitivity cells: T = 4N, alpha = alpha_factor/N,
    eta = 1/sqrt(N T)."""
    T = 4 * N
    return T, float(cell.get("alpha_factor", 1.0)) / N, 1.0 / math.sqrt(N * T)


def _alg1_instance(cell: dict[str, Any], obj: Any, data: Any, r: int
                   ) -> tuple[list[np.ndarray], np.ndarray, float]:
    """Replicate r's permutations, node-noise sequence and node std of ``tran2022.alg1`` on
    ``data`` at the schedule of :func:`_alg1_schedule` (the paper's calibration unless the
    cell sets ``sigma``)."""
    from dptheory_simulations.algorithms import get as get_algorithm
    N = data.n
    T, alpha, eta = _alg1_schedule(cell, N)
    run = get_algorithm("tran2022.alg1")(obj, data, eps=float(cell.get("eps", 1.0)),
                                         delta=float(cell.get("delta", 1e-5)), reps=1,
                                         seed=int(cell["seed"]), T=T, alpha=alpha, eta=eta,
                                         **({"sigma": float(cell["sigma"])} if "sigma" in cell else {}))
    node_std, depth = float(run.noise["node_std"]), int(run.params["depth"])
    perms, noise = _alg1_streams(int(cell["seed"]), int(cell.get("first_replicate", 0)) + r,
                                 N, T, obj.d, alpha, node_std, depth)
    return perms, noise, node_std


def tree_node_sensitivity(cell: dict[str, Any]) -> dict[str, Any]:
    """tran2022 node sensitivities on Algorithm 1's gradient streams.

    ``compare="printed"``: ratio to Prop. 13's per-node Delta_node (catalog expression);
    ``compare="4alphaG"``: the node difference vs 4 alpha G (the bound Thm 4 uses).
    ``coupling="trajectories"``: D and D' each run their own trajectory with the same
    permutations and node noise; ``"fixed-iterates"``: both streams at D's iterates.
    alpha = 1/N (Prop. 13's boundary), T = 4N, eta = 1/sqrt(N T), node noise of the paper
    calibration (``sigma=0`` in ``fixed`` turns it off).
    """
    N = int(cell["point"].get("N", cell.get("N", 8)))
    compare = cell.get("compare", "printed")
    coupling = cell.get("coupling", "trajectories")
    if compare not in ("printed", "4alphaG") or coupling not in ("trajectories", "fixed-iterates"):
        raise ValueError(f"compare must be printed|4alphaG and coupling trajectories|"
                         f"fixed-iterates, got {compare!r}, {coupling!r}")
    obj = get_objective(cell.get("family", "robust-regression"), **cell.get("family_params", {}))
    T, alpha, eta = _alg1_schedule(cell, N)
    nodes = dyadic_nodes(T)
    samples, best = [], None
    for r in range(int(cell["reps"])):
        data = obj.make_data(N, sub_seed(cell, r, 0))
        G = lipschitz(obj, data)
        perms, noise, node_std = _alg1_instance(cell, obj, data, r)
        gD, wD = alg1_gradients(obj, data.X, data.y, perms, noise, T, eta, alpha)
        if compare == "printed":
            bnodes = np.array([evaluate_item("tran2022.prop13", "node", yI=y, zI=z, n=N,
                                             alpha_m=alpha, G=G) for (y, z) in nodes])
        else:
            bnodes = np.full(len(nodes), evaluate_item("tran2022.thm4", "node",
                                                       alpha_m=alpha, G=G))

        def diffs(c: dict[str, Any]) -> np.ndarray:
            Xp, yp = replace_record(data, c["i"], c["x"], c["y"])
            gP, _ = alg1_gradients(obj, Xp, yp, perms, noise, T, eta, alpha,
                                   at=wD if coupling == "fixed-iterates" else None)
            return node_differences(gD, gP, alpha, nodes)

        pos = bnodes > 0

        def score(c: dict[str, Any]) -> float:
            # the search maximises the ratio over nodes whose printed bound is positive; nodes
            # whose printed bound is 0 (leaves: ceil(0/N) = 0 terms) are reported separately
            dv = diffs(c)
            return float(np.max(dv[pos] / bnodes[pos])) if pos.any() else float(dv.max())

        space = NeighbourSpace(n=N, d=obj.d, x_radius=data.max_norm, **label_space(data))
        res = search_neighbours(score, space, seed=sub_seed(cell, r, 1), **search_kw(cell))
        c = res["candidate"]
        dv = diffs(c)
        zero_bound = (~pos) & (dv > 1e-15)
        if zero_bound.any():          # printed bound 0 but the node moved: report that node
            k = int(np.flatnonzero(zero_bound)[np.argmax(dv[zero_bound])])
        else:
            k = int(np.flatnonzero(pos)[np.argmax(dv[pos] / bnodes[pos])])
        samples.append(float(dv[k]))
        kp = int(np.flatnonzero(pos)[np.argmax(dv[pos] / bnodes[pos])])
        info = {**record_json(c), "ratio": float(dv[k] / bnodes[k]) if bnodes[k] > 0 else None,
                "measured": float(dv[k]), "bound": float(bnodes[k]),
                "node": list(nodes[k]), "max_node_difference": float(dv.max()),
                "max_ratio_positive_bound": float(dv[kp] / bnodes[kp]),
                "node_max_ratio_positive_bound": list(nodes[kp]),
                "nodes_with_zero_printed_bound_that_differ": [list(nodes[j]) for j in
                                                              np.flatnonzero(zero_bound)][:16],
                "count_zero_bound_differ": int(zero_bound.sum()),
                "four_alpha_G": 4 * alpha * G, "G": G, "alpha": alpha, "N": N, "T": T,
                "eta": eta, "node_std": node_std, "coupling": coupling, "compare": compare,
                "dataset": r, "hypothesis_ratio": res["hypothesis_value"],
                "adversarial_evals": res["adversarial_evals"]}
        if best is None or score_key(info) > score_key(best):
            best = info
    return {"measured": best["measured"], "bound": best["bound"], "ratio": best["ratio"],
            "worst": best, "samples": samples}


# The printed Proposition 13 counts ceil(|y-z|/N) occurrences where a node has z - y + 1
# positions; for a leaf the printed sensitivity is 0: the root cause shared with
# dptheory_bounds.checks.privacy_tree's count check.
_PROP13_LEAF = {"severity": "notation", "root": "tran2022.prop13:count-off-by-one",
                "consequence": "as printed, Proposition 13 counts ceil(|y-z|/N) occurrences "
                               "where a node has z - y + 1 positions: for a leaf the sum is "
                               "empty, so a leaf's sensitivity is printed as 0 although a leaf "
                               "moves; the bound Delta <= 4 alpha G that Theorem 4 uses still "
                               "covers leaves (a misprint of the count)"}


# ============================================================================ recipes
_RR = {"family": "robust-regression", "objective_params": {"d": 5}}
# Where Theorem 6 binds (issue 23): its bound over the trivial G is, at the settings,
# (3/2 R/G + 6 (L/G) sqrt(log2T log(1/delta)) + 12 (log2T log(1/delta))^(1/8)) d^(1/4)/
# sqrt(eps N) + (3/4)(L/G)(d log(1/delta))^(1/4) sqrt(log2T)/(sqrt(eps) N^(3/4)) + 6/sqrt N +
# 6 log2T sqrt(d log(1/delta))/(eps N). A loss scale leaves R/G and L/G unchanged, but the
# feature scale X of robust regression (G = X/sqrt 2, L = X^2, R ~ X^2) sets L/G = sqrt 2 X
# and R/G ~ X; and the theorem admits any eps > 0 (its eps-condition is alpha <= 1 at the
# settings, and Theorem 4's delta >= exp(-eps) holds). At X = 0.1, eps = 100, d = 5 the
# bound drops below G from N = 181 with T = 29117 steps (at X = 1, eps = 1: from N = 6.8e4).
_RR_BIND = {"family": "robust-regression", "objective_params": {"d": 5, "x_radius": 0.1}}
_BIND_WHY = ("robust-regression d = 5 with features ||a|| <= 0.1 (L/G = 0.14, R/G ~ 0.01) and "
             "eps = 100, delta = 1e-5, where the bound is below the trivial G from N = 181 "
             "(at ||a|| <= 1, eps = 1 only from N = 6.8e4);")


#: replicates per cell of the Theorem 6 runs: the simulator's per-step cost (the tree of
#: noises, a Python loop over T ~ eps N^2 steps) is shared by the replicates of a cell, so one
#: cell of 32 costs 0.56 x four cells of 8 (measured at N = 181: 7.1 s against 12.7 s of
#: CPU), with the same samples (blocks pool exactly); --quick runs 8, one cell either way
_THM6_BLOCK = 32

#: steps per replicate of the output-index average of the Theorem 6 runs (an unbiased
#: systematic sample, ``run_alg1(average_samples=...)``): the exact average costs T full
#: gradients, O(T N) = O(eps N^3), 83% of a cell at N = 256 and more beyond; at N = 256 a
#: sample of ~1000 steps moved the replicates' mean by 7e-5 of itself and each replicate by
#: 0.5% of the spread between replicates (same trajectories), for a fifth of the CPU
_THM6_AVG = 2048

#: where the Theorem 6 slope decides (measured on a fresh clone, --full, 2026-11-25: 4 data
#: sets x 32 runs per point)
_THM6_UNDECIDED = (
    "E||grad F(w_hat)|| decays faster than the bound's N^-0.49 at every size run, but its local "
    "slope still steepens: -0.47, -0.49, -0.47, -0.67 over N = 181..724, and the next doubling, "
    "N = 1448 (T = 1.36e6 steps, 47 s of CPU per cell), gave -0.62 from 724 with the last two "
    "ranges at -0.48 and -0.63 (not stable), so the run is not yet asymptotic and neither a "
    "shallower tail (a refutation) nor a stable one (support) is shown. N = 2896 would cost "
    "T = 5.1e6 steps, about 180 s of CPU per cell of 32 runs (12 CPU minutes for the 4 data "
    "sets), beyond the --full budget: not run")


RECIPES: list[Recipe] = [
    utility_recipe(id="tran2022.thm6:bound-n", item="tran2022.thm6", check="bound",
                   cell=f"{MODULE}:grad_norm_binding", sweep={"n": [181]},
                   sweep_full={"n": [181, 256, 362, 512]},
                   fixed={**_RR_BIND, "eps": 100.0, "delta": 1e-5, "algorithm": "tran2022.alg1",
                          "item": "tran2022.thm6", "average_samples": _THM6_AVG}, reps=8, block=_THM6_BLOCK, reps_full=32,
                   metric="E||grad F(w_hat)||",
                   description="Algorithm 1 (tree-aggregated momentum, Theorem 6 settings) where "
                               "Theorem 6 binds: " + _BIND_WHY + " (1/T) sum_t ||grad F(w_t)|| "
                               "(= E over the output index) <= Theorem 6's printed bound at the "
                               "certified G, L, R = F(0) - inf F."),
    utility_recipe(id="tran2022.thm6.corrected:bound-n", item="tran2022.thm6.corrected", check="bound",
                   cell=f"{MODULE}:grad_norm_binding", sweep={"n": [181]},
                   sweep_full={"n": [181, 256, 362, 512]},
                   fixed={**_RR_BIND, "eps": 100.0, "delta": 1e-5, "algorithm": "tran2022.alg1",
                          "item": "tran2022.thm6.corrected", "average_samples": _THM6_AVG}, reps=8, block=_THM6_BLOCK, reps_full=32,
                   metric="E||grad F(w_hat)||",
                   description="As tran2022.thm6:bound-n against the corrected R term (Lemma 5 at the "
                               "settings), at the same binding instance."),
    utility_recipe(id="tran2022.thm6:slope-n", item="tran2022.thm6", check="slope",
                   cell=f"{MODULE}:grad_norm_binding", sweep={"n": [181, 256, 362]},
                   sweep_full={"n": [181, 256, 362, 512, 724]},
                   fixed={**_RR_BIND, "eps": 100.0, "delta": 1e-5, "algorithm": "tran2022.alg1",
                          "item": "tran2022.thm6", "average_samples": _THM6_AVG}, reps=8, block=_THM6_BLOCK, reps_full=32, quick=False,
                   expected_slope=None, tolerance=0.1, metric="E||grad F(w_hat)||",
                   # no extension: the next doublings did not decide it and cost most of a
                   # --full run (see _THM6_UNDECIDED)
                   extend={"factor": 2, "quick": 0, "full": 0}, undecided=_THM6_UNDECIDED,
                   description="Algorithm 1, E||grad F(w_hat)|| vs N against the slope of Theorem 6's own "
                               "bound over the sweep (O~(d^1/4/sqrt(eps N) + 1/sqrt N): -1/2 up to the "
                               "log2 T polylogs, which the bound's slope includes), at the binding "
                               "instance of tran2022.thm6:bound-n (" + _BIND_WHY + "); tolerance 0.1 "
                               "for the hidden constants' mix of terms. Full only: the live points "
                               "start at N = 181 and T grows as eps N^2 (1.2e5 steps at N = 362), "
                               "minutes, not seconds."),
    utility_recipe(id="tran2022.thm9:bound-n", item="tran2022.thm9", check="bound",
                   cell=f"{MODULE}:grad_norm_binding", sweep={"n": [8, 16, 24]},
                   sweep_full={"n": [8, 16, 32, 48, 64]},
                   fixed={**_RR, "eps": 1.0, "delta": 1e-5, "algorithm": "tran2022.alg2",
                          "item": "tran2022.thm9"}, reps=8, block=8, reps_full=32,
                   metric="E||grad F(w_hat)||",
                   description="Algorithm 2 (sensitivity-reduced, reconstruction alg4, Theorem 9 "
                               "settings T = N^(7/3) eps^(4/3)/d^(2/3)) on robust-regression: "
                               "E||grad F(w_hat)|| <= Theorem 9's printed bound. Cost O(T^2/N): N tiny in "
                               "quick."),
    utility_recipe(id="tran2022.thm9:slope-n", item="tran2022.thm9", check="slope",
                   cell=f"{MODULE}:grad_norm", sweep={"n": [16, 32, 64]},
                   sweep_full={"n": [16, 32, 64, 96]},
                   fixed={**_RR, "eps": 1.0, "delta": 1e-5, "algorithm": "tran2022.alg2",
                          "item": "tran2022.thm9"}, reps=8, block=8, reps_full=32, quick=False,
                   expected_slope=None, tolerance=0.1, metric="E||grad F(w_hat)||",
                   description="Algorithm 2, E||grad F(w_hat)|| vs N against the bound's own slope "
                               "(O~(d^1/3/(eps N)^2/3 + 1/sqrt N) with log T factors). Full only: "
                               "O(T^2/N) cost."),
    utility_recipe(id="tran2022.lemma5:bound-T", item="tran2022.lemma5", check="bound",
                   cell=f"{MODULE}:lemma5_path", sweep={"T": [256, 1024, 4096]},
                   sweep_full={"T": [256, 1024, 4096, 16384]},
                   fixed={**_RR, "n": 64, "eta": 0.01, "noise": 0.01, "full_gradient": True}, reps=16,
                   block=16, reps_full=64, metric="LHS/RHS (pathwise)",
                   description="Pathwise descent lemma: normalized GD with m_hat_t = grad F(w_t) + "
                               "N(0, 0.01^2 I) on robust-regression (N = 64, eta = 0.01); per replicate "
                               "(1/T) sum ||grad F(w_t)|| divided by 3(F(w_1) - F(w_{T+1}))/(2 eta T) + "
                               "3 L eta/4 + (3/T) sum ||m_hat_t - grad F(w_t)|| of the same path <= 1. "
                               "The lemma holds for any m_hat_t; an accurate one (small eta and noise) "
                               "keeps the right side below G, where it can bind (with a per-sample "
                               "gradient and unit noise it is always above G: vacuous)."),
    utility_recipe(id="tran2022.lemma7:bound-n", item="tran2022.lemma7", check="bound",
                   cell=f"{MODULE}:lemma7_noise", sweep={"n": [8, 16, 32]},
                   sweep_full={"n": [8, 16, 32, 48, 64]},
                   fixed={**_RR, "eps": 1.0, "delta": 1e-5}, reps=16, block=16, reps_full=64,
                   metric="E||m_hat_T - m_T||",
                   description="Noise-only Monte Carlo of Algorithm 2 (zero per-sample gradients, so m_t = "
                               "0 and m_hat_t is the tree noise, with robust-regression's G, L and Theorem 9 "
                               "settings): ||m_hat_T - m_T|| at the last step <= Lemma 7's printed bound. "
                               "gamma <= 1/2 holds from N = 7 (d = 5, eps = 1)."),
    # Only the fixed-iterates coupling measures what the adaptive-composition proof bounds
    # (the sensitivity of a node given the past releases); coupled trajectories that diverge
    # would change every term and cannot refute a conditional sensitivity.
    sensitivity_recipe("tran2022.prop13:node-sensitivity-fixed-iterates", "tran2022.prop13", f"{MODULE}:tree_node_sensitivity",
                       {"N": [8, 12]},
                       {"compare": "printed", "coupling": "fixed-iterates", "family": "robust-regression",
                        "family_params": {"d": 5}, "examples": 20, "starts": 2, "maxfev": 120},
                       {"N": [8, 12, 16, 24, 32, 64]}, "max_nodes ||f_[y,z](D) - f_[y,z](D')|| / Delta_node",
                       "Algorithm-1 gradient streams of D and D' at D's iterates (the conditional "
                       "sensitivity the adaptive composition uses), same permutations and node noise, alpha "
                       "= 1/N, T = 4N; every dyadic node z <= 4N vs the printed 2 alpha G sum_j "
                       "(1-alpha)^{jN}.", **_PROP13_LEAF),
    sensitivity_recipe("tran2022.thm4:node-sensitivity", "tran2022.thm4", f"{MODULE}:tree_node_sensitivity_certified", {"N": [8, 16]},
                       {"compare": "4alphaG", "coupling": "fixed-iterates", "family": "robust-regression",
                        "family_params": {"d": 5}, "examples": 20, "starts": 2, "maxfev": 120},
                       {"N": [8, 12, 16, 24, 32, 64]}, "max_nodes ||f_[y,z](D) - f_[y,z](D')||",
                       "Algorithm-1 gradient streams of D and D' at D's iterates (the conditional sensitivity "
                       "the adaptive composition uses): largest node difference vs 4 alpha G (Thm 4's node "
                       "bound)."),
]

#: issue 22: the checks above run at feature scale X = 1 (G = 0.71, L = 1), where a bound
#: that drops G or L cannot show; each also runs at X = 1/4 (G = 0.18, L = 1/16) and X = 4
#: (G = 2.8, L = 16), certified by robust-regression (G = X/sqrt 2, L = X^2), at its first
#: sweep point
RECIPES += [scaled_variant(r, f"x-{tag}", f"features of norm <= {x:g} (G = {x / math.sqrt(2):.3g}, "
                           f"L = {x * x:g} certified).", params={"x_radius": x})
            for r in RECIPES if r.quick and r.id in (
                "tran2022.thm9:bound-n", "tran2022.lemma5:bound-T", "tran2022.lemma7:bound-n",
                "tran2022.prop13:node-sensitivity-fixed-iterates",
                "tran2022.thm4:node-sensitivity")
            for tag, x in (("quarter", 0.25), ("4", 4.0))]


# ============================================================================ audits
#: algorithm -> audit setup (see :func:`.audits.audit_recipes`). Both algorithms are audited
#: on their transcript (:mod:`.transcripts`) on the audit-only linear loss f = b <a, w>, whose
#: per-sample gradients do not depend on w (the others' are 0, the canaries' +-X e1), so each
#: node's shift is a known function of the permutation.
_LINEAR_AUDIT = dict(obj=("linear-score", {"d": 3}), n=8, quick={"T": 8, "eta": 0.1},
                     full={"T": 8, "eta": 0.1}, noise="sigma", transcript=True)
AUDITS: dict[str, dict[str, Any]] = {
    # Algorithm 1: every noisy tree node and the permutations (handed over by the simulator);
    # the transcript's exact eps is that of a mixture over the canary's positions
    "tran2022.alg1": dict(_LINEAR_AUDIT, constants_note=(
        "the privacy claim is invariant under the loss scale because a node's noise std is "
        "4 alpha G sqrt(V) sigma with sigma = 2 sqrt(log(1/delta))/eps free of G (checked in the "
        "tests) and a node's sensitivity is <= 4 alpha G (Thm 4; measured at X = 1/4 and 4 by "
        "tran2022.thm4:node-sensitivity-x-*: the same ratio at every scale)")),
    # Algorithm 2: its r- and Delta-nodes carry no shift on the linear loss, so the
    # transcript's LLR is that of the G-nodes (handed over with the permutations and anchors)
    "tran2022.alg2": dict(_LINEAR_AUDIT, constants_note=(
        "this audit is invariant under the loss scale because on the linear loss only the "
        "G-nodes carry a shift (<= delta_G = 4G) and their noise std is 4G sigma sqrt(V), sigma "
        "= 4 sqrt(log(1/delta))/eps free of G (checked in the tests); it cannot see the r- and "
        "Delta-nodes, whose printed delta_r = 2 eta N drops L (refuted symbolically: "
        "tran2022.alg2:delta_r-drops-L)")),
}
#: Theorem 4 needs delta >= exp(-eps) (printed); e^-1.5 = 0.22 <= 0.3
AUDIT_CLAIMS: dict[str, tuple[float, float]] = {"tran2022.alg1": (1.5, 0.3)}
RECIPES += audit_recipes(AUDITS, AUDIT_CLAIMS)

# ============================================================================ hyper-parameters
#: (algorithm id or paper, parameter) -> (formula, provenance, what it feeds): none of
#: tran2022's settings depend on the data
HYPERPARAMETERS: dict[tuple[str, str], tuple[str, str, str]] = {}


# ============================================================================ exact and worst-case checks
# Issue 23, item 4: where Theorems 6 and 9 bind. Theorem 9 cannot be moved into reach as
# Theorem 6 was (tran2022.thm6:bound-n): its K = 16 log2T log(1/delta) multiplies G in
# 24 K G d^(1/3)/(eps N)^(2/3) and 36 G K sqrt(d)/(eps N), which no feature scale shrinks
# relative to G; over d = 1, delta in {1e-5, 1e-2, 0.3}, eps in 1..1e5 and ||a|| <= 0.01..1
# the cheapest binding point is N = 98 at eps = 1e5, delta = 0.3, ||a|| <= 0.01, where
# T = N^(7/3) eps^(4/3)/d^(2/3) = 2.1e11 steps (>= 700 CPU hours per replicate at
# 1.2e-5 s per step). Their bounds are above the trivial
# ||grad F|| <= G at every N this machine affords; the cell solves the N from which they drop
# below G at the instance's constants and the theorem's settings, and estimates the cost of
# running there from the simulators' per-step cost.

#: CPU seconds per step per replicate of the simulators on robust-regression d = 5 (reps
#: vectorised), measured as the difference of two runs (Algorithm 1: N = 256 and 1024 with
#: 16 replicates; Algorithm 2: N = 16 and 32 with 8, at T/N = 35) on the reference machine.
#: Algorithm 2's per-step cost grows with T/N (window reconstruction): scaled from T/N = 35.
_SEC_PER_STEP = {"tran2022.alg1": 1.4e-5, "tran2022.alg2": 1.2e-5}
_ALG2_T_OVER_N = 35.0


def _steps(item: str, N: float, vals: dict[str, float]) -> int:
    """T at the item's settings for N (implicit settings solved; floored as the simulators do)."""
    from dptheory.symbolic.numeric import resolve_settings  # noqa: PLC0415
    from dptheory.symbolic.symbols import S  # noqa: PLC0415
    it = registry.get(item)
    base = {S.n: float(N), S.d: vals["d"], S.eps: vals["eps"], S.delta: vals["delta"]}
    return max(2, int(math.floor(resolve_settings(it.settings, base)[S.T])))


@functools.lru_cache(maxsize=None)
def _compiled_bound(item: str) -> tuple[Any, Any]:
    """The item's T setting and bound compiled to float functions (lambdify, ``math``):
    ``T_of(n, d, eps, delta)`` solves the implicit T = T(n, T) by the fixed-point iteration
    of :func:`dptheory.symbolic.numeric.resolve_settings` (start 2, relative tolerance
    1e-13) and floors it as :func:`_steps` does; ``bound_of(values)`` is the printed bound
    at ``values`` (n, T, d, eps, delta, G, beta, Fgap). A pure function of the catalog, so
    compiled once per process: the bisection of :func:`grad_norm_binding` evaluates the
    bound some 30 times per cell, which SymPy's exact substitution made the cost of the
    tran2022 binding cells (about 85% of their CPU time)."""
    import sympy as sp  # noqa: PLC0415
    from dptheory.symbolic.numeric import CompiledSettings  # noqa: PLC0415
    from dptheory.symbolic.symbols import S  # noqa: PLC0415
    it = registry.get(item)
    inputs = [S.n, S.d, S.eps, S.delta]
    settings = CompiledSettings({S.T: it.settings[S.T]}, inputs)
    args = sorted(sp.sympify(it.bound).free_symbols, key=str)
    f = sp.lambdify(args, it.bound, "math")
    names = [a.name for a in args]

    def T_of(N: float, vals: dict[str, float]) -> int:
        env = settings({S.n: float(N), S.d: vals["d"], S.eps: vals["eps"],
                        S.delta: vals["delta"]})
        return max(2, int(math.floor(env[S.T])))

    def bound_of(values: dict[str, float]) -> float:
        return float(f(*(float(values[k]) for k in names)))

    return T_of, bound_of


def grad_norm_binding(cell: dict) -> dict:
    """:func:`grad_norm` with ``binds_at``: the smallest N from which the theorem's bound, at
    this instance's G, L, R and the theorem's T(N), is below the trivial G (bisection,
    :func:`.binding.binding_point`), and the estimated CPU hours of this recipe's replicates
    there (steps T(N) x replicates x :data:`_SEC_PER_STEP`)."""
    from .binding import binding_point, binds_at  # noqa: PLC0415
    out = grad_norm(cell)
    n = int(param(cell, "n"))
    obj, data = objective_and_data(cell, n)
    c = constants(obj, data)
    vals = {"d": float(data.d), "eps": float(cell["eps"]), "delta": float(cell["delta"]),
            "G": c["G_grad"], "beta": c["beta"], "Fgap": out["Fgap"]}
    item = cell["item"]

    T_of, bound_of = _compiled_bound(item)

    def bound(N: float) -> float:   # = catalog_bound(item, {.., "n": N, "T": _steps(item, N, vals)})
        return bound_of({**vals, "n": N, "T": T_of(N, vals)})

    at = binding_point(bound, c["G_grad"], 8.0, 1e12)
    how = (f"{item}'s bound at G = {c['G_grad']:.4g}, L = {c['beta']:.4g}, R = {out['Fgap']:.4g} "
           f"and T(N) of its settings equals G there")
    cost = ""
    if at is not None and at > n:
        T_at = _steps(item, at, vals)
        per_step = _SEC_PER_STEP[cell["algorithm"]]
        if cell["algorithm"] == "tran2022.alg2":
            per_step *= max(1.0, T_at / at / _ALG2_T_OVER_N)
        hours = T_at * int(cell.get("reps", 1)) * per_step / 3600
        cost = (f"T = {T_at:.3g} steps x {int(cell.get('reps', 1))} replicates, estimated "
                f"{hours:.3g} CPU hours")
    return {**out, "binds_at": binds_at(at, how, cost)}


# ============================================================================ exact and worst-case checks
# Issue 23, item 3: Theorem 4's node sensitivity with a constructive canary and the certified
# supremum of :func:`.supremum.tree_node_sup`, so the check decides instead of stopping at the
# search's reach.
_U0 = math.sqrt(2.0)          # robust regression: |phi'(u)| = |2u/(2 + u^2)| is 1/sqrt 2 at u = +-sqrt 2


def _node_canary(obj: Any, data: Any, perms: list[np.ndarray], noise: np.ndarray, T: int,
                 eta: float, alpha: float, visits: list[int], iters: int = 30
                 ) -> tuple[np.ndarray, np.ndarray, float, list[np.ndarray], float]:
    """A neighbouring pair D, D' and permutations that attain :func:`.supremum.tree_node_sup`
    on robust regression at D's own iterates (the check's fixed-iterates coupling).

    ``visits`` are the steps of the worst node's visits (:func:`.supremum.tree_node_worst`,
    one per epoch meeting the node, the last one its end z): each of those epochs' permutation
    visits record 0 there, the other epochs' at their last step. Record 0 of D is
    (X u, c - sqrt 2) and of D' is (X u, c + sqrt 2), X = max ||a_i||, so at a visit t with
    <X u, w_t> = c the residuals are +sqrt 2 and -sqrt 2, where phi' = +-1/sqrt 2: the
    gradients are +-(X/sqrt 2) u, antipodal at the full norm G = X/sqrt 2. The unit vector u
    is orthogonal to w_p - w_z for the other visits p (at most d - 1 constraints) and
    c = <X u, w_z>, so <X u, w_p> = c at every visit. D's iterates depend on (u, c) through
    record 0, so (u, c) is recomputed from D's trajectory ``iters`` times; the value is
    measured at the final D's iterates whatever the residual, which is returned.

    Returns (X_D, y_D, y'_0, permutations, largest |<X u, w_visit> - c|).
    """
    N, d = data.n, obj.d
    if len(visits) > d:
        raise ValueError(f"the canary needs d >= {len(visits)} visits, got d={d}")
    at = {(p - 1) // N: (p - 1) % N for p in visits}         # epoch -> position of record 0
    perm_c = []
    for e, p in enumerate(perms):
        rest = [int(j) for j in p if j != 0]
        rest.insert(at.get(e, N - 1), 0)
        perm_c.append(np.array(rest))
    X = float(data.max_norm)
    Xd, yd = np.array(data.X, dtype=float), np.array(data.y, dtype=float)
    z = visits[-1]
    ws = alg1_gradients(obj, Xd, yd, perm_c, noise, T, eta, alpha)[1]
    c = 0.0
    for _ in range(iters):
        Dw = np.stack([ws[p - 1] - ws[z - 1] for p in visits[:-1]] or [np.zeros(d)])
        u = np.linalg.svd(Dw)[2][-1]                  # a unit vector of Dw's null space
        c = X * float(u @ ws[z - 1])
        Xd[0], yd[0] = X * u, c - _U0
        ws = alg1_gradients(obj, Xd, yd, perm_c, noise, T, eta, alpha)[1]
    resid = max(abs(float(Xd[0] @ ws[p - 1]) - c) for p in visits)
    return Xd, yd, c + _U0, perm_c, resid


def tree_node_sensitivity_certified(cell: dict[str, Any]) -> dict[str, Any]:
    """tran2022 Theorem 4's node sensitivity (``compare="4alphaG"``, fixed iterates) decided:
    the neighbour search of :func:`tree_node_sensitivity`, the canary of :func:`_node_canary`
    and the certified supremum :func:`.supremum.tree_node_sup` over every dyadic node and
    permutation (module docstring of :mod:`.supremum`); the canary puts record 0 at the worst
    node's latest visits. For N a power of 2 the supremum is
    ``2 alpha G sum_{k < T/N} (1 - alpha)^{kN}``, i.e. ``k = (1/2) sum_k (1 - alpha)^{kN}``
    times Theorem 4's 4 alpha G (0.7511 at N = 8, 0.7640 at N = 16, alpha = 1/N, T = 4N)."""
    from .supremum import tree_node_sup, tree_node_worst  # noqa: PLC0415
    if cell.get("compare") != "4alphaG" or cell.get("coupling") != "fixed-iterates":
        raise ValueError("the certified supremum is for compare='4alphaG' with coupling "
                         f"'fixed-iterates', got {cell.get('compare')!r}, {cell.get('coupling')!r}")
    if cell.get("family", "robust-regression") != "robust-regression":
        raise ValueError("the canary is built for family 'robust-regression' only, "
                         f"got {cell.get('family')!r}")
    out = tree_node_sensitivity(cell)
    best = out["worst"]
    N = int(best["N"])
    obj = get_objective("robust-regression", **cell.get("family_params", {}))
    T, alpha, eta = _alg1_schedule(cell, N)
    nodes = dyadic_nodes(T)
    data = obj.make_data(N, sub_seed(cell, 0, 0))
    perms, noise, _ = _alg1_instance(cell, obj, data, 0)
    _, node, visits = tree_node_worst(alpha, N, nodes)
    Xd, yd, yp0, perm_c, resid = _node_canary(obj, data, perms, noise, T, eta, alpha, visits)
    gD, wD = alg1_gradients(obj, Xd, yd, perm_c, noise, T, eta, alpha)
    yp = yd.copy()
    yp[0] = float(yp0)
    gP, _ = alg1_gradients(obj, Xd, yp, perm_c, noise, T, eta, alpha, at=wD)
    dv = node_differences(gD, gP, alpha, nodes)
    canary = float(dv.max())
    G = lipschitz(obj, Dataset(Xd, yd))
    bound = evaluate_item("tran2022.thm4", "node", alpha_m=alpha, G=G)
    U = tree_node_sup(alpha, G, N, nodes)
    U_search = tree_node_sup(alpha, float(best["G"]), N, nodes)
    derivation = ("at fixed iterates only the one visit per epoch of the replaced record "
                  "changes a node, by <= 2 alpha G (1 - alpha)^(z - p) (||g|| <= G = X/sqrt 2 "
                  "for robust regression); each epoch's permutation puts the visit at the "
                  "latest step of the epoch inside the node: sup = 2 alpha G max_nodes sum_e "
                  f"(1 - alpha)^(z - min(z, end_e)) = {U:.6g} at alpha = {alpha:g}, G = {G:.6g}, "
                  f"N = {N}, T = {T}")
    return certified_result(out, {"index": 0, "x": Xd[0].tolist(), "y": float(yd[0]),
                                  "y_prime": float(yp0), "node": list(nodes[int(np.argmax(dv))]),
                                  "worst_node": list(node), "visits": visits,
                                  "permutations": "record 0 visited at the steps 'visits', "
                                                  "else last in its epoch",
                                  "visit_residual": resid, "measured": canary, "bound": bound,
                                  "G": G, "alpha": alpha, "N": N, "T": T, "eta": eta},
                            U, U_search, derivation)
