"""The symbolic core: symbols with units, assumptions, theorems and the rate algebra."""

from dptheory.symbolic import units
from dptheory.symbolic.assumptions import *  # noqa: F401,F403 - the assumption types
from dptheory.symbolic.assumptions import __all__ as _assumptions_all
from dptheory.symbolic.symbols import S, info, lookup, register, registered, unit_of
from dptheory.symbolic.theorem import (KINDS, PROVENANCE, RELATIONS, Catalog, Paper, Sensitivity,
                                       Theorem, polylog)

__all__ = ["units", "S", "info", "lookup", "register", "registered", "unit_of", "Theorem", "Catalog",
           "Paper", "Sensitivity", "KINDS", "PROVENANCE", "RELATIONS", "polylog", *_assumptions_all]
