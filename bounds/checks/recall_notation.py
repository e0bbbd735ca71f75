"""Notation decided by dimensions: a printed letter that names another quantity of the
paper makes the printed formula dimensionally wrong, while the intended letter makes it
right (recall, "errors hidden by constants equal to 1").

wang2020 (Wang, Xu 2020) prints L — the empirical loss L(w, D) of Definition 1, a loss
value [F] — where Assumption 2's Lipschitz constant G ([F]/[w]) is meant:

* Theorem 4: |S| >= Omega(L^2 ln(p/zeta)/alpha^2), a sample count, with alpha a gradient
  accuracy ([F]/[w]);
* Sec. 5.2: "in Step 2 of Algorithm 2 we add a Gaussian noise with variance
  256 L^2 ln(5T/delta) ln(2/delta)/(n^2 eps^2)" to a gradient ([F]/[w])^2, and the DP-TR
  variance 4 L^2 T/(n^2 phi).
"""

from __future__ import annotations

import sympy as sp

from dptheory.symbolic import units
from dptheory.verify import Check, CheckResult

#: (where, printed expression in the letter X, required dimension); X is L or G
_F, _W = units.F, units.W


def _rows(letter_unit: sp.Expr) -> list[dict[str, str]]:
    X = letter_unit
    alpha = _F / _W                                   # gradient accuracy of an alpha-SOSP
    cases = (("Theorem 4: |S| >= Omega(X^2 ln(p/zeta)/alpha^2)", X ** 2 / alpha ** 2,
              units.ONE),
             ("Sec. 5.2: DP-STR gradient variance 256 X^2 ln(5T/delta) ln(2/delta)/(n eps)^2",
              X ** 2, (_F / _W) ** 2),
             ("Sec. 5.2: DP-TR gradient variance 4 X^2 T/(n^2 phi)", X ** 2, (_F / _W) ** 2))
    return [{"where": w, "dimension": sp.sstr(sp.simplify(e)), "required": sp.sstr(req),
             "consistent": bool(sp.simplify(e / req) == 1)} for w, e, req in cases]


def wang2020_L_for_G(letter: str = "L") -> CheckResult:
    """The three formulas with X read as printed (``letter="L"``: the loss, [F]) or as
    intended (``letter="G"``, planted: the Lipschitz constant, [F]/[w])."""
    if letter not in ("L", "G"):
        raise ValueError(f"letter must be 'L' or 'G', got {letter!r}")
    rows = _rows(_F if letter == "L" else _F / _W)
    bad = [r for r in rows if not r["consistent"]]
    ev = {"letter": letter, "rows": rows,
          "L": "Definition 1: L(w, D) = (1/n) sum l(w, x_i), a loss value [F]",
          "G": "Assumption 2: G-Lipschitz, [F]/[w]"}
    if not bad:
        return CheckResult("supported", f"with {letter} every formula has its required "
                           "dimension", ev, claim="identity",
                           power={"statement": "symbolic dimensions; any mismatch is caught"})
    return CheckResult(
        "refuted", f"wang2020: the letter L (the loss of Definition 1, [F]) is printed where the "
        f"Lipschitz constant G is meant: {bad[0]['where']} then has dimension "
        f"{bad[0]['dimension']}, not {bad[0]['required']} ({len(bad)}/{len(rows)} formulas; "
        "with G all are consistent)", ev, claim="identity", severity="notation",
        root="wang2020:L-printed-for-G",
        consequence="a misprint: read with G (Assumption 2), as the catalog encodes Theorem 4 "
                    "and Sec. 5.2, the formulas are dimensionally consistent and unchanged")


CHECKS: list[Check] = [
    Check.of("wang2020.thm4", "L-printed-for-G", "derivation", wang2020_L_for_G,
             "dimensions of Theorem 4's |S| and Sec. 5.2's variances with L (the loss) as "
             "printed and with G"),
]

__all__ = ["CHECKS", "wang2020_L_for_G"]
