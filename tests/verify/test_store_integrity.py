"""The store notices corruption: one flipped digit, truncation, a garbage header, an old
file without checksums. Each ends in a clean one-line error or a recompute, never in a
silently changed result or verdict. (Read-only files and a full disk are exercised through
the command line in tests/test_cli_robustness.py.)"""

from __future__ import annotations

import gc
import os
import sqlite3

import pytest

from dptheory.errors import StoreError
from dptheory.store import Store, check, dumps, repair
from tests.verify.cellfuncs import exact as _exact
from tests.verify.cellfuncs import stored_sweep

N_CELLS = 6


def _sweep(db) -> dict:
    return stored_sweep(db, N_CELLS)


def _flip_digit(db, marker: bytes) -> None:
    """Change one digit of the stored file, right after the first ``marker``."""
    data = bytearray(db.read_bytes())
    i = data.index(marker) + len(marker)
    while not chr(data[i]).isdigit():
        i += 1
    data[i] = ord("0") + (data[i] - ord("0") + 1) % 10
    db.write_bytes(bytes(data))


def test_a_flipped_digit_is_detected_recomputed_and_reported(tmp_path):
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    _flip_digit(db, b'"u":0.')
    with Store(db) as store:
        assert len(store.results("r")) == N_CELLS - 1          # the damaged cell is not used
        assert [e["kind"] for e in store.events("r")] == ["checksum-mismatch"]
    report = check(db)
    assert not report["ok"] and len(report["bad_cells"]) == 1
    again = _sweep(db)
    assert _exact(again) == reference and len(again.computed) == 1
    assert check(db)["ok"]


def test_a_truncated_store_gives_one_line_and_repair_recovers(tmp_path):
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    os.truncate(db, db.stat().st_size // 2)
    with pytest.raises(StoreError) as err:
        Store(db)
    message = str(err.value)
    assert "\n" not in message and str(db) in message and "dptheory store repair" in message
    assert not check(db)["ok"]
    moved = repair(db)
    assert os.path.exists(moved["moved_to"])
    assert _exact(_sweep(db)) == reference


def test_a_garbage_header_gives_one_line_and_repair_recovers(tmp_path):
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    data = bytearray(db.read_bytes())
    data[:16] = b"garbage garbage!"
    db.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="is damaged \\(file is not a database\\)"):
        Store(db)
    repair(db)
    assert _exact(_sweep(db)) == reference


def test_repair_keeps_the_cells_that_still_verify(tmp_path):
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    _flip_digit(db, b'"u":0.')
    out = repair(db)
    assert out["cells_kept"] == N_CELLS - 1 and out["runs"] == 1
    again = _sweep(db)
    assert _exact(again) == reference and len(again.computed) == 1


def test_an_old_store_without_checksums_is_migrated_and_recomputed(tmp_path):
    db = tmp_path / "old.sqlite"
    reference = _exact(_sweep(db))
    conn = sqlite3.connect(db)                                  # make it look like an old file
    conn.execute("ALTER TABLE cells DROP COLUMN checksum")
    conn.execute("DROP TABLE events")
    conn.commit()
    conn.close()
    again = _sweep(db)
    assert _exact(again) == reference and len(again.computed) == N_CELLS
    with Store(db) as store:
        assert {e["kind"] for e in store.events("r")} == {"no-checksum"}
        assert len(store.results("r")) == N_CELLS


def test_a_directory_or_missing_file(tmp_path):
    with pytest.raises(StoreError, match="is a directory"):
        Store(tmp_path)
    assert "does not exist" in check(tmp_path / "missing.sqlite")["problem"]
    with pytest.raises(StoreError, match="does not exist"):
        repair(tmp_path / "missing.sqlite")


def test_a_flipped_digit_in_a_verify_store_does_not_change_the_verdict(tmp_path):
    from dptheory.verify.engine import run_verify
    only = ["zhang2017.thm2.eps:bound-n"]

    def verdicts(out):
        res = run_verify(only=only, out=out, n_jobs=1, progress=False, symbolic=False)
        return [(v.id, v.verdict, v.summary, dumps(v.evidence, strict=False)) for v in res.verdicts]

    clean = verdicts(tmp_path / "a")
    gc.collect()                       # the engine's connection: closing the last one
    Store(tmp_path / "a" / "results.sqlite").close()    # checkpoints the WAL into the file
    _flip_digit(tmp_path / "a" / "results.sqlite", b'"samples":[0.')
    assert verdicts(tmp_path / "a") == clean
    with Store(tmp_path / "a" / "results.sqlite") as store:
        assert [e["kind"] for e in store.events()] == ["checksum-mismatch"]
