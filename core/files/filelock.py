"""Locks for a write run, and the sweep of temp files a killed run left (part of the disk IO).

Locking the folder, not a lock file, leaves nothing behind; the kernel drops the lock when a
process dies, so a killed run never blocks the next one, which also sweeps away the temp files
a killed run left.

Windows has no ``fcntl`` and cannot open a folder as a file: there each folder's lock is a byte
locked with ``msvcrt.locking`` in a lock file named after the folder, in the temp folder (so the
operator's folders still get nothing). Windows drops it too when a process dies. That path is
proven on Linux with ``msvcrt`` stood in by a byte-range lock (tests/test_windows.py), not on
Windows itself.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Iterator

from hookweave.core.errors import BadInput
from hookweave.core.files.paths import display

TEMP_SUFFIX = ".hookweave-tmp"
STALE_TEMP_SECONDS = 5.0  # older than any live write: a temp file only lives while a write runs


def real(path: Path) -> Path:
    """``path`` with its symlinks followed (a missing tail stays as written)."""
    try:
        return Path(os.path.realpath(path, strict=False))
    except OSError as exc:  # a symlink loop
        raise BadInput(f"{display(path)}: cannot resolve it ({exc.strerror}); fix the symlink") from None


def existing_ancestor(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


@contextlib.contextmanager
def locked(paths: list[Path]) -> Iterator[None]:
    """Advisory locks on the folders of ``paths`` (sorted, so two hookweave runs cannot deadlock).

    The folder's parent is locked too, and first (it sorts first): the folder may not exist yet,
    and a run that creates it, holding the lock of what existed then, would otherwise write beside
    a run that started a moment later and locked the new folder.
    """
    required: dict[str, bool] = {}  # folder -> whether we must hold it (a parent we cannot open: best effort)
    for path in paths:
        folder = real(path).parent
        above = str(existing_ancestor(folder.parent))
        if folder.is_dir():
            required[str(folder)] = True
            required.setdefault(above, False)
        else:
            required[above] = True
    fds: list[int] = []
    try:
        for folder in sorted(required):
            try:
                fd = _open_lock(folder)
            except PermissionError:
                if required[folder]:
                    raise
                continue
            fds.append(fd)
            _lock(fd)
        remove_stale_temps(paths)
        yield
    finally:
        for fd in reversed(fds):
            os.close(fd)  # closing releases the lock (flock, or msvcrt's byte lock)


def _posix() -> bool:
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return False
    return True


def _open_lock(folder: str) -> int:
    if _posix():
        return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    import hashlib
    import tempfile

    where = Path(tempfile.gettempdir()) / "hookweave-locks"
    where.mkdir(exist_ok=True)
    name = hashlib.sha256(os.path.normcase(folder).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.open(where / f"{name}.lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_NOINHERIT", 0), 0o600)


def _lock(fd: int) -> None:
    if _posix():
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    import msvcrt
    import time

    while True:  # LK_LOCK gives up after 10 s; a long run beside us is no error, so wait on
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return
        except OSError:
            time.sleep(0.05)


def _temp_of(name: str, prefix: str) -> bool:
    """``prefix + [a-z0-9_]{8} + TEMP_SUFFIX``, tempfile's name for it, without compiling a pattern a file."""
    middle = name[len(prefix):-len(TEMP_SUFFIX)]
    return (len(middle) == 8 and name.startswith(prefix) and name.endswith(TEMP_SUFFIX)
            and _TEMP_CHARS.issuperset(middle))


_TEMP_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def remove_stale_temps(paths: list[Path]) -> list[Path]:
    """Delete the temp files a killed run left beside ``paths``; call it holding their locks.

    Only names ``tempfile`` makes for one of these files (``.settings.json.<8 chars>.hookweave-tmp``),
    regular files, and none younger than ``STALE_TEMP_SECONDS``, in case some run holds no lock.
    """
    import time

    removed = []
    for path in paths:
        target = real(path)
        prefix = f".{target.name}."
        try:
            names = [n for n in os.listdir(target.parent) if _temp_of(n, prefix)]
        except OSError:
            continue
        for name in names:
            candidate = target.parent / name
            with contextlib.suppress(OSError):
                info = candidate.lstat()
                if stat.S_ISREG(info.st_mode) and time.time() - info.st_mtime > STALE_TEMP_SECONDS:
                    candidate.unlink()
                    removed.append(candidate)
    return removed


@contextlib.contextmanager
def hold(folder: Path) -> Iterator[None]:
    """An advisory lock on ``folder`` itself (made if missing), for a run of many writes (``hooks
    sync``): a second run waits, then finds the work done. Take it on a folder that no write inside
    the run locks (``locked`` locks each file's folder and its parent): one process locking a folder
    twice through two descriptors would wait on itself."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = _open_lock(str(real(folder)))
    try:
        _lock(fd)
        yield
    finally:
        os.close(fd)
