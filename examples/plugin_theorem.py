"""A plug-in theorem: state your own result as a catalog item and use it like the papers'.

A researcher's theorem is a :class:`dptheory.Theorem` (SymPy bound and stated rate over the
registered symbols ``n``, ``d``, ``eps``, ``delta``, ``G``, ...). Built in a script, it can be
evaluated (``bound_at``/``rate_at``), rendered (LaTeX in Jupyter) and compared with any
catalog item. Here: a hypothetical noisy gradient descent whose gradient norm is claimed to
be O(sqrt(d log(1/delta)) / (eps n))^(1/2) + 1/sqrt(n), with an explicit bound carrying a
Lipschitz constant G, compared with tran2022 Theorem 9.

To make the theorem visible to the command line too (``dptheory list``, ``dptheory compare
mine.thm1 tran2022.thm9``), put its module in a package that exposes ``ITEMS`` (a list of
Theorems, e.g. a :class:`dptheory.symbolic.Catalog`) and register it in that package's
pyproject.toml::

    [project.entry-points."dptheory.catalogs"]
    mine = "mypackage.mycatalog"

Usage::

    python examples/plugin_theorem.py
"""

from __future__ import annotations

import argparse

import sympy as sp

import dptheory
from dptheory import S
from dptheory.symbolic import Catalog

ITEMS = Catalog(paper="mine")
ITEMS.add(
    id="mine.thm1", title="Noisy GD: gradient norm", kind="theorem",
    source="my notes, Theorem 1", category="utility", measured="E||grad F(w_hat)||",
    bound=S.G * sp.sqrt(sp.sqrt(S.d * sp.log(1 / S.delta)) / (S.eps * S.n)) + S.G / sp.sqrt(S.n),
    rate=sp.sqrt(sp.sqrt(S.d * sp.log(1 / S.delta)) / (S.eps * S.n)) + 1 / sp.sqrt(S.n),
    notes="a hypothetical result, to show the plug-in route")


def main(argv: list[str] | None = None) -> dict:
    """Evaluate the plug-in theorem and compare it with tran2022 Theorem 9."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--small", action="store_true", help="accepted for symmetry; this "
                        "example is symbolic and always fast")
    parser.add_argument("--n", type=float, default=1e6, help="sample size to evaluate at")
    args = parser.parse_args(argv)

    mine = ITEMS[0]
    at = {"d": 100, "eps": 1.0, "delta": 1e-5}
    print(f"{mine.id}: LaTeX for Jupyter {mine._repr_latex_()[:60]}...")
    print(f"bound needs values for {[str(s) for s in mine.needs('bound')]}")
    bound = mine.bound_at(n=args.n, G=1.0, **at)
    rate = mine.rate_at(n=args.n, **at)
    theirs = dptheory.get("tran2022.thm9").rate_at(n=args.n, **at)
    print(f"at n = {args.n:g}: bound {bound:.4g} (G = 1), stated rate {rate:.4g}, "
          f"tran2022.thm9's stated rate {theirs:.4g}")
    try:
        mine.bound_at(n=args.n, **at)
    except ValueError as exc:                  # the missing constant is named
        print(f"without G: {exc}")
    c = dptheory.compare(mine, "tran2022.thm9", vary="n", at=at)
    print(c)
    symbolic = dptheory.compare(mine, "tran2022.thm9", vary="n", at={"delta": 1e-5})
    print(symbolic)
    return {"bound": bound, "rate": rate, "crossovers": [x["value"] for x in c.crossovers]}


if __name__ == "__main__":
    main()
