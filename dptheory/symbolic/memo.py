"""Memoised SymPy simplification, shared by the symbolic core.

``derive --all`` used to repeat 92% of its ``sympy.simplify`` calls (894 calls, 71 distinct
expressions, measured). SymPy expressions are immutable and hash by structure (symbols with
their assumptions), and ``simplify`` is deterministic, so a cache returns what the call
would.
"""

from __future__ import annotations

import functools

import sympy as sp


@functools.lru_cache(maxsize=8192)
def simplify(expr: sp.Basic) -> sp.Basic:
    """``sympy.simplify(expr)``, computed once per distinct expression in a process."""
    return sp.simplify(expr)
