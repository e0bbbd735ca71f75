"""Issue 25 items 3 and 6 (accountant part): hostile but valid numbers are refused at once
or get the right limit, the same in every command; never a hang, never exit 1, and
epsilon = inf only where the true epsilon is infinite.

Each case runs the real command line in a subprocess with a time limit (a guard against
hangs, generous for a loaded machine: the reproductions used to run 65-300 s or forever).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

LIMIT = 120       # seconds per call (start-up included); a hang fails, a slow machine does not


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dptheory", *argv], capture_output=True,
                          text=True, timeout=LIMIT)


def test_calibrate_with_a_denormal_sample_rate_finishes():
    # q = 4.9e-324: the fractional-order RDP series cannot converge (1/q overflows); it
    # used to run until killed. Now the order is dropped at once and integer orders decide.
    r = run("calibrate", "--target-epsilon", "1", "--target-delta", "1e-5", "--sample-rate",
            "4.9e-324", "--steps", "100", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert 0 < d["epsilon"] <= 1.0


def test_calibrate_tight_with_a_huge_target_is_refused():
    # target eps = 1e9 needs a noise multiplier ~2e-4: one step's privacy loss ~1e7 is
    # beyond float64's exp range; a clear one-line refusal, not a hang
    r = run("calibrate", "--accountant", "tight", "--target-epsilon", "1e9", "--target-delta",
            "1e-5", "--sample-rate", "0.01", "--steps", "100")
    assert r.returncode == 2
    assert "beyond the 700 a discretised PLD resolves" in r.stderr
    assert r.stderr.count("\n") == 1


@pytest.mark.parametrize("extra", [[], ["--tight"]])
def test_account_with_26_digit_steps(extra):
    steps = "12345678901234567890123456"
    r = run("account", "--noise-multiplier", "1", "--sample-rate", "0.01", "--steps", steps,
            "--delta", "1e-5", *extra)
    if extra:
        # the composed PLD's size is estimated before any FFT and refused
        assert r.returncode == 2
        assert "grid points" in r.stderr and r.stderr.count("\n") == 1
    else:
        # RDP composes by multiplication: a finite (huge) upper bound
        assert r.returncode == 0, r.stderr
        assert "eps=1.14" in r.stdout


def test_calibrate_with_26_digit_steps_is_refused():
    r = run("calibrate", "--target-epsilon", "1", "--target-delta", "1e-5", "--sample-rate",
            "0.01", "--steps", "12345678901234567890123456")
    assert r.returncode == 2
    assert "not reachable" in r.stderr and r.stderr.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["account", "--noise-multiplier", "1e308", "--sample-rate", "0.01", "--steps", "100",
     "--delta", "1e-5", "--json"],
    ["account", "--noise-multiplier", "1e308", "--sample-rate", "0.01", "--steps", "100",
     "--delta", "1e-5", "--tight", "--json"],
    ["routes", "--noise-multiplier", "1e308", "--sample-rate", "0.01", "--steps", "100",
     "--delta", "1e-5", "--json"],
])
def test_huge_noise_gives_epsilon_near_zero_in_every_command(argv):
    # sigma = 1e308: the true epsilon at delta = 1e-5 is 0 (delta(0) = 2 Phi(1/(2 sigma)) - 1
    # ~ 4e-309 < delta). `account` printed inf, `routes` refused: now every command gives a
    # finite value within 1e-4 of 0 (RDP's conversion keeps a floor of log(1/delta)/alpha)
    r = run(*argv)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    rows = d if isinstance(d, list) else [d]
    for row in rows:
        for key in ("epsilon", "epsilon_upper", "epsilon_lower"):
            if row.get(key) is not None:
                assert 0 <= row[key] <= 1e-4, (row.get("route"), key, row[key])


def test_tiny_noise_is_refused_by_the_tight_accountant_not_answered_with_inf():
    r = run("account", "--noise-multiplier", "0.01", "--sample-rate", "0.5", "--steps", "10",
            "--delta", "1e-5", "--tight")
    assert r.returncode == 2 and "use the RDP route" in r.stderr
