"""The whole catalog: every spec item is present, loads, evaluates and derives."""

import math
from pathlib import Path

import pytest
import sympy as sp

from dptheory import registry
from dptheory.symbolic.derive import VERDICTS, derive
from dptheory.symbolic.symbols import registered

HERE = Path(__file__).parent
SPEC_IDS = HERE.joinpath("spec_ids.txt").read_text().split()
SPEC = HERE.parents[1].parent / "shared" / "spec" / "CATALOG.md"


def test_spec_id_copy_matches_the_spec():
    # spec_ids.txt is a copy of CATALOG.md's item index; when shared/ is beside the clone
    # (as in CI) the copy must equal it.
    assert len(SPEC_IDS) == 154
    if SPEC.exists():
        import re
        index = SPEC.read_text().split("## Conventions")[0]
        ids = re.findall(r"`([a-z0-9]+\.[^`]+)`", index.split("Item index:")[1])
        assert ids == SPEC_IDS


def test_every_spec_item_is_in_the_catalog():
    missing = [i for i in SPEC_IDS if i not in registry.items()]
    assert not missing


def _example_point():
    return {info.symbol: info.example for info in registered().values()}


ITEMS = list(registry.items().values())


@pytest.mark.parametrize("item", ITEMS, ids=[i.id for i in ITEMS])
def test_item_evaluates_at_a_valid_point(item):
    point = _example_point()
    names = [w for w in ("bound", "rate") if getattr(item, w) is not None]
    names += list(item.expressions) + list(item.relations)
    for what in names:
        expr = item.expression(what)
        left = sp.sympify(expr).free_symbols - set(point) - set(item.settings)
        bound_vars = set()
        for s in sp.preorder_traversal(expr):
            if isinstance(s, (sp.Sum, sp.Product)):
                bound_vars |= {lim[0] for lim in s.limits}
        assert not (left - bound_vars), f"{item.id}.{what}: unregistered symbols {left - bound_vars}"
        value = item.evaluate(what, point)
        if math.isinf(value):
            # Only an overflow of float64 is acceptable: the exact value must be a finite real.
            from dptheory.symbolic.numeric import resolve_settings
            env = resolve_settings(item.settings, dict(point))
            exact = sp.N(sp.sympify(expr).subs(env).doit(), 30)
            assert exact.is_real and exact.is_finite, f"{item.id}.{what} = {exact}"
        else:
            assert math.isfinite(value), f"{item.id}.{what} = {value}"


@pytest.mark.parametrize("item", [i for i in ITEMS if i.derivable],
                         ids=[i.id for i in ITEMS if i.derivable])
def test_every_derivable_item_gets_a_verdict(item):
    d = derive(item)
    assert d.verdict in VERDICTS
    if d.verdict == "not-derivable":
        assert d.reason
