"""Readers: CSV (header or not, delimiters, .gz/.zip), NPZ, Parquet, arrays; bad files."""

from __future__ import annotations

import gzip
import zipfile

import numpy as np
import pytest

from dptheory_simulations.datasets import tables as T


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_csv_types_missing_and_provenance(tmp_path):
    p = write(tmp_path, "a.csv", 'x,colour,y\n1.5, red ,1\n?,"blue",0\n3,,1\n')
    t = T.read_csv(p)
    assert t.names == ["x", "colour", "y"] and t.n_rows == 3
    np.testing.assert_array_equal(t.column("x")[[0, 2]], [1.5, 3.0])
    assert np.isnan(t.column("x")[1])                      # '?' is missing
    assert t.column("colour").tolist() == ["red", "blue", None]
    assert t.is_numeric("y") and not t.is_numeric("colour")
    assert t.missing("colour").tolist() == [False, False, True]
    import hashlib
    assert t.source["sha256"] == hashlib.sha256(p.read_bytes()).hexdigest()
    assert t.source["rows"] == 3


@pytest.mark.parametrize("delim", [",", ";", "\t"])
def test_csv_delimiter_sniffed(tmp_path, delim):
    p = write(tmp_path, "a.txt", delim.join(["a", "b"]) + "\n" + delim.join(["1", "2"]) + "\n")
    t = T.read_csv(p)
    assert t.names == ["a", "b"] and t.column("b")[0] == 2.0


def test_csv_without_header_and_compressed(tmp_path):
    raw = "1, x\n2, y\n"
    (tmp_path / "a.csv.gz").write_bytes(gzip.compress(raw.encode()))
    with zipfile.ZipFile(tmp_path / "a.zip", "w") as zf:
        zf.writestr("inner.data", raw)
    for name in ("a.csv.gz", "a.zip"):
        t = T.read_csv(tmp_path / name, names=["n", "s"])
        assert t.column("n").tolist() == [1.0, 2.0] and t.column("s").tolist() == ["x", "y"]


@pytest.mark.parametrize("text, match", [
    ("", "is empty"),
    ("\n\n", "is empty"),
    ("a,b\n", "no data rows"),
    ("a,b\n1,2\n3\n", "line 3 has 1 fields, the header has 2"),
    ("a,a\n1,2\n", "distinct"),
])
def test_csv_bad_files(tmp_path, text, match):
    with pytest.raises(ValueError, match=match):
        T.read_csv(write(tmp_path, "bad.csv", text))


def test_missing_paths_and_binary(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        T.read_csv(tmp_path / "nope.csv")
    with pytest.raises(ValueError, match="is a directory"):
        T.read_csv(tmp_path)
    (tmp_path / "b.csv").write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(ValueError, match="not a utf-8 text file"):
        T.read_csv(tmp_path / "b.csv")


def test_npz_two_layouts_and_refusals(tmp_path):
    X = np.arange(6.0).reshape(3, 2)
    np.savez(tmp_path / "xy.npz", X=X, y=np.array([0, 1, 1]))
    t = T.read_npz(tmp_path / "xy.npz")
    assert t.names == ["x0", "x1", "y"] and t.column("x1").tolist() == [1.0, 3.0, 5.0]
    np.savez(tmp_path / "cols.npz", a=np.array([1.0, 2.0]), b=np.array(["u", "v"]))
    t = T.read_table(tmp_path / "cols.npz")
    assert t.column("b").tolist() == ["u", "v"]
    np.savez(tmp_path / "obj.npz", a=np.array([{"k": 1}], dtype=object))
    with pytest.raises(ValueError, match="without pickle"):
        T.read_npz(tmp_path / "obj.npz")
    write(tmp_path, "fake.npz", "not a zip")
    with pytest.raises(ValueError, match="not a NumPy .npz archive"):
        T.read_npz(tmp_path / "fake.npz")
    np.savez(tmp_path / "empty.npz")
    with pytest.raises(ValueError, match="empty .npz"):
        T.read_npz(tmp_path / "empty.npz")


def test_parquet_roundtrip_or_clear_error(tmp_path):
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        write(tmp_path, "a.parquet", "x")
        with pytest.raises(ValueError, match="pip install pyarrow"):
            T.read_table(tmp_path / "a.parquet")
        return
    pq.write_table(pa.table({"x": [1.0, None, 3.0], "c": ["a", "b", None]}),
                   tmp_path / "a.parquet")
    t = T.read_table(tmp_path / "a.parquet")
    assert np.isnan(t.column("x")[1]) and t.column("c").tolist() == ["a", "b", None]


def test_unknown_column_lists_the_columns(tmp_path):
    t = T.read_csv(write(tmp_path, "a.csv", "age,income\n1,2\n"))
    with pytest.raises(ValueError, match=r"unknown column 'agee'; the columns are \['age', "
                                         r"'income'\] \(2 columns\)"):
        t.column("agee")


def test_from_arrays_checks_shapes():
    t = T.from_arrays(np.ones((2, 3)), [1, 0])
    assert t.names == ["x0", "x1", "x2", "y"]
    with pytest.raises(ValueError, match="2-D"):
        T.from_arrays(np.ones(3), [1, 0, 1])
    with pytest.raises(ValueError, match=r"y must have shape \(2,\)"):
        T.from_arrays(np.ones((2, 3)), [1])
    with pytest.raises(ValueError, match="distinct column names"):
        T.from_arrays(np.ones((2, 2)), [1, 0], names=["a", "a"])
    with pytest.raises(ValueError, match="format must be one of"):
        T.read_table("x.csv", format="xlsx")
