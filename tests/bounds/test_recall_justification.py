"""Every ``.corrected`` and reconstructed item is justified against its printed sibling
(issue: recall, item 1): a check that refutes the printed sibling (a finding of the paper), or
a recorded reason why the printed sibling stands or cannot be compared."""

from __future__ import annotations

import pytest

from dptheory import registry
from dptheory.symbolic.theorem import Theorem
from dptheory.verify.findings import derivation_results
from dptheory_bounds.checks.recall_corrected import (JUSTIFICATIONS, Justification,
                                                     unjustified)


def _check_ids() -> set[str]:
    return {c.id for c in registry.checks()}


def test_every_corrected_and_reconstructed_item_is_justified():
    problems = unjustified(registry.items(), _check_ids())
    assert problems == []


def test_a_planted_corrected_item_without_justification_is_caught():
    items = dict(registry.items())
    items["zhang2017.thm1.corrected"] = Theorem(id="zhang2017.thm1.corrected", title="planted",
                                                kind="theorem", source="test",
                                                provenance="corrected")
    assert any(p.startswith("zhang2017.thm1.corrected:")
               for p in unjustified(items, _check_ids()))


def test_a_refutes_entry_naming_a_missing_check_or_unprinted_sibling_is_caught():
    items = registry.items()
    table = {**JUSTIFICATIONS,
             "zhang2017.lemma9.corrected": Justification("refutes", "zhang2017.lemma9",
                                                         ("zhang2017.lemma9:nope",)),
             "yang2022.propE.1.corrected": Justification("refutes", "yang2022.propE.2",
                                                         ("yang2022.propE.2:x",))}
    problems = unjustified(items, _check_ids(), table)
    assert any("zhang2017.lemma9:nope is not registered" in p for p in problems)
    assert any("yang2022.propE.2 is not a printed statement" in p for p in problems)


def test_stands_entries_carry_a_reason():
    table = {**JUSTIFICATIONS,
             "wang2020.remark1.corrected": Justification("stands", "wang2020.remark1")}
    assert any(p.startswith("wang2020.remark1.corrected:") and "needs a recorded reason" in p
               for p in unjustified(registry.items(), _check_ids(), table))


_REFUTING = sorted({(j.sibling, cid) for j in JUSTIFICATIONS.values() if j.kind == "refutes"
                    for cid in j.checks})


@pytest.mark.parametrize("sibling,check_id", _REFUTING)
def test_each_refutes_entry_refutes_its_printed_sibling(sibling, check_id):
    """A `.corrected` item whose printed sibling has no finding is a contradiction: the named
    check must return `refuted` on the printed sibling."""
    if check_id == f"{sibling}:derivation":
        results = dict(derivation_results(registry.get(sibling)))
        res = results[check_id]
    else:
        check = next(c for c in registry.checks() if c.id == check_id)
        assert check.item == sibling
        res = check.run()
    assert res.verdict == "refuted", (check_id, res.verdict, res.summary)
    assert registry.get(sibling).printed_statement
