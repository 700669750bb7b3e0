"""Owners, modes and folders of what hookweave creates or replaces (disk IO, for ``fileio``).

A replaced file keeps its owner, group and mode; something new takes them from the file it sits
beside, or from the folder it is made in, so root writing into someone's project makes files that
someone owns, as they would have. Folders made for a write are listed first, to be removed again.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from hookweave.core.files.filelock import real


def new_file_mode(like: Path | None) -> int:
    if like is not None:
        with contextlib.suppress(OSError):
            return like.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def owner_of(like: Path | None, folder: Path) -> tuple[int, int]:
    for source in (like, folder):
        if source is not None:
            with contextlib.suppress(OSError):
                info = os.stat(source)
                return info.st_uid, info.st_gid
    return os.geteuid(), os.getegid()


def give(path: str | Path, owner: tuple[int, int], *, strict: bool) -> None:
    """Set ``owner`` (uid, gid) on what we just made. ``strict`` (a replaced file): a failure is a
    failed write; otherwise (something new) the group alone, or nothing, is the best we can do."""
    info = os.stat(path)
    if (info.st_uid, info.st_gid) == owner:
        return
    try:
        os.chown(path, *owner)
    except PermissionError:
        if strict:
            raise
        with contextlib.suppress(OSError):
            os.chown(path, -1, owner[1])


def copy_xattrs(source: Path, made: str) -> None:
    """Give ``made`` the extended attributes of ``source``: ACLs (``system.posix_acl_*``), SELinux
    labels, ``user.*`` tags. Best effort: a filesystem or label we may not set is left as it is."""
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(source)
    except OSError:
        return
    for name in names:
        with contextlib.suppress(OSError):
            os.setxattr(made, name, os.getxattr(source, name))


def missing_folders(paths: list[Path]) -> list[Path]:
    """The folders a write of ``paths`` would create, deepest first (to remove them again)."""
    missing: set[Path] = set()
    for path in paths:
        folder = real(path).parent
        while not folder.exists() and folder != folder.parent:
            missing.add(folder)
            folder = folder.parent
    return sorted(missing, key=lambda f: len(f.parts), reverse=True)


def make_folders(folder: Path, mode: int | None = None) -> None:
    """``mkdir -p``, each new folder owned like the folder it is made in; ``mode``: exactly that mode."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        owner = owner_of(None, made.parent)
        try:
            os.mkdir(made)
        except FileExistsError:  # another run made it a moment ago
            continue
        give(made, owner, strict=False)
        if mode is not None:
            os.chmod(made, mode)  # not the umask's: the agent reading the file runs as another user


def remove_empty_dirs(folders: list[Path]) -> None:
    """Remove each of ``folders`` (deepest first) that is empty; keep any that is not."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def remove_empty_dir(folder: Path, levels: int = 1) -> None:
    """Remove ``folder`` and up to ``levels - 1`` of its parents, as long as each is empty."""
    remove_empty_dirs([folder, *list(folder.parents)[: max(levels, 1) - 1]])
