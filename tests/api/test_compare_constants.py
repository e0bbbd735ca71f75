"""compare with free constants (issue 24, item 4): every regime statement holds for every
admissible value of the constants, or says for which; every term of a rate is shown.

The defect: ``dptheory compare tran2022.thm9 zhang2021.thm3.2 --vary n --set d=100 eps=1
delta=1e-5`` asserted "zhang2021.thm3.2 is better wherever both rates are non-vacuous",
false at G = mu = theta = 1 for n in (33.9, 48.3), and printed tran2022.thm9 without its
n^(-2/3) term. Expected values here come from the two stated rates written out by hand and
evaluated directly (scipy's brentq for the crossover), never from dptheory's compare.
"""

import json
import math

import numpy as np
import pytest
import sympy as sp
from scipy.optimize import brentq

from dptheory.cli import main
from dptheory.symbolic import S
from dptheory.symbolic.compare import compare

D, EPS, DELTA = 100.0, 1.0, 1e-5
ARGV = ["compare", "tran2022.thm9", "zhang2021.thm3.2", "--vary", "n", "--set", "d=100",
        "eps=1", "delta=1e-5"]


def tran2022_thm9(n):
    # tran2022 Theorem 9: O~(d^(1/3)/(eps N)^(2/3) + 1/sqrt(N))
    return D ** (1 / 3) / (EPS * n) ** (2 / 3) + n ** -0.5


def zhang2021_thm32(n, G=1.0, mu=1.0, theta=1.0):
    # zhang2021 Theorem 3.2: O(d L^2 log(1/delta)/(theta^2 mu n^2 eps^2)), L the Lipschitz G
    return D * G ** 2 * math.log(1 / DELTA) / (theta ** 2 * mu * n ** 2 * EPS ** 2)


def crossover(G=1.0, mu=1.0, theta=1.0):
    f = lambda t: math.log(tran2022_thm9(math.exp(t))) - math.log(zhang2021_thm32(math.exp(t), G, mu, theta))
    return math.exp(brentq(f, math.log(1e-12), math.log(1e12), xtol=1e-14))


def test_the_defect_by_direct_evaluation():
    # at G = mu = theta = 1 both rates are below 1 and tran2022.thm9 is the smaller one on
    # (33.93, 48.27): zhang2021 drops below 1 at n = sqrt(100 ln 1e5) = 33.93
    assert math.isclose(math.sqrt(D * math.log(1 / DELTA)), 33.93, abs_tol=0.01)
    assert math.isclose(crossover(), 48.27, abs_tol=0.01)
    for n in np.linspace(33.95, 48.25, 30):
        assert zhang2021_thm32(n) < 1 and tran2022_thm9(n) < 1
        assert tran2022_thm9(n) < zhang2021_thm32(n)


def _holds(when, n, G, mu, theta):
    rel = sp.sympify(when, locals={"G": S.G, "mu": S.mu, "theta": S.theta, "n": S.n})
    return bool(sp.sympify(rel).subs({S.n: n, S.G: G, S.mu: mu, S.theta: theta}))


def counterexamples(claims, draws=40, seed=7):
    """Points (G, mu, theta, n) where the claimed regimes disagree with direct evaluation:
    constants log-uniform over six decades, n around each one's crossover."""
    rng = np.random.default_rng(seed)
    bad = []
    for _ in range(draws):
        G, mu, theta = 10 ** rng.uniform(-3, 3, size=3)
        x = crossover(G, mu, theta)
        for n in (x / 3, x / 1.01, x * 1.01, x * 3):
            truth = "tran2022.thm9" if tran2022_thm9(n) < zhang2021_thm32(n, G, mu, theta) \
                else "zhang2021.thm3.2"
            said = [r["better"] for r in claims if _holds(r["when"], n, G, mu, theta)]
            if said != [truth]:
                bad.append((G, mu, theta, n, said, truth))
    return bad


def test_regimes_hold_for_every_admissible_constant(capsys):
    assert main([*ARGV, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "parametric" and data["constants"] == ["G", "mu", "theta"]
    claims = [r for r in data["regimes"] if r["for_all_constants"]]
    assert {r["better"] for r in claims} == {"tran2022.thm9", "zhang2021.thm3.2"}
    # each regime's exact condition says who is better, at every constant drawn
    assert counterexamples(claims) == []
    # and the readable statement (tran2022.thm9 below the one crossover) matches: the
    # direct crossover separates the two
    for G, mu, theta in ((1, 1, 1), (1e3, 1e-3, 1e-2), (1e-3, 10, 1e3)):
        x = crossover(G, mu, theta)
        assert tran2022_thm9(x / 1.01) < zhang2021_thm32(x / 1.01, G, mu, theta)
        assert tran2022_thm9(x * 1.01) > zhang2021_thm32(x * 1.01, G, mu, theta)
    text = {r["better"]: r["text"] for r in claims}
    assert text["tran2022.thm9"].startswith("when n < n*")
    assert text["zhang2021.thm3.2"].startswith("when n > n*")
    assert "exactly one crossover for every admissible G, mu, theta" in data["complete"]
    # the example at G = mu = theta = 1 puts the crossover where direct evaluation does
    ex = data["example"]
    assert ex["at"] == {"G": 1.0, "mu": 1.0, "theta": 1.0}
    assert math.isclose(ex["crossovers"][0]["value"], crossover(), rel_tol=1e-9)
    assert [r["better"] for r in ex["regimes"]] == ["tran2022.thm9", "zhang2021.thm3.2"]


def test_text_shows_every_term_and_no_false_claim(capsys):
    assert main(ARGV) == 0
    out = capsys.readouterr().out
    # the old, false sentence and the truncated rate are gone
    assert "wherever both rates" not in out
    line = next(l for l in out.splitlines() if l.startswith("tran2022.thm9:"))
    # 100^(1/3) = 4.642: the n^(-2/3) term, beside 1/sqrt(n)
    assert "4.642/n^(2/3)" in line and "1/sqrt(n)" in line
    assert "tran2022.thm9 is better when n < n*, for every admissible G, mu, theta" in out
    assert f"tran2022.thm9 is better when n < {crossover():.6g}" in out


def test_signs_that_depend_on_the_constants_give_a_condition():
    # (G + 1)/n vs mu/n + 1/n^2: the 1/n coefficient G + 1 - mu has no fixed sign, so no
    # statement for every G, mu: the regime is the condition itself
    a = (S.G + 1) / S.n
    b = S.mu / S.n + 1 / S.n ** 2
    c = compare(a, b, vary=S.n, growing={S.n: 1}, names=("a", "b"))
    assert c.mode == "parametric"
    assert not any(r["for_all_constants"] for r in c.regimes)
    assert "depends on" in c.complete
    # at G = 1, mu = 3 (by hand): a - b = (G + 1 - mu)/n - 1/n^2 < 0 everywhere, so a is better
    # everywhere; at G = 3, mu = 1: a - b = 3/n - 1/n^2 > 0 for n > 1/3, so b is better there
    when = {r["better"]: sp.sympify(r["when"], locals={"G": S.G, "mu": S.mu, "n": S.n})
            for r in c.regimes}
    assert bool(when["a"].subs({S.G: 1, S.mu: 3, S.n: 5}))
    assert bool(when["b"].subs({S.G: 3, S.mu: 1, S.n: 5}))


def test_one_sign_everywhere_for_every_constant():
    # G/n^2 + 1/n vs 2 G/n^2 + 3/n: b - a = G/n^2 + 2/n > 0 for all n, G > 0 (by hand)
    c = compare(S.G / S.n ** 2 + 1 / S.n, 2 * S.G / S.n ** 2 + 3 / S.n, vary=S.n,
                growing={S.n: 1}, names=("a", "b"))
    assert [(r["better"], r["for_all_constants"]) for r in c.regimes] == [("a", True)]
    assert c.crossovers == [] and c.complete == "no crossover for every admissible G"


def test_the_old_claim_is_caught():
    # the old output: "zhang2021.thm3.2 is better wherever both rates are non-vacuous", an
    # exact region of True, and no regime for tran2022.thm9; the check above refutes it
    old = [{"better": "zhang2021.thm3.2", "when": "True"}]
    bad = counterexamples(old, draws=5)
    assert bad and all(t == "tran2022.thm9" for *_, t in bad)
    assert _holds("True", 40, 1, 1, 1) and tran2022_thm9(40) < zhang2021_thm32(40) < 1


def test_same_power_gives_a_condition_on_the_constants_only():
    # 3 G beta/n^2 vs 5 mu/n^2 (by hand): the first is smaller for every n exactly when
    # 3 G beta/(5 mu) < 1, whatever n
    c = compare(3 * S.G * S.beta / S.n ** 2, 5 * S.mu / S.n ** 2, vary=S.n, growing={S.n: 1},
                names=("a", "b"))
    when = {r["better"]: sp.sympify(r["when"], locals={"G": S.G, "beta": S.beta, "mu": S.mu})
            for r in c.regimes}
    assert S.n not in when["a"].free_symbols
    for G, beta, mu in ((1, 1, 1), (2, 1, 1), (0.1, 3, 0.5), (5, 0.2, 0.19)):
        a_smaller = 3 * G * beta < 5 * mu
        assert bool(when["a"].subs({S.G: G, S.beta: beta, S.mu: mu})) == a_smaller
        assert bool(when["b"].subs({S.G: G, S.beta: beta, S.mu: mu})) == (not a_smaller)
    assert c.crossovers == [] and "depends on G, beta, mu only" in c.complete
