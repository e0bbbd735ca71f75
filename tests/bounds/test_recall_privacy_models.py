"""Privacy claims under the paper's own neighbouring relation and sampling (recall):
yang2022's experiment budget (Sec. 4 / App. D) and wang2020's Theorem 3 at small |T|."""

from __future__ import annotations

import math

import numpy as np
from scipy import special, stats

from dptheory_bounds.checks.recall_privacy_models import (hessian_step_delta_lower,
                                                          wang2020_hessian_noise_multiplier,
                                                          wang2020_thm3_small_subsample,
                                                          yang2022_exp_accountant)


def _poisson_rdp_int(q: float, sigma: float, alpha: int) -> float:
    """Independent: integer-order RDP of the Poisson-subsampled Gaussian (Mironov, Talwar,
    Zhang 2019, Sec. 3.2): log sum_k C(alpha,k) (1-q)^(alpha-k) q^k e^{(k^2-k)/(2 sigma^2)}
    /(alpha - 1)."""
    k = np.arange(alpha + 1)
    logs = (special.gammaln(alpha + 1) - special.gammaln(k + 1) - special.gammaln(alpha - k + 1)
            + (alpha - k) * math.log1p(-q) + k * math.log(q) + (k * k - k) / (2 * sigma ** 2))
    return float(special.logsumexp(logs)) / (alpha - 1)


def test_yang2022_accountant_eps_is_beaten_by_an_independent_threshold_test():
    q, T, sigma, delta = 0.02, 5000, 1.0, 1e-5
    # the accountant of [1, 31]: integer orders, Mironov's conversion
    acc = min(T * _poisson_rdp_int(q, sigma, a) + math.log(1 / delta) / (a - 1)
              for a in range(2, 65))
    assert 10.5 < acc < 11.5                        # 11.18 (integer orders 2..63)
    # one threshold on the constant-step final iterate (shift K ~ Bin(T, q) in units of the
    # substitution sensitivity 2C, noise sigma/2 sqrt(T)): delta(acc) > delta certifies
    # that the true eps of the mechanism exceeds the accountant's
    s = sigma / 2 * math.sqrt(T)
    k = np.arange(T + 1)
    pk = stats.binom.pmf(k, T, q)
    best = max(float(np.sum(pk * stats.norm.sf((tau - k) / s))) - math.exp(acc)
               * float(stats.norm.sf(tau / s)) for tau in np.linspace(100, 400, 301))
    assert best > delta
    res = yang2022_exp_accountant()
    assert res.verdict == "refuted" and res.severity == "privacy"
    pt = next(p for p in res.evidence["points"] if p["task"] == "CIFAR-10"
              and p["sigma"] == 1.0 and p["algorithm"] == "DP-SGD")
    assert pt["claimed"] <= acc + 1e-9              # improved conversion, superset of orders
    assert pt["eps_lower"] > acc
    fin = next(r for r in res.evidence["final_iterate_constant_step"]
               if r["task"] == "CIFAR-10" and r["sigma"] == 1.0)
    assert fin["final_iterate_eps_lower"] > acc
    assert pt["eps_lower"] >= fin["final_iterate_eps_lower"]   # iterates leak at least x_T


def test_yang2022_planted_accountant_model_is_not_refuted():
    # the accountant's own model (Poisson, add/remove): its eps is a valid upper bound
    assert yang2022_exp_accountant("poisson-add-remove").verdict == "supported"


def test_wang2020_small_subsample_hessian_noise_is_not_private():
    eps, delta, n, size, T = 1.0, 1e-6, 10 ** 6, 10, 200
    # independent: sigma_2 |T|/(2 sqrt(p) M) with sigma_2^2 = 256 p M^2 T ln(2/d) ln(5T/d)/(n eps)^2
    z = 16 * math.sqrt(T * math.log(2e6) * math.log(1e9)) * size / (2 * n)
    assert math.isclose(wang2020_hessian_noise_multiplier(eps, delta, n, size, T), z,
                        rel_tol=1e-12)
    assert z < 0.02                                  # noise ~ 1/50 of the sensitivity
    q = size / n
    # with z this small the sampled record is revealed: delta(eps) ~ q = 1e-5 > 1e-6
    lb = hessian_step_delta_lower(eps, q, z)
    assert math.isclose(lb, q, rel_tol=1e-6) and lb > 10 * delta * 0.999
    res = wang2020_thm3_small_subsample()
    assert res.verdict == "refuted" and res.severity == "hypothesis"
    ok = [r for r in res.evidence["rows"] if r["base_eps0"] <= 1]
    assert ok and all(r["delta_lower"] <= r["delta"] for r in ok)   # eps0 <= 1: no violation


def test_wang2020_planted_large_subsample_is_not_refuted():
    assert wang2020_thm3_small_subsample(size_scale=1e4).verdict == "supported"


def test_wang2020_constant_256_stands_by_its_route_and_64_does_not():
    from dptheory_bounds.checks.recall_privacy_models import (wang2020_dpstr_constant,
                                                              wang2020_dpstr_route_eps)
    # independent closed form: with 256, 2 gamma eps0 = eps' = eps/(2 sqrt(2T ln(2/delta)))
    # exactly, so the 2T-fold Dwork-Roth composition is eps/sqrt(2) + 2T eps'(e^eps' - 1)
    eps, delta, T = 0.5, 1e-5, 1000
    ep = eps / (2 * math.sqrt(2 * T * math.log(2 / delta)))
    assert math.isclose(wang2020_dpstr_route_eps(eps, delta, T),
                        eps / math.sqrt(2) + 2 * T * ep * math.expm1(ep), rel_tol=1e-12)
    res = wang2020_dpstr_constant()
    assert res.verdict == "supported" and res.power["selftest"]["caught"]
    assert wang2020_dpstr_constant(64.0).verdict == "refuted"      # planted: 4x less variance
