"""The report's rate figures drawn in parallel processes are the files drawn in this one."""

import sys

import pytest

from dptheory.verify import figures as F
from dptheory.verify.engine import Verdict
from dptheory.verify.recipe import Recipe
from dptheory.verify.report import rate_figure


def _items(k):
    out = []
    for i in range(k):
        r = Recipe(f"tran2022.thm9:fig-{i}", "tran2022.thm9", "bound", "m:f", {"n": [8, 16, 32]},
                   reps=4, block=4, metric="E||grad F||")
        v = Verdict(r.id, r.item, "bound", "supported", "planted", {})
        pooled = {n: {"samples": [n ** -0.5 * (1 + 0.1 * j) for j in range(4)],
                      "bound_max": 2 * n ** -0.5, "trivial": 1.0} for n in (8, 16, 32)}
        out.append((r, v, pooled))
    out.append((Recipe("tran2022.thm9:one-point", "tran2022.thm9", "bound", "m:f", {"n": [8]}),
                Verdict("tran2022.thm9:one-point", "tran2022.thm9", "bound", "vacuous", "", {}),
                {8: {"samples": [0.1, 0.2]}}))                   # no figure: None
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork on Linux only")
def test_parallel_figures_are_the_serial_ones(tmp_path, monkeypatch):
    items = _items(F.MIN_PARALLEL + 1)
    monkeypatch.setattr(F, "_cores", lambda: 2)
    (tmp_path / "par").mkdir()
    (tmp_path / "ser").mkdir()
    par = F.draw_rate_figures(items, tmp_path / "par", False, rate_figure)      # forked
    monkeypatch.setattr(F, "MIN_PARALLEL", 10 ** 6)
    ser = F.draw_rate_figures(items, tmp_path / "ser", False, rate_figure)      # here
    assert par == ser and par[-1] is None and all(par[:-1])
    for name in par[:-1]:
        assert (tmp_path / "par" / name).read_bytes() == (tmp_path / "ser" / name).read_bytes()
