"""tran2022 Theorem 4 without alpha >= 1/N: the node releases' exact RDP at N = 1."""

from __future__ import annotations

import math

import pytest

from dptheory_bounds.checks.privacy_tree import THM4_ALPHA_ROOT, _run_thm4_small_alpha, tree_rdp_ratio


def _independent_ratio(T: int, R: int, alpha: float) -> float:
    """N = 1 by hand: node [a 2^b + 1, (a+1) 2^b] for b < R holds the datum at every step,
    weight (1 - alpha)^(z - t), so Delta = 2 alpha sum_{t=y}^{z} (1-alpha)^(z-t) (G = 1);
    V = T + sum_{j=1}^{R} floor(T / 2^j) (floor(log2 1) = 0)."""
    total = 0.0
    for b in range(R):
        for a in range(T >> b):
            y, z = a * 2**b + 1, (a + 1) * 2**b
            delta = 2 * alpha * sum((1 - alpha) ** (z - t) for t in range(y, z + 1))
            total += delta**2
    V = T + sum(T >> j for j in range(1, R + 1))
    return total / (16 * alpha**2 * V)


@pytest.mark.parametrize("T, alpha", [(4, 0.01), (8, 0.01), (64, 0.1), (256, 0.5)])
def test_ratio_matches_a_hand_computation(T, alpha):
    R = T.bit_length()
    assert tree_rdp_ratio(1, T, R, alpha) == pytest.approx(_independent_ratio(T, R, alpha),
                                                           rel=1e-12)


def test_theorem4_fails_below_alpha_one_over_n():
    res = _run_thm4_small_alpha()
    assert res.verdict == "refuted" and res.root == THM4_ALPHA_ROOT
    rows = {r["alpha"]: r["ratio"] for r in res.evidence["rows"]}
    # at alpha = 1/N = 1 each node moves by 2G and V = 2T - 1 nodes are released:
    # 4 (2T - 1) / (16 (2T - 1)) = 1/4
    assert rows[1.0] == pytest.approx(0.25, rel=1e-12)
    assert rows[0.001] == pytest.approx(_independent_ratio(1024, 11, 0.001), rel=1e-12)
    assert rows[0.001] > 100


def test_at_T_4_alpha_001_the_claim_still_holds():
    # planted boundary: by hand, T = 4, alpha = 0.01: sum Delta^2 = 0.0109787777 over
    # 16 * 1e-4 * 7 = 0.0112 -> 0.98025 <= 1 (a check that only said "alpha < 1/N" would fail)
    assert tree_rdp_ratio(1, 4, 3, 0.01) == pytest.approx(0.0109787777 / 0.0112, rel=1e-8)
    assert not math.isclose(tree_rdp_ratio(1, 4, 3, 0.01), 1.0)
