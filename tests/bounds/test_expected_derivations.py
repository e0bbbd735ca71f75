"""Derivations vs expectations derived by hand (tests/bounds/expected_<paper>.py).

Regimes are compared semantically: both relations are evaluated at random points of the
domain (log-uniform n, d, 1/eps, ...) and must agree (the boundary has measure zero).
"""

import importlib
import random

import pytest
import sympy as sp

from dptheory import registry
from dptheory.symbolic.derive import derive
from dptheory.symbolic.symbols import registered

PAPERS = ("zhang2021", "tran2022", "yang2022", "wang2020", "zhang2017")


def _expected():
    out = []
    for p in PAPERS:
        try:
            mod = importlib.import_module(f"tests.bounds.expected_{p}")
        except ModuleNotFoundError:
            continue
        out += sorted(mod.EXPECTED.items())
    return out


EXPECTED = _expected()
LOCALS = {name: info.symbol for name, info in registered().items()}


SHRINKING = {LOCALS["eps"], LOCALS["alpha"]}     # eps, alpha in (0, 1); the rest >= 1


def _agree(rel_a, rel_b, symbols, trials=300):
    rng = random.Random(7)
    for _ in range(trials):
        point = {s: 10 ** (rng.uniform(-4, 0) if s in SHRINKING else rng.uniform(0, 8))
                 for s in symbols}
        if bool(rel_a.subs(point)) != bool(rel_b.subs(point)):
            return False
    return True


@pytest.mark.parametrize("item_id,expected", EXPECTED, ids=[e[0] for e in EXPECTED])
def test_derivation_matches_hand_derivation(item_id, expected):
    d = derive(registry.get(item_id))
    assert d.verdict == expected["verdict"], expected.get("why", "")
    if expected["verdict"] == "agrees-in-regime" and expected.get("regime"):
        want = sp.sympify(expected["regime"], locals=LOCALS)
        symbols = sorted((want.free_symbols | d.regime.free_symbols), key=str)
        assert _agree(want, d.regime, symbols), f"{d.regime} vs {want}: {expected.get('why')}"
