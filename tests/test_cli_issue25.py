"""Issue 25's reproductions as tests: the store, data-file and findings rows of its table.

Each runs the installed ``dptheory`` script (as ``tests/test_cli_robustness.py`` does) and
states the expected behaviour. The other rows are tested where their code is:
swapped/edited/bit-flipped/truncated cells and edited findings in
``tests/verify/test_store_tamper.py``, workers outliving a SIGKILLed parent in
``tests/verify/test_orphans.py``, the read-only store in ``tests/test_cli_robustness.py``.
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3

import numpy as np
import pytest

from dptheory.cli import main
from tests.test_cli_robustness import DPTHEORY, cli

pytestmark = pytest.mark.skipif(not DPTHEORY.exists(), reason="the dptheory script is not installed")

RUN = ["run", "zhang2017.alg1", "--objective", "logistic-ridge", "--target", "y", "--eps", "1",
       "--delta", "1e-5", "--reps", "1", "--max-steps", "300"]


def _table(n: int = 200) -> list[list[str]]:
    """A clean 200-row table: two numeric features and a 0/1 label."""
    rng = np.random.default_rng(25)
    X = rng.random((n, 2))
    return [[repr(float(a)), repr(float(b)), str(int(a + b > 1))] for a, b in X]


def _write(path, rows) -> None:
    path.write_text("x1,x2,y\n" + "\n".join(",".join(r) for r in rows) + "\n")


# ------------------------------------------------------------------ medium: hangs, exit 1
def test_a_fifo_as_data_is_refused_at_once(tmp_path):
    # was: blocked reading the FIFO until killed
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)
    p = cli(*RUN, "--data", str(fifo))      # (cli: a 300 s limit; the refusal takes < 1 s)
    assert "not a regular file" in p.stderr and str(fifo) in p.stderr


def test_a_csv_cell_over_the_csv_limit_names_file_line_and_column(tmp_path):
    # was: exit 1 (_csv.Error: field larger than field limit (131072))
    rows = _table()
    rows[41][1] = "9" * 131073
    path = tmp_path / "big.csv"
    _write(path, rows)
    p = cli(*RUN, "--data", str(path))
    assert f"{path}, line 43, column 2 ('x2')" in p.stderr and "131073 characters" in p.stderr


def test_a_truncated_gzip_names_the_file(tmp_path):
    # was: exit 1 (EOFError: Compressed file ended before the end-of-stream marker)
    path = tmp_path / "data.csv.gz"
    clean = tmp_path / "clean.csv"
    _write(clean, _table())
    blob = gzip.compress(clean.read_bytes())
    path.write_bytes(blob[: len(blob) // 2])
    p = cli(*RUN, "--data", str(path))
    assert str(path) in p.stderr and "not a complete gzip file" in p.stderr


def test_bst14_at_eps_1e308_runs(tmp_path):
    # was: exit 1 (brentq: failed to converge after 100 iterations on [1e-300, 1e308]);
    # the right limit: a valid eps gives a run, with a tiny noise and a finite tight eps
    p = cli("run", "zhang2017.bst14", "--objective", "logistic-ridge", "--n", "50", "--eps",
            "1e308", "--delta", "1e-5", "--reps", "1", "--json", ok=(0,))
    out = json.loads(p.stdout)
    assert out["noise"]["s"] < 1e-2 and np.isfinite(out["privacy"]["tight"]["epsilon"])


def test_findings_with_a_missing_store_is_an_error_before_any_check(monkeypatch, capsys):
    # was: exit 0 without the stored findings, and a bad --store only after ~80 s of checks
    import dptheory.verify.findings as findings
    monkeypatch.setattr(findings, "collect",
                        lambda **kw: pytest.fail("the checks ran before --store was validated"))
    assert main(["findings", "--store", "/nonexistent/x"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "'/nonexistent/x' does not exist" in err
    p = cli("findings", "--no-checks", "--store", "/nonexistent/x")
    assert "does not exist" in p.stderr


# ------------------------------------------------------------------ medium: edited finding
def test_an_edited_finding_is_not_printed(tmp_path):
    from dptheory.store import Store
    from dptheory.verify.verdict import Finding
    db = tmp_path / "results.sqlite"
    with Store(db) as store:
        store.new_run("planted", run_id="r")
        store.add_finding(Finding("zhang2017.lemma2", "zhang2017.lemma2:planted",
                                  "zhang2017.lemma2: a planted finding", {"x": 1}, "",
                                  "proof"), "r")
    argv = ("findings", "--no-checks", "--only", "zhang2017.lemma2", "--store", str(db), "--json")
    shown = json.loads(cli(*argv, ok=(0,)).stdout)
    planted = [f for f in shown["findings"] if f["check"] == "zhang2017.lemma2:planted"]
    assert [f["severity"] for f in planted] == ["proof"]            # genuine: printed
    conn = sqlite3.connect(db)
    conn.execute("UPDATE findings SET grading=replace(grading, '\"proof\"', '\"privacy\"')")
    conn.commit()
    conn.close()
    shown = json.loads(cli(*argv, ok=(0,)).stdout)
    assert not [f for f in shown["findings"] if f["check"] == "zhang2017.lemma2:planted"]
    assert [e["kind"] for e in shown["unverified_stored_findings"]] == \
        ["finding-checksum-mismatch"]
    text = cli(*argv[:-1], ok=(0,)).stdout
    assert "1 stored findings fail their checksum" in text and "planted" not in text


# ------------------------------------------------------------------ low-medium: stray token
@pytest.mark.parametrize("token", ["abc", "inf", "1e999"])
def test_a_stray_token_in_a_numeric_column_is_an_error(tmp_path, token):
    # was: exit 0 with x2 one-hot encoded into 200 features (d 3 -> 202)
    rows = _table()
    rows[99][1] = token
    path = tmp_path / "stray.csv"
    _write(path, rows)
    p = cli(*RUN, "--data", str(path))
    assert f"{path}, line 101, column 'x2': '{token}' is not a finite number" in p.stderr
    assert "--categorical x2" in p.stderr
    # asked for explicitly, the one-hot encoding is done: d = the 200 distinct values
    out = json.loads(cli(*RUN, "--data", str(path), "--categorical", "x2", "--json",
                         ok=(0,)).stdout)
    assert out["d"] == 1 + 200
    clean = tmp_path / "clean.csv"
    _write(clean, _table())
    assert json.loads(cli(*RUN, "--data", str(clean), "--json", ok=(0,)).stdout)["d"] == 2


# ------------------------------------------------------------------ low: invalid UTF-8
def test_an_invalid_utf8_bit_flip_damages_one_cell_and_repair_keeps_the_others(tmp_path):
    # was: every read failed ("Could not decode to UTF-8"), and repair kept 8 of the 17
    # cells that still verified
    from tests.verify.cellfuncs import stored_sweep
    db = tmp_path / "results.sqlite"
    stored_sweep(db, 17)
    data = bytearray(db.read_bytes())
    i = data.index(b'"tiny":') + 1
    data[i] ^= 0x80                           # '"' -> 0xa2, a lone continuation byte
    db.write_bytes(bytes(data))
    p = cli("store", "check", str(db))
    assert "1 finished cells fail their checksum" in p.stderr
    out = json.loads(cli("store", "repair", str(db), "--json", ok=(0,)).stdout)
    assert out["cells_kept"] == 16 and out["dropped"] == 1
    assert "ok (1 runs, 16 cells" in cli("store", "check", str(db), ok=(0,)).stdout
