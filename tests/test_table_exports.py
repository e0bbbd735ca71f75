"""Exports of the rate table (issue 24, item 6): LaTeX that compiles, CSV without pandas.

The LaTeX table is compiled with a real TeX engine (pdflatex) where one is installed; the
test is skipped, with its reason, where it is not. A planted table written the old way
(``^`` and ``||`` in text mode) fails the same compilation, so the test can fail.
"""

import builtins
import csv
import io
import re
import shutil
import subprocess

import pytest

from dptheory.cli import main

PDFLATEX = shutil.which("pdflatex")
NO_TEX = "pdflatex is not installed (Debian: apt-get install texlive-latex-base)"


def table(capsys, fmt):
    assert main(["table", "--format", fmt]) == 0
    return capsys.readouterr().out


def compile_tex(tmp_path, fragment, packages):
    (tmp_path / "table.tex").write_text(fragment)
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n"
        + (f"\\usepackage{{{','.join(packages)}}}\n" if packages else "")
        + "\\begin{document}\n\\input{table.tex}\n\\end{document}\n")
    p = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    return p.returncode, (tmp_path / "doc.log").read_text(errors="replace")


def packages_of(fragment):
    m = re.match(r"% dptheory table: needs \\usepackage\{([^}]*)\}", fragment)
    assert m, fragment.splitlines()[0]
    return m.group(1).split(",")


@pytest.mark.skipif(PDFLATEX is None, reason=NO_TEX)
def test_latex_table_compiles_with_pdflatex(capsys, tmp_path):
    tex = table(capsys, "latex")
    code, log = compile_tex(tmp_path, tex, packages_of(tex))
    assert code == 0, log[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 10_000
    assert "Missing $" not in log and "Undefined control sequence" not in log


@pytest.mark.skipif(PDFLATEX is None, reason=NO_TEX)
def test_a_table_with_math_in_text_mode_does_not_compile(tmp_path):
    # the old export: the rate and ||grad F|| written as text, ^ outside math mode
    old = ("\\begin{tabular}{lll}\ntran2022.thm9 & E||grad F(w\\_hat)|| & "
           "Otilde(d^(1/3)/(eps^(2/3)*n^(2/3)) + 1/sqrt(n)) \\\\\n\\end{tabular}\n")
    code, log = compile_tex(tmp_path, old, [])
    assert code != 0 and "Missing $ inserted" in log


def _outside_math(line):
    return "".join(re.split(r"(?<!\\)\$[^$]*(?<!\\)\$", line))


def test_latex_cells_put_math_in_math_mode(capsys):
    tex = table(capsys, "latex")
    rows = [l for l in tex.splitlines() if l.startswith("\\texttt{")]
    assert len(rows) > 40
    for line in rows:
        text = _outside_math(line)
        # no math operator or unescaped TeX special outside $...$
        assert not re.search(r"(?<!\\)[\^_]|\*\*|Otilde|\|", text), line
        assert line.count("$") % 2 == 0
    # tran2022 Theorem 9, O~(d^(1/3)/(eps N)^(2/3) + 1/sqrt(N)), in the registered symbols'
    # LaTeX (epsilon, n for tran2022's N) as SymPy's LaTeX printer writes it
    thm9 = next(l for l in rows if l.startswith("\\texttt{tran2022.\\allowbreak{}thm9}"))
    assert ("$\\tilde O\\bigl(\\frac{\\sqrt[3]{d}}{\\epsilon^{\\frac{2}{3}} n^{\\frac{2}{3}}} "
            "+ \\frac{1}{\\sqrt{n}}\\bigr)$") in thm9
    assert "E\\textbar{}\\textbar{}grad F(w\\_hat)\\textbar{}\\textbar{}" in thm9
    # exponents of n, d, eps: -1/2, 1/3, -2/3 (by hand from the rate)
    assert "$- \\frac{1}{2}$ & $\\frac{1}{3}$ & $- \\frac{2}{3}$" in thm9


def test_csv_without_pandas(capsys, monkeypatch):
    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("pandas is blocked in this test")
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rows = list(csv.DictReader(io.StringIO(table(capsys, "csv"))))
    assert list(rows[0]) == ["id", "measured", "rate", "n", "d", "eps", "derivation",
                             "provenance"]
    thm9 = next(r for r in rows if r["id"] == "tran2022.thm9")
    assert (thm9["n"], thm9["d"], thm9["eps"]) == ("-1/2", "1/3", "-2/3")
    # a measured quantity with a comma survives the quoting
    assert any("," in r["measured"] for r in rows)
