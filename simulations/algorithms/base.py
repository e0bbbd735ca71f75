"""The common interface of the algorithm simulators (issue 5).

Every algorithm of the five papers is an :class:`Algorithm` whose ``run`` has the signature

    run(objective, data, *, eps, delta, reps, seed, calibration="paper", record=None,
        first_replicate=0, **params) -> RunResult

and runs ``reps`` independent replicates at once: arrays carry a leading replicate axis and
one Python loop over steps drives all of them (vectorised over replicates).

Randomness is batching-invariant: replicate ``r`` draws only from its own stream,
``SeedSequence(seed, spawn_key=(r,))`` (see :class:`ReplicateStreams`), so replicates
10..19 of a run with reps=20 equal a run with reps=10 and first_replicate=10, and results
do not depend on worker count or batching.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from dptheory.symbolic.assumptions import Assumption
from ._seeding import generators, generators_of
from dptheory_simulations.objectives.base import check_positive  # noqa: F401 - shared by the simulators

CALIBRATIONS = ("paper", "tight")


# ---------------------------------------------------------------------------- randomness
class _Streams(dict):
    """``{kind: generators}`` whose entries are built by ``build(kind)`` on first access."""

    def __init__(self, build: Any) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, kind: str) -> list[np.random.Generator]:
        self[kind] = value = self._build(kind)
        return value


class ReplicateStreams:
    """Per-replicate random streams served in lockstep, vectorised over replicates.

    Replicate r owns one ``numpy.random.Generator`` per kind of draw (normal, uniform),
    seeded by ``SeedSequence(seed, spawn_key=(first_replicate + r, kind))``. Draws are
    buffered in blocks, so a request of shape ``s`` returns ``(reps, *s)`` values in which row
    r depends only on (seed, first_replicate + r, kind, number of earlier draws of that
    kind) — not on the block size, the number of replicates or how they are batched.
    """

    # "aux" generators are never buffered: for samplers that need a Generator themselves
    # (Gamma radii of the l2-Laplace law, spawned child generators).
    KINDS = ("normal", "uniform", "aux")

    def __init__(self, seed: int, reps: int, first_replicate: int = 0):
        check_reps(reps)
        if not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self.reps = int(reps)
        # about 32 MB of buffer per kind at most, whatever the number of replicates
        self.block = int(min(1 << 14, max(256, (1 << 22) // self.reps)))
        # the same streams as Generator(PCG64(SeedSequence(seed, spawn_key=(first + r, k)))),
        # hashed for all replicates at once; "aux" keeps NumPy's SeedSequence (it spawns).
        # Built on first use: most runs draw one kind only, and building a kind's
        # generators for thousands of replicates costs as much as a short run
        self._seed, self._first = int(seed), int(first_replicate)
        self.gens = _Streams(self._build)
        self._buf: dict[str, np.ndarray] = {}
        self._pos: dict[str, int] = {}

    def _build(self, kind: str) -> list[np.random.Generator]:
        """Every replicate's generator of stream ``kind`` (its index in KINDS is the key)."""
        k = self.KINDS.index(kind)
        if kind != "aux":
            if self._seed >> 64 or (self._first + self.reps - 1) >> 64:  # beyond uint64
                return generators([(self._seed, (self._first + r, k)) for r in range(self.reps)])
            rows = np.arange(self._first, self._first + self.reps, dtype=np.uint64)
            return generators_of(np.full(self.reps, self._seed, dtype=np.uint64),
                                 np.stack([rows, np.full(self.reps, k, dtype=np.uint64)], 1))
        return [np.random.Generator(np.random.PCG64(np.random.SeedSequence(
            self._seed, spawn_key=(self._first + r, k)))) for r in range(self.reps)]

    def _take(self, kind: str, count: int) -> np.ndarray:
        out = np.empty((self.reps, count))
        filled = 0
        while filled < count:
            buf = self._buf.get(kind)
            pos = self._pos.get(kind, 0)
            if buf is None or pos >= buf.shape[1]:
                if kind == "normal":
                    buf = np.stack([g.standard_normal(self.block) for g in self.gens[kind]])
                else:
                    buf = np.stack([g.random(self.block) for g in self.gens[kind]])
                self._buf[kind], pos = buf, 0
            k = min(count - filled, buf.shape[1] - pos)
            out[:, filled:filled + k] = buf[:, pos:pos + k]
            filled += k
            self._pos[kind] = pos + k
        return out

    def generator(self, r: int) -> np.random.Generator:
        """Replicate r's unbuffered "aux" generator (for samplers that need a Generator)."""
        return self.gens["aux"][r]

    @property
    def aux(self) -> list[np.random.Generator]:
        """One auxiliary generator per replicate, for draws other than the noise streams."""
        return self.gens["aux"]

    def normal(self, *shape: int) -> np.ndarray:
        """Standard normals of shape (reps, *shape)."""
        count = int(np.prod(shape)) if shape else 1
        return self._take("normal", count).reshape((self.reps, *shape))

    def uniform(self, *shape: int) -> np.ndarray:
        """Uniforms on [0, 1) of shape (reps, *shape)."""
        count = int(np.prod(shape)) if shape else 1
        return self._take("uniform", count).reshape((self.reps, *shape))

    def subsets(self, n: int, size: int, steps: int | None = None) -> np.ndarray:
        """(reps, size) uniform subsets of {0..n-1} without replacement (fresh per call).

        ``steps=K`` draws the subsets of K consecutive calls at once, (reps, K, size), equal to
        K calls in a row. Small subsets (4 size <= n): the first ``size`` swaps of a
        Fisher-Yates shuffle of the identity, from ``size`` uniforms, resolved without a
        Python loop (:func:`partial_fisher_yates`). Large subsets: argsort of n uniforms. The
        method depends only on (n, size), and every call is independent of the earlier ones,
        so results are batching-invariant and blocks of steps equal single steps.
        """
        if not (1 <= size <= n):
            raise ValueError(f"subset size must be in [1, n={n}], got {size}")
        K = 1 if steps is None else check_int("steps", steps)
        if 4 * size > n:
            out = np.argsort(self.uniform(K * n).reshape(self.reps, K, n), axis=2)[:, :, :size]
        else:
            u = self.uniform(K * size).reshape(self.reps * K, size)
            out = partial_fisher_yates(n, u).reshape(self.reps, K, size)
        return out[:, 0, :] if steps is None else out

    def permutations(self, n: int) -> np.ndarray:
        """(reps, n) uniform permutations of {0..n-1}."""
        return np.argsort(self.uniform(n), axis=1)

    def indices(self, n: int, size: int) -> np.ndarray:
        """(reps, size) i.i.d. uniform indices (sampling with replacement)."""
        return np.minimum((self.uniform(size) * n).astype(np.int64), n - 1)


def partial_fisher_yates(n: int, u: np.ndarray) -> np.ndarray:
    """Rows of ``size`` distinct indices: the first ``size`` swaps of a Fisher-Yates shuffle
    of 0..n-1, one shuffle per row of the uniforms ``u`` (rows, size).

    Swap j (j = 0..size-1) exchanges positions j and k_j = j + floor(u_j (n - j)) (capped at
    n - 1); the result is positions 0..size-1 afterwards, a uniform subset in uniform order.
    The swaps are resolved without a Python loop. With A_j the value at position j just
    before swap j (swap j moves A_j to position k_j; no later swap touches position j):

    * out_j = the value at k_j before swap j = A_i for the latest i < j with k_i = k_j,
      else k_j (nothing moved there yet);
    * A_j = A_i for the latest i < j with k_i = j (only i <= j can have k_i = j), else j.

    One sort of (k_i, i) per row finds each swap's latest earlier swap with the same target,
    and the last swap into each position; the chains A_j = A_i = ... are followed by pointer
    jumping (they are short: a chain needs k_i < size, which has probability < size/n).
    """
    rows, size = u.shape
    # int32 wherever every intermediate fits (k * size + j < n * size): half the memory
    # traffic of int64 on these (rows, size) passes; the result is int64 either way
    it = np.int32 if n * size < 2**31 else np.int64
    j = np.arange(size, dtype=it)
    k = j + np.minimum((u * (n - j)).astype(it), (n - 1 - j).astype(it))
    sv = np.sort(k * it(size) + j, axis=1)                  # swaps by (k_i, i)
    srt, ks = sv % it(size), sv // it(size)
    r_rep, s_idx = np.nonzero(ks[:, 1:] == ks[:, :-1])      # srt[:, s+1] repeats srt[:, s]
    j_rep = srt[r_rep, s_idx + 1]                           # the swaps j with a prev
    prev = np.full((rows, size), -1, dtype=it)              # latest i < j with k_i = k_j
    prev[r_rep, j_rep] = srt[r_rep, s_idx]
    last = np.ones((rows, size), dtype=bool)                # no later i with k_i = k_j
    last[r_rep, srt[r_rep, s_idx]] = False
    # parent_j = latest i < j with k_i = j: the last swap into position j, or the one
    # before it when that is swap j itself (k_j = j)
    r_idx, i_idx = np.nonzero(last & (k < size))
    target = k[r_idx, i_idx]
    parent = np.where(i_idx < target, i_idx, prev[r_idx, i_idx])
    # A_j = j where j has no parent; else follow parents to a root by pointer jumping, on
    # the entries with a parent only (a few per row: the rest are their own roots)
    A = np.broadcast_to(j, (rows, size)).copy()
    has = parent >= 0
    r_idx, t_idx = r_idx[has], target[has]
    A[r_idx, t_idx] = parent[has]
    while r_idx.size:
        nxt = A[r_idx, A[r_idx, t_idx]]
        moved = nxt != A[r_idx, t_idx]          # a fixed point is a root (parents decrease)
        A[r_idx, t_idx] = nxt
        r_idx, t_idx = r_idx[moved], t_idx[moved]
    out = k.astype(np.int64)
    out[r_rep, j_rep] = A[r_rep, prev[r_rep, j_rep]]
    return out


# ---------------------------------------------------------------------------- validation
def check_reps(reps: Any) -> int:
    """``reps`` as an int; ``ValueError`` unless an integer >= 1."""
    if isinstance(reps, bool) or not isinstance(reps, (int, np.integer)) or reps < 1:
        raise ValueError(f"reps must be an integer >= 1, got {reps!r}")
    return int(reps)


def check_int(name: str, value: Any, lo: int = 1, hi: int | None = None) -> int:
    """An integer parameter in [lo, hi] (hi None: no upper limit)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo \
            or (hi is not None and value > hi):
        rng = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise ValueError(f"{name} must be an integer {rng}, got {value!r}")
    return int(value)


def check_w0(w0: Any, d: int) -> np.ndarray:
    """The start point: zeros by default, else a finite vector of shape (d,)."""
    if w0 is None:
        return np.zeros(d)
    w = np.asarray(w0, dtype=np.float64)
    if w.shape != (d,) or not np.all(np.isfinite(w)):
        raise ValueError(f"w0 must be a finite vector of shape ({d},), got shape {w.shape}")
    return w


def check_privacy(eps: Any, delta: Any, *, allow_zero_delta: bool = False) -> tuple[float, float]:
    """``(eps, delta)`` as floats; ``ValueError`` unless eps > 0 is finite and delta in
    (0, 1) (or [0, 1) with ``allow_zero_delta``)."""
    try:
        eps = float(eps)
        delta = float(delta)
    except (TypeError, ValueError):
        raise ValueError(f"eps and delta must be numbers, got eps={eps!r}, delta={delta!r}") from None
    if not (np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be > 0, got {eps}")
    lo_ok = delta >= 0 if allow_zero_delta else delta > 0
    if not (lo_ok and delta < 1):
        interval = "[0, 1)" if allow_zero_delta else "(0, 1)"
        raise ValueError(f"delta must be in {interval}, got {delta}")
    return eps, delta


def check_calibration(calibration: str) -> str:
    """``calibration`` unchanged; ``ValueError`` unless one of :data:`CALIBRATIONS`."""
    if calibration not in CALIBRATIONS:
        raise ValueError(f"calibration must be one of {CALIBRATIONS}, got {calibration!r}")
    return calibration


def check_assumptions(algorithm: "Algorithm", objective: Any, data: Any) -> None:
    """Refuse an objective that does not declare an assumption the theorem needs."""
    have = {type(a) for a in objective.assumptions(data)}
    missing = [t.__name__ for t in algorithm.requires if t not in have]
    if missing:
        raise ValueError(f"objective {objective.name!r} does not declare {', '.join(missing)}, "
                         f"which {algorithm.theorem or algorithm.id} assumes")


# ---------------------------------------------------------------------------- privacy
#: the simulators' two-sided accounting: lower end within ~5% (coarser for very long runs,
#: never finer than 1e-4 in privacy loss, at most 3e4 grid points per one-step PLD), so a
#: run pays a fraction of a second for it (cached per mechanism)
INTERVAL_RTOL = 0.05
INTERVAL_FINEST = 1e-4
INTERVAL_POINTS = 30_000


def two_sided(event: Any, delta: float, *, relation: str | None = None,
              attained: bool = True) -> dict[str, Any]:
    """Certified ``[epsilon_lower, epsilon_upper]`` of the mechanism a run implemented.

    Every simulator describes the noise it actually used as privacy events
    (:mod:`dptheory.privacy.events`) and this one function accounts them with the two-sided
    accountant (:func:`dptheory.privacy.tight.epsilon_interval`); the keys go into
    ``RunResult.privacy["tight"]``. ``attained=False`` when the events' sensitivities are
    upper bounds no pair of datasets is known to attain (then only the upper end is
    certified). A failure of the accountant is reported as ``interval_error``, never as a
    number.
    """
    from dptheory.privacy.tight import TightAccountingError, epsilon_interval
    try:
        iv = epsilon_interval(event, delta, relation=relation, rtol=INTERVAL_RTOL,
                              min_discretization=INTERVAL_FINEST, attained=attained,
                              max_points=INTERVAL_POINTS)
    except TightAccountingError as exc:
        return {"epsilon_lower": None, "epsilon_upper": None, "interval_error": str(exc)}
    d = iv.as_dict()
    return {"epsilon_lower": d["epsilon_lower"], "epsilon_upper": d["epsilon_upper"],
            "interval_method": d["method"], "relation": d["relation"],
            "certified": d["certified"]}


def sampled_steps(rate: float, multiplier: float, steps: int, sampling: str = "fixed-size") -> Any:
    """``steps`` compositions of a Gaussian with noise multiplier ``multiplier`` on a batch
    sampled at ``rate`` (the full batch when rate = 1), as an event."""
    from dptheory.privacy.calibrate import schedule_event
    return schedule_event(multiplier, rate, int(steps), sampling)


# ---------------------------------------------------------------------------- results
@dataclass
class RunResult:
    """What a run returns.

    ``w``: output iterates (reps, d). ``metrics``: the quantities the theorems bound, each an
    array over replicates (``excess_risk``, ``grad_norm``, ``grad_norm_sq``, ``lambda_min``,
    ``sosp`` where relevant). ``privacy``: the guarantee by the paper's route and by the tight
    accountant, ``{"paper": {...}, "tight": {...}}`` with at least ``epsilon`` and ``delta``.
    ``noise``: the calibrated noise parameters. ``params``: schedules and settings used.
    ``grad_evals``: per-sample gradient evaluations per replicate. ``trajectory``: thinned
    records when ``record`` was given (``t``, ``w``, and the seconds since step 0 ``time``
    and ``cpu_time``). ``wall_time``: seconds spent in the algorithm itself
    (``cpu_time``: its process CPU seconds); ``metric_time``: seconds spent evaluating the
    metrics, progress monitors that need full gradients and minimiser searches (not part of
    the algorithm). ``series``: per-replicate
    per-step quantities (reps, steps) from which metrics defined across replicates are
    computed after pooling batches (e.g. yang2022's min_t E||grad F(w_t)||).
    """

    algorithm: str
    w: np.ndarray
    metrics: dict[str, np.ndarray]
    privacy: dict[str, dict[str, Any]]
    noise: dict[str, float]
    params: dict[str, Any]
    grad_evals: float
    wall_time: float
    trajectory: dict[str, np.ndarray] | None = None
    seed: int = 0
    first_replicate: int = 0
    metric_time: float = 0.0
    cpu_time: float = 0.0
    series: dict[str, np.ndarray] | None = None

    def summary(self) -> dict[str, Any]:
        """JSON-friendly summary: means and standard errors over replicates."""
        def stat(a: np.ndarray) -> dict[str, float]:
            a = np.asarray(a, dtype=float)
            se = float(a.std(ddof=1) / np.sqrt(a.size)) if a.size > 1 else float("nan")
            return {"mean": float(a.mean()), "se": se, "min": float(a.min()), "max": float(a.max())}
        return {"algorithm": self.algorithm, "reps": int(self.w.shape[0]),
                "metrics": {k: stat(v) for k, v in self.metrics.items()},
                "privacy": self.privacy, "noise": self.noise,
                "params": {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                           for k, v in self.params.items()},
                "grad_evals": self.grad_evals, "wall_time": self.wall_time,
                "metric_time": self.metric_time, "cpu_time": self.cpu_time,
                "seed": self.seed}


def metrics_at(objective: Any, data: Any, W: np.ndarray, *, second_order: bool = False,
               alpha: float | None = None, rho: float | None = None) -> dict[str, np.ndarray]:
    """The theorems' measured quantities at the output iterates W (reps, d)."""
    m = objective.minimum(data)
    F = np.atleast_1d(objective.F(W, data))
    g = np.atleast_1d(objective.grad_norm(W, data))
    out = {"excess_risk": F - m.value, "grad_norm": g, "grad_norm_sq": g**2, "F": F}
    if second_order:
        lam = np.atleast_1d(objective.lambda_min(W, data))
        out["lambda_min"] = lam
        if alpha is not None and rho is not None:
            out["sosp"] = ((g <= alpha) & (lam >= -np.sqrt(rho * alpha))).astype(float)
    return out


class Recorder:
    """Thinned, timestamped trajectory: keeps every ``every``-th iterate (memory independent of
    T otherwise) with the wall-clock and process CPU seconds since the first record (step 0),
    for gap-vs-time curves. The times are the algorithm's own: metrics are evaluated from
    the recorded iterates after the run."""

    def __init__(self, record: int | None):
        if record is not None and (not isinstance(record, (int, np.integer)) or record < 1):
            raise ValueError(f"record must be a positive integer (keep every record-th step), got {record!r}")
        self.every = record
        self.steps: list[int] = []
        self.values: list[np.ndarray] = []
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, t: int, W: np.ndarray) -> None:
        if self.every is not None and t % self.every == 0:
            now, cpu = time.perf_counter(), time.process_time()
            if not self.steps:
                self._t0, self._c0 = now, cpu
            self.steps.append(t)
            self.values.append(W.copy())
            self.wall.append(now - self._t0)
            self.cpu.append(cpu - self._c0)

    def result(self) -> dict[str, np.ndarray] | None:
        """The recorded iterates, ``{"t": steps, "w": (reps, len(t), d)}``; None when not recording."""
        if self.every is None:
            return None
        return {"t": np.array(self.steps), "w": np.stack(self.values, axis=1) if self.values
                else np.empty((0,)), "time": np.array(self.wall), "cpu_time": np.array(self.cpu)}


class Timer:
    """Wall-clock (``elapsed``) and process CPU (``cpu``) seconds, accumulated over every
    ``with`` block (e.g. a monitor inside a loop)."""

    def __init__(self) -> None:
        self.elapsed = 0.0
        self.cpu = 0.0

    def __enter__(self) -> "Timer":
        self.start = time.perf_counter()
        self.start_cpu = time.process_time()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.elapsed += time.perf_counter() - self.start
        self.cpu += time.process_time() - self.start_cpu


def block_steps(steps: int, reps: int, per_step: int) -> int:
    """Steps per block of pre-drawn randomness (``per_step`` numbers per replicate and step):
    at most 2^21 numbers (16 MiB) per block. Streams are sequential, so a block of draws
    equals the same draws made step by step."""
    return max(1, min(steps, (1 << 21) // (reps * per_step)))


def weighted_batch_sum(G: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """sum_b weights[r, b] G[r, b] of per-sample gradients G (reps, B, d): (reps, d)."""
    return np.einsum("rb,rbd->rd", weights, G)


def clip_factors(G: np.ndarray, C: float) -> np.ndarray:
    """yang2022 eq. (2)'s per-sample factors min{1, C/||g_b||} (1 at g_b = 0): (reps, B).

    The same factors as ``dptheory.privacy.samplers.clip_per_sample``, without building the
    clipped (reps, B, d) copy; C = inf gives all ones.
    """
    norms = np.sqrt(np.einsum("rbd,rbd->rb", G, G))
    if math.isinf(C):
        return np.ones_like(norms)
    return np.where(norms > C, C / np.where(norms > 0, norms, 1.0), 1.0)


def normalize_factors(G: np.ndarray, r: float) -> np.ndarray:
    """yang2022 eq. (3)'s per-sample factors 1/(||g_b|| + r), r > 0: (reps, B)."""
    return 1.0 / (np.sqrt(np.einsum("rbd,rbd->rb", G, G)) + r)


# ---------------------------------------------------------------------------- registry
@dataclass(frozen=True)
class Algorithm:
    """An algorithm of a paper (or a baseline it compares against)."""

    id: str                                     # "zhang2021.alg1", "zhang2021.dpsgd-const", ...
    paper: str
    title: str
    run: Callable[..., RunResult]
    theorem: str = ""                           # the utility theorem it is checked against
    privacy_theorem: str = ""
    requires: tuple[type[Assumption], ...] = ()
    private: bool = True
    baseline: bool = False
    notes: str = ""

    def __call__(self, objective: Any, data: Any, **kwargs: Any) -> RunResult:
        check_assumptions(self, objective, data)
        return self.run(objective, data, **kwargs)

    def summary(self) -> dict[str, Any]:
        """One row of ``dptheory algorithms``: id, paper, title, theorems, privacy, needs."""
        return {"id": self.id, "paper": self.paper, "title": self.title, "theorem": self.theorem,
                "privacy_theorem": self.privacy_theorem, "private": self.private,
                "baseline": self.baseline,
                "requires": [t.__name__ for t in self.requires]}
