"""The only module that touches the disk: reads, locks, and atomic compare-and-swap writes.

Writes go to a temp file beside the real target (a symlink is followed, and stays a link), are
fsynced, get the old file's mode, and replace the target only if it still holds the bytes we
planned from; hosts write these files too and take no lock of ours.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterator

from hookweave.core.errors import BadInput, Conflict
from hookweave.core.paths import display


def read_text(path: Path) -> str | None:
    """The file's text, or ``None`` when it does not exist. Refuses what we could not write back."""
    if path.is_symlink() and not path.exists():
        raise BadInput(f"{display(path)}: a symlink to {os.readlink(path)}, which does not exist; fix or remove the link")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise BadInput(f"{display(path)}: is a folder, not a settings file; move it away") from None
    except OSError as exc:
        raise BadInput(f"{display(path)}: cannot read it ({exc.strerror}); fix its permissions") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{display(path)}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None


def _real(path: Path) -> Path:
    try:
        return Path(os.path.realpath(path, strict=False))
    except OSError as exc:  # a symlink loop
        raise BadInput(f"{display(path)}: cannot resolve it ({exc.strerror}); fix the symlink") from None


def check_writable(path: Path) -> None:
    """Refuse before planning when the file, or the folder it would be created in, is read-only."""
    real = _real(path)
    if os.path.islink(real):
        raise BadInput(f"{display(path)}: a symlink loop; fix the symlink")
    if real.exists():
        if not real.stat().st_mode & stat.S_IWUSR:
            raise BadInput(f"{display(path)}: the file is read-only; make it writable (chmod u+w) or choose another scope")
        folder = real.parent
    else:
        folder = _existing_ancestor(real.parent)
    if not os.access(folder, os.W_OK) or not folder.stat().st_mode & stat.S_IWUSR:
        raise BadInput(f"{display(folder)}: the folder is read-only; make it writable or choose another scope")


def _existing_ancestor(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


@contextlib.contextmanager
def locked(paths: list[Path]) -> Iterator[None]:
    """Advisory locks on the folders of ``paths`` (sorted, so two hookweave runs cannot deadlock).

    Locking the folder, not a lock file, leaves nothing behind; the kernel drops the lock when a
    process dies, so a killed run never blocks the next one.
    """
    import fcntl

    folders = sorted({str(_existing_ancestor(_real(p).parent)) for p in paths})
    fds: list[int] = []
    try:
        for folder in folders:
            fd = os.open(folder, os.O_RDONLY)
            fds.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        for fd in reversed(fds):
            os.close(fd)  # closing releases the flock


def write_text(path: Path, text: str | None, expected: str | None) -> None:
    """Replace ``path`` with ``text`` (``None`` deletes it) if it still holds ``expected``."""
    real = _real(path)
    if read_text(real) != expected:
        raise Conflict(f"{display(path)}: changed while hookweave was working; run the command again")
    if text is None:
        real.unlink(missing_ok=True)
        _fsync_dir(real.parent)
        return
    real.parent.mkdir(parents=True, exist_ok=True)
    mode = real.stat().st_mode & 0o7777 if expected is not None else _new_file_mode(real.parent)
    fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".hookweave-tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if read_text(real) != expected:  # last look before the swap: a host may have just saved
            raise Conflict(f"{display(path)}: changed while hookweave was working; run the command again")
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(real.parent)


def _new_file_mode(folder: Path) -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:  # some filesystems cannot fsync a folder
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)


def remove_empty_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        folder.rmdir()
