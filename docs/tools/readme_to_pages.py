"""Copy the README's long sections into the user-guide pages of the docs site (one-off).

The pages under docs/guide/ (all but extending.md, written for the site) are the
README's text, copied with headings shifted and repository-relative links rewritten for the
site. Run ``python docs/tools/readme_to_pages.py`` after README edits to re-copy them, then
``mkdocs build --strict``; once the README is shrunk to links, delete this script.
"""
import re, pathlib
root = pathlib.Path(__file__).resolve().parents[2]
L = (root / "README.md").read_text().splitlines()
def find(prefix, start=0):
    for i in range(start, len(L)):
        if L[i].startswith(prefix):
            return i
    raise KeyError(prefix)
def sl(a, b):  # lines [a, b)
    return L[a:b]
def shift(lines, by):
    out, fence = [], False
    for s in lines:
        if s.startswith("```"):
            fence = not fence
        if not fence and re.match(r"^#{2,6} ", s):
            s = s[by:] if by > 0 else s
        out.append(s)
    return out
def fix(lines, depth=1):
    up = "../" * depth
    t = "\n".join(lines)
    t = t.replace("](docs/", "](" + up)
    t = re.sub(r"\[`(examples/[^`]+)`\]\(examples/[^)]+\)", r"`\1`", t)
    t = t.replace("](#real-data-and-the-papers-experiments)", "](real-data.md)")
    # Python-Markdown leaves raw HTML blocks alone unless asked (md_in_html)
    t = t.replace("<details><summary>", '<details markdown="1"><summary>')
    return t.strip() + "\n"
i_tour = find("## A tour of the command line")
i_verify = find("### The main job")
i_audit = find("#### Auditing your own algorithm")
i_catalog = find("### The catalog")
i_findcmd = find("### Findings: `findings`")
i_acc = find("### Privacy accounting")
i_obj = find("### Objectives and simulators")
i_real = find("## Real data")
i_t3 = find("**zhang2017 Table 3, side by side.**")
i_py = find("## Python API")
i_find = find("## Findings so far")
i_rob = find("## Robustness")
i_perf = find("## Measured performance")
i_arch = find("## Architecture")
i_add = find("**Adding your own theorems.**")
i_verd = find("**Verdicts.**")
note = "<!-- copied from README.md; keep the two in step until the README links here -->\n\n"
pages = {
 "guide/verification.md": ["# Verification semantics", ""] + shift(sl(i_tour + 1, i_verify), 0)
     + shift(sl(i_verify, i_audit), 1)
     + ["", "Your own algorithm can be audited the same way: see [Auditing your own algorithm](auditing.md)."],
 "guide/auditing.md": ["# Auditing your own algorithm", ""] + sl(i_audit + 1, i_catalog),
 "guide/cli.md": ["# The command line", "", "Every command takes `--json`; bad input exits with code 2 and one line on stderr.",
     "The main job, `verify`, has its own page: [Verification semantics](verification.md); "
     "privacy accounting too: [Privacy accounting](accounting.md).", ""]
     + shift(sl(i_catalog, i_acc), 1) + [""] + shift(sl(i_obj, i_real), 1),
 "guide/accounting.md": ["# Privacy accounting: `account`, `calibrate`, `routes`", ""] + sl(i_acc + 1, i_obj),
 "guide/real-data.md": ["# Real data", ""] + sl(i_real + 1, i_t3)
     + ["The papers' own experiments on these data: [Reproductions](reproductions.md)."],
 "guide/reproductions.md": ["# Reproductions of the papers' experiments", ""] + sl(i_t3, i_py)
     + ["", "The figure the quick run (`--quick`) writes, `dptheory-reproduce/zhang2017.table3.png`:",
        "", "![zhang2017 Table 3, quick run: here (solid) vs the paper (dashed)](../img/zhang2017_table3_quick.png)",
        "", "A small run of the Table 3 reproduction, step by step: the tutorial notebook "
        "[reproduction.ipynb](../tutorials/index.md#a-reproduction)."],
 "guide/python-api.md": ["# A tour of the Python API", ""] + shift(sl(i_py + 1, i_find), 1)
     + ["", "Every public function is in the [API reference](../api/dptheory.md); the "
        "[tutorials](../tutorials/index.md) do each job in a notebook."],
 "guide/findings.md": ["# Findings", ""] + shift(sl(i_find + 1, i_rob), 1),
 "guide/robustness.md": ["# Robustness", ""] + sl(i_rob + 1, i_perf),
 "guide/performance.md": ["# Measured performance", ""] + sl(i_perf + 1, i_arch),
 "guide/architecture.md": ["# Architecture", ""] + sl(i_arch + 1, i_add) + sl(i_verd, len(L))
     + ["", "Adding your own theorems, algorithms, objectives and checks: "
        "[Extending dptheory](extending.md)."],
}
for name, lines in pages.items():
    depth = name.count("/")
    (root / "docs" / name).write_text(note + fix(lines, depth))
print("ok", {k: len(v) for k, v in pages.items()})
