"""Issue 25, data rows: files that cannot be read are one ValueError naming the file and,
where there is one, the line and column; a stray token in a column of numbers is refused
unless the column is categorical. (The command-line reproductions are in
tests/test_cli_issue25.py, the fuzzed ones in tests/test_cli_fuzz.py.)"""

from __future__ import annotations

import gzip
import io
import os
import zipfile

import numpy as np
import pytest

from dptheory_simulations.datasets import Preprocessing, load, prepare
from dptheory_simulations.datasets import tables as T

CLEAN = "x1,x2,y\n0.1,0.2,1\n0.3,0.4,0\n\n0.5,0.6,1\n0.7,0.8,0\n"   # line 4 is blank


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


# ---------------------------------------------------------------------------- unreadable
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_fifo_is_refused_without_reading_it(tmp_path):
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)             # reading it would block: the refusal must come first
    with pytest.raises(ValueError, match="is not a regular file"):
        T.read_csv(fifo)
    with pytest.raises(ValueError, match="is not a regular file"):
        load(fifo, target="y")


def test_a_device_is_refused(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(ValueError, match="is not a regular file"):
        T.read_table("/dev/zero")


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9])
def test_a_truncated_gzip(tmp_path, cut):
    blob = gzip.compress(CLEAN.encode())
    p = tmp_path / "d.csv.gz"
    p.write_bytes(blob[:int(len(blob) * cut)])
    with pytest.raises(ValueError, match=f"{p}: not a complete gzip file"):
        T.read_csv(p)


def test_a_truncated_zip(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("d.csv", CLEAN * 50)
    p = tmp_path / "d.zip"
    p.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    with pytest.raises(ValueError, match=f"{p}: not a complete .zip archive"):
        T.read_csv(p)


def test_a_cell_over_the_limit_names_line_and_column(tmp_path):
    p = write(tmp_path, "d.csv", CLEAN + f"0.9,{'7' * (T.MAX_CELL + 1)},1\n")
    expected = rf"{p}, line 7, column 2 \('x2'\): a cell of {T.MAX_CELL + 1} characters"
    with pytest.raises(ValueError, match=expected):
        T.read_csv(p)
    # at the limit the cell is read (it is then a stray token: 1e131071 is no finite number)
    q = write(tmp_path, "e.csv", CLEAN + f"0.9,{'7' * T.MAX_CELL},1\n")
    assert T.read_csv(q).n_rows == 5
    assert T.read_csv(q).column("x2")[4] == "7" * T.MAX_CELL


def test_an_open_quote_names_the_line(tmp_path):
    p = write(tmp_path, "d.csv", 'x1,x2,y\n0.1,0.2,1\n"0.3,0.4,0\n0.5,0.6,1\n')
    with pytest.raises(ValueError, match=f"{p}: line 3 has 1 fields, the header has 3"):
        T.read_csv(p)


def test_rows_keep_their_file_lines(tmp_path):
    t = T.read_csv(write(tmp_path, "d.csv", CLEAN))
    assert t.lines.tolist() == [2, 3, 5, 6]                 # the blank line 4 is skipped
    assert t.take(np.array([2])).where(0) == f"{tmp_path / 'd.csv'}, line 5"


# ---------------------------------------------------------------------------- stray tokens
@pytest.mark.parametrize("token", ["abc", "inf", "-inf", "1e999", "Infinity"])
def test_a_stray_token_is_refused_with_line_and_value(tmp_path, token):
    p = write(tmp_path, "d.csv", CLEAN.replace("0.6", token))
    with pytest.raises(ValueError) as err:
        load(p, target="y")
    message = str(err.value)
    assert message.startswith(f"{p}, line 5, column 'x2': '{token}' is not a finite number")
    assert "categorical='x2'" in message and "\n" not in message
    # asked for, the column is one-hot encoded: 4 levels + x1
    assert load(p, target="y", categorical=("x2",)).train.d == 1 + 4


def test_a_numeric_column_and_a_text_column_are_unchanged(tmp_path):
    # the check concerns mixed columns only: all numbers stay one feature, all text is
    # one-hot encoded as before
    p = write(tmp_path, "d.csv", "x1,c,y\n0.1,red,1\n0.3,blue,0\n0.5,red,1\n0.7,green,0\n")
    prepared = load(p, target="y")
    assert prepared.features == ["x1", "c=blue", "c=green", "c=red"]


def test_arrays_without_lines_name_the_row():
    table = T.Table({"x": np.array(["1", "2", "x", "4"], dtype=object),
                     "y": np.array([1.0, 0.0, 1.0, 0.0])})
    with pytest.raises(ValueError, match="^row 3, column 'x': 'x' is not a finite number"):
        prepare(table, Preprocessing(target="y"))


def test_missing_tokens_are_missing_not_stray(tmp_path):
    p = write(tmp_path, "d.csv", CLEAN.replace("0.6", "?"))
    with pytest.raises(ValueError, match="column 'x2' has 1 missing values"):
        load(p, target="y")
    assert load(p, target="y", missing="drop").train.n == 3
