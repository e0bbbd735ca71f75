"""The symbolic core: symbols with units, assumptions, theorems and the rate algebra.

What belongs here: SymPy objects and the algebra on them, for any theorem (symbols and
units, assumptions, ``Theorem``, leading terms, regimes, derive, compare, dimensions,
hypotheses at the settings, numeric evaluation, and resolving names and printed letters to
symbols). It may import SymPy, NumPy, mpmath and dptheory's foundations (``errors``,
``vocabulary``, ``notation``; ``plotting`` inside ``plot()``), never ``catalog``,
``registry``, ``verify``, ``cli`` or a catalog: the papers' letters reach it through
:mod:`dptheory.notation`. ``derive`` imports ``compare``, not the other way.
"""

from dptheory.symbolic import units
from dptheory.symbolic.assumptions import *  # noqa: F401,F403 - the assumption types
from dptheory.symbolic.assumptions import __all__ as _assumptions_all
from dptheory.symbolic.symbols import S, info, lookup, register, registered, unit_of
from dptheory.symbolic.theorem import (KINDS, PROVENANCE, RELATIONS, Catalog, Paper, Sensitivity,
                                       Theorem, polylog)

__all__ = ["units", "S", "info", "lookup", "register", "registered", "unit_of", "Theorem", "Catalog",
           "Paper", "Sensitivity", "KINDS", "PROVENANCE", "RELATIONS", "polylog", *_assumptions_all]
