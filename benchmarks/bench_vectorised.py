"""Benchmark: one vectorised run with reps = R vs R separate reps = 1 runs (same total work).

Not a test; run ``python benchmarks/bench_vectorised.py [--n 1000 --d 20 --T 500 --B 32
--reps 256]``. Algorithms: zhang2021 DP-SGD (constant step) and DP-EMSGD (Algorithm 2), on
the logistic-ridge family (n = 1000 > d = 20; the run functions are called directly, which
skips the assumption check: DP-EMSGD's theorem needs PL and one-point weak quasi-convexity,
irrelevant to timing). The separate runs use ``first_replicate = r`` so both ways compute the
same replicates; the script checks the outputs are identical. The privacy accountant is
warmed up first (its results are cached), so the times compare the simulation loops.
Wall time (perf_counter) and CPU time (process_time) are both printed: the machine may be
shared.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dptheory_simulations.algorithms import zhang2021 as z
from dptheory_simulations.objectives import get


def timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--d", type=int, default=20)
    ap.add_argument("--T", type=int, default=500)
    ap.add_argument("--B", type=int, default=32)
    ap.add_argument("--reps", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    obj = get("logistic-ridge", d=args.d)
    data = obj.make_data(args.n, args.seed)
    common = dict(eps=1.0, delta=1e-5, eta=0.05, T=args.T, B=args.B, c2=1.0, seed=args.seed)
    algs = [("DP-SGD-const", z.dpsgd_const, {}), ("DP-EMSGD (alg2)", z.dp_emsgd, {"varrho": 0.5})]

    print(f"n={args.n} d={args.d} T={args.T} B={args.B} reps={args.reps} "
          f"(objective {obj.name})")
    header = (f"{'algorithm':<16} {'vectorised wall':>16} {'separate wall':>14} {'ratio':>7}"
              f" {'vectorised cpu':>15} {'separate cpu':>13} {'ratio':>7} {'identical':>9}")
    print(header)
    for name, fn, extra in algs:
        fn(obj, data, reps=1, **common, **extra)                  # warm up (accountant cache)
        vec, w_vec, c_vec = timed(lambda: fn(obj, data, reps=args.reps, **common, **extra))
        sep, w_sep, c_sep = timed(lambda: [fn(obj, data, reps=1, first_replicate=r, **common,
                                              **extra) for r in range(args.reps)])
        same = np.array_equal(vec.w, np.concatenate([s.w for s in sep]))
        print(f"{name:<16} {w_vec:>15.3f}s {w_sep:>13.3f}s {w_sep / w_vec:>6.1f}x"
              f" {c_vec:>14.3f}s {c_sep:>12.3f}s {c_sep / c_vec:>6.1f}x {str(same):>9}")


if __name__ == "__main__":
    main()
