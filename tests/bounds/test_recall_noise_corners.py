"""Noise at the corners of a privacy theorem's domain (recall: hypotheses at corner values)."""

from __future__ import annotations

import math

import sympy as sp

from dptheory import registry
from dptheory_bounds.checks.recall_noise_corners import CHECKS, ITEMS, noise_at_corner


def _verdicts() -> dict[str, object]:
    return {c.item: c.run() for c in CHECKS}


def test_tran2022_alg2_adds_no_noise_at_one_record():
    res = _verdicts()["tran2022.thm8"]
    assert res.verdict == "refuted" and res.severity == "hypothesis"
    # independent: V_{<=2N} = 3 log2 N and V_{>2N} = 4 (T/N) log2 N vanish at N = 1 for
    # every T (log2 1 = 0), so every variance delta_X^2 sigma^2 V_X is 0
    assert 3 * math.log2(1) == 0 and 4 * (7 / 1) * math.log2(1) == 0
    assert set(res.evidence["at_corner"].values()) == {"0"}


def test_wang2020_thm1_noise_is_not_real_for_delta_above_one():
    res = _verdicts()["wang2020.thm1"]
    assert res.verdict == "refuted" and res.severity == "notation"
    # independent: phi's sqrt(log(1/delta)) is imaginary at delta = 2 (log(1/2) < 0)
    assert math.log(1 / 2) < 0


def test_positive_noise_is_supported_at_its_corners():
    got = _verdicts()
    # tran2022 Algorithm 1 at N = T = 1: V = 1 node, variance 16 G^2 alpha^2 sigma^2 > 0;
    # wang2020 Theorem 3 at T = 1: 256 G^2 log(2/delta) log(5/delta)/(eps n)^2 > 0
    assert got["tran2022.thm4"].verdict == "supported"
    assert got["wang2020.thm3"].verdict == "supported"


def test_a_planted_zero_noise_is_refuted(monkeypatch):
    """Planted: wang2020 Theorem 3's variance times log2(T) vanishes at T = 1."""
    from dptheory_bounds.checks import recall_noise_corners as m
    item = registry.get("wang2020.thm3")
    T = next(s for s in item.expressions["sigma2"].free_symbols if str(s) == "T")
    planted = type(item).__new__(type(item))
    object.__setattr__(planted, "__dict__", dict(item.__dict__))
    object.__setattr__(planted, "expressions",
                       {k: v * sp.log(T, 2) for k, v in item.expressions.items()})
    monkeypatch.setattr(m.registry, "get", lambda _id: planted)
    assert noise_at_corner("wang2020.thm3", ITEMS["wang2020.thm3"]).verdict == "refuted"
