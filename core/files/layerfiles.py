"""The folders an agent loads whole (Claude's ``managed-settings.d``, Copilot's ``policy.d``): their
files listed and read without opening anything that is not a regular file (an administrator's
FIFO named ``*.json`` would block a read forever), and whether a user can read ours there.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio
from hookweave.core.files.paths import display


def listed(folder: Path, keep: Callable[[str], bool]) -> list[Path]:
    """The entries of ``folder`` whose name ``keep`` accepts, by name (code points); none when it
    is not a folder we can list (missing, a file, a dangling link)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [folder / name for name in sorted(names) if keep(name)]


def read_each(files: list[Path]) -> list[tuple[Path, str | None, str | None]]:
    """Per file, ``(path, text, None)``, or ``(path, None, why)`` for one hookweave cannot read
    as text (not a regular file, not UTF-8, not readable); ``(path, None, None)`` when it is gone."""
    out: list[tuple[Path, str | None, str | None]] = []
    for path in files:
        try:
            out.append((path, fileio.read_text(path), None))
        except BadInput as exc:
            out.append((path, None, str(exc)))
    return out


def user_cannot_read(drop_in: Path, levels: int, title: str) -> str | None:
    """A problem's words when a user's agent cannot load hookweave's ``drop_in`` (``levels``: the
    folders of the layer, the drop-in's own first), or ``None``."""
    why = unreadable_by_others(drop_in, levels)
    return why and (f"{display(drop_in)}: {title} runs as the user, who cannot read this drop-in, as {why}, and runs "
                    "none of its hooks; chmod 644 it and 755 its folders, or uninstall and install again as root")


def unreadable_by_others(path: Path, levels: int) -> str | None:
    """Why a user other than the owner cannot load ``path`` (read it, list its folder and enter the
    ``levels - 1`` folders above), or ``None``. The agent runs as the user; the file is root's."""
    needs = [(path, stat.S_IROTH), (path.parent, stat.S_IROTH | stat.S_IXOTH)]
    needs += [(folder, stat.S_IXOTH) for folder in list(path.parents)[1:levels]]
    for where, bits in needs:
        try:
            mode = os.stat(where).st_mode
        except OSError:
            return None  # gone: not this check's to say
        if mode & bits != bits:
            what = "it" if where == path else display(where)
            return f"others cannot {'read' if bits & stat.S_IROTH else 'enter'} {what} (mode {stat.S_IMODE(mode):o})"
    return None
