"""Experiment recipes: catalog items bound to a measurement and a sweep.

``RECIPES`` gathers the recipes of the submodules (``utility``, ``sensitivity``,
``stability``, ``audits``). A submodule that does not exist yet is skipped; any other
import error (including a missing module *inside* a submodule) propagates.
See :mod:`dptheory.verify.recipe` for the recipe/cell contract.
"""

from __future__ import annotations

import importlib

from dptheory.verify.recipe import Recipe

SUBMODULES = ("utility", "sensitivity", "stability", "audits")


def _gather() -> list[Recipe]:
    out: list[Recipe] = []
    for name in SUBMODULES:
        full = f"{__name__}.{name}"
        try:
            module = importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name == full:
                continue
            raise
        out.extend(getattr(module, "RECIPES", []))
    ids = [r.id for r in out]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"duplicate recipe ids: {dup}")
    return out


RECIPES: list[Recipe] = _gather()

__all__ = ["RECIPES", "SUBMODULES"]
