"""Where settings live: home and per-host folders, honouring the hosts' own variables.

Every path goes through here so tests can point them all at a temporary folder, and every path a
message shows goes through ``display``, so a message stays one line whatever the path holds.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput

if TYPE_CHECKING:
    from collections.abc import Callable


def home() -> Path:
    value = os.environ.get("HOME")
    if not value:
        raise BadInput("HOME is not set; set it to your home folder")
    return Path(value)


def from_env(variable: str, default: Path) -> Path:
    """``$variable`` when set (with ``~`` expanded against ``HOME``), else ``default``."""
    value = os.environ.get(variable)
    if not value:
        return default
    if value == "~" or value.startswith("~/"):
        return home() / value[2:]
    return Path(value)


def by_platform(linux: str, darwin: str, windows: str) -> Path:
    """The system-wide folder a host uses on this operating system."""
    import sys

    return Path({"darwin": darwin, "win32": windows}.get(sys.platform, linux))


def cwd() -> Path:
    """The current folder, or one line saying it is gone (a folder deleted under the shell)."""
    try:
        return Path(os.getcwd())
    except OSError:
        raise BadInput("the current folder no longer exists; cd to an existing folder or pass --project") from None


def project_dir(value: str | None) -> Path:
    path = Path(value) if value else cwd()
    if not path.is_absolute():
        path = cwd() / path
    if path.exists() and not path.is_dir():
        raise BadInput(f"--project {printable(value or str(path))}: a file, not a folder; pass the project folder "
                       f"(here {printable(str(path.parent))})")
    if not path.is_dir():
        raise BadInput(f"--project {printable(value or str(path))}: no such folder; create it or pass an existing one")
    return path


_shown_absolute = False  # set once by show_absolute(): a process that is not an operator's shell


def show_absolute() -> None:
    """From now on ``display`` shows every path absolute: for a caller whose working folder means
    nothing to its reader (an Ansible task runs wherever Ansible put it, its output is read elsewhere)."""
    global _shown_absolute
    _shown_absolute = True


def display(path: Path) -> str:
    """A short, unambiguous, one-line way to show ``path``: relative to the cwd when under it (unless
    ``show_absolute``), control characters and bytes that are not UTF-8 escaped (``\\n``, ``\\xff``)."""
    try:
        path = Path(os.getcwd()) / path if _shown_absolute else path.relative_to(Path(os.getcwd()))
    except (ValueError, OSError):  # not under the cwd, or the cwd was deleted
        pass
    return printable(str(path))


def printable(text: str) -> str:
    """``text`` with control characters escaped and undecodable bytes (surrogate escapes) as ``\\xNN``."""
    if text.isprintable():
        return text
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that stands for no byte: escaped below
        pass
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


def within(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies in ``folder`` (symlinks followed as far as they exist; nothing is opened)."""
    real_path, real_folder = os.path.realpath(path), os.path.realpath(folder)
    try:
        return os.path.commonpath([real_path, real_folder]) == real_folder
    except ValueError:  # different drives on Windows
        return False


def nearest_up(start: Path, holds: Callable[[Path], bool]) -> Path | None:
    """The nearest folder from ``start`` upwards, not above the git root (every folder above, outside
    a repository), for which ``holds`` is true: the one walk by which ``hooks sync`` finds
    ``.hookweave.toml`` and every command finds the project (core/reading/projects.py)."""
    top = git_root(start)
    for folder in [start, *start.parents]:
        if holds(folder):
            return folder
        if folder == top:
            return None
    return None


def git_root(folder: Path) -> Path | None:
    """The nearest folder from ``folder`` upwards holding ``.git`` (a worktree's ``.git`` file, or a
    ``.git`` folder with a ``HEAD``: an empty one makes no repository, as git and Codex agree)."""
    for above in [folder, *folder.parents]:
        dot_git = above / ".git"
        try:
            if dot_git.is_file() or (dot_git / "HEAD").exists():
                return above
        except OSError:  # an unreadable folder on the way up: no repository we can see
            return None
    return None
