"""Symbolic checks of every catalog item, and the findings they make.

For each item:

* **derivation** — the stated rate against the explicit bound at the settings
  (:func:`~dptheory.verify.checks.derivation_check`): refuted (severity ``rate``) only when
  the derived rate exceeds the stated one everywhere; a loose statement agrees;
* **hypotheses** — each printed condition at the settings. Refuted (severity
  ``hypothesis``) only when SymPy proves it can never hold; "never" on a random sample of the
  domain is evidence, not proof, and stays a note. Then the hypotheses *together*: a joint
  witness, a point where the bound is below the item's trivial range, and a point of the
  regime where the bound of a nonnegative quantity is negative or not real (a certified
  counterexample); a hypothesis ``x <= max(a, b)`` whose ``max`` lets ``x`` reach a pure
  number whatever the constants is noted;
* **dimensions** — with the paper's and the item's declared unit conventions applied, the
  issues left are refuted (severity ``notation``) only when *no* unit choice (``F = 1``,
  ``W = 1`` or ``F = W**k``) clears them; otherwise they are a note naming the choice. Rates
  drop constants by design (O hides them): their issues are notes too.

Refutations of dptheory's own ``corrected`` and reconstructed items are returned, but the
engine and ``dptheory findings`` keep them apart from the papers' findings.
"""

from __future__ import annotations

from typing import Any, Iterable

import sympy as sp

from dptheory import registry
from dptheory.errors import UsageError
from dptheory.verify.verdict import CheckResult, Finding, split_findings


def provenance(item_id: str) -> str:
    """The provenance of an item's *statement*: "printed" when the paper prints it (even if
    dptheory reconstructed its proof), else the item's provenance."""
    item = registry.items().get(item_id)
    if item is None or item.printed_statement:
        return "printed"
    return item.provenance

__all__ = ["symbolic_results", "derivation_results", "hypothesis_results",
           "dimension_results", "collect", "raw_findings", "Note"]

Note = dict  # {"id", "check", "verdict": "inconclusive", "summary", "evidence"}


def _note(item: Any, check: str, summary: str, evidence: dict[str, Any]) -> Note:
    return {"id": item.id, "check": check, "verdict": "inconclusive", "summary": summary,
            "evidence": evidence, "provenance": provenance(item.id)}


def derivation_results(item: Any) -> list[tuple[str, CheckResult]]:
    """The derivation verdict of ``item``. A disagreement whose ``.corrected`` variant (the
    same statement with the step dptheory re-derived) agrees with the stated rate is graded
    ``proof``: a step of the printed chain is wrong, but the stated rate survives."""
    from dptheory.symbolic.derive import derive
    from dptheory.verify.checks import derivation_check
    if not item.derivable:
        return []
    res = derivation_check(derive(item))
    fixed = registry.items().get(f"{item.id}.corrected")
    if res.verdict == "refuted" and fixed is not None and fixed.derivable \
            and sp.simplify(fixed.rate - item.rate) == 0:
        d = derive(fixed)
        if d.verdict in ("agrees", "agrees-loose", "agrees-in-regime"):
            res = res.replace(severity="proof", consequence=(
                f"the printed explicit bound does not give the stated rate, but the corrected "
                f"step ({fixed.id}) does ({d.verdict}): the stated rate survives, the printed "
                "chain of the proof is wrong"), root=f"{item.id}:printed-chain")
    return [(f"{item.id}:derivation", res)]


def hypothesis_results(item: Any) -> list[Finding | Note]:
    """The hypothesis checks of ``item``: a finding when SymPy proves a hypothesis can
    never hold at the settings, or when the regime holds a point where the bound of a
    nonnegative quantity is negative or not real; notes for what sampling alone suggests
    (a hypothesis never holding, no joint witness, a bound vacuous everywhere) and for
    ``x <= Max(c, e)`` hypotheses."""
    from dptheory.symbolic.hypotheses import hypotheses_at_settings, regime_report

    out: list[Finding | Note] = []
    if item.settings and item.hypotheses:
        for h in hypotheses_at_settings(item):
            if h.status != "never":
                continue
            if h.method == "symbolic":
                res = CheckResult(
                    "refuted", f"hypothesis '{h.label}' can never hold at the settings: "
                    f"{h.at_settings}", h.as_dict(), claim="hypotheses", severity="hypothesis",
                    consequence="the theorem's own settings violate its hypothesis, so as "
                    "printed it says nothing at those settings")
                out.append(Finding.from_result(item.id, "hypotheses", res,
                                               f"dptheory show {item.id} --json",
                                               provenance(item.id)))
            else:
                out.append(_note(item, "hypotheses", f"hypothesis '{h.label}' held at none of "
                                 f"the sampled points at the settings ({h.at_settings}); "
                                 "sampling is evidence, not proof", h.as_dict()))
    if not (item.hypotheses or item.bound is not None):
        return out
    rep = regime_report(item)
    ev = rep.as_dict()
    if rep.negative is not None:
        res = CheckResult(
            "refuted", f"at a point satisfying every hypothesis the bound of a nonnegative "
            f"quantity is {'not real' if rep.negative.get('not_real') else 'negative'} "
            f"({rep.negative['bound']})", ev, claim="hypotheses", severity="hypothesis",
            consequence="a condition is missing: the hypotheses admit parameters where the "
            "printed bound cannot hold")
        out.append(Finding.from_result(item.id, "regime", res,
                                       f"dptheory findings --only {item.id}", provenance(item.id)))
    if rep.satisfiable == "none-found":
        out.append(_note(item, "regime", "no sampled point satisfies every hypothesis at the "
                         "settings (evidence, not proof)", ev))
    if rep.nonvacuous == "none-found":
        out.append(_note(item, "regime", f"the bound is at or above its trivial range "
                         f"({item.trivial_source or item.trivial}) at every sampled point of "
                         "its regime: vacuous there (sampled)", ev))
    out += _max_notes(item)
    return out


def _max_notes(item: Any) -> list[Note]:
    """Hypotheses ``x <= Max(c, e)`` with ``c`` a pure number: the max admits ``x`` up to
    ``c`` whatever the constants in ``e`` (a min would restrict it)."""
    out = []
    for label, rel in item.hypotheses:
        if not isinstance(rel, (sp.LessThan, sp.StrictLessThan)):
            continue
        rhs = rel.rhs
        if isinstance(rhs, sp.Max) and any(a.is_number for a in rhs.args) \
                and any(not a.is_number for a in rhs.args):
            c = next(a for a in rhs.args if a.is_number)
            e = next(a for a in rhs.args if not a.is_number)
            out.append(_note(item, "hypotheses", f"hypothesis '{label}' admits {rel.lhs} up to "
                             f"{c} whatever {sp.sstr(e)} is: with min instead of max it would "
                             "restrict the step by the constants", {"hypothesis": sp.sstr(rel)}))
    return out


def dimension_results(item: Any) -> list[Finding | Note]:
    """The dimension checks of ``item`` with the paper's and item's unit conventions: a
    finding when no unit choice removes the issues outside the rate, otherwise notes (the
    rate's issues always, as O drops constants)."""
    from dptheory.symbolic.dimensions import check_dimensions, unit_choices

    norm = {**registry.normalized_units(item.paper), **dict(item.units)}
    issues = check_dimensions(item, norm)
    if not issues:
        return []
    rate_only = [i for i in issues if i.where == "rate"]
    rest = [i for i in issues if i.where != "rate"]
    out: list[Finding | Note] = []
    if rate_only:
        out.append(_note(item, "dimensions", f"the stated rate mixes dimensions "
                         f"({rate_only[0].message}); an O(.) drops constants by design, so "
                         "this is not a finding", {"issues": [i.as_dict() for i in rate_only]}))
    if not rest:
        return out
    choices = unit_choices(rest)
    ev = {"issues": [i.as_dict() for i in rest], "unit_choices": choices,
          "declared": {str(k): str(v) for k, v in norm.items()}}
    first = f"{rest[0].where}: {rest[0].message}"
    if choices and registry.dimension_deciders().get(item.id):
        # decided at scaled constants by a registered check (loss or parameter scales far
        # from 1): that check's verdict, not an undecided note, answers the unit question
        return out
    if choices:
        out.append(_note(item, "dimensions", f"{len(rest)} dimensional issue(s), consistent only "
                         f"if units are fixed by {choices[0]}, which the item does not declare; "
                         f"e.g. {first}", ev))
        return out
    res = CheckResult(
        "refuted", f"{len(rest)} dimensional inconsistenc{'y' if len(rest) == 1 else 'ies'} "
        f"that no unit choice removes: {first}", ev, claim="dimensions", severity="notation",
        consequence="as printed the statement mixes quantities of different dimensions under "
        "every choice of units: a misprint, whose effect on the result the other checks judge",
        root=f"{item.id}:dimensions")
    out.append(Finding.from_result(item.id, "dimensions", res, f"dptheory show {item.id} --json",
                                   provenance(item.id)))
    return out


def symbolic_results(items: Iterable[Any]) -> list[Finding | Note]:
    """Hypothesis and dimension findings and notes of ``items`` (derivations are verdicts
    of their own: :func:`derivation_results`)."""
    out: list[Finding | Note] = []
    for item in items:
        out += hypothesis_results(item)
        out += dimension_results(item)
    return out


def _property_results(only: list[str] | None) -> list[tuple[Any, CheckResult]]:
    out = []
    for check in registry.checks():
        if only and check.id not in only and check.item not in only:
            continue
        out.append((check, check.run()))
    return out


def collect(only: list[str] | None = None, run_checks: bool = True
            ) -> tuple[list[Finding], list[Finding], list[Note]]:
    """Findings of the catalog (derivations, hypotheses, dimensions and, with
    ``run_checks``, the property checks): ``(papers' findings merged by root cause,
    refutations of dptheory's own items, notes of undecided checks)``."""
    raw, notes = raw_findings(only, run_checks)
    paper, own = split_findings(raw)
    return paper, own, notes


def raw_findings(only: list[str] | None = None, run_checks: bool = True
                 ) -> tuple[list[Finding], list[Note]]:
    """Every refutation of the catalog, one per refuted check and before merging by root
    cause, and the notes of undecided checks (what :func:`collect` merges)."""
    all_items = registry.items()
    if only:
        check_ids = {c.id for c in registry.checks()} if run_checks else set()
        unknown = [i for i in only if i not in all_items and i not in check_ids]
        if unknown:
            raise UsageError(f"unknown id {unknown[0]!r}; see `dptheory list`")
        items = [all_items[i] for i in only if i in all_items]
    else:
        items = list(all_items.values())
    raw: list[Finding] = []
    notes: list[Note] = []
    for item in items:
        for cid, res in derivation_results(item):
            if res.verdict == "refuted":
                raw.append(Finding.from_result(item.id, cid, res, f"dptheory derive {item.id}",
                                               provenance(item.id)))
    for r in symbolic_results(items):
        (raw if isinstance(r, Finding) else notes).append(r)
    if run_checks:
        for check, res in _property_results(only):
            prov = provenance(check.item)
            if res.verdict == "refuted":
                raw.append(Finding.from_result(check.item, check.id, res, check.reproduce, prov))
            elif res.verdict == "inconclusive":
                notes.append({"id": check.item, "check": check.id, "verdict": res.verdict,
                              "summary": res.summary, "evidence": res.evidence,
                              "provenance": prov})
    return raw, notes
