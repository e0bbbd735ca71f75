"""Certified suprema of sensitivities (issue 23, item 3): closed-form upper bounds on
``sup_{S ~ S'} ||q(S) - q(S')||`` that a sensitivity check can pass to
:func:`dptheory.verify.checks.sup_check` as ``certified_sup``, with their derivation.

The one recursion here is the growth recursion of Hardt, Recht and Singer (2016, Lemma 2.5)
for full-batch GD on neighbours S, S' that differ in record i: write
``G_S(w) = w - eta grad F_S(w)``; then

    w_{t+1} - w'_{t+1} = G_S(w_t) - G_S(w'_t) + (eta/n) (grad f_i'(w'_t) - grad f_i(w'_t)),

so ``Delta_{t+1} <= q Delta_t + eta g / n`` where ``q`` is a Lipschitz constant of the GD
map ``G_S`` and ``g >= sup_w ||grad f_i'(w) - grad f_i(w)||`` (the replaced record's
gradient difference at one point). ``q`` is certified by

* convex, beta-smooth F_S and ``eta <= 2/beta``: ``q = 1`` (the GD map is nonexpansive);
* mu-strongly convex, beta-smooth F_S and ``eta <= 2/(mu + beta)``: ``q = 1 - eta mu``
  (the GD map is ``max(|1 - eta mu|, |1 - eta beta|)``-Lipschitz, e.g. Ryu and Boyd 2016,
  Sec. 5), and with Delta_0 = 0,

    Delta_T <= (eta g / n) sum_{k < T} q^k.

The second is the per-step Hessian sensitivity of a linear model f(w, (x, y)) =
phi(<x, w>; y) + r(w): at one w, hess f(w, z) - hess f(w, z') = a x x^T - b x' x'^T with
a, b the values of phi'' (r's Hessian cancels), and for any symmetric M,
||triu(M)||_F <= ||M||_F. Hence with |a|, |b| <= c and ||x||, ||x'|| <= X:

* phi'' of one sign (a, b in [0, c], e.g. the logistic loss, c = 1/4):
  ||a xx^T - b x'x'^T||_F^2 = a^2 ||x||^4 + b^2 ||x'||^4 - 2ab <x, x'>^2 <= 2 c^2 X^4, so the
  supremum is at most sqrt(2) c X^2 (attained by orthogonal x, x' of norm X on coordinate
  axes with a = b = c);
* phi'' of either sign (e.g. the sigmoid loss, c = 1/(6 sqrt 3)): at most 2 c X^2 (the
  triangle inequality; attained by x = x' = X e_1 with a = -b = c).

The sensitivity of the full Hessian (1/n) sum_i is that divided by n.

The third is the node sensitivity of a tree aggregation of exponentially weighted gradients
(tran2022, Proposition 13 and Theorem 4): node [y, z] releases
``f_[y,z] = alpha sum_{t=y}^{z} (1 - alpha)^{z-t} g_t`` where step t uses the record at
position t of a per-epoch permutation of the N records (epoch e covers steps eN+1 .. (e+1)N).
At fixed iterates (the conditional sensitivity of the adaptive composition) replacing record
i changes g_t only at the one step per epoch where the permutation visits i, and there by
``||g(w_t, z_i) - g(w_t, z')|| <= 2G``. With p_e the visit of epoch e,

    ||f_[y,z](D) - f_[y,z](D')|| <= 2 alpha G sum_{e : p_e in [y, z]} (1 - alpha)^{z - p_e},

and each epoch's permutation is free, so the worst case puts p_e at the latest step of the
epoch inside the node, ``min(z, (e+1)N)``: the supremum over nodes and permutations is

    2 alpha G max_{[y,z]} sum_{e : eN+1 <= z, (e+1)N >= y} (1 - alpha)^{z - min(z, (e+1)N)}.

It is attained (so it is the supremum, not only a bound) when the two records' gradients are
antipodal at norm G at every visit, e.g. for f = phi(<a, w> - b) with |phi'| maximal at
+-u0: a = a' with ||a|| = X and residuals +u0, -u0 at every visit. For N a power of 2 no
dyadic node straddles an epoch and the maximum is the root [1, T], T = mN:
``2 alpha G sum_{k<m} (1 - alpha)^{kN}``.
"""

from __future__ import annotations

import math

__all__ = ["gd_growth_sup", "hessian_difference_sup", "tree_node_sup", "tree_node_worst"]


def gd_growth_sup(g: float, eta: float, n: int, T: int, *, mu: float, beta: float) -> float:
    """Certified ``sup ||w_T(S) - w_T(S')||`` of GD from a common start (module docstring).

    Parameters
    ----------
    g : float
        ``sup_w ||grad f(w, z') - grad f(w, z)||`` over the pairs of records allowed.
    eta, n, T : step size, data set size, number of steps.
    mu, beta : strong convexity (0 for convex) and smoothness of F_S.

    Raises ValueError when the step is too long for the contraction used
    (``eta > 2/beta`` convex, ``eta > 2/(mu + beta)`` strongly convex).
    """
    for name, v in (("g", g), ("eta", eta), ("mu", mu), ("beta", beta)):
        if not (math.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {v}")
    if int(n) < 1 or int(T) < 0:
        raise ValueError(f"n must be >= 1 and T >= 0, got n={n}, T={T}")
    if beta <= 0 or mu > beta:
        raise ValueError(f"need 0 <= mu <= beta and beta > 0, got mu={mu}, beta={beta}")
    limit = 2 / beta if mu == 0 else 2 / (mu + beta)
    if eta > limit * (1 + 1e-12):
        raise ValueError(f"eta must be <= {limit:g} for the certified contraction, got {eta}")
    q = 1.0 - eta * mu
    growth = float(T) if q == 1.0 else (1 - q ** int(T)) / (1 - q)
    return eta * g / int(n) * growth


def hessian_difference_sup(c: float, X: float, n: int, *, one_sign: bool) -> float:
    """Certified ``sup_{w, z, z'} ||triu(hess F_S(w) - hess F_S'(w))||_F`` for a linear model
    whose loss curvature phi'' is bounded by ``c`` in absolute value (module docstring):
    ``sqrt(2) c X^2 / n`` when phi'' has one sign, ``2 c X^2 / n`` otherwise."""
    for name, v in (("c", c), ("X", X)):
        if not (math.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {v}")
    if int(n) < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return (math.sqrt(2) if one_sign else 2.0) * c * X * X / int(n)


def tree_node_worst(alpha: float, N: int, nodes: list[tuple[int, int]]
                    ) -> tuple[float, tuple[int, int], list[int]]:
    """The worst node of :func:`tree_node_sup` and its visits: (weight sum
    ``sum_e (1 - alpha)^{z - p_e}``, node [y, z], the steps p_e = min(z, end of epoch e) of
    the epochs meeting it), maximised over ``nodes`` (1-based [y, z])."""
    if not (math.isfinite(alpha) and 0 < alpha <= 1):
        raise ValueError(f"alpha must be in (0, 1], got {alpha}")
    if int(N) < 1 or not nodes:
        raise ValueError(f"need N >= 1 and at least one node, got N={N}, {len(nodes)} nodes")
    best: tuple[float, tuple[int, int], list[int]] | None = None
    for y, z in nodes:
        if not 1 <= y <= z:
            raise ValueError(f"a node must have 1 <= y <= z, got [{y}, {z}]")
        first, last = (y - 1) // int(N), (z - 1) // int(N)      # epochs meeting [y, z]
        visits = [min(z, (e + 1) * int(N)) for e in range(first, last + 1)]
        w = sum((1 - alpha) ** (z - p) for p in visits)
        if best is None or w > best[0]:
            best = (w, (y, z), visits)
    assert best is not None
    return best


def tree_node_sup(alpha: float, G: float, N: int, nodes: list[tuple[int, int]]) -> float:
    """Certified ``sup ||f_[y,z](D) - f_[y,z](D')||`` over the tree ``nodes`` (1-based
    [y, z]) and every per-epoch permutation of N records, at fixed iterates, with per-sample
    gradients bounded by G (module docstring):
    ``2 alpha G max_nodes sum_epochs (1 - alpha)^{z - min(z, end of the epoch)}``."""
    if not (math.isfinite(G) and G >= 0):
        raise ValueError(f"G must be a finite number >= 0, got {G}")
    return 2 * alpha * G * tree_node_worst(alpha, N, nodes)[0]
