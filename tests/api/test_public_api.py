"""The public API of issue 12: exports, bound_at/rate_at, sweep (engine's seeds, store and
parallelism), check_sensitivity, strategies, rich display, and the matplotlib backend left
alone by every public plotting call."""

import math

import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings

import dptheory
from dptheory import testing as dt


def test_exports():
    names = dir(dptheory)
    for name in ("get", "search", "sweep", "check_sensitivity", "compare", "testing",
                 "Theorem", "CheckResult", "VERDICTS"):
        assert name in names
    assert set(dptheory.VERDICTS) == {"refuted", "supported", "vacuous", "inconclusive"}


def test_rate_at_is_the_stated_rate():
    # tran2022 Thm 9: d^(1/3)/(eps N)^(2/3) + 1/sqrt(N), by hand at N = 1e6, d = 100, eps = 2
    value = dptheory.get("tran2022.thm9").rate_at(N=10**6, d=100, eps=2)
    assert math.isclose(value, 100 ** (1 / 3) / (2e6) ** (2 / 3) + 1e-3, rel_tol=1e-12)


def test_rate_without_settings_values():
    # the rate does not go through T's setting: no "needs values for []"
    assert dptheory.get("wang2020.remark1").needs("rate") == sorted(
        dptheory.get("wang2020.remark1").rate.free_symbols, key=str)


def test_missing_values_named():
    with pytest.raises(ValueError, match=r"needs values for .*N \(n\)"):
        dptheory.get("tran2022.thm9").bound_at(d=100)


def test_unknown_letter_suggests():
    with pytest.raises(ValueError, match="did you mean"):
        dptheory.get("tran2022.thm9").bound_at(epz=1)


@pytest.fixture(scope="module")
def small_sweep():
    return dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64, 128]},
                          reps=6, fixed={"eps": 1.0, "delta": 0.0},
                          theorem="zhang2017.thm2.eps")


def test_sweep_records_and_theory(small_sweep):
    r = small_sweep
    assert len(r.records) == 12 and r.metric == "excess_risk"
    # the theory line is the catalog bound at each point (positive, decreasing in n)
    b = [row["bound"] for row in r.summary()]
    assert b[0] > b[1] > 0


def test_sweep_independent_of_blocks_workers_and_store(small_sweep, tmp_path):
    other = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64, 128]},
                           reps=6, fixed={"eps": 1.0, "delta": 0.0},
                           theorem="zhang2017.thm2.eps", block=4, n_jobs=2,
                           store=tmp_path / "s.sqlite", progress=False)
    assert other.records == small_sweep.records
    again = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64, 128]},
                           reps=6, fixed={"eps": 1.0, "delta": 0.0},
                           theorem="zhang2017.thm2.eps", block=4,
                           store=tmp_path / "s.sqlite", progress=False)
    assert again.records == small_sweep.records and again.computed == 0   # resumed


def test_sweep_bad_input():
    with pytest.raises(ValueError, match="did you mean"):
        dptheory.sweep("zhang2017.alg9", "logistic-ridge", {"n": [64]})
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        dptheory.sweep("zhang2017.alg1", "logistic-ridge", {"n": [1]})


def test_to_frame(small_sweep):
    pd = pytest.importorskip("pandas")
    frame = small_sweep.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == 12


def test_to_frame_without_pandas(small_sweep, monkeypatch):
    import builtins
    real = builtins.__import__

    def fake(name, *a, **k):
        if name == "pandas":
            raise ImportError("no pandas")
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(ImportError, match="needs pandas"):
        small_sweep.to_frame()


def test_backend_unchanged_by_public_plots(small_sweep):
    backend = matplotlib.get_backend()
    ax = small_sweep.plot()
    assert matplotlib.get_backend() == backend and ax.figure is not None
    numeric = dptheory.compare("tran2022.thm9", "tran2022.thm6", at={"d": 100, "eps": 1})
    numeric.plot()
    assert matplotlib.get_backend() == backend
    symbolic = dptheory.compare("tran2022.thm9", "tran2022.thm6", at={"eps": 1})
    symbolic.plot(y="d")
    assert matplotlib.get_backend() == backend


def test_rich_display(small_sweep):
    assert "<table>" in small_sweep._repr_html_()
    assert dptheory.get("tran2022.thm9")._repr_latex_().startswith("$")
    c = dptheory.compare("tran2022.thm9", "tran2022.thm6")
    assert "<table>" in c._repr_html_()


def _mean(X, y):
    return X.mean(axis=0)


def test_check_sensitivity_mean():
    # the mean of n records in the unit ball moves by at most 2/n under replace-one (by
    # hand: (x - x')/n with ||x||, ||x'|| <= 1), and the search reaches it (antipodal pair)
    res = dptheory.check_sensitivity(_mean, 2 / 10, n=10, examples=20)
    assert res.verdict == "supported" and res.power["reach"] > 0.9
    # a planted claim at half the true sensitivity is refuted, with the neighbour given
    bad = dptheory.check_sensitivity(_mean, 1 / 10, n=10, examples=20)
    assert bad.verdict == "refuted" and bad.evidence["worst_example"]["change"] == "replace"


def test_check_sensitivity_relation_mismatch():
    with pytest.raises(ValueError, match="stated under replace-one"):
        dptheory.check_sensitivity(_mean, "yang2022.lemma3.1:clip", relation="add-remove",
                                   values={"C": 1.0})


def test_check_sensitivity_add_remove_sum():
    # the sum of records in the unit ball moves by at most 1 under add/remove (by hand)
    total = lambda X, y: X.sum(axis=0)
    assert dptheory.check_sensitivity(total, 1.0, relation="add-remove", n=6,
                                      examples=20).verdict == "supported"
    assert dptheory.check_sensitivity(total, 0.5, relation="add-remove", n=6,
                                      examples=20).verdict == "refuted"


@settings(max_examples=30, database=None, deadline=None)
@given(dt.neighbouring_datasets(n=8, d=3))
def test_strategy_replace_one(pair):
    (X, y), (Xp, yp) = pair
    assert X.shape == Xp.shape and np.sum(np.any(X != Xp, axis=1) | (y != yp)) <= 1
    assert np.all(np.linalg.norm(Xp, axis=1) <= 1 + 1e-12)


@settings(max_examples=10, database=None, deadline=None)
@given(dt.privacy_parameters(), dt.noise_parameters())
def test_parameter_strategies(p, q):
    assert 0 < p["delta"] < 1 and p["eps"] > 0 and q["sigma"] > 0 and 0 < q["q"] <= 1


def test_no_public_plot_switches_backend(small_sweep, tmp_path, monkeypatch):
    # get_backend() cannot see matplotlib.use("Agg") when the backend already is Agg (as
    # under pytest); so every route to a backend switch raises here instead
    import matplotlib.pyplot as plt

    from dptheory import plotting
    from dptheory.symbolic.derive import regime_map
    from dptheory.symbolic.symbols import S
    from dptheory.verify import report

    # resolve the default backend first: in a fresh process (an xdist worker) the first
    # get_backend() resolves matplotlib's lazy default through switch_backend itself
    backend = matplotlib.get_backend()

    def refuse(*args, **kwargs):
        raise AssertionError(f"backend switched: {args}")
    monkeypatch.setattr(matplotlib, "use", refuse)
    monkeypatch.setattr(plt, "switch_backend", refuse)
    small_sweep.plot()
    dptheory.compare("tran2022.thm9", "tran2022.thm6", at={"d": 100, "eps": 1}).plot()
    dptheory.compare("tran2022.thm9", "tran2022.thm6", at={"eps": 1}).plot(y="d")
    a, b = dptheory.get("tran2022.thm9").rate, dptheory.get("tran2022.thm6").rate
    plotting.rates_figure(a.subs({S.d: 100, S.eps: 1}), b.subs({S.d: 100, S.eps: 1}), S.n,
                          (1.0, 1e4), ("a", "b"))
    grid = regime_map(a, b, (S.n, 1e2, 1e6), (S.d, 1.0, 1e3), {S.eps: 1.0})
    plotting.regime_map_figure(grid, ("a", "b"), str(tmp_path / "map.png"))
    assert report.regime_figures(tmp_path)
    assert matplotlib.get_backend() == backend
