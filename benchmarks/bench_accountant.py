"""Benchmark: the tight (two-sided, PLD) accountant next to the RDP path, T = 1e3 .. 1e6.

The Poisson-subsampled Gaussian (q = 0.001, noise multiplier 1.0, delta = 1e-5, add/remove)
is accounted for T = 10^3, 10^4, 10^5 and 10^6 steps by

* ``rdp``: :func:`dptheory.privacy.get_epsilon` (RDP, improved conversion over the orders);
* ``tight-upper``: the certified upper end alone (dp-accounting's pessimistic PLD), what
  ``calibrate --accountant tight`` evaluates per bisection step;
* ``tight``: both ends (:func:`dptheory.privacy.get_epsilon_interval`), what
  ``dptheory account --tight`` prints.

CPU time (``time.process_time``) per call, caches cleared before every call; the rounds are
interleaved (every method at every T in each round) so that load from other processes hits
all of them alike; min and median over the rounds are printed with the ratio to RDP.

    python benchmarks/bench_accountant.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from dptheory.privacy import get_epsilon, get_epsilon_interval, rdp, tight
from dptheory.privacy.calibrate import schedule_event

Q, SIGMA, DELTA = 0.001, 1.0, 1e-5
STEPS = (1_000, 10_000, 100_000, 1_000_000)


def _clear() -> None:
    tight._interval_cached.cache_clear()
    tight._upper_cached.cache_clear()
    rdp._log_forward_diffs.cache_clear()


def _rdp(T: int) -> str:
    return f"{get_epsilon(noise_multiplier=SIGMA, target_delta=DELTA, sample_rate=Q, steps=T):.4g}"


def _upper(T: int) -> str:
    return f"{tight.epsilon_upper(schedule_event(SIGMA, Q, T), DELTA):.4g}"


def _interval(T: int) -> str:
    iv = get_epsilon_interval(noise_multiplier=SIGMA, target_delta=DELTA, sample_rate=Q, steps=T)
    return f"[{iv.lower:.4g}, {iv.upper:.4g}]"


METHODS = {"rdp": _rdp, "tight-upper": _upper, "tight": _interval}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    times = {(m, T): [] for m in METHODS for T in STEPS}
    values = {}
    _interval(10)                      # import dp-accounting outside the timed calls
    for _ in range(args.rounds):
        for T in STEPS:
            for m, fn in METHODS.items():
                _clear()
                t0 = time.process_time()
                values[(m, T)] = fn(T)
                times[(m, T)].append(time.process_time() - t0)
    print(f"q = {Q}, noise multiplier {SIGMA}, delta = {DELTA:g}; CPU seconds per call, "
          f"{args.rounds} interleaved rounds (min / median)")
    print(f"{'T':>9}  {'method':<12} {'min':>8} {'median':>8} {'x RDP (median)':>15}  epsilon")
    for T in STEPS:
        base = statistics.median(times[("rdp", T)])
        for m in METHODS:
            ts = times[(m, T)]
            med = statistics.median(ts)
            print(f"{T:>9}  {m:<12} {min(ts):8.3f} {med:8.3f} {med / base:15.1f}  "
                  f"{values[(m, T)]}")


if __name__ == "__main__":
    main()
