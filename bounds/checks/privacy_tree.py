"""Checks of the tree-aggregation claims of tran2022 and of the noise moments of zhang2017.

Every check is deterministic (fixed seeds, seeded Hypothesis searches) and runs in a few
seconds. Claims are encoded as printed; a claim that does not hold is reported as verdict
``refuted`` (graded, with its root cause) with its minimal counterexample in ``evidence``
(and, where one could be derived, a corrected variant verified by the same computation).
Exhaustive enumerations and exact identities are supported with that as their power. Expected values come from brute
force, exact enumeration or closed forms (Gamma / chi-square moments, quadrature), never
from the formula under test.
"""

from __future__ import annotations

import math
from random import Random
from typing import Any, Callable

import numpy as np
import sympy as sp
from hypothesis import find
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from scipy import integrate, stats

from dptheory.derandom import search_settings
from dptheory.privacy import samplers, tree
from dptheory.verify import Check, CheckResult

# The seed of every Hypothesis search of this module: the checks have no cell seed, and a
# fixed one keeps their examples the same in every process and install.
_HYP_SEED = 20220101


def _minimal_counterexample(strategy: st.SearchStrategy, holds: Callable[[Any], bool]) -> Any:
    """Shrunk example on which ``holds`` is False, or None (seeded Hypothesis search)."""
    try:
        return find(strategy, lambda x: not holds(x), settings=search_settings(max_examples=200),
                    random=Random(_HYP_SEED))
    except NoSuchExample:
        return None


def _log2(x: int) -> float:
    return math.log2(x)


# =========================================================================== tran2022.alg3
_ALG3_BMAX = 256


def _compose_defects(a: int, b: int, depth: int | None = None,
                     nodes: list[tuple[int, int]] | None = None) -> list[str]:
    """Independent validation of one COMPOSE(a, b): coverage, disjointness, order,
    membership in I (horizon b) and the depth cap. Returns the list of violated properties."""
    if nodes is None:
        nodes = tree.compose(a, b, depth)
    bad = []
    # ordered, disjoint and covering: starts at a, ends at b, each node starts where the
    # previous one ended, and no node is empty
    if (not nodes or nodes[0][0] != a or nodes[-1][1] != b
            or any(y > z for y, z in nodes)
            or any(y2 != z1 + 1 for (_, z1), (y2, _) in zip(nodes, nodes[1:]))):
        bad.append("partition")
    for y, z in nodes:
        n = z - y + 1
        if n & (n - 1) or (y - 1) % n or z > b:
            bad.append(f"not in I: [{y},{z}]")
        if depth is not None and n > (1 << (depth - 1)):
            bad.append(f"above depth cap: [{y},{z}]")
    return bad


def _run_alg3() -> CheckResult:
    # (1) exhaustive structural properties and length bounds for 1 <= a <= b <= 256.
    defects = []
    worst_len: dict[int, int] = {}
    popcount_mismatch = None
    length_bound_fail = None
    for b in range(1, _ALG3_BMAX + 1):
        for a in range(1, b + 1):
            nodes = tree.compose(a, b)
            d = _compose_defects(a, b, nodes=nodes)
            if d and not defects:
                defects.append({"a": a, "b": b, "defects": d})
            n = b - a + 1
            L = len(nodes)
            worst_len[n] = max(worst_len.get(n, 0), L)
            # a length bound verified here: max(1, 2 floor(log2(b - a + 1)))
            if L > max(1, 2 * (n.bit_length() - 1)) and length_bound_fail is None:
                length_bound_fail = {"a": a, "b": b, "len": L}
        if len(tree.compose(1, b)) != bin(b).count("1") and popcount_mismatch is None:
            popcount_mismatch = {"t": b, "len": len(tree.compose(1, b)), "popcount": bin(b).count("1")}
    # the suggested 2 ceil(log2(b-a+1)) bound, for the record (fails only on single leaves)
    ceil_bound_fails = sorted(n for n, L in worst_len.items() if L > 2 * math.ceil(_log2(n)))
    # (2) depth-capped COMPOSE, exhaustive for b <= 64 and R = 1..7.
    capped = None
    for R in range(1, 8):
        for b in range(1, 65):
            for a in range(1, b + 1):
                d = _compose_defects(a, b, R)
                if d and capped is None:
                    capped = {"a": a, "b": b, "depth": R, "defects": d}
    # (3) derandomized Hypothesis over large intervals (up to 2^40).
    pair = st.tuples(st.integers(1, 2**40), st.integers(0, 2**12)).map(lambda p: (p[0], p[0] + p[1]))
    big = _minimal_counterexample(pair, lambda p: not _compose_defects(*p)
                                  and len(tree.compose(*p)) <= max(1, 2 * ((p[1] - p[0] + 1).bit_length() - 1)))
    ev = {
        "exhaustive_range": f"1 <= a <= b <= {_ALG3_BMAX}",
        "first_structural_defect": defects[0] if defects else None,
        "prefix_len_equals_popcount_counterexample": popcount_mismatch,
        "length_bound": "|COMPOSE(a,b)| <= max(1, 2 floor(log2(b-a+1)))",
        "length_bound_counterexample": length_bound_fail,
        "max_len_by_interval_length": {n: worst_len[n] for n in (1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 64, 128, 256)},
        "interval_lengths_violating_2ceil_log2": ceil_bound_fails,
        "capped_depth_defect": capped,
        "hypothesis_large_interval_counterexample": big,
    }
    ok = not defects and popcount_mismatch is None and length_bound_fail is None and capped is None and big is None
    summary = ("COMPOSE is a disjoint, ordered cover of [a,b] by members of I with at most "
               "max(1, 2 floor(log2(b-a+1))) nodes (|COMPOSE(1,t)| = popcount(t))" if ok
               else "COMPOSE violates a structural property; see evidence")
    if ok:
        return CheckResult("supported", summary, ev, claim="identity", power={
            "statement": f"exhaustive over 1 <= a <= b <= {_ALG3_BMAX} (and depth caps R <= 7, "
                         "b <= 64), derandomized Hypothesis up to 2^40: any defect shows"})
    return CheckResult("refuted", summary, ev, claim="identity", severity="proof",
                       consequence="COMPOSE (Algorithm 3) does not return a valid tree cover, "
                                   "which the privacy and utility proofs use")


# =========================================================================== tran2022.tree
_TREE_TMAX = 1024


def _run_tree_claim1() -> CheckResult:
    """Claim 1: in the dyadic tree over [1, t], each leaf has at most ceil(log t) + 1
    ancestors (counting the leaf's own node), log = log2."""
    worst = None
    max_seen = {}
    for t in range(1, _TREE_TMAX + 1):
        # cnt[i] = nodes of I(t) containing leaf i, via a difference array over all nodes
        nodes = np.array(tree.dyadic_intervals(t), dtype=np.int64)
        diff = np.zeros(t + 2, dtype=np.int64)
        np.add.at(diff, nodes[:, 0], 1)
        np.add.at(diff, nodes[:, 1] + 1, -1)
        cnt = np.cumsum(diff)[: t + 1]
        m = int(cnt[1:].max())
        max_seen[t] = m
        bound = math.ceil(_log2(t)) + 1
        if m > bound and worst is None:
            worst = {"t": t, "leaf": int(np.argmax(cnt[1:]) + 1), "ancestors": m, "bound": bound}
    ev = {"range": f"1 <= t <= {_TREE_TMAX}", "bound": "ceil(log2 t) + 1",
          "max_ancestors_at": {t: max_seen[t] for t in (1, 2, 3, 5, 8, 100, 1000, 1024)},
          "exact_max": "floor(log2 t) + 1 (leaf 1)",
          "counterexample": worst,
          "all_equal_floor_log2_plus_1": all(max_seen[t] == t.bit_length() for t in max_seen)}
    if worst is None:
        # the bound is attained at every power of two t (floor = ceil there), so a bound one
        # smaller would be refuted: exhaustive and tight
        return CheckResult("supported", "each leaf has at most ceil(log2 t)+1 ancestors (max "
                           "is floor(log2 t)+1)", ev, claim="sup-bound", power={
                               "statement": f"exhaustive for t <= {_TREE_TMAX}; attained at "
                                            "powers of two, so a bound one smaller is refuted",
                               "selftest": {"planted": "ceil(log2 t)", "caught": bool(
                                   max_seen[1024] > math.ceil(_log2(1024)))}})
    return CheckResult("refuted", f"leaf with {worst['ancestors']} > {worst['bound']} ancestors "
                       f"at t={worst['t']}", ev, claim="sup-bound", severity="proof",
                       consequence="the ancestor count the privacy accounting relies on is "
                                   "larger than printed")


def _run_tree_claim3() -> CheckResult:
    """Claim 3: "we only need at most log t nodes to compute any partial sum s_[y,z]"."""
    T3 = 128
    prefix_cex = None
    prefix_cex_ge2 = None
    for t in range(1, _TREE_TMAX + 1):
        L = len(tree.compose(1, t))
        if L > _log2(t):
            if prefix_cex is None:
                prefix_cex = {"t": t, "nodes": tree.compose(1, t), "len": L, "log2_t": _log2(t)}
            if t >= 2 and prefix_cex_ge2 is None:
                prefix_cex_ge2 = {"t": t, "nodes": tree.compose(1, t), "len": L, "log2_t": _log2(t)}
    # any partial sum inside [1, t]: g(t) = max_{1<=y<=z<=t} |COMPOSE(y,z)|
    g = [0] * (T3 + 1)
    arg: dict[int, tuple[int, int]] = {}
    best, best_arg = 0, (1, 1)
    for z in range(1, T3 + 1):
        for y in range(1, z + 1):
            L = len(tree.compose(y, z))
            if L > best:
                best, best_arg = L, (y, z)
        g[z], arg[z] = best, best_arg
    any_cex = next(({"t": t, "y_z": arg[t], "len": g[t], "log2_t": _log2(t), "nodes": tree.compose(*arg[t])}
                    for t in range(1, T3 + 1) if g[t] > _log2(t)), None)
    ceil_cex = next(({"t": t, "y_z": arg[t], "len": g[t], "ceil_log2_t": math.ceil(_log2(t)),
                      "nodes": tree.compose(*arg[t])}
                     for t in range(2, T3 + 1) if g[t] > math.ceil(_log2(t))), None)
    corrected_ok = all(g[t] <= max(1, 2 * (t.bit_length() - 1)) for t in range(1, T3 + 1))
    prefix_ceil_ok = all(len(tree.compose(1, t)) <= math.ceil(_log2(t)) for t in range(2, _TREE_TMAX + 1))
    ev = {
        "claim": "|COMPOSE(y,z)| <= log2 t for every partial sum s_[y,z], 1 <= y <= z <= t",
        "prefix_counterexample": prefix_cex,
        "prefix_counterexample_t_ge_2": prefix_cex_ge2,
        "prefix_ok_with_ceil_log2_for_t_ge_2": prefix_ceil_ok,
        "any_partial_sum_counterexample": any_cex,
        "any_partial_sum_counterexample_ceil_reading": ceil_cex,
        "max_nodes_any_partial_sum": {t: g[t] for t in (2, 4, 8, 16, 32, 64, 128)},
        "corrected_bound": "|COMPOSE(y,z)| <= max(1, 2 floor(log2 t)) for 1 <= y <= z <= t",
        "corrected_bound_holds_up_to": T3 if corrected_ok else None,
        "ranges": f"prefixes t <= {_TREE_TMAX}; all partial sums t <= {T3}",
    }
    if prefix_cex is None and any_cex is None:
        return CheckResult("supported", "every partial sum needs at most log2 t nodes", ev,
                           claim="sup-bound", power={"statement": "exhaustive enumeration"})
    # the headline example is a complete tree (t a power of two, so neither the log base nor
    # a ceiling matters), not the degenerate t = 1
    pow2 = next(({"t": t, "y_z": arg[t], "len": g[t]} for t in (2, 4, 8, 16, 32, 64, 128)
                 if g[t] > _log2(t)), None)
    ev["complete_tree_counterexample"] = pow2
    head = (f"at t = {pow2['t']} (a complete tree) COMPOSE splits the partial sum "
            f"s_{list(pow2['y_z'])} into {pow2['len']} nodes > log2 t = {int(_log2(pow2['t']))}"
            if pow2 else
            f"COMPOSE{any_cex['y_z']} in [1,{any_cex['t']}] has {any_cex['len']} nodes")
    return CheckResult(
        "refuted",
        f"printed 'at most log t nodes to compute any partial sum' fails: {head}; even "
        f"ceil(log2 t) fails at t={ceil_cex['t'] if ceil_cex else None}; max(1, 2 floor(log2 t)) "
        "holds",
        ev, claim="sup-bound", severity="proof",
        consequence="a partial sum can need up to 2 floor(log2 t) disjoint tree nodes, about "
                    "twice the printed count, so its noise variance is up to twice (its "
                    "standard deviation up to sqrt 2 times) the one the text derives; the "
                    "stated O(log^1.5 t / eps) noise survives")


# =========================================================================== tran2022.momentum_tree
def _run_momentum_tree() -> CheckResult:
    rng = np.random.default_rng(20221013)
    T, d = 1000, 3
    g = rng.standard_normal((T, d))
    errs = {}
    for alpha in (1e-3, 0.1, 0.5, 0.9, 1.0):
        m_rec = np.zeros(d)
        ref = np.empty((T, d))
        for t in range(T):                       # the printed recursion, m_0 = 0
            m_rec = (1 - alpha) * m_rec + alpha * g[t]
            ref[t] = m_rec
        tree_m = tree.momentum_tree_sum(g, alpha)
        errs[alpha] = float(np.max(np.abs(tree_m - ref)) / max(1.0, float(np.max(np.abs(ref)))))
    # symbolic identity for t <= 16 (catalog check (a))
    al = sp.Symbol("alpha", positive=True)
    gs = sp.symbols("g1:17")
    sym_fail = None
    for t in range(1, 17):
        direct = al * sum((1 - al) ** (t - i) * gs[i - 1] for i in range(1, t + 1))
        treesum = sum((1 - al) ** (t - z) * al * sum((1 - al) ** (z - s) * gs[s - 1] for s in range(y, z + 1))
                      for y, z in tree.compose(1, t))
        if sp.expand(direct - treesum) != 0:
            sym_fail = t
            break
    ev = {"numeric_T": T, "d": d, "max_rel_err_by_alpha": errs, "tolerance": 1e-10,
          "symbolic_t_max": 16, "symbolic_counterexample_t": sym_fail}
    ok = sym_fail is None and max(errs.values()) <= 1e-10
    if ok:
        return CheckResult("supported", "m_t equals the COMPOSE(1,t) tree sum (symbolic t<=16, "
                           "numeric t<=1000)", ev, claim="identity", power={
                               "statement": "exact symbolic expansion for t <= 16: any "
                                            "discrepancy in a coefficient would show"})
    return CheckResult("refuted", "momentum tree-sum identity violated; see evidence", ev,
                       claim="identity", severity="proof",
                       consequence="Algorithm 1's momentum is not the tree sum its privacy "
                                   "analysis assumes")


# =========================================================================== tran2022.prop13
_P13_NMAX = 12
# One root cause behind three checks: the printed count ceil(|y-z|/N) uses |y - z| where the
# node has z - y + 1 positions, so it is one short when z - y + 1 = 1 (mod N); for a leaf the
# printed sum is empty and the printed sensitivity is 0.
PROP13_COUNT_ROOT = "tran2022.prop13:count-off-by-one"
PROP13_COUNT_CONSEQUENCE = (
    "as printed, Proposition 13 counts ceil(|y-z|/N) occurrences where a node has z - y + 1 "
    "positions: the count is one short when z - y + 1 = 1 (mod N), and for a leaf the sum is "
    "empty, so a leaf's sensitivity is printed as 0 although a leaf moves by up to 2 alpha G. "
    "Reading the count with the node length repairs these; the bound Delta <= 4 alpha G that "
    "Theorem 4 uses still covers leaves. Judged on the main text only: the appendix with the "
    "proposition's proof is not in the paper text available")
PROP13_STRADDLE_ROOT = "tran2022.prop13:epoch-straddling"
PROP13_STRADDLE_CONSEQUENCE = (
    "with a fresh permutation per epoch (Algorithm 1), a dyadic node straddling an epoch "
    "boundary holds occurrences of the differing datum closer than N apart (and one more than "
    "counted), so Delta <= 4 alpha G is false (up to about 5.16 alpha G for alpha = 1/N; "
    "N a power of two is not affected); Theorem 4's noise is calibrated on 4 alpha G, so its "
    "privacy proof does not go through as printed (the privacy claim itself is judged by the "
    "accountant). Judged on the main text only: the appendix is not in the paper text "
    "available")


def _length_reading(y: int, z: int, N: int, alpha: float, G: float) -> float:
    """The printed formula with its count read as the node length, ceil((z - y + 1)/N): the
    exact sensitivity when one permutation is reused every epoch (occurrences N apart)."""
    count = -(-(z - y + 1) // N)
    return 2.0 * alpha * G * math.fsum((1.0 - alpha) ** (j * N) for j in range(count))


def _prop13_table() -> list[dict[str, Any]]:
    rows = []
    for N in range(2, _P13_NMAX + 1):
        alpha, G = 1.0 / N, 1.0
        for y, z in tree.dyadic_intervals(4 * N):
            rows.append({
                "N": N, "alpha": alpha, "node": (y, z),
                "length_reading": _length_reading(y, z, N, alpha, G),
                "printed": tree.node_sensitivity_formula(y, z, N, alpha, G),
                "brute": tree.node_sensitivity_bruteforce(y, z, N, alpha, G),
                "printed_count": tree.max_occurrences_formula(y, z, N),
                "brute_count": tree.max_occurrences(y, z, N),
            })
    return rows


def _run_prop13_count() -> CheckResult:
    """The printed count ceil(|y - z|/N) against the node length: where the length reading
    of the same formula is larger, the printed one is below the sensitivity even with one
    permutation reused (occurrences N apart), so the shortfall is the count itself."""
    rows = _prop13_table()
    tol = 1e-12
    short = [r for r in rows if r["length_reading"] > r["printed"] + tol]
    key = lambda r: (r["node"][0] == r["node"][1], r["N"], r["node"][1])  # noqa: E731
    ev: dict[str, Any] = {
        "instances": f"N = 2..{_P13_NMAX}, alpha = 1/N, G = 1, every node of I with z <= 4N "
                     f"({len(rows)} nodes)",
        "n_nodes_count_short": len(short),
        "n_leaves": sum(r["node"][0] == r["node"][1] for r in short),
        "all_short_have_length_1_mod_N": all((r["node"][1] - r["node"][0] + 1) % r["N"] == 1
                                             for r in short)}
    if not short:
        return CheckResult("supported", "the printed count ceil(|y-z|/N) equals the length "
                           "reading on every node", ev, claim="identity",
                           power={"statement": "exhaustive over the nodes listed"})
    m = min(short, key=key)       # a non-leaf first: the leaf case is the degenerate one
    ev["example_non_leaf"] = {k: m[k] for k in ("N", "alpha", "node", "printed", "length_reading",
                                                "brute")}
    return CheckResult(
        "refuted", f"the printed count ceil(|y-z|/N) is one short on {len(short)}/{len(rows)} "
        f"nodes ({ev['n_leaves']} leaves, whose printed sensitivity is 0); e.g. N={m['N']}, "
        f"node {m['node']} (G = 1, alpha = 1/N): printed {m['printed']:.4g} < "
        f"{m['length_reading']:.4g} with the count read as the node length", ev, claim="identity", severity="notation",
        root=PROP13_COUNT_ROOT, consequence=PROP13_COUNT_CONSEQUENCE)


def _run_prop13_formula() -> CheckResult:
    """The printed formula, read charitably (count = node length), vs the brute force under
    Algorithm 1's fresh permutation per epoch."""
    rows = _prop13_table()
    tol = 1e-12
    under = [r for r in rows if r["brute"] > r["length_reading"] + tol]
    exact_ok = all(abs(tree.node_sensitivity_exact(*r["node"], r["N"], r["alpha"], 1.0) - r["brute"]) <= tol
                   for r in rows)
    key = lambda r: (r["N"], r["node"][1], r["node"][0])  # noqa: E731 - minimal = smallest N, then node
    ev: dict[str, Any] = {
        "instances": f"N = 2..{_P13_NMAX}, alpha = 1/N, G = 1, every node of I with z <= 4N ({len(rows)} nodes)",
        "reading": "count read as the node length ceil((z-y+1)/N) (the misprint is "
                   "tran2022.prop13:count_misprint's)",
        "n_nodes_below_bruteforce": len(under),
        "corrected_formula": "2 alpha G sum_{epochs q meeting [y,z]} (1-alpha)^{z - min(z,(q+1)N)}",
        "corrected_formula_equals_bruteforce": exact_ok,
    }
    if not under:
        return CheckResult("supported", "the printed node sensitivity (count read as the node "
                           "length) is at least the brute-force sensitivity on every node", ev,
                           claim="sup-bound",
                           power={"statement": "exact brute force over per-epoch positions"})
    m = min(under, key=key)
    ev["minimal_counterexample"] = {k: m[k] for k in ("N", "alpha", "node", "length_reading",
                                                      "printed", "brute", "brute_count")}
    return CheckResult(
        "refuted",
        f"even with its count read as the node length, the printed Prop. 13 sensitivity is "
        f"below the brute force under fresh permutations on {len(under)}/{len(rows)} nodes; "
        f"minimal: N={m['N']}, node {m['node']}: {m['length_reading']:.4g} < true "
        f"{m['brute']:.4g} (G = 1, alpha = 1/N)",
        ev, claim="sup-bound", severity="bound", root=PROP13_STRADDLE_ROOT,
        consequence=PROP13_STRADDLE_CONSEQUENCE)


def _run_prop13_4alphaG() -> CheckResult:
    """Claim Delta <= 4 alpha G for alpha >= 1/N, tested at alpha = 1/N on the brute force
    (the true sensitivity) and on the printed formula."""
    rows = _prop13_table()
    tol = 1e-12
    # minimal = smallest N, then shortest node, then earliest end
    bad = sorted((r for r in rows if r["brute"] > 4 * r["alpha"] + tol),
                 key=lambda r: (r["N"], r["node"][1] - r["node"][0], r["node"][1]))
    bad_printed = [r for r in rows if r["printed"] > 4 * r["alpha"] + tol]
    # corrected bound: Delta <= 2 alpha G (1 + (1-alpha)/(1-(1-alpha)^N)) <= 2 alpha G (1 + 1/(1-1/e))
    corr = [r for r in rows
            if r["brute"] > 2 * r["alpha"] * (1 + (1 - r["alpha"]) / (1 - (1 - r["alpha"]) ** r["N"])) + tol]
    ratio = max(r["brute"] / r["alpha"] for r in rows)
    ev: dict[str, Any] = {
        "instances": f"N = 2..{_P13_NMAX}, alpha = 1/N, G = 1, nodes of I with z <= 4N",
        "printed_formula_exceeds_4alphaG": len(bad_printed),
        "n_nodes_bruteforce_exceeds_4alphaG": len(bad),
        "max_bruteforce_over_alphaG": ratio,
        "corrected_bound": "Delta <= 2 alpha G (1 + (1-alpha)/(1-(1-alpha)^N)) <= 2(1 + 1/(1 - 1/e)) alpha G ~ 5.164 alpha G",
        "corrected_bound_violations": len(corr),
    }
    if not bad:
        return CheckResult("supported", "brute-force node sensitivity <= 4 alpha G at alpha = "
                           "1/N", ev, claim="sup-bound", power={
                               "statement": f"exact brute force; largest ratio "
                                            f"{ratio:.4g} alpha G"})
    m = bad[0]
    ev["minimal_counterexample"] = {"N": m["N"], "alpha": m["alpha"], "G": 1.0, "node": m["node"],
                                    "bruteforce_sensitivity": m["brute"], "four_alpha_G": 4 * m["alpha"],
                                    "printed_formula": m["printed"],
                                    "worst_positions": _worst_positions(*m["node"], m["N"])}
    ev["all_counterexamples"] = [(r["N"], r["node"], round(r["brute"] / r["alpha"], 6)) for r in bad]
    return CheckResult(
        "refuted",
        f"true node sensitivity exceeds 4 alpha G: N={m['N']}, alpha=1/{m['N']}, node {m['node']}: "
        f"{m['brute'] / m['alpha']:.4f} alpha G",
        ev, claim="sup-bound", severity="bound", root=PROP13_STRADDLE_ROOT,
        consequence=PROP13_STRADDLE_CONSEQUENCE)


def _worst_positions(y: int, z: int, N: int) -> list[int]:
    # latest position inside [y, z] in each epoch meeting the node (the maximiser)
    return [min(z, (q + 1) * N) for q in range((y - 1) // N, (z - 1) // N + 1)]


# =========================================================================== tran2022.thm4 (count V)
def _run_thm4_count_V() -> CheckResult:
    rows = []
    for N in range(2, 7):
        for T in range(1, 4 * N + 1):
            for R in range(1, T.bit_length() + 2):
                V = tree.participation_count_V(N, T, R)
                cnt, pos, per_level = tree.participation_count_bruteforce(N, T, R, return_witness=True)
                lg = N.bit_length() - 1
                # corrected variant: ceil(T/N) occurrences per low level, levels as printed
                Vc = (min(R, lg) + 1) * -(-T // N) + sum(T >> j for j in range(lg + 1, R + 1))
                rows.append({"N": N, "T": T, "R": R, "V_printed": V, "bruteforce": cnt,
                             "positions": pos, "per_level": per_level, "V_corrected": Vc,
                             "N_divides_T": T % N == 0})
    bad = [r for r in rows if r["bruteforce"] > r["V_printed"] + 1e-9]
    bad_div = [r for r in bad if r["N_divides_T"]]
    bad_corr = [r for r in rows if r["bruteforce"] > r["V_corrected"]]
    # sub-claim of the proof sketch: for b <= floor(log2 N) at most T/N nodes per level
    sub = [(r["N"], r["T"], b, c) for r in rows for b, c in enumerate(r["per_level"])
           if b <= r["N"].bit_length() - 1 and c > r["T"] / r["N"] + 1e-9]
    ev: dict[str, Any] = {
        "instances": "N = 2..6, T = 1..4N, R = 1..floor(log2 T)+2; nodes with level b < R",
        "n_instances": len(rows),
        "n_bruteforce_exceeds_V": len(bad),
        "n_exceed_when_N_divides_T": len(bad_div),
        "corrected_V": "(min(R, floor(log2 N)) + 1) ceil(T/N) + sum_{j=floor(log2 N)+1}^{R} floor(T/2^j)",
        "corrected_V_violations": len(bad_corr),
        "per_level_subclaim_T_over_N_violations": len(sub),
    }
    if sub:
        ev["per_level_subclaim_minimal"] = dict(zip(("N", "T", "level", "nodes_hit"), sub[0]))
    if not bad:
        return CheckResult("supported", "brute-force participation count <= printed V on every "
                           "instance", ev, claim="sup-bound",
                           power={"statement": "exhaustive brute force over the instances"})
    m = bad[0]                                # rows are generated in (N, T, R) order: minimal
    ev["minimal_counterexample"] = {k: m[k] for k in ("N", "T", "R", "V_printed", "bruteforce", "positions",
                                                      "per_level", "V_corrected")}
    full = [r for r in bad if r["T"] >= r["N"]]
    if full:                                  # the same failure once a full epoch has run
        ev["minimal_counterexample_T_ge_N"] = {k: full[0][k] for k in ("N", "T", "R", "V_printed", "bruteforce",
                                                                       "positions", "per_level", "V_corrected")}
    # headline: an instance with at least one full epoch (T >= N), not the degenerate T < N
    h = ev.get("minimal_counterexample_T_ge_N", ev["minimal_counterexample"])
    return CheckResult(
        "refuted",
        f"a datum can be in {h['bruteforce']} > V = {h['V_printed']:.4g} sampled nodes "
        f"(N={h['N']}, T={h['T']}, R={h['R']}); all {len(bad)} failures have N not dividing T"
        if not bad_div else f"participation count exceeds V on {len(bad)} instances",
        ev, claim="sup-bound", severity="proof",
        consequence="Theorem 4's composition counts V participations per datum; when N does "
                    "not divide T a datum can take part in more, so the RDP sum of the proof "
                    "is too small there (the privacy claim is judged by the accountant, not "
                    "refuted by this count)")


# =========================================================================== tran2022.thm4 (alpha < 1/N)
THM4_ALPHA_ROOT = "tran2022.thm4:alpha-below-1/N"
_THM4_T = 1024


def tree_rdp_ratio(N: int, T: int, R: int, alpha: float, G: float = 1.0) -> float:
    """sum over the released nodes of Delta_node^2, over 16 alpha^2 G^2 V: the RDP of
    Algorithm 1's noisy tree over the z/(2 sigma^2) Theorem 4 claims for it, at N = 1.

    With N = 1 there is one permutation, so the tree of node releases is exactly a Gaussian
    mechanism (no mixture over permutations): on the linear loss f(w, x) = G <x, e_1>,
    x in {-e_1, e_1}, every node's mean moves by Delta_node (node_sensitivity_exact, the
    datum at every step with its momentum weight) and its noise has variance
    16 alpha^2 G^2 sigma^2 V. Its Renyi divergence at order z is therefore exactly
    z sum Delta_node^2 / (2 * 16 alpha^2 G^2 sigma^2 V), i.e. this ratio times z/(2 sigma^2).
    Levels b = 0..R-1 are released (Algorithm 1).
    """
    V = tree.participation_count_V(N, T, R)
    total = math.fsum(tree.node_sensitivity_exact(y, z, N, alpha, G) ** 2
                      for y, z in tree.dyadic_intervals(T) if tree.node_level(y, z)[0] < R)
    return total / (16.0 * alpha**2 * G**2 * V)


def _run_thm4_small_alpha() -> CheckResult:
    """Theorem 4 states no condition on alpha; its proof (Prop. 13: Delta <= 4 alpha G) needs
    alpha >= 1/N. At N = 1 the node releases are an exact Gaussian mechanism: compare their
    exact RDP with the claim for alpha from 1/N down."""
    N, T, R = 1, _THM4_T, _THM4_T.bit_length()
    rows = [{"alpha": a, "ratio": tree_rdp_ratio(N, T, R, a)} for a in (1.0, 0.5, 0.1, 0.01, 0.001)]
    ev: dict[str, Any] = {
        "instance": f"N = {N}, T = {T}, R = {R} (every level of the tree), f(w, x) = G <x, e_1>, "
                    "x in {-e_1, e_1}: an exact Gaussian mechanism over the node releases",
        "ratio_definition": "sum_nodes Delta_node^2 / (16 alpha^2 G^2 V): the released tree "
                            "is (z, ratio * z/(2 sigma^2))-RDP exactly",
        "rows": rows}
    at_hyp = rows[0]["ratio"]
    bad = [r for r in rows if r["ratio"] > 1.0 + 1e-12]
    if not bad:
        return CheckResult("supported", "the node releases' exact RDP is within Theorem 4's "
                           f"z/(2 sigma^2) for alpha down to {rows[-1]['alpha']}", ev,
                           claim="privacy", power={"statement": "exact: a ratio above 1 at any "
                                                   "alpha listed would be refuted"})
    worst = max(bad, key=lambda r: r["ratio"])
    first = min(bad, key=lambda r: -r["alpha"])
    return CheckResult(
        "refuted", f"tran2022.thm4 (no condition on alpha): at N = 1, T = {T}, the noisy tree "
        f"Algorithm 1 releases is exactly (z, {worst['ratio']:.4g} z/(2 sigma^2))-RDP at alpha = "
        f"{worst['alpha']} ({first['ratio']:.4g} x at alpha = {first['alpha']}), not "
        f"(z, z/(2 sigma^2)); at alpha = 1/N = 1 the ratio is {at_hyp:.4g} <= 1: the proof's "
        "Delta <= 4 alpha G (Prop. 13) needs alpha >= 1/N, which Theorem 4 does not assume",
        ev, claim="privacy", severity="proof", root=THM4_ALPHA_ROOT,
        consequence="Theorem 4 needs the hypothesis alpha >= 1/N (Theorem 8 states it); below it "
                    "the node releases the proof composes leak up to the factor shown; whether "
                    "the iterates alone do is not computed here (Theorem 6's alpha = 1/N is not "
                    "affected)")


# =========================================================================== zhang2017.lemma6 / lemma7
_MC_SEED = 2017
_MC_N = 200_000
_Z_MAX = 4.5


def _run_lemma6() -> CheckResult:
    """E||z||^2 = d(d+1) sigma^2 for density proportional to exp(-||z||/sigma)."""
    exact_rows, worst_rel = [], 0.0
    for d in (1, 2, 3, 5, 10, 50, 200):
        for sigma in (0.3, 1.0, 2.5):
            claim = d * (d + 1) * sigma**2
            gamma_m2 = float(stats.gamma(a=d, scale=sigma).moment(2))        # radius ~ Gamma(d, sigma)
            # radial density r^{d-1} e^{-r/sigma}: ratio of integrals, computed in log space
            f = lambda r, k: math.exp((d - 1 + k) * math.log(r) - r / sigma - (d - 1) * math.log(d * sigma))  # noqa: E731
            hi = sigma * (d + 60 * math.sqrt(d) + 60)
            num = integrate.quad(f, 0, hi, args=(2,), limit=500, epsabs=0, epsrel=1e-11)[0]
            den = integrate.quad(f, 0, hi, args=(0,), limit=500, epsabs=0, epsrel=1e-11)[0]
            quad_m2 = num / den
            rel = max(abs(gamma_m2 - claim), abs(quad_m2 - claim)) / claim
            worst_rel = max(worst_rel, rel)
            exact_rows.append((d, sigma, claim, gamma_m2, quad_m2))
    rng = np.random.default_rng(_MC_SEED)
    mc = []
    for d, sigma in ((1, 1.0), (3, 0.5), (10, 2.0), (50, 1.0)):
        z = samplers.l2_laplace(rng, _MC_N, d, sigma)
        sq = np.einsum("ij,ij->i", z, z)
        claim = d * (d + 1) * sigma**2
        # Var||z||^2 = E r^4 - (E r^2)^2 with Gamma moments E r^k = sigma^k Gamma(d+k)/Gamma(d)
        var = sigma**4 * (d * (d + 1) * (d + 2) * (d + 3) - (d * (d + 1)) ** 2)
        zscore = (sq.mean() - claim) / math.sqrt(var / _MC_N)
        mc.append({"d": d, "sigma": sigma, "claim": claim, "mc_mean": float(sq.mean()), "z": float(zscore)})
    exact_ok = worst_rel <= 1e-8
    mc_ok = all(abs(r["z"]) <= _Z_MAX for r in mc)
    ev = {"exact": [dict(zip(("d", "sigma", "claim", "gamma_moment", "quadrature"), r)) for r in exact_rows[::3]],
          "exact_max_rel_err": worst_rel, "monte_carlo": mc, "mc_samples": _MC_N, "mc_seed": _MC_SEED,
          "z_threshold": _Z_MAX}
    if not exact_ok:
        return CheckResult("refuted", "E||z||^2 differs from d(d+1)sigma^2 in exact Gamma "
                           "moments", ev, claim="identity", severity="bound",
                           consequence="the noise second moment in Theorem 2's bound is wrong")
    if not mc_ok:
        return CheckResult("inconclusive", "exact moments agree but Monte Carlo with the sampler deviates", ev)
    return CheckResult("supported", "E||z||^2 = d(d+1) sigma^2 (exact Gamma moments, quadrature, "
                       "Monte Carlo)", ev, claim="identity",
                       power={"statement": "closed-form moments to 1e-8 relative: a wrong "
                                           "polynomial in d would differ at the first d"})


def _run_lemma7() -> CheckResult:
    """E||z||^2 = d sigma^2 for density proportional to exp(-||z||^2/(2 sigma^2))."""
    worst_rel, exact_rows = 0.0, []
    for d in (1, 2, 3, 5, 10, 50, 200):
        for sigma in (0.3, 1.0, 2.5):
            claim = d * sigma**2
            chi2_m = float(stats.chi2(d).mean()) * sigma**2           # ||z||^2 / sigma^2 ~ chi2(d)
            f = lambda r, k: math.exp((d - 1 + k) * math.log(r) - r * r / (2 * sigma**2)  # noqa: E731
                                      - (d - 1) * math.log(math.sqrt(d) * sigma))
            hi = sigma * (math.sqrt(d) + 40)
            num = integrate.quad(f, 0, hi, args=(2,), limit=500, epsabs=0, epsrel=1e-11)[0]
            den = integrate.quad(f, 0, hi, args=(0,), limit=500, epsabs=0, epsrel=1e-11)[0]
            rel = max(abs(chi2_m - claim), abs(num / den - claim)) / claim
            worst_rel = max(worst_rel, rel)
            exact_rows.append((d, sigma, claim, chi2_m, num / den))
    rng = np.random.default_rng(_MC_SEED + 7)
    mc = []
    for d, sigma in ((1, 1.0), (3, 0.5), (10, 2.0), (50, 1.0)):
        z = samplers.gaussian(rng, (_MC_N, d), sigma)
        sq = np.einsum("ij,ij->i", z, z)
        claim = d * sigma**2
        zscore = (sq.mean() - claim) / math.sqrt(2 * d * sigma**4 / _MC_N)    # Var chi2(d) = 2d
        mc.append({"d": d, "sigma": sigma, "claim": claim, "mc_mean": float(sq.mean()), "z": float(zscore)})
    ev = {"exact": [dict(zip(("d", "sigma", "claim", "chi2_moment", "quadrature"), r)) for r in exact_rows[::3]],
          "exact_max_rel_err": worst_rel, "monte_carlo": mc, "mc_samples": _MC_N, "z_threshold": _Z_MAX}
    if worst_rel > 1e-8:
        return CheckResult("refuted", "E||z||^2 differs from d sigma^2 in exact chi-square "
                           "moments", ev, claim="identity", severity="bound",
                           consequence="the noise second moment in Theorem 2's bound is wrong")
    if not all(abs(r["z"]) <= _Z_MAX for r in mc):
        return CheckResult("inconclusive", "exact moments agree but Monte Carlo with the sampler deviates", ev)
    return CheckResult("supported", "E||z||^2 = d sigma^2 (chi-square moments, quadrature, "
                       "Monte Carlo)", ev, claim="identity",
                       power={"statement": "closed-form moments to 1e-8 relative: a wrong "
                                           "polynomial in d would differ at the first d"})


# =========================================================================== registry
CHECKS: list[Check] = [
    Check("tran2022.alg3:partition", "tran2022.alg3", "property", _run_alg3,
          "COMPOSE(a,b) is a disjoint ordered cover by members of I, O(log) long; exhaustive b <= 256"),
    Check("tran2022.tree:ancestors", "tran2022.tree", "property", _run_tree_claim1,
          "claim 1: each leaf has at most ceil(log t)+1 ancestors; exhaustive t <= 1024"),
    Check("tran2022.tree:partial_sum_nodes", "tran2022.tree", "property", _run_tree_claim3,
          "claim 3: at most log t nodes for any partial sum; exhaustive"),
    Check("tran2022.momentum_tree:identity", "tran2022.momentum_tree", "property", _run_momentum_tree,
          "momentum recursion equals the COMPOSE(1,t) tree sum (symbolic t<=16, numeric t<=1000)"),
    Check("tran2022.prop13:count_misprint", "tran2022.prop13", "sensitivity", _run_prop13_count,
          "printed occurrence count ceil(|y-z|/N) vs the node length, N<=12, z<=4N"),
    Check("tran2022.prop13:formula_vs_bruteforce", "tran2022.prop13", "sensitivity", _run_prop13_formula,
          "printed node sensitivity (count read as the node length) vs brute force over "
          "per-epoch positions, N<=12, z<=4N"),
    Check("tran2022.prop13:le_4alphaG", "tran2022.prop13", "sensitivity", _run_prop13_4alphaG,
          "true node sensitivity <= 4 alpha G at alpha = 1/N, N<=12, z<=4N"),
    Check("tran2022.thm4:count_V", "tran2022.thm4", "property", _run_thm4_count_V,
          "printed participation count V vs brute force, N<=6, T<=4N"),
    Check("tran2022.thm4:alpha-below-1/N", "tran2022.thm4", "property", _run_thm4_small_alpha,
          "exact RDP of the node releases at N = 1 for alpha from 1/N down, against Theorem 4's "
          "z/(2 sigma^2)"),
    Check("zhang2017.lemma6:second_moment", "zhang2017.lemma6", "property", _run_lemma6,
          "E||z||^2 = d(d+1) sigma^2 for the l2-Laplace law: exact Gamma moments, quadrature, Monte Carlo"),
    Check("zhang2017.lemma7:second_moment", "zhang2017.lemma7", "property", _run_lemma7,
          "E||z||^2 = d sigma^2 for the Gaussian law: chi-square moments, quadrature, Monte Carlo"),
]
