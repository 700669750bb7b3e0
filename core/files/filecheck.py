"""What a file on disk is, before hookweave reads or replaces it: its kind, owner, links and flags.

Pure questions over ``os.stat`` results (and one ioctl), each answered with the one-line error
the operator sees, or ``None``. ``fileio`` asks them; nothing here writes.
"""

from __future__ import annotations

import os
import stat
import sys

from hookweave.core.errors import BadInput, Refused
from hookweave.core.files.paths import display

IN_PLACE_ENV = "HOOKWEAVE_WRITE_IN_PLACE"  # "1": rewrite hard-linked files in place (docs/promises.md: hard links)

_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFDIR: "a folder",
}


def in_place() -> bool:
    return os.environ.get(IN_PLACE_ENV) == "1"


def kind(path) -> str:
    """What is at ``path`` in words ("a file", "a FIFO (named pipe)"), for a message."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "a file"
    return _KINDS.get(stat.S_IFMT(mode), "a file")


def not_regular(path, info: os.stat_result) -> BadInput | None:
    """A FIFO, socket or device would block a read forever or feed it without end: refuse it."""
    if stat.S_ISREG(info.st_mode):
        return None
    if stat.S_ISDIR(info.st_mode):
        return BadInput(f"{display(path)}: is a folder, not a settings file; move it away")
    kind = _KINDS.get(stat.S_IFMT(info.st_mode), "not a regular file")
    return BadInput(f"{display(path)}: is {kind}, not a regular file; hookweave reads and writes only "
                    "regular files: replace it with one")


def needs_root(folder) -> Refused | None:
    """A folder root owns that this user may not write in (a managed layer in ``/etc``): the fix is
    to run as root, not to make the folder writable."""
    euid = os.geteuid() if hasattr(os, "geteuid") else 0
    if euid == 0 or os.access(folder, os.W_OK):
        return None
    try:
        if os.stat(folder).st_uid != 0:
            return None
    except OSError:
        return None
    return Refused(f"{display(folder)}: the folder is root's, and hookweave runs as uid {euid}; run as root (sudo), "
                   "or choose another scope")


def replace_problem(path, info: os.stat_result) -> BadInput | None:
    """Why replacing this existing file by a new one (our atomic swap) would change it in a way
    the operator did not ask for: lose a hard link, or an owner or group we cannot give back.
    ``HOOKWEAVE_WRITE_IN_PLACE=1`` answers every one of these: the same inode is rewritten."""
    if info.st_nlink > 1:
        return BadInput(
            f"{display(path)}: has {info.st_nlink} hard links (another name for the same file, e.g. in a dotfiles "
            f"repo), which replacing it would split; set {IN_PLACE_ENV}=1 to rewrite it in place, "
            "or make the other name a symlink"
        )
    euid = os.geteuid() if hasattr(os, "geteuid") else 0
    if euid == 0:
        return None  # root can give every owner and group back
    if info.st_uid != euid:
        return BadInput(
            f"{display(path)}: owned by uid {info.st_uid}, and replacing it as uid {euid} would change its owner; "
            f"run as its owner, or set {IN_PLACE_ENV}=1 to rewrite it in place"
        )
    if info.st_gid not in {os.getegid(), *os.getgroups()}:
        return BadInput(
            f"{display(path)}: its group {info.st_gid} is not one of yours, so replacing it would change its group; "
            f"run as a member of that group, or set {IN_PLACE_ENV}=1 to rewrite it in place"
        )
    return None


_FS_IOC_GETFLAGS = 0x80086601  # _IOR('f', 1, long) on 64-bit Linux
_FS_IMMUTABLE_FL, _FS_APPEND_FL = 0x10, 0x20


def immutable(path, *, folder: bool = False) -> BadInput | None:
    """A file or folder with ``chattr +i`` (or ``+a``): even root cannot replace or create in it."""
    if not sys.platform.startswith("linux"):
        return None
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        buffer = bytearray(8)  # the kernel writes an int; 8 bytes leave room for a long
        fcntl.ioctl(fd, _FS_IOC_GETFLAGS, buffer, True)
    except OSError:  # a filesystem without these flags
        return None
    finally:
        os.close(fd)
    if not int.from_bytes(buffer[:4], sys.byteorder) & (_FS_IMMUTABLE_FL | _FS_APPEND_FL):
        return None
    what = "folder" if folder else "file"
    return BadInput(f"{display(path)}: the {what} is immutable or append-only (chattr +i or +a); "
                    "remove the flag (chattr -i -a) or choose another scope")
