"""Three algorithms' asymptotic scaling compared: who is better for which n, and where.

The stated gradient-norm rates of tran2022 Theorem 9 (tree-aggregated DP normalized SGD with
momentum), wang2020 Remark 1 (DP trust region; its accuracy alpha at fixed n) and yang2022's
Table 1 entry (clipped DP-SGD) are compared pairwise at d = 100, eps = 1, delta = 1e-5, with
their constants (the full stated rates, not the bare leading terms), on the whole axis
1e-300 < n < 1e300. Each crossover is checked here by evaluating both rates on either side
of it, and the three rates are drawn on one log-log figure with the crossovers marked.

Usage::

    python examples/scaling_comparison.py [--out DIR]
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

import dptheory
from dptheory import plotting as P    # bare Figures (no pyplot): the backend is left alone
from dptheory import registry

ITEMS = ("tran2022.thm9", "wang2020.remark1", "yang2022.table1")
AT = {"d": 100, "eps": 1, "delta": 1e-5}


def main(argv: list[str] | None = None) -> dict:
    """Compare the three pairs, check each crossover directly, save the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--small", action="store_true", help="accepted for symmetry; this "
                        "example is symbolic and always fast")
    parser.add_argument("--out", type=Path, default=Path("."), help="output folder")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    def rate(item: str, n: float) -> float:
        return dptheory.get(item).rate_at(n=n, **AT)

    crossings = {}
    for a, b in itertools.combinations(ITEMS, 2):
        c = dptheory.compare(a, b, vary="n", at=AT)
        print(c, end="\n\n")
        for x in c.crossovers:
            n0 = float(x["value"])
            # direct evaluation: the sign of rate_a - rate_b changes across the crossover
            below = rate(a, n0 / 1.01) - rate(b, n0 / 1.01)
            above = rate(a, n0 * 1.01) - rate(b, n0 * 1.01)
            print(f"   check at n = {n0:.4g}: a - b is {below:+.3g} just below, "
                  f"{above:+.3g} just above")
            crossings[(a, b)] = n0

    fig, axes = P.new_figure((6.4, 3.8))
    ax = axes[0, 0]
    ns = np.logspace(2, 24, 200)
    with P.style():                          # dptheory's figure style, colours and labels
        for item, colour in zip(ITEMS, P.COLOURS):
            ax.loglog(ns, [rate(item, n) for n in ns], color=colour, label=registry.item_label(item))
        for (a, b), n0 in crossings.items():
            if ns[0] <= n0 <= ns[-1]:
                ax.axvline(n0, color="grey", lw=0.6, ls=":")
        ax.set_xlabel(P.symbol_label("n"))
        ax.set_ylabel("stated rate")
    P.finish(fig, params=P.param_line(AT, extra=["dotted: crossovers"]))
    path = args.out / "scaling_comparison.png"
    P.save(fig, path)
    print(f"figure: {path}")
    return {"crossovers": crossings, "figure": str(path)}


if __name__ == "__main__":
    main()
