"""Error conventions shared by the API and the CLI.

The API raises ``ValueError`` (or a subclass below) naming the parameter and the violated
constraint. The CLI's one error boundary (:func:`dptheory.cli.main`) turns every failure
that is the user's into one line on stderr and exit code 2 (:func:`describe_failure` says
which are), and everything else, a bug, into exit code 1 with the traceback under
``--debug``.
"""

from __future__ import annotations

import difflib
import errno
import math
import sqlite3
from typing import Iterable, Sequence


class UsageError(ValueError):
    """Bad input from a user (unknown id, malformed option, ...).

    A ``ValueError`` so the API contract holds: every invalid input raises
    ``ValueError`` naming the parameter and the violated constraint. The CLI turns
    it into one line on stderr and exit code 2.
    """


class ResourceLimitError(UsageError):
    """A request whose estimated memory or step count is above the configured limit."""


class StoreError(UsageError):
    """A results store that cannot be used: damaged, unreadable, read-only or out of space.

    The message names the file and the remedy (``dptheory store check|repair``, or another
    path).
    """


def require(cond: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``cond``; message names parameter and constraint."""
    if not cond:
        raise ValueError(message)


def suggest(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The entries of ``choices`` nearest to ``word`` (difflib ratio, at most ``n``).

    Unknown ids, names and keys in error messages end with these ("did you mean
    ...?").

    Examples
    --------
    >>> suggest("tran2022.thm0", ["tran2022.thm9", "tran2022.thm6", "zhang2021.alg2"])
    ['tran2022.thm9', 'tran2022.thm6']
    """
    choices = list(choices)
    close = difflib.get_close_matches(word, choices, n=n, cutoff=0.6)
    if not close:       # a case or prefix slip: ids that start like the word
        low = word.lower()
        close = [c for c in choices if c.lower().startswith(low.split(".")[0])][:n]
    return close


# ------------------------------------------------------------------------ classification
def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def extreme_options(argv: Sequence[str]) -> list[str]:
    """The ``--option value`` pairs (and ``NAME=VALUE`` settings) of ``argv`` whose number is
    not finite or is beyond 1e15 in magnitude (or a nonzero one below 1e-15): the likely
    cause of an overflow."""
    out = []
    prev = ""
    for tok in argv:
        value = tok.split("=", 1)[1] if "=" in tok else tok
        try:
            x = float(value)
        except ValueError:
            prev = tok
            continue
        if not math.isfinite(x) or abs(x) > 1e15 or 0 < abs(x) < 1e-15:
            where = tok if "=" in tok or not prev.startswith("-") else f"{prev} {tok}"
            out.append(where)
        prev = tok
    return out


def _os_message(exc: OSError) -> str:
    target = exc.filename if exc.filename is not None else "the output"
    code = exc.errno
    if isinstance(exc, BrokenPipeError) or code == errno.EPIPE:
        return "the output was closed before it was complete (broken pipe)"
    if code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return (f"no space left writing {target} ({exc.strerror}); free disk space or "
                "write elsewhere (--out / --store)")
    if code in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"permission denied for {target}; choose a path you can write (--out / --store)"
    if code == errno.ENOENT:
        return f"no such file or directory: {target}; check the path"
    if code == errno.EISDIR:
        return f"{target} is a directory; give a file path"
    if code == errno.ENOTDIR:
        return f"a component of {target} is not a directory; check the path"
    return f"{exc.strerror or _first_line(exc)}: {target}"


def describe_failure(exc: BaseException, argv: Sequence[str] = ()) -> str | None:
    """One line for a failure that is the user's (bad value, impossible request, resource
    limit, unwritable path, closed pipe, full disk), or None for a bug.

    ``argv`` is the command line, used to name the options that probably caused an
    overflow.
    """
    if isinstance(exc, ValueError):
        return _first_line(exc)
    if isinstance(exc, MemoryError):
        return ("out of memory: the request needs more memory than this machine has; "
                "use smaller sizes (n, d, --reps, --orders)")
    if isinstance(exc, ArithmeticError):
        suspects = extreme_options(argv)
        cause = f" with {', '.join(suspects)}" if suspects else ""
        kind = "overflow" if isinstance(exc, OverflowError) else "arithmetic error"
        return (f"numeric {kind}{cause} ({_first_line(exc)}); the values are outside what "
                "float64 arithmetic can handle: use finite values of moderate size")
    if isinstance(exc, sqlite3.Error):
        return (f"the results store cannot be used ({type(exc).__name__}: {_first_line(exc)}); "
                "check it with `dptheory store check FILE`, or give another --out / --store")
    if isinstance(exc, OSError):
        return _os_message(exc)
    return None
