"""A plug-in algorithm registered through the ``dptheory.algorithms`` entry point is audited
by ``dptheory audit`` from the privacy claim it declares: an under-noised DP-SGD is caught at
the default settings, the correctly noised one is not."""

from __future__ import annotations

import json
import math
import sys

import pytest
from scipy import optimize, stats

from dptheory import registry
from dptheory.cli import main
from tests.plugins import install_plugin

PLUGIN = '''
import math
import numpy as np
from dptheory.privacy import GaussianEvent, SelfComposedEvent, analytic_gaussian_sigma
from dptheory.verify.audit import PrivacyClaim

T, D, ETA, EPS, DELTA = 4, 2, 0.5, 2.0, 1e-5
# T noisy sums of per-record gradients clipped to norm 1 (add/remove sensitivity 1) compose
# to one Gaussian of multiplier sigma/sqrt(T): the calibration for (EPS, DELTA)
SIGMA = analytic_gaussian_sigma(EPS, DELTA) * math.sqrt(T)
X = np.random.default_rng(7).uniform(-0.5, 0.5, (20, D))
CANARY = np.array([[-3.0, 0.0]])          # its clipped gradient has norm 1 along e1


class NoisySGD:
    private = True

    def __init__(self, id_, noise_factor):
        self.id, self.factor = id_, noise_factor

    def summary(self):
        return {"id": self.id, "title": "plug-in DP-SGD", "baseline": False, "theorem": "",
                "private": True}

    def _run(self, data, runs, seed, first):
        out = np.empty((runs, T * D))
        for i in range(runs):
            rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(first + i,)))
            w = np.zeros(D)
            for t in range(T):
                g = w - data                                  # grad of 0.5 ||w - x||^2
                g = g / np.maximum(1.0, np.linalg.norm(g, axis=1, keepdims=True))
                w = w - ETA * (g.sum(axis=0) + self.factor * SIGMA * rng.standard_normal(D))
                out[i, t * D:(t + 1) * D] = w
        return out

    def privacy_claim(self):
        def run_pair(runs, seed, first):
            return (self._run(np.vstack([X, CANARY]), runs, seed, first),
                    self._run(X, runs, seed, first + 10 ** 9))
        return PrivacyClaim(EPS, DELTA, "add-remove", run_pair,
                            event=SelfComposedEvent(GaussianEvent(self.factor * SIGMA), T),
                            description="T full-batch steps, clipping at 1")


ALGORITHMS = [NoisySGD("mypkg.dpsgd-halfnoise", 0.5), NoisySGD("mypkg.dpsgd", 1.0)]
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    install_plugin(tmp_path, monkeypatch, dist="mypkg", module="mypkg_algs", source=PLUGIN,
                   group="dptheory.algorithms", name="mypkg")
    registry.algorithms.cache_clear()
    yield
    sys.modules.pop("mypkg_algs", None)
    registry.algorithms.cache_clear()


def _exact_eps(mu: float, delta: float) -> float:
    f = lambda e: (stats.norm.cdf(mu / 2 - e / mu) - math.exp(e) * stats.norm.cdf(-mu / 2 - e / mu)
                   - delta)
    return optimize.brentq(f, 0.0, 100.0)


def test_under_noised_plugin_is_caught_at_default_settings(plugin, capsys):
    assert "mypkg.dpsgd-halfnoise" in registry.algorithms()
    assert main(["audit", "mypkg.dpsgd-halfnoise", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["verdict"] == "refuted" and d["severity"] == "privacy"
    assert d["runs"] == [8000, 8000]
    # halved noise: mu doubles; the certified interval brackets the exact curve
    from mypkg_algs import DELTA, SIGMA, T
    true = _exact_eps(2 * math.sqrt(T) / SIGMA, DELTA)
    lo, up = d["epsilon_interval"]
    assert lo == pytest.approx(true, rel=1e-6) and up == pytest.approx(true, rel=1e-6)
    assert true > 4 > 2 == d["epsilon_claimed"]
    assert d["accountant"]["certified"] == "both"
    # the audit states its power; its own lower bound is a valid one (below the truth)
    assert d["epsilon_lower"] <= true
    assert "two-sided accountant on the declaration" in d["summary"]


def test_correctly_noised_plugin_without_noise_scale_is_not_supported(plugin, capsys):
    """An old plug-in (run_pair without noise_scale) gets no planted twin: whatever its
    declaration says, the audit has no measured power and may not call it supported."""
    assert main(["audit", "mypkg.dpsgd", "--json", "--runs", "8000"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["verdict"] == "inconclusive"
    assert d["power"].startswith("power unknown: no twin")
    assert d["epsilon_interval"][1] <= 2.0 * (1 + 1e-9)
    assert d["epsilon_lower"] <= 2.0


def test_plugin_without_a_claim_is_a_clear_error(plugin, monkeypatch, capsys):
    import mypkg_algs
    monkeypatch.delattr(mypkg_algs.NoisySGD, "privacy_claim")
    assert main(["audit", "mypkg.dpsgd"]) == 2
    assert "declares no privacy_claim" in capsys.readouterr().err
