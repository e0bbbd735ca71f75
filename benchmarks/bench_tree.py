"""Benchmark: per-step cost and memory of the online tree aggregator (tran2022 Algorithm 1
noise) as the horizon T grows. Not a test; run ``python benchmarks/bench_tree.py``.

For each T the aggregator runs through the whole horizon (d = 100, reps = 1) and we time a
fixed window of the last W steps (median CPU time over 10 chunks); O(d log T) per step predicts ratios growing like
log2 T / log2 T_0, not like T / T_0. Memory is reported as the peak number of live node
vectors (each reps x d float64), to compare with floor(log2 T) + 1.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from dptheory.privacy.tree import OnlineTreeAggregator


def run(T: int, d: int, window: int, seed: int) -> dict:
    agg = OnlineTreeAggregator(d, T, alpha=0.01, node_std=1.0, rng=np.random.default_rng(seed))
    # CPU time of this process (process_time), not wall time: the benchmark machine is shared,
    # and the window is split into 10 chunks whose median per-step time is reported.
    t0 = time.process_time()
    for _ in range(T - window):
        agg.step()
    chunks = []
    size = max(1, window // 10)
    done = 0
    while done < window:
        n = min(size, window - done)
        c0 = time.process_time()
        for _ in range(n):
            agg.step()
        chunks.append((time.process_time() - c0) / n)
        done += n
    t2 = time.process_time()
    # nodes summed per step in the window = popcount(t); cost per node should stay flat
    nodes = float(np.mean([bin(t).count("1") for t in range(T - window + 1, T + 1)]))
    return {"nodes_per_step": nodes, "us_per_node": 1e6 * float(np.median(chunks)) / nodes,"T": T, "log2T": math.log2(T), "window_us_per_step": 1e6 * float(np.median(chunks)),
            "all_us_per_step": 1e6 * (t2 - t0) / T, "peak_live": agg.peak_live,
            "peak_bytes": agg.peak_live * d * 8, "nodes_drawn": agg.nodes_drawn, "total_s": t2 - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--d", type=int, default=100)
    ap.add_argument("--window", type=int, default=2000)
    ap.add_argument("--exponents", type=int, nargs="+", default=[10, 14, 17, 20])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = [run(2**e, args.d, min(args.window, 2**e), args.seed) for e in args.exponents]
    base = rows[0]
    print(f"online tree aggregator, d={args.d}, reps=1, window={args.window} last steps")
    print(f"{'T':>9} {'log2T':>6} {'us/step(win)':>13} {'ratio':>6} {'log2 ratio':>10} {'T ratio':>8} "
          f"{'nodes/step':>10} {'us/node':>8} {'us/step(all)':>13} {'peak live':>9} {'floor(log2T)+1':>14} {'peak KiB':>9} {'drawn':>8} {'total s':>8}")
    for r in rows:
        print(f"{r['T']:>9} {r['log2T']:>6.0f} {r['window_us_per_step']:>13.2f} "
              f"{r['window_us_per_step'] / base['window_us_per_step']:>6.2f} {r['log2T'] / base['log2T']:>10.2f} "
              f"{r['T'] / base['T']:>8.0f} {r['nodes_per_step']:>10.2f} {r['us_per_node']:>8.2f} {r['all_us_per_step']:>13.2f} {r['peak_live']:>9} "
              f"{int(math.log2(r['T'])) + 1:>14} {r['peak_bytes'] / 1024:>9.2f} {r['nodes_drawn']:>8} {r['total_s']:>8.1f}")


if __name__ == "__main__":
    main()
