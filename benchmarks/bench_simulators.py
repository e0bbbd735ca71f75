"""Benchmark: every simulator family against a minimal hand-written NumPy loop of the same
algorithm, interleaved, in CPU seconds (issues 15 and 26), beside the machine's floor.
Not a test.

    python benchmarks/bench_simulators.py [--rounds 5] [--quick] [--only NAME ...]
                                          [--no-scaling] [--json]

Sizes (issue 15): n = 1e4, d = 100, reps = 64, B = 100, T = 1e3 (1e2 for yang2022); ridge
logistic loss (cosh objective for yang2022, robust regression for tran2022). ``--quick``
runs small sizes and two rounds, as a smoke test. Two rows are B = 1 algorithms
(tran2022 Algorithm 1, zhang2017's RRPSGD), where the per-step Python cost decides.

The references (``ref_*`` below) are minimal (issue 26): the gradient written out for the
loss at hand with the fastest NumPy kernels for it (``np.take`` gathers, batched
``matmul``), the randomness of a block of steps drawn in one call per stream, and nothing
the algorithm does not need (no validation, copies, monitors or records). They read the
same random streams as the simulator (``ReplicateStreams``; tran2022's keyed node normals,
re-derived here from their definition and drawn up front), so each reference also checks
the simulator: their outputs must agree up to rounding (column ``max|dw|``). Each
reference computes what the simulator returns as the algorithm's output (iterates,
yang2022's per-step ||grad F|| monitor and its minimum, the output index draws), and the
final F and ||grad F||. Noise scales and step sizes are passed explicitly, so no privacy
accountant runs inside the timed loop; the simulators' accountant calls are cached after
the first round (the min over rounds excludes them).

The machine's floor (printed first): dgemm GFLOP/s, streaming read and row-gather
bandwidth, measured in the same process; a per-sample gradient of a linear model in R^d
reads 8 d bytes and does 4 d flops, so no code can exceed min(read / 8d, dgemm / 4d)
per-sample gradients per second. Each row prints the simulator's rate and its share of
that floor (one gradient descent serves every replicate of zhang2017 Algorithm 1).

Columns, per simulator, over interleaved rounds (simulator then reference, same process):
``alg`` = the simulator's own ``RunResult.cpu_time`` (the algorithm only) / the reference's
loop CPU time; ``total`` = CPU time of the whole simulator call (metrics, minimum search,
privacy report included) / the reference's loop + final metrics. Both as min and median
over rounds of the per-round ratio. ``us/step`` = the simulator's algorithm CPU per step
(min). OpenBLAS threads are set to 1 unless OPENBLAS_NUM_THREADS is given: with more, idle
BLAS threads spin and CPU time stops measuring work.

Scaling (item 6): the cost exponents of zhang2021 DP-SGD (mini-batch) and zhang2017's
full-batch GD in n, d, T and reps, each over four sizes (others at the base sizes),
fitted by least squares on log(cpu_time) vs log(size): a mini-batch algorithm's cost should
not grow with n (exponent ~ 0) and grow linearly in T (per-step cost flat in T).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from scipy.special import expit  # noqa: E402

from dptheory.privacy.samplers import symmetric_gaussian_matrix  # noqa: E402
from dptheory.symbolic.assumptions import HessianLipschitz  # noqa: E402
from dptheory_simulations.algorithms import get as get_algorithm  # noqa: E402
from dptheory_simulations.algorithms.base import ReplicateStreams, block_steps  # noqa: E402
from dptheory_simulations.algorithms.tran2022 import _FAM_ALG1, _node_keys  # noqa: E402
from dptheory_simulations.objectives import get as get_objective  # noqa: E402

SEED = 3


# ---------------------------------------------------------------------------- references
# Minimal loops: the randomness of a block of steps is drawn in one call per stream (the
# same values as step by step: streams are sequential), and the loop body is the
# algorithm's arithmetic and nothing else (no validation, no copies, no monitors the
# algorithm does not output).
def blocks(T: int, reps: int, per_step: int):
    """(first step, number of steps) of the blocks of at most 2^21 pre-drawn numbers."""
    K = block_steps(T, reps, per_step)
    return [(t0, min(K, T - t0)) for t0 in range(0, T, K)]


def logistic_grad_mean(W, X, y, idx, mu):
    """Mean over each replicate's minibatch of grad [log(1 + exp(-y <x, w>)) + mu/2 ||w||^2]."""
    Xb, yb = np.take(X, idx, axis=0), np.take(y, idx)          # (reps, B, d), (reps, B)
    z = np.matmul(Xb, W[:, :, None])[:, :, 0]
    p1 = -yb * expit(-yb * z)
    return np.matmul(p1[:, None, :], Xb)[:, 0, :] / idx.shape[1] + mu * W


def logistic_metrics(W, X, y, mu):
    """F(w) and ||grad F(w)|| on the whole data set, per replicate."""
    z = W @ X.T
    F = np.logaddexp(0.0, -y * z).mean(axis=1) + 0.5 * mu * np.sum(W * W, axis=1)
    g = (-y * expit(-y * z)) @ X / X.shape[0] + mu * W
    return F, np.linalg.norm(g, axis=1)


def ref_zhang2021(X, y, mu, *, reps, T, B, eta, pi, varrho=0.0, tmon=0):
    """DP-SGD (tmon = 0) / DP-SGDEM (momentum varrho for t <= tmon), last iterate."""
    n, d = X.shape
    s = ReplicateStreams(SEED, reps)
    W = np.zeros((reps, d))
    W_prev = W
    for t0, K in blocks(T, reps, B + d):
        idx, xi = s.subsets(n, B, steps=K), pi * s.normal(K, d)
        for k in range(K):
            W_new = W - eta * (logistic_grad_mean(W, X, y, idx[:, k], mu) + xi[:, k])
            if t0 + k < tmon:
                W_new += varrho * (W - W_prev)
            W_prev, W = W, W_new
    return W


def ref_yang2022(X, *, reps, T, B, eta, sigma, C=None, r=None):
    """yang2022 DP-SGD (clip at C) / DP-NSGD (normalise with r) on sum_j cosh(w_j) + <x, w>,
    with the per-step monitor ||grad F(w_t)|| = ||sinh(w_t) + x_bar|| (its minimum over t
    is the algorithm's reported output)."""
    n, d = X.shape
    x_bar = X.mean(axis=0)
    s = ReplicateStreams(SEED, reps)
    W = np.full((reps, d), 0.5)
    gn = np.empty((reps, T))
    std = sigma * C if C is not None else sigma
    for t0, K in blocks(T, reps, B + d):
        idx, xi = s.subsets(n, B, steps=K), std * s.normal(K, d)
        for k in range(K):
            sh = np.sinh(W)
            gn[:, t0 + k] = np.linalg.norm(sh + x_bar, axis=1)
            G = sh[:, None, :] + np.take(X, idx[:, k], axis=0)    # (reps, B, d)
            nrm = np.sqrt(np.einsum("rbd,rbd->rb", G, G))
            f = np.minimum(1.0, C / np.maximum(nrm, 1e-300)) if C is not None else 1.0 / (nrm + r)
            W = W - (eta / B) * (np.matmul(f[:, None, :], G)[:, 0, :] + xi[:, k])
    return W, gn.min(axis=1)


def ref_tran2022(X, y, *, reps, T, eta, alpha, node_std):
    """tran2022 Algorithm 1: tree-aggregated noise (each step: the nodes that merge leave the
    running sum, the new node enters), momentum, normalised step, output w_tau.

    Node noise is keyed (tran2022's ``KeyedNormals``): the even nodes a = 0, 2, ... of level
    b (the only ones a prefix sum uses) are consecutive blocks of d normals of the stream
    SeedSequence(key_r, spawn_key=(family, b, 0)); all of them are drawn up front."""
    N, d = X.shape
    s = ReplicateStreams(SEED, reps)
    keys = [[int(k) for k in row] for row in _node_keys(s)]
    tau = 1 + np.minimum((s.uniform(1)[:, 0] * T).astype(np.int64), T - 1)
    hits = {int(t): np.flatnonzero(tau == t) for t in np.unique(tau)}
    Z = [node_std * np.stack([np.random.Generator(np.random.PCG64(np.random.SeedSequence(
        k, spawn_key=(_FAM_ALG1, b, 0)))).standard_normal((((T >> b) + 1) // 2, d))
        for k in keys], axis=1) for b in range(T.bit_length())]   # level b: (nodes, reps, d)
    beta = 1.0 - alpha
    c = [beta ** ((1 << b) - 1) for b in range(T.bit_length())]
    W = np.zeros((reps, d))
    W_out, m, S, live = W.copy(), np.zeros((reps, d)), np.zeros((reps, d)), [None] * len(Z)
    for q in range(T // N + 1):
        perm = s.permutations(N)
        for i in range(1, min(N, T - q * N) + 1):
            t = q * N + i
            if t in hits:
                W_out[hits[t]] = W[hits[t]]
            k = (t & -t).bit_length() - 1                     # levels 0..k-1 merge into k
            for b in range(k):
                S = S - c[b] * live[b]
            live[k] = Z[k][(t >> k) >> 1]                     # node index (t >> k) - 1, even
            S = beta * S + live[k]
            j = perm[:, i - 1]
            x = X[j]
            u = np.einsum("rd,rd->r", x, W) - y[j]
            m = beta * m + alpha * ((2.0 * u / (2.0 + u * u))[:, None] * x)
            mh = m + S
            W = W - eta * mh / np.linalg.norm(mh, axis=1, keepdims=True)
    return W_out


def ref_bst14(X, y, mu, *, reps, T, m, s_noise, radius):
    """Bassily et al. private SGD: mini-batch mean + Gaussian noise, step 1/(mu t),
    projection onto the ball of the given radius."""
    n, d = X.shape
    s = ReplicateStreams(SEED, reps)
    W = np.zeros((reps, d))
    for t0, K in blocks(T, reps, m + d):
        idx, xi = s.subsets(n, m, steps=K), s_noise * s.normal(K, d)
        for k in range(K):
            W = W - (logistic_grad_mean(W, X, y, idx[:, k], mu) + xi[:, k]) / (mu * (t0 + k + 1))
            W *= np.minimum(1.0, radius / np.maximum(np.linalg.norm(W, axis=1, keepdims=True),
                                                     1e-300))
    return W


def ref_rrpsgd(X, y, mu, *, reps, K, eta, s_noise):
    """zhang2017 Algorithm 2: R uniform on {1..K} per replicate, one-sample noisy SGD steps,
    output w_R."""
    n, d = X.shape
    s = ReplicateStreams(SEED, reps)
    cdf = np.cumsum(np.full(K, 2 * eta))
    cdf = cdf / cdf[-1]
    R = np.minimum(np.searchsorted(cdf, s.uniform(1)[:, 0], side="right"), K - 1) + 1
    hits = {int(t): np.flatnonzero(R == t) for t in np.unique(R)}
    W = np.zeros((reps, d))
    out = W.copy()
    rows = int(R.max())
    for t0, Kb in blocks(rows, reps, 1 + d):
        idx = np.minimum((s.uniform(Kb) * n).astype(np.int64), n - 1)
        xi = s_noise * s.normal(Kb, d)
        for k in range(Kb):
            W = W - eta * (logistic_grad_mean(W, X, y, idx[:, k:k + 1], mu) + xi[:, k])
            if t0 + k + 1 in hits:
                out[hits[t0 + k + 1]] = W[hits[t0 + k + 1]]
    return out


def ref_gd_output(X, y, mu, *, reps, T, eta, s_noise):
    """zhang2017 Algorithm 1: full-batch GD from 0, then Gaussian output perturbation."""
    n, d = X.shape
    s = ReplicateStreams(SEED, reps)
    w = np.zeros(d)
    for _ in range(T):
        z = X @ w
        w = w - eta * ((-y * expit(-y * z)) @ X / n + mu * w)
    return w[None, :] + s_noise * s.normal(d)


def ref_dpgd(X, y, lam, *, reps, T, eta, sd, sdH, alpha, rho):
    """wang2020's DP-GD baseline on log(1 + exp(-y <x, w>)) + lam sum_j w_j^2/(1 + w_j^2):
    noisy gradient and noisy Hessian, stop (per replicate) when ||g~|| <= alpha and
    lambda_min(H~) >= -sqrt(rho alpha), else a gradient step (no projection)."""
    n, d = X.shape
    s = ReplicateStreams(SEED, reps)
    hgens = [g.spawn(1)[0] for g in s.aux]                  # the Hessian noise streams
    W = np.zeros((reps, d))
    stopped = np.zeros(reps, dtype=bool)
    for _ in range(T):
        z = sd * s.normal(d)
        act = np.flatnonzero(~stopped)
        for r in act:
            w = W[r]
            p = expit(-y * (X @ w))
            q = 1.0 + w * w
            g = (-y * p) @ X / n + 2 * lam * w / q ** 2 + z[r]
            H = (X.T * (p * (1 - p))) @ X / n + np.diag(2 * lam * (1 - 3 * w * w) / q ** 3)
            H = H + symmetric_gaussian_matrix(hgens[r], 1, d, sdH)[0]
            if np.linalg.norm(g) <= alpha and np.linalg.eigvalsh(H)[0] >= -math.sqrt(rho * alpha):
                stopped[r] = True
            else:
                W[r] = w - eta * g
        if stopped.all():
            break
    return W


# ---------------------------------------------------------------------------- the cases
def cases(quick: bool) -> list[dict]:
    n, d, reps, B, T, Ty = (2000, 20, 8, 50, 200, 40) if quick else (10000, 100, 64, 100, 1000, 100)
    mu = 0.1
    lr = get_objective("logistic-ridge", d=d, mu=mu)
    lr_data = lr.make_data(n, 0)
    cosh = get_objective("cosh-generalized-smooth", d=d)
    cosh_data = cosh.make_data(n, 0)
    rob = get_objective("robust-regression", d=d)
    rob_data = rob.make_data(n, 0)
    X, y = lr_data.X, lr_data.y
    common = dict(eps=1.0, delta=1e-5, reps=reps, seed=SEED)
    out = []

    def add(name, alg, obj, data, kw, ref, steps, metrics, grads=None):
        # grads(res): per-sample gradients the run computed, all replicates (default
        # grad_evals per replicate times reps)
        out.append(dict(name=name, alg=alg, obj=obj, data=data, kw={**common, **kw}, ref=ref,
                        steps=steps, metrics=metrics, d=obj.d,
                        grads=grads or (lambda res: res.grad_evals * reps)))

    lr_metrics = (lambda W: logistic_metrics(W, X, y, mu))
    add("zhang2021 DP-SGD-const", "zhang2021.dpsgd-const", lr, lr_data,
        dict(eta=0.1, T=T, B=B, pi=0.05),
        lambda: ref_zhang2021(X, y, mu, reps=reps, T=T, B=B, eta=0.1, pi=0.05), T,
        lr_metrics)
    add("zhang2021 DP-SGDEM-const", "zhang2021.dpsgdem-const", lr, lr_data,
        dict(eta=0.1, T=T, B=B, pi=0.05, varrho=0.5),
        lambda: ref_zhang2021(X, y, mu, reps=reps, T=T, B=B, eta=0.1, pi=0.05, varrho=0.5,
                              tmon=round(0.5 * T)), T, lr_metrics)
    Xc = cosh_data.X
    x_bar = Xc.mean(axis=0)

    def cosh_metrics(W):
        F = np.sum(np.cosh(W), axis=1) + W @ x_bar
        return F, np.linalg.norm(np.sinh(W) + x_bar, axis=1)
    w0 = np.full(d, 0.5)
    add("yang2022 DP-SGD (clip)", "yang2022.dpsgd", cosh, cosh_data,
        dict(T=Ty, B=B, eta=0.5, sigma=2.0, C=1.0, c2=1.0, w0=w0),
        lambda: ref_yang2022(Xc, reps=reps, T=Ty, B=B, eta=0.5, sigma=2.0, C=1.0), Ty,
        cosh_metrics)
    add("yang2022 DP-NSGD (Alg. 1)", "yang2022.alg1", cosh, cosh_data,
        dict(T=Ty, B=B, eta=0.5, sigma=2.0, r=1.0, c2=1.0, w0=w0),
        lambda: ref_yang2022(Xc, reps=reps, T=Ty, B=B, eta=0.5, sigma=2.0, r=1.0), Ty,
        cosh_metrics)
    Xr, yr = rob_data.X, rob_data.y

    def rob_metrics(W):
        u = W @ Xr.T - yr
        return (np.log1p(0.5 * u * u).mean(axis=1),
                np.linalg.norm((2.0 * u / (2.0 + u * u)) @ Xr / n, axis=1))
    alpha, eta_t, sig = 0.05, 0.01, 1.0
    tran: dict = {}                # the node std 4 alpha G sigma sqrt(V), from the first run

    def tran_ref():
        return ref_tran2022(Xr, yr, reps=reps, T=T, eta=eta_t, alpha=alpha,
                            node_std=tran["node_std"])
    add("tran2022 Alg. 1", "tran2022.alg1", rob, rob_data,
        dict(T=T, eta=eta_t, alpha=alpha, sigma=sig), tran_ref, T, rob_metrics)
    out[-1]["after_first"] = lambda res: tran.update(node_std=res.noise["node_std"])
    radius = lr.domain_radius
    add("zhang2017 Bassily et al. (bst14)", "zhang2017.bst14", lr, lr_data,
        dict(m=B, T=T, noise_scale=0.05, fixed_size_check=False),
        lambda: ref_bst14(X, y, mu, reps=reps, T=T, m=B, s_noise=0.05, radius=radius), T,
        lr_metrics)
    add("zhang2017 RRPSGD (Alg. 2)", "zhang2017.alg2", lr, lr_data,
        dict(rounds=T, eta=0.5, noise_scale=0.05, fixed_size_check=False),
        lambda: ref_rrpsgd(X, y, mu, reps=reps, K=T, eta=0.5, s_noise=0.05), T,
        lr_metrics)
    Tg = T // 10
    add("zhang2017 output-perturbation GD (Alg. 1)", "zhang2017.alg1", lr, lr_data,
        dict(T=Tg, eta=1.0, noise_scale=0.05),
        lambda: ref_gd_output(X, y, mu, reps=reps, T=Tg, eta=1.0, s_noise=0.05), Tg,
        lr_metrics, grads=lambda res: n * Tg)     # one gradient descent serves every replicate
    nw, dw, Tw = (2000, 5, 20) if quick else (10000, 20, 50)
    wl = get_objective("logistic-nonconvex-reg", d=dw)
    wl_data = wl.make_data(nw, 0)
    rho = next(a.rho for a in wl.assumptions(wl_data) if isinstance(a, HessianLipschitz))
    Xw, yw = wl_data.X, wl_data.y

    def wl_metrics(W):
        z = W @ Xw.T
        q = 1.0 + W * W
        F = np.logaddexp(0.0, -yw * z).mean(axis=1) + wl.lam * np.sum(W * W / q, axis=1)
        g = (-yw * expit(-yw * z)) @ Xw / nw + 2 * wl.lam * W / q ** 2
        return F, np.linalg.norm(g, axis=1)
    add(f"wang2020 DP-GD (n={nw}, d={dw}, T={Tw})", "wang2020.dpgd", wl, wl_data,
        dict(T=Tw, eta=0.5, sigma=0.01, sigma_H=0.01, alpha=0.05),
        lambda: ref_dpgd(Xw, yw, wl.lam, reps=reps, T=Tw, eta=0.5, sd=0.01, sdH=0.01,
                         alpha=0.05, rho=rho), Tw, wl_metrics)
    return out


# ---------------------------------------------------------------------------- measuring
def w_of(res) -> np.ndarray:
    """The output iterates of a RunResult or of a reference (an array, or (w, extra))."""
    if hasattr(res, "w"):
        return res.w
    return res[0] if isinstance(res, tuple) else res


def cpu(fn):
    c0 = time.process_time()
    res = fn()
    return res, time.process_time() - c0


# ---------------------------------------------------------------------------- the floor
PROBE: dict = {}


def probe_machine(quick: bool) -> dict:
    """The machine's floor, measured in this process with the same BLAS threads (best CPU
    time of several tries): a BLAS product (dgemm GFLOP/s), a streaming read of an array far
    larger than the caches (GB/s), and a gather of random rows of an n x 100 matrix, the
    memory access of a minibatch (GB/s)."""
    rng = np.random.default_rng(0)
    tries = 2 if quick else 5
    m = 512 if quick else 1024
    A, B = rng.standard_normal((m, m)), rng.standard_normal((m, m))
    t = min(cpu(lambda: A @ B)[1] for _ in range(tries))
    big = np.ones((1 << 23) if quick else (1 << 26))          # 64 MiB / 512 MiB
    t_read = min(cpu(big.sum)[1] for _ in range(tries))
    X = rng.standard_normal((2000 if quick else 10000, 100))
    idx = rng.integers(0, X.shape[0], size=(64, 100))
    reps = 20 if quick else 200

    def gather():
        for _ in range(reps):
            np.take(X, idx, axis=0)
    t_gather = min(cpu(gather)[1] for _ in range(tries))
    del big
    PROBE.update(gemm_gflops=2 * m ** 3 / t / 1e9, read_gbs=8 * (1 << 26 if not quick else 1 << 23)
                 / t_read / 1e9, gather_gbs=reps * idx.size * 100 * 8 / t_gather / 1e9)
    return PROBE


def floor_grads_per_s(d: int) -> float:
    """Per-sample gradients per second the machine cannot beat for a linear model in R^d:
    each one reads its row of X (8 d bytes, at the streaming read bandwidth) and does 4 d
    flops (a dot product and an axpy, at the dgemm rate); the smaller of the two rates. A
    minibatch gathers its rows, which is slower than streaming (the probe's gather rate
    shows by how much), so the mini-batch rows stay below this floor."""
    return min(PROBE["read_gbs"] * 1e9 / (8 * d), PROBE["gemm_gflops"] * 1e9 / (4 * d))


def measure(case: dict, rounds: int) -> dict:
    alg = get_algorithm(case["alg"])
    case["obj"].minimum(case["data"])          # memoised minimum search (outside the timing)
    rows = []
    for k in range(rounds):
        res, sim_total = cpu(lambda: alg(case["obj"], case["data"], **case["kw"]))
        if k == 0 and "after_first" in case:
            case["after_first"](res)
        ref, ref_loop = cpu(case["ref"])
        _, ref_metrics = cpu(lambda: case["metrics"](w_of(ref)))
        rows.append({"sim_alg": res.cpu_time, "sim_total": sim_total, "ref": ref_loop,
                     "ref_total": ref_loop + ref_metrics,
                     "dw": float(np.max(np.abs(w_of(res) - w_of(ref))))})
    ratio_alg = [r["sim_alg"] / r["ref"] for r in rows]
    ratio_total = [r["sim_total"] / r["ref_total"] for r in rows]
    return {"name": case["name"], "algorithm": case["alg"],
            "alg_ratio_min": min(ratio_alg), "alg_ratio_median": statistics.median(ratio_alg),
            "total_ratio_min": min(ratio_total),
            "total_ratio_median": statistics.median(ratio_total),
            "sim_alg_cpu_min": min(r["sim_alg"] for r in rows),
            "ref_cpu_min": min(r["ref"] for r in rows),
            "us_per_step": 1e6 * min(r["sim_alg"] for r in rows) / case["steps"],
            "grads_per_s": case["grads"](res) / min(r["sim_alg"] for r in rows),
            "floor_grads_per_s": floor_grads_per_s(case["d"]),
            "max_abs_dw": max(r["dw"] for r in rows)}


def fit_exponent(sizes, costs) -> float:
    x, y = np.log(np.asarray(sizes, float)), np.log(np.asarray(costs, float))
    return float(np.polyfit(x, y, 1)[0])


def scaling(quick: bool, rounds: int) -> list[dict]:
    """Cost exponents of a mini-batch simulator and a full-batch one in n, d, T, reps."""
    base = dict(n=2000, d=20, T=100, reps=8) if quick else dict(n=10000, d=100, T=500, reps=32)
    grids = {k: [v // 4, v // 2, v, 2 * v] for k, v in base.items()}
    out = []
    for alg_id, B in (("zhang2021.dpsgd-const", 50 if quick else 100), ("zhang2017.alg1", None)):
        for var, values in grids.items():
            costs = []
            for v in values:
                p = {**base, var: v}
                obj = get_objective("logistic-ridge", d=p["d"])
                data = obj.make_data(p["n"], 0)
                obj.minimum(data)
                kw = dict(eps=1.0, delta=1e-5, reps=p["reps"], seed=SEED)
                if B is None:
                    kw.update(T=max(1, p["T"] // 10), eta=1.0, noise_scale=0.05)
                else:
                    kw.update(T=p["T"], B=min(B, p["n"]), eta=0.1, pi=0.05)
                alg = get_algorithm(alg_id)
                costs.append(min(alg(obj, data, **kw).cpu_time for _ in range(rounds)))
            steps = [(max(1, (base["T"] if var != "T" else v) // 10) if B is None
                      else (base["T"] if var != "T" else v)) for v in values]
            per_step = [c / s for c, s in zip(costs, steps)]
            out.append({"algorithm": alg_id, "variable": var, "sizes": values,
                        "cpu": costs, "exponent": fit_exponent(values, costs),
                        "per_step_exponent": fit_exponent(values, per_step)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=None, help="interleaved rounds (default 5)")
    ap.add_argument("--quick", action="store_true", help="small sizes, 2 rounds (smoke test)")
    ap.add_argument("--only", nargs="*", default=None, help="algorithm ids to run")
    ap.add_argument("--no-scaling", action="store_true", help="skip the scaling exponents")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    a = ap.parse_args(argv)
    rounds = a.rounds if a.rounds is not None else (2 if a.quick else 5)
    if rounds < 1:
        print("bench_simulators: --rounds must be >= 1", file=sys.stderr)
        return 2
    todo = [c for c in cases(a.quick) if a.only is None or c["alg"] in a.only]
    if not todo:
        print(f"bench_simulators: --only matches no case, got {a.only}", file=sys.stderr)
        return 2
    probe = probe_machine(a.quick)
    if not a.json:
        print(f"machine floor: dgemm {probe['gemm_gflops']:.1f} GFLOP/s, streaming read "
              f"{probe['read_gbs']:.1f} GB/s, row gather {probe['gather_gbs']:.1f} GB/s "
              f"(per-sample gradients/s floor = min(read / 8d, dgemm / 4d))", flush=True)
    results = []
    for case in todo:
        results.append(measure(case, rounds))
        if not a.json:
            r = results[-1]
            print(f"{r['name']:42s} alg {r['alg_ratio_min']:5.2f}x / {r['alg_ratio_median']:5.2f}x"
                  f"   total {r['total_ratio_min']:5.2f}x / {r['total_ratio_median']:5.2f}x"
                  f"   sim {r['sim_alg_cpu_min']:7.3f} s  ref {r['ref_cpu_min']:7.3f} s"
                  f"   {r['us_per_step']:8.1f} us/step   max|dw| {r['max_abs_dw']:.1e}"
                  f"   {r['grads_per_s'] / 1e6:7.2f} M grads/s = "
                  f"{100 * r['grads_per_s'] / r['floor_grads_per_s']:5.1f}% of floor",
                  flush=True)
    scal = [] if a.no_scaling else scaling(a.quick, max(1, min(rounds, 3)))
    if a.json:
        print(json.dumps({"rounds": rounds, "quick": a.quick, "machine": probe, "results": results,
                          "scaling": scal}, allow_nan=False))
        return 0
    if scal:
        print("\ncost exponents (CPU of the algorithm ~ size^k; per step = / steps)")
        for s in scal:
            print(f"  {s['algorithm']:22s} {s['variable']:5s} sizes {s['sizes']}: "
                  f"k = {s['exponent']:5.2f}   per step k = {s['per_step_exponent']:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
