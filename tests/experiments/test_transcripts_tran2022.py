"""The transcript audit of tran2022 Algorithm 1: every noisy tree node and the permutations.

Expected values come from the tree itself, written out here independently of the code under
test: on the linear loss f(w, (a, b)) = b <a, w>, with the other records at b = 0 and the
canaries (X e1, +1) vs (X e1, -1), the canary at position p of the one epoch (T = N = 8)
shifts the dyadic node [y, z] holding p by alpha 2X (1 - alpha)^(z - p) and no other node.
Given the permutation the transcript is then a Gaussian mechanism with mu_p^2 = sum over the
nodes holding p of that shift^2 / node_std^2; the permutation is released, so the exact
delta(eps) is the average over p = 1..8 of the Gaussian curves (Balle and Wang 2018),
evaluated with scipy.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from dptheory.privacy.tree import compose
from dptheory.verify.audit import audit_check
from dptheory_simulations.algorithms import get as get_alg
from dptheory_simulations.experiments.audits import audit_cell
from dptheory_simulations.experiments.transcripts import audit_objective
from dptheory_simulations.objectives import Dataset

RUNS = 4000
N, T, EPS, DELTA = 8, 8, 1.5, 0.3
CELL = dict(algorithm="tran2022.alg1", objective="linear-score", objective_params={"d": 3},
            n=N, params={"T": T, "eta": 0.1}, noise_param="sigma", eps=EPS, delta=DELTA,
            data_seed=0, transcript=True, reps=RUNS, seed=0, first_replicate=0)


def exact_eps(mus: np.ndarray, delta: float) -> float:
    """eps at delta of a uniform mixture of mu-GDP curves over a released index."""
    def d(e: float) -> float:
        return float(np.mean(stats.norm.cdf(-e / mus + mus / 2)
                             - math.exp(e) * stats.norm.cdf(-e / mus - mus / 2))) - delta
    return 0.0 if d(0.0) <= 0 else optimize.brentq(d, 0.0, 200.0, xtol=1e-10)


def position_mus(alpha: float, X: float, node_std: float) -> np.ndarray:
    """mu_p, p = 1..T: the nodes holding p are one per level b = 0..3 (R = 4 levels)."""
    out = []
    for p in range(1, T + 1):
        mu2 = 0.0
        for b in range(4):
            z = ((p - 1) // 2 ** b + 1) * 2 ** b
            mu2 += (alpha * 2 * X * (1 - alpha) ** (z - p)) ** 2
        out.append(math.sqrt(mu2) / node_std)
    return np.array(out)


def paper_run(alg_id: str, eps: float, delta: float) -> tuple:
    """One paper-calibrated run on D_out (the canary (X e1, -1) added) and X."""
    obj = audit_objective("linear-score", d=3)
    data0 = obj.make_data(N - 1, 0)
    X = float(np.max(np.linalg.norm(data0.X, axis=1)))
    data = Dataset(np.vstack([data0.X, [X, 0.0, 0.0]]), np.append(data0.y, -1.0))   # D_out
    return get_alg(alg_id)(obj, data, eps=eps, delta=delta, reps=1, seed=0, T=T, eta=0.1), X


@pytest.fixture(scope="module")
def paper() -> dict:
    """The paper-calibrated run's alpha, sigma, node std and the canary norm X."""
    r, X = paper_run("tran2022.alg1", EPS, DELTA)
    return {"alpha": float(r.params["alpha"]), "sigma": float(r.noise["sigma"]),
            "node_std": float(r.noise["node_std"]), "X": X}


def test_hook_changes_nothing_and_nodes_compose_to_m_hat():
    """With the hook the run is the same; m_hat_t is sum_{COMPOSE(1,t)} (1-alpha)^(t-z)
    F_[y,z] of the handed-over nodes (so the nodes are what the run used)."""
    obj = get_alg("tran2022.alg1")
    rr = audit_objective("robust-regression", d=3)     # gradients that move with w
    data = rr.make_data(N, 1)
    kw = dict(eps=EPS, delta=DELTA, reps=5, seed=3, T=12, eta=0.1, record=1)
    plain = obj(rr, data, **kw)
    rel: list = []
    hooked = obj(rr, data, transcript=rel, **kw)
    assert np.array_equal(plain.w, hooked.w)
    assert np.array_equal(plain.trajectory["m_hat"], hooked.trajectory["m_hat"])
    tr = rel[0]
    alpha = float(hooked.params["alpha"])
    by_interval = {v: tr["nodes"][k] for k, v in tr["intervals"].items()}
    assert len(by_interval) == 12 + 6 + 3 + 1      # every node of levels 0..3, odd ones too
    for t in range(1, 13):
        mh = sum((1 - alpha) ** (t - z) * by_interval[(y, z)] for y, z in compose(1, t))
        np.testing.assert_allclose(mh, hooked.trajectory["m_hat"][:, t - 1], rtol=1e-10,
                                   atol=1e-12)


def test_llr_given_the_permutation_is_exact(paper):
    """The cell's transcript mu range and exact eps match the tree written out here, and the
    LLR under D_in has mean E[mu_p^2/2] and variance E[mu_p^2] + Var(mu_p^2/2)."""
    mus = position_mus(paper["alpha"], paper["X"], paper["node_std"])
    r = audit_cell({**CELL, "point": {"calibration": "paper"}})
    assert r["mu_transcript"][0] == pytest.approx(mus.min(), rel=1e-9)
    assert r["mu_transcript"][1] == pytest.approx(mus.max(), rel=1e-9)
    assert r["epsilon_transcript"][1] == pytest.approx(exact_eps(mus, DELTA), abs=1e-6)
    s_in = np.array(r["scores_in"])
    mean, var = np.mean(mus ** 2 / 2), np.mean(mus ** 2) + np.var(mus ** 2 / 2)
    assert abs(s_in.mean() - mean) < 4 * math.sqrt(var / RUNS)
    assert s_in.var() == pytest.approx(var, rel=0.1)
    assert "permutations" in r["sees"] and r["release"] == "transcript"


def test_twin_exact_eps_and_caught(paper):
    """The twin's transcript has exact eps 2 x 1.5 (scipy, on the mixture), and is caught;
    the paper's noise is supported."""
    out = {cal: audit_cell({**CELL, "point": {"calibration": cal}}) for cal in ("paper", "twin")}
    twin_std = out["twin"]["noise_std"]
    mus = position_mus(paper["alpha"], paper["X"], twin_std)
    assert exact_eps(mus, DELTA) == pytest.approx(2 * EPS, rel=1e-6)
    chk = audit_check(out["paper"], twin=out["twin"])
    assert chk.verdict == "supported"
    assert chk.evidence["twin"]["detected"]
    assert chk.evidence["twin"]["epsilon_lower"] <= 2 * EPS


def test_planted_under_noise_refuted_as_proof(paper):
    """sigma / 3 is still within the claim on this transcript (exact eps 0.04 <= 1.5: the
    paper's noise is loose), so it is not refuted; sigma / 10 (exact eps 4.2) is refuted,
    severity proof (the nodes are not the output), with a lower bound below the exact eps."""
    for k, refuted in ((3, False), (10, True)):
        std = paper["node_std"] / k
        true = exact_eps(position_mus(paper["alpha"], paper["X"], std), DELTA)
        assert (true > EPS) == refuted
        r = audit_cell({**CELL, "params": {**CELL["params"], "sigma": paper["sigma"] / k},
                        "point": {"calibration": "paper"}})
        assert r["noise_std"] == pytest.approx(std, rel=1e-12)
        chk = audit_check(r)
        assert (chk.verdict == "refuted") == refuted
        if refuted:
            assert chk.severity == "proof"
            assert EPS < chk.evidence["epsilon_lower"] <= true


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_correct_noise_not_refuted_other_seeds(seed):
    r = audit_cell({**CELL, "seed": seed, "point": {"calibration": "paper"}})
    assert audit_check(r).verdict != "refuted"


def test_mu_law_needs_a_w_independent_canary():
    """On a loss whose canary difference moves with w the exact law is refused."""
    with pytest.raises(ValueError, match="does not depend on w"):
        audit_cell({**CELL, "objective": "robust-regression", "reps": 8,
                    "point": {"calibration": "twin"}})


# ------------------------------------------------------------------------ Algorithm 2
ALG2 = {**CELL, "algorithm": "tran2022.alg2", "eps": 1.0, "delta": 1e-3}


def alg2_mus(alpha: float, X: float, std: float) -> np.ndarray:
    """mu_p of Algorithm 2's G-nodes (T = N = 8: levels 0..3, every end <= 2N, one std):
    the node [y, z] holding p shifts by 2X (1 - alpha)^(z - p)."""
    out = []
    for p in range(1, T + 1):
        mu2 = sum((2 * X * (1 - alpha) ** (((p - 1) // 2 ** b + 1) * 2 ** b - p)) ** 2
                  for b in range(4))
        out.append(math.sqrt(mu2) / std)
    return np.array(out)


@pytest.fixture(scope="module")
def paper2() -> dict:
    """Algorithm 2's paper-calibrated alpha, sigma, G-node std and X."""
    r, X = paper_run("tran2022.alg2", 1.0, 1e-3)
    return {"alpha": float(r.params["alpha"]), "sigma": float(r.noise["sigma"]),
            "std": float(r.noise["std_G_le2N"]), "X": X}


def test_alg2_hook_changes_nothing_and_nodes_are_tree_sums():
    """The hook leaves the run unchanged; noiseless (sigma = 0) G-nodes are the discounted
    sums of grad f(u_q, x_pi(i)) computed here from the handed-over permutation."""
    alg = get_alg("tran2022.alg2")
    rr = audit_objective("robust-regression", d=3)
    data = rr.make_data(N, 1)
    kw = dict(eps=1.0, delta=1e-3, reps=3, seed=5, T=12, eta=0.1, record=1)
    rel: list = []
    assert np.array_equal(alg(rr, data, **kw).w, alg(rr, data, transcript=rel, **kw).w)
    rel0: list = []
    r0 = alg(rr, data, transcript=rel0, **{**kw, "sigma": 0.0})
    tr = rel0[0]
    alpha = float(r0.params["alpha"])
    for (b, a), (y, z) in tr["intervals"].items():
        want = np.zeros((3, 3))
        for i in range(y, z + 1):
            q, k = divmod(i - 1, N)
            j = tr["perm"][:, q, k]
            g = np.stack([rr.grad(tr["anchor"][r, i - 1], data.X[j[r]][None], data.y[j[r]][None])[0]
                          for r in range(3)])
            want += (1 - alpha) ** (z - i) * g
        np.testing.assert_allclose(tr["nodes"][(b, a)], want, rtol=1e-10, atol=1e-13)


def test_alg2_twin_exact_and_caught_planted_refuted(paper2):
    """Twin: exact eps 2 x 1 (scipy, mixture), caught at 16000 runs, paper's noise supported;
    sigma / 40 (exact eps > 1 computed here) refuted, severity proof."""
    runs = 16000
    out = {cal: audit_cell({**ALG2, "reps": runs, "point": {"calibration": cal}})
           for cal in ("paper", "twin")}
    mus = alg2_mus(paper2["alpha"], paper2["X"], out["twin"]["noise_std"])
    assert exact_eps(mus, 1e-3) == pytest.approx(2.0, rel=1e-6)
    assert out["paper"]["epsilon_transcript"][1] == pytest.approx(
        exact_eps(alg2_mus(paper2["alpha"], paper2["X"], paper2["std"]), 1e-3), abs=1e-6)
    chk = audit_check(out["paper"], twin=out["twin"])
    assert chk.verdict == "supported" and chk.evidence["twin"]["detected"]
    true = exact_eps(alg2_mus(paper2["alpha"], paper2["X"], paper2["std"] / 40), 1e-3)
    assert true > 1.0
    r = audit_cell({**ALG2, "reps": runs, "params": {**ALG2["params"], "sigma": paper2["sigma"] / 40},
                    "point": {"calibration": "paper"}})
    chk = audit_check(r)
    assert chk.verdict == "refuted" and chk.severity == "proof"
    assert 1.0 < chk.evidence["epsilon_lower"] <= true


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alg2_correct_noise_not_refuted_other_seeds(seed):
    r = audit_cell({**ALG2, "seed": seed, "point": {"calibration": "paper"}})
    assert audit_check(r).verdict != "refuted"
