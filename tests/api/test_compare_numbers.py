"""compare with numbers (issue 12, item 3): full stated rates with their constants, the whole
positive axis, readable regimes, warnings on different quantities, vacuity.

Expected values come from the papers' rates written out by hand here and a float root
search of their own (scipy's brentq on log n), not from dptheory's compare.
"""

import json
import math
import os

import pytest
import sympy as sp
from scipy.optimize import brentq

from dptheory.cli import main
from dptheory.symbolic import S
from dptheory.symbolic.compare import compare, isolate, numeric_crossovers, plain


def tran2022_thm9(n, d=100.0, eps=1.0):
    # O~(d^(1/3)/(eps n)^(2/3) + 1/sqrt(n)), tran2022 Theorem 9
    return d ** (1 / 3) / (eps * n) ** (2 / 3) + n ** -0.5


def wang2020_remark1(n, d=100.0, eps=1.0, delta=1e-5):
    # O((p sqrt(ln(1/delta))/(n eps))^(4/7)), wang2020 Remark 1
    return (d * math.sqrt(math.log(1 / delta)) / (n * eps)) ** (4 / 7)


def direct_crossover():
    f = lambda t: math.log(tran2022_thm9(math.exp(t))) - math.log(wang2020_remark1(math.exp(t)))
    return math.exp(brentq(f, math.log(1e10), math.log(1e30), xtol=1e-14))


def test_acceptance_crossover_near_2e20(capsys):
    code = main(["compare", "tran2022.thm9", "wang2020.remark1", "--vary", "n", "--set",
                 "d=100", "eps=1", "delta=1e-5", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    truth = direct_crossover()
    assert 1e20 < truth < 3e20                      # the "about 2e20"
    values = [c["value"] for c in data["crossovers"]]
    assert len(values) == 1 and math.isclose(values[0], truth, rel_tol=1e-9)
    # tran2022.thm9 is smaller below, wang2020.remark1 above (direct evaluation)
    x = values[0]
    assert tran2022_thm9(x / 2) < wang2020_remark1(x / 2)
    assert tran2022_thm9(x * 2) > wang2020_remark1(x * 2)
    better = [(r["better"], r["interval"]) for r in data["regimes"]]
    assert better[0][0] == "tran2022.thm9" and better[-1][0] == "wang2020.remark1"
    assert "Descartes" in data["complete"]


def test_acceptance_text_is_plain(capsys):
    assert main(["compare", "tran2022.thm9", "wang2020.remark1", "--vary", "n", "--set",
                 "d=100", "eps=1", "delta=1e-5"]) == 0
    out = capsys.readouterr().out
    assert "Eq(" not in out and "&" not in out and "True" not in out
    assert "tran2022.thm9 is better when n < 1.70913e+20" in out
    assert "warning:" in out                        # different measured quantities


def test_constants_kept_in_symbolic_boundary(capsys):
    # eps, delta fixed, d free: the boundary of the leading terms n^-1/2 = c d^(4/7) n^(-4/7)
    # with c = ln(1e5)^(2/7) is n = c^14 d^8 (by hand), not n = d^8
    assert main(["compare", "tran2022.thm9", "wang2020.remark1", "--vary", "n", "--set",
                 "eps=1", "delta=1e-5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    c14 = math.log(1e5) ** 4
    eqs = [sp.sympify(e) for e in data["crossover"]]
    hit = [e for e in eqs if str(e.lhs) == "n"]
    assert hit, data["crossover"]
    assert math.isclose(float(hit[0].rhs.subs("d", 10) / 10**8), c14, rel_tol=1e-9)


def test_units_warning(capsys):
    assert main(["compare", "tran2022.thm9", "zhang2017.thm2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any("different units" in w for w in data["warnings"])


@pytest.mark.parametrize("a, b, differ", [
    # zhang2017's E F(w_priv,S) - F(w_hat,S) and zhang2021's E[F_S(w^K) - F_S(w_S^*)]: both the
    # expected excess empirical risk of the output
    ("zhang2017.thm2", "zhang2021.thm3.2", False),
    # E||grad F(w_hat)|| in tran2022 Theorems 6 and 9 and the quoted RRSGD rate: the output
    ("tran2022.thm9", "tran2022.intro.RRSGD", False),
    # a bound at the output vs a bound on the best iterate (min_t): different quantities
    ("tran2022.thm9", "yang2022.abstract", True),
])
def test_same_quantity_written_two_ways_is_not_warned(capsys, a, b, differ):
    assert main(["compare", a, b, "--json"]) == 0
    warned = [w for w in json.loads(capsys.readouterr().out)["warnings"]
              if "different quantities" in w]
    assert bool(warned) == differ, warned
    if differ:
        assert "min over iterates of E||grad f(w_t)||" in warned[0]


def test_both_vacuous_regime_is_named():
    # thm9 vs thm6 of tran2022: both rates are >= 1 exactly when eps n < sqrt(d), which is
    # where thm6 is the smaller one (by hand: d^(1/3)(eps n)^(-2/3) >= 1 iff eps n <= sqrt d)
    rate9 = S.d ** sp.Rational(1, 3) / (S.eps * S.n) ** sp.Rational(2, 3) + 1 / sp.sqrt(S.n)
    rate6 = S.d ** sp.Rational(1, 4) / sp.sqrt(S.eps * S.n)
    c = compare(rate9, rate6, vary=S.n, growing={S.n: 1, S.d: 1, S.eps: -1}, names=("a", "b"),
                vacuity=True)
    parts = {r["better"]: r["parts"] for r in c.regimes}
    assert [p["vacuous"] for p in parts["b"]] == ["both"]
    assert parts["a"][0]["text"].startswith("wherever both rates tend to 0")
    # the exact regions are kept for --json
    assert {r["better"]: r["when"] for r in c.regimes} == {"a": "sqrt(d) < eps*n",
                                                         "b": "eps*n < sqrt(d)"}


def test_always_true_atom_dropped():
    # tran2022.thm9 vs wang2020.remark1 symbolically: "1 < d^(5/2) eps n" always holds where
    # both rates are below 1, so the readable regime of thm9 keeps only eps^8 n < d^8
    rate9 = S.d ** sp.Rational(1, 3) / (S.eps * S.n) ** sp.Rational(2, 3) + 1 / sp.sqrt(S.n)
    remark1 = (S.d / (S.n * S.eps)) ** sp.Rational(4, 7)
    c = compare(rate9, remark1, vary=S.n, growing={S.n: 1, S.d: 1, S.eps: -1},
                names=("a", "b"), vacuity=True)
    a = next(r for r in c.regimes if r["better"] == "a")
    assert a["parts"][0]["text"] == "when n < d^8/eps^8"
    assert "d**(5/2)" in a["when"]                  # still in the exact region


def test_crossover_beyond_float_range_of_intermediate_values():
    # n^(7/3) overflows a float at n = 1e150; the comparison evaluates in mpmath
    n = S.n
    a = n ** sp.Rational(7, 3) * sp.Float(1e-300)
    b = n ** 2
    r = numeric_crossovers(a, b, n)
    # by hand: 1e-300 n^(1/3) = 1 at n = 1e900 > 1e300: no crossover in range; a < b there
    assert r["crossovers"] == []
    assert [x["better"] for x in r["regimes"]] == ["a"]
    r = numeric_crossovers(n ** sp.Rational(7, 3) * sp.Float(1e-100), b, n)
    assert math.isclose(r["crossovers"][0]["value"], 1e300, rel_tol=1e-9)


def test_bracketed_crossover_matches_brentq():
    n = S.n
    a = 3 / sp.sqrt(n) + 50 / n
    b = 7 * n ** sp.Rational(-2, 3) + sp.Rational(1, 10) * n ** sp.Rational(-1, 3)
    r = numeric_crossovers(a, b, n)
    fa = lambda x: 3 / math.sqrt(x) + 50 / x
    fb = lambda x: 7 * x ** (-2 / 3) + 0.1 * x ** (-1 / 3)
    g = lambda t: math.log(fa(math.exp(t))) - math.log(fb(math.exp(t)))
    import numpy as np
    ts = np.linspace(math.log(1e-300), math.log(1e300), 20001)
    signs = np.sign([g(t) for t in ts])
    roots = [math.exp(brentq(g, ts[i], ts[i + 1], xtol=1e-14))
             for i in range(len(ts) - 1) if signs[i] * signs[i + 1] < 0]
    got = [c["value"] for c in r["crossovers"]]
    assert len(got) == len(roots) and len(roots) >= 1
    for x, y in zip(got, roots):
        assert math.isclose(x, y, rel_tol=1e-9)
    assert all(c["method"] == "bracketed" for c in r["crossovers"])


def test_plain_and_isolate():
    n, d, eps = S.n, S.d, S.eps
    text = plain(sp.Or(sp.And(n < d, d < eps), n > 3))
    assert "&" not in text and "|" not in text and " or " in text and " and " in text
    assert str(isolate(sp.sqrt(d), eps * n, n)) == "n > sqrt(d)/eps"
    assert str(isolate(eps * n, sp.sqrt(d), n)) == "n < sqrt(d)/eps"
    assert plain(sp.Eq(n, d**8, evaluate=False)) == "n = d^8"


@pytest.mark.parametrize("argv", [
    ["compare", "tran2022.thm9", "tran2022.thm6", "--set", "Q=3"],
    ["compare", "tran2022.thm9", "tran2022.thm6", "--vary", "nn"],
])
def test_unknown_symbol_suggests(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "unknown symbol" in err and len(err.strip().splitlines()) == 1


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.startswith("dptheory ")


def test_list_uses_a_cache_that_notices_changes(tmp_path, monkeypatch, capsys):
    from dptheory import registry
    monkeypatch.setenv("DPTHEORY_CACHE_DIR", str(tmp_path))
    first = registry.summaries()
    files = list(tmp_path.glob("catalog-index-*.json"))
    assert len(files) == 1
    assert registry.summaries() == first == [i.summary() for i in registry.items().values()]
    key = registry._index_key()
    # a touched catalog file changes the fingerprint, so the index is rebuilt
    import dptheory_bounds.tran2022 as mod
    path = mod.__file__
    st = os.stat(path)
    try:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        assert registry._index_key() != key
    finally:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_every_quantity_alias_is_a_catalog_string():
    """The alias table names strings the catalog uses (a renamed `measured` must update it)."""
    from dptheory import registry
    from dptheory.vocabulary import QUANTITIES
    used = {it.measured for it in registry.items().values()}
    missing = [m for ms in QUANTITIES.values() for m in ms if m not in used]
    assert not missing
