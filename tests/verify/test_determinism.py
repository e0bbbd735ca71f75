"""One Hypothesis-driven cell gives identical numbers serially, on two workers and
in-process, under the editable install and under a regular one (a wheel built in a temp dir).

Before the searches were isolated from Hypothesis's constants mined from imported local
modules, ``zhang2017.lemma2:gd-sensitivity`` gave 0.4522 with ``--jobs 1`` and 0.4095 with
``--jobs 2`` under an editable install.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from dptheory.store import Store
from dptheory.verify.engine import build_cells, dispatch, recipes, select

RECIPE = "zhang2017.lemma2:gd-sensitivity"
REPO = Path(__file__).resolve().parents[2]

IN_PROCESS = f"""
import json, sys
from dptheory.verify.engine import build_cells, dispatch, recipes, select
import dptheory
cells = build_cells(select(recipes(), full=False, only=[{RECIPE!r}]), full=False, seed=0)
out = {{}}
for c in cells:
    r = dispatch(c)
    x = str(c["point"][next(iter(c["point"]))])
    out[x] = max(out.get(x, float("-inf")), r["measured"])
print(json.dumps({{"file": dptheory.__file__, "measured": out}}))
"""


def _in_process() -> dict[str, float]:
    cells = build_cells(select(recipes(), full=False, only=[RECIPE]), full=False, seed=0)
    out: dict[str, float] = {}
    for c in cells:
        x = str(c["point"][next(iter(c["point"]))])
        out[x] = max(out.get(x, float("-inf")), dispatch(c)["measured"])
    return out


def _verify(python: Path, jobs: int, out: Path, cwd: Path) -> dict[str, float]:
    proc = subprocess.run([str(python), "-m", "dptheory", "verify", "--only", RECIPE,
                           "--jobs", str(jobs), "--out", str(out), "--json"],
                          capture_output=True, text=True, cwd=cwd, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    run_id = json.loads(proc.stdout)["run_id"]
    out_measured: dict[str, float] = {}
    with Store(out / "results.sqlite", read_only=True) as store:
        for key, result in store.results(run_id).items():
            point = json.loads(key)["point"]
            x = str(point[next(iter(point))])
            out_measured[x] = max(out_measured.get(x, float("-inf")), result["measured"])
    return out_measured


def test_editable_install_jobs_1_jobs_2_and_in_process_agree(tmp_path):
    serial = _verify(Path(sys.executable), 1, tmp_path / "j1", tmp_path)
    pooled = _verify(Path(sys.executable), 2, tmp_path / "j2", tmp_path)
    here = _in_process()
    assert serial == pooled == here, (serial, pooled, here)


@pytest.fixture(scope="module")
def regular_install(tmp_path_factory) -> Path:
    """A venv whose dptheory is a wheel of this tree (dependencies from the test venv)."""
    root = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(root / "dist"), str(REPO)], capture_output=True, text=True,
                           timeout=600)
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip().splitlines()[-1:]}")
    wheel = next((root / "dist").glob("dptheory-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                    "--target", str(site), str(wheel)], check=True, timeout=600)
    # the test venv's packages as dependencies: a path line, so its .pth files (the editable
    # finder of this tree among them) are not processed
    (site / "zz-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def test_regular_install_agrees_with_the_editable_one(regular_install, tmp_path):
    probe = subprocess.run([str(regular_install), "-c", IN_PROCESS], capture_output=True,
                           text=True, cwd=tmp_path, timeout=600)
    assert probe.returncode == 0, probe.stderr[-2000:]
    result = json.loads(probe.stdout)
    assert "site-packages" in result["file"] and str(REPO) not in result["file"]
    serial = _verify(regular_install, 1, tmp_path / "j1", tmp_path)
    pooled = _verify(regular_install, 2, tmp_path / "j2", tmp_path)
    editable = _in_process()
    assert serial == pooled == result["measured"] == editable, (serial, pooled, result, editable)
