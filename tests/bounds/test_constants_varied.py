"""Every check says which problem constants it varied (issue: errors hidden by constants
equal to 1): ``evidence["constants_varied"]`` is a list of ``"name: values (note)"``
strings, and each entry either reaches a value at or below 1/4 or at or above 4, or carries
a note saying why not (the constant cancels, a refutation at one instance, no constant)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from dptheory_bounds.checks import checks
from dptheory_bounds.checks.constants import NOTES

_NUMBER = re.compile(r"(?<![\w./])(\d+(?:\.\d+)?(?:e[-+]?\d+)?(?:/\d+)?)(?![\w./])")


def _far(values: str) -> bool:
    """Whether the values part names a number <= 1/4 or >= 4."""
    for tok in _NUMBER.findall(values):
        x = float(Fraction(tok)) if "/" in tok else float(tok)
        if x <= 0.25 or x >= 4:
            return True
    return False


def _parts(entry: str) -> tuple[str, str, str]:
    name, _, rest = entry.partition(":")
    values, _, note = rest.partition("(")
    return name.strip(), values.strip(), note


def entry_ok(entry: str) -> bool:
    """``name: values (note)`` with values far from 1, or a note of at least 20 characters,
    or no constant at all (``none: ...``, ``...: every value ...``)."""
    if ":" not in entry:
        return False
    name, values, note = _parts(entry)
    if name == "none" or values.startswith(("every", "none")):
        return True
    return _far(values) or len(note) >= 20


def silent_one(entry: str) -> bool:
    """An entry that fixes a quantity at 1 and says nothing about it (``"L: 1"``)."""
    _, values, note = _parts(entry)
    nums = _NUMBER.findall(values)
    return bool(nums) and all(float(Fraction(t)) == 1 for t in nums) and len(note) < 20


def test_entry_format_rules():
    assert entry_ok("L: 1/4, 1, 4")
    assert entry_ok("loss scale c: 1e4 .. 1e6")
    assert entry_ok("G: 1 (cancels: shift and noise both scale with G)")
    assert entry_ok("none: combinatorial")
    assert not entry_ok("L: 1") and silent_one("L: 1")   # constant 1 and no reason: caught
    assert not entry_ok("beta: 0.5, 1, 2") and not silent_one("beta: 0.5, 1, 2")
    assert not entry_ok("L 1/4")


_ALL = {c.id: c for c in checks()}


@pytest.mark.parametrize("check_id", sorted(_ALL))
def test_every_check_records_constants_varied(check_id):
    res = _ALL[check_id].run()
    cv = res.evidence.get("constants_varied")
    assert isinstance(cv, list) and cv, f"{check_id}: constants_varied missing or not a list"
    assert all(isinstance(e, str) and ":" in e for e in cv), cv
    silent = [e for e in cv if silent_one(e)]
    assert not silent, f"{check_id}: a quantity fixed at 1 without a reason: {silent}"
    assert any(entry_ok(e) for e in cv), \
        f"{check_id}: no entry reaches 1/4 or 4 and none says why not: {cv}"


def test_notes_name_registered_checks_only():
    assert sorted(set(NOTES) - set(_ALL)) == []


def _prop13_values(G: float) -> list[tuple[float, float]]:
    from dptheory.privacy import tree
    out = []
    for N in (2, 3, 5):
        for (y, z) in ((1, 1), (1, N), (2, 2 * N), (N + 1, 3 * N)):
            out.append((tree.node_sensitivity_formula(y, z, N, 1.0 / N, G),
                        tree.node_sensitivity_bruteforce(y, z, N, 1.0 / N, G)))
    return out


@pytest.mark.parametrize("G", [0.25, 4.0])
def test_prop13_cancellation_note_holds(G):
    """The note 'G cancels' of tran2022.prop13's checks, checked: the printed node formula
    and the brute-force sensitivity are G times their G = 1 values."""
    for (f, b), (f1, b1) in zip(_prop13_values(G), _prop13_values(1.0)):
        assert f == pytest.approx(G * f1, rel=1e-12, abs=1e-15)
        assert b == pytest.approx(G * b1, rel=1e-12, abs=1e-15)
