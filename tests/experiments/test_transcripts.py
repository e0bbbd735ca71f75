"""The transcript audit (issue 21, items 3-4): the likelihood-ratio score is the exact
Neyman-Pearson statistic of the Gaussian transcript, a planted under-noised transcript is
refuted, the correct one is not, and its twin has the eps it claims.

Expected values come from the Gaussian mechanism's closed form (Balle and Wang 2018,
delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)), written out here with scipy,
and from mu = sqrt(T) (2C/B) / pi, the shift of T full-batch releases whose canaries' clipped
gradients are opposite at the full norm C (the proof's sensitivity 2C/B).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from dptheory.verify.audit import audit_check, epsilon_lower_bound
from dptheory_simulations.algorithms import get as get_alg
from dptheory_simulations.experiments.audits import audit_cell
from dptheory_simulations.objectives import get as get_obj

RUNS = 4000
C, B, T, ETA = 1.0, 8, 3, 0.05
ALG2 = dict(algorithm="zhang2021.alg2", objective="pl-nonconvex", objective_params={"d": 8},
            n=B, params={"eta": ETA, "T": T, "B": B, "clip": C}, noise_param="pi", eps=1.0,
            delta=1e-3, data_seed=0, transcript=True, reps=RUNS, seed=0, first_replicate=0)


def exact_eps(mu: float, delta: float) -> float:
    """eps at delta of the mu-GDP Gaussian mechanism (closed form, independent of dptheory)."""
    def d(e: float) -> float:
        return (stats.norm.cdf(-e / mu + mu / 2)
                - math.exp(e) * stats.norm.cdf(-e / mu - mu / 2) - delta)
    return 0.0 if d(0.0) <= 0 else optimize.brentq(d, 0.0, 100.0, xtol=1e-10)


def paper_pi() -> float:
    """The noise std the simulator calibrates at the audited claim (one replicate)."""
    obj = get_obj("pl-nonconvex", d=8)
    data = obj.make_data(B, 0)
    r = get_alg("zhang2021.alg2")(obj, data, eps=1.0, delta=1e-3, reps=1, seed=0,
                                  **ALG2["params"])
    return float(r.noise["pi"])


@pytest.fixture(scope="module")
def pi0() -> float:
    return paper_pi()


def test_llr_score_is_the_gaussian_likelihood_ratio(pi0):
    """Under D_in the exact LLR of a mu-shift Gaussian transcript is N(mu^2/2, mu^2), under
    D_out N(-mu^2/2, mu^2): the score's moments match, so it is the NP statistic."""
    r = audit_cell({**ALG2, "point": {"calibration": "paper"}})
    mu = math.sqrt(T) * (2 * C / B) / pi0
    s_in, s_out = np.array(r["scores_in"]), np.array(r["scores_out"])
    se = mu / math.sqrt(RUNS)
    assert abs(s_in.mean() - mu ** 2 / 2) < 4 * se
    assert abs(s_out.mean() + mu ** 2 / 2) < 4 * se
    assert s_in.std() == pytest.approx(mu, rel=0.05)
    # the canary attains the proof's sensitivity at every step: the cell's mu is this one
    assert r["mu_transcript"][0] == pytest.approx(mu, rel=1e-6)
    assert r["mu_transcript"][1] == pytest.approx(mu, rel=1e-6)


@pytest.mark.parametrize("alg_id", ["zhang2021.dpsgd-c-t", "zhang2021.dpsgd-c-sqrt-t",
                                    "zhang2021.dpsgdm-const", "zhang2021.dpsgdem-const"])
def test_baselines_llr_is_exact_whatever_the_step_schedule(alg_id, pi0):
    """The DP-SGD baselines (steps c/t, c/sqrt(t); momentum at every or early steps) release
    the same noisy clipped gradients as Algorithm 2: their transcript's shift is mu =
    sqrt(T) (2C/B)/pi whatever the steps, so the LLR read back from the iterates must have
    Algorithm 2's moments. A schedule read wrongly (eta for eta/t) would misread every noisy
    gradient after the first and break them."""
    r = audit_cell({**ALG2, "algorithm": alg_id, "reps": 2000,
                    "point": {"calibration": "paper"}})
    mu = math.sqrt(T) * (2 * C / B) / pi0
    s_in, s_out = np.array(r["scores_in"]), np.array(r["scores_out"])
    se = mu / math.sqrt(2000)
    assert abs(s_in.mean() - mu ** 2 / 2) < 4 * se
    assert abs(s_out.mean() + mu ** 2 / 2) < 4 * se
    assert s_in.std() == pytest.approx(mu, rel=0.07)
    assert r["mu_transcript"][0] == pytest.approx(mu, rel=1e-6)


def test_planted_noise_over_3_is_refuted(pi0):
    """pi / 3: true eps of the transcript far above the claim -> refuted, severity proof
    (the transcript is not the algorithm's output)."""
    mu = 3 * math.sqrt(T) * (2 * C / B) / pi0
    true_eps = exact_eps(mu, 1e-3)
    assert true_eps > 2.5                     # a real violation of eps = 1
    cell = {**ALG2, "params": {**ALG2["params"], "pi": pi0 / 3}}
    r = audit_cell({**cell, "point": {"calibration": "paper"}})
    chk = audit_check(r)
    assert chk.verdict == "refuted"
    assert chk.severity == "proof"
    lb = chk.evidence["epsilon_lower"]
    assert 1.0 < lb <= true_eps               # a valid lower bound, above the claim
    assert "transcript" in chk.summary


def test_correct_noise_is_not_refuted_and_twin_is_exact(pi0):
    """The paper's noise: lower bound below the transcript's exact eps (so below the claim);
    the twin's transcript has exact eps 2 x the claim and is caught."""
    mu = math.sqrt(T) * (2 * C / B) / pi0
    true_eps = exact_eps(mu, 1e-3)
    assert true_eps <= 1.0
    out = {cal: audit_cell({**ALG2, "reps": 16000, "point": {"calibration": cal}})
           for cal in ("paper", "twin")}
    lb = epsilon_lower_bound(out["paper"]["scores_in"], out["paper"]["scores_out"],
                             1e-3)["epsilon_lower"]
    assert lb <= true_eps
    twin_mu = out["twin"]["mu_transcript"][1]
    assert exact_eps(twin_mu, 1e-3) == pytest.approx(2.0, rel=1e-4)
    chk = audit_check(out["paper"], twin=out["twin"])
    assert chk.verdict == "supported"
    assert chk.evidence["twin"]["detected"]


@pytest.mark.parametrize("seed", [1, 2])
def test_correct_noise_not_refuted_other_seeds(pi0, seed):
    r = audit_cell({**ALG2, "seed": seed, "point": {"calibration": "paper"}})
    assert audit_check(r).verdict != "refuted"


def test_output_transcript_refutation_is_privacy():
    """yang2022's DP-NSGD outputs every iterate: an under-noised run is a privacy finding."""
    cell = dict(algorithm="yang2022.alg1", objective="cosh-generalized-smooth",
                objective_params={"d": 3}, n=32, noise_param="sigma", eps=1.0, delta=1e-3,
                data_seed=0, transcript=True, reps=RUNS, seed=0, first_replicate=0,
                params={"T": 3, "B": 32, "eta": 0.1, "r": 1.0})
    obj = get_obj("cosh-generalized-smooth", d=3)
    r0 = get_alg("yang2022.alg1")(obj, obj.make_data(32, 0), eps=1.0, delta=1e-3, reps=1,
                                  seed=0, **cell["params"])
    sigma = float(r0.noise["sigma"])
    r = audit_cell({**cell, "params": {**cell["params"], "sigma": sigma / 3},
                    "point": {"calibration": "paper"}})
    chk = audit_check(r)
    assert chk.verdict == "refuted"
    assert chk.severity == "privacy"
    # the normalised canary's shift is just under the sensitivity 2: mu just under 3 x
    mu_bound = 3 * math.sqrt(3) * 2 / sigma
    assert 0.99 * mu_bound < r["mu_transcript"][0] <= mu_bound


def test_unknown_algorithm_is_a_clear_error():
    with pytest.raises(ValueError, match="no transcript model"):
        audit_cell({**ALG2, "algorithm": "yang2022.dpsgd",
                    "point": {"calibration": "paper"}})


def mu_for_eps(eps: float, delta: float) -> float:
    """The GDP mu whose exact eps at delta is eps (inverse of :func:`exact_eps`)."""
    return optimize.brentq(lambda m: exact_eps(m, delta) - eps, 1e-3, 5.0, xtol=1e-12)


def test_hooked_trust_region_transcript_planted_bug_refuted():
    """wang2020 DP-TR: the trust-region step hides its releases, the simulator hands them
    over. Noise set so that the transcript's exact eps is 3 > 0.9: refuted (proof), and the
    LLR moments are those of the exact shift ||x||/n (logistic canaries (x, -1) and (x, +1):
    gradients differ by (sigmoid(z) + sigmoid(-z)) x = x at every w, Hessians equal)."""
    n, steps = 32, 1        # one release each (a later step may be cut by the stop rule)
    cell = dict(algorithm="wang2020.alg1", objective="logistic-nonconvex-reg",
                objective_params={"d": 3}, n=n, noise_param="sigma", eps=0.9, delta=1e-3,
                data_seed=0, transcript=True, reps=RUNS, seed=0, first_replicate=0,
                params={"T": steps})
    probe = audit_cell({**cell, "reps": 10, "point": {"calibration": "paper"}})
    can = probe["canary"]
    assert can["x_in"] == can["x_out"] and can["y_in"] == -can["y_out"]
    mu = mu_for_eps(3.0, 1e-3)
    sigma = math.sqrt(steps) * np.linalg.norm(can["x_in"]) / n / mu
    r = audit_cell({**cell, "params": {**cell["params"], "sigma": sigma, "sigma_H": sigma},
                    "point": {"calibration": "paper"}})
    assert r["mu_transcript"][0] == pytest.approx(mu, rel=1e-6)
    assert r["mu_transcript"][1] == pytest.approx(mu, rel=1e-6)
    s_in = np.array(r["scores_in"])
    assert abs(s_in.mean() - mu ** 2 / 2) < 4 * mu / math.sqrt(RUNS)
    chk = audit_check(r)
    assert chk.verdict == "refuted" and chk.severity == "proof"
    assert 0.9 < chk.evidence["epsilon_lower"] <= 3.0


def test_bst14_transcript_before_projection():
    """zhang2017's BST14 baseline: projected steps, noisy gradients handed over; Huber
    canaries with saturated slopes shift each release by 2 delta_h ||x|| / n exactly. A noise
    giving exact eps 3 > 1 is refuted; the paper's is supported with its twin caught."""
    n, steps = 32, 3
    cell = dict(algorithm="zhang2017.bst14", objective="huber-ridge",
                objective_params={"d": 3}, n=n, noise_param="noise_scale", eps=1.0,
                delta=1e-3, data_seed=0, transcript=True, reps=RUNS, seed=0,
                first_replicate=0, params={"T": steps, "m": n})
    probe = audit_cell({**cell, "reps": 10, "point": {"calibration": "paper"}})
    can = probe["canary"]
    delta_h = get_obj("huber-ridge", d=3).delta
    shift = 2 * delta_h * np.linalg.norm(can["x_in"]) / n
    assert can["x_in"] == can["x_out"] and abs(can["y_in"]) > 100
    mu = mu_for_eps(3.0, 1e-3)
    r = audit_cell({**cell, "params": {**cell["params"],
                                       "noise_scale": math.sqrt(steps) * shift / mu},
                    "point": {"calibration": "paper"}})
    assert r["mu_transcript"][1] == pytest.approx(mu, rel=1e-6)
    chk = audit_check(r)
    assert chk.verdict == "refuted" and chk.severity == "proof"
    assert chk.evidence["epsilon_lower"] <= 3.0
