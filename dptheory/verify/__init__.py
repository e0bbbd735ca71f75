"""Verification: checks, verdicts and findings.

What belongs here: judging claims against evidence: the verdict vocabulary (``verdict``,
which imports nothing), statistics, checks, recipes, the symbolic findings, the engine that
runs recipes, the report and the privacy audits. It may import the layers below it
(foundations, ``symbolic``, ``privacy``, ``registry``, ``catalog``) and ``store`` and
``parallel`` beside it; never ``cli``, a catalog or a simulator by name (they come through
entry points). Inside it ``engine`` imports ``findings``, not the other way.
"""

from dptheory.verify.verdict import Check, CheckResult, Finding, VERDICTS

__all__ = ["Check", "CheckResult", "Finding", "VERDICTS"]
