"""Progress bars via ``tqdm.auto``: shown in a notebook (where stderr is no terminal), on a
terminal, or when forced; silenced by ``DPTHEORY_PROGRESS=0``."""

from __future__ import annotations

import io
import sys
import types

from dptheory import progress


class _Shell:
    pass


def _fake_kernel(monkeypatch):
    shell = type("ZMQInteractiveShell", (), {})()
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))


def test_not_a_notebook_by_default(monkeypatch):
    monkeypatch.setitem(sys.modules, "IPython",
                        types.SimpleNamespace(get_ipython=lambda: _Shell()))
    assert not progress.in_notebook()


def test_notebook_shows_bars_without_a_terminal(monkeypatch):
    monkeypatch.delenv("DPTHEORY_PROGRESS", raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())      # no terminal
    assert not progress.enabled()
    _fake_kernel(monkeypatch)
    assert progress.in_notebook() and progress.enabled()
    monkeypatch.setenv("DPTHEORY_PROGRESS", "0")
    assert not progress.enabled()


def test_bar_counts_and_is_silent_when_disabled(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("DPTHEORY_PROGRESS", "1")
    with progress.bar(total=5, initial=2, desc="cells") as b:
        b.update(3)
        assert b.n == 5
    assert "cells" in err.getvalue() and "5/5" in err.getvalue()
    err.truncate(0)
    monkeypatch.setenv("DPTHEORY_PROGRESS", "0")
    assert list(progress.track(range(3), desc="x")) == [0, 1, 2]
    with progress.bar(total=5, desc="cells") as b:
        b.update(5)
    assert err.getvalue() == ""
