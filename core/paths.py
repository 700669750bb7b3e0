"""Where settings live: home and per-host folders, honouring the hosts' own variables.

Every path goes through here so tests can point them all at a temporary folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from hookweave.core.errors import BadInput


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


def project_dir(value: str | None) -> Path:
    path = Path(value or os.getcwd()).absolute()
    if not path.is_dir():
        raise BadInput(f"--project {value}: no such folder; create it or pass an existing one")
    return path


def display(path: Path) -> str:
    """A short, unambiguous way to show ``path``: relative to the cwd when under it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
