"""Tree aggregation of tran2022 (Tran & Cutkosky, *Momentum Aggregation for Private
Non-convex ERM*, NeurIPS 2022): dyadic intervals, COMPOSE, node sensitivity, participation
counts and an online noise aggregator.

Conventions (catalog ``tran2022``): iterations are 1-indexed, t = 1..T. A tree node is a
closed integer interval ``(y, z)`` of the printed interval set

    I = { [a 2^b + 1, (a+1) 2^b] : a, b integers, [a 2^b + 1, (a+1) 2^b] subset of {1..T} },

at *level* b (length 2^b) and *index* a. Algorithm 1 samples nodes only at levels
b = 0..R-1 (tree depth R, printed R, catalog ``Rtree``); ``depth=None`` means no cap.

Sampling of Algorithm 1/2 (random reshuffling): epoch q (0-indexed) covers iterations
qN+1 .. min((q+1)N, T), and each datum is used exactly once in every full epoch, at a
position chosen by a fresh uniform permutation. Worst cases over permutations therefore
range over one position per epoch, independently across epochs.
"""

from __future__ import annotations

import itertools
import math
from typing import Callable, Iterator, Optional, Union

import numpy as np

from dptheory.errors import require

Node = tuple[int, int]
NodeNoise = Callable[[int, int], np.ndarray]

__all__ = [
    "Node",
    "dyadic_intervals",
    "node_level",
    "compose",
    "node_sensitivity_formula",
    "node_sensitivity_bruteforce",
    "node_sensitivity_exact",
    "max_occurrences_formula",
    "max_occurrences",
    "participation_count_V",
    "participation_count_bruteforce",
    "keyed_node_noise",
    "OnlineTreeAggregator",
    "offline_tree_noise",
    "tree_prefix_sum_noise_std",
    "momentum_tree_sum",
]

# Brute-force enumerations refuse instances larger than this many position combinations.
MAX_ENUMERATION = 2_000_000


# --------------------------------------------------------------------------- validation
def _int(name: str, value: object, minimum: int = 1) -> int:
    require(isinstance(value, (int, np.integer)) and not isinstance(value, bool),
            f"{name} must be an integer, got {value!r}")
    require(int(value) >= minimum, f"{name} must be >= {minimum}, got {value!r}")  # type: ignore[arg-type]
    return int(value)  # type: ignore[arg-type]


def _depth(depth: object) -> Optional[int]:
    if depth is None:
        return None
    return _int("depth", depth, 1)


def _alpha(alpha: object) -> float:
    require(isinstance(alpha, (int, float, np.integer, np.floating)) and not isinstance(alpha, bool),
            f"alpha must be a real number, got {alpha!r}")
    a = float(alpha)  # type: ignore[arg-type]
    require(0 < a <= 1, f"alpha must be in (0, 1], got {alpha!r}")
    return a


def _nonneg(name: str, value: object) -> float:
    require(isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool),
            f"{name} must be a real number, got {value!r}")
    v = float(value)  # type: ignore[arg-type]
    require(v >= 0 and math.isfinite(v), f"{name} must be >= 0 and finite, got {value!r}")
    return v


def _node(y: object, z: object) -> tuple[int, int]:
    yy = _int("y", y, 1)
    zz = _int("z", z, 1)
    require(yy <= zz, f"y must be <= z, got y={yy}, z={zz}")
    return yy, zz


# --------------------------------------------------------------------------- interval set I
def dyadic_intervals(T: int, depth: Optional[int] = None) -> list[Node]:
    """The printed interval set I of tran2022 Sec. 2 for horizon T.

    Returns all ``(a 2^b + 1, (a+1) 2^b)`` contained in {1..T}, ordered by level b then
    index a; with ``depth = R`` only levels b < R (the nodes Algorithm 1 samples).
    """
    TT = _int("T", T, 1)
    R = _depth(depth)
    out: list[Node] = []
    b = 0
    while (1 << b) <= TT and (R is None or b < R):
        size = 1 << b
        out.extend((a * size + 1, (a + 1) * size) for a in range(TT // size))
        b += 1
    return out


def node_level(y: int, z: int) -> tuple[int, int]:
    """(level b, index a) of a node of I; ValueError if ``[y, z]`` is not dyadic."""
    yy, zz = _node(y, z)
    n = zz - yy + 1
    require(n & (n - 1) == 0, f"[y, z] must have a power-of-two length, got [{yy}, {zz}]")
    b = n.bit_length() - 1
    require((yy - 1) % n == 0, f"y - 1 must be a multiple of z - y + 1, got [{yy}, {zz}]")
    return b, (yy - 1) >> b


def compose(a: int, b: int, depth: Optional[int] = None) -> list[Node]:
    """COMPOSE(a, b) of tran2022 (Algorithm 3, reconstructed: greedy maximal dyadic
    decomposition, catalog ``tran2022.alg3``).

    Starting at s = a, repeatedly take the longest node [s, s + 2^k - 1] of I with
    (s - 1) divisible by 2^k, s + 2^k - 1 <= b and (if ``depth = R``) k <= R - 1.
    The result is disjoint, covers [a, b], and is ordered left to right; Algorithm 1 uses
    each node's end z (printed ``S_i[1]``) in the weight (1 - alpha)^{t - z}.
    """
    aa = _int("a", a, 1)
    bb = _int("b", b, 1)
    require(aa <= bb, f"a must be <= b, got a={aa}, b={bb}")
    R = _depth(depth)
    cap = None if R is None else R - 1
    out: list[Node] = []
    s = aa
    while s <= bb:
        # alignment: the largest k with 2^k | (s - 1); s = 1 is aligned at every level.
        m = s - 1
        fit = (bb - s + 1).bit_length() - 1      # largest k with 2^k <= b - s + 1
        align = (m & -m).bit_length() - 1 if m else fit
        k = min(align, fit) if cap is None else min(align, fit, cap)
        out.append((s, s + (1 << k) - 1))
        s += 1 << k
    return out


# --------------------------------------------------------------------------- node sensitivity
def node_sensitivity_formula(y: int, z: int, N: int, alpha: float, G: float) -> float:
    """Sensitivity of the node sum f_[y,z] as printed in tran2022 (Theorem 4 proof sketch,
    Proposition 13):

        Delta = 2 alpha G sum_{j=0}^{ceil(|y - z| / N) - 1} (1 - alpha)^{j N}.

    Encoded exactly as printed: for a leaf (y = z) the sum is empty and Delta = 0.
    """
    yy, zz = _node(y, z)
    NN = _int("N", N, 1)
    al = _alpha(alpha)
    GG = _nonneg("G", G)
    count = -(-(zz - yy) // NN)              # ceil(|y - z| / N) in exact integer arithmetic
    return 2.0 * al * GG * sum((1.0 - al) ** (j * NN) for j in range(count))


def max_occurrences_formula(y: int, z: int, N: int) -> int:
    """The printed count "at most ceil(|y - z| / N) gradient terms" (Prop. 13 sketch)."""
    yy, zz = _node(y, z)
    NN = _int("N", N, 1)
    return -(-(zz - yy) // NN)


def _epochs_of(y: int, z: int, N: int) -> range:
    # epochs (0-indexed) whose iterations qN+1..(q+1)N intersect [y, z]
    return range((y - 1) // N, (z - 1) // N + 1)


def max_occurrences(y: int, z: int, N: int) -> int:
    """Exact maximum, over permutation sequences, of how many iterations in [y, z] use one
    fixed datum: the number of epochs that intersect [y, z] (one use per epoch)."""
    yy, zz = _node(y, z)
    NN = _int("N", N, 1)
    return len(_epochs_of(yy, zz, NN))


def node_sensitivity_bruteforce(y: int, z: int, N: int, alpha: float, G: float) -> float:
    """Exact sensitivity of f_[y,z] = alpha sum_{p=y}^{z} (1-alpha)^{z-p} grad(w_p, x_{pi(p)})
    under random reshuffling, maximised over the per-epoch positions of the replaced datum.

    Replacing one datum changes each of its occurrences p by at most 2 alpha G (1-alpha)^{z-p}
    and the bound is attained by opposite gradients of norm G, so the sensitivity is
    2 alpha G max sum_{occurrences p in [y,z]} (1 - alpha)^{z - p}. The maximum is found by
    enumerating every choice of one position per epoch (including "outside [y, z]" for
    epochs that only partly overlap the node); no monotonicity argument is used.
    """
    yy, zz = _node(y, z)
    NN = _int("N", N, 1)
    al = _alpha(alpha)
    GG = _nonneg("G", G)
    beta = 1.0 - al
    options: list[list[float]] = []
    total = 1
    for q in _epochs_of(yy, zz, NN):
        lo, hi = q * NN + 1, (q + 1) * NN
        w = [beta ** (zz - p) if yy <= p <= zz else 0.0 for p in range(lo, hi + 1)]
        options.append(sorted(set(w)))      # equal weights give equal sums: dedupe
        total *= len(options[-1])
    require(total <= MAX_ENUMERATION,
            f"(y, z, N) must give at most {MAX_ENUMERATION} position combinations, got {total}")
    best = 0.0
    for combo in itertools.product(*options):
        s = math.fsum(combo)
        if s > best:
            best = s
    return 2.0 * al * GG * best


def node_sensitivity_exact(y: int, z: int, N: int, alpha: float, G: float) -> float:
    """Closed form of :func:`node_sensitivity_bruteforce` (corrected variant of Prop. 13).

    In every epoch meeting [y, z] the worst position is the latest one inside the node, so
    Delta = 2 alpha G sum_{epochs q meeting [y,z]} (1 - alpha)^{z - min(z, (q+1)N)}.
    """
    yy, zz = _node(y, z)
    NN = _int("N", N, 1)
    al = _alpha(alpha)
    GG = _nonneg("G", G)
    return 2.0 * al * GG * math.fsum((1.0 - al) ** (zz - min(zz, (q + 1) * NN))
                                     for q in _epochs_of(yy, zz, NN))


# --------------------------------------------------------------------------- participation count
def participation_count_V(N: int, T: int, R: int) -> float:
    """V of tran2022 Algorithm 1 (and the Theorem 4 proof sketch), as printed:

        V = (min(R, floor(log2 N)) + 1) T / N + sum_{j = floor(log2(N) + 1)}^{R} floor(T / 2^j).

    T/N is not floored in the print, so V may be fractional.
    """
    NN = _int("N", N, 1)
    TT = _int("T", T, 1)
    RR = _int("R", R, 1)
    lg = NN.bit_length() - 1                 # floor(log2 N), exact for integers
    return (min(RR, lg) + 1) * TT / NN + sum(TT >> j for j in range(lg + 1, RR + 1))


def participation_count_bruteforce(N: int, T: int, R: int, return_witness: bool = False
                                   ) -> Union[int, tuple[int, list[int], list[int]]]:
    """Exact maximum number of sampled tree nodes that contain an iteration using one datum.

    Nodes are those of Algorithm 1: [a 2^b + 1, (a+1) 2^b] subset of {1..T} with b < R.
    Sampling as printed: epoch q runs i = 1..min(N, T - qN) with a fresh permutation, so a
    datum sits at one position per epoch; in a final partial epoch it may not be used.
    Enumerates every position sequence (the count depends only on them) and maximises.

    Returns the count, or ``(count, positions, per_level)`` with ``return_witness=True``
    (``positions`` lists the iterations using the datum; ``per_level[b]`` the nodes hit
    at level b).
    """
    NN = _int("N", N, 1)
    TT = _int("T", T, 1)
    RR = _int("R", R, 1)
    n_epochs = -(-TT // NN)
    options: list[list[int]] = []
    total = 1
    for q in range(n_epochs):
        used = min(NN, TT - q * NN)
        opts = [q * NN + i for i in range(1, used + 1)]
        if used < NN:
            opts.append(0)                   # 0 = the datum is not used in this epoch
        options.append(opts)
        total *= len(opts)
    require(total <= MAX_ENUMERATION,
            f"(N, T) must give at most {MAX_ENUMERATION} position combinations, got {total}")
    P = np.array(list(itertools.product(*options)), dtype=np.int64).reshape(total, n_epochs)
    counts = np.zeros(total, dtype=np.int64)
    levels = []
    b = 0
    while b < RR and (1 << b) <= TT:
        idx = (P - 1) >> b                    # node index a containing position p
        valid = (P > 0) & (((idx + 1) << b) <= TT)
        idx = np.where(valid, idx, -1)
        idx.sort(axis=1)
        distinct = (idx[:, :1] >= 0).sum(axis=1) + ((idx[:, 1:] != idx[:, :-1]) & (idx[:, 1:] >= 0)).sum(axis=1)
        levels.append(distinct)
        counts += distinct
        b += 1
    best = int(np.argmax(counts))
    if not return_witness:
        return int(counts[best])
    positions = [int(p) for p in P[best] if p > 0]
    return int(counts[best]), positions, [int(lv[best]) for lv in levels]


# --------------------------------------------------------------------------- node noise
def keyed_node_noise(seed: int, reps: int, d: int, std: float) -> NodeNoise:
    """A node-noise callback whose value depends only on (seed, level, index).

    Node (b, a) gets ``std *`` standard normals from ``SeedSequence(seed, spawn_key=(b, a))``,
    so an online aggregator and an offline reference that pre-samples every node see
    exactly the same noise regardless of the order in which nodes are drawn.
    """
    sd = _int("seed", seed, 0)
    n = _int("reps", reps, 1)
    dim = _int("d", d, 1)
    s = _nonneg("std", std)

    def noise(level: int, index: int) -> np.ndarray:
        g = np.random.Generator(np.random.PCG64(np.random.SeedSequence(sd, spawn_key=(level, index))))
        return g.standard_normal((n, dim)) * s

    return noise


def _weighted_sum(nodes: list[Node], t: int, beta: float, value: Callable[[Node], np.ndarray],
                  shape: tuple[int, int]) -> np.ndarray:
    # One shared summation order (COMPOSE order, left to right) so that the online and the
    # offline computations perform identical float operations and agree bit for bit.
    acc = np.zeros(shape, dtype=np.float64)
    for node in nodes:
        acc += beta ** (t - node[1]) * value(node)
    return acc


class OnlineTreeAggregator:
    """Online noise of tran2022 Algorithm 1:

        NOISE_t = sum_{[y,z] in COMPOSE(1,t)} (1 - alpha)^{t - z} zeta_[y,z],  t = 1..T,

    with zeta_[y,z] ~ N(0, node_std^2 I_d) independent per node (Algorithm 1 uses
    node_std^2 = 16 alpha^2 G^2 sigma^2 V). All ``reps`` replicates advance together; each
    call to :meth:`step` returns an array of shape (reps, d).

    Why online: Algorithm 1 pre-samples every node (O(d T) memory). A node [y, z] of
    COMPOSE(1, t) at level b is used exactly for t in [z, z + 2^b - 1] (while bit b of t is
    set), so each node is drawn the first time it is needed and dropped once its window
    ends; at most floor(log2 T) + 1 node vectors are live and a step costs O(d log T).

    With a depth cap R < log2 T + 1, COMPOSE(1, t) also contains every completed top-level
    block (level R - 1); their weighted sum is kept in one accumulator rescaled by
    (1 - alpha)^{2^{R-1}} per completed block, so memory stays O(d R) (the sum then agrees
    with the offline reference up to rounding, not bit for bit).

    ``node_noise(level, index)`` (optional) supplies each node's noise, shape (reps, d),
    already scaled; by default nodes are drawn from ``rng`` in order of first use.
    """

    def __init__(self, d: int, T: int, alpha: float, node_std: float, rng: Optional[np.random.Generator],
                 reps: int = 1, *, depth: Optional[int] = None, node_noise: Optional[NodeNoise] = None,
                 incremental: bool = True) -> None:
        self.d = _int("d", d, 1)
        self.T = _int("T", T, 1)
        self.alpha = _alpha(alpha)
        self.node_std = _nonneg("node_std", node_std)
        self.reps = _int("reps", reps, 1)
        R = _depth(depth)
        if node_noise is None:
            require(isinstance(rng, np.random.Generator),
                    f"rng must be a numpy.random.Generator when node_noise is None, got {type(rng).__name__}")
        else:
            require(callable(node_noise), f"node_noise must be callable, got {type(node_noise).__name__}")
        self._rng = rng
        self._node_noise = node_noise
        self._beta = 1.0 - self.alpha
        # A cap at or above the tree height changes nothing: treat it as uncapped.
        self.depth = None if R is None or R >= self.T.bit_length() else R
        self.t = 0
        self._live: dict[int, tuple[int, np.ndarray]] = {}   # level -> (index, noise)
        self._acc: Optional[np.ndarray] = None                # capped mode: top-level blocks
        self._acc_blocks = 0
        self.nodes_drawn = 0
        self.peak_live = 0
        # Uncapped trees: keep NOISE_t as a running sum updated by the nodes that merge at
        # each step (amortised O(d) per step, flat in T) instead of re-summing the popcount(t)
        # nodes of COMPOSE(1, t); ``incremental=False`` re-sums (bit-exact with the offline
        # reference, O(d log T) per step).
        self.incremental = bool(incremental)
        self._S: Optional[np.ndarray] = None
        # beta^(2^b - 1), the weight at t - 1 of the level-b node that leaves at t
        self._coef = [self._beta ** ((1 << b) - 1) for b in range(self.T.bit_length() + 1)]

    # -- node management -------------------------------------------------------------
    def _draw(self, level: int, index: int) -> np.ndarray:
        self.nodes_drawn += 1
        if self._node_noise is not None:
            z = self._node_noise(level, index)
            if type(z) is not np.ndarray or z.dtype != np.float64:
                z = np.asarray(z, dtype=np.float64)
            if z.shape != (self.reps, self.d):    # checked before formatting: a hot path
                require(False, f"node_noise must return shape {(self.reps, self.d)}, got {z.shape}")
            return z
        return self._rng.standard_normal((self.reps, self.d)) * self.node_std  # type: ignore[union-attr]

    def _get(self, node: Node) -> np.ndarray:
        b = (node[1] - node[0] + 1).bit_length() - 1
        a = (node[0] - 1) >> b
        cur = self._live.get(b)
        if cur is None or cur[0] != a:
            # the previous node of this level has ended its window: replacing frees it
            cur = (a, self._draw(b, a))
            self._live[b] = cur
        return cur[1]

    @property
    def live_nodes(self) -> int:
        """Number of node-noise vectors (of shape (reps, d)) currently held."""
        return len(self._live) + (self._acc is not None)

    # -- stepping ------------------------------------------------------------------------
    def step(self) -> np.ndarray:
        """Advance to t + 1 and return NOISE_{t+1}, shape (reps, d)."""
        if self.t >= self.T:                     # checked before formatting: a hot path
            require(False, f"t must be <= T = {self.T}; the aggregator is exhausted")
        t = self.t = self.t + 1
        shape = (self.reps, self.d)
        if self.depth is None and self.incremental:
            return self._step_incremental(t, shape)
        if self.depth is None:
            nodes = compose(1, t)
            out = _weighted_sum(nodes, t, self._beta, self._get, shape)
            used = {(n[1] - n[0] + 1).bit_length() - 1 for n in nodes}
        else:
            top = self.depth - 1
            S = 1 << top
            J = t // S
            while self._acc_blocks < J:           # a top-level block completed at t = J S
                zeta = self._draw(top, self._acc_blocks)
                self._acc = zeta if self._acc is None else (self._beta ** S) * self._acc + zeta
                self._acc_blocks += 1
            out = np.zeros(shape, dtype=np.float64)
            if self._acc is not None:
                out += self._beta ** (t - J * S) * self._acc
            used = set()
            if t > J * S:
                nodes = compose(J * S + 1, t, depth=self.depth)
                out += _weighted_sum(nodes, t, self._beta, self._get, shape)
                used = {(n[1] - n[0] + 1).bit_length() - 1 for n in nodes}
        for lv in [lv for lv in self._live if lv not in used]:
            del self._live[lv]                     # window over: no later prefix uses it
        self.peak_live = max(self.peak_live, self.live_nodes)
        return out

    def _step_incremental(self, t: int, shape: tuple[int, int]) -> np.ndarray:
        """NOISE_t from NOISE_{t-1}: the k trailing ones of t - 1 are COMPOSE(1, t-1)'s nodes at
        levels 0..k-1 (ending at z_b = t - 2^b, weight beta^(2^b - 1) at t - 1); they leave,
        the new node [t - 2^k + 1, t] at level k enters, and every kept weight gains a beta:
        NOISE_t = beta (NOISE_{t-1} - sum_{b<k} beta^(2^b - 1) zeta_b) + zeta_new.
        Each node enters and leaves once, so the work is amortised O(d) per step."""
        k = (t & -t).bit_length() - 1               # trailing zeros of t
        S = self._S if self._S is not None else np.zeros(shape, dtype=np.float64)
        if k:
            # the same sum, in the same order, as accumulating from zeros (0 + x = x exactly)
            coef, live = self._coef, self._live
            removed = coef[0] * live.pop(0)[1]
            for b in range(1, k):
                removed += coef[b] * live.pop(b)[1]
            S = S - removed
        a = (t >> k) - 1                            # index of [a 2^k + 1, (a + 1) 2^k]
        zeta = self._draw(k, a)
        self._live[k] = (a, zeta)
        self._S = self._beta * S + zeta
        if len(self._live) > self.peak_live:        # live_nodes: no accumulator when uncapped
            self.peak_live = len(self._live)
        return self._S.copy()

    def __iter__(self) -> Iterator[np.ndarray]:
        while self.t < self.T:
            yield self.step()


def offline_tree_noise(T: int, d: int, alpha: float, node_noise: NodeNoise, reps: int = 1,
                       depth: Optional[int] = None) -> np.ndarray:
    """Reference for :class:`OnlineTreeAggregator`: pre-sample every node of I (levels < depth)
    up front, as Algorithm 1 prints, then evaluate NOISE_t for t = 1..T.

    Returns shape (T, reps, d). O(d T) memory: for tests and small T only.
    """
    TT = _int("T", T, 1)
    dim = _int("d", d, 1)
    al = _alpha(alpha)
    n = _int("reps", reps, 1)
    R = _depth(depth)
    table = {node: np.asarray(node_noise(*node_level(*node)), dtype=np.float64)
             for node in dyadic_intervals(TT, R)}
    out = np.empty((TT, n, dim))
    for t in range(1, TT + 1):
        out[t - 1] = _weighted_sum(compose(1, t, R), t, 1.0 - al, table.__getitem__, (n, dim))
    return out


def tree_prefix_sum_noise_std(t: int, alpha: float, node_std: float, depth: Optional[int] = None) -> float:
    """Per-coordinate std of NOISE_t for independent N(0, node_std^2) nodes:
    node_std * sqrt(sum_{[y,z] in COMPOSE(1,t)} (1-alpha)^{2(t-z)}) (catalog ``tran2022.alg1``
    derivation aid; E||NOISE_t||^2 = d times its square)."""
    tt = _int("t", t, 1)
    al = _alpha(alpha)
    s = _nonneg("node_std", node_std)
    return s * math.sqrt(math.fsum((1.0 - al) ** (2 * (tt - z)) for _, z in compose(1, tt, depth)))


def momentum_tree_sum(grads: np.ndarray, alpha: float, depth: Optional[int] = None) -> np.ndarray:
    """Momentum as a tree sum (tran2022 Sec. 3, catalog ``tran2022.momentum_tree``):

        m_t = sum_{[y,z] in COMPOSE(1,t)} (1-alpha)^{t-z} f_[y,z],
        f_[y,z] = alpha sum_{t'=y}^{z} (1-alpha)^{z-t'} g_{t'},

    which the paper states equals m_t = (1-alpha) m_{t-1} + alpha g_t with m_0 = 0.
    ``grads`` has shape [..., T, d]; returns m_1..m_T with the same shape. Node sums are
    built bottom-up (f_parent = (1-alpha)^{2^{b-1}} f_left + f_right).
    """
    g = np.asarray(grads, dtype=np.float64)
    require(g.ndim >= 2, f"grads must have shape [..., T, d] (ndim >= 2), got shape {g.shape}")
    al = _alpha(alpha)
    R = _depth(depth)
    T = g.shape[-2]
    require(T >= 1, f"grads must contain T >= 1 steps, got shape {g.shape}")
    beta = 1.0 - al
    levels = [al * g]                         # level 0: f_[t,t] = alpha g_t
    b = 1
    while (1 << b) <= T and (R is None or b < R):
        prev = levels[-1]
        n = prev.shape[-2] // 2
        left = prev[..., 0:2 * n:2, :]
        right = prev[..., 1:2 * n:2, :]
        levels.append(beta ** (1 << (b - 1)) * left + right)
        b += 1
    out = np.zeros_like(g)
    for t in range(1, T + 1):
        acc = np.zeros(g.shape[:-2] + g.shape[-1:])
        for y, z in compose(1, t, R):
            lv = (z - y + 1).bit_length() - 1
            acc += beta ** (t - z) * levels[lv][..., (y - 1) >> lv, :]
        out[..., t - 1, :] = acc
    return out
