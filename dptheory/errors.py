"""Error conventions shared by the API and the CLI."""


class UsageError(ValueError):
    """Bad input from a user (unknown id, malformed option, ...).

    A ``ValueError`` so the API contract holds: every invalid input raises
    ``ValueError`` naming the parameter and the violated constraint. The CLI turns
    it into one line on stderr and exit code 2.
    """


def require(cond: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``cond``; message names parameter and constraint."""
    if not cond:
        raise ValueError(message)
