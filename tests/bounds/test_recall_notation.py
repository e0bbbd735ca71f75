"""wang2020's L printed for G, decided by dimensions (recall)."""

from __future__ import annotations

import pytest

from dptheory_bounds.checks.recall_notation import wang2020_L_for_G


def test_L_as_printed_is_dimensionally_wrong_and_G_is_right():
    res = wang2020_L_for_G()
    assert res.verdict == "refuted" and res.severity == "notation"
    # by hand: L = [F], alpha = [F]/[W]: L^2/alpha^2 = [W]^2; a variance L^2 = [F]^2
    thm4 = res.evidence["rows"][0]
    assert thm4["dimension"] == "W**2" and thm4["required"] == "1"
    assert all(r["dimension"] == "F**2" for r in res.evidence["rows"][1:])
    assert len(res.evidence["rows"]) == 3
    assert wang2020_L_for_G("G").verdict == "supported"         # planted: the intended letter


def test_bad_letter_is_a_clear_error():
    with pytest.raises(ValueError, match="letter"):
        wang2020_L_for_G("M")
