"""Tests of dptheory.privacy.tree and of the checks in dptheory_bounds.checks.privacy_tree.

Expected values come from hand computations, brute force over actual permutation
sequences, binary expansions, and the momentum recursion, not from the code under test.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory_bounds.checks import privacy_tree
from dptheory.privacy import tree

HYP = settings(derandomize=True, database=None, max_examples=300, deadline=None)


# ----------------------------------------------------------------------------- interval set I
def test_dyadic_intervals_small():
    assert tree.dyadic_intervals(5) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (1, 2), (3, 4), (1, 4)]
    assert tree.dyadic_intervals(5, depth=2) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (1, 2), (3, 4)]


@pytest.mark.parametrize("T", [1, 2, 7, 64, 100])
def test_dyadic_intervals_count(T):
    # level b contributes floor(T / 2^b) nodes
    assert len(tree.dyadic_intervals(T)) == sum(T // 2**b for b in range(T.bit_length()))


def test_node_level():
    assert tree.node_level(5, 8) == (2, 1)
    assert tree.node_level(7, 7) == (0, 6)
    with pytest.raises(ValueError, match="power-of-two"):
        tree.node_level(2, 4)
    with pytest.raises(ValueError, match="multiple"):
        tree.node_level(2, 3)


# ----------------------------------------------------------------------------- COMPOSE
def test_compose_examples():
    assert tree.compose(1, 13) == [(1, 8), (9, 12), (13, 13)]
    assert tree.compose(2, 7) == [(2, 2), (3, 4), (5, 6), (7, 7)]
    assert tree.compose(5, 5) == [(5, 5)]
    assert tree.compose(1, 13, depth=2) == [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 13)]
    assert tree.compose(1, 13, depth=1) == [(i, i) for i in range(1, 14)]


def _is_dyadic(y, z):
    n = z - y + 1
    return n & (n - 1) == 0 and (y - 1) % n == 0


@HYP
@given(a=st.integers(1, 2**50), length=st.integers(1, 5000), depth=st.one_of(st.none(), st.integers(1, 20)))
def test_compose_partition_property(a, length, depth):
    b = a + length - 1
    nodes = tree.compose(a, b, depth)
    assert nodes[0][0] == a and nodes[-1][1] == b
    for (y1, z1), (y2, z2) in zip(nodes, nodes[1:]):
        assert y2 == z1 + 1                     # ordered, disjoint, no gaps
    for y, z in nodes:
        assert y <= z and _is_dyadic(y, z)
        if depth is not None:
            assert z - y + 1 <= 2 ** (depth - 1)
    if depth is None:
        assert len(nodes) <= max(1, 2 * int(math.floor(math.log2(length))))


@pytest.mark.parametrize("t", list(range(1, 300)) + [2**20 - 1, 2**20, 123456789])
def test_compose_prefix_is_binary_expansion(t):
    # COMPOSE(1, t) = one node per set bit of t, from the highest bit down
    expected, s = [], 1
    for b in reversed(range(t.bit_length())):
        if t >> b & 1:
            expected.append((s, s + 2**b - 1))
            s += 2**b
    assert tree.compose(1, t) == expected


def test_compose_is_greedy_maximal():
    # no two consecutive nodes of the same size could be merged into a member of I
    for b in range(1, 80):
        for a in range(1, b + 1):
            nodes = tree.compose(a, b)
            for (y1, z1), (y2, z2) in zip(nodes, nodes[1:]):
                if z1 - y1 == z2 - y2:
                    assert not _is_dyadic(y1, z2)


@pytest.mark.parametrize("args, match", [((0, 3), "a must be >= 1"), ((4, 3), "a must be <= b"),
                                         ((1, 3, 0), "depth must be >= 1"), ((1.5, 3), "a must be an integer")])
def test_compose_validation(args, match):
    with pytest.raises(ValueError, match=match):
        tree.compose(*args)


# ----------------------------------------------------------------------------- node sensitivity
def test_node_sensitivity_formula_hand_values():
    # 2 alpha G sum_{j=0}^{ceil((z-y)/N)-1} (1-alpha)^{jN}
    assert tree.node_sensitivity_formula(1, 1, 4, 0.25, 1.0) == 0.0           # empty sum, as printed
    assert tree.node_sensitivity_formula(1, 4, 4, 0.25, 2.0) == pytest.approx(2 * 0.25 * 2)
    assert tree.node_sensitivity_formula(1, 8, 4, 0.25, 1.0) == pytest.approx(0.5 * (1 + 0.75**4))
    assert tree.node_sensitivity_formula(1, 16, 3, 0.5, 1.0) == pytest.approx(
        sum(0.5**(3 * j) for j in range(5)))


def _perm_bruteforce_sensitivity(y, z, N, alpha, G):
    """Max over data and over all permutation sequences (one per epoch) of
    2 alpha G sum_{p in [y,z], datum used at p} (1-alpha)^{z-p}."""
    epochs = range((y - 1) // N, (z - 1) // N + 1)
    best = 0.0
    for perms in itertools.product(itertools.permutations(range(N)), repeat=len(epochs)):
        for datum in range(N):
            s = 0.0
            for q, perm in zip(epochs, perms):
                p = q * N + perm.index(datum) + 1
                if y <= p <= z:
                    s += (1 - alpha) ** (z - p)
            best = max(best, s)
    return 2 * alpha * G * best


@pytest.mark.parametrize("N", [2, 3])
def test_node_sensitivity_bruteforce_matches_permutations(N):
    for y, z in tree.dyadic_intervals(3 * N):
        for alpha in (1 / N, 0.7):
            expected = _perm_bruteforce_sensitivity(y, z, N, alpha, 1.5)
            assert tree.node_sensitivity_bruteforce(y, z, N, alpha, 1.5) == pytest.approx(expected, rel=1e-12)
            assert tree.node_sensitivity_exact(y, z, N, alpha, 1.5) == pytest.approx(expected, rel=1e-12)


def test_node_sensitivity_known_counterexample_values():
    # N=3, node [3,4] straddles epochs {1,2,3},{4,5,6}: datum at 3 and 4 -> 2aG(1 + (1-a))
    a = 1 / 3
    assert tree.node_sensitivity_bruteforce(3, 4, 3, a, 1.0) == pytest.approx(2 * a * (1 + 2 / 3))
    assert tree.node_sensitivity_formula(3, 4, 3, a, 1.0) == pytest.approx(2 * a)
    assert tree.max_occurrences(3, 4, 3) == 2 and tree.max_occurrences_formula(3, 4, 3) == 1


# ----------------------------------------------------------------------------- participation count
def test_participation_count_V_hand_values():
    # N=4: floor(log2 4)=2; R=5: (2+1)*16/4 + floor(16/8)+floor(16/16)+floor(16/32) = 12+2+1+0
    assert tree.participation_count_V(4, 16, 5) == pytest.approx(15.0)
    # R=1 <= floor(log2 N): (1+1) T/N, empty tail sum
    assert tree.participation_count_V(4, 16, 1) == pytest.approx(8.0)
    # N=3: floor(log2 3)=1; R=2: (1+1)*4/3 + floor(4/4)
    assert tree.participation_count_V(3, 4, 2) == pytest.approx(8 / 3 + 1)


def _perm_bruteforce_participation(N, T, R):
    """Simulate Algorithm 1's loops with every permutation sequence; for each datum count
    the sampled nodes (levels b < R, inside {1..T}) containing an iteration that uses it."""
    nodes = [(a * 2**b + 1, (a + 1) * 2**b) for b in range(R) for a in range(T // 2**b)]
    n_epochs = T // N + 1
    best = 0
    for perms in itertools.product(itertools.permutations(range(N)), repeat=n_epochs):
        used = {i: [] for i in range(N)}
        for q in range(n_epochs):                    # for q = 0..floor(T/N)
            for i in range(1, min(N, T - q * N) + 1):  # for i = 1..min{N, T - qN}
                used[perms[q][i - 1]].append(q * N + i)
        for i in range(N):
            best = max(best, sum(any(y <= p <= z for p in used[i]) for y, z in nodes))
    return best


@pytest.mark.parametrize("N, T, R", [(2, 5, 3), (2, 6, 2), (3, 4, 2), (3, 7, 3), (3, 8, 4), (3, 9, 4),
                                     (2, 3, 1), (4, 7, 3)])
def test_participation_bruteforce_matches_permutations(N, T, R):
    assert tree.participation_count_bruteforce(N, T, R) == _perm_bruteforce_participation(N, T, R)


def test_participation_witness():
    count, positions, per_level = tree.participation_count_bruteforce(3, 4, 2, return_witness=True)
    assert count == 4 == sum(per_level)
    assert per_level == [2, 2] and len(positions) == 2


def test_participation_refuses_huge():
    with pytest.raises(ValueError, match="at most"):
        tree.participation_count_bruteforce(12, 200, 3)


# ----------------------------------------------------------------------------- online aggregator
def _reference_noise(t, alpha, node_noise):
    # independent NOISE_t from the binary expansion of t
    acc, s = 0.0, 1
    for b in reversed(range(t.bit_length())):
        if t >> b & 1:
            z = s + 2**b - 1
            acc = acc + (1 - alpha) ** (t - z) * node_noise(b, (s - 1) >> b)
            s = z + 1
    return acc


@pytest.mark.parametrize("alpha", [0.05, 0.5, 1.0])
def test_online_equals_offline_exactly(alpha):
    T, d, reps = 77, 3, 2
    f = tree.keyed_node_noise(123, reps, d, 0.7)
    online = np.stack(list(tree.OnlineTreeAggregator(d, T, alpha, 0.7, None, reps, node_noise=f,
                                                     incremental=False)))
    offline = tree.offline_tree_noise(T, d, alpha, f, reps)
    assert online.shape == (T, reps, d)
    assert np.array_equal(online, offline)          # same nodes, same summation order: bit-exact
    for t in (1, 2, 3, 31, 64, 77):
        assert np.allclose(online[t - 1], _reference_noise(t, alpha, f), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.5, 1.0])
def test_incremental_running_sum_equals_offline(alpha):
    # The running sum subtracts the merged nodes' contributions instead of re-summing, so it
    # differs from the offline sums by rounding only: each step adds O(1) roundings of
    # magnitude ~ 1e-16 |NOISE|, damped by beta = 1 - alpha; over T = 3000 steps the error
    # stays below 3000 * 1e-16 * few = 1e-12 of the noise scale (here 0.7 per node).
    T, d, reps = 3000, 3, 2
    f = tree.keyed_node_noise(321, reps, d, 0.7)
    agg = tree.OnlineTreeAggregator(d, T, alpha, 0.7, None, reps, node_noise=f)
    online = np.stack(list(agg))
    offline = tree.offline_tree_noise(T, d, alpha, f, reps)
    assert np.max(np.abs(online - offline)) < 1e-11
    assert agg.nodes_drawn == T                       # each node of I used is drawn once


@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_online_equals_offline_capped_depth(depth):
    T, d, reps, alpha = 45, 2, 3, 0.2
    f = tree.keyed_node_noise(5, reps, d, 1.0)
    agg = tree.OnlineTreeAggregator(d, T, alpha, 1.0, None, reps, depth=depth, node_noise=f)
    online = np.stack(list(agg))
    offline = tree.offline_tree_noise(T, d, alpha, f, reps, depth=depth)
    assert np.allclose(online, offline, rtol=1e-12, atol=1e-12)
    assert agg.peak_live <= depth + 1


def test_online_memory_is_logarithmic():
    T = 2**12 + 5
    agg = tree.OnlineTreeAggregator(2, T, 0.1, 1.0, np.random.default_rng(0))
    peak = 0
    for _ in agg:
        peak = max(peak, agg.live_nodes)
        assert agg.live_nodes == bin(agg.t).count("1")   # exactly the nodes of COMPOSE(1, t)
    assert peak == agg.peak_live <= T.bit_length()
    # each node of COMPOSE(1, t) for some t is drawn exactly once: nodes with even index a
    used = {n for t in range(1, T + 1) for n in tree.compose(1, t)}
    assert agg.nodes_drawn == len(used)


def test_online_default_rng_reproducible_and_exhausts():
    a = np.stack(list(tree.OnlineTreeAggregator(4, 20, 0.3, 2.0, np.random.default_rng(9), reps=2)))
    b = np.stack(list(tree.OnlineTreeAggregator(4, 20, 0.3, 2.0, np.random.default_rng(9), reps=2)))
    assert np.array_equal(a, b)
    agg = tree.OnlineTreeAggregator(1, 2, 0.3, 1.0, np.random.default_rng(0))
    agg.step(), agg.step()
    with pytest.raises(ValueError, match="exhausted"):
        agg.step()


def test_online_noise_variance_matches_formula():
    # NOISE_t / std_t ~ N(0, 1) per coordinate: sum of squares over reps*d ~ chi2(reps*d)
    from scipy import stats
    T, d, reps, alpha, s = 24, 2, 3000, 0.3, 1.7
    agg = tree.OnlineTreeAggregator(d, T, alpha, s, np.random.default_rng(17), reps=reps)
    pvals = []
    for t, noise in enumerate(agg, start=1):
        # independent std: node_std^2 sum over set bits of t of (1-alpha)^{2(t - z)}
        var, acc = 0.0, 0
        for b in reversed(range(t.bit_length())):
            if t >> b & 1:
                acc += 2**b
                var += (1 - alpha) ** (2 * (t - acc))
        std = s * math.sqrt(var)
        assert tree.tree_prefix_sum_noise_std(t, alpha, s) == pytest.approx(std, rel=1e-12)
        pvals.append(stats.chi2(reps * d).sf(float((noise**2).sum()) / std**2))
    pvals = np.array(pvals)
    assert np.all(np.minimum(pvals, 1 - pvals) > 1e-4 / T)


def test_online_validation():
    with pytest.raises(ValueError, match="alpha must be in"):
        tree.OnlineTreeAggregator(2, 10, 0.0, 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng must be"):
        tree.OnlineTreeAggregator(2, 10, 0.5, 1.0, None)
    with pytest.raises(ValueError, match="node_std must be >= 0"):
        tree.OnlineTreeAggregator(2, 10, 0.5, -1.0, np.random.default_rng(0))
    bad = tree.OnlineTreeAggregator(2, 10, 0.5, 1.0, None, node_noise=lambda b, a: np.zeros(3))
    with pytest.raises(ValueError, match="node_noise must return shape"):
        bad.step()


# ----------------------------------------------------------------------------- momentum tree sum
@pytest.mark.parametrize("alpha, depth", [(0.01, None), (0.3, None), (1.0, None), (0.3, 3)])
def test_momentum_tree_sum_equals_recursion(alpha, depth):
    g = np.random.default_rng(1).standard_normal((2, 300, 4))
    m, ref = np.zeros((2, 4)), []
    for t in range(300):
        m = (1 - alpha) * m + alpha * g[:, t]
        ref.append(m)
    assert np.allclose(tree.momentum_tree_sum(g, alpha, depth), np.stack(ref, axis=1), rtol=1e-12, atol=1e-13)


# ----------------------------------------------------------------------------- checks
@pytest.fixture(scope="module")
def results():
    return {c.id: c.run() for c in privacy_tree.CHECKS}


def test_check_registry():
    ids = [c.id for c in privacy_tree.CHECKS]
    assert len(ids) == len(set(ids))
    for c in privacy_tree.CHECKS:
        assert c.id.startswith(c.item + ":")


@pytest.mark.parametrize("cid", ["tran2022.alg3:partition", "tran2022.tree:ancestors",
                                 "tran2022.momentum_tree:identity", "zhang2017.lemma6:second_moment",
                                 "zhang2017.lemma7:second_moment"])
def test_checks_that_hold_pass(results, cid):
    assert results[cid].verdict == "supported", results[cid].summary
    assert results[cid].power["statement"]


def test_check_tree_partial_sums_reports_counterexample(results):
    r = results["tran2022.tree:partial_sum_nodes"]
    assert r.verdict == "refuted"
    # COMPOSE(1,1) = {[1,1]} needs 1 node, but log2(1) = 0; t=3 needs 2 > log2 3
    assert r.evidence["prefix_counterexample"]["t"] == 1
    assert r.evidence["prefix_counterexample_t_ge_2"]["t"] == 3
    # ceil reading: [2,7] = [2],[3,4],[5,6],[7] is 4 nodes > ceil(log2 7) = 3
    ce = r.evidence["any_partial_sum_counterexample_ceil_reading"]
    assert ce["t"] == 7 and ce["len"] == 4


def test_check_prop13_count_reports_misprint(results):
    r = results["tran2022.prop13:count_misprint"]
    assert r.verdict == "refuted" and r.severity == "notation"
    assert r.root == "tran2022.prop13:count-off-by-one"
    # N=3, node [1,4] has 4 positions: printed count ceil(3/3) = 1 gives 2 alpha G = 2/3;
    # the length reading ceil(4/3) = 2 gives (2/3)(1 + (2/3)^3) = 0.8642
    m = r.evidence["example_non_leaf"]
    assert (m["N"], tuple(m["node"])) == (3, (1, 4))
    assert m["printed"] == pytest.approx(2 / 3)
    assert m["length_reading"] == pytest.approx((2 / 3) * (1 + (2 / 3) ** 3))
    # a leaf: the printed sum over ceil(0/N) = 0 terms is empty
    assert tree.node_sensitivity_formula(1, 1, 2, 0.5, 1.0) == 0.0
    assert r.evidence["all_short_have_length_1_mod_N"] is True


def test_check_prop13_formula_reports_epoch_straddling(results):
    r = results["tran2022.prop13:formula_vs_bruteforce"]
    assert r.verdict == "refuted" and r.severity == "bound"
    assert r.root == "tran2022.prop13:epoch-straddling"
    m = r.evidence["minimal_counterexample"]
    # N=3, node [1,4]: positions 3 (epoch 0) and 4 (epoch 1) are 1 apart, not N:
    # 2 (1/3) ((2/3)^1 + 1) = 10/9 > length reading 0.8642
    assert (m["N"], tuple(m["node"])) == (3, (1, 4))
    assert m["brute"] == pytest.approx(2 / 3 * _positions_max(1, 4, 3, 1 / 3)) == pytest.approx(10 / 9)
    assert m["length_reading"] < m["brute"]
    # N = 2 is not affected (independent enumeration)
    for y, z in tree.dyadic_intervals(8):
        assert 2 * 0.5 * _positions_max(y, z, 2, 0.5) <= 2 * 0.5 * sum(
            0.5 ** (j * 2) for j in range(-(-(z - y + 1) // 2))) + 1e-12
    assert r.evidence["corrected_formula_equals_bruteforce"] is True


def _positions_max(y, z, N, alpha):
    # independent maximisation over one position per epoch
    epochs = range((y - 1) // N, (z - 1) // N + 1)
    best = 0.0
    for pos in itertools.product(*[range(q * N + 1, (q + 1) * N + 1) for q in epochs]):
        best = max(best, sum((1 - alpha) ** (z - p) for p in pos if y <= p <= z))
    return best


def test_check_prop13_4alphaG_reports_counterexample(results):
    r = results["tran2022.prop13:le_4alphaG"]
    assert r.verdict == "refuted"
    m = r.evidence["minimal_counterexample"]
    assert (m["N"], tuple(m["node"])) == (5, (9, 16))
    # positions 10, 15, 16 at alpha = 1/5: 2 (1/5) (0.8^6 + 0.8 + 1) = 0.8248576 > 0.8
    assert m["bruteforce_sensitivity"] == pytest.approx(0.4 * (0.8**6 + 0.8 + 1))
    assert 2 * 0.2 * _positions_max(9, 16, 5, 0.2) > 4 * 0.2
    # no smaller N fails (independent enumeration, nodes with z <= 4N)
    for N in range(2, 5):
        for y, z in tree.dyadic_intervals(4 * N):
            assert 2 * _positions_max(y, z, N, 1 / N) <= 4 + 1e-12
    assert r.evidence["corrected_bound_violations"] == 0


def test_check_thm4_count_V_reports_counterexample(results):
    r = results["tran2022.thm4:count_V"]
    assert r.verdict == "refuted"
    m = r.evidence["minimal_counterexample"]
    assert (m["N"], m["T"], m["R"]) == (3, 1, 1)
    assert m["V_printed"] == pytest.approx(2 / 3) and m["bruteforce"] == 1
    m2 = r.evidence["minimal_counterexample_T_ge_N"]
    assert (m2["N"], m2["T"], m2["R"]) == (3, 4, 2)
    assert m2["bruteforce"] == _perm_bruteforce_participation(3, 4, 2) == 4
    assert m2["V_printed"] == pytest.approx(8 / 3 + 1)
    assert r.evidence["n_exceed_when_N_divides_T"] == 0


def test_checks_deterministic():
    c = next(c for c in privacy_tree.CHECKS if c.id == "tran2022.thm4:count_V")
    assert c.run() == c.run()
