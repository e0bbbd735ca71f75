"""Checks of catalog items that need no objective (property tests of privacy and
sensitivity claims against independent computations).

Each submodule exposes ``CHECKS: list[dptheory.verify.Check]``. ``dptheory`` discovers
this package through the ``dptheory.checks`` entry point and calls :func:`checks`.
"""

from __future__ import annotations

import importlib

from dptheory.verify import Check
from dptheory_bounds.checks.constants import annotate

# One module per family of claims; each is independent of the others.
MODULES = ("privacy_accounting", "privacy_tree", "claims", "recall_corrected",
           "recall_assumptions", "recall_probability", "recall_restatements",
           "recall_lemma_hypotheses", "recall_noise_corners", "recall_proof_steps",
           "recall_bound_corners", "recall_privacy_models", "recall_proof_steps_yang2022",
           "recall_notation", "privacy_output", "recall_tran2022", "recall_dimensions")


def checks() -> list[Check]:
    """The ``CHECKS`` of every module of :data:`MODULES`, in that order; a module not
    present is skipped (any other import error is raised). Each result records which
    problem constants the check varied (:mod:`dptheory_bounds.checks.constants`)."""
    out: list[Check] = []
    for name in MODULES:
        try:
            module = importlib.import_module(f"dptheory_bounds.checks.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"dptheory_bounds.checks.{name}":
                continue
            raise
        out.extend(annotate(c) for c in module.CHECKS)
    return out


def dimension_deciders() -> dict[str, tuple[str, ...]]:
    """``{item id: ids of the checks that decide its dimensional note at scaled constants}``
    (:data:`dptheory_bounds.checks.recall_dimensions.DIMENSION_DECIDERS`): an engine that
    finds this provider through the ``dptheory.checks`` entry point can name the deciding
    check instead of listing the note as undecided."""
    from dptheory_bounds.checks.recall_dimensions import DIMENSION_DECIDERS
    return {item: d.checks for item, d in DIMENSION_DECIDERS.items()}
