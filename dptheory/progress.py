"""Progress for long work: a bar when the amount of work is known (:func:`track`,
:func:`bar`), else a heartbeat with the elapsed time (:class:`Heartbeat`).

Bars come from ``tqdm.auto``: a widget in a Jupyter notebook, text on stderr in a terminal.
They show in a notebook or when stderr is a terminal (set ``DPTHEORY_PROGRESS=1`` to force
them, ``0`` to silence them), so pipes, logs and ``--json`` output stay clean.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Iterable, TextIO

__all__ = ["enabled", "in_notebook", "bar", "track", "Heartbeat"]


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (where stderr is no terminal, but a bar
    widget shows)."""
    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


def enabled(stream: TextIO | None = None) -> bool:
    """Whether to show progress on ``stream`` (default stderr): ``DPTHEORY_PROGRESS`` when
    set to 0 or 1, else in a notebook or when the stream is a terminal."""
    env = os.environ.get("DPTHEORY_PROGRESS", "")
    if env in ("0", "1"):
        return env == "1"
    if stream is None and in_notebook():
        return True
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):
        return False


def bar(iterable: Iterable[Any] | None = None, *, total: int | None = None, initial: int = 0,
        desc: str = "", unit: str = "item", show: bool = True, leave: bool = True) -> Any:
    """A ``tqdm.auto`` bar (a widget in a notebook, text on stderr elsewhere), disabled
    unless ``show`` and :func:`enabled`."""
    if in_notebook():
        from tqdm.auto import tqdm
        return tqdm(iterable, total=total, initial=initial, desc=desc, unit=unit,
                    disable=not (show and enabled()), leave=leave)
    from tqdm import tqdm as text_tqdm
    return text_tqdm(iterable, total=total, initial=initial, desc=desc, unit=unit,
                     file=sys.stderr, disable=not (show and enabled()), dynamic_ncols=True,
                     leave=leave)


def track(iterable: Iterable[Any], *, total: int | None = None, desc: str = "",
          unit: str = "item") -> Iterable[Any]:
    """``iterable`` with a progress bar (:func:`bar`; when :func:`enabled`)."""
    return bar(iterable, total=total, desc=desc, unit=unit, leave=False)


class Heartbeat:
    """``with Heartbeat("dptheory findings"):`` prints ``<desc>: working, 12 s`` on stderr
    every ``every`` seconds once ``after`` seconds have passed, and clears it at the end."""

    def __init__(self, desc: str, after: float = 3.0, every: float = 1.0) -> None:
        self.desc, self.after, self.every = desc, after, every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = False

    def _run(self) -> None:
        start = time.monotonic()
        if self._stop.wait(self.after):
            return
        while not self._stop.is_set():
            try:
                sys.stderr.write(f"\r{self.desc}: working, {time.monotonic() - start:.0f} s")
                sys.stderr.flush()
                self._shown = True
            except (OSError, ValueError):
                return
            self._stop.wait(self.every)

    def __enter__(self) -> "Heartbeat":
        if enabled():
            self._thread = threading.Thread(target=self._run, name="dptheory-heartbeat",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            if self._shown:
                try:
                    sys.stderr.write("\r\033[K")
                    sys.stderr.flush()
                except (OSError, ValueError):
                    pass
