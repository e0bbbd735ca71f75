"""The examples/ scripts run at small sizes and produce their figures and verdicts; the
expected values come from the papers' formulas evaluated here by hand, not from the code."""

import importlib.util
import math
from pathlib import Path

import matplotlib
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _is_png(path):
    with open(path, "rb") as fh:
        return fh.read(8) == b"\x89PNG\r\n\x1a\n"


def test_every_example_is_tested():
    assert {p.stem for p in EXAMPLES.glob("*.py")} == {
        "rate_plot", "sensitivity_property_test", "scaling_comparison", "plugin_theorem"}


def test_rate_plot(tmp_path, capsys):
    backend = matplotlib.get_backend()
    out = _load("rate_plot").main(["--small", "--out", str(tmp_path)])
    assert _is_png(out["figure"]) and matplotlib.get_backend() == backend
    assert out["exponent"] == -2                    # zhang2017 Thm 2: d^2/(eps^2 n^2)
    assert [row["n"] for row in out["summary"]] == [64, 128, 256]
    assert all(row["bound"] > 0 and row["count"] == 4 for row in out["summary"])
    assert "fitted slope in n" in capsys.readouterr().out


def test_sensitivity_property_test():
    # the clipped mean of B records moves by exactly up to 2C/B (two antipodal records of
    # norm >= C), so 2C/B holds and C/B is refuted
    out = _load("sensitivity_property_test").main(["--small"])
    assert out == {"sum": "supported", "mean": "supported", "planted": "refuted"}


def _tran9(n, d=100, eps=1.0):
    return d ** (1 / 3) / (eps * n) ** (2 / 3) + n ** -0.5


def _wang_r1(n, d=100, eps=1.0, delta=1e-5):
    return d ** (4 / 7) * math.log(1 / delta) ** (2 / 7) / (eps * n) ** (4 / 7)


def _yang_t1(n, d=100, eps=1.0, delta=1e-5):
    return d ** 0.25 * math.log(1 / delta) ** 0.25 / math.sqrt(eps * n)


def test_scaling_comparison(tmp_path):
    backend = matplotlib.get_backend()
    out = _load("scaling_comparison").main(["--out", str(tmp_path)])
    assert _is_png(out["figure"]) and matplotlib.get_backend() == backend
    cross = out["crossovers"]
    assert set(cross) == {("tran2022.thm9", "wang2020.remark1"),
                          ("wang2020.remark1", "yang2022.table1")}
    # yang vs wang in closed form: c_y n^(-1/2) = c_w n^(-4/7)  <=>  n = (c_w/c_y)^14
    n_yw = (_wang_r1(1.0) / _yang_t1(1.0)) ** 14
    assert math.isclose(cross[("wang2020.remark1", "yang2022.table1")], n_yw, rel_tol=1e-6)
    # tran vs wang: the sign of the difference, evaluated directly, changes across it
    n_tw = cross[("tran2022.thm9", "wang2020.remark1")]
    assert 1e20 < n_tw < 3e20
    assert _tran9(n_tw * 0.999) < _wang_r1(n_tw * 0.999)
    assert _tran9(n_tw * 1.001) > _wang_r1(n_tw * 1.001)


def test_plugin_theorem():
    out = _load("plugin_theorem").main(["--small"])
    n, d, delta = 1e6, 100, 1e-5
    by_hand = math.sqrt(math.sqrt(d * math.log(1 / delta)) / n) + 1 / math.sqrt(n)
    assert math.isclose(out["bound"], by_hand, rel_tol=1e-12)
    assert math.isclose(out["rate"], by_hand, rel_tol=1e-12)
