"""Verdicts, checks and findings: what a check has *shown*.

A *check* binds a catalog item to something that measures it (a symbolic derivation, a
property test, a simulation) and returns a :class:`CheckResult`. The verdict says what was
shown, never more:

``refuted``
    A certified counterexample to the claim *as printed*, at the logic of that claim (an
    upper bound exceeded by a one-sided lower confidence limit; a shallower exponent in a run
    shown to be asymptotic; a stated rate stronger than the item's own bound gives; a
    privacy claim below a certified *lower* bound on the true epsilon; ...). It must carry a
    ``severity`` (:data:`SEVERITIES`) and a ``consequence`` sentence. Only a refuted check
    makes a :class:`Finding`.
``supported``
    A test that could have failed did not. It must carry its ``power``: what the test would
    have detected (the smallest violation factor, slope excess or epsilon it rejects at its
    confidence) and, where one exists, the outcome of a planted wrong claim.
``vacuous``
    The claim cannot bind at the tested points (the bound is above the largest value the
    measured quantity can take, the start point already passes a success test), or the run
    left the claim's assumptions.
``inconclusive``
    The test ran but cannot decide: pre-asymptotic, too little power, an existence claim on
    a finite grid, an interval that straddles the bound. The reason says which.

The old ``pass``/``fail`` vocabulary is gone; :data:`LEGACY` says how it maps (a ``fail``
became ``refuted`` only where the evidence is a certified counterexample).

Claim kinds (:data:`CLAIMS`) name the logic a check tests; severities (:data:`SEVERITIES`)
grade a refutation by its impact:

* ``privacy`` — a privacy guarantee is violated (the true epsilon exceeds the claim);
* ``bound`` — an explicit inequality is false;
* ``rate`` — a stated rate is stronger than the item's own bound and settings give;
* ``hypothesis`` — a missing or impossible condition;
* ``proof`` — a step of the proof is wrong, but the end claim survives (or is undecided);
* ``notation`` — a misprint or inconsistent notation with no effect on the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

VERDICTS = ("refuted", "supported", "vacuous", "inconclusive")
SEVERITIES = ("privacy", "bound", "rate", "hypothesis", "proof", "notation")
CLAIMS = ("upper-bound", "lower-bound", "sup-bound", "rate", "identity",
          "sufficient-condition", "existence", "privacy", "hypotheses", "dimensions")

# How the first release's verdicts map: "pass" meant "no counterexample found" and "fail"
# meant "the check disagreed". Neither is accepted any more.
LEGACY = {
    "pass": "supported only with stated power; else vacuous or inconclusive",
    "fail": "refuted only with a certified counterexample at the claim's logic; "
            "else inconclusive (or a proof-level finding)",
}

# Order of gravity, for sorting findings (most severe first).
SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}


def _check_verdict(verdict: str) -> None:
    if verdict in LEGACY:
        raise ValueError(f"verdict {verdict!r} is not used any more: {LEGACY[verdict]}; "
                         f"choose from {VERDICTS}")
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")


@dataclass(frozen=True)
class CheckResult:
    """What a check showed.

    Parameters
    ----------
    verdict : one of :data:`VERDICTS`.
    summary : the one-line reason, readable without the evidence.
    evidence : the numbers behind the verdict (JSON values).
    claim : the logic tested, one of :data:`CLAIMS` (empty if the check does not say).
    severity : required when ``verdict == "refuted"``: one of :data:`SEVERITIES`.
    consequence : required when refuted: one sentence on what the refutation means for a
        reader of the paper.
    power : required when ``verdict == "supported"``: ``{"statement": str, ...}``, what
        the test would have detected, with the numbers, and ``"selftest"`` (a planted wrong
        claim and whether it was caught) where there is one.
    root : root-cause key; refutations sharing a root are merged into one finding.
    """

    verdict: str
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    claim: str = ""
    severity: str | None = None
    consequence: str = ""
    power: dict[str, Any] | None = None
    root: str = ""

    def __post_init__(self) -> None:
        _check_verdict(self.verdict)
        if self.claim and self.claim not in CLAIMS:
            raise ValueError(f"claim must be one of {CLAIMS}, got {self.claim!r}")
        if self.verdict == "refuted":
            if self.severity not in SEVERITIES:
                raise ValueError(f"a refuted verdict needs a severity in {SEVERITIES}, "
                                 f"got {self.severity!r}")
            if not self.consequence:
                raise ValueError("a refuted verdict needs a consequence sentence")
        elif self.severity is not None and self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, got {self.severity!r}")
        if self.verdict == "supported":
            if not isinstance(self.power, Mapping) or not self.power.get("statement"):
                raise ValueError("a supported verdict needs its power: "
                                 "{'statement': what the test would have detected, ...}")

    def as_dict(self) -> dict[str, Any]:
        """The result as a dict (the evidence as stored)."""
        return {"verdict": self.verdict, "summary": self.summary, "claim": self.claim,
                "severity": self.severity, "consequence": self.consequence,
                "power": self.power, "root": self.root, "evidence": self.evidence}

    def replace(self, **changes: Any) -> "CheckResult":
        """A copy with ``changes`` applied (checked again by ``__post_init__``)."""
        from dataclasses import replace
        return replace(self, **changes)

    def _repr_html_(self) -> str:
        """Jupyter's display (verdict, reason, power or severity, scalar evidence)."""
        from dptheory.display import check_html
        return check_html(self)


@dataclass(frozen=True)
class Check:
    """A named, deterministic check of one catalog item.

    ``id`` is ``<item id>:<check name>``; ``run`` takes no argument and is deterministic
    (fixed seeds, derandomized Hypothesis), so a finding reproduces exactly.
    """

    id: str
    item: str
    kind: str                         # derivation | hypotheses | dimensions | property | ...
    run: Callable[[], CheckResult]
    description: str = ""

    @classmethod
    def of(cls, item: str, name: str, kind: str, run: Callable[[], CheckResult],
           description: str = "") -> "Check":
        """The check ``<item>:<name>``: how the check modules declare theirs."""
        return cls(id=f"{item}:{name}", item=item, kind=kind, run=run, description=description)

    @property
    def reproduce(self) -> str:
        """The command that runs this check again."""
        return f"dptheory findings --only {self.id}"


@dataclass(frozen=True)
class Finding:
    """A refuted claim: what is false, how gravely, and how to see it again.

    ``root`` groups refutations of one root cause (one finding, the others listed in
    ``also``). ``provenance`` is the catalog item's: a refutation of dptheory's own
    ``corrected`` or ``reconstructed`` item is not a finding of the paper.
    """

    id: str                           # catalog item id
    check: str                        # check id or check kind
    summary: str
    evidence: dict[str, Any]
    reproduce: str = ""
    severity: str = "bound"
    consequence: str = ""
    root: str = ""
    provenance: str = "printed"
    also: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, got {self.severity!r}")

    @property
    def key(self) -> str:
        """The root cause (or the check, when none is named). A property check's name is
        already its full id (``item:check``), so it is not prefixed twice: a check whose
        root another check names explicitly then merges with it."""
        if self.root:
            return self.root
        return self.check if self.check.startswith(f"{self.id}:") else f"{self.id}:{self.check}"

    def as_dict(self) -> dict[str, Any]:
        """The finding as a dict (``root`` is :attr:`key`)."""
        return {"id": self.id, "check": self.check, "summary": self.summary,
                "severity": self.severity, "consequence": self.consequence,
                "root": self.key, "provenance": self.provenance, "also": list(self.also),
                "evidence": self.evidence, "reproduce": self.reproduce}

    @classmethod
    def from_result(cls, item: str, check: str, result: CheckResult, reproduce: str = "",
                    provenance: str = "printed") -> "Finding":
        """The finding of a refuted ``result`` of ``check`` on ``item``; ``ValueError`` for any
        other verdict."""
        if result.verdict != "refuted":
            raise ValueError(f"only a refuted check makes a finding, got {result.verdict!r}")
        return cls(item, check, result.summary, result.evidence, reproduce,
                   result.severity or "bound", result.consequence, result.root, provenance)


_SYMBOLIC = frozenset({"dimensions", "hypotheses", "regime", "derivation"})


def finding_label(f: Finding) -> str:
    """``<item>:<check>`` of a refutation (its check id when the check names the item)."""
    return f.check if f.check.startswith(f"{f.id}:") else f"{f.id}:{f.check}"


def merge_findings(findings: list[Finding]) -> list[Finding]:
    """One finding per root cause: the most severe member stands for the others (``also``)."""
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.key, []).append(f)
    out = []
    for members in groups.values():
        # a concrete counterexample stands for the group before a symbolic reading of the text
        members = sorted(members, key=lambda f: (SEVERITY_RANK[f.severity],
                                                 f.check.rsplit(":", 1)[-1] in _SYMBOLIC,
                                                 f.id, f.check))
        head = members[0]
        # every member listed once: the head by itself, the others in `also` (a repeated
        # refutation of the head's own check is not listed again)
        also = tuple(sorted(({finding_label(f) for f in members[1:]} | set(head.also))
                            - {finding_label(head)}))
        from dataclasses import replace
        out.append(replace(head, also=also))
    return sorted(out, key=lambda f: (SEVERITY_RANK[f.severity], f.id, f.check))


#: Provenances of dptheory's own statements (not printed by a paper): their refutations are
#: kept apart from the papers' findings.
OWN_PROVENANCE = ("corrected", "reconstructed", "reconstructed-constants-unknown")


def split_findings(findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """(findings of the papers, merged by root cause; refutations of dptheory's own items)."""
    paper = [f for f in findings if f.provenance not in OWN_PROVENANCE]
    own = [f for f in findings if f.provenance in OWN_PROVENANCE]
    return merge_findings(paper), own


__all__ = ["VERDICTS", "SEVERITIES", "CLAIMS", "LEGACY", "CheckResult", "Check", "Finding",
           "finding_label", "merge_findings", "OWN_PROVENANCE", "split_findings"]
