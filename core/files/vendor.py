"""Vendored bundles on disk: read a folder's files, and put a new copy in place whole or not at
all (part of the disk IO).

A new copy is written beside the old one in a temp folder, then swapped in by two renames; the
old copy is kept aside until the caller commits (``Swap.commit``) or puts it back
(``Swap.undo``), so a sync that fails later leaves the repository's vendored folder as it was.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

from hookweave.core.errors import BadInput
from hookweave.core.files.paths import display

Files = dict[str, tuple[bytes, bool]]
SKIPPED = {".git", "__pycache__", ".DS_Store"}


def read_tree(folder: Path) -> Files | None:
    """Every plain file under ``folder`` (``None`` when it does not exist). A symlink, FIFO or
    device is refused: the copy must be what was reviewed, and reading a FIFO would hang."""
    if not folder.is_dir():
        return None
    out: Files = {}
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
        for name in sorted(names):
            if name in SKIPPED or name.endswith(".pyc"):
                continue
            path = Path(root) / name
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                raise BadInput(f"{display(path)}: not a plain file (a symlink or special file); a vendored bundle "
                               "holds plain files only: replace it with the file itself")
            with open(path, "rb") as handle:
                data = handle.read()
            out[path.relative_to(folder).as_posix()] = (data, bool(info.st_mode & 0o111))
    return out


class Swap:
    """``folder`` replaced by ``files`` (or removed, with ``None``) until ``commit`` or ``undo``."""

    def __init__(self, folder: Path, files: Files | None) -> None:
        self.folder, self.aside, self.placed = folder, None, False
        self.made = _make_parents(folder.parent)
        staged = _stage(folder, files) if files is not None else None
        try:
            if os.path.lexists(folder):
                self.aside = Path(tempfile.mkdtemp(prefix=f".{folder.name}.old-", dir=folder.parent))
                os.rename(folder, self.aside / folder.name)
            if staged is not None:
                os.rename(staged, folder)
                self.placed = True
        except BaseException:
            if staged is not None and not self.placed:
                shutil.rmtree(staged, ignore_errors=True)
            self.undo()
            raise

    def commit(self) -> None:
        """Keep the new state: the old copy goes; a removed copy takes its empty parents with it."""
        if self.aside is not None:
            shutil.rmtree(self.aside, ignore_errors=True)
            self.aside = None
        if not self.placed:
            remove_empty(self.folder.parent, levels=2)  # .hookweave/bundles, then .hookweave

    def undo(self) -> None:
        """Put the old state back: the new copy goes, the old one returns, made folders go."""
        if self.placed:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.placed = False
        if self.aside is not None:
            os.rename(self.aside / self.folder.name, self.folder)
            os.rmdir(self.aside)
            self.aside = None
        for made in reversed(self.made):
            remove_empty(made, levels=1)


def _make_parents(folder: Path) -> list[Path]:
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir()
    return list(reversed(missing))


def remove_empty(folder: Path, levels: int = 1) -> None:
    """``folder`` and up to ``levels - 1`` of its parents, each only while empty."""
    for _ in range(levels):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def _stage(folder: Path, files: Files) -> Path:
    """The new copy, fully written and fsynced, in a temp folder beside ``folder``."""
    staged = Path(tempfile.mkdtemp(prefix=f".{folder.name}.new-", dir=folder.parent))
    try:
        os.chmod(staged, 0o755 & ~_umask())
        for rel, (data, executable) in sorted(files.items()):
            path = staged / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            mode = (0o777 if executable else 0o666) & ~_umask()
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(path, mode)
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    return staged


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
