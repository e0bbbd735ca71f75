"""MkDocs hook: render the Sphinx roles some docstrings use (``:func:`name```) as code.

mkdocstrings renders numpy-style docstrings as Markdown, where a role's prefix would stay in
the text (":func:" before the name). This drops the prefix and, as Sphinx does, shortens a
``~``-prefixed dotted name to its last component.
"""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|obj|exc|const):<code>(~?)([^<]*)</code>")


def _code(match: re.Match[str]) -> str:
    tilde, name = match.groups()
    return f"<code>{name.rsplit('.', 1)[-1] if tilde else name}</code>"


def on_page_content(html: str, **kwargs: Any) -> str:
    """Replace every ``:role:<code>name</code>`` in a rendered page by ``<code>name</code>``."""
    return _ROLE.sub(_code, html)
