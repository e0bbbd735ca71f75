"""Benchmark: per-step time and memory of tran2022 Algorithm 1's noise + momentum step
(``dptheory_simulations.algorithms.tran2022``: keyed node noise fed to ``OnlineTreeAggregator``, then
m_t = (1-alpha) m_{t-1} + alpha g_t, m_hat_t = m_t + NOISE_t, normalized direction) at
T = 2^10 and T = 2^20. Not a test; run ``python benchmarks/bench_tree_momentum.py``.

For each T we time a window of the last W steps (median CPU time per step over 10 chunks).
Node noise is keyed by (replicate key, level, index), so NOISE_t does not depend on how the
aggregator reached t: by default the aggregator is fast-forwarded to t0 = T - W instead of
stepping through the whole horizon (``--full`` steps through it; ~1 min at 2^20). The
incremental aggregator's state at t0 is its running sum NOISE_t0 and the live node of each
level of COMPOSE(1, t0); :func:`fast_forward` rebuilds both from the keyed nodes.
Gradients are random vectors (the per-sample gradient cost is the objective's, not the
tree's). Memory: peak number of live node vectors (each reps x d float64) — O(log T) —
and the bytes they hold plus the keyed-noise chunk cache.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dptheory.privacy.tree import OnlineTreeAggregator, compose, node_level
from dptheory_simulations.algorithms.base import ReplicateStreams
from dptheory_simulations.algorithms.tran2022 import KeyedNormals, _node_keys, _normalized


def fast_forward(agg: OnlineTreeAggregator, t0: int, node_noise) -> None:
    """Put ``agg`` in the state it has after t0 steps (uncapped, incremental mode): the live
    node of each level in COMPOSE(1, t0) and NOISE_t0 = sum beta^(t0 - z) zeta_[y, z]."""
    agg.t, agg._live = t0, {}
    S = np.zeros((agg.reps, agg.d))
    for y, z in compose(1, t0) if t0 > 0 else []:
        b, a = node_level(y, z)
        zeta = node_noise(b, a)
        agg._live[b] = (a, zeta)
        S += (1.0 - agg.alpha) ** (t0 - z) * zeta
    agg._S = S if t0 > 0 else None


def run(T: int, d: int, reps: int, window: int, full: bool, seed: int = 0) -> dict:
    alpha, node_std = 0.01, 1.0
    keyed = KeyedNormals(_node_keys(ReplicateStreams(seed, reps)), d, family=0)
    def node_noise(b, a):
        return node_std * keyed(b, a)
    agg = OnlineTreeAggregator(d, T, alpha, node_std, None, reps, node_noise=node_noise)
    g = np.random.default_rng(seed).standard_normal((64, reps, d))
    m = np.zeros((reps, d))
    if full:
        for _ in range(T - window):
            agg.step()
    else:
        fast_forward(agg, T - window, node_noise)   # keyed noise: the same state as stepping
    chunks, size, done = [], max(1, window // 10), 0
    while done < window:
        n = min(size, window - done)
        c0 = time.process_time()
        for k in range(n):
            noise = agg.step()
            m = (1.0 - alpha) * m + alpha * g[k % 64]
            _normalized(m + noise)
        chunks.append((time.process_time() - c0) / n)
        done += n
    cache = sum(st[2].nbytes for st in keyed._streams.values() if st[2] is not None)
    return {"T": T, "us_per_step": 1e6 * float(np.median(chunks)), "peak_live": agg.peak_live,
            "live_bytes": agg.peak_live * reps * d * 8, "cache_bytes": cache,
            "log2T": T.bit_length() - 1}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--d", type=int, default=100)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--window", type=int, default=4096)
    ap.add_argument("--full", action="store_true", help="step through the whole horizon")
    a = ap.parse_args()
    small = run(2**10, a.d, a.reps, min(a.window, 2**10), a.full)
    large = run(2**20, a.d, a.reps, a.window, a.full)
    print(f"tran2022 Algorithm 1 noise+momentum step, d = {a.d}, reps = {a.reps}, "
          f"window = last {min(a.window, 2**10)} / {a.window} steps, "
          f"{'full horizon' if a.full else 'fast-forwarded (keyed noise)'}")
    print(f"{'':26s}{'T = 2^10':>14s}{'T = 2^20':>14s}{'ratio':>10s}")
    rows = [("time per step [us]", "us_per_step", "{:.1f}"), ("peak live nodes", "peak_live", "{:d}"),
            ("live node bytes", "live_bytes", "{:d}"), ("noise chunk cache bytes", "cache_bytes", "{:d}"),
            ("log2 T", "log2T", "{:d}")]
    for label, key, fmt in rows:
        r = large[key] / small[key] if small[key] else float("nan")
        print(f"{label:26s}{fmt.format(small[key]):>14s}{fmt.format(large[key]):>14s}{r:>10.2f}")
    print("O(d log T) predicts ratio ~ log2 ratio = 2.0 for time and live nodes (vs 1024 for O(T)).")


if __name__ == "__main__":
    main()
