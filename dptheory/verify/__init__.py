"""Verification: checks, verdicts and findings."""

from dptheory.verify.verdict import Check, CheckResult, Finding, VERDICTS

__all__ = ["Check", "CheckResult", "Finding", "VERDICTS"]
