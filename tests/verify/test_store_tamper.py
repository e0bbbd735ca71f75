"""Issue 25, rows 1, 2 and 8: every stored byte a verdict depends on is checked.

A cell's checksum covers its run id, key, status and result together, so each tampering case
below (two rows' (result, checksum) pairs swapped, a result edited with or without a
recomputed result-only checksum, a bit flip that makes the text invalid UTF-8, a truncated
result) is detected: the cell is recomputed, an event is recorded, and the verdicts equal
those of an untampered run. Findings rows carry a checksum too: an edited one is reported
and left out, never printed. Before this change the swap went unnoticed (the checksum was
the SHA-256 of the result text alone) and one invalid UTF-8 byte made every read fail.
"""

from __future__ import annotations

import gc
import hashlib
import re
import shutil
import sqlite3

import pytest

from dptheory.store import Store, check, checksum, dumps, repair
from dptheory.verify.verdict import Finding
from tests.verify.cellfuncs import exact as _exact
from tests.verify.cellfuncs import stored_sweep

N_CELLS = 17      # the store of the report had 17 cells


def _sweep(db) -> dict:
    return stored_sweep(db, N_CELLS)


def _sql(db, statement: str, params=()) -> list:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(statement, params).fetchall()
        conn.commit()
        return rows
    finally:
        conn.close()


def _rows(db) -> list[tuple[str, bytes, str]]:
    """(key, result bytes, checksum) of every cell, in key order."""
    return _sql(db, "SELECT key, CAST(result AS BLOB), checksum FROM cells ORDER BY key")


# ---------------------------------------------------------------------------- tampering
def _swap(db) -> set[str]:
    (k1, r1, c1), (k2, r2, c2) = _rows(db)[:2]
    assert r1 != r2                       # so reading the swapped pair would change results
    _sql(db, "UPDATE cells SET result=CAST(? AS TEXT), checksum=? WHERE key=?", (r2, c2, k1))
    _sql(db, "UPDATE cells SET result=CAST(? AS TEXT), checksum=? WHERE key=?", (r1, c1, k2))
    return {k1, k2}


def _edit_with_result_only_checksum(db) -> set[str]:
    # what an editor who knows the old scheme writes: a new number and the SHA-256 of the text
    key, raw, _ = _rows(db)[3]
    text = re.sub(r"(?<=\d\.)(\d)", lambda m: str((int(m[1]) + 1) % 10), raw.decode(), count=1)
    assert text != raw.decode()
    _sql(db, "UPDATE cells SET result=?, checksum=? WHERE key=?",
         (text, hashlib.sha256(text.encode()).hexdigest(), key))
    return {key}


def _invalid_utf8_bit_flip(db) -> set[str]:
    key, raw, _ = _rows(db)[5]
    flipped = bytearray(raw)
    flipped[2] ^= 0x80                    # an ASCII byte becomes a lone continuation byte
    with pytest.raises(UnicodeDecodeError):
        bytes(flipped).decode("utf-8")
    _sql(db, "UPDATE cells SET result=CAST(? AS TEXT) WHERE key=?", (bytes(flipped), key))
    return {key}


def _truncate(db) -> set[str]:
    key, raw, _ = _rows(db)[7]
    _sql(db, "UPDATE cells SET result=substr(result, 1, ?) WHERE key=?", (len(raw) // 2, key))
    return {key}


def _swap_keys(db) -> set[str]:
    # the same swap made on the keys: each row keeps its result and checksum, under the
    # other row's key
    (k1, _, _), (k2, _, _) = _rows(db)[8:10]
    _sql(db, "UPDATE cells SET key='tmp' WHERE key=?", (k1,))
    _sql(db, "UPDATE cells SET key=? WHERE key=?", (k1, k2))
    _sql(db, "UPDATE cells SET key=? WHERE key='tmp'", (k2,))
    return {k1, k2}


def _key_turned_blob(db) -> set[str]:
    # a damaged record header can change a value's type: the same bytes, read as a blob
    key = _rows(db)[11][0]
    _sql(db, "UPDATE cells SET key=CAST(key AS BLOB) WHERE key=?", (key,))
    assert _sql(db, "SELECT COUNT(*) FROM cells WHERE typeof(key)='blob'") == [(1,)]
    return {key}


TAMPER = {"swap": _swap, "edit": _edit_with_result_only_checksum,
          "bit-flip": _invalid_utf8_bit_flip, "truncation": _truncate, "swapped-keys": _swap_keys}


@pytest.mark.parametrize("case", sorted(TAMPER))
def test_each_tampering_is_recomputed_and_reported(tmp_path, case):
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    bad = TAMPER[case](db)
    with Store(db) as store:
        kept = store.results("r")
        assert not bad & set(kept) and len(kept) == N_CELLS - len(bad)
        assert {e["key"] for e in store.events("r")} == bad
    report = check(db)
    assert not report["ok"] and {b["key"] for b in report["bad_cells"]} == bad
    again = _sweep(db)
    assert _exact(again) == reference and set(again.computed) == bad
    assert check(db)["ok"]


def test_a_key_read_back_as_a_blob_is_another_cell(tmp_path):
    # the blob-keyed row fails its checksum (the type is part of it), the text-keyed cell is
    # recomputed beside it, and repair drops the damaged row
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    bad = _key_turned_blob(db)
    with Store(db) as store:
        assert len(store.results("r")) == N_CELLS - 1
        assert [(e["key"], e["kind"]) for e in store.events("r")] == \
            [(next(iter(bad)), "checksum-mismatch")]
    again = _sweep(db)
    assert _exact(again) == reference and set(again.computed) == bad
    assert repair(db)["dropped"] == 1 and check(db)["ok"]


def test_a_bit_flip_damages_one_cell_and_repair_keeps_every_cell_that_verifies(tmp_path):
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    bad = _invalid_utf8_bit_flip(db)
    assert len(Store(db).cells("r")) == N_CELLS           # every row is still listed
    out = repair(db)
    assert out["cells_kept"] == N_CELLS - 1 and out["dropped"] == 1
    again = _sweep(db)
    assert _exact(again) == reference and set(again.computed) == bad


def test_a_bit_flip_in_the_file_itself(tmp_path):
    """The same flip made in the file's bytes, as a disk error would."""
    db = tmp_path / "s.sqlite"
    reference = _exact(_sweep(db))
    data = bytearray(db.read_bytes())
    i = data.index(b'"tiny":') + 1
    data[i] ^= 0x80
    db.write_bytes(bytes(data))
    with Store(db) as store:
        assert len(store.results("r")) == N_CELLS - 1
        assert [e["kind"] for e in store.events("r")] == ["checksum-mismatch"]
    assert repair(db)["cells_kept"] == N_CELLS - 1
    assert _exact(_sweep(db)) == reference


def test_rows_of_the_previous_format_are_recomputed_with_an_event(tmp_path):
    db = tmp_path / "old.sqlite"
    reference = _exact(_sweep(db))
    # the previous release stored SHA-256(result text) as the checksum
    for key, raw, _ in _rows(db):
        _sql(db, "UPDATE cells SET checksum=? WHERE key=?", (hashlib.sha256(raw).hexdigest(), key))
    again = _sweep(db)
    assert _exact(again) == reference and len(again.computed) == N_CELLS
    with Store(db) as store:
        events = store.events("r")
        assert {e["kind"] for e in events} == {"old-checksum"} and len(events) == N_CELLS
        assert "did not cover the cell key" in events[0]["detail"]
    assert check(db)["ok"]


def test_the_checksum_separates_its_fields():
    # moving text from one field to the next must change the sum
    assert checksum("r", "ab", "done", "c") != checksum("r", "a", "done", "bc")
    assert checksum(None, "a") != checksum("", "a") != checksum("None", "a")
    assert checksum("r", "k", "done", "x") != checksum("r", "k", "error", "x")


# ---------------------------------------------------------------------------- findings
def _finding(severity: str = "proof") -> Finding:
    return Finding("paper.thm1", "paper.thm1:check", "paper.thm1: the bound fails at n = 8",
                   {"n": 8, "ratio": 1.5}, "dptheory verify --only paper.thm1", severity)


def test_an_edited_finding_is_reported_and_left_out(tmp_path):
    db = tmp_path / "s.sqlite"
    with Store(db) as store:
        store.new_run("x", run_id="r")
        store.add_finding(_finding(), "r")
        store.add_finding(Finding("paper.thm2", "paper.thm2:check", "other", {}, ""), "r")
        assert [f["severity"] for f in store.findings()] == ["proof", "bound"]
    _sql(db, "UPDATE findings SET grading=replace(grading, '\"proof\"', '\"privacy\"') "
             "WHERE item='paper.thm1'")
    with Store(db, read_only=True) as store:
        shown = store.findings()
        assert [f["id"] for f in shown] == ["paper.thm2"]       # never printed as genuine
        assert [e["kind"] for e in store.integrity_events] == ["finding-checksum-mismatch"]
    report = check(db)
    assert not report["ok"] and len(report["bad_findings"]) == 1
    with Store(db) as store:          # storing it again replaces the damaged row
        store.add_finding(_finding(), "r")
        assert sorted(f["id"] for f in store.findings()) == ["paper.thm1", "paper.thm2"]
        assert [f["severity"] for f in store.findings() if f["id"] == "paper.thm1"] == ["proof"]
    assert check(db)["ok"]
    assert repair(db)["findings"] == 2


def test_findings_of_an_old_store_are_reported_not_shown(tmp_path):
    db = tmp_path / "old.sqlite"
    with Store(db) as store:
        store.new_run("x", run_id="r")
        store.add_finding(_finding(), "r")
    _sql(db, "ALTER TABLE findings DROP COLUMN checksum")     # a file of the previous release
    with Store(db, read_only=True) as store:
        assert store.findings() == []
        assert [e["kind"] for e in store.integrity_events] == ["finding-no-checksum"]
    with Store(db) as store:                                  # migrated: the column comes back
        assert store.findings() == []
        store.add_finding(_finding(), "r")
        assert len(store.findings()) == 1
        assert len(_sql(db, "SELECT id FROM findings")) == 1  # the unverified row was replaced


# ---------------------------------------------------------------------------- verdicts
ONLY = ["zhang2017.thm2.eps:bound-n"]


def _verdicts(out) -> list[tuple]:
    from dptheory.verify.engine import run_verify
    res = run_verify(only=ONLY, out=out, n_jobs=1, progress=False, symbolic=False)
    gc.collect()                       # the engine's connection: closing the last one
    Store(out / "results.sqlite").close()     # checkpoints the WAL into the file
    return [(v.id, v.verdict, v.summary, dumps(v.evidence, strict=False)) for v in res.verdicts]


@pytest.fixture(scope="module")
def clean_verify(tmp_path_factory):
    out = tmp_path_factory.mktemp("clean") / "report"
    return out, _verdicts(out)


@pytest.mark.parametrize("case", ["swap", "edit", "bit-flip", "truncation"])
def test_tampered_verify_store_gives_the_untampered_verdicts(tmp_path, clean_verify, case):
    clean_out, clean = clean_verify
    out = tmp_path / "report"
    shutil.copytree(clean_out, out)
    bad = TAMPER[case](out / "results.sqlite")
    assert _verdicts(out) == clean
    with Store(out / "results.sqlite") as store:
        assert {e["key"] for e in store.events()} == bad


# ---------------------------------------------------------------------------- any bit
@pytest.mark.parametrize("bit", [0x01, 0x80])
def test_a_flipped_bit_anywhere_never_changes_what_is_read(tmp_path, bit):
    """Flip one bit at each of 150 positions of the file: opening either fails with one
    StoreError line, or every cell and finding read equals the untampered one."""
    from dptheory.errors import StoreError
    clean = tmp_path / "clean.sqlite"
    reference = _exact(_sweep(clean))
    with Store(clean) as store:
        store.add_finding(_finding(), "r")
        findings = store.findings()
    data = clean.read_bytes()
    db = tmp_path / "s.sqlite"
    for i in range(0, len(data), max(1, len(data) // 150)):
        flipped = bytearray(data)
        flipped[i] ^= bit
        db.write_bytes(bytes(flipped))
        try:
            with Store(db, read_only=True) as store:
                read = _exact(store.results("r")) if store.runs() else {}
                shown = store.findings()
        except StoreError as exc:
            assert "\n" not in str(exc)
            continue
        assert all(reference[k] == v for k, v in read.items()), f"byte {i}"
        assert all(f in findings for f in shown), f"byte {i}"
        assert check(db)["ok"] in (True, False)
