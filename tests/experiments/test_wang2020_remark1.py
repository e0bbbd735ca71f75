"""The cell of wang2020.remark1:slope-n: the accuracy alpha Theorem 2's derived sufficient
condition guarantees (compiled; checked against the catalog's symbolic evaluation) and the
random start per replicate."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dptheory_simulations.experiments import cells as U
from dptheory_simulations.experiments import wang2020 as W

VALUES = {"d": 2, "delta": 1e-5, "eps": 1.0, "G": 6.1, "beta": 11.0, "rho": 12.0,
          "Fgap": 1.7, "w20_cH": 2.0, "w20_zeta": 0.1}


@pytest.mark.parametrize("n", [4000, 10 ** 6, 10 ** 9, 10 ** 12])
def test_alpha_sufficient_brackets_the_symbolic_condition(n):
    # the symbolic catalog (sympy subs, independent of the lambdified copy): n_req(alpha)
    # <= n at the returned alpha and > n just below it, with T(alpha) >= 1
    a = W.alpha_sufficient(n, VALUES)
    assert math.isfinite(a)
    assert U.catalog_bound("wang2020.thm2.noise", {**VALUES, "alpha": a}) <= n * (1 + 1e-9)
    assert U.catalog_bound("wang2020.thm2.noise", {**VALUES, "alpha": a * (1 - 1e-6)}) > n
    assert U.catalog_setting("wang2020.thm2.noise", "T", {**VALUES, "alpha": a}) >= 1


def test_alpha_sufficient_is_inf_when_no_alpha_qualifies():
    assert W.alpha_sufficient(10, VALUES) == math.inf


def test_random_starts_lie_on_the_segment_with_a_common_delta():
    r = next(x for x in W.RECIPES if x.id == "wang2020.remark1:slope-n")
    cell = {"recipe": r.id, "point": {"n": 10 ** 6}, "block": 0, "first_replicate": 0,
            "reps": 6, "seed": 3, **r.fixed}
    obj, data = W._data(cell, 10 ** 6)
    starts, gap = W._starts(cell, obj, data)
    (a0, lo), (b0, hi) = r.fixed["w0_segment"]
    assert a0 == b0 == 0.0 and 1.0 < lo < hi <= 2.0
    assert starts.shape == (6, 2) and np.all(starts[:, 0] == 0.0)
    assert np.all((starts[:, 1] >= lo) & (starts[:, 1] <= hi))
    assert len(set(starts[:, 1].tolist())) == 6                # one start per replicate
    # F(0, u) = u^4/4 - u^2/2 + x_bar_2 u increases for u >= 1.1 (u^3 - u >= 0.231 > 0.1 >=
    # |x_bar_2|): the largest gap is at the upper end
    top = float(obj.F(np.array([0.0, hi]), data)) - obj.minimum(data).value
    assert gap == pytest.approx(top, rel=1e-12)
    out = W.dptr(cell)
    assert len(out["samples"]) == 6 and all(v > 0 for v in out["samples"])
    # Delta is the segment gap just checked, passed through (not approx's default 1e-6)
    assert out["start_passes"] is False and out["params"]["Delta"] == pytest.approx(top, rel=1e-12)
    with pytest.raises(ValueError, match="w0_segment"):
        W.dptr({**cell, "w0_segment": [[0.0, 1.3]]})
