"""Citation exports (issue 24, item 6): BibTeX of the five papers, CITATION.cff, and the
paper's reference in ``dptheory show``.

The metadata live once per paper, in its catalog module (``PAPER``); docs/papers.bib and
the references of CITATION.cff must agree with it. Titles and authors below are read off
the first lines of the papers' texts; the texts print no venue, year or arXiv id, so those
are the catalog's records and must be marked as such.
"""

import json
import re
from pathlib import Path

import pytest

from dptheory import registry
from dptheory.catalog import bibtex
from dptheory.cli import main

ROOT = Path(__file__).resolve().parents[1]

# (title, authors as printed at the head of each paper's text; None: no author line)
PRINTED = {
    "zhang2021": ("Private Stochastic Non-convex Optimization with Improved Utility Rates",
                  ["Qiuchen Zhang", "Jing Ma", "Jian Lou", "Li Xiong"]),
    "tran2022": ("Momentum Aggregation for Private Non-convex ERM",
                 ["Hoang Tran", "Ashok Cutkosky"]),
    "yang2022": ("Normalized/Clipped SGD with Perturbation for Differentially Private "
                 "Non-Convex Optimization", None),
    "wang2020": ("Escaping Saddle Points of Empirical Risk Privately and Scalably via "
                 "DP-Trust Region Method", ["Di Wang", "Jinhui Xu"]),
    "zhang2017": ("Efficient Private ERM for Smooth Objectives",
                  ["Jiaqi Zhang", "Kai Zheng", "Wenlong Mou", "Liwei Wang"]),
}


def papers():
    return {p.key: p for p in registry.papers().values() if p is not None}


def test_papers_bib_is_generated_from_the_catalog():
    assert (ROOT / "docs" / "papers.bib").read_text() == bibtex()


def entries(text):
    out = {}
    for m in re.finditer(r"@(\w+)\{([^,]+),\n(.*?)\n\}", text, re.S):
        fields = dict(re.findall(r"^  (\w+) = \{(.*)\},$", m.group(3), re.M))
        out[m.group(2)] = fields
    return out


def test_bib_entries_hold_what_the_texts_print():
    text = bibtex()
    assert text.count("{") == text.count("}")
    got = entries(text)
    assert set(got) == set(PRINTED)
    for key, (title, authors) in PRINTED.items():
        assert got[key]["title"] == "{" + title + "}"
        if authors is None:
            assert "author" not in got[key]
        else:
            want = " and ".join(f"{a.split()[-1]}, {' '.join(a.split()[:-1])}" for a in authors)
            assert got[key]["author"] == want
        # nothing the texts do not print goes into an entry
        assert not {"year", "eprint", "howpublished", "booktitle"} & set(got[key])


def test_recorded_but_unprinted_fields_are_marked():
    for key, p in papers().items():
        ref = p.reference()
        assert "venue" not in p.in_text and "year" not in p.in_text
        assert set(ref["unconfirmed"]) >= {k for k in ("venue", "year", "arxiv") if ref[k]}
        if ref["unconfirmed"]:
            assert f"% {key}: " in bibtex()


def test_show_prints_authors_venue_and_arxiv(capsys):
    assert main(["show", "tran2022.thm9"]) == 0
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if l.startswith("**Paper:**"))
    assert "Hoang Tran, Ashok Cutkosky" in line and "NeurIPS 2022" in line
    assert "arXiv 2210.06328" in line and "not printed in the encoded text" in line
    assert main(["show", "zhang2017.thm2", "--json"]) == 0
    ref = json.loads(capsys.readouterr().out)["reference"]
    assert ref["authors"] == ", ".join(PRINTED["zhang2017"][1])
    assert ref["title"] == PRINTED["zhang2017"][0] and ref["venue"] == "IJCAI 2017"
    assert ref["arxiv"] == "" and "venue" in ref["unconfirmed"]


def test_citation_cff_names_dptheory_and_the_five_papers():
    yaml = pytest.importorskip("yaml")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["title"].startswith("dptheory") and cff["authors"]
    import tomllib
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert cff["version"] == version
    refs = {r["title"]: r for r in cff["references"]}
    assert set(refs) == {t for t, _ in PRINTED.values()}
    for key, p in papers().items():
        names = [f"{a['given-names']} {a['family-names']}" for a in refs[p.title]["authors"]]
        assert ", ".join(names) == p.authors
        if "authors" not in p.in_text:
            assert "prints neither" in refs[p.title]["notes"]
