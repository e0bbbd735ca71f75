"""Collect findings: every claim that a check marks as failing.

Symbolic findings come from every catalog item: a derivation that disagrees with the
stated rate, a hypothesis that can never hold at the theorem's own settings, a
dimensionally inconsistent statement. Property checks registered under the
``dptheory.checks`` entry point add theirs (deterministic, so each reproduces).
"""

from __future__ import annotations

from typing import Iterable

from dptheory import registry
from dptheory.errors import UsageError
from dptheory.verify.verdict import Finding


def symbolic_findings(items: Iterable) -> list[Finding]:
    from dptheory.symbolic.derive import derive
    from dptheory.symbolic.dimensions import check_dimensions
    from dptheory.symbolic.hypotheses import hypotheses_at_settings

    out: list[Finding] = []
    for item in items:
        if item.derivable:
            d = derive(item)
            if d.verdict == "disagrees":
                diff = {k: v for k, v in d.exponent_difference.items() if v["difference"] != "0"}
                out.append(Finding(item.id, "derivation",
                                   f"explicit bound at the settings is {d.derived}, stated rate "
                                   f"{d.stated}: they disagree", d.as_dict() | {"differences": diff},
                                   f"dptheory derive {item.id}"))
            if d.constants:
                out.append(Finding(item.id, "derivation-constants",
                                   "the stated rate names constants whose powers differ from the "
                                   "derived leading term", {"constants": d.constants},
                                   f"dptheory derive {item.id} --json"))
        if item.settings and item.hypotheses:
            for h in hypotheses_at_settings(item):
                if h.status == "never":
                    out.append(Finding(item.id, "hypotheses",
                                       f"hypothesis '{h.label}' can never hold at the settings: "
                                       f"{h.at_settings}", h.as_dict(),
                                       f"dptheory show {item.id} --json"))
        issues = check_dimensions(item, registry.normalized_units(item.paper))
        if issues:
            out.append(Finding(item.id, "dimensions",
                               f"{len(issues)} dimensional inconsistenc"
                               f"{'y' if len(issues) == 1 else 'ies'}: {issues[0].where}: "
                               f"{issues[0].message}",
                               {"issues": [i.as_dict() for i in issues]},
                               f"dptheory show {item.id} --json"))
    return out


def check_findings(only: list[str] | None = None) -> list[Finding]:
    out = []
    for check in registry.checks():
        if only and check.id not in only and check.item not in only:
            continue
        result = check.run()
        if result.verdict == "fail":
            out.append(Finding(check.item, check.id, result.summary, result.evidence,
                               check.reproduce))
    return out


def collect(only: list[str] | None = None, run_checks: bool = True) -> list[Finding]:
    all_items = registry.items()
    if only:
        check_ids = {c.id for c in registry.checks()} if run_checks else set()
        unknown = [i for i in only if i not in all_items and i not in check_ids]
        if unknown:
            raise UsageError(f"unknown id {unknown[0]!r}; see `dptheory list`")
        items = [all_items[i] for i in only if i in all_items]
    else:
        items = list(all_items.values())
    findings = symbolic_findings(items)
    if run_checks:
        findings += check_findings(only)
    return findings
