"""Dimensions of symbols: two base dimensions, loss value [F] and parameter [w].

A dimension is a SymPy monomial in the base symbols ``F`` and ``W`` (``W`` is [w]).
A Lipschitz constant is ``F/W``, a smoothness constant ``F/W**2``, an SGD step size
``W**2/F``, a normalized-update step size ``W``; ``1`` is dimensionless.
"""

from __future__ import annotations

import sympy as sp

F = sp.Symbol("F", positive=True)      # loss value
W = sp.Symbol("W", positive=True)      # parameter (the paper's [w])

ONE = sp.Integer(1)
LOSS = F
PARAM = W
GRAD = F / W                           # Lipschitz constants, gradient norms, tau0, C, r
SMOOTH = F / W**2                      # smoothness, PL / strong convexity constants
HESS_LIP = F / W**3                    # Hessian-Lipschitz rho
L1_UNIT = 1 / W                        # L1 of (L0, L1)-generalized smoothness
STEP = W**2 / F                        # step size of plain / momentum SGD, GD
STEP_NORMALIZED = W                    # step size of w - eta m/||m||
GRAD_VAR = F**2 / W**2                 # gradient variance

__all__ = ["F", "W", "ONE", "LOSS", "PARAM", "GRAD", "SMOOTH", "HESS_LIP", "L1_UNIT",
           "STEP", "STEP_NORMALIZED", "GRAD_VAR"]
