"""The tutorial notebooks (docs/tutorials/*.ipynb) run top to bottom without an error, each
in a fresh kernel of this very Python (its ipykernel), at the small sizes they are written
for. They are stored without outputs; nothing is written back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

TUTORIALS = Path(__file__).resolve().parents[2] / "docs" / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("*.ipynb"))
KERNEL = "dptheory-tests"   # a name no global kernelspec has
CELL_TIMEOUT = 120      # seconds per cell; each notebook takes seconds at its sizes


def test_the_five_tutorials_exist():
    assert {p.stem for p in NOTEBOOKS} == {"rate_plot", "sensitivity_property_test",
                                           "scaling_comparison", "audit_plugin", "reproduction"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    nb = nbformat.read(path, as_version=4)
    # The kernel is this interpreter: a kernelspec of a name of our own, in a folder of the
    # test's own that JUPYTER_PATH puts first; nothing is registered for the user or system.
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    spec.joinpath("kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dptheory tests", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # connection files and IPython's profile go to the test's folder, not the user's home
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    # one last cell reports the kernel's interpreter, so the test sees which Python ran
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    client = nbclient.NotebookClient(nb, kernel_name=KERNEL, timeout=CELL_TIMEOUT,
                                     resources={"metadata": {"path": str(run_dir)}})
    client.execute()          # raises CellExecutionError with the cell and its traceback
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.get("output_type") == "error"]
    assert errors == []
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs).strip()
    assert Path(printed) == Path(sys.executable)
