"""Benchmark: the two-sided (tight) accountant against dp-accounting's PLD, side by side.

Grid: noise multiplier sigma in {0.6, 0.8, 1.1, 2, 4} x sampling rate q in {0.001, 0.004,
0.01, 0.05, 0.1} x steps T in {10^3, 10^4} (50 Poisson-subsampled settings, add/remove,
delta = 1e-5). Per setting, CPU time (``time.process_time``) of

* ``dpa``: dp-accounting's ``PLDAccountant`` at its default discretisation (1e-4): the
  pessimistic PLD alone, an upper end;
* ``prv``: the PRV accountant (``prv_accountant``, eps_error 0.01), when installed;
* ``upper``: :func:`dptheory.privacy.tight.epsilon_upper` (the same discretisation);
* ``both``: :func:`dptheory.privacy.tight.epsilon_interval` (both certified ends, rtol 0.01),
  what ``dptheory account --tight`` prints.

Caches are cleared before every call; each setting's methods run back to back in every
round (load from other processes hits them alike); the median over rounds is kept. Printed
per setting: the times as ratios to ``dpa`` (and to ``prv``), the upper ends' relative
difference to dp-accounting's (the same accuracy: both are pessimistic PLDs at 1e-4) and the
interval's relative width (upper - lower) / upper; then the medians and worst cases. With
``--long`` the lower end at long compositions (T = 10^5, 10^6) is timed too.

    python benchmarks/bench_accountant.py [--rounds 1] [--long]
"""

from __future__ import annotations

import argparse
import statistics
import time

from dptheory.privacy import pld, tight
from dptheory.privacy.calibrate import schedule_event

SIGMAS = (0.6, 0.8, 1.1, 2.0, 4.0)
RATES = (0.001, 0.004, 0.01, 0.05, 0.1)
STEPS = (1_000, 10_000)
DELTA = 1e-5


def _clear() -> None:
    tight._interval_cached.cache_clear()
    tight._upper_cached.cache_clear()
    tight._symmetrized_cached.cache_clear()
    pld._grid.cache_clear()
    pld.upper_pmf.cache_clear()
    pld.lower_pmf.cache_clear()


def _dpa(s: float, q: float, T: int) -> float:
    import dp_accounting as dpa
    acc = dpa.pld.PLDAccountant()
    acc.compose(dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)), T))
    return acc.get_epsilon(DELTA)


def _prv_available() -> bool:
    try:
        import prv_accountant  # noqa: F401
    except ImportError:
        return False
    return True


def _prv(s: float, q: float, T: int) -> float:
    from prv_accountant import Accountant
    acc = Accountant(noise_multiplier=s, sampling_probability=q, delta=DELTA,
                     max_steps=T, eps_error=0.01)
    return acc.compute_epsilon(num_steps=T)[2]


def _upper(s: float, q: float, T: int) -> float:
    return tight.epsilon_upper(schedule_event(s, q, T), DELTA)


def _both(s: float, q: float, T: int) -> tuple[float, float]:
    iv = tight.epsilon_interval(schedule_event(s, q, T), DELTA)
    return iv.lower, iv.upper


def _timed(fn, *args):
    _clear()
    t0 = time.process_time()
    out = fn(*args)
    return time.process_time() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--long", action="store_true", help="also time T = 1e5 and 1e6")
    args = ap.parse_args()
    methods = {"dpa": _dpa, "upper": _upper, "both": _both}
    if _prv_available():
        methods["prv"] = _prv
    _both(1.0, 0.01, 10)                       # imports outside the timed calls
    _dpa(1.0, 0.01, 10)
    rows = []
    print(f"delta = {DELTA:g}, Poisson add/remove; CPU s per call (median of {args.rounds}); "
          f"ratios to dp-accounting's PLD" + (" and PRV" if "prv" in methods else
                                                " (prv_accountant not installed)"))
    head = (f"{'sigma':>5} {'q':>6} {'T':>6} {'dpa s':>7} {'upper x':>8} {'both x':>7}"
            + (f" {'both/prv':>8}" if "prv" in methods else "")
            + f"  {'upper vs dpa':>12} {'width':>9}  interval")
    print(head)
    for s in SIGMAS:
        for q in RATES:
            for T in STEPS:
                times = {m: [] for m in methods}
                vals = {}
                for _ in range(args.rounds):
                    for m, fn in methods.items():
                        t, v = _timed(fn, s, q, T)
                        times[m].append(t)
                        vals[m] = v
                t = {m: statistics.median(ts) for m, ts in times.items()}
                lo, up = vals["both"]
                r = {"s": s, "q": q, "T": T, "dpa": t["dpa"], "upper_x": t["upper"] / t["dpa"],
                     "both_x": t["both"] / t["dpa"],
                     "up_diff": (vals["upper"] - vals["dpa"]) / vals["dpa"],
                     "width": (up - lo) / up, "lo": lo, "up": up}
                if "prv" in methods:
                    r["both_prv"] = t["both"] / t["prv"]
                rows.append(r)
                print(f"{s:>5} {q:>6} {T:>6} {t['dpa']:7.3f} {r['upper_x']:8.2f} "
                      f"{r['both_x']:7.2f}"
                      + (f" {r['both_prv']:8.2f}" if "prv" in methods else "")
                      + f"  {r['up_diff']:12.2e} {r['width']:9.2e}  [{lo:.6g}, {up:.6g}]",
                      flush=True)
    print()
    for key, name in (("upper_x", "upper end / dp-accounting PLD"),
                      ("both_x", "both ends / dp-accounting PLD"),
                      ("both_prv", "both ends / PRV accountant"),
                      ("width", "interval width (upper - lower) / upper"),
                      ("up_diff", "upper end vs dp-accounting (relative)")):
        if key not in rows[0]:
            continue
        xs = [r[key] for r in rows]
        worst = max(rows, key=lambda r: abs(r[key]))
        print(f"{name:<42} median {statistics.median(xs):9.3g}   worst {worst[key]:9.3g} "
              f"(sigma {worst['s']}, q {worst['q']}, T {worst['T']})")
    if args.long:
        print("\nlong compositions (both ends, CPU s per call):")
        for s, q, T in ((1.0, 0.001, 100_000), (2.0, 0.01, 100_000), (1.0, 0.001, 1_000_000)):
            t, (lo, up) = _timed(_both, s, q, T)
            td, e = _timed(_dpa, s, q, T)
            print(f"  sigma {s}, q {q}, T {T}: [{lo:.6g}, {up:.6g}] width "
                  f"{(up - lo) / up:.2e}, {t:.2f} s (dp-accounting PLD {e:.6g}, {td:.2f} s)")


if __name__ == "__main__":
    main()
