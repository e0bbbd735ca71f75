"""Which constants each check ran at (issue 22): cells report the certified constants they
ran at, the engine writes them per check as ``evidence["constants_varied"]`` (merged with a
check's own lines), and the report shows them for every verdict that has them."""

from __future__ import annotations

import json
import math

import pytest

from dptheory.verify import recipe as RC
from dptheory.verify.engine import build_cells, dispatch, recipes, select, with_constants
from dptheory.verify.verdict import CheckResult

from .test_engine import fake_recipes  # noqa: F401 - the fixture


def recording_cell(cell: dict) -> dict:
    """A cell that certifies G = 2 through the recorder and returns beta = 4 itself."""
    RC.record_constants({"G": 2.0, "note": "not a number", "bad": math.nan})
    return {"samples": [1.0], "bound": 2.0, "constants": {"beta": 4}}


def test_lines_name_each_constant_and_its_values():
    lines = RC.constants_varied(RC.merge_constants({"beta": 0.25}, {"beta": [1, 4]},
                                                   {"G": 1.5}, {"D": [1, 2, 3, 5, 8]},
                                                   {"mu": 1.0}))
    assert lines == ["D: 1 .. 8 (5 values)", "G: 1.5 (one value)", "beta: 1/4, 1, 4",
                     "mu: 1 (not varied)"]


def test_recording_collects_only_inside_and_nests():
    RC.record_constants({"G": 1.0})                    # outside: nothing to collect into
    with RC.recording() as outer:
        RC.record_constants({"G": 1.0})
        with RC.recording() as inner:
            RC.record_constants({"beta": 4.0})
        assert inner == [{"beta": 4.0}]
    assert outer == [{"G": 1.0}, {"beta": 4.0}]


def test_dispatch_adds_recorded_constants_to_the_cell_output():
    out = dispatch({"cell_fn": f"{__name__}:recording_cell"})
    assert out["constants"] == {"G": [2.0], "beta": [4.0]}     # non-numbers and NaN dropped


def test_objective_certification_is_recorded():
    from dptheory_simulations.objectives import get
    obj = get("robust-regression", d=3, x_radius=4.0)
    data = obj.make_data(8, 1)
    with RC.recording() as seen:
        obj.assumptions(data)
    X = max(math.hypot(*row) for row in data.X)
    assert seen[0]["G"] == pytest.approx(X / math.sqrt(2), rel=1e-5)
    assert seen[0]["beta"] == pytest.approx(X ** 2, rel=1e-5)


def test_checks_own_lines_are_kept_and_win_for_their_constant():
    cells = [{"constants": {"G": [1.0], "beta": [0.25, 4.0]}}, {"constants": {"G": [2.0]}},
             {"samples": [1.0]}]                                  # a cell stored before
    res = with_constants(CheckResult("inconclusive", "ok", {
        "constants_varied": "G: cancels (shift and noise scale with G); eps varied"}), cells)
    assert res.evidence["constants_varied"] == [
        "G: cancels (shift and noise scale with G)", "eps varied", "beta: 1/4, 4"]
    bare = with_constants(CheckResult("inconclusive", "ok", {}), [{"samples": [1.0]}])
    assert "constants_varied" not in bare.evidence
    noted = with_constants(CheckResult("inconclusive", "ok", {}), [], "the bound is 2C because")
    assert noted.evidence["constants_varied"] == ["scale not varied: the bound is 2C because"]


def test_planned_constants_match_what_a_real_cell_records():
    """The plan's reading (used by the far-from-1 test) agrees with what the cell certifies
    when it runs: one cheap cell of a scaled tran2022 recipe (Lemma 7, feature scale 4)."""
    from dptheory_simulations.experiments.cells import planned_constants
    r = select(recipes(), full=False, only=["tran2022.lemma7:bound-n-x-4"])
    cell = build_cells(r, full=False, seed=0)[0]
    ran = dispatch({**cell, "reps": 2})["constants"]
    plan = planned_constants(cell)
    for k in ("G", "beta"):
        assert ran[k] == [pytest.approx(plan[k])]
    assert plan["beta"] >= 4


def test_report_shows_constants_of_every_verdict_that_has_them(fake_recipes):  # noqa: F811
    from dptheory.verify.engine import run_verify
    from dptheory.verify.report import write
    res = run_verify(only=["fake2030.thm1", "fake2030.lemma2"], out=fake_recipes / "rep",
                     n_jobs=1, progress=False, symbolic=False)
    v = {x.id: x for x in res.verdicts}
    v["fake2030.thm1:bound-n"].evidence["constants_varied"] = ["beta: 1/4, 1, 4"]
    v["fake2030.lemma2:sens"].evidence["constants_varied"] = "G cancels; eps varied"
    text = write(res).read_text()
    assert "Constants each check ran at" in text
    assert "- `fake2030.thm1:bound-n`: beta: 1/4, 1, 4" in text
    assert "- `fake2030.lemma2:sens`: G cancels; eps varied" in text
    assert "`fake2030.thm1:slope-n`:" not in text.split("Constants each check ran at")[1] \
        .split("\n\n")[1]                                   # says nothing: not listed
    data = {x["id"]: x for x in json.loads((res.out / "report.json").read_text())["verdicts"]}
    assert data["fake2030.lemma2:sens"]["constants_varied"] == ["G cancels", "eps varied"]
    assert data["fake2030.thm1:slope-n"]["constants_varied"] == []
