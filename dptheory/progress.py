"""Progress on stderr for long commands: a bar when the amount of work is known
(:func:`track`), else a heartbeat with the elapsed time (:class:`Heartbeat`).

Both show only when stderr is a terminal (set ``DPTHEORY_PROGRESS=1`` to force them, ``0``
to silence them), so pipes, logs and ``--json`` output stay clean.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Iterable, TextIO

__all__ = ["enabled", "track", "Heartbeat"]


def enabled(stream: TextIO | None = None) -> bool:
    """Whether to show progress on ``stream`` (default stderr)."""
    env = os.environ.get("DPTHEORY_PROGRESS", "")
    if env in ("0", "1"):
        return env == "1"
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):
        return False


def track(iterable: Iterable[Any], *, total: int | None = None, desc: str = "",
          unit: str = "item") -> Iterable[Any]:
    """``iterable`` with a tqdm bar on stderr (when :func:`enabled`)."""
    from tqdm import tqdm
    return tqdm(iterable, total=total, desc=desc, unit=unit, file=sys.stderr,
                disable=not enabled(), dynamic_ncols=True, leave=False)


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
