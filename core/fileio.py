"""The only module that touches the disk: reads, locks, and atomic compare-and-swap writes.

Writes go to a temp file beside the real target (a symlink is followed, and stays a link), are
fsynced, get the old file's mode, and replace the target only if it still holds the bytes we
planned from; hosts write these files too and take no lock of ours.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
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
    except NotADirectoryError:
        raise _file_for_folder(path) from None
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
        if not folder.is_dir():
            raise _file_for_folder(path)
    if not os.access(folder, os.W_OK) or not folder.stat().st_mode & stat.S_IWUSR:
        raise BadInput(f"{display(folder)}: the folder is read-only; make it writable or choose another scope")


def _file_for_folder(path: Path) -> BadInput:
    """The error for a path whose folder is, in fact, a file (``.claude`` written as a file)."""
    blocker = _existing_ancestor(Path(os.path.realpath(path.parent)))
    return BadInput(f"{display(path)}: {display(blocker)} is a file, not a folder; move it away")


def _existing_ancestor(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


@contextlib.contextmanager
def locked(paths: list[Path]) -> Iterator[None]:
    """Advisory locks on the folders of ``paths`` (sorted, so two hookweave runs cannot deadlock).

    Locking the folder, not a lock file, leaves nothing behind; the kernel drops the lock when a
    process dies, so a killed run never blocks the next one, which also sweeps away the temp files
    a killed run left.

    The folder's parent is locked too, and first (it sorts first): the folder may not exist yet,
    and a run that creates it, holding the lock of what existed then, would otherwise write beside
    a run that started a moment later and locked the new folder.
    """
    import fcntl

    required: dict[str, bool] = {}  # folder -> whether we must hold it (a parent we cannot open: best effort)
    for path in paths:
        folder = _real(path).parent
        above = str(_existing_ancestor(folder.parent))
        if folder.is_dir():
            required[str(folder)] = True
            required.setdefault(above, False)
        else:
            required[above] = True
    fds: list[int] = []
    try:
        for folder in sorted(required):
            try:
                fd = os.open(folder, os.O_RDONLY)
            except PermissionError:
                if required[folder]:
                    raise
                continue
            fds.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
        remove_stale_temps(paths)
        yield
    finally:
        for fd in reversed(fds):
            os.close(fd)  # closing releases the flock


def write_text(path: Path, text: str | None, expected: str | None, *, like: Path | None = None) -> None:
    """Replace ``path`` with ``text`` (``None`` deletes it) if it still holds ``expected``.

    A file that exists keeps its mode; a new one gets the mode of ``like`` (the settings file a
    record sits beside: the record of a 0600 file is 0600 too) when that exists, else the umask's.

    Hosts save these files without our lock, so "compare, then rename" would lose a save that lands
    between the two. Where the system can (Linux ``renameat2``), the new file is exchanged with the
    old one atomically and what comes out is checked: not the text we planned from means a host
    saved in between, and its file is put back (``Conflict``: we plan again).
    """
    real = _real(path)
    if read_text(real) != expected:
        raise _conflict(path)
    if text is None:
        if expected is not None:
            _delete(real, expected, path)
        return
    real.parent.mkdir(parents=True, exist_ok=True)
    mode = real.stat().st_mode & 0o7777 if expected is not None else _new_file_mode(like)
    fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        _test_pause()
        _swap_in(tmp, real, expected, text, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)  # on success it holds the old file, or is gone (plain rename)
    _fsync_dir(real.parent)


def _swap_in(tmp: str, real: Path, expected: str | None, text: str, shown: Path) -> None:
    if expected is None:  # a new file: create it only if nobody has meanwhile
        try:
            if _rename2(tmp, real, _RENAME_NOREPLACE):
                return
        except FileExistsError:
            raise _conflict(shown) from None
    else:
        try:
            swapped = _rename2(tmp, real, _RENAME_EXCHANGE)
        except FileNotFoundError:  # deleted under us
            raise _conflict(shown) from None
        if swapped:
            if Path(tmp).read_bytes() != expected.encode("utf-8"):
                _rename2(tmp, real, _RENAME_EXCHANGE)  # a host saved after our look: its file goes back
                if Path(tmp).read_bytes() != text.encode("utf-8"):
                    _rename2(tmp, real, _RENAME_EXCHANGE)  # and saved again since: the newest stays
                raise _conflict(shown)
            return
    # No renameat2 here: look last, then rename (a save landing between the two is lost).
    if read_text(real) != expected:
        raise _conflict(shown)
    os.replace(tmp, real)


def _delete(real: Path, expected: str, shown: Path) -> None:
    """Take the file aside first, so a save made after our look is put back, not deleted."""
    fd, aside = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=TEMP_SUFFIX)
    os.close(fd)
    try:
        try:
            os.replace(real, aside)
        except FileNotFoundError:
            return
        if Path(aside).read_bytes() != expected.encode("utf-8"):
            with contextlib.suppress(FileExistsError):
                os.link(aside, real)  # unless the host has saved yet again: the newest stays
            raise _conflict(shown)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(aside)
    _fsync_dir(real.parent)


def _conflict(path: Path) -> Conflict:
    return Conflict(f"{display(path)}: changed while hookweave was working; run the command again")


_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2


def _rename2(src: str, dst: Path, flags: int) -> bool:
    """Linux ``renameat2(src, dst, flags)``; ``False`` where the system or filesystem lacks it."""
    call = _renameat2()
    if call is None:
        return False
    at_fdcwd = -100
    if call(at_fdcwd, os.fsencode(src), at_fdcwd, os.fsencode(dst), flags) == 0:
        return True
    import ctypes

    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False
    raise OSError(err, os.strerror(err), str(dst))


@functools.lru_cache(maxsize=None)
def _renameat2():
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    return getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)  # glibc 2.28 and later


TEMP_SUFFIX = ".hookweave-tmp"
STALE_TEMP_SECONDS = 5.0  # older than any live write: a temp file only lives while a write runs


def remove_stale_temps(paths: list[Path]) -> list[Path]:
    """Delete the temp files a killed run left beside ``paths``; call it holding their locks.

    Only names ``tempfile`` makes for one of these files (``.settings.json.<8 chars>.hookweave-tmp``),
    regular files, and none younger than ``STALE_TEMP_SECONDS``, in case some run holds no lock.
    """
    import re
    import time

    removed = []
    for path in paths:
        real = _real(path)
        pattern = re.compile(re.escape(f".{real.name}.") + r"[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))
        try:
            names = [n for n in os.listdir(real.parent) if pattern.fullmatch(n)]
        except OSError:
            continue
        for name in names:
            candidate = real.parent / name
            with contextlib.suppress(OSError):
                info = candidate.lstat()
                if stat.S_ISREG(info.st_mode) and time.time() - info.st_mtime > STALE_TEMP_SECONDS:
                    candidate.unlink()
                    removed.append(candidate)
    return removed


def _test_pause() -> None:
    """TEST-ONLY: ``HOOKWEAVE_TEST_SLOW_WRITE=<seconds>`` stalls every write inside its critical
    section (temp file written, not yet swapped in), so attack tests can land a host save or a
    SIGKILL there at will. Never set it otherwise."""
    delay = os.environ.get("HOOKWEAVE_TEST_SLOW_WRITE")
    if delay:
        import time

        time.sleep(float(delay))


def _new_file_mode(like: Path | None) -> int:
    if like is not None:
        with contextlib.suppress(OSError):
            return like.stat().st_mode & 0o777
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
