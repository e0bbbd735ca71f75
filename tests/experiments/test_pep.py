"""PEPit worst cases (issue 23, item 2) against closed forms worked by hand, and zhang2017
Lemmas 5 and 8 against them. Skipped with the reason when PEPit is not installed."""

import math

import pytest

from simulations.experiments import pep

pytestmark = pytest.mark.skipif(not pep.available(),
                                reason="PEPit not installed (pip install 'dptheory[pep]')")


def test_gd_strongly_convex_one_step_matches_the_closed_form():
    # eta = 2/(mu + beta): ||x1 - x*|| <= q ||x0 - x*||, q = (beta - mu)/(beta + mu), and
    # f(x1) - f* <= (beta/2) ||x1 - x*||^2; the quadratic (beta/2) x^2 attains both:
    # worst = (beta/2) q^2 = 0.5 * (0.9/1.1)^2 at mu = 0.1, beta = 1.
    mu, beta = 0.1, 1.0
    worst = pep.gd_worst_case(mu, beta, 2 / (mu + beta), 1)
    assert worst == pytest.approx(beta / 2 * ((beta - mu) / (beta + mu)) ** 2, rel=1e-5)


@pytest.mark.parametrize("T", [1, 3])
def test_gd_convex_matches_drori_teboulle(T):
    # GD with step 1/beta on convex beta-smooth f: the tight worst case is
    # beta ||x0 - x*||^2 / (4T + 2) (Drori and Teboulle 2014, Thm 3.1; attained by a Huber
    # function): 1/6 at T = 1, 1/14 at T = 3.
    assert pep.gd_worst_case(0.0, 1.0, 1.0, T) == pytest.approx(1 / (4 * T + 2), rel=1e-5)


def test_lemma5_supported_with_its_tightness():
    from simulations.experiments import zhang2017 as z17
    mu, beta = 0.1, 1.0
    r = z17.pep_lemma5(mu, beta, 2 / (mu + beta), 1)
    assert r.verdict == "supported"
    # tightness by hand: q^2 / exp(-4 mu beta/(mu + beta)^2) = (0.81/1.21)/exp(-0.4/1.21)
    expect = (0.81 / 1.21) / math.exp(-0.4 / 1.21)
    assert r.evidence["tightness"] == pytest.approx(expect, rel=1e-5)


def test_lemma8_supported_with_its_tightness():
    from simulations.experiments import zhang2017 as z17
    r = z17.pep_lemma8(1.0, 3)
    assert r.verdict == "supported"
    # (1/14) / (2/3) = 3/28
    assert r.evidence["tightness"] == pytest.approx(3 / 28, rel=1e-5)


def test_a_bound_below_the_worst_case_is_never_supported():
    worst = pep.gd_worst_case(0.0, 1.0, 1.0, 1)
    r = pep.pep_bound_check(worst, 0.9 * worst, what="planted")
    assert r.verdict == "inconclusive" and "not a refutation" in r.summary
    assert pep.pep_bound_check(worst, 2 * worst, what="planted").verdict == "supported"
