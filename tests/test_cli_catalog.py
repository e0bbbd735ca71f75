"""The catalog CLI as a user runs it: JSON keys, exit codes, one-line errors."""

import json

import pytest

from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_has_every_paper(capsys):
    code, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0
    assert {"id", "paper", "kind", "title", "provenance"} <= set(rows[0])
    assert {r["paper"] for r in rows} >= {"zhang2021", "tran2022", "yang2022", "wang2020", "zhang2017"}
    code, out, _ = run(capsys, "list", "--paper", "tran2022", "--kind", "theorem", "--json")
    assert code == 0 and all(r["paper"] == "tran2022" and r["kind"] == "theorem" for r in json.loads(out))


def test_show_and_latex(capsys):
    code, out, _ = run(capsys, "show", "tran2022.thm9")
    assert code == 0 and "tran2022.thm9" in out
    code, out, _ = run(capsys, "show", "tran2022.thm9", "--latex")
    assert code == 0 and "\\frac" in out


def test_derive_all_json(capsys):
    code, out, _ = run(capsys, "derive", "--all", "--json")
    rows = json.loads(out)
    assert code == 0 and rows
    assert {"id", "verdict", "stated", "derived", "regime"} <= set(rows[0])


def test_compare_names_the_regimes(capsys):
    code, out, _ = run(capsys, "compare", "tran2022.thm9", "tran2022.thm6", "--vary", "n", "--json")
    data = json.loads(out)
    assert code == 0
    assert {"a", "b", "vary", "exponent_a", "exponent_b", "crossover", "regimes"} <= set(data)
    better = {r["better"] for r in data["regimes"]}
    assert better == {"tran2022.thm9", "tran2022.thm6"}


def test_compare_map(capsys, tmp_path):
    png = tmp_path / "map.png"
    code, out, _ = run(capsys, "compare", "tran2022.thm9", "tran2022.thm6", "--set", "eps=1",
                       "--map", str(png))
    assert code == 0 and png.exists() and png.stat().st_size > 1000


@pytest.mark.parametrize("fmt", ["markdown", "latex", "csv"])
def test_table_formats(capsys, fmt):
    code, out, _ = run(capsys, "table", "--format", fmt)
    # LaTeX ids may break after their dots in a narrow column
    assert code == 0 and "tran2022.thm9" in out.replace(r"\allowbreak{}", "")


def test_findings_json(capsys):
    code, out, _ = run(capsys, "findings", "--no-checks", "--json")
    data = json.loads(out)
    assert code == 0
    for r in data["findings"]:
        assert {"id", "check", "summary", "evidence", "severity", "consequence", "root",
                "provenance"} <= set(r)
        assert r["provenance"] == "printed"          # dptheory's own items are kept apart
    assert isinstance(data["own_items"], int) and isinstance(data["notes"], int)


@pytest.mark.parametrize("argv,needle", [
    (["show", "nosuch.thm1"], "unknown id"),
    (["derive", "tran2022.nope"], "unknown id"),
    (["compare", "tran2022.thm9", "tran2022.thm6", "--set", "d100"], "NAME=VALUE"),
    (["compare", "tran2022.thm9", "tran2022.thm6", "--set", "d=-5"], "must be > 0"),
    (["compare", "tran2022.thm9", "tran2022.thm6", "--set", "d=abc"], "must be a number"),
    (["compare", "tran2022.thm9", "tran2022.thm6", "--set", "zz=3"], "unknown symbol"),
    (["list", "--paper", "nopaper"], "unknown paper"),
    (["derive"], "ids or --all"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and needle in err
    assert "Traceback" not in err


def test_findings_text_names_symbols_as_printed(capsys):
    """`findings` text shows symbols by their printed names, never internal ones (w20_zeta is
    wang2020's ζ; its success-probability finding printed it before)."""
    from dptheory.cli import main
    code = main(["findings", "--only", "wang2020.thm2"])
    out = capsys.readouterr().out
    assert code == 0 and "success probability" in out
    assert "w20_zeta" not in out and "w20_c" not in out and "ζ" in out
