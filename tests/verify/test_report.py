"""The verification report (issue 24): provenance (version, commit, seed, environment,
command line), no truncated cells, human symbol names, ``--only`` lists what it skipped,
and figures without internal ids or overlapping tick labels."""

from __future__ import annotations

import dataclasses
import json
import platform
import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy

import dptheory
from dptheory.verify import report as R

from .test_engine import fake_recipes  # noqa: F401 - the fixture
from ..figures.test_figures import internal_ids, overlapping, tick_label_boxes

LONG = ("the measured mean exceeds the bound at w20_zeta = 0.1 and tr22_DsensGle; " +
        "a clause that makes this reason long; " * 12 + "the last words")


@pytest.fixture
def only_run(fake_recipes):  # noqa: F811
    from dptheory.verify.engine import run_verify
    res = run_verify(only=["fake2030.thm1"], out=fake_recipes / "rep", n_jobs=1,
                     progress=False, symbolic=False, seed=3)
    return res


def test_report_carries_provenance(only_run):
    only_run.command = "dptheory verify --quick --only fake2030.thm1 --seed 3"
    text = R.write(only_run).read_text()
    data = json.loads((only_run.out / "report.json").read_text())["provenance"]
    # expected values from the environment itself, not from the report code
    git = subprocess.run(["git", "-C", str(Path(dptheory.__file__).parents[1]), "describe",
                          "--always", "--dirty", "--tags"], capture_output=True, text=True)
    commit = git.stdout.strip() if git.returncode == 0 else "unknown"
    assert data["commit"] == commit and data["seed"] == 3
    assert data["python"] == platform.python_version()
    assert data["numpy"] == np.__version__ and data["scipy"] == scipy.__version__
    assert data["dptheory"] == dptheory.__version__
    assert data["command"] == only_run.command and data["command"] in text
    assert f"commit {commit}" in text and "seed 3" in text and "dp-accounting" in text


def test_commit_is_unknown_outside_a_checkout(tmp_path):
    assert R.git_commit(tmp_path) == "unknown"


def test_no_cell_is_cut_and_symbols_have_human_names(only_run):
    only_run.verdicts[0].summary = LONG
    text = R.write(only_run).read_text()
    assert "..." not in text
    assert "the last words" in text                      # the whole reason, on a details line
    assert "w20_zeta" not in text and "tr22_DsensGle" not in text
    assert "ζ = 0.1" in text and "Δ_Gle" in text
    rows = [ln for ln in text.splitlines() if ln.startswith("| `fake2030")]
    assert all(len(ln) < 700 for ln in rows)              # the table stays a table


def test_only_lists_what_it_skipped_not_checked_items_as_unchecked(only_run):
    text = R.write(only_run).read_text()
    section = text.split("## Skipped by --only", 1)[1]
    assert "Items without a recipe or check" not in text
    assert "fake2030.thm3:needs-data" in section and "fake2030.lemma2:sens" in section
    assert "fake2030.thm1:bound-n" not in section and "fake2030.thm1:slope-n" not in section
    data = json.loads((only_run.out / "report.json").read_text())
    assert data["unchecked"] == []
    assert "fake2030.lemma2:sens" in data["skipped"]["recipes"]


def test_parameter_line_counts_the_samples_as_run(only_run):
    # --full pools more replicates per point than the recipe's quick reps: the figure says
    # what was run, not the quick count (it said "12 replicates" under a 24-sample point)
    recipe = {r.id: r for r in only_run.recipes}["fake2030.thm1:bound-n"]
    pooled = only_run.pooled[recipe.id]
    assert {len(p["samples"]) for p in pooled.values()} == {recipe.reps}
    doubled = {x: {**p, "samples": list(p["samples"]) * 2} for x, p in pooled.items()}
    assert f"{2 * recipe.reps} samples per point" in R.recipe_params(recipe, doubled)
    mixed = {**pooled, max(pooled): doubled[max(pooled)]}
    assert f"{recipe.reps}-{2 * recipe.reps} samples per point" in R.recipe_params(recipe, mixed)
    assert f"{recipe.reps} replicates per point" in R.recipe_params(recipe)


def test_rate_figure_titles_ticks_and_intervals(only_run):
    recipes = {r.id: r for r in only_run.recipes}
    v = next(x for x in only_run.verdicts if x.id == "fake2030.thm1:bound-n")
    # the fake item as a real catalog item: its title names paper and number, not the id
    recipe = dataclasses.replace(recipes[v.id], item="zhang2017.thm2.eps")
    fig = R.rate_fig(recipe, v, only_run.pooled[v.id])
    title = fig._suptitle.get_text()
    assert not [i for i in internal_ids() if i in title]
    assert title.startswith("zhang2017, Theorem 2 (1): supported")
    assert "12 samples per point (replicates)" in title
    for _, _, boxes in tick_label_boxes(fig):
        assert not overlapping(boxes)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    for bars in ax.containers:
        for seg in bars.lines[2][0].get_segments():
            assert np.all(seg[:, 1] > 0)
