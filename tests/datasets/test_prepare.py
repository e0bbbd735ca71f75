"""Every preprocessing step on small tables with hand-computed results, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from dptheory_simulations.datasets import Preprocessing, load, load_arrays, prepare
from dptheory_simulations.datasets.tables import Table


def table(**cols):
    out = {}
    for k, v in cols.items():
        v = list(v)
        if all(isinstance(x, (int, float)) or x is None for x in v):
            out[k] = np.array([np.nan if x is None else float(x) for x in v])
        else:
            out[k] = np.array(v, dtype=object)
    return Table(out, {"path": "t"})


def test_one_hot_minmax_rows_by_hand():
    t = table(a=[0, 2, 4], c=["u", "v", "u"], y=["no", "yes", "yes"])
    p = prepare(t, Preprocessing(target="y", scale="minmax", rows="none"))
    assert p.features == ["a", "c=u", "c=v"]
    # a -> (0, .5, 1); c one-hot (1,0), (0,1), (1,0)
    np.testing.assert_allclose(p.train.X, [[0, 1, 0], [0.5, 0, 1], [1, 1, 0]])
    np.testing.assert_array_equal(p.train.y, [-1, 1, 1])        # 'yes' > 'no' -> +1
    assert [s["step"] for s in p.steps] == ["missing", "target", "one-hot", "scale", "rows"]
    assert p.steps[2]["levels"] == {"c": ["u", "v"]}
    assert p.public_radius is None


def test_standard_scaling_and_constant_columns():
    t = table(a=[1, 2, 3, 4], k=[7, 7, 7, 7], y=[0, 1, 0, 1])
    p = prepare(t, Preprocessing(target="y", scale="standard", rows="none"))
    sd = np.sqrt(1.25)                                   # population sd of 1, 2, 3, 4
    np.testing.assert_allclose(p.train.X[:, 0], (np.array([1, 2, 3, 4]) - 2.5) / sd)
    np.testing.assert_array_equal(p.train.X[:, 1], 0.0)
    assert p.steps[-2]["constant_columns"] == 1


def test_row_normalisations():
    X = np.array([[3.0, 4.0], [0.0, 1.0], [0.0, 0.0]])
    p = load_arrays(X, [1, 0, 1], scale="none", rows="max", radius=2.0)
    np.testing.assert_allclose(p.train.X, X * 2.0 / 5.0)        # largest row -> norm 2
    assert p.public_radius == 2.0 and p.train.max_norm == pytest.approx(2.0)
    p = load_arrays(X, [1, 0, 1], scale="none", rows="unit")
    np.testing.assert_allclose(p.train.X, [[0.6, 0.8], [0, 1], [0, 0]])
    assert "1 zero rows" in p.steps[-1]["summary"]
    with pytest.raises(ValueError, match="every training row is zero"):
        load_arrays(np.zeros((3, 2)), [1, 0, 1], scale="none", rows="max")


def test_split_fits_on_training_rows_only():
    X = np.arange(10.0)[:, None]
    p = load_arrays(X, np.arange(10) % 2, scale="minmax", rows="none", test_fraction=0.3,
                    seed=5)
    assert p.train.n == 7 and p.test.n == 3
    rng = np.random.default_rng(5)                       # the same draw, independently
    test_rows = rng.permutation(10)[:3]
    train_rows = np.setdiff1d(np.arange(10), test_rows)
    lo, hi = X[train_rows].min(), X[train_rows].max()
    np.testing.assert_allclose(np.sort(p.test.X[:, 0]), np.sort((X[test_rows, 0] - lo) / (hi - lo)))
    again = load_arrays(X, np.arange(10) % 2, scale="minmax", rows="none", test_fraction=0.3,
                        seed=5)
    np.testing.assert_array_equal(again.train.X, p.train.X)


def test_unseen_test_level_is_all_zero():
    t = table(c=["a", "a", "a", "a", "b"], y=[0, 1, 0, 1, 1])
    for seed in range(50):            # find a split that puts the only 'b' in the test set
        p = prepare(t, Preprocessing(target="y", rows="none", test_fraction=0.2, seed=seed))
        if p.features == ["c=a"]:
            onehot = next(s for s in p.steps if s["step"] == "one-hot")
            assert onehot["unseen_in_test"] == {"c": 1}
            np.testing.assert_array_equal(p.test.X, [[0.0]])
            return
    pytest.fail("no split put the rare level in the test set")


def test_subsample_is_seeded_and_recorded():
    X = np.arange(20.0)[:, None]
    a = load_arrays(X, np.arange(20) % 2, subsample=5, seed=3, rows="none", scale="none")
    b = load_arrays(X, np.arange(20) % 2, subsample=5, seed=3, rows="none", scale="none")
    np.testing.assert_array_equal(a.train.X, b.train.X)
    assert a.train.n == 5 and a.steps[1]["step"] == "subsample"
    with pytest.raises(ValueError, match="subsample must be <= the number of rows"):
        load_arrays(X, np.arange(20) % 2, subsample=21)


def test_missing_policies():
    t = table(a=[1, None, 3, 4], c=["u", None, "v", "u"], y=[0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"numeric column 'a' has 1 missing values .*rows 2\)"):
        prepare(t, Preprocessing(target="y"))
    p = prepare(t, Preprocessing(target="y", missing="drop", rows="none"))
    assert p.train.n == 3 and p.steps[0]["dropped_rows"] == 1
    t2 = table(c=["u", None, "v", "u"], y=[0, 1, 0, 1])
    p = prepare(t2, Preprocessing(target="y", missing="category", rows="none", scale="none"))
    assert p.features == ["c=<missing>", "c=u", "c=v"]
    with pytest.raises(ValueError, match="column 'a' has 1 missing"):
        prepare(t, Preprocessing(target="y", missing="category"))
    with pytest.raises(ValueError, match="nothing is left"):
        prepare(table(a=[None, None], y=[0, 1]), Preprocessing(target="y", missing="drop"))


def test_targets():
    t = table(a=[1, 2, 3], y=["cat", "dog", "eel"])
    with pytest.raises(ValueError, match="has 3 distinct values .* positive"):
        prepare(t, Preprocessing(target="y"))
    p = prepare(t, Preprocessing(target="y", positive=["dog", "eel"], rows="none"))
    np.testing.assert_array_equal(p.train.y, [-1, 1, 1])
    with pytest.raises(ValueError, match="positive value 'fox' does not occur"):
        prepare(t, Preprocessing(target="y", positive="fox"))
    p = prepare(t, Preprocessing(target="y", positive=["fox", "eel"], rows="none"))
    np.testing.assert_array_equal(p.train.y, [-1, -1, 1])
    assert p.steps[1]["absent"] == ["fox"]
    with pytest.raises(ValueError, match="negative class"):
        prepare(t, Preprocessing(target="y", positive=["cat", "dog", "eel"]))
    with pytest.raises(ValueError, match="target column 'y' is not numeric"):
        prepare(t, Preprocessing(target="y", task="regression"))
    r = table(a=[1, 2, 3], y=[10, -20, 5])
    p = prepare(r, Preprocessing(target="y", task="regression", target_scale="max-abs",
                                 rows="none"))
    np.testing.assert_allclose(p.train.y, [0.5, -1.0, 0.25])
    p = prepare(r, Preprocessing(target="y", task="regression", target_scale="standard",
                                 rows="none"))
    np.testing.assert_allclose(p.train.y, (np.array([10, -20, 5]) + 5 / 3) / np.std([10, -20, 5]))
    num = table(a=[1, 2, 3], y=[4, 9, 4])
    np.testing.assert_array_equal(prepare(num, Preprocessing(target="y", rows="none")).train.y,
                                  [-1, 1, -1])


@pytest.mark.parametrize("kwargs, match", [
    ({"task": "ranking"}, "task must be one of"),
    ({"scale": "log"}, "scale must be one of"),
    ({"rows": "l1"}, "rows must be one of"),
    ({"radius": 0}, "radius must be finite and > 0"),
    ({"subsample": 1}, "subsample must be an integer >= 2"),
    ({"test_fraction": 1.0}, r"test_fraction must be in \[0, 1\)"),
    ({"seed": -1}, "seed must be an integer >= 0"),
    ({"task": "regression", "positive": 1}, "positive applies to classification only"),
    ({"missing": "impute"}, "missing must be one of"),
])
def test_spec_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Preprocessing(target="y", **kwargs)


def test_columns_must_exist():
    t = table(a=[1, 2], y=[0, 1])
    with pytest.raises(ValueError, match="unknown column 'z'"):
        prepare(t, Preprocessing(target="z"))
    with pytest.raises(ValueError, match="unknown column 'q'"):
        prepare(t, Preprocessing(target="y", drop=("q",)))
    with pytest.raises(ValueError, match="no feature columns left"):
        prepare(t, Preprocessing(target="y", drop=("a",)))
    with pytest.raises(ValueError, match="leaves 1 test and 1 training rows"):
        prepare(t, Preprocessing(target="y", test_fraction=0.5))


def test_load_from_files(tmp_path):
    (tmp_path / "d.csv").write_text("f,g,label\n1,a,1\n2,b,0\n3,a,1\n")
    p = load(tmp_path / "d.csv", target="label", rows="none")
    assert p.features == ["f", "g=a", "g=b"] and p.name == "d.csv"
    assert p.record()["source"]["format"] == "csv"
    with pytest.raises(ValueError, match="needs its target column"):
        load(tmp_path / "d.csv")
    with pytest.raises(ValueError, match="neither a named dataset .* nor an existing file"):
        load(tmp_path / "missing.csv", target="label")
    (tmp_path / "nan.csv").write_text("f,label\nnan,1\n2,0\n")
    with pytest.raises(ValueError, match="'f' has 1 missing values"):
        load(tmp_path / "nan.csv", target="label")
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(ValueError, match="is empty"):
        load(tmp_path / "empty.csv", target="label")
