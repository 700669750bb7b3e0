"""Atomic replace and delete of one file, compared against what we planned from (disk IO, for ``fileio``).

Where the system can (Linux ``renameat2``), the new file is exchanged with the old one atomically and
what comes out is checked: not the text we planned from means a host saved in between, and its file
is put back (``Conflict``: we plan again). New files use ``RENAME_NOREPLACE``; deletes move the file
aside first.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
from pathlib import Path

from hookweave.core.errors import Conflict
from hookweave.core.files.filelock import TEMP_SUFFIX
from hookweave.core.files.paths import display


def swap_in(tmp: str, target: Path, expected: bytes | None, data: bytes, shown: Path) -> None:
    """Put the written temp file ``tmp`` (holding ``data``) in place of ``target`` if that still
    holds ``expected``. Files are compared a slice at a time (``holds``), never read whole."""
    if expected is None:  # a new file: create it only if nobody has meanwhile
        try:
            if _rename2(tmp, target, _RENAME_NOREPLACE):
                return
        except FileExistsError:
            raise conflict(shown) from None
    else:
        try:
            swapped = _rename2(tmp, target, _RENAME_EXCHANGE)
        except FileNotFoundError:  # deleted under us
            raise conflict(shown) from None
        if swapped:
            if not holds(Path(tmp), expected):
                _rename2(tmp, target, _RENAME_EXCHANGE)  # a host saved after our look: its file goes back
                if not holds(Path(tmp), data):
                    _rename2(tmp, target, _RENAME_EXCHANGE)  # and saved again since: the newest stays
                raise conflict(shown)
            return
    # No renameat2 here: look last, then rename (a save landing between the two is lost).
    if not holds(target, expected):
        raise conflict(shown)
    os.replace(tmp, target)


CHUNK = 1 << 20


def holds(target: Path, expected: bytes | None) -> bool:
    """Whether ``target`` holds exactly ``expected`` (``None``: that it does not exist), read a
    slice at a time: a big file is never held twice. Something not regular counts as a change."""
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        return expected is None
    try:
        if expected is None or not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        at = 0
        while chunk := os.read(fd, CHUNK):
            # ``startswith`` at an offset compares with memcmp and copies nothing; a memoryview's
            # slice compared with bytes goes item by item (13 million instructions for 0.5 MB).
            if not expected.startswith(chunk, at):
                return False
            at += len(chunk)
        return at == len(expected)
    finally:
        os.close(fd)


def delete(target: Path, expected: bytes, shown: Path) -> None:
    """Take the file aside first, so a save made after our look is put back, not deleted."""
    fd, aside = new_temp(target)
    os.close(fd)
    try:
        try:
            os.replace(target, aside)
        except FileNotFoundError:
            return
        if not holds(Path(aside), expected):
            with contextlib.suppress(FileExistsError):
                os.link(aside, target)  # unless the host has saved yet again: the newest stays
            raise conflict(shown)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(aside)
    fsync_dir(target.parent)


def conflict(path: Path) -> Conflict:
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
    import _ctypes

    err = _ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False
    raise OSError(err, os.strerror(err), str(dst))


@functools.lru_cache(maxsize=None)
def _renameat2():
    """glibc's ``renameat2`` (2.28 and later) as ``ctypes.CDLL(None, use_errno=True).renameat2``
    gives it, made from the same parts of ``_ctypes``: the ``ctypes`` package itself defines every C
    type and loads ``struct`` on import (7.4 million instructions of a write; these, 1.2). Should
    those private parts ever change shape, ``ctypes`` itself gives it, as it did before."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return _from_ctypes_parts()
    except ImportError:  # an interpreter built without ctypes: the portable path
        return None
    except OSError:  # no such symbol in this libc
        return None
    except Exception:  # noqa: BLE001 - _ctypes' private parts not as in CPython 3.10-3.13
        import ctypes

        return getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)


def _from_ctypes_parts():
    import _ctypes

    class _Int(_ctypes._SimpleCData):  # ctypes.c_int: what a foreign function returns by default
        _type_ = "i"

    class _Function(_ctypes.CFuncPtr):  # CDLL's _FuncPtr: C calling convention, errno kept for get_errno
        _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
        _restype_ = _Int

    return _Function(_ctypes.dlsym(_ctypes.dlopen(None), "renameat2"))


_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"  # tempfile's, which filelock._temp_of recognizes
_TEMP_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def new_temp(target: Path) -> tuple[int, str]:
    """``tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=TEMP_SUFFIX)``: a new
    file only we can read (0600), opened, and its absolute name. The same flags and the same names
    (eight of tempfile's characters), drawn from ``os.urandom``: ``tempfile`` and the ``random`` it
    loads cost 4.2 million instructions of every write."""
    folder = os.path.abspath(target.parent)
    for _ in range(getattr(os, "TMP_MAX", 10000)):  # as many tries as tempfile makes
        middle = "".join(_NAME_CHARS[byte % len(_NAME_CHARS)] for byte in os.urandom(8))
        name = os.path.join(folder, f".{target.name}.{middle}{TEMP_SUFFIX}")
        try:
            return os.open(name, _TEMP_FLAGS, 0o600), name
        except FileExistsError:
            continue
        except PermissionError:  # Windows says this for a folder of that name, as tempfile knows
            if os.name == "nt" and os.path.isdir(folder) and os.access(folder, os.W_OK):
                continue
            raise
    raise FileExistsError(errno.EEXIST, "No usable temporary file name found")


def fsync_dir(folder: Path) -> None:
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
