"""Experiments: the catalog's claims bound to measurements, one module per paper.

What belongs here
-----------------
* ``zhang2017``, ``tran2022``, ``yang2022``, ``wang2020``, ``zhang2021`` — every check
  dptheory runs on that paper, in one file: its cell functions and recipes (utility,
  sensitivity, stability, audits), its ``AUDITS`` setups and ``AUDIT_CLAIMS``, and its
  ``HYPERPARAMETERS`` formulas. A paper's reproductions (``zhang2017_table3``,
  ``wang2020_figures``) sit beside it, registered in ``reproductions``.
* Engines that know no paper, named for what they do: ``cells`` (what every cell function
  shares: constants, catalog values, running a simulator over a replicate block, JSON
  conversion), ``sensitivity`` (the neighbour search), ``audits`` (the membership audit),
  ``hyperparams`` (the data-dependent hyper-parameter check), ``_reproduce`` (stored runs of
  the reproductions).

Imports go from the paper modules to the engines, never back, and never from an engine to
this package's gathered tables except inside a function (``hyperparams``). This package
gathers ``RECIPES``, ``AUDITS``, ``AUDIT_CLAIMS`` and ``HYPERPARAMETERS`` of the paper modules.
See :mod:`dptheory.verify.recipe` for the recipe/cell contract.
"""

from __future__ import annotations

from typing import Any

from dptheory.verify.recipe import Recipe

from . import tran2022, wang2020, yang2022, zhang2017, zhang2021

#: the paper modules, in the catalog's order
PAPERS = (zhang2017, tran2022, yang2022, wang2020, zhang2021)


def _gather() -> list[Recipe]:
    out = [r for m in PAPERS for r in m.RECIPES]
    ids = [r.id for r in out]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"duplicate recipe ids: {dup}")
    return out


RECIPES: list[Recipe] = _gather()
#: algorithm id -> audit setup, of every paper
AUDITS: dict[str, dict[str, Any]] = {k: v for m in PAPERS for k, v in m.AUDITS.items()}
#: algorithm id -> the (eps, delta) audited where it is not the engine's default
AUDIT_CLAIMS: dict[str, tuple[float, float]] = {k: v for m in PAPERS
                                                for k, v in m.AUDIT_CLAIMS.items()}
#: (algorithm id or paper, parameter) -> (formula, provenance, what it feeds)
HYPERPARAMETERS: dict[tuple[str, str], tuple[str, str, str]] = {
    k: v for m in PAPERS for k, v in m.HYPERPARAMETERS.items()}


def recipe_for(alg_id: str, *, quick: bool = True) -> Recipe:
    """The audit recipe of ``alg_id``: the quick one, or with ``quick=False`` the full one;
    ``ValueError`` when it has none."""
    for r in RECIPES:
        if r.check == "audit" and r.fixed["algorithm"] == alg_id and r.quick == quick:
            return r
    raise ValueError(f"no audit recipe for algorithm {alg_id!r}")


__all__ = ["RECIPES", "AUDITS", "AUDIT_CLAIMS", "HYPERPARAMETERS", "PAPERS", "recipe_for"]
