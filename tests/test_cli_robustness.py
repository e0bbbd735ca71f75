"""Fixed regression cases beside the fuzz test: every input class of issue 14's "Why".

Each runs the installed ``dptheory`` script in a subprocess (closed pipes, full disks and
file-size limits need a real process) and asserts one line on stderr, exit code 2 and no
traceback, unless noted. Accountant cases whose numbers another change may make
computable accept exit 0 as well.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dptheory.cli import main

DPTHEORY = Path(sys.executable).with_name("dptheory")
pytestmark = pytest.mark.skipif(not DPTHEORY.exists(), reason="the dptheory script is not installed")


def cli(*argv: str, ok: tuple[int, ...] = (2,), cwd: Path | None = None,
        shell_prefix: str | None = None, stdout: int | None = subprocess.PIPE,
        **kw) -> subprocess.CompletedProcess:
    cmd = [str(DPTHEORY), *argv]
    if shell_prefix is not None:
        cmd = ["bash", "-c", shell_prefix + " " + " ".join(f"'{a}'" for a in cmd)]
    proc = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=cwd,
                          timeout=300, **kw)
    err = proc.stderr
    assert "Traceback" not in err, err[-2000:]
    assert proc.returncode in ok, f"exit {proc.returncode}: {err[-1000:]}"
    if proc.returncode == 2:
        assert len(err.strip().splitlines()) == 1, err
    return proc


# ------------------------------------------------------------------ ArithmeticError (accountant)
@pytest.mark.parametrize("sigma", ["5e6", "1e-6"])
def test_accountant_at_extreme_noise(sigma):
    cli("account", "--noise-multiplier", sigma, "--sample-rate", "0.01", "--steps", "10",
        "--delta", "1e-5", ok=(0, 2))


def test_calibrate_to_a_small_epsilon():
    p = cli("calibrate", "--target-epsilon", "0.001", "--target-delta", "1e-5",
            "--sample-rate", "0.01", "--epochs", "10", ok=(0, 2))
    if p.returncode == 2:
        assert "--target-epsilon 0.001" in p.stderr


# ------------------------------------------------------------------ OverflowError
def test_compare_with_an_infinite_setting():
    p = cli("compare", "tran2022.thm9", "tran2022.thm6", "--set", "d=inf")
    assert "d must be > 0 and finite" in p.stderr


def test_account_with_a_huge_noise_multiplier():
    cli("account", "--noise-multiplier", "1e308", "--steps", "10", "--delta", "1e-5", ok=(0, 2))


def test_calibrate_with_huge_epochs():
    p = cli("calibrate", "--target-epsilon", "1", "--target-delta", "1e-5", "--sample-rate",
            "0.01", "--epochs", "1e308")
    assert "--epochs" in p.stderr and "1e+308" in p.stderr


def test_run_with_a_huge_epsilon_gives_strict_json():
    p = cli("run", "zhang2017.alg1", "--objective", "logistic-ridge", "--eps", "1e308",
            "--delta", "1e-5", "--reps", "1", "--json", ok=(0, 2))
    if p.returncode == 0:
        data = json.loads(p.stdout, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
        se = data["metrics"]["excess_risk"]
        assert se["se"] is None and se["se_reason"] == "not a number (NaN)"   # one replicate


# ------------------------------------------------------------------ MemoryError: sizes refused
def test_account_with_a_huge_order():
    p = cli("account", "--noise-multiplier", "1", "--steps", "10", "--delta", "1e-5",
            "--sample-rate", "0.01", "--orders", "1e9")
    assert "GiB" in p.stderr and "--orders" in p.stderr


@pytest.mark.parametrize("size", [["--n", "100000000"], ["--d", "100000"]])
def test_run_with_a_huge_size(size):
    p = cli("run", "zhang2017.alg1", "--objective", "logistic-ridge", "--eps", "1",
            "--delta", "1e-5", *size)
    assert "GiB" in p.stderr and "--max-memory" in p.stderr


# ------------------------------------------------------------------ hangs: T above the budget
@pytest.mark.parametrize("alg,objective,extra", [
    ("tran2022.alg1", "robust-regression", []),
    ("yang2022.alg1", "cosh-generalized-smooth", []),
    ("zhang2021.alg1", "pl-nonconvex", ["--n", "10"]),
])
def test_run_with_a_huge_epsilon_is_refused_with_T(alg, objective, extra):
    p = cli("run", alg, "--objective", objective, "--eps", "1e6", "--delta", "1e-5",
            "--reps", "2", *extra)
    assert "T = " in p.stderr and "--max-steps" in p.stderr


# ------------------------------------------------------------------ bad stores and paths
def test_findings_with_a_garbage_or_directory_store(tmp_path):
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database at all" * 100)
    p = cli("findings", "--no-checks", "--only", "zhang2017.lemma2", "--store", str(garbage))
    assert "damaged" in p.stderr and "dptheory store repair" in p.stderr
    folder = tmp_path / "dir.sqlite"
    folder.mkdir()
    p = cli("findings", "--no-checks", "--only", "zhang2017.lemma2", "--store", str(folder))
    assert "is a directory" in p.stderr


def test_regime_map_to_a_bad_path():
    p = cli("compare", "tran2022.thm9", "tran2022.thm6", "--set", "d=100", "eps=1",
            "--vary", "n", "--y", "delta", "--map", "/dev/null/x.png")   # not a directory
    assert "/dev/null/x.png" in p.stderr


# ------------------------------------------------------------------ closed pipe, full disk
def test_closed_pipe():
    proc = subprocess.Popen([str(DPTHEORY), "list", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()                          # the reader is gone before the writer writes
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert proc.returncode == 2 and "broken pipe" in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and "Exception ignored" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_to_a_full_device():
    with open("/dev/full", "w") as full:
        p = cli("list", stdout=full)
    assert "no space left" in p.stderr


# ------------------------------------------------------------------ misleading messages, options
def test_abbreviated_options_are_refused():
    p = cli("run", "zhang2017.alg1", "--objective", "logistic-ridge", "--eps", "1",
            "--delta", "1e-5", "--max-st", "3")      # not --max-steps
    assert "unrecognized arguments: --max-st 3" in p.stderr


def test_internal_errors_exit_1_with_the_traceback_only_under_debug(monkeypatch, capsys):
    from dptheory import registry

    def broken() -> dict:
        raise RuntimeError("planted bug")
    monkeypatch.setattr(registry, "algorithms", broken)
    assert main(["algorithms"]) == 1
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: planted bug" in err and "Traceback" not in err
    assert "--debug" in err
    assert main(["algorithms", "--debug"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and "planted bug" in err


# ------------------------------------------------------------------ store: read-only, disk full
def _as_nobody() -> str | None:
    """A command prefix that runs the child as an unprivileged user when we are root (root
    writes read-only files)."""
    if os.geteuid() != 0:
        return None
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: cannot make a file read-only")
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups"
    probe = subprocess.run([*prefix.split(), str(DPTHEORY), "--version"], capture_output=True,
                           timeout=120)
    if probe.returncode != 0:
        pytest.skip(f"running as root, and the unprivileged user nobody cannot run {DPTHEORY} "
                    "(a folder on its path is not readable by others, e.g. a clone made in "
                    "`mktemp -d`): root writes read-only files, so there is no one to test as")
    return prefix


def test_read_only_store(tmp_path):
    import tempfile
    from dptheory.store import Store
    base = Path(tempfile.mkdtemp(prefix="dptheory-ro-"))   # readable by an unprivileged user
    try:
        base.chmod(0o777)
        out = base / "report"
        out.mkdir()
        out.chmod(0o777)
        with Store(out / "results.sqlite") as store:
            store.new_run("x")
        (out / "results.sqlite").chmod(0o444)
        p = cli("verify", "--only", "zhang2017.lemma2:gd-sensitivity", "--out", str(out),
                "--jobs", "1", cwd=base, shell_prefix=_as_nobody())
        assert "read-only" in p.stderr and "results.sqlite" in p.stderr
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False)


def test_disk_full_while_writing_the_store(tmp_path):
    p = cli("verify", "--only", "zhang2017.lemma2:gd-sensitivity", "--out", str(tmp_path / "r"),
            "--jobs", "1", shell_prefix="ulimit -f 4;")
    assert "results.sqlite" in p.stderr and ("full" in p.stderr or "space" in p.stderr)


def test_one_replicate_prints_no_nan(capsys):
    # one replicate has no standard error: the text says so instead of printing nan
    from dptheory.cli import main
    assert main(["run", "zhang2017.alg1", "--objective", "logistic-ridge", "--n", "64",
                 "--eps", "1", "--delta", "1e-5", "--reps", "1"]) == 0
    out = capsys.readouterr().out
    assert "nan" not in out.lower() and "se n/a, 1 replicate" in out


def test_verify_prints_the_whole_commands_time(tmp_path, capsys):
    # the closing line's time is the whole command's (checks, then report and figures), so it
    # is at least the checks' own time, which report.json keeps as `elapsed`
    import re
    from dptheory.cli import main
    assert main(["verify", "--only", "yang2022.lemma3.1:clip-sensitivity", "--out",
                 str(tmp_path / "r"), "--jobs", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.search(r"\((\d+) s; checks (\d+) s, then the report and its figures\)$", last)
    assert m, last
    elapsed = json.loads((tmp_path / "r" / "report.json").read_text())["elapsed"]
    assert int(m.group(1)) >= round(elapsed) - 1 and int(m.group(2)) == round(elapsed)
