"""Merging by root cause, exactly (recall, item 8): one finding per root, every refuted check
listed under exactly one finding."""

from __future__ import annotations

from collections import Counter

from dptheory import registry
from dptheory.verify.findings import raw_findings
from dptheory.verify.verdict import Finding, finding_label, merge_findings, split_findings


def _listed(merged: list[Finding]) -> Counter:
    c: Counter = Counter()
    for f in merged:
        c[finding_label(f)] += 1
        c.update(f.also)
    return c


def _assert_exact(raw: list[Finding], merged: list[Finding]) -> None:
    assert len(merged) == len({f.key for f in raw})              # one finding per root
    assert len({f.key for f in merged}) == len(merged)
    listed = _listed(merged)
    assert set(listed) == {finding_label(f) for f in raw}         # nothing lost
    assert all(v == 1 for v in listed.values()), listed           # nothing listed twice


def test_merge_is_exact_on_planted_roots():
    raw = [Finding("a.x", "a.x:c1", "s", {}, severity="bound", root="R"),
           Finding("a.y", "a.y:c2", "s", {}, severity="proof", root="R"),
           Finding("a.x", "a.x:c1", "s", {}, severity="bound", root="R"),   # repeated head
           Finding("b.z", "derivation", "s", {}, severity="rate"),           # own root
           Finding("b.z", "b.z:c3", "s", {}, severity="notation", root="S"),
           Finding("c.w", "c.w:c4", "s", {}, severity="privacy", root="S")]
    merged = merge_findings(raw)
    _assert_exact(raw, merged)
    heads = {f.key: f for f in merged}
    assert heads["R"].check == "a.x:c1" and heads["R"].also == ("a.y:c2",)
    assert heads["S"].severity == "privacy"                     # the gravest member leads


def test_merge_is_exact_on_the_catalog():
    """Symbolic findings and the recall checks of the catalog (the simulation-free part)."""
    mods = ("recall_corrected", "recall_assumptions", "recall_probability")
    only = sorted({c.item for c in registry.checks()
                   if c.run.__module__.rsplit(".", 1)[-1] in mods})
    raw, _ = raw_findings(only, run_checks=True)
    paper, own = split_findings(raw)
    paper_raw = [f for f in raw if f.provenance not in ("corrected", "reconstructed",
                                                        "reconstructed-constants-unknown")]
    assert paper_raw
    _assert_exact(paper_raw, paper)
    # the recall checks sharing a root make one finding each
    keys = Counter(f.key for f in paper_raw)
    assert keys["zhang2021:pl-with-bounded-or-lipschitz-loss"] == 4
    assert sum(f.key == "zhang2021:pl-with-bounded-or-lipschitz-loss" for f in paper) == 1


def test_a_check_named_by_its_full_id_merges_with_a_root_that_names_it():
    # the tran2022 identity (3) check (no root) and Lemma 7's reshuffling bias (root named
    # after that check) are one root cause: their keys must agree, not "item:item:check"
    plain = Finding("tran2022.eq3", "tran2022.eq3:identity-fresh-permutation", "s", {},
                    severity="proof")
    named = Finding("tran2022.lemma7", "tran2022.lemma7:bias", "s", {}, severity="proof",
                    root="tran2022.eq3:identity-fresh-permutation")
    kind_only = Finding("b.z", "derivation", "s", {}, severity="rate")
    assert plain.key == named.key == "tran2022.eq3:identity-fresh-permutation"
    assert kind_only.key == "b.z:derivation"
    merged = merge_findings([plain, named, kind_only])
    assert len(merged) == 2
    _assert_exact([plain, named, kind_only], merged)
