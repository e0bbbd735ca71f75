"""Empirical against theoretical rate: a custom sweep with the theorem's bound beside it.

Runs zhang2017's output-perturbation gradient descent (Algorithm 1) on a strongly convex
logistic-ridge family over a grid of n, draws the mean excess empirical risk with 95% error
bars beside Theorem 2's bound at each point, and prints the fitted slope against the
stated rate's exponent in n (-2: ``G^2 beta d^2 / (eps^2 mu^2 n^2)``, zhang2017 Theorem 2).

Usage::

    python examples/rate_plot.py [--small] [--out DIR] [--n-jobs K]

``--small`` runs a tiny grid (what the test suite does); the figure is written to
``DIR/rate_plot.png``. The sweep's cells are stored in ``DIR/rate_plot.sqlite``: rerunning
the same command resumes an interrupted sweep instead of starting over.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from matplotlib.figure import Figure   # a Figure without pyplot: no backend is chosen

import dptheory


def main(argv: list[str] | None = None) -> dict:
    """Run the sweep, save the figure, print and return the fitted and stated exponents."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--small", action="store_true", help="a tiny grid (seconds)")
    parser.add_argument("--out", type=Path, default=Path("."), help="output folder")
    parser.add_argument("--n-jobs", type=int, default=1, help="workers (-1: all cores)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    ns = [64, 128, 256] if args.small else [64, 128, 256, 512, 1024, 2048]
    reps = 4 if args.small else 32
    result = dptheory.sweep(
        "zhang2017.alg1", ("logistic-ridge", {"d": 3}), vary={"n": ns}, reps=reps,
        fixed={"eps": 1.0, "delta": 0.0}, theorem="zhang2017.thm2.eps", seed=0,
        n_jobs=args.n_jobs, store=args.out / "rate_plot.sqlite", progress=False)

    for row in result.summary():
        print(f"n = {row['n']:5d}: excess risk {row['mean']:.3e} +- {row['se']:.1e}"
              f"   Theorem 2 bound {row['bound']:.3e}")
    stated = dptheory.get("zhang2017.thm2.eps").rate
    exponent = float(stated.as_powers_dict()[dptheory.S.n])
    slope = result.slope()
    print(f"fitted slope in n: {slope:.2f}   stated exponent: {exponent:g}")

    fig = Figure(figsize=(5, 3.5))
    ax = fig.add_subplot()
    result.plot(ax=ax)
    ax.set_title("zhang2017 Alg. 1 vs Theorem 2")
    fig.tight_layout()
    path = args.out / "rate_plot.png"
    fig.savefig(path, dpi=120)
    print(f"figure: {path}")
    return {"slope": slope, "exponent": exponent, "figure": str(path),
            "summary": result.summary()}


if __name__ == "__main__":
    main()
