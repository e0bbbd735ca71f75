"""Strict JSON for ``--json``: no ``NaN`` or ``Infinity``, which strict parsers reject.

A non-finite float becomes ``null`` and its reason goes into a sibling field named
``<key>_reason``: a string for a scalar (``"epsilon": null, "epsilon_reason": "+infinity"``),
or, for a list, an object from the position of each replaced element (``"2"``, or ``"2.0"``
for nested lists) to its reason. Non-finite values directly inside a top-level list have
no key to sit beside and become plain ``null``. numpy scalars and arrays become numbers
and lists; any other object its ``str``.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps_strict", "strict"]


def _reason(x: float) -> str:
    if math.isnan(x):
        return "not a number (NaN)"
    return "+infinity" if x > 0 else "-infinity"


def _plain(obj: Any) -> Any:
    """numpy values and other objects as plain Python values."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        np = None
    if np is not None:
        if isinstance(obj, np.ndarray):
            return obj.tolist()
        if isinstance(obj, np.generic):
            return obj.item()
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    if isinstance(obj, (dict, list, tuple)):
        return obj
    return str(obj)


def _value(obj: Any, reasons: dict[str, str], path: str) -> Any:
    """``obj`` with non-finite floats nulled; nested-list reasons go into ``reasons``."""
    obj = _plain(obj)
    if isinstance(obj, float) and not math.isfinite(obj):
        reasons[path] = _reason(obj)
        return None
    if isinstance(obj, dict):
        return strict(obj)
    if isinstance(obj, (list, tuple)):
        return [_value(v, reasons, f"{path}.{i}" if path else str(i)) for i, v in enumerate(obj)]
    return obj


def strict(obj: Any) -> Any:
    """A copy of ``obj`` that ``json.dumps(..., allow_nan=False)`` accepts (see module doc)."""
    obj = _plain(obj)
    if isinstance(obj, dict):
        out: dict[str, Any] = {}
        for k, v in obj.items():
            key = str(k)
            reasons: dict[str, str] = {}
            out[key] = _value(v, reasons, "")
            if reasons:
                out[f"{key}_reason"] = reasons.pop("") if "" in reasons else reasons
        return out
    return _value(obj, {}, "")


def dumps_strict(obj: Any, indent: int | None = 2) -> str:
    """Strict JSON text of ``obj`` (raises ``ValueError`` only if :func:`strict` missed a
    non-finite value, which would be a bug)."""
    return json.dumps(strict(obj), indent=indent, allow_nan=False)
