"""Acceptance tests of issue 21: a full-batch DP-SGD plug-in written to the README's contract
(clipping at C, T = 20 Gaussian steps, every iterate released, replace-one, claim eps = 2,
delta = 1e-5) with two realistic bugs (noise 0.6 x what the claim needs; noise calibrated to
sensitivity C where replace-one needs 2C), each with the intended event declared and with
none: every buggy version is refuted at the default settings, the correct one is not.

The true eps of each version comes from the exact Gaussian curve computed here with scipy
(the release is exactly a Gaussian mechanism: gradient canaries, see the plug-in's source):
delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mu = sqrt(T) x 2C / std.

The correct version is audited here on 20 seeds with its event declared (about 1 s each) and
on 2 seeds without (about 10 s of CPU each: its twin is only caught at the 10^6-run stage);
``benchmarks/bench_plugin_audit.py`` runs the 20 seeds without an event (about 3.5 min of CPU).
"""

from __future__ import annotations

import json
import math
import sys

import pytest
from scipy import optimize, stats

from dptheory import registry
from dptheory.cli import main
from tests.plugins import install_plugin
from tests.verify.dpsgd_plugin_source import SOURCE

T, C, EPS, DELTA = 20, 1.0, 2.0, 1e-5


def _delta(eps: float, mu: float) -> float:
    return stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)


def _true_eps(mu: float) -> float:
    return optimize.brentq(lambda e: _delta(e, mu) - DELTA, 0.0, 100.0, xtol=1e-12)


MU_CLAIM = optimize.brentq(lambda m: _delta(EPS, m) - DELTA, 0.01, 5.0, xtol=1e-14)
# the mu each version's code actually has (std relative to the replace-one sensitivity 2C)
MU_TRUE = {"mypkg.dpsgd": MU_CLAIM, "mypkg.dpsgd-lownoise": MU_CLAIM / 0.6,
           "mypkg.dpsgd-addremove": 2 * MU_CLAIM}


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    install_plugin(tmp_path, monkeypatch, dist="mypkg", module="mypkg_dpsgd",
                   source=SOURCE.format(mu_claim=MU_CLAIM), group="dptheory.algorithms",
                   name="mypkg")
    registry.algorithms.cache_clear()
    yield
    sys.modules.pop("mypkg_dpsgd", None)
    registry.algorithms.cache_clear()


def _audit(capsys, alg_id: str, *extra: str) -> dict:
    assert main(["audit", alg_id, "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_true_epsilons_are_the_issues():
    assert _true_eps(MU_CLAIM) == pytest.approx(2.0, abs=1e-9)
    assert _true_eps(MU_TRUE["mypkg.dpsgd-lownoise"]) == pytest.approx(3.56, abs=0.01)
    assert _true_eps(MU_TRUE["mypkg.dpsgd-addremove"]) == pytest.approx(4.39, abs=0.01)


@pytest.mark.parametrize("bug", ["mypkg.dpsgd-lownoise", "mypkg.dpsgd-addremove"])
@pytest.mark.parametrize("declared", [True, False])
def test_each_bug_is_refuted_at_default_settings(plugin, capsys, bug, declared):
    d = _audit(capsys, bug + ("" if declared else "-noevent"))
    true_mu = MU_TRUE[bug]
    assert _true_eps(true_mu) > EPS
    assert d["verdict"] == "refuted" and d["severity"] == "privacy", d["summary"]
    # the certified bounds are valid: below the code's true eps and mu
    assert d["epsilon_lower"] <= _true_eps(true_mu)
    assert d["mu_lower"] <= true_mu
    if declared:
        # the declaration (the intended noise) is exactly the claim: the accountant alone
        # would certify it; the code is caught against it (its mu exceeds the declared one)
        assert d["epsilon_interval"][1] <= EPS * (1 + 1e-6)
        assert d["mu_declared"] == pytest.approx(MU_CLAIM, rel=1e-9)
        assert d["mu_lower"] > d["mu_declared"]
        assert "not the declared mechanism" in d["summary"]
    else:
        # no declaration: the distribution-free eps bound itself exceeds the claim
        assert d["epsilon_lower"] > EPS
        assert "distribution-free" in d["summary"]


@pytest.mark.parametrize("seed", range(20))
def test_correct_version_with_event_is_supported_with_a_caught_twin(plugin, capsys, seed):
    d = _audit(capsys, "mypkg.dpsgd", "--seed", str(seed))
    assert d["verdict"] == "supported", d["summary"]
    assert d["mu_lower"] <= MU_CLAIM and d["epsilon_lower"] <= EPS
    assert d["twin"]["detected"] and d["twin"]["mu_lower"] > d["mu_declared"]
    assert "caught by the declaration test" in d["power"]


@pytest.mark.parametrize("seed", range(2))
def test_correct_version_without_event_is_not_refuted(plugin, capsys, seed):
    d = _audit(capsys, "mypkg.dpsgd-noevent", "--seed", str(seed))
    assert d["verdict"] == "supported", d["summary"]
    assert d["epsilon_lower"] <= EPS
    assert d["twin"]["detected"] and d["twin"]["epsilon_lower"] > EPS


def test_a_plugin_without_noise_scale_is_never_supported(plugin, capsys):
    import mypkg_dpsgd
    alg = mypkg_dpsgd.ALGORITHMS[0]
    old = alg.privacy_claim

    def privacy_claim():
        c = old()
        run = c.run_pair
        from dptheory.verify.audit import PrivacyClaim
        return PrivacyClaim(c.epsilon, c.delta, c.relation,
                            lambda runs, seed, first: run(runs, seed, first), event=c.event)

    alg.privacy_claim = privacy_claim
    d = _audit(capsys, "mypkg.dpsgd", "--runs", "8000")
    assert d["verdict"] == "inconclusive"
    assert d["power"].startswith("power unknown: no twin")
    assert d["twin"] is None


def test_a_plugin_without_summary_is_listed(plugin, capsys):
    """summary() is optional: the README's contract (id, private, privacy_claim) suffices."""
    assert main(["algorithms", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["mypkg.dpsgd"]["private"] is True and "error" not in rows["mypkg.dpsgd"]
    assert "zhang2021.dpsgd-const" in rows


def test_a_broken_plugin_is_one_line_not_an_exit_1(tmp_path, monkeypatch, capsys):
    install_plugin(tmp_path, monkeypatch, dist="brokenpkg", module="brokenpkg_algs",
                   source="raise ImportError('needs torch')\n", group="dptheory.algorithms",
                   name="brokenpkg")
    registry.algorithms.cache_clear()
    try:
        assert main(["algorithms"]) == 0
        out = capsys.readouterr().out
        lines = [ln for ln in out.splitlines() if "brokenpkg" in ln]
        assert lines == ["plug-in brokenpkg (brokenpkg_algs) ignored: ImportError: needs torch"]
        assert "zhang2021.dpsgd-const" in out
        assert main(["audit", "zhang2021.dpsgd-cons"]) == 2      # other commands still work
    finally:
        sys.modules.pop("brokenpkg_algs", None)
        registry.algorithms.cache_clear()
