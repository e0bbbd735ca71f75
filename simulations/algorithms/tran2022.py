"""Simulators of tran2022 (Tran & Cutkosky, *Momentum Aggregation for Private Non-convex ERM*,
NeurIPS 2022): Algorithm 1 (DP-NSGD with tree-aggregated momentum) and Algorithm 2
(sensitivity-reduced normalized SGD, with the reconstruction ``tran2022.alg4``).

Both run ``reps`` replicates in lockstep; all randomness comes from
:class:`~dptheory_simulations.algorithms.base.ReplicateStreams`. Stream usage, in this order:
``uniform(2)`` (per-replicate keys of the tree-node noise), ``uniform(1)`` (index of the
output iterate), then ``permutations(N)`` once per epoch q = 0..floor(T/N) (printed: one
permutation per q, including a final empty epoch when N divides T); the "aux" stream only
for the random starts of a sampled output average (``average_samples``), so it never
changes the trajectory. Node noise is *keyed*:
node (level b, index a) of family X gets standard normals that depend only on
(replicate key, X, b, a) (:class:`KeyedNormals`), so the online and the offline tree
agree, and replicate r of a batch equals a run with ``first_replicate = r``.

Calibration. ``calibration="paper"``: sigma of Theorem 4 / Theorem 8 and the node variances
printed in Algorithm 1 / 2, evaluated from the catalog (``dptheory_bounds.tran2022``).
``calibration="tight"``: the node noise (same shape: Algorithm 2 keeps the printed ratios
between families) scaled so that the tight accountant gives ``eps``. The tight accountant
is the RDP of the Gaussian tree mechanism — z/2 sum over released nodes holding the
differing datum of (Delta_node / s_node)^2 — maximised over the datum's positions (one per
epoch under random reshuffling) through a sound upper bound: per level and per noise class,
(max number of nodes the datum can hit, exact by greedy interval matching) x (max node
sensitivity, the exact per-node worst case of ``tree.node_sensitivity_exact``), converted
to (eps, delta) with the improved conversion minimised over orders.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dptheory_bounds import tran2022 as catalog
from dptheory.privacy import DEFAULT_ORDERS, GaussianEvent, eps_from_rdp, get_noise_multiplier
from dptheory.privacy.tree import OnlineTreeAggregator, compose
from dptheory.symbolic.assumptions import BoundedGradient, BoundedLoss, Lipschitz, Smooth
from dptheory.symbolic.numeric import resolve_settings
from dptheory.budget import check_steps
from dptheory.symbolic.symbols import S

from ._seeding import generators_of
from .base import two_sided
from .base import (Algorithm, Recorder, ReplicateStreams, RunResult, Timer, check_calibration,
                   check_privacy, check_reps, metrics_at)

__all__ = ["ALGORITHMS", "KeyedNormals", "run_alg1", "run_alg2", "alg1_sensitivity_sq",
           "alg2_sensitivity_sq", "max_nodes_hit", "max_weight_sum", "recombination_coefficients"]

_ITEMS = {it.id: it for it in catalog.ITEMS}
_ALG1 = _ITEMS["tran2022.alg1"]
_ALG2 = _ITEMS["tran2022.alg2"]
_ALG2C = _ITEMS["tran2022.alg2.corrected"]
_THM4 = _ITEMS["tran2022.thm4"]
_THM8 = _ITEMS["tran2022.thm8"]

# Node-noise families (part of the key): Algorithm 1's nodes; Algorithm 2's G, r, Delta.
_FAM_ALG1, _FAM_G, _FAM_R, _FAM_D = 0, 1, 2, 3


# ---------------------------------------------------------------------------- randomness
class KeyedNormals:
    """Standard normals for tree nodes, keyed by (replicate key, family, level, index).

    Row r of ``self(level, index)`` depends only on ``keys[r]`` and (family, level, index),
    never on the order of requests: node ``index`` of a level is the (index // 2)-th block of
    d normals of the stream ``SeedSequence(keys[r], spawn_key=(family, level, index % 2))``.
    Even and odd indices have their own streams because a prefix sum only ever uses the
    even (left-child) nodes of a level, so the online tree (Algorithm 1) draws half the
    normals. Streams are read in chunks of ``chunk`` nodes; the last chunk of each (level,
    parity) is cached, so sequential access costs one generator per stream and memory
    O(levels * chunk * d * reps), independent of T. A backward request restarts its stream.
    ``T`` (optional) stops each stream's last chunk at the level's last node (no normals
    drawn past it, the same values); ``scale`` returns scale times the normals.
    """

    def __init__(self, keys: np.ndarray, d: int, family: int, chunk: int = 64,
                 T: int | None = None, scale: float | None = None) -> None:
        self.keys = np.asarray(keys, dtype=np.uint64)
        if self.keys.ndim == 1:
            self.keys = self.keys[:, None]
        self.d, self.family, self.chunk = int(d), int(family), int(chunk)
        # scale: calls return scale * normals (one product per chunk instead of per node;
        # the same values as scaling each node)
        self.scale = None if scale is None else float(scale)
        # T: the nodes of level b are a = 0..(T >> b) - 1 (the interval set over 1..T), so
        # the last chunk of a stream stops there instead of drawing a full chunk (the values
        # are the same: a stream is read sequentially whatever the chunk sizes)
        self.T = None if T is None else int(T)
        # (level, parity) -> [generators, number of chunks drawn, last chunk (reps, size, d)]
        self._streams: dict[tuple[int, int], list] = {}

    def _generators(self, level: int, parity: int) -> list[np.random.Generator]:
        key = np.array([self.family, int(level), int(parity)], dtype=np.uint64)
        return generators_of(self.keys, np.broadcast_to(key, (len(self.keys), 3)))

    def _chunk(self, level: int, parity: int, c: int) -> np.ndarray:
        st = self._streams.get((level, parity))
        if st is None or st[1] > c + 1:                      # new stream, or a backward request
            st = self._streams[(level, parity)] = [self._generators(level, parity), 0, None]
        while st[1] <= c:                                    # draw forward to chunk c
            size = self.chunk
            if self.T is not None:      # nodes parity, parity + 2, ... below T >> level
                left = ((self.T >> level) - parity + 1) // 2 - st[1] * self.chunk
                size = max(1, min(size, left))
            buf = np.empty((len(st[0]), size, self.d))
            for r, g in enumerate(st[0]):
                g.standard_normal(out=buf[r])
            st[2] = buf if self.scale is None else self.scale * buf
            st[1] += 1
        return st[2]

    def __call__(self, level: int, index: int) -> np.ndarray:
        """(reps, d) standard normals of node (level, index)."""
        if self.T is not None and not 0 <= index < self.T >> level:
            raise ValueError(f"node index must be in [0, {self.T >> level}) at level {level} "
                             f"(T = {self.T}), got {index}")
        c, j = divmod(int(index) >> 1, self.chunk)
        return self._chunk(int(level), int(index) & 1, c)[:, j, :]

    def level(self, level: int, count: int) -> np.ndarray:
        """(count, reps, d): nodes 0..count-1 of ``level`` (same values as ``self(level, a)``)."""
        out = np.empty((count, len(self.keys), self.d))
        for parity in (0, 1):
            m = (count - parity + 1) // 2                    # nodes parity, parity + 2, ...
            if m > 0:
                vals = np.stack([g.standard_normal((m, self.d))
                                 for g in self._generators(level, parity)])
                out[parity::2] = np.swapaxes(vals, 0, 1)
        return out if self.scale is None else self.scale * out


def _node_keys(streams: ReplicateStreams) -> np.ndarray:
    return (streams.uniform(2) * 2.0**52).astype(np.uint64)


# ---------------------------------------------------------------------------- validation
def _check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _check_real(name: str, value: Any, lo: float, hi: float = math.inf, *,
                lo_open: bool = True, hi_open: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    ok = math.isfinite(v) and (v > lo if lo_open else v >= lo) and (v < hi if hi_open else v <= hi)
    if not ok:
        left = "(" if lo_open else "["
        right = ")" if hi_open or hi == math.inf else "]"
        raise ValueError(f"{name} must be in {left}{lo:g}, {hi:g}{right}, got {value!r}")
    return v


def _constants(objective: Any, data: Any, need: tuple[type, ...]) -> dict[str, float]:
    """G (gradient bound), L (smoothness), gap bound from the objective's certified constants."""
    have = {type(a): a for a in objective.assumptions(data)}
    missing = [t.__name__ for t in need if t not in have]
    if missing:
        raise ValueError(f"objective {objective.name!r} does not declare {', '.join(missing)}, "
                         "which tran2022 (Theorems 4, 6, 8, 9) assumes")
    G = have[BoundedGradient].G if BoundedGradient in have else have[Lipschitz].G
    out = {"G": float(G), "L": float(have[Smooth].beta)}
    if BoundedLoss in have:
        out["R_gap"] = 2.0 * float(have[BoundedLoss].bound)   # |f| <= B gives F(w_1) - inf F <= 2B
    return out


def _check_common(objective: Any, data: Any, eps: Any, delta: Any, reps: Any,
                  calibration: Any, first_replicate: Any) -> tuple[float, float, int]:
    eps, delta = check_privacy(eps, delta)
    reps = check_reps(reps)
    check_calibration(calibration)
    _check_int("first_replicate", first_replicate, 0)
    if data.n < 2:
        raise ValueError(f"data must have N >= 2 samples (tran2022: log2 N > 0), got N = {data.n}")
    if data.d != objective.d:
        raise ValueError(f"data must have d = {objective.d} columns, got {data.d}")
    return eps, delta, reps


def _w1(w1: Any, d: int, reps: int) -> np.ndarray:
    if w1 is None:
        return np.zeros((reps, d))
    w = np.asarray(w1, dtype=np.float64)
    if w.shape != (d,) or not np.all(np.isfinite(w)):
        raise ValueError(f"w1 must be a finite vector of shape ({d},), got shape {w.shape}")
    return np.broadcast_to(w, (reps, d)).copy()


def _settings(item: Any, N: int, d: int, eps: float, delta: float, T: int | None) -> dict:
    """Numeric settings of ``item`` (T rounded down to an integer >= 2 when implicit/real)."""
    base = {S.n: float(N), S.d: float(d), S.eps: eps, S.delta: delta}
    if T is None:
        T_real = resolve_settings(item.settings, dict(base))[S.T]
        T = max(2, int(math.floor(T_real)))     # floor keeps alpha >= 1/N at the settings
    check_steps(int(T))
    vals = resolve_settings(item.settings, {**base, S.T: float(T)})
    return {"T": int(T), "eta": vals[S.eta_n], "alpha": vals[S.alpha_m], "sigma": vals[S.sigma],
            **({"gamma": vals[catalog.gamma]} if catalog.gamma in vals else {})}


def _eval(item: Any, what: str, values: dict) -> float:
    return item.evaluate(what, values, apply_settings=False)


# ---------------------------------------------------------------------------- accounting
def max_weight_sum(y: int, z: int, N: int, beta: float) -> float:
    """max over the datum's positions (one per epoch) of sum_{occurrences p in [y,z]}
    beta^{z-p}: the latest position inside the node in each epoch meeting it (the closed form
    of ``tree.node_sensitivity_exact`` divided by 2 alpha G)."""
    return math.fsum(beta ** (z - min(z, (q + 1) * N)) for q in range((y - 1) // N, (z - 1) // N + 1))


def max_nodes_hit(N: int, T: int, level: int, a_lo: int, a_hi: int) -> int:
    """Max number of distinct nodes [a 2^b + 1, (a+1) 2^b], a in [a_lo, a_hi], holding the
    datum, over its positions (one per epoch q, in qN+1..min((q+1)N, T)). Each epoch reaches a
    contiguous range of nodes, non-decreasing in q, so greedy matching is optimal."""
    if a_hi < a_lo:
        return 0
    b = level
    count, ptr = 0, a_lo
    q0 = ((a_lo << b)) // N
    q1 = min(((a_hi + 1) << b) - 1, T - 1) // N
    for q in range(q0, q1 + 1):
        lo = max(ptr, (q * N) >> b)
        hi = min((min((q + 1) * N, T) - 1) >> b, a_hi)
        if lo <= hi:
            count += 1
            ptr = lo + 1
    return count


def _class_term(N: int, T: int, b: int, a_lo: int, a_hi: int, beta: float) -> tuple[int, float]:
    """(max nodes hit, max weight sum) over the nodes a_lo..a_hi of level b. The weight sum
    depends on (a 2^b) mod N only, so one period of indices suffices."""
    if a_hi < a_lo:
        return 0, 0.0
    period = N // math.gcd(N, 1 << b)
    size = 1 << b
    wmax = max(max_weight_sum(a * size + 1, (a + 1) * size, N, beta)
               for a in range(a_lo, min(a_hi, a_lo + period - 1) + 1))
    return max_nodes_hit(N, T, b, a_lo, a_hi), wmax


def alg1_sensitivity_sq(N: int, T: int, depth: int, alpha: float, G: float) -> float:
    """Sound upper bound on max_positions sum_{nodes} Delta_node^2 for Algorithm 1 (levels
    b < depth): sum_b (max nodes hit at level b) (2 alpha G max weight sum at level b)^2."""
    total = 0.0
    for b in range(min(depth, T.bit_length())):
        c, w = _class_term(N, T, b, 0, (T >> b) - 1, 1.0 - alpha)
        total += c * (2.0 * alpha * G * w) ** 2
    return total


def alg2_sensitivity_sq(N: int, T: int, alpha: float, G: float, L: float, eta: float,
                        stds: dict[str, float]) -> float:
    """Sound upper bound on max_positions sum_{released nodes} (Delta_node / s_node)^2 for
    Algorithm 2, counting the nodes the reconstruction reads (the output is a function of
    those only): G- and Delta-nodes of levels <= floor(log2 N), r-nodes of every level.

    Per occurrence a substituted datum changes a G-term by <= 2G, an r-term
    grad f(w_i,x) - grad f(w_anchor,x) by <= 2 min(2G, L eta (N-1)) (||w_i - anchor|| <=
    eta (N-1)), a Delta-term by <= 2 min(2G, L eta N) (anchors N steps of length <= eta apart).
    """
    beta = 1.0 - alpha
    occ = {"G": 2.0 * G, "r": 2.0 * min(2.0 * G, L * eta * (N - 1)),
           "D": 2.0 * min(2.0 * G, L * eta * N)}
    top_low = min(N.bit_length() - 1, T.bit_length() - 1)
    total = 0.0
    for b in range(T.bit_length()):
        n_b = T >> b
        if n_b == 0:
            break
        classes = [("r", 0, n_b - 1, stds["r"])]
        if b <= top_low:
            a_le = min(n_b - 1, (2 * N >> b) - 1)             # node end <= 2N
            classes += [("G", 0, a_le, stds["G_le2N"]), ("G", a_le + 1, n_b - 1, stds["G_gt2N"]),
                        ("D", -(-N >> b), n_b - 1, stds["Delta"])]
        for fam, lo, hi, s in classes:
            c, w = _class_term(N, T, b, lo, hi, beta)
            if c == 0:
                continue
            if s <= 0:
                return math.inf
            total += c * (occ[fam] * w / s) ** 2
    return total


def _eps_gauss_rdp(mu2: float, delta: float) -> float:
    """(eps, delta) of z -> z mu2 / 2 RDP, improved conversion minimised over orders."""
    if mu2 == 0:
        return 0.0
    if not math.isfinite(mu2):
        return math.inf
    orders = np.asarray(DEFAULT_ORDERS, dtype=np.float64)
    return eps_from_rdp(orders, orders * mu2 / 2.0, delta)[0]


def _tight_multiplier(eps: float, delta: float) -> float:
    """Smallest x with eps(z -> z/(2 x^2)) <= eps (same orders and conversion)."""
    return get_noise_multiplier(target_epsilon=eps, target_delta=delta, sample_rate=1.0, steps=1)


def _route_eps(item: Any, sigma: float, delta: float) -> float:
    if sigma <= 0:
        return math.inf
    return _eval(item, "eps_achieved", {S.sigma: sigma, S.delta: delta})


# ---------------------------------------------------------------------------- helpers
def _normalized(mh: np.ndarray) -> np.ndarray:
    # np.linalg.norm(mh, axis=1, keepdims=True) bit for bit (the same product and pairwise
    # sum), without its dispatch: a B = 1 step is a few microseconds of array work
    nrm = np.sqrt(np.add.reduce(mh * mh, axis=1, keepdims=True))
    if nrm.all():
        return mh / nrm
    # ||m_hat|| = 0 (possible only without noise): no direction, no step
    return np.divide(mh, nrm, out=np.zeros_like(mh), where=nrm > 0)


def _hits(tau: np.ndarray) -> dict[int, np.ndarray]:
    """Step t -> the replicates whose output index is t (those with tau = t)."""
    return {int(t): np.flatnonzero(tau == t) for t in np.unique(tau)}


class _Traj:
    def __init__(self, record: int | None) -> None:
        self.w = Recorder(record)
        self.m: list[np.ndarray] = []

    def __call__(self, t: int, W: np.ndarray, mh: np.ndarray) -> None:
        if self.w.every is not None and t % self.w.every == 0:
            self.w(t, W)
            self.m.append(mh.copy())

    def result(self) -> dict[str, np.ndarray] | None:
        out = self.w.result()
        if out is not None:
            out["m_hat"] = np.stack(self.m, axis=1) if self.m else np.empty((0,))
        return out


class _OutputAverage:
    """Per replicate, the expectation over the uniform output index t = 1..T of
    ||grad F(w_t)|| (the quantity Theorems 6 and 9 bound, E over w_hat).

    ``stride`` 1: exact, (1/T) sum_t ||grad F(w_t)|| (one full gradient per step).
    ``stride`` s > 1: a systematic sample with a random start per replicate: replicate r
    evaluates the steps t = o_r, o_r + s, ... <= T, o_r uniform on 1..s drawn from its own
    "aux" stream (which the algorithms draw nothing else from, so the trajectory is the one
    of stride 1), and returns (s/T) x the sum of those norms. Every t is in the sample with
    probability exactly 1/s, so the estimate is unbiased for the exact average
    (Horvitz-Thompson); the sampling adds within-replicate variance, which the checks'
    intervals over replicates include. Why: the exact average costs T full gradients, O(T N)
    per replicate, the whole cost of a run once N is in the hundreds (T ~ eps N^2); a sample
    of T/s steps costs O(T N / s). The sampled rows are evaluated in batches of steps.
    """

    def __init__(self, objective: Any, data: Any, reps: int, T: int, stride: int,
                 streams: ReplicateStreams) -> None:
        self.objective, self.data, self.T, self.stride = objective, data, int(T), int(stride)
        self.sum = np.zeros(reps)
        if self.stride > 1:
            off = np.array([int(g.integers(1, self.stride + 1)) for g in streams.aux])
            self._due = {int(k): np.flatnonzero(off % self.stride == k) for k in np.unique(off % self.stride)}
            self._W: list[np.ndarray] = []
            self._rows: list[np.ndarray] = []
            self._pending = 0

    def __call__(self, t: int, W: np.ndarray) -> None:
        if self.stride == 1:
            self.sum += np.atleast_1d(self.objective.grad_norm(W, self.data))
            return
        rows = self._due.get(t % self.stride)
        if rows is not None:
            self._W.append(W[rows])
            self._rows.append(rows)
            self._pending += rows.size
            if self._pending >= 2048:
                self._flush()

    def _flush(self) -> None:
        if self._pending:
            g = np.atleast_1d(self.objective.grad_norm(np.concatenate(self._W), self.data))
            np.add.at(self.sum, np.concatenate(self._rows), g)
            self._W, self._rows, self._pending = [], [], 0

    def result(self) -> np.ndarray:
        """(reps,): the exact average (stride 1) or its unbiased systematic-sample estimate."""
        if self.stride > 1:
            self._flush()
            return self.sum * (self.stride / self.T)
        return self.sum / self.T

    def describe(self) -> str:
        return ("exact: (1/T) sum_t ||grad F(w_t)||" if self.stride == 1 else
                f"unbiased systematic sample of the output index: every {self.stride}-th step from "
                f"a uniform random start per replicate, x {self.stride}/T")


def _finish(alg_id: str, objective: Any, data: Any, W_out: np.ndarray, avg: np.ndarray | None,
            T: int, privacy: dict, noise: dict, params: dict, grad_evals: float, timer: Timer,
            traj: _Traj, seed: int, first_replicate: int, monitor: Timer) -> RunResult:
    """The RunResult; ``monitor`` timed the in-loop metric work, which ``timer`` includes."""
    wall, cpu = timer.elapsed - monitor.elapsed, timer.cpu - monitor.cpu
    with monitor:
        metrics = metrics_at(objective, data, W_out)
    if avg is not None:
        metrics["grad_norm_avg"] = avg
    return RunResult(algorithm=alg_id, w=W_out, metrics=metrics, privacy=privacy, noise=noise,
                     params=params, grad_evals=float(grad_evals), wall_time=wall,
                     trajectory=traj.result(), seed=seed, first_replicate=first_replicate,
                     metric_time=monitor.elapsed, cpu_time=cpu)


# ---------------------------------------------------------------------------- Algorithm 1
def _alg1_transcript(hook: dict[str, list], keyed: "KeyedNormals", T: int, R: int,
                     alpha: float, node_std: float) -> dict[str, Any]:
    """The noisy nodes F_[y,z] = alpha sum_{t=y}^{z} (1-alpha)^{z-t} g_t + zeta_[y,z] of
    every level b < R (tran2022 Sec. 3, the releases Theorem 4's proof composes), from the
    run's gradient stream g_t (``hook``) and the run's keyed node noise ``keyed`` (read after
    the run: keyed values do not depend on the order of requests). m_hat_t of the run is
    sum_{COMPOSE(1,t)} (1-alpha)^{t-z} F_[y,z]: the iterates are post-processing of these.

    Returns {"nodes": {(b, a): (reps, d)}, "intervals": {(b, a): (y, z)}, "perm": (reps,
    epochs, N) 0-based sample indices, "w": (reps, T, d) iterates w_1..w_T, "node_std",
    "alpha", "T", "depth"}."""
    g = np.stack(hook["g"], axis=1)                           # (reps, T, d)
    nodes, intervals = {}, {}
    for b in range(min(R, T.bit_length())):
        size = 1 << b
        wts = alpha * (1.0 - alpha) ** (size - 1 - np.arange(size))
        for a in range(T >> b):
            y, z = a * size + 1, (a + 1) * size
            nodes[(b, a)] = np.tensordot(wts, g[:, y - 1:z], axes=(0, 1)) + keyed(b, a)
            intervals[(b, a)] = (y, z)
    return {"nodes": nodes, "intervals": intervals, "perm": np.stack(hook["perm"], axis=1),
            "w": np.stack(hook["w"], axis=1), "node_std": node_std, "alpha": alpha, "T": T,
            "depth": R}


def run_alg1(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1, seed: int = 0,
             calibration: str = "paper", record: int | None = None, first_replicate: int = 0,
             T: int | None = None, eta: float | None = None, alpha: float | None = None,
             sigma: float | None = None, depth: int | None = None, w1: Any = None,
             average: bool = False, average_samples: int | None = None,
             transcript: list | None = None) -> RunResult:
    """DP-NSGD with tree-aggregated momentum (tran2022 Algorithm 1).

    Algorithm:
        for q = 0..floor(T/N): fresh uniform permutation pi^q;
          for i = 1..min(N, T - qN): t = qN + i
            NOISE_t = sum_{[y,z] in COMPOSE(1,t)} (1-alpha)^{t-z} zeta_[y,z],
                      zeta ~ N(0, 16 alpha^2 G^2 sigma^2 V I) one per node of levels < R
            m_t = (1-alpha) m_{t-1} + alpha grad f(w_t, x_{pi^q_i});  m_hat_t = m_t + NOISE_t
            w_{t+1} = w_t - eta m_hat_t / ||m_hat_t||
        output w_hat uniform over w_1..w_T (index drawn up front per replicate).
        V = (min(R, floor(log2 N)) + 1) T/N + sum_{j=floor(log2 N)+1}^{R} floor(T/2^j).

    Guarantee: utility ``tran2022.thm6``; privacy ``tran2022.thm4`` (sigma = 2 sqrt(log(1/delta))
    /eps). Settings of Theorem 6: T solves T = eps N^2/(log2 T sqrt(d log(1/delta))) by fixed
    point, rounded down (so alpha >= 1/N, Prop. 13's hypothesis), eta = 1/sqrt(NT),
    alpha = eps N/(T log2 T sqrt(d log(1/delta))) at that integer T (capped at 1).

    Reference: Tran & Cutkosky 2022, Algorithm 1.

    Choices: w_1 = 0 unless ``w1`` is given (the paper's Sec. 2 unrolling uses w_1 = 0);
    tree depth R = floor(log2 T) + 1 by default (full tree, every level holding a node);
    the node noise is drawn online (``OnlineTreeAggregator``, O(d log T) per step and memory)
    from keyed normals instead of pre-sampled, which is the same distribution; if
    ||m_hat_t|| = 0 the step is 0. ``sigma`` overrides the noise parameter (0: no noise).
    ``average=True`` also streams (1/T) sum_t ||grad F(w_t)|| (= E over w_hat) as
    ``grad_norm_avg`` (one full gradient per step, not counted in ``grad_evals``);
    ``average_samples`` k replaces it by its unbiased systematic-sample estimate from about k
    steps per replicate (every s-th step, s = max(1, T // k), from a random start per
    replicate, :class:`_OutputAverage`; the trajectory is unchanged; None: exact).
    ``transcript`` (a list, default None: nothing changes) receives one dict with the
    releases Theorem 4's proof composes (:func:`_alg1_transcript`): every noisy node
    f_[y,z] + zeta_[y,z] of levels < R (the same keyed noise the momentum used, odd-index
    nodes included), the permutations and the iterates.
    """
    eps, delta, reps = _check_common(objective, data, eps, delta, reps, calibration, first_replicate)
    const = _constants(objective, data, (BoundedGradient, Smooth))
    G, L = const["G"], const["L"]
    N, d = data.n, objective.d
    if T is not None:
        T = _check_int("T", T, 1)
    if transcript is not None and not isinstance(transcript, list):
        raise ValueError(f"transcript must be a list or None, got {type(transcript).__name__}")
    st = _settings(_ALG1, N, d, eps, delta, T)
    T = st["T"]
    eta = st["eta"] if eta is None else _check_real("eta", eta, 0.0)
    alpha = min(1.0, st["alpha"]) if alpha is None else _check_real("alpha", alpha, 0.0, 1.0)
    R = T.bit_length() if depth is None else _check_int("depth", depth, 1)
    V = _eval(_ALG1, "V", {S.n: N, S.T: T, catalog.Rtree: R})
    S2 = alg1_sensitivity_sq(N, T, R, alpha, G)
    if sigma is not None:
        sigma = _check_real("sigma", sigma, 0.0, lo_open=False)
        node_std = 4.0 * alpha * G * sigma * math.sqrt(V)
    elif calibration == "paper":
        sigma = st["sigma"]
        node_std = math.sqrt(_eval(_ALG1, "node_var", {S.n: N, S.T: T, catalog.Rtree: R,
                                                       S.alpha_m: alpha, S.G: G, S.sigma: sigma}))
    else:
        node_std = _tight_multiplier(eps, delta) * math.sqrt(S2)
        sigma = node_std / (4.0 * alpha * G * math.sqrt(V))
    eps_tight = _eps_gauss_rdp(S2 / node_std**2, delta) if node_std > 0 else math.inf
    privacy = {
        "paper": {"epsilon": eps if calibration == "paper" and sigma == st["sigma"] else
                  _route_eps(_THM4, sigma, delta),
                  "epsilon_route": _route_eps(_THM4, sigma, delta), "delta": delta,
                  "route": "Thm 4: (z, z/(2 sigma^2))-RDP (node sensitivity 4 alpha G, V nodes per "
                           "datum), optimal Mironov conversion; claimed eps at sigma = 2 sqrt(log(1/delta))/eps"},
        "tight": {"epsilon": eps_tight, "delta": delta, "sensitivity_sq": S2,
                  "route": "RDP of the Gaussian tree mechanism: per-level max nodes hit x exact "
                           "node sensitivity under reshuffling, improved conversion over orders"},
    }
    if node_std > 0 and S2 > 0:        # one Gaussian, multiplier node_std/sqrt(S2); S2 is a
        # bound over the datum's positions, not known to be attained: upper end only
        privacy["tight"].update(two_sided(GaussianEvent(node_std / math.sqrt(S2)), delta,
                                          relation="replace-one", attained=False))

    timer, monitor = Timer(), Timer()
    timer.__enter__()
    streams = ReplicateStreams(seed, reps, first_replicate)
    keyed = KeyedNormals(_node_keys(streams), d, _FAM_ALG1, T=T, scale=node_std)
    tau = 1 + np.minimum((streams.uniform(1)[:, 0] * T).astype(np.int64), T - 1)
    hits = _hits(tau)
    agg = OnlineTreeAggregator(d, T, alpha, node_std, None, reps, depth=R, node_noise=keyed)
    W = _w1(w1, d, reps)
    W_out = W.copy()
    m = np.zeros((reps, d))
    stride = 1 if average_samples is None else max(1, T // _check_int("average_samples",
                                                                       average_samples, 1))
    avg = _OutputAverage(objective, data, reps, T, stride, streams) if average else None
    traj = _Traj(record)
    grad_mean = objective.batch_grad_mean_kernel(data, reps, 1)
    hook: dict[str, list] | None = None if transcript is None else {"g": [], "w": [], "perm": []}
    for q in range(T // N + 1):
        perm = streams.permutations(N)
        if hook is not None:
            hook["perm"].append(perm.copy())
        for i in range(1, min(N, T - q * N) + 1):
            t = q * N + i
            if t in hits:
                W_out[hits[t]] = W[hits[t]]
            if avg is not None:
                with monitor:                          # a progress monitor: metric time
                    avg(t, W)
            noise = agg.step()
            g = grad_mean(W, perm[:, i - 1:i])                                # one sample
            if hook is not None:
                hook["g"].append(g.copy())
                hook["w"].append(W.copy())
            m = (1.0 - alpha) * m + alpha * g
            mh = m + noise
            traj(t, W, mh)
            W = W - eta * _normalized(mh)
    timer.__exit__()
    if hook is not None:
        transcript.append(_alg1_transcript(hook, keyed, T, R, alpha, node_std))
    params = {"T": T, "eta": eta, "alpha": alpha, "sigma": sigma, "depth": R, "V": V, "N": N,
              "G": G, "L": L, "w1": "zeros" if w1 is None else np.asarray(w1).tolist(),
              "output": "uniform over w_1..w_T", "sampling": "random reshuffling, fresh permutation per epoch",
              "peak_live_nodes": agg.peak_live}
    if avg is not None:
        params["grad_norm_avg"] = avg.describe()
    noise = {"node_std": node_std, "sigma": sigma}
    with monitor:
        avg_values = None if avg is None else avg.result()
    return _finish("tran2022.alg1", objective, data, W_out, avg_values, T, privacy, noise, params, T,
                   timer, traj, seed, first_replicate, monitor)


# ---------------------------------------------------------------------------- Algorithm 2
def recombination_coefficients(Q: int, alpha: float, gamma: float, N: int) -> tuple[np.ndarray, np.ndarray]:
    """(A, c) with A[q] = sum_{i=0}^{q-1} (1-alpha)^{Ni} (1-gamma)^{q-1-i} and
    c[i] = sum_{j=0}^{i-1} (1-gamma)^j (1-alpha)^{(i-1-j)N} (eq. (3)), for q, i = 0..Q."""
    x, y = (1.0 - alpha) ** N, 1.0 - gamma
    A = np.zeros(Q + 1)
    c = np.zeros(Q + 1)
    for k in range(1, Q + 1):
        A[k] = y * A[k - 1] + x ** (k - 1)
        c[k] = x * c[k - 1] + y ** (k - 1)
    return A, c


def _window_noise(tables: list[np.ndarray], starts: range, length: int,
                  beta: float, shape: tuple[int, int]) -> np.ndarray:
    """Noise of E_[s, s+length-1] = sum_{COMPOSE} beta^{end - z} zeta for every start s."""
    out = np.zeros((len(starts), *shape))
    for k, s in enumerate(starts):
        e = s + length - 1
        for y, z in compose(s, e):
            b = (z - y + 1).bit_length() - 1
            out[k] += beta ** (e - z) * tables[b][(y - 1) >> b]
    return out


def _alg2_transcript(hook: dict[str, Any], T: int, alpha: float) -> dict[str, Any]:
    """Algorithm 2's noisy G-nodes of the levels the reconstruction reads, from the run's G
    terms G_i = grad f(u_{q_i}, x_i) and node noise (``hook``); see ``run_alg2``."""
    A = np.stack(hook["a"], axis=1)                           # (reps, T, d)
    nodes, intervals, std = {}, {}, {}
    for b, Z in enumerate(hook["ZG"]):
        size = 1 << b
        wts = (1.0 - alpha) ** (size - 1 - np.arange(size))
        for a in range(T >> b):
            y, z = a * size + 1, (a + 1) * size
            nodes[(b, a)] = np.tensordot(wts, A[:, y - 1:z], axes=(0, 1)) + Z[a]
            intervals[(b, a)] = (y, z)
            std[(b, a)] = float(hook["sG"][b][a])
    return {"nodes": nodes, "intervals": intervals, "std": std,
            "perm": np.stack(hook["perm"], axis=1), "anchor": np.stack(hook["anchor"], axis=1),
            "T": T, "alpha": alpha}


def run_alg2(objective: Any, data: Any, *, eps: float, delta: float, reps: int = 1, seed: int = 0,
             calibration: str = "paper", record: int | None = None, first_replicate: int = 0,
             T: int | None = None, eta: float | None = None, alpha: float | None = None,
             gamma: float | None = None, sigma: float | None = None, w1: Any = None,
             delta_r: str = "printed", shuffle: str = "epoch", average: bool = False,
             transcript: list | None = None) -> RunResult:
    """Sensitivity-reduced normalized SGD (tran2022 Algorithm 2) with the reconstruction
    ``tran2022.alg4`` (Algorithm 4 is in the paper's missing appendix).

    Algorithm (the literal consistent reading; see Choices):
        t = 1..T, epoch q_t = floor((t-1)/N), position r_t = t - q_t N in 1..N, sample
        x_t = x_{pi^{q_t}(r_t)} (fresh permutation per epoch); anchor u_q = w_{qN+1}.
        Node terms: G_i = grad f(u_{q_i}, x_i); r_i = grad f(w_i, x_i) - G_i;
        Delta_i = G_i - grad f(u_{q_i - 1}, x_i) (q_i >= 1).
        Node [y,z] (dyadic, ends at z): F^X = sum_{i=y}^{z} (1-alpha)^{z-i} X_i + zeta^X,
          zeta^G ~ N(0, delta_G^2 sigma^2 V_{<=2N} I) if z <= 2N else V_{>2N};
          zeta^r ~ N(0, delta_r^2 sigma^2 V_{>2N} I); zeta^Delta (only if y > N) with delta_Delta.
          V_{<=2N} = 3 log2 N, V_{>2N} = 4 (T/N) log2 N, delta_G = 4G, delta_r = delta_Delta = 2 eta N.
        E^X_[a,b] = sum_{COMPOSE(a,b)} (1-alpha)^{b-z} F^X_[y,z].
        RECONSTRUCT(t), t = qN + r: r_hat = E^r_[1,t]; q = 0: G_hat = E^G_[1,t]; else
          G_hat = (1-alpha)^{t-r} E^G_[1,r] + A_q E^G_{W_q}
                  + sum_{i=1}^{q-1} c_i ((1-gamma) E^Delta_{W_i} + gamma E^G_{W_i}),
          W_i = [t-iN+1, t-(i-1)N]  (eq. (3); the backward recursion of alg4 expanded);
        m_hat_t = alpha (G_hat + r_hat);  w_{t+1} = w_t - eta m_hat_t/||m_hat_t||.
        Output w_hat uniform over w_1..w_T.

    Guarantee: utility ``tran2022.thm9``; privacy ``tran2022.thm8`` (sigma = 4 sqrt(log(1/delta))
    /eps). Settings of Theorem 9: T = floor(N^{7/3} eps^{4/3}/d^{2/3}), eta = 1/sqrt(NT),
    gamma = eta N, alpha = N^{3/4} eps/(T^{3/4} sqrt d) at that T (capped at 1).

    Reference: Tran & Cutkosky 2022, Algorithm 2 and eq. (3); reconstruction catalog
    ``tran2022.alg4``.

    Choices (printed indices garbled, catalog ``tran2022.alg2``): iterations are 1-indexed as
    in Algorithm 1 and Algorithm 4 (the printed r from 0 makes t = 0, log2 0 and w_0 appear);
    the printed anchor "w_{qN}" is the iterate at the start of epoch q in the print's 0-indexed
    numbering, i.e. w_{qN+1} here; node sums use each term's own epoch (q_i, pi^{q_i}) as eq. (1)
    defines G, r, Delta (the print's single q and pi^q of the node end only agree for nodes
    inside one epoch, and the reconstruction needs eq. (1)'s quantities); the update is
    w_{t+1} = w_t - ... (the printed w_t = w_{t-1} - eta m_hat_t/.. would use w_t inside m_hat_t).
    The reconstruction reads only G/Delta nodes of levels <= floor(log2 N) (windows have length
    N); higher G/Delta nodes the print samples do not affect the output and are not drawn.
    Noise-free interval sums come from discounted prefix sums, so memory is O(T d reps) (the
    reconstruction reads the whole history every step) and a step costs O((t/N) d reps).
    ``delta_r="corrected"`` uses ``tran2022.alg2.corrected`` (delta_r = delta_Delta = 2 L eta N).
    ``shuffle="once"`` reuses pi^0 in every epoch (``tran2022.eq3.corrected``: eq. (3) then
    holds exactly). With fresh permutations and gamma < 1, eq. (3) fails, so even without
    noise m_hat_t != m_t for t > 2N (catalog finding ``tran2022.eq3``).
    ``transcript`` (a list, default None: nothing changes) receives one dict with the noisy
    G-nodes F^G_[y,z] = sum_{i=y}^{z} (1-alpha)^{z-i} G_i + zeta^G_[y,z] the reconstruction
    reads (levels <= floor(log2 N), the same noise the run used), the permutations and the
    anchors u_{q_i} of every step (``{"nodes", "intervals", "std", "perm", "anchor", "T",
    "alpha"}``).
    """
    eps, delta, reps = _check_common(objective, data, eps, delta, reps, calibration, first_replicate)
    const = _constants(objective, data, (BoundedGradient, Smooth))
    G, L = const["G"], const["L"]
    N, d = data.n, objective.d
    if delta_r not in ("printed", "corrected"):
        raise ValueError(f"delta_r must be 'printed' or 'corrected', got {delta_r!r}")
    if shuffle not in ("epoch", "once"):
        raise ValueError(f"shuffle must be 'epoch' or 'once', got {shuffle!r}")
    if transcript is not None and not isinstance(transcript, list):
        raise ValueError(f"transcript must be a list or None, got {type(transcript).__name__}")
    if T is not None:
        T = _check_int("T", T, 1)
    st = _settings(_ALG2, N, d, eps, delta, T)
    T = st["T"]
    eta = st["eta"] if eta is None else _check_real("eta", eta, 0.0)
    alpha = min(1.0, st["alpha"]) if alpha is None else _check_real("alpha", alpha, 0.0, 1.0)
    gamma = (eta * N if gamma is None else gamma)
    gamma = _check_real("gamma", gamma, 0.0, 1.0)
    item = _ALG2 if delta_r == "printed" else _ALG2C
    sigma_paper = st["sigma"]

    def stds(sig: float) -> dict[str, float]:
        v = {S.n: N, S.T: T, S.G: G, S.beta: L, S.eta_n: eta, S.sigma: sig}
        return {"G_le2N": math.sqrt(_eval(_ALG2, "var_G_le2N", v)),
                "G_gt2N": math.sqrt(_eval(_ALG2, "var_G_gt2N", v)),
                "r": math.sqrt(_eval(item, "var_r", v)),
                "Delta": math.sqrt(_eval(item, "var_Delta", v))}

    if sigma is not None:
        sigma = _check_real("sigma", sigma, 0.0, lo_open=False)
    elif calibration == "paper":
        sigma = sigma_paper
    else:
        mu2_at_1 = alg2_sensitivity_sq(N, T, alpha, G, L, eta, stds(1.0))   # mu^2 scales as 1/sigma^2
        sigma = _tight_multiplier(eps, delta) * math.sqrt(mu2_at_1)
    sd = stds(sigma)
    mu2 = alg2_sensitivity_sq(N, T, alpha, G, L, eta, sd) if sigma > 0 else math.inf
    privacy = {
        "paper": {"epsilon": eps if calibration == "paper" and sigma == sigma_paper else
                  _route_eps(_THM8, sigma, delta),
                  "epsilon_route": _route_eps(_THM8, sigma, delta), "delta": delta,
                  "route": "Thm 8: (z, 3z/(2 sigma^2))-RDP, optimal Mironov conversion; claimed eps "
                           "at sigma = 4 sqrt(log(1/delta))/eps"},
        "tight": {"epsilon": _eps_gauss_rdp(mu2, delta), "delta": delta, "mu_sq": mu2,
                  "route": "RDP of the Gaussian node mechanisms (G, r, Delta families, nodes the "
                           "reconstruction reads): per-level max nodes hit x exact node "
                           "sensitivity (G: 2G, r/Delta: smoothness) under reshuffling, improved "
                           "conversion over orders"},
    }
    if math.isfinite(mu2) and mu2 > 0:  # one Gaussian, multiplier 1/mu; mu^2 a bound over
        # the datum's positions, not known to be attained: upper end only
        privacy["tight"].update(two_sided(GaussianEvent(1.0 / math.sqrt(mu2)), delta,
                                          relation="replace-one", attained=False))

    timer, monitor = Timer(), Timer()
    timer.__enter__()
    beta = 1.0 - alpha
    shape = (reps, d)
    streams = ReplicateStreams(seed, reps, first_replicate)
    keys = _node_keys(streams)
    tau = 1 + np.minimum((streams.uniform(1)[:, 0] * T).astype(np.int64), T - 1)
    hits = _hits(tau)
    # node noise tables for G and Delta (levels <= floor(log2 N)), std by node class
    top = min(N.bit_length() - 1, T.bit_length() - 1)
    kG, kD = KeyedNormals(keys, d, _FAM_G), KeyedNormals(keys, d, _FAM_D)
    ZG, ZD = [], []
    for b in range(top + 1):
        n_b = T >> b
        ends = (np.arange(n_b) + 1) << b
        sG = np.where(ends <= 2 * N, sd["G_le2N"], sd["G_gt2N"])
        sD = np.where(ends - (1 << b) + 1 > N, sd["Delta"], 0.0)   # Delta only if start > N
        ZG.append(kG.level(b, n_b) * sG[:, None, None])
        ZD.append(kD.level(b, n_b) * sD[:, None, None])
    n_win = max(0, T - N + 1)
    nWG = _window_noise(ZG, range(1, n_win + 1), N, beta, shape)
    nWD = _window_noise(ZD, range(1, n_win + 1), N, beta, shape)
    nPG = np.zeros((min(N, T) + 1, *shape))                  # noise of E^G_[1,r], r <= N
    for r in range(1, min(N, T) + 1):
        for y, z in compose(1, r):
            b = (z - y + 1).bit_length() - 1
            nPG[r] += beta ** (r - z) * ZG[b][(y - 1) >> b]
    hook: dict[str, Any] | None = None
    if transcript is not None:
        hook = {"ZG": ZG, "sG": [np.where(((np.arange(T >> b) + 1) << b) <= 2 * N,
                                         sd["G_le2N"], sd["G_gt2N"]) for b in range(top + 1)],
                "a": [], "anchor": [], "perm": []}
    del ZG, ZD
    kR = KeyedNormals(keys, d, _FAM_R, T=T, scale=sd["r"])
    agg = OnlineTreeAggregator(d, T, alpha, sd["r"], None, reps, node_noise=kR)
    A, c = recombination_coefficients(T // N + 1, alpha, gamma, N)
    PG = np.zeros((T + 1, *shape))          # discounted prefix sums: P_t = beta P_{t-1} + X_t
    PD = np.zeros((T + 1, *shape))
    Pr = np.zeros(shape)
    bN = beta ** N
    W = _w1(w1, d, reps)
    W_out = W.copy()
    anchors: list[np.ndarray] = []           # u_{q-1}, u_q
    avg = _OutputAverage(objective, data, reps, T, 1, streams) if average else None
    traj = _Traj(record)
    grad_evals = 0
    perm0 = None
    for q in range(T // N + 1):
        perm = streams.permutations(N)
        if shuffle == "once":
            perm0 = perm if perm0 is None else perm0
            perm = perm0
        anchors = (anchors + [W.copy()])[-2:]
        if hook is not None:
            hook["perm"].append(perm.copy())
        for r in range(1, min(N, T - q * N) + 1):
            t = q * N + r
            if t in hits:
                W_out[hits[t]] = W[hits[t]]
            if avg is not None:
                with monitor:                          # a progress monitor: metric time
                    avg(t, W)
            idx = perm[:, r - 1:r]
            pts = [W, anchors[-1]] + ([anchors[0]] if q >= 1 else [])
            grads = objective.batch_grad(np.concatenate(pts), data, np.tile(idx, (len(pts), 1)))[:, 0, :]
            grad_evals += len(pts)
            g, a = grads[:reps], grads[reps:2 * reps]
            if hook is not None:
                hook["a"].append(a.copy())
                hook["anchor"].append(anchors[-1].copy())
            PG[t] = beta * PG[t - 1] + a
            PD[t] = beta * PD[t - 1] + (a - grads[2 * reps:] if q >= 1 else 0.0)
            Pr = beta * Pr + (g - a)
            r_hat = Pr + agg.step()
            if q == 0:
                G_hat = PG[t] + nPG[t]
            else:
                s = t - np.arange(1, q + 1) * N + 1          # starts of W_1..W_q
                e = s + N - 1
                EG = PG[e] - bN * PG[s - 1] + nWG[s - 1]
                G_hat = beta ** (t - r) * (PG[r] + nPG[r]) + A[q] * EG[q - 1]
                if q >= 2:
                    ED = PD[e[:-1]] - bN * PD[s[:-1] - 1] + nWD[s[:-1] - 1]
                    comb = (1.0 - gamma) * ED + gamma * EG[:-1]
                    G_hat = G_hat + np.tensordot(c[1:q], comb, axes=(0, 0))
            mh = alpha * (G_hat + r_hat)
            traj(t, W, mh)
            W = W - eta * _normalized(mh)
    timer.__exit__()
    if hook is not None:
        transcript.append(_alg2_transcript(hook, T, alpha))
    params = {"T": T, "eta": eta, "alpha": alpha, "gamma": gamma, "sigma": sigma, "N": N, "G": G,
              "L": L, "delta_r": delta_r, "shuffle": shuffle,
              "w1": "zeros" if w1 is None else np.asarray(w1).tolist(),
              "V_le2N": _eval(_ALG2, "V_le2N", {S.n: N}),
              "V_gt2N": _eval(_ALG2, "V_gt2N", {S.n: N, S.T: T}),
              "output": "uniform over w_1..w_T",
              "sampling": "random reshuffling, fresh permutation per epoch" if shuffle == "epoch"
              else "one permutation reused every epoch",
              "index_reading": "t = qN + r, r in 1..N; anchor u_q = w_{qN+1}; per-term epochs (eq. (1)); "
                               "w_{t+1} = w_t - eta m_hat_t/||m_hat_t||"}
    noise = {f"std_{k}": v for k, v in sd.items()} | {"sigma": sigma}
    with monitor:
        avg_values = None if avg is None else avg.result()
    return _finish("tran2022.alg2", objective, data, W_out, avg_values, T, privacy, noise, params,
                   grad_evals / 1.0, timer, traj, seed, first_replicate, monitor)


# ---------------------------------------------------------------------------- registry
_REQUIRES = (BoundedGradient, Smooth, BoundedLoss)

ALGORITHMS: list[Algorithm] = [
    Algorithm(id="tran2022.alg1", paper="tran2022",
              title="DP-NSGD with tree-aggregated momentum (Algorithm 1)", run=run_alg1,
              theorem="tran2022.thm6", privacy_theorem="tran2022.thm4", requires=_REQUIRES,
              notes="random reshuffling, batch 1; online tree noise O(d log T)"),
    Algorithm(id="tran2022.alg2", paper="tran2022",
              title="Sensitivity-reduced normalized SGD (Algorithm 2 + reconstruction Alg. 4)",
              run=run_alg2, theorem="tran2022.thm9", privacy_theorem="tran2022.thm8",
              requires=_REQUIRES,
              notes="literal consistent reading of the garbled indices; reconstruction per "
                    "tran2022.alg4; memory O(T d reps)"),
]
