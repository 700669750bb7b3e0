"""The one error base. The CLI turns these into one red line and an exit code; nothing else does."""

from __future__ import annotations

EXIT_OK = 0
EXIT_PROBLEM = 1  # verify found a problem, or an operation was refused by policy
EXIT_BAD_INPUT = 2  # a file that does not parse, a bad manifest, bad arguments


class HooksError(Exception):
    """An expected failure, shown to the user as one line without a traceback."""

    exit_code = EXIT_BAD_INPUT


class BadInput(HooksError):
    """Input we cannot work with: unparseable settings, a bad manifest, bad arguments."""

    exit_code = EXIT_BAD_INPUT


class ParseError(BadInput):
    """A file that does not parse; the message starts with ``path:line:col``."""

    def __init__(self, path: str, line: int, col: int, reason: str, fix: str = "") -> None:
        self.path, self.line, self.col, self.reason = path, line, col, reason
        tail = f"; {fix}" if fix else ""
        super().__init__(f"{path}:{line}:{col}: {reason}{tail}")


class Refused(HooksError):
    """An operation refused by policy (an operator-edited entry); the message says how to proceed."""

    exit_code = EXIT_PROBLEM


class Edited(Refused):
    """Refused because the operator edited an entry we installed: the one refusal a caller may
    choose to live with (the Ansible module's ``on_edited: keep``)."""


class Conflict(HooksError):
    """The file changed under us between read and replace, more often than we retry."""

    exit_code = EXIT_PROBLEM


class WriteFailed(HooksError):
    """The disk refused a write (full, read-only, gone); files already written were put back."""

    exit_code = EXIT_PROBLEM


class Stopped(HooksError):
    """The user stopped an interactive prompt."""

    exit_code = 130


class NotInstalled(HooksError):
    """Uninstall of a bundle that is not installed where it looked; the message lists what is."""

    exit_code = EXIT_PROBLEM


class Unrecorded(NotInstalled):
    """No record lists the bundle, but entries carry its marker: removed only with ``--by-marker``."""


def one_line(exc: BaseException) -> str:
    """An exception as one short line, ``Type: message``, for a warning about someone else's code."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__
