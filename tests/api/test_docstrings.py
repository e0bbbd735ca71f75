"""Every public function, class and method of dptheory/, bounds/ and simulations/ has a
docstring, so the gap closed once cannot reopen.

Public: a name that does not start with ``_``, at module level or in a public class (nested
at any depth); functions defined inside functions are local and not counted, nor are the
methods of a private class. The files are read with ``ast``, so nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("dptheory", "bounds", "simulations")

# "path:qualified.name" -> why it needs no docstring of its own. Empty: no exemption is
# needed today; add one only with a real reason (e.g. an override whose parent documents it).
EXEMPT: dict[str, str] = {}

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _public_definitions(tree: ast.AST, prefix: str = ""):
    """(qualified name, line, has a docstring) of the public definitions under ``tree``."""
    for node in ast.iter_child_nodes(tree):
        if not isinstance(node, _DEFS) or node.name.startswith("_"):
            continue
        yield prefix + node.name, node.lineno, bool(ast.get_docstring(node))
        if isinstance(node, ast.ClassDef):
            yield from _public_definitions(node, prefix + node.name + ".")


def _scan() -> tuple[int, list[str], set[str]]:
    seen, missing, keys = 0, [], set()
    for folder in FOLDERS:
        assert (ROOT / folder).is_dir(), f"{folder}/ not found under {ROOT}"
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"), rel)
            for name, line, documented in _public_definitions(tree):
                seen += 1
                key = f"{rel}:{name}"
                keys.add(key)
                if not documented and key not in EXEMPT:
                    missing.append(f"{rel}:{line}: {name}")
    return seen, missing, keys


def test_every_public_definition_has_a_docstring():
    seen, missing, _ = _scan()
    assert seen > 500, f"only {seen} public definitions found: is ROOT ({ROOT}) right?"
    assert not missing, (f"{len(missing)} public definitions without a docstring:\n"
                         + "\n".join(missing))


def test_exemptions_name_existing_definitions_with_a_reason():
    _, _, keys = _scan()
    stale = sorted(k for k in EXEMPT if k not in keys)
    assert not stale, f"exemptions for definitions that no longer exist: {stale}"
    assert all(reason.strip() for reason in EXEMPT.values())
