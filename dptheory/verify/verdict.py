"""Verdicts, checks and findings.

A *check* binds a catalog item to something that measures it (a symbolic derivation, a
property test, a simulation) and returns a :class:`CheckResult` with the numbers behind
it. A failing check is a :class:`Finding`: the claim, the check, the evidence and the
command that reproduces it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

VERDICTS = ("pass", "fail", "inconclusive")


@dataclass(frozen=True)
class CheckResult:
    verdict: str                      # one of VERDICTS
    summary: str                      # one line a reader understands without the evidence
    evidence: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


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

    @property
    def reproduce(self) -> str:
        return f"dptheory findings --only {self.id}"


@dataclass(frozen=True)
class Finding:
    id: str                           # catalog item id
    check: str                        # check id or check kind
    summary: str
    evidence: dict[str, Any]
    reproduce: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "check": self.check, "summary": self.summary,
                "evidence": self.evidence, "reproduce": self.reproduce}
