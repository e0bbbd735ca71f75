"""Satisfiability of assumption sets (recall, item 7): the analytic findings are tested on
the certified objective families."""

from __future__ import annotations

import numpy as np
import pytest

from dptheory.symbolic.assumptions import PL, Lipschitz
from dptheory_bounds.checks.recall_assumptions import CHECKS, PL_ROOT
from dptheory_simulations.objectives import DEFAULT_N, FAMILIES, get


def _constants(name):
    obj = get(name)
    data = obj.make_data(DEFAULT_N[name], rng=0)
    asm = obj.assumptions(data)
    pl = [a for a in asm if isinstance(a, PL)]
    lip = [a for a in asm if isinstance(a, Lipschitz)]
    return obj, data, pl, lip


PL_FAMILIES = [n for n in FAMILIES if _constants(n)[2] and _constants(n)[3]]


def test_some_family_is_certified_pl_and_lipschitz():
    assert PL_FAMILIES, "no family declares both PL and Lipschitz: the test below is empty"


@pytest.mark.parametrize("name", PL_FAMILIES)
def test_pl_families_are_lipschitz_only_on_a_ball_and_unbounded_above(name):
    """The theorem says a PL function that is Lipschitz on all of R^d is constant: every
    certified PL family must therefore leave its Lipschitz constant outside its ball, and
    gradient ascent (step (b) of the proof) must climb above F* + G^2/(2 mu)."""
    obj, data, (pl,), (lip,) = _constants(name)
    G, mu = float(lip.G), float(pl.mu)
    assert np.isfinite(getattr(obj, "domain_radius", np.inf)), "Lipschitz on all of R^d?"
    w = np.zeros(obj.d) + 0.1
    fstar = obj.minimum(data).value
    beta = max(float(a.beta) for a in obj.assumptions(data) if hasattr(a, "beta"))
    for _ in range(2000):
        w = w + obj.grad_F(w, data) / beta
        if obj.F(w, data) - fstar > G * G / (2 * mu):
            break
    assert np.linalg.norm(obj.grad_F(w, data)) > G
    assert obj.F(w, data) - fstar > G * G / (2 * mu)


def test_the_checks_refute_with_one_root_and_their_illustration_is_right():
    by_id = {c.id: c.run() for c in CHECKS}
    pl = [r for cid, r in by_id.items() if cid.startswith("zhang2021.")]
    assert len(pl) == 4 and {r.root for r in pl} == {PL_ROOT}
    assert all(r.verdict == "refuted" and r.severity == "hypothesis" for r in pl)
    ill = pl[0].evidence["illustration"]
    # h is PL (ratio >= 0.1755, certified in simulations/objectives/_calculus.py) ...
    assert min(ill["PL ratio of h, h'^2/(2h)"]) >= 0.1755
    # ... while tanh(h) is bounded and its PL ratio goes to 0 (independently: at u = 4,
    # h = 16 + 3 sin^2 4 > 16, tanh'(h) = sech^2(h) < 4 e^-32)
    assert ill["PL ratio of tanh(h) (bounded, smooth)"][3] < 1e-20
    lemma3 = by_id["zhang2017.lemma3:assumption-set"]
    assert lemma3.verdict == "refuted" and all(r["exceeds_L"] for r in lemma3.evidence["rows"])
