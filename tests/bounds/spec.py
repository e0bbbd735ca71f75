"""The specification's item index and [reconstructed] tags, as copied into this folder
(``spec_ids.txt``, ``spec_tags.txt``), so the catalog tests need nothing outside the
repository."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent
SPEC_IDS: list[str] = HERE.joinpath("spec_ids.txt").read_text().split()
SPEC_TAGS: dict[str, str] = dict(
    line.split() for line in HERE.joinpath("spec_tags.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#"))


def ids(paper: str) -> list[str]:
    """The specification's ids of ``paper``, in index order."""
    return [i for i in SPEC_IDS if i.split(".", 1)[0] == paper]


def tagged(paper: str) -> dict[str, str]:
    """id -> provenance implied by the tag, for the tagged items of ``paper``."""
    return {i: t for i, t in SPEC_TAGS.items() if i.split(".", 1)[0] == paper}
