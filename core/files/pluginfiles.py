"""The files an agent's own plugins and extensions hold, read for verify and never written: a
file that is missing or cannot be read is ``None`` (the agent skips such a plugin too, and verify
must not fail on a folder that is another program's), and a folder's subfolders by name."""

from __future__ import annotations

import os
from pathlib import Path

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio


def read_quietly(path: Path) -> str | None:
    """The file's text; ``None`` when it is missing, not a regular file, unreadable or not UTF-8."""
    try:
        return fileio.read_text(path) if not os.path.exists(path) or os.path.isfile(path) else None
    except (BadInput, OSError):
        return None


def subfolders(folder: Path) -> list[Path]:
    """The folders in ``folder``, by name (none when it is not a folder that can be listed)."""
    try:
        return sorted((entry for entry in map(folder.joinpath, os.listdir(folder)) if entry.is_dir()),
                      key=lambda p: p.name)
    except OSError:
        return []
